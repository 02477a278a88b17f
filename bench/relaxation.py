"""Benchmark: the linear relaxation's model cut out of a per-rules template, against the
same model built in Python for the position alone (``solve/_milp.py``).

For each variant group and size of ``bench/solver.py`` (its ``VARIANTS`` and seeded
positions, seeds ``7919 * size + i``), the positions are solved with the relaxation asked
at once (``bench/solver.FORCE_RELAXATION``), which records every problem the relaxation is
asked about. Each problem is then solved both ways, alternately, three times; the figure
is the least CPU time of this thread (``time.thread_time``: HiGHS's simplex runs in the
calling thread) of the three, so that the load of a shared machine matters less. Both
ways must give the same bound (the run exits with status 1 otherwise).

Run: ``.venv/bin/python bench/relaxation.py`` (``--n`` positions per size, default 10;
``--groups`` some groups only).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from openrummy.rules import find_preset
from openrummy.rules.manipulation import ManipulationRules
from openrummy.solve import _milp
from openrummy.solve import table as _table
from openrummy.solve._problem import CoreProblem, CoreSpec
from openrummy.solve.table import best_play

sys.path.insert(0, str(Path(__file__).resolve().parent))
# bench/solver.py: its variant groups, positions and settings (a script, not a package)
bench: Any = importlib.import_module("solver")


def _problems(group: str, size: int, n: int) -> list[tuple[CoreProblem, CoreSpec]]:
    """The problems the relaxation is asked about on the group's positions of this size."""
    _label, preset, opts, _sizes, opened = next(v for v in bench.VARIANTS if v[0] == group)
    rules = find_preset(preset, opts)
    assert isinstance(rules, ManipulationRules)
    seen: list[tuple[CoreProblem, CoreSpec]] = []
    real = _table.lp_bound

    def spy(prob: CoreProblem, spec: CoreSpec) -> tuple[int | None, object]:
        seen.append((prob, spec))
        return real(prob, spec)

    _table.lp_bound = spy  # type: ignore[assignment]
    try:
        for i in range(n):
            p = bench.variant_position(7919 * size + i, rules, size, 14)
            best_play(
                rules,
                p.table,
                p.hand,
                opened=opened,
                keep_melds=False,
                settings=bench.FORCE_RELAXATION,
            )
    finally:
        _table.lp_bound = real
    return seen


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--groups", nargs="*", default=None)
    args = ap.parse_args(argv)
    groups = [v for v in bench.VARIANTS if args.groups is None or v[0] in args.groups]
    print(f"{'group':>14} {'table':>5} {'LPs':>4} | {'own med':>8} {'own max':>8} | "
          f"{'tpl med':>8} {'tpl max':>8} | ms, least thread CPU of 3")  # fmt: skip
    bad = 0
    for group, _preset, _opts, sizes, _opened in groups:
        for size in sizes:
            probs = _problems(group, size, args.n)
            if not probs:
                continue
            for prob, spec in probs:
                _milp.lp_bound(prob, spec)  # the template, made once per rule set
            own = [float("inf")] * len(probs)
            tpl = [float("inf")] * len(probs)
            for _ in range(3):
                for k, (prob, spec) in enumerate(probs):
                    t0 = time.thread_time()
                    a = _milp._lp_bound_built(prob, spec)[0]
                    t1 = time.thread_time()
                    b = _milp.lp_bound(prob, spec)[0]
                    t2 = time.thread_time()
                    own[k] = min(own[k], t1 - t0)
                    tpl[k] = min(tpl[k], t2 - t1)
                    if a != b:
                        bad += 1
                        print(f"{group} {size}: bound {b} from the template, {a} built")
            print(
                f"{group:>14} {size:>5} {len(probs):>4} | "
                f"{1000 * statistics.median(own):8.2f} {1000 * max(own):8.2f} | "
                f"{1000 * statistics.median(tpl):8.2f} {1000 * max(tpl):8.2f}"
            )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
