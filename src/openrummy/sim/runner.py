"""Running tournaments on a backend: local processes (default) or Ray.

Results are collected in (deal, rotation) order whatever order the workers finish in, so a
seed gives the same table on every backend. A game whose worker process dies is reported
with its error; Ctrl-C stops the run and keeps what finished. A run can go on from the
games of an earlier one (``done``, see :func:`resumable`): every game is a pure function of
(spec, deal, rotation), so the games already played are not played again, and a run may be
extended to more deals.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import signal
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import wait as wait_for
from pathlib import Path
from typing import Any

from .stats import BotSummary, PairedTest, paired_test, summarize
from .tournament import GameResult, TournamentSpec, run_game

__all__ = ["BACKENDS", "TournamentResult", "resumable", "run_tournament"]

BACKENDS = ("process", "inline", "ray")


@dataclass
class TournamentResult:
    spec: TournamentSpec
    backend: str
    results: list[GameResult] = field(default_factory=list)
    interrupted: bool = False
    resumed: int = 0
    """Games taken over from an earlier run (``done``) rather than played in this one."""

    @property
    def errors(self) -> list[GameResult]:
        return [r for r in self.results if r.error is not None]

    def summaries(self) -> list[BotSummary]:
        return summarize(self.results, self.spec.bots, lower_is_better=self.spec.lower_is_better())

    def tests(self) -> list[PairedTest]:
        names = list(dict.fromkeys(self.spec.bots))
        return [
            paired_test(self.results, a, b) for i, a in enumerate(names) for b in names[i + 1 :]
        ]

    def to_json(self) -> dict[str, Any]:
        spec = self.spec
        return {
            "game": spec.game,
            "options": dict(spec.options),
            "bots": list(spec.bots),
            "deals": spec.deals,
            "seed": spec.seed,
            "unit": spec.unit,
            "backend": self.backend,
            "interrupted": self.interrupted,
            "resumed": self.resumed,
            "games": len(self.results),
            "errors": [r.to_json() for r in self.errors],
            "summary": [s.to_json() for s in self.summaries()],
            "tests": [t.to_json() for t in self.tests()],
            "results": [r.to_json() for r in self.results],
        }


def _run_job(args: tuple[TournamentSpec, int, int]) -> GameResult:
    spec, deal, rotation = args
    return run_game(spec, deal, rotation)


def _same_rules(game: str, theirs: object, mine: dict[str, Any]) -> bool:
    """Do two option lists give the same rules (e.g. ``match.format = POOL_101`` written by
    an earlier version, and ``POOL`` with ``pool.threshold = 101``)?"""
    from openrummy.errors import ConfigError
    from openrummy.rules import find_preset

    if not isinstance(theirs, dict):
        return False
    try:
        return bool(find_preset(game, theirs).options() == find_preset(game, mine).options())
    except ConfigError:
        return False


def resumable(spec: TournamentSpec, path: Path) -> list[GameResult]:
    """The games of ``spec`` already played in the JSON results file ``path`` (none if
    it does not exist): those of its deals below ``spec.deals`` and of the rotations it
    plays, errors left out (they are played again). ValueError if the file is not such a
    file, or is for another tournament (game, options, bots, seed and unit must be the
    same; the deals may differ)."""
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: not a results file to resume from ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise ValueError(f"{path}: not a results file to resume from (no results list)")
    mine = {
        "game": spec.game,
        "options": dict(spec.options),
        "bots": list(spec.bots),
        "seed": spec.seed,
        "unit": spec.unit,
    }
    for key, want in mine.items():
        if key == "options" and _same_rules(spec.game, data.get(key), dict(spec.options)):
            continue
        if data.get(key) != want:
            raise ValueError(
                f"{path} is for another tournament: its {key} is {data.get(key)!r}, "
                f"this run's is {want!r}"
            )
    games = [GameResult.from_json(r) for r in data["results"]]
    rotations = spec.rotations()  # files written before repeated seatings were skipped hold them
    return [
        g
        for g in games
        if g.error is None
        and g.deal < spec.deals
        and g.rotation in rotations
        and g.seats == spec.seats_for(g.rotation)
    ]


def run_tournament(
    spec: TournamentSpec,
    *,
    workers: int = 1,
    backend: str = "process",
    progress: Callable[[GameResult], None] | None = None,
    done: Sequence[GameResult] = (),
) -> TournamentResult:
    """Play every (deal, rotation) of ``spec`` not in ``done`` (games of an earlier run of
    the same spec, reported with the new ones); ``progress`` is called as games finish."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    spec.validate()
    finished: dict[tuple[int, int], GameResult] = {(r.deal, r.rotation): r for r in done}
    jobs = [job for job in spec.jobs() if job not in finished]
    out = TournamentResult(spec, backend, resumed=len(finished))
    runner = {"process": _process, "inline": _inline, "ray": _ray}[backend]
    games = runner(spec, jobs, workers)
    try:
        for result in games:
            finished[(result.deal, result.rotation)] = result
            if progress is not None:
                progress(result)
    except KeyboardInterrupt:
        out.interrupted = True
    finally:
        games.close()  # a stopped run's workers stop now, not when the generator is freed
    out.results = [finished[k] for k in sorted(finished)]
    return out


Games = Generator[GameResult, None, None]
"""A backend's games as they finish; closing it stops the rest (and its workers)."""


def _inline(spec: TournamentSpec, jobs: list[tuple[int, int]], workers: int) -> Games:
    for deal, rotation in jobs:
        yield run_game(spec, deal, rotation)


def _process(spec: TournamentSpec, jobs: list[tuple[int, int]], workers: int) -> Games:
    if workers <= 1:
        yield from _inline(spec, jobs, workers)
        return
    pool = cf.ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker)
    futures = {pool.submit(_run_job, (spec, d, r)): (d, r) for d, r in jobs}
    complete = False
    try:
        for fut in cf.as_completed(futures):
            deal, rotation = futures[fut]
            try:
                yield fut.result()
            except Exception as e:  # the worker process died (BrokenProcessPool) or similar
                yield GameResult(
                    deal,
                    rotation,
                    spec.seats_for(rotation),
                    error=f"worker failed: {type(e).__name__}: {e}",
                )
        complete = True
    finally:
        if not complete:
            _stop_workers(pool)
        pool.shutdown(wait=False, cancel_futures=True)


def _quiet_worker() -> None:
    """A worker leaves stopping to the parent: Ctrl-C in a terminal reaches every process
    of the group, and a forked worker would inherit the parent's SIGTERM handler."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop_workers(pool: cf.ProcessPoolExecutor) -> None:
    """End a stopped run's workers now: left alone, they play their current games to the
    end (a pool match can take minutes) and the program waits for them at exit."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    # Wait until every one has exited (their sentinels stay open while this list holds
    # them); the pool's own thread reaps them (a join here would race it for the status).
    pending = [process.sentinel for process in processes]
    while pending:
        ready = wait_for(pending)
        pending = [s for s in pending if s not in ready]


def _ray(spec: TournamentSpec, jobs: list[tuple[int, int]], workers: int) -> Games:
    from openrummy.extras import require

    require("ray", "the ray backend")
    import ray  # type: ignore[import-not-found, unused-ignore]

    started = False
    if not ray.is_initialized():
        ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(_run_job)
        pending = {remote.remote((spec, d, r)): (d, r) for d, r in jobs}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            ref = ready[0]
            deal, rotation = pending.pop(ref)
            try:
                yield ray.get(ref)
            except Exception as e:  # a task or worker failure
                yield GameResult(
                    deal, rotation, spec.seats_for(rotation), error=f"worker failed: {e}"
                )
    finally:
        if started:
            ray.shutdown()
