"""The exact table solver of the manipulation games (Robbers' Rummy, Rummikub).

Given the table and a hand, :func:`best_play` finds the complete new table that

1. places the most hand cards, then
2. places the most penalty value (``rules.penalty_value``: what you keep costs you), then
3. keeps the most existing melds unchanged (a greedy tie-break, see below),

under every meld option of the preset (ace modes, ``meld.min_len``, ``meld.min_naturals``,
``meld.set_max``, any number of copies and 0–6 jokers) and, for a player who has not
opened, the opening rule (RULES.md §2.3). Every card on the table, jokers included, stays
on the table; the solver never lifts a joker to the hand.

    >>> from openrummy import find_preset, parse_cards, Meld
    >>> rules = find_preset("robbers")
    >>> play = best_play(rules, [Meld.parse("[4S 5S 6S 7S]")], parse_cards("3S 4H 4D JK"))
    >>> play.count, play.value, [str(m) for m in play.table]
    (4, 41, ['[3S 4S 5S 6S 7S]', '[JK=4S 4H 4D]'])

Steps 1 and 2 are exact: one dynamic program over ranks maximises ``count × B + value``
with ``B`` above any possible value (``docs/solver.md`` says why it is exact). Step 3 is
a tie-break among optimal plays: each old meld the optimal play does not hold is kept
when the few melds of the play that hold its cards can be arranged again without them
(the same hand cards placed). The kept set is maximal among those repairs but not always
maximum: counting unchanged melds is not a quantity that the rank-by-rank program can add
up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from itertools import count, pairwise
from typing import TYPE_CHECKING, Any

from openrummy._memo import by_identity
from openrummy.cards import JOKER, Card, Suit
from openrummy.errors import ConfigError, InvalidMeldError
from openrummy.melds import AceMode, Meld, MeldItem, MeldRules, run_order
from openrummy.rules.common import DeckKind
from openrummy.rules.manipulation import JokerValue, ManipulationRules, Mobility, OpeningType
from openrummy.solve import compiled
from openrummy.solve._dp import solve_core
from openrummy.solve._problem import (
    HIGH,
    LOW,
    NEG,
    OPEN_NONE,
    OPEN_POINTS,
    OPEN_RUN,
    WRAP,
    BudgetExceeded,
    CoreProblem,
    CoreResult,
    CoreSpec,
)
from openrummy.solve.compiled import available as compiled_available
from openrummy.solve.settings import DEFAULT_SETTINGS, SolverSettings

if TYPE_CHECKING:
    from openrummy.solve._fast import BareSearch
    from openrummy.solve._opening import OpeningMeld

__all__ = [
    "BestPlay",
    "arrange",
    "best_play",
    "can_arrange",
    "can_place",
    "in_play_order",
    "play_order_key",
    "table_cards",
]


@dataclass(frozen=True, slots=True)
class BestPlay:
    """The answer of :func:`best_play`.

    ``table`` is the complete table after the play, jokers with explicit identities.
    ``placed`` are the hand cards it uses, ``hand`` what stays in the hand; ``count`` and
    ``value`` measure ``placed`` (penalty values). ``kept`` counts the melds of the old
    table that are still there unchanged. For a player who has not opened, ``opening``
    lists the hand-only melds that make the opening; an empty ``placed`` means that no
    play (no opening) is possible.
    """

    table: tuple[Meld, ...]
    placed: tuple[Card, ...]
    hand: tuple[Card, ...]
    count: int
    value: int
    kept: int
    opening: tuple[Meld, ...] = ()
    before: tuple[Meld, ...] = ()
    """The table before the play, as melds (a flat table is arranged first)."""

    @property
    def is_pass(self) -> bool:
        """True when nothing can be placed (the player must draw or pass)."""
        return self.count == 0


def table_cards(table: Sequence[Meld] | Sequence[Card]) -> list[Card]:
    """The cards of a table given as melds or as a flat list of cards."""
    out: list[Card] = []
    for m in table:
        if isinstance(m, Meld):
            out.extend(m.cards)
        else:
            out.append(m)
    return out


# -- building the core problem ---------------------------------------------------------


def _norm_card(card: Card, tiles: bool) -> Card:
    """The card as a card or tile of this deck, as the one shared object per card (so
    that counting cards meets the same objects, not equal ones)."""
    if card.suit is None:
        return JOKER
    return _naturals(tiles)[int(card.suit)][card.rank - 1]


def _norm_cards(cards: Iterable[Card], tiles: bool) -> list[Card]:
    """:func:`_norm_card` of each card."""
    nat = _naturals(tiles)
    return [JOKER if c.suit is None else nat[c.suit][c.rank - 1] for c in cards]


def _check_supply(rules: ManipulationRules, cards: Sequence[Card]) -> None:
    copies = rules.deck.standard_decks
    counts = Counter(cards)
    jokers = counts.pop(JOKER, 0)
    if jokers <= rules.deck.printed_jokers and max(counts.values(), default=0) <= copies:
        return
    if jokers:
        counts[JOKER] = jokers
    for card, n in sorted(counts.items(), key=lambda kv: kv[0].sort_key()):
        if card.is_joker:
            if n > rules.deck.printed_jokers:
                raise ConfigError(
                    f"{n} jokers, but the deck holds only {rules.deck.printed_jokers} "
                    f"(deck.printed_jokers)"
                )
        elif n > copies:
            raise ConfigError(
                f"{n} copies of {card}, but the deck holds only {copies} "
                f"(deck.standard_decks = {copies})"
            )


def _counts(cards: Sequence[Card]) -> tuple[list[list[int]], int]:
    arr = [[0] * 13 for _ in range(4)]
    jokers = 0
    for c in cards:
        if c.suit is None:
            jokers += 1
        else:
            arr[int(c.suit)][c.rank - 1] += 1
    return arr, jokers


@by_identity
def _spec(rules: ManipulationRules, open_mode: int, open_all: bool) -> CoreSpec:
    m = rules.meld
    ace = {AceMode.LOW_ONLY: LOW, AceMode.HIGH_OR_LOW: HIGH, AceMode.WRAPAROUND: WRAP}[m.ace_mode]
    o = rules.opening
    tiles = rules.deck.kind is DeckKind.TILES
    values = tuple(
        rules.opening_value_of_card(Card(r, Suit.S, tiles), ace_high=False) for r in range(1, 14)
    )
    ace_high = rules.opening_value_of_card(Card(1, Suit.S, tiles), ace_high=True)
    jv: int | None = None
    if o.joker_value is JokerValue.PENALTY:
        jv = rules.scoring.joker_penalty
    elif o.joker_value is JokerValue.ZERO:
        jv = 0
    return CoreSpec(
        ace=ace,
        min_len=m.min_len,
        min_nat=m.min_naturals,
        set_max=m.set_max,
        open_mode=open_mode,
        open_all=open_all,
        threshold=o.threshold,
        run_length=o.run_length,
        open_value=values,
        open_ace_high=ace_high,
        open_joker=jv,
    )


@by_identity
def _penalties(rules: ManipulationRules) -> tuple[tuple[int, ...], ...]:
    """Penalty value of each natural, by suit and rank index."""
    tiles = rules.deck.kind is DeckKind.TILES
    return tuple(
        tuple(rules.penalty_value(Card(r + 1, Suit(s), tiles)) for r in range(13)) for s in range(4)
    )


@cache
def _naturals(tiles: bool) -> tuple[tuple[Card, ...], ...]:
    """The naturals by suit and rank index (cards or tiles)."""
    return tuple(tuple(Card(r + 1, Suit(s), tiles) for r in range(13)) for s in range(4))


@cache
def _windows(ace: int, L: int, longest: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per rank index, every run window of length ``L`` to ``longest`` (at most 13) through
    it, shortest first, as (length, bit mask of its rank indices).

    Positions run 0..13 where 13 is the ace high (HIGH_OR_LOW) or the ace again (WRAP);
    a window holds a rank index at most once (13 -> 0)."""
    span = 13 if ace == LOW else 14
    cyc = ace == WRAP
    out: list[list[tuple[int, int]]] = [[] for _ in range(13)]
    for ln in range(L, min(longest, 13) + 1):
        for start in range(span - ln + 1 if not cyc else 13):
            rs = [(start + k) % 13 for k in range(ln)]
            mask = sum(1 << x for x in rs)
            for r in rs:
                out[r].append((ln, mask))
    return tuple(tuple(w) for w in out)


@cache
def _items(tiles: bool) -> tuple[tuple[tuple[MeldItem, ...], ...], ...]:
    """Meld items by [is a joker][suit][rank index]: a natural, or a joker standing for it."""
    cards = _naturals(tiles)
    return (
        tuple(tuple(MeldItem.natural(c) for c in row) for row in cards),
        tuple(tuple(MeldItem(JOKER, c) for c in row) for row in cards),
    )


_ROUND_BUDGET = 200
"""States (Python-core units) the search may spend on the rest of a rounded relaxation
(the compiled core's race: 3,200, so that the second of its searches gets a full turn)."""


def lp_bound(prob: CoreProblem, spec: CoreSpec) -> tuple[int | None, CoreResult | None]:
    """:func:`._milp.lp_bound`, imported on first use: HiGHS (and numpy) load only for the
    positions that ask the linear relaxation, not for every ``rummy solve``."""
    from openrummy.solve import _milp

    return _milp.lp_bound(prob, spec)


def solve_milp(prob: CoreProblem, spec: CoreSpec) -> CoreResult:
    """:func:`._milp.solve_milp`, imported on first use (see :func:`lp_bound`)."""
    from openrummy.solve import _milp

    return _milp.solve_milp(prob, spec)


class _Solver:
    """One position reduced to counts, with helpers to solve sub-tables of it."""

    def __init__(
        self,
        rules: ManipulationRules,
        hand: Sequence[Card],
        open_mode: int,
        open_all: bool,
        settings: SolverSettings,
        big: int | None = None,
    ) -> None:
        self.rules = rules
        self.settings = settings
        self.tiles = rules.deck.kind is DeckKind.TILES
        self.hand = [_norm_card(c, self.tiles) for c in hand]
        self.spec = _spec(rules, open_mode, open_all)
        # the count unit: above any sum of values (a given one: scores comparable with
        # another solver's whose hand holds this one)
        self.big = big or sum(rules.penalty_value(c) for c in self.hand) + 1
        self.h, self.hj = _counts(self.hand)
        self.weight = tuple(tuple(self.big + v for v in row) for row in _penalties(rules))
        self.jw = self.big + rules.penalty_value(JOKER)

    def usable_hand(self, t: list[list[int]], tj: int) -> list[list[int]]:
        """Hand counts without the cards that no meld could ever use.

        A card is kept if some set at its rank or some run window through it could be
        completed from the table, the rest of the hand and the jokers. Dropping a card
        can strand another, so this repeats until nothing changes. It only tightens the
        search's bound: a dropped card would have stayed in the hand anyway.
        """
        h = [row[:] for row in self.h]
        if not self.hand:
            return h
        spec = self.spec
        jm = tj + self.hj
        L, M = spec.min_len, spec.min_nat
        cyc = spec.ace == WRAP
        cells = [(s, r) for s in range(4) for r in range(13) if h[s][r]]
        changed = True
        while changed:
            changed = False
            av = [[a + b for a, b in zip(t[s], h[s], strict=True)] for s in range(4)]
            for s, r in cells:
                if h[s][r] == 0:
                    continue
                others = (av[0][r] > 0) + (av[1][r] > 0) + (av[2][r] > 0) + (av[3][r] > 0) - 1
                ok = spec.set_max >= 3 and others + jm >= 2 and 1 + min(others, 3) >= M
                if not ok:
                    ok = self._run_through(av[s], r, L, M, jm, cyc)
                if not ok:
                    h[s][r] = 0
                    changed = True
        return h

    def stranded(self, t: list[list[int]], tj: int, h: list[list[int]]) -> bool:
        """Whether some table card fits no meld at all, with these table counts and the
        hand ``h`` (the test :meth:`usable_hand` applies to hand cards). Every table card
        must be placed, so then nothing is playable; the search would find that only after
        every state before the card's rank. A whole table never has such a card, a part of
        it may (the questions of the kept-melds tie-break)."""
        spec = self.spec
        jm = tj + self.hj
        L, M = spec.min_len, spec.min_nat
        sets = spec.set_max >= 3
        if sets and jm >= 2 and M <= 1:
            return False  # two jokers make a set with any card
        # per suit, the ranks present (table or hand) as a bit mask
        present = [0, 0, 0, 0]
        here = [0] * 13  # suits present per rank
        for s in range(4):
            ts, hs = t[s], h[s]
            bits = 0
            for r in range(13):
                if ts[r] or hs[r]:
                    bits |= 1 << r
                    here[r] += 1
            present[s] = bits
        windows = _windows(spec.ace, L, L if M <= 1 else 13)
        for s in range(4):
            ts = t[s]
            for r in range(13):
                if not ts[r]:
                    continue
                if sets:
                    others = here[r] - 1
                    if others + jm >= 2 and 1 + min(others, 3) >= M:
                        continue
                # a run window through it (see :meth:`_run_through`)
                row = present[s]
                for ln, mask in windows[r]:
                    nat = (row & mask).bit_count()
                    if ln - nat <= jm and nat >= M:
                        break
                else:
                    return True
        return False

    def _run_through(self, row: list[int], r: int, L: int, M: int, jm: int, cyc: bool) -> bool:
        # With at most one natural required, a window of length L through the card is
        # as good as any longer one (it has no more gaps); with more, the naturals may be
        # further apart than L (3S JK JK 6S), so every length up to 13 counts.
        longest = L if M <= 1 else 13
        present = sum(1 << x for x in range(13) if row[x] > 0)
        for ln, mask in _windows(self.spec.ace, L, longest)[r]:
            nat = (present & mask).bit_count()
            if ln - nat <= jm and nat >= M:
                return True
        return False

    def solve(
        self,
        table: Sequence[Card],
        *,
        melds: bool,
        lower: int = NEG,
        target: int | None = None,
        budget: int | None = None,
        floor: int | None = None,
    ) -> CoreResult:
        t, tj = _counts(table)
        return self.solve_counts(
            t, tj, melds=melds, lower=lower, target=target, budget=budget, floor=floor
        )

    def solve_counts(
        self,
        t: list[list[int]],
        tj: int,
        *,
        melds: bool,
        lower: int = NEG,
        target: int | None = None,
        budget: int | None = None,
        floor: int | None = None,
    ) -> CoreResult:
        """:meth:`solve` of the table given as counts (``t[suit][rank index]``, jokers).

        ``floor``: only an optimum of at least this is wanted (score NEG once it is proven
        below), found by the same search that proves it (:func:`._dp.solve_core`)."""
        usable = self.usable_hand(t, tj)
        least = max(target if target is not None else NEG, floor if floor is not None else NEG)
        if least > 0 and self.hand:
            # every usable hand card placed is the most a play can score
            top = self.hj * self.jw + sum(
                n * w
                for row, ws in zip(usable, self.weight, strict=True)
                for n, w in zip(row, ws, strict=True)
                if n
            )
            if top < least:
                return CoreResult(NEG)
        prob = CoreProblem(
            table=tuple(tuple(x) for x in t),
            hand=tuple(tuple(x) for x in usable),
            table_jokers=tj,
            hand_jokers=self.hj,
            weight=self.weight,
            joker_weight=self.jw,
        )
        settings = self.settings
        if budget is not None or target is not None:
            return self._core(prob, want_melds=melds, lower=lower, target=target, budget=budget)
        try:
            return self._core(
                prob,
                want_melds=melds,
                lower=lower,
                budget=settings.dp_budget,
                upper=(lambda: self.upper(prob)) if settings.lp_bound else None,
                unit=self.big,
                floor=floor,
            )
        except BudgetExceeded:
            # a rare position whose state space is huge: the integer program, in bounded memory
            return solve_milp(prob, self.spec)

    def upper(self, prob: CoreProblem) -> tuple[int | None, CoreResult | None]:
        """The linear relaxation's bound (:func:`lp_bound`) and an optimal play when one is
        found on the way: the relaxation's own when it is integral, else its whole copies
        of joker-free melds (:func:`._milp.floor_part`) and a play of the rest worth the
        bound minus theirs, if the search finds one within ``_ROUND_BUDGET`` states."""
        bound, exact = lp_bound(prob, self.spec)
        if exact is not None or bound is None or bound < 0:
            return bound, exact
        from openrummy.solve import _milp

        part = _milp.floor_part(prob, self.spec)
        if part is None:
            return bound, None
        melds, rest = part
        try:
            got = self._core(
                rest, want_melds=True, lower=NEG, target=bound - melds.score, budget=_ROUND_BUDGET
            )
        except BudgetExceeded:
            return bound, None
        if got.score == NEG or melds.score + got.score != bound:
            return bound, None
        return bound, CoreResult(bound, melds.melds + got.melds)

    def _core(
        self,
        prob: CoreProblem,
        *,
        want_melds: bool,
        lower: int,
        target: int | None = None,
        budget: int | None = None,
        upper: Callable[[], tuple[int | None, CoreResult | None]] | None = None,
        unit: int = 1,
        floor: int | None = None,
    ) -> CoreResult:
        """:func:`solve_core` with these settings. With ``python_first`` and the compiled
        core not loaded yet, the Python core alone first (no outside bound: an exact answer
        of its own within those states, else the compiled core as without the setting)."""
        settings = self.settings
        if (
            settings.python_first
            and settings.compiled
            and compiled.available()
            and not compiled.loaded()
        ):
            first = settings.python_first if budget is None else min(budget, settings.python_first)
            try:
                return solve_core(
                    prob,
                    self.spec,
                    want_melds=want_melds,
                    lower=lower,
                    target=target,
                    budget=first,
                    unit=unit,
                    floor=floor,
                    settings=replace(settings, compiled=False),
                )
            except BudgetExceeded:
                # the compiled core, with the caller's budget and bound; an interface that
                # waits for it hears now, not after numba's import, if it must be compiled
                if compiled.likely_cold():
                    compiled.on_compile()
        return solve_core(
            prob,
            self.spec,
            want_melds=want_melds,
            lower=lower,
            target=target,
            budget=budget,
            upper=upper,
            unit=unit,
            floor=floor,
            settings=settings,
        )

    def to_melds(self, res: CoreResult) -> list[tuple[Meld, bool]]:
        """Core melds as :class:`Meld` values, with their opening tag."""
        rules = self.rules.meld_rules
        tiles = self.tiles
        out: list[tuple[Meld, bool]] = []
        for _is_run, items in res.melds:
            tag = any(t for _s, _r, _j, t in items)
            key = tuple((s, r, joker) for s, r, joker, _t in items)
            out.append((_core_meld(key, tiles, rules), tag))
        return out


@lru_cache(maxsize=16_384)
def _core_meld(items: tuple[tuple[int, int, bool], ...], tiles: bool, rules: MeldRules) -> Meld:
    """A core meld ((suit, rank, is a joker) per item) as a :class:`Meld` in normal form:
    the same melds come back in play after play."""
    made = _items(tiles)
    order = _normal_order([(s, r) for s, r, _j in items], [j for *_x, j in items], rules)
    return Meld(tuple(made[items[i][2]][items[i][0]][items[i][1] - 1] for i in order))


def _normal_order(cells: list[tuple[int, int]], wild: list[bool], rules: MeldRules) -> list[int]:
    """The order of :meth:`Meld.normalized` for a valid meld whose items are these cells
    (suit, rank) as naturals or jokers (``wild``), from the numbers alone: a set by suit,
    naturals first; a run by :func:`run_order`. (Checking the meld again and ordering its
    cards cost most of the answer's time on a large table seen for the first time.)"""
    r0 = cells[0][1]
    if all(r == r0 for _s, r in cells):
        return sorted(range(len(cells)), key=lambda i: (cells[i][0], wild[i]))
    order = run_order([r for _s, r in cells], rules)
    assert order is not None, "not a valid meld"
    return order


@lru_cache(maxsize=16_384)
def _normal(m: Meld, mr: MeldRules) -> Meld:
    """``m.normalized(mr)`` for a valid meld (:func:`_normal_order` where every wild item
    is a joker with its identity)."""
    items = m.items
    cells: list[tuple[int, int]] = []
    wild: list[bool] = []
    for it in items:
        c = it.represents
        joker = it.card.is_joker
        if c is None or c.suit is None or (not joker and c is not it.card and c != it.card):
            return m.normalized(mr)
        cells.append((int(c.suit), c.rank))
        wild.append(joker)
    order = _normal_order(cells, wild, mr)
    if all(i == k for k, i in enumerate(order)):
        return m
    return Meld(tuple(items[i] for i in order))


def _validate_table(rules: ManipulationRules, table: Sequence[Meld] | Sequence[Card]) -> list[Meld]:
    """The table's melds, checked (and jokers without identity given one), or [] if flat."""
    melds: list[Meld] = []
    mr = rules.meld_rules
    tiles = rules.deck.kind is DeckKind.TILES
    for i, m in enumerate(table):
        if not isinstance(m, Meld):
            if melds:
                raise InvalidMeldError("the table mixes melds and loose cards")
            continue
        got = _checked_meld(m, mr, tiles)
        if isinstance(got, tuple):
            bad, why = got
            raise InvalidMeldError(f"table meld {i + 1} {bad}: {why}")
        melds.append(m if got is None else got)
    if melds and len(melds) != len(table):
        raise InvalidMeldError("the table mixes melds and loose cards")
    return melds


@lru_cache(maxsize=16_384)
def _checked_meld(m: Meld, mr: MeldRules, tiles: bool) -> Meld | tuple[Meld, str] | None:
    """One meld of :func:`_validate_table`: None if it stands as it is, else the meld to
    use instead (cards of this deck, jokers given an identity), or the meld and why it is
    not valid. Remembered: a game's table holds the same melds turn after turn."""
    given = m
    other_deck = unnamed = False
    for it in m.items:
        c = it.card
        rep = it.represents
        if c.tile != tiles and c.suit is not None:
            other_deck = True
        if rep is None:
            unnamed = True
        elif rep.tile != tiles and rep.suit is not None:
            other_deck = True
    if other_deck:
        m = Meld(
            tuple(
                MeldItem(
                    _norm_card(it.card, tiles),
                    None if it.represents is None else _norm_card(it.represents, tiles),
                )
                for it in m.items
            )
        )
    if unnamed:
        options = m.assignments(mr)
        if not options:
            return m, m.check(mr) or "not a valid meld"
        m = options[0]
    reason = m.check(mr)
    if reason is not None:
        return m, reason
    # the deck's shared items (as the solver's own melds hold them): comparing the melds
    # kept with those of the answer then meets the same objects, not equal ones
    shared = _items(tiles)
    items: list[MeldItem] = []
    same = True
    for it in m.items:
        c = it.card
        rep = it.represents
        if rep is not None and rep.suit is not None and (c.suit is None or c is rep or c == rep):
            new = shared[c.suit is None][rep.suit][rep.rank - 1]
            same = same and new is it
            items.append(new)
        else:
            items.append(it)
    if same:
        return None if m is given else m
    return Meld(tuple(items))


def _kept_count(
    before: Sequence[Meld], kept: Collection[int], new: Sequence[Meld], rules: ManipulationRules
) -> int:
    """How many melds of ``before`` the new table holds unchanged: the ``kept`` ones (indices
    into ``before``, on the table as they were) and those the ``new`` melds (of
    :meth:`_Solver.to_melds`, in normal form already) equal, each new meld once."""
    if len(kept) == len(before) or not new:
        return len(kept)
    left = Counter(new)
    # a meld's items summed by hash, in any order: equal melds have equal sums, so a meld
    # whose sum no new meld has is not held (and is not put in normal form)
    sums = {sum(map(hash, m.items)) for m in left}
    mr = rules.meld_rules
    count = len(kept)
    held = set(kept)
    for i, m in enumerate(before):
        if i in held or sum(map(hash, m.items)) not in sums:
            continue
        key = _normal(m, mr)
        if left[key] > 0:
            left[key] -= 1
            count += 1
    return count


def best_play(
    rules: ManipulationRules,
    table: Sequence[Meld] | Sequence[Card],
    hand: Sequence[Card],
    *,
    opened: bool = True,
    keep_melds: bool = True,
    settings: SolverSettings = DEFAULT_SETTINGS,
) -> BestPlay:
    """The best play for this table and hand (see the module docstring for the order).

    ``table`` is a list of melds, or a flat list of cards when only the multiset matters
    (then no meld can be "kept"). ``opened=False`` applies the preset's opening rule.
    ``keep_melds=False`` skips the tie-break of step 3 (faster; the count and value are
    the same). ``settings`` choose how the optimum is searched for
    (:class:`~openrummy.solve.SolverSettings`); the count and value never depend on them.

    Raises :class:`InvalidMeldError` for a table that is not valid (a bad meld, or loose
    cards that cannot be arranged), :class:`ConfigError` for more copies of a card than
    the deck holds.
    """
    tiles = rules.deck.kind is DeckKind.TILES
    melds = _validate_table(rules, table)
    t_cards = _norm_cards(table_cards(table), tiles)
    h_cards = _norm_cards(hand, tiles)
    _check_supply(rules, t_cards + h_cards)

    o = rules.opening
    open_mode = OPEN_NONE
    touch_table = True
    if not opened and o.type is OpeningType.POINTS and o.threshold > 0:
        open_mode = OPEN_POINTS
    elif not opened and o.type is OpeningType.RUN_FROM_HAND:
        open_mode = OPEN_RUN
    if open_mode != OPEN_NONE and not o.allow_table_play_same_turn:
        touch_table = False
    open_all = open_mode == OPEN_POINTS and not touch_table
    solver = _Solver(rules, h_cards, open_mode, open_all, settings)

    if not melds and t_cards:
        melds = arrange(rules, t_cards, settings=settings)
    frozen = _frozen(rules, melds)
    if frozen:
        # joker.mobility = ONLY_VIA_REPLACEMENT: a meld holding a joker stays as it is (the
        # solver does not retrieve jokers; adding to such a meld is not searched either)
        fixed = [m for i, m in enumerate(melds) if i in frozen]
        movable = [m for i, m in enumerate(melds) if i not in frozen]
        inner = best_play(
            rules, movable, h_cards, opened=opened, keep_melds=keep_melds, settings=settings
        )
        return BestPlay(
            table=(*fixed, *inner.table),
            placed=inner.placed,
            hand=inner.hand,
            count=inner.count,
            value=inner.value,
            kept=inner.kept + len(fixed),
            opening=inner.opening,
            before=(*fixed, *inner.before),
        )

    if not touch_table:
        exact = _open_exact(solver, [], NEG) if open_mode != OPEN_NONE else None
        res = exact if exact is not None else solver.solve([], melds=True)
        kept_idx: Collection[int] = range(len(melds))
        base: list[Meld] = list(melds)
    else:
        lower = NEG
        shortcut: CoreResult | None = None
        if open_mode != OPEN_NONE:
            # The opening from the hand alone, beside the untouched table: if there is
            # none, there is no opening at all; if there is, it bounds the optimum below.
            alone = _Solver(rules, h_cards, open_mode, open_mode == OPEN_POINTS, settings)
            exact = _open_exact(alone, [], NEG)
            pre = exact if exact is not None else alone.solve([], melds=open_mode == OPEN_POINTS)
            if pre.score == NEG:
                return BestPlay(
                    tuple(melds), (), tuple(h_cards), 0, 0, len(melds), before=tuple(melds)
                )
            lower = pre.score
            if open_mode == OPEN_POINTS and settings.open_in_parts:
                lower, shortcut, upper = _open_then_play(solver, alone, pre, t_cards, lower)
                if shortcut is None:
                    shortcut = _open_exact(solver, t_cards, lower, upper)
            elif open_mode == OPEN_RUN:
                shortcut = _open_exact(solver, t_cards, lower)
        res = shortcut or solver.solve(t_cards, melds=True, lower=lower)
        base = []
        kept_idx = ()
        if res.score != NEG and keep_melds and melds:
            kept_idx, res = _keep_greedy(solver, melds, res)
            base = [melds[i] for i in kept_idx]
    if res.score == NEG:
        if open_mode == OPEN_NONE:
            raise InvalidMeldError("the table cannot be arranged into valid melds")
        # no opening possible: a normal answer, nothing placed
        return BestPlay(tuple(melds), (), tuple(h_cards), 0, 0, len(melds), before=tuple(melds))
    new = sorted(solver.to_melds(res), key=lambda mt: _meld_order(mt[0]))
    after = [*base, *(m for m, _ in new)]
    placed = _placed(t_cards, after)
    left = Counter(h_cards)
    left.subtract(placed)
    hand_after = tuple(sorted(left.elements(), key=Card.sort_key))
    count = len(placed)
    value = sum(rules.penalty_value(c) for c in placed)
    assert count * solver.big + value == res.score, "solver score and melds disagree"
    if count == 0:
        # nothing to place: no play, the table stays as it was
        return BestPlay(tuple(melds), (), tuple(h_cards), 0, 0, len(melds), before=tuple(melds))
    opening = tuple(m for m, tag in new if tag) if open_mode != OPEN_NONE else ()
    return BestPlay(
        table=tuple(after),
        placed=tuple(sorted(placed, key=Card.sort_key)),
        hand=hand_after,
        count=count,
        value=value,
        kept=_kept_count(melds, kept_idx, after[len(base) :], rules),
        opening=opening,
        before=tuple(melds),
    )


def can_place(
    rules: ManipulationRules,
    table: Sequence[Meld],
    hand: Sequence[Card],
    *,
    at_least: int = 1,
    settings: SolverSettings = DEFAULT_SETTINGS,
) -> bool:
    """True when a player who has opened can place at least ``at_least`` hand cards on
    ``table``: exactly ``best_play(rules, table, hand).count >= at_least``, answered by one
    question of the search ("are that many cards reachable?") without building melds.

    With ``joker.mobility = ONLY_VIA_REPLACEMENT`` (melds the solver leaves as they are)
    :func:`best_play` answers. Raises as :func:`best_play` does.
    """
    tiles = rules.deck.kind is DeckKind.TILES
    melds = _validate_table(rules, table)
    if _frozen(rules, melds):
        return best_play(rules, melds, hand, keep_melds=False, settings=settings).count >= at_least
    t_cards = _norm_cards(table_cards(melds), tiles)
    h_cards = _norm_cards(hand, tiles)
    _check_supply(rules, t_cards + h_cards)
    solver = _Solver(rules, h_cards, OPEN_NONE, False, settings)
    return solver.solve(t_cards, melds=False, target=at_least * solver.big).score != NEG


def in_play_order(table: Sequence[Meld], key: Callable[[Meld], object] | None = None) -> bool:
    """True when ``table``'s melds stand in the order of :func:`best_play`'s new melds.

    Without kept melds (``keep_melds=False``) and for a player who has opened, the table
    of a :func:`best_play` answer is in this order, so a table that is not cannot be one.
    ``key``: :func:`play_order_key` or a memo of it.
    """
    keys: list[Any] = [(key or play_order_key)(m) for m in table]
    return all(a <= b for a, b in pairwise(keys))


def play_order_key(meld: Meld) -> object:
    """The sort key of :func:`best_play`'s new melds (see :func:`in_play_order`)."""
    return _meld_order(meld)


def _open_then_play(
    solver: _Solver, alone: _Solver, pre: CoreResult, table: Sequence[Card], lower: int
) -> tuple[int, CoreResult | None, int | None]:
    """An opening turn that may go on to play on the table, solved in easy parts.

    The opening search (hand-only melds worth the threshold, tracked card by card beside
    the table) is the slowest search the solver makes, yet its answer is usually one of
    these, and both are quick to find with the fast search of an opened player:

    1. the best play *without* the opening rule, when its melds made of hand cards alone
       are worth the threshold (it is then legal, and nothing can place more);
    2. "open with some of the melds the hand alone holds, then play on": for each minimal
       subset of the best hand-only opening's melds (``pre``) still worth the threshold,
       those melds go down and the rest is solved as an opened player. Each such play is
       legal, so the best is a lower bound, and the optimum when it reaches the bound of 1.
       At most ``settings.open_splits`` subsets are tried, the fewest cards first.

    Only where the compiled core answers those questions (every ace mode; with a cyclic
    ace, ``min_len`` <= 5); elsewhere they may cost as much as the opening search.

    Returns the best lower bound known, when proven optimal the result, and the best play's
    without the opening rule (an upper bound) when it was solved.
    """
    if solver.spec.ace != LOW and solver.spec.min_len > 5:
        return lower, None, None
    rules = solver.rules
    free = _Solver(rules, solver.hand, OPEN_NONE, False, solver.settings, big=solver.big)
    relaxed = free.solve(table, melds=True)
    if relaxed.score == NEG:
        return lower, None, None
    made = free.to_melds(relaxed)
    placed = Counter(_placed(table, [m for m, _tag in made]))
    own = [i for i, (m, _tag) in enumerate(made) if _within(placed, m)]
    value, chosen = rules.best_opening([made[i][0] for i in own], placed)
    if value >= rules.opening.threshold:
        opening = {own[i] for i in chosen}
        tagged = [
            (is_run, [(s, r, j, k in opening) for s, r, j, _t in items])
            for k, (is_run, items) in enumerate(relaxed.melds)
        ]
        return relaxed.score, CoreResult(relaxed.score, melds=tagged), relaxed.score

    opening_melds = alone.to_melds(pre)
    values = [rules.opening_value(m) for m, _tag in opening_melds]
    need = rules.opening.threshold
    n = len(opening_melds)
    masks = [
        mask
        for mask in range(1, 1 << n)
        if sum(values[i] for i in range(n) if mask >> i & 1) >= need
        and all(
            sum(values[j] for j in range(n) if mask >> j & 1 and j != i) < need
            for i in range(n)
            if mask >> i & 1
        )
    ]
    masks.sort(key=lambda m: (sum(len(opening_melds[i][0]) for i in range(n) if m >> i & 1), m))
    best, best_melds = NEG, None
    for mask in masks[: solver.settings.open_splits]:
        down = [c for i in range(n) if mask >> i & 1 for c in opening_melds[i][0].cards]
        rest = Counter(solver.hand)
        rest.subtract(down)
        assert min(rest.values(), default=0) >= 0, "an opening meld holds a card not in the hand"
        then = _Solver(rules, list(rest.elements()), OPEN_NONE, False, solver.settings)
        sub = then.solve(table, melds=True)
        if sub.score == NEG:
            continue
        count, worth = divmod(sub.score, then.big)
        count += len(down)
        worth += sum(rules.penalty_value(c) for c in down)
        score = count * solver.big + worth
        if score > best:
            kept = [pre.melds[i] for i in range(n) if mask >> i & 1]
            best, best_melds = score, kept + sub.melds
    if best_melds is None:
        return lower, None, relaxed.score
    if best != relaxed.score:
        return max(lower, best), None, relaxed.score
    return best, CoreResult(best, melds=best_melds), relaxed.score


def _open_exact(
    solver: _Solver,
    table: Sequence[Card],
    lower: int,
    upper: int | None = None,
) -> CoreResult | None:
    """The optimum of an opening turn that may play on the table, from the list of ways
    to open (:mod:`._opening`): for each multiset of hand cards that hand-only melds worth
    the threshold can use, those melds go down and the rest of the hand is solved as an
    opened player's (the compiled core's fast search). The best of them is the optimum.

    With an empty ``table`` this is also the opening from the hand alone (every meld
    then holds hand cards only, so the rest's melds may join the opening).

    ``lower`` is a score to reach (NEG: none), ``upper`` the best play's without the
    opening rule if known (it bounds the optimum). The result has score NEG when there is
    no way to open, or none reaches ``lower``. None when the ways to open are more than
    ``settings.open_candidates`` (then the full opening search answers), or where the
    compiled core does not answer the opened player's questions.
    """
    spec, settings = solver.spec, solver.settings
    if not settings.open_candidates or not settings.compiled or not compiled_available():
        return None
    if settings.python_first and not compiled.loaded():
        # Until the compiled core is loaded, the full search tries the Python core first.
        return None
    if spec.ace != LOW and spec.min_len > 5:
        return None
    ways = _ways_to_open(spec, tuple(map(tuple, solver.h)), solver.hj, settings.open_candidates)
    if ways is None:
        return None
    if not ways:
        return CoreResult(NEG)  # no opening at all
    rules = solver.rules
    naturals = _naturals(solver.tiles)
    # every hand card placed: nothing scores more
    top = sum(solver.big + rules.penalty_value(c) for c in solver.hand)
    # the best play without the opening rule bounds every way to open; beside a table it
    # is asked only before a second way (below)
    free_bound = upper is None and bool(table)
    if upper is None and table:
        upper = top
    elif upper is None:
        free = _Solver(rules, solver.hand, OPEN_NONE, False, settings, big=solver.big)
        relaxed = free.solve(table, melds=True)
        upper = relaxed.score
        if relaxed.score != NEG:
            # from the hand alone every meld is the hand's: if together they are worth the
            # threshold, they are the opening, and nothing places more
            made = free.to_melds(relaxed)
            if spec.open_mode == OPEN_RUN:
                # a run of the hand's long enough opens
                long = [
                    k
                    for k, (is_run, items) in enumerate(relaxed.melds)
                    if is_run and len(items) >= spec.run_length
                ]
                if long:
                    tagged = [
                        (r, [(s, x, j, k == long[0]) for s, x, j, _t in it])
                        for k, (r, it) in enumerate(relaxed.melds)
                    ]
                    return CoreResult(relaxed.score, melds=tagged)
            elif sum(rules.opening_value(m) for m, _tag in made) >= spec.threshold:
                tagged = [(r, [(s, k, j, True) for s, k, j, _t in it]) for r, it in relaxed.melds]
                return CoreResult(relaxed.score, melds=tagged)
    best, best_melds = NEG, None
    # the ways using the most cards first: they leave the fewest to place
    ordered = sorted(ways.items(), key=lambda kv: -len(kv[0][0]) - kv[0][1])
    for k, ((cards, jokers), melds) in enumerate(ordered):
        if k == 1 and free_bound:
            # only a bound that may stop the list early (the best play without the
            # opening rule), not worth a long proof: each way's rest asks only whether it
            # beats the best so far; past the budget the list is not stopped early. Not
            # asked for one way, nor when the first placed every card.
            free = _Solver(rules, solver.hand, OPEN_NONE, False, settings, big=solver.big)
            try:
                got = free.solve(table, melds=False, budget=settings.open_bound_budget).score
                upper = min(upper, got)
            except BudgetExceeded:
                pass
            if best >= upper:
                break
        down = [naturals[c // 13][c % 13] for c in cards] + [JOKER] * jokers
        worth = sum(solver.big + rules.penalty_value(c) for c in down)
        rest = Counter(solver.hand)
        rest.subtract(down)
        then = _Solver(rules, list(rest.elements()), OPEN_NONE, False, settings, big=solver.big)
        # only a rest that beats the best so far (and reaches the known lower bound)
        # matters: one search proves that it cannot, or finds its best
        need = max(best + 1, lower) - worth
        sub = then.solve(table, melds=True, floor=need if need > 0 else None)
        if sub.score == NEG or worth + sub.score <= best:
            continue
        best = worth + sub.score
        best_melds = [(m.is_run, list(m.items)) for m in melds] + sub.melds
        if best >= upper:
            break
    if best_melds is None:
        return CoreResult(NEG)  # nothing reaches lower
    return CoreResult(best, melds=best_melds)


@lru_cache(maxsize=64)
def _ways_to_open(
    spec: CoreSpec, hand: tuple[tuple[int, ...], ...], jokers: int, limit: int
) -> dict[tuple[tuple[int, ...], int], tuple[OpeningMeld, ...]] | None:
    """The ways to open of this hand (:mod:`._opening`), remembered: an opening turn asks
    for them twice (the opening from the hand alone, then beside the table). The caller
    only reads the answer."""
    from openrummy.solve._opening import (  # HiGHS loads with it
        opening_candidates,
        run_opening_candidates,
    )

    if spec.open_mode == OPEN_RUN:
        return run_opening_candidates(spec, hand, jokers, limit=limit)
    return opening_candidates(spec, hand, jokers, limit=limit, nodes=limit * 40)


def _within(cards: Counter[Card], meld: Meld) -> bool:
    return all(cards[c] >= n for c, n in Counter(meld.cards).items())


@lru_cache(maxsize=16_384)
def _meld_order(m: Meld) -> tuple[tuple[int, int], int, tuple[tuple[tuple[int, int], bool], ...]]:
    # (Card.sort_key of each identity, inlined: the new melds of every play are sorted)
    rest = tuple(
        (
            (4, 0) if (c := it.identity).suit is None else (int(c.suit), c.rank),
            it.card.suit is None,
        )
        for it in m.items
    )
    return (rest[0][0] if rest else (4, 0), -len(rest), rest)


def _frozen(rules: ManipulationRules, melds: Sequence[Meld]) -> set[int]:
    """Melds the solver may not touch: those holding a joker, if jokers move only by
    replacement (``joker.mobility = ONLY_VIA_REPLACEMENT``)."""
    if rules.joker.mobility is not Mobility.ONLY_VIA_REPLACEMENT:
        return set()
    return {i for i, m in enumerate(melds) if any(it.card.is_joker for it in m.items)}


def _placed(table: Sequence[Card], after: Sequence[Meld]) -> list[Card]:
    """The cards of ``after`` that were not on the table (the table's must all be there)."""
    extra = Counter(it.card for m in after for it in m.items)
    extra.subtract(table)
    if min(extra.values(), default=0) < 0:
        raise AssertionError("a table card went missing")
    return list(extra.elements())


_MeldKey = tuple[object, ...]


def _meld_key(is_run: bool, items: Sequence[tuple[int, int, bool]]) -> _MeldKey:
    """A meld as its cards and joker roles, (suit, rank, is a joker) per item: a run by
    all of them, a set by its rank, natural suits and number of jokers (the suits its
    jokers stand for do not matter). Two melds with one key hold the same cards."""
    if is_run:
        return (True, *sorted(items))
    return (
        False,
        items[0][1],
        *sorted(s for s, _r, j in items if not j),
        sum(j for *_x, j in items),
    )


def _table_key(m: Meld) -> _MeldKey | None:
    """:func:`_meld_key` of a table meld (None for a run of 13 or more: its order is not
    fixed by its cards)."""
    idents = [(it.identity, it.card.is_joker) for it in m.items]
    ranks = {c.rank for c, _j in idents}
    if len(ranks) == 1 and len(idents) > 1:
        return _meld_key(False, [(int(c.suit or 0), c.rank, j) for c, j in idents])
    if len(idents) >= 13:
        return None
    return _meld_key(True, [(int(c.suit or 0), c.rank, j) for c, j in idents])


def _keep_greedy(
    solver: _Solver, melds: Sequence[Meld], found: CoreResult, *, whole: bool = True
) -> tuple[list[int], CoreResult]:
    """Melds that can stay unchanged while the optimum ``found.score`` is still reached:
    their indices, and an optimal play of the rest of the table (``found`` is an optimal
    play of the whole table, with melds).

    Every optimal play is a *witness*: the melds of the old table it holds unchanged (or as
    pieces of its runs) can stay together. ``found`` is the first. Then each old meld it
    does not hold is *repaired*: the fewest melds of the play that hold its cards give them
    up, and the rest of their cards is arranged again (a question to the search without a
    hand: every card placed, no choice of what to place); if that fails, the melds with a
    card of a rank next to theirs join in. The hand cards placed never change, so every
    play on the way is optimal. A question over ``settings.keep_budget`` states counts as
    "no".

    With the compiled core loaded, the whole loop runs in one compiled call
    (``_keep.Keeper``, the same decisions) when every question fits it; ``whole=False``
    keeps it here (the reference the tests compare the compiled loop with).
    """
    settings = solver.settings
    bare = _Solver(solver.rules, [], OPEN_NONE, False, settings)
    spec = bare.spec
    budget = settings.keep_budget
    fast_budget = min(budget * settings.compiled_state_factor, 1 << 62)
    windows = _windows(spec.ace, spec.min_len, spec.min_len if spec.min_nat <= 1 else 13)
    loaded = settings.compiled and compiled.available() and compiled.loaded()
    if whole and loaded:
        from openrummy.solve import _keep

        # the most copies of a card and the jokers the questions can hold: the new table's
        encoded = _keep.encode_found(found.melds)
        _fvals, _fheads, most, nj = encoded
        if _keep.usable(spec, most, nj):
            keeper = _keep.Keeper(spec, bare.weight, bare.jw, windows, most, nj, fast_budget)
            got = keeper.run(melds, found.melds, encoded)
            if got is not None:
                return got[0], CoreResult(found.score, got[1])
    keys = [_table_key(m) for m in melds]
    cards = [_counts(m.cards) for m in melds]
    cells = [{(int(c.suit), c.rank - 1) for c in m.cards if c.suit is not None} for m in melds]
    kept: list[int] = []
    free: dict[_MeldKey, list[int]] = {}  # old melds not kept yet, by key
    for i, key in enumerate(keys):
        if key is not None:
            free.setdefault(key, []).append(i)

    L, M = solver.spec.min_len, solver.spec.min_nat
    Item = tuple[int, int, bool, bool]
    # the old runs' length, suit, sum of ranks and jokers: only a piece with the same can
    # be one (a cheap test before its key is built)
    run_sigs: set[tuple[int, int, int, int]] = set()
    for m, key in zip(melds, keys, strict=True):
        if key is not None and key[0]:
            idents = [it.identity for it in m.items]
            sig = (len(idents), int(idents[0].suit or 0), sum(c.rank for c in idents), m.jokers)
            run_sigs.add(sig)

    def carve(items: list[Item]) -> list[list[Item]] | None:
        """The run ``items`` (in run order) cut into pieces, as many as possible of them
        melds of the old table (still in ``free``) and the others valid runs; None if no
        piece is one. Every piece of a valid run is a valid run when it is long enough and
        holds enough naturals."""
        n = len(items)
        best: list[int] = [-1] * (n + 1)
        cut: list[int] = [0] * (n + 1)
        best[0] = 0
        nat = [0] * (n + 1)  # naturals among the first k items
        ranks = [0] * (n + 1)  # the sum of their ranks
        for k, it in enumerate(items):
            nat[k + 1] = nat[k] + (not it[2])
            ranks[k + 1] = ranks[k] + it[1]
        suit = items[0][0] if items else 0
        for j in range(1, n + 1):
            for i in range(j):
                if best[i] < 0:
                    continue
                sig = (j - i, suit, ranks[j] - ranks[i], j - i - nat[j] + nat[i])
                if sig in run_sigs and free.get(
                    _meld_key(True, [(s, r, jk) for s, r, jk, _t in items[i:j]])
                ):
                    got = best[i] + 1
                elif j - i >= L and nat[j] - nat[i] >= M:
                    got = best[i]
                else:
                    continue
                if got > best[j]:
                    best[j], cut[j] = got, i
        if best[n] <= 0:
            return None
        pieces: list[list[Item]] = []
        j = n
        while j > 0:
            pieces.append(items[cut[j] : j])
            j = cut[j]
        return pieces[::-1]

    def take(key: _MeldKey) -> bool:
        slots = free.get(key)
        if not slots:
            return False
        kept.append(slots.pop())
        return True

    def absorb(play: list[tuple[bool, list[Item]]]) -> list[tuple[bool, list[Item]]]:
        """Keep the old melds that ``play`` holds unchanged, or as pieces of its runs;
        returns the rest of the play."""
        rest: list[tuple[bool, list[Item]]] = []
        for is_run, items in play:
            if items[0][3]:  # an opening meld is the hand's own (tagged whole)
                rest.append((is_run, items))
            elif not is_run:
                if not take(_meld_key(False, [(s, r, j) for s, r, j, _t in items])):
                    rest.append((is_run, items))
            else:
                pieces = carve(items)
                if pieces is None:
                    rest.append((is_run, items))
                    continue
                for piece in pieces:
                    if not take(_meld_key(True, [(s, r, j) for s, r, j, _t in piece])):
                        rest.append((True, piece))
        return rest

    # the questions one compiled call each, once the compiled core is in the process
    fast: BareSearch | None = None
    if loaded:
        from openrummy.solve._fast import BareSearch

        fast = BareSearch(spec, bare.weight, bare.jw, windows)
    # An optimal play of the table without the kept melds, by id (in play order: ids
    # grow), indexed: per meld the cells of its naturals and its number of jokers; the
    # melds holding a natural of each cell and of each rank, and those holding jokers.
    # Opening melds (the hand's own) are in none of these sets.
    play: dict[int, tuple[bool, list[Item]]] = {}
    nats: dict[int, list[tuple[int, int]]] = {}
    jokers: dict[int, int] = {}
    by_cell: dict[tuple[int, int], set[int]] = {}
    by_rank: list[set[int]] = [set() for _ in range(13)]
    with_jokers: set[int] = set()

    ids = count()

    def add(melds: list[tuple[bool, list[Item]]]) -> None:
        for m in melds:
            k = next(ids)
            its = m[1]
            play[k] = m
            nat = nats[k] = [(s, r - 1) for s, r, j, _t in its if not j]
            nj = jokers[k] = len(its) - len(nat)
            if its[0][3]:
                continue  # an opening meld is the hand's own
            for c in nat:
                by_cell.setdefault(c, set()).add(k)
                by_rank[c[1]].add(k)
            if nj:
                with_jokers.add(k)

    def drop(k: int) -> None:
        del play[k]
        jokers.pop(k)
        for c in nats.pop(k):
            by_cell[c].discard(k)
            by_rank[c[1]].discard(k)
        with_jokers.discard(k)

    def repair(i: int, wide: bool) -> None:
        """Keep meld ``i`` if the melds of ``play`` that hold its cards (with ``wide``,
        also those with a card of a rank next to theirs) can give them up: the rest of
        their cards, every one placed, in valid melds."""
        mt, mj = cards[i]
        mine = cells[i]
        # only melds holding one of its cells (or jokers, if it has some) can give them
        cand: set[int] = set()
        for c in mine:
            cand.update(by_cell.get(c, ()))
        if mj:
            cand.update(with_jokers)
        t = [[0] * 13 for _ in range(4)]
        tj = -mj
        chosen: list[int] = []
        for k in sorted(cand):
            nat, nj = nats[k], jokers[k]
            # taken while it holds a card still missing (the smaller the rest, the
            # cheaper its question)
            take_it = tj < 0 and nj > 0
            if not take_it:
                for s, r in nat:
                    if (s, r) in mine and t[s][r] < mt[s][r]:
                        take_it = True
                        break
            if take_it:
                chosen.append(k)
                tj += nj
                for s, r in nat:
                    t[s][r] += 1
        if tj < 0 or any(t[s][r] < mt[s][r] for s, r in mine):
            return  # the play holds meld i's cards elsewhere (as a joker's role)
        if wide:
            near = {(r + d) % 13 for k in chosen for _s, r in nats[k] for d in (-1, 0, 1)}
            more: set[int] = set()
            for r in near:
                more.update(by_rank[r])
            more.difference_update(chosen)
            for k in more:
                chosen.append(k)
                tj += jokers[k]
                for s, r in nats[k]:
                    t[s][r] += 1
        for s, r in mine:
            t[s][r] -= mt[s][r]
        made: list[tuple[bool, list[Item]]] = []
        if tj or any(map(any, t)):
            if fast is not None and fast.fits(t, tj):
                got = fast.arrange(t, tj, fast_budget)
                if got is None:
                    return  # none, or unknown (over budget): do not keep
                made = got
            else:
                if bare.stranded(t, tj, bare.h):
                    return  # a card no meld of the rest can hold
                try:
                    res = bare.solve_counts(t, tj, melds=True, target=0, budget=budget)
                except BudgetExceeded:
                    return  # unknown: do not keep (the tie-break is best-effort)
                if res.score == NEG:
                    return
                made = res.melds
        key = keys[i]
        assert key is not None
        kept.append(i)
        free[key].remove(i)
        # the melds left as they were hold no old meld still free (absorbed before)
        for k in chosen:
            drop(k)
        add(absorb(made))

    add(absorb(found.melds))
    for wide in (False, True, False):
        for i in range(len(melds)):
            key = keys[i]
            if key is not None and i in free.get(key, ()):
                repair(i, wide)
    return sorted(kept), CoreResult(found.score, list(play.values()))


def can_arrange(
    rules: ManipulationRules,
    cards: Sequence[Card],
    *,
    settings: SolverSettings = DEFAULT_SETTINGS,
) -> bool:
    """Can these cards (jokers included) be laid out as valid melds, every one of them?

    >>> from openrummy import find_preset, parse_cards
    >>> can_arrange(find_preset("robbers"), parse_cards("4S 5S 6S 7H 7D JK"))
    True
    >>> can_arrange(find_preset("robbers"), parse_cards("4S 5S 6S 7H"))
    False
    """
    tiles = rules.deck.kind is DeckKind.TILES
    cs = [_norm_card(c, tiles) for c in cards]
    _check_supply(rules, cs)
    if not cs:
        return True
    return _Solver(rules, [], OPEN_NONE, False, settings).solve(cs, melds=False).score != NEG


def arrange(
    rules: ManipulationRules,
    cards: Sequence[Card],
    *,
    settings: SolverSettings = DEFAULT_SETTINGS,
) -> list[Meld]:
    """One arrangement of all ``cards`` into valid melds; :class:`InvalidMeldError` if none."""
    tiles = rules.deck.kind is DeckKind.TILES
    cs = [_norm_card(c, tiles) for c in cards]
    _check_supply(rules, cs)
    if not cs:
        return []
    solver = _Solver(rules, [], OPEN_NONE, False, settings)
    res = solver.solve(cs, melds=True)
    if res.score == NEG:
        raise InvalidMeldError(
            f"these cards cannot be arranged into valid melds: {' '.join(map(str, cs))}"
        )
    return [m for m, _ in solver.to_melds(res)]
