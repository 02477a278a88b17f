"""Keep the garbage collector's full collections short in a long-running server.

CPython's cycle collector walks every tracked object in a full (generation 2) collection and
holds the interpreter meanwhile. A server with 200 running games holds a few hundred thousand
long-lived objects (each game's record and state); a full collection then stopped every table
for 50-340 ms, several times a minute, and was the largest part of the action round trip's
p99 under load (measured with ``bench/server.py --tables 200``, see docs/performance.md).

Nearly all of those objects live as long as their game, and the garbage a server makes is
acyclic (freed at once by reference counting). So:

* after start-up, and after every full collection, the survivors are moved to the permanent
  generation (:func:`gc.freeze`): the next full collection walks only what is newer;
* every ``full_every`` seconds the permanent generation is released and one complete
  collection runs (:func:`gc.unfreeze` + :func:`gc.collect`), so cyclic garbage among frozen
  objects (a finished game's tables, connections and tasks) is still reclaimed; that one
  pause is as long as before, but rare.

Process-wide state: only ``rummy serve`` installs it (not apps built in tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from typing import Any

__all__ = ["HeapPolicy"]

log = logging.getLogger("openrummy.server")


class HeapPolicy:
    """Freeze the survivors of each full collection; release and sweep them periodically."""

    def __init__(self, full_every: float = 600.0) -> None:
        self.full_every = full_every
        self.sweeps = 0
        """Complete collections run by :meth:`sweep` (for tests and logs)."""
        self.freezes = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None

    def install(self) -> None:
        """Freeze what start-up built and hook into the collector (call in the running loop)."""
        self._loop = asyncio.get_running_loop()
        gc.collect()
        self._freeze()
        gc.callbacks.append(self._on_gc)
        if self.full_every > 0:
            self._task = self._loop.create_task(self._sweeps())

    async def uninstall(self) -> None:
        """Undo :meth:`install`: unhook, stop the sweeps, release the permanent generation."""
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        gc.unfreeze()
        self._loop = None

    def sweep(self) -> int:
        """One complete collection of everything, then freeze the survivors again."""
        gc.unfreeze()
        found = gc.collect()
        self._freeze()
        self.sweeps += 1
        return found

    def _freeze(self) -> None:
        gc.freeze()
        self.freezes += 1

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        # Runs inside the collector, on whichever thread allocated; freezing from here would
        # reshuffle the generations under the collection, so it is left to the loop.
        if phase == "stop" and info.get("generation") == 2 and self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closing
                self._loop.call_soon_threadsafe(self._freeze)

    async def _sweeps(self) -> None:
        while True:
            await asyncio.sleep(self.full_every)
            found = self.sweep()
            log.debug("full garbage collection: %d unreachable objects", found)
