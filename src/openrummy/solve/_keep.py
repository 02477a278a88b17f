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

from collections.abc import Sequence
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
    _runs_of,
    _set_table,
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


def encode_table(melds: Sequence[Meld]) -> tuple[np.ndarray[Any, Any], ...]:
    """The old table as the loop reads it, one pass over each meld's items: its cards'
    counts (suit, rank index) and jokers, and its key row (zeros if it has none) as
    ``table._table_key`` keys it: a run by its items (suit, rank, is a joker; none for
    13 or more), a set by its rank, natural suits and number of jokers."""
    n = len(melds)
    cnt = [0] * (n * 52)
    oj: list[int] = []
    rows: list[list[int]] = []
    keyok: list[bool] = []
    for i, m in enumerate(melds):
        items = m.items
        codes: list[int] = []
        suits: list[int] = []
        rank = -1
        one_rank = True
        jokers = 0
        for it in items:
            card = it.card
            rep = it.identity
            s = int(rep.suit or 0)
            if card.suit is None:
                jokers += 1
                codes.append(s * 32 + rep.rank * 2 + 1)
            else:
                cnt[i * 52 + card.suit * 13 + card.rank - 1] += 1
                suits.append(s)
                codes.append(s * 32 + rep.rank * 2)
            if rank != rep.rank:
                one_rank = rank < 0
                rank = rep.rank
        oj.append(jokers)
        if one_rank and len(items) > 1:
            suits.sort()
            row = [2, 2 + len(suits), rank, jokers, *suits]
        elif len(items) < 13:
            codes.sort()
            row = [1, len(codes), *codes]
        else:
            row = []
        keyok.append(bool(row))
        rows.append(row + [0] * (KW - len(row)))
    ocnt = np.array(cnt, np.int64).reshape(n, 4, 13)
    okey = np.array(rows, np.int64).reshape(n, KW)
    return ocnt, np.array(oj, np.int64), okey, np.array(keyok, np.bool_)


@_jit
def _hash(row: Any) -> int:
    h = row[0] * 7919 + row[1] * 104729
    for x in range(row[1]):
        h = h * 1000003 + row[2 + x] + 1
    return h  # type: ignore[no-any-return]


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
def _keep_loop(
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
                near[:] = False
                for x in range(nch):
                    k = chosen[x]
                    for y in range(p_n[k]):
                        if not p_items[k, y, 2]:
                            r = p_items[k, y, 1] - 1
                            near[(r + 12) % 13] = True
                            near[r] = True
                            near[(r + 1) % 13] = True
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
                rows, sets, debt, is_open = _runs_of(path, ms, L, M)
                _answer(
                    st, rows, sets, debt, is_open, cyclic, L, M, min_nat, set_max, olds, row,
                    side, cut, sig, scr,
                )  # fmt: skip
    return mem, mc0, mc1


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
        self.wt = _weights(weight)
        self.wins, self.nwins = window_arrays(windows)
        L = spec.min_len
        self.prm0 = np.array(
            (
                *(L, 0, 0, 0, jw, budget, 13, 0, 0, 0, 0, 0, 1, NEG, spec.ace),
                *(_pin_mode(spec), spec.min_nat, spec.set_max),
            ),
            np.int64,
        )
        self.setj = _set_table(max(copies, 4), max(jokers, 6), spec.min_nat, spec.set_max)

    def run(self, old: Sequence[Meld], found: Melds) -> tuple[list[int], Melds] | None:
        """The kept old melds' indices and the play of the rest (``_keep_greedy``); None
        if the play outgrew its arrays (then the loop in Python answers)."""
        spec = self.spec
        nold = len(old)
        ocnt, oj, okey, keyok = encode_table(old)
        ohash = _hashes(okey, keyok)
        by_hash = np.argsort(ohash, kind="stable")
        order = by_hash[keyok[by_hash]]
        free = keyok.copy()
        kept = np.zeros(nold, np.bool_)
        per_found, per_old, extra = ROOM
        cap = per_found * len(found) + per_old * nold + extra
        st = (
            np.empty((cap, W, 3), np.int64),
            np.zeros(cap, np.int64),
            np.zeros(cap, np.bool_),
            np.zeros(cap, np.bool_),
            np.zeros(cap, np.bool_),
            np.zeros(cap, np.int64),
            np.zeros(2, np.int64),
        )
        f_items = np.array(
            [it[:3] for _is_run, items in found for it in items] or [(0, 0, False)], np.int64
        )
        f_start = np.zeros(len(found) + 1, np.int64)
        f_start[1:] = np.cumsum([len(items) for _is_run, items in found])
        f_run = np.array([is_run for is_run, _items in found], np.bool_)
        f_tag = np.array([bool(items[0][3]) for _is_run, items in found], np.bool_)
        L, ace = spec.min_len, spec.ace
        m0 = FastSearch._shared_moves((L, 0, ace))
        m1 = FastSearch._shared_moves((L, spec.min_nat, ace))
        tops = np.array(((m0.top, m0.count), (m1.top, m1.count)), np.int64)
        _mem, m0.mcache, mc1 = _keep_loop(
            st, f_items, f_start, f_run, f_tag, ocnt, oj, (okey, ohash, order, free, kept), keyok,
            self.prm0, self.wins, self.nwins, self.wt, self.setj, bare_memos(), m0.mcache,
            m0.mstore, m1.mcache, m1.mstore, tops,
        )  # fmt: skip
        if m1 is not m0:
            m1.mcache = mc1
        m0.top, m0.count = int(tops[0, 0]), int(tops[0, 1])
        if m1 is not m0:
            m1.top, m1.count = int(tops[1, 0]), int(tops[1, 1])
        p_items, p_n, p_run, p_tag, p_alive, _p_j, top = st
        if top[1]:
            return None
        play: Melds = []
        for k in range(int(top[0])):
            if p_alive[k]:
                tag = bool(p_tag[k])
                play.append(
                    (
                        bool(p_run[k]),
                        [(s, r, bool(j), tag) for s, r, j in p_items[k, : p_n[k]].tolist()],
                    )
                )
        return [i for i in range(nold) if kept[i]], play


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
