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
from operator import itemgetter
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
    CoreMelds,
    CoreProblem,
    CoreResult,
    CoreSpec,
)
from openrummy.solve.compiled import available as compiled_available
from openrummy.solve.settings import DEFAULT_SETTINGS, SolverSettings

if TYPE_CHECKING:
    import numpy as np

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


def _card_codes(cards: Iterable[Card]) -> list[int]:
    """The card code of each card (see :func:`_read_meld`)."""
    return [_JOKER_CODE if c.suit is None else c.suit * 13 + c.rank - 1 for c in cards]


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


def _supply(
    rules: ManipulationRules,
    t_codes: Sequence[int],
    h_cards: Sequence[Card],
) -> tuple[list[int], list[int]]:
    """:func:`_check_supply` of the table's cards (by card code) and the hand's, and the
    counts of each by card code."""
    deck = _deck(rules)
    h_codes = _card_codes(h_cards)
    t_count = [0] * (_JOKER_CODE + 1)
    for c in t_codes:
        t_count[c] += 1
    h_count = [0] * (_JOKER_CODE + 1)
    for c in h_codes:
        h_count[c] += 1
    copies = deck.copies
    if (
        t_count[_JOKER_CODE] + h_count[_JOKER_CODE] > deck.jokers
        or max(t_count[:_JOKER_CODE]) > copies
        or any(t_count[c] + h_count[c] > copies for c in h_codes if c != _JOKER_CODE)
    ):
        _check_supply(rules, [*(deck.cards[c] for c in t_codes), *h_cards])  # raises
    return t_count, h_count


def _code_rows(count: list[int]) -> tuple[list[list[int]], int]:
    """:func:`_counts` of the cards counted by card code."""
    return [count[0:13], count[13:26], count[26:39], count[39:52]], count[_JOKER_CODE]


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


@by_identity
def _weights(rules: ManipulationRules, big: int) -> tuple[tuple[int, ...], ...]:
    """The weight of each natural placed, by suit and rank index: the count unit ``big``
    plus its penalty value (hands of one rule set share a few units)."""
    return tuple(tuple([big + v for v in row]) for row in _penalties(rules))


@cache
def _naturals(tiles: bool) -> tuple[tuple[Card, ...], ...]:
    """The naturals by suit and rank index (cards or tiles)."""
    return tuple(tuple(Card(r + 1, Suit(s), tiles) for r in range(13)) for s in range(4))


def _presence(t: list[list[int]], h: list[list[int]]) -> tuple[list[int], list[int]]:
    """Per suit, the ranks with a natural (table ``t`` or hand ``h`` counts) as a bit
    mask; per rank, how many suits have one."""
    present = [0, 0, 0, 0]
    here = [0] * 13
    for s in range(4):
        ts, hs = t[s], h[s]
        bits = 0
        for r in range(13):
            if ts[r] or hs[r]:
                bits |= 1 << r
                here[r] += 1
        present[s] = bits
    return present, here


def _window_fits(row: int, windows: tuple[tuple[int, int], ...], jm: int, M: int) -> bool:
    """Whether one of a card's run ``windows`` (length, rank mask) holds at least ``M``
    naturals of its suit's ranks ``row`` and lacks at most ``jm`` cards (jokers fill the
    rest)."""
    for ln, mask in windows:
        nat = (row & mask).bit_count()
        if ln - nat <= jm and nat >= M:
            return True
    return False


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


# -- the table and the answer as numbers ---------------------------------------------------
#
# A card code is ``suit * 13 + rank - 1`` for a natural and ``_JOKER_CODE`` for a joker. A
# meld's key is an int that tells apart valid melds of the deck's cards which differ in
# normal form (:meth:`Meld.normalized`): a run (one suit, no rank twice) is its suit, its
# ranks and the ranks its jokers stand for; a set (one rank) its rank, its naturals' suits
# (no suit twice) and how many jokers stand for each suit. A run that holds a rank twice
# (the ace at both ends) has no key, and is compared as melds.

_JOKER_CODE = 52
_Key = int


def _run_key(suits: int, ranks: int, joker_ranks: int) -> _Key:
    """The key of a run: bit masks of its suit, ranks and jokers' ranks (bit r-1: rank r)."""
    return -(ranks | joker_ranks << 13 | suits << 26)


def _set_key(ranks: int, natural_suits: int, joker_suits: int) -> _Key:
    """The key of a set: bit masks of its rank and naturals' suits, and its jokers counted
    per suit (8 bits each: ``sum(1 << 8 * suit)``)."""
    return ranks | natural_suits << 13 | joker_suits << 17


@dataclass(frozen=True, slots=True)
class _Deck:
    """What reading a table and writing an answer need of one rule set, as numbers."""

    tiles: bool
    rules: MeldRules
    ace: int
    min_len: int
    min_nat: int
    set_max: int
    copies: int
    jokers: int
    cards: tuple[Card, ...]
    """The shared card of each card code."""
    penalty: tuple[int, ...]
    """The penalty value of each card code."""
    by_digit: tuple[MeldItem, ...]
    """The shared item (:func:`_items`) of each digit ``suit << 5 | rank << 1 | is a joker``
    (:func:`_digits`)."""
    code_by_digit: tuple[int, ...]
    """The card code of each digit."""


_NO_ITEM = MeldItem(JOKER, None)
"""The item of a digit that no core item has (a rank outside 1..13)."""


@by_identity
def _deck(rules: ManipulationRules) -> _Deck:
    tiles = rules.deck.kind is DeckKind.TILES
    m = rules.meld
    ace = {AceMode.LOW_ONLY: LOW, AceMode.HIGH_OR_LOW: HIGH, AceMode.WRAPAROUND: WRAP}[m.ace_mode]
    cards = (*(c for row in _naturals(tiles) for c in row), JOKER)
    made = _items(tiles)
    return _Deck(
        tiles=tiles,
        rules=rules.meld_rules,
        ace=ace,
        min_len=m.min_len,
        min_nat=m.min_naturals,
        set_max=m.set_max,
        copies=rules.deck.standard_decks,
        jokers=rules.deck.printed_jokers,
        cards=cards,
        penalty=tuple(rules.penalty_value(c) for c in cards),
        by_digit=tuple(
            made[d & 1][d >> 5][(d >> 1 & 15) - 1] if 1 <= d >> 1 & 15 <= 13 else _NO_ITEM
            for d in range(128)
        ),
        code_by_digit=tuple(
            _JOKER_CODE if d & 1 else (d >> 5) * 13 + (d >> 1 & 15) - 1 for d in range(128)
        ),
    )


def _run_ranks(ranks: int, ace: int) -> bool:
    """Whether distinct ranks (bit r-1 for rank r) of one suit make a run (as
    :func:`run_order` decides)."""
    if (ranks + (ranks & -ranks)) & ranks == 0:
        return True  # one stretch, ace low
    if ace == HIGH:
        high = (ranks >> 1) | ((ranks & 1) << 12)  # the ace after the king
        return (high + (high & -high)) & high == 0
    if ace == WRAP:
        # one stretch of the cycle: one rank whose predecessor (K before A) is missing
        starts = ranks & ~((ranks << 1) | (ranks >> 12))
        return starts & (starts - 1) == 0
    return False


def _read_meld(deck: _Deck, m: Meld) -> tuple[_Key, list[int]] | None:
    """The key and card codes of a table meld that is valid as it stands, of this deck's
    cards, every joker named and every natural standing for itself; None for any other
    meld, valid or not (:func:`_checked_meld` reads it). The same verdict as
    :meth:`Meld.check`, from bit masks of the suits and ranks: every table meld is read on
    every call."""
    items = m.items
    n = len(items)
    if n < 3:
        return None
    tiles = deck.tiles
    codes: list[int] = []
    ranks = suits = nat_suits = jokers = joker_ranks = joker_suits = 0
    for it in items:
        rep = it.represents
        if rep is None:
            return None
        s = rep.suit
        if s is None or rep.tile != tiles:
            return None
        r = rep.rank
        card = it.card
        if card is rep or (card.rank == r and card.suit == s and card.tile == tiles):
            nat_suits |= 1 << s
            codes.append(s * 13 + r - 1)
        elif card.suit is None:
            jokers += 1
            joker_ranks |= 1 << (r - 1)
            joker_suits += 1 << (8 * s)
            codes.append(_JOKER_CODE)
        else:
            return None
        ranks |= 1 << (r - 1)
        suits |= 1 << s
    if n - jokers < deck.min_nat:
        return None
    if ranks & (ranks - 1) == 0:  # one rank: a set
        if n > deck.set_max or nat_suits.bit_count() != n - jokers:
            return None  # too big, or a natural's suit twice
        if (suits.bit_count() != n) if n <= 4 else suits != 15:
            return None  # a suit twice, or (over 4 items) not every suit
        return _set_key(ranks, nat_suits, joker_suits), codes
    if suits & (suits - 1) == 0:  # one suit: a run
        if n < deck.min_len or ranks.bit_count() != n or not _run_ranks(ranks, deck.ace):
            return None
        return _run_key(suits, ranks, joker_ranks), codes
    return None


def _meld_facts(m: Meld) -> tuple[_Key | None, list[int]]:
    """The key (None if it has none) and card codes of a valid meld of this deck, read
    item by item (a meld :func:`_read_meld` left to :func:`_checked_meld`, or arranged)."""
    codes: list[int] = []
    keyed = True
    ranks = suits = nat_suits = joker_ranks = joker_suits = 0
    for it in m.items:
        card = it.card
        rep = it.represents
        codes.append(_JOKER_CODE if card.suit is None else card.suit * 13 + card.rank - 1)
        if rep is None or rep.suit is None:
            keyed = False
            continue
        s, r = rep.suit, rep.rank
        if card.suit is None:
            joker_ranks |= 1 << (r - 1)
            joker_suits += 1 << (8 * s)
        elif card is rep or card == rep:
            nat_suits |= 1 << s
        else:
            keyed = False
        ranks |= 1 << (r - 1)
        suits |= 1 << s
    if not keyed:
        return None, codes
    if ranks & (ranks - 1) == 0:
        return _set_key(ranks, nat_suits, joker_suits), codes
    if ranks.bit_count() != len(codes):
        return None, codes  # a run holding a rank twice
    return _run_key(suits, ranks, joker_ranks), codes


def _read_table(
    rules: ManipulationRules, table: Sequence[Meld] | Sequence[Card]
) -> tuple[list[Meld], list[tuple[_Key | None, list[int]]]]:
    """:func:`_validate_table`, and the key and card codes of each meld."""
    deck = _deck(rules)
    melds: list[Meld] = []
    facts: list[tuple[_Key | None, list[int]]] = []
    mr = deck.rules
    tiles = deck.tiles
    for i, m in enumerate(table):
        if not isinstance(m, Meld):
            if melds:
                raise InvalidMeldError("the table mixes melds and loose cards")
            continue
        read = _read_meld(deck, m)
        if read is not None:
            melds.append(m)
            facts.append(read)
            continue
        got = _checked_meld(m, mr, tiles)
        if isinstance(got, tuple):
            bad, why = got
            raise InvalidMeldError(f"table meld {i + 1} {bad}: {why}")
        m = m if got is None else got
        melds.append(m)
        facts.append(_meld_facts(m))
    if melds and len(melds) != len(table):
        raise InvalidMeldError("the table mixes melds and loose cards")
    return melds, facts


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
        deck = _deck(rules)
        self.tiles = tiles = deck.tiles
        self.spec = _spec(rules, open_mode, open_all)
        # the hand as the deck's shared cards, counted, and its penalty value (one pass)
        nat = _naturals(tiles)
        pen = deck.penalty
        own: list[Card] = []
        h = [[0] * 13 for _ in range(4)]
        hj = value = 0
        for c in hand:
            s = c.suit
            if s is None:
                own.append(JOKER)
                hj += 1
                value += pen[_JOKER_CODE]
            else:
                r = c.rank - 1
                own.append(nat[s][r])
                h[s][r] += 1
                value += pen[s * 13 + r]
        self.hand = own
        self.h, self.hj = h, hj
        # the count unit: above any sum of values (a given one: scores comparable with
        # another solver's whose hand holds this one)
        self.big = big or value + 1
        self.weight = _weights(rules, self.big)
        self.jw = self.big + pen[_JOKER_CODE]

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
        sets = spec.set_max >= 3
        # With at most one natural required, a window of length L through a card is as
        # good as any longer one (it has no more gaps); with more, the naturals may be
        # further apart than L (3S JK JK 6S), so every length up to 13 counts.
        windows = _windows(spec.ace, L, L if M <= 1 else 13)
        cells = [(s, r) for s in range(4) for r in range(13) if h[s][r]]
        changed = True
        while changed:
            changed = False
            present, here = _presence(t, h)
            for s, r in cells:
                if h[s][r] == 0:
                    continue
                others = here[r] - 1
                if sets and others + jm >= 2 and 1 + min(others, 3) >= M:
                    continue
                # a run window through it
                if not _window_fits(present[s], windows[r], jm, M):
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
        present, here = _presence(t, h)
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
                # a run window through it (see :meth:`usable_hand`)
                if not _window_fits(present[s], windows[r], jm, M):
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
        counts: tuple[list[list[int]], int] | None = None,
    ) -> CoreResult:
        """The best play on ``table`` (:meth:`solve_counts`); ``counts``: its counts
        (:func:`_counts`) if the caller has them (they are only read)."""
        t, tj = counts if counts is not None else _counts(table)
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
        return [(m, tag) for _order, m, tag, _key in self.answer(res, [0] * (_JOKER_CODE + 1))]

    def answer(
        self, res: CoreResult, counts: list[int]
    ) -> list[tuple[int, Meld, bool, _Key | None]]:
        """Core melds as :class:`Meld` values in normal form (as :func:`_core_meld` makes
        them), each with a sort key in the order of :func:`_meld_order`, its opening tag
        and its key; their cards are added to ``counts`` (by card code)."""
        if isinstance(res.melds, CoreMelds):
            return self._answer_codes(res.melds, counts)
        deck = _deck(self.rules)
        made = deck.by_digit
        code = deck.code_by_digit
        rank_mask, rank_one, no_joker, suit_one = _DIGIT_MASKS
        run_digits, run_ranks = _run_digits(deck.ace)
        out: list[tuple[int, Meld, bool, _Key | None]] = []
        # the melds made so far by their digits: an answer often holds one meld twice
        seen: dict[int, tuple[int, Meld, _Key | None]] = {}
        for _is_run, found in res.melds:
            n = len(found)
            r0 = found[0][1]
            is_set = found[-1][1] == r0
            items = sorted(found) if is_set else found  # a set by suit, naturals first
            melded: list[MeldItem] = []
            order = nat_suits = joker_ranks = joker_suits = 0
            tag = False
            for s, r, j, t in items:
                d = s << 5 | r << 1 | j
                melded.append(made[d])
                order = order << 7 | d
                counts[code[d]] += 1
                if j:
                    joker_ranks |= 1 << (r - 1)
                    joker_suits += 1 << (8 * s)
                else:
                    nat_suits |= 1 << s
                if t:
                    tag = True
            again = seen.get(order << 4 | n)
            if again is not None:
                out.append((again[0], again[1], tag, again[2]))
                continue
            s0 = items[0][0]
            # a set of one rank, or a run of one suit that the core wrote in run order (it
            # usually does), else the general way
            key: _Key | None
            if is_set:
                if n > 16 or not 0 < r0 < 14 or order & rank_mask[n] != r0 * rank_one[n]:
                    for d in _digits(items):
                        counts[code[d]] -= 1
                    out.append(self._general(found, counts))
                    continue
                key = _set_key(1 << (r0 - 1), nat_suits, joker_suits)
            else:
                want = run_digits[r0][n] if n <= 16 else -1
                if want < 0 or order & no_joker[n] != s0 * suit_one[n] + want:
                    for d in _digits(items):
                        counts[code[d]] -= 1
                    out.append(self._general(found, counts))
                    continue
                key = _run_key(1 << s0, run_ranks[r0][n], joker_ranks)
            sort_key = (s0 << 4 | items[0][1]) << 116 | (16 - n) << 112 | order << 7 * (16 - n)
            meld = Meld(tuple(melded))
            seen[order << 4 | n] = (sort_key, meld, key)
            out.append((sort_key, meld, tag, key))
        return out

    def _answer_codes(
        self, melds: CoreMelds, counts: list[int]
    ) -> list[tuple[int, Meld, bool, _Key | None]]:
        """:meth:`answer` of the compiled search's answer, from its codes: the checks, keys,
        sort keys and counts in one compiled call (``_fast.answer_arrays``), the melds in
        Python (a meld in normal form from its digits, the others as :meth:`answer`
        orders them)."""
        import numpy as np

        from openrummy.solve._fast import answer_arrays

        deck = _deck(self.rules)
        item = deck.by_digit.__getitem__
        heads = melds.heads
        got = answer_arrays(np.array(melds.codes, np.int64), np.array(heads, np.int64), deck.ace)
        digits = got[0].tolist()
        out: list[tuple[int, Meld, bool, _Key | None]] = []
        scratch = [0] * (_JOKER_CODE + 1)  # (the call counted every meld's cards)
        a = 0
        for i, (h, ok, key, hi, lo, same) in enumerate(
            zip(heads, *(x.tolist() for x in got[1:6]), strict=True)
        ):
            b = a + (h >> 2)
            if same >= 0:
                again = out[same]
                out.append((again[0], again[1], bool(h & 1), again[3]))
            elif ok:
                meld = Meld(tuple(map(item, digits[a:b])))
                out.append((hi << 63 | lo, meld, bool(h & 1), key))
            else:
                out.append(self._general(melds[i][1], scratch))
            a = b
        for c, k in enumerate(got[6].tolist()):
            counts[c] += k
        return out

    def _general(
        self, found: Sequence[tuple[int, int, bool, bool]], counts: list[int]
    ) -> tuple[int, Meld, bool, _Key | None]:
        """One meld of :meth:`answer` that the core did not write in normal order: ordered
        by :func:`_normal_order`, its key read as :func:`_meld_facts` reads it."""
        deck = _deck(self.rules)
        cells = [(s, r) for s, r, _j, _t in found]
        normal = _normal_order(cells, [j for *_x, j, _t in found], deck.rules)
        items = [found[i] for i in normal]
        n = len(items)
        assert n <= 16 and all(1 <= r <= 13 for _s, r, _j, _t in items), "not a core meld"
        order = 0
        for d in _digits(items):
            counts[deck.code_by_digit[d]] += 1
            order = order << 7 | d
        meld = Meld(tuple(deck.by_digit[d] for d in _digits(items)))
        return (
            (items[0][0] << 4 | items[0][1]) << 116 | (16 - n) << 112 | order << 7 * (16 - n),
            meld,
            any(t for *_x, t in items),
            _meld_facts(meld)[0],
        )


def _digits(items: Iterable[tuple[int, int, bool, bool]]) -> list[int]:
    """Core items as digits ``suit << 5 | rank << 1 | is a joker`` (:meth:`_Solver.answer`
    packs them into a meld's sort key: the order of :func:`_meld_order`)."""
    return [s << 5 | r << 1 | j for s, r, j, _t in items]


def _masks() -> tuple[tuple[int, ...], ...]:
    """Per number of digits n (to 16): masks of their rank bits, a rank of 1 in each, masks
    of all bits but the joker's, a suit of 1 in each."""
    return tuple(
        tuple(sum(unit << 7 * k for k in range(n)) for n in range(17))
        for unit in (0b0011110, 0b0000010, 0b1111110, 0b0100000)
    )


_DIGIT_MASKS = _masks()


@cache
def _run_digits(ace: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per first rank and length (to 16), the rank bits of the digits of a run in
    :func:`run_order`'s order (-1 where none is: the ace after the king only where it may
    be high, and then at the end short of all 13 ranks; all 13 ranks of a cycle from the
    ace), and the run's ranks as a bit mask (bit r-1: rank r)."""
    digits: list[tuple[int, ...]] = [(-1,) * 17]
    masks: list[tuple[int, ...]] = [(0,) * 17]
    for r0 in range(1, 14):
        drow = [-1] * 17
        mrow = [0] * 17
        for n in range(1, 17):
            ranks = [(r0 - 1 + k) % 13 + 1 for k in range(n)]
            top = r0 + n - 1
            if ace == LOW:
                ok = top <= 13
            elif ace == HIGH:
                ok = top <= 13 or (top == 14 and n < 13)
            else:
                ok = n < 13 or (n == 13 and r0 == 1)
            if ok:
                drow[n] = sum(r << 1 << 7 * (n - 1 - k) for k, r in enumerate(ranks))
                mrow[n] = sum(1 << (r - 1) for r in ranks)
        digits.append(tuple(drow))
        masks.append(tuple(mrow))
    return tuple(digits), tuple(masks)


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
    return _read_table(rules, table)[0]


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
    before: Sequence[Meld],
    keys: Sequence[_Key | None],
    kept: Collection[int],
    new: Sequence[Meld],
    new_keys: Sequence[_Key | None],
    rules: ManipulationRules,
) -> int:
    """How many melds of ``before`` the new table holds unchanged: the ``kept`` ones (indices
    into ``before``, on the table as they were) and those the ``new`` melds (of
    :meth:`_Solver.to_melds`, in normal form already) equal, each new meld once. ``keys``
    and ``new_keys``: the melds' keys (see :func:`_read_meld`), compared instead of the
    melds where every meld has one."""
    if len(kept) == len(before) or not new:
        return len(kept)
    held = set(kept)
    count = len(kept)
    if None not in new_keys and None not in keys:
        # (a plain dict: a Counter's lookup of a key it lacks is a call in Python)
        left_keys = dict(Counter(new_keys))
        for i, k in enumerate(keys):
            still = left_keys.get(k)
            if still and i not in held:
                left_keys[k] = still - 1
                count += 1
        return count
    left = Counter(new)
    # a meld's items summed by hash, in any order: equal melds have equal sums, so a meld
    # whose sum no new meld has is not held (and is not put in normal form)
    sums = {sum(map(hash, m.items)) for m in left}
    mr = rules.meld_rules
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
    deck = _deck(rules)
    tiles = deck.tiles
    melds, facts = _read_table(rules, table)
    if melds:
        t_codes = [c for _key, codes in facts for c in codes]
    else:
        t_codes = _card_codes(_norm_cards(table_cards(table), tiles))
    # the table's cards as the deck's shared ones: only the arrangement of a flat table
    # and the opening's searches read them as cards (the play's search reads counts)
    t_cards = [deck.cards[c] for c in t_codes] if not (melds and opened) else []
    h_cards = _norm_cards(hand, tiles)
    t_count, h_count = _supply(rules, t_codes, h_cards)

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
        facts = [_meld_facts(m) for m in melds]
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
        res = shortcut or solver.solve(t_cards, melds=True, lower=lower, counts=_code_rows(t_count))
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
    # the new melds in play order, and the cards of the table after the play (by code)
    count_after = [0] * (_JOKER_CODE + 1)
    if len(kept_idx) * 2 > len(melds):
        # most melds kept: the table's cards but those of the melds not kept
        count_after[:] = t_count
        held = set(kept_idx)
        for i, (_key, codes) in enumerate(facts):
            if i not in held:
                for c in codes:
                    count_after[c] -= 1
    else:
        for i in kept_idx:
            for c in facts[i][1]:
                count_after[c] += 1
    new = sorted(solver.answer(res, count_after), key=itemgetter(0))
    after = [*base, *(m for _order, m, _tag, _key in new)]
    # the placed cards: those of the table after the play that were not on it
    placed: list[Card] = []
    left: list[Card] = []
    value = 0
    cards = deck.cards
    for c in range(_JOKER_CODE + 1):
        extra = count_after[c] - t_count[c]
        if extra < 0:
            raise AssertionError("a table card went missing")
        if extra:
            placed += [cards[c]] * extra
            value += deck.penalty[c] * extra
        if h_count[c] > extra:
            left += [cards[c]] * (h_count[c] - extra)
    count = len(placed)
    assert count * solver.big + value == res.score, "solver score and melds disagree"
    if count == 0:
        # nothing to place: no play, the table stays as it was
        return BestPlay(tuple(melds), (), tuple(h_cards), 0, 0, len(melds), before=tuple(melds))
    opening = tuple(m for _o, m, tag, _k in new if tag) if open_mode != OPEN_NONE else ()
    return BestPlay(
        table=tuple(after),
        placed=tuple(placed),
        hand=tuple(left),
        count=count,
        value=value,
        kept=_kept_count(
            melds,
            [key for key, _codes in facts],
            kept_idx,
            after[len(base) :],
            [key for *_x, key in new],
            rules,
        ),
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
    melds, facts = _read_table(rules, table)
    if _frozen(rules, melds):
        return best_play(rules, melds, hand, keep_melds=False, settings=settings).count >= at_least
    t_codes = [c for _key, codes in facts for c in codes]
    h_cards = _norm_cards(hand, tiles)
    t_count, _h_count = _supply(rules, t_codes, h_cards)
    solver = _Solver(rules, h_cards, OPEN_NONE, False, settings)
    target = at_least * solver.big
    return solver.solve([], melds=False, target=target, counts=_code_rows(t_count)).score != NEG


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
    counts = _counts(table)  # (the solves below only read them)
    free = _Solver(rules, solver.hand, OPEN_NONE, False, solver.settings, big=solver.big)
    relaxed = free.solve(table, melds=True, counts=counts)
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
        sub = then.solve(table, melds=True, counts=counts)
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
    counts = _counts(table)  # (the solves below only read them)
    # every hand card placed: nothing scores more
    top = sum(solver.big + rules.penalty_value(c) for c in solver.hand)
    # the best play without the opening rule bounds every way to open; beside a table it
    # is asked only before a second way (below)
    free_bound = upper is None and bool(table)
    if upper is None and table:
        upper = top
    elif upper is None:
        free = _Solver(rules, solver.hand, OPEN_NONE, False, settings, big=solver.big)
        relaxed = free.solve(table, melds=True, counts=counts)
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
                got = free.solve(
                    table, melds=False, budget=settings.open_bound_budget, counts=counts
                ).score
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
        sub = then.solve(table, melds=True, floor=need if need > 0 else None, counts=counts)
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


def _encode_found(
    found: list[tuple[bool, list[tuple[int, int, bool, bool]]]],
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], int, int]:
    """:func:`._keep.encode_found` of a play: from the codes of the compiled search's
    answer where it has them (:class:`._problem.CoreMelds`: its items are not read again),
    else from the items."""
    from openrummy.solve import _keep

    if not isinstance(found, CoreMelds):
        return _keep.encode_found(found)
    import numpy as np

    fvals = np.array(found.codes or [0], np.int64)
    fheads = np.array(found.heads, np.int64)
    jokers = fvals & 1
    nat = fvals[jokers == 0] >> 1 if found else fvals[:0]
    most = int(np.bincount(nat).max()) if nat.size else 0
    return fvals, fheads, most, int(jokers.sum()) if found else 0


_KEEPERS: dict[tuple[int, ...], tuple[object, ...]] = {}
"""Tie-break arrays (:class:`._keep.Keeper`, which only reads them) by the identity of the
rules' spec, weights and windows and the rest by value, with those objects."""


def _keeper(
    spec: CoreSpec,
    weight: tuple[tuple[int, ...], ...],
    jw: int,
    windows: tuple[tuple[tuple[int, int], ...], ...],
    most: int,
    jokers: int,
    budget: int,
) -> Any:
    """``_keep.Keeper(...)`` of these arguments, remembered per rule set (its arrays are
    remembered by value already, but hashing the weights and windows cost more than the
    rest of the set-up)."""
    from openrummy.solve import _keep

    key = (id(spec), id(weight), jw, id(windows), most, jokers, budget)
    hit = _KEEPERS.get(key)
    if hit is not None and hit[0] is spec and hit[1] is weight and hit[2] is windows:
        return hit[3]
    keeper = _keep.Keeper(spec, weight, jw, windows, most, jokers, budget)
    if len(_KEEPERS) >= 256:
        _KEEPERS.clear()
    _KEEPERS[key] = (spec, weight, windows, keeper)
    return keeper


_KEEP_FAST_SHARE = 3
"""The compiled core's questions of the kept-melds tie-break may visit ``keep_budget *
compiled_state_factor`` states divided by this (300 * 16 / 3 = 1,600): over the 20
positions of each variant row of ``bench/solver.py --variants`` the questions that ran
past 1,600 states and answered yes kept no more melds in the end than stopping them did
(at 4,800 states the sums of melds kept were lower or equal in every row), and on the
four-deck rows at 80 cards they were a fifth of the questions' states. The Python core's
questions keep the whole ``keep_budget``."""


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
    card of one of its own ranks, or of a rank next to a card those melds leave over, join
    in. The hand cards placed never change, so every play on the way is optimal. A
    question over ``settings.keep_budget`` states (the compiled core's: times
    ``compiled_state_factor``, divided by ``_KEEP_FAST_SHARE``) counts as "no".

    With the compiled core loaded, the whole loop runs in one compiled call
    (``_keep.Keeper``, the same decisions) when every question fits it; ``whole=False``
    keeps it here (the reference the tests compare the compiled loop with).
    """
    settings = solver.settings
    bare = _Solver(solver.rules, [], OPEN_NONE, False, settings)
    spec = bare.spec
    budget = settings.keep_budget
    fast_budget = min(budget * settings.compiled_state_factor // _KEEP_FAST_SHARE, 1 << 62)
    windows = _windows(spec.ace, spec.min_len, spec.min_len if spec.min_nat <= 1 else 13)
    loaded = settings.compiled and compiled.available() and compiled.loaded()
    if whole and loaded:
        from openrummy.solve import _keep

        # the most copies of a card and the jokers the questions can hold: the new table's
        encoded = _encode_found(found.melds)
        _fvals, _fheads, most, nj = encoded
        if _keep.usable(spec, most, nj):
            keeper = _keeper(spec, bare.weight, bare.jw, windows, most, nj, fast_budget)
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
        also those with a card of one of its ranks or of a rank next to a card the giving
        melds leave over) can give them up: the rest of their cards, every one placed, in
        valid melds."""
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
            # the ranks next to the cards the giving melds have left over (beside meld i's
            # own), and meld i's own ranks (with jokers left over, the ranks next to them)
            d = (-1, 0, 1) if tj > 0 else (0,)
            near = {(r + x) % 13 for _s, r in mine for x in d}
            for s, r in {c for k in chosen for c in nats[k]}:
                if t[s][r] > mt[s][r]:
                    near.update(((r + 12) % 13, r, (r + 1) % 13))
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
