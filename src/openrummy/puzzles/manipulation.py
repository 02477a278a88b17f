"""'Place every card' puzzles for Robbers' Rummy and Rummikub, generated from seeds.

A generator works backwards from a solution: it lays a random table of valid melds (the
solution), takes a few of its cards as the hand, and arranges the remaining cards into valid
melds (the puzzle's table). The exact solver then confirms that the best play places the whole
hand, :func:`openrummy.solve.explain.explain_steps` turns it into steps, and the position is
kept only when

* the solution needs a rearrangement (a split, a combination, a replacement or a joker swap)
  and at least ``min_steps`` steps, and
* the *near miss*, the best play that changes no meld on the table (it only adds hand cards
  to melds and lays new melds from the hand, found by exhaustive search), places fewer cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations

from openrummy.cards import JOKER, Card
from openrummy.errors import RummyError
from openrummy.games.manipulation import ManipulationGame
from openrummy.melds import Meld, MeldItem, MeldRules
from openrummy.rules import ManipulationRules, find_preset
from openrummy.solve import best_play
from openrummy.solve.explain import StepKind, explain_steps
from openrummy.solve.table import arrange, can_arrange

from .model import Difficulty, Puzzle, PuzzleKind

__all__ = ["generate_place_all", "near_miss", "place_all_puzzle", "place_all_puzzles"]

_REARRANGING = {
    StepKind.SPLIT,
    StepKind.COMBINE,
    StepKind.REPLACE,
    StepKind.REARRANGE,
    StepKind.SWAP_JOKER,
}


def _random_meld(
    rng: random.Random, pool: Counter[Card], suits: Sequence[object], tiles: bool
) -> Meld | None:
    for _ in range(20):
        if rng.random() < 0.55:
            length = rng.choice((3, 3, 4, 4, 5))
            start = rng.randint(1, 14 - length)
            suit = rng.choice(suits)
            cards = [Card(r, suit, tiles) for r in range(start, start + length)]  # type: ignore[arg-type]
        else:
            rank = rng.randint(1, 13)
            chosen = rng.sample(list(suits), rng.choice((3, 3, 4)))
            cards = [Card(rank, s, tiles) for s in chosen]  # type: ignore[arg-type]
        need = Counter(cards)
        if all(pool[c] >= n for c, n in need.items()):
            pool.subtract(need)
            return Meld(tuple(MeldItem.natural(c) for c in cards))
    return None


def _with_joker(rng: random.Random, meld: Meld, mr: MeldRules) -> Meld:
    items = list(meld.items)
    i = rng.randrange(len(items))
    items[i] = MeldItem(JOKER, items[i].card)
    m = Meld(tuple(items))
    return m if m.check(mr) is None else meld


def _extend(meld: Meld, card: Card, mr: MeldRules) -> Meld | None:
    for items in (
        (*meld.items, MeldItem.natural(card)),
        (MeldItem.natural(card), *meld.items),
    ):
        m = Meld(items)
        if m.check(mr) is None:
            return m.normalized(mr)
    return None


def near_miss(
    rules: ManipulationRules, table: Sequence[Meld], hand: Sequence[Card]
) -> tuple[int, tuple[Meld, ...]]:
    """The most hand cards a play can place without changing any meld of ``table`` (it only
    adds cards to the ends of melds and lays new melds from the hand), and its table.

    Exhaustive: every subset of the hand that forms melds of its own, then every way of
    adding the other cards one by one to the melds.
    """
    mr = rules.meld_rules
    cards = sorted(hand, key=Card.sort_key)
    n = len(cards)
    best: tuple[int, tuple[Meld, ...]] = (0, tuple(table))

    @cache
    def own(sub: tuple[Card, ...]) -> tuple[Meld, ...] | None:
        try:
            return tuple(arrange(rules, list(sub))) if can_arrange(rules, list(sub)) else None
        except RummyError:
            return None

    def lay(rest: list[Card], melds: list[Meld], placed: int) -> None:
        nonlocal best
        if placed > best[0]:
            best = (placed, tuple(melds))
        if not rest or placed + len(rest) <= best[0] or best[0] == n:
            return
        card, tail = rest[0], rest[1:]
        for i, m in enumerate(melds):
            grown = _extend(m, card, mr) if not card.is_joker else None
            if grown is not None:
                melds[i] = grown
                lay(tail, melds, placed + 1)
                melds[i] = m
        lay(tail, melds, placed)

    for size in range(n, -1, -1):
        for idx in combinations(range(n), size):
            if size and size < mr.min_len:
                continue
            sub = tuple(cards[i] for i in idx)
            laid = own(sub) if size else ()
            if laid is None:
                continue
            rest = [cards[i] for i in range(n) if i not in idx]
            lay(rest, [*table, *laid], size)
            if best[0] == n:
                return best
    return best


def _difficulty(
    rules: ManipulationRules, before: Sequence[Meld], after: Sequence[Meld], hand: int
) -> tuple[Difficulty, int]:
    steps = explain_steps(before, after, rules.meld_rules)
    touched = {i for st in steps for i, _ in st.takes} | {
        st.target for st in steps if st.target is not None
    }
    mr = rules.meld_rules
    old_ids = Counter(str(it.represents) for m in before for it in m.items if it.card.is_joker)
    new_ids = Counter(str(it.represents) for m in after for it in m.items if it.card.is_joker)
    jokers = sum((old_ids - new_ids).values())
    effort = sum(len(m) for m in before) + hand
    rearranging = sum(1 for st in steps if st.kind in _REARRANGING)
    del mr
    return Difficulty(len(steps), len(touched), jokers, effort), rearranging


def generate_place_all(
    rules: ManipulationRules, seed: int, *, min_steps: int = 2, tries: int = 40
) -> Puzzle | None:
    """One 'place every card' puzzle from ``seed`` (``None`` if ``tries`` positions fail)."""
    rng = random.Random(f"place_all/{rules.name}/{seed}")
    mr = rules.meld_rules
    deck = ManipulationGame.full_deck(rules)
    suits = sorted({c.suit for c in deck if c.suit is not None}, key=lambda s: s.value)
    tiles = rules.tiles
    for _ in range(tries):
        pool = Counter(deck)
        solution: list[Meld] = []
        for _ in range(rng.randint(5, 8)):
            m = _random_meld(rng, pool, suits, tiles)
            if m is not None:
                solution.append(m)
        if rng.random() < 0.35 and solution:
            k = rng.randrange(len(solution))
            solution[k] = _with_joker(rng, solution[k], mr)
        all_cards = [c for m in solution for c in m.cards]
        naturals = [c for c in all_cards if not c.is_joker]
        size = rng.choice((3, 4, 4, 5, 5, 6))
        if len(naturals) < size + 6:
            continue
        hand = rng.sample(naturals, size)
        rest = Counter(all_cards)
        rest.subtract(hand)
        rest_cards = sorted((+rest).elements(), key=Card.sort_key)
        try:
            if not can_arrange(rules, rest_cards):
                continue
            table = arrange(rules, rest_cards)
        except RummyError:
            continue
        got = place_all_puzzle(rules, table, hand, source=f"seed:{seed}", min_steps=min_steps)
        if got is not None:
            return got
    return None


def place_all_puzzle(
    rules: ManipulationRules,
    table: Sequence[Meld],
    hand: Sequence[Card],
    *,
    source: str,
    min_steps: int = 2,
) -> Puzzle | None:
    """The 'place every card' puzzle of this position, if it is one: the best play places
    the whole hand with a rearrangement of ``min_steps`` steps or more, and the near miss
    places fewer cards."""
    size = len(hand)
    try:
        best = best_play(rules, table, hand, opened=True)
    except RummyError:
        return None
    if best.count != size or size == 0:
        return None
    difficulty, rearranging = _difficulty(rules, table, best.table, size)
    if rearranging == 0 or difficulty.steps < min_steps:
        return None
    placed, miss = near_miss(rules, table, hand)
    if placed >= size:
        return None
    return Puzzle(
        kind=PuzzleKind.PLACE_ALL,
        game=rules.name,
        hand=tuple(sorted(hand, key=Card.sort_key)),
        table=tuple(table),
        solution=best.table,
        near_miss=miss,
        difficulty=difficulty,
        rating=difficulty.rating(),
        source=source,
    )


def place_all_puzzles(game: str, count: int, *, first_seed: int = 0) -> Iterator[Puzzle]:
    """``count`` distinct puzzles of preset ``game`` from seeds ``first_seed``, ``+1``, ..."""
    rules = find_preset(game)
    if not isinstance(rules, ManipulationRules):
        raise ValueError(f"{game} is not a manipulation game")
    seen: set[str] = set()
    seed = first_seed
    while len(seen) < count:
        p = generate_place_all(rules, seed)
        seed += 1
        if p is not None and p.id not in seen:
            seen.add(p.id)
            yield p
