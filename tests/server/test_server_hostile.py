"""The server under hostile clients: each attack of a hostile user, and what it now gets.

* CPU-heavy helpers (table checks, hints, hand arrangement) run in a worker pool, off the
  event loop, within a budget per client address and in all; past it the answer is ``busy``.
* Bodies are limited to what the game can hold, before any solver work.
* A hello with a wrong token changes nothing at the table and tells no one; failed hellos,
  table creation and unfinished tables are limited per address.
* Round counts, the pause of bots-only tables and the life of tables are bounded.

Everything runs on loopback with small limits; the assertions are about what happened (an
answer, a broadcast that did or did not come, a bot move that still happened), never about
how long it took. Distinct client addresses are given with ``X-Forwarded-For``, which the
server trusts from 127.0.0.1 as uvicorn does by default.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
import websockets

import openrummy.server.web as web
from helpers.server import HANG_GUARD, Client, Server

pytestmark = pytest.mark.anyio

Factory = Callable[..., Awaitable[Server]]
Json = dict[str, Any]


def _bearer(token: str, address: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    if address is not None:
        headers["X-Forwarded-For"] = address
    return headers


async def _seated_game(server: Server, **body: Any) -> tuple[str, Client, Client, Json, Json]:
    """A started two-player robbers game: (table, mover, waiter, mover's join, waiter's)."""
    made = await server.create(
        preset="robbers", match_format="SINGLE_ROUND", seats=[{}, {}], **body
    )
    tid = made["table"]["id"]
    a = await server.join(tid, "Ann")
    b = await server.join(tid, "Bob")
    ca = await server.client(tid, a["token"])
    cb = await server.client(tid, b["token"])
    await server.start_table(tid, made["creator_token"])
    for c in (ca, cb):
        c.welcome = await c.expect("welcome", lambda m: m["view"] is not None)
    if ca.welcome["view"]["current"] == a["seat"]:
        return tid, ca, cb, a, b
    return tid, cb, ca, b, a


class Gate:
    """A job that waits in its worker until the test opens the gate."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.open = threading.Event()
        self.calls = 0

    def job(self, *_args: Any, **_kwargs: Any) -> Json:
        self.calls += 1
        self.started.set()
        return {"released": self.open.wait(HANG_GUARD / 4)}

    async def wait_started(self) -> None:
        assert await asyncio.to_thread(self.started.wait, HANG_GUARD)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    g = Gate()
    monkeypatch.setattr(web, "check_job", g.job)
    try:
        yield g
    finally:
        g.open.set()


# -- 1. CPU-heavy helpers: off the loop, within budgets ---------------------------------------
async def test_a_check_being_judged_never_holds_up_another_tables_actions(
    server_factory: Factory, gate: Gate
) -> None:
    server = await server_factory(worker_kind="thread")
    tid, _mover, waiter, _mj, wj = await _seated_game(server)
    _tid2, mover2, _waiter2, _mj2, _wj2 = await _seated_game(server)
    check = asyncio.create_task(
        server.http.post(
            f"/api/tables/{tid}/check", json={"table": ["[5H 6H 7H]"]}, headers=_bearer(wj["token"])
        )
    )
    await gate.wait_started()
    # While the check is judged, another table plays on: had the check run on the event
    # loop, this action could not be answered until the gate opened by itself (and the
    # check's answer would say it was not released).
    reply = await mover2.act("draw", 0)
    assert reply["type"] == "update" and reply["seq"] == 1, reply
    await waiter.send({"type": "ping", "id": "p"})
    assert (await waiter.reply("p"))["type"] == "pong"
    gate.open.set()
    answer = await check
    assert answer.status_code == 200 and answer.json() == {"released": True}, answer.text


def _spin(seconds: float) -> None:
    """Spend ``seconds`` of this thread's CPU."""
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


def _burn(*_args: Any, **_kwargs: Any) -> Json:
    """A job costing 0.1 s of CPU in its worker."""
    _spin(0.1)
    return {"burnt": True}


async def test_a_client_past_its_cpu_share_is_answered_busy(
    server_factory: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web, "check_job", _burn)
    server = await server_factory(worker_kind="thread", check_burst=0.05, check_share=0.001)
    tid, _mover, _waiter, mj, _wj = await _seated_game(server)
    url = f"/api/tables/{tid}/check"
    body = {"table": ["[5H 6H 7H]"]}
    first = await server.http.post(url, json=body, headers=_bearer(mj["token"], "10.0.0.1"))
    assert first.status_code == 200 and first.json() == {"burnt": True}
    second = await server.http.post(url, json=body, headers=_bearer(mj["token"], "10.0.0.1"))
    assert second.status_code == 503, second.text
    refused = second.json()
    assert refused["error"] == "busy"
    assert refused["why"]["reason"] == "server.busy" and refused["why"]["retry_after"] >= 1
    assert second.headers["Retry-After"] == str(refused["why"]["retry_after"])
    # Another address has its own budget.
    other = await server.http.post(url, json=body, headers=_bearer(mj["token"], "10.0.0.2"))
    assert other.status_code == 200, other.text


async def test_cheap_checks_cost_the_least_charge_and_over_budget_bodies_go_unread(
    server_factory: Factory,
) -> None:
    # A budget of 0.1 s and a least charge of 0.06 s: two checks, however cheap, then busy
    # (for 20 s, at 0.001 s a second).
    server = await server_factory(
        worker_kind="thread", check_burst=0.1, check_share=0.001, check_min_charge=0.06
    )
    tid, _mover, _waiter, mj, _wj = await _seated_game(server)
    url = f"/api/tables/{tid}/check"
    headers = _bearer(mj["token"], "10.0.0.7")
    for _ in range(2):
        ok = await server.http.post(url, json={"table": ["[5H 6H 7H]"]}, headers=headers)
        assert ok.status_code == 200, ok.text
    # Over budget, the answer is busy before the body is read: even a body that is not
    # JSON at all is not looked at (else it would be a 422).
    junk = await server.http.post(
        url, content=b"{not json", headers={**headers, "Content-Type": "application/json"}
    )
    assert junk.status_code == 503 and junk.json()["error"] == "busy", junk.text
    # Another address is judged, and its bad body is answered for what it is.
    other = _bearer(mj["token"], "10.0.0.8")
    bad = await server.http.post(
        url, content=b"{not json", headers={**other, "Content-Type": "application/json"}
    )
    assert bad.status_code == 422, bad.text


async def test_past_the_global_and_the_per_client_limit_the_answer_is_busy_at_once(
    server_factory: Factory, gate: Gate
) -> None:
    server = await server_factory(worker_kind="thread", worker_queue=2, worker_per_client=1)
    tid, _mover, _waiter, mj, _wj = await _seated_game(server)
    url = f"/api/tables/{tid}/check"
    body = {"table": ["[5H 6H 7H]"]}

    async def post(address: str) -> httpx.Response:
        return await server.http.post(url, json=body, headers=_bearer(mj["token"], address))

    held = asyncio.create_task(post("10.0.0.1"))
    await gate.wait_started()
    mine = await post("10.0.0.1")  # the same client: one at a time
    assert mine.status_code == 503 and mine.json()["error"] == "busy", mine.text
    held2 = asyncio.create_task(post("10.0.0.2"))
    for _ in range(200):  # until the second one is in progress
        if server.app.state.workers.in_progress == 2:
            break
        await asyncio.sleep(0.01)
    assert server.app.state.workers.in_progress == 2
    anyone = await post("10.0.0.3")  # the server: two at a time
    assert anyone.status_code == 503 and anyone.json()["error"] == "busy", anyone.text
    gate.open.set()
    for task in (held, held2):
        assert (await task).json() == {"released": True}
    assert gate.calls == 2


async def test_the_helpers_work_in_worker_processes(server_factory: Factory) -> None:
    server = await server_factory(worker_kind="process", workers=1, worker_nice=12)
    tid, mover, _waiter, mj, _wj = await _seated_game(server)
    r = await server.http.post(
        f"/api/tables/{tid}/check", json={"table": ["[5H JK 7H]"]}, headers=_bearer(mj["token"])
    )
    assert r.status_code == 200, r.text
    check = r.json()
    assert check["melds"][0]["valid"] is True and check["melds"][0]["meld"] == "[5H JK=6H 7H]"
    assert check["checked"] is True  # judged as a play in turn (from the seat's position)
    assert mover.welcome["seq"] == 0
    hint = await server.http.post(
        f"/api/tables/{tid}/hint", json={"lang": "de"}, headers=_bearer(mj["token"])
    )
    assert hint.status_code == 200 and "found" in hint.json(), hint.text
    # The worker judges at the setting's lower priority (never above the server's own).
    pids = server.app.state.workers.pids()
    assert len(pids) == 1
    nices = {os.getpriority(os.PRIO_PROCESS, pid) for pid in pids}
    assert nices == {max(12, os.nice(0))}


# -- 1. bodies that fit the game ----------------------------------------------------------
@pytest.mark.parametrize(
    ("table", "retrievals", "words"),
    [
        (["[5H JK JK JK]", "[6D JK JK JK]", "[7C JK]"], [], "JK"),  # robbers has 6 jokers
        (["[5H 6H 7H]"] * 3, [], "5H"),  # two decks: two 5H
        (["[5H]"] * 109, [], "108 cards"),  # more melds than the deck has cards
        ([], ["0:5H<-5H"] * 7, "jokers"),
    ],
)
async def test_a_table_no_deck_could_hold_is_refused_before_it_is_judged(
    server_factory: Factory, gate: Gate, table: list[str], retrievals: list[str], words: str
) -> None:
    server = await server_factory(worker_kind="thread")
    tid, _mover, _waiter, mj, _wj = await _seated_game(server)
    r = await server.http.post(
        f"/api/tables/{tid}/check",
        json={"table": table, "retrievals": retrievals},
        headers=_bearer(mj["token"]),
    )
    assert r.status_code == 413 and r.json()["error"] == "too_large", r.text
    assert words in r.json()["message"]
    assert gate.calls == 0


async def test_indian_groups_of_more_cards_than_a_hand_are_refused(server: Server) -> None:
    made = await server.create(preset="indian13", seats=[{}, {"kind": "bot", "bot": "random"}])
    tid = made["table"]["id"]
    a = await server.join(tid, "Ann")
    await server.start_table(tid, made["creator_token"])
    r = await server.http.post(
        f"/api/tables/{tid}/hand",
        json={"groups": [["5H"] * 10, ["6H"] * 5], "auto": True},
        headers=_bearer(a["token"]),
    )
    assert r.status_code == 413 and r.json()["error"] == "too_large", r.text
    assert "at most 14" in r.json()["message"]


async def test_a_body_larger_than_the_limit_is_refused_unread(server_factory: Factory) -> None:
    server = await server_factory(max_body_bytes=1_000)
    big = {"preset": "robbers", "seats": [{}, {}], "title": "x" * 2_000}
    r = await server.http.post("/api/tables", json=big)
    assert r.status_code == 413 and r.json()["error"] == "too_large", r.text

    async def chunks() -> Any:  # no Content-Length: counted as it arrives
        yield b'{"preset": "robbers", "title": "'
        for _ in range(20):
            yield b"x" * 100
        yield b'"}'

    r = await server.http.post(
        "/api/tables", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["error"] == "too_large", r.text
    assert not await server.service.store.list_tables(statuses=["open"])


# -- 2. hellos with a wrong token ---------------------------------------------------------
async def test_a_wrong_token_changes_nothing_at_the_table_and_tells_no_one(
    server_factory: Factory,
) -> None:
    # A takeover delay of an hour: had a failed hello re-planned the bots' moves as a
    # table change does, the bots would stop here and this test would not finish.
    server = await server_factory(takeover_delay=3_600.0)
    made = await server.create(
        preset="robbers",
        match_format="SINGLE_ROUND",
        seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        bot_pause=0.05,
    )
    tid = made["table"]["id"]
    spectator = await server.client(tid)
    await server.start_table(tid, made["creator_token"])
    await spectator.expect("welcome", lambda m: m["view"] is not None)
    intruder = await server.client(tid)
    for k in range(5):
        await intruder.send({"type": "hello", "token": f"guess-{k}"})
        err = await intruder.expect("error")
        assert err["code"] == "bad_token"
    seq = server.service.live[tid].seq
    await spectator.expect("update", lambda m: m["seq"] > seq + 2)  # the bots play on
    kinds = {m["type"] for m in spectator.received}
    assert "table" not in kinds or _tables_only_at_start(spectator)
    assert intruder.welcome["role"] == "spectator"  # still what it was


def _tables_only_at_start(client: Client) -> bool:
    """Every ``table`` message came before the first update (the start of the game)."""
    types = [m["type"] for m in client.received]
    first_update = types.index("update")
    return "table" not in types[first_update:]


async def test_a_wrong_token_does_not_put_off_the_turn_timer(server_factory: Factory) -> None:
    server = await server_factory(takeover_delay=3_600.0, max_timeouts=99)
    _tid, mover, waiter, _mj, _wj = await _seated_game(server, turn_time_limit=0.3)
    tid = _tid
    intruder = await server.client(tid)
    for k in range(3):
        await intruder.send({"type": "hello", "token": f"guess-{k}"})
        assert (await intruder.expect("error"))["code"] == "bad_token"
    up = await waiter.expect("update")
    assert up["event"]["actor"] == "server" and up["event"]["action"] == "timeout"
    assert "table" not in {m["type"] for m in _since_welcome(mover)}
    assert "table" not in {m["type"] for m in _since_welcome(waiter)}


def _since_welcome(client: Client) -> list[Json]:
    """What the client received after its welcome to the started game."""
    k = next(i for i, m in enumerate(client.received) if m is client.welcome)
    later: list[Json] = client.received[k + 1 :]
    return later


async def test_failed_hellos_are_limited_per_address(server_factory: Factory) -> None:
    server = await server_factory(hello_failures_per_minute=3.0)
    tid, mover, _waiter, _mj, _wj = await _seated_game(server)
    intruder = await server.client(tid)
    for k in range(3):
        await intruder.send({"type": "hello", "token": f"guess-{k}"})
        assert (await intruder.expect("error"))["code"] == "bad_token"
    await intruder.send({"type": "hello", "token": "guess-4"})
    assert (await intruder.expect("error"))["code"] == "rate_limited"
    # Watching needs no token and stays open; the players are not affected.
    await intruder.send({"type": "hello"})
    assert (await intruder.expect("welcome"))["role"] == "spectator"
    assert (await mover.act("draw", 0))["type"] == "update"


def _count_reads(server: Server, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The table ids the server reads from its database from now on."""
    store = server.service.store
    reads: list[str] = []
    read = store.get_table

    async def counted(table_id: str) -> Any:
        reads.append(table_id)
        return await read(table_id)

    monkeypatch.setattr(store, "get_table", counted)
    return reads


async def test_a_wrong_token_is_refused_from_memory(
    server_factory: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await server_factory(hello_failures_per_minute=3.0)
    tid, mover, _waiter, _mj, _wj = await _seated_game(server)
    reads = _count_reads(server, monkeypatch)
    intruder = await server.client(tid)
    answers = []
    for k in range(5):
        await intruder.send({"type": "hello", "token": f"guess-{k}"})
        answers.append((await intruder.expect("error"))["code"])
    assert answers == ["bad_token"] * 3 + ["rate_limited"] * 2
    assert reads == []  # neither a wrong token nor a refusal reads the database
    assert (await mover.act("draw", 0))["type"] == "update"


async def test_hellos_for_tables_that_do_not_exist_count_as_failed(
    server_factory: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await server_factory(hello_failures_per_minute=2.0)
    tid, _mover, _waiter, _mj, _wj = await _seated_game(server)
    reads = _count_reads(server, monkeypatch)
    async with websockets.connect(server.ws_url("no-such-table")) as ws:
        answers = []
        for _ in range(4):
            await ws.send(json.dumps({"type": "hello"}))
            answers.append(json.loads(await asyncio.wait_for(ws.recv(), HANG_GUARD))["code"])
    assert answers == ["not_found", "not_found", "rate_limited", "rate_limited"]
    assert reads == ["no-such-table"] * 2  # the refused ones were not looked up
    # Watching a table in play still works from this address, without a token.
    watcher = await server.client(tid)
    assert watcher.welcome["role"] == "spectator"


# -- 2. tables: creation, rounds, pauses, lifetime -----------------------------------------
async def test_table_creation_is_limited_per_address(server_factory: Factory) -> None:
    server = await server_factory(tables_burst=2, tables_per_hour=0.001)
    for _ in range(2):
        await server.create(preset="robbers", seats=[{}, {}])
    r = await server.http.post("/api/tables", json={"preset": "robbers", "seats": [{}, {}]})
    assert r.status_code == 429 and r.json()["error"] == "rate_limited", r.text
    r = await server.http.post(
        "/api/tables",
        json={"preset": "robbers", "seats": [{}, {}]},
        headers={"X-Forwarded-For": "10.0.0.9"},
    )
    assert r.status_code == 201, r.text


async def test_unfinished_tables_are_limited_per_address(
    server_factory: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await server_factory(open_tables_per_client=2)
    made = [await server.create(preset="robbers", seats=[{}, {}]) for _ in range(2)]
    reads = _count_reads(server, monkeypatch)
    for _ in range(5):
        r = await server.http.post("/api/tables", json={"preset": "robbers", "seats": [{}, {}]})
        assert r.status_code == 429 and "close one" in r.json()["message"], r.text
    # The open tables nobody is connected to were looked up once, not at every refusal.
    assert sorted(reads) == sorted(m["table"]["id"] for m in made)
    closed = await server.http.post(
        f"/api/tables/{made[0]['table']['id']}/close", headers=_bearer(made[0]["creator_token"])
    )
    assert closed.status_code == 200
    await server.create(preset="robbers", seats=[{}, {}])


@pytest.mark.parametrize(
    ("preset", "option"),
    [("robbers", "match.rounds"), ("robbers", "match.outs_to_win"), ("indian13", "deals.count")],
)
async def test_round_counts_are_bounded(server_factory: Factory, preset: str, option: str) -> None:
    server = await server_factory(max_rounds=50)
    body = {"preset": preset, "seats": [{}, {}], "options": {option: 1_000_000_000}}
    r = await server.http.post("/api/tables", json=body)
    assert r.status_code == 422 and r.json()["error"] == "bad_rules", r.text
    assert "at most 50" in r.json()["message"]
    body["options"] = {option: 50}
    assert (await server.http.post("/api/tables", json=body)).status_code == 201


async def test_a_bots_only_table_pauses_at_least_the_servers_least_pause(
    server_factory: Factory,
) -> None:
    server = await server_factory(bots_only_pause=0.5)
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    made = await server.create(preset="robbers", seats=bots, bot_pause=0)
    assert made["table"]["bot_pause"] == 0.5
    mixed = await server.create(preset="robbers", seats=[{}, bots[0]], bot_pause=0)
    assert mixed["table"]["bot_pause"] == 0


async def test_idle_open_tables_and_old_tables_expire(server_factory: Factory) -> None:
    now = [1_000_000.0]
    server = await server_factory(
        clock=lambda: now[0], open_table_ttl=600.0, table_lifetime=7_200.0, sweep_every=0
    )
    idle = (await server.create(preset="robbers", seats=[{}, {}]))["table"]["id"]
    watched = (await server.create(preset="robbers", seats=[{}, {}]))["table"]["id"]
    watcher = await server.client(watched)
    tid, mover, _waiter, _mj, _wj = await _seated_game(server)
    now[0] += 601
    assert await server.service.sweep() == [idle]
    assert (await server.service.info(idle)).status == "closed"
    assert (await server.service.info(watched)).status == "open"
    assert (await server.service.info(tid)).status == "running"
    now[0] += 7_200
    assert sorted(await server.service.sweep()) == sorted([watched, tid])
    reveal = await mover.expect("reveal")
    assert reveal["seed"] is not None
    assert (await watcher.expect("table"))["table"]["status"] == "closed"


# -- 3. strict REST bodies, and an OpenAPI that says the real ranges ---------------------------
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", {"preset": "robbers", "seats": [{}, {}], "bot_pause": True}),
        ("/api/tables", {"preset": "robbers", "seats": [{}, {}], "turn_time_limit": "30"}),
        ("/api/tables", {"preset": "robbers", "seats": [{}, {}], "creator_seat": "0"}),
        ("/api/tables", {"preset": "robbers", "seats": [{"kind": "bot", "bot": 1}, {}]}),
    ],
)
async def test_rest_bodies_are_not_converted(server: Server, path: str, body: Json) -> None:
    r = await server.http.post(path, json=body)
    assert r.status_code == 422, r.text
    assert not await server.service.store.list_tables(statuses=["open"])


async def test_a_join_body_is_not_converted(server: Server) -> None:
    tid = (await server.create(preset="robbers", seats=[{}, {}]))["table"]["id"]
    r = await server.http.post(f"/api/tables/{tid}/join", json={"name": "Ann", "seat": "1"})
    assert r.status_code == 422, r.text
    r = await server.http.post(f"/api/tables/{tid}/join", json={"name": "Ann", "seat": 5})
    assert r.status_code == 409 and r.json()["error"] == "bad_seat", r.text
    # A whole number is a number of seconds.
    made = await server.create(preset="robbers", seats=[{}, {}], bot_pause=1)
    assert made["table"]["bot_pause"] == 1


async def test_openapi_states_the_ranges_and_the_refusals(server: Server) -> None:
    spec = (await server.http.get("/openapi.json")).json()
    schemas = spec["components"]["schemas"]
    create = schemas["CreateTable"]["properties"]
    pause = create["bot_pause"]["anyOf"][0]
    assert (pause["minimum"], pause["maximum"]) == (0, 30)
    assert create["seats"]["maxItems"] == 8 and create["seats"]["minItems"] == 2
    assert create["creator_seat"]["anyOf"][0]["maximum"] == 7
    groups = schemas["HandRequest"]["properties"]["groups"]
    assert groups["maxItems"] == 30 and groups["items"]["maxItems"] == 22
    paths = spec["paths"]
    for route in ("check", "hint", "hand"):
        answers = paths[f"/api/tables/{{table_id}}/{route}"]["post"]["responses"]
        assert {"401", "403", "404", "409", "413", "422", "503"} <= set(answers), route
    assert {"413", "422", "429"} <= set(paths["/api/tables"]["post"]["responses"])


async def test_an_unlimited_address_is_not_counted(server_factory: Factory) -> None:
    server = await server_factory(
        tables_burst=1, tables_per_hour=0.001, unlimited_clients="127.0.0.1"
    )
    for _ in range(3):
        await server.create(preset="robbers", seats=[{}, {}])
    body = {"preset": "robbers", "seats": [{}, {}]}
    elsewhere = {"X-Forwarded-For": "10.0.0.7"}
    assert (await server.http.post("/api/tables", json=body, headers=elsewhere)).status_code == 201
    assert (await server.http.post("/api/tables", json=body, headers=elsewhere)).status_code == 429


async def test_bots_only_tables_are_limited_per_address(server_factory: Factory) -> None:
    server = await server_factory(bots_only_tables_per_client=1)
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    await server.create(preset="robbers", seats=bots)
    r = await server.http.post("/api/tables", json={"preset": "robbers", "seats": bots})
    assert r.status_code == 429 and "bots only" in r.json()["message"], r.text
    await server.create(preset="robbers", seats=[{}, bots[0]])  # a person's table: fine


# -- WebSocket connections per address ---------------------------------------------------
async def _connect(server: Server, tid: str, address: str) -> Any:
    return await websockets.connect(
        server.ws_url(tid), additional_headers={"X-Forwarded-For": address}
    )


async def test_a_connection_is_closed_after_its_failed_hellos(server_factory: Factory) -> None:
    server = await server_factory(hello_failures_per_connection=3)
    tid, mover, _waiter, _mj, _wj = await _seated_game(server)
    intruder = Client(await _connect(server, tid, "10.1.0.1"))
    for k in range(3):
        await intruder.send({"type": "hello", "token": f"guess-{k}"})
        assert (await intruder.expect("error"))["code"] == "bad_token"
    # The third refusal was sent, then the connection closed (policy violation).
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await intruder.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    # A failed hello fewer on another connection, and watching, still work.
    watcher = Client(await _connect(server, tid, "10.1.0.1"))
    for k in range(2):
        await watcher.send({"type": "hello", "token": f"again-{k}"})
        assert (await watcher.expect("error"))["code"] == "bad_token"
    await watcher.send({"type": "hello"})
    assert (await watcher.expect("welcome"))["role"] == "spectator"
    assert (await mover.act("draw", 0))["type"] == "update"


async def test_open_connections_are_limited_per_address(server_factory: Factory) -> None:
    server = await server_factory(ws_per_client=2)
    tid, _mover, _waiter, _mj, _wj = await _seated_game(server)
    held = [await _connect(server, tid, "10.2.0.1") for _ in range(2)]
    with pytest.raises(websockets.InvalidStatus) as refused:
        await _connect(server, tid, "10.2.0.1")
    assert refused.value.response.status_code == 403
    other = await _connect(server, tid, "10.2.0.2")  # another address is not affected
    await held[0].close()
    for _ in range(100):  # the server notes the close
        if server.app.state.connections.open.get("10.2.0.1", 0) < 2:
            break
        await asyncio.sleep(0.01)
    again = await _connect(server, tid, "10.2.0.1")
    for ws in (held[1], other, again):
        await ws.close()


async def test_new_connections_are_limited_per_address(server_factory: Factory) -> None:
    server = await server_factory(ws_connects_per_minute=3.0)
    tid, _mover, _waiter, _mj, _wj = await _seated_game(server)
    for _ in range(3):
        await (await _connect(server, tid, "10.3.0.1")).close()
    with pytest.raises(websockets.InvalidStatus) as refused:
        await _connect(server, tid, "10.3.0.1")
    assert refused.value.response.status_code == 403
    await (await _connect(server, tid, "10.3.0.2")).close()


async def test_a_dead_worker_process_is_replaced(server_factory: Factory) -> None:
    server = await server_factory(worker_kind="process", workers=1)
    tid, _mover, _waiter, mj, _wj = await _seated_game(server)

    async def check() -> httpx.Response:
        return await server.http.post(
            f"/api/tables/{tid}/check", json={"table": ["[5H JK 7H]"]}, headers=_bearer(mj["token"])
        )

    assert (await check()).status_code == 200
    workers = server.app.state.workers
    [pid] = workers.pids()
    os.kill(pid, 9)
    for _ in range(500):  # the server sees the worker's pipe close
        if workers._pool is None or workers._pool.broken:
            break
        await asyncio.sleep(0.01)
    r = await check()
    assert r.status_code == 503 and r.json()["error"] == "unavailable", r.text
    again = await check()  # new workers start
    assert again.status_code == 200, again.text
    assert workers.pids() and pid not in workers.pids()


def _priced(_rules: Any, table: list[str], **_kwargs: Any) -> Json:
    """A check job whose cost is its table's: ``[5H 6H 7H]`` nothing, any other 0.01 s."""
    if table != ["[5H 6H 7H]"]:
        _spin(0.01)
    return {"priced": True}


async def test_checks_are_charged_their_cpu_on_a_budget_of_their_own(
    server_factory: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web, "check_job", _priced)
    monkeypatch.setattr(web, "hint_job", lambda *_a, **_k: {"found": False})
    # 0.019 s of checks, at least 0.0025 s each: 8 cheap checks, or 2 of 0.01 s.
    server = await server_factory(
        worker_kind="thread", check_burst=0.019, check_share=1e-6, check_min_charge=0.0025
    )
    tid, _mover, _waiter, mj, _wj = await _seated_game(server)
    url = f"/api/tables/{tid}/check"

    async def judged(address: str, table: list[str], tries: int) -> int:
        n = 0
        for _ in range(tries):
            r = await server.http.post(
                url, json={"table": table}, headers=_bearer(mj["token"], address)
            )
            assert r.status_code in (200, 503), r.text
            n += r.status_code == 200
        return n

    assert await judged("10.4.0.1", ["[5H 6H 7H]"], 12) == 8
    assert await judged("10.4.0.2", ["[5H 6H 7H]", "[9C 9D 9S]"], 6) == 2
    # The other helpers have their own budget: the spent checks do not refuse a hint.
    hint = await server.http.post(
        f"/api/tables/{tid}/hint", json={}, headers=_bearer(mj["token"], "10.4.0.1")
    )
    assert hint.status_code == 200 and hint.json() == {"found": False}, hint.text


async def test_long_jobs_and_answers_cross_the_worker_pipe_whole(server_factory: Factory) -> None:
    # Larger than a pipe holds at once, both ways: the job is written from a thread, the
    # answer read as it comes, and the event loop goes on meanwhile.
    server = await server_factory(worker_kind="process", workers=1)
    workers = server.app.state.workers
    big = bytes(range(256)) * 8192  # 2 MiB
    ticks = 0

    async def ticking() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0)
            ticks += 1

    ticker = asyncio.create_task(ticking())
    try:
        answers = await asyncio.gather(
            workers.background(bytes.upper, big), workers.run("10.5.0.1", bytes.lower, big)
        )
    finally:
        ticker.cancel()
    assert list(answers) == [big.upper(), big.lower()]
    assert ticks > 10
    assert workers.in_progress == 0
