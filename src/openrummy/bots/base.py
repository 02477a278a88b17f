"""The bot protocol, and reading a seat's view back into cards and melds.

A bot decides from its seat's **view** only (what that seat may see) and the public rules;
it never touches the game state, so it cannot see hidden cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from openrummy.cards import Card
from openrummy.games.actions import Action, ActionKind
from openrummy.games.views import ManipulationView, View
from openrummy.melds import Meld

__all__ = ["Bot", "BotInfo", "SeenPosition", "read_view"]


class Bot(Protocol):
    """A computer player: ``choose`` returns an action for the view's seat."""

    name: str

    def choose(self, view: View) -> Action: ...


@dataclass(frozen=True, slots=True)
class BotInfo:
    """A bot by name: what it does, which families it plays, how to make one."""

    name: str
    description: str
    families: frozenset[str]
    factory: Callable[[Any, int], Bot]
    """``factory(rules, seed)``; the rules are of one of ``families``."""
    level: int = 0
    """Place on the ladder: 0 random, 1 simple/greedy, 2 strategic, 3 expert."""

    def describe(self, lang: str = "en") -> str:
        """What the bot does, in ``lang`` (the message catalogue's ``bot.FAMILY.NAME``;
        ``description`` when the catalogue has no entry for it)."""
        from openrummy.messages import catalogue, render

        for family in sorted(self.families):
            key = f"bot.{family}.{self.name}"
            if key in catalogue()["reasons"]:
                return render({"reason": key}, lang)
        return self.description


@dataclass(frozen=True, slots=True)
class SeenPosition:
    """A manipulation view as values."""

    seat: int
    hand: tuple[Card, ...]
    table: tuple[Meld, ...]
    owners: tuple[int | None, ...]
    opened: bool
    phase: str
    legal: frozenset[ActionKind]
    stock: int
    discard_top: Card | None
    hand_sizes: tuple[int | None, ...]
    opened_seats: tuple[bool, ...] = ()
    """Which seats have opened (public: their opening melds are on the table)."""


def read_view(view: View) -> SeenPosition:
    """A manipulation game's view as the position a bot plans from."""
    if not isinstance(view, ManipulationView):
        raise TypeError(f"a manipulation bot cannot play from a {view.family} view")
    seat, hand = view.seat, view.hand
    if seat is None or hand is None:
        raise ValueError("a spectator view has no seat to play for")
    table = view.table
    return SeenPosition(
        seat=seat,
        hand=hand,
        table=table,
        owners=view.owners if view.owners is not None else (None,) * len(table),
        opened=bool(view.opened[seat]),
        phase=view.phase.value,
        legal=view.legal,
        stock=view.stock,
        discard_top=view.discard_top,
        hand_sizes=view.hand_sizes,
        opened_seats=tuple(bool(o) for o in view.opened),
    )
