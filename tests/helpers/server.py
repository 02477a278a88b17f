"""The server tests' clients and servers: a real server (uvicorn) on a free port, clients.

Every test talks to the server the way a player does: HTTP (httpx) and WebSocket
(websockets) over 127.0.0.1. Timeouts here only guard against hangs; no test asserts on
how long something took.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from openrummy.server.app import create_app
from openrummy.server.settings import Settings

HANG_GUARD = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Api:
    """Talk to a server at ``url``: REST helpers and WebSocket clients."""

    def __init__(self, url: str) -> None:
        self.url = url
        # No keep-alive: a pooled connection that the server is closing for idleness at the
        # moment of reuse fails with ReadError on a busy machine; localhost connects are cheap.
        self.http = httpx.AsyncClient(
            base_url=url,
            timeout=HANG_GUARD,
            limits=httpx.Limits(max_keepalive_connections=0),
        )

    def ws_url(self, table_id: str) -> str:
        return self.url.replace("http://", "ws://") + f"/ws/tables/{table_id}"

    async def create(self, **body: Any) -> dict[str, Any]:
        body.setdefault("bot_pause", 0)
        r = await self.http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    async def join(self, table_id: str, name: str, seat: int | None = None) -> dict[str, Any]:
        r = await self.http.post(f"/api/tables/{table_id}/join", json={"name": name, "seat": seat})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    async def start_table(self, table_id: str, creator_token: str) -> dict[str, Any]:
        r = await self.http.post(
            f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {creator_token}"}
        )
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    async def client(self, table_id: str, token: str | None = None) -> Client:
        c = Client(await websockets.connect(self.ws_url(table_id), max_size=None))
        await c.send({"type": "hello", "token": token})
        c.welcome = await c.expect("welcome")
        return c


class Server(Api):
    """A server running in the test's event loop."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings.url)
        self.settings = settings
        self.app = create_app(settings)
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        config = uvicorn.Config(
            self.app,
            host=self.settings.host,
            port=self.settings.port,
            log_level="warning",
            ws_max_size=self.settings.ws_max_size,
            ws_per_message_deflate=False,
            lifespan="on",
        )
        self._server = uvicorn.Server(config)
        self._task = asyncio.create_task(self._server.serve())
        async with asyncio.timeout(HANG_GUARD):
            while not self._server.started:
                if self._task.done():
                    self._task.result()
                await asyncio.sleep(0.01)

    async def stop(self) -> None:
        await self.http.aclose()
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, HANG_GUARD)

    @property
    def service(self) -> Any:
        return self.app.state.service


class Process(Api):
    """``rummy serve`` as a real operating-system process (for kill -9 and scale-out)."""

    def __init__(self, db: str, *, env: dict[str, str] | None = None, log: Path) -> None:
        self.port = free_port()
        super().__init__(f"http://127.0.0.1:{self.port}")
        self.db = db
        self.env = {**os.environ, "OPENRUMMY_BOT_PAUSE": "0.05", **(env or {})}
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        cmd = [
            sys.executable,
            "-m",
            "openrummy.cli",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--log-level",
            "warning",
        ]
        out = self.log.open("ab")
        self.proc = subprocess.Popen(cmd, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        out.close()
        async with asyncio.timeout(HANG_GUARD):
            while True:
                if self.proc.poll() is not None:
                    raise AssertionError(f"the server exited: {self.log.read_text()[-3000:]}")
                try:
                    r = await self.http.get("/api/health")
                    if r.status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, exactly like a crash."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(HANG_GUARD)

    async def stop(self) -> None:
        await self.http.aclose()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(HANG_GUARD)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(HANG_GUARD)


class Client:
    """A WebSocket client that records every message it receives."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] = {}
        self._next = 0
        self._ids = 0

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def recv(self, timeout: float = HANG_GUARD) -> dict[str, Any]:
        if self._next < len(self.received):
            self._next += 1
            return self.received[self._next - 1]
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        msg: dict[str, Any] = json.loads(text)
        self.received.append(msg)
        self._next += 1
        return msg

    async def expect(
        self, kind: str, pred: Callable[[dict[str, Any]], bool] | None = None
    ) -> dict[str, Any]:
        """The next message of this type (and predicate), skipping others."""
        async with asyncio.timeout(HANG_GUARD):
            while True:
                msg = await self.recv()
                if msg["type"] == kind and (pred is None or pred(msg)):
                    return msg

    async def act(self, action: str, seq: int, **extra: Any) -> dict[str, Any]:
        """Send an action; return the reply (its update, or the error)."""
        self._ids += 1
        mid = f"a{self._ids}"
        await self.send({"type": "action", "id": mid, "seq": seq, "action": action, **extra})
        return await self.reply(mid)

    async def reply(self, mid: str | int) -> dict[str, Any]:
        async with asyncio.timeout(HANG_GUARD):
            while True:
                msg = await self.recv()
                if msg.get("reply_to") == mid:
                    return msg

    async def close(self) -> None:
        await self.ws.close()


def make_settings(tmp_path: Path, **kw: Any) -> Settings:
    base: dict[str, Any] = {
        "port": free_port(),
        "db": f"sqlite+aiosqlite:///{tmp_path / 'server.sqlite3'}",
        "bot_pause": 0.0,
        "log_level": "warning",
        # Scripted clients act faster than people; the rate-limit test sets its own.
        "rate_per_second": 1000.0,
        "rate_burst": 1000,
        # Likewise for the limits per client address (every test client is 127.0.0.1);
        # the hostile-client tests set their own.
        "tables_burst": 100_000,
        "open_tables_per_client": 100_000,
        "hello_failures_per_connection": 100_000,
        "ws_per_client": 100_000,
        "ws_connects_per_minute": 1e9,
        "bots_only_tables_per_client": 100_000,
        "hello_failures_per_minute": 100_000.0,
        "bots_only_pause": 0.0,
        "worker_queue": 1000,
        "worker_per_client": 1000,
        "worker_burst": 1e9,
        "check_burst": 1e9,
        # Most test servers never judge a table: their workers start on first use.
        "worker_prestart": False,
    }
    base.update(kw)
    return Settings(**base)


def throwaway_postgres() -> Any:
    path = Path(__file__).resolve().parents[2] / "scripts" / "throwaway_postgres.py"
    spec = importlib.util.spec_from_file_location("throwaway_postgres", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def new_pg_database(cluster: Any) -> str:
    """A fresh, empty database in the throwaway cluster; returns its URL."""
    import asyncpg  # type: ignore[import-untyped]

    name = f"t_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(cluster.url.replace("postgresql+asyncpg", "postgresql"))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return str(cluster.database_url(name))


ServerFactory = Callable[..., Awaitable[Server]]
"""The ``server_factory`` fixture: starts a server with custom settings (``make_settings``)."""
