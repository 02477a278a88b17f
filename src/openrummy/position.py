"""Positions as notation: one line of text for what one seat knows of a game.

A position is to a rummy game what FEN is to chess: the rules, the table, the seat's hand,
whose turn it is, who has opened, and the piles and counts the seat can see, written on one
line that reads back to the same value (``docs/positions.md`` describes every field)::

    >>> p = Position.parse("robbers | seat 0 | turn 0 | sizes 4 11 | hand 3S 4H 4D JK"
    ...                    " | table [4S 5S 6S 7S] | opened 0 1 | stock 89")
    >>> p.hand_sizes, str(p.table[0]), p.opened
    ((4, 11), '[4S 5S 6S 7S]', (0, 1))
    >>> Position.parse(str(p)) == p
    True
    >>> p
    Position.parse('robbers | seat 0 | turn 0 | sizes 4 11 | hand 3S 4H 4D JK | table [4S 5S 6S 7S] | opened 0 1 | stock 89')

Fields are separated by ``|``; each starts with its name, except the first, which is the
preset followed by the options that differ from it (``robbers meld.ace_mode=WRAPAROUND``).
Fields may come in any order and most may be left out (``docs/positions.md`` gives the
defaults); :func:`str` writes them in one canonical order. Bad text raises
:class:`~openrummy.errors.NotationError` naming the token and why.

:meth:`Position.from_game` takes a position from a running game (or match) for one seat;
:meth:`Position.to_game` builds a game in that position, dealing the cards the seat cannot
see (the other hands, the stock) from the unseen cards with a seed.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from openrummy.cards import Card, check_deck_kind, standard_deck, tile_set
from openrummy.errors import ConfigError, IllegalActionError, NotationError, RummyError
from openrummy.melds import Meld
from openrummy.messages import Reason
from openrummy.rules import find_preset
from openrummy.rules.indian import IndianRules
from openrummy.rules.manipulation import ManipulationRules

__all__ = ["Position"]

Rules = ManipulationRules | IndianRules

_FIELDS: Final = (
    "seat",
    "turn",
    "sizes",
    "hand",
    "table",
    "opened",
    "indicator",
    "stock",
    "discard",
    "draws",
    "dropped",
    "invalid",
    "passes",
    "phase",
)
_MANIPULATION_ONLY: Final = frozenset({"table", "opened", "passes"})
_INDIAN_ONLY: Final = frozenset({"indicator", "draws", "dropped", "invalid"})
_PHASES: Final = {
    "manipulation": ("START", "PLAYED", "DREW", "DISCARD"),
    "indian": ("START", "DISCARD"),
}
_MELD_TOKEN: Final = re.compile(r"\[[^\[\]]*\]|\S+")
_NUMBER: Final = re.compile(r"[0-9]{1,6}")


@dataclass(frozen=True, slots=True)
class Position:
    """What one seat knows of a game, as a value; see the module text and docs/positions.md."""

    game: str
    """The preset's name (``robbers``, ``indian13`` …)."""
    options: tuple[tuple[str, str], ...] = ()
    """Options that differ from the preset, as sorted ``(name, text value)`` pairs."""
    seat: int = 0
    """The seat whose knowledge this is."""
    turn: int = 0
    """The seat to move."""
    hand_sizes: tuple[int, ...] = ()
    """How many cards each seat holds (the seat's own included)."""
    hand: tuple[Card, ...] = ()
    """The seat's cards, in sorted order."""
    table: tuple[Meld, ...] = ()
    """Manipulation games: the melds on the table, jokers with their roles."""
    opened: tuple[int, ...] = ()
    """Manipulation games: the seats that have made their opening meld."""
    indicator: Card | None = None
    """Indian Rummy: the card turned up to set the wild rank."""
    stock: int = 0
    """Cards in the stock."""
    discard: tuple[Card, ...] = ()
    """The known top of the discard pile, bottom to top (Indian Rummy: the whole pile)."""
    discard_size: int = 0
    """Cards in the discard pile (at least ``len(discard)``)."""
    draws: tuple[int, ...] = ()
    """Indian Rummy: draws each seat has made this hand (empty: none yet)."""
    dropped: tuple[int, ...] = ()
    """Indian Rummy: seats that dropped out of this hand."""
    invalid: tuple[int, ...] = ()
    """Indian Rummy: seats out of this hand after an invalid declaration."""
    passes: int = 0
    """Manipulation games: consecutive passes on an empty stock (stalemate count)."""
    phase: str = "START"
    """Where the turn stands: ``START`` or, after a draw, ``DISCARD`` (and ``PLAYED``,
    ``DREW`` in the play–draw–play model)."""
    _rules: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        # One value per position: the hand is a multiset and the seat lists are sets,
        # written in sorted order.
        object.__setattr__(self, "hand", tuple(sorted(self.hand, key=Card.sort_key)))
        for name in ("opened", "dropped", "invalid"):
            object.__setattr__(self, name, tuple(sorted(getattr(self, name))))

    # -- rules ------------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rules: the preset with :attr:`options` applied."""
        if self._rules is None:
            rules = find_preset(self.game, dict(self.options))
            object.__setattr__(self, "_rules", rules)
        result: Rules = self._rules
        return result

    @property
    def family(self) -> str:
        return self.rules.family

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    # -- text -------------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Position:
        """Read a position; raises :class:`NotationError` naming the bad token and why."""
        if not isinstance(text, str):
            raise NotationError(f"a position is text, not {type(text).__name__}")
        parts = [p.strip() for p in text.strip().split("|")]
        if not parts[0]:
            raise NotationError(Reason.of("position.no_game"))
        rules, options = _parse_game(parts[0])
        family = rules.family
        fields: dict[str, str] = {}
        for part in parts[1:]:
            if not part:
                raise NotationError(Reason.of("position.empty_field"))
            name, _, value = part.partition(" ")
            name = name.lower()
            if name not in _FIELDS:
                raise NotationError(
                    Reason.of("position.unknown_field", field=name, text=", ".join(_FIELDS))
                )
            if name in fields:
                raise NotationError(Reason.of("position.field_twice", field=name))
            if family == "indian" and name in _MANIPULATION_ONLY:
                raise NotationError(Reason.of("position.manipulation_field", field=name))
            if family == "manipulation" and name in _INDIAN_ONLY:
                raise NotationError(Reason.of("position.indian_field", field=name))
            fields[name] = value.strip()
        return _build(rules, options, fields)

    def __str__(self) -> str:
        head = " ".join([self.game, *(f"{k}={v}" for k, v in self.options)])
        out = [
            head,
            f"seat {self.seat}",
            f"turn {self.turn}",
            "sizes " + " ".join(map(str, self.hand_sizes)),
            "hand " + (" ".join(map(str, self.hand)) or "-"),
        ]
        if self.family == "manipulation":
            out.append("table " + (" ".join(map(str, self.table)) or "-"))
            out.append("opened " + (" ".join(map(str, self.opened)) or "-"))
        else:
            out.append(f"indicator {self.indicator}")
        out.append(f"stock {self.stock}")
        if self.discard_size:
            known = " ".join(map(str, self.discard))
            if self.discard_size > len(self.discard):
                known = f"{self.discard_size} {known}".strip()
            out.append(f"discard {known}")
        if any(self.draws):
            out.append("draws " + " ".join(map(str, self.draws)))
        if self.dropped:
            out.append("dropped " + " ".join(map(str, self.dropped)))
        if self.invalid:
            out.append("invalid " + " ".join(map(str, self.invalid)))
        if self.passes:
            out.append(f"passes {self.passes}")
        if self.phase != "START":
            out.append(f"phase {self.phase}")
        return " | ".join(out)

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    # -- from and to games ------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Any, seat: int) -> Position:
        """The position of ``seat`` in a running game, or in a match's current round (match
        seat numbers are mapped to the round's)."""
        if hasattr(game, "seats") and hasattr(game, "game"):
            if seat not in game.seats:
                raise IllegalActionError(f"seat {seat} does not play this round")
            seat = game.seats.index(seat)
            game = game.game
        rules = game.rules
        if not 0 <= seat < game.players:
            raise IllegalActionError(f"there is no seat {seat}")
        if game.outcome is not None:
            raise IllegalActionError("the round is over: a finished round has no position")
        common: dict[str, Any] = {
            "seat": seat,
            "turn": game.current,
            "hand_sizes": tuple(len(h) for h in game.hands),
            "hand": tuple(game.hands[seat]),
            "stock": game.stock_size,
            "phase": game.phase.value,
        }
        if rules.family == "indian":
            status = [s.value for s in game.status]
            return cls._make(
                rules,
                indicator=game.indicator,
                discard=tuple(game.discard_pile),
                discard_size=len(game.discard_pile),
                draws=tuple(game.draws) if any(game.draws) else (),
                dropped=tuple(i for i, s in enumerate(status) if s == "DROPPED"),
                invalid=tuple(i for i, s in enumerate(status) if s == "ELIMINATED"),
                **common,
            )
        pile = game.discard_pile
        return cls._make(
            rules,
            table=tuple(game.table),
            opened=tuple(i for i, o in enumerate(game.opened) if o),
            discard=(pile[-1],) if pile else (),
            discard_size=len(pile),
            passes=game.pass_count,
            **common,
        )

    @classmethod
    def from_view(cls, view: Mapping[str, Any] | Any, rules: Rules | None = None) -> Position:
        """The position a seat's view shows (``game.view(seat)``, or its JSON form). A view
        names its preset but not its options: pass ``rules`` when they differ from the
        preset's. A match view lists seats that sit the round out (a pool's eliminated
        players) with no cards; :meth:`from_game` numbers the round's own seats instead."""
        if not isinstance(view, Mapping) and hasattr(view, "to_json"):
            view = view.to_json()
        try:
            seat = view["seat"]
            if seat is None:
                raise NotationError("a spectator's view has no hand: take a seat's view")
            if rules is None:
                rules = find_preset(view["game"])
            sizes = tuple(0 if n is None else n for n in view["hand_sizes"])
            common: dict[str, Any] = {
                "seat": seat,
                "turn": view["current"],
                "hand_sizes": sizes,
                "hand": tuple(Card.parse(c) for c in view["hand"]),
                "stock": view["stock"],
                "phase": view["phase"],
            }
            if rules.family == "indian":
                status = view["statuses"]
                pile = tuple(Card.parse(c) for c in view["discard_pile"])
                draws = tuple(0 if d is None else d for d in view["draws"])
                return cls._make(
                    rules,
                    indicator=Card.parse(view["indicator"]),
                    discard=pile,
                    discard_size=len(pile),
                    draws=draws if any(draws) else (),
                    dropped=tuple(i for i, s in enumerate(status) if s == "DROPPED"),
                    invalid=tuple(i for i, s in enumerate(status) if s == "ELIMINATED"),
                    **common,
                )
            top = view.get("discard_top")
            return cls._make(
                rules,
                table=tuple(Meld.parse(" ".join(m)) for m in view["table"]),
                opened=tuple(i for i, o in enumerate(view["opened"]) if o),
                discard=(Card.parse(top),) if top else (),
                discard_size=view.get("discard_size", 0),
                passes=view.get("pass_count", 0),
                **common,
            )
        except (KeyError, TypeError) as e:
            raise NotationError(f"not a seat's view: {e!r} is missing or malformed") from None

    @classmethod
    def _make(cls, rules: Rules, **kw: Any) -> Position:
        base = find_preset(rules.name)
        options = tuple(
            sorted(
                (k, _option_text(mine)) for k, (mine, _) in rules.describe_differences(base).items()
            )
        )
        p = cls(game=rules.name, options=options, **kw)
        object.__setattr__(p, "_rules", rules)
        p.check()
        return p

    def check(self) -> None:
        """Raise :class:`NotationError` unless this position can occur under its rules."""
        _check(self, self.rules)

    def unseen(self) -> Counter[Card]:
        """The cards this seat cannot see: the deck minus its hand, the table, the known
        discards and the indicator (the other hands, the stock, the hidden discards)."""
        rules = self.rules
        full: Counter[Card] = Counter(_full_deck(rules))
        full.subtract(self.hand)
        for m in self.table:
            full.subtract(m.cards)
        full.subtract(self.discard)
        if self.indicator is not None:
            full[self.indicator] -= 1
        return +full

    def to_game(self, seed: int | str = 0) -> Any:
        """A game in this position. The cards the seat cannot see are dealt from
        :meth:`unseen` in an order shuffled from ``seed``: to the other hands, then the
        hidden part of the discard pile, then the stock (a wild indicator in play, face up
        under the stock, stays at its bottom)."""
        rules = self.rules
        rest = sorted(self.unseen().elements(), key=Card.sort_key)
        random.Random(seed).shuffle(rest)
        hands: list[list[Card]] = []
        for s, n in enumerate(self.hand_sizes):
            if s == self.seat:
                hands.append(list(self.hand))
            else:
                hands.append(rest[:n])
                del rest[:n]
        hidden = self.discard_size - len(self.discard)
        pile = rest[:hidden] + list(self.discard)
        del rest[:hidden]
        folded: dict[int, list[Card]] = {}
        if isinstance(rules, IndianRules):
            for s in (*self.dropped, *self.invalid):
                folded[s] = rest[: rules.deal.hand_size]
                del rest[: rules.deal.hand_size]
        if isinstance(rules, IndianRules):
            from openrummy.games.indian import IndianGame, IndianPhase, SeatStatus

            assert self.indicator is not None
            g = IndianGame.from_position(
                rules,
                hands=hands,
                indicator=self.indicator,
                stock=rest,
                discard_pile=pile,
                current=self.turn,
                draws=list(self.draws) or None,
            )
            g.out_of_play = [self.indicator]
            if rules.wild.indicator_in_play:  # face up under the stock: drawn last
                g.out_of_play = []
                g._stock.insert(0, self.indicator)
            for s in self.dropped:
                g.status[s] = SeatStatus.DROPPED
                g.out_of_play.extend(folded[s])
            for s in self.invalid:
                g.status[s] = SeatStatus.ELIMINATED
                g.folded[s] = folded[s]
                g.out_of_play.extend(folded[s])
            g.phase = IndianPhase[self.phase]
            return g
        from openrummy.games.manipulation import ManipulationGame, Phase

        game = ManipulationGame.from_position(
            rules,
            hands=hands,
            table=self.table,
            stock=rest,
            discard_pile=pile,
            opened=[s in self.opened for s in range(self.players)],
            current=self.turn,
        )
        game.pass_count = self.passes
        game.phase = Phase[self.phase]
        game._turn_drew = self.phase in ("DREW", "DISCARD")
        return game


# -- reading ---------------------------------------------------------------------------------
def _parse_game(text: str) -> tuple[Rules, tuple[tuple[str, str], ...]]:
    name, *tokens = text.split()
    overrides: dict[str, str] = {}
    for token in tokens:
        key, eq, value = token.partition("=")
        if not eq or not key or not value:
            raise NotationError(Reason.of("position.not_an_option", token=token))
        if key in overrides:
            raise NotationError(Reason.of("position.option_twice", token=key))
        overrides[key] = value
    try:
        rules = find_preset(name, overrides)
    except ConfigError as e:
        raise NotationError(f"{text!r}: {e}") from None
    if not isinstance(rules, (ManipulationRules, IndianRules)):
        raise NotationError(f"{name!r} is not a game with positions")
    base = find_preset(name)
    options = tuple(
        sorted((k, _option_text(mine)) for k, (mine, _) in rules.describe_differences(base).items())
    )
    return rules, options


def _option_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_option_text(v) for v in value)
    return str(value)


def _int(name: str, token: str) -> int:
    if not _NUMBER.fullmatch(token):
        raise NotationError(Reason.of("position.not_a_number", field=name, token=token))
    return int(token)


def _ints(name: str, value: str) -> tuple[int, ...]:
    if value in ("", "-"):
        return ()
    return tuple(_int(name, t) for t in value.split())


def _in_field(field: str, error: NotationError) -> NotationError:
    """``error`` as found in a field: its reason nested when it has one."""
    if error.why is not None:
        return NotationError(Reason.of("position.in_field", field=field, problem=error.why))
    return NotationError(f"{field}: {error}")


def _cards(name: str, tokens: Iterable[str]) -> tuple[Card, ...]:
    out = []
    for t in tokens:
        try:
            out.append(Card.parse(t))
        except NotationError as e:
            raise _in_field(name, e) from None
    return tuple(out)


def _build(rules: Rules, options: tuple[tuple[str, str], ...], f: Mapping[str, str]) -> Position:
    family = rules.family
    hand = () if f.get("hand", "-") in ("", "-") else _cards("hand", f["hand"].split())
    seat = _int("seat", f["seat"]) if "seat" in f else 0
    if "sizes" in f:
        sizes = _ints("sizes", f["sizes"])
    else:
        sizes = tuple(len(hand) for _ in range(max(rules.players.min, seat + 1)))
    table: tuple[Meld, ...] = ()
    if f.get("table", "-") not in ("", "-"):
        melds = []
        for token in _MELD_TOKEN.findall(f["table"]):
            if not token.startswith("["):
                raise NotationError(Reason.of("position.not_a_meld", token=token))
            try:
                melds.append(Meld.parse(token))
            except NotationError as e:
                raise _in_field(f"table: {token}", e) from None
        table = tuple(melds)
    discard: tuple[Card, ...] = ()
    discard_size = 0
    if f.get("discard", "-") not in ("", "-"):
        tokens = f["discard"].split()
        size: int | None = None
        if _NUMBER.fullmatch(tokens[0]):
            size = int(tokens[0])
            tokens = tokens[1:]
        discard = _cards("discard", tokens)
        discard_size = len(discard) if size is None else size
        if discard_size < len(discard):
            raise NotationError(
                f"discard: a pile of {discard_size} cannot show {len(discard)} known cards"
            )
    indicator = None
    if "indicator" in f:
        found = _cards("indicator", f["indicator"].split())
        if len(found) != 1:
            raise NotationError(Reason.of("position.one_indicator", text=f["indicator"]))
        indicator = found[0]
    elif family == "indian":
        raise NotationError(Reason.of("position.needs_indicator"))
    phase = f.get("phase", "START").upper()
    if phase not in _PHASES[family]:
        raise NotationError(
            Reason.of("position.phase", text=phase, form=", ".join(_PHASES[family]))
        )
    draws = _ints("draws", f.get("draws", ""))
    if draws and not any(draws):
        draws = ()
    p = Position(
        game=rules.name,
        options=options,
        seat=seat,
        turn=_int("turn", f["turn"]) if "turn" in f else seat,
        hand_sizes=sizes,
        hand=hand,
        table=table,
        opened=_ints("opened", f.get("opened", "")),
        indicator=indicator,
        stock=0,
        discard=discard,
        discard_size=discard_size,
        draws=draws,
        dropped=_ints("dropped", f.get("dropped", "")),
        invalid=_ints("invalid", f.get("invalid", "")),
        passes=_int("passes", f["passes"]) if "passes" in f else 0,
        phase=phase,
        _rules=rules,
    )
    # The stock is whatever the deck holds beyond the rest; a given count must agree.
    held, deck = _accounting(p, rules)
    stock = deck - held
    if "stock" in f:
        given = _int("stock", f["stock"])
        if given != stock:
            raise NotationError(
                f"stock {given}: the deck has {deck} cards and the hands, table, discard pile "
                f"and cards out of play hold {held}, so the stock holds {stock}"
            )
    if stock < 0:
        raise NotationError(
            f"the position holds {held} cards but the deck has only {deck} (check sizes)"
        )
    object.__setattr__(p, "stock", stock)
    _check(p, rules)
    return p


def _accounting(p: Position, rules: Rules) -> tuple[int, int]:
    """(cards outside the stock, cards in the deck). Outside the stock: the hands, the
    table, the discard pile, the indicator (unless in play) and the hands of Indian players
    who dropped or declared wrongly (out of play, ``deal.hand_size`` each)."""
    held = sum(p.hand_sizes) + sum(len(m) for m in p.table) + p.discard_size
    if isinstance(rules, IndianRules):
        if not rules.wild.indicator_in_play:
            held += 1
        held += rules.deal.hand_size * (len(p.dropped) + len(p.invalid))
    return held, len(_full_deck(rules))


def _full_deck(rules: Rules) -> list[Card]:
    """The game's cards (as the game classes deal them; no game is imported, so that the
    solver's input readers can read positions)."""
    d = rules.deck
    if isinstance(rules, ManipulationRules) and rules.tiles:
        return tile_set(d.standard_decks, d.printed_jokers)
    return standard_deck(d.standard_decks, d.printed_jokers)


def _seats(name: str, seats: Sequence[int], players: int) -> None:
    for s in seats:
        if not 0 <= s < players:
            raise NotationError(
                Reason.of("position.not_a_seat", field=name, index=s, max=players - 1)
            )
    if len(set(seats)) != len(seats):
        raise NotationError(Reason.of("position.seat_twice", field=name))


def _check(p: Position, rules: Rules) -> None:
    players = len(p.hand_sizes)
    if not rules.players.min <= players <= rules.players.max:
        raise NotationError(
            f"sizes: {players} seats; {rules.name} is for {rules.players.min} to "
            f"{rules.players.max} players"
        )
    if not 0 <= p.seat < players:
        raise NotationError(
            Reason.of("position.seat_out_of_range", field="seat", index=p.seat, max=players - 1)
        )
    if not 0 <= p.turn < players:
        raise NotationError(
            Reason.of("position.seat_out_of_range", field="turn", index=p.turn, max=players - 1)
        )
    if len(p.hand) != p.hand_sizes[p.seat]:
        raise NotationError(
            Reason.of(
                "position.hand_size",
                have=len(p.hand),
                index=p.seat,
                count=p.hand_sizes[p.seat],
            )
        )
    _seats("opened", p.opened, players)
    _seats("dropped", p.dropped, players)
    _seats("invalid", p.invalid, players)
    if p.draws and len(p.draws) != players:
        raise NotationError(f"draws: {len(p.draws)} numbers for {players} seats")
    tiles = isinstance(rules, ManipulationRules) and rules.tiles
    seen: Counter[Card] = Counter(p.hand)
    for m in p.table:
        seen.update(m.cards)
    seen.update(p.discard)
    if p.indicator is not None:
        seen[p.indicator] += 1
    full = Counter(_full_deck(rules))
    for card, n in seen.items():
        if not card.is_joker and card.tile != tiles:
            check_deck_kind([card], tiles=tiles, game=rules.name)
        if n > full[card]:
            raise NotationError(
                Reason.of("position.too_many_copies", card=str(card), have=n, max=full[card])
            )
    held, deck = _accounting(p, rules)
    if p.stock != deck - held:
        raise NotationError(
            f"stock {p.stock}: the deck has {deck} cards and {held} are outside the stock"
        )
    for s in (*p.dropped, *p.invalid):
        if p.hand_sizes[s] != 0:
            raise NotationError(f"sizes: seat {s} is out of the hand but holds {p.hand_sizes[s]}")
    if isinstance(rules, ManipulationRules) and p.discard_size and not rules.discard_pile.enabled:
        raise NotationError(
            f"discard: {rules.name} has no discard pile (option discard_pile.enabled)"
        )
    if isinstance(rules, IndianRules) and p.phase == "DISCARD" and p.seat == p.turn:
        need = rules.deal.hand_size + 1
        if len(p.hand) != need:
            raise NotationError(
                f"phase DISCARD: the seat to move has drawn and holds {need} cards, not {len(p.hand)}"
            )
    if isinstance(rules, ManipulationRules):
        mr = rules.meld_rules
        for m in p.table:
            reason = m.check(mr)
            if reason is not None:
                raise NotationError(f"table: {m} is not a valid meld: {reason}")
    try:
        rules.check_players(players)
    except RummyError as e:
        raise NotationError(f"sizes: {e}") from None
