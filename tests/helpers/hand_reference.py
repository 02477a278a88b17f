"""An independent exhaustive reference for the Indian hand solver, and a hand generator.

The reference shares no code with ``openrummy.solve``: it works on card *slots* (one per
physical card), enumerates every sub-multiset of the hand that can be a meld by trying each
wild-capable card as itself and as a wild and testing the definitions of RULES.md §1.3–§1.4
directly (windows of consecutive ranks, distinct suits), and then packs melds with a
bitmask search over slots. A second reference, a HiGHS integer program over the same meld
list, answers the same questions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from helpers import indian_rules
from openrummy.cards import JOKER, Card, Suit, standard_deck
from openrummy.melds import MeldKind
from openrummy.rules.indian import IndianRules, LoserMeldCredit, Wilds
from openrummy.solve.hand import Arrangement, GroupKind

PURE, RUN, SET = 2, 1, 0
BIG = 10**9


# -- the reference ----------------------------------------------------------------------------
@dataclass(frozen=True)
class RefMeld:
    slots: int  # bitmask over the hand's slots
    kind: int  # PURE, RUN or SET (the best reading: a pure run also counts as a run)


def ref_kinds(cards: Sequence[Card], rules: IndianRules, wilds: Wilds) -> frozenset[int]:
    """Every kind the cards can form together, straight from the definitions."""
    key = tuple(sorted(cards, key=Card.sort_key))
    memo = _KINDS_MEMO.setdefault((id(rules), wilds), {})
    if key not in memo:
        memo[key] = _ref_kinds(key, rules, wilds)
    return memo[key]


_KINDS_MEMO: dict[tuple[int, Wilds], dict[tuple[Card, ...], frozenset[int]]] = {}


def _ref_kinds(cards: tuple[Card, ...], rules: IndianRules, wilds: Wilds) -> frozenset[int]:
    n = len(cards)
    out: set[int] = set()
    flexible = [i for i, c in enumerate(cards) if not c.is_joker and wilds.is_wild(c)]
    for bits in range(1 << len(flexible)):
        as_wild = {flexible[k] for k in range(len(flexible)) if bits >> k & 1}
        naturals = [c for i, c in enumerate(cards) if not c.is_joker and i not in as_wild]
        w = n - len(naturals)
        if not naturals:  # wild items only (A35)
            option = rules.meld.all_wild_group.name
            largest = n if option == "JOKER_GROUP" else rules.meld.set_max
            if option != "FORBIDDEN" and 3 <= n <= largest:
                out.add(SET)
            if option == "SET_OR_SEQUENCE" and 3 <= n <= 13:
                out.add(RUN)
            continue
        # a set: one rank, distinct suits, at most set_max cards
        if (
            len({c.rank for c in naturals}) == 1
            and len({c.suit for c in naturals}) == len(naturals)
            and 3 <= n <= rules.meld.set_max
        ):
            out.add(SET)
        # a run: one suit, and some window of n consecutive ranks holds every natural
        ranks_held = {c.rank for c in naturals}
        if (
            len({c.suit for c in naturals}) == 1
            and len(ranks_held) == len(naturals)
            and 3 <= n <= 13
        ):
            for start in range(1, 16 - n):
                window = set(range(start, start + n))
                if 1 in window and 14 in window:
                    continue
                if ranks_held <= {1 if p == 14 else p for p in window}:
                    pure = w == 0 and (
                        rules.wild.natural_use_counts_pure
                        or not any(wilds.is_wild(c) for c in naturals)
                    )
                    out.add(PURE if pure else RUN)
                    break
        if rules.tunnela_is_meld and n == 3 and w == 0 and len(set(naturals)) == 1:
            out.add(PURE)  # a tunnela counts as a pure sequence (RULES.md §7.3)
    if rules.tunnela_is_meld and n == 3 and all(c.is_joker for c in cards):
        out.add(PURE)
    return frozenset(out)


def ref_melds(hand: Sequence[Card], rules: IndianRules, wilds: Wilds) -> list[RefMeld]:
    """Every sub-multiset of slots that is a meld, each with its best kind."""
    n = len(hand)
    found: dict[int, int] = {}
    wild = [wilds.is_wild(c) for c in hand]

    def compatible(chosen: list[int]) -> bool:
        fixed = [hand[i] for i in chosen if not wild[i]]
        if not fixed:
            return True
        if rules.tunnela_is_meld and len(chosen) <= 3 and len(set(fixed)) == 1:
            return True
        same_rank = len({c.rank for c in fixed}) == 1 and len({c.suit for c in fixed}) == len(fixed)
        same_suit = len({c.suit for c in fixed}) == 1 and len({c.rank for c in fixed}) == len(fixed)
        return (same_rank and len(chosen) <= rules.meld.set_max) or (
            same_suit and len(chosen) <= 13
        )

    def grow(start: int, chosen: list[int]) -> None:
        if len(chosen) >= 3:
            kinds = ref_kinds([hand[i] for i in chosen], rules, wilds)
            if kinds:
                mask = sum(1 << i for i in chosen)
                found[mask] = max(kinds)
        for i in range(start, n):
            chosen.append(i)
            if compatible(chosen):
                grow(i + 1, chosen)
            chosen.pop()

    grow(0, [])
    return [RefMeld(m, k) for m, k in found.items()]


def ref_melds_by_count(
    hand: Sequence[Card], rules: IndianRules, wilds: Wilds
) -> dict[tuple[Card, ...], int]:
    """Every distinct multiset of the hand's cards that is a meld, with its best kind."""
    held = sorted(Counter(hand).items(), key=lambda kv: kv[0].sort_key())
    found: dict[tuple[Card, ...], int] = {}

    def ok(chosen: list[Card]) -> bool:
        fixed = [c for c in chosen if not wilds.is_wild(c)]
        if len(set(fixed)) == 1 and rules.tunnela_is_meld and len(chosen) <= 3:
            return True
        if len(set(fixed)) != len(fixed):
            return False
        same_rank = len({c.rank for c in fixed}) <= 1 and len(chosen) <= rules.meld.set_max
        same_suit = len({c.suit for c in fixed}) <= 1 and len(chosen) <= 13
        return same_rank or same_suit

    def grow(i: int, chosen: list[Card]) -> None:
        if i == len(held):
            if len(chosen) >= 3:
                kinds = ref_kinds(chosen, rules, wilds)
                if kinds:
                    found[tuple(chosen)] = max(kinds)
            return
        card, n = held[i]
        grow(i + 1, chosen)
        for k in range(1, n + 1):
            chosen.extend([card] * k)
            if ok(chosen):
                grow(i + 1, chosen)
            del chosen[-k:]

    grow(0, [])
    return found


def ref_value(card: Card, wilds: Wilds) -> int:
    if card.is_joker or wilds.is_wild(card):
        return 0
    return 10 if card.rank in (1, 11, 12, 13) else card.rank


CREDIT_NEEDS = {
    LoserMeldCredit.TWO_SEQ_ONE_PURE: (2, 1),
    LoserMeldCredit.PURE_ONLY: (0, 1),
    LoserMeldCredit.ANY_MELD: (0, 0),
    LoserMeldCredit.THREE_PURE: (0, 3),
}


def reference(
    hand: Sequence[Card], rules: IndianRules, wilds: Wilds
) -> tuple[dict[LoserMeldCredit, int], bool]:
    """Least deadwood per credit rule (all cards when unmet) and whether a 2-sequence
    declaration (every card in a meld) exists."""
    _KINDS_MEMO.clear()
    hand = sorted(hand, key=Card.sort_key)
    melds = ref_melds(hand, rules, wilds)
    by_first: dict[int, list[RefMeld]] = {}
    for m in melds:
        low = (m.slots & -m.slots).bit_length() - 1
        by_first.setdefault(low, []).append(m)
    values = [ref_value(c, wilds) for c in hand]
    total = sum(values)
    # Slots in no meld are deadwood in every arrangement: leave them out of the search.
    in_some = 0
    for m in melds:
        in_some |= m.slots
    full = in_some
    isolated = sum(v for i, v in enumerate(values) if not in_some >> i & 1)
    any_isolated = any(not in_some >> i & 1 for i in range(len(hand)))

    # Identical cards are interchangeable: a position keeps its free copies of each card
    # on the lowest slots of that card (every slot variant of a meld is in the list).
    groups: list[tuple[int, int]] = []
    for i, c in enumerate(hand):
        if i and hand[i - 1] == c:
            groups[-1] = (groups[-1][0], i)
        else:
            groups.append((i, i))
    dup_groups = [(a, b) for a, b in groups if b > a]

    def canon(free: int) -> int:
        for a, b in dup_groups:
            gm = ((1 << (b - a + 1)) - 1) << a
            k = (free & gm).bit_count()
            free = (free & ~gm) | (((1 << k) - 1) << a)
        return free

    def solve(need_runs: int, need_pure: int, declare: bool) -> int:
        @cache
        def rec(free: int, runs: int, pure: int) -> int:
            if free == 0:
                return 0 if runs >= need_runs and pure >= need_pure else BIG
            low = (free & -free).bit_length() - 1
            best = BIG if declare else values[low] + rec(canon(free & ~(1 << low)), runs, pure)
            for m in by_first.get(low, ()):
                if m.slots & free == m.slots:
                    r = min(need_runs, runs + (m.kind >= RUN))
                    p = min(need_pure, pure + (m.kind == PURE))
                    best = min(best, rec(canon(free & ~m.slots), r, p))
            return best

        return rec(full, 0, 0)

    out = {}
    for credit, (nr, np_) in CREDIT_NEEDS.items():
        v = solve(nr, np_, False)
        out[credit] = total if v >= BIG else v + isolated
    declare = (0, 3) if rules.is_v21 else (2, 1)
    declarable = not any_isolated and solve(*declare, True) == 0
    return out, declarable


def milp_reference(
    hand: Sequence[Card], rules: IndianRules, wilds: Wilds
) -> tuple[dict[LoserMeldCredit, int], bool]:
    """The same answers from a HiGHS integer program over distinct melds (card counts)."""
    import highspy

    _KINDS_MEMO.clear()
    kinds = ref_melds_by_count(hand, rules, wilds)
    held = Counter(hand)
    total = sum(ref_value(c, wilds) for c in hand)

    def solve(need_runs: int, need_pure: int, declare: bool) -> int | None:
        h = highspy.Highs()  # type: ignore[no-untyped-call]
        h.silent()
        xs = {key: h.addIntegral(lb=0, ub=3) for key in kinds}
        terms: dict[Card, list[object]] = {}
        for key, x in xs.items():
            for card, k in Counter(key).items():
                terms.setdefault(card, []).append(k * x)
        for card, n in held.items():
            if card not in terms:
                if declare:
                    return None
                continue
            first, *rest = terms[card]
            expr = sum(rest, start=first)  # type: ignore[call-overload]
            h.addConstr(expr == n if declare else expr <= n)
        runs = [x for key, x in xs.items() if kinds[key] >= RUN]
        pure = [x for key, x in xs.items() if kinds[key] == PURE]
        for need, group in ((need_runs, runs), (need_pure, pure)):
            if need:
                if not group:
                    return None
                h.addConstr(sum(group[1:], start=group[0]) >= need)
        objective = [sum(ref_value(c, wilds) for c in key) * x for key, x in xs.items()]
        if not objective:
            return 0 if not (need_runs or need_pure or declare) else None
        h.maximize(sum(objective[1:], start=objective[0]))
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        return round(h.getInfo().objective_function_value)

    out = {}
    for credit, (nr, np_) in CREDIT_NEEDS.items():
        covered = solve(nr, np_, False)
        out[credit] = total if covered is None else total - covered
    declare = (0, 3) if rules.is_v21 else (2, 1)
    return out, solve(*declare, True) is not None


# -- re-validation of a solver answer -----------------------------------------------------------
def revalidate(arr: Arrangement, hand: Sequence[Card], rules: IndianRules, wilds: Wilds) -> None:
    """Every group is a valid meld of the kind claimed; groups + deadwood = the hand."""
    used = Counter(c for g in arr.groups for c in g.cards) + Counter(arr.deadwood)
    assert used == Counter(hand)
    mr = rules.meld_rules_for(wilds)
    for g, kind in zip(arr.groups, arr.kinds, strict=True):
        kinds = ref_kinds(list(g.cards), rules, wilds)
        if kind is GroupKind.PURE_SEQUENCE:
            assert PURE in kinds, g
            assert g.kind(mr) is MeldKind.RUN and g.is_pure(mr), g
        elif kind is GroupKind.SEQUENCE:
            assert kinds & {RUN, PURE}, g
            assert g.kind(mr) is MeldKind.RUN, g
        elif kind is GroupKind.SET:
            assert SET in kinds, g
            if any(not it.is_wild for it in g.items):
                assert g.kind(mr) is MeldKind.SET, g
        else:
            assert kind is GroupKind.TUNNELA and PURE in kinds, g
    assert arr.raw == sum(ref_value(c, wilds) for c in arr.deadwood)


# -- hand generators -----------------------------------------------------------------------------
def biased_hand(rng: random.Random, rules: IndianRules) -> tuple[list[Card], Card]:
    """A hand seeded with runs, sets and wilds so that every credit branch occurs."""
    deck = standard_deck(rules.deck.standard_decks, rules.deck.printed_jokers)
    rng.shuffle(deck)
    indicator = deck.pop()
    size = rules.deal.hand_size
    hand: list[Card] = []

    def take(card: Card) -> None:
        if card in deck and len(hand) < size:
            deck.remove(card)
            hand.append(card)

    if rng.random() < 0.08:
        # A sparse hand: no wild, no two cards of a suit within 2 ranks, no rank thrice,
        # so that not even ANY_MELD finds a meld.
        w = rules.wild_rank_of(indicator)
        for card in list(deck):
            if len(hand) == size:
                break
            if card.is_joker or card.rank == w:
                continue
            near = any(
                h.suit == card.suit
                and min(abs(h.rank - card.rank), 13 - abs(h.rank - card.rank)) <= 2
                for h in hand
            )
            if not near and sum(h.rank == card.rank for h in hand) < 2:
                take(card)
    seeds = (0, 1, 1, 2, 2, 3) if size < 20 else (2, 3, 4, 5, 6, 6)
    for _ in range(rng.choice(seeds)):
        suit = rng.choice(list(Suit))
        if rng.random() < 0.6:
            start = rng.randint(1, 12)
            for r in range(start, min(start + rng.choice((2, 3, 3, 4)), 14) + 0):
                take(Card(r if r <= 13 else 1, suit))
        else:
            rank = rng.randint(1, 13)
            for s in rng.sample(list(Suit), rng.choice((2, 3, 3, 4))):
                take(Card(rank, s))
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        if rng.random() < 0.5:
            take(JOKER)
        else:
            w = rules.wild_rank_of(indicator)
            take(Card(w, rng.choice(list(Suit))))
    while len(hand) < size:
        hand.append(deck.pop())
    rng.shuffle(hand)
    return hand, indicator


def hands(seed: int, count: int, preset: str) -> Iterator[tuple[list[Card], Wilds]]:
    rules = indian_rules(preset)
    rng = random.Random(seed)
    for _ in range(count):
        hand, indicator = biased_hand(rng, rules)
        yield hand, rules.wilds(indicator)
