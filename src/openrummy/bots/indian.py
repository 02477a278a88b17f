"""Simple Indian Rummy bots, for tests and demos: ``random`` and ``simple``.

``simple`` always draws from the stock, throws the card the hand solver says leaves the least
deadwood, and declares as soon as it can. ``random`` takes random legal steps, sometimes drops,
and now and then declares wrongly (which the rules punish), so tests see every path.
"""

from __future__ import annotations

import random

from openrummy.cards import Card
from openrummy.games.actions import Action, Declare, Discard, Draw, Drop, Show, TakeDiscard
from openrummy.games.views import IndianView, View
from openrummy.melds import Meld, MeldItem
from openrummy.rules.indian import IndianRules
from openrummy.solve.hand import analyse_draw, min_deadwood

from .base import BotInfo

__all__ = ["IndianRandomBot", "IndianSimpleBot"]


def indian_view(view: View) -> IndianView:
    """``view`` as an Indian Rummy view (a bot of this family gets no other)."""
    if not isinstance(view, IndianView):
        raise TypeError(f"an Indian Rummy bot cannot play from a {view.family} view")
    return view


def _hand(view: IndianView) -> list[Card]:
    if view.hand is None:
        raise ValueError("a spectator view has no seat to play for")
    return list(view.hand)


def throwable(view: IndianView) -> list[Card]:
    """The cards the seat may discard now (not the one just taken, if the rules say so)."""
    hand = _hand(view)
    card = view.taken
    if card is not None and not view.may_discard_taken and hand.count(card) < 2:
        return [c for c in hand if c != card]
    return hand


def _seat(view: IndianView) -> int:
    if view.seat is None:
        raise ValueError("a spectator view has no seat to play for")
    return view.seat


def _show(rules: IndianRules, view: IndianView) -> Show:
    hand = _hand(view)
    wilds = rules.wilds(view.indicator)
    arr = min_deadwood(hand, rules, wilds)
    loose = [Meld((MeldItem(c, None if c.is_joker else c),)) for c in arr.deadwood]
    assert view.seat is not None
    return Show(view.seat, (*arr.groups, *loose))


class IndianSimpleBot:
    """Draws from the stock, throws what the solver says, declares when it can."""

    name = "simple"

    def __init__(self, rules: IndianRules, seed: int = 0):
        self.rules = rules

    def choose(self, view: View) -> Action:
        view = indian_view(view)
        seat = _seat(view)
        legal = view.legal
        if "show" in legal:
            return _show(self.rules, view)
        if "draw" in legal:
            return Draw(seat)
        hand = _hand(view)
        wilds = self.rules.wilds(view.indicator)
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

    def choose(self, view: View) -> Action:
        view = indian_view(view)
        seat = _seat(view)
        legal = view.legal
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
            wilds = self.rules.wilds(view.indicator)
            analysis = analyse_draw(hand, self.rules, wilds)
            if analysis.declare_with is not None and analysis.declaration is not None:
                groups = analysis.declaration.groups + _loose(analysis.declaration.loose)
                return Declare(seat, analysis.declare_with, groups)
        return Discard(seat, rng.choice(throwable(view)))


BOTS: tuple[BotInfo, ...] = (
    BotInfo(
        "random",
        "any legal action at random, now and then a careless play (for tests)",
        frozenset({"indian"}),
        lambda rules, seed: IndianRandomBot(rules, seed),
        level=0,
    ),
    BotInfo(
        "simple",
        "Indian: draws from the stock, throws the card the solver suggests, declares when it can",
        frozenset({"indian"}),
        lambda rules, seed: IndianSimpleBot(rules, seed),
        level=1,
    ),
)
"""The bots of this module (:mod:`openrummy.bots.registry` lists them)."""
