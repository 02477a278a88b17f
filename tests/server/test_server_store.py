"""The store: migrations match the schema, and a sequence number is written only once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiosqlite.core
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from openrummy.server.store import ActionRow, SeatRow, SeqConflict, Store, TableRow, metadata

pytestmark = pytest.mark.anyio


def _table(tid: str) -> TableRow:
    return TableRow(
        id=tid,
        title="t",
        preset="robbers",
        family="manipulation",
        options={},
        players=2,
        bot_pause=0.0,
        time_limit=None,
        status="open",
        creator_hash="0" * 64,
        created_at=0.0,
        seats=(
            SeatRow(0, "human", None, None, None, False),
            SeatRow(1, "bot", "simple", "B", None, False),
        ),
        game=None,
    )


async def test_migrations_build_exactly_the_declared_schema(store: Store) -> None:
    async with store.engine.connect() as conn:
        diff = await conn.run_sync(
            lambda sync: compare_metadata(MigrationContext.configure(sync), metadata)
        )
    assert diff == []


async def test_a_sequence_number_is_accepted_once(store: Store) -> None:
    await store.create_table(_table("t1"))
    assert await store.start_game("t1", seed="s", commitment="c", started_at=0.0, bot_seats={})
    assert not await store.start_game("t1", seed="s", commitment="c", started_at=0.0, bot_seats={})

    def row(seq: int, action: str) -> ActionRow:
        return ActionRow(seq, 0, action, 1.0, True, "e", "seat")

    await store.append_action("t1", row(1, "draw"))
    results = await asyncio.gather(
        *(store.append_action("t1", row(2, f"try {i}")) for i in range(5)),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, SeqConflict) for r in results if r is not None)
    stored = await store.actions("t1")
    assert [a.seq for a in stored] == [1, 2]
    # Ending the game is part of the same transaction, and only once.
    await store.append_action("t1", row(3, "end"), result={"winners": [0]})
    with pytest.raises(SeqConflict):
        await store.append_action("t1", row(4, "late"), result={"winners": [1]})
    table = await store.get_table("t1")
    assert table is not None and table.status == "finished" and table.seq == 3
    assert table.game is not None and table.game.result == {"winners": [0]}
    assert [a.seq for a in await store.actions("t1")] == [1, 2, 3]


async def test_a_seat_is_taken_once(store: Store) -> None:
    await store.create_table(_table("t2"))
    results = await asyncio.gather(
        *(store.take_seat("t2", 0, f"p{i}", f"{i:064d}") for i in range(4))
    )
    assert results.count(True) == 1
    assert not await store.take_seat("t2", 1, "x", "1" * 64)  # a bot's seat


async def test_a_game_s_analysis_is_stored_once(store: Store) -> None:
    await store.create_table(_table("t9"))
    assert await store.start_game("t9", seed="s", commitment="c", started_at=0.0, bot_seats={})
    assert await store.get_analysis("t9") is None
    first = {"game": "robbers", "decisions": [{"index": 0, "grade": "blunder"}], "steps": {}}
    await asyncio.gather(
        store.put_analysis("t9", first, at=1.0),
        store.put_analysis("t9", {"game": "robbers", "decisions": []}, at=2.0),
    )
    got = await store.get_analysis("t9")
    assert got is not None and got["game"] == "robbers"
    await store.put_analysis("t9", {"other": True}, at=3.0)  # kept out: the first stays
    assert await store.get_analysis("t9") == got


async def test_sqlite_commits_a_batch_of_actions_in_one_hand_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite, actions of several tables that wait together are committed in one batch,
    by the log's own thread: the event loop hands the batch over once, never through the
    async driver's round trips (each of which waits for a turn of a busy event loop)."""
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite3'}")
    await store.migrate()
    try:
        tids = [f"t{k}" for k in range(8)]
        for tid in tids:
            await store.create_table(_table(tid))
            assert await store.start_game(
                tid, seed="s", commitment="c", started_at=0.0, bot_seats={}
            )
        assert store._log is not None
        batches: list[int] = []
        write = store._log.write

        def counted_write(batch: list[Any]) -> None:
            batches.append(len(batch))
            write(batch)

        monkeypatch.setattr(store._log, "write", counted_write)
        hops: list[object] = []
        execute: Any = aiosqlite.core.Connection._execute

        async def counted(self: object, fn: object, *args: object, **kwargs: object) -> object:
            hops.append(fn)
            return await execute(self, fn, *args, **kwargs)

        monkeypatch.setattr(aiosqlite.core.Connection, "_execute", counted)
        await asyncio.gather(
            *(
                store.append_action(tid, ActionRow(1, 0, "draw", 1.0, True, "e", "seat"))
                for tid in tids
            )
        )
        await store.append_action("t0", ActionRow(2, 0, "end", 2.0, True, "e", "seat"), result={})
        assert hops == []
        assert sum(batches) == len(tids) + 1 and len(batches) <= 3
        monkeypatch.undo()
        for tid in tids:
            assert [a.seq for a in await store.actions(tid)] == ([1, 2] if tid == "t0" else [1])
        table = await store.get_table("t0")
        assert table is not None and table.status == "finished"
    finally:
        await store.close()
