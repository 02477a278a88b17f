"""Puzzles: every shipped solution is valid and optimal, a near miss does not solve, any valid
answer does, bad answers get reasons, generation is reproducible, Glicko-2 is the paper's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from openrummy.cards import parse_cards
from openrummy.cli import app
from openrummy.puzzles import Puzzle, PuzzleKind, Rating, check, shipped_puzzles, update
from openrummy.puzzles.generate import RECIPES
from openrummy.puzzles.indian import generate_indian
from openrummy.puzzles.manipulation import generate_place_all, near_miss, place_all_puzzle
from openrummy.puzzles.model import dump_puzzles, load_puzzles
from openrummy.rules import IndianRules, ManipulationRules, find_preset
from openrummy.solve import best_play
from openrummy.solve.hand import analyse_draw, throw_value

ALL = shipped_puzzles()


def _sample(n: int, kind: PuzzleKind | None = None, game: str | None = None) -> list[Puzzle]:
    pool = [p for p in ALL if (kind is None or p.kind is kind) and (game is None or p.game == game)]
    return random.Random(24).sample(pool, min(n, len(pool)))


def _answer(p: Puzzle) -> str:
    if p.kind is PuzzleKind.PLACE_ALL:
        return " ".join(str(m) for m in p.solution)
    if p.kind is PuzzleKind.SAFE_THROW:
        return f"discard {p.card}"
    declare = f"declare {p.card} " + " ".join(str(m) for m in p.solution)
    return f"{p.draw}; {declare}" if p.kind is PuzzleKind.WINNING_DRAW else declare


def _verify(p: Puzzle) -> None:
    """The stored solution solves it, the exact solvers agree that it is the answer."""
    assert check(p, _answer(p)).solved, (p.id, check(p, _answer(p)).render())
    rules = find_preset(p.game)
    if p.kind is PuzzleKind.PLACE_ALL:
        assert isinstance(rules, ManipulationRules)
        best = best_play(rules, p.table, p.hand, keep_melds=False)
        assert best.count == len(p.hand)  # optimal: every card placed
        near = check(p, " ".join(str(m) for m in p.near_miss))
        assert not near.solved
        placed, _ = near_miss(rules, p.table, p.hand)
        assert placed < len(p.hand)
        if placed:
            assert near.messages[0]["reason"] == "puzzle.cards_left"
        else:  # the near miss places nothing: the engine refuses a play without a hand card
            assert near.messages[0]["violations"] == [{"reason": "no_hand_card"}]
        return
    assert isinstance(rules, IndianRules) and p.indicator is not None
    wilds = rules.wilds(p.indicator)
    if p.kind is PuzzleKind.SAFE_THROW:
        a = analyse_draw(p.hand, rules, wilds)
        points = {o.card: o.arrangement.points for o in a.options}
        assert p.card is not None
        assert all(v > points[p.card] for c, v in points.items() if c != p.card)
        wrong = next(c for c in p.hand if c != p.card)
        assert not check(p, f"discard {wrong}").solved
    elif p.kind is PuzzleKind.WINNING_DRAW:
        assert throw_value([*p.hand, p.discard[-1]], rules, wilds).declares
        assert not check(p, "draw").solved
    else:
        assert analyse_draw(p.hand, rules, wilds).declare_with is not None


def test_the_shipped_sets_are_as_large_as_promised() -> None:
    for name, parts in RECIPES.items():
        got = shipped_puzzles(name)
        assert len(got) == sum(n for _g, _k, n in parts), name
        assert len({p.id for p in got}) == len(got)  # deduplicated
    assert {p.kind for p in shipped_puzzles("indian")} == {
        PuzzleKind.DECLARE,
        PuzzleKind.SAFE_THROW,
        PuzzleKind.WINNING_DRAW,
    }


@pytest.mark.parametrize(
    ("kind", "game", "n"),
    [
        (PuzzleKind.PLACE_ALL, "rummikub", 4),
        (PuzzleKind.PLACE_ALL, "robbers", 3),
        (PuzzleKind.DECLARE, None, 3),
        (PuzzleKind.SAFE_THROW, None, 3),
        (PuzzleKind.WINNING_DRAW, None, 3),
    ],
)
def test_a_seeded_sample_of_shipped_solutions_is_valid_and_optimal(
    kind: PuzzleKind, game: str | None, n: int
) -> None:
    sample = _sample(n, kind, game)
    assert sample
    for p in sample:
        _verify(p)


@pytest.mark.slow
def test_every_shipped_solution_is_valid_and_optimal() -> None:
    for p in ALL:
        _verify(p)


def test_any_valid_table_that_places_every_card_solves_it() -> None:
    p = _sample(1, PuzzleKind.PLACE_ALL, "rummikub")[0]
    # the stored table is one answer; the same melds in another order are another
    other = " ".join(str(m) for m in reversed(p.solution))
    assert check(p, other).solved
    assert check(p, "play " + other).solved


def test_bad_answers_get_reasons_and_change_nothing() -> None:
    p = _sample(1, PuzzleKind.PLACE_ALL, "rummikub")[0]
    before = p.to_json()
    invalid = check(p, " ".join(str(m) for m in p.table) + " [R1 B5 K9]")
    assert not invalid.solved and invalid.messages[0]["reason"] == "puzzle.not_valid"
    assert "not a valid table" in invalid.render()[0]
    assert "kein gültiger Tisch" in invalid.render("de")[0]
    garbage = check(p, "[[[ nonsense")
    assert not garbage.solved and garbage.messages[0]["reason"] == "puzzle.bad_answer"
    unchanged = check(p, " ".join(str(m) for m in p.table))
    assert not unchanged.solved
    assert unchanged.messages[0]["violations"] == [{"reason": "no_hand_card"}]
    assert p.to_json() == before
    d = _sample(1, PuzzleKind.DECLARE)[0]
    short = check(d, f"declare {d.card} " + " ".join(str(m) for m in d.solution[1:]))
    assert not short.solved


def test_generation_is_reproducible_from_a_seed() -> None:
    rummikub = find_preset("rummikub")
    assert isinstance(rummikub, ManipulationRules)
    a = generate_place_all(rummikub, 3)
    assert a is not None and a == generate_place_all(rummikub, 3)
    assert a.id == Puzzle.from_json(a.to_json()).id
    indian = find_preset("indian10")
    assert isinstance(indian, IndianRules)
    b = generate_indian(indian, PuzzleKind.DECLARE, 2)
    assert b is not None and b == generate_indian(indian, PuzzleKind.DECLARE, 2)


def test_a_game_position_becomes_a_puzzle_only_when_it_is_one() -> None:
    p = _sample(1, PuzzleKind.PLACE_ALL, "robbers")[0]
    rules = find_preset("robbers")
    assert isinstance(rules, ManipulationRules)
    again = place_all_puzzle(rules, p.table, p.hand, source="record:robbers:7")
    assert again is not None and again.id == p.id and again.source == "record:robbers:7"
    # nothing to place, or nothing to rearrange: no puzzle
    assert place_all_puzzle(rules, p.solution, (), source="x") is None
    assert place_all_puzzle(rules, p.table, parse_cards("4S 5S 6S"), source="x") is None


def test_puzzle_files_round_trip(tmp_path: Path) -> None:
    sample = _sample(5)
    path = tmp_path / "p.jsonl.gz"
    assert dump_puzzles(sample, path) == 5
    assert load_puzzles(path) == sample


def test_glicko2_matches_the_paper_s_example() -> None:
    r = update(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)],
    )
    assert r.rating == pytest.approx(1464.06, abs=0.02)
    assert r.deviation == pytest.approx(151.52, abs=0.01)
    assert r.volatility == pytest.approx(0.05999, abs=1e-5)
    idle = update(Rating(1500, 200, 0.06), [])
    assert idle.rating == 1500 and idle.deviation > 200
    solved = update(Rating(1500, 100), [(Rating(1700, 80), 1.0)])
    failed = update(Rating(1500, 100), [(Rating(1700, 80), 0.0)])
    assert failed.rating < 1500 < solved.rating


runner = CliRunner()


def test_the_puzzles_commands() -> None:
    p = _sample(1, PuzzleKind.PLACE_ALL, "robbers")[0]
    listed = runner.invoke(app, ["puzzles", "list", "--game", "robbers", "--limit", "3"])
    assert listed.exit_code == 0 and len(listed.output.strip().splitlines()) == 3
    shown = runner.invoke(app, ["puzzles", "show", p.id, "--solution"])
    assert shown.exit_code == 0 and "play [" in shown.output and "1." in shown.output
    good = runner.invoke(app, ["puzzles", "check", p.id, _answer(p)])
    assert good.exit_code == 0 and "solved" in good.output
    bad = runner.invoke(app, ["puzzles", "check", p.id, "[AS 2S 3S]", "--lang", "de"])
    assert bad.exit_code == 1 and "kein gültiger Tisch" in bad.output
    missing = runner.invoke(app, ["puzzles", "show", "nope"])
    assert missing.exit_code == 2 and "no puzzle nope" in missing.output
