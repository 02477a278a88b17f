"""Cards and tiles as values, decks, and their notation.

Cards are values: the two 7♠ of a two-deck game are equal, and rules only ever look at
rank and suit (RULES.md §1.1). A printed joker is a card too (:data:`JOKER`).

Notation round-trips::

    >>> Card.parse("10H"), Card.parse("th"), Card.parse("♠A")
    (Card.parse('10H'), Card.parse('10H'), Card.parse('AS'))
    >>> str(Card.parse("R7")), Card.parse("JK").is_joker
    ('R7', True)
    >>> Card.parse("QS").pretty(), Card.parse("QS").pretty(lang="de")
    ('Q♠', 'D♠')

Rummikub tiles use the same four suits under colour names (black = ♠, red = ♥,
orange = ♦, blue = ♣) and print as ``K1``, ``R7``, ``O5``, ``B13``.
"""

from __future__ import annotations

import functools
import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final, TypeVar

from openrummy.errors import NotationError
from openrummy.messages import Reason

_T = TypeVar("_T")

__all__ = [
    "JOKER",
    "RANKS",
    "Card",
    "Suit",
    "card_counts",
    "check_deck_kind",
    "format_cards",
    "parse_cards",
    "shuffle",
    "standard_deck",
    "tile_set",
]

RANKS: Final = tuple(range(1, 14))
"""Ranks 1..13: A=1, J=11, Q=12, K=13 (tiles carry the number)."""


class Suit(IntEnum):
    """The four suits; for tiles, the four colours mapped one to one onto them."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def tile_letter(self) -> str:
        """The tile colour letter: K(black), R(ed), O(range), B(lue)."""
        return "KROB"[self]

    @property
    def colour(self) -> str:
        return ("black", "red", "orange", "blue")[self]


_RANK_TEXT: Final = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_TEXT_DE: Final = {1: "A", 11: "B", 12: "D", 13: "K"}
# The German letters of the seeds read as well: B (Bube) = J, D (Dame) = Q, As/Ass = A;
# K is the king in both languages. None of them is an English rank or a tile colour
# followed by a suit, so a token never means two different cards.
_RANK_PARSE: Final = {
    "A": 1,
    "J": 11,
    "Q": 12,
    "K": 13,
    "T": 10,
    "1": 1,
    "B": 11,
    "D": 12,
    "AS": 1,
    "ASS": 1,
}
_SUIT_PARSE: Final = {
    "S": Suit.S,
    "H": Suit.H,
    "D": Suit.D,
    "C": Suit.C,
    "♠": Suit.S,
    "♥": Suit.H,
    "♦": Suit.D,
    "♣": Suit.C,
    "♤": Suit.S,
    "♡": Suit.H,
    "♢": Suit.D,
    "♧": Suit.C,
}
_TILE_PARSE: Final = {
    "K": Suit.S,
    "BLACK": Suit.S,
    "R": Suit.H,
    "RED": Suit.H,
    "O": Suit.D,
    "ORANGE": Suit.D,
    "Y": Suit.D,
    "YELLOW": Suit.D,
    "B": Suit.C,
    "BLUE": Suit.C,
}
_JOKER_WORDS: Final = frozenset({"JK", "JOKER", "🃏", "*"})
_CARD_RE: Final = re.compile(r"^(10|[2-9AJQKTBD1]|ASS|AS)([SHDC♠♥♦♣♤♡♢♧])$")
_CARD_SUIT_FIRST_RE: Final = re.compile(r"^([♠♥♦♣♤♡♢♧])(10|[2-9AJQKTBD]|ASS|AS)$")
_TILE_RE: Final = re.compile(r"^(BLACK|BLUE|RED|ORANGE|YELLOW|[KROBY])(1[0-3]|[1-9])$")


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card or a Rummikub tile; a printed joker has rank 0 and no suit.

    Compare by value. ``tile`` tells cards from tiles (a tile prints as ``R7``); all jokers
    are equal, in both kinds of deck.
    """

    rank: int
    suit: Suit | None
    tile: bool = False
    _hash: int = field(init=False, repr=False, compare=False)
    """The hash, computed once: cards are hashed in every count and lookup of the engine."""

    def __post_init__(self) -> None:
        if self.suit is None:
            if self.rank != 0 or self.tile:
                raise NotationError(Reason.of("notation.joker_plain"))
        elif not 1 <= self.rank <= 13:
            raise NotationError(Reason.of("notation.rank", count=self.rank))
        # Ints only: the hash is pickled with the card, so it must be the same in every
        # process (hash(None) is an address in Python 3.11, a string's hash is seeded).
        suit = -1 if self.suit is None else int(self.suit)
        object.__setattr__(self, "_hash", hash((self.rank, suit, self.tile)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        # Identity first: the engine shares one object per card (see _parse_card), and
        # the generated comparison built two tuples per call.
        if self is other:
            return True
        if other.__class__ is not Card:
            return NotImplemented
        return (
            self._hash == other._hash
            and self.rank == other.rank
            and self.suit == other.suit
            and self.tile == other.tile
        )

    # -- construction -------------------------------------------------------------------
    @staticmethod
    def parse(text: str) -> Card:
        """Read one card or tile: ``AS``, ``10H``, ``TH``, ``♠A``, ``JK``, ``R7``, ``Blue13``.

        The German rank letters of the seeds read too (``BH`` = ``JH``, ``DS`` = ``QS``,
        ``AsH`` = ``AH``; ``K`` is the king in both languages); cards always print in
        English notation, and ``pretty(lang="de")`` shows the German letters.

        >>> Card.parse("as") == Card.parse("A♠") == Card.parse("♠A")
        True
        >>> Card.parse("BH"), Card.parse("D♠"), Card.parse("AsC")
        (Card.parse('JH'), Card.parse('QS'), Card.parse('AC'))
        >>> Card.parse("1H")
        Traceback (most recent call last):
          ...
        openrummy.errors.NotationError: '1H' is ambiguous: write AH for the ace or R1 for the tile
        """
        return _parse_card(text)

    @staticmethod
    def _parse(text: str) -> Card:
        token = text.strip()
        upper = token.upper()
        if upper in _JOKER_WORDS:
            return JOKER
        if upper in ("1S", "1H", "1D", "1C"):
            raise NotationError(
                Reason.of(
                    "notation.ambiguous_one",
                    text=token,
                    card=f"A{upper[1]}",
                    item=f"{'KROB'['SHDC'.index(upper[1])]}1",
                )
            )
        m = _CARD_RE.match(upper)
        if m:
            return Card(_parse_rank(m.group(1)), _SUIT_PARSE[m.group(2)])
        m = _CARD_SUIT_FIRST_RE.match(upper)
        if m:
            return Card(_parse_rank(m.group(2)), _SUIT_PARSE[m.group(1)])
        m = _TILE_RE.match(upper)
        if m:
            return Card(int(m.group(2)), _TILE_PARSE[m.group(1)], tile=True)
        raise NotationError(Reason.of("notation.not_a_card", text=token))

    @staticmethod
    def natural(rank: int, suit: Suit, *, tile: bool = False) -> Card:
        return Card(rank, suit, tile)

    # -- properties ---------------------------------------------------------------------
    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def index(self) -> int:
        """Slot in a 53-slot count vector: ``suit * 13 + rank - 1``; the joker is 52."""
        if self.suit is None:
            return 52
        return int(self.suit) * 13 + self.rank - 1

    def as_tile(self, tile: bool = True) -> Card:
        """The same value as a tile (or as a card with ``tile=False``)."""
        return self if self.suit is None or self.tile == tile else Card(self.rank, self.suit, tile)

    # -- text ---------------------------------------------------------------------------
    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        if self.tile:
            return f"{self.suit.tile_letter}{self.rank}"
        return f"{_RANK_TEXT.get(self.rank, str(self.rank))}{self.suit.letter}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def pretty(self, lang: str = "en") -> str:
        """Text for people: ``10♥``, ``D♠`` in German, ``R7`` for tiles, ``🃏`` for jokers."""
        if self.suit is None:
            return "🃏"
        if self.tile:
            return str(self)
        names = _RANK_TEXT_DE if lang == "de" else _RANK_TEXT
        return f"{names.get(self.rank, str(self.rank))}{self.suit.symbol}"

    def sort_key(self) -> tuple[int, int]:
        """Suit then rank, jokers last."""
        return (4, 0) if self.suit is None else (int(self.suit), self.rank)


@functools.lru_cache(maxsize=4096)
def _parse_card(text: str) -> Card:
    """Card texts parse to shared objects: a game's record and every view built from actions
    refer to about a hundred distinct cards instead of one object per mention (less memory,
    and fewer objects for the garbage collector of a long-running server to walk)."""
    return Card._parse(text)


def _parse_rank(text: str) -> int:
    if text in _RANK_PARSE:
        return _RANK_PARSE[text]
    return int(text)


JOKER: Final = Card(0, None)
"""The printed joker (the same value in card and tile games)."""


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas, or from a list of tokens.

    >>> parse_cards("AS, 10H JK")
    [Card.parse('AS'), Card.parse('10H'), Card.parse('JK')]
    """
    tokens = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    return [Card.parse(t) for t in tokens if t.strip()]


def check_deck_kind(cards: Iterable[Card], *, tiles: bool, game: str) -> None:
    """Raise :class:`NotationError` naming the first playing card in a tile game's input,
    or the first tile in a card game's (jokers belong to both).

    >>> check_deck_kind(parse_cards("R7 JK"), tiles=True, game="rummikub")
    >>> check_deck_kind(parse_cards("R7 AS"), tiles=True, game="rummikub")
    Traceback (most recent call last):
      ...
    openrummy.errors.NotationError: AS is a playing card: rummikub is played with tiles (R7, K1, B13, O5)
    """
    for card in cards:
        if card.suit is not None and card.tile != tiles:
            key = "notation.card_in_tile_game" if tiles else "notation.tile_in_card_game"
            raise NotationError(Reason.of(key, card=str(card), game=game))


def format_cards(cards: Iterable[Card], *, pretty: bool = False, lang: str = "en") -> str:
    return " ".join(c.pretty(lang) if pretty else str(c) for c in cards)


def card_counts(cards: Iterable[Card]) -> Counter[Card]:
    return Counter(cards)


def standard_deck(decks: int = 2, jokers: int = 4) -> list[Card]:
    """``decks`` × 52 cards plus ``jokers`` printed jokers, in a fixed order (shuffle it).

    >>> len(standard_deck(2, 4))
    108
    """
    return list(_standard_deck(decks, jokers))


@functools.cache
def _standard_deck(decks: int, jokers: int) -> tuple[Card, ...]:
    # Cards are immutable values: every deck shares one object per card (dealing builds a
    # deck per hand, and building 104 cards costs more than shuffling them).
    one = [Card(rank, suit) for suit in Suit for rank in RANKS]
    return (*(one * decks), *([JOKER] * jokers))


def shuffle(rng: random.Random, cards: list[_T]) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does (the same
    Fisher-Yates swaps from the same ``getrandbits`` draws), in fewer steps: every deal
    shuffles a whole deck."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def tile_set(copies: int = 2, jokers: int = 2) -> list[Card]:
    """Rummikub tiles: 1..13 in four colours, ``copies`` of each, plus jokers (106 by default)."""
    tiles = [Card(rank, suit, tile=True) for _ in range(copies) for suit in Suit for rank in RANKS]
    return tiles + [JOKER] * jokers


def iter_naturals(tile: bool = False) -> Iterator[Card]:
    """Each of the 52 distinct natural values once, in index order."""
    for suit in Suit:
        for rank in RANKS:
            yield Card(rank, suit, tile)
