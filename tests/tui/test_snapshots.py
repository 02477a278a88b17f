"""Snapshots of the three tables at 80x24 from seeded deals (pytest-textual-snapshot): Rummikub,
Robbers' Rummy and Indian Rummy, the person to move after the bots' first turns, a card
selected. The pictures hold no clock and no timer; the SVGs are under ``__snapshots__``
(after a deliberate change of the tables: ``pytest tests/tui/test_snapshots.py
--snapshot-update``, then look at them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from helpers.tui import settle
from openrummy.tui import RummyApp, Setup

SnapCompare = Callable[..., bool]


def app_for(game: str, seed: int) -> tuple[RummyApp, Callable[[Pilot[Any]], Any]]:
    app = RummyApp(Setup(game=game, bots=("simple",), seed=seed), bot_delay=0, mono=False)

    async def ready(pilot: Pilot[Any]) -> None:
        await settle(app, pilot)
        assert app.session.my_turn
        await pilot.press("right", "space", "right")
        await pilot.pause()

    return app, ready


@pytest.mark.parametrize(
    ("game", "seed"), [("rummikub", 4), ("robbers", 2), ("indian13", 3)], ids=str
)
def test_table_snapshot(
    snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch, game: str, seed: int
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    app, ready = app_for(game, seed)
    assert snap_compare(app, terminal_size=(80, 24), run_before=ready)
