"""The table solver's second exact method: an integer program over candidate melds (private).

The dynamic program of :mod:`._dp` is fast on almost every position, but its state space
grows with the jokers and with runs over the K–A corner; on a few positions (many jokers,
a long hand, wrap-around aces) it would need gigabytes. :func:`solve_milp` answers the same
question (:class:`CoreProblem` under a :class:`CoreSpec`, maximise the weight of the hand
cards placed) with HiGHS, in bounded memory, and :mod:`.table` switches to it when the
dynamic program exceeds its state budget. Both are exact; the tests compare each of them
with a third, independent model (``tests/helpers/ilp_reference.py``).

The model: one integer multiplicity per candidate meld and tag (a run: suit and window of
positions; a set: rank, the suits of its naturals, its number of jokers); for each run, the
number of its copies that hold a joker at each position (at most the multiplicity, and at
most ``length - min_naturals`` jokers per copy on average: dealt out evenly, every copy is a
valid run). Per card, the naturals in melds equal the table's copies plus the hand copies
placed; the same for jokers. Opening-tagged melds use hand copies and hand jokers only.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import sys
import threading
from dataclasses import dataclass, replace

import highspy
import numpy as np

from openrummy.solve._problem import (
    HIGH,
    LOW,
    NEG,
    OPEN_NONE,
    OPEN_POINTS,
    OPEN_RUN,
    CoreProblem,
    CoreResult,
    CoreSpec,
)

__all__ = ["floor_part", "lp_bound", "solve_milp"]

Item = tuple[int, int, bool, bool]


@dataclass(frozen=True, slots=True)
class _Run:
    suit: int
    ranks: tuple[int, ...]  # rank index 0..12 at each position
    high: tuple[bool, ...]  # an ace after a king
    tag: bool


@dataclass(frozen=True, slots=True)
class _Set:
    rank: int
    suits: tuple[int, ...]
    jokers: int
    tag: bool


_FORCED = -2
"""A run position without a natural available: every copy holds a joker there (no column)."""


def _windows(spec: CoreSpec) -> list[tuple[tuple[int, ...], tuple[bool, ...]]]:
    """Every run window of one suit (ranks and ace-high flags), at most 13 long.

    Longer runs over the corner are never needed: they split into valid runs.
    """
    out: list[tuple[tuple[int, ...], tuple[bool, ...]]] = []
    L = spec.min_len
    if spec.ace == LOW:
        for start in range(13):
            for ln in range(L, 14 - start):
                out.append((tuple(range(start, start + ln)), (False,) * ln))
    elif spec.ace == HIGH:
        # positions 0..13, 13 being the ace after the king
        for start in range(14):
            for ln in range(L, min(13, 14 - start) + 1):
                pos = range(start, start + ln)
                out.append((tuple(p % 13 for p in pos), tuple(p == 13 for p in pos)))
    else:
        for start in range(13):
            for ln in range(L, 14):
                ranks = tuple((start + k) % 13 for k in range(ln))
                out.append((ranks, tuple(r == 0 and k > 0 for k, r in enumerate(ranks))))
    return out


_first = threading.Lock()
_greeted = False


def _highs() -> highspy.Highs:
    """A silent HiGHS instance.

    HiGHS prints its banner to the process's standard output when the first instance is
    made, before any option can be set; that would corrupt the JSON lines of ``rummy
    solve``, and every tournament worker and server would print it too (the relaxation is
    asked on most turns of a real game). The first instance is therefore made with file
    descriptor 1 pointing at the null device.
    """
    global _greeted
    with _first:
        if _greeted:
            hs = highspy.Highs()  # type: ignore[no-untyped-call]
        else:
            sys.stdout.flush()
            saved = os.dup(1)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)
            try:
                hs = highspy.Highs()  # type: ignore[no-untyped-call]
                with contextlib.suppress(OSError, AttributeError):  # no C library here
                    ctypes.CDLL(None).fflush(None)
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            _greeted = True
    hs.setOptionValue("output_flag", False)
    return hs


class _Model:
    """Columns and rows as HiGHS takes them (rows stored compressed as they are added)."""

    def __init__(self) -> None:
        self.obj: list[float] = []
        self.ub: list[float] = []
        self.row_lo: list[float] = []
        self.row_hi: list[float] = []
        self.starts: list[int] = []
        self.idx: list[int] = []
        self.val: list[float] = []

    def var(self, ub: float, obj: float = 0.0) -> int:
        self.obj.append(obj)
        self.ub.append(ub)
        return len(self.obj) - 1

    def row(self, coef: dict[int, float], lo: float, hi: float) -> int:
        self.starts.append(len(self.idx))
        for k, v in coef.items():
            if v:
                self.idx.append(k)
                self.val.append(v)
        self.row_lo.append(lo)
        self.row_hi.append(hi)
        return len(self.starts) - 1

    def row2(self, a: int, ca: float, b: int, cb: float, lo: float, hi: float) -> None:
        """The row ``lo <= ca * a + cb * b <= hi`` (two distinct columns, nonzero)."""
        self.starts.append(len(self.idx))
        self.idx.append(a)
        self.idx.append(b)
        self.val.append(ca)
        self.val.append(cb)
        self.row_lo.append(lo)
        self.row_hi.append(hi)

    def solve(self) -> list[float] | None:
        """The optimal values of the variables, or None if the model has no solution."""
        if not self.obj:
            return []  # nothing to decide (HiGHS calls an empty model "empty", not optimal)
        hs = self._load()
        hs.setOptionValue("mip_rel_gap", 0.0)
        hs.setOptionValue("mip_abs_gap", 0.5)  # the objective is an integer
        n = len(self.obj)
        hs.changeColsIntegrality(n, np.arange(n, dtype=np.int32), np.ones(n, dtype=np.uint8))
        hs.run()
        if hs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        return [float(v) for v in hs.getSolution().col_value]

    def relaxation(self) -> tuple[str, float | None, list[float] | None]:
        """The linear relaxation: ("optimal", its objective, its solution), ("infeasible",
        None, None), or ("unknown", None, None) for any other outcome."""
        if not self.obj:
            return "optimal", 0.0, []
        hs = self._load()
        # HiGHS's presolve took two thirds of a relaxation's time (the columns it removed
        # are gone from the model already: see _FORCED); the simplex alone is 2-3x faster
        hs.setOptionValue("presolve", "off")
        hs.run()
        status = hs.getModelStatus()
        if status == highspy.HighsModelStatus.kOptimal:
            sol = [float(v) for v in hs.getSolution().col_value]
            return "optimal", float(sum(c * v for c, v in zip(self.obj, sol, strict=True))), sol
        if status == highspy.HighsModelStatus.kInfeasible:
            return "infeasible", None, None
        return "unknown", None, None

    def _load(self) -> highspy.Highs:
        inf = highspy.kHighsInf
        hs = _highs()
        n = len(self.obj)
        ub = np.array(self.ub, dtype=np.float64)
        ub[np.isinf(ub)] = inf
        hs.addCols(
            n,
            -np.array(self.obj, dtype=np.float64),
            np.zeros(n),
            ub,
            0,
            np.array([], dtype=np.int32),
            np.array([], dtype=np.int32),
            np.array([], dtype=np.float64),
        )
        if self.starts:
            lo = np.array(self.row_lo, dtype=np.float64)
            hi = np.array(self.row_hi, dtype=np.float64)
            lo[np.isneginf(lo)] = -inf
            hi[np.isposinf(hi)] = inf
            hs.addRows(
                len(self.starts),
                lo,
                hi,
                len(self.idx),
                np.array(self.starts, dtype=np.int32),
                np.array(self.idx, dtype=np.int32),
                np.array(self.val, dtype=np.float64),
            )
        return hs


def solve_milp(prob: CoreProblem, spec: CoreSpec) -> CoreResult:
    """Best total weight of hand cards placed, and melds reaching it (score NEG: impossible)."""
    built = _build(prob, spec)
    if built is None:
        return CoreResult(NEG)
    m, u, uj, runs, sets = built
    sol = m.solve()
    if sol is None:
        return CoreResult(NEG)
    return _result(prob, sol, u, uj, runs, sets)


def lp_bound(prob: CoreProblem, spec: CoreSpec) -> tuple[int | None, CoreResult | None]:
    """The linear relaxation of :func:`solve_milp`'s model: an upper bound on the score
    (NEG: the position has no solution at all; None: HiGHS gave no answer) and, when the
    relaxation's optimum happens to be integral, that solution (then it is optimal).

    The relaxation of a model whose integer optimum is the true optimum bounds it from
    above; the objective's coefficients are integers, so the bound rounds down. On the
    positions where the search has to prove that nothing better exists, the bound is
    usually the optimum itself (docs/solver.md).

    The model comes from this thread's :class:`_Template` of the rules (the position's
    own model, built in Python, where the rules have none).
    """
    tpl = _template(prob, spec)
    if tpl is None:
        return _lp_bound_built(prob, spec)
    status, value, sol = tpl.relaxation(prob)
    if status == "infeasible":
        return NEG, None
    if value is None or sol is None:
        return None, None
    return _bound_of(prob, value, sol, tpl.u, tpl.uj, tpl.runs, tpl.sets)


def _lp_bound_built(prob: CoreProblem, spec: CoreSpec) -> tuple[int | None, CoreResult | None]:
    """:func:`lp_bound` on the position's own model (built for it alone)."""
    built = _build(prob, spec)
    if built is None:
        return NEG, None
    m, u, uj, runs, sets = built
    status, value, sol = m.relaxation()
    if status == "infeasible":
        return NEG, None
    if value is None or sol is None:
        return None, None
    return _bound_of(prob, value, sol, u, uj, runs, sets)


def _bound_of(
    prob: CoreProblem,
    value: float,
    sol: list[float] | np.ndarray[tuple[int], np.dtype[np.float64]],
    u: list[list[int]],
    uj: int,
    runs: list[tuple[_Run, int, list[int]]],
    sets: list[tuple[_Set, int]],
) -> tuple[int | None, CoreResult | None]:
    """The bound of a relaxation's optimum, and its play when it is integral."""
    # HiGHS works to a tolerance of about 1e-7 per row: an integral optimum may come back
    # a hair below its value, and rounding that down would cut off the optimum.
    bound = math.floor(value + 0.05)
    arr = np.asarray(sol)
    if arr.size == 0 or float(np.abs(arr - np.round(arr)).max()) < 1e-6:
        exact = _result(prob, arr.tolist(), u, uj, runs, sets)
        if exact.score == bound:
            return bound, exact
    return bound, None


_BIG = 1 << 20
"""Padding of the templates' index arrays: a count larger than any real one."""

_PAD = 2 * 56 - 1
"""The cell of the templates' padding (tag 1, suit 3, rank index 13: _BIG copies)."""


class _Template:
    """The relaxation of every position of one rule set, as one model.

    The model is :func:`_build`'s for a hand holding one copy of every card, an empty table
    and ``jokers`` hand jokers: every run window of every suit and every set is a column.
    A position only sets bounds: the copies placed of each hand card and of hand jokers
    (at most the hand's), the multiplicity of each meld and its joker columns (0 where the
    position's cards and jokers cannot fill it, as :func:`_build` leaves such a meld out;
    else what :func:`_build` allows), and the table copies of each card and of jokers.
    Where a run window has no natural at a position, :func:`_build` puts a joker in every
    copy (no column); here that joker column is merged into the run's own column. Then the
    columns fixed at 0 and the rows left empty are cut out (numpy, under a millisecond):
    HiGHS gets the position's own model, the same columns and rows in the same order,
    without building it in Python (4-9 ms at 1,500 columns).
    """

    def __init__(self, prob: CoreProblem, spec: CoreSpec, jokers: int) -> None:
        full = CoreProblem(
            table=((0,) * 13,) * 4,
            hand=((1,) * 13,) * 4,
            table_jokers=0,
            hand_jokers=jokers,
            weight=((1,) * 13,) * 4,
            joker_weight=1,
        )
        self.jokers = jokers
        rows: dict[str, int] = {}
        built = _build(full, spec, rows)
        if built is None or built[2] < 0:
            raise ValueError("no template")
        m, self.u, self.uj, self.runs, self.sets = built
        n = self.n = len(m.obj)
        self.min_nat = spec.min_nat
        # the matrix row by row: each entry's row, column, value
        nnz = len(m.idx)
        starts = np.append(np.array(m.starts, dtype=np.int64), nnz)
        self.erow = np.repeat(np.arange(len(m.starts), dtype=np.int64), np.diff(starts))
        self.ecol = np.array(m.idx, dtype=np.int64)
        self.eval = np.array(m.val, dtype=np.float64)
        self.row_lo = np.array(m.row_lo, dtype=np.float64)
        self.row_hi = np.array(m.row_hi, dtype=np.float64)
        # runs: column, tag, length, the jokers a long run must hold (_build leaves it out
        # with fewer), cells (tag * 56 + suit * 14 + rank; _PAD holds _BIG copies), and
        # joker columns (n: none; the column n absorbs the padding)
        nr = len(self.runs)
        self.rx = np.array([x for _r, x, _w in self.runs], dtype=np.int64)
        self.rtag = np.array([r.tag for r, _x, _w in self.runs], dtype=bool)
        self.rlen = np.array([len(r.ranks) for r, _x, _w in self.runs], dtype=np.int64)
        self.rlong = np.array([_long_jokers(spec, r) for r, _x, _w in self.runs], np.int64)
        cells = np.full((nr, 13), _PAD, dtype=np.int64)
        wcols = np.full((nr, 13), n, dtype=np.int64)
        for k, (r, _x, ws) in enumerate(self.runs):
            base = 56 * r.tag + 14 * r.suit
            cells[k, : len(r.ranks)] = [base + q for q in r.ranks]
            wcols[k, : len(ws)] = [w if w >= 0 else n for w in ws]
        self.rcells = cells
        self.rw = wcols
        self.rpad = 13 - self.rlen
        # sets: column, tag, jokers, the cells of their naturals (padded)
        self.sy = np.array([y for _s, y in self.sets], dtype=np.int64)
        self.stag = np.array([st.tag for st, _y in self.sets], dtype=bool)
        self.sk = np.array([st.jokers for st, _y in self.sets], dtype=np.int64)
        scells = np.full((len(self.sets), 4), _PAD, dtype=np.int64)
        for k, (st, _y) in enumerate(self.sets):
            scells[k, : len(st.suits)] = [56 * st.tag + st.rank + 14 * q for q in st.suits]
        self.scells = scells
        self.sempty = np.array([not st.suits for st, _y in self.sets], dtype=bool)
        self.ucols = np.array([self.u[s][r] for s in range(4) for r in range(13)], np.int64)
        self.crow = np.array([rows[f"{s},{r}"] for s in range(4) for r in range(13)], np.int64)
        self.jrow = rows.get("j", -1)
        self.min_len = spec.min_len
        self.open_none = spec.open_mode == OPEN_NONE
        # the last position solved and its solution (n + 1 columns), for :func:`floor_part`
        self.last: tuple[CoreProblem, np.ndarray[tuple[int], np.dtype[np.float64]]] | None = None

    def relaxation(
        self, prob: CoreProblem
    ) -> tuple[str, float | None, np.ndarray[tuple[int], np.dtype[np.float64]] | None]:
        """:meth:`_Model.relaxation` of the position's own model (the solution over the
        template's columns). Only for at most ``jokers`` jokers in all."""
        t = np.array(prob.table, dtype=np.int64)
        h = np.array(prob.hand, dtype=np.int64)
        jh = prob.hand_jokers
        jm = prob.table_jokers + jh
        avail = np.full((2, 4, 14), _BIG, dtype=np.int64)
        avail[0, :, :13] = t + h
        avail[1, :, :13] = h
        flat = avail.reshape(-1)
        n = self.n
        ub = np.zeros(n + 1)
        # runs: what _build keeps, with its multiplicity cap and joker columns
        rj = np.where(self.rtag, jh, jm)
        a = flat[self.rcells]
        pos = a > 0
        present = pos.sum(axis=1) - self.rpad
        cap = np.where(present > 0, np.where(pos, a, _BIG).min(axis=1), 0)
        keep = (present >= self.min_nat) & (self.rlen - present <= rj) & (rj >= self.rlong)
        ub[self.rw] = np.where(keep, rj, 0)[:, None]
        ub[self.rx] = np.where(keep, cap + rj, 0)
        # a kept run's position without a natural: a joker in every copy, its column the
        # run's own (as _build's forced positions)
        forced = (a == 0) & keep[:, None]
        fw = self.rw[forced]
        same = np.arange(n + 1, dtype=np.int64)
        same[fw] = np.broadcast_to(self.rx[:, None], forced.shape)[forced]
        same[n] = n
        # sets: the fewest copies of their naturals (0 if one is missing), jokers allowed
        if self.sy.size:
            sj = np.where(self.stag, jh, jm)
            sa = flat[self.scells].min(axis=1)
            sa = np.where(self.sempty, sj // np.maximum(self.sk, 1), sa)
            ub[self.sy] = np.where(self.sk <= sj, sa, 0)
        ub[self.ucols] = h.reshape(-1)
        ub[self.uj] = jh
        ub[n] = 0
        # the objective: the weight of the hand cards and hand jokers placed
        obj = np.zeros(n)
        obj[self.ucols] = np.array(prob.weight, dtype=np.float64).reshape(-1)
        obj[self.uj] = prob.joker_weight
        lo_r = self.row_lo.copy()
        hi_r = self.row_hi.copy()
        lo_r[self.crow] = hi_r[self.crow] = t.reshape(-1)
        if self.jrow >= 0:
            lo_r[self.jrow] = hi_r[self.jrow] = prob.table_jokers
        # cut out the columns fixed at 0 and the forced joker columns (their entries go
        # to their run's column), and the rows left empty
        live = ub > 0
        live[fw] = False
        cols = np.flatnonzero(live)
        ecol = same[self.ecol]
        ent = live[ecol]
        key = self.erow[ent] * (n + 1) + ecol[ent]
        keys, where = np.unique(key, return_inverse=True)
        vals = np.bincount(where, weights=self.eval[ent], minlength=keys.size)
        nz = vals != 0
        keys, vals = keys[nz], vals[nz]
        counts = np.bincount(keys // (n + 1), minlength=self.row_lo.size)
        rows = counts > 0
        if np.any(~rows & ((lo_r > 0) | (hi_r < 0))):
            return "infeasible", None, None  # a row no column can satisfy
        if cols.size == 0:
            return "optimal", 0.0, np.zeros(n)
        cmap = np.cumsum(live) - 1
        nrow = int(rows.sum())
        a_start = np.zeros(nrow, dtype=np.int32)  # each row's first entry
        np.cumsum(counts[rows][:-1], out=a_start[1:])
        a_index = cmap[keys % (n + 1)].astype(np.int32)
        inf = highspy.kHighsInf
        lo = np.where(np.isneginf(lo_r[rows]), -inf, lo_r[rows])
        hi = np.where(np.isposinf(hi_r[rows]), inf, hi_r[rows])
        ncol = int(cols.size)
        hs = _highs()
        hs.setOptionValue("presolve", "off")  # see _Model.relaxation
        passed = hs.passModel(
            ncol, nrow, int(vals.size), _ROWWISE, _MINIMIZE, 0.0,
            -obj[cols], np.zeros(ncol), ub[cols], lo, hi,
            a_start, a_index, vals, np.zeros(ncol, dtype=np.int32),
        )  # fmt: skip
        if passed != highspy.HighsStatus.kOk:
            return "unknown", None, None
        hs.run()
        status = hs.getModelStatus()
        if status == highspy.HighsModelStatus.kOptimal:
            sol = np.zeros(n + 1)
            sol[cols] = np.asarray(hs.getSolution().col_value, dtype=np.float64)
            sol[fw] = sol[same[fw]]
            self.last = (prob, sol)
            return "optimal", float(obj @ sol[:n]), sol[:n]
        if status == highspy.HighsModelStatus.kInfeasible:
            return "infeasible", None, None
        return "unknown", None, None


def _long_jokers(spec: CoreSpec, run: _Run) -> int:
    """The jokers :func:`_build` asks of a run of ``2 * min_len`` or more cards that would
    split into two valid runs (it keeps it only with that many jokers), else 0."""
    ln = len(run.ranks)
    keep_long = (
        spec.min_nat >= 2
        or (run.tag and spec.open_mode == OPEN_RUN)
        or (run.tag and spec.open_mode == OPEN_POINTS and spec.ace != LOW)
    )
    if ln < 2 * spec.min_len or keep_long:
        return 0
    return ln - spec.min_len


def floor_part(prob: CoreProblem, spec: CoreSpec) -> tuple[CoreResult, CoreProblem] | None:
    """The whole copies of the joker-free melds in the last relaxation's solution of this
    position (this thread's template), and the rest of the position without their cards:
    ``(melds, rest)``, the melds' score the weight of the hand cards they hold. None when
    the last solution is not this position's, an opening rule is in force, or no such
    copy exists.

    A play of the rest worth the relaxation's bound minus the melds' score, joined to the
    melds, reaches the bound, so it is optimal (:meth:`._Solver.upper` in
    :mod:`.table` asks the search for one, with a small budget): the relaxation's solution,
    rounded down and repaired. When the bound is tight but the solution fractional, the
    search itself often needs thousands of states to find a play reaching the bound.
    """
    tpl = _template(prob, spec)
    if tpl is None or tpl.last is None or tpl.last[0] is not prob or not tpl.open_none:
        return None
    sol = tpl.last[1]
    n = tpl.n
    ext = np.append(sol[:n], 0.0)
    # a run's copies without a joker: the fewest naturals it holds at any position
    nat = ext[tpl.rx][:, None] - ext[tpl.rw]
    runs = np.floor(np.maximum(nat.min(axis=1), 0.0) + 1e-6)
    sets = np.where(tpl.sk == 0, np.floor(ext[tpl.sy] + 1e-6), 0.0)
    if not runs.any() and not sets.any():
        return None
    used = np.zeros(2 * 56, dtype=np.int64)
    cells = tpl.rcells[:, :13]
    np.add.at(used, cells.reshape(-1), np.repeat(runs.astype(np.int64), 13))
    if tpl.sy.size:
        np.add.at(used, tpl.scells.reshape(-1), np.repeat(sets.astype(np.int64), 4))
    used = used[:56].reshape(4, 14)[:, :13]
    t = np.array(prob.table, dtype=np.int64)
    h = np.array(prob.hand, dtype=np.int64)
    if np.any(used > t + h):
        return None  # the relaxation's tolerance: not worth repairing
    hand = np.maximum(used - t, 0)
    whole = np.zeros(n)
    whole[tpl.rx] = runs
    whole[tpl.sy] = sets
    whole[tpl.ucols] = hand.reshape(-1)
    melds = _result(prob, whole.tolist(), tpl.u, tpl.uj, tpl.runs, tpl.sets)
    rest = replace(
        prob,
        table=tuple(tuple(int(v) for v in row) for row in np.maximum(t - used, 0)),
        hand=tuple(tuple(int(v) for v in row) for row in h - hand),
    )
    return melds, rest


_ROWWISE = int(highspy.MatrixFormat.kRowwise)
_MINIMIZE = int(highspy.ObjSense.kMinimize)
_templates = threading.local()


def _template(prob: CoreProblem, spec: CoreSpec) -> _Template | None:
    """This thread's :class:`_Template` for the position's rules (None: the rules allow
    none, e.g. a run opening longer than any window), made for at least 6 jokers and at
    least the position's."""
    table: dict[CoreSpec, _Template | None] | None = getattr(_templates, "table", None)
    if table is None:
        table = _templates.table = {}
    key = spec
    jm = prob.table_jokers + prob.hand_jokers
    if key in table:
        got = table[key]
        if got is None or got.jokers >= jm:
            return got
    if len(table) >= 16:
        table.clear()
    try:
        tpl: _Template | None = _Template(prob, spec, max(jm, 6))
    except ValueError:
        tpl = None
    table[key] = tpl
    return tpl


_Built = tuple[
    "_Model", list[list[int]], int, list[tuple["_Run", int, list[int]]], list[tuple["_Set", int]]
]


def _build(prob: CoreProblem, spec: CoreSpec, rows: dict[str, int] | None = None) -> _Built | None:
    """The integer program of a position (None: it has no solution, seen while building).

    ``rows``, if given, receives the row of each card (``"s,r"``: its copies in melds) and
    of the jokers (``"j"``), for :class:`_Template`."""
    t, h = prob.table, prob.hand
    jt, jh = prob.table_jokers, prob.hand_jokers
    jm = jt + jh
    M = spec.min_nat
    m = _Model()
    # hand copies placed, hand jokers placed
    u = [
        [m.var(h[s][r], prob.weight[s][r]) if h[s][r] else -1 for r in range(13)] for s in range(4)
    ]
    uj = m.var(jh, prob.joker_weight) if jh else -1
    tags = (False,) if spec.open_mode == OPEN_NONE else (True,) if spec.open_all else (False, True)

    def avail(s: int, r: int, tag: bool) -> int:
        return h[s][r] if tag else t[s][r] + h[s][r]

    # per card: (variable, coefficient) of every natural use, split by tag
    uses: dict[tuple[int, int, bool], dict[int, float]] = {}
    jokers_in: dict[bool, dict[int, float]] = {False: {}, True: {}}
    value_row: dict[int, float] = {}
    open_runs: dict[int, float] = {}
    runs: list[tuple[_Run, int, list[int]]] = []
    sets: list[tuple[_Set, int]] = []

    def add(d: dict[int, float], k: int, v: float) -> None:
        d[k] = d.get(k, 0.0) + v

    def worth(r: int, high: bool) -> tuple[int, int]:
        v = spec.open_ace_high if r == 0 and high else spec.open_value[r]
        return v, v if spec.open_joker is None else spec.open_joker

    for tag in tags:
        jokers = jh if tag else jm
        # Runs of 2L or more cards that split into two valid runs are left out (their
        # pieces are candidates too): fewer, less symmetric candidates make HiGHS much
        # faster. With min_naturals 0 every such run splits; with 1, a run that does not
        # has all its naturals among its first or last L cards, so at least ln - L jokers.
        # Opening runs keep every length where a piece could lose something: the run
        # opening's required length, or an ace's value after the K with cyclic aces.
        keep_long = (
            M >= 2
            or (tag and spec.open_mode == OPEN_RUN)
            or (tag and spec.open_mode == OPEN_POINTS and spec.ace != LOW)
        )
        for ranks, high in _windows(spec):
            ln = len(ranks)
            if ln - M < 0 or (tag and spec.open_mode == OPEN_RUN and ln < spec.run_length):
                continue
            long_min_jokers = 0
            if ln >= 2 * spec.min_len and not keep_long:
                if M == 0 or jokers < ln - spec.min_len:
                    continue
                long_min_jokers = ln - spec.min_len
            for s in range(4):
                have = [avail(s, r, tag) for r in ranks]
                present = sum(1 for a in have if a > 0)
                if present < M or ln - present > jokers:
                    continue  # also drops joker-only windows without enough jokers
                cap = min([a for a in have if a > 0] or [0])
                x = m.var(cap + jokers)
                ws: list[int] = []
                forced = 0
                for r, hi, a in zip(ranks, high, have, strict=True):
                    if a == 0:
                        # no natural here (the filter above left jokers for it): a joker in
                        # every copy, counted on x itself (no column of its own)
                        ws.append(_FORCED)
                        forced += 1
                        add(jokers_in[tag], x, 1)
                        if tag and spec.open_mode == OPEN_POINTS:
                            add(value_row, x, worth(r, hi)[1])
                        continue
                    w = m.var(jokers) if jokers else -1
                    ws.append(w)
                    add(uses.setdefault((s, r, tag), {}), x, 1)
                    if w >= 0:
                        add(uses[(s, r, tag)], w, -1)
                        m.row2(w, 1.0, x, -1.0, -np.inf, 0)  # one joker per copy here
                        add(jokers_in[tag], w, 1)
                    if tag and spec.open_mode == OPEN_POINTS:
                        v, jv = worth(r, hi)
                        add(value_row, x, v)
                        if w >= 0:
                            add(value_row, w, jv - v)
                live = [w for w in ws if w >= 0]
                if live or forced:
                    # at most ln - M jokers per copy (forced ones included)
                    row = dict.fromkeys(live, 1.0)
                    row[x] = forced - (ln - M)
                    m.row(row, -np.inf, 0)
                    if long_min_jokers:
                        row = dict.fromkeys(live, 1.0)
                        row[x] = forced - long_min_jokers
                        m.row(row, 0, np.inf)
                if tag and spec.open_mode == OPEN_RUN:
                    open_runs[x] = 1
                runs.append((_Run(s, ranks, high, tag), x, ws))
        if tag and spec.open_mode == OPEN_RUN:
            continue  # the run opening tags runs only
        for r in range(13):
            have = [s for s in range(4) if avail(s, r, tag) > 0]
            for mask in range(1 << len(have)):
                suits = tuple(have[i] for i in range(len(have)) if mask >> i & 1)
                a = len(suits)
                if a < M:
                    continue
                for k in range(max(0, 3 - a), min(jokers, spec.set_max - a) + 1):
                    if a + k < 3 or a + k > spec.set_max:
                        continue
                    cap = min([avail(s, r, tag) for s in suits] or [jokers // max(k, 1)])
                    y = m.var(cap)
                    for s in suits:
                        add(uses.setdefault((s, r, tag), {}), y, 1)
                    if k:
                        add(jokers_in[tag], y, k)
                    if tag and spec.open_mode == OPEN_POINTS:
                        v, jv = worth(r, True)
                        add(value_row, y, a * v + k * jv)
                    sets.append((_Set(r, suits, k, tag), y))

    # every table copy on the table, hand copies as chosen; opening melds from the hand only
    for s in range(4):
        for r in range(13):
            both = dict(uses.get((s, r, False), {}))
            for col, c in uses.get((s, r, True), {}).items():
                add(both, col, c)
            if u[s][r] >= 0:
                add(both, u[s][r], -1)
            if not both and t[s][r]:
                return None
            if both:
                k = m.row(both, t[s][r], t[s][r])
                if rows is not None:
                    rows[f"{s},{r}"] = k
            tagged = dict(uses.get((s, r, True), {}))
            if tagged:
                if u[s][r] >= 0:
                    add(tagged, u[s][r], -1)
                m.row(tagged, -np.inf, 0)
    all_j = dict(jokers_in[False])
    for col, c in jokers_in[True].items():
        add(all_j, col, c)
    if uj >= 0:
        add(all_j, uj, -1)
    if all_j:
        k = m.row(all_j, jt, jt)
        if rows is not None:
            rows["j"] = k
    elif jt:
        return None
    if jokers_in[True]:
        tj = dict(jokers_in[True])
        if uj >= 0:
            add(tj, uj, -1)
        m.row(tj, -np.inf, 0)
    if spec.open_mode == OPEN_POINTS:
        if spec.threshold > 0:
            if not value_row:
                return None
            m.row(value_row, spec.threshold, np.inf)
    elif spec.open_mode == OPEN_RUN:
        if not open_runs:
            return None
        m.row(open_runs, 1, np.inf)

    return m, u, uj, runs, sets


def _result(
    prob: CoreProblem,
    sol: list[float],
    u: list[list[int]],
    uj: int,
    runs: list[tuple[_Run, int, list[int]]],
    sets: list[tuple[_Set, int]],
) -> CoreResult:
    """The score and melds of an integer solution."""
    score = sum(
        round(sol[u[s][r]]) * prob.weight[s][r] for s in range(4) for r in range(13) if u[s][r] >= 0
    )
    if uj >= 0:
        score += round(sol[uj]) * prob.joker_weight
    melds: list[tuple[bool, list[Item]]] = []
    for run, x, ws in runs:
        n = round(sol[x])
        if n <= 0:
            continue
        copies: list[list[Item]] = [[] for _ in range(n)]
        held = [0] * n
        for pos, r in enumerate(run.ranks):
            w = n if ws[pos] == _FORCED else round(sol[ws[pos]]) if ws[pos] >= 0 else 0
            # the jokers of this position go to the copies holding fewest so far
            order = sorted(range(n), key=lambda c: (held[c], c))
            with_joker = set(order[:w])
            for c in range(n):
                joker = c in with_joker
                held[c] += joker
                copies[c].append((run.suit, r + 1, joker, run.tag))
        melds.extend((True, items) for items in copies)
    for st, y in sets:
        n = round(sol[y])
        missing = [s for s in range(4) if s not in st.suits] or [0, 1, 2, 3]
        for _ in range(max(0, n)):
            items = [(s, st.rank + 1, False, st.tag) for s in st.suits]
            items += [
                (missing[i % len(missing)], st.rank + 1, True, st.tag) for i in range(st.jokers)
            ]
            melds.append((False, items))
    return CoreResult(score, melds)
