"""Tournaments between bots: mirrored deals, statistics, ratings, parallel backends."""

from .runner import BACKENDS, TournamentResult, resumable, run_tournament
from .stats import BotSummary, PairedTest, paired_test, summarize
from .tournament import GameResult, TournamentSpec, run_game

__all__ = [
    "BACKENDS",
    "BotSummary",
    "GameResult",
    "PairedTest",
    "TournamentResult",
    "TournamentSpec",
    "paired_test",
    "resumable",
    "run_game",
    "run_tournament",
    "summarize",
]
