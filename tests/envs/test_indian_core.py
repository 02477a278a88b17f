"""The compiled Indian round plays exactly the engine's episodes: the same random numbers,
the same deal, and step for step the same observations, masks, rewards and ends as the
environment on the engine alone; its quick declaration test never rules out a declaration
the hand solver finds."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from helpers import golden, indian_rules, sample_seed
from helpers.hand_reference import biased_hand
from openrummy.cards import Card, parse_cards
from openrummy.envs import _indian_core as core
from openrummy.envs._declare import could_declare, could_group
from openrummy.envs._indian_env import IndianEnv
from openrummy.envs._spaces import SECOND0
from openrummy.envs.aec import RummyEnv
from openrummy.games.families import new_match
from openrummy.games.indian import IndianGame, IndianMatch
from openrummy.rules.indian import IndianRules
from openrummy.solve.hand import find_declaration


def test_the_generator_is_pythons() -> None:
    rng = random.Random(sample_seed())
    for _ in range(20):
        text = f"{rng.randrange(2**63)}/{rng.choice(['dealer', '0', '7'])}"
        st = np.zeros(core.SIZE, np.int64)
        core.mt_seed(st, core.seed_key(text))
        theirs = random.Random(text)
        assert [core.mt_next(st) for _ in range(700)] == [
            theirs.getrandbits(32) for _ in range(700)
        ]
        for n in (2, 3, 5, 52, 106):
            assert core.randbelow(st, n) == theirs.randrange(n)


@pytest.mark.parametrize(
    ("preset", "options", "players"),
    [
        ("indian13", None, 2),
        ("indian13", {"wild.indicator_in_play": True, "deal.first_dealer": "HIGH_CUT"}, 6),
        ("indian10", {"deal.first_dealer": "RANDOM"}, 3),
        ("indian21", None, 4),
    ],
)
def test_the_deal_is_the_engines(
    preset: str, options: dict[str, object] | None, players: int
) -> None:
    env = RummyEnv(preset, options, players=players)
    assert isinstance(env, IndianEnv) and env._core is not None
    c = env._core
    rng = random.Random(sample_seed() + players)
    for _ in range(25):
        seed = rng.randrange(2**63 - 1)
        c.deal(seed)
        game = new_match(env.rules, players, seed=seed).game
        assert isinstance(game, IndianGame)
        st = c.st
        assert st[core.H_DEALER] == game.dealer and st[core.H_CUR] == game.current
        assert st[core.H_IND] == game.indicator.index
        for s in range(players):
            hand = np.bincount([x.index for x in game.hands[s]], minlength=53)
            assert np.array_equal(st[core.HANDS0 + s * 53 : core.HANDS0 + s * 53 + 53], hand)
        stock = [x.index for x in reversed(game.stock)]  # top at the end
        assert st[core.STOCK0 : core.STOCK0 + st[core.H_STOCK]].tolist() == stock
        pile = [x.index for x in game.discard_pile]
        assert st[core.PILE0 : core.PILE0 + st[core.H_PILE]].tolist() == pile


def _pair(
    preset: str, options: dict[str, object] | None, players: int, reward: str, cap: int
) -> Any:
    live = RummyEnv(preset, options, players=players, reward=reward, max_steps=cap)
    engine = RummyEnv(preset, options, players=players, reward=reward, max_steps=cap)
    assert isinstance(live, IndianEnv) and isinstance(engine, IndianEnv)
    assert live._core is not None and engine._fast is not None
    engine._core = None
    engine._fast.quick_declare = False  # the engine's own listing: the solver for every card
    return live, engine


@pytest.mark.parametrize(
    ("preset", "options", "players", "reward", "policy"),
    [
        ("indian13", None, 2, "score", "uniform"),
        ("indian13", None, 2, "win_loss", "no_drop"),
        ("indian13", {"discard.no_same_card_return": True}, 3, "score", "no_drop"),
        ("indian13", {"discard.take_wild_from_discard": False}, 4, "score", "uniform"),
        ("indian13", {"stock.on_empty": "HAND_VOID"}, 2, "score", "no_drop"),
        ("indian10", {"wild.indicator_in_play": True}, 2, "score", "no_drop"),
        ("indian21", None, 3, "score", "uniform"),
        ("indian13", None, 5, "win_loss", "capped"),
    ],
)
def test_the_compiled_round_steps_as_the_engine(
    preset: str, options: dict[str, object] | None, players: int, reward: str, policy: str
) -> None:
    live, engine = _pair(preset, options, players, reward, 9 if policy == "capped" else 5000)
    rng = random.Random(sample_seed() + players)
    steps = episodes = reshuffles = 0
    total = 150 if preset == "indian21" else 500
    while steps < total:
        seed = rng.randrange(10**9)
        live.reset(seed=seed)
        engine.reset(seed=seed)
        episodes += 1
        while steps < total:
            assert live.agent_selection == engine.agent_selection
            for a in live.possible_agents:
                mine, theirs = live.observe(a), engine.observe(a)
                assert np.array_equal(mine["observation"], theirs["observation"]), steps
                assert np.array_equal(mine["action_mask"], theirs["action_mask"]), steps
            assert live.rewards == engine.rewards
            assert live.terminations == engine.terminations
            assert live.truncations == engine.truncations
            agent = live.agent_selection
            if live.terminations[agent] or live.truncations[agent]:
                break
            legal = np.flatnonzero(live.observe(agent)["action_mask"]).tolist()
            if policy == "no_drop":
                legal = [i for i in legal if i >= SECOND0] or [i for i in legal if i != 2]
            action = rng.choice(legal)
            live.step(action)
            engine.step(action)
            steps += 1
            assert live._core is not None
            reshuffles = max(reshuffles, int(live._core.st[core.H_RESHUF]))
        # the engine's match built from the compiled round's actions is the engine's own
        assert str(live.match.view(0).to_json()) == str(engine.match.view(0).to_json())
    # random throws: long hands run through the stock and rebuild it from the discards
    assert episodes >= 2 if policy != "no_drop" else reshuffles + episodes >= 2


def test_bad_actions_change_nothing() -> None:
    env = RummyEnv("indian13")
    env.reset(seed=5)
    agent = env.agent_selection
    before = env.observe(agent)
    from openrummy.errors import IllegalActionError

    for bad in (None, -1, 3, 4, 57, 109, 500):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        after = env.observe(agent)
        assert np.array_equal(before["observation"], after["observation"])
        assert np.array_equal(before["action_mask"], after["action_mask"])


def _counts(cards: list[Card]) -> Any:
    return np.bincount([c.index for c in cards], minlength=53).astype(np.int64)


def _compiled(cards: list[Card], rules: IndianRules, indicator: Card, finish: bool) -> bool:
    table = core.wild_table(rules)
    wild = table[indicator.index, 1:].copy()
    forms = core.forms_of(rules) if rules.is_v21 else 0
    return bool(
        core.could_group_counts(
            _counts(cards), wild, finish, rules.is_v21, rules.tunnela_is_meld, forms
        )
    )


def test_the_compiled_quick_test_is_the_python_one() -> None:
    """On seeded hands with runs, sets and wilds the compiled 13- and 10-card test answers
    as :mod:`openrummy.envs._declare` does (it has a node budget, never hit here)."""
    rng = random.Random(sample_seed() + 5)
    for name in ("indian13", "indian10"):
        rules = indian_rules(name)
        for _ in range(150):
            rest, indicator = biased_hand(rng, rules)
            wilds = rules.wilds(indicator)
            assert _compiled(rest, rules, indicator, False) == could_group(rest, wilds), rest
            extra = rng.choice(IndianGame.full_deck(rules))
            hand = [*rest, extra]
            assert _compiled(hand, rules, indicator, True) == could_declare(hand, wilds), hand


def test_the_compiled_quick_test_keeps_every_declarable_golden_hand() -> None:
    """Every golden hand the references found declarable (13, 10 and 21 cards, all the rule
    variants of the file) passes the compiled test, alone and with any finish card."""
    rng = random.Random(sample_seed() + 6)
    kept = {False: 0, True: 0}
    for row in golden("indian_hands.jsonl.gz"):
        if not row.get("declarable"):
            continue
        rules = indian_rules(row["game"], row["options"])
        indicator = Card.parse(row["indicator"])
        rest = parse_cards(row["hand"])
        assert _compiled(rest, rules, indicator, False), row
        finish = rng.choice(IndianGame.full_deck(rules))
        assert _compiled([*rest, finish], rules, indicator, True), row
        kept[rules.is_v21] += 1
    assert kept[False] > 100 and kept[True] > 5, kept


def test_the_21_card_test_rules_out_only_hands_without_a_declaration() -> None:
    rng = random.Random(sample_seed() + 7)
    rules = indian_rules("indian21")
    ruled_out = passed = 0
    for _ in range(40):
        rest, indicator = biased_hand(rng, rules)
        if _compiled(rest, rules, indicator, False):
            passed += 1
        else:
            ruled_out += 1
            assert not find_declaration(rest, rules, rules.wilds(indicator)).valid, rest
    assert ruled_out >= 10, (ruled_out, passed)


def test_other_formats_play_on_the_engine() -> None:
    env = RummyEnv("indian13", {"match.format": "POOL", "pool.threshold": 61}, unit="match")
    assert isinstance(env, IndianEnv) and env._core is None
    env.reset(seed=1)
    assert isinstance(env.match, IndianMatch)
