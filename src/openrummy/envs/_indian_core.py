"""The compiled round of the Indian Rummy environments (private).

One hand of Indian Rummy in one int64 array (``st``, offsets below), stepped by numba
kernels (``cache=True``; ``rummy warm`` compiles them): the deal from the match's seed,
draw, take, drop and throw, the end of the hand by drops or by an empty stock, the quick
declaration test after every draw, and the seat's observation and mask. It gives exactly
what the engine gives for the same seed and actions:

* the **deal** reproduces Python's ``random.Random(str)`` (MT19937 seeded from the string's
  SHA-512, as CPython does) and the engine's shuffle and cut for the dealer, so the cards,
  the dealer, the indicator and the stock order are the engine's; the generator's state
  stays in the array for the stock's rebuild from the discards;
* the **quick declaration test** (:func:`could_group_counts`) is the compiled form of
  :mod:`openrummy.envs._declare`'s necessary conditions (for 21 cards, also the counting
  forms and a bound on the pure sequences): a hand it rules out has no valid declaration,
  and when it does not, the engine's hand solver decides.

Everything else (a declaration, the losers' show, the 21-card value cards) is the engine's;
:mod:`openrummy.envs._indian_env` keeps the engine's match in step lazily.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Final

import numba
import numpy as np
import numpy.typing as npt

from openrummy.cards import Card
from openrummy.games.indian import IndianGame
from openrummy.melds import AceMode
from openrummy.rules import IndianRules
from openrummy.rules.indian import DeclareRequirement, V21Form

I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]
F32 = npt.NDArray[np.float32]

K: Final = 53
JK: Final = 52
MAXP: Final = 6
MAXD: Final = 320
N_MT: Final = 624

# -- the state array ------------------------------------------------------------------------
H_N, H_PHASE, H_CUR, H_DEALER, H_TAKEN, H_UPCARD, H_STOCK, H_PILE = 0, 1, 2, 3, 4, 5, 6, 7
H_WILD, H_IND, H_END, H_WINNER, H_MTI, H_MAYDECL, H_RESHUF = 8, 9, 10, 11, 12, 13, 14
# rules
R_TAKEWILD, R_NOSAME, R_INPLAY, R_DROP1, R_DROP2, R_RESHUFFLE = 16, 17, 18, 19, 20, 21
R_HAND, R_CUT, R_QUICK, R_V21, R_TUNNELA, R_FORMS = 22, 23, 24, 25, 26, 27
STATUS0: Final = 32
DRAWS0: Final = 38
PEN0: Final = 44
SIZE0: Final = 50
TOT0: Final = 56
WILD0: Final = 64
HANDS0: Final = 128
PILEC0: Final = HANDS0 + MAXP * K
STOCK0: Final = PILEC0 + 64
PILE0: Final = STOCK0 + MAXD
MT0: Final = PILE0 + MAXD
SIZE: Final = MT0 + N_MT + 8

# phases (the observation's one-hot order), statuses, ends
START, DISCARD, OVER = 0, 1, 3
ACTIVE, DROPPED, DECLARED = 0, 1, 3
END_NONE, END_LAST, END_VOID = 0, 1, 2
# cut rules
CUT_LOW, CUT_HIGH, CUT_RANDOM = 0, 1, 2
# 21-card forms (bits of R_FORMS)
F_PURE, F_TUNNELA, F_DUBLEE, F_JOKERS = 1, 2, 4, 8

# action ids (openrummy.envs._spaces)
A_DRAW, A_TAKE, A_DROP, A_DISCARD0, A_SECOND0 = 0, 1, 2, 4, 57

# observation offsets (the ``lay`` array)
L_HAND, L_DISCARD, L_TOP, L_UNSEEN, L_SIZES, L_OPENED, L_STOCK = 0, 1, 2, 3, 4, 5, 6
L_MOVE, L_PHASE, L_WILD, L_DRAWS, L_TAKEN, L_STAND = 7, 8, 9, 10, 11, 12

NODES: Final = 4000
"""The cover search's node budget: past it, the quick test answers "perhaps" (the engine
decides), so the answer stays exact and a rare hard hand costs a bounded time."""

_M32: Final = 0xFFFFFFFF


# -- Python's random module, compiled ---------------------------------------------------------
def seed_key(text: str) -> I64:
    """The 32-bit words CPython's ``random.Random(text)`` seeds MT19937 with (version 2:
    the text's bytes and their SHA-512 digest read as one big-endian number)."""
    raw = text.encode()
    n = int.from_bytes(raw + hashlib.sha512(raw).digest(), "big")
    words = max(1, (n.bit_length() + 31) // 32)
    return np.frombuffer(n.to_bytes(4 * words, "little"), dtype="<u4").astype(np.int64)


@numba.njit(cache=True)
def mt_seed(st: I64, key: I64) -> None:  # pragma: no cover - compiled
    """``init_by_array(key)`` into the state's generator (CPython's ``random_seed``)."""
    mt = st[MT0 : MT0 + N_MT]
    mt[0] = 19650218
    for i in range(1, N_MT):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _M32
    i, j = 1, 0
    n = len(key)
    for _ in range(max(N_MT, n)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> 30)) * 1664525) & _M32)) + key[j] + j) & _M32
        i += 1
        j += 1
        if i >= N_MT:
            mt[0] = mt[N_MT - 1]
            i = 1
        if j >= n:
            j = 0
    for _ in range(N_MT - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> 30)) * 1566083941) & _M32)) - i) & _M32
        i += 1
        if i >= N_MT:
            mt[0] = mt[N_MT - 1]
            i = 1
    mt[0] = 0x80000000
    st[H_MTI] = N_MT


@numba.njit(cache=True)
def mt_next(st: I64) -> int:  # pragma: no cover - compiled
    """The next 32-bit output (``genrand_uint32``)."""
    mt = st[MT0 : MT0 + N_MT]
    if st[H_MTI] >= N_MT:
        for k in range(N_MT):
            y = (mt[k] & 0x80000000) | (mt[(k + 1) % N_MT] & 0x7FFFFFFF)
            v = mt[(k + 397) % N_MT] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            mt[k] = v
        st[H_MTI] = 0
    y = mt[st[H_MTI]]
    st[H_MTI] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y & _M32)


@numba.njit(cache=True)
def randbelow(st: I64, n: int) -> int:  # pragma: no cover - compiled
    """``random.Random._randbelow(n)`` (``getrandbits`` of ``n.bit_length()`` bits, again
    while too large)."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = mt_next(st) >> (32 - k)
    while r >= n:
        r = mt_next(st) >> (32 - k)
    return r


@numba.njit(cache=True)
def shuffle(st: I64, cards: I64, n: int) -> None:  # pragma: no cover - compiled
    """``openrummy.cards.shuffle`` of ``cards[:n]`` with the state's generator."""
    for i in range(n - 1, 0, -1):
        j = randbelow(st, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


@numba.njit(cache=True)
def cut_for_dealer(st: I64, players: int, rule: int) -> int:  # pragma: no cover - compiled
    """``openrummy.games.manipulation.cut_for_dealer`` (cards: one deck, aces low)."""
    if rule == CUT_RANDOM:
        return randbelow(st, players)
    contenders = np.arange(players)
    left = players
    pool = np.empty(52, np.int64)
    cuts = np.empty(MAXP, np.int64)
    while True:
        for i in range(52):
            pool[i] = i
        shuffle(st, pool, 52)
        best = -1
        for i in range(left):
            cuts[i] = pool[i] % 13 + 1
            if best < 0 or (cuts[i] > best if rule == CUT_HIGH else cuts[i] < best):
                best = cuts[i]
        kept = 0
        for i in range(left):
            if cuts[i] == best:
                contenders[kept] = contenders[i]
                kept += 1
        left = kept
        if left == 1:
            return int(contenders[0])


# -- the deal -------------------------------------------------------------------------------
@numba.njit(cache=True)
def deal(
    st: I64, key_dealer: I64, key_round: I64, deck: I64, wild_table: I64
) -> None:  # pragma: no cover - compiled
    """Deal the match's first hand: the engine's ``IndianMatch(rules, n, seed=s)`` with
    ``key_dealer`` the key of ``f"{s}/dealer"`` and ``key_round`` of ``f"{s}/0"``;
    ``deck`` is the full deck's kinds in the engine's order, ``wild_table[k]`` the wild
    rank and the wild flags of the 53 kinds for indicator kind ``k``."""
    n = st[H_N]
    mt_seed(st, key_dealer)
    dealer = cut_for_dealer(st, n, st[R_CUT])
    mt_seed(st, key_round)
    size = len(deck)
    order = deck.copy()
    shuffle(st, order, size)
    st[HANDS0 : HANDS0 + MAXP * K] = 0
    st[PILEC0 : PILEC0 + K] = 0
    hand = st[R_HAND]
    for s in range(MAXP):
        st[STATUS0 + s] = ACTIVE
        st[DRAWS0 + s] = 0
        st[PEN0 + s] = -1
        st[SIZE0 + s] = hand if s < n else 0
        st[TOT0 + s] = 0
    for i in range(hand * n):
        s = (dealer + 1 + i) % n
        st[HANDS0 + s * K + order[i]] += 1
    rest = hand * n
    indicator = order[rest]
    # the stock, top at the end: the rest after the indicator and the upcard, reversed
    m = 0
    if st[R_INPLAY]:
        st[STOCK0] = indicator
        m = 1
    for i in range(size - 1, rest + 1, -1):
        st[STOCK0 + m] = order[i]
        m += 1
    st[H_STOCK] = m
    up = order[rest + 1]
    st[PILE0] = up
    st[H_PILE] = 1
    st[PILEC0 + up] += 1
    st[H_UPCARD] = 1
    st[H_IND] = indicator
    st[H_WILD] = wild_table[indicator, 0]
    for k in range(K):
        st[WILD0 + k] = wild_table[indicator, 1 + k]
    st[H_DEALER] = dealer
    st[H_CUR] = (dealer + 1) % n
    st[H_PHASE] = START
    st[H_TAKEN] = -1
    st[H_END] = END_NONE
    st[H_WINNER] = -1
    st[H_MAYDECL] = 0
    st[H_RESHUF] = 0


# -- steps ----------------------------------------------------------------------------------
@numba.njit(cache=True)
def may_take(st: I64) -> bool:  # pragma: no cover - compiled
    if st[H_PHASE] != START or st[H_END] != END_NONE or st[H_PILE] == 0:
        return False
    if st[R_TAKEWILD] or st[H_UPCARD]:
        return True
    return bool(st[WILD0 + st[PILE0 + st[H_PILE] - 1]] == 0)


@numba.njit(cache=True)
def legal(st: I64, a: int) -> bool:  # pragma: no cover - compiled
    """Is id ``a`` (not a declaration) offered to the seat to move now?"""
    if st[H_END] != END_NONE:
        return False
    if st[H_PHASE] == START:
        return a in (A_DRAW, A_DROP) or (a == A_TAKE and may_take(st))
    if st[H_PHASE] == DISCARD and A_DISCARD0 <= a < A_SECOND0:
        k = a - A_DISCARD0
        have = st[HANDS0 + st[H_CUR] * K + k]
        if have == 0:
            return False
        return not (st[R_NOSAME] and k == st[H_TAKEN] and have < 2)
    return False


@numba.njit(cache=True)
def _next_turn(st: I64) -> None:  # pragma: no cover - compiled
    n = st[H_N]
    nxt = st[H_CUR]
    for _ in range(n):
        nxt = (nxt + 1) % n
        if st[STATUS0 + nxt] == ACTIVE:
            break
    st[H_CUR] = nxt
    st[H_PHASE] = START
    st[H_TAKEN] = -1


@numba.njit(cache=True)
def _end(st: I64, how: int, winner: int) -> None:  # pragma: no cover - compiled
    """The hand is over: ``how`` (END_LAST: ``winner`` is the last player standing; END_VOID:
    every active player scores 0)."""
    n = st[H_N]
    if how == END_LAST:
        st[PEN0 + winner] = 0
        st[STATUS0 + winner] = DECLARED
    else:
        for s in range(n):
            if st[STATUS0 + s] == ACTIVE:
                st[PEN0 + s] = 0
    st[H_END] = how
    st[H_WINNER] = winner
    st[H_PHASE] = OVER


@numba.njit(cache=True)
def step(st: I64, a: int) -> None:  # pragma: no cover - compiled
    """Apply id ``a`` (offered: :func:`legal`) for the seat to move."""
    seat = st[H_CUR]
    hand = HANDS0 + seat * K
    st[H_MAYDECL] = 0
    if a == A_DROP:
        st[PEN0 + seat] = st[R_DROP1] if st[DRAWS0 + seat] == 0 else st[R_DROP2]
        st[STATUS0 + seat] = DROPPED
        st[hand : hand + K] = 0
        st[SIZE0 + seat] = 0
        active, last = 0, -1
        for s in range(st[H_N]):
            if st[STATUS0 + s] == ACTIVE:
                active += 1
                last = s
        if active == 1:
            _end(st, END_LAST, last)
        else:
            _next_turn(st)
        return
    if a in (A_DRAW, A_TAKE):
        if a == A_DRAW:
            if st[H_STOCK] == 0:
                if not st[R_RESHUFFLE] or st[H_PILE] < 2:
                    _end(st, END_VOID, -1)
                    return
                # the discards but the top, shuffled, are the new stock (top at the end)
                top = st[PILE0 + st[H_PILE] - 1]
                m = st[H_PILE] - 1
                rest = st[PILE0 : PILE0 + m].copy()
                shuffle(st, rest, m)
                st[STOCK0 : STOCK0 + m] = rest
                st[H_STOCK] = m
                st[PILE0] = top
                st[H_PILE] = 1
                st[PILEC0 : PILEC0 + K] = 0
                st[PILEC0 + top] = 1
                st[H_RESHUF] += 1
            st[H_STOCK] -= 1
            card = st[STOCK0 + st[H_STOCK]]
            st[H_TAKEN] = -1
        else:
            st[H_PILE] -= 1
            card = st[PILE0 + st[H_PILE]]
            st[PILEC0 + card] -= 1
            st[H_UPCARD] = 0
            st[H_TAKEN] = card
        st[hand + card] += 1
        st[SIZE0 + seat] += 1
        st[DRAWS0 + seat] += 1
        st[H_PHASE] = DISCARD
        st[H_MAYDECL] = could_declare_state(st, seat)
        return
    # a throw
    k = a - A_DISCARD0
    st[hand + k] -= 1
    st[SIZE0 + seat] -= 1
    st[PILE0 + st[H_PILE]] = k
    st[H_PILE] += 1
    st[PILEC0 + k] += 1
    st[H_UPCARD] = 0
    _next_turn(st)


@numba.njit(cache=True)
def fill(st: I64, seat: int, lay: I64, deck: I64, obs: F32, mask: I8) -> None:  # pragma: no cover
    """The seat's observation into ``obs`` (zeros on entry) and, for the seat to move, its
    mask into ``mask`` (zeros on entry; declarations are added by the caller)."""
    n = st[H_N]
    hand = HANDS0 + seat * K
    h0, d0, u0 = lay[L_HAND], lay[L_DISCARD], lay[L_UNSEEN]
    for k in range(K):
        have = st[hand + k]
        seen = st[PILEC0 + k]
        obs[h0 + k] = have
        obs[d0 + k] = seen
        left = deck[k] - have - seen
        obs[u0 + k] = left if left > 0 else 0
    if st[H_PILE] > 0:
        obs[lay[L_TOP] + st[PILE0 + st[H_PILE] - 1]] = 1.0
    for j in range(n):
        s = (seat + j) % n
        obs[lay[L_SIZES] + j] = st[SIZE0 + s]
        obs[lay[L_OPENED] + j] = 1.0 if st[STATUS0 + s] == ACTIVE else 0.0
        obs[lay[L_DRAWS] + j] = st[DRAWS0 + s]
        obs[lay[L_STAND] + j] = st[TOT0 + s]
    obs[lay[L_STOCK]] = st[H_STOCK]
    over = st[H_END] != END_NONE
    if not over:
        obs[lay[L_MOVE] + (st[H_CUR] - seat) % n] = 1.0
        obs[lay[L_PHASE] + st[H_PHASE]] = 1.0
    obs[lay[L_WILD] + st[H_WILD]] = 1.0
    if st[H_TAKEN] >= 0:
        obs[lay[L_TAKEN] + st[H_TAKEN]] = 1.0
    if over or seat != st[H_CUR]:
        return
    if st[H_PHASE] == START:
        mask[A_DRAW] = 1
        mask[A_DROP] = 1
        if may_take(st):
            mask[A_TAKE] = 1
        return
    nosame = st[R_NOSAME]
    taken = st[H_TAKEN]
    for k in range(K):
        have = st[hand + k]
        if have > 0 and not (nosame and k == taken and have < 2):
            mask[A_DISCARD0 + k] = 1


# -- the quick declaration test ---------------------------------------------------------------
@numba.njit(cache=True)
def _pure_three(nat: I64) -> bool:  # pragma: no cover - compiled
    """Three cards of one suit on consecutive ranks (ace low or high) among ``nat`` (the
    counts of the natural cards, wild-rank cards included, acting as themselves)."""
    for s in range(4):
        b = s * 13
        run = 0
        for p in range(1, 15):
            r = 0 if p == 14 else p - 1
            if nat[b + r] > 0:
                run += 1
                if run >= 3:
                    return True
            else:
                run = 0
    return False


@numba.njit(cache=True)
def _pure_bound(nat: I64, jokers: int, tunnela: bool) -> int:  # pragma: no cover - compiled
    """At least as many as the disjoint pure sequences and tunnelas ``nat`` can make: per
    suit the most disjoint three-card windows of consecutive ranks (an ace on both ends,
    counted twice), plus every kind held three times, plus three printed jokers."""
    total = 0
    best = np.empty((4, 4), np.int64)
    nxt = np.empty((4, 4), np.int64)
    cap = np.empty(15, np.int64)
    for s in range(4):
        for p in range(1, 15):
            c = nat[s * 13 + (0 if p == 14 else p - 1)]
            cap[p] = c if c < 3 else 3
        # best[a, b]: most windows with x[start-2] = a, x[start-1] = b (windows start 1..12)
        best[:, :] = -1
        best[0, 0] = 0
        for start in range(1, 13):
            nxt[:, :] = -1
            for a in range(4):
                for b in range(4):
                    if best[a, b] < 0:
                        continue
                    for x in range(4):
                        if a + b + x > cap[start]:
                            break
                        v = best[a, b] + x
                        if v > nxt[b, x]:
                            nxt[b, x] = v
            best[:, :] = nxt
        most = 0
        for a in range(4):
            for b in range(4):
                if best[a, b] >= 0 and a + b <= cap[13] and b <= cap[14] and best[a, b] > most:
                    most = best[a, b]
        total += most
    if tunnela:
        for k in range(52):
            if nat[k] >= 3:
                total += 1
        if jokers >= 3:
            total += 1
    return total


@numba.njit(cache=True)
def _near(cnt: I64, s: int, r: int) -> bool:  # pragma: no cover - compiled
    """Is a card of suit ``s`` within two ranks of rank ``r`` (ace low or high)?"""
    b = s * 13
    for q in (r - 2, r - 1, r + 1, r + 2):
        if 1 <= q <= 13 and cnt[b + q - 1] > 0:
            return True
    if r == 1:
        return bool(cnt[b + 11] > 0 or cnt[b + 12] > 0)
    if r >= 12:
        return bool(cnt[b] > 0)
    return False


@numba.njit(cache=True)
def _partnerless(cnt: I64, tunnela: bool) -> int:  # pragma: no cover - compiled
    """How many of ``cnt``'s cards have no partner (no card of their rank in another suit,
    none of their suit within two ranks, ace low or high; where tunnelas are groups, three
    identical cards are partners): each is the finish card or needs a wild of its own. A
    kind held twice or more counts twice (``_declare._partnerless``)."""
    alone = 0
    for f in range(52):
        c = cnt[f]
        if c == 0 or (tunnela and c >= 3):
            continue
        s, r = f // 13, f % 13 + 1
        other = False
        for t in range(4):
            if t != s and cnt[t * 13 + r - 1] > 0:
                other = True
                break
        if not other and not _near(cnt, s, r):
            alone += 1 if c == 1 else 2
    return alone


@numba.njit(
    "boolean(int64[:], int64, boolean, boolean, int64, int64, int64, int64, int64, int64[:])",
    cache=True,
)
def _cover(
    cnt: I64,
    units: int,
    finish: bool,
    made: bool,
    mode: int,
    base: int,
    pos: int,
    length: int,
    gaps: int,
    flags: I64,
) -> bool:  # pragma: no cover - compiled
    """The relaxed cover search of :mod:`openrummy.envs._declare` on the counts ``cnt``
    (restored on return). ``mode`` 0: cover the cards left; 1: extend a run upwards from
    position ``pos`` (``length`` positions so far, ``gaps`` of them wilds); 2: a run down
    from the ace on top. ``flags``: [nodes left, 21-card, tunnelas are groups, 0].

    Its recursive calls pass no literal constants (``z``, ``yes``, ``no`` are read from
    ``flags``): numba's cache cannot load a recursive function that calls a literal-typed
    copy of itself."""
    z = flags[3]
    one = z + 1
    two = z + 2
    yes = z == 0
    no = z != 0
    if mode == 1:
        if (
            length >= 3
            and gaps <= units
            and _cover(cnt, units - gaps, finish, yes, z, z, z, z, z, flags)
        ):
            return True
        if pos > 14:
            need = gaps + 3 - length
            return (
                length < 3
                and need <= units
                and _cover(cnt, units - need, finish, yes, z, z, z, z, z, flags)
            )
        idx = base + (0 if pos == 14 else pos - 1)
        if cnt[idx] > 0:
            cnt[idx] -= 1
            ok = _cover(cnt, units, finish, made, one, base, pos + 1, length + 1, gaps, flags)
            cnt[idx] += 1
            if ok:
                return True
        return gaps < units and _cover(
            cnt, units, finish, made, one, base, pos + 1, length + 1, gaps + 1, flags
        )
    if mode == 2:
        if (
            length >= 3
            and gaps <= units
            and _cover(cnt, units - gaps, finish, yes, z, z, z, z, z, flags)
        ):
            return True
        if pos < 2:
            return False
        idx = base + pos - 1
        if cnt[idx] > 0:
            cnt[idx] -= 1
            ok = _cover(cnt, units, finish, made, two, base, pos - 1, length + 1, gaps, flags)
            cnt[idx] += 1
            if ok:
                return True
        return gaps < units and _cover(
            cnt, units, finish, made, two, base, pos - 1, length + 1, gaps + 1, flags
        )
    flags[0] -= 1
    if flags[0] < 0:
        return True  # out of budget: perhaps
    f = -1
    for k in range(52):
        if cnt[k] > 0:
            f = k
            break
    if f < 0:
        left = units - 1 if finish else units
        return left >= 0 and (made or left == 0 or left >= 3)
    if _partnerless(cnt, flags[2] != 0) > units + (1 if finish else 0):
        return False
    cnt[f] -= 1
    found = False
    if finish:
        found = _cover(cnt, units, no, made, z, z, z, z, z, flags)
    if not found and flags[2] != 0 and cnt[f] >= 2:  # a tunnela: three identical cards
        cnt[f] -= 2
        found = _cover(cnt, units, finish, yes, z, z, z, z, z, flags)
        cnt[f] += 2
    if not found:  # a set with cards of its rank in later suits (one of each)
        others = np.empty(3, np.int64)
        m = 0
        for g in range(f + 13, 52, 13):
            if cnt[g] > 0:
                others[m] = g
                m += 1
        for pick in range(1 << m):
            size = 0
            for i in range(m):
                if pick >> i & 1:
                    size += 1
            need = 2 - size if size < 2 else 0
            if need > units:
                continue
            for i in range(m):
                if pick >> i & 1:
                    cnt[others[i]] -= 1
            found = _cover(cnt, units - need, finish, yes, z, z, z, z, z, flags)
            for i in range(m):
                if pick >> i & 1:
                    cnt[others[i]] += 1
            if found:
                break
    if not found:  # a run with f lowest; an ace also as the top
        base = f - f % 13
        rank = f % 13 + 1
        found = _cover(cnt, units, finish, made, one, base, rank + 1, one, z, flags)
        if not found and rank == 1:
            found = _cover(cnt, units, finish, made, two, base, z + 13, one, z, flags)
    cnt[f] += 1
    return found


@numba.njit(cache=True)
def could_group_counts(
    cards: I64, wild: I64, finish: bool, v21: bool, tunnela: bool, forms: int
) -> bool:  # pragma: no cover - compiled
    """False only when the cards of ``cards`` (53 counts) make no valid declaration
    (``finish``: they are a whole hand and any one of them may be the finish card).
    ``wild[k]``: is kind ``k`` wild; ``forms``: the 21-card forms (``F_*`` bits)."""
    nat = cards[:52]
    units = cards[JK]
    cnt = np.zeros(52, np.int64)
    for k in range(52):
        if wild[k]:
            units += cards[k]
        else:
            cnt[k] = cards[k]
    flags = np.zeros(4, np.int64)
    flags[0] = NODES
    flags[1] = 1 if v21 else 0
    flags[2] = 1 if tunnela else 0
    z = flags[3]
    if v21:
        if _count_forms(cards, wild, finish, forms):
            return True
        if not forms & F_PURE:
            return False
        if _pure_bound(nat, cards[JK], True) < 3:
            return False
        return _cover(cnt, units, finish, flags[3] != 0, z, z, z, z, z, flags)
    if not _pure_three(nat) and (not tunnela or _pure_bound(nat, cards[JK], True) == 0):
        return False
    return _cover(cnt, units, finish, flags[3] != 0, z, z, z, z, z, flags)


@numba.njit(cache=True)
def _count_forms(cards: I64, wild: I64, finish: bool, forms: int) -> bool:  # pragma: no cover
    """May the 21-card counting forms hold (with one card still to leave out if
    ``finish``)? Exactly the engine's counts (three tunnelas, eight dublees, eight wilds)."""
    trip, pair, wilds, odd3, odd2 = 0, 0, 0, False, False
    for k in range(K):
        c = cards[k]
        trip += c // 3
        pair += c // 2
        if c % 3:
            odd3 = True
        if c % 2:
            odd2 = True
        if wild[k] or k == JK:
            wilds += c
    total = 0
    for k in range(K):
        total += cards[k]
    if not finish:
        return (
            (forms & F_TUNNELA != 0 and trip >= 3)
            or (forms & F_DUBLEE != 0 and pair >= 8)
            or (forms & F_JOKERS != 0 and wilds >= 8)
        )
    # a finish card taken away removes a group only when its count is a multiple of the size
    return (
        (forms & F_TUNNELA != 0 and (trip > 3 or (trip == 3 and odd3)))
        or (forms & F_DUBLEE != 0 and (pair > 8 or (pair == 8 and odd2)))
        or (forms & F_JOKERS != 0 and (wilds > 8 or (wilds == 8 and total > wilds)))
    )


@numba.njit(cache=True)
def could_declare_state(st: I64, seat: int) -> int:  # pragma: no cover - compiled
    """1 when the seat's hand may hold a valid declaration (some finish card), else 0."""
    if not st[R_QUICK]:
        return 1
    hand = st[HANDS0 + seat * K : HANDS0 + seat * K + K]
    wild = st[WILD0 : WILD0 + K]
    ok = could_group_counts(hand, wild, True, st[R_V21] != 0, st[R_TUNNELA] != 0, st[R_FORMS])
    return 1 if ok else 0


_FORMS: Final = {
    V21Form.THREE_PURE: F_PURE,
    V21Form.THREE_TUNNELA: F_TUNNELA,
    V21Form.EIGHT_DUBLEE: F_DUBLEE,
    V21Form.EIGHT_JOKERS: F_JOKERS,
}


def quick_test_applies(rules: IndianRules) -> bool:
    """Does the quick declaration test hold for ``rules``? (It assumes runs with the ace
    low or high, never round the corner, and no dublee groups.)"""
    if rules.meld.ace_mode is AceMode.WRAPAROUND:
        return False
    if rules.is_v21:
        return not rules.v21.dublee_as_meld
    return rules.declare.requirement in (
        DeclareRequirement.TWO_SEQ_ONE_PURE,
        DeclareRequirement.TWO_SEQ_TWO_SETS,
    )


def forms_of(rules: IndianRules) -> int:
    """The 21-card declaration forms as ``_indian_F_*`` bits."""
    bits = 0
    for form in rules.v21.declare_forms:
        bits |= _FORMS[form]
    return bits


def wild_table(rules: IndianRules) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Per indicator kind: the wild rank (0: none) and whether each kind is wild."""
    kinds: dict[int, Card] = {c.index: c for c in IndianGame.full_deck(rules)}
    table = np.zeros((K, K + 1), np.int64)
    for k, indicator in kinds.items():
        wilds = rules.wilds(indicator)
        table[k, 0] = wilds.wild_rank or 0
        for j, card in kinds.items():
            table[k, 1 + j] = 1 if wilds.is_wild(card) else 0
    return table


def counts(cards: Sequence[Card]) -> I64:
    """The 53 kind counts of ``cards``."""
    out = np.zeros(K, np.int64)
    for card in cards:
        out[card.index] += 1
    return out


def warm() -> None:
    """Compile every kernel (or load it from numba's cache) on one small deal."""
    st = np.zeros(SIZE, np.int64)
    st[H_N] = 2
    st[R_HAND] = 13
    st[R_QUICK] = 1
    st[R_DROP1], st[R_DROP2], st[R_RESHUFFLE] = 20, 40, 1
    deck = np.array([*range(52), *range(52), JK, JK], np.int64)
    table = np.zeros((K, K + 1), np.int64)
    deal(st, seed_key("0/dealer"), seed_key("0/0"), deck, table)
    lay = np.arange(13, dtype=np.int64) * K
    obs = np.zeros(14 * K, np.float32)
    mask = np.zeros(110, np.int8)
    step(st, A_DRAW)
    fill(st, 0, lay, deck[:K], obs, mask)
    legal(st, A_DISCARD0)
    cards = np.zeros(K, np.int64)
    cards[:3] = 1
    could_group_counts(cards, np.zeros(K, np.int64), False, True, True, 15)
