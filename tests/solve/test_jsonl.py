"""``rummy solve``: JSON lines in and out, one answer per line, errors per line."""

from __future__ import annotations

import json
import subprocess
import sys

from openrummy.solve.jsonl import solve_lines


def run(*lines: str, pretty: bool = False) -> list[str]:
    return list(solve_lines(list(lines), pretty=pretty))


def test_done_when_example_places_all_four() -> None:
    (out,) = run('{"game":"robbers","table":[["4S","5S","6S","7S"]],"hand":["3S","4H","4D","JK"]}')
    data = json.loads(out)
    assert data["count"] == 4 and data["hand"] == []
    assert sorted(data["placed"]) == ["3S", "4D", "4H", "JK"]
    assert data["value"] == 41
    assert set(data) == {"count", "value", "placed", "hand", "table", "steps", "ms"}
    assert all(isinstance(s, str) for s in data["steps"])


def test_issue_format_with_options_and_identity() -> None:
    line = json.dumps(
        {
            "game": "robbers",
            "options": {"meld.ace_mode": "WRAPAROUND"},
            "opened": True,
            "table": [["4S", "5S", "6S", "7S"], ["JK=9H", "10H", "JH"]],
            "hand": ["3S", "4H", "4D", "TS"],
        }
    )
    data = json.loads(run(line)[0])
    assert {"4H", "4D"} <= set(data["placed"]) and "10S" in data["hand"]
    assert ["4S", "4H", "4D"] in data["table"]


def test_flat_table_and_unopened_player() -> None:
    line = '{"game":"rummikub","opened":false,"table":["R5","R6","R7"],"hand":["B10","B11","B12","R8"]}'
    data = json.loads(run(line)[0])
    assert data["count"] == 3  # opening of 33, the table is untouched in Rummikub
    assert sorted(data["placed"]) == ["B10", "B11", "B12"]


def test_errors_are_per_line_and_others_still_solved() -> None:
    outs = run(
        '{"game":"robbers","table":[],"hand":["4X"]}',
        "not json",
        '{"game":"robbers","table":[["3S","5S","6S"]],"hand":[]}',
        '{"game":"robbers","table":["4S","5S"],"hand":[]}',
        '{"game":"robbers","table":[],"hand":["5S","5S","5S"]}',
        '{"game":"robbers","options":{"meld.nope":1},"table":[],"hand":[]}',
        '{"game":"indian13","table":[],"hand":[]}',
        "",
        '{"game":"robbers","table":[["AS","2S","3S"]],"hand":["4S"]}',
    )
    assert len(outs) == 8
    errors = [json.loads(o).get("error", "") for o in outs[:7]]
    assert "4X" in errors[0]
    assert "JSON" in errors[1]
    assert "table meld 1" in errors[2]
    assert "cannot be arranged" in errors[3]
    assert "copies of 5S" in errors[4]
    assert "meld.nope" in errors[5]
    assert "manipulation" in errors[6]
    assert json.loads(outs[7])["count"] == 1


def test_pretty() -> None:
    (out,) = run(
        '{"game":"robbers","table":[["4S","5S","6S","7S"]],"hand":["3S","4H","4D"]}', pretty=True
    )
    assert "place 2 card(s), value 8" in out
    assert "4♥ 4♦" in out and "1. Split" in out


def test_output_stays_json_when_the_integer_program_answers() -> None:
    # HiGHS prints a banner on its first use; it must not reach the JSON lines on stdout
    # (nor standard error: every tournament worker would print it).
    code = (
        "import sys\n"
        "from openrummy.solve import SolverSettings\n"
        "from openrummy.solve.jsonl import solve_lines\n"
        "milp = SolverSettings(dp_budget=0)\n"
        "for out in solve_lines(sys.stdin, settings=milp):\n"
        "    print(out, flush=True)\n"
    )
    line = json.dumps({"game": "robbers", "table": [["4S", "5S", "6S", "7S"]], "hand": ["3S"]})
    done = subprocess.run(
        [sys.executable, "-c", code], input=line + "\n", capture_output=True, text=True, check=True
    )
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["count"] == 1
    assert "HiGHS" not in done.stderr
