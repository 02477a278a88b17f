"""Option values shared by several rule families (RULES.md §10.1)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from openrummy.errors import ConfigError
from openrummy.melds import AceMode

__all__ = [
    "LEGACY_POOL_FORMATS",
    "AceMode",
    "DeckKind",
    "DeckOptions",
    "FirstDealer",
    "FirstPlayer",
    "MatchFormat",
    "PlayersOptions",
    "ScoringMode",
    "upgrade_pool_format",
]


class DeckKind(Enum):
    CARDS = "CARDS"
    TILES = "TILES"


class ScoringMode(Enum):
    PENALTY_LOW = "PENALTY_LOW"
    """Penalty points for cards left in hand; lower is better (Robbers' Rummy, Indian)."""
    ZERO_SUM_HIGH = "ZERO_SUM_HIGH"
    """Losers lose their rack value, the winner gains it; higher is better (Rummikub)."""
    NONE = "NONE"
    """No scores: the first player out wins (S003)."""


class MatchFormat(Enum):
    ROUNDS_LOWEST_TOTAL = "ROUNDS_LOWEST_TOTAL"
    ROUNDS_HIGHEST_TOTAL = "ROUNDS_HIGHEST_TOTAL"
    FIRST_TO_N_OUTS = "FIRST_TO_N_OUTS"
    SINGLE_ROUND = "SINGLE_ROUND"
    # Indian Rummy formats (RULES.md §5.5)
    POINTS = "POINTS"
    POOL = "POOL"
    """Hands until one player is left below ``pool.threshold`` (61, 101 or 201)."""
    DEALS = "DEALS"
    FIXED_HANDS = "FIXED_HANDS"
    """``match.hands`` hands; the lowest total wins."""


#: Match-format names of earlier versions, read as (format, pool.threshold); records and
#: option lists that use them still load (see docs/record-format.md).
LEGACY_POOL_FORMATS: dict[str, tuple[MatchFormat, int]] = {
    "POOL_61": (MatchFormat.POOL, 61),
    "POOL_101": (MatchFormat.POOL, 101),
    "POOL_201": (MatchFormat.POOL, 201),
}


def upgrade_pool_format(merged: dict[str, object], *, threshold_option: bool = True) -> None:
    """Rewrite ``match.format = POOL_101`` (and ``POOL_201``, ``POOL_61``) in an override
    mapping to ``POOL`` with that ``pool.threshold``, in place (without the threshold for a
    family that has no ``pool`` options, whose validation then names the format)."""
    raw = merged.get("match.format")
    if not isinstance(raw, str) or raw.strip().upper() not in LEGACY_POOL_FORMATS:
        return
    fmt, threshold = LEGACY_POOL_FORMATS[raw.strip().upper()]
    given = merged.get("pool.threshold")
    if given is not None and str(given).strip() != str(threshold):
        raise ConfigError(
            f"match.format = {raw} means pool.threshold = {threshold}, "
            f"but pool.threshold = {given} is given too"
        )
    merged["match.format"] = fmt.name
    if threshold_option:
        merged["pool.threshold"] = threshold


class FirstDealer(Enum):
    HIGH_CUT = "HIGH_CUT"
    LOW_CUT = "LOW_CUT"
    RANDOM = "RANDOM"


class FirstPlayer(Enum):
    LEFT_OF_DEALER = "LEFT_OF_DEALER"
    HIGHEST_TILE = "HIGHEST_TILE"


@dataclass(frozen=True, slots=True)
class PlayersOptions:
    min: int = 2
    """The fewest players a game may start with (at least 2)."""
    max: int = 5
    """The most players a game may start with."""


@dataclass(frozen=True, slots=True)
class DeckOptions:
    kind: DeckKind = DeckKind.CARDS
    """What the game is played with: CARDS (standard 52-card decks) or TILES (numbered tiles 1 to
    13 in four colours, as in Rummikub).
    """
    standard_decks: int = 2
    """How many 52-card decks are shuffled together; with tiles, how many copies of each tile there
    are (1 to 4).
    """
    printed_jokers: int = 4
    """How many printed jokers (or joker tiles) are added to the deck. A joker may stand for any
    card.
    """

    @property
    def size(self) -> int:
        return 52 * self.standard_decks + self.printed_jokers
