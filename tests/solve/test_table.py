"""The table solver on crafted positions: the rules' own examples and the corners.

Every test runs twice: with the dynamic program (``dp``) and with the integer program that
takes over when the dynamic program's state budget runs out (``milp``, forced by a budget
of 0). Both must be exact.
"""

from __future__ import annotations

import pytest

from helpers.ilp_reference import optimum
from helpers.positions import check_play, movable_cards
from openrummy import ConfigError, InvalidMeldError, Meld, NotationError, find_preset
from openrummy.cards import JOKER, Card, Suit, parse_cards
from openrummy.solve import _dp as dp_module
from openrummy.solve import _fast as fast_module
from openrummy.solve import arrange, best_play, can_arrange
from openrummy.solve import table as table_module


@pytest.fixture(autouse=True, params=["dp", "race", "python", "lp", "milp"])
def method(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every crafted position five ways: the DP as configured (compiled where it applies);
    the compiled DP racing its mirror image in turns of one state, so that either rank
    order may answer; the Python DP alone; the linear relaxation asked first at every
    position (its bound, or its solution when integral); the integer program alone."""
    if request.param == "race":
        monkeypatch.setattr(dp_module, "RACE_STEP", 1)
    if request.param == "python":
        monkeypatch.setattr(dp_module, "COMPILED", False)
    if request.param == "lp":
        monkeypatch.setattr(dp_module, "UPPER_AFTER", 0)
        monkeypatch.setattr(fast_module, "UPPER_AFTER", 0)
        monkeypatch.setattr(fast_module, "UPPER_ON_NO", True)
    if request.param == "milp":
        monkeypatch.setattr(table_module, "DP_BUDGET", 0)
        monkeypatch.setattr(table_module, "lp_bound", lambda prob, spec: (None, None))
    return str(request.param)


def melds(*texts: str) -> list[Meld]:
    return [Meld.parse(t) for t in texts]


def solve(game: str, table: list[Meld], hand: str, *, opened: bool = True, **over: object):
    rules = find_preset(game, dict(over))
    cards = parse_cards(hand) if hand else []
    play = best_play(rules, table, cards, opened=opened)
    check_play(rules, table, cards, play, opened=opened)
    ref = optimum(rules, movable_cards(rules, table), cards, opened=opened)
    assert (play.count, play.value) == ((ref.count, ref.value) if ref else (0, 0))
    return play


def strs(play) -> list[str]:
    return sorted(str(m) for m in play.table)


# -- RULES.md §3.9 and T10–T12 -----------------------------------------------------------


def test_t11_s000_example_without_joker() -> None:
    play = solve("robbers", melds("[4S 5S 6S 7S]"), "3S 4H 4D")
    assert play.count == 2 and [str(c) for c in play.hand] == ["3S"]
    assert strs(play) == ["[4S 4H 4D]", "[5S 6S 7S]"]
    assert play.kept == 0


def test_t12_s000_example_with_joker_places_everything() -> None:
    play = solve("robbers", melds("[4S 5S 6S 7S]"), "3S 4H 4D JK")
    assert play.count == 4 and play.hand == ()
    assert play.value == 3 + 4 + 4 + 30


def test_t10_printed_result_is_never_produced() -> None:
    play = solve("robbers", melds("[4S 5S 6S 7S]"), "3S 4H 4D")
    assert "[3S 5S 6S 7S]" not in strs(play)


def test_kept_melds_tie_break() -> None:
    play = solve("robbers", melds("[7S 7H 7D]", "[2C 3C 4C]", "[9H 10H JH]"), "5C QH")
    assert play.count == 2 and play.kept == 1
    assert "[7S 7H 7D]" in strs(play)


# -- the corners of issue 3 ------------------------------------------------------------


def test_one_suit_needs_three_runs_because_of_jokers() -> None:
    # Every spade twice, two jokers, no sets possible (min_naturals = 2 and one suit):
    # a joker in a run at rank r means three runs through r. A state with only two open
    # runs per suit would leave the jokers in the hand.
    spades = " ".join(f"{r}S" for r in ["A", *range(2, 11), "J", "Q", "K"])
    play = solve("robbers", [], f"{spades} {spades} JK JK", **{"meld.min_naturals": 2})
    assert play.count == 28


def test_suit_used_up_entirely_on_the_table() -> None:
    table = melds(
        "[AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS]",
        "[AS 2S 3S 4S 5S 6S]",
        "[7S 8S 9S 10S JS QS KS]",
    )
    play = solve("robbers", table, "JK 5H 5D 8C")
    assert play.count == 4  # 5S from an end with 5H 5D; 8S from the middle with 8C JK
    # with two naturals per meld the jokers make a third run through some rank
    play = solve("robbers", table, "JK JK", **{"meld.min_naturals": 2})
    assert play.count == 2


def test_table_of_only_four_sets() -> None:
    table = melds(*(f"[{r}S {r}H {r}D {r}C]" for r in (7, 8, 9)))
    play = solve("robbers", table, "10S JK 2D")
    assert play.count == 2 and [str(c) for c in play.hand] == ["2D"]


def test_melds_mostly_jokers() -> None:
    table = melds("[JK=5S JK=6S 7S]", "[JK=9H 9S JK=9D]")
    play = solve("robbers", table, "KD JK JK", **{"deck.printed_jokers": 6})
    assert play.count == 3


def test_cards_that_each_need_both_jokers() -> None:
    # B9 and K2 have no neighbour of their colour and no other 9 or 2 anywhere: each fits
    # only as [JK x JK], and there are two jokers, so only one of them can be placed (the
    # dearer one); the jokers the table's own cards need come first.
    play = solve("rummikub", melds("[R5 R6 R7]", "[O11 O12 O13]"), "B9 K2 JK JK")
    assert play.count == 3 and [str(c) for c in play.hand] == ["K2"]
    # the table's joker must stay at R6 (no R6 anywhere), so one joker is free: it is
    # laid on its own and both cards stay in the hand, however many copies there are
    play = solve("rummikub", melds("[R5 JK R7]", "[O11 O12 O13]"), "B9 K2 JK")
    assert play.count == 1 and sorted(str(c) for c in play.hand) == ["B9", "K2"]
    play = solve("rummikub", melds("[R5 JK R7]", "[O11 O12 O13]"), "B9 B9 K2 JK")
    assert play.count == 1 and sorted(str(c) for c in play.hand) == ["B9", "B9", "K2"]


def test_many_copies_that_each_need_both_jokers() -> None:
    # Three decks: three copies each of four cards that fit only with both jokers. Only one
    # copy can be placed, and it must be the dearest (a king). The compiled bound's joker
    # knapsack takes such cards copy by copy (twelve here; it once held only eight).
    play = solve(
        "robbers",
        melds("[10D JD QD]"),
        "2D 2D 2D 6H 6H 6H 9S 9S 9S KC KC KC JK JK",
        **{"deck.standard_decks": 3},
    )
    assert play.count == 3 and "KC" in [str(c) for c in play.placed]


def test_six_jokers() -> None:
    table = melds("[3H 4H 5H]", "[JK=QC JK=KC AC]")
    play = solve("robbers_s003", table, "JK JK JK JK 9S 2D", **{"deck.printed_jokers": 6})
    assert play.count == 6


def test_wraparound_runs_cross_king_ace() -> None:
    play = solve("robbers_s003", melds("[QS KS AS]"), "2S 3S JH QH KH AH 2H")
    assert play.count == 7
    assert any("KH" in s and "AH" in s and "2H" in s for s in strs(play))


def test_high_or_low_ace_ends_a_run_but_never_turns_the_corner() -> None:
    play = solve("vatikan_pagat", [], "QS KS AS 2S 3S")
    assert play.count == 3  # Q-K-A and A-2-3 would need two aces: 2S 3S stay
    play2 = solve("vatikan_pagat", [], "QS KS AS 2S 3S JK")
    assert play2.count == 6


def test_ace_both_ends_changes_nothing_when_runs_can_be_split() -> None:
    ranks = ["A", *range(2, 11), "J", "Q", "K", "A"]
    hand = " ".join(f"{r}H" for r in ranks)
    over = {"meld.ace_mode": "HIGH_OR_LOW", "meld.ace_both_ends": True}
    play = solve("robbers", [], hand, **over)
    assert play.count == 14


def test_tiles() -> None:
    play = solve("rummikub", melds("[R5 R6 R7]"), "R8 B8 K8 O1", opened=True)
    assert play.count == 3


def test_three_card_sets_only_and_long_min_len() -> None:
    play = solve("robbers", [], "7S 7H 7D 7C 4S 5S 6S", **{"meld.set_max": 3})
    assert play.count == 7
    play = solve("robbers", [], "4S 5S 6S 8H 8D 8C", **{"meld.min_len": 4})
    assert play.count == 3


def test_more_copies_than_decks() -> None:
    play = solve("robbers", [], "5S 5S 5S 6S 7S", **{"deck.standard_decks": 3})
    assert play.count == 3


# -- the opening (RULES.md §2.3, T08–T09b, T13, R03, R04, R09) ----------------------------


def test_t08_three_aces_open() -> None:
    play = solve("robbers", [], "AS AH AD 5C", opened=False)
    assert play.count == 3 and [str(m) for m in play.opening] == ["[AS AH AD]"]
    assert solve("robbers", [], "AS AH AD", opened=False, **{"opening.ace_value": 1}).count == 0


def test_t09_kqj_alone_is_not_enough() -> None:
    play = solve("robbers", melds("[5S 6S 7S]"), "JC QC KC 8S", opened=False)
    assert play.is_pass and play.count == 0 and strs(play) == ["[5S 6S 7S]"]


def test_t09b_thirty_plus_a_small_set() -> None:
    assert solve("robbers", [], "KC QC JC 4S 4H 4D", opened=False).count == 6
    assert solve("robbers", [], "KC QC JC 3S 3H 3D", opened=False).count == 0


def test_t13_opening_then_table_play() -> None:
    table = melds("[5S 6S 7S]")
    play = solve("robbers", table, "KH KD KC QS QH QD 8S", opened=False)
    assert play.count == 7
    play = solve(
        "robbers",
        table,
        "KH KD KC QS QH QD 8S",
        opened=False,
        **{"opening.allow_table_play_same_turn": False},
    )
    assert play.count == 6 and "[5S 6S 7S]" in strs(play)
    assert solve("robbers", table, "KH KD KC 8S", opened=False).count == 0


def test_r03_r04_rummikub_opening() -> None:
    assert solve("rummikub", [], "R10 R11 R12", opened=False).count == 3
    assert solve("rummikub", [], "B1 B2 B3 K5 O5 R5", opened=False).count == 0
    assert solve("rummikub", [], "R9 JK R11", opened=False).count == 3


def test_r09_no_table_play_on_the_opening_turn() -> None:
    table = melds("[B3 B4 B5]")
    play = solve("rummikub", table, "R10 R11 R12 B6", opened=False)
    assert play.count == 3 and "[B3 B4 B5]" in strs(play)
    over = {"opening.allow_table_play_same_turn": True}
    assert solve("rummikub", table, "R10 R11 R12 B6", opened=False, **over).count == 4


def test_run_from_hand_opening() -> None:
    assert solve("vatikan_pagat", [], "5H 6H 7H 9C 9D 9S", opened=False).count == 6
    assert solve("vatikan_pagat", [], "9C 9D 9S", opened=False).count == 0
    assert solve("vatikan_pagat", melds("[9C 9D 9S]"), "9H 5H 6H", opened=False).count == 0
    assert solve("vatikan_pagat", melds("[4H 5H 6H]"), "QS KS AS 7H", opened=False).count == 4


def test_opening_jokers_count_as_their_card_and_positional_aces() -> None:
    over = {"opening.ace_value": "POSITIONAL_1_OR_11", "meld.ace_mode": "HIGH_OR_LOW"}
    assert solve("robbers", [], "QS KS AS 5H 5D 5C", opened=False, **over).count == 6
    assert solve("robbers", [], "AS 2S 3S 5H 5D 5C", opened=False, **over).count == 0
    assert solve("robbers", [], "9S JK JS QH", opened=False, **{"opening.threshold": 29}).count == 3
    assert solve("robbers", [], "9S JK JS QH", opened=False, **{"opening.threshold": 30}).count == 0


# -- arranging and bad input ------------------------------------------------------------


def test_can_arrange_and_arrange() -> None:
    rules = find_preset("robbers")
    assert can_arrange(rules, parse_cards("4S 5S 6S 7H 7D JK"))
    assert not can_arrange(rules, parse_cards("4S 5S 6S 7H"))
    assert can_arrange(rules, [])
    out = arrange(rules, parse_cards("AS AH AD 2S 3S JK"))
    got = sorted((c for m in out for c in m.cards), key=Card.sort_key)
    assert got == sorted(parse_cards("AS AH AD 2S 3S JK"), key=Card.sort_key)
    with pytest.raises(InvalidMeldError, match="cannot be arranged"):
        arrange(rules, parse_cards("4S 5S"))


def test_flat_table_is_arranged_first() -> None:
    rules = find_preset("robbers")
    play = best_play(rules, parse_cards("4S 5S 6S 7S"), parse_cards("3S 4H 4D"))
    assert play.count == 2
    with pytest.raises(InvalidMeldError, match="cannot be arranged"):
        best_play(rules, parse_cards("4S 5S 7S"), parse_cards("3S"))


def test_bad_input_raises_precise_errors() -> None:
    rules = find_preset("robbers")
    with pytest.raises(NotationError):
        parse_cards("4X")
    with pytest.raises(ConfigError, match="3 copies of 5S"):
        best_play(rules, melds("[5S 6S 7S]"), parse_cards("5S 5S"))
    with pytest.raises(ConfigError, match="jokers"):
        best_play(rules, [], [JOKER] * 5)
    with pytest.raises(InvalidMeldError, match="table meld 1"):
        best_play(rules, melds("[3S 5S 6S 7S]"), parse_cards("4S"))
    with pytest.raises(InvalidMeldError):
        best_play(rules, [Meld.parse("[5S 6S 7S]"), Card(3, Suit.H)], [])  # type: ignore[list-item]


def test_undeclared_joker_on_the_table_gets_an_identity() -> None:
    play = solve("robbers", melds("[5S 6S JK]"), "8S")
    assert play.count == 1
