"""The Gymnasium single-agent env (Gymnasium's checker, vector use, masked errors), the text
env for language-model agents, and the evaluation over mirrored deals."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from openrummy.envs.evaluate import evaluate, random_policy
from openrummy.envs.single import SingleAgentEnv
from openrummy.envs.text import TextEnv, scripted_agent
from openrummy.errors import ConfigError, IllegalActionError


@pytest.mark.parametrize("preset", ["indian13", "rummikub"])
def test_gymnasium_env_checker_passes(preset: str) -> None:
    check_env(SingleAgentEnv(preset, opponents="simple", invalid_action="penalty"))


def test_the_learner_moves_and_bots_play_the_other_seats() -> None:
    env = SingleAgentEnv("indian13", opponents=["random", "simple"], players=3, seat=None)
    rng = random.Random(7)
    seats = set()
    for episode in range(4):
        obs, info = env.reset(seed=episode)
        seats.add(info["seat"])
        done = False
        while not done:
            assert env.aec.match.current == info["seat"], "only the learner's turns surface"
            assert env.action_masks().any()
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
    assert len(seats) > 1, "seat=None draws the learner's seat"


def test_single_agent_bad_actions_raise_or_end_with_the_penalty() -> None:
    env = SingleAgentEnv("indian13", opponents="random")
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="outside the action mask"):
        env.step(bad)
    penal = SingleAgentEnv("indian13", opponents="random", invalid_action="penalty", penalty=-5)
    penal.reset(seed=1)
    _, reward, terminated, truncated, info = penal.step(bad)
    assert (reward, terminated, truncated, info["invalid_action"]) == (-5.0, True, False, True)
    for kwargs in ({"opponents": "nobody"}, {"opponents": ["random"] * 2}, {"seat": 2}):
        with pytest.raises(ConfigError):
            SingleAgentEnv("indian13", **kwargs)


def test_vector_env_steps_and_autoresets() -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: SingleAgentEnv("indian13", opponents="random") for _ in range(3)],
        autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
    )
    obs, _ = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    episodes = 0
    for _ in range(60):
        assert obs["action_mask"].any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, _, terminated, truncated, _ = envs.step(actions)
        episodes += int(np.sum(terminated | truncated))
    assert obs["observation"].shape[0] == 3 and episodes > 0
    envs.close()


def test_text_env_refuses_bad_text_with_the_typed_error_and_plays_a_game() -> None:
    env = TextEnv("indian13", players=2)
    env.reset(seed=4)
    agent = env.agent_selection
    first = env.observe(agent)
    assert first.startswith("position: indian13") and "legal: " in first
    for text, error in [
        ("fly away", "NotationError"),
        ("discard ZZ", "NotationError"),
        ("discard 9S", "IllegalActionError"),
        ("play [5H 6H 7H]", "IllegalActionError"),
    ]:
        env.step(text)
        assert env.agent_selection == agent and env.inner.steps == 0
        assert env.observe(agent).splitlines()[-1].startswith(f"error: {error}: ")
    other = next(a for a in env.possible_agents if a != agent)
    hand_line = env.observe(other).splitlines()[0]
    mine = env.inner.match.game.hands[env.possible_agents.index(agent)]
    assert " ".join(map(str, mine)) not in hand_line, "a seat never sees another hand"
    env.step("draw")
    assert "error" not in env.observe(agent) and env.inner.steps == 1
    for _agent in env.agent_iter(400):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else scripted_agent(obs))
    assert env.inner.match.is_over


def test_evaluate_mirrors_deals_and_reports_a_wilson_interval() -> None:
    strong = evaluate("simple", "random", preset="indian13", deals=4, seed=2)
    weak = evaluate(random_policy(2), "simple", preset="indian13", deals=4, seed=2)
    assert strong.games == weak.games == 8
    for e in (strong, weak):
        assert 0.0 <= e.low <= e.win_rate <= e.high <= 1.0
    assert strong.win_rate > weak.win_rate
    with pytest.raises(ConfigError):
        evaluate("simple", deals=0)


def test_gymnasium_ids_make_the_single_agent_envs() -> None:
    from openrummy.envs import GYMNASIUM_IDS

    assert set(GYMNASIUM_IDS) <= set(gymnasium.registry)
    env = gymnasium.make("openrummy/Indian10-v0", opponents="simple", seat=1)
    obs, info = env.reset(seed=2)
    inner = env.unwrapped
    assert isinstance(inner, SingleAgentEnv)
    assert info["seat"] == 1 and inner.aec.rules.name == "indian10"
    action = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(action)
    env.close()
