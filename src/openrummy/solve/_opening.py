"""The ways to open from the hand, listed (private): the opening search made a short list.

A play of a player who has not opened (points opening, table play allowed the same turn)
is a set ``O`` of *opening melds* (hand cards and hand jokers only, worth the threshold
together) plus an ordinary play of the rest of the hand on the table. So its optimum is
the best, over the hand cards ``O`` can use, of "the cards of ``O`` + the opened player's
optimum with the rest of the hand": many fast searches of an opened player instead of
one slow search that tracks the opening value card by card.

Two facts keep the list short and the answer exact:

* an opening meld whose removal leaves ``O`` worth the threshold can move to the rest
  (the opened player may lay hand-only melds too), which is never worse: ``O`` is built
  meld by meld and stops as soon as it is worth the threshold;
* only the multiset of hand cards ``O`` uses matters to the rest, so openings using the
  same cards are one candidate.

The melds are those of the integer program (:mod:`._milp`): every run window of at most 13
cards with every choice of joker positions, and every set; a run of ``2 * min_len`` or more
that splits into two valid runs of the same opening value is left out (its pieces are
listed, and using them is the same play).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from openrummy.solve._milp import _windows
from openrummy.solve._problem import LOW, CoreSpec

__all__ = ["OpeningMeld", "opening_candidates", "opening_melds", "run_opening_candidates"]

Item = tuple[int, int, bool, bool]


@dataclass(frozen=True, slots=True)
class OpeningMeld:
    """One hand-only meld: the naturals it uses (suit * 13 + rank index), its jokers,
    its opening value, and its items as the core gives them (tagged as opening)."""

    cards: tuple[int, ...]
    jokers: int
    value: int
    is_run: bool
    items: tuple[Item, ...]


@cache
def _run_windows(spec: CoreSpec) -> tuple[tuple[tuple[int, ...], tuple[bool, ...], int], ...]:
    """The integer program's run windows, each with the bit mask of its ranks (a window
    holds each rank at most once)."""
    return tuple((ranks, high, sum(1 << r for r in ranks)) for ranks, high in _windows(spec))


def _worth(spec: CoreSpec, r: int, high: bool) -> tuple[int, int]:
    v = spec.open_ace_high if r == 0 and high else spec.open_value[r]
    return v, v if spec.open_joker is None else spec.open_joker


def _splits(
    spec: CoreSpec, ranks: Sequence[int], high: Sequence[bool], nat: Sequence[bool]
) -> bool:
    """Whether this run splits into two valid runs worth as much together."""
    L, M, ln = spec.min_len, spec.min_nat, len(ranks)
    for k in range(L, ln - L + 1):
        if high[k]:
            continue  # the second piece would start with the ace, worth less low
        if sum(nat[:k]) >= M and sum(nat[k:]) >= M:
            return True
    return False


def _run_fillings(
    spec: CoreSpec, hand: Sequence[Sequence[int]], jokers: int, shortest: int
) -> Iterator[tuple[int, tuple[int, ...], tuple[bool, ...], list[bool]]]:
    """Every run of hand cards and at most ``jokers`` hand jokers at least ``shortest``
    long: its suit, the window's ranks and ace-high flags (:func:`_run_windows`), and per
    position whether a natural fills it (else a joker). Every choice of joker positions
    is one, jokers standing in for naturals the hand holds too, down to ``min_nat``
    naturals."""
    M = spec.min_nat
    present = [sum(1 << r for r in range(13) if hand[s][r] > 0) for s in range(4)]
    for ranks, high, mask in _run_windows(spec):
        ln = len(ranks)
        if ln < shortest:
            continue
        for s in range(4):
            if ln - (mask & present[s]).bit_count() > jokers:
                continue
            have = [k for k, r in enumerate(ranks) if hand[s][r] > 0]
            forced = ln - len(have)
            if len(have) < M:
                continue
            for extra in range(min(jokers - forced, len(have) - M) + 1):
                for swap in combinations(have, extra):
                    yield (
                        s,
                        ranks,
                        high,
                        [hand[s][r] > 0 and k not in swap for k, r in enumerate(ranks)],
                    )


def opening_melds(spec: CoreSpec, hand: Sequence[Sequence[int]], jokers: int) -> list[OpeningMeld]:
    """Every meld of hand cards and at most ``jokers`` hand jokers (see the module doc)."""
    out: list[OpeningMeld] = []
    M = spec.min_nat
    for s, ranks, high, nat in _run_fillings(spec, hand, jokers, 0):
        ln = len(ranks)
        if ln >= 2 * spec.min_len and _splits(spec, ranks, high, nat):
            continue
        value = 0
        items: list[Item] = []
        cards: list[int] = []
        for k, (r, hi) in enumerate(zip(ranks, high, strict=True)):
            v, jv = _worth(spec, r, hi)
            value += v if nat[k] else jv
            items.append((s, r + 1, not nat[k], True))
            if nat[k]:
                cards.append(s * 13 + r)
        out.append(OpeningMeld(tuple(cards), ln - sum(nat), value, True, tuple(items)))
    for r in range(13):
        present = [s for s in range(4) if hand[s][r] > 0]
        for mask in range(1 << len(present)):
            suits = tuple(present[i] for i in range(len(present)) if mask >> i & 1)
            a = len(suits)
            if a < M:
                continue
            v, jv = _worth(spec, r, True)
            missing = [s for s in range(4) if s not in suits] or [0, 1, 2, 3]
            for k in range(max(0, 3 - a), min(jokers, spec.set_max - a) + 1):
                if a + k < 3 or a + k > spec.set_max:
                    continue
                items = [(s, r + 1, False, True) for s in suits]
                items += [(missing[i % len(missing)], r + 1, True, True) for i in range(k)]
                out.append(
                    OpeningMeld(
                        tuple(s * 13 + r for s in suits), k, a * v + k * jv, False, tuple(items)
                    )
                )
    return out


def opening_candidates(
    spec: CoreSpec,
    hand: Sequence[Sequence[int]],
    jokers: int,
    *,
    limit: int,
    nodes: int,
) -> dict[tuple[tuple[int, ...], int], tuple[OpeningMeld, ...]] | None:
    """The ways to open, one per multiset of hand cards used: (naturals used as sorted
    card indices, jokers used) -> melds making an opening with exactly those cards.

    None if there are more than ``limit`` of them or the enumeration visits more than
    ``nodes`` partial openings (the caller then falls back to the full search).
    """
    assert spec.ace == LOW or spec.min_len <= 13
    melds = opening_melds(spec, hand, jokers)
    left = [hand[c // 13][c % 13] for c in range(52)]
    need = spec.threshold
    found: dict[tuple[tuple[int, ...], int], tuple[OpeningMeld, ...]] = {}
    chosen: list[OpeningMeld] = []
    visited = 0

    def fits(m: OpeningMeld, jl: int) -> bool:
        if m.jokers > jl:
            return False
        return all(left[c] > 0 for c in m.cards)

    def visit(start: int, value: int, jl: int) -> bool:
        nonlocal visited
        for i in range(start, len(melds)):
            m = melds[i]
            if not fits(m, jl):
                continue
            visited += 1
            if visited > nodes:
                return False
            chosen.append(m)
            if value + m.value >= need:
                key = (tuple(sorted(c for x in chosen for c in x.cards)), jokers - jl + m.jokers)
                if key not in found:
                    if len(found) >= limit:
                        return False
                    found[key] = tuple(chosen)
            else:
                for c in m.cards:
                    left[c] -= 1
                ok = visit(i, value + m.value, jl - m.jokers)
                for c in m.cards:
                    left[c] += 1
                if not ok:
                    return False
            chosen.pop()
        return True

    if not visit(0, 0, jokers):
        return None
    return found


def run_opening_candidates(
    spec: CoreSpec, hand: Sequence[Sequence[int]], jokers: int, *, limit: int
) -> dict[tuple[tuple[int, ...], int], tuple[OpeningMeld, ...]] | None:
    """The ways to open with a run from the hand (``opening.type = RUN_FROM_HAND``), one per
    multiset of hand cards used, in the form of :func:`opening_candidates`.

    The opening is one run of hand cards and hand jokers at least ``spec.run_length``
    long; every other meld of the play may be an opened player's. So the ways are the runs
    of the integer program's windows (every choice of joker positions) of that length,
    except those that cut into two valid runs one of which is long enough (that piece
    opens, the other goes down with the rest: the same play). None if there are more than
    ``limit`` of them.
    """
    L, M = spec.min_len, spec.min_nat
    shortest = max(spec.run_length, L)
    found: dict[tuple[tuple[int, ...], int], tuple[OpeningMeld, ...]] = {}
    for s, ranks, _high, nat in _run_fillings(spec, hand, jokers, shortest):
        ln = len(ranks)
        if any(
            (k >= shortest or ln - k >= shortest) and sum(nat[:k]) >= M and sum(nat[k:]) >= M
            for k in range(L, ln - L + 1)
        ):
            continue
        cards = tuple(sorted(s * 13 + r for k, r in enumerate(ranks) if nat[k]))
        key = (cards, ln - sum(nat))
        if key in found:
            continue
        if len(found) >= limit:
            return None
        items = tuple((s, r + 1, not nat[k], True) for k, r in enumerate(ranks))
        found[key] = (OpeningMeld(cards, key[1], 0, True, items),)
    return found
