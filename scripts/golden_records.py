"""Regenerate ``tests/data/records.jsonl.gz``: seeded bot matches that must replay forever.

One game record (``openrummy.record.GameRecord.to_json()``, record format version 1) per
line: every preset under every match format its family allows (``CASES``), 2–4 seats, with
a mix of the registered bots so that rejected plays, penalty draws, joker retrievals, drops
and declarations occur. The record's ``result`` is the outcome the match ended with, and
``meta.final`` holds the round totals and the number of rounds, so a replay that ends
differently in any way is caught. Matches are dealt from ``seed`` = the line's index.

    .venv/bin/python scripts/golden_records.py
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path
from typing import Any

from openrummy.bots import make_bot, play_match
from openrummy.games.registry import new_match
from openrummy.record import GameRecord
from openrummy.rules import find_preset

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "tests" / "data" / "records.jsonl.gz"

_SHORT = {"match.rounds": 2, "match.outs_to_win": 2}
CASES: list[tuple[str, dict[str, object], list[str]]] = [
    # Robbers' Rummy and Rummikub: every preset under every format its scoring allows.
    ("robbers", {"match.rounds": 2}, ["random", "simple", "simple"]),
    ("robbers", {"match.format": "SINGLE_ROUND"}, ["greedy", "random"]),
    ("robbers", {"match.format": "FIRST_TO_N_OUTS", **_SHORT}, ["simple", "random"]),
    ("robbers_s003", {}, ["random", "simple", "greedy"]),
    ("robbers_s003", {"match.format": "FIRST_TO_N_OUTS", **_SHORT}, ["random", "simple"]),
    ("vatikan_s000", {"match.rounds": 2}, ["simple", "random"]),
    ("vatikan_s000", {"match.format": "SINGLE_ROUND"}, ["greedy", "random"]),
    ("vatikan_pagat", {}, ["random", "simple", "greedy"]),
    ("rummikub", {"match.rounds": 2}, ["random", "simple"]),
    ("rummikub", {"match.format": "SINGLE_ROUND"}, ["greedy", "random", "simple"]),
    ("rummikub", {"match.format": "FIRST_TO_N_OUTS", **_SHORT}, ["simple", "random"]),
    # Indian Rummy: every preset under every match format.
    ("indian13", {}, ["random", "simple", "greedy"]),
    ("indian13", {"match.format": "POOL", "pool.threshold": 101}, ["greedy", "simple"]),
    ("indian13", {"match.format": "POOL", "pool.threshold": 201}, ["simple", "greedy", "random"]),
    ("indian13", {"match.format": "DEALS"}, ["strategic", "greedy"]),
    ("indian13", {"match.format": "FIXED_HANDS", "match.hands": 2}, ["random", "greedy"]),
    ("indian13", {"scoring.loser_arrangement": "SUBMITTED"}, ["greedy", "simple"]),
    ("indian10", {}, ["greedy", "random"]),
    ("indian10", {"match.format": "POOL", "pool.threshold": 101}, ["simple", "greedy"]),
    ("indian10", {"match.format": "DEALS"}, ["greedy", "simple", "random"]),
    ("indian21", {}, ["greedy", "simple"]),
    ("indian21", {"match.format": "POOL", "pool.threshold": 201}, ["greedy", "random"]),
    ("indian21", {"match.format": "FIXED_HANDS", "match.hands": 2}, ["simple", "greedy"]),
    # Joker retrievals: the strategic bot retrieves table jokers, and six jokers make it likely.
    (
        "robbers",
        {"match.format": "SINGLE_ROUND", "deck.printed_jokers": 6},
        ["strategic", "strategic", "strategic"],
    ),
]
"""(preset, options, bots of the seats)."""


def record(index: int) -> dict[str, Any]:
    game, options, bots = CASES[index]
    rules = find_preset(game, options)
    match = new_match(rules, len(bots), seed=index, started_at=0.0, clock=lambda: 0.0)
    play_match(match, [make_bot(b, rules, index * 10 + s) for s, b in enumerate(bots)])
    rec = GameRecord.from_match(
        match,
        bots,
        meta={"final": {"totals": _plain(match.totals), "rounds": len(match.rounds)}},
    )
    data = rec.to_json()
    assert GameRecord.from_json(json.loads(json.dumps(data))).replay().outcome == match.outcome
    return data


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=list))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    lines = []
    start = time.monotonic()
    for i, (game, options, bots) in enumerate(CASES):
        data = record(i)
        lines.append(json.dumps(data, sort_keys=True))
        took = time.monotonic() - start
        print(
            f"{i}: {game} {options} {bots}: {len(data['actions'])} actions, {took:.0f} s",
            flush=True,
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same matches give the same bytes, so a regenerated file diffs clean
    with args.out.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as g:
        g.write(("\n".join(lines) + "\n").encode())
    print(f"wrote {len(lines)} records to {args.out}")


if __name__ == "__main__":
    main()
