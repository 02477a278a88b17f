"""Matches of the manipulation games: rounds, totals, tie-breaks (RULES.md §3.6, §4.6).

A match deals its rounds one after another (automatically, from its seed), keeps the
totals, and ends as its format says:

* ``ROUNDS_LOWEST_TOTAL`` (Robbers' default): ``match.rounds`` rounds, the lowest total
  wins; ties go to the most rounds won, then to extra rounds among the tied players.
* ``ROUNDS_HIGHEST_TOTAL`` (Rummikub): the same with the highest total; with
  ``match.target_score`` the match ends when someone reaches it.
* ``FIRST_TO_N_OUTS``: the first player to go out ``match.outs_to_win`` times.
* ``SINGLE_ROUND``: one round; its winner wins.

The first dealer is found by cutting (Rummikub: the highest drawn tile starts), and the deal
moves one seat clockwise each round.

    >>> from openrummy.rules import find_preset
    >>> from openrummy.games.actions import Draw
    >>> m = ManipulationMatch(find_preset("robbers"), players=4, seed=5)
    >>> m.round_index, m.game.players, len(m.game.hands[0])
    (0, 4, 11)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from openrummy.cards import Card
from openrummy.errors import ConfigError, IllegalActionError
from openrummy.rules.common import FirstDealer, FirstPlayer, MatchFormat, ScoringMode
from openrummy.rules.manipulation import ManipulationRules

from .actions import Action, parse_action
from .manipulation import ManipulationGame, Outcome, Result, Termination, cut_for_dealer

__all__ = ["ManipulationMatch", "MatchOutcome", "RoundSummary"]


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A finished round, in match seats."""

    index: int
    seats: tuple[int, ...]
    """The match seats that played it (all, or the tied players of an extra round)."""
    dealer: int
    outcome: Outcome
    """The round's outcome in the round's own seat numbers (``seats[i]`` is seat i)."""
    tie_break: bool = False

    def scores_by_seat(self, players: int) -> list[int | None]:
        out: list[int | None] = [None] * players
        for i, s in enumerate(self.seats):
            out[s] = self.outcome.scores[i]
        return out

    def winners(self) -> tuple[int, ...]:
        return tuple(self.seats[w] for w in self.outcome.winners)

    def to_json(self) -> dict[str, Any]:
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


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    rounds_won: tuple[int, ...]
    outs: tuple[int, ...]
    decided_by: str
    """How the winner was found, in words ("lowest total", "most rounds won", …)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "totals": list(self.totals),
            "rounds_won": list(self.rounds_won),
            "outs": list(self.outs),
            "decided_by": self.decided_by,
        }


class ManipulationMatch:
    """A match of Robbers' Rummy, Rummikub or Vatikan: rounds until the format decides.

    ``decks`` optionally stacks the deck of each round (in draw order) for reproducible
    scenarios; rounds beyond the list are shuffled from the seed.
    """

    def __init__(
        self,
        rules: ManipulationRules,
        players: int,
        *,
        seed: int | str = 0,
        decks: Sequence[Sequence[Card]] | None = None,
        first_dealer: int | None = None,
        clock: Callable[[], float] | None = None,
        started_at: float | None = None,
        max_rounds: int = 1000,
    ) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.seed = seed
        self.decks = [list(d) for d in decks] if decks else []
        self.clock = clock
        self.started_at = started_at
        self.max_rounds = max_rounds
        if first_dealer is None:
            rng = random.Random(f"{seed}/dealer")
            if rules.deal.first_player is FirstPlayer.HIGHEST_TILE:
                starter = cut_for_dealer(rng, players, FirstDealer.HIGH_CUT, tiles=True)
                first_dealer = (starter - 1) % players
            else:
                first_dealer = cut_for_dealer(
                    rng, players, rules.deal.first_dealer, tiles=rules.tiles
                )
        if not 0 <= first_dealer < players:
            raise ConfigError(f"first dealer {first_dealer} is not a seat")
        self.first_dealer = first_dealer
        self.totals = [0] * players
        self.rounds_won = [0] * players
        self.outs = [0] * players
        self.rounds: list[RoundSummary] = []
        self.outcome: MatchOutcome | None = None
        self.history: list[Action] = []
        self._tied: tuple[int, ...] | None = None
        self.seats: tuple[int, ...] = tuple(range(players))
        self.game = self._deal(tuple(range(players)), first_dealer, started_at)

    # -- rounds ---------------------------------------------------------------------------
    @property
    def round_index(self) -> int:
        return len(self.rounds)

    def _deal(
        self, seats: tuple[int, ...], dealer: int, started_at: float | None
    ) -> ManipulationGame:
        k = len(self.rounds)
        deck = self.decks[k] if k < len(self.decks) else None
        rules = self.rules
        if len(seats) != self.players:
            # An extra round among tied players: hand size by their number (§3.6).
            rules = replace(rules, players=replace(rules.players, min=2))
        self.seats = seats
        return ManipulationGame(
            rules,
            len(seats),
            seed=f"{self.seed}/{k}",
            deck=deck,
            dealer=seats.index(dealer) if dealer in seats else 0,
            clock=self.clock,
            started_at=started_at,
        )

    def apply(self, action: Action) -> Result:
        """Apply an action of a match seat to the current round; deal on when it ends."""
        if self.outcome is not None:
            raise IllegalActionError("the match is over")
        if action.seat not in self.seats:
            raise IllegalActionError(
                f"seat {action.seat} does not play this round (an extra round among "
                f"seats {', '.join(map(str, self.seats))})"
            )
        local = replace(action, seat=self.seats.index(action.seat))
        result = self.game.apply(local)
        stamped = replace(result.action, seat=action.seat)
        self.history.append(stamped)
        result = replace(result, action=stamped)
        if self.game.outcome is not None:
            self._round_over(self.game.outcome, stamped.at)
        return result

    def _round_over(self, outcome: Outcome, at: float | None) -> None:
        seats = self.seats
        game_dealer = seats[self.game.dealer]
        tie_break = self._tied is not None
        summary = RoundSummary(len(self.rounds), seats, game_dealer, outcome, tie_break)
        self.rounds.append(summary)
        if not tie_break:
            for i, s in enumerate(seats):
                self.totals[s] += outcome.scores[i]
            for w in outcome.winners:
                self.rounds_won[seats[w]] += 1
                if outcome.termination is Termination.OUT:
                    self.outs[seats[w]] += 1
        decided = self._decide(summary)
        if decided is not None:
            winners, how = decided
            self.outcome = MatchOutcome(
                winners, tuple(self.totals), tuple(self.rounds_won), tuple(self.outs), how
            )
            return
        if len(self.rounds) >= self.max_rounds:
            raise IllegalActionError(f"the match did not end within {self.max_rounds} rounds")
        next_dealer = (game_dealer + 1) % self.players
        players = self._tied or tuple(range(self.players))
        while next_dealer not in players:
            next_dealer = (next_dealer + 1) % self.players
        self.game = self._deal(players, next_dealer, at)

    def _decide(self, summary: RoundSummary) -> tuple[tuple[int, ...], str] | None:
        fmt = self.rules.match.format
        high = self.rules.scoring.mode is ScoringMode.ZERO_SUM_HIGH
        if self._tied is not None:
            scores = summary.outcome.scores
            best = (max if high else min)(scores)
            still = tuple(summary.seats[i] for i, sc in enumerate(scores) if sc == best)
            if len(still) == 1:
                return still, "extra round among the tied players"
            self._tied = still
            return None
        if fmt is MatchFormat.SINGLE_ROUND:
            return summary.winners(), "single round"
        if fmt is MatchFormat.FIRST_TO_N_OUTS:
            n = self.rules.match.outs_to_win
            reached = tuple(s for s in range(self.players) if self.outs[s] >= n)
            return (reached, f"first to {n} outs") if reached else None
        target = self.rules.match.target_score
        if target is not None and fmt is MatchFormat.ROUNDS_HIGHEST_TOTAL:
            if max(self.totals) < target:
                return None
        elif len(self.rounds) < self.rules.match.rounds:
            return None
        best = (max if high else min)(self.totals)
        tied = [s for s in range(self.players) if self.totals[s] == best]
        if len(tied) == 1:
            return (tied[0],), "highest total" if high else "lowest total"
        most = max(self.rounds_won[s] for s in tied)
        tied = [s for s in tied if self.rounds_won[s] == most]
        if len(tied) == 1:
            return (tied[0],), "most rounds won"
        self._tied = tuple(tied)
        return None

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: int | None, *, now: float | None = None) -> dict[str, Any]:
        """The round view for a match seat (or a spectator) plus the match standings."""
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalActionError(f"there is no seat {seat}")
        local = self.seats.index(seat) if seat is not None and seat in self.seats else None
        v = self.game.view(local, now=now)
        if len(self.seats) != self.players:
            v = _widen(v, self.seats, self.players)
        v["seat"] = seat
        v["players"] = self.players
        v["match"] = {
            "format": self.rules.match.format.value,
            "round": self.round_index,
            "rounds": self.rules.match.rounds,
            "round_seats": list(self.seats),
            "totals": list(self.totals),
            "rounds_won": list(self.rounds_won),
            "outs": list(self.outs),
            "last_round": self.rounds[-1].to_json() if self.rounds else None,
            "outcome": self.outcome.to_json() if self.outcome else None,
        }
        return v

    @property
    def current(self) -> int:
        """The match seat to move."""
        return self.seats[self.game.current]

    def parse_action(self, text: str, seat: int) -> Action:
        """Read an action in text notation (``"play [5H 6H 7H]"``, ``"draw"``) for ``seat``."""
        return parse_action(text, seat=seat)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None


def _widen(v: dict[str, Any], seats: tuple[int, ...], players: int) -> dict[str, Any]:
    """Re-key a tie-break round's per-seat lists by match seat (others get None)."""

    def spread(values: list[Any]) -> list[Any]:
        out: list[Any] = [None] * players
        for i, s in enumerate(seats):
            out[s] = values[i]
        return out

    v = dict(v)
    for key in ("hand_sizes", "opened", "retrieved"):
        v[key] = spread(v[key])
    if "owners" in v:
        v["owners"] = [None if o is None else seats[o] for o in v["owners"]]
    v["current"] = seats[v["current"]]
    v["dealer"] = seats[v["dealer"]]
    if v.get("last"):
        v["last"] = dict(v["last"], seat=seats[v["last"]["seat"]])
    if v.get("outcome"):
        o = dict(v["outcome"])
        o["winners"] = [seats[w] for w in o["winners"]]
        for key in ("scores", "hands", "penalties"):
            o[key] = spread(o[key])
        v["outcome"] = o
    return v


def _register() -> None:
    from .registry import register_family

    register_family("manipulation", ManipulationMatch)


_register()
