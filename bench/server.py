"""Load benchmark of the game server: N tables of scripted WebSocket players.

Starts ``rummy serve`` as its own process (embedded SQLite in a temporary folder), then for
each N opens N two-player tables, each seat a scripted client on its own WebSocket
connection that plays legal moves (the ``simple`` bot, deciding from the client's own view)
after a think time. It measures the action round trip (send -> the server's update with
``reply_to``, i.e. parse, apply, store in the log, broadcast) and the accepted actions per
second, and prints one line per N::

    .venv/bin/python bench/server.py                      # N = 50, 100, 200, 400
    .venv/bin/python bench/server.py --tables 200 --seconds 60 --think 0.25
    .venv/bin/python bench/server.py --tables 200 --attack 4   # quiet/attack phases
    .venv/bin/python bench/server.py --request-costs 1000      # CPU per hostile request
    .venv/bin/python bench/server.py --commits 48 --tables 200 # the log commit, busy loop
    .venv/bin/python bench/server.py --postgres            # two processes on PostgreSQL

With ``--attack N`` each level runs in phases, the same tables playing throughout: quiet,
attack, quiet, attack … (``--phase`` seconds each, ``--repeat`` pairs), and the verdict is
the ratio of the median attack-phase p99 to the median quiet-phase p99, so that the rest of
the machine's load falls on both alike and one run decides. In the attack phases N hostile
clients (each from its own address, given with ``X-Forwarded-For``) work the server's
limits at the full allowed rate: table checks of the costliest kind the deck allows, sent
back to back (answered ``busy`` past the address's budget); hellos with wrong tokens at the
connection's message rate (answered ``rate_limited`` past the failed-hello limit); tables
created as fast as allowed; and the most bots-only tables an address may keep running,
created with ``bot_pause: 0`` (closed when the phase ends). The attackers cost the machine
as little as they can (a real attacker runs elsewhere): one process, one uvloop event loop
for every address, keep-alive HTTP/1.1 and WebSocket frames made once, answers read by their
length and never decoded. Each phase's line gives the CPU of every party apart: the server
(its event loop, its other threads, its helper workers), the scripted players, the
attackers' own process, and the machine's CPU wait (PSI); the summary gives each in the quiet
and attack phases, what the attack cost the server per hostile request answered, and the
nice of the server and its workers. The environment variable ``BENCH_ATTACKS`` (default
``checks,hellos,tables``) runs only some of the attacks.

With ``--commits SECONDS`` it starts no server: it times the store's log commit on SQLite
for N tables acting about twice a second, on an event loop kept a third busy by other work,
committed by the log's own thread and, in alternate turns of 4 s, through the async driver.

With ``--request-costs COUNT`` it plays no tables: it sends each kind of hostile request
COUNT times (the costly kinds fewer) to the idle server and prints the server's CPU per
request (event loop, other threads, workers), from CPU time, which a busy machine slows but
does not scramble.

With ``--pin`` the server (its event loop, its threads and its helper workers) runs on the
first CPU only, and the scripted players, the attackers and the bench on the others, as if
the clients ran on other machines: the server's CPU is then its own, and what the clients
take no longer delays it (the default lets the scheduler place every process anywhere).

With ``--postgres`` the server runs as two processes on one throwaway PostgreSQL
(``scripts/throwaway_postgres.py``); each table is created on one process and its two
players connect to different ones, so every action crosses the processes.

Target: 200 concurrent tables with p99 <= 50 ms on a 2-core machine; under attack, another
table's p99 at most twice its quiet value. The clients share the machine with the server,
so the numbers include their cost too. The scripted players' own limits per address are
lifted (``OPENRUMMY_UNLIMITED_CLIENTS=127.0.0.1``: every one of them comes from there);
the attackers' are the defaults. The server's helper workers run 10 steps of ``nice`` below
the bench (at most 19), as they run below a server started at nice 0. Every request goes to
127.0.0.1 only, and each run is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import json
import multiprocessing as mp
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

from openrummy.bots import make_bot
from openrummy.games.views import view_from_json
from openrummy.rules import find_preset

PRESET = "robbers"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    """What one level measured; ``stop`` is shared by every player (set after the setup)."""

    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.sent: list[float] = []
        """``time.monotonic()`` when each measured action was sent (one clock for every
        process on the machine): an interleaved run sorts the round trips into its phases."""
        self.actions = 0
        self.errors = 0
        self.games = 0
        self.recording = False
        self.stop = float("inf")
        self.window = 0.0
        self.server_cpu = 0.0
        self.client_cpu = 0.0
        self.lags: list[float] = []

    def running(self) -> bool:
        return time.monotonic() < self.stop


async def seat_player(
    url: str, table_id: str, token: str, seat: int, stats: Stats, think: float
) -> None:
    """One scripted player: acts on its turn, after a think time, until the game ends."""
    rules = find_preset(PRESET)
    bot = make_bot("simple", rules, seat)
    rng = random.Random(f"{table_id}/{seat}")
    ws_url = url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    async with websockets.connect(ws_url, max_size=None, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seq, view = 0, None
        pending: tuple[str, float, float] | None = None
        n = 0
        while stats.running():
            if view is not None and pending is None:
                if view["match"]["outcome"] is not None:
                    return
                if view["current"] == seat:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                    n += 1
                    mid = f"{seat}-{n}"
                    action = str(bot.choose(view_from_json(view)))
                    pending = (mid, time.perf_counter(), time.monotonic())
                    await ws.send(
                        json.dumps({"type": "action", "id": mid, "seq": seq, "action": action})
                    )
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            msg = json.loads(text)
            kind = msg["type"]
            if pending is not None and msg.get("reply_to") == pending[0]:
                if kind == "update":
                    if stats.recording:
                        stats.rtts.append(time.perf_counter() - pending[1])
                        stats.sent.append(pending[2])
                        stats.actions += 1
                else:
                    stats.errors += 1
                pending = None
            if kind in ("update", "welcome") and msg.get("view") is not None and msg["seq"] >= seq:
                seq, view = msg["seq"], msg["view"]


async def open_table(http: httpx.AsyncClient) -> tuple[str, str, list[dict[str, Any]]]:
    made = (await http.post("/api/tables", json={"preset": PRESET, "seats": [{}, {}]})).json()
    tid = made["table"]["id"]
    seats = [
        (await http.post(f"/api/tables/{tid}/join", json={"name": f"p{i}"})).json()
        for i in range(2)
    ]
    return tid, made["creator_token"], seats


async def table_loop(
    https: list[httpx.AsyncClient],
    urls: list[str],
    k: int,
    stats: Stats,
    think: float,
    ready: asyncio.Barrier,
) -> None:
    """Play two-player tables one after the other while the level runs.

    Every loop's first table is set up (created, joined, connected) before any starts, so
    the measured window is play, not the lobby.
    """
    first = True
    http = https[k % len(https)]
    while stats.running():
        tid, creator, seats = await open_table(http)
        # With several server processes the two players connect to different ones.
        players = [
            asyncio.create_task(
                seat_player(urls[(k + i) % len(urls)], tid, s["token"], s["seat"], stats, think)
            )
            for i, s in enumerate(seats)
        ]
        await asyncio.sleep(0.5)  # let both connect before the start
        if first:
            await ready.wait()
            first = False
        r = await http.post(
            f"/api/tables/{tid}/start", headers={"Authorization": f"Bearer {creator}"}
        )
        r.raise_for_status()
        await asyncio.gather(*players)
        stats.games += 1
        # A game still running when the level ends is closed: left alone, its seats would be
        # taken over by stand-in bots after the disconnect grace and load the next level.
        await http.post(f"/api/tables/{tid}/close", headers={"Authorization": f"Bearer {creator}"})


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_pressure() -> str:
    """Linux PSI: the share of time runnable tasks waited for a CPU (other work on the box)."""
    try:
        line = Path("/proc/pressure/cpu").read_text().splitlines()[0]
    except OSError:
        return "CPU pressure unknown"
    return "CPU pressure " + line.split()[1].replace("avg10=", "") + "% (10 s)"


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a server process and of its helper workers (Linux /proc)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = _stat(int(entry.name))
        except OSError:
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def cpu_split(pid: int) -> tuple[float, float, float]:
    """CPU seconds of a server process's event loop (its main thread), of its other threads
    (database driver, pool feeders, bots; ended ones included) and of its helper worker
    processes (Linux /proc)."""
    tck = os.sysconf("SC_CLK_TCK")
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    loop = (int(fields[11]) + int(fields[12])) / tck
    own = _stat(pid)
    process = (int(own[11]) + int(own[12])) / tck
    return loop, process - loop, cpu_seconds(pid) - process


# -- hostile clients ------------------------------------------------------------------------
RUNS = [f"[{a}{s} {a + 1}{s} {a + 2}{s}]" for s in "SHDC" for a in (2, 5, 8)] * 2
HEAVY_CHECK = ["[JH QH JK JK JK]", "[JD JK KD]", *RUNS]
"""A costly check the robbers deck allows (2 decks, 4 jokers): every joker open, 26 melds."""


ATTACKS = os.environ.get("BENCH_ATTACKS", "checks,hellos,tables")
"""The attacks an attacker runs (an experiment may leave some out)."""

HELLO_RATE = 20.0
"""Hellos a second on the attacker's connection: the server's default message rate."""


class AttackStats:
    def __init__(self) -> None:
        self.answers: dict[str, int] = {}

    def count(self, what: str) -> None:
        self.answers[what] = self.answers.get(what, 0) + 1


def http_request(
    method: str, path: str, address: str, body: Any = None, token: str | None = None
) -> bytes:
    """One HTTP/1.1 request (keep-alive) as bytes: made once, sent as often as wanted."""
    data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"X-Forwarded-For: {address}"]
    if token is not None:
        head.append(f"Authorization: Bearer {token}")
    if body is not None:
        head.append("Content-Type: application/json")
    head.append(f"Content-Length: {len(data)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + data


class RawHttp:
    """One keep-alive HTTP/1.1 connection that costs its client next to nothing: requests
    are bytes made in advance, and an answer is read as its status line, its head and
    ``Content-Length`` bytes (no HTTP library, no parsing of what is not needed)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, data: bytes) -> tuple[int, bytes]:
        """Send ``data``; the answer's status and body (one new connection if the last
        one was closed)."""
        for attempt in (0, 1):
            if self.reader is None or self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            try:
                self.writer.write(data)
                head = await self.reader.readuntil(b"\r\n\r\n")
                lower = head.lower()
                at = lower.find(b"\r\ncontent-length:")
                size = int(head[at + 17 : head.index(b"\r\n", at + 2)]) if at >= 0 else 0
                body = await self.reader.readexactly(size) if size else b""
                if b"\r\nconnection: close" in lower:
                    self.close()
                return int(head[9:12]), body
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def ws_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """A client's WebSocket frame (RFC 6455), masked with the all-zero key: the payload
    goes out as it is, so a frame is made once and sent as often as wanted."""
    n = len(payload)
    if n < 126:
        head = bytes([0x80 | opcode, 0x80 | n])
    elif n < 1 << 16:
        head = bytes([0x80 | opcode, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + n.to_bytes(8, "big")
    return head + b"\0\0\0\0" + payload


class RawWebSocket:
    """A WebSocket client of the least work: a handshake, pre-made frames, and each
    answer read as its payload's bytes (pings answered; nothing decoded)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def connect(cls, host: str, port: int, path: str, address: str) -> RawWebSocket:
        reader, writer = await asyncio.open_connection(host, port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nX-Forwarded-For: {address}\r\n\r\n"
            ).encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        if head[9:12] != b"101":
            raise ConnectionError(f"no WebSocket: {head[:40]!r}")
        return cls(reader, writer)

    def send(self, frame: bytes) -> None:
        self.writer.write(frame)

    async def recv(self) -> bytes | None:
        """The next text message's payload; None once the server closes."""
        while True:
            try:
                b0, b1 = await self.reader.readexactly(2)
                n = b1 & 0x7F
                if n == 126:
                    n = int.from_bytes(await self.reader.readexactly(2), "big")
                elif n == 127:
                    n = int.from_bytes(await self.reader.readexactly(8), "big")
                payload = await self.reader.readexactly(n) if n else b""
            except (ConnectionError, asyncio.IncompleteReadError):
                return None
            opcode = b0 & 0x0F
            if opcode == 0x9:  # ping
                self.send(ws_frame(payload, 0xA))
            elif opcode == 0x8:  # close
                return None
            elif opcode == 0x1:
                return payload

    def close(self) -> None:
        self.writer.close()


def answer_code(payload: bytes) -> str:
    """A server message's error code (or its type), found without decoding it."""
    for key in (b'"code":"', b'"type":"'):
        at = payload.find(key)
        if at >= 0:
            start = at + len(key)
            return payload[start : payload.index(b'"', start)].decode()
    return "?"


class Phase:
    """The attack's switch as the attackers' loop sees it: the bench's process events
    (``active``, ``stop``) copied into plain flags every 50 ms, so an attack loop tests
    a flag, not a lock shared between processes."""

    def __init__(self, stop: Any, active: Any) -> None:
        self.stop, self.active = stop, active
        self.on = False
        self.over = False
        self.changed = asyncio.Event()

    async def follow(self) -> None:
        while not self.over:
            on, over = self.active.is_set(), self.stop.is_set()
            if on != self.on or over:
                self.on, self.over = on, over
                self.changed.set()
                self.changed = asyncio.Event()
            await asyncio.sleep(0.05)

    async def attacking(self) -> bool:
        """Wait while the attack is paused; False once the run is over."""
        while not self.on and not self.over:
            await self.changed.wait()
        return not self.over


async def _hostile_table(lobby: RawHttp, address: str, **extra: Any) -> tuple[str, str]:
    """Create and start the attacker's own table (a person's seat and a bot) from
    ``address``: its id and the seat's token."""
    body = {
        "preset": PRESET,
        "seats": [{}, {"kind": "bot", "bot": "simple"}],
        "creator_seat": 0,
        "creator_name": "Mallory",
        **extra,
    }
    _, answer = await lobby.request(http_request("POST", "/api/tables", address, body, None))
    made = json.loads(answer)
    tid = str(made["table"]["id"])
    start = http_request("POST", f"/api/tables/{tid}/start", address, None, made["creator_token"])
    await lobby.request(start)
    return tid, str(made["seat_token"])


async def _attacker(url: str, address: str, phase: Phase, stats: AttackStats) -> None:
    """One hostile address: checks back to back, wrong hellos, tables, bots-only games.

    It attacks while the phase is on and idles while it is off (its bots-only games are
    then closed, so that they do not play on into a quiet phase), until the run is over.
    """
    host, port = url.removeprefix("http://").rsplit(":", 1)
    lobby = RawHttp(host, int(port))

    def post(path: str, body: Any = None, token: str | None = None) -> bytes:
        return http_request("POST", path, address, body, token)

    tid, token = await _hostile_table(lobby, address)

    async def checks() -> None:
        http = RawHttp(host, int(port))
        check = post(f"/api/tables/{tid}/check", {"table": HEAVY_CHECK}, token)
        while await phase.attacking():
            while phase.on:
                status, _ = await http.request(check)
                stats.count(f"check {status}")
                if status == 503:
                    await asyncio.sleep(0.05)  # back to back, with a breath after a refusal

    async def hellos() -> None:
        """Wrong hellos at the connection's message rate; when the server closes the
        connection (its failed hellos), a new one, and when a new one is refused (the
        address's connections), another try half a second later."""
        frames = [
            ws_frame(json.dumps({"type": "hello", "token": f"guess-{k}"}).encode())
            for k in range(256)
        ]
        loop = asyncio.get_running_loop()
        k = 0
        while await phase.attacking():
            try:
                ws = await RawWebSocket.connect(host, int(port), f"/ws/tables/{tid}", address)
            except (ConnectionError, asyncio.IncompleteReadError):
                stats.count("connect refused")
                await asyncio.sleep(0.5)
                continue
            stats.count("connect 101")
            closed = asyncio.Event()

            async def answers(ws: RawWebSocket = ws, closed: asyncio.Event = closed) -> None:
                while (payload := await ws.recv()) is not None:
                    stats.count("hello " + answer_code(payload))
                closed.set()

            reading = asyncio.create_task(answers())
            due = loop.time()
            while phase.on and not closed.is_set():
                ws.send(frames[k % len(frames)])
                k += 1
                due = max(due + 1 / HELLO_RATE, loop.time() - 1 / HELLO_RATE)
                await asyncio.sleep(due - loop.time())
            ws.close()
            reading.cancel()

    async def tables() -> None:
        http = RawHttp(host, int(port))
        bots = [{"kind": "bot", "bot": "simple"}] * 2
        create = post(
            "/api/tables", {"preset": PRESET, "seats": bots, "bot_pause": 0, "title": "spam"}
        )
        mine: list[tuple[str, str]] = []
        while await phase.attacking():
            while phase.on:
                status, body = await http.request(create)
                stats.count(f"create {status}")
                if status == 201:
                    made = json.loads(body)
                    mine.append((made["table"]["id"], made["creator_token"]))
                    await http.request(post(f"/api/tables/{mine[-1][0]}/start", token=mine[-1][1]))
                else:
                    await asyncio.sleep(0.5)
            for table_id, creator in mine:
                await http.request(post(f"/api/tables/{table_id}/close", token=creator))
            mine.clear()

    kinds = {"checks": checks, "hellos": hellos, "tables": tables}
    await asyncio.gather(*(kinds[k]() for k in ATTACKS.split(",")))


def attack_process(urls: list[str], addresses: int, stop: Any, active: Any, out: Any) -> None:
    """Entry point of the hostile clients' process (one asyncio loop on uvloop for every
    address): they attack while ``active`` is set, until ``stop`` is set."""
    import uvloop

    stats = AttackStats()

    async def run() -> None:
        phase = Phase(stop, active)
        following = asyncio.create_task(phase.follow())
        await asyncio.gather(
            *(
                _attacker(urls[i % len(urls)], f"10.66.0.{i + 1}", phase, stats)
                for i in range(addresses)
            )
        )
        following.cancel()

    try:
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            runner.run(run())
    finally:
        out.put(stats.answers)


# -- the server's CPU per hostile request, by kind -------------------------------------------
async def request_costs(url: str, pid: int, count: int) -> None:
    """Each kind of hostile request ``count`` times (fewer of the costly kinds) against an
    otherwise idle server, one after the other: the server's CPU per request, split into its
    event loop, its other threads and its helper workers (Linux /proc, in clock ticks: the
    figures are averages over many requests), and the client's own CPU per request."""
    host, port_text = url.removeprefix("http://").rsplit(":", 1)
    port = int(port_text)

    def post(path: str, body: Any = None, token: str | None = None, address: str = "") -> bytes:
        return http_request("POST", path, address or "10.77.0.1", body, token)

    lobby = RawHttp(host, port)
    tid, token = await _hostile_table(lobby, "10.77.0.1", bot_pause=30)

    async def repeat(data: bytes, n: int) -> dict[str, int]:
        http = RawHttp(host, port)
        seen: dict[str, int] = {}
        for _ in range(n):
            status, _ = await http.request(data)
            seen[str(status)] = seen.get(str(status), 0) + 1
        http.close()
        return seen

    async def hellos(sockets: list[RawWebSocket], each: int) -> dict[str, int]:
        seen: dict[str, int] = {}
        for k in range(each):
            for ws in sockets:
                ws.send(ws_frame(json.dumps({"type": "hello", "token": f"guess-{k}"}).encode()))
                answer = await ws.recv()
                code = answer_code(answer or b"")
                seen[code] = seen.get(code, 0) + 1
            await asyncio.sleep(1 / HELLO_RATE)  # within the connection's message rate
        for ws in sockets:
            ws.close()
        return seen

    async def refused(n: int, address: str) -> dict[str, int]:
        seen: dict[str, int] = {}
        for _ in range(n):
            try:
                (await RawWebSocket.connect(host, port, f"/ws/tables/{tid}", address)).close()
                seen["101"] = seen.get("101", 0) + 1
            except ConnectionError:
                seen["403"] = seen.get("403", 0) + 1
        return seen

    async def connects(n: int) -> dict[str, int]:
        for k in range(n):
            ws = await RawWebSocket.connect(host, port, f"/ws/tables/{tid}", f"10.78.0.{k % 250}")
            ws.close()
        return {"101": n}

    def ticks() -> tuple[float, float, float]:
        return cpu_split(pid)

    print(
        f"{'request':<48} {'count':>6} {'event loop':>10} {'threads':>8} {'workers':>8} "
        f"{'client':>7}  answers"
    )

    async def measure(what: str, n: int, work: Awaitable[dict[str, int]]) -> None:
        await asyncio.sleep(0.5)  # let the last kind's work end
        before, mine = ticks(), time.process_time()
        seen = await work
        await asyncio.sleep(0.5)
        after, spent = ticks(), time.process_time() - mine
        loop, threads, workers = (1000 * (b - a) / n for a, b in zip(before, after, strict=True))
        print(
            f"{what:<48} {n:>6} {loop:>7.3f} ms {threads:>5.3f} ms {workers:>5.3f} ms "
            f"{1000 * spent / n:>4.3f} ms  "
            + ", ".join(f"{k}: {v}" for k, v in sorted(seen.items())),
            flush=True,
        )

    heavy = post(f"/api/tables/{tid}/check", {"table": HEAVY_CHECK}, token)
    await measure(
        "GET /api/health (the least request)",
        count,
        repeat(http_request("GET", "/api/health", "10.77.0.1"), count),
    )
    await repeat(heavy, 60)  # the address's budget is spent: from now on, busy
    await measure("table check refused busy (over budget)", count, repeat(heavy, count))
    judged = max(10, count // 20)
    await measure(
        "table check judged (26 melds, 4 open jokers)",
        judged,
        repeat(
            post(f"/api/tables/{tid}/check", {"table": HEAVY_CHECK}, token, "127.0.0.1"), judged
        ),
    )
    spam = post(
        "/api/tables",
        {"preset": PRESET, "seats": [{"kind": "bot", "bot": "simple"}] * 2, "title": "spam"},
    )
    await repeat(spam, 30)  # at the address's limits: from now on, refused
    await measure("table creation refused rate_limited", count, repeat(spam, count))
    few = max(10, count // 10)
    await measure("WebSocket connection (opened, closed)", few, connects(few))
    # Each address may fail 10 hellos a minute (the default), each connection 3: five
    # connections of two hellos per address are answered bad_token, five more rate_limited.
    addresses = [f"10.79.0.{k}" for k in range(max(1, few // 10))]

    async def connections() -> list[RawWebSocket]:
        return [
            await RawWebSocket.connect(host, port, f"/ws/tables/{tid}", a)
            for a in addresses
            for _ in range(5)
        ]

    sockets = await connections()
    await measure(
        "hello with a wrong token, answered bad_token", len(sockets) * 2, hellos(sockets, 2)
    )
    sockets = await connections()
    await measure(
        "hello with a wrong token, refused rate_limited", len(sockets) * 2, hellos(sockets, 2)
    )
    await refused(40, "10.80.0.1")  # past the address's new connections a minute
    await measure("WebSocket connection refused (address's limit)", few, refused(few, "10.80.0.1"))


# -- the log commit under a busy event loop ------------------------------------------------
async def commit_latency(tables: int, seconds: float) -> None:
    """The store's ``append_action`` on SQLite as the server calls it, on an event loop kept
    about a third busy by other work (0.3 ms slices), for ``tables`` tables acting about
    twice a second: the log's own thread against the async driver, in turns of 4 s."""
    from openrummy.server.store import ActionRow, SeatRow, Store, TableRow

    def busy(ms: float) -> None:
        end = time.perf_counter() + ms / 1000
        while time.perf_counter() < end:
            pass

    with tempfile.TemporaryDirectory(prefix="openrummy-bench-") as d:
        store = Store(f"sqlite+aiosqlite:///{d}/log.sqlite3")
        await store.migrate()
        await store.start()
        thread = store._log
        seats = (
            SeatRow(0, "human", None, None, None, False),
            SeatRow(1, "human", None, None, None, False),
        )
        for k in range(tables):
            row = TableRow(
                id=f"t{k}", title="t", preset=PRESET, family="manipulation", options={},
                players=2, bot_pause=0.0, time_limit=None, status="open", creator_hash="h",
                created_at=0.0, seats=seats, game=None,
            )  # fmt: skip
            await store.create_table(row)
            await store.start_game(
                f"t{k}", seed="0" * 64, commitment="c", started_at=0.0, bot_seats={}
            )
        done = False
        way = "thread"
        waits: dict[str, list[float]] = {"thread": [], "driver": []}

        async def other_work() -> None:
            while not done:
                busy(0.3)
                await asyncio.sleep(0.0006)

        async def table(k: int) -> None:
            rng, seq = random.Random(k), 0
            while not done:
                await asyncio.sleep(rng.uniform(0.25, 0.75))
                seq += 1
                mine, t = way, time.perf_counter()
                await store.append_action(
                    f"t{k}", ActionRow(seq, 0, "draw", 1.0, True, "{}", "seat")
                )
                if way == mine:
                    waits[mine].append(1000 * (time.perf_counter() - t))

        tasks = [asyncio.create_task(other_work())]
        tasks += [asyncio.create_task(table(k)) for k in range(tables)]
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for way in ("thread", "driver"):
                store._log = thread if way == "thread" else None
                await asyncio.sleep(4)
        done = True
        await asyncio.gather(*tasks)
        store._log = thread
        await store.close()
    print(f"{'commit by':<34} {'commits':>7} {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7}")
    for name, label in (
        ("thread", "the log's thread (one hand-over)"),
        ("driver", "the async driver (five)"),
    ):
        v = waits[name]
        print(
            f"{label:<34} {len(v):>7} {percentile(v, 0.5):>7.1f} {percentile(v, 0.9):>7.1f} "
            f"{percentile(v, 0.99):>7.1f}"
        )


async def client_level(
    urls: list[str], tables: int, think: float, warmup: float, seconds: float, go: Any
) -> Stats:
    """One client process's share: set its tables up, wait for every process, then play."""
    stats = Stats()
    ready = asyncio.Barrier(tables + 1)
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    lags: list[float] = []

    async def watch_loop() -> None:
        # How late this process's event loop wakes up: a busy client delays the replies it
        # reads, and that delay lands in the round trips it measures.
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            if stats.recording:
                lags.append(time.perf_counter() - t - 0.01)

    https = [httpx.AsyncClient(base_url=u, timeout=120, limits=limits) for u in urls]
    try:
        loops = [
            asyncio.create_task(table_loop(https, urls, k, stats, think, ready))
            for k in range(tables)
        ]
        async with asyncio.timeout(300):
            await ready.wait()
        await asyncio.to_thread(go.wait, 300)  # every client process is set up
        # The load generator's own long-lived objects (bots, views) need no collector passes.
        gc.freeze()
        watcher = asyncio.create_task(watch_loop())
        stats.stop = time.monotonic() + warmup + seconds
        await asyncio.sleep(warmup)
        stats.recording = True
        mine0 = time.process_time()
        await asyncio.sleep(seconds)
        stats.recording = False
        stats.client_cpu = time.process_time() - mine0
        stats.lags = lags
        watcher.cancel()
        await asyncio.gather(*loops)
    finally:
        for http in https:
            await http.aclose()
    return stats


def client_process(
    urls: list[str], tables: int, think: float, warmup: float, seconds: float, go: Any, out: Any
) -> None:
    """Entry point of one client process: its measurements go back through ``out``."""
    try:
        stats = asyncio.run(client_level(urls, tables, think, warmup, seconds, go))
    except BaseException as e:  # report, so the parent does not wait for nothing
        go.abort()
        out.put({"error": f"{type(e).__name__}: {e}"})
        raise
    out.put(
        {
            "rtts": stats.rtts,
            "sent": stats.sent,
            "actions": stats.actions,
            "errors": stats.errors,
            "games": stats.games,
            "client_cpu": stats.client_cpu,
            "lags": stats.lags,
        }
    )


def run_level(
    urls: list[str],
    pids: list[int],
    tables: int,
    think: float,
    warmup: float,
    seconds: float,
    procs: int,
    window: Callable[[float], None] | None = None,
    players: list[int] | None = None,
) -> Stats:
    """N tables split over ``procs`` client processes, measured over the same window
    (``window(start)``, if given, runs it: it returns when ``seconds`` have passed; the
    client processes' ids are added to ``players``, if given)."""
    ctx = mp.get_context("spawn")
    procs = max(1, min(procs, tables))
    go = ctx.Barrier(procs + 1)
    out = ctx.Queue()
    shares = [tables // procs + (1 if i < tables % procs else 0) for i in range(procs)]
    workers = [
        ctx.Process(
            target=client_process,
            args=(urls, share, think, warmup, seconds, go, out),
            daemon=True,
        )
        for share in shares
    ]
    for w in workers:
        w.start()
        if players is not None and w.pid is not None:
            players.append(w.pid)
    stats = Stats()
    try:
        go.wait(300)
    except threading.BrokenBarrierError:
        for w in workers:
            w.kill()
        raise SystemExit(f"a client process failed: {out.get(timeout=5)}") from None
    time.sleep(warmup)
    start = time.monotonic()
    cpu0 = sum(cpu_seconds(p) for p in pids)
    if window is None:
        time.sleep(seconds)
    else:
        window(start)
    stats.server_cpu = sum(cpu_seconds(p) for p in pids) - cpu0
    stats.window = time.monotonic() - start
    for _ in workers:
        part = out.get(timeout=300)
        if "error" in part:
            raise SystemExit(f"a client process failed: {part['error']}")
        stats.rtts += part["rtts"]
        stats.sent += part["sent"]
        stats.lags += part["lags"]
        stats.actions += part["actions"]
        stats.errors += part["errors"]
        stats.games += part["games"]
        stats.client_cpu += part["client_cpu"]
    for w in workers:
        w.join(60)
    return stats


LIFTED = {
    # The scripted players all come from 127.0.0.1: the limits per address are not theirs
    # (the attackers come from other addresses, with the default limits).
    "OPENRUMMY_UNLIMITED_CLIENTS": "127.0.0.1",
}


def worker_nice() -> int:
    """The helper workers' nice for a server started by this bench: 10 steps below the
    bench's own (at most 19), as a server's default workers are below a server at nice 0,
    so that a bench run under ``nice -n 10`` keeps the event loop ahead of the judging
    (``OPENRUMMY_WORKER_NICE`` in the environment wins)."""
    return min(19, os.nice(0) + 10)


def start_server(
    tmp: Path, db: str | None = None, name: str = "server", cpus: set[int] | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``rummy serve``; with ``cpus``, the server and every process and thread it
    starts (its helper workers) run only on those CPUs."""
    port = free_port()
    env = {
        "OPENRUMMY_WORKER_NICE": str(worker_nice()),
        **os.environ,
        "OPENRUMMY_BOT_PAUSE": "0",
        **LIFTED,
    }
    cmd = [
        sys.executable,
        "-m",
        "openrummy.cli",
        "serve",
        "--port",
        str(port),
        "--db",
        db or f"sqlite+aiosqlite:///{tmp / 'bench.sqlite3'}",
        "--log-level",
        "warning",
    ]
    log = (tmp / f"{name}.log").open("wb")
    pin = None if cpus is None else (lambda: os.sched_setaffinity(0, cpus))
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, preexec_fn=pin)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: {(tmp / f'{name}.log').read_text()[-2000:]}")
        try:
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 60 s")


class _Running:
    """Stands in for the server process when the server was started elsewhere."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def terminate(self) -> None:
        pass

    def wait(self, timeout: float) -> None:
        pass


def postgres_database() -> tuple[Any, str]:
    """A throwaway PostgreSQL cluster and a fresh database in it (its async URL)."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "scripts" / "throwaway_postgres.py"
    spec = importlib.util.spec_from_file_location("throwaway_postgres", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cluster = module.Cluster()
    cluster.start()

    async def create() -> None:
        import asyncpg  # type: ignore[import-untyped]

        conn = await asyncpg.connect(cluster.url.replace("postgresql+asyncpg", "postgresql"))
        try:
            await conn.execute('CREATE DATABASE "bench"')
        finally:
            await conn.close()

    asyncio.run(create())
    return cluster, str(cluster.database_url("bench"))


def report(n: int, stats: Stats, label: str) -> None:
    rtt = [x * 1000 for x in stats.rtts]
    rate = stats.actions / stats.window
    per_action = 1000 * stats.server_cpu / max(1, stats.actions)
    print(
        f"{n:>6} {label:>7} {rate:>9.1f} "
        f"{statistics.median(rtt) if rtt else float('nan'):>7.1f} "
        f"{percentile(rtt, 0.99):>7.1f} {max(rtt, default=float('nan')):>7.1f} "
        f"{100 * stats.server_cpu / stats.window:>9.0f}% {per_action:>9.2f} "
        f"{100 * stats.client_cpu / stats.window:>9.0f}% {stats.errors:>6} "
        f"{1000 * percentile(stats.lags, 0.99):>11.1f} ms",
        flush=True,
    )


def nice_values(pid: int) -> str:
    """The ``nice`` of a server process and of its helper workers (Linux /proc)."""
    own = int(_stat(pid)[16])
    workers = sorted(
        {
            int(_stat(int(e.name))[16])
            for e in Path("/proc").iterdir()
            if e.name.isdigit() and _child_of(int(e.name), pid)
        }
    )
    return f"server {own}, helper workers {', '.join(map(str, workers)) or 'none'}"


def _child_of(pid: int, parent: int) -> bool:
    """Whether ``pid`` is a worker process of ``parent`` (multiprocessing's resource
    tracker, its other child, is not)."""
    try:
        return (
            int(_stat(pid)[1]) == parent
            and b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
        )
    except OSError:
        return False


def cpu_waiting() -> float:
    """Seconds (since boot) during which some runnable task waited for a CPU (Linux PSI
    ``some`` total; 0 where the kernel does not report it)."""
    try:
        line = Path("/proc/pressure/cpu").read_text().splitlines()[0]
    except OSError:
        return 0.0
    return int(line.rsplit("total=", 1)[1]) / 1e6


class Meter:
    """CPU seconds of every party of an interleaved run, read at the start and end of each
    phase (Linux /proc): the server (its event loop, its other threads, its helper workers),
    the scripted players' processes, the attackers' process, and the machine's CPU wait."""

    PARTS = ("server", "loop", "threads", "workers", "players", "attackers", "waiting")

    def __init__(self, pids: list[int], players: list[int], attacker: int) -> None:
        self.pids, self.players, self.attacker = pids, players, attacker

    def read(self) -> dict[str, float]:
        split = [sum(x) for x in zip(*(cpu_split(p) for p in self.pids), strict=True)]
        return {
            "server": sum(split),
            "loop": split[0],
            "threads": split[1],
            "workers": split[2],
            "players": sum(cpu_seconds(p) for p in self.players),
            "attackers": cpu_seconds(self.attacker),
            "waiting": cpu_waiting(),
        }


PHASE_COLUMNS = (
    f"{'tables':>6} {'load':>7} {'phase':>5} {'actions/s':>9} {'p50 ms':>7} {'p99 ms':>7} "
    f"{'max ms':>7} {'server':>7} {'loop':>6} {'threads':>7} {'workers':>7} {'players':>7} "
    f"{'attackers':>9} {'waiting':>7} {'loadavg':>7}"
)
PHASE_LEGEND = """\
CPU columns, in % of one core over the phase (this machine has {cores}): server = its event loop
+ its other threads (database driver, pool feeders, bots) + its helper workers; players = the
scripted clients' processes; attackers = the hostile clients' own process (a real attacker runs
on other machines: that is the bench's cost, not the server's); waiting = the share of the
phase in which some runnable task waited for a CPU (Linux PSI): the machine's contention."""


def interleaved(
    urls: list[str], pids: list[int], n: int, args: argparse.Namespace
) -> tuple[float, float]:
    """One level with the attack switched on and off: quiet, attack, quiet, attack … (each
    ``--phase`` seconds, ``--repeat`` times each), the same tables playing throughout.

    Prints each phase (its first ``--settle`` seconds, while the previous phase's backlog
    clears, are not counted) with its CPU split by party, then the summary: each party's CPU
    in the quiet and the attack phases, what the attack costs the server per hostile request
    answered, and the ratio of the median attack p99 to the median quiet p99 (noise from the
    rest of the machine falls on both kinds of phase alike). Returns the two medians.
    """
    ctx = mp.get_context("spawn")
    stop, active, out = ctx.Event(), ctx.Event(), ctx.Queue()
    attacker = ctx.Process(
        target=attack_process, args=(urls, args.attack, stop, active, out), daemon=True
    )
    attacker.start()
    labels = ["quiet", "attack"] * args.repeat
    phases: list[dict[str, Any]] = []
    players: list[int] = []

    def window(start: float) -> None:
        meter = Meter(pids, players, attacker.pid or 0)
        t0 = start
        for label in labels:
            if label == "attack":
                active.set()
            else:
                active.clear()
            before = meter.read()
            time.sleep(max(0.0, t0 + args.phase - time.monotonic()))
            t1 = time.monotonic()
            after = meter.read()
            phases.append(
                {
                    "label": label,
                    "start": t0,
                    "end": t1,
                    "cpu": {k: after[k] - before[k] for k in Meter.PARTS},
                    "load": os.getloadavg()[0],
                }
            )
            t0 = t1
        active.clear()

    try:
        stats = run_level(
            urls,
            pids,
            n,
            args.think,
            args.warmup,
            args.phase * len(labels),
            args.client_procs,
            window,
            players,
        )
    finally:
        stop.set()
    answers = out.get(timeout=120)
    attacker.join(60)
    p99s: dict[str, list[float]] = {"quiet": [], "attack": []}
    for k, ph in enumerate(phases):
        begin = ph["start"] + args.settle
        rtt = [
            1000 * r
            for r, sent in zip(stats.rtts, stats.sent, strict=True)
            if begin <= sent < ph["end"]
        ]
        p99 = percentile(rtt, 0.99)
        p99s[ph["label"]].append(p99)
        span = ph["end"] - ph["start"]
        share = {part: 100 * x / span for part, x in ph["cpu"].items()}
        print(
            f"{n:>6} {ph['label']:>7} {k + 1:>5} {len(rtt) / (ph['end'] - begin):>9.1f} "
            f"{statistics.median(rtt) if rtt else float('nan'):>7.1f} {p99:>7.1f} "
            f"{max(rtt, default=float('nan')):>7.1f} {share['server']:>6.0f}% "
            f"{share['loop']:>5.0f}% {share['threads']:>6.0f}% {share['workers']:>6.0f}% "
            f"{share['players']:>6.0f}% {share['attackers']:>8.0f}% {share['waiting']:>6.0f}% "
            f"{ph['load']:>7.1f}",
            flush=True,
        )
    quiet, attack = statistics.median(p99s["quiet"]), statistics.median(p99s["attack"])
    # Each party's CPU per second of each kind of phase (all its phases together).
    seconds = {
        label: sum(ph["end"] - ph["start"] for ph in phases if ph["label"] == label)
        for label in ("quiet", "attack")
    }
    rate = {
        label: {
            part: sum(ph["cpu"][part] for ph in phases if ph["label"] == label) / seconds[label]
            for part in Meter.PARTS
        }
        for label in ("quiet", "attack")
    }
    q, a = rate["quiet"], rate["attack"]

    def pct(x: float) -> str:
        return f"{100 * x:.0f} %"

    print(
        f"{n:>6} CPU, quiet -> attack phases (% of one core): server {pct(q['server'])} -> "
        f"{pct(a['server'])} (event loop {pct(q['loop'])} -> {pct(a['loop'])}, other threads "
        f"{pct(q['threads'])} -> {pct(a['threads'])}, workers {pct(q['workers'])} -> "
        f"{pct(a['workers'])}); players {pct(q['players'])} -> {pct(a['players'])}; "
        f"attackers' own process {pct(a['attackers'])} (not the server's); CPU waiting "
        f"{pct(q['waiting'])} -> {pct(a['waiting'])} of the time",
        flush=True,
    )
    # What the attack costs the server per hostile request answered: its extra CPU in the
    # attack phases over the quiet ones (per second), times the attack's seconds.
    requests = sum(answers.values())
    extra = {
        part: 1000 * (a[part] - q[part]) * seconds["attack"] / max(1, requests)
        for part in ("loop", "threads", "workers")
    }
    print(
        f"{n:>6} server CPU per hostile request answered ({requests} in "
        f"{seconds['attack']:.0f} s): event loop {extra['loop']:+.2f} ms, other threads "
        f"{extra['threads']:+.2f} ms, workers {extra['workers']:+.2f} ms",
        flush=True,
    )
    print(
        f"{n:>6} nice: {'; '.join(nice_values(p) for p in pids)} (the workers judge at a "
        "lower priority than the event loop only where their nice is higher)",
        flush=True,
    )
    print(
        f"{n:>6} median p99: quiet {quiet:.1f} ms, attack {attack:.1f} ms, "
        f"ratio {attack / quiet:.2f} (target <= 2); errors {stats.errors}",
        flush=True,
    )
    print(
        f"{'':>6} the attackers' answers: "
        + ", ".join(f"{k}: {v}" for k, v in sorted(answers.items())),
        flush=True,
    )
    return quiet, attack


def pinning(pin: bool) -> tuple[set[int] | None, set[int] | None]:
    """With ``--pin``: the server's CPUs (the first one) and everyone else's (the others);
    else no pinning (the scheduler places every process on any CPU)."""
    if not pin:
        return None, None
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise SystemExit("--pin needs at least 2 CPUs")
    return {cpus[0]}, set(cpus[1:])


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", default="50,100,200,400", help="comma-separated N")
    ap.add_argument("--think", type=float, default=0.5, help="mean think time per action (s)")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured window per N (s)")
    ap.add_argument(
        "--warmup",
        type=float,
        default=15.0,
        help="unmeasured start per N (s): all N tables start at once, which queues their "
        "first writes; the window measures play after that",
    )
    ap.add_argument(
        "--client-procs",
        type=int,
        default=2,
        help="processes the scripted clients are spread over (one asyncio loop each)",
    )
    ap.add_argument(
        "--attack",
        type=int,
        default=0,
        metavar="ADDRESSES",
        help="run each N in phases, quiet and under attack by this many hostile addresses "
        "in turn (see --phase, --repeat)",
    )
    ap.add_argument("--phase", type=float, default=20.0, help="with --attack: seconds per phase")
    ap.add_argument("--repeat", type=int, default=3, help="with --attack: quiet/attack pairs per N")
    ap.add_argument(
        "--settle",
        type=float,
        default=2.0,
        help="with --attack: seconds at the start of each phase that are not counted",
    )
    ap.add_argument(
        "--postgres", action="store_true", help="two server processes on a throwaway PostgreSQL"
    )
    ap.add_argument(
        "--pin",
        action="store_true",
        help="the server and its helper workers on CPU 0 only, the scripted players, the "
        "attackers and the bench on the other CPUs (as if the clients ran on other machines)",
    )
    ap.add_argument(
        "--url", help="use this running server (127.0.0.1 only) instead of starting one"
    )
    ap.add_argument("--pid", type=int, help="with --url: the server's process id, for its CPU")
    ap.add_argument(
        "--commits",
        type=float,
        default=0,
        metavar="SECONDS",
        help="instead of a server: the SQLite log commit under a busy event loop for "
        "--tables N tables (the first level), the log's thread against the async driver",
    )
    ap.add_argument(
        "--request-costs",
        type=int,
        default=0,
        metavar="COUNT",
        help="instead of tables: send each kind of hostile request COUNT times (the costly "
        "ones fewer) to an idle server and print its CPU per request",
    )
    args = ap.parse_args(argv)
    levels = [int(x) for x in args.tables.split(",") if x.strip()]
    if args.pin and (args.postgres or args.url):
        raise SystemExit("--pin: only for the one server this bench starts itself")
    if args.commits:
        import uvloop

        print(
            f"SQLite log commits, {levels[0]} tables acting about twice a second, an event "
            f"loop a third busy with other work; load average before: "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {cpu_pressure()}"
        )
        uvloop.run(commit_latency(levels[0], args.commits))
        return 0
    cluster: Any = None
    with tempfile.TemporaryDirectory(prefix="openrummy-bench-") as d:
        procs: list[_Running | subprocess.Popen[bytes]] = []
        urls: list[str] = []
        if args.url:
            if not args.url.startswith(("http://127.", "http://localhost")):
                raise SystemExit("--url must be a server on this machine (127.0.0.1)")
            procs.append(_Running(args.pid or os.getpid()))
            urls.append(args.url)
            where = "a running server"
        elif args.postgres:
            cluster, db = postgres_database()
            for k in range(2):
                proc, url = start_server(Path(d), db, f"server{k}")
                procs.append(proc)
                urls.append(url)
            where = "PostgreSQL, two processes"
        else:
            server_cpus, rest = pinning(args.pin)
            proc, url = start_server(Path(d), cpus=server_cpus)
            if rest is not None:
                # The scripted players and the attackers are started later, from here:
                # they inherit this.
                os.sched_setaffinity(0, rest)
            procs.append(proc)
            urls.append(url)
            where = "SQLite, one process" + (
                f"; pinned: the server on CPU {sorted(server_cpus or ())}, the clients and "
                f"the bench on CPU {sorted(rest or ())}"
                if args.pin
                else ""
            )
        pids = [p.pid for p in procs]
        try:
            print(
                f"server: {', '.join(urls)} ({where}); preset {PRESET}, 2 seats per table, "
                f"think {args.think:g} s, window {args.seconds:g} s; load average before: "
                f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {cpu_pressure()}"
            )
            print(
                f"the bench runs at nice {os.nice(0)}; a server it starts runs there too, "
                "its helper workers at nice "
                f"{os.environ.get('OPENRUMMY_WORKER_NICE', worker_nice())} (OPENRUMMY_WORKER_NICE)"
            )
            if args.request_costs:
                asyncio.run(request_costs(urls[0], pids[0], args.request_costs))
                levels = []
            elif args.attack:
                print(PHASE_LEGEND.format(cores=os.cpu_count()))
                print(PHASE_COLUMNS)
            else:
                print(
                    f"{'tables':>6} {'load':>7} {'actions/s':>9} {'p50 ms':>7} {'p99 ms':>7} "
                    f"{'max ms':>7} {'server CPU':>10} {'ms/action':>9} {'client CPU':>10} "
                    f"{'errors':>6} {'client lag p99':>14}"
                )
            for n in levels:
                if args.attack:
                    interleaved(urls, pids, n, args)
                    continue
                stats = run_level(
                    urls, pids, n, args.think, args.warmup, args.seconds, args.client_procs
                )
                report(n, stats, "quiet")
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                p.wait(30)
            if cluster is not None:
                cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
