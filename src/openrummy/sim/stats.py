"""Tournament statistics: win rates with confidence intervals, paired tests, ratings.

Mirrored games of one deal are not independent (they share the cards), so every interval
and test here treats the **deal** as the unit: a bot's result in a deal is its mean over the
seat rotations of that deal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .tournament import GameResult

__all__ = ["BotSummary", "PairedTest", "paired_test", "rate", "summarize"]

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
            "win_rate": self.win_rate,
            "win_ci95": [self.win_low, self.win_high],
            "mean_score": self.mean_score,
            "score_ci95": [self.score_low, self.score_high],
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
    """Two-sided, paired over deals (t statistic, normal approximation)."""
    sign_p_value: float
    """Two-sided exact sign test over the deals where the two differ."""
    score_difference: float = math.nan
    """Mean over deals of (a's score − b's score), in the game's own points."""
    score_p_value: float = math.nan
    """Two-sided, paired over deals, for the score difference."""
    identical: bool = False
    """Every deal came out exactly even in wins and in score: the two bots very likely made
    the same moves (a bot that falls back to another everywhere), not a close match."""

    def to_json(self) -> dict[str, float | int | str | bool]:
        return {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            "mean_difference": self.mean_difference,
            "p_value": self.p_value,
            "sign_p_value": self.sign_p_value,
            "score_difference": self.score_difference,
            "score_p_value": self.score_p_value,
            "identical": self.identical,
        }


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
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, math.nan, math.nan)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def summarize(
    results: Sequence[GameResult], bots: Sequence[str], *, lower_is_better: bool = True
) -> list[BotSummary]:
    ratings = rate(results, bots, lower_is_better=lower_is_better)
    out: list[BotSummary] = []
    for bot in dict.fromkeys(bots):
        wins = per_deal(results, bot, "win")
        scores = per_deal(results, bot, "score")
        w, wl, wh = _mean_ci(list(wins.values()))
        s, sl, sh = _mean_ci(list(scores.values()))
        games = sum(1 for r in results if r.error is None and bot in r.seats)
        mu, sigma = ratings.get(bot, (0.0, 0.0))
        out.append(BotSummary(bot, games, w, max(0.0, wl), min(1.0, wh), s, sl, sh, mu, sigma))
    return out


def _normal_two_sided(z: float) -> float:
    return float(math.erfc(abs(z) / math.sqrt(2)))


def _sign_test(wins: int, losses: int) -> float:
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2.0 * tail)


def _paired(diffs: Sequence[float]) -> tuple[float, float]:
    """Mean difference and its two-sided p-value (paired t statistic, normal approximation)."""
    n = len(diffs)
    if n == 0:
        return math.nan, math.nan
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.nan
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    p = (1.0 if mean == 0 else 0.0) if var == 0 else _normal_two_sided(mean / math.sqrt(var / n))
    return mean, p


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
