"""Benchmark of game analysis and puzzle generation (``openrummy.analysis``, ``.puzzles``).

Three workloads, each timed as wall clock and as CPU time of this process (the CPU figure
is immune to other processes taking the cores):

* the exact per-decision facts of a whole two-player Rummikub match from
  ``tests/data/records.jsonl.gz`` (``samples=0``);
* the win-chance estimate of the same whole match with the default settings (8 to 32
  sampled deals per decision, 30-action play-outs) on ``--jobs`` worker processes (default
  2), as ``rummy analyse`` and the web replay run it; its CPU figure adds the workers';
* generating ``--puzzles`` Rummikub "place every card" puzzles (default 100) from seed 0.

Targets: the exact part of a whole 2-player Rummikub game ≤ 2 s; the win chance of a whole
game ≤ 60 s on two cores; 1,000 Rummikub puzzles ≤ 10 minutes.

    .venv/bin/python bench/analysis.py            # full run
    .venv/bin/python bench/analysis.py --quick    # round 0 only, 2 samples, 20 puzzles

The load average is printed first: on a shared machine the wall clock grows with it.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import os
import resource
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path

from openrummy.analysis import AnalysisSettings, analyse_record
from openrummy.analysis.parallel import analyse_parallel
from openrummy.puzzles.manipulation import place_all_puzzles
from openrummy.record import GameRecord

RECORDS = Path(__file__).parent.parent / "tests" / "data" / "records.jsonl.gz"


def rummikub_match() -> GameRecord:
    with gzip.open(RECORDS, "rt", encoding="utf-8") as f:
        for line in f:
            rec = GameRecord.from_json(json.loads(line))
            if rec.game == "rummikub" and len(rec.players) == 2 and len(rec.actions) < 500:
                return rec
    raise SystemExit("no two-player Rummikub record in tests/data")


def _cpu() -> float:
    """CPU seconds of this process and of its ended worker processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(label: str, work: Callable[[], object]) -> None:
    wall, cpu = time.perf_counter(), _cpu()
    work()
    print(f"{label}: {time.perf_counter() - wall:.2f} s wall, {_cpu() - cpu:.2f} s CPU")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--puzzles", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    samples, puzzles = (2, 20) if args.quick else (args.samples, args.puzzles)
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    rec = rummikub_match()
    analyse_record(rec, AnalysisSettings(samples=0, rounds=frozenset({99})))  # warm up
    timed(
        f"exact facts, {len(rec.actions)} actions",
        lambda: analyse_record(rec, AnalysisSettings(samples=0)),
    )
    whole = AnalysisSettings(samples=samples)
    if args.quick:
        whole = dataclasses.replace(whole, max_samples=samples, rounds=frozenset({0}))
    timed(
        f"win chance, {'round 0' if args.quick else 'whole match'}, {samples} to "
        f"{whole.max_samples} samples, {args.jobs} processes",
        lambda: analyse_parallel(rec, whole, jobs=args.jobs),
    )
    timed(
        f"{puzzles} Rummikub puzzles",
        lambda: list(islice(place_all_puzzles("rummikub", puzzles), puzzles)),
    )


if __name__ == "__main__":
    main()
