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
from openrummy.games.manipulation import ManipulationGame
from openrummy.games.match import ManipulationMatch
from openrummy.melds import AceMode, Meld, MeldItem, MeldKind, MeldRules
from openrummy.position import Position
from openrummy.rules import find_preset

__all__ = [
    "JOKER",
    "AceMode",
    "Card",
    "ConfigError",
    "Event",
    "EventCode",
    "IllegalActionError",
    "InvalidMeldError",
    "ManipulationGame",
    "ManipulationMatch",
    "Meld",
    "MeldItem",
    "MeldKind",
    "MeldRules",
    "NotationError",
    "Position",
    "RecordError",
    "RummyError",
    "Suit",
    "Violation",
    "find_preset",
    "parse_cards",
]

__version__ = "0.1.0"
