"""The puzzles of the web page (*place every card*, and Indian Rummy's declare, the one safe
throw, the draw that wins), judged by the engine, rated with Glicko-2 in the database.

Routes (``/api/puzzles``):

* ``GET  /api/puzzles``: the puzzle sets (``rummikub``, ``robbers``) and their sizes;
* ``POST /api/puzzles/players``: a new puzzle player; the answer holds the player's token
  (shown once; the database keeps only its hash), sent afterwards as
  ``Authorization: Bearer <token>``;
* ``GET  /api/puzzles/me``: the player's rating;
* ``GET  /api/puzzles/next?set=…``: the unplayed puzzle of the set nearest the player's rating;
* ``GET  /api/puzzles/daily?set=…``: the puzzle of the day (the same for everyone, from the
  UTC date);
* ``GET  /api/puzzles/{id}``: a puzzle's position (never its solution) and rating;
* ``POST /api/puzzles/{id}/check``: a table being built, judged as the game page's
  ``/check`` judges it (nothing is rated);
* ``POST /api/puzzles/{id}/submit``: the player's answer. A table the engine refuses gets the
  engine's reasons and changes nothing; a valid table is a rated attempt: solved when it
  places every card (any such table, not only the stored solution), else lost;
* ``POST /api/puzzles/{id}/answer``: an Indian puzzle's answer (``discard 8D``, ``take``,
  ``declare 7C [8H 9H 10H] ...``); one the rules refuse gets the reasons and changes nothing,
  any other is a rated attempt;
* ``POST /api/puzzles/{id}/hand``: an Indian puzzle's hand as grouped, judged as the game
  page's ``/hand`` judges it (no auto-arrangement);
* ``POST /api/puzzles/{id}/hint``: the first step of the stored solution (a solution after
  a hint scores half);
* ``POST /api/puzzles/{id}/solution``: every step and the solved table; giving up like this
  is a lost attempt.

Only a player's first attempt at a puzzle is rated; a rating period is one attempt (player
and puzzle play one game, solved = the player wins). Judging and the solution's steps run in
the server's worker pool, within its budgets (:mod:`.workers`).
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import hashlib
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from pydantic import Field, field_validator

from openrummy.puzzles import Puzzle, PuzzleKind, shipped_puzzles
from openrummy.puzzles.glicko2 import Rating, update
from openrummy.rules import IndianRules, find_preset

from .errors import ErrorCode, ServiceError
from .jobs import hand_job, pack_rules
from .policy import AddressBuckets
from .protocol import NameText, _Strict, check_name, error_answers
from .puzzle_jobs import answer_job, judge_job, steps_job
from .service import TableService, hash_token
from .settings import Settings
from .store import Glicko, PuzzlePlayerRow, PuzzleRatingRow, Store
from .web import CheckRequest, HandRequest, _check_fits, _hand_fits, client_key, rules_info
from .workers import Workers

__all__ = ["PUZZLE_SETS", "daily_index", "router"]

PUZZLE_SETS = ("rummikub", "robbers", "indian")
"""The shipped sets the page plays."""

PLAYER_START = Glicko(1500.0, 350.0, 0.06)
"""A new player: Glicko-2's defaults."""
PUZZLE_DEVIATION = 200.0
"""A puzzle starts at the rating its difficulty estimates, with this deviation: the estimate
is worth something, so the first attempts move it less than a new player's."""
PUZZLE_VOLATILITY = 0.06

SetName = Annotated[
    str,
    Query(alias="set", max_length=16, pattern="^[a-z]+$", description="rummikub, robbers, indian"),
]


@dataclass(frozen=True, slots=True)
class PuzzleSet:
    name: str
    puzzles: tuple[Puzzle, ...]
    by_id: dict[str, Puzzle]


@functools.cache
def puzzle_set(name: str) -> PuzzleSet:
    """A shipped set, read once per process."""
    found = tuple(shipped_puzzles(name))
    return PuzzleSet(name, found, {p.id: p for p in found})


async def _set(name: str) -> PuzzleSet:
    if name not in PUZZLE_SETS:
        raise ServiceError(
            ErrorCode.NO_PUZZLE,
            f"there is no puzzle set {name!r} (sets: {', '.join(PUZZLE_SETS)})",
            404,
        )
    return await asyncio.to_thread(puzzle_set, name)


async def _sets() -> list[PuzzleSet]:
    return [await asyncio.to_thread(puzzle_set, n) for n in PUZZLE_SETS]


async def _find(puzzle_id: str) -> tuple[str, Puzzle]:
    for s in await _sets():
        p = s.by_id.get(puzzle_id)
        if p is not None:
            return s.name, p
    raise ServiceError(ErrorCode.NO_PUZZLE, f"there is no puzzle {puzzle_id[:40]!r}", 404)


def daily_index(day: datetime.date, name: str, size: int) -> int:
    """The puzzle of the day's place in its set: a hash of the date and the set's name.

    >>> daily_index(datetime.date(2026, 12, 2), "rummikub", 1000)
    379
    """
    digest = hashlib.sha256(f"{day.isoformat()}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % size


def start_rating(p: Puzzle) -> Glicko:
    return Glicko(float(p.rating), PUZZLE_DEVIATION, PUZZLE_VOLATILITY)


def rate(player: Glicko, puzzle: Glicko, score: float) -> tuple[Glicko, Glicko]:
    """One rating period of one game: the player scores ``score`` against the puzzle."""
    me = Rating(player.rating, player.deviation, player.volatility)
    it = Rating(puzzle.rating, puzzle.deviation, puzzle.volatility)
    a = update(me, [(it, score)])
    b = update(it, [(me, 1.0 - score)])
    return Glicko(a.rating, a.deviation, a.volatility), Glicko(b.rating, b.deviation, b.volatility)


# -- bodies ---------------------------------------------------------------------------------------
class NewPlayer(_Strict):
    """``POST /api/puzzles/players``: a display name (optional)."""

    name: NameText | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else check_name(v)


class StepsRequest(_Strict):
    """``/hint`` and ``/solution``: the language of the steps."""

    lang: str = Field(default="en", pattern="^(en|de)$")


# -- the player -------------------------------------------------------------------------------
async def _token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    if authorization is None or not authorization.strip():
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServiceError(
            ErrorCode.MISSING_TOKEN, "the Authorization header must read 'Bearer <token>'", 401
        )
    return token.strip()


MaybeToken = Annotated[str | None, Depends(_token)]


def _store(request: Request) -> Store:
    service: TableService = request.app.state.service
    return service.store


def _creations(request: Request) -> AddressBuckets:
    """New players per address: the same budget as new tables (``tables_per_hour``,
    ``tables_burst``), each a row in the database."""
    found: AddressBuckets | None = getattr(request.app.state, "puzzle_players", None)
    if found is None:
        s: Settings = request.app.state.settings
        found = AddressBuckets(rate=s.tables_per_hour / 3600.0, burst=s.tables_burst)
        request.app.state.puzzle_players = found
    return found


def _workers(request: Request) -> Workers:
    workers: Workers = request.app.state.workers
    return workers


async def _player(store: Store, token: str | None, *, required: bool) -> PuzzlePlayerRow | None:
    if token is None:
        if required:
            raise ServiceError(
                ErrorCode.MISSING_TOKEN,
                "send the puzzle player's token as 'Authorization: Bearer <token>'",
                401,
            )
        return None
    row = await store.puzzle_player(hash_token(token))
    if row is None:
        raise ServiceError(ErrorCode.NO_PLAYER, "this token is not a puzzle player's", 403)
    return row


def player_json(row: PuzzlePlayerRow) -> dict[str, Any]:
    return {
        "name": row.name,
        "rating": round(row.glicko.rating),
        "deviation": round(row.glicko.deviation),
        "attempts": row.attempts,
        "solved": row.solved,
    }


def puzzle_json(
    set_name: str, p: Puzzle, rated: PuzzleRatingRow | None, attempt: dict[str, Any] | None
) -> dict[str, Any]:
    """A puzzle's position for the page: no solution (the hint and solution routes give it)."""
    g = rated.glicko if rated is not None else start_rating(p)
    out: dict[str, Any] = {
        "id": p.id,
        "set": set_name,
        "game": p.game,
        "kind": p.kind.value,
        "table": [str(m) for m in p.table],
        "hand": [str(c) for c in p.hand],
        "rating": round(g.rating),
        "deviation": round(g.deviation),
        "attempts": rated.attempts if rated is not None else 0,
        "solved": rated.solved if rated is not None else 0,
        "attempt": attempt,
        "rules": rules_info(find_preset(p.game)),
    }
    if p.indicator is not None:
        rules = find_preset(p.game)
        assert isinstance(rules, IndianRules)
        out["indicator"] = str(p.indicator)
        out["wild_rank"] = rules.wilds(p.indicator).wild_rank
        out["discard"] = [str(c) for c in p.discard]
    return out


async def _attempt(store: Store, player: PuzzlePlayerRow | None, puzzle_id: str) -> Any:
    if player is None:
        return None
    a = (await store.puzzle_attempts(player.id)).get(puzzle_id)
    if a is None:
        return None
    return {"hinted": a.hinted, "score": a.score, "rated": a.score is not None}


async def _rated(
    store: Store, player: PuzzlePlayerRow, p: Puzzle, score: float | None
) -> dict[str, Any]:
    """Rate the player's attempt (``score`` None: solved, full or half by the hint)."""

    def rater(me: Glicko, it: Glicko, hinted: bool) -> tuple[float, Glicko, Glicko]:
        s = score if score is not None else (0.5 if hinted else 1.0)
        a, b = rate(me, it, s)
        return s, a, b

    done = await store.rate_puzzle_attempt(player.id, p.id, start_rating(p), rater, at=time.time())
    if done is None:
        return {"rated": False, "player": player_json(player)}
    attempt, after, puzzle = done
    return {
        "rated": True,
        "score": attempt.score,
        "player": player_json(after),
        "rating_before": round(player.glicko.rating),
        "change": round(after.glicko.rating) - round(player.glicko.rating),
        "puzzle_rating": round(puzzle.glicko.rating),
    }


def _near(
    puzzles: Sequence[Puzzle],
    ratings: dict[str, PuzzleRatingRow],
    target: float,
    skip: set[str],
) -> Puzzle | None:
    best: tuple[float, str, Puzzle] | None = None
    for p in puzzles:
        if p.id in skip:
            continue
        r = ratings.get(p.id)
        rating = r.glicko.rating if r is not None else float(p.rating)
        key = (abs(rating - target), p.id, p)
        if best is None or key[:2] < best[:2]:
            best = key
    return best[2] if best is not None else None


# -- the router -------------------------------------------------------------------------------------
router = APIRouter(tags=["puzzles"])


@router.get("/api/puzzles")
async def list_sets() -> list[dict[str, Any]]:
    """The puzzle sets the page plays and how many puzzles each holds."""
    return [
        {"set": s.name, "game": s.puzzles[0].game if s.puzzles else s.name, "count": len(s.puzzles)}
        for s in await _sets()
    ]


@router.post("/api/puzzles/players", status_code=201, responses=error_answers(413, 422, 429))
async def new_player(req: NewPlayer, request: Request) -> dict[str, Any]:
    """A new puzzle player at the starting rating; the token is shown only in this answer."""
    client = client_key(request)
    settings: Settings = request.app.state.settings
    if settings.limited(client) and not _creations(request).take(client):
        raise ServiceError(
            ErrorCode.RATE_LIMITED,
            f"at most {settings.tables_per_hour:g} new players an hour "
            f"(bursts of {settings.tables_burst}) from one address",
            429,
        )
    token = secrets.token_urlsafe(24)
    row = await _store(request).create_puzzle_player(
        hash_token(token), req.name, PLAYER_START, at=time.time()
    )
    return {"token": token, "player": player_json(row)}


@router.get("/api/puzzles/me", responses=error_answers(401, 403))
async def me(token: MaybeToken, request: Request) -> dict[str, Any]:
    """The player's rating, attempts and solved puzzles."""
    row = await _player(_store(request), token, required=True)
    assert row is not None
    return player_json(row)


@router.get("/api/puzzles/next", responses=error_answers(401, 403, 404, 422))
async def next_puzzle(
    request: Request,
    token: MaybeToken,
    set_name: SetName = "rummikub",
    after: Annotated[str | None, Query(max_length=32)] = None,
) -> dict[str, Any]:
    """The puzzle of the set nearest the player's rating that the player has not finished
    (and not ``after``, the one on screen)."""
    store = _store(request)
    chosen = await _set(set_name)
    player = await _player(store, token, required=False)
    target = player.glicko.rating if player is not None else PLAYER_START.rating
    skip = {after} if after else set()
    if player is not None:
        skip |= {
            k for k, a in (await store.puzzle_attempts(player.id)).items() if a.score is not None
        }
    ratings = await store.puzzle_ratings()
    p = _near(chosen.puzzles, ratings, target, skip)
    if p is None:  # every puzzle played: start again from the nearest
        p = _near(chosen.puzzles, ratings, target, {after} if after else set())
    if p is None:
        raise ServiceError(ErrorCode.NO_PUZZLE, f"the set {set_name!r} has no puzzles", 404)
    return puzzle_json(chosen.name, p, ratings.get(p.id), await _attempt(store, player, p.id))


@router.get("/api/puzzles/daily", responses=error_answers(401, 403, 404, 422))
async def daily(
    request: Request,
    token: MaybeToken,
    set_name: SetName = "rummikub",
    date: Annotated[
        datetime.date | None, Query(description="YYYY-MM-DD (default: today, UTC)")
    ] = None,
) -> dict[str, Any]:
    """The puzzle of the day: the same for everyone on a date (UTC)."""
    store = _store(request)
    chosen = await _set(set_name)
    day = date or datetime.datetime.now(datetime.UTC).date()
    p = chosen.puzzles[daily_index(day, chosen.name, len(chosen.puzzles))]
    player = await _player(store, token, required=False)
    out = puzzle_json(
        chosen.name, p, await store.puzzle_rating(p.id), await _attempt(store, player, p.id)
    )
    out["date"] = day.isoformat()
    return out


@router.get("/api/puzzles/{puzzle_id}", responses=error_answers(401, 403, 404))
async def get_puzzle(puzzle_id: str, token: MaybeToken, request: Request) -> dict[str, Any]:
    """A puzzle's position and rating (and the player's attempt at it, with a token)."""
    store = _store(request)
    set_name, p = await _find(puzzle_id)
    player = await _player(store, token, required=False)
    return puzzle_json(
        set_name, p, await store.puzzle_rating(p.id), await _attempt(store, player, p.id)
    )


def _place_all(p: Puzzle) -> None:
    if p.kind is not PuzzleKind.PLACE_ALL:
        raise ServiceError(
            ErrorCode.WRONG_FAMILY,
            "tables are judged in place-every-card puzzles; answer this one with /answer",
            422,
        )


def _indian(p: Puzzle) -> IndianRules:
    rules = find_preset(p.game)
    if not isinstance(rules, IndianRules):
        raise ServiceError(
            ErrorCode.WRONG_FAMILY,
            "this puzzle is answered with a table: send it to /submit",
            422,
        )
    return rules


@functools.lru_cache(maxsize=32)
def _packed(preset: str) -> bytes:
    """A preset's rules pickled once for the worker jobs (not on the event loop per check)."""
    return pack_rules(find_preset(preset))


async def _judge(request: Request, p: Puzzle, req: CheckRequest) -> dict[str, Any]:
    _place_all(p)
    rules = find_preset(p.game)
    _check_fits(rules, req)
    result: dict[str, Any] = await _workers(request).run_check(
        client_key(request),
        judge_job,
        _packed(p.game),
        [str(m) for m in p.table],
        [str(c) for c in p.hand],
        list(req.table),
        hand_only=req.hand_only,
        retrievals=list(req.retrievals),
    )
    return result


@router.post("/api/puzzles/{puzzle_id}/check", responses=error_answers(404, 413, 422, 503))
async def check(puzzle_id: str, req: CheckRequest, request: Request) -> dict[str, Any]:
    """Judge a table being built (meld by meld, then the engine's commit checks); nothing is
    rated."""
    _set_name, p = await _find(puzzle_id)
    return await _judge(request, p, req)


@router.post(
    "/api/puzzles/{puzzle_id}/submit",
    responses=error_answers(401, 403, 404, 413, 422, 503),
)
async def submit(
    puzzle_id: str, req: CheckRequest, token: MaybeToken, request: Request
) -> dict[str, Any]:
    """The player's answer: the table after the play (and any jokers retrieved).

    Not a valid play: the engine's reasons, and nothing changes. A valid play is a rated
    attempt (the player's first at this puzzle): solved if the hand is empty, else lost.
    """
    store = _store(request)
    _set_name, p = await _find(puzzle_id)
    player = await _player(store, token, required=True)
    assert player is not None
    judged = await _judge(request, p, req)
    out = {k: judged[k] for k in ("valid", "solved", "left", "messages")}
    if not judged["valid"]:
        out.update(rated=False, player=player_json(player))
        return out
    out.update(await _rated(store, player, p, None if judged["solved"] else 0.0))
    return out


def _indian_solution(p: Puzzle) -> dict[str, Any]:
    """An Indian puzzle's answer as data: the action in notation, the card, the draw and the
    declared groups (the page words them)."""
    out: dict[str, Any] = {
        "card": str(p.card) if p.card is not None else None,
        "draw": p.draw,
        "groups": [str(m) for m in p.solution],
    }
    if p.kind is PuzzleKind.SAFE_THROW:
        out["answer"] = f"discard {p.card}"
    elif p.kind is PuzzleKind.DECLARE:
        out["answer"] = f"declare {p.card} " + " ".join(out["groups"])
    else:
        out["answer"] = str(p.draw)
    return out


async def _steps(request: Request, p: Puzzle, lang: str) -> list[str]:
    if p.kind is not PuzzleKind.PLACE_ALL:
        return []
    steps: list[str] = await _workers(request).run(
        client_key(request),
        steps_job,
        find_preset(p.game),
        [str(m) for m in p.table],
        [str(m) for m in p.solution],
        lang,
    )
    return steps


@router.post("/api/puzzles/{puzzle_id}/hint", responses=error_answers(401, 403, 404, 422, 503))
async def hint(
    puzzle_id: str, req: StepsRequest, token: MaybeToken, request: Request
) -> dict[str, Any]:
    """The first step of the stored solution; a solution after it scores half."""
    store = _store(request)
    _set_name, p = await _find(puzzle_id)
    player = await _player(store, token, required=False)
    steps = await _steps(request, p, req.lang)
    out: dict[str, Any] = {"step": steps[0] if steps else None, "steps": len(steps)}
    if p.kind is PuzzleKind.DECLARE:
        # The first group of the declaration.
        out.update(group=str(p.solution[0]), steps=len(p.solution))
    elif p.kind is not PuzzleKind.PLACE_ALL:
        raise ServiceError(ErrorCode.NO_HINT, "the hint would be the whole answer", 422)
    if player is not None:
        await store.puzzle_hinted(player.id, p.id, at=time.time())
    return out


@router.post("/api/puzzles/{puzzle_id}/solution", responses=error_answers(401, 403, 404, 422, 503))
async def solution(
    puzzle_id: str, req: StepsRequest, token: MaybeToken, request: Request
) -> dict[str, Any]:
    """Give up: the stored solution as steps and as a table. With a player's token this is
    a lost attempt (if the player had none rated at this puzzle)."""
    store = _store(request)
    _set_name, p = await _find(puzzle_id)
    player = await _player(store, token, required=False)
    steps = await _steps(request, p, req.lang)
    out: dict[str, Any] = {"steps": steps, "table": [str(m) for m in p.solution]}
    if p.kind is not PuzzleKind.PLACE_ALL:
        out = {"steps": [], **_indian_solution(p)}
    if player is not None:
        out.update(await _rated(store, player, p, 0.0))
    return out


class AnswerRequest(_Strict):
    """``POST /api/puzzles/{id}/answer``: an Indian puzzle's answer in the action notation
    (``discard 8H``; ``take`` or ``draw``; ``declare QC [3H 4H 5H] ...``)."""

    answer: str = Field(min_length=1, max_length=400)


@router.post(
    "/api/puzzles/{puzzle_id}/answer",
    responses=error_answers(401, 403, 404, 413, 422, 503),
)
async def answer(
    puzzle_id: str, req: AnswerRequest, token: MaybeToken, request: Request
) -> dict[str, Any]:
    """An Indian puzzle's answer. Unreadable or a declaration the rules refuse: the reasons,
    and nothing changes. Otherwise a rated attempt: the one safe throw, the draw that wins,
    any valid declaration solve it; another throw or draw is lost."""
    store = _store(request)
    _set_name, p = await _find(puzzle_id)
    _indian(p)
    player = await _player(store, token, required=True)
    assert player is not None
    out: dict[str, Any] = await _workers(request).run(
        client_key(request), answer_job, p, req.answer
    )
    if not out["valid"]:
        out.update(rated=False, player=player_json(player))
        return out
    out.update(await _rated(store, player, p, None if out["solved"] else 0.0))
    return out


@router.post(
    "/api/puzzles/{puzzle_id}/hand",
    responses=error_answers(404, 413, 422, 503),
)
async def hand(puzzle_id: str, req: HandRequest, request: Request) -> dict[str, Any]:
    """An Indian puzzle's hand as the player groups it: each group's kind, the deadwood, and
    the verdict on a declaration (as the game page's ``/hand``; no auto-arrangement, which
    would give the answer away)."""
    _set_name, p = await _find(puzzle_id)
    rules = _indian(p)
    _hand_fits(rules, req)
    assert p.indicator is not None
    cards = [str(c) for c in p.hand]
    if p.kind is PuzzleKind.WINNING_DRAW:
        cards += [str(c) for c in p.discard[-1:]]
    result: dict[str, Any] = await _workers(request).run(
        client_key(request),
        hand_job,
        rules,
        cards,
        str(p.indicator),
        groups=req.groups,
        finish=req.finish,
        auto=False,
    )
    if "refused" in result:
        raise ServiceError(ErrorCode.BAD_HAND, result["refused"], 422)
    return result
