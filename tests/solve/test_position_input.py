"""``rummy solve`` and ``rummy arrange`` read positions in notation beside JSON lines."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from openrummy.cli import app
from openrummy.solve.arrange_jsonl import arrange_lines
from openrummy.solve.jsonl import solve_lines

runner = CliRunner()

SOLVE_JSON = '{"game":"robbers","table":[["4S","5S","6S","7S"]],"hand":["3S","4H","4D","JK"]}'
SOLVE_TEXT = "robbers | hand 3S 4H 4D JK | table [4S 5S 6S 7S] | opened 0"
ARRANGE_JSON = '{"indicator": "2C", "hand": "3H 4H 5H 9S JK JS QC QD QH KS 7D 5C 3C"}'
ARRANGE_TEXT = "indian13 | hand 3H 4H 5H 9S JK JS QC QD QH KS 7D 5C 3C | indicator 2C"


def _without_time(line: str) -> dict[str, object]:
    data = json.loads(line)
    data.pop("ms", None)
    return dict(data)


def test_solve_answers_a_position_as_it_answers_the_same_json() -> None:
    by_json, by_text = solve_lines([SOLVE_JSON, SOLVE_TEXT])
    assert _without_time(by_json) == _without_time(by_text)


def test_solve_position_of_a_seat_that_has_not_opened_must_open() -> None:
    (out,) = solve_lines(["robbers | hand 3S 4H 4D JK | table [4S 5S 6S 7S] | opened 1"])
    assert json.loads(out)["count"] == 0  # 4 points of melds cannot open for 40


def test_solve_and_arrange_report_bad_positions_per_line() -> None:
    outs = [json.loads(o) for o in solve_lines(["robbers | hand 3S 4X", "nonsense", SOLVE_TEXT])]
    assert "hand: '4X' is not a card" in outs[0]["error"]
    assert outs[1]["error"].startswith("not JSON, and not a position")
    assert outs[2]["count"] == 4
    (bad,) = (json.loads(o) for o in solve_lines([ARRANGE_TEXT]))
    assert "not a manipulation game" in bad["error"]
    (wrong,) = (json.loads(o) for o in arrange_lines([SOLVE_TEXT]))
    assert "not an Indian Rummy game" in wrong["error"] and wrong["line"] == 1


def test_arrange_answers_a_position_as_it_answers_the_same_json() -> None:
    by_json, by_text = (json.loads(o) for o in arrange_lines([ARRANGE_JSON, ARRANGE_TEXT]))
    # A position keeps the hand sorted, so ties between equal groupings may come out in
    # another order: compare what does not depend on it.
    for key in ("points", "declarable", "kinds", "raw", "wild_rank", "indicator", "game"):
        assert by_json[key] == by_text[key]
    assert sorted(by_json["deadwood"]) == sorted(by_text["deadwood"])
    assert sorted(map(sorted, by_json["groups"])) == sorted(map(sorted, by_text["groups"]))


def test_cli_position_option() -> None:
    res = runner.invoke(app, ["solve", "--position", SOLVE_TEXT])
    assert res.exit_code == 0 and json.loads(res.output)["count"] == 4
    res = runner.invoke(app, ["arrange", "-p", ARRANGE_TEXT, "-p", ARRANGE_TEXT])
    assert res.exit_code == 0 and len(res.output.splitlines()) == 2
    res = runner.invoke(app, ["solve", "-p", "robbers | seat 9"])
    assert res.exit_code == 1 and "error" in res.output
    res = runner.invoke(app, ["solve"], input=SOLVE_TEXT + "\n" + SOLVE_JSON + "\n")
    assert res.exit_code == 0 and len(res.output.splitlines()) == 2
