"""Positions as notation: round trips, positions of real games, bad input."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from helpers import indian_rules, manipulation_rules
from openrummy import Position
from openrummy.bots import make_bot
from openrummy.cards import JOKER, Card, Suit
from openrummy.errors import ConfigError, IllegalActionError, NotationError
from openrummy.games.indian import IndianGame, IndianMatch
from openrummy.games.manipulation import ManipulationGame
from openrummy.games.match import ManipulationMatch
from openrummy.melds import Meld, MeldItem
from openrummy.rules import find_preset, preset_names
from openrummy.rules.indian import IndianRules
from openrummy.rules.manipulation import ManipulationRules

#: A few option sets per family to mix into generated positions (skipped where invalid).
OVERRIDES: dict[str, list[dict[str, Any]]] = {
    "manipulation": [
        {},
        {"opening.threshold": 30},
        {"fail.penalty_draw": 2, "meld.set_max": 4},
        {"deck.printed_jokers": 2},
        {"discard_pile.enabled": True},
    ],
    "indian": [
        {},
        {"match.format": "POOL", "pool.threshold": 201, "pool.drop_values_201": "25,50"},
        {"scoring.cap": "none", "paplu.enabled": True},
        {"wild.indicator_in_play": True},
        {"match.format": "POOL_61"},
    ],
}


@st.composite
def positions(draw: st.DrawFn, name: str) -> Position:
    family = find_preset(name).family
    overrides = draw(st.sampled_from(OVERRIDES[family]))
    try:
        rules = find_preset(name, overrides)
    except ConfigError:
        overrides = {}
        rules = find_preset(name)
    rnd = draw(st.randoms(use_true_random=False))
    deck = (
        IndianGame.full_deck(rules)
        if isinstance(rules, IndianRules)
        else ManipulationGame.full_deck(rules)
    )
    rnd.shuffle(deck)
    players = draw(st.integers(rules.players.min, min(rules.players.max, 4)))
    seat = draw(st.integers(0, players - 1))
    turn = draw(st.integers(0, players - 1))
    table: list[Meld] = []
    if family == "manipulation":
        tiles = rules.deck.kind.name == "TILES"
        for _ in range(draw(st.integers(0, 4))):
            suit = draw(st.sampled_from(list(Suit)))
            start = draw(st.integers(2, 10))
            cards = [Card(r, suit, tile=tiles) for r in range(start, start + 3)]
            if not all(c in deck for c in cards):
                continue
            for c in cards:
                deck.remove(c)
            items = [MeldItem.natural(c) for c in cards]
            if draw(st.booleans()) and JOKER in deck:
                deck.remove(JOKER)
                deck.append(cards[1])
                items[1] = MeldItem(JOKER, cards[1])
            table.append(Meld(tuple(items)))
    indicator = deck.pop() if family == "indian" else None
    size = rules.deal.hand_size if isinstance(rules, IndianRules) else rules.hand_size(players)
    sizes = [draw(st.integers(0, size + 1)) for _ in range(players)]
    dropped: list[int] = []
    if family == "indian" and players > 2 and draw(st.booleans()):
        out = (seat + 1) % players
        dropped = [out]
        sizes[out] = 0
    hand = [deck.pop() for _ in range(sizes[seat])]
    known = draw(st.integers(0, 5))
    discard = [deck.pop() for _ in range(known)]
    if isinstance(rules, ManipulationRules) and not rules.discard_pile.enabled:
        deck.extend(discard)
        discard, known = [], 0
    discard_size = known + (draw(st.integers(0, 3)) if known and family == "manipulation" else 0)
    opened = tuple(s for s in range(players) if draw(st.booleans()))
    draws = tuple(draw(st.integers(0, 9)) for _ in range(players)) if family == "indian" else ()
    fields = [
        " ".join([name, *(f"{k}={v}" for k, v in overrides.items())]),
        f"seat {seat}",
        f"turn {turn}",
        "sizes " + " ".join(map(str, sizes)),
        "hand " + (" ".join(map(str, hand)) or "-"),
    ]
    if family == "manipulation":
        fields.append("table " + (" ".join(map(str, table)) or "-"))
        fields.append("opened " + (" ".join(map(str, opened)) or "-"))
    else:
        fields.append(f"indicator {indicator}")
        fields.append("draws " + " ".join(map(str, draws)))
        if dropped:
            fields.append("dropped " + " ".join(map(str, dropped)))
    if discard_size:
        fields.append(f"discard {discard_size} " + " ".join(map(str, discard)))
    try:
        return Position.parse(" | ".join(fields))
    except NotationError as e:
        # Only the deck can run short (too many cards drawn for the sizes).
        assert "deck has only" in str(e) or "players" in str(e) or "need" in str(e), str(e)
        assume(False)
        raise


@pytest.mark.parametrize("name", preset_names())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_positions_round_trip_for_every_preset(name: str, data: st.DataObject) -> None:
    p = data.draw(positions(name))
    text = str(p)
    assert "\n" not in text
    again = Position.parse(text)
    assert again == p
    assert str(again) == text
    assert eval(repr(p), {"Position": Position}) == p
    assert p.rules.name == find_preset(name).name


def _match(name: str, players: int, seed: int) -> Any:
    rules = find_preset(name)
    if isinstance(rules, IndianRules):
        return IndianMatch(rules, players, seed=seed)
    return ManipulationMatch(rules, players, seed=seed)


@pytest.mark.parametrize("name", preset_names())
def test_positions_of_real_seeded_games(name: str) -> None:
    """Every seat's position, at every turn of a seeded game between bots, reads back, agrees
    with the seat's view, and builds a game in which the seat sees the same position."""
    rules = find_preset(name)
    match = _match(name, 3, seed=7)
    bots = [make_bot("simple", rules, i) for i in range(3)]
    seen = 0
    for _ in range(80):
        if match.outcome is not None or len(match.rounds) > 0:
            break
        for s in match.seats:
            p = Position.from_game(match, s)
            assert Position.parse(str(p)) == p
            assert Position.from_view(match.view(s), match.rules) == p
            game = p.to_game(seed=seen)
            assert Position.from_game(game, match.seats.index(s)) == p
            assert game.all_cards() == match.game.all_cards() or rules.family == "indian"
            seen += 1
        seat = match.current
        match.apply(bots[seat].choose(match.view(seat)))
    assert seen > 30


@pytest.mark.parametrize("name", ["robbers", "rummikub", "indian13"])
def test_a_game_built_from_a_position_plays_on(name: str) -> None:
    rules = find_preset(name)
    match = _match(name, 2, seed=3)
    bots = [make_bot("simple", rules, i) for i in range(2)]
    for _ in range(10):
        seat = match.current
        match.apply(bots[seat].choose(match.view(seat)))
    p = Position.from_game(match, match.current)
    game = p.to_game(seed=1)
    for _ in range(30):
        if game.outcome is not None:
            break
        seat = game.current
        game.apply(bots[seat].choose(game.view(seat)))


def test_indian_position_with_a_drop_and_a_hand_after_the_draw() -> None:
    p = Position.parse(
        "indian13 | seat 0 | turn 0 | sizes 14 0 13 | hand 2S 3S 4S 5H 6H 7H 9C 9D 9S JK KD KC QH 8D"
        " | indicator 2C | discard 5D 7C | draws 1 0 1 | dropped 1 | phase DISCARD"
    )
    assert p.stock == 106 - 14 - 13 - 13 - 2 - 1
    game = p.to_game()
    assert game.phase.name == "DISCARD" and game.status[1].name == "DROPPED"
    assert Position.from_game(game, 0) == p
    assert "paplu" not in str(p)


def test_seat_lists_and_the_hand_are_sets() -> None:
    a = Position.parse("robbers | sizes 3 3 3 | hand 5S 3S 4S | opened 2 0")
    b = Position.parse("robbers | sizes 3 3 3 | hand 3S 4S 5S | opened 0 2")
    assert a == b and str(a) == str(b) and "opened 0 2" in str(a)


def test_minimal_position_fills_defaults() -> None:
    p = Position.parse("robbers | hand 3S 4S 5S | table [6S 7S 8S]")
    assert p.seat == 0 and p.turn == 0 and p.hand_sizes == (3, 3) and p.opened == ()
    assert p.stock == 108 - 6 - 3
    assert str(p) == (
        "robbers | seat 0 | turn 0 | sizes 3 3 | hand 3S 4S 5S | table [6S 7S 8S] | opened - "
        "| stock 99"
    )


def test_options_are_kept_by_name_and_earlier_names_are_read() -> None:
    p = Position.parse("indian13 match.format=POOL_201 | hand - | sizes 0 0 | indicator 5C")
    assert p.options == (("match.format", "POOL"), ("pool.threshold", "201"))
    rules = p.rules
    assert isinstance(rules, IndianRules) and rules.pool_threshold == 201
    assert str(p).startswith("indian13 match.format=POOL pool.threshold=201 | ")
    q = Position.parse("robbers opening.threshold=40 | hand 3S")
    assert q.options == ()  # 40 is the preset's own value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "starts with the game"),
        ("chess | hand 3S", "unknown game 'chess'"),
        ("robbers opening.threshold | hand 3S", "'opening.threshold' is not an option"),
        ("robbers opening.treshold=30 | hand 3S", "unknown option 'opening.treshold'"),
        ("robbers opening.threshold=x | hand 3S", "not a whole number"),
        ("robbers | hand 3S 4X", "hand: '4X' is not a card"),
        ("robbers | hand 3S | hand 4S", "given twice"),
        ("robbers | hand 3S |", "empty field"),
        ("robbers | colour red", "unknown field 'colour'"),
        ("robbers | seat x | hand 3S", "seat: 'x' is not a number"),
        ("robbers | seat 5 | sizes 1 1 | hand 3S", "seat 5 is not a seat"),
        ("robbers | turn 2 | hand 3S", "turn 2 is not a seat"),
        ("robbers | sizes 2 2 | hand 3S", "hand: 1 cards, but sizes gives seat 0 2"),
        ("robbers | sizes 1 | hand 3S", "is for 2 to 5 players"),
        ("robbers | hand 3S | table [3S 4S]", "not a valid meld"),
        ("robbers | hand 3S | table 4S 5S 6S", "'4S' is not a meld"),
        ("robbers | hand 3S | table [4S 5S JK=6Q]", "table: [4S 5S JK=6Q]"),
        ("robbers | hand 3S 3S 3S", "3S: the position shows 3, the deck has 2"),
        ("robbers | hand 3S | stock 5", "stock 5: the deck has 108 cards"),
        ("robbers | sizes 60 60 | hand -", "holds 120 cards but the deck has only 108"),
        ("robbers | hand R7", "played with cards"),
        ("rummikub | hand 7H", "played with tiles"),
        ("robbers | hand 3S | opened 0 0", "opened: a seat is listed twice"),
        ("robbers | hand 3S | opened 4", "opened: 4 is not a seat"),
        ("robbers | hand 3S | phase SHOW", "phase 'SHOW'"),
        ("robbers | hand 3S | indicator 2C", "'indicator' belongs to Indian Rummy"),
        ("indian13 | hand 3S | sizes 1 1", "needs its indicator"),
        ("indian13 | hand 3S | sizes 1 1 | indicator 2C 3C", "indicator: give one card"),
        ("indian13 | hand 3S | sizes 1 1 | indicator 2C | table [2S 3S 4S]", "'table' belongs"),
        (
            "indian13 | hand 3S | sizes 1 1 1 | indicator 2C | dropped 1",
            "seat 1 is out of the hand",
        ),
        ("indian13 | hand 3S | sizes 1 1 | indicator 2C | draws 1", "draws: 1 numbers for 2 seats"),
        ("robbers | hand 3S | discard 1 4S 5S", "a pile of 1 cannot show 2"),
        ("robbers | hand 3S | discard 4S", "robbers has no discard pile"),
        (
            "indian13 | hand 3S | sizes 1 1 | indicator 2C | phase DISCARD",
            "holds 14 cards, not 1",
        ),
        ("robbers | hand 3S | passes -1", "passes: '-1' is not a number"),
    ],
)
def test_bad_positions_name_the_token(text: str, message: str) -> None:
    with pytest.raises(NotationError) as err:
        Position.parse(text)
    assert message in str(err.value)


PIECES = st.sampled_from(
    [
        *("robbers", "indian13", "rummikub", "|", " ", "[", "]", "=", "-", "\n", "\t"),
        *("JK", "10H", "R7", "K1", "2C", "♠A", "🃏", "0", "1", "2", "13", "³", "٣"),
        *("seat", "turn", "sizes", "hand", "table", "opened", "indicator", "stock"),
        *("discard", "draws", "dropped", "invalid", "passes", "phase", "START", "DISCARD"),
        *("x=y", "opening.threshold=30", "match.format=POOL_101"),
    ]
)


@settings(max_examples=500, deadline=None)
@given(parts=st.lists(PIECES, max_size=30), text=st.text(max_size=30))
def test_random_text_never_crashes(parts: list[str], text: str) -> None:
    for candidate in ("".join(parts), text):
        with contextlib.suppress(NotationError):
            Position.parse(candidate)


def test_from_view_needs_a_seat() -> None:
    game = ManipulationGame(manipulation_rules("robbers"), 2, seed=1)
    with pytest.raises(IllegalActionError, match="no seat 2"):
        Position.from_game(game, 2)
    with pytest.raises(NotationError, match="spectator"):
        Position.from_view(game.view(None))
    assert Position.from_view(game.view(1)) == Position.from_game(game, 1)


def test_position_in_a_pool_round_that_leaves_a_seat_out() -> None:
    rules = indian_rules("indian13", {"match.format": "POOL", "pool.threshold": 101})
    match = IndianMatch(rules, 4, seed=2, standings={"totals": [0, 120, 30, 90], "eliminated": [1]})
    p = Position.from_game(match, 2)  # match seat 2 sits at seat 1 of the three-seat round
    assert p.seat == 1 and p.players == 3 and Position.parse(str(p)) == p
    with pytest.raises(IllegalActionError, match="seat 1 does not play"):
        Position.from_game(match, 1)
