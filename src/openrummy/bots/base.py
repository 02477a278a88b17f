"""The bot protocol, and reading a seat's view back into cards and melds.

A bot decides from its seat's **view** only (what that seat may see) and the public rules;
it never touches the game state, so it cannot see hidden cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from openrummy.cards import Card
from openrummy.games.actions import Action
from openrummy.melds import Meld, MeldItem

__all__ = ["Bot", "SeenPosition", "read_view"]


class Bot(Protocol):
    """A computer player: ``choose`` returns an action for the view's seat."""

    name: str

    def choose(self, view: Mapping[str, Any]) -> Action: ...


@dataclass(frozen=True, slots=True)
class SeenPosition:
    """A manipulation view as values."""

    seat: int
    hand: tuple[Card, ...]
    table: tuple[Meld, ...]
    owners: tuple[int | None, ...]
    opened: bool
    phase: str
    legal: frozenset[str]
    stock: int
    discard_top: Card | None
    hand_sizes: tuple[int | None, ...]
    opened_seats: tuple[bool, ...] = ()
    """Which seats have opened (public: their opening melds are on the table)."""


def read_view(view: Mapping[str, Any]) -> SeenPosition:
    seat = view["seat"]
    if seat is None:
        raise ValueError("a spectator view has no seat to play for")
    table = tuple(Meld(tuple(MeldItem.parse(t) for t in meld)) for meld in view["table"])
    owners: Sequence[int | None] = view.get("owners") or [None] * len(table)
    top = view.get("discard_top")
    return SeenPosition(
        seat=seat,
        hand=tuple(Card.parse(c) for c in view["hand"]),
        table=table,
        owners=tuple(owners),
        opened=bool(view["opened"][seat]),
        phase=view["phase"],
        legal=frozenset(view["legal"]),
        stock=view["stock"],
        discard_top=Card.parse(top) if top else None,
        hand_sizes=tuple(view["hand_sizes"]),
        opened_seats=tuple(bool(o) for o in view["opened"]),
    )
