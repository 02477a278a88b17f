"""Start-up and install figures of the ``rummy`` command (docs/performance.md).

    python bench/startup.py [--bin .venv/bin] [--runs 10] [--install]

* ``rummy --help``, a one-position ``rummy solve`` of a small position (the Python core
  answers it: numba is not loaded) and of a bigger one that loads the compiled core from a
  warm numba cache: the median of ``--runs`` runs, wall-clock and CPU (user + system of
  the child), and the load average;
* the cold first solve of the bigger position (an empty ``NUMBA_CACHE_DIR``, as after
  ``pip install``): its time and when it first says something on standard error;
* with ``--install``: ``pip install .`` (the core, no extras) into a fresh venv, its size
  (``du``) and its packages; needs the pip cache or the network.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE = '{"game": "robbers", "table": [["4S","5S","6S","7S"]], "hand": ["3S","4H"]}\n'
# more than rummy solve's Python try (2,000 states): the compiled core is loaded
BIG = (
    '{"game": "robbers", "table": [["3H", "3S", "3C"], ["8C", "8D", "8H", "JK=8S"], '
    '["3C", "JK=4C", "5C"], ["6C", "6D", "6S", "6H"], ["2S", "2C", "2H"], '
    '["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"], ["10S", "10H", "10D", "10C"]], '
    '"hand": ["JH", "JD", "KS", "AH", "AC", "9H", "KC", "4D", "QD", "JC", "7C", "4H", "4D", "5D"]}\n'
)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(
    args: list[str], stdin: str = "", env: dict[str, str] | None = None
) -> tuple[float, float, float | None, str]:
    """Wall seconds, CPU seconds, seconds until the first line on stderr, that line."""
    c0, t0 = _cpu(), time.perf_counter()
    proc = subprocess.Popen(
        args,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdin is not None and proc.stderr is not None and proc.stdout is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    first = proc.stderr.readline()
    said = time.perf_counter() - t0 if first else None
    proc.stdout.read()
    proc.wait()
    return time.perf_counter() - t0, _cpu() - c0, said, first.strip()


def median_of(args: list[str], runs: int, stdin: str = "") -> str:
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu, _, _ = timed(args, stdin)
        walls.append(wall)
        cpus.append(cpu)
    return (
        f"wall median {statistics.median(walls):.2f} s (min {min(walls):.2f}); "
        f"CPU median {statistics.median(cpus):.2f} s (min {min(cpus):.2f})"
    )


def install_core() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = Path(tmp) / "venv"
        t0 = time.perf_counter()
        venv.create(env, with_pip=True)
        pip = [str(env / "bin" / "python"), "-m", "pip"]
        subprocess.run([*pip, "install", "--quiet", str(ROOT)], check=True)
        took = time.perf_counter() - t0
        size = subprocess.run(["du", "-sm", str(env)], capture_output=True, text=True, check=True)
        packages = subprocess.run(
            [*pip, "list", "--format=freeze"], capture_output=True, text=True, check=True
        ).stdout.split()
        print(f"core install: {size.stdout.split()[0]} MB, {len(packages)} packages, {took:.0f} s")
        print("  " + " ".join(sorted(packages)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=str(Path(sys.executable).parent))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--install", action="store_true")
    args = parser.parse_args()
    rummy = str(Path(args.bin) / "rummy")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average before: {load}", flush=True)
    print(f"rummy --help: {median_of([rummy, '--help'], args.runs)}", flush=True)
    print(f"rummy solve, small: {median_of([rummy, 'solve'], args.runs, LINE)}", flush=True)
    print(f"rummy solve, compiled: {median_of([rummy, 'solve'], args.runs, BIG)}", flush=True)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average after: {load}", flush=True)
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        wall, cpu, said, first = timed([rummy, "solve"], BIG, env)
    when = f"after {said:.2f} s: {first!r}" if said is not None else "nothing"
    print(
        f"cold rummy solve, compiled: {wall:.1f} s wall, {cpu:.1f} s CPU; said {when}", flush=True
    )
    if args.install:
        install_core()


if __name__ == "__main__":
    main()
