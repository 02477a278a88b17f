"""The game families, in one static table (python-chess's ``VARIANTS``).

Every family has the same API (``legal_actions``, ``is_legal``, ``parse_action``, ``apply``,
``view``, ``outcome``, ``copy``), for a single round (hand) and for a whole match; the table
says which classes play which family's rules::

    >>> from openrummy.rules import find_preset
    >>> FAMILIES["indian"].match.__name__, family_of(find_preset("rummikub")).game.__name__
    ('IndianMatch', 'ManipulationGame')
    >>> match = new_match(find_preset("indian13"), 3, seed=1)
    >>> type(match).__name__, sorted(map(str, match.legal_kinds()))
    ('IndianMatch', ['draw', 'drop', 'take'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias, overload

from openrummy.cards import Card
from openrummy.errors import ConfigError
from openrummy.rules import IndianRules, ManipulationRules, Rules
from openrummy.rules.indian import PRESETS as INDIAN_PRESETS
from openrummy.rules.manipulation import PRESETS as MANIPULATION_PRESETS

from .indian import IndianGame, IndianMatch
from .manipulation import ManipulationGame
from .match import ManipulationMatch
from .standings import Standings
from .views import IndianView, ManipulationView

__all__ = ["FAMILIES", "Family", "Game", "Match", "family_of", "new_game", "new_match"]

Game: TypeAlias = ManipulationGame | IndianGame
"""One round (hand) of any family."""

Match: TypeAlias = ManipulationMatch | IndianMatch
"""A match of any family."""


@dataclass(frozen=True, slots=True)
class Family:
    """One family of games: its rules, round, match and view classes and its presets."""

    name: str
    """``rules.family`` of its rules."""
    title: str
    rules: type[ManipulationRules] | type[IndianRules]
    game: type[ManipulationGame] | type[IndianGame]
    match: type[ManipulationMatch] | type[IndianMatch]
    view: type[ManipulationView] | type[IndianView]
    presets: Mapping[str, Callable[[], Rules]]


FAMILIES: Final[Mapping[str, Family]] = {
    "manipulation": Family(
        name="manipulation",
        title="Robbers' Rummy, Rummikub, Vatikan",
        rules=ManipulationRules,
        game=ManipulationGame,
        match=ManipulationMatch,
        view=ManipulationView,
        presets=MANIPULATION_PRESETS,
    ),
    "indian": Family(
        name="indian",
        title="Indian Rummy",
        rules=IndianRules,
        game=IndianGame,
        match=IndianMatch,
        view=IndianView,
        presets=INDIAN_PRESETS,
    ),
}
"""Every family by name (``rules.family``)."""


def family_of(rules: Rules) -> Family:
    """The family that plays ``rules``."""
    try:
        return FAMILIES[rules.family]
    except KeyError:
        raise ConfigError(f"no game engine for the {rules.family} family") from None


@overload
def new_match(
    rules: ManipulationRules,
    players: int,
    *,
    seed: int | str = ...,
    decks: Sequence[Sequence[Card]] | None = ...,
    first_dealer: int | None = ...,
    clock: Callable[[], float] | None = ...,
    started_at: float | None = ...,
    standings: Standings | Mapping[str, object] | None = ...,
) -> ManipulationMatch: ...
@overload
def new_match(
    rules: IndianRules,
    players: int,
    *,
    seed: int | str = ...,
    decks: Sequence[Sequence[Card]] | None = ...,
    first_dealer: int | None = ...,
    clock: Callable[[], float] | None = ...,
    started_at: float | None = ...,
    standings: Standings | Mapping[str, object] | None = ...,
) -> IndianMatch: ...
@overload
def new_match(
    rules: Rules,
    players: int,
    *,
    seed: int | str = ...,
    decks: Sequence[Sequence[Card]] | None = ...,
    first_dealer: int | None = ...,
    clock: Callable[[], float] | None = ...,
    started_at: float | None = ...,
    standings: Standings | Mapping[str, object] | None = ...,
) -> Match: ...
def new_match(
    rules: Rules,
    players: int,
    *,
    seed: int | str = 0,
    decks: Sequence[Sequence[Card]] | None = None,
    first_dealer: int | None = None,
    clock: Callable[[], float] | None = None,
    started_at: float | None = None,
    standings: Standings | Mapping[str, object] | None = None,
) -> Match:
    """A new match of ``rules``' family (every interface creates matches this way), from
    given ``standings`` if any (:class:`~openrummy.games.standings.Standings`)."""
    family_of(rules)
    if isinstance(rules, IndianRules):
        return IndianMatch(
            rules,
            players,
            seed=seed,
            decks=decks,
            first_dealer=first_dealer,
            clock=clock,
            started_at=started_at,
            standings=standings,
        )
    return ManipulationMatch(
        rules,
        players,
        seed=seed,
        decks=decks,
        first_dealer=first_dealer,
        clock=clock,
        started_at=started_at,
        standings=standings,
    )


@overload
def new_game(
    rules: ManipulationRules,
    players: int,
    *,
    seed: int | str | None = ...,
    clock: Callable[[], float] | None = ...,
) -> ManipulationGame: ...
@overload
def new_game(
    rules: IndianRules,
    players: int,
    *,
    seed: int | str | None = ...,
    clock: Callable[[], float] | None = ...,
) -> IndianGame: ...
@overload
def new_game(
    rules: Rules,
    players: int,
    *,
    seed: int | str | None = ...,
    clock: Callable[[], float] | None = ...,
) -> Game: ...
def new_game(
    rules: Rules,
    players: int,
    *,
    seed: int | str | None = None,
    clock: Callable[[], float] | None = None,
) -> Game:
    """A single new round (hand) of ``rules``' family."""
    family_of(rules)
    if isinstance(rules, IndianRules):
        return IndianGame(rules, players, seed=seed, clock=clock)
    return ManipulationGame(rules, players, seed=seed, clock=clock)
