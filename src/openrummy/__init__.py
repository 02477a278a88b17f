"""OpenRummy: engines, exact solvers and tools for the rummy family.

The everyday API is flat::

    >>> from openrummy import Card, Meld, find_preset
    >>> Meld.parse("[KS AS 2S]").check(find_preset("robbers").meld_rules)
    'K-A-2 is not a run with the ace low only'
"""

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
