"""The training examples in scripts/ (MaskablePPO, RLlib) keep working without PyTorch or
RLlib: their environment helpers build and step the wrapped environments with the mask."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np

from openrummy.envs.evaluate import evaluate

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"scripts_{name}", SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_env_steps_with_its_mask() -> None:
    ppo = load_script("train_maskable_ppo")
    env = ppo.make_env("simple")
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Box) and space.shape == (346,)
    rng = random.Random(3)
    rewards = []
    for episode in range(2):
        obs, _ = env.reset(seed=episode)
        done, total = False, 0.0
        while not done:
            assert space.contains(obs), "the scaled vector stays inside the declared box"
            assert float(obs.max()) <= 1.0
            mask = env.action_masks()
            assert mask.dtype == np.bool_ and mask.shape == (110,) and mask.any()
            obs, reward, terminated, truncated, _ = env.step(
                rng.choice(np.flatnonzero(mask).tolist())
            )
            total += reward
            done = terminated or truncated
        rewards.append(total)
    assert all(-1.0 <= r <= 1.0 for r in rewards), "score difference scaled to [-1, 1]"
    assert any(r != 0.0 for r in rewards)


class FirstAllowed:
    """A model with MaskablePPO's ``predict`` signature: the first allowed action, and it
    checks the vector it gets is the scaled one."""

    def __init__(self, scale: np.ndarray[Any, Any]) -> None:
        self.scale = scale
        self.calls = 0

    def predict(
        self, vector: np.ndarray[Any, Any], action_masks: np.ndarray[Any, Any], deterministic: bool
    ) -> tuple[np.int64, None]:
        assert deterministic and action_masks.dtype == np.bool_
        assert vector.dtype == np.float32 and float(vector.max()) <= 1.0
        self.calls += 1
        return np.int64(np.flatnonzero(action_masks)[0]), None


def test_a_model_plays_through_evaluate_with_the_mask() -> None:
    ppo = load_script("train_maskable_ppo")
    scale = ppo.observation_scale(ppo.make_env().single)
    model = FirstAllowed(scale)
    result = evaluate(ppo.as_policy(model, scale), "random", preset="indian13", deals=1, seed=2)
    assert result.games == 2 and model.calls > 0


def test_rllib_env_gives_rllibs_observation_keys_and_steps_with_the_mask() -> None:
    rllib = load_script("rllib_example")
    env = rllib.make_env({"players": 2})
    env.reset(seed=4)
    space = env.observation_space("player_0")
    assert sorted(space.spaces) == ["action_mask", "observations"]
    rng = random.Random(4)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        assert space.contains(obs)
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.float32 and mask.any()
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
        steps += 1
    assert steps > 0 and not env.agents
