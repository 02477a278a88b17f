"""The Indian turn timer in the terminal table: the seat to move's countdown and time bank,
and a local game that plays the person's turn for them when both run out, as the server
does. Time is a fake clock the test moves on (no sleeping)."""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot

from helpers.server import HANG_GUARD
from helpers.tui import settle
from openrummy.events import EventCode
from openrummy.messages import render
from openrummy.tui import LocalSession, RummyApp, Setup
from openrummy.tui.app import Board, IndianScreen
from openrummy.tui.session import TurnClock, turn_clock

SIZE = (80, 24)
TIMER = {"turn.time_limit_s": "20", "turn.time_bank_s": "15"}


def status(screen: IndianScreen) -> str:
    """The status lines as the screen shows them."""
    shown = screen.query_one("#status", Board)._shown
    return shown.plain if shown is not None else ""


async def shows(pilot: Pilot[None], screen: IndianScreen, text: str) -> None:
    """Let the app run until its status lines show ``text`` (the timer looks every 10 ms;
    the guard is only against hangs)."""
    try:
        async with asyncio.timeout(HANG_GUARD):
            while text not in status(screen):
                await pilot.pause(0.01)
    except TimeoutError:
        raise AssertionError(f"{text!r} never showed; the status: {status(screen)!r}") from None


def test_the_countdown_and_the_bank_then_the_turn_is_played_for_the_person() -> None:
    now = [1000.0]

    async def main() -> list[EventCode]:
        setup = Setup(game="indian13", options=TIMER, bots=("simple",), seed=3)
        session = LocalSession(setup, clock=lambda: now[0])
        app = RummyApp(session=session, bot_delay=0, tick=0.01)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            screen = app.table
            assert isinstance(screen, IndianScreen) and session.my_turn
            await shows(pilot, screen, "⏱ 20 s left · bank 15 s · ")  # all of both
            now[0] += 12.5
            await shows(pilot, screen, "⏱ 8 s left · bank 15 s")  # 7.5 s left shows 8
            await pilot.press("d")  # a draw leaves the clock running
            now[0] += 10
            await shows(pilot, screen, "⏱ 0 s left · bank 13 s")  # the bank runs
            now[0] += 12.4
            await shows(pilot, screen, "⏱ 0 s left · bank 1 s")
            assert session.my_turn
            assert all(e.code is not EventCode.TIMED_OUT for e in session.events)
            now[0] += 0.2  # 35 s in all: the turn is played for the person
            # The bot's turn, then the person's next one: the whole turn, the bank spent.
            await shows(pilot, screen, "⏱ 20 s left · bank 0 s")
            assert session.my_turn
            timed_out = next(e for e in session.events if e.code is EventCode.TIMED_OUT)
            assert render(timed_out, "en", session.names) in session.log
        return [e.code for e in session.events if e.seat == 0]

    codes = asyncio.run(main())
    # The draw was the person's; the timeout threw a card for them and passed the turn.
    assert codes[:2] == [EventCode.DREW, EventCode.TIMED_OUT]


def test_the_clock_splits_the_time_left_into_the_turn_and_the_bank() -> None:
    from openrummy.games.families import new_match
    from openrummy.rules import find_preset

    rules = find_preset("indian13", TIMER)
    now = [0.0]
    match = new_match(rules, 2, seed=1, clock=lambda: now[0])
    view = match.view(0)
    assert turn_clock(view, view.time_left) == TurnClock(view.current, 20.0, 15.0)
    assert turn_clock(view, 30.0) == TurnClock(view.current, 15.0, 15.0)
    assert turn_clock(view, 4.0) == TurnClock(view.current, 0.0, 4.0)
    assert turn_clock(view, -1.0) == TurnClock(view.current, 0.0, 0.0)
    assert turn_clock(view, None) is None
    plain = find_preset("indian13")
    assert turn_clock(new_match(plain, 2, seed=1).view(0), None) is None
