"""The PettingZoo environments: PettingZoo's own API and seed tests, determinism (also across
processes), no hidden information in observations, masks that are exactly the legal menu,
bad actions and bad configurations as precise errors."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
from collections.abc import Callable
from types import ModuleType

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from helpers import hidden_shuffled, sample_seed
from openrummy.envs import (
    RummyEnv,
    indian10_v0,
    indian13_v0,
    indian21_v0,
    robbers_v0,
    rummikub_v0,
)
from openrummy.envs._spaces import CARD_KINDS, DISCARD0, SECOND0
from openrummy.errors import ConfigError, IllegalActionError
from openrummy.games.actions import ActionKind, Declare, Discard, Play
from openrummy.games.indian import IndianGame
from openrummy.games.manipulation import ManipulationGame
from openrummy.solve.table import best_play

MODULES = [rummikub_v0, robbers_v0, indian13_v0, indian10_v0, indian21_v0]


def _name(module: ModuleType) -> str:
    return module.__name__.rsplit(".", 1)[-1]


@pytest.mark.parametrize("module", MODULES, ids=_name)
def test_pettingzoo_api_and_seed_tests(module: ModuleType) -> None:
    cycles = 6 if module.__name__.endswith(("rummikub_v0", "robbers_v0")) else 25
    api_test(module.env(), num_cycles=cycles)
    seed_test(module.env, num_cycles=cycles // 3)


@pytest.mark.slow
@pytest.mark.parametrize("module", MODULES, ids=_name)
def test_pettingzoo_api_test_over_long_runs(module: ModuleType) -> None:
    api_test(module.env(players=3), num_cycles=400)
    seed_test(module.env, num_cycles=100)


def _masked_random_steps(env: RummyEnv, rng: random.Random, steps: int) -> list[str]:
    """Play ``steps`` masked random actions (fewer if the episode ends); returns a trace."""
    trace: list[str] = []
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        obs = env.observe(agent)
        mask = obs["action_mask"]
        assert mask.any(), "the acting seat's mask is never all zero"
        action = rng.choice(np.flatnonzero(mask).tolist())
        trace.append(f"{agent}:{action}:{hashlib.sha256(obs['observation'].tobytes()).hexdigest()}")
        env.step(action)
    return trace


def trajectory_digest(preset: str, seed: int, steps: int) -> str:
    """A digest of a masked-random trajectory (used in a second process too)."""
    env = RummyEnv(preset)
    env.reset(seed=seed)
    trace = _masked_random_steps(env, random.Random(seed), steps)
    rewards = sorted(env._cumulative_rewards.items())
    return hashlib.sha256(repr((trace, rewards)).encode()).hexdigest()


def test_same_seed_same_trajectory_in_this_and_another_process() -> None:
    seed = sample_seed() % 1000
    here = [trajectory_digest("indian13", seed, 40), trajectory_digest("rummikub", seed, 12)]
    assert here[0] == trajectory_digest("indian13", seed, 40)
    code = (
        "import sys; sys.path.insert(0, 'tests');"
        "from envs.test_aec import trajectory_digest as t;"
        f"print(t('indian13', {seed}, 40)); print(t('rummikub', {seed}, 12))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == here
    assert trajectory_digest("indian13", seed + 1, 40) != here[0]


@pytest.mark.parametrize("preset", ["rummikub", "robbers", "indian13", "indian21"])
def test_observation_and_mask_do_not_change_when_hidden_cards_do(preset: str) -> None:
    """Reshuffling what the seat to move cannot see (other hands, the stock) changes neither
    its observation nor its mask."""
    rng = random.Random(sample_seed())
    for game_seed in range(3):
        env = RummyEnv(preset)
        env.reset(seed=game_seed)
        _masked_random_steps(env, rng, rng.randrange(0, 12))
        if env.match.is_over:
            continue
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        before = env.observe(agent)
        env.match.game = hidden_shuffled(env.match.game, env.match.seats.index(seat), rng)
        env._menu = None
        after = env.observe(agent)
        assert np.array_equal(before["observation"], after["observation"])
        assert np.array_equal(before["action_mask"], after["action_mask"])


@pytest.mark.parametrize("preset", ["rummikub", "robbers", "indian13"])
def test_the_mask_is_the_legal_menu_and_every_masked_action_is_accepted(preset: str) -> None:
    rng = random.Random(sample_seed() + 1)
    env = RummyEnv(preset, plays=6)
    env.reset(seed=rng.randrange(10**6))
    for _ in range(25 if preset == "indian13" else 14):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        mask = env.observe(agent)["action_mask"]
        menu = env.action_menu().actions
        assert set(np.flatnonzero(mask).tolist()) == set(menu)
        game = env.match.game
        for i, action in menu.items():
            assert env.match.legal_actions().__contains__(action) or isinstance(action, Play)
            assert env.match.is_legal(action)
            if isinstance(action, Discard):
                assert i == DISCARD0 + action.card.index
            if isinstance(action, Declare):
                assert i == SECOND0 + action.finish.index
            if isinstance(action, Play):
                assert isinstance(game, ManipulationGame)
                assert not game.check_play(action), "a macro play never fails the commit"
        if isinstance(game, ManipulationGame) and ActionKind.PLAY in game.legal_kinds():
            seat = game.current
            best = best_play(
                game.rules, game.table, game.hands[seat], opened=game.opened[seat], keep_melds=False
            )
            if best.count and not game.check_play(Play(seat, best.table)):
                assert menu[SECOND0] == Play(seat, best.table), "the solver's play comes first"
        if isinstance(game, IndianGame):
            hand = {c.index for c in game.hands[game.current]}
            discards = {i - DISCARD0 for i in menu if DISCARD0 <= i < SECOND0}
            assert discards <= hand
        env.step(rng.choice(sorted(menu)))


def test_an_action_outside_the_mask_raises_and_changes_nothing() -> None:
    env = RummyEnv("indian13")
    env.reset(seed=5)
    agent = env.agent_selection
    before = env.observe(agent)
    history = len(env.match.history)
    bad = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action {bad} is not allowed now"):
        env.step(bad)
    with pytest.raises(IllegalActionError):
        env.step(None)
    with pytest.raises(IllegalActionError):
        env.step(10**6)
    assert len(env.match.history) == history and env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["observation"], before["observation"])


@pytest.mark.parametrize(
    ("factory", "kwargs", "message"),
    [
        (rummikub_v0.env, {"preset": "rumikub"}, "unknown game"),
        (robbers_v0.env, {"preset": "indian13"}, "indian game"),
        (indian13_v0.env, {"preset": "rummikub"}, "manipulation game"),
        (indian13_v0.env, {"options": {"opening.threshold": 3}}, "unknown option"),
        (rummikub_v0.env, {"options": {"opening.threshold": "many"}}, "opening.threshold"),
        (indian13_v0.env, {"players": 9}, "players"),
        (indian13_v0.env, {"unit": "season"}, "unit"),
        (indian13_v0.env, {"reward": "joy"}, "reward"),
    ],
)
def test_a_wrong_preset_or_option_is_a_config_error_at_env(
    factory: Callable[..., object], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        factory(**kwargs)


def test_rewards_are_the_score_difference_and_a_turn_cap_truncates_without_pay() -> None:
    env = RummyEnv("indian13", players=3)
    env.reset(seed=11)
    rng = random.Random(3)
    while not any(env.terminations.values()):
        _masked_random_steps(env, rng, 1)
    outcome = env.match.outcome
    assert outcome is not None
    totals = outcome.totals  # penalty points, lower is better
    got = {a: env._cumulative_rewards[a] for a in env.agents}
    for i, a in enumerate(env.possible_agents):
        others = [totals[j] for j in range(3) if j != i]
        assert got[a] == pytest.approx(sum(others) / 2 - totals[i])
    assert sum(got.values()) == pytest.approx(0.0)

    capped = RummyEnv("rummikub", max_steps=3)
    capped.reset(seed=2)
    _masked_random_steps(capped, rng, 10)
    assert capped.steps == 3 and all(capped.truncations.values())
    assert not any(capped.terminations.values())
    assert all(r == 0.0 for r in capped._cumulative_rewards.values())


@pytest.mark.parametrize("preset", ["robbers", "indian13"])
def test_the_card_vectors_add_up_to_the_deck(preset: str) -> None:
    env = RummyEnv(preset)
    env.reset(seed=4)
    rng = random.Random(4)
    sl = env.layout.slices()
    for _ in range(30):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        obs = env.observe(agent)["observation"]
        known = obs[sl["hand"]] + obs[sl["table"]] + obs[sl["discard"]] + obs[sl["unseen"]]
        assert np.array_equal(known, env._deck)
        assert obs[sl["hand"]].sum() == obs[sl["hand_sizes"]][0]
        assert obs[sl["to_move"]][0] == 1.0
        assert len(obs) == env.layout.size and obs.shape[0] > 5 * CARD_KINDS
        _masked_random_steps(env, rng, 1)


def test_win_loss_reward() -> None:
    env = RummyEnv("indian13", reward="win_loss", players=3)
    env.reset(seed=4)
    rng = random.Random(4)
    while not any(env.terminations.values()):
        _masked_random_steps(env, rng, 1)
    outcome = env.match.outcome
    assert outcome is not None
    for i, a in enumerate(env.possible_agents):
        assert env._cumulative_rewards[a] == (1.0 if i in outcome.winners else -1.0)


def test_a_match_episode_pays_each_round_and_observes_the_standings() -> None:
    env = RummyEnv(
        "indian13", {"match.format": "POOL", "pool.threshold": 101}, unit="match", players=2
    )
    env.reset(seed=1)
    rng = random.Random(1)
    while not env.match.rounds:
        _masked_random_steps(env, rng, 1)
    assert not env.match.is_over and not any(env.terminations.values())
    totals = env.match.totals
    sl = env.layout.slices()
    for seat, agent in enumerate(env.possible_agents):
        observed = env.observe(agent)["observation"][sl["standings"]]
        assert observed.tolist() == [totals[seat], totals[1 - seat]]
        assert env._cumulative_rewards[agent] == totals[1 - seat] - totals[seat]
    assert env.render() is None
    ansi = RummyEnv("indian13", render_mode="ansi")
    ansi.reset(seed=1)
    assert (ansi.render() or "").startswith("indian13")


@pytest.mark.parametrize("preset", ["indian13", "indian10"])
def test_the_declaration_shortcut_gives_the_engines_full_menu(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one least-deadwood search that rules declarations out leaves the menu the engine's
    listing gives (with its declaration search for every finish card)."""
    from openrummy.envs import _spaces

    rng = random.Random(sample_seed() + 2)
    checked = 0
    for game_seed in range(4):
        env = RummyEnv(preset)
        env.reset(seed=rng.randrange(10**6) + game_seed)
        for _ in range(30):
            if env.match.is_over:
                break
            quick = {k: str(v) for k, v in _spaces.menu(env.match, 8).actions.items()}
            with monkeypatch.context() as m:
                m.setattr(_spaces, "_may_declare", lambda game: True)
                full = {k: str(v) for k, v in _spaces.menu(env.match, 8).actions.items()}
            assert quick == full
            checked += 1
            choices = [k for k in full if k != 2] or list(full)  # no drops: longer hands
            env.play(env.action_menu().actions[rng.choice(choices)])
    assert checked > 60
