"""Durable storage: tables, seats, games and each game's append-only action log.

One code path for SQLite (aiosqlite, the embedded default) and PostgreSQL (asyncpg), with
SQLAlchemy 2 Core. The schema is created and upgraded by the Alembic migrations shipped in
``openrummy/server/migrations`` (:meth:`Store.migrate`, run on every start).

The log's primary key is ``(table_id, seq)``: an action is accepted only if its row with the
next sequence number is written, in the same transaction that records the game's end. Two
processes that both try to accept the same turn cannot both commit; the loser gets
:class:`SeqConflict` and catches up from the log.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

__all__ = [
    "ActionRow",
    "GameRow",
    "Glicko",
    "PuzzleAttemptRow",
    "PuzzlePlayerRow",
    "PuzzleRater",
    "PuzzleRatingRow",
    "SeatRow",
    "SeqConflict",
    "Store",
    "TableRow",
    "analysis_t",
    "metadata",
]

metadata = MetaData()

table_t = Table(
    "rummy_table",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("title", String(80), nullable=False),
    Column("preset", String(64), nullable=False),
    Column("family", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("players", Integer, nullable=False),
    Column("bot_pause", Float, nullable=False),
    Column("time_limit", Float, nullable=True),
    Column("status", String(16), nullable=False, index=True),
    Column("creator_hash", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
)

seat_t = Table(
    "rummy_seat",
    metadata,
    Column("table_id", String(32), ForeignKey("rummy_table.id"), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(8), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True, index=True),
    Column("away", Boolean, nullable=False),
)

game_t = Table(
    "rummy_game",
    metadata,
    Column("table_id", String(32), ForeignKey("rummy_table.id"), primary_key=True),
    Column("seed", String(128), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Column("status", String(16), nullable=False),
    Column("result", JSON, nullable=True),
)

action_t = Table(
    "rummy_action",
    metadata,
    Column("table_id", String(32), ForeignKey("rummy_game.table_id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("accepted", Boolean, nullable=False),
    Column("event", Text, nullable=False),
    Column("actor", String(16), nullable=False),
)

# -- puzzles: players, the puzzles' current ratings, one rated attempt per player and puzzle --
puzzle_player_t = Table(
    "rummy_puzzle_player",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(64), nullable=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
)

puzzle_rating_t = Table(
    "rummy_puzzle_rating",
    metadata,
    Column("puzzle_id", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)

puzzle_attempt_t = Table(
    "rummy_puzzle_attempt",
    metadata,
    Column("player_id", String(64), ForeignKey("rummy_puzzle_player.id"), primary_key=True),
    Column("puzzle_id", String(32), primary_key=True),
    Column("hinted", Boolean, nullable=False),
    Column("score", Float, nullable=True),
    Column("at", Float, nullable=False),
    Column("rating_before", Float, nullable=True),
    Column("rating_after", Float, nullable=True),
)
analysis_t = Table(
    "rummy_analysis",
    metadata,
    Column("table_id", String(32), ForeignKey("rummy_game.table_id"), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("result", JSON, nullable=False),
)
"""A finished game's analysis (``openrummy.server.analysis_api``), stored once computed."""

NOTIFY_CHANNEL = "openrummy"
_MIGRATION_LOCK = 0x6F72756D  # "orum": one migrator at a time on PostgreSQL


class SeqConflict(Exception):
    """Another writer already stored an action with this sequence number."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    idx: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None
    away: bool


@dataclass(frozen=True, slots=True)
class GameRow:
    seed: str
    commitment: str
    started_at: float
    finished_at: float | None
    status: str
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    title: str
    preset: str
    family: str
    options: dict[str, Any]
    players: int
    bot_pause: float
    time_limit: float | None
    status: str
    creator_hash: str
    created_at: float
    seats: tuple[SeatRow, ...]
    game: GameRow | None
    seq: int = 0


@dataclass(frozen=True, slots=True)
class ActionRow:
    seq: int
    seat: int
    action: str
    at: float
    accepted: bool
    event: str
    """The event as JSON (``Event.to_json()``); rows stored before events were data hold
    English words. Readers never parse it: they replay the actions for the events."""
    actor: str


@dataclass(frozen=True, slots=True)
class Glicko:
    """A Glicko-2 rating as stored: rating, deviation, volatility."""

    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True, slots=True)
class PuzzlePlayerRow:
    id: str
    """The hash of the player's token (the token itself is never stored)."""
    name: str | None
    glicko: Glicko
    attempts: int
    solved: int


@dataclass(frozen=True, slots=True)
class PuzzleRatingRow:
    puzzle_id: str
    glicko: Glicko
    attempts: int
    solved: int


@dataclass(frozen=True, slots=True)
class PuzzleAttemptRow:
    puzzle_id: str
    hinted: bool
    score: float | None
    """None while the attempt is not rated yet (a hint was asked, nothing submitted)."""
    at: float
    rating_before: float | None
    rating_after: float | None


PuzzleRater = Callable[[Glicko, Glicko, bool], tuple[float, Glicko, Glicko]]
"""``(player, puzzle, hinted) -> (score, player after, puzzle after)``."""


class Store:
    """All database access of one server process."""

    def __init__(self, url: str, *, sqlite_synchronous: str = "NORMAL") -> None:
        self.url = url
        self.origin = ""
        """Set by the service: notifications name their sender, which skips its own."""
        self.is_sqlite = url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            path = make_url(url).database
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        else:
            kwargs.update(pool_size=10, max_overflow=10)
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        # SQLite has one writer at a time; queueing writers here is cheaper than letting
        # them spin on SQLITE_BUSY.
        self._write_lock: asyncio.Lock | None = asyncio.Lock() if self.is_sqlite else None
        self._pending: list[tuple[str, ActionRow, dict[str, Any] | None, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._log: _LogWriter | None = None
        if self.is_sqlite:
            pragmas = _sqlite_pragmas(sqlite_synchronous.upper())
            event.listen(self.engine.sync_engine, "connect", pragmas)
            path = make_url(url).database
            if path and path != ":memory:":
                self._log = _LogWriter(url, pragmas)

    async def start(self) -> None:
        """Background work of a running server (SQLite: WAL checkpoints)."""
        if self.is_sqlite and self._checkpointer is None:
            self._checkpointer = asyncio.create_task(self._checkpoints())

    async def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None
        await self.engine.dispose()
        if self._log is not None:
            await asyncio.to_thread(self._log.close)

    async def _checkpoints(self, every: float = 1.0) -> None:
        """Copy the SQLite WAL into the database once a second, off the write path.

        A checkpoint syncs the database file to disk; done automatically it would run inside
        whichever commit crossed the threshold, and on a busy disk every table would wait
        for that sync. A passive checkpoint on its own connection lets commits go on.
        """
        while True:
            await asyncio.sleep(every)
            try:
                async with self.engine.connect() as conn:
                    await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception as e:  # the next round tries again
                logging.getLogger("openrummy.server").warning("WAL checkpoint failed: %s", e)

    # -- schema ---------------------------------------------------------------------------
    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (idempotent, concurrency-safe)."""
        async with self._tx() as conn:
            if not self.is_sqlite:
                await conn.execute(text(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})"))
            await conn.run_sync(_upgrade)

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[AsyncConnection]:
        if self._write_lock is None:
            async with self.engine.begin() as conn:
                yield conn
        else:
            async with self._write_lock, self.engine.begin() as conn:
                yield conn

    async def _notify(self, conn: AsyncConnection, payload: dict[str, Any]) -> None:
        """Tell the other server processes (PostgreSQL only; delivered at commit)."""
        if not self.is_sqlite:
            await conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL, "payload": json.dumps({**payload, "o": self.origin})},
            )

    # -- tables and seats ----------------------------------------------------------------
    async def create_table(self, row: TableRow) -> None:
        async with self._tx() as conn:
            await conn.execute(
                insert(table_t).values(
                    id=row.id,
                    title=row.title,
                    preset=row.preset,
                    family=row.family,
                    options=row.options,
                    players=row.players,
                    bot_pause=row.bot_pause,
                    time_limit=row.time_limit,
                    status=row.status,
                    creator_hash=row.creator_hash,
                    created_at=row.created_at,
                )
            )
            await conn.execute(
                insert(seat_t),
                [
                    {
                        "table_id": row.id,
                        "idx": s.idx,
                        "kind": s.kind,
                        "bot": s.bot,
                        "name": s.name,
                        "token_hash": s.token_hash,
                        "away": s.away,
                    }
                    for s in row.seats
                ],
            )

    async def get_table(self, table_id: str) -> TableRow | None:
        rows = await self.list_tables(ids=[table_id])
        return rows[0] if rows else None

    async def list_tables(
        self,
        *,
        statuses: Sequence[str] | None = None,
        ids: Sequence[str] | None = None,
        limit: int = 200,
        created_before: float | None = None,
    ) -> list[TableRow]:
        q = select(table_t).order_by(table_t.c.created_at.desc()).limit(limit)
        if created_before is not None:
            q = q.where(table_t.c.created_at < created_before)
        if statuses is not None:
            q = q.where(table_t.c.status.in_(list(statuses)))
        if ids is not None:
            q = q.where(table_t.c.id.in_(list(ids)))
        async with self.engine.connect() as conn:
            trows = (await conn.execute(q)).mappings().all()
            if not trows:
                return []
            tids = [t["id"] for t in trows]
            srows = (
                (
                    await conn.execute(
                        select(seat_t).where(seat_t.c.table_id.in_(tids)).order_by(seat_t.c.idx)
                    )
                )
                .mappings()
                .all()
            )
            grows = (
                (await conn.execute(select(game_t).where(game_t.c.table_id.in_(tids))))
                .mappings()
                .all()
            )
            seq_rows = await conn.execute(
                select(action_t.c.table_id, func.max(action_t.c.seq))
                .where(action_t.c.table_id.in_(tids))
                .group_by(action_t.c.table_id)
            )
            seqs: dict[str, int] = {str(t): int(m or 0) for t, m in seq_rows}
        seats: dict[str, list[SeatRow]] = {}
        for s in srows:
            seats.setdefault(s["table_id"], []).append(
                SeatRow(s["idx"], s["kind"], s["bot"], s["name"], s["token_hash"], bool(s["away"]))
            )
        games = {
            g["table_id"]: GameRow(
                g["seed"],
                g["commitment"],
                g["started_at"],
                g["finished_at"],
                g["status"],
                g["result"],
            )
            for g in grows
        }
        return [
            TableRow(
                id=t["id"],
                title=t["title"],
                preset=t["preset"],
                family=t["family"],
                options=dict(t["options"] or {}),
                players=t["players"],
                bot_pause=t["bot_pause"],
                time_limit=t["time_limit"],
                status=t["status"],
                creator_hash=t["creator_hash"],
                created_at=t["created_at"],
                seats=tuple(seats.get(t["id"], [])),
                game=games.get(t["id"]),
                seq=int(seqs.get(t["id"]) or 0),
            )
            for t in trows
        ]

    async def take_seat(
        self, table_id: str, idx: int, name: str, token_hash: str, *, notify: bool = True
    ) -> bool:
        """Give a free human seat of an open table to a person; False if it was taken."""
        async with self._tx() as conn:
            open_table = await conn.scalar(
                select(table_t.c.id).where(
                    and_(table_t.c.id == table_id, table_t.c.status == "open")
                )
            )
            if open_table is None:
                return False
            res = await conn.execute(
                update(seat_t)
                .where(
                    and_(
                        seat_t.c.table_id == table_id,
                        seat_t.c.idx == idx,
                        seat_t.c.kind == "human",
                        seat_t.c.token_hash.is_(None),
                    )
                )
                .values(name=name, token_hash=token_hash)
            )
            if res.rowcount != 1:
                return False
            if notify:
                await self._notify(conn, {"t": table_id, "k": "table"})
            return True

    async def update_seat(self, table_id: str, idx: int, **values: Any) -> None:
        async with self._tx() as conn:
            await conn.execute(
                update(seat_t)
                .where(and_(seat_t.c.table_id == table_id, seat_t.c.idx == idx))
                .values(**values)
            )
            await self._notify(conn, {"t": table_id, "k": "table"})

    async def start_game(
        self,
        table_id: str,
        *,
        seed: str,
        commitment: str,
        started_at: float,
        bot_seats: dict[int, tuple[str, str]],
    ) -> bool:
        """Open -> running, with the game row; False if the table was not open."""
        async with self._tx() as conn:
            res = await conn.execute(
                update(table_t)
                .where(and_(table_t.c.id == table_id, table_t.c.status == "open"))
                .values(status="running")
            )
            if res.rowcount != 1:
                return False
            for idx, (bot, name) in bot_seats.items():
                await conn.execute(
                    update(seat_t)
                    .where(and_(seat_t.c.table_id == table_id, seat_t.c.idx == idx))
                    .values(kind="bot", bot=bot, name=name)
                )
            await conn.execute(
                insert(game_t).values(
                    table_id=table_id,
                    seed=seed,
                    commitment=commitment,
                    started_at=started_at,
                    status="running",
                )
            )
            await self._notify(conn, {"t": table_id, "k": "table"})
            return True

    async def close_table(self, table_id: str, *, at: float) -> str | None:
        """Close a table (aborting its game); returns the status it had, None if unknown."""
        async with self._tx() as conn:
            status = await conn.scalar(select(table_t.c.status).where(table_t.c.id == table_id))
            if status is None or status in ("finished", "closed"):
                return None if status is None else str(status)
            await conn.execute(
                update(table_t).where(table_t.c.id == table_id).values(status="closed")
            )
            if status == "running":
                await conn.execute(
                    update(game_t)
                    .where(and_(game_t.c.table_id == table_id, game_t.c.status == "running"))
                    .values(status="aborted", finished_at=at)
                )
            await self._notify(conn, {"t": table_id, "k": "table"})
            return str(status)

    # -- the action log -------------------------------------------------------------------
    async def append_action(
        self,
        table_id: str,
        row: ActionRow,
        *,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Write one accepted action; with ``result`` also end the game, atomically.

        Returns once the action is committed. Raises :class:`SeqConflict` if ``row.seq`` is
        taken (another process was first) or the game is no longer running.

        On SQLite, actions of different tables that arrive while a commit is in progress are
        committed together (group commit): each caller still returns only after its own row
        is durable, and the database sees one transaction instead of many. PostgreSQL, where
        several processes race for the same rows, commits each action on its own.
        """
        if not self.is_sqlite:
            await self._append_one(table_id, row, result)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((table_id, row, result, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        await future

    async def _flush(self) -> None:
        """Commit the waiting actions in batches until none is left (SQLite)."""
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                if self._log is not None and self._write_lock is not None:
                    async with self._write_lock:
                        await asyncio.get_running_loop().run_in_executor(
                            self._log.thread, self._log.write, [b[:3] for b in batch]
                        )
                else:
                    async with self._tx() as conn:
                        await conn.execute(
                            insert(action_t), [_action_values(t, row) for t, row, _, _ in batch]
                        )
                        for table_id, row, result, _ in batch:
                            if result is not None:
                                await self._finish(conn, table_id, row, result)
            except Exception:
                # One bad row must not sink the others: commit them one by one instead.
                for table_id, row, result, future in batch:
                    try:
                        await self._append_one(table_id, row, result)
                    except Exception as e:
                        if not future.done():
                            future.set_exception(e)
                    else:
                        if not future.done():
                            future.set_result(None)
                continue
            for *_, future in batch:
                if not future.done():
                    future.set_result(None)

    async def _append_one(
        self, table_id: str, row: ActionRow, result: dict[str, Any] | None
    ) -> None:
        try:
            async with self._tx() as conn:
                await self._write(conn, table_id, row, result)
        except IntegrityError as e:
            raise SeqConflict(f"action {row.seq} of table {table_id} is already stored") from e

    async def _write(
        self,
        conn: AsyncConnection,
        table_id: str,
        row: ActionRow,
        result: dict[str, Any] | None,
    ) -> None:
        await conn.execute(insert(action_t).values(_action_values(table_id, row)))
        if result is not None:
            await self._finish(conn, table_id, row, result)
        await self._notify(conn, {"t": table_id, "k": "action", "s": row.seq})

    async def _finish(
        self, conn: AsyncConnection, table_id: str, row: ActionRow, result: dict[str, Any]
    ) -> None:
        """The game's end, in the transaction of the action that ended it."""
        game, table = _finish_statements(table_id, row, result)
        res = await conn.execute(game)
        if res.rowcount != 1:
            raise SeqConflict(f"table {table_id}'s game is not running")
        await conn.execute(table)

    async def actions(self, table_id: str, *, after: int = 0) -> list[ActionRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(action_t)
                .where(and_(action_t.c.table_id == table_id, action_t.c.seq > after))
                .order_by(action_t.c.seq)
            )
            return [
                ActionRow(r.seq, r.seat, r.action, r.at, bool(r.accepted), r.event, r.actor)
                for r in rows
            ]

    # -- puzzles ----------------------------------------------------------------------------
    async def create_puzzle_player(
        self, player_id: str, name: str | None, start: Glicko, *, at: float
    ) -> PuzzlePlayerRow:
        async with self._tx() as conn:
            await conn.execute(
                insert(puzzle_player_t).values(
                    id=player_id,
                    name=name,
                    rating=start.rating,
                    deviation=start.deviation,
                    volatility=start.volatility,
                    attempts=0,
                    solved=0,
                    created_at=at,
                )
            )
        return PuzzlePlayerRow(player_id, name, start, 0, 0)

    async def puzzle_player(self, player_id: str) -> PuzzlePlayerRow | None:
        async with self.engine.connect() as conn:
            r = (
                (
                    await conn.execute(
                        select(puzzle_player_t).where(puzzle_player_t.c.id == player_id)
                    )
                )
                .mappings()
                .first()
            )
        return None if r is None else _player_row(r)

    async def puzzle_ratings(self) -> dict[str, PuzzleRatingRow]:
        """The puzzles rated so far (the others keep their starting rating)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(puzzle_rating_t))).mappings().all()
        return {r["puzzle_id"]: _rating_row(r) for r in rows}

    async def puzzle_rating(self, puzzle_id: str) -> PuzzleRatingRow | None:
        async with self.engine.connect() as conn:
            r = (
                (
                    await conn.execute(
                        select(puzzle_rating_t).where(puzzle_rating_t.c.puzzle_id == puzzle_id)
                    )
                )
                .mappings()
                .first()
            )
        return None if r is None else _rating_row(r)

    async def puzzle_attempts(self, player_id: str) -> dict[str, PuzzleAttemptRow]:
        async with self.engine.connect() as conn:
            rows = (
                (
                    await conn.execute(
                        select(puzzle_attempt_t).where(puzzle_attempt_t.c.player_id == player_id)
                    )
                )
                .mappings()
                .all()
            )
        return {r["puzzle_id"]: _attempt_row(r) for r in rows}

    async def puzzle_hinted(self, player_id: str, puzzle_id: str, *, at: float) -> None:
        """The player asked for a hint: a later solution of this puzzle scores half."""
        for _ in range(3):
            try:
                async with self._tx() as conn:
                    found = await conn.scalar(
                        select(puzzle_attempt_t.c.hinted).where(
                            and_(
                                puzzle_attempt_t.c.player_id == player_id,
                                puzzle_attempt_t.c.puzzle_id == puzzle_id,
                            )
                        )
                    )
                    if found is None:
                        await conn.execute(
                            insert(puzzle_attempt_t).values(
                                player_id=player_id, puzzle_id=puzzle_id, hinted=True, at=at
                            )
                        )
                    return
            except IntegrityError:
                continue

    async def rate_puzzle_attempt(
        self, player_id: str, puzzle_id: str, start: Glicko, rate: PuzzleRater, *, at: float
    ) -> tuple[PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRatingRow] | None:
        """Rate the player's attempt at a puzzle, in one transaction: the attempt, the
        player's and the puzzle's ratings. ``start`` is the puzzle's rating if it has none
        yet. Returns None when this player's attempt at this puzzle was rated already (only
        the first counts) or the player is unknown."""
        for tries in range(3):
            try:
                return await self._rate_once(player_id, puzzle_id, start, rate, at)
            except IntegrityError:
                # Another request rated or created a row first: look again.
                if tries == 2:
                    raise
        return None  # pragma: no cover - the loop returns or raises

    async def _rate_once(
        self, player_id: str, puzzle_id: str, start: Glicko, rate: PuzzleRater, at: float
    ) -> tuple[PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRatingRow] | None:
        async with self._tx() as conn:
            p = (
                (
                    await conn.execute(
                        select(puzzle_player_t)
                        .where(puzzle_player_t.c.id == player_id)
                        .with_for_update()
                    )
                )
                .mappings()
                .first()
            )
            if p is None:
                return None
            player = _player_row(p)
            a = (
                (
                    await conn.execute(
                        select(puzzle_attempt_t).where(
                            and_(
                                puzzle_attempt_t.c.player_id == player_id,
                                puzzle_attempt_t.c.puzzle_id == puzzle_id,
                            )
                        )
                    )
                )
                .mappings()
                .first()
            )
            if a is not None and a["score"] is not None:
                return None
            hinted = bool(a["hinted"]) if a is not None else False
            q = (
                (
                    await conn.execute(
                        select(puzzle_rating_t)
                        .where(puzzle_rating_t.c.puzzle_id == puzzle_id)
                        .with_for_update()
                    )
                )
                .mappings()
                .first()
            )
            puzzle = _rating_row(q) if q is not None else PuzzleRatingRow(puzzle_id, start, 0, 0)
            score, p_new, q_new = rate(player.glicko, puzzle.glicko, hinted)
            won = 1 if score > 0 else 0
            player_after = PuzzlePlayerRow(
                player.id, player.name, p_new, player.attempts + 1, player.solved + won
            )
            puzzle_after = PuzzleRatingRow(
                puzzle_id, q_new, puzzle.attempts + 1, puzzle.solved + won
            )
            await conn.execute(
                update(puzzle_player_t)
                .where(puzzle_player_t.c.id == player_id)
                .values(
                    rating=p_new.rating,
                    deviation=p_new.deviation,
                    volatility=p_new.volatility,
                    attempts=player_after.attempts,
                    solved=player_after.solved,
                )
            )
            values = {
                "rating": q_new.rating,
                "deviation": q_new.deviation,
                "volatility": q_new.volatility,
                "attempts": puzzle_after.attempts,
                "solved": puzzle_after.solved,
            }
            if q is None:
                await conn.execute(insert(puzzle_rating_t).values(puzzle_id=puzzle_id, **values))
            else:
                await conn.execute(
                    update(puzzle_rating_t)
                    .where(puzzle_rating_t.c.puzzle_id == puzzle_id)
                    .values(**values)
                )
            attempt = PuzzleAttemptRow(
                puzzle_id, hinted, score, at, player.glicko.rating, p_new.rating
            )
            done = {
                "score": score,
                "at": at,
                "rating_before": attempt.rating_before,
                "rating_after": attempt.rating_after,
            }
            if a is None:
                await conn.execute(
                    insert(puzzle_attempt_t).values(
                        player_id=player_id, puzzle_id=puzzle_id, hinted=hinted, **done
                    )
                )
            else:
                res = await conn.execute(
                    update(puzzle_attempt_t)
                    .where(
                        and_(
                            puzzle_attempt_t.c.player_id == player_id,
                            puzzle_attempt_t.c.puzzle_id == puzzle_id,
                            puzzle_attempt_t.c.score.is_(None),
                        )
                    )
                    .values(**done)
                )
                if res.rowcount != 1:
                    raise IntegrityError("rated twice", None, Exception("rated twice"))
            return attempt, player_after, puzzle_after

    # -- analyses -------------------------------------------------------------------------
    async def get_analysis(self, table_id: str) -> dict[str, Any] | None:
        """The stored analysis of the table's game, if one was made."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(analysis_t.c.result).where(analysis_t.c.table_id == table_id)
                )
            ).first()
        return None if row is None else dict(row.result)

    async def put_analysis(self, table_id: str, result: dict[str, Any], *, at: float) -> None:
        """Store the analysis of the table's game (a second one for the same game is kept
        out: the first stays)."""
        if self.is_sqlite:
            from sqlalchemy.dialects.sqlite import insert as upsert
        else:
            from sqlalchemy.dialects.postgresql import insert as upsert  # type: ignore[assignment]
        stmt = (
            upsert(analysis_t)
            .values(table_id=table_id, created_at=at, result=result)
            .on_conflict_do_nothing(index_elements=["table_id"])
        )
        async with self._tx() as conn:
            await conn.execute(stmt)


def _glicko(r: Any) -> Glicko:
    return Glicko(float(r["rating"]), float(r["deviation"]), float(r["volatility"]))


def _player_row(r: Any) -> PuzzlePlayerRow:
    return PuzzlePlayerRow(r["id"], r["name"], _glicko(r), int(r["attempts"]), int(r["solved"]))


def _rating_row(r: Any) -> PuzzleRatingRow:
    return PuzzleRatingRow(r["puzzle_id"], _glicko(r), int(r["attempts"]), int(r["solved"]))


def _attempt_row(r: Any) -> PuzzleAttemptRow:
    return PuzzleAttemptRow(
        r["puzzle_id"],
        bool(r["hinted"]),
        None if r["score"] is None else float(r["score"]),
        float(r["at"]),
        r["rating_before"],
        r["rating_after"],
    )


def _sqlite_pragmas(synchronous: str) -> Callable[[Any, Any], None]:
    """The settings of every SQLite connection (a ``connect`` event listener)."""

    def pragmas(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=10000")
        # Checkpoints (which fsync) run in the background, never inside a commit that
        # all tables wait for (see Store._checkpoints).
        cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.close()

    return pragmas


class _LogWriter:
    """SQLite: the action log's batches, committed on a connection of their own in a thread
    of their own (the same statements, through SQLAlchemy's synchronous driver).

    A batch then costs the event loop one hand-over to that thread and one wake-up: through
    the async driver it took five round trips to the driver's thread (cursor, execute,
    close, commit, and the pool's rollback), each waiting for a turn of the event loop,
    which on a busy server every action's commit waited for. Runs under the store's write
    lock, like every other writer of the process."""

    def __init__(self, url: str, pragmas: Callable[[Any, Any], None]) -> None:
        self.engine: Engine = create_engine(make_url(url).set(drivername="sqlite"))
        event.listen(self.engine, "connect", pragmas)
        self.thread = concurrent.futures.ThreadPoolExecutor(1, "openrummy-log")

    def write(self, batch: list[tuple[str, ActionRow, dict[str, Any] | None]]) -> None:
        """Commit the batch's rows (and the ends of the games they end) in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(insert(action_t), [_action_values(t, row) for t, row, _ in batch])
            for table_id, row, result in batch:
                if result is not None:
                    game, table = _finish_statements(table_id, row, result)
                    if conn.execute(game).rowcount != 1:
                        raise SeqConflict(f"table {table_id}'s game is not running")
                    conn.execute(table)

    def close(self) -> None:
        """Close the connection in its own thread, then end the thread."""
        self.thread.submit(self.engine.dispose).result()
        self.thread.shutdown(wait=True)


def _finish_statements(table_id: str, row: ActionRow, result: dict[str, Any]) -> tuple[Any, Any]:
    """A game's end: its game row (only while it runs) and its table row."""
    return (
        update(game_t)
        .where(and_(game_t.c.table_id == table_id, game_t.c.status == "running"))
        .values(status="finished", finished_at=row.at, result=result),
        update(table_t).where(table_t.c.id == table_id).values(status="finished"),
    )


def _action_values(table_id: str, row: ActionRow) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seq": row.seq,
        "seat": row.seat,
        "action": row.action,
        "at": row.at,
        "accepted": row.accepted,
        "event": row.event,
        "actor": row.actor,
    }


def _upgrade(sync_conn: Connection) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, "heads")
