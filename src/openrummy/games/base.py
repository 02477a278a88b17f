"""What every game family's match offers to the layers above (bots, records, server, UIs).

A family (manipulation, Indian) provides a match class with this shape; interfaces program
against :class:`Match` and never against one family, so a new family plugs in by registering
its match class (``openrummy.record.register_match_family``).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = ["Match"]


@runtime_checkable
class Match(Protocol):
    """A match: rounds (or hands) of one game until the format decides a winner.

    * ``apply(action)`` validates and applies an action of a *match* seat; it raises an
      ``IllegalActionError`` (nothing changed) or returns a result with ``accepted``,
      ``violations``, ``event`` (the action in words) and ``action`` (as stamped).
    * ``view(seat)`` is exactly what that seat may see (``None``: a spectator), JSON-ready,
      with the match standings under ``"match"``.
    * ``parse_action(text, seat)`` reads the family's action notation.
    * ``history`` lists every applied action; replaying it on a fresh match with the same
      rules, players and seed reproduces the match.
    """

    rules: Any
    players: int
    seed: int | str
    history: list[Any]

    @property
    def current(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def outcome(self) -> Any: ...

    def apply(self, action: Any) -> Any: ...

    def view(self, seat: int | None, *, now: float | None = None) -> dict[str, Any]: ...

    def parse_action(self, text: str, seat: int) -> Any: ...
