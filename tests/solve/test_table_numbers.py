"""The solver's reading of table melds and writing of answer melds as numbers.

:func:`_read_meld` checks a table meld from bit masks of its suits and ranks, and
:meth:`_Solver.answer` builds the answer's melds, their sort keys and their keys straight
from the core's items. Both must agree with the engine's own checks and normal forms
(:meth:`Meld.check`, :meth:`Meld.normalized`, :func:`_meld_order`) for every kind of meld
in every ace mode, valid or not.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from openrummy.cards import JOKER, Card, Suit
from openrummy.melds import Meld, MeldItem
from openrummy.rules import find_preset
from openrummy.rules.manipulation import ManipulationRules
from openrummy.solve._problem import CoreMelds, CoreResult
from openrummy.solve.settings import DEFAULT_SETTINGS
from openrummy.solve.table import (
    _JOKER_CODE,
    _checked_meld,
    _deck,
    _meld_facts,
    _meld_order,
    _normal,
    _read_meld,
    _Solver,
)

OPTIONS: list[tuple[str, dict[str, object]]] = [
    ("robbers", {}),
    ("robbers", {"meld.ace_mode": "HIGH_OR_LOW"}),
    ("robbers", {"meld.ace_mode": "HIGH_OR_LOW", "meld.ace_both_ends": True}),
    ("robbers", {"meld.ace_mode": "WRAPAROUND"}),
    ("robbers", {"meld.ace_mode": "WRAPAROUND", "meld.set_max": 8, "meld.min_naturals": 2}),
    ("robbers", {"meld.min_naturals": 0, "meld.min_len": 4}),
    ("robbers", {"meld.min_naturals": 3, "meld.set_max": 6}),
    ("rummikub", {}),
]


def _rules(preset: str, options: dict[str, object]) -> ManipulationRules:
    rules = find_preset(preset, options)
    assert isinstance(rules, ManipulationRules)
    return rules


def _random_meld(rnd: random.Random, tiles: bool) -> Meld:
    """A set or run of cards or tiles, valid or not: items shuffled, jokers named or not,
    now and then a natural standing for another card, a card of the other deck, a repeat."""
    if rnd.random() < 0.45:
        rank = rnd.randint(1, 13)
        suits = [Suit(s) for s in range(4) for _ in range(2)]
        rnd.shuffle(suits)
        cells = [(s, rank) for s in suits[: rnd.randint(1, 8)]]
    else:
        suit = Suit(rnd.randrange(4))
        start = rnd.randint(1, 13)
        cells = [(suit, (start - 1 + k) % 13 + 1) for k in range(rnd.randint(1, 14))]
        if rnd.random() < 0.1:
            cells.append(rnd.choice(cells))
    items: list[MeldItem] = []
    for s, r in cells:
        card = Card(r, s, tiles)
        roll = rnd.random()
        if roll < 0.2:
            items.append(MeldItem(JOKER, card))
        elif roll < 0.22:
            items.append(MeldItem(JOKER, None))
        elif roll < 0.24:
            items.append(MeldItem(Card(rnd.randint(1, 13), s, tiles), card))
        elif roll < 0.26:
            items.append(MeldItem.natural(Card(r, s, not tiles)))
        elif roll < 0.28:
            items.append(MeldItem(JOKER, JOKER))
        else:
            items.append(MeldItem(Card(r, s, tiles), Card(r, s, tiles)))  # equal, not shared
    rnd.shuffle(items)
    return Meld(tuple(items))


@pytest.mark.parametrize(("preset", "options"), OPTIONS, ids=lambda x: str(x))
def test_reading_a_meld_agrees_with_its_check(preset: str, options: dict[str, object]) -> None:
    rules = _rules(preset, options)
    deck = _deck(rules)
    mr = rules.meld_rules
    rnd = random.Random(3)
    read = 0
    for _ in range(600):
        meld = _random_meld(rnd, deck.tiles)
        got = _read_meld(deck, meld)
        checked = _checked_meld(meld, mr, deck.tiles)
        if got is None:
            # left to the general reading: then not plainly valid (a joker unnamed, a card
            # of the other deck, a natural standing for another card, a rank twice in a run)
            plain = all(
                it.represents is not None
                and it.represents.suit is not None
                and it.represents.tile == deck.tiles
                and (it.card.is_joker or it.card == it.represents)
                for it in meld.items
            )
            ranks = [it.represents.rank for it in meld.items if it.represents is not None]
            if plain and len(set(ranks)) in (1, len(ranks)):
                assert meld.check(mr) is not None, meld
            continue
        read += 1
        key, codes = got
        assert meld.check(mr) is None, meld
        # the same meld as the general reading (its items shared, equal to these)
        assert not isinstance(checked, tuple)
        assert checked is None or checked == meld
        assert (key, codes) == _meld_facts(meld), meld
        assert codes == [
            _JOKER_CODE if c.suit is None else int(c.suit) * 13 + c.rank - 1 for c in meld.cards
        ]
    assert read > 60


@pytest.mark.parametrize(("preset", "options"), OPTIONS, ids=lambda x: str(x))
def test_keys_tell_melds_apart_as_their_normal_forms_do(
    preset: str, options: dict[str, object]
) -> None:
    rules = _rules(preset, options)
    deck = _deck(rules)
    mr = rules.meld_rules
    rnd = random.Random(5)
    by_key: dict[int, Meld] = {}
    for _ in range(1200):
        meld = _random_meld(rnd, deck.tiles)
        got = _read_meld(deck, meld)
        if got is None:
            continue
        normal = _normal(meld, mr)
        seen = by_key.setdefault(got[0], normal)
        assert seen == normal, (seen, meld)
    normals = set(by_key.values())
    assert len(normals) == len(by_key) > 60


@pytest.mark.parametrize(("preset", "options"), OPTIONS, ids=lambda x: str(x))
def test_answer_melds_are_in_normal_form_and_play_order(
    preset: str, options: dict[str, object]
) -> None:
    """Core melds (suit, rank, joker, tag) in any item order: the answer's meld is the
    meld's normal form, its key the table reading's, its sort key in :func:`_meld_order`'s
    order, its cards counted."""
    rules = _rules(preset, options)
    deck = _deck(rules)
    mr = rules.meld_rules
    solver = _Solver(rules, [], 0, False, DEFAULT_SETTINGS)
    found = _core_melds(rules, random.Random(9))
    counts = [0] * (_JOKER_CODE + 1)
    made = solver.answer(CoreResult(0, found), counts)
    assert len(made) == len(found)
    want = Counter[int]()
    for (_sort_key, meld, tag, key), (_run, items) in zip(made, found, strict=True):
        made_of = Meld(tuple(deck.by_digit[s << 5 | r << 1 | j] for s, r, j, _t in items))
        assert meld == made_of.normalized(mr) == _normal(made_of, mr)
        assert tag == any(t for *_x, t in items)
        assert key == _meld_facts(meld)[0] is not None
        for c in meld.cards:
            want[_JOKER_CODE if c.suit is None else int(c.suit) * 13 + c.rank - 1] += 1
    assert counts == [want[c] for c in range(_JOKER_CODE + 1)]
    by_sort = [m for _k, m, _t, _key in sorted(made, key=lambda x: x[0])]
    by_order = sorted((m for _k, m, _t, _key in made), key=_meld_order)
    assert by_sort == by_order
    assert to_melds_agree(solver, found)


def _core_melds(
    rules: ManipulationRules, rnd: random.Random
) -> list[tuple[bool, list[tuple[int, int, bool, bool]]]]:
    """150 valid melds as core melds (suit, rank, joker, tag per item), half of them in
    normal order and the others in any order, now and then one twice."""
    deck = _deck(rules)
    mr = rules.meld_rules
    found: list[tuple[bool, list[tuple[int, int, bool, bool]]]] = []
    while len(found) < 150:
        meld = _random_meld(rnd, deck.tiles)
        if _read_meld(deck, meld) is None:
            continue
        items = [
            (int(it.represents.suit), it.represents.rank, it.card.is_joker, rnd.random() < 0.2)
            for it in meld.items
            if it.represents is not None and it.represents.suit is not None
        ]
        if rnd.random() < 0.5:
            items = [items[i] for i in _order_of(_normal(meld, mr), meld)]
        found.append((False, items))
        if rnd.random() < 0.2:
            found.append((False, list(items)))  # the same meld twice
    return found


@pytest.mark.parametrize(("preset", "options"), OPTIONS, ids=lambda x: str(x))
def test_answer_from_codes_is_the_answer_from_items(
    preset: str, options: dict[str, object]
) -> None:
    """The compiled search's answer carries its items' codes (:class:`CoreMelds`), and the
    answer read from them (one compiled call) is the one read from the items: the same
    sort keys, melds of the same shared items, tags, keys and counts, whether a meld is in
    normal order or not, or comes twice."""
    rules = _rules(preset, options)
    solver = _Solver(rules, [], 0, False, DEFAULT_SETTINGS)
    for seed in range(3):
        found = _core_melds(rules, random.Random(20 + seed))
        coded = CoreMelds(found)
        coded.codes = [s * 32 + r * 2 + j for _run, its in found for s, r, j, _t in its]
        coded.heads = [len(its) * 4 + run * 2 + any(t for *_x, t in its) for run, its in found]
        counts = [0] * (_JOKER_CODE + 1)
        want_counts = [0] * (_JOKER_CODE + 1)
        got = solver.answer(CoreResult(0, coded), counts)
        want = solver.answer(CoreResult(0, list(found)), want_counts)
        assert counts == want_counts
        assert [(k, tag, key) for k, _m, tag, key in got] == [
            (k, tag, key) for k, _m, tag, key in want
        ]
        for (_k, meld, _t, _key), (_k2, other, _t2, _key2) in zip(got, want, strict=True):
            assert len(meld.items) == len(other.items)
            assert all(a is b for a, b in zip(meld.items, other.items, strict=True))


def _order_of(normal: Meld, meld: Meld) -> list[int]:
    """The positions of ``normal``'s items in ``meld``."""
    left = list(range(len(meld.items)))
    out = []
    for it in normal.items:
        i = next(i for i in left if meld.items[i] == it)
        left.remove(i)
        out.append(i)
    return out


def to_melds_agree(
    solver: _Solver, found: list[tuple[bool, list[tuple[int, int, bool, bool]]]]
) -> bool:
    """:meth:`_Solver.to_melds` gives the answer's melds and tags, in the core's order."""
    got = solver.to_melds(CoreResult(0, found))
    made = solver.answer(CoreResult(0, found), [0] * (_JOKER_CODE + 1))
    return got == [(m, tag) for _k, m, tag, _key in made]
