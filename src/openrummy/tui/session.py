"""A local game: one match, a person in one seat (or nobody: watching), bots in the others.

The session is the app's only way to the engine: it asks a seat's typed view, applies the
person's actions, lets the bots choose from their own views, keeps the events as data
(rendered through the message catalogue) and saves the match as a game record.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from openrummy.bots import make_bot
from openrummy.bots.base import Bot
from openrummy.errors import IllegalActionError, RecordError, RummyError
from openrummy.events import Event
from openrummy.games.actions import Action, ActionKind
from openrummy.games.families import Match, new_match
from openrummy.games.indian import IndianMatch
from openrummy.games.judge import PlayChecker
from openrummy.games.manipulation import ManipulationGame, PlayRejected
from openrummy.games.views import IndianView, ManipulationView
from openrummy.messages import render
from openrummy.record import GameRecord
from openrummy.rules import ManipulationRules, Rules, find_preset

from .text import bot_name, t

__all__ = [
    "TUI_META",
    "HintJob",
    "LocalSession",
    "Session",
    "Setup",
    "TurnClock",
    "plays_tiles",
    "turn_clock",
]

TUI_META = "tui"
"""The key of a record's ``meta`` under which the app keeps who plays which seat."""


HintJob = Callable[[], Action | None]
"""The solver's play for the position it was made from (safe to run off the main thread)."""


@dataclass(frozen=True, slots=True)
class TurnClock:
    """The turn timer of the seat to move (options ``turn.time_limit_s``, ``turn.time_bank_s``)."""

    seat: int
    turn: float
    """Seconds left of the turn's own time."""
    bank: float | None
    """Seconds left in the seat's time bank (``None``: the game has no bank)."""

    @property
    def left(self) -> float:
        """Seconds until the turn is played for the seat."""
        return self.turn + (self.bank or 0.0)


def turn_clock(view: ManipulationView | IndianView, left: float | None) -> TurnClock | None:
    """Split ``left`` (the view's ``time_left``, or what is left of it now) into the turn's
    own time and the bank: the bank is spent only once the turn's time has run out."""
    if left is None:
        return None
    left = max(0.0, left)
    banks = view.time_bank if isinstance(view, IndianView) else None
    if not banks or banks[view.current] is None:
        return TurnClock(view.current, left, None)
    bank = float(banks[view.current] or 0.0)
    return TurnClock(view.current, max(0.0, left - bank), min(bank, left))


class Session(Protocol):
    """What a table screen needs of a game: a local match (:class:`LocalSession`) or a seat at
    a server table (:class:`~openrummy.tui.remote.RemoteSession`)."""

    lang: str
    names: list[str]
    log: list[str]
    events: list[Event]

    @property
    def rules(self) -> Rules: ...

    @property
    def remote(self) -> bool: ...

    @property
    def human(self) -> int | None: ...

    @property
    def is_indian(self) -> bool: ...

    @property
    def tiles(self) -> bool:
        """Whether the game is played with tiles (Rummikub): its words say tile and rack."""
        ...

    @property
    def over(self) -> bool: ...

    @property
    def bot_to_move(self) -> bool: ...

    @property
    def my_turn(self) -> bool: ...

    def view(self) -> ManipulationView | IndianView: ...

    def legal(self) -> frozenset[ActionKind]: ...

    def act(self, text: str) -> tuple[bool, list[str]]:
        """Do the person's action in notation; (accepted, the lines to show). An illegal
        action changes nothing and comes back as its reason in words. A remote session
        sends it and answers (True, []): the server's answer comes later."""
        ...

    def play_checker(self) -> tuple[PlayChecker, int] | None:
        """What judges a whole play before it is made, and the person's seat in it."""
        ...

    def turn_clock(self) -> TurnClock | None:
        """The turn timer of the seat to move now (``None``: no timer, or no turn running)."""
        ...

    def hint_job(self) -> HintJob: ...

    def save(self, path: Path) -> None: ...


@dataclass(frozen=True, slots=True)
class Setup:
    """What ``rummy play`` was asked for: the preset and options, the seats, the seed."""

    game: str = "rummikub"
    options: dict[str, str] = field(default_factory=dict)
    players: int = 2
    bots: tuple[str, ...] = ("greedy",)
    """One bot kind per other seat (or one for all of them)."""
    seed: int = 1
    human: bool = True
    """False: watch bots only (``--watch``)."""
    name: str | None = None
    """The person's name in the events (default: the catalogue's word for a player)."""

    def rules(self) -> Rules:
        return find_preset(self.game, self.options)

    def seat_kinds(self) -> list[str | None]:
        """Per seat: ``None`` for the person (seat 0), else the bot's kind."""
        others = self.players - 1 if self.human else self.players
        kinds = list(self.bots)
        if len(kinds) == 1:
            kinds *= others
        if len(kinds) != others:
            raise RummyError(f"--vs names {len(kinds)} bots for {others} seats")
        return ([None] if self.human else []) + list(kinds)


class LocalSession:
    """One local match and its seats; every change goes through :meth:`apply`."""

    def __init__(
        self,
        setup: Setup,
        lang: str = "en",
        *,
        match: Match | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.setup = setup
        self.clock = clock
        """The turn timer's clock (seconds); the engine stamps every action with it."""
        self.lang = lang
        self.rules: Rules = match.rules if match is not None else setup.rules()
        self.kinds = setup.seat_kinds()
        self.bots: list[Bot | None] = [
            None if k is None else make_bot(k, self.rules, setup.seed * 100 + i)
            for i, k in enumerate(self.kinds)
        ]
        self.match: Match = (
            match
            if match is not None
            else new_match(self.rules, setup.players, seed=setup.seed, clock=self._timer_clock())
        )
        self.names = [
            (setup.name or t("ui.you", lang)) if k is None else bot_name(i, k, lang)
            for i, k in enumerate(self.kinds)
        ]
        self.log: list[str] = []
        """Every event so far in words, oldest first."""
        self.events: list[Event] = []

    def _timer_clock(self) -> Callable[[], float] | None:
        """The clock the match runs on: only a game with a turn timer has one (without, the
        record holds no times, as before)."""
        return self.clock if self.rules.turn.time_limit_s is not None else None

    # -- seats ---------------------------------------------------------------------------------
    @property
    def remote(self) -> bool:
        return False

    @property
    def human(self) -> int | None:
        """The person's seat (``None`` when only bots play)."""
        return 0 if self.setup.human else None

    @property
    def is_indian(self) -> bool:
        return isinstance(self.match, IndianMatch)

    @property
    def tiles(self) -> bool:
        return plays_tiles(self.rules)

    @property
    def over(self) -> bool:
        return self.match.outcome is not None

    @property
    def bot_to_move(self) -> bool:
        return not self.over and self.bots[self.match.current] is not None

    @property
    def my_turn(self) -> bool:
        return not self.over and self.human is not None and self.match.current == self.human

    def view(self) -> ManipulationView | IndianView:
        """The view of the person's seat (a spectator's when only bots play)."""
        return self.match.view(self.human)

    def legal(self) -> frozenset[ActionKind]:
        return self.match.legal_kinds() if self.my_turn else frozenset()

    # -- acting --------------------------------------------------------------------------------
    def apply(self, action: Action) -> tuple[bool, list[str]]:
        """Apply an action; (accepted, the lines to show). An illegal action changes nothing
        and comes back as its reason in words."""
        try:
            result = self.match.apply(action)
        except IllegalActionError as e:
            reason = reason_text(e, self.lang, self.names, tiles=self.tiles)
            return False, [t("ui.not_allowed", self.lang, reason=reason)]
        lines = []
        for event in result.events:
            self.events.append(event)
            lines.append(render(event, self.lang, self.names, tiles=self.tiles))
        self.log.extend(lines)
        return bool(result.accepted), lines

    def act(self, text: str) -> tuple[bool, list[str]]:
        try:
            action = self.parse(text)
        except RummyError as e:
            reason = reason_text(e, self.lang, tiles=self.tiles)
            return False, [t("ui.not_allowed", self.lang, reason=reason)]
        return self.apply(action)

    def play_checker(self) -> tuple[PlayChecker, int] | None:
        game = self.match.game
        if not isinstance(game, ManipulationGame):
            return None
        return game, self.match.seats.index(self.human or 0)

    def turn_clock(self) -> TurnClock | None:
        if self.over or self.rules.turn.time_limit_s is None:
            return None
        view = self.match.view(self.human)
        return turn_clock(view, view.time_left)

    def time_out(self) -> list[str] | None:
        """When the person's turn time and bank have run out, the turn is played for them,
        as the server's timer does (RULES.md: the game's timeout); the lines to show, or
        ``None`` while there is time left."""
        clock = self.turn_clock()
        if clock is None or clock.left > 0 or not self.my_turn:
            return None
        if ActionKind.TIMEOUT not in self.match.legal_kinds():
            return None
        return self.apply(self.match.parse_action("timeout", self.human))[1]

    def hint_job(self) -> HintJob:
        match = self.match.copy()
        return lambda: next(iter(match.candidate_plays(limit=1)), None)

    def parse(self, text: str) -> Action:
        return self.match.parse_action(text, self.human)

    def bot_choice(self) -> Action:
        """The bot to move chooses from its own view (safe to run off the main thread)."""
        seat = self.match.current
        bot = self.bots[seat]
        assert bot is not None
        return bot.choose(self.match.view(seat))

    def apply_bot(self, action: Action) -> list[str]:
        try:
            return self.apply(action)[1]
        except PlayRejected:
            legal = self.match.legal_kinds()
            word = next(w for w in ("draw", "pass", "end") if w in legal)
            return self.apply(self.match.parse_action(word, action.seat))[1]

    def step_bot(self) -> list[str]:
        """Let the bot to move play one action."""
        return self.apply_bot(self.bot_choice())

    # -- records -------------------------------------------------------------------------------
    def record(self) -> GameRecord:
        meta = {TUI_META: {"kinds": list(self.kinds), "seed": self.setup.seed, "lang": self.lang}}
        return GameRecord.from_match(self.match, self.names, meta=meta)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.record().dumps(), encoding="utf-8")

    @classmethod
    def resume(cls, path: Path, lang: str = "en") -> LocalSession:
        """A saved game, replayed to where it was saved; :class:`RecordError` if it cannot be."""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise RecordError(f"{path}: cannot read ({e.strerror})") from None
        record = GameRecord.loads(text)
        match = record.replay(check_result=False)
        meta: Any = record.meta.get(TUI_META) or {}
        kinds: Sequence[str | None] = meta.get("kinds") or [None] + ["greedy"] * (
            len(record.players) - 1
        )
        human = kinds[0] is None
        bots = tuple(str(k) for k in kinds if k is not None)
        setup = Setup(
            game=record.game,
            options={k: _option_text(v) for k, v in record.options.items()},
            players=len(record.players),
            bots=bots,
            seed=int(meta.get("seed", 1)),
            human=human,
            name=record.players[0] if human else None,
        )
        session = cls(setup, lang, match=match)
        session.restart_clock()
        return session

    def restart_clock(self) -> None:
        """A resumed game with a turn timer: the turn to move starts now, with the time
        banks as they were saved (the time between saving and resuming is nobody's)."""
        clock = self._timer_clock()
        if clock is None:
            return
        self.match.clock = clock
        self.match.game.clock = clock
        self.match.game.turn_started_at = clock()


def reason_text(
    error: RummyError, lang: str, names: Sequence[str] | None = None, *, tiles: bool = False
) -> str:
    """Why ``error`` was raised, in ``lang`` (its reason through the catalogue, in its tile
    form at a tile table)."""
    return render(error.why, lang, names, tiles=tiles) if error.why is not None else str(error)


def plays_tiles(rules: Rules) -> bool:
    """Whether a game of ``rules`` is played with tiles (Rummikub): its words say tile."""
    return isinstance(rules, ManipulationRules) and rules.tiles


def _option_text(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, str):
        return value
    return json.dumps(value)
