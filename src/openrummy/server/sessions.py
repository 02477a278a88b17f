"""Connections and sessions: who is at a table, welcomes, disconnects, away and back."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from openrummy.messages import Reason, render

from .core import Live, ServiceCore, client_view, deadline, dumps
from .errors import ErrorCode, ServiceError
from .policy import TokenBucket, away_policy
from .protocol import (
    PROTOCOL_VERSION,
)
from .settings import Settings
from .store import SeatRow, TableRow

__all__ = ["Conn", "Sessions"]

log = logging.getLogger("openrummy.server")


class Conn:
    """One WebSocket connection: its role, its rate limit, its outgoing queue.

    Messages are queued and written by the connection's own writer task, so one slow client
    never holds up a table; a client that lets ``send_queue`` messages pile up is closed.
    """

    def __init__(
        self, settings: Settings, close: Callable[[int, str], None], address: str = "unknown"
    ) -> None:
        self.address = address
        """The client's address (for the limits per address)."""
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=settings.send_queue)
        self.bucket = TokenBucket(rate=settings.rate_per_second, burst=settings.rate_burst)
        self.role: str | None = None
        self.seat: int | None = None
        self.live: Live | None = None
        self.seen: OrderedDict[str | int, None] = OrderedDict()
        self._close = close
        self.closed = False
        self.failed_hellos = 0
        """Hellos of this connection that failed (``hello_failures_per_connection``)."""

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

    def error(
        self,
        code: ErrorCode,
        message: str,
        reply_to: str | int | None = None,
        why: dict[str, Any] | None = None,
    ) -> None:
        msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if why is not None:
            msg["why"] = why
        msg["reply_to"] = reply_to
        self.send(msg)

    def remember(self, msg_id: str | int) -> bool:
        """False if this message id was seen already on this connection (a replay)."""
        if msg_id in self.seen:
            return False
        self.seen[msg_id] = None
        if len(self.seen) > 1024:
            self.seen.popitem(last=False)
        return True


class Sessions(ServiceCore):
    """The WebSocket operations: hello, sync, resume, and a seat's presence."""

    async def hello(self, conn: Conn, table_id: str, token: str | None) -> None:
        """Connect ``conn`` to a table, as a seat (with its token) or a spectator.

        A hello that fails (a token that holds no seat, a table that does not exist)
        changes nothing and tells no one but its sender; from an address past
        ``hello_failures_per_minute`` of them, a hello with a token, or for a table not
        held in memory, is refused before any look at the table or the database.
        """
        limited = self.settings.limited(conn.address)
        if (
            limited
            and (token is not None or (table_id not in self.live and table_id not in self.kept))
            and not self.failed_hellos.peek(conn.address)
        ):
            raise ServiceError(
                ErrorCode.RATE_LIMITED,
                f"too many failed hellos from your address (at most "
                f"{self.settings.hello_failures_per_minute:g} a minute): this one was not read",
                429,
            )
        live = await self.get_live(table_id)
        if live is None:
            if limited:
                self.failed_hellos.take(conn.address)
            raise ServiceError(ErrorCode.NOT_FOUND, f"there is no table {table_id!r}", 404)
        seat: SeatRow | None = None
        if token is not None:
            seat = self._seat_of(live.row, token)
            if (
                seat is None
                and self._may_be_seated_elsewhere(live)
                and self._seat_of_stored(await self.store.get_table(table_id), token)
            ):
                # Another process seated this player a moment ago: catch up with it. A wrong
                # token never gets here, so it changes nothing at the table and tells no one.
                await self._refresh(table_id)
                seat = self._seat_of(live.row, token)
            if seat is None:
                if limited:
                    self.failed_hellos.take(conn.address)
                raise ServiceError(
                    ErrorCode.BAD_TOKEN, f"this token holds no seat at table {table_id}", 403
                )
        if conn.live is not None and conn.live is not live:
            self.disconnect(conn)
        # A table someone is connected to is held in ``live`` (one copy for all of them).
        live = self.live.setdefault(live.id, live)
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

    def _may_be_seated_elsewhere(self, live: Live) -> bool:
        """Whether another server process may have seated a player here that this one has
        not heard of yet: only with a shared database, and only at an open table with a free
        seat (a join there is published before the start). A wrong token anywhere else is
        refused from memory, without a database read."""
        return (
            not self.store.is_sqlite
            and live.row.status == "open"
            and any(s.kind == "human" and s.token_hash is None for s in live.row.seats)
        )

    def _seat_of_stored(self, row: TableRow | None, token: str) -> bool:
        return row is not None and self._seat_of(row, token) is not None

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
        view = (
            client_view(live.match.view(conn.seat, now=now).to_json())
            if live.match is not None
            else None
        )
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
                "deadline": deadline(view, now),
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
        self._release(live)  # nobody watches a table that no longer plays: let it go

    async def _grace(self, live: Live, seat: int) -> None:
        await asyncio.sleep(self.settings.disconnect_grace)
        live.grace.pop(seat, None)
        if live.running and not any(c.seat == seat and c.role == "seat" for c in live.conns):
            async with live.lock:
                await self._set_away(live, seat, True, Reason.of("notice.no_return"))

    async def resume(self, conn: Conn) -> None:
        live = conn.live
        if live is None or conn.role != "seat" or conn.seat is None:
            raise ServiceError(ErrorCode.NOT_SEATED, "only a seated player can resume")
        if live.row.seats[conn.seat].away:
            async with live.lock:
                await self._set_away(live, conn.seat, False)

    async def _set_away(self, live: Live, seat: int, away: bool, why: Reason | None = None) -> None:
        if live.row.seats[seat].away == away:
            return
        await self.store.update_seat(live.id, seat, away=away)
        seats = list(live.row.seats)
        seats[seat] = dataclasses.replace(seats[seat], away=away)
        live.row = dataclasses.replace(live.row, seats=tuple(seats))
        if not away:
            live.bots.pop(seat, None)
            live.timeouts[seat] = 0
        if away:
            stand_in = Reason.of(away_policy(live.row.family).stand_in) if why else None
            notice = Reason.of("notice.away", seat=seat, cause=why, stand_in=stand_in)
        else:
            notice = Reason.of("notice.back", seat=seat)
        data = notice.to_json()
        text = render(data, "en", live.names())
        self._send_all(live, {"type": "table", "table": self._table_json(live)})
        self._send_all(live, {"type": "notice", "text": text, "data": data, "seat": seat})
        self._schedule(live, owner=True)
