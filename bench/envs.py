"""Benchmark of the reinforcement-learning environments: steps per second with a random
masked policy, unbatched (one core) and batched (Gymnasium's AsyncVectorEnv on every core),
and as anchors in the same run OpenSpiel's and RLCard's gin rummy when they are installed
(``pip install open_spiel rlcard``; they are not dependencies of the project).

A step is one action of the engine (every seat's, the bots' in the batched single-agent
runs too). Each step of the unbatched runs reads the observation and the mask of the seat
to move, as a learner would.

Targets: Indian 13-card unbatched at least OpenSpiel gin_rummy's decisions/s;
manipulation macro actions at least 1k steps/s (also measured without the solver's play,
``solver_play=False``); Rummikub primitive actions at least 10k
steps/s unbatched (a primitive step is one workbench action or one engine action; the
primitive runs take ten times as many steps).

    .venv/bin/python bench/envs.py            # full run
    .venv/bin/python bench/envs.py --quick    # fewer steps
    .venv/bin/python bench/envs.py --no-batched   # one core only
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

import gymnasium
import numpy as np

from openrummy.envs.aec import RummyEnv
from openrummy.envs.primitive import PrimitiveRummyEnv
from openrummy.envs.single import SingleAgentEnv
from openrummy.solve._fast import warm

FAMILIES: list[tuple[str, str, str]] = [
    ("indian13, 2 players", "indian13", "macro"),
    ("indian10, 2 players", "indian10", "macro"),
    ("indian21, 2 players", "indian21", "macro"),
    ("rummikub macro, 2 players", "rummikub", "macro"),
    ("robbers macro, 2 players", "robbers", "macro"),
    ("rummikub macro, no solver play", "rummikub", "small"),
    ("robbers macro, no solver play", "robbers", "small"),
    ("rummikub primitive, 2 players", "rummikub", "primitive"),
    ("robbers primitive, 2 players", "robbers", "primitive"),
]


def unbatched(preset: str, steps: int, mode: str = "macro") -> float:
    """Env steps per CPU second: observe + mask + step with a random masked policy
    (``mode="small"``: macro actions without the solver's play)."""
    env = (
        PrimitiveRummyEnv(preset)
        if mode == "primitive"
        else RummyEnv(preset, solver_play=mode != "small")
    )
    rng = random.Random(0)
    done = 0
    episode = 0
    start = time.process_time()
    while done < steps:
        env.reset(seed=episode)
        episode += 1
        while done < steps:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            mask = env.observe(agent)["action_mask"]
            env.step(rng.choice(np.flatnonzero(mask).tolist()))
            done += 1
    return done / (time.process_time() - start)


def batched(preset: str, steps: int, workers: int, mode: str = "macro") -> float:
    """Engine steps per wall second over ``workers`` processes (AsyncVectorEnv), the learner
    and its random-bot opponent both counted (primitive: the learner's workbench actions
    too)."""
    fns: list[Callable[[], gymnasium.Env[dict[str, np.ndarray], np.int64]]] = [
        lambda: SingleAgentEnv(
            preset,
            opponents="random",
            action_mode="primitive" if mode == "primitive" else "macro",
            solver_play=mode != "small",
        )
        for _ in range(workers)
    ]
    envs = gymnasium.vector.AsyncVectorEnv(
        fns, autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP
    )
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=0)
    first = sum(envs.get_attr("engine_steps"))
    counted = 0
    start = time.perf_counter()
    while counted < steps:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, *_ = envs.step(actions)
        counted = sum(envs.get_attr("engine_steps")) - first
    elapsed = time.perf_counter() - start
    envs.close()
    return counted / elapsed


def openspiel_gin(steps: int) -> tuple[float, float] | str:
    try:
        import pyspiel
    except ImportError as e:
        return f"not installed ({e})"
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(0)
    out = []
    for read_obs in (True, False):
        done = 0
        start = time.process_time()
        while done < steps:
            state = game.new_initial_state()
            while not state.is_terminal() and done < steps:
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choice(outcomes)[0])
                    continue
                if read_obs:
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                done += 1
        out.append(done / (time.process_time() - start))
    return out[0], out[1]


def rlcard_gin(steps: int) -> float | str:
    try:
        import rlcard
    except ImportError as e:
        return f"not installed ({e})"
    env = rlcard.make("gin-rummy", config={"seed": 0})
    rng = random.Random(0)
    done = 0
    start = time.process_time()
    while done < steps:
        state, _ = env.reset()
        while not env.is_over() and done < steps:
            action = rng.choice(list(state["legal_actions"]))
            state, _ = env.step(action)
            done += 1
    return done / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer steps")
    parser.add_argument("--no-batched", action="store_true", help="the unbatched runs only")
    args = parser.parse_args()
    steps = 300 if args.quick else 2000
    workers = os.cpu_count() or 1
    warm()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"random masked policy, {steps} steps each (primitive: {steps * 10});")
    print(f"batched: {workers} processes; load average at the start: {load:.1f}")
    print(f"{'environment':32} {'unbatched/s':>12} {'batched/s':>10}")
    rates: dict[str, float] = {}
    for label, preset, mode in FAMILIES:
        n = steps * 10 if mode == "primitive" else steps
        rates[preset if mode == "macro" else f"{preset}/{mode}"] = rate = unbatched(preset, n, mode)
        fast = "-" if args.no_batched else f"{batched(preset, n, workers, mode):.0f}"
        print(f"{label:32} {rate:12.0f} {fast:>10}")
    gin = openspiel_gin(steps * 5)
    if isinstance(gin, str):
        print(f"OpenSpiel gin_rummy: {gin}")
    else:
        print(f"{'OpenSpiel gin_rummy (obs tensor)':32} {gin[0]:12.0f}")
        print(f"{'OpenSpiel gin_rummy (no obs)':32} {gin[1]:12.0f}")
        print(f"indian13 / OpenSpiel gin_rummy (obs tensor): {rates['indian13'] / gin[0]:.2f}x")
    rl = rlcard_gin(steps * 5)
    if isinstance(rl, str):
        print(f"RLCard gin-rummy: {rl}")
    else:
        print(f"{'RLCard gin-rummy':32} {rl:12.0f}")
        print(f"indian13 / RLCard gin-rummy: {rates['indian13'] / rl:.2f}x")


if __name__ == "__main__":
    main()
