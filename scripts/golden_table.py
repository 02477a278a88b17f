"""Regenerate ``tests/data/table_optima.jsonl.gz``: table positions with their HiGHS optimum.

Each line is one position of the table problem (RULES.md §2.2) written out in full, with the
optimum that the independent integer-programming model ``tests/helpers/ilp_reference.py``
finds for it (most hand cards placed, then most penalty value):

    {"seed": 17, "kind": "random", "game": "robbers", "options": {...},
     "table": ["[4S 5S 6S]", ...], "hand": "3S JK 9D", "opened": true,
     "count": 2, "value": 33, "proof": "lp"}

The positions come from the seeded generators of ``tests/helpers/positions.py``:
``random_position(seed, table_cards=T)`` (every manipulation preset, ace modes, 0–6 jokers,
opened or not) with T drawn from 0–150 by ``random.Random(f"golden {seed}")``, and every
eighth seed ``opening_position(seed)`` (a big hand that must open, with table play on the
same turn), for seeds 0 to ``--count`` − 1; then ``hand_joker_position(seed)`` (1–4 jokers
dealt to the hand, which random tables otherwise leave rare) for seeds 100000 to
100000 + ``--joker-count`` − 1; then ``many_decks_position(seed)`` (three or four decks with
six jokers, every ace mode, 0–150 table cards, 14–28 hand cards) for seeds 200000 to 200000 +
``--many-decks-count`` − 1.

``proof`` says how the optimum was established: ``"milp"`` (the integer program solved to
optimality), ``"lp"`` (the solver's play, re-checked by the engine's commit checks C1–C8,
reaches the model's LP bound, so nothing better exists), or ``"none"`` (no feasible play
places a card). The file is written uncompressed to ``<out>.partial`` as it goes, so a run
that is stopped goes on with ``--resume``; the finished file is gzipped.

    .venv/bin/python scripts/golden_table.py --count 3000 --joker-count 400 --many-decks-count 300

Only new seeds (after a count was raised) are computed with ``--resume`` once the finished
file is unpacked to ``<out>.partial`` (``zcat <out> > <out>.partial``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from helpers.ilp_reference import Optimum, optimum  # noqa: E402
from helpers.positions import (  # noqa: E402
    Position,
    check_play,
    hand_joker_position,
    many_decks_position,
    movable_cards,
    opening_position,
    random_position,
)
from openrummy.rules import find_preset  # noqa: E402
from openrummy.solve import best_play  # noqa: E402

DEFAULT_OUT = ROOT / "tests" / "data" / "table_optima.jsonl.gz"


JOKER_SEEDS = 100_000
MANY_DECKS_SEEDS = 200_000


def position_for(seed: int) -> tuple[str, Position]:
    if seed >= MANY_DECKS_SEEDS:
        return "many decks", many_decks_position(seed)
    if seed >= JOKER_SEEDS:
        return "hand jokers", hand_joker_position(seed)
    if seed % 8 == 7:
        return "opening", opening_position(seed)
    target = random.Random(f"golden {seed}").randint(0, 150)
    return "random", random_position(seed, table_cards=target)


def entry(seed: int) -> dict[str, Any]:
    kind, p = position_for(seed)
    play = best_play(p.rules, p.table, p.hand, opened=p.opened, keep_melds=False)
    check_play(p.rules, p.table, p.hand, play, opened=p.opened)
    claim = Optimum(play.count, play.value)
    proof = "milp"
    ref = optimum(p.rules, movable_cards(p.rules, p.table), p.hand, opened=p.opened, claim=claim)
    if ref is claim:
        proof = "lp"
    if ref is None:
        proof = "none"
    want = (ref.count, ref.value) if ref else (0, 0)
    if (play.count, play.value) != want:
        raise SystemExit(f"{p.label}: solver {(play.count, play.value)}, reference {want}")
    base = find_preset(p.rules.name)
    options = {k: mine for k, (mine, _) in p.rules.describe_differences(base).items()}
    return {
        "seed": seed,
        "kind": kind,
        "game": p.rules.name,
        "options": options,
        "table": [str(m) for m in p.table],
        "hand": " ".join(str(c) for c in p.hand),
        "opened": p.opened,
        "count": want[0],
        "value": want[1],
        "proof": proof,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--joker-count", type=int, default=400)
    ap.add_argument("--many-decks-count", type=int, default=300)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--resume", action="store_true", help="go on from <out>.partial")
    args = ap.parse_args()
    partial = args.out.with_name(args.out.name + ".partial")
    done: set[int] = set()
    if args.resume and partial.exists():
        done = {json.loads(line)["seed"] for line in partial.read_text().splitlines() if line}
    elif partial.exists():
        partial.unlink()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    seeds = [
        *range(args.count),
        *range(JOKER_SEEDS, JOKER_SEEDS + args.joker_count),
        *range(MANY_DECKS_SEEDS, MANY_DECKS_SEEDS + args.many_decks_count),
    ]
    with partial.open("a") as f:
        for i, seed in enumerate(seeds):
            if seed in done:
                continue
            f.write(json.dumps(entry(seed), sort_keys=True) + "\n")
            f.flush()
            if i % 50 == 0:
                print(f"{i + 1}/{len(seeds)} {time.monotonic() - start:.0f} s", flush=True)
    wanted = set(seeds)
    lines = sorted(
        (
            line
            for line in partial.read_text().splitlines()
            if line and json.loads(line)["seed"] in wanted
        ),
        key=lambda line: json.loads(line)["seed"],
    )
    # mtime=0: the same positions give the same bytes, so a regenerated file diffs clean
    with args.out.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as g:
        g.write(("\n".join(lines) + "\n").encode())
    partial.unlink()
    print(f"wrote {len(lines)} positions to {args.out}")


if __name__ == "__main__":
    main()
