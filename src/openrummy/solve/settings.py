"""How the table solver searches: one frozen value passed to every entry point.

The answer of :func:`openrummy.solve.best_play` (count, value, the legality of the play)
never depends on these settings; they choose *how* the optimum is found and proven, and so
how long that takes. The defaults are the measured best on the benchmark positions
(``bench/solver.py``). Other values exist for the tests, which check that every path gives
the same optimum (the Python core alone, the linear relaxation asked first, the integer
program alone, …), and for experiments::

    >>> from openrummy import find_preset, parse_cards, Meld
    >>> from openrummy.solve import SolverSettings, best_play
    >>> python_core = SolverSettings(compiled=False)
    >>> rules = find_preset("robbers")
    >>> table = [Meld.parse("[4S 5S 6S 7S]")]
    >>> best_play(rules, table, parse_cards("3S 4H 4D"), settings=python_core).count
    2

``docs/solver.md`` describes the search each setting belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from openrummy.errors import ConfigError

__all__ = ["DEFAULT_SETTINGS", "SolverSettings"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SolverSettings:
    """The table solver's search strategy (see the module docstring: results never change).

    Budgets are counted in states of the Python core; the compiled core's states are
    cheaper, and its budgets are these times ``compiled_state_factor``.
    """

    compiled: bool = True
    """Use the compiled core (numba) for the problems it handles (every ace mode with no
    opening rule in force, and opening turns through their list of ways to open; see
    docs/solver.md); False sends every problem to the Python core."""

    race: bool = True
    """Race the compiled search against the same search of the mirrored problem (ranks
    reversed; with high-or-low aces 2..K reversed and the ace kept), and with wrap-around
    aces against searches cutting the cycle at another rank, asking each question of all
    of them in turns; False asks one direction only."""

    race_step: int = 1_000
    """States the first search of a race may visit before the next one starts; each
    turn's budget doubles after every search of the race has had one."""

    descent: int = 8
    """Questions asked from above ("can the rest reach the best the bounds allow?") before
    the search switches to branch and bound."""

    lp_bound: bool = True
    """Ask the linear relaxation (HiGHS) for an upper bound, or an optimal play when its
    solution is integral, when the first question is not answered quickly."""

    lp_after: int = 1_500
    """States the Python core's first question ("can every hand card be placed?") may
    visit before the linear relaxation is asked (0: at once)."""

    compiled_lp_after: int = 12_000
    """The same for the compiled core, whose states cost about a twentieth."""

    compiled_lp_on_no: bool = False
    """Whether the compiled core asks the linear relaxation when the first question is
    answered no within ``compiled_lp_after`` (its own proof is usually faster)."""

    compiled_state_factor: int = 16
    """Budgets given in Python-core states are multiplied by this for the compiled core."""

    dp_budget: int = 60_000
    """States the dynamic program may memoise before the position goes to the integer
    program (HiGHS), which answers in bounded memory (0: the integer program alone)."""

    keep_budget: int = 300
    """States one question of the kept-melds tie-break ("can the play's melds around this
    meld be arranged again without it?") may visit; a question over budget counts as no
    (the tie-break is best-effort)."""

    python_first: int = 0
    """While the compiled core is not loaded in this process, search each problem with the
    Python core first for up to this many states, and load the compiled core only past
    them (0: the compiled core at once). Loading it costs a process about a second, far
    more than the Python core needs for a small position; ``rummy solve`` sets this."""

    open_in_parts: bool = True
    """For an opening turn that may also play on the table, try the two fast answers first
    (the best play without the opening rule, and "open with some hand-only melds, then
    play") before the full opening search."""

    open_splits: int = 16
    """Ways of opening (subsets of the hand-only opening's melds) that ``open_in_parts``
    tries."""

    open_candidates: int = 400
    """When ``open_in_parts`` does not settle an opening turn, the hand's ways to open
    (distinct sets of hand cards that hand-only melds worth the threshold use) are each
    tried as "open with these, then play as an opened player", if there are at most this
    many; more go to the full opening search (0: always the full search)."""

    open_bound_budget: int = 250
    """States (of the Python core; the compiled core's are ``compiled_state_factor`` times
    as many) the best play without the opening rule may take when it only bounds the list
    of ways to open (it stops the list once a way reaches it); past them the list runs to
    its end."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool":
                if not isinstance(value, bool):
                    raise ConfigError(f"SolverSettings.{f.name} must be True or False")
            elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"SolverSettings.{f.name} must be a whole number >= 0")
        if self.compiled_state_factor < 1:
            raise ConfigError("SolverSettings.compiled_state_factor must be at least 1")


DEFAULT_SETTINGS = SolverSettings()
"""The settings every entry point uses unless given others."""
