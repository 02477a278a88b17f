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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from openrummy.cards import Card
from openrummy.errors import ConfigError
from openrummy.messages import Reason
from openrummy.rules.common import FirstDealer, FirstPlayer, MatchFormat, ScoringMode
from openrummy.rules.manipulation import ManipulationRules

from .jsonvalue import JsonObject
from .manipulation import ManipulationGame, Result, Termination, cut_for_dealer
from .rounds import RoundsMatch, RoundSummary
from .standings import Standings
from .views import ManipulationStandings, ManipulationView

__all__ = ["ManipulationMatch", "MatchOutcome", "RoundSummary"]


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    rounds_won: tuple[int, ...]
    outs: tuple[int, ...]
    decision: Reason
    """How the winner was found (``decision.lowest_total``, ``decision.first_to_outs``, …)."""

    @property
    def decided_by(self) -> str:
        """How the winner was found, in English words ("lowest total", …)."""
        return str(self.decision)

    def to_json(self) -> JsonObject:
        return {
            "winners": list(self.winners),
            "totals": list(self.totals),
            "rounds_won": list(self.rounds_won),
            "outs": list(self.outs),
            "decided_by": self.decided_by,
            "decision": self.decision.to_json(),
        }


class ManipulationMatch(
    RoundsMatch[ManipulationGame, Result, ManipulationView, ManipulationStandings]
):
    """A match of Robbers' Rummy, Rummikub or Vatikan: rounds until the format decides.

    ``decks`` optionally stacks the deck of each round (in draw order) for reproducible
    scenarios; rounds beyond the list are shuffled from the seed. ``standings`` starts the
    match under way (totals, outs, rounds won, rounds played); see
    :class:`~openrummy.games.standings.Standings`.
    """

    per_seat_view_keys = ("hand_sizes", "opened", "retrieved")
    per_seat_outcome_keys = ("scores", "hands", "penalties")

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
        standings: Standings | Mapping[str, object] | None = None,
    ) -> None:
        start = Standings.from_json(standings) if standings is not None else Standings()
        _check_standings(rules, players, start)
        self.start_standings = start
        """The standings this match started from (recorded in game records)."""
        self.totals = start.per_seat("totals", players)
        self.rounds_won = start.per_seat("rounds_won", players)
        self.outs = start.per_seat("outs", players)
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
        self.rules: ManipulationRules = rules
        self.outcome: MatchOutcome | None

    def _cut_for_dealer(self, rng: random.Random) -> int:
        rules = self.rules
        if rules.deal.first_player is FirstPlayer.HIGHEST_TILE:
            starter = cut_for_dealer(rng, self.players, FirstDealer.HIGH_CUT, tiles=True)
            return (starter - 1) % self.players
        return cut_for_dealer(rng, self.players, rules.deal.first_dealer, tiles=rules.tiles)

    def _new_round(
        self,
        rules: ManipulationRules,
        players: int,
        *,
        seed: str,
        deck: Sequence[Card] | None,
        dealer: int,
        started_at: float | None,
    ) -> ManipulationGame:
        return ManipulationGame(
            rules,
            players,
            seed=seed,
            deck=deck,
            dealer=dealer,
            clock=self.clock,
            started_at=started_at,
        )

    def _higher_is_better(self) -> bool:
        return self.rules.scoring.mode is ScoringMode.ZERO_SUM_HIGH

    def _record_round(self, summary: RoundSummary) -> None:
        outcome = summary.outcome
        for i, s in enumerate(summary.seats):
            self.totals[s] += outcome.scores[i]
        for w in outcome.winners:
            self.rounds_won[summary.seats[w]] += 1
            if outcome.termination is Termination.OUT:
                self.outs[summary.seats[w]] += 1

    def _decide(self, summary: RoundSummary) -> tuple[tuple[int, ...], Reason] | None:
        fmt = self.rules.match.format
        high = self._higher_is_better()
        if fmt is MatchFormat.SINGLE_ROUND:
            return summary.winners(), Reason.of("decision.single_round")
        if fmt is MatchFormat.FIRST_TO_N_OUTS:
            n = self.rules.match.outs_to_win
            reached = tuple(s for s in range(self.players) if self.outs[s] >= n)
            return (reached, Reason.of("decision.first_to_outs", outs=n)) if reached else None
        target = self.rules.match.target_score
        if target is not None and fmt is MatchFormat.ROUNDS_HIGHEST_TOTAL:
            if max(self.totals) < target:
                return None
        elif self.round_index < self.rules.match.rounds:
            return None
        best = (max if high else min)(self.totals)
        tied = [s for s in range(self.players) if self.totals[s] == best]
        if len(tied) == 1:
            return (tied[0],), Reason.of(
                "decision.highest_total" if high else "decision.lowest_total"
            )
        most = max(self.rounds_won[s] for s in tied)
        tied = [s for s in tied if self.rounds_won[s] == most]
        if len(tied) == 1:
            return (tied[0],), Reason.of("decision.most_rounds_won")
        self._tie_break(tied)
        return None

    def _finish(self, winners: tuple[int, ...], how: Reason) -> MatchOutcome:
        return MatchOutcome(
            winners, tuple(self.totals), tuple(self.rounds_won), tuple(self.outs), how
        )

    def _standings(self) -> ManipulationStandings:
        return ManipulationStandings(
            **self._standings_base(),
            rounds=self.rules.match.rounds,
            totals=tuple(self.totals),
            rounds_won=tuple(self.rounds_won),
            outs=tuple(self.outs),
        )


def _check_standings(rules: ManipulationRules, players: int, start: Standings) -> None:
    """Raise ConfigError unless ``start`` can occur in a match of ``rules``."""
    totals = start.per_seat("totals", players)
    outs = start.per_seat("outs", players)
    won = start.per_seat("rounds_won", players)
    if start.is_start:
        return
    fmt, r = rules.match.format, start.round
    if fmt is MatchFormat.SINGLE_ROUND:
        raise ConfigError("match.format = SINGLE_ROUND is a single round: it has no standings")
    if start.eliminated:
        raise ConfigError(
            "standings eliminated: nobody is eliminated in Robbers' Rummy or Rummikub"
        )
    for s in range(players):
        if outs[s] < 0 or won[s] < 0:
            raise ConfigError(f"standings: seat {s} has a negative count of outs or rounds won")
        if outs[s] > won[s] and start.rounds_won is not None:
            raise ConfigError(
                f"standings: seat {s} went out {outs[s]} times but won only {won[s]} rounds"
            )
    if sum(outs) > r:
        raise ConfigError(
            f"standings: {sum(outs)} outs in {r} rounds played; at most one player goes out "
            "a round (give the round number)"
        )
    if any(w > r for w in won):
        raise ConfigError(f"standings rounds_won: nobody wins more than the {r} rounds played")
    mode = rules.scoring.mode
    if mode is ScoringMode.ZERO_SUM_HIGH and sum(totals) != 0:
        raise ConfigError(
            f"standings totals sum to {sum(totals)}; scoring.mode = ZERO_SUM_HIGH keeps them at 0"
        )
    if mode is ScoringMode.NONE and any(totals):
        raise ConfigError("standings totals: scoring.mode = NONE keeps no scores")
    if mode is ScoringMode.PENALTY_LOW and rules.scoring.joker_retrieval_bonus == 0:
        for s, t in enumerate(totals):
            if t < 0:
                raise ConfigError(
                    f"standings totals: seat {s} has {t}; penalty totals are 0 or more"
                )
    if fmt is MatchFormat.FIRST_TO_N_OUTS:
        n = rules.match.outs_to_win
        done = [s for s in range(players) if outs[s] >= n]
        if done:
            raise ConfigError(
                f"standings outs: seat {done[0]} has gone out {outs[done[0]]} times; "
                f"match.outs_to_win = {n} would have ended the match"
            )
        return
    target = rules.match.target_score
    if target is not None and fmt is MatchFormat.ROUNDS_HIGHEST_TOTAL:
        if max(totals) >= target:
            raise ConfigError(
                f"standings totals reach match.target_score = {target}: the match would be over"
            )
    elif r >= rules.match.rounds:
        raise ConfigError(
            f"standings round = {r}: a match of match.rounds = {rules.match.rounds} would be over"
        )
