"""Benchmark of the Python around the table solver's search on large tables.

``best_play`` reads the table (checks every meld), sets the search up, and turns the
search's answer into melds, placed cards and the count of kept melds. This times each
call on the variant positions of ``bench/solver.py --variants`` (each call after
forgetting the meld memos, as ``rummy solve`` meets a new table) and the part of it spent
outside ``_Solver.solve`` (the search and its question loop), as CPU time: the best of
``--repeat`` calls per position (each after a collection of the garbage), then the median
over positions.

    .venv/bin/python bench/table_glue.py                # count and value alone
    .venv/bin/python bench/table_glue.py --keep-melds   # with the kept-melds tie-break
"""

from __future__ import annotations

import argparse
import gc
import importlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from openrummy.rules import find_preset
from openrummy.rules.manipulation import ManipulationRules
from openrummy.solve import best_play
from openrummy.solve.table import _Solver

sys.path.insert(0, str(Path(__file__).resolve().parent))
# bench/solver.py: its variant groups, positions and meld memos (a script, not a package)
B: Any = importlib.import_module("solver")

CASES = (("low 3d 6j", 150), ("low 4d 6j", 150), ("wrap 4d 6j", 150), ("low 4d 6j", 80))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20, help="positions per case")
    ap.add_argument("--repeat", type=int, default=5, help="calls per position (the best counts)")
    ap.add_argument("--keep-melds", action="store_true", help="include the tie-break")
    args = ap.parse_args()
    orig = _Solver.solve
    inside = [0.0]

    def timed(self: _Solver, *a: Any, **k: Any) -> Any:
        t0 = time.process_time()
        try:
            return orig(self, *a, **k)
        finally:
            inside[0] += time.process_time() - t0

    # the warm-up's objects (numba's, the presets') out of the collector's walks, as in
    # bench/solver.py: a collection that lands in a call costs the call's own garbage
    for group, size in CASES:
        _label, preset, options, _sizes, opened = next(v for v in B.VARIANTS if v[0] == group)
        rules = find_preset(preset, options)
        assert isinstance(rules, ManipulationRules)
        warm = B.variant_position(1, rules, size, 14)
        best_play(rules, warm.table, warm.hand, opened=opened)
    gc.freeze()
    print(f"{'group':>12} {'table':>5} | {'call med':>8} {'outside solve med':>17} (ms, CPU)")
    for group, size in CASES:
        label, preset, options, _sizes, opened = next(v for v in B.VARIANTS if v[0] == group)
        rules = find_preset(preset, options)
        assert isinstance(rules, ManipulationRules)
        calls: list[float] = []
        outside: list[float] = []
        for i in range(args.n):
            p = B.variant_position(7919 * size + i, rules, size, 14)
            best = best_out = float("inf")
            for _ in range(args.repeat):
                B.fresh()
                gc.collect()
                _Solver.solve = timed  # type: ignore[method-assign]
                inside[0] = 0.0
                t0 = time.process_time()
                best_play(rules, p.table, p.hand, opened=opened, keep_melds=args.keep_melds)
                t = time.process_time() - t0
                _Solver.solve = orig  # type: ignore[method-assign]
                if t < best:
                    best, best_out = t, t - inside[0]
            calls.append(best)
            outside.append(best_out)
        print(
            f"{label:>12} {size:>5} | {statistics.median(calls) * 1000:>8.3f} "
            f"{statistics.median(outside) * 1000:>17.3f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
