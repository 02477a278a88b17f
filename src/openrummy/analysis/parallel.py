"""A record's analysis in spans of actions, on several processes, with progress per span.

The win-chance estimate of a whole game costs a minute of CPU; its decisions are independent
of each other (each is judged from its own seat's view, with its own seeded samples), so a
record can be cut into spans of actions (:func:`spans`), each span judged by
:func:`analyse_span` in a worker process (it replays the earlier actions without judging
them), and the parts joined again (:func:`merge`). The result is the same as
:func:`~openrummy.analysis.core.analyse_record`'s in one go, decision for decision.

:func:`analyse_parallel` does it on a process pool of its own (``rummy analyse --jobs``); the
server submits the same :func:`analyse_span` jobs to its worker pool and reports the spans
done as the progress bar of the web replay.

:func:`best_steps` words the exact best play of every manipulation decision that missed
one as the table solver's steps (:func:`openrummy.solve.explain`), in English and German.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any

from openrummy.errors import RecordError, RummyError
from openrummy.games.actions import Play
from openrummy.games.manipulation import ManipulationGame
from openrummy.record import GameRecord
from openrummy.rules import ManipulationRules

from .core import AnalysisSettings, GameAnalysis, analyse_record

__all__ = ["analyse_parallel", "analyse_span", "best_steps", "merge", "report", "spans"]

Progress = Callable[[int, int], None]


def spans(total: int, parts: int) -> list[tuple[int, int]]:
    """``total`` actions cut into at most ``parts`` consecutive spans of nearly equal length.

    >>> spans(10, 3)
    [(0, 4), (4, 7), (7, 10)]
    >>> spans(2, 5), spans(0, 3)
    ([(0, 1), (1, 2)], [(0, 0)])
    """
    parts = max(1, min(parts, total))
    if total == 0:
        return [(0, 0)]
    bounds = [total * k // parts for k in range(parts + 1)]
    # the longer spans first: the first span also replays the fewest actions
    sizes = sorted((bounds[k + 1] - bounds[k] for k in range(parts)), reverse=True)
    out: list[tuple[int, int]] = []
    lo = 0
    for n in sizes:
        out.append((lo, lo + n))
        lo += n
    return out


def analyse_span(
    record: dict[str, Any], settings: AnalysisSettings, span: tuple[int, int]
) -> GameAnalysis:
    """The decisions of the actions in ``span`` of the record (its JSON form: picklable)."""
    rec = GameRecord.from_json(record)
    return analyse_record(rec, dataclasses.replace(settings, span=span))


def merge(parts: Sequence[GameAnalysis], settings: AnalysisSettings) -> GameAnalysis:
    """The analyses of a record's spans as one (decisions in the order of the record)."""
    if not parts:
        raise ValueError("nothing to merge")
    decisions = sorted((d for p in parts for d in p.decisions), key=lambda d: d.index)
    return dataclasses.replace(parts[0], decisions=tuple(decisions), settings=settings)


def analyse_parallel(
    record: GameRecord,
    settings: AnalysisSettings,
    *,
    jobs: int = 2,
    progress: Progress | None = None,
) -> GameAnalysis:
    """:func:`~openrummy.analysis.core.analyse_record` on ``jobs`` worker processes.

    ``progress(done, total)`` is called with the actions judged so far, after each span.
    Raises :class:`~openrummy.errors.RecordError` as ``analyse_record`` does (the record is
    replayed once here first, so a bad record fails before any worker starts).
    """
    if jobs <= 1:
        return analyse_record(record, settings, progress=progress)
    analyse_record(record, dataclasses.replace(settings, span=(0, 0)))  # replays, or raises
    total = len(record.actions)
    cut = spans(total, jobs * 4)
    data = record.to_json()
    done = 0
    if progress is not None:
        progress(0, total)
    results: list[GameAnalysis] = []
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=ctx) as pool:
        futures = {pool.submit(analyse_span, data, settings, s): s for s in cut}
        for f in concurrent.futures.as_completed(futures):
            results.append(f.result())
            lo, hi = futures[f]
            done += hi - lo
            if progress is not None:
                progress(done, total)
    return merge(results, settings)


def best_steps(record: GameRecord, analysis: GameAnalysis) -> dict[int, dict[str, list[str]]]:
    """For each decision (by action index) whose exact best play differs from what was
    played: the steps from the table before it to the best play's table, in ``en`` and
    ``de`` (manipulation games; Indian decisions name their best throw or draw instead)."""
    from openrummy.games.actions import parse_action
    from openrummy.solve.explain import explain

    wanted = {d.index: d for d in analysis.decisions if d.best and d.best.startswith("play")}
    out: dict[int, dict[str, list[str]]] = {}
    if not wanted:
        return out
    match = record.new_match()
    rules = match.rules
    if not isinstance(rules, ManipulationRules):
        return out
    last = max(wanted)
    for i, action in enumerate(record.actions):
        if i > last:
            break
        d = wanted.get(i)
        game = match.game
        if d is not None and isinstance(game, ManipulationGame) and d.seat in match.seats:
            local = match.seats.index(d.seat)
            best = d.best or ""
            try:
                play = parse_action(best, seat=local)
                before = game.view(local).table
            except RummyError:
                play = None
            if isinstance(play, Play):
                out[i] = {
                    lang: explain(
                        before,
                        play.table,
                        lang=lang,
                        rules=rules.meld_rules,
                        tiles=bool(getattr(rules, "tiles", False)),
                    )
                    for lang in ("en", "de")
                }
        try:
            match.apply(action)
        except RummyError as e:
            raise RecordError(f"action {i} does not replay: {e}") from e
    return out


def report(
    record: dict[str, Any], parts: Sequence[GameAnalysis], settings: AnalysisSettings
) -> dict[str, Any]:
    """The joined analysis as JSON (:meth:`GameAnalysis.to_json`) with ``steps``: the best
    plays as the solver's steps by action index (:func:`best_steps`), as the web replay
    stores and shows it."""
    rec = GameRecord.from_json(record)
    joined = merge(parts, settings)
    out = joined.to_json()
    out["steps"] = {str(k): v for k, v in best_steps(rec, joined).items()}
    return out
