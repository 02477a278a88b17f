"""The terminal table's screenshot in the docs (docs/img/rummy-play-rummikub.svg).

A Rummikub game (seed 4, against the simple bot) a few turns in, with a turn half built:
one meld valid, one still short of a card.

    .venv/bin/python scripts/tui_screenshot.py
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from openrummy.tui import RummyApp, Setup
from openrummy.tui.app import ManipScreen

OUT = Path(__file__).resolve().parent.parent / "docs" / "img" / "rummy-play-rummikub.svg"


async def main() -> None:
    app = RummyApp(Setup(game="rummikub", bots=("simple",), seed=4), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(5):
            while app.session.bot_to_move:
                await pilot.pause()
                await app.workers.wait_for_complete()
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            if isinstance(app.table, ManipScreen) and app.table.hint is not None:
                await pilot.press("a", "p")
            else:
                await pilot.press("d")
        while app.session.bot_to_move:
            await pilot.pause()
            await app.workers.wait_for_complete()
        screen = app.table
        assert isinstance(screen, ManipScreen)
        await pilot.press("right", "space", "right", "space", "n")
        await pilot.pause()
        OUT.parent.mkdir(parents=True, exist_ok=True)
        app.save_screenshot(str(OUT))
    print(f"written {OUT}")


if __name__ == "__main__":
    asyncio.run(main())
