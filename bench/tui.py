"""Benchmark of the terminal table: how fast every key reacts, over whole turns of a game.

The app runs headless at 80x24 (Textual's ``run_test``). The person's seat plays Rummikub,
Robbers' Rummy and Indian Rummy turns by keys (cursor, select, new meld, undo, reset, hint,
done or draw; the drop's confirmation opened and answered no, draw, select, group, loosen,
auto-arrange, the help opened and closed, discard); the bots' moves are made between the
timed keys and are not measured. Two figures per key:

* **handler**: the CPU time of the key's action in the app (the model, the engine's checks,
  the new text of the table);
* **frame**: from posting the key to the screen being drawn and idle again (Pilot's
  ``press``), which adds Textual's dispatch, layout and rendering of the frame, as wall
  time and as the CPU time of the app's thread (the figure to trust on a loaded machine: the
  wall time also holds Pilot's idle waits and other processes' turns; the thread's time
  leaves out the bots' and the hint's solver threads).

The hint's solver runs off the main thread and is not part of ``h``'s figures (it is the
table solver's time, see bench/solver.py).

    .venv/bin/python bench/tui.py               # 12 turns of each game
    .venv/bin/python bench/tui.py --turns 4     # quicker
    .venv/bin/python bench/tui.py --games indian

It also lists the full garbage collections that ran inside a key's frame (the app leaves
what it loaded at start out of them: ``settle_heap``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

from textual import events
from textual._compositor import CompositorUpdate
from textual._time import get_time
from textual.pilot import Pilot

from openrummy.solve._fast import warm
from openrummy.tui import RummyApp, Setup
from openrummy.tui.app import GameScreen, ManipScreen, collect_if_due

Samples = dict[str, list[float]]


def instrument(screen: GameScreen, handler: Samples) -> None:
    """Time every ``action_*`` of the table as its key runs it."""
    for name in dir(type(screen)):
        if not name.startswith("action_"):
            continue
        method = getattr(screen, name)

        def timed(*args: Any, _m: Callable[..., Any] = method, _n: str = name) -> Any:
            start = time.thread_time()
            try:
                return _m(*args)
            finally:
                handler[_n.removeprefix("action_")].append(time.thread_time() - start)

        setattr(screen, name, timed)


class KeyToFrame:
    """Wall time from a key event's arrival in the app to the end of the screen update it
    caused (the first one after it), per key; and the app thread's CPU time over the same
    span (``cpu``: what the key costs whatever else the machine runs)."""

    def __init__(self, app: RummyApp, samples: Samples, cpu: Samples) -> None:
        self.app, self.samples, self.cpu = app, samples, cpu
        self.key: events.Key | None = None
        self.cpu_start = 0.0
        display = app._display
        on_event = app.on_event

        def timed_display(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            if renderable is None:
                return
            if isinstance(renderable, CompositorUpdate):
                # What a terminal driver does with the update before writing it.
                renderable.render_segments(app.console)
            key = self.key
            if key is not None:
                self.key = None
                self.samples[key.key].append(get_time() - key.time)
                self.cpu[key.key].append(time.thread_time() - self.cpu_start)

        async def timed_event(event: events.Event) -> None:
            if isinstance(event, events.Key):
                self.key = event
                self.cpu_start = time.thread_time()
            await on_event(event)

        setattr(app, "_display", timed_display)  # noqa: B010
        setattr(app, "on_event", timed_event)  # noqa: B010


async def bots_move(app: RummyApp, pilot: Pilot[None]) -> None:
    """The bots' turns, outside the clocks (with what the app does at a bot's turn besides
    the bot's choice: a full garbage collection when one is due)."""
    screen = app.table
    if app.session.bot_to_move:
        collect_if_due()
    while app.session.bot_to_move:
        app.session.step_bot()
    screen.load_view()
    screen.refresh_all()
    await pilot.pause()


FRAME_CPU: Samples = defaultdict(list)
SEEN_CPU: Samples = defaultdict(list)


FULL_GC: list[float] = []
"""The CPU seconds of each full garbage collection that ran while a key was timed."""
_in_key = False
_gc_start = 0.0


def _watch_gc(phase: str, info: dict[str, Any]) -> None:
    global _gc_start
    if info["generation"] != 2 or not _in_key:
        return
    if phase == "start":
        _gc_start = time.thread_time()
    else:
        FULL_GC.append(time.thread_time() - _gc_start)


async def key(pilot: Pilot[None], frame: Samples, name: str) -> None:
    global _in_key
    start, cpu = time.perf_counter(), time.thread_time()
    _in_key = True
    try:
        await pilot.press(name)
    finally:
        _in_key = False
    frame[name].append(time.perf_counter() - start)
    FRAME_CPU[name].append(time.thread_time() - cpu)


async def manipulation(
    game: str, seed: int, turns: int, handler: Samples, frame: Samples, seen: Samples
) -> None:
    app = RummyApp(Setup(game=game, bots=("simple",), seed=seed), bot_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        instrument(app.table, handler)
        KeyToFrame(app, seen, SEEN_CPU)
        for _ in range(turns):
            await bots_move(app, pilot)
            if app.session.over:
                break
            for name in ("right", "right", "space", "right", "space", "n", "u", "up", "r"):
                await key(pilot, frame, name)
            await key(pilot, frame, "h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            if isinstance(app.table, ManipScreen) and app.table.hint is not None:
                await key(pilot, frame, "a")
                await key(pilot, frame, "p")
            else:
                await key(pilot, frame, "d")


async def indian(turns: int, handler: Samples, frame: Samples, seen: Samples) -> None:
    app = RummyApp(Setup(game="indian13", bots=("simple",), seed=3), bot_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        instrument(app.table, handler)
        KeyToFrame(app, seen, SEEN_CPU)
        for _ in range(turns):
            await bots_move(app, pilot)
            if app.session.over:
                break
            keys = ("f", "n", "d", "space", "right", "space", "g", "l", "a", "question_mark")
            for name in (*keys, "escape", "c"):
                await key(pilot, frame, name)


def table(title: str, samples: Samples) -> None:
    print(f"\n{title}")
    print(f"{'key':<12}{'n':>5}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for name, values in sorted(samples.items()):
        values = sorted(values)
        p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
        print(
            f"{name:<12}{len(values):>5}{statistics.median(values) * 1e3:>9.1f}"
            f"{p99 * 1e3:>9.1f}{values[-1] * 1e3:>9.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=12, help="turns per game")
    parser.add_argument(
        "--games",
        nargs="+",
        choices=("rummikub", "robbers", "indian"),
        default=["rummikub", "robbers", "indian"],
        help="which tables to time",
    )
    args = parser.parse_args()
    warm()
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    gc.callbacks.append(_watch_gc)
    games: dict[
        str, tuple[str, Callable[[int, Samples, Samples, Samples], Coroutine[Any, Any, None]]]
    ] = {
        "rummikub": ("Rummikub", partial(manipulation, "rummikub", 4)),
        "robbers": ("Robbers' Rummy", partial(manipulation, "robbers", 2)),
        "indian": ("Indian Rummy", indian),
    }
    for which in args.games:
        name, game = games[which]
        handler: Samples = defaultdict(list)
        frame: Samples = defaultdict(list)
        seen: Samples = defaultdict(list)
        cpu = time.process_time()
        FULL_GC.clear()
        asyncio.run(game(args.turns, handler, frame, seen))
        table(f"{name}: key to frame, wall (key event in the app to its screen update)", seen)
        table(f"{name}: key to frame, CPU of the app's thread", SEEN_CPU)
        table(f"{name}: handler, CPU (the key's action in the app)", handler)
        table(f"{name}: Pilot.press, wall (key posted until the app is idle)", frame)
        table(f"{name}: Pilot.press, CPU of the app's thread", FRAME_CPU)
        FRAME_CPU.clear()
        SEEN_CPU.clear()
        everything = [v for vs in frame.values() for v in vs]
        print(f"{len(everything)} keys, {time.process_time() - cpu:.1f} s CPU for the run")
        spent = ", ".join(f"{c * 1e3:.0f} ms" for c in FULL_GC) or "none"
        print(f"full garbage collections inside a key's frame: {spent}")


if __name__ == "__main__":
    main()
