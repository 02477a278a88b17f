"""Shared helpers for the solver tests: seeded random positions."""

from __future__ import annotations

import random
from dataclasses import dataclass

from helpers import manipulation_rules
from openrummy.cards import JOKER, Card, Suit
from openrummy.melds import AceMode, Meld, MeldItem
from openrummy.rules.common import DeckKind
from openrummy.rules.manipulation import ManipulationRules

PRESETS = ("robbers", "robbers_s003", "vatikan_s000", "vatikan_pagat", "rummikub")


@dataclass
class Position:
    rules: ManipulationRules
    table: list[Meld]
    hand: list[Card]
    opened: bool
    label: str


def random_rules(rng: random.Random) -> tuple[ManipulationRules, str]:
    name = rng.choice(PRESETS)
    over: dict[str, object] = {"deck.printed_jokers": rng.choice([0, 1, 2, 2, 3, 4, 4, 5, 6])}
    if rng.random() < 0.5:
        over["meld.ace_mode"] = rng.choice(["LOW_ONLY", "HIGH_OR_LOW", "WRAPAROUND"])
    if rng.random() < 0.05:
        over["meld.min_naturals"] = rng.choice([0, 2])
    if rng.random() < 0.05:
        over["meld.set_max"] = rng.choice([3, 5])
    if rng.random() < 0.03:
        over["meld.min_len"] = 4
    rules = manipulation_rules(name, over)
    if rng.random() < 0.2 and rules.opening.type.name == "POINTS":
        rules = rules.with_options(
            {"opening.allow_table_play_same_turn": not rules.opening.allow_table_play_same_turn}
        )
    return rules, f"{name} {over}"


def deck_of(rules: ManipulationRules) -> list[Card]:
    """Every card of these rules' deck (all copies and printed jokers)."""
    return _deck(rules)


def _deck(rules: ManipulationRules) -> list[Card]:
    tiles = rules.deck.kind is DeckKind.TILES
    cards = [
        Card(r, s, tiles)
        for _ in range(rules.deck.standard_decks)
        for s in Suit
        for r in range(1, 14)
    ]
    return cards + [JOKER] * rules.deck.printed_jokers


def random_meld(rng: random.Random, rules: ManipulationRules, pool: list[Card]) -> Meld | None:
    """A random valid meld from the cards in ``pool`` (removed from it), or None."""
    tiles = rules.deck.kind is DeckKind.TILES
    jokers = pool.count(JOKER)
    mn = rules.meld.min_naturals
    if rng.random() < 0.45:
        r = rng.randint(1, 13)
        size = rng.randint(3, max(3, min(4, rules.meld.set_max)))
        suits = rng.sample(list(Suit), min(size, 4))
        idents = [Card(r, s, tiles) for s in suits]
    else:
        s = rng.choice(list(Suit))
        ln = rng.choice([3, 3, 3, 4, 4, 5, 6, 7, 9, 13])
        ln = max(ln, rules.meld.min_len)
        mode = rules.meld.ace_mode
        if mode is AceMode.WRAPAROUND:
            start = rng.randint(1, 13)
            ranks = [((start - 1 + k) % 13) + 1 for k in range(ln)]
        else:
            top = 14 if mode is AceMode.HIGH_OR_LOW else 13
            if ln > top:
                return None
            start = rng.randint(1, top - ln + 1)
            ranks = [1 if p == 14 else p for p in range(start, start + ln)]
        idents = [Card(r, s, tiles) for r in ranks]
    items: list[MeldItem] = []
    need = Counter_like(pool)
    naturals = 0
    for ident in idents:
        use_joker = jokers > 0 and (rng.random() < 0.25 or need.get(ident, 0) == 0)
        if not use_joker and need.get(ident, 0) > 0:
            need[ident] -= 1
            items.append(MeldItem.natural(ident))
            naturals += 1
        elif jokers > 0:
            jokers -= 1
            items.append(MeldItem(JOKER, ident))
        else:
            return None
    if naturals < mn:
        return None
    meld = Meld(tuple(items))
    if not meld.is_valid(rules.meld_rules):
        return None
    for c in meld.cards:
        pool.remove(c)
    return meld


def Counter_like(pool: list[Card]) -> dict[Card, int]:
    d: dict[Card, int] = {}
    for c in pool:
        d[c] = d.get(c, 0) + 1
    return d


def random_table(
    rng: random.Random, rules: ManipulationRules, pool: list[Card], target: int
) -> list[Meld]:
    """Random valid melds from ``pool`` (taken out of it) until about ``target`` cards."""
    table: list[Meld] = []
    size = fails = 0
    while size < target and fails < 200:
        m = random_meld(rng, rules, pool)
        if m is None:
            fails += 1
            continue
        table.append(m)
        size += len(m)
    return table


def random_position(
    seed: int, *, table_cards: int | None = None, hand_cards: int | None = None
) -> Position:
    rng = random.Random(seed)
    rules, label = random_rules(rng)
    pool = _deck(rules)
    rng.shuffle(pool)
    target = rng.randint(0, 100) if table_cards is None else table_cards
    table = random_table(rng, rules, pool, target)
    k = rng.choice([0, 1, 3, 5, 8, 10, 14, 14, 18]) if hand_cards is None else hand_cards
    k = min(k, len(pool))
    hand = pool[:k]
    opened = rng.random() < 0.75
    return Position(rules, table, hand, opened, f"seed={seed} {label} opened={opened}")


def hand_joker_position(seed: int) -> Position:
    """Like :func:`random_position`, but the hand is dealt 1–4 printed jokers first.

    A random table takes most of the deck's jokers itself, so the hands of
    ``random_position`` seldom hold one; these positions test the jokers of the hand.
    """
    rng = random.Random(seed)
    rules, label = random_rules(rng)
    if rules.deck.printed_jokers == 0:
        rules = rules.with_options({"deck.printed_jokers": 2})
        label += " +2 jokers"
    pool = _deck(rules)
    rng.shuffle(pool)
    jokers = rng.randint(1, min(4, pool.count(JOKER)))
    for _ in range(jokers):
        pool.remove(JOKER)
    table = random_table(rng, rules, pool, rng.randint(0, 150))
    k = min(rng.choice([0, 1, 2, 3, 5, 8, 10, 14]), len(pool))
    hand = [JOKER] * jokers + pool[:k]
    rng.shuffle(hand)
    opened = rng.random() < 0.75
    return Position(rules, table, hand, opened, f"seed={seed} {label} opened={opened} hand jokers")


def opening_position(seed: int) -> Position:
    """A player who has not opened, with a big hand (14–22 cards) beside a table of up to
    60 cards, under an opening rule that lets the opening turn also play on the table
    (Robbers' Rummy, its thresholds and value options, and Rummikub with that option)."""
    rng = random.Random(seed)
    over: dict[str, object] = {
        "deck.printed_jokers": rng.choice([0, 2, 2, 4]),
        "opening.threshold": rng.choice([30, 40, 40, 51]),
    }
    if rng.random() < 0.2:
        over["opening.joker_value"] = rng.choice(["PENALTY", "ZERO"])
    if rng.random() < 0.2:
        over["opening.ace_value"] = rng.choice(["1", "POSITIONAL_1_OR_11"])
    name = "robbers"
    if rng.random() < 0.25:
        name = "rummikub"
        over = {"opening.allow_table_play_same_turn": True}
    rules = manipulation_rules(name, over)
    pool = _deck(rules)
    rng.shuffle(pool)
    table = random_table(rng, rules, pool, rng.randint(0, 60))
    hand = pool[: rng.randint(14, 22)]
    return Position(rules, table, hand, False, f"seed={seed} {name} {over} opening")


def many_decks_position(seed: int) -> Position:
    """Three or four decks with six jokers (Robbers' Rummy), every ace mode in turn, up to 150
    table cards, 14–28 hand cards, an opened player: the big tables the seed's rules allow
    (with 14 cards beside 40 or more table cards nearly every hand is placed in full; the
    smaller tables and bigger hands give the positions whose proofs leave cards over)."""
    rng = random.Random(f"many decks {seed}")
    over: dict[str, object] = {
        "deck.standard_decks": rng.choice([3, 4]),
        "deck.printed_jokers": 6,
        "meld.ace_mode": ("LOW_ONLY", "HIGH_OR_LOW", "WRAPAROUND")[seed % 3],
    }
    rules = manipulation_rules("robbers", over)
    pool = deck_of(rules)
    rng.shuffle(pool)
    table = random_table(rng, rules, pool, rng.randint(0, 150))
    hand = pool[: rng.choice([14, 14, 18, 22, 28])]
    return Position(rules, table, hand, True, f"seed={seed} robbers {over}")


def check_play(
    rules: ManipulationRules,
    before: list[Meld],
    hand: list[Card],
    play: object,
    *,
    opened: bool,
) -> None:
    """Re-check a solver answer with the engine's own commit checks (RULES.md §2.2)."""
    from collections import Counter

    from openrummy.games.commit import commit_violations
    from openrummy.solve.table import BestPlay

    assert isinstance(play, BestPlay)
    mr = rules.meld_rules
    for m in play.table:
        m.validate(mr)
        assert all(it.represents is not None for it in m.items), m
    tiles = rules.deck.kind is DeckKind.TILES
    norm = [c if c.is_joker else c.as_tile(tiles) for c in hand]
    assert Counter(c for m in play.table for c in m.cards) == Counter(
        c for m in play.before for c in m.cards
    ) + Counter(play.placed)
    assert not Counter(play.placed) - Counter(norm)
    assert Counter(play.hand) + Counter(play.placed) == Counter(norm)
    assert play.count == len(play.placed)
    assert play.value == sum(rules.penalty_value(c) for c in play.placed)
    if play.count == 0:
        assert Counter(str(m.normalized(mr)) for m in play.table) == Counter(
            str(m.normalized(mr)) for m in play.before
        )
        return
    violations = commit_violations(
        rules,
        table_before=list(play.before),
        hand=norm,
        table_after=list(play.table),
        opened=opened,
    )
    assert violations == [], violations


def movable_cards(rules: ManipulationRules, table: list[Meld]) -> list[Card]:
    """Table cards the solver may rearrange (joker melds stay put under
    ``joker.mobility = ONLY_VIA_REPLACEMENT``), for the reference model."""
    from openrummy.rules.manipulation import Mobility

    frozen = rules.joker.mobility is Mobility.ONLY_VIA_REPLACEMENT
    return [
        c
        for m in table
        if not (frozen and any(it.card.is_joker for it in m.items))
        for c in m.cards
    ]


def assert_matches_reference(p: Position) -> tuple[int, int]:
    """Solve ``p``, re-check the play with the engine's commit checks, and compare its
    count and value with the HiGHS reference model; returns (count, value)."""
    from helpers.ilp_reference import Optimum, optimum
    from openrummy.solve import best_play

    play = best_play(p.rules, p.table, p.hand, opened=p.opened, keep_melds=False)
    check_play(p.rules, p.table, p.hand, play, opened=p.opened)
    # the play passed the commit checks, so it is feasible: the reference may stop as
    # soon as its LP bound shows that nothing better exists
    claim = Optimum(play.count, play.value)
    ref = optimum(p.rules, movable_cards(p.rules, p.table), p.hand, opened=p.opened, claim=claim)
    want = (ref.count, ref.value) if ref else (0, 0)
    got = (play.count, play.value)
    assert got == want, f"{p.label}: solver {got}, reference {want}"
    return got
