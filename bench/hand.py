"""Benchmark of the exact Indian Rummy hand solver (``openrummy.solve.hand``).

Seeded random hands dealt from the preset's decks (indian13: 2 decks + 2 printed jokers;
indian21: 3 decks + 3 jokers) after a random indicator, so the wild rank is random too.
Each hand is solved once through the public API (input checks and the result objects
included). Printed per workload: hands per second, median and 99th percentile, as wall
time and as CPU time of this thread (the CPU figure is immune to other processes taking
the core; the wall figure is what a caller waits).

Targets (issue 4): 13 cards p50 ≤ 200 µs and p99 ≤ 2 ms; 21 cards p99 ≤ 20 ms.

    .venv/bin/python bench/hand.py            # full run
    .venv/bin/python bench/hand.py --quick    # fewer hands
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from openrummy.cards import Card, standard_deck
from openrummy.rules import find_preset
from openrummy.rules.indian import IndianRules, Wilds
from openrummy.solve.hand import analyse_draw, find_declaration, min_deadwood, throw_value

Job = tuple[list[Card], Wilds]


def deal(rules: IndianRules, count: int, seed: int, extra: int = 0) -> list[Job]:
    rng = random.Random(seed)
    deck = standard_deck(rules.deck.standard_decks, rules.deck.printed_jokers)
    jobs = []
    for _ in range(count):
        cards = deck[:]
        rng.shuffle(cards)
        indicator = cards.pop()
        jobs.append((cards[: rules.deal.hand_size + extra], rules.wilds(indicator)))
    return jobs


def measure(
    jobs: Sequence[Job], run: Callable[[list[Card], Wilds], object]
) -> tuple[list[float], list[float]]:
    wall: list[float] = []
    cpu: list[float] = []
    gc.collect()
    for hand, wilds in jobs:
        c0, w0 = time.thread_time_ns(), time.perf_counter_ns()
        run(hand, wilds)
        w1, c1 = time.perf_counter_ns(), time.thread_time_ns()
        wall.append((w1 - w0) / 1e3)
        cpu.append((c1 - c0) / 1e3)
    return wall, cpu


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def fmt(us: float) -> str:
    return f"{us:8.0f} µs" if us < 10_000 else f"{us / 1000:8.1f} ms"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands")
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args(argv)
    n13, n21, n14 = (500, 100, 100) if args.quick else (5000, 1000, 500)
    r13, r21 = find_preset("indian13"), find_preset("indian21")
    assert isinstance(r13, IndianRules) and isinstance(r21, IndianRules)

    workloads: list[tuple[str, Sequence[Job], Callable[[list[Card], Wilds], object], str]] = [
        (
            "13 cards: least deadwood",
            deal(r13, n13, args.seed),
            lambda h, w: min_deadwood(h, r13, w),
            "p50 ≤ 200 µs, p99 ≤ 2 ms",
        ),
        (
            "13 cards: declaration search",
            deal(r13, n13, args.seed + 1),
            lambda h, w: find_declaration(h, r13, w),
            "",
        ),
        (
            "14 cards: best throw + finish",
            deal(r13, n14, args.seed + 2, extra=1),
            lambda h, w: analyse_draw(h, r13, w),
            "",
        ),
        (
            "14 cards: throw value only",
            deal(r13, n14, args.seed + 2, extra=1),
            lambda h, w: throw_value(h, r13, w),
            "",
        ),
        (
            "21 cards: least deadwood",
            deal(r21, n21, args.seed + 3),
            lambda h, w: min_deadwood(h, r21, w),
            "p99 ≤ 20 ms",
        ),
        (
            "21 cards: declaration search",
            deal(r21, n21, args.seed + 4),
            lambda h, w: find_declaration(h, r21, w),
            "",
        ),
    ]
    # Warm up imports and caches outside the measurement.
    for _, jobs, run, _ in workloads:
        for hand, wilds in jobs[:20]:
            run(hand, wilds)

    print(f"hand solver, seed {args.seed}, Python {sys.version.split()[0]}")
    header = (
        f"{'workload':31} {'hands':>6} {'hands/s':>9} {'wall p50':>11} {'wall p99':>11} "
        f"{'cpu p50':>11} {'cpu p99':>11} {'cpu max':>11}  target"
    )
    print(header)
    print("-" * len(header))
    cpu_total: dict[str, float] = {}
    for name, jobs, run, target in workloads:
        wall, cpu = measure(jobs, run)
        cpu_total[name] = sum(cpu)
        rate = len(jobs) / (sum(wall) / 1e6)
        print(
            f"{name:31} {len(jobs):6d} {rate:9.0f} {fmt(statistics.median(wall)):>11} "
            f"{fmt(pct(wall, 0.99)):>11} {fmt(statistics.median(cpu)):>11} "
            f"{fmt(pct(cpu, 0.99)):>11} {fmt(max(cpu)):>11}  {target}",
            flush=True,
        )
    # The look-ahead bots' question against its anchor, the full analysis of the same hands.
    ratio = cpu_total["14 cards: best throw + finish"] / cpu_total["14 cards: throw value only"]
    print(f"throw value only: {ratio:.1f}x faster than best throw + finish (CPU, same hands)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
