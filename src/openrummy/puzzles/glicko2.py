"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), for puzzles and solvers.

A rating is ``(rating, deviation, volatility)`` on the Glicko scale (a new player: 1500, 350,
0.06). :func:`update` applies one rating period's results; a puzzle attempt is a game between
the player and the puzzle (solved: the player scores 1). The paper's worked example gives
1464.06, 151.52 and 0.05999 (it rounds its intermediate values):

    >>> r = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
    ...                                     (Rating(1700, 300), 0.0)])
    >>> round(r.rating, 1), round(r.deviation, 2), round(r.volatility, 6)
    (1464.1, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Rating", "update"]

_SCALE = 173.7178
TAU = 0.5
"""The system constant: how fast volatility may change (the paper suggests 0.3 to 1.2)."""


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """``player`` after one rating period of ``results`` (opponent, score 0..1).

    With no results only the deviation grows (step 6 of the paper).
    """
    mu = (player.rating - 1500.0) / _SCALE
    phi = player.deviation / _SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(350.0, phi_star * _SCALE), sigma)
    v_inv = 0.0
    delta_sum = 0.0
    for opp, score in results:
        mu_j = (opp.rating - 1500.0) / _SCALE
        phi_j = opp.deviation / _SCALE
        e = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    # step 5: the new volatility by the Illinois algorithm
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    eps = 1e-6
    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > eps:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = c, f_c
    sigma_new = math.exp(big_a / 2.0)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Rating(mu_new * _SCALE + 1500.0, phi_new * _SCALE, sigma_new)
