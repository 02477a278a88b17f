"""``rummy demo``'s default game is worth watching: its rounds end by a player going out."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from openrummy.cli import app


@pytest.mark.slow
def test_the_default_demo_ends_its_rounds_by_going_out() -> None:
    res = CliRunner().invoke(app, ["demo", "-q", "--seed", "1"])
    assert res.exit_code == 0, res.output
    rounds = [line for line in res.output.splitlines() if line.startswith("round ")]
    assert rounds and all("stalemate" not in line for line in rounds), rounds
