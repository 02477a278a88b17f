"""Load benchmark of the game server: N tables of scripted WebSocket players.

Starts ``rummy serve`` as its own process (embedded SQLite in a temporary folder), then for
each N opens N two-player tables, each seat a scripted client on its own WebSocket
connection that plays legal moves (the ``simple`` bot, deciding from the client's own view)
after a think time. It measures the action round trip (send -> the server's update with
``reply_to``, i.e. parse, apply, store in the log, broadcast) and the accepted actions per
second, and prints one line per N::

    .venv/bin/python bench/server.py                      # N = 10, 50, 100, 200
    .venv/bin/python bench/server.py --tables 200 --seconds 60 --think 0.25

Target (issue 6): 200 concurrent tables with p99 <= 50 ms on a 2-core machine. The clients
share the machine with the server, so the numbers include their cost too. Every request
goes to 127.0.0.1 only, and each run is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from openrummy.bots import make_bot
from openrummy.rules import find_preset

PRESET = "robbers"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.actions = 0
        self.errors = 0
        self.games = 0
        self.recording = False


async def seat_player(
    url: str, table_id: str, token: str, seat: int, stats: Stats, think: float, stop: float
) -> None:
    """One scripted player: acts on its turn, after a think time, until the game ends."""
    rules = find_preset(PRESET)
    bot = make_bot("simple", rules, seat)
    rng = random.Random(f"{table_id}/{seat}")
    ws_url = url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    async with websockets.connect(ws_url, max_size=None, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seq, view = 0, None
        pending: tuple[str, float] | None = None
        n = 0
        while time.monotonic() < stop:
            if view is not None and pending is None:
                if view["match"]["outcome"] is not None:
                    return
                if view["current"] == seat:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                    n += 1
                    mid = f"{seat}-{n}"
                    action = str(bot.choose(view))
                    pending = (mid, time.perf_counter())
                    await ws.send(
                        json.dumps({"type": "action", "id": mid, "seq": seq, "action": action})
                    )
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                return
            msg = json.loads(text)
            kind = msg["type"]
            if pending is not None and msg.get("reply_to") == pending[0]:
                if kind == "update":
                    if stats.recording:
                        stats.rtts.append(time.perf_counter() - pending[1])
                        stats.actions += 1
                else:
                    stats.errors += 1
                pending = None
            if kind in ("update", "welcome") and msg.get("view") is not None and msg["seq"] >= seq:
                seq, view = msg["seq"], msg["view"]


async def table_loop(
    http: httpx.AsyncClient, url: str, stats: Stats, think: float, stop: float
) -> None:
    """Create a two-player table, play it to the end, and again, until ``stop``."""
    while time.monotonic() < stop:
        made = (await http.post("/api/tables", json={"preset": PRESET, "seats": [{}, {}]})).json()
        tid = made["table"]["id"]
        seats = [
            (await http.post(f"/api/tables/{tid}/join", json={"name": f"p{i}"})).json()
            for i in range(2)
        ]
        players = [
            asyncio.create_task(seat_player(url, tid, s["token"], s["seat"], stats, think, stop))
            for s in seats
        ]
        await asyncio.sleep(0.2)  # let both connect before the start
        r = await http.post(
            f"/api/tables/{tid}/start", headers={"Authorization": f"Bearer {made['creator_token']}"}
        )
        r.raise_for_status()
        await asyncio.gather(*players)
        stats.games += 1


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_level(url: str, tables: int, think: float, warmup: float, seconds: float) -> Stats:
    stats = Stats()
    stop = time.monotonic() + warmup + seconds
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        loops = [
            asyncio.create_task(table_loop(http, url, stats, think, stop)) for _ in range(tables)
        ]
        await asyncio.sleep(warmup)
        stats.recording = True
        start = time.monotonic()
        await asyncio.gather(*loops)
        stats.recording = False
        stats.window = time.monotonic() - start  # type: ignore[attr-defined]
    return stats


def start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "OPENRUMMY_BOT_PAUSE": "0"}
    cmd = [
        sys.executable,
        "-m",
        "openrummy.cli",
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite+aiosqlite:///{tmp / 'bench.sqlite3'}",
        "--log-level",
        "warning",
    ]
    log = (tmp / "server.log").open("wb")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: {(tmp / 'server.log').read_text()[-2000:]}")
        try:
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 60 s")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", default="10,50,100,200", help="comma-separated N")
    ap.add_argument("--think", type=float, default=0.5, help="mean think time per action (s)")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured window per N (s)")
    ap.add_argument("--warmup", type=float, default=4.0, help="unmeasured start per N (s)")
    args = ap.parse_args(argv)
    levels = [int(x) for x in args.tables.split(",") if x.strip()]
    with tempfile.TemporaryDirectory(prefix="openrummy-bench-") as d:
        proc, url = start_server(Path(d))
        try:
            print(
                f"server: {url} (SQLite, one process); preset {PRESET}, 2 seats per table, "
                f"think {args.think:g} s, window {args.seconds:g} s"
            )
            print(
                f"{'tables':>6} {'clients':>7} {'actions/s':>9} {'p50 ms':>7} {'p99 ms':>7} "
                f"{'max ms':>7} {'games':>5} {'errors':>6}"
            )
            for n in levels:
                stats = asyncio.run(run_level(url, n, args.think, args.warmup, args.seconds))
                window = getattr(stats, "window", args.seconds)
                rtt = [x * 1000 for x in stats.rtts]
                print(
                    f"{n:>6} {2 * n:>7} {stats.actions / window:>9.1f} "
                    f"{statistics.median(rtt) if rtt else float('nan'):>7.1f} "
                    f"{percentile(rtt, 0.99):>7.1f} {max(rtt, default=float('nan')):>7.1f} "
                    f"{stats.games:>5} {stats.errors:>6}",
                    flush=True,
                )
        finally:
            proc.terminate()
            proc.wait(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
