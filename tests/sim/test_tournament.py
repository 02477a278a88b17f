"""Tournaments: mirroring, determinism across backends, crash reporting, statistics."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from openrummy.bots import BotInfo, SimpleBot, register_bot
from openrummy.cli import app
from openrummy.games.actions import Action
from openrummy.games.views import View
from openrummy.sim import (
    GameResult,
    TournamentSpec,
    paired_test,
    run_game,
    run_tournament,
    summarize,
)
from openrummy.sim.stats import _sign_test

SPEC = TournamentSpec(game="robbers_s003", bots=("simple", "random"), deals=3, seed=2)


class ExplodingBot(SimpleBot):
    """Raises on its third decision (a bot bug)."""

    name = "exploding"

    def __init__(self, rules: Any, seed: int = 0) -> None:
        super().__init__(rules, seed)
        self.calls = 0

    def choose(self, view: View) -> Action:
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("bot bug")
        return super().choose(view)


class DyingBot(SimpleBot):
    """Kills its worker process (a crash that no exception handler can catch)."""

    name = "dying"

    def choose(self, view: View) -> Action:
        os._exit(13)


register_bot(BotInfo("exploding", "test bot", frozenset({"manipulation"}), ExplodingBot))
register_bot(BotInfo("dying", "test bot", frozenset({"manipulation"}), DyingBot))


def test_every_deal_is_played_once_per_seat_rotation() -> None:
    result = run_tournament(SPEC, backend="inline")
    assert [(r.deal, r.rotation) for r in result.results] == list(SPEC.jobs())
    assert [r.seats for r in result.results[:2]] == [("simple", "random"), ("random", "simple")]
    assert not result.errors and not result.interrupted


def test_a_repeated_seating_is_played_once_with_the_same_statistics() -> None:
    """With A,B,A,B, rotation 2 seats the same bots as rotation 0 and replays the same game
    (it did, game for game, in the Robbers' ladder): only rotations 0 and 1 are played, every
    bot still holds every seat once per deal, and the per-deal statistics are unchanged."""
    spec = TournamentSpec(game="robbers", bots=("simple", "random", "simple", "random"), deals=2)
    assert spec.rotations() == (0, 1)
    assert list(spec.jobs()) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    seats = [spec.seats_for(r) for r in spec.rotations()]
    for bot in ("simple", "random"):
        assert sorted(i for s in seats for i, b in enumerate(s) if b == bot) == [0, 1, 2, 3]
    result = run_tournament(spec, backend="inline")
    repeats = [run_game(spec, deal, rotation) for deal in range(2) for rotation in (2, 3)]
    for again in repeats:
        first = result.results[2 * again.deal + again.rotation - 2]
        assert (again.seats, again.winners, again.scores) == (
            first.seats,
            first.winners,
            first.scores,
        )
    everything = [*result.results, *repeats]

    def stats(results: list[GameResult]) -> list[float]:
        return [
            x
            for a in summarize(results, spec.bots)
            for x in (a.win_rate, a.win_low, a.win_high, a.mean_score, a.score_low, a.score_high)
        ]

    assert stats(everything) == pytest.approx(stats(result.results))
    test, test_all = (
        paired_test(result.results, *spec.bots[:2]),
        paired_test(everything, *spec.bots[:2]),
    )
    assert (test.mean_difference, test.score_difference) == pytest.approx(
        (test_all.mean_difference, test_all.score_difference)
    )
    assert TournamentSpec(game="rummikub", bots=("greedy", "greedy"), deals=1).rotations() == (0,)


def test_same_seed_same_results_on_every_backend() -> None:
    inline = run_tournament(SPEC, backend="inline")
    processes = run_tournament(SPEC, backend="process", workers=2)
    assert processes.results == inline.results
    other_seed = run_tournament(
        TournamentSpec(game="robbers_s003", bots=("simple", "random"), deals=3, seed=3),
        backend="inline",
    )
    assert other_seed.results != inline.results


def test_ray_backend_gives_the_same_results() -> None:
    import ray  # the [ray] extra, installed by make test

    assert not ray.is_initialized()
    inline = run_tournament(SPEC, backend="inline")
    on_ray = run_tournament(SPEC, backend="ray", workers=2)
    assert on_ray.results == inline.results


def test_a_crashing_bot_is_reported_not_dropped() -> None:
    spec = TournamentSpec(game="robbers_s003", bots=("exploding", "simple"), deals=2, seed=1)
    result = run_tournament(spec, backend="process", workers=2)
    assert len(result.results) == 4
    assert result.errors and all("bot bug" in (r.error or "") for r in result.errors)


def test_a_dying_worker_process_is_reported() -> None:
    spec = TournamentSpec(game="robbers_s003", bots=("dying", "simple"), deals=1, seed=1)
    result = run_tournament(spec, backend="process", workers=2)
    assert len(result.results) == 2
    assert all(r.error is not None and "worker failed" in r.error for r in result.results)


def test_bad_setups_fail_before_any_game() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        run_tournament(TournamentSpec(game="robbers", bots=("simple", "nobody"), deals=1))
    with pytest.raises(ValueError, match="2 to 4 players"):
        run_tournament(TournamentSpec(game="rummikub", bots=("simple",) * 5, deals=1))
    with pytest.raises(ValueError, match="unknown game"):
        run_tournament(TournamentSpec(game="poker", bots=("simple", "simple"), deals=1))
    with pytest.raises(ValueError, match="backend"):
        run_tournament(SPEC, backend="cloud")


def results(pairs: Sequence[tuple[int, tuple[str, str], tuple[int, ...]]]) -> list[GameResult]:
    return [GameResult(deal, 0, seats, winners, (0.0, 0.0)) for deal, seats, winners in pairs]


def test_statistics_are_computed_per_deal() -> None:
    games = results(
        [(d, ("a", "b"), (0,)) for d in range(30)] + [(d, ("b", "a"), (1,)) for d in range(30)]
    )
    summary = {s.bot: s for s in summarize(games, ("a", "b"))}
    assert summary["a"].win_rate == 1.0 and summary["b"].win_rate == 0.0
    test = paired_test(games, "a", "b")
    assert test.deals == 30 and test.mean_difference == 1.0
    assert math.isnan(test.p_value)  # every deal +1: no variance, the t test is undefined
    assert test.sign_p_value == pytest.approx(2 / 2**30)
    shared = results([(0, ("a", "b"), (0, 1))])
    assert {s.bot: s.win_rate for s in summarize(shared, ("a", "b"))} == {"a": 0.5, "b": 0.5}


def test_identical_play_is_flagged() -> None:
    # Rummikub's strategic bot once played exactly like greedy: the seat won, not the bot.
    seat_wins = [
        GameResult(d, rot, seats, (0,), (10.0, -10.0))
        for d in range(25)
        for rot, seats in enumerate([("a", "b"), ("b", "a")])
    ]
    assert paired_test(seat_wins, "a", "b").identical
    assert not paired_test(seat_wins[:30], "a", "b").identical  # too few deals to say
    one_differs = [*seat_wins[:-1], GameResult(24, 1, ("b", "a"), (1,), (-10.0, 10.0))]
    assert not paired_test(one_differs, "a", "b").identical
    a_always = results(
        [(d, ("a", "b"), (0,)) for d in range(30)] + [(d, ("b", "a"), (1,)) for d in range(30)]
    )
    assert not paired_test(a_always, "a", "b").identical


def test_sign_test_matches_the_binomial_distribution() -> None:
    assert _sign_test(5, 5) == 1.0
    assert _sign_test(10, 0) == pytest.approx(2 / 1024)
    assert _sign_test(0, 0) == 1.0
    assert math.isclose(_sign_test(7, 3), 2 * sum(math.comb(10, i) for i in range(4)) / 1024)


def test_simulate_command_writes_json_csv_and_chart(tmp_path: Path) -> None:
    runner = CliRunner()
    out, chart = tmp_path / "r.json", tmp_path / "r.png"
    res = runner.invoke(
        app,
        [
            "simulate",
            "--game",
            "robbers_s003",
            "--bots",
            "simple,random",
            "--deals",
            "2",
            "--backend",
            "inline",
            "--out",
            str(out),
            "--chart",
            str(chart),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "win rate" in res.output and "paired over deals" in res.output
    data = json.loads(out.read_text())
    assert data["games"] == 4 and {s["bot"] for s in data["summary"]} == {"simple", "random"}
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    csv_path = tmp_path / "r.csv"
    res = runner.invoke(
        app,
        [
            "simulate",
            "--game",
            "robbers_s003",
            "--bots",
            "simple,random",
            "--deals",
            "1",
            "--backend",
            "inline",
            "--out",
            str(csv_path),
        ],
    )
    assert res.exit_code == 0 and csv_path.read_text().startswith("deal,rotation,seat0,seat1")
    res = runner.invoke(app, ["simulate", "--bots", "simple,nobody", "--deals", "1"])
    assert res.exit_code == 2 and "unknown bot" in res.output


def _simulate(out: Path, *extra: str) -> Any:
    args = ["simulate", "--game", "robbers_s003", "--bots", "simple,random", "--seed", "3"]
    return CliRunner().invoke(app, [*args, "--backend", "inline", "--out", str(out), *extra])


def test_a_run_goes_on_from_an_earlier_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--resume keeps the games of the earlier run, plays only the others, and the result
    equals one run of all the deals; another tournament's file is refused."""
    import openrummy.sim.runner as runner_module
    import openrummy.sim.tournament as tournament_module

    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    assert _simulate(whole, "--deals", "3").exit_code == 0
    assert _simulate(part, "--deals", "1").exit_code == 0
    played: list[tuple[int, int]] = []
    real = tournament_module.run_game  # the function the runner calls

    def counting(spec: TournamentSpec, deal: int, rotation: int) -> GameResult:
        played.append((deal, rotation))
        return real(spec, deal, rotation)

    monkeypatch.setattr(runner_module, "run_game", counting)
    res = _simulate(part, "--deals", "3", "--resume")
    assert res.exit_code == 0, res.output
    assert "resuming: 2 games" in res.output
    assert played == [(1, 0), (1, 1), (2, 0), (2, 1)]
    a, b = json.loads(whole.read_text()), json.loads(part.read_text())
    assert a["results"] == b["results"] and a["summary"] == b["summary"]
    assert b["resumed"] == 2 and not b["interrupted"]
    # fewer deals than the file holds: only the deals asked for are reported
    played.clear()
    res = _simulate(part, "--deals", "2", "--resume")
    assert res.exit_code == 0 and played == []
    assert [r["deal"] for r in json.loads(part.read_text())["results"]] == [0, 0, 1, 1]
    # another tournament's results, or no .json file: a clear error, nothing played
    other = ["simulate", "--game", "robbers_s003", "--bots", "random,simple", "--seed", "3"]
    res = CliRunner().invoke(
        app, [*other, "--backend", "inline", "--deals", "2", "--out", str(part), "--resume"]
    )
    assert res.exit_code == 2 and "another tournament: its bots" in res.output
    res = _simulate(tmp_path / "r.csv", "--deals", "1", "--resume")
    assert res.exit_code == 2 and "--resume needs --out with a .json file" in res.output
    (tmp_path / "bad.json").write_text("{not json")
    res = _simulate(tmp_path / "bad.json", "--deals", "1", "--resume")
    assert res.exit_code == 2 and "not a results file" in res.output
    assert played == []


def test_a_long_run_saves_checkpoints_to_resume_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a run goes on, its .json holds the games so far (marked interrupted); a run
    killed after some games goes on from them with --resume."""
    import openrummy.sim.runner as runner_module
    import openrummy.sim.tournament as tournament_module

    out = tmp_path / "r.json"
    real = tournament_module.run_game  # the function the runner calls
    seen: list[int] = []

    def killed_after_three(spec: TournamentSpec, deal: int, rotation: int) -> GameResult:
        if out.exists():
            seen.append(len(json.loads(out.read_text())["results"]))
        if len(seen) == 3:
            raise SystemExit(9)  # the process dies: no final report is written
        return real(spec, deal, rotation)

    monkeypatch.setattr(runner_module, "run_game", killed_after_three)
    res = _simulate(out, "--deals", "3", "--checkpoint", "0")
    assert res.exit_code == 9
    assert seen == [1, 2, 3]
    data = json.loads(out.read_text())
    assert data["interrupted"] and data["games"] == 3
    monkeypatch.setattr(runner_module, "run_game", real)
    res = _simulate(out, "--deals", "3", "--resume")
    assert res.exit_code == 0 and "resuming: 3 games" in res.output
    assert json.loads(out.read_text())["games"] == 6


def test_sigterm_stops_a_run_as_ctrl_c_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`kill` (SIGTERM; under nohup Ctrl-C's SIGINT is ignored) stops a run cleanly: the
    games so far are reported and written, marked interrupted, ready for --resume; the
    handler is put back afterwards."""
    import signal

    import openrummy.sim.runner as runner_module
    import openrummy.sim.tournament as tournament_module

    out = tmp_path / "r.json"
    real = tournament_module.run_game  # the function the runner calls
    played: list[int] = []

    def terminated_in_the_third(spec: TournamentSpec, deal: int, rotation: int) -> GameResult:
        played.append(deal)
        if len(played) == 3:
            os.kill(os.getpid(), signal.SIGTERM)
        return real(spec, deal, rotation)

    before = signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(runner_module, "run_game", terminated_in_the_third)
    res = _simulate(out, "--deals", "3")
    assert res.exit_code == 0, res.output
    assert "interrupted: 2 of 6 games finished" in res.output
    data = json.loads(out.read_text())
    assert data["interrupted"] and data["games"] == 2
    assert signal.getsignal(signal.SIGTERM) == before


def test_a_stopped_run_ends_its_worker_processes_at_once() -> None:
    """Ctrl-C (or SIGTERM) during a process run: the workers are ended with it, not left
    to play their current games to the end while the program waits for them."""
    import multiprocessing
    from multiprocessing.connection import wait

    spec = TournamentSpec("robbers", ("greedy", "greedy"), deals=40, seed=1)
    seen: list[GameResult] = []
    workers: list[multiprocessing.process.BaseProcess] = []

    def stop_after_the_first(result: GameResult) -> None:
        seen.append(result)
        workers.extend(multiprocessing.active_children())
        raise KeyboardInterrupt

    out = run_tournament(spec, workers=2, progress=stop_after_the_first)
    assert out.interrupted and out.results == seen
    assert len(workers) == 2
    sentinels = [w.sentinel for w in workers]
    assert len(wait(sentinels, timeout=0)) == 2  # both have exited (no waiting here)


def test_a_run_without_a_terminal_logs_its_progress_in_lines(tmp_path: Path) -> None:
    """Under nohup or CI there is no live bar: the run says how far it is in plain lines."""
    res = _simulate(tmp_path / "r.json", "--deals", "2", "--checkpoint", "0")
    assert res.exit_code == 0, res.output
    lines = [line for line in res.output.splitlines() if " games/s, " in line]
    assert [line.split(" games,")[0] for line in lines] == ["1/4", "2/4", "3/4", "4/4"]
    assert lines[-1].endswith("ETA 0:00:00")


def _pool_ladder_step(a: str, b: str, *, deals: int) -> TournamentSpec:
    """A pool-101 step of the ladder (seed 1, A,B,A,B), stopped after 5,000 actions."""
    return TournamentSpec(
        game="indian13",
        bots=(a, b, a, b),
        deals=deals,
        seed=1,
        unit="match",
        options={"match.format": "POOL_101"},
        max_actions=5000,
    )


def test_pool_matches_between_strategic_bots_end() -> None:
    """Pool-101 matches that never ended: once the greedy players were out, the two
    strategic players took the discard and threw the same card straight back, for ever
    (the rules allow it, and the stock never shrinks). Bots no longer throw back the card
    they just took when they hold another."""
    spec = _pool_ladder_step("strategic", "greedy", deals=200)
    for deal, rotation in ((70, 1), (137, 1)):
        result = run_game(spec, deal, rotation)
        assert result.error is None and result.winners, (deal, rotation, result.error)


def test_pool_matches_where_cards_go_round_end() -> None:
    """A pool-101 match of the expert ladder step that never ended: two strategic players
    each took the discard and threw another card, passing 2S, 5C and 6D round for ever.
    In every such cycle someone takes back a card it threw, and bots no longer do that
    (unless it lets them declare)."""
    result = run_game(_pool_ladder_step("expert", "strategic", deals=1000), 584, 0)
    assert result.error is None and result.winners, result.error


def test_bots_command_lists_bots() -> None:
    res = CliRunner().invoke(app, ["bots"])
    assert res.exit_code == 0 and "simple" in res.output and "random" in res.output
    # each family's own bots, also where two families share a name (both have a greedy)
    assert "manipulation games" in res.output and "indian games" in res.output
    assert "the exact solver's best play" in res.output
    assert "takes the discard if it lowers its deadwood" in res.output
    indian = CliRunner().invoke(app, ["bots", "--game", "indian13"])
    assert "indian games" in indian.output and "manipulation games" not in indian.output


def test_resume_reads_a_file_written_with_the_earlier_pool_name(tmp_path: Path) -> None:
    """The ladder's pool files say match.format = POOL_101; today's run says POOL + 101."""
    from openrummy.sim.runner import resumable

    spec = TournamentSpec(
        "indian13",
        ("greedy", "random"),
        2,
        seed=1,
        options={"match.format": "POOL", "pool.threshold": "101"},
        unit="match",
    )
    path = tmp_path / "pool.json"
    head = {"game": "indian13", "bots": ["greedy", "random"], "seed": 1, "unit": "match"}
    path.write_text(json.dumps({**head, "options": {"match.format": "POOL_101"}, "results": []}))
    assert resumable(spec, path) == []
    path.write_text(json.dumps({**head, "options": {"match.format": "POOL_201"}, "results": []}))
    with pytest.raises(ValueError, match="its options"):
        resumable(spec, path)
