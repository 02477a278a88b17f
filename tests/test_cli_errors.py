"""Ordinary mistakes on the command line: one line ``error: …`` on stderr, an exit code, no
traceback, and no long work done first.

Each case runs ``python -m openrummy`` as a user would (a separate process, so a traceback
would show on its stderr exactly as in a terminal).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from openrummy import __version__


def rummy(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "openrummy", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def assert_one_line_error(res: subprocess.CompletedProcess[str], code: int, *words: str) -> None:
    assert res.returncode == code, res
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("error: "), res.stderr
    assert "Traceback" not in res.stderr
    for word in words:
        assert word in lines[0]


@pytest.fixture
def not_utf8(tmp_path: Path) -> Path:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(
        '{"game": "robbers", "hand": ["4H"], "table": [], "note": "Kreuz-König ä"}\n'.encode(
            "latin-1"
        )
    )
    return path


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "plain-file"
    path.write_text("x", encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["solve", "arrange"])
def test_input_file_missing(command: str, tmp_path: Path) -> None:
    assert_one_line_error(rummy(command, str(tmp_path / "nope.jsonl")), 2, "no such file")


@pytest.mark.parametrize("command", ["solve", "arrange"])
def test_input_file_is_a_directory(command: str, tmp_path: Path) -> None:
    assert_one_line_error(rummy(command, str(tmp_path)), 2, "is a directory")


@pytest.mark.parametrize("command", ["solve", "arrange"])
def test_input_file_not_utf8(command: str, not_utf8: Path) -> None:
    assert_one_line_error(rummy(command, str(not_utf8)), 2, "not UTF-8", "0xf6")


def test_demo_record_to_a_directory_fails_before_the_game(tmp_path: Path) -> None:
    res = rummy("demo", "--record", str(tmp_path))
    assert_one_line_error(res, 2, "--record", "is a directory")
    assert res.stdout == ""


def test_demo_record_to_an_unwritable_path_fails_before_the_game(a_file: Path) -> None:
    res = rummy("demo", "--record", str(a_file / "game.json"))
    assert_one_line_error(res, 2, "--record", "cannot write")
    assert res.stdout == ""


@pytest.mark.parametrize("option", ["--out", "--chart"])
def test_simulate_output_unwritable_fails_before_the_run(option: str, a_file: Path) -> None:
    target = a_file / ("results.json" if option == "--out" else "chart.png")
    res = rummy("simulate", "--deals", "1000", "--backend", "inline", option, str(target))
    assert_one_line_error(res, 2, option, "cannot write")
    assert res.stdout == ""


@pytest.mark.parametrize("option", ["--out", "--chart"])
def test_simulate_output_is_a_directory(option: str, tmp_path: Path) -> None:
    res = rummy("simulate", "--deals", "1000", "--backend", "inline", option, str(tmp_path))
    assert_one_line_error(res, 2, option, "is a directory")


@pytest.mark.parametrize(
    ("option", "name", "words"),
    [("--out", "results.txt", [".json or .csv"]), ("--chart", "chart.xyz", ["png", "svg"])],
)
def test_simulate_output_of_an_unknown_kind(
    option: str, name: str, words: list[str], tmp_path: Path
) -> None:
    res = rummy("simulate", "--deals", "1000", "--backend", "inline", option, str(tmp_path / name))
    assert_one_line_error(res, 2, option, *words)
    assert res.stdout == ""


def test_an_unwritable_output_is_left_as_it_was(tmp_path: Path) -> None:
    # The check opens the file for appending: an existing file keeps its content, and a
    # file that did not exist is not left behind when the run then fails for another reason.
    kept = tmp_path / "kept.json"
    kept.write_text("old", encoding="utf-8")
    res = rummy("simulate", "--bots", "nobody,random", "--out", str(kept))
    assert res.returncode == 2
    assert kept.read_text(encoding="utf-8") == "old"
    fresh = tmp_path / "sub" / "fresh.json"
    rummy("simulate", "--bots", "nobody,random", "--out", str(fresh))
    assert not fresh.exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--db", "bogus://x"], ["--db", "bogus://x"]),
        (["--db", "mysql://user@host/db"], ["--db", "asyncio"]),
        (["--log-level", "loud"], ["--log-level", "loud", "debug"]),
        (["--port", "70000"], ["--port", "70000", "65535"]),
        (["--port", "0"], ["--port"]),
    ],
)
def test_serve_settings(args: list[str], words: list[str]) -> None:
    assert_one_line_error(rummy("serve", *args), 2, *words)


@pytest.mark.parametrize(
    "args",
    [
        ["demo", "-o", "opening.treshold=30"],
        ["simulate", "-o", "meld.ace_mode=SIDEWAYS"],
        ["presets", "bogus"],
    ],
)
def test_rule_mistakes_point_to_the_rule_reference(args: list[str]) -> None:
    assert_one_line_error(rummy(*args), 2, "docs/rules/")


def test_version() -> None:
    res = rummy("--version")
    assert res.returncode == 0
    assert res.stdout.strip() == f"rummy (OpenRummy) {__version__}"


def test_python_m_openrummy_is_the_rummy_command() -> None:
    res = rummy("presets")
    assert res.returncode == 0
    assert "robbers" in res.stdout and "indian13" in res.stdout


# -- input that used to be accepted silently ------------------------------------------------


def json_answers(res: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    assert "Traceback" not in res.stderr, res.stderr
    return [json.loads(line) for line in res.stdout.splitlines()]


def test_solve_lines_with_missing_fields_or_the_wrong_deck_are_errors() -> None:
    # One process answers every line (each with its own error), and exits 1.
    lines = [
        {"game": "robbers", "hand": ["3S", "4H"]},
        {"game": "robbers", "table": [["4S", "5S", "6S"]]},
        {"game": "rummikub", "table": [], "hand": ["AS", "R7"]},
        {"game": "rummikub", "table": [["R7", "R8", "JK=9H"]], "hand": ["R1"]},
        {"game": "robbers", "table": [["R7", "R8", "R9"]], "hand": ["3S"]},
        {"game": "robbers", "table": [], "hand": []},  # empty, written out: no error
    ]
    stdin = "\n".join(json.dumps(line) for line in lines) + '\n{"game": "robbers", "hand": ["3S'
    res = rummy("solve", stdin=stdin)
    assert res.returncode == 1
    answers = json_answers(res)
    assert answers.pop(5)["count"] == 0
    errors = [str(a.get("error")) for a in answers]
    assert len(errors) == 6
    assert '"table"' in errors[0] and '"hand"' in errors[1]
    assert errors[2].startswith("AS is a playing card: rummikub is played with tiles")
    assert errors[3].startswith("9H is a playing card")
    assert errors[4].startswith("R7 is a Rummikub tile: robbers is played with cards")
    # a truncated line: where it ends, not "column 1", and the likely cause
    assert "column 1 " not in errors[5] and "cut short" in errors[5]


HAND13 = "3H 4H 5H 9S JK JS QC QD QH KS 7D 5C 3C"


def test_arrange_lines_with_missing_wild_rank_or_tiles_are_errors() -> None:
    lines = [
        {"hand": HAND13},
        {"indicator": "R2", "hand": HAND13},
        {"indicator": "2C", "hand": HAND13.replace("3C", "B3")},
        {"wild_rank": None, "hand": HAND13},
    ]
    res = rummy("arrange", stdin="\n".join(json.dumps(line) for line in lines))
    assert res.returncode == 1
    answers = json_answers(res)
    assert '"indicator"' in str(answers[0]["error"]) and "wild_rank" in str(answers[0]["error"])
    assert str(answers[1]["error"]).startswith("R2 is a Rummikub tile: indian13")
    assert str(answers[2]["error"]).startswith("B3 is a Rummikub tile")
    # "wild_rank": null says on purpose that the hand has no wild rank
    assert "error" not in answers[3] and answers[3]["wild_rank"] is None


@pytest.mark.parametrize(
    ("game", "meld", "words"),
    [
        ("rummikub", "[7H 8H 9H]", ["7H is a playing card", "rummikub", "tiles"]),
        ("robbers", "[R7 R8 R9]", ["R7 is a Rummikub tile", "robbers", "cards"]),
    ],
)
def test_validate_the_wrong_deck_is_an_error(game: str, meld: str, words: list[str]) -> None:
    assert_one_line_error(rummy("validate", "--game", game, meld), 2, *words)


def test_german_card_letters_are_read_and_printed() -> None:
    # B = Bube (jack), D = Dame (queen), K = König (king in both languages), As = ace
    res = rummy("validate", "[BH DH KH AsH]", "-o", "meld.ace_mode=HIGH_OR_LOW")
    assert res.returncode == 0, res
    assert res.stdout.startswith("[JH QH KH AH]: valid run")
    res = rummy("validate", "--lang", "de", "[BH DH KH]", "[AsS 2S 3S]")
    assert res.stdout.splitlines() == [
        "[B♥ D♥ K♥]: valid run (robbers)",
        "[A♠ 2♠ 3♠]: valid run (robbers)",
    ]
