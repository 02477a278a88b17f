"""The table as a player keeps it: the hand order across a draw, an opponent's turn and a
reload; undo and redo of the steps of a turn; Draw asking before it throws away a half-built
table; the new-card glow until the next move; the title badge on one's turn; leaving,
cancelling and closing a table from the page; a rematch with the same seats and a new seed;
the replay's Analyse button (progress, the win-chance graph, the best play as solver steps,
the stored analysis on a second visit).
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from websockets.sync.client import connect

from helpers.e2e import Server, _box, drag, new_page, shot
from openrummy.games.families import new_match
from openrummy.rules import find_preset

SEED = "e2e-order-3"


def hand_cards(page: Any) -> list[str]:
    cards: list[str] = page.locator("#hand .card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    return cards


def to_front(page: Any, card: str) -> None:
    """Drag a hand card onto the left half of the first card: it goes to the front. Under
    load a re-render can swallow a gesture: then drag again, as a person would."""
    for attempt in range(3):
        a = _box(page.locator(f'#hand [data-card="{card}"]').last)
        b = _box(page.locator("#hand .card").first)
        page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
        page.mouse.down()
        page.mouse.move(a["x"] + a["width"] / 2 + 12, a["y"] + a["height"] / 2 + 12, steps=3)
        page.mouse.move(b["x"] + 4, b["y"] + b["height"] / 2, steps=8)
        page.mouse.up()
        try:
            page.wait_for_function(
                f"document.querySelector('#hand .card').dataset.card === '{card}'", timeout=8_000
            )
            return
        except Exception:
            if attempt == 2:
                raise


def wait_my_turn(page: Any) -> None:
    page.wait_for_function(
        "document.querySelector('#turn-status')?.classList.contains('mine')", timeout=60_000
    )


def meld_sizes(page: Any) -> list[int]:
    sizes: list[int] = page.locator(".table-melds .meld").evaluate_all(
        "els => els.map(m => m.querySelectorAll('.card').length)"
    )
    return sizes


def wait_melds(page: Any, sizes: list[int]) -> None:
    page.wait_for_function(
        "want => JSON.stringify([...document.querySelectorAll('.table-melds .meld')]"
        ".map(m => m.querySelectorAll('.card').length)) === JSON.stringify(want)",
        arg=sizes,
    )


def create_two_seat_table(server: Server, browser: Any, seed: str) -> Any:
    """Ann creates a table of the default preset against one bot (moving every 0.2 s),
    dealt from ``seed``; the page once it is her turn."""
    page = new_page(browser)
    page.goto(server.url)
    page.wait_for_selector("#create-btn")
    page.fill("#create-name", "Ann")
    while page.locator(".seat-edit li").count() > 2:
        page.get_by_role("button", name="− Seat").click()
    page.select_option("#opt-pause", "0.2")
    server.next_seed(seed)
    page.click("#create-btn")
    wait_my_turn(page)
    return page


def test_hand_order_undo_draw_reload_close_and_rematch(server: Server, browser: Any) -> None:
    rules = find_preset("robbers")
    match: Any = new_match(rules, 2, seed=SEED)
    dealt = len(match.game.hands[0])

    page = create_two_seat_table(server, browser, SEED)
    assert page.title().startswith("● Your turn")
    page.wait_for_function(f"document.querySelectorAll('#hand .card').length === {dealt}")

    # The player's order: sorted by rank, then the last card dragged to the front.
    page.get_by_role("button", name="Sort by rank").click()
    to_front(page, hand_cards(page)[-1])
    order = hand_cards(page)

    # Undo and redo, step by step (buttons and keys).
    drag(page, page.locator(f'#hand [data-card="{order[0]}"]').first, page.locator("#new-meld"))
    wait_melds(page, [1])
    meld = page.locator(".table-melds .meld").first
    drag(page, page.locator(f'#hand [data-card="{order[1]}"]').first, meld)
    wait_melds(page, [2])
    page.click("#undo-btn")
    wait_melds(page, [1])
    page.click("#redo-btn")
    wait_melds(page, [2])
    page.keyboard.press("u")
    page.keyboard.press("u")
    wait_melds(page, [])
    assert hand_cards(page) == order
    page.keyboard.press("Shift+U")
    wait_melds(page, [1])

    # Draw asks before it throws the half-built table away.
    page.keyboard.press("d")
    page.wait_for_selector(".modal >> text=Throw away this turn's table?")
    page.get_by_role("button", name="Back", exact=True).click()
    wait_melds(page, [1])
    page.click("#draw-btn")
    page.get_by_role("button", name="Draw anyway").click()
    page.wait_for_function(f"document.querySelectorAll('#hand .card').length === {dealt + 1}")
    after_draw = hand_cards(page)
    assert after_draw[:-1] == order, (after_draw, order)
    assert page.locator("#hand .card.fresh").count() == 1
    drawn = after_draw[-1]
    assert page.locator("#hand .card").last.get_attribute("class") is not None
    assert "fresh" in (page.locator("#hand .card").last.get_attribute("class") or "")

    # The computer player moves; the order is still the player's, the drawn card still glows.
    wait_my_turn(page)
    assert hand_cards(page)[: len(after_draw)] == after_draw
    assert page.title().startswith("● Your turn")
    # The next move clears the glow: move the drawn card to the front.
    to_front(page, drawn)
    assert page.locator("#hand .card.fresh").count() == 0
    kept = hand_cards(page)
    shot(page, "21-hand-order-kept")

    # A reload (a new connection) keeps the order.
    page.reload()
    wait_my_turn(page)
    assert hand_cards(page) == kept

    # The host closes the running table; the game stops and its seed is revealed.
    table_id = page.evaluate("location.hash").split("/")[-1]
    page.click("#close-btn")
    page.locator(".modal").get_by_role("button", name="Close the table").click()
    page.wait_for_selector("#create-btn")
    old = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=20).json()
    assert old["status"] == "closed" and old["game"]["seed"] == SEED

    # Rematch: the same seats and rules, a new seed, the game starts at once.
    page.goto(f"{server.url}/#/t/{table_id}")
    page.click("[data-live] #rematch-btn")  # the button the welcome drew
    page.wait_for_function(f"!location.hash.endsWith('{table_id}')")
    page.wait_for_selector(".table-page .players")
    new_id = page.evaluate("location.hash").split("/")[-1]
    new = httpx.get(f"{server.url}/api/tables/{new_id}", timeout=20).json()
    assert new["status"] == "running" and new["preset"] == old["preset"]
    assert [s["name"] for s in new["seats"]] == [s["name"] for s in old["seats"]]
    creator = page.evaluate(f"JSON.parse(localStorage.getItem('openrummy.table.{new_id}')).creator")
    r = httpx.post(
        f"{server.url}/api/tables/{new_id}/close",
        headers={"Authorization": f"Bearer {creator}"},
        timeout=20,
    )
    assert r.status_code == 200, r.text
    assert r.json()["game"]["seed"] != SEED
    assert not page.js_errors


def test_leave_and_cancel_a_table(server: Server, browser: Any) -> None:
    host = new_page(browser)
    host.goto(server.url)
    host.select_option("#preset", "rummikub")
    host.wait_for_selector("text=Tiles 1–13")
    host.fill("#create-name", "Ann")
    while host.locator(".seat-edit li").count() > 2:
        host.get_by_role("button", name="− Seat").click()
    host.locator(".seat-kind").first.select_option("human")
    host.click("#create-btn")
    host.wait_for_selector(".waiting")
    link = host.input_value("#share-link")
    table_id = link.split("/")[-1]

    # A guest at a German page joins, then leaves: the seat is free again.
    guest = new_page(browser, locale="de-DE")
    guest.goto(link)
    guest.wait_for_selector("[data-live] #join-name")  # drawn again by the welcome
    guest.fill("#join-name", "Jörg")
    guest.click("#join-btn")
    host.wait_for_function("document.querySelector('.seat-list').innerText.includes('Jörg')")
    guest.click("#leave-btn")
    guest.wait_for_selector(".modal >> text=Den Tisch verlassen?")
    guest.locator(".modal").get_by_role("button", name="Verlassen", exact=True).click()
    guest.wait_for_selector("#create-btn")
    host.wait_for_function("!document.querySelector('.seat-list').innerText.includes('Jörg')")
    seats = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=20).json()["seats"]
    assert not seats[1]["taken"]

    # The host cancels the open table: it leaves the lobby's list.
    host.click("#close-btn")
    host.wait_for_selector(".modal >> text=Cancel this table?")
    host.locator(".modal").get_by_role("button", name="Cancel the table").click()
    host.wait_for_selector("#create-btn")
    listed = httpx.get(f"{server.url}/api/tables?status=open", timeout=20).json()
    assert table_id not in [t["id"] for t in listed]
    assert not host.js_errors and not guest.js_errors


# Robbers' Rummy for two: the computer player opens first with [9S JK=9H 9D]; the person,
# who has not opened, holds 9C (the set's other missing suit).
EARLY_SWAP_SEED = "e2e-early-swap-84"


def test_a_joker_swap_before_opening_is_refused_at_once(server: Server, browser: Any) -> None:
    rules = find_preset("robbers")
    match: Any = new_match(rules, 2, seed=EARLY_SWAP_SEED)
    assert match.current == 1 and "9C" in [str(c) for c in match.game.hands[0]]

    page = create_two_seat_table(server, browser, EARLY_SWAP_SEED)
    joker = page.locator('.table-melds .card.joker[aria-label="Joker=9♥"]')
    before = meld_sizes(page)
    # Drop 9C on the joker: the card takes its place, the joker stays on the table (in a meld
    # of its own, to be built on), and the reason shows at once, before Done.
    drag(page, page.locator('#hand [data-card="9C"]').first, joker)
    page.wait_for_selector("#toasts >> text=stays on the table")
    told = page.inner_text("#toasts")
    assert (
        "The joker stays on the table (you may retrieve a joker only after you have opened)" in told
    ), told
    wait_melds(page, [*before, 1])
    assert "9C" not in hand_cards(page)
    assert page.locator('.table-melds [data-card="9C"]').count() == 1
    assert page.locator("#hand .card.joker").count() == 0
    assert page.locator(".table-melds .meld").last.locator(".card.joker").count() == 1
    shot(page, "24-robbers-swap-before-opening")
    # Undo takes it back.
    page.click("#undo-btn")
    wait_melds(page, before)
    assert "9C" in hand_cards(page)
    assert not page.js_errors


def test_indian_invalid_declaration_in_german(server: Server, browser: Any) -> None:
    """An invalid declaration: the reason and the summary in German, the declared groups
    shown, the computer player (last standing) not tagged as having declared, its name in
    German; then the replay's autoplay with what changed glowing."""
    page = new_page(browser, locale="de-DE")
    page.goto(server.url)
    page.select_option("#preset", "indian13")
    page.wait_for_selector('[data-loaded="indian13"]', state="attached")
    page.locator(".seat-kind").first.select_option("bot:medium")
    page.select_option("#opt-pause", "0.2")
    # The name last, once the preset's form is built, and read back before Create (under
    # load the German form was once sent with the default name).
    page.fill("#create-name", "Jörg")
    page.wait_for_function("document.querySelector('#create-name')?.value === 'Jörg'")
    server.next_seed("e2e-indian-4")
    page.click("#create-btn")
    wait_my_turn(page)
    assert "Bot 2 (Mittel)" in page.inner_text(".players")
    page.click("#draw-btn")
    page.wait_for_function("document.querySelectorAll('.groups .card').length === 14")
    page.locator(".groups .card").first.click()
    page.click("#declare-btn")
    page.wait_for_selector(".modal >> text=Deine Gruppen sind keine gültige Anmeldung")
    page.get_by_role("button", name="Trotzdem anmelden").click()
    page.wait_for_selector("#round-summary")
    ending = page.inner_text("#summary-ending")
    assert ending.startswith("Ungültige Anmeldung von Jörg: 80 Punkte"), ending
    assert page.locator("#round-summary tbody tr").first.locator(".group-box").count() >= 1
    assert "angemeldet" not in page.inner_text(".players")
    shot(page, "22-de-indian-invalid-declaration")

    # The replay plays itself; what each step changed glows.
    page.click("#next-round")
    page.click('#final a[href^="#/replay/"]')
    page.wait_for_selector("#replay-play")
    page.click("#replay-play")
    page.wait_for_function(
        "Number((document.querySelector('#replay-step')?.innerText.match(/\\d+/) || [0])[0]) >= 1"
        " && document.querySelectorAll('.all-hands .card.fresh').length >= 1"
    )
    page.click("#replay-play")  # pause
    assert page.get_attribute("#replay-play", "aria-pressed") == "false"
    assert not page.js_errors


ANALYSIS_GUARD = 20.0
"""Seconds a request or a message of the analysis test may take: a guard against hangs."""


def _short_rummikub_game(server: Server) -> str:
    """Ann draws three times against the simple bot, then closes the table."""
    body = {
        "preset": "rummikub",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "simple"}],
        "creator_seat": 0,
        "creator_name": "Ann",
        "bot_pause": 0,
    }
    created = httpx.post(f"{server.url}/api/tables", json=body, timeout=ANALYSIS_GUARD).json()
    tid: str = created["table"]["id"]
    token, creator = created["seat_token"], created["creator_token"]
    server.next_seed("e2e-analysis-1")
    auth = {"Authorization": f"Bearer {creator}"}
    r = httpx.post(f"{server.url}/api/tables/{tid}/start", headers=auth, timeout=ANALYSIS_GUARD)
    assert r.status_code == 200, r.text
    ws_url = server.url.replace("http://", "ws://") + f"/ws/tables/{tid}"
    with connect(ws_url, open_timeout=ANALYSIS_GUARD) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        msg = json.loads(ws.recv(timeout=ANALYSIS_GUARD))
        draws = 0
        deadline = time.monotonic() + ANALYSIS_GUARD
        while draws < 3 and time.monotonic() < deadline:
            view = msg.get("view") or {}
            if msg["type"] in ("welcome", "update") and view.get("current") == 0:
                ws.send(json.dumps({"type": "action", "seq": msg["seq"], "action": "draw"}))
                draws += 1
            msg = json.loads(ws.recv(timeout=ANALYSIS_GUARD))
        assert draws == 3
    r = httpx.post(f"{server.url}/api/tables/{tid}/close", headers=auth, timeout=ANALYSIS_GUARD)
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
    findings = moves.count()
    assert findings >= 1
    page.uncheck("#analysis-only-findings")  # every decision, each with its mark
    page.wait_for_function(
        f"document.querySelectorAll('#analysis-moves .move').length > {findings}"
    )
    assert page.locator("#analysis-moves .move .grade-mark").count() == moves.count()
    page.check("#analysis-only-findings")
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
    # in German: the panel, the accuracy and the facts from the message catalogue
    page.click("[data-lang=de]")
    page.wait_for_selector("#analysis h3 >> text=Analyse")
    assert "Genauigkeit" in page.inner_text(".analysis-legend")
    assert "nicht gelegt, die der beste Zug legt" in page.inner_text("#analysis-moves")
    page.click("[data-lang=en]")
    assert not page.js_errors
