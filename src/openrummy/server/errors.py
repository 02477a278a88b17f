"""The server's refusals: one exception type carrying a code, a message and an HTTP status."""

from __future__ import annotations

__all__ = ["ServiceError"]


class ServiceError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, HTTP ``status``."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
