"""``rummy arrange``: the Indian Rummy hand solver over JSON lines (one hand per line).

Each input line is an object::

    {"game": "indian13", "indicator": "2C", "hand": ["3H", "4H", ...], "options": {...}}

* ``game``: a preset (default ``indian13``); ``options``: overrides by option name, as in
  ``rummy solve`` (``{"scoring.loser_meld_credit": "PURE_ONLY"}``);
* ``indicator`` (the wild-joker card turned up) or ``wild_rank`` (``2``, ``"Q"``; without an
  indicator there are no 21-card upper/lower jokers); one of them is required, and
  ``"wild_rank": null`` says the hand has no wild rank;
* ``hand``: a list of cards or one string; hand size (13) or, after the draw, one more;
* ``groups`` (optional): a shown grouping to judge as a declaration (list of lists);
* ``id`` (optional): echoed back.

A line that does not start with ``{`` is read as a position in the notation of
``docs/positions.md``; its preset, options, indicator and the seat's hand are used::

    indian13 | hand 3H 4H 5H 9S JK JS QC QD QH KS 7D 5C 3C | indicator 2C | sizes 13 13

Each output line answers its input line: the least-deadwood ``groups`` (wild identities
written ``JK=QS``), ``deadwood``, ``points`` (capped) and ``declarable``; after the draw also
the best ``discard`` and ``declare_with`` (a finish card, or null); with ``groups`` a
``declaration`` verdict. A line that cannot be read gets ``{"error": "...", "line": n}``
and the other lines are still answered.

    >>> line = '{"indicator": "2C", "hand": "3H 4H 5H 9S JK JS QC QD QH KS 7D 5C 3C"}'
    >>> print(next(arrange_lines([line])))  # doctest: +NORMALIZE_WHITESPACE
    {"groups": [["3H", "4H", "5H"], ["JS", "JK=QS", "KS"], ["QC", "QD", "QH"]],
     "deadwood": ["9S", "7D", "5C", "3C"], "points": 24, "declarable": false,
     "kinds": ["PURE_SEQUENCE", "SEQUENCE", "SET"], "raw": 24, "credited": true,
     "game": "indian13", "wild_rank": "2", "indicator": "2C"}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from openrummy.cards import Card, check_deck_kind, parse_cards
from openrummy.errors import RummyError
from openrummy.melds import Meld, MeldItem
from openrummy.messages import Reason
from openrummy.rules import find_preset
from openrummy.rules.indian import IndianRules, Wilds
from openrummy.solve.hand import (
    Arrangement,
    Declaration,
    analyse_draw,
    check_declaration,
    check_hand,
    find_declaration,
    min_deadwood,
)

__all__ = ["arrange_line", "arrange_lines"]

_KNOWN: frozenset[str] = frozenset(
    {"game", "indicator", "wild_rank", "hand", "options", "groups", "id"}
)
_RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}


def arrange_lines(
    lines: Iterable[str],
    *,
    pretty: bool = False,
    errors: list[int] | None = None,
    lang: str = "en",
) -> Iterator[str]:
    """Answer each non-blank input line (``#`` starts a comment line) with one output line
    (or, with ``pretty``, a block of text for people). The numbers of lines answered with
    an error are appended to ``errors`` when given (the CLI's exit status)."""
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        answer = arrange_line(text, line=number)
        if errors is not None and "error" in answer:
            errors.append(number)
        yield _pretty(answer, number, lang) if pretty else json.dumps(answer)


def arrange_line(text: str, *, line: int = 1) -> dict[str, object]:
    """The answer object for one input line; errors become ``{"error": ..., "line": n}``.

    Its values are JSON values (text, numbers, lists and objects of them), typed
    ``object`` because their shape depends on the key."""
    if not text.lstrip().startswith("{"):
        try:
            return _answer(_from_notation(text))
        except RummyError as e:
            from openrummy.solve.jsonl import notation_error

            return {"error": notation_error(text, e), "line": line}
    try:
        request = json.loads(text)
    except json.JSONDecodeError as e:
        from openrummy.solve.jsonl import json_error

        return {"error": json_error(e), "line": line}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object", "line": line}
    try:
        return _answer(request)
    except RummyError as e:
        out: dict[str, Any] = {"error": str(e), "line": line}
        if "id" in request:
            out["id"] = request["id"]
        return out


def _answer(req: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(req) - _KNOWN)
    if unknown:
        raise RummyError(f"unknown field {unknown[0]!r}; fields: {', '.join(sorted(_KNOWN))}")
    game = req.get("game", "indian13")
    if not isinstance(game, str):
        raise RummyError("game must be a preset name such as indian13")
    options = req.get("options") or {}
    if not isinstance(options, dict):
        raise RummyError('options must be an object such as {"scoring.cap": 60}')
    rules = find_preset(game, options)
    if not isinstance(rules, IndianRules):
        raise RummyError(f"{game} is not an Indian Rummy game: use indian13, indian10 or indian21")
    wilds = _wilds(req, rules)
    if "hand" not in req:
        raise RummyError('a line needs "hand": the cards, e.g. ["3H", "4H", "JK"]')
    hand = _cards(req["hand"], "hand")
    check_deck_kind(hand, tiles=False, game=rules.name)
    size = rules.deal.hand_size
    check_hand(hand, rules, wilds, (size, size + 1))
    out: dict[str, Any] = {}
    if len(hand) == size:
        arr = min_deadwood(hand, rules, wilds)
        out.update(_arrangement(arr))
        dec = find_declaration(hand, rules, wilds)
        out["declarable"] = dec.valid
        out.update(_arrangement_tail(arr))
        if dec.valid:
            out["declaration"] = _declaration(dec)
    else:
        analysis = analyse_draw(hand, rules, wilds)
        out.update(_arrangement(analysis.after_discard))
        out["declarable"] = analysis.declare_with is not None
        out.update(_arrangement_tail(analysis.after_discard))
        out["discard"] = str(analysis.discard)
        out["declare_with"] = str(analysis.declare_with) if analysis.declare_with else None
        if analysis.declaration is not None:
            out["declaration"] = _declaration(analysis.declaration)
    if "groups" in req:
        shown = _groups(req["groups"])
        check_deck_kind(
            (c for m in shown for it in m.items for c in (it.card, it.represents) if c),
            tiles=False,
            game=rules.name,
        )
        cards = hand if len(hand) == size else None
        verdict = check_declaration(shown, rules, wilds, cards=cards)
        out["submitted"] = _declaration(verdict)
    out["game"] = rules.name
    out["wild_rank"] = _rank_text(wilds.wild_rank)
    if wilds.indicator is not None:
        out["indicator"] = str(wilds.indicator)
    if "id" in req:
        out["id"] = req["id"]
    return out


def _from_notation(text: str) -> dict[str, object]:
    """A request object from a position in notation (the seat's hand and the indicator)."""
    from openrummy.position import Position
    from openrummy.solve.jsonl import require_fields

    p = Position.parse(text)
    if not isinstance(p.rules, IndianRules):
        raise RummyError(f"{p.game} is not an Indian Rummy game: use rummy solve")
    require_fields(text, ("hand",))
    return {
        "game": p.game,
        "options": dict(p.options),
        "indicator": str(p.indicator),
        "hand": [str(c) for c in p.hand],
    }


def _wilds(req: Mapping[str, Any], rules: IndianRules) -> Wilds:
    # Every Indian preset has a wild rank, so a line that names neither the indicator nor
    # the rank has forgotten it; "wild_rank": null says on purpose that there is none.
    if "indicator" not in req and "wild_rank" not in req:
        raise RummyError(Reason.of("input.needs_wild_rank"))
    indicator = req.get("indicator")
    wild_rank = req.get("wild_rank")
    ind = None
    if indicator is not None:
        if not isinstance(indicator, str):
            raise RummyError('indicator must be a card such as "2C" or "JK"')
        ind = Card.parse(indicator)
        check_deck_kind([ind], tiles=False, game=rules.name)
    rank = None if wild_rank is None else _parse_rank(wild_rank)
    return rules.wilds(ind, wild_rank=rank)


def _parse_rank(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 13:
        return value
    if isinstance(value, str):
        text = value.strip().upper()
        if text in _RANK_WORDS:
            return _RANK_WORDS[text]
        if text.isdigit() and 1 <= int(text) <= 13:
            return int(text)
    raise RummyError(f"wild_rank {value!r} is not a rank (A, 2..10, J, Q, K or 1..13)")


def _rank_text(rank: int | None) -> str | None:
    if rank is None:
        return None
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


def _cards(value: object, what: str) -> list[Card]:
    if isinstance(value, str):
        return parse_cards(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [Card.parse(v) for v in value]
    raise RummyError(f"{what} must be a list of cards or a string of cards")


def _groups(value: object) -> list[Meld]:
    if not isinstance(value, list):
        raise RummyError('groups must be a list of groups, e.g. [["4S","5S","6S"], ...]')
    out = []
    for g in value:
        if isinstance(g, str):
            out.append(Meld.parse(g))
        elif isinstance(g, list) and g and all(isinstance(t, str) for t in g):
            out.append(Meld(tuple(MeldItem.parse(t) for t in g)))
        else:
            raise RummyError(f"group {g!r} must be a list of cards (JK=9H for a joker)")
    return out


def _meld_tokens(m: Meld) -> list[str]:
    return [str(it) for it in m.items]


def _arrangement(arr: Arrangement) -> dict[str, Any]:
    return {
        "groups": [_meld_tokens(g) for g in arr.groups],
        "deadwood": [str(c) for c in arr.deadwood],
        "points": arr.points,
    }


def _arrangement_tail(arr: Arrangement) -> dict[str, Any]:
    return {"kinds": [k.name for k in arr.kinds], "raw": arr.raw, "credited": arr.credited}


def _declaration(dec: Declaration) -> dict[str, Any]:
    out: dict[str, Any] = {"valid": dec.valid, "form": dec.form}
    if dec.valid:
        out["groups"] = [_meld_tokens(g) for g in dec.groups]
        out["kinds"] = [k.name for k in dec.kinds]
        if dec.loose:
            out["loose"] = [str(c) for c in dec.loose]
    else:
        out["reason"] = dec.reason
    return out


# -- text for people ----------------------------------------------------------------------
_KIND_WORDS = {
    "PURE_SEQUENCE": "pure sequence",
    "SEQUENCE": "sequence",
    "SET": "set",
    "TUNNELA": "tunnela",
    "DUBLEE": "dublee",
    "JOKER_GROUP": "joker group",
}


def _pc(token: str, lang: str = "en") -> str:
    """A card token (``JK=QS``) in card symbols."""
    left, eq, right = token.partition("=")
    text = Card.parse(left).pretty(lang)
    return f"{text}={Card.parse(right).pretty(lang)}" if eq else text


def _pretty(ans: Mapping[str, Any], number: int, lang: str = "en") -> str:
    if "error" in ans:
        return f"line {number}: error: {ans['error']}"
    head = f"line {number} · {ans['game']} · wild rank {ans['wild_rank'] or 'none'}"
    if "indicator" in ans:
        head += f" (indicator {_pc(ans['indicator'], lang)})"
    lines = [head]
    if "discard" in ans:
        lines.append(f"  throw {_pc(ans['discard'], lang)}; then:")
    for group, kind in zip(ans["groups"], ans["kinds"], strict=True):
        cards = " ".join(_pc(t, lang) for t in group)
        lines.append(f"  [{cards}]  {_KIND_WORDS.get(kind, kind.lower())}")
    dead = " ".join(_pc(t, lang) for t in ans["deadwood"]) or "none"
    counted = "" if ans["credited"] else " (the melds do not count: no qualifying sequences)"
    capped = f", capped at {ans['points']}" if ans["points"] != ans["raw"] else ""
    lines.append(f"  deadwood: {dead} = {ans['raw']} points{capped}{counted}")
    if "declare_with" in ans:
        finish = ans["declare_with"]
        lines.append(
            f"  declare now: yes, with {_pc(finish, lang)} as the finish card"
            if finish
            else "  declare now: no"
        )
    else:
        lines.append(f"  declarable: {'yes' if ans['declarable'] else 'no'}")
    dec = ans.get("declaration")
    if dec and dec.get("valid"):
        shown = "  ".join("[" + " ".join(_pc(t, lang) for t in g) + "]" for g in dec["groups"])
        lines.append(f"  declaration ({dec['form']}): {shown}")
        if dec.get("loose"):
            lines.append("  loose: " + " ".join(_pc(t, lang) for t in dec["loose"]))
    sub = ans.get("submitted")
    if sub is not None:
        verdict = "valid" if sub["valid"] else f"invalid: {sub['reason']}"
        lines.append(f"  shown grouping: {verdict}")
    return "\n".join(lines)
