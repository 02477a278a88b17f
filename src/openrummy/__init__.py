"""OpenRummy: engines, exact solvers and tools for the rummy family.

The everyday API is flat::

    >>> from openrummy import Card, Meld, find_preset
    >>> Meld.parse("[KS AS 2S]").check(find_preset("robbers").meld_rules)
    'K-A-2 is not a run with the ace low only'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openrummy.cards import JOKER, Card, Suit, parse_cards
    from openrummy.errors import (
        ConfigError,
        IllegalActionError,
        InvalidMeldError,
        NotationError,
        RecordError,
        RummyError,
    )
    from openrummy.events import Event, EventCode, Violation
    from openrummy.games.actions import ActionKind, parse_action
    from openrummy.games.families import FAMILIES, Family, new_game, new_match
    from openrummy.games.indian import IndianGame, IndianMatch
    from openrummy.games.legal import LegalActions
    from openrummy.games.manipulation import ManipulationGame
    from openrummy.games.match import ManipulationMatch
    from openrummy.games.views import IndianView, ManipulationView, View
    from openrummy.melds import AceMode, Meld, MeldItem, MeldKind, MeldRules
    from openrummy.position import Position
    from openrummy.rules import Rules, find_preset, preset_names

# Names are loaded when first used (PEP 562), so that ``rummy --help`` and a program that
# needs only cards and melds do not pay for the games and the solver.
_LAZY: dict[str, str] = {
    "JOKER": "openrummy.cards",
    "Card": "openrummy.cards",
    "Suit": "openrummy.cards",
    "parse_cards": "openrummy.cards",
    "ConfigError": "openrummy.errors",
    "IllegalActionError": "openrummy.errors",
    "InvalidMeldError": "openrummy.errors",
    "NotationError": "openrummy.errors",
    "RecordError": "openrummy.errors",
    "RummyError": "openrummy.errors",
    "Event": "openrummy.events",
    "EventCode": "openrummy.events",
    "Violation": "openrummy.events",
    "ActionKind": "openrummy.games.actions",
    "parse_action": "openrummy.games.actions",
    "FAMILIES": "openrummy.games.families",
    "Family": "openrummy.games.families",
    "new_game": "openrummy.games.families",
    "new_match": "openrummy.games.families",
    "IndianGame": "openrummy.games.indian",
    "IndianMatch": "openrummy.games.indian",
    "LegalActions": "openrummy.games.legal",
    "ManipulationGame": "openrummy.games.manipulation",
    "ManipulationMatch": "openrummy.games.match",
    "IndianView": "openrummy.games.views",
    "ManipulationView": "openrummy.games.views",
    "View": "openrummy.games.views",
    "AceMode": "openrummy.melds",
    "Meld": "openrummy.melds",
    "MeldItem": "openrummy.melds",
    "MeldKind": "openrummy.melds",
    "MeldRules": "openrummy.melds",
    "Position": "openrummy.position",
    "Rules": "openrummy.rules",
    "find_preset": "openrummy.rules",
    "preset_names": "openrummy.rules",
}

__all__ = [
    "FAMILIES",
    "JOKER",
    "AceMode",
    "ActionKind",
    "Card",
    "ConfigError",
    "Event",
    "EventCode",
    "Family",
    "IllegalActionError",
    "IndianGame",
    "IndianMatch",
    "IndianView",
    "InvalidMeldError",
    "LegalActions",
    "ManipulationGame",
    "ManipulationMatch",
    "ManipulationView",
    "Meld",
    "MeldItem",
    "MeldKind",
    "MeldRules",
    "NotationError",
    "Position",
    "RecordError",
    "Rules",
    "RummyError",
    "Suit",
    "View",
    "Violation",
    "find_preset",
    "new_game",
    "new_match",
    "parse_action",
    "parse_cards",
    "preset_names",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'openrummy' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
