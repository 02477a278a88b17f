"""RULES.md §9.6: Rummikub cases R03–R14 (R01–R02 are in test_melds.py)."""

from __future__ import annotations

import pytest

from helpers import manipulation_rules, play, position
from openrummy.games.actions import Pass
from openrummy.games.manipulation import Termination

RUMMIKUB = manipulation_rules("rummikub")
POOL = "K2 K3 K4 K5 K6 K7"


def test_R03_initial_meld_of_30_from_the_rack() -> None:
    game = position(RUMMIKUB, ["R10 R11 R12 K1", "B2"], stock=POOL, opened=False)
    assert game.apply(play(0, "[R10 R11 R12]")).accepted and game.opened[0]

    game = position(RUMMIKUB, ["B1 B2 B3 K5 O5 R5 K9", "B2"], stock=POOL, opened=False)
    result = game.apply(play(0, "[B1 B2 B3]", "[K5 O5 R5]"))
    assert not result.accepted and "worth 21" in str(result.violations[0])
    assert len(game.hands[0]) == 7 + 3 and game.stock_size == 3


def test_R04_joker_in_the_initial_meld_counts_as_its_tile() -> None:
    game = position(RUMMIKUB, ["R9 JK R11 K1", "B2"], stock=POOL, opened=False)
    result = game.apply(play(0, "[R9 JK=R10 R11]"))
    assert result.accepted and game.opened[0]


def test_R05_anfuegen() -> None:
    game = position(RUMMIKUB, ["R8 K1", "B2"], ["[R5 R6 R7]"], stock=POOL)
    assert game.apply(play(0, "[R5 R6 R7 R8]")).accepted


def test_R06_splitten_seed_example() -> None:
    game = position(RUMMIKUB, ["B8 K1", "B2"], ["[B3 B4 B5 B6 B7]"], stock=POOL)
    assert game.apply(play(0, "[B3 B4 B5]", "[B6 B7 B8]")).accepted


def test_R07_split_with_the_duplicate_middle_tile() -> None:
    game = position(RUMMIKUB, ["B5 K1", "B2"], ["[B3 B4 B5 B6 B7]"], stock=POOL)
    assert game.apply(play(0, "[B3 B4 B5]", "[B5 B6 B7]")).accepted


def test_R08_ersetzen_corrected_form() -> None:
    game = position(RUMMIKUB, ["O7 R8 R9 K1", "B2"], ["[R7 B7 K7]"], stock=POOL)
    assert game.apply(play(0, "[B7 K7 O7]", "[R7 R8 R9]")).accepted


def test_R09_no_table_play_on_the_initial_meld_turn() -> None:
    hand = "R10 R11 R12 B6 K1"
    game = position(RUMMIKUB, [hand, "B2"], ["[B3 B4 B5]"], stock=POOL, opened=False)
    result = game.apply(play(0, "[B3 B4 B5 B6]", "[R10 R11 R12]"))
    assert not result.accepted and len(game.hands[0]) == 5 + 3
    loose = manipulation_rules("rummikub", **{"opening.allow_table_play_same_turn": True})
    game = position(loose, [hand, "B2"], ["[B3 B4 B5]"], stock=POOL, opened=False)
    assert game.apply(play(0, "[B3 B4 B5 B6]", "[R10 R11 R12]")).accepted


def test_R10_failed_manipulation_restores_the_table_exactly() -> None:
    table = ["[R5 R6 R7]", "[B3 B4 B5 B6]", "[K9 O9 R9]"]
    game = position(RUMMIKUB, ["B7 K1", "B2"], table, stock=POOL)
    before = [str(m) for m in game.table]
    result = game.apply(play(0, "[R5 R6 R7]", "[B3 B4 B5 B6 B7]", "[K9 O9]", "[R9 K1]"))
    assert not result.accepted
    assert [str(m) for m in game.table] == before
    assert len(game.hands[0]) == 2 + 3 and game.current == 1


def test_R11_a_retrieved_joker_must_be_used_in_the_same_turn() -> None:
    setup = (["R6 B9 K9", "B2"], ["[R5 JK=R6 R7]"])
    game = position(RUMMIKUB, *setup, stock=POOL)
    result = game.apply(play(0, "[R5 R6 R7]", "[B9 K9 JK=O9]", retrievals=[(0, "R6", "R6")]))
    assert result.accepted

    game = position(RUMMIKUB, *setup, stock=POOL)
    result = game.apply(play(0, "[R5 R6 R7]", retrievals=[(0, "R6", "R6")]))
    assert not result.accepted and [v.code for v in result.violations] == ["C7"]
    assert len(game.hands[0]) == 6


def test_R11_reused_joker_must_go_to_a_new_meld() -> None:
    game = position(RUMMIKUB, ["R6 K1", "B2"], ["[R5 JK=R6 R7]"], stock=POOL)
    result = game.apply(play(0, "[R5 R6 R7 JK=R8]", retrievals=[(0, "R6", "R6")]))
    assert not result.accepted and [v.code for v in result.violations] == ["C7"]
    any_meld = manipulation_rules("rummikub", **{"joker.retrieved_disposition": "REUSE_SAME_TURN"})
    game = position(any_meld, ["R6 K1", "B2"], ["[R5 JK=R6 R7]"], stock=POOL)
    assert game.apply(play(0, "[R5 R6 R7 JK=R8]", retrievals=[(0, "R6", "R6")])).accepted


def test_R12_the_replacing_tile_may_come_from_the_table() -> None:
    table = ["[R5 JK=R6 R7]", "[R6 B6 K6 O6]"]
    after = ("[R5 R6 R7]", "[B6 K6 O6]", "[B9 K9 JK=R9]")
    game = position(RUMMIKUB, ["B9 K9", "B2"], table, stock=POOL)
    result = game.apply(play(0, *after, retrievals=[(0, "R6", "R6")], from_table=True))
    assert result.accepted and game.outcome is not None  # the rack is empty: out

    sabra = manipulation_rules(
        "rummikub", **{"joker.replacement_source": "HAND", "joker.mobility": "ONLY_VIA_REPLACEMENT"}
    )
    game = position(sabra, ["B9 K9", "B2"], table, stock=POOL)
    result = game.apply(play(0, *after, retrievals=[(0, "R6", "R6")], from_table=True))
    assert not result.accepted and {v.code for v in result.violations} == {"C6"}
    # ... nor without declaring a retrieval: the joker may not move on its own.
    game = position(sabra, ["B9 K9", "B2"], table, stock=POOL)
    assert not game.apply(play(0, *after)).accepted
    # With the default mobility FREE the same end table is reachable without a retrieval.
    game = position(RUMMIKUB, ["B9 K9", "B2"], table, stock=POOL)
    assert game.apply(play(0, *after)).accepted


def test_R13_round_scoring() -> None:
    game = position(RUMMIKUB, ["R3 R4 R5", "JK R5", "B13"], stock=POOL)
    game.apply(play(0, "[R3 R4 R5]"))
    assert game.outcome is not None
    assert game.outcome.scores == (48, -35, -13)


@pytest.mark.parametrize(
    ("scoring", "scores"),
    [("ZERO_SUM_DIFFS", (-7, 32, -14, -11)), ("RUMMIKUB_ORG", (-15, 32, -22, -19))],
)
def test_R14_pool_exhausted(scoring: str, scores: tuple[int, ...]) -> None:
    rules = manipulation_rules("rummikub", **{"stalemate.scoring": scoring})
    game = position(rules, ["R7 R8", "R8", "R9 R13", "B9 B10"])
    for seat in range(4):
        game.apply(Pass(seat))
    assert game.outcome is not None and game.outcome.termination is Termination.STALEMATE
    assert game.outcome.winners == (1,)
    assert game.outcome.scores == scores


def test_rummikub_stalemate_tie_shares_the_pot_and_stays_zero_sum() -> None:
    game = position(RUMMIKUB, ["R4", "B4", "R9 R13"])
    for seat in range(3):
        game.apply(Pass(seat))
    assert game.outcome is not None and game.outcome.winners == (0, 1)
    assert sum(game.outcome.scores) == 0
    assert game.outcome.scores[2] == -(22 - 4)
    assert sorted(game.outcome.scores[:2]) == [9, 9]


def test_rummikub_deal_and_first_player() -> None:
    from openrummy.games.manipulation import ManipulationGame

    game = ManipulationGame(RUMMIKUB, 4, seed=3)
    assert all(len(h) == 14 for h in game.hands) and game.stock_size == 106 - 56
    assert all(c.tile or c.is_joker for h in game.hands for c in h)
