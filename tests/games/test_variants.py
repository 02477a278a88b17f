"""Variants and edge cases of the manipulation engine beyond the numbered RULES.md cases."""

from __future__ import annotations

import json

import pytest

from helpers import cards, manipulation_rules, melds, play, position
from openrummy.cards import Card
from openrummy.errors import ConfigError, IllegalActionError, NotationError
from openrummy.games.actions import (
    Abandon,
    Discard,
    Draw,
    Pass,
    Play,
    Retrieval,
    TakeDiscard,
    Timeout,
    parse_action,
)
from openrummy.games.manipulation import ManipulationGame, Phase, PlayRejected
from openrummy.messages import render

STOCK = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_discard_pile_variant() -> None:
    rules = manipulation_rules("robbers", **{"discard_pile.enabled": True})
    game = ManipulationGame(rules, 3, seed=5)
    assert len(game.discard_pile) == 1 and game.stock_size == 108 - 39 - 1
    seat = game.current
    top = game.discard_pile[-1]
    assert TakeDiscard(seat) in game.legal_actions()
    game.apply(TakeDiscard(seat))
    assert game.phase is Phase.DISCARD and top in game.hands[seat]
    with pytest.raises(IllegalActionError, match="discard a card first"):
        game.apply(Play(seat, ()))
    absent = next(c for c in ManipulationGame.full_deck(rules) if c not in game.hands[seat])
    with pytest.raises(IllegalActionError, match="not in your hand"):
        game.apply(Discard(seat, absent))
    card = game.hands[seat][0]
    game.apply(Discard(seat, card))
    assert game.discard_pile[-1] == card and game.current == (seat + 1) % 3
    assert game.view(game.current).discard_top == card
    nxt = game.current
    game.apply(Draw(nxt))
    assert game.phase is Phase.DISCARD and game.current == nxt


def test_turn_timer_with_an_injected_clock() -> None:
    rules = manipulation_rules("robbers", **{"turn.time_limit_s": 120})
    clock = FakeClock()
    game = ManipulationGame.from_position(
        rules,
        hands=[cards("5H 6H 7H KS"), cards("2D")],
        stock=cards(STOCK),
        opened=[True, True],
        clock=clock,
    )
    clock.now += 30
    assert game.time_left() == pytest.approx(90)
    assert game.view(0).time_left == pytest.approx(90)
    with pytest.raises(IllegalActionError, match="not run out"):
        game.apply(Timeout(0))
    clock.now += 100  # 130 s after the turn began
    result = game.apply(Play(0, melds("[5H 6H 7H]")))
    assert not result.accepted and [v.code for v in result.violations] == ["C8"]
    assert game.table == () and len(game.hands[0]) == 5  # reverted, drew 1
    assert game.history[-1].at == clock.now  # the engine stamped the time
    clock.now += 121
    result = game.apply(Timeout(1))
    assert not result.accepted and result.drawn == 1 and game.current == 0


def test_timeout_without_a_clock_is_trusted_and_needs_a_timer() -> None:
    game = position(manipulation_rules("robbers"), ["KS", "2D"], stock=STOCK)
    with pytest.raises(IllegalActionError, match="no turn timer"):
        game.apply(Timeout(0))
    timed = manipulation_rules("rummikub", **{"turn.time_limit_s": 60})
    game = position(timed, ["R3", "B2"], stock="K2 K3 K4 K5")
    result = game.apply(Timeout(0))
    assert not result.accepted and result.drawn == 3


def test_abandoned_manipulation_is_a_failure() -> None:
    game = position(manipulation_rules("rummikub"), ["R3", "B2"], stock="K2 K3 K4 K5")
    result = game.apply(Abandon(0))
    assert not result.accepted and result.drawn == 3 and game.current == 1


def test_reject_mode_refuses_and_changes_nothing() -> None:
    rules = manipulation_rules("rummikub", **{"fail.mode": "REJECT"})
    game = position(rules, ["R8 K1", "B2"], ["[R5 R6 R7]"], stock="K2 K3 K4")
    before = game.view(None)
    with pytest.raises(PlayRejected) as info:
        game.apply(play(0, "[R5 R6 R7]", "[R8 K1]"))
    assert info.value.violations[0].code == "C1"
    assert game.view(None) == before and game.current == 0
    assert game.apply(play(0, "[R5 R6 R7 R8]")).accepted


def test_run_from_hand_opening_vatikan_pagat() -> None:
    rules = manipulation_rules("vatikan_pagat")
    game = position(rules, ["KS KH KD 4C", "2D"], stock=STOCK, opened=False)
    result = game.apply(play(0, "[KS KH KD]"))
    assert not result.accepted and "run of at least 3" in str(result.violations[0])
    game = position(rules, ["2H 3H 4H 4C", "2D"], stock=STOCK, opened=False)
    assert game.apply(play(0, "[2H 3H 4H]")).accepted and game.opened[0]


def test_only_via_replacement_allows_adding_to_a_joker_meld() -> None:
    rules = manipulation_rules("vatikan_pagat")
    game = position(rules, ["8S 2D", "2D"], ["[5S JK=6S 7S]"], stock=STOCK)
    assert game.apply(play(0, "[5S JK=6S 7S 8S]")).accepted
    game = position(rules, ["8S 2D", "2D"], ["[5S JK=6S 7S]"], stock=STOCK)
    result = game.apply(play(0, "[5S]", "[JK=6S 7S 8S]"))  # the joker's meld may not be split
    assert not result.accepted


def test_set3_requires_both_missing_suits() -> None:
    rules = manipulation_rules("robbers", **{"joker.set3_requires_both": True})
    game = position(rules, ["7D 7S", "2D"], ["[7C JK=7D 7H]"], stock=STOCK)
    result = game.apply(play(0, "[7C 7D 7H]", retrievals=[(0, "7D", "7D")]))
    assert not result.accepted and "both missing suits" in str(result.violations[0])
    game = position(rules, ["7D 7S 2C", "2D"], ["[7C JK=7D 7H]"], stock=STOCK)
    assert game.apply(play(0, "[7S 7H 7D 7C]", retrievals=[(0, "7D", "7D")])).accepted
    assert sorted(str(c) for c in game.hands[0]) == ["2C", "JK"]


@pytest.mark.parametrize(
    ("disposition", "new_meld", "ok"),
    [
        ("REUSE_SAME_TURN_NEW_MELD_2", "[B9 K9 JK=O9]", True),
        ("REUSE_SAME_TURN_NEW_MELD_2", "[B9 JK=K9 JK=O9]", False),
        ("REUSE_SAME_TURN_NEW_MELD_30", "[B9 K9 JK=O9]", False),
        ("REUSE_SAME_TURN_NEW_MELD_30", "[B11 K11 JK=O11]", True),
    ],
)
def test_retrieved_joker_dispositions(disposition: str, new_meld: str, ok: bool) -> None:
    rules = manipulation_rules("rummikub", **{"joker.retrieved_disposition": disposition})
    table = ["[R5 JK=R6 R7]", "[R10 JK=R11 R12]"] if "JK=K9" in new_meld else ["[R5 JK=R6 R7]"]
    hand = "R6 B9 K9 B11 K11 R11"
    game = position(rules, [hand, "B2"], table, stock="K2 K3 K4")
    retrievals = [(0, "R6", "R6")] + ([(1, "R11", "R11")] if len(table) > 1 else [])
    after = ["[R5 R6 R7]"] + (["[R10 R11 R12]"] if len(table) > 1 else []) + [new_meld]
    result = game.apply(play(0, *after, retrievals=retrievals))
    assert result.accepted is ok, result.violations


def test_owned_melds_hindu_rummy_with_stealing() -> None:
    owned = manipulation_rules(
        "robbers", **{"meld.ownership": "OWNED", "variant.lay_off_on_opponents_after_opening": True}
    )

    def game_with(rules: object) -> ManipulationGame:
        return ManipulationGame.from_position(
            rules,  # type: ignore[arg-type]
            hands=[cards("KS 2D"), cards("8H 7S 4C")],
            table=list(melds("[5H 6H 7H]", "[9S 9H 9D]")),
            owners=[0, 1],
            stock=cards(STOCK),
            opened=[True, True],
            current=1,
        )

    game = game_with(owned)
    result = game.apply(play(1, "[5H 6H 7H 8H]", "[9S 9H 9D]"))
    assert result.accepted
    assert game.owners[[str(m) for m in game.table].index("[5H 6H 7H 8H]")] == 0
    assert game.view(0).owners is not None

    # Taking a card from an opponent's meld is not allowed, even when every meld stays valid.
    game = ManipulationGame.from_position(
        owned,
        hands=[cards("KS 2D"), cards("7S 7D 4C")],
        table=list(melds("[4H 5H 6H 7H]", "[9S 9H 9D]")),
        owners=[0, 1],
        stock=cards(STOCK),
        opened=[True, True],
        current=1,
    )
    result = game.apply(play(1, "[4H 5H 6H]", "[7H 7S 7D]", "[9S 9H 9D]"))
    assert not result.accepted and [v.code for v in result.violations] == ["C2"]

    closed = manipulation_rules("robbers", **{"meld.ownership": "OWNED"})
    game = game_with(closed)  # without the stealing variant opponents' melds are closed
    result = game.apply(play(1, "[5H 6H 7H 8H]", "[9S 9H 9D]"))
    assert not result.accepted and "may not be changed" in str(result.violations[0])
    game = game_with(closed)  # own melds stay open to their owner
    game.hands[1] = cards("9C 4C")
    assert game.apply(play(1, "[5H 6H 7H]", "[9S 9H 9D 9C]")).accepted


def test_malformed_input_never_crashes_and_never_changes_state() -> None:
    game = position(manipulation_rules("robbers"), ["7D 2C", "2D"], ["[7C JK=7D 7H]"], stock=STOCK)
    snapshot = json.dumps(game.view(None).to_json())
    for bad in (Draw(5), Draw(-1), Pass(0), "draw", None):
        with pytest.raises(IllegalActionError):
            game.apply(bad)  # type: ignore[arg-type]
    assert json.dumps(game.view(None).to_json()) == snapshot
    result = game.apply(
        Play(0, melds("[7C 7D 7H]"), (Retrieval(9, Card.parse("7D"), Card.parse("7D")),))
    )
    assert not result.accepted and any("no meld 9" in str(v) for v in result.violations)
    with pytest.raises(NotationError):
        parse_action("play [7C 7D", seat=0)
    with pytest.raises(NotationError):
        parse_action("fly away", seat=0)


def test_action_notation_round_trips() -> None:
    game = position(manipulation_rules("robbers"), ["7D 2C", "2D"], ["[7C JK=7D 7H]"], stock=STOCK)
    for text in (
        "draw",
        "pass",
        "end",
        "timeout",
        "abandon",
        "take",
        "discard 10H",
        "play [7H 7D 7C] retrieve 0:7D<-7D",
        "play [R5 R6 R7] [B9 K9 JK=R9] retrieve 0:R6<-R6@table",
    ):
        action = game.parse_action(text)
        assert str(action) == text and action.seat == game.current


def test_views_are_json_and_hide_what_they_must() -> None:
    game = ManipulationGame(manipulation_rules("robbers"), 3, seed=2)
    for seat in (0, 1, 2, None):
        view = game.view(seat).to_json()
        text = json.dumps(view)
        assert "stock_order" not in text
        assert set(view) >= {
            "hand",
            "table",
            "hand_sizes",
            "stock",
            "discard_top",
            "opened",
            "current",
            "time_left",
        }
    assert game.view(None).hand is None
    assert len(game.view(1).hand or ()) == 13
    with pytest.raises(IllegalActionError):
        game.view(3)


def test_stock_running_out_resets_pass_count_and_failures_count_as_passes() -> None:
    game = position(manipulation_rules("robbers"), ["KS QS", "2C 3C"], stock="9D")
    game.apply(Draw(0))
    assert game.stock_size == 0 and game.pass_count == 0
    result = game.apply(play(1, "[2C 3C]"))
    assert not result.accepted and result.drawn == 0 and game.pass_count == 1


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"joker.retrieval": False}, "joker.retrieval"),
        ({"discard_pile.enabled": True, "turn.model": "PLAY_DRAW_PLAY"}, "discard_pile.enabled"),
        ({"scoring.mode": "NONE"}, "match.format"),
        ({"meld.ace_both_ends": True}, "meld.ace_both_ends"),
        ({"deal.hand_size": 60}, "deal.hand_size"),
        ({"players.max": 1}, "players.max"),
        ({"opening.ace_value": 7}, "opening.ace_value"),
        ({"variant.lay_off_on_opponents_after_opening": True}, "meld.ownership"),
        ({"turn.time_limit_s": -5}, "turn.time_limit_s"),
        ({"stalemate.scoring": "ZERO_SUM_DIFFS"}, "stalemate.scoring"),
        ({"meld.ace_mode": "SIDEWAYS"}, "meld.ace_mode"),
        ({"opening.threshold": "forty"}, "opening.threshold"),
    ],
)
def test_inconsistent_configuration_is_refused_naming_the_option(
    options: dict[str, object], names: str
) -> None:
    with pytest.raises(ConfigError, match=names.replace(".", r"\.")):
        manipulation_rules("robbers", options)


def test_player_count_is_checked() -> None:
    with pytest.raises(ConfigError, match="2 to 4 players"):
        ManipulationGame(manipulation_rules("rummikub"), 5, seed=1)
    with pytest.raises(ConfigError, match="deck has 2"):
        position(manipulation_rules("robbers"), ["KS KS KS", "2D"])


def test_a_rejected_play_says_why_without_rule_codes() -> None:
    rules = manipulation_rules("rummikub", **{"fail.mode": "REJECT"})
    game = position(rules, ["R8 K1", "B2"], ["[R5 R6 R7]"], stock="K2 K3 K4")
    with pytest.raises(PlayRejected) as info:
        game.apply(play(0, "[R5 R6 R7]", "[R8 K1]"))
    assert info.value.why is not None and info.value.why.key == "play_rejected"
    assert str(info.value).startswith("the play is not valid ([R8 K1] is not valid: ")
    assert "C1" not in str(info.value)
    assert render(info.value.why, "de", tiles=True).startswith("der Zug ist ungültig (")
