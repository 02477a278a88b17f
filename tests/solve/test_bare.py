"""The kept-melds tie-break's questions ("can these cards all be laid out, every one?")
answered by one compiled call each (``_fast.BareSearch``) agree with the general search
(:func:`can_arrange`), and the melds they give are valid and hold exactly the cards asked
about, under every ace mode, with four decks and six jokers, and for Rummikub."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from helpers import manipulation_rules
from helpers.positions import random_table
from openrummy.cards import Card, parse_cards
from openrummy.games.manipulation import ManipulationGame
from openrummy.melds import Meld
from openrummy.rules import ManipulationRules
from openrummy.solve import _keep, best_play, can_arrange, table
from openrummy.solve._fast import (
    _ABORT,
    _INFEASIBLE,
    _MCN,
    _STATES,
    _TOP,
    BareSearch,
    FastSearch,
    _ask,
    _bare_tables,
    _frame,
    _pin_mode,
    _prepare,
    _set_table,
    _side_counts,
    bare_memos,
    unframed,
)
from openrummy.solve._problem import HIGH, LOW, NEG, OPEN_NONE, WRAP, CoreResult, _set_parts
from openrummy.solve.settings import DEFAULT_SETTINGS
from openrummy.solve.table import _counts, _norm_card, _Solver, _windows

RULES: list[tuple[str, dict[str, object]]] = [
    ("robbers", {}),
    ("robbers_s003", {}),  # wrap-around aces
    ("robbers", {"meld.ace_mode": "HIGH_OR_LOW"}),
    ("robbers", {"deck.standard_decks": 4, "deck.printed_jokers": 6}),
    ("robbers_s003", {"deck.standard_decks": 4, "deck.printed_jokers": 6}),
    ("rummikub", {}),
]


def _question(
    rng: random.Random,
    rules: ManipulationRules,
    size: tuple[int, int],
    drop: float = 0.0,
    add: float = 0.0,
) -> list[Card]:
    """The cards of a random table of ``size`` cards (a few valid melds), with one card taken
    out with probability ``drop`` and one card of the rest of the deck added with
    probability ``add``: questions arrangeable and not. (No draw is made for a probability
    of 0, so each test's sample depends only on the steps it asks for.)"""
    pool = ManipulationGame.full_deck(rules)
    rng.shuffle(pool)
    cards = [c for m in random_table(rng, rules, pool, rng.randint(*size)) for c in m.cards]
    if drop and rng.random() < drop and cards:
        cards.remove(rng.choice(cards))
    if add and rng.random() < add:
        cards.append(pool[0])
    return cards


@pytest.mark.parametrize(("game", "over"), RULES)
def test_bare_questions_agree_with_the_search(game: str, over: dict[str, object]) -> None:
    rules = manipulation_rules(game, over)
    solver = _Solver(rules, [], OPEN_NONE, False, DEFAULT_SETTINGS)
    spec = solver.spec
    longest = spec.min_len if spec.min_nat <= 1 else 13
    bare = BareSearch(spec, solver.weight, solver.jw, _windows(spec.ace, spec.min_len, longest))
    rng = random.Random(f"bare {game} {sorted(over.items())}")
    answers = Counter[bool]()
    for _ in range(150):
        # the cards of a few valid melds, often with one card taken out or one added:
        # arrangeable and not in about equal parts
        cards = _question(rng, rules, (3, 30), drop=0.3, add=0.3)
        t, tj = _counts(cards)
        if not bare.fits(t, tj):
            continue
        got = bare.arrange(t, tj, 1 << 30)
        want = can_arrange(rules, cards)
        assert (got is not None) == want, [str(c) for c in cards]
        answers[want] += 1
        if got is None:
            continue
        melds = [m for m, _tag in solver.to_melds(CoreResult(0, got))]
        for m in melds:
            assert m.check(rules.meld_rules) is None, str(m)
        laid = Counter(it.card for m in melds for it in m.items)
        assert laid == Counter(_norm_card(c, rules.tiles) for c in cards)
    # both answers met (the sample is not all one kind)
    assert answers[True] >= 5 and answers[False] >= 5, answers


@pytest.mark.parametrize(("game", "over"), RULES)
def test_passing_over_empty_ranks_changes_no_answer(game: str, over: dict[str, object]) -> None:
    """The questions' search passes over the ranks where nothing can happen
    (``_fast._empty_ranks``): with it and without it every question gets the same answer,
    in valid melds of exactly its cards, and with it the questions visit fewer states."""
    rules = manipulation_rules(game, over)
    solver = _Solver(rules, [], OPEN_NONE, False, DEFAULT_SETTINGS)
    spec = solver.spec
    longest = spec.min_len if spec.min_nat <= 1 else 13
    windows = _windows(spec.ace, spec.min_len, longest)
    on = BareSearch(spec, solver.weight, solver.jw, windows)
    off = BareSearch(spec, solver.weight, solver.jw, windows)
    off.skip = 0
    rng = random.Random(f"skip {game} {sorted(over.items())}")
    states = Counter[str]()
    answers = Counter[bool]()
    for _ in range(80):
        # a few melds' cards, often not arrangeable: ranks without cards between them
        cards = _question(rng, rules, (3, 20), add=0.3)
        t, tj = _counts(cards)
        if not on.fits(t, tj) or not off.fits(t, tj):
            continue
        got = on.arrange(t, tj, 1 << 30)
        states["on"] += int(on.prm[_STATES])
        want = off.arrange(t, tj, 1 << 30)
        states["off"] += int(off.prm[_STATES])
        assert (got is None) == (want is None), [str(c) for c in cards]
        answers[got is not None] += 1
        if got is None:
            continue
        melds = [m for m, _tag in solver.to_melds(CoreResult(0, got))]
        for m in melds:
            assert m.check(rules.meld_rules) is None, str(m)
        laid = Counter(it.card for m in melds for it in m.items)
        assert laid == Counter(_norm_card(c, rules.tiles) for c in cards)
    assert answers[True] >= 5 and answers[False] >= 3, answers
    assert states["on"] < states["off"], states


@pytest.mark.parametrize(("game", "over"), RULES)
def test_the_compiled_tie_break_makes_the_same_decisions(
    monkeypatch: pytest.MonkeyPatch, game: str, over: dict[str, object]
) -> None:
    """``_keep.Keeper`` (the whole repair loop in one compiled call) keeps the same old
    melds and leaves the same play as ``_keep_greedy``'s own loop, on tables of 30-150
    cards with 14-card hands."""
    rules = manipulation_rules(game, over)
    real = table._keep_greedy
    compiled_runs = Counter[str]()
    real_run = _keep.Keeper.run

    def counted(self: _keep.Keeper, *args: Any) -> Any:
        compiled_runs["run"] += 1
        return real_run(self, *args)

    def both(
        solver: _Solver, melds: Sequence[Meld], found: CoreResult, *, whole: bool = True
    ) -> tuple[list[int], CoreResult]:
        here = real(solver, melds, found, whole=False)
        there = real(solver, melds, found, whole=True)
        assert there[0] == here[0]
        assert there[1].melds == here[1].melds
        compiled_runs["asked"] += 1
        return there

    monkeypatch.setattr(table, "_keep_greedy", both)
    monkeypatch.setattr(_keep.Keeper, "run", counted)
    rng = random.Random(f"keep {game} {sorted(over.items())}")
    for _ in range(12):
        pool = ManipulationGame.full_deck(rules)
        rng.shuffle(pool)
        melds = random_table(rng, rules, pool, rng.choice((30, 60, 100, 150)))
        best_play(rules, melds, pool[:14])
    # the compiled loop ran on most positions (a few have nothing to repair)
    assert compiled_runs["run"] == compiled_runs["asked"] >= 8, compiled_runs


@pytest.mark.parametrize(("min_nat", "set_max"), [(1, 4), (0, 4), (2, 4), (1, 6), (1, 3)])
def test_sets_are_cut_as_set_parts_cuts_them(min_nat: int, set_max: int) -> None:
    """The compiled loop's cut of one rank's naturals and jokers into sets is the first
    cut of ``_problem._set_parts`` (the Python answers' own), for every vector of up to 3
    copies per suit and 5 jokers."""
    fs = np.zeros(32, np.int64)
    fb = np.zeros(32, np.int64)
    fw = np.full((33, 8), 7, np.int64)  # scratch: whatever a previous cut left there
    for vec in itertools.product(range(4), repeat=4):
        for k in range(6):
            want = _set_parts(vec, k, min_nat, set_max)
            m = _keep._cut_sets(np.array(vec, np.int64), k, min_nat, set_max, fs, fb, fw)
            if want is None:
                assert m == -1, (vec, k)
                continue
            got = [
                (tuple(s for s in range(4) if int(fs[q]) >> s & 1), int(fb[q])) for q in range(m)
            ]
            assert got == list(want), (vec, k)


def test_a_repair_that_frees_a_joker_asks_with_the_melds_next_to_the_old_melds_ranks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A repair's second round adds the melds with a card next to a card the giving melds
    leave over, and, when they leave a joker over, those next to the old meld's own ranks:
    the set [9C 9D 9S] given up with a joker (8H 8H JK placed on four runs [5H 6H 7H])
    stays, the joker on a run ending at the 8, in the compiled loop and in Python alike."""
    rules = manipulation_rules("robbers", {"deck.standard_decks": 4, "deck.printed_jokers": 6})
    table_melds = [Meld.parse("[5H 6H 7H]")] * 4 + [Meld.parse("[9C 9D 9S]")]
    real = table._keep_greedy
    seen = Counter[str]()

    def both(
        solver: _Solver, melds: Sequence[Meld], found: CoreResult, *, whole: bool = True
    ) -> tuple[list[int], CoreResult]:
        here = real(solver, melds, found, whole=False)
        there = real(solver, melds, found, whole=True)
        assert there[0] == here[0]
        assert there[1].melds == here[1].melds
        seen["asked"] += 1
        return there

    monkeypatch.setattr(table, "_keep_greedy", both)
    play = best_play(rules, table_melds, parse_cards("8H 8H JK"))
    assert seen["asked"] == 1
    assert play.count == 3 and play.kept == 3
    assert "[9C 9D 9S]" in [str(m) for m in play.table]


def test_a_play_that_outgrows_the_compiled_loops_arrays_is_repaired_in_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With room for one meld the compiled loop gives up (``Keeper.run`` answers None) and
    ``_keep_greedy`` runs its own loop: the same answer as with room."""
    rules = manipulation_rules("robbers", {})
    rng = random.Random("keep room")
    pool = ManipulationGame.full_deck(rules)
    rng.shuffle(pool)
    melds = random_table(rng, rules, pool, 60)
    hand = pool[:14]
    roomy = best_play(rules, melds, hand)
    gave_up = Counter[bool]()
    real_run = _keep.Keeper.run

    def counted(self: _keep.Keeper, *args: Any) -> Any:
        got = real_run(self, *args)
        gave_up[got is None] += 1
        return got

    monkeypatch.setattr(_keep, "ROOM", (0, 0, 1))
    monkeypatch.setattr(_keep.Keeper, "run", counted)
    tight = best_play(rules, melds, hand)
    assert gave_up == {True: 1}
    assert (tight.table, tight.kept, tight.count, tight.value) == (
        roomy.table,
        roomy.kept,
        roomy.count,
        roomy.value,
    )


def _wrap_four_decks() -> tuple[ManipulationRules, _Solver, BareSearch]:
    """Wrap-around aces, four decks, six jokers: the rules, a solver of them and its bare
    questions (runs of several copies across the seam, where the race's second side wins
    most often)."""
    rules = manipulation_rules("robbers_s003", {"deck.standard_decks": 4, "deck.printed_jokers": 6})
    solver = _Solver(rules, [], OPEN_NONE, False, DEFAULT_SETTINGS)
    spec = solver.spec
    bare = BareSearch(
        spec, solver.weight, solver.jw, _windows(spec.ace, spec.min_len, spec.min_len)
    )
    return rules, solver, bare


def test_both_sides_of_the_race_answer_with_valid_melds() -> None:
    """A question's search is a race of the ranks read up and read down (``_fast._bare``):
    answers found by the second side, read back in the position's ranks, are valid melds
    of exactly the cards asked about (wrap-around aces, four decks, six jokers: the rules
    where the second side wins most often)."""
    rules, solver, bare = _wrap_four_decks()
    rng = random.Random("race sides")
    sides = Counter[int]()
    for _ in range(120):
        cards = _question(rng, rules, (10, 30), add=0.5)
        t, tj = _counts(cards)
        if not bare.fits(t, tj):
            continue
        got = bare.arrange(t, tj, 1 << 30)
        if got is None:
            continue
        sides[bare.side] += 1
        melds = [m for m, _tag in solver.to_melds(CoreResult(0, got))]
        for m in melds:
            assert m.check(rules.meld_rules) is None, str(m)
        laid = Counter(it.card for m in melds for it in m.items)
        assert laid == Counter(_norm_card(c, rules.tiles) for c in cards)
    assert sides[0] >= 10 and sides[1] >= 5, sides


def _ask_from(bare: BareSearch, t: list[list[int]], tj: int, side: int, cut: int) -> bool:
    """A wrap-around question asked as one side of ``_fast._bare``'s race does, read from
    rank index ``cut`` (up for side 0, down for side 1), without a budget."""
    spec = bare.s
    L = spec.min_len
    M = spec.min_nat if tj > L - spec.min_nat else 0
    setj = _set_table(max(max(map(max, t)), 4), max(tj, 6), spec.min_nat, spec.set_max)
    prm = np.array(
        (
            *(L, M, tj, tj, bare.jw, 1 << 40, 13, 0, 0, 0, 0, 0, 1, NEG, spec.ace),
            *(_pin_mode(spec), spec.min_nat, spec.set_max, 1, 1),
        ),
        np.int64,
    )
    moves = FastSearch._shared_moves((L, M, spec.ace))
    prm[_TOP] = moves.top
    prm[_MCN] = moves.count
    cnt = _side_counts(np.array(t, np.int64), side, cut, False)
    nxta, scap, suffix, ubj, _most = _bare_tables(cnt, tj, L, spec.set_max, True)
    tk, tv, ts = bare_memos()[:3]
    lo, _hi, tk, tv, ts, moves.mcache = _ask(
        0, cnt, bare.wt, nxta, scap, suffix, ubj, setj, prm, tk, tv, ts, moves.mcache,
        moves.mstore,
    )  # fmt: skip
    moves.top = int(prm[_TOP])
    moves.count = int(prm[_MCN])
    assert not prm[_ABORT]
    return bool(lo >= 0)


def test_a_wrap_around_question_has_one_answer_from_every_seam() -> None:
    """With wrap-around aces a question's search may read the ranks from any rank, up or
    down (runs across the seam are its debts): ``_fast._bare`` picks the seam with the
    fewest cards on either side, and every one of the 26 ways gives the answer of the
    general search (four decks, six jokers: runs of several copies across the seam)."""
    rules, _solver, bare = _wrap_four_decks()
    rng = random.Random("seams")
    answers = Counter[bool]()
    for _ in range(18):
        cards = _question(rng, rules, (8, 24), drop=0.6, add=0.5)
        t, tj = _counts(cards)
        if not bare.fits(t, tj):
            continue
        want = can_arrange(rules, cards)
        answers[want] += 1
        for side in (0, 1):
            for cut in range(13):
                assert _ask_from(bare, t, tj, side, cut) == want, (side, cut, t, tj)
    assert answers[True] >= 4 and answers[False] >= 4, answers


@pytest.mark.parametrize("ace", [LOW, HIGH, WRAP])
def test_the_compiled_loop_reads_answers_back_as_unframed_does(ace: int) -> None:
    """``_keep._reframe`` (the compiled loop) and ``_fast.unframed`` (the loop in Python)
    map a meld of either side's frame to the same items; ``_frame`` is a bijection of the
    rank indices for every side and cut."""
    rng = random.Random(f"frames {ace}")
    low = ace == LOW
    for side in (0, 1):
        for cut in range(13) if ace == WRAP else (0,):
            assert sorted(_frame(i, side, cut, low) for i in range(13)) == list(range(13))
            for _ in range(20):
                n = rng.randint(3, 8)
                is_run = rng.random() < 0.5
                items = [
                    (rng.randrange(4), rng.randint(1, 13), rng.random() < 0.2) for _ in range(n)
                ]
                want = unframed((is_run, [(*it, False) for it in items]), side, cut, low)
                arr = np.array(items, np.int64)
                _keep._reframe(arr, n, is_run, side, cut, low)
                assert [(s, r, bool(j), False) for s, r, j in arr.tolist()] == want[1]


def test_bare_tables_are_the_tables_of_prepare_with_stronger_joker_bounds() -> None:
    """``_fast._bare_tables`` (the tables of a question without a hand) gives the arrays
    ``_prepare`` gives, except that its joker bounds ``ubj`` count all copies of a card
    together (``_copies_need``): every entry is ``_prepare``'s or "no completion"
    (random counts, every ace mode's kind of windows, run lengths, set sizes and joker
    counts), and on some draws the bound is stronger."""
    rng = random.Random("bare tables")
    wt = np.ones((13, 4), np.int64)
    stronger = 0
    for _ in range(400):
        cyclic = rng.random() < 0.6
        L = rng.choice((3, 4, 5)) if cyclic else rng.choice((2, 3, 4, 5, 7, 13, 15))
        set_max = rng.choice((0, 3, 4, 6))
        jm = rng.randint(0, 9)
        cnt = np.zeros((2, 13, 4), np.int64)
        dens = rng.random()
        for r in range(13):
            for s in range(4):
                if rng.random() < dens:
                    cnt[0, r, s] = rng.randint(1, 4)
        want = _prepare(cnt, wt, jm, L, set_max, cyclic)
        got = _bare_tables(cnt, jm, L, set_max, cyclic)
        for k, (a, b) in enumerate(zip(want, got, strict=True)):
            a = np.asarray(a)
            b = np.asarray(b)
            if k != 3:
                assert np.array_equal(a, b), (k, cyclic, L, set_max, jm)
                continue
            assert np.all((b == a) | (b == _INFEASIBLE)), (cyclic, L, set_max, jm)
            stronger += not np.array_equal(a, b)
    assert stronger >= 20, stronger


FOUR_DECKS: list[tuple[str, dict[str, object]]] = [
    ("robbers", {"deck.standard_decks": 4, "deck.printed_jokers": 6}),
    ("robbers_s003", {"deck.standard_decks": 4, "deck.printed_jokers": 6}),
    (
        "robbers",
        {"deck.standard_decks": 4, "deck.printed_jokers": 6, "meld.ace_mode": "HIGH_OR_LOW"},
    ),
]


@pytest.mark.parametrize(("game", "over"), FOUR_DECKS)
def test_the_copies_joker_bound_never_cuts_an_arrangement(
    game: str, over: dict[str, object]
) -> None:
    """The joker bounds of ``_bare_tables`` (all copies of a card counted together) are
    exact: a question's search with them answers as the same search with ``_prepare``'s
    bounds, on questions with many copies of a card and many jokers (four decks, six
    jokers, each ace mode; tables of valid melds with a card taken out or added, and
    random counts), read from random seams in either direction."""
    rules = manipulation_rules(game, over)
    solver = _Solver(rules, [], OPEN_NONE, False, DEFAULT_SETTINGS)
    spec = solver.spec
    bare = BareSearch(
        spec, solver.weight, solver.jw, _windows(spec.ace, spec.min_len, spec.min_len)
    )
    low = spec.ace == LOW
    cyclic = not low
    L = spec.min_len
    rng = random.Random(f"copies {game} {sorted(over.items())}")
    answers = Counter[bool]()
    cut_more = 0
    for n in range(160):
        if n % 2:
            t, tj = _counts(_question(rng, rules, (10, 40), drop=0.5, add=0.5))
        else:
            t = [[0] * 13 for _ in range(4)]
            dens = rng.uniform(0.2, 0.6)
            for s in range(4):
                for r in range(13):
                    if rng.random() < dens:
                        t[s][r] = rng.choice((1, 1, 2, 2, 3, 4))
            tj = rng.randint(0, 6)
        if not bare.fits(t, tj) or not any(map(any, t)):
            continue
        side = rng.randrange(2)
        cut = rng.randrange(13) if cyclic else 0
        cnt = _side_counts(np.array(t, np.int64), side, cut, low)
        M = spec.min_nat if tj > L - spec.min_nat else 0
        setj = _set_table(max(max(map(max, t)), 4), max(tj, 6), spec.min_nat, spec.set_max)
        got = []
        for tables in (
            _bare_tables(cnt, tj, L, spec.set_max, cyclic),
            _prepare(cnt, bare.wt, tj, L, spec.set_max, cyclic),
        ):
            nxta, scap, suffix, ubj, _most = tables
            prm = np.array(
                (
                    *(L, M, tj, tj, bare.jw, 1 << 40, 13, 0, 0, 0, 0, 0, 1, NEG, spec.ace),
                    *(_pin_mode(spec), spec.min_nat, spec.set_max, 1, 1),
                ),
                np.int64,
            )
            moves = FastSearch._shared_moves((L, M, spec.ace))
            prm[_TOP] = moves.top
            prm[_MCN] = moves.count
            tk, tv, ts = bare_memos()[:3]
            ts[:] = -1
            lo, _hi, tk, tv, ts, moves.mcache = _ask(
                0, cnt, bare.wt, nxta, scap, suffix, ubj, setj, prm, tk, tv, ts,
                moves.mcache, moves.mstore,
            )  # fmt: skip
            moves.top = int(prm[_TOP])
            moves.count = int(prm[_MCN])
            assert not prm[_ABORT]
            got.append((bool(lo >= 0), int(prm[_STATES])))
        assert got[0][0] == got[1][0], (t, tj, side, cut)
        answers[got[0][0]] += 1
        cut_more += got[0][1] < got[1][1]
    assert answers[True] >= 15 and answers[False] >= 15, answers
    assert cut_more >= 5, cut_more
