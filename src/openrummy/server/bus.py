"""Messages between server processes: PostgreSQL LISTEN/NOTIFY.

The store sends a notification in the same transaction that writes an action or changes a
table, so it is delivered exactly when the change is visible to other processes. Each
process listens on one dedicated asyncpg connection and hands every payload to the
service, which catches up from the database (the notification only says *where* to look;
the log is the truth, so a lost notification costs latency, never correctness: after a
reconnect every loaded table is resynchronised).

With SQLite there is one process and nothing to listen to (:class:`NullBus`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from sqlalchemy.engine import make_url

from .store import NOTIFY_CHANNEL

__all__ = ["Bus", "NullBus", "PostgresBus"]

log = logging.getLogger("openrummy.server")

Handler = Callable[[dict[str, Any]], Coroutine[Any, Any, None]]
Resync = Callable[[], Awaitable[None]]


class Bus:
    async def start(self, handler: Handler, resync: Resync) -> None: ...

    async def stop(self) -> None: ...


class NullBus(Bus):
    """Single-process mode (SQLite)."""


class PostgresBus(Bus):
    """LISTEN on the ``openrummy`` channel; reconnects with a resync when the link drops."""

    def __init__(self, url: str) -> None:
        # asyncpg wants a plain postgresql:// DSN, not SQLAlchemy's driver-qualified URL.
        self.dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self, handler: Handler, resync: Resync) -> None:
        self._task = asyncio.create_task(self._run(handler, resync), name="openrummy-listen")
        await asyncio.wait_for(self._ready.wait(), timeout=30)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self, handler: Handler, resync: Resync) -> None:
        import asyncpg  # type: ignore[import-untyped]

        first = True
        while True:
            try:
                conn = await asyncpg.connect(self.dsn)
            except (OSError, asyncpg.PostgresError) as e:
                log.warning("listener cannot connect (%s); retrying", e)
                await asyncio.sleep(1.0)
                continue
            try:
                await self._listen(conn, handler, resync if not first else None)
                first = False
                log.warning("listener connection lost; reconnecting")
            finally:
                with contextlib.suppress(Exception):
                    await conn.close()

    async def _listen(self, conn: Any, handler: Handler, resync: Resync | None) -> None:
        """Listen on one connection until it is lost."""
        lost = asyncio.Event()
        pending: set[asyncio.Task[None]] = set()

        def on_notify(_c: Any, _pid: int, _channel: str, payload: str) -> None:
            try:
                data = json.loads(payload)
            except ValueError:
                return
            task = asyncio.get_running_loop().create_task(handler(data))
            pending.add(task)
            task.add_done_callback(pending.discard)

        conn.add_termination_listener(lambda _c: lost.set())
        await conn.add_listener(NOTIFY_CHANNEL, on_notify)
        if resync is not None:
            await resync()
        self._ready.set()
        await lost.wait()
