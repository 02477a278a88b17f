"""Which match class plays which rule family (``rules.family``).

Families register themselves on import; :func:`new_match` is how every interface (records,
tournaments, the server) creates a match without knowing the family.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable
from typing import Any

from openrummy.errors import ConfigError

from .base import Match

__all__ = ["new_match", "register_family"]

_FAMILIES: dict[str, Callable[..., Match]] = {}
_MODULES = {"manipulation": "openrummy.games.match", "indian": "openrummy.games.indian"}


def register_family(family: str, factory: Callable[..., Match]) -> None:
    _FAMILIES[family] = factory


def new_match(rules: Any, players: int, **kwargs: Any) -> Match:
    """A new match of ``rules``' family (``seed``, ``decks``, ``clock`` … as keywords)."""
    family = rules.family
    if family not in _FAMILIES and family in _MODULES:
        with contextlib.suppress(ModuleNotFoundError):
            importlib.import_module(_MODULES[family])
    if family not in _FAMILIES:
        raise ConfigError(f"no match engine for the {family} family")
    return _FAMILIES[family](rules, players, **kwargs)
