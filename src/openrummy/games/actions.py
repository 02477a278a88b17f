"""Actions of the manipulation games, as small frozen values with a stable text form.

Every action names the seat that takes it. ``at`` is the time on the game clock (seconds)
when it was taken; the engine stamps it from its injected clock when the caller leaves it out,
and a record keeps it, so a replay sees the same times (RULES.md C8).

Text notation (``str(action)`` and :func:`parse_action`)::

    >>> a = parse_action("play [5H 6H 7H] [7C JK=7D 7H] retrieve 1:7D<-7D", seat=0)
    >>> str(a)
    'play [5H 6H 7H] [7C JK=7D 7H] retrieve 1:7D<-7D'
    >>> parse_action("draw", seat=2)
    Draw(seat=2, at=None)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from openrummy.cards import Card
from openrummy.errors import NotationError, RecordError
from openrummy.melds import Meld
from openrummy.messages import Reason

__all__ = [
    "Abandon",
    "Action",
    "ActionKind",
    "Declare",
    "Discard",
    "Draw",
    "Drop",
    "EndTurn",
    "Pass",
    "Play",
    "Retrieval",
    "Show",
    "TakeDiscard",
    "Timeout",
    "action_from_json",
    "action_to_json",
    "kind_of",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Retrieval:
    """Swap a table joker for its natural card (RULES.md §2.4).

    ``meld`` is the index, in the turn-start table, of the meld holding the joker;
    ``identity`` is the card that joker stands for there; ``replacement`` the natural put in
    its place. ``from_table``: the replacement was already on the table (HAND_OR_TABLE).
    """

    meld: int
    identity: Card
    replacement: Card
    from_table: bool = False

    def __str__(self) -> str:
        src = "@table" if self.from_table else ""
        return f"{self.meld}:{self.identity}<-{self.replacement}{src}"


@dataclass(frozen=True, slots=True)
class Play:
    """One manipulation transaction: the complete table after the play (RULES.md §2.1)."""

    seat: int
    table: tuple[Meld, ...]
    retrievals: tuple[Retrieval, ...] = ()
    at: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        melds = " ".join(str(m) for m in self.table) or "[]"
        text = f"play {melds}"
        if self.retrievals:
            text += " retrieve " + " ".join(str(r) for r in self.retrievals)
        return text


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the stock (ends the turn unless a discard follows)."""

    seat: int
    at: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top of the discard pile (discard-pile variant, §3.8)."""

    seat: int
    at: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card face up (discard-pile variant, after drawing)."""

    seat: int
    card: Card
    at: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing this turn; only with an empty stock (§2.6)."""

    seat: int
    at: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn after a play or a draw (play–draw–play model, §3.2)."""

    seat: int
    at: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Timeout:
    """The turn timer ran out (C8): a failure, as the rules' failure mode says."""

    seat: int
    at: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return "timeout"


@dataclass(frozen=True, slots=True)
class Abandon:
    """The player gives up a started manipulation: a failure (§2.5)."""

    seat: int
    at: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return "abandon"


@dataclass(frozen=True, slots=True)
class Drop:
    """Indian Rummy: give up this hand at the start of a turn (first or middle drop, §5.2)."""

    seat: int
    at: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return "drop"


@dataclass(frozen=True, slots=True)
class Declare:
    """Indian Rummy: put ``finish`` face down and show the rest of the hand as ``groups``."""

    seat: int
    finish: Card
    groups: tuple[Meld, ...]
    at: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"declare {self.finish} " + " ".join(str(g) for g in self.groups)


@dataclass(frozen=True, slots=True)
class Show:
    """Indian Rummy: a loser shows their grouping (``scoring.loser_arrangement = SUBMITTED``)."""

    seat: int
    groups: tuple[Meld, ...]
    at: float | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return ("show " + " ".join(str(g) for g in self.groups)).strip()


Action = (
    Play | Draw | TakeDiscard | Discard | Pass | EndTurn | Timeout | Abandon | Drop | Declare | Show
)


class ActionKind(StrEnum):
    """What kind of action it is, named by the first word of its notation.

    A kind is its own text (``ActionKind.DRAW == "draw"``), so views list the legal kinds
    as strings in JSON.
    """

    PLAY = "play"
    DRAW = "draw"
    TAKE = "take"
    DISCARD = "discard"
    PASS = "pass"
    END = "end"
    TIMEOUT = "timeout"
    ABANDON = "abandon"
    DROP = "drop"
    DECLARE = "declare"
    SHOW = "show"


_KIND_OF: dict[type[Any], ActionKind] = {
    Play: ActionKind.PLAY,
    Draw: ActionKind.DRAW,
    TakeDiscard: ActionKind.TAKE,
    Discard: ActionKind.DISCARD,
    Pass: ActionKind.PASS,
    EndTurn: ActionKind.END,
    Timeout: ActionKind.TIMEOUT,
    Abandon: ActionKind.ABANDON,
    Drop: ActionKind.DROP,
    Declare: ActionKind.DECLARE,
    Show: ActionKind.SHOW,
}


def kind_of(action: object) -> ActionKind | None:
    """The kind of ``action`` (``None`` for anything that is not an action)."""
    return _KIND_OF.get(type(action))


_SIMPLE: dict[str, type[Draw | TakeDiscard | Pass | EndTurn | Timeout | Abandon | Drop]] = {
    "draw": Draw,
    "drop": Drop,
    "take": TakeDiscard,
    "pass": Pass,
    "end": EndTurn,
    "timeout": Timeout,
    "abandon": Abandon,
}
_RETRIEVAL_RE = re.compile(r"^(\d+):([^<]+)<-([^@]+)(@table)?$")


def parse_action(text: str, *, seat: int) -> Action:
    """Read an action in text notation for ``seat`` (see the module docstring)."""
    body = text.strip()
    word, _, rest = body.partition(" ")
    word = word.lower()
    if word in _SIMPLE:
        if rest.strip():
            raise NotationError(Reason.of("notation.no_arguments", text=text, token=word))
        return _SIMPLE[word](seat)
    if word == "discard":
        return Discard(seat, Card.parse(rest))
    if word in ("declare", "show"):
        head, _, tail = rest.strip().partition(" ")
        if word == "declare" and not head:
            raise NotationError(Reason.of("notation.declare_form", text=text))
        groups_text = tail if word == "declare" else rest
        groups = _melds(groups_text, text)
        if word == "declare":
            return Declare(seat, Card.parse(head), groups)
        return Show(seat, groups)
    if word == "play":
        table_text, _, retr_text = rest.partition("retrieve")
        table = _melds(table_text, text)
        retrievals: list[Retrieval] = []
        for tok in retr_text.split():
            m = _RETRIEVAL_RE.match(tok)
            if not m:
                raise NotationError(Reason.of("notation.retrieval_form", token=tok))
            retrievals.append(
                Retrieval(
                    int(m.group(1)),
                    Card.parse(m.group(2)),
                    Card.parse(m.group(3)),
                    from_table=bool(m.group(4)),
                )
            )
        return Play(seat, table, tuple(retrievals))
    raise NotationError(Reason.of("notation.not_an_action", text=text))


def _melds(body: str, text: str) -> tuple[Meld, ...]:
    melds = re.findall(r"\[[^\]]*\]", body)
    leftover = re.sub(r"\[[^\]]*\]", "", body).strip()
    if leftover:
        raise NotationError(Reason.of("notation.melds_unreadable", text=text, token=leftover))
    return tuple(Meld.parse(m) for m in melds if m.strip("[] "))


def action_to_json(action: Action) -> dict[str, str | int | float]:
    """A JSON-ready dict: ``{"seat": 0, "action": "play [5H 6H 7H]", "at": 1.5}``."""
    out: dict[str, Any] = {"seat": action.seat, "action": str(action)}
    if action.at is not None:
        out["at"] = action.at
    return out


def action_from_json(data: Mapping[str, object]) -> Action:
    try:
        seat = data["seat"]
        text = data["action"]
    except (KeyError, TypeError) as e:
        raise RecordError(f"an action needs 'seat' and 'action': {data!r}") from e
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(text, str):
        raise RecordError(f"bad action entry {data!r}")
    at = data.get("at")
    if at is not None and (not isinstance(at, (int, float)) or isinstance(at, bool)):
        raise RecordError(f"bad time in action entry {data!r}")
    try:
        action = parse_action(text, seat=seat)
    except NotationError as e:
        raise RecordError(f"bad action {text!r}: {e}") from e
    return _with_time(action, None if at is None else float(at))


def _with_time(action: Action, at: float | None) -> Action:
    import dataclasses

    return dataclasses.replace(action, at=at)
