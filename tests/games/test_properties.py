"""Property tests over many random games played by the simple bots (hypothesis).

For every preset and the main variants: no card is ever created or lost; every table after
an accepted play is valid; no view shows a card its seat may not see; a failed play restores
table and hand exactly; a record replays to the identical final state.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import hidden_shuffled, manipulation_rules
from openrummy.bots import RandomBot, SimpleBot, make_bot, play_match
from openrummy.cards import Card
from openrummy.games.actions import Play
from openrummy.games.manipulation import PlayRejected
from openrummy.games.match import ManipulationMatch
from openrummy.record import GameRecord
from openrummy.rules import find_preset

CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "robbers": ("robbers", {}),
    "robbers_s003": ("robbers_s003", {}),
    "vatikan_s000": ("vatikan_s000", {}),
    "vatikan_pagat": ("vatikan_pagat", {}),
    "rummikub": ("rummikub", {}),
    "robbers+discard_pile": ("robbers", {"discard_pile.enabled": True}),
    "robbers+play_draw_play": ("robbers", {"turn.model": "PLAY_DRAW_PLAY", "fail.penalty_draw": 3}),
    "robbers+owned": (
        "robbers",
        {"meld.ownership": "OWNED", "variant.lay_off_on_opponents_after_opening": True},
    ),
    "robbers+wraparound+no_jokers": (
        "robbers",
        {"meld.ace_mode": "WRAPAROUND", "deck.printed_jokers": 0},
    ),
    "rummikub+reject": ("rummikub", {"fail.mode": "REJECT"}),
}


def single_round(name: str) -> Any:
    preset, options = CONFIGS[name]
    return find_preset(preset, {**options, "match.format": "SINGLE_ROUND"})


def run_checked_match(name: str, seed: int, players: int, bot_mix: int) -> ManipulationMatch:
    rules = single_round(name)
    players = max(rules.players.min, min(players, rules.players.max))
    match = ManipulationMatch(rules, players, seed=seed)
    bots = [
        (RandomBot(rules, seed + i) if (bot_mix >> i) & 1 else SimpleBot(rules, seed + i))
        for i in range(players)
    ]
    rng = random.Random(seed)
    total = match.game.all_cards()
    mr = rules.meld_rules
    for step in range(5000):
        if match.outcome is not None:
            break
        game = match.game
        seat = match.current
        view = match.view(seat)
        # Information flow: re-dealing the hidden cards must not change this seat's view.
        if step % 5 == 0:
            assert hidden_shuffled(game, seat, rng).view(seat) == game.view(seat)
        assert view.hand is not None
        assert list(view.hand) == sorted(view.hand, key=Card.sort_key)
        assert Counter(view.hand) == Counter(game.hands[seat])
        spectator = match.view(None)
        assert spectator.hand is None
        action = bots[seat].choose(view)
        table_before = game.table
        hand_before = Counter(game.hands[seat])
        stock_top = list(game.stock)
        try:
            result = match.apply(action)
        except PlayRejected:
            assert game.table == table_before and Counter(game.hands[seat]) == hand_before
            from openrummy.games.actions import Draw, Pass

            match.apply(Draw(seat) if game.stock_size else Pass(seat))
            continue
        assert game.all_cards() == total, "a card was created or lost"
        if isinstance(action, Play):
            if result.accepted:
                assert all(m.is_valid(mr) for m in game.table)
            else:
                # Failed play: table as before; hand as before plus exactly the penalty cards.
                assert game.table == table_before
                drawn = Counter(stock_top[: result.drawn])
                assert Counter(game.hands[seat]) == hand_before + drawn
    assert match.outcome is not None, "the game did not end"
    return match


@pytest.mark.parametrize("name", list(CONFIGS))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), bot_mix=st.integers(0, 31))
def test_random_games_keep_every_invariant(
    name: str, seed: int, players: int, bot_mix: int
) -> None:
    match = run_checked_match(name, seed, players, bot_mix)
    record = GameRecord.from_match(match)
    replayed = GameRecord.loads(record.dumps()).replay()
    assert replayed.outcome == match.outcome
    assert replayed.view(None) == match.view(None)
    assert [g.outcome for g in (replayed.game,)] == [match.game.outcome]


def test_full_match_replays_identically() -> None:
    rules = manipulation_rules("robbers")
    match = ManipulationMatch(rules, 4, seed=11)
    from openrummy.bots import play_match

    play_match(
        match, [SimpleBot(rules), RandomBot(rules, 1), SimpleBot(rules), RandomBot(rules, 2)]
    )
    assert len(match.rounds) >= 5
    assert [r.dealer for r in match.rounds[:5]] == [(match.first_dealer + i) % 4 for i in range(5)]
    again = GameRecord.loads(GameRecord.from_match(match).dumps()).replay()
    assert again.outcome == match.outcome and again.totals == match.totals
    assert [r.outcome for r in again.rounds] == [r.outcome for r in match.rounds]


def test_careless_plays_fail_and_are_undone_exactly() -> None:
    """The random bot's careless plays do reach the failure path (so the checks above bite)."""
    rules = single_round("robbers")
    failures = 0
    for seed in range(4):
        match = ManipulationMatch(rules, 3, seed=seed)
        bots = [RandomBot(rules, seed * 10 + i, blunder_rate=0.5) for i in range(3)]
        while match.outcome is None:
            seat = match.current
            game = match.game
            table, hand = game.table, Counter(game.hands[seat])
            result = match.apply(bots[seat].choose(match.view(seat)))
            if isinstance(result.action, Play) and not result.accepted:
                failures += 1
                assert game.table == table
                assert Counter(game.hands[seat]) - hand == Counter(
                    game.hands[seat][len(game.hands[seat]) - result.drawn :]
                )
    assert failures > 5


@pytest.mark.parametrize(
    "name",
    [
        "robbers",
        "rummikub",
        # its seeded game is long (about 12 CPU-seconds); every run plays its first turns below
        pytest.param("vatikan_pagat", marks=pytest.mark.slow),
        "robbers+owned",
    ],
)
def test_solver_bots_play_legal_games(name: str) -> None:
    """greedy and strategic: every play they make passes the commit checks (no failure)."""
    rules = single_round(name)
    match = ManipulationMatch(rules, 2, seed=5)
    bots = [make_bot("greedy", rules, 1), make_bot("strategic", rules, 2)]
    failures = []

    def watch(action: object, result: Any) -> None:
        if isinstance(action, Play) and not result.accepted:
            failures.append(result.violations)

    play_match(match, bots, on_action=watch)
    assert match.outcome is not None and not failures


def test_solver_bots_play_legal_first_turns_of_vatikan_pagat() -> None:
    """The same game as ``test_solver_bots_play_legal_games[vatikan_pagat]`` (exhaustive
    tier), its first 40 actions: every play passes the commit checks."""
    rules = single_round("vatikan_pagat")
    match = ManipulationMatch(rules, 2, seed=5)
    bots = [make_bot("greedy", rules, 1), make_bot("strategic", rules, 2)]
    plays = 0
    for _ in range(40):
        if match.outcome is not None:
            break
        seat = match.current
        action = bots[seat].choose(match.view(seat))
        result = match.apply(action)
        if isinstance(action, Play):
            plays += 1
            assert result.accepted, result.violations
    assert plays > 0


def test_the_expert_samples_worlds_that_agree_with_everything_public() -> None:
    """The expert's sampled games hold its own hand, the table, the other hands' and the
    stock's sizes and who has opened, exactly as its view shows them (its play-outs once
    treated every seat as opened)."""
    from openrummy.bots import read_view
    from openrummy.bots.manipulation_ladder import ExpertBot

    rules = single_round("robbers")
    match = ManipulationMatch(rules, 4, seed=11)
    greedy = make_bot("greedy", rules, 1)
    expert = ExpertBot(rules, 2)
    mixed = 0
    for _ in range(400):
        if match.outcome is not None:
            break
        seat = match.current
        view = match.view(seat)
        pos = read_view(view)
        if "play" in pos.legal:
            world = expert.sample_world(pos)
            assert world is not None
            assert world.opened == list(view.opened)
            assert Counter(world.hands[seat]) == Counter(pos.hand)
            assert [len(h) for h in world.hands] == list(view.hand_sizes)
            assert world.table == pos.table
            assert len(world.stock) == pos.stock
            mixed += len(set(view.opened)) > 1
        match.apply(greedy.choose(view))
    assert mixed > 5  # some seats had opened and some had not


def test_strategic_holds_its_robbers_opening_until_it_goes_out() -> None:
    """Where the opening turn may rearrange the table, strategic keeps an opening back
    while it would not go out, nobody is close to out and the stock is not low; it opens
    when that changes, and never holds back where the opening may not touch the table."""
    from openrummy.bots import read_view
    from openrummy.bots.manipulation_ladder import StrategicBot, solver_play

    def opening_turns(name: str) -> list[tuple[Any, Any]]:
        rules = single_round(name)
        match = ManipulationMatch(rules, 4 if name == "robbers" else 2, seed=4)
        greedy = make_bot("greedy", rules, 1)
        seen = []
        for _ in range(600):
            if match.outcome is not None:
                break
            view = match.view(match.current)
            pos = read_view(view)
            if "play" in pos.legal and not pos.opened:
                full = solver_play(rules, pos)
                if full is not None:
                    seen.append((pos, full))
            match.apply(greedy.choose(view))
        return seen

    held = opened = 0
    rules = single_round("robbers")
    bot = StrategicBot(rules, 1)
    for pos, full in opening_turns("robbers"):
        got = bot.plan(pos)
        out = bot._placed(pos, full) == len(pos.hand)
        close = min(n for s, n in enumerate(pos.hand_sizes) if s != pos.seat) <= bot.danger_cards
        if out or close or pos.stock < bot.open_late_stock:
            assert got is not None
            opened += 1
        else:
            assert got is None
            held += 1
    assert held >= 3
    rummikub = single_round("rummikub")
    bot = StrategicBot(rummikub, 1)
    turns = opening_turns("rummikub")
    assert turns and all(bot.plan(pos) is not None for pos, _ in turns)


def test_the_expert_prices_a_lost_play_out_by_the_penalty_points_in_its_hand() -> None:
    """In penalty scoring a play-out that another player wins costs the expert the points
    its hand pays (it once counted only cards, kept drawing with 200-point hands while an
    opponent was about to go out, and lost 19 points a round more than strategic)."""
    from openrummy.bots.manipulation_ladder import ExpertBot
    from openrummy.cards import parse_cards
    from openrummy.games.manipulation import ManipulationGame
    from openrummy.melds import Meld

    rules = single_round("robbers")
    hand = parse_cards("KH KS QD 9C 8D 2S 5H")
    world = ManipulationGame.from_position(
        rules,
        hands=[hand, parse_cards("7C 8C 9C")],  # seat 1 goes out on its turn
        table=[Meld.parse("2H 3H 4H")],
        stock=parse_cards("4D 6S 10H"),
        opened=[False, True],
        current=0,
    )
    value = sum(rules.penalty_value(c) for c in [*hand, *parse_cards("4D")])
    cards = len(hand) + 1
    default = ExpertBot(rules, 1)
    assert default.points_weight == ExpertBot.penalty_points_weight > 0
    cost = default.playout(world, 0, None)  # we draw the 4D, seat 1 goes out
    assert cost == pytest.approx(cards + 0.02 * value + default.points_weight * value)
    blind = ExpertBot(rules, 1, points_weight=0.0)
    assert blind.playout(world, 0, None) == pytest.approx(cards + 0.02 * value)
    assert world.outcome is None and world.hands[0] == hand  # the play-out used a copy
    # Rummikub's zero-sum expert was measured without the weight and keeps it off.
    assert ExpertBot(single_round("rummikub"), 1).points_weight == 0.0
