"""A seat at a server table: the same WebSocket protocol as the browser (``docs/protocol.md``).

:class:`RemoteSession` is the app's way to a game that a server runs: it says ``hello`` with
the seat token, keeps the latest typed view (:func:`~openrummy.games.views.view_from_json`),
sends the person's actions in notation, words the server's events and errors through the
message catalogue, and reconnects with backoff when the connection drops. What the app
must show (a new view, a line, the connection's state) goes to a :class:`Listener`.

A whole play is judged before it is sent, as locally: the commit checks run on the view
(:class:`ViewChecker`), and the solver's hint works from the view too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import websockets
from websockets.exceptions import InvalidURI, WebSocketException

from openrummy.errors import RummyError
from openrummy.events import Event
from openrummy.games.actions import Action, ActionKind, Play, parse_action
from openrummy.games.commit import Violation, analyze_play
from openrummy.games.judge import PlayChecker
from openrummy.games.views import IndianView, ManipulationView, view_from_json
from openrummy.messages import render
from openrummy.rules import ManipulationRules, Rules, find_preset

from .session import HintJob, TurnClock, plays_tiles, reason_text, turn_clock
from .text import bot_name, t

__all__ = ["BACKOFF", "Listener", "RemoteSession", "Target", "ViewChecker", "parse_target"]

BACKOFF: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0)
"""Seconds before each attempt to reconnect (the last one repeats)."""

OPEN_TIMEOUT = 10.0
"""Seconds a connection may take to open before it counts as failed."""

# Errors after which asking again with the same token or table cannot help.
_FATAL = frozenset({"bad_token", "not_found", "unsupported_version"})


@dataclass(frozen=True, slots=True)
class Target:
    """Where the table is: the server's base URL and the table's id."""

    server: str
    """``http://host:port`` (``https`` for a server behind TLS)."""
    table: str

    @property
    def ws_url(self) -> str:
        scheme, rest = self.server.split("://", 1)
        return ("wss" if scheme == "https" else "ws") + "://" + rest + f"/ws/tables/{self.table}"


def parse_target(server: str | None, table: str | None, link: str | None) -> Target:
    """The table to join from ``--server URL --table ID`` or ``--link`` (the browser's table
    link, ``http://host:port/#/t/ID``); :class:`RummyError` saying what is missing."""
    if link is not None:
        parts = urlsplit(link.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise RummyError(f"--link {link}: a table link looks like http://HOST:PORT/#/t/ID")
        route = parts.fragment.strip("/").split("/")
        if len(route) < 2 or route[0] != "t" or not route[1]:
            raise RummyError(f"--link {link}: a table link ends in #/t/ID")
        found = route[1]
        if table is not None and table != found:
            raise RummyError(f"--table {table} and --link (table {found}) disagree")
        return Target(f"{parts.scheme}://{parts.netloc}", found)
    if server is None or table is None:
        raise RummyError("a server table needs --server URL and --table ID (or --link URL)")
    base = server.strip().rstrip("/")
    if "://" not in base:
        base = "http://" + base
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise RummyError(f"--server {server}: use http://HOST:PORT")
    return Target(f"{parts.scheme}://{parts.netloc}", table.strip())


class Listener(Protocol):
    """What the app does with what the session hears."""

    def remote_view(self, lines: list[str], accepted: bool | None) -> None:
        """A new view (and the lines to show; ``accepted`` for the person's own action)."""

    def remote_state(self, text: str, style: str) -> None:
        """The connection's state in words (connecting, lost, back), or a refusal."""

    def remote_failed(self, text: str) -> None:
        """The table cannot be played with what was given (wrong token, no such table)."""


class ViewChecker:
    """The commit checks of a whole play (RULES.md §2.2), run on the person's view: what
    ``ManipulationGame.check_play`` says, without the game."""

    def __init__(self, rules: ManipulationRules, view: ManipulationView) -> None:
        self.rules, self.view = rules, view

    def check_play(self, play: Play) -> list[Violation]:
        v = self.view
        seat = v.seat if v.seat is not None else 0
        opened = bool(v.opened[seat])
        return analyze_play(
            self.rules,
            table_before=v.table,
            hand=v.hand or (),
            table_after=play.table,
            opened=opened,
            retrievals=play.retrievals,
            mover=seat,
            owners_before=v.owners,
            opened_before_turn=opened,
        ).violations


def _hint(rules: ManipulationRules, view: ManipulationView) -> Action | None:
    from openrummy.solve.table import best_play

    seat = view.seat if view.seat is not None else 0
    try:
        best = best_play(
            rules, view.table, view.hand or (), opened=bool(view.opened[seat]), keep_melds=False
        )
    except RummyError:
        return None
    if not best.count:
        return None
    play = Play(seat, tuple(best.table))
    return None if ViewChecker(rules, view).check_play(play) else play


class RemoteSession:
    """One seat (or a spectator's place) at a server table, over its WebSocket."""

    def __init__(
        self,
        target: Target,
        lang: str = "en",
        *,
        token: str | None = None,
        name: str | None = None,
        backoff: Sequence[float] = BACKOFF,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.target = target
        self.clock = clock
        """Measures how long ago the latest view came (its ``time_left`` counts down from
        then: no comparison with the server's clock)."""
        self._view_at = 0.0
        self.lang = lang
        self.token = token
        self.name = name
        self.backoff = tuple(backoff)
        self.names: list[str] = []
        self.log: list[str] = []
        self.events: list[Event] = []
        self.seat: int | None = None
        self.table: dict[str, Any] = {}
        self.seq = 0
        self.listener: Listener | None = None
        self.closed = False
        self.welcomed = False
        """A welcome has come on the current connection."""
        self.connections = 0
        """Connections that were welcomed so far (more than one: it reconnected)."""
        self._rules: Rules | None = None
        self._view: ManipulationView | IndianView | None = None
        self._ws: Any = None
        self._ids = 0
        self._pending: dict[str, str] = {}
        """The actions sent and not yet answered, by message id."""
        self.said: list[str] = []
        """What the session told the person about the connection so far, oldest first."""

    # -- the Session interface ---------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        if self._rules is None:
            raise LookupError("no welcome yet: the rules are not known")
        return self._rules

    @property
    def remote(self) -> bool:
        return True

    @property
    def human(self) -> int | None:
        return self.seat

    @property
    def ready(self) -> bool:
        """A view has come: the table can be shown."""
        return self._view is not None and self._rules is not None

    @property
    def is_indian(self) -> bool:
        return isinstance(self._view, IndianView)

    @property
    def tiles(self) -> bool:
        return self._rules is not None and plays_tiles(self._rules)

    @property
    def over(self) -> bool:
        v = self._view
        if v is not None and v.match is not None and v.match.outcome is not None:
            return True
        return self.table.get("status") in ("finished", "closed")

    @property
    def bot_to_move(self) -> bool:
        return False  # the server plays its bots

    @property
    def my_turn(self) -> bool:
        v = self._view
        return v is not None and not self.over and self.seat is not None and v.current == self.seat

    def view(self) -> ManipulationView | IndianView:
        if self._view is None:
            raise LookupError("no view yet")
        return self._view

    def legal(self) -> frozenset[ActionKind]:
        return self.view().legal if self.my_turn else frozenset()

    def act(self, text: str) -> tuple[bool, list[str]]:
        if self.seat is None:
            return False, [t("ui.remote_watching", self.lang)]
        try:
            parse_action(text, seat=self.seat)
        except RummyError as e:
            return False, [
                t("ui.not_allowed", self.lang, reason=reason_text(e, self.lang, tiles=self.tiles))
            ]
        ws = self._ws
        if ws is None or not self.welcomed:
            return False, [t("ui.remote_offline", self.lang)]
        self._ids += 1
        ident = f"a{self._ids}"
        self._pending[ident] = text
        message = {"type": "action", "id": ident, "seq": self.seq, "action": text}
        asyncio.get_running_loop().create_task(self._send(ws, message))
        return True, []

    def play_checker(self) -> tuple[PlayChecker, int] | None:
        v = self._view
        rules = self._rules
        if not isinstance(v, ManipulationView) or not isinstance(rules, ManipulationRules):
            return None
        return ViewChecker(rules, v), v.seat if v.seat is not None else 0

    def turn_clock(self) -> TurnClock | None:
        v = self._view
        if v is None or v.time_left is None or self.over:
            return None
        return turn_clock(v, v.time_left - (self.clock() - self._view_at))

    def _set_view(self, data: Any) -> None:
        self._view = view_from_json(data)
        self._view_at = self.clock()

    def hint_job(self) -> HintJob:
        v = self._view
        rules = self._rules
        if not isinstance(v, ManipulationView) or not isinstance(rules, ManipulationRules):
            return lambda: None
        return lambda: _hint(rules, v)

    def save(self, path: Path) -> None:
        raise OSError(t("ui.remote_record", self.lang, url=self.record_url))

    @property
    def record_url(self) -> str:
        return f"{self.target.server}/api/tables/{self.target.table}/record"

    # -- the connection ----------------------------------------------------------------------
    async def run(self) -> None:
        """Connect, play, reconnect after a drop (with backoff) until closed or refused."""
        if self.token is None:
            await self._join()
        failures = 0
        while not self.closed:
            if not failures:  # after a failure its message stays up: "trying again in N s"
                self._say_state("ui.remote_connecting")
            try:
                async with websockets.connect(
                    self.target.ws_url, open_timeout=OPEN_TIMEOUT, max_size=2**22
                ) as ws:
                    self._ws = ws
                    await ws.send(json.dumps({"type": "hello", "v": 2, "token": self.token}))
                    async for raw in ws:
                        if self._receive(raw):
                            failures = 0
                        if self.closed:
                            return
            except (OSError, TimeoutError, WebSocketException) as e:
                if isinstance(e, InvalidURI):
                    self._fail(t("ui.remote_bad_url", self.lang, url=self.target.server))
                    return
            finally:
                self._ws = None
                self.welcomed = False
                self._pending.clear()
            if self.closed:
                return
            wait = self.backoff[min(failures, len(self.backoff) - 1)]
            failures += 1
            key = "ui.remote_lost" if self.connections else "ui.remote_unreachable"
            self._say(t(key, self.lang, server=self.target.server, seconds=f"{wait:g}"), "yellow")
            await asyncio.sleep(wait)

    async def close(self) -> None:
        self.closed = True
        ws = self._ws
        if ws is not None:
            await ws.close()

    def drop(self) -> None:
        """Lose the current connection as a network failure does: no closing handshake (the
        session reconnects)."""
        ws = self._ws
        if ws is not None:
            ws.transport.abort()

    async def _send(self, ws: Any, message: dict[str, Any]) -> None:
        try:
            await ws.send(json.dumps(message))
        except (OSError, WebSocketException):
            self._say(t("ui.remote_offline", self.lang), "yellow")

    async def _join(self) -> None:
        """Take a free seat at an open table (``POST /api/tables/{id}/join``)."""
        url = f"{self.target.server}/api/tables/{self.target.table}/join"
        body = json.dumps({"name": self.name or t("ui.you", self.lang)}).encode()

        def post() -> tuple[int, dict[str, Any]]:
            request = urllib.request.Request(
                url, data=body, headers={"Content-Type": "application/json"}, method="POST"
            )
            try:
                with urllib.request.urlopen(request, timeout=OPEN_TIMEOUT) as answer:
                    return answer.status, json.loads(answer.read() or b"{}")
            except urllib.error.HTTPError as e:
                try:
                    return e.code, json.loads(e.read() or b"{}")
                except ValueError:
                    return e.code, {}
            except (OSError, ValueError):
                return 0, {}

        status, data = await asyncio.to_thread(post)
        if status == 200 and isinstance(data.get("token"), str):
            self.token = data["token"]
            self._say(t("ui.remote_joined", self.lang, seat=int(data.get("seat", 0)) + 1), "green")
            self._note(t("ui.remote_token", self.lang, token=self.token))
        elif status:
            why = render({"reason": f"server.{data.get('error', 'http')}"}, self.lang)
            self._say(t("ui.remote_no_seat", self.lang, reason=why), "yellow")

    # -- messages ----------------------------------------------------------------------------
    def _receive(self, raw: str | bytes) -> bool:
        """Handle one message; True when it was a welcome."""
        try:
            msg = json.loads(raw)
        except ValueError:
            return False
        if not isinstance(msg, dict):
            return False
        kind = msg.get("type")
        try:
            if kind == "welcome":
                self._welcome(msg)
                return True
            if kind == "update":
                self._update(msg)
            elif kind == "table":
                self._table(msg.get("table"))
            elif kind == "notice":
                data = msg.get("data")
                line = (
                    render(data, self.lang, self.names, tiles=self.tiles)
                    if data
                    else str(msg.get("text", ""))
                )
                self._note(line)
                self._say(line, "yellow")
            elif kind == "error":
                self._error(msg)
        except (RummyError, KeyError, TypeError, ValueError) as e:
            # A message this client cannot read: ask for the whole state again.
            why = (
                reason_text(e, self.lang, tiles=self.tiles) if isinstance(e, RummyError) else str(e)
            )
            self._say(t("ui.remote_unreadable", self.lang, reason=why), "red")
            self._send_soon({"type": "sync"})
        return False

    def _welcome(self, msg: dict[str, Any]) -> None:
        self._table(msg["table"], quiet=True)
        self.seat = msg.get("seat")
        self.seq = int(msg.get("seq") or 0)
        if msg.get("view") is not None:
            self._set_view(msg["view"])
        first = not self.welcomed and self.connections == 0
        if not self.welcomed:
            self.welcomed = True
            self.connections += 1
        if first:
            for entry in msg.get("log") or []:
                self._note(self._event_line(entry))
        status = self.table.get("status")
        if self.seat is None and self.token is not None:
            self._say(t("ui.remote_watching", self.lang), "yellow")
        if status == "closed" and self._view is None:
            self._fail(t("ui.remote_closed", self.lang))
            return
        if status == "open":
            self._say(self._waiting_text(), "")
        elif self.connections > 1:
            self._say(t("ui.remote_back", self.lang), "green")
        elif self.ready:
            self._say("", "")
        if self.listener is not None and self.ready:
            self.listener.remote_view([], None)

    def _update(self, msg: dict[str, Any]) -> None:
        event = msg.get("event") or {}
        self.seq = int(msg["seq"])
        self._set_view(msg["view"])
        lines = [self._event_line(event)]
        for after in event.get("after") or []:
            lines.append(self._event_line({"data": after}))
        self.log.extend(lines)
        reply = msg.get("reply_to")
        mine = reply is not None and self._pending.pop(str(reply), None) is not None
        accepted = bool(event.get("accepted", True)) if mine else None
        if self.listener is not None:
            self.listener.remote_view(lines, accepted)

    def _event_line(self, entry: dict[str, Any]) -> str:
        data = entry.get("data")
        if isinstance(data, dict) and "code" in data:
            with contextlib.suppress(RummyError, KeyError, TypeError, ValueError):
                self.events.append(Event.from_json(data))
            return render(data, self.lang, self.names, tiles=self.tiles)
        return str(entry.get("text", ""))

    def _table(self, table: object, *, quiet: bool = False) -> None:
        if not isinstance(table, dict):
            return
        before = self.table.get("status")
        self.table = table
        if self._rules is None:
            try:
                self._rules = find_preset(str(table["preset"]), table.get("options") or {})
            except (RummyError, ValueError) as e:
                why = (
                    reason_text(e, self.lang, tiles=self.tiles)
                    if isinstance(e, RummyError)
                    else str(e)
                )
                self._fail(t("ui.remote_rules", self.lang, preset=table.get("preset"), reason=why))
                return
        self.names = [self._seat_name(s) for s in table.get("seats") or []]
        status = table.get("status")
        if quiet:
            return
        if before == "open" and status != "open":
            self._send_soon({"type": "sync"})  # the game started: ask for its view
        elif status == "open":
            self._say(self._waiting_text(), "")
        elif status == "closed" and before != "closed":
            self._say(t("ui.remote_closed", self.lang), "yellow")
            if self.listener is not None and self.ready:
                self.listener.remote_view([], None)

    def _seat_name(self, seat: dict[str, Any]) -> str:
        n = int(seat.get("seat", 0))
        name = seat.get("name")
        if seat.get("kind") == "bot":
            kind = seat.get("bot")
            # The server's own name for a bot (``Medium bot 2``) is worded in the reader's
            # language; a name the table's creator gave stays.
            default = f"{str(kind).capitalize()} bot {n + 1}"
            return bot_name(n, kind, self.lang) if not name or name == default else str(name)
        return str(name) if name else t("ui.remote_seat", self.lang, n=n + 1)

    def _waiting_text(self) -> str:
        seats = self.table.get("seats") or []
        taken = sum(1 for s in seats if s.get("taken"))
        return t("ui.remote_waiting", self.lang, taken=taken, seats=len(seats))

    def _error(self, msg: dict[str, Any]) -> None:
        code = str(msg.get("code", ""))
        why = msg.get("why")
        reason = (
            render(why, self.lang, self.names, tiles=self.tiles)
            if isinstance(why, dict)
            else render({"reason": f"server.{code}"}, self.lang, self.names, tiles=self.tiles)
        )
        if reason == f"server.{code}":
            reason = str(msg.get("message", code))
        if code in _FATAL and not self.welcomed:
            key = "ui.remote_bad_token" if code == "bad_token" else "ui.remote_not_found"
            if code == "unsupported_version":
                key = "ui.remote_version"
            self._fail(t(key, self.lang, reason=reason, table=self.target.table))
            return
        if msg.get("reply_to") is not None:
            self._pending.pop(str(msg["reply_to"]), None)
        if code in ("stale", "conflict", "internal"):
            self._send_soon({"type": "sync"})
        line = t("ui.not_allowed", self.lang, reason=reason)
        self._say(line, "red")

    # -- telling the app ---------------------------------------------------------------------
    def _send_soon(self, message: dict[str, Any]) -> None:
        ws = self._ws
        if ws is not None:
            asyncio.get_running_loop().create_task(self._send(ws, message))

    def _note(self, line: str) -> None:
        if line:
            self.log.append(line)

    def _say_state(self, key: str) -> None:
        self._say(t(key, self.lang, server=self.target.server, table=self.target.table), "")

    def _say(self, text: str, style: str) -> None:
        if text:
            self.said.append(text)
        if self.listener is not None:
            self.listener.remote_state(text, style)

    def _fail(self, text: str) -> None:
        self.closed = True
        self.said.append(text)
        self.log.append(text)
        if self.listener is not None:
            self.listener.remote_failed(text)
