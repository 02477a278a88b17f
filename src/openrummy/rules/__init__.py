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

import contextlib
import importlib
from collections.abc import Callable, Mapping
from typing import Any

from openrummy.errors import ConfigError
from openrummy.rules.common import (
    AceMode,
    DeckKind,
    FirstDealer,
    FirstPlayer,
    MatchFormat,
    ScoringMode,
)
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
    "AceMode",
    "DeckKind",
    "Disposition",
    "FailMode",
    "FirstDealer",
    "FirstPlayer",
    "JokerValue",
    "ManipulationRules",
    "MatchFormat",
    "MeldOwnership",
    "Mobility",
    "OpeningType",
    "OptionSet",
    "ReplacementSource",
    "ScoringMode",
    "StalemateScoring",
    "StalemateWinner",
    "TurnModel",
    "ValueScheme",
    "find_preset",
    "preset_names",
    "register_preset",
]

_REGISTRY: dict[str, Callable[[], Any]] = dict(_MANIPULATION_PRESETS)


def register_preset(name: str, factory: Callable[[], Any]) -> None:
    """Make a preset findable by name (families register theirs on import)."""
    _REGISTRY[name] = factory


def _load_families() -> None:
    # Families outside this module register themselves when imported.
    with contextlib.suppress(ModuleNotFoundError):
        importlib.import_module("openrummy.rules.indian")


def preset_names() -> list[str]:
    _load_families()
    return list(_REGISTRY)


def find_preset(name: str, overrides: Mapping[str, object] | None = None, /, **kw: object) -> Any:
    """The preset ``name`` with ``overrides`` applied (dotted option names).

    Raises :class:`ConfigError` for an unknown preset, an unknown option, a bad value or an
    inconsistent combination.
    """
    _load_families()
    key = name.strip().lower().replace("-", "_")
    if key not in _REGISTRY:
        raise ConfigError(f"unknown game {name!r}; presets: {', '.join(_REGISTRY)}")
    rules = _REGISTRY[key]()
    assert isinstance(rules, OptionSet)
    return rules.with_options(overrides, **kw)
