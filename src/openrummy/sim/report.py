"""Tournament reports: a table for the terminal, JSON/CSV files, and a PNG chart."""

from __future__ import annotations

import csv
import json
import math
import os
from pathlib import Path

from rich.table import Table

from .runner import TournamentResult
from .stats import verdict

__all__ = ["results_table", "tests_table", "verdict_lines", "write_chart", "write_results"]


def _pct(x: float) -> str:
    return "—" if math.isnan(x) else f"{100 * x:.1f}%"


def _p(x: float) -> str:
    """A p value; "—" where the test is undefined (one deal, or no variation)."""
    return "—" if math.isnan(x) else f"{x:.2g}"


def _signed(x: float, digits: int = 1) -> str:
    return "—" if math.isnan(x) else f"{x:+.{digits}f}"


def results_table(result: TournamentResult) -> Table:
    spec = result.spec
    table = Table(
        title=f"{spec.game}: {len(result.results)} games over {spec.deals} deals (seed {spec.seed})"
        + (" — interrupted" if result.interrupted else "")
    )
    for col in ("bot", "games", "win rate", "95% CI (Wilson)", "mean score", "rating μ", "σ"):
        table.add_column(col, justify="right" if col != "bot" else "left")
    for s in result.summaries():
        table.add_row(
            s.bot,
            str(s.games),
            _pct(s.win_rate),
            f"{_pct(s.win_low)} – {_pct(s.win_high)}",
            "—" if math.isnan(s.mean_score) else f"{s.mean_score:.1f}",
            f"{s.rating_mu:.1f}",
            f"{s.rating_sigma:.2f}",
        )
    return table


def tests_table(result: TournamentResult) -> Table:
    table = Table(
        title="paired over deals: is the first bot stronger? "
        "(Student's paired t test, n − 1 df; exact sign test)"
    )
    for col in (
        "a",
        "b",
        "deals",
        "win-rate difference",
        "p (paired t)",
        "p (sign test)",
        "score difference",
        "p (score)",
    ):
        table.add_column(col)
    for t in result.tests():
        table.add_row(
            t.a,
            t.b,
            str(t.deals),
            f"{_signed(100 * t.mean_difference)} pts",
            _p(t.p_value),
            _p(t.sign_p_value),
            _signed(t.score_difference),
            _p(t.score_p_value),
        )
    return table


def verdict_lines(result: TournamentResult) -> list[str]:
    """What each comparison shows, one line each, including when a run is too small."""
    return [verdict(t) for t in result.tests()]


def write_results(result: TournamentResult, path: Path) -> None:
    """JSON (everything) or CSV (one row per game), chosen by the file extension.

    Written to a temporary file first and then renamed, so a run killed while writing
    leaves the previous file whole (checkpoints of long runs overwrite it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    _write(result, path.suffix.lower(), tmp)
    os.replace(tmp, path)


def _write(result: TournamentResult, suffix: str, path: Path) -> None:
    if suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            n = result.spec.players
            w.writerow(
                [
                    "deal",
                    "rotation",
                    *[f"seat{i}" for i in range(n)],
                    "winners",
                    *[f"score{i}" for i in range(n)],
                    "actions",
                    "error",
                ]
            )
            for r in result.results:
                scores: list[float | str] = list(r.scores) or [""] * n
                w.writerow(
                    [
                        r.deal,
                        r.rotation,
                        *r.seats,
                        " ".join(map(str, r.winners)),
                        *scores,
                        r.actions,
                        r.error or "",
                    ]
                )
        return
    path.write_text(json.dumps(result.to_json(), indent=1), encoding="utf-8")


def write_chart(result: TournamentResult, path: Path) -> None:
    """Win rates with their 95% intervals as a bar chart (PNG)."""
    from openrummy.extras import require

    require("sim", "a chart of rummy simulate", modules=("matplotlib",))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summaries = result.summaries()
    names = [s.bot for s in summaries]
    rates = [100 * s.win_rate for s in summaries]
    low = [100 * (s.win_rate - s.win_low) if not math.isnan(s.win_low) else 0 for s in summaries]
    high = [100 * (s.win_high - s.win_rate) if not math.isnan(s.win_high) else 0 for s in summaries]
    fig, ax = plt.subplots(figsize=(max(4, 1.4 * len(names)), 3.6), dpi=120)
    ax.bar(names, rates, yerr=[low, high], capsize=6, color="#3d7ea6")
    ax.axhline(
        100 / result.spec.players, color="#999", linestyle="--", linewidth=1, label="fair share"
    )
    ax.set_ylabel("win rate per seat (%)")
    ax.set_title(f"{result.spec.game}: {len(result.results)} games, {result.spec.deals} deals")
    ax.legend(loc="upper right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
