"""The server's refusals: one exception type carrying a code, a message and an HTTP status."""

from __future__ import annotations

from typing import Any

__all__ = ["ServiceError"]


class ServiceError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, HTTP ``status``."""

    def __init__(
        self, code: str, message: str, status: int = 400, *, why: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.why = why
        """The engine's reason as data (``{"reason": "illegal.drew_already", ...}``), when
        it gave one: a client words it from the message catalogue."""
