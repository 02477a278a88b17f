"""Win chance by play-outs from deals sampled consistently with one seat's knowledge.

A seat at a decision sees its own hand, the table (or discard pile) and how many cards each
opponent holds; everything else is hidden. :func:`sample_manipulation_world` and
:func:`sample_indian_world` deal the hidden cards at random among the opponents' hands and
the stock (the manipulation expert bot samples its worlds the same way), keeping what is
public. A play-out then lets bots finish the round (manipulation: the ``simple`` bot, which
lays melds and lay-offs from its hand without rearranging the table, fast enough to run
thousands of play-outs; Indian: the ``greedy`` bot); the seat's share of the round's winners
is the sample's result. Rounds still running after
``max_turns`` actions are judged by who holds the fewest cards (manipulation) or the least
deadwood (Indian), a documented approximation that keeps an estimate cheap.

Every alternative of a decision is played out in the **same** sampled worlds (common random
numbers), so the difference between two alternatives is measured with far less noise than
either chance alone. The samples are drawn from a seeded generator: the same seed gives the
same estimate.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from openrummy.bots.base import read_view
from openrummy.bots.indian_ladder import IndianGreedyBot
from openrummy.bots.manipulation_ladder import ExpertBot
from openrummy.bots.simple import SimpleBot
from openrummy.cards import Card
from openrummy.errors import RummyError
from openrummy.games.actions import Action
from openrummy.games.indian import IndianGame, SeatStatus
from openrummy.games.manipulation import ManipulationGame
from openrummy.games.views import IndianView, ManipulationView
from openrummy.rules import IndianRules, ManipulationRules
from openrummy.solve.hand import min_deadwood, throw_value

__all__ = [
    "WinChance",
    "indian_after_throw",
    "playout",
    "sample_indian_world",
    "sample_manipulation_world",
    "wilson",
]

Game = ManipulationGame | IndianGame


@dataclass(frozen=True, slots=True)
class WinChance:
    """An estimated chance to win the round (0..1) with its 95 % interval (Wilson)."""

    value: float
    low: float
    high: float
    samples: int

    def to_json(self) -> dict[str, float | int]:
        return {
            "value": round(self.value, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "samples": self.samples,
        }

    @classmethod
    def exact(cls, value: float) -> WinChance:
        """A chance known without sampling (a round the decision ends)."""
        return cls(value, value, value, 0)


def wilson(share: float, n: int, z: float = 1.96) -> WinChance:
    """The mean ``share`` of ``n`` play-outs with its Wilson score interval.

    >>> w = wilson(0.5, 16)
    >>> round(w.low, 3), round(w.high, 3)
    (0.28, 0.72)
    """
    if n <= 0:
        return WinChance(share, 0.0, 1.0, 0)
    denom = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denom
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denom
    return WinChance(share, max(0.0, centre - half), min(1.0, centre + half), n)


def sample_manipulation_world(
    rules: ManipulationRules, view: ManipulationView, rng: random.Random
) -> ManipulationGame | None:
    """A full round consistent with ``view`` (its seat to move), hidden cards dealt at random."""
    sampler = ExpertBot(rules, 0)
    sampler.rng = rng
    return sampler.sample_world(read_view(view))


def _hidden_indian(rules: IndianRules, view: IndianView, extra: Sequence[Card] = ()) -> list[Card]:
    pool = Counter(IndianGame.full_deck(rules))
    pool.subtract(view.hand or ())
    pool.subtract(view.discard_pile)
    pool.subtract([view.indicator])
    pool.subtract(extra)
    return sorted((+pool).elements(), key=Card.sort_key)


def _indian_world(
    rules: IndianRules,
    view: IndianView,
    rng: random.Random,
    *,
    hand: Sequence[Card],
    discard_pile: Sequence[Card],
    current: int,
) -> IndianGame | None:
    seat = view.seat
    if seat is None or view.hand is None:
        return None
    if any(s is not SeatStatus.ACTIVE for s in view.statuses if s is not None):
        return None  # a dropped seat's cards are out of play: not modelled
    hidden = _hidden_indian(rules, view)
    rng.shuffle(hidden)
    hands: list[list[Card]] = []
    for s, n in enumerate(view.hand_sizes):
        if s == seat:
            hands.append(list(hand))
        else:
            k = n or 0
            if k > len(hidden):
                return None
            hands.append(hidden[:k])
            hidden = hidden[k:]
    stock = hidden[: view.stock]
    try:
        return IndianGame.from_position(
            rules,
            hands=hands,
            indicator=view.indicator,
            stock=stock,
            discard_pile=discard_pile,
            current=current,
            draws=[d or 0 for d in view.draws],
        )
    except RummyError:
        return None


def sample_indian_world(
    rules: IndianRules, view: IndianView, rng: random.Random
) -> IndianGame | None:
    """A hand at the start of ``view``'s seat's turn, hidden cards dealt at random."""
    if view.seat is None or view.hand is None:
        return None
    return _indian_world(
        rules,
        view,
        rng,
        hand=view.hand,
        discard_pile=view.discard_pile,
        current=view.seat,
    )


def indian_after_throw(
    rules: IndianRules, view: IndianView, card: Card, rng: random.Random
) -> IndianGame | None:
    """The hand after ``view``'s seat throws ``card`` (the next seat to move), the hidden
    cards dealt at random: an Indian throw is judged from the position it leaves."""
    if view.seat is None or view.hand is None:
        return None
    hand = list(view.hand)
    hand.remove(card)
    n = view.players
    return _indian_world(
        rules,
        view,
        rng,
        hand=hand,
        discard_pile=[*view.discard_pile, card],
        current=(view.seat + 1) % n,
    )


def _share(winners: Sequence[int], seat: int) -> float:
    return 1.0 / len(winners) if seat in winners else 0.0


def _deadwood(game: IndianGame, hand: Sequence[Card]) -> int:
    """The least deadwood of a hand, after the best throw when it holds the drawn card."""
    rules = game.rules
    try:
        if len(hand) == rules.deal.hand_size + 1:
            return throw_value(hand, rules, game.wilds).points
        return min_deadwood(hand, rules, game.wilds).points
    except RummyError:
        return rules.hand_value(hand, game.wilds)


def _leaders(game: Game) -> list[int]:
    if isinstance(game, ManipulationGame):
        rules = game.rules
        keys = [(len(h), sum(rules.penalty_value(c) for c in h)) for h in game.hands]
    else:
        keys = [(_deadwood(game, h), 0) for h in game.hands]
    best = min(keys)
    return [s for s, k in enumerate(keys) if k == best]


def playout(game: Game, seat: int, first: Action | None, *, max_turns: int = 30) -> float:
    """``seat``'s share of the round's winners after ``first`` (if any) and bot play by
    everyone; ``game`` is changed. A round still running after ``max_turns`` actions goes
    to the seats with the fewest cards (manipulation) or the least deadwood (Indian)."""
    bots: list[SimpleBot | IndianGreedyBot]
    if isinstance(game, ManipulationGame):
        bots = [SimpleBot(game.rules) for _ in range(game.players)]
    else:
        bots = [IndianGreedyBot(game.rules) for _ in range(game.players)]
    try:
        if first is not None:
            game.apply(first)
        for _ in range(max_turns):
            if game.outcome is not None:
                break
            s = game.current
            game.apply(bots[s].choose(game.view(s)))
    except RummyError:
        return 0.0
    if game.outcome is not None:
        return _share(game.outcome.winners, seat)
    return _share(_leaders(game), seat)
