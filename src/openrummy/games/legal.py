"""The legal actions of the player to move, for every family (python-chess's ``legal_moves``).

:class:`LegalActions` is lazy and queryable: ``action in legal``, ``len(legal)``, iteration
and ``legal.kinds`` build only what is asked for. What it holds, for both families:

* ``legal.kinds``: every kind of action the player to move may take now.
* ``action in legal``: the action is allowed now *and* would be accepted as it stands: a
  play that fails the commit checks, or a declaration that is not valid, is not in it
  (though ``game.is_legal`` allows it under ``fail.mode = PENALIZE``, or for a declaration,
  as a penalised failure).
* iterating lists every such action except plays (there are too many; the game's
  ``candidate_plays(limit)`` generates valid ones, the solver's best first) and the timer's
  ``timeout`` (legal only once the time has run out). An Indian hand lists one valid
  declaration per finish card that has one, and one grouping to show.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import cast

from .actions import Action, ActionKind, kind_of

__all__ = ["LegalActions"]


class LegalActions:
    """The actions the player to move may take now (see the module docstring)."""

    __slots__ = ("_contains", "_listed", "kinds", "seat")

    def __init__(
        self,
        seat: int,
        kinds: frozenset[ActionKind],
        listed: Callable[[], Iterable[Action]],
        contains: Callable[[Action], bool],
    ) -> None:
        self.seat = seat
        """The seat to move (``-1`` when the game is over)."""
        self.kinds = kinds
        self._listed = listed
        self._contains = contains

    def __contains__(self, action: object) -> bool:
        kind = kind_of(action)
        if kind is None or kind not in self.kinds:
            return False
        return self._contains(cast(Action, action))

    def __iter__(self) -> Iterator[Action]:
        return iter(self._listed())

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return bool(self.kinds)

    def count(self) -> int:
        """How many actions iteration lists (plays and timeouts are not listed)."""
        return len(self)

    def __repr__(self) -> str:
        kinds = ", ".join(sorted(self.kinds))
        return f"<LegalActions seat={self.seat} kinds=[{kinds}]>"
