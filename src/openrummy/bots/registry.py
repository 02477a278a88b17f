"""Bots by name: ``make_bot("greedy", rules, seed)`` for any family that bot plays.

Every bot of the package is in one static table, :data:`BOTS`; :func:`register_bot` adds
a bot of your own.
"""

from __future__ import annotations

from typing import Final

from openrummy.rules import Rules

from . import indian, indian_ladder, levels, manipulation_ladder, simple
from .base import Bot, BotInfo

__all__ = ["BOTS", "BotInfo", "bot_infos", "make_bot", "register_bot"]

BOTS: Final[tuple[BotInfo, ...]] = (
    *simple.BOTS,
    *manipulation_ladder.BOTS,
    *indian.BOTS,
    *indian_ladder.BOTS,
    *levels.BOTS,
    *levels.LEVEL_BOTS,
)
"""Every bot of the package, by family: manipulation games first, then Indian Rummy."""

_BY_NAME: dict[tuple[str, str], BotInfo] = {
    (info.name, family): info for info in BOTS for family in info.families
}


def register_bot(info: BotInfo) -> None:
    """Make a bot of your own findable by :func:`make_bot` (it replaces one of the same name)."""
    for family in info.families:
        _BY_NAME[(info.name, family)] = info


def bot_infos(family: str | None = None) -> list[BotInfo]:
    """Known bots (for one family, or all), weakest first.

    Without a family, a name that two families implement differently (Indian ``greedy`` and
    the manipulation games' ``greedy``) is listed once per implementation.
    """
    seen: dict[int, BotInfo] = {}
    for (_name, fam), info in _BY_NAME.items():
        if family is None or fam == family:
            seen.setdefault(id(info), info)
    return sorted(seen.values(), key=lambda i: (i.level, i.name, sorted(i.families)))


def make_bot(name: str, rules: Rules, seed: int = 0) -> Bot:
    """A new bot ``name`` for ``rules``' family; raises ValueError naming the known bots."""
    family = rules.family
    key = (name.strip().lower(), family)
    if key not in _BY_NAME:
        known = ", ".join(i.name for i in bot_infos(family)) or "none"
        raise ValueError(f"unknown bot {name!r} for {family} games; bots: {known}")
    return _BY_NAME[key].factory(rules, seed)
