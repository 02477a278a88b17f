"""What the parts of the table service share: the table in memory and the service's state.

:class:`ServiceCore` holds the state (store, settings, clock, the live tables, background
tasks) and names the operations one part of the service calls on another; the parts are
mixins (:mod:`.lobby`, :mod:`.sessions`, :mod:`.referee`, :mod:`.scheduler`) combined in
:class:`~openrummy.server.service.TableService`.
"""

from __future__ import annotations

import abc
import asyncio
import dataclasses
import functools
import hashlib
import json
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from openrummy.messages import Reason, render
from openrummy.rules import find_preset

from .bus import Bus
from .errors import ServiceError
from .policy import AddressBuckets
from .settings import Settings
from .store import ActionRow, SeatRow, Store, TableRow

if TYPE_CHECKING:
    from .sessions import Conn

__all__ = [
    "LOG_KEEP",
    "SERVER_ONLY",
    "Live",
    "ServiceCore",
    "client_view",
    "deadline",
    "dumps",
    "event_info",
    "hash_token",
    "replay_events",
]

log = logging.getLogger("openrummy.server")

LOG_KEEP = 200
"""Events kept per table for a (re)connecting client's game log."""
SERVER_ONLY = frozenset({"timeout"})
"""Actions only the server may take: the turn timer is the server's clock, not the client's."""


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a copy of the database does not let anyone sit down."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class Live:
    """A table held in memory: the row, the match rebuilt from the log, who is connected."""

    def __init__(self, row: TableRow) -> None:
        self.row = row
        self.lock = asyncio.Lock()
        self.rules: Any = find_preset(row.preset, row.options)
        self.match: Any = None
        self.seq = 0
        self.conns: set[Conn] = set()
        self.timeouts: dict[int, int] = {}
        self.bots: dict[int, Any] = {}
        self.task: asyncio.Task[None] | None = None
        self.grace: dict[int, asyncio.Task[None]] = {}
        self.log: deque[dict[str, Any]] = deque(maxlen=LOG_KEEP)

    @property
    def id(self) -> str:
        return self.row.id

    @functools.cached_property
    def packed_rules(self) -> bytes:
        """The rules pickled once, for the helper jobs (:func:`.jobs.pack_rules`)."""
        from .jobs import pack_rules

        return pack_rules(self.rules)

    @property
    def running(self) -> bool:
        return self.row.status == "running" and self.match is not None and not self.match.is_over

    def names(self) -> list[str]:
        return [s.name or f"seat {s.idx}" for s in self.row.seats]

    def plays_itself(self, seat: int) -> bool:
        """A bot seat, or a human seat whose person is away (a stand-in plays)."""
        s = self.row.seats[seat]
        return s.kind == "bot" or s.away


class ServiceCore(abc.ABC):
    """The service's state, and what each part of it needs from the others."""

    def __init__(self, store: Store, settings: Settings, bus: Bus) -> None:
        self.store = store
        self.settings = settings
        self.bus = bus
        self.clock: Callable[[], float] = settings.clock or time.time
        self.live: dict[str, Live] = {}
        """Tables in play or with someone connected (a table with neither is let go)."""
        self.kept: OrderedDict[str, Live] = OrderedDict()
        """Finished and closed tables read recently, least recent first (at most
        ``settings.finished_cache``): they no longer change, so a copy may serve reads."""
        self.node = secrets.token_hex(6)
        store.origin = self.node
        self._loading: dict[str, asyncio.Lock] = {}
        self.created_by: dict[str, dict[str, bool]] = {}
        """Per client address, the tables it created that may still be open or running (and
        whether each has bots only)."""
        self.creator_of: dict[str, str] = {}
        """The address that created each table of ``created_by``."""
        self.creations_rechecked: dict[str, float] = {}
        """When the tables of ``created_by`` that are not in memory were last looked up in the
        database, per address (``time.monotonic()``)."""
        self.creations = AddressBuckets(
            rate=settings.tables_per_hour / 3600, burst=settings.tables_burst
        )
        self.failed_hellos = AddressBuckets(
            rate=settings.hello_failures_per_minute / 60,
            burst=max(1, int(settings.hello_failures_per_minute)),
        )
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    def _release(self, live: Live) -> None:
        """Let a table go from ``live`` when nobody is connected and it no longer plays."""
        if not live.conns and not live.running and self.live.get(live.id) is live:
            del self.live[live.id]

    def _noted(self, table_id: str, row: TableRow | None) -> None:
        """A table's row as just read: once it is finished or closed (or gone), it no longer
        counts among its creator's unfinished tables."""
        if row is not None and row.status in ("open", "running"):
            return
        client = self.creator_of.pop(table_id, None)
        if client is None:
            return
        mine = self.created_by.get(client)
        if mine is not None:
            mine.pop(table_id, None)
            if not mine:
                del self.created_by[client]

    def _seat_of(self, row: TableRow, token: str) -> SeatRow | None:
        h = hash_token(token)
        return next((s for s in row.seats if s.token_hash == h), None)

    # -- provided by the parts ------------------------------------------------------------
    @abc.abstractmethod
    async def get_live(self, table_id: str) -> Live | None:
        """The table in memory, loaded from the store if needed; None if there is none."""

    @abc.abstractmethod
    async def _refresh(self, table_id: str, *, owner: bool = False) -> None:
        """Reload a table's row after a change; start, stop or re-plan its game."""

    @abc.abstractmethod
    async def _rebuild(self, live: Live) -> None:
        """Forget the in-memory game and replay the log."""

    @abc.abstractmethod
    async def submit(
        self,
        live: Live,
        seat: int | None,
        text: str,
        *,
        expect_seq: int | None,
        actor: str,
        reply_to: str | int | None = None,
        conn: Conn | None = None,
    ) -> ServiceError | None:
        """Check, apply, store and broadcast one action; the refusal if it was refused."""

    @abc.abstractmethod
    def _send_all(self, live: Live, message: dict[str, Any]) -> None:
        """Send one message to everyone at the table."""

    @abc.abstractmethod
    def _table_json(self, live: Live) -> dict[str, Any]:
        """The table's public description as JSON."""

    @abc.abstractmethod
    def _schedule(self, live: Live, *, owner: bool) -> None:
        """Plan the next automatic step: a bot's move or the turn timer."""

    @abc.abstractmethod
    async def _set_away(self, live: Live, seat: int, away: bool, why: Reason | None = None) -> None:
        """Mark a seat away (a stand-in plays) or back."""

    @abc.abstractmethod
    def _welcome_all(self, live: Live) -> None:
        """Resend the current state to everyone at the table."""


def uses_tiles(rules: Any) -> bool:
    """Whether a table's game is played with tiles (Rummikub): its messages say tile."""
    return bool(getattr(rules, "tiles", False))


def event_info(
    a: ActionRow, result: Any, names: list[str], *, tiles: bool = False
) -> dict[str, Any]:
    """One applied action for the game log: its event as data (``data``; ``after`` for the
    end of a round or of the match) and in English words with the players' names (``text``;
    at a tile table, ``tiles``, in Rummikub's words).

    The data comes from applying the action (live, or replaying the stored log), never from
    the stored words, so games stored before events were data show the same log.
    """
    data = result.event.to_json()
    info: dict[str, Any] = {
        "seq": a.seq,
        "seat": a.seat,
        "actor": a.actor,
        "action": a.action,
        "text": render(data, "en", names, tiles=tiles),
        "data": data,
        "accepted": a.accepted,
        "at": a.at,
    }
    if result.after:
        info["after"] = [e.to_json() for e in result.after]
    return info


def replay_events(
    row: TableRow, actions: list[ActionRow], names: list[str]
) -> list[dict[str, Any]]:
    """The game log of a stored game (:func:`event_info` of each action), by replaying it."""
    from openrummy.games.families import new_match

    if row.game is None:
        return []
    rules = find_preset(row.preset, row.options)
    match: Any = new_match(rules, row.players, seed=row.game.seed, started_at=row.game.started_at)
    out = []
    for a in actions:
        action = dataclasses.replace(match.parse_action(a.action, a.seat), at=a.at)
        out.append(event_info(a, match.apply(action), names, tiles=uses_tiles(rules)))
    return out


def client_view(view: dict[str, Any]) -> dict[str, Any]:
    """A view as clients receive it: ``legal`` lists only what a client may send.

    >>> client_view({"legal": ["draw", "play", "timeout"], "current": 0})
    {'legal': ['draw', 'play'], 'current': 0}
    """
    legal = view.get("legal")
    if not legal or not any(str(w) in SERVER_ONLY for w in legal):
        return view
    return {**view, "legal": [w for w in legal if str(w) not in SERVER_ONLY]}


def deadline(view: dict[str, Any] | None, now: float) -> float | None:
    left = view.get("time_left") if view is not None else None
    return None if left is None else now + float(left)
