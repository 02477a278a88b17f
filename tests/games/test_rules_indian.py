"""RULES.md §9.7–§9.8 cases that need the Indian engine (turns, drops, pools, scoring).

The meld- and solver-level halves of these cases are in tests/solve/test_hand*.py.
"""

from __future__ import annotations

import pytest

from helpers import cards, indian_rules, melds
from openrummy.cards import Card
from openrummy.errors import IllegalActionError
from openrummy.games.actions import Declare, Discard, Draw, Drop, Show, TakeDiscard
from openrummy.games.indian import HandEnd, IndianGame, IndianMatch, IndianPhase, SeatStatus

INDIAN13 = indian_rules("indian13")
I01_HAND = "4S 5S 6S 8H JK 10H 7C 7D 7H KS KH KD KC"
I01_GROUPS = ("[4S 5S 6S]", "[8H JK=9H 10H]", "[7C 7D 7H]", "[KS KH KD KC]")
I02_HAND = "4S 5S 6S 7C 7D 7H 10S 10H 10D 10C KS KH KD"
I02_GROUPS = ("[4S 5S 6S]", "[7C 7D 7H]", "[10S 10H 10D 10C]", "[KS KH KD]")


def hand(
    rules: object,
    hands: list[str],
    *,
    indicator: str = "2C",
    stock: str = "",
    discard: str = "3D",
    current: int = 0,
) -> IndianGame:
    return IndianGame.from_position(
        rules,  # type: ignore[arg-type]
        hands=[cards(h) for h in hands],
        indicator=Card.parse(indicator),
        stock=cards(stock),
        discard_pile=cards(discard),
        current=current,
    )


def test_I01_valid_declaration_ends_the_hand() -> None:
    game = hand(INDIAN13, [I01_HAND, "2S 3S 8S 9S JS QS 2H 3H 5H 6H 9H JH QH"], stock="9C 4D")
    game.apply(Draw(0))
    result = game.apply(Declare(0, Card.parse("9C"), melds(*I01_GROUPS)))
    assert result.accepted and game.outcome is not None
    assert game.outcome.termination is HandEnd.DECLARED and game.outcome.winners == (0,)
    assert game.outcome.scores[0] == 0 and game.outcome.scores[1] > 0


def test_I02_invalid_declaration_penalty_and_play_goes_on() -> None:
    game = hand(
        INDIAN13,
        [
            I02_HAND,
            "2S 3S 8S 9S JS QS 2H 3H 5H 6H 9H JH QH",
            "AS AH 2D 4D 5D 6D 8D 9D JD QD AD 3C 4C",
        ],
        stock="9C 4H",
    )
    game.apply(Draw(0))
    result = game.apply(Declare(0, Card.parse("9C"), melds(*I02_GROUPS)))
    assert not result.accepted and "sequence" in str(result.violations[0])
    assert game.status[0] is SeatStatus.ELIMINATED and game.penalties[0] == 80
    assert game.discard_pile[-1] == Card.parse("9C")
    assert game.outcome is None and game.current == 1 and game.phase is IndianPhase.START
    assert game.hands[0] == [] and game.all_cards()[Card.parse("KS")] >= 1


@pytest.mark.parametrize(
    ("credit", "score"), [("TWO_SEQ_ONE_PURE", 80), ("PURE_ONLY", 0), ("ANY_MELD", 0)]
)
def test_I03_the_invalid_hand_as_a_losers_hand(credit: str, score: int) -> None:
    rules = indian_rules("indian13", **{"scoring.loser_meld_credit": credit})
    p1 = "4C 5C 6C 7H 8H JK 10H 3D 3H 3C QS QH QC"
    p2 = "2S 3S 8S 9S JS 2H 5H 6H 9H JH 9D 8D 6D"
    game = hand(rules, [p1, p2, I02_HAND], stock="9C")
    game.apply(Draw(0))
    result = game.apply(
        Declare(
            0,
            Card.parse("9C"),
            melds("[4C 5C 6C]", "[7H 8H JK=9H 10H]", "[3D 3H 3C]", "[QS QH QC]"),
        )
    )
    assert result.accepted and game.outcome is not None
    assert game.outcome.scores[2] == score


def test_I09_drop_penalties() -> None:
    rules = indian_rules("indian13")
    game = IndianGame(rules, 4, seed=5, dealer=3)
    assert game.current == 0

    def draw_and_throw(seat: int) -> None:
        game.apply(Draw(seat))
        game.apply(Discard(seat, game.hands[seat][-1]))

    draw_and_throw(0)
    game.apply(Drop(1))  # P2 drops at the start of their first turn
    draw_and_throw(2)
    draw_and_throw(3)
    draw_and_throw(0)
    draw_and_throw(2)
    draw_and_throw(3)
    draw_and_throw(0)
    game.apply(Drop(2))  # P3 at the start of their third turn
    assert game.penalties[1] == 20 and game.penalties[2] == 40
    assert game.current == 3 and game.outcome is None
    assert game.status[1] is SeatStatus.DROPPED and game.hands[1] == []
    draw_and_throw(3)
    assert game.current == 0  # the hand continues with P1 and P4


def test_I14_pool_101_threshold() -> None:
    for elimination, out in (("REACH", True), ("EXCEED", False)):
        rules = indian_rules(
            "indian13", **{"match.format": "POOL_101", "pool.elimination": elimination}
        )
        match = IndianMatch(rules, 3, seed=2, first_dealer=2)
        match.totals[2] = 81
        assert match.current == 0
        match.apply(Draw(0))
        match.apply(Discard(0, match.game.hands[0][-1]))
        match.apply(Drop(1))
        match.apply(Drop(2))
        assert match.rounds[-1].outcome.termination is HandEnd.LAST_STANDING
        assert match.totals == [0, 20, 101]
        assert (2 in match.eliminated) is out
        assert (2 in match.seats) is not out


@pytest.mark.parametrize(("drop_values", "first", "middle"), [("25,50", 25, 50), (None, 20, 40)])
def test_I15_pool_201_drop_values_in_play(drop_values: str | None, first: int, middle: int) -> None:
    options: dict[str, object] = {"match.format": "POOL_201"}
    if drop_values:
        options["pool.drop_values_201"] = drop_values
    rules = indian_rules("indian13", options)
    match = IndianMatch(rules, 3, seed=4, first_dealer=2)
    match.apply(Draw(0))
    match.apply(Discard(0, match.game.hands[0][-1]))
    match.apply(Drop(1))
    match.apply(Draw(2))
    match.apply(Discard(2, match.game.hands[2][-1]))
    match.apply(Draw(0))
    match.apply(Discard(0, match.game.hands[0][-1]))
    match.apply(Drop(2))
    assert match.totals[1:] == [first, middle]


def test_I16_paplu_bonus() -> None:
    rules = indian_rules("indian13", **{"paplu.enabled": True})
    p1 = "8H 9H 10H 2S 3S 4S 5C 5D 5S JC QC KC AC"
    p2 = "3H 4H 5H 9S 10S JS QD QH QS 9C 8D 6C 2D"
    p3 = "2H 6D 6S 8S KS AS 3C 4C 6H JH 9C 10C 4D"
    p4 = "AD KD QC JD 10S 9D 8S 6H 4C 3D KH QS 10C"
    game = hand(rules, [p1, p2, p3, p4], indicator="7H", stock="5H 2D", discard="3S", current=2)
    game.apply(Drop(2))
    game.apply(Draw(3))
    game.apply(Discard(3, Card.parse("5H")))
    game.apply(Draw(0))
    result = game.apply(
        Declare(
            0, Card.parse("2D"), melds("[8H 9H 10H]", "[2S 3S 4S]", "[5C 5D 5S]", "[JC QC KC AC]")
        )
    )
    assert result.accepted and game.outcome is not None
    assert game.outcome.scores == (0, 35, 20, 90)
    assert game.outcome.deadwood[1] == 25


def test_I18_declare_requires_a_draw_first() -> None:
    game = hand(INDIAN13, [I01_HAND, "2S 3S 8S 9S JS QS 2H 3H 5H 6H 9H JH QH"], stock="9C")
    with pytest.raises(IllegalActionError, match="draw a card first"):
        game.apply(
            Declare(
                0,
                Card.parse("KC"),
                melds("[4S 5S 6S]", "[8H JK=9H 10H]", "[7C 7D 7H]", "[KS KH KD]"),
            )
        )
    assert game.phase is IndianPhase.START and len(game.hands[0]) == 13


def test_I19_stock_exhausted_reshuffles_the_discards_except_the_top() -> None:
    game = hand(
        INDIAN13,
        ["2S 3S 8S 9S JS QS 2H 3H 5H 6H 9H JH QH", I01_HAND],
        discard="3C 10D 4H 9D",
        current=1,
    )
    assert game.stock_size == 0
    game.apply(Draw(1))
    assert game.discard_pile == [Card.parse("9D")]
    assert game.hands[1][-1] in cards("3C 10D 4H") and game.stock_size == 2
    void = indian_rules("indian13", **{"stock.on_empty": "HAND_VOID"})
    game = hand(
        void,
        ["2S 3S 8S 9S JS QS 2H 3H 5H 6H 9H JH QH", I01_HAND],
        discard="3C 10D 4H 9D",
        current=1,
    )
    game.apply(Draw(1))
    assert (
        game.outcome is not None
        and game.outcome.termination is HandEnd.VOID
        and game.outcome.scores == (0, 0)
    )


def test_I20_last_remaining_player_wins() -> None:
    game = hand(
        INDIAN13,
        [I01_HAND, I02_HAND.replace("KS", "QS"), "2S 3S 8S 9S JS AS 2H 3H 5H 6H 9H JH QH"],
        current=1,
    )
    game.apply(Drop(1))
    game.apply(Drop(2))
    assert game.outcome is not None and game.outcome.termination is HandEnd.LAST_STANDING
    assert game.outcome.winners == (0,) and game.outcome.scores == (0, 20, 20)


@pytest.mark.parametrize(("arrangement", "valid"), [("SUBMITTED", False), ("AUTO", True)])
def test_I21_declarers_grouping_is_judged_as_shown_in_play(arrangement: str, valid: bool) -> None:
    rules = indian_rules("indian13", **{"declare.arrangement": arrangement})
    game = hand(
        rules,
        [
            I01_HAND,
            "2S 3S 8S 9S JS QS 2H 3H 5H 6H 9H JH QH",
            "AS AH 2D 4D 5D 6D 8D 9D JD QD AD 3C 4C",
        ],
        stock="9C",
    )
    game.apply(Draw(0))
    result = game.apply(
        Declare(
            0,
            Card.parse("9C"),
            melds("[4S 5S 6S]", "[8H JK=9H 10H]", "[7C 7D 7H KS]", "[KH KD KC]"),
        )
    )
    assert result.accepted is valid
    assert (game.penalties[0] == 80) is not valid


def test_I13_submitted_loser_groups_jokers_score_zero() -> None:
    rules = indian_rules("indian13", **{"scoring.loser_arrangement": "SUBMITTED"})
    p2 = "3H 4H 5H 6S 7S 8S 9S QC QD QH JK 9C 4D"
    game = hand(rules, [I01_HAND, p2], indicator="9D", stock="2D")
    game.apply(Draw(0))
    assert game.apply(Declare(0, Card.parse("2D"), melds(*I01_GROUPS))).accepted
    assert game.phase is IndianPhase.SHOW and game.current == 1 and game.outcome is None
    with pytest.raises(IllegalActionError):
        game.apply(Show(1, melds("[3H 4H 5H]", "[6S 7S 8S 9S]")))  # not all the cards
    game.apply(Show(1, melds("[3H 4H 5H]", "[6S 7S 8S 9S]", "[QC QD QH]", "[JK]", "[9C]", "[4D]")))
    assert game.outcome is not None and game.outcome.scores[1] == 4
    auto = hand(INDIAN13, [I01_HAND, p2], indicator="9D", stock="2D")
    auto.apply(Draw(0))
    auto.apply(Declare(0, Card.parse("2D"), melds(*I01_GROUPS)))
    assert auto.outcome is not None and auto.outcome.scores[1] == 0


def test_I26_value_card_exchange_at_the_end_of_a_hand() -> None:
    rules = indian_rules("indian21")
    a = "2S 2S 3S 3S 8H 8H 9D 9D JC JC QH QH KS KS 10D 10D 4C 5C 6C AH 2H"
    b = "6C 2D 3D 4D 7S 8S 9S 10S JS QS KH AD AS 3H 4H 7H 9H 10H JH 7D 8D"
    c = "2C 3C 7C 8C 9C 10C QC KC AC 4S 6S 6H 6D JD QD KD 8C 3H 4H 7H 9H"
    game = hand(rules, [a, b, c], indicator="5C", stock="3H", discard="AD")
    game.apply(Draw(0))
    pairs = [
        "[2S 2S]",
        "[3S 3S]",
        "[8H 8H]",
        "[9D 9D]",
        "[JC JC]",
        "[QH QH]",
        "[KS KS]",
        "[10D 10D]",
    ]
    result = game.apply(Declare(0, Card.parse("3H"), melds(*pairs, "[4C 5C 6C AH 2H]")))
    assert result.accepted, result.violations
    assert game.outcome is not None and game.outcome.value_net == (190, -80, -110)
    assert game.outcome.scores[0] == -190


def test_take_from_discard_and_restrictions() -> None:
    rules = indian_rules(
        "indian13", **{"discard.no_same_card_return": True, "discard.take_wild_from_discard": False}
    )
    game = hand(
        rules, [I01_HAND, "2S 3S 8S 9S JS QS 2H 3H 5H 6H 9H JH QH"], stock="9C 9D", discard="3D"
    )
    game.apply(TakeDiscard(0))
    with pytest.raises(IllegalActionError, match="may not throw it back"):
        game.apply(Discard(0, Card.parse("3D")))
    game.apply(Discard(0, Card.parse("KC")))
    game.apply(Draw(1))
    game.apply(Discard(1, Card.parse("2S")))  # a wild card (rank 2) on the pile
    assert TakeDiscard(0) is not None and "take" not in game.legal_kinds()


def test_views_hide_hands_and_stock_but_show_the_discard_history() -> None:
    import json

    game = IndianGame(INDIAN13, 3, seed=9)
    seat = game.current
    game.apply(Draw(seat))
    game.apply(Discard(seat, game.hands[seat][0]))
    for s in (0, 1, 2, None):
        assert game.view(s).discard_top == game.discard_pile[-1]
        v = json.loads(json.dumps(game.view(s).to_json()))
        assert len(v["discard_pile"]) == 2 and v["indicator"] == str(game.indicator)
    assert game.view(None).hand is None
    assert game.view(1).hand == tuple(game.hands[1])


def test_bad_declarations_are_illegal_and_change_nothing() -> None:
    game = hand(INDIAN13, [I01_HAND, "2S 3S 8S 9S JS QS 2H 3H 5H 6H 9H JH QH"], stock="9C")
    game.apply(Draw(0))
    before = game.view(0)
    with pytest.raises(IllegalActionError, match="finish card"):
        game.apply(Declare(0, Card.parse("AS"), melds(*I01_GROUPS)))
    with pytest.raises(IllegalActionError, match="missing"):
        game.apply(Declare(0, Card.parse("9C"), melds(*I01_GROUPS[:3])))
    with pytest.raises(IllegalActionError, match="turn"):
        game.apply(Discard(1, Card.parse("2S")))
    assert game.view(0) == before
