"""Exact solvers over cards (opt-in: ``from openrummy.solve import best_play``).

* :func:`best_play`: the best rearrangement of a manipulation-game table with a hand
  (most cards, then most value, then fewest changes), the opening rule included.
* :func:`can_arrange` / :func:`arrange`: can these cards be laid out as valid melds?
* :func:`explain`: a before/after table as numbered steps in English or German.
* :class:`SolverSettings`: how the table solver searches (never what it answers).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openrummy.solve.settings import SolverSettings
    from openrummy.solve.table import BestPlay, arrange, best_play, can_arrange

# The steps are imported at once (they need only cards and melds): a function named like its
# submodule (``explain``) must be bound before anything imports ``openrummy.solve.explain``,
# or the package attribute would be that module.
from openrummy.solve.explain import Step, StepKind, apply_steps, explain, explain_steps

# Loaded on first use (PEP 562): a submodule such as ``openrummy.solve.compiled`` imports
# without HiGHS and the table solver.
_LAZY: dict[str, str] = {
    "SolverSettings": "openrummy.solve.settings",
    "BestPlay": "openrummy.solve.table",
    "arrange": "openrummy.solve.table",
    "best_play": "openrummy.solve.table",
    "can_arrange": "openrummy.solve.table",
}

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


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'openrummy.solve' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
