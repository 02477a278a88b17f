"""Checking an answer to a puzzle, with the engine's reasons.

Any answer the rules accept solves a puzzle, not only the stored one: for *place every card*
any valid table that keeps every table card and places every hand card (the engine's commit
checks, RULES.md §2.2); for *declare* any valid grouping of the cards left after the chosen
throw. The answer is text in the action notation:

* place every card: the table, ``[R3 R4 R5] [K7 R7 O7] ...`` (``play`` in front is allowed);
* declare: ``declare QC [3H 4H 5H] ...``;
* the one safe throw: ``discard 8H`` or ``8H``;
* the draw that wins: ``take`` or ``draw`` (a declaration may follow: ``take; declare ...``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openrummy.cards import Card
from openrummy.errors import RummyError
from openrummy.games.actions import Declare, Discard, Play, parse_action
from openrummy.games.commit import commit_violations
from openrummy.melds import Meld
from openrummy.messages import Reason, render
from openrummy.rules import IndianRules, ManipulationRules, find_preset
from openrummy.solve.hand import check_declaration

from .model import Puzzle, PuzzleKind

__all__ = ["CheckResult", "check", "check_table"]


@dataclass(frozen=True, slots=True)
class CheckResult:
    """Whether the answer solves the puzzle, and why not (messages of the catalogue)."""

    solved: bool
    messages: tuple[Mapping[str, Any], ...]

    def render(self, lang: str = "en") -> list[str]:
        return [render(m, lang) for m in self.messages]

    def to_json(self) -> dict[str, Any]:
        return {"solved": self.solved, "messages": [dict(m) for m in self.messages]}


def _reason(key: str, **params: Any) -> Mapping[str, Any]:
    return Reason.of(key, **params).to_json()


def _solved(key: str = "puzzle.solved") -> CheckResult:
    return CheckResult(True, (_reason(key),))


def check_table(
    rules: ManipulationRules,
    table: Sequence[Meld],
    hand: Sequence[Card],
    answer: Sequence[Meld],
) -> CheckResult:
    """Does ``answer`` (the whole table after the play) place every card of ``hand``?"""
    violations = commit_violations(
        rules, table_before=table, hand=hand, table_after=answer, opened=True
    )
    if violations:
        return CheckResult(
            False, (_reason("puzzle.not_valid", violations=tuple(v.why for v in violations)),)
        )
    before = Counter(c for m in table for c in m.cards)
    after = Counter(c for m in answer for c in m.cards)
    left = len(hand) - sum((after - before).values())
    if left > 0:
        return CheckResult(False, (_reason("puzzle.cards_left", count=left),))
    return _solved()


def check(puzzle: Puzzle, answer: str) -> CheckResult:
    """Judge ``answer`` (text, see the module docstring); bad input is a reason, never a crash."""
    rules = find_preset(puzzle.game)
    text = answer.strip()
    try:
        if puzzle.kind is PuzzleKind.PLACE_ALL:
            assert isinstance(rules, ManipulationRules)
            action = parse_action(text if text.startswith("play") else f"play {text}", seat=0)
            assert isinstance(action, Play)
            return check_table(rules, puzzle.table, puzzle.hand, action.table)
        assert isinstance(rules, IndianRules)
        if puzzle.kind is PuzzleKind.SAFE_THROW:
            card = Card.parse(text.removeprefix("discard").strip())
            if card != puzzle.card:
                return CheckResult(False, (_reason("puzzle.wrong_card", card=str(card)),))
            return _solved("puzzle.solved_answer")
        if puzzle.kind is PuzzleKind.WINNING_DRAW:
            first, _, rest = text.partition(";")
            if first.strip() != puzzle.draw:
                return CheckResult(False, (_reason("puzzle.wrong_draw", action=first.strip()),))
            if not rest.strip():
                return _solved("puzzle.solved_answer")
            hand = [*puzzle.hand, *puzzle.discard[-1:]]
            return _check_declare(rules, puzzle, hand, rest.strip())
        return _check_declare(rules, puzzle, list(puzzle.hand), text)
    except (RummyError, ValueError, AssertionError):
        return CheckResult(False, (_reason("puzzle.bad_answer", action=text[:80]),))


def _check_declare(rules: IndianRules, puzzle: Puzzle, hand: list[Card], text: str) -> CheckResult:
    action = parse_action(text, seat=0)
    if isinstance(action, Discard):
        raise ValueError("a discard does not declare")
    assert isinstance(action, Declare)
    if action.finish not in hand:
        return CheckResult(False, (_reason("illegal.finish_not_in_hand", card=str(action.finish)),))
    rest = list(hand)
    rest.remove(action.finish)
    assert puzzle.indicator is not None
    wilds = rules.wilds(puzzle.indicator)
    try:
        verdict = check_declaration(action.groups, rules, wilds, cards=rest)
    except RummyError:
        return CheckResult(False, (_reason("illegal.groups_not_hand"),))
    if not verdict.valid:
        problem = verdict.problem or Reason.of("declare.invalid")
        return CheckResult(False, (_reason("puzzle.declare_invalid", problem=problem),))
    return _solved("puzzle.solved_declaration")
