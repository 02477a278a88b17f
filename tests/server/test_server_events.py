"""The game log's events come from replaying the actions, never from stored words: a game
stored when the event column held English sentences shows the same log as a new one."""

from __future__ import annotations

from typing import Any

from helpers import indian_rules
from openrummy.bots import make_bot, play_match
from openrummy.games.families import new_match
from openrummy.rules import find_preset
from openrummy.server.core import event_info, replay_events
from openrummy.server.store import ActionRow, GameRow, SeatRow, TableRow


def _table(preset: str, players: int, seed: str) -> TableRow:
    seats = tuple(SeatRow(i, "human", None, f"P{i}", None, False) for i in range(players))
    game = GameRow(seed, "c", 1000.0, None, "running", None)
    rules = find_preset(preset)
    return TableRow(
        "t1", "", preset, rules.family, {}, players, 0.0, None, "running", "h", 0.0, seats, game
    )


def test_a_log_stored_as_words_replays_to_events_as_data() -> None:
    rules = indian_rules("indian13")
    match: Any = new_match(rules, 3, seed="old-game", started_at=1000.0)
    rows: list[ActionRow] = []
    live: list[dict[str, Any]] = []
    names = ["P0", "P1", "P2"]

    def on_action(action: Any, result: Any) -> None:
        row = ActionRow(
            len(rows) + 1,
            result.action.seat,
            str(result.action),
            1000.0,
            result.accepted,
            "words of an older server",
            "bot",
        )
        rows.append(row)
        live.append(event_info(row, result, names))

    play_match(match, [make_bot("simple", rules, i) for i in range(3)], on_action=on_action)
    replayed = replay_events(_table("indian13", 3, "old-game"), rows, names)
    assert replayed == live
    assert {e["data"]["code"] for e in replayed} >= {"drew", "discarded"}
    assert replayed[-1]["after"][-1]["code"] == "match_over"
    first = replayed[0]
    assert first["text"].startswith(names[first["data"]["seat"]])


def test_a_rummikub_log_says_tiles() -> None:
    rules = find_preset("rummikub")
    match: Any = new_match(rules, 2, seed="tile-words", started_at=1000.0)
    bots = [make_bot("simple", rules, i) for i in range(2)]
    rows: list[ActionRow] = []
    for seq in range(1, 31):
        seat = match.current
        result = match.apply(bots[seat].choose(match.view(seat)))
        rows.append(ActionRow(seq, seat, str(result.action), 1000.0, True, "", "bot"))
    events = replay_events(_table("rummikub", 2, "tile-words"), rows, ["P0", "P1"])
    texts = [e["text"] for e in events]
    assert any(t.endswith("drew a tile") for t in texts), texts
    assert any("placed" in t and "tiles" in t for t in texts), texts
    assert not any("card" in t for t in texts), texts
