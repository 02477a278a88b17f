"""The Indian turn timer in the terminal table: the seat to move's countdown and time bank,
and a local game that plays the person's turn for them when both run out, as the server
does. Time is a fake clock the test moves on (no sleeping)."""

from __future__ import annotations

import asyncio

from helpers.tui import settle
from openrummy.events import EventCode
from openrummy.messages import render
from openrummy.tui import LocalSession, RummyApp, Setup
from openrummy.tui.app import IndianScreen
from openrummy.tui.session import TurnClock, turn_clock

SIZE = (80, 24)
TIMER = {"turn.time_limit_s": "20", "turn.time_bank_s": "15"}


def status(screen: IndianScreen) -> str:
    return screen.status_text(screen.view).plain


def test_the_countdown_and_the_bank_then_the_turn_is_played_for_the_person() -> None:
    now = [1000.0]

    async def main() -> tuple[list[str], list[EventCode]]:
        setup = Setup(game="indian13", options=TIMER, bots=("simple",), seed=3)
        session = LocalSession(setup, clock=lambda: now[0])
        app = RummyApp(session=session, bot_delay=0, tick=0.01)
        seen: list[str] = []
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            screen = app.table
            assert isinstance(screen, IndianScreen) and session.my_turn
            await pilot.pause(0.05)
            seen.append(status(screen))  # the whole turn and the whole bank
            now[0] += 12.5
            await pilot.pause(0.05)
            seen.append(status(screen))  # 7.5 s of the turn left: shows 8
            await pilot.press("d")  # a draw leaves the clock running
            now[0] += 10
            await pilot.pause(0.05)
            seen.append(status(screen))  # the turn's time is over: the bank runs
            now[0] += 12.4
            await pilot.pause(0.05)
            seen.append(status(screen))
            assert session.my_turn and not any(
                e.code is EventCode.TIMED_OUT for e in session.events
            )
            now[0] += 0.2  # 35 s in all: the turn is played for the person
            await pilot.pause(0.05)
            await settle(app, pilot)
            seen.append(status(screen))  # a new turn: a full turn, the bank spent
            assert session.my_turn
            timed_out = next(e for e in session.events if e.code is EventCode.TIMED_OUT)
            assert render(timed_out, "en", session.names) in session.log
        return seen, [e.code for e in session.events if e.seat == 0]

    seen, codes = asyncio.run(main())
    assert "⏱ 20 s left · bank 15 s" in seen[0]
    assert "⏱ 8 s left · bank 15 s" in seen[1]
    assert "⏱ 0 s left · bank 13 s" in seen[2]
    assert "⏱ 0 s left · bank 1 s" in seen[3]
    assert "⏱ 20 s left · bank 0 s" in seen[4]
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
