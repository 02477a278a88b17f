"""What one seat may see of a game or match, as typed values (``game.view(seat)``).

A view holds exactly what its seat may see: its own hand (``None`` for a spectator), the
public table and piles, counts of the other hands, whose turn it is, the kinds of action
the seat to move may take, and for a match the standings. It never holds another hand
(until the round is over and every hand is counted in the open) or the order of the stock.

``to_json()`` is the JSON the server sends (``docs/protocol.md``) and ``from_json`` reads it
back::

    >>> from openrummy import ManipulationGame, find_preset
    >>> game = ManipulationGame(find_preset("rummikub"), players=2, seed=3)
    >>> view = game.view(0)
    >>> view.seat, len(view.hand or ()), view.stock, sorted(map(str, view.legal))
    (0, 14, 78, ['abandon', 'draw', 'play'])
    >>> ManipulationView.from_json(view.to_json()) == view
    True

Per-seat tuples have one entry per seat of the game (of the match, for a match view);
a seat that sits the round out (a pool's eliminated player, a tie-break round) has ``None``.
``outcome``, ``last.violations``, ``last.event`` and the match's ``last_round`` and
``outcome`` are JSON-ready values, as the server sends them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeAlias, cast

from openrummy.cards import Card
from openrummy.errors import NotationError
from openrummy.melds import Meld, MeldItem
from openrummy.rules.common import MatchFormat

from .actions import ActionKind
from .indian import IndianPhase, SeatStatus
from .jsonvalue import JsonObject, JsonValue
from .manipulation import Phase

__all__ = [
    "IndianStandings",
    "IndianView",
    "JsonObject",
    "JsonValue",
    "LastAction",
    "ManipulationStandings",
    "ManipulationView",
    "View",
    "view_from_json",
]


def _obj(data: object, what: str) -> Mapping[str, object]:
    if not isinstance(data, Mapping):
        raise NotationError(f"{what} must be a JSON object, not {data!r}")
    return cast(Mapping[str, object], data)


def _int(data: object) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise NotationError(f"{data!r} is not an integer")
    return data


def _opt_int(data: object) -> int | None:
    return None if data is None else _int(data)


def _str(data: object) -> str:
    if not isinstance(data, str):
        raise NotationError(f"{data!r} is not a string")
    return data


def _list(data: object) -> list[object]:
    if not isinstance(data, list):
        raise NotationError(f"{data!r} is not a list")
    return data


def _ints(data: object) -> tuple[int | None, ...]:
    return tuple(_opt_int(x) for x in _list(data))


def _cards(data: object) -> tuple[Card, ...]:
    return tuple(Card.parse(_str(c)) for c in _list(data))


def _opt_card(data: object) -> Card | None:
    return None if data is None else Card.parse(_str(data))


def _json_obj(data: object) -> JsonObject | None:
    return None if data is None else cast(JsonObject, dict(_obj(data, "the value")))


def _cards_json(cards: Sequence[Card]) -> list[JsonValue]:
    return [str(c) for c in cards]


def _kinds_json(kinds: frozenset[ActionKind]) -> list[JsonValue]:
    return [k.value for k in sorted(kinds)]


def _opt_numbers(data: object) -> tuple[float | None, ...] | None:
    """A list of numbers (``None`` for a seat without one), or ``None``."""
    if data is None:
        return None
    out: list[float | None] = []
    for v in _list(data):
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise NotationError(f"{v!r} is not a number of seconds")
        out.append(None if v is None else float(v))
    return tuple(out)


def _seats_json(values: Sequence[int | bool | None]) -> list[JsonValue]:
    return list(values)


@dataclass(frozen=True, slots=True)
class LastAction:
    """The action applied last, as every seat may see it."""

    seat: int
    action: str
    """The action's text notation."""
    accepted: bool
    """False for a failed play or an invalid declaration (penalised)."""
    violations: tuple[JsonValue, ...] = ()
    """Why it failed (JSON-ready)."""
    event: JsonValue = ""
    """What happened (JSON-ready)."""

    def to_json(self) -> JsonObject:
        return {
            "seat": self.seat,
            "action": self.action,
            "accepted": self.accepted,
            "violations": list(self.violations),
            "event": self.event,
        }

    @classmethod
    def from_json(cls, data: object) -> LastAction:
        d = _obj(data, "last")
        return cls(
            seat=_int(d["seat"]),
            action=_str(d["action"]),
            accepted=bool(d["accepted"]),
            violations=tuple(cast(list[JsonValue], _list(d.get("violations", [])))),
            event=cast(JsonValue, d.get("event", "")),
        )


@dataclass(frozen=True, slots=True)
class ManipulationStandings:
    """A manipulation match's standings (RULES.md §3.6, §4.6)."""

    format: MatchFormat
    round: int
    """Rounds finished so far (the index of the round being played)."""
    round_seats: tuple[int, ...]
    """The match seats that play this round, in round-seat order."""
    rounds: int
    """``match.rounds``: how many rounds the format plays."""
    totals: tuple[int, ...]
    rounds_won: tuple[int, ...]
    outs: tuple[int, ...]
    last_round: JsonObject | None = None
    outcome: JsonObject | None = None

    def to_json(self) -> JsonObject:
        return {
            "format": self.format.value,
            "round": self.round,
            "round_seats": list(self.round_seats),
            "rounds": self.rounds,
            "totals": list(self.totals),
            "rounds_won": list(self.rounds_won),
            "outs": list(self.outs),
            "last_round": self.last_round,
            "outcome": self.outcome,
        }

    @classmethod
    def from_json(cls, data: object) -> ManipulationStandings:
        d = _obj(data, "match")
        return cls(
            format=MatchFormat(_str(d["format"])),
            round=_int(d["round"]),
            round_seats=tuple(_int(s) for s in _list(d["round_seats"])),
            rounds=_int(d["rounds"]),
            totals=tuple(_int(s) for s in _list(d["totals"])),
            rounds_won=tuple(_int(s) for s in _list(d["rounds_won"])),
            outs=tuple(_int(s) for s in _list(d["outs"])),
            last_round=_json_obj(d.get("last_round")),
            outcome=_json_obj(d.get("outcome")),
        )


@dataclass(frozen=True, slots=True)
class IndianStandings:
    """An Indian Rummy match's standings (RULES.md §5.5)."""

    format: MatchFormat
    round: int
    """Hands finished so far (the index of the hand being played)."""
    round_seats: tuple[int, ...]
    """The match seats that play this hand (a pool's survivors), in hand-seat order."""
    totals: tuple[int, ...]
    chips: tuple[int, ...] | None
    """Chip counts in the chips-scored deals format, else ``None``."""
    eliminated: tuple[int, ...]
    """A pool's eliminated seats, in the order they went out."""
    pool_threshold: int | None
    last_round: JsonObject | None = None
    outcome: JsonObject | None = None

    def to_json(self) -> JsonObject:
        return {
            "format": self.format.value,
            "round": self.round,
            "round_seats": list(self.round_seats),
            "totals": list(self.totals),
            "chips": list(self.chips) if self.chips is not None else None,
            "eliminated": list(self.eliminated),
            "pool_threshold": self.pool_threshold,
            "last_round": self.last_round,
            "outcome": self.outcome,
        }

    @classmethod
    def from_json(cls, data: object) -> IndianStandings:
        d = _obj(data, "match")
        chips = d.get("chips")
        return cls(
            format=MatchFormat(_str(d["format"])),
            round=_int(d["round"]),
            round_seats=tuple(_int(s) for s in _list(d["round_seats"])),
            totals=tuple(_int(s) for s in _list(d["totals"])),
            chips=None if chips is None else tuple(_int(s) for s in _list(chips)),
            eliminated=tuple(_int(s) for s in _list(d["eliminated"])),
            pool_threshold=_opt_int(d.get("pool_threshold")),
            last_round=_json_obj(d.get("last_round")),
            outcome=_json_obj(d.get("outcome")),
        )


@dataclass(frozen=True, slots=True)
class ManipulationView:
    """A seat's view of a Robbers' Rummy, Rummikub or Vatikan round (or match)."""

    family: ClassVar[str] = "manipulation"

    game: str
    """The rules' name (``rummikub``)."""
    seat: int | None
    """Whose view it is (``None``: a spectator)."""
    players: int
    dealer: int
    current: int
    """The seat to move."""
    phase: Phase
    table: tuple[Meld, ...]
    """The melds on the table, jokers with their identities."""
    hand_sizes: tuple[int | None, ...]
    stock: int
    """How many cards the stock holds."""
    discard_top: Card | None
    discard_size: int
    opened: tuple[bool | None, ...]
    pass_count: int
    retrieved: tuple[int | None, ...]
    """Jokers each seat has retrieved this round."""
    time_left: float | None
    """Seconds left on the turn timer (``None``: no timer)."""
    legal: frozenset[ActionKind]
    """The kinds of action the seat to move may take now."""
    hand: tuple[Card, ...] | None
    """The seat's own hand, sorted (``None`` for a spectator)."""
    outcome: JsonObject | None = None
    """The round's outcome once it is over (every hand shown)."""
    owners: tuple[int | None, ...] | None = None
    """Who owns each table meld (``meld.ownership = OWNED`` only)."""
    last: LastAction | None = None
    match: ManipulationStandings | None = None
    """The match standings (a match's view only)."""

    def to_json(self) -> JsonObject:
        """The JSON the server sends for this view."""
        out: JsonObject = {
            "game": self.game,
            "family": self.family,
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "current": self.current,
            "phase": self.phase.value,
            "table": [[str(it) for it in m.items] for m in self.table],
            "hand_sizes": _seats_json(self.hand_sizes),
            "stock": self.stock,
            "discard_top": str(self.discard_top) if self.discard_top is not None else None,
            "discard_size": self.discard_size,
            "opened": _seats_json(self.opened),
            "pass_count": self.pass_count,
            "retrieved": _seats_json(self.retrieved),
            "time_left": self.time_left,
            "legal": _kinds_json(self.legal),
            "hand": _cards_json(self.hand) if self.hand is not None else None,
            "outcome": self.outcome,
        }
        if self.owners is not None:
            out["owners"] = _seats_json(self.owners)
        if self.last is not None:
            out["last"] = self.last.to_json()
        if self.match is not None:
            out["match"] = self.match.to_json()
        return out

    @classmethod
    def from_json(cls, data: object) -> ManipulationView:
        """Read a view back from its JSON; :class:`NotationError` if it is not one."""
        d = _obj(data, "a view")
        try:
            seat, hand, owners, last, match = (
                d["seat"],
                d["hand"],
                d.get("owners"),
                d.get("last"),
                d.get("match"),
            )
            time_left = d["time_left"]
            if time_left is not None and not isinstance(time_left, (int, float)):
                raise NotationError(f"time_left {time_left!r} is not a number")
            return cls(
                game=_str(d["game"]),
                seat=_opt_int(seat),
                players=_int(d["players"]),
                dealer=_int(d["dealer"]),
                current=_int(d["current"]),
                phase=Phase(d["phase"]),
                table=tuple(
                    Meld(tuple(MeldItem.parse(_str(t)) for t in _list(m)))
                    for m in _list(d["table"])
                ),
                hand_sizes=_ints(d["hand_sizes"]),
                stock=_int(d["stock"]),
                discard_top=_opt_card(d["discard_top"]),
                discard_size=_int(d["discard_size"]),
                opened=tuple(None if o is None else bool(o) for o in _list(d["opened"])),
                pass_count=_int(d["pass_count"]),
                retrieved=_ints(d["retrieved"]),
                time_left=None if time_left is None else float(time_left),
                legal=frozenset(ActionKind(_str(k)) for k in _list(d["legal"])),
                hand=None if hand is None else _cards(hand),
                outcome=_json_obj(d["outcome"]),
                owners=None if owners is None else _ints(owners),
                last=None if last is None else LastAction.from_json(last),
                match=None if match is None else ManipulationStandings.from_json(match),
            )
        except (KeyError, ValueError) as e:
            if isinstance(e, NotationError):
                raise
            raise NotationError(f"not a manipulation view: {e}") from e


@dataclass(frozen=True, slots=True)
class IndianView:
    """A seat's view of an Indian Rummy hand (or match)."""

    family: ClassVar[str] = "indian"

    game: str
    """The rules' name (``indian13``)."""
    seat: int | None
    """Whose view it is (``None``: a spectator)."""
    players: int
    dealer: int
    current: int
    """The seat to move (after a declaration: the next loser to show)."""
    phase: IndianPhase
    indicator: Card
    wild_rank: int | None
    hand_sizes: tuple[int | None, ...]
    stock: int
    """How many cards the stock holds."""
    discard_pile: tuple[Card, ...]
    """The whole discard pile, bottom to top (everybody saw it built)."""
    statuses: tuple[SeatStatus | None, ...]
    draws: tuple[int | None, ...]
    """How many cards each seat has drawn this hand (a drop's value depends on it)."""
    penalties: tuple[int | None, ...]
    """Penalties known so far (drops, invalid declarations; ``None``: none yet)."""
    taken: Card | None
    """The card the seat to move took from the discard pile this turn."""
    may_discard_taken: bool
    legal: frozenset[ActionKind]
    """The kinds of action the seat to move may take now."""
    hand: tuple[Card, ...] | None
    """The seat's own hand in the order it holds it (``None`` for a spectator)."""
    time_left: float | None = None
    """Seconds until the turn is played for the seat to move: the rest of the turn's time
    plus its time bank (``None``: no turn timer)."""
    time_bank: tuple[float | None, ...] | None = None
    """Each seat's time bank in seconds, as it stood when the current turn began (``None``:
    no turn timer)."""
    outcome: JsonObject | None = None
    """The hand's outcome once it is over (every hand shown)."""
    last: LastAction | None = None
    match: IndianStandings | None = None
    """The match standings (a match's view only)."""

    @property
    def discard_top(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    def to_json(self) -> JsonObject:
        """The JSON the server sends for this view."""
        top = self.discard_top
        out: JsonObject = {
            "game": self.game,
            "family": self.family,
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "current": self.current,
            "phase": self.phase.value,
            "indicator": str(self.indicator),
            "wild_rank": self.wild_rank,
            "hand_sizes": _seats_json(self.hand_sizes),
            "stock": self.stock,
            "discard_pile": _cards_json(self.discard_pile),
            "discard_top": str(top) if top is not None else None,
            "statuses": [None if s is None else s.value for s in self.statuses],
            "draws": _seats_json(self.draws),
            "penalties": _seats_json(self.penalties),
            "taken": str(self.taken) if self.taken is not None else None,
            "may_discard_taken": self.may_discard_taken,
            "legal": _kinds_json(self.legal),
            "hand": _cards_json(self.hand) if self.hand is not None else None,
            "time_left": self.time_left,
            "outcome": self.outcome,
        }
        if self.time_bank is not None:
            out["time_bank"] = list(self.time_bank)
        if self.last is not None:
            out["last"] = self.last.to_json()
        if self.match is not None:
            out["match"] = self.match.to_json()
        return out

    @classmethod
    def from_json(cls, data: object) -> IndianView:
        """Read a view back from its JSON; :class:`NotationError` if it is not one."""
        d = _obj(data, "a view")
        try:
            hand, last, match = d["hand"], d.get("last"), d.get("match")
            time_left = d.get("time_left")
            if time_left is not None and not isinstance(time_left, (int, float)):
                raise NotationError(f"time_left {time_left!r} is not a number")
            return cls(
                game=_str(d["game"]),
                seat=_opt_int(d["seat"]),
                players=_int(d["players"]),
                dealer=_int(d["dealer"]),
                current=_int(d["current"]),
                phase=IndianPhase(d["phase"]),
                indicator=Card.parse(_str(d["indicator"])),
                wild_rank=_opt_int(d["wild_rank"]),
                hand_sizes=_ints(d["hand_sizes"]),
                stock=_int(d["stock"]),
                discard_pile=_cards(d["discard_pile"]),
                statuses=tuple(None if s is None else SeatStatus(s) for s in _list(d["statuses"])),
                draws=_ints(d["draws"]),
                penalties=_ints(d["penalties"]),
                taken=_opt_card(d["taken"]),
                may_discard_taken=bool(d["may_discard_taken"]),
                legal=frozenset(ActionKind(_str(k)) for k in _list(d["legal"])),
                hand=None if hand is None else _cards(hand),
                time_left=None if time_left is None else float(time_left),
                time_bank=_opt_numbers(d.get("time_bank")),
                outcome=_json_obj(d["outcome"]),
                last=None if last is None else LastAction.from_json(last),
                match=None if match is None else IndianStandings.from_json(match),
            )
        except (KeyError, ValueError) as e:
            if isinstance(e, NotationError):
                raise
            raise NotationError(f"not an Indian Rummy view: {e}") from e


View: TypeAlias = ManipulationView | IndianView
"""A view of a game or match of any family (``view.family`` says which)."""


def view_from_json(data: object) -> View:
    """Read a view of either family back from its JSON (its ``family`` key says which)."""
    family = _obj(data, "a view").get("family")
    if family == "indian":
        return IndianView.from_json(data)
    if family == "manipulation":
        return ManipulationView.from_json(data)
    raise NotationError(f"a view's family is 'manipulation' or 'indian', not {family!r}")
