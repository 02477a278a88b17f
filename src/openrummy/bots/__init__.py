"""Computer players. Every bot decides from its seat's view only.

>>> from openrummy.rules import find_preset
>>> from openrummy.games.match import ManipulationMatch
>>> rules = find_preset("robbers")
>>> match = ManipulationMatch(rules, 3, seed=1)
>>> outcome = play_match(match, [SimpleBot(rules), SimpleBot(rules), RandomBot(rules, 1)])
>>> outcome is match.outcome and len(outcome.totals)
3
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from openrummy.games.actions import Action
from openrummy.games.manipulation import PlayRejected, Result
from openrummy.games.match import ManipulationMatch, MatchOutcome

from .base import Bot, SeenPosition, read_view
from .simple import RandomBot, SimpleBot, make_bot

__all__ = ["Bot", "RandomBot", "SeenPosition", "SimpleBot", "make_bot", "play_match", "read_view"]


def play_match(
    match: ManipulationMatch,
    bots: Sequence[Bot],
    *,
    on_action: Callable[[Action, Result], None] | None = None,
    max_actions: int = 200_000,
) -> MatchOutcome:
    """Let ``bots`` (one per seat) play ``match`` to its end; returns the outcome."""
    if len(bots) != match.players:
        raise ValueError(f"{match.players} seats need {match.players} bots, got {len(bots)}")
    for _ in range(max_actions):
        if match.outcome is not None:
            return match.outcome
        seat = match.current
        action = bots[seat].choose(match.view(seat))
        try:
            result = match.apply(action)
        except PlayRejected:
            # Under fail.mode = REJECT a refused play changes nothing: draw or pass instead.
            fallback = next(iter(match.game.legal_actions()))
            result = match.apply(dataclasses.replace(fallback, seat=seat))
        if on_action is not None:
            on_action(result.action, result)
    raise RuntimeError(f"the match did not end within {max_actions} actions")
