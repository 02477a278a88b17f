"""Indian Rummy puzzles from seeds: declare, the one safe throw, the draw that wins.

Each generator builds a hand that declares (random pure and impure sequences and sets, wild
cards among them), then derives the position from it, and keeps it only when the exact hand
solver (:func:`openrummy.solve.hand.analyse_draw`) confirms the answer:

* **declare**: the 14 (11, 22) cards after the draw declare with exactly one finish card
  thrown (the puzzle stores the solver's grouping; any valid grouping solves it);
* **safe throw**: a hand after the draw, one card short of declaring, where exactly one throw
  leaves the least deadwood and every other throw leaves at least ``margin`` points more;
* **winning draw**: the discard pile's top card lets the hand declare at once, while fewer
  than ``stock_share`` of the cards the seat cannot see would.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from openrummy.cards import Card, Suit, standard_deck
from openrummy.errors import RummyError
from openrummy.rules import IndianRules, find_preset
from openrummy.rules.indian import Wilds
from openrummy.solve.hand import analyse_draw, throw_value

from .model import Difficulty, Puzzle, PuzzleKind

__all__ = ["generate_indian", "indian_puzzles"]

_SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)


def _take(pool: Counter[Card], cards: list[Card]) -> bool:
    need = Counter(cards)
    if all(pool[c] >= n for c, n in need.items()):
        pool.subtract(need)
        return True
    return False


def _run(rng: random.Random, pool: Counter[Card], length: int) -> list[Card] | None:
    for _ in range(30):
        start = rng.randint(1, 14 - length)
        suit = rng.choice(_SUITS)
        cards = [Card(r, suit) for r in range(start, start + length)]
        if _take(pool, cards):
            return cards
    return None


def _set(rng: random.Random, pool: Counter[Card], size: int) -> list[Card] | None:
    for _ in range(30):
        rank = rng.randint(1, 13)
        cards = [Card(rank, s) for s in rng.sample(_SUITS, size)]
        if _take(pool, cards):
            return cards
    return None


def _declaring_hand(
    rules: IndianRules, rng: random.Random
) -> tuple[list[Card], Card, Wilds, Counter[Card]] | None:
    """A hand of ``hand_size`` cards in valid groups, its indicator, wilds and the rest."""
    pool = Counter(standard_deck(rules.deck.standard_decks, rules.deck.printed_jokers))
    indicator = rng.choice([c for c in pool if not c.is_joker])
    pool[indicator] -= 1
    wilds = rules.wilds(indicator)
    size = rules.deal.hand_size
    hand: list[Card] = []
    pure = 3 if rules.is_v21 else 1
    for _ in range(pure):
        run = _run(rng, pool, rng.choice((3, 4)))
        if run is None:
            return None
        hand += run
    while len(hand) < size:
        left = size - len(hand)
        if left < 3:
            return None
        length = left if left <= 4 else rng.choice((3, 3, 4))
        if left - length in (1, 2):
            length = left if left <= 5 else 3
        group = _run(rng, pool, length) if rng.random() < 0.5 else _set(rng, pool, min(length, 4))
        if group is None or len(group) != length:
            if group is not None:
                pool.update(group)
            continue
        if rng.random() < 0.5:
            # a wild card stands in for one card of an impure group
            wild = [c for c in pool.elements() if wilds.is_wild(c)]
            if wild:
                w = rng.choice(wild)
                i = rng.randrange(len(group))
                pool[group[i]] += 1
                pool[w] -= 1
                group[i] = w
        hand += group
    return hand, indicator, wilds, +pool


def _difficulty(hand: list[Card], wilds: Wilds, steps: int) -> Difficulty:
    jokers = sum(1 for c in hand if wilds.is_wild(c))
    return Difficulty(steps=steps, touched=0, jokers=jokers, effort=len(hand))


def generate_indian(
    rules: IndianRules,
    kind: PuzzleKind,
    seed: int,
    *,
    tries: int = 30,
    margin: int = 3,
    stock_share: float = 0.25,
) -> Puzzle | None:
    """One Indian puzzle of ``kind`` from ``seed`` (``None`` if ``tries`` hands fail)."""
    rng = random.Random(f"{kind.value}/{rules.name}/{seed}")
    for _ in range(tries):
        try:
            got = _attempt(rules, kind, rng, margin, stock_share)
        except RummyError:
            got = None
        if got is not None:
            return Puzzle(**{**got, "source": f"seed:{seed}"})  # type: ignore[arg-type]
    return None


def _attempt(
    rules: IndianRules,
    kind: PuzzleKind,
    rng: random.Random,
    margin: int,
    stock_share: float,
) -> dict[str, object] | None:
    built = _declaring_hand(rules, rng)
    if built is None:
        return None
    hand, indicator, wilds, pool = built
    rest = list(pool.elements())
    extra = rng.choice(rest)
    pool[extra] -= 1
    if kind is PuzzleKind.DECLARE:
        after = [*hand, extra]
        rng.shuffle(after)
        a = analyse_draw(after, rules, wilds)
        if a.declare_with is None or a.declaration is None:
            return None
        d = _difficulty(after, wilds, len(a.declaration.groups))
        return {
            "kind": kind,
            "game": rules.name,
            "hand": tuple(sorted(after, key=Card.sort_key)),
            "solution": a.declaration.groups,
            "card": a.declare_with,
            "indicator": indicator,
            "difficulty": d,
            "rating": d.rating(),
        }
    if kind is PuzzleKind.SAFE_THROW:
        # one card short of declaring: swap a card of a group for a random one
        broken = list(hand)
        i = rng.randrange(len(broken))
        out_card = broken[i]
        other = rng.choice([c for c in pool.elements() if c != out_card])
        broken[i] = other
        after = [*broken, extra]
        a = analyse_draw(after, rules, wilds)
        if a.declare_with is not None:
            return None
        points = sorted(
            {o.card: o.arrangement.points for o in a.options}.items(), key=lambda x: x[1]
        )
        if len(points) < 2 or points[1][1] - points[0][1] < margin:
            return None
        best = points[0][0]
        dearest = max(after, key=lambda c: rules.penalty_value(c, wilds))
        if rules.penalty_value(best, wilds) >= rules.penalty_value(dearest, wilds):
            return None  # "throw the dearest card" is not a puzzle
        d = _difficulty(after, wilds, 1)
        return {
            "kind": kind,
            "game": rules.name,
            "hand": tuple(sorted(after, key=Card.sort_key)),
            "card": best,
            "indicator": indicator,
            "difficulty": Difficulty(1, 0, d.jokers, d.effort + points[1][1] - points[0][1]),
            "rating": Difficulty(1, 0, d.jokers, d.effort).rating(),
        }
    # WINNING_DRAW: one card of the declaring hand lies on the discard pile
    i = rng.randrange(len(hand))
    top = hand[i]
    before = hand[:i] + hand[i + 1 :] + [extra]
    a = analyse_draw([*before, top], rules, wilds)
    if a.declare_with is None or a.declaration is None or a.declare_with == top:
        return None
    unseen = Counter(pool)
    unseen[extra] -= 1
    unseen = +unseen
    total = sum(unseen.values())
    wins = sum(n for c, n in unseen.items() if throw_value([*before, c], rules, wilds).declares)
    if total == 0 or wins / total >= stock_share:
        return None
    d = _difficulty([*before, top], wilds, len(a.declaration.groups))
    return {
        "kind": kind,
        "game": rules.name,
        "hand": tuple(sorted(before, key=Card.sort_key)),
        "solution": a.declaration.groups,
        "card": a.declare_with,
        "draw": "take",
        "indicator": indicator,
        "discard": (top,),
        "difficulty": d,
        "rating": d.rating(),
    }


def indian_puzzles(
    game: str, kind: PuzzleKind, count: int, *, first_seed: int = 0
) -> Iterator[Puzzle]:
    """``count`` distinct puzzles of ``kind`` for preset ``game`` from consecutive seeds."""
    rules = find_preset(game)
    if not isinstance(rules, IndianRules):
        raise ValueError(f"{game} is not an Indian Rummy game")
    seen: set[str] = set()
    seed = first_seed
    while len(seen) < count:
        p = generate_indian(rules, kind, seed)
        seed += 1
        if p is not None and p.id not in seen:
            seen.add(p.id)
            yield p
