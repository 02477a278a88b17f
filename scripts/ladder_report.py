"""Print the bot ladder of docs/strength.md as a Markdown table from results/ladder/*.json.

    .venv/bin/python scripts/ladder_report.py [results/ladder]

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

from openrummy.rules import ScoringMode, find_preset
from openrummy.sim.stats import paired_test, summarize
from openrummy.sim.tournament import GameResult


def _p(x: float) -> str:
    if math.isnan(x):
        return "—"
    return "< 1e-16" if x == 0 else f"{x:.2g}"


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "results/ladder")
    print(
        "| run | game | seats | deals | games | first bot wins (95 % CI) | second bot wins "
        "| win-rate diff, p | score diff per game, p |"
    )
    print("|---|---|---|---:|---:|---|---|---|---|")
    for path in sorted(folder.glob("*.json")):
        d = json.loads(path.read_text())
        games = [GameResult.from_json(r) for r in d["results"]]
        names = list(dict.fromkeys(d["bots"]))
        rules = find_preset(d["game"], d["options"])
        lower_is_better = rules.scoring.mode is not ScoringMode.ZERO_SUM_HIGH
        a, b = summarize(games, d["bots"], lower_is_better=lower_is_better)[:2]
        t = paired_test(games, names[0], names[1])
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
