"""One API for every family: the same tests, run on a round and on a match of every preset.

``legal_actions``, ``is_legal``, ``candidate_plays``, ``parse_action``/``str``, ``apply``,
``view`` (typed, with ``to_json``/``from_json``), ``outcome`` and ``copy`` behave the same
way for Robbers' Rummy, Rummikub, Vatikan and Indian Rummy.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from helpers import hidden_shuffled
from openrummy import FAMILIES, IllegalActionError, new_game, new_match
from openrummy.bots import make_bot
from openrummy.cards import Card
from openrummy.games.actions import (
    Abandon,
    Action,
    ActionKind,
    Declare,
    Discard,
    Draw,
    Drop,
    EndTurn,
    Pass,
    Play,
    Show,
    TakeDiscard,
)
from openrummy.games.families import Game, Match, family_of
from openrummy.games.views import view_from_json
from openrummy.melds import Meld
from openrummy.rules import find_preset, preset_names

PRESETS = preset_names()
KINDS = ("game", "match")


def make(name: str, kind: str, seed: int, players: int = 3) -> Game | Match:
    rules = find_preset(name)
    if kind == "game":
        return new_game(rules, players, seed=seed)
    return new_match(rules, players, seed=seed)


def fingerprint(x: Game | Match) -> str:
    """Everything anybody can see, every hand and the history."""
    game = round_of(x)
    hands = [[str(c) for c in h] for h in game.hands]
    seen = [x.view(None).to_json(), hands, [str(a) for a in x.history]]
    return json.dumps(seen, sort_keys=True)


def round_of(x: Game | Match) -> Game:
    return x if not hasattr(x, "game") else x.game


def random_actions(x: Game | Match, rng: random.Random, n: int) -> Iterator[Action]:
    """Actions of every kind, most of them illegal here: wrong seat, wrong phase, cards the
    seat does not hold, careless plays and declarations."""
    seat = x.current
    game = round_of(x)
    local = game.current
    hand = list(game.hands[local]) or [Card.parse("5H")]
    deck = type(game).full_deck(game.rules)  # type: ignore[arg-type]
    table = list(getattr(game, "table", ()))
    for _ in range(n):
        s = seat if rng.random() < 0.8 else rng.randrange(x.players + 1)
        card = rng.choice(hand) if rng.random() < 0.7 else rng.choice(deck)
        roll = rng.randrange(12)
        if roll == 0:
            yield Draw(s)
        elif roll == 1:
            yield TakeDiscard(s)
        elif roll == 2:
            yield Discard(s, card)
        elif roll == 3:
            ends: list[Action] = [Pass(s), EndTurn(s), Abandon(s), Drop(s)]
            yield rng.choice(ends)
        elif roll in (4, 5, 6):
            # a careless play: a few hand cards added to a meld, or laid alone
            picked = rng.sample(hand, min(len(hand), rng.randint(1, 3)))
            after = list(table)
            if after and rng.random() < 0.6:
                i = rng.randrange(len(after))
                after[i] = Meld.of((*after[i].cards, *picked))
            else:
                after.append(Meld.of(picked))
            yield Play(s, tuple(after))
        elif roll in (7, 8):
            rest = list(hand)
            finish = rest.pop(rng.randrange(len(rest)))
            cut = rng.randint(1, max(1, len(rest) - 1))
            groups = tuple(Meld.of(g) for g in (rest[:cut], rest[cut:]) if g)
            yield Declare(s, finish, groups if rng.random() < 0.8 else groups[:1])
        elif roll == 9:
            yield Show(s, (Meld.of(hand),))
        else:
            yield rng.choice(list(x.legal_actions()) or [Draw(s)])


def check_agreement(x: Game | Match, action: Action) -> bool:
    """``is_legal`` agrees with ``apply``: an illegal action raises and changes nothing, a
    legal one is applied (on a copy)."""
    legal = x.is_legal(action)
    if not legal:
        before = fingerprint(x)
        with pytest.raises(IllegalActionError):
            x.apply(action)
        assert fingerprint(x) == before, f"{action} was refused but changed the game"
    else:
        x.copy().apply(action)
    return legal


def advance(x: Game | Match, rng: random.Random) -> Action:
    """One step of a plausible game: a candidate play now and then, else a listed action."""
    plays = list(x.candidate_plays(2)) if rng.random() < 0.5 else []
    listed = list(x.legal_actions())
    calm = [a for a in listed if not isinstance(a, (Drop, Abandon))]
    options = plays or (calm if calm and rng.random() < 0.97 else listed)
    action = rng.choice(options)
    x.apply(action)
    return action


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", PRESETS)
def test_every_family_offers_the_same_api(name: str, kind: str) -> None:
    x = make(name, kind, seed=1)
    assert isinstance(round_of(x), FAMILIES[family_of(x.rules).name].game)
    for member in ("legal_actions", "legal_kinds", "is_legal", "candidate_plays", "parse_action"):
        assert callable(getattr(x, member))
    for member in ("apply", "view", "copy"):
        assert callable(getattr(x, member))
    assert x.outcome is None and not x.is_over and 0 <= x.current < x.players
    legal = x.legal_actions()
    assert legal.seat == x.current and legal.kinds == x.legal_kinds() and legal
    assert legal.kinds == x.view(x.current).legal
    assert len(legal) == legal.count() == len(list(legal)) > 0
    assert isinstance(x.rules.meld_rules.min_len, int)  # a property in both families


SAMPLE_OR_FULL = [
    pytest.param(False, id="sample"),
    pytest.param(True, id="full", marks=pytest.mark.slow),
]
"""Every run checks the first part of a seeded walk; the exhaustive tier walks on (the same
start, so the full walk includes the sample)."""


@pytest.mark.parametrize("full", SAMPLE_OR_FULL)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", PRESETS)
def test_is_legal_agrees_with_apply_on_random_actions(name: str, kind: str, full: bool) -> None:
    rng = random.Random(f"{name}/{kind}")
    x = make(name, kind, seed=rng.randrange(1000))
    checked = legal = 0
    while checked < (3000 if full else 1000):
        if x.is_over:
            x = make(name, kind, seed=rng.randrange(1000))
        for action in random_actions(x, rng, 25):
            legal += check_agreement(x, action)
            checked += 1
        advance(x, rng)
    assert 0 < legal < checked


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", PRESETS)
def test_listed_and_candidate_actions_are_legal_and_accepted(name: str, kind: str) -> None:
    rng = random.Random(name)
    x = make(name, kind, seed=2)
    plays = 0
    for _step in range(30):
        if x.is_over:
            break
        legal = x.legal_actions()
        for action in legal:
            assert action.seat == x.current
            assert x.is_legal(action) and action in legal, action
        for play in x.candidate_plays(3):
            plays += 1
            assert play in legal and x.is_legal(play)
            assert x.copy().apply(play).accepted
        assert Draw(x.current) in legal or ActionKind.DRAW not in legal.kinds
        assert Draw((x.current + 1) % x.players) not in legal
        advance(x, rng)
    assert plays > 0 or family_of(x.rules).name == "indian"


@pytest.mark.parametrize("full", SAMPLE_OR_FULL)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", PRESETS)
def test_actions_round_trip_through_their_text(name: str, kind: str, full: bool) -> None:
    rng = random.Random(name)
    x = make(name, kind, seed=3)
    for _step in range(30 if full else 12):
        if x.is_over:
            break
        for action in [*x.legal_actions(), *x.candidate_plays(2)]:
            assert x.parse_action(str(action)) == action
            assert x.parse_action(str(action), seat=action.seat) == action
        other = (x.current + 1) % x.players
        assert x.parse_action("draw", seat=other) == Draw(other)
        advance(x, rng)
    for action in x.history:
        assert x.parse_action(str(action), action.seat) == action


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", PRESETS)
def test_views_round_trip_through_json_and_hide_what_they_must(name: str, kind: str) -> None:
    rng = random.Random(name)
    x = make(name, kind, seed=4)
    view_type = family_of(x.rules).view
    for step in range(30):
        if x.is_over:
            break
        for seat in (*range(x.players), None):
            view = x.view(seat)
            assert type(view) is view_type and view.seat == seat
            data = json.loads(json.dumps(view.to_json()))
            assert view_type.from_json(data) == view == view_from_json(data)
            assert (view.hand is None) == (seat is None)
            assert (view.match is None) == (kind == "game")
        if step % 5 == 0:
            game = round_of(x)
            local = game.current
            assert hidden_shuffled(game, local, rng).view(local) == game.view(local)
        advance(x, rng)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", PRESETS)
def test_copies_are_independent(name: str, kind: str) -> None:
    x = make(name, kind, seed=5)
    before = fingerprint(x)
    twin = x.copy()
    advance(twin, random.Random(0))
    assert fingerprint(x) == before and fingerprint(twin) != before
    advance(x, random.Random(0))
    assert fingerprint(x) == fingerprint(twin)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", PRESETS)
def test_bots_play_to_an_outcome_and_then_nothing_is_legal(name: str, kind: str) -> None:
    rules = find_preset(name)
    x = make(name, kind, seed=6, players=2)
    bots = [make_bot("greedy", rules, seed) for seed in range(x.players)]
    for _ in range(5000):
        if x.is_over:
            break
        x.apply(bots[x.current].choose(x.view(x.current)))
    assert x.outcome is not None and x.is_over
    assert not x.legal_actions() and x.legal_kinds() == frozenset()
    assert not x.is_legal(Draw(0)) and list(x.candidate_plays()) == []
    with pytest.raises(IllegalActionError, match="over"):
        x.apply(Draw(0))
    json.dumps(x.outcome.to_json())
    assert x.view(None).to_json()["outcome"] is not None
