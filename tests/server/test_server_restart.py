"""Durability: kill -9 the server in the middle of a game; nothing accepted is lost.

A real ``rummy serve`` process on SQLite. Two people and a bot play; the server is killed
with SIGKILL right after it confirmed an action (and again while a bot is about to move),
started again on the same database, and the players reconnect with their tokens and finish.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.players import play_out
from helpers.server import Process
from openrummy.record import GameRecord

pytestmark = pytest.mark.anyio

OPTIONS = {"match.format": "SINGLE_ROUND"}


async def test_sigkill_in_mid_game_loses_no_accepted_action(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'durable.sqlite3'}"
    log = tmp_path / "server.log"
    server = Process(db, log=log)
    await server.start()
    try:
        made = await server.create(
            preset="rummikub",
            options=OPTIONS,
            seats=[{}, {}, {"kind": "bot", "bot": "simple"}],
            bot_pause=0.05,
        )
        tid = made["table"]["id"]
        a = await server.join(tid, "Ann")
        b = await server.join(tid, "Bob")
        clients = {a["seat"]: await server.client(tid, a["token"])}
        clients[b["seat"]] = await server.client(tid, b["token"])
        await server.start_table(tid, made["creator_token"])
        for c in clients.values():
            c.welcome = await c.expect("welcome", lambda m: m["view"] is not None)
        acked: list[tuple[int, str]] = []
        await play_out(clients, "rummikub", OPTIONS, until=12, acked=acked)
        assert len(acked) >= 12  # both players may have been mid-action at the stop
        seen = {}
        for c in clients.values():
            for m in c.received:
                if m["type"] == "update":
                    seen[m["seq"]] = m["event"]["action"]
        server.kill()
    finally:
        await server.stop()

    # Second life: same database, a new process.
    server = Process(db, log=log)
    await server.start()
    try:
        log_after = (await server.http.get(f"/api/tables/{tid}/log")).json()
        stored = {e["seq"]: e["action"] for e in log_after}
        for seq, action in acked:
            assert stored[seq] == action, (seq, action)
        for seq, action in seen.items():
            assert stored[seq] == action
        assert sorted(stored) == list(range(1, len(stored) + 1))
        clients = {a["seat"]: await server.client(tid, a["token"])}
        clients[b["seat"]] = await server.client(tid, b["token"])
        for c in clients.values():
            assert c.welcome["seq"] >= max(stored)
            assert c.welcome["view"]["hand"] is not None
        # A second kill while the bot may be thinking, then play to the end.
        await play_out(clients, "rummikub", OPTIONS, until=6)
        server.kill()
    finally:
        await server.stop()

    # Third life: only Ann comes back; Bob's seat goes to a stand-in after the grace.
    server = Process(db, log=log, env={"OPENRUMMY_DISCONNECT_GRACE": "0.5"})
    await server.start()
    try:
        clients = {a["seat"]: await server.client(tid, a["token"])}
        await play_out(clients, "rummikub", OPTIONS)
        info = (await server.http.get(f"/api/tables/{tid}")).json()
        assert info["status"] == "finished"
        record = (await server.http.get(f"/api/tables/{tid}/record")).json()
        assert GameRecord.from_json(record).replay().is_over
        log_end = (await server.http.get(f"/api/tables/{tid}/log")).json()
        assert any(e["seat"] == b["seat"] and e["actor"] == "standin" for e in log_end)
    finally:
        await server.stop()
