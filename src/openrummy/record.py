"""Game records: options + players + seed (or stacked decks) + actions, as JSON; replay.

A record is everything needed to reproduce a match exactly: the preset and the options that
differ from it, the seat names, the seed (or the decks in draw order), and every applied
action with its time stamp. The format is documented in ``docs/record-format.md``.

    >>> from openrummy.rules import find_preset
    >>> from openrummy.games.families import new_match
    >>> from openrummy.bots import SimpleBot, play_match
    >>> rules = find_preset("robbers_s003")
    >>> match = new_match(rules, 2, seed=4)
    >>> _ = play_match(match, [SimpleBot(rules), SimpleBot(rules)])
    >>> record = GameRecord.from_match(match, ["ann", "bob"])
    >>> again = GameRecord.loads(record.dumps()).replay()
    >>> again.outcome == match.outcome
    True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openrummy.cards import Card
from openrummy.errors import ConfigError, NotationError, RecordError, RummyError
from openrummy.games.actions import Action, action_from_json, action_to_json
from openrummy.games.families import Match, new_match
from openrummy.games.indian import IndianResult
from openrummy.games.manipulation import Result
from openrummy.rules import Rules, find_preset

__all__ = ["FORMAT", "VERSION", "GameRecord", "load_record"]

FORMAT = "openrummy-record"
VERSION = 1


@dataclass
class GameRecord:
    """A complete, replayable record of a match."""

    game: str
    players: list[str]
    seed: int | str
    options: dict[str, Any] = field(default_factory=dict)
    decks: list[list[str]] | None = None
    first_dealer: int | None = None
    started_at: float | None = None
    standings: dict[str, Any] | None = None
    """The standings the match started from (``Standings.to_json()``), when not a fresh match."""
    actions: list[Action] = field(default_factory=list)
    result: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    # -- building -------------------------------------------------------------------------
    @classmethod
    def from_match(
        cls,
        match: Match,
        players: Sequence[str] | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
    ) -> GameRecord:
        rules = match.rules
        base = find_preset(rules.name)
        overrides = {k: mine for k, (mine, _) in rules.describe_differences(base).items()}
        outcome = match.outcome
        start = getattr(match, "start_standings", None)
        return cls(
            game=rules.name,
            players=list(players)
            if players is not None
            else [f"seat {i}" for i in range(match.players)],
            seed=match.seed,
            options=overrides,
            decks=[[str(c) for c in d] for d in match.decks] or None,
            first_dealer=match.first_dealer,
            started_at=match.started_at,
            standings=start.to_json() if start is not None and not start.is_start else None,
            actions=list(match.history),
            result=outcome.to_json() if outcome is not None else None,
            meta=dict(meta or {}),
        )

    def rules(self) -> Rules:
        try:
            return find_preset(self.game, self.options)
        except ConfigError as e:
            raise RecordError(f"the record's rules cannot be built: {e}") from e

    def new_match(self, *, clock: Callable[[], float] | None = None) -> Match:
        """The match as dealt, before any action."""
        rules = self.rules()
        try:
            decks = [[Card.parse(c) for c in d] for d in self.decks] if self.decks else None
        except NotationError as e:
            raise RecordError(f"bad card in a stacked deck: {e}") from e
        try:
            return new_match(
                rules,
                len(self.players),
                seed=self.seed,
                decks=decks,
                first_dealer=self.first_dealer,
                clock=clock,
                started_at=self.started_at,
                standings=self.standings or None,
            )
        except RummyError as e:
            raise RecordError(f"the record's match cannot be set up: {e}") from e

    def replay(
        self,
        *,
        on_action: Callable[[int, Action, Result | IndianResult], None] | None = None,
        check_result: bool = True,
    ) -> Match:
        """Re-apply every action; raises :class:`RecordError` at the first that fails."""
        match = self.new_match()
        for i, action in enumerate(self.actions):
            try:
                result = match.apply(action)
            except RummyError as e:
                raise RecordError(
                    f"action {i} (seat {action.seat}: {action}) does not replay: {e}"
                ) from e
            if on_action is not None:
                on_action(i, action, result)
        outcome = match.outcome
        if check_result and self.result is not None:
            got = outcome.to_json() if outcome is not None else None
            if got is not None:
                # What a newer engine adds to an outcome (such as ``decision``) is not in an
                # older record: compare what the record says.
                got = {k: v for k, v in got.items() if k in self.result}
            if got != self.result:
                raise RecordError(
                    f"the replay ends differently from the record: recorded {self.result}, replayed {got}"
                )
        return match

    # -- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "decks": self.decks,
            "first_dealer": self.first_dealer,
            "started_at": self.started_at,
            "meta": self.meta,
            "actions": [action_to_json(a) for a in self.actions],
            "result": self.result,
        }
        if self.standings:
            out["standings"] = self.standings
        return out

    def dumps(self) -> str:
        """JSON text with one action per line, so records diff well."""
        head = self.to_json()
        actions = head.pop("actions")
        result = head.pop("result")
        lines = [json.dumps(a, ensure_ascii=False) for a in actions]
        body = ",\n    ".join(lines)
        text = json.dumps(head, ensure_ascii=False, indent=2)[:-2]
        text += f',\n  "actions": [\n    {body}\n  ],\n  "result": {json.dumps(result)}\n}}\n'
        return text

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(
                f"not an OpenRummy record (format {data.get('format')!r}, expected {FORMAT!r})"
            )
        if data.get("version") != VERSION:
            raise RecordError(
                f"record version {data.get('version')!r} is not supported (this is {VERSION})"
            )
        try:
            game = _typed(data, "game", str)
            players = _typed(data, "players", list)
            seed = data["seed"]
            actions_raw = _typed(data, "actions", list)
        except KeyError as e:
            raise RecordError(f"the record has no {e.args[0]!r}") from e
        if not all(isinstance(p, str) for p in players) or len(players) < 2:
            raise RecordError("'players' must list at least two names")
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise RecordError(f"bad seed {seed!r}")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("'options' must be an object")
        decks = data.get("decks")
        if decks is not None and not (
            isinstance(decks, list)
            and all(isinstance(d, list) and all(isinstance(c, str) for c in d) for d in decks)
        ):
            raise RecordError("'decks' must be a list of card lists")
        first_dealer = data.get("first_dealer")
        if first_dealer is not None and (
            not isinstance(first_dealer, int) or isinstance(first_dealer, bool)
        ):
            raise RecordError("'first_dealer' must be a seat number")
        started_at = data.get("started_at")
        if started_at is not None and not isinstance(started_at, (int, float)):
            raise RecordError("'started_at' must be a number")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("'result' must be an object")
        meta = data.get("meta") or {}
        standings = data.get("standings")
        if standings is not None and not isinstance(standings, dict):
            raise RecordError("'standings' must be an object")
        return cls(
            game=game,
            players=players,
            seed=seed,
            options=options,
            decks=decks,
            first_dealer=first_dealer,
            started_at=None if started_at is None else float(started_at),
            standings=standings or None,
            actions=[action_from_json(a) for a in actions_raw],
            result=result,
            meta=meta if isinstance(meta, dict) else {},
        )

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"the record is not valid JSON: {e}") from e
        return cls.from_json(data)


def _typed(data: Mapping[str, Any], key: str, kind: type) -> Any:
    value = data[key]
    if not isinstance(value, kind):
        raise RecordError(f"{key!r} must be a {kind.__name__}")
    return value


def load_record(path: str | Path) -> GameRecord:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise RecordError(f"{path} is not UTF-8 text") from e
    return GameRecord.loads(text)
