"""A play's commit checks judged from a :class:`PlayPosition` (a few strings, what a server
sends to a worker process) answer exactly what the game itself answers."""

from __future__ import annotations

import pickle
import random

import pytest

from openrummy.bots import make_bot
from openrummy.cards import Card
from openrummy.errors import RummyError
from openrummy.games.actions import Play
from openrummy.games.judge import check_table
from openrummy.games.manipulation import ManipulationGame
from openrummy.melds import Meld
from openrummy.rules import ManipulationRules, find_preset
from openrummy.server.jobs import check_job, pack_rules


def _proposals(game: ManipulationGame, chosen: Play | None, rng: random.Random) -> list[Play]:
    """Plays to judge now: the bot's, the unchanged table, and ones that break a rule."""
    seat = game.current
    table = tuple(game.table)
    hand = game.hands[seat]
    plays = [Play(seat, table)]
    if chosen is not None:
        plays.append(chosen)
        if chosen.table:
            plays.append(Play(seat, chosen.table[:-1], chosen.retrievals))  # a meld lost
    if len(hand) >= 3:
        three = rng.sample(hand, 3)
        loose = Meld.parse("[" + " ".join(str(c) for c in three) + "]")
        plays.append(Play(seat, (*table, loose)))  # most likely no meld
    if table:
        plays.append(Play(seat, table[1:]))  # a meld taken off the table
    return plays


@pytest.mark.parametrize("preset", ["robbers", "rummikub", "vatikan_pagat"])
def test_the_position_judges_every_play_as_the_game_does(preset: str) -> None:
    rules = find_preset(preset)
    assert isinstance(rules, ManipulationRules)
    rng = random.Random(preset)
    game = ManipulationGame(rules, 3, seed=preset)
    bots = [make_bot("simple", rules, s) for s in range(3)]
    judged, verdicts = 0, set()
    for _ in range(90):
        if game.is_over:
            break
        seat = game.current
        action = bots[seat].choose(game.view(seat))
        position = pickle.loads(pickle.dumps(game.play_position(seat)))
        chosen = action if isinstance(action, Play) else None
        for play in _proposals(game, chosen, rng):
            try:
                expected = game.check_play(play)
            except RummyError as e:
                with pytest.raises(type(e)):
                    position.check_play(rules, play)
                continue
            assert position.check_play(rules, play) == expected, (preset, str(play))
            judged += 1
            verdicts.add(bool(expected))
        game.apply(action)
    assert judged > 150 and verdicts == {True, False}  # plays accepted and refused


def test_the_position_refuses_another_seat_as_the_game_does() -> None:
    rules = find_preset("robbers")
    assert isinstance(rules, ManipulationRules)
    game = ManipulationGame(rules, 2, seed=4)
    other = 1 - game.current
    position = game.play_position(game.current)
    play = Play(other, tuple(game.table))
    with pytest.raises(RummyError) as by_game:
        game.check_play(play)
    with pytest.raises(RummyError) as by_position:
        position.check_play(rules, play)
    assert str(by_position.value) == str(by_game.value)


def test_the_check_job_answers_as_the_check_on_the_game() -> None:
    """The server's check (packed rules, the position) against the check on the game."""
    rules = find_preset("robbers")
    assert isinstance(rules, ManipulationRules)
    game = ManipulationGame(rules, 2, seed=11)
    bots = [make_bot("simple", rules, s) for s in range(2)]
    packed = pack_rules(rules)
    compared, checked = 0, set()
    for _ in range(40):
        if game.is_over:
            break
        seat = game.current
        hand = sorted(game.hands[seat], key=Card.sort_key)
        action = bots[seat].choose(game.view(seat))
        tables = [
            [str(m) for m in game.table] + [f"[{' '.join(str(c) for c in hand[:3])}]"],
            [str(m) for m in game.table[1:]],
            [str(m) for m in game.table] + ["[JK JK 5H]", "[5H 6H"],
        ]
        if isinstance(action, Play) and not action.retrievals:
            tables.append([str(m) for m in action.table])  # the bot's play: accepted
        for table in tables:
            opened = bool(game.opened[seat])
            on_game = check_table(
                rules, table, opened=opened, game=game.copy(), seat=seat
            ).to_json()
            on_position = check_job(
                packed,
                table,
                opened=opened,
                hand_only=None,
                retrievals=[],
                position=game.play_position(seat),
            )
            assert on_position == on_game
            compared += 1
            if on_game.get("checked"):
                checked.add(bool(on_game["ok"]))
        game.apply(action)
    assert compared >= 60 and checked == {True, False}
