"""Time and absence: turn timers (C8), repeated timeouts, disconnects, stand-ins, bots.

The limits here are tiny so the tests wait little; the assertions are about what happened
(which events, which flags), never about how long it took.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from helpers.server import Server, ServerFactory

pytestmark = pytest.mark.anyio


def _is_seat_event(
    seat: int, actor: str, action: str | None = None
) -> Callable[[dict[str, Any]], bool]:
    def pred(m: dict[str, Any]) -> bool:
        e = m["event"]
        return (
            e["seat"] == seat and e["actor"] == actor and (action is None or e["action"] == action)
        )

    return pred


async def test_the_turn_timer_is_a_failed_play_with_penalty(server_factory: ServerFactory) -> None:
    server = await server_factory(max_timeouts=99)
    made = await server.create(
        preset="robbers", match_format="SINGLE_ROUND", turn_time_limit=0.4, seats=[{}, {}]
    )
    tid = made["table"]["id"]
    a = await server.join(tid, "Ann")
    b = await server.join(tid, "Bob")
    ca = await server.client(tid, a["token"])
    cb = await server.client(tid, b["token"])
    await server.start_table(tid, made["creator_token"])
    w = await ca.expect("welcome", lambda m: m["view"] is not None)
    assert w["deadline"] is not None and w["view"]["time_left"] is not None
    first = w["view"]["current"]
    sizes = w["view"]["hand_sizes"]
    up = await ca.expect("update")
    event = up["event"]
    assert (event["seat"], event["actor"], event["action"]) == (first, "server", "timeout")
    assert event["accepted"] is False and "time" in event["text"]
    assert [v["code"] for v in up["view"]["last"]["violations"]] == ["C8"]
    assert event["data"]["code"] == "timed_out" and event["data"]["penalty"] == 1
    assert up["view"]["hand_sizes"][first] == sizes[first] + 1  # robbers: penalty 1
    assert up["view"]["current"] == 1 - first
    # The record shows the timeout with the server's time stamp; it replays (C8 by `at`).
    await cb.expect("update", lambda m: m["seq"] == 1)


async def test_repeated_timeouts_hand_the_seat_to_a_stand_in_until_resume(
    server_factory: ServerFactory,
) -> None:
    server = await server_factory(max_timeouts=2)
    made = await server.create(
        preset="robbers",
        match_format="SINGLE_ROUND",
        turn_time_limit=0.3,
        seats=[{}, {"kind": "bot", "bot": "simple"}],
        bot_pause=0.05,
    )
    tid = made["table"]["id"]
    a = await server.join(tid, "Ann", seat=0)
    ca = await server.client(tid, a["token"])
    await server.start_table(tid, made["creator_token"])
    notice = await ca.expect("notice")
    assert notice["seat"] == 0 and "Ann is away" in notice["text"]
    assert "2 turns timed out in a row" in notice["text"]
    assert notice["data"]["reason"] == "notice.away"
    assert notice["data"]["cause"] == {"reason": "notice.timeouts", "count": 2}
    timeouts = [
        m for m in ca.received if m["type"] == "update" and m["event"]["action"] == "timeout"
    ]
    assert len(timeouts) == 2 and all(m["event"]["seat"] == 0 for m in timeouts)
    tables = [m["table"] for m in ca.received if m["type"] == "table"]
    assert tables[-1]["seats"][0]["away"] is True
    # The stand-in now plays Ann's turns.
    await ca.expect("update", _is_seat_event(0, "standin"))
    await ca.send({"type": "resume", "id": "back"})
    back = await ca.expect("notice", lambda m: "is back" in m["text"])
    assert back["seat"] == 0
    info = (await server.http.get(f"/api/tables/{tid}")).json()
    assert info["seats"][0]["away"] is False or info["status"] == "finished"


async def test_a_disconnected_player_is_replaced_after_the_grace_and_comes_back(
    server_factory: ServerFactory,
) -> None:
    server = await server_factory(disconnect_grace=0.2)
    made = await server.create(
        preset="robbers",
        seats=[{}, {"kind": "bot", "bot": "simple"}],
        bot_pause=0.05,
    )
    tid = made["table"]["id"]
    a = await server.join(tid, "Ann", seat=0)
    ca = await server.client(tid, a["token"])
    watcher = await server.client(tid)
    await server.start_table(tid, made["creator_token"])
    await ca.close()
    notice = await watcher.expect("notice")
    assert "Ann is away (did not come back in time)" in notice["text"]
    await watcher.expect("update", _is_seat_event(0, "standin"))
    again = await server.client(tid, a["token"])
    assert again.welcome["role"] == "seat"
    await watcher.expect("notice", lambda m: m["text"] == "Ann is back")


async def test_leaving_a_running_game_lets_a_stand_in_finish_it(server: Server) -> None:
    made = await server.create(
        preset="robbers_s003",
        match_format="SINGLE_ROUND",
        seats=[{}, {"kind": "bot", "bot": "simple"}],
    )
    tid = made["table"]["id"]
    a = await server.join(tid, "Ann")
    watcher = await server.client(tid)
    await server.start_table(tid, made["creator_token"])
    r = await server.http.post(
        f"/api/tables/{tid}/leave", headers={"Authorization": f"Bearer {a['token']}"}
    )
    assert r.status_code == 200 and r.json()["seats"][0]["away"] is True
    await watcher.expect("reveal")
    log = (await server.http.get(f"/api/tables/{tid}/log")).json()
    assert {e["actor"] for e in log if e["seat"] == 0} <= {"standin"}
    # The token died with the leave.
    again = await server.http.post(
        f"/api/tables/{tid}/leave", headers={"Authorization": f"Bearer {a['token']}"}
    )
    assert again.status_code == 403


async def test_indian_rummy_plugs_in_bots_and_auto_drop(server_factory: ServerFactory) -> None:
    """Another family through the same server: bots on the server, and the stand-in drops."""
    server = await server_factory(disconnect_grace=0.1)
    made = await server.create(
        preset="indian13",
        seats=[{}, {"kind": "bot", "bot": "simple"}, {"kind": "bot", "bot": "random"}],
    )
    tid = made["table"]["id"]
    assert made["table"]["family"] == "indian"
    a = await server.join(tid, "Ann", seat=0)
    ca = await server.client(tid, a["token"])
    watcher = await server.client(tid)
    await server.start_table(tid, made["creator_token"])
    await ca.close()
    reveal = await watcher.expect("reveal")
    log = (await server.http.get(f"/api/tables/{tid}/log")).json()
    mine = [e for e in log if e["seat"] == 0]
    assert mine and mine[0]["actor"] == "standin" and mine[0]["action"] == "drop"
    record = (await server.http.get(f"/api/tables/{tid}/record")).json()
    assert record["seed"] == reveal["seed"] and len(record["actions"]) == len(log)
