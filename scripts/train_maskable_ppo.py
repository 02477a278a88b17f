"""Train sb3-contrib's MaskablePPO on Indian 13-card Rummy, then evaluate it (docs/envs.md).

A short example with a standard library, not run in CI. It needs the ``train`` extra
(PyTorch, pinned to the CPU build ``torch==2.13.0``, and sb3-contrib)::

    pip install -e '.[rl,train]'
    nice -n 10 .venv/bin/python scripts/train_maskable_ppo.py --cpu-minutes 3 --deals 60

The learner holds one seat of a two-player ``indian13`` round (a seat drawn per episode)
against our bots: first ``random``, then ``simple``, each for half of the CPU budget. It
sees the observation vector of :class:`~openrummy.envs.single.SingleAgentEnv` scaled by the
observation space's bounds, and the mask through ``action_masks()``; the reward is ±1 for
a won or lost round (``--reward win_loss``, the default) or the round's score difference
divided by 80, the largest Indian penalty (``--reward score``: it teaches the policy to drop
its hand at once, docs/envs.md). At the end
:func:`~openrummy.envs.evaluate.evaluate` plays the trained policy (deterministic, masked)
against ``random`` and ``simple`` over mirrored deals and prints the win rates with their
95 % intervals. :func:`make_env` builds the wrapped environment without PyTorch (a test
steps it, so the example cannot rot silently).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from openrummy.envs._spaces import Floats, Mask
from openrummy.envs.evaluate import Evaluation, Policy, evaluate
from openrummy.envs.single import SingleAgentEnv

PRESET = "indian13"
REWARD_SCALE = 1.0 / 80.0
"""Indian Rummy's penalties stop at 80 points: a round's score difference becomes ±1 at most."""

Vector = npt.NDArray[np.float32]


def observation_scale(env: SingleAgentEnv) -> Vector:
    """Per-entry divisors that bring the observation vector to about [0, 1]: the space's
    upper bounds, with unbounded parts (the standings) divided by 100."""
    high = np.asarray(observation_box(env).high, dtype=np.float64)
    scale = np.where(high > 1000.0, 100.0, np.maximum(high, 1.0))
    return scale.astype(np.float32)


def observation_box(env: SingleAgentEnv) -> gymnasium.spaces.Box:
    """The ``observation`` part of the environment's observation space."""
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Dict)
    box = space["observation"]
    assert isinstance(box, gymnasium.spaces.Box)
    return box


class MaskedFlatEnv(gymnasium.Wrapper[Vector, np.int64, dict[str, Floats | Mask], np.int64]):
    """The single-agent environment as MaskablePPO takes it: a ``Box`` observation (the
    scaled vector without the mask), the mask through :meth:`action_masks`, and the reward
    multiplied by ``reward_scale``."""

    def __init__(self, env: SingleAgentEnv, reward_scale: float = REWARD_SCALE) -> None:
        # gymnasium annotates Wrapper.__init__ with the wrapper's own types, not the inner env's.
        super().__init__(env)  # type: ignore[arg-type]
        self.single = env
        self.scale = observation_scale(env)
        self.reward_scale = reward_scale
        inner = observation_box(env)
        self.observation_space = gymnasium.spaces.Box(
            low=np.minimum(inner.low / self.scale, 0.0).astype(np.float32),
            high=np.maximum(inner.high / self.scale, 1.0).astype(np.float32),
            dtype=np.float32,
        )

    def flat(self, observation: Any) -> Vector:
        """The scaled observation vector of an observation dict."""
        return np.asarray(observation["observation"] / self.scale, dtype=np.float32)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        observation, info = self.env.reset(seed=seed, options=options)
        return self.flat(observation), info

    def step(self, action: np.int64) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        return (
            self.flat(observation),
            float(reward) * self.reward_scale,
            terminated,
            truncated,
            info,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The mask of the seat's legal actions (MaskablePPO's hook)."""
        return self.single.action_masks()


def make_env(
    opponents: str = "random", *, preset: str = PRESET, reward: str = "score"
) -> MaskedFlatEnv:
    """A two-player round of ``preset``, the learner's seat drawn per episode, against
    ``opponents``, wrapped for MaskablePPO (``reward``: ``"score"``, scaled to ±1, or
    ``"win_loss"``)."""
    env = SingleAgentEnv(preset, opponents=opponents, seat=None, reward=reward)
    return MaskedFlatEnv(env, REWARD_SCALE if reward == "score" else 1.0)


def as_policy(model: Any, scale: Vector) -> Policy:
    """A trained model as an evaluation :data:`~openrummy.envs.evaluate.Policy`:
    deterministic, masked."""

    def choose(observation: dict[str, Any]) -> int:
        vector = np.asarray(observation["observation"] / scale, dtype=np.float32)
        mask = np.asarray(observation["action_mask"], dtype=bool)
        action, _ = model.predict(vector, action_masks=mask, deterministic=True)
        return int(action)

    return choose


def train(
    cpu_minutes: float,
    seed: int,
    stages: Sequence[str] = ("random", "simple"),
    reward: str = "score",
) -> tuple[Any, list[tuple[str, int, float]]]:
    """Train one model through ``stages`` (an opponent each), each for an equal share of
    ``cpu_minutes`` of this process's CPU time. Returns the model and, per stage, the
    opponent, the environment steps and the CPU minutes spent."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)

    class CpuBudget(BaseCallback):  # type: ignore[misc]
        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.deadline = time.process_time() + seconds

        def _on_step(self) -> bool:
            return time.process_time() < self.deadline

    share = cpu_minutes * 60.0 / len(stages)
    model: Any = None
    log: list[tuple[str, int, float]] = []
    for opponent in stages:
        env = make_env(opponent, reward=reward)
        env.reset(seed=seed)
        if model is None:
            model = MaskablePPO(
                "MlpPolicy",
                env,
                n_steps=1024,
                batch_size=128,
                gamma=0.995,
                ent_coef=0.01,
                learning_rate=3e-4,
                seed=seed,
                device="cpu",
                verbose=0,
            )
        else:
            model.set_env(env)
        started, before = time.process_time(), model.num_timesteps
        model.learn(total_timesteps=10**9, callback=CpuBudget(share), reset_num_timesteps=False)
        minutes = (time.process_time() - started) / 60.0
        log.append((opponent, model.num_timesteps - before, minutes))
        print(
            f"trained against {opponent}: {log[-1][1]:,} steps in {minutes:.1f} CPU min", flush=True
        )
    return model, log


def report(name: str, result: Evaluation) -> None:
    print(
        f"vs {name}: win rate {result.win_rate:.1%} "
        f"(95 % interval {result.low:.1%}-{result.high:.1%}), "
        f"{result.deals} deals, {result.games} games, mean reward {result.mean_reward:+.1f}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cpu-minutes", type=float, default=10.0, help="training budget")
    parser.add_argument("--deals", type=int, default=100, help="evaluation deals per baseline")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--reward", choices=("score", "win_loss"), default="win_loss", help="the training reward"
    )
    parser.add_argument("--save", default="", help="save the model to this path (.zip)")
    args = parser.parse_args(argv)
    model, _ = train(args.cpu_minutes, args.seed, reward=args.reward)
    if args.save:
        model.save(args.save)
    policy = as_policy(model, observation_scale(make_env().single))
    for baseline in ("random", "simple"):
        started = time.process_time()
        result = evaluate(policy, baseline, preset=PRESET, deals=args.deals, seed=args.seed + 1)
        report(baseline, result)
        print(f"  (evaluation: {(time.process_time() - started) / 60.0:.1f} CPU min)")


if __name__ == "__main__":
    main()
