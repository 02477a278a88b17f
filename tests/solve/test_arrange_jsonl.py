"""``rummy arrange`` JSON lines (issue 4, item 5)."""

from __future__ import annotations

import json

from openrummy.solve.arrange_jsonl import arrange_lines

ISSUE_EXAMPLE = (
    '{"game": "indian13", "indicator": "2C", "hand": '
    '["3H","4H","5H","9S","JK","JS","QC","QD","QH","KS","7D","5C","3C"]}'
)


def answers(*lines: str) -> list[dict[str, object]]:
    return [json.loads(out) for out in arrange_lines(lines)]


def test_issue_example() -> None:
    (a,) = answers(ISSUE_EXAMPLE)
    assert a["groups"] == [["3H", "4H", "5H"], ["JS", "JK=QS", "KS"], ["QC", "QD", "QH"]]
    assert a["deadwood"] == ["9S", "7D", "5C", "3C"]
    assert a["points"] == 24
    assert a["declarable"] is False
    assert a["wild_rank"] == "2" and a["indicator"] == "2C"


def test_wild_rank_instead_of_indicator_and_option_overrides() -> None:
    hand = '"hand": "3H 4H 5H QC QD QH 8S 8D 8C KS 7D 5C 3C"'
    by_rank, pure_only = answers(
        '{"wild_rank": 2, ' + hand + "}",
        '{"wild_rank": "2", "options": {"scoring.loser_meld_credit": "PURE_ONLY"}, ' + hand + "}",
    )
    assert by_rank["points"] == 80 and by_rank["credited"] is False and by_rank["raw"] == 91
    assert pure_only["points"] == 25 and pure_only["credited"] is True
    assert "indicator" not in by_rank


def test_after_the_draw_gives_discard_and_finish() -> None:
    (a,) = answers('{"indicator": "2C", "hand": "4S 5S 6S 8H JK 10H 7C 7D 7H KS KH KD KC 9C"}')
    assert a["discard"] == "9C" and a["declare_with"] == "9C" and a["declarable"] is True
    assert a["points"] == 0
    (b,) = answers('{"indicator": "2C", "hand": "4S 5S 6S 9S JK JS QC QD QH KS 7D 5C 3C 3H"}')
    assert b["declare_with"] is None and b["discard"] in ("9S", "KS") and b["points"] == 18


def test_bad_lines_get_errors_and_the_others_are_answered() -> None:
    out = answers(
        "not json",
        "[1, 2]",
        '{"indicator": "2C", "hand": "3H 4H XX"}',
        '{"indicator": "2C", "hand": "3H 4H 5H"}',
        '{"indicator": "2C", "hand": "3H 3H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"}',
        '{"game": "robbers", "hand": "3H"}',
        '{"game": "indian13", "options": {"scoring.kap": 3}, "hand": "3H"}',
        '{"hand": "3H", "wild_rank": 14}',
        '{"hand": "3H", "colour": "red"}',
        '{"indicator": "2C"}',
        ISSUE_EXAMPLE,
    )
    assert [("error" in a) for a in out] == [True] * 10 + [False]
    assert out[0]["line"] == 1 and "not JSON" in str(out[0]["error"])
    assert "'XX' is not a card" in str(out[2]["error"])
    assert "needs 13 or 14" in str(out[3]["error"])
    assert "the decks hold only 2" in str(out[4]["error"])
    assert "not an Indian Rummy game" in str(out[5]["error"])
    assert "scoring.kap" in str(out[6]["error"])
    assert "not a rank" in str(out[7]["error"])
    assert "unknown field 'colour'" in str(out[8]["error"])
    assert out[10]["points"] == 24


def test_submitted_groups_are_judged() -> None:
    line = json.dumps(
        {
            "indicator": "2C",
            "hand": "4S 5S 6S 8H JK 10H 7C 7D 7H KS KH KD KC",
            "groups": [
                ["4S", "5S", "6S"],
                ["8H", "JK=9H", "10H"],
                "[7C 7D 7H KS]",
                ["KH", "KD", "KC"],
            ],
            "id": 7,
        }
    )
    (a,) = answers(line)
    assert a["declarable"] is True and a["id"] == 7
    sub = a["submitted"]
    assert isinstance(sub, dict) and sub["valid"] is False and "[7C 7D 7H KS]" in sub["reason"]


def test_21_cards_and_pretty_text() -> None:
    hand = "5H 5H 5H 6D 6D 6D KS KS KS 3C 4C 7S 8S 10S JK 2D 3D 4D QH AH 2S"
    (a,) = answers(json.dumps({"game": "indian21", "indicator": "9C", "hand": hand}))
    assert a["declarable"] is True
    decl = a["declaration"]
    assert isinstance(decl, dict) and decl["form"] in ("THREE_PURE", "THREE_TUNNELA")
    text = "\n".join(arrange_lines(["", "# a comment", ISSUE_EXAMPLE, "oops"], pretty=True))
    assert "line 3 · indian13 · wild rank 2 (indicator 2♣)" in text
    assert "[J♠ 🃏=Q♠ K♠]  sequence" in text
    assert "deadwood: 9♠ 7♦ 5♣ 3♣ = 24 points" in text
    assert "line 4: error: not JSON" in text


def test_rummy_arrange_command(tmp_path: object) -> None:
    from pathlib import Path

    from typer.testing import CliRunner

    from openrummy.cli import app

    assert isinstance(tmp_path, Path)
    src = tmp_path / "hands.jsonl"
    src.write_text(ISSUE_EXAMPLE + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["arrange", str(src)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["points"] == 24
    result = CliRunner().invoke(app, ["arrange", "--pretty"], input=ISSUE_EXAMPLE + "\nbad\n")
    assert result.exit_code == 1
    assert "= 24 points" in result.output and "line 2: error" in result.output
