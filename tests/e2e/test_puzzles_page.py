"""The puzzles page: a Robbers' Rummy puzzle solved by drag and drop on the game table's
board, judged by the server, and the player's rating changing with it."""

from __future__ import annotations

from typing import Any

from helpers.e2e import Server, drag, new_page, shot

PUZZLE = "2f65d6da798d"
"""Robbers' Rummy: table ... [9S 9D 9C] ...; hand 9H 10C JC. Solved by laying 9H into the
set of nines and taking 9C out for the run 9C 10C JC."""


def meld_with(page: Any, card: str) -> Any:
    return page.locator(f'.table-melds .meld:has([data-card="{card}"])').first


def test_solve_a_puzzle_by_drag_and_drop(server: Server, browser: Any) -> None:
    page = new_page(browser)
    page.goto(f"{server.url}/#/")
    page.locator("#nav-puzzles").click()
    page.locator("#next-robbers").wait_for()
    start = int(page.locator("#player-rating").get_attribute("data-rating") or "0")
    assert start == 1500
    page.goto(f"{server.url}/#/puzzles/{PUZZLE}")
    page.locator("#hand [data-card='9H']").wait_for()
    shot(page, "puzzle-start")

    # Lay 9H into the nines, take 9C out into a new meld, and add 10C and JC to it.
    drag(page, page.locator("#hand [data-card='9H']"), meld_with(page, "9S"))
    page.locator(".table-melds .meld:has([data-card='9H']):has([data-card='9C'])").wait_for()
    drag(page, meld_with(page, "9S").locator("[data-card='9C']"), page.locator("#new-meld"))
    run = page.locator(".table-melds .meld:has([data-card='9C']):not(:has([data-card='9S']))")
    run.wait_for()
    drag(page, page.locator("#hand [data-card='10C']"), run)
    page.locator(".table-melds .meld:has([data-card='9C']):has([data-card='10C'])").wait_for()
    drag(page, page.locator("#hand [data-card='JC']"), run)
    page.locator("#hand .card").first.wait_for(state="detached")
    page.locator(".table-melds .meld.valid:has([data-card='JC'])").wait_for()
    page.locator("#done-btn").click()

    result = page.locator("#puzzle-result")
    result.wait_for()
    assert result.get_attribute("data-result") == "solved"
    after = int(page.locator("#player-rating").get_attribute("data-rating") or "0")
    assert after > start
    assert f"{start} → {after}" in page.locator("#rating-change").inner_text()
    shot(page, "puzzle-solved")
    assert not page.js_errors
