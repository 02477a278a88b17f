"""Indian Rummy tables in the browser.

With a turn timer and a time bank: the countdown shows the turn's time and the bank; a turn
nobody plays runs out and is played by the server; the game goes on; the other player's
timed-out turn can be stepped through (Last turn), its thrown card glowing; the player's own
move closes the step-through.

A hand that ends because the other player drops before one's first turn says so in its
summary (the first-game "Hand 1 is over" popup: in a two-player game a drop at the first turn
ends the hand at once).

Two human seats, the second never connected, so the game goes on by the timer or its
stand-in alone (no computer player's choices in the way).
"""

from __future__ import annotations

from typing import Any

import httpx

from helpers.e2e import Server, new_page, shot

SEED = "e2e-timer-1"  # seat 0 (Ann) moves first


def log_text(page: Any) -> str:
    text: str = page.inner_text("#game-log")
    return text


def ann_and_bob(server: Server, browser: Any, **create: Any) -> tuple[Any, str, str]:
    """A two-seat Indian table: Ann in the browser (its creator), Bob joined but never
    connected. Returns Ann's page (on the waiting table), the table id and Bob's token."""
    made = httpx.post(
        f"{server.url}/api/tables",
        json={
            "preset": "indian13",
            "title": "Ann and Bob",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "creator_seat": 0,
            "creator_name": "Ann",
            **create,
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
    # The start button is drawn twice, from the first fetch and again from the live
    # connection's welcome; a click between the two (its press on the first button, its
    # release on the second) is no click. Wait for the welcome's button.
    page.wait_for_selector("[data-live] #start-btn")
    return page, tid, str(joined.json()["token"])


def test_the_indian_timer_runs_out_and_the_game_goes_on(server: Server, browser: Any) -> None:
    page, _tid, _bob = ann_and_bob(
        server, browser, turn_time_limit=6, options={"turn.time_bank_s": 1}
    )
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
        "/⏱ 0:0[1-6]$/.test(document.querySelector('#turn-timer')?.textContent || '')"
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


def test_a_hand_dropped_before_my_first_turn_says_so(server: Server, browser: Any) -> None:
    page, tid, bob = ann_and_bob(server, browser)
    server.next_seed("e2e-timer-0")  # seat 1 (Bob) moves first
    page.click("#start-btn")
    page.wait_for_selector("#turn-status")
    # Bob leaves at his first turn: his stand-in drops (the usual auto-drop), and in a game
    # of two that ends the hand before Ann's first turn.
    left = httpx.post(
        f"{server.url}/api/tables/{tid}/leave",
        headers={"Authorization": f"Bearer {bob}"},
        timeout=20,
    )
    assert left.status_code == 200, left.text
    page.wait_for_selector("#round-summary")
    ending = page.inner_text("#summary-ending")
    assert ending.startswith("Dropped out: Bob. The hand goes to Ann."), ending
    assert "before your first turn" in ending
    assert not page.js_errors
