"""Game records: round trip, replay, and precise errors for corrupt files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import manipulation_rules
from openrummy.bots import SimpleBot, play_match
from openrummy.cards import Card, parse_cards
from openrummy.errors import RecordError
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
    Retrieval,
    Show,
    TakeDiscard,
    Timeout,
    action_from_json,
    action_to_json,
    kind_of,
)
from openrummy.games.manipulation import ManipulationGame
from openrummy.games.match import ManipulationMatch
from openrummy.melds import Meld
from openrummy.record import GameRecord, load_record


def finished(name: str = "robbers_s003", seed: int = 3, **options: object) -> ManipulationMatch:
    rules = manipulation_rules(name, options)
    match = ManipulationMatch(rules, 3, seed=seed)
    play_match(match, [SimpleBot(rules)] * 3)
    return match


def test_record_round_trip_and_replay() -> None:
    match = finished("robbers", **{"opening.threshold": 30, "match.rounds": 2})
    record = GameRecord.from_match(match, ["a", "b", "c"])
    assert record.options == {"opening.threshold": 30, "match.rounds": 2}
    data = json.loads(record.dumps())
    assert data["format"] == "openrummy-record" and data["version"] == 1
    again = GameRecord.from_json(data)
    assert again.actions == record.actions
    replayed = again.replay()
    assert replayed.outcome == match.outcome and replayed.totals == match.totals


def test_stacked_decks_replay() -> None:
    rules = manipulation_rules("robbers_s003")
    deck = ManipulationGame.full_deck(rules)[::-1]
    match = ManipulationMatch(rules, 2, seed=0, decks=[deck], first_dealer=1)
    assert match.game.hands[0][0] == deck[0]
    play_match(match, [SimpleBot(rules)] * 2)
    record = GameRecord.from_match(match)
    assert record.decks is not None and parse_cards(record.decks[0]) == deck
    assert GameRecord.loads(record.dumps()).replay().outcome == match.outcome


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: "not json {", "not valid JSON"),
        (lambda d: [1, 2], "JSON object"),
        (lambda d: {**d, "format": "chess"}, "not an OpenRummy record"),
        (lambda d: {**d, "version": 99}, "version 99"),
        (lambda d: {k: v for k, v in d.items() if k != "seed"}, "no 'seed'"),
        (lambda d: {**d, "game": "poker"}, "unknown game"),
        (lambda d: {**d, "options": {"opening.threshold": "lots"}}, "opening.threshold"),
        (lambda d: {**d, "players": ["solo"]}, "at least two"),
        (lambda d: {**d, "actions": [{"seat": 0}]}, "'seat' and 'action'"),
        (lambda d: {**d, "actions": [{"seat": 0, "action": "fly"}]}, "bad action"),
        (
            lambda d: {
                **d,
                "actions": [{**d["actions"][0], "seat": (d["actions"][0]["seat"] + 1) % 3}],
            },
            "does not replay",
        ),
        (lambda d: {**d, "result": {**d["result"], "scores": [1, 2, 3]}}, "ends differently"),
        (lambda d: {**d, "decks": [["AS", "ZZ"]]}, "bad card"),
    ],
)
def test_corrupt_records_give_precise_errors(mutate: object, message: str) -> None:
    match = finished()
    data = json.loads(GameRecord.from_match(match).dumps())
    bad = mutate(data)  # type: ignore[operator]
    text = bad if isinstance(bad, str) else json.dumps(bad)
    with pytest.raises(RecordError, match=message):
        GameRecord.loads(text).replay()


def test_load_record_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError):
        load_record(binary)


RECORDED_ACTIONS: list[Action] = [
    Play(0, (Meld.parse("[5H 6H 7H]"),)),
    Play(
        1,
        (Meld.parse("[7S 7D 7C]"), Meld.parse("[4H 5H JK=6H]")),
        (Retrieval(0, Card.parse("7S"), Card.parse("7S")),),
    ),
    Play(
        2,
        (Meld.parse("[7H 7D 7C]"),),
        (Retrieval(1, Card.parse("7H"), Card.parse("7H"), from_table=True),),
    ),
    Draw(0),
    TakeDiscard(1),
    Discard(2, Card.parse("10C")),
    Pass(0),
    EndTurn(1),
    Timeout(2),
    Abandon(0),
    Drop(1),
    Declare(2, Card.parse("9C"), (Meld.parse("[4S 5S 6S]"), Meld.parse("[JK 8D 8H]"))),
    Show(0, (Meld.parse("[2C 3C 4C]"),)),
]


def test_every_action_kind_comes_back_from_a_record_as_it_was() -> None:
    """What a record stores of an action (``action_to_json``) reads back as the same action,
    joker retrievals (from the hand and from the table) included: the seeded games of the
    golden records never retrieve a joker."""
    assert {kind_of(a) for a in RECORDED_ACTIONS} == set(ActionKind)
    for action in RECORDED_ACTIONS:
        data = json.loads(json.dumps(action_to_json(action)))
        again = action_from_json(data)
        assert again == action and str(again) == str(action), data
