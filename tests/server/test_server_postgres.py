"""Scale-out: two ``rummy serve`` processes on one (throwaway) PostgreSQL database.

An action accepted by one process reaches the players connected to the other (LISTEN/
NOTIFY), and the two can never both accept the same turn (the action log's primary key).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from helpers.players import play_out
from helpers.server import Process
from openrummy.record import GameRecord

pytestmark = pytest.mark.anyio

OPTIONS = {"match.format": "SINGLE_ROUND"}


async def _pair(pg_url: str, tmp_path: Path) -> tuple[Process, Process]:
    a = Process(pg_url, log=tmp_path / "a.log")
    b = Process(pg_url, log=tmp_path / "b.log")
    # Both start (and migrate) at the same time: the migration lock serialises them.
    await asyncio.gather(a.start(), b.start())
    return a, b


async def test_players_on_two_processes_play_one_game(pg_url: str, tmp_path: Path) -> None:
    a, b = await _pair(pg_url, tmp_path)
    try:
        made = await a.create(
            preset="rummikub",
            options=OPTIONS,
            seats=[{}, {}, {"kind": "bot", "bot": "simple"}],
            bot_pause=0.05,
        )
        tid = made["table"]["id"]
        ann = await a.join(tid, "Ann")
        bob = await b.join(tid, "Bob")  # joined through the other process
        ca = await a.client(tid, ann["token"])
        cb = await b.client(tid, bob["token"])  # seated by B though A created the seat list
        watcher = await b.client(tid)
        await b.start_table(tid, made["creator_token"])  # started through B
        for c in (ca, cb):
            c.welcome = await c.expect("welcome", lambda m: m["view"] is not None)
        sent = await play_out({ann["seat"]: ca, bob["seat"]: cb}, "rummikub", OPTIONS)
        assert sent > 0
        reveal = await watcher.expect("reveal")
        log = (await a.http.get(f"/api/tables/{tid}/log")).json()
        assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
        actors = {e["actor"] for e in log}
        assert {"seat", "bot"} <= actors
        # Every update the watcher on B saw is in the log, in order, once.
        seqs = [m["seq"] for m in watcher.received if m["type"] == "update"]
        assert seqs == sorted(set(seqs)) and set(seqs) <= {e["seq"] for e in log}
        record = (await b.http.get(f"/api/tables/{tid}/record")).json()
        assert record["seed"] == reveal["seed"]
        assert GameRecord.from_json(record).replay().is_over
    finally:
        await asyncio.gather(a.stop(), b.stop())


async def test_two_processes_never_both_accept_a_turn(pg_url: str, tmp_path: Path) -> None:
    a, b = await _pair(pg_url, tmp_path)
    try:
        made = await a.create(preset="robbers", options=OPTIONS, seats=[{}, {}])
        tid = made["table"]["id"]
        ann = await a.join(tid, "Ann")
        bob = await a.join(tid, "Bob")
        tokens = {ann["seat"]: ann["token"], bob["seat"]: bob["token"]}
        # Every seat is connected to both processes.
        on = {s: (await a.client(tid, t), await b.client(tid, t)) for s, t in tokens.items()}
        await a.start_table(tid, made["creator_token"])
        welcome = await on[0][0].expect("welcome", lambda m: m["view"] is not None)
        # ... and on the other process too: a player acts on what its own connection has
        # shown (before its notice arrives, b rightly answers `not_started`)
        await on[0][1].expect("welcome", lambda m: m["view"] is not None)
        seq, current = welcome["seq"], welcome["view"]["current"]
        accepted_by = {"a": 0, "b": 0}
        turns = 30
        for _ in range(turns):
            via_a, via_b = on[current]
            replies = await asyncio.gather(via_a.act("draw", seq), via_b.act("draw", seq))
            updates = [r for r in replies if r["type"] == "update"]
            errors = [r for r in replies if r["type"] == "error"]
            assert len(updates) == 1 and len(errors) == 1, replies
            assert errors[0]["code"] in ("conflict", "stale", "not_your_turn"), errors
            accepted_by["a" if replies[0]["type"] == "update" else "b"] += 1
            seq = updates[0]["seq"]
            current = updates[0]["view"]["current"]
        log = (await b.http.get(f"/api/tables/{tid}/log")).json()
        assert [e["seq"] for e in log] == list(range(1, turns + 1))
        # Both processes agree on the state: each seat's view is the same on A and on B.
        for s, conns in on.items():
            views = []
            for k, conn in enumerate(conns):
                await conn.send({"type": "sync", "id": f"final-{s}-{k}"})
                state = await conn.reply(f"final-{s}-{k}")
                assert state["seq"] == turns
                views.append({key: v for key, v in state["view"].items() if key != "time_left"})
            assert views[0] == views[1]
        # Which process wins a race varies from run to run; that one always does is the point.
        assert sum(accepted_by.values()) == turns
    finally:
        await asyncio.gather(a.stop(), b.stop())
