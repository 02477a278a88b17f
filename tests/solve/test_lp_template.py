"""The linear relaxation cut out of a per-rules template (``_milp._Template``) against the
position's own model built in Python (``_milp._lp_bound_built``): the same bound on every
position, and an integral answer that accounts for exactly the position's cards.

The template must give the same model as the position's own (the same feasible set), so
the bounds must agree exactly; a template that kept a column the position's model leaves
out (or dropped one it keeps) would show here as a different bound on some position.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from helpers.positions import Position, hand_joker_position, random_position
from openrummy.solve import best_play
from openrummy.solve import table as table_module
from openrummy.solve._dp import solve_core
from openrummy.solve._milp import _lp_bound_built, _template, lp_bound
from openrummy.solve._problem import (
    HIGH,
    LOW,
    NEG,
    OPEN_POINTS,
    OPEN_RUN,
    WRAP,
    CoreProblem,
    CoreResult,
    CoreSpec,
)


def _captured(
    monkeypatch: pytest.MonkeyPatch, positions: list[Position]
) -> list[tuple[CoreProblem, CoreSpec]]:
    """The core problems the table solver poses on these positions."""
    real = solve_core
    seen: list[tuple[CoreProblem, CoreSpec]] = []

    def spy(prob, spec, **kw):  # type: ignore[no-untyped-def]
        seen.append((prob, spec))
        return real(prob, spec, **kw)

    monkeypatch.setattr(table_module, "solve_core", spy)
    for p in positions:
        best_play(p.rules, p.table, p.hand, opened=p.opened, keep_melds=False)
    monkeypatch.undo()
    # one of each problem
    return list(dict.fromkeys(seen))


def _accounts(prob: CoreProblem, res: CoreResult) -> bool:
    """Every table card and joker in the melds, hand cards at most the hand's, and the
    score the weight of the hand cards placed."""
    naturals: Counter[tuple[int, int]] = Counter()
    jokers = 0
    for _is_run, items in res.melds:
        for s, r, joker, _tag in items:
            if joker:
                jokers += 1
            else:
                naturals[(s, r - 1)] += 1
    score = 0
    for s in range(4):
        for r in range(13):
            placed = naturals[(s, r)] - prob.table[s][r]
            if placed < 0 or placed > prob.hand[s][r]:
                return False
            score += placed * prob.weight[s][r]
    placed_j = jokers - prob.table_jokers
    if placed_j < 0 or placed_j > prob.hand_jokers:
        return False
    return score + placed_j * prob.joker_weight == res.score


def _same(prob: CoreProblem, spec: CoreSpec) -> tuple[int | None, bool]:
    bound, exact = lp_bound(prob, spec)
    want, _ = _lp_bound_built(prob, spec)
    assert bound == want, f"{spec} {prob}: template {bound}, own model {want}"
    if exact is not None:
        assert exact.score == bound
        assert _accounts(prob, exact), f"{spec} {prob}: {exact.melds}"
    return bound, exact is not None


def _opening_specs(spec: CoreSpec) -> list[CoreSpec]:
    """The spec under each opening rule (points with and without table play, a run)."""
    values = tuple(min(r + 1, 10) for r in range(13))
    points = replace(spec, open_mode=OPEN_POINTS, threshold=30, open_value=values, open_ace_high=11)
    return [
        points,
        replace(points, open_all=True, open_joker=20),
        replace(spec, open_mode=OPEN_RUN, run_length=4),
        replace(spec, open_mode=OPEN_RUN, run_length=14),  # longer than any window
    ]


def test_template_bound_equals_the_positions_own_model(monkeypatch: pytest.MonkeyPatch) -> None:
    positions = [random_position(seed) for seed in range(3, 2000, 150)]
    positions += [hand_joker_position(seed) for seed in range(7, 2000, 300)]
    problems = _captured(monkeypatch, positions)
    # every ace mode
    assert {spec.ace for _prob, spec in problems} == {LOW, HIGH, WRAP}
    results = [_same(prob, spec) for prob, spec in problems]
    # and every opening rule, on every fifth problem
    results += [
        _same(prob, other) for prob, spec in problems[::5] for other in _opening_specs(spec)
    ]
    assert any(exact for _b, exact in results)
    assert any(not exact and b is not None and b != NEG for b, exact in results)
    assert any(b == NEG for b, _exact in results)


def test_more_jokers_than_the_template_grows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A template is made for at least 6 jokers; a position with more gets a larger one
    (the old one would lack the columns of melds with more jokers)."""
    problems = _captured(monkeypatch, [hand_joker_position(seed) for seed in range(20, 400, 60)])
    prob, spec = next((p, s) for p, s in problems if s.open_mode == 0)
    small = _template(prob, spec)
    assert small is not None and small.jokers >= 6
    more = replace(prob, hand_jokers=prob.hand_jokers + small.jokers + 2)
    _same(more, spec)
    grown = _template(more, spec)
    assert grown is not None and grown.jokers >= more.table_jokers + more.hand_jokers
    assert grown.n > small.n
    # and the larger template still answers the position with fewer jokers
    _same(prob, spec)


def test_a_rounded_relaxation_reaching_its_bound_is_the_optimum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the relaxation's solution is fractional, its whole joker-free melds and a play
    of the rest found by the search may reach the bound: then that play is returned as the
    optimum. The count and value must be the search's own (no relaxation) and the play
    legal."""
    from helpers.positions import check_play
    from openrummy.solve import SolverSettings, _milp

    real_lp = table_module.lp_bound
    real_floor = _milp.floor_part
    state = {"fractional": False}
    rounded: list[str] = []

    def lp(prob, spec):  # type: ignore[no-untyped-def]
        bound, exact = real_lp(prob, spec)
        state["fractional"] = exact is None and bound is not None and bound >= 0
        return bound, exact

    def floor(prob, spec):  # type: ignore[no-untyped-def]
        got = real_floor(prob, spec)
        if got is not None:
            rounded.append("part")
        return got

    real_upper = table_module._Solver.upper

    def upper(self, prob):  # type: ignore[no-untyped-def]
        bound, exact = real_upper(self, prob)
        if state["fractional"] and exact is not None:
            assert exact.score == bound
            rounded.append("optimal")
        return bound, exact

    monkeypatch.setattr(table_module, "lp_bound", lp)
    monkeypatch.setattr(_milp, "floor_part", floor)
    monkeypatch.setattr(table_module._Solver, "upper", upper)
    first = SolverSettings(lp_after=0, compiled_lp_after=0, compiled_lp_on_no=True)
    alone = SolverSettings(lp_bound=False)
    for seed in range(3, 2000, 50):
        p = random_position(seed)
        play = best_play(
            p.rules, p.table, p.hand, opened=p.opened, keep_melds=False, settings=first
        )
        check_play(p.rules, p.table, p.hand, play, opened=p.opened)
        want = best_play(
            p.rules, p.table, p.hand, opened=p.opened, keep_melds=False, settings=alone
        )
        assert (play.count, play.value) == (want.count, want.value), p.label
    assert "part" in rounded and "optimal" in rounded
