"""The ``rummy analyse`` and ``rummy puzzles`` commands (registered by :mod:`openrummy.cli`).

Every word they print comes from the message catalogue, in English or German (``--lang``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from openrummy.errors import RummyError
from openrummy.messages import render

__all__ = ["analyse", "puzzles_app"]


def _t(key: str, lang: str, names: list[str] | None = None, **params: Any) -> str:
    return render({"reason": key, **params}, lang, names)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


PARALLEL_FROM = 40
"""Records of fewer actions are analysed in this process (starting workers costs more)."""

LangOption = Annotated[str, typer.Option("--lang", help="Language of the output: en or de.")]


def _chance(w: Any) -> str:
    return "" if w is None else f"{100 * w.value:.0f}%"


def analyse(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
    chart: Annotated[
        Path | None, typer.Option("--chart", help="Write the win-chance chart as a PNG file.")
    ] = None,
    samples: Annotated[
        int,
        typer.Option(
            "--samples",
            min=0,
            help="Sampled deals per decision for the win chance (0: exact facts only).",
        ),
    ] = 8,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampled deals.")] = 0,
    max_turns: Annotated[
        int, typer.Option("--max-turns", min=1, help="Actions per play-out before it is judged.")
    ] = 30,
    rounds: Annotated[
        list[int] | None,
        typer.Option("--round", help="Analyse only this round (0 first; repeatable)."),
    ] = None,
    all_decisions: Annotated[
        bool, typer.Option("--all", help="List every decision, not only those with findings.")
    ] = False,
    max_samples: Annotated[
        int,
        typer.Option(
            "--max-samples",
            min=0,
            help="Most sampled deals per decision: more while a grade is unclear.",
        ),
    ] = 32,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            min=0,
            help="Worker processes for the win chance (0: one per core).",
        ),
    ] = 0,
    lang: LangOption = "en",
) -> None:
    """Judge every decision of a game record: the exact best play, win chance, grades."""
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from openrummy.analysis import AnalysisSettings
    from openrummy.analysis.parallel import analyse_parallel
    from openrummy.record import load_record

    if chart is not None:
        from openrummy.extras import MissingExtraError, require

        try:  # before the long analysis, not after it
            require("sim", "rummy analyse --chart", modules=("matplotlib",))
        except MissingExtraError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(3) from None
        if chart.is_dir() or not chart.parent.is_dir():
            raise _fail(f"cannot write the chart to {chart}: not a file in an existing folder")
    settings = AnalysisSettings(
        samples=samples,
        max_samples=max_samples,
        seed=seed,
        max_turns=max_turns,
        rounds=frozenset(rounds) if rounds else None,
    )
    try:
        rec = load_record(file)
        with Progress(transient=True, disable=as_json) as bar:
            task = bar.add_task(_t("analysis.progress", lang), total=len(rec.actions) or 1)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total or 1)

            workers = jobs or os.cpu_count() or 1
            if samples == 0 or len(rec.actions) < PARALLEL_FROM:
                workers = 1  # not worth starting processes
            result = analyse_parallel(rec, settings, jobs=workers, progress=progress)
    except RummyError as e:
        raise _fail(str(e).splitlines()[0]) from None
    names = list(result.players)
    if chart is not None:
        from openrummy.analysis.chart import win_chance_chart
        from openrummy.extras import MissingExtraError

        try:
            win_chance_chart(result, chart, lang=lang)
        except MissingExtraError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(3) from None
        except OSError as e:
            raise _fail(f"cannot write {chart}: {e.strerror or e}") from None
    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    console = Console(width=200, highlight=False)
    table = Table(show_lines=False)
    for col in ("index", "round", "player", "action", "chance", "grade", "facts"):
        table.add_column(_t(f"analysis.col.{col}", lang))
    for d in result.decisions:
        interesting = d.facts or (d.grade is not None and d.grade.value != "good")
        if not (all_decisions or interesting):
            continue
        grade = (
            _t("analysis.forced", lang)
            if d.forced
            else _t(f"analysis.grade.{d.grade.value}", lang)
            if d.grade
            else "-"
        )
        chance = f"{_chance(d.before)} → {_chance(d.after)}" if d.before and d.after else ""
        action = d.action if len(d.action) <= 60 else d.action[:57] + "..."
        facts = "; ".join(render(f, lang, names) for f in d.facts)
        table.add_row(str(d.index), str(d.round), names[d.seat], action, chance, grade, facts)
    console.print(table)
    for seat in range(len(names)):
        acc = result.accuracy(seat)
        graded = sum(result.counts(seat).values())
        if acc is None:
            typer.echo(_t("analysis.no_accuracy", lang, names, seat=seat))
        else:
            typer.echo(
                _t("analysis.accuracy", lang, names, seat=seat, value=round(acc, 1), count=graded)
            )
        c = result.counts(seat)
        from openrummy.analysis import Grade

        typer.echo(
            _t(
                "analysis.grades",
                lang,
                names,
                seat=seat,
                count=c[Grade.INACCURACY],
                have=c[Grade.MISTAKE],
                max=c[Grade.BLUNDER],
            )
        )
    if not result.finished:
        typer.echo(_t("analysis.unfinished", lang, count=result.actions))
    if chart is not None:
        typer.echo(_t("analysis.chart_written", lang, path=str(chart)))


# -- puzzles --------------------------------------------------------------------------------

puzzles_app = typer.Typer(
    help="Rummy puzzles: generate the shipped sets, list, show and check them.",
    no_args_is_help=True,
)


def _find(puzzle_id: str, file: Path | None) -> Any:
    from openrummy.puzzles import load_puzzles, shipped_puzzles

    pool = load_puzzles(file) if file else shipped_puzzles()
    for p in pool:
        if p.id == puzzle_id:
            return p
    raise RummyError(_t("puzzle.unknown", "en", id=puzzle_id))


FileOption = Annotated[
    Path | None,
    typer.Option(
        "--file", help="A puzzle file (JSON lines, .gz allowed) instead of the shipped sets."
    ),
]


@puzzles_app.command("generate")
def puzzles_generate(
    sets: Annotated[
        list[str] | None,
        typer.Argument(help="Which sets: rummikub, robbers, indian (default: all)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write into this folder (default: the package's data)."),
    ] = None,
    scale: Annotated[
        float, typer.Option("--scale", min=0.0, help="Generate this share of each set.")
    ] = 1.0,
    from_record: Annotated[
        Path | None,
        typer.Option(
            "--from-record",
            help="Instead: the puzzles of a game record's missed going-outs, written to "
            "--out (a file, default puzzles.jsonl.gz).",
        ),
    ] = None,
    lang: LangOption = "en",
) -> None:
    """Regenerate the shipped puzzle sets from their seeds (the same files every time)."""
    from rich.progress import Progress, TaskID

    from openrummy.puzzles.generate import RECIPES, write_set

    if from_record is not None:
        from openrummy.analysis import AnalysisSettings, analyse_record
        from openrummy.puzzles.from_games import puzzles_from_record
        from openrummy.puzzles.model import dump_puzzles
        from openrummy.record import load_record

        try:
            rec = load_record(from_record)
            found = puzzles_from_record(rec, analyse_record(rec, AnalysisSettings(samples=0)))
        except RummyError as e:
            raise _fail(str(e).splitlines()[0]) from None
        target = out or Path("puzzles.jsonl.gz")
        n = dump_puzzles(found, target)
        typer.echo(_t("puzzle.generated", lang, count=n, path=str(target)))
        return

    names = sets or list(RECIPES)
    for name in names:
        if name not in RECIPES:
            raise _fail(f"no puzzle set {name!r} (sets: {', '.join(RECIPES)})")
    for name in names:
        total = sum(max(1, round(n * scale)) for _g, _k, n in RECIPES[name])
        with Progress(transient=True) as bar:
            task = bar.add_task(name, total=total)

            def progress(done: int, bar: Progress = bar, task: TaskID = task) -> None:
                bar.update(task, completed=done)

            path, n = write_set(
                name, out / f"{name}.jsonl.gz" if out else None, scale=scale, progress=progress
            )
        typer.echo(_t("puzzle.generated", lang, count=n, path=str(path)))


@puzzles_app.command("list")
def puzzles_list(
    kind: Annotated[str | None, typer.Option("--kind", help="Only this kind.")] = None,
    game: Annotated[str | None, typer.Option("--game", help="Only this preset.")] = None,
    limit: Annotated[int, typer.Option("--limit", min=0, help="At most this many.")] = 20,
    file: FileOption = None,
    lang: LangOption = "en",
) -> None:
    """List puzzles: id, preset, kind, rating, cards in hand."""
    from openrummy.puzzles import load_puzzles, shipped_puzzles

    try:
        pool = load_puzzles(file) if file else shipped_puzzles()
    except RummyError as e:
        raise _fail(str(e)) from None
    shown = 0
    for p in pool:
        if (kind and p.kind.value != kind) or (game and p.game != game):
            continue
        if shown >= limit:
            break
        shown += 1
        title = _t(f"puzzle.kind.{p.kind.value}", lang)
        typer.echo(f"{p.id}  {p.game:10s} {title:22s} {p.rating:5d}  {len(p.hand)}")


@puzzles_app.command("show")
def puzzles_show(
    puzzle_id: Annotated[str, typer.Argument(help="The puzzle's id (rummy puzzles list).")],
    solution: Annotated[bool, typer.Option("--solution", help="Show the solution too.")] = False,
    file: FileOption = None,
    lang: LangOption = "en",
) -> None:
    """Show a puzzle (and with --solution its solution, as steps)."""
    from openrummy.puzzles import PuzzleKind

    try:
        p = _find(puzzle_id, file)
    except RummyError as e:
        raise _fail(str(e)) from None
    typer.echo(
        f"{p.id}  {p.game}  {_t(f'puzzle.kind.{p.kind.value}', lang)}  "
        f"{_t('puzzle.rating', lang, rating=p.rating)}"
    )
    if p.kind is PuzzleKind.PLACE_ALL:
        typer.echo(_t("puzzle.task.place_all", lang, count=len(p.hand)))
    elif p.kind is PuzzleKind.WINNING_DRAW:
        typer.echo(_t("puzzle.task.winning_draw", lang, card=str(p.discard[-1])))
    else:
        typer.echo(_t(f"puzzle.task.{p.kind.value}", lang))
    if p.table:
        typer.echo(f"{_t('puzzle.label.table', lang)}: " + " ".join(str(m) for m in p.table))
    if p.indicator is not None:
        typer.echo(f"{_t('puzzle.label.indicator', lang)}: {p.indicator}")
    if p.discard:
        typer.echo(f"{_t('puzzle.label.discard', lang)}: " + " ".join(map(str, p.discard)))
    typer.echo(f"{_t('puzzle.label.hand', lang)}: " + " ".join(map(str, p.hand)))
    if not solution:
        return
    if p.kind is PuzzleKind.PLACE_ALL:
        from openrummy.rules import find_preset
        from openrummy.solve.explain import explain

        rules = find_preset(p.game)
        for line in explain(p.table, p.solution, lang=lang, rules=rules.meld_rules):
            typer.echo(line)
        typer.echo("play " + " ".join(str(m) for m in p.solution))
    elif p.kind is PuzzleKind.SAFE_THROW:
        typer.echo(f"discard {p.card}")
    else:
        prefix = f"{p.draw}; " if p.draw else ""
        typer.echo(f"{prefix}declare {p.card} " + " ".join(str(m) for m in p.solution))


@puzzles_app.command("check")
def puzzles_check(
    puzzle_id: Annotated[str, typer.Argument(help="The puzzle's id.")],
    answer: Annotated[
        str,
        typer.Argument(
            help="Your answer: the table ([R3 R4 R5] ...), declare CARD [..] ..., "
            "discard CARD, or take / draw."
        ),
    ],
    file: FileOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
    lang: LangOption = "en",
) -> None:
    """Check an answer: exit 0 when it solves the puzzle, 1 with the reasons when not."""
    from openrummy.puzzles import check

    try:
        p = _find(puzzle_id, file)
    except RummyError as e:
        raise _fail(str(e)) from None
    verdict = check(p, answer)
    if as_json:
        typer.echo(json.dumps(verdict.to_json(), ensure_ascii=False))
    else:
        for line in verdict.render(lang):
            typer.echo(line)
    if not verdict.solved:
        raise typer.Exit(1)
