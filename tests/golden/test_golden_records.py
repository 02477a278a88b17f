"""Recorded matches that must replay to the same end forever.

``tests/data/records.jsonl.gz`` (written by ``scripts/golden_records.py``) holds one game
record per line: every preset under every match format, played by a mix of bots. Each must
load, replay action by action, and end with the recorded outcome, totals and rounds.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

import pytest

from helpers import golden, indian_rules
from openrummy.games.actions import action_to_json
from openrummy.record import VERSION, GameRecord
from openrummy.rules import find_preset, preset_names

FILE = "records.jsonl.gz"


@cache
def records() -> list[dict[str, Any]]:
    return golden(FILE)


def _label(data: dict[str, Any]) -> str:
    return f"{data['game']} {json.dumps(data['options'], sort_keys=True)}"


def test_every_preset_and_match_format_is_recorded() -> None:
    formats: dict[str, set[str]] = {}
    for data in records():
        assert data["version"] == VERSION
        rules = find_preset(data["game"], data["options"])
        formats.setdefault(rules.family, set()).add(rules.match.format.name)
        assert data["result"] is not None, _label(data)
    games = {data["game"] for data in records()}
    assert games == set(preset_names())
    assert formats["manipulation"] == {
        "ROUNDS_LOWEST_TOTAL",
        "ROUNDS_HIGHEST_TOTAL",
        "FIRST_TO_N_OUTS",
        "SINGLE_ROUND",
    }
    assert formats["indian"] == {"POINTS", "POOL", "DEALS", "FIXED_HANDS"}
    pools = {
        indian_rules(d["game"], d["options"]).pool.threshold
        for d in records()
        if find_preset(d["game"], d["options"]).match.format.name == "POOL"
    }
    assert pools == {101, 201}


def test_the_records_hold_every_action_kind() -> None:
    kinds: Counter[str] = Counter()
    for data in records():
        for action in data["actions"]:
            kinds[action["action"].split()[0]] += 1
    assert len(kinds) >= 6, kinds


@pytest.mark.parametrize("index", range(len(records())))
def test_a_record_replays_to_the_recorded_end(index: int) -> None:
    data = records()[index]
    record = GameRecord.from_json(data)
    assert [action_to_json(a) for a in record.actions] == data["actions"], _label(data)
    match = record.replay()  # raises if an action is refused or the outcome differs
    # An outcome may gain fields over time (``decision`` came later than these records);
    # every field the record holds must come out the same.
    assert match.outcome is not None
    outcome = match.outcome.to_json()
    assert {key: outcome.get(key) for key in data["result"]} == data["result"], _label(data)
    final = data["meta"]["final"]
    assert json.loads(json.dumps(match.totals, default=list)) == final["totals"], _label(data)
    assert len(match.rounds) == final["rounds"], _label(data)
