"""Exact solvers over cards (opt-in: ``from openrummy.solve import best_play``).

* :func:`best_play`: the best rearrangement of a manipulation-game table with a hand
  (most cards, then most value, then fewest changes), the opening rule included.
* :func:`can_arrange` / :func:`arrange`: can these cards be laid out as valid melds?
* :func:`explain`: a before/after table as numbered steps in English or German.
* :class:`SolverSettings`: how the table solver searches (never what it answers).
"""

from openrummy.solve.explain import Step, StepKind, apply_steps, explain, explain_steps
from openrummy.solve.settings import SolverSettings
from openrummy.solve.table import BestPlay, arrange, best_play, can_arrange

__all__ = [
    "BestPlay",
    "SolverSettings",
    "Step",
    "StepKind",
    "apply_steps",
    "arrange",
    "best_play",
    "can_arrange",
    "explain",
    "explain_steps",
]
