"""Difficulty levels for players: ``easy``, ``medium``, ``hard`` and ``expert`` in every family.

A level is a bot chosen so that each level is measurably stronger than the one below
(``docs/strength.md``: p < 0.01 on wins over at least 1,000 mirrored deals). Which bot plays
a level depends on the game, because what makes a difference is not the same:

* **Rummikub** (tiles): the exact one-turn optimisers are level with each other (the deal
  decides between them), so the levels differ in how much of the table they may use:
  ``easy`` lays melds from its own hand only; ``medium`` also adds tiles to table melds but
  never rearranges (the research bot ``simple``); ``hard`` also rearranges at most one
  table meld a turn (:class:`OneMeldBot`); ``expert`` rearranges the whole table and looks
  ahead (the research bot ``expert``).
* **Robbers' Rummy and Vatikan** (cards): ``easy`` never rearranges (``simple``),
  ``medium`` rearranges the whole table and opens at once (``greedy``), ``hard`` also times
  its opening and keeps its jokers (``strategic``), ``expert`` looks ahead (``expert``).
* **Indian Rummy**: see :data:`INDIAN_LEVELS`.

The research names (``random``, ``simple``, ``greedy``, ``strategic``, ``expert``) stay
available everywhere (``rummy simulate``); the levels are what the lobby and ``rummy play``
offer.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final

from openrummy.cards import Card
from openrummy.errors import RummyError
from openrummy.games.actions import Action, Declare, Discard, Draw, Play
from openrummy.games.commit import commit_violations, opening_required
from openrummy.games.views import View
from openrummy.melds import Meld, MeldKind
from openrummy.rules.indian import IndianRules
from openrummy.rules.manipulation import ManipulationRules, OpeningType
from openrummy.solve import best_play
from openrummy.solve.hand import analyse_draw

from ._melds import best_disjoint, hand_melds, lay_off
from .base import Bot, BotInfo, SeenPosition, read_view
from .indian import _loose, _show, indian_view, throwable
from .simple import _default_action, plan_simple_play

__all__ = [
    "CARD_LEVELS",
    "INDIAN_LEVELS",
    "LEVELS",
    "TILE_LEVELS",
    "HandOnlyBot",
    "IndianCarelessBot",
    "OneMeldBot",
    "describe_level",
    "level_bot",
    "level_kind",
    "plan_hand_play",
    "plan_one_meld_play",
    "touched_melds",
]

LEVELS: Final[tuple[str, ...]] = ("easy", "medium", "hard", "expert")
"""The difficulty levels, weakest first."""

TILE_LEVELS: Final[dict[str, str]] = {
    "easy": "hand-only",
    "medium": "simple",
    "hard": "one-meld",
    "expert": "expert",
}
"""Rummikub: the bot behind each level (research names, or this module's bots)."""

CARD_LEVELS: Final[dict[str, str]] = {
    "easy": "simple",
    "medium": "greedy",
    "hard": "strategic",
    "expert": "expert",
}
"""Robbers' Rummy and Vatikan: the research bot behind each level."""

INDIAN_LEVELS: Final[dict[str, str]] = {
    "easy": "careless",
    "medium": "simple",
    "hard": "strategic",
    "expert": "expert",
}
"""Indian Rummy: the research bot behind each level."""


def level_kind(rules: Any) -> str:
    """Which level table a game uses: ``rummikub`` (tiles), ``cards`` or ``indian``."""
    if rules.family == "indian":
        return "indian"
    return "rummikub" if rules.tiles else "cards"


def level_bot(level: str, rules: Any) -> str:
    """The bot name behind ``level`` in ``rules``' game."""
    table = {"rummikub": TILE_LEVELS, "cards": CARD_LEVELS, "indian": INDIAN_LEVELS}
    return table[level_kind(rules)][level]


def describe_level(level: str, kind: str, lang: str = "en") -> str:
    """What a player meets at ``level`` in a game of ``kind`` (:func:`level_kind`), in
    ``lang`` (the message catalogue's ``level.KIND.LEVEL``)."""
    from openrummy.messages import render

    return render({"reason": f"level.{kind}.{level}"}, lang)


# -- easy in Rummikub: melds from the hand only ------------------------------------------------


def plan_hand_play(rules: ManipulationRules, pos: SeenPosition) -> Play | None:
    """Melds made of hand cards alone, laid beside the table (opening with them if needed);
    never a card on a table meld."""
    mr = rules.meld_rules
    candidates = hand_melds(pos.hand, mr)
    must_open = not pos.opened and opening_required(rules)
    if must_open and rules.opening.type is OpeningType.RUN_FROM_HAND:
        scores = [
            len(m) * 100
            + (1000 if m.kind(mr) is MeldKind.RUN and len(m) >= rules.opening.run_length else 0)
            for m in candidates
        ]
    elif must_open:
        scores = [rules.opening_value(m) for m in candidates]
    else:
        scores = [len(m) * 100 + rules.opening_value(m) for m in candidates]
    chosen, _ = best_disjoint(candidates, pos.hand, scores)
    if not chosen:
        return None
    play = Play(pos.seat, (*pos.table, *chosen))
    return play if _ok(rules, pos, play) else None


class HandOnlyBot:
    """Lays melds from its own hand only; never adds to or rearranges the table."""

    name = "hand-only"

    def __init__(self, rules: ManipulationRules, seed: int = 0):
        self.rules = rules

    def choose(self, view: View) -> Action:
        pos = read_view(view)
        if "play" in pos.legal:
            play = plan_hand_play(self.rules, pos)
            if play is not None:
                return play
        return _default_action(pos)


# -- hard in Rummikub: lay-offs anywhere, at most one table meld rearranged ---------------------


def _ok(rules: ManipulationRules, pos: SeenPosition, play: Play) -> bool:
    return not commit_violations(
        rules,
        table_before=pos.table,
        hand=pos.hand,
        table_after=play.table,
        opened=pos.opened,
        retrievals=play.retrievals,
        mover=pos.seat,
        owners_before=pos.owners,
    )


def _placed(rules: ManipulationRules, pos: SeenPosition, table: Sequence[Meld]) -> tuple[int, int]:
    """Hand cards a table holds beyond the old one: (how many, their penalty value)."""
    before = Counter(c for m in pos.table for c in m.cards)
    after = Counter(c for m in table for c in m.cards)
    new = list((after - before).elements())
    return len(new), sum(rules.penalty_value(c) for c in new)


def _related(meld: Meld, hand: Sequence[Card]) -> list[Card]:
    """The hand cards that could join ``meld``'s cards in a new arrangement: jokers, cards of
    its ranks, and cards of its suits within two ranks of it."""
    cards = [c for c in meld.cards if not c.is_joker]
    ranks = {c.rank for c in cards}
    suits = {c.suit for c in cards}
    lo, hi = min(ranks, default=1) - 2, max(ranks, default=13) + 2
    return [
        c for c in hand if c.is_joker or c.rank in ranks or (c.suit in suits and lo <= c.rank <= hi)
    ]


def _solve(
    rules: ManipulationRules, table: Sequence[Meld], hand: Sequence[Card], opened: bool
) -> tuple[tuple[Meld, ...], list[Card]] | None:
    """The exact solver's best arrangement of ``table`` with ``hand``: (melds, cards left),
    or None when it places nothing."""
    if not hand:
        return None
    try:
        got = best_play(rules, table, hand, opened=opened, keep_melds=False)
    except RummyError:
        return None
    return (got.table, list(got.hand)) if got.count else None


_LAID_OFF: Final = 2
"""How many of the best candidate plays (by cards placed before lay-offs) get lay-offs."""


def plan_one_meld_play(rules: ManipulationRules, pos: SeenPosition) -> Play | None:
    """The best of a few plays that rearrange at most one table meld: the exact solver's
    melds from the hand alone; or, for each table meld with related hand cards, the
    solver's best rearrangement of that meld with them, then the solver's melds from the
    rest of the hand. After each, the cards left are laid off on the other melds one at a
    time; the most cards, then the most value, wins. Before opening only the hand's own
    melds count (the solver applies the opening rule), with lay-offs after them where the
    rules allow table play on the opening turn."""
    mr = rules.meld_rules
    table = list(pos.table)
    must_open = not pos.opened and opening_required(rules)
    lay_offs = not must_open or rules.opening.allow_table_play_same_turn
    own = _solve(rules, [], pos.hand, pos.opened)
    own_placed = Counter(pos.hand) - Counter(own[1]) if own is not None else Counter[Card]()
    candidates: list[tuple[int | None, tuple[Meld, ...], list[Card]]] = []
    if own is not None:
        candidates.append((None, own[0], own[1]))
    elif must_open:
        return None  # no opening from the hand
    else:
        candidates.append((None, (), list(pos.hand)))
    if not must_open:
        for i, meld in enumerate(table):
            related = _related(meld, pos.hand)
            if len(related) < 2 and len(meld) < 5:
                continue  # one card can only join a short meld by a lay-off
            got = _solve(rules, [meld], related, True)
            if got is None:
                continue
            melds, _ = got
            rest = Counter(pos.hand) - _placed_cards([meld], melds)
            if own is not None and not own_placed - rest:
                # the hand's own melds are still there: no need to ask the solver again
                melds, rest = (*melds, *own[0]), rest - own_placed
                left = list(rest.elements())
            else:
                left = list(rest.elements())
                more = _solve(rules, [], left, True)
                if more is not None:
                    melds, left = (*melds, *more[0]), more[1]
            candidates.append((i, melds, left))
    # lay-offs can only add cards: only the most promising few are laid off and checked
    candidates.sort(key=lambda c: len(c[2]))
    best: tuple[tuple[int, int], Play] | None = None
    for which, melds, left in candidates[:_LAID_OFF]:
        others = table if which is None else table[:which] + table[which + 1 :]
        if lay_offs and left:
            others, left = lay_off(others, left, mr)
        after = (*others, *melds)
        score = _placed(rules, pos, after)
        if score[0] == 0 or (best is not None and score <= best[0]):
            continue
        play = Play(pos.seat, after)
        if _ok(rules, pos, play):
            best = (score, play)
    return None if best is None else best[1]


def _placed_cards(before: Sequence[Meld], after: Sequence[Meld]) -> Counter[Card]:
    return Counter(c for m in after for c in m.cards) - Counter(c for m in before for c in m.cards)


class OneMeldBot:
    """Lays melds from its hand and off on any meld; rearranges at most one table meld a
    turn (the best such play by the exact solver)."""

    name = "one-meld"

    def __init__(self, rules: ManipulationRules, seed: int = 0):
        self.rules = rules

    def choose(self, view: View) -> Action:
        pos = read_view(view)
        if "play" in pos.legal:
            play = plan_one_meld_play(self.rules, pos)
            if play is None:
                play = plan_simple_play(self.rules, pos)
            if play is not None:
                return play
        return _default_action(pos)


def touched_melds(before: Sequence[Meld], after: Sequence[Meld]) -> int:
    """How many melds of ``before`` a play rearranged: those whose cards do not all stay
    together in one meld of ``after`` (a meld that only grew by lay-offs is not touched).
    Each meld of ``after`` holds at most one old meld (matched exactly)."""
    holds = [
        [j for j, new in enumerate(after) if not Counter(old.cards) - Counter(new.cards)]
        for old in before
    ]
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j in holds[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    kept = sum(place(i, set()) for i in range(len(before)))
    return len(before) - kept


# -- easy in Indian Rummy: keeps its melds, throws any loose card ------------------------------


class IndianCarelessBot:
    """Draws from the stock, declares when it can, keeps its melds and throws one of its
    loose cards at random (not the one that leaves the least deadwood)."""

    name = "careless"

    def __init__(self, rules: IndianRules, seed: int = 0):
        self.rules = rules
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        view = indian_view(view)
        seat, legal, hand = view.seat, view.legal, view.hand
        if seat is None or hand is None:
            raise ValueError("a spectator view has no seat to play for")
        if "show" in legal:
            return _show(self.rules, view)
        if "draw" in legal:
            return Draw(seat)
        analysis = analyse_draw(hand, self.rules, self.rules.wilds(view.indicator))
        if analysis.declare_with is not None and analysis.declaration is not None:
            groups = analysis.declaration.groups + _loose(analysis.declaration.loose)
            return Declare(seat, analysis.declare_with, groups)
        allowed = set(throwable(view))
        options = [o for o in analysis.options if o.card in allowed]
        melded = {o.card: sum(len(g) for g in o.arrangement.groups) for o in options}
        most = max(melded.values())
        loose = sorted((c for c, n in melded.items() if n == most), key=Card.sort_key)
        return Discard(seat, self.rng.choice(loose))


# -- the level bots -------------------------------------------------------------------------


def _by_level(level: str) -> Callable[[Any, int], Bot]:
    def make(rules: Any, seed: int) -> Bot:
        from .registry import make_bot

        return make_bot(level_bot(level, rules), rules, seed)

    return make


BOTS: tuple[BotInfo, ...] = (
    BotInfo(
        "hand-only",
        "lays melds from its own hand only; never adds to or rearranges the table",
        frozenset({"manipulation"}),
        lambda rules, seed: HandOnlyBot(rules, seed),
        level=1,
    ),
    BotInfo(
        "one-meld",
        "lays off on any meld and rearranges at most one table meld a turn (exact solver)",
        frozenset({"manipulation"}),
        lambda rules, seed: OneMeldBot(rules, seed),
        level=1,
    ),
    BotInfo(
        "careless",
        "draws from the stock, declares when it can, keeps its melds and throws any loose card",
        frozenset({"indian"}),
        lambda rules, seed: IndianCarelessBot(rules, seed),
        level=1,
    ),
)
"""This module's research bots (:mod:`openrummy.bots.registry` lists them)."""


def _level_text(level: str, family: str) -> str:
    if family == "indian":
        return f"{level} level: the {INDIAN_LEVELS[level]} bot"
    return (
        f"{level} level: {TILE_LEVELS[level]} in Rummikub, "
        f"{CARD_LEVELS[level]} in Robbers' Rummy and Vatikan"
    )


LEVEL_BOTS: tuple[BotInfo, ...] = tuple(
    BotInfo(
        level,
        _level_text(level, family),
        frozenset({family}),
        _by_level(level),
        level=4 + i,
    )
    for family in ("manipulation", "indian")
    for i, level in enumerate(LEVELS[:3])
)
"""``easy``, ``medium`` and ``hard`` of each family (``expert`` is the research bot of that
name in every game)."""
