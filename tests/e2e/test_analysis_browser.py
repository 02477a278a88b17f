"""The replay's Analyse button in a browser: a short Rummikub game (the player draws where
the solver would have played), closed by its creator; the replay analyses it with a
progress bar and shows the win-chance graph, the graded decisions and the best play as the
solver's steps; a second visit shows the stored analysis without asking again."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from websockets.sync.client import connect

from helpers.e2e import Server, new_page, shot

HANG_GUARD = 20.0


def _short_rummikub_game(server: Server) -> str:
    """Ann draws three times against the simple bot, then closes the table."""
    body = {
        "preset": "rummikub",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "simple"}],
        "creator_seat": 0,
        "creator_name": "Ann",
        "bot_pause": 0,
    }
    created = httpx.post(f"{server.url}/api/tables", json=body, timeout=HANG_GUARD).json()
    tid, token, creator = created["table"]["id"], created["seat_token"], created["creator_token"]
    server.next_seed("e2e-analysis-1")
    auth = {"Authorization": f"Bearer {creator}"}
    r = httpx.post(f"{server.url}/api/tables/{tid}/start", headers=auth, timeout=HANG_GUARD)
    assert r.status_code == 200, r.text
    ws_url = server.url.replace("http://", "ws://") + f"/ws/tables/{tid}"
    with connect(ws_url, open_timeout=HANG_GUARD) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        msg = json.loads(ws.recv(timeout=HANG_GUARD))
        draws = 0
        deadline = time.monotonic() + HANG_GUARD
        while draws < 3 and time.monotonic() < deadline:
            view = msg.get("view") or {}
            if msg["type"] in ("welcome", "update") and view.get("current") == 0:
                ws.send(json.dumps({"type": "action", "seq": msg["seq"], "action": "draw"}))
                draws += 1
            msg = json.loads(ws.recv(timeout=HANG_GUARD))
        assert draws == 3
    r = httpx.post(f"{server.url}/api/tables/{tid}/close", headers=auth, timeout=HANG_GUARD)
    assert r.status_code == 200, r.text
    return tid


def test_analyse_a_game_in_the_replay(server: Server, browser: Any) -> None:
    tid = _short_rummikub_game(server)
    page = new_page(browser)
    page.goto(f"{server.url}/#/replay/{tid}")
    page.wait_for_selector("#analyse-btn")
    page.click("#analyse-btn")
    # the progress bar, then the graph (the analysis runs in the server's workers)
    page.wait_for_selector("#analysis-progress, #analysis-graph", state="attached")
    page.wait_for_selector("#analysis-graph polyline", state="attached")
    assert page.locator("#analysis-graph polyline").count() >= 1
    moves = page.locator("#analysis-moves .move")
    assert moves.count() >= 1
    assert "Ann" in page.inner_text(".analysis-legend")
    # Ann drew where she could have placed cards: her first such decision, with the
    # solver's steps to the best play and its table
    missed = page.locator("#analysis-moves .move", has_text="left unplaced").first
    missed.click()
    page.wait_for_selector("#analysis-best .solver-steps li")
    assert page.locator("#analysis-best .best-table .card").count() >= 3
    index = int(str(missed.get_attribute("data-index")))
    page.wait_for_function(
        f"document.querySelector('#replay-step')?.innerText.includes('Step {index} of')"
    )
    shot(page, "30-replay-analysis")
    # a second visit: the stored analysis at once, no button
    page.goto(f"{server.url}/#/")
    page.goto(f"{server.url}/#/replay/{tid}")
    page.wait_for_selector("#analysis-graph polyline", state="attached")
    assert page.locator("#analyse-btn").count() == 0
    assert not page.js_errors
