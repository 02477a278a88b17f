"""Match formats by their rule-book names (RULES.md §3.6, §4.6, §5.5) and given standings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openrummy.bots import make_bot, play_match
from openrummy.errors import ConfigError
from openrummy.games.indian import IndianMatch
from openrummy.games.match import ManipulationMatch
from openrummy.games.standings import Standings
from openrummy.record import GameRecord, load_record
from openrummy.rules import IndianRules, find_preset
from openrummy.rules.common import MatchFormat

RECORDS = Path(__file__).parent / "records"

FORMATS: list[tuple[str, dict[str, Any], int, int]] = [
    ("indian13", {}, 3, 1),
    ("indian13", {"match.format": "POOL", "pool.threshold": 61}, 3, 2),
    ("indian13", {"match.format": "POOL", "pool.threshold": 101}, 3, 3),
    ("indian13", {"match.format": "POOL", "pool.threshold": 201}, 2, 4),
    ("indian13", {"match.format": "DEALS", "deals.count": 2}, 3, 5),
    ("indian13", {"match.format": "FIXED_HANDS", "match.hands": 2}, 3, 6),
    ("robbers", {"match.rounds": 2}, 3, 7),
    ("robbers", {"match.format": "FIRST_TO_N_OUTS", "match.outs_to_win": 1}, 2, 8),
    ("robbers_s003", {}, 2, 9),
    ("rummikub", {"match.rounds": 2}, 2, 10),
]


def _play(preset: str, options: dict[str, Any], players: int, seed: int, **kw: Any) -> Any:
    rules = find_preset(preset, options)
    match: IndianMatch | ManipulationMatch = (
        IndianMatch(rules, players, seed=seed, **kw)
        if isinstance(rules, IndianRules)
        else ManipulationMatch(rules, players, seed=seed, **kw)
    )
    play_match(match, [make_bot("simple", rules, seed + i) for i in range(players)])
    return match


@pytest.mark.parametrize(
    ("preset", "options", "players", "seed"),
    FORMATS,
    ids=[
        f"{p}-{o.get('match.format', 'default')}-{o.get('pool.threshold', '')}"
        for p, o, *_ in FORMATS
    ],
)
def test_each_format_plays_to_its_end_and_replays(
    preset: str, options: dict[str, Any], players: int, seed: int
) -> None:
    match = _play(preset, options, players, seed)
    outcome = match.outcome
    assert outcome is not None and outcome.winners
    fmt = match.rules.match.format
    if fmt is MatchFormat.POOL:
        threshold = match.rules.pool.threshold
        assert len(outcome.winners) == 1 and len(outcome.eliminated) == players - 1
        assert all(match.totals[s] >= threshold for s in outcome.eliminated)
        assert match.totals[outcome.winners[0]] < threshold
        assert outcome.decided_by == f"last player under {threshold}"
    elif fmt in (MatchFormat.DEALS, MatchFormat.FIXED_HANDS):
        count = match.rules.deals.count if fmt is MatchFormat.DEALS else match.rules.match.hands
        assert len([r for r in match.rounds if not r.tie_break]) == count
    assert match.view(0).to_json()["match"]["format"] == fmt.value
    again = GameRecord.loads(GameRecord.from_match(match).dumps()).replay()
    assert again.outcome == outcome


@pytest.mark.parametrize(
    ("name", "threshold"),
    [("indian13-pool101-old-name", 101), ("indian13-pool201-old-name", 201)],
)
def test_records_with_the_earlier_pool_names_replay(name: str, threshold: int) -> None:
    """Records written before POOL and pool.threshold existed (match.format = POOL_101)."""
    record = load_record(RECORDS / f"{name}.json")
    assert record.options == {"match.format": f"POOL_{threshold}"}
    match = record.replay()  # checks the recorded result too
    assert match.rules.match.format is MatchFormat.POOL
    assert isinstance(match.rules, IndianRules) and match.rules.pool_threshold == threshold
    assert (
        match.outcome is not None and match.outcome.decided_by == f"last player under {threshold}"
    )
    # Written again, the record uses today's names and still replays.
    rewritten = GameRecord.from_match(match, record.players)
    assert rewritten.options == {"match.format": "POOL", "pool.threshold": threshold} or (
        threshold == 101 and rewritten.options == {"match.format": "POOL"}
    )
    assert GameRecord.loads(rewritten.dumps()).replay().outcome == match.outcome


def test_record_with_rounds_lowest_total_for_indian_replays_as_fixed_hands() -> None:
    record = load_record(RECORDS / "indian13-fixed-old-name.json")
    assert record.options["match.format"] == "ROUNDS_LOWEST_TOTAL"
    match = record.replay()
    assert match.rules.match.format is MatchFormat.FIXED_HANDS


# -- standings ----------------------------------------------------------------------------
def test_pool_match_from_standings_eliminates_at_the_threshold() -> None:
    options = {"match.format": "POOL", "pool.threshold": 101}
    standings = Standings(totals=(81, 100, 0, 120), eliminated=(3,), round=5)
    match = _play("indian13", options, 4, 11, standings=standings)
    assert match.rounds[0].index == 5 and 3 not in match.rounds[0].seats
    assert match.outcome.eliminated[0] == 3
    assert match.totals[0] >= 81 and match.totals[1] >= 100
    record = GameRecord.from_match(match)
    assert record.standings == {"totals": [81, 100, 0, 120], "eliminated": [3], "round": 5}
    again = GameRecord.loads(record.dumps()).replay()
    assert again.outcome == match.outcome and again.totals == match.totals


def test_fixed_hands_from_standings_plays_the_remaining_hands() -> None:
    options = {"match.format": "FIXED_HANDS", "match.hands": 3}
    match = _play("indian13", options, 3, 12, standings={"totals": [10, 0, 30], "round": 2})
    assert next(r.index for r in match.rounds if not r.tie_break) == 2
    assert len([r for r in match.rounds if not r.tie_break]) == 1
    assert GameRecord.loads(GameRecord.from_match(match).dumps()).replay().totals == match.totals


def test_robbers_player_who_went_out_twice_wins_on_the_third() -> None:
    options = {"match.format": "FIRST_TO_N_OUTS", "match.outs_to_win": 3}
    standings = Standings(totals=(0, 40), outs=(2, 0), rounds_won=(2, 1), round=3)
    match = _play("robbers", options, 2, 13, standings=standings)
    assert match.outcome.outs[match.outcome.winners[0]] == 3
    record = GameRecord.from_match(match)
    assert record.standings is not None and record.standings["outs"] == [2, 0]
    assert GameRecord.loads(record.dumps()).replay().outcome == match.outcome


def test_rounds_match_from_standings_ends_after_match_rounds() -> None:
    match = _play("robbers", {"match.rounds": 5}, 2, 14, standings=Standings(round=4))
    assert match.round_index - match.start_round == len(match.rounds)
    assert len([r for r in match.rounds if not r.tie_break]) == 1


@pytest.mark.parametrize(
    ("preset", "options", "players", "standings", "message"),
    [
        ("indian13", {}, 2, {"totals": [5, 0]}, "POINTS is a single hand"),
        ("indian13", {"match.format": "POOL"}, 3, {"totals": [1, 2]}, "2 numbers for 3 seats"),
        ("indian13", {"match.format": "POOL"}, 3, {"totals": [120, 0, 0]}, "not eliminated"),
        (
            "indian13",
            {"match.format": "POOL"},
            3,
            {"totals": [50, 0, 0], "eliminated": [0]},
            "below pool.threshold",
        ),
        (
            "indian13",
            {"match.format": "POOL"},
            2,
            {"totals": [120, 0], "eliminated": [0]},
            "fewer than two",
        ),
        ("indian13", {"match.format": "POOL"}, 3, {"eliminated": [3]}, "3 is not a seat"),
        ("indian13", {"match.format": "POOL"}, 3, {"totals": [-1, 0, 0]}, "0 or more"),
        ("indian13", {"match.format": "FIXED_HANDS"}, 2, {"round": 3}, "would be over"),
        ("indian13", {"match.format": "DEALS"}, 2, {"eliminated": [0]}, "nobody is eliminated"),
        ("indian13", {"match.format": "POOL"}, 2, {"outs": [1, 0]}, "belong to Robbers'"),
        ("robbers", {}, 2, {"outs": [2, 0], "round": 1}, "2 outs in 1 rounds"),
        ("robbers", {}, 2, {"round": 5}, "would be over"),
        (
            "robbers",
            {"match.format": "FIRST_TO_N_OUTS"},
            2,
            {"outs": [3, 0], "round": 4},
            "would have ended",
        ),
        ("robbers_s003", {}, 2, {"round": 1}, "SINGLE_ROUND"),
        ("rummikub", {}, 2, {"totals": [10, 5], "round": 1}, "sum to 15"),
        ("robbers", {}, 2, {"totals": [1, "x"]}, "non-integer"),
        ("robbers", {}, 2, {"turn": 3}, "unknown standings field 'turn'"),
        ("robbers", {}, 2, {"round": -1}, "0 or more"),
    ],
)
def test_impossible_standings_are_refused(
    preset: str, options: dict[str, Any], players: int, standings: Any, message: str
) -> None:
    rules = find_preset(preset, options)
    with pytest.raises(ConfigError, match=message):
        if isinstance(rules, IndianRules):
            IndianMatch(rules, players, seed=1, standings=standings)
        else:
            ManipulationMatch(rules, players, seed=1, standings=standings)


def test_standings_json_round_trip() -> None:
    s = Standings(totals=(3, 4), outs=(1, 0), rounds_won=(1, 1), round=2)
    assert Standings.from_json(s.to_json()) == s
    assert Standings().to_json() == {} and Standings().is_start
    assert Standings(totals=(0, 0)).is_start and not s.is_start


def test_a_record_with_impossible_standings_is_a_record_error() -> None:
    from openrummy.errors import RecordError

    record = load_record(RECORDS / "indian13-pool101-old-name.json")
    record.standings = {"totals": [150, 0, 0, 0]}
    with pytest.raises(RecordError, match="not eliminated"):
        record.replay()
    record.standings = "81"  # type: ignore[assignment]
    with pytest.raises(RecordError, match="'standings' must be an object"):
        GameRecord.from_json(json.loads(record.dumps()))
