"""The fuzz campaign's core: random legal and illegal actions with invariants checked.

One fuzzed match (:func:`fuzz_match`) plays a seeded match of one case of :data:`CASES`
(every preset under every match format) and at every step sends either an action of the
fuzz's own player (:class:`Chooser`: legal actions, careless plays that fail, now and then
the solver's or the simple bot's play) or an illegal action (:func:`_illegal`): a legal
action sent by the wrong seat, an action word the phase does not allow, a play or a
discard of cards the seat does not hold, a meld whose joker stands for a card it cannot
be, a joker retrieval the play cannot pay for, a declaration or a show of groups that are
not the hand. After every step it checks that

* no card is created or lost (the round's multiset of cards is constant),
* a manipulation table is valid after every accepted play, and a failed play left it as
  it was,
* a rejected action (an error raised) changed nothing: the match's whole state (every
  attribute of the match and of its round, the random generators' states, the history) is
  as before (:func:`fingerprint`, which is finer than every seat's and the spectator's
  view, since the views are computed from that state),
* the engine raised no error other than its own (a crash is reported, not raised),

and that the record replays to the same state: a second match (the *shadow*), dealt from
the match's record header written and read back, is fed every accepted action through the
record's form of an action as it happens, and its state is compared with the match's every
:data:`SHADOW_EVERY` steps; at the end the whole record is written and read back, its
actions finish the shadow's replay, and the two states, every seat's and the spectator's
views and the outcomes must agree (every tenth seed also replays the record with
:meth:`GameRecord.replay` itself). A random seat's (or the spectator's) view is built every
:data:`VIEW_EVERY` steps.

``scripts/fuzz.py`` runs the campaign; ``tests/games/test_fuzz.py`` runs a seeded slice.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import random
import types
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from openrummy.bots.base import SeenPosition
from openrummy.bots.simple import plan_simple_play
from openrummy.cards import JOKER, Card, Suit, standard_deck
from openrummy.errors import RummyError
from openrummy.games.actions import (
    Abandon,
    Action,
    ActionKind,
    Declare,
    Discard,
    Draw,
    Drop,
    EndTurn,
    Pass,
    Play,
    Retrieval,
    Show,
    TakeDiscard,
    action_from_json,
    action_to_json,
)
from openrummy.games.commit import opening_required
from openrummy.games.families import new_match
from openrummy.melds import Meld, MeldItem
from openrummy.record import GameRecord
from openrummy.rules import find_preset
from openrummy.rules.manipulation import OpeningType
from openrummy.solve.hand import analyse_draw, min_deadwood

CASES: list[tuple[str, dict[str, object]]] = [
    ("robbers", {"match.rounds": 2}),
    ("robbers", {"match.format": "SINGLE_ROUND"}),
    ("robbers", {"match.format": "FIRST_TO_N_OUTS", "match.outs_to_win": 2}),
    ("robbers", {"match.format": "SINGLE_ROUND", "discard_pile.enabled": True}),
    ("robbers", {"match.format": "SINGLE_ROUND", "turn.model": "PLAY_DRAW_PLAY"}),
    ("robbers", {"match.format": "SINGLE_ROUND", "meld.ownership": "OWNED"}),
    ("robbers_s003", {}),
    ("vatikan_s000", {"match.rounds": 2}),
    ("vatikan_pagat", {}),
    ("rummikub", {"match.rounds": 2}),
    ("rummikub", {"match.format": "SINGLE_ROUND", "fail.mode": "REJECT"}),
    ("indian13", {}),
    ("indian13", {"match.format": "POOL", "pool.threshold": 101}),
    ("indian13", {"match.format": "POOL", "pool.threshold": 201}),
    ("indian13", {"match.format": "DEALS"}),
    ("indian13", {"match.format": "FIXED_HANDS", "match.hands": 2}),
    ("indian13", {"scoring.loser_arrangement": "SUBMITTED"}),
    ("indian10", {}),
    ("indian21", {}),
]
"""(preset, options): every preset under every match format, and the rule switches that
change which actions exist."""

WORDS = ("draw", "pass", "end", "take", "drop", "discard", "declare", "show", "play", "abandon")

SHADOW_EVERY = 16
"""Steps between two comparisons of the shadow match's state with the match's."""

GUIDED_RATE = 0.25
"""The share of Indian matches whose throws the hand solver guides (see :class:`Chooser`)."""

VIEW_EVERY = 4
"""Steps between two views built (of a random seat, or the spectator's)."""

SOLVER_RATE = 0.005
"""The share of an opened seat's play turns on which the chooser plays one of the table
solver's candidate plays (a search of up to a second on a full table); Indian discard turns
ask the hand solver on a few times this share (see :class:`Chooser`)."""


@dataclass
class MatchReport:
    """What one fuzzed match did."""

    case: int
    seed: int
    steps: int = 0
    accepted: int = 0
    rejected: int = 0
    failed_plays: int = 0
    illegal_sent: int = 0
    replays: int = 0
    solver_turns: int = 0
    finished: bool = False
    kinds: dict[str, int] = field(default_factory=dict)
    """Accepted actions by the code of their event (``drew``, ``play_failed``, …)."""
    violations: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def case_label(index: int) -> str:
    game, options = CASES[index]
    return f"{game} {json.dumps(options, sort_keys=True)}"


# -- the state's fingerprint ---------------------------------------------------------------
_ATOMS: set[type] = {int, float, str, bool, bytes, type(None), Card, Meld, MeldItem}
"""Types whose values cannot change (frozen dataclasses and enums join on first sight)."""
_SKIPPED = frozenset({"clock"})
"""Attributes that are not state (the clock is a function the fuzz fixes at 0)."""
_UNLIKE_HISTORY = _SKIPPED | {"history"}
"""What the shadow's state is compared without: the histories only grow, and their new
entries are compared apart (comparing them whole at every check was quadratic)."""


def _is_atom(kind: type) -> bool:
    if kind in _ATOMS:
        return True
    params = getattr(kind, "__dataclass_params__", None)
    if (params is not None and params.frozen) or issubclass(kind, enum.Enum):
        _ATOMS.add(kind)
        return True
    return False


def fingerprint(value: Any, skip: frozenset[str] = _SKIPPED) -> Any:
    """A comparable copy of everything ``value`` holds: lists, dicts and sets become tuples
    (recursively), objects their attributes, random generators their states; values of
    immutable types (cards, melds, frozen dataclasses, enums, numbers, strings) are kept.

    Two fingerprints are equal exactly when the two states are equal, so comparing the
    fingerprints before and after a rejected action checks that nothing changed. Attributes
    named in ``skip`` are left out, at every depth.
    """
    kind = type(value)
    if kind is list or kind is tuple:
        if set(map(type, value)) <= _ATOMS:
            return tuple(value)
        return tuple(fingerprint(v, skip) for v in value)
    if _is_atom(kind):
        return value
    if isinstance(value, dict):
        return ("dict", tuple((k, fingerprint(v, skip)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset(fingerprint(v, skip) for v in value))
    if isinstance(value, random.Random):
        return ("rng", value.getstate())
    if isinstance(value, (list, tuple)):
        return tuple(fingerprint(v, skip) for v in value)
    if isinstance(value, (types.FunctionType, types.MethodType)):
        return ("function", value.__qualname__)
    attrs = getattr(value, "__dict__", None)
    if attrs is None:
        slots = [s for k in kind.__mro__ for s in getattr(k, "__slots__", ())]
        attrs = {s: getattr(value, s) for s in slots if hasattr(value, s)}
    return (
        kind.__name__,
        tuple((k, fingerprint(v, skip)) for k, v in attrs.items() if k not in skip),
    )


def _cards(game: Any) -> Counter[Card]:
    counted: Counter[Card] = game.all_cards()
    return counted


def _views(match: Any) -> str:
    """Everything any seat or a spectator can see, as one text."""
    views = [match.view(s, now=0.0) for s in range(match.players)]
    views.append(match.view(None, now=0.0))
    return json.dumps([v.to_json() for v in views], sort_keys=True, default=str)


# -- the fuzz's player ---------------------------------------------------------------------
def _meld(cards: Any) -> Meld:
    """The cards as one group as they are (a joker standing for nothing named)."""
    return Meld(tuple(MeldItem(c, None if c.is_joker else c) for c in cards))


def _loose(cards: Any) -> tuple[Meld, ...]:
    """Every card a group of its own."""
    return tuple(_meld((c,)) for c in cards)


class Chooser:
    """Legal actions at random, cheaply, from the round's state (no views, no commit checks
    before sending: the engine judges).

    Manipulation: a play is one option beside draw, pass, end and take, and is only looked
    for when drawn: melds from the hand (sets and runs of its natural cards, two of a rank
    with a joker; before an opening only ones worth the opening, mostly) and single-card
    lay-offs; on :data:`SOLVER_RATE` of an opened seat's play turns one of the table
    solver's candidate plays (rearrangements, joker retrievals), on as many the simple bot's
    planned play; on ``blunder_rate`` a careless play (a card pushed into a meld) is an
    option too, and one step in 500 abandons. Indian: draw, take or drop; throw a card
    without a partner in the hand (or any); ask whether the hand is complete without the
    card about to be thrown (one hand-solver call) when no card is without a partner and
    on ``8 * SOLVER_RATE`` of discard turns, for the full draw analysis on ``4 *
    SOLVER_RATE`` (hands of up to 14 cards); sometimes a wrong declaration."""

    def __init__(self, match: Any, rng: random.Random, *, blunder_rate: float = 0.05) -> None:
        self.match = match
        self.rules = match.rules
        self.rng = rng
        self.blunder_rate = blunder_rate
        self.solver_turns = 0
        self.guided = self.rules.family == "indian" and rng.random() < GUIDED_RATE
        """An Indian match whose throws the hand solver picks (so that hands get complete:
        declarations that are valid, and the show after them)."""

    def choose(self) -> Action:
        match = self.match
        game = match.game
        seat = match.current
        if self.rules.family == "manipulation":
            return self._manipulation(game, seat)
        return self._indian(game, seat)

    # manipulation --------------------------------------------------------------------------
    def _manipulation(self, game: Any, seat: int) -> Action:
        rng = self.rng
        kinds = game.legal_kinds()
        hand = game.hands[game.current]
        if ActionKind.DISCARD in kinds:
            return Discard(seat, rng.choice(hand))
        if ActionKind.ABANDON in kinds and rng.random() < 0.002:
            return Abandon(seat)
        simple: tuple[tuple[ActionKind, Callable[[int], Action]], ...] = (
            (ActionKind.DRAW, Draw),
            (ActionKind.PASS, Pass),
            (ActionKind.END, EndTurn),
            (ActionKind.TAKE, TakeDiscard),
        )
        options = [make(seat) for kind, make in simple if kind in kinds]
        if ActionKind.PLAY in kinds and hand:
            # a play is one option among the others: it is only looked for when drawn
            if rng.random() < self.blunder_rate:
                options.append(self._careless(game, seat))
            if not options or rng.randrange(len(options) + 1) == 0:
                play = self._play(game, seat)
                if play is not None:
                    return play
        return rng.choice(options) if options else self._careless(game, seat)

    def _play(self, game: Any, seat: int) -> Play | None:
        rng, rules = self.rng, self.rules
        r = rng.random()
        local = game.current
        hand = tuple(game.hands[local])
        opened = bool(game.opened[local])
        must_open = not opened and opening_required(rules)
        if r < SOLVER_RATE and not must_open:
            # (an opening's exact search takes seconds: the solver plays only opened seats)
            self.solver_turns += 1
            plays = list(self.match.candidate_plays(3))
            return rng.choice(plays) if plays else None
        if r < 2 * SOLVER_RATE:
            pos = SeenPosition(
                seat=local,
                hand=hand,
                table=tuple(game.table),
                owners=tuple(game.owners),
                opened=opened,
                phase=game.phase.value,
                legal=game.legal_kinds(),
                stock=len(game._stock),
                discard_top=game.discard_pile[-1] if game.discard_pile else None,
                hand_sizes=tuple(len(h) for h in game.hands),
            )
            planned = plan_simple_play(rules, pos)
            return None if planned is None else Play(seat, planned.table)
        mr = rules.meld_rules
        left = Counter(hand)
        table = list(game.table)
        new = _hand_melds(hand, mr, rng)
        if must_open:
            new.sort(key=rules.opening_value, reverse=True)
        laid = 0
        for meld in new:
            need = Counter(meld.cards)
            if all(left[c] >= n for c, n in need.items()):
                left -= need
                table.append(meld)
                laid += 1
                if not must_open and rng.random() < 0.5:
                    break
        if must_open and rules.opening.type is OpeningType.POINTS:
            value = sum(rules.opening_value(m) for m in table[len(game.table) :])
            if value < rules.opening.threshold and rng.random() < 0.9:
                return None  # mostly not worth sending: it would fail the opening
        if not must_open or (rules.opening.allow_table_play_same_turn and laid):
            cards = list(left.elements())
            rng.shuffle(cards)
            for card in cards[:4]:
                if not table or card.is_joker:
                    continue
                i = rng.randrange(len(table))
                grown = Meld((*table[i].items, MeldItem(card, card)))
                if grown.is_valid(mr):
                    table[i] = grown.normalized(mr)
                    left[card] -= 1
        if sum(left.values()) == len(hand):
            return None
        return Play(seat, tuple(table))

    def _careless(self, game: Any, seat: int) -> Play:
        """Push one hand card into a random meld (or lay it alone): usually invalid."""
        rng = self.rng
        card = rng.choice(game.hands[game.current])
        item = MeldItem(card, None if card.is_joker else card)
        table: list[Meld] = list(game.table)
        if table and rng.random() < 0.7:
            i = rng.randrange(len(table))
            table[i] = Meld((*table[i].items, item))
        else:
            table.append(Meld((item,)))
        return Play(seat, tuple(table))

    # Indian ----------------------------------------------------------------------------------
    def _indian(self, game: Any, seat: int) -> Action:
        rng, rules = self.rng, self.rules
        kinds = game.legal_kinds()
        hand = list(game.hands[game.current])
        if ActionKind.SHOW in kinds:
            if rng.random() < 0.5:
                self.solver_turns += 1
                arr = min_deadwood(hand, rules, game.wilds)
                return Show(seat, (*arr.groups, *_loose(arr.deadwood)))
            return Show(seat, _loose(hand))
        slip = 0.005 if self.guided else 0.03  # drops and wrong declarations
        if ActionKind.DRAW in kinds:
            if rng.random() < slip:
                return Drop(seat)
            if ActionKind.TAKE in kinds and rng.random() < 0.3:
                return TakeDiscard(seat)
            return Draw(seat)
        r = rng.random()
        if r < slip:
            finish = rng.choice(hand)
            rest = list(hand)
            rest.remove(finish)
            return Declare(seat, finish, (_meld(rest),))
        loose = _unconnected(hand, game.wilds)
        if r < 0.03 + 4 * SOLVER_RATE and len(hand) <= 14:
            self.solver_turns += 1
            analysis = analyse_draw(hand, rules, game.wilds)
            if analysis.declare_with is not None and analysis.declaration is not None:
                groups = analysis.declaration.groups
                if analysis.declaration.loose:
                    groups += (_meld(analysis.declaration.loose),)
                return Declare(seat, analysis.declare_with, groups)
        taken = game._taken
        if taken is not None and rules.discard.no_same_card_return and hand.count(taken) < 2:
            hand = [c for c in hand if c != taken] or hand
            loose = [c for c in loose if c != taken]
        if self.guided and hand:
            # of three cards (unpartnered first), throw the one whose loss leaves the least
            # deadwood by the hand solver; declare when that leaves none
            full = game.hands[game.current]
            picks = (loose + rng.sample(hand, min(3, len(hand))))[:3]
            best: tuple[int, Card, Any] | None = None
            for card in dict.fromkeys(picks):
                rest = list(full)
                rest.remove(card)
                self.solver_turns += 1
                arr = min_deadwood(rest, rules, game.wilds)
                if not arr.deadwood:
                    return Declare(seat, card, arr.groups)
                if best is None or arr.points < best[0]:
                    best = (arr.points, card, arr)
            if best is not None:
                return Discard(seat, best[1])
        throw = rng.choice(loose if loose and rng.random() < 0.8 else hand)
        if (not loose and rng.random() < 0.3) or r < 0.03 + 8 * SOLVER_RATE:
            # would the hand be complete without the card about to be thrown?
            self.solver_turns += 1
            rest = list(game.hands[game.current])
            rest.remove(throw)
            arr = min_deadwood(rest, rules, game.wilds)
            if not arr.deadwood:
                return Declare(seat, throw, arr.groups)
        return Discard(seat, throw)


def _unconnected(hand: list[Card], wilds: Any) -> list[Card]:
    """The hand's cards that no other card could meld with (no wild, no card of the same
    rank, none of the same suit within two ranks)."""
    out = []
    for i, c in enumerate(hand):
        if wilds.is_wild(c):
            continue
        for j, d in enumerate(hand):
            if i != j and (
                d.rank == c.rank
                or wilds.is_wild(d)
                or (d.suit == c.suit and (abs(d.rank - c.rank) <= 2 or d.rank + c.rank >= 26))
            ):
                break
        else:
            out.append(c)
    return out


def _hand_melds(hand: tuple[Card, ...], mr: Any, rng: random.Random) -> list[Meld]:
    """Some valid melds of the hand's natural cards: sets of one rank, runs of one suit
    (maximal stretches of three or more), in random order."""
    naturals = sorted({c for c in hand if not c.is_joker}, key=Card.sort_key)
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[Any, list[Card]] = {}
    for c in naturals:
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.suit, []).append(c)
    out: list[Meld] = []
    for group in by_rank.values():
        if len(group) >= 3:
            out.append(Meld(tuple(MeldItem(c, c) for c in group[:4])))
    for group in by_suit.values():
        run = [group[0]]
        for c in group[1:]:
            if c.rank == run[-1].rank + 1:
                run.append(c)
                continue
            if len(run) >= 3:
                out.append(Meld(tuple(MeldItem(x, x) for x in run)))
            run = [c]
        if len(run) >= 3:
            out.append(Meld(tuple(MeldItem(x, x) for x in run)))
    jokers = sum(1 for c in hand if c.is_joker)
    if jokers:
        # two of a rank and a joker standing for a third suit
        for group in by_rank.values():
            if len(group) == 2 and rng.random() < 0.5:
                suit = next(s for s in Suit if s not in {c.suit for c in group})
                joker = MeldItem(JOKER, Card(group[0].rank, suit, group[0].tile))
                out.append(Meld((*(MeldItem(c, c) for c in group), joker)))
    valid = [m for m in out if m.is_valid(mr)]
    rng.shuffle(valid)
    return valid


# -- illegal actions -----------------------------------------------------------------------
_DECK = standard_deck(2, 2)
"""Cards to send that the seat may well not hold."""


def _illegal(match: Any, rng: random.Random, legal_action: Action) -> Action:
    """An action that is probably not allowed now (some turn out legal: still checked)."""
    seat = match.current
    game = match.game
    manipulation = match.rules.family == "manipulation"
    kind = rng.randrange(7)
    if kind == 0 and match.players > 1:
        other = rng.choice([s for s in range(match.players) if s != seat])
        return dataclasses.replace(legal_action, seat=other)
    deck = _DECK
    if kind == 1:
        word = rng.choice(WORDS)
        if word == "discard":
            word += f" {rng.choice(deck)}"
        parsed: Action = match.parse_action(word, seat)
        return parsed
    if kind == 2 and manipulation:
        # a play of cards the seat may not hold, as a meld that may not be valid
        cards = rng.sample(deck, rng.randint(1, 4))
        items = tuple(MeldItem(c, None if c.is_joker else c) for c in cards)
        return Play(seat, (*game.table, Meld(items)))
    if kind == 3 and manipulation:
        # joker misuse: a joker of the hand (or not) standing for a card the meld cannot hold
        hand = game.hands[game.current]
        naturals = [c for c in hand if not c.is_joker][:2]
        ident = rng.choice(deck)
        if ident.is_joker:
            ident = deck[0]
        items = (*(MeldItem(c, c) for c in naturals), MeldItem(JOKER, ident))
        return Play(seat, (*game.table, Meld(items)))
    if kind == 4 and manipulation:
        # a joker retrieval the play does not pay for, or from a meld that is not there
        table = tuple(game.table)
        where = rng.randrange(len(table) + 2)
        ident, repl = rng.choice(deck), rng.choice(deck)
        retrievals = tuple(
            Retrieval(where, ident, repl, from_table=rng.random() < 0.5)
            for _ in range(rng.randint(1, 3))
        )
        return Play(seat, table, retrievals)
    if kind == 5 and not manipulation:
        # a declaration or a show of groups that are not the hand
        hand = list(game.hands[game.current])
        cards = rng.sample(deck, min(len(hand), len(deck)))
        if rng.random() < 0.5:
            return Show(seat, _loose(cards))
        return Declare(seat, rng.choice(hand or deck), _loose(cards[1:]))
    if kind == 6:
        # a legal action with a malformed seat
        return dataclasses.replace(legal_action, seat=rng.choice((-1, match.players, 99)))
    return Discard(seat, rng.choice(deck))


# -- one fuzzed match ----------------------------------------------------------------------
def _through_record(action: Action) -> Action:
    """``action`` written as a record writes it and read back (the JSON text around it is
    checked at the end, when the whole record is written and read)."""
    return action_from_json(action_to_json(action))


def fuzz_match(
    case: int,
    seed: int,
    *,
    max_steps: int = 2000,
    illegal_rate: float = 0.3,
    full_replay_every: int = 10,
) -> MatchReport:
    """Fuzz one match of ``CASES[case]`` dealt from ``seed``; see the module docstring.

    Every ``full_replay_every``-th seed also replays its record with
    :meth:`GameRecord.replay` itself.
    """
    game_name, options = CASES[case]
    rules = find_preset(game_name, options)
    rng = random.Random(f"fuzz {case} {seed}")
    players = rng.randint(rules.players.min, min(rules.players.max, 4))
    match: Any = new_match(rules, players, seed=seed, started_at=0.0, clock=lambda: 0.0)
    # the shadow is dealt from the match's record (its header written and read back)
    header = GameRecord.loads(GameRecord.from_match(match).dumps())
    shadow: Any = header.new_match(clock=lambda: 0.0)
    chooser = Chooser(match, rng)
    report = MatchReport(case, seed)
    fed = 0
    compared = [0, 0, 0]  # the match's history compared, the round, the round's history

    def violation(text: str) -> None:
        report.violations.append(f"{case_label(case)} seed {seed} step {report.steps}: {text}")

    def shadow_agrees(actions: list[Action]) -> bool:
        """Feed the shadow ``actions[fed:]`` and compare its state with the match's."""
        nonlocal fed
        try:
            for action in actions[fed:]:
                shadow.apply(_through_record(action))
                fed += 1
        except RummyError as e:
            violation(f"the recorded action {actions[fed]} does not replay: {e}")
            return False
        mine, its = match.game.history, shadow.game.history
        if compared[1] != len(match.rounds):
            compared[1:] = [len(match.rounds), 0]  # a new round: its history from the start
        same = (
            len(shadow.history) == len(match.history)
            and len(its) == len(mine)
            and shadow.history[compared[0] :] == match.history[compared[0] :]
            and its[compared[2] :] == mine[compared[2] :]
            and fingerprint(shadow, _UNLIKE_HISTORY) == fingerprint(match, _UNLIKE_HISTORY)
        )
        if not same:
            violation("the recorded actions replay to a different state")
            return False
        compared[:] = [len(match.history), len(match.rounds), len(mine)]
        return True

    state = fingerprint(match)
    game = match.game
    cards = _cards(game)
    while match.outcome is None and report.steps < max_steps and not report.violations:
        report.steps += 1
        if report.steps % VIEW_EVERY == 0:
            viewer = rng.randrange(players + 1)
            match.view(viewer if viewer < players else None, now=0.0)
        action = chosen = chooser.choose()
        if rng.random() < illegal_rate:
            try:
                action = _illegal(match, rng, chosen)
            except RummyError:
                action = chosen  # the text did not parse for this family: not an action
            else:
                report.illegal_sent += 1
        table_before = game.table if rules.family == "manipulation" else None
        try:
            result = match.apply(action)
        except RummyError:
            report.rejected += 1
            if fingerprint(match) != state:
                violation(f"the rejected action {action} changed the state")
            continue
        except Exception as e:  # a crash is a finding, not the fuzz's end
            violation(f"{action} crashed the engine: {type(e).__name__}: {e}")
            break
        report.accepted += 1
        name = result.event.code.value
        report.kinds[name] = report.kinds.get(name, 0) + 1
        state = fingerprint(match)
        after = _cards(game)  # the round the action was played in, even if it ended
        if not dict.__eq__(after, cards):  # (no zero counts: the dicts' own, fast equality)
            violation(f"{action} created or lost cards: {(after - cards) or (cards - after)}")
        if table_before is not None and isinstance(result.action, Play):
            if result.accepted:
                bad = [str(m) for m in game.table if not m.is_valid(rules.meld_rules)]
                if bad:
                    violation(f"{action} was accepted but left invalid melds {bad}")
            else:
                report.failed_plays += 1
                if game.table != table_before:
                    violation(f"the failed play {action} changed the table")
        if match.game is not game:
            game = match.game
            after = _cards(game)
        cards = after
        if report.steps % SHADOW_EVERY == 0 and not report.violations:
            shadow_agrees(match.history)
    report.finished = match.outcome is not None
    report.solver_turns = chooser.solver_turns
    if report.violations:
        return report
    # the whole record, written and read back: its actions finish the shadow's replay
    record = GameRecord.loads(GameRecord.from_match(match).dumps())
    if record.actions != match.history:
        violation("the record's actions read back differ from the match's history")
    elif shadow_agrees(record.actions):
        ended = None if shadow.outcome is None else shadow.outcome.to_json()
        if (
            fingerprint(shadow) != fingerprint(match)
            or _views(shadow) != _views(match)
            or ended != record.result
        ):
            violation("the record replays to a different state")
        else:
            report.replays += 1
    if seed % full_replay_every == 0 and not report.violations:
        try:
            again = record.replay()
        except RummyError as e:
            violation(f"the record does not replay: {e}")
        else:
            if _views(again) != _views(match):
                violation("the record replays (GameRecord.replay) to different views")
    return report
