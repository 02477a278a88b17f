"""A fresh random sample against the independent references, drawn anew on every run.

The golden files (``tests/golden``) hold fixed positions; this sample draws new ones each
run from ``OPENRUMMY_SAMPLE_SEED`` (printed at the end of the run and in every failure;
set it to repeat a run's sample): table positions over every preset, ace mode, 0–6 jokers,
opening on and off, 0–150 table cards, hands holding jokers, and three or four decks with six
jokers against the HiGHS model, and Indian hands of
every preset against the exhaustive reference. The full seeded cross-checks are in
``test_table_cross.py`` and ``test_hand_crosscheck.py`` (the exhaustive tier).
"""

from __future__ import annotations

import random

import pytest

from helpers import SAMPLE_SEED_VARIABLE, indian_rules, sample_seed
from helpers.hand_reference import biased_hand, reference, revalidate
from helpers.positions import (
    assert_matches_reference,
    hand_joker_position,
    many_decks_position,
    opening_position,
    random_position,
)
from openrummy.solve.hand import find_declaration, min_deadwood

TABLE_CHUNKS = 6
TABLE_PER_CHUNK = 50
"""300 table positions a run (about 90 CPU-seconds, solver and HiGHS model together)."""


@pytest.mark.parametrize("chunk", range(TABLE_CHUNKS))
def test_fresh_table_positions_match_the_reference(chunk: int) -> None:
    seed = sample_seed()
    rng = random.Random(f"table sample {seed} {chunk}")
    placed = 0
    for _ in range(TABLE_PER_CHUNK):
        position_seed = rng.randrange(10**12)
        kind = rng.random()
        if kind < 0.125:
            p = opening_position(position_seed)
        elif kind < 0.25:
            p = hand_joker_position(position_seed)
        elif kind < 0.3125:
            p = many_decks_position(position_seed)
        else:
            p = random_position(position_seed, table_cards=rng.randint(0, 150))
        try:
            count, _value = assert_matches_reference(p)
        except AssertionError as e:
            raise AssertionError(f"{SAMPLE_SEED_VARIABLE}={seed} chunk {chunk}: {e}") from e
        placed += count > 0
    assert placed > 0


HAND_CASES = {"indian13": 150, "indian10": 100}


@pytest.mark.parametrize("preset", sorted(HAND_CASES))
def test_fresh_indian_hands_match_the_reference(preset: str) -> None:
    seed = sample_seed()
    rules = indian_rules(preset)
    rng = random.Random(f"hand sample {seed} {preset}")
    declarable = 0
    for _ in range(HAND_CASES[preset]):
        hand, indicator = biased_hand(rng, rules)
        wilds = rules.wilds(indicator)
        expected, can_declare = reference(hand, rules, wilds)
        where = f"{SAMPLE_SEED_VARIABLE}={seed}: {' '.join(map(str, hand))} / {indicator}"
        for credit, want in expected.items():
            got = min_deadwood(hand, rules, wilds, credit=credit)
            assert got.raw == want, (where, credit, got, want)
            revalidate(got, hand, rules, wilds)
        assert find_declaration(hand, rules, wilds).valid == can_declare, where
        declarable += can_declare
    assert declarable > 0
