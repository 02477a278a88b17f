"""The analysis judges decisions from each seat's knowledge: planted blunders are found,
forced draws are good, the win-chance estimate is reproducible, bad records are one line."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from openrummy.analysis import AnalysisSettings, Grade, accuracy, analyse_record, grade
from openrummy.cards import Card, parse_cards
from openrummy.cli import app
from openrummy.errors import RecordError
from openrummy.games.actions import Play, parse_action
from openrummy.games.manipulation import ManipulationGame
from openrummy.melds import Meld
from openrummy.record import GameRecord
from openrummy.rules import ManipulationRules, find_preset

DATA = Path(__file__).parent.parent / "data" / "records.jsonl.gz"


def _stacked(hand0: str, hand1: str) -> list[str]:
    """A Rummikub deck in draw order dealing ``hand0`` to seat 0 and ``hand1`` to seat 1
    (the dealer is seat 1, so seat 0 gets the first card and moves first)."""
    rules = find_preset("rummikub")
    assert isinstance(rules, ManipulationRules)
    h0, h1 = parse_cards(hand0), parse_cards(hand1)
    rest = ManipulationGame.full_deck(rules)
    for c in h0 + h1:
        rest.remove(c)
    random.Random(5).shuffle(rest)
    order: list[Card] = []
    for a, b in zip(h0, h1, strict=True):
        order += [a, b]
    return [str(c) for c in order + rest]


OUT_0 = "R1 R2 R3 R4 R5 R6 R7 B7 B8 B9 B10 B11 B12 B13"
OUT_1 = "K1 K2 K3 K4 K5 K6 K7 O7 O8 O9 O10 O11 O12 O13"
JUNK_0 = "R1 R3 R5 R7 R9 R11 R13 B2 B4 B6 B8 B10 B12 K1"


def _record(hand0: str, hand1: str, actions: list[str]) -> GameRecord:
    record = GameRecord(
        game="rummikub",
        players=["ann", "bob"],
        seed=1,
        decks=[_stacked(hand0, hand1)],
        first_dealer=1,
    )
    seats = [0, 1, 0, 1]
    record.actions = [parse_action(a, seat=seats[i]) for i, a in enumerate(actions)]
    return record


def test_grades_follow_lichess_thresholds() -> None:
    assert grade(0.5, 0.46) is Grade.GOOD
    assert grade(0.5, 0.45) is Grade.INACCURACY
    assert grade(0.5, 0.40) is Grade.MISTAKE
    assert grade(0.5, 0.35) is Grade.BLUNDER
    assert grade(0.2, 0.9) is Grade.GOOD  # a gain is never a mistake
    assert accuracy(0.7, 0.7) == 100.0
    assert accuracy(1.0, 0.0) == 0.0


BOB_13_1 = "R4 R5 R6 R7 B5 B6 B7 K5 K6 K7 O5 O6 O7 O8"
BOB_OPENS = "play [R5 R6 R7] [B5 B6 B7] [K5 K6 K7] [O5 O6 O7 O8]"
BOB_OUT = "play [R4 R5 R6 R7] [B5 B6 B7] [K5 K6 K7] [O5 O6 O7 O8]"


def _planted() -> GameRecord:
    """Bob moves first and opens with 13 of his 14 tiles (four melds with open ends, one
    tile kept back); ann could then go out (her 14 tiles make two runs) but draws; bob lays
    his last tile off and wins."""
    record = GameRecord(
        game="rummikub",
        players=["ann", "bob"],
        seed=1,
        decks=[_stacked(BOB_13_1, OUT_0)],
        first_dealer=0,
    )
    steps = [(1, BOB_OPENS), (0, "draw"), (1, BOB_OUT)]
    record.actions = [parse_action(a, seat=s) for s, a in steps]
    return record


def test_a_planted_blunder_is_found_with_the_default_settings() -> None:
    # From ann's view bob holds one tile, which fits the table's open ends (or is a joker)
    # often: her draw gives him a turn to go out and leaves her a tile more to place.
    # Judged with the default settings (8 to 32 sampled deals, 30-action play-outs).
    got = analyse_record(_planted(), AnalysisSettings())
    opens, blunder, out = got.decisions
    assert blunder.seat == 0 and blunder.action == "draw" and not blunder.forced
    keys = [f.key for f in blunder.facts]
    assert keys == ["analysis.unplaced", "analysis.missed_opening", "analysis.missed_out"]
    assert blunder.facts[0].get("count") == 14
    assert blunder.best is not None and blunder.best.startswith("play")
    assert blunder.before is not None and blunder.after is not None
    assert blunder.before.value == 1.0 and blunder.after.value <= 0.75
    assert blunder.grade is Grade.BLUNDER
    # bob's hold-back of one tile is a fact (he could have gone out) but cost him nothing
    # from what he knew (ann had not opened): not graded down
    assert opens.seat == 1 and "analysis.missed_out" in [f.key for f in opens.facts]
    assert opens.grade is Grade.GOOD
    assert out.seat == 1 and out.grade is Grade.GOOD and not out.facts
    assert (got.accuracy(0) or 100.0) < 30.0 and got.accuracy(1) == 100.0


def test_spans_joined_are_the_whole_analysis_with_the_best_play_in_steps() -> None:
    from openrummy.analysis.parallel import analyse_span, merge, report, spans

    record = _planted()
    settings = AnalysisSettings(samples=2, max_samples=2, max_turns=4)
    whole = analyse_record(record, settings)
    cut = spans(len(record.actions), 2)
    assert cut == [(0, 2), (2, 3)]
    parts = [analyse_span(record.to_json(), settings, s) for s in reversed(cut)]
    assert merge(parts, settings).to_json() == whole.to_json()
    stored = report(record.to_json(), parts, settings)
    assert stored["decisions"] == whole.to_json()["decisions"]
    # ann's draw (action 1): the solver's steps to her going out, in both languages
    steps = stored["steps"]["1"]
    assert len(steps["en"]) == len(steps["de"]) == 2
    assert all("red 1" in s or "blue 7" in s for s in steps["en"])
    assert all("rot 1" in s or "blau 7" in s for s in steps["de"])


def test_noise_alone_does_not_grade_a_decision() -> None:
    # a single sampled world that goes the other way is not a mistake: the sampling goes
    # on until the drop is clear of the thresholds
    from openrummy.analysis.core import _settled

    assert not _settled([1.0] + [0.0] * 7)  # one flip in 8: unclear, sample more
    assert _settled([0.0] * 8)  # alternatives that never differ
    assert _settled([1.0] * 6 + [0.0] * 2)  # a clear blunder
    assert _settled([1.0] + [0.0] * 79)  # one flip in 80: clearly good


def test_a_forced_draw_is_good_without_play_outs() -> None:
    # nothing in ann's hand makes a meld: her draw is forced
    record = _record(JUNK_0, OUT_1, ["draw"])
    got = analyse_record(record, AnalysisSettings(samples=2))
    (only,) = got.decisions
    assert only.forced and only.grade is Grade.GOOD and only.facts == ()
    assert only.before is None  # no play-outs were needed
    assert not got.finished


def _golden(index: int, actions: int) -> GameRecord:
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        lines = f.readlines()
    record = GameRecord.from_json(json.loads(lines[index]))
    record.actions = record.actions[:actions]
    record.result = None
    return record


def test_the_win_chance_estimate_is_reproducible_for_a_seed() -> None:
    record = _record(JUNK_0, OUT_1, ["draw"])
    # bob's turn after ann's draw: sampled worlds decide his chance
    record.actions.append(parse_action("play [K1 K2 K3 K4 K5 K6 K7]", seat=1))
    settings = AnalysisSettings(samples=3, seed=11, max_turns=8)
    a = analyse_record(record, settings).to_json()
    b = analyse_record(record, settings).to_json()
    assert a == b
    judged = [d for d in a["decisions"] if d["before"] is not None]
    assert judged and all(3 <= d["before"]["samples"] <= 32 for d in judged)
    assert all(
        0.0 <= d["after"]["low"] <= d["after"]["value"] <= d["after"]["high"] <= 1.0 for d in judged
    )


def test_the_facts_judge_an_indian_throw_from_the_seat_s_hand() -> None:
    record = _golden(11, 6)  # indian13, three players
    got = analyse_record(record, AnalysisSettings(samples=0))
    assert [d.index for d in got.decisions] == list(range(6))
    throws = [d for d in got.decisions if d.action.startswith("discard")]
    assert throws
    for d in throws:
        for f in d.facts:
            if f.key == "analysis.throw_worse":
                assert int(str(f.get("points"))) > int(str(f.get("value")))
    assert all(d.grade is None or d.forced for d in got.decisions)  # no samples: no grades


def test_a_bad_record_is_a_record_error() -> None:
    record = _record(OUT_0, OUT_1, ["draw", "draw", "draw"])
    record.actions[1] = Play(0, (Meld.parse("[R1 R2 R3]"),))  # not seat 0's turn
    with pytest.raises(RecordError, match="action 1"):
        analyse_record(record, AnalysisSettings(samples=0))
    unknown = GameRecord(game="no_such_game", players=["a", "b"], seed=1)
    with pytest.raises(RecordError):
        analyse_record(unknown, AnalysisSettings(samples=0))


runner = CliRunner()


def test_rummy_analyse_prints_the_table_of_a_recorded_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(_golden(1, 12).dumps(), encoding="utf-8")  # robbers, two players
    res = runner.invoke(app, ["analyse", str(path), "--samples", "0", "--all"])
    assert res.exit_code == 0, res.output
    assert "action" in res.output and "facts" in res.output
    assert "accuracy" in res.output or "no graded decision" in res.output
    assert "the record is unfinished: analysed up to its last action (12 actions)" in res.output
    de = runner.invoke(app, ["analyse", str(path), "--samples", "0", "--lang", "de"])
    assert "Aktion" in de.output and "unvollständig" in de.output
    js = runner.invoke(app, ["analyse", str(path), "--samples", "0", "--json"])
    data: dict[str, Any] = json.loads(js.output)
    assert data["game"] == "robbers" and data["finished"] is False
    assert [d["index"] for d in data["decisions"]] == list(range(12))


def test_rummy_analyse_draws_a_chart(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    play_bob = "play [K1 K2 K3 K4 K5 K6 K7] [O7 O8 O9 O10 O11 O12 O13]"
    path.write_text(_record(OUT_0, OUT_1, ["draw", play_bob]).dumps(), encoding="utf-8")
    png = tmp_path / "chart.png"
    res = runner.invoke(
        app,
        [
            *("analyse", str(path), "--samples", "1", "--max-samples", "1"),
            *("--max-turns", "1", "--chart", str(png)),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "blunder" in res.output and "could have gone out" in res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_unwritable_chart_fails_before_the_analysis(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(_record(JUNK_0, OUT_1, ["draw"]).dumps(), encoding="utf-8")
    for chart in (tmp_path, tmp_path / "no" / "such" / "chart.png"):
        res = runner.invoke(app, ["analyse", str(path), "--chart", str(chart)])
        assert res.exit_code == 2 and "cannot write the chart" in res.output
        assert "analysing" not in res.output


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{not json", "not valid JSON"),
        (
            '{"format": "openrummy-record", "version": 1, "game": "nope", "players": ["a", "b"], '
            '"seed": 1, "actions": []}',
            "rules",
        ),
        ('{"format": "something-else"}', "not an OpenRummy record"),
    ],
)
def test_a_corrupt_record_is_a_one_line_error(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["analyse", str(path), "--samples", "0"])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0]
    assert "Traceback" not in res.output


def test_a_decision_is_judged_only_from_what_its_seat_knew() -> None:
    # the same hand for ann, two different hands for bob: ann's view is the same, so is
    # her analysis (facts, sampled deals, win chance), whatever bob holds
    other_1 = "K8 K9 K10 K11 K12 K13 O1 O2 O3 O4 O5 O6 R8 R9"
    settings = AnalysisSettings(samples=2, seed=5, max_turns=4)
    a = analyse_record(_record(OUT_0, OUT_1, ["draw"]), settings).decisions[0]
    b = analyse_record(_record(OUT_0, other_1, ["draw"]), settings).decisions[0]
    assert a.to_json() == b.to_json()
