"""JSON values as types: what ``to_json()`` returns and ``from_json()`` reads."""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["JsonObject", "JsonValue"]

JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None
"""Any JSON value (as :func:`json.loads` returns it)."""

JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object."""
