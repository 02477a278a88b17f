"""Driving the terminal table headless (Textual's ``run_test`` and Pilot)."""

from __future__ import annotations

from textual.pilot import Pilot

from openrummy.tui import RummyApp


async def settle(app: RummyApp, pilot: Pilot[None], rounds: int = 400) -> None:
    """Wait until the bots have moved and it is the person's turn again (or the game ended)."""
    for _ in range(rounds):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.session.bot_to_move:
            return
    raise AssertionError("the bots did not finish their turns")
