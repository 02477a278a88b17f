"""Judging a turn before it is played: proposed tables (manipulation) and hands (Indian Rummy)."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import indian_rules, loose, manipulation_rules, position
from openrummy.cards import Card, parse_cards
from openrummy.games.judge import MeldCheck, check_table, judge_hand
from openrummy.rules import ManipulationRules
from openrummy.rules.indian import IndianRules


@pytest.fixture
def robbers() -> ManipulationRules:
    rules = manipulation_rules("robbers")
    assert isinstance(rules, ManipulationRules)
    return rules


@pytest.fixture
def indian() -> IndianRules:
    rules = indian_rules("indian13")
    assert isinstance(rules, IndianRules)
    return rules


def test_melds_one_by_one(robbers: ManipulationRules) -> None:
    check = check_table(
        robbers,
        ["[6H 6D JK]", "[10S 10H JK=10D]", "[8S JK 10S]", "[6H 6D]", "[JK JK JK JK JK JK]", "[Q"],
        opened=False,
        hand_only=[True, True],
    )
    ambiguous, tens, filled, short, jokers, unreadable = check.melds
    assert not ambiguous.valid and ambiguous.reason == "choose what the joker stands for"
    assert "[JK=6S 6H 6D]" in [str(m) for m in ambiguous.choices]
    assert ambiguous.meld == "[6H 6D JK]"
    assert (tens.valid, tens.kind, tens.value, tens.opening) == (True, "SET", 30, True)
    # One identity fits: it is filled in; the meld does not count toward the opening.
    assert (filled.valid, filled.meld, filled.opening) == (True, "[8S JK=9S 10S]", False)
    assert short.reason == "2 cards — a meld needs at least 3"
    # Identities are not searched for too many open jokers: the player states them.
    assert jokers.reason == "choose what the joker stands for" and not jokers.choices
    assert not unreadable.valid and unreadable.reason
    opening = check.opening
    assert (opening.required, opening.type, opening.value, opening.threshold) == (
        True,
        "POINTS",
        30,
        40,
    )
    assert not opening.met
    # No game given: the melds only, no commit checks.
    assert not check.checked and not check.ok and not check.violations


def test_an_opened_player_needs_no_opening(robbers: ManipulationRules) -> None:
    check = check_table(robbers, ["[10S 10H 10D]"], opened=True)
    assert not check.opening.required


def test_commit_checks_when_it_is_the_players_turn(robbers: ManipulationRules) -> None:
    game = position(robbers, ["JK 6H 6D 10S 10H JK 2C", "2D 3D 4D"], opened=False)
    # 18 + 30 from the hand: the opening is met and the play would be accepted.
    check = check_table(
        robbers,
        ["[JK=6S 6H 6D]", "[10S 10H JK=10D]"],
        opened=False,
        hand_only=[True, True],
        game=game,
        seat=0,
    )
    assert check.opening.value == 48 and check.opening.met
    assert check.checked and check.ok and not check.violations
    # Thirty is too small an opening: the engine says why (C5).
    check = check_table(
        robbers, ["[10S 10H JK=10D]"], opened=False, hand_only=[True], game=game, seat=0
    )
    assert check.checked and not check.ok
    assert any(v.code == "C5" for v in check.violations)
    c5 = next(v for v in loose(check.to_json())["violations"] if v["code"] == "C5")
    assert (
        c5["reason"] == "opening_too_low"
        and c5["threshold"] == 40
        and c5["text"].startswith("C5: ")
    )
    # A retrieval that cannot be read is reported as such; nothing is checked beyond it.
    check = check_table(
        robbers, ["[10S 10H JK=10D]"], opened=False, retrievals=["nonsense"], game=game, seat=0
    )
    assert check.checked and not check.ok and check.notation_error
    assert loose(check.to_json())["violations"][0]["code"] == "notation"
    # An invalid meld: no commit checks.
    check = check_table(robbers, ["[6H 6D]"], opened=False, game=game, seat=0)
    assert not check.checked
    assert game.hands[0] == parse_cards("JK 6H 6D 10S 10H JK 2C")  # nothing was played


def test_table_check_json(robbers: ManipulationRules) -> None:
    data = loose(check_table(robbers, ["[10S 10H 10D]", "[6H 6D]"], opened=True).to_json())
    assert set(data) == {"melds", "opening", "violations", "ok", "checked"}
    valid, invalid = data["melds"]
    assert valid == {
        "valid": True,
        "reason": None,
        "problem": None,
        "kind": "SET",
        "value": 30,
        "meld": "[10S 10H 10D]",
        "choices": [],
        "opening": False,
    }
    assert "opening" not in invalid  # only a valid meld can count toward the opening
    # Why not, in words and as data for the message catalogue.
    assert invalid["reason"] == "2 cards — a meld needs at least 3"
    assert invalid["problem"] == {"reason": "meld.too_short", "count": 2}
    assert loose(MeldCheck("[6H 6D]").to_json())["valid"] is False


def test_the_players_groups_and_their_deadwood(indian: IndianRules) -> None:
    hand = parse_cards("JD QD KD 2C 2S 5H 9C 9S 4D 7H 8H 3S 6C")
    judged = judge_hand(indian, hand, Card.parse("AH"), groups=[["JD", "QD", "KD"], ["9C"]])
    assert [(g.kind, g.valid) for g in judged.groups] == [("PURE_SEQUENCE", True), (None, False)]
    # One pure sequence is not enough for the melds to count: every card is deadwood (capped).
    assert not judged.deadwood.credited
    assert (judged.deadwood.runs, judged.deadwood.pure) == (1, 1)
    assert judged.deadwood.points == 80 and judged.deadwood.raw > 80
    assert judged.auto is None and judged.declaration is None
    assert loose(judged.to_json())["groups"][0] == {"kind": "PURE_SEQUENCE", "valid": True}


def test_auto_grouping_and_declaration(indian: IndianRules) -> None:
    # After the draw: fourteen cards that declare with the 6C thrown as the finish card.
    hand = parse_cards("JD QD KD 2C 3C 4C 5S 5H 5D 7H 8H 9H 10H 6C")
    judged = judge_hand(indian, hand, Card.parse("AS"), auto=True)
    auto = judged.auto
    assert auto is not None and auto.declare and auto.discard == Card.parse("6C")
    assert Counter(c for g in auto.groups for c in g) == Counter(hand[:-1])
    groups = [["JD", "QD", "KD"], ["2C", "3C", "4C"], ["5S", "5H", "5D"], ["7H", "8H", "9H", "10H"]]
    verdict = judge_hand(indian, hand, Card.parse("AS"), groups=groups, finish="6C").declaration
    assert verdict is not None and verdict.valid, verdict
    wrong = judge_hand(indian, hand, Card.parse("AS"), groups=groups[:2], finish="6C")
    assert wrong.declaration is not None and not wrong.declaration.valid
    assert wrong.declaration.reason
    data = loose(judged.to_json())
    assert data["auto"]["declare"] and data["auto"]["discard"] == "6C" and data["auto"]["shown"]


def test_auto_grouping_before_the_draw(indian: IndianRules) -> None:
    hand = parse_cards("JD QD KD 2C 3C 4C 5S 5H 5D 7H 8H 9H KS")
    judged = judge_hand(indian, hand, Card.parse("AS"), auto=True)
    assert judged.auto is not None and not judged.auto.declare
    assert judged.auto.discard is None and judged.auto.deadwood == (Card.parse("KS"),)
    assert judged.auto.points == 10
    assert "shown" not in judged.auto.to_json()


def test_an_unreadable_card_is_an_error(indian: IndianRules) -> None:
    hand = parse_cards("JD QD KD 2C 3C 4C 5S 5H 5D 7H 8H 9H KS")
    with pytest.raises(ValueError):
        judge_hand(indian, hand, Card.parse("AS"), groups=[["ZZ"]])
