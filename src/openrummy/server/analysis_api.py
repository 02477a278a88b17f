"""The analysis of a finished game for the web replay (its **Analyse** button).

* ``POST /api/tables/{id}/analysis``: start analysing the table's finished game (202), or
  answer the stored analysis at once (200) when it was made before;
* ``GET  /api/tables/{id}/analysis``: its state, for the page's progress bar: ``none``,
  ``running`` (``done`` of ``total`` actions judged), ``failed`` (with a message) or ``done``
  (with the ``analysis``).

The analysis (:mod:`openrummy.analysis`) runs in the server's worker pool, never on the
event loop: the record is cut into spans of actions (:func:`openrummy.analysis.parallel.spans`),
each judged by a worker job, as many at once as there are workers, and the spans done are the
progress. The joined result (the decisions, grades, accuracy, the best plays as the solver's
steps in English and German) is stored with the game (``rummy_analysis``), so a second visit,
by anyone, shows it at once.

Limits: an analysis costs about a minute of CPU (``docs/analysis.md``), so at most
``analysis_running`` run at once server-wide, and one client address may start
``analysis_burst`` at once and ``analysis_per_hour`` an hour; beyond either a start is
answered ``busy`` (503, with the seconds to wait). Asking for a stored analysis or for the
progress costs nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from openrummy.analysis import AnalysisSettings
from openrummy.analysis.parallel import analyse_span, report, spans
from openrummy.errors import RecordError

from .errors import ServiceError
from .protocol import error_answers
from .service import TableService
from .settings import Settings
from .web import client_key
from .workers import CpuBudget, Workers, busy_error

__all__ = ["Analyses", "analysis_router"]

log = logging.getLogger("openrummy.server")

SPANS_PER_WORKER = 8
"""Spans of actions per worker: the progress bar moves this often per worker, and a helper
request (a hint, a check) waits at most one span for a worker."""


@dataclasses.dataclass
class _Job:
    total: int
    done: int = 0
    failed: str | None = None
    task: asyncio.Task[None] | None = None


class Analyses:
    """The analyses in progress in this server process, and each client's allowance."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.jobs: dict[str, _Job] = {}
        self.budgets: dict[str, CpuBudget] = {}

    def running(self) -> int:
        return sum(1 for j in self.jobs.values() if j.failed is None)

    def admit(self, client: str) -> None:
        """Refuse (``busy``) a new analysis over the server's or the client's limit."""
        s = self.settings
        if self.running() >= max(1, s.analysis_running):
            raise busy_error(10, "the server is analysing other games")
        if not s.limited(client):
            return
        budget = self.budgets.get(client)
        if budget is None:
            if len(self.budgets) >= 4096:
                for key in [k for k, v in self.budgets.items() if v.full]:
                    del self.budgets[key]
            budget = self.budgets[client] = CpuBudget(
                rate=s.analysis_per_hour / 3600.0,
                burst=float(s.analysis_burst),
                clock=time.monotonic,
            )
        budget.ready()  # saves up what the time since the last start allows
        if budget.left < 1.0:
            raise busy_error(
                (1.0 - budget.left) / max(budget.rate, 1e-9),
                "you have started your share of analyses",
            )
        budget.charge(1.0)

    def state(self, table_id: str) -> dict[str, Any]:
        job = self.jobs.get(table_id)
        if job is None:
            return {"status": "none"}
        if job.failed is not None:
            return {"status": "failed", "message": job.failed}
        return {"status": "running", "done": job.done, "total": job.total}

    def start(
        self, table_id: str, record: dict[str, Any], workers: Workers, service: TableService
    ) -> _Job:
        total = len(record.get("actions", []))
        job = self.jobs[table_id] = _Job(total=total)
        job.task = asyncio.create_task(self._run(table_id, job, record, workers, service))
        return job

    async def _run(
        self,
        table_id: str,
        job: _Job,
        record: dict[str, Any],
        workers: Workers,
        service: TableService,
    ) -> None:
        s = self.settings
        settings = AnalysisSettings(
            samples=s.analysis_samples,
            max_samples=s.analysis_max_samples,
            max_turns=s.analysis_max_turns,
        )
        n = max(1, s.workers)
        at_once = asyncio.Semaphore(n)

        async def one(span: tuple[int, int]) -> Any:
            async with at_once:
                part = await workers.background(analyse_span, record, settings, span)
            job.done += span[1] - span[0]
            return part

        try:
            parts = await asyncio.gather(
                *(one(sp) for sp in spans(job.total, n * SPANS_PER_WORKER))
            )
            result = await workers.background(report, record, parts, settings)
            await service.store.put_analysis(table_id, result, at=time.time())
        except RecordError as e:
            job.failed = str(e).splitlines()[0]
            return
        except ServiceError as e:
            job.failed = e.message
            return
        except Exception:  # logged; the page shows that it failed and may start again
            log.exception("the analysis of table %s failed", table_id)
            job.failed = "the analysis failed; try again"
            return
        del self.jobs[table_id]


def _analyses(request: Request) -> Analyses:
    state = request.app.state
    got: Analyses | None = getattr(state, "analyses", None)
    if got is None:
        got = state.analyses = Analyses(state.settings)
    return got


async def _finished_record(service: TableService, table_id: str) -> dict[str, Any]:
    """The table's game record; 404 without a table or a game, 409 while it runs."""
    return await service.record(table_id)


def analysis_router() -> APIRouter:
    router = APIRouter(tags=["watch"])

    @router.get("/api/tables/{table_id}/analysis", responses=error_answers(404, 409))
    async def analysis_state(table_id: str, request: Request) -> dict[str, Any]:
        """The analysis of a finished game: stored (``done``), ``running`` (with how many
        actions of how many are judged), ``failed`` or ``none``."""
        service: TableService = request.app.state.service
        analyses = _analyses(request)
        # the job first: it stores its result before it goes, so without a job the stored
        # analysis is complete (or was never made)
        if table_id in analyses.jobs:
            return analyses.state(table_id)
        stored = await service.store.get_analysis(table_id)
        if stored is not None:
            return {"status": "done", "analysis": stored}
        await _finished_record(service, table_id)
        return analyses.state(table_id)

    @router.post(
        "/api/tables/{table_id}/analysis",
        status_code=202,
        responses=error_answers(404, 409, 503),
    )
    async def analyse(table_id: str, request: Request) -> Any:
        """Analyse the finished game (202: started; 200: already stored, or in progress)."""
        service: TableService = request.app.state.service
        analyses = _analyses(request)
        job = analyses.jobs.get(table_id)
        if job is not None and job.failed is None:
            return JSONResponse(analyses.state(table_id), status_code=200)
        stored = await service.store.get_analysis(table_id)
        if stored is not None:
            return JSONResponse({"status": "done", "analysis": stored}, status_code=200)
        record = await _finished_record(service, table_id)
        job = analyses.jobs.get(table_id)  # another request may have started it meanwhile
        if job is not None and job.failed is None:
            return JSONResponse(analyses.state(table_id), status_code=200)
        analyses.admit(client_key(request))
        workers: Workers = request.app.state.workers
        analyses.start(table_id, record, workers, service)
        return analyses.state(table_id)

    return router
