"""Benchmark of whole games: games per second per core, and the expert's time per decision.

For each setting of the bot ladder (robbers 4 players, rummikub 2, indian13 points 2, pool
101 4) it plays seeded single rounds (one hand; a whole match for pool 101) between
``greedy`` bots on one core, and, as the named anchor measured in the same run, between
``simple`` bots (the rule-following bot that never rearranges), then prints the ratio.
It then times the ``expert`` bot's decisions in a few games against greedy players.

Target (issue 5): Rummikub greedy against greedy at least 20 games per second per core.

    .venv/bin/python bench/games.py            # full run
    .venv/bin/python bench/games.py --quick    # fewer games
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from openrummy.bots import make_bot
from openrummy.games.families import new_match
from openrummy.rules import find_preset
from openrummy.sim import TournamentSpec, run_game
from openrummy.solve._fast import warm

SETTINGS: list[tuple[str, str, dict[str, Any], int, str]] = [
    ("robbers, 4 players", "robbers", {}, 4, "round"),
    ("rummikub, 2 players", "rummikub", {}, 2, "round"),
    ("indian13 points, 2 players", "indian13", {}, 2, "round"),
    (
        "indian13 pool 101, 4 players",
        "indian13",
        {"match.format": "POOL", "pool.threshold": 101},
        4,
        "match",
    ),
]


def games_per_second(
    game: str, options: dict[str, Any], players: int, unit: str, bot: str, games: int
) -> tuple[float, int]:
    spec = TournamentSpec(
        game=game, bots=(bot,) * players, deals=games, seed=11, options=options, unit=unit
    )
    start = time.process_time()
    actions = 0
    errors = 0
    for deal in range(games):
        r = run_game(spec, deal, 0)
        actions += r.actions
        errors += r.error is not None
    elapsed = time.process_time() - start
    if errors:
        print(f"  ({errors} of {games} {bot} games failed)")
    return games / elapsed, actions


def expert_decisions(
    game: str, options: dict[str, Any], players: int, decisions: int
) -> list[float]:
    """CPU seconds per expert decision, in games against greedy players."""
    rules = find_preset(game, options)
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        match = new_match(rules, players, seed=f"expert/{seed}")
        bots = [make_bot("expert" if s == 0 else "greedy", rules, seed) for s in range(players)]
        steps = 0
        while not match.is_over and len(times) < decisions and steps < 400:
            seat = match.current
            view = match.view(seat)
            start = time.process_time()
            action = bots[seat].choose(view)
            if seat == 0:
                times.append(time.process_time() - start)
            match.apply(action)
            steps += 1
        seed += 1
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    args = parser.parse_args()
    warm()  # load the compiled solver core before any clock starts
    n = 4 if args.quick else 20
    print("games per second per core (CPU time of this process), greedy against greedy")
    print(f"{'setting':32} {'games':>5} {'greedy g/s':>11} {'anchor: simple g/s':>19} {'ratio':>7}")
    for label, game, options, players, unit in SETTINGS:
        g_rate, _ = games_per_second(game, options, players, unit, "greedy", n)
        s_rate, _ = games_per_second(game, options, players, unit, "simple", n)
        print(f"{label:32} {n:5d} {g_rate:11.2f} {s_rate:19.2f} {g_rate / s_rate:7.2f}")
    print("\nexpert: CPU time per decision against greedy players")
    print(f"{'setting':32} {'decisions':>9} {'median ms':>10} {'p90 ms':>8} {'max ms':>8}")
    k = 10 if args.quick else 40
    for label, game, options, players, _unit in SETTINGS[:3]:
        times = sorted(expert_decisions(game, options, players, k))
        p90 = times[int(0.9 * (len(times) - 1))]
        print(
            f"{label:32} {len(times):9d} {1000 * statistics.median(times):10.1f} {1000 * p90:8.1f} {1000 * times[-1]:8.1f}"
        )
    print("\ntarget: rummikub greedy >= 20 games/s per core")


if __name__ == "__main__":
    main()
