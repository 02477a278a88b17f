"""What every match of rounds shares, whatever the family: seats, deals, tie-break rounds.

A match deals its rounds (hands) one after another from its seed, maps match seats onto the
seats of the round being played (all players, the survivors of a pool, or the players tied
for the win in an extra round), records each round, and lets the family decide when the
match is over. :class:`~openrummy.games.match.ManipulationMatch` and
:class:`~openrummy.games.indian.IndianMatch` are the two families' formats on top of it.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

from openrummy.cards import Card
from openrummy.errors import ConfigError, IllegalActionError
from openrummy.events import Event, EventCode
from openrummy.messages import Reason

from .actions import Action, ActionKind, parse_action
from .jsonvalue import JsonObject
from .legal import LegalActions

if TYPE_CHECKING:
    from openrummy.rules import Rules

    from .indian import HandOutcome, IndianGame, IndianResult
    from .manipulation import ManipulationGame, Outcome, Result
    from .views import IndianStandings, IndianView, ManipulationStandings, ManipulationView

__all__ = ["RoundSummary", "RoundsMatch", "widen_view"]

G = TypeVar("G", bound="ManipulationGame | IndianGame")
"""The family's round (hand) state machine."""
R = TypeVar("R", bound="Result | IndianResult")
"""What the round's ``apply`` returns."""
V = TypeVar("V", bound="ManipulationView | IndianView")
"""The round's view."""
S = TypeVar("S", bound="ManipulationStandings | IndianStandings")
"""The family's match standings."""


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A finished round (hand), in match seats.

    ``outcome`` is the round's own outcome, in the round's seat numbers: ``seats[i]`` is the
    match seat that sat at seat ``i`` of the round.
    """

    index: int
    seats: tuple[int, ...]
    dealer: int
    outcome: Outcome | HandOutcome
    tie_break: bool = False

    def winners(self) -> tuple[int, ...]:
        return tuple(self.seats[w] for w in self.outcome.winners)

    def scores_by_seat(self, players: int) -> list[int | None]:
        out: list[int | None] = [None] * players
        for i, s in enumerate(self.seats):
            out[s] = self.outcome.scores[i]
        return out

    def to_json(self) -> JsonObject:
        return {
            "index": self.index,
            "seats": list(self.seats),
            "dealer": self.dealer,
            "tie_break": self.tie_break,
            "winners": list(self.winners()),
            "termination": self.outcome.termination.value,
            "scores": list(self.outcome.scores),
            "hands": [[str(c) for c in h] for h in self.outcome.hands],
        }


def widen_view(
    view: JsonObject,
    seats: tuple[int, ...],
    players: int,
    per_seat: Sequence[str],
    outcome_per_seat: Sequence[str],
) -> JsonObject:
    """Re-key a round view whose seats are a subset of the match's by match seat.

    Lists named in ``per_seat`` (and ``outcome_per_seat`` inside the outcome) get one entry
    per match seat, ``None`` for the players who sit this round out; seat numbers become
    match seats.
    """

    def spread(values: list[Any]) -> list[Any]:
        out: list[Any] = [None] * players
        for i, s in enumerate(seats):
            out[s] = values[i]
        return out

    v: dict[str, Any] = dict(view)
    for key in per_seat:
        if v.get(key) is not None:
            v[key] = spread(v[key])
    if v.get("owners") is not None:
        v["owners"] = [None if o is None else seats[o] for o in v["owners"]]
    v["current"] = seats[v["current"]]
    v["dealer"] = seats[v["dealer"]]
    if v.get("last"):
        last = dict(v["last"], seat=seats[v["last"]["seat"]])
        event = last.get("event")
        if isinstance(event, dict) and event.get("seat") is not None:
            last["event"] = dict(event, seat=seats[event["seat"]])
        v["last"] = last
    if v.get("outcome"):
        o = dict(v["outcome"])
        o["winners"] = [seats[w] for w in o["winners"]]
        for key in outcome_per_seat:
            if o.get(key) is not None:
                o[key] = spread(o[key])
        v["outcome"] = o
    return v


class RoundsMatch(ABC, Generic[G, R, V, S]):
    """Rounds dealt from a seed until the family's format decides the match.

    ``decks`` optionally stacks the deck of each round (in draw order) for reproducible
    scenarios; rounds beyond the list are shuffled from the seed (round ``k`` from
    ``"{seed}/{k}"``; the first dealer is cut from ``"{seed}/dealer"``).
    """

    per_seat_view_keys: Sequence[str] = ()
    per_seat_outcome_keys: Sequence[str] = ("scores", "hands")

    def __init__(
        self,
        rules: Rules,
        players: int,
        *,
        seed: int | str = 0,
        decks: Sequence[Sequence[Card]] | None = None,
        first_dealer: int | None = None,
        clock: Callable[[], float] | None = None,
        started_at: float | None = None,
        max_rounds: int = 1000,
        start_round: int = 0,
    ) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.seed = seed
        self.decks = [list(d) for d in decks] if decks else []
        self.clock = clock
        self.started_at = started_at
        self.max_rounds = max_rounds
        self.start_round = start_round
        """Rounds played before this match object started (given standings)."""
        if first_dealer is None:
            first_dealer = self._cut_for_dealer(random.Random(f"{seed}/dealer"))
        if not 0 <= first_dealer < players:
            raise ConfigError(f"first dealer {first_dealer} is not a seat")
        self.first_dealer = first_dealer
        self.rounds: list[RoundSummary] = []
        self.outcome: Any = None
        self.history: list[Action] = []
        self._tied: tuple[int, ...] | None = None
        self.seats: tuple[int, ...] = tuple(range(players))
        first = self._next_players()  # given standings may have eliminated someone
        while first_dealer not in first:
            first_dealer = (first_dealer + 1) % players
        self.game: G = self._deal(first, first_dealer, started_at)

    # -- what a family provides -----------------------------------------------------------
    @abstractmethod
    def _cut_for_dealer(self, rng: random.Random) -> int:
        """The first dealer (the family's cutting rule)."""

    @abstractmethod
    def _new_round(
        self,
        rules: Any,
        players: int,
        *,
        seed: str,
        deck: Sequence[Card] | None,
        dealer: int,
        started_at: float | None,
    ) -> G:
        """A freshly dealt round for ``players`` seats."""

    @abstractmethod
    def _record_round(self, summary: RoundSummary) -> None:
        """Add a finished (regular) round to the standings."""

    @abstractmethod
    def _decide(self, summary: RoundSummary) -> tuple[tuple[int, ...], Reason] | None:
        """The winners and how they won (a ``decision.*`` reason) once the match is
        decided, else ``None``."""

    @abstractmethod
    def _finish(self, winners: tuple[int, ...], how: Reason) -> Any:
        """The family's match outcome."""

    @abstractmethod
    def _standings(self) -> S:
        """The family's match standings for views (totals and so on)."""

    def _standings_base(self) -> dict[str, Any]:
        """The standings every family shares, as keywords of its standings type."""
        return {
            "format": self.rules.match.format,
            "round": self.round_index,
            "round_seats": tuple(self.seats),
            "last_round": self.rounds[-1].to_json() if self.rounds else None,
            "outcome": self.outcome.to_json() if self.outcome is not None else None,
        }

    def _next_players(self) -> tuple[int, ...]:
        """Who plays the next regular round (all players, or a pool's survivors)."""
        return tuple(range(self.players))

    # -- rounds ---------------------------------------------------------------------------
    @property
    def round_index(self) -> int:
        """The number of the round being played (0 first), counting given standings."""
        return self.start_round + len(self.rounds)

    @property
    def current(self) -> int:
        """The match seat to move."""
        return self.seats[self.game.current]

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def parse_action(self, text: str, seat: int | None = None) -> Action:
        """Read an action in the text notation (``"play [5H 6H 7H]"``, ``"draw"``) for the
        match seat ``seat`` (default: the seat to move)."""
        return parse_action(text, seat=self.current if seat is None else seat)

    def copy(self) -> Self:
        """An independent copy (for search): the round is copied, and every list and dict of
        the standings (their items are immutable values)."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, (list, dict)):
                setattr(other, name, copy.copy(value))
        other.game = self.game.copy()  # type: ignore[assignment]
        return other

    def legal_kinds(self) -> frozenset[ActionKind]:
        """Every kind of action the seat to move may take now (empty once the match is over)."""
        if self.outcome is not None:
            return frozenset()
        return self._round().legal_kinds()

    def legal_actions(self) -> LegalActions:
        """The round's legal actions in match seats (see :class:`~.legal.LegalActions`)."""
        if self.outcome is not None:
            return LegalActions(-1, frozenset(), tuple, lambda _action: False)
        game = self._round()
        inner = game.legal_actions()
        seats = self.seats

        def listed() -> Iterator[Action]:
            for action in inner:
                yield dataclasses.replace(action, seat=seats[action.seat])

        def contains(action: Action) -> bool:
            if action.seat not in seats:
                return False
            return dataclasses.replace(action, seat=seats.index(action.seat)) in inner

        return LegalActions(seats[inner.seat], inner.kinds, listed, contains)

    def is_legal(self, action: Action) -> bool:
        """True when :meth:`apply` would take ``action`` (it raises exactly when this is False)."""
        if self.outcome is not None or action.seat not in self.seats:
            return False
        local = dataclasses.replace(action, seat=self.seats.index(action.seat))
        return self._round().is_legal(local)

    def candidate_plays(self, limit: int = 20) -> Iterator[Action]:
        """The round's :meth:`candidate_plays`, in match seats."""
        if self.outcome is not None:
            return
        for play in self._round().candidate_plays(limit):
            yield dataclasses.replace(play, seat=self.seats[play.seat])

    def _round(self) -> G:
        return self.game

    def _deal(self, seats: tuple[int, ...], dealer: int, started_at: float | None) -> G:
        k = len(self.rounds)
        rules = self.rules
        if len(seats) < rules.players.min:
            # An extra round among tied players, or a pool's last survivors.
            rules = dataclasses.replace(
                rules, players=dataclasses.replace(rules.players, min=len(seats))
            )
        self.seats = seats
        return self._new_round(
            rules,
            len(seats),
            seed=f"{self.seed}/{self.start_round + k}",
            deck=self.decks[k] if k < len(self.decks) else None,
            dealer=seats.index(dealer) if dealer in seats else 0,
            started_at=started_at,
        )

    def apply(self, action: Action) -> R:
        """Apply an action of a match seat to the current round; deal on when it ends.

        Raises :class:`IllegalActionError` (nothing changed) exactly when :meth:`is_legal`
        is False; the result's action carries the match seat, and when the round ends its
        ``after`` events say so (``round_over``, then ``match_over`` once the match is
        decided).
        """
        if self.outcome is not None:
            raise IllegalActionError("the match is over")
        if action.seat not in self.seats:
            raise IllegalActionError(
                f"seat {action.seat} does not play this round "
                f"(seats {', '.join(map(str, self.seats))} do)"
            )
        index = self.seats.index(action.seat)
        # (while the round's seats are the match's, its actions and events need no re-keying)
        same = self.seats == tuple(range(len(self.seats)))
        local = action if index == action.seat else dataclasses.replace(action, seat=index)
        game: Any = self.game
        result = game.apply(local)
        if same:
            stamped = result.action
        else:
            stamped = dataclasses.replace(result.action, seat=action.seat)
            result = dataclasses.replace(
                result, action=stamped, event=result.event.with_seats(self.seats)
            )
        self.history.append(stamped)
        if game.outcome is not None:
            self._round_over(game.outcome, game.dealer, stamped.at)
            summary = self.rounds[-1]
            after = [
                Event(EventCode.ROUND_OVER, round=summary.index + 1, winners=summary.winners())
            ]
            if self.outcome is not None:
                after.append(
                    Event(
                        EventCode.MATCH_OVER,
                        winners=tuple(self.outcome.winners),
                        decision=self.outcome.decision,
                    )
                )
            result = dataclasses.replace(result, after=tuple(after))
        return result  # type: ignore[no-any-return]

    def _round_over(self, outcome: Any, local_dealer: int, at: float | None) -> None:
        dealer = self.seats[local_dealer]
        summary = RoundSummary(
            self.round_index, self.seats, dealer, outcome, self._tied is not None
        )
        self.rounds.append(summary)
        if summary.tie_break:
            decided = self._decide_tie_break(summary)
        else:
            self._record_round(summary)
            decided = self._decide(summary)
        if decided is not None:
            self.outcome = self._finish(*decided)
            return
        if len(self.rounds) >= self.max_rounds:
            raise IllegalActionError(f"the match did not end within {self.max_rounds} rounds")
        players = self._tied or self._next_players()
        nxt = (dealer + 1) % self.players
        while nxt not in players:
            nxt = (nxt + 1) % self.players
        self.game = self._deal(players, nxt, at)

    def _decide_tie_break(self, summary: RoundSummary) -> tuple[tuple[int, ...], Reason] | None:
        """An extra round among the tied: its best round score wins; repeat while tied."""
        scores = summary.outcome.scores
        best = (max if self._higher_is_better() else min)(scores)
        still = tuple(summary.seats[i] for i, sc in enumerate(scores) if sc == best)
        if len(still) == 1:
            return still, Reason.of("decision.tie_break")
        self._tied = still
        return None

    def _tie_break(self, tied: Sequence[int]) -> None:
        """Play extra rounds among ``tied`` (called from ``_decide``)."""
        self._tied = tuple(tied)

    def _higher_is_better(self) -> bool:
        return False

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: int | None, *, now: float | None = None) -> V:
        """The round view for a match seat (or a spectator) plus the match standings."""
        from .views import view_from_json

        if seat is not None and not 0 <= seat < self.players:
            raise IllegalActionError(Reason.of("illegal.no_seat", index=seat))
        local = self.seats.index(seat) if seat is not None and seat in self.seats else None
        view: Any = self.game.view(local, now=now)
        if len(self.seats) != self.players:
            widened = widen_view(
                view.to_json(),
                self.seats,
                self.players,
                self.per_seat_view_keys,
                self.per_seat_outcome_keys,
            )
            view = view_from_json(widened)
        return dataclasses.replace(  # type: ignore[no-any-return]
            view, seat=seat, players=self.players, match=self._standings()
        )
