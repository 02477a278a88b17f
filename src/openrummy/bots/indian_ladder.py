"""The Indian Rummy bot ladder: ``greedy``, ``strategic`` and ``expert``.

Every bot decides from its seat's view only (own hand, indicator, the public discard pile,
counts, standings) and uses the exact hand solver for its judgements.

* ``greedy``: takes the discard if it lowers its deadwood, throws the card that leaves the
  least deadwood, declares when it can.
* ``strategic``: works towards the pure sequence first, keeps cards that are one card away
  from a meld, tracks what others take from and throw to the discard pile (no feeding, safe
  throws), drops bad hands early and plays pool matches with its total in mind.
* ``expert``: searches with hidden information: it compares its best few candidate moves by
  their exact expected result one draw ahead (the mean over every card it cannot see, each
  weighted by its unseen copies), and by how likely the next player can use what it throws
  (judged on opponents' hands sampled from the unseen cards and what they took).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from openrummy.cards import Card, standard_deck
from openrummy.games.actions import Action, Declare, Discard, Draw, Drop, TakeDiscard
from openrummy.games.views import IndianView, View
from openrummy.rules.indian import IndianRules, Wilds
from openrummy.solve.hand import (
    Arrangement,
    DrawAnalysis,
    analyse_draw,
    min_deadwood,
    throw_value,
)

from .base import BotInfo
from .indian import _loose, _show, indian_view, throwable

__all__ = ["IndianExpertBot", "IndianGreedyBot", "IndianStrategicBot"]


@dataclass
class _Seen:
    """What a seat knows at its turn."""

    seat: int
    hand: list[Card]
    wilds: Wilds
    indicator: Card
    discard: list[Card]
    legal: frozenset[str]
    draws: list[int]
    statuses: list[str]
    totals: list[int]
    threshold: int | None
    players: int

    @property
    def top(self) -> Card | None:
        return self.discard[-1] if self.discard else None


def _read(view: IndianView) -> _Seen:
    if view.seat is None or view.hand is None:
        raise ValueError("a spectator view has no seat to play for")
    match = view.match
    return _Seen(
        seat=view.seat,
        hand=list(view.hand),
        wilds=Wilds(view.wild_rank, view.indicator),
        indicator=view.indicator,
        discard=list(view.discard_pile),
        legal=frozenset(view.legal),
        draws=[d or 0 for d in view.draws],
        statuses=[s.value if s is not None else "OUT" for s in view.statuses],
        totals=list(match.totals) if match is not None else [0] * view.players,
        threshold=match.pool_threshold if match is not None else None,
        players=view.players,
    )


def _cost(a: Arrangement) -> tuple[int, int]:
    return (a.points, a.raw)


def _declare(seat: int, analysis: DrawAnalysis) -> Declare | None:
    if analysis.declare_with is None or analysis.declaration is None:
        return None
    groups = analysis.declaration.groups + _loose(analysis.declaration.loose)
    return Declare(seat, analysis.declare_with, groups)


class _IndianBot(ABC):
    name = "indian"

    def __init__(self, rules: IndianRules, seed: int = 0):
        self.rules = rules
        self.rng = random.Random(seed)
        self.threw: set[Card] = set()
        """Cards this seat has thrown in the current hand."""

    def wilds(self, seen: _Seen) -> Wilds:
        return self.rules.wilds(seen.indicator)

    def choose(self, view: View) -> Action:
        view = indian_view(view)
        seen = _read(view)
        seen.wilds = self.wilds(seen)
        if "show" in seen.legal:
            return _show(self.rules, view)
        if "draw" in seen.legal:
            if seen.draws[seen.seat] == 0:  # the first turn of a hand
                self.threw = set()
            return self._no_take_back(seen, self.start(seen, view))
        analysis = analyse_draw(seen.hand, self.rules, seen.wilds)
        declare = _declare(seen.seat, analysis)
        if declare is not None:
            return declare
        allowed = throwable(view)
        back = view.taken
        if back is not None and len(set(allowed)) > 1:
            # Never throw straight back the card just taken, even where the rules allow it:
            # two players who both do can pass one card to and fro for ever (the stock
            # never shrinks), which hung pool-101 matches between strategic bots.
            allowed = [c for c in allowed if c != back]
        if len(allowed) < len(seen.hand):  # the card just taken may not go straight back
            analysis = replace(
                analysis, options=tuple(o for o in analysis.options if o.card in allowed)
            )
            best = min(analysis.options, key=lambda o: (o.arrangement.points, o.arrangement.raw))
            analysis = replace(analysis, discard=best.card, after_discard=best.arrangement)
        card = self.throw(seen, analysis)
        self.threw.add(card)
        return Discard(seen.seat, card)

    def _no_take_back(self, seen: _Seen, action: Action) -> Action:
        """Never take a card this seat threw earlier in the hand, unless it declares with
        it. Without this, players who each take the discard and throw another card can
        pass a few cards round for ever (2S, 5C, 6D between two strategic players hung
        a pool-101 match): in every such cycle someone takes a card back."""
        top = seen.top
        if not isinstance(action, TakeDiscard) or top is None or top not in self.threw:
            return action
        if analyse_draw([*seen.hand, top], self.rules, seen.wilds).declare_with is not None:
            return action
        return Draw(seen.seat)

    @abstractmethod
    def start(self, seen: _Seen, view: IndianView) -> Action:
        """The turn-start decision: drop, draw from the stock or take the discard."""

    def throw(self, seen: _Seen, analysis: DrawAnalysis) -> Card:
        return analysis.discard


class IndianGreedyBot(_IndianBot):
    """Takes the discard if it lowers its deadwood; throws what leaves the least; declares."""

    name = "greedy"

    def start(self, seen: _Seen, view: IndianView) -> Action:
        top = seen.top
        if top is not None and "take" in seen.legal:
            now = _cost(min_deadwood(seen.hand, self.rules, seen.wilds))
            after = analyse_draw([*seen.hand, top], self.rules, seen.wilds)
            if after.declare_with is not None or (
                after.discard != top and _cost(after.after_discard) < now
            ):
                return TakeDiscard(seen.seat)
        return Draw(seen.seat)


# -- strategic ----------------------------------------------------------------------------


def _potential(cards: Sequence[Card], wilds: Wilds) -> int:
    """Pairs one card away from a meld (same rank; same suit within two ranks)."""
    naturals = [c for c in cards if not wilds.is_wild(c) and c.suit is not None]
    pairs = 0
    for i, a in enumerate(naturals):
        for b in naturals[i + 1 :]:
            if (
                (a.rank == b.rank and a.suit != b.suit)
                or (a.suit == b.suit and 0 < abs(a.rank - b.rank) <= 2)
                or (a.suit == b.suit and {a.rank, b.rank} in ({1, 13}, {1, 12}))
            ):
                pairs += 1
    return pairs


def _connects(card: Card, other: Card) -> bool:
    if card.suit is None or other.suit is None:
        return False
    if card.rank == other.rank and card.suit != other.suit:
        return True
    return card.suit == other.suit and 0 < abs(card.rank - other.rank) <= 2


@dataclass
class _Memory:
    """What a strategic bot remembers of the discard pile between its turns."""

    last_pile: list[Card] = field(default_factory=list)
    taken: list[Card] = field(default_factory=list)
    """Cards others took from the pile (they keep them, or at least wanted them)."""
    thrown: list[Card] = field(default_factory=list)
    """Cards others threw (cards of those ranks and neighbours are safer)."""

    def update(self, pile: Sequence[Card]) -> None:
        old = self.last_pile
        k = 0
        while k < min(len(old), len(pile)) and old[k] == pile[k]:
            k += 1
        self.taken.extend(old[k:])
        self.thrown.extend(pile[k:])
        self.last_pile = list(pile)


class IndianStrategicBot(_IndianBot):
    """Pure sequence first, keeps near-melds, throws safe, drops bad hands, minds the pool."""

    name = "strategic"
    drop_first_at = 55
    drop_middle_at = 65

    def __init__(self, rules: IndianRules, seed: int = 0):
        super().__init__(rules, seed)
        self.memory = _Memory()

    def _new_hand(self, seen: _Seen) -> None:
        if seen.draws[seen.seat] == 0:  # our first turn of a hand: forget the last one
            self.memory = _Memory()

    def danger(self, card: Card, seen: _Seen) -> int:
        """How likely ``card`` helps someone: they took its neighbours; nobody threw its like."""
        if seen.wilds.is_wild(card):
            return 5  # never feed a joker
        d = sum(2 for t in self.memory.taken if _connects(card, t))
        if any(t.rank == card.rank for t in self.memory.thrown[-6:]):
            d -= 1
        return max(0, d)

    def cost(self, arrangement: Arrangement, card: Card, seen: _Seen) -> float:
        dead = arrangement.deadwood if arrangement.credited else ()
        return (
            arrangement.points
            - 1.5 * min(_potential(dead, seen.wilds), 4)
            + 3.0 * self.danger(card, seen)
            - 0.05 * self.rules.card_value(card)
        )

    def throw(self, seen: _Seen, analysis: DrawAnalysis) -> Card:
        best = min(
            analysis.options,
            key=lambda o: (self.cost(o.arrangement, o.card, seen), o.card.sort_key()),
        )
        self.memory.update([*seen.discard, best.card])
        return best.card

    def should_drop(self, seen: _Seen) -> bool:
        first, middle = self.rules.drop_values()
        mine = seen.draws[seen.seat]
        value = first if mine == 0 else middle
        if seen.threshold is not None:
            total = seen.totals[seen.seat]
            if total + value >= seen.threshold:
                return False  # dropping would eliminate us anyway
            if total + 80 >= seen.threshold and mine == 0:
                # Near the pool line a full count ends the match for us: drop weak hands sooner.
                return self._weak(seen, self.drop_first_at - 15)
        if mine == 0:
            return self._weak(seen, self.drop_first_at)
        if mine >= 4:
            return self._weak(seen, self.drop_middle_at) and mine >= 6
        return False

    def _weak(self, seen: _Seen, limit: int) -> bool:
        arr = min_deadwood(seen.hand, self.rules, seen.wilds)
        wild = sum(1 for c in seen.hand if seen.wilds.is_wild(c))
        return (
            not arr.credited
            and arr.raw >= limit
            and wild <= 1
            and _potential(seen.hand, seen.wilds) <= 6
        )

    def start(self, seen: _Seen, view: IndianView) -> Action:
        self._new_hand(seen)
        self.memory.update(seen.discard)
        if "drop" in seen.legal and self.should_drop(seen):
            return Drop(seen.seat)
        top = seen.top
        if top is not None and "take" in seen.legal:
            now = min_deadwood(seen.hand, self.rules, seen.wilds)
            after = analyse_draw([*seen.hand, top], self.rules, seen.wilds)
            if after.declare_with is not None or seen.wilds.is_wild(top):
                return TakeDiscard(seen.seat)
            gains = (after.after_discard.credited and not now.credited) or (
                after.after_discard.points + 4 <= now.points
            )
            if after.discard != top and gains:
                return TakeDiscard(seen.seat)
        return Draw(seen.seat)


# -- expert -------------------------------------------------------------------------------


class IndianExpertBot(IndianStrategicBot):
    """One-draw look-ahead over every unseen card, and sampled opponents' hands, to compare
    its best candidates (``samples`` hands; ``candidates`` best throws by strategic's cost)."""

    name = "expert"

    def __init__(self, rules: IndianRules, seed: int = 0, *, samples: int = 8, candidates: int = 3):
        super().__init__(rules, seed)
        self.samples = samples
        self.candidates = candidates

    def unseen(self, seen: _Seen) -> list[Card]:
        """Cards this seat cannot see: the full deck minus its hand, the pile and indicator."""
        pool = Counter(
            standard_deck(self.rules.deck.standard_decks, self.rules.deck.printed_jokers)
        )
        pool.subtract(seen.hand)
        pool.subtract(seen.discard)
        if not self.rules.wild.indicator_in_play:
            pool.subtract([seen.indicator])
        return sorted((+pool).elements(), key=Card.sort_key)

    def _expected_next(self, hand: list[Card], seen: _Seen, draws: Mapping[Card, int]) -> float:
        """Expected deadwood points after the next draw and the best throw: the mean over
        ``draws`` (each unseen card with its number of copies), 0 where the hand declares."""
        total = 0.0
        for x, copies in draws.items():
            v = throw_value([*hand, x], self.rules, seen.wilds)
            total += 0 if v.declares else copies * v.points
        return total / max(1, sum(draws.values()))

    def _feeds_next(self, card: Card, seen: _Seen, hands: Sequence[Sequence[Card]]) -> float:
        """Share of the sampled hands of the next player in which ``card`` fits a meld."""
        if seen.wilds.is_wild(card):
            return 1.0
        hits = 0
        for hand in hands:
            near = [c for c in hand if _connects(card, c) or seen.wilds.is_wild(c)]
            if len(near) >= 2:
                hits += 1
        return hits / max(1, len(hands))

    def throw(self, seen: _Seen, analysis: DrawAnalysis) -> Card:
        ranked = sorted(
            analysis.options,
            key=lambda o: (self.cost(o.arrangement, o.card, seen), o.card.sort_key()),
        )
        pool = self.unseen(seen)
        # Every candidate is judged on every possible next draw (exactly, weighted by the
        # copies unseen) and on the same sampled opponents' hands (common random numbers).
        draws = Counter(pool)
        size = self.rules.deal.hand_size
        recent = self.memory.taken[-3:]
        hands = [
            [*self.rng.sample(pool, min(size, len(pool))), *recent] for _ in range(self.samples)
        ]
        best_card, best_value = ranked[0].card, float("inf")
        for option in ranked[: self.candidates]:
            rest = list(seen.hand)
            rest.remove(option.card)
            value = self._expected_next(rest, seen, draws) + 12.0 * self._feeds_next(
                option.card, seen, hands
            )
            if value < best_value - 1e-9:
                best_card, best_value = option.card, value
        self.memory.update([*seen.discard, best_card])
        return best_card

    def start(self, seen: _Seen, view: IndianView) -> Action:
        self._new_hand(seen)
        self.memory.update(seen.discard)
        if "drop" in seen.legal and self.should_drop(seen):
            return Drop(seen.seat)
        top = seen.top
        if top is None or "take" not in seen.legal:
            return Draw(seen.seat)
        after = analyse_draw([*seen.hand, top], self.rules, seen.wilds)
        if after.declare_with is not None or seen.wilds.is_wild(top):
            return TakeDiscard(seen.seat)
        if after.discard == top:
            return Draw(seen.seat)
        pool = self.unseen(seen)
        taken_value = after.after_discard.points
        drawn_value = self._expected_next(list(seen.hand), seen, Counter(pool))
        # Taking shows the card to everyone; ask for a clear gain.
        return TakeDiscard(seen.seat) if taken_value + 2 < drawn_value else Draw(seen.seat)


BOTS: tuple[BotInfo, ...] = (
    BotInfo(
        "greedy",
        "takes the discard if it lowers its deadwood, throws what leaves the least, declares when it can",
        frozenset({"indian"}),
        lambda rules, seed: IndianGreedyBot(rules, seed),
        level=1,
    ),
    BotInfo(
        "strategic",
        "pure sequence first, keeps near-melds, tracks the discard pile, safe throws, drops bad hands, pool-aware",
        frozenset({"indian"}),
        lambda rules, seed: IndianStrategicBot(rules, seed),
        level=2,
    ),
    BotInfo(
        "expert",
        "compares its best moves by their expected result over every possible next draw, and by sampled opponents' hands",
        frozenset({"indian"}),
        lambda rules, seed: IndianExpertBot(rules, seed),
        level=3,
    ),
)
"""The bots of this module (:mod:`openrummy.bots.registry` lists them)."""
