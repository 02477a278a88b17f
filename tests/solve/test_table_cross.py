"""Exactness: the solver against an independent integer program (HiGHS) on seeded positions.

Seeded random positions (2,000 by default; ``OPENRUMMY_SOLVER_CROSS=N`` for another count)
over every preset, all ace modes, 0–6 jokers, opening on and off (both opening styles)
and tables of 0–100 cards; the count and then the value placed must match. Every answer is also re-checked by the engine's commit checks (C1–C8).
"""

from __future__ import annotations

import os
import random
import threading
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import manipulation_rules
from helpers.ilp_reference import Optimum, optimum
from helpers.positions import (
    Position,
    check_play,
    many_decks_position,
    movable_cards,
    opening_position,
    random_position,
)
from openrummy.cards import JOKER, Card, Suit
from openrummy.melds import AceMode, Meld
from openrummy.solve import SolverSettings, best_play
from openrummy.solve import _dp as dp_module
from openrummy.solve import _fast as fast_module
from openrummy.solve import _problem as problem_module
from openrummy.solve import table as table_module
from openrummy.solve._dp import solve_core
from openrummy.solve._milp import solve_milp
from openrummy.solve.settings import DEFAULT_SETTINGS

MILP_ALONE = SolverSettings(dp_budget=0, lp_bound=False)
"""The integer program on every position: the DP gives up at once, no relaxation first."""

LP_FIRST = SolverSettings(lp_after=0, compiled_lp_after=0, compiled_lp_on_no=True)
"""The linear relaxation asked before the DP has tried anything, by either core."""

CHUNKS = 40
PER_CHUNK = max(1, int(os.environ.get("OPENRUMMY_SOLVER_CROSS", "2000")) // CHUNKS)
"""Positions per chunk: 2,000 in all by default (about 8 CPU-minutes, solver and HiGHS model
together); ``OPENRUMMY_SOLVER_CROSS=400`` for a quick local run."""


def _compare(p: Position, settings: SolverSettings = DEFAULT_SETTINGS) -> tuple[str, Counter[str]]:
    # count and value are compared; the kept-melds tie-break is tested in test_table.py
    play = best_play(p.rules, p.table, p.hand, opened=p.opened, keep_melds=False, settings=settings)
    check_play(p.rules, p.table, p.hand, play, opened=p.opened)
    # the play passed the commit checks, so it is feasible: the reference may stop as
    # soon as its LP bound shows that nothing better exists
    claim = Optimum(play.count, play.value)
    ref = optimum(p.rules, movable_cards(p.rules, p.table), p.hand, opened=p.opened, claim=claim)
    want = (ref.count, ref.value) if ref else (0, 0)
    got = (play.count, play.value)
    assert got == want, f"{p.label}: solver {got}, reference {want}"
    tags: Counter[str] = Counter()
    tags[p.rules.meld.ace_mode.name] += 1
    tags[f"jokers={sum(1 for c in p.hand if c.is_joker) + sum(m.jokers for m in p.table)}"] += 1
    tags["opened" if p.opened else "not opened"] += 1
    tags["hard" if play.hand else "all placed"] += 1
    return p.label, tags


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_matches_reference_on_random_positions(chunk: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK):
        _label, tags = _compare(random_position(seed))
        seen.update(tags)
    assert seen["all placed"] + seen["hard"] == PER_CHUNK


@pytest.mark.parametrize("seed", range(3))
def test_many_decks_and_six_jokers_match_the_reference(seed: int) -> None:
    """Three or four decks with six jokers in each ace mode (the compiled core answers all
    of them), against the reference; more seeds in the exhaustive tier."""
    _compare(many_decks_position(seed))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_many_decks_and_six_jokers_match_the_reference_exhaustive(chunk: int) -> None:
    for seed in range(3 + chunk * 15, 3 + (chunk + 1) * 15):
        _compare(many_decks_position(seed))


MILP_CHUNKS = 4
MILP_PER_CHUNK = 25


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(MILP_CHUNKS))
def test_integer_program_matches_reference(chunk: int) -> None:
    """The fallback for huge state spaces (``solve/_milp.py``), forced on every position."""
    step = 2000 // (MILP_CHUNKS * MILP_PER_CHUNK)
    first = chunk * MILP_PER_CHUNK * step
    for seed in range(first + 3, first + MILP_PER_CHUNK * step, step):
        _compare(random_position(seed), MILP_ALONE)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(MILP_CHUNKS))
def test_linear_relaxation_first_matches_reference(chunk: int) -> None:
    """The relaxation's bound (and its solution when integral), asked at every position
    before the DP has tried anything: the answers must not change."""
    step = 2000 // (MILP_CHUNKS * MILP_PER_CHUNK)
    first = chunk * MILP_PER_CHUNK * step
    for seed in range(first + 5, first + MILP_PER_CHUNK * step, step):
        _compare(random_position(seed), LP_FIRST)


def test_linear_relaxation_bounds_the_optimum(monkeypatch: pytest.MonkeyPatch) -> None:
    """``lp_bound`` never cuts the optimum off, and an integral relaxation is optimal."""
    from openrummy.solve._milp import lp_bound
    from openrummy.solve._problem import BudgetExceeded, CoreProblem, CoreSpec

    real = solve_core
    captured: list[tuple[CoreProblem, CoreSpec]] = []

    def spy(prob, spec, **kw):  # type: ignore[no-untyped-def]
        captured.append((prob, spec))
        return real(prob, spec, **kw)

    monkeypatch.setattr(table_module, "solve_core", spy)
    exact_seen = 0
    for seed in range(1, 2000, 40):
        p = random_position(seed)
        captured.clear()
        best_play(p.rules, p.table, p.hand, opened=p.opened, keep_melds=False)
        for prob, spec in captured:
            try:
                want = real(prob, spec, want_melds=False, budget=DEFAULT_SETTINGS.dp_budget).score
            except BudgetExceeded:
                continue
            bound, exact = lp_bound(prob, spec)
            assert bound is not None and bound >= want, f"seed {seed}: {bound} < {want}"
            if exact is not None:
                assert exact.score == want, f"seed {seed}: integral {exact.score} != {want}"
                exact_seen += 1
    assert exact_seen > 0


def test_outside_bound_after_a_long_descent(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the first question ("can every hand card be placed?") is answered no within
    its states, the descent below it may still be long: past as many states again the
    linear relaxation is asked after all, and the search goes on from its bound. Tiny
    budgets make that happen often here; every answer must stay exact."""
    events: list[str] = []
    real_ask = fast_module.FastSearch.ask
    real_lp = table_module.lp_bound

    def ask(self, need, best=False, steps=1, floor=problem_module.NEG):  # type: ignore[no-untyped-def]
        got = real_ask(self, need, best, steps, floor)
        events.append("cut" if got is None and steps > 1 else "ask")
        return got

    def lp(prob, spec):  # type: ignore[no-untyped-def]
        events.append("lp")
        return real_lp(prob, spec)

    monkeypatch.setattr(fast_module.FastSearch, "ask", ask)
    monkeypatch.setattr(table_module, "lp_bound", lp)
    tiny = SolverSettings(compiled_lp_after=40, race_step=10)
    for seed in range(5, 2000, 60):
        _compare(random_position(seed), tiny)
    late = sum(1 for pair in pairwise(events) if pair == ("cut", "lp"))
    assert late >= 3


def test_huge_state_space_switches_to_the_integer_program(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seed 648 (wrap-around aces, 4 jokers, 18 cards) once needed 15 GB in the DP.

    Its linear relaxation solves it now, and the compiled core within its budget; the
    Python DP alone, without the relaxation, must give up at its budget and hand the
    position to the integer program.
    """
    calls: list[int] = []
    real = solve_milp

    def spy(prob, spec):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(prob, spec)

    monkeypatch.setattr(table_module, "solve_milp", spy)
    _compare(random_position(648))
    assert not calls
    _compare(random_position(648), SolverSettings(lp_bound=False))
    assert not calls
    _compare(random_position(648), SolverSettings(lp_bound=False, compiled=False))
    assert calls


@pytest.mark.slow
def test_compiled_core_matches_python_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled DP (``_fast``) and the Python DP give the same optimum (count, value).

    The cross-check above runs the compiled core wherever it applies (no opening rule in
    force, every ace mode), so the Python core is checked here against it on those
    positions.
    """
    made: list[int] = []
    real = fast_module.FastSearch.__init__

    def spy(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(fast_module.FastSearch, "__init__", spy)
    python_core = SolverSettings(compiled=False)
    compared = 0
    for seed in range(3, 2000, 9):
        p = random_position(seed)
        made.clear()
        fast = best_play(p.rules, p.table, p.hand, opened=p.opened, keep_melds=False)
        if not made:
            continue
        compared += 1
        made.clear()
        slow = best_play(
            p.rules, p.table, p.hand, opened=p.opened, keep_melds=False, settings=python_core
        )
        assert not made, "the Python core was asked for, the compiled one answered"
        assert (fast.count, fast.value) == (slow.count, slow.value), p.label
        check_play(p.rules, p.table, p.hand, fast, opened=p.opened)
    assert compared >= 60


@pytest.mark.slow
def test_opening_turns_solved_in_parts_match_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """An opening that may go on to play on the table is mostly answered from two fast
    searches (``_open_then_play``); those answers match the integer program and the full
    opening search, and pass the engine's commit checks (opening value included)."""
    real = table_module._open_then_play
    answered: list[bool] = []

    def spy(*args):  # type: ignore[no-untyped-def]
        got = real(*args)
        answered.append(got[1] is not None)
        return got

    monkeypatch.setattr(table_module, "_open_then_play", spy)
    full_search = SolverSettings(open_in_parts=False)
    solved_in_parts = 0
    for seed in range(40):
        p = opening_position(seed)
        answered.clear()
        _compare(p)
        fast = best_play(p.rules, p.table, p.hand, opened=False, keep_melds=False)
        if fast.count:  # the play names its opening melds, and they are worth the threshold
            opening = sum(p.rules.opening_value(m) for m in fast.opening)
            assert opening >= p.rules.opening.threshold, p.label
        if not any(answered):
            continue
        solved_in_parts += 1
        answered.clear()
        slow = best_play(
            p.rules, p.table, p.hand, opened=False, keep_melds=False, settings=full_search
        )
        assert not answered, "open_in_parts=False still solved the opening in parts"
        assert (fast.count, fast.value) == (slow.count, slow.value), p.label
    assert solved_in_parts >= 15


def _record_compiled_problems(
    monkeypatch: pytest.MonkeyPatch,
) -> list[tuple[problem_module.CoreProblem, problem_module.CoreSpec]]:
    """A list that every core problem of an optimum solved by the compiled search joins."""
    problems: list[tuple[problem_module.CoreProblem, problem_module.CoreSpec]] = []
    real_core = solve_core

    def spy(prob, spec, **kw):  # type: ignore[no-untyped-def]
        if fast_module.eligible(prob, spec) and kw.get("target") is None:
            problems.append((prob, spec))
        return real_core(prob, spec, **kw)

    monkeypatch.setattr(table_module, "solve_core", spy)
    return problems


def test_either_rank_order_alone_and_the_race_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled search read from rank 1 up, the same search on the mirrored problem
    (ranks reversed; with high-or-low aces 2..K reversed and the ace kept), and the race
    between them give the same optimum; when the mirrored search answers, its melds are
    turned back (checked by the commit rules)."""
    problems = _record_compiled_problems(monkeypatch)
    mirrored_melds = 0
    high_mirrored_melds = 0
    real_melds = dp_module._Race.melds

    def melds_spy(self):  # type: ignore[no-untyped-def]
        nonlocal mirrored_melds, high_mirrored_melds
        got = real_melds(self)
        lo = self.root_lo()
        i = next(i for i, p in enumerate(self.provers) if p.root_lo() == lo)
        mirrored_melds += self.kinds[i] != dp_module._SAME
        high_mirrored_melds += self.kinds[i] == dp_module._HIGH_MIRROR
        return got

    monkeypatch.setattr(dp_module._Race, "melds", melds_spy)
    racing = SolverSettings(race_step=1)  # turns of one state: both orders answer
    one_way = SolverSettings(race=False)
    checked = 0
    for seed in range(5, 2000, 8):
        p = random_position(seed)
        problems.clear()
        play = best_play(
            p.rules, p.table, p.hand, opened=p.opened, keep_melds=False, settings=racing
        )
        check_play(p.rules, p.table, p.hand, play, opened=p.opened)
        for prob, spec in problems:
            # high-or-low aces: Q-K-A is a run and K-A-2 not, so the ace stays where it is
            mirror = (
                dp_module.mirrored_high if spec.ace == problem_module.HIGH else dp_module.mirrored
            )
            up = dp_module.solve_core(prob, spec, want_melds=False, settings=one_way).score
            down = dp_module.solve_core(
                mirror(prob), spec, want_melds=False, settings=one_way
            ).score
            assert up == down, p.label
            checked += 1
    assert checked >= 60
    assert mirrored_melds >= 10
    assert high_mirrored_melds >= 3


def test_the_race_reads_downwards_first_when_the_hand_cards_needing_jokers_lie_late(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With aces low the race starts with the mirrored search when the hand cards whose
    cheapest meld needs jokers lie above the middle rank (``_dp._late_need``), else with
    the search upwards; either way the optimum is the one-way search's and the play legal."""
    problems = _record_compiled_problems(monkeypatch)
    rules = manipulation_rules("robbers")
    table = [Meld.parse("[4S 5S 6S]"), Meld.parse("[JK 8H 9H]"), Meld.parse("[7C 7D 7H]")]
    seen = set()
    for hand, late in (("KD KC 3S", True), ("2C 2D 10H", False), ("KD KC 2C 2H", True)):
        cards = [Card.parse(c) for c in hand.split()]
        problems.clear()
        play = best_play(rules, table, cards, keep_melds=False)
        check_play(rules, table, cards, play, opened=True)
        (prob, spec) = problems[0]
        assert (dp_module._late_need(prob, spec) > 0) == late, hand
        race = dp_module._prover(prob, spec, 1 << 30, DEFAULT_SETTINGS)
        assert isinstance(race, dp_module._Race)
        kind = dp_module._MIRROR if late else dp_module._SAME
        assert race.kinds[0] == kind
        seen.add(kind)
        one_way = solve_core(prob, spec, settings=SolverSettings(race=False))
        assert solve_core(prob, spec).score == one_way.score
    assert seen == {dp_module._MIRROR, dp_module._SAME}


def test_a_search_that_fills_the_shared_move_store_goes_on_in_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every compiled search appends its moves to the thread's shared store; one that fills
    it copies the rows into a store of its own and asks the question again (the memo's
    moves are row numbers): the same optimum and a legal play as with room to spare."""
    problems = _record_compiled_problems(monkeypatch)
    for seed in range(7, 400, 16):
        p = random_position(seed)
        best_play(p.rules, p.table, p.hand, opened=p.opened, keep_melds=False)
    assert len(problems) >= 10
    want = [solve_core(prob, spec, want_melds=False).score for prob, spec in problems]
    real_own = fast_module.FastSearch._own_store
    copied = 0

    def own(self):  # type: ignore[no-untyped-def]
        nonlocal copied
        copied += 1
        return real_own(self)

    monkeypatch.setattr(fast_module.FastSearch, "_own_store", own)
    monkeypatch.setattr(fast_module, "_STORE", 64)  # shared stores of 64 rows
    monkeypatch.setattr(fast_module, "_shared", threading.local())
    for (prob, spec), score in zip(problems, want, strict=True):
        got = solve_core(prob, spec)
        assert got.score == score
        if got.score >= 0:
            placed = Counter((s, r) for _run, items in got.melds for s, r, j, _t in items if not j)
            for s in range(4):
                for r in range(13):
                    have = prob.table[s][r] + prob.hand[s][r]
                    assert prob.table[s][r] <= placed[(s, r + 1)] <= have
    assert copied >= 5


def test_the_wrap_around_cycle_cut_at_any_rank_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    """With wrap-around aces the compiled search may start at any rank (the cycle cut
    there, ranks turned back in the melds): started at several ranks, alone, it gives the
    same count and value as at the A, and its melds are a legal play."""
    real_init = fast_module.FastSearch.__init__
    forced = [0]

    def init(self, prob, spec, budget, settings=DEFAULT_SETTINGS, cut=0):  # type: ignore[no-untyped-def]
        real_init(self, prob, spec, budget, settings, cut=forced[0])

    monkeypatch.setattr(fast_module.FastSearch, "__init__", init)
    one_way = SolverSettings(race=False)
    checked = 0
    seed = 0
    while checked < 12:
        seed += 1
        p = random_position(seed, table_cards=random.Random(seed).randint(8, 40), hand_cards=10)
        if p.rules.meld.ace_mode is not AceMode.WRAPAROUND:
            continue
        forced[0] = 0
        at_ace = best_play(
            p.rules, p.table, p.hand, opened=True, keep_melds=False, settings=one_way
        )
        for cut in (1, 5, 9, 12):
            forced[0] = cut
            play = best_play(p.rules, p.table, p.hand, opened=True, settings=one_way)
            assert (play.count, play.value) == (at_ace.count, at_ace.value), (p.label, cut)
            check_play(p.rules, p.table, p.hand, play, opened=True)
        checked += 1


@pytest.mark.slow
def test_a_descent_in_one_call_asks_the_same_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ask(need, steps=k)`` (the descent without a return to Python per question) ends
    with the same root bounds, after the same states, as asking the k questions one by
    one at the root's new bound, in the compiled search and in the Python one."""
    problems = _record_compiled_problems(monkeypatch)
    for seed in range(3, 2000, 12):
        p = random_position(seed)
        best_play(p.rules, p.table, p.hand, opened=p.opened, keep_melds=False)
    assert len(problems) >= 40
    several = 0
    for prob, spec in problems:
        for kind in (fast_module.FastSearch, dp_module._Prover):
            one, many = kind(prob, spec, 1 << 40), kind(prob, spec, 1 << 40)
            need = one.node_ub()
            got = None
            asked = 0
            for _ in range(8):
                got = one.ask(need)
                asked += 1
                assert got is not None
                if got[0] >= need or got[1] < 0:
                    break
                need = got[1]
            assert many.ask(many.node_ub(), False, 8) == got
            assert many.states == one.states
            several += asked > 2
    assert several >= 10


def test_random_positions_cover_the_space() -> None:
    """The generator really spreads over presets, ace modes, jokers and table sizes."""
    presets: Counter[str] = Counter()
    modes: Counter[str] = Counter()
    jokers: Counter[int] = Counter()
    sizes: list[int] = []
    opened: Counter[bool] = Counter()
    for seed in range(0, 2000, 7):
        p = random_position(seed)
        presets[p.rules.name] += 1
        modes[p.rules.meld.ace_mode.name] += 1
        jokers[sum(1 for c in p.hand if c.is_joker) + sum(m.jokers for m in p.table)] += 1
        sizes.append(sum(len(m) for m in p.table))
        opened[p.opened] += 1
    assert len(presets) == 5 and len(modes) == 3
    assert set(range(7)) <= set(jokers)
    assert min(sizes) == 0 and max(sizes) >= 95
    assert opened[False] > 30


def _deck(tiles: bool) -> list[Card]:
    return [Card(r, s, tiles) for s in Suit for r in range(1, 14)]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    game=st.sampled_from(["robbers", "robbers_s003", "vatikan_pagat", "rummikub"]),
    mode=st.sampled_from(["LOW_ONLY", "HIGH_OR_LOW", "WRAPAROUND"]),
    picks=st.lists(st.integers(0, 51), min_size=0, max_size=16),
    table_picks=st.lists(st.integers(0, 51), min_size=0, max_size=30),
    jokers=st.integers(0, 3),
    opened=st.booleans(),
)
def test_hypothesis_flat_tables(
    game: str,
    mode: str,
    picks: list[int],
    table_picks: list[int],
    jokers: int,
    opened: bool,
) -> None:
    """Any hand against any arrangeable flat table (the table is arranged first)."""
    rules = manipulation_rules(game, {"meld.ace_mode": mode, "deck.printed_jokers": 6})
    tiles = rules.deck.kind.name == "TILES"
    deck = _deck(tiles)
    cnt: Counter[Card] = Counter()
    hand = []
    for i in picks:
        if cnt[deck[i]] < 2:
            cnt[deck[i]] += 1
            hand.append(deck[i])
    hand += [JOKER] * jokers
    table = []
    for i in table_picks:
        if cnt[deck[i]] < 2:
            cnt[deck[i]] += 1
            table.append(deck[i])
    from openrummy.solve import arrange, can_arrange

    if not can_arrange(rules, table):
        ref = optimum(rules, table, [], opened=True)
        assert ref is None
        return
    melds: list[Meld] = arrange(rules, table)
    play = best_play(rules, melds, hand, opened=opened, keep_melds=False)
    check_play(rules, melds, hand, play, opened=opened)
    ref = optimum(rules, movable_cards(rules, melds), hand, opened=opened)
    assert (play.count, play.value) == ((ref.count, ref.value) if ref else (0, 0))
