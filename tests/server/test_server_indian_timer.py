"""Indian Rummy's turn timer and time bank at a server table: the server's clock times the
turn out once the turn's time and the seat's bank have run out, the game goes on, a
client may not send ``timeout`` and never sees it among its legal actions.

The limits are tiny so the test waits little; it asserts what happened, not how long it took.
"""

from __future__ import annotations

import pytest

from helpers.server import ServerFactory

pytestmark = pytest.mark.anyio


async def test_the_indian_timer_plays_the_turn_and_the_game_goes_on(
    server_factory: ServerFactory,
) -> None:
    server = await server_factory(max_timeouts=99)
    made = await server.create(
        preset="indian13",
        turn_time_limit=1.0,
        options={"turn.time_bank_s": 0.5},
        seats=[{}, {}],
    )
    assert made["table"]["turn_time_limit"] == 1.0
    tid = made["table"]["id"]
    a = await server.join(tid, "Ann", seat=0)
    b = await server.join(tid, "Bob", seat=1)
    ca = await server.client(tid, a["token"])
    cb = await server.client(tid, b["token"])
    await server.start_table(tid, made["creator_token"])
    w = await ca.expect("welcome", lambda m: m["view"] is not None)
    view = w["view"]
    first = view["current"]
    assert w["deadline"] is not None and 0 < view["time_left"] <= 1.5
    assert view["time_bank"] == [0.5, 0.5]
    assert "timeout" not in view["legal"] and "draw" in view["legal"]
    # Only the server's timer may time a turn out.
    mover = ca if first == 0 else cb
    await mover.send({"type": "action", "id": "t", "seq": w["seq"], "action": "timeout"})
    err = await mover.expect("error")
    assert err["code"] == "server_only"
    # Nobody moves: the turn's time and then the bank run out, and the server plays the turn
    # (a card drawn and thrown), then the other seat's turn runs.
    up = await ca.expect("update", lambda m: m["event"]["action"] == "timeout")
    event = up["event"]
    assert (event["seat"], event["actor"], event["accepted"]) == (first, "server", True)
    assert event["data"]["code"] == "timed_out" and event["data"]["card"]
    assert up["view"]["discard_top"] == event["data"]["card"]
    assert up["view"]["current"] == 1 - first
    assert up["view"]["time_bank"][first] == 0.0
    assert up["view"]["hand_sizes"] == [13, 13]
    assert "timeout" not in up["view"]["legal"]
    # The other seat plays in time; its bank is untouched and the game goes on.
    other = cb if first == 0 else ca
    await other.send({"type": "action", "id": "d", "seq": up["seq"], "action": "draw"})
    drew = await other.expect("update", lambda m: m["event"]["action"] == "draw")
    card = drew["view"]["hand"][0]
    await other.send({"type": "action", "id": "x", "seq": drew["seq"], "action": f"discard {card}"})
    thrown = await other.expect("update", lambda m: m["event"]["action"].startswith("discard"))
    assert thrown["view"]["current"] == first
    assert 0.0 < thrown["view"]["time_bank"][1 - first] <= 0.5
