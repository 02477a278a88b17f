"""The table solver against fixed positions whose optimum HiGHS established once.

``tests/data/table_optima.jsonl.gz`` (written by ``scripts/golden_table.py``, which says
how each position was made and proved) holds each position in full: rules, table melds,
hand, opened. The solver must place exactly the recorded count, then value.

The positions are checked in strided chunks of about 50 (each chunk a cross-section of the
whole file); the first ``DEFAULT_CHUNKS`` chunks, about 1,000 positions and 40 CPU-seconds,
are in every run, the others in the exhaustive tier, so the everyday cost stays the same as
the file grows.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

import pytest

from helpers import golden
from openrummy.cards import parse_cards
from openrummy.melds import Meld
from openrummy.rules import ManipulationRules, find_preset
from openrummy.solve import best_play

FILE = "table_optima.jsonl.gz"
CHUNK_SIZE = 50
DEFAULT_CHUNKS = 20


@cache
def positions() -> list[dict[str, Any]]:
    return golden(FILE)


@cache
def rules_of(game: str, options: str) -> ManipulationRules:
    rules = find_preset(game, json.loads(options))
    assert isinstance(rules, ManipulationRules)
    return rules


def test_the_golden_positions_cover_the_space() -> None:
    """Every preset, ace mode, 0–6 jokers (in the hand too), two to four decks, opened and
    not, tables of 0 to over 100 cards, and positions where the answer is to place nothing,
    some, or everything."""
    seen: Counter[str] = Counter()
    sizes = []
    for e in positions():
        rules = rules_of(e["game"], json.dumps(e["options"], sort_keys=True))
        table = [Meld.parse(t) for t in e["table"]]
        hand = parse_cards(e["hand"])
        seen[f"game {e['game']}"] += 1
        seen[f"aces {rules.meld.ace_mode.name}"] += 1
        seen[f"jokers {sum(c.is_joker for c in hand) + sum(m.jokers for m in table)}"] += 1
        seen[f"opened {e['opened']}"] += 1
        seen[f"decks {rules.deck.standard_decks} aces {rules.meld.ace_mode.name}"] += 1
        seen["hand jokers" if any(c.is_joker for c in hand) else "no hand jokers"] += 1
        seen["none" if e["count"] == 0 else "all" if e["count"] == len(hand) else "some"] += 1
        sizes.append(sum(len(m) for m in table))
    for key in [
        *(f"game {g}" for g in ("robbers", "robbers_s003", "vatikan_s000", "vatikan_pagat")),
        "game rummikub",
        *(f"aces {m}" for m in ("LOW_ONLY", "HIGH_OR_LOW", "WRAPAROUND")),
        *(f"jokers {j}" for j in range(7)),
        *(
            f"decks {d} aces {m}"
            for d in (2, 3, 4)
            for m in ("LOW_ONLY", "HIGH_OR_LOW", "WRAPAROUND")
        ),
        "opened True",
        "hand jokers",
        "opened False",
        "none",
        "some",
        "all",
    ]:
        assert seen[key] > 0, (key, seen)
    assert min(sizes) == 0 and max(sizes) > 100


CHUNKS = max(DEFAULT_CHUNKS, -(-len(positions()) // CHUNK_SIZE))


@pytest.mark.parametrize(
    "chunk",
    [c if c < DEFAULT_CHUNKS else pytest.param(c, marks=pytest.mark.slow) for c in range(CHUNKS)],
)
def test_the_solver_finds_the_recorded_optimum(chunk: int) -> None:
    mine = positions()[chunk::CHUNKS]
    assert mine
    for e in mine:
        rules = rules_of(e["game"], json.dumps(e["options"], sort_keys=True))
        table = [Meld.parse(t) for t in e["table"]]
        play = best_play(rules, table, parse_cards(e["hand"]), opened=e["opened"], keep_melds=False)
        assert (play.count, play.value) == (e["count"], e["value"]), f"seed {e['seed']}: {e}"
