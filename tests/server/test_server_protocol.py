"""The WebSocket protocol: every message, and every kind of bad input.

Each bad input must be answered with a precise error to the sender only; nothing changes,
and the connection and the server live on (checked after every case by a working ping and
an unchanged sequence number).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from helpers.server import Client, Server, ServerFactory

pytestmark = pytest.mark.anyio


async def _table(
    server: Server, **kw: Any
) -> tuple[str, Client, Client, Client, dict[str, Any], dict[str, Any]]:
    body = {"preset": "robbers", "match_format": "SINGLE_ROUND", "seats": [{}, {}]}
    body.update(kw)
    made = await server.create(**body)
    tid = made["table"]["id"]
    a = await server.join(tid, "Ann")
    b = await server.join(tid, "Bob")
    ca = await server.client(tid, a["token"])
    cb = await server.client(tid, b["token"])
    spectator = await server.client(tid)
    await server.start_table(tid, made["creator_token"])
    for c in (ca, cb, spectator):
        c.welcome = await c.expect("welcome", lambda m: m["view"] is not None)
    seats = {a["seat"]: (ca, a), b["seat"]: (cb, b)}
    current = ca.welcome["view"]["current"]
    mover, mover_join = seats[current]
    waiter, waiter_join = seats[1 - current]
    return tid, mover, waiter, spectator, mover_join, waiter_join


def _fresh_id(prefix: str) -> str:
    """A message id not used before (the server refuses an id it has seen on a connection)."""
    _IDS[0] += 1
    return f"{prefix}{_IDS[0]}"


_IDS = [0]


async def _alive(client: Client, seq: int) -> None:
    """The connection still works and the game did not move."""
    mid = _fresh_id("alive")
    await client.send({"type": "ping", "id": mid})
    pong = await client.reply(mid)
    assert pong["type"] == "pong"
    await client.send({"type": "sync", "id": f"sync{seq}-{len(client.received)}"})
    state = await client.expect("welcome")
    assert state["seq"] == seq


async def _nothing_for(*clients: Client) -> None:
    """None of these clients received anything (errors go to the sender only)."""
    for c in clients:
        mid = _fresh_id("quiet")
        await c.send({"type": "ping", "id": mid})
        msg = await c.recv()
        assert msg["type"] == "pong" and msg["reply_to"] == mid, msg


async def test_welcome_views_hands_only_to_their_seat(server: Server) -> None:
    _tid, mover, _waiter, spectator, mj, _wj = await _table(server)
    assert mover.welcome["role"] == "seat" and mover.welcome["seat"] == mj["seat"]
    assert isinstance(mover.welcome["view"]["hand"], list)
    assert spectator.welcome["role"] == "spectator"
    assert spectator.welcome["view"]["hand"] is None
    assert spectator.welcome["table"]["game"]["seed"] is None
    assert mover.welcome["v"] == 2 and mover.welcome["seq"] == 0


@pytest.mark.parametrize(
    ("raw", "code", "words"),
    [
        ("{not json", "bad_json", "JSON"),
        ('{"type": "shout", "text": "hi"}', "unknown_type", "unknown message type"),
        ('{"text": "hi"}', "missing_type", "type"),
        ('["hello"]', "bad_message", ""),
        ('{"type": "action", "seq": "x", "action": "draw"}', "bad_message", "seq"),
        ('{"type": "action", "seq": 0}', "bad_message", "action"),
        ('{"type": "ping", "extra": 1}', "bad_message", "extra"),
    ],
)
async def test_malformed_messages_get_precise_errors(
    server: Server, raw: str, code: str, words: str
) -> None:
    _tid, mover, waiter, spectator, *_ = await _table(server)
    await mover.send_raw(raw)
    err = await mover.expect("error")
    assert err["code"] == code, err
    assert words in err["message"]
    await _nothing_for(waiter, spectator)
    await _alive(mover, 0)


async def test_oversized_and_binary_frames(server: Server) -> None:
    _tid, mover, waiter, spectator, *_ = await _table(server)
    limit = server.settings.max_message_bytes
    await mover.send({"type": "action", "seq": 0, "action": "draw " + "x" * limit})
    err = await mover.expect("error")
    assert err["code"] == "too_large" and str(limit) in err["message"]
    await mover.send_raw(b"\x00\x01binary")
    err = await mover.expect("error")
    assert err["code"] == "bad_frame"
    await _nothing_for(waiter, spectator)
    await _alive(mover, 0)


async def test_turn_seat_token_and_replay_errors(server: Server) -> None:
    _tid, mover, waiter, spectator, _mj, wj = await _table(server)
    # Out of turn.
    err = await waiter.act("draw", 0)
    assert err["type"] == "error" and err["code"] == "not_your_turn"
    assert "Ann" in err["message"] or "Bob" in err["message"]
    # For another seat.
    err = await mover.act("draw", 0, seat=wj["seat"])
    assert err["code"] == "wrong_seat"
    # Spectators (no token) cannot act.
    err = await spectator.act("draw", 0)
    assert err["code"] == "not_seated" and "token" in err["message"]
    # A wrong token is refused; the connection lives on as it was.
    await spectator.send({"type": "hello", "token": "not-a-token"})
    err = await spectator.expect("error")
    assert err["code"] == "bad_token"
    # Another table's token does not seat you here.
    other = await server.create(preset="robbers", seats=[{}, {}])
    stranger = await server.join(other["table"]["id"], "Eve")
    await spectator.send({"type": "hello", "token": stranger["token"]})
    assert (await spectator.expect("error"))["code"] == "bad_token"
    # The server's clock, not the client, times a turn out.
    err = await mover.act("timeout", 0)
    assert err["code"] == "server_only"
    # Notation and engine errors.
    err = await mover.act("fly away", 0)
    assert err["code"] == "bad_action" and "is not an action" in err["message"]
    err = await mover.act("end", 0)
    assert err["code"] == "illegal"
    assert err["why"] == {"reason": "illegal.end_too_early"}  # to word in the reader's language
    err = await mover.act("discard 5H", 0)
    assert err["code"] == "illegal"
    await _alive(mover, 0)
    await _alive(waiter, 0)
    # A good action, then the same message again: a replay is refused twice over.
    await mover.send({"type": "action", "id": "m1", "seq": 0, "action": "draw"})
    ok = await mover.reply("m1")
    assert ok["type"] == "update" and ok["seq"] == 1
    await mover.send({"type": "action", "id": "m1", "seq": 0, "action": "draw"})
    err = await mover.reply("m1")
    assert err["code"] == "duplicate"
    await mover.send({"type": "action", "id": "m2", "seq": 0, "action": "draw"})
    err = await mover.reply("m2")
    assert err["code"] in ("stale", "not_your_turn")
    # The other seat acts with a stale sequence number: refused, nothing changes.
    err = await waiter.act("draw", 0)
    assert err["code"] == "stale" and "seq 1" in err["message"]
    await _alive(waiter, 1)
    up = await spectator.expect("update")
    assert up["seq"] == 1 and up["event"]["actor"] == "seat"
    # The event as data, and in English words with the player's name.
    mover_seat = up["event"]["seat"]
    assert up["event"]["data"] == {"code": "drew", "seat": mover_seat}
    assert up["event"]["text"] in ("Ann drew a card", "Bob drew a card")


async def test_hello_rules(server: Server) -> None:
    made = await server.create(preset="robbers", seats=[{}, {}])
    tid = made["table"]["id"]
    ws = await websockets.connect(server.ws_url(tid))
    try:
        await ws.send(json.dumps({"type": "action", "seq": 0, "action": "draw"}))
        err = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert err["code"] == "hello_first"
        for old_or_unknown in (1, 3):
            await ws.send(json.dumps({"type": "hello", "v": old_or_unknown}))
            err = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert err["code"] == "unsupported_version" and "version 2" in err["message"]
        await ws.send(json.dumps({"type": "hello"}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert welcome["type"] == "welcome" and welcome["view"] is None
        err_nf = await websockets.connect(server.ws_url("no-such-table"))
        await err_nf.send(json.dumps({"type": "hello"}))
        err = json.loads(await asyncio.wait_for(err_nf.recv(), 10))
        assert err["code"] == "not_found"
        await err_nf.close()
    finally:
        await ws.close()


async def test_flooding_is_rate_limited_and_the_connection_lives_on(
    server_factory: ServerFactory,
) -> None:
    server = await server_factory(rate_per_second=5.0, rate_burst=10)
    made = await server.create(preset="robbers", seats=[{}, {}])
    tid = made["table"]["id"]
    flooder = await server.client(tid)
    calm = await server.client(tid)
    for i in range(60):
        await flooder.send({"type": "ping", "id": i})
    pongs = errors = 0
    async with asyncio.timeout(30):
        while pongs + errors < 60:
            msg = await flooder.recv()
            if msg["type"] == "pong":
                pongs += 1
            elif msg["type"] == "error":
                assert msg["code"] == "rate_limited" and "per second" in msg["message"]
                errors += 1
    assert errors > 0 and pongs >= 9
    # The calm client was never limited; the flooder gets through again once it slows down.
    await calm.send({"type": "ping", "id": "c"})
    assert (await calm.reply("c"))["type"] == "pong"
    async with asyncio.timeout(30):
        while True:
            await asyncio.sleep(0.3)
            await flooder.send({"type": "ping", "id": "again"})
            msg = await flooder.recv()
            if msg["type"] == "pong":
                break


async def test_reconnect_gets_the_current_view(server: Server) -> None:
    tid, mover, _waiter, _spectator, mj, _wj = await _table(server)
    ok = await mover.act("draw", 0)
    assert ok["type"] == "update"
    hand = ok["view"]["hand"]
    await mover.close()
    again = await server.client(tid, mj["token"])
    assert again.welcome["seq"] == 1
    assert again.welcome["view"]["hand"] == hand
    assert [e["seq"] for e in again.welcome["log"]] == [1]
    assert again.welcome["log"][0]["text"].startswith("Ann") or again.welcome["log"][0][
        "text"
    ].startswith("Bob")


async def test_resume_and_sync_messages(server: Server) -> None:
    _tid, mover, *_ = await _table(server)
    await mover.send({"type": "resume", "id": "r"})
    assert (await mover.reply("r"))["type"] == "resumed"
    await mover.send({"type": "sync", "id": "s"})
    state = await mover.reply("s")
    assert state["type"] == "welcome" and state["seq"] == 0


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ('{"type": "action", "seq": "0", "action": "draw"}', "seq"),
        ('{"type": "action", "seq": true, "action": "draw"}', "seq"),
        ('{"type": "action", "seq": 0.0, "action": "draw"}', "seq"),
        ('{"type": "action", "seq": 0, "action": "draw", "seat": "0"}', "seat"),
        ('{"type": "action", "seq": 0, "action": 7}', "action"),
        ('{"type": "hello", "v": "1"}', "v"),
        ('{"type": "ping", "id": true}', "id"),
    ],
)
async def test_values_of_the_wrong_type_are_refused_not_converted(
    server: Server, raw: str, field: str
) -> None:
    _tid, mover, waiter, spectator, *_ = await _table(server)
    await mover.send_raw(raw)
    err = await mover.expect("error")
    assert err["code"] == "bad_message" and field in err["message"], err
    await _nothing_for(waiter, spectator)
    await _alive(mover, 0)  # a "draw" with "seq": "0" was not played


async def test_a_ping_id_is_answered_once(server: Server) -> None:
    made = await server.create(preset="robbers", seats=[{}, {}])
    watcher = await server.client(made["table"]["id"])
    await watcher.send({"type": "ping", "id": "p1"})
    assert (await watcher.reply("p1"))["type"] == "pong"
    await watcher.send({"type": "ping", "id": "p1"})
    err = await watcher.reply("p1")
    assert err["type"] == "error" and err["code"] == "duplicate", err
    await watcher.send({"type": "ping"})  # no id: nothing to repeat
    assert (await watcher.expect("pong"))["reply_to"] is None


async def test_legal_lists_only_what_a_client_may_send(server: Server) -> None:
    tid, mover, waiter, spectator, *_ = await _table(server, turn_time_limit=600)
    views = [c.welcome["view"] for c in (mover, waiter, spectator)]
    assert "draw" in views[0]["legal"]
    assert all("timeout" not in v["legal"] for v in views), views
    await mover.act("draw", 0)
    update = await waiter.expect("update")
    assert "timeout" not in update["view"]["legal"]
    public = (await server.http.get(f"/api/tables/{tid}/view")).json()
    assert "timeout" not in public["view"]["legal"]


async def test_a_huge_number_in_an_action_is_an_error_reply(server: Server) -> None:
    # Python refuses to read integers of more than 4,300 digits (a ValueError, not a
    # notation error): the sender gets bad_action, the socket stays open.
    _tid, mover, waiter, spectator, *_ = await _table(server)
    err = await mover.act(f"play [] retrieve {'9' * 4_400}:7D<-7D", 0)
    assert err["type"] == "error" and err["code"] == "bad_action", err
    await _nothing_for(waiter, spectator)
    await _alive(mover, 0)
