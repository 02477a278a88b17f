"""Ray RLlib: ``indian13_v0`` under RLlib's ``PettingZooEnv``, a few PPO iterations locally.

An example, not run in CI (docs/envs.md, "Ray RLlib"). It needs Ray's RLlib and PyTorch::

    pip install -e '.[rl,rllib]'
    nice -n 10 .venv/bin/python scripts/rllib_example.py --iterations 3

Both seats share one policy (self-play). RLlib's PPO does not read a mask on its own: the
policy is RLlib's action-masking module (``ActionMaskingTorchRLModule`` from RLlib's
examples), which takes the observation as ``{"observations", "action_mask"}``;
:class:`RLlibObservations` renames our ``"observation"`` key to that and gives the mask as
floats. :func:`make_env` builds that PettingZoo environment without Ray (a test steps it).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from pettingzoo.utils.wrappers import BaseWrapper

from openrummy.envs import indian13_v0
from openrummy.envs.aec import RummyEnv

ENV_NAME = "openrummy_indian13"
POLICY = "shared"


class RLlibObservations(BaseWrapper):  # type: ignore[misc]
    """Observations as RLlib's action-masking module reads them:
    ``{"observations": float32 vector, "action_mask": float32 0/1}``."""

    def __init__(self, env: RummyEnv) -> None:
        super().__init__(env)
        inner = env.observation_space(env.possible_agents[0])
        mask = inner["action_mask"]
        self._space = gymnasium.spaces.Dict(
            {
                "observations": inner["observation"],
                "action_mask": gymnasium.spaces.Box(0.0, 1.0, mask.shape, dtype=np.float32),
            }
        )

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self._space

    def observe(self, agent: str) -> dict[str, Any] | None:
        observation = self.env.observe(agent)
        if observation is None:
            return None
        return {
            "observations": observation["observation"],
            "action_mask": observation["action_mask"].astype(np.float32),
        }


def make_env(config: Mapping[str, Any] | None = None) -> RLlibObservations:
    """``indian13_v0.env(**config)`` with RLlib's observation keys."""
    return RLlibObservations(indian13_v0.env(**dict(config or {})))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--batch", type=int, default=2000, help="env steps per iteration")
    args = parser.parse_args(argv)

    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    register_env(ENV_NAME, lambda config: PettingZooEnv(make_env(config)))
    config = (
        PPOConfig()
        # RLlib's pre-check steps unmasked random actions, which our environments refuse.
        .environment(ENV_NAME, env_config={"players": 2}, disable_env_checking=True)
        .env_runners(num_env_runners=0)
        .learners(num_learners=0)
        .multi_agent(
            policies={POLICY},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: POLICY,
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    POLICY: RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [128, 128]},
                    )
                }
            )
        )
        .training(train_batch_size_per_learner=args.batch, minibatch_size=256, num_epochs=4)
    )
    algo = config.build_algo()
    for iteration in range(1, args.iterations + 1):
        result = algo.train()
        runners = result.get("env_runners", {})
        learner = result.get("learners", {}).get(POLICY, {})
        print(
            f"iteration {iteration}: "
            f"{int(runners.get('num_env_steps_sampled_lifetime', 0)):,} env steps, "
            f"{int(runners.get('num_episodes_lifetime', 0)):,} episodes, "
            f"mean episode length {runners.get('episode_len_mean', float('nan')):.1f}, "
            f"policy entropy {learner.get('entropy', float('nan')):.3f}",
            flush=True,
        )
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
