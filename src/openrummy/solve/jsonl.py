"""``rummy solve``: positions as JSON lines in, best plays as JSON lines out.

One position per input line::

    {"game": "robbers", "options": {"meld.ace_mode": "WRAPAROUND"}, "opened": true,
     "table": [["4S","5S","6S","7S"]], "hand": ["3S","4H","4D"]}

``game`` is a preset name, ``options`` (optional) overrides by RULES.md option name,
``opened`` (optional) defaults to true, ``table`` is a list of melds or a flat list of
cards (then only the multiset matters), ``hand`` a list of cards. Cards are in the
project's notation (``TS`` = ``10S``; ``JK`` is a joker, ``JK=4S`` one with its identity).

A line that does not start with ``{`` is read as a position in the notation of
``docs/positions.md`` (the seat's hand, the table, and whether the seat has opened)::

    robbers | hand 3S 4H 4D JK | table [4S 5S 6S 7S] | opened 0

One output line per input line, in order: the answer, or ``{"error": "..."}`` for that
line alone (blank lines are skipped)::

    >>> line = '{"game":"robbers","table":[["4S","5S","6S","7S"]],"hand":["3S","4H","4D","JK"]}'
    >>> out = json.loads(next(solve_lines([line])))
    >>> out["count"], out["placed"], out["hand"]
    (4, ['3S', '4H', '4D', 'JK'], [])
    >>> out = json.loads(next(solve_lines(["robbers | hand 3S 4H 4D JK | table [4S 5S 6S 7S] | opened 0"])))
    >>> out["count"], out["hand"]
    (4, [])
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from openrummy.cards import Card, check_deck_kind
from openrummy.errors import NotationError, RummyError
from openrummy.melds import Meld, MeldItem
from openrummy.messages import Reason
from openrummy.rules import find_preset
from openrummy.rules.manipulation import ManipulationRules
from openrummy.solve import compiled
from openrummy.solve.explain import explain
from openrummy.solve.settings import DEFAULT_SETTINGS, SolverSettings
from openrummy.solve.table import BestPlay, best_play

__all__ = [
    "CLI_SETTINGS",
    "json_error",
    "notation_error",
    "parse_position",
    "play_to_json",
    "read_notation",
    "solve_line",
    "solve_lines",
]


CLI_SETTINGS = SolverSettings(python_first=2_000)
"""``rummy solve``'s settings: a process that solves one small position spares the compiled
core's load (most of its start-up), and one that needs the compiled core loses a few tens
of milliseconds to the Python core's try (2,000 states)."""


def parse_position(
    data: Mapping[str, object],
) -> tuple[ManipulationRules, list[Meld] | list[Card], list[Card], bool]:
    """Rules, table, hand and ``opened`` from one decoded input object."""
    if not isinstance(data, Mapping):
        raise NotationError("each line must be a JSON object")
    unknown = set(data) - {"game", "options", "opened", "table", "hand"}
    if unknown:
        raise NotationError(f"unknown field(s): {', '.join(sorted(unknown))}")
    game = data.get("game")
    if not isinstance(game, str):
        raise NotationError('"game" must name a preset, e.g. "robbers" or "rummikub"')
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise NotationError('"options" must be an object of option names and values')
    rules = find_preset(game, dict(options))
    if not isinstance(rules, ManipulationRules):
        raise NotationError(f"{game!r} is not a manipulation game (robbers, rummikub, …)")
    opened = data.get("opened", True)
    if not isinstance(opened, bool):
        raise NotationError('"opened" must be true or false')
    # Both are required: a forgotten field is a mistake to report, not an empty list
    # (an empty table or hand is written [] on purpose).
    for name in ("hand", "table"):
        if name not in data:
            raise NotationError(Reason.of("input.needs_field", field=name))
    raw_table = data["table"]
    raw_hand = data["hand"]
    if not isinstance(raw_table, list) or not isinstance(raw_hand, list):
        raise NotationError('"table" and "hand" must be lists')
    hand = [_card(x) for x in raw_hand]
    check_deck_kind(hand, tiles=rules.tiles, game=rules.name)
    if any(isinstance(x, list) for x in raw_table):
        if not all(isinstance(x, list) for x in raw_table):
            raise NotationError('"table" must be all melds (lists) or all cards')
        melds = [Meld(tuple(_item(t) for t in m)) for m in raw_table]
        check_deck_kind(_meld_cards(melds), tiles=rules.tiles, game=rules.name)
        return rules, melds, hand, opened
    cards = [_item(x).card for x in raw_table]
    check_deck_kind(cards, tiles=rules.tiles, game=rules.name)
    return rules, cards, hand, opened


def _meld_cards(melds: Iterable[Meld]) -> Iterator[Card]:
    """Every card of the melds and every card a joker is declared as."""
    for m in melds:
        for it in m.items:
            yield it.card
            if it.represents is not None:
                yield it.represents


def read_notation(text: str) -> tuple[ManipulationRules, list[Meld], list[Card], bool]:
    """Rules, table, hand and ``opened`` (of the seat) from a position in notation."""
    from openrummy.position import Position

    p = Position.parse(text)
    rules = p.rules
    if not isinstance(rules, ManipulationRules):
        raise NotationError(f"{p.game!r} is not a manipulation game: use rummy arrange")
    require_fields(text, ("hand", "table"))
    return rules, list(p.table), list(p.hand), p.seat in p.opened


def require_fields(text: str, names: Iterable[str]) -> None:
    """A position given to the solver names its hand and table (``-`` when empty): left
    out, they would be taken as empty, which is rarely what was meant."""
    given = {field.split(maxsplit=1)[0] for field in text.split("|")[1:] if field.strip()}
    for name in names:
        if name not in given:
            raise NotationError(Reason.of("input.position_needs_field", field=name))


def json_error(error: json.JSONDecodeError) -> str:
    """A JSON line's decoding error in words, saying when the line looks cut short.

    >>> try:
    ...     json.loads('{"hand": ["3S", "4')
    ... except json.JSONDecodeError as e:
    ...     print(json_error(e))
    not valid JSON: unterminated string starting at column 17 (the line ends too early: is it cut short?)
    """
    what = error.msg.removesuffix(" at").removesuffix(":")
    text = f"not valid JSON: {what[:1].lower()}{what[1:]} at column {error.colno}"
    rest = error.doc[error.pos :].strip()
    truncated = what.startswith("Unterminated") or (not rest and what.startswith("Expecting"))
    if truncated:
        text += " (the line ends too early: is it cut short?)"
    return text


def notation_error(line: str, error: Exception) -> str:
    """The message for a line read as a position that failed: a line without any ``|``
    was more likely meant as JSON, so say both."""
    if "|" not in line:
        return f"not JSON, and not a position ({error})"
    return str(error)


def _card(token: object) -> Card:
    if not isinstance(token, str):
        raise NotationError(f'{token!r} is not a card (write e.g. "10H")')
    if "=" in token:
        return MeldItem.parse(token).card
    return Card.parse(token)


def _item(token: object) -> MeldItem:
    if not isinstance(token, str):
        raise NotationError(f'{token!r} is not a card (write e.g. "10H")')
    return MeldItem.parse(token)


def play_to_json(play: BestPlay, rules: ManipulationRules, ms: float) -> dict[str, object]:
    """The answer line's object (values are JSON values, typed ``object`` because their
    shape depends on the key)."""
    return {
        "count": play.count,
        "value": play.value,
        "placed": [str(c) for c in play.placed],
        "hand": [str(c) for c in play.hand],
        "table": [[str(it) for it in m.items] for m in play.table],
        "steps": explain(list(play.before), list(play.table), rules=rules.meld_rules),
        "ms": round(ms, 3),
    }


def solve_line(line: str, *, settings: SolverSettings = DEFAULT_SETTINGS) -> dict[str, object]:
    """The answer to one input line (JSON, or a position in notation) as a JSON-ready
    object (errors included)."""
    if not line.lstrip().startswith("{"):
        try:
            rules, table, hand, opened = read_notation(line)
        except RummyError as e:
            return {"error": notation_error(line, e)}
        return _solve(rules, table, hand, opened, settings)
    try:
        data = json.loads(line.rstrip())
    except json.JSONDecodeError as e:
        return {"error": json_error(e)}
    try:
        rules, table_or_cards, hand, opened = parse_position(data)
    except RummyError as e:
        return {"error": str(e)}
    return _solve(rules, table_or_cards, hand, opened, settings)


@functools.cache
def _load_compiled() -> None:
    compiled.warm()


def _solve(
    rules: ManipulationRules,
    table: list[Meld] | list[Card],
    hand: list[Card],
    opened: bool,
    settings: SolverSettings,
) -> dict[str, object]:
    def timed(settings: SolverSettings) -> dict[str, object]:
        t0 = time.perf_counter()
        play = best_play(rules, table, hand, opened=opened, settings=settings)
        return play_to_json(play, rules, (time.perf_counter() - t0) * 1000)

    try:
        if settings.compiled and compiled.available():
            if settings.python_first and not compiled.loaded():
                answer = timed(settings)
                if not compiled.loaded():
                    return answer  # the Python core alone answered: nothing was loaded
            # the compiled core whole, before the solve is timed (or timed again)
            _load_compiled()
        return timed(settings)
    except RummyError as e:
        return {"error": str(e)}


def _pretty(result: Mapping[str, Any], n: int, lang: str = "en") -> str:
    if "error" in result:
        return f"#{n}: error: {result['error']}"

    def cards(tokens: Iterable[str]) -> str:
        return " ".join(MeldItem.parse(t).pretty(lang) for t in tokens) or "—"

    lines = [
        f"#{n}: place {result['count']} card(s), value {result['value']} ({result['ms']:.2f} ms)",
        f"  placed: {cards(result['placed'])}",
        f"  hand:   {cards(result['hand'])}",
        "  table:  " + "  ".join("[" + cards(m) + "]" for m in result["table"]),
    ]
    lines.extend(f"  {s}" for s in result["steps"])
    return "\n".join(lines)


def solve_lines(
    lines: Iterable[str],
    *,
    pretty: bool = False,
    settings: SolverSettings = DEFAULT_SETTINGS,
    lang: str = "en",
) -> Iterator[str]:
    """Solve every position; one output line (or block, with ``pretty``, its cards in
    ``lang``'s letters) per input line.

    The compiled solver core (when numba is installed) is loaded before the first solve,
    so that its ``ms`` is the solve's own time, not the load's (about half a second, once
    per process); lines answered with an error do not load it. With
    ``settings.python_first`` (``rummy solve`` sets it), the Python core tries each
    position first until the compiled core is loaded: a small position is answered without
    loading it at all, and a position that needs more states than that loads it and is
    solved again, timed anew. The count and value are the same either way; among plays
    as good, which one is shown may depend on whether an earlier line loaded the core."""
    n = 0
    for line in lines:
        if not line.strip():
            continue
        n += 1
        result = solve_line(line, settings=settings)
        if pretty:
            yield _pretty(result, n, lang)
        else:
            yield json.dumps(result, ensure_ascii=False)
