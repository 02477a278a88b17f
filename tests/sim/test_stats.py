"""Tournament statistics: Wilson intervals, Student's paired t test, and small runs said so."""

from __future__ import annotations

import json
import math

import pytest

from openrummy.sim.stats import (
    PairedTest,
    paired_test,
    student_t_two_sided,
    summarize,
    t_critical,
    verdict,
    wilson_interval,
    win_interval,
)
from openrummy.sim.tournament import GameResult


def two_player_deals(outcomes: list[tuple[int, int]]) -> list[GameResult]:
    """Mirrored two-player deals: ``(winner of rotation 0, winner of rotation 1)`` as the
    seat index of the winner, with ``a`` in seat 0 of rotation 0 and seat 1 of rotation 1.
    Scores are zero-sum: the winner +10, the loser -10."""
    out = []
    for deal, (w0, w1) in enumerate(outcomes):
        for rotation, winner in ((0, w0), (1, w1)):
            seats = ("a", "b") if rotation == 0 else ("b", "a")
            scores = (10.0, -10.0) if winner == 0 else (-10.0, 10.0)
            out.append(GameResult(deal, rotation, seats, (winner,), scores))
    return out


A_WINS_BOTH = (0, 1)  # a sits in seat 0, then in seat 1
B_WINS_BOTH = (1, 0)
SEAT_0_WINS = (0, 0)  # one game each: the deal decided


# -- Student's t distribution -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("t", "df", "p"),
    [
        # Two-sided tail probabilities from published t tables.
        (2.0, 4, 0.1161165),
        (2.0, 10, 0.0733880),
        (1.0, 1, 0.5),  # the Cauchy distribution
        (12.706205, 1, 0.05),
        (2.228139, 10, 0.05),
        (3.169273, 10, 0.01),
        (1.959964, 10**7, 0.05),  # the normal limit
        (0.0, 5, 1.0),
    ],
)
def test_student_t_two_sided_matches_tables(t: float, df: int, p: float) -> None:
    assert student_t_two_sided(t, df) == pytest.approx(p, rel=1e-5, abs=1e-9)
    assert student_t_two_sided(-t, df) == pytest.approx(p, rel=1e-5, abs=1e-9)


def test_student_t_tail_keeps_tiny_p_values() -> None:
    p = student_t_two_sided(40.0, 1000)
    assert 0 < p < 1e-200


def test_t_critical_inverts_the_tail() -> None:
    for df in (1, 2, 3, 7, 30, 999):
        assert student_t_two_sided(t_critical(df), df) == pytest.approx(0.05, rel=1e-9)
    assert t_critical(2) == pytest.approx(4.302653, rel=1e-6)


# -- Wilson intervals --------------------------------------------------------------------------


def test_wilson_interval_matches_the_formula() -> None:
    # 7 of 10: the textbook Wilson 95 % interval 0.3968–0.8922.
    assert wilson_interval(0.7, 10) == pytest.approx((0.39677, 0.89222), abs=1e-4)


def test_eight_wins_out_of_eight_is_not_certain() -> None:
    results = two_player_deals([A_WINS_BOTH] * 8)
    a = summarize(results, ["a", "b"])[0]
    assert a.win_rate == 1.0
    assert a.win_high == 1.0
    # 16 games all won: the Wilson interval of 16 of 16, not 100 %–100 %.
    assert a.win_low == pytest.approx(wilson_interval(1.0, 16)[0])
    assert 0.75 < a.win_low < 0.85


def test_win_interval_agrees_with_the_normal_interval_on_large_runs() -> None:
    rates = [1.0] * 300 + [0.5] * 400 + [0.0] * 300
    low, high = win_interval(rates, games=2000)
    mean = 0.5
    sd = math.sqrt(sum((r - mean) ** 2 for r in rates) / 999)
    half = 1.959964 * sd / math.sqrt(1000)
    assert low == pytest.approx(mean - half, abs=1e-3)
    assert high == pytest.approx(mean + half, abs=1e-3)


def test_win_interval_of_one_deal_uses_its_games() -> None:
    assert win_interval([0.5], games=2) == pytest.approx(wilson_interval(0.5, 2))
    assert all(math.isnan(x) for x in win_interval([], games=0))


# -- the paired test and what it says ----------------------------------------------------------


def test_paired_t_test_is_students() -> None:
    # Per-deal differences +1, +1, 0, +1, -1, +1: mean 0.5, sd 0.8367, t = 1.4638, df 5.
    outcomes = [A_WINS_BOTH, A_WINS_BOTH, SEAT_0_WINS, A_WINS_BOTH, B_WINS_BOTH, A_WINS_BOTH]
    test = paired_test(two_player_deals(outcomes), "a", "b")
    assert test.deals == 6
    assert test.mean_difference == pytest.approx(0.5)
    assert test.p_value == pytest.approx(0.2031, abs=1e-4)  # the normal approximation: 0.143
    assert test.sign_p_value == pytest.approx(0.375)  # 4 of 5 differing deals, two-sided


def test_no_variance_leaves_the_t_test_undefined_and_the_sign_test_answers() -> None:
    test = paired_test(two_player_deals([A_WINS_BOTH] * 4), "a", "b")
    assert math.isnan(test.p_value)  # was 0 (or 3.9e-10) from a normal approximation
    assert test.sign_p_value == pytest.approx(0.125)
    assert "too few to conclude anything" in verdict(test)
    eight = paired_test(two_player_deals([A_WINS_BOTH] * 8), "a", "b")
    assert verdict(eight).startswith("a wins more often than b (sign test, p = 0.0078, 8 deals)")


def test_one_deal_prints_no_nan() -> None:
    results = two_player_deals([A_WINS_BOTH])
    test = paired_test(results, "a", "b")
    line = verdict(test)
    assert line == (
        "a against b: 1 deal is too few to conclude anything "
        "(even 1 win out of 1 would not be significant at the 5 % level)"
    )
    assert "nan" not in line.lower()
    data = json.dumps(
        {"tests": test.to_json(), "summary": summarize(results, ["a", "b"])[0].to_json()}
    )
    assert "NaN" not in data  # JSON has no NaN: undefined figures are null
    assert json.loads(data)["tests"]["p_value"] is None


def test_a_small_run_without_a_difference_says_it_cannot_show_one() -> None:
    test = paired_test(two_player_deals([A_WINS_BOTH, B_WINS_BOTH] * 5), "a", "b")
    assert test.deals == 10
    line = verdict(test)
    assert "too few to conclude that there is none" in line


def test_a_large_run_says_what_it_shows() -> None:
    decided = paired_test(
        two_player_deals([A_WINS_BOTH] * 30 + [SEAT_0_WINS] * 60 + [B_WINS_BOTH] * 10), "a", "b"
    )
    assert decided.p_value < 0.01
    assert verdict(decided).startswith("a wins more often than b (paired t test, p = ")
    level = paired_test(two_player_deals([A_WINS_BOTH, B_WINS_BOTH] * 50), "a", "b")
    assert verdict(level).startswith("a against b: no significant difference in wins")


def test_verdict_without_common_deals() -> None:
    assert "nothing to conclude" in verdict(PairedTest("a", "b", 0, math.nan, math.nan, math.nan))
