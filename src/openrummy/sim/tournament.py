"""Mirrored tournaments between bots.

A tournament plays ``deals`` deals; each deal (one seeded shuffle) is played once per seat
rotation, the bots moving one seat to the left each time, so seat order and the luck of the
cards cancel out (a rotation that repeats an earlier seating, as with A,B,A,B, would repeat
its game and is skipped). Every game is a pure function of (spec, deal, rotation): the same seed
gives the same results on every backend and with any number of workers.

    >>> spec = TournamentSpec(game="robbers_s003", bots=("simple", "random"), deals=2, seed=1)
    >>> [job for job in spec.jobs()]
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    >>> result = run_game(spec, 0, 1)
    >>> result.seats, result.error
    (('random', 'simple'), None)
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from openrummy.bots import make_bot
from openrummy.games.families import new_match
from openrummy.games.manipulation import PlayRejected
from openrummy.rules import Rules, find_preset
from openrummy.rules.common import MatchFormat, ScoringMode

__all__ = ["GameResult", "TournamentSpec", "run_game"]


@dataclass(frozen=True)
class TournamentSpec:
    """What to play: the game, the bots in seat order, how many deals, the seed.

    ``unit``: ``"round"`` plays each deal as a single round (hand) of the game; ``"match"``
    plays the preset's whole match format (for example a pool-101 match).
    """

    game: str
    bots: tuple[str, ...]
    deals: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    unit: str = "round"
    max_actions: int = 100_000

    def rules(self) -> Any:
        overrides = dict(self.options)
        if self.unit == "round":
            base = find_preset(self.game, overrides)
            fmt = _single_unit_format(base)
            if fmt is not None:
                overrides["match.format"] = fmt
        elif self.unit != "match":
            raise ValueError(f"unit {self.unit!r}: use 'round' or 'match'")
        return find_preset(self.game, overrides)

    def validate(self) -> None:
        """Fail early, before any worker starts, on a bad game, option, seat count or bot."""
        if self.deals < 1:
            raise ValueError("a tournament needs at least one deal")
        rules = self.rules()
        check_players = getattr(rules, "check_players", None)
        if check_players is not None:
            check_players(self.players)
        for name in dict.fromkeys(self.bots):
            make_bot(name, rules, 0)

    @property
    def players(self) -> int:
        return len(self.bots)

    def rotations(self) -> tuple[int, ...]:
        """The seat rotations each deal is played at: every rotation whose seating is new.

        With a repeating bot list (A,B,A,B) rotation 2 seats the same bots in the same seats
        as rotation 0 and would replay the very same game (a game is a function of the
        seating, the deal and the seed), so it is played once: every bot still holds every
        seat once per deal, and the per-deal statistics are the same.
        """
        seatings: dict[tuple[str, ...], int] = {}
        for rotation in range(self.players):
            seatings.setdefault(self.seats_for(rotation), rotation)
        return tuple(seatings.values())

    def jobs(self) -> Iterator[tuple[int, int]]:
        rotations = self.rotations()
        for deal in range(self.deals):
            for rotation in rotations:
                yield deal, rotation

    def seats_for(self, rotation: int) -> tuple[str, ...]:
        """Bot names by seat at a rotation (rotation r: the bot list shifted r seats)."""
        n = self.players
        return tuple(self.bots[(seat - rotation) % n] for seat in range(n))

    def lower_is_better(self) -> bool:
        mode = getattr(self.rules().scoring, "mode", ScoringMode.PENALTY_LOW)
        return bool(mode is not ScoringMode.ZERO_SUM_HIGH)


def _single_unit_format(rules: Rules) -> str | None:
    """The match format that plays exactly one round (hand) of this family."""
    if rules.family == "manipulation":
        return MatchFormat.SINGLE_ROUND.value
    return MatchFormat.POINTS.value


@dataclass(frozen=True)
class GameResult:
    """One game of a tournament: one deal at one seat rotation."""

    deal: int
    rotation: int
    seats: tuple[str, ...]
    winners: tuple[int, ...] = ()
    scores: tuple[float, ...] = ()
    actions: int = 0
    error: str | None = None

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> GameResult:
        """A result as written by :meth:`to_json` (ValueError if it is not one)."""
        try:
            return GameResult(
                deal=int(data["deal"]),
                rotation=int(data["rotation"]),
                seats=tuple(str(x) for x in data["seats"]),
                winners=tuple(int(x) for x in data["winners"]),
                scores=tuple(float(x) for x in data["scores"]),
                actions=int(data["actions"]),
                error=None if data.get("error") is None else str(data["error"]),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a game result: {e}") from None

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "rotation": self.rotation,
            "seats": list(self.seats),
            "winners": list(self.winners),
            "scores": list(self.scores),
            "actions": self.actions,
            "error": self.error,
        }


def run_game(spec: TournamentSpec, deal: int, rotation: int) -> GameResult:
    """Play one game; never raises for a bot or engine error (it is reported in the result)."""
    seats = spec.seats_for(rotation)
    try:
        rules = spec.rules()
        match = new_match(rules, spec.players, seed=f"{spec.seed}/deal/{deal}")
        bots = [
            make_bot(name, rules, seed=spec.seed * 1_000_003 + deal * 101 + seat)
            for seat, name in enumerate(seats)
        ]
        n = 0
        while not match.is_over:
            if n >= spec.max_actions:
                raise RuntimeError(f"no result after {n} actions")
            seat = match.current
            action = bots[seat].choose(match.view(seat))
            try:
                match.apply(action)
            except PlayRejected:
                legal = match.legal_kinds()
                word = next(w for w in ("draw", "pass", "end") if w in legal)
                match.apply(match.parse_action(word, seat))
            n += 1
        outcome = match.outcome
        scores = tuple(float(s) for s in outcome.totals)
        return GameResult(deal, rotation, seats, tuple(outcome.winners), scores, n)
    except Exception as e:  # a crashing bot must not take the tournament down
        detail = "".join(traceback.format_exception_only(type(e), e)).strip()
        return GameResult(deal, rotation, seats, error=detail)
