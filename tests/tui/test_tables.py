"""The terminal table played headless at 80x24, as the person against bots: a whole Rummikub
round, a Robbers' Rummy opening followed by a joker swap, an Indian hand from the deal to a
declaration. Keys only, as a person without a mouse plays; the engine's events say what
happened."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence

import pytest
from textual.pilot import Pilot

from helpers.tui import settle
from openrummy.cards import Card
from openrummy.events import EventCode
from openrummy.games.families import new_match
from openrummy.games.indian import IndianGame
from openrummy.games.manipulation import ManipulationGame
from openrummy.rules import IndianRules, ManipulationRules, find_preset
from openrummy.tui import LocalSession, RummyApp, Setup
from openrummy.tui.app import Choose, Confirm, IndianScreen, ManipScreen

SIZE = (80, 24)


def stacked(
    full: Sequence[Card], first: Sequence[str], second: Sequence[str], rest: Sequence[str]
) -> list[Card]:
    """A deck in draw order dealing ``first`` to seat 0 and ``second`` to seat 1 (the first
    dealer is seat 1), then ``rest`` in order, then every other card."""
    pool = Counter(full)
    wanted = [Card.parse(c) for c in (*first, *second, *rest)]
    for c in wanted:
        assert pool[c] > 0, c
        pool[c] -= 1
    deal = [Card.parse(c) for pair in zip(first, second, strict=True) for c in pair]
    return deal + [Card.parse(c) for c in rest] + sorted(pool.elements(), key=Card.sort_key)


async def cursor_to(pilot: Pilot[None], screen: ManipScreen, card: str) -> None:
    """Move the cursor along its row (right) to the first ``card`` that is not selected."""
    for _ in range(40):
        cid = screen.cursor_id()
        found = screen.turn.find(cid) if cid else None
        if found is not None and str(found[0].card) == card and cid not in screen.turn.selected:
            return
        await pilot.press("right")
    raise AssertionError(f"{card} is not in the cursor's row")


async def pick(pilot: Pilot[None], screen: ManipScreen, cards: Sequence[str]) -> None:
    for card in cards:
        await cursor_to(pilot, screen, card)
        await pilot.press("space")


async def rummikub_turns(
    until: EventCode | None, turns: int = 80, seed: int = 4
) -> list[tuple[EventCode, int | None]]:
    """Hint and Done when the solver finds a play, else Draw, until an ``until`` event (or
    for ``turns`` turns)."""
    app = RummyApp(Setup(game="rummikub", players=2, bots=("simple",), seed=seed), bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.table
        assert isinstance(screen, ManipScreen)
        for _ in range(turns):
            if any(e.code is until for e in app.session.events):
                break
            assert app.session.my_turn
            await pilot.press("h")
            await settle(app, pilot)
            if screen.hint is not None:
                await pilot.press("a")
                assert screen.turn.dirty and screen.hint is None
                await pilot.press("p")
            else:
                await pilot.press("d")
            await settle(app, pilot)
        return [(e.code, e.seat) for e in app.session.events]


def test_rummikub_first_turns_with_hint_done_and_draw() -> None:
    events = asyncio.run(rummikub_turns(None, turns=3))
    mine = [code for code, seat in events if seat == 0]
    assert mine == [EventCode.DREW, EventCode.DREW, EventCode.OPENED]


@pytest.mark.slow
def test_a_whole_rummikub_round_against_a_bot() -> None:
    codes = [code for code, _seat in asyncio.run(rummikub_turns(EventCode.ROUND_OVER))]
    assert EventCode.ROUND_OVER in codes
    assert EventCode.OPENED in codes
    assert EventCode.PLAY_FAILED not in codes


def robbers_deal() -> tuple[ManipulationRules, list[Card]]:
    """Robbers' Rummy where the person (first to move) can open with [5H JK 7H] [QS QH QD]
    and holds the 6H and a 9C 10C; the bot's cards make nothing with them."""
    rules = find_preset("robbers")
    assert isinstance(rules, ManipulationRules)
    mine = ["5H", "JK", "7H", "QS", "QH", "QD", "6H", "9C", "10C", "2C", "5D", "KS", "9S"]
    bots = ["2S", "5S", "8S", "JS", "3D", "6D", "9D", "KD", "4C", "7C", "AC", "3H", "10H"]
    return rules, stacked(ManipulationGame.full_deck(rules), mine, bots, ["KH", "2H"])


def test_a_robbers_opening_then_a_joker_swap() -> None:
    """Open with [5H JK 7H] [QS QH QD] (48 of 40), then swap the 6H for the joker and play
    the joker again in a new meld [9C 10C JK], choosing what it stands for (8C or JC)."""
    rules, deck = robbers_deal()

    async def main() -> tuple[list[str], list[EventCode], int]:
        match = new_match(rules, 2, decks=[deck], first_dealer=1)
        session = LocalSession(Setup(game="robbers", bots=("simple",)), match=match)
        app = RummyApp(session=session, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            screen = app.table
            assert isinstance(screen, ManipScreen) and app.session.my_turn
            await pick(pilot, screen, ["5H", "7H", "JK"])
            await pilot.press("n")
            await pick(pilot, screen, ["QS", "QH", "QD"])
            await pilot.press("n")
            assert [m.text() for m in screen.turn.melds] == ["[5H JK=6H 7H]", "[QS QH QD]"]
            await pilot.press("p")
            await settle(app, pilot)
            assert app.session.my_turn
            # The swap: select 6H in the hand, cursor up onto the table's first meld's joker.
            await pick(pilot, screen, ["6H"])
            await pilot.press("up", "up")
            await cursor_to(pilot, screen, "JK")
            await pilot.press("x")
            assert screen.turn.melds[0].text() == "[5H 6H 7H]"
            assert [str(it.card) for it in screen.turn.hand].count("JK") == 1
            await pilot.press("down", "down")
            await pick(pilot, screen, ["9C", "10C", "JK"])
            await pilot.press("n")
            # The joker could be 8C or JC: the check asks, the person chooses (the first).
            await pilot.press("up", "i")
            assert isinstance(app.screen, Choose)
            await pilot.press("enter")
            assert screen.turn.melds[2].text() == "[JK=8C 9C 10C]"
            await pilot.press("p")
            await settle(app, pilot)
            retrieved = sum(e.retrieved for e in app.session.events)
            return app.session.log, [e.code for e in app.session.events], retrieved

    log, codes, retrieved = asyncio.run(main())
    assert codes[0] is EventCode.OPENED and "opened with 48" in log[0]
    assert EventCode.PLAY_FAILED not in codes
    assert retrieved == 1, log


def where(text: str, needle: str, skip: int = 0) -> tuple[int, int]:
    """Column and line of the ``skip``-th ``needle`` in a widget's text."""
    for y, line in enumerate(text.split("\n")):
        x = line.find(needle)
        while x >= 0:
            if skip == 0:
                return x, y
            skip -= 1
            x = line.find(needle, x + 1)
    raise AssertionError(f"{needle!r} is not shown")


def test_a_robbers_opening_with_the_mouse_only() -> None:
    """Click cards, click ``[+ new meld]``, click Done: the same opening as by keys."""
    rules, deck = robbers_deal()

    async def main() -> list[str]:
        match = new_match(rules, 2, decks=[deck], first_dealer=1)
        session = LocalSession(Setup(game="robbers", bots=("simple",)), match=match)
        app = RummyApp(session=session, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            screen = app.table
            assert isinstance(screen, ManipScreen)
            for meld in (["5♥", "7♥", "JK"], ["Q♠", "Q♥", "Q♦"]):
                for label in meld:
                    x, y = where(screen.hand_text().plain, f" {label} ")
                    await pilot.click("#hand", offset=(2 + x, 1 + y))
                x, y = where(screen.table_text(None).plain, "[+ new meld]")
                await pilot.click("#table", offset=(1 + x, y))
            assert screen.turn.table_texts() == ("[5H JK=6H 7H]", "[QS QH QD]")
            await pilot.click("#b-done")
            await settle(app, pilot)
            return app.session.log

    log = asyncio.run(main())
    assert log[0] == "Player placed 6 cards and opened with 48"


def test_an_indian_hand_from_the_deal_to_the_declaration() -> None:
    """Draw the missing king, Auto-arrange finds the declaration (finish card QC at the
    cursor), the check says valid before the commit, and the hand is won."""
    rules = find_preset("indian13")
    assert isinstance(rules, IndianRules)
    mine = ["2H", "3H", "4H", "5S", "6S", "7S", "8S", "9C", "9D", "9H", "KS", "KH", "QC"]
    bots = ["2S", "5D", "8D", "JS", "3D", "6D", "9S", "AD", "4C", "7C", "AC", "3S", "10H"]
    # Indicator 10D (tens wild), the upcard 5C, then the king the hand waits for.
    deck = stacked(IndianGame.full_deck(rules), mine, bots, ["10D", "5C", "KD"])

    async def main() -> tuple[list[str], list[EventCode], str]:
        match = new_match(rules, 2, decks=[deck], first_dealer=1)
        session = LocalSession(Setup(game="indian13", bots=("simple",)), match=match)
        app = RummyApp(session=session, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            screen = app.table
            assert isinstance(screen, IndianScreen) and app.session.my_turn
            await pilot.press("d")
            await pilot.press("a")
            assert str(screen.message).startswith("Arranged: you can declare with Q♣")
            await pilot.press("k")
            assert isinstance(app.screen, Confirm)
            question = app.screen.message
            await pilot.press("y")
            await settle(app, pilot)
            log, codes = app.session.log, [e.code for e in app.session.events]
            # The match is over: the app offers a new game (first), the record, quitting.
            assert isinstance(app.screen, Choose)
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.table, IndianScreen)
            assert all(e.code is not EventCode.DECLARED for e in app.session.events)
            assert app.session.setup.seed == 2 and not app.session.over
            return log, codes, question

    log, codes, question = asyncio.run(main())
    assert "valid" in question and "invalid" not in question
    assert codes[:2] == [EventCode.DREW, EventCode.DECLARED]
    assert EventCode.ROUND_OVER in codes
    assert any("Player" in line and "won" in line for line in log)


def test_with_a_discard_pile_the_person_draws_then_discards() -> None:
    async def main() -> list[EventCode]:
        options = {"discard_pile.enabled": "true"}
        setup = Setup(game="robbers", options=options, bots=("simple",), seed=3)
        app = RummyApp(setup, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.press("d")
            await pilot.press("c")  # the hand card at the cursor
            await settle(app, pilot)
            return [e.code for e in app.session.events if e.seat == 0]

    assert asyncio.run(main())[:2] == [EventCode.DREW, EventCode.DISCARDED]
