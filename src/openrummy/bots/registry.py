"""Bots by name: ``make_bot("greedy", rules, seed)`` for any family that bot plays."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .base import Bot

__all__ = ["BotInfo", "bot_infos", "make_bot", "register_bot"]


@dataclass(frozen=True, slots=True)
class BotInfo:
    name: str
    description: str
    families: frozenset[str]
    factory: Callable[[Any, int], Bot]
    level: int = 0
    """Place on the ladder: 0 random, 1 simple/greedy, 2 strategic, 3 expert."""


_BOTS: dict[tuple[str, str], BotInfo] = {}


def register_bot(info: BotInfo) -> None:
    for family in info.families:
        _BOTS[(info.name, family)] = info


def bot_infos(family: str | None = None) -> list[BotInfo]:
    """Registered bots (for one family, or all), weakest first.

    Without a family, a name that two families implement differently (Indian ``greedy`` and
    the manipulation games' ``greedy``) is listed once per implementation.
    """
    _load(family)
    seen: dict[int, BotInfo] = {}
    for (_name, fam), info in _BOTS.items():
        if family is None or fam == family:
            seen.setdefault(id(info), info)
    return sorted(seen.values(), key=lambda i: (i.level, i.name, sorted(i.families)))


_FAMILY_MODULES = {
    "manipulation": ("openrummy.bots.simple", "openrummy.bots.manipulation_ladder"),
    "indian": ("openrummy.bots.indian", "openrummy.bots.indian_ladder"),
}


def _load(family: str | None) -> None:
    import importlib

    for fam, modules in _FAMILY_MODULES.items():
        if family is None or fam == family:
            for module in modules:
                importlib.import_module(module)


def make_bot(name: str, rules: Any, seed: int = 0) -> Bot:
    """A new bot ``name`` for ``rules``' family; raises ValueError naming the known bots."""
    family = rules.family
    _load(family)
    key = (name.strip().lower(), family)
    if key not in _BOTS:
        known = ", ".join(i.name for i in bot_infos(family)) or "none"
        raise ValueError(f"unknown bot {name!r} for {family} games; bots: {known}")
    return _BOTS[key].factory(rules, seed)
