"""The wire protocol: pydantic models of every REST body and WebSocket message.

Version 2 (``PROTOCOL_VERSION``), documented in ``docs/protocol.md``. Incoming messages are
validated here before anything else reads them; outgoing ones are plain dicts built by the
service (for speed) whose shapes are the ``*Message`` models below, kept for the schema and
the tests.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, WithJsonSchema, field_validator

from .errors import ErrorCode

__all__ = [
    "PROTOCOL_VERSION",
    "ActionMessage",
    "ClientMessage",
    "CreateTable",
    "CreatedTable",
    "ErrorBody",
    "ErrorMessage",
    "EventInfo",
    "GameInfo",
    "HelloMessage",
    "JoinRequest",
    "Joined",
    "NoticeMessage",
    "PingMessage",
    "PongMessage",
    "ResumeMessage",
    "ResumedMessage",
    "RevealMessage",
    "SeatInfo",
    "SeatSpec",
    "ServerMessage",
    "StartRequest",
    "SyncMessage",
    "TableInfo",
    "TableMessage",
    "UpdateMessage",
    "WelcomeMessage",
    "check_name",
    "client_message",
    "error_answers",
]

PROTOCOL_VERSION = 2
NAME_MAX = 32
TITLE_MAX = 60

VIEW_MARK = "x-openrummy-view"
"""Marks a view in the generated schema: :mod:`.schema` links it to the views schema."""
ViewJson = Annotated[
    dict[str, Any],
    WithJsonSchema(
        {
            "type": "object",
            "description": "The recipient's view (docs/schema/views.schema.json).",
            VIEW_MARK: True,
        }
    ),
]
"""A view as ``view.to_json()`` gives it; its schema is the views schema of the engine."""

MessageId = Annotated[str | int, Field(description="Chosen by the client, echoed as reply_to.")]


def check_name(value: str, limit: int = NAME_MAX) -> str:
    """A display name: trimmed, NFC, 1..limit characters, no control characters.

    Names are stored and sent verbatim as JSON strings; the server never renders them as
    HTML, and clients must insert them as text.

    >>> check_name("  Ann <b>  ")
    'Ann <b>'
    >>> check_name("a\\x00b")
    Traceback (most recent call last):
      ...
    ValueError: a name may not contain control characters
    """
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise ValueError("a name may not be empty")
    if len(name) > limit:
        raise ValueError(f"a name has at most {limit} characters (this one has {len(name)})")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name):
        raise ValueError("a name may not contain control characters")
    return name


class _Strict(BaseModel):
    """A REST body: no unknown field, and no value converted (``"seat": "1"`` or
    ``"bot_pause": true`` is refused, not read as 1)."""

    model_config = ConfigDict(extra="forbid", strict=True)


NameText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=NAME_MAX,
        description=f"1 to {NAME_MAX} characters, no control characters.",
    ),
]


class _ClientMessage(BaseModel):
    """A WebSocket message from a client: no unknown field, and no value converted (a
    ``"seq": "0"`` or ``"seq": true`` is refused, not read as 0)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# -- REST ---------------------------------------------------------------------------------


class SeatSpec(_Strict):
    """One seat of a new table: a person (who joins later) or a bot of a given kind."""

    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(
        default=None,
        max_length=32,
        description="Bot kind for a bot seat (a name from GET /api/bots), e.g. 'simple'.",
    )
    name: NameText | None = Field(default=None, description="Display name (bots get one if empty).")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        return None if v is None else check_name(v)


class CreateTable(_Strict):
    """``POST /api/tables``: the game, its options and its seats."""

    preset: str = Field(max_length=40, description="Rule preset, e.g. robbers, rummikub.")
    options: dict[str, str | int | float | bool | None] = Field(
        default_factory=dict,
        description="Rule option overrides by their RULES.md names, e.g. {'opening.threshold': 30}.",
    )
    match_format: str | None = Field(
        default=None, max_length=40, description="Shortcut for the option match.format."
    )
    turn_time_limit: float | None = Field(
        default=None,
        gt=0,
        le=3600,
        description="Seconds per turn, enforced by the server (option turn.time_limit_s).",
    )
    seats: list[SeatSpec] = Field(min_length=2, max_length=8)
    title: str | None = Field(
        default=None, min_length=1, max_length=TITLE_MAX, description="Shown in the lobby."
    )
    creator_seat: int | None = Field(
        default=None,
        ge=0,
        le=7,
        description="Join this (human) seat at once, as creator_name (one of the seats given).",
    )
    creator_name: NameText | None = None
    bot_pause: float | None = Field(
        default=None,
        ge=0,
        le=30,
        description="Seconds a bot waits before acting (a table of bots only waits at least "
        "the server's bots_only_pause, 1 s by default).",
    )

    @field_validator("title")
    @classmethod
    def _title(cls, v: str | None) -> str | None:
        return None if v is None else check_name(v, TITLE_MAX)

    @field_validator("creator_name")
    @classmethod
    def _creator(cls, v: str | None) -> str | None:
        return None if v is None else check_name(v)


class JoinRequest(_Strict):
    """``POST /api/tables/{id}/join``: take a free human seat (any, or the one named)."""

    name: NameText
    seat: int | None = Field(
        default=None, ge=0, le=7, description="A seat of the table (409 if it has no such seat)."
    )

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return check_name(v)


class StartRequest(_Strict):
    """``POST /api/tables/{id}/start`` (creator only)."""

    fill_with_bots: str | None = Field(
        default=None,
        max_length=32,
        description="Give every still-free human seat to a bot of this kind instead of refusing.",
    )


class SeatInfo(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str | None
    taken: bool
    """A person holds this seat (or it is a bot seat)."""
    away: bool
    """A stand-in plays this human seat (timeouts, disconnect, left)."""


class GameInfo(BaseModel):
    status: Literal["running", "finished", "aborted"]
    started_at: float
    finished_at: float | None
    seq: int
    """Actions applied so far (the sequence number of the last one)."""
    commitment: str
    """SHA-256 of the deal terms with the secret seed, published at the start (``docs/server.md``,
    fair deals)."""
    scheme: str
    seed: str | None
    """Revealed once the game is over."""
    result: dict[str, Any] | None


class TableInfo(BaseModel):
    id: str
    title: str
    preset: str
    family: str
    options: dict[str, Any]
    players: int
    status: Literal["open", "running", "finished", "closed"]
    created_at: float
    bot_pause: float
    turn_time_limit: float | None
    seats: list[SeatInfo]
    game: GameInfo | None


class CreatedTable(BaseModel):
    table: TableInfo
    creator_token: str
    """Authorises start and close (``Authorization: Bearer …``). Shown once."""
    seat: int | None = None
    seat_token: str | None = None


class Joined(BaseModel):
    table_id: str
    seat: int
    token: str
    """The seat token: WebSocket hello and leave. Unguessable, shown once, stored hashed."""


class EventInfo(BaseModel):
    """One applied action for the game log: the event as data and in English words."""

    seq: int
    seat: int
    actor: Literal["seat", "bot", "standin", "server"]
    action: str
    text: str
    """The event in English words with the players' names (for logs and old clients)."""
    data: dict[str, Any] = Field(default_factory=dict)
    """The event as data: ``{"code": "opened", "seat": 1, "value": 75, ...}`` (see
    ``openrummy.events``); the message catalogue words it in the reader's language."""
    after: list[dict[str, Any]] = Field(default_factory=list)
    """Events that followed: ``round_over``, ``match_over``."""
    accepted: bool
    """``False`` for a failed play; the broken rules are in ``data.violations``."""
    at: float


# -- WebSocket: client to server -------------------------------------------------------------


class HelloMessage(_ClientMessage):
    """First message: with a seat token to play, without to watch."""

    type: Literal["hello"]
    v: int = PROTOCOL_VERSION
    token: str | None = Field(default=None, max_length=128)


class ActionMessage(_ClientMessage):
    """An action in the family's text notation, for the seat of the token."""

    type: Literal["action"]
    id: MessageId | None = None
    seq: int = Field(ge=0, description="The last sequence number this client has seen.")
    action: str = Field(max_length=8_000)
    seat: int | None = Field(default=None, description="Optional: must be the token's seat.")


class SyncMessage(_ClientMessage):
    """Ask for the current state again (after a gap, or to refresh)."""

    type: Literal["sync"]
    id: MessageId | None = None


class PingMessage(_ClientMessage):
    type: Literal["ping"]
    id: MessageId | None = None


class ResumeMessage(_ClientMessage):
    """Take the seat back from its stand-in (after timeouts)."""

    type: Literal["resume"]
    id: MessageId | None = None


ClientMessage = Annotated[
    HelloMessage | ActionMessage | SyncMessage | PingMessage | ResumeMessage,
    Field(discriminator="type"),
]
client_message: TypeAdapter[
    HelloMessage | ActionMessage | SyncMessage | PingMessage | ResumeMessage
] = TypeAdapter(ClientMessage)
"""Validates one incoming text frame (JSON) into a message."""


# -- WebSocket: server to client (documentation models) --------------------------------------


class WelcomeMessage(BaseModel):
    """Answer to hello and to sync: everything a (re)connecting client needs."""

    type: Literal["welcome"]
    v: int
    role: Literal["seat", "spectator"]
    seat: int | None
    table: TableInfo
    seq: int
    view: ViewJson | None
    log: list[EventInfo]
    now: float
    deadline: float | None
    reply_to: MessageId | None = None


class UpdateMessage(BaseModel):
    """After every applied action: the event, and the recipient's own view."""

    type: Literal["update"]
    seq: int
    event: EventInfo
    view: ViewJson
    now: float
    deadline: float | None
    """When the current turn's timer runs out (epoch seconds), if there is one."""
    reply_to: MessageId | None = None


class ErrorBody(BaseModel):
    """A refused REST request: the error code (``docs/protocol.md``, Error codes) and why."""

    error: ErrorCode
    message: str


_ANSWERS = {
    401: "no seat or creator token (missing_token)",
    403: "the token holds no seat at this table, or is not its creator token (bad_token)",
    404: "no such table, preset or game (not_found, no_game)",
    409: "not possible in the table's state (not_open, seat_taken, table_full, seats_free, "
    "game_over, not_started, not_seated, not_finished, bad_seat)",
    422: "refused values (bad_rules, bad_bot, no_bots, bad_seat, bad_status, wrong_family, "
    "no_hint, bad_hand); a body that does not fit the schema gets FastAPI's detail list",
    413: "a body larger than the server reads, or more cards than the table's deck holds "
    "(too_large)",
    429: "too many requests from this address: tables created, or open tables (rate_limited)",
    503: "the server's helpers are busy, or this client used its share of them: try again "
    "after the Retry-After seconds (busy); a helper failed (unavailable)",
}


def error_answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The refusals of a REST route, for its OpenAPI description."""
    return {s: {"model": ErrorBody, "description": _ANSWERS[s]} for s in statuses}


class ErrorMessage(BaseModel):
    """A refused message, to its sender only: nothing changed."""

    type: Literal["error"]
    code: ErrorCode
    message: str
    why: dict[str, Any] | None = None
    """For ``illegal``: the engine's reason as data, to word from the message catalogue."""
    reply_to: MessageId | None = None


class PongMessage(BaseModel):
    """Answer to ping."""

    type: Literal["pong"]
    reply_to: MessageId | None = None


class ResumedMessage(BaseModel):
    """Answer to resume: the seat is the player's again."""

    type: Literal["resumed"]
    reply_to: MessageId | None = None


class TableMessage(BaseModel):
    """The table, whenever its seats or status change."""

    type: Literal["table"]
    table: TableInfo


class NoticeMessage(BaseModel):
    """A seat went away or came back."""

    type: Literal["notice"]
    seat: int | None
    text: str
    """The notice in English words with the players' names."""
    data: dict[str, Any]
    """The notice as data (``{"reason": "notice.away", ...}``), worded by the message
    catalogue."""


class RevealMessage(BaseModel):
    """When the game ends (or the table is closed mid-game): the secret seed of the deal."""

    type: Literal["reveal"]
    seed: str | None
    commitment: str
    scheme: str
    record: str
    """Where the game record is (``/api/tables/{id}/record``)."""


ServerMessage = Annotated[
    WelcomeMessage
    | UpdateMessage
    | ErrorMessage
    | PongMessage
    | ResumedMessage
    | TableMessage
    | NoticeMessage
    | RevealMessage,
    Field(discriminator="type"),
]
"""Every message the server sends on the WebSocket."""
