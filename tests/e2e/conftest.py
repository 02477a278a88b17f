"""Fixtures of the browser tests (see ``helpers.e2e``): a ``rummy serve`` process per module
on a free port with a temporary SQLite database, and one headless Chromium per module whose
pages each get a context of their own, closed when the test ends.

Own fixtures instead of pytest-playwright, which keeps an event loop open and breaks the
async server tests.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers.e2e import CHROMIUM, CHROMIUM_ARGS, ROOT, Server, ensure_chromium, free_port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("e2e")
    port = free_port()
    env = dict(os.environ)
    env.update(
        OPENRUMMY_E2E_SEED_FILE=str(tmp / "seed.txt"),
        OPENRUMMY_BOT_PAUSE="0.2",
        # The server's own limits, except those a test run of many tables from one address
        # meets: a watched bots-only game at its own pace, and tables created in a row.
        OPENRUMMY_BOTS_ONLY_PAUSE="0",
        OPENRUMMY_TABLES_BURST="1000",
        OPENRUMMY_OPEN_TABLES_PER_CLIENT="1000",
        OPENRUMMY_BOTS_ONLY_TABLES_PER_CLIENT="1000",
        # Every page of the run shares one address's helper budget: table checks cost
        # their CPU only, not the least charge that caps one address's requests a second.
        OPENRUMMY_WORKER_MIN_CHARGE="0",
        OPENRUMMY_CHECK_MIN_CHARGE="0",
        OPENRUMMY_CHECK_SHARE="0.1",
        OPENRUMMY_CHECK_BURST="2",
        # Every page of the run opens its WebSockets from that one address too.
        OPENRUMMY_WS_PER_CLIENT="100000",
        OPENRUMMY_WS_CONNECTS_PER_MINUTE="100000",
        # The replay's analysis: few sampled deals, short play-outs (a test game is short).
        OPENRUMMY_ANALYSIS_SAMPLES="2",
        OPENRUMMY_ANALYSIS_MAX_SAMPLES="4",
        OPENRUMMY_ANALYSIS_MAX_TURNS="6",
        XDG_DATA_HOME=str(tmp),
    )
    log = (tmp / "server.log").open("w")
    proc = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("seeded_serve.py")),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            f"sqlite+aiosqlite:///{tmp / 'e2e.sqlite3'}",
            "--log-level",
            "warning",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=ROOT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                break
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"rummy serve did not start:\n{(tmp / 'server.log').read_text()}")
        time.sleep(0.1)
    try:
        yield Server(url, tmp / "seed.txt")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium for a module's tests: it starts once, not per test. Not for the
    session: Playwright's sync API holds an event loop while it runs, which the async server
    tests on the same worker must not meet."""
    ensure_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The module's Chromium; every page a test opens has a context of its own
    (``helpers.e2e.new_page``: its own storage, its own player), and all of them are closed
    when the test ends, so nothing a test leaves open runs on into the next."""
    yield chromium
    for context in list(chromium.contexts):
        context.close()
