"""The web interface's side of the server: static files at ``/`` and the helpers a page needs.

The page itself (``openrummy/web``: HTML, CSS, ES modules) talks to the same REST API and
WebSocket as any client (``docs/protocol.md``). What it needs beyond them lives here, so the
rules are never written twice (once in Python, once in JavaScript):

* ``GET  /api/tables/{id}/rules``: every option of the table's rules, and the derived
  numbers a page shows (opening threshold, penalty draw, drop costs).
* ``POST /api/tables/{id}/check``: a seated player's proposed table, meld by meld (valid,
  why not, its opening value, the joker identities that fit), and what the engine's commit
  checks would say if it were submitted now.
  The judging is the engine's (:func:`openrummy.games.judge.check_table`).
* ``POST /api/tables/{id}/hint``: the table solver's best play for the seat's own view,
  with the steps to get there (``openrummy.solve.explain``) in English or German.
* ``POST /api/tables/{id}/hand``: Indian Rummy: the deadwood of the player's grouping, the
  hand solver's best grouping, and the verdict on a declaration before it is made.
  The judging is the engine's (:func:`openrummy.games.judge.judge_hand`).
* ``GET  /api/tables/{id}/replay?step=k``: a finished game after k actions, every hand shown.
* ``POST /api/tables/{id}/rematch``: after the game, the same seats and rules again with a
  new seed (``GET`` tells whether one was offered).

Every helper that sees a hand takes the seat token (``Authorization: Bearer …``) and uses
only that seat's view: nothing here tells a player more than the game already shows them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import secrets
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import Scope

from openrummy.cards import Card
from openrummy.errors import RummyError
from openrummy.games.families import new_match
from openrummy.games.manipulation import ActionKind
from openrummy.messages import CATALOGUE_PATH
from openrummy.rules import find_preset

from .core import client_view, event_info, uses_tiles
from .errors import ErrorCode, ServiceError
from .jobs import check_job, deck_counts_of, hand_job, hint_job, over_deck, table_cards
from .protocol import CreateTable, JoinRequest, SeatSpec, StartRequest, error_answers
from .service import Live, TableService, hash_token
from .workers import CHECK, Workers

__all__ = ["install_web", "web_dir"]


def web_dir() -> Path:
    """The folder of the static front end (``openrummy/web``)."""
    return Path(str(resources.files("openrummy") / "web"))


class _NoCacheStatic(StaticFiles):
    """Static files that the browser revalidates each time (ETag), so an upgrade is seen."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response

    async def get_response(self, path: str, scope: Scope) -> Response:
        return await super().get_response(path, scope)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


DECK_MAX = 216
"""The most cards any preset's deck may hold (4 decks and 8 jokers): no body names more."""
CardText = Annotated[str, Field(max_length=8, description="A card in notation: 10H, AS, JK.")]


class CheckRequest(_Strict):
    """A proposed table: melds in notation (``[5H 6H JK]``: a joker may be left open).

    Beyond these limits, a table is refused (413 ``too_large``) before it is judged when it
    holds more melds than the table's deck has cards, more of a card than the deck has, or
    more retrievals than the deck has jokers.
    """

    table: list[Annotated[str, Field(max_length=400)]] = Field(max_length=DECK_MAX)
    hand_only: list[bool] | None = Field(
        default=None,
        max_length=DECK_MAX,
        description="Per meld: made only of cards from the hand (opening melds).",
    )
    retrievals: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list, max_length=8
    )


class HintRequest(_Strict):
    lang: str = Field(default="en", pattern="^(en|de)$")


class HandRequest(_Strict):
    """Indian Rummy: the player's groups (cards in notation), an optional finish card.

    Groups of more cards in all than a hand holds after its draw are refused (413
    ``too_large``) before they are judged.
    """

    groups: list[Annotated[list[CardText], Field(max_length=22)]] = Field(
        default_factory=list, max_length=30
    )
    finish: CardText | None = None
    auto: bool = False


async def _bearer(authorization: Annotated[str | None, Header()] = None) -> str:
    if authorization is None or not authorization.strip():
        raise ServiceError(
            ErrorCode.MISSING_TOKEN, "send the seat token as 'Authorization: Bearer …'", 401
        )
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServiceError(
            ErrorCode.MISSING_TOKEN, "the Authorization header must read 'Bearer <token>'", 401
        )
    return token.strip()


SeatToken = Annotated[str, Depends(_bearer)]


def _service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


def _workers(request: Request) -> Workers:
    workers: Workers = request.app.state.workers
    return workers


def client_key(request: Request) -> str:
    """Whose budget a request uses: the client's address (the proxy's, forwarded, behind
    one that uvicorn trusts)."""
    return request.client.host if request.client is not None else "unknown"


def _too_large(detail: str) -> ServiceError:
    return ServiceError(ErrorCode.TOO_LARGE, detail, 413)


def _check_fits(rules: Any, req: CheckRequest) -> None:
    """Refuse a proposed table that no game with these rules could hold (before judging)."""
    deck = rules.deck
    why = _fit_problem(
        (deck.standard_decks, deck.printed_jokers, bool(getattr(rules, "tiles", False))),
        tuple(req.table),
        len(req.retrievals),
    )
    if why is not None:
        raise _too_large(why)


@functools.lru_cache(maxsize=64)
def _fit_problem(
    deck: tuple[int, int, bool], table: tuple[str, ...], retrievals: int
) -> str | None:
    """Why no game with this deck holds ``table`` (None: one may). Remembered: a client
    that sends the same table again (a page judging as the player drags, a script sending
    it back to back) costs the event loop a look-up, not a count of every card."""
    counts = deck_counts_of(*deck)
    size = sum(counts.values())
    if len(table) > size:
        return f"{len(table)} melds: the deck has only {size} cards"
    why = over_deck(counts, table_cards(table))
    if why is not None:
        return f"no table of this game holds these melds: {why}"
    jokers = counts.get(Card.parse("JK"), 0)
    if retrievals > jokers:
        return f"{retrievals} retrievals: the deck has {jokers} jokers"
    return None


def _hand_fits(rules: Any, req: HandRequest) -> None:
    most = rules.deal.hand_size + 1
    n = sum(len(g) for g in req.groups)
    if n > most:
        raise _too_large(f"the groups hold {n} cards; a hand holds at most {most}")


async def _live(service: TableService, table_id: str) -> Live:
    live = await service.get_live(table_id)
    if live is None:
        raise ServiceError(ErrorCode.NOT_FOUND, f"there is no table {table_id!r}", 404)
    return live


async def _seated(service: TableService, table_id: str, token: str) -> tuple[Live, int]:
    live = await _live(service, table_id)
    h = hash_token(token)
    for s in live.row.seats:
        if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
            if live.match is None:
                raise ServiceError(ErrorCode.NOT_STARTED, "the game has not started yet", 409)
            return live, s.idx
    raise ServiceError(ErrorCode.BAD_TOKEN, f"this token holds no seat at table {table_id}", 403)


def _cards(texts: list[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


# -- rules ------------------------------------------------------------------------------------
def rules_info(rules: Any) -> dict[str, Any]:
    """What a page shows of a table's rules, beside every option by its RULES.md name."""
    family = rules.family
    out: dict[str, Any] = {
        "preset": rules.name,
        "title": rules.title,
        "family": family,
        "options": rules.options(),
    }
    if family == "manipulation":
        from openrummy.games.commit import opening_required

        out["tiles"] = bool(rules.tiles)
        out["opening_required"] = opening_required(rules)
        out["opening_type"] = rules.opening.type.name
        out["threshold"] = rules.opening.threshold
        out["penalty_draw"] = rules.fail.penalty_draw
    else:
        first, middle = rules.drop_values()
        out["tiles"] = False
        out["drop"] = {"first": first, "middle": middle}
        out["invalid_penalty"] = rules.declare.invalid_penalty
        out["hand_size"] = rules.deal.hand_size
    return out


# -- replay -------------------------------------------------------------------------------------
async def replay_frame(service: TableService, table_id: str, step: int) -> dict[str, Any]:
    """A finished game after ``step`` actions: the public view plus every hand."""
    row = await service.store.get_table(table_id)
    if row is None:
        raise ServiceError(ErrorCode.NOT_FOUND, f"there is no table {table_id!r}", 404)
    game = row.game
    if game is None:
        raise ServiceError(ErrorCode.NO_GAME, f"table {table_id} has not started a game", 404)
    if game.status == "running":
        raise ServiceError(
            ErrorCode.NOT_FINISHED,
            "the replay opens when the game is over (the hands are secret)",
            409,
        )
    rules = find_preset(row.preset, row.options)
    actions = await service.store.actions(table_id)
    step = max(0, min(step, len(actions)))

    def build() -> dict[str, Any]:
        match: Any = new_match(rules, row.players, seed=game.seed, started_at=game.started_at)
        result = None
        for a in actions[:step]:
            action = dataclasses.replace(match.parse_action(a.action, a.seat), at=a.at)
            result = match.apply(action)
        now = actions[step - 1].at if step else game.started_at
        view = client_view(match.view(None, now=now).to_json())
        hands = []
        for s in range(row.players):
            try:
                hands.append(match.view(s, now=now).to_json()["hand"])
            except RummyError:
                hands.append(None)
        event = (
            event_info(actions[step - 1], result, names, tiles=uses_tiles(rules))
            if result is not None
            else None
        )
        return {"view": view, "hands": hands, "event": event}

    names = [s.name or f"seat {s.idx}" for s in row.seats]
    frame = await asyncio.to_thread(build)
    return {"step": step, "steps": len(actions), "names": names, **frame}


# -- rematch ------------------------------------------------------------------------------------
@dataclasses.dataclass
class Rematches:
    """The rematch offered after each finished table (old table id -> new table id)."""

    tables: dict[str, str] = dataclasses.field(default_factory=dict)
    lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)


def _rematches(request: Request) -> Rematches:
    found: Rematches = request.app.state.rematches
    return found


async def rematch(
    service: TableService, offers: Rematches, table_id: str, token: str, *, client: str = "local"
) -> dict[str, Any]:
    """The same seats and rules again, with a new seed: the first player to ask creates the
    table (bots keep their seats and names; a table of one person and bots starts at once),
    the others take their old seats at it."""
    row = await service.store.get_table(table_id)
    if row is None:
        raise ServiceError(ErrorCode.NOT_FOUND, f"there is no table {table_id!r}", 404)
    if row.game is None or row.status not in ("finished", "closed"):
        raise ServiceError(
            ErrorCode.NOT_FINISHED, "a rematch is offered when the game is over", 409
        )
    h = hash_token(token)
    seat = next(
        (s for s in row.seats if s.token_hash and secrets.compare_digest(s.token_hash, h)), None
    )
    if seat is None:
        raise ServiceError(
            ErrorCode.BAD_TOKEN, f"this token holds no seat at table {table_id}", 403
        )
    name = seat.name or f"Player {seat.idx + 1}"
    async with offers.lock:
        new_id = offers.tables.get(table_id)
        if new_id is None:
            created = await service.create(
                CreateTable(
                    preset=row.preset,
                    options=row.options,
                    seats=[
                        SeatSpec(kind="bot", bot=s.bot, name=s.name)
                        if s.kind == "bot"
                        else SeatSpec(kind="human")
                        for s in row.seats
                    ],
                    title=row.title,
                    creator_seat=seat.idx,
                    creator_name=name,
                    bot_pause=row.bot_pause,
                ),
                client=client,
            )
            new_id = created.table.id
            offers.tables[table_id] = new_id
            if all(s.kind == "bot" or s.idx == seat.idx for s in row.seats):
                await service.start_game(new_id, created.creator_token, StartRequest())
            return {
                "table_id": new_id,
                "seat": seat.idx,
                "token": created.seat_token,
                "creator_token": created.creator_token,
            }
    joined = await service.join(new_id, JoinRequest(name=name, seat=seat.idx))
    return {"table_id": new_id, "seat": joined.seat, "token": joined.token, "creator_token": None}


# -- the router ---------------------------------------------------------------------------------
def _router() -> APIRouter:
    router = APIRouter(tags=["web"])

    @router.get("/api/tables/{table_id}/rules", responses=error_answers(404))
    async def table_rules(table_id: str, request: Request) -> dict[str, Any]:
        """The table's rules: every option and what the page shows (threshold, drop costs)."""
        live = await _live(_service(request), table_id)
        return rules_info(live.rules)

    @router.get("/api/presets/{preset}/rules", responses=error_answers(404))
    async def preset_rules(preset: str) -> dict[str, Any]:
        """A preset's rules, as for a table (the lobby shows its defaults)."""
        try:
            rules = find_preset(preset)
        except RummyError as e:
            raise ServiceError(ErrorCode.NOT_FOUND, str(e), 404) from None
        return rules_info(rules)

    @router.post(
        "/api/tables/{table_id}/check",
        responses=error_answers(401, 403, 404, 409, 413, 422, 503),
    )
    async def check(
        table_id: str, req: CheckRequest, token: SeatToken, request: Request
    ) -> dict[str, Any]:
        """Judge a proposed table for the seat of the token (nothing is played)."""
        live, seat = await _seated(_service(request), table_id, token)
        if live.row.family != "manipulation":
            raise ServiceError(
                ErrorCode.WRONG_FAMILY, "tables are checked in manipulation games", 422
            )
        _check_fits(live.rules, req)
        # Refuse over budget before the position is taken.
        _workers(request).admit(client_key(request), CHECK)
        match = live.match
        game = match.game
        local = match.seats.index(seat) if seat in match.seats else None
        # The play's commit checks need the position only when it is the seat's turn to play;
        # the position is a few strings (the game plays on while a worker judges).
        my_turn = (
            local is not None and game.current == local and ActionKind.PLAY in game.legal_kinds()
        )
        return await _workers(request).run_check(
            client_key(request),
            check_job,
            live.packed_rules,
            req.table,
            opened=local is not None and bool(game.opened[local]),
            hand_only=req.hand_only,
            retrievals=req.retrievals,
            position=game.play_position(local) if my_turn else None,
        )

    @router.post(
        "/api/tables/{table_id}/hint",
        responses=error_answers(401, 403, 404, 409, 413, 422, 503),
    )
    async def table_hint(
        table_id: str, req: HintRequest, token: SeatToken, request: Request
    ) -> dict[str, Any]:
        """The best play for the token's seat (table solver), with steps in words."""
        live, seat = await _seated(_service(request), table_id, token)
        if live.row.family != "manipulation":
            raise ServiceError(ErrorCode.WRONG_FAMILY, "hints are given in manipulation games", 422)
        view = live.match.view(seat).to_json()
        if view.get("hand") is None:
            raise ServiceError(
                ErrorCode.NOT_SEATED, "this seat does not play the current round", 409
            )
        answer = await _workers(request).run(
            client_key(request), hint_job, live.packed_rules, view, req.lang
        )
        if "refused" in answer:
            raise ServiceError(ErrorCode.NO_HINT, answer["refused"], 422)
        return answer

    @router.post(
        "/api/tables/{table_id}/hand",
        responses=error_answers(401, 403, 404, 409, 413, 422, 503),
    )
    async def hand(
        table_id: str, req: HandRequest, token: SeatToken, request: Request
    ) -> dict[str, Any]:
        """Indian Rummy: judge the token's grouping, auto-arrange, check a declaration."""
        live, seat = await _seated(_service(request), table_id, token)
        if live.row.family != "indian":
            raise ServiceError(ErrorCode.WRONG_FAMILY, "hands are arranged in Indian Rummy", 422)
        _hand_fits(live.rules, req)
        view = live.match.view(seat).to_json()
        if view.get("hand") is None:
            raise ServiceError(
                ErrorCode.NOT_SEATED, "this seat does not play the current hand", 409
            )
        answer = await _workers(request).run(
            client_key(request),
            hand_job,
            live.packed_rules,
            view["hand"] or [],
            view["indicator"],
            groups=req.groups,
            finish=req.finish,
            auto=req.auto,
        )
        if "refused" in answer:
            raise ServiceError(ErrorCode.BAD_HAND, answer["refused"], 422)
        return answer

    @router.get("/api/tables/{table_id}/replay", responses=error_answers(404, 409))
    async def replay(
        table_id: str, request: Request, step: Annotated[int, Query(ge=0)] = 0
    ) -> dict[str, Any]:
        """A finished game after ``step`` actions, every hand shown (step-through replay)."""
        return await replay_frame(_service(request), table_id, step)

    @router.post("/api/tables/{table_id}/rematch", responses=error_answers(401, 403, 404, 409, 429))
    async def table_rematch(table_id: str, token: SeatToken, request: Request) -> dict[str, Any]:
        """After the game: the same seats and rules with a new seed (the answer holds this
        seat's token at the new table, and the creator token to whoever asked first)."""
        return await rematch(
            _service(request), _rematches(request), table_id, token, client=client_key(request)
        )

    @router.get("/api/tables/{table_id}/rematch", responses=error_answers(404))
    async def offered_rematch(table_id: str, request: Request) -> dict[str, Any]:
        """The rematch table offered after this one, if a player asked for one."""
        new_id = _rematches(request).tables.get(table_id)
        if new_id is None:
            raise ServiceError(ErrorCode.NOT_FOUND, f"no rematch of table {table_id!r} yet", 404)
        return {"table_id": new_id}

    return router


def install_web(app: FastAPI) -> None:
    """Add the page (``/``, ``/static``) and its helpers to the server app."""
    app.state.rematches = Rematches()
    app.include_router(_router())
    folder = web_dir()

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(folder / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/messages/catalogue.json", include_in_schema=False)
    async def messages() -> FileResponse:
        """The message catalogue the page words events and reasons with."""
        return FileResponse(CATALOGUE_PATH, headers={"Cache-Control": "no-cache"})

    app.mount("/static", _NoCacheStatic(directory=folder), name="static")
