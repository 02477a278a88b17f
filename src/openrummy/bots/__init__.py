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

from collections.abc import Callable, Sequence
from typing import Any

from openrummy.games.actions import Action
from openrummy.games.families import Match
from openrummy.games.manipulation import PlayRejected

from .base import Bot, SeenPosition, read_view
from .registry import BotInfo, bot_infos, make_bot, register_bot
from .simple import RandomBot, SimpleBot

__all__ = [
    "Bot",
    "BotInfo",
    "RandomBot",
    "SeenPosition",
    "SimpleBot",
    "bot_infos",
    "make_bot",
    "play_match",
    "read_view",
    "register_bot",
]


def play_match(
    match: Match,
    bots: Sequence[Bot],
    *,
    on_action: Callable[[Action, Any], None] | None = None,
    max_actions: int = 200_000,
) -> Any:
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
            legal = match.legal_kinds()
            word = next(w for w in ("draw", "pass", "end") if w in legal)
            result = match.apply(match.parse_action(word, seat))
        if on_action is not None:
            on_action(result.action, result)
    raise RuntimeError(f"the match did not end within {max_actions} actions")
