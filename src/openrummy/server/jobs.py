"""The CPU-heavy work of the web page's helpers, as plain functions for the worker pool.

Each takes and returns plain, picklable values (rules, cards, JSON dicts), so it runs the
same in a worker process as in a worker thread (:mod:`.workers`), and imports only the engine
and the solvers: a worker process never loads the web framework. A refusal the player should
read comes back as ``{"refused": message}`` rather than as an exception, because an exception
of the engine is not always picklable.
"""

from __future__ import annotations

import functools
import pickle
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openrummy.cards import Card
from openrummy.errors import RummyError
from openrummy.games.actions import Play
from openrummy.games.commit import Violation
from openrummy.games.manipulation import PlayPosition
from openrummy.melds import Meld

__all__ = [
    "check_job",
    "deck_counts",
    "deck_counts_of",
    "hand_job",
    "hint",
    "hint_job",
    "over_deck",
    "pack_rules",
    "warm",
]


def warm() -> None:
    """Import what the jobs use, once per worker process (its first request is then fast)."""
    import openrummy.games.judge
    import openrummy.solve  # noqa: F401


def pack_rules(rules: Any) -> bytes:
    """The rules pickled, for a job: a server packs a table's rules once (pickling them
    takes a third of a millisecond, on the event loop's side of the pool), and each worker
    unpacks the same bytes once (:func:`rules_of`)."""
    return pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)


@functools.lru_cache(maxsize=64)
def _unpack(packed: bytes) -> Any:
    return pickle.loads(packed)


def rules_of(rules: Any) -> Any:
    """A job's rules: given as they are, or packed by :func:`pack_rules`."""
    return _unpack(rules) if isinstance(rules, bytes) else rules


def deck_counts(rules: Any) -> Counter[Card]:
    """How many of each card (or tile) the rules' deck holds (shared: do not change it)."""
    deck = rules.deck
    return deck_counts_of(
        deck.standard_decks, deck.printed_jokers, bool(getattr(rules, "tiles", False))
    )


@functools.lru_cache(maxsize=64)
def deck_counts_of(decks: int, jokers: int, tiles: bool) -> Counter[Card]:
    """How many of each card (or tile) a deck of ``decks`` decks and ``jokers`` printed
    jokers (``tiles``: a tile set) holds (shared: do not change it)."""
    from openrummy.cards import standard_deck, tile_set

    if tiles:
        return Counter(tile_set(decks, jokers))
    return Counter(standard_deck(decks, jokers))


def over_deck(counts: Counter[Card], cards: Counter[Card]) -> str | None:
    """Why ``cards`` cannot all be in one game with this deck, or None if they can.

    >>> from openrummy.rules import find_preset
    >>> deck = deck_counts(find_preset("robbers"))
    >>> over_deck(deck, Counter(Card.parse(c) for c in ["JK"] * 4))
    >>> over_deck(deck, Counter(Card.parse(c) for c in ["JK"] * 5))
    'the deck has 4 of JK, not 5'
    """
    for card, n in cards.items():
        have = counts.get(card, 0)
        if n > have:
            return f"the deck has {have} of {card}, not {n}"
    return None


def table_cards(melds: Sequence[str]) -> Counter[Card]:
    """The cards of the melds that can be read (the others are judged, and refused, later)."""
    out: Counter[Card] = Counter()
    for text in melds:
        try:
            meld = Meld.parse(text)
        except RummyError:
            continue
        out.update(item.card for item in meld.items)
    return out


def check_job(
    rules: Any,
    table: Sequence[str],
    *,
    opened: bool,
    hand_only: Sequence[bool] | None,
    retrievals: Sequence[str],
    position: PlayPosition | None,
) -> dict[str, Any]:
    """:func:`openrummy.games.judge.check_table`, as JSON; with ``position`` (taken when it
    was the seat's turn) the commit checks judge the play as the game would have."""
    from openrummy.games.judge import check_table

    rules = rules_of(rules)
    return check_table(
        rules,
        table,
        opened=opened,
        hand_only=hand_only,
        retrievals=retrievals,
        game=None if position is None else _PositionChecker(rules, position),
        seat=None if position is None else position.seat,
    ).to_json()


@dataclass(frozen=True, slots=True)
class _PositionChecker:
    """The commit checks of :class:`~openrummy.games.judge.PlayChecker`, on a position."""

    rules: Any
    position: PlayPosition

    def check_play(self, play: Play) -> list[Violation]:
        return self.position.check_play(self.rules, play)


def hint(rules: Any, view: dict[str, Any], lang: str) -> dict[str, Any]:
    """The solver's best play from this seat's view, as a table and as steps."""
    from openrummy.messages import render
    from openrummy.solve import best_play
    from openrummy.solve.explain import card_label, explain_messages

    rules = rules_of(rules)
    seat = view["seat"]
    table = [Meld.parse("[" + " ".join(m) + "]") for m in view["table"]]
    hand = [Card.parse(t) for t in view["hand"]]
    opened = bool(view["opened"][seat])
    play = best_play(rules, table, hand, opened=opened)
    if play.is_pass:
        return {
            "found": False,
            "table": None,
            "steps": [],
            "step_messages": [],
            "placed": [],
            "count": 0,
        }
    messages = explain_messages(list(play.before), list(play.table), rules.meld_rules)
    return {
        "found": True,
        "table": [str(m) for m in play.table],
        "steps": [render(m, lang, label=card_label) for m in messages],
        "step_messages": [m.to_json() for m in messages],
        "placed": [str(c) for c in play.placed],
        "count": play.count,
        "opening": [str(m) for m in play.opening],
        "goes_out": not play.hand,
    }


def hint_job(rules: Any, view: dict[str, Any], lang: str) -> dict[str, Any]:
    """:func:`hint`, with the solver's refusal as ``{"refused": …}``."""
    try:
        return hint(rules, view, lang)
    except RummyError as e:
        return {"refused": str(e)}


def hand_job(
    rules: Any,
    hand: Sequence[str],
    indicator: str,
    *,
    groups: Sequence[Sequence[str]],
    finish: str | None,
    auto: bool,
) -> dict[str, Any]:
    """:func:`openrummy.games.judge.judge_hand` as JSON, a refusal as ``{"refused": …}``."""
    from openrummy.games.judge import judge_hand

    rules = rules_of(rules)
    try:
        return judge_hand(
            rules,
            [Card.parse(t) for t in hand],
            Card.parse(indicator),
            groups=groups,
            finish=finish,
            auto=auto,
        ).to_json()
    except RummyError as e:
        return {"refused": str(e)}
