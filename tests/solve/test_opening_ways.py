"""The opening of a player who has not opened, from the list of ways to open.

``_open_exact`` answers an opening turn by trying every multiset of hand cards that
hand-only melds worth the threshold can use, each followed by an opened player's play.
Its answers must equal the integer program's (HiGHS) and the full opening search's
(``open_candidates=0``), and a list too long must fall back to that search.
"""

from __future__ import annotations

import random

import pytest

from helpers import manipulation_rules
from helpers.ilp_reference import Optimum, optimum
from helpers.positions import (
    Position,
    check_play,
    deck_of,
    movable_cards,
    opening_position,
    random_table,
)
from openrummy.cards import Card, parse_cards
from openrummy.solve import SolverSettings, best_play
from openrummy.solve import table as table_module
from openrummy.solve._opening import opening_candidates, opening_melds, run_opening_candidates
from openrummy.solve._problem import OPEN_POINTS, OPEN_RUN, CoreResult
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


# -- an opening run from the hand (opening.type = RUN_FROM_HAND) -------------------------


def _run_position(seed: int) -> Position:
    """A seeded position under a run opening: every ace mode, both same-turn rules, run
    lengths 3–5, 0–4 jokers, 10–30 table cards and 12 cards in hand."""
    rng = random.Random(seed)
    over: dict[str, object] = {
        "opening.type": "RUN_FROM_HAND",
        "opening.run_length": rng.choice([3, 3, 4, 5]),
        "opening.allow_table_play_same_turn": rng.random() < 0.7,
        "meld.ace_mode": ("LOW_ONLY", "HIGH_OR_LOW", "WRAPAROUND")[seed % 3],
        "deck.printed_jokers": rng.choice([0, 2, 4]),
    }
    rules = manipulation_rules("robbers", over)
    pool = deck_of(rules)
    rng.shuffle(pool)
    table = random_table(rng, rules, pool, rng.randint(10, 30))
    return Position(rules, table, pool[:12], False, f"seed={seed} {over}")


def _check_run(p: Position) -> None:
    play = best_play(p.rules, p.table, p.hand, opened=False, keep_melds=False)
    check_play(p.rules, p.table, p.hand, play, opened=False)
    if play.count:
        assert any(len(m) >= p.rules.opening.run_length for m in play.opening), p.label
    ref = optimum(p.rules, movable_cards(p.rules, p.table), p.hand, opened=False)
    assert (play.count, play.value) == ((ref.count, ref.value) if ref else (0, 0)), p.label


def test_run_openings_from_the_ways_to_open_match_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answered = _spy(monkeypatch)
    for seed in range(6):
        _check_run(_run_position(seed))
    assert any(answered), "no run opening was answered from the ways to open"


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(5))
def test_run_openings_match_the_reference_exhaustive(chunk: int) -> None:
    for seed in range(100 + chunk * 20, 100 + (chunk + 1) * 20):
        _check_run(_run_position(seed))


def test_the_ways_to_open_with_a_run() -> None:
    rules = manipulation_rules(
        "robbers", {"opening.type": "RUN_FROM_HAND", "opening.run_length": 4}
    )
    cards = parse_cards("3S 4S 5S 6S 7S 8S 9S 9H JK")
    solver = _Solver(rules, cards, OPEN_RUN, False, SolverSettings())
    ways = run_opening_candidates(solver.spec, solver.h, solver.hj, limit=100)
    assert ways is not None
    # no run shorter than 4, and none that cuts into a run of 4 and a valid rest
    assert all(len(melds[0].items) >= 4 for melds in ways.values())
    assert all(len(melds[0].items) <= 6 for melds in ways.values())
    assert ((0 * 13 + 2, 3, 4, 5), 0) in ways  # 3S 4S 5S 6S
    assert run_opening_candidates(solver.spec, solver.h, solver.hj, limit=1) is None
    # a hand without four cards of a suit in a window (and no joker): no way to open
    solver = _Solver(rules, parse_cards("3S 4S 6S 9H 10H"), OPEN_RUN, False, SolverSettings())
    assert run_opening_candidates(solver.spec, solver.h, solver.hj, limit=100) == {}
