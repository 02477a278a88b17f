"""Game analysis: every decision of a recorded game judged from its seat's knowledge.

    >>> from openrummy.analysis import analyse_record, AnalysisSettings
    >>> from openrummy.record import GameRecord

:func:`analyse_record` gives a :class:`GameAnalysis`: the exact facts of each decision
(unplaced cards, a missed going-out or declaration, a worse throw or draw), the win chance
before and after it by play-outs, its grade (lichess's thresholds) and each player's accuracy.
:func:`win_chance_chart` draws the win chance over the game (matplotlib, PNG).
"""

from openrummy.analysis.core import AnalysisSettings, Decision, GameAnalysis, analyse_record
from openrummy.analysis.grades import Grade, accuracy, grade
from openrummy.analysis.winchance import WinChance

__all__ = [
    "AnalysisSettings",
    "Decision",
    "GameAnalysis",
    "Grade",
    "WinChance",
    "accuracy",
    "analyse_record",
    "grade",
]
