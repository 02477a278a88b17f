"""A table change as short steps a player can carry out at a real table (English, German).

The rules judge only the table at the end of a turn (RULES.md §2.1), but a person needs
the way there. :func:`explain_steps` turns a before/after pair of tables into steps in
the seed vocabulary (RULES.md §4.3: add/Anfügen, split/Splitten, replace/Ersetzen,
combine/Kombinieren, new meld, swap joker); :func:`explain_messages` makes them
messages (codes, cards in notation) and :func:`explain` words those through the message
catalogue, cards and tiles as the table shows them.

    >>> from openrummy import Meld, find_preset
    >>> before = [Meld.parse("[4S 5S 6S 7S]")]
    >>> after = [Meld.parse("[5S 6S 7S]"), Meld.parse("[4S 4H 4D]")]
    >>> explain(before, after)
    ['1. Split: take 4♠ from [4♠ 5♠ 6♠ 7♠]; lay 4♠ 4♥ 4♦ as a new set']
    >>> explain([], [Meld.parse("[K11 R11 B11]")], lang="de")
    ['1. Neue Kombination: lege schwarz 11 rot 11 blau 11 als neuen Satz aus']
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
from openrummy.messages import LANGS, Reason, catalogue, render

__all__ = [
    "Step",
    "StepKind",
    "apply_steps",
    "card_label",
    "explain",
    "explain_messages",
    "explain_steps",
]


class StepKind(Enum):
    NEW_MELD = "new meld"
    ADD = "add"
    SPLIT = "split"
    REPLACE = "replace"
    COMBINE = "combine"
    SWAP_JOKER = "swap joker"
    REARRANGE = "rearrange"


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


def card_label(code: str, lang: str = "en") -> str:
    """A card or tile in notation as the table shows it in words: ``4♠``, ``black 11``,
    ``Joker`` (the web page's labels too).

    >>> card_label("K11"), card_label("R3", "de"), card_label("10H")
    ('black 11', 'rot 3', '10♥')
    """
    card = Card.parse(code)
    if card.is_joker:
        return str(catalogue()["words"]["joker"][lang])
    if card.tile and card.suit is not None:
        word = catalogue()["words"][f"tile.{str(card)[0]}"]
        return f"{word[lang]} {card.rank}"
    return card.pretty(lang)


def _codes(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(str(c) for c in sorted(cards, key=Card.sort_key))


def _taken(items: Sequence[MeldItem], cards: Sequence[Card]) -> tuple[str, ...]:
    """The items a step takes from a meld lying as ``items``, in notation and card order: a
    joker as the item it is there (``JK=O11``), so that of two jokers the step names the
    one it moves."""
    rest = list(items)
    out = [_take(rest, c) for c in cards]
    return tuple(str(it) for it in sorted(out, key=lambda it: it.card.sort_key()))


def _take(items: list[MeldItem], card: Card) -> MeldItem:
    """Remove ``card`` from a meld's ``items`` and return its item: the last such item (a
    meld already rebuilt keeps its leftovers after its new items); raises if none."""
    for pos in range(len(items) - 1, -1, -1):
        if items[pos].card == card:
            return items.pop(pos)
    raise InvalidMeldError(f"a step takes {card} from a meld that does not hold it")


def _items(meld: Meld | Sequence[MeldItem]) -> tuple[str, ...]:
    items = meld.items if isinstance(meld, Meld) else meld
    return tuple(str(it) for it in items)


def _meld(items: Sequence[MeldItem]) -> str:
    return "[" + " ".join(_items(items)) + "]"


def explain_messages(
    before: Sequence[Meld], after: Sequence[Meld], rules: MeldRules | None = None
) -> list[Reason]:
    """The steps of :func:`explain_steps` as messages: a code and its cards in notation,
    which the message catalogue (or the web page) words in the reader's language.

    >>> msgs = explain_messages([Meld.parse("[5H 6H 7H]")], [Meld.parse("[5H 6H 7H 8H]")])
    >>> msgs[0].to_json()["step"], msgs[0].to_json()["parts"][0]["cards"]
    ('step.add', ['8H'])
    """
    mr = rules or _guess_rules(before, after)
    steps = explain_steps(before, after, mr)
    work: list[list[MeldItem]] = [list(m.items) for m in before]
    out: list[Reason] = []
    for n, st in enumerate(steps, 1):
        # a joker taken is named by what it stands for (``JK=O11``): of two jokers in a
        # meld, the one the step moves (the one :func:`_replay_one` removes)
        parts: list[Reason] = [
            Reason.of("step.take", cards=_taken(work[i], cards), meld=_meld(work[i]))
            for i, cards in st.takes
        ]
        result = st.result.normalized(mr) if st.result.is_valid(mr) else st.result
        if st.target is None:
            key = "step.lay_set" if result.kind(mr) is MeldKind.SET else "step.lay_run"
            parts.append(Reason.of(key, cards=_items(result)))
        else:
            shown = _meld(work[st.target])
            added = [c for _i, cs in st.takes for c in cs] + list(st.from_hand)
            if st.kind is StepKind.SWAP_JOKER:
                parts.append(
                    Reason.of(
                        "step.swap_in",
                        cards=_codes(st.from_hand),
                        meld=shown,
                        result=_meld(result.items),
                    )
                )
            elif added:
                parts.append(
                    Reason.of(
                        "step.add_to", cards=_codes(added), meld=shown, result=_meld(result.items)
                    )
                )
            else:
                parts.append(Reason.of("step.rearrange_as", meld=shown, result=_meld(result.items)))
        # replay this step on the working table, for the next step's wording
        work = _replay_one(work, st)
        word = "step." + st.kind.name.lower()
        out.append(Reason.of("step", index=n, step=word, parts=tuple(parts)))
    return out


def explain(
    before: Sequence[Meld],
    after: Sequence[Meld],
    *,
    lang: str = "en",
    rules: MeldRules | None = None,
    tiles: bool = False,
) -> list[str]:
    """Numbered steps in English (``lang="en"``) or German (``"de"``): the messages of
    :func:`explain_messages` in words, cards and tiles as the table shows them (at a tile
    table, ``tiles``, the steps say tile and rack)."""
    if lang not in LANGS:
        raise ValueError(f"language {lang!r}: use 'en' or 'de'")
    msgs = explain_messages(before, after, rules)
    return [render(m, lang, label=card_label, tiles=tiles) for m in msgs]


def _replay_one(work: list[list[MeldItem]], st: Step) -> list[list[MeldItem]]:
    """``work`` after one step; raises if the step does not fit the table."""
    new = [list(items) for items in work]
    taken: list[Card] = []
    for i, cards in st.takes:
        for c in cards:
            _take(new[i], c)
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
