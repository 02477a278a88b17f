"""People playing in the browser: Rummikub between two people, Robbers' Rummy and Indian
Rummy against bots, the German page. Every deal is chosen (``Server.next_seed``) and read
back from the engine here, so the tests know which cards to move.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from helpers import indian_rules, manipulation_rules
from helpers.e2e import Server, drag, new_page, shot
from openrummy.cards import Card
from openrummy.games.families import new_match
from openrummy.melds import Meld
from openrummy.solve import best_play

RUMMIKUB_SEED = "e2e-rummikub-5"
ROBBERS_SEED = "e2e-robbers-57"
INDIAN_SEED = "e2e-indian-4"


def card(page: Any, text: str, where: str = "#hand") -> Any:
    return page.locator(f'{where} [data-card="{text}"]').first


def wait_my_turn(page: Any) -> None:
    page.wait_for_function(
        "document.querySelector('#turn-status')?.classList.contains('mine')", timeout=60_000
    )


def build_meld(page: Any, cards: list[str]) -> None:
    """Drag the first card to the new-meld area, the others onto that new meld."""
    before = page.locator(".table-melds .meld").count()
    drag(page, card(page, cards[0]), page.locator("#new-meld"))
    page.wait_for_function(f"document.querySelectorAll('.table-melds .meld').length > {before}")
    meld = page.locator(".table-melds .meld").nth(before)
    for k, c in enumerate(cards[1:], start=2):
        # The next step (another drag, or Done) must see this card in the meld. Under load a
        # re-render can land between the mouse's steps and the gesture is lost (the card stays
        # in the hand, as it would for a person): drag it again, as a person would.
        for attempt in range(3):
            drag(page, card(page, c), meld)
            try:
                page.wait_for_function(
                    "([i, k]) => (document.querySelectorAll('.table-melds .meld')[i]"
                    "?.querySelectorAll('.card').length ?? 0) >= k",
                    arg=[before, k],
                    timeout=8_000,
                )
                break
            except Exception:
                if attempt == 2 or card(page, c).count() == 0:
                    raise


# -- two people, Rummikub ------------------------------------------------------------------------


def test_rummikub_two_people(server: Server, browser: Any) -> None:
    rules = manipulation_rules("rummikub")
    match: Any = new_match(rules, 2, seed=RUMMIKUB_SEED)
    starter = match.current
    hand = list(match.game.hands[starter])
    opening = Meld.parse("[K10 R10 O10]")
    rest = list(hand)
    for c in opening.cards:
        rest.remove(c)
    follow = best_play(rules, [opening], rest, opened=True)
    assert not follow.is_pass

    ann = new_page(browser)
    ann.goto(server.url)
    ann.select_option("#preset", "rummikub")
    ann.wait_for_selector("text=Tiles 1–13")
    ann.fill("#create-name", "Ann")
    while ann.locator(".seat-edit li").count() > 2:
        ann.get_by_role("button", name="− Seat").click()
    ann.locator(".seat-kind").first.select_option("human")
    shot(ann, "01-lobby-create-rummikub")
    ann.click("#create-btn")
    ann.wait_for_selector(".waiting")
    link = ann.input_value("#share-link")
    assert "#/t/" in link

    bob = new_page(browser)
    bob.goto(link)
    bob.wait_for_selector("[data-live] #join-name")  # drawn again by the welcome
    bob.fill("#join-name", "Bob <b>")
    bob.click("#join-btn")
    ann.wait_for_function("document.querySelector('.seat-list').innerText.includes('Bob <b>')")
    shot(ann, "02-waiting-room")
    server.next_seed(RUMMIKUB_SEED)
    ann.click("#start-btn")
    pages = {0: ann, 1: bob}
    opener, other = pages[starter], pages[1 - starter]
    wait_my_turn(opener)
    assert opener.locator("#hand .card").count() == 14
    # The name is text, never HTML.
    assert ann.locator(".players b").count() == 0

    # Open with a real meld, built by drag and drop.
    build_meld(opener, ["K10", "R10", "O10"])
    opener.wait_for_selector("#opening-meter.ok")
    assert "30 of 30" in opener.inner_text("#opening-meter")
    opener.wait_for_selector(".meld.valid")
    shot(opener, "03-rummikub-opening")
    opener.click("#done-btn")
    other.wait_for_function("document.querySelectorAll('.table-melds .meld .card').length === 3")
    # A tile table's log says tiles.
    log = other.inner_text("#game-log")
    assert "placed 3 tiles and opened with 30" in log and not re.search(r"\bcards?\b", log), log

    # The other player tries an opening that is too small: warned, submits, fails, pays.
    wait_my_turn(other)
    lone = str(match.game.hands[1 - starter][0])
    drag(other, card(other, lone), other.locator("#new-meld"))
    other.wait_for_selector(".meld.invalid")
    other.click("#done-btn")
    other.wait_for_selector(".modal >> text=This play will fail")
    shot(other, "04a-rummikub-will-fail")
    other.get_by_role("button", name="Submit anyway").click()
    other.wait_for_selector("#fail-banner")
    banner = other.inner_text("#fail-banner")
    assert "Your play failed" in banner and "you drew 3 as a penalty" in banner, banner
    assert not re.search(r"\bcards?\b|\bC\d+:", banner), banner
    assert other.locator("#hand .card").count() == 14 + 3
    shot(other, "04b-rummikub-failed-play")
    wait_my_turn(opener)

    # Take a tile out of the table meld: both parts are flagged, then reset.
    opener.wait_for_selector(".table-melds .meld")
    table_tile = opener.locator('.table-melds [data-card="K10"]').first
    drag(opener, table_tile, opener.locator("#new-meld"))
    opener.wait_for_selector(".meld.invalid .badge.bad")
    assert "needs at least 3" in opener.inner_text(".meld.invalid .badge.bad >> nth=0")
    shot(opener, "04-rummikub-invalid-meld")
    opener.click("#reset-btn")
    opener.wait_for_function("document.querySelectorAll('.meld.invalid').length === 0")
    assert opener.locator(".table-melds .meld").count() == 1

    # The hint: the solver's steps, applied on request, then submitted.
    opener.click("#hint-btn")
    opener.wait_for_selector("#hint-panel .steps li")
    shot(opener, "05-rummikub-hint")
    opener.click("#apply-hint")
    opener.wait_for_selector(".meld.valid")
    # Split the grown meld between two cards: both halves are too short; the hint again.
    opener.locator(".table-melds .meld").first.locator("button.split").nth(1).click()
    opener.wait_for_function("document.querySelectorAll('.meld.invalid').length === 2")
    shot(opener, "05a-rummikub-split")
    opener.keyboard.press("h")
    opener.click("#apply-hint")
    opener.wait_for_selector(".meld.valid")
    opener.click("#done-btn")
    placed = follow.count
    other.wait_for_function(
        f"document.querySelectorAll('.table-melds .card').length === {3 + placed}"
    )
    shot(other, "06-rummikub-other-player-updated")
    assert not ann.js_errors and not bob.js_errors


# -- one person and three bots, Robbers' Rummy ---------------------------------------------------


def test_robbers_against_bots_with_joker_swap(server: Server, browser: Any) -> None:
    rules = manipulation_rules("robbers")
    match: Any = new_match(rules, 4, seed=ROBBERS_SEED)
    hand = list(match.game.hands[0])
    assert hand.count(Card.parse("JK")) >= 2 and Card.parse("6S") in hand

    page = new_page(browser)
    page.goto(server.url)
    page.wait_for_selector("#create-btn")
    page.fill("#create-name", "Ann")
    page.select_option("#opt-pause", "0.2")
    page.select_option("#opt-time", "180")
    server.next_seed(ROBBERS_SEED)
    page.click("#create-btn")
    wait_my_turn(page)
    # The turn timer counts down from the server's deadline.
    page.wait_for_function("/⏱ [0-3]:\\d\\d/.test(document.querySelector('#turn-timer').innerText)")
    shot(page, "07-robbers-start")

    # Turn 1: open with [JK=6S 6H 6D] and [10S 10H JK=10D], keeping the 6S for later.
    # The first card goes by keyboard: select it, then choose the new-meld target.
    card(page, "6H").focus()
    page.keyboard.press("Enter")
    page.focus("#new-meld")
    page.keyboard.press("Enter")
    page.wait_for_selector(".table-melds .meld")
    first = page.locator(".table-melds .meld").first
    drag(page, card(page, "6D"), first)
    drag(page, card(page, "JK"), first)
    choice = first.locator("select.joker-choice")
    choice.wait_for()
    options = choice.locator("option").all_inner_texts()
    six_spades = next(o for o in options if "6♠" in o)
    shot(page, "08-robbers-joker-choice")
    choice.select_option(label=six_spades)
    build_meld(page, ["10S", "10H", "JK"])
    second = page.locator(".table-melds .meld").nth(1)
    second.locator("select.joker-choice").wait_for()
    ten = next(o for o in second.locator("option").all_inner_texts() if "10♦" in o)
    second.locator("select.joker-choice").select_option(label=ten)
    page.wait_for_selector("#opening-meter.ok")
    assert "48 of 40" in page.inner_text("#opening-meter")
    page.click("#done-btn")
    page.wait_for_function(
        "document.querySelector('#game-log').innerText.includes('opened with 48')"
    )

    # Turn 2: drop the 6S on the joker that stands for it; the joker comes to the hand.
    wait_my_turn(page)
    joker = page.locator('.table-melds .card.joker[aria-label="Joker=6♠"]')
    drag(page, card(page, "6S"), joker)
    page.wait_for_selector("#hand .card.joker.retrieved")
    shot(page, "09-robbers-joker-swapped")
    page.click("#done-btn")
    page.wait_for_function(
        "document.querySelector('#game-log').innerText.includes('and took a joker')"
    )

    # Turn 3: the hint (by its key), or a draw when there is nothing to place.
    wait_my_turn(page)
    page.keyboard.press("h")
    page.wait_for_selector("#hint-panel")
    if page.locator("#apply-hint").count():
        page.click("#apply-hint")
        page.click("#done-btn")
    else:
        page.click("#draw-btn")
    wait_my_turn(page)
    shot(page, "10-robbers-later-turn")
    assert not page.js_errors


# -- one person and a bot, Indian Rummy -----------------------------------------------------------


def _declaring_turn() -> int:
    """The person's turn (1-based) on which the deal lets them declare, playing as the page
    suggests (draw from the stock, throw what auto-arrange suggests)."""
    from openrummy.bots import make_bot

    rules = indian_rules("indian13")
    match: Any = new_match(rules, 2, seed=INDIAN_SEED)
    bots = [make_bot("simple", rules, 0) for _ in range(2)]
    turn = 0
    while not match.is_over:
        seat = match.current
        action = bots[seat].choose(match.view(seat))
        if seat == 0 and str(action) == "draw":
            turn += 1
        match.apply(action)
        if str(action).startswith("declare"):
            assert seat == 0
            return turn
    raise AssertionError("the person never declares in this deal")


def _groups(page: Any) -> list[list[str]]:
    groups: list[list[str]] = page.locator(".groups .group").evaluate_all(
        "els => els.map(g => [...g.querySelectorAll('.card')].map(c => c.dataset.card))"
    )
    return groups


def test_indian_against_a_bot(server: Server, browser: Any) -> None:
    declare_on = _declaring_turn()
    page = new_page(browser)
    page.goto(server.url)
    page.select_option("#preset", "indian13")
    page.wait_for_selector("text=13 cards, wild jokers")
    page.fill("#create-name", "Ann")
    page.locator(".seat-kind").first.select_option("bot:medium")
    page.select_option("#opt-pause", "0.2")
    server.next_seed(INDIAN_SEED)
    page.click("#create-btn")
    for turn in range(1, declare_on + 1):
        wait_my_turn(page)
        if turn == 1:
            assert "Drop (20 points)" in page.inner_text("#drop-btn")
            shot(page, "11-indian-start")
        if turn == 2:
            # The grouping made on the last turn survives the bot's turn and a reload.
            groups = _groups(page)
            assert len(groups) > 1, groups
            page.reload()
            wait_my_turn(page)
            page.wait_for_function("document.querySelectorAll('.groups .card').length === 13")
            assert _groups(page) == groups
        page.click("#draw-btn")
        page.wait_for_function("document.querySelectorAll('.groups .card').length === 14")
        page.click("#auto-btn")
        page.wait_for_function(
            "/Deadwood: \\d+/.test(document.querySelector('#deadwood').innerText)"
        )
        if turn < declare_on:
            if turn == 1:
                shot(page, "12-indian-auto-arranged")
            page.click("#discard-btn")
            page.wait_for_function("document.querySelectorAll('.groups .card').length === 13")
    page.click("#declare-btn")
    page.wait_for_selector(".modal >> text=Your groups are a valid declaration")
    shot(page, "13-indian-declare-dialog")
    page.get_by_role("button", name="Declare", exact=True).click()
    page.wait_for_selector("#round-summary")
    shot(page, "14-indian-hand-summary")
    page.click("#next-round")
    page.wait_for_selector("#final #revealed-seed")
    assert "Winner: Ann" in page.inner_text("#final")
    assert page.inner_text("#revealed-seed") == INDIAN_SEED
    shot(page, "15-indian-final")
    href = page.get_attribute("#record-link", "href")
    record = httpx.get(server.url + href, timeout=10).json()
    assert record["seed"] == INDIAN_SEED

    # The replay viewer steps through the finished game, every hand shown.
    page.click("text=Step through the replay")
    page.wait_for_selector("#replay-step")
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#replay-step').innerText.startsWith('Step 1 ')")
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#replay-step').innerText.startsWith('Step 2 ')")
    assert page.locator(".all-hands .hand-row").count() == 2
    shot(page, "16-replay")
    assert not page.js_errors


# -- German, phone width ---------------------------------------------------------------------------


def test_german_page_at_phone_width(server: Server, browser: Any) -> None:
    page = new_page(browser, locale="de-DE", width=390, height=844)
    page.goto(server.url)
    page.wait_for_selector("text=Neuer Tisch")
    assert page.locator("#preset option:checked").inner_text() == "Räuber-Rommé"
    shot(page, "17-de-lobby-phone")
    page.fill("#create-name", "Jörg")
    server.next_seed(ROBBERS_SEED)
    page.click("#create-btn")
    wait_my_turn(page)
    text = page.inner_text(".table-page")
    assert "Du bist dran" in text and "Deine Hand" in text and "Karte ziehen" in text
    # German ranks: the hand's J/Q/K show as B/D/K.
    labels = page.locator("#hand .card").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert any(re.match(r"^[BD][♠♥♦♣]$", x) for x in labels), labels
    assert not any(re.match(r"^[JQ][♠♥♦♣]$", x) for x in labels), labels
    # One column: the side panels come below the board.
    below = page.evaluate(
        """() => {
        const board = document.querySelector('.main-col').getBoundingClientRect();
        const side = document.querySelector('.side-col').getBoundingClientRect();
        return side.top >= board.bottom - 1 && board.width > 300;
    }"""
    )
    assert below
    shot(page, "18-de-table-phone")

    # A play that will fail: the dialog gives the engine's reason in German, without rule codes.
    build_meld(page, ["6S", "6H", "6D"])
    page.click("#done-btn")  # Done checks exactly the table it sends
    page.wait_for_selector(".modal >> text=Dieser Zug wird misslingen")
    reason = page.inner_text(".modal li")
    assert reason == "die Figuren aus deiner Hand sind 18 Punkte wert; die Eröffnung braucht 40"
    shot(page, "18a-de-will-fail")
    page.get_by_role("button", name="Zurück", exact=True).click()
    page.click("#reset-btn")
    page.wait_for_function("document.querySelectorAll('.table-melds .meld').length === 0")
    page.click("[data-lang=en]")
    page.wait_for_selector("text=Your hand")
    assert not page.js_errors


# -- watching computer players ---------------------------------------------------------------------


def test_watch_a_game_of_bots_to_its_end(server: Server, browser: Any) -> None:
    created = httpx.post(
        f"{server.url}/api/tables",
        json={
            "preset": "robbers",
            "match_format": "SINGLE_ROUND",
            "seats": [{"kind": "bot", "bot": "simple"}] * 3,
            "bot_pause": 0.05,
            "title": "Bots <i>only</i>",
        },
        timeout=20,
    ).json()
    tid = created["table"]["id"]
    page = new_page(browser)
    page.goto(f"{server.url}/#/t/{tid}")
    page.wait_for_selector(".waiting")
    r = httpx.post(
        f"{server.url}/api/tables/{tid}/start",
        headers={"Authorization": f"Bearer {created['creator_token']}"},
        timeout=20,
    )
    assert r.status_code == 200, r.text
    page.wait_for_selector(".table-page")
    assert page.inner_text(".table-head .badge") == "watching"
    assert page.locator("#hand").count() == 0
    assert "Bots <i>only</i>" in page.inner_text(".table-head") and page.locator("i").count() == 0
    page.wait_for_selector("#round-summary", timeout=120_000)
    shot(page, "19-watch-round-summary")
    assert page.locator("#round-summary tbody tr").count() == 3
    page.click("#next-round")
    page.wait_for_selector("#final #revealed-seed")
    shot(page, "20-watch-final")
    assert not page.js_errors
