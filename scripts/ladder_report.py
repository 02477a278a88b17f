"""Print the bot ladder of docs/strength.md as a Markdown table from results/ladder/*.json.

    .venv/bin/python scripts/ladder_report.py [results/ladder]
    .venv/bin/python scripts/ladder_report.py --levels [results/ladder]

With ``--levels``: the four difficulty levels of each game (``openrummy.bots.levels``), one
table per game, each level against the level below from that step's file.

Each JSON file is the ``--out`` of one ``rummy simulate`` run (scripts/ladder.sh writes them);
a checkpoint of an unfinished run is marked "(partial)". The statistics are computed again
from the games in each file with today's ``openrummy.sim.stats`` (Wilson intervals, Student's
paired t test), so files written by older versions are read the same way.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from openrummy.rules import ScoringMode, find_preset
from openrummy.sim.stats import BotSummary, PairedTest, paired_test, summarize
from openrummy.sim.tournament import GameResult


def _p(x: float) -> str:
    if math.isnan(x):
        return "—"
    return "< 1e-16" if x == 0 else f"{x:.2g}"


# Each level's step against the level below: the results/ladder file of that step.
LEVEL_STEPS: dict[str, tuple[str, list[str | None]]] = {
    "rummikub": (
        "Rummikub (2 players)",
        [None, "rummikub-simple-handonly", "rummikub-onemeld-simple", "rummikub-expert-onemeld"],
    ),
    "cards": (
        "Robbers' Rummy (4 players, two of each level in alternate seats; par 25 %)",
        [None, "robbers-greedy-simple", "robbers-strategic-greedy", "robbers-expert-strategic"],
    ),
    "indian": (
        "Indian Rummy 13 cards, points (2 players; the lobby's default format)",
        [None, "indian-simple-careless", "indian-strategic-simple", "indian-expert-strategic"],
    ),
}


def _command(d: dict[str, Any], stem: str) -> str:
    options = "".join(f" -o {k}={v}" for k, v in d["options"].items())
    unit = "" if d["unit"] == "round" else f" --unit {d['unit']}"
    return (
        f"`rummy simulate --game {d['game']} --bots {','.join(d['bots'])} --deals {d['deals']} "
        f"--workers 2 --seed 1{unit}{options} --out results/ladder/{stem}.json --resume`"
    )


def _step(path: Path) -> tuple[dict[str, Any], BotSummary, BotSummary, PairedTest]:
    """A ladder step's file and today's statistics of it: the file, the two bots' summaries
    and their paired test."""
    d = json.loads(path.read_text())
    games = [GameResult.from_json(r) for r in d["results"]]
    names = list(dict.fromkeys(d["bots"]))
    rules = find_preset(d["game"], d["options"])
    lower_is_better = rules.scoring.mode is not ScoringMode.ZERO_SUM_HIGH
    a, b = summarize(games, d["bots"], lower_is_better=lower_is_better)[:2]
    return d, a, b, paired_test(games, names[0], names[1])


def levels(folder: Path) -> None:
    """The four-level table of each game."""
    from openrummy.bots.levels import LEVELS, describe_level, level_bot, level_kind

    for kind, (title, steps) in LEVEL_STEPS.items():
        example = next(
            find_preset(n)
            for n in ("rummikub", "robbers", "indian13")
            if level_kind(find_preset(n)) == kind
        )
        print(f"**{title}**\n")
        print(
            "| level | bot | what it does | wins against the level below (95 % CI) | p (wins) | deals | command |"
        )
        print("|---|---|---|---|---|---:|---|")
        for level, stem in zip(LEVELS, steps, strict=True):
            bot = level_bot(level, example)
            what = describe_level(level, kind)
            path = folder / f"{stem}.json" if stem else None
            if path is None:
                print(f"| {level} | {bot} | {what} | (the lowest level) | | | |")
                continue
            if not path.exists():
                print(f"| {level} | {bot} | {what} | no file {stem}.json | | | |")
                continue
            d, a, b, t = _step(path)
            done = len({r["deal"] for r in d["results"]})
            deals = f"{done} of {d['deals']} (partial)" if d.get("interrupted") else str(done)
            print(
                f"| {level} | {bot} | {what} "
                f"| {a.win_rate:.1%} ({a.win_low:.1%}–{a.win_high:.1%}) against {b.win_rate:.1%} "
                f"| {_p(t.p_value)} | {deals} | {_command(d, stem or '')} |"
            )
        print()


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] == "--levels":
        levels(Path(args[1] if len(args) > 1 else "results/ladder"))
        return
    folder = Path(args[0] if args else "results/ladder")
    print(
        "| run | game | seats | deals | games | first bot wins (95 % CI) | second bot wins "
        "| win-rate diff, p | score diff per game, p |"
    )
    print("|---|---|---|---:|---:|---|---|---|---|")
    for path in sorted(folder.glob("*.json")):
        d, a, b, t = _step(path)
        fmt = d["options"].get("match.format", "points" if d["game"] == "indian13" else "round")
        name, deals = path.stem, str(d["deals"])
        if d.get("interrupted"):
            # a checkpoint of a run still going (or stopped): only whole deals count
            done = {r["deal"] for r in d["results"]}
            name += " (partial)"
            deals = f"{len(done)} of {d['deals']}"
        print(
            f"| {name} | {d['game']} ({fmt}, {d['unit']}) | {','.join(d['bots'])} "
            f"| {deals} | {d['games']} "
            f"| {a.bot} {a.win_rate:.1%} ({a.win_low:.1%}–{a.win_high:.1%}) "
            f"| {b.bot} {b.win_rate:.1%} "
            f"| {t.mean_difference * 100:+.1f} pts, p = {_p(t.p_value)} "
            f"| {t.score_difference:+.2f}, p = {_p(t.score_p_value)} |"
        )
        if d["errors"]:
            print(f"|  | {len(d['errors'])} games failed | | | | | | | |")


if __name__ == "__main__":
    main()
