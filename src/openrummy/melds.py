"""Melds: sets and runs, joker identities, and the meld predicates of RULES.md §1.3–§1.4.

A meld is a tuple of :class:`MeldItem` values. Each item is a card and the card it stands
for: a natural stands for itself, a wild item (a printed joker, or an Indian wild-rank card)
stands for the identity the player declared (``JK=7H``, ``7C=9H``).

    >>> m = Meld.parse("[5H 6H JK=7H]")
    >>> m.kind(MeldRules()), str(m)
    (<MeldKind.RUN: 'RUN'>, '[5H 6H JK=7H]')
    >>> Meld.parse("[KS AS 2S]").check(MeldRules(ace_mode=AceMode.LOW_ONLY))
    'K-A-2 is not a run with the ace low only'
    >>> Meld.parse("[KS AS 2S]").check(MeldRules(ace_mode=AceMode.WRAPAROUND)) is None
    True

Validity never depends on the order in which the items are written; :meth:`Meld.normalized`
gives the canonical order (runs by rank, sets by suit).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from openrummy.cards import JOKER, Card, Suit
from openrummy.errors import InvalidMeldError, NotationError
from openrummy.messages import Reason

__all__ = [
    "AceMode",
    "Meld",
    "MeldItem",
    "MeldKind",
    "MeldRules",
    "run_order",
    "run_positions",
]


class MeldKind(Enum):
    SET = "SET"
    RUN = "RUN"


class AceMode(Enum):
    """How aces sit in runs (RULES.md §1.4)."""

    LOW_ONLY = "LOW_ONLY"
    HIGH_OR_LOW = "HIGH_OR_LOW"
    WRAPAROUND = "WRAPAROUND"


_ACE_CODES: Final = {mode: i for i, mode in enumerate(AceMode)}


@dataclass(frozen=True, slots=True)
class MeldRules:
    """The rules that decide whether a group of items is a meld.

    ``wild_rank`` is the Indian wild-joker rank of the hand (its cards may be wild or
    natural); in manipulation games only printed jokers are wild.
    """

    ace_mode: AceMode = AceMode.LOW_ONLY
    set_max: int = 4
    min_len: int = 3
    min_naturals: int = 1
    ace_both_ends: bool = False
    wild_rank: int | None = None
    wild_natural_counts_pure: bool = True
    extra_wild: frozenset[Card] = frozenset()
    """Further cards that may be wild (21-card Indian upper and lower jokers, RULES.md §7.2)."""
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The rules key every meld cache, so the hash is computed once. Only ints go into
        # it (the ace mode by its position, no None, cards by their own int hashes): a
        # string's hash differs between processes, so does hash(None) in Python 3.11,
        # and a pickled copy keeps this field.
        object.__setattr__(
            self,
            "_hash",
            hash(
                (
                    _ACE_CODES[self.ace_mode],
                    self.set_max,
                    self.min_len,
                    self.min_naturals,
                    self.ace_both_ends,
                    -1 if self.wild_rank is None else self.wild_rank,
                    self.wild_natural_counts_pure,
                    self.extra_wild,
                )
            ),
        )

    def __hash__(self) -> int:
        return self._hash

    def can_be_wild(self, card: Card) -> bool:
        return (
            card.is_joker
            or (self.wild_rank is not None and card.rank == self.wild_rank)
            or card in self.extra_wild
        )


_RANK_NAMES: Final = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}


def _rank_name(rank: int) -> str:
    return _RANK_NAMES.get(rank, str(rank))


@dataclass(frozen=True, slots=True)
class MeldItem:
    """A card placed in a meld, with the card it represents (``None``: not yet declared)."""

    card: Card
    represents: Card | None
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # (ints only, the same in every process: see Card)
        rep = -1 if self.represents is None else self.represents._hash
        object.__setattr__(self, "_hash", hash((self.card._hash, rep)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        # identity first, then the cached hashes (like Card)
        if self is other:
            return True
        if other.__class__ is not MeldItem:
            return NotImplemented
        return (
            self._hash == other._hash
            and self.card == other.card
            and self.represents == other.represents
        )

    @staticmethod
    def natural(card: Card) -> MeldItem:
        return MeldItem(card, card)

    @staticmethod
    def parse(token: str) -> MeldItem:
        """``7H``, ``JK=7H``, ``JK`` (identity still open), ``7C=9H`` (Indian wild card)."""
        return _parse_item(token)

    @staticmethod
    def _parse(token: str) -> MeldItem:
        if "=" in token:
            left, _, right = token.partition("=")
            card, rep = Card.parse(left), Card.parse(right)
            if rep.is_joker:
                raise NotationError(Reason.of("notation.wild_for_natural", text=token))
            if card.tile and not rep.tile:
                rep = rep.as_tile()
            return MeldItem(card, rep)
        card = Card.parse(token)
        return MeldItem(card, None if card.is_joker else card)

    @property
    def is_wild(self) -> bool:
        """True when the item stands for another card than itself (or is a joker)."""
        return self.card.is_joker or self.represents != self.card

    @property
    def identity(self) -> Card:
        """The represented card; raises if a wild item has no declared identity."""
        if self.represents is None:
            raise InvalidMeldError(f"{self.card} has no declared identity (write JK=7H)")
        return self.represents

    def __str__(self) -> str:
        if self.represents is None:
            return str(self.card)
        if self.is_wild:
            return f"{self.card}={self.represents}"
        return str(self.card)

    def pretty(self, lang: str = "en") -> str:
        if self.represents is None or not self.is_wild:
            return self.card.pretty(lang)
        return f"{self.card.pretty(lang)}={self.represents.pretty(lang)}"


@functools.lru_cache(maxsize=4096)
def _parse_item(token: str) -> MeldItem:
    """Shared objects per item text, like :func:`openrummy.cards._parse_card`."""
    return MeldItem._parse(token)


_MELD_RE: Final = re.compile(r"^\s*\[(.*)\]\s*$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Meld:
    """A group of items meant as a set or a run. Build with :meth:`parse` or :meth:`of`."""

    items: tuple[MeldItem, ...]
    _hash: int = field(init=False, repr=False, compare=False)
    """The hash, computed once (melds key the caches of checks and normal forms)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(self.items))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        # identity first, then the cached hashes (like Card)
        if self is other:
            return True
        if other.__class__ is not Meld:
            return NotImplemented
        return self._hash == other._hash and self.items == other.items

    # -- construction -------------------------------------------------------------------
    @staticmethod
    def parse(text: str) -> Meld:
        """Read ``[5H 6H JK=7H]`` (brackets optional, commas allowed)."""
        return _parse_meld(text)

    @staticmethod
    def _parse(text: str) -> Meld:
        m = _MELD_RE.match(text)
        body = m.group(1) if m else text
        tokens = [t for t in re.split(r"[\s,]+", body.strip()) if t]
        if not tokens:
            raise NotationError(Reason.of("notation.meld_empty", text=text))
        return Meld(tuple(MeldItem.parse(t) for t in tokens))

    @staticmethod
    def of(items: Iterable[Card | MeldItem | str]) -> Meld:
        out: list[MeldItem] = []
        for it in items:
            if isinstance(it, MeldItem):
                out.append(it)
            elif isinstance(it, Card):
                out.append(MeldItem(it, None if it.is_joker else it))
            else:
                out.append(MeldItem.parse(it))
        return Meld(tuple(out))

    # -- basic properties ---------------------------------------------------------------
    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(it.card for it in self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[MeldItem]:
        return iter(self.items)

    def __str__(self) -> str:
        return "[" + " ".join(str(it) for it in self.items) + "]"

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    def pretty(self, lang: str = "en") -> str:
        return "[" + " ".join(it.pretty(lang) for it in self.items) + "]"

    @property
    def jokers(self) -> int:
        return sum(1 for it in self.items if it.card.is_joker)

    # -- predicates ---------------------------------------------------------------------
    def check(self, rules: MeldRules) -> str | None:
        """``None`` if this is a valid meld under ``rules``, else the reason in words."""
        problem = _check(self.items, rules)[1]
        return None if problem is None else str(problem)

    def problem(self, rules: MeldRules) -> Reason | None:
        """``None`` if this is a valid meld under ``rules``, else why not, as data."""
        return _check(self.items, rules)[1]

    def kind(self, rules: MeldRules) -> MeldKind | None:
        return _check(self.items, rules)[0]

    def is_valid(self, rules: MeldRules) -> bool:
        return _check(self.items, rules)[1] is None

    def validate(self, rules: MeldRules) -> MeldKind:
        """The kind of a valid meld; raises :class:`InvalidMeldError` with the reason."""
        kind, reason = _check(self.items, rules)
        if reason is not None or kind is None:
            raise InvalidMeldError(f"{self}: {reason}")
        return kind

    def is_pure(self, rules: MeldRules) -> bool:
        """A run of naturals only (Indian "pure sequence", RULES.md §1.3)."""
        if self.kind(rules) is not MeldKind.RUN:
            return False
        for it in self.items:
            if it.card.is_joker:
                return False
            if it.is_wild:
                return False
            if not rules.wild_natural_counts_pure and rules.can_be_wild(it.card):
                return False
        return True

    def normalized(self, rules: MeldRules) -> Meld:
        """Canonical order: a run by position, a set by (represented) suit, ♠ ♥ ♦ ♣."""
        return _normalized(self, rules)

    def _normalized(self, rules: MeldRules) -> Meld:
        kind = self.kind(rules)
        if kind is MeldKind.RUN:
            order = run_positions([it.identity for it in self.items], rules)
            if order is not None:
                return Meld(tuple(self.items[i] for i in order))
        if kind is MeldKind.SET:
            return Meld(
                tuple(
                    sorted(
                        self.items,
                        key=lambda it: (it.identity.sort_key(), it.is_wild),
                    )
                )
            )
        return self

    def assignments(self, rules: MeldRules) -> list[Meld]:
        """Every way to give the undeclared wild items identities that make a valid meld.

        >>> [str(m) for m in Meld.parse("[5S 6S JK]").assignments(MeldRules())]
        ['[JK=4S 5S 6S]', '[5S 6S JK=7S]']
        """
        open_slots = [i for i, it in enumerate(self.items) if it.represents is None]
        if not open_slots:
            return [self] if self.is_valid(rules) else []
        naturals = [it.represents for it in self.items if it.represents is not None]
        tile = any(c.tile for c in naturals)
        candidates = _candidate_identities(naturals, len(self.items), rules, tile)
        seen: set[tuple[Card, ...]] = set()
        found: list[Meld] = []
        for combo in itertools.product(candidates, repeat=len(open_slots)):
            key = tuple(sorted(combo, key=Card.sort_key))
            if key in seen:
                continue
            seen.add(key)
            items = list(self.items)
            for slot, ident in zip(open_slots, combo, strict=True):
                items[slot] = MeldItem(self.items[slot].card, ident)
            meld = Meld(tuple(items))
            if meld.is_valid(rules):
                found.append(meld.normalized(rules))
        return found


def _candidate_identities(
    naturals: Sequence[Card], size: int, rules: MeldRules, tile: bool
) -> list[Card]:
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    cands: set[Card] = set()
    if len(ranks) <= 1:
        rank_pool = ranks or set(range(1, 14))
        for r in rank_pool:
            for s in Suit:
                cands.add(Card(r, s, tile))
    if len(suits) <= 1:
        suit_pool = [s for s in suits if s is not None] or list(Suit)
        for s in suit_pool:
            for r in range(1, 14):
                cands.add(Card(r, s, tile))
    return sorted(cands, key=Card.sort_key)


@functools.lru_cache(maxsize=16_384)
def _parse_meld(text: str) -> Meld:
    """:meth:`Meld.parse`, remembered per text: a Robbers' Rummy play names the whole table,
    and most of its melds are written exactly as on the turn before."""
    return Meld._parse(text)


@functools.lru_cache(maxsize=65_536)
def _normalized(meld: Meld, rules: MeldRules) -> Meld:
    """:meth:`Meld.normalized`, remembered like :func:`_check`."""
    return meld._normalized(rules)


@functools.lru_cache(maxsize=65_536)
def _check(items: tuple[MeldItem, ...], rules: MeldRules) -> tuple[MeldKind | None, Reason | None]:
    """The kind of a valid meld, or why it is not one.

    Remembered per (items, rules): a manipulation turn re-checks the whole table, and most
    of its melds are the ones checked on the turns before.
    """
    n = len(items)
    if n == 0:
        return None, Reason.of("meld.empty")
    idents: list[Card] = []
    natural_suits: list[Suit | None] = []  # the suits of the items that are not wild
    for it in items:
        rep = it.represents
        card = it.card
        if rep is None:
            return None, Reason.of("meld.joker_unnamed", card=str(card))
        if rep.suit is None:
            return None, Reason.of("meld.wild_for_joker", item=str(it))
        # (MeldItem.is_wild and Rules.can_be_wild inlined: every check of a table's melds
        # comes here, and a joker may always be wild)
        if card.suit is None:
            pass
        elif rep is card or rep == card:
            natural_suits.append(card.suit)
        else:
            if not rules.can_be_wild(card):
                return None, Reason.of("meld.not_wild", card=str(card), identity=str(rep))
            if rep.tile != card.tile:
                return None, Reason.of("meld.item_mixes_tiles", item=str(it))
        idents.append(rep)
    tile = idents[0].tile
    for c in idents:
        if c.tile != tile:
            return None, Reason.of("meld.mixes_tiles")
    if n < 3:
        return None, Reason.of("meld.too_short", count=n)
    if len(natural_suits) < rules.min_naturals:
        return None, Reason.of("meld.few_naturals", count=rules.min_naturals)
    rank = idents[0].rank
    if all(c.rank == rank for c in idents):
        return _check_set(natural_suits, idents, rules)
    suit = idents[0].suit
    if all(c.suit == suit for c in idents):
        return _check_run(idents, rules)
    return None, Reason.of("meld.not_set_or_run")


def _check_set(
    natural_suits: list[Suit | None], idents: list[Card], rules: MeldRules
) -> tuple[MeldKind | None, Reason | None]:
    n = len(idents)
    if n > rules.set_max:
        return None, Reason.of("meld.set_too_big", max=rules.set_max, count=n)
    if len(set(natural_suits)) != len(natural_suits):
        return None, Reason.of("meld.set_repeats_suit")
    rep_suits = [c.suit for c in idents]
    if n <= 4 and len(set(rep_suits)) != len(rep_suits):
        return None, Reason.of("meld.set_repeats_suit_jokers")
    # A34: wild items beyond the fourth suit may repeat a suit, naturals may not.
    if n > 4 and len(set(rep_suits)) != 4:
        return None, Reason.of("meld.set_all_suits")
    return MeldKind.SET, None


def run_positions(idents: Sequence[Card], rules: MeldRules) -> list[int] | None:
    """Indices of ``idents`` in run order if they form a run under ``rules``, else None."""
    suit = idents[0].suit if idents else None
    for c in idents:
        if c.suit != suit:
            return None
    return run_order([c.rank for c in idents], rules)


def run_order(ranks: Sequence[int], rules: MeldRules) -> list[int] | None:
    """Indices of ``ranks`` (of one suit) in run order if they form a run under ``rules``,
    else None. A run round the K–A corner (wrap-around) starts after its gap; the 13 ranks
    start at the A."""
    n = len(ranks)
    if rules.ace_mode is AceMode.WRAPAROUND:
        rset = set(ranks)
        if n > 13 or len(rset) != n or n == 0:
            return None
        if n == 13:
            start = 1
        else:
            starts = [r for r in rset if (r - 2) % 13 + 1 not in rset]
            if len(starts) != 1:
                return None  # more than one gap: not one stretch of the cycle
            start = starts[0]
        return sorted(range(n), key=lambda i: (ranks[i] - start) % 13)
    if len(set(ranks)) == n:
        low = sorted(ranks)
        if low == list(range(low[0], low[0] + n)):
            return sorted(range(n), key=lambda i: ranks[i])
        if rules.ace_mode is AceMode.HIGH_OR_LOW and 1 in ranks:
            high = [14 if r == 1 else r for r in ranks]
            hs = sorted(high)
            if hs == list(range(hs[0], hs[0] + n)):
                return sorted(range(n), key=lambda i: high[i])
        return None
    if (
        rules.ace_mode is AceMode.HIGH_OR_LOW
        and rules.ace_both_ends
        and n == 14
        and sorted(ranks) == [1, *range(1, 14)]
    ):
        aces = [i for i in range(n) if ranks[i] == 1]
        rest = sorted((i for i in range(n) if ranks[i] != 1), key=lambda i: ranks[i])
        return [aces[0], *rest, aces[1]]
    return None


def _check_run(idents: list[Card], rules: MeldRules) -> tuple[MeldKind | None, Reason | None]:
    n = len(idents)
    if n < rules.min_len:
        return None, Reason.of("meld.run_too_short", count=rules.min_len)
    if run_positions(idents, rules) is not None:
        return MeldKind.RUN, None
    ranks = [c.rank for c in idents]
    if len(set(ranks)) != n and not (rules.ace_both_ends and n == 14):
        return None, Reason.of("meld.run_repeats_rank")
    rset = set(ranks)
    names = "-".join(_rank_name(r) for r in _display_order(rset))
    if 1 in rset and 13 in rset:
        if rules.ace_mode is AceMode.LOW_ONLY:
            return None, Reason.of("meld.run_ace_low_only", ranks=names)
        if rules.ace_mode is AceMode.HIGH_OR_LOW and 2 in rset:
            return None, Reason.of("meld.run_ace_both_ends", ranks=names)
    return None, Reason.of("meld.not_consecutive", ranks=names)


def _display_order(ranks: set[int]) -> list[int]:
    """Ranks in the order a person would read a broken run (K-A-2 rather than A-2-K)."""
    if 1 in ranks and 13 in ranks:
        high = sorted(r for r in ranks if r > 7)
        low = sorted(r for r in ranks if r <= 7)
        return high + low
    return sorted(ranks)


def joker_meld_item(identity: Card) -> MeldItem:
    """A printed joker declared as ``identity``."""
    return MeldItem(JOKER, identity)
