"""Rummy puzzles: positions with one clearly best answer, generated from seeds.

* *place every card* (Robbers' Rummy, Rummikub): rearrange the table so that the whole hand
  is placed (:mod:`openrummy.puzzles.manipulation`);
* Indian Rummy: *declare*, *the one safe throw*, *the draw that wins*
  (:mod:`openrummy.puzzles.indian`).

:func:`check` judges an answer with the engine's reasons; :func:`shipped_puzzles` reads the
shipped sets; :mod:`openrummy.puzzles.glicko2` rates puzzles and players.
"""

from openrummy.puzzles.check import CheckResult, check
from openrummy.puzzles.glicko2 import Rating, update
from openrummy.puzzles.model import (
    Difficulty,
    Puzzle,
    PuzzleError,
    PuzzleKind,
    load_puzzles,
    shipped_puzzles,
)

__all__ = [
    "CheckResult",
    "Difficulty",
    "Puzzle",
    "PuzzleError",
    "PuzzleKind",
    "Rating",
    "check",
    "load_puzzles",
    "shipped_puzzles",
    "update",
]
