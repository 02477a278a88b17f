"""Small meld-finding helpers for the simple bots (no table rearrangement).

These are deliberately simple: they find melds inside a hand and single-card lay-offs on
existing melds. The exact rearranging solver lives in :mod:`openrummy.solve`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from openrummy.cards import JOKER, Card, Suit
from openrummy.melds import AceMode, Meld, MeldItem, MeldRules

__all__ = ["best_disjoint", "hand_melds", "lay_off"]


def hand_melds(hand: Sequence[Card], rules: MeldRules, *, max_jokers: int = 1) -> list[Meld]:
    """Candidate melds made only of ``hand`` cards: sets, runs, and ones with a joker."""
    counts = Counter(hand)
    jokers = min(counts[JOKER], max_jokers)
    naturals = [c for c in counts if not c.is_joker]
    tile = any(c.tile for c in naturals)
    out: list[Meld] = []
    seen: set[Meld] = set()

    def add(items: Iterable[MeldItem]) -> None:
        meld = Meld(tuple(items))
        if meld.is_valid(rules):
            meld = meld.normalized(rules)
            if meld not in seen:
                seen.add(meld)
                out.append(meld)

    by_rank: dict[int, list[Card]] = {}
    for c in naturals:
        by_rank.setdefault(c.rank, []).append(c)
    for rank, group in by_rank.items():
        group.sort(key=Card.sort_key)
        for size in range(3, min(len(group), rules.set_max, 4) + 1):
            for combo in itertools.combinations(group, size):
                add(MeldItem.natural(c) for c in combo)
        if jokers and len(group) >= 2:
            for combo in itertools.combinations(group, 2):
                missing = [s for s in Suit if s not in {c.suit for c in combo}]
                add(
                    [
                        *(MeldItem.natural(c) for c in combo),
                        MeldItem(JOKER, Card(rank, missing[0], tile)),
                    ]
                )
    high = rules.ace_mode is not AceMode.LOW_ONLY
    for suit in Suit:
        ranks = sorted({c.rank for c in naturals if c.suit == suit})
        if not ranks:
            continue
        positions = ranks + ([14] if high and 1 in ranks else [])
        segments = _segments(positions, allow_gap=jokers > 0)
        for seg, gaps in segments:
            if len(seg) + len(gaps) < 3:
                if jokers and len(seg) == 2 and not gaps:
                    # Two in a row plus a joker at an end.
                    end = seg[-1] + 1 if seg[-1] < (14 if high else 13) else seg[0] - 1
                    if end >= 1:
                        items = [MeldItem.natural(Card(_rank(p), suit, tile)) for p in seg]
                        items.append(MeldItem(JOKER, Card(_rank(end), suit, tile)))
                        add(items)
                continue
            items = [MeldItem.natural(Card(_rank(p), suit, tile)) for p in seg]
            items += [MeldItem(JOKER, Card(_rank(g), suit, tile)) for g in gaps]
            add(items)
            if not gaps:
                for length in range(3, len(seg)):
                    for start in range(len(seg) - length + 1):
                        add(
                            MeldItem.natural(Card(_rank(p), suit, tile))
                            for p in seg[start : start + length]
                        )
    return out


def _rank(position: int) -> int:
    return 1 if position == 14 else position


def _segments(positions: list[int], *, allow_gap: bool) -> list[tuple[list[int], list[int]]]:
    """Maximal runs of consecutive positions; with ``allow_gap`` also ones with one hole."""
    out: list[tuple[list[int], list[int]]] = []
    n = len(positions)
    i = 0
    plain: list[list[int]] = []
    while i < n:
        j = i
        while j + 1 < n and positions[j + 1] == positions[j] + 1:
            j += 1
        plain.append(positions[i : j + 1])
        i = j + 1
    out += [(seg, []) for seg in plain]
    if allow_gap:
        for a, b in itertools.pairwise(plain):
            if b[0] - a[-1] == 2:
                out.append((a + b, [a[-1] + 1]))
    return out


def best_disjoint(
    candidates: Sequence[Meld], hand: Sequence[Card], score: Sequence[int], *, limit: int = 4000
) -> tuple[list[Meld], int]:
    """The disjoint subset of ``candidates`` (within ``hand``) with the largest total score."""
    order = sorted(range(len(candidates)), key=lambda i: -score[i])
    best: tuple[list[Meld], int] = ([], 0)
    steps = 0

    def search(k: int, left: Counter[Card], chosen: list[Meld], total: int) -> None:
        nonlocal best, steps
        steps += 1
        if total > best[1]:
            best = (chosen[:], total)
        if steps > limit:
            return
        for pos in range(k, len(order)):
            i = order[pos]
            need = Counter(candidates[i].cards)
            if all(left[c] >= n for c, n in need.items()):
                chosen.append(candidates[i])
                search(pos + 1, left - need, chosen, total + score[i])
                chosen.pop()

    search(0, Counter(hand), [], 0)
    return best


def lay_off(
    table: Sequence[Meld], hand: Sequence[Card], rules: MeldRules
) -> tuple[list[Meld], list[Card]]:
    """Add hand cards to table melds one at a time while any fits; returns (table, left)."""
    melds = list(table)
    left = list(hand)
    memo = _memo(rules)
    changed = True
    while changed:
        changed = False
        fits = [memo.setdefault(m, {}) for m in melds]
        for card in sorted(set(left), key=Card.sort_key):
            for i, meld in enumerate(melds):
                known = fits[i]
                if card in known:
                    grown = known[card]
                else:
                    grown = known[card] = _grown(meld, card, rules)
                if grown is not None:
                    melds[i] = grown
                    left.remove(card)
                    changed = True
                    break
            if changed:
                break
    return melds, left


_GROWN: dict[int, tuple[MeldRules, dict[Meld, dict[Card, Meld | None]]]] = {}
_GROWN_LIMIT = 50_000


def _memo(rules: MeldRules) -> dict[Meld, dict[Card, Meld | None]]:
    """What each card makes of each meld under ``rules`` (:func:`_grown`), remembered per
    rules object (by identity: hashing the rules costs more than the check) and meld:
    play-outs lay off onto the same table melds again and again."""
    entry = _GROWN.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_GROWN) >= 16:
            _GROWN.clear()
        entry = _GROWN[id(rules)] = (rules, {})
    if len(entry[1]) >= _GROWN_LIMIT:
        entry[1].clear()
    return entry[1]


def _grown(meld: Meld, card: Card, rules: MeldRules) -> Meld | None:
    """``meld`` with ``card`` added (normalized), or None if no way of adding it is valid."""
    for item in _items_for(card, meld, rules):
        grown = Meld((*meld.items, item))
        if grown.is_valid(rules):
            return grown.normalized(rules)
    return None


def _items_for(card: Card, meld: Meld, rules: MeldRules) -> list[MeldItem]:
    if not card.is_joker:
        return [MeldItem.natural(card)]
    idents = [it.identity for it in meld.items]
    tile = any(c.tile for c in idents)
    ranks = {c.rank for c in idents}
    out: list[MeldItem] = []
    if len(ranks) == 1:
        rank = next(iter(ranks))
        for s in Suit:
            if s not in {c.suit for c in idents}:
                out.append(MeldItem(JOKER, Card(rank, s, tile)))
    else:
        suit = idents[0].suit
        assert suit is not None
        lo, hi = min(ranks), max(ranks)
        for r in (hi + 1, lo - 1):
            if 1 <= r <= 13:
                out.append(MeldItem(JOKER, Card(r, suit, tile)))
    return out
