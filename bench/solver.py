"""Benchmark: the exact table solver against the ``rummikub-solver`` package (PyPI).

Seeded Rummikub positions (2 jokers) with about 20, 40, 60 and 80 table tiles and a
14-tile rack. *Typical* positions are those where the whole rack fits, *hard* ones those
where the optimum leaves tiles on the rack (then the solver must prove that nothing
better exists). Each position is solved twice by our solver and timed both ways:

* ``c+v``: count and value alone (``best_play(..., keep_melds=False)``);
* ``solve``: what ``rummy solve`` does (``best_play`` as called there, with the kept-melds
  tie-break; the same call its ``ms`` field times).

Every answer is checked in the same run against an independent optimum: the HiGHS
integer program of the test suite (``tests/helpers/ilp_reference.py``, which shares nothing
with the solver but the rule objects), solved in full for every position and timed too
(``HiGHS``), and both of our plays must pass the engine's commit checks (RULES.md §2.2).
A position counts as optimal for us only when both plays are legal and place the
reference's count and value; ``rummikub-solver`` is optimal when it places the
reference's count (it maximises tiles only). Any answer that is not optimal is printed
and makes the run exit with status 1. The reference is the slowest part of a run (a
fraction of a second to several seconds a position, more with the table's size).

Run: ``.venv/bin/python bench/solver.py`` (``make bench`` runs it too). ``--n`` sets the
positions per size and kind (default 40: the hard positions' times are bimodal, a cluster
near half a millisecond and one above, so with 15 per kind the 20-tile hard median moved
from 0.62 to 0.87 ms between identical runs; with 40 it is steady); ``--sizes`` the table
sizes. ``rummikub-solver`` is a benchmark-only tool, not a project dependency: it is
installed into the running environment on first use (pass ``--no-install`` to skip it).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openrummy import melds as melds_module
from openrummy.cards import JOKER, Card, Suit
from openrummy.games.commit import commit_violations
from openrummy.melds import AceMode, Meld, MeldItem
from openrummy.rules import find_preset
from openrummy.rules.common import DeckKind
from openrummy.rules.manipulation import ManipulationRules, OpeningType
from openrummy.solve import BestPlay, SolverSettings, best_play
from openrummy.solve import table as _table

_MEMOS: tuple[Any, ...] = (
    _table._checked_meld,
    _table._core_meld,
    _table._normal,
    _table._meld_order,
    _table._ways_to_open,
    melds_module._check,
    melds_module._normalized,
)


def fresh() -> None:
    """Forget what earlier solves remembered about melds (their checks and normal forms,
    the ways to open of a hand): each timed call meets its position the way ``rummy solve``
    meets a new one. Without it the second call on a position (the tie-break's, timed after
    count and value) found the first one's checks and was 0.3-0.9 ms cheaper at 150 cards."""
    for memo in _MEMOS:
        memo.cache_clear()


SIZES = (20, 40, 60, 80)
FORCE_RELAXATION = SolverSettings(compiled_lp_after=0, compiled_lp_on_no=True, lp_after=0)
"""Settings that ask the linear relaxation at once (the warm-ups load it with these)."""

VARIANTS: tuple[tuple[str, str, dict[str, object], tuple[int, ...], bool], ...] = (
    # (label, preset, options, table sizes, opened)
    ("wrap 2d 4j", "robbers_s003", {}, (20, 40, 60, 80), True),
    (
        "low 3d 6j",
        "robbers",
        {"deck.standard_decks": 3, "deck.printed_jokers": 6},
        (40, 80, 150),
        True,
    ),
    ("low 4d 6j", "robbers", {"deck.standard_decks": 4, "deck.printed_jokers": 6}, (80, 150), True),
    (
        "wrap 4d 6j",
        "robbers_s003",
        {"deck.standard_decks": 4, "deck.printed_jokers": 6},
        (80, 150),
        True,
    ),
    ("open 40+table", "robbers", {}, (40,), False),
    ("open 30 hand", "rummikub", {}, (40,), False),
    (
        "open run",
        "robbers",
        {"opening.type": "RUN_FROM_HAND", "meld.ace_mode": "HIGH_OR_LOW"},
        (40,),
        False,
    ),
)
"""The variant groups of ``--variants``: every ace mode, three and four decks with six
jokers, and players who have not opened under each opening rule (40 points with table
play the same turn, 30 points from the hand alone, a run from the hand)."""

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "helpers" / "ilp_reference.py"
"""The test suite's independent HiGHS model of the table problem."""

Reference = Callable[..., Any]


@dataclass
class Position:
    table: list[Meld]
    hand: list[Card]


@dataclass
class Row:
    ours: list[float] = field(default_factory=list)
    """Seconds per solve, count and value alone."""
    ours_solve: list[float] = field(default_factory=list)
    """Seconds per solve as ``rummy solve`` calls it (kept-melds tie-break included)."""
    reference: list[float] = field(default_factory=list)
    theirs: list[float] = field(default_factory=list)
    ours_optimal: int = 0
    theirs_optimal: int = 0
    theirs_failed: int = 0


@dataclass
class Solved:
    """One position with our two answers, waiting for the reference."""

    row: Row
    label: str
    position: Position
    fast: BestPlay
    full: BestPlay
    optimum: tuple[int, int] = (0, 0)


def _random_meld(rng: random.Random, pool: list[Card]) -> Meld | None:
    have: dict[Card, int] = {}
    for c in pool:
        have[c] = have.get(c, 0) + 1
    jokers = have.get(JOKER, 0)
    if rng.random() < 0.45:
        r = rng.randint(1, 13)
        idents = [Card(r, s, True) for s in rng.sample(list(Suit), rng.choice([3, 3, 4]))]
    else:
        s = rng.choice(list(Suit))
        ln = rng.choice([3, 3, 4, 4, 5, 6, 7])
        start = rng.randint(1, 14 - ln)
        idents = [Card(r, s, True) for r in range(start, start + ln)]
    items: list[MeldItem] = []
    for ident in idents:
        if have.get(ident, 0) > 0 and rng.random() > 0.08:
            have[ident] -= 1
            items.append(MeldItem.natural(ident))
        elif jokers > 0 and not any(it.card.is_joker for it in items):
            jokers -= 1
            items.append(MeldItem(JOKER, ident))
        else:
            return None
    m = Meld(tuple(items))
    for c in m.cards:
        pool.remove(c)
    return m


def make_position(seed: int, size: int, kind: str) -> Position:
    """A seeded position: a valid table of about ``size`` tiles and a 14-tile rack.

    ``kind = "typical"``: the rack holds whole melds plus a few loose tiles (most fit);
    ``"hard"``: 14 tiles at random (the optimum usually leaves some on the rack), with
    one or two hard-to-place tiles among them next to 60 or more table tiles.
    """
    rng = random.Random(seed * 7919 + size)
    pool = [Card(r, s, True) for _ in range(2) for s in Suit for r in range(1, 14)]
    pool += [JOKER, JOKER]
    rng.shuffle(pool)
    dead: list[Card] = []
    if kind == "hard" and size >= 60:
        # Next to 60 or more table tiles a random rack always fits (0 of 100 seeds left a
        # tile): the rack gets hard-to-place tiles whose run neighbours (same colour, one
        # rank either side) and same-number tiles stay in the bag, so each fits only with
        # both jokers. Two such tiles next to 60 table tiles, one next to 80 (the bag must
        # still leave enough tiles for the table).
        want = 2 if size <= 60 else 1
        while len(dead) < want:
            c = rng.choice(pool)
            if c.is_joker or any(c.suit == d.suit or c.rank == d.rank for d in dead):
                continue
            dead.append(c)
        bag = {
            Card(d.rank + k, d.suit, True) for d in dead for k in (-1, 1) if 1 <= d.rank + k <= 13
        } | {Card(d.rank, s, True) for d in dead for s in Suit if s != d.suit}
        for d in dead:
            pool.remove(d)
        pool = [c for c in pool if c not in bag]
    table: list[Meld] = []
    n = 0
    tries = 0
    while n < size and tries < 500 and len(pool) - 7 >= 14 - len(dead):
        tries += 1
        m = _random_meld(rng, pool)
        if m is not None:
            table.append(m)
            n += len(m)
    hand: list[Card] = list(dead)
    if kind == "typical":
        while len(hand) < 11 and tries < 1000:
            tries += 1
            m = _random_meld(rng, pool)
            if m is not None and len(hand) + len(m) <= 14:
                hand.extend(m.cards)
    rng.shuffle(pool)
    while len(hand) < 14:
        hand.append(pool.pop())
    return Position(table, hand)


def _variant_meld(rng: random.Random, rules: ManipulationRules, pool: list[Card]) -> Meld | None:
    """A random valid meld of these rules from ``pool`` (taken out of it), or None."""
    tiles = rules.deck.kind is DeckKind.TILES
    have: dict[Card, int] = {}
    for c in pool:
        have[c] = have.get(c, 0) + 1
    jokers = have.get(JOKER, 0)
    if rng.random() < 0.45:
        r = rng.randint(1, 13)
        idents = [Card(r, s, tiles) for s in rng.sample(list(Suit), rng.choice([3, 3, 4]))]
    else:
        s = rng.choice(list(Suit))
        ln = rng.choice([3, 3, 4, 4, 5, 6, 7])
        mode = rules.meld.ace_mode
        if mode is AceMode.WRAPAROUND:
            start = rng.randint(1, 13)
            ranks = [(start - 1 + k) % 13 + 1 for k in range(ln)]
        else:
            top = 14 if mode is AceMode.HIGH_OR_LOW else 13
            start = rng.randint(1, top - ln + 1)
            ranks = [1 if r == 14 else r for r in range(start, start + ln)]
        idents = [Card(r, s, tiles) for r in ranks]
    items: list[MeldItem] = []
    for ident in idents:
        if have.get(ident, 0) > 0 and rng.random() > 0.1:
            have[ident] -= 1
            items.append(MeldItem.natural(ident))
        elif jokers > 0 and sum(it.card.is_joker for it in items) < 2:
            jokers -= 1
            items.append(MeldItem(JOKER, ident))
        else:
            return None
    m = Meld(tuple(items))
    if not m.is_valid(rules.meld_rules):
        return None
    for c in m.cards:
        pool.remove(c)
    return m


def variant_position(seed: int, rules: ManipulationRules, size: int, hand: int) -> Position:
    """A seeded position of any rules: a valid table of about ``size`` cards, ``hand`` cards."""
    rng = random.Random(seed)
    tiles = rules.deck.kind is DeckKind.TILES
    pool = [
        Card(r, s, tiles)
        for _ in range(rules.deck.standard_decks)
        for s in Suit
        for r in range(1, 14)
    ]
    pool += [JOKER] * rules.deck.printed_jokers
    rng.shuffle(pool)
    table: list[Meld] = []
    n = tries = 0
    while n < size and tries < 800 and len(pool) > hand:
        tries += 1
        m = _variant_meld(rng, rules, pool)
        if m is not None:
            table.append(m)
            n += len(m)
    rng.shuffle(pool)
    return Position(table, pool[:hand])


def load_reference() -> Reference:
    """``optimum(rules, table, hand)`` of the test suite's reference model.

    Loaded from its file, so that neither the package nor the benchmark needs the tests
    to be importable as a package."""
    spec = importlib.util.spec_from_file_location("ilp_reference", REFERENCE)
    if not REFERENCE.is_file() or spec is None or spec.loader is None:
        raise SystemExit(f"the reference model is missing: {REFERENCE}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up while being made
    spec.loader.exec_module(mod)
    optimum: Reference = mod.optimum
    return optimum


def legality(
    rules: ManipulationRules, p: Position, play: BestPlay, opened: bool = True
) -> list[str]:
    """Why this play is not a legal turn (the engine's commit checks), or nothing."""
    cards = [c for m in play.table for c in m.cards]
    before = [c for m in p.table for c in m.cards] + list(play.placed)
    if sorted(cards, key=Card.sort_key) != sorted(before, key=Card.sort_key):
        return ["the table after the play is not the table before plus the cards placed"]
    if play.count == 0:
        return []
    return [
        str(v)
        for v in commit_violations(
            rules,
            table_before=list(play.before),
            hand=list(p.hand),
            table_after=list(play.table),
            opened=opened,
        )
    ]


def check(
    rules: ManipulationRules, s: Solved, optimum: tuple[int, int], opened: bool = True
) -> list[str]:
    """What is wrong with our two answers to ``s`` (empty: both optimal and legal)."""
    wrong: list[str] = []
    for what, play in (("count and value", s.fast), ("rummy solve", s.full)):
        got = (play.count, play.value)
        if got != optimum:
            wrong.append(f"{what}: placed (count, value) {got}, the optimum is {optimum}")
        wrong.extend(f"{what}: {v}" for v in legality(rules, s.position, play, opened))
    return wrong


def _load_theirs(install: bool) -> Any:
    try:
        return importlib.import_module("rummikub_solver")
    except ModuleNotFoundError:
        if not install:
            return None
    print("installing rummikub-solver (benchmark only, not a project dependency) ...", flush=True)
    rc = subprocess.call([sys.executable, "-m", "pip", "install", "--quiet", "rummikub-solver"])
    if rc != 0:
        print("could not install rummikub-solver: timing our solver alone", flush=True)
        return None
    importlib.invalidate_caches()
    return importlib.import_module("rummikub_solver")


class Theirs:
    """``rummikub-solver`` on the same position (tile-count mode, HiGHS backend).

    With ``initial``, a player who has not made the initial meld: the rack alone, in its
    initial mode (a meld worth ``threshold`` from the rack, beside an untouched table)."""

    def __init__(
        self,
        mod: Any,
        copies: int = 2,
        jokers: int = 2,
        *,
        initial: bool = False,
        threshold: int = 30,
    ) -> None:
        self.mod = mod
        self.initial = initial
        self.rs = mod.RuleSet(
            numbers=13,
            repeats=copies,
            colours=4,
            jokers=jokers,
            min_len=3,
            min_initial_value=threshold,
        )
        self.tiles = self.rs.tiles

    def tile(self, c: Card) -> Any:
        if c.is_joker:
            return self.tiles[-1]
        assert c.suit is not None
        return self.tiles[int(c.suit) * 13 + c.rank - 1]

    def solve(self, p: Position) -> int | None:
        gs = self.rs.new_game()
        gs.initial = self.initial
        if not self.initial:
            gs.add_table(*(self.tile(c) for m in p.table for c in m.cards))
        gs.add_rack(*(self.tile(c) for c in p.hand))
        mode = self.mod.SolverMode.INITIAL if self.initial else self.mod.SolverMode.TILE_COUNT
        sol = self.rs.solve(gs, mode=mode)
        return 0 if sol is None else len(sol.tiles)


def _ms(xs: Sequence[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000


def _line(size: int, group: str, rows: Sequence[Row], *, opt: bool) -> str:
    """One line of the table: times in ms (median, p99), ratios of medians, and with
    ``opt`` the share of optimal answers."""

    def cell(x: float, width: int, unit: str = "") -> str:
        return f"{'-':>{width}}" if x != x else f"{x:>{width - len(unit)}.2f}{unit}"

    ours = [t for r in rows for t in r.ours]
    full = [t for r in rows for t in r.ours_solve]
    ref = [t for r in rows for t in r.reference]
    theirs = [t for r in rows for t in r.theirs]
    n = len(ours)
    om, sm, hm, tm = _ms(ours, 0.5), _ms(full, 0.5), _ms(ref, 0.5), _ms(theirs, 0.5)
    out = (
        f"{size:>5} {group:>8} {n:>4} | {cell(om, 8)} {cell(_ms(ours, 0.99), 8)} | "
        f"{cell(sm, 9)} {cell(_ms(full, 0.99), 9)} | {cell(hm, 9)} {cell(hm / sm, 11, 'x')} | "
        f"{cell(tm, 10)} {cell(_ms(theirs, 0.99), 10)} {cell(tm / om, 10, 'x')} |"
    )
    if opt:
        mine = sum(r.ours_optimal for r in rows)
        theirs_opt = sum(r.theirs_optimal for r in rows)
        out += f" {100 * mine / n:>7.0f}% " + (
            f"{100 * theirs_opt / n:>9.0f}%" if theirs else f"{'-':>10}"
        )
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=40, help="positions per size and kind")
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="table sizes (tiles)")
    ap.add_argument("--no-install", action="store_true", help="do not pip install rummikub-solver")
    ap.add_argument(
        "--variants",
        action="store_true",
        help="the variant groups (ace modes, 3-4 decks, 6 jokers, openings) instead",
    )
    ap.add_argument(
        "--groups", nargs="+", default=None, help="with --variants: only these groups (labels)"
    )
    args = ap.parse_args(argv)
    if args.variants:
        return run_variants(args.n, not args.no_install, args.groups)
    sizes: list[int] = args.sizes
    rules = find_preset("rummikub")
    assert isinstance(rules, ManipulationRules)
    optimum = load_reference()
    mod = _load_theirs(not args.no_install)
    theirs = Theirs(mod) if mod is not None else None
    # warm up (imports, caches, HiGHS)
    warm = make_position(0, 20, "typical")
    best_play(rules, warm.table, warm.hand, keep_melds=False)
    best_play(rules, warm.table, warm.hand)
    best_play(rules, warm.table, warm.hand, settings=FORCE_RELAXATION)
    optimum(rules, [c for m in warm.table for c in m.cards], warm.hand)
    if theirs is not None:
        theirs.solve(warm)
    # what the warm-up loaded (numba's and HiGHS's objects) lives as long as the process:
    # kept out of the garbage collector's walks, a full collection that lands in a solve
    # costs what the solve's own garbage costs, not ~50 ms of walking the whole heap
    gc.freeze()
    rows: dict[tuple[int, str], Row] = {}
    # Ours first on every position, then the reference and theirs on the same positions:
    # each solver is timed in its own steady state. (Interleaved, each paid for the other:
    # their solver's garbage set off full collections of the heap that left the CPU caches
    # cold for the next solve of ours, about half a millisecond a solve.)
    solved: list[Solved] = []
    for size in sizes:
        for kind in ("typical", "hard"):
            for i in range(args.n):
                seed = 1000 * size + i * 2 + (kind == "hard")
                p = make_position(seed, size, kind)
                retry = 0
                while True:
                    fresh()
                    t0 = time.perf_counter()
                    fast = best_play(rules, p.table, p.hand, keep_melds=False)
                    t_fast = time.perf_counter() - t0
                    # a "hard" seed whose rack fits anyway is replaced (up to 9 times); the
                    # solve that decides is the one timed, so no position is solved twice
                    retry += 1
                    if kind != "hard" or fast.hand or retry == 10:
                        break
                    seed = 100_000 * retry + 1000 * size + i * 2 + 1
                    p = make_position(seed, size, kind)
                fresh()
                t0 = time.perf_counter()
                full = best_play(rules, p.table, p.hand)  # as `rummy solve` calls it
                t_full = time.perf_counter() - t0
                group = "typical" if not fast.hand else "hard"
                row = rows.setdefault((size, group), Row())
                row.ours.append(t_fast)
                row.ours_solve.append(t_full)
                solved.append(Solved(row, f"seed {seed}, {size} tiles, {kind}", p, fast, full))
    failures: list[str] = []
    for s in solved:
        t0 = time.perf_counter()
        ref = optimum(rules, [c for m in s.position.table for c in m.cards], s.position.hand)
        s.row.reference.append(time.perf_counter() - t0)
        s.optimum = (ref.count, ref.value) if ref is not None else (0, 0)
        wrong = check(rules, s, s.optimum)
        if wrong:
            failures.extend(f"{s.label}: {w}" for w in wrong)
        else:
            s.row.ours_optimal += 1
    if theirs is not None:
        for s in solved:
            t0 = time.perf_counter()
            try:
                got = theirs.solve(s.position)
            except Exception:  # their failure is a data point, not a crash
                got = None
            s.row.theirs.append(time.perf_counter() - t0)
            if got is None:
                s.row.theirs_failed += 1
            elif got == s.optimum[0]:
                s.row.theirs_optimal += 1
    print(
        f"{'table':>5} {'group':>8} {'n':>4} | {'c+v med':>8} {'c+v p99':>8} | "
        f"{'solve med':>9} {'solve p99':>9} | {'HiGHS med':>9} {'HiGHS/solve':>11} | "
        f"{'theirs med':>10} {'theirs p99':>10} {'theirs/c+v':>10} | "
        f"{'ours opt':>8} {'theirs opt':>10}"
    )
    for size in sizes:
        for group in ("typical", "hard"):
            found = rows.get((size, group))
            if found is not None:
                print(_line(size, group, [found], opt=True))
    for size in sizes:
        # both groups of a size together
        at = [r for (sz, _g), r in rows.items() if sz == size]
        if at:
            print(_line(size, "all", at, opt=False))
    everything = list(rows.values())
    all_ours = [t for r in everything for t in r.ours]
    all_full = [t for r in everything for t in r.ours_solve]
    all_theirs = [t for r in everything for t in r.theirs]
    optimal = sum(r.ours_optimal for r in everything)
    print(
        f"all: count and value median {statistics.median(all_ours) * 1000:.2f} ms, "
        f"p99 {_ms(all_ours, 0.99):.2f} ms; rummy solve median "
        f"{statistics.median(all_full) * 1000:.2f} ms, p99 {_ms(all_full, 0.99):.2f} ms"
        + (
            f"; theirs median {statistics.median(all_theirs) * 1000:.2f} ms, "
            f"p99 {_ms(all_theirs, 0.99):.2f} ms"
            if all_theirs
            else ""
        )
    )
    print(f"ours optimal and legal on {optimal} of {len(solved)} positions (HiGHS reference)")
    for f in failures:
        print(f"NOT OPTIMAL: {f}", file=sys.stderr)
    return 1 if failures else 0


def theirs_for(mod: Any, rules: ManipulationRules, opened: bool) -> Theirs | None:
    """``rummikub-solver`` for a group whose rules it can state, else None: aces low,
    sets of at most four suits, one natural per meld, at most 4 copies and 4 jokers, and
    either an opened player or an opening of points from the hand alone."""
    m, deck, o = rules.meld, rules.deck, rules.opening
    if (
        mod is None
        or m.ace_mode is not AceMode.LOW_ONLY
        or m.set_max != 4
        or m.min_len != 3
        or m.min_naturals > 1
        or deck.standard_decks > 4
        or deck.printed_jokers > 4
    ):
        return None
    if opened:
        return Theirs(mod, deck.standard_decks, deck.printed_jokers)
    if o.type is OpeningType.POINTS and not o.allow_table_play_same_turn:
        return Theirs(
            mod, deck.standard_decks, deck.printed_jokers, initial=True, threshold=o.threshold
        )
    return None


def run_variants(n: int, install: bool = True, groups: Sequence[str] | None = None) -> int:
    """Every variant group of ``VARIANTS``: ``n`` positions per group and size (14-card
    hands), ours timed both ways and checked against the HiGHS model, timed in the same run,
    and ``rummikub-solver`` where it applies (:func:`theirs_for`; it places the most tiles,
    so its answer counts as optimal when it places the reference's count).

    Times are CPU time of this process (``time.process_time``), so that other work on a
    shared machine does not inflate them. Ours are timed first on every position of every
    group, then the reference and theirs: HiGHS keeps worker threads busy for a few
    milliseconds after each of its solves, and that CPU time would count as ours if one of
    our solves came next (it did: 3-10 ms on a 1-2 ms solve)."""
    optimum = load_reference()
    mod = _load_theirs(install)
    warm_rules = find_preset("robbers_s003")
    assert isinstance(warm_rules, ManipulationRules)
    warm = variant_position(0, warm_rules, 20, 14)
    optimum(warm_rules, [c for m in warm.table for c in m.cards], warm.hand)
    best_play(warm_rules, warm.table, warm.hand)
    # and the linear relaxation once (its module and HiGHS's first run: about 10 ms that
    # a long-lived process pays once, not on whichever position first needs it)
    best_play(warm_rules, warm.table, warm.hand, settings=FORCE_RELAXATION)
    # what the warm-up loaded (numba's and HiGHS's objects) lives as long as the process:
    # kept out of the garbage collector's walks, a full collection that lands in a solve
    # costs what the solve's own garbage costs, not ~50 ms of walking the whole heap
    gc.freeze()
    time.sleep(0.1)  # the warm-up's HiGHS threads settle
    # phase 1: ours, every group and size. Full collections of the garbage (a walk of every
    # object the process keeps, 20-40 ms once the solver's memos have grown, whatever the
    # position) are held back from the timed calls and run between groups, untimed; their
    # cost is reported below the table. Young collections run as usual, inside the calls.
    g0, g1, g2 = gc.get_threshold()
    gc.set_threshold(g0, g1, 1 << 30)
    young_before = gc.get_stats()[1]["collections"]
    full_ms: list[float] = []
    todo: list[tuple[str, ManipulationRules, bool, int, Row, list[Solved]]] = []
    for label, preset, options, sizes, opened in VARIANTS:
        if groups and label not in groups:
            continue
        rules = find_preset(preset, options)
        assert isinstance(rules, ManipulationRules)
        # the group's rules once, on a position not measured: what a long-lived process
        # pays once per rule set (its moves generated into the shared store, its code
        # paths' first calls, the linear relaxation's model for these rules: 7-13 ms)
        # lands on no measured position
        extra = variant_position(1, rules, sizes[0], 14)
        best_play(rules, extra.table, extra.hand, opened=opened)
        best_play(rules, extra.table, extra.hand, opened=opened, settings=FORCE_RELAXATION)
        time.sleep(0.1)  # its HiGHS threads settle
        for size in sizes:
            row = Row()
            solved: list[Solved] = []
            for i in range(n):
                seed = 7919 * size + i
                p = variant_position(seed, rules, size, 14)
                fresh()
                t0 = time.process_time()
                fast = best_play(rules, p.table, p.hand, opened=opened, keep_melds=False)
                row.ours.append(time.process_time() - t0)
                fresh()
                t0 = time.process_time()
                full = best_play(rules, p.table, p.hand, opened=opened)
                row.ours_solve.append(time.process_time() - t0)
                solved.append(Solved(row, f"{label}, seed {seed}, {size} cards", p, fast, full))
            todo.append((label, rules, opened, size, row, solved))
            print(f"solved {label}, {size} cards", file=sys.stderr, flush=True)
        t0 = time.process_time()
        gc.collect()
        full_ms.append((time.process_time() - t0) * 1000)
    young = gc.get_stats()[1]["collections"] - young_before
    gc.set_threshold(g0, g1, g2)
    # phase 2: the reference and theirs, then the table
    print(
        f"{'group':>14} {'table':>5} {'n':>3} | {'c+v med':>8} {'c+v p99':>8} | "
        f"{'solve med':>9} {'solve p99':>9} | {'HiGHS med':>9} {'HiGHS max':>9} "
        f"{'HiGHS/solve':>11} | {'opt':>5} | {'theirs med':>10} {'theirs/solve':>12} "
        f"{'their opt':>9}"
    )
    failures: list[str] = []
    total = optimal = 0
    for label, rules, opened, size, row, solved in todo:
        theirs = theirs_for(mod, rules, opened)
        for s in solved:
            p = s.position
            t0 = time.process_time()
            ref = optimum(rules, [c for m in p.table for c in m.cards], p.hand, opened=opened)
            row.reference.append(time.process_time() - t0)
            want = (ref.count, ref.value) if ref is not None else (0, 0)
            if theirs is not None:
                t0 = time.process_time()
                try:
                    got = theirs.solve(p)
                except Exception:  # their failure is a data point, not a crash
                    got = None
                row.theirs.append(time.process_time() - t0)
                if (got is None and want[0] == 0) or got == want[0]:
                    row.theirs_optimal += 1
            wrong = check(rules, s, want, opened)
            total += 1
            if wrong:
                failures.extend(f"{s.label}: {w}" for w in wrong)
            else:
                row.ours_optimal += 1
                optimal += 1
        med = statistics.median(row.ours_solve)
        ref_med = statistics.median(row.reference)
        print(
            f"{label:>14} {size:>5} {n:>3} | {statistics.median(row.ours) * 1000:>8.2f} "
            f"{_ms(row.ours, 0.99):>8.2f}"
            f" | {med * 1000:>9.2f} {_ms(row.ours_solve, 0.99):>9.2f} | "
            f"{ref_med * 1000:>9.1f} {max(row.reference) * 1000:>9.1f} "
            f"{ref_med / med:>10.1f}x | {row.ours_optimal:>2}/{n:<2} | "
            + (
                f"{_ms(row.theirs, 0.5):>10.2f} "
                f"{statistics.median(row.theirs) / med:>11.1f}x "
                f"{row.theirs_optimal:>4}/{n:<4}"
                if row.theirs
                else f"{'-':>10} {'-':>12} {'-':>9}"
            ),
            flush=True,
        )
    print(f"ours optimal and legal on {optimal} of {total} positions (HiGHS reference)")
    print(
        f"full collections held back from our timed calls: {len(full_ms)} run between groups, "
        f"median {statistics.median(full_ms):.1f} ms, max {max(full_ms):.1f} ms; "
        f"{young} second-generation collections ran inside the calls (CPython's defaults "
        f"start a full one after every {g2} of them once the heap has grown by a quarter)"
    )
    for f in failures:
        print(f"NOT OPTIMAL: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
