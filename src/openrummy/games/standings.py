"""Match standings to start a match from: totals, outs, eliminated players, round number.

A match normally starts at round 0 with every total at 0. Puzzles, analysis and "what if"
questions need a match already under way (a pool player at 81 points, a Robbers' player who
has gone out twice), so both match classes take ``standings=``:

    >>> from openrummy.rules import find_preset
    >>> from openrummy.games.indian import IndianMatch
    >>> rules = find_preset("indian13", {"match.format": "POOL", "pool.threshold": 101})
    >>> m = IndianMatch(rules, 3, seed=1, standings=Standings(totals=(81, 40, 0), round=4))
    >>> m.totals, m.round_index
    ([81, 40, 0], 4)

Each match class checks that its standings are possible under its rules and raises
:class:`~openrummy.errors.ConfigError` naming what is wrong. Game records keep the standings
a match started from, so a replay reproduces it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openrummy.errors import ConfigError
from openrummy.games.jsonvalue import JsonObject

__all__ = ["Standings"]


@dataclass(frozen=True, slots=True)
class Standings:
    """Where a match stands before its next round.

    ``None`` for a per-seat field means "0 for everyone". ``round`` counts the rounds (hands)
    already played: a ``FIXED_HANDS`` match of 3 hands started at ``round=2`` plays one more.
    """

    totals: tuple[int, ...] | None = None
    """Each seat's match total (penalty points, or Rummikub's zero-sum points)."""
    outs: tuple[int, ...] | None = None
    """Manipulation games: how often each seat has gone out (``FIRST_TO_N_OUTS``)."""
    rounds_won: tuple[int, ...] | None = None
    """Manipulation games: rounds won (going out or winning a stalemate), the first tie-break."""
    eliminated: tuple[int, ...] = ()
    """Indian ``POOL``: the seats already out of the match, in the order they went."""
    round: int = 0
    """How many rounds (hands) have been played."""

    def __post_init__(self) -> None:
        for name in ("totals", "outs", "rounds_won", "eliminated"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
                raise ConfigError(f"standings {name}: give one whole number per seat")
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                raise ConfigError(f"standings {name}: {list(value)!r} holds a non-integer")
            object.__setattr__(self, name, tuple(value))
        if isinstance(self.round, bool) or not isinstance(self.round, int) or self.round < 0:
            raise ConfigError(f"standings round = {self.round!r}: a round number is 0 or more")

    @property
    def is_start(self) -> bool:
        """True for the standings of a fresh match (nothing played, nothing scored)."""
        per_seat = (self.totals, self.outs, self.rounds_won)
        return self.round == 0 and not self.eliminated and not any(any(v or ()) for v in per_seat)

    def per_seat(self, name: str, players: int) -> list[int]:
        """A per-seat field as a list of ``players`` numbers (zeros when not given)."""
        value: tuple[int, ...] | None = getattr(self, name)
        if value is None:
            return [0] * players
        if len(value) != players:
            raise ConfigError(
                f"standings {name}: {len(value)} numbers for {players} seats; give one per seat"
            )
        return list(value)

    def check_eliminated(self, players: int) -> None:
        seen: set[int] = set()
        for s in self.eliminated:
            if not 0 <= s < players:
                raise ConfigError(f"standings eliminated: {s} is not a seat (0 to {players - 1})")
            if s in seen:
                raise ConfigError(f"standings eliminated: seat {s} is listed twice")
            seen.add(s)

    # -- JSON -----------------------------------------------------------------------------
    def to_json(self) -> JsonObject:
        """Only the fields that differ from a fresh match."""
        out: JsonObject = {}
        for name in ("totals", "outs", "rounds_won"):
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value)
        if self.eliminated:
            out["eliminated"] = list(self.eliminated)
        if self.round:
            out["round"] = self.round
        return out

    @classmethod
    def from_json(cls, data: object) -> Standings:
        """Read :meth:`to_json`'s form; unknown keys or bad values raise ConfigError."""
        if isinstance(data, Standings):
            return data
        if not isinstance(data, Mapping):
            raise ConfigError(
                "standings are an object: totals, outs, rounds_won, eliminated, round"
            )
        known = {"totals", "outs", "rounds_won", "eliminated", "round"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(
                f"unknown standings field {unknown[0]!r}; use {', '.join(sorted(known))}"
            )
        return cls(
            totals=_seq(data.get("totals")),
            outs=_seq(data.get("outs")),
            rounds_won=_seq(data.get("rounds_won")),
            eliminated=_seq(data.get("eliminated")) or (),
            round=data.get("round", 0),
        )


def _seq(value: object) -> Any:
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise ConfigError(f"standings: {value!r} is not a list of numbers")
    return tuple(value)
