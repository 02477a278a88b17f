"""The Indian environments' fast path changes nothing: seeded trajectories match the golden
digests, its masks, menus and observations are the generic path's, and the quick
declaration test never rules out a declaration the hand solver finds."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from helpers import golden, sample_seed
from helpers.env_trajectories import CASES, trajectory
from helpers.hand_reference import biased_hand
from openrummy.cards import Card, parse_cards, shuffle, standard_deck
from openrummy.envs import _spaces
from openrummy.envs._declare import could_declare, could_group
from openrummy.envs._spaces import encode
from openrummy.envs.aec import RummyEnv
from openrummy.games.indian import IndianGame, IndianMatch
from openrummy.rules import find_preset
from openrummy.rules.indian import IndianRules
from openrummy.solve.hand import find_declaration

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "env_trajectories.json"


@pytest.mark.parametrize("name", list(CASES))
def test_seeded_trajectories_match_the_golden_digests(name: str) -> None:
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))[name]
    assert trajectory(CASES[name]) == expected


def _generic_menu(env: RummyEnv, monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """The engine's full listing, with no declaration shortcut."""
    with monkeypatch.context() as m:
        m.setattr(_spaces, "_may_declare", lambda game: True)
        return {k: str(v) for k, v in _spaces.menu(env.match, env.plays).actions.items()}


@pytest.mark.parametrize(
    ("preset", "options", "players", "unit"),
    [
        ("indian13", None, 2, "round"),
        ("indian13", {"discard.no_same_card_return": True}, 3, "round"),
        ("indian10", None, 2, "round"),
        ("indian21", None, 2, "round"),
        ("indian13", {"match.format": "POOL", "pool.threshold": 61}, 3, "match"),
    ],
)
def test_the_fast_path_gives_the_generic_mask_menu_and_observation(
    preset: str,
    options: dict[str, object] | None,
    players: int,
    unit: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(sample_seed() + players)
    env = RummyEnv(preset, options, players=players, unit=unit)
    env.reset(seed=rng.randrange(10**6))
    checked = 0
    for _ in range(60 if preset != "indian21" else 15):
        if env.match.is_over:
            env.reset(seed=rng.randrange(10**6))
        match = env.match
        assert isinstance(match, IndianMatch)
        for agent in env.possible_agents:
            seat = env.possible_agents.index(agent)
            obs = env.observe(agent)
            assert np.array_equal(
                obs["observation"], encode(match.view(seat), env.layout, env._deck)
            )
            expected = np.zeros(env.n_actions, np.int8)
            if seat == match.current:
                expected = env.action_menu().mask(env.n_actions)
            assert np.array_equal(obs["action_mask"], expected)
        menu = {k: str(v) for k, v in env.action_menu().actions.items()}
        assert menu == _generic_menu(env, monkeypatch)
        checked += 1
        choices = [k for k in menu if k >= _spaces.SECOND0] or [k for k in menu if k != 2]
        env.step(rng.choice(choices or list(menu)))
    assert checked >= 15


@cache
def _rules(game: str, options: str) -> IndianRules:
    rules = find_preset(game, json.loads(options))
    assert isinstance(rules, IndianRules)
    return rules


def _declarable(rest: list[Card], rules: IndianRules, indicator: Card) -> bool:
    return find_declaration(rest, rules, rules.wilds(indicator)).valid


def test_the_quick_test_keeps_every_declarable_golden_hand() -> None:
    """Every golden 13- and 10-card hand the references found declarable, with any card
    added as the finish card, passes both quick tests (all the rule variants of the file)."""
    rng = random.Random(sample_seed() + 3)
    kept = 0
    for row in golden("indian_hands.jsonl.gz"):
        rules = _rules(row["game"], json.dumps(row["options"]))
        if rules.is_v21 or not row.get("declarable"):
            continue
        wilds = rules.wilds(Card.parse(row["indicator"]))
        rest = parse_cards(row["hand"])
        assert could_group(rest, wilds), row
        finish = rng.choice(IndianGame.full_deck(rules))
        assert could_declare([*rest, finish], wilds), row
        kept += 1
    assert kept > 100


def test_the_quick_test_rules_out_only_hands_without_a_declaration() -> None:
    """Near misses (a declarable golden hand with one card swapped, and seeded hands with
    runs, sets and wilds) that the quick test rules out have no declaration at all."""
    rng = random.Random(sample_seed() + 4)
    rows = [
        r
        for r in golden("indian_hands.jsonl.gz")
        if r.get("declarable") and not _rules(r["game"], json.dumps(r["options"])).is_v21
    ]
    ruled_out = 0
    for row in rng.sample(rows, 12):
        rules = _rules(row["game"], json.dumps(row["options"]))
        indicator = Card.parse(row["indicator"])
        rest = parse_cards(row["hand"])
        spare = IndianGame.full_deck(rules)
        for c in (*rest, indicator):
            spare.remove(c)
        rest[rng.randrange(len(rest))] = rng.choice(spare)
        if not could_group(rest, rules.wilds(indicator)):
            ruled_out += 1
            assert not _declarable(rest, rules, indicator), row
    rules13 = _rules("indian13", "{}")
    for _ in range(12):
        rest, indicator = biased_hand(rng, rules13)
        if not could_group(rest, rules13.wilds(indicator)):
            ruled_out += 1
            assert not _declarable(rest, rules13, indicator), rest
    assert ruled_out >= 4


def test_the_deal_shuffle_is_the_random_modules() -> None:
    for seed in range(40):
        for size in (0, 1, 2, 52, 104, 106):
            ours, theirs = list(range(size)), list(range(size))
            a, b = random.Random(f"{seed}/x"), random.Random(f"{seed}/x")
            shuffle(a, ours)
            b.shuffle(theirs)
            assert ours == theirs
            assert a.random() == b.random(), "the same random numbers were used"
    assert standard_deck(2, 2) == standard_deck(2, 2) and standard_deck(2, 2) is not standard_deck(
        2, 2
    )
