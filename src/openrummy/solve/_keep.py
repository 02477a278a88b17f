"""The kept-melds tie-break in one compiled call.

:func:`keep_loop` makes the decisions of ``table._keep_greedy`` one for one (the same
witness, the same repairs in the same order, the same questions to the compiled search,
the same melds from their answers), with the play, the old melds and their keys in arrays:
a position of 150 table cards asks 20–40 questions, and in Python the bookkeeping around
them (choosing the melds that give up cards, matching new melds against old ones) cost
three times what the searches cost. ``table._keep_greedy`` calls it when every question
of the position fits the compiled core (:func:`usable`), and stays the reference the
tests compare it with.

Melds are rows of items (suit, rank 1–13, is a joker) in meld order. A meld's *key* is
what ``table._meld_key`` builds, as integers: a run ``[1, n, sorted codes]`` with code
``suit * 32 + rank * 2 + joker``; a set ``[2, n, rank, jokers, sorted natural suits]``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from openrummy.melds import Meld
from openrummy.solve import compiled
from openrummy.solve._fast import (
    _ABORT,
    _MAX_RUNS,
    _MCN,
    _TOP,
    FastSearch,
    _bare,
    _frame,
    _jit,
    _path,
    _pin_mode,
    _runs_into,
    _runs_space,
    _set_table,
    _sort,
    _weights,
    bare_memos,
    window_arrays,
)
from openrummy.solve._problem import (
    HIGH,
    LOW,
    NEG,
    OPEN_NONE,
    WRAP,
    CoreSpec,
)

# numba checks only this file's date: a cached loop would keep the search it was
# compiled with (and the constants of _problem)
compiled.drop_stale("_keep")

W = 16
"""Items a stored meld may hold (runs are cut to 13, sets hold at most ``set_max``)."""
KW = 2 + W + 2
"""Width of a key row."""
ROOM = (1, 8, 64)
"""Rows of the play's arrays: per meld of the first answer, per old meld, and more (each
repair replaces some melds of the play by at most as many cards' worth of new ones; a
play that outgrows them is left to the loop in Python)."""

Item = tuple[int, int, bool, bool]
Melds = list[tuple[bool, list[Item]]]


def usable(spec: CoreSpec, copies: int, jokers: int) -> bool:
    """Whether every question of a position fits the compiled core (``_fast.eligible``):
    ``copies`` the most copies of one card on the table, ``jokers`` its jokers."""
    return (
        spec.ace in (LOW, HIGH, WRAP)
        and spec.open_mode == OPEN_NONE
        and spec.min_len <= (15 if spec.ace == LOW else 5)
        and copies <= 15
        and copies + jokers <= _MAX_RUNS
        and spec.set_max <= W
    )


@_jit
def _cut_sets(n0: Any, k0: int, min_nat: int, set_max: int, fs: Any, fb: Any, fw: Any) -> int:
    """``_problem._set_parts`` without recursion: the sets of ``n0[s]`` naturals of suit s
    and ``k0`` jokers, the first cut in its depth-first order. Per set, the bit mask of its
    naturals' suits (``fs``) and its jokers (``fb``); returns the number of sets (-1: none).
    ``fw``: scratch, ``(len(fs) + 1, 8)`` (the frames of the walk, allocated once by the
    caller: a rank's cut is a few microseconds, mostly allocations otherwise)."""
    depth = fs.shape[0]
    fn = fw[:, 0:4]
    fk = fw[:, 4]
    fm = fw[:, 5]  # the choice: mask of the other suits taken
    started = fw[:, 6]
    others = fw[0:3, 7]
    fm[0] = 0
    started[0] = 0
    fn[0] = n0
    fk[0] = k0
    d = 0
    while d >= 0:
        k = fk[d]
        first = -1
        for q in range(4):
            if fn[d, q] > 0:
                first = q
                break
        ok = False
        if k >= 0 and d < depth:
            if first < 0:
                if k == 0:
                    return d
                if min_nat == 0:
                    # sets of jokers alone: sizes 3.. in order
                    size = fb[d] + 1 if started[d] else 3
                    if size <= set_max and size <= k:
                        started[d] = 1
                        fs[d] = 0
                        fb[d] = size
                        fn[d + 1] = fn[d]
                        fk[d + 1] = k - size
                        ok = True
            else:
                no = 0
                for q in range(first + 1, 4):
                    if fn[d, q] > 0:
                        others[no] = q
                        no += 1
                mask = fm[d] if started[d] else 0
                b = fb[d] + 1 if started[d] else -1
                while mask < (1 << no):
                    a = 1
                    bits = 1 << first
                    for x in range(no):
                        if (mask >> x) & 1:
                            a += 1
                            bits |= 1 << others[x]
                    lo = max(0, 3 - a)
                    hi = min(k, set_max - a)
                    if b < lo:
                        b = lo
                    if a >= min_nat and b <= hi:
                        started[d] = 1
                        fm[d] = mask
                        fb[d] = b
                        fs[d] = bits
                        for q in range(4):
                            fn[d + 1, q] = fn[d, q] - ((bits >> q) & 1)
                        fk[d + 1] = k - b
                        ok = True
                        break
                    mask += 1
                    b = -1
        if ok:
            d += 1
            started[d] = 0
            fm[d] = 0
            fb[d] = 0
        else:
            d -= 1
    return -1


def encode_table(melds: Sequence[Meld]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The old table as :func:`_decode_table` reads it: per item its card and the card it
    stands for, as ``(card suit * 16 + card rank) * 256 + suit * 16 + rank`` (a joker's
    card 0), and each meld's number of items (one pass over the items in Python)."""
    vals = [
        ((c.suit or 0) * 16 + c.rank) * 256 + (r.suit or 0) * 16 + r.rank
        for m in melds
        for it in m.items
        if (c := it.card) is not None and (r := it.represents or it.identity) is not None
    ]
    return np.array(vals or [0], np.int64), np.array([len(m.items) for m in melds], np.int64)


@_jit
def _decode_table(vals: Any, lens: Any) -> Any:
    """The old table's arrays: its cards' counts (meld, suit, rank index) and jokers, and
    its key rows (zeros if it has none) and whether it has one, as ``table._table_key``
    keys it: a run by its items (suit, rank, is a joker; none for 13 or more), a set by its
    rank, natural suits and number of jokers."""
    n = lens.shape[0]
    ocnt = np.zeros((n, 4, 13), np.int64)
    oj = np.zeros(n, np.int64)
    okey = np.zeros((n, KW), np.int64)
    keyok = np.zeros(n, np.bool_)
    a = 0
    for i in range(n):
        b = a + lens[i]
        rank = -1
        one_rank = True
        jokers = 0
        for x in range(a, b):
            v = vals[x]
            card = v >> 8
            if card & 15 == 0:
                jokers += 1
            else:
                ocnt[i, card >> 4, (card & 15) - 1] += 1
            if rank != v & 15:
                one_rank = rank < 0
                rank = v & 15
        oj[i] = jokers
        row = okey[i]
        if one_rank and b - a > 1:
            ns = 0
            for x in range(a, b):
                if vals[x] >> 8 & 15:
                    row[4 + ns] = (vals[x] >> 4) & 15
                    ns += 1
            row[0] = 2
            row[1] = 2 + ns
            row[2] = rank
            row[3] = jokers
            _sort(row, 4, ns)
            keyok[i] = True
        elif b - a < 13:
            row[0] = 1
            row[1] = b - a
            for x in range(a, b):
                v = vals[x]
                row[2 + x - a] = (
                    ((v >> 4) & 15) * 32 + (v & 15) * 2 + (1 if v >> 8 & 15 == 0 else 0)
                )
            _sort(row, 2, b - a)
            keyok[i] = True
        a = b
    return ocnt, oj, okey, keyok


@_jit
def _hash(row: Any) -> int:
    h = row[0] * 7919 + row[1] * 104729
    for x in range(row[1]):
        h = h * 1000003 + row[2 + x] + 1
    return h  # type: ignore[no-any-return]


@_jit
def _hashes(okey: Any, keyok: Any) -> Any:
    """:func:`_hash` of each old meld's key row (-1 for a meld without a key: a run of 13
    or more, which no piece can equal); those sort first."""
    out = np.full(okey.shape[0], -1, np.int64)
    for i in range(okey.shape[0]):
        if keyok[i]:
            out[i] = _hash(okey[i])
    return out


@_jit
def _piece_key(items: Any, a: int, b: int, is_run: bool, out: Any) -> None:
    """The key row of items ``a:b`` (a run's piece, or a whole set)."""
    if is_run:
        n = b - a
        out[0] = 1
        out[1] = n
        for x in range(n):
            out[2 + x] = items[a + x, 0] * 32 + items[a + x, 1] * 2 + items[a + x, 2]
        _sort(out, 2, n)
    else:
        out[0] = 2
        out[2] = items[a, 1]
        nj = 0
        ns = 0
        for x in range(a, b):
            if items[x, 2]:
                nj += 1
            else:
                out[4 + ns] = items[x, 0]
                ns += 1
        out[1] = 2 + ns
        out[3] = nj
        _sort(out, 4, ns)


@_jit
def _find(olds: Any, row: Any) -> int:
    """The free old meld with this key (the last by index: ``list.pop``), or -1."""
    okey, ohash, order, free, _kept = olds
    h = _hash(row)
    n = order.shape[0]
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) // 2
        if ohash[order[mid]] < h:
            lo = mid + 1
        else:
            hi = mid
    best = -1
    while lo < n and ohash[order[lo]] == h:
        o = order[lo]
        lo += 1
        if not free[o] or o < best:
            continue
        same = True
        for x in range(2 + row[1]):
            if okey[o, x] != row[x]:
                same = False
                break
        if same:
            best = o
    return best


@_jit
def _push(st: Any, items: Any, a: int, b: int, is_run: bool, tag: bool) -> None:
    """Append items ``a:b`` as a meld of the play."""
    p_items, p_n, p_run, p_tag, p_alive, p_j, top = st
    k = top[0]
    if k == p_n.shape[0]:
        top[1] = 1  # out of room: the caller runs the loop in Python instead
        return
    top[0] = k + 1
    nj = 0
    for x in range(a, b):
        p_items[k, x - a, 0] = items[x, 0]
        p_items[k, x - a, 1] = items[x, 1]
        p_items[k, x - a, 2] = items[x, 2]
        nj += items[x, 2]
    p_n[k] = b - a
    p_run[k] = is_run
    p_tag[k] = tag
    p_alive[k] = True
    p_j[k] = nj


@_jit
def _absorb(
    st: Any,
    items: Any,
    n: int,
    is_run: bool,
    tag: bool,
    L: int,
    min_nat: int,
    olds: Any,
    row: Any,
    sig: Any,
    scr: Any,
) -> None:
    """``absorb`` of one meld: the old melds it holds unchanged (or as pieces of a run) are
    kept, the rest joins the play. ``olds``: the old melds' key rows, their hashes, their
    indices by hash, and which are free and which kept; ``sig``: :func:`_run_sigs`;
    ``scr``: scratch rows of at least ``n + 1`` (allocated once by the loop)."""
    free = olds[3]
    kept = olds[4]
    if tag:
        _push(st, items, 0, n, is_run, True)
        return
    if not is_run:
        _piece_key(items, 0, n, False, row)
        o = _find(olds, row)
        if o >= 0:
            free[o] = False
            kept[o] = True
        else:
            _push(st, items, 0, n, False, False)
        return
    # carve: pieces, as many as possible free old melds, the others valid runs
    best = scr[0]
    cut = scr[1]
    nat = scr[2]
    low = scr[3]
    best[: n + 1] = -1
    nat[0] = 0
    best[0] = 0
    for k in range(n):
        nat[k + 1] = nat[k] + (1 - items[k, 2])
    suit = items[0, 0]
    for j in range(1, n + 1):
        # the lowest (rank, joker) code of each piece ending at j: an old run with the
        # same suit, length and lowest code is the only one the piece can be
        m = 99
        for i in range(j - 1, -1, -1):
            m = min(m, items[i, 1] * 2 + items[i, 2])
            low[i] = m
        for i in range(j):
            if best[i] < 0:
                continue
            if j - i <= 16 and sig[suit, j - i, low[i]]:
                _piece_key(items, i, j, True, row)
                hit = _find(olds, row) >= 0
            else:
                hit = False
            if hit:
                got = best[i] + 1
            elif j - i >= L and nat[j] - nat[i] >= min_nat:
                got = best[i]
            else:
                continue
            if got > best[j]:
                best[j] = got
                cut[j] = i
    if best[n] <= 0:
        _push(st, items, 0, n, True, False)
        return
    ends = scr[4]
    m = 0
    j = n
    while j > 0:
        ends[m] = j
        m += 1
        j = cut[j]
    for x in range(m - 1, -1, -1):
        b = ends[x]
        a = cut[b]
        _piece_key(items, a, b, True, row)
        o = _find(olds, row)
        if o >= 0:
            free[o] = False
            kept[o] = True
        else:
            _push(st, items, a, b, True, False)


@_jit
def _run_sigs(okey: Any, keyok: Any) -> Any:
    """Per suit, length (up to 16) and lowest (rank, joker) code, whether an old run has
    them: a piece of a run without an old run's signature is no old meld (its key is not
    built)."""
    sig = np.zeros((4, 17, 32), np.bool_)
    for o in range(okey.shape[0]):
        if keyok[o] and okey[o, 0] == 1 and okey[o, 1] <= 16:
            sig[okey[o, 2] // 32, okey[o, 1], okey[o, 2] % 32] = True
    return sig


@_jit
def _split(items: Any, n: int, L: int, M: int, ends: Any) -> int:
    """``split_run``: the ends of the pieces of a run over 13 long (shortest first); the
    number of pieces."""
    if n <= 13:
        ends[0] = n
        return 1
    nat = np.zeros(n + 1, np.int64)
    for i in range(n):
        nat[i + 1] = nat[i] + (1 - items[i, 2])
    prev = np.full(n + 1, -1, np.int64)
    reach = np.zeros(n + 1, np.bool_)
    reach[0] = True
    for i in range(n):
        if not reach[i]:
            continue
        for ln in range(L, 14):
            k = i + ln
            if k > n:
                break
            if nat[k] - nat[i] >= M and not reach[k]:
                reach[k] = True
                prev[k] = i
    m = 0
    k = n
    while k > 0:
        m += 1
        k = prev[k]
    k = n
    for x in range(m - 1, -1, -1):
        ends[x] = k
        k = prev[k]
    return m


@_jit
def _reframe(items: Any, n: int, is_run: bool, side: int, cut: int, low: bool) -> None:
    """A meld of a bare question's answer, read in its side's frame, in the position's own
    ranks (``_fast.unframed``)."""
    for x in range(n):
        items[x, 1] = _frame(items[x, 1] - 1, side, cut, low) + 1
    if is_run and side:
        for x in range(n // 2):
            y = n - 1 - x
            for c in range(3):
                v = items[x, c]
                items[x, c] = items[y, c]
                items[y, c] = v


@_jit
def _answer(
    st: Any,
    rows: Any,
    sets: Any,
    debt: Any,
    is_open: Any,
    cyclic: bool,
    L: int,
    M: int,
    min_nat: int,
    set_max: int,
    olds: Any,
    row: Any,
    side: int,
    cut: int,
    sig: Any,
    scr: Any,
) -> None:
    """The melds of a search's answer (``_fast._melds_from``, in its order), each in the
    position's own ranks (:func:`_reframe`) and absorbed."""
    low = not cyclic
    nruns = debt.shape[0]
    start = np.zeros(nruns + 1, np.int64)
    for x in range(rows.shape[0]):
        start[rows[x, 0] + 1] += 1
    for g in range(nruns):
        start[g + 1] += start[g]
    buf = np.zeros((32, 3), np.int64)
    # per suit the runs leaving the K and the debts, in run order
    leaving = np.zeros((4, nruns + 1), np.int64)
    nleave = np.zeros(4, np.int64)
    debts = np.zeros((4, nruns + 1), np.int64)
    ndebt = np.zeros(4, np.int64)
    for g in range(nruns):
        a = start[g]
        b = start[g + 1]
        if b == a:
            continue
        s = rows[a, 1]
        if debt[g]:
            debts[s, ndebt[s]] = g
            ndebt[s] += 1
        elif is_open[g] and cyclic:
            leaving[s, nleave[s]] = g
            nleave[s] += 1
        else:
            for x in range(a, b):
                buf[x - a, 0] = rows[x, 1]
                buf[x - a, 1] = rows[x, 2]
                buf[x - a, 2] = rows[x, 3]
            _reframe(buf, b - a, True, side, cut, low)
            _absorb(st, buf, b - a, True, False, L, min_nat, olds, row, sig, scr)
    ends = np.zeros(32, np.int64)
    match = np.empty(nruns + 1, np.int64)
    taken = np.empty(nruns + 1, np.bool_)
    piece = np.empty((16, 3), np.int64)
    for s in range(4):
        nl = nleave[s]
        nd = ndebt[s]
        # _join_corner: each debt after a distinct leaving run (the first pairing in
        # depth-first order), the other leaving runs alone
        match[: nd + 1] = -1
        taken[: nl + 1] = False
        if nd:
            i = 0
            while True:
                if i == nd:
                    ok = True
                    for k in range(nl):
                        if not taken[k]:
                            g = leaving[s, k]
                            ln = start[g + 1] - start[g]
                            nn = 0
                            for x in range(start[g], start[g + 1]):
                                nn += 1 - rows[x, 3]
                            if min(ln, L) < L or min(nn, M) < M:
                                ok = False
                                break
                    if ok:
                        break
                    i -= 1
                    taken[match[i]] = False
                # next candidate for debt i after match[i]
                gd = debts[s, i]
                dl = min(start[gd + 1] - start[gd], L)
                dn = 0
                for x in range(start[gd], start[gd + 1]):
                    dn += 1 - rows[x, 3]
                dn = min(dn, M)
                k = match[i] + 1
                found = False
                while k < nl:
                    g = leaving[s, k]
                    if not taken[k]:
                        ln = min(start[g + 1] - start[g], L)
                        nn = 0
                        for x in range(start[g], start[g + 1]):
                            nn += 1 - rows[x, 3]
                        nn = min(nn, M)
                        if ln + dl >= L and nn + dn >= M:
                            found = True
                            break
                    k += 1
                if found:
                    match[i] = k
                    taken[k] = True
                    i += 1
                    if i < nd:
                        match[i] = -1
                else:
                    match[i] = -1
                    i -= 1
                    if i < 0:
                        raise AssertionError("the runs round the K-A corner do not pair")
                    taken[match[i]] = False
        # joined runs in the order of the debts, then the leaving runs not taken
        for q in range(nd + nl):
            if q < nd:
                g = leaving[s, match[q]]
                gd = debts[s, q]
            elif not taken[q - nd]:
                g = leaving[s, q - nd]
                gd = -1
            else:
                continue
            n = 0
            for x in range(start[g], start[g + 1]):
                buf[n, 0] = rows[x, 1]
                buf[n, 1] = rows[x, 2]
                buf[n, 2] = rows[x, 3]
                n += 1
            if gd >= 0:
                for x in range(start[gd], start[gd + 1]):
                    buf[n, 0] = rows[x, 1]
                    buf[n, 1] = rows[x, 2]
                    buf[n, 2] = rows[x, 3]
                    n += 1
            m = _split(buf, n, L, min_nat, ends)
            a = 0
            for x in range(m):
                b = ends[x]
                for y in range(a, b):
                    piece[y - a, 0] = buf[y, 0]
                    piece[y - a, 1] = buf[y, 1]
                    piece[y - a, 2] = buf[y, 2]
                _reframe(piece, b - a, True, side, cut, low)
                _absorb(st, piece, b - a, True, False, L, min_nat, olds, row, sig, scr)
                a = b
    its = np.zeros((W, 3), np.int64)
    fs = np.zeros(32, np.int64)
    fb = np.zeros(32, np.int64)
    fw = np.zeros((33, 8), np.int64)
    for r in range(13):
        if sets[r, 0] + sets[r, 1] + sets[r, 2] + sets[r, 3] + sets[r, 4] == 0:
            continue
        m = _cut_sets(sets[r, :4], sets[r, 4], min_nat, set_max, fs, fb, fw)
        if m < 0:
            raise AssertionError("the sets of a rank do not cut")
        for q in range(m):
            # set_melds: the naturals by suit, then each joker for a missing suit in turn
            n = 0
            for x in range(4):
                if (fs[q] >> x) & 1:
                    its[n, 0] = x
                    its[n, 1] = r + 1
                    its[n, 2] = 0
                    n += 1
            nmiss = 4 - n if n < 4 else 4
            for y in range(fb[q]):
                want = y % nmiss
                seen = 0
                for x in range(4):
                    if nmiss == 4 or not (fs[q] >> x) & 1:
                        if seen == want:
                            its[n, 0] = x
                            break
                        seen += 1
                its[n, 1] = r + 1
                its[n, 2] = 1
                n += 1
            _reframe(its, n, False, side, cut, low)
            _absorb(st, its, n, False, False, L, min_nat, olds, row, sig, scr)


@_jit
def _repairs(
    st: Any,
    f_items: Any,
    f_start: Any,
    f_run: Any,
    f_tag: Any,
    ocnt: Any,
    oj: Any,
    olds: Any,
    keyok: Any,
    prm0: Any,
    wins: Any,
    nwins: Any,
    wt: Any,
    setj: Any,
    mem: Any,
    mc0: Any,
    ms0: Any,
    mc1: Any,
    ms1: Any,
    tops: Any,
) -> Any:
    """Every repair of ``_keep_greedy``: for each free old meld in index order, narrow
    first, then with the melds of neighbouring ranks. Returns the memo's and the move
    stores' arrays (new ones when grown)."""
    p_items, p_n, _p_run, p_tag, p_alive, p_j, top = st
    free = olds[3]
    kept = olds[4]
    L = prm0[0]
    min_nat = prm0[16]
    set_max = prm0[17]
    cyclic = prm0[14] != LOW
    nold = ocnt.shape[0]
    row = np.zeros(KW, np.int64)
    t = np.zeros((4, 13), np.int64)
    chosen = np.zeros(p_n.shape[0], np.int64)
    is_chosen = np.zeros(p_n.shape[0], np.bool_)
    near = np.zeros(13, np.bool_)
    prm = prm0.copy()
    sig = _run_sigs(olds[0], keyok)
    scr = np.empty((5, 2 * W + 2), np.int64)
    rws = _runs_space()
    for k in range(f_run.shape[0]):
        a = f_start[k]
        b = f_start[k + 1]
        _absorb(
            st, f_items[a:b], b - a, f_run[k], f_tag[k], L, min_nat, olds, row, sig, scr
        )  # fmt: skip
    for wide in (0, 1, 0):
        for i in range(nold):
            if not keyok[i] or not free[i]:
                continue
            mj = oj[i]
            t[:] = 0
            tj = -mj
            nch = 0
            for k in range(top[0]):
                if not p_alive[k] or p_tag[k]:
                    continue
                nj = p_j[k]
                cand = mj > 0 and nj > 0
                if not cand:
                    for x in range(p_n[k]):
                        if not p_items[k, x, 2] and ocnt[i, p_items[k, x, 0], p_items[k, x, 1] - 1]:
                            cand = True
                            break
                if not cand:
                    continue
                take = tj < 0 and nj > 0
                if not take:
                    for x in range(p_n[k]):
                        if p_items[k, x, 2]:
                            continue
                        s = p_items[k, x, 0]
                        r = p_items[k, x, 1] - 1
                        if ocnt[i, s, r] and t[s, r] < ocnt[i, s, r]:
                            take = True
                            break
                if take:
                    chosen[nch] = k
                    nch += 1
                    is_chosen[k] = True
                    tj += nj
                    for x in range(p_n[k]):
                        if not p_items[k, x, 2]:
                            t[p_items[k, x, 0], p_items[k, x, 1] - 1] += 1
            short = tj < 0
            if not short:
                for s in range(4):
                    for r in range(13):
                        if t[s, r] < ocnt[i, s, r]:
                            short = True
            if short:
                for x in range(nch):
                    is_chosen[chosen[x]] = False
                continue  # the play holds meld i's cards elsewhere (as a joker's role)
            if wide:
                # the ranks next to the cards the chosen melds leave over (beside meld i's
                # own), and meld i's own ranks (with jokers left over, the ranks next to
                # them)
                near[:] = False
                for r in range(13):
                    for s in range(4):
                        if t[s, r] > ocnt[i, s, r] or (tj > 0 and ocnt[i, s, r]):
                            near[(r + 12) % 13] = True
                            near[r] = True
                            near[(r + 1) % 13] = True
                        elif ocnt[i, s, r]:
                            near[r] = True
                for k in range(top[0]):
                    if not p_alive[k] or p_tag[k] or is_chosen[k]:
                        continue
                    hit = False
                    for y in range(p_n[k]):
                        if not p_items[k, y, 2] and near[p_items[k, y, 1] - 1]:
                            hit = True
                            break
                    if hit:
                        chosen[nch] = k
                        nch += 1
                        is_chosen[k] = True
                        tj += p_j[k]
                        for y in range(p_n[k]):
                            if not p_items[k, y, 2]:
                                t[p_items[k, y, 0], p_items[k, y, 1] - 1] += 1
            for x in range(nch):
                is_chosen[chosen[x]] = False
            left = tj
            for s in range(4):
                for r in range(13):
                    t[s, r] -= ocnt[i, s, r]
                    left += t[s, r]
            ok = True
            lo = 0
            side = 0
            cut = 0
            M = 0
            ms = ms0
            if left:
                M = min_nat if tj > L - min_nat else 0
                w = 1 if M else 0
                prm[:] = prm0
                prm[1] = M
                prm[2] = tj
                prm[3] = tj
                prm[_TOP] = tops[w, 0]
                prm[_MCN] = tops[w, 1]
                if w:
                    lo, side, cut, mem, mc1 = _bare(
                        t, tj, wins, nwins, wt, setj, prm, mem, mc1, ms1
                    )
                    ms = ms1
                else:
                    lo, side, cut, mem, mc0 = _bare(
                        t, tj, wins, nwins, wt, setj, prm, mem, mc0, ms0
                    )
                tops[w, 0] = prm[_TOP]
                tops[w, 1] = prm[_MCN]
                ok = not prm[_ABORT] and lo >= 0
            if not ok:
                continue
            kept[i] = True
            free[i] = False
            for x in range(nch):
                p_alive[chosen[x]] = False
            if left:
                if side:
                    path = _path(mem[3], mem[4], mem[5], ms, 13)
                else:
                    path = _path(mem[0], mem[1], mem[2], ms, 13)
                rows, sets, debt, is_open = _runs_into(path, ms, L, M, rws)
                _answer(
                    st, rows, sets, debt, is_open, cyclic, L, M, min_nat, set_max, olds, row,
                    side, cut, sig, scr,
                )  # fmt: skip
    return mem, mc0, mc1


@_jit
def _keep_loop(
    vals: Any,
    lens: Any,
    fvals: Any,
    fheads: Any,
    cap: int,
    prm0: Any,
    wins: Any,
    nwins: Any,
    wt: Any,
    setj: Any,
    mem: Any,
    mc0: Any,
    ms0: Any,
    mc1: Any,
    ms1: Any,
    tops: Any,
) -> Any:
    """The whole tie-break of a position: the old table (:func:`encode_table`) decoded and
    its keys hashed, the first answer (``fvals``: per item ``suit * 32 + rank * 2 +
    joker``; ``fheads``: per meld ``items * 4 + is_run * 2 + tag``) in the play's arrays
    (``cap`` rows), :func:`_repairs`, and the result in the same form: the kept old
    melds' indices, the play's heads and items (none if it outgrew its arrays), and the
    memos' and move stores' arrays (new ones when grown)."""
    ocnt, oj, okey, keyok = _decode_table(vals, lens)
    ohash = _hashes(okey, keyok)
    by_hash = np.argsort(ohash, kind="mergesort")
    order = by_hash[keyok[by_hash]]
    nold = lens.shape[0]
    free = keyok.copy()
    kept = np.zeros(nold, np.bool_)
    st = (
        np.empty((cap, W, 3), np.int64),
        np.zeros(cap, np.int64),
        np.zeros(cap, np.bool_),
        np.zeros(cap, np.bool_),
        np.zeros(cap, np.bool_),
        np.zeros(cap, np.int64),
        np.zeros(2, np.int64),
    )
    nf = fheads.shape[0]
    f_start = np.zeros(nf + 1, np.int64)
    f_run = np.zeros(nf, np.bool_)
    f_tag = np.zeros(nf, np.bool_)
    for k in range(nf):
        h = fheads[k]
        f_start[k + 1] = f_start[k] + (h >> 2)
        f_run[k] = (h >> 1) & 1
        f_tag[k] = h & 1
    f_items = np.zeros((max(1, f_start[nf]), 3), np.int64)
    for x in range(f_start[nf]):
        v = fvals[x]
        f_items[x, 0] = v >> 5
        f_items[x, 1] = (v >> 1) & 15
        f_items[x, 2] = v & 1
    mem, mc0, mc1 = _repairs(
        st, f_items, f_start, f_run, f_tag, ocnt, oj, (okey, ohash, order, free, kept), keyok,
        prm0, wins, nwins, wt, setj, mem, mc0, ms0, mc1, ms1, tops,
    )  # fmt: skip
    p_items, p_n, p_run, p_tag, p_alive, _p_j, top = st
    nk = 0
    nh = 0
    ni = 0
    if not top[1]:
        for i in range(nold):
            nk += kept[i]
        for k in range(top[0]):
            if p_alive[k]:
                nh += 1
                ni += p_n[k]
    out_kept = np.empty(nk, np.int64)
    heads = np.empty(nh, np.int64)
    items = np.empty(ni, np.int64)
    if not top[1]:
        nk = 0
        for i in range(nold):
            if kept[i]:
                out_kept[nk] = i
                nk += 1
        nh = 0
        ni = 0
        for k in range(top[0]):
            if not p_alive[k]:
                continue
            heads[nh] = p_n[k] * 4 + p_run[k] * 2 + p_tag[k]
            nh += 1
            for x in range(p_n[k]):
                items[ni] = p_items[k, x, 0] * 32 + p_items[k, x, 1] * 2 + p_items[k, x, 2]
                ni += 1
    return top[1] != 0, out_kept, heads, items, mem, mc0, mc1


_ITEMS = tuple(
    tuple((v >> 5, (v >> 1) & 15, bool(v & 1), tag) for v in range(128)) for tag in (False, True)
)
"""The play's items by their code (``suit * 32 + rank * 2 + joker``), untagged and tagged."""

_SCRATCH = threading.local()
"""Per thread, the memos of the questions' races (:func:`_fast.bare_memos`, cleared per
question), kept for the next position unless they grew."""
_MEMO_INDEX = bare_memos()[2].shape[0]


@lru_cache(maxsize=64)
def _rule_arrays(
    spec: CoreSpec,
    weight: tuple[tuple[int, ...], ...],
    jw: int,
    windows: tuple[tuple[tuple[int, int], ...], ...],
    copies: int,
    jokers: int,
    budget: int,
) -> tuple[np.ndarray[Any, Any], ...]:
    """The arrays a rule set's tie-break reads and never changes: weights, run windows,
    the questions' parameters and the sets' joker table (one set per rules, copies,
    jokers and budget)."""
    wins, nwins = window_arrays(windows)
    prm0 = np.array(
        (
            *(spec.min_len, 0, 0, 0, jw, budget, 13, 0, 0, 0, 0, 0, 1, NEG, spec.ace),
            *(_pin_mode(spec), spec.min_nat, spec.set_max, 1, 1),
        ),
        np.int64,
    )
    setj = _set_table(max(copies, 4), max(jokers, 6), spec.min_nat, spec.set_max)
    return _weights(weight), wins, nwins, prm0, setj


def encode_found(found: Melds) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], int, int]:
    """The first answer as :func:`_keep_loop` reads it: per item ``suit * 32 + rank * 2 +
    joker``, per meld ``items * 4 + is_run * 2 + tag``; and the most copies of one card
    and the jokers it holds (what :func:`usable` asks)."""
    fvals = np.array(
        [s * 32 + r * 2 + j for _is_run, items in found for s, r, j, _t in items] or [0],
        np.int64,
    )
    fheads = np.array(
        [len(items) * 4 + is_run * 2 + (1 if items[0][3] else 0) for is_run, items in found],
        np.int64,
    )
    jokers = fvals & 1
    nat = fvals[jokers == 0] >> 1 if found else fvals[:0]
    most = int(np.bincount(nat).max()) if nat.size else 0
    return fvals, fheads, most, int(jokers.sum()) if found else 0


class Keeper:
    """The arrays of one position's tie-break and the call that runs it."""

    def __init__(
        self,
        spec: CoreSpec,
        weight: tuple[tuple[int, ...], ...],
        jw: int,
        windows: tuple[tuple[tuple[int, int], ...], ...],
        copies: int,
        jokers: int,
        budget: int,
    ) -> None:
        self.spec = spec
        self.copies = copies
        self.jokers = jokers
        self.wt, self.wins, self.nwins, self.prm0, self.setj = _rule_arrays(
            spec, weight, jw, windows, copies, jokers, budget
        )

    def run(
        self,
        old: Sequence[Meld],
        found: Melds,
        encoded: tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], int, int] | None = None,
    ) -> tuple[list[int], Melds] | None:
        """The kept old melds' indices and the play of the rest (``_keep_greedy``); None
        if the play outgrew its arrays (then the loop in Python answers). ``encoded``:
        :func:`encode_found` of ``found``, if the caller has it."""
        spec = self.spec
        vals, lens = encode_table(old)
        fvals, fheads, _most, _nj = encoded or encode_found(found)
        per_found, per_old, extra = ROOM
        cap = per_found * len(found) + per_old * len(old) + extra
        L, ace = spec.min_len, spec.ace
        m0 = FastSearch._shared_moves((L, 0, ace))
        m1 = FastSearch._shared_moves((L, spec.min_nat, ace))
        tops = np.array(((m0.top, m0.count), (m1.top, m1.count)), np.int64)
        mem = getattr(_SCRATCH, "mem", None) or bare_memos()
        over, kept, heads, items, mem, m0.mcache, mc1 = _keep_loop(
            vals, lens, fvals, fheads, cap, self.prm0, self.wins, self.nwins, self.wt,
            self.setj, mem, m0.mcache, m0.mstore, m1.mcache, m1.mstore, tops,
        )  # fmt: skip
        if mem[2].shape[0] == mem[5].shape[0] == _MEMO_INDEX:
            _SCRATCH.mem = mem  # (a grown memo would cost more to clear per question)
        if m1 is not m0:
            m1.mcache = mc1
        m0.top, m0.count = int(tops[0, 0]), int(tops[0, 1])
        if m1 is not m0:
            m1.top, m1.count = int(tops[1, 0]), int(tops[1, 1])
        if over:
            return None
        codes = items.tolist()
        play: Melds = []
        a = 0
        for h in heads.tolist():
            b = a + (h >> 2)
            table = _ITEMS[h & 1]
            play.append((bool(h & 2), [table[v] for v in codes[a:b]]))
            a = b
        return kept.tolist(), play


def warm() -> None:
    """Compile the loop (or load it from numba's cache) on a table of two runs that a
    placed card joins: of [A 2 3] and [4 5 6] with a 7 placed, [A 2 3] stays and
    [4 5 6 7] is played (a 7 alone is no meld)."""
    spec = CoreSpec()
    windows = tuple(
        tuple((3, 7 << a) for a in range(max(0, r - 2), min(r, 10) + 1)) for r in range(13)
    )
    keeper = Keeper(spec, ((2,) * 13,) * 4, 2, windows, 1, 0, 1 << 20)
    old = [Meld.parse("[AS 2S 3S]"), Meld.parse("[4S 5S 6S]")]
    found: Melds = [(True, [(0, r, False, False) for r in range(1, 8)])]
    got = keeper.run(old, found)
    assert got is not None
    kept, play = got
    assert kept == [0] and len(play) == 1, (kept, play)
