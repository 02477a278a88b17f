"""Indian Rummy: one hand (13, 10 or 21 cards) and its match formats (RULES.md §5–§7).

A draw-and-discard game: nothing is melded on the table during play. The hand's wild rank
comes from the indicator card turned after the deal; a player draws (stock or discard pile),
then discards or declares with a finish card. Drops, invalid declarations, the last player
standing, stock exhaustion, paplu and the 21-card value cards are all engine steps.

    >>> from openrummy.rules import find_preset
    >>> hand = IndianGame(find_preset("indian13"), players=3, seed=4)
    >>> len(hand.hands[0]), hand.indicator is not None, len(hand.discard_pile)
    (13, True, 1)
    >>> result = hand.apply(Draw(hand.current))
    >>> hand.phase.value, len(hand.hands[result.action.seat])
    ('DISCARD', 14)

Losing hands are scored with the exact hand solver (:mod:`openrummy.solve.hand`).
"""

from __future__ import annotations

import copy
import dataclasses
import random
import secrets
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Final

from openrummy.cards import Card, shuffle, standard_deck
from openrummy.errors import ConfigError, IllegalActionError
from openrummy.events import Event, EventCode, Violation
from openrummy.games.actions import (
    Action,
    ActionKind,
    Declare,
    Discard,
    Draw,
    Drop,
    Show,
    TakeDiscard,
    Timeout,
    kind_of,
    parse_action,
)
from openrummy.games.jsonvalue import JsonObject
from openrummy.games.legal import LegalActions
from openrummy.games.standings import Standings

if TYPE_CHECKING:
    from openrummy.games.views import IndianStandings, IndianView
from openrummy.melds import Meld, MeldItem
from openrummy.messages import Reason
from openrummy.rules.common import MatchFormat
from openrummy.rules.indian import (
    DealsScoring,
    IndianRules,
    LoserArrangement,
    PoolElimination,
    StockOnEmpty,
    Wilds,
)
from openrummy.solve.hand import (
    Arrangement,
    InvalidHandError,
    check_declaration,
    find_declaration,
    min_deadwood,
    score_loser,
)

from .manipulation import cut_for_dealer
from .rounds import RoundsMatch, RoundSummary

__all__ = [
    "HandEnd",
    "HandOutcome",
    "IndianGame",
    "IndianMatch",
    "IndianMatchOutcome",
    "IndianPhase",
    "IndianResult",
    "SeatStatus",
]


class IndianPhase(Enum):
    START = "START"
    """Turn start: drop, draw from the stock or take the discard."""
    DISCARD = "DISCARD"
    """After drawing: discard, or declare with a finish card."""
    SHOW = "SHOW"
    """After a valid declaration, losers show their groups (``loser_arrangement = SUBMITTED``)."""
    OVER = "OVER"


class SeatStatus(Enum):
    ACTIVE = "ACTIVE"
    DROPPED = "DROPPED"
    ELIMINATED = "ELIMINATED"
    """Made an invalid declaration: out of this hand with the penalty."""
    DECLARED = "DECLARED"


class HandEnd(Enum):
    DECLARED = "DECLARED"
    """A valid declaration."""
    LAST_STANDING = "LAST_STANDING"
    """Everyone else dropped or declared wrongly (A52)."""
    VOID = "VOID"
    """The stock ran out and could not be rebuilt (A46), or an invalid declaration ended it (A39)."""


@dataclass(frozen=True, slots=True)
class HandOutcome:
    termination: HandEnd
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    """Each seat's hand score (penalty points; lower is better)."""
    hands: tuple[tuple[Card, ...], ...]
    groups: tuple[tuple[Meld, ...], ...]
    """The declarer's shown groups and each loser's (optimal or shown) melds."""
    deadwood: tuple[int | None, ...]
    """A loser's raw deadwood before the cap (None for others)."""
    statuses: tuple[str, ...]
    value_net: tuple[int, ...] | None = None
    """21-card value-card exchange (net points received; part of ``scores``)."""

    def to_json(self) -> JsonObject:
        return {
            "termination": self.termination.value,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "hands": [[str(c) for c in h] for h in self.hands],
            "groups": [[[str(it) for it in m.items] for m in gs] for gs in self.groups],
            "deadwood": list(self.deadwood),
            "statuses": list(self.statuses),
            "value_net": list(self.value_net) if self.value_net is not None else None,
        }


@dataclass(frozen=True, slots=True)
class IndianResult:
    action: Action
    accepted: bool = True
    """False for an invalid declaration (penalised, the hand goes on)."""
    violations: tuple[Violation, ...] = ()
    event: Event = field(default_factory=lambda: Event(EventCode.SHOWED))
    """What happened, as data (``str(result.event)`` in English words)."""
    after: tuple[Event, ...] = ()
    """What followed in a match: the hand's end, the match's end."""

    @property
    def events(self) -> tuple[Event, ...]:
        return (self.event, *self.after)


_KINDS = frozenset(
    {
        ActionKind.DROP,
        ActionKind.DRAW,
        ActionKind.TAKE,
        ActionKind.DISCARD,
        ActionKind.DECLARE,
        ActionKind.SHOW,
        ActionKind.TIMEOUT,
    }
)

_NO_KINDS: Final = frozenset[ActionKind]()
_SHOW_KINDS: Final = frozenset({ActionKind.SHOW})
_START_KINDS: Final = {
    (timer, take): frozenset(
        {ActionKind.DROP, ActionKind.DRAW}
        | ({ActionKind.TIMEOUT} if timer else set())
        | ({ActionKind.TAKE} if take else set())
    )
    for timer in (False, True)
    for take in (False, True)
}
_DISCARD_KINDS: Final = {
    timer: frozenset(
        {ActionKind.DISCARD, ActionKind.DECLARE} | ({ActionKind.TIMEOUT} if timer else set())
    )
    for timer in (False, True)
}
"""The legal kinds of each phase, built once (with and without a turn timer)."""


class IndianGame:
    """One hand of Indian Rummy, from the deal to a declaration (or the last player standing)."""

    def __init__(
        self,
        rules: IndianRules,
        players: int,
        *,
        seed: int | str | None = None,
        deck: Sequence[Card] | None = None,
        dealer: int | None = None,
        clock: Callable[[], float] | None = None,
        started_at: float | None = None,
    ) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.seed: int | str = secrets.randbits(63) if seed is None else seed
        self.clock = clock
        self._rng = random.Random(self.seed)
        if dealer is None:
            dealer = cut_for_dealer(self._rng, players, rules.deal.first_dealer)
        if not 0 <= dealer < players:
            raise ConfigError(f"dealer {dealer} is not a seat of a {players}-player game")
        self.dealer = dealer
        full = self.full_deck(rules)
        if deck is None:
            order = full[:]
            shuffle(self._rng, order)
        else:
            order = list(deck)
            if Counter(order) != Counter(full):
                raise ConfigError(
                    f"a stacked deck must hold exactly the game's {len(full)} cards ({len(order)} given)"
                )
        self.initial_deck = tuple(order)
        size = rules.deal.hand_size
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        for i in range(size * players):
            self.hands[(dealer + 1 + i) % players].append(order[i])
        rest = order[size * players :]
        self._stock: list[Card] = rest[::-1]  # the top is the end of the list
        self.indicator: Card = self._stock.pop()
        self.out_of_play: list[Card] = []
        if rules.wild.indicator_in_play:
            self._stock.insert(0, self.indicator)  # face up under the stock: drawn last
        else:
            self.out_of_play.append(self.indicator)
        self.wilds: Wilds = rules.wilds(self.indicator)
        self.discard_pile: list[Card] = [self._stock.pop()]
        self._upcard_on_top = True
        self.status = [SeatStatus.ACTIVE] * players
        self.draws = [0] * players
        self.penalties: list[int | None] = [None] * players
        self.finish_slot: list[Card] = []
        self.current = (dealer + 1) % players
        self.phase = IndianPhase.START
        self.history: list[Action] = []
        self.outcome: HandOutcome | None = None
        self.last_result: IndianResult | None = None
        self.declared_groups: tuple[Meld, ...] = ()
        self.shown: dict[int, tuple[Meld, ...]] = {}
        self.folded: dict[int, list[Card]] = {}
        self._declared_hand: list[Card] = []
        self._winner: int | None = None
        self._taken: Card | None = None
        self.turn_started_at = (
            started_at if started_at is not None else (clock() if clock else None)
        )
        self.started_at = self.turn_started_at
        self.reshuffles = 0
        self.time_bank: list[float] = [rules.turn.time_bank_s or 0.0] * players

    @staticmethod
    def full_deck(rules: IndianRules) -> list[Card]:
        return standard_deck(rules.deck.standard_decks, rules.deck.printed_jokers)

    @classmethod
    def from_position(
        cls,
        rules: IndianRules,
        *,
        hands: Sequence[Sequence[Card]],
        indicator: Card,
        stock: Sequence[Card] = (),
        discard_pile: Sequence[Card] = (),
        current: int = 0,
        draws: Sequence[int] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> IndianGame:
        """A hand in an explicit position (tests, puzzles). ``stock`` in draw order (first =
        top); ``discard_pile`` bottom to top. No card may appear more often than the decks
        hold it (the indicator counts, out of play beside the stock)."""
        players = len(hands)
        everything: Counter[Card] = Counter([indicator])
        for h in hands:
            everything.update(h)
        everything.update(stock)
        everything.update(discard_pile)
        full = Counter(cls.full_deck(rules))
        for card, n in everything.items():
            if n > full[card]:
                raise ConfigError(f"the position holds {n} × {card}; the decks have {full[card]}")
        game = cls.__new__(cls)
        game.rules = rules
        game.players = players
        game.seed = 0
        game.clock = clock
        game._rng = random.Random(0)
        game.dealer = (current - 1) % players
        game.initial_deck = ()
        game.hands = [list(h) for h in hands]
        game._stock = list(stock)[::-1]
        game.indicator = indicator
        game.out_of_play = [indicator]
        game.wilds = rules.wilds(indicator)
        game.discard_pile = list(discard_pile)
        game._upcard_on_top = len(game.discard_pile) == 1
        game.status = [SeatStatus.ACTIVE] * players
        game.draws = list(draws) if draws is not None else [0] * players
        game.penalties = [None] * players
        game.finish_slot = []
        game.current = current
        game.phase = IndianPhase.START
        game.history = []
        game.outcome = None
        game.last_result = None
        game.declared_groups = ()
        game.shown = {}
        game.folded = {}
        game._declared_hand = []
        game._winner = None
        game._taken = None
        game.turn_started_at = clock() if clock else None
        game.started_at = game.turn_started_at
        game.reshuffles = 0
        game.time_bank = [rules.turn.time_bank_s or 0.0] * players
        return game

    def copy(self) -> IndianGame:
        """An independent copy (for search): cards, melds and rules are immutable values and
        are shared; every list, and the random generator, is copied."""
        other = copy.copy(self)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other.hands = [list(h) for h in self.hands]
        other._stock = list(self._stock)
        other.out_of_play = list(self.out_of_play)
        other.discard_pile = list(self.discard_pile)
        other.status = list(self.status)
        other.draws = list(self.draws)
        other.penalties = list(self.penalties)
        other.time_bank = list(self.time_bank)
        other.finish_slot = list(self.finish_slot)
        other.history = list(self.history)
        other.shown = dict(self.shown)
        other.folded = {s: list(h) for s, h in self.folded.items()}
        other._declared_hand = list(self._declared_hand)
        return other

    # -- queries ------------------------------------------------------------------------------
    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def stock(self) -> tuple[Card, ...]:
        return tuple(reversed(self._stock))

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def active(self) -> list[int]:
        return [s for s in range(self.players) if self.status[s] is SeatStatus.ACTIVE]

    def all_cards(self) -> Counter[Card]:
        c: Counter[Card] = Counter(self._stock)
        c.update(self.discard_pile)
        c.update(self.out_of_play)
        c.update(self.finish_slot)
        for h in self.hands:
            c.update(h)
        return c

    def legal_kinds(self) -> frozenset[ActionKind]:
        """Every kind of action the player to move may take now (empty once the hand is over)."""
        if self.outcome is not None:
            return _NO_KINDS
        timer = self.rules.turn.time_limit_s is not None
        if self.phase is IndianPhase.START:
            take = bool(self.discard_pile) and self._may_take(self.discard_pile[-1])
            return _START_KINDS[timer, take]
        if self.phase is IndianPhase.DISCARD:
            return _DISCARD_KINDS[timer]
        if self.phase is IndianPhase.SHOW:
            return _SHOW_KINDS
        return _NO_KINDS

    def time_left(self, now: float | None = None) -> float | None:
        """Seconds until the turn is played for the seat to move: the rest of the turn's
        time plus its time bank (``None``: no timer, or no turn running)."""
        limit = self.rules.turn.time_limit_s
        if (
            limit is None
            or self.turn_started_at is None
            or ActionKind.TIMEOUT not in (self.legal_kinds())
        ):
            return None
        if now is None:
            if self.clock is None:
                return None
            now = self.clock()
        return max(0.0, limit + self.time_bank[self.current] - (now - self.turn_started_at))

    def legal_actions(self) -> LegalActions:
        """What the player to move may do now (see :class:`~openrummy.games.legal.LegalActions`).

        A declaration is in it when it is valid; iterating lists the drop, the draws, every
        card that may be discarded, one valid declaration per finish card that has one (the
        hand solver's groups), and after a declaration one grouping to show.
        """
        seat = self.current if self.outcome is None else -1
        return LegalActions(seat, self.legal_kinds(), self._listed, self._valid)

    def _listed(self) -> Iterator[Action]:
        kinds = self.legal_kinds()
        s = self.current
        if ActionKind.DROP in kinds:
            yield Drop(s)
        if ActionKind.DRAW in kinds:
            yield Draw(s)
        if ActionKind.TAKE in kinds:
            yield TakeDiscard(s)
        hand = self.hands[s]
        if ActionKind.DISCARD in kinds:
            for card in self.throwable():
                yield Discard(s, card)
        if ActionKind.DECLARE in kinds:
            yield from self.declarations()
        if ActionKind.SHOW in kinds:
            arr = min_deadwood(hand, self.rules, self.wilds)
            yield Show(s, (*arr.groups, *(Meld.of((c,)) for c in arr.deadwood)))

    def throwable(self) -> list[Card]:
        """The distinct cards the player to move may throw now, in card order (empty before
        the draw): every card of the hand but a taken card that may not go straight back."""
        return sorted(self.throwable_cards(), key=Card.sort_key)

    def throwable_cards(self) -> set[Card]:
        """:meth:`throwable` as a set."""
        if self.phase is not IndianPhase.DISCARD or self.outcome is not None:
            return set()
        hand = self.hands[self.current]
        cards = set(hand)
        taken = self._taken
        if (
            taken is not None
            and self.rules.discard.no_same_card_return
            and taken in cards
            and hand.count(taken) < 2
        ):
            cards.discard(taken)  # what _may_discard forbids
        return cards

    def may_take(self) -> bool:
        """May the player to move take the discard pile's top card now?"""
        return (
            self.phase is IndianPhase.START
            and self.outcome is None
            and bool(self.discard_pile)
            and self._may_take(self.discard_pile[-1])
        )

    @property
    def taken(self) -> Card | None:
        """The card the player to move took from the discard pile this turn (if any)."""
        return self._taken

    def declarations(self, maybe: Callable[[list[Card]], bool] | None = None) -> Iterator[Declare]:
        """One valid declaration per finish card that has one (the hand solver's groups), in
        card order, for the player to move after the draw (the listing's declarations).

        ``maybe(rest)``, if given, is a quick test of the cards left beside a finish card
        that is False only when they make no valid declaration: the solver skips those.
        """
        if self.phase is not IndianPhase.DISCARD or self.outcome is not None:
            return
        s = self.current
        hand = self.hands[s]
        for finish in sorted(set(hand), key=Card.sort_key):
            rest = list(hand)
            rest.remove(finish)
            if maybe is not None and not maybe(rest):
                continue
            groups = self._valid_groups(rest)
            if groups is not None:
                yield Declare(s, finish, groups)

    def _valid_groups(self, cards: Sequence[Card]) -> tuple[Meld, ...] | None:
        """Groups that make ``cards`` a valid declaration (the hand solver's), if any."""
        found = find_declaration(cards, self.rules, self.wilds)
        if not found.valid:
            return None
        groups = found.groups
        if found.loose:  # 21-card count forms: the loose cards are shown as one group
            groups = (*groups, Meld.of(found.loose))
        try:
            verdict = check_declaration(groups, self.rules, self.wilds, cards=cards)
        except InvalidHandError:
            return None
        return groups if verdict.valid else None

    def candidate_plays(self, limit: int = 20) -> Iterator[Action]:
        """Nothing: Indian Rummy has no table plays (the protocol's manipulation-game part)."""
        return iter(())

    def _valid(self, action: Action) -> bool:
        if self._illegal(action) is not None:
            return False
        if isinstance(action, Declare):
            rest = list(self.hands[action.seat])
            rest.remove(action.finish)
            return check_declaration(action.groups, self.rules, self.wilds, cards=rest).valid
        return True

    def is_legal(self, action: Action) -> bool:
        """True when :meth:`apply` would take ``action`` (it raises exactly when this is False).

        A declaration whose groups show exactly the hand but do not make a valid declaration
        is legal: it is applied as an invalid declaration (the penalty of RULES.md §5.4).
        """
        return self._illegal(action) is None

    def _may_discard(self, seat: int, card: Card) -> bool:
        hand = self.hands[seat]
        if card not in hand:
            return False
        return not (
            self.rules.discard.no_same_card_return and card == self._taken and hand.count(card) < 2
        )

    def _illegal(self, action: Action) -> str | Reason | None:
        """Why ``action`` may not be applied now (``None``: it may)."""
        if self.outcome is not None:
            return "the hand is over"
        kind = kind_of(action)
        if kind is None or kind not in _KINDS:
            return f"{action!r} is not an action of Indian Rummy"
        if not 0 <= action.seat < self.players:
            return f"there is no seat {action.seat} in a {self.players}-player game"
        if action.seat != self.current:
            return f"it is seat {self.current}'s turn, not seat {action.seat}'s"
        if kind not in self.legal_kinds():
            return self._why_not(kind)
        hand = self.hands[action.seat]
        if isinstance(action, Discard):
            if action.card not in hand:
                return Reason.of("not_in_hand", card=str(action.card))
            if not self._may_discard(action.seat, action.card):
                return Reason.of("illegal.throw_back", card=str(action.card))
        if isinstance(action, Declare):
            return self._declare_shape(action)
        if isinstance(action, Show):
            try:
                score_loser(hand, self.rules, self.wilds, groups=action.groups)
            except InvalidHandError as e:
                return str(e)
        if isinstance(action, Timeout):
            at = action.at if action.at is not None else (self.clock() if self.clock else None)
            left = self.time_left(at) if at is not None else None
            if left is not None and left > 0:
                return Reason.of("illegal.time_left", limit=round(left, 1))
        return None

    def _declare_shape(self, action: Declare) -> str | Reason | None:
        hand = self.hands[action.seat]
        if action.finish not in hand:
            return Reason.of("illegal.finish_not_in_hand", card=str(action.finish))
        rest = list(hand)
        rest.remove(action.finish)
        shown = Counter(c for g in action.groups for c in g.cards)
        if shown != Counter(rest):
            missing = sorted((Counter(rest) - shown).elements(), key=Card.sort_key)
            extra = sorted((shown - Counter(rest)).elements(), key=Card.sort_key)
            return Reason.of(
                "illegal.groups_not_hand",
                missing=tuple(map(str, missing)) or None,
                cards=tuple(map(str, extra)) or None,
            )
        try:
            check_declaration(action.groups, self.rules, self.wilds, cards=rest)
        except InvalidHandError as e:
            return str(e)
        return None

    def _may_take(self, card: Card) -> bool:
        if self.rules.discard.take_wild_from_discard:
            return True
        return self._upcard_on_top or not self.wilds.is_wild(card)

    def parse_action(self, text: str, seat: int | None = None) -> Action:
        """Read an action in text notation (``"discard 9C"``) for ``seat`` (default: the seat
        to move). ``str(action)`` gives the text back."""
        return parse_action(text, seat=self.current if seat is None else seat)

    # -- applying actions ---------------------------------------------------------------------
    def apply(self, action: Action) -> IndianResult:
        """Validate and apply ``action``; an illegal one raises and changes nothing."""
        reason = self._illegal(action)
        if reason is not None:
            raise IllegalActionError(reason)
        kind = kind_of(action)
        assert kind is not None
        if action.at is None and self.clock is not None:
            action = dataclasses.replace(action, at=self.clock())
        result: IndianResult = getattr(self, f"_do_{kind}")(action)
        self.history.append(action)
        self.last_result = result
        return result

    def _why_not(self, kind: ActionKind) -> Reason:
        if kind == "declare" and self.phase is IndianPhase.START:
            return Reason.of("illegal.declare_draw_first")
        if kind == "drop":
            return Reason.of("illegal.drop_late")
        if kind in ("draw", "take") and self.phase is IndianPhase.DISCARD:
            return Reason.of("illegal.drawn_discard_or_declare")
        if kind == "take":
            return Reason.of("illegal.take_wild")
        if kind == "discard":
            return Reason.of("illegal.draw_first")
        if kind == "show":
            return Reason.of("illegal.show_early")
        return Reason.of("illegal.not_now", action=str(kind))

    def _do_drop(self, action: Drop) -> IndianResult:
        seat = action.seat
        first, middle = self.rules.drop_values()
        value = first if self.draws[seat] == 0 else middle
        self.penalties[seat] = value
        self.status[seat] = SeatStatus.DROPPED
        self.out_of_play.extend(self.hands[seat])
        self.hands[seat] = []
        stage = "first" if self.draws[seat] == 0 else "middle"
        event = Event(EventCode.DROPPED, seat, stage=stage, points=value)
        if not self._last_standing():
            self._next_turn(action.at)
        return IndianResult(action, event=event)

    def _do_draw(self, action: Draw) -> IndianResult:
        if not self._stock and not self._rebuild_stock():
            self._finish_void()
            return IndianResult(action, event=Event(EventCode.STOCK_RAN_OUT, action.seat))
        self.hands[action.seat].append(self._stock.pop())
        self.draws[action.seat] += 1
        self._taken = None
        self.phase = IndianPhase.DISCARD
        return IndianResult(action, event=Event(EventCode.DREW, action.seat))

    def _rebuild_stock(self) -> bool:
        """Stock exhausted (§5.6): shuffle the discards except the top into a new stock."""
        if self.rules.stock.on_empty is StockOnEmpty.HAND_VOID or len(self.discard_pile) < 2:
            return False
        top = self.discard_pile[-1]
        rest = self.discard_pile[:-1]
        shuffle(self._rng, rest)
        self._stock = rest
        self.discard_pile = [top]
        self.reshuffles += 1
        return True

    def _do_take(self, action: TakeDiscard) -> IndianResult:
        card = self.discard_pile.pop()
        self._upcard_on_top = False
        self.hands[action.seat].append(card)
        self.draws[action.seat] += 1
        self._taken = card
        self.phase = IndianPhase.DISCARD
        return IndianResult(action, event=Event(EventCode.TOOK_DISCARD, action.seat, card=card))

    def _do_timeout(self, action: Timeout) -> IndianResult:
        """The turn's time and the seat's time bank ran out: the turn is played for it. Before
        a draw, a card is drawn from the stock; then the card just drawn is thrown (or, when
        it may not go straight back, the last other card of the hand)."""
        seat = action.seat
        self.time_bank[seat] = 0.0
        if self.phase is IndianPhase.START:
            drawn = self._do_draw(Draw(seat, at=action.at))
            if self.outcome is not None:  # the stock ran out: the hand is void
                return IndianResult(action, event=drawn.event)
        hand = self.hands[seat]
        card = next(c for c in reversed(hand) if self._may_discard(seat, c))
        hand.reverse()
        hand.remove(card)  # the last copy: the card just drawn
        hand.reverse()
        self.discard_pile.append(card)
        self._upcard_on_top = False
        self._next_turn(action.at, spent=False)
        return IndianResult(action, event=Event(EventCode.TIMED_OUT, seat, card=card))

    def _do_discard(self, action: Discard) -> IndianResult:
        hand = self.hands[action.seat]
        if action.card not in hand:
            raise IllegalActionError(Reason.of("not_in_hand", card=str(action.card)))
        if (
            self.rules.discard.no_same_card_return
            and action.card == self._taken
            and hand.count(action.card) < 2
        ):
            raise IllegalActionError(Reason.of("illegal.throw_back", card=str(action.card)))
        hand.remove(action.card)
        self.discard_pile.append(action.card)
        self._upcard_on_top = False
        self._next_turn(action.at)
        return IndianResult(action, event=Event(EventCode.DISCARDED, action.seat, card=action.card))

    def _do_declare(self, action: Declare) -> IndianResult:
        seat = action.seat
        hand = self.hands[seat]
        if action.finish not in hand:
            raise IllegalActionError(
                Reason.of("illegal.finish_not_in_hand", card=str(action.finish))
            )
        rest = list(hand)
        rest.remove(action.finish)
        shown = Counter(c for g in action.groups for c in g.cards)
        if shown != Counter(rest):
            missing = sorted((Counter(rest) - shown).elements(), key=Card.sort_key)
            extra = sorted((shown - Counter(rest)).elements(), key=Card.sort_key)
            raise IllegalActionError(
                Reason.of(
                    "illegal.groups_not_hand",
                    missing=tuple(map(str, missing)) or None,
                    cards=tuple(map(str, extra)) or None,
                )
            )
        try:
            verdict = check_declaration(action.groups, self.rules, self.wilds, cards=rest)
        except InvalidHandError as e:
            raise IllegalActionError(str(e)) from e
        hand.remove(action.finish)
        self.finish_slot.append(action.finish)
        if verdict.valid:
            self.status[seat] = SeatStatus.DECLARED
            self.penalties[seat] = 0
            groups = verdict.groups or action.groups
            if verdict.loose:  # 21-card count forms: the other cards need no arrangement
                groups = (
                    *groups,
                    Meld(tuple(MeldItem(c, None if c.is_joker else c) for c in verdict.loose)),
                )
            self.declared_groups = groups
            self._declared_hand = rest
            self._finish_declared(seat, action.at)
            return IndianResult(action, event=Event(EventCode.DECLARED, seat, form=verdict.form))
        violation = Violation("DECLARE", verdict.problem or Reason.of("declare.invalid"))
        self.penalties[seat] = self.rules.declare.invalid_penalty
        self.finish_slot.remove(action.finish)
        self.discard_pile.append(action.finish)
        self._upcard_on_top = False
        if self.rules.declare.invalid_ends_hand:
            self.status[seat] = SeatStatus.ELIMINATED
            self._finish_void(invalid=seat)
        else:
            self.status[seat] = SeatStatus.ELIMINATED
            self.folded[seat] = list(hand)
            self.out_of_play.extend(hand)
            self.hands[seat] = []
            if not self._last_standing():
                self._next_turn(action.at)
        return IndianResult(
            action,
            accepted=False,
            violations=(violation,),
            event=Event(
                EventCode.DECLARE_FAILED,
                seat,
                violations=(violation,),
                points=self.rules.declare.invalid_penalty,
            ),
        )

    def _do_show(self, action: Show) -> IndianResult:
        seat = action.seat
        try:
            score_loser(self.hands[seat], self.rules, self.wilds, groups=action.groups)
        except InvalidHandError as e:
            raise IllegalActionError(str(e)) from e
        self.shown[seat] = action.groups
        waiting = self._waiting_to_show()
        if waiting:
            self.current = waiting[0]
        else:
            self._score_declared()
        return IndianResult(action, event=Event(EventCode.SHOWED, seat))

    # -- turn order and hand end --------------------------------------------------------------
    def _next_turn(self, at: float | None, *, spent: bool = True) -> None:
        limit = self.rules.turn.time_limit_s
        if spent and limit is not None and at is not None and self.turn_started_at is not None:
            # time over the turn's limit comes out of the seat's time bank
            over = at - self.turn_started_at - limit
            if over > 0:
                self.time_bank[self.current] = max(0.0, self.time_bank[self.current] - over)
        n = self.players
        nxt = self.current
        for _ in range(n):
            nxt = (nxt + 1) % n
            if self.status[nxt] is SeatStatus.ACTIVE:
                break
        self.current = nxt
        self.phase = IndianPhase.START
        self._taken = None
        if at is not None:
            self.turn_started_at = at

    def _last_standing(self) -> bool:
        active = self.active
        if len(active) != 1:
            return False
        winner = active[0]
        self.penalties[winner] = 0
        self.status[winner] = SeatStatus.DECLARED
        self._set_outcome(HandEnd.LAST_STANDING, (winner,), {})
        return True

    def _finish_void(self, invalid: int | None = None) -> None:
        for s in self.active:
            self.penalties[s] = 0
        self._set_outcome(HandEnd.VOID, (), {})

    def _finish_declared(self, winner: int, at: float | None) -> None:
        self._winner = winner
        if (
            self.rules.scoring.loser_arrangement is LoserArrangement.SUBMITTED
            and self._waiting_to_show()
        ):
            self.phase = IndianPhase.SHOW
            self.current = self._waiting_to_show()[0]
            return
        self._score_declared()

    def _waiting_to_show(self) -> list[int]:
        assert self._winner is not None
        n = self.players
        order = [(self._winner + k) % n for k in range(1, n)]
        return [s for s in order if self.status[s] is SeatStatus.ACTIVE and s not in self.shown]

    def _score_declared(self) -> None:
        winner = self._winner
        assert winner is not None
        rules = self.rules
        arrangements: dict[int, Arrangement] = {}
        for s in self.active:
            arr = score_loser(self.hands[s], rules, self.wilds, groups=self.shown.get(s))
            arrangements[s] = arr
            points = arr.points
            if rules.scoring.never_drew_full_count and self.draws[s] == 0:
                points = rules.scoring.cap if rules.scoring.cap is not None else 80
            if rules.scoring.first_hand_show_cap is not None and self.draws[winner] == 1:
                points = min(points, rules.scoring.first_hand_show_cap)
            if rules.paplu.enabled:
                paplu = rules.paplu_card(self.indicator)
                held = sum(1 for c in self._declared_cards() if c == paplu) if paplu else 0
                points += rules.paplu.bonus * held
            self.penalties[s] = points
        self._set_outcome(HandEnd.DECLARED, (winner,), arrangements)

    def _declared_cards(self) -> list[Card]:
        return list(self._declared_hand)

    def _set_outcome(
        self, end: HandEnd, winners: tuple[int, ...], arrangements: dict[int, Arrangement]
    ) -> None:
        n = self.players
        scores = [p or 0 for p in self.penalties]
        value_net: tuple[int, ...] | None = None
        if self.rules.is_v21 and self.rules.v21.value_cards:
            # Value-card exchange among the players who did not drop (§7.5).
            takers = [s for s in range(n) if self.status[s] is not SeatStatus.DROPPED]
            held = {s: self._holding(s) for s in takers}
            values = [self.rules.value_points(held[s], self.indicator) for s in takers]
            nets = self.rules.value_exchange(values)
            net_by_seat = [0] * n
            for s, net in zip(takers, nets, strict=True):
                net_by_seat[s] = net
                scores[s] -= net
            cap = self.rules.v21.loss_cap_with_values
            if cap is not None:
                scores = [min(cap, sc) for sc in scores]
            value_net = tuple(net_by_seat)
        groups: list[tuple[Meld, ...]] = [()] * n
        deadwood: list[int | None] = [None] * n
        for s, arr in arrangements.items():
            groups[s] = arr.groups
            deadwood[s] = arr.raw
        for w in winners:
            if end is HandEnd.DECLARED:
                groups[w] = self.declared_groups
        self.phase = IndianPhase.OVER
        self.outcome = HandOutcome(
            end,
            winners,
            tuple(scores),
            tuple(tuple(self._holding(s)) for s in range(n)),
            tuple(groups),
            tuple(deadwood),
            tuple(st.value for st in self.status),
            value_net,
        )

    def _holding(self, seat: int) -> list[Card]:
        """The cards a seat ends the hand with (the declarer's shown cards)."""
        if self.status[seat] is SeatStatus.DECLARED and self._declared_hand:
            return self._declared_cards()
        if seat in self.folded:
            return list(self.folded[seat])
        return list(self.hands[seat])

    # -- views --------------------------------------------------------------------------------
    def view(self, seat: int | None, *, now: float | None = None) -> IndianView:
        """What ``seat`` may see: its own hand, the indicator, the whole discard pile, counts.

        Hidden: other hands (until the hand ends), the stock order, dropped hands.
        ``view.to_json()`` is what the server sends.
        """
        from .views import IndianView, LastAction

        if seat is not None and not 0 <= seat < self.players:
            raise IllegalActionError(Reason.of("illegal.no_seat", index=seat))
        last = self.last_result
        return IndianView(
            game=self.rules.name,
            seat=seat,
            players=self.players,
            dealer=self.dealer,
            current=self.current,
            phase=self.phase,
            indicator=self.indicator,
            wild_rank=self.wilds.wild_rank,
            hand_sizes=tuple(len(h) for h in self.hands),
            stock=len(self._stock),
            discard_pile=tuple(self.discard_pile),
            statuses=tuple(self.status),
            draws=tuple(self.draws),
            penalties=tuple(self.penalties),
            taken=self._taken,
            may_discard_taken=not self.rules.discard.no_same_card_return,
            legal=self.legal_kinds(),
            hand=None if seat is None else tuple(self.hands[seat]),
            time_left=self.time_left(now),
            time_bank=None if self.rules.turn.time_limit_s is None else tuple(self.time_bank),
            outcome=self.outcome.to_json() if self.outcome else None,
            last=None
            if last is None
            else LastAction(
                seat=last.action.seat,
                action=_public(last.action),
                accepted=last.accepted,
                violations=tuple(x.to_json() for x in last.violations),
                event=last.event.to_json(),
            ),
        )

    def __repr__(self) -> str:
        return f"<IndianGame {self.rules.name} players={self.players} current={self.current} phase={self.phase.value}>"


def _public(action: Action) -> str:
    """Draws from the stock are public as "draw"; a declaration shows its cards anyway."""
    return str(action)


# -- matches --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IndianMatchOutcome:
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    """Penalty totals (lower is better); with chips, the chip counts (higher is better)."""
    eliminated: tuple[int, ...]
    decision: Reason
    """How the winner was found (``decision.last_under``, ``decision.lowest_total``, …)."""
    settlement: tuple[int, ...] | None = None
    """Points format: what each player receives (+) or pays (−)."""

    @property
    def decided_by(self) -> str:
        """How the winner was found, in English words ("last player under 101", …)."""
        return str(self.decision)

    def to_json(self) -> JsonObject:
        return {
            "winners": list(self.winners),
            "totals": list(self.totals),
            "eliminated": list(self.eliminated),
            "decided_by": self.decided_by,
            "decision": self.decision.to_json(),
            "settlement": list(self.settlement) if self.settlement is not None else None,
        }


class IndianMatch(RoundsMatch[IndianGame, IndianResult, "IndianView", "IndianStandings"]):
    """A match of Indian Rummy in one of the formats of RULES.md §5.5.

    * ``POINTS``: one hand; the winner is owed the losers' hand scores.
    * ``POOL``: hands until one player is left below ``pool.threshold`` (61, 101, 201).
    * ``DEALS``: ``deals.count`` hands; the lowest total wins (or the most chips).
    * ``FIXED_HANDS``: ``match.hands`` hands, lowest total.

    Ties for the win in DEALS and fixed hands go to a tiebreaker hand among the tied.

    ``standings`` starts the match under way (totals, eliminated pool players, hands
    already played); see :class:`~openrummy.games.standings.Standings`.
    """

    per_seat_view_keys = ("hand_sizes", "statuses", "draws", "penalties", "time_bank")
    per_seat_outcome_keys = ("scores", "hands", "groups", "deadwood", "statuses", "value_net")

    def __init__(
        self,
        rules: IndianRules,
        players: int,
        *,
        seed: int | str = 0,
        decks: Sequence[Sequence[Card]] | None = None,
        first_dealer: int | None = None,
        clock: Callable[[], float] | None = None,
        started_at: float | None = None,
        max_rounds: int = 500,
        standings: Standings | Mapping[str, object] | None = None,
    ) -> None:
        start = Standings.from_json(standings) if standings is not None else Standings()
        _check_standings(rules, players, start)
        self.start_standings = start
        """The standings this match started from (recorded in game records)."""
        self.totals = start.per_seat("totals", players)
        chips = (
            rules.deals.scoring is DealsScoring.CHIPS and rules.match.format is MatchFormat.DEALS
        )
        self.chips: list[int] | None = [80 * rules.deals.count] * players if chips else None
        self.eliminated: list[int] = list(start.eliminated)
        super().__init__(
            rules,
            players,
            seed=seed,
            decks=decks,
            first_dealer=first_dealer,
            clock=clock,
            started_at=started_at,
            max_rounds=max_rounds,
            start_round=start.round,
        )
        self.rules: IndianRules = rules
        self.outcome: IndianMatchOutcome | None

    def _cut_for_dealer(self, rng: random.Random) -> int:
        return cut_for_dealer(rng, self.players, self.rules.deal.first_dealer)

    def _new_round(
        self,
        rules: IndianRules,
        players: int,
        *,
        seed: str,
        deck: Sequence[Card] | None,
        dealer: int,
        started_at: float | None,
    ) -> IndianGame:
        return IndianGame(
            rules,
            players,
            seed=seed,
            deck=deck,
            dealer=dealer,
            clock=self.clock,
            started_at=started_at,
        )

    def _next_players(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if s not in self.eliminated)

    def _record_round(self, summary: RoundSummary) -> None:
        scores = summary.outcome.scores
        for i, s in enumerate(summary.seats):
            self.totals[s] += scores[i]
        if self.chips is not None:
            for w in summary.winners():
                for i, s in enumerate(summary.seats):
                    if s != w:
                        self.chips[s] -= scores[i]
                        self.chips[w] += scores[i]

    def _decide(self, summary: RoundSummary) -> tuple[tuple[int, ...], Reason] | None:
        fmt = self.rules.match.format
        if fmt is MatchFormat.POINTS:
            winners = summary.winners()
            if not winners:  # a void hand: nobody is owed anything
                return (), Reason.of("decision.void_hand")
            return winners, Reason.of("decision.points_one_hand")
        threshold = self.rules.pool_threshold
        if threshold is not None:
            exceed = self.rules.pool.elimination is PoolElimination.EXCEED
            alive = [s for s in range(self.players) if s not in self.eliminated]
            out = [
                s
                for s in alive
                if (self.totals[s] > threshold if exceed else self.totals[s] >= threshold)
            ]
            if len(out) == len(alive):
                # Never leave nobody: the lowest totals survive (cannot happen with a hand winner).
                best = min(self.totals[s] for s in alive)
                out = [s for s in alive if self.totals[s] != best]
            self.eliminated.extend(out)
            alive = [s for s in alive if s not in out]
            if len(alive) == 1:
                return (alive[0],), Reason.of("decision.last_under", threshold=threshold)
            return None
        count = self.rules.deals.count if fmt is MatchFormat.DEALS else self.rules.match.hands
        if self.round_index < count:
            return None
        if self.chips is not None:
            best_chips = max(self.chips)
            tied = [s for s in range(self.players) if self.chips[s] == best_chips]
            how = Reason.of("decision.most_chips")
        else:
            best_total = min(self.totals)
            tied = [s for s in range(self.players) if self.totals[s] == best_total]
            how = Reason.of("decision.lowest_total")
        if len(tied) == 1:
            return (tied[0],), how
        self._tie_break(tied)
        return None

    def _finish(self, winners: tuple[int, ...], how: Reason) -> IndianMatchOutcome:
        settlement = None
        if self.rules.match.format is MatchFormat.POINTS:
            total = sum(self.totals)
            settlement = tuple(
                total - self.totals[s] if s in winners else -self.totals[s]
                for s in range(self.players)
            )
        totals = tuple(self.chips) if self.chips is not None else tuple(self.totals)
        return IndianMatchOutcome(winners, totals, tuple(self.eliminated), how, settlement)

    def _standings(self) -> IndianStandings:
        from .views import IndianStandings

        return IndianStandings(
            **self._standings_base(),
            totals=tuple(self.totals),
            chips=tuple(self.chips) if self.chips is not None else None,
            eliminated=tuple(self.eliminated),
            pool_threshold=self.rules.pool_threshold,
        )


def _check_standings(rules: IndianRules, players: int, start: Standings) -> None:
    """Raise ConfigError unless ``start`` can occur in a match of ``rules``."""
    if start.is_start:
        start.per_seat("totals", players)  # still check the lengths
        return
    fmt = rules.match.format
    if start.outs is not None or start.rounds_won is not None:
        raise ConfigError("standings outs / rounds_won belong to Robbers' Rummy and Rummikub")
    if fmt is MatchFormat.POINTS:
        raise ConfigError("match.format = POINTS is a single hand: it has no standings")
    if rules.deals.scoring is DealsScoring.CHIPS and fmt is MatchFormat.DEALS:
        raise ConfigError("deals.scoring = CHIPS: a match with chips starts from no standings")
    totals = start.per_seat("totals", players)
    for s, t in enumerate(totals):
        if t < 0:
            raise ConfigError(f"standings totals: seat {s} has {t}; penalty totals are 0 or more")
    start.check_eliminated(players)
    threshold = rules.pool_threshold
    if threshold is None:
        if start.eliminated:
            raise ConfigError(f"standings eliminated: nobody is eliminated in {fmt.name}")
        count = rules.deals.count if fmt is MatchFormat.DEALS else rules.match.hands
        if start.round >= count:
            raise ConfigError(
                f"standings round = {start.round}: a {fmt.name} match of {count} hands "
                "would be over"
            )
        return
    exceed = rules.pool.elimination is PoolElimination.EXCEED
    word = ">" if exceed else "≥"
    for s, t in enumerate(totals):
        over = t > threshold if exceed else t >= threshold
        if over and s not in start.eliminated:
            raise ConfigError(
                f"standings: seat {s} has {t} {word} pool.threshold = {threshold} "
                "but is not eliminated"
            )
        if not over and s in start.eliminated:
            raise ConfigError(
                f"standings: seat {s} is eliminated with {t}, below pool.threshold = {threshold}"
            )
    if players - len(start.eliminated) < 2:
        raise ConfigError("standings: fewer than two players are left; the pool would be over")
