"""The win-chance chart of an analysed game (matplotlib, PNG).

One line per player: the win chance after each of their graded decisions, plotted at the
action's index, with its 95 % interval as a band; inaccuracies, mistakes and blunders are
marked (yellow, orange, red), and round starts drawn as thin vertical lines.
"""

from __future__ import annotations

from pathlib import Path

from openrummy.messages import render

from .core import GameAnalysis
from .grades import Grade

__all__ = ["win_chance_chart"]

_MARKS = {Grade.INACCURACY: "#e6b800", Grade.MISTAKE: "#ff8c1a", Grade.BLUNDER: "#d62728"}


def win_chance_chart(analysis: GameAnalysis, path: str | Path, *, lang: str = "en") -> Path:
    """Draw ``analysis``'s win chance over the game into the PNG file ``path``.

    matplotlib comes with the ``sim`` extra (:class:`~openrummy.extras.MissingExtraError`
    without it).
    """
    from openrummy.extras import require

    require("sim", "the win-chance chart", modules=("matplotlib",))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 4), dpi=100)
    try:
        for seat, name in enumerate(analysis.players):
            ds = [d for d in analysis.decisions if d.seat == seat and d.after is not None]
            if not ds:
                continue
            xs = [d.index for d in ds]
            ys = [d.after.value for d in ds if d.after is not None]
            lows = [d.after.low for d in ds if d.after is not None]
            highs = [d.after.high for d in ds if d.after is not None]
            (line,) = ax.plot(xs, ys, marker=".", linewidth=1.2, label=name)
            ax.fill_between(xs, lows, highs, color=line.get_color(), alpha=0.12, linewidth=0)
            for d in ds:
                if d.grade in _MARKS and d.after is not None:
                    ax.scatter(
                        [d.index],
                        [d.after.value],
                        s=60,
                        color=_MARKS[d.grade],
                        zorder=3,
                        edgecolors="black",
                        linewidths=0.5,
                    )
        starts: dict[int, int] = {}
        for d in analysis.decisions:
            starts.setdefault(d.round, d.index)
        for r, i in starts.items():
            if r:
                ax.axvline(i, color="grey", linewidth=0.5, alpha=0.5)
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel(render({"reason": "analysis.chart.x"}, lang))
        ax.set_ylabel(render({"reason": "analysis.chart.y"}, lang))
        ax.set_title(f"{analysis.game}: {render({'reason': 'analysis.chart.title'}, lang)}")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", fontsize="small")
        fig.tight_layout()
        out = Path(path)
        fig.savefig(out, format="png")
    finally:
        plt.close(fig)
    return out
