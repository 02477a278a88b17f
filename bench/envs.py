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
    .venv/bin/python bench/envs.py --vector-only  # the vector env's rows only

The vector rows step ``RummikubPrimitiveVectorEnv`` (many games in NumPy arrays, numba
kernels) with its own uniform random masked sampler: steps (one action in one game) per
wall second and per CPU second, for one thread, for two threads in one process, and
for two processes of one thread each (their rates added up while both run).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

import gymnasium
import numpy as np

from openrummy.envs import _indian_core
from openrummy.envs.aec import RummyEnv
from openrummy.envs.primitive import PrimitiveRummyEnv
from openrummy.envs.single import SingleAgentEnv
from openrummy.envs.vector import RummikubPrimitiveVectorEnv
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


def vector(num_envs: int, steps: int, threads: int) -> tuple[float, float]:
    """Steps per wall second and per CPU second of the vector env (``steps`` in all)."""
    envs = RummikubPrimitiveVectorEnv(num_envs, copy=False, threads=threads)
    rng = np.random.default_rng(0)
    envs.reset(seed=0)
    for _ in range(5):  # the first turns of every game, and the compiled kernels
        envs.step(envs.sample_actions(rng))
    rounds = max(1, steps // num_envs)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        envs.step(envs.sample_actions(rng))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return rounds * num_envs / wall, rounds * num_envs / cpu


def _vector_worker(args: tuple[int, int]) -> tuple[float, float]:
    return vector(args[0], args[1], 1)


def vector_processes(num_envs: int, steps: int, processes: int) -> float:
    """Steps per wall second of ``processes`` processes with a vector env each, added up."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(processes, mp_context=spawn) as pool:
        rates = list(pool.map(_vector_worker, [(num_envs, steps)] * processes))
    return sum(wall for wall, _ in rates)


def vector_rows(steps: int) -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"vector env, rummikub primitive, 2 players, {steps} steps each; load {load:.1f}")
    print(f"{'run':40} {'steps/wall s':>13} {'steps/CPU s':>12}")
    for n in (256, 1024):
        wall, cpu = vector(n, steps, 1)
        print(f"{f'{n} games, 1 thread':40} {wall:13.0f} {cpu:12.0f}")
        wall, cpu = vector(n, steps, 2)
        print(f"{f'{n} games, 2 threads':40} {wall:13.0f} {cpu:12.0f}")
        wall = vector_processes(n, steps, 2)
        print(f"{f'2 processes x {n} games, 1 thread each':40} {wall:13.0f} {'':>12}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average at the end: {load:.1f}")


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
    parser.add_argument("--vector-only", action="store_true", help="the vector env's rows only")
    args = parser.parse_args()
    steps = 300 if args.quick else 2000
    vector_steps = 50_000 if args.quick else 500_000
    if args.vector_only:
        vector_rows(vector_steps)
        return
    workers = os.cpu_count() or 1
    warm()
    _indian_core.warm()  # the Indian kernels, loaded from numba's cache outside the timing
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
    if not args.no_batched:
        vector_rows(vector_steps)


if __name__ == "__main__":
    main()
