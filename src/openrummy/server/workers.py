"""A bounded worker pool for the CPU-heavy helpers, with a budget per client and in all.

Judging a proposed table, a hint from the table solver or an Indian hand arrangement can take
a second of CPU; run on the event loop, one such request would hold up every table's
messages. :class:`Workers` runs them in a few worker processes (or threads), and admits a
request only within two budgets:

* **in all**: at most ``worker_queue`` requests in progress (running or waiting for a
  worker);
* **per client** (an address): at most ``worker_per_client`` in progress, and two CPU
  budgets, one for table checks (``check_share`` seconds per second up to ``check_burst``)
  and one for the other helpers (``worker_share`` up to ``worker_burst``); each request's
  CPU time (measured in the worker, at least ``check_min_charge`` or ``worker_min_charge``)
  is taken from its budget afterwards. A check of a table in play costs well under a
  millisecond and is charged the least; the costliest table a deck allows costs ten times
  as much, and the budget lets an address have ten times fewer of them.

A request over budget is refused at once with ``busy`` (and how long to wait), never queued
without bound: an attacker costs the server at most its share of the workers, and the event
loop, which carries every table's actions, never runs their work.

The processes are driven from the event loop itself (:class:`_LoopPool`): each worker has
one pipe, the loop writes a job into it and reads the answer when the pipe is readable. A
``concurrent.futures.ProcessPoolExecutor`` would hand every job and every answer to two
threads of its own (a manager and a queue feeder), and each hand-over takes the interpreter
lock from the event loop: about 0.4 ms of those threads' CPU and a stall of the loop per
request, which every other table's actions wait behind.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import math
import multiprocessing
import os
import pickle
import struct
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any, NoReturn, TypeVar

from .errors import ErrorCode, ServiceError
from .jobs import warm
from .settings import Settings

__all__ = ["CHECK", "HELPER", "WORKER_NICE", "CpuBudget", "Workers", "busy_error"]

log = logging.getLogger("openrummy.server")

T = TypeVar("T")


CHECK = "check"
"""The budget of table checks (``check_share``, ``check_burst``, ``check_min_charge``)."""
HELPER = "helper"
"""The budget of the other helpers (``worker_share``, ``worker_burst``, ``worker_min_charge``)."""


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


def _serve(conn: Connection, nice: int) -> None:
    """A worker process of :class:`_LoopPool`: one job at a time from ``conn``, each
    answered with ``(ok, result or exception, CPU seconds)``, until ``None`` or the pipe
    closes."""
    _worker_start(nice)
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return
        job = pickle.loads(data)
        if job is None:
            return
        fn, args, kwargs = job
        start = time.thread_time()
        try:
            answer: tuple[bool, Any, float] = (True, fn(*args, **kwargs), 0.0)
        except Exception as e:  # the caller gets it, as from an executor
            answer = (False, e, 0.0)
        answer = (answer[0], answer[1], time.thread_time() - start)
        try:
            out = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # an answer that cannot be pickled
            out = pickle.dumps((False, RuntimeError(f"{type(e).__name__}: {e}"), answer[2]))
        try:
            conn.send_bytes(out)
        except OSError:
            return


INLINE_BYTES = 1 << 16
"""Jobs up to this size are written to a worker's pipe by the event loop itself (the pipe
holds them at once); larger ones from a thread."""


def _framed(buf: bytearray) -> bytes | None:
    """The message at the start of ``buf`` once it has arrived whole (it is then taken from
    ``buf``), in the framing of :meth:`multiprocessing.connection.Connection.send_bytes`: a
    4-byte big-endian length, or -1 and an 8-byte length."""
    if len(buf) < 4:
        return None
    (size,) = struct.unpack("!i", buf[:4])
    head = 4
    if size == -1:
        if len(buf) < 12:
            return None
        (size,) = struct.unpack("!Q", buf[4:12])
        head = 12
    if len(buf) < head + size:
        return None
    whole = bytes(buf[head : head + size])
    del buf[: head + size]
    return whole


Done = Callable[[float | None], None]
"""Told when a job has ended: its CPU seconds in the worker (None: it failed or never ran)."""


class _LoopPool:
    """Worker processes driven by the event loop, without threads: each worker has a pipe;
    the loop sends a job to an idle worker (the others wait in order, on the loop's side)
    and reads the answer when the worker's pipe becomes readable."""

    def __init__(self, n: int, nice: int) -> None:
        ctx = multiprocessing.get_context("spawn")  # no inherited loop, threads or sockets
        self.loop = asyncio.get_running_loop()
        self.procs: list[Any] = []
        self.conns: list[Connection] = []
        self.idle: deque[int] = deque()
        self.waiting: deque[tuple[bytes, asyncio.Future[Any], Done | None]] = deque()
        self.running: dict[int, tuple[asyncio.Future[Any], Done | None]] = {}
        self.inbox: list[bytearray] = []
        self.broken = False
        for k in range(n):
            mine, theirs = ctx.Pipe(duplex=True)
            proc = ctx.Process(target=_serve, args=(theirs, nice), daemon=True)
            proc.start()
            theirs.close()
            self.procs.append(proc)
            self.conns.append(mine)
            self.idle.append(k)
            self.inbox.append(bytearray())
            self.loop.add_reader(mine.fileno(), self._answered, k)

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs if p.pid is not None]

    def submit(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        done: Done | None = None,
    ) -> asyncio.Future[Any]:
        """``fn(*args, **kwargs)`` in a worker; ``done`` is told when it has ended (even
        if the future was cancelled meanwhile: the job runs to its end)."""
        if self.broken:
            raise BrokenProcessPool("a helper worker process died")
        job = pickle.dumps((fn, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
        future: asyncio.Future[Any] = self.loop.create_future()
        self.waiting.append((job, future, done))
        self._dispatch()
        return future

    def _dispatch(self) -> None:
        while self.idle and self.waiting:
            job, future, done = self.waiting.popleft()
            if future.cancelled():  # given up before it started: nothing ran
                if done is not None:
                    done(None)
                continue
            k = self.idle.popleft()
            self.running[k] = (future, done)
            if len(job) > INLINE_BYTES:
                # Larger than the pipe holds at once: written from a thread, so that the
                # loop never waits for the (low-priority) worker to read it.
                sent = self.loop.run_in_executor(None, self.conns[k].send_bytes, job)
                sent.add_done_callback(self._sent)
                continue
            try:
                self.conns[k].send_bytes(job)
            except OSError:
                self._break()
                return

    def _sent(self, sent: asyncio.Future[None]) -> None:
        if not sent.cancelled() and sent.exception() is not None:
            self._break()

    def _answered(self, k: int) -> None:
        """Worker ``k``'s pipe is readable: read what is there (never waiting for the
        rest of a long answer), and once the answer is whole, hand it over."""
        try:
            chunk = os.read(self.conns[k].fileno(), 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            self._break()
            return
        if not chunk:  # the worker died
            self._break()
            return
        buf = self.inbox[k]
        buf += chunk
        whole = _framed(buf)
        if whole is None:
            return
        try:
            ok, value, cpu = pickle.loads(whole)
        except Exception:
            self._break()
            return
        future, done = self.running.pop(k)
        self.idle.append(k)
        if done is not None:
            done(cpu if ok else None)
        if not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._dispatch()

    def _break(self) -> None:
        """A worker died: every job in progress or waiting fails, and the pool stops."""
        if self.broken:
            return
        self.broken = True
        jobs = [*self.running.values(), *((f, d) for _, f, d in self.waiting)]
        self.running.clear()
        self.waiting.clear()
        self._stop_reading()
        for future, done in jobs:
            if done is not None:
                done(None)
            if not future.done():
                future.set_exception(BrokenProcessPool("a helper worker process died"))
        self.terminate()

    def abandon(self) -> None:
        """At shutdown: stop reading the workers; the jobs waiting never run, and nobody
        waits any longer for those in progress."""
        self._stop_reading()
        waiting = [(f, d) for _, f, d in self.waiting]
        self.waiting.clear()
        for future, done in [*waiting, *self.running.values()]:
            if done is not None:
                done(None)
            future.cancel()

    def _stop_reading(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(Exception):
                self.loop.remove_reader(conn.fileno())

    def terminate(self) -> None:
        self._stop_reading()
        for proc in self.procs:
            with contextlib.suppress(Exception):
                proc.terminate()
        for conn in self.conns:
            conn.close()

    def shutdown(self) -> None:
        """Ask each worker to stop after its job, and wait for it (blocking: call in a
        thread, after :meth:`abandon` on the loop); the answer of a job in progress is read
        and dropped, so that a worker never waits to write it."""
        for conn in self.conns:
            with contextlib.suppress(OSError):
                conn.send_bytes(pickle.dumps(None))
        deadline = time.monotonic() + 30
        for conn, proc in zip(self.conns, self.procs, strict=True):
            with contextlib.suppress(OSError, ValueError):
                while proc.is_alive() and time.monotonic() < deadline:
                    if conn.poll(0.05) and not os.read(conn.fileno(), 1 << 16):
                        break
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.terminate()
        for conn in self.conns:
            conn.close()


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
        self.check_budgets: dict[str, CpuBudget] = {}
        self._pool: _LoopPool | None = None
        self._threads: concurrent.futures.ThreadPoolExecutor | None = None

    def _processes(self) -> _LoopPool:
        if self._pool is None:
            self._pool = _LoopPool(max(1, self.settings.workers), self.settings.worker_nice)
        return self._pool

    def _submit(
        self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], done: Done
    ) -> asyncio.Future[Any]:
        """The job in a worker process (or thread); ``done`` gets its CPU seconds there
        once it has ended (None if it failed or never ran)."""
        if self.kind == "process":
            return self._processes().submit(fn, args, kwargs, done)
        if self._threads is None:
            self._threads = concurrent.futures.ThreadPoolExecutor(
                max(1, self.settings.workers), "openrummy-worker"
            )
        job = self._threads.submit(_timed, fn, args, kwargs)
        loop = asyncio.get_running_loop()

        def ended(f: concurrent.futures.Future[tuple[Any, float]]) -> None:
            cpu = None if f.cancelled() or f.exception() is not None else f.result()[1]
            with contextlib.suppress(RuntimeError):  # the loop closed at shutdown
                loop.call_soon_threadsafe(done, cpu)

        job.add_done_callback(ended)
        future: asyncio.Future[Any] = loop.create_future()

        def result(f: concurrent.futures.Future[tuple[Any, float]]) -> None:
            if future.done():
                return
            if f.cancelled():
                future.cancel()
            elif (e := f.exception()) is not None:
                future.set_exception(e)
            else:
                future.set_result(f.result()[0])

        def settle(f: concurrent.futures.Future[tuple[Any, float]]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed at shutdown
                loop.call_soon_threadsafe(result, f)

        job.add_done_callback(settle)
        future.add_done_callback(lambda f: job.cancel() if f.cancelled() else None)
        return future

    def pids(self) -> list[int]:
        """The worker processes' ids (none before they start, or with threads)."""
        return [] if self._pool is None else self._pool.pids()

    def prestart(self) -> None:
        """Start the worker processes now (not awaited; call it on the event loop): each
        imports and loads the solver before the first request needs it."""
        if self.kind == "process" and self.settings.worker_prestart:
            pool = self._processes()
            for _ in range(max(1, self.settings.workers)):
                pool.submit(_ready, (), {})

    def budget(self, client: str, kind: str = HELPER) -> CpuBudget:
        """The client's budget of ``kind``: table checks (:data:`CHECK`), or the other
        helpers (:data:`HELPER`: hints, Indian hands, puzzle answers)."""
        s = self.settings
        table = self.check_budgets if kind == CHECK else self.budgets
        b = table.get(client)
        if b is None:
            if len(table) >= 4096:
                # Forget the clients whose budget is full again (nothing to remember).
                for key in [k for k, v in table.items() if v.full]:
                    del table[key]
            rate, burst = (
                (s.check_share, s.check_burst)
                if kind == CHECK
                else (s.worker_share, s.worker_burst)
            )
            b = table[client] = CpuBudget(rate=rate, burst=burst, clock=self.clock)
        return b

    def admit(self, client: str, kind: str = HELPER) -> CpuBudget:
        """The client's budget of ``kind`` if a request of it may start now; else the
        ``busy`` refusal."""
        s = self.settings
        if self.in_progress >= max(1, s.worker_queue):
            raise busy_error(1, "the server is judging too many requests at once")
        if not s.limited(client):
            return self.budget("", kind)
        if self.by_client.get(client, 0) >= max(1, s.worker_per_client):
            raise busy_error(
                1, f"at most {s.worker_per_client} requests of yours are judged at once"
            )
        budget = self.budget(client, kind)
        if not budget.ready():
            raise busy_error(budget.wait(), "you have used your share of the server's helpers")
        return budget

    async def run(self, client: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in a worker, within the budgets (else ``busy`` at once).

        The request counts as in progress until its job has ended in the worker, even when
        its client gave up waiting, and its CPU time is then charged to the client.
        """
        return await self._run(client, HELPER, fn, args, kwargs)

    async def run_check(self, client: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """:meth:`run` for a table check, on the client's budget of checks."""
        return await self._run(client, CHECK, fn, args, kwargs)

    async def _run(
        self,
        client: str,
        kind: str,
        fn: Callable[..., T],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> T:
        budget = self.admit(client, kind)
        s = self.settings
        least = s.check_min_charge if kind == CHECK else s.worker_min_charge
        try:
            job = self._submit(
                fn, args, kwargs, lambda cpu: self._ended(client, budget, cpu, least)
            )
        except BrokenProcessPool:
            self._broken()
        self.in_progress += 1
        self.by_client[client] = self.by_client.get(client, 0) + 1
        try:
            result: T = await job
        except BrokenProcessPool:
            self._broken()
        return result

    async def background(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker outside the per-client budgets: for long work that has
        limits of its own (the game analyses of :mod:`.analysis_api`)."""
        try:
            job = self._submit(fn, args, {}, lambda cpu: None)
        except BrokenProcessPool:
            self._broken()
        try:
            result: T = await job
        except BrokenProcessPool:
            self._broken()
        return result

    def _ended(self, client: str, budget: CpuBudget, cpu: float | None, least: float) -> None:
        self.in_progress -= 1
        left = self.by_client.get(client, 1) - 1
        if left > 0:
            self.by_client[client] = left
        else:
            self.by_client.pop(client, None)
        if cpu is not None:
            budget.charge(max(cpu, least))

    def _broken(self) -> NoReturn:
        log.error("a helper worker process died; starting new ones")
        self._reset()
        raise ServiceError(ErrorCode.UNAVAILABLE, "the helper could not answer; try again", 503)

    def _reset(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()
        threads, self._threads = self._threads, None
        if threads is not None:
            threads.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._reset()

    async def aclose(self) -> None:
        """Stop the workers and wait for them (a job in progress is finished first)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.abandon()
            await asyncio.to_thread(pool.shutdown)
        threads, self._threads = self._threads, None
        if threads is not None:
            await asyncio.to_thread(threads.shutdown, True, cancel_futures=True)
