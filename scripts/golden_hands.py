"""Regenerate ``tests/data/indian_hands.jsonl.gz``: Indian Rummy hands with their answers.

Each line is one hand under one preset and variant, with the least deadwood under every
loser-credit rule and whether the hand can be declared, as the independent references of
``tests/helpers/hand_reference.py`` find them (the exhaustive slot search; for 21-card
hands its HiGHS integer program):

    {"case": "indian13", "game": "indian13", "options": {}, "indicator": "2C",
     "hand": "AS 2S ...", "deadwood": {"TWO_SEQ_ONE_PURE": 12, "PURE_ONLY": 12,
     "ANY_MELD": 5, "THREE_PURE": 80}, "declarable": false}

``declarable`` is null where the variant's declaration is not the one the reference models
(two sequences with a pure one; three pure sequences for 21 cards).

The hands come from ``biased_hand`` (runs, sets and wilds seeded in so that every credit
branch occurs) with ``random.Random(f"golden {case}")`` for each case of ``CASES``.

    .venv/bin/python scripts/golden_hands.py
    .venv/bin/python scripts/golden_hands.py --cases indian21   # only these; the rest kept

Each case draws its hands from its own random stream, so raising a case's count keeps its
earlier hands and appends new ones.
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

from helpers import indian_rules  # noqa: E402
from helpers.hand_reference import biased_hand, milp_reference, reference  # noqa: E402

DEFAULT_OUT = ROOT / "tests" / "data" / "indian_hands.jsonl.gz"

CASES: dict[str, tuple[str, dict[str, object], int]] = {
    "indian13": ("indian13", {}, 1500),
    "indian10": ("indian10", {}, 500),
    "indian21": ("indian21", {}, 60),
    "A33 wild-rank cards never pure": ("indian13", {"wild.natural_use_counts_pure": False}, 200),
    "A34 sets of 5": ("indian13", {"meld.set_max": 5}, 200),
    "A35 no all-wild groups": (
        "indian13",
        {"meld.all_wild_group": "FORBIDDEN", "deck.printed_jokers": 3},
        150,
    ),
    "A35 all-wild sequences": (
        "indian13",
        {"meld.all_wild_group": "SET_OR_SEQUENCE", "deck.printed_jokers": 3},
        150,
    ),
    "A48 one deck, one joker": (
        "indian13",
        {"deck.standard_decks": 1, "deck.printed_jokers": 1, "players.max": 2},
        200,
    ),
    "two sequences two sets": ("indian13", {"declare.requirement": "TWO_SEQ_TWO_SETS"}, 100),
}
"""case -> (preset, options, hands)."""


def entries(case: str) -> list[dict[str, Any]]:
    game, options, count = CASES[case]
    rules = indian_rules(game, options)
    rng = random.Random(f"golden {case}")
    out = []
    for _ in range(count):
        hand, indicator = biased_hand(rng, rules)
        wilds = rules.wilds(indicator)
        ref = milp_reference if rules.is_v21 else reference
        deadwood, declarable = ref(hand, rules, wilds)
        modelled = rules.is_v21 or rules.declare.requirement.name == "TWO_SEQ_ONE_PURE"
        out.append(
            {
                "case": case,
                "game": game,
                "options": options,
                "indicator": str(indicator),
                "hand": " ".join(str(c) for c in hand),
                "deadwood": {credit.name: v for credit, v in deadwood.items()},
                "declarable": declarable if modelled else None,
            }
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument(
        "--cases", nargs="+", choices=list(CASES), help="regenerate these cases, keep the others"
    )
    args = ap.parse_args()
    kept: dict[str, list[str]] = {}
    if args.cases:
        with gzip.open(args.out, "rt", encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    kept.setdefault(json.loads(line)["case"], []).append(line.strip())
    lines: list[str] = []
    start = time.monotonic()
    for case in CASES:
        if args.cases and case not in args.cases:
            lines += kept.get(case, [])
            continue
        lines += [json.dumps(e, sort_keys=True) for e in entries(case)]
        print(f"{case}: {len(lines)} hands, {time.monotonic() - start:.0f} s", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same hands give the same bytes, so a regenerated file diffs clean
    with args.out.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as g:
        g.write(("\n".join(lines) + "\n").encode())
    print(f"wrote {len(lines)} hands to {args.out}")


if __name__ == "__main__":
    main()
