"""Shared test helpers: build positions from text; the random samples' seed; golden files.

The submodules hold the heavier helpers: ``positions`` (seeded random table positions and
the engine's re-check of a solver answer), ``ilp_reference`` (the HiGHS model of the table
problem), ``hand_reference`` (the Indian hand references), ``server`` and ``players``
(server test clients), ``e2e`` (browser tests).
"""

from __future__ import annotations

import gzip
import json
import os
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from openrummy.cards import Card, parse_cards
from openrummy.games.actions import Play, Retrieval
from openrummy.games.manipulation import ManipulationGame
from openrummy.melds import Meld
from openrummy.rules import IndianRules, ManipulationRules, find_preset


def manipulation_rules(
    name: str, overrides: Mapping[str, object] | None = None, /, **kw: object
) -> ManipulationRules:
    """``find_preset`` for a manipulation game (Robbers' Rummy, Rummikub), typed as such."""
    rules = find_preset(name, overrides, **kw)
    assert isinstance(rules, ManipulationRules), f"{name} is not a manipulation game"
    return rules


def indian_rules(
    name: str, overrides: Mapping[str, object] | None = None, /, **kw: object
) -> IndianRules:
    """``find_preset`` for an Indian Rummy game, typed as such."""
    rules = find_preset(name, overrides, **kw)
    assert isinstance(rules, IndianRules), f"{name} is not an Indian Rummy game"
    return rules


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def melds(*texts: str) -> tuple[Meld, ...]:
    return tuple(Meld.parse(t) for t in texts)


def position(
    rules: ManipulationRules,
    hands: Sequence[str],
    table: Sequence[str] = (),
    stock: str = "",
    opened: Sequence[bool] | bool = True,
    current: int = 0,
) -> ManipulationGame:
    """A game where seat 0 (P1) is to move; hands and table given in notation."""
    opened_list = [opened] * len(hands) if isinstance(opened, bool) else list(opened)
    return ManipulationGame.from_position(
        rules,
        hands=[parse_cards(h) for h in hands],
        table=[Meld.parse(t) for t in table],
        stock=parse_cards(stock),
        opened=opened_list,
        current=current,
    )


def play(
    seat: int,
    *table: str,
    retrievals: Sequence[tuple[int, str, str]] = (),
    from_table: bool = False,
) -> Play:
    return Play(
        seat,
        melds(*table),
        tuple(
            Retrieval(m, Card.parse(ident), Card.parse(rep), from_table=from_table)
            for m, ident, rep in retrievals
        ),
    )


G = TypeVar("G", bound=Any)


def hidden_shuffled(game: G, seat: int, rng: random.Random) -> G:
    """A copy of ``game`` in which everything ``seat`` cannot see (the other hands and the
    stock) is dealt anew. The seat's view must not change: that is the no-leak property."""
    other = game.copy()
    pool = [c for s in range(game.players) if s != seat for c in game.hands[s]] + list(game.stock)
    rng.shuffle(pool)
    for s in range(game.players):
        if s != seat:
            n = len(game.hands[s])
            other.hands[s], pool = pool[:n], pool[n:]
    other._stock = pool[::-1]
    shuffled: G = other
    return shuffled


SAMPLE_SEED_VARIABLE = "OPENRUMMY_SAMPLE_SEED"
DATA = Path(__file__).resolve().parents[1] / "data"


def sample_seed() -> int:
    """This run's seed for fresh random samples (drawn by tests/conftest.py)."""
    return int(os.environ[SAMPLE_SEED_VARIABLE])


def loose(value: object) -> Any:
    """A JSON value (``to_json()``, a server message) as a test reads it: indexed by what the
    test expects to be there, so a wrong shape fails the test (KeyError, TypeError)."""
    return value


def golden(name: str) -> list[dict[str, Any]]:
    """The lines of ``tests/data/<name>`` (JSON lines, gzipped), as written by ``scripts/``."""
    with gzip.open(DATA / name, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
