"""RULES.md §9.2–§9.5: Robbers' Rummy cases T08–T33 (T27/T28 are in test_match.py)."""

from __future__ import annotations

import pytest

from helpers import cards, manipulation_rules, play, position
from openrummy.cards import Card
from openrummy.errors import IllegalActionError
from openrummy.events import EventCode
from openrummy.games.actions import Draw, EndTurn, Pass
from openrummy.games.manipulation import ManipulationGame, Phase, Termination

ROBBERS = manipulation_rules("robbers")
STOCK = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC"


def table_text(game: ManipulationGame) -> list[str]:
    return [str(m) for m in game.table]


def hand_text(game: ManipulationGame, seat: int = 0) -> list[str]:
    return sorted(str(c) for c in game.hands[seat])


# -- §9.2 opening ------------------------------------------------------------------------


def test_T08_three_aces_open() -> None:
    game = position(ROBBERS, ["AS AH AD 9C", "2D"], stock=STOCK, opened=False)
    result = game.apply(play(0, "[AS AH AD]"))
    assert result.accepted and game.opened[0]
    assert hand_text(game) == ["9C"]

    low = manipulation_rules("robbers", **{"opening.ace_value": 1})
    game = position(low, ["AS AH AD 9C", "2D"], stock=STOCK, opened=False)
    result = game.apply(play(0, "[AS AH AD]"))
    assert not result.accepted and [v.code for v in result.violations] == ["C5"]
    assert not game.opened[0] and len(game.hands[0]) == 5 and game.table == ()


def test_opening_event_reports_the_whole_value_of_the_melds() -> None:
    # The threshold (40) is met by the aces alone (45); the event still counts every meld.
    game = position(ROBBERS, ["AS AH AD KC QC JC 9C", "2D"], stock=STOCK, opened=False)
    result = game.apply(play(0, "[AS AH AD]", "[JC QC KC]"))
    assert result.accepted and result.event.code is EventCode.OPENED
    assert result.event.to_json() == {
        "code": "opened",
        "seat": 0,
        "placed": 6,
        "value": 75,
        "melds": ["[AS AH AD]", "[JC QC KC]"],
    }
    assert str(result.event) == "seat 0 placed 6 cards and opened with 75"


def test_T09_K_Q_J_alone_is_not_enough() -> None:
    game = position(ROBBERS, ["JC QC KC 5H", "2D"], stock=STOCK, opened=False)
    result = game.apply(play(0, "[JC QC KC]"))
    assert not result.accepted
    assert "worth 30" in str(result.violations[0]) and "needs 40" in str(result.violations[0])
    assert game.table == ()
    assert hand_text(game) == sorted(["JC", "QC", "KC", "5H", "2C"])  # drew the top card 2C
    assert game.current == 1 and not game.opened[0]


@pytest.mark.parametrize(("four", "ok"), [("4S 4H 4D", True), ("3S 3H 3D", False)])
def test_T09b_thirty_plus_a_small_set(four: str, ok: bool) -> None:
    game = position(ROBBERS, [f"KC QC JC {four} 9D", "2D"], stock=STOCK, opened=False)
    result = game.apply(play(0, "[KC QC JC]", f"[{four}]"))
    assert result.accepted is ok
    assert game.opened[0] is ok


def test_T10_the_S000_example_as_printed_is_rejected() -> None:
    game = position(ROBBERS, ["3S 4H 4D", "2D"], ["[4S 5S 6S 7S]"], stock=STOCK)
    result = game.apply(play(0, "[3S 5S 6S 7S]", "[4S 4H 4D]"))
    assert not result.accepted
    assert [v.code for v in result.violations] == ["C1"]
    assert table_text(game) == ["[4S 5S 6S 7S]"]
    assert hand_text(game) == sorted(["3S", "4H", "4D", "2C"])


def test_T11_nearest_legal_version_of_the_S000_example() -> None:
    game = position(ROBBERS, ["3S 4H 4D", "2D"], ["[4S 5S 6S 7S]"], stock=STOCK)
    result = game.apply(play(0, "[5S 6S 7S]", "[4S 4H 4D]"))
    assert result.accepted
    assert hand_text(game) == ["3S"]
    assert sorted(table_text(game)) == ["[4S 4H 4D]", "[5S 6S 7S]"]


def test_T12_the_S000_example_with_a_joker_goes_out() -> None:
    game = position(ROBBERS, ["3S 4H 4D JK", "2D", "5D"], ["[4S 5S 6S 7S]"], stock=STOCK)
    result = game.apply(play(0, "[3S JK=4S 5S 6S 7S]", "[4S 4H 4D]"))
    assert result.accepted
    assert game.outcome is not None
    assert game.outcome.termination is Termination.OUT and game.outcome.winners == (0,)


def test_T13_opening_from_hand_cards_only() -> None:
    hand = "KH KD KC QS QH QD 8S"
    game = position(ROBBERS, [hand, "2D"], ["[5S 6S 7S]"], stock=STOCK, opened=False)
    result = game.apply(play(0, "[5S 6S 7S 8S]", "[KH KD KC]", "[QS QH QD]"))
    assert result.accepted and game.opened[0]  # A: 60 >= 40, lay-off allowed

    strict = manipulation_rules("robbers", **{"opening.allow_table_play_same_turn": False})
    game = position(strict, [hand, "2D"], ["[5S 6S 7S]"], stock=STOCK, opened=False)
    result = game.apply(play(0, "[5S 6S 7S 8S]", "[KH KD KC]", "[QS QH QD]"))
    assert not result.accepted and result.violations[0].code == "C5"  # A'

    game = position(ROBBERS, [hand, "2D"], ["[5S 6S 7S]"], stock=STOCK, opened=False)
    result = game.apply(play(0, "[5S 6S 7S 8S]", "[KH KD KC]"))
    assert not result.accepted and "worth 30" in str(result.violations[0])  # B


# -- §9.3 jokers -------------------------------------------------------------------------


def test_T14_retrieve_a_joker_and_keep_it() -> None:
    game = position(ROBBERS, ["7D 2C", "2D"], ["[7C JK=7D 7H]"], stock=STOCK)
    result = game.apply(play(0, "[7C 7D 7H]", retrievals=[(0, "7D", "7D")]))
    assert result.accepted
    assert hand_text(game) == ["2C", "JK"]
    # Next turn the joker may be played anywhere.
    game.apply(Draw(1))
    result = game.apply(play(0, "[7C 7D 7H]", "[JK=2D 2C 3C]"))
    assert not result.accepted  # 3C is not in the hand: a real check, not a rubber stamp
    game2 = position(ROBBERS, ["7D 2C", "2D"], ["[7C JK=7D 7H]"], stock=STOCK)
    game2.apply(play(0, "[7C 7D 7H]", retrievals=[(0, "7D", "7D")]))
    game2.apply(Draw(1))
    assert game2.apply(play(0, "[7C 7D 7H JK=7S]")).accepted

    reuse = manipulation_rules("robbers", **{"joker.retrieved_disposition": "REUSE_SAME_TURN"})
    game = position(reuse, ["7D 2C", "2D"], ["[7C JK=7D 7H]"], stock=STOCK)
    result = game.apply(play(0, "[7C 7D 7H]", retrievals=[(0, "7D", "7D")]))
    assert not result.accepted and [v.code for v in result.violations] == ["C7"]


def test_T15_set_joker_either_missing_suit() -> None:
    game = position(ROBBERS, ["7S 2C", "2D"], ["[7C JK=7D 7H]"], stock=STOCK)
    assert game.apply(play(0, "[7C 7S 7H]", retrievals=[(0, "7D", "7S")])).accepted
    strict = manipulation_rules("robbers", **{"joker.set_suit_flexible": False})
    game = position(strict, ["7S 2C", "2D"], ["[7C JK=7D 7H]"], stock=STOCK)
    result = game.apply(play(0, "[7C 7S 7H]", retrievals=[(0, "7D", "7S")]))
    assert not result.accepted and result.violations[0].code == "C6"


def test_T19_no_retrieval_before_opening() -> None:
    game = position(ROBBERS, ["7D AS AH AC", "2D"], ["[7C JK=7D 7H]"], stock=STOCK, opened=False)
    result = game.apply(play(0, "[7C 7D 7H]", "[AS AH AC JK=AD]", retrievals=[(0, "7D", "7D")]))
    assert not result.accepted
    assert {v.code for v in result.violations} == {"C5", "C6"}
    assert table_text(game) == ["[7H JK=7D 7C]"]


def test_T30_S003_jokers_are_reidentified_never_lifted() -> None:
    s003 = manipulation_rules("robbers_s003")
    game = position(s003, ["6S", "2D"], ["[5S JK=6S 7S]", "[9H 10H JH]"], stock=STOCK)
    result = game.apply(play(0, "[5S 6S 7S]", "[JK=8H 9H 10H JH]"))
    assert result.accepted and game.outcome is not None  # hand empty: out

    game = position(s003, ["6S", "2D"], ["[5S JK=6S 7S]", "[9H 10H JH]"], stock=STOCK)
    result = game.apply(play(0, "[5S 6S 7S]", "[9H 10H JH]"))
    assert not result.accepted and result.violations[0].code == "C2"
    game = position(s003, ["6S", "2D"], ["[5S JK=6S 7S]", "[9H 10H JH]"], stock=STOCK)
    result = game.apply(play(0, "[5S 6S 7S]", "[9H 10H JH]", retrievals=[(0, "6S", "6S")]))
    assert not result.accepted and "C6" in {v.code for v in result.violations}


# -- §9.4 manipulation legality ----------------------------------------------------------


def test_T16_robbing_a_4_set() -> None:
    game = position(ROBBERS, ["JC 2D", "2D"], ["[7S 7H 7D 7C]", "[8C 9C 10C]"], stock=STOCK)
    assert game.apply(play(0, "[7S 7H 7D]", "[7C 8C 9C 10C JC]")).accepted


def test_T17_a_3_set_cannot_be_robbed_without_replacement() -> None:
    game = position(ROBBERS, ["5D 6D 7C", "2D"], ["[7S 7H 7D]"], stock=STOCK)
    result = game.apply(play(0, "[7S 7H]", "[5D 6D 7D]"))
    assert not result.accepted and result.violations[0].code == "C1"
    game = position(ROBBERS, ["5D 6D 7C", "2D"], ["[7S 7H 7D]"], stock=STOCK)
    assert game.apply(play(0, "[7S 7H 7C]", "[5D 6D 7D]")).accepted


def test_T18_a_4_run_can_be_robbed_only_at_an_end() -> None:
    game = position(ROBBERS, ["5H 5D", "2D"], ["[4S 5S 6S 7S]"], stock=STOCK)
    assert not game.apply(play(0, "[4S]", "[6S 7S]", "[5S 5H 5D]")).accepted
    game = position(ROBBERS, ["7H 7D", "2D"], ["[4S 5S 6S 7S]"], stock=STOCK)
    assert game.apply(play(0, "[4S 5S 6S]", "[7S 7H 7D]")).accepted


def test_T20_a_table_card_may_not_go_to_the_hand() -> None:
    game = position(ROBBERS, ["8S", "2D"], ["[4S 5S 6S 7S]"], stock=STOCK)
    result = game.apply(play(0, "[5S 6S 7S 8S]"))
    assert not result.accepted and [v.code for v in result.violations] == ["C2"]
    assert table_text(game) == ["[4S 5S 6S 7S]"] and hand_text(game) == sorted(["8S", "2C"])


def test_T21_a_play_must_include_a_hand_card() -> None:
    game = position(ROBBERS, ["KS", "2D"], ["[3H 4H 5H 6H]", "[6S 6D 6C]"], stock=STOCK)
    result = game.apply(play(0, "[3H 4H 5H]", "[6H 6S 6D 6C]"))
    assert not result.accepted and [v.code for v in result.violations] == ["C4"]
    assert len(game.hands[0]) == 2


@pytest.mark.parametrize(("stock_size", "hand_after", "stock_after"), [(10, 8, 7), (2, 7, 0)])
def test_T22_strict_failure_penalty(stock_size: int, hand_after: int, stock_after: int) -> None:
    strict = manipulation_rules("robbers", **{"fail.penalty_draw": 3})
    stock = " ".join(STOCK.split()[:stock_size])
    game = position(strict, ["2H 3H 4H 9S KD", "2D"], ["[5S 6S 7S]"], stock=stock)
    result = game.apply(play(0, "[5S 6S 7S]", "[2H 3H]"))
    assert not result.accepted
    assert len(game.hands[0]) == hand_after and game.stock_size == stock_after
    assert table_text(game) == ["[5S 6S 7S]"] and game.current == 1


# -- §9.5 turn structure, round end, scoring ---------------------------------------------


def test_T23_S003_play_draw_play() -> None:
    pdp = manipulation_rules("robbers", **{"turn.model": "PLAY_DRAW_PLAY"})
    game = position(pdp, ["5H 6H 7H KS", "2D"], stock="8H 2C")
    assert game.apply(play(0, "[5H 6H 7H]")).accepted
    assert game.phase is Phase.PLAYED and game.current == 0
    game.apply(Draw(0))
    assert hand_text(game) == ["8H", "KS"]
    assert game.apply(play(0, "[5H 6H 7H 8H]")).accepted
    assert hand_text(game) == ["KS"]
    with pytest.raises(IllegalActionError):
        game.apply(Draw(0))
    assert game.current == 1


def test_T24_default_play_xor_draw() -> None:
    game = position(ROBBERS, ["5H 6H 7H KS", "2D"], stock=STOCK)
    assert game.apply(play(0, "[5H 6H 7H]")).accepted
    assert game.current == 1
    with pytest.raises(IllegalActionError, match="turn"):
        game.apply(Draw(0))


def test_T25_penalty_count() -> None:
    game = position(ROBBERS, ["5H 6H 7H", "JK AD KS 7H"], stock=STOCK)
    game.apply(play(0, "[5H 6H 7H]"))
    assert game.outcome is not None and game.outcome.scores == (0, 62)
    eleven = manipulation_rules("robbers", **{"scoring.ace_penalty": 11})
    game = position(eleven, ["5H 6H 7H", "JK AD KS 7H"], stock=STOCK)
    game.apply(play(0, "[5H 6H 7H]"))
    assert game.outcome is not None and game.outcome.scores == (0, 58)


@pytest.mark.parametrize(
    ("scoring", "scores"), [("WINNER_ZERO", (20, 0, 52)), ("ALL_COUNT", (20, 5, 52))]
)
def test_T26_stalemate_after_the_stock_is_exhausted(scoring: str, scores: tuple[int, ...]) -> None:
    rules = manipulation_rules("robbers", **{"stalemate.scoring": scoring})
    game = position(rules, ["KS QS", "2C 3C", "4H 9D 9S JK"])
    for seat in range(3):
        assert Draw(seat) not in game.legal_actions()
        with pytest.raises(IllegalActionError):
            game.apply(Draw(seat))
        game.apply(Pass(seat))
    assert game.outcome is not None
    assert game.outcome.termination is Termination.STALEMATE
    assert game.outcome.winners == (1,)
    assert game.outcome.scores == scores


def test_T29_joker_retrieval_bonus() -> None:
    rules = manipulation_rules("robbers", **{"scoring.joker_retrieval_bonus": 5})
    game = position(
        rules,
        ["6S", "2D 5C", "10H 9C 3D"],
        ["[5S JK=6S 7S 8S]", "[9H JK=10H JH]"],
        stock=STOCK,
        current=2,
    )
    # P3 retrieves one joker and plays it again at once.
    result = game.apply(
        play(2, "[5S JK=6S 7S 8S]", "[9H 10H JH JK=QH]", retrievals=[(1, "10H", "10H")])
    )
    assert result.accepted and hand_text(game, 2) == ["3D", "9C"]
    # P1 retrieves one joker and goes out.
    result = game.apply(
        play(0, "[5S 6S 7S 8S JK=9S]", "[9H 10H JH JK=QH]", retrievals=[(0, "6S", "6S")])
    )
    assert result.accepted and game.outcome is not None
    assert game.outcome.scores[0] == 0 - 5
    assert game.outcome.scores[2] == 12 - 5
    assert game.outcome.scores[1] == 2 + 5


def test_T31_going_out_ends_the_round_immediately() -> None:
    game = position(ROBBERS, ["2D", "5H 6H 7H", "9S", "KD"], stock=STOCK, current=1)
    assert game.apply(play(1, "[5H 6H 7H]")).accepted
    assert game.outcome is not None and game.outcome.winners == (1,)
    assert game.phase is Phase.OVER
    for seat in (2, 3, 0):
        with pytest.raises(IllegalActionError, match="over"):
            game.apply(Draw(seat))


@pytest.mark.parametrize(("players", "hand", "stock"), [(3, 13, 69), (4, 11, 64), (5, 11, 53)])
def test_T32_hand_size_by_player_count(players: int, hand: int, stock: int) -> None:
    game = ManipulationGame(ROBBERS, players, seed=1)
    assert all(len(h) == hand for h in game.hands)
    assert game.stock_size == stock


def test_T33_empty_stock_pass_instead_of_draw() -> None:
    game = position(ROBBERS, ["KS QS", "2C 3C"])
    legal = game.legal_actions()
    assert Draw(0) not in legal and Pass(0) in legal
    game.apply(Pass(0))
    assert game.pass_count == 1


def test_end_turn_only_in_play_draw_play() -> None:
    game = position(ROBBERS, ["KS QS", "2C 3C"], stock=STOCK)
    with pytest.raises(IllegalActionError):
        game.apply(EndTurn(0))


def test_wrong_seat_changes_nothing() -> None:
    game = position(ROBBERS, ["KS QS", "2C 3C"], stock=STOCK)
    before = game.view(None)
    with pytest.raises(IllegalActionError, match="seat 0's turn"):
        game.apply(Draw(1))
    assert game.view(None) == before


def test_stacked_deck_deals_one_at_a_time_from_the_left_of_the_dealer() -> None:
    deck = ManipulationGame.full_deck(ROBBERS)
    game = ManipulationGame(ROBBERS, 3, deck=deck, dealer=2)
    assert game.hands[0][:2] == [deck[0], deck[3]]
    assert game.hands[1][0] == deck[1]
    assert game.stock[0] == deck[39]
    assert game.current == 0
    assert all(isinstance(c, Card) for c in cards("AS"))
