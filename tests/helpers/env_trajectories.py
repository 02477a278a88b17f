"""Seeded trajectories of the Indian Rummy environments, as digests (the golden
``tests/data/env_trajectories.json`` and its test).

A trajectory plays ``steps`` actions of :class:`~openrummy.envs.aec.RummyEnv` over as many
episodes as it takes (episode ``k`` reset with seed ``seed + k``), each chosen from the mask
of the seat to move by a seeded policy: ``uniform`` (any masked action, the benchmark's) or
``no_drop`` (a declaration when one is offered, never a drop when anything else is: longer
hands). Each part is digested on its own so that a mismatch says what changed: the actions,
every step's rewards, the masks, the acting seat's observations, and at each episode's end
every seat's observation.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, Final

import numpy as np

from openrummy.envs._spaces import SECOND0
from openrummy.envs.aec import RummyEnv

CASES: Final[dict[str, dict[str, Any]]] = {
    "indian13 uniform": {"preset": "indian13", "policy": "uniform", "seed": 0, "steps": 400},
    "indian13 no_drop 3 players": {
        "preset": "indian13",
        "policy": "no_drop",
        "seed": 1,
        "steps": 300,
        "players": 3,
    },
    "indian13 pool match": {
        "preset": "indian13",
        "policy": "no_drop",
        "seed": 2,
        "steps": 300,
        "unit": "match",
        "options": {"match.format": "POOL", "pool.threshold": 101},
    },
    "indian10 uniform": {"preset": "indian10", "policy": "uniform", "seed": 3, "steps": 400},
    "indian10 no_drop": {"preset": "indian10", "policy": "no_drop", "seed": 4, "steps": 300},
    "indian21 uniform": {"preset": "indian21", "policy": "uniform", "seed": 5, "steps": 60},
    "indian21 no_drop": {"preset": "indian21", "policy": "no_drop", "seed": 6, "steps": 60},
}
"""The golden cases by name: preset, policy, seed, steps and the environment's keywords."""

DROP: Final = 2


def _choose(mask: np.ndarray[Any, Any], policy: str, rng: random.Random) -> int:
    legal: list[int] = np.flatnonzero(mask).tolist()
    if policy == "no_drop":
        declares = [i for i in legal if i >= SECOND0]
        if declares:
            return rng.choice(declares)
        legal = [i for i in legal if i != DROP] or legal
    return rng.choice(legal)


def trajectory(case: dict[str, Any]) -> dict[str, Any]:
    """The digests of one case's trajectory (see the module docstring)."""
    env = RummyEnv(
        case["preset"],
        case.get("options"),
        players=case.get("players", 2),
        unit=case.get("unit", "round"),
    )
    rng = random.Random(case["seed"])
    parts = {name: hashlib.sha256() for name in ("actions", "rewards", "masks", "observations")}
    ends = hashlib.sha256()
    done = 0
    episodes = 0
    while done < case["steps"]:
        env.reset(seed=case["seed"] + episodes)
        episodes += 1
        while done < case["steps"]:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            obs = env.observe(agent)
            mask = obs["action_mask"]
            action = _choose(mask, case["policy"], rng)
            parts["actions"].update(f"{agent}:{action};".encode())
            parts["masks"].update(mask.tobytes())
            parts["observations"].update(obs["observation"].tobytes())
            env.step(action)
            parts["rewards"].update(repr(sorted(env.rewards.items())).encode())
            done += 1
        for a in env.possible_agents:
            end = env.observe(a)
            ends.update(end["observation"].tobytes() + end["action_mask"].tobytes())
    out: dict[str, Any] = {name: h.hexdigest()[:24] for name, h in parts.items()}
    out["episode_ends"] = ends.hexdigest()[:24]
    out["episodes"] = episodes
    return out
