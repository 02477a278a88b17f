"""The fuzz campaign: random legal and illegal actions over every preset and match format.

Match ``i`` of the campaign fuzzes case ``i % len(CASES)`` of ``tests/helpers/fuzz.py``
dealt from seed ``i``, checking the invariants listed there after every step and the
record's replay as it goes and at its end. The workers stay up for the whole campaign and
play ``--batch`` consecutive matches per task. Progress (the next match, the batches under
way, steps, the counts by case and every violation found) is saved to ``--state`` after
every batch and when the campaign is stopped (Ctrl-C or SIGTERM), so a stopped campaign
goes on where it left off when started again with the same state file; the batches that
were under way are played again from their start.

    .venv/bin/python scripts/fuzz.py --steps 10000000 --workers 2 --state fuzz-state.json

A progress line every ``--every`` seconds: steps, matches, steps per second (wall) and per
CPU-second of the workers, the cases covered, violations and the load average.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import queue
import signal
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from helpers.fuzz import CASES, case_label, fuzz_match  # noqa: E402


def play_batch(start: int, size: int, max_steps: int) -> tuple[int, list[dict[str, Any]], float]:
    """Fuzz matches ``start`` to ``start + size - 1``: (start, their reports, CPU seconds)."""
    cpu = time.process_time()
    reports = [
        fuzz_match(i % len(CASES), i, max_steps=max_steps).to_json()
        for i in range(start, start + size)
    ]
    return start, reports, time.process_time() - cpu


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the campaign, which saves the state and stops them (with
    SIGTERM, which ends a worker at once)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def new_state() -> dict[str, Any]:
    return {
        "next": 0,
        "pending": [],
        "steps": 0,
        "matches": 0,
        "cpu_seconds": 0.0,
        "by_case": {},
        "violations": [],
    }


def add_batch(state: dict[str, Any], reports: list[dict[str, Any]], cpu: float) -> list[str]:
    """Count a finished batch into ``state``; returns the violations it found."""
    found: list[str] = []
    for report in reports:
        label = case_label(report["case"])
        counts = state["by_case"].setdefault(
            label,
            {"matches": 0, "steps": 0, "illegal": 0, "rejected": 0, "failed": 0, "solver": 0},
        )
        counts["matches"] += 1
        counts["steps"] += report["steps"]
        counts["illegal"] += report["illegal_sent"]
        counts["rejected"] += report["rejected"]
        counts["failed"] += report["failed_plays"]
        counts["solver"] = counts.get("solver", 0) + report["solver_turns"]
        state["steps"] += report["steps"]
        state["matches"] += 1
        found += report["violations"]
    state["violations"] += found
    state["cpu_seconds"] = state.get("cpu_seconds", 0.0) + cpu
    return found


def save(path: Path, state: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True))
    tmp.replace(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--steps", type=int, default=100_000, help="stop after this many steps in all")
    ap.add_argument("--state", type=Path, default=Path("fuzz-state.json"))
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--batch", type=int, default=19, help="matches per task (19: every case; kept on resume)"
    )
    ap.add_argument("--max-steps", type=int, default=3000, help="steps at most per match")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between progress lines")
    args = ap.parse_args()
    state = new_state()
    if args.state.exists():
        state = {**state, **json.loads(args.state.read_text())}
        print(
            f"resuming at match {state['next']} ({len(state['pending'])} batches to replay), "
            f"{state['steps']} steps done",
            flush=True,
        )
    if state.setdefault("batch", args.batch) != args.batch:
        print(f"the state's tasks are of {state['batch']} matches: --batch {state['batch']}")
        args.batch = state["batch"]
    signal.signal(signal.SIGTERM, _stop)
    todo: list[int] = list(state["pending"])
    running: set[int] = set()
    done: queue.Queue[tuple[int, list[dict[str, Any]], float]] = queue.Queue()
    failed: queue.Queue[BaseException] = queue.Queue()
    start, first, first_cpu = time.monotonic(), state["steps"], state["cpu_seconds"]
    shown = start
    pool = multiprocessing.get_context("fork").Pool(args.workers, initializer=_quiet_worker)

    def submit() -> None:
        if todo:
            batch = todo.pop(0)
        else:
            batch = state["next"]
            state["next"] += args.batch
        running.add(batch)
        state["pending"] = sorted(running | set(todo))
        pool.apply_async(
            play_batch,
            (batch, args.batch, args.max_steps),
            callback=done.put,
            error_callback=failed.put,
        )

    def progress() -> str:
        wall = max(time.monotonic() - start, 1e-9)
        cpu = max(state["cpu_seconds"] - first_cpu, 1e-9)
        steps = state["steps"] - first
        covered = len(state["by_case"])
        load = "/".join(f"{x:.1f}" for x in os.getloadavg())
        return (
            f"{state['steps']:,} steps, {state['matches']:,} matches, "
            f"{steps / wall:,.0f} steps/s, {steps / cpu:,.0f} per worker CPU-s, "
            f"{covered}/{len(CASES)} cases, {len(state['violations'])} violations, load {load}"
        )

    try:
        while state["steps"] < args.steps or running:
            while state["steps"] < args.steps and len(running) < 2 * args.workers:
                submit()
            if not failed.empty():
                raise failed.get()
            try:
                batch, reports, cpu = done.get(timeout=1.0)
            except queue.Empty:
                continue
            running.discard(batch)
            state["pending"] = sorted(running | set(todo))
            for v in add_batch(state, reports, cpu):
                print("VIOLATION", v, flush=True)
            save(args.state, state)
            if time.monotonic() - shown >= args.every:
                shown = time.monotonic()
                print(progress(), flush=True)
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second signal waits for the save
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        save(args.state, state)
        pool.terminate()
        print(f"stopped; {progress()}; state saved to {args.state}", flush=True)
        sys.exit(130)
    pool.close()
    pool.join()
    save(args.state, state)
    print(f"done: {progress()}", flush=True)


if __name__ == "__main__":
    main()
