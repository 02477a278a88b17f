"""Event-loop lag while a helper worker judges heavy tables back to back: process or thread.

The server's CPU-heavy helpers (``openrummy.server.workers``) run in a worker pool so that
the event loop, which carries every table's actions, stays free. Judging a table is pure
Python that holds the GIL, so a worker *thread* takes turns with the loop; a worker
*process* does not. This measures how late the loop wakes from a 2 ms sleep, quiet and
while one worker judges 40 melds with three open jokers each, again and again::

    .venv/bin/python bench/workers.py            # both kinds
    .venv/bin/python bench/workers.py thread
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

from openrummy.rules import find_preset
from openrummy.server.jobs import check_job
from openrummy.server.settings import Settings
from openrummy.server.workers import Workers

HEAVY = ["[5H 6H JK JK JK]"] * 40
"""The raw cost, without the deck limit the server applies first (about 0.4 s of CPU)."""


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


async def lags(seconds: float) -> list[float]:
    out = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t = time.perf_counter()
        await asyncio.sleep(0.002)
        out.append((time.perf_counter() - t - 0.002) * 1000)
    return out


async def measure(kind: str) -> str:
    settings = Settings(
        worker_kind=kind, workers=1, worker_burst=1e9, worker_queue=100, worker_per_client=100
    )
    workers = Workers(settings)
    rules = find_preset("robbers")
    args: dict[str, Any] = {
        "opened": True,
        "hand_only": None,
        "retrievals": [],
        "game": None,
        "seat": None,
    }
    await workers.run("x", check_job, rules, ["[5H 6H 7H]"], **args)  # start the worker
    stop = False

    async def attacker() -> int:
        n = 0
        while not stop:
            await workers.run("x", check_job, rules, HEAVY, **args)
            n += 1
        return n

    quiet = await lags(3)
    task = asyncio.create_task(attacker())
    busy = await lags(6)
    stop = True
    n = await task
    workers.close()
    return (
        f"{kind:>7}: quiet lag p50 {quantile(quiet, 0.5):.2f} ms p99 {quantile(quiet, 0.99):.2f}"
        f" ms | judging p50 {quantile(busy, 0.5):.2f} ms p99 {quantile(busy, 0.99):.2f} ms"
        f" max {max(busy):.1f} ms ({n} heavy checks)"
    )


def main(argv: list[str]) -> int:
    for kind in argv or ["thread", "process"]:
        print(asyncio.run(measure(kind)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
