"""Fixtures of the server tests: a real server (uvicorn) on a free port, clients
(``helpers.server``), and a throwaway PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from helpers.server import Server, make_settings, new_pg_database, throwaway_postgres
from openrummy.server.store import Store


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    srv = Server(make_settings(tmp_path))
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()


@pytest.fixture
async def server_factory(tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """Start servers with custom settings; all are stopped at the end."""
    started: list[Server] = []

    async def start(**kw: Any) -> Server:
        srv = Server(make_settings(tmp_path, **kw))
        await srv.start()
        started.append(srv)
        return srv

    try:
        yield start
    finally:
        for srv in started:
            await srv.stop()


@pytest.fixture(scope="session")
def pg_cluster() -> Any:
    """A throwaway PostgreSQL for this test session (installed with apt-get if missing).

    Never skipped: if PostgreSQL cannot be installed or started, the test fails and says why.
    """
    module = throwaway_postgres()
    try:
        cluster = module.Cluster()
        cluster.start()
    except Exception as e:  # pragma: no cover - the message is the point
        pytest.fail(f"cannot provide the throwaway PostgreSQL the scale-out tests need: {e}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
async def pg_url(pg_cluster: Any) -> str:
    return await new_pg_database(pg_cluster)


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """A migrated store on each database (migrated twice: migrations are idempotent)."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 's.sqlite3'}"
    else:
        url = await new_pg_database(request.getfixturevalue("pg_cluster"))
    s = Store(url)
    await s.migrate()
    await s.migrate()
    try:
        yield s
    finally:
        await s.close()
