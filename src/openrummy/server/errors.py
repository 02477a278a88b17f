"""The server's refusals: a stable code for programs, a message for people, an HTTP status.

Every error the server sends, as a WebSocket ``error`` message or as a REST answer
(``{"error": code, "message": …}``), carries one :class:`ErrorCode`; ``docs/protocol.md``
says for each when it is sent and what a client should do.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

__all__ = ["ErrorCode", "ServiceError"]


class ErrorCode(StrEnum):
    """Every error code the server sends; the value is what goes on the wire."""

    # -- a WebSocket message the server cannot read ---------------------------------------
    BAD_JSON = "bad_json"
    MISSING_TYPE = "missing_type"
    UNKNOWN_TYPE = "unknown_type"
    BAD_MESSAGE = "bad_message"
    TOO_LARGE = "too_large"
    BAD_FRAME = "bad_frame"
    RATE_LIMITED = "rate_limited"
    # -- the WebSocket session --------------------------------------------------------------
    HELLO_FIRST = "hello_first"
    UNSUPPORTED_VERSION = "unsupported_version"
    DUPLICATE = "duplicate"
    NOT_SEATED = "not_seated"
    WRONG_SEAT = "wrong_seat"
    # -- tokens and tables --------------------------------------------------------------------
    MISSING_TOKEN = "missing_token"
    BAD_TOKEN = "bad_token"
    NOT_FOUND = "not_found"
    BAD_STATUS = "bad_status"
    BAD_RULES = "bad_rules"
    NO_BOTS = "no_bots"
    BAD_BOT = "bad_bot"
    BAD_SEAT = "bad_seat"
    SEAT_TAKEN = "seat_taken"
    TABLE_FULL = "table_full"
    NOT_OPEN = "not_open"
    SEATS_FREE = "seats_free"
    NO_GAME = "no_game"
    NOT_FINISHED = "not_finished"
    # -- actions ------------------------------------------------------------------------------
    NOT_STARTED = "not_started"
    GAME_OVER = "game_over"
    STALE = "stale"
    NOT_YOUR_TURN = "not_your_turn"
    BAD_ACTION = "bad_action"
    SERVER_ONLY = "server_only"
    ILLEGAL = "illegal"
    CONFLICT = "conflict"
    UNAVAILABLE = "unavailable"
    INTERNAL = "internal"
    # -- limits that protect the other tables -------------------------------------------------
    BUSY = "busy"
    # -- the web page's helpers ---------------------------------------------------------------
    WRONG_FAMILY = "wrong_family"
    NO_HINT = "no_hint"
    BAD_HAND = "bad_hand"
    # -- puzzles --------------------------------------------------------------------------------
    NO_PUZZLE = "no_puzzle"
    NO_PLAYER = "no_player"


class ServiceError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, HTTP ``status``."""

    def __init__(
        self, code: ErrorCode, message: str, status: int = 400, *, why: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.why = why
        """The engine's reason as data (``{"reason": "illegal.drew_already", ...}``), when
        it gave one: a client words it from the message catalogue."""
