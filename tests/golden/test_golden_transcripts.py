"""Server protocol transcripts (``tests/data/transcripts.jsonl.gz``, written by
``scripts/golden_transcripts.py``): the same seeded game through the server gives seat 0 the
same messages, one by one, as when the file was written."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from helpers import golden
from helpers.transcripts import CASES, dumps, play


def transcripts() -> dict[str, list[dict[str, Any]]]:
    out: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in golden("transcripts.jsonl.gz"):
        case, n = line.pop("case"), line.pop("n")
        assert n == len(out[case])
        out[case].append(line)
    return dict(out)


def test_every_case_is_recorded_and_holds_a_whole_game() -> None:
    data = transcripts()
    assert set(data) == set(CASES)
    for case, log in data.items():
        kinds = [e["received"]["type"] for e in log if "received" in e]
        assert kinds[0] == "welcome" and kinds[-1] == "reveal", case
        assert sum("sent" in e and e["sent"]["type"] == "action" for e in log) >= 5, case
        assert any("received" in e and e["received"]["type"] == "update" for e in log), case


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_seat_gets_the_same_messages(case: str, tmp_path: Path) -> None:
    want = transcripts()[case]
    got = play(case, tmp_path)
    for n, (g, w) in enumerate(zip(got, want, strict=False)):
        assert dumps(g) == dumps(w), (
            f"{case}: message {n} differs (want, then got):\n{dumps(w)}\n{dumps(g)}"
        )
    assert len(got) == len(want), f"{case}: {len(got)} messages, the transcript has {len(want)}"
