"""Primitive actions of the manipulation games: every optimal solver play is reachable card by
card, COMMIT is masked unless the engine accepts the play, the mask is never all zero, the turn
cap holds, PettingZoo's API and seed tests pass, and observations hold no hidden cards."""

from __future__ import annotations

import functools
import hashlib
import random
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from helpers import cards, hidden_shuffled, melds, sample_seed
from openrummy.bots.registry import make_bot
from openrummy.envs import robbers_v0, rummikub_v0
from openrummy.envs.primitive import (
    COMMIT,
    DRAW,
    END,
    PASS,
    RESET,
    PrimitiveRummyEnv,
    plan,
)
from openrummy.envs.single import SingleAgentEnv
from openrummy.errors import ConfigError, IllegalActionError
from openrummy.games.actions import ActionKind, Play
from openrummy.games.manipulation import ManipulationGame
from openrummy.melds import Meld
from openrummy.solve.table import best_play

TURN_ENDING = (DRAW, PASS, END)


def _game(env: PrimitiveRummyEnv) -> ManipulationGame:
    game = env.match.game
    assert isinstance(game, ManipulationGame)
    return game


def _drive(env: PrimitiveRummyEnv, actions: list[int]) -> None:
    """Step ``actions``, each of which must be in the mask when it is taken."""
    for a in actions:
        mask = env.observe(env.agent_selection)["action_mask"]
        assert mask[a], f"{env.prim.describe(a)} is masked"
        env.step(a)


def _table(env: PrimitiveRummyEnv, table: tuple[Meld, ...] | list[Meld]) -> Counter[Meld]:
    mr = env.rules.meld_rules
    return Counter(m.normalized(mr) for m in table)


def _check_reachable(preset: str, seed: int, positions: int) -> int:
    """Play ``preset`` with greedy bots; at up to ``positions`` turns, build the solver's best
    play with primitive actions instead and check the engine accepts exactly that table."""
    env = PrimitiveRummyEnv(preset, players=2)
    env.reset(seed=seed)
    bots = [make_bot("greedy", env.rules, seed=seed + i) for i in range(2)]
    rng = random.Random(seed)
    checked = 0
    while not env.match.is_over and checked < positions:
        game = _game(env)
        seat = game.current
        if ActionKind.PLAY in game.legal_kinds() and rng.random() < 0.5:
            best = best_play(
                game.rules, game.table, game.hands[seat], opened=game.opened[seat], keep_melds=False
            )
            if best.count and not game.check_play(Play(seat, best.table)):
                want = _table(env, best.table)
                hand = Counter(game.hands[seat]) - (
                    Counter(c for m in best.table for c in m.cards)
                    - Counter(c for m in game.table for c in m.cards)
                )
                actions = plan(env, best.table)
                assert len(actions) <= env.bench.cap + 1, "the default cap never hides a play"
                _drive(env, actions)
                after = _game(env)
                assert after.last_result is not None and after.last_result.accepted
                assert _table(env, after.table) == want
                assert Counter(after.hands[seat]) == hand
                checked += 1
                continue
        env.play_bot(bots[env.match.current])
    return checked


@pytest.mark.parametrize(("preset", "positions"), [("rummikub", 8), ("robbers", 8)])
def test_every_optimal_solver_play_is_reachable_through_primitive_actions(
    preset: str, positions: int
) -> None:
    seed = sample_seed() % 10_000
    total = 0
    for k in range(6):  # a game that ends early leaves the rest to the next deal
        total += _check_reachable(preset, seed + k, positions - total)
        if total >= positions:
            break
    assert total >= positions


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["rummikub", "robbers", "robbers_s003", "vatikan_pagat"])
def test_every_optimal_solver_play_is_reachable_on_many_positions(preset: str) -> None:
    total = sum(_check_reachable(preset, seed, 40) for seed in range(8))
    assert total >= 60


def _position_env(
    preset: str, table: tuple[Meld, ...], hand: str, *, opened: bool = True
) -> PrimitiveRummyEnv:
    env = PrimitiveRummyEnv(preset, players=2)
    env.reset(seed=0)
    rules = _game(env).rules
    game = ManipulationGame.from_position(
        rules,
        hands=[cards(hand), cards("B2 B5" if rules.tiles else "2S 9D")],
        table=table,
        stock=cards("O3 O4 O5" if rules.tiles else "3H 4H 5H"),
        opened=[opened, True],
    )
    env.match.game = game
    env._reload()
    env.agent_selection = env.possible_agents[env.match.current]
    return env


def test_a_joker_left_in_the_pool_is_retrieved_to_the_hand_in_robbers_rummy() -> None:
    env = _position_env("robbers", melds("[5S JK=6S 7S]"), "6S 9H")
    target = melds("[5S 6S 7S]")
    actions = plan(env, target)
    _drive(env, actions)
    game = _game(env)
    assert game.last_result is not None and game.last_result.accepted
    assert _table(env, game.table) == _table(env, list(target))
    assert Counter(game.hands[0]) == Counter(cards("JK 9H"))
    assert game.retrieved[0] == 1


def test_commit_is_masked_until_the_table_is_valid_and_the_opening_is_met() -> None:
    env = _position_env("rummikub", melds("[R10 R11 R12]"), "K1 K2 K3 B9 O9 R9", opened=False)
    low = plan(env, (*melds("[R10 R11 R12]"), *melds("[K1 K2 K3]")))
    for a in low[:-1]:
        assert not env.mask()[COMMIT]
        env.step(a)
    assert not env.mask()[COMMIT], "6 points do not open"
    assert env.mask()[DRAW] and env.mask()[RESET]
    env.step(RESET)
    assert env.bench.steps == len(low)
    enough = plan(env, (*melds("[R10 R11 R12]"), *melds("[K1 K2 K3]", "[B9 O9 R9]")))
    for a in enough[:-1]:
        assert not env.mask()[COMMIT], "a table with a partial meld is never committed"
        env.step(a)
    assert env.mask()[COMMIT]
    env.step(COMMIT)
    game = _game(env)
    assert game.last_result is not None and game.last_result.accepted and game.opened[0]
    # before the opening the turn-start melds are frozen: they cannot be picked from
    env2 = _position_env("rummikub", melds("[R10 R11 R12]"), "R13 B9 O9 R9", opened=False)
    assert not env2.mask()[env2.prim.pick(0, _kind("R10"))]
    with pytest.raises(ValueError, match="not in the pool"):
        plan(env2, melds("[R10 R11 R12 R13 JK=R9]"))


def _kind(card: str) -> int:
    return cards(card)[0].index


@pytest.mark.parametrize("preset", ["rummikub", "robbers"])
def test_the_mask_is_never_all_zero_and_the_turn_cap_ends_the_workbench(preset: str) -> None:
    env = PrimitiveRummyEnv(preset, turn_cap=15)
    env.reset(seed=sample_seed() % 1000)
    rng = random.Random(sample_seed())
    longest = 0
    for _ in range(600):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        mask = env.observe(agent)["action_mask"]
        assert mask.any()
        if mask[COMMIT]:
            play = env.commit_play()
            assert play is not None and not _game(env).check_play(play)
        if env.bench.steps >= 15:
            allowed = set(np.flatnonzero(mask).tolist())
            assert allowed <= {*TURN_ENDING, COMMIT}, "at the cap only the turn may end"
        longest = max(longest, env.bench.steps)
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert longest == 15


def primitive_digest(preset: str, seed: int, steps: int) -> str:
    """A digest of a masked-random primitive trajectory (used in a second process too)."""
    env = PrimitiveRummyEnv(preset, turn_cap=40)
    env.reset(seed=seed)
    rng = random.Random(seed)
    trace = []
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        obs = env.observe(agent)
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        trace.append((agent, action, hashlib.sha256(obs["observation"].tobytes()).hexdigest()))
        env.step(action)
    return hashlib.sha256(
        repr((trace, sorted(env._cumulative_rewards.items()))).encode()
    ).hexdigest()


def test_the_same_seed_gives_the_same_primitive_trajectory_in_another_process() -> None:
    seed = sample_seed() % 1000
    here = primitive_digest("rummikub", seed, 300)
    code = (
        "import sys; sys.path.insert(0, 'tests');"
        "from envs.test_primitive import primitive_digest as d;"
        f"print(d('rummikub', {seed}, 300))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [here]
    assert primitive_digest("rummikub", seed + 1, 300) != here


def test_pettingzoo_api_and_seed_tests_in_primitive_mode() -> None:
    api_test(rummikub_v0.env(action_mode="primitive"), num_cycles=40)
    seed_test(functools.partial(robbers_v0.env, action_mode="primitive"), num_cycles=20)


@pytest.mark.parametrize("preset", ["rummikub", "robbers"])
def test_primitive_observations_and_masks_hold_no_hidden_cards(preset: str) -> None:
    rng = random.Random(sample_seed() + 7)
    for game_seed in range(3):
        env = PrimitiveRummyEnv(preset)
        env.reset(seed=game_seed)
        for _ in range(rng.randrange(0, 40)):
            mask = env.mask()
            env.step(rng.choice(np.flatnonzero(mask).tolist()))
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        before = {a: env.observe(a) for a in env.possible_agents}
        env.match.game = hidden_shuffled(_game(env), env.match.seats.index(seat), rng)
        env._base, env._mask_cache, env._commit = {}, None, None
        after = env.observe(agent)
        assert np.array_equal(before[agent]["observation"], after["observation"])
        assert np.array_equal(before[agent]["action_mask"], after["action_mask"])
        base = env.layout.size
        for other in env.possible_agents:
            if other != agent:
                assert not before[other]["observation"][base:].any(), "the workbench is private"
                assert not before[other]["action_mask"].any()


def test_a_masked_primitive_action_raises_and_changes_nothing() -> None:
    env = PrimitiveRummyEnv("rummikub")
    env.reset(seed=3)
    agent = env.agent_selection
    before = env.observe(agent)
    bad = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action {bad} is not allowed now"):
        env.step(bad)
    with pytest.raises(IllegalActionError):
        env.step(env.n_actions)
    after = env.observe(agent)
    assert np.array_equal(after["observation"], before["observation"])
    assert env.agent_selection == agent and env.bench.steps == 0
    with pytest.raises(ConfigError, match="action_mode"):
        rummikub_v0.env(action_mode="fancy")


def test_the_single_agent_env_in_primitive_mode_passes_gymnasium_checks() -> None:
    env = SingleAgentEnv(
        "robbers", opponents="simple", action_mode="primitive", invalid_action="penalty"
    )
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(200):
        assert obs["action_mask"].any()
        obs, _, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated or truncated:
            obs, _ = env.reset()
    with pytest.raises(ConfigError, match="action_mode"):
        SingleAgentEnv("rummikub", action_mode="fancy")


@pytest.mark.parametrize("preset", ["rummikub", "robbers"])
def test_the_incremental_mask_equals_the_mask_computed_from_scratch(preset: str) -> None:
    env = PrimitiveRummyEnv(preset)
    env.reset(seed=sample_seed() % 1000 + 1)
    rng = random.Random(sample_seed() + 2)
    b = env.bench
    start = b.layout.place0
    compared = 0
    for _ in range(400):
        mask = env.mask()
        if b.active:
            ref = np.zeros(env.n_actions, np.int8)
            b.fill_mask(ref)
            assert np.array_equal(ref[start:], mask[start:])
            compared += 1
        # favour picking from the table so that slots empty and refill
        picks = np.flatnonzero(mask[b.layout.pick0 : b.layout.assign0]) + b.layout.pick0
        choices = np.flatnonzero(mask).tolist()
        env.step(
            int(rng.choice(picks)) if len(picks) and rng.random() < 0.4 else rng.choice(choices)
        )
    assert compared > 300


def test_the_workbench_observation_is_the_pool_the_slots_and_their_interpretations() -> None:
    env = _position_env("robbers", melds("[5S JK=6S 7S]"), "6S 9H 9S 9D")
    b = env.bench
    base = env.layout.size
    for a in plan(env, melds("[5S 6S 7S]", "[9H 9S 9D JK=9C]"))[:-1]:
        env.step(a)
        obs = env.observe(env.agent_selection)["observation"][base:]
        k, s = 53, b.slots
        assert np.array_equal(obs[:k], b.pool)
        assert np.array_equal(obs[k : k + s * k], b.counts.ravel())
        assert np.array_equal(obs[k + s * k : -1], b.codes + 1)
        assert obs[-1] == b.steps
    assert b.codes[1] == 13 + 0b1111, "a set of all four suits"
    assert env.mask()[COMMIT]


def test_assign_states_which_card_an_ambiguous_joker_stands_for() -> None:
    env = _position_env("robbers", melds("[9H 9S 9D]"), "5S 6S JK 2C")
    for joker in ("JK=4S", "JK=7S"):
        target = (*melds("[9H 9S 9D]"), Meld.parse(f"[5S 6S {joker}]"))
        actions = plan(env, target)
        assigns = [a for a in actions if a >= env.prim.assign0]
        assert len(assigns) == (joker == "JK=7S"), "the first interpretation is the lowest run"
        if joker == "JK=4S":
            continue
        _drive(env, actions)
    game = _game(env)
    assert game.last_result is not None and game.last_result.accepted
    assert _table(env, game.table) == _table(env, list(target))
