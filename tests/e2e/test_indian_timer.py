"""Indian Rummy with a turn timer and a time bank, in the browser: the countdown shows the
turn's time and the bank; a turn nobody plays runs out and is played by the server; the game
goes on; the other player's timed-out turn can be stepped through (Last turn), its thrown
card glowing; the player's own move closes the step-through.

Two human seats, the second never connected, so the game goes on by the timer alone (no
computer player's choices in the way).
"""

from __future__ import annotations

from typing import Any

import httpx

from helpers.e2e import Server, new_page, shot

SEED = "e2e-timer-1"  # seat 0 (Ann) moves first


def log_text(page: Any) -> str:
    text: str = page.inner_text("#game-log")
    return text


def test_the_indian_timer_runs_out_and_the_game_goes_on(server: Server, browser: Any) -> None:
    made = httpx.post(
        f"{server.url}/api/tables",
        json={
            "preset": "indian13",
            "title": "Timer",
            "turn_time_limit": 4,
            "options": {"turn.time_bank_s": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "creator_seat": 0,
            "creator_name": "Ann",
        },
        timeout=20,
    ).json()
    tid = made["table"]["id"]
    joined = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "Bob"}, timeout=20)
    assert joined.status_code == 200, joined.text
    page = new_page(browser)
    page.goto(server.url)
    page.evaluate(
        "([id, keys]) => localStorage.setItem('openrummy.table.' + id, JSON.stringify(keys))",
        [
            tid,
            {
                "creator": made["creator_token"],
                "seat": made["seat"],
                "token": made["seat_token"],
                "name": "Ann",
            },
        ],
    )
    page.goto(f"{server.url}/#/t/{tid}")
    server.next_seed(SEED)
    page.click("#start-btn")

    # Ann's turn: the turn's time and the bank count down.
    page.wait_for_function(
        "/⏱ \\d:\\d\\d · bank 0:01/.test(document.querySelector('#turn-timer')?.textContent || '')"
    )
    assert page.locator("#turn-status.mine").count() == 1
    shot(page, "31-indian-timer-bank")
    # Nobody moves: Ann's turn runs out, then Bob's; the game goes on with Ann's turn.
    page.wait_for_function(
        "(document.querySelector('#game-log')?.innerText || '').includes(\"Bob's time ran out\")",
        timeout=30_000,
    )
    log = log_text(page)
    assert "Ann's time ran out" in log and "discarded" in log
    page.wait_for_selector("#turn-status.mine")
    # Ann's bank is spent: the countdown shows the turn's time only.
    page.wait_for_function(
        "/⏱ 0:0[1-4]$/.test(document.querySelector('#turn-timer')?.textContent || '')"
    )

    # Step through Bob's turn: what he did, the card thrown for him glowing on the pile.
    page.click("#last-turn-btn")
    page.wait_for_selector("#turn-steps")
    assert page.inner_text("#turn-step-pos").endswith("1 of 1")
    assert "Bob's time ran out" in page.inner_text("#turn-step-event")
    assert page.locator("#turn-steps .card.fresh").count() == 1
    shot(page, "32-indian-last-turn-steps")

    # Ann plays in time: the step-through closes, the game goes on.
    page.click("#draw-btn")
    page.wait_for_function("document.querySelectorAll('.groups .card').length === 14")
    page.locator(".groups .card").first.click()
    page.click("#discard-btn")
    page.wait_for_function(
        "(document.querySelector('#game-log')?.innerText || '').includes('Ann discarded')"
    )
    assert page.locator("#turn-steps").count() == 0
    assert page.locator("#turn-status.mine").count() == 0
    assert not page.js_errors
