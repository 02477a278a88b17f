"""The CPU work of the puzzle page, as plain functions for the worker pool (:mod:`.workers`).

Like :mod:`.jobs`, each takes and returns plain, picklable values and imports only the
engine and the solvers. A puzzle's position is *place every card*: any table that the
engine's commit checks accept (RULES.md §2.2, the player has opened) and that leaves the
hand empty solves it, whatever the stored solution is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from openrummy.cards import Card
from openrummy.errors import RummyError
from openrummy.melds import Meld
from openrummy.messages import Reason

__all__ = ["UNRATED", "answer_job", "judge_job", "steps_job"]

UNRATED = frozenset(
    {
        "puzzle.bad_answer",
        "puzzle.declare_invalid",
        "illegal.finish_not_in_hand",
        "illegal.groups_not_hand",
        "not_in_hand",
    }
)
"""Answers the rules refuse (unreadable, a card not in the hand, not a valid declaration):
the reasons, and no rating."""


def _left(before: Sequence[Meld], hand: Sequence[Card], after: Sequence[Meld]) -> int:
    """How many cards the hand holds after the play (retrieved jokers kept count too)."""
    rest = Counter(hand) + Counter(c for m in before for c in m.cards)
    rest.subtract(c for m in after for c in m.cards)
    return sum(n for n in rest.values() if n > 0)


def judge_job(
    rules: Any,
    before: Sequence[str],
    hand: Sequence[str],
    table: Sequence[str],
    *,
    hand_only: Sequence[bool] | None = None,
    retrievals: Sequence[str] = (),
) -> dict[str, Any]:
    """Judge a proposed table for a puzzle: the table check of the game page
    (:func:`openrummy.games.judge.check_table`, meld by meld), the engine's commit checks
    against the puzzle's position, and what that means for the puzzle.

    The answer holds the check's fields (``melds``, ``opening``, ``violations``, ``ok``,
    ``checked``) and ``valid`` (the engine would accept the play), ``left`` (cards still in
    the hand), ``solved`` and ``messages`` (why not, or that it is solved, as reasons of the
    message catalogue).
    """
    from openrummy.games.actions import Play, parse_action
    from openrummy.games.commit import commit_violations
    from openrummy.games.judge import check_table

    from .jobs import rules_of

    rules = rules_of(rules)
    start = [Meld.parse(m) for m in before]
    cards = [Card.parse(c) for c in hand]
    checked = check_table(rules, table, opened=True, hand_only=hand_only, retrievals=retrievals)
    out: dict[str, Any] = checked.to_json()
    out.update(valid=False, solved=False, left=len(cards))
    bad = [m for m in checked.melds if not m.valid]
    if bad:
        problems = [
            m.problem if m.problem is not None else Reason.of("puzzle.bad_answer", action=m.meld)
            for m in bad
        ]
        out["messages"] = [Reason.of("puzzle.not_valid", violations=tuple(problems)).to_json()]
        return out
    try:
        melds = [Meld.parse(m.meld) for m in checked.melds]
        text = " ".join(str(m) for m in melds) or "[]"
        if retrievals:
            text += " retrieve " + " ".join(retrievals)
        play = parse_action(f"play {text}", seat=0)
        assert isinstance(play, Play)
        violations = commit_violations(
            rules,
            table_before=start,
            hand=cards,
            table_after=play.table,
            opened=True,
            retrievals=play.retrievals,
        )
    except (RummyError, ValueError, AssertionError):
        out["messages"] = [Reason.of("puzzle.bad_answer", action=" ".join(table)[:80]).to_json()]
        return out
    out["violations"] = [{**v.to_json(), "text": str(v)} for v in violations]
    out["ok"] = not violations
    out["checked"] = True
    if violations:
        why = tuple(v.why for v in violations)
        out["messages"] = [Reason.of("puzzle.not_valid", violations=why).to_json()]
        return out
    left = _left(start, cards, play.table)
    out.update(valid=True, left=left, solved=left == 0)
    if left:
        out["messages"] = [Reason.of("puzzle.cards_left", count=left).to_json()]
    else:
        out["messages"] = [Reason.of("puzzle.solved").to_json()]
    return out


def steps_job(rules: Any, before: Sequence[str], after: Sequence[str], lang: str) -> list[str]:
    """The stored solution as steps a player can follow, in ``lang`` (English, German)."""
    from openrummy.solve import explain

    return explain(
        [Meld.parse(m) for m in before],
        [Meld.parse(m) for m in after],
        lang=lang,
        rules=rules.meld_rules,
        tiles=bool(getattr(rules, "tiles", False)),
    )


def answer_job(puzzle: Any, answer: str) -> dict[str, Any]:
    """An Indian puzzle's answer judged by :func:`openrummy.puzzles.check` (any valid
    declaration solves), as JSON with ``valid``: whether the rules accept it as an answer at
    all (a throw of a card the hand does not hold, an unreadable answer, or a declaration the
    rules refuse is not an attempt)."""
    from openrummy.puzzles import check

    result = check(puzzle, answer)
    messages = [dict(m) for m in result.messages]
    hand = {str(c) for c in puzzle.hand}
    for m in messages:
        if m.get("reason") == "puzzle.wrong_card" and m.get("card") not in hand:
            m.clear()
            m.update(Reason.of("not_in_hand", card=str(answer).split()[-1]).to_json())
    valid = result.solved or not any(m.get("reason") in UNRATED for m in messages)
    return {"valid": valid, "solved": result.solved, "left": 0, "messages": messages}
