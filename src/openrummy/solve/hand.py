"""The exact Indian Rummy hand solver: least deadwood, declaration check and search.

Pure functions over cards, an :class:`~openrummy.rules.indian.IndianRules` and the hand's
:class:`~openrummy.rules.indian.Wilds` (from the indicator or a bare wild rank); no game
state. The engine scores losing hands with :func:`score_loser` (``AUTO_OPTIMAL``), judges
declarations with :func:`check_declaration`, and bots ask :func:`analyse_draw` what to
throw after drawing.

RULES.md §5.4, example I11: the tempting ``[9S JK=10S JS]`` would leave K♠ and score 25;
the solver finds 24::

    >>> from openrummy.rules import find_preset
    >>> from openrummy.cards import Card, parse_cards
    >>> rules = find_preset("indian13")
    >>> wilds = rules.wilds(Card.parse("2C"))
    >>> a = min_deadwood(parse_cards("3H 4H 5H 9S JK JS QC QD QH KS 7D 5C 3C"), rules, wilds)
    >>> [str(g) for g in a.groups], a.points
    (['[3H 4H 5H]', '[JS JK=QS KS]', '[QC QD QH]'], 24)

Every answer is exact: see :mod:`openrummy.solve._hand_core` for the search and why it
misses nothing.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final, NamedTuple

from openrummy.cards import Card, Suit
from openrummy.errors import RummyError
from openrummy.melds import AceMode, Meld, MeldItem, MeldKind, MeldRules
from openrummy.messages import Reason
from openrummy.rules.indian import (
    AllWildGroup,
    DeclareArrangement,
    DeclareRequirement,
    IndianRules,
    LoserArrangement,
    LoserMeldCredit,
    V21Form,
    Wilds,
)
from openrummy.solve._hand_core import (
    C_DUBLEE,
    C_PURE3,
    C_PURE4,
    C_RUN3,
    C_RUN4,
    C_SET,
    C_TUNNELA,
    Goal,
    HandSearch,
    Solution,
)

__all__ = [
    "Arrangement",
    "Declaration",
    "DiscardOption",
    "DrawAnalysis",
    "GroupKind",
    "GroupReading",
    "InvalidHandError",
    "ThrowValue",
    "WildsLike",
    "analyse_draw",
    "as_wilds",
    "check_declaration",
    "check_hand",
    "declaration_goal",
    "find_declaration",
    "min_deadwood",
    "read_group",
    "score_loser",
    "throw_value",
]


WildsLike = Wilds | int | None
"""The hand's wild cards: a :class:`Wilds` (from ``rules.wilds(indicator)``), or a bare wild
rank (no 21-card upper/lower jokers then), or ``None`` for no wild rank."""


def as_wilds(wilds: WildsLike) -> Wilds:
    return wilds if isinstance(wilds, Wilds) else Wilds(wilds)


class InvalidHandError(RummyError):
    """A hand or grouping that cannot exist here: wrong size, too many copies, cards that
    differ from the hand's."""


class GroupKind(Enum):
    """What a shown group can count as (RULES.md §1.3, §5.3, §7.3)."""

    PURE_SEQUENCE = "PURE_SEQUENCE"
    SEQUENCE = "SEQUENCE"
    SET = "SET"
    TUNNELA = "TUNNELA"
    DUBLEE = "DUBLEE"
    JOKER_GROUP = "JOKER_GROUP"
    """Wild items only, larger than a set may be (21-card "8 jokers" form, A35)."""


_CLASS_OF_KIND: Final = {
    GroupKind.SET: C_SET,
    GroupKind.JOKER_GROUP: C_SET,
    GroupKind.TUNNELA: C_TUNNELA,
    GroupKind.DUBLEE: C_DUBLEE,
}


@dataclass(frozen=True, slots=True)
class GroupReading:
    """One way to read a shown group: its kind and the meld with every identity filled in."""

    kind: GroupKind
    meld: Meld

    @property
    def cls(self) -> int:
        if self.kind is GroupKind.PURE_SEQUENCE:
            return C_PURE4 if len(self.meld) >= 4 else C_PURE3
        if self.kind is GroupKind.SEQUENCE:
            return C_RUN4 if len(self.meld) >= 4 else C_RUN3
        return _CLASS_OF_KIND[self.kind]


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand split into melds and deadwood, with what it costs a loser.

    ``raw`` is the deadwood value (every card's value when the melds do not count under
    ``scoring.loser_meld_credit``: ``credited`` is then false); ``points`` applies
    ``scoring.cap``.
    """

    groups: tuple[Meld, ...]
    kinds: tuple[GroupKind, ...]
    deadwood: tuple[Card, ...]
    raw: int
    points: int
    credited: bool


@dataclass(frozen=True, slots=True)
class Declaration:
    """The verdict on a declaration: valid or not, the form, the groups and why not."""

    valid: bool
    form: str | None
    groups: tuple[Meld, ...] = ()
    kinds: tuple[GroupKind, ...] = ()
    loose: tuple[Card, ...] = ()
    problem: Reason | None = None
    """Why the declaration is not valid, as data (``None`` when it is)."""

    @property
    def reason(self) -> str | None:
        """Why the declaration is not valid, in English words."""
        return None if self.problem is None else str(self.problem)


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """What throwing ``card`` leaves: the best arrangement and whether it is a declaration."""

    card: Card
    arrangement: Arrangement
    declaration: Declaration


@dataclass(frozen=True, slots=True)
class DrawAnalysis:
    """A hand after the draw (14, 11 or 22 cards): best throw and any possible finish."""

    discard: Card
    after_discard: Arrangement
    declare_with: Card | None
    declaration: Declaration | None
    options: tuple[DiscardOption, ...]


# -- input checks ---------------------------------------------------------------------------
def check_hand(
    cards: Sequence[Card], rules: IndianRules, wilds: WildsLike, sizes: Iterable[int] | None = None
) -> None:
    """Raise :class:`InvalidHandError` for a wrong size or more copies than the decks hold."""
    wilds = as_wilds(wilds)
    allowed = tuple(sizes) if sizes is not None else (rules.deal.hand_size,)
    if len(cards) not in allowed:
        want = " or ".join(str(n) for n in allowed)
        raise InvalidHandError(
            Reason.of(
                "hand.size",
                have=len(cards),
                game=rules.name,
                sizes=want,
                count=rules.deal.hand_size,
            )
        )
    for card, n in Counter(cards).items():
        if card.tile:
            raise InvalidHandError(Reason.of("hand.tile", card=str(card)))
        most = rules.max_copies(card, wilds.indicator)
        if n > most:
            besides = wilds.indicator == card and not rules.wild.indicator_in_play
            raise InvalidHandError(
                Reason.of(
                    "hand.too_many_indicator" if besides else "hand.too_many",
                    have=n,
                    card=str(card),
                    max=most,
                    decks=rules.deck.standard_decks,
                    jokers=rules.deck.printed_jokers,
                )
            )


def _check_same_cards(groups: Sequence[Meld], cards: Sequence[Card]) -> None:
    shown = Counter(c for g in groups for c in g.cards)
    held = Counter(cards)
    if shown != held:
        missing = tuple(str(c) for c in sorted((held - shown).elements(), key=Card.sort_key))
        surplus = tuple(str(c) for c in sorted((shown - held).elements(), key=Card.sort_key))
        if missing and surplus:
            why = Reason.of("hand.groups_differ", missing=missing, surplus=surplus)
        elif missing:
            why = Reason.of("hand.groups_missing", missing=missing)
        else:
            why = Reason.of("hand.groups_surplus", surplus=surplus)
        raise InvalidHandError(why)


# -- goals ----------------------------------------------------------------------------------
_CREDIT_GOALS: Final = {
    LoserMeldCredit.TWO_SEQ_ONE_PURE: Goal(runs=2, pure=1),
    LoserMeldCredit.PURE_ONLY: Goal(pure=1),
    LoserMeldCredit.ANY_MELD: Goal(),
    LoserMeldCredit.THREE_PURE: Goal(pure=3),
}


def declaration_goal(rules: IndianRules) -> Goal:
    """The search goal of a (non-21-card-count-form) declaration under ``rules``."""
    req = rules.declare.requirement
    len4 = 1 if rules.declare.require_life_len4 else 0
    if req is DeclareRequirement.TWO_SEQ_ONE_PURE:
        return Goal(runs=2, pure=1, len4=len4, declare=True)
    if req is DeclareRequirement.TWO_SEQ_TWO_SETS:
        return Goal(runs=2, pure=1, sets=2, len4=len4, declare=True)
    return Goal(pure=3, declare=True)


# -- least deadwood -------------------------------------------------------------------------
def min_deadwood(
    cards: Sequence[Card],
    rules: IndianRules,
    wilds: WildsLike,
    *,
    credit: LoserMeldCredit | None = None,
) -> Arrangement:
    """The arrangement of a hand that leaves the least deadwood (RULES.md §5.4, §7.5).

    ``credit`` defaults to ``scoring.loser_meld_credit``. When no arrangement meets it,
    every card counts (``credited`` false). ``points`` is capped at ``scoring.cap``.
    """
    wilds = as_wilds(wilds)
    check_hand(cards, rules, wilds)
    return _min_deadwood(cards, rules, wilds, credit or rules.scoring.loser_meld_credit)


def _min_deadwood(
    cards: Sequence[Card],
    rules: IndianRules,
    wilds: Wilds,
    credit: LoserMeldCredit,
    search: HandSearch | None = None,
) -> Arrangement:
    hs = search or HandSearch(cards, rules, wilds)
    sol = hs.solve(_CREDIT_GOALS[credit])
    if sol is None:
        raw = rules.hand_value(cards, wilds)
        return Arrangement((), (), tuple(cards), raw, rules.cap_points(raw), False)
    groups, kinds = _tidy(sol, rules, wilds, cards)
    deadwood = _in_hand_order(sol.leftover, cards)
    raw = rules.hand_value(deadwood, wilds)
    assert raw == sol.cost, (raw, sol.cost)
    return Arrangement(groups, kinds, deadwood, raw, rules.cap_points(raw), True)


def _in_hand_order(leftover: Iterable[Card], cards: Sequence[Card]) -> tuple[Card, ...]:
    want = Counter(leftover)
    out = []
    for c in cards:
        if want[c] > 0:
            out.append(c)
            want[c] -= 1
    return tuple(out)


_ORDER: Final = {C_PURE4: 0, C_PURE3: 0, C_TUNNELA: 1, C_RUN4: 2, C_RUN3: 2, C_SET: 3, C_DUBLEE: 4}


def _kind_of_class(cls: int, meld: Meld, wilds: Wilds) -> GroupKind:
    if cls in (C_PURE3, C_PURE4):
        return GroupKind.PURE_SEQUENCE
    if cls in (C_RUN3, C_RUN4):
        return GroupKind.SEQUENCE
    if cls == C_TUNNELA:
        return GroupKind.TUNNELA
    if cls == C_DUBLEE:
        return GroupKind.DUBLEE
    if len(meld) > 4 and all(it.is_wild or wilds.is_wild(it.card) for it in meld.items):
        return GroupKind.JOKER_GROUP
    return GroupKind.SET


def _tidy(
    sol: Solution, rules: IndianRules, wilds: Wilds, hand: Sequence[Card] | None = None
) -> tuple[tuple[Meld, ...], tuple[GroupKind, ...]]:
    """Groups in reading order (pure sequences, sequences, sets), with leftover wilds placed
    where they change nothing: in an impure sequence or a set that has room."""
    pairs = sorted(
        zip(sol.classes, sol.groups, strict=True),
        key=lambda p: (_ORDER[p[0]], _first_key(p[1])),
    )
    groups = [g for _, g in pairs]
    classes = [c for c, _ in pairs]
    spare = [c for c in sol.leftover if wilds.is_wild(c)]
    for card in spare:
        for i, (cls, g) in enumerate(zip(classes, groups, strict=True)):
            grown = _grow(g, cls, card, rules, wilds)
            if grown is not None:
                groups[i] = grown
                sol.leftover.remove(card)
                break
    kinds = tuple(_kind_of_class(c, g, wilds) for c, g in zip(classes, groups, strict=True))
    if hand is not None:
        # Sets read in the order the player holds the cards (runs read by rank).
        first: dict[Card, int] = {}
        for i, c in enumerate(hand):
            first.setdefault(c, i)
        groups = [
            Meld(tuple(sorted(g.items, key=lambda it: (it.is_wild, first.get(it.card, 99)))))
            if k is GroupKind.SET
            else g
            for g, k in zip(groups, kinds, strict=True)
        ]
    return tuple(groups), kinds


def _first_key(m: Meld) -> tuple[int, int]:
    for it in m.items:
        if it.represents is not None:
            return it.represents.sort_key()
    return (5, 0)


def _grow(meld: Meld, cls: int, card: Card, rules: IndianRules, wilds: Wilds) -> Meld | None:
    """``meld`` with the wild ``card`` added, if it stays valid and keeps its class."""
    mr = rules.meld_rules_for(wilds)
    items = meld.items
    if cls == C_SET:
        if len(items) >= rules.meld.set_max or not items or items[0].represents is None:
            return None
        rank = items[0].represents.rank
        used = [it.represents.suit for it in items if it.represents is not None]
        missing = [s for s in Suit if s not in used] or [Suit.S]
        grown = Meld((*items, MeldItem(card, Card(rank, missing[0]))))
        return grown if grown.check(mr) is None else None
    if cls in (C_RUN3, C_RUN4) and len(items) < 13:
        idents = [it.identity for it in items]
        suit = idents[0].suit
        assert suit is not None
        ranks = [it.rank for it in idents]
        high = [14 if r == 1 and 13 in ranks else r for r in ranks]
        top, bottom = max(high), min(high)
        for pos in (top + 1, bottom - 1):
            if 1 <= pos <= (14 if rules.meld.ace_mode is AceMode.HIGH_OR_LOW else 13):
                ident = Card(1 if pos == 14 else pos, suit)
                item = MeldItem(card, ident)
                cand = Meld((*items, item) if pos > top else (item, *items))
                if cand.check(mr) is None:
                    return cand
    return None


# -- reading shown groups -------------------------------------------------------------------
def read_group(meld: Meld, rules: IndianRules, wilds: WildsLike) -> list[GroupReading]:
    """Every way the shown group counts, identities filled in; empty if it is no group.

    Stated identities (``JK=9H``, ``7D=10H``) are kept. A printed joker shown bare gets the
    identity that fits; a wild-rank card shown as itself is read both as itself and as a
    wild (the cards of the group, not the notation, are judged).
    """
    wilds = as_wilds(wilds)
    items = meld.items
    mr = rules.meld_rules_for(wilds)
    flex = [
        i
        for i, it in enumerate(items)
        if not it.card.is_joker and it.represents == it.card and wilds.is_wild(it.card)
    ]
    out: list[GroupReading] = []
    seen: set[tuple[GroupKind, str]] = set()

    def add(kind: GroupKind, m: Meld) -> None:
        key = (kind, str(m))
        if key not in seen:
            seen.add(key)
            out.append(GroupReading(kind, m))

    for bad in items:
        if bad.is_wild and not bad.card.is_joker and not wilds.is_wild(bad.card):
            return []
    for choice in itertools.product((False, True), repeat=len(flex)):
        opened = {i for i, as_wild in zip(flex, choice, strict=True) if as_wild}
        work = [MeldItem(it.card, None) if i in opened else it for i, it in enumerate(items)]
        _readings_of(work, rules, wilds, mr, add)
    return out


def _readings_of(
    items: list[MeldItem],
    rules: IndianRules,
    wilds: Wilds,
    mr: MeldRules,
    add: Callable[[GroupKind, Meld], None],
) -> None:
    n = len(items)
    open_idx = [i for i, it in enumerate(items) if it.represents is None]
    fixed = [it.represents for it in items if it.represents is not None]
    all_wild = all(it.represents is None or it.is_wild for it in items)
    cards = [it.card for it in items]
    # 21-card special groups: identical naturals, or printed jokers only.
    if rules.is_v21 or rules.tunnela_is_meld:
        jokers_only = all(c.is_joker for c in cards)
        identical = not open_idx and all(not it.is_wild for it in items) and len(set(cards)) == 1
        if (n == 3 and rules.tunnela_is_meld) and (identical or jokers_only):
            add(
                GroupKind.TUNNELA,
                Meld(tuple(MeldItem(c, None if c.is_joker else c) for c in cards)),
            )
        if n == 2 and rules.is_v21 and (identical or jokers_only):
            add(
                GroupKind.DUBLEE, Meld(tuple(MeldItem(c, None if c.is_joker else c) for c in cards))
            )
    if all_wild:
        aw = rules.meld.all_wild_group
        if n >= 3 and aw is not AllWildGroup.FORBIDDEN:
            if n <= rules.meld.set_max:
                add(GroupKind.SET, _wild_group(items))
            elif aw is AllWildGroup.JOKER_GROUP:
                add(GroupKind.JOKER_GROUP, _wild_group(items))
            if aw is AllWildGroup.SET_OR_SEQUENCE and n <= 13:
                add(GroupKind.SEQUENCE, _wild_group(items))
        if rules.is_v21 and n >= 8 and V21Form.EIGHT_JOKERS in rules.v21.declare_forms:
            add(GroupKind.JOKER_GROUP, _wild_group(items))
        return
    if n < 3:
        return
    # A sequence: the stated identities in one suit, the open wilds fill gaps and ends.
    suits = {c.suit for c in fixed}
    if len(suits) == 1:
        suit = next(iter(suits))
        assert suit is not None
        ranks = [c.rank for c in fixed]
        lines = [ranks]
        if rules.meld.ace_mode is AceMode.HIGH_OR_LOW and 1 in ranks:
            lines.append([14 if r == 1 else r for r in ranks])
        for line in lines:
            if len(set(line)) != len(line):
                continue
            lo, hi = min(line), max(line)
            if hi - lo + 1 > n:
                continue
            top = 14 if rules.meld.ace_mode is AceMode.HIGH_OR_LOW and lo > 1 else 13
            start = lo
            while start + n - 1 > top:
                start -= 1
            if start < 1:
                continue
            window = [p for p in range(start, start + n) if p not in line]
            filled = list(items)
            for i, p in zip(open_idx, window, strict=True):
                filled[i] = MeldItem(items[i].card, Card(1 if p == 14 else p, suit))
            cand = Meld(tuple(filled))
            if cand.kind(mr) is MeldKind.RUN:
                pure = not any(it.is_wild for it in filled) and (
                    rules.wild.natural_use_counts_pure or not any(wilds.is_wild(c) for c in cards)
                )
                add(GroupKind.PURE_SEQUENCE if pure else GroupKind.SEQUENCE, cand.normalized(mr))
    # A set: one rank; the open wilds take the missing suits.
    ranks_set = {c.rank for c in fixed}
    if len(ranks_set) == 1:
        rank = next(iter(ranks_set))
        used = [c.suit for c in fixed]
        missing = [s for s in Suit if s not in used]
        filled = list(items)
        for k, i in enumerate(open_idx):
            suit2 = missing[k] if k < len(missing) else Suit(k % 4)
            filled[i] = MeldItem(items[i].card, Card(rank, suit2))
        cand = Meld(tuple(filled))
        if cand.kind(mr) is MeldKind.SET:
            add(GroupKind.SET, cand.normalized(mr))


def _wild_group(items: Sequence[MeldItem]) -> Meld:
    """A group of wild items only; stated identities are kept, open ones stay open (any
    identities would do, so none is invented)."""
    return Meld(tuple(items))


# -- declarations ---------------------------------------------------------------------------
_COUNT_FORMS: Final = (V21Form.THREE_TUNNELA, V21Form.EIGHT_DUBLEE, V21Form.EIGHT_JOKERS)


def check_declaration(
    groups: Sequence[Meld],
    rules: IndianRules,
    wilds: WildsLike,
    *,
    cards: Sequence[Card] | None = None,
) -> Declaration:
    """Judge a declaration (RULES.md §5.3, §7.4) under ``declare.arrangement``.

    ``groups`` are the shown groups; with ``cards`` given they must use exactly those cards
    (:class:`InvalidHandError` otherwise). Under ``SUBMITTED`` the grouping is judged as
    shown; under ``AUTO`` a valid grouping of the same cards is searched for when the shown
    one fails.
    """
    wilds = as_wilds(wilds)
    shown = [c for g in groups for c in g.cards]
    if cards is not None:
        _check_same_cards(groups, cards)
    check_hand(shown, rules, wilds)
    verdict = _judge(groups, rules, wilds)
    if verdict.valid or rules.declare.arrangement is DeclareArrangement.SUBMITTED:
        return verdict
    found = find_declaration(shown, rules, wilds)
    return found if found.valid else verdict


def _judge(groups: Sequence[Meld], rules: IndianRules, wilds: Wilds) -> Declaration:
    readings = [read_group(g, rules, wilds) for g in groups]
    if rules.is_v21:
        return _judge_v21(groups, readings, rules, wilds)
    for g, rs in zip(groups, readings, strict=True):
        if not _meld_readings(rs, rules):
            problem = g.problem(rules.meld_rules_for(wilds)) or Reason.of("meld.not_valid_group")
            return Declaration(
                False,
                None,
                tuple(groups),
                problem=Reason.of("declare.group_not_meld", meld=str(g), problem=problem),
            )
    goal = declaration_goal(rules)
    best = _best_choice([_meld_readings(rs, rules) for rs in readings], goal)
    if best is not None:
        return Declaration(
            True,
            rules.declare.requirement.name,
            tuple(r.meld for r in best),
            tuple(r.kind for r in best),
        )
    return Declaration(False, None, tuple(groups), problem=_shortfall(readings, rules, goal))


def _meld_readings(rs: list[GroupReading], rules: IndianRules) -> list[GroupReading]:
    """Readings that make a group a meld (every card placed) under the rules."""
    ok = {GroupKind.PURE_SEQUENCE, GroupKind.SEQUENCE, GroupKind.SET}
    if rules.tunnela_is_meld:
        ok.add(GroupKind.TUNNELA)
    if rules.is_v21 and rules.v21.dublee_as_meld:
        ok.add(GroupKind.DUBLEE)
    if rules.meld.all_wild_group is AllWildGroup.JOKER_GROUP:
        ok.add(GroupKind.JOKER_GROUP)
    return [r for r in rs if r.kind in ok]


def _best_choice(options: list[list[GroupReading]], goal: Goal) -> tuple[GroupReading, ...] | None:
    """One reading per group meeting ``goal``, or None (tries few combinations: groups
    usually read one way)."""
    per_group = []
    for rs in options:
        by_cls: dict[int, GroupReading] = {}
        for r in rs:
            by_cls.setdefault(r.cls, r)
        per_group.append(list(by_cls.values()))
    for combo in itertools.product(*per_group):
        fl = goal.encode(0, 0, 0, 0)
        for r in combo:
            fl = goal.add(fl, r.cls)
        if goal.satisfied(fl):
            return combo
    return None


def _shortfall(readings: list[list[GroupReading]], rules: IndianRules, goal: Goal) -> Reason:
    kinds = [{r.kind for r in rs} for rs in readings]
    seqs = sum(1 for k in kinds if k & {GroupKind.PURE_SEQUENCE, GroupKind.SEQUENCE})
    pure = sum(1 for k in kinds if GroupKind.PURE_SEQUENCE in k or GroupKind.TUNNELA in k)
    sets = sum(1 for k in kinds if GroupKind.SET in k)
    if pure < goal.pure:
        if goal.pure == 1:
            return Reason.of("declare.no_pure_sequence")
        return Reason.of("declare.few_pure", count=pure, need=goal.pure)
    if seqs < goal.runs:
        return Reason.of("declare.few_sequences", count=seqs, need=goal.runs)
    if sets < goal.sets:
        return Reason.of("declare.few_sets", count=sets, need=goal.sets)
    if goal.len4:
        return Reason.of("declare.no_life_len4")
    return Reason.of("declare.unreadable")


def _judge_v21(
    groups: Sequence[Meld],
    readings: list[list[GroupReading]],
    rules: IndianRules,
    wilds: Wilds,
) -> Declaration:
    forms = rules.v21.declare_forms
    if V21Form.THREE_PURE in forms and all(_meld_readings(rs, rules) for rs in readings):
        best = _best_choice([_meld_readings(rs, rules) for rs in readings], Goal(pure=3))
        if best is not None:
            return Declaration(
                True,
                V21Form.THREE_PURE.name,
                tuple(r.meld for r in best),
                tuple(r.kind for r in best),
            )
    for form, kind, count in (
        (V21Form.THREE_TUNNELA, GroupKind.TUNNELA, 3),
        (V21Form.EIGHT_DUBLEE, GroupKind.DUBLEE, 8),
        (V21Form.EIGHT_JOKERS, GroupKind.JOKER_GROUP, 1),
    ):
        if form not in forms:
            continue
        hits = []
        for g, rs in zip(groups, readings, strict=True):
            r = next((r for r in rs if r.kind is kind), None)
            if r is not None and (form is not V21Form.EIGHT_JOKERS or len(g) >= 8):
                hits.append((g, r))
        if len(hits) >= count:
            used = {id(g) for g, _ in hits}
            loose = tuple(c for g in groups if id(g) not in used for c in g.cards)
            return Declaration(
                True,
                form.name,
                tuple(r.meld for _, r in hits),
                tuple(r.kind for _, r in hits),
                loose,
            )
    bad = [g for g, rs in zip(groups, readings, strict=True) if not _meld_readings(rs, rules)]
    if bad:
        problem = Reason.of("declare.v21_not_meld", meld=str(bad[0]))
    else:
        problem = Reason.of("declare.v21_few_pure")
    return Declaration(False, None, tuple(groups), problem=problem)


def find_declaration(cards: Sequence[Card], rules: IndianRules, wilds: WildsLike) -> Declaration:
    """Search for any valid declaration of ``cards`` (the ``AUTO`` arrangement, A38)."""
    wilds = as_wilds(wilds)
    check_hand(cards, rules, wilds)
    return _find_declaration(cards, rules, wilds)


def _find_declaration(
    cards: Sequence[Card], rules: IndianRules, wilds: Wilds, search: HandSearch | None = None
) -> Declaration:
    hs = search or HandSearch(cards, rules, wilds)
    if not rules.is_v21 or V21Form.THREE_PURE in rules.v21.declare_forms:
        sol = hs.solve(declaration_goal(rules))
        if sol is not None:
            groups, kinds = _tidy(sol, rules, wilds, cards)
            assert not sol.leftover
            form = V21Form.THREE_PURE.name if rules.is_v21 else rules.declare.requirement.name
            return Declaration(True, form, groups, kinds)
    if rules.is_v21:
        found = _count_forms(cards, rules, wilds)
        if found is not None:
            return found
    return _NO_DECLARATION


_NO_DECLARATION: Final = Declaration(False, None, problem=Reason.of("declare.no_grouping"))


def _count_forms(cards: Sequence[Card], rules: IndianRules, wilds: Wilds) -> Declaration | None:
    """The 21-card forms that need only counting: tunnelas, dublees, eight wilds (§7.4)."""
    counts = Counter(cards)
    forms = rules.v21.declare_forms
    for form, size, need in ((V21Form.THREE_TUNNELA, 3, 3), (V21Form.EIGHT_DUBLEE, 2, 8)):
        if form not in forms:
            continue
        groups: list[Meld] = []
        rest = Counter(counts)
        for card in sorted(counts, key=Card.sort_key):
            while rest[card] >= size and len(groups) < need:
                groups.append(Meld((MeldItem(card, None if card.is_joker else card),) * size))
                rest[card] -= size
        if len(groups) >= need:
            kind = GroupKind.TUNNELA if size == 3 else GroupKind.DUBLEE
            loose = tuple(sorted(rest.elements(), key=Card.sort_key))
            return Declaration(True, form.name, tuple(groups), (kind,) * len(groups), loose)
    if V21Form.EIGHT_JOKERS in forms:
        wild = [c for c in cards if wilds.is_wild(c)]
        if len(wild) >= 8:
            group = Meld(tuple(MeldItem(c, None) for c in wild))
            loose = tuple(c for c in cards if not wilds.is_wild(c))
            return Declaration(
                True, V21Form.EIGHT_JOKERS.name, (group,), (GroupKind.JOKER_GROUP,), loose
            )
    return None


# -- losers ---------------------------------------------------------------------------------
def score_loser(
    cards: Sequence[Card],
    rules: IndianRules,
    wilds: WildsLike,
    *,
    groups: Sequence[Meld] | None = None,
) -> Arrangement:
    """A losing hand's arrangement and points under ``scoring.loser_arrangement``.

    ``AUTO_OPTIMAL``: the least deadwood (:func:`min_deadwood`). ``SUBMITTED``: the loser's
    ``groups`` are judged as shown: valid melds are kept if they meet
    ``scoring.loser_meld_credit``, and everything else counts (RULES.md §5.4, I13).
    """
    wilds = as_wilds(wilds)
    if rules.scoring.loser_arrangement is LoserArrangement.AUTO_OPTIMAL or groups is None:
        return min_deadwood(cards, rules, wilds)
    _check_same_cards(groups, cards)
    check_hand(cards, rules, wilds)
    goal = _CREDIT_GOALS[rules.scoring.loser_meld_credit]
    readings = [_meld_readings(read_group(g, rules, wilds), rules) for g in groups]
    melded = [i for i, rs in enumerate(readings) if rs]
    best = _best_choice([readings[i] for i in melded], goal)
    if best is None:
        raw = rules.hand_value(cards, wilds)
        return Arrangement((), (), tuple(cards), raw, rules.cap_points(raw), False)
    unmatched = [c for i, g in enumerate(groups) if not readings[i] for c in g.cards]
    raw = rules.hand_value(unmatched, wilds)
    return Arrangement(
        tuple(r.meld for r in best),
        tuple(r.kind for r in best),
        tuple(unmatched),
        raw,
        rules.cap_points(raw),
        True,
    )


# -- after the draw -------------------------------------------------------------------------
def analyse_draw(cards: Sequence[Card], rules: IndianRules, wilds: WildsLike) -> DrawAnalysis:
    """For a hand after the draw (hand size + 1): the best card to throw, and whether (and
    with which finish card) a declaration is possible now.

    The best throw leaves the least deadwood under ``scoring.loser_meld_credit`` (what the
    hand would cost if someone else declared next); ties keep wild cards and throw the
    higher card.
    """
    wilds = as_wilds(wilds)
    check_hand(cards, rules, wilds, (rules.deal.hand_size + 1,))
    credit = rules.scoring.loser_meld_credit
    # A declaration groups every card and (where its goal includes the credit's) meets the
    # credit's goal with no deadwood: where the least deadwood is not zero, the search for
    # a declaration, about a quarter of the work, is skipped (the 21-card counting forms
    # need no melds, so there it always runs).
    skip = not rules.is_v21 and declaration_goal(rules).includes(_CREDIT_GOALS[credit])
    options: list[DiscardOption] = []
    full = HandSearch(cards, rules, wilds)  # its candidate melds serve every throw
    for card in sorted(set(cards), key=Card.sort_key):
        rest = list(cards)
        rest.remove(card)
        hs = full.without(card, rest)
        arr = _min_deadwood(rest, rules, wilds, credit, hs)
        if skip and (arr.raw > 0 or not arr.credited):
            dec = _NO_DECLARATION
        else:
            dec = _find_declaration(rest, rules, wilds, hs)
        options.append(DiscardOption(card, arr, dec))

    def throw_key(o: DiscardOption) -> tuple[int, int, bool, int, tuple[int, int]]:
        return (
            o.arrangement.points,
            o.arrangement.raw,
            wilds.is_wild(o.card),
            -rules.card_value(o.card),
            o.card.sort_key(),
        )

    best = min(options, key=throw_key)
    finishing = [o for o in options if o.declaration.valid]
    finish = min(finishing, key=lambda o: (wilds.is_wild(o.card), o.card.sort_key()), default=None)
    return DrawAnalysis(
        best.card,
        best.arrangement,
        finish.card if finish else None,
        finish.declaration if finish else None,
        tuple(options),
    )


class ThrowValue(NamedTuple):
    """What a hand after the draw is worth: :func:`analyse_draw`'s answer without the how."""

    points: int
    """The points of the best throw's arrangement (``after_discard.points``)."""
    declares: bool
    """Whether some throw leaves a valid declaration (``declare_with`` is not ``None``)."""


def throw_value(cards: Sequence[Card], rules: IndianRules, wilds: WildsLike) -> ThrowValue:
    """:func:`analyse_draw`'s best points and whether it can declare, for look-ahead bots.

    One search over the whole hand with the throw inside it
    (:meth:`~openrummy.solve._hand_core.HandSearch.least_after_throw`) instead of one
    search per card that could be thrown, and no arrangement is built: several times
    faster. Equal to ``analyse_draw`` by construction and by test. On 21-card hands a
    declaration of a counting form (tunnelas, dublees, eight wilds) may leave deadwood, so
    there every throw is also tried against those forms (counting only). The rule sets
    this shortcut does not cover (printed jokers that cost points, a declaration goal that
    does not include the credit goal) and the rare hand whose best throw may be one that
    leaves no credited arrangement (see below) are answered by ``analyse_draw``.
    """
    wilds = as_wilds(wilds)
    check_hand(cards, rules, wilds, (rules.deal.hand_size + 1,))
    credit = _CREDIT_GOALS[rules.scoring.loser_meld_credit]
    declare = declaration_goal(rules)
    if rules.scoring.joker_penalty or not declare.includes(credit):
        return _throw_value_of(analyse_draw(cards, rules, wilds))
    hs = HandSearch(cards, rules, wilds)
    cost = hs.least_after_throw(credit)
    # A throw that leaves no credited arrangement costs the whole rest of the hand: at
    # best, the hand less its dearest card.
    top = max(rules.penalty_value(c, wilds) for c in cards)
    uncredited = rules.cap_points(rules.hand_value(cards, wilds) - top)
    if cost is None:
        return ThrowValue(uncredited, _counts_after_throw(cards, rules, wilds))
    points = rules.cap_points(cost)
    if points > uncredited:
        # Some throw without credit might beat the best credited one; which throws are
        # uncredited, only the full analysis says.
        return _throw_value_of(analyse_draw(cards, rules, wilds))
    # A declaration of melds meets the credit goal with nothing left over: only then look
    # for one.
    melds = not rules.is_v21 or V21Form.THREE_PURE in rules.v21.declare_forms
    declares = melds and cost == 0 and hs.least_after_throw(declare) is not None
    return ThrowValue(points, declares or _counts_after_throw(cards, rules, wilds))


def _counts_after_throw(cards: Sequence[Card], rules: IndianRules, wilds: Wilds) -> bool:
    """Whether some throw leaves a 21-card counting-form declaration (never outside 21-card):
    :func:`_count_forms` of every one-card-smaller hand, by counting. A throw takes one group
    away exactly when the card's count is a multiple of the group size (or it is wild)."""
    if not rules.is_v21:
        return False
    forms = rules.v21.declare_forms
    counts = Counter(cards).values()
    for form, size, need in ((V21Form.THREE_TUNNELA, 3, 3), (V21Form.EIGHT_DUBLEE, 2, 8)):
        if form in forms:
            groups = sum(n // size for n in counts)
            if groups > need or (groups == need and any(n % size for n in counts)):
                return True
    if V21Form.EIGHT_JOKERS in forms:
        wild = sum(1 for c in cards if wilds.is_wild(c))
        if wild > 8 or 8 == wild < len(cards):
            return True
    return False


def _throw_value_of(analysis: DrawAnalysis) -> ThrowValue:
    return ThrowValue(analysis.after_discard.points, analysis.declare_with is not None)
