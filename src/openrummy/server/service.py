"""Live tables: the table service, made of its parts, and the tables it keeps in memory.

:class:`TableService` combines four parts, one module each:

* :mod:`.lobby`: the REST operations (create, list, join, leave, start, close; records,
  events and the public view);
* :mod:`.sessions`: WebSocket connections (:class:`~.sessions.Conn`), hello, sync, welcome,
  disconnects and the away/back policy;
* :mod:`.referee`: the referee's loop (check, apply, store, broadcast) for every action;
* :mod:`.scheduler`: bots' moves, stand-ins and turn timers.

This module keeps the tables in memory in step with the store and with the other server
processes: it loads and rebuilds games from their logs, catches up with actions stored
elsewhere, and starts and stops with the app. Shared state is in :mod:`.core`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from typing import Any

from openrummy.games.families import new_match

from .core import Live, ServiceCore, hash_token
from .errors import ServiceError
from .lobby import Lobby, table_info
from .referee import Referee
from .scheduler import Scheduler
from .sessions import Conn, Sessions
from .store import TableRow

__all__ = ["Conn", "Live", "ServiceError", "TableService", "hash_token", "table_info"]

log = logging.getLogger("openrummy.server")


class TableService(Lobby, Sessions, Referee, Scheduler, ServiceCore):
    """All live tables of this process, and the operations the app exposes."""

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
        if self.settings.sweep_every > 0:
            self.spawn(self._sweep_loop())

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

    # -- tables past their time ----------------------------------------------------------
    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep for expired tables failed")

    async def sweep(self) -> list[str]:
        """Close the tables past their time; returns their ids.

        An open table nobody is connected to closes ``open_table_ttl`` seconds after it was
        created; any table closes ``table_lifetime`` seconds after (a running game is aborted,
        its seed revealed).
        """
        s = self.settings
        now = self.clock()
        expired: list[str] = []
        if s.open_table_ttl > 0:
            for row in await self.store.list_tables(
                statuses=["open"], created_before=now - s.open_table_ttl, limit=1000
            ):
                live = self.live.get(row.id)
                if live is None or not live.conns:
                    expired.append(row.id)
        if s.table_lifetime > 0:
            for row in await self.store.list_tables(
                statuses=["open", "running"], created_before=now - s.table_lifetime, limit=1000
            ):
                if row.id not in expired:
                    expired.append(row.id)
        closed = []
        for table_id in expired:
            if await self.store.close_table(table_id, at=now) in ("open", "running"):
                closed.append(table_id)
                await self._refresh(table_id)
        if closed:
            log.info("closed %d expired tables", len(closed))
        return closed

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

    async def get_live(self, table_id: str) -> Live | None:
        """The table in memory, loaded from the store if needed; None if there is none.

        A running table is held in ``live`` (its bots and timer are scheduled); a finished or
        closed one joins the small ``kept`` cache; an open one is cheap to load again and is
        held only while someone is connected to it (``hello``).
        """
        live = self._held(table_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            live = self._held(table_id)
            if live is None:
                row = await self.store.get_table(table_id)
                if row is None:
                    return None
                live = await self._build(row)
                if row.status == "running":
                    self.live[table_id] = live
                    self._schedule(live, owner=False)
                elif row.status in ("finished", "closed"):
                    self.kept[table_id] = live
                    while len(self.kept) > max(0, self.settings.finished_cache):
                        self.kept.popitem(last=False)
        self._loading.pop(table_id, None)
        return live

    def _held(self, table_id: str) -> Live | None:
        live = self.live.get(table_id)
        if live is None:
            live = self.kept.get(table_id)
            if live is not None:
                self.kept.move_to_end(table_id)
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

    # -- table changes (local and from other processes) -----------------------------------
    async def _refresh(self, table_id: str, *, owner: bool = False) -> None:
        """Reload a table's row after a change; start, stop or re-plan its game."""
        live = self.live.get(table_id)
        if live is None:
            row = await self.store.get_table(table_id)
            self._noted(table_id, row)
            if row is not None and row.status == "running":
                live = await self.get_live(table_id)
                if live is not None:
                    self._schedule(live, owner=owner)
            return
        async with live.lock:
            row = await self.store.get_table(table_id)
            self._noted(table_id, row)
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
            self._release(live)

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
