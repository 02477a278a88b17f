"""Two simple bots for testing and demos: ``random`` and ``simple``.

``simple`` opens from its hand as soon as it can and lays off cards without rearranging
the table; ``random`` takes any legal action, now and then a deliberately careless play
(which the rules then punish), so tests see failures too. Both check every play they make
with the engine's own commit checks, from their view alone.
"""

from __future__ import annotations

import random
from collections import Counter

from openrummy.games.actions import Action, Discard, Draw, EndTurn, Pass, Play, TakeDiscard
from openrummy.games.commit import commit_violations, opening_required
from openrummy.games.views import View
from openrummy.melds import Meld, MeldItem, MeldKind
from openrummy.rules.manipulation import ManipulationRules, OpeningType

from ._melds import best_disjoint, hand_melds, lay_off
from .base import BotInfo, SeenPosition, read_view

__all__ = ["RandomBot", "SimpleBot", "plan_simple_play"]


def plan_simple_play(rules: ManipulationRules, pos: SeenPosition) -> Play | None:
    """The simple bot's play: melds from the hand (opening if needed), then lay-offs."""
    mr = rules.meld_rules
    candidates = hand_melds(pos.hand, mr)
    must_open = not pos.opened and opening_required(rules)
    if must_open and rules.opening.type is OpeningType.RUN_FROM_HAND:
        candidates_scored = [
            len(m) * 100
            + (1000 if m.kind(mr) is MeldKind.RUN and len(m) >= rules.opening.run_length else 0)
            for m in candidates
        ]
    elif must_open:
        candidates_scored = [rules.opening_value(m) for m in candidates]
    else:
        candidates_scored = [len(m) * 100 + rules.opening_value(m) for m in candidates]
    chosen, _ = best_disjoint(candidates, pos.hand, candidates_scored)
    left = list((Counter(pos.hand) - Counter(c for m in chosen for c in m.cards)).elements())
    table = list(pos.table)
    can_touch_table = not must_open or rules.opening.allow_table_play_same_turn
    if can_touch_table and (pos.opened or chosen or not must_open):
        table, left = lay_off(table, left, mr)
    after = tuple(table) + tuple(chosen)
    if len(left) == len(pos.hand):
        return None
    play = Play(pos.seat, after)
    if _ok(rules, pos, play):
        return play
    # Fall back to the melds alone (e.g. a lay-off on an owned meld), then give up.
    play = Play(pos.seat, tuple(pos.table) + tuple(chosen))
    if chosen and _ok(rules, pos, play):
        return play
    return None


def _ok(rules: ManipulationRules, pos: SeenPosition, play: Play) -> bool:
    return not commit_violations(
        rules,
        table_before=pos.table,
        hand=pos.hand,
        table_after=play.table,
        opened=pos.opened,
        mover=pos.seat,
        owners_before=pos.owners,
    )


def _default_action(pos: SeenPosition, rng: random.Random | None = None) -> Action:
    s = pos.seat
    legal = pos.legal
    if pos.phase == "DISCARD":
        worst = sorted(pos.hand, key=lambda c: (c.is_joker, -c.rank))
        pick = rng.choice(pos.hand) if rng else worst[0] if not worst[0].is_joker else worst[-1]
        return Discard(s, pick)
    if "end" in legal and pos.phase == "PLAYED" and "draw" in legal:
        return Draw(s)
    if "end" in legal:
        return EndTurn(s)
    if "draw" in legal:
        return Draw(s)
    if "pass" in legal:
        return Pass(s)
    if "take" in legal:
        return TakeDiscard(s)
    raise ValueError(f"no action available for seat {s} in phase {pos.phase}")


class SimpleBot:
    """Opens from its hand as soon as it can, then lays off; never rearranges."""

    name = "simple"

    def __init__(self, rules: ManipulationRules, seed: int = 0):
        self.rules = rules

    def choose(self, view: View) -> Action:
        pos = read_view(view)
        if "play" in pos.legal:
            play = plan_simple_play(self.rules, pos)
            if play is not None:
                return play
        return _default_action(pos)


class RandomBot:
    """Any legal action, chosen at random; sometimes a careless play that fails."""

    name = "random"

    def __init__(self, rules: ManipulationRules, seed: int = 0, *, blunder_rate: float = 0.05):
        self.rules = rules
        self.rng = random.Random(seed)
        self.blunder_rate = blunder_rate

    def choose(self, view: View) -> Action:
        pos = read_view(view)
        options: list[Action] = []
        if "play" in pos.legal:
            play = plan_simple_play(self.rules, pos)
            if play is not None:
                options.append(play)
            if pos.hand and self.rng.random() < self.blunder_rate:
                options.append(self._careless(pos))
        if pos.phase == "DISCARD":
            return _default_action(pos, self.rng)
        for word, make in (("draw", Draw), ("pass", Pass), ("end", EndTurn), ("take", TakeDiscard)):
            if word in pos.legal:
                options.append(make(pos.seat))
        return self.rng.choice(options)

    def _careless(self, pos: SeenPosition) -> Play:
        """Push one hand card into a random meld (or lay two alone): usually invalid."""
        card = self.rng.choice(pos.hand)
        item = MeldItem(card, None if card.is_joker else card)
        table: list[Meld] = list(pos.table)
        if table and self.rng.random() < 0.7:
            i = self.rng.randrange(len(table))
            table[i] = Meld((*table[i].items, item))
        else:
            table.append(Meld((item,)))
        return Play(pos.seat, tuple(table))


BOTS: tuple[BotInfo, ...] = (
    BotInfo(
        "random",
        "any legal action at random, now and then a careless play (for tests)",
        frozenset({"manipulation"}),
        lambda rules, seed: RandomBot(rules, seed),
        level=0,
    ),
    BotInfo(
        "simple",
        "opens from its hand as soon as it can and lays off cards; never rearranges",
        frozenset({"manipulation"}),
        lambda rules, seed: SimpleBot(rules, seed),
        level=1,
    ),
)
"""The bots of this module (:mod:`openrummy.bots.registry` lists them)."""
