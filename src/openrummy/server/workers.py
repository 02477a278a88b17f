"""A bounded worker pool for the CPU-heavy helpers, with a budget per client and in all.

Judging a proposed table, a hint from the table solver or an Indian hand arrangement can take
a second of CPU; run on the event loop, one such request would hold up every table's
messages. :class:`Workers` runs them in a few worker processes (or threads), and admits a
request only within two budgets:

* **in all**: at most ``worker_queue`` requests in progress (running or waiting for a
  worker);
* **per client** (an address): at most ``worker_per_client`` in progress, and a CPU budget
  that fills at ``worker_share`` seconds per second up to ``worker_burst`` seconds; each
  request's CPU time (measured in the worker, at least ``worker_min_charge``) is taken from
  it afterwards.

A request over budget is refused at once with ``busy`` (and how long to wait), never queued
without bound: an attacker costs the server at most its share of the workers, and the event
loop, which carries every table's actions, never runs their work.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import math
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NoReturn, TypeVar

from .errors import ErrorCode, ServiceError
from .jobs import warm
from .settings import Settings

__all__ = ["WORKER_NICE", "CpuBudget", "Workers", "busy_error"]

log = logging.getLogger("openrummy.server")

T = TypeVar("T")


def busy_error(retry_after: float, detail: str) -> ServiceError:
    """The ``busy`` refusal (HTTP 503), with the whole seconds to wait before trying again."""
    wait = max(1, math.ceil(retry_after))
    return ServiceError(
        ErrorCode.BUSY,
        f"{detail}: try again in {wait} s",
        503,
        why={"reason": "server.busy", "retry_after": wait},
    )


class CpuBudget:
    """Seconds of CPU a client may still use: ``rate`` per second saved up to ``burst``.

    A request is admitted while the budget is positive and pays its cost afterwards, so a
    costly request may leave it negative: the client then waits until it has saved up again.

    >>> t = [0.0]
    >>> b = CpuBudget(rate=0.5, burst=1.0, clock=lambda: t[0])
    >>> b.ready(), b.charge(3.0), b.ready(), b.wait()
    (True, None, False, 4.0)
    >>> t[0] = 4.5
    >>> b.ready()
    True
    """

    __slots__ = ("burst", "clock", "last", "left", "rate")

    def __init__(self, *, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.left = burst
        self.last = clock()

    def _fill(self) -> None:
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self.last) * self.rate)
        self.last = now

    def ready(self) -> bool:
        self._fill()
        return self.left > 0

    def charge(self, seconds: float) -> None:
        self._fill()
        self.left -= seconds

    def wait(self) -> float:
        """Seconds until the budget is positive again."""
        self._fill()
        if self.left > 0:
            return 0.0
        return (-self.left) / self.rate if self.rate > 0 else math.inf

    @property
    def full(self) -> bool:
        self._fill()
        return self.left >= self.burst


WORKER_NICE = Settings.worker_nice
"""The worker processes' default ``nice`` (setting ``worker_nice``): a low priority, so the
event loop (and every other table's actions) wins most of the CPU whenever both want it;
idle cores still go to the judging. Not 19: on a machine busy with other work that starves
the judging until the players' requests time out."""


def _worker_start(nice: int = WORKER_NICE) -> None:
    """A worker process yields the CPU to the server's event loop (a low priority, never
    a higher one than the server's), then imports what the jobs use."""
    with contextlib.suppress(OSError):
        os.nice(max(0, min(19, nice) - os.nice(0)))
    warm()


def _ready() -> None:
    """A job that does nothing: submitted at start-up so that each worker process starts."""


def _timed(fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[T, float]:
    """Run one job in a worker; its result and the CPU seconds it took there."""
    start = time.thread_time()
    result = fn(*args, **kwargs)
    return result, time.thread_time() - start


class Workers:
    """The pool and its budgets (one per server process)."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self.kind = settings.worker_kind
        if self.kind not in ("process", "thread"):
            raise ValueError(f"worker_kind = {self.kind!r}: use 'process' or 'thread'")
        self.in_progress = 0
        self.by_client: dict[str, int] = {}
        self.budgets: dict[str, CpuBudget] = {}
        self._pool: concurrent.futures.Executor | None = None

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            n = max(1, self.settings.workers)
            if self.kind == "process":
                # spawn: a worker must not inherit the server's event loop, threads and sockets.
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    n,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_start,
                    initargs=(self.settings.worker_nice,),
                )
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(n, "openrummy-worker")
        return self._pool

    def prestart(self) -> None:
        """Start the worker processes now, in the background (not awaited): each imports and
        loads the solver before the first request needs it."""
        if self.kind == "process" and self.settings.worker_prestart:
            pool = self._executor()
            for _ in range(max(1, self.settings.workers)):
                pool.submit(_ready)

    def budget(self, client: str) -> CpuBudget:
        b = self.budgets.get(client)
        if b is None:
            if len(self.budgets) >= 4096:
                # Forget the clients whose budget is full again (nothing to remember).
                for key in [k for k, v in self.budgets.items() if v.full]:
                    del self.budgets[key]
            b = self.budgets[client] = CpuBudget(
                rate=self.settings.worker_share, burst=self.settings.worker_burst, clock=self.clock
            )
        return b

    def admit(self, client: str) -> CpuBudget:
        """The client's budget if a request of it may start now; else the ``busy`` refusal."""
        s = self.settings
        if self.in_progress >= max(1, s.worker_queue):
            raise busy_error(1, "the server is judging too many requests at once")
        if not s.limited(client):
            return self.budget("")
        if self.by_client.get(client, 0) >= max(1, s.worker_per_client):
            raise busy_error(
                1, f"at most {s.worker_per_client} requests of yours are judged at once"
            )
        budget = self.budget(client)
        if not budget.ready():
            raise busy_error(budget.wait(), "you have used your share of the server's helpers")
        return budget

    async def run(self, client: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in a worker, within the budgets (else ``busy`` at once).

        The request counts as in progress until its job has ended in the worker, even when
        its client gave up waiting, and its CPU time is then charged to the client.
        """
        budget = self.admit(client)
        loop = asyncio.get_running_loop()
        try:
            job = self._executor().submit(_timed, fn, args, kwargs)
        except BrokenProcessPool:
            self._broken()
        self.in_progress += 1
        self.by_client[client] = self.by_client.get(client, 0) + 1

        def ended(f: concurrent.futures.Future[tuple[T, float]]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed at shutdown
                loop.call_soon_threadsafe(self._ended, client, budget, f)

        job.add_done_callback(ended)
        try:
            result, _cpu = await asyncio.wrap_future(job)
        except BrokenProcessPool:
            self._broken()
        return result

    async def background(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker outside the per-client budgets: for long work that has
        limits of its own (the game analyses of :mod:`.analysis_api`)."""
        try:
            job = self._executor().submit(fn, *args)
        except BrokenProcessPool:
            self._broken()
        try:
            return await asyncio.wrap_future(job)
        except BrokenProcessPool:
            self._broken()

    def _ended(
        self, client: str, budget: CpuBudget, job: concurrent.futures.Future[tuple[Any, float]]
    ) -> None:
        self.in_progress -= 1
        left = self.by_client.get(client, 1) - 1
        if left > 0:
            self.by_client[client] = left
        else:
            self.by_client.pop(client, None)
        if not job.cancelled() and job.exception() is None:
            budget.charge(max(job.result()[1], self.settings.worker_min_charge))

    def _broken(self) -> NoReturn:
        log.error("a helper worker process died; starting new ones")
        self._reset()
        raise ServiceError(ErrorCode.UNAVAILABLE, "the helper could not answer; try again", 503)

    def _reset(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._reset()

    async def aclose(self) -> None:
        """Stop the workers and wait for them (a job in progress is finished first)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
