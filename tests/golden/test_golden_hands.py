"""The Indian hand solver against fixed hands whose answers the references gave once.

``tests/data/indian_hands.jsonl.gz`` (written by ``scripts/golden_hands.py``) holds hands
of every Indian preset and rule variant with the least deadwood under every loser-credit
rule and, where the reference models the variant's declaration, whether the hand can be
declared.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

import pytest

from helpers import golden
from openrummy.cards import Card, parse_cards
from openrummy.rules import find_preset
from openrummy.rules.indian import IndianRules, LoserMeldCredit
from openrummy.solve.hand import find_declaration, min_deadwood

FILE = "indian_hands.jsonl.gz"
CHUNKS = 8


@cache
def hands() -> list[dict[str, Any]]:
    return golden(FILE)


@cache
def rules_of(game: str, options: str) -> IndianRules:
    rules = find_preset(game, json.loads(options))
    assert isinstance(rules, IndianRules)
    return rules


def test_the_golden_hands_cover_every_preset_and_credit_branch() -> None:
    seen: Counter[str] = Counter()
    for e in hands():
        seen[e["game"]] += 1
        seen[e["case"]] += 1
        dead = e["deadwood"]
        assert set(dead) == {c.name for c in LoserMeldCredit}
        if dead["TWO_SEQ_ONE_PURE"] < dead["PURE_ONLY"]:
            raise AssertionError(f"two-sequence credit beat the pure-only credit: {e}")
        seen[f"declarable {e['declarable']}"] += 1
    assert all(seen[g] > 0 for g in ("indian13", "indian10", "indian21")), seen
    assert seen["declarable True"] > 0 and seen["declarable False"] > 0, seen
    assert seen["declarable None"] > 0, seen


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_solver_gives_the_recorded_deadwood_and_declarability(chunk: int) -> None:
    mine = hands()[chunk::CHUNKS]
    assert mine
    for e in mine:
        rules = rules_of(e["game"], json.dumps(e["options"], sort_keys=True))
        hand = parse_cards(e["hand"])
        wilds = rules.wilds(Card.parse(e["indicator"]))
        where = (e["case"], e["hand"], e["indicator"])
        for credit in LoserMeldCredit:
            got = min_deadwood(hand, rules, wilds, credit=credit)
            assert got.raw == e["deadwood"][credit.name], (where, credit, got)
        if e["declarable"] is None:
            continue
        dec = find_declaration(hand, rules, wilds)
        valid = dec.valid and dec.form == "THREE_PURE" if rules.is_v21 else dec.valid
        assert valid == e["declarable"], (where, dec)
