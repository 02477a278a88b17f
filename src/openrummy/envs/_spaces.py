"""Observation arrays and discrete action menus shared by every environment.

The observation is computed from the seat's **view** only (``match.view(seat)``), so it
cannot hold anything the seat may not see; the action menus are computed from the engine's
legal actions for the seat to move (which depend on its own hand and the public table only).

Seats in the arrays are *relative*: entry 0 is the observing seat, entry 1 the next seat in
turn order, and so on, so a policy learns one seat's point of view for every seat.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from openrummy.cards import Card
from openrummy.games.actions import (
    Action,
    Declare,
    Discard,
    Draw,
    Drop,
    EndTurn,
    Pass,
    Show,
    TakeDiscard,
)
from openrummy.games.candidates import CandidateMenu
from openrummy.games.families import Match
from openrummy.games.indian import IndianGame, IndianPhase, SeatStatus
from openrummy.games.manipulation import ManipulationGame, Phase
from openrummy.games.views import ManipulationView, View
from openrummy.melds import Meld
from openrummy.rules import IndianRules, Rules
from openrummy.solve.hand import _CREDIT_GOALS, _min_deadwood, declaration_goal

from ._declare import could_declare

__all__ = [
    "CARD_KINDS",
    "ActionMenu",
    "MenuActions",
    "ObservationLayout",
    "action_size",
    "card_kinds",
    "encode",
    "encode_round",
    "full_counts",
    "layout",
    "menu",
]

CARD_KINDS: Final = 53
"""Card kinds in every count vector: ``Card.index`` (suit * 13 + rank - 1), the joker 52."""

Floats = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

_MANIPULATION_PHASES: Final = (Phase.START, Phase.PLAYED, Phase.DREW, Phase.DISCARD)
_INDIAN_PHASES: Final = (IndianPhase.START, IndianPhase.DISCARD, IndianPhase.SHOW)


@dataclass(frozen=True, slots=True)
class ObservationLayout:
    """Where each part of the flat observation vector lies, and its bounds."""

    parts: tuple[tuple[str, int, float, float], ...]
    """``(name, length, low, high)`` in order."""

    @property
    def size(self) -> int:
        return sum(n for _, n, _, _ in self.parts)

    def slices(self) -> dict[str, slice]:
        """Each part's slice of the vector, by name."""
        out: dict[str, slice] = {}
        start = 0
        for name, n, _, _ in self.parts:
            out[name] = slice(start, start + n)
            start += n
        return out

    def bounds(self) -> tuple[Floats, Floats]:
        low = np.concatenate([np.full(n, lo, np.float32) for _, n, lo, _ in self.parts])
        high = np.concatenate([np.full(n, hi, np.float32) for _, n, _, hi in self.parts])
        return low, high


def layout(rules: Rules, players: int) -> ObservationLayout:
    """The observation layout of ``rules`` for ``players`` seats (see docs/envs.md)."""
    copies = float(max(full_counts(rules)))
    n = players
    parts: list[tuple[str, int, float, float]] = [
        ("hand", CARD_KINDS, 0.0, copies),
        ("table", CARD_KINDS, 0.0, copies),
        ("discard", CARD_KINDS, 0.0, copies),
        ("discard_top", CARD_KINDS, 0.0, 1.0),
        ("unseen", CARD_KINDS, 0.0, copies),
        ("hand_sizes", n, 0.0, 256.0),
        ("opened", n, 0.0, 1.0),
        ("stock", 1, 0.0, 256.0),
        ("to_move", n, 0.0, 1.0),
    ]
    if isinstance(rules, IndianRules):
        parts += [
            ("phase", len(_INDIAN_PHASES), 0.0, 1.0),
            ("wild_rank", 14, 0.0, 1.0),
            ("draws", n, 0.0, 256.0),
            ("taken", CARD_KINDS, 0.0, 1.0),
        ]
    else:
        parts += [("phase", len(_MANIPULATION_PHASES), 0.0, 1.0)]
    parts.append(("standings", n, -1e6, 1e6))
    return ObservationLayout(tuple(parts))


def full_counts(rules: Rules) -> Floats:
    """How many copies of each card kind the game's deck holds."""
    deck = (
        IndianGame.full_deck(rules)
        if isinstance(rules, IndianRules)
        else ManipulationGame.full_deck(rules)
    )
    out = np.zeros(CARD_KINDS, np.float32)
    for c in deck:
        out[c.index] += 1
    return out


def card_kinds(rules: Rules) -> tuple[Card | None, ...]:
    """The card of each kind index in this game's deck (``None``: not in the deck)."""
    deck = (
        IndianGame.full_deck(rules)
        if isinstance(rules, IndianRules)
        else ManipulationGame.full_deck(rules)
    )
    kinds: list[Card | None] = [None] * CARD_KINDS
    for c in deck:
        kinds[c.index] = c
    return tuple(kinds)


def _counts(out: Floats, cards: Sequence[Card]) -> None:
    for c in cards:
        out[c.index] += 1


def encode(view: View, lay: ObservationLayout, deck: Floats) -> Floats:
    """The flat observation of ``view`` (its seat's point of view)."""
    seat = view.seat
    if seat is None:
        raise ValueError("an observation is always of a seat")
    n = view.players
    rel = [(seat + k) % n for k in range(n)]
    obs = np.zeros(lay.size, np.float32)
    sl = lay.slices()
    hand = view.hand or ()
    _counts(obs[sl["hand"]], hand)
    if isinstance(view, ManipulationView):
        _counts(obs[sl["table"]], [c for m in view.table for c in m.cards])
        discard: Sequence[Card] = (view.discard_top,) if view.discard_top is not None else ()
        phases: Sequence[object] = _MANIPULATION_PHASES
        opened = [bool(view.opened[s]) for s in rel]
    else:
        discard = view.discard_pile
        phases = _INDIAN_PHASES
        opened = [view.statuses[s] is SeatStatus.ACTIVE for s in rel]
        wild = sl["wild_rank"]
        obs[wild.start + (view.wild_rank or 0)] = 1.0
        obs[sl["draws"]] = [view.draws[s] or 0 for s in rel]
        if view.taken is not None:
            obs[sl["taken"].start + view.taken.index] = 1.0
    _counts(obs[sl["discard"]], discard)
    if view.discard_top is not None:
        obs[sl["discard_top"].start + view.discard_top.index] = 1.0
    seen = obs[sl["hand"]] + obs[sl["table"]] + obs[sl["discard"]]
    obs[sl["unseen"]] = np.maximum(deck - seen, 0.0)
    obs[sl["hand_sizes"]] = [view.hand_sizes[s] or 0 for s in rel]
    obs[sl["opened"]] = opened
    obs[sl["stock"]] = view.stock
    if view.outcome is None:
        obs[sl["to_move"].start + (view.current - seat) % n] = 1.0
    if view.phase in phases:
        obs[sl["phase"].start + list(phases).index(view.phase)] = 1.0
    if view.match is not None:
        totals = view.match.totals
        obs[sl["standings"]] = [totals[s] for s in rel]
    return obs


def encode_round(
    game: ManipulationGame,
    seat: int,
    totals: Sequence[float],
    lay: ObservationLayout,
    deck: Floats,
    sl: Mapping[str, slice],
) -> Floats:
    """:func:`encode` of ``seat``'s view of a manipulation round whose seats are the
    match's (``totals``: the match standings), read from the round itself: the same
    numbers, without building the view (``sl``: ``lay.slices()``)."""
    n = game.players
    obs = np.zeros(lay.size, np.float32)
    hand = [0] * CARD_KINDS
    for c in game.hands[seat]:
        hand[c.index] += 1
    obs[sl["hand"]] = hand
    table = obs[sl["table"]]
    table[:] = _table_counts(game.table)
    top = game.discard_pile[-1] if game.discard_pile else None
    if top is not None:
        obs[sl["discard"].start + top.index] = 1.0
        obs[sl["discard_top"].start + top.index] = 1.0
    seen = obs[sl["hand"]] + table + obs[sl["discard"]]
    obs[sl["unseen"]] = np.maximum(deck - seen, 0.0)
    rel = [(seat + k) % n for k in range(n)]
    obs[sl["hand_sizes"]] = [len(game.hands[s]) for s in rel]
    obs[sl["opened"]] = [bool(game.opened[s]) for s in rel]
    obs[sl["stock"]] = game.stock_size
    if game.outcome is None:
        obs[sl["to_move"].start + (game.current - seat) % n] = 1.0
    if game.phase in _MANIPULATION_PHASES:
        obs[sl["phase"].start + _MANIPULATION_PHASES.index(game.phase)] = 1.0
    obs[sl["standings"]] = [totals[s] for s in rel]
    return obs


_last_table: list[tuple[tuple[Meld, ...], list[int]]] = []


def _table_counts(table: tuple[Meld, ...]) -> list[int]:
    """The card counts of a table (the last table's remembered: it stays for many steps)."""
    if _last_table and _last_table[0][0] is table:
        return _last_table[0][1]
    counts = [0] * CARD_KINDS
    for meld in table:
        for c in meld.cards:
            counts[c.index] += 1
    _last_table[:] = [(table, counts)]
    return counts


def _may_declare(game: IndianGame) -> bool:
    """False when no declaration is possible now: the quick test of
    :func:`~openrummy.envs._declare.could_declare`, then one least-deadwood search.

    A valid declaration with finish card ``f`` groups the other cards completely and (when
    the declaration's goal includes the loser's meld-credit goal) meets that goal, so the
    least deadwood of the whole hand is at most ``f``'s value. The 21-card counting forms
    need no melds: there, and in any other phase, the engine's own listing decides.
    """
    rules = game.rules
    if game.phase is not IndianPhase.DISCARD or rules.is_v21:
        return True
    if not could_declare(game.hands[game.current], game.wilds):
        return False
    credit = rules.scoring.loser_meld_credit
    if not declaration_goal(rules).includes(_CREDIT_GOALS[credit]):
        return True
    hand = game.hands[game.current]
    wilds = game.wilds
    most = max(rules.hand_value([c], wilds) for c in hand)
    return _min_deadwood(hand, rules, wilds, credit).raw <= most


# -- action menus ----------------------------------------------------------------------------

DRAW, TAKE, PASS_OR_DROP, END_OR_SHOW = 0, 1, 2, 3
"""The fixed action ids of every family (Indian: 2 is drop, 3 is show; manipulation: 2 is
pass, 3 is end turn)."""
DISCARD0: Final = 4
"""``DISCARD0 + k``: discard (throw) a card of kind ``k``."""
SECOND0: Final = DISCARD0 + CARD_KINDS
"""Indian: ``SECOND0 + k`` declares with a card of kind ``k`` as the finish card.
Manipulation: ``SECOND0 + i`` is the ``i``-th macro play (the engine's candidate plays)."""


def action_size(rules: Rules, plays: int) -> int:
    """How many discrete actions the family's menu has."""
    return SECOND0 + (CARD_KINDS if isinstance(rules, IndianRules) else plays)


class MenuActions(Mapping[int, Action]):
    """A manipulation menu's actions by id: the listed actions, then the macro plays from
    ``SECOND0`` on, each play made (and the solver asked, if it must be) only when looked
    up; the ids are known at once."""

    def __init__(
        self, listed: dict[int, Action], plays: CandidateMenu, seats: Sequence[int]
    ) -> None:
        self._listed = listed
        self._plays = plays
        self._seats = seats

    def __getitem__(self, key: int) -> Action:
        if key in self._listed:
            return self._listed[key]
        i = key - SECOND0
        if not 0 <= i < len(self._plays):
            raise KeyError(key)
        play = self._plays[i]
        return dataclasses.replace(play, seat=self._seats[play.seat])

    def __iter__(self) -> Iterator[int]:
        yield from self._listed
        yield from range(SECOND0, SECOND0 + len(self._plays))

    def __len__(self) -> int:
        return len(self._listed) + len(self._plays)


@dataclass(frozen=True, slots=True)
class ActionMenu:
    """The actions the seat to move may take now, by discrete action id."""

    seat: int
    actions: Mapping[int, Action]

    def mask(self, size: int) -> Mask:
        out = np.zeros(size, np.int8)
        for i in self.actions:
            out[i] = 1
        return out


def menu(match: Match, plays: int, *, solver: bool = True) -> ActionMenu:
    """The discrete menu of the seat to move: every listed legal action with an id, and for
    manipulation games up to ``plays`` candidate plays (the solver's best first; without
    it when ``solver`` is False)."""
    seat = match.current
    actions: dict[int, Action] = {}
    game = match.game
    if isinstance(game, IndianGame) and not _may_declare(game):
        # No finish card can make a declaration: list the rest without the hand solver's
        # declaration search for every card.
        for card in sorted(set(game.hands[game.current]), key=Card.sort_key):
            discard = Discard(seat, card)
            if match.is_legal(discard):
                actions[DISCARD0 + card.index] = discard
        return ActionMenu(seat, actions)
    for action in match.legal_actions():
        if isinstance(action, Draw):
            actions[DRAW] = action
        elif isinstance(action, TakeDiscard):
            actions[TAKE] = action
        elif isinstance(action, (Pass, Drop)):
            actions[PASS_OR_DROP] = action
        elif isinstance(action, (EndTurn, Show)):
            actions[END_OR_SHOW] = action
        elif isinstance(action, Discard):
            actions[DISCARD0 + action.card.index] = action
        elif isinstance(action, Declare):
            actions.setdefault(SECOND0 + action.finish.index, action)
    if not isinstance(game, ManipulationGame) or match.is_over:
        return ActionMenu(seat, actions)
    return ActionMenu(
        seat, MenuActions(actions, game.candidate_menu(plays, solver=solver), match.seats)
    )
