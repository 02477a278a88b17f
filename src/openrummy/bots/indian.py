"""Simple Indian Rummy bots, for tests and demos: ``random`` and ``simple``.

``simple`` always draws from the stock, throws the card the hand solver says leaves the least
deadwood, and declares as soon as it can. ``random`` takes random legal steps, sometimes drops,
and now and then declares wrongly (which the rules punish), so tests see every path.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from openrummy.cards import Card
from openrummy.games.actions import Action, Declare, Discard, Draw, Drop, Show, TakeDiscard
from openrummy.melds import Meld, MeldItem
from openrummy.rules.indian import IndianRules
from openrummy.solve.hand import analyse_draw, min_deadwood

from .registry import BotInfo, register_bot

__all__ = ["IndianRandomBot", "IndianSimpleBot"]


def _hand(view: Mapping[str, Any]) -> list[Card]:
    return [Card.parse(c) for c in view["hand"]]


def throwable(view: Mapping[str, Any]) -> list[Card]:
    """The cards the seat may discard now (not the one just taken, if the rules say so)."""
    hand = _hand(view)
    taken = view.get("taken")
    if taken and not view.get("may_discard_taken", True):
        card = Card.parse(taken)
        if hand.count(card) < 2:
            return [c for c in hand if c != card]
    return hand


def _show(rules: IndianRules, view: Mapping[str, Any]) -> Show:
    hand = _hand(view)
    wilds = rules.wilds(Card.parse(view["indicator"]))
    arr = min_deadwood(hand, rules, wilds)
    loose = [Meld((MeldItem(c, None if c.is_joker else c),)) for c in arr.deadwood]
    return Show(view["seat"], (*arr.groups, *loose))


class IndianSimpleBot:
    """Draws from the stock, throws what the solver says, declares when it can."""

    name = "simple"

    def __init__(self, rules: IndianRules, seed: int = 0):
        self.rules = rules

    def choose(self, view: Mapping[str, Any]) -> Action:
        seat = view["seat"]
        legal = view["legal"]
        if "show" in legal:
            return _show(self.rules, view)
        if "draw" in legal:
            return Draw(seat)
        hand = _hand(view)
        wilds = self.rules.wilds(Card.parse(view["indicator"]))
        analysis = analyse_draw(hand, self.rules, wilds)
        if analysis.declare_with is not None and analysis.declaration is not None:
            return Declare(
                seat,
                analysis.declare_with,
                analysis.declaration.groups + _loose(analysis.declaration.loose),
            )
        allowed = throwable(view)
        if analysis.discard in allowed:
            return Discard(seat, analysis.discard)
        best = min(
            (o for o in analysis.options if o.card in allowed),
            key=lambda o: (o.arrangement.points, o.arrangement.raw),
        )
        return Discard(seat, best.card)


def _loose(cards: tuple[Card, ...]) -> tuple[Meld, ...]:
    """21-card count forms leave loose cards: show them as one group of their own."""
    if not cards:
        return ()
    return (Meld(tuple(MeldItem(c, None if c.is_joker else c) for c in cards)),)


class IndianRandomBot:
    """Random legal steps; sometimes a drop, sometimes a wrong declaration."""

    name = "random"

    def __init__(
        self,
        rules: IndianRules,
        seed: int = 0,
        *,
        drop_rate: float = 0.03,
        blunder_rate: float = 0.03,
    ):
        self.rules = rules
        self.rng = random.Random(seed)
        self.drop_rate = drop_rate
        self.blunder_rate = blunder_rate

    def choose(self, view: Mapping[str, Any]) -> Action:
        seat = view["seat"]
        legal = view["legal"]
        rng = self.rng
        if "show" in legal:
            return _show(self.rules, view)
        if "draw" in legal:
            if rng.random() < self.drop_rate:
                return Drop(seat)
            if "take" in legal and rng.random() < 0.3:
                return TakeDiscard(seat)
            return Draw(seat)
        hand = _hand(view)
        if rng.random() < self.blunder_rate:
            finish = rng.choice(hand)
            rest = list(hand)
            rest.remove(finish)
            return Declare(
                seat, finish, (Meld(tuple(MeldItem(c, None if c.is_joker else c) for c in rest)),)
            )
        if rng.random() < 0.5:
            wilds = self.rules.wilds(Card.parse(view["indicator"]))
            analysis = analyse_draw(hand, self.rules, wilds)
            if analysis.declare_with is not None and analysis.declaration is not None:
                groups = analysis.declaration.groups + _loose(analysis.declaration.loose)
                return Declare(seat, analysis.declare_with, groups)
        return Discard(seat, rng.choice(throwable(view)))


register_bot(
    BotInfo(
        "random",
        "any legal action at random, now and then a careless play (for tests)",
        frozenset({"indian"}),
        lambda rules, seed: IndianRandomBot(rules, seed),
        level=0,
    )
)
register_bot(
    BotInfo(
        "simple",
        "Indian: draws from the stock, throws the card the solver suggests, declares when it can",
        frozenset({"indian"}),
        lambda rules, seed: IndianSimpleBot(rules, seed),
        level=1,
    )
)
