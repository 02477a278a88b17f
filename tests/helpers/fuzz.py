"""The fuzz campaign's core: random legal and illegal actions with invariants checked.

One fuzzed match (:func:`fuzz_match`) plays a seeded match of one case of :data:`CASES`
(every preset under every match format) and at every step sends either what a bot chose
(the random bot: legal actions and careless plays that fail) or an illegal action: a
legal action sent by the wrong seat, an action word the phase does not allow, a play or a
discard of cards the seat does not hold. After every step it checks that

* no card is created or lost (the round's multiset of cards is constant),
* a manipulation table is valid after every accepted play, and a failed play left it as
  it was,
* a rejected action (an error raised) changed nothing: every seat's view, the spectator's
  view and the history are as before,

and when the match ends (or its step budget is spent) that its record replays to the same
state: the same views for every seat and the spectator. ``scripts/fuzz.py`` runs the
campaign; ``tests/games/test_fuzz.py`` runs a seeded slice.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from openrummy.bots import make_bot
from openrummy.cards import Card, standard_deck
from openrummy.errors import RummyError
from openrummy.games.actions import Play
from openrummy.games.families import new_match
from openrummy.melds import Meld, MeldItem
from openrummy.record import GameRecord
from openrummy.rules import find_preset

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

WORDS = ("draw", "pass", "end", "take", "drop", "discard", "declare", "show", "play")


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
    finished: bool = False
    violations: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def case_label(index: int) -> str:
    game, options = CASES[index]
    return f"{game} {json.dumps(options, sort_keys=True)}"


def _snapshot(match: Any) -> tuple[str, tuple[Any, ...]]:
    """Everything any seat or a spectator can see (as one string), and the history.

    The history is compared as its (immutable) actions, not as their texts: writing every
    action out at every step made the check quadratic in the match's length.
    """
    views = [match.view(s, now=0.0) for s in range(match.players)]
    views.append(match.view(None, now=0.0))
    return json.dumps(views, sort_keys=True, default=str), tuple(match.history)


def _illegal(match: Any, rng: random.Random, legal_action: Any) -> Any:
    """An action that is probably not allowed now (some turn out legal: still checked)."""
    seat = match.current
    kind = rng.randrange(4)
    if kind == 0 and match.players > 1:
        other = rng.choice([s for s in range(match.players) if s != seat])
        return dataclasses.replace(legal_action, seat=other)
    deck = standard_deck(2, 2)
    if kind == 1:
        word = rng.choice(WORDS)
        if word == "discard":
            word += f" {rng.choice(deck)}"
        return match.parse_action(word, seat)
    if kind == 2 and match.rules.family == "manipulation":
        # a play of cards the seat may not hold, as a meld that may not be valid
        cards = rng.sample(deck, rng.randint(1, 4))
        items = tuple(MeldItem(c, None if c.is_joker else c) for c in cards)
        table = [*match.game.table, Meld(items)]
        return Play(seat, tuple(table))
    return match.parse_action(f"discard {rng.choice(deck)}", seat)


def _cards(game: Any) -> Counter[Card]:
    counted: Counter[Card] = game.all_cards()
    return counted


def fuzz_match(
    case: int, seed: int, *, max_steps: int = 2000, illegal_rate: float = 0.3
) -> MatchReport:
    """Fuzz one match of ``CASES[case]`` dealt from ``seed``; see the module docstring."""
    game_name, options = CASES[case]
    rules = find_preset(game_name, options)
    rng = random.Random(f"fuzz {case} {seed}")
    players = rng.randint(rules.players.min, min(rules.players.max, 4))
    match: Any = new_match(rules, players, seed=seed, started_at=0.0, clock=lambda: 0.0)
    bots = [make_bot("random", rules, seed * 10 + s) for s in range(players)]
    report = MatchReport(case, seed)

    def violation(text: str) -> None:
        report.violations.append(f"{case_label(case)} seed {seed} step {report.steps}: {text}")

    while match.outcome is None and report.steps < max_steps and not report.violations:
        report.steps += 1
        seat = match.current
        chosen = bots[seat].choose(match.view(seat))
        action = chosen
        if rng.random() < illegal_rate:
            try:
                action = _illegal(match, rng, chosen)
            except RummyError:
                action = chosen  # the text did not parse for this family: not an action
            else:
                report.illegal_sent += 1
        game = match.game
        before = _snapshot(match)
        cards = _cards(game)
        table_before = list(game.table) if rules.family == "manipulation" else None
        try:
            result = match.apply(action)
        except RummyError:
            report.rejected += 1
            if _snapshot(match) != before:
                violation(f"the rejected action {action} changed the state")
            continue
        report.accepted += 1
        if match.game is game and _cards(game) != cards:
            violation(
                f"{action} created or lost cards: {(_cards(game) - cards) or (cards - _cards(game))}"
            )
        if table_before is not None and isinstance(result.action, Play):
            if result.accepted:
                bad = [str(m) for m in game.table if not m.is_valid(rules.meld_rules)]
                if bad:
                    violation(f"{action} was accepted but left invalid melds {bad}")
            else:
                report.failed_plays += 1
                if list(game.table) != table_before:
                    violation(f"the failed play {action} changed the table")
    report.finished = match.outcome is not None
    if not report.violations:
        record = GameRecord.loads(GameRecord.from_match(match).dumps())
        try:
            again = record.replay()
        except RummyError as e:
            violation(f"the record does not replay: {e}")
        else:
            report.replays += 1
            if _snapshot(again) != _snapshot(match):
                violation("the record replays to a different state")
    return report
