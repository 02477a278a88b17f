"""Live tables: the referee's loop of check, apply, store, broadcast, schedule.

Every action, whoever sends it (a person over the WebSocket, a bot on the server, the turn
timer), goes through :meth:`TableService.submit` under the table's lock:

1. check the game is running, the sequence number the sender saw is the current one, and
   it is the sender's turn;
2. parse the action with the family's notation and stamp it with the server clock (``at``);
3. apply it through the engine (an ``IllegalActionError`` changes nothing and is answered to
   the sender only);
4. write it to the log with the next sequence number, in one transaction with the game's
   end if it ended (a :class:`~openrummy.server.store.SeqConflict` means another process
   was first: the table is rebuilt from the log and the sender told);
5. send every seat its own view and every spectator the public view, with the event in
   words;
6. schedule what happens next: a bot's move after its pause, or the turn timer.

The service never reads a family's state directly: it uses the ``Match`` protocol
(``apply``, ``view``, ``parse_action``, ``current``, ``is_over``, ``outcome``) and the
views' ``legal`` and ``time_left`` entries, so every family plugs in unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import re
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Coroutine
from typing import Any

from openrummy.bots import bot_infos, make_bot
from openrummy.errors import IllegalActionError, RummyError
from openrummy.games.registry import new_match
from openrummy.record import GameRecord
from openrummy.rules import find_preset

from . import fairness
from .bus import Bus
from .policy import TokenBucket, away_policy
from .protocol import (
    PROTOCOL_VERSION,
    CreatedTable,
    CreateTable,
    GameInfo,
    Joined,
    JoinRequest,
    SeatInfo,
    StartRequest,
    TableInfo,
)
from .settings import Settings
from .store import ActionRow, SeatRow, SeqConflict, Store, TableRow

__all__ = ["Conn", "Live", "ServiceError", "TableService", "hash_token"]

log = logging.getLogger("openrummy.server")

LOG_KEEP = 200
"""Events kept per table for a (re)connecting client's game log."""
SERVER_ONLY = frozenset({"timeout"})
"""Actions only the server may take: the turn timer is the server's clock, not the client's."""
_SEAT_RE = re.compile(r"\bseat (\d+)")


class ServiceError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, HTTP ``status``."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a copy of the database does not let anyone sit down."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class Conn:
    """One WebSocket connection: its role, its rate limit, its outgoing queue.

    Messages are queued and written by the connection's own writer task, so one slow client
    never holds up a table; a client that lets ``send_queue`` messages pile up is closed.
    """

    def __init__(self, settings: Settings, close: Callable[[int, str], None]) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=settings.send_queue)
        self.bucket = TokenBucket(rate=settings.rate_per_second, burst=settings.rate_burst)
        self.role: str | None = None
        self.seat: int | None = None
        self.live: Live | None = None
        self.seen: OrderedDict[str | int, None] = OrderedDict()
        self._close = close
        self.closed = False

    def push(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closed = True
            self._close(1013, "too many unread messages")

    def send(self, message: dict[str, Any]) -> None:
        self.push(dumps(message))

    def error(self, code: str, message: str, reply_to: str | int | None = None) -> None:
        self.send({"type": "error", "code": code, "message": message, "reply_to": reply_to})

    def remember(self, msg_id: str | int) -> bool:
        """False if this message id was seen already on this connection (a replay)."""
        if msg_id in self.seen:
            return False
        self.seen[msg_id] = None
        if len(self.seen) > 1024:
            self.seen.popitem(last=False)
        return True


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

    @property
    def running(self) -> bool:
        return self.row.status == "running" and self.match is not None and not self.match.is_over

    def names(self) -> list[str]:
        return [s.name or f"seat {s.idx}" for s in self.row.seats]

    def words(self, event: str) -> str:
        return words(event, self.names())

    def plays_itself(self, seat: int) -> bool:
        """A bot seat, or a human seat whose person is away (a stand-in plays)."""
        s = self.row.seats[seat]
        return s.kind == "bot" or s.away


class TableService:
    """All live tables of this process, and the operations the app exposes."""

    def __init__(self, store: Store, settings: Settings, bus: Bus) -> None:
        self.store = store
        self.settings = settings
        self.bus = bus
        self.clock: Callable[[], float] = settings.clock or time.time
        self.live: dict[str, Live] = {}
        self.node = secrets.token_hex(6)
        store.origin = self.node
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- lifecycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every unfinished game from its log, then listen to the other processes."""
        for row in await self.store.list_tables(statuses=["running"], limit=1_000_000):
            live = await self._build(row)
            self.live[row.id] = live
            self._schedule(live, owner=True)
            if self.store.is_sqlite:
                # After a restart nobody is connected yet: whoever does not come back within
                # the grace is played by a stand-in, as after any disconnect. (With several
                # processes a player may be connected to another one, so this is left to
                # the process that saw the disconnect.)
                for seat in live.row.seats:
                    if seat.kind == "human" and not seat.away:
                        live.grace[seat.idx] = self.spawn(self._grace(live, seat.idx))
        await self.bus.start(self._on_notify, self._resync_all)

    async def stop(self) -> None:
        await self.bus.stop()
        tasks = list(self._tasks)
        for live in self.live.values():
            if live.task is not None:
                tasks.append(live.task)
            tasks.extend(live.grace.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    # -- loading and rebuilding -----------------------------------------------------------
    async def _build(self, row: TableRow) -> Live:
        """A table in memory; its game (if any) rebuilt by replaying the stored log."""
        live = Live(row)
        if row.game is not None:
            live.match = new_match(
                live.rules, row.players, seed=row.game.seed, started_at=row.game.started_at
            )
            for a in await self.store.actions(row.id):
                self._replay(live, a)
        return live

    def _replay(self, live: Live, a: ActionRow) -> dict[str, Any]:
        """Apply one stored action (rebuild and catch-up); returns its event."""
        if a.seq != live.seq + 1:
            raise RuntimeError(f"table {live.id}: action {a.seq} follows {live.seq}")
        action = dataclasses.replace(live.match.parse_action(a.action, a.seat), at=a.at)
        live.match.apply(action)
        live.seq = a.seq
        return self._note(live, a)

    def _note(self, live: Live, a: ActionRow) -> dict[str, Any]:
        """Keep the event for the game log and count consecutive timeouts."""
        event = {
            "seq": a.seq,
            "seat": a.seat,
            "actor": a.actor,
            "action": a.action,
            "text": live.words(a.event),
            "accepted": a.accepted,
            "at": a.at,
        }
        live.log.append(event)
        if a.actor == "server" and a.action in SERVER_ONLY:
            live.timeouts[a.seat] = live.timeouts.get(a.seat, 0) + 1
        elif a.actor == "seat":
            live.timeouts[a.seat] = 0
        return event

    async def get_live(self, table_id: str) -> Live | None:
        live = self.live.get(table_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            live = self.live.get(table_id)
            if live is None:
                row = await self.store.get_table(table_id)
                if row is None:
                    return None
                live = await self._build(row)
                self.live[table_id] = live
                self._schedule(live, owner=False)
        self._loading.pop(table_id, None)
        return live

    async def _rebuild(self, live: Live) -> None:
        """Forget the in-memory game and replay the log (after a conflict or a failure)."""
        row = await self.store.get_table(live.id)
        if row is None:
            return
        fresh = await self._build(row)
        live.row, live.match, live.seq = fresh.row, fresh.match, fresh.seq
        live.timeouts, live.log = fresh.timeouts, fresh.log

    async def _catch_up(self, live: Live) -> None:
        """Apply what other processes stored since our last action, and tell our clients."""
        if live.match is None:
            return
        rows = await self.store.actions(live.id, after=live.seq)
        for a in rows:
            try:
                event = self._replay(live, a)
            except Exception:
                log.exception("table %s: catch-up failed; rebuilding", live.id)
                await self._rebuild(live)
                self._welcome_all(live)
                break
            self._broadcast(live, event)
        if rows and live.match.is_over:
            await self._finished(live)
        self._schedule(live, owner=False)

    # -- REST operations ------------------------------------------------------------------
    async def create(self, req: CreateTable) -> CreatedTable:
        options: dict[str, Any] = dict(req.options)
        if req.match_format is not None:
            options["match.format"] = req.match_format
        if req.turn_time_limit is not None:
            options["turn.time_limit_s"] = req.turn_time_limit
        n = len(req.seats)
        try:
            rules = find_preset(req.preset, options)
            rules.check_players(n)
            new_match(rules, n, seed="check")
        except RummyError as e:
            raise ServiceError("bad_rules", str(e), 422) from None
        family = rules.family
        seats: list[SeatRow] = []
        for i, spec in enumerate(req.seats):
            if spec.kind == "bot":
                kind = spec.bot or self._default_bot(family)
                self._check_bot(kind, rules)
                name = spec.name or f"{kind.capitalize()} bot {i + 1}"
                seats.append(SeatRow(i, "bot", kind, name, None, False))
            else:
                seats.append(SeatRow(i, "human", None, None, None, False))
        creator_token = secrets.token_urlsafe(24)
        seat_token: str | None = None
        if req.creator_seat is not None:
            if req.creator_seat >= n or seats[req.creator_seat].kind != "human":
                raise ServiceError(
                    "bad_seat", f"seat {req.creator_seat} is not a human seat of this table", 422
                )
            seat_token = secrets.token_urlsafe(24)
            seats[req.creator_seat] = dataclasses.replace(
                seats[req.creator_seat],
                name=req.creator_name or "Host",
                token_hash=hash_token(seat_token),
            )
        table_id = secrets.token_urlsafe(9)
        row = TableRow(
            id=table_id,
            title=req.title or f"{getattr(rules, 'title', rules.name)} table",
            preset=rules.name,
            family=family,
            options=options,
            players=n,
            bot_pause=self.settings.bot_pause if req.bot_pause is None else req.bot_pause,
            time_limit=getattr(getattr(rules, "turn", None), "time_limit_s", None),
            status="open",
            creator_hash=hash_token(creator_token),
            created_at=self.clock(),
            seats=tuple(seats),
            game=None,
        )
        await self.store.create_table(row)
        return CreatedTable(
            table=table_info(row),
            creator_token=creator_token,
            seat=req.creator_seat,
            seat_token=seat_token,
        )

    @staticmethod
    def _default_bot(family: str) -> str:
        infos = bot_infos(family)
        if not infos:
            raise ServiceError("no_bots", f"no bot plays {family} games yet", 422)
        levelled = [i for i in infos if i.level >= 1]
        return (levelled or infos)[0].name

    @staticmethod
    def _check_bot(kind: str, rules: Any) -> None:
        try:
            make_bot(kind, rules, 0)
        except ValueError as e:
            raise ServiceError("bad_bot", str(e), 422) from None

    async def _row(self, table_id: str) -> TableRow:
        row = await self.store.get_table(table_id)
        if row is None:
            raise ServiceError("not_found", f"there is no table {table_id!r}", 404)
        return row

    async def info(self, table_id: str) -> TableInfo:
        return table_info(await self._row(table_id))

    async def list_tables(self, statuses: list[str], limit: int) -> list[TableInfo]:
        return [table_info(r) for r in await self.store.list_tables(statuses=statuses, limit=limit)]

    async def join(self, table_id: str, req: JoinRequest) -> Joined:
        row = await self._row(table_id)
        if row.status != "open":
            raise ServiceError(
                "not_open", f"table {table_id} is {row.status}: no seats to join", 409
            )
        if req.seat is not None:
            if req.seat >= row.players:
                raise ServiceError("bad_seat", f"table {table_id} has no seat {req.seat}", 422)
            seat = row.seats[req.seat]
            if seat.kind != "human":
                raise ServiceError("bad_seat", f"seat {req.seat} is a bot's seat", 409)
            candidates = [req.seat]
        else:
            candidates = [s.idx for s in row.seats if s.kind == "human" and s.token_hash is None]
        token = secrets.token_urlsafe(24)
        for idx in candidates:
            if await self.store.take_seat(table_id, idx, req.name, hash_token(token)):
                await self._refresh(table_id)
                return Joined(table_id=table_id, seat=idx, token=token)
        if req.seat is not None:
            raise ServiceError("seat_taken", f"seat {req.seat} is taken", 409)
        raise ServiceError("table_full", f"table {table_id} has no free seat", 409)

    def _seat_of(self, row: TableRow, token: str) -> SeatRow | None:
        h = hash_token(token)
        return next((s for s in row.seats if s.token_hash == h), None)

    def _check_creator(self, row: TableRow, token: str) -> None:
        if not secrets.compare_digest(hash_token(token), row.creator_hash):
            raise ServiceError("bad_token", "this is not the creator token of the table", 403)

    async def leave(self, table_id: str, token: str) -> TableInfo:
        row = await self._row(table_id)
        seat = self._seat_of(row, token)
        if seat is None:
            raise ServiceError("bad_token", f"this token holds no seat at table {table_id}", 403)
        if row.status == "open":
            await self.store.update_seat(table_id, seat.idx, name=None, token_hash=None)
        elif row.status == "running":
            # The player is gone for good: the token dies and a stand-in plays to the end.
            await self.store.update_seat(table_id, seat.idx, token_hash=None, away=True)
        else:
            raise ServiceError("game_over", f"table {table_id} is {row.status}", 409)
        await self._refresh(table_id)
        live = self.live.get(table_id)
        if live is not None:
            for c in [c for c in live.conns if c.role == "seat" and c.seat == seat.idx]:
                c.role, c.seat = "spectator", None
        return await self.info(table_id)

    async def start_game(self, table_id: str, token: str, req: StartRequest) -> TableInfo:
        row = await self._row(table_id)
        self._check_creator(row, token)
        if row.status != "open":
            raise ServiceError("not_open", f"table {table_id} is {row.status}", 409)
        free = [s.idx for s in row.seats if s.kind == "human" and s.token_hash is None]
        bot_seats: dict[int, tuple[str, str]] = {}
        if free and req.fill_with_bots is None:
            raise ServiceError(
                "seats_free",
                f"seat{'s' if len(free) > 1 else ''} {', '.join(map(str, free))} "
                "still free: wait for players or start with fill_with_bots",
                409,
            )
        if free and req.fill_with_bots is not None:
            rules = find_preset(row.preset, row.options)
            self._check_bot(req.fill_with_bots, rules)
            kind = req.fill_with_bots
            bot_seats = {i: (kind, f"{kind.capitalize()} bot {i + 1}") for i in free}
        seed = fairness.new_seed()
        ok = await self.store.start_game(
            table_id,
            seed=seed,
            commitment=fairness.commitment(seed),
            started_at=self.clock(),
            bot_seats=bot_seats,
        )
        if not ok:
            raise ServiceError("not_open", f"table {table_id} is no longer open", 409)
        await self._refresh(table_id, owner=True)
        return await self.info(table_id)

    async def close(self, table_id: str, token: str) -> TableInfo:
        row = await self._row(table_id)
        self._check_creator(row, token)
        was = await self.store.close_table(table_id, at=self.clock())
        if was in ("finished", "closed"):
            raise ServiceError("game_over", f"table {table_id} is already {was}", 409)
        await self._refresh(table_id)
        return await self.info(table_id)

    async def record(self, table_id: str) -> dict[str, Any]:
        """The game record, published once the game is over (it reveals the seed)."""
        row = await self._row(table_id)
        game = row.game
        if game is None:
            raise ServiceError("no_game", f"table {table_id} has not started a game", 404)
        if game.status == "running":
            raise ServiceError(
                "not_finished",
                "the record is published when the game ends (the seed is secret)",
                409,
            )
        rules = find_preset(row.preset, row.options)
        match = new_match(rules, row.players, seed=game.seed, started_at=game.started_at)
        actions = [
            dataclasses.replace(match.parse_action(a.action, a.seat), at=a.at)
            for a in await self.store.actions(table_id)
        ]
        rec = GameRecord(
            game=row.preset,
            players=[s.name or f"seat {s.idx}" for s in row.seats],
            seed=game.seed,
            options=dict(row.options),
            started_at=game.started_at,
            actions=actions,
            result=game.result,
            meta={
                "fairness": {"scheme": fairness.SCHEME, "commitment": game.commitment},
                "table": table_id,
                "status": game.status,
                "finished_at": game.finished_at,
            },
        )
        return rec.to_json()

    async def events(self, table_id: str) -> list[dict[str, Any]]:
        row = await self._row(table_id)
        names = [s.name or f"seat {s.idx}" for s in row.seats]
        return [
            {
                "seq": a.seq,
                "seat": a.seat,
                "actor": a.actor,
                "action": a.action,
                "text": words(a.event, names),
                "accepted": a.accepted,
                "at": a.at,
            }
            for a in await self.store.actions(table_id)
        ]

    async def public_view(self, table_id: str) -> dict[str, Any]:
        live = await self.get_live(table_id)
        if live is None:
            raise ServiceError("not_found", f"there is no table {table_id!r}", 404)
        if live.match is None:
            raise ServiceError("no_game", f"table {table_id} has not started a game", 404)
        async with live.lock:  # not in the middle of storing an action
            now = self.clock()
            return {"seq": live.seq, "now": now, "view": live.match.view(None, now=now)}

    # -- table changes (local and from other processes) -----------------------------------
    async def _refresh(self, table_id: str, *, owner: bool = False) -> None:
        """Reload a table's row after a change; start, stop or re-plan its game."""
        live = self.live.get(table_id)
        if live is None:
            row = await self.store.get_table(table_id)
            if row is not None and row.status == "running":
                live = await self.get_live(table_id)
                if live is not None:
                    self._schedule(live, owner=owner)
            return
        async with live.lock:
            row = await self.store.get_table(table_id)
            if row is None:
                return
            started = live.row.game is None and row.game is not None
            ended = live.row.status == "running" and row.status in ("finished", "closed")
            live.row = dataclasses.replace(row, seq=live.seq)
            for idx in [i for i in live.bots if not live.plays_itself(i)]:
                del live.bots[idx]
            if started:
                fresh = await self._build(row)
                live.match, live.seq, live.log = fresh.match, fresh.seq, fresh.log
            self._send_all(live, {"type": "table", "table": self._table_json(live)})
            if started:
                self._welcome_all(live)
            if ended:
                if live.match is not None and live.seq < row.seq:
                    await self._catch_up(live)
                self._reveal(live)
            self._schedule(live, owner=owner)

    async def _on_notify(self, data: dict[str, Any]) -> None:
        if data.get("o") == self.node:
            return
        table_id = data.get("t")
        if not isinstance(table_id, str):
            return
        if data.get("k") == "action":
            live = self.live.get(table_id)
            if live is None:
                await self._refresh(table_id)
                return
            async with live.lock:
                await self._catch_up(live)
        else:
            await self._refresh(table_id)

    async def _resync_all(self) -> None:
        for table_id in list(self.live):
            await self._refresh(table_id)
            live = self.live.get(table_id)
            if live is not None:
                async with live.lock:
                    await self._catch_up(live)

    # -- WebSocket operations -------------------------------------------------------------
    async def hello(self, conn: Conn, table_id: str, token: str | None) -> None:
        live = await self.get_live(table_id)
        if live is None:
            raise ServiceError("not_found", f"there is no table {table_id!r}", 404)
        seat: SeatRow | None = None
        if token is not None:
            seat = self._seat_of(live.row, token)
            if seat is None:
                # Maybe another process seated this player a moment ago.
                await self._refresh(table_id)
                seat = self._seat_of(live.row, token)
            if seat is None:
                raise ServiceError(
                    "bad_token", f"this token holds no seat at table {table_id}", 403
                )
        if conn.live is not None and conn.live is not live:
            self.disconnect(conn)
        conn.live = live
        conn.role = "seat" if seat is not None else "spectator"
        conn.seat = seat.idx if seat is not None else None
        live.conns.add(conn)
        if seat is not None:
            grace = live.grace.pop(seat.idx, None)
            if grace is not None:
                grace.cancel()
        # Under the table's lock: an action being stored has already changed the match but not
        # yet the sequence number, and a welcome must never pair a view with the wrong seq.
        async with live.lock:
            if seat is not None and seat.away and live.running:
                await self._set_away(live, seat.idx, False)
            self.welcome(conn)

    async def sync(self, conn: Conn, reply_to: str | int | None = None) -> None:
        """Resend the current state (a welcome), consistent with its sequence number."""
        live = conn.live
        assert live is not None
        async with live.lock:
            self.welcome(conn, reply_to)

    def welcome(self, conn: Conn, reply_to: str | int | None = None) -> None:
        live = conn.live
        assert live is not None
        now = self.clock()
        view = live.match.view(conn.seat, now=now) if live.match is not None else None
        conn.send(
            {
                "type": "welcome",
                "v": PROTOCOL_VERSION,
                "role": conn.role,
                "seat": conn.seat,
                "table": self._table_json(live),
                "seq": live.seq,
                "view": view,
                "log": list(live.log),
                "now": now,
                "deadline": _deadline(view, now),
                "reply_to": reply_to,
            }
        )

    def _welcome_all(self, live: Live) -> None:
        for c in list(live.conns):
            self.welcome(c)

    def disconnect(self, conn: Conn) -> None:
        live = conn.live
        conn.live = None
        if live is None:
            return
        live.conns.discard(conn)
        seat = conn.seat
        if (
            conn.role == "seat"
            and seat is not None
            and live.running
            and not any(c.seat == seat and c.role == "seat" for c in live.conns)
            and not live.row.seats[seat].away
            and seat not in live.grace
        ):
            live.grace[seat] = self.spawn(self._grace(live, seat))
        if not live.conns and not live.running and self.live.get(live.id) is live:
            # Nobody watches a table that no longer plays: let it go.
            del self.live[live.id]

    async def _grace(self, live: Live, seat: int) -> None:
        await asyncio.sleep(self.settings.disconnect_grace)
        live.grace.pop(seat, None)
        if live.running and not any(c.seat == seat and c.role == "seat" for c in live.conns):
            async with live.lock:
                await self._set_away(live, seat, True, "did not come back in time")

    async def resume(self, conn: Conn) -> None:
        live = conn.live
        if live is None or conn.role != "seat" or conn.seat is None:
            raise ServiceError("not_seated", "only a seated player can resume")
        if live.row.seats[conn.seat].away:
            async with live.lock:
                await self._set_away(live, conn.seat, False)

    async def _set_away(self, live: Live, seat: int, away: bool, why: str = "") -> None:
        if live.row.seats[seat].away == away:
            return
        await self.store.update_seat(live.id, seat, away=away)
        seats = list(live.row.seats)
        seats[seat] = dataclasses.replace(seats[seat], away=away)
        live.row = dataclasses.replace(live.row, seats=tuple(seats))
        if not away:
            live.bots.pop(seat, None)
            live.timeouts[seat] = 0
        name = live.names()[seat]
        if away:
            policy = away_policy(live.row.family)
            text = f"{name} is away ({why}): {policy.description}" if why else f"{name} is away"
        else:
            text = f"{name} is back"
        self._send_all(live, {"type": "table", "table": self._table_json(live)})
        self._send_all(live, {"type": "notice", "text": text, "seat": seat})
        self._schedule(live, owner=True)

    # -- the referee's loop ---------------------------------------------------------------
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
        async with live.lock:
            try:
                await self._submit(live, seat, text, expect_seq, actor, reply_to, conn)
            except ServiceError as e:
                return e
        return None

    async def _submit(
        self,
        live: Live,
        seat: int | None,
        text: str,
        expect_seq: int | None,
        actor: str,
        reply_to: str | int | None,
        conn: Conn | None,
    ) -> None:
        match = live.match
        if match is None:
            raise ServiceError("not_started", "the game has not started yet")
        if live.row.status != "running" or match.is_over:
            raise ServiceError("game_over", "the game is over")
        if expect_seq is not None and expect_seq != live.seq:
            raise ServiceError(
                "stale",
                f"your message was for seq {expect_seq} but the game is at seq {live.seq}: "
                "nothing was done (send sync for the current view)",
            )
        current = match.current
        if seat is None:
            seat = current
        if seat != current:
            raise ServiceError(
                "not_your_turn", f"it is {live.names()[current]}'s turn (seat {current}), not yours"
            )
        try:
            action = match.parse_action(text, seat)
        except RummyError as e:
            raise ServiceError("bad_action", str(e)) from None
        if actor == "seat" and str(action) in SERVER_ONLY:
            raise ServiceError("server_only", "only the server's turn timer may time a turn out")
        if actor == "seat" and live.row.seats[seat].away:
            # Acting is the simplest way back from a stand-in.
            await self._set_away(live, seat, False)
        now = self.clock()
        action = dataclasses.replace(action, at=now)
        try:
            result = match.apply(action)
        except IllegalActionError as e:
            raise ServiceError("illegal", str(e)) from None
        except Exception:
            log.exception("table %s: the engine failed on %r; rebuilding", live.id, text)
            await self._rebuild(live)
            raise ServiceError("internal", "the server could not apply this action") from None
        row = ActionRow(
            seq=live.seq + 1,
            seat=seat,
            action=str(result.action),
            at=now,
            accepted=bool(result.accepted),
            event=str(result.event),
            actor=actor,
        )
        outcome = match.outcome if match.is_over else None
        try:
            await self.store.append_action(
                live.id, row, result=outcome.to_json() if outcome is not None else None
            )
        except SeqConflict:
            await self._rebuild(live)
            self._welcome_all(live)
            self._schedule(live, owner=False)
            raise ServiceError(
                "conflict", "another action was accepted first: nothing was done"
            ) from None
        except Exception:
            log.exception("table %s: cannot store action %d", live.id, row.seq)
            await self._rebuild(live)
            raise ServiceError("unavailable", "the action could not be stored; try again") from None
        live.seq = row.seq
        event = self._note(live, row)
        self._broadcast(live, event, reply_to, conn)
        if match.is_over:
            await self._finished(live)
            return
        if (
            actor == "server"
            and live.timeouts.get(seat, 0) >= self.settings.max_timeouts
            and not live.row.seats[seat].away
            and live.row.seats[seat].kind == "human"
        ):
            n = live.timeouts[seat]
            await self._set_away(live, seat, True, f"{n} turns timed out in a row")
            return
        self._schedule(live, owner=True)

    async def _finished(self, live: Live) -> None:
        row = await self.store.get_table(live.id)
        if row is not None:
            live.row = dataclasses.replace(row, seq=live.seq)
        self._send_all(live, {"type": "table", "table": self._table_json(live)})
        self._reveal(live)
        self._schedule(live, owner=True)
        if not live.conns and self.live.get(live.id) is live:
            del self.live[live.id]  # a finished game nobody watches lives on in the database

    def _reveal(self, live: Live) -> None:
        game = live.row.game
        if game is None or game.status == "running":
            return
        self._send_all(
            live,
            {
                "type": "reveal",
                "seed": game.seed,
                "commitment": game.commitment,
                "scheme": fairness.SCHEME,
                "record": f"/api/tables/{live.id}/record",
            },
        )

    def _broadcast(
        self,
        live: Live,
        event: dict[str, Any],
        reply_to: str | int | None = None,
        origin: Conn | None = None,
    ) -> None:
        """Every seat its own view, every spectator the public view (serialised once each)."""
        now = self.clock()
        match = live.match
        texts: dict[int | None, str] = {}

        def message(seat: int | None) -> dict[str, Any]:
            view = match.view(seat, now=now)
            return {
                "type": "update",
                "seq": live.seq,
                "event": event,
                "view": view,
                "now": now,
                "deadline": _deadline(view, now),
                "reply_to": None,
            }

        for c in list(live.conns):
            key = c.seat if c.role == "seat" else None
            if c is origin and reply_to is not None:
                msg = message(key)
                msg["reply_to"] = reply_to
                c.send(msg)
                continue
            text = texts.get(key)
            if text is None:
                text = texts[key] = dumps(message(key))
            c.push(text)

    def _send_all(self, live: Live, message: dict[str, Any]) -> None:
        text = dumps(message)
        for c in list(live.conns):
            c.push(text)

    def _table_json(self, live: Live) -> dict[str, Any]:
        return table_info(dataclasses.replace(live.row, seq=live.seq)).model_dump()

    # -- bots, stand-ins and timers -------------------------------------------------------
    def _schedule(self, live: Live, *, owner: bool) -> None:
        """Plan the next automatic step: a bot's move or the turn timer.

        ``owner``: this process accepted the last action, so it acts at once; the others wait
        ``takeover_delay`` longer and step in only if it did not (it may have died).
        """
        current_task = asyncio.current_task()
        if live.task is not None and live.task is not current_task:
            live.task.cancel()
        live.task = None
        if not live.running:
            return
        seat = live.match.current
        extra = 0.0 if owner else self.settings.takeover_delay
        if live.plays_itself(seat):
            live.task = self.spawn(self._bot_turn(live, live.seq, live.row.bot_pause + extra))
            return
        if live.row.time_limit is None:
            return  # no turn timer: nothing to schedule (and no view to build per action)
        now = self.clock()
        left = live.match.view(None, now=now).get("time_left")
        if left is not None:
            live.task = self.spawn(self._timer(live, live.seq, now + float(left) + extra))

    async def _timer(self, live: Live, seq: int, deadline: float) -> None:
        while True:
            await asyncio.sleep(max(0.0, deadline - self.clock()))
            err = await self.submit(live, None, "timeout", expect_seq=seq, actor="server")
            if err is None or err.code != "illegal" or live.seq != seq:
                return
            # The engine's clock says not yet (a timer woke early): look again shortly.
            deadline = self.clock() + 0.05

    def _bot(self, live: Live, seat: int) -> Any:
        bot = live.bots.get(seat)
        if bot is None:
            s = live.row.seats[seat]
            kind = s.bot if s.kind == "bot" and s.bot else away_policy(live.row.family).bot
            bot = make_bot(kind, live.rules, secrets.randbits(31))
            live.bots[seat] = bot
        return bot

    async def _bot_turn(self, live: Live, seq: int, pause: float) -> None:
        if pause > 0:
            await asyncio.sleep(pause)
        async with live.lock:
            if live.seq != seq or not live.running:
                return
            seat = live.match.current
            if not live.plays_itself(seat):
                return
            view = live.match.view(seat, now=self.clock())
            standin = live.row.seats[seat].kind != "bot"
            actor = "standin" if standin else "bot"
        legal = [str(w) for w in view.get("legal") or ()]
        first = away_policy(live.row.family).first_action if standin else None
        texts: list[str] = []
        if first is not None and first in legal:
            texts.append(first)
        else:
            try:
                # A worker thread, so a bot that thinks long never stalls the other tables'
                # messages (a CPU-heavy bot still shares the interpreter with them).
                bot = self._bot(live, seat)
                texts.append(str(await asyncio.to_thread(bot.choose, view)))
            except Exception:
                log.exception("table %s: bot of seat %d failed to choose", live.id, seat)
        # Should the bot's choice be refused, fall back to the simplest legal actions.
        texts += [w for w in ("draw", "pass", "end", "take", "drop") if w in legal]
        for text in texts:
            err = await self.submit(live, seat, text, expect_seq=seq, actor=actor)
            if err is None or err.code in ("stale", "conflict", "game_over"):
                return
            log.warning("table %s: %s's %r refused: %s", live.id, actor, text, err.message)
        log.error("table %s: seat %d's %s found no legal action", live.id, seat, actor)


def words(event: str, names: list[str]) -> str:
    """The engine's event with seat numbers replaced by the players' names.

    >>> words("seat 1's play failed; seat 0 drew a card", ["Ann", "Bob"])
    "Bob's play failed; Ann drew a card"
    """
    return _SEAT_RE.sub(
        lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(0), event
    )


def _deadline(view: dict[str, Any] | None, now: float) -> float | None:
    left = view.get("time_left") if view is not None else None
    return None if left is None else now + float(left)


def table_info(row: TableRow) -> TableInfo:
    """The public description of a table (never a token; the seed only once it is over)."""
    game = row.game
    return TableInfo(
        id=row.id,
        title=row.title,
        preset=row.preset,
        family=row.family,
        options=dict(row.options),
        players=row.players,
        status=row.status,  # type: ignore[arg-type]
        created_at=row.created_at,
        bot_pause=row.bot_pause,
        turn_time_limit=row.time_limit,
        seats=[
            SeatInfo(
                seat=s.idx,
                kind=s.kind,  # type: ignore[arg-type]
                bot=s.bot,
                name=s.name,
                taken=s.kind == "bot" or s.token_hash is not None or s.away,
                away=s.away,
            )
            for s in row.seats
        ],
        game=None
        if game is None
        else GameInfo(
            status=game.status,  # type: ignore[arg-type]
            started_at=game.started_at,
            finished_at=game.finished_at,
            seq=row.seq,
            commitment=game.commitment,
            scheme=fairness.SCHEME,
            seed=None if game.status == "running" else game.seed,
            result=game.result,
        ),
    )
