"""The lobby: creating, listing, joining, leaving, starting and closing tables; records."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import secrets
import time
from typing import Any

from openrummy.bots import bot_infos, make_bot
from openrummy.errors import RummyError
from openrummy.games.families import new_match
from openrummy.record import GameRecord
from openrummy.rules import find_preset

from . import fairness
from .core import ServiceCore, client_view, hash_token, replay_events
from .errors import ErrorCode, ServiceError
from .protocol import (
    CreatedTable,
    CreateTable,
    GameInfo,
    Joined,
    JoinRequest,
    SeatInfo,
    StartRequest,
    TableInfo,
)
from .store import SeatRow, TableRow

__all__ = ["Lobby", "table_info"]

log = logging.getLogger("openrummy.server")

CREATIONS_RECHECK = 10.0
"""Seconds between two database look-ups of one address's unfinished tables, when it is at
its limit (every end this process sees is noted at once; this finds the others)."""


def table_info(row: TableRow) -> TableInfo:
    """The public description of a table (never a token; the seed only once it is over)."""
    game = row.game
    return TableInfo(
        id=row.id,
        title=row.title,
        preset=row.preset,
        family=row.family,
        options=dict(row.options),
        players=row.players,
        status=row.status,  # type: ignore[arg-type]
        created_at=row.created_at,
        bot_pause=row.bot_pause,
        turn_time_limit=row.time_limit,
        seats=[
            SeatInfo(
                seat=s.idx,
                kind=s.kind,  # type: ignore[arg-type]
                bot=s.bot,
                name=s.name,
                taken=s.kind == "bot" or s.token_hash is not None or s.away,
                away=s.away,
            )
            for s in row.seats
        ],
        game=None
        if game is None
        else GameInfo(
            status=game.status,  # type: ignore[arg-type]
            started_at=game.started_at,
            finished_at=game.finished_at,
            seq=row.seq,
            commitment=game.commitment,
            scheme=fairness.scheme_of(game.seed, game.commitment),
            seed=None if game.status == "running" else game.seed,
            result=game.result,
        ),
    )


class Lobby(ServiceCore):
    """The REST operations on tables, and what is published about them."""

    async def create(self, req: CreateTable, *, client: str = "local") -> CreatedTable:
        bots_only = all(spec.kind == "bot" for spec in req.seats)
        await self._check_creator_limits(client, bots_only=bots_only)
        options: dict[str, Any] = dict(req.options)
        if req.match_format is not None:
            options["match.format"] = req.match_format
        if req.turn_time_limit is not None:
            options["turn.time_limit_s"] = req.turn_time_limit
        n = len(req.seats)
        try:
            rules = find_preset(req.preset, options)
            rules.check_players(n)
            new_match(rules, n, seed="check")
        except RummyError as e:
            raise ServiceError(ErrorCode.BAD_RULES, str(e), 422) from None
        for name, count in _round_counts(rules).items():
            if count > self.settings.max_rounds:
                raise ServiceError(
                    ErrorCode.BAD_RULES,
                    f"{name} = {count}: this server plays at most {self.settings.max_rounds}",
                    422,
                )
        family = rules.family
        seats: list[SeatRow] = []
        for i, spec in enumerate(req.seats):
            if spec.kind == "bot":
                kind = spec.bot or self._default_bot(family)
                self._check_bot(kind, rules)
                name = spec.name or f"{kind.capitalize()} bot {i + 1}"
                seats.append(SeatRow(i, "bot", kind, name, None, False))
            else:
                seats.append(SeatRow(i, "human", None, None, None, False))
        creator_token = secrets.token_urlsafe(24)
        seat_token: str | None = None
        if req.creator_seat is not None:
            if req.creator_seat >= n or seats[req.creator_seat].kind != "human":
                raise ServiceError(
                    ErrorCode.BAD_SEAT,
                    f"seat {req.creator_seat} is not a human seat of this table",
                    422,
                )
            seat_token = secrets.token_urlsafe(24)
            seats[req.creator_seat] = dataclasses.replace(
                seats[req.creator_seat],
                name=req.creator_name or "Host",
                token_hash=hash_token(seat_token),
            )
        table_id = secrets.token_urlsafe(9)
        pause = self.settings.bot_pause if req.bot_pause is None else req.bot_pause
        if bots_only:
            pause = max(pause, self.settings.bots_only_pause)
        row = TableRow(
            id=table_id,
            title=req.title or f"{getattr(rules, 'title', rules.name)} table",
            preset=rules.name,
            family=family,
            options=options,
            players=n,
            bot_pause=pause,
            time_limit=getattr(getattr(rules, "turn", None), "time_limit_s", None),
            status="open",
            creator_hash=hash_token(creator_token),
            created_at=self.clock(),
            seats=tuple(seats),
            game=None,
        )
        await self.store.create_table(row)
        if self.settings.limited(client):
            self.created_by.setdefault(client, {})[table_id] = bots_only
            self.creator_of[table_id] = client
        return CreatedTable(
            table=table_info(row),
            creator_token=creator_token,
            seat=req.creator_seat,
            seat_token=seat_token,
        )

    async def _check_creator_limits(self, client: str, *, bots_only: bool) -> None:
        """Per client address: unfinished tables at once (and of them, tables of bots only),
        tables created per hour. Checked before anything else of the request, from memory:
        a table's end is noted as it happens (``_noted``), and the creator's tables that are
        not in memory (open ones nobody is connected to) are looked up in the database at
        most every ``CREATIONS_RECHECK`` seconds, so refusals cost no database reads."""
        if not self.settings.limited(client):
            return
        mine = self.created_by.get(client, {})
        most = self.settings.open_tables_per_client
        most_bots = self.settings.bots_only_tables_per_client
        if len(mine) >= most or (bots_only and sum(mine.values()) >= most_bots):
            await self._recheck_creations(client)
            mine = self.created_by.get(client, {})
        if len(mine) >= most:
            raise ServiceError(
                ErrorCode.RATE_LIMITED,
                f"you have {len(mine)} tables open or running (at most {most}): "
                "finish or close one first",
                429,
            )
        if bots_only and sum(mine.values()) >= most_bots:
            raise ServiceError(
                ErrorCode.RATE_LIMITED,
                f"at most {most_bots} unfinished tables of bots only from one address",
                429,
            )
        if not self.creations.take(client):
            raise ServiceError(
                ErrorCode.RATE_LIMITED,
                f"at most {self.settings.tables_per_hour:g} new tables an hour "
                f"(bursts of {self.settings.tables_burst}) from one address",
                429,
            )

    async def _recheck_creations(self, client: str) -> None:
        """Look up which of the address's tables have ended meanwhile: those in memory at
        once, the others in the database (at most every ``CREATIONS_RECHECK`` seconds)."""
        now = time.monotonic()
        from_store = now - self.creations_rechecked.get(client, -math.inf) >= CREATIONS_RECHECK
        if from_store:
            self.creations_rechecked[client] = now
        for table_id in list(self.created_by.get(client, {})):
            live = self.live.get(table_id)
            if live is not None:
                self._noted(table_id, live.row)
            elif from_store:
                self._noted(table_id, await self.store.get_table(table_id))
        if client not in self.created_by:
            self.creations_rechecked.pop(client, None)

    @staticmethod
    def _default_bot(family: str) -> str:
        infos = bot_infos(family)
        if not infos:
            raise ServiceError(ErrorCode.NO_BOTS, f"no bot plays {family} games yet", 422)
        levelled = [i for i in infos if i.level >= 1]
        return (levelled or infos)[0].name

    @staticmethod
    def _check_bot(kind: str, rules: Any) -> None:
        try:
            make_bot(kind, rules, 0)
        except ValueError as e:
            raise ServiceError(ErrorCode.BAD_BOT, str(e), 422) from None

    async def _row(self, table_id: str) -> TableRow:
        row = await self.store.get_table(table_id)
        if row is None:
            raise ServiceError(ErrorCode.NOT_FOUND, f"there is no table {table_id!r}", 404)
        return row

    async def info(self, table_id: str) -> TableInfo:
        return table_info(await self._row(table_id))

    async def list_tables(self, statuses: list[str], limit: int) -> list[TableInfo]:
        return [table_info(r) for r in await self.store.list_tables(statuses=statuses, limit=limit)]

    async def join(self, table_id: str, req: JoinRequest) -> Joined:
        row = await self._row(table_id)
        if row.status != "open":
            raise ServiceError(
                ErrorCode.NOT_OPEN, f"table {table_id} is {row.status}: no seats to join", 409
            )
        if req.seat is not None:
            if req.seat >= row.players:
                raise ServiceError(
                    ErrorCode.BAD_SEAT, f"table {table_id} has no seat {req.seat}", 409
                )
            seat = row.seats[req.seat]
            if seat.kind != "human":
                raise ServiceError(ErrorCode.BAD_SEAT, f"seat {req.seat} is a bot's seat", 409)
            candidates = [req.seat]
        else:
            candidates = [s.idx for s in row.seats if s.kind == "human" and s.token_hash is None]
        token = secrets.token_urlsafe(24)
        for idx in candidates:
            if await self.store.take_seat(table_id, idx, req.name, hash_token(token)):
                await self._refresh(table_id)
                return Joined(table_id=table_id, seat=idx, token=token)
        if req.seat is not None:
            raise ServiceError(ErrorCode.SEAT_TAKEN, f"seat {req.seat} is taken", 409)
        raise ServiceError(ErrorCode.TABLE_FULL, f"table {table_id} has no free seat", 409)

    def _check_creator(self, row: TableRow, token: str) -> None:
        if not secrets.compare_digest(hash_token(token), row.creator_hash):
            raise ServiceError(
                ErrorCode.BAD_TOKEN, "this is not the creator token of the table", 403
            )

    async def leave(self, table_id: str, token: str) -> TableInfo:
        row = await self._row(table_id)
        seat = self._seat_of(row, token)
        if seat is None:
            raise ServiceError(
                ErrorCode.BAD_TOKEN, f"this token holds no seat at table {table_id}", 403
            )
        if row.status == "open":
            await self.store.update_seat(table_id, seat.idx, name=None, token_hash=None)
        elif row.status == "running":
            # The player is gone for good: the token dies and a stand-in plays to the end.
            await self.store.update_seat(table_id, seat.idx, token_hash=None, away=True)
        else:
            raise ServiceError(ErrorCode.GAME_OVER, f"table {table_id} is {row.status}", 409)
        await self._refresh(table_id)
        live = self.live.get(table_id)
        if live is not None:
            for c in [c for c in live.conns if c.role == "seat" and c.seat == seat.idx]:
                c.role, c.seat = "spectator", None
        return await self.info(table_id)

    async def start_game(self, table_id: str, token: str, req: StartRequest) -> TableInfo:
        row = await self._row(table_id)
        self._check_creator(row, token)
        if row.status != "open":
            raise ServiceError(ErrorCode.NOT_OPEN, f"table {table_id} is {row.status}", 409)
        free = [s.idx for s in row.seats if s.kind == "human" and s.token_hash is None]
        bot_seats: dict[int, tuple[str, str]] = {}
        if free and req.fill_with_bots is None:
            raise ServiceError(
                ErrorCode.SEATS_FREE,
                f"seat{'s' if len(free) > 1 else ''} {', '.join(map(str, free))} "
                "still free: wait for players or start with fill_with_bots",
                409,
            )
        if free and req.fill_with_bots is not None:
            rules = find_preset(row.preset, row.options)
            self._check_bot(req.fill_with_bots, rules)
            kind = req.fill_with_bots
            bot_seats = {i: (kind, f"{kind.capitalize()} bot {i + 1}") for i in free}
        seed = fairness.new_seed()
        ok = await self.store.start_game(
            table_id,
            seed=seed,
            commitment=fairness.commitment(
                seed, game=row.preset, options=row.options, players=row.players
            ),
            started_at=self.clock(),
            bot_seats=bot_seats,
        )
        if not ok:
            raise ServiceError(ErrorCode.NOT_OPEN, f"table {table_id} is no longer open", 409)
        await self._refresh(table_id, owner=True)
        return await self.info(table_id)

    async def close(self, table_id: str, token: str) -> TableInfo:
        row = await self._row(table_id)
        self._check_creator(row, token)
        was = await self.store.close_table(table_id, at=self.clock())
        if was in ("finished", "closed"):
            raise ServiceError(ErrorCode.GAME_OVER, f"table {table_id} is already {was}", 409)
        await self._refresh(table_id)
        return await self.info(table_id)

    async def record(self, table_id: str) -> dict[str, Any]:
        """The game record, published once the game is over (it reveals the seed)."""
        row = await self._row(table_id)
        game = row.game
        if game is None:
            raise ServiceError(ErrorCode.NO_GAME, f"table {table_id} has not started a game", 404)
        if game.status == "running":
            raise ServiceError(
                ErrorCode.NOT_FINISHED,
                "the record is published when the game ends (the seed is secret)",
                409,
            )
        rules = find_preset(row.preset, row.options)
        match = new_match(rules, row.players, seed=game.seed, started_at=game.started_at)
        actions = [
            dataclasses.replace(match.parse_action(a.action, a.seat), at=a.at)
            for a in await self.store.actions(table_id)
        ]
        rec = GameRecord(
            game=row.preset,
            players=[s.name or f"seat {s.idx}" for s in row.seats],
            seed=game.seed,
            options=dict(row.options),
            started_at=game.started_at,
            actions=actions,
            result=game.result,
            meta={
                "fairness": {
                    "scheme": fairness.scheme_of(game.seed, game.commitment),
                    "commitment": game.commitment,
                },
                "table": table_id,
                "status": game.status,
                "finished_at": game.finished_at,
            },
        )
        return rec.to_json()

    async def events(self, table_id: str) -> list[dict[str, Any]]:
        row = await self._row(table_id)
        names = [s.name or f"seat {s.idx}" for s in row.seats]
        actions = await self.store.actions(table_id)
        return await asyncio.to_thread(replay_events, row, actions, names)

    async def public_view(self, table_id: str) -> dict[str, Any]:
        live = await self.get_live(table_id)
        if live is None:
            raise ServiceError(ErrorCode.NOT_FOUND, f"there is no table {table_id!r}", 404)
        if live.match is None:
            raise ServiceError(ErrorCode.NO_GAME, f"table {table_id} has not started a game", 404)
        async with live.lock:  # not in the middle of storing an action
            now = self.clock()
            return {
                "seq": live.seq,
                "now": now,
                "view": client_view(live.match.view(None, now=now).to_json()),
            }


ROUND_COUNTS = ("match.rounds", "match.outs_to_win", "deals.count", "match.hands")
"""The options that say how many rounds (deals, hands) a match lasts."""


def _round_counts(rules: Any) -> dict[str, int]:
    """The round counts of these rules that their match format uses or may use."""
    out: dict[str, int] = {}
    for name in ROUND_COUNTS:
        value: Any = rules
        for part in name.split("."):
            value = getattr(value, part, None)
        if isinstance(value, int) and not isinstance(value, bool):
            out[name] = value
    return out
