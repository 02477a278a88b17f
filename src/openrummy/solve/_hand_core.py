"""The exact search behind :mod:`openrummy.solve.hand` (private).

The problem: split a hand into melds so that the value of the cards left over is least,
under a *goal* (how many sequences, pure sequences, sets the melds must include; or, for a
declaration, that every card is in a group). Three facts make it small and exact:

* **Wild items are fungible units.** A printed joker and a wild-rank card used as a wild
  can do exactly the same things, so the search only counts them (``W``). A wild-capable
  card acting *as itself* only matters in a pure sequence (or a tunnela); those few melds
  are chosen first, by full enumeration (:meth:`HandSearch._x_subsets`).
* **Canonical branching.** The remaining plain cards are a count vector packed in one int
  (3 bits per card, 52 fields). The search always takes the lowest remaining card ``c``:
  ``c`` is either deadwood or in exactly one meld whose other cards come later, so every
  partition is met exactly once.
* **Memoisation** on (remaining cards, wild units left, goal counters), as RULES.md §10.2
  suggests: the value of a sub-position does not depend on how it was reached.

Candidate melds are generated once per hand from the cards present: a run is a set of
distinct ranks of one suit plus the wilds that fill its gaps (or extend it to 3 cards), a
set is a set of distinct suits of one rank plus wilds up to 3. With ``absorb`` (declaration
search, or a printed joker that costs points) each meld may also take extra wilds up to its
capacity, so every wild can be placed.

A hand after the draw asks the same question of every one-card-smaller hand ("what is my
best throw worth?"). :meth:`HandSearch.least_after_throw` answers it in one search whose
states also say whether the throw is still owed, instead of one search per card.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from openrummy.cards import JOKER, Card, Suit
from openrummy.melds import AceMode, Meld, MeldItem
from openrummy.rules.indian import AllWildGroup, IndianRules, Wilds

INF: Final = 1 << 40

# Meld classes, for the goal counters.
C_SET, C_RUN3, C_RUN4, C_PURE3, C_PURE4, C_TUNNELA, C_DUBLEE = range(7)
_NCLASS: Final = 7

_GUARD: Final = sum(4 << (3 * i) for i in range(52))


def field_of(card: Card) -> int:
    assert card.suit is not None
    return int(card.suit) * 13 + card.rank - 1


def card_of_field(f: int) -> Card:
    return Card(f % 13 + 1, Suit(f // 13))


def _rank_at(pos: int) -> int:
    """Rank at a position of the extended line 1..14 (14 is the ace played high)."""
    return 1 if pos == 14 else pos


@dataclass(frozen=True, slots=True)
class Goal:
    """What the melds must include; ``declare``: every card must be in a group."""

    runs: int = 0
    pure: int = 0
    sets: int = 0
    len4: int = 0
    declare: bool = False

    def encode(self, runs: int, pure: int, sets: int, len4: int) -> int:
        return (
            min(runs, self.runs)
            + 3 * min(pure, self.pure)
            + 12 * min(sets, self.sets)
            + 36 * min(len4, self.len4)
        )

    @staticmethod
    def decode(fl: int) -> tuple[int, int, int, int]:
        return fl % 3, (fl // 3) % 4, (fl // 12) % 3, fl // 36

    def includes(self, other: Goal) -> bool:
        """Does every arrangement that meets this goal meet ``other``?"""
        return (
            self.runs >= other.runs
            and self.pure >= other.pure
            and self.sets >= other.sets
            and self.len4 >= other.len4
        )

    def satisfied(self, fl: int) -> bool:
        runs, pure, sets, len4 = self.decode(fl)
        return runs >= self.runs and pure >= self.pure and sets >= self.sets and len4 >= self.len4

    def add(self, fl: int, cls: int, count: int = 1) -> int:
        runs, pure, sets, len4 = self.decode(fl)
        if cls == C_SET:
            sets += count
        elif cls in (C_RUN3, C_RUN4):
            runs += count
            len4 += cls == C_RUN4
        elif cls in (C_PURE3, C_PURE4, C_TUNNELA):
            runs += count
            pure += count
            len4 += cls == C_PURE4
        return self.encode(runs, pure, sets, len4)


class Cand(NamedTuple):
    """A meld of plain naturals (``mask``) plus ``need`` wild units (a tuple: built often)."""

    mask: int
    need: int
    cls: int
    kind: str  # RUN, SET, TUNNELA, DUBLEE
    suit: int
    positions: tuple[int, ...]  # RUN: positions on the line 1..14; SET: suits; else (rank,)
    length: int
    value: int


@dataclass(frozen=True, slots=True)
class XMeld:
    """A pure meld in which wild-capable cards act as themselves (or a joker tunnela)."""

    mask: int
    xcards: tuple[Card, ...]
    jokers: int
    cls: int
    meld: Meld


CandRow = tuple[int, int, int, Cand]
"""A candidate as the search reads it: (mask, need, class, candidate)."""


@dataclass(slots=True)
class Solution:
    cost: int
    groups: list[Meld] = field(default_factory=list)
    classes: list[int] = field(default_factory=list)
    leftover: list[Card] = field(default_factory=list)


class HandSearch:
    """One hand under one rule set, ready to answer goals (memo kept per goal)."""

    def __init__(self, cards: Sequence[Card], rules: IndianRules, wilds: Wilds) -> None:
        self.rules = rules
        self.wilds = wilds
        self.cards = list(cards)
        m = rules.meld
        self.set_max = m.set_max
        self.min_naturals = m.min_naturals
        self.all_wild = m.all_wild_group
        self.ace_high = m.ace_mode is AceMode.HIGH_OR_LOW
        self.both_ends = m.ace_both_ends
        self.counts_pure = rules.wild.natural_use_counts_pure
        self.tunnela = rules.tunnela_is_meld
        self.dublee = rules.is_v21 and rules.v21.dublee_as_meld
        self.jp = rules.scoring.joker_penalty
        self.values = [0] * 52
        self.plain = 0
        self.plain_counts: Counter[int] = Counter()
        self.xcards: list[Card] = []
        self.jokers = 0
        wild_rank, extra = wilds.wild_rank, wilds.extra
        ace = rules.scoring.ace_penalty
        for c in self.cards:
            if c.suit is None:
                self.jokers += 1
            elif c.rank == wild_rank or (extra and c in extra):
                self.xcards.append(c)
            else:
                f = int(c.suit) * 13 + c.rank - 1
                self.plain += 1 << (3 * f)
                self.plain_counts[f] += 1
                self.values[f] = ace if c.rank == 1 else min(c.rank, 10)
        self.units = self.jokers + len(self.xcards)
        self._rows: dict[tuple[bool, bool], list[list[CandRow]]] = {}
        self._parent: HandSearch | None = None
        self._removed = -1  # the field of the plain card the parent has more of (-1: a wild)

    def without(self, card: Card, rest: Sequence[Card]) -> HandSearch:
        """The search for ``rest``, this hand without one ``card``: its candidate melds are
        this hand's that the smaller hand still holds, filtered instead of built again.

        Exact: removing a card never creates a candidate (every pruning of :meth:`_build`
        only gets stricter with fewer cards or wild units), and a candidate depends only on
        the positions it uses, so the smaller hand's are those of this hand whose cards it
        still has and whose wild units it can still pay."""
        sub = HandSearch(rest, self.rules, self.wilds)
        sub._parent = self
        if sub.units == self.units:
            assert card.suit is not None
            sub._removed = int(card.suit) * 13 + card.rank - 1
        return sub

    # -- candidates -------------------------------------------------------------------
    def candidates(self, *, absorb: bool, sets_count: bool) -> list[list[Cand]]:
        """Candidate melds of plain cards, listed under their lowest field."""
        return [[row[3] for row in lst] for lst in self.candidate_rows(absorb, sets_count)]

    def candidate_rows(self, absorb: bool, sets_count: bool) -> list[list[CandRow]]:
        """The candidates as (mask, need, class, candidate) rows (what the search reads),
        built once per hand and kind of goal."""
        key = (absorb, sets_count)
        rows = self._rows.get(key)
        if rows is None:
            parent = self._parent
            if parent is None:
                built = self._build(absorb, sets_count)
                rows = [[(c.mask, c.need, c.cls, c) for c in lst] for lst in built]
            else:
                rows = self._narrowed(parent.candidate_rows(absorb, sets_count))
            self._rows[key] = rows
        return rows

    def _narrowed(self, rows: list[list[CandRow]]) -> list[list[CandRow]]:
        """The parent's candidates that this hand (one card fewer) can still make."""
        f = self._removed
        if f < 0:
            units = self.units
            return [[r for r in lst if r[1] <= units] for lst in rows]
        shift, have = 3 * f, self.plain_counts[f]
        return [[r for r in lst if (r[0] >> shift) & 7 <= have] for lst in rows]

    def _build(self, absorb: bool, sets_count: bool) -> list[list[Cand]]:
        wmax = self.units
        by_field: list[list[Cand]] = [[] for _ in range(52)]
        best_run: dict[int, Cand] = {}
        present = self.plain_counts
        maxpos = 14 if self.ace_high else 13
        by_suit: list[list[int]] = [[], [], [], []]
        by_rank: dict[int, list[int]] = {}
        for f in sorted(present):
            by_suit[f // 13].append(f % 13 + 1)
            by_rank.setdefault(f % 13 + 1, []).append(f // 13)
        for s in range(4):
            line = by_suit[s]
            if not line:
                continue
            if maxpos == 14 and line[0] == 1:
                line = [*line, 14]
            base_field = s * 13 - 1
            for i, lo in enumerate(line):
                for j in range(i, len(line)):
                    hi = line[j]
                    span = hi - lo + 1
                    # Gaps only grow with hi: once they need more wilds than the hand has, stop.
                    if span - (j - i + 1) > wmax:
                        break
                    if span > 13 and not (
                        self.both_ends and lo == 1 and hi == 14 and present[s * 13] >= 2
                    ):
                        break
                    inner = line[i + 1 : j]
                    base = max(3, span)
                    fixed = 1 if lo == hi else 2
                    for k in range(len(inner) + 1):
                        chosen_n = fixed + len(inner) - k
                        need = base - chosen_n
                        if need > wmax:
                            break
                        if need > 0 and chosen_n < self.min_naturals:
                            break
                        for omit in itertools.combinations(inner, k):
                            if k:
                                pos = (lo, *(p for p in inner if p not in omit), hi)
                            else:
                                pos = (lo, *inner, hi) if lo != hi else (lo,)
                            mask = 0
                            value = 0
                            for p in pos:
                                f = base_field + (1 if p == 14 else p)
                                mask += 1 << (3 * f)
                                value += self.values[f]
                            prev = best_run.get(mask)
                            if prev is not None and prev.need <= need:
                                continue
                            cls = _run_class(need == 0, base)
                            best_run[mask] = Cand(mask, need, cls, "RUN", s, pos, base, value)
        cands: list[Cand] = list(best_run.values())
        for r, suits in by_rank.items():
            if len(suits) + wmax < 3:
                continue
            for n in range(1, min(len(suits), self.set_max) + 1):
                need = max(0, 3 - n)
                if need > wmax or (need > 0 and n < self.min_naturals):
                    continue
                if n == 1 and not sets_count:
                    continue  # a single card with two wilds is better shown as a sequence
                for combo in itertools.combinations(suits, n):
                    mask = sum(1 << (3 * (s * 13 + r - 1)) for s in combo)
                    value = sum(self.values[s * 13 + r - 1] for s in combo)
                    cands.append(Cand(mask, need, C_SET, "SET", -1, combo, max(3, n), value))
        for f, n in present.items():
            if self.tunnela and n >= 3:
                cands.append(
                    Cand(
                        3 << (3 * f), 0, C_TUNNELA, "TUNNELA", f // 13, (f,), 3, 3 * self.values[f]
                    )
                )
            if self.dublee and n >= 2:
                cands.append(
                    Cand(2 << (3 * f), 0, C_DUBLEE, "DUBLEE", f // 13, (f,), 2, 2 * self.values[f])
                )
        if absorb:
            cands += [x for c in cands for x in self._extended(c, wmax)]
        for c in cands:
            low = c.mask & -c.mask
            by_field[(low.bit_length() - 1) // 3].append(c)
        for lst in by_field:
            if len(lst) > 1:
                lst.sort(key=_cand_order)
        return by_field

    def _extended(self, c: Cand, wmax: int) -> Iterator[Cand]:
        """The same meld with extra wild units, up to its capacity."""
        if c.kind == "RUN":
            cap = 13 - c.length
            for extra in range(1, min(cap, wmax - c.need) + 1):
                n = c.length + extra
                yield Cand(
                    c.mask,
                    c.need + extra,
                    _run_class(False, n),
                    "RUN",
                    c.suit,
                    c.positions,
                    n,
                    c.value,
                )
        elif c.kind == "SET":
            cap = self.set_max - c.length
            for extra in range(1, min(cap, wmax - c.need) + 1):
                yield Cand(
                    c.mask, c.need + extra, C_SET, "SET", -1, c.positions, c.length + extra, c.value
                )

    def x_melds(self, *, absorb: bool) -> list[XMeld]:
        """Pure melds using wild-capable cards as themselves; joker tunnelas; wild dublees."""
        out: list[XMeld] = []
        if not self.xcards and self.jokers < 2:
            return out
        xcount = Counter(self.xcards)
        if self.counts_pure and xcount:
            maxpos = 14 if self.ace_high else 13
            for s in {c.suit for c in xcount}:
                assert s is not None
                here = {f % 13 + 1 for f in self.plain_counts if f // 13 == s}
                xr = {c.rank for c in xcount if c.suit is s}
                here |= xr
                # A pure run through a wild card needs a neighbour of it in the same suit.
                if not any((r % 13) + 1 in here or ((r - 2) % 13) + 1 in here for r in xr):
                    continue
                for lo in range(1, maxpos + 1):
                    for hi in range(lo + 2, min(maxpos, lo + 12) + 1):
                        pos = range(lo, hi + 1)
                        if any(_rank_at(p) not in here for p in pos):
                            break
                        if not any(_rank_at(p) in xr for p in pos):
                            continue
                        mask, xs = 0, []
                        for p in pos:
                            c = Card(_rank_at(p), s)
                            if c in xcount:
                                xs.append(c)
                            else:
                                mask += 1 << (3 * field_of(c))
                        meld = Meld(tuple(MeldItem.natural(Card(_rank_at(p), s)) for p in pos))
                        out.append(XMeld(mask, tuple(xs), 0, _run_class(True, len(pos)), meld))
            if self.tunnela:
                for c, n in xcount.items():
                    if n >= 3:
                        meld = Meld((MeldItem.natural(c),) * 3)
                        out.append(XMeld(0, (c, c, c), 0, C_TUNNELA, meld))
        if self.tunnela and self.jokers >= 3:
            out.append(XMeld(0, (), 3, C_TUNNELA, Meld((MeldItem(JOKER, None),) * 3)))
        if self.dublee and absorb:
            for c, n in xcount.items():
                if n >= 2:
                    out.append(XMeld(0, (c, c), 0, C_DUBLEE, Meld((MeldItem.natural(c),) * 2)))
            if self.jokers >= 2:
                out.append(XMeld(0, (), 2, C_DUBLEE, Meld((MeldItem(JOKER, None),) * 2)))
        return out

    # -- search -----------------------------------------------------------------------
    def _prepare(self, goal: Goal) -> tuple[_Run, dict[int, int], Iterator[_Start]]:
        """The memoised search for ``goal``; the isolated plain cards (field: count), in no
        candidate meld and so deadwood (or thrown) whatever happens, which the search
        leaves out; and its starting positions, one per choice of x-melds, the empty
        choice first."""
        absorb = goal.declare or self.jp > 0
        run = _Run(self, goal, absorb)
        use_x = goal.pure > 0 or absorb
        xms = self.x_melds(absorb=absorb) if use_x else []
        cover = 0
        for lst in run.cand_tuples:
            for row in lst:
                cover |= row[0]
        for x in xms:
            cover |= x.mask
        isolated = {f: n for f, n in self.plain_counts.items() if not (cover >> (3 * f)) & 7}
        plain = self.plain - sum(n << (3 * f) for f, n in isolated.items())

        def starts() -> Iterator[_Start]:
            for chosen in _x_subsets(xms, plain, Counter(self.xcards), self.jokers):
                fl = goal.encode(0, 0, 0, 0)
                for x in chosen:
                    fl = goal.add(fl, x.cls)
                used_x = sum(len(x.xcards) for x in chosen)
                yield _Start(
                    chosen,
                    plain - sum(x.mask for x in chosen),
                    self.units - used_x - sum(x.jokers for x in chosen),
                    fl,
                    len(self.xcards) - used_x,
                )

        return run, isolated, starts()

    def least_after_throw(self, goal: Goal) -> int | None:
        """The least cost meeting ``goal`` of this hand less any one card (thrown free);
        ``None`` if no card's throw leaves a hand that meets it.

        The same as the least :meth:`solve` cost over every one-card-smaller hand, in one
        search: a state also says whether the throw is still owed. A plain card is thrown
        when it is the lowest card left (instead of being deadwood or in a meld); a wild
        unit is thrown at the end (units are fungible, so which meld would have used it
        does not matter). The hands one card smaller hold a subset of this hand's candidate
        melds (see :meth:`without`), so nothing is missed, and every arrangement found is
        one of a smaller hand. Only for ``scoring.joker_penalty`` 0: a thrown unit never
        changes the cost then.
        """
        assert self.jp == 0, "least_after_throw: printed jokers must cost no points"
        run, isolated, starts = self._prepare(goal)
        iso_n = sum(isolated.values())
        iso_cost = sum(n * self.values[f] for f, n in isolated.items())
        iso_top = max((self.values[f] for f in isolated), default=0)
        best = INF
        for st in starts:
            if not iso_n:
                cost = run.f_throw(st.r, st.w, st.fl, st.nx)
            elif goal.declare:
                # Every card but the thrown one must be grouped: at most one isolated card.
                cost = run.f(st.r, st.w, st.fl, st.nx) if iso_n == 1 else INF
            else:
                # The throw is an isolated card (the dearest one) or one of the rest.
                cost = min(
                    iso_cost + run.f_throw(st.r, st.w, st.fl, st.nx),
                    iso_cost - iso_top + run.f(st.r, st.w, st.fl, st.nx),
                )
            best = min(best, cost)
            if best == 0:
                break
        return None if best >= INF else best

    def solve(self, goal: Goal) -> Solution | None:
        """The least-cost arrangement meeting ``goal``; ``None`` if no arrangement does.

        Cost = value of plain cards left over + ``scoring.joker_penalty`` per printed joker
        left over (0 in every preset). For a declaration goal the cost is 0 or no solution.
        """
        run, isolated, starts = self._prepare(goal)
        if isolated and goal.declare:
            return None
        best: tuple[int, _Start] | None = None
        for st in starts:
            cost = run.f(st.r, st.w, st.fl, st.nx)
            if cost < INF and (best is None or cost < best[0]):
                best = (cost, st)
                if cost == 0:
                    break
        if best is None:
            return None
        cost, st = best
        sol = Solution(cost + sum(n * self.values[f] for f, n in isolated.items()))
        for f, n in isolated.items():
            sol.leftover += [card_of_field(f)] * n
        for x in st.chosen:
            sol.groups.append(x.meld)
            sol.classes.append(x.cls)
        used_x_cards = Counter(c for x in st.chosen for c in x.xcards)
        units = [JOKER] * (self.jokers - sum(x.jokers for x in st.chosen))
        units += sorted((Counter(self.xcards) - used_x_cards).elements(), key=Card.sort_key)
        run.walk(st.r, len(units), st.fl, st.nx, sol, units)
        return sol


class _Start(NamedTuple):
    """Where the search of plain cards starts, once some x-melds are chosen."""

    chosen: tuple[XMeld, ...]
    r: int
    w: int
    fl: int
    nx: int


def _cand_order(c: Cand) -> tuple[int, int]:
    """Most value first: a zero-deadwood answer is met early and ends the search."""
    return (-c.value, c.need)


@functools.cache
def _tables(goal: Goal) -> tuple[list[list[int]], list[bool]]:
    """Goal-counter transitions per meld class, and which counters meet the goal."""
    trans = [[goal.add(fl, cls) for fl in range(72)] for cls in range(_NCLASS)]
    return trans, [goal.satisfied(fl) for fl in range(72)]


def _run_class(pure: bool, length: int) -> int:
    if pure:
        return C_PURE4 if length >= 4 else C_PURE3
    return C_RUN4 if length >= 4 else C_RUN3


def _x_subsets(
    xms: list[XMeld], plain: int, xcount: Counter[Card], jokers: int
) -> Iterator[tuple[XMeld, ...]]:
    """Every resource-feasible multiset of ``xms`` (the empty one first)."""

    def rec(i: int, plain: int, xc: Counter[Card], j: int) -> Iterator[tuple[XMeld, ...]]:
        if i == len(xms):
            yield ()
            return
        yield from rec(i + 1, plain, xc, j)
        x = xms[i]
        if x.jokers > j or ((plain | _GUARD) - x.mask) & _GUARD != _GUARD:
            return
        need = Counter(x.xcards)
        if any(xc[c] < n for c, n in need.items()):
            return
        # The same meld may be taken again from further copies (two [3D 4D 5D] with 4 wild).
        for rest in rec(i, plain - x.mask, xc - need, j - x.jokers):
            yield (x, *rest)

    yield from rec(0, plain, xcount, jokers)


class _Run:
    """The memoised search for one goal."""

    def __init__(self, hs: HandSearch, goal: Goal, absorb: bool) -> None:
        self.hs = hs
        self.goal = goal
        self.absorb = absorb
        self.declare = goal.declare
        self.cand_tuples = hs.candidate_rows(absorb, goal.sets > 0)
        self.values = hs.values
        self.memo: dict[tuple[int, int, int, int], int] = {}
        self.tmemo: dict[tuple[int, int, int], tuple[int, int, int, int]] = {}
        self.memo_throw: dict[tuple[int, int, int, int], int] = {}
        self.trans, self.sat = _tables(goal)

    def f(self, r: int, w: int, fl: int, nx: int) -> int:
        if r == 0:
            return self.terminal(w, fl, nx)[0]
        key = (r, w, fl, nx)
        got = self.memo.get(key)
        if got is not None:
            return got
        low = r & -r
        fld = (low.bit_length() - 1) // 3
        best = INF
        if not self.declare:
            best = self.values[fld] + self.f(r - (1 << (3 * fld)), w, fl, nx)
        trans = self.trans
        for mask, need, cls, _ in self.cand_tuples[fld]:
            if best == 0:
                break
            if need <= w and ((r | _GUARD) - mask) & _GUARD == _GUARD:
                v = self.f(r - mask, w - need, trans[cls][fl], nx)
                if v < best:
                    best = v
        self.memo[key] = best
        return best

    def f_throw(self, r: int, w: int, fl: int, nx: int) -> int:
        """As :meth:`f`, with one card still to be thrown free (see
        :meth:`HandSearch.least_after_throw`)."""
        if r == 0:
            # Every plain card is placed: the throw is a wild unit, if one is left.
            return self.terminal(w - 1, fl, nx - 1 if nx >= w else nx)[0] if w else INF
        key = (r, w, fl, nx)
        got = self.memo_throw.get(key)
        if got is not None:
            return got
        low = r & -r
        fld = (low.bit_length() - 1) // 3
        unit = 1 << (3 * fld)
        best = self.f(r - unit, w, fl, nx)  # throw this card
        if not self.declare and best:
            best = min(best, self.values[fld] + self.f_throw(r - unit, w, fl, nx))
        trans = self.trans
        for mask, need, cls, _ in self.cand_tuples[fld]:
            if best == 0:
                break
            if need <= w and ((r | _GUARD) - mask) & _GUARD == _GUARD:
                v = self.f_throw(r - mask, w - need, trans[cls][fl], nx)
                if v < best:
                    best = v
        self.memo_throw[key] = best
        return best

    def terminal(self, w: int, fl: int, nx: int) -> tuple[int, int, int, int]:
        """(cost, all-wild runs, all-wild sets, units in them) once all plain cards are placed."""
        if not self.absorb and self.sat[fl]:
            return (0, 0, 0, 0)
        key = (w, fl, nx)
        got = self.tmemo.get(key)
        if got is not None:
            return got
        hs, goal = self.hs, self.goal
        best = (INF, 0, 0, 0)
        runs_ok, sets_ok = _wild_only_kinds(hs)
        set_cap = INF if hs.all_wild is AllWildGroup.JOKER_GROUP else hs.set_max
        # A group of wild units that holds a wild-rank card may show that card as itself:
        # then it is an ordinary (impure) sequence or set, whatever the all-wild rule says.
        # The candidates took printed jokers first, so the units left hold min(nx, w) such
        # cards; each group the all-wild rule would refuse needs one of them.
        nxe = min(nx, w)
        for a in range(w // 3 + 1 if runs_ok else min(w // 3, nxe) + 1):
            a_x = 0 if runs_ok else a
            for b in range(
                (w - 3 * a) // 3 + 1 if sets_ok else min((w - 3 * a) // 3, nxe - a_x) + 1
            ):
                k = a_x + (0 if sets_ok else b)
                lo = 3 * (a + b)
                hi = min(w, 13 * a + set_cap * b)
                if lo > hi:
                    continue
                if self.declare:
                    if hi < w:
                        continue
                    u = w
                else:
                    u = hi
                nfl = goal.add(fl, C_SET, b) if b else fl
                if a:
                    long_run = u - 3 * b >= 3 * a + 1
                    nfl = goal.add(nfl, C_RUN4 if long_run else C_RUN3, a)
                if not self.sat[nfl]:
                    continue
                cost = 0 if self.declare else hs.jp * max(0, (w - u) - (nxe - k))
                if cost < best[0]:
                    best = (cost, a, b, u)
        self.tmemo[key] = best
        return best

    # -- reconstruction ---------------------------------------------------------------
    def walk(self, r: int, w: int, fl: int, nx: int, sol: Solution, units: list[Card]) -> None:
        """Follow the memo from a solved position and write the groups into ``sol``."""
        hs = self.hs
        while r:
            target = self.f(r, w, fl, nx)
            low = r & -r
            fld = (low.bit_length() - 1) // 3
            unit = 1 << (3 * fld)
            if not self.declare and self.values[fld] + self.f(r - unit, w, fl, nx) == target:
                sol.leftover.append(card_of_field(fld))
                r -= unit
                continue
            for mask, need, cls, cand in self.cand_tuples[fld]:
                if need <= w and ((r | _GUARD) - mask) & _GUARD == _GUARD:
                    nfl = self.trans[cls][fl]
                    if self.f(r - mask, w - need, nfl, nx) == target:
                        sol.groups.append(_build_meld(cand, units[:need], hs))
                        sol.classes.append(cls)
                        del units[:need]
                        r, w, fl = r - mask, w - need, nfl
                        break
            else:  # pragma: no cover - the memo always holds a matching branch
                raise AssertionError("hand search: no branch matches the memo")
        _cost, a, b, u = self.terminal(w, fl, nx)
        if a or b:
            runs_ok, sets_ok = _wild_only_kinds(hs)
            need_x = (0 if runs_ok else a) + (0 if sets_ok else b)
            xs = [c for c in units if c.suit is not None]
            pool = [c for c in units if c.suit is None] + xs[need_x:]
            wild_groups = _split_wild(xs[:need_x], pool[: u - need_x], a, b, hs)
            units = pool[u - need_x :]
            for cls, g in wild_groups:
                sol.groups.append(g)
                sol.classes.append(cls)
        sol.leftover.extend(units)


def _build_meld(c: Cand, units: list[Card], hs: HandSearch) -> Meld:
    """A concrete meld (with wild identities) for a candidate and its wild units."""
    if c.kind == "RUN":
        suit = Suit(c.suit)
        pos = set(c.positions)
        lo, hi = min(pos), max(pos)
        if hi - lo + 1 >= c.length:
            window = range(lo, hi + 1)
        else:
            top = 14 if hs.ace_high and lo > 1 else 13
            start = lo
            while start + c.length - 1 > top:
                start -= 1
            window = range(start, start + c.length)
        items: list[MeldItem] = []
        it = iter(units)
        for p in window:
            card = Card(_rank_at(p), suit)
            items.append(MeldItem.natural(card) if p in pos else MeldItem(next(it), card))
        return Meld(tuple(items))
    if c.kind == "SET":
        fields = [f for f in range(52) if (c.mask >> (3 * f)) & 7]
        rank = fields[0] % 13 + 1
        suits = [Suit(f // 13) for f in fields]
        missing = [s for s in Suit if s not in suits]
        items = [MeldItem.natural(Card(rank, s)) for s in suits]
        for i, u in enumerate(units):
            items.append(MeldItem(u, Card(rank, missing[i % len(missing)] if missing else Suit.S)))
        return Meld(tuple(items))
    f = c.positions[0]
    card = card_of_field(f)
    n = 3 if c.kind == "TUNNELA" else 2
    return Meld((MeldItem.natural(card),) * n)


def _wild_only_kinds(hs: HandSearch) -> tuple[bool, bool]:
    """Whether a group of wild items alone may be a sequence, and whether it may be a set."""
    return hs.all_wild is AllWildGroup.SET_OR_SEQUENCE, hs.all_wild is not AllWildGroup.FORBIDDEN


def _split_wild(
    naturals: list[Card], units: list[Card], a: int, b: int, hs: HandSearch
) -> list[tuple[int, Meld]]:
    """Groups of wild items only: ``a`` sequences then ``b`` sets, sizes as even as allowed.

    Where the all-wild rule refuses a group of that kind, the group shows one wild-rank card
    of ``naturals`` as itself (one each, in order), which makes it an ordinary sequence or set.
    """
    runs_ok, sets_ok = _wild_only_kinds(hs)
    out: list[tuple[int, Meld]] = []
    xs = list(naturals)
    rest = list(units)
    groups = a + b
    for g in range(groups):
        left = groups - g
        is_run = g < a
        natural = xs.pop(0) if (not runs_ok if is_run else not sets_ok) else None
        # Every item still to place, this group's natural and the later groups' included.
        size = len(rest) + len(xs) + (natural is not None) - 3 * (left - 1)
        size = min(
            size,
            13 if is_run else (size if hs.all_wild is AllWildGroup.JOKER_GROUP else hs.set_max),
        )
        fill = size - (1 if natural is not None else 0)
        part, rest = rest[:fill], rest[fill:]
        if is_run:
            if natural is None:
                items = tuple(MeldItem(u, Card(i + 1, Suit.S)) for i, u in enumerate(part))
            else:
                suit = natural.suit
                assert suit is not None
                start = max(1, min(natural.rank, 14 - size))
                it = iter(part)
                items = tuple(
                    MeldItem.natural(natural)
                    if p == natural.rank
                    else MeldItem(next(it), Card(p, suit))
                    for p in range(start, start + size)
                )
            out.append((C_RUN4 if size >= 4 else C_RUN3, Meld(items)))
        else:
            if natural is None:
                items = tuple(MeldItem(u, Card(13, Suit(i % 4))) for i, u in enumerate(part))
            else:
                others = [s for s in Suit if s is not natural.suit]
                shown = [
                    MeldItem(u, Card(natural.rank, others[i % len(others)]))
                    for i, u in enumerate(part)
                ]
                items = (MeldItem.natural(natural), *shown)
            out.append((C_SET, Meld(items)))
    return out
