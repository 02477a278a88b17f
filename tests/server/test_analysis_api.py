"""The web replay's analysis (``server/analysis_api.py``): started on a finished game, its
progress polled, the result stored with the game and answered at once the second time;
unknown and unfinished games and a client past its allowance are refused in one line."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from helpers.server import HANG_GUARD, Server

pytestmark = pytest.mark.anyio

ServerFactory = Callable[..., Awaitable[Server]]


def _mine(msg: dict[str, Any]) -> bool:
    view = msg.get("view") or {}
    return bool(view.get("current") == 0 and view.get("phase") == "START")


def _ended(msg: dict[str, Any]) -> bool:
    """The bot ended the round first (it declared, or dropped), or the game is over."""
    view = msg.get("view") or {}
    return msg["type"] == "reveal" or view.get("phase") in ("SHOW", "OVER")


async def _short_indian_game(server: Server, throws: int) -> str:
    """A finished Indian Rummy game: Ann (seat 0) draws and throws ``throws`` times, then
    drops and the bot is the last one standing. The deal is the server's (a fresh seed each
    run): on about one deal in forty the bot ends the round before Ann's turns are done
    (it declares, or drops), and a new table is dealt."""
    for _deal in range(20):
        tid = await _try_short_indian_game(server, throws)
        if tid is not None:
            return tid
    raise AssertionError("the bot ended the round early on twenty deals in a row")


async def _try_short_indian_game(server: Server, throws: int) -> str | None:
    made = await server.create(
        preset="indian13",
        seats=[{}, {"kind": "bot", "bot": "simple"}],
        creator_seat=0,
        creator_name="Ann",
    )
    tid: str = made["table"]["id"]
    await server.start_table(tid, made["creator_token"])
    c = await server.client(tid, made["seat_token"])
    try:
        msg = c.welcome
        for turn in range(throws + 1):
            while not _mine(msg):
                if _ended(msg):
                    return None
                msg = await c.recv()
            if turn == throws:
                break
            got = await c.act("draw", msg["seq"])
            assert got["type"] == "update", got
            card = got["view"]["hand"][-1]
            msg = await c.act(f"discard {card}", got["seq"])
            assert msg["type"] == "update", msg
        await c.act("drop", msg["seq"])
        await c.expect("reveal")
    finally:
        await c.close()
    return tid


async def _wait_done(server: Server, tid: str) -> list[dict[str, Any]]:
    seen = []
    async with asyncio.timeout(HANG_GUARD * 3):
        while True:
            r = await server.http.get(f"/api/tables/{tid}/analysis")
            assert r.status_code == 200, r.text
            seen.append(r.json())
            if seen[-1]["status"] != "running":
                return seen
            await asyncio.sleep(0.05)


async def test_analyse_a_finished_game_then_read_it_back(server_factory: ServerFactory) -> None:
    server = await server_factory(
        worker_kind="thread",
        analysis_samples=2,
        analysis_max_samples=4,
        analysis_max_turns=4,
        analysis_burst=1,
    )
    # unknown tables, odd ids
    for tid in ("nope", "x" * 300, "%00"):
        r = await server.http.post(f"/api/tables/{tid}/analysis")
        assert r.status_code == 404 and r.json()["error"] == "not_found", r.text
    # a running game is not analysed (the hands are secret)
    made = await server.create(
        preset="indian13", seats=[{}, {"kind": "bot", "bot": "simple"}], creator_seat=0
    )
    running = made["table"]["id"]
    await server.start_table(running, made["creator_token"])
    r = await server.http.post(f"/api/tables/{running}/analysis")
    assert r.status_code == 409 and r.json()["error"] == "not_finished", r.text
    assert (await server.http.get(f"/api/tables/{running}/analysis")).status_code == 409

    tid = await _short_indian_game(server, throws=2)
    assert (await server.http.get(f"/api/tables/{tid}/analysis")).json() == {"status": "none"}
    r = await server.http.post(f"/api/tables/{tid}/analysis")
    assert r.status_code == 202, r.text
    first = r.json()
    assert first["status"] == "running" and first["done"] == 0 and first["total"] >= 5
    # asking again while it runs costs nothing and starts nothing new
    again = await server.http.post(f"/api/tables/{tid}/analysis")
    assert again.status_code in (200, 202) and again.json()["status"] in ("running", "done")
    states = await _wait_done(server, tid)
    assert states[-1]["status"] == "done", states[-1]
    done = [s["done"] for s in states if s["status"] == "running"]
    assert done == sorted(done)
    analysis = states[-1]["analysis"]
    assert analysis["players"][0] == "Ann" and analysis["samples"] == 2
    ann = [d for d in analysis["decisions"] if d["seat"] == 0]
    assert [d["action"].split()[0] for d in ann] == ["draw", "discard", "draw", "discard", "drop"]
    # the drop is named first; the deal is the server's (a fresh seed each run), so the same
    # decision may carry a fact of that deal after it (a discard Ann could have declared with)
    facts = ann[-1]["facts"]
    assert facts[0] == {"reason": "analysis.dropped"}, facts
    assert all(f["reason"].startswith("analysis.") for f in facts), facts
    graded = [d for d in analysis["decisions"] if d["before"] is not None]
    assert graded and all(0 <= d["after"]["value"] <= 1 for d in graded)
    assert isinstance(analysis["steps"], dict)

    # the second request: the stored analysis at once (200), the same one
    r = await server.http.post(f"/api/tables/{tid}/analysis")
    assert r.status_code == 200 and r.json() == {"status": "done", "analysis": analysis}
    stored = await server.service.store.get_analysis(tid)
    assert stored == analysis

    # this client's allowance (one analysis at once here) is spent: the next is refused
    other = await _short_indian_game(server, throws=0)
    r = await server.http.post(f"/api/tables/{other}/analysis")
    assert r.status_code == 503 and r.json()["error"] == "busy", r.text
    assert "try again in" in r.json()["message"]
    assert (await server.http.get(f"/api/tables/{other}/analysis")).json() == {"status": "none"}
