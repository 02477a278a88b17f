"""The opening of a player who has not opened, from the list of ways to open.

``_open_exact`` answers an opening turn by trying every multiset of hand cards that
hand-only melds worth the threshold can use, each followed by an opened player's play.
Its answers must equal the integer program's (HiGHS) and the full opening search's
(``open_candidates=0``), and a list too long must fall back to that search.
"""

from __future__ import annotations

import pytest

from helpers import manipulation_rules
from helpers.ilp_reference import Optimum, optimum
from helpers.positions import Position, check_play, movable_cards, opening_position
from openrummy.cards import Card, parse_cards
from openrummy.solve import SolverSettings, best_play
from openrummy.solve import table as table_module
from openrummy.solve._opening import opening_candidates, opening_melds
from openrummy.solve._problem import OPEN_POINTS, CoreResult
from openrummy.solve.table import _Solver

FULL_SEARCH = SolverSettings(open_candidates=0)

CHEAP = (11, 23, 74, 83)
"""Opening positions (``opening_position``) answered by the list of ways to open, beside
a table, whose references are quick."""


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """A list that gets, for each call of ``_open_exact`` beside a non-empty table,
    whether it answered."""
    real = table_module._open_exact
    answered: list[bool] = []

    def spy(
        solver: _Solver, table: list[Card], lower: int, upper: int | None = None
    ) -> CoreResult | None:
        got = real(solver, table, lower, upper)
        if table:
            answered.append(got is not None)
        return got

    monkeypatch.setattr(table_module, "_open_exact", spy)
    return answered


def _check(p: Position, *, full: bool) -> None:
    play = best_play(p.rules, p.table, p.hand, opened=False, keep_melds=False)
    check_play(p.rules, p.table, p.hand, play, opened=False)
    if play.count:
        assert sum(p.rules.opening_value(m) for m in play.opening) >= p.rules.opening.threshold
    claim = Optimum(play.count, play.value)
    ref = optimum(p.rules, movable_cards(p.rules, p.table), p.hand, opened=False, claim=claim)
    assert (play.count, play.value) == ((ref.count, ref.value) if ref else (0, 0)), p.label
    if full:
        slow = best_play(
            p.rules, p.table, p.hand, opened=False, keep_melds=False, settings=FULL_SEARCH
        )
        assert (play.count, play.value) == (slow.count, slow.value), p.label


def test_ways_to_open_match_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    answered = _spy(monkeypatch)
    for seed in CHEAP:
        answered.clear()
        _check(opening_position(seed), full=seed in (23, 74))
        # the first call is the default settings' (the full search's, if any, follows)
        assert answered[:1] == [True], f"seed={seed}: not answered from the ways to open"


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_ways_to_open_match_the_reference_exhaustive(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    answered = _spy(monkeypatch)
    for seed in range(200 + chunk * 30, 200 + (chunk + 1) * 30):
        _check(opening_position(seed), full=True)
    assert any(answered)


def test_too_many_ways_fall_back_to_the_full_search(monkeypatch: pytest.MonkeyPatch) -> None:
    answered = _spy(monkeypatch)
    p = opening_position(23)
    few = SolverSettings(open_candidates=1)
    got = best_play(p.rules, p.table, p.hand, opened=False, keep_melds=False, settings=few)
    assert answered == [False]
    want = best_play(p.rules, p.table, p.hand, opened=False, keep_melds=False)
    assert (got.count, got.value) == (want.count, want.value)


def _problem(game: str, hand: str) -> tuple[_Solver, list[Card]]:
    rules = manipulation_rules(game)
    cards = parse_cards(hand)
    solver = _Solver(rules, cards, OPEN_POINTS, False, SolverSettings())
    return solver, cards


def test_the_ways_to_open_of_a_small_hand() -> None:
    solver, _ = _problem("robbers", "KS KH KD QS QH QD 2C")
    melds = opening_melds(solver.spec, solver.h, solver.hj)
    assert sorted(m.value for m in melds) == [30, 30]
    ways = opening_candidates(solver.spec, solver.h, solver.hj, limit=10, nodes=100)
    assert ways is not None and len(ways) == 1
    ((cards, jokers),) = ways
    assert len(cards) == 6 and jokers == 0
    assert opening_candidates(solver.spec, solver.h, solver.hj, limit=0, nodes=100) is None
    assert opening_candidates(solver.spec, solver.h, solver.hj, limit=10, nodes=1) is None
    # worth 39 at most: no way to open, and the answer says so without a search
    solver, _ = _problem("robbers", "9S 10S JS QS 2C 3C")
    assert opening_candidates(solver.spec, solver.h, solver.hj, limit=10, nodes=100) == {}


def test_a_joker_may_stand_in_for_a_card_the_hand_holds() -> None:
    # 5S 6S 7S with a joker: the joker may take the place of 6S, which the set then uses
    solver, _ = _problem("robbers", "5S 6S 7S JK 6H 6D")
    melds = opening_melds(solver.spec, solver.h, solver.hj)
    runs = {tuple(it[2] for it in m.items) for m in melds if m.is_run and len(m.items) == 3}
    assert (False, True, False) in runs
    sets = [m for m in melds if not m.is_run and len(m.cards) == 3]
    assert any(5 in m.cards for m in sets)  # the set of sixes with 6S (suit 0, rank index 5)
