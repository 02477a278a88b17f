"""The server's garbage-collector policy (``server/heap.py``): frozen survivors, periodic sweeps."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from openrummy.server.app import create_app
from openrummy.server.heap import HeapPolicy
from openrummy.server.settings import Settings


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture(autouse=True)
def _restore_gc() -> Iterator[None]:
    callbacks = list(gc.callbacks)
    yield
    gc.callbacks[:] = callbacks
    gc.unfreeze()


def test_survivors_are_frozen_and_a_sweep_reclaims_frozen_cycles() -> None:
    async def scenario() -> None:
        policy = HeapPolicy(full_every=0)
        policy.install()
        assert gc.get_freeze_count() > 0
        assert policy.freezes == 1

        # A full collection freezes its survivors (on the loop, right after).
        keep = [Node() for _ in range(100)]
        gc.collect()
        await asyncio.sleep(0)
        assert policy.freezes == 2
        assert gc.get_freeze_count() >= len(keep)

        # Cyclic garbage among frozen objects survives ordinary collections...
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        gc.collect()
        await asyncio.sleep(0)  # a and b are frozen now
        del a, b
        gc.collect()
        assert gone() is not None
        # ...until the periodic sweep releases and collects everything.
        assert policy.sweep() >= 2
        assert gone() is None
        assert policy.sweeps == 1 and gc.get_freeze_count() > 0

        await policy.uninstall()
        assert gc.get_freeze_count() == 0
        assert policy._on_gc not in gc.callbacks

    asyncio.run(scenario())


def test_sweeps_run_on_their_own_schedule() -> None:
    async def scenario() -> None:
        policy = HeapPolicy(full_every=0.01)
        policy.install()
        await asyncio.sleep(0.2)
        assert policy.sweeps >= 1
        await policy.uninstall()

    asyncio.run(scenario())


def test_serve_installs_the_policy_for_the_apps_lifetime_only() -> None:
    """``rummy serve`` builds its app with ``manage_heap``; apps built inside another
    program (tests, embedding) leave that program's collector alone."""
    from fastapi import FastAPI

    async def lifespan(app: FastAPI, installed: bool) -> None:
        before = list(gc.callbacks)
        async with app.router.lifespan_context(app):
            assert (len(gc.callbacks) == len(before) + 1) is installed
            assert (gc.get_freeze_count() > 0) is installed
        assert gc.callbacks == before
        assert gc.get_freeze_count() == 0

    for manage_heap, every, installed in (
        (True, 600.0, True),
        (False, 600.0, False),
        (True, 0.0, False),
    ):
        settings = Settings(db="sqlite+aiosqlite:///:memory:", gc_full_every=every)
        app = create_app(settings, manage_heap=manage_heap)
        asyncio.run(lifespan(app, installed))
