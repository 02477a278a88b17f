"""Tables that no longer play are not held in memory: reads are served from the store.

A finished or closed game costs memory (its match, about 1 MiB for a long one); reading its
view or rules, which anyone may do without a token, must not pin it in the server for good.
"""

from __future__ import annotations

import pytest

from helpers.server import Server, ServerFactory

pytestmark = pytest.mark.anyio


async def _closed_table(server: Server) -> str:
    made = await server.create(preset="robbers", seats=[{}, {}], creator_seat=0, creator_name="Ann")
    tid = made["table"]["id"]
    await server.join(tid, "Bob")
    await server.start_table(tid, made["creator_token"])
    r = await server.http.post(
        f"/api/tables/{tid}/close", headers={"Authorization": f"Bearer {made['creator_token']}"}
    )
    assert r.status_code == 200 and r.json()["status"] == "closed", r.text
    assert isinstance(tid, str)
    return tid


async def test_games_that_ended_are_kept_only_in_a_small_cache(
    server_factory: ServerFactory,
) -> None:
    server = await server_factory(finished_cache=2)
    service = server.service
    ids = [await _closed_table(server) for _ in range(4)]
    # Closed with nobody connected: let go at once.
    assert not set(ids) & set(service.live)
    seqs = {}
    for tid in ids:
        r = await server.http.get(f"/api/tables/{tid}/view")
        assert r.status_code == 200, r.text
        seqs[tid] = r.json()["seq"]
        assert (await server.http.get(f"/api/tables/{tid}/rules")).status_code == 200
    assert not set(ids) & set(service.live)
    assert list(service.kept) == ids[-2:]
    # A table dropped from the cache is rebuilt from the store when asked for again.
    r = await server.http.get(f"/api/tables/{ids[0]}/view")
    assert r.status_code == 200 and r.json()["seq"] == seqs[ids[0]]
    assert list(service.kept) == [ids[3], ids[0]]


async def test_a_watcher_holds_an_ended_table_until_it_leaves(
    server_factory: ServerFactory,
) -> None:
    server = await server_factory(finished_cache=0)
    service = server.service
    tid = await _closed_table(server)
    watcher = await server.client(tid)
    assert service.live[tid] is not None and not service.kept
    assert watcher.welcome["view"] is not None
    await watcher.close()
    r = await server.http.get(f"/api/tables/{tid}/view")  # after the close is seen
    assert r.status_code == 200
    for _ in range(200):
        if tid not in service.live:
            break
        await server.http.get("/api/health")
    assert tid not in service.live and not service.kept


async def test_reading_an_open_table_does_not_hold_it(server: Server) -> None:
    made = await server.create(preset="robbers", seats=[{}, {}])
    tid = made["table"]["id"]
    assert (await server.http.get(f"/api/tables/{tid}/rules")).status_code == 200
    assert tid not in server.service.live and tid not in server.service.kept
    # Players who connect share one copy, which plays once the game starts.
    a = await server.join(tid, "Ann")
    b = await server.join(tid, "Bob")
    ca = await server.client(tid, a["token"])
    cb = await server.client(tid, b["token"])
    live = server.service.live[tid]
    assert {c.seat for c in live.conns} == {a["seat"], b["seat"]}
    await server.start_table(tid, made["creator_token"])
    for c in (ca, cb):
        await c.expect("welcome", lambda m: m["view"] is not None)
    assert server.service.live[tid] is live and live.running
