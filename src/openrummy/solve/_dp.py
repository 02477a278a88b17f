"""The exact core of the table solver: a dynamic program over ranks (private).

Inputs are count arrays, not cards: ``table[s][r]`` and ``hand[s][r]`` copies of each
natural (suit ``s`` 0..3, rank index ``r`` 0..12 = A..K), jokers on the table and in the
hand, and a weight per hand card. The program chooses how many copies of each natural
to use (all table copies, any number of hand copies) and how to cut them into runs and
sets, maximising the total weight of the hand cards placed. ``docs/solver.md`` explains
the state and why nothing is lost; in short:

* Positions are ranks in cycle order. At each position, suit by suit, every open run
  either ends (if it is long enough and has enough naturals), or takes one card of this
  suit and rank, a natural or a joker; new runs may start. The naturals left for sets
  are counted per suit, and after the fourth suit a precomputed table says how many
  jokers can join them in valid sets.
* An open run is a *label*: its length and natural count, both capped at what the rules
  need (``min_len``, ``min_naturals``), plus an "opening" tag. Runs with equal labels are
  interchangeable, so a suit's state is a sorted tuple of labels with no limit on how
  many runs are open: with jokers a suit may need more runs than it has copies.
* Runs over the K–A boundary (high-or-low and wrap-around aces) are cut there: runs that
  cross enter the first position as *debts*; how many per suit is guessed at the start,
  and at the end the runs leaving the last position must pair with them. A run longer
  than 13 that this allows is split into valid runs afterwards (always possible when
  ``min_len`` ≤ 5 with at most 6 jokers; otherwise lengths are tracked exactly).
* The value of the best completion of a state is memoised (top-down search), and the
  search stops early at a state as soon as one completion places every remaining hand
  card: nothing can beat that.

The opening (RULES.md §2.3) adds an accumulated opening value (capped at the threshold)
or a "run from hand done" flag to the state, and "opening" tags on runs and sets: tagged
melds may use hand cards and hand jokers only.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import product
from typing import Any, NoReturn

from openrummy.solve._problem import (
    HIGH,
    LOW,
    NEG,
    OPEN_NONE,
    OPEN_POINTS,
    OPEN_RUN,
    WRAP,
    BudgetExceeded,
    CoreProblem,
    CoreResult,
    CoreSpec,
    Prover,
    set_jokers,
    set_melds,
    split_run,
    tracked_naturals,
)
from openrummy.solve.compiled import available as compiled_available
from openrummy.solve.settings import DEFAULT_SETTINGS, SolverSettings

__all__ = ["mirrored", "solve_core"]

# Label bits: length (4 bits), naturals (2 bits), opening tag, debt flag.
_LEN = 0xF
_NAT_SHIFT = 4
_TAG = 1 << 6
_DEBT = 1 << 7


# -- the search ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Move:
    """What one suit does at one position."""

    runs: tuple[int, ...]  # labels after this position (sorted)
    closed_debts: tuple[int, ...]  # debt labels that ended before this position
    jokers: int  # jokers taken by runs of this suit here
    open_jokers: int  # of which in opening runs
    set_nat: int  # naturals of this suit left for normal sets
    open_set_nat: int  # naturals for opening sets
    used: int  # naturals used in all (runs + sets)
    open_cont: int  # opening-run cards that continue a run (ace: high)
    open_start: int  # opening-run cards that start a run
    open_cont_j: int
    open_start_j: int
    done: bool  # an opening run of the required length ended here
    # decision detail for reconstruction: per incoming label (label, ends, nat, joker)
    detail: tuple[tuple[int, int, int, int], ...]
    starts: tuple[tuple[bool, bool, int, int], ...]  # (tag, debt, with natural, with joker)


class _Search:
    def __init__(self, prob: CoreProblem, spec: CoreSpec, order: tuple[int, ...]) -> None:
        self.p = prob
        self.s = spec
        self.order = order  # rank index at each position
        self.L = spec.min_len
        jm = prob.table_jokers + prob.hand_jokers
        self.M = tracked_naturals(prob, spec)
        self.M_real = spec.min_nat
        cyclic = spec.ace != LOW
        self.exact_len = cyclic and self.L > 5
        self.cap = 14 if self.exact_len else self.L
        self.cap_open = self.cap
        if spec.open_mode == OPEN_RUN:
            self.cap_open = max(self.cap, min(spec.run_length, 14))
        self.jt = prob.table_jokers
        self.jmax = prob.table_jokers + prob.hand_jokers
        self.jh = prob.hand_jokers
        self.tags = (
            (False,) if spec.open_mode == OPEN_NONE else (True,) if spec.open_all else (False, True)
        )
        self.memo: dict[tuple[object, ...], list[Any]] = {}
        self.budget = 1 << 62
        self.best = False  # the best mode: after a yes, go on looking for better
        # suffix upper bound on the weight of hand naturals from (position, suit) on
        n = len(order)
        self.suffix = [[0] * 5 for _ in range(n + 1)]
        for pos in range(n - 1, -1, -1):
            r = order[pos]
            acc = self.suffix[pos + 1][0]
            self.suffix[pos][4] = acc
            for s in range(3, -1, -1):
                acc += prob.hand[s][r] * prob.weight[s][r]
                self.suffix[pos][s] = acc
        self.move_cache: dict[tuple[object, ...], list[_Move]] = {}
        # at most this many naturals of a suit can go to sets at a position: each set
        # needs two more items, from other suits or jokers
        self.set_cap = []
        for pos in range(n):
            r = order[pos]
            av = [prob.table[s][r] + prob.hand[s][r] for s in range(4)]
            row = []
            for s in range(4):
                others = sum(1 for x in range(4) if x != s and av[x] > 0)
                other_cards = sum(av[x] for x in range(4) if x != s)
                if others + jm < 2 or spec.set_max < 3:
                    row.append(0)
                else:
                    row.append(min(av[s], (other_cards + jm) // 2))
            self.set_cap.append(row)
        # cards of each suit at the next position (naturals available), for the lookahead
        self.next_avail = [
            [
                prob.table[s][order[pos + 1]] + prob.hand[s][order[pos + 1]] if pos + 1 < n else -1
                for s in range(4)
            ]
            for pos in range(n)
        ]

    # -- labels --------------------------------------------------------------------------
    def closable(self, lab: int) -> bool:
        if lab & _DEBT:
            return (lab & _LEN) >= 1
        ln = lab & _LEN
        if ln < self.L or (lab >> _NAT_SHIFT) & 3 < self.M:
            return False
        return not (lab & _TAG and self.s.open_mode == OPEN_RUN and ln < self.s.run_length)

    def grow(self, lab: int, natural: bool) -> int:
        """The label after one more card, or -1 if the run would be too long."""
        ln = lab & _LEN
        cap = self.cap_open if lab & _TAG else self.cap
        if lab & _DEBT:
            cap = 14 if self.exact_len else max(self.cap_open, self.cap)
        if self.exact_len and ln + 1 > 13:
            return -1
        ln = min(ln + 1, cap)
        nat = (lab >> _NAT_SHIFT) & 3
        if natural:
            nat = min(nat + 1, self.M)
        return (lab & (_TAG | _DEBT)) | (nat << _NAT_SHIFT) | ln

    # -- per-suit moves ------------------------------------------------------------------
    def moves(
        self,
        runs: tuple[int, ...],
        t: int,
        h: int,
        jleft: int,
        jo_left: int,
        pos: int,
        open_free: bool,
        suit: int,
    ) -> list[_Move]:
        nxt = self.next_avail[pos][suit]
        set_cap = self.set_cap[pos][suit]
        key = (runs, t, h, jleft, jo_left, pos == 0, pos == 1, open_free, nxt, set_cap)
        got = self.move_cache.get(key)
        if got is None:
            got = []
            for mv in self._gen_moves(runs, t, h, jleft, jo_left, pos, open_free, set_cap):
                # runs that cannot end yet need a card of this suit at the next position
                needy = sum(1 for lab in mv.runs if not self.closable(lab))
                if needy:
                    if nxt < 0 and self.s.ace == LOW:
                        continue
                    if nxt >= 0 and needy > nxt + jleft - mv.jokers:
                        continue
                got.append(mv)
            # most hand cards first, then fewest jokers: good plays are found early, and
            # the search stops at a state once every remaining hand card is placed
            got.sort(key=lambda m: (-m.used, m.jokers, len(m.runs)))
            self.move_cache[key] = got
        return got

    def _gen_moves(
        self,
        runs: tuple[int, ...],
        t: int,
        h: int,
        jleft: int,
        jo_left: int,
        pos: int,
        open_free: bool,
        set_cap: int,
    ) -> Iterator[_Move]:
        spec = self.s
        avail = t + h
        labels: list[tuple[int, int]] = []
        for lab in runs:
            if labels and labels[-1][0] == lab:
                labels[-1] = (lab, labels[-1][1] + 1)
            else:
                labels.append((lab, 1))
        # options per distinct label: (ends, naturals, jokers)
        per_label: list[list[tuple[int, int, int]]] = []
        for lab, m in labels:
            opts = []
            is_debt = bool(lab & _DEBT)
            must_take = is_debt and pos == 0
            must_end = is_debt and spec.ace == HIGH and pos == 1
            can_end = self.closable(lab) and not must_take
            tagged = bool(lab & _TAG)
            for e in range(m + 1):
                if e and not can_end:
                    break
                if must_end and e != m:
                    continue
                for a in range(m - e + 1):
                    b = m - e - a
                    if b and self.grow(lab, False) < 0:
                        continue
                    if a and self.grow(lab, True) < 0:
                        continue
                    if a > avail or b > jleft or (tagged and (a > h or b > jo_left)):
                        continue
                    opts.append((e, a, b))
            if not opts:
                return
            per_label.append(opts)
        tags = self.tags
        for combo in product(*per_label):
            nat_used = 0
            jok_used = 0
            onat = 0
            ojok = 0
            ends_closable = [False, False]
            new_runs: list[int] = []
            closed: list[int] = []
            ok = True
            for (lab, _m), (e, a, b) in zip(labels, combo, strict=True):
                tg = 1 if lab & _TAG else 0
                nat_used += a
                jok_used += b
                if tg:
                    onat += a
                    ojok += b
                if e:
                    if lab & _DEBT:
                        closed.extend([lab] * e)
                    else:
                        ends_closable[tg] = True
                if a:
                    new_runs.extend([self.grow(lab, True)] * a)
                if b:
                    new_runs.extend([self.grow(lab, False)] * b)
            if nat_used > avail or jok_used > jleft or onat > h or ojok > jo_left:
                continue
            done_now = False
            if spec.open_mode == OPEN_RUN:
                done_now = any(
                    (lab & _TAG) and e > 0
                    for (lab, _m), (e, _a, _b) in zip(labels, combo, strict=True)
                )
            if not ok:
                continue
            cont_open = onat + ojok
            # starts, per tag; at the first position of a cycle also debts, that is runs
            # that come over the K-A boundary (paired with a leaving run at the end)
            debt_kinds = (False, True) if pos == 0 and spec.ace != LOW else (False,)
            start_opts: list[list[tuple[bool, bool, int, int]]] = []
            for tg_b in tags:
                tg = 1 if tg_b else 0
                lst: list[tuple[bool, bool, int, int]] = []
                if tg_b and spec.open_mode == OPEN_RUN:
                    # one opening run at a time is enough for the rule
                    if not open_free or any(lab & _TAG for lab in new_runs):
                        lst.append((tg_b, False, 0, 0))
                        start_opts.append(lst)
                        continue
                    max_starts = 1
                else:
                    max_starts = 99
                # dominance: ending a full run and starting a new one of the same tag is
                # never better than continuing it (lengths are capped, so equal labels).
                if ends_closable[tg] and not self.exact_len:
                    lst.append((tg_b, False, 0, 0))
                    start_opts.append(lst)
                    continue
                for debt in debt_kinds:
                    for sn in range(avail - nat_used + 1):
                        for sj in range(jleft - jok_used + 1):
                            if sn + sj > max_starts:
                                break
                            if debt and sn + sj == 0:
                                continue
                            lst.append((tg_b, debt, sn, sj))
                if len(debt_kinds) == 2:
                    # a normal start and a debt start together: combine the two lists
                    normal = [x for x in lst if not x[1]]
                    debts = [x for x in lst if x[1]]
                    start_opts.append(normal)
                    start_opts.append([(tg_b, True, 0, 0), *debts])
                else:
                    start_opts.append(lst)
            for starts in product(*start_opts):
                sn_tot = nat_used
                sj_tot = jok_used
                o_n = onat
                o_j = ojok
                runs2 = list(new_runs)
                o_start = 0
                o_start_j = 0
                o_cont_extra = 0
                o_cont_extra_j = 0
                n_open_starts = 0
                for tg_b, debt, sn, sj in starts:
                    sn_tot += sn
                    sj_tot += sj
                    base = (_TAG if tg_b else 0) | (_DEBT if debt else 0)
                    if sn:
                        runs2.extend([base | (min(1, self.M) << _NAT_SHIFT) | 1] * sn)
                    if sj:
                        runs2.extend([base | 1] * sj)
                    if tg_b:
                        n_open_starts += sn + sj
                        o_n += sn
                        o_j += sj
                        if debt:
                            # a debt's card follows a king: an ace there counts high
                            o_cont_extra += sn
                            o_cont_extra_j += sj
                        else:
                            o_start += sn
                            o_start_j += sj
                if spec.open_mode == OPEN_RUN and n_open_starts > 1:
                    continue
                if sn_tot > avail or sj_tot > jleft or o_j > jo_left:
                    continue
                runs_t = tuple(sorted(runs2))
                free = avail - sn_tot
                open_sets = spec.open_mode == OPEN_POINTS
                scap = min(free, set_cap)
                for ns in range(scap + 1):
                    for nso in range((scap - ns if open_sets else 0) + 1):
                        used = sn_tot + ns + nso
                        if used < t:
                            continue
                        if spec.open_all and ns:
                            continue
                        # opening melds use hand copies only
                        if o_n + nso > used - t:
                            continue
                        yield _Move(
                            runs=runs_t,
                            closed_debts=tuple(sorted(closed)),
                            jokers=sj_tot,
                            open_jokers=o_j,
                            set_nat=ns,
                            open_set_nat=nso,
                            used=used,
                            open_cont=cont_open - ojok + o_cont_extra,
                            open_start=o_start,
                            open_cont_j=ojok + o_cont_extra_j,
                            open_start_j=o_start_j,
                            done=done_now,
                            detail=tuple(
                                (lab, e, a, b)
                                for (lab, _m), (e, a, b) in zip(labels, combo, strict=True)
                            ),
                            starts=tuple(starts),
                        )

    # -- values --------------------------------------------------------------------------
    def run_value(self, rank: int, mv: _Move) -> int:
        spec = self.s
        low = spec.open_value[rank]
        high = spec.open_ace_high if rank == 0 else low
        jv_low = low if spec.open_joker is None else spec.open_joker
        jv_high = high if spec.open_joker is None else spec.open_joker
        return (
            mv.open_cont * high
            + mv.open_start * low
            + mv.open_cont_j * jv_high
            + mv.open_start_j * jv_low
        )

    def set_value(self, rank: int, naturals: int, jokers: int) -> int:
        spec = self.s
        v = spec.open_ace_high if rank == 0 else spec.open_value[rank]
        jv = v if spec.open_joker is None else spec.open_joker
        return naturals * v + jokers * jv

    # -- recursion -----------------------------------------------------------------------
    def joker_gain(self, j: int, dj: int) -> int:
        """Weight of the hand jokers among ``dj`` more jokers placed after ``j``.

        The first ``table_jokers`` jokers placed are the table's (they must all be), the
        rest come from the hand: jokers are alike, so this is the whole story.
        """
        return (max(0, j + dj - self.jt) - max(0, j - self.jt)) * self.p.joker_weight

    def node_ub(self, pos: int, suit: int, j: int) -> int:
        """Upper bound on what the rest can add: every remaining hand card and joker."""
        return self.suffix[pos][suit] + (self.jmax - max(j, self.jt)) * self.p.joker_weight

    def test(
        self,
        pos: int,
        suit: int,
        runs: tuple[tuple[int, ...], ...],
        req: tuple[tuple[int, ...], ...],
        j: int,
        jo: int,
        val: int,
        done: bool,
        nsets: tuple[int, ...],
        osets: tuple[int, ...],
        need: int,
    ) -> list[Any]:
        """Can the rest add at least ``need``? Returns the memo entry [lo, hi, choice].

        ``lo``/``hi`` bound the best completion of this state; ``lo >= need`` means yes
        (``choice`` reaches ``lo``), ``hi < need`` means no. Children that cannot reach
        what is still needed are cut at once by their own upper bound, so a search for
        "everything placed" never looks at a branch that leaves a hand card out.

        In the best mode (``self.best``) a yes does not end the state: the remaining
        children are asked for more than the best so far (branch and bound), so the
        answer is usually exact (lo == hi).
        """
        key = (pos, suit, runs, req, j, jo, val, done, nsets, osets)
        ent = self.memo.get(key)
        if ent is None:
            if len(self.memo) >= self.budget:
                raise BudgetExceeded
            if pos == len(self.order):
                v = self.finish(runs, req, j, jo, val, done)
                ent = [v, v, None]
            else:
                ent = [NEG, self.node_ub(pos, suit, j), None]
            self.memo[key] = ent
        lo, hi = ent[0], ent[1]
        if lo >= need or hi < need:
            return ent
        spec = self.s
        best_hi = NEG
        r = self.order[pos]
        if suit < 4:
            t = self.p.table[suit][r]
            h = self.p.hand[suit][r]
            w = self.p.weight[suit][r]
            # an opening run may start when none is open, and none has been made yet
            # (or one is owed to a debt that came round the K-A corner)
            open_free = spec.open_mode != OPEN_RUN or (
                not any(lab & _TAG for rs in runs for lab in rs)
                and (not done or any(lab & _TAG for rq in req for lab in rq))
            )
            nxt_ub = self.suffix[pos][suit + 1]
            jt = self.jt
            jw = self.p.joker_weight
            track_open = spec.open_mode == OPEN_POINTS
            for mv in self.moves(
                runs[suit], t, h, self.jmax - j, self.jh - jo, pos, open_free, suit
            ):
                nj = j + mv.jokers
                gain = (mv.used - t) * w
                if mv.jokers:
                    gain += self.joker_gain(j, mv.jokers)
                cub = nxt_ub + (self.jmax - (nj if nj > jt else jt)) * jw
                if cub + gain < need:
                    # The joker terms of cub + gain cancel out, so it falls with the
                    # hand cards a move uses; moves come most cards first: none of the
                    # rest can reach need either.
                    best_hi = max(best_hi, cub + gain)
                    break
                nval = val
                if spec.open_mode == OPEN_POINTS:
                    nval = min(spec.threshold, val + self.run_value(r, mv))
                nruns = (*runs[:suit], mv.runs, *runs[suit + 1 :])
                nreq = req
                if mv.closed_debts:
                    nreq = (
                        *req[:suit],
                        tuple(sorted(req[suit] + mv.closed_debts)),
                        *req[suit + 1 :],
                    )
                # set feasibility does not depend on which suit is which: keep the
                # partial vectors sorted so that equal profiles share one state
                nn = (0, *nsets) if mv.set_nat == 0 else tuple(sorted((*nsets, mv.set_nat)))
                no = tuple(sorted((*osets, mv.open_set_nat))) if track_open else osets
                while True:
                    sub = self.test(
                        pos,
                        suit + 1,
                        nruns,
                        nreq,
                        nj,
                        jo + mv.open_jokers,
                        nval,
                        done or mv.done,
                        nn,
                        no,
                        need - gain,
                    )
                    slo, shi = sub[0], sub[1]
                    if slo > NEG and slo + gain >= need:
                        ent[0] = slo + gain
                        ent[2] = mv
                        if not self.best or ent[0] >= hi:
                            return ent
                        need = ent[0] + 1  # the best mode: look for better only
                        if shi > slo:
                            continue  # (a memo answer: ask the same child for more)
                    break
                if shi > NEG:
                    best_hi = max(best_hi, shi + gain)
        else:
            kleft = self.jmax - j
            ko_left = self.jh - jo
            open_sets = spec.open_mode == OPEN_POINTS
            for k in set_jokers(nsets, kleft, self.M_real, spec.set_max):
                kos = (
                    set_jokers(osets, min(kleft - k, ko_left), self.M_real, spec.set_max)
                    if open_sets
                    else (0,)
                )
                for ko in kos:
                    gain = self.joker_gain(j, k + ko)
                    nval = val
                    if spec.open_mode == OPEN_POINTS:
                        nval = min(spec.threshold, val + self.set_value(r, sum(osets), ko))
                    while True:
                        sub = self.test(
                            pos + 1, 0, runs, req, j + k + ko, jo + ko, nval, done, (), (),
                            need - gain,
                        )  # fmt: skip
                        slo, shi = sub[0], sub[1]
                        if slo > NEG and slo + gain >= need:
                            ent[0] = slo + gain
                            ent[2] = (k, ko)
                            if not self.best or ent[0] >= hi:
                                return ent
                            need = ent[0] + 1
                            if shi > slo:
                                continue
                        break
                    if shi > NEG:
                        best_hi = max(best_hi, shi + gain)
        ent[1] = min(hi, best_hi)
        return ent

    def finish(
        self,
        runs: tuple[tuple[int, ...], ...],
        req: tuple[tuple[int, ...], ...],
        j: int,
        jo: int,
        val: int,
        done: bool,
    ) -> int:
        spec = self.s
        # every table joker placed, and opening melds hold hand jokers only
        if j < self.jt or jo > j - self.jt:
            return NEG
        if spec.open_mode == OPEN_POINTS and val < spec.threshold:
            return NEG
        # an opening run still open here ends at the last position (pairing below checks
        # its length)
        if (
            spec.open_mode == OPEN_RUN
            and not done
            and not any(lab & _TAG for rs in runs for lab in rs)
        ):
            return NEG
        for s in range(4):
            if self.pair_runs(runs[s], req[s]) is None:
                return NEG
        return 0

    def pair_runs(self, runs: tuple[int, ...], req: tuple[int, ...]) -> list[int] | None:
        """Pair the runs leaving the last position with the debts that entered the first.

        ``req`` holds the labels of the entering debts (all ended by now); the result gives,
        per requirement, the index in ``runs`` of the run that leaves into it, or None if
        impossible. Runs not paired must be able to end. A debt still open here would be
        a run round the whole cycle: never needed (the same cards form runs without it).
        """
        if any(lab & _DEBT for lab in runs):
            return None
        out: list[int] = []
        taken = [False] * len(runs)

        def ok(rq: int, lab: int) -> bool:
            if (rq & _TAG) != (lab & _TAG):
                return False
            b = rq & _LEN
            a = lab & _LEN
            if a + b < self.L:
                return False
            if ((rq >> _NAT_SHIFT) & 3) + ((lab >> _NAT_SHIFT) & 3) < self.M:
                return False
            if self.exact_len and a + b > 13:
                return False
            return not (rq & _TAG and self.s.open_mode == OPEN_RUN and a + b < self.s.run_length)

        def rec(i: int) -> bool:
            if i == len(req):
                return all(taken[k] or self.closable(runs[k]) for k in range(len(runs)))
            for k in range(len(runs)):
                if (
                    not taken[k]
                    and ok(req[i], runs[k])
                    and (k == 0 or runs[k] != runs[k - 1] or taken[k - 1])
                ):
                    taken[k] = True
                    out.append(k)
                    if rec(i + 1):
                        return True
                    out.pop()
                    taken[k] = False
            return False

        return out if rec(0) else None


def _orders(spec: CoreSpec) -> tuple[int, ...]:
    return tuple(range(13))


class _Prover:
    """The Python search behind the question loop of :func:`solve_core`."""

    def __init__(
        self,
        prob: CoreProblem,
        spec: CoreSpec,
        budget: int,
        settings: SolverSettings = DEFAULT_SETTINGS,
    ) -> None:
        self.upper_after = settings.lp_after
        self.upper_on_no = True
        self.search = _Search(prob, spec, _orders(spec))
        self.search.budget = budget
        self.start: tuple[tuple[int, ...], ...] = ((), (), (), ())
        self.root = (0, 0, self.start, ((),) * 4, 0, 0, 0, False, (), ())
        if sys.getrecursionlimit() < 10000:
            sys.setrecursionlimit(10000)

    @property
    def budget(self) -> int:
        return self.search.budget

    @budget.setter
    def budget(self, value: int) -> None:
        self.search.budget = value

    @property
    def states(self) -> int:
        return len(self.search.memo)

    def node_ub(self) -> int:
        return self.search.node_ub(0, 0, 0)

    def ask(
        self, need: int, best: bool = False, steps: int = 1, floor: int = NEG
    ) -> tuple[int, int] | None:
        self.search.best = best
        while True:
            try:
                lo, hi = self.search.test(*self.root, need)[:2]
            except BudgetExceeded:
                return None
            steps -= 1
            if lo >= need or steps <= 0 or hi < 0 or hi <= floor:
                return lo, hi
            need = hi

    def root_lo(self) -> int:
        ent = self.search.memo.get(self.root)
        return NEG if ent is None else int(ent[0])

    def root_hi(self) -> int:
        ent = self.search.memo.get(self.root)
        return -NEG if ent is None else int(ent[1])

    def melds(self) -> list[tuple[bool, list[tuple[int, int, bool, bool]]]]:
        return _rebuild(self.search, self.start)


def mirrored(prob: CoreProblem) -> CoreProblem:
    """The problem with ranks reversed (rank r becomes 14 - r). With aces low, or with
    wrap-around aces (the cycle read the other way), runs and sets are the same shapes read
    the other way, so the optimum is the same."""

    def rev(rows: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
        return tuple(row[::-1] for row in rows)

    return replace(prob, table=rev(prob.table), hand=rev(prob.hand), weight=rev(prob.weight))


def mirrored_high(prob: CoreProblem) -> CoreProblem:
    """The problem with the ace kept and the ranks 2..K reversed (rank r becomes 15 - r):
    with high-or-low aces runs map to runs (A-2-3 to Q-K-A and back; K-A-2 is no run
    either way) and sets to sets, so the optimum is the same."""

    def rev(rows: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(row[(13 - m) % 13] for m in range(13)) for row in rows)

    return replace(prob, table=rev(prob.table), hand=rev(prob.hand), weight=rev(prob.weight))


_SAME, _MIRROR, _HIGH_MIRROR = 0, 1, 2
"""How a raced search's ranks relate to the position's: the same, reversed
(:func:`mirrored`), or reversed with the ace kept (:func:`mirrored_high`)."""


class _Race:
    """Searches of one position in different rank orders, asked in turns.

    The cost of a proof depends heavily on the order the ranks are visited in: the bound
    is tight once the cards that cannot all be placed have been passed, and a proof whose
    hard cards come early is often a hundred times cheaper than the same proof read from
    the other end (docs/solver.md). Which order is better is not known in advance, so each
    question goes to every search in turns with doubling budgets, and the first answer
    counts: the cost stays within about the number of searches times the cheapest order's.
    Each search keeps its memo (a search cut short holds proven bounds only), so no turn's
    work is lost. A search starts only when the ones before it have not answered within
    ``step`` states (``SolverSettings.race_step``), so easy questions pay nothing; the
    search that answered goes first next time.

    ``others`` make the other searches, each with how its ranks relate to the position's
    (``_SAME``, ``_MIRROR``, ``_HIGH_MIRROR``: its melds are turned back); ``first_kind``
    is the first search's.
    """

    def __init__(
        self,
        first: Prover,
        others: Sequence[tuple[Callable[[], Prover], int]],
        budget: int,
        step: int,
        first_kind: int = _SAME,
    ) -> None:
        self.provers: list[Prover] = [first]
        self.kinds: list[int] = [first_kind]
        self.pending = list(others)
        self.budget = budget
        self.step = max(step, 1)

    @property
    def states(self) -> int:
        return sum(p.states for p in self.provers)

    @property
    def upper_after(self) -> int:
        return self.provers[0].upper_after

    @property
    def upper_on_no(self) -> bool:
        return self.provers[0].upper_on_no

    def node_ub(self) -> int:
        return self.provers[0].node_ub()

    def ask(
        self, need: int, best: bool = False, steps: int = 1, floor: int = NEG
    ) -> tuple[int, int] | None:
        step = self.step
        i = 0
        while True:
            if i == len(self.provers):
                make, rev = self.pending.pop(0)
                self.provers.append(make())
                self.kinds.append(rev)
            p = self.provers[i]
            left = self.budget - self.states
            if left <= 0:
                return None
            p.budget = p.states + min(step, left)
            got = p.ask(need, best, steps, floor)
            if got is None and p.states < p.budget:
                return None  # stopped for another reason than this turn's budget
            proven = p.root_hi() if got is None and steps > 1 else need
            if i > 0 and (got is not None or proven < need):
                # the order that answered goes first next time
                self.provers.insert(0, self.provers.pop(i))
                self.kinds.insert(0, self.kinds.pop(i))
            if got is not None:
                # another search may have proven a lower upper bound
                return got[0], min(got[1], self.root_hi())
            if proven < need:
                # a descent cut short after some of its questions: like a new question,
                # it starts again from the bound proven, first turn first
                need = proven
                steps -= 1
                step = self.step
                i = 0
                continue
            i += 1
            if i == len(self.provers) + len(self.pending):
                i = 0
                step *= 2

    def root_lo(self) -> int:
        return max(p.root_lo() for p in self.provers)

    def root_hi(self) -> int:
        return min(p.root_hi() for p in self.provers)

    def melds(self) -> list[tuple[bool, list[tuple[int, int, bool, bool]]]]:
        lo = self.root_lo()
        i = next(i for i, p in enumerate(self.provers) if p.root_lo() == lo)
        got = self.provers[i].melds()
        kind = self.kinds[i]
        if kind == _SAME:
            return got
        if kind == _HIGH_MIRROR:
            # :func:`mirrored_high`: the ace stays, rank r of 2..K was 15 - r
            def back(r: int) -> int:
                return (14 - r) % 13 + 1
        else:

            def back(r: int) -> int:
                return 14 - r

        return [
            (is_run, [(s, back(r), joker, tag) for s, r, joker, tag in reversed(items)])
            for is_run, items in got
        ]


def _late_need(prob: CoreProblem, spec: CoreSpec) -> int:
    """Whether the hand cards that need jokers lie late in the ranks (> 0) or early (< 0).

    Per hand card (each cell once), the jokers its cheapest meld needs, with every natural
    of the position available (a set: 3 minus the suits present at its rank; a run: the
    ranks of a window of ``min_len`` through it with no natural of its suit), times its
    rank's distance from the middle (rank index 6). A proof is cheap when the cards that
    cannot all be placed are met early, and these are the usual suspects: the race reads
    the ranks downwards first when the sum is positive (with wrap-around aces, of the
    problem rotated to the race's first cut; its windows then stop at the ends, which
    only makes this guess rougher)."""
    L = spec.min_len
    full = (1 << L) - 1
    b0, b1, b2, b3 = bits = [_present(t, h) for t, h in zip(prob.table, prob.hand, strict=True)]
    score = 0
    for s, row in enumerate(prob.hand):
        b = bits[s]
        for r in _held(row):
            need = 3 - ((b0 >> r & 1) + (b1 >> r & 1) + (b2 >> r & 1) + (b3 >> r & 1))
            if need <= 0:
                continue
            for a in range(max(0, r - L + 1), min(r, 13 - L) + 1):
                need = min(need, L - (b >> a & full).bit_count())
            score += need * (r - 6)
    return score


@lru_cache(maxsize=4096)
def _present(table: tuple[int, ...], hand: tuple[int, ...]) -> int:
    """The ranks of a suit with a natural in the table or the hand, as a bit mask."""
    return sum(1 << r for r, (x, y) in enumerate(zip(table, hand, strict=True)) if x or y)


@lru_cache(maxsize=4096)
def _held(hand: tuple[int, ...]) -> tuple[int, ...]:
    """The ranks of a suit the hand holds."""
    return tuple(r for r, n in enumerate(hand) if n)


def _prover(prob: CoreProblem, spec: CoreSpec, budget: int, settings: SolverSettings) -> Prover:
    if settings.compiled and compiled_available():
        # imported here, not at the top: numba loads in about half a second, and a process
        # that never meets an eligible problem (or runs without the compiled core) need
        # not pay for it
        from openrummy.solve import _fast

        if _fast.eligible(prob, spec):
            # its states cost about a twentieth: the same budget in time, not in states
            fast = min(budget * settings.compiled_state_factor, 1 << 62)
            # wrap-around aces: the cycle may be cut at any rank, and where it is cut
            # matters as much as the direction (_fast.cuts); the mirror of a cut at rank
            # index c starts at 13 - c. The cut at the rank with the fewest cards first:
            # on the variant benchmark's wrap-around positions it was the cheaper one more
            # often than the cut at the A
            order = _fast.cuts(prob)[::-1] if spec.ace == WRAP else [0]
            if not settings.race:
                return _fast.FastSearch(prob, spec, fast, settings, cut=order[0])
            if spec.ace == HIGH:
                # high-or-low aces: Q-K-A is a run and its mirror K-A-2 is not, but with
                # the ace kept where it is and 2..K reversed runs map to runs
                def high() -> Prover:
                    return _fast.FastSearch(mirrored_high(prob), spec, fast, settings)

                up = _fast.FastSearch(prob, spec, fast, settings)
                return _Race(up, [(high, _HIGH_MIRROR)], fast, settings.race_step)
            # the mirrored problem is made when a mirrored search starts (most races end
            # with their first search)
            back: list[CoreProblem] = []

            def search(mirror: bool, cut: int) -> Callable[[], Prover]:
                def make() -> Prover:
                    if not mirror:
                        return _fast.FastSearch(prob, spec, fast, settings, cut=cut)
                    if not back:
                        back.append(mirrored(prob))
                    return _fast.FastSearch(back[0], spec, fast, settings, cut=cut)

                return make

            # the first cut read up, then down (or down, then up when the hand cards that
            # need jokers lie late in its order: _late_need), then the other cuts
            c = order[0]
            up_c = (search(False, c), _SAME)
            down_c = (search(True, (13 - c) % 13), _MIRROR)
            if _late_need(_fast._rotated(prob, c) if c else prob, spec) > 0:
                up_c, down_c = down_c, up_c
            make, first_kind = up_c
            first = make()
            others: list[tuple[Callable[[], Prover], int]] = [down_c]
            for cut in order[1:]:
                others.append((search(False, cut), _SAME))
                others.append((search(True, (13 - cut) % 13), _MIRROR))
            return _Race(first, others, fast, settings.race_step, first_kind)
    return _Prover(prob, spec, budget, settings)


def _over() -> NoReturn:
    raise BudgetExceeded


def solve_core(
    prob: CoreProblem,
    spec: CoreSpec,
    *,
    want_melds: bool = True,
    lower: int = NEG,
    target: int | None = None,
    budget: int | None = None,
    upper: Callable[[], tuple[int | None, CoreResult | None]] | None = None,
    unit: int = 1,
    floor: int | None = None,
    settings: SolverSettings = DEFAULT_SETTINGS,
) -> CoreResult:
    """Best total weight of hand cards placed, and melds reaching it (score NEG: impossible).

    ``lower`` is a score known to be reachable (NEG if none is known); it only speeds up
    the search. With ``target``, only "is ``target`` reachable?" is answered (score NEG
    if not). ``budget`` caps the number of states; past it :class:`BudgetExceeded` is
    raised (used by tie-breaks that may give up, never by the optimum itself).

    ``upper`` computes an upper bound on the score (None: none known) and possibly an
    optimal result (with melds) found on the way; it is asked only when the first question
    ("can every hand card be placed?") is not answered yes within the prover's
    ``upper_after`` states (``SolverSettings.lp_after`` and ``compiled_lp_after``). A tight
    bound spares the proofs of the bisection.

    ``floor``: only a score of at least this matters; the result has score NEG as soon
    as the optimum is proven below it (the questions then stop there). One search answers
    both "is ``floor`` reachable?" and, if so, "what is the best?".

    ``unit``: scores come in levels of this size (the table solver weighs each card
    placed ``unit`` plus its value, so the level is the count of cards placed).

    ``settings`` choose the search (compiled or not, the race, the descent); they never
    change the result.
    """
    search = _prover(prob, spec, budget if budget is not None else 1 << 62, settings)

    def ask(need: int, best: bool = False) -> tuple[int, int]:
        return search.ask(need, best) or _over()

    if target is not None:
        # only "is target reachable?": one question
        got = ask(target)[0]
        if got < target:
            return CoreResult(NEG, states=search.states)
        found = CoreResult(got, states=search.states)
        if want_melds:
            # a play of the root's best known score (at least ``got``)
            found.score = max(got, search.root_lo())
            found.melds = search.melds()
        return found

    def outside(hi: int) -> CoreResult | int:
        """Ask the outside bound: the result to return (nothing reachable, or an optimum
        found on the way), else ``hi`` lowered to the bound."""
        assert upper is not None
        bound, exact = upper()
        if bound == NEG:
            return CoreResult(NEG, states=search.states)
        if exact is not None:
            exact.states = search.states
            if not want_melds:
                exact.melds = []
            return exact
        if bound is not None:
            hi = min(hi, bound)
        return NEG if hi < 0 else hi

    lo_known = lower
    hi_known = search.node_ub()
    # questions need not go below floor - 1 (the descent stops once the bound is there)
    low_stop = NEG if floor is None else floor - 1
    if hi_known <= low_stop:
        return CoreResult(NEG, states=search.states)
    later = False  # the outside bound not asked yet, to be asked if the descent runs long
    if upper is not None and lo_known < hi_known:
        # "Can every hand card be placed?" with a small budget first: the usual answer is
        # yes, at once. Otherwise ask for the outside bound, which is usually the optimum,
        # and ask that first below. (A memo cut short by the budget holds proven bounds
        # only, so the search goes on from it.)
        need = hi_known
        full_budget = search.budget
        search.budget = min(full_budget, search.states + search.upper_after)
        cut = search.ask(need)
        search.budget = full_budget
        if cut is not None and cut[0] >= need:
            lo_known = max(lo_known, cut[0])
        elif cut is not None and not search.upper_on_no:
            hi_known = min(cut[1], need - 1)
            later = True
        else:
            if cut is not None:
                hi_known = min(cut[1], need - 1)
            bounded = outside(hi_known)
            if isinstance(bounded, CoreResult):
                return bounded
            hi_known = bounded
    # Ask "can the rest reach need?" (memo entries keep their bounds between questions),
    # first from above: need = the best the bounds still allow (everything placed, or the
    # outside bound). That is usually the optimum or close to it, and each "no" lowers
    # the bound to the best completion the search could not rule out. After
    # ``settings.descent`` questions, one branch and bound above the best known finishes it (a position whose
    # optimum lies far below its bound would otherwise take one question per value); if
    # nothing is known yet, the levels are asked first, from above.
    descended = False
    while lo_known < hi_known:
        if hi_known <= low_stop and lo_known <= low_stop:
            return CoreResult(NEG, states=search.states)  # nothing reaches floor
        if not descended:
            # from above, ``settings.descent`` questions at most in one call: on each no, the next
            # one asks at the root's new bound
            need = hi_known
            if later:
                # the first question said no in time, but the proofs below the bound may
                # be long: once the search has spent as many states in all as the first
                # question may, the outside bound is asked after all
                full_budget = search.budget
                search.budget = min(full_budget, max(search.upper_after, search.states + 1))
                cut_short = search.ask(need, False, settings.descent, max(lo_known, low_stop))
                search.budget = full_budget
                later = False
                if cut_short is None:
                    if search.states >= full_budget:
                        _over()
                    hi_known = min(hi_known, search.root_hi())
                    lo_known = max(lo_known, search.root_lo())
                    bounded = outside(hi_known)
                    if isinstance(bounded, CoreResult):
                        return bounded
                    hi_known = bounded
                    continue
                lo, hi = cut_short
            else:
                lo, hi = (
                    search.ask(need, False, settings.descent, max(lo_known, low_stop)) or _over()
                )
            descended = True
        elif lo_known == NEG and unit > 1:
            # nothing found yet: the level first (with the table solver's weights, the
            # count of cards placed), which rules out a whole level at once
            need = max(hi_known - hi_known % unit, low_stop + 1)
            lo, hi = ask(need)
        else:
            need = max(0 if lo_known == NEG else lo_known + 1, low_stop + 1)
            lo, hi = ask(need, True)
        # the root's bounds hold whatever was asked (a later question of the descent may
        # have been answered yes below need; a no at need means nothing reaches it)
        lo_known = max(lo_known, lo)
        hi_known = min(hi_known, hi)
        if lo < need:
            hi_known = min(hi_known, need - 1)
        if hi_known < 0:
            hi_known = NEG
    best = lo_known if lo_known >= 0 and lo_known > low_stop else NEG
    if best != NEG and search.root_lo() != best:
        # the known lower bound came from outside: find the melds for it
        ask(best)
    res = CoreResult(best, states=search.states)
    if best == NEG or not want_melds:
        return res
    res.melds = search.melds()
    return res


def _rebuild(
    search: _Search, runs0: tuple[tuple[int, ...], ...]
) -> list[tuple[bool, list[tuple[int, int, bool, bool]]]]:
    """Follow the memoised choices and turn labels back into concrete melds."""
    spec = search.s
    Item = tuple[int, int, bool, bool]
    melds: list[tuple[bool, list[Item]]] = []
    # concrete open runs per suit: (label, items); entering debts start empty
    open_runs: list[list[tuple[int, list[Item]]]] = [
        [(lab, []) for lab in runs0[s]] for s in range(4)
    ]
    closed_debts: list[list[tuple[int, list[Item]]]] = [[] for _ in range(4)]
    runs = runs0
    req: tuple[tuple[int, ...], ...] = ((),) * 4
    j = jo = val = 0
    done = False
    nsets: tuple[int, ...] = ()
    osets: tuple[int, ...] = ()
    act_n: tuple[int, ...] = ()
    act_o: tuple[int, ...] = ()
    for pos, r in enumerate(search.order):
        for suit in range(4):
            key = (pos, suit, runs, req, j, jo, val, done, nsets, osets)
            mv = search.memo[key][2]
            assert isinstance(mv, _Move)
            nxt: list[tuple[int, list[Item]]] = []
            pool: dict[int, list[list[Item]]] = {}
            for lab, items in open_runs[suit]:
                pool.setdefault(lab, []).append(items)
            for lab, e, a, b in mv.detail:
                lst = pool[lab]
                tag = bool(lab & _TAG)
                for _ in range(e):
                    items = lst.pop()
                    if lab & _DEBT:
                        closed_debts[suit].append((lab, items))
                    else:
                        melds.append((True, items))
                for _ in range(a):
                    items = lst.pop()
                    items.append((suit, r + 1, False, tag))
                    nxt.append((search.grow(lab, True), items))
                for _ in range(b):
                    items = lst.pop()
                    items.append((suit, r + 1, True, tag))
                    nxt.append((search.grow(lab, False), items))
            for tg_b, debt, sn, sj in mv.starts:
                base = (_TAG if tg_b else 0) | (_DEBT if debt else 0)
                for _ in range(sn):
                    lab1 = base | (min(1, search.M) << _NAT_SHIFT) | 1
                    nxt.append((lab1, [(suit, r + 1, False, tg_b)]))
                for _ in range(sj):
                    nxt.append((base | 1, [(suit, r + 1, True, tg_b)]))
            open_runs[suit] = nxt
            j += mv.jokers
            jo += mv.open_jokers
            if spec.open_mode == OPEN_POINTS:
                val = min(spec.threshold, val + search.run_value(r, mv))
            runs = (*runs[:suit], mv.runs, *runs[suit + 1 :])
            if mv.closed_debts:
                req = (*req[:suit], tuple(sorted(req[suit] + mv.closed_debts)), *req[suit + 1 :])
            done = done or mv.done
            act_n = (*act_n, mv.set_nat)
            act_o = (*act_o, mv.open_set_nat)
            nsets = tuple(sorted(act_n))
            osets = tuple(sorted(act_o)) if spec.open_mode == OPEN_POINTS else ()
        key = (pos, 4, runs, req, j, jo, val, done, nsets, osets)
        ch = search.memo[key][2]
        assert isinstance(ch, tuple)
        k, ko = ch
        for nvec, kk, tag in ((act_n, k, False), (act_o, ko, True)):
            melds.extend(set_melds(nvec, kk, r, tag, search.M_real, spec.set_max))
        if spec.open_mode == OPEN_POINTS:
            val = min(spec.threshold, val + search.set_value(r, sum(osets), ko))
        j += k + ko
        jo += ko
        nsets = osets = act_n = act_o = ()
    # join the runs that leave the last position with the debts that entered the first
    for s in range(4):
        pairs = search.pair_runs(runs[s], req[s])
        assert pairs is not None
        by_lab: dict[int, list[list[Item]]] = {}
        for lab, items in open_runs[s]:
            by_lab.setdefault(lab, []).append(items)
        leaving = [by_lab[lab].pop() for lab in runs[s]]
        entering = [items for _lab, items in sorted(closed_debts[s], key=lambda x: x[0])]
        paired = set(pairs)
        for i, items in enumerate(leaving):
            if i not in paired:
                melds.append((True, items))
        for ri, ni in enumerate(pairs):
            for piece in split_run(leaving[ni] + entering[ri], search.L, search.M_real):
                melds.append((True, piece))
    return melds
