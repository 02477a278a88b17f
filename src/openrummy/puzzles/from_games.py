"""Puzzles from real games: positions where the analysis found a missed going-out.

A seat that could have placed its whole hand (the analysis's ``analysis.missed_out`` fact)
faced a 'place every card' position; when its solution needs a rearrangement and the near
miss places fewer cards (:func:`~openrummy.puzzles.manipulation.place_all_puzzle`), the
position becomes a puzzle whose source names the record's game and the action's index.
"""

from __future__ import annotations

from openrummy.analysis import GameAnalysis
from openrummy.games.manipulation import ManipulationGame
from openrummy.games.views import ManipulationView
from openrummy.record import GameRecord
from openrummy.rules import ManipulationRules

from .manipulation import place_all_puzzle
from .model import Puzzle

__all__ = ["puzzles_from_record"]


def puzzles_from_record(record: GameRecord, analysis: GameAnalysis) -> list[Puzzle]:
    """The puzzles of ``record``'s missed going-outs (the analysis must be of ``record``),
    each position once."""
    wanted = {
        d.index for d in analysis.decisions if any(f.key == "analysis.missed_out" for f in d.facts)
    }
    if not wanted:
        return []
    match = record.new_match()
    rules = match.rules
    if not isinstance(rules, ManipulationRules):
        return []
    out: list[Puzzle] = []
    for i, action in enumerate(record.actions):
        if i > max(wanted):
            break
        game = match.game
        if i in wanted and isinstance(game, ManipulationGame):
            local = match.seats.index(action.seat)
            view = game.view(local)
            assert isinstance(view, ManipulationView) and view.hand is not None
            if view.opened[local]:
                p = place_all_puzzle(
                    rules, view.table, view.hand, source=f"record:{record.game}:{i}"
                )
                if p is not None and all(q.id != p.id for q in out):
                    out.append(p)
        match.apply(action)
    return out
