"""A quick exact test that rules a declaration out before any hand-solver search (private).

The Indian environments list a declaration for every finish card that has one, which costs
the hand solver's search per card. Almost every hand after a draw has none; this module
proves that cheaply with two *necessary* conditions of any valid 13- or 10-card
declaration (every card but the finish card in a group, one of them a pure sequence).
The environments run its compiled form (:mod:`openrummy.envs._indian_core`, which also
covers 21 cards); this one serves the generic menu (:func:`openrummy.envs._spaces.menu`)
and is the reference the compiled one is tested against:

1. **A pure sequence**: three cards of one suit on consecutive ranks (ace low or high), each
   acting as itself; a wild-rank card may (its own identity), a printed joker may not.
2. **A relaxed cover**: the cards other than the finish card split into groups, each the
   non-wild cards of one rank in distinct suits (a set) or of one suit at distinct ranks (a
   run on the line A=1 … K=13, A=14), with at most as many wild cards as the groups' gaps
   ask for: a set needs ``3 - size`` wilds at least, a run a wild for every rank of its
   span that no non-wild card fills (and span 3 at least). Wilds left over join any group.

Every valid declaration meets both: its non-wild cards act as themselves, so each of its
groups is such a set or run, and each gap of its span is filled by one of its wild cards.
The cover ignores every other rule (set sizes, wilds per meld, how many sequences), so it
can only say "perhaps" too often, never "no" wrongly. When it says "perhaps", the engine's
own search decides.

The cover is a depth-first search over the non-wild cards in field order (``suit * 13 +
rank - 1``): the lowest card left is either the finish card or the lowest card of its
group, so each cover is met once; a memo on (cards left, wilds left, finish used, any
group made) bounds it, and so does a count of the cards left with no partner (no card of
their rank in another suit, none of their suit within two ranks): each needs a wild of its
own or is the finish card.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from openrummy.cards import Card
from openrummy.rules.indian import Wilds

__all__ = ["could_declare", "could_group", "has_pure_three"]


_PLACES: dict[Card, tuple[int, int]] = {}
"""Each card's (suit, rank) as ints, the printed joker (-1, 0)."""


def _place(card: Card) -> tuple[int, int]:
    place = _PLACES.get(card)
    if place is None:
        place = _PLACES[card] = (-1, 0) if card.suit is None else (int(card.suit), card.rank)
    return place


def _pure_three(bits: list[int]) -> bool:
    for b in bits:
        if b & 2:
            b |= 1 << 14  # the ace high too
        if b & (b >> 1) & (b >> 2):
            return True
    return False


def has_pure_three(hand: Sequence[Card]) -> bool:
    """Are three cards of ``hand`` of one suit on consecutive ranks (ace low or high)?"""
    bits = [0, 0, 0, 0]
    for c in hand:
        s, r = _PLACES.get(c) or _place(c)
        if s >= 0:
            bits[s] |= 1 << r
    return _pure_three(bits)


def _fields(ranks: tuple[int, ...]) -> int:
    """The low bit of each field of the given ranks, in every suit (3 bits per field)."""
    return sum(1 << (3 * (13 * s + r - 1)) for s in range(4) for r in ranks)


_EVERY: Final = _fields(tuple(range(1, 14)))
_NOT_K: Final = _EVERY & ~_fields((13,))
_NOT_QK: Final = _EVERY & ~_fields((12, 13))
_NOT_A: Final = _EVERY & ~_fields((1,))
_NOT_A2: Final = _EVERY & ~_fields((1, 2))
_ACES: Final = _fields((1,))
_QUEENS: Final = _fields((12,))
_KINGS: Final = _fields((13,))
_SUIT: Final = 39
"""Bits from a card to the same rank in the next suit."""


def _partnerless(state: int) -> int:
    """How many non-wild cards of ``state`` have no partner: no card of the same rank in
    another suit and none of the same suit within two ranks (ace low or high). Each is the
    finish card or needs a wild of its own in the cover: a group holding ``k`` of them has a
    gap of two ranks at least next to each (two wilds per gap), or is one card and two wilds.
    """
    present = (state | (state >> 1)) & _EVERY
    twice = (state >> 1) & _EVERY
    near = (
        ((present & _NOT_K) << 3)
        | ((present & _NOT_QK) << 6)
        | ((present & _NOT_A) >> 3)
        | ((present & _NOT_A2) >> 6)
        | ((present & _ACES) << 33)  # an ace on top: Q and K are near it
        | ((present & _ACES) << 36)
        | ((present & _QUEENS) >> 33)
        | ((present & _KINGS) >> 36)
    )
    other = (
        (present << _SUIT)
        | (present << 2 * _SUIT)
        | (present << 3 * _SUIT)
        | (present >> _SUIT)
        | (present >> 2 * _SUIT)
        | (present >> 3 * _SUIT)
    )
    alone = present & ~(near | other)
    return alone.bit_count() + (alone & twice).bit_count()


def _encode(cards: Sequence[Card], wilds: Wilds) -> tuple[list[int], int, int]:
    """``cards`` as the quick test reads them: the natural ranks held per suit (bits), the
    packed counts of the natural cards that are not wild (state), and the wild cards and
    printed jokers (units)."""
    bits = [0, 0, 0, 0]
    state = 0
    units = 0
    wild_rank = wilds.wild_rank
    extra = wilds.extra
    for c in cards:
        s, r = _PLACES.get(c) or _place(c)
        if s < 0:
            units += 1
            continue
        bits[s] |= 1 << r
        if r == wild_rank or (extra and c in extra):
            units += 1
        else:
            state += 1 << (3 * (13 * s + r - 1))
    return bits, state, units


def could_declare(hand: Sequence[Card], wilds: Wilds) -> bool:
    """False only when no card of ``hand`` can be the finish card of a valid 13- or 10-card
    declaration (see the module docstring); True means "perhaps"."""
    bits, state, units = _encode(hand, wilds)
    if not _pure_three(bits):
        return False
    return _Cover().search(state, units, True, False)


def could_group(cards: Sequence[Card], wilds: Wilds) -> bool:
    """False only when ``cards`` (a hand without its finish card) make no valid 13- or
    10-card declaration; True means "perhaps"."""
    bits, state, units = _encode(cards, wilds)
    return _pure_three(bits) and _Cover().search(state, units, False, False)


_LOW3: Final = 7


class _Cover:
    """The relaxed cover search over one hand's non-wild cards, packed 3 bits per field."""

    __slots__ = ("failed",)

    def __init__(self) -> None:
        self.failed: set[tuple[int, int, bool, bool]] = set()

    def search(self, state: int, units: int, finish: bool, made: bool) -> bool:
        """Can the cards of ``state`` be covered with ``units`` wilds, ``finish`` telling
        whether the finish card is still to choose, ``made`` whether a group exists?"""
        if not state:
            left = units - 1 if finish else units
            return left >= 0 and (made or left == 0 or left >= 3)
        key = (state, units, finish, made)
        if key in self.failed or _partnerless(state) > units + finish:
            return False
        f = ((state & -state).bit_length() - 1) // 3
        rest = state - (1 << (3 * f))
        found = (
            (finish and self.search(rest, units, False, made))
            or self._sets(f, rest, units, finish)
            or self._runs(f, rest, units, finish)
        )
        if not found:
            self.failed.add(key)
        return found

    def _sets(self, f: int, state: int, units: int, finish: bool) -> bool:
        """``f`` (taken) in a set with cards of its rank in later suits (one of each)."""
        others = [g for g in range(f + 13, 52, 13) if (state >> (3 * g)) & _LOW3]
        for n in range(len(others) + 1):
            need = max(0, 2 - n)
            if need > units:
                continue
            for chosen in itertools.combinations(others, n):
                left = state
                for g in chosen:
                    left -= 1 << (3 * g)
                if self.search(left, units - need, finish, True):
                    return True
        return False

    def _runs(self, f: int, state: int, units: int, finish: bool) -> bool:
        """``f`` (taken) as the lowest card of a run of its suit; an ace also as the top."""
        base = f - f % 13
        rank = f % 13 + 1
        search = self.search

        def up(pos: int, left: int, length: int, gaps: int) -> bool:
            # the run holds ``length`` positions from the card ``f`` up to ``pos - 1``
            if length >= 3 and gaps <= units and search(left, units - gaps, finish, True):
                return True
            if pos > 14:
                need = gaps + 3 - length  # a run at the top: the missing length below, as wilds
                return length < 3 and need <= units and search(left, units - need, finish, True)
            shift = 3 * (base + (0 if pos == 14 else pos - 1))
            if (left >> shift) & _LOW3 and up(pos + 1, left - (1 << shift), length + 1, gaps):
                return True
            return gaps < units and up(pos + 1, left, length + 1, gaps + 1)

        def down(pos: int, left: int, length: int, gaps: int) -> bool:
            # the ace on top (position 14), the run down to ``pos + 1``
            if length >= 3 and gaps <= units and search(left, units - gaps, finish, True):
                return True
            if pos < 2:
                return False
            shift = 3 * (base + pos - 1)
            if (left >> shift) & _LOW3 and down(pos - 1, left - (1 << shift), length + 1, gaps):
                return True
            return gaps < units and down(pos - 1, left, length + 1, gaps + 1)

        return up(rank + 1, state, 1, 0) or (rank == 1 and down(13, state, 1, 0))
