"""Benchmark of game analysis and puzzle generation (``openrummy.analysis``, ``.puzzles``).

Three workloads, each timed as wall clock and as CPU time of this process (the CPU figure
is immune to other processes taking the cores):

* the exact per-decision facts of a whole two-player Rummikub match from
  ``tests/data/records.jsonl.gz`` (``samples=0``);
* the win-chance estimate of the same match's first round (``--samples``, default 8);
* generating ``--puzzles`` Rummikub "place every card" puzzles (default 100) from seed 0.

Targets: the exact part of a whole 2-player Rummikub game ≤ 2 s; the win chance of a whole
game ≤ 60 s on two cores; 1,000 Rummikub puzzles ≤ 10 minutes.

    .venv/bin/python bench/analysis.py            # full run
    .venv/bin/python bench/analysis.py --quick    # 2 samples, 20 puzzles
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path

from openrummy.analysis import AnalysisSettings, analyse_record
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


def timed(label: str, work: Callable[[], object]) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    print(
        f"{label}: {time.perf_counter() - wall:.2f} s wall, {time.process_time() - cpu:.2f} s CPU"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--puzzles", type=int, default=100)
    args = ap.parse_args()
    samples, puzzles = (2, 20) if args.quick else (args.samples, args.puzzles)
    rec = rummikub_match()
    analyse_record(rec, AnalysisSettings(samples=0, rounds=frozenset({99})))  # warm up
    timed(
        f"exact facts, {len(rec.actions)} actions",
        lambda: analyse_record(rec, AnalysisSettings(samples=0)),
    )
    timed(
        f"win chance, round 0, {samples} samples",
        lambda: analyse_record(rec, AnalysisSettings(samples=samples, rounds=frozenset({0}))),
    )
    timed(
        f"{puzzles} Rummikub puzzles",
        lambda: list(islice(place_all_puzzles("rummikub", puzzles), puzzles)),
    )


if __name__ == "__main__":
    main()
