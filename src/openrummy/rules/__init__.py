"""Rule presets and options (RULES.md §10).

A preset is a complete, validated option set found by name; overrides use the option names
of RULES.md::

    >>> from openrummy.rules import find_preset
    >>> find_preset("rummikub").opening.threshold
    30
    >>> find_preset("robbers", {"meld.ace_mode": "WRAPAROUND"}).meld.ace_mode.name
    'WRAPAROUND'
    >>> find_preset("robbers", **{"opening.treshold": 30})
    Traceback (most recent call last):
      ...
    openrummy.errors.ConfigError: unknown option 'opening.treshold'; opening has: opening.type, opening.threshold, opening.run_length, opening.ace_value, opening.value_scheme, opening.joker_value, opening.allow_table_play_same_turn
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from openrummy.errors import ConfigError
from openrummy.rules.common import (
    AceMode,
    DeckKind,
    FirstDealer,
    FirstPlayer,
    MatchFormat,
    ScoringMode,
)
from openrummy.rules.indian import PRESETS as _INDIAN_PRESETS
from openrummy.rules.indian import IndianRules
from openrummy.rules.manipulation import PRESETS as _MANIPULATION_PRESETS
from openrummy.rules.manipulation import (
    Disposition,
    FailMode,
    JokerValue,
    ManipulationRules,
    MeldOwnership,
    Mobility,
    OpeningType,
    ReplacementSource,
    StalemateScoring,
    StalemateWinner,
    TurnModel,
    ValueScheme,
)
from openrummy.rules.options import OptionSet

__all__ = [
    "PRESETS",
    "AceMode",
    "DeckKind",
    "Disposition",
    "FailMode",
    "FirstDealer",
    "FirstPlayer",
    "IndianRules",
    "JokerValue",
    "ManipulationRules",
    "MatchFormat",
    "MeldOwnership",
    "Mobility",
    "OpeningType",
    "OptionSet",
    "ReplacementSource",
    "Rules",
    "ScoringMode",
    "StalemateScoring",
    "StalemateWinner",
    "TurnModel",
    "ValueScheme",
    "find_preset",
    "preset_names",
]

Rules = ManipulationRules | IndianRules
"""The rules of a game of any family (``rules.family`` says which)."""

PRESETS: Final[Mapping[str, Callable[[], Rules]]] = {
    **_MANIPULATION_PRESETS,
    **_INDIAN_PRESETS,
}
"""Every preset by name, manipulation games first (RULES.md §10)."""


def preset_names() -> list[str]:
    return list(PRESETS)


def find_preset(name: str, overrides: Mapping[str, object] | None = None, /, **kw: object) -> Rules:
    """The preset ``name`` with ``overrides`` applied (dotted option names).

    Raises :class:`ConfigError` for an unknown preset, an unknown option, a bad value or an
    inconsistent combination.
    """
    key = name.strip().lower().replace("-", "_")
    if key not in PRESETS:
        raise ConfigError(f"unknown game {name!r}; presets: {', '.join(PRESETS)}")
    return PRESETS[key]().with_options(overrides, **kw)
