"""Grading a decision by the win chance it gives away, with lichess's thresholds.

lichess measures a move by how much it lowers the mover's winning chances, on a scale from
-1 (certain loss) to +1 (certain win), and calls a drop of 0.1 an inaccuracy, 0.2 a mistake
and 0.3 a blunder. Our win chance is a probability from 0 to 1 (half that scale's width), so
the same thresholds are 0.05, 0.10 and 0.15:

    >>> grade(0.60, 0.58), grade(0.60, 0.54), grade(0.60, 0.49), grade(0.60, 0.40)
    (<Grade.GOOD: 'good'>, <Grade.INACCURACY: 'inaccuracy'>, <Grade.MISTAKE: 'mistake'>, <Grade.BLUNDER: 'blunder'>)

A decision's accuracy is lichess's formula on the drop in percent points,
``103.1668 · exp(-0.04354 · drop) - 3.1669`` clipped to 0..100: 100 for a drop of 0, about
80 for 5 points, 50 for 15 points. A player's accuracy is the mean over their decisions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import Enum

__all__ = ["BLUNDER", "INACCURACY", "MISTAKE", "Grade", "accuracy", "grade", "mean_accuracy"]

INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.15


class Grade(Enum):
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


def grade(before: float, after: float) -> Grade:
    """The grade of a decision that moved the mover's win chance from ``before`` to ``after``."""
    drop = before - after
    if drop >= BLUNDER - 1e-12:
        return Grade.BLUNDER
    if drop >= MISTAKE - 1e-12:
        return Grade.MISTAKE
    if drop >= INACCURACY - 1e-12:
        return Grade.INACCURACY
    return Grade.GOOD


def accuracy(before: float, after: float) -> float:
    """lichess's accuracy of one decision (0..100) from the win chances before and after.

    >>> round(accuracy(0.5, 0.5), 1), round(accuracy(0.5, 0.35), 1)
    (100.0, 50.5)
    """
    drop = max(0.0, before - after) * 100.0
    if drop == 0.0:
        return 100.0
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


def mean_accuracy(values: Iterable[float]) -> float | None:
    """The mean accuracy of a player's decisions (``None`` when there are none)."""
    vs = list(values)
    return sum(vs) / len(vs) if vs else None
