"""The FastAPI app: REST under ``/api``, one WebSocket per seat under ``/ws``.

``create_app(settings)`` builds the app (the database is migrated and unfinished games are
rebuilt when it starts); :func:`serve` runs it with uvicorn, as ``rummy serve`` does.
The OpenAPI documentation is served at ``/docs``; the WebSocket protocol is described in
``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, WebSocket
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from sqlalchemy.engine import make_url
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect, WebSocketState

import openrummy

from .analysis_api import analysis_router
from .bus import Bus, NullBus, PostgresBus
from .errors import ErrorCode, ServiceError
from .heap import HeapPolicy
from .policy import AddressBuckets
from .protocol import (
    PROTOCOL_VERSION,
    ActionMessage,
    CreatedTable,
    CreateTable,
    HelloMessage,
    Joined,
    JoinRequest,
    PingMessage,
    ResumeMessage,
    StartRequest,
    SyncMessage,
    TableInfo,
    client_message,
    error_answers,
)
from .puzzles_api import router as puzzles_router
from .service import Conn, TableService
from .settings import Settings
from .store import Store
from .web import client_key, install_web
from .workers import CHECK, HELPER, Workers

__all__ = ["create_app", "serve"]

log = logging.getLogger("openrummy.server")

DESCRIPTION = """
Tables of Robbers' Rummy, Rummikub and (when installed) Indian Rummy.

* Create a table, join a seat (you get a **seat token**), start it as its creator (with the
  **creator token**); tokens go in `Authorization: Bearer <token>`.
* Play over the WebSocket `/ws/tables/{table_id}`: send `{"type": "hello", "token": …}`,
  then actions (`docs/protocol.md`).
* Finished games stay listed; `GET /api/tables/{id}/record` gives the record with the
  revealed seed, to check with `rummy replay --verify`.
"""

ERROR_CODES = {
    "json_invalid": ErrorCode.BAD_JSON,
    "union_tag_invalid": ErrorCode.UNKNOWN_TYPE,
    "union_tag_not_found": ErrorCode.MISSING_TYPE,
    "model_attributes_type": ErrorCode.BAD_MESSAGE,
    "model_type": ErrorCode.BAD_MESSAGE,
}


async def bearer(authorization: Annotated[str | None, Header()] = None) -> str:
    """The token of ``Authorization: Bearer <token>`` (401 when missing)."""
    if authorization is None or not authorization.strip():
        raise ServiceError(
            ErrorCode.MISSING_TOKEN, "send the token as 'Authorization: Bearer <token>'", 401
        )
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServiceError(
            ErrorCode.MISSING_TOKEN, "the Authorization header must read 'Bearer <token>'", 401
        )
    return token.strip()


Token = Annotated[str, Depends(bearer)]


def error_response(exc: ServiceError) -> JSONResponse:
    """A refusal as a REST answer: ``{"error": code, "message": …}`` (and ``why``), with
    ``Retry-After`` when the refusal says how long to wait."""
    content: dict[str, Any] = {"error": exc.code, "message": exc.message}
    headers: dict[str, str] = {}
    if exc.why is not None:
        content["why"] = exc.why
        wait = exc.why.get("retry_after")
        if isinstance(wait, int):
            headers["Retry-After"] = str(wait)
    return JSONResponse(status_code=exc.status, content=content, headers=headers)


class _TooLarge(HTTPException):
    """A chunked body grew past the limit (raised while the route reads it)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413)
        self.refusal = _body_refusal(limit)


def _body_refusal(limit: int) -> ServiceError:
    return ServiceError(ErrorCode.TOO_LARGE, f"request bodies are limited to {limit} bytes", 413)


class BodyLimit:
    """Refuse a REST body larger than ``limit`` bytes (413 ``too_large``) before it is read
    whole: by its ``Content-Length``, or, sent in chunks, as soon as it grows past it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await error_response(_body_refusal(self.limit))(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge(self.limit)
            return message

        await self.app(scope, counted, send)


_HELPER_ROUTES = {
    "/api/tables/": ("/check", "/hint", "/hand"),
    "/api/puzzles/": ("/check", "/submit", "/answer", "/hand"),
}


def _helper_route(path: str) -> bool:
    return any(
        path.startswith(prefix) and path.endswith(ends) for prefix, ends in _HELPER_ROUTES.items()
    )


class HelperGate:
    """Refuse a helper request (a table's ``/check``, ``/hint``, ``/hand``; a puzzle's
    ``/check``, ``/submit``, ``/answer``, ``/hand``) whose client is over its budget
    (``busy``, 503) before its body is read: a refused request then costs the event loop no
    parsing, however large its body."""

    def __init__(self, app: ASGIApp, workers: Workers) -> None:
        self.app = app
        self.workers = workers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and _helper_route(scope["path"]):
            client = scope.get("client")
            path: str = scope["path"]
            kind = CHECK if path.endswith(("/check", "/submit")) else HELPER
            try:
                self.workers.admit(client[0] if client else "unknown", kind)
            except ServiceError as e:
                await error_response(e)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class Connections:
    """The WebSocket connections of each client address: how many are open, and a bucket of
    new ones (``ws_per_client``, ``ws_connects_per_minute``)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.open: dict[str, int] = {}
        self.connects = AddressBuckets(
            rate=settings.ws_connects_per_minute / 60,
            burst=max(1, int(settings.ws_connects_per_minute)),
        )

    def admit(self, address: str) -> bool:
        """Whether a new connection from ``address`` may open (it is then counted)."""
        if self.settings.limited(address):
            if self.open.get(address, 0) >= self.settings.ws_per_client:
                return False
            if not self.connects.take(address):
                return False
        self.open[address] = self.open.get(address, 0) + 1
        return True

    def closed(self, address: str) -> None:
        left = self.open.get(address, 1) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)


class ConnectionGate:
    """Refuse a WebSocket from an address over its limits (:class:`Connections`) before it
    is accepted or routed (HTTP 403): a refusal costs the event loop the handshake's
    parsing only, and one address cannot multiply the connection's message rate by
    opening more connections."""

    def __init__(self, app: ASGIApp, connections: Connections) -> None:
        self.app = app
        self.connections = connections

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if not self.connections.admit(address):
            await send({"type": "websocket.close", "code": 1008, "reason": "too many connections"})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.connections.closed(address)


def _redact(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def create_app(settings: Settings | None = None, *, manage_heap: bool = False) -> FastAPI:
    """The server app for ``settings`` (defaults and ``OPENRUMMY_*`` variables if omitted).

    ``manage_heap`` installs the process-wide garbage-collector policy of ``server/heap.py``
    (``rummy serve`` does; apps built inside another program, such as tests, do not).
    """
    settings = settings or Settings.from_env()
    heap = HeapPolicy(settings.gc_full_every) if manage_heap and settings.gc_full_every else None
    store = Store(settings.db, sqlite_synchronous=settings.sqlite_synchronous)
    bus: Bus = NullBus() if store.is_sqlite else PostgresBus(settings.db)
    service = TableService(store, settings, bus)
    workers = Workers(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await store.migrate()
        await store.start()
        await service.start()
        workers.prestart()
        if heap is not None:
            heap.install()
        log.info("OpenRummy server ready (database %s)", _redact(settings.db))
        try:
            yield
        finally:
            if heap is not None:
                await heap.uninstall()
            await service.stop()
            await workers.aclose()
            await store.close()

    app = FastAPI(
        title="OpenRummy",
        version=openrummy.__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.settings = settings
    app.state.workers = workers
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(HelperGate, workers=workers)
    app.state.connections = connections = Connections(settings)
    app.add_middleware(ConnectionGate, connections=connections)

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(_TooLarge)
    async def _too_large(_request: Request, exc: _TooLarge) -> JSONResponse:
        return error_response(exc.refusal)

    # -- REST -----------------------------------------------------------------------------
    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
        """Liveness: the server runs and the protocol version it speaks."""
        return {"ok": True, "protocol": PROTOCOL_VERSION, "version": openrummy.__version__}

    @app.get("/api/presets", tags=["server"])
    async def presets() -> list[dict[str, Any]]:
        """The rule presets a table can use."""
        from openrummy.rules import find_preset, preset_names

        out = []
        for name in preset_names():
            rules = find_preset(name)
            out.append(
                {
                    "name": name,
                    "title": rules.title,
                    "family": rules.family,
                    "players": [rules.players.min, rules.players.max],
                }
            )
        return out

    @app.get("/api/bots", tags=["server"])
    async def bots(family: str | None = None) -> list[dict[str, Any]]:
        """The bot kinds a seat can have (weakest first). ``difficulty`` marks the four
        levels players choose from (``easy``, ``medium``, ``hard``, ``expert``; the
        catalogue's ``level.KIND.LEVEL`` says what each does in a game); the others are the
        research bots the levels are made of."""
        from openrummy.bots import bot_infos
        from openrummy.bots.levels import LEVELS

        return [
            {
                "name": i.name,
                "description": i.description,
                "level": i.level,
                "families": sorted(i.families),
                "difficulty": i.name in LEVELS,
            }
            for i in bot_infos(family)
        ]

    @app.post(
        "/api/tables", status_code=201, tags=["tables"], responses=error_answers(413, 422, 429)
    )
    async def create_table(req: CreateTable, request: Request) -> CreatedTable:
        """Create a table: preset, options, match format, seats (human or bot), time limit."""
        return await service.create(req, client=client_key(request))

    @app.get("/api/tables", tags=["tables"], responses=error_answers(422))
    async def list_tables(
        status: Annotated[
            list[str] | None,
            Query(description="open, running, finished, closed (default: open and running)"),
        ] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> list[TableInfo]:
        """Tables, newest first."""
        statuses = status or ["open", "running"]
        bad = [s for s in statuses if s not in ("open", "running", "finished", "closed")]
        if bad:
            raise ServiceError(ErrorCode.BAD_STATUS, f"unknown status {bad[0]!r}", 422)
        return await service.list_tables(statuses, limit)

    @app.get("/api/tables/{table_id}", tags=["tables"], responses=error_answers(404))
    async def get_table(table_id: str) -> TableInfo:
        return await service.info(table_id)

    @app.post(
        "/api/tables/{table_id}/join", tags=["tables"], responses=error_answers(404, 409, 413, 422)
    )
    async def join(table_id: str, req: JoinRequest) -> Joined:
        """Take a free human seat; the answer holds the seat token (shown only once)."""
        return await service.join(table_id, req)

    @app.post(
        "/api/tables/{table_id}/leave", tags=["tables"], responses=error_answers(401, 403, 404, 409)
    )
    async def leave(table_id: str, token: Token) -> TableInfo:
        """Give up the seat of this seat token (in a running game a stand-in plays on)."""
        return await service.leave(table_id, token)

    @app.post(
        "/api/tables/{table_id}/start",
        tags=["tables"],
        responses=error_answers(401, 403, 404, 409, 413, 422),
    )
    async def start(table_id: str, token: Token, req: StartRequest | None = None) -> TableInfo:
        """Start the game (creator token); publishes the seed commitment."""
        return await service.start_game(table_id, token, req or StartRequest())

    @app.post(
        "/api/tables/{table_id}/close", tags=["tables"], responses=error_answers(401, 403, 404, 409)
    )
    async def close(table_id: str, token: Token) -> TableInfo:
        """Close the table (creator token); a running game is aborted and its seed revealed."""
        return await service.close(table_id, token)

    @app.get("/api/tables/{table_id}/view", tags=["watch"], responses=error_answers(404))
    async def public_view(table_id: str) -> dict[str, Any]:
        """What a spectator sees now (the WebSocket sends it after every action)."""
        return await service.public_view(table_id)

    @app.get("/api/tables/{table_id}/log", tags=["watch"], responses=error_answers(404))
    async def game_log(table_id: str) -> list[dict[str, Any]]:
        """Every applied action with its event in words."""
        return await service.events(table_id)

    @app.get("/api/tables/{table_id}/record", tags=["watch"], responses=error_answers(404, 409))
    async def record(table_id: str) -> dict[str, Any]:
        """The game record (docs/record-format.md) once the game is over, seed revealed."""
        return await service.record(table_id)

    # The web interface: the page at / and its helpers (openrummy.server.web).
    install_web(app)
    app.include_router(puzzles_router)  # the puzzles page (openrummy.server.puzzles_api)
    app.include_router(analysis_router())  # the web replay's analysis (server/analysis_api.py)

    # -- WebSocket ------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()

        def close(code: int, reason: str) -> None:
            service.spawn(_close(websocket, code, reason))

        client = websocket.client
        conn = Conn(settings, close, client.host if client is not None else "unknown")
        writer = asyncio.create_task(_writer(websocket, conn))
        try:
            await _reader(websocket, conn, service, settings, table_id)
        finally:
            service.disconnect(conn)
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer

    return app


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code, reason)


async def _writer(websocket: WebSocket, conn: Conn) -> None:
    with contextlib.suppress(Exception):
        while True:
            text = await conn.queue.get()
            await websocket.send_text(text)
            conn.queue.task_done()


async def _reader(
    websocket: WebSocket, conn: Conn, service: TableService, settings: Settings, table_id: str
) -> None:
    limit = settings.max_message_bytes
    while True:
        try:
            msg = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if msg["type"] == "websocket.disconnect":
            return
        if websocket.client_state is not WebSocketState.CONNECTED:
            return
        if not conn.bucket.take():
            conn.error(
                ErrorCode.RATE_LIMITED,
                f"too many messages: at most {settings.rate_per_second:g} per second "
                f"(bursts of {settings.rate_burst}); this one was dropped",
            )
            continue
        text = msg.get("text")
        if text is None:
            conn.error(ErrorCode.BAD_FRAME, "send JSON as text frames, not binary")
            continue
        if len(text) > limit or len(text.encode("utf-8")) > limit:
            conn.error(
                ErrorCode.TOO_LARGE, f"messages are limited to {limit} bytes; this one was dropped"
            )
            continue
        try:
            message = client_message.validate_json(text)
        except ValidationError as e:
            first = e.errors()[0]
            code = ERROR_CODES.get(first["type"], ErrorCode.BAD_MESSAGE)
            where = ".".join(str(p) for p in first["loc"])
            detail = first["msg"] + (f" at {where}" if where else "")
            if code is ErrorCode.UNKNOWN_TYPE:
                detail = (
                    "unknown message type; known: hello, action, sync, ping, resume "
                    f"({first['msg']})"
                )
            conn.error(code, detail)
            continue
        reply_to = getattr(message, "id", None)
        try:
            await _dispatch(conn, message, service, table_id, reply_to)
        except ServiceError as e:
            conn.error(e.code, e.message, reply_to, e.why)
            if isinstance(message, HelloMessage) and e.code in _FAILED_HELLO:
                conn.failed_hellos += 1
                if (
                    conn.failed_hellos >= settings.hello_failures_per_connection
                    and settings.limited(conn.address)
                ):
                    # The refusal is sent first, then the connection closes.
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(conn.queue.join(), 5)
                    await _close(websocket, 1008, "too many failed hellos")
                    return


_FAILED_HELLO = (ErrorCode.BAD_TOKEN, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED)
"""Hellos that count against ``hello_failures_per_connection``."""


async def _dispatch(
    conn: Conn,
    message: Any,
    service: TableService,
    table_id: str,
    reply_to: str | int | None,
) -> None:
    if isinstance(message, PingMessage):
        _once(conn, reply_to)
        conn.send({"type": "pong", "reply_to": reply_to})
        return
    if isinstance(message, HelloMessage):
        if message.v != PROTOCOL_VERSION:
            raise ServiceError(
                ErrorCode.UNSUPPORTED_VERSION,
                f"this server speaks protocol version {PROTOCOL_VERSION}, not {message.v}",
            )
        await service.hello(conn, table_id, message.token)
        return
    if conn.live is None:
        raise ServiceError(ErrorCode.HELLO_FIRST, "send hello first (with your seat token to play)")
    _once(conn, reply_to)
    if isinstance(message, SyncMessage):
        await service.sync(conn, reply_to)
    elif isinstance(message, ResumeMessage):
        await service.resume(conn)
        conn.send({"type": "resumed", "reply_to": reply_to})
    elif isinstance(message, ActionMessage):
        if conn.role != "seat" or conn.seat is None:
            raise ServiceError(
                ErrorCode.NOT_SEATED,
                "spectators cannot act: send hello with your seat token to play",
            )
        if message.seat is not None and message.seat != conn.seat:
            raise ServiceError(
                ErrorCode.WRONG_SEAT,
                f"your token is for seat {conn.seat}; you cannot act for seat {message.seat}",
            )
        err = await service.submit(
            conn.live,
            conn.seat,
            message.action,
            expect_seq=message.seq,
            actor="seat",
            reply_to=reply_to,
            conn=conn,
        )
        if err is not None:
            raise err


def _once(conn: Conn, reply_to: str | int | None) -> None:
    """Refuse a message whose id this connection has seen already (a replay)."""
    if reply_to is not None and not conn.remember(reply_to):
        raise ServiceError(
            ErrorCode.DUPLICATE, f"message {reply_to!r} was received already: it is not done twice"
        )


def serve(settings: Settings) -> None:
    """Run the server in the foreground until interrupted (``rummy serve``)."""
    import uvicorn

    logging.basicConfig(
        level=settings.log_level.upper(), format="%(levelname)s %(name)s: %(message)s"
    )
    # Alembic narrates every plugin it loads; only its warnings concern an operator.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    app = create_app(settings, manage_heap=True)
    print(
        f"OpenRummy server on {settings.url}  (API docs: {settings.url}/docs; "
        f"database: {_redact(settings.db)})",
        flush=True,
    )
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        ws_max_size=settings.ws_max_size,
        ws_per_message_deflate=False,
        access_log=False,
    )
