"""The vector env of primitive actions: game for game the trajectories of the Python primitive
env (actions, masks, observations, rewards, ends, the table after every commit), every
commit accepted by the engine, NEXT_STEP autoreset, seeding, spaces and bad actions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pytest
from gymnasium.utils.passive_env_checker import check_obs

from helpers import sample_seed
from openrummy.envs import _vector_core as core
from openrummy.envs.primitive import COMMIT, MeldBook, PrimitiveRummyEnv, plan
from openrummy.envs.vector import RummikubPrimitiveVectorEnv
from openrummy.errors import ConfigError, IllegalActionError
from openrummy.games.actions import ActionKind, Play
from openrummy.games.manipulation import ManipulationGame
from openrummy.rules import find_preset
from openrummy.rules.manipulation import ManipulationRules

OPEN_AT_ZERO: Mapping[str, object] = {"opening.threshold": 0}


def _game(env: PrimitiveRummyEnv) -> ManipulationGame:
    game = env.match.game
    assert isinstance(game, ManipulationGame)
    return game


@dataclass
class Run:
    """What :func:`_run` saw."""

    steps: int = 0
    commits: int = 0
    ends: int = 0
    truncations: int = 0
    plays: list[Play] = field(default_factory=list)


def _run(
    seeds: list[int],
    steps: int,
    *,
    options: Mapping[str, object] | None = None,
    solver_turns: float = 0.0,
    max_steps: int = 200_000,
    policy_seed: int = 0,
    preset: str = "rummikub",
) -> Run:
    """Play ``len(seeds)`` games in the vector env and one Python primitive env per game with
    the same seeded random masked policy (COMMIT taken when offered; at a share
    ``solver_turns`` of the turn starts, the exact solver's best play built card by card)
    and compare everything after every step."""
    n = len(seeds)
    vec = RummikubPrimitiveVectorEnv(n, preset, options, max_steps=max_steps)
    envs = [PrimitiveRummyEnv(preset, options, max_steps=max_steps) for _ in seeds]
    obs, info = vec.reset(seed=seeds)
    for env, seed in zip(envs, seeds, strict=True):
        env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    queues: list[list[int]] = [[] for _ in seeds]
    done = [False] * n
    seen = Run()
    for _ in range(steps):
        actions = np.zeros(n, np.int64)
        for i, env in enumerate(envs):
            if done[i]:
                continue  # the vector env deals again at this step; the action is ignored
            agent = env.agent_selection
            want = env.observe(agent)
            assert info["seat"][i] == env.possible_agents.index(agent)
            np.testing.assert_array_equal(obs["action_mask"][i], want["action_mask"])
            np.testing.assert_array_equal(obs["observation"][i], want["observation"])
            mask = want["action_mask"]
            allowed = np.flatnonzero(mask)
            game = _game(env)
            if (
                not queues[i]
                and env.bench.steps == 0
                and ActionKind.PLAY in game.legal_kinds()
                and rng.random() < solver_turns
            ):
                best = next(iter(game.candidate_plays(1)), None)
                if best is not None:
                    queues[i] = plan(env, best.table)
            if queues[i] and mask[queues[i][0]]:
                a = queues[i].pop(0)
            else:
                queues[i] = []
                a = COMMIT if mask[COMMIT] else int(rng.choice(allowed))
            actions[i] = a
            if a == COMMIT:
                play = vec.commit_play(i)
                assert play is not None
                trial = game.copy()
                assert trial.check_play(play) == [], "the engine accepts every offered commit"
                seen.plays.append(play)
        obs, rewards, terminated, truncated, info = vec.step(actions)
        for i, env in enumerate(envs):
            if done[i]:
                env.reset()
                done[i] = False
                assert not terminated[i] and not truncated[i] and rewards[i] == 0.0
                continue
            agent = env.agent_selection
            env.step(int(actions[i]))
            seen.steps += 1
            assert rewards[i] == env.rewards[agent]
            assert list(vec.seat_rewards[i]) == [env.rewards[a] for a in env.possible_agents]
            assert terminated[i] == env.terminations[agent]
            assert truncated[i] == env.truncations[agent]
            if actions[i] == COMMIT:
                seen.commits += 1
                after = _game(env)
                assert after.last_result is not None and after.last_result.accepted
                assert vec.table_of(i) == after.table
            if terminated[i] or truncated[i]:
                done[i] = True
                seen.ends += bool(terminated[i])
                seen.truncations += bool(truncated[i])
                want = env.observe(agent)
                np.testing.assert_array_equal(obs["action_mask"][i], want["action_mask"])
                np.testing.assert_array_equal(obs["observation"][i], want["observation"])
    return seen


def test_trajectories_equal_the_python_primitive_env_game_for_game() -> None:
    seed = sample_seed()
    seen = _run([seed, seed + 1, seed + 2], 250, options=OPEN_AT_ZERO, solver_turns=0.5)
    assert seen.steps == 750
    assert seen.commits >= 1, "the solver's plays were committed through the workbench"


def test_the_rummikub_rules_trajectories_equal_too() -> None:
    seed = sample_seed()
    seen = _run([seed, seed + 1], 200, solver_turns=0.3, policy_seed=seed)
    assert seen.steps == 400


def test_robbers_rummy_trajectories_equal_too() -> None:
    seed = sample_seed()
    seen = _run([seed, seed + 1], 150, solver_turns=0.5, policy_seed=seed, preset="robbers")
    assert seen.steps == 300


def test_a_truncated_game_is_dealt_again_at_the_next_step() -> None:
    seed = sample_seed()
    seen = _run([seed, seed + 7], 130, max_steps=60, policy_seed=1)
    assert seen.truncations == 4


@pytest.mark.slow
def test_whole_games_equal_the_python_primitive_env() -> None:
    seed = sample_seed()
    seen = _run(
        [seed + i for i in range(4)], 6000, options=OPEN_AT_ZERO, solver_turns=0.6, policy_seed=2
    )
    assert seen.ends >= 2 and seen.commits >= 20
    seen = _run([seed + 10, seed + 11], 4000, solver_turns=0.4, policy_seed=3)
    assert seen.steps + seen.ends + seen.truncations == 8000


def test_slot_interpretations_equal_the_meld_books() -> None:
    """The compiled interpretation of a slot (``interpret``) against ``MeldBook`` on random
    slot contents near melds: runs with gaps and jokers, sets, duplicates, mixed suits."""
    rules = find_preset("rummikub")
    assert isinstance(rules, ManipulationRules)
    book = MeldBook(rules)
    vec = RummikubPrimitiveVectorEnv(1)
    rng = np.random.default_rng(sample_seed())
    out = np.zeros(core.C, np.int8)
    contents: list[list[int]] = []
    for _ in range(3000):
        n = int(rng.integers(1, 15))
        suit = int(rng.integers(4))
        start = int(rng.integers(13))
        if rng.random() < 0.5:  # near a run
            kinds = [suit * 13 + (start + j) % 13 for j in range(n)]
        else:  # near a set
            kinds = [int(s) * 13 + start for s in rng.integers(0, 4, n)]
        for j in range(n):
            r = rng.random()
            if r < 0.2:
                kinds[j] = 52
            elif r < 0.25:
                kinds[j] = int(rng.integers(52))
        contents.append(kinds)
    contents += [[52, 52, k] for k in range(52)] + [[52, 52, 52]]
    for kinds in contents:
        row = np.bincount(kinds, minlength=core.K).astype(np.int8)
        got = core.interpret(row, len(kinds), vec.cfg, out)
        want = [c for c, _ in book.interpretations(tuple(sorted(kinds)))]
        assert list(out[:got]) == want, kinds


def test_reset_with_a_seed_deals_what_the_python_env_deals_and_repeats() -> None:
    vec = RummikubPrimitiveVectorEnv(3)
    first, _ = vec.reset(seed=40)
    check_obs(first, vec.observation_space, "reset")
    assert vec.observation_space.contains(first)
    env = PrimitiveRummyEnv("rummikub")
    for i in range(3):
        env.reset(seed=40 + i)
        want = env.observe(env.agent_selection)
        np.testing.assert_array_equal(first["observation"][i], want["observation"])
    rng = np.random.default_rng(0)
    actions: list[np.ndarray] = []
    trail: list[np.ndarray] = []
    for _ in range(30):
        actions.append(vec.sample_actions(rng))
        trail.append(vec.step(actions[-1])[0]["observation"])
    again, _ = vec.reset(seed=40)
    np.testing.assert_array_equal(again["observation"], first["observation"])
    for a, obs in zip(actions, trail, strict=True):
        step = vec.step(a)
        check_obs(step[0], vec.observation_space, "step")
        np.testing.assert_array_equal(step[0]["observation"], obs)


def test_a_masked_action_raises_and_changes_nothing() -> None:
    vec = RummikubPrimitiveVectorEnv(2)
    obs, _ = vec.reset(seed=3)
    bad = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    for actions in ([0, bad], [0, -1], [0, vec.n_actions], [0]):
        with pytest.raises((IllegalActionError, ConfigError)):
            vec.step(np.array(actions))
        np.testing.assert_array_equal(vec.mask, obs["action_mask"])
        np.testing.assert_array_equal(vec.obs, obs["observation"])
    with pytest.raises(IllegalActionError, match="game 1: action"):
        vec.step(np.array([0, bad]))


def test_the_sampler_draws_only_allowed_actions() -> None:
    vec = RummikubPrimitiveVectorEnv(4)
    vec.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(40):
        actions = vec.sample_actions(rng)
        assert all(vec.mask[i, a] for i, a in enumerate(actions))
        vec.step(actions)


@pytest.mark.parametrize(
    ("kw", "error"),
    [
        ({"num_envs": 0}, "num_envs"),
        ({"preset": "indian13"}, "manipulation"),
        ({"preset": "nope"}, "nope"),
        ({"options": {"meld.ace_mode": "WRAPAROUND"}}, "ace low only"),
    ],
)
def test_a_wrong_configuration_is_a_config_error(kw: dict[str, object], error: str) -> None:
    with pytest.raises(ConfigError, match=error):
        RummikubPrimitiveVectorEnv(**kw)  # type: ignore[arg-type]


def test_every_seed_form_is_accepted() -> None:
    vec = RummikubPrimitiveVectorEnv(2)
    a, _ = vec.reset(seed=[9, None])
    b, _ = vec.reset(seed=9)
    np.testing.assert_array_equal(a["observation"][0], b["observation"][0])
    with pytest.raises(ConfigError):
        vec.reset(seed=[1, 2, 3])


def test_two_threads_step_the_same_games_as_one() -> None:
    one = RummikubPrimitiveVectorEnv(5, threads=1)
    two = RummikubPrimitiveVectorEnv(5, threads=2)
    a, _ = one.reset(seed=21)
    b, _ = two.reset(seed=21)
    rng = np.random.default_rng(2)
    for _ in range(60):
        actions = one.sample_actions(rng)
        a = one.step(actions)[0]
        b = two.step(actions)[0]
        np.testing.assert_array_equal(a["observation"], b["observation"])
        np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
    two.close()
