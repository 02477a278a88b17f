"""Macro actions: the menu is exactly the engine's ``candidate_plays`` (its length known
without the solver's play where it can be), and seeded trajectories are the ones recorded
before the menu was made lazy (golden digests)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from itertools import combinations

import numpy as np
import pytest

from openrummy.cards import Card, Suit
from openrummy.envs import RummyEnv
from openrummy.envs._spaces import SECOND0, encode, full_counts
from openrummy.games.actions import ActionKind, Play
from openrummy.games.candidates import _cannot_open
from openrummy.games.commit import commit_violations
from openrummy.games.manipulation import ManipulationGame, _lay_offs, _meld_lay_offs
from openrummy.melds import Meld, MeldItem
from openrummy.rules import find_preset
from openrummy.rules.manipulation import ManipulationRules
from openrummy.solve.table import best_play

# Recorded with the eager menu (``list(match.candidate_plays(plays))`` at every turn).
# Rummikub 3p recorded again when the compiled search began to cut runs that start with a
# joker: at step 137 its count-and-value play places O3 where the earlier one placed K3
# (51 tiles and the same value either way), and the trajectory goes on from there.
# Recorded again (all but Rummikub 2p) when the solver's race began to guess which of its
# searches goes first: Robbers 2p at step 99 opens with [JD JK KD] for [10S JS JK], Robbers 3p
# at step 33 places a JS for a 10C, Rummikub 3p at step 83 arranges the same tiles otherwise
# (the same count and value each time).
GOLDEN = {
    ("rummikub", 1, 150, 2): "96db33c05f36a4831028af19d3dcf7e5e399a8d01f571fdeda29aa7a9547de1b",
    ("rummikub", 2, 150, 3): "52139fc938e2763a470dd725acba5cb808b95ff5fd91d2718deff353f46453ca",
    ("robbers", 3, 150, 2): "b219bf2ce20f02f26a5b9f62b4d0ef6a93e6857b24f8bdc5c6edc4b7e32990ed",
    ("robbers", 4, 150, 3): "b5fd89f4dfd8f8ce672c5f057fbcb5cf7f9c249446319d0d7783876b9c6084b5",
}


def macro_digest(preset: str, seed: int, steps: int, players: int) -> str:
    """A digest of a masked-random macro trajectory: every mask, observation and chosen
    action (as text), over as many episodes as ``steps`` takes."""
    env = RummyEnv(preset, players=players)
    env.reset(seed=seed)
    rng = random.Random(seed)
    h = hashlib.sha256()
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            agent = env.agent_selection
        obs = env.observe(agent)
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        chosen = env.action_menu().actions[action]
        h.update(f"{agent}|{action}|{chosen}|".encode())
        h.update(obs["action_mask"].tobytes())
        h.update(obs["observation"].tobytes())
        env.step(action)
    return h.hexdigest()


@pytest.mark.parametrize("key", sorted(GOLDEN), ids=lambda k: f"{k[0]}-{k[3]}p")
def test_seeded_macro_trajectories_match_the_recorded_digests(
    key: tuple[str, int, int, int],
) -> None:
    assert macro_digest(*key) == GOLDEN[key]


def _reference_small_tables(game: ManipulationGame) -> Iterator[tuple[Meld, ...]]:
    """Every trio of ``itertools.combinations`` and every lay-off, checked one by one."""
    mr = game.rules.meld_rules
    hand = sorted(set(game.hands[game.current]), key=Card.sort_key)
    for trio in combinations(hand, 3):
        meld = Meld.of(trio)
        options = meld.assignments(mr) if any(c.is_joker for c in trio) else [meld]
        for option in options:
            if option.is_valid(mr):
                yield (*game.table, option.normalized(mr))
    for i, meld in enumerate(game.table):
        for card in hand:
            if card.is_joker:
                continue
            for grown in (
                Meld((*meld.items, MeldItem.natural(card))),
                Meld((MeldItem.natural(card), *meld.items)),
            ):
                if grown.is_valid(mr):
                    table = list(game.table)
                    table[i] = grown.normalized(mr)
                    yield tuple(table)


@pytest.mark.parametrize(
    ("preset", "steps"),
    [("rummikub", 70), ("robbers", 50), ("robbers_s003", 20), ("vatikan_pagat", 30)],
)
def test_candidate_menu_holds_exactly_the_candidate_plays(preset: str, steps: int) -> None:
    """Along a masked-random trajectory: the lazy menu's length (known first) and plays are
    ``candidate_plays``'s, and the pruned small tables are every small table."""
    check_menus(preset, steps, seed=5)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["rummikub", "robbers", "robbers_s003", "vatikan_s000"])
def test_candidate_menu_holds_exactly_the_candidate_plays_over_long_runs(preset: str) -> None:
    check_menus(preset, 600, seed=6)


def check_menus(preset: str, steps: int, seed: int) -> None:
    env = RummyEnv(preset)
    env.reset(seed=seed)
    rng = random.Random(seed)
    lazy = 0
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            agent = env.agent_selection
        game = env.match.game
        assert isinstance(game, ManipulationGame)
        assert list(game.small_tables()) == list(_reference_small_tables(game))
        seat = game.current
        if not game.opened[seat] and ActionKind.PLAY in game.legal_kinds():
            # the tables left out for a seat that must open are ones it may not play
            kept = list(game.small_tables(opening=True))
            every = list(_reference_small_tables(game))
            assert kept == [t for t in every if t in kept]
            for table in every:
                assert table in kept or not game.can_play(Play(seat, table))
            if _cannot_open(game.rules, game.hands[seat]):
                assert best_play(game.rules, game.table, game.hands[seat], opened=False).count == 0
        for limit in (1, 8):
            menu = game.candidate_menu(limit)
            n = len(menu)
            lazy += not menu.solved and n > 0
            assert list(menu) == list(game.candidate_plays(limit))
            assert len(menu) == n
            for play in menu:  # the engine's checks, without the game's memo of them
                assert not commit_violations(
                    game.rules,
                    table_before=game.table,
                    hand=game.hands[seat],
                    table_after=play.table,
                    opened=game.opened[seat],
                )
        mask = env.observe(agent)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    if preset != "vatikan_pagat":  # jokers move only by replacement there: always eager
        assert lazy > 0


def test_plays_after_the_first_need_no_solver_when_it_is_not_among_them() -> None:
    env = RummyEnv("rummikub")
    env.reset(seed=7)
    rng = random.Random(7)
    for _ in range(400):
        game = env.match.game
        assert isinstance(game, ManipulationGame)
        menu = game.candidate_menu(8)
        if len(menu) >= 2 and not menu.solved:
            rest = list(menu[1:])
            assert not menu.solved
            assert [menu[0], *rest] == list(game.candidate_plays(8))
            assert menu.solved
            return
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    pytest.fail("no menu of two plays or more without the solver's play")


def test_without_the_solver_play_the_menu_is_the_first_valid_small_plays() -> None:
    env = RummyEnv("rummikub", solver_play=False, plays=4)
    env.reset(seed=3)
    rng = random.Random(3)
    seen = 0
    for _ in range(60):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            agent = env.agent_selection
        game = env.match.game
        assert isinstance(game, ManipulationGame)
        want: list[Play] = []
        if ActionKind.PLAY in game.legal_kinds():
            for table in _reference_small_tables(game):
                play = Play(game.current, table)
                if play not in want and game.can_play(play) and len(want) < 4:
                    want.append(play)
        got = [a for i, a in sorted(env.action_menu().actions.items()) if i >= SECOND0]
        assert got == want
        seen += len(want)
        mask = env.observe(agent)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert seen > 0


def _melds_to_grow(rules: ManipulationRules) -> Iterator[Meld]:
    """Runs of every length and start in one suit and sets of three and four, each also
    with a joker in place of one card (every identity it may take)."""
    tiles = rules.tiles
    mr = rules.meld_rules
    joker = Card(0, None)
    for length in range(3, 14):
        for start in range(1, 14):
            ranks = [(start - 1 + k) % 13 + 1 for k in range(length)]
            cards = [Card(r, Suit.H, tiles) for r in ranks]
            yield Meld.of(cards)
            yield from Meld.of([*cards[:-2], joker, cards[-1]]).assignments(mr)
    for rank in (1, 7, 13):
        for size in (3, 4):
            cards = [Card(rank, suit, tiles) for suit in list(Suit)[:size]]
            yield Meld.of(cards)
            yield from Meld.of([joker, *cards[1:]]).assignments(mr)


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("robbers", {}),
        ("robbers_s003", {}),
        ("vatikan_pagat", {}),
        ("vatikan_pagat", {"meld.ace_both_ends": True}),
        ("robbers", {"meld.set_max": 6}),
        ("rummikub", {}),
    ],
)
def test_a_melds_lay_off_cards_are_every_card_that_grows_it(
    preset: str, options: dict[str, object]
) -> None:
    rules = find_preset(preset, options)
    assert isinstance(rules, ManipulationRules)
    mr = rules.meld_rules
    naturals = [Card(r, s, rules.tiles) for s in Suit for r in range(1, 14)]
    grown = 0
    for meld in _melds_to_grow(rules):
        if not meld.is_valid(mr):
            continue
        meld = meld.normalized(mr)
        every = [(c, _lay_offs(meld, c, mr)) for c in naturals if _lay_offs(meld, c, mr)]
        assert list(_meld_lay_offs(meld, mr, rules.tiles)) == every, str(meld)
        grown += len(every)
    assert grown > 0


def test_a_play_checked_in_another_position_is_checked_again() -> None:
    """The game remembers what its play checker found only for the position it was in."""
    rules = find_preset("rummikub", {"opening.threshold": 0})
    assert isinstance(rules, ManipulationRules)
    game = ManipulationGame(rules, 2, seed=4)
    seat = game.current
    valid = game.play_checker(seat)
    plays = [Play(seat, t) for t in game.small_tables()]
    play = next(p for p in plays if valid(p))
    assert game.can_play(play)
    game.hands[seat].remove(play.table[-1].cards[0])  # the position changes
    assert [v.code for v in game.check_play(play)] == ["C3"]


@pytest.mark.parametrize(
    ("preset", "players", "unit"),
    [("rummikub", 2, "round"), ("robbers", 3, "match"), ("vatikan_pagat", 2, "round")],
)
def test_the_round_observation_is_the_views(preset: str, players: int, unit: str) -> None:
    """Every seat's observation read from the round equals the one encoded from its view,
    along a masked-random run (the round's end and, in a match, the next deal included)."""
    env = RummyEnv(preset, players=players, unit=unit)
    env.reset(seed=11)
    rng = random.Random(11)
    ended = 0
    for _ in range(120):
        for agent in env.possible_agents:
            seat = env.possible_agents.index(agent)
            want = encode(env.match.view(seat), env.layout, full_counts(env.rules))
            assert env.observe(agent)["observation"].tolist() == want.tolist()
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            ended += 1
            env.reset()
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert ended > 0 or unit == "match"


@pytest.mark.parametrize("preset", ["robbers", "robbers_s003", "vatikan_pagat", "rummikub"])
def test_small_tables_of_random_hands_are_every_trio_and_lay_off(preset: str) -> None:
    """Hands of 10 to 20 cards drawn from the whole deck (jokers, both decks), some beside
    a few random melds: every trio and lay-off, in the reference order."""
    rules = find_preset(preset)
    assert isinstance(rules, ManipulationRules)
    rng = random.Random(preset)
    deck = ManipulationGame.full_deck(rules)
    runs = 0
    for k in range(12):
        game = ManipulationGame(rules, 2, seed=k)
        if k % 2:
            game.table = tuple(
                m.normalized(rules.meld_rules)
                for m in (Meld.of(rng.sample(deck, 3)) for _ in range(20))
                if m.is_valid(rules.meld_rules)
            )
        game.hands[game.current] = rng.sample(deck, rng.randint(10, 20))
        tables = list(game.small_tables())
        assert tables == list(_reference_small_tables(game))
        runs += len(tables)
    assert runs > 0
