"""Rules of Indian Rummy: 13, 10 and 21 cards (RULES.md §5–§7, §10.1).

One frozen :class:`IndianRules` holds every option, grouped in sections named as in
RULES.md (``declare.requirement``, ``scoring.loser_meld_credit``, ``v21.declare_forms`` …).
It is validated when built: a combination no game can honour raises
:class:`~openrummy.errors.ConfigError` naming the option.

    >>> from openrummy.rules import find_preset
    >>> r = find_preset("indian13")
    >>> r.deal.hand_size, r.scoring.cap, r.declare.requirement.name
    (13, 80, 'TWO_SEQ_ONE_PURE')
    >>> find_preset("indian10", **{"declare.requirement": "TWO_SEQ_TWO_SETS"})
    Traceback (most recent call last):
      ...
    openrummy.errors.ConfigError: declare.requirement = TWO_SEQ_TWO_SETS needs at least 12 cards (2 sequences and 2 sets of 3), but deal.hand_size = 10

The hand's wild cards depend on the indicator card turned at the start of the hand
(§5.1, §7.2); :meth:`IndianRules.wilds` turns an indicator into a :class:`Wilds` value that
the meld rules, the card values and the hand solver share:

    >>> w = r.wilds(Card.parse("2C"))
    >>> w.wild_rank, r.penalty_value(Card.parse("2H"), w), r.penalty_value(Card.parse("KH"), w)
    (2, 0, 10)
    >>> r.wilds(Card.parse("JK")).wild_rank   # a printed-joker indicator makes aces wild
    1
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final, Literal, Self

from openrummy.cards import Card, Suit
from openrummy.errors import ConfigError
from openrummy.melds import AceMode, MeldRules
from openrummy.rules.common import (
    DeckKind,
    DeckOptions,
    FirstDealer,
    FirstPlayer,
    MatchFormat,
    PlayersOptions,
    ScoringMode,
    upgrade_pool_format,
)
from openrummy.rules.options import OptionSet

__all__ = [
    "AllWildGroup",
    "DealsScoring",
    "DeclareArrangement",
    "DeclareRequirement",
    "IndianRules",
    "IndianTurnOptions",
    "LoserArrangement",
    "LoserMeldCredit",
    "PoolElimination",
    "StockOnEmpty",
    "V21Form",
    "ValueCard",
    "Wilds",
]


class AllWildGroup(Enum):
    """May a group made only of wild items stand, and as what (A35)?"""

    FORBIDDEN = "FORBIDDEN"
    SET_ONLY = "SET_ONLY"
    """A valid set of 3 to ``meld.set_max`` items; never one of the required sequences."""
    SET_OR_SEQUENCE = "SET_OR_SEQUENCE"
    """As SET_ONLY, and 3 to 13 wild items may also count as an (impure) sequence."""
    JOKER_GROUP = "JOKER_GROUP"
    """As SET_ONLY, and a group of wild items may have any size ≥ 3 (21-card "8 jokers")."""


class DeclareRequirement(Enum):
    """What a declaration must show (§5.3, §6, §7.4)."""

    TWO_SEQ_ONE_PURE = "TWO_SEQ_ONE_PURE"
    TWO_SEQ_TWO_SETS = "TWO_SEQ_TWO_SETS"
    """The seed's 10-card wording: 2 sequences (one pure) and 2 sets; needs ≥ 12 cards (A49)."""
    V21_ANY_OF = "V21_ANY_OF"
    """21-card: any form enabled in ``v21.declare_forms`` (§7.4)."""


class DeclareArrangement(Enum):
    SUBMITTED = "SUBMITTED"
    """The declarer's own grouping is judged as shown (A38)."""
    AUTO = "AUTO"
    """The engine searches for any valid grouping of the declarer's cards."""


class LoserMeldCredit(Enum):
    """When a loser's melds reduce their count (§5.4, §7.5, A36)."""

    TWO_SEQ_ONE_PURE = "TWO_SEQ_ONE_PURE"
    PURE_ONLY = "PURE_ONLY"
    ANY_MELD = "ANY_MELD"
    THREE_PURE = "THREE_PURE"
    """21-card: three pure sequences (tunnelas count)."""


class LoserArrangement(Enum):
    AUTO_OPTIMAL = "AUTO_OPTIMAL"
    SUBMITTED = "SUBMITTED"


class StockOnEmpty(Enum):
    RESHUFFLE_DISCARDS_EXCEPT_TOP = "RESHUFFLE_DISCARDS_EXCEPT_TOP"
    HAND_VOID = "HAND_VOID"


class PoolElimination(Enum):
    REACH = "REACH"
    """Eliminated at a total ≥ the threshold (S004 intro; E17, E18)."""
    EXCEED = "EXCEED"
    """Eliminated at a total > the threshold."""


class DealsScoring(Enum):
    LOWEST_TOTAL = "LOWEST_TOTAL"
    CHIPS = "CHIPS"


class V21Form(Enum):
    """The four 21-card declaration forms (§7.4)."""

    THREE_PURE = "THREE_PURE"
    THREE_TUNNELA = "THREE_TUNNELA"
    EIGHT_DUBLEE = "EIGHT_DUBLEE"
    EIGHT_JOKERS = "EIGHT_JOKERS"


class ValueCard(Enum):
    """21-card value cards, relative to the indicator ("cut joker") (§7.2)."""

    LOWER = "LOWER"
    CUT = "CUT"
    UPPER = "UPPER"


ALL_V21_FORMS: Final = tuple(V21Form)

#: The smallest hand each requirement can be met with (A49: checked at construction).
_MIN_CARDS: Final = {
    DeclareRequirement.TWO_SEQ_ONE_PURE: 6,
    DeclareRequirement.TWO_SEQ_TWO_SETS: 12,
}
_FORM_MIN_CARDS: Final = {
    V21Form.THREE_PURE: 9,
    V21Form.THREE_TUNNELA: 9,
    V21Form.EIGHT_DUBLEE: 16,
    V21Form.EIGHT_JOKERS: 8,
}
_CREDIT_MIN_CARDS: Final = {
    LoserMeldCredit.TWO_SEQ_ONE_PURE: 6,
    LoserMeldCredit.PURE_ONLY: 3,
    LoserMeldCredit.ANY_MELD: 3,
    LoserMeldCredit.THREE_PURE: 9,
}


# -- wild cards of a hand ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Wilds:
    """The wild cards of one hand: the wild rank and, in 21-card, the upper/lower jokers.

    ``indicator`` is the card turned at the start of the hand (``None`` when only the wild
    rank is known, e.g. ``rummy arrange`` with ``wild_rank``); ``extra`` holds the further
    wild cards (21-card upper and lower jokers, §7.2). Printed jokers are always wild.
    """

    wild_rank: int | None
    indicator: Card | None = None
    extra: frozenset[Card] = frozenset()

    def is_wild(self, card: Card) -> bool:
        """May ``card`` stand for another card in this hand?"""
        return (
            card.is_joker
            or (self.wild_rank is not None and card.rank == self.wild_rank)
            or card in self.extra
        )


# -- sections ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class IndianDealOptions:
    hand_size: int = 13
    """Cards dealt to each player (13, 10 or 21 in the presets). A player holds one more after
    drawing.
    """
    first_dealer: FirstDealer = FirstDealer.LOW_CUT
    """Who deals the first hand: LOW_CUT (everyone cuts, the lowest card deals), HIGH_CUT or
    RANDOM. The deal then passes one seat clockwise each hand.
    """
    first_player: FirstPlayer = FirstPlayer.LEFT_OF_DEALER
    """Who plays first: LEFT_OF_DEALER."""


@dataclass(frozen=True, slots=True)
class IndianMeldOptions:
    ace_mode: AceMode = AceMode.HIGH_OR_LOW
    """Where an ace may sit in a sequence. HIGH_OR_LOW: A-2-3 or Q-K-A, never K-A-2. LOW_ONLY:
    A-2-3 only. WRAPAROUND: ranks go round, so K-A-2 is a sequence.
    """
    ace_both_ends: bool = False
    """With meld.ace_mode = HIGH_OR_LOW: may one sequence use an ace at both ends (A-2-…-K-A)?"""
    set_max: int = 4
    """The most cards in a set (cards of one rank in different suits, 3 to 8). Beyond 4, wild cards
    may repeat a suit.
    """
    min_len: int = 3
    """The fewest cards in a sequence (3 to 13)."""
    min_naturals: int = 0
    """How many cards of a group must be natural (not used as wild) at least; 0 lets wild cards
    alone form a group, as meld.all_wild_group allows.
    """
    all_wild_group: AllWildGroup = AllWildGroup.SET_ONLY
    """May a group made only of wild cards stand, and as what. FORBIDDEN: never. SET_ONLY: as a set
    of 3 to meld.set_max cards, never as one of the sequences a declaration needs.
    SET_OR_SEQUENCE: also as an impure sequence of 3 to 13 cards. JOKER_GROUP: as a set of any
    size of 3 or more (for the 21-card eight-jokers declaration).
    """


@dataclass(frozen=True, slots=True)
class WildOptions:
    indicator_in_play: bool = False
    """The card turned up to choose the wild rank: false, it stays out of play for the whole hand;
    true, it goes face up under the stock as its last card.
    """
    natural_use_counts_pure: bool = True
    """Does a card of the wild rank used as itself (the 7 of hearts as the 7 of hearts) keep a
    sequence pure?
    """


@dataclass(frozen=True, slots=True)
class DeclareOptions:
    requirement: DeclareRequirement = DeclareRequirement.TWO_SEQ_ONE_PURE
    """What a declaration must show. TWO_SEQ_ONE_PURE: every card in a set or sequence, with at
    least two sequences of which at least one is pure (no wild card standing in).
    TWO_SEQ_TWO_SETS: as that, and at least two sets too (needs 12 cards or more). V21_ANY_OF:
    any of the 21-card forms in v21.declare_forms.
    """
    require_life_len4: bool = False
    """Must one of the two required sequences have 4 cards or more?"""
    arrangement: DeclareArrangement = DeclareArrangement.SUBMITTED
    """SUBMITTED: the declarer's grouping is judged as shown, so a winning hand grouped wrongly is
    an invalid declaration. AUTO: the declaration is valid if any grouping of the cards is.
    """
    invalid_penalty: int = 80
    """Points a player scores for an invalid declaration."""
    invalid_ends_hand: bool = False
    """Does an invalid declaration end the hand (the others score 0)? If not, the declarer is out
    of the hand and play goes on.
    """


@dataclass(frozen=True, slots=True)
class DropOptions:
    first: int = 20
    """Points for dropping out of the hand before one's first draw."""
    middle: int = 40
    """Points for dropping out after having drawn at least once."""


@dataclass(frozen=True, slots=True)
class IndianTurnOptions:
    time_limit_s: float | None = None
    """Seconds a player has for a turn (the draw and the discard or declaration), or none for no
    limit. When the turn's time and the player's time bank have both run out, the turn is
    played for them: a card is drawn from the stock and that card is thrown (after a draw, the
    card just drawn is thrown).
    """
    time_bank_s: float | None = None
    """Extra seconds each player has for the whole hand, spent only once a turn's
    turn.time_limit_s has run out (none: no time bank). Needs turn.time_limit_s.
    """


@dataclass(frozen=True, slots=True)
class IndianScoringOptions:
    mode: ScoringMode = ScoringMode.PENALTY_LOW
    """How a hand is scored: PENALTY_LOW, the losers score the points of their unmelded cards and
    lower is better.
    """
    ace_penalty: int = 10
    """Points for an ace among a loser's counted cards."""
    joker_penalty: int = 0
    """Points for a printed joker among a loser's counted cards (cards of the wild rank always
    count 0).
    """
    cap: int | None = 80
    """The most a loser can score for one hand (none: no cap)."""
    loser_meld_credit: LoserMeldCredit = LoserMeldCredit.TWO_SEQ_ONE_PURE
    """When a loser's melds are taken off their count. TWO_SEQ_ONE_PURE: only if the loser holds
    two sequences, one of them pure; otherwise every card counts. PURE_ONLY: if the loser holds
    one pure sequence. ANY_MELD: every valid meld counts off. THREE_PURE: if the loser holds
    three pure sequences (21 cards).
    """
    loser_arrangement: LoserArrangement = LoserArrangement.AUTO_OPTIMAL
    """AUTO_OPTIMAL: a loser's cards are grouped for the lowest count. SUBMITTED: losers group
    their own cards and are scored as grouped.
    """
    never_drew_full_count: bool = False
    """Does a loser who never drew in the hand score the full count (scoring.cap, or 80 without a
    cap)?
    """
    first_hand_show_cap: int | None = None
    """When the winner declares on their first draw, the most a loser can score (none: no such
    cap).
    """


@dataclass(frozen=True, slots=True)
class StockOptions:
    on_empty: StockOnEmpty = StockOnEmpty.RESHUFFLE_DISCARDS_EXCEPT_TOP
    """What happens when the stock runs out. RESHUFFLE_DISCARDS_EXCEPT_TOP: the discards below the
    top card are shuffled into a new stock. HAND_VOID: the hand ends and the players still in it
    score 0.
    """


@dataclass(frozen=True, slots=True)
class DiscardOptions:
    take_wild_from_discard: bool = True
    """May a player take a wild card from the discard pile?"""
    no_same_card_return: bool = False
    """Must a card taken from the discard pile stay in the hand for that turn (it may not be thrown
    straight back)?
    """


@dataclass(frozen=True, slots=True)
class PapluOptions:
    enabled: bool = False
    """Play with the paplu bonus: the card one rank above the wild rank in the indicator's suit. A
    declarer who holds it collects paplu.bonus points from every other active player, per paplu
    held.
    """
    bonus: int = 10
    """Points each other active player adds to their score per paplu the declarer holds (after the
    cap).
    """


@dataclass(frozen=True, slots=True)
class PoolOptions:
    threshold: int = 101
    """The pool limit of a POOL match: 101 or 201 (the rule book's pools), or 61 (the short
    pool of the big Indian apps). A player whose total reaches it is out.
    """
    elimination: PoolElimination = PoolElimination.REACH
    """In a pool match, when a player's total knocks them out: REACH, at pool.threshold or
    more; EXCEED, only above it.
    """
    drop_values_201: tuple[int, int] | None = None
    """The first and middle drop values of a 201 pool, as two numbers (for example 25,50); they
    replace drop.first and drop.middle there. None: the usual drop values.
    """


#: The pool thresholds of RULES.md §5.5 (101, 201) and the 61 pool of the big Indian apps.
POOL_THRESHOLDS: Final = (61, 101, 201)


@dataclass(frozen=True, slots=True)
class DealsOptions:
    count: int = 2
    """Hands in a DEALS match."""
    scoring: DealsScoring = DealsScoring.LOWEST_TOTAL
    """How a DEALS match is won. LOWEST_TOTAL: the lowest total of hand scores. CHIPS: everyone
    starts with 80 chips per hand, each hand's winner collects the losers' scores as chips, and
    the most chips win.
    """


@dataclass(frozen=True, slots=True)
class IndianMatchOptions:
    format: MatchFormat = MatchFormat.POINTS
    """How hands make a match. POINTS: a single hand, settled in points. POOL: hands go on, a
    player whose total reaches pool.threshold (101, 201 or 61) is out, and the last player
    left wins. DEALS: deals.count hands, then the totals decide. FIXED_HANDS: match.hands
    hands, the lowest total wins. The earlier names POOL_101, POOL_201 and
    ROUNDS_LOWEST_TOTAL are still read.
    """
    hands: int = 3
    """Hands in a FIXED_HANDS match."""


@dataclass(frozen=True, slots=True)
class V21Options:
    declare_forms: tuple[V21Form, ...] = ALL_V21_FORMS
    """The 21-card declarations allowed (with declare.requirement = V21_ANY_OF), as a list.
    THREE_PURE: three pure sequences (a tunnela counts as one), every other card melded.
    THREE_TUNNELA: three tunnelas (three identical cards). EIGHT_DUBLEE: eight dublees (pairs of
    identical cards). EIGHT_JOKERS: eight wild cards in one group.
    """
    dublee_as_meld: bool = False
    """Does a dublee (a pair of identical cards) count as a meld in general, not only toward the
    eight-dublee declaration?
    """
    upper_lower_wild: bool = True
    """Are the upper and lower jokers (the cards one rank above and below the indicator, in its
    suit) wild as well as value cards?
    """
    value_cards: bool = True
    """Exchange value-card and marriage points among the players who did not drop, at the end of
    the hand.
    """
    value_points: tuple[int, int, int] = (10, 30, 50)
    """Points for holding 1, 2 or 3 value cards of one kind (cut, upper or lower joker), as three
    numbers.
    """
    marriage_points: tuple[int, int, int] = (100, 300, 500)
    """Points for 1, 2 or 3 marriages (a lower, a cut and an upper joker together), as three
    numbers.
    """
    loss_cap_with_values: int | None = None
    """The most a player can score for a hand once value points are exchanged (none: no cap)."""


#: Options whose value is a tuple: read from text such as "25,50" or "(25, 50)".
_TUPLE_OPTIONS: Final = {
    "pool.drop_values_201": (int, 2, True),
    "v21.value_points": (int, 3, False),
    "v21.marriage_points": (int, 3, False),
    "v21.declare_forms": (V21Form, -1, False),
}

_MATCH_FORMATS: Final = (
    MatchFormat.POINTS,
    MatchFormat.POOL,
    MatchFormat.DEALS,
    MatchFormat.FIXED_HANDS,
)


@dataclass(frozen=True, slots=True)
class IndianRules(OptionSet):
    """Every option of an Indian Rummy game (13, 10 or 21 cards). Build with ``find_preset``."""

    name: str = "indian13"
    title: str = "Indian Rummy (13 cards)"
    players: PlayersOptions = field(default_factory=lambda: PlayersOptions(2, 6))
    deck: DeckOptions = field(default_factory=lambda: DeckOptions(DeckKind.CARDS, 2, 2))
    deal: IndianDealOptions = field(default_factory=IndianDealOptions)
    meld: IndianMeldOptions = field(default_factory=IndianMeldOptions)
    wild: WildOptions = field(default_factory=WildOptions)
    declare: DeclareOptions = field(default_factory=DeclareOptions)
    drop: DropOptions = field(default_factory=DropOptions)
    turn: IndianTurnOptions = field(default_factory=IndianTurnOptions)
    scoring: IndianScoringOptions = field(default_factory=IndianScoringOptions)
    stock: StockOptions = field(default_factory=StockOptions)
    discard: DiscardOptions = field(default_factory=DiscardOptions)
    paplu: PapluOptions = field(default_factory=PapluOptions)
    pool: PoolOptions = field(default_factory=PoolOptions)
    deals: DealsOptions = field(default_factory=DealsOptions)
    match: IndianMatchOptions = field(default_factory=IndianMatchOptions)
    v21: V21Options = field(default_factory=V21Options)

    family: Literal["indian"] = "indian"

    def __post_init__(self) -> None:
        for problem in self._problems():
            raise ConfigError(problem)

    # -- overrides ----------------------------------------------------------------------
    def with_options(self, overrides: Mapping[str, object] | None = None, /, **kw: object) -> Self:
        """As :meth:`OptionSet.with_options`; tuple options also read ``"25,50"``.

        Earlier names of the match formats are read as today's: ``POOL_101`` / ``POOL_201``
        (and ``POOL_61``) as ``POOL`` with that ``pool.threshold``, ``ROUNDS_LOWEST_TOTAL``
        as ``FIXED_HANDS``.

        >>> from openrummy.rules import find_preset
        >>> r = find_preset("indian13", {"match.format": "POOL_201"})
        >>> r.match.format.name, r.pool.threshold
        ('POOL', 201)
        """
        merged: dict[str, object] = dict(overrides or {})
        merged.update(kw)
        _upgrade_match_format(merged)
        tuples: dict[str, dict[str, object]] = {}
        for key in [k for k in merged if k in _TUPLE_OPTIONS]:
            section, _, name = key.partition(".")
            tuples.setdefault(section, {})[name] = _coerce_tuple(key, merged.pop(key))
        out = OptionSet.with_options(self, merged) if merged else self
        if not tuples:
            return out
        changes = {
            section: dataclasses.replace(getattr(out, section), **fields)
            for section, fields in tuples.items()
        }
        return dataclasses.replace(out, **changes)

    # -- validation ---------------------------------------------------------------------
    def _problems(self) -> Iterable[str]:
        p, d, hs = self.players, self.deck, self.deal.hand_size
        if p.min < 2:
            yield f"players.min = {p.min}: a game needs at least 2 players"
        if p.max < p.min:
            yield f"players.max = {p.max} is below players.min = {p.min}"
        if d.kind is not DeckKind.CARDS:
            yield f"deck.kind = {d.kind.name}: Indian Rummy is played with cards"
        t = self.turn
        if t.time_limit_s is not None and t.time_limit_s <= 0:
            yield f"turn.time_limit_s = {t.time_limit_s}: a limit must be positive (or none)"
        if t.time_bank_s is not None and t.time_bank_s < 0:
            yield f"turn.time_bank_s = {t.time_bank_s}: a time bank cannot be negative"
        if t.time_bank_s is not None and t.time_limit_s is None:
            yield "turn.time_bank_s needs turn.time_limit_s (a bank extends a turn's time)"
        if not 1 <= d.standard_decks <= 4:
            yield f"deck.standard_decks = {d.standard_decks}: use 1 to 4"
        if not 0 <= d.printed_jokers <= 8:
            yield f"deck.printed_jokers = {d.printed_jokers}: use 0 to 8"
        if hs < 3:
            yield f"deal.hand_size = {hs}: a hand needs at least 3 cards"
        # Each hand, the indicator and the first discard come from the deck, and the stock
        # must hold at least one card to draw.
        if hs * p.min + 3 > d.size:
            yield (
                f"deal.hand_size = {hs}: {p.min} hands of {hs}, the indicator, the first "
                f"discard and a stock need {hs * p.min + 3} cards; the deck has {d.size}"
            )
        if self.deal.first_player is not FirstPlayer.LEFT_OF_DEALER:
            yield "deal.first_player: Indian Rummy starts left of the dealer"
        m = self.meld
        if not 3 <= m.set_max <= 8:
            yield f"meld.set_max = {m.set_max}: a set has 3 to at most 8 cards"
        if m.min_len != 3:
            yield f"meld.min_len = {m.min_len}: Indian sequences have at least 3 cards"
        if not 0 <= m.min_naturals <= 3:
            yield f"meld.min_naturals = {m.min_naturals}: use 0 to 3"
        if m.min_naturals > 0 and m.all_wild_group is not AllWildGroup.FORBIDDEN:
            yield (
                f"meld.min_naturals = {m.min_naturals} forbids groups of wild items only: "
                f"set meld.all_wild_group = FORBIDDEN (it is {m.all_wild_group.name})"
            )
        if m.ace_mode is AceMode.WRAPAROUND:
            yield "meld.ace_mode = WRAPAROUND: Indian runs never turn the corner (K-A-2 is invalid)"
        if m.ace_both_ends and m.ace_mode is not AceMode.HIGH_OR_LOW:
            yield "meld.ace_both_ends needs meld.ace_mode = HIGH_OR_LOW"
        yield from self._declare_problems()
        s = self.scoring
        if s.mode is not ScoringMode.PENALTY_LOW:
            yield f"scoring.mode = {s.mode.name}: Indian Rummy scores PENALTY_LOW"
        for name, value in (
            ("scoring.ace_penalty", s.ace_penalty),
            ("scoring.joker_penalty", s.joker_penalty),
            ("declare.invalid_penalty", self.declare.invalid_penalty),
            ("drop.first", self.drop.first),
            ("drop.middle", self.drop.middle),
            ("paplu.bonus", self.paplu.bonus),
        ):
            if value < 0:
                yield f"{name} = {value}: must be 0 or more"
        if s.cap is not None and s.cap <= 0:
            yield f"scoring.cap = {s.cap}: must be positive (or none)"
        if s.first_hand_show_cap is not None and s.first_hand_show_cap <= 0:
            yield f"scoring.first_hand_show_cap = {s.first_hand_show_cap}: must be positive (or none)"
        need = _CREDIT_MIN_CARDS[s.loser_meld_credit]
        if need > hs:
            yield (
                f"scoring.loser_meld_credit = {s.loser_meld_credit.name} needs at least "
                f"{need} cards, but deal.hand_size = {hs}"
            )
        if self.drop.middle < self.drop.first:
            yield (
                f"drop.middle = {self.drop.middle} is below drop.first = {self.drop.first}: "
                "a later drop never costs less"
            )
        pool = self.pool
        if pool.threshold not in POOL_THRESHOLDS:
            yield (
                f"pool.threshold = {pool.threshold}: pools are played to "
                + ", ".join(map(str, POOL_THRESHOLDS))
            )
        if pool.drop_values_201 is not None:
            first, middle = pool.drop_values_201
            if first < 0 or middle < first:
                yield f"pool.drop_values_201 = {pool.drop_values_201}: use (first, middle) with 0 ≤ first ≤ middle"
        mt = self.match
        if mt.format not in _MATCH_FORMATS:
            yield (
                f"match.format = {mt.format.name} is not an Indian Rummy format; use "
                + ", ".join(f.name for f in _MATCH_FORMATS)
            )
        if self.deals.count < 1:
            yield f"deals.count = {self.deals.count}: play at least one deal"
        if mt.hands < 1:
            yield f"match.hands = {mt.hands}: play at least one hand"
        v = self.v21
        if any(x < 0 for x in (*v.value_points, *v.marriage_points)):
            yield "v21.value_points / v21.marriage_points: points must be 0 or more"
        if v.loss_cap_with_values is not None and v.loss_cap_with_values <= 0:
            yield f"v21.loss_cap_with_values = {v.loss_cap_with_values}: must be positive (or none)"
        if self.paplu.enabled and self.is_v21:
            yield "paplu.enabled: the 21-card game pays for value cards instead (v21.value_cards)"

    def _declare_problems(self) -> Iterable[str]:
        dc, hs = self.declare, self.deal.hand_size
        if dc.requirement is DeclareRequirement.V21_ANY_OF:
            forms = self.v21.declare_forms
            if not forms:
                yield "v21.declare_forms is empty: enable at least one declaration form"
                return
            if len(set(forms)) != len(forms):
                yield f"v21.declare_forms lists a form twice: {', '.join(f.name for f in forms)}"
            need = min(_FORM_MIN_CARDS[f] for f in forms)
            label = "any of " + ", ".join(f.name for f in forms)
        else:
            need = _MIN_CARDS[dc.requirement]
            label = {
                DeclareRequirement.TWO_SEQ_ONE_PURE: "2 sequences of 3",
                DeclareRequirement.TWO_SEQ_TWO_SETS: "2 sequences and 2 sets of 3",
            }[dc.requirement]
        if dc.require_life_len4:
            if dc.requirement is DeclareRequirement.V21_ANY_OF:
                yield "declare.require_life_len4 applies to the two-sequence requirements only"
            need += 1
            label += ", one of 4"
        if need > hs:
            yield (
                f"declare.requirement = {dc.requirement.name} needs at least {need} cards "
                f"({label}), but deal.hand_size = {hs}"
            )

    # -- derived ------------------------------------------------------------------------
    @property
    def is_v21(self) -> bool:
        """True when 21-card structures (tunnelas, dublees, value cards) are in force."""
        return self.declare.requirement is DeclareRequirement.V21_ANY_OF

    @property
    def tunnela_is_meld(self) -> bool:
        """Three identical cards form a meld that counts as a pure sequence (§7.3)."""
        return self.is_v21 or self.scoring.loser_meld_credit is LoserMeldCredit.THREE_PURE

    def wild_rank_of(self, indicator: Card) -> int:
        """The wild rank set by ``indicator``; a printed joker makes aces wild (§5.1, A32)."""
        return 1 if indicator.is_joker else indicator.rank

    def value_cards(self, indicator: Card) -> dict[ValueCard, Card] | None:
        """The 21-card cut, upper and lower jokers for ``indicator`` (§7.2; A♠ for a joker)."""
        if not self.is_v21:
            return None
        cut = Card(1, Suit.S) if indicator.is_joker or indicator.suit is None else indicator
        assert cut.suit is not None
        upper = Card(cut.rank % 13 + 1, cut.suit)
        lower = Card((cut.rank - 2) % 13 + 1, cut.suit)
        return {ValueCard.LOWER: lower, ValueCard.CUT: cut, ValueCard.UPPER: upper}

    def wilds(self, indicator: Card | None = None, *, wild_rank: int | None = None) -> Wilds:
        """The hand's wild cards from its indicator (or from a bare wild rank).

        >>> from openrummy.rules import find_preset
        >>> w = find_preset("indian21").wilds(Card.parse("5C"))
        >>> w.wild_rank, sorted(map(str, w.extra))
        (5, ['4C', '6C'])
        """
        if indicator is not None:
            if wild_rank is not None and wild_rank != self.wild_rank_of(indicator):
                raise ConfigError(
                    f"wild_rank {wild_rank} contradicts the indicator {indicator} "
                    f"(wild rank {self.wild_rank_of(indicator)})"
                )
            extra: frozenset[Card] = frozenset()
            vc = self.value_cards(indicator)
            if vc is not None and self.v21.upper_lower_wild:
                extra = frozenset((vc[ValueCard.UPPER], vc[ValueCard.LOWER]))
            return Wilds(self.wild_rank_of(indicator), indicator, extra)
        if wild_rank is not None and not 1 <= wild_rank <= 13:
            raise ConfigError(f"wild_rank {wild_rank} is not a rank (1..13)")
        return Wilds(wild_rank)

    @property
    def meld_rules(self) -> MeldRules:
        """The :class:`MeldRules` without wild cards (a hand's wild rank comes from its indicator:
        :meth:`meld_rules_for`)."""
        return self.meld_rules_for(None)

    def meld_rules_for(self, wilds: Wilds | int | None) -> MeldRules:
        """The :class:`MeldRules` of a hand with these wild cards (or this wild rank)."""
        w = wilds if isinstance(wilds, Wilds) else Wilds(wilds)
        m = self.meld
        return MeldRules(
            ace_mode=m.ace_mode,
            set_max=m.set_max,
            min_len=m.min_len,
            min_naturals=m.min_naturals,
            ace_both_ends=m.ace_both_ends,
            wild_rank=w.wild_rank,
            wild_natural_counts_pure=self.wild.natural_use_counts_pure,
            extra_wild=w.extra,
        )

    def card_value(self, card: Card) -> int:
        """Face value ignoring wildness: A, K, Q, J = 10 (``scoring.ace_penalty``), 2–10 face."""
        if card.is_joker:
            return self.scoring.joker_penalty
        if card.rank == 1:
            return self.scoring.ace_penalty
        return min(card.rank, 10)

    def penalty_value(self, card: Card, wilds: Wilds | int | None = None) -> int:
        """What ``card`` costs a loser (§5.4): wild-rank cards 0 even unmelded (S004)."""
        w = wilds if isinstance(wilds, Wilds) else Wilds(wilds)
        if card.is_joker:
            return self.scoring.joker_penalty
        if w.is_wild(card):
            return 0
        return self.card_value(card)

    def hand_value(self, cards: Iterable[Card], wilds: Wilds | int | None = None) -> int:
        w = wilds if isinstance(wilds, Wilds) else Wilds(wilds)
        return sum(self.penalty_value(c, w) for c in cards)

    def cap_points(self, deadwood: int) -> int:
        """A loser's hand score from raw deadwood: ``min(scoring.cap, deadwood)``."""
        cap = self.scoring.cap
        return deadwood if cap is None else min(cap, deadwood)

    def paplu_card(self, indicator: Card) -> Card | None:
        """The paplu: one rank above the wild rank in the indicator's suit (§5.7, A45)."""
        if indicator.is_joker or indicator.suit is None:
            return None
        return Card(indicator.rank % 13 + 1, indicator.suit)

    def value_points(self, cards: Iterable[Card], indicator: Card) -> int:
        """21-card value-card points of a hand (§7.5): marriages first, then singles.

        >>> from openrummy.rules import find_preset
        >>> from openrummy.cards import parse_cards
        >>> r, ind = find_preset("indian21"), Card.parse("5C")
        >>> r.value_points(parse_cards("4C 5C 6C"), ind), r.value_points(parse_cards("6C"), ind)
        (100, 10)
        """
        vc = self.value_cards(indicator)
        if vc is None or not self.v21.value_cards:
            return 0
        counts = Counter(cards)
        per = {kind: counts[card] for kind, card in vc.items()}
        marriages = min(per.values())
        total = _ladder(self.v21.marriage_points, marriages)
        for n in per.values():
            total += _ladder(self.v21.value_points, n - marriages)
        return total

    @staticmethod
    def value_exchange(values: list[int]) -> list[int]:
        """Each non-dropped player's net from the value-card exchange (§7.5).

        Player i receives ``V_i`` from each of the other ``m − 1`` players and pays each of
        them theirs: ``net_i = (m − 1)·V_i − Σ_{j≠i} V_j`` (the nets sum to 0).

        >>> IndianRules.value_exchange([100, 10, 0])
        [190, -80, -110]
        """
        m, total = len(values), sum(values)
        return [(m - 1) * v - (total - v) for v in values]

    def drop_values(self) -> tuple[int, int]:
        """(first, middle) drop penalties in force, with the 201-pool override (§5.5)."""
        if self.pool_threshold == 201 and self.pool.drop_values_201 is not None:
            return self.pool.drop_values_201
        return self.drop.first, self.drop.middle

    @property
    def pool_threshold(self) -> int | None:
        """``pool.threshold`` in a ``POOL`` match, else ``None``."""
        return self.pool.threshold if self.match.format is MatchFormat.POOL else None

    def max_copies(self, card: Card, indicator: Card | None = None) -> int:
        """How many copies of ``card`` the decks hold outside the out-of-play indicator."""
        n = self.deck.printed_jokers if card.is_joker else self.deck.standard_decks
        if indicator is not None and not self.wild.indicator_in_play and indicator == card:
            n -= 1
        return n

    def check_players(self, players: int) -> None:
        if not self.players.min <= players <= self.players.max:
            raise ConfigError(
                f"{self.title} ({self.name}) is for {self.players.min} to {self.players.max} "
                f"players, not {players} (players.min/players.max)"
            )
        need = self.deal.hand_size * players + 3
        if need > self.deck.size:
            raise ConfigError(
                f"deal.hand_size: {players} hands of {self.deal.hand_size} plus indicator, "
                f"first discard and stock need {need} cards, the deck has {self.deck.size}"
            )

    def summary(self) -> str:
        return f"{self.title} ({self.name})"


def _upgrade_match_format(merged: dict[str, object]) -> None:
    """Rewrite earlier match-format names in an override mapping to today's (in place)."""
    raw = merged.get("match.format")
    if isinstance(raw, str) and raw.strip().upper() == MatchFormat.ROUNDS_LOWEST_TOTAL.name:
        merged["match.format"] = MatchFormat.FIXED_HANDS.name
    upgrade_pool_format(merged)


def _ladder(points: tuple[int, int, int], n: int) -> int:
    """Points for ``n`` of a kind on a 1/2/3 ladder; beyond 3, each extra adds a third step."""
    if n <= 0:
        return 0
    if n <= 3:
        return points[n - 1]
    return points[2] + (n - 3) * (points[2] - points[1])


def _coerce_tuple(name: str, raw: object) -> Any:
    item_type, length, optional = _TUPLE_OPTIONS[name]
    if raw is None or (isinstance(raw, str) and raw.strip().lower() in ("none", "null", "")):
        if optional:
            return None
        if length == -1:
            return ()
        raise ConfigError(f"option {name}: a value is required")
    if isinstance(raw, str):
        parts: list[object] = [p for p in re.split(r"[\s,()\[\]/]+", raw) if p]
    elif isinstance(raw, (list, tuple)):
        parts = list(raw)
    else:
        parts = [raw]
    out: list[object] = []
    for part in parts:
        if item_type is int:
            if isinstance(part, bool) or not isinstance(part, (int, str)):
                raise ConfigError(f"option {name}: {part!r} is not a whole number")
            try:
                out.append(int(part))
            except ValueError:
                raise ConfigError(f"option {name}: {part!r} is not a whole number") from None
        else:
            key = part.name if isinstance(part, Enum) else str(part).strip().upper()
            try:
                out.append(V21Form[key])
            except KeyError:
                names = ", ".join(f.name for f in V21Form)
                raise ConfigError(f"option {name}: {part!r} is not one of {names}") from None
    if length != -1 and len(out) != length:
        raise ConfigError(f"option {name}: give {length} numbers, e.g. {_EXAMPLES[name]}")
    return tuple(out)


_EXAMPLES: Final = {
    "pool.drop_values_201": "25,50",
    "v21.value_points": "10,30,50",
    "v21.marriage_points": "100,300,500",
}


def _indian13() -> IndianRules:
    return IndianRules()


def _indian10() -> IndianRules:
    return dataclasses.replace(
        IndianRules(),
        name="indian10",
        title="Indian Rummy (10 cards)",
        deal=IndianDealOptions(hand_size=10),
    )


def _indian21() -> IndianRules:
    return dataclasses.replace(
        IndianRules(),
        name="indian21",
        title="Indian Rummy (21 cards)",
        deck=DeckOptions(DeckKind.CARDS, 3, 3),
        deal=IndianDealOptions(hand_size=21),
        meld=IndianMeldOptions(all_wild_group=AllWildGroup.JOKER_GROUP),
        declare=DeclareOptions(requirement=DeclareRequirement.V21_ANY_OF, invalid_penalty=120),
        drop=DropOptions(first=30, middle=70),
        scoring=IndianScoringOptions(cap=120, loser_meld_credit=LoserMeldCredit.THREE_PURE),
    )


PRESETS: Final = {"indian13": _indian13, "indian10": _indian10, "indian21": _indian21}
