"""The compiled core of the table solver (private): the dynamic program of ``_dp`` in numba.

The same search as :class:`openrummy.solve._dp._Search` ("can the rest still add
``need``?", memoised lower/upper bounds per state, moves most hand cards first), for the
common case that covers play after the opening in every preset, Rummikub included: every
ace mode, no opening requirement, and runs that need no exact length (see
:func:`eligible`). Everything else goes to the Python core.

Differences in representation only (the state space is the same):

* a suit's open runs are a sorted list of labels packed six bits each into one integer
  (label = length capped at ``min_len``, and naturals capped at ``M``, as in ``_dp``);
  runs that came round the K–A corner (debts) have length field 8 + their length, and the
  debts that ended are a second such list per suit, paired with the runs leaving the K
  at the end (:func:`_paired`);
* a move (what one suit does at one rank) is two integers: small fields packed into
  one (hand cards used, jokers, naturals left for sets, runs started, what each open
  run does), and the packed runs after the move. Moves of a (runs, counts) situation are
  generated once per thread and kept in a flat store shared by its searches, sorted most
  cards first;
* the naturals left for sets at a rank are a sorted list packed four bits each, and a
  table computed in Python (from ``_problem.set_jokers``) says which joker counts can join
  them in valid sets.

The result is the same as the Python core's: the best score, and the choices along the
way, from which :meth:`FastSearch.melds` rebuilds the melds in Python.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from functools import cache, lru_cache
from itertools import combinations_with_replacement, pairwise
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit as _njit
from numba.core import event as _event

from openrummy.solve import compiled
from openrummy.solve._problem import (
    HIGH,
    ITEMS,
    LOW,
    NEG,
    OPEN_NONE,
    WRAP,
    CoreMelds,
    CoreProblem,
    CoreSpec,
    set_cut,
    set_jokers,
    split_run,
    tracked_naturals,
)
from openrummy.solve.settings import DEFAULT_SETTINGS, SolverSettings

__all__ = ["FastSearch", "eligible"]

# numba freezes the constants of _problem into the machine code it caches
compiled.drop_stale("_fast")

F = TypeVar("F", bound=Callable[..., Any])


def _jit(f: F) -> F:
    return cast(F, _njit(cache=True, nogil=True)(f))


class _CompileListener(_event.Listener):
    """Tells :mod:`.compiled` when numba starts compiling (not when it loads its cache),
    so that an interface can say why the first solve after an install takes a minute."""

    def on_start(self, event: Any) -> None:
        from openrummy.solve import compiled

        compiled.on_compile()

    def on_end(self, event: Any) -> None:
        pass


_event.register("numba:compile", _CompileListener())  # type: ignore[no-untyped-call]


_MAX_RUNS = 10
"""Open runs per suit that fit the packed form (six bits each in one integer)."""

# prm indices
(
    _L, _M, _JT, _JMAX, _JW, _BUDGET, _NPOS, _ABORT, _TOP, _STATES, _EXACT, _MCN, _STEPS, _FLOOR,
    _ACE, _PIN,
) = range(16)  # fmt: skip
_ROOM = 18
"""prm index (after :class:`BareSearch`'s two more): 1 when the sets' optional jokers are
placed at the end (:func:`_ask`); a shorter prm places them where they go."""
_SKIP = 19
"""prm index: 1 when :func:`_ask` passes over the ranks where nothing can happen (see
:func:`_empty_ranks`); a shorter prm visits every rank."""

_INFEASIBLE = -(1 << 40)
"""A bound meaning "no completion at all" (far above NEG, so sums of it stay finite)."""
_STORE = 1 << 20
"""Rows of a shared move store (:class:`_Moves`)."""
_STORE_MAX = 1 << 21
"""Rows a search's own move store may grow to (:meth:`FastSearch._own_store`); a search
that needs more gives up like one over budget."""


def eligible(prob: CoreProblem, spec: CoreSpec) -> bool:
    """Whether the compiled core handles this problem (else the Python core does).

    Every ace mode; with runs over the K–A corner (high-or-low, wrap-around) only for
    ``min_len`` <= 5, where the labels' lengths may be capped (``docs/solver.md``)."""
    copies = max(map(max, prob.table))
    if any(map(any, prob.hand)):
        copies = max(
            max(a + b for a, b in zip(ts, hs, strict=True))
            for ts, hs in zip(prob.table, prob.hand, strict=True)
        )
    jm = prob.table_jokers + prob.hand_jokers
    return (
        spec.ace in (LOW, HIGH, WRAP)
        and spec.open_mode == OPEN_NONE
        and not spec.open_all
        and spec.min_len <= (15 if spec.ace == LOW else 5)
        and copies <= 15
        and copies + jm <= _MAX_RUNS
        and jm <= 15
    )


# -- compiled parts ---------------------------------------------------------------------


# A label is six bits: length (four) and naturals (two). With a cyclic ace (min_len L <= 5)
# a debt, a run that came round the K–A corner and entered at the ace, has length field
# 8 + its length: above L, so a debt is any label whose length field exceeds L.


_PINNED = 15
"""Length field of a *pinned* run: one that began with a joker, which must stay open up to
the K (see :func:`_pin_mode`); at the K it becomes a run of length ``L``."""


@_jit
def _is_debt(lab: int, L: int) -> bool:
    return L < (lab & 0xF) < _PINNED


@_jit
def _closable(lab: int, L: int, M: int) -> bool:
    ln = lab & 0xF
    if ln == _PINNED:
        return False  # it ends after the K only
    if ln > L:
        return True  # a debt may end anywhere: the run it belongs to is checked at the K
    return ln >= L and ((lab >> 4) & 3) >= M


@_jit
def _grow(lab: int, natural: bool, L: int, M: int) -> int:
    ln = lab & 0xF
    if ln != _PINNED:
        ln = min(ln + 1, 8 + L) if ln > L else min(ln + 1, L)
    nat = (lab >> 4) & 3
    if natural:
        nat = min(nat + 1, M)
    return (nat << 4) | ln


@_jit
def _merge6(a: int, b: int) -> int:
    """Two sorted lists of six-bit labels packed in integers, merged (sorted)."""
    out = 0
    o = 0
    x = a & 63
    y = b & 63
    while x or y:
        if y == 0 or (x and x <= y):
            out |= x << (6 * o)
            a >>= 6
            x = a & 63
        else:
            out |= y << (6 * o)
            b >>= 6
            y = b & 63
        o += 1
    return out


@_jit
def _paired(R: int, D: int, L: int, M: int) -> bool:
    """Whether the runs leaving the K (labels ``R``) pair with the debts that entered at the
    ace and ended (labels ``D``): each debt joins a distinct leaving run into a run of at
    least L cards and M naturals, and every leaving run left over can end at the K."""
    rl = np.zeros(_MAX_RUNS, np.int64)
    n = 0
    while R:
        lab = R & 63
        if lab & 0xF > L:
            return False  # a debt still open: a run round the whole cycle is never needed
        rl[n] = lab
        n += 1
        R >>= 6
    dl = np.zeros(_MAX_RUNS, np.int64)
    m = 0
    while D:
        dl[m] = D & 63
        m += 1
        D >>= 6
    used = np.zeros(_MAX_RUNS, np.bool_)
    choice = np.full(_MAX_RUNS + 1, -1, np.int64)
    i = 0
    while i >= 0:
        if i == m:
            ok = True
            for k in range(n):
                if not used[k] and not _closable(rl[k], L, M):
                    ok = False
                    break
            if ok:
                return True
            i -= 1
            if i >= 0:
                used[choice[i]] = False
            continue
        b = (dl[i] & 0xF) - 8
        nb = (dl[i] >> 4) & 3
        k = choice[i] + 1
        found = -1
        while k < n:
            # equal labels are interchangeable: try the first one not taken only
            if (
                not used[k]
                and (rl[k] & 0xF) + b >= L
                and ((rl[k] >> 4) & 3) + nb >= M
                and (k == 0 or rl[k] != rl[k - 1] or used[k - 1])
            ):
                found = k
                break
            k += 1
        if found < 0:
            choice[i] = -1
            i -= 1
            if i >= 0:
                used[choice[i]] = False
            continue
        choice[i] = found
        used[found] = True
        i += 1
        choice[i] = -1
    return False


@_jit
def _move_key(w: int) -> int:
    """The order of a situation's moves: most hand cards first, then fewest jokers, then
    fewest open runs."""
    return ((15 - (w & 15)) << 16) | (((w >> 4) & 15) << 8) | ((w >> 20) & 15)


@_jit
def _gen_moves(
    R: int,
    t: int,
    h: int,
    jleft: int,
    set_cap: int,
    nxt: int,
    L: int,
    M: int,
    first: bool,
    high_end: bool,
    jstart: int,
    last: bool,
    mstore: Any,
    top: int,
    ws: Any,
) -> int:
    """Append the moves of one suit at one rank to ``mstore`` from row ``top``, sorted.

    ``first``: the ace of a cyclic order, where debts (runs that came round the K–A corner)
    may start; ``high_end``: the rank after the ace with high-or-low aces, where every debt
    must have ended (Q-K-A is a run, K-A-2 is not). ``jstart``: how a run may begin with a
    joker here (0 freely, 1 pinned: it must stay open up to the K, 2 not at all; see
    :func:`_pin_mode`); ``last``: the K, where pinned runs become runs of length ``L``.
    Returns how many were added, or -1 if the store is full. ``ws``: scratch space
    (:func:`_workspace`), so that a call allocates nothing but its sort (the allocations
    were most of the cost of generating a situation's moves).
    """
    avail = t + h
    oe = ws[0:_MAX_RUNS]
    oa = ws[_MAX_RUNS : 2 * _MAX_RUNS]
    labs = ws[2 * _MAX_RUNS]
    glab = ws[2 * _MAX_RUNS + 1]
    gm = ws[2 * _MAX_RUNS + 2]
    nopt = ws[2 * _MAX_RUNS + 3]
    idx = ws[2 * _MAX_RUNS + 4]
    new = ws[2 * _MAX_RUNS + 5]
    srt = ws[2 * _MAX_RUNS + 6]
    # incoming runs, sorted, and their distinct labels with multiplicities
    n = 0
    x = R
    while x:
        labs[n] = x & 63
        x >>= 6
        n += 1
    G = 0
    for i in range(n):
        if G > 0 and glab[G - 1] == labs[i]:
            gm[G - 1] += 1
        else:
            glab[G] = labs[i]
            gm[G] = 1
            G += 1
    # options per group: (ends, naturals) with jokers = m - ends - naturals
    for g in range(G):
        m = gm[g]
        can_end = _closable(glab[g], L, M)
        must_end = high_end and _is_debt(glab[g], L)
        k = 0
        for e in range(m + 1):
            if e and not can_end:
                break
            if must_end and e != m:
                continue
            for a in range(m - e + 1):
                b = m - e - a
                if a > avail or b > jleft:
                    continue
                oe[g, k] = e
                oa[g, k] = a
                k += 1
        if k == 0:
            return 0
        nopt[g] = k
    nat_start = (min(1, M) << 4) | 1
    jok_start = _PINNED if jstart == 1 else 1
    debt_nat = (min(1, M) << 4) | 9
    debt_jok = 9
    cnt = 0
    idx[:] = 0
    cap = mstore.shape[0]
    while True:
        nat_used = 0
        jok_used = 0
        ends = False
        closed = 0
        nclosed = 0
        for g in range(G):
            e = oe[g, idx[g]]
            a = oa[g, idx[g]]
            nat_used += a
            jok_used += gm[g] - e - a
            if e:
                if _is_debt(glab[g], L):
                    # groups come in label order: the closed debts stay sorted
                    for _ in range(e):
                        closed |= glab[g] << (6 * nclosed)
                        nclosed += 1
                else:
                    ends = True
        if nat_used <= avail and jok_used <= jleft:
            # actions per incoming run in sorted order: 1 ends, 2 natural, 3 joker
            actions = 0
            nb = 0
            pos = 0
            for g in range(G):
                e = oe[g, idx[g]]
                a = oa[g, idx[g]]
                b = gm[g] - e - a
                for _ in range(e):
                    actions |= 1 << (2 * pos)
                    pos += 1
                gn = _grow(glab[g], True, L, M)
                if last and (gn & 0xF) == _PINNED:
                    gn = (gn & 0x30) | L
                for _ in range(a):
                    actions |= 2 << (2 * pos)
                    pos += 1
                    new[nb] = gn
                    nb += 1
                gj = _grow(glab[g], False, L, M)
                if last and (gj & 0xF) == _PINNED:
                    gj = (gj & 0x30) | L
                for _ in range(b):
                    actions |= 3 << (2 * pos)
                    pos += 1
                    new[nb] = gj
                    nb += 1
            # dominance: ending a full run and starting a new one is never better than
            # continuing it (lengths are capped, so equal labels)
            sn_max = 0 if ends else avail - nat_used
            jfree = 0 if ends else jleft - jok_used
            sj_max = 0 if jstart == 2 else jfree
            for sn in range(sn_max + 1):
                for sj in range(sj_max + 1):
                    for dn in range((sn_max - sn if first else 0) + 1):
                        for dj in range((jfree - sj if first else 0) + 1):
                            nn = nb + sn + sj + dn + dj
                            if nn > _MAX_RUNS:
                                break
                            q = nb
                            for _ in range(sn):
                                new[q] = nat_start
                                q += 1
                            for _ in range(sj):
                                new[q] = jok_start
                                q += 1
                            for _ in range(dn):
                                new[q] = debt_nat
                                q += 1
                            for _ in range(dj):
                                new[q] = debt_jok
                                q += 1
                            # insertion sort, count runs that cannot end yet
                            for i in range(nn):
                                srt[i] = new[i]
                            for i in range(1, nn):
                                v = srt[i]
                                q = i - 1
                                while q >= 0 and srt[q] > v:
                                    srt[q + 1] = srt[q]
                                    q -= 1
                                srt[q + 1] = v
                            needy = 0
                            packed = 0
                            for i in range(nn):
                                packed |= srt[i] << (6 * i)
                                if not _closable(srt[i], L, M):
                                    needy += 1
                            mj = jok_used + sj + dj
                            if needy:
                                if nxt < 0:
                                    continue
                                if needy > nxt + jleft - mj:
                                    continue
                            free = avail - nat_used - sn - dn
                            sc = min(free, set_cap)
                            for ns in range(sc + 1):
                                used = nat_used + sn + dn + ns
                                if used < t:
                                    continue
                                if top + cnt >= cap:
                                    return -1
                                mstore[top + cnt, 0] = (
                                    used
                                    | (mj << 4)
                                    | (ns << 8)
                                    | (sn << 12)
                                    | (sj << 16)
                                    | (nn << 20)
                                    | (actions << 24)
                                    | (dn << 44)
                                    | (dj << 48)
                                    | (int(jstart == 1) << 52)
                                    | (int(last) << 53)
                                )
                                mstore[top + cnt, 1] = packed
                                mstore[top + cnt, 2] = closed
                                cnt += 1
        # next combination (odometer, last group fastest)
        g = G - 1
        while g >= 0:
            idx[g] += 1
            if idx[g] < nopt[g]:
                break
            idx[g] = 0
            g -= 1
        if g < 0:
            break
    if 1 < cnt <= 64:
        # most hand cards first, then fewest jokers, then fewest open runs (stable): an
        # insertion sort in place for the usual few moves
        for i in range(1, cnt):
            r0 = mstore[top + i, 0]
            r1 = mstore[top + i, 1]
            r2 = mstore[top + i, 2]
            k = _move_key(r0)
            q = i - 1
            while q >= 0 and _move_key(mstore[top + q, 0]) > k:
                for c in range(3):
                    mstore[top + q + 1, c] = mstore[top + q, c]
                q -= 1
            mstore[top + q + 1, 0] = r0
            mstore[top + q + 1, 1] = r1
            mstore[top + q + 1, 2] = r2
    elif cnt > 64:
        keys = np.empty(cnt, np.int64)
        for i in range(cnt):
            w = mstore[top + i, 0]
            keys[i] = _move_key(w)
        order = np.argsort(keys, kind="mergesort")
        block = mstore[top : top + cnt].copy()
        for i in range(cnt):
            for c in range(3):
                mstore[top + i, c] = block[order[i], c]
    return cnt


@_jit
def _workspace() -> Any:
    """Scratch space of :func:`_gen_moves` (one per question)."""
    return np.empty((2 * _MAX_RUNS + 7, 66), np.int64)


@_jit
def _insert_sorted(ns: int, count: int, v: int) -> int:
    """Insert ``v`` into a sorted list of ``count`` four-bit values packed in ``ns``."""
    out = 0
    o = 0
    placed = False
    for i in range(count):
        x = (ns >> (4 * i)) & 15
        if not placed and x > v:
            out |= v << (4 * o)
            o += 1
            placed = True
        out |= x << (4 * o)
        o += 1
    if not placed:
        out |= v << (4 * o)
    return out


# frame columns of the explicit stack (numba cannot cache recursive functions): the state's
# key is columns 2-5 (open runs per suit) and 18-21 (debts ended per suit) with pos, suit,
# jokers used and the naturals left for sets
_FPOS, _FSUIT, _FR0, _FJ, _FNS, _FNEED, _FLO, _FHI, _FBEST, _FI, _FSTOP, _FGAIN = (
    0,
    1,
    2,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    13,
    14,
)
_FT, _FW, _FENT, _FD0 = 15, 16, 17, 18
_FOJ, _FOJS = 22, 23  # jokers the open runs need (:func:`_suit_jokers`): all, this suit's
_FSL = 24  # room for jokers in the sets so far (placed at the end, :func:`_ask`)
_FOJ0 = 25  # four columns: each suit's term of _FOJ (a move changes its suit's only)
_FWIDTH = 29


# -- the memo: dense entries behind an open-addressing index ---------------------------
# keys (n, 9: open runs and ended debts per suit, the rest packed) and values (n, 4) = (lo, hi, choice, span of the state's moves in the move
# store or -1) are stored densely in the order the states are met (an entry never moves,
# so the stack can keep its id); the index (cap,) maps hash slots to entry ids (-1: empty),
# cap a power of 2 at least twice the entries. Growing rehashes the small index only and
# copies the dense arrays, so the memory touched stays proportional to the states (a
# table of whole entries grown by rehashing faulted in tens of megabytes at a time).


@_jit
def _slot(tk: Any, ix: Any, key: Any) -> int:
    """The index slot holding this key (nine integers), or the empty slot where it would go."""
    h = key[8] * 0x165667B1
    for c in range(8):
        h = h * 0x9E3779B1 + key[c] * 0x85EBCA77
        h ^= h >> 29
    h *= 0x7FEB352D
    h ^= h >> 32
    mask = ix.shape[0] - 1
    i = h & mask
    while True:
        x = ix[i]
        if x < 0:
            return i  # type: ignore[no-any-return]
        same = True
        for c in range(9):
            if tk[x, 8 - c] != key[8 - c]:
                same = False
                break
        if same:
            return i  # type: ignore[no-any-return]
        i = (i + 1) & mask


@_jit
def _entry(tk: Any, ix: Any, key: Any) -> int:
    """The entry id of this key, or -1."""
    return ix[_slot(tk, ix, key)]  # type: ignore[no-any-return]


@_jit
def _grown_index(tk: Any, n: int, cap: int) -> Any:
    """An index of ``cap`` slots over the first ``n`` entries."""
    ix = np.full(cap, -1, np.int32)
    for x in range(n):
        ix[_slot(tk, ix, tk[x])] = x
    return ix


@_jit
def _grown_dense(a: Any) -> Any:
    """The same rows with twice the room."""
    out = np.empty((a.shape[0] * 2, a.shape[1]), np.int64)
    out[: a.shape[0]] = a
    return out


@_jit
def _moves_of(
    pos: int,
    suit: int,
    R: int,
    t: int,
    h: int,
    jleft: int,
    nxta: Any,
    scap: Any,
    prm: Any,
    mc: Any,
    mstore: Any,
    ws: Any,
) -> int:
    """The (start << 32 | count) span of this situation's moves in the store; -1 if full.

    Situations are remembered in ``mc``, an open-addressing table of rows (runs, the
    rest of the situation packed, span; span -1: empty) with room for one more."""
    first = prm[_ACE] != LOW and pos == 0
    high_end = prm[_ACE] == HIGH and pos == 1
    L = prm[_L]
    last = pos == 12
    jstart = 0
    if prm[_PIN] == 2:
        jstart = 2
    elif prm[_PIN] == 1:
        # a run that begins with a joker here reaches length L by the K, or else it can
        # only be a run up to the high ace (high-or-low); with aces low it never ends
        if pos <= 13 - L:
            jstart = 1
        elif prm[_ACE] == LOW:
            jstart = 2
    k2 = (
        t
        | (h << 4)
        | (jleft << 8)
        | (scap[pos, suit] << 12)
        | ((nxta[pos, suit] + 1) << 16)
        | (int(first) << 24)
        | (int(high_end) << 25)
        | (jstart << 26)
        | (int(last) << 28)
    )
    i = _mc_slot(mc, R, k2)
    if mc[i, 2] >= 0:
        return mc[i, 2]  # type: ignore[no-any-return]
    top = int(prm[_TOP])
    c = _gen_moves(
        R, t, h, jleft, scap[pos, suit], nxta[pos, suit], L, prm[_M], first, high_end,
        jstart, last, mstore, top, ws,
    )  # fmt: skip
    if c < 0:
        return -1
    prm[_TOP] = top + c
    span = (top << 32) | c
    mc[i, 0] = R
    mc[i, 1] = k2
    mc[i, 2] = span
    prm[_MCN] += 1
    return span


@_jit
def _mc_slot(mc: Any, a: int, b: int) -> int:
    h = a * 0x9E3779B1 + b * 0x85EBCA77
    h ^= h >> 29
    h *= 0x7FEB352D
    h ^= h >> 32
    mask = mc.shape[0] - 1
    i = h & mask
    while mc[i, 2] >= 0 and (mc[i, 0] != a or mc[i, 1] != b):
        i = (i + 1) & mask
    return i  # type: ignore[no-any-return]


@_jit
def _grown_mc(mc: Any) -> Any:
    """The same situations in a table with four times the room."""
    out = np.full((mc.shape[0] * 4, 3), -1, np.int64)
    for x in range(mc.shape[0]):
        if mc[x, 2] >= 0:
            i = _mc_slot(out, mc[x, 0], mc[x, 1])
            for y in range(3):
                out[i, y] = mc[x, y]
    return out


@_jit
def _suit_jokers(R: int, D: int, q0: int, s: int, cnt: Any, L: int, scr: Any) -> int:
    """Jokers one suit's open runs ``R`` and ended debts ``D`` need at least, at ranks from
    ``q0`` on, counted per cell.

    A run that cannot end yet (shorter than ``L``) takes a card at each of the next
    ``L`` - its length ranks of its suit (every rank up to the K when pinned); every debt
    (open or ended) pairs with a distinct run leaving the K at least ``L`` - its length
    long (one card at least), so the suit's K holds a card for each debt, its Q for each
    debt shorter than ``L`` - 1, and so on. The runs through a cell are at least the larger
    of the two counts; what its naturals (table and hand) cannot give, jokers must. Cells
    are distinct, so the jokers of all suits add up: a state's sum is kept in its frame
    (column ``_FOJ``, each suit's term in ``_FOJ0`` + suit), and a move changes its
    suit's term only (the suits before the one to move have had their cards of the rank:
    ``q0`` = rank + 1, the others ``q0`` = rank).
    ``scr``: scratch space, two rows of at least 13, left zero."""
    if R == 0 and D == 0:
        return 0
    run = scr[0]
    debt = scr[1]
    lo = 13
    while R:
        lab = R & 63
        ln = lab & 0xF
        R >>= 6
        if ln == _PINNED:
            e = 13
        elif ln > L:
            debt[12] += 1
            lo = min(lo, 12)
            continue
        elif ln < L:
            e = min(q0 + L - ln, 13)
        else:
            continue
        for q in range(q0, e):
            run[q] += 1
        lo = min(lo, q0)
    while D:
        need = max(L - ((D & 0xF) - 8), 1)
        for k in range(need):
            debt[12 - k] += 1
        lo = min(lo, 13 - need)
        D >>= 6
    total = 0
    for q in range(lo, 13):
        x = max(run[q], debt[q])
        if x and q >= q0:
            total += max(0, x - cnt[0, q, s] - cnt[1, q, s])
        run[q] = 0
        debt[q] = 0
    return total


@_jit
def _sets_possible(ns: int, suit: int, pos: int, scap: Any, jokers: int) -> bool:
    """Whether the naturals given to sets at this rank by the suits up to ``suit`` (sorted,
    packed four bits each in ``ns``) may still all be in sets: the largest count is at
    least the number of sets, each of three cards or more, one natural per suit; the
    suits after ``suit`` give at most ``scap`` (no more than that number each, which
    would only add sets) and ``jokers`` more (those the open runs do not need)."""
    big = (ns >> (4 * suit)) & 15
    tot = 0
    x = ns
    while x:
        tot += x & 15
        x >>= 4
    for s in range(suit + 1, 4):
        tot += min(scap[pos, s], big)
    return 3 * big <= tot + jokers


@_jit
def _room(mask: int, k: int) -> int:
    """How many more jokers than ``k`` the sets may take: the feasible joker counts (bits
    of ``mask``) k + 1, k + 2, ... in a row."""
    room = 0
    while (mask >> (k + room + 1)) & 1:
        room += 1
    return room


@_jit
def _again(fr: Any, prm: Any, rlo: int, rhi: int) -> bool:
    """After the root's answer (rlo, rhi): whether the descent asks again, at the root's
    new upper bound (then set as the root's need; the memo keeps every bound)."""
    if rlo >= fr[0, _FNEED] or rhi < 0 or rhi <= prm[_FLOOR] or prm[_STEPS] <= 1:
        return False
    prm[_STEPS] -= 1
    fr[0, _FNEED] = rhi
    return True


@_jit
def _empty_ranks(cnt: Any, cyclic: bool) -> Any:
    """Per rank with no card (table or hand), the fewest ranks any suit's run beginning
    there must fill with jokers before its first natural (99: no run can; -1 at a rank
    with cards).

    A state at such a rank with no open run (debts are open runs too) has one line
    through it when
    every meld needs a natural (``min_nat`` >= 1) and fewer jokers are left than that:
    no set (no naturals), no run beginning with a joker, each suit's move "nothing" and
    no joker for the sets. :func:`_ask` (``prm[_SKIP]``) goes straight on to the next
    rank from there, and :func:`_path` reads a missing state at suit 0 as such a rank."""
    out = np.full(13, -1, np.int64)
    for r in range(13):
        if cnt[0, r, 0] + cnt[0, r, 1] + cnt[0, r, 2] + cnt[0, r, 3] > 0:
            continue
        if cnt[1, r, 0] + cnt[1, r, 1] + cnt[1, r, 2] + cnt[1, r, 3] > 0:
            continue
        least = 99
        for s in range(4):
            g = 0
            while g < 13:
                q = r + g
                if q > 12:
                    if not cyclic:
                        g = 99  # no natural of this suit up to the K: no run at all
                        break
                    q -= 13
                if cnt[0, q, s] + cnt[1, q, s] > 0:
                    break
                g += 1
            if g == 13:
                g = 99  # no natural of this suit at all
            least = min(least, g)
        out[r] = least
    return out


@_jit
def _ask(
    need0: int,
    cnt: Any,
    wt: Any,
    nxta: Any,
    scap: Any,
    suffix: Any,
    ubj: Any,
    setj: Any,
    prm: Any,
    tk: Any,
    tv: Any,
    ts: Any,
    mcache: Any,
    mstore: Any,
) -> Any:
    """Can everything add at least ``need0``? The root's bounds (lo, hi) after the search.

    Each state answers "can the rest add at least ``need``?" with its memoised bounds:
    ``lo >= need`` yes (its choice reaches ``lo``), ``hi < need`` no. Children are tried in
    move order and cut by their own upper bound; the search is depth-first on an explicit
    stack. Sets ``prm[_ABORT]`` and returns (NEG, NEG) when over budget or out of move store.
    Returns (lo, hi), the memo's arrays and the situations' table (new ones when grown).
    While the answer is no and ``prm[_STEPS]`` > 1, the root is asked again at its new
    upper bound, as long as that stays above ``prm[_FLOOR]`` (see :meth:`FastSearch.ask`).
    """
    jt = prm[_JT]
    jmax = prm[_JMAX]
    jw = prm[_JW]
    npos = prm[_NPOS]
    L = prm[_L]
    M = prm[_M]
    cyclic = prm[_ACE] != LOW
    rooms = prm.shape[0] > _ROOM and prm[_ROOM] == 1
    skip = prm.shape[0] > _SKIP and prm[_SKIP] == 1 and prm[_ACE + 2] >= 1
    gap = _empty_ranks(cnt, cyclic) if skip else np.zeros(0, np.int64)
    fr = np.zeros((npos * 5 + 2, _FWIDTH), np.int64)
    key = np.zeros(9, np.int64)
    scr = np.zeros((2, 16), np.int64)
    ws = _workspace()
    d = 0
    fr[0, _FNEED] = need0
    entering = True
    rlo = NEG
    rhi = NEG
    while True:
        pos = fr[d, _FPOS]
        suit = fr[d, _FSUIT]
        j = fr[d, _FJ]
        if skip and entering and suit == 0:
            # ranks where nothing can happen (:func:`_empty_ranks`): on to the next
            while (
                pos < npos
                and gap[pos] > jmax - j
                and not (cyclic and pos == 0)
                and fr[d, _FR0] | fr[d, _FR0 + 1] | fr[d, _FR0 + 2] | fr[d, _FR0 + 3] == 0
            ):
                pos += 1
            fr[d, _FPOS] = pos
        ns = fr[d, _FNS]
        sl = fr[d, _FSL]
        k4 = pos | (suit << 4) | (j << 8) | (ns << 16) | (sl << 32) | (jmax << 36)
        need = fr[d, _FNEED]
        if entering:
            entering = False
            for c in range(4):
                key[c] = fr[d, _FR0 + c]
                key[4 + c] = fr[d, _FD0 + c]
            key[8] = k4
            q = _slot(tk, ts, key)
            ent = ts[q]
            if ent >= 0:
                lo = tv[ent, 0]
                hi = tv[ent, 1]
            else:
                if prm[_STATES] >= prm[_BUDGET]:
                    prm[_ABORT] = 1
                    return (NEG, NEG, tk, tv, ts, mcache)
                if pos == npos:
                    # the jokers the sets have room for, as many as are left
                    ex = min(sl, jmax - j)
                    lo = (max(0, j + ex - jt) - max(0, j - jt)) * jw if j + ex >= jt else NEG
                    if cyclic and lo > NEG:
                        for c in range(4):
                            if not _paired(fr[d, _FR0 + c], fr[d, _FD0 + c], L, M):
                                lo = NEG
                                break
                    hi = lo
                else:
                    lo = NEG
                    hi = ubj[pos, suit, jmax - j] + (jmax - max(j, jt)) * jw
                ent = prm[_STATES]
                if ent >= tk.shape[0]:
                    tk = _grown_dense(tk)
                    tv = _grown_dense(tv)
                if 2 * (ent + 1) > ts.shape[0]:
                    ts = _grown_index(tk, ent, ts.shape[0] * 4)
                    q = _slot(tk, ts, key)
                ts[q] = ent
                for c in range(9):
                    tk[ent, c] = key[c]
                tv[ent, 0] = lo
                tv[ent, 1] = hi
                tv[ent, 2] = min(sl, jmax - j) if pos == npos else -1
                tv[ent, 3] = -1
                prm[_STATES] += 1
            fr[d, _FENT] = ent
            if lo >= need or hi < need:
                rlo = lo
                rhi = hi
                if d == 0:
                    if _again(fr, prm, rlo, rhi):
                        entering = True
                        continue
                    return (rlo, rhi, tk, tv, ts, mcache)
                d -= 1
                continue
            fr[d, _FLO] = lo
            fr[d, _FHI] = hi
            fr[d, _FBEST] = NEG
            if suit < 4:
                if suit == 0:
                    R = fr[d, 2]
                elif suit == 1:
                    R = fr[d, 3]
                elif suit == 2:
                    R = fr[d, 4]
                else:
                    R = fr[d, 5]
                t = cnt[0, pos, suit]
                span = tv[ent, 3]
                if span < 0:
                    if 2 * (prm[_MCN] + 1) > mcache.shape[0]:
                        mcache = _grown_mc(mcache)
                    span = _moves_of(
                        pos,
                        suit,
                        R,
                        t,
                        cnt[1, pos, suit],
                        jmax - j,
                        nxta,
                        scap,
                        prm,
                        mcache,
                        mstore,
                        ws,
                    )
                    if span < 0:
                        prm[_ABORT] = 1
                        return (NEG, NEG, tk, tv, ts, mcache)
                    tv[ent, 3] = span
                fr[d, _FI] = span >> 32
                fr[d, _FSTOP] = (span >> 32) + (span & 0xFFFFFFFF)
                fr[d, _FT] = t
                fr[d, _FW] = wt[pos, suit]
                # this suit's term of the open runs' jokers, before its move at this rank
                fr[d, _FOJS] = fr[d, _FOJ0 + suit]
            else:
                fr[d, _FI] = jmax - j
                fr[d, _FSTOP] = -1
        else:
            # a child answered (rlo, rhi) for the candidate fr[d, _FI]
            gain = fr[d, _FGAIN]
            if rlo > NEG and rlo + gain >= need:
                lo = rlo + gain
                hi = fr[d, _FHI]
                ent = fr[d, _FENT]
                tv[ent, 0] = lo
                k = fr[d, _FI]
                # a set state's choice: its jokers, and the room left for more
                if suit < 4 or not rooms:
                    tv[ent, 2] = k
                else:
                    tv[ent, 2] = k | (_room(setj[ns], k) << 8)
                if not prm[_EXACT] or lo >= hi:
                    rlo = lo
                    rhi = hi
                    if d == 0:
                        if _again(fr, prm, rlo, rhi):
                            entering = True
                            continue
                        return (rlo, rhi, tk, tv, ts, mcache)
                    d -= 1
                    continue
                # the best mode: keep looking, now only for something better than lo
                fr[d, _FLO] = lo
                fr[d, _FNEED] = lo + 1
                need = lo + 1
                if rhi > rlo:
                    # the child's answer came from its memo and may not be its best: ask
                    # the same child again for more before moving on
                    rhi = NEG
                    fr[d, _FI] -= 1 if suit < 4 else -1
            if rhi > NEG and rhi + gain > fr[d, _FBEST]:
                fr[d, _FBEST] = rhi + gain
            fr[d, _FI] += 1 if suit < 4 else -1
        # the next candidate, or the end of this state
        pushed = False
        if suit < 4:
            t = fr[d, _FT]
            w = fr[d, _FW]
            nxt_ub = suffix[pos, suit + 1]
            i = fr[d, _FI]
            stop = fr[d, _FSTOP]
            while i < stop:
                mv = mstore[i, 0]
                used = mv & 15
                mj = (mv >> 4) & 15
                nj = j + mj
                gain = (used - t) * w + (max(0, nj - jt) - max(0, j - jt)) * jw
                jbound = (jmax - max(nj, jt)) * jw
                plain = nxt_ub + jbound + gain
                if plain < need:
                    # the joker terms of the plain bound cancel out, so it falls with
                    # the hand cards a move uses; moves come most cards first: none of
                    # the rest can reach need either (and none beats this bound)
                    if plain > fr[d, _FBEST]:
                        fr[d, _FBEST] = plain
                    i = stop
                    break
                cub = ubj[pos, suit + 1, jmax - nj] + jbound + gain
                if cub < need:
                    # too many jokers for the cards still to place
                    if cub > fr[d, _FBEST]:
                        fr[d, _FBEST] = cub
                    i += 1
                    continue
                fr[d, _FGAIN] = gain
                c = d + 1
                fr[c, _FPOS] = pos
                fr[c, _FSUIT] = suit + 1
                for q in range(4):
                    fr[c, _FR0 + q] = fr[d, _FR0 + q]
                    fr[c, _FD0 + q] = fr[d, _FD0 + q]
                    fr[c, _FOJ0 + q] = fr[d, _FOJ0 + q]
                fr[c, _FR0 + suit] = mstore[i, 1]
                if mstore[i, 2]:
                    fr[c, _FD0 + suit] = _merge6(fr[d, _FD0 + suit], mstore[i, 2])
                fr[c, _FJ] = nj
                fr[c, _FSL] = min(sl, jmax - nj)
                term = _suit_jokers(
                    fr[c, _FR0 + suit], fr[c, _FD0 + suit], pos + 1, suit, cnt, L, scr
                )
                fr[c, _FOJ0 + suit] = term
                oj = fr[d, _FOJ] - fr[d, _FOJS] + term
                fr[c, _FOJ] = oj
                spare = jmax - nj - oj
                if spare < 0:
                    i += 1  # its open runs cannot all be finished: no completion at all
                    continue
                nsc = _insert_sorted(ns, suit, (mv >> 8) & 15)
                if nsc and not _sets_possible(nsc, suit, pos, scap, spare):
                    i += 1  # the naturals given to sets at this rank cannot all be in sets
                    continue
                fr[c, _FNS] = nsc
                fr[c, _FNEED] = need - gain
                pushed = True
                break
            fr[d, _FI] = i
        else:
            mask = setj[ns]
            k = fr[d, _FI]
            # the jokers the open runs still need are not the sets'
            kmax = jmax - j - fr[d, _FOJ]
            # only the least joker count of each run of feasible counts: the rest of the
            # run is room for jokers, filled at the end with the jokers left
            while k >= 0 and (
                k > kmax or not (mask >> k) & 1 or (rooms and k > 0 and (mask >> (k - 1)) & 1)
            ):
                k -= 1
            fr[d, _FI] = k
            if k >= 0:
                nj = j + k
                room = _room(mask, k) if rooms else 0
                gain = (max(0, nj - jt) - max(0, j - jt)) * jw
                fr[d, _FGAIN] = gain
                c = d + 1
                fr[c, _FPOS] = pos + 1
                fr[c, _FSUIT] = 0
                for q in range(4):
                    fr[c, _FR0 + q] = fr[d, _FR0 + q]
                    fr[c, _FD0 + q] = fr[d, _FD0 + q]
                    fr[c, _FOJ0 + q] = fr[d, _FOJ0 + q]
                fr[c, _FJ] = nj
                fr[c, _FSL] = min(sl + room, jmax - nj)
                fr[c, _FNS] = 0
                fr[c, _FOJ] = fr[d, _FOJ]  # every suit from the next rank on, as here
                fr[c, _FNEED] = need - gain
                pushed = True
        if pushed:
            d += 1
            entering = True
            continue
        # no candidate left: the state's upper bound falls to the best child's
        lo = fr[d, _FLO]
        hi = min(fr[d, _FHI], fr[d, _FBEST])
        tv[fr[d, _FENT], 1] = hi
        rlo = lo
        rhi = hi
        if d == 0:
            if _again(fr, prm, rlo, rhi):
                entering = True
                continue
            return (rlo, rhi, tk, tv, ts, mcache)
        d -= 1


@_jit
def _next_and_caps(av: Any, jm: int, set_max: int, cyclic: bool) -> Any:
    """Of the naturals ``av[rank, suit]`` (table and hand): per cell, the next rank's
    naturals of its suit (99 after the K with a cyclic ace, -1 after it otherwise) and
    how many of its naturals sets can take beside the other suits and ``jm`` jokers; per
    rank, the suits present."""
    nxta = np.full((13, 4), -1, np.int64)
    scap = np.zeros((13, 4), np.int64)
    suits_at = np.zeros(13, np.int64)
    for r in range(13):
        others_present = 0
        tot = 0
        for s in range(4):
            if av[r, s] > 0:
                others_present += 1
            tot += av[r, s]
        suits_at[r] = others_present
        for s in range(4):
            if r < 12:
                nxta[r, s] = av[r + 1, s]
            elif cyclic:
                nxta[r, s] = 99
            present = others_present - (1 if av[r, s] > 0 else 0)
            if present + jm >= 2 and set_max >= 3:
                scap[r, s] = min(av[r, s], (tot - av[r, s] + jm) // 2)
    return nxta, scap, suits_at


@_jit
def _sort(a: Any, start: int, n: int) -> None:
    """Sort ``a[start : start + n]`` in place (insertion sort: at most 16 entries)."""
    for x in range(start + 1, start + n):
        v = a[x]
        y = x - 1
        while y >= start and a[y] > v:
            a[y + 1] = a[y]
            y -= 1
        a[y + 1] = v


@_jit
def _cell_windows(av: Any, suits_at: Any, big: int, L: int, set_max: int, cyclic: bool) -> Any:
    """Per cell with naturals ``av[rank, suit]``: the jokers of its cheapest set
    (``big`` where no set can hold it), and per run window through it the mask of the
    window's ranks other than the cell's with no natural of its suit (``masks``, the
    first ``nmask`` of 16 per cell)."""
    setneed = np.full((13, 4), big, np.int64)
    masks = np.zeros((13, 4, 16), np.int64)
    nmask = np.zeros((13, 4), np.int64)
    for p in range(13):
        for s in range(4):
            if av[p, s] == 0:
                continue
            if set_max >= 3:
                setneed[p, s] = max(0, 3 - suits_at[p])
            for a in range(p - L + 1 if cyclic else max(0, p - L + 1), p + 1):
                if not cyclic and a + L - 1 > 12:
                    break
                m = 0
                for q0 in range(a, a + L):
                    q = (q0 + 13) % 13
                    if q != p and av[q, s] == 0:
                        m |= 1 << q
                masks[p, s, nmask[p, s]] = m
                nmask[p, s] += 1
    return setneed, masks, nmask


@_jit
def _prepare(cnt: Any, wt: Any, jm: int, L: int, set_max: int, cyclic: bool) -> Any:
    """Per-rank tables of a problem: the next rank's naturals per suit, how many naturals
    of a suit sets can take at a rank, and the upper bounds of the search.

    ``suffix[pos, suit]``: weight of the hand naturals from cell (pos, suit) on, in the
    order the search visits them (rank by rank, suit by suit; column 4 = the next rank).

    ``ubj[pos, suit, k]``: the same sum restricted to the cards that could still be placed
    with ``k`` jokers left. A card at rank p ≥ pos needs at least as many jokers as the
    cheapest meld through it asks for at ranks after ``pos`` (ranks up to ``pos`` may hold
    jokers placed already): a set needs 3 minus the suits present at p; a run holds a
    window of ``L`` ranks through p, and each rank of it after ``pos`` with no natural of
    that suit anywhere (table or hand) needs a joker. With a cyclic ace the windows wrap
    round the K–A corner (a superset of high-or-low's: still a lower bound), and a run may
    be open after the K (it pairs with a debt), so the last rank has no lookahead.
    """
    av = cnt[0] + cnt[1]
    nxta, scap, suits_at = _next_and_caps(av, jm, set_max, cyclic)
    suffix = np.zeros((14, 5), np.int64)
    for r in range(12, -1, -1):
        acc = suffix[r + 1, 0]
        suffix[r, 4] = acc
        for s in range(3, -1, -1):
            acc += cnt[1, r, s] * wt[r, s]
            suffix[r, s] = acc
    big = jm + 1
    ubj = np.zeros((14, 5, jm + 1), np.int64)
    needc = np.zeros((13, 4), np.int64)
    # per pos the jokers a cell needs at ranks after pos are the bits of its windows'
    # masks above pos
    setneed, masks, nmask = _cell_windows(av, suits_at, big, L, set_max, cyclic)
    # scratch arrays of the loop below, cleared per rank (allocated once: a small
    # problem's set-up is mostly allocations otherwise)
    picked = np.zeros((13, 4), np.bool_)
    used_s = np.zeros(4, np.bool_)
    used_r = np.zeros(13, np.bool_)
    ki = np.zeros(64, np.int64)  # picked hand copies: at most 4 cells of 15 copies
    kv = np.zeros(64, np.int64)
    knap = np.zeros(jm + 1, np.int64)  # best weight of picked hand copies per jokers
    after = np.zeros(jm + 1, np.int64)
    here = np.zeros((4, jm + 1), np.int64)
    for pos in range(13):
        # jokers each card needs at ranks after pos
        above = ((1 << 13) - 1) & ~((1 << (pos + 1)) - 1)
        most = 0  # the most jokers a card after pos needs (within jm)
        for p in range(pos, 13):
            for s in range(4):
                need = setneed[p, s]
                for w in range(nmask[p, s]):
                    need = min(need, _POP13[masks[p, s, w] & above])
                needc[p, s] = need
                if p > pos and need <= jm and need > most:
                    most = need
        # Cards in different suits and of different ranks never share a meld, nor do two
        # copies of one card: the jokers such cards need add up. Pick such cells after
        # pos, neediest first (table cells first: they must be placed); their hand copies
        # share the jokers left over from the table's (a small knapsack), every other
        # hand card counts if it could be placed with the jokers left on its own.
        picked[:] = False
        used_s[:] = False
        used_r[:] = False
        mand = 0
        nk = 0
        for want in range(most, 0, -1):
            for tab in range(2):
                for p in range(pos + 1, 13):
                    for s in range(4):
                        if used_s[s] or used_r[p] or needc[p, s] != want:
                            continue
                        if (tab == 0 and cnt[0, p, s] == 0) or (tab == 1 and cnt[1, p, s] == 0):
                            continue
                        picked[p, s] = True
                        used_s[s] = True
                        used_r[p] = True
                        mand += want * cnt[0, p, s]
                        for _ in range(cnt[1, p, s]):
                            ki[nk] = want
                            kv[nk] = wt[p, s]
                            nk += 1
        knap[:] = 0
        for i in range(nk):
            for k in range(jm, ki[i] - 1, -1):
                if knap[k - ki[i]] + kv[i] > knap[k]:
                    knap[k] = knap[k - ki[i]] + kv[i]
        after[:] = 0
        here[:] = 0
        for p in range(pos, 13):
            for s in range(4):
                need = needc[p, s]
                if cnt[1, p, s] == 0 or need > jm or picked[p, s]:
                    continue
                val = cnt[1, p, s] * wt[p, s]
                if p > pos:
                    for k in range(need, jm + 1):
                        after[k] += val
                else:
                    for k in range(need, jm + 1):
                        here[s, k] += val
        for k in range(jm + 1):
            if k < mand:
                # the table's own cards need more jokers than are left
                for s in range(5):
                    ubj[pos, s, k] = _INFEASIBLE
                continue
            acc = after[k] + knap[k - mand]
            ubj[pos, 4, k] = acc
            for s in range(3, -1, -1):
                acc += here[s, k]
                ubj[pos, s, k] = acc
    return nxta, scap, suffix, ubj, av.max()


@_jit
def _path(tk: Any, tv: Any, ts: Any, mstore: Any, npos: int) -> Any:
    """The choices along the best line from the root: per rank, the move index of each
    suit and the jokers given to sets (columns 0-3 and 4)."""
    out = np.zeros((npos, 5), np.int64)
    room = np.zeros(npos, np.int64)
    key = np.zeros(9, np.int64)
    jmax = (tk[0, 8] >> 36) & 15  # every key holds it; the root is the first entry
    j = 0
    sl = 0
    for pos in range(npos):
        ns = 0
        key[8] = pos | (j << 8) | (sl << 32) | (jmax << 36)
        if _entry(tk, ts, key) < 0:
            # a rank the search passed over (:func:`_empty_ranks`): no move, no set
            out[pos, :4] = -1
            continue
        for suit in range(4):
            key[8] = pos | (suit << 4) | (j << 8) | (ns << 16) | (sl << 32) | (jmax << 36)
            i = tv[_entry(tk, ts, key), 2]
            out[pos, suit] = i
            mv = mstore[i, 0]
            key[suit] = mstore[i, 1]
            if mstore[i, 2]:
                key[4 + suit] = _merge6(key[4 + suit], mstore[i, 2])
            j += (mv >> 4) & 15
            sl = min(sl, jmax - j)
            ns = _insert_sorted(ns, suit, (mv >> 8) & 15)
        key[8] = pos | (4 << 4) | (j << 8) | (ns << 16) | (sl << 32) | (jmax << 36)
        ch = tv[_entry(tk, ts, key), 2]
        k = ch & 0xFF
        out[pos, 4] = k
        room[pos] = ch >> 8
        j += k
        sl = min(sl + room[pos], jmax - j)
    # the jokers placed at the end go to the sets with room for them
    key[8] = npos | (j << 8) | (sl << 32) | (jmax << 36)
    extra = tv[_entry(tk, ts, key), 2]
    for pos in range(npos):
        add = min(room[pos], extra)
        out[pos, 4] += add
        extra -= add
    return out


@_jit
def _root_bound(tk: Any, tv: Any, ts: Any, col: int, missing: int) -> int:
    """The root's memoised lower (col 0) or upper (col 1) bound; ``missing`` if none."""
    x = _entry(tk, ts, np.zeros(9, np.int64))
    return tv[x, col] if x >= 0 else missing


# -- the Python side ---------------------------------------------------------------------


def _pin_mode(spec: CoreSpec) -> int:
    """How runs may begin with a joker: 0 freely, 1 pinned, 2 never.

    When every run holds a natural (``min_nat`` >= 1), a run's leading jokers can move to
    its other end, one rank up each, as long as the run does not end at the K (aces low,
    high-or-low) — with wrap-around aces always. So some optimal play has no run that
    begins with a joker (wrap-around; debts, runs that came round the corner, aside), or
    only runs that stay open up to the K, which reach length ``L`` there when they begin
    at the 13 - ``L``-th rank or earlier (later only a run up to the high ace can begin
    with a joker). Cuts the runs guessed with a joker at every rank (exact: the
    canonical play is still searched)."""
    if spec.min_nat < 1 or not 2 <= spec.min_len <= 13:
        return 0
    return 2 if spec.ace == WRAP else 1


@cache
def _set_table(copies: int, jmax: int, min_nat: int, set_max: int) -> np.ndarray[Any, Any]:
    """Bit k of entry ``pack(sorted naturals per suit)`` is set when k jokers can join."""
    out = np.zeros(1 << 16, np.int64)
    for vec in combinations_with_replacement(range(copies + 1), 4):
        packed = 0
        for i, v in enumerate(vec):
            packed |= v << (4 * i)
        mask = 0
        for k in set_jokers(vec, jmax, min_nat, set_max):
            mask |= 1 << k
        out[packed] = mask
    return out


_POP13 = np.array([bin(m).count("1") for m in range(1 << 13)], np.int64)
"""The number of ranks in each rank mask (:func:`_bare_tables`)."""

_SLICE = 256
"""States the first turn of each side of a bare question's race may visit (the turns then
double; see :func:`_bare`)."""


@_jit
def _copies_need(
    av: Any,
    p: int,
    s: int,
    c: int,
    rn: int,
    runs: bool,
    pos: int,
    L: int,
    set_max: int,
    cyclic: bool,
) -> int:
    """The fewest jokers at ranks after ``pos`` that the ``c`` copies of cell (rank ``p``,
    suit ``s``) need together, each copy in a meld of its own: ``x`` of them in sets and
    the rest in runs, the least over ``x``. Sets: each of the ``x`` sets holds two cards
    beside the copy, at most one of each other suit, so a suit with ``n`` cards at the rank
    gives at most ``min(n, x)`` of them; jokers give the rest. Runs: each of the ``m`` runs
    needs at least ``rn`` (the cheapest window's missing cards after ``pos``), and holds at
    least ``L - 1`` of the cells within ``L - 1`` ranks of ``p``; such a cell after ``pos``
    gives at most ``min(its copies, m)`` naturals to them, jokers the rest (a cell up to
    ``pos`` is decided already and counts as giving them all)."""
    best = 1 << 30
    for x in range(c + 1):
        sj = 0
        if x:
            if set_max < 3:
                continue
            sup = 0
            for o in range(4):
                if o != s:
                    sup += min(av[p, o], x)
            sj = max(0, 2 * x - sup)
        m = c - x
        rj = 0
        if m:
            if not runs:
                continue
            sup = 0
            for dq in range(1 - L, L):
                if dq == 0:
                    continue
                q = p + dq
                if q < 0 or q > 12:
                    if not cyclic:
                        continue
                    q %= 13
                sup += min(av[q, s], m) if q > pos else m
            rj = max(m * rn, (L - 1) * m - sup)
        best = min(best, sj + rj)
    return best


@_jit
def _bare_tables(cnt: Any, jm: int, L: int, set_max: int, cyclic: bool) -> Any:
    """:func:`_prepare`'s tables for a problem without a hand (``cnt[1]`` all zero), the
    same arrays at a fraction of the cost: with no hand the sums of hand weights are
    zero, and the upper bounds ``ubj`` only say where the table's own cards need more
    jokers than are left (``_INFEASIBLE``). The jokers a card needs at ranks after
    ``pos`` are counted once per run window as the rank mask of the window's missing
    cards, then per ``pos`` as the bits of the mask above it."""
    av = cnt[0]
    nxta, scap, suits_at = _next_and_caps(av, jm, set_max, cyclic)
    suffix = np.zeros((14, 5), np.int64)
    big = jm + 1
    ubj = np.zeros((14, 5, jm + 1), np.int64)
    setneed, masks, nmask = _cell_windows(av, suits_at, big, L, set_max, cyclic)
    needc = np.zeros((13, 4), np.int64)
    needo = np.zeros((13, 4), np.int64)
    used_s = np.zeros(4, np.bool_)
    used_r = np.zeros(13, np.bool_)
    for pos in range(13):
        above = ((1 << 13) - 1) & ~((1 << (pos + 1)) - 1)
        live = False
        for p in range(pos + 1, 13):
            for s in range(4):
                c = av[p, s]
                if c == 0:
                    needc[p, s] = 0
                    continue
                rn = big
                for w in range(nmask[p, s]):
                    rn = min(rn, _POP13[masks[p, s, w] & above])
                one = min(setneed[p, s], rn)
                needo[p, s] = one
                if c == 1:
                    need = one
                else:
                    need = _copies_need(av, p, s, c, rn, nmask[p, s] > 0, pos, L, set_max, cyclic)
                need = min(need, big)
                needc[p, s] = need
                if need > 0 and (nmask[p, s] > 0 or set_max >= 3):
                    live = True
        if not live:
            # no card after pos needs a joker: nor after any later pos (the needs only
            # fall as pos grows, over fewer cards)
            break
        # the neediest cells first, no two in one suit or one rank: once by the jokers
        # each copy needs (_prepare's picking), once by all copies' need together
        # (each pick is a lower bound; the larger counts)
        mand = 0
        for by_copy in (True, False):
            used_s[:] = False
            used_r[:] = False
            got = 0
            for want in range(big if not by_copy else jm, 0, -1):
                for p in range(pos + 1, 13):
                    for s in range(4):
                        if used_s[s] or used_r[p] or av[p, s] == 0:
                            continue
                        if (needo[p, s] if by_copy else needc[p, s]) != want:
                            continue
                        used_s[s] = True
                        used_r[p] = True
                        got += want * av[p, s] if by_copy else want
            mand = max(mand, got)
        for k in range(min(mand, jm + 1)):
            for s in range(5):
                ubj[pos, s, k] = _INFEASIBLE
    return nxta, scap, suffix, ubj, av.max()


@_jit
def _frame(i: int, side: int, cut: int, low: bool) -> int:
    """The rank index of the position (the cards' own ranks) that rank index ``i`` of a
    bare question's search stands for: side 0 reads the ranks up from ``cut``, side 1 the
    other way (aces low: from the K down; otherwise from ``cut`` down round the corner)."""
    if side:
        i = 12 - i if low else (13 - i) % 13
    return (i + cut) % 13


@_jit
def _side_counts(tc: Any, side: int, cut: int, low: bool) -> Any:
    """A bare question's cards in the frame of one side of its race (``cnt[0]``: rank,
    suit; no hand)."""
    cnt = np.zeros((2, 13, 4), np.int64)
    for i in range(13):
        r = _frame(i, side, cut, low)
        for s in range(4):
            cnt[0, i, s] = tc[s, r]
    return cnt


@_jit
def _bare(
    tc: Any,
    tj: int,
    wins: Any,
    nwins: Any,
    wt: Any,
    setj: Any,
    prm: Any,
    mem: Any,
    mcache: Any,
    mstore: Any,
) -> Any:
    """One question of :class:`BareSearch`: can the cards ``tc`` (suit, rank index) and
    ``tj`` jokers all be laid out? First the test that each card fits some meld at all
    (a set of its rank, or a run window of ``wins[r, :nwins[r]]``: (length, rank mask)),
    then the search for "everything placed" (need 0).

    The search is a race of two searches of the same question that read the ranks in
    opposite directions (valid melds read backwards are valid melds, in every ace mode);
    with wrap-around aces both read away from the same seam, the pair of neighbouring
    ranks with the fewest cards together (the first such pair): side 0 up from its upper
    rank, side 1 down from its lower one (runs across the seam are the search's debts; on
    the tie-break's questions this seam visits 7-25 % fewer states than starting both at
    the rank with the fewest cards). Their turns alternate, each continuing on its own
    memo (every memoised bound stays valid), ``_SLICE`` states the first turn and twice
    as many each turn after, until one answers or together they have visited
    ``prm[_BUDGET]`` states. The two directions' costs differ up to a hundredfold on the
    tie-break's questions, either way round, and no cheap rule told which is the cheap
    one: the race costs at most about three times the cheaper one.

    Returns the root's lower bound (NEG: no, or a card fits nothing, or over budget:
    then ``prm[_ABORT]``), the side that answered, its cut, the memos ``mem`` (per side
    the arrays ``tk, tv, ts``, new ones when grown) and the situations' table. The
    answer's melds are in the side's frame: :func:`_frame` maps its ranks back."""
    L = prm[_L]
    min_nat = prm[_ACE + 2]
    set_max = prm[_ACE + 3]
    cyclic = prm[_ACE] != LOW
    low = not cyclic
    present = np.zeros(4, np.int64)
    here = np.zeros(13, np.int64)
    for s in range(4):
        for r in range(13):
            if tc[s, r]:
                present[s] |= 1 << r
                here[r] += 1
    sets = set_max >= 3
    if not (sets and tj >= 2 and min_nat <= 1):
        for s in range(4):
            for r in range(13):
                if not tc[s, r]:
                    continue
                if sets:
                    others = here[r] - 1
                    if others + tj >= 2 and 1 + min(others, 3) >= min_nat:
                        continue
                fits = False
                for w in range(nwins[r]):
                    ln = wins[r, w, 0]
                    both = present[s] & wins[r, w, 1]
                    nat = 0
                    while both:
                        both &= both - 1
                        nat += 1
                    if ln - nat <= tj and nat >= min_nat:
                        fits = True
                        break
                if not fits:
                    return NEG, 0, 0, mem, mcache
    # the seam (wrap-around aces): between the two neighbouring ranks with the fewest
    # cards together, the first pair of them; side 0 reads up from the seam's upper rank,
    # side 1 down from its lower one, and both end at the seam
    cut = 0
    cut1 = 0
    if prm[_ACE] == WRAP:
        fewest = -1
        for r in range(13):
            n = 0
            for s in range(4):
                n += tc[s, r] + tc[s, (r + 12) % 13]
            if fewest < 0 or n < fewest:
                fewest = n
                cut = r
        cut1 = (cut + 12) % 13
    tk0, tv0, ts0, tk1, tv1, ts1 = mem
    budget = prm[_BUDGET]
    prm1 = prm
    cnt0 = _side_counts(tc, 0, cut, low)
    nxta0, scap0, suffix0, ubj0, _c0 = _bare_tables(cnt0, tj, L, set_max, cyclic)
    cnt1 = cnt0
    nxta1, scap1, suffix1, ubj1 = nxta0, scap0, suffix0, ubj0
    ts0[:] = -1
    started = False
    done0 = 0
    done1 = 0
    lim = _SLICE
    while True:
        cap = min(lim, budget - done1)
        if cap > done0:
            prm[_BUDGET] = cap
            prm[_ABORT] = 0
            lo, _hi, tk0, tv0, ts0, mcache = _ask(
                0, cnt0, wt, nxta0, scap0, suffix0, ubj0, setj, prm, tk0, tv0, ts0, mcache,
                mstore,
            )  # fmt: skip
            if not prm[_ABORT]:
                prm[_BUDGET] = budget
                return lo, 0, cut, (tk0, tv0, ts0, tk1, tv1, ts1), mcache
            done0 = prm[_STATES]
            if done0 < cap:
                break  # out of move store
        cap = min(lim, budget - done0)
        if cap > done1:
            if not started:
                started = True
                prm1 = prm.copy()
                cnt1 = _side_counts(tc, 1, cut1, low)
                nxta1, scap1, suffix1, ubj1, _c1 = _bare_tables(cnt1, tj, L, set_max, cyclic)
                ts1[:] = -1
                prm1[_STATES] = 0
            prm1[_TOP] = prm[_TOP]
            prm1[_MCN] = prm[_MCN]
            prm1[_BUDGET] = cap
            prm1[_ABORT] = 0
            lo, _hi, tk1, tv1, ts1, mcache = _ask(
                0, cnt1, wt, nxta1, scap1, suffix1, ubj1, setj, prm1, tk1, tv1, ts1, mcache,
                mstore,
            )  # fmt: skip
            prm[_TOP] = prm1[_TOP]
            prm[_MCN] = prm1[_MCN]
            if not prm1[_ABORT]:
                prm[_ABORT] = 0
                prm[_BUDGET] = budget
                prm[_STATES] = done0 + prm1[_STATES]
                return lo, 1, cut1, (tk0, tv0, ts0, tk1, tv1, ts1), mcache
            done1 = prm1[_STATES]
            if done1 < cap:
                break  # out of move store
        if done0 + done1 >= budget:
            break
        lim *= 2
    prm[_ABORT] = 1
    prm[_BUDGET] = budget
    prm[_STATES] = done0 + done1
    return NEG, 0, cut, (tk0, tv0, ts0, tk1, tv1, ts1), mcache


class _Moves:
    """A move store and its situations' table, shared by the searches of one thread with
    the same ``min_len``, tracked naturals and ace mode. A situation's moves depend on
    nothing else (:func:`_moves_of`'s key holds the rest), and rows are only appended, so
    every search that shares them reads the moves it would have generated itself: a
    question of the kept-melds tie-break (tens of them a position) finds most of its
    situations' moves generated by the questions before it, and a position's search
    many of the situations of the positions solved before it (on the variant benchmark's
    3-deck rows generating the moves afresh per search was an eighth of the search's
    time)."""

    __slots__ = ("count", "mcache", "mstore", "top")

    def __init__(self, mstore: np.ndarray[Any, Any]) -> None:
        self.mcache = np.full((1 << 10, 3), -1, np.int64)
        self.mstore = mstore
        self.top = 0
        self.count = 0


_SHARE_ROWS = 1 << 17
"""A shared move store with more rows in use is replaced by a fresh one before the next
search (so each search has most of a store's room, and a thread keeps a few MB of moves
per kind)."""

_shared = threading.local()
"""Per thread (a compiled search runs without the GIL): ``moves`` (key -> :class:`_Moves`),
and ``runs``, the scratch space that reads an answer (:func:`_runs_space`)."""


@lru_cache(maxsize=64)
def _weights(weight: tuple[tuple[int, ...], ...]) -> np.ndarray[Any, Any]:
    """A problem's weights as a (rank, suit) array: the questions of one position share
    them (the search never writes them)."""
    return np.ascontiguousarray(np.array(weight, np.int64).T)


class FastSearch:
    """One problem prepared for the compiled search; questions share the memo.

    ``budget`` is in this search's own states; of ``settings`` it reads when the outside
    bound is worth asking (``compiled_lp_after``, ``compiled_lp_on_no``)."""

    def __init__(
        self,
        prob: CoreProblem,
        spec: CoreSpec,
        budget: int,
        settings: SolverSettings = DEFAULT_SETTINGS,
        cut: int = 0,
    ) -> None:
        self.upper_after = settings.compiled_lp_after
        self.upper_on_no = settings.compiled_lp_on_no
        # wrap-around aces: the search starts at rank index ``cut`` (see :func:`cuts`;
        # melds() turns the ranks back)
        self.shift = cut % 13 if spec.ace == WRAP else 0
        if self.shift:
            prob = _rotated(prob, self.shift)
        self.p = prob
        self.s = spec
        L = spec.min_len
        jm = prob.table_jokers + prob.hand_jokers
        self.M = tracked_naturals(prob, spec)
        self.L = L
        # (suit, rank) tuples -> (rank, suit) arrays
        cnt = np.array((prob.table, prob.hand), np.int64).transpose(0, 2, 1).copy()
        wt = _weights(prob.weight)
        nxta, scap, suffix, ubj, copies = _prepare(cnt, wt, jm, L, spec.set_max, spec.ace != LOW)
        self.cnt, self.wt, self.nxta, self.scap, self.suffix = cnt, wt, nxta, scap, suffix
        self.ubj = ubj
        # a table for more copies and jokers holds this one's entries (the search asks
        # only for vectors of these copies and joker counts up to the jokers left), so
        # one table serves every sub-problem of a position (each new one costs ms)
        self.setj = _set_table(max(copies, 4), max(jm, 6), spec.min_nat, spec.set_max)
        prm = [L, self.M, prob.table_jokers, jm, prob.joker_weight, budget, 13]
        prm.extend((0, 0, 0, 0, 0, 1, 0, spec.ace, _pin_mode(spec), 0, 0, 1))
        self.prm = np.array(prm, np.int64)
        self.tk = np.empty((1 << 11, 9), np.int64)
        self.tv = np.empty((1 << 11, 4), np.int64)
        self.ts = np.full(1 << 12, -1, np.int32)
        # the thread's shared move store; a search that fills it goes on in a copy of
        # its own (:meth:`_own_store`)
        self.moves: _Moves | None = self._shared_moves((L, self.M, spec.ace))
        self.mcache, self.mstore = self.moves.mcache, self.moves.mstore

    @staticmethod
    def _shared_moves(key: tuple[int, int, int]) -> _Moves:
        """This thread's shared move store for ``key``; a fresh one once it holds more than
        ``_SHARE_ROWS`` moves (a search of at most ``_SHARE_BUDGET`` states then still has
        room)."""
        table: dict[tuple[int, int, int], _Moves] | None = getattr(_shared, "moves", None)
        if table is None:
            table = _shared.moves = {}
        got = table.get(key)
        if got is None or got.top > _SHARE_ROWS:
            if got is None and len(table) >= 4:
                table.clear()
            got = table[key] = _Moves(np.empty((_STORE, 3), np.int64))
        return got

    def _own_store(self) -> bool:
        """After a question stopped because the move store is full: go on in a store of
        this search's own, twice as big, holding the rows so far (the memo's spans and
        choices are row numbers, so they stay valid). False when that would exceed
        ``_STORE_MAX`` rows (the search then gives up, as over budget)."""
        top = int(self.prm[_TOP])
        rows = 2 * self.mstore.shape[0]
        if rows > _STORE_MAX:
            return False
        store = np.empty((rows, 3), np.int64)
        store[:top] = self.mstore[:top]
        self.mstore = store
        self.mcache = self.mcache.copy()
        self.moves = None
        return True

    @property
    def budget(self) -> int:
        return int(self.prm[_BUDGET])

    @budget.setter
    def budget(self, value: int) -> None:
        self.prm[_BUDGET] = min(value, 1 << 62)

    @property
    def states(self) -> int:
        return int(self.prm[_STATES])

    def node_ub(self) -> int:
        jm = int(self.prm[_JMAX])
        return int(self.ubj[0, 0, jm]) + (jm - int(self.prm[_JT])) * self.p.joker_weight

    def ask(
        self, need: int, best: bool = False, steps: int = 1, floor: int = NEG
    ) -> tuple[int, int] | None:
        """Bounds of the root after asking "can everything add ``need``?" (None: over budget).

        ``best``: if so, go on to the best completion (branch and bound above ``need``);
        the answer is then usually exact (lo == hi). ``steps``: on a no, ask again at the
        root's new upper bound while it is above ``floor``, up to ``steps`` questions in
        all (the descent of :func:`solve_core`, without a return to Python per question)."""
        prm = self.prm
        prm[_EXACT] = int(best)
        prm[_FLOOR] = max(floor, NEG)
        while True:
            prm[_ABORT] = 0
            prm[_STEPS] = steps
            moves = self.moves
            if moves is not None:
                # the shared store as the searches before this question left it
                prm[_TOP] = moves.top
                prm[_MCN] = moves.count
                self.mcache = moves.mcache
            lo, hi, self.tk, self.tv, self.ts, self.mcache = _ask(
                need,
                self.cnt, self.wt, self.nxta, self.scap, self.suffix, self.ubj, self.setj,
                self.prm, self.tk, self.tv, self.ts, self.mcache, self.mstore,
            )  # fmt: skip
            if moves is not None:
                moves.top = int(prm[_TOP])
                moves.count = int(prm[_MCN])
                moves.mcache = self.mcache
            if not prm[_ABORT]:
                return int(lo), int(hi)
            if prm[_STATES] >= prm[_BUDGET] or not self._own_store():
                return None
            # out of move store, not of budget: the same question again (the memo keeps
            # every bound proven so far)

    def root_lo(self) -> int:
        return int(_root_bound(self.tk, self.tv, self.ts, 0, NEG))

    def root_hi(self) -> int:
        return int(_root_bound(self.tk, self.tv, self.ts, 1, -NEG))

    def melds(self) -> CoreMelds:
        """Follow the memoised choices from the root and turn them into melds (their ranks
        turned back when the search started at another rank than the A)."""
        return _melds_from(
            self.tk, self.tv, self.ts, self.mstore, self.L, self.M, self.s, self.shift
        )


def _melds_from(
    tk: Any, tv: Any, ts: Any, mstore: Any, L: int, M: int, spec: CoreSpec, shift: int = 0
) -> CoreMelds:
    """The melds of the memo's best line from the root (:meth:`FastSearch.melds`), with
    their items' codes; ``shift``: the rank index the search started at (its ranks are
    turned back: a run's pieces are joined and cut by their lengths, not their ranks)."""
    ws = getattr(_shared, "runs", None)
    if ws is None:
        ws = _shared.runs = _runs_space()
        if not _answer_loaded:
            # numba loads a function's machine code on its first call (10-15 ms): the
            # answer's melds are read from these codes (answer_arrays), so it loads with
            # this reading, not on whichever later position first hands over its codes
            answer_arrays(np.zeros(3, np.int64), np.array([12], np.int64), LOW)
            _answer_loaded.append(True)
    codes, ends, sets, debt, is_open = _answer_rows(tk, tv, ts, mstore, L, M, shift, ws)
    item = ITEMS[0].__getitem__
    flat = codes.tolist()
    bounds = ends.tolist()
    owed = debt.tolist()
    still_open = is_open.tolist() if spec.ace != LOW else ()
    melds = CoreMelds()
    if not any(owed) and not any(still_open):
        # no run came round the K-A corner or is open after the K: the runs as they are
        melds.extend((True, list(map(item, flat[a:b]))) for a, b in pairwise(bounds))
        melds.heads = heads = [(b - a) * 4 + 2 for a, b in pairwise(bounds)]
    else:
        Item = tuple[int, int, bool, bool]
        # runs open after the K (leaving) and debts, per suit, to be joined over the corner
        leaving: list[list[list[Item]]] = [[], [], [], []]
        debts: list[list[list[Item]]] = [[], [], [], []]
        for run, (a, b) in enumerate(pairwise(bounds)):
            its = list(map(item, flat[a:b]))
            if owed[run]:
                debts[its[0][0]].append(its)
            elif still_open[run]:
                leaving[its[0][0]].append(its)
            else:
                melds.append((True, its))
        for s in range(4):
            joined = _join_corner(leaving[s], debts[s], L, M) if debts[s] else leaving[s]
            for its in joined:
                if len(its) <= 13:
                    melds.append((True, its))
                else:
                    melds.extend((True, piece) for piece in split_run(its, L, spec.min_nat))
        flat = [s * 32 + r * 2 + j for _is_run, its in melds for s, r, j, _t in its]
        melds.heads = heads = [len(its) * 4 + 2 for _is_run, its in melds]
    melds.codes = flat
    min_nat, set_max = spec.min_nat, spec.set_max
    for r, (n0, n1, n2, n3, k) in enumerate(sets.tolist()):
        if n0 or n1 or n2 or n3 or k:
            # set_melds' sets, their items picked from the rank's codes
            here = _RANK_CODES[(r + shift) % 13]
            for pick in set_cut((n0, n1, n2, n3), k, min_nat, set_max):
                got = pick(here)
                melds.append((False, list(map(item, got))))
                flat.extend(got)
                heads.append(len(got) * 4)
    return melds


@_jit
def answer_arrays(codes: Any, heads: Any, ace: int) -> Any:
    """What ``table._Solver.answer`` makes of melds given as codes (:class:`CoreMelds`:
    items ``suit * 32 + rank * 2 + joker``, heads ``items * 4 + is_run * 2 + tag``), per
    meld: its digits ``suit << 5 | rank << 1 | joker`` in normal order (a set by suit,
    naturals first; a run as written), whether that is its normal form (a set of one rank,
    a run of one suit in run order; else ``answer`` orders it in Python), its key
    (``table._set_key``, ``table._run_key``), its sort key in two parts (``hi << 63 |
    lo``), and the first meld before it with the same digits (-1: none); and the cards of
    all melds counted by card code (``suit * 13 + rank - 1``, 52 for a joker)."""
    m = heads.shape[0]
    digits = codes.copy()
    ok = np.zeros(m, np.int64)
    key = np.zeros(m, np.int64)
    hi = np.zeros(m, np.int64)
    lo = np.zeros(m, np.int64)
    same = np.full(m, -1, np.int64)
    start = np.zeros(m + 1, np.int64)
    counts = np.zeros(53, np.int64)
    low63 = (1 << 63) - 1
    for i in range(m):
        n = heads[i] >> 2
        a = start[i]
        b = a + n
        start[i + 1] = b
        for x in range(a, b):
            d = digits[x]
            if d & 1:
                counts[52] += 1
            else:
                counts[(d >> 5) * 13 + ((d >> 1) & 15) - 1] += 1
        r0 = (digits[a] >> 1) & 15
        is_set = ((digits[b - 1] >> 1) & 15) == r0
        if is_set:
            _sort(digits, a, n)  # by suit, naturals first
        # an earlier meld with the same digits (only those in normal form are looked up)
        for j in range(i):
            if ok[j] and start[j + 1] - start[j] == n:
                eq = True
                for x in range(n):
                    if digits[start[j] + x] != digits[a + x]:
                        eq = False
                        break
                if eq:
                    same[i] = j
                    break
        if same[i] >= 0 or n > 16 or not 0 < r0 < 14:
            continue
        s0 = digits[a] >> 5
        nat_suits = 0
        joker_suits = 0
        joker_ranks = 0
        good = True
        if is_set:
            for x in range(a, b):
                d = digits[x]
                if (d >> 1) & 15 != r0:
                    good = False
                    break
                if d & 1:
                    joker_suits += 1 << (8 * (d >> 5))
                else:
                    nat_suits |= 1 << (d >> 5)
            if not good:
                continue
            key[i] = (1 << (r0 - 1)) | nat_suits << 13 | joker_suits << 17
        else:
            top = r0 + n - 1
            if ace == LOW:
                good = top <= 13
            elif ace == HIGH:
                good = top <= 13 or (top == 14 and n < 13)
            else:
                good = n < 13 or (n == 13 and r0 == 1)
            ranks = 0
            for k in range(n):
                if not good:
                    break
                d = digits[a + k]
                r = (r0 - 1 + k) % 13 + 1
                if d >> 5 != s0 or (d >> 1) & 15 != r:
                    good = False
                    break
                ranks |= 1 << (r - 1)
                if d & 1:
                    joker_ranks |= 1 << (r - 1)
            if not good:
                continue
            key[i] = -(ranks | joker_ranks << 13 | (1 << s0) << 26)
        ok[i] = 1
        # (s0 << 4 | r0) << 116 | (16 - n) << 112 | digit k at bit 7 * (15 - k)
        h = (s0 << 4 | r0) << 53 | (16 - n) << 49
        w = 0
        for k in range(n):
            d = digits[a + k]
            p = 7 * (15 - k)
            if p >= 63:
                h |= d << (p - 63)
            elif p + 7 <= 63:
                w |= d << p
            else:
                w |= (d << p) & low63
                h |= d >> (63 - p)
        hi[i] = h
        lo[i] = w
    return digits, ok, key, hi, lo, same, counts


_answer_loaded: list[bool] = []
"""Non-empty once :func:`answer_arrays` was called in this process (:func:`_melds_from`)."""

_RANK_CODES = tuple(
    tuple(s * 32 + (r + 1) * 2 + joker for s in range(4) for joker in (0, 1)) for r in range(13)
)
"""The codes of the items a set of rank index r may hold, item ``2 * suit + joker`` (the
order of ``_problem._rank_items``)."""


@_jit
def _answer_rows(
    tk: Any, tv: Any, ts: Any, mstore: Any, L: int, M: int, shift: int, ws: Any
) -> Any:
    """The runs and sets of the memo's best line from the root (:func:`_path`,
    :func:`_runs_into` on the scratch space ``ws``) as :func:`_melds_from` reads them: the
    runs' items as codes ``suit * 32 + rank * 2 + joker``, their ranks turned back by
    ``shift`` (grouped by run, in rank order), and where each run's items end (run ``g``:
    ``ends[g]`` to ``ends[g + 1]``), the sets per rank (of the search's ranks), and per run
    whether it is a debt and whether it is still open after the K."""
    path = _path(tk, tv, ts, mstore, 13)
    rows, sets, debt, is_open = _runs_into(path, mstore, L, M, ws)
    n = rows.shape[0]
    runs = debt.shape[0]
    codes = np.empty(n, np.int64)
    ends = np.zeros(runs + 1, np.int64)
    for x in range(n):
        rank = (rows[x, 2] - 1 + shift) % 13 + 1
        codes[x] = rows[x, 1] * 32 + rank * 2 + rows[x, 3]
        ends[rows[x, 0] + 1] += 1
    for g in range(runs):
        ends[g + 1] += ends[g]
    return codes, ends, sets.copy(), debt.copy(), is_open.copy()


def window_arrays(
    windows: tuple[tuple[tuple[int, int], ...], ...],
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Per rank index, the run windows through it (``table._windows``: length, rank mask)
    as an array, and their number per rank."""
    wins = np.zeros((13, max(1, max(map(len, windows))), 2), np.int64)
    for r, row in enumerate(windows):
        for k, (ln, mask) in enumerate(row):
            wins[r, k] = ln, mask
    return wins, np.array([len(w) for w in windows], np.int64)


class BareSearch:
    """The questions "can these cards all be laid out?" (no hand: every card placed) of one
    position's kept-melds tie-break, one compiled call each (:func:`_bare`).

    Like a :class:`FastSearch` of each question with ``target`` 0, without building one: the
    scratch arrays (the memo, its index, the parameters) are set up once and cleared
    between questions, and the moves come from the thread's shared store. Only questions
    that :meth:`fits` (what :func:`eligible` asks)."""

    def __init__(
        self,
        spec: CoreSpec,
        weight: tuple[tuple[int, ...], ...],
        jw: int,
        windows: tuple[tuple[tuple[int, int], ...], ...],
    ) -> None:
        self.s = spec
        self.wt = _weights(weight)
        self.jw = jw
        self.wins, self.nwins = window_arrays(windows)
        self.prm = np.zeros(20, np.int64)
        self.skip = 1
        """1: the search passes over ranks where nothing can happen (``_SKIP``); 0: not."""
        self.side = 0
        self.mem = bare_memos()
        self.copies = 0

    def fits(self, t: list[list[int]], tj: int) -> bool:
        """Whether the compiled core takes this question (:func:`eligible`)."""
        spec = self.s
        copies = self.copies = max(map(max, t))
        return (
            spec.ace in (LOW, HIGH, WRAP)
            and spec.open_mode == OPEN_NONE
            and spec.min_len <= (15 if spec.ace == LOW else 5)
            and copies <= 15
            and copies + tj <= _MAX_RUNS
            and tj <= 15
        )

    def arrange(
        self, t: list[list[int]], tj: int, budget: int
    ) -> list[tuple[bool, list[tuple[int, int, bool, bool]]]] | None:
        """Melds holding exactly these cards (``t[suit][rank index]``, ``tj`` jokers), or
        None if there are none or the search ran over ``budget`` states. Only for a
        question that :meth:`fits` (just asked: it notes the copies)."""
        spec = self.s
        L = spec.min_len
        M = spec.min_nat if tj > L - spec.min_nat else 0
        setj = _set_table(max(self.copies, 4), max(tj, 6), spec.min_nat, spec.set_max)
        prm = self.prm
        prm[:] = (
            *(L, M, tj, tj, self.jw, budget, 13, 0, 0, 0, 0, 0, 1, NEG, spec.ace),
            *(_pin_mode(spec), spec.min_nat, spec.set_max, 1, self.skip),
        )
        moves = FastSearch._shared_moves((L, M, spec.ace))
        prm[_TOP] = moves.top
        prm[_MCN] = moves.count
        lo, side, cut, self.mem, moves.mcache = _bare(
            np.array(t, np.int64), tj, self.wins, self.nwins, self.wt, setj, prm,
            self.mem, moves.mcache, moves.mstore,
        )  # fmt: skip
        moves.top = int(prm[_TOP])
        moves.count = int(prm[_MCN])
        self.side = side
        if prm[_ABORT] or lo < 0:
            return None
        tk, tv, ts = self.mem[3 * side : 3 * side + 3]
        melds = _melds_from(tk, tv, ts, moves.mstore, L, M, spec)
        return [unframed(m, side, cut, spec.ace == LOW) for m in melds]


def bare_memos() -> tuple[np.ndarray[Any, Any], ...]:
    """The memo arrays of both sides of a bare question's race (:func:`_bare`)."""
    return (
        np.empty((1 << 11, 9), np.int64),
        np.empty((1 << 11, 4), np.int64),
        np.full(1 << 12, -1, np.int32),
        np.empty((1 << 11, 9), np.int64),
        np.empty((1 << 11, 4), np.int64),
        np.full(1 << 12, -1, np.int32),
    )


def unframed(
    meld: tuple[bool, list[tuple[int, int, bool, bool]]], side: int, cut: int, low: bool
) -> tuple[bool, list[tuple[int, int, bool, bool]]]:
    """A meld of a bare question's answer in the position's own ranks (:func:`_frame`):
    the ranks mapped back, a run of side 1 read the other way (back in run order)."""
    is_run, items = meld
    back = [(12 - i if low else (13 - i) % 13) if side else i for i in range(13)]
    out = [(s, (back[r - 1] + cut) % 13 + 1, j, tag) for s, r, j, tag in items]
    if is_run and side:
        out.reverse()
    return is_run, out


def cuts(prob: CoreProblem) -> list[int]:
    """Where to cut the cycle of wrap-around ranks (the rank index a search starts at) in
    a race: the A, and the rank holding the fewest cards (table and hand), the first of
    them on ties.

    Every rotation of the ranks maps runs to runs (the cycle read from another rank) and
    sets to sets, so the optimum is the same; the search guesses, at its first rank, the
    runs that arrive over the cut (debts) and carries them to its last, and a proof is
    cheap when the cards that cannot all be placed are met early. On the variant
    benchmark's wrap-around positions the states of the best of the 13 cuts varied up to
    20 times between cuts, and no cheap rule picked the best; the rank with the fewest
    cards starts with the fewest guesses."""
    cards = [sum(col) for col in zip(*prob.table, *prob.hand, strict=True)]
    few = cards.index(min(cards))
    return [0] if few == 0 else [0, few]


def _rotated(prob: CoreProblem, k: int) -> CoreProblem:
    """The problem with rank index ``k`` first (wrap-around aces). The last one is
    remembered: the race guesses its first search's direction on the problem rotated to
    its cut (``_dp._late_need``), and that search starts from the same rotation."""
    last = _last_rotation[0]
    if last is not None and last[0] is prob and last[1] == k:
        return last[2]

    def rot(rows: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
        return tuple(row[k:] + row[:k] for row in rows)

    got = replace(prob, table=rot(prob.table), hand=rot(prob.hand), weight=rot(prob.weight))
    _last_rotation[0] = (prob, k, got)
    return got


_last_rotation: list[tuple[CoreProblem, int, CoreProblem] | None] = [None]
"""The last problem :func:`_rotated` turned, the rank it turned it to, and the result (one
tuple, replaced whole: threads that share it see one or the other)."""


def _join_corner(
    leaving: list[list[tuple[int, int, bool, bool]]],
    debts: list[list[tuple[int, int, bool, bool]]],
    L: int,
    M: int,
) -> list[list[tuple[int, int, bool, bool]]]:
    """The runs of one suit around the K–A corner: each debt (a run from the ace on) joined
    after a distinct run leaving the K, the other leaving runs alone. The pairing is the
    one :func:`_paired` found possible, on the same capped labels."""

    def label(its: list[tuple[int, int, bool, bool]]) -> tuple[int, int]:
        return min(len(its), L), min(sum(1 for it in its if not it[2]), M)

    runs = [label(x) for x in leaving]
    owed = [label(x) for x in debts]
    match: list[int] = []
    taken = [False] * len(runs)

    def rec(i: int) -> bool:
        if i == len(owed):
            return all(taken[k] or (runs[k][0] >= L and runs[k][1] >= M) for k in range(len(runs)))
        for k in range(len(runs)):
            if not taken[k] and runs[k][0] + owed[i][0] >= L and runs[k][1] + owed[i][1] >= M:
                taken[k] = True
                match.append(k)
                if rec(i + 1):
                    return True
                match.pop()
                taken[k] = False
        return False

    if not rec(0):
        raise AssertionError("the runs round the K-A corner do not pair")
    out = [leaving[k] + debts[i] for i, k in enumerate(match)]
    out.extend(leaving[k] for k in range(len(leaving)) if not taken[k])
    return out


@_jit
def _runs_space() -> Any:
    """Scratch space of :func:`_runs_into` (allocated once per loop of questions)."""
    return (
        np.zeros((4, 64, 16), np.int64),
        np.zeros((4, 64), np.int64),
        np.zeros((64, 16), np.int64),
        np.zeros(64, np.int64),
        np.zeros((4 * 13 * 16, 4), np.int64),
        np.zeros(4 * 13 * 16, np.int64),
        np.zeros(4 * 13 * 16, np.int64),
        np.zeros((13, 5), np.int64),
        np.zeros((4 * 13 * 16, 4), np.int64),
        np.zeros(4 * 13 * 16 + 1, np.int64),
    )


@_jit
def _runs_into(path: Any, mstore: Any, L: int, M: int, ws: Any) -> Any:
    """The runs along a path of choices, as rows (run, suit, rank, joker) grouped by run
    in rank order, and per rank the naturals each suit gives to sets and the sets' jokers;
    then per run whether it is a debt (it entered at the ace from the K) and whether it is
    still open after the K.

    Runs are followed by their labels: a move says, for each open run of a suit in label
    order, whether it ends, takes a natural or takes a joker, and how many runs (and
    debts) start. Open runs with the same label are interchangeable, so any may continue."""
    # open run ids per suit and label (``ws``: :func:`_runs_space`; the views returned
    # are into it)
    stack, depth, nstack, ndepth, rows, debt, is_open, sets, out, start = ws
    depth[:] = 0
    n = 0
    runs = 0
    R = np.zeros(4, np.int64)
    for r in range(13):
        for suit in range(4):
            i = path[r, suit]
            if i < 0:
                sets[r, suit] = 0  # a rank the search passed over: nothing here
                continue
            mv = mstore[i, 0]
            sets[r, suit] = (mv >> 8) & 15
            sn = (mv >> 12) & 15
            sj = (mv >> 16) & 15
            dn = (mv >> 44) & 15
            dj = (mv >> 48) & 15
            if R[suit] == 0 and sn + sj + dn + dj == 0:
                continue
            actions = mv >> 24
            ndepth[:] = 0
            labs = R[suit]
            p = 0
            while labs:
                lab = labs & 63
                labs >>= 6
                depth[suit, lab] -= 1
                run = stack[suit, lab, depth[suit, lab]]
                a = (actions >> (2 * p)) & 3
                p += 1
                if a == 1:
                    is_open[run] = 0
                    continue  # the run ends before this rank
                rows[n, 0] = run
                rows[n, 1] = suit
                rows[n, 2] = r + 1
                rows[n, 3] = 1 if a == 3 else 0
                n += 1
                g = _grow(lab, a == 2, L, M)
                if (mv >> 53) & 1 and (g & 0xF) == _PINNED:
                    g = (g & 0x30) | L
                nstack[g, ndepth[g]] = run
                ndepth[g] += 1
            for k in range(sn + sj + dn + dj):
                natural = k < sn or sn + sj <= k < sn + sj + dn
                g = ((min(1, M) << 4) | 1) if natural else 1
                if k >= sn and k < sn + sj and (mv >> 52) & 1:
                    g = _PINNED
                debt[runs] = 0
                if k >= sn + sj:
                    g += 8
                    debt[runs] = 1
                rows[n, 0] = runs
                rows[n, 1] = suit
                rows[n, 2] = r + 1
                rows[n, 3] = 0 if natural else 1
                n += 1
                is_open[runs] = 1
                nstack[g, ndepth[g]] = runs
                ndepth[g] += 1
                runs += 1
            for g in range(64):
                depth[suit, g] = ndepth[g]
                for x in range(ndepth[g]):
                    stack[suit, g, x] = nstack[g, x]
            R[suit] = mstore[i, 1]
        sets[r, 4] = path[r, 4]
    # grouped by run, each in rank order (rows came rank by rank: a stable counting sort)
    start[: runs + 1] = 0
    for x in range(n):
        start[rows[x, 0] + 1] += 1
    for g in range(runs):
        start[g + 1] += start[g]
    for x in range(n):
        g = rows[x, 0]
        for c in range(4):
            out[start[g], c] = rows[x, c]
        start[g] += 1
    return out[:n], sets, debt[:runs], is_open[:runs]


def warm() -> None:
    """Compile the core (or load it from numba's cache, next to this file) by solving a
    tiny problem the way the question loop does (a descent, a branch and bound, the
    melds), so that the first real solve does not wait for the compiler."""
    zero = (0,) * 13
    hand = ((1, 1, 1) + (0,) * 10, zero, zero, zero)
    prob = CoreProblem(
        table=(zero,) * 4,
        hand=hand,
        table_jokers=0,
        hand_jokers=1,
        weight=((2,) * 13,) * 4,
        joker_weight=2,
    )
    search = FastSearch(prob, CoreSpec(), 1 << 40)
    got = search.ask(search.node_ub(), False, 8, NEG)
    assert got is not None
    search.ask(0, True)
    search.root_lo()
    search.root_hi()
    search.melds()
    # a question of the kept-melds tie-break: [A 2 3] of one suit, runs of three
    spec = CoreSpec()
    windows = tuple(
        tuple((3, 7 << a) for a in range(max(0, r - 2), min(r, 10) + 1)) for r in range(13)
    )
    bare = BareSearch(spec, ((2,) * 13,) * 4, 2, windows)
    table = [[1, 1, 1] + [0] * 10, [0] * 13, [0] * 13, [0] * 13]
    assert bare.fits(table, 0) and bare.arrange(table, 0, 1 << 20)
