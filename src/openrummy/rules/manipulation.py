"""Rules of the manipulation family: Robbers' Rummy and Rummikub (RULES.md §2–§4, §10.1).

One frozen :class:`ManipulationRules` holds every option, grouped in sections named as in
RULES.md. It is validated when built: an inconsistent combination raises
:class:`~openrummy.errors.ConfigError` naming the option.

    >>> from openrummy.rules import find_preset
    >>> r = find_preset("robbers", **{"opening.threshold": 30})
    >>> r.opening.threshold, r.meld.ace_mode.name
    (30, 'LOW_ONLY')
    >>> find_preset("robbers", **{"deck.printed_jokers": 9})
    Traceback (most recent call last):
      ...
    openrummy.errors.ConfigError: deck.printed_jokers = 9: Robbers' Rummy is played with 0 to 6 jokers
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from openrummy._memo import by_identity
from openrummy.cards import Card, Suit
from openrummy.errors import ConfigError
from openrummy.melds import AceMode, Meld, MeldKind, MeldRules, run_positions
from openrummy.rules.common import (
    DeckKind,
    DeckOptions,
    FirstDealer,
    FirstPlayer,
    MatchFormat,
    PlayersOptions,
    ScoringMode,
)
from openrummy.rules.options import OptionSet

__all__ = [
    "Disposition",
    "FailMode",
    "JokerValue",
    "ManipulationRules",
    "MeldOwnership",
    "Mobility",
    "OpeningType",
    "ReplacementSource",
    "StalemateScoring",
    "StalemateWinner",
    "TurnModel",
    "ValueScheme",
]


class TurnModel(Enum):
    PLAY_XOR_DRAW = "PLAY_XOR_DRAW"
    """Play, or draw one card; either ends the turn (S000)."""
    PLAY_DRAW_PLAY = "PLAY_DRAW_PLAY"
    """Play, optionally draw one card, play again (S003)."""


class OpeningType(Enum):
    POINTS = "POINTS"
    RUN_FROM_HAND = "RUN_FROM_HAND"
    NONE = "NONE"


class ValueScheme(Enum):
    PENALTY_VALUES = "PENALTY_VALUES"
    """J/Q/K = 10, 2–10 face (cards); tiles always count their number."""
    RANK_NUMBER = "RANK_NUMBER"
    """J = 11, Q = 12, K = 13, 2–10 face."""


class JokerValue(Enum):
    REPRESENTED = "REPRESENTED"
    PENALTY = "PENALTY"
    ZERO = "ZERO"


class Disposition(Enum):
    """Where a retrieved joker must end (RULES.md §2.4)."""

    KEEP = "KEEP"
    REUSE_SAME_TURN = "REUSE_SAME_TURN"
    REUSE_SAME_TURN_NEW_MELD = "REUSE_SAME_TURN_NEW_MELD"
    REUSE_SAME_TURN_NEW_MELD_2 = "REUSE_SAME_TURN_NEW_MELD_2"
    REUSE_SAME_TURN_NEW_MELD_30 = "REUSE_SAME_TURN_NEW_MELD_30"
    NEVER_TO_HAND = "NEVER_TO_HAND"


class ReplacementSource(Enum):
    HAND = "HAND"
    HAND_OR_TABLE = "HAND_OR_TABLE"


class Mobility(Enum):
    FREE = "FREE"
    ONLY_VIA_REPLACEMENT = "ONLY_VIA_REPLACEMENT"


class FailMode(Enum):
    PENALIZE = "PENALIZE"
    """Revert the play and draw ``fail.penalty_draw`` cards; the turn ends (the rules)."""
    REJECT = "REJECT"
    """Refuse the play, change nothing; the player may try again (bots, learning)."""


class StalemateWinner(Enum):
    FEWEST_CARDS = "FEWEST_CARDS"
    LOWEST_VALUE = "LOWEST_VALUE"


class StalemateScoring(Enum):
    WINNER_ZERO = "WINNER_ZERO"
    ALL_COUNT = "ALL_COUNT"
    ZERO_SUM_DIFFS = "ZERO_SUM_DIFFS"
    RUMMIKUB_ORG = "RUMMIKUB_ORG"


class MeldOwnership(Enum):
    COMMUNAL = "COMMUNAL"
    """Every meld is common property (the base game)."""
    OWNED = "OWNED"
    """Hindu Rummy mit Stehlen (§3.8, A28): melds belong to whoever laid them."""


POSITIONAL: Literal["POSITIONAL_1_OR_11"] = "POSITIONAL_1_OR_11"


@dataclass(frozen=True, slots=True)
class DealOptions:
    hand_size: int | None = None
    """Cards dealt to each player. When unset (none): 13 for 2 or 3 players and 11 for 4 or 5
    players with cards, 14 with tiles.
    """
    first_dealer: FirstDealer = FirstDealer.HIGH_CUT
    """Who deals the first round: HIGH_CUT (everyone cuts, the highest card deals), LOW_CUT (the
    lowest deals) or RANDOM. The deal then passes one seat clockwise each round.
    """
    first_player: FirstPlayer = FirstPlayer.LEFT_OF_DEALER
    """Who plays first: LEFT_OF_DEALER, or HIGHEST_TILE (each player draws a tile and the highest
    number starts, the Rummikub rule; tiles only).
    """


@dataclass(frozen=True, slots=True)
class MeldOptions:
    ace_mode: AceMode = AceMode.LOW_ONLY
    """Where an ace may sit in a run. LOW_ONLY: only below the 2 (A-2-3). HIGH_OR_LOW: below the 2
    or above the king (Q-K-A), but a run may not turn the corner (K-A-2). WRAPAROUND: ranks go
    round, so K-A-2 is a run.
    """
    ace_both_ends: bool = False
    """With meld.ace_mode = HIGH_OR_LOW: may a single run use an ace at both ends (A-2-…-K-A, 14
    cards)?
    """
    set_max: int = 4
    """The most cards in a set (cards of one rank, 3 to 8). With 4, every card of a set has a
    different suit; with more, jokers beyond the fourth may repeat a suit.
    """
    min_len: int = 3
    """The fewest cards in a run (3 to 13)."""
    min_naturals: int = 1
    """How many real cards (not jokers) a meld must hold at least (0 to 3)."""
    ownership: MeldOwnership = MeldOwnership.COMMUNAL
    """COMMUNAL: every meld on the table belongs to everyone, and anyone who has opened may
    rearrange it (the usual rule). OWNED: melds belong to whoever laid them (the variant
    sometimes called Hindu Rummy with stealing).
    """


@dataclass(frozen=True, slots=True)
class TurnOptions:
    model: TurnModel = TurnModel.PLAY_XOR_DRAW
    """The shape of a turn. PLAY_XOR_DRAW: play cards to the table or draw one card; either ends
    the turn. PLAY_DRAW_PLAY: play, then draw one card if you like, then play again.
    """
    time_limit_s: float | None = None
    """Seconds a player has for a turn's play, or none for no limit. A play not finished in time
    fails like an illegal play.
    """


@dataclass(frozen=True, slots=True)
class PlayOptions:
    require_hand_card: bool = True
    """Must every play put at least one card from the player's hand on the table? If so,
    rearranging the table alone is not a play.
    """


@dataclass(frozen=True, slots=True)
class OpeningOptions:
    type: OpeningType = OpeningType.POINTS
    """What a player's first play (the opening) must contain. POINTS: new melds made only of hand
    cards, worth together at least opening.threshold. RUN_FROM_HAND: a run of at least
    opening.run_length hand cards. NONE: no requirement.
    """
    threshold: int = 40
    """Points the opening melds must be worth together (with opening.type = POINTS). 0 means any
    meld opens.
    """
    run_length: int = 3
    """The shortest opening run (with opening.type = RUN_FROM_HAND, 3 to 13)."""
    ace_value: int | Literal["POSITIONAL_1_OR_11"] = 15
    """What an ace counts toward the opening: 1, 11, 14 or 15, or POSITIONAL_1_OR_11 (1 below the
    2, 11 above the king or in a set).
    """
    value_scheme: ValueScheme = ValueScheme.PENALTY_VALUES
    """What court cards count toward the opening. PENALTY_VALUES: J, Q and K count 10. RANK_NUMBER:
    J 11, Q 12, K 13. Number cards count their number, and tiles always count their number.
    """
    joker_value: JokerValue = JokerValue.REPRESENTED
    """What a joker in an opening meld counts. REPRESENTED: the value of the card it stands for.
    PENALTY: its penalty value (scoring.joker_penalty). ZERO: nothing.
    """
    allow_table_play_same_turn: bool = True
    """May the opening turn go on to add to and rearrange the melds already on the table? Those
    extra cards never count toward the opening.
    """


@dataclass(frozen=True, slots=True)
class JokerOptions:
    retrieval: bool = True
    """May a player take a joker off the table by putting the card it stands for in its place?"""
    retrieved_disposition: Disposition = Disposition.KEEP
    """Where a retrieved joker must end up. KEEP: in the hand, to play now or later.
    REUSE_SAME_TURN: back on the table in the same turn, in any meld. REUSE_SAME_TURN_NEW_MELD:
    in a meld that is new this turn. REUSE_SAME_TURN_NEW_MELD_2: in a new meld with at least two
    cards from the hand. REUSE_SAME_TURN_NEW_MELD_30: in a new meld worth at least 30.
    NEVER_TO_HAND: jokers are never retrieved (use with joker.retrieval = false).
    """
    replacement_source: ReplacementSource = ReplacementSource.HAND
    """Where the card that replaces a retrieved joker may come from: HAND, or HAND_OR_TABLE (a card
    taken from another meld also counts).
    """
    set_suit_flexible: bool = True
    """In a set, may a joker be replaced by any suit the set is missing (not only the suit it was
    declared as)?
    """
    mobility: Mobility = Mobility.FREE
    """FREE: a joker may move from meld to meld while the table is rearranged.
    ONLY_VIA_REPLACEMENT: a joker stays in its meld until it is replaced by the card it stands
    for, and a meld holding a joker may only be added to.
    """
    set3_requires_both: bool = False
    """A joker in a set of three may only be retrieved by adding both missing suits, so that the
    set becomes a set of four (a house rule).
    """
    retrieval_requires_opened: bool = True
    """Must a player have opened in an earlier turn before retrieving a joker?"""


@dataclass(frozen=True, slots=True)
class FailOptions:
    mode: FailMode = FailMode.PENALIZE
    """What happens to a play that breaks the rules. PENALIZE: the table and hand go back to how
    the turn began, the player draws fail.penalty_draw cards and the turn ends. REJECT: the play
    is refused and nothing changes, so the player may try again (for bots and training, not a
    table rule).
    """
    penalty_draw: int = 1
    """Cards drawn as the penalty for a failed play (in all, not in addition to the turn's draw).
    """


@dataclass(frozen=True, slots=True)
class DiscardPileOptions:
    enabled: bool = False
    """Play with a face-up discard pile: a player who does not play draws from the stock or takes
    the top discard, then discards a card.
    """


@dataclass(frozen=True, slots=True)
class StalemateOptions:
    winner_rule: StalemateWinner = StalemateWinner.FEWEST_CARDS
    """Who wins a round that ends because the stock is empty and nobody plays for a whole round:
    FEWEST_CARDS in hand, or LOWEST_VALUE of the cards in hand. Remaining ties share the win.
    """
    scoring: StalemateScoring = StalemateScoring.WINNER_ZERO
    """How a stalemate is scored. WINNER_ZERO: the winner scores 0, the others their penalty.
    ALL_COUNT: everyone scores their penalty. ZERO_SUM_DIFFS: each loser pays the winner the
    difference between their rack and the winner's. RUMMIKUB_ORG: each loser loses their whole
    rack value, the winner gains the sum of the differences.
    """


@dataclass(frozen=True, slots=True)
class ScoringOptions:
    mode: ScoringMode = ScoringMode.PENALTY_LOW
    """How a round is scored. PENALTY_LOW: players left with cards score their penalty points,
    lower is better. ZERO_SUM_HIGH: losers lose their rack value and the winner gains it, higher
    is better. NONE: no scores, the first player out wins.
    """
    ace_penalty: int = 15
    """Penalty points for an ace left in hand (tiles always count their number)."""
    joker_penalty: int = 30
    """Penalty points for a joker left in hand."""
    joker_retrieval_bonus: int = 0
    """Points taken off a player's round score for each joker they retrieved (0 for none). A round
    score may then be negative.
    """


@dataclass(frozen=True, slots=True)
class MatchOptions:
    format: MatchFormat = MatchFormat.ROUNDS_LOWEST_TOTAL
    """How rounds make a match. ROUNDS_LOWEST_TOTAL: match.rounds rounds, the lowest total wins.
    ROUNDS_HIGHEST_TOTAL: the same, the highest total wins. FIRST_TO_N_OUTS: the first player to
    go out match.outs_to_win times wins. SINGLE_ROUND: one round, the first out wins. Ties on
    totals go to the most rounds won, then to an extra round among the tied players.
    """
    rounds: int = 5
    """Rounds in a match of ROUNDS_LOWEST_TOTAL or ROUNDS_HIGHEST_TOTAL."""
    outs_to_win: int = 3
    """Times a player must go out to win a FIRST_TO_N_OUTS match."""
    target_score: int | None = None
    """With a total-score format: the match ends as soon as a player's total reaches this score
    (none: play match.rounds rounds).
    """


@dataclass(frozen=True, slots=True)
class VariantOptions:
    lay_off_on_opponents_after_opening: bool = False
    """With meld.ownership = OWNED: may a player who has opened add cards to the melds other
    players laid?
    """


@dataclass(frozen=True, slots=True)
class ManipulationRules(OptionSet):
    """Every option of a Robbers' Rummy or Rummikub game. Build with ``find_preset``."""

    name: str = "robbers"
    title: str = "Robbers' Rummy"
    players: PlayersOptions = field(default_factory=PlayersOptions)
    deck: DeckOptions = field(default_factory=DeckOptions)
    deal: DealOptions = field(default_factory=DealOptions)
    meld: MeldOptions = field(default_factory=MeldOptions)
    turn: TurnOptions = field(default_factory=TurnOptions)
    play: PlayOptions = field(default_factory=PlayOptions)
    opening: OpeningOptions = field(default_factory=OpeningOptions)
    joker: JokerOptions = field(default_factory=JokerOptions)
    fail: FailOptions = field(default_factory=FailOptions)
    discard_pile: DiscardPileOptions = field(default_factory=DiscardPileOptions)
    stalemate: StalemateOptions = field(default_factory=StalemateOptions)
    scoring: ScoringOptions = field(default_factory=ScoringOptions)
    match: MatchOptions = field(default_factory=MatchOptions)
    variant: VariantOptions = field(default_factory=VariantOptions)

    family: Literal["manipulation"] = "manipulation"

    def __post_init__(self) -> None:
        for problem in self._problems():
            raise ConfigError(problem)

    # -- validation ---------------------------------------------------------------------
    def _problems(self) -> Iterable[str]:
        tiles = self.deck.kind is DeckKind.TILES
        p, d = self.players, self.deck
        if p.min < 2:
            yield f"players.min = {p.min}: a game needs at least 2 players"
        if p.max < p.min:
            yield f"players.max = {p.max} is below players.min = {p.min}"
        if d.standard_decks < 1 or d.standard_decks > 4:
            yield f"deck.standard_decks = {d.standard_decks}: use 1 to 4"
        if not tiles and not 0 <= d.printed_jokers <= 6:
            yield f"deck.printed_jokers = {d.printed_jokers}: {self.title} is played with 0 to 6 jokers"
        if tiles and not 0 <= d.printed_jokers <= 6:
            yield f"deck.printed_jokers = {d.printed_jokers}: use 0 to 6 joker tiles"
        hs = self.deal.hand_size
        if hs is not None and hs < 1:
            yield f"deal.hand_size = {hs}: every player needs at least one card"
        if hs is not None and hs * p.min >= d.size:
            yield f"deal.hand_size = {hs}: {p.min} hands of {hs} do not fit a deck of {d.size}"
        if self.deal.first_player is FirstPlayer.HIGHEST_TILE and not tiles:
            yield "deal.first_player = HIGHEST_TILE is the Rummikub rule; card games start left of the dealer"
        m = self.meld
        if m.set_max < 3 or m.set_max > 8:
            yield f"meld.set_max = {m.set_max}: a set has 3 to at most 8 cards"
        if m.min_len < 3 or m.min_len > 13:
            yield f"meld.min_len = {m.min_len}: a run needs 3 to 13 cards"
        if not 0 <= m.min_naturals <= 3:
            yield f"meld.min_naturals = {m.min_naturals}: use 0 to 3"
        if m.ace_both_ends and m.ace_mode is not AceMode.HIGH_OR_LOW:
            yield "meld.ace_both_ends needs meld.ace_mode = HIGH_OR_LOW"
        t = self.turn
        if t.time_limit_s is not None and t.time_limit_s <= 0:
            yield f"turn.time_limit_s = {t.time_limit_s}: a limit must be positive (or none)"
        o = self.opening
        if o.type is OpeningType.POINTS and o.threshold < 0:
            yield f"opening.threshold = {o.threshold}: must be 0 or more"
        if o.type is OpeningType.RUN_FROM_HAND and not 3 <= o.run_length <= 13:
            yield f"opening.run_length = {o.run_length}: use 3 to 13"
        if o.ace_value not in (1, 11, 14, 15, POSITIONAL):
            yield f"opening.ace_value = {o.ace_value!r}: use 1, 11, 15 or POSITIONAL_1_OR_11"
        j = self.joker
        if j.retrieval and j.retrieved_disposition is Disposition.NEVER_TO_HAND:
            yield (
                "joker.retrieved_disposition = NEVER_TO_HAND means no retrieval: "
                "set joker.retrieval = false as well"
            )
        if not j.retrieval and j.retrieved_disposition is not Disposition.NEVER_TO_HAND:
            yield (
                f"joker.retrieval = false contradicts joker.retrieved_disposition = "
                f"{j.retrieved_disposition.name}: use NEVER_TO_HAND"
            )
        if self.fail.penalty_draw < 0:
            yield f"fail.penalty_draw = {self.fail.penalty_draw}: must be 0 or more"
        if self.discard_pile.enabled and t.model is not TurnModel.PLAY_XOR_DRAW:
            yield "discard_pile.enabled needs turn.model = PLAY_XOR_DRAW (draw, then discard)"
        s, mt, st = self.scoring, self.match, self.stalemate
        if s.mode is ScoringMode.NONE and mt.format not in (
            MatchFormat.SINGLE_ROUND,
            MatchFormat.FIRST_TO_N_OUTS,
        ):
            yield (
                f"match.format = {mt.format.name} needs scores, but scoring.mode = NONE: "
                "use SINGLE_ROUND or FIRST_TO_N_OUTS"
            )
        if s.mode is ScoringMode.ZERO_SUM_HIGH and mt.format is MatchFormat.ROUNDS_LOWEST_TOTAL:
            yield "match.format = ROUNDS_LOWEST_TOTAL contradicts scoring.mode = ZERO_SUM_HIGH (highest wins)"
        if s.mode is ScoringMode.PENALTY_LOW and mt.format is MatchFormat.ROUNDS_HIGHEST_TOTAL:
            yield "match.format = ROUNDS_HIGHEST_TOTAL contradicts scoring.mode = PENALTY_LOW (lowest wins)"
        if mt.format in (
            MatchFormat.POINTS,
            MatchFormat.POOL,
            MatchFormat.DEALS,
            MatchFormat.FIXED_HANDS,
        ):
            yield f"match.format = {mt.format.name} is an Indian Rummy format"
        if s.mode is ScoringMode.PENALTY_LOW and st.scoring in (
            StalemateScoring.ZERO_SUM_DIFFS,
            StalemateScoring.RUMMIKUB_ORG,
        ):
            yield f"stalemate.scoring = {st.scoring.name} needs scoring.mode = ZERO_SUM_HIGH"
        if s.mode is ScoringMode.ZERO_SUM_HIGH and st.scoring in (
            StalemateScoring.WINNER_ZERO,
            StalemateScoring.ALL_COUNT,
        ):
            yield f"stalemate.scoring = {st.scoring.name} needs scoring.mode = PENALTY_LOW"
        if mt.rounds < 1:
            yield f"match.rounds = {mt.rounds}: play at least one round"
        if mt.outs_to_win < 1:
            yield f"match.outs_to_win = {mt.outs_to_win}: must be at least 1"
        if mt.target_score is not None and mt.target_score <= 0:
            yield f"match.target_score = {mt.target_score}: must be positive (or none)"
        if s.joker_retrieval_bonus < 0:
            yield f"scoring.joker_retrieval_bonus = {s.joker_retrieval_bonus}: must be 0 or more"
        if (
            self.variant.lay_off_on_opponents_after_opening
            and m.ownership is not MeldOwnership.OWNED
        ):
            yield "variant.lay_off_on_opponents_after_opening needs meld.ownership = OWNED"

    # -- derived ------------------------------------------------------------------------
    @property
    def tiles(self) -> bool:
        return self.deck.kind is DeckKind.TILES

    @property
    def meld_rules(self) -> MeldRules:
        return _meld_rules(self.meld)

    def hand_size(self, players: int) -> int:
        """Cards dealt to each of ``players`` (RULES.md §3.1, T32)."""
        if self.deal.hand_size is not None:
            return self.deal.hand_size
        if self.tiles:
            return 14
        return 13 if players <= 3 else 11

    def check_players(self, players: int) -> None:
        if not self.players.min <= players <= self.players.max:
            raise ConfigError(
                f"{self.title} ({self.name}) is for {self.players.min} to {self.players.max} "
                f"players, not {players} (players.min/players.max)"
            )
        need = self.hand_size(players) * players
        if need > self.deck.size:
            raise ConfigError(
                f"deal.hand_size: {players} hands of {self.hand_size(players)} need {need} "
                f"cards, the deck has {self.deck.size}"
            )

    def penalty_value(self, card: Card) -> int:
        """What a card left in hand costs (RULES.md §1.5)."""
        if card.is_joker:
            return self.scoring.joker_penalty
        if card.tile:
            return card.rank
        if card.rank == 1:
            return self.scoring.ace_penalty
        return min(card.rank, 10)

    def opening_value_of_card(self, identity: Card, *, ace_high: bool = False) -> int:
        """Opening value of the card an item represents (aces per ``opening.ace_value``)."""
        if identity.rank == 1:
            av = self.opening.ace_value
            if av == POSITIONAL:
                return 11 if ace_high else 1
            return int(av)
        if identity.tile or self.opening.value_scheme is ValueScheme.RANK_NUMBER:
            return identity.rank
        return min(identity.rank, 10)

    def opening_bound(self, card: Card) -> int:
        """The most one item of ``card`` can add to a meld's :meth:`opening_value` (a
        joker: the most any card it may represent is worth)."""
        if not card.is_joker:
            return max(
                self.opening_value_of_card(card, ace_high=True),
                self.opening_value_of_card(card, ace_high=False),
            )
        if self.opening.joker_value is JokerValue.PENALTY:
            return self.scoring.joker_penalty
        if self.opening.joker_value is JokerValue.ZERO:
            return 0
        return max(self.opening_bound(Card(rank, Suit.S, self.tiles)) for rank in range(1, 14))

    def opening_value(self, meld: Meld) -> int:
        """Opening value of a valid meld (jokers per ``opening.joker_value``, §1.5, A02–A04)."""
        rules = self.meld_rules
        kind = meld.kind(rules)
        idents = [it.identity for it in meld.items]
        ace_high = [False] * len(idents)
        if kind is MeldKind.RUN:
            order = run_positions(idents, rules)
            if order is not None:
                # An ace after a king in run order is high.
                for pos, i in enumerate(order):
                    if idents[i].rank == 1 and pos > 0 and idents[order[pos - 1]].rank == 13:
                        ace_high[i] = True
        elif kind is MeldKind.SET:
            ace_high = [True] * len(idents)
        total = 0
        for k, it in enumerate(meld.items):
            if it.card.is_joker and self.opening.joker_value is not JokerValue.REPRESENTED:
                total += (
                    self.scoring.joker_penalty
                    if self.opening.joker_value is JokerValue.PENALTY
                    else 0
                )
            else:
                total += self.opening_value_of_card(idents[k], ace_high=ace_high[k])
        return total

    def best_opening(
        self, candidates: Sequence[Meld], placed: Counter[Card], *, complete: bool = False
    ) -> tuple[int, tuple[int, ...]]:
        """The opening in ``candidates``: the largest value of disjoint melds made of the
        ``placed`` hand cards, and which melds. The search stops once the threshold is met,
        unless ``complete`` asks for the full value (what an opening is reported as worth).
        """
        threshold = (
            self.opening.threshold
            if not complete
            else sum(self.opening_value(m) for m in candidates)
        )
        values = [self.opening_value(m) for m in candidates]
        order = sorted(range(len(candidates)), key=lambda i: -values[i])
        best: tuple[int, tuple[int, ...]] = (0, ())

        def search(k: int, left: Counter[Card], total: int, chosen: tuple[int, ...]) -> bool:
            nonlocal best
            if total > best[0]:
                best = (total, chosen)
            if best[0] >= threshold:
                return True
            for pos in range(k, len(order)):
                i = order[pos]
                need = Counter(candidates[i].cards)
                if all(left[c] >= n for c, n in need.items()) and search(
                    pos + 1, left - need, total + values[i], (*chosen, i)
                ):
                    return True
            return False

        search(0, placed, 0, ())
        return best

    def summary(self) -> str:
        return f"{self.title} ({self.name})"


@by_identity
def _meld_rules(m: MeldOptions) -> MeldRules:
    return MeldRules(
        ace_mode=m.ace_mode,
        set_max=m.set_max,
        min_len=m.min_len,
        min_naturals=m.min_naturals,
        ace_both_ends=m.ace_both_ends,
    )


def _robbers() -> ManipulationRules:
    return ManipulationRules()


def _robbers_s003() -> ManipulationRules:
    base = ManipulationRules()
    return dataclasses.replace(
        base,
        name="robbers_s003",
        title="Robbers' Rummy (encyclopedia rules)",
        players=PlayersOptions(2, 6),
        deal=DealOptions(hand_size=13),
        meld=MeldOptions(ace_mode=AceMode.WRAPAROUND),
        turn=TurnOptions(model=TurnModel.PLAY_DRAW_PLAY),
        opening=OpeningOptions(type=OpeningType.NONE, threshold=0),
        joker=JokerOptions(retrieval=False, retrieved_disposition=Disposition.NEVER_TO_HAND),
        scoring=ScoringOptions(mode=ScoringMode.NONE),
        match=MatchOptions(format=MatchFormat.SINGLE_ROUND, rounds=1),
    )


def _vatikan_s000() -> ManipulationRules:
    return dataclasses.replace(ManipulationRules(), name="vatikan_s000", title="Vatikan")


def _vatikan_pagat() -> ManipulationRules:
    return dataclasses.replace(
        ManipulationRules(),
        name="vatikan_pagat",
        title="Vatikan (pagat rules)",
        deck=DeckOptions(printed_jokers=2),
        deal=DealOptions(hand_size=13, first_dealer=FirstDealer.RANDOM),
        meld=MeldOptions(ace_mode=AceMode.HIGH_OR_LOW),
        opening=OpeningOptions(type=OpeningType.RUN_FROM_HAND, threshold=0, run_length=3),
        joker=JokerOptions(
            retrieved_disposition=Disposition.REUSE_SAME_TURN,
            replacement_source=ReplacementSource.HAND_OR_TABLE,
            mobility=Mobility.ONLY_VIA_REPLACEMENT,
        ),
        scoring=ScoringOptions(mode=ScoringMode.NONE),
        match=MatchOptions(format=MatchFormat.SINGLE_ROUND, rounds=1),
    )


def _rummikub() -> ManipulationRules:
    return dataclasses.replace(
        ManipulationRules(),
        name="rummikub",
        title="Rummikub",
        players=PlayersOptions(2, 4),
        deck=DeckOptions(kind=DeckKind.TILES, standard_decks=2, printed_jokers=2),
        deal=DealOptions(hand_size=14, first_player=FirstPlayer.HIGHEST_TILE),
        opening=OpeningOptions(
            threshold=30,
            ace_value=1,
            value_scheme=ValueScheme.RANK_NUMBER,
            allow_table_play_same_turn=False,
        ),
        joker=JokerOptions(
            retrieved_disposition=Disposition.REUSE_SAME_TURN_NEW_MELD,
            replacement_source=ReplacementSource.HAND_OR_TABLE,
        ),
        fail=FailOptions(penalty_draw=3),
        stalemate=StalemateOptions(
            winner_rule=StalemateWinner.LOWEST_VALUE, scoring=StalemateScoring.ZERO_SUM_DIFFS
        ),
        scoring=ScoringOptions(mode=ScoringMode.ZERO_SUM_HIGH, ace_penalty=1),
        match=MatchOptions(format=MatchFormat.ROUNDS_HIGHEST_TOTAL, rounds=5),
    )


PRESETS = {
    "robbers": _robbers,
    "robbers_s003": _robbers_s003,
    "vatikan_s000": _vatikan_s000,
    "vatikan_pagat": _vatikan_pagat,
    "rummikub": _rummikub,
}
