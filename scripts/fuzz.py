"""The fuzz campaign: random legal and illegal actions over every preset and match format.

Match ``i`` of the campaign fuzzes case ``i % len(CASES)`` of ``tests/helpers/fuzz.py``
dealt from seed ``i``, checking the invariants listed there after every step and the
record's replay at its end. Progress (the next match, steps, the counts and every
violation found) is saved to ``--state`` after each match, so a stopped campaign goes on
where it left off when started again with the same state file.

    .venv/bin/python scripts/fuzz.py --steps 10000000 --workers 2 --state fuzz-state.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from helpers.fuzz import CASES, MatchReport, case_label, fuzz_match  # noqa: E402


def run(index: int, max_steps: int) -> MatchReport:
    return fuzz_match(index % len(CASES), index, max_steps=max_steps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--steps", type=int, default=100_000, help="stop after this many steps in all")
    ap.add_argument("--state", type=Path, default=Path("fuzz-state.json"))
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--max-steps", type=int, default=3000, help="steps at most per match")
    args = ap.parse_args()
    state: dict[str, Any] = {"next": 0, "steps": 0, "matches": 0, "by_case": {}, "violations": []}
    if args.state.exists():
        state = json.loads(args.state.read_text())
        print(f"resuming at match {state['next']}, {state['steps']} steps done", flush=True)
    start, first = time.monotonic(), state["steps"]
    with ProcessPoolExecutor(args.workers) as pool:
        while state["steps"] < args.steps:
            batch = range(state["next"], state["next"] + 8 * args.workers)
            for report in pool.map(run, batch, [args.max_steps] * len(batch)):
                label = case_label(report.case)
                counts = state["by_case"].setdefault(
                    label, {"matches": 0, "steps": 0, "illegal": 0, "rejected": 0, "failed": 0}
                )
                counts["matches"] += 1
                counts["steps"] += report.steps
                counts["illegal"] += report.illegal_sent
                counts["rejected"] += report.rejected
                counts["failed"] += report.failed_plays
                state["steps"] += report.steps
                state["matches"] += 1
                state["violations"] += report.violations
                for v in report.violations:
                    print("VIOLATION", v, flush=True)
            state["next"] = batch.stop
            args.state.write_text(json.dumps(state, indent=1, sort_keys=True))
            rate = (state["steps"] - first) / max(time.monotonic() - start, 1e-9)
            print(
                f"{state['steps']} steps, {state['matches']} matches, "
                f"{len(state['violations'])} violations, {rate:.0f} steps/s",
                flush=True,
            )


if __name__ == "__main__":
    main()
