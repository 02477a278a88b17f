"""The server's side of the web interface (``openrummy.server.web``), without a browser:
the page and its files, and the helpers that judge a table, give hints, arrange an Indian
hand and replay a finished game. Same real ``rummy serve`` as the browser tests.
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from helpers.e2e import Server

HANG_GUARD = 20.0


def create(server: Server, seed: str, **body: Any) -> dict[str, Any]:
    body.setdefault("bot_pause", 0)
    body.setdefault("creator_seat", 0)
    body.setdefault("creator_name", "Ann")
    r = httpx.post(f"{server.url}/api/tables", json=body, timeout=HANG_GUARD)
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    server.next_seed(seed)
    r = httpx.post(
        f"{server.url}/api/tables/{created['table']['id']}/start",
        headers={"Authorization": f"Bearer {created['creator_token']}"},
        timeout=HANG_GUARD,
    )
    assert r.status_code == 200, r.text
    return created


def wait_turn(server: Server, table_id: str, seat: int) -> dict[str, Any]:
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        v: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table_id}/view").json()["view"]
        if v["current"] == seat:
            return v
        time.sleep(0.05)
    raise AssertionError("the turn never came")


def post(server: Server, path: str, body: Any, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(f"{server.url}{path}", json=body, headers=headers, timeout=HANG_GUARD)


def test_page_and_static_files(server: Server) -> None:
    page = httpx.get(server.url + "/", timeout=HANG_GUARD)
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script type="module" src="/static/js/main.js">' in page.text
    js = httpx.get(server.url + "/static/js/main.js", timeout=HANG_GUARD)
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    assert js.headers["cache-control"] == "no-cache"
    for path in ("/static/style.css", "/static/js/lang/de.js", "/static/js/manip.js"):
        assert httpx.get(server.url + path, timeout=HANG_GUARD).status_code == 200
    assert httpx.get(server.url + "/static/../pyproject.toml").status_code == 404
    assert httpx.get(server.url + "/api/health").json()["ok"] is True


def test_rules_of_presets_and_tables(server: Server) -> None:
    rk = httpx.get(f"{server.url}/api/presets/rummikub/rules").json()
    assert (rk["family"], rk["tiles"], rk["threshold"], rk["penalty_draw"]) == (
        "manipulation",
        True,
        30,
        3,
    )
    ind = httpx.get(f"{server.url}/api/presets/indian13/rules").json()
    assert ind["drop"] == {"first": 20, "middle": 40} and ind["invalid_penalty"] == 80
    assert httpx.get(f"{server.url}/api/presets/nonsense/rules").status_code == 404


def test_check_and_hint_for_a_seated_player(server: Server) -> None:
    created = create(
        server,
        "e2e-robbers-57",
        preset="robbers",
        seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "simple"}] * 3,
    )
    tid, token = created["table"]["id"], created["seat_token"]
    wait_turn(server, tid, 0)
    path = f"/api/tables/{tid}/check"

    # Ambiguous joker: the identities that fit are offered; the other meld counts 30.
    res = post(
        server,
        path,
        {"table": ["[6H 6D JK]", "[10S 10H JK=10D]"], "hand_only": [True, True]},
        token,
    ).json()
    first, second = res["melds"]
    assert not first["valid"] and "[JK=6S 6H 6D]" in first["choices"], first
    assert second["valid"] and second["kind"] == "SET" and second["value"] == 30
    opening = res["opening"]
    assert (opening["required"], opening["type"], opening["value"], opening["threshold"]) == (
        True,
        "POINTS",
        30,
        40,
    )
    assert opening["met"] is False
    assert res["checked"] is False

    # Both melds valid: 48 from the hand, and the engine's commit checks pass.
    res = post(
        server,
        path,
        {"table": ["[JK=6S 6H 6D]", "[10S 10H JK=10D]"], "hand_only": [True, True]},
        token,
    ).json()
    assert res["opening"]["value"] == 48 and res["opening"]["met"], res
    assert res["checked"] and res["ok"], res

    # A single joker whose identity fits one way only is filled in.
    res = post(server, path, {"table": ["[8S JK 10S]"]}, token).json()
    assert res["melds"][0]["valid"] and res["melds"][0]["meld"] == "[8S JK=9S 10S]", res
    # Too small an opening: the engine says why (C5).
    res = post(server, path, {"table": ["[10S 10H JK=10D]"], "hand_only": [True]}, token).json()
    assert res["checked"] and not res["ok"]
    assert any(v["code"] == "C5" for v in res["violations"]), res
    # Open jokers that fit several ways, or a meld of jokers only: the player states them.
    res = post(server, path, {"table": ["[JK JK]", "[5S 6S JK JK]"]}, token).json()
    assert [m["reason"] for m in res["melds"]] == ["choose what the joker stands for"] * 2
    # More jokers than the deck holds (4): refused before anything is judged.
    too_many = post(server, path, {"table": ["[JK JK JK]", "[5S JK JK]"]}, token)
    assert too_many.status_code == 413 and too_many.json()["error"] == "too_large"
    # An invalid meld and its reason.
    res = post(server, path, {"table": ["[6H 6D]"]}, token).json()
    assert res["melds"][0]["reason"] == "2 cards — a meld needs at least 3"

    # Only a seat token may ask.
    assert post(server, path, {"table": []}, None).status_code == 401
    assert post(server, path, {"table": []}, "not-a-token").status_code == 403
    assert post(server, path, {"table": [], "extra": 1}, token).status_code == 422

    hint = post(server, f"/api/tables/{tid}/hint", {"lang": "en"}, token).json()
    assert hint["found"] and hint["count"] >= 6 and hint["steps"], hint
    assert all(s.startswith(f"{k}. ") for k, s in enumerate(hint["steps"], 1))
    german = post(server, f"/api/tables/{tid}/hint", {"lang": "de"}, token).json()
    assert german["table"] == hint["table"]
    assert any("lege" in s for s in german["steps"]), german["steps"]
    assert post(server, f"/api/tables/{tid}/hint", {"lang": "fr"}, token).status_code == 422


def test_indian_hand_helper_and_replay(server: Server) -> None:
    created = create(
        server,
        "e2e-indian-4",
        preset="indian13",
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "simple"}],
    )
    tid, token = created["table"]["id"], created["seat_token"]
    wait_turn(server, tid, 0)
    hand_path = f"/api/tables/{tid}/hand"
    res = post(server, hand_path, {"auto": True}, token).json()
    auto = res["auto"]
    shown = sorted(c for g in auto["groups"] for c in g) + sorted(auto["deadwood"])
    assert len(shown) == 13 and auto["discard"] is None
    # The player's own grouping: a pure sequence is recognised, deadwood counted.
    res = post(server, hand_path, {"groups": [["JD", "QD", "KD"]]}, token).json()
    assert res["groups"][0] == {"kind": "PURE_SEQUENCE", "valid": True}
    assert res["deadwood"]["credited"] is False and res["deadwood"]["points"] == 80
    assert post(server, f"/api/tables/{tid}/check", {"table": []}, token).status_code == 422

    # Running games are not replayed (the hands are secret).
    assert httpx.get(f"{server.url}/api/tables/{tid}/replay").status_code == 409

    # Drop: the bot is the last player standing, the game is over.
    ws_url = server.url.replace("http://", "ws://") + f"/ws/tables/{tid}"
    with connect(ws_url, open_timeout=HANG_GUARD) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(ws.recv(timeout=HANG_GUARD))
        assert welcome["type"] == "welcome"
        ws.send(json.dumps({"type": "action", "seq": welcome["seq"], "action": "drop"}))
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=HANG_GUARD))
            if msg["type"] == "reveal":
                break
    frame = httpx.get(f"{server.url}/api/tables/{tid}/replay?step=0").json()
    assert frame["event"] is None and len(frame["hands"]) == 2
    assert [len(h) for h in frame["hands"]] == [13, 13]
    last = httpx.get(f"{server.url}/api/tables/{tid}/replay?step=999").json()
    assert last["step"] == last["steps"] and "dropped" in last["event"]["text"]
    assert last["names"][0] == "Ann"


@pytest.mark.parametrize("path", ["/api/tables/nope/rules", "/api/tables/nope/replay"])
def test_unknown_tables(server: Server, path: str) -> None:
    assert httpx.get(server.url + path).status_code == 404
