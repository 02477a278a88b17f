"""The table solver's core problem, in numbers, and what every search of it shares (private).

:mod:`._dp` (the Python search and the question loop), :mod:`._fast` (the compiled search)
and :mod:`._milp` (the integer program) all read a :class:`CoreProblem` under a
:class:`CoreSpec` and answer with a :class:`CoreResult`; the set tables below turn the
naturals of one rank into sets for both searches. This module imports none of them, so
the three import it and each other in one direction only (``_dp`` may load ``_fast``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter
from typing import Any, Protocol

__all__ = [
    "HIGH",
    "ITEMS",
    "LOW",
    "NEG",
    "OPEN_NONE",
    "OPEN_POINTS",
    "OPEN_RUN",
    "WRAP",
    "BudgetExceeded",
    "CoreMelds",
    "CoreProblem",
    "CoreResult",
    "CoreSpec",
    "Prover",
    "set_cut",
    "set_jokers",
    "set_melds",
    "split_run",
    "tracked_naturals",
]

NEG = -(1 << 60)
"""The score of "impossible" (far below any real score, and sums of it stay finite)."""

LOW, HIGH, WRAP = 0, 1, 2
"""Ace modes: low only, high or low (Q-K-A), wrap-around (K-A-2)."""

OPEN_NONE, OPEN_POINTS, OPEN_RUN = 0, 1, 2
"""Opening requirement in force: none, hand-only melds worth a threshold, a run from hand."""


@dataclass(frozen=True, slots=True)
class CoreSpec:
    """Meld and opening rules, reduced to numbers."""

    ace: int = LOW
    min_len: int = 3
    min_nat: int = 1
    set_max: int = 4
    open_mode: int = OPEN_NONE
    open_all: bool = False
    """Every meld must be an opening meld (table untouched, hand-only melds)."""
    threshold: int = 0
    run_length: int = 3
    open_value: tuple[int, ...] = (0,) * 13
    """Opening value of each rank when low (index 0 = ace low)."""
    open_ace_high: int = 0
    """Opening value of an ace after a king, or in a set."""
    open_joker: int | None = None
    """Opening value of a joker, or None for the value of the card it represents."""


@dataclass(frozen=True, slots=True)
class CoreProblem:
    """One position as counts: ``table[s][r]`` and ``hand[s][r]`` copies of each natural
    (suit 0..3, rank index 0..12 = A..K), the jokers of each, and the weight of each hand
    card placed (the table solver's: a count unit plus the penalty value)."""

    table: tuple[tuple[int, ...], ...]
    hand: tuple[tuple[int, ...], ...]
    table_jokers: int
    hand_jokers: int
    weight: tuple[tuple[int, ...], ...]
    joker_weight: int


class BudgetExceeded(Exception):
    """The search looked at more states than it was allowed (see ``solve_core``)."""


@dataclass(slots=True)
class CoreResult:
    """Best score and melds; a meld is (is_run, items), an item (suit, rank 1..13, joker, tag)."""

    score: int
    melds: list[tuple[bool, list[tuple[int, int, bool, bool]]]] = field(default_factory=list)
    states: int = 0


ITEMS = tuple(
    tuple((v >> 5, (v >> 1) & 15, bool(v & 1), tag) for v in range(128)) for tag in (False, True)
)
"""The items of :class:`CoreResult` melds by code ``suit * 32 + rank * 2 + joker``, untagged
and tagged (shared tuples: building them is most of the cost of reading an answer)."""


class CoreMelds(list[tuple[bool, list[tuple[int, int, bool, bool]]]]):
    """Core melds (:class:`CoreResult`) that also hold their items as numbers, as the
    compiled search's answer reads them (:func:`._fast._melds_from`): ``codes``, every
    item's ``suit * 32 + rank * 2 + joker`` meld after meld, and ``heads``, per meld
    ``items * 4 + is_run * 2 + tag`` (what the compiled tie-break reads: the items are
    not read again). A copy or a sum of such lists is a plain list."""

    __slots__ = ("codes", "heads")

    codes: list[int]
    heads: list[int]


# -- sets ------------------------------------------------------------------------------


def _set_choices(present: int) -> tuple[tuple[tuple[int, ...], int, int, int, int], ...]:
    """The naturals a set may take when the suits of bit mask ``present`` have some: one of
    the first present suit and any of the others (in :func:`_set_parts`' order, the
    others' subsets by increasing mask), each as (suits, copies taken of suits 0..3)."""
    present_suits = [s for s in range(4) if present >> s & 1]
    first, others = present_suits[0], present_suits[1:]
    out = []
    for mask in range(1 << len(others)):
        suits = (first, *(others[i] for i in range(len(others)) if mask >> i & 1))
        d = [1 if s in suits else 0 for s in range(4)]
        out.append((suits, d[0], d[1], d[2], d[3]))
    return tuple(out)


_SET_CHOICES = (None, *(_set_choices(present) for present in range(1, 16)))


@cache
def _set_parts(
    n: tuple[int, ...], k: int, min_nat: int, set_max: int
) -> tuple[tuple[tuple[int, ...], int], ...] | None:
    """One way to cut ``n[s]`` naturals of suit s (four suits) plus exactly ``k`` jokers
    into sets.

    Returns a tuple of (suits of the naturals, jokers) per set, or None. Every natural
    must be in some set, so the set holding one copy of the first suit present is chosen
    first (the other suits' subsets in the order of their bit masks, for each the fewest
    jokers first); the rest is the same problem, smaller.
    """
    if k < 0:
        return None
    n0, n1, n2, n3 = n
    choices = _SET_CHOICES[(n0 > 0) | (n1 > 0) << 1 | (n2 > 0) << 2 | (n3 > 0) << 3]
    if choices is None:
        if k == 0:
            return ()
        if min_nat > 0:
            return None
        for size in range(3, set_max + 1):
            if size <= k:
                rest = _set_parts(n, k - size, min_nat, set_max)
                if rest is not None:
                    return (((), size), *rest)
        return None
    for suits, d0, d1, d2, d3 in choices:
        a = len(suits)
        if a < min_nat:
            continue
        rest_n = (n0 - d0, n1 - d1, n2 - d2, n3 - d3)
        for b in range(3 - a if a < 3 else 0, min(k, set_max - a) + 1):
            rest = _set_parts(rest_n, k - b, min_nat, set_max)
            if rest is not None:
                return ((suits, b), *rest)
    return None


@cache
def set_jokers(n: tuple[int, ...], kmax: int, min_nat: int, set_max: int) -> tuple[int, ...]:
    """Joker counts (≤ kmax) that can join these naturals in valid sets, largest first."""
    return tuple(k for k in range(kmax, -1, -1) if _set_parts(n, k, min_nat, set_max) is not None)


def tracked_naturals(prob: CoreProblem, spec: CoreSpec) -> int:
    """The naturals a run label counts (capped): natural counts matter only if jokers could
    make a run short of naturals, that is a run of length >= min_len with fewer than
    min_nat naturals holds more than min_len - min_nat jokers."""
    jm = prob.table_jokers + prob.hand_jokers
    return spec.min_nat if jm > spec.min_len - spec.min_nat else 0


def set_melds(
    naturals: tuple[int, ...], jokers: int, r: int, tag: bool, min_nat: int, set_max: int
) -> list[tuple[bool, list[tuple[int, int, bool, bool]]]]:
    """The sets of rank index ``r`` holding ``naturals[s]`` naturals of each suit s and
    ``jokers`` jokers (a joker stands for a suit missing from its set)."""
    items = _rank_items(r + 1, tag)
    return [(False, list(pick(items))) for pick in set_cut(naturals, jokers, min_nat, set_max)]


@cache
def _rank_items(rank: int, tag: bool) -> tuple[tuple[int, int, bool, bool], ...]:
    """The items a set of ``rank`` may hold, item ``2 * suit + joker`` (:func:`set_cut`)."""
    return tuple((s, rank, joker, tag) for s in range(4) for joker in (False, True))


@cache
def set_cut(
    naturals: tuple[int, ...], jokers: int, min_nat: int, set_max: int
) -> tuple[Callable[[tuple[Any, ...]], Any], ...]:
    """The sets of :func:`set_melds` without their rank, remembered per shape (the ranks
    of a table repeat their shapes): per set, what picks its items from a rank's
    :func:`_rank_items`, or from their codes (the naturals by suit, then each joker for a
    missing suit in turn; a set holds three items or more, so each pick is a tuple)."""
    parts = _set_parts(naturals, jokers, min_nat, set_max)
    assert parts is not None
    out = []
    for suits, b in parts:
        picks = [2 * s for s in suits]
        missing = [s for s in range(4) if s not in suits] or [0, 1, 2, 3]
        for i in range(b):
            picks.append(2 * missing[i % len(missing)] + 1)
        out.append(itemgetter(*picks))
    return tuple(out)


# -- the search contract -----------------------------------------------------------------


class Prover(Protocol):
    """What the question loop of :func:`solve_core` asks of a search (Python or compiled)."""

    budget: int

    @property
    def states(self) -> int: ...

    @property
    def upper_after(self) -> int:
        """States the first question may visit before the outside bound is asked (the
        search's own setting: ``lp_after`` or ``compiled_lp_after``)."""

    @property
    def upper_on_no(self) -> bool:
        """Whether the outside bound is asked when the first question is answered no."""

    def node_ub(self) -> int: ...

    def ask(
        self, need: int, best: bool = False, steps: int = 1, floor: int = NEG
    ) -> tuple[int, int] | None:
        """The root's bounds after "can everything add ``need``?"; None: over budget.

        ``best``: a hint to go on to the best completion above ``need`` (a search may
        answer the question only; the loop then asks again). ``steps``: while the answer
        is no, ask again at the root's new upper bound as long as it is above ``floor``
        (and not negative), up to ``steps`` questions in all."""

    def root_lo(self) -> int: ...

    def root_hi(self) -> int:
        """The root's proven upper bound (a search cut short by its budget keeps it)."""

    def melds(self) -> list[tuple[bool, list[tuple[int, int, bool, bool]]]]: ...


def split_run(
    items: list[tuple[int, int, bool, bool]], L: int, M: int
) -> list[list[tuple[int, int, bool, bool]]]:
    """Cut a run that went over the K–A corner (maybe more than 13 long) into valid runs
    of ``L`` to 13 items with at least ``M`` naturals each."""
    n = len(items)
    if n <= 13:
        return [items]
    # shortest-first DP over cut points: pieces of length L..13 with >= M naturals
    nat = [0] * (n + 1)
    for i, it in enumerate(items):
        nat[i + 1] = nat[i] + (0 if it[2] else 1)
    prev = [-1] * (n + 1)
    reach = [False] * (n + 1)
    reach[0] = True
    for i in range(n):
        if not reach[i]:
            continue
        for ln in range(L, 14):
            k = i + ln
            if k > n:
                break
            if nat[k] - nat[i] >= M and not reach[k]:
                reach[k] = True
                prev[k] = i
    if not reach[n]:
        raise AssertionError("a long run could not be split")
    out = []
    k = n
    while k > 0:
        i = prev[k]
        out.append(items[i:k])
        k = i
    return out[::-1]
