"""The ``rummy`` command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from openrummy.cli import app

runner = CliRunner()


def test_help_lists_every_command() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("validate", "presets", "demo", "replay"):
        assert command in result.output


def test_validate_ace_modes() -> None:
    low = runner.invoke(app, ["validate", "--game", "robbers", "[KS AS 2S]"])
    assert low.exit_code == 1 and "invalid" in low.output and "ace low only" in low.output
    wrap = runner.invoke(app, ["validate", "--game", "robbers_s003", "[KS AS 2S]"])
    assert wrap.exit_code == 0 and "valid run" in wrap.output


def test_validate_options_jokers_and_errors() -> None:
    res = runner.invoke(app, ["validate", "-o", "meld.ace_mode=WRAPAROUND", "[KS AS 2S]"])
    assert res.exit_code == 0
    res = runner.invoke(app, ["validate", "[5S 6S JK]"])
    assert res.exit_code == 0 and "JK=7S" in res.output
    res = runner.invoke(app, ["validate", "[5S 6Z]"])
    assert res.exit_code == 2 and "6Z" in res.output
    res = runner.invoke(app, ["validate", "-o", "meld.ace_mode", "[KS AS 2S]"])
    assert res.exit_code == 2 and "NAME=VALUE" in res.output
    res = runner.invoke(app, ["validate", "--game", "poker", "[KS AS 2S]"])
    assert res.exit_code == 2 and "unknown game" in res.output


def test_presets_lists_and_shows_options() -> None:
    res = runner.invoke(app, ["presets"])
    assert res.exit_code == 0 and "rummikub" in res.output and "vatikan_pagat" in res.output
    res = runner.invoke(app, ["presets", "rummikub"])
    assert "opening.threshold" in res.output and "30" in res.output


def test_demo_then_replay_prints_the_same_outcome(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    demo = runner.invoke(app, ["demo", "--seed", "3", "--bots", "simple", "--record", str(record)])
    assert demo.exit_code == 0, demo.output
    assert "winner:" in demo.output and "round 1:" in demo.output
    replay = runner.invoke(app, ["replay", str(record)])
    assert replay.exit_code == 0, replay.output

    def standings(text: str) -> list[str]:
        return [
            line
            for line in text.splitlines()
            if re.match(r"^(round \d+|extra round|totals|winner):", line)
            and ("won by" in line or line.startswith(("totals", "winner")))
        ]

    assert standings(demo.output) == standings(replay.output)
    assert standings(demo.output)
    as_json = runner.invoke(app, ["replay", "--json", str(record)])
    data = json.loads(as_json.output)
    assert data["finished"] and data["outcome"]["winners"]
    # Every action in words, in English or German, from the message catalogue.
    verbose = runner.invoke(app, ["replay", "-v", str(record)])
    assert verbose.exit_code == 0 and "P1 (simple) drew a card" in verbose.output
    german = runner.invoke(app, ["replay", "-v", "--lang", "de", str(record)])
    assert german.exit_code == 0 and "P1 (simple) hat eine Karte gezogen" in german.output
    assert standings(german.output) == standings(replay.output)


def test_replay_of_a_corrupt_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    res = runner.invoke(app, ["replay", str(bad)])
    assert res.exit_code == 2 and "not valid JSON" in res.output
