"""Judging a turn while a player builds it, before anything is played.

Two questions a table page asks at every change, answered by the engine and the solvers so the
rules are never written twice:

* :func:`check_table`: a manipulation game's proposed table, meld by meld (valid, why not,
  its opening value, the joker identities that fit), then as a whole play under the commit
  checks C1-C8 (RULES.md §2.2) when it is the player's turn to play;
* :func:`judge_hand`: an Indian Rummy player's grouping (meld kinds, deadwood), the hand
  solver's grouping on request, and the verdict on a declaration before it is made.

Both return frozen records whose ``to_json()`` is what the server's helpers send.

>>> from openrummy.rules import find_preset
>>> check = check_table(find_preset("robbers"), ["[8S JK 10S]", "[6H 6D]"], opened=True)
>>> [(m.valid, m.meld, m.reason) for m in check.melds]
[(True, '[8S JK=9S 10S]', None), (False, '[6H 6D]', '2 cards — a meld needs at least 3')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from openrummy.cards import Card
from openrummy.errors import RummyError
from openrummy.games.jsonvalue import JsonObject, JsonValue
from openrummy.melds import Meld, MeldItem, MeldRules
from openrummy.messages import Reason
from openrummy.rules.indian import IndianRules, LoserMeldCredit
from openrummy.rules.manipulation import ManipulationRules
from openrummy.solve.hand import (
    Arrangement,
    GroupKind,
    analyse_draw,
    check_declaration,
    min_deadwood,
    read_group,
)

from .actions import Play, Retrieval, parse_action
from .commit import Violation, opening_required

__all__ = [
    "MAX_OPEN_JOKERS",
    "AutoArrangement",
    "DeadwoodCount",
    "DeclarationVerdict",
    "GroupCheck",
    "HandJudgement",
    "MeldCheck",
    "OpeningCheck",
    "PlayChecker",
    "TableCheck",
    "check_table",
    "judge_hand",
]

MAX_OPEN_JOKERS = 3
"""Jokers without a stated identity that one meld may hold when the identities that fit are
searched for (the search grows with the number of candidates to that power)."""


class PlayChecker(Protocol):
    """What runs the commit checks on a whole play: a game (``ManipulationGame``), or a
    client's stand-in built from its view."""

    def check_play(self, play: Play) -> list[Violation]: ...


_CHOOSE = Reason.of("meld.choose_joker")
_MAX_CHOICES = 24


# -- manipulation: a proposed table -------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MeldCheck:
    """One proposed meld: valid or why not, its kind and opening value.

    ``meld`` is the meld as the player should now see it: normalised when valid, with the
    joker's identity filled in when only one fits, else as sent. ``choices`` lists the
    identities that fit when there are several; ``opening`` (valid melds only) says whether
    it counts toward the opening (made only of cards from the hand).
    """

    meld: str
    valid: bool = False
    reason: str | None = None
    """Why the meld is not valid, in English words."""
    problem: Reason | None = None
    """The same as data, for the message catalogue (``None`` for a notation error)."""
    kind: str | None = None
    value: int = 0
    choices: tuple[Meld, ...] = ()
    opening: bool = False

    def to_json(self) -> JsonObject:
        out: dict[str, Any] = {
            "valid": self.valid,
            "reason": self.reason,
            "problem": self.problem.to_json() if self.problem is not None else None,
            "kind": self.kind,
            "value": self.value,
            "meld": self.meld,
            "choices": [str(m) for m in self.choices],
        }
        if self.valid:
            out["opening"] = self.opening
        return out


@dataclass(frozen=True, slots=True)
class OpeningCheck:
    """The opening rule against the valid melds made from the hand (RULES.md §2.3)."""

    required: bool
    type: str
    value: int
    threshold: int
    run_length: int
    met: bool

    def to_json(self) -> JsonObject:
        return {
            "required": self.required,
            "type": self.type,
            "value": self.value,
            "threshold": self.threshold,
            "run_length": self.run_length,
            "met": self.met,
        }


@dataclass(frozen=True, slots=True)
class TableCheck:
    """A proposed table judged meld by meld and, when ``checked``, as a whole play.

    ``violations`` are the commit checks the play would fail now (``ok``: none);
    ``notation_error`` says why the retrievals could not be read (then nothing was checked
    beyond the melds, and ``ok`` is false).
    """

    melds: tuple[MeldCheck, ...]
    opening: OpeningCheck
    violations: tuple[Violation, ...] = ()
    notation_error: str | None = None
    ok: bool = False
    checked: bool = False

    def to_json(self) -> JsonObject:
        violations: list[JsonValue]
        if self.notation_error is not None:
            violations = [{"code": "notation", "text": self.notation_error}]
        else:
            violations = [{**v.to_json(), "text": str(v)} for v in self.violations]
        return {
            "melds": [m.to_json() for m in self.melds],
            "opening": self.opening.to_json(),
            "violations": violations,
            "ok": self.ok,
            "checked": self.checked,
        }


def check_table(
    rules: ManipulationRules,
    table: Sequence[str],
    *,
    opened: bool,
    hand_only: Sequence[bool] | None = None,
    retrievals: Sequence[str] = (),
    game: PlayChecker | None = None,
    seat: int | None = None,
) -> TableCheck:
    """Judge a proposed table meld by meld, then as a whole play (RULES.md §2.2).

    ``table``: the melds in notation (``[5H 6H JK]``: a joker may be left open);
    ``opened``: whether the player has opened already; ``hand_only``: per meld, made only
    of cards from the hand (the opening melds); ``retrievals``: jokers taken back, in the
    notation of game records (``1:7D<-7D``). With ``game`` and the player's ``seat`` in it
    (give them only when it is that seat's turn to play) and every meld valid, the engine's
    commit checks judge the play; nothing is played.
    """
    mr = rules.meld_rules
    melds: list[MeldCheck] = []
    resolved: list[Meld] = []
    resolved_by: dict[int, Meld] = {}
    complete = True
    hand_only = hand_only or [False] * len(table)
    for k, text in enumerate(table):
        try:
            meld = Meld.parse(text)
        except RummyError as e:
            melds.append(MeldCheck(text, reason=str(e)))
            complete = False
            continue
        if meld.jokers and meld.check(mr) is not None:
            # The stated identities no longer fit (cards were added or moved): find new ones.
            meld = Meld(tuple(MeldItem(it.card, None) if it.card.is_joker else it for it in meld))
        open_jokers = sum(1 for it in meld.items if it.represents is None)
        if open_jokers > MAX_OPEN_JOKERS or (open_jokers and open_jokers == len(meld)):
            # Too many ways to try (each open joker multiplies them): the player says.
            melds.append(_invalid(text, _CHOOSE))
            complete = False
            continue
        shown = text
        if open_jokers:
            options = meld.assignments(mr)
            if len(options) == 1:
                meld = options[0]
                shown = str(meld)
            elif not options:
                melds.append(_invalid(text, _no_identity_reason(meld, mr)))
                complete = False
                continue
            else:
                melds.append(_invalid(text, _CHOOSE, choices=tuple(options[:_MAX_CHOICES])))
                complete = False
                continue
        problem = meld.problem(mr)
        if problem is not None:
            melds.append(_invalid(shown, problem))
            complete = False
            continue
        kind = meld.kind(mr)
        melds.append(
            MeldCheck(
                str(meld.normalized(mr)),
                valid=True,
                kind=kind.value if kind is not None else None,
                value=rules.opening_value(meld),
                opening=bool(k < len(hand_only) and hand_only[k]),
            )
        )
        resolved.append(meld)
        resolved_by[k] = meld
    opening_total = sum(m.value for m in melds if m.valid and m.opening)
    opening_type = rules.opening.type.name
    run_length = rules.opening.run_length
    if opening_type == "RUN_FROM_HAND":
        met = any(
            m.valid and m.opening and m.kind == "RUN" and len(resolved_by[k]) >= run_length
            for k, m in enumerate(melds)
        )
    else:
        met = opening_total >= rules.opening.threshold
    opening = OpeningCheck(
        required=opening_required(rules) and not opened,
        type=opening_type,
        value=opening_total,
        threshold=rules.opening.threshold,
        run_length=run_length,
        met=met,
    )
    if not (complete and game is not None and seat is not None):
        return TableCheck(tuple(melds), opening)
    try:
        taken = tuple(_retrieval(r) for r in retrievals)
        violations = game.check_play(Play(seat, tuple(resolved), taken))
    except RummyError as e:
        return TableCheck(tuple(melds), opening, notation_error=str(e), checked=True)
    return TableCheck(tuple(melds), opening, tuple(violations), ok=not violations, checked=True)


def _invalid(text: str, problem: Reason, choices: tuple[Meld, ...] = ()) -> MeldCheck:
    return MeldCheck(text, reason=str(problem), problem=problem, choices=choices)


def _no_identity_reason(meld: Meld, mr: MeldRules) -> Reason:
    bare = Meld(tuple(it for it in meld.items if it.represents is not None))
    if len(meld) < mr.min_len:
        return Reason.of("meld.too_short", count=len(meld))
    problem = bare.problem(mr) if len(bare) >= mr.min_len else None
    return problem or Reason.of("meld.no_identity")


def _retrieval(text: str) -> Retrieval:
    """``1:7D<-7D`` or ``1:7D<-7D@table`` (the notation of game records)."""
    play = parse_action(f"play [] retrieve {text}", seat=0)
    assert isinstance(play, Play)
    return play.retrievals[0]


# -- Indian Rummy: a grouping, its deadwood, a declaration ----------------------------------------
@dataclass(frozen=True, slots=True)
class GroupCheck:
    """One of the player's groups: the meld kind it reads as, if it is a valid meld."""

    kind: str | None = None
    valid: bool = False

    def to_json(self) -> JsonObject:
        return {"kind": self.kind, "valid": self.valid}


@dataclass(frozen=True, slots=True)
class AutoArrangement:
    """The hand solver's grouping of the hand, with the card to throw after a draw.

    ``declare``: the hand declares with ``discard`` as the finish card (``shown`` are then the
    groups to show, and nothing is deadwood); ``points`` is ``None`` while the melds do not
    count yet (not enough sequences or no pure one).
    """

    groups: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    points: int | None
    discard: Card | None
    declare: bool = False
    shown: tuple[Meld, ...] = ()

    def to_json(self) -> JsonObject:
        out: dict[str, Any] = {
            "groups": [[str(c) for c in g] for g in self.groups],
            "deadwood": [str(c) for c in self.deadwood],
            "points": self.points,
            "discard": str(self.discard) if self.discard is not None else None,
            "declare": self.declare,
        }
        if self.declare:
            out["shown"] = [str(m) for m in self.shown]
        return out


@dataclass(frozen=True, slots=True)
class DeadwoodCount:
    """What the player's grouping would cost a loser: ``points`` capped, ``raw`` not."""

    points: int
    raw: int
    credited: bool
    runs: int
    pure: int

    def to_json(self) -> JsonObject:
        return {
            "points": self.points,
            "raw": self.raw,
            "credited": self.credited,
            "runs": self.runs,
            "pure": self.pure,
        }


@dataclass(frozen=True, slots=True)
class DeclarationVerdict:
    """Whether declaring with the finish card and the shown groups would be valid, and why not."""

    valid: bool
    reason: str | None
    """Why not, in English words."""
    problem: Reason | None = None
    """Why not, as data for the message catalogue (``None`` for unreadable groups)."""

    def to_json(self) -> JsonObject:
        return {
            "valid": self.valid,
            "reason": self.reason,
            "problem": self.problem.to_json() if self.problem is not None else None,
        }


@dataclass(frozen=True, slots=True)
class HandJudgement:
    """An Indian Rummy hand judged: the player's groups, their deadwood, the solver's grouping
    (on request) and the verdict on a declaration (when a finish card is named)."""

    groups: tuple[GroupCheck, ...]
    deadwood: DeadwoodCount
    auto: AutoArrangement | None = None
    declaration: DeclarationVerdict | None = None

    def to_json(self) -> JsonObject:
        return {
            "groups": [g.to_json() for g in self.groups],
            "deadwood": self.deadwood.to_json(),
            "auto": self.auto.to_json() if self.auto is not None else None,
            "declaration": self.declaration.to_json() if self.declaration is not None else None,
        }


def judge_hand(
    rules: IndianRules,
    hand: Sequence[Card],
    indicator: Card,
    *,
    groups: Sequence[Sequence[str]] = (),
    finish: str | None = None,
    auto: bool = False,
) -> HandJudgement:
    """Judge the player's ``groups`` (cards in notation) of ``hand``; with ``auto``, the
    solver's grouping; with ``finish`` on a hand after its draw, the declaration verdict.

    Raises :class:`~openrummy.errors.RummyError` when a card cannot be read.
    """
    wilds = rules.wilds(indicator)
    hand = list(hand)
    size = rules.deal.hand_size
    arrangement = (
        _auto_arrangement(rules, hand, indicator)
        if auto and len(hand) in (size, size + 1)
        else None
    )
    # The player's own groups, judged one by one.
    runs = pure = 0
    checks: list[GroupCheck] = []
    for cards in groups:
        check = GroupCheck()
        if len(cards) >= 2:
            try:
                readings = read_group(Meld.of(cards), rules, wilds)
            except RummyError:
                readings = []
            kinds = {r.kind for r in readings}
            if GroupKind.PURE_SEQUENCE in kinds:
                check = GroupCheck("PURE_SEQUENCE", True)
                pure += 1
                runs += 1
            elif GroupKind.SEQUENCE in kinds:
                check = GroupCheck("SEQUENCE", True)
                runs += 1
            elif GroupKind.SET in kinds:
                check = GroupCheck("SET", True)
            elif kinds:
                check = GroupCheck(sorted(k.value for k in kinds)[0])
        checks.append(check)
    credit = rules.scoring.loser_meld_credit
    credited = {
        LoserMeldCredit.TWO_SEQ_ONE_PURE: runs >= 2 and pure >= 1,
        LoserMeldCredit.PURE_ONLY: pure >= 1,
        LoserMeldCredit.ANY_MELD: True,
    }.get(credit, pure >= 3)
    loose = list(hand)
    for c in _cards([c for g in groups for c in g]):
        if c in loose:
            loose.remove(c)
    counted = [
        c
        for g, check in zip(groups, checks, strict=True)
        if not (check.valid and credited)
        for c in _cards(g)
    ] + loose
    if finish is not None:
        fin = Card.parse(finish)
        if fin in counted:
            counted.remove(fin)
    raw = rules.hand_value(counted, wilds)
    deadwood = DeadwoodCount(rules.cap_points(raw), raw, credited, runs, pure)
    declaration = None
    if finish is not None and len(hand) == size + 1:
        rest = list(hand)
        try:
            fin = Card.parse(finish)
            rest.remove(fin)
            shown = [Meld.of(g) for g in _without(groups, fin) if g]
            verdict = check_declaration(shown, rules, wilds, cards=rest)
        except (RummyError, ValueError) as e:
            declaration = DeclarationVerdict(False, str(e))
        else:
            declaration = DeclarationVerdict(verdict.valid, verdict.reason, verdict.problem)
    return HandJudgement(tuple(checks), deadwood, arrangement, declaration)


def _auto_arrangement(rules: IndianRules, hand: list[Card], indicator: Card) -> AutoArrangement:
    """The solver's grouping of a hand before its draw, or after it with the card to throw."""
    wilds = rules.wilds(indicator)

    def arrange(cards: list[Card]) -> Arrangement:
        # Show the melds even while they do not count yet (no two sequences, one pure).
        best = min_deadwood(cards, rules, wilds)
        if best.credited:
            return best
        return min_deadwood(cards, rules, wilds, credit=LoserMeldCredit.ANY_MELD)

    discard: Card | None = None
    if len(hand) == rules.deal.hand_size:
        arr = arrange(hand)
    else:
        analysis = analyse_draw(hand, rules, wilds)
        discard = analysis.declare_with or analysis.discard
        if analysis.declare_with is not None and analysis.declaration is not None:
            dec = analysis.declaration
            loose = dec.loose
            return AutoArrangement(
                groups=tuple(tuple(it.card for it in g.items) for g in dec.groups)
                + ((tuple(loose),) if loose else ()),
                deadwood=(),
                points=0,
                discard=discard,
                declare=True,
                shown=dec.groups,
            )
        rest = list(hand)
        rest.remove(discard)
        arr = arrange(rest)
    return AutoArrangement(
        groups=tuple(tuple(it.card for it in g.items) for g in arr.groups),
        deadwood=arr.deadwood,
        points=arr.points if arr.credited else None,
        discard=discard,
    )


def _cards(texts: Sequence[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def _without(groups: Sequence[Sequence[str]], card: Card) -> list[list[Card]]:
    """The groups with one copy of ``card`` (the finish card) taken out."""
    out: list[list[Card]] = []
    done = False
    for g in groups:
        cards = _cards(g)
        if not done and card in cards:
            cards.remove(card)
            done = True
        out.append(cards)
    return out
