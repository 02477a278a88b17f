"""A table change as short steps a player can carry out at a real table (English, German).

The rules judge only the table at the end of a turn (RULES.md §2.1), but a person needs
the way there. :func:`explain_steps` turns a before/after pair of tables into steps in
the seed vocabulary (RULES.md §4.3: add/Anfügen, split/Splitten, replace/Ersetzen,
combine/Kombinieren, new meld, swap joker); :func:`explain` renders them as text.

    >>> from openrummy import Meld, find_preset
    >>> before = [Meld.parse("[4S 5S 6S 7S]")]
    >>> after = [Meld.parse("[5S 6S 7S]"), Meld.parse("[4S 4H 4D]")]
    >>> explain(before, after)
    ['1. Split: take 4♠ from [4♠ 5♠ 6♠ 7♠]; lay 4♠ 4♥ 4♦ as a new set']
    >>> explain(before, after, lang="de")
    ['1. Splitten: nimm 4♠ aus [4♠ 5♠ 6♠ 7♠]; lege 4♠ 4♥ 4♦ als neuen Satz aus']

Every step records what it takes from which meld, which hand cards it adds, and the meld
it leaves; :func:`apply_steps` replays them, so the tests can check that following the
steps from the old table gives exactly the new one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from openrummy.cards import Card
from openrummy.errors import InvalidMeldError
from openrummy.melds import Meld, MeldItem, MeldKind, MeldRules

__all__ = ["Step", "StepKind", "apply_steps", "explain", "explain_steps"]


class StepKind(Enum):
    NEW_MELD = "new meld"
    ADD = "add"
    SPLIT = "split"
    REPLACE = "replace"
    COMBINE = "combine"
    SWAP_JOKER = "swap joker"
    REARRANGE = "rearrange"


_KIND_TEXT = {
    "en": {
        StepKind.NEW_MELD: "New meld",
        StepKind.ADD: "Add",
        StepKind.SPLIT: "Split",
        StepKind.REPLACE: "Replace",
        StepKind.COMBINE: "Combine",
        StepKind.SWAP_JOKER: "Swap joker",
        StepKind.REARRANGE: "Rearrange",
    },
    "de": {
        StepKind.NEW_MELD: "Neue Kombination",
        StepKind.ADD: "Anfügen",
        StepKind.SPLIT: "Splitten",
        StepKind.REPLACE: "Ersetzen",
        StepKind.COMBINE: "Kombinieren",
        StepKind.SWAP_JOKER: "Joker tauschen",
        StepKind.REARRANGE: "Umlegen",
    },
}


@dataclass(frozen=True, slots=True)
class Step:
    """One step: take ``takes`` from table melds, add ``from_hand``, leave ``result``.

    ``target`` is the index (in the table before the play) of the meld that becomes
    ``result``, or None when ``result`` is a new meld. ``takes`` are pairs (index of a
    meld of the old table, the cards taken from it).
    """

    kind: StepKind
    takes: tuple[tuple[int, tuple[Card, ...]], ...]
    from_hand: tuple[Card, ...]
    target: int | None
    result: Meld


def _key(m: Meld, rules: MeldRules) -> str:
    try:
        return str(m.normalized(rules))
    except InvalidMeldError:
        return str(m)


def explain_steps(
    before: Sequence[Meld], after: Sequence[Meld], rules: MeldRules | None = None
) -> list[Step]:
    """The steps that turn the table ``before`` into ``after`` (hand cards make up the rest).

    Melds that did not change give no step. Each changed meld of ``after`` is built on the
    old meld it shares most cards with (its *base*), if any; cards it needs beyond its
    base come from other old melds first, then from the hand.
    """
    mr = rules or _guess_rules(before, after)
    # 1. melds left exactly as they were
    before_left = list(range(len(before)))
    after_left: list[int] = []
    pool: dict[str, list[int]] = {}
    for i in before_left:
        pool.setdefault(_key(before[i], mr), []).append(i)
    unchanged: set[int] = set()
    for k, m in enumerate(after):
        lst = pool.get(_key(m, mr))
        if lst:
            unchanged.add(lst.pop(0))
        else:
            after_left.append(k)
    before_left = [i for i in before_left if i not in unchanged]
    # 2. a base for each changed meld: greedy by largest overlap
    bc = {i: Counter(before[i].cards) for i in before_left}
    ac = {k: Counter(after[k].cards) for k in after_left}
    pairs = sorted(
        ((sum((bc[i] & ac[k]).values()), i, k) for i in before_left for k in after_left),
        key=lambda x: (-x[0], x[1], x[2]),
    )
    base_of: dict[int, int] = {}
    based: set[int] = set()
    for ov, i, k in pairs:
        if ov < 2 or k in base_of or i in based:
            continue
        base_of[k] = i
        based.add(i)
    # 3. which old card goes where: a base keeps what it can, the rest is free supply
    free: dict[int, Counter[Card]] = {i: Counter(bc[i]) for i in before_left}
    demand: dict[int, Counter[Card]] = {}
    for k in after_left:
        need = Counter(ac[k])
        if k in base_of:
            i = base_of[k]
            keep = free[i] & need
            free[i] -= keep
            need -= keep
        demand[k] = need
    takes: dict[int, list[tuple[int, list[Card]]]] = {k: [] for k in after_left}
    hand: dict[int, list[Card]] = {k: [] for k in after_left}
    for k in after_left:
        for card, n in sorted(demand[k].items(), key=lambda kv: kv[0].sort_key()):
            left = n
            for i in before_left:
                if left == 0:
                    break
                got = min(left, free[i][card])
                if got:
                    free[i][card] -= got
                    left -= got
                    for src in takes[k]:
                        if src[0] == i:
                            src[1].extend([card] * got)
                            break
                    else:
                        takes[k].append((i, [card] * got))
            hand[k].extend([card] * left)
    # 4. steps: new melds first (they only take), then the melds built on a base, each
    # after every step that takes from it, so that a step shows the meld as it lies
    lost: Counter[int] = Counter()
    for k in after_left:
        for i, cards in takes[k]:
            lost[i] += len(cards)
    steps: list[Step] = []
    for k in after_left:
        if k in base_of:
            continue
        tk = tuple((i, tuple(c)) for i, c in takes[k])
        kind = StepKind.NEW_MELD if not tk else StepKind.SPLIT if len(tk) == 1 else StepKind.COMBINE
        steps.append(Step(kind, tk, tuple(hand[k]), None, after[k]))
    todo = [k for k in after_left if k in base_of]
    while todo:
        pending = {i for k2 in todo for i, _c in takes[k2] if i != base_of[k2]}
        # melds that only lose cards go last (what is left of them is then final)
        ready = [k for k in todo if base_of[k] not in pending]
        busy = [k for k in ready if takes[k] or hand[k]]
        pick = (busy or ready or todo)[0]
        todo.remove(pick)
        base = base_of[pick]
        tk = tuple((i, tuple(c)) for i, c in takes[pick])
        hd = tuple(hand[pick])
        if not tk and not hd:
            # it only lost cards: a step only if what is left does not read as the result
            rest_items = _replay(before, steps)[base]
            if _key(Meld(tuple(rest_items)), mr) == _key(after[pick], mr):
                continue
            kind = StepKind.REARRANGE
        else:
            joker = Card(0, None)
            lost_joker = Counter(before[base].cards)[joker] > Counter(after[pick].cards)[joker]
            if lost_joker and hd and not any(c.is_joker for _i, cs in tk for c in cs):
                kind = StepKind.SWAP_JOKER
            elif tk:
                kind = StepKind.COMBINE
            elif lost[base]:
                kind = StepKind.REPLACE
            else:
                kind = StepKind.ADD
        steps.append(Step(kind, tk, hd, base, after[pick]))
    return steps


def _guess_rules(before: Sequence[Meld], after: Sequence[Meld]) -> MeldRules:
    from openrummy.melds import AceMode

    for mode in (AceMode.LOW_ONLY, AceMode.HIGH_OR_LOW, AceMode.WRAPAROUND):
        r = MeldRules(ace_mode=mode, min_naturals=0, set_max=8)
        if all(m.is_valid(r) for m in (*before, *after)):
            return r
    return MeldRules(ace_mode=AceMode.WRAPAROUND, min_naturals=0, set_max=8)


def _replay(before: Sequence[Meld], steps: Sequence[Step]) -> list[list[MeldItem]]:
    work: list[list[MeldItem]] = [list(m.items) for m in before]
    for st in steps:
        work = _replay_one(work, st)
    return work


def apply_steps(before: Sequence[Meld], steps: Sequence[Step]) -> list[Meld]:
    """The table after following ``steps`` from ``before`` (emptied melds vanish)."""
    return [Meld(tuple(items)) for items in _replay(before, steps) if items]


def _items_text(meld: Meld, lang: str) -> str:
    return " ".join(it.pretty(lang) for it in meld.items)


def _cards_text(cards: Sequence[Card], lang: str) -> str:
    return " ".join(c.pretty(lang) for c in sorted(cards, key=Card.sort_key))


def explain(
    before: Sequence[Meld],
    after: Sequence[Meld],
    *,
    lang: str = "en",
    rules: MeldRules | None = None,
) -> list[str]:
    """Numbered steps in English (``lang="en"``) or German (``"de"``)."""
    if lang not in _KIND_TEXT:
        raise ValueError(f"language {lang!r}: use 'en' or 'de'")
    mr = rules or _guess_rules(before, after)
    steps = explain_steps(before, after, mr)
    work: list[list[MeldItem]] = [list(m.items) for m in before]
    out: list[str] = []
    de = lang == "de"
    for n, st in enumerate(steps, 1):
        parts: list[str] = []
        for i, cards in st.takes:
            shown = Meld(tuple(work[i])).pretty(lang)
            parts.append(
                f"nimm {_cards_text(cards, lang)} aus {shown}"
                if de
                else f"take {_cards_text(cards, lang)} from {shown}"
            )
        result = st.result.normalized(mr) if st.result.is_valid(mr) else st.result
        kind = result.kind(mr)
        if st.target is None:
            if de:
                what = "neuen Satz" if kind is MeldKind.SET else "neue Reihe"
                parts.append(f"lege {_items_text(result, lang)} als {what} aus")
            else:
                what = "set" if kind is MeldKind.SET else "run"
                parts.append(f"lay {_items_text(result, lang)} as a new {what}")
        else:
            shown = Meld(tuple(work[st.target])).pretty(lang)
            added = [c for _i, cs in st.takes for c in cs] + list(st.from_hand)
            if st.kind is StepKind.SWAP_JOKER:
                parts.append(
                    f"lege {_cards_text(st.from_hand, lang)} in {shown}, nimm den Joker heraus; "
                    f"es bleibt {result.pretty(lang)}"
                    if de
                    else f"put {_cards_text(st.from_hand, lang)} into {shown} in place of the "
                    f"joker; it reads {result.pretty(lang)}"
                )
            elif added:
                parts.append(
                    f"lege {_cards_text(added, lang)} an {shown} an: {result.pretty(lang)}"
                    if de
                    else f"add {_cards_text(added, lang)} to {shown}: {result.pretty(lang)}"
                )
            else:
                parts.append(
                    f"lege {shown} um zu {result.pretty(lang)}"
                    if de
                    else f"rearrange {shown} as {result.pretty(lang)}"
                )
        # replay this step on the working table, for the next step's wording
        work = _replay_one(work, st)
        out.append(f"{n}. {_KIND_TEXT[lang][st.kind]}: " + "; ".join(parts))
    return out


def _replay_one(work: list[list[MeldItem]], st: Step) -> list[list[MeldItem]]:
    """``work`` after one step; raises if the step does not fit the table."""
    new = [list(items) for items in work]
    taken: list[Card] = []
    for i, cards in st.takes:
        for c in cards:
            # from the end: a meld already rebuilt keeps its leftovers after its new items
            for pos in range(len(new[i]) - 1, -1, -1):
                if new[i][pos].card == c:
                    del new[i][pos]
                    break
            else:
                raise InvalidMeldError(f"a step takes {c} from a meld that does not hold it")
            taken.append(c)
    have = Counter(taken) + Counter(st.from_hand)
    want = Counter(st.result.cards)
    if st.target is None:
        if have != want:
            raise InvalidMeldError(f"a step does not add up to {st.result}")
        new.append(list(st.result.items))
        return new
    old = new[st.target]
    have += Counter(it.card for it in old)
    if any(want[c] > have[c] for c in want):
        raise InvalidMeldError(f"a step does not add up to {st.result}")
    # cards of the old meld that later steps still take stay with it until then
    extra = have - want
    rest: list[MeldItem] = []
    for it in old:
        if extra[it.card] > 0:
            extra[it.card] -= 1
            rest.append(it)
    new[st.target] = [*st.result.items, *rest]
    return new
