"""The compiled core of :mod:`openrummy.envs.vector`: many workbenches in NumPy arrays.

Every function here works on the arrays of a whole batch (game ``i`` is row ``i``) and is
compiled by numba (``cache=True``: the machine code is kept in ``__pycache__``). The
semantics are :class:`~openrummy.envs.primitive.Workbench`'s, action for action: the same
counts, the same first valid interpretation of a slot, the same PLACE/PICK/ASSIGN mask and
the same workbench features of the observation. The engine's actions (DRAW, COMMIT, …) stay
with the Python engine; these functions only load a turn and step the workbench.

Layouts (``N`` games, ``S`` slots, ``K = 53`` card kinds, ``C = 29`` interpretations):

* ``cnt[N, S, K]`` (int8): cards of each kind in each slot; ``pool[N, K]`` (int16) the pool;
  ``before`` / ``now[N, K]`` (int16) the table's counts at turn start and now;
* ``slot[N, S, NS]`` (int16): per slot ``SIZE``, ``CHOSEN`` (−1: none), ``FIXED`` (a
  turn-start meld none of our interpretations expresses), ``VALID``, ``FROZEN``, ``CODE``;
* ``aok[N, S, C]`` (int8): the slot's other valid interpretations (ASSIGN before freezing);
* ``sc[N, NF]`` (int32): per game scalars (``F_*``);
* ``mask[N, A]`` (int8) and ``obs[N, D]`` (float32), the workbench features from column
  ``cfg[G_FEAT]`` on;
* ``cfg`` (int32): the constants ``G_*`` of the batch.
"""

from __future__ import annotations

from typing import Final

import numba
import numpy as np
import numpy.typing as npt

K: Final = 53
JK: Final = 52
C: Final = 29
RUN_CODES: Final = 13

# slot fields
S_SIZE, S_CHOSEN, S_FIXED, S_VALID, S_FROZEN, S_CODE = 0, 1, 2, 3, 4, 5
NS: Final = 6

# per game scalars
F_FIRST, F_DEFICIT, F_SURPLUS, F_STEPS, F_PLAYING, F_CHANGED = 0, 1, 2, 3, 4, 5
F_DRAW, F_PASS, F_END, F_TAKE, F_DISCARD, F_CHECK = 6, 7, 8, 9, 10, 11
NF: Final = 12

# configuration
G_SLOTS, G_CAP, G_MIN_LEN, G_MAX_LEN, G_SET_MAX, G_MIN_NAT = 0, 1, 2, 3, 4, 5
G_HAND_CARD, G_PLACE0, G_PICK0, G_ASSIGN0, G_FEAT = 6, 7, 8, 9, 10
NG: Final = 11

# action ids (primitive.py)
A_COMMIT, A_DRAW, A_PASS, A_END, A_RESET, A_TAKE, A_DISCARD0 = 2, 0, 1, 3, 4, 5, 6

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


@numba.njit(cache=True)
def interpret(row: I8, n: int, cfg: I32, out: I8) -> int:
    """The valid interpretation codes of a slot holding ``row`` (``n`` cards), in code order,
    written to ``out``; returns how many. The same as ``MeldBook.interpretations`` for meld
    rules with the ace low only (checked against it by the tests)."""
    if n < cfg[G_MIN_LEN] or n > cfg[G_MAX_LEN]:
        return 0
    jokers = int(row[JK])
    nat = n - jokers
    if nat <= 0 or nat < cfg[G_MIN_NAT]:
        return 0
    suits = 0
    lo = 99
    hi = -1
    dup = False
    for k in range(JK):
        c = row[k]
        if c:
            if c > 1:
                dup = True
            suits |= 1 << (k // 13)
            r = k % 13
            lo = min(lo, r)
            hi = max(hi, r)
    nsuits = 0
    for b in range(4):
        if suits >> b & 1:
            nsuits += 1
    m = 0
    if nsuits == 1 and not dup:
        for start in range(13):
            if start + n > 13:
                break
            if lo >= start and hi < start + n:
                out[m] = start
                m += 1
    if lo == hi and n <= cfg[G_SET_MAX] and nsuits == nat and n <= 4:
        for mask in range(16):
            if mask & suits == suits:
                bits = 0
                for b in range(4):
                    if mask >> b & 1:
                        bits += 1
                if bits == n:
                    out[m] = RUN_CODES + mask
                    m += 1
    return m


@numba.njit(cache=True)
def _refresh(i: int, s: int, cnt: I8, slot: I16, aok: I8, cfg: I32) -> None:
    """Slot ``s``'s validity, interpretation and other interpretations (``Workbench._refresh``)."""
    for c in range(C):
        aok[i, s, c] = 0
    n = slot[i, s, S_SIZE]
    if n == 0:
        slot[i, s, S_VALID] = 1
        slot[i, s, S_CODE] = -1
        return
    codes = np.empty(C, np.int8)
    m = interpret(cnt[i, s], n, cfg, codes)
    if slot[i, s, S_FIXED]:
        slot[i, s, S_VALID] = 1
        slot[i, s, S_CODE] = -1
        for j in range(m):
            aok[i, s, codes[j]] = 1
        return
    if m == 0:
        slot[i, s, S_VALID] = 0
        slot[i, s, S_CODE] = -1
        return
    code = slot[i, s, S_CHOSEN]
    found = False
    for j in range(m):
        if codes[j] == code:
            found = True
    if code < 0 or not found:
        code = codes[0]
    slot[i, s, S_VALID] = 1
    slot[i, s, S_CODE] = code
    for j in range(m):
        if codes[j] != code:
            aok[i, s, codes[j]] = 1


@numba.njit(cache=True)
def _is_open(i: int, s: int, slot: I16, sc: I32, cfg: I32) -> bool:
    n = slot[i, s, S_SIZE]
    return bool(s == sc[i, F_FIRST] or (0 < n < cfg[G_MAX_LEN] and slot[i, s, S_FROZEN] == 0))


@numba.njit(cache=True)
def _place_row(i: int, s: int, pool: I16, slot: I16, sc: I32, mask: I8, cfg: I32) -> None:
    at = cfg[G_PLACE0] + s * K
    if _is_open(i, s, slot, sc, cfg):
        for k in range(K):
            mask[i, at + k] = 1 if pool[i, k] > 0 else 0
    else:
        for k in range(K):
            mask[i, at + k] = 0


@numba.njit(cache=True)
def _slot_rows(
    i: int, s: int, cnt: I8, pool: I16, slot: I16, aok: I8, sc: I32, mask: I8, cfg: I32
) -> None:
    """Slot ``s``'s PLACE, PICK and ASSIGN rows of the mask."""
    _place_row(i, s, pool, slot, sc, mask, cfg)
    frozen = slot[i, s, S_FROZEN] != 0
    at = cfg[G_PICK0] + s * K
    for k in range(K):
        mask[i, at + k] = 0 if frozen else (1 if cnt[i, s, k] > 0 else 0)
    at = cfg[G_ASSIGN0] + s * C
    for c in range(C):
        mask[i, at + c] = 0 if frozen else aok[i, s, c]


@numba.njit(cache=True)
def _find_first(i: int, slot: I16, cfg: I32) -> int:
    for s in range(cfg[G_SLOTS]):
        if slot[i, s, S_SIZE] == 0:
            return s
    return -1


@numba.njit(cache=True)
def _active(i: int, sc: I32, cfg: I32) -> bool:
    return bool(sc[i, F_PLAYING] != 0 and sc[i, F_STEPS] < cfg[G_CAP])


@numba.njit(cache=True)
def _fill(
    i: int,
    cnt: I8,
    pool: I16,
    slot: I16,
    aok: I8,
    sc: I32,
    mask: I8,
    obs: F32,
    cfg: I32,
) -> None:
    """Game ``i``'s whole mask and workbench features from its state."""
    slots = cfg[G_SLOTS]
    a = mask.shape[1]
    for j in range(a):
        mask[i, j] = 0
    if _active(i, sc, cfg):
        for s in range(slots):
            _slot_rows(i, s, cnt, pool, slot, aok, sc, mask, cfg)
    mask[i, A_DRAW] = sc[i, F_DRAW]
    mask[i, A_PASS] = sc[i, F_PASS]
    mask[i, A_END] = sc[i, F_END]
    mask[i, A_TAKE] = sc[i, F_TAKE]
    mask[i, A_RESET] = (
        1 if sc[i, F_PLAYING] and sc[i, F_CHANGED] and sc[i, F_STEPS] < cfg[G_CAP] else 0
    )
    if sc[i, F_DISCARD]:
        for k in range(K):
            mask[i, A_DISCARD0 + k] = 1 if pool[i, k] > 0 else 0
    f = cfg[G_FEAT]
    for k in range(K):
        obs[i, f + k] = pool[i, k]
    for s in range(slots):
        for k in range(K):
            obs[i, f + K + s * K + k] = cnt[i, s, k]
        obs[i, f + K + slots * K + s] = slot[i, s, S_CODE] + 1
    obs[i, f + K + slots * K + slots] = sc[i, F_STEPS]


@numba.njit(cache=True)
def _load(
    i: int,
    cnt: I8,
    pool: I16,
    before: I16,
    now: I16,
    slot: I16,
    aok: I8,
    sc: I32,
    mask: I8,
    obs: F32,
    cfg: I32,
    steps: int,
) -> None:
    slots = cfg[G_SLOTS]
    for k in range(K):
        t = 0
        for s in range(slots):
            t += cnt[i, s, k]
        before[i, k] = t
        now[i, k] = t
    for s in range(slots):
        _refresh(i, s, cnt, slot, aok, cfg)
    sc[i, F_FIRST] = _find_first(i, slot, cfg)
    sc[i, F_DEFICIT] = 0
    sc[i, F_SURPLUS] = 0
    sc[i, F_STEPS] = steps
    sc[i, F_CHANGED] = 0
    sc[i, F_CHECK] = 0
    _fill(i, cnt, pool, slot, aok, sc, mask, obs, cfg)


@numba.njit(cache=True)
def load_turns(
    games: I64,
    cnt: I8,
    pool: I16,
    before: I16,
    now: I16,
    slot: I16,
    aok: I8,
    sc: I32,
    mask: I8,
    obs: F32,
    cfg: I32,
    s_cnt: I8,
    s_pool: I16,
    s_slot: I16,
) -> None:
    """Start a turn in each game of ``games`` from the ``s_*`` arrays (the turn-start
    table and hand, the slots' chosen codes, fixed and frozen flags, written by the caller
    with the ``F_DRAW`` … ``F_DISCARD`` and ``F_PLAYING`` flags), as ``Workbench.load``."""
    for j in range(games.size):
        i = games[j]
        cnt[i] = s_cnt[i]
        pool[i] = s_pool[i]
        slot[i] = s_slot[i]
        _load(i, cnt, pool, before, now, slot, aok, sc, mask, obs, cfg, 0)


@numba.njit(cache=True)
def _move(
    i: int,
    a: int,
    cnt: I8,
    pool: I16,
    before: I16,
    now: I16,
    slot: I16,
    aok: I8,
    sc: I32,
    mask: I8,
    obs: F32,
    cfg: I32,
    s_cnt: I8,
    s_pool: I16,
    s_slot: I16,
) -> None:
    """Apply workbench action ``a`` (RESET, PLACE, PICK or ASSIGN) to game ``i``."""
    slots = cfg[G_SLOTS]
    f = cfg[G_FEAT]
    code_at = f + K + slots * K
    if a == A_RESET:
        cnt[i] = s_cnt[i]
        pool[i] = s_pool[i]
        slot[i] = s_slot[i]
        _load(i, cnt, pool, before, now, slot, aok, sc, mask, obs, cfg, sc[i, F_STEPS] + 1)
        return
    if a < cfg[G_PICK0]:
        s, k = divmod(a - cfg[G_PLACE0], K)
        first_before = sc[i, F_FIRST]
        pool[i, k] -= 1
        cnt[i, s, k] += 1
        slot[i, s, S_SIZE] += 1
        if s == first_before:
            sc[i, F_FIRST] = _find_first(i, slot, cfg)
        if k != JK and now[i, k] < before[i, k]:
            sc[i, F_DEFICIT] -= 1
        if now[i, k] >= before[i, k]:
            sc[i, F_SURPLUS] += 1
        now[i, k] += 1
    elif a < cfg[G_ASSIGN0]:
        s, k = divmod(a - cfg[G_PICK0], K)
        first_before = sc[i, F_FIRST]
        pool[i, k] += 1
        cnt[i, s, k] -= 1
        slot[i, s, S_SIZE] -= 1
        if slot[i, s, S_SIZE] == 0 and (first_before < 0 or s < first_before):
            sc[i, F_FIRST] = s
        now[i, k] -= 1
        if k != JK and now[i, k] < before[i, k]:
            sc[i, F_DEFICIT] += 1
        if now[i, k] >= before[i, k]:
            sc[i, F_SURPLUS] -= 1
    else:
        s, c = divmod(a - cfg[G_ASSIGN0], C)
        slot[i, s, S_CHOSEN] = c
        slot[i, s, S_FIXED] = 0
        _refresh(i, s, cnt, slot, aok, cfg)
        sc[i, F_STEPS] += 1
        sc[i, F_CHANGED] = 1
        _after(i, s, -1, -1, cnt, pool, slot, aok, sc, mask, obs, cfg, code_at)
        return
    slot[i, s, S_CHOSEN] = -1
    slot[i, s, S_FIXED] = 0
    _refresh(i, s, cnt, slot, aok, cfg)
    sc[i, F_STEPS] += 1
    sc[i, F_CHANGED] = 1
    obs[i, f + k] = pool[i, k]
    obs[i, f + K + s * K + k] = cnt[i, s, k]
    _after(i, s, k, first_before, cnt, pool, slot, aok, sc, mask, obs, cfg, code_at)


@numba.njit(cache=True)
def _after(
    i: int,
    s: int,
    k: int,
    first_before: int,
    cnt: I8,
    pool: I16,
    slot: I16,
    aok: I8,
    sc: I32,
    mask: I8,
    obs: F32,
    cfg: I32,
    code_at: int,
) -> None:
    """The mask, features and commit flag after a move in slot ``s`` (pool kind ``k``, −1
    for an ASSIGN; ``first_before`` the lowest empty slot before it)."""
    slots = cfg[G_SLOTS]
    obs[i, code_at + s] = slot[i, s, S_CODE] + 1
    obs[i, code_at + slots] = sc[i, F_STEPS]
    if not _active(i, sc, cfg):
        # the turn cap: only COMMIT and the turn-ending actions stay
        for j in range(cfg[G_PLACE0], mask.shape[1]):
            mask[i, j] = 0
        mask[i, A_RESET] = 0
    else:
        _slot_rows(i, s, cnt, pool, slot, aok, sc, mask, cfg)
        if k >= 0:
            # the column of kind k changes only when the pool's count of k reaches 0 or 1
            # (Workbench._update); slot s's row and the empty slots' rows follow below
            place0 = cfg[G_PLACE0]
            have = pool[i, k]
            if have == 0:
                for t in range(slots):
                    mask[i, place0 + t * K + k] = 0
            elif have == 1:
                for t in range(slots):
                    mask[i, place0 + t * K + k] = 1 if _is_open(i, t, slot, sc, cfg) else 0
            first = sc[i, F_FIRST]
            if first_before >= 0 and first_before != s:
                _place_row(i, first_before, pool, slot, sc, mask, cfg)
            if first >= 0 and first != s:
                _place_row(i, first, pool, slot, sc, mask, cfg)
        mask[i, A_RESET] = 1 if sc[i, F_PLAYING] else 0
    if k >= 0 and sc[i, F_DISCARD]:
        mask[i, A_DISCARD0 + k] = 1 if pool[i, k] > 0 else 0
    mask[i, A_COMMIT] = 0
    ok = (
        sc[i, F_PLAYING] != 0
        and sc[i, F_DEFICIT] == 0
        and (sc[i, F_SURPLUS] > 0 or cfg[G_HAND_CARD] == 0)
    )
    if ok:
        for t in range(slots):
            if slot[i, t, S_VALID] == 0:
                ok = False
                break
    sc[i, F_CHECK] = 1 if ok else 0


@numba.njit(cache=True, nogil=True)
def step_work(
    lo: int,
    hi: int,
    actions: I64,
    todo: npt.NDArray[np.bool_],
    cnt: I8,
    pool: I16,
    before: I16,
    now: I16,
    slot: I16,
    aok: I8,
    sc: I32,
    mask: I8,
    obs: F32,
    cfg: I32,
    s_cnt: I8,
    s_pool: I16,
    s_slot: I16,
) -> None:
    """Apply ``actions[i]`` to every game ``lo <= i < hi`` with ``todo[i]`` (workbench
    actions only, already checked against the mask). It releases the GIL, so threads can
    step disjoint ranges at once."""
    for i in range(lo, hi):
        if todo[i]:
            _move(
                i,
                actions[i],
                cnt,
                pool,
                before,
                now,
                slot,
                aok,
                sc,
                mask,
                obs,
                cfg,
                s_cnt,
                s_pool,
                s_slot,
            )


@numba.njit(cache=True, nogil=True)
def sample_masked(lo: int, hi: int, mask: I8, u: F64, out: I64) -> None:
    """``out[i]``: the ``floor(u[i] · n)``-th allowed action of row ``i`` (``n`` allowed
    actions; 0 for an all-zero row): a uniform random masked policy for ``u`` uniform in
    [0, 1); rows ``lo`` to ``hi - 1``."""
    for i in range(lo, hi):
        n = 0
        for j in range(mask.shape[1]):
            n += mask[i, j]
        out[i] = 0
        if n == 0:
            continue
        want = min(int(u[i] * n), n - 1)
        for j in range(mask.shape[1]):
            if mask[i, j]:
                if want == 0:
                    out[i] = j
                    break
                want -= 1


def warm() -> None:
    """Compile every kernel (or load it from numba's cache) on a batch of one empty game."""
    slots, size = 2, A_DISCARD0 + K + 2 * 2 * K + 2 * C
    cfg = np.array([slots, 10, 3, 13, 4, 1, 1, 59, 59 + 2 * K, 59 + 4 * K, 0], np.int32)
    cnt = np.zeros((1, slots, K), np.int8)
    pool = np.zeros((1, K), np.int16)
    pool[0, :3] = 1
    before = np.zeros((1, K), np.int16)
    now = np.zeros((1, K), np.int16)
    slot = np.zeros((1, slots, NS), np.int16)
    aok = np.zeros((1, slots, C), np.int8)
    sc = np.zeros((1, NF), np.int32)
    sc[0, F_PLAYING] = 1
    mask = np.zeros((1, size), np.int8)
    obs = np.zeros((1, K + slots * K + slots + 1), np.float32)
    games = np.zeros(1, np.int64)
    start = (cnt.copy(), pool.copy(), slot.copy())
    load_turns(games, cnt, pool, before, now, slot, aok, sc, mask, obs, cfg, *start)
    todo = np.ones(1, np.bool_)
    step_work(
        0,
        1,
        np.array([59], np.int64),
        todo,
        cnt,
        pool,
        before,
        now,
        slot,
        aok,
        sc,
        mask,
        obs,
        cfg,
        cnt.copy(),
        pool.copy(),
        slot.copy(),
    )
    out = np.zeros(1, np.int64)
    sample_masked(0, 1, mask, np.zeros(1), out)
    interpret(np.zeros(K, np.int8), 3, cfg, np.zeros(C, np.int8))
