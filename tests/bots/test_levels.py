"""The difficulty levels: every level plays legal games in each family, the Rummikub levels
use only the table they may (hand only; lay-offs; one rearranged meld), and the Indian easy
level keeps its melds."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import indian_rules, manipulation_rules, position
from openrummy.bots import make_bot
from openrummy.bots.levels import (
    LEVELS,
    IndianCarelessBot,
    describe_level,
    level_bot,
    level_kind,
    touched_melds,
)
from openrummy.games.actions import Discard, Play
from openrummy.games.indian import IndianMatch
from openrummy.games.match import ManipulationMatch
from openrummy.games.views import ManipulationView
from openrummy.melds import Meld
from openrummy.rules import find_preset
from openrummy.solve.hand import analyse_draw


def _placed(before: tuple[Meld, ...], after: tuple[Meld, ...]) -> int:
    old = Counter(c for m in before for c in m.cards)
    return sum((Counter(c for m in after for c in m.cards) - old).values())


@pytest.mark.parametrize("game", ["rummikub", "robbers", "vatikan_pagat"])
@pytest.mark.parametrize("bot", ["hand-only", "one-meld"])
def test_manipulation_levels_play_legal_moves(game: str, bot: str) -> None:
    """Two of the bot play 30 actions of a real game: every action is legal (the engine's
    own check), the hand-only bot leaves every table meld as it was and the one-meld bot
    never rearranges more than one table meld."""
    rules = manipulation_rules(game)
    match = ManipulationMatch(rules, 2, seed=3)
    bots = [make_bot(bot, rules, s) for s in range(2)]
    plays = 0
    for _ in range(30):
        if match.outcome is not None:
            break
        seat = match.current
        view = match.view(seat)
        action = bots[seat].choose(view)
        assert match.is_legal(action), (bot, action)
        if isinstance(action, Play):
            plays += 1
            assert isinstance(view, ManipulationView)
            if bot == "one-meld":
                assert touched_melds(view.table, action.table) <= 1
            else:
                assert touched_melds(view.table, action.table) == 0
                assert all(m in action.table for m in view.table)
        match.apply(action)
    assert plays > 0


@pytest.mark.parametrize("game", ["indian13", "indian21"])
def test_careless_plays_legal_moves(game: str) -> None:
    rules = indian_rules(game)
    match = IndianMatch(rules, 2, seed=5)
    bots = [make_bot("careless", rules, s) for s in range(2)]
    for _ in range(30):
        if match.is_over:
            break
        seat = match.current
        action = bots[seat].choose(match.view(seat))
        assert match.is_legal(action), (game, action)
        match.apply(action)


def test_the_levels_are_the_bots_of_each_game() -> None:
    """easy < medium < hard < expert, by the bot each game uses, each described in both
    languages."""
    want = {
        "rummikub": ["hand-only", "simple", "one-meld", "expert"],
        "robbers": ["simple", "greedy", "strategic", "expert"],
        "vatikan_s000": ["simple", "greedy", "strategic", "expert"],
        "indian13": ["careless", "simple", "strategic", "expert"],
    }
    for game, bots in want.items():
        rules = find_preset(game)
        assert [level_bot(level, rules) for level in LEVELS] == bots
        assert [make_bot(level, rules).name for level in LEVELS] == bots
        for level in LEVELS:
            en = describe_level(level, level_kind(rules), "en")
            de = describe_level(level, level_kind(rules), "de")
            assert en and de and en != de and not en.startswith("level.")


RK = manipulation_rules("rummikub")


def test_easy_lays_only_hand_melds_medium_also_lays_off() -> None:
    game = position(RK, ["R6 B9 B10 B11 K2", "O1 O2 O3"], ["R3 R4 R5"])
    easy = make_bot("easy", RK).choose(game.view(0))
    medium = make_bot("medium", RK).choose(game.view(0))
    assert isinstance(easy, Play) and isinstance(medium, Play)
    assert _placed(game.table, easy.table) == 3  # B9 B10 B11, not R6
    assert Meld.parse("R3 R4 R5") in easy.table
    assert _placed(game.table, medium.table) == 4


def test_hard_rearranges_one_meld_expert_the_whole_table() -> None:
    """Two four-card sets and two pairs of run cards: taking one 5 and one 9 out would place
    all four; the hard level may rearrange one set only (two cards), the expert both."""
    game = position(
        RK,
        ["R6 R7 B10 B11 K2", "O1 O2 O3 O4"],
        ["R5 B5 K5 O5", "B9 R9 K9 O9"],
    )
    view = game.view(0)
    hard = make_bot("hard", RK).choose(view)
    assert isinstance(hard, Play)
    assert game.is_legal(hard)
    assert touched_melds(game.table, hard.table) == 1
    assert _placed(game.table, hard.table) == 2
    medium = make_bot("medium", RK).choose(view)
    assert not isinstance(medium, Play)  # nothing to lay off: it draws
    greedy = make_bot("greedy", RK).choose(view)
    assert isinstance(greedy, Play)
    assert touched_melds(game.table, greedy.table) == 2
    assert _placed(game.table, greedy.table) == 4


def test_touched_melds_counts_rearranged_not_extended_melds() -> None:
    before = (Meld.parse("R3 R4 R5"), Meld.parse("B7 K7 O7"), Meld.parse("R3 R4 R5"))
    grown = (Meld.parse("R3 R4 R5 R6"), Meld.parse("B7 K7 O7 R7"), Meld.parse("R3 R4 R5"))
    assert touched_melds(before, grown) == 0
    split = (Meld.parse("R3 R4 R5 R6"), Meld.parse("B7 K7 O7"), Meld.parse("R2 R3 R4"))
    assert touched_melds(before, split) == 1  # one copy of R3 R4 R5 is not kept whole
    assert touched_melds(before, ()) == 3


def test_careless_throws_a_loose_card_only() -> None:
    """In real hands, the easy Indian level never throws a card that its best arrangement
    keeps in a meld, and does not always throw the card the solver would."""
    rules = indian_rules("indian13")
    differ = 0
    throws = 0
    for seed in range(3):
        match = IndianMatch(rules, 2, seed=seed)
        bots = [IndianCarelessBot(rules, seed), make_bot("simple", rules)]
        for _ in range(40):
            if match.is_over:
                break
            seat = match.current
            view = match.view(seat)
            action = bots[seat].choose(view)
            if seat == 0 and isinstance(action, Discard):
                assert view.hand is not None
                a = analyse_draw(view.hand, rules, rules.wilds(view.indicator))
                melded = {o.card: sum(len(g) for g in o.arrangement.groups) for o in a.options}
                assert melded[action.card] == max(melded.values())
                differ += action.card != a.discard
                throws += 1
            match.apply(action)
    assert throws > 10 and differ > 0


def test_rummy_bots_lists_the_levels_of_a_game() -> None:
    from typer.testing import CliRunner

    from openrummy.cli import app

    res = CliRunner().invoke(app, ["bots", "--game", "rummikub", "--lang", "de"])
    assert res.exit_code == 0
    assert "Stufen (rummikub)" in res.output and "robbers" not in res.output.split("\n")[0]
    lines = [line.split() for line in res.output.splitlines() if line.startswith("  ")]
    levels = [words[0] for words in lines[:4]]
    assert levels == list(LEVELS)
    assert lines[0][-1] == "(hand-only)" and lines[2][-1] == "(one-meld)"
