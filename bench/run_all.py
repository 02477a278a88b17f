"""Run every benchmark in bench/ (``make bench``), one after the other.

Each benchmark is a script that prints its own table, with ratios against the anchor it
measures in the same run. Pass names to run only some: ``python bench/run_all.py solver``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    scripts = sorted(
        p for p in here.glob("*.py") if p.name != "run_all.py" and not p.name.startswith("_")
    )
    if argv:
        scripts = [p for p in scripts if p.stem in argv]
    failed = 0
    for script in scripts:
        print(f"\n=== bench/{script.name} ===", flush=True)
        rc = subprocess.call([sys.executable, str(script)])
        if rc != 0:
            print(f"bench/{script.name} failed with exit code {rc}", flush=True)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
