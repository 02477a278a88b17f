"""Tournament statistics: win rates with confidence intervals, paired tests, ratings.

Mirrored games of one deal are not independent (they share the cards), so every interval
and test here treats the **deal** as the unit: a bot's result in a deal is its mean over the
seat rotations of that deal.

* Win rates carry a **Wilson score interval** (:func:`wilson_interval`) over the effective
  number of trials: the deals, weighted by how much the mirrored seats of a deal vary
  (:func:`win_interval`). It stays inside 0–100 % and never collapses to a point: 8 wins in
  8 deals of 2 games gives 81 %–100 %, not 100 %–100 %.
* Bots are compared by **Student's paired t test** over deals (the t distribution with
  n − 1 degrees of freedom, :func:`student_t_two_sided`), on the win rate and on the score,
  and by an exact **sign test** on the deals that differ.
* :func:`verdict` says in one line what a comparison shows, including when a run is too
  small to conclude anything.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .tournament import GameResult

__all__ = [
    "BotSummary",
    "PairedTest",
    "paired_test",
    "rate",
    "student_t_two_sided",
    "summarize",
    "t_critical",
    "verdict",
    "wilson_interval",
    "win_interval",
]

Z95 = 1.959963984540054


@dataclass(frozen=True)
class BotSummary:
    bot: str
    games: int
    win_rate: float
    """Wins per seat the bot held (a shared win counts 1/k for k co-winners)."""
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float
    rating_mu: float = 0.0
    rating_sigma: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "games": self.games,
            "win_rate": _finite(self.win_rate),
            "win_ci95": [_finite(self.win_low), _finite(self.win_high)],
            "mean_score": _finite(self.mean_score),
            "score_ci95": [_finite(self.score_low), _finite(self.score_high)],
            "rating_mu": self.rating_mu,
            "rating_sigma": self.rating_sigma,
            "rating_ordinal": self.rating_mu - 3 * self.rating_sigma,
        }


@dataclass(frozen=True)
class PairedTest:
    a: str
    b: str
    deals: int
    mean_difference: float
    """Mean over deals of (a's win rate − b's win rate)."""
    p_value: float
    """Two-sided Student's paired t test over deals (n − 1 degrees of freedom); NaN when the
    test is undefined (fewer than 2 deals, or every deal the same nonzero difference)."""
    sign_p_value: float
    """Two-sided exact sign test over the deals where the two differ."""
    score_difference: float = math.nan
    """Mean over deals of (a's score − b's score), in the game's own points."""
    score_p_value: float = math.nan
    """Two-sided Student's paired t test over deals, for the score difference."""
    identical: bool = False
    """Every deal came out exactly even in wins and in score: the two bots very likely made
    the same moves (a bot that falls back to another everywhere), not a close match."""

    def to_json(self) -> dict[str, float | int | str | bool | None]:
        return {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            "mean_difference": _finite(self.mean_difference),
            "p_value": _finite(self.p_value),
            "test": "Student's paired t test over deals",
            "sign_p_value": _finite(self.sign_p_value),
            "score_difference": _finite(self.score_difference),
            "score_p_value": _finite(self.score_p_value),
            "identical": self.identical,
            "verdict": verdict(self),
        }


def _finite(x: float) -> float | None:
    """JSON has no NaN: an undefined figure is written as null."""
    return None if math.isnan(x) else x


def per_deal(results: Sequence[GameResult], bot: str, what: str) -> dict[int, float]:
    """For each deal: the bot's mean win share (``what="win"``) or score per seat held."""
    sums: dict[int, float] = {}
    counts: dict[int, int] = {}
    for r in results:
        if r.error is not None:
            continue
        for seat, name in enumerate(r.seats):
            if name != bot:
                continue
            if what == "win":
                value = 1.0 / len(r.winners) if seat in r.winners else 0.0
            else:
                value = r.scores[seat]
            sums[r.deal] = sums.get(r.deal, 0.0) + value
            counts[r.deal] = counts.get(r.deal, 0) + 1
    return {d: sums[d] / counts[d] for d in sums}


def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95 % interval from Student's t (NaN bounds with fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, math.nan, math.nan)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_critical(n - 1) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def wilson_interval(rate: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate observed over ``trials`` trials.

    Unlike the normal (Wald) interval it stays within [0, 1] and does not shrink to a point
    at 0 % or 100 %:

    >>> [round(x, 3) for x in wilson_interval(1.0, 8)]
    [0.676, 1.0]
    >>> [round(x, 3) for x in wilson_interval(0.5, 2)]
    [0.095, 0.905]
    """
    if trials <= 0 or math.isnan(rate):
        return (math.nan, math.nan)
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (rate + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def win_interval(per_deal_rates: Sequence[float], games: int) -> tuple[float, float]:
    """95 % interval of a bot's win rate from its per-deal win rates and its game count.

    A Wilson interval over the *effective* number of trials (Kish's design effect): the
    number of independent games that would give the mean the precision the deals show,
    ``rate (1 − rate) · deals / variance``, with Student's critical value for deals − 1
    degrees of freedom in place of the normal 1.96. For large runs this is the normal
    interval over deals, but it stays within 0–100 %. With no variation to measure (one
    deal, or every deal alike, as in 8 wins out of 8) the games played are the trials.
    """
    n = len(per_deal_rates)
    if n == 0 or games <= 0:
        return (math.nan, math.nan)
    rate = sum(per_deal_rates) / n
    if n > 1:
        var = sum((v - rate) ** 2 for v in per_deal_rates) / (n - 1)
        if var > 0:
            return wilson_interval(rate, rate * (1 - rate) * n / var, t_critical(n - 1))
    return wilson_interval(rate, games)


def summarize(
    results: Sequence[GameResult], bots: Sequence[str], *, lower_is_better: bool = True
) -> list[BotSummary]:
    ratings = rate(results, bots, lower_is_better=lower_is_better)
    out: list[BotSummary] = []
    for bot in dict.fromkeys(bots):
        wins = per_deal(results, bot, "win")
        scores = per_deal(results, bot, "score")
        s, sl, sh = _mean_ci(list(scores.values()))
        games = sum(1 for r in results if r.error is None and bot in r.seats)
        # A seating repeated within a deal (A,B,A,B) replays the same game: count it once.
        distinct = {(r.deal, r.seats) for r in results if r.error is None}
        seat_games = sum(seats.count(bot) for _, seats in distinct)
        w = sum(wins.values()) / len(wins) if wins else math.nan
        wl, wh = win_interval(list(wins.values()), seat_games)
        mu, sigma = ratings.get(bot, (0.0, 0.0))
        out.append(BotSummary(bot, games, w, wl, wh, s, sl, sh, mu, sigma))
    return out


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for aa in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, 1.0 - x) / b


def student_t_two_sided(t: float, df: float) -> float:
    """P(|T| ≥ |t|) for Student's t distribution with ``df`` degrees of freedom.

    >>> round(student_t_two_sided(2.0, 4), 6), round(student_t_two_sided(1.0, 1), 6)
    (0.116117, 0.5)
    """
    if math.isnan(t) or df <= 0:
        return math.nan
    if math.isinf(t):
        return 0.0
    return _betainc(df / 2.0, 0.5, df / (df + t * t))


def t_critical(df: float, level: float = 0.95) -> float:
    """The two-sided critical value of Student's t: 12.7 for 1 degree of freedom, 1.96 for
    very many.

    >>> round(t_critical(1), 3), round(t_critical(10), 3), round(t_critical(10**6), 3)
    (12.706, 2.228, 1.96)
    """
    alpha = 1.0 - level
    lo, hi = 0.0, 1.0
    while student_t_two_sided(hi, df) > alpha:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if student_t_two_sided(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def _sign_test(wins: int, losses: int) -> float:
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2.0 * tail)


def _paired(diffs: Sequence[float]) -> tuple[float, float]:
    """Mean difference and its two-sided p value (Student's paired t test, n − 1 df).

    Undefined (NaN) with fewer than 2 deals, or when every deal shows the same nonzero
    difference (no variance to judge it by; the sign test still answers then).
    """
    n = len(diffs)
    if n == 0:
        return math.nan, math.nan
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.nan
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    if var == 0:
        return mean, (1.0 if mean == 0 else math.nan)
    return mean, student_t_two_sided(mean / math.sqrt(var / n), n - 1)


IDENTICAL_MIN_DEALS = 20
"""Deals that must all come out exactly even before a pairing is flagged as identical play."""


def paired_test(results: Sequence[GameResult], a: str, b: str) -> PairedTest:
    """Is ``a`` stronger than ``b``? Paired over the deals both played, on the win rate and on
    the score."""
    wa, wb = per_deal(results, a, "win"), per_deal(results, b, "win")
    deals = sorted(set(wa) & set(wb))
    diffs = [wa[d] - wb[d] for d in deals]
    mean, p = _paired(diffs)
    sa, sb = per_deal(results, a, "score"), per_deal(results, b, "score")
    score_diffs = [sa[d] - sb[d] for d in deals if d in sa and d in sb]
    score_mean, score_p = _paired(score_diffs)
    plus = sum(1 for x in diffs if x > 0)
    minus = sum(1 for x in diffs if x < 0)
    sign = _sign_test(plus, minus) if len(diffs) >= 2 else math.nan
    identical = len(diffs) >= IDENTICAL_MIN_DEALS and all(
        abs(x) < 1e-12 for x in (*diffs, *score_diffs)
    )
    return PairedTest(a, b, len(diffs), mean, p, sign, score_mean, score_p, identical)


def rate(
    results: Sequence[GameResult], bots: Sequence[str], *, lower_is_better: bool = True
) -> dict[str, tuple[float, float]]:
    """openskill (Plackett–Luce) ratings per bot name, games in (deal, rotation) order.

    Each seat is a team of one; a bot that holds several seats of a game gets the mean of
    its seats' updated ratings.
    """
    from openrummy.extras import require

    require("sim", "the ratings of rummy simulate", modules=("openskill",))
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in dict.fromkeys(bots)}
    for r in sorted(results, key=lambda r: (r.deal, r.rotation)):
        if r.error is not None:
            continue
        teams = [[ratings[name]] for name in r.seats]
        keyed = [
            (0 if s in r.winners else 1, r.scores[s] if lower_is_better else -r.scores[s])
            for s in range(len(r.seats))
        ]
        order = sorted(set(keyed))
        ranks = [float(order.index(k) + 1) for k in keyed]
        new = model.rate(teams, ranks=ranks)
        by_name: dict[str, list[tuple[float, float]]] = {}
        for seat, name in enumerate(r.seats):
            by_name.setdefault(name, []).append((new[seat][0].mu, new[seat][0].sigma))
        for name, values in by_name.items():
            mu = sum(v[0] for v in values) / len(values)
            sigma = sum(v[1] for v in values) / len(values)
            ratings[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return {name: (rt.mu, rt.sigma) for name, rt in ratings.items()}


SIGNIFICANCE = 0.05
"""The level at which :func:`verdict` calls a difference shown."""

SMALL_RUN_DEALS = 30
"""Below this many deals, a difference that does not show is not evidence of none."""


def smallest_sign_p(deals: int) -> float:
    """The smallest p value the sign test can give over ``deals`` deals (all one way)."""
    return min(1.0, 2.0 * 0.5**deals) if deals > 0 else 1.0


def verdict(test: PairedTest, *, level: float = SIGNIFICANCE) -> str:
    """One line on what a comparison of two bots shows, and whether the run can show it.

    >>> verdict(PairedTest("expert", "greedy", 4, 1.0, math.nan, 0.125))
    'expert against greedy: 4 deals are too few to conclude anything (even 4 wins out of 4 would not be significant at the 5 % level)'
    """
    a, b, n = test.a, test.b, test.deals
    if n == 0:
        return f"{a} against {b}: no deal played by both, nothing to conclude"
    if smallest_sign_p(n) >= level:
        deals = "1 deal is" if n == 1 else f"{n} deals are"
        return (
            f"{a} against {b}: {deals} too few to conclude anything (even {n} "
            f"{'win' if n == 1 else 'wins'} out of {n} "
            f"would not be significant at the {100 * level:g} % level)"
        )
    if math.isnan(test.p_value):
        p, name = test.sign_p_value, "sign test"
    else:
        p, name = test.p_value, "paired t test"
    score = (
        ""
        if math.isnan(test.score_p_value)
        else f"; score {test.score_difference:+.2f} a game, p = {test.score_p_value:.2g}"
    )
    if p < level:
        better = a if test.mean_difference > 0 else b
        worse = b if better == a else a
        return f"{better} wins more often than {worse} ({name}, p = {p:.2g}, {n} deals){score}"
    if n < SMALL_RUN_DEALS:
        return (
            f"{a} against {b}: no difference in wins shown ({name}, p = {p:.2g}), but {n} deals "
            f"are too few to conclude that there is none; only a large difference shows in so "
            f"few deals{score}"
        )
    return f"{a} against {b}: no significant difference in wins ({name}, p = {p:.2g}, {n} deals){score}"
