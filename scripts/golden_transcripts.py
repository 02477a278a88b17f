"""Regenerate ``tests/data/transcripts.jsonl.gz``: server protocol transcripts.

Each case of ``tests/helpers/transcripts.py`` (``CASES``: a preset, its options and the seed
of the deal) is one short game between two scripted players (the simple bot, seeded by seat)
through a real server; the file holds what seat 0 sent and received, one message a line, in
order, with the table id, tokens and clock times replaced by placeholders:

    {"case": "robbers", "n": 0, "sent": {"type": "hello", "token": "<token-0>"}}
    {"case": "robbers", "n": 1, "received": {"type": "welcome", "seq": 0, ...}}

``tests/golden/test_golden_transcripts.py`` plays the same games and compares message by
message.

    .venv/bin/python scripts/golden_transcripts.py
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from helpers.transcripts import CASES, dumps, play  # noqa: E402

DEFAULT_OUT = ROOT / "tests" / "data" / "transcripts.jsonl.gz"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    lines: list[str] = []
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            log = play(case, Path(tmp))
        lines += [dumps({"case": case, "n": n, **entry}) for n, entry in enumerate(log)]
        print(f"{case}: {len(log)} messages", flush=True)
    # mtime=0: the same transcripts give the same bytes, so a regenerated file diffs clean
    with args.out.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as g:
        g.write(("\n".join(lines) + "\n").encode())
    print(f"wrote {len(lines)} messages to {args.out}")


if __name__ == "__main__":
    main()
