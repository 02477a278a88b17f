"""An independent integer-programming model of the table problem (HiGHS), for the tests.

It shares nothing with the solver but the rule objects: every candidate meld is written
out (each set: rank, suits of its naturals, number of jokers; each run: suit, first
position, length) with an integer multiplicity, and jokers in runs are counted per run
position. The model is the textbook one (den Hertog & Hulshof 2006) with the project's
rules added: ace modes, ``meld.min_naturals``, ``meld.set_max``, copies, and the opening.

Jokers in runs: for a run candidate used ``y`` times, ``w_i`` copies have a joker at
position ``i``. With ``w_i ≤ y`` and ``Σ w_i ≤ (length − min_naturals)·y`` the jokers can
be dealt out round-robin so that every copy has at most one joker per position and at
least ``min_naturals`` naturals, so the aggregate numbers describe real runs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import highspy
import numpy as np

from openrummy.cards import JOKER, Card, Suit
from openrummy.melds import AceMode
from openrummy.rules.common import DeckKind
from openrummy.rules.manipulation import JokerValue, ManipulationRules, OpeningType


@dataclass(frozen=True)
class Optimum:
    count: int
    value: int


def _runs(rules: ManipulationRules) -> list[tuple[list[int], list[bool]]]:
    """Run shapes of one suit: ranks in order, and whether each ace there counts high."""
    mode = rules.meld.ace_mode
    lo = rules.meld.min_len
    out: list[tuple[list[int], list[bool]]] = []
    if mode is AceMode.WRAPAROUND:
        for start in range(1, 14):
            for ln in range(lo, 14):
                ranks = [((start - 1 + k) % 13) + 1 for k in range(ln)]
                high = [r == 1 and k > 0 for k, r in enumerate(ranks)]
                out.append((ranks, high))
        return out
    top = 14 if mode is AceMode.HIGH_OR_LOW else 13
    for start in range(1, top + 1):
        for ln in range(lo, 14):
            end = start + ln - 1
            if end > top:
                break
            ranks = [1 if p == 14 else p for p in range(start, end + 1)]
            high = [p == 14 for p in range(start, end + 1)]
            out.append((ranks, high))
    if mode is AceMode.HIGH_OR_LOW and rules.meld.ace_both_ends and lo <= 14:
        ranks = [1, *range(2, 14), 1]
        out.append((ranks, [False] + [False] * 12 + [True]))
    return out


def optimum(
    rules: ManipulationRules,
    table: Sequence[Card],
    hand: Sequence[Card],
    *,
    opened: bool = True,
    claim: Optimum | None = None,
) -> Optimum | None:
    """Most hand cards, then most penalty value placed; None if the table is infeasible
    (or, unopened, if no opening exists: the solver then places nothing).

    ``claim`` is a play known to be feasible (the caller checks it with the engine's
    commit checks). If the LP relaxation of this model cannot beat it, it is optimal and
    the integer program is skipped: optimum <= LP bound <= claim <= optimum.
    """
    tiles = rules.deck.kind is DeckKind.TILES
    o = rules.opening
    mode = "none"
    if not opened and o.type is OpeningType.POINTS and o.threshold > 0:
        mode = "points"
    elif not opened and o.type is OpeningType.RUN_FROM_HAND:
        mode = "run"
    untouched = mode != "none" and not o.allow_table_play_same_turn
    if untouched:
        table = []
    tc = Counter(c for c in table if not c.is_joker)
    hc = Counter(c for c in hand if not c.is_joker)
    tj = sum(1 for c in table if c.is_joker)
    hj = sum(1 for c in hand if c.is_joker)
    mn = rules.meld.min_naturals
    big = sum(rules.penalty_value(c) for c in hand) + 1

    def card(s: int, r: int) -> Card:
        return Card(r, Suit(s), tiles)

    def oval(r: int, high: bool) -> int:
        return rules.opening_value_of_card(card(0, r), ace_high=high)

    jfix: int | None = None
    if o.joker_value is JokerValue.PENALTY:
        jfix = rules.scoring.joker_penalty
    elif o.joker_value is JokerValue.ZERO:
        jfix = 0

    # columns
    cost: list[float] = []
    ub: list[float] = []
    # usage rows: natural (s, r) -> {col: coef}; jokers; opening naturals
    use: dict[tuple[int, int], dict[int, float]] = {
        (s, r): {} for s in range(4) for r in range(1, 14)
    }
    ouse: dict[tuple[int, int], dict[int, float]] = {
        (s, r): {} for s in range(4) for r in range(1, 14)
    }
    jrow: dict[int, float] = {}
    ojrow: dict[int, float] = {}
    vrow: dict[int, float] = {}
    runrow: dict[int, float] = {}
    extra_rows: list[tuple[dict[int, float], float, float]] = []

    jt_all = tj + hj
    copies = rules.deck.standard_decks

    def col(c: float = 0.0, u: float = 0.0) -> int:
        u = u or float(copies + jt_all)
        cost.append(c)
        ub.append(u)
        return len(cost) - 1

    tags = (
        [False] if mode == "none" else ([True] if untouched and mode == "points" else [False, True])
    )
    set_max = rules.meld.set_max
    for tag in tags:
        if not (tag and mode == "run"):
            for r in range(1, 14):
                for mask in range(16):
                    suits = [s for s in range(4) if mask >> s & 1]
                    a = len(suits)
                    if a < mn:
                        continue
                    # only melds the available cards could fill (a smaller model, same optimum)
                    if any(tc[card(s, r)] + hc[card(s, r)] == 0 for s in suits):
                        continue
                    for b in range(max(0, 3 - a), min(set_max - a, tj + hj) + 1):
                        y = col()
                        for s in suits:
                            use[(s, r)][y] = 1
                            if tag:
                                ouse[(s, r)][y] = 1
                        if b:
                            jrow[y] = b
                            if tag:
                                ojrow[y] = b
                        if tag:
                            v = oval(r, True)
                            vrow[y] = a * v + b * (v if jfix is None else jfix)
        for ranks, high in _runs(rules):
            ln = len(ranks)
            if ln - mn < 0:
                continue
            # A run of length ln >= 2*max(min_len, min_naturals + k) with k jokers splits
            # into two valid runs (each half keeps at least min_naturals naturals), so a
            # long candidate is only needed with many jokers.
            kmin = ln // 2 - mn + 1 if ln >= 2 * rules.meld.min_len else 0
            if kmin > tj + hj and not (tag and mode == "run"):
                continue
            if tag and mode == "run":
                # an opening run is needed whole: its pieces may be shorter than
                # opening.run_length ([9D 10D JD QD KD AD] with a run length of 5)
                kmin = 0
            for s in range(4):
                missing = sum(1 for r in ranks if tc[card(s, r)] + hc[card(s, r)] == 0)
                if missing > tj + hj or ln - missing < mn:
                    continue
                y = col()
                ws = []
                for r, hi in zip(ranks, high, strict=True):
                    use[(s, r)][y] = use[(s, r)].get(y, 0) + 1
                    if tag:
                        ouse[(s, r)][y] = ouse[(s, r)].get(y, 0) + 1
                        vrow[y] = vrow.get(y, 0) + oval(r, hi)
                    if tj + hj > 0:
                        w = col(u=float(max(jt_all, 1)))
                        ws.append(w)
                        use[(s, r)][w] = use[(s, r)].get(w, 0) - 1
                        jrow[w] = 1
                        if tag:
                            ouse[(s, r)][w] = ouse[(s, r)].get(w, 0) - 1
                            ojrow[w] = 1
                            vrow[w] = (
                                vrow.get(w, 0)
                                - oval(r, hi)
                                + (oval(r, hi) if jfix is None else jfix)
                            )
                        extra_rows.append(({w: 1, y: -1}, -np.inf, 0))
                if ws:
                    row = dict.fromkeys(ws, 1.0)
                    row[y] = -(ln - mn)
                    extra_rows.append((row, -np.inf, 0))
                    if kmin > 0:
                        row2 = dict.fromkeys(ws, 1.0)
                        row2[y] = -kmin
                        extra_rows.append((row2, 0, np.inf))
                if tag and mode == "run" and ln >= o.run_length:
                    runrow[y] = 1
    ncol = len(cost)
    # objective: value of hand naturals used (used - table) and hand jokers used
    obj = [0.0] * ncol
    rows: list[tuple[dict[int, float], float, float]] = []
    for (s, r), terms in use.items():
        c = card(s, r)
        t, h = tc[c], hc[c]
        wgt = big + rules.penalty_value(c)
        for k, coef in terms.items():
            obj[k] += wgt * coef
        rows.append((terms, t, t + h))
        if mode != "none":
            # opening naturals come from the hand: open <= used - t
            d = dict(terms)
            for k, coef in ouse[(s, r)].items():
                d[k] = d.get(k, 0) - coef
            rows.append((d, t, np.inf))
    jw = big + rules.penalty_value(JOKER)
    for k, coef in jrow.items():
        obj[k] += jw * coef
    rows.append((jrow, tj, tj + hj))
    if mode != "none":
        d = dict(jrow)
        for k, coef in ojrow.items():
            d[k] = d.get(k, 0) - coef
        rows.append((d, tj, np.inf))
    if mode == "points":
        rows.append((vrow, o.threshold, np.inf))
    if mode == "run":
        rows.append((runrow, 1, np.inf))
    rows.extend(extra_rows)

    hs = highspy.Highs()  # type: ignore[no-untyped-call]
    hs.silent()
    # No "threads" option: HiGHS has one global thread scheduler per process, and asking for a
    # different thread count after another model (the hand solver's cross-check) started it
    # makes run() fail with status kNotset.
    hs.setOptionValue("mip_rel_gap", 0.0)
    hs.setOptionValue("mip_abs_gap", 0.0)
    inf = highspy.kHighsInf
    hs.addCols(
        ncol,
        np.array([-x for x in obj], dtype=np.float64),
        np.zeros(ncol),
        np.array(ub, dtype=np.float64),
        0,
        np.array([], dtype=np.int32),
        np.array([], dtype=np.int32),
        np.array([], dtype=np.float64),
    )
    starts: list[int] = []
    idx: list[int] = []
    val: list[float] = []
    row_lo: list[float] = []
    row_hi: list[float] = []
    for terms, lb, ubd in rows:
        starts.append(len(idx))
        for k, coef in terms.items():
            if coef:
                idx.append(k)
                val.append(coef)
        row_lo.append(-inf if lb == -np.inf else lb)
        row_hi.append(inf if ubd == np.inf else ubd)
    hs.addRows(
        len(rows),
        np.array(row_lo, dtype=np.float64),
        np.array(row_hi, dtype=np.float64),
        len(idx),
        np.array(starts, dtype=np.int32),
        np.array(idx, dtype=np.int32),
        np.array(val, dtype=np.float64),
    )
    base = sum((big + rules.penalty_value(c)) * n for c, n in tc.items())
    base += (big + rules.penalty_value(JOKER)) * tj
    if claim is not None and (claim.count > 0 or mode == "none"):
        hs.run()
        if hs.getModelStatus() == highspy.HighsModelStatus.kOptimal:
            bound = -hs.getInfo().objective_function_value - base
            if bound < claim.count * big + claim.value + 1 - 1e-6:
                return claim
    hs.changeColsIntegrality(
        ncol, np.arange(ncol, dtype=np.int32), np.array([1] * ncol, dtype=np.uint8)
    )
    hs.run()
    status = hs.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        return None
    score = round(-hs.getInfo().objective_function_value)
    # the objective counts table cards too (used includes them); take them off
    score -= base
    return Optimum(score // big, score % big)
