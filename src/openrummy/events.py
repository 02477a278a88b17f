"""Events and violations as data: a stable code and typed parameters, never sentences.

Every action a game applies reports one :class:`Event` (``Result.event``); a failed play, a
late timeout or an invalid declaration carries its :class:`Violation` records too. Their
``to_json()`` is what the server stores and sends; :func:`openrummy.messages.render` (and the
web client, from the same catalogue) turns them into words in the reader's language.

    >>> from openrummy.melds import Meld
    >>> e = Event(EventCode.OPENED, 1, placed=6, value=75,
    ...           melds=(Meld.parse("[AS AH AD]"), Meld.parse("[KC QC JC]")))
    >>> e.to_json()
    {'code': 'opened', 'seat': 1, 'placed': 6, 'value': 75, 'melds': ['[AS AH AD]', '[KC QC JC]']}
    >>> str(e)
    'seat 1 placed 6 cards and opened with 75'
    >>> Event.from_json(e.to_json()) == e
    True
    >>> v = Violation.of("C6", "retrieve_before_open")
    >>> v.to_json(), str(v)
    ({'code': 'C6', 'reason': 'retrieve_before_open'}, 'C6: you may retrieve a joker only after you have opened')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from openrummy.cards import Card
from openrummy.melds import Meld
from openrummy.messages import Param, Reason, render

if TYPE_CHECKING:
    from openrummy.games.jsonvalue import JsonObject

__all__ = ["Event", "EventCode", "Violation"]


class EventCode(StrEnum):
    """What happened; the values are the wire format and never change."""

    PLACED = "placed"
    """A play was accepted (``placed`` cards; ``retrieved`` jokers; ``out`` if it emptied the hand)."""
    OPENED = "opened"
    """An accepted play that opened (``value``: the opening melds' worth, ``melds``: them)."""
    PLAY_FAILED = "play_failed"
    """A play broke the commit checks: reverted, ``penalty`` cards drawn (``violations``)."""
    DREW = "drew"
    TOOK_DISCARD = "took_discard"
    DISCARDED = "discarded"
    PASSED = "passed"
    ENDED_TURN = "ended_turn"
    TIMED_OUT = "timed_out"
    """The turn timer ran out (``card``: discarded for the player; or a failure with ``penalty``)."""
    ABANDONED = "abandoned"
    """A manipulation given up: treated as a failed play."""
    DROPPED = "dropped"
    """Indian Rummy: the seat dropped out of the hand (``stage`` first or middle, ``points``)."""
    STOCK_RAN_OUT = "stock_ran_out"
    """Indian Rummy: no stock to draw from and none to rebuild; the hand is void."""
    DECLARED = "declared"
    DECLARE_FAILED = "declare_failed"
    """An invalid declaration: ``points`` of penalty (``violations``)."""
    SHOWED = "showed"
    ROUND_OVER = "round_over"
    """A match's round (hand) ended (``round`` counts from 1, ``winners`` in match seats)."""
    MATCH_OVER = "match_over"
    """The match is decided (``winners``, ``decision``: how)."""


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: the check (``C1``–``C8`` of RULES.md §2.2, ``C0`` for an abandoned
    play, ``DECLARE`` for an invalid declaration) and why, as a :class:`Reason`."""

    code: str
    why: Reason

    @classmethod
    def of(cls, code: str, reason: str, **params: Param | None) -> Violation:
        return cls(code, Reason.of(reason, **params))

    @property
    def reason(self) -> str:
        """The stable reason key (``"retrieve_before_open"``)."""
        return self.why.key

    @property
    def params(self) -> dict[str, Param]:
        return dict(self.why.params)

    @property
    def message(self) -> str:
        """The reason in English words."""
        return render(self.why)

    def to_json(self) -> JsonObject:
        return {"code": self.code, **self.why.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Violation:
        return cls(str(data["code"]), Reason.from_json(data))

    def render(self, lang: str = "en", names: Sequence[str] | None = None) -> str:
        return render(self.why, lang, names)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@dataclass(frozen=True, slots=True)
class Event:
    """What an action did (or a round or match ending), as a code and its parameters.

    Unused parameters stay at their defaults and are left out of the JSON. Seats are the
    seats of whoever reports the event: a round's own seats inside a game, match seats in
    the results of a match.
    """

    code: EventCode
    seat: int | None = None
    placed: int | None = None
    value: int | None = None
    melds: tuple[Meld, ...] = ()
    retrieved: int = 0
    out: bool = False
    card: Card | None = None
    violations: tuple[Violation, ...] = ()
    penalty: int | None = None
    points: int | None = None
    stage: str | None = None
    form: str | None = None
    round: int | None = None
    winners: tuple[int, ...] | None = None
    decision: Reason | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code.value}
        if self.seat is not None:
            out["seat"] = self.seat
        for name in ("placed", "value"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.melds:
            out["melds"] = [str(m) for m in self.melds]
        if self.retrieved:
            out["retrieved"] = self.retrieved
        if self.out:
            out["out"] = True
        if self.card is not None:
            out["card"] = str(self.card)
        if self.violations:
            out["violations"] = [v.to_json() for v in self.violations]
        for name in ("penalty", "points", "stage", "form", "round"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.winners is not None:
            out["winners"] = list(self.winners)
        if self.decision is not None:
            out["decision"] = self.decision.to_json()
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        winners = data.get("winners")
        decision = data.get("decision")
        card = data.get("card")
        return cls(
            EventCode(data["code"]),
            seat=data.get("seat"),
            placed=data.get("placed"),
            value=data.get("value"),
            melds=tuple(Meld.parse(m) for m in data.get("melds", ())),
            retrieved=data.get("retrieved", 0),
            out=bool(data.get("out", False)),
            card=Card.parse(card) if card is not None else None,
            violations=tuple(Violation.from_json(v) for v in data.get("violations", ())),
            penalty=data.get("penalty"),
            points=data.get("points"),
            stage=data.get("stage"),
            form=data.get("form"),
            round=data.get("round"),
            winners=tuple(winners) if winners is not None else None,
            decision=Reason.from_json(decision) if decision is not None else None,
        )

    def with_seats(self, seats: Sequence[int]) -> Event:
        """The event with a round's seat numbers turned into match seats (``seats[i]``)."""
        if self.seat is None:
            return self
        return replace(self, seat=seats[self.seat])

    @property
    def text(self) -> str:
        """The event in English words (``seat N`` for the players)."""
        return render(self)

    def render(self, lang: str = "en", names: Sequence[str] | None = None) -> str:
        return render(self, lang, names)

    def __str__(self) -> str:
        return self.text
