"""The commit checks C1–C8 of a manipulation play (RULES.md §2.2), as pure functions.

A play is judged only by the table it leaves (§2.1): the engine derives what was placed
(``table_after − table_before``) and what was lifted (``table_before − table_after``) as
multisets of card values, then checks every rule and returns *all* violations, each with its
code and a message a player understands. :func:`commit_violations` is what the solver's
tests and the bots use; :func:`analyze_play` also returns the derived quantities the state
machine needs.

    >>> from openrummy.rules import find_preset
    >>> from openrummy.melds import Meld
    >>> from openrummy.cards import parse_cards
    >>> robbers = find_preset("robbers")
    >>> before = [Meld.parse("[4S 5S 6S 7S]")]
    >>> after = [Meld.parse("[3S 5S 6S 7S]"), Meld.parse("[4S 4H 4D]")]
    >>> [str(v) for v in commit_violations(robbers, table_before=before,
    ...     hand=parse_cards("3S 4H 4D"), table_after=after, opened=True)]
    ['C1: [3S 5S 6S 7S] is not valid: 3-5-6-7 is not a sequence of consecutive ranks']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from openrummy.cards import Card
from openrummy.events import Violation
from openrummy.melds import Meld, MeldItem, MeldKind
from openrummy.rules.manipulation import (
    Disposition,
    ManipulationRules,
    MeldOwnership,
    Mobility,
    OpeningType,
    ReplacementSource,
)

from .actions import Retrieval

K = TypeVar("K")

__all__ = ["PlayAnalysis", "Violation", "analyze_play", "commit_violations", "opening_required"]


@dataclass(slots=True)
class PlayAnalysis:
    """What a play does, and what is wrong with it."""

    violations: list[Violation] = field(default_factory=list)
    table: tuple[Meld, ...] = ()
    """The table after the play, each meld in canonical order."""
    placed: Counter[Card] = field(default_factory=Counter)
    """Cards that went from the hand to the table."""
    lifted: Counter[Card] = field(default_factory=Counter)
    """Cards that went from the table to the hand (legally: retrieved jokers only)."""
    opening_value: int = 0
    opening_melds: tuple[Meld, ...] = ()
    """The melds laid from the hand that make the opening (worth ``opening_value``)."""
    opens: bool = False
    """The play contains an opening that meets the rule (when one was required)."""
    retrieved: int = 0
    owners: tuple[int | None, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.violations


def opening_required(rules: ManipulationRules) -> bool:
    """Whether players start unopened (a POINTS threshold of 0 means no opening, S000)."""
    o = rules.opening
    if o.type is OpeningType.NONE:
        return False
    return not (o.type is OpeningType.POINTS and o.threshold <= 0)


def commit_violations(
    rules: ManipulationRules,
    *,
    table_before: Sequence[Meld],
    hand: Iterable[Card],
    table_after: Sequence[Meld],
    opened: bool,
    retrievals: Sequence[Retrieval] = (),
    elapsed: float | None = None,
    mover: int = 0,
    owners_before: Sequence[int | None] | None = None,
) -> list[Violation]:
    """Every commit check the play fails (empty: the play is accepted)."""
    return analyze_play(
        rules,
        table_before=table_before,
        hand=hand,
        table_after=table_after,
        opened=opened,
        retrievals=retrievals,
        elapsed=elapsed,
        mover=mover,
        owners_before=owners_before,
    ).violations


def analyze_play(
    rules: ManipulationRules,
    *,
    table_before: Sequence[Meld],
    hand: Iterable[Card],
    table_after: Sequence[Meld],
    opened: bool,
    retrievals: Sequence[Retrieval] = (),
    elapsed: float | None = None,
    mover: int = 0,
    owners_before: Sequence[int | None] | None = None,
    opened_before_turn: bool | None = None,
) -> PlayAnalysis:
    """Derive placed/lifted cards and run every applicable check C1–C8.

    ``opened`` is whether the mover has opened (C5); ``opened_before_turn`` whether that
    happened before this turn (C6, retrieval; defaults to ``opened``). They differ only for
    the second play of a play–draw–play turn that opened with its first play.
    """
    if opened_before_turn is None:
        opened_before_turn = opened
    mr = rules.meld_rules
    out = PlayAnalysis()
    v = out.violations
    hand_c = Counter(hand)
    must_open = not opened and opening_required(rules)

    # C1: every meld valid, every wild item with an identity.
    normalized: list[Meld] = []
    for meld in table_after:
        reason = meld.problem(mr)
        if reason is not None:
            v.append(Violation.of("C1", "invalid_meld", meld=str(meld), problem=reason))
            normalized.append(meld)
        else:
            normalized.append(meld.normalized(mr))
    out.table = tuple(normalized)

    before_c = _cards(table_before)
    after_c = _cards(table_after)
    placed = after_c - before_c
    lifted = before_c - after_c
    out.placed, out.lifted = placed, lifted

    # C3: placed cards come from the hand.
    for card, n in sorted(placed.items(), key=lambda kv: kv[0].sort_key()):
        if n > hand_c[card]:
            have = hand_c[card]
            v.append(
                Violation.of("C3", "too_many", count=n, card=str(card), have=have)
                if have
                else Violation.of("C3", "not_in_hand", card=str(card))
            )

    # C4: at least one card from the hand.
    if rules.play.require_hand_card and not placed:
        v.append(Violation.of("C4", "no_hand_card"))

    # C6: retrievals.
    substituted = _check_retrievals(
        rules, table_before, table_after, placed, before_c, retrievals, opened_before_turn, v
    )
    out.retrieved = len(retrievals)

    # C2: conservation.
    lifted_naturals = sorted((c for c in lifted if not c.is_joker), key=Card.sort_key)
    for card in lifted_naturals:
        v.append(Violation.of("C2", "card_leaves_table", card=str(card)))
    lifted_jokers = lifted.get(Card(0, None), 0)
    if lifted_jokers > len(retrievals):
        v.append(Violation.of("C2", "jokers_leave_table", count=lifted_jokers - len(retrievals)))

    # C7: disposition of retrieved jokers.
    if retrievals:
        _check_disposition(
            rules, table_after, substituted, placed, lifted_jokers, len(retrievals), v
        )

    # Joker mobility (§2.4): jokers move only by replacement.
    if rules.joker.mobility is Mobility.ONLY_VIA_REPLACEMENT:
        locked = [m for m in substituted if any(it.card.is_joker for it in m)]
        if (
            _match([Counter(m) for m in locked], [Counter(m.items) for m in table_after], _contains)
            is None
        ):
            v.append(Violation.of("C6", "joker_locked"))

    # C5: the opening.
    if must_open:
        _check_opening(rules, table_before, table_after, placed, out, v)

    # C8: time.
    limit = rules.turn.time_limit_s
    if limit is not None and elapsed is not None and elapsed > limit:
        v.append(Violation.of("C8", "too_late", elapsed=round(elapsed, 1), limit=limit))

    # Owned melds (Hindu Rummy mit Stehlen, §3.8).
    if rules.meld.ownership is MeldOwnership.OWNED:
        may_lay_off = rules.variant.lay_off_on_opponents_after_opening and (
            opened or (out.opens and rules.opening.allow_table_play_same_turn)
        )
        out.owners = _check_owned(
            table_before,
            substituted,
            table_after,
            owners_before or [None] * len(table_before),
            mover,
            placed,
            may_lay_off,
            v,
        )
    else:
        out.owners = (None,) * len(out.table)

    v.sort(key=lambda x: x.code)
    return out


# -- helpers ------------------------------------------------------------------------------


def _cards(melds: Iterable[Meld]) -> Counter[Card]:
    c: Counter[Card] = Counter()
    for m in melds:
        c.update(m.cards)
    return c


def _contains(big: Counter[K], small: Counter[K]) -> bool:
    return all(big[k] >= n for k, n in small.items())


def _match(
    smalls: Sequence[Counter[K]],
    bigs: Sequence[Counter[K]],
    fits: Callable[[Counter[K], Counter[K]], bool],
) -> list[int] | None:
    """Give each small multiset its own big one that ``fits`` it (bipartite matching)."""
    n_big = len(bigs)
    owner: list[int] = [-1] * n_big
    adj = [[j for j in range(n_big) if fits(bigs[j], s)] for s in smalls]

    def augment(i: int, seen: list[bool]) -> bool:
        for j in adj[i]:
            if seen[j]:
                continue
            seen[j] = True
            if owner[j] < 0 or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(smalls)):
        if not augment(i, [False] * n_big):
            return None
    result = [-1] * len(smalls)
    for j, i in enumerate(owner):
        if i >= 0:
            result[i] = j
    return result


def _check_retrievals(
    rules: ManipulationRules,
    table_before: Sequence[Meld],
    table_after: Sequence[Meld],
    placed: Counter[Card],
    before_c: Counter[Card],
    retrievals: Sequence[Retrieval],
    opened: bool,
    v: list[Violation],
) -> list[tuple[MeldItem, ...]]:
    """Check each retrieval; return the turn-start melds with retrieved jokers replaced."""
    mr = rules.meld_rules
    substituted = [list(m.items) for m in table_before]
    if not retrievals:
        return [tuple(m) for m in substituted]
    j = rules.joker
    if not j.retrieval:
        v.append(Violation.of("C6", "no_retrieval"))
        return [tuple(m) for m in substituted]
    if j.retrieval_requires_opened and not opened:
        v.append(Violation.of("C6", "retrieve_before_open"))
    from_hand: Counter[Card] = Counter()
    from_table: Counter[Card] = Counter()
    for r in retrievals:
        if not 0 <= r.meld < len(table_before):
            v.append(Violation.of("C6", "no_such_meld", index=r.meld))
            continue
        meld = table_before[r.meld]
        slot = next(
            (
                k
                for k, it in enumerate(substituted[r.meld])
                if it.card.is_joker and it.represents == r.identity
            ),
            None,
        )
        if slot is None:
            v.append(Violation.of("C6", "no_joker_for", meld=str(meld), identity=str(r.identity)))
            continue
        x = r.replacement
        kind = meld.kind(mr)
        if x.is_joker or x.rank != r.identity.rank:
            v.append(
                Violation.of("C6", "cannot_replace", replacement=str(x), identity=str(r.identity))
            )
            continue
        if kind is MeldKind.RUN and x.suit != r.identity.suit:
            v.append(Violation.of("C6", "run_replacement", identity=str(r.identity)))
            continue
        if kind is MeldKind.SET and x.suit != r.identity.suit:
            natural_suits = {it.card.suit for it in meld.items if not it.is_wild}
            if not j.set_suit_flexible:
                v.append(Violation.of("C6", "set_suit_fixed", identity=str(r.identity)))
                continue
            if x.suit in natural_suits:
                v.append(Violation.of("C6", "suit_already_in", replacement=str(x), meld=str(meld)))
                continue
        if j.set3_requires_both and kind is MeldKind.SET and len(meld) == 3 and meld.jokers == 1:
            full = any(
                m.kind(mr) is MeldKind.SET
                and len(m) == 4
                and not any(it.is_wild for it in m.items)
                and m.items[0].card.rank == r.identity.rank
                for m in table_after
            )
            if not full:
                v.append(Violation.of("C6", "set3_both", meld=str(meld)))
                continue
        if r.from_table:
            if j.replacement_source is not ReplacementSource.HAND_OR_TABLE:
                v.append(Violation.of("C6", "replacement_from_hand", replacement=str(x)))
                continue
            from_table[x] += 1
            if from_table[x] > before_c[x]:
                v.append(Violation.of("C6", "no_table_replacement", replacement=str(x)))
                continue
        else:
            from_hand[x] += 1
            if from_hand[x] > placed[x]:
                v.append(Violation.of("C6", "replacement_not_placed", replacement=str(x)))
                continue
        substituted[r.meld][slot] = MeldItem.natural(x)
    return [tuple(m) for m in substituted]


def _is_new(meld: Meld, substituted: Sequence[tuple[MeldItem, ...]]) -> bool:
    """A meld that did not exist at turn start: it contains no turn-start meld's cards."""
    cards = Counter(meld.cards)
    return not any(_contains(cards, Counter(it.card for it in old)) for old in substituted)


def _check_disposition(
    rules: ManipulationRules,
    table_after: Sequence[Meld],
    substituted: Sequence[tuple[MeldItem, ...]],
    placed: Counter[Card],
    lifted_jokers: int,
    n_retrieved: int,
    v: list[Violation],
) -> None:
    d = rules.joker.retrieved_disposition
    if d is Disposition.KEEP or d is Disposition.NEVER_TO_HAND:
        return
    if lifted_jokers:
        v.append(Violation.of("C7", "reuse_same_turn"))
        return
    if d is Disposition.REUSE_SAME_TURN:
        return
    qualifying = 0
    for meld in table_after:
        if not meld.jokers or not _is_new(meld, substituted):
            continue
        if d is Disposition.REUSE_SAME_TURN_NEW_MELD_2:
            own = sum(min(n, placed[c]) for c, n in Counter(meld.cards).items() if not c.is_joker)
            if own < 2:
                continue
        if d is Disposition.REUSE_SAME_TURN_NEW_MELD_30 and (
            meld.check(rules.meld_rules) is not None or rules.opening_value(meld) < 30
        ):
            continue
        qualifying += meld.jokers
    if qualifying < n_retrieved:
        need = {
            Disposition.REUSE_SAME_TURN_NEW_MELD: "new_meld",
            Disposition.REUSE_SAME_TURN_NEW_MELD_2: "new_meld_2",
            Disposition.REUSE_SAME_TURN_NEW_MELD_30: "new_meld_30",
        }[d]
        v.append(Violation.of("C7", "reuse_into", into=need))


def _check_opening(
    rules: ManipulationRules,
    table_before: Sequence[Meld],
    table_after: Sequence[Meld],
    placed: Counter[Card],
    out: PlayAnalysis,
    v: list[Violation],
) -> None:
    o = rules.opening
    mr = rules.meld_rules
    valid_after = [m for m in table_after if m.check(mr) is None]
    if not o.allow_table_play_same_turn:
        before_norm = Counter(m.normalized(mr) if m.check(mr) is None else m for m in table_before)
        after_norm = Counter(m.normalized(mr) for m in valid_after)
        missing = before_norm - after_norm
        if missing:
            first = next(iter(missing))
            v.append(Violation.of("C5", "opening_table_changed", meld=str(first)))
            return
        candidates = list((after_norm - before_norm).elements())
    else:
        candidates = [m for m in valid_after if _contains(placed, Counter(m.cards))]
    if o.type is OpeningType.RUN_FROM_HAND:
        runs = [m for m in candidates if m.kind(mr) is MeldKind.RUN and len(m) >= o.run_length]
        if runs:
            out.opens = True
            best = max(runs, key=rules.opening_value)
            out.opening_value = rules.opening_value(best)
            out.opening_melds = (best.normalized(mr),)
        else:
            v.append(Violation.of("C5", "opening_needs_run", count=o.run_length))
        return
    # The whole value of the melds laid from the hand, not just enough of them to meet the
    # threshold: the opening is reported as worth what it is worth.
    value, chosen = rules.best_opening(candidates, placed, complete=True)
    out.opening_value = value
    out.opening_melds = tuple(candidates[i].normalized(mr) for i in sorted(chosen))
    if value >= o.threshold:
        out.opens = True
    else:
        v.append(Violation.of("C5", "opening_too_low", value=value, threshold=o.threshold))


def _check_owned(
    table_before: Sequence[Meld],
    substituted: Sequence[tuple[MeldItem, ...]],
    table_after: Sequence[Meld],
    owners_before: Sequence[int | None],
    mover: int,
    placed: Counter[Card],
    may_lay_off: bool,
    v: list[Violation],
) -> tuple[int | None, ...]:
    """Opponents' melds may only grow (lay-off variant) or must stay; returns new owners."""
    others = [i for i, o in enumerate(owners_before) if o is not None and o != mover]
    bigs = [Counter(m.items) for m in table_after]
    if may_lay_off:
        smalls = [Counter(substituted[i]) for i in others]
        assignment = _match(smalls, bigs, _contains)
    else:
        smalls = [Counter(table_before[i].items) for i in others]
        assignment = _match(smalls, bigs, lambda big, small: big == small)
    owners: list[int | None] = [mover] * len(table_after)
    if assignment is None:
        v.append(Violation.of("C2", "owned_lay_off_only" if may_lay_off else "owned_fixed"))
        return tuple(owners)
    added: Counter[Card] = Counter()
    for i, j in zip(others, assignment, strict=True):
        owners[j] = owners_before[i]
        added += Counter(table_after[j].cards) - Counter(it.card for it in substituted[i])
    if not _contains(placed, added):
        v.append(Violation.of("C2", "owned_added_from_hand"))
    return tuple(owners)
