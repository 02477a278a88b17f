"""The ``rummy`` command.

``rummy --help`` lists the commands; each has its own ``--help``.
"""

from __future__ import annotations

import io
import json
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from openrummy.errors import RummyError

app = typer.Typer(
    name="rummy",
    help="OpenRummy: play, check and solve rummy games (Robbers' Rummy, Rummikub, Indian Rummy).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help and usage errors: rich's renderer costs more start-up than the rest of
    # ``rummy --help`` together.
    rich_markup_mode=None,
)

OptionList = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help=(
            "Override a rule option by name, e.g. -o meld.ace_mode=WRAPAROUND, or a pool "
            "match: -o match.format=POOL -o pool.threshold=201 (repeatable). "
            "Every option and its values: docs/rules/, or rummy presets NAME."
        ),
    ),
]


def _overrides(options: Sequence[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in options or ():
        key, eq, value = item.partition("=")
        if not eq:
            raise RummyError(f"option {item!r}: write NAME=VALUE, e.g. opening.threshold=30")
        out[key.strip()] = value.strip()
    return out


def _fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` on standard error; the caller raises the returned Exit.

    Raised while handling a :class:`ConfigError` (a preset or option mistake), the line
    also says where every preset and option is explained.
    """
    from openrummy.errors import ConfigError

    if isinstance(sys.exc_info()[1], ConfigError) and "docs/rules" not in message:
        message += " (every preset and option: docs/rules/)"
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def _check_lang(lang: str) -> None:
    from openrummy.messages import LANGS

    if lang not in LANGS:
        raise RummyError(f"--lang {lang}: use one of {', '.join(LANGS)}")


def _require_extra(extra: str, what: str) -> None:
    """Stop with one line naming the extra to install when ``what`` needs one (exit 3)."""
    from openrummy.extras import MissingExtraError, require

    try:
        require(extra, what)
    except MissingExtraError as e:
        raise _fail(str(e), 3) from None


def _announce_compile(at_once: bool = True) -> None:
    """Say so on standard error while numba compiles the solver's core (once after an
    install), so that nobody waits a minute in silence; ``at_once=False``: only if it
    really starts (a command that may not need the compiled core)."""
    from openrummy.solve import compiled

    compiled.announce_with(lambda message: typer.echo(str(message), err=True), at_once=at_once)


def _version(value: bool) -> None:
    if value:
        from openrummy import __version__

        typer.echo(f"rummy (OpenRummy) {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    pass


def _open_input(file: Path | None) -> TextIO:
    """The input of a JSON-lines command: ``file`` read whole as UTF-8, or standard input.

    A missing file, a directory or a file that is not UTF-8 text is a one-line error
    (exit 2) before any line is answered.
    """
    if file is None:
        return sys.stdin
    try:
        return io.StringIO(file.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise _fail(f"{file}: no such file") from None
    except IsADirectoryError:
        raise _fail(f"{file}: is a directory, not a file of JSON lines") from None
    except UnicodeDecodeError as e:
        raise _fail(
            f"{file}: not UTF-8 text (byte {e.object[e.start]:#04x} at offset {e.start})"
        ) from None
    except OSError as e:
        raise _fail(f"{file}: cannot read ({e.strerror})") from None


def _check_output(path: Path, option: str) -> None:
    """Fail at once, before any long work, if ``path`` cannot be written.

    The file is opened for appending (and removed again if it did not exist), which is the
    only test that sees read-only file systems and permissions as the writer will.
    """
    if path.is_dir():
        raise _fail(f"{option} {path}: is a directory; give a file name")
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8"):
            pass
        if not existed:
            path.unlink()
    except OSError as e:
        raise _fail(f"{option} {path}: cannot write there ({e.strerror})") from None


# -- validate --------------------------------------------------------------------------------


@app.command()
def validate(
    melds: Annotated[
        list[str], typer.Argument(help='Melds to check, e.g. "[KS AS 2S]" "[7S 7H JK=7D]".')
    ],
    game: Annotated[
        str, typer.Option("--game", "-g", help="Preset whose meld rules apply.")
    ] = "robbers",
    option: OptionList = None,
    lang: Annotated[
        str, typer.Option("--lang", help="Language of the card letters: en, or de (B, D, K).")
    ] = "en",
) -> None:
    """Say whether melds are valid under a preset, and why not. Exit code 0 = all valid.

    Cards may be written with the German letters too (BH = JH, DS = QS); with --lang de
    the answer shows them so.
    """
    from openrummy.cards import check_deck_kind
    from openrummy.melds import Meld
    from openrummy.rules import find_preset
    from openrummy.rules.manipulation import ManipulationRules

    try:
        _check_lang(lang)
        rules = find_preset(game, _overrides(option))
        meld_rules = rules.meld_rules
        parsed = [Meld.parse(text) for text in melds]
        tiles = isinstance(rules, ManipulationRules) and rules.tiles
        for meld in parsed:
            check_deck_kind(
                (c for it in meld.items for c in (it.card, it.represents) if c is not None),
                tiles=tiles,
                game=rules.name,
            )
    except RummyError as e:
        raise _fail(str(e)) from None

    def shown(meld: Meld) -> str:
        return meld.pretty(lang) if lang != "en" else str(meld)

    all_valid = True
    for meld in parsed:
        if any(it.represents is None for it in meld.items):
            options = meld.assignments(meld_rules)
            if options:
                listed = ", ".join(shown(m) for m in options)
                typer.echo(f"{shown(meld)}: valid with the joker(s) declared as one of: {listed}")
            else:
                all_valid = False
                typer.echo(
                    f"{shown(meld)}: invalid: no identity of the joker(s) makes it a set or a run"
                )
            continue
        reason = meld.check(meld_rules)
        if reason is None:
            kind = meld.kind(meld_rules)
            assert kind is not None
            typer.echo(
                f"{shown(meld.normalized(meld_rules))}: valid {kind.value.lower()} ({rules.name})"
            )
        else:
            all_valid = False
            typer.echo(f"{shown(meld)}: invalid: {reason} ({rules.name})")
    raise typer.Exit(0 if all_valid else 1)


# -- presets ---------------------------------------------------------------------------------


@app.command()
def presets(
    name: Annotated[str | None, typer.Argument(help="Show every option of this preset.")] = None,
) -> None:
    """List the rule presets, or every option of one preset."""
    from openrummy.rules import find_preset, preset_names

    if name is None:
        for n in preset_names():
            rules = find_preset(n)
            typer.echo(f"{n:16} {getattr(rules, 'title', n)}")
        typer.echo(
            "\nEvery option of one preset: rummy presets NAME; what each means: docs/rules/."
        )
        return
    try:
        rules = find_preset(name)
    except RummyError as e:
        raise _fail(str(e)) from None
    from openrummy.rules.reference import format_value

    for key, value in rules.options().items():
        typer.echo(f"{key:40} {format_value(value)}")
    typer.echo(f"\nWhat each option means, and its allowed values: docs/rules/{_rules_page(rules)}")


def _rules_page(rules: Any) -> str:
    from openrummy.rules.reference import FAMILIES

    return FAMILIES.get(rules.family, "")


# -- demo: a bot game printed turn by turn ----------------------------------------------------


def _describe_action(names: Sequence[str], result: Any, lang: str = "en") -> str:
    """What an action did, in words from the message catalogue."""
    from openrummy.messages import render

    return render(result.event, lang, names)


LangOption = Annotated[
    str, typer.Option("--lang", help="Language of the printed events: en or de.")
]


def standings_lines(match: Any, names: Sequence[str]) -> Iterator[str]:
    """The match result as text (the same for a live game and its replay)."""
    for summary in match.rounds:
        winners = ", ".join(names[w] for w in summary.winners())
        scores = "  ".join(
            f"{names[s]} {summary.outcome.scores[i]:+d}" for i, s in enumerate(summary.seats)
        )
        label = "extra round" if summary.tie_break else f"round {summary.index + 1}"
        yield f"{label}: {summary.outcome.termination.value.lower()}, won by {winners}; {scores}"
    if match.outcome is not None:
        o = match.outcome
        totals = "  ".join(f"{names[s]} {o.totals[s]}" for s in range(match.players))
        yield f"totals: {totals}"
        yield f"winner: {', '.join(names[w] for w in o.winners)} ({o.decided_by})"


@app.command()
def demo(
    game: Annotated[str, typer.Option("--game", "-g", help="Preset to play.")] = "robbers",
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=6)] = 4,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Seed of the deal (same seed, same game).")
    ] = 1,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help=(
                "Comma-separated bot kinds, one per seat or one for all (greedy: the simple bot "
                "leaves most Robbers' Rummy rounds in a stalemate)."
            ),
        ),
    ] = "greedy",
    option: OptionList = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write the game record to this file.")
    ] = None,
    delay: Annotated[
        float, typer.Option("--delay", help="Seconds to pause after each turn.")
    ] = 0.0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the result.")] = False,
    lang: LangOption = "en",
) -> None:
    """Play a game between bots and print it turn by turn."""
    from openrummy.bots import make_bot, play_match
    from openrummy.games.actions import Play
    from openrummy.games.families import new_match
    from openrummy.record import GameRecord
    from openrummy.rules import find_preset

    if record is not None:
        _check_output(record, "--record")
    try:
        _check_lang(lang)
        rules = find_preset(game, _overrides(option))
        kinds = [k.strip() for k in bots.split(",") if k.strip()]
        if len(kinds) == 1:
            kinds *= players
        if len(kinds) != players:
            raise RummyError(f"--bots names {len(kinds)} bots for {players} seats")
        seat_bots = [make_bot(k, rules, seed * 100 + i) for i, k in enumerate(kinds)]
        match: Any = new_match(rules, players, seed=seed)
    except (RummyError, ValueError) as e:
        raise _fail(str(e)) from None
    names = [f"P{i + 1} ({k})" for i, k in enumerate(kinds)]
    _announce_compile()
    out = typer.echo
    printed_rounds = 0

    def on_action(action: Any, result: Any) -> None:
        nonlocal printed_rounds
        if quiet:
            return
        out(f"  {_describe_action(names, result, lang)}")
        round_ended = printed_rounds < len(match.rounds)
        if result.accepted and isinstance(action, Play) and not round_ended:
            out(f"    table: {' '.join(m.pretty(lang) for m in match.game.table)}")
        if round_ended and getattr(match.rounds[-1].outcome, "groups", None):
            summary = match.rounds[-1]
            for w in summary.outcome.winners:
                shown = " ".join(m.pretty(lang) for m in summary.outcome.groups[w])
                out(f"    {names[summary.seats[w]]} shows {shown}")
        while printed_rounds < len(match.rounds):
            summary = match.rounds[printed_rounds]
            printed_rounds += 1
            hands = "; ".join(
                f"{names[s]}: {' '.join(c.pretty(lang) for c in summary.outcome.hands[i]) or '-'}"
                for i, s in enumerate(summary.seats)
            )
            out(
                f"  round over ({summary.outcome.termination.value.lower()}); left in hands: {hands}"
            )
            if match.outcome is None:
                out(f"round {match.round_index + 1}: {names[match.seats[match.game.dealer]]} deals")
        if delay:
            time.sleep(delay)

    if not quiet:
        out(f"{rules.title} ({rules.name}), {players} players, seed {seed}")
        out(f"round 1: {names[match.game.dealer]} deals")
        indicator = getattr(match.game, "indicator", None)
        if indicator is not None:
            out(f"  wild-joker indicator: {indicator.pretty(lang)}")
    play_match(match, seat_bots, on_action=on_action)
    for line in standings_lines(match, names):
        out(line)
    if record is not None:
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(GameRecord.from_match(match, names).dumps(), encoding="utf-8")
        out(f"record written to {record}")


# -- play ------------------------------------------------------------------------------------


@app.command()
def play(
    game: Annotated[str, typer.Option("--game", "-g", help="Preset to play.")] = "rummikub",
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", min=2, max=6, help="Seats (default: you + --vs)."),
    ] = None,
    vs: Annotated[
        str,
        typer.Option(
            "--vs",
            help="The bots: a level (easy, medium, hard, expert; `rummy bots --game G` says "
            "what each does) or a research bot, one for every other seat or one per seat.",
        ),
    ] = "medium",
    option: OptionList = None,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Seed of the deal (same seed, same game).")
    ] = 1,
    watch: Annotated[bool, typer.Option("--watch", help="Only bots play; you watch.")] = False,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Go on with a game saved with Ctrl+S.")
    ] = None,
    save: Annotated[Path, typer.Option("--save", help="Where Ctrl+S saves the game.")] = Path(
        "rummy-game.json"
    ),
    lang: Annotated[
        str | None, typer.Option("--lang", help="en or de (default: from the locale).")
    ] = None,
    delay: Annotated[float, typer.Option("--delay", help="Seconds between the bots' moves.")] = 0.4,
    server: Annotated[
        str | None, typer.Option("--server", help="Take a seat at a server table (URL).")
    ] = None,
    table: Annotated[str | None, typer.Option("--table", help="The server table's id.")] = None,
    token: Annotated[
        str | None, typer.Option("--token", help="Your seat token at the server table.")
    ] = None,
    link: Annotated[
        str | None,
        typer.Option("--link", help="The table's link from the browser (http://HOST/#/t/ID)."),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option("--name", help="Your name (at a server table without --token: join)."),
    ] = None,
) -> None:
    """Play in the terminal against bots, or at a server table (--server/--link); needs the
    tui extra: pip install 'openrummy[tui]'."""
    _require_extra("tui", "rummy play")
    from openrummy.tui import RummyApp, Setup, default_lang
    from openrummy.tui.session import LocalSession

    language = lang or default_lang()
    if language not in ("en", "de"):
        raise _fail(f"--lang {language}: use en or de")
    if server is not None or table is not None or link is not None or token is not None:
        from openrummy.tui.remote import RemoteSession, parse_target

        try:
            target = parse_target(server, table, link)
        except RummyError as e:
            raise _fail(str(e)) from None
        remote = RemoteSession(target, language, token=token, name=name)
        RummyApp(session=remote, lang=language).run()
        return
    try:
        if resume is not None:
            session = LocalSession.resume(resume, language)
        else:
            kinds = [k.strip() for k in vs.split(",") if k.strip()] or ["medium"]
            seats = players or (max(2, len(kinds)) if watch else len(kinds) + 1)
            setup = Setup(
                game=game,
                options=_overrides(option),
                players=seats,
                bots=tuple(kinds),
                seed=seed,
                human=not watch,
                name=name,
            )
            session = LocalSession(setup, language)
    except (RummyError, ValueError) as e:
        raise _fail(str(e)) from None
    RummyApp(session=session, lang=language, save_path=resume or save, bot_delay=delay).run()


# -- replay ----------------------------------------------------------------------------------


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every action.")] = False,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Prove the fair deal: the revealed seed and deal terms hash to the "
            "commitment, and every deck, the first dealer and every card drawn follow from "
            "the seed (docs/server.md). Exits 1 unless the record is complete and every "
            "check holds.",
        ),
    ] = False,
    commitment: Annotated[
        str | None,
        typer.Option(
            "--commitment",
            help="With --verify: the commitment you saw when the game started "
            "(default: the one the record carries).",
        ),
    ] = None,
    allow_unfinished: Annotated[
        bool,
        typer.Option(
            "--allow-unfinished",
            help="With --verify: accept a game that is not finished, as a partial check of "
            "what was played.",
        ),
    ] = False,
    lang: LangOption = "en",
) -> None:
    """Replay a game record and print its course and outcome."""
    from openrummy.record import load_record

    if (commitment is not None or allow_unfinished) and not verify:
        raise _fail("--commitment and --allow-unfinished go with --verify")
    checked: Any = None
    try:
        rec = load_record(file)
        if verify:
            from openrummy.verify import verify_deal

            checked = verify_deal(rec, commitment, allow_unfinished=allow_unfinished)
            if not checked.ok:
                if as_json:
                    typer.echo(json.dumps({"verification": checked.to_json()}))
                for line in checked.summary():
                    typer.echo(line, err=True)
                raise typer.Exit(1)
            # Replay what was verified: the match dealt from the seed alone.
            import dataclasses

            rec = dataclasses.replace(rec, decks=None, first_dealer=None)
        names = rec.players
        lines: list[str] = []

        def on_action(i: int, action: Any, result: Any) -> None:
            if verbose and not as_json:
                lines.append(f"{i:5d}  {_describe_action(names, result, lang)}")

        match = rec.replay(on_action=on_action)
    except RummyError as e:
        raise _fail(str(e)) from None
    if as_json:
        payload = {
            "game": rec.game,
            "players": names,
            "seed": rec.seed,
            "actions": len(rec.actions),
            "rounds": [r.to_json() for r in match.rounds],
            "outcome": match.outcome.to_json() if match.outcome else None,
            "finished": match.outcome is not None,
        }
        if checked is not None:
            payload["verification"] = checked.to_json()
        typer.echo(json.dumps(payload, ensure_ascii=False))
        return
    typer.echo(f"{rec.game}: {', '.join(names)}; seed {rec.seed}; {len(rec.actions)} actions")
    for line in lines:
        typer.echo(line)
    for line in standings_lines(match, names):
        typer.echo(line)
    if match.outcome is None:
        typer.echo("the game is not finished")
    if checked is not None:
        for line in checked.summary():
            typer.echo(line)


# -- bots and tournaments ----------------------------------------------------------------------


@app.command("bots")
def list_bots(
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="Only bots for this preset's family.")
    ] = None,
    lang: LangOption = "en",
) -> None:
    """List the computer players: the four levels of each game, then the research bots
    they are made of, weakest first, with a line on each."""
    from openrummy.bots import bot_infos
    from openrummy.bots.levels import LEVELS, describe_level, level_bot, level_kind
    from openrummy.messages import render
    from openrummy.rules import find_preset, preset_names

    try:
        _check_lang(lang)
        rules = find_preset(game) if game else None
    except RummyError as e:
        raise _fail(str(e)) from None
    family = rules.family if rules is not None else None
    kinds: dict[str, list[str]] = {}
    for name in preset_names():
        kinds.setdefault(level_kind(find_preset(name)), []).append(name)
    for kind, names in kinds.items():
        if rules is not None and level_kind(rules) != kind:
            continue
        example = find_preset(names[0])
        typer.echo(render({"reason": "cli.levels_heading", "games": ", ".join(names)}, lang))
        for level in LEVELS:
            bot = level_bot(level, example)
            text = describe_level(level, kind, lang)
            typer.echo(f"  {level:10} {text} ({bot})")
    infos = [i for i in bot_infos(family) if i.name not in LEVELS[:3]]
    for fam in [family] if family else sorted({f for i in infos for f in i.families}):
        games = [n for n in preset_names() if find_preset(n).family == fam]
        typer.echo(
            render(
                {"reason": "cli.research_heading", "family": fam, "games": ", ".join(games)}, lang
            )
        )
        for info in infos:
            if fam in info.families:
                typer.echo(f"  {info.name:10} {info.describe(lang)}")


def _duration(seconds: float) -> str:
    """``1:02:03`` for people reading a log."""
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM stops the run as Ctrl-C does (a job scheduler's or `kill`'s
    stop; under nohup, Ctrl-C's SIGINT is ignored), so the games so far are reported."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@app.command()
def simulate(
    game: Annotated[str, typer.Option("--game", "-g", help="Preset to play.")] = "robbers",
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="Bots in seat order, comma-separated, e.g. greedy,simple,simple,simple.",
        ),
    ] = "simple,random",
    deals: Annotated[
        int,
        typer.Option(
            "--deals", "-n", min=1, help="Deals; each is played once per distinct seat rotation."
        ),
    ] = 100,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1)] = 1,
    seed: Annotated[int, typer.Option("--seed", "-s")] = 1,
    backend: Annotated[
        str, typer.Option("--backend", help="process (default), inline or ray.")
    ] = "process",
    unit: Annotated[
        str,
        typer.Option(
            "--unit", help="round: one round/hand per deal; match: the preset's whole match."
        ),
    ] = "round",
    option: OptionList = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the results as .json or .csv.")
    ] = None,
    chart: Annotated[
        Path | None, typer.Option("--chart", help="Write a PNG chart of the win rates.")
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Go on from the .json --out of an earlier run of the same tournament: its "
            "games are kept, the rest are played (more --deals extends it).",
        ),
    ] = False,
    checkpoint: Annotated[
        float,
        typer.Option(
            "--checkpoint",
            min=0,
            help="With a .json --out, write the games so far every this many seconds "
            "(0: after every game), so that a killed run can be resumed.",
        ),
    ] = 300.0,
) -> None:
    """Play a mirrored tournament between bots and report win rates, tests and ratings.

    Long runs: with ``--out results.json`` the games so far are saved every
    ``--checkpoint`` seconds; ``--resume`` with the same command line goes on from them.
    """
    _require_extra("sim", "rummy simulate")
    if backend == "ray":
        _require_extra("ray", "rummy simulate --backend ray")
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from openrummy.sim import BACKENDS, TournamentResult, TournamentSpec, resumable, run_tournament
    from openrummy.sim.report import (
        results_table,
        tests_table,
        verdict_lines,
        write_chart,
        write_results,
    )

    console = Console()
    names = tuple(b.strip() for b in bots.split(",") if b.strip())
    saving = out is not None and out.suffix.lower() == ".json"
    if resume and not saving:
        raise _fail("--resume needs --out with a .json file (the run to go on from)")
    if out is not None and not (resume and out.is_file()):
        _check_output(out, "--out")
    if out is not None and out.suffix.lower() not in (".json", ".csv"):
        raise _fail(f"--out {out}: name a .json or .csv file")
    if chart is not None:
        from matplotlib.backend_bases import FigureCanvasBase

        _check_output(chart, "--chart")
        kinds = FigureCanvasBase.get_supported_filetypes()
        if chart.suffix.lower().lstrip(".") not in kinds:
            raise _fail(f"--chart {chart}: name a picture file ({', '.join(sorted(kinds))})")
    try:
        spec = TournamentSpec(
            game=game, bots=names, deals=deals, seed=seed, options=_overrides(option), unit=unit
        )
        spec.validate()
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
        done = resumable(spec, out) if resume and out is not None else []
        if done:
            console.print(f"resuming: {len(done)} games of {out} are kept")
        total = deals * len(spec.rotations())
        so_far = list(done)
        last_saved = last_logged = time.monotonic()
        # A live bar needs a terminal; under nohup, CI or a pipe, say how far the run is in
        # plain lines instead (every minute, or every checkpoint if that is sooner).
        log_every = None if console.is_terminal else min(checkpoint, 60.0)

        def save_checkpoint() -> None:
            nonlocal last_saved
            if not saving or out is None or time.monotonic() - last_saved < checkpoint:
                return
            ordered = sorted(so_far, key=lambda r: (r.deal, r.rotation))
            partial = TournamentResult(spec, backend, ordered, interrupted=True, resumed=len(done))
            write_results(partial, out)
            last_saved = time.monotonic()

        def log_line(finished: int, elapsed: float) -> None:
            nonlocal last_logged
            now = time.monotonic()
            if log_every is None or now - last_logged < log_every:
                return
            last_logged = now
            rate = finished / elapsed
            left = total - len(so_far)
            eta = _duration(left / rate) if rate > 0 else "?"
            console.print(
                f"{len(so_far)}/{total} games, {rate:.2f} games/s, "
                f"{_duration(elapsed)} elapsed, ETA {eta}",
                highlight=False,
            )

        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} games/s"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        ) as bar:
            task = bar.add_task(
                f"{game} {','.join(names)}", total=total, completed=len(done), rate="–"
            )
            started = time.monotonic()
            finished = 0

            def progress(game_result: Any) -> None:
                nonlocal finished
                finished += 1
                elapsed = max(1e-9, time.monotonic() - started)
                bar.update(task, advance=1, rate=f"{finished / elapsed:.1f}")
                so_far.append(game_result)
                save_checkpoint()
                log_line(finished, elapsed)

            with _sigterm_as_interrupt():
                result = run_tournament(
                    spec, workers=workers, backend=backend, progress=progress, done=done
                )
    except (RummyError, ValueError) as e:
        raise _fail(str(e)) from None
    console.print(results_table(result))
    if len(set(names)) > 1:
        console.print(tests_table(result))
        for line in verdict_lines(result):
            console.print(line, highlight=False)
        for t in result.tests():
            if t.identical:
                console.print(
                    f"[yellow]{t.a} and {t.b} came out exactly even in every one of "
                    f"{t.deals} deals (wins and score): they very likely play the same moves[/]"
                )
    if result.interrupted:
        console.print(
            f"[yellow]interrupted: {len(result.results)} of {total} games finished and are reported[/]"
        )
    for r in result.errors:
        console.print(f"[red]deal {r.deal} rotation {r.rotation} failed: {r.error}[/]")
    if out is not None:
        write_results(result, out)
        console.print(f"results written to {out}")
    if chart is not None:
        write_chart(result, chart)
        console.print(f"chart written to {chart}")
    if result.errors:
        raise typer.Exit(1)


PositionList = Annotated[
    list[str] | None,
    typer.Option(
        "--position",
        "-p",
        help="A position in notation (docs/positions.md) instead of input lines (repeatable).",
    ),
]


CardLangOption = Annotated[
    str,
    typer.Option(
        "--lang", help="With --pretty, the card letters: en, or de (B, D, K for J, Q, K)."
    ),
]


@app.command()
def solve(
    file: Annotated[
        Path | None,
        typer.Argument(
            help="JSON lines or positions in notation, one per line (default: standard input)."
        ),
    ] = None,
    pretty: Annotated[
        bool, typer.Option("--pretty", help="Text for people, not JSON lines.")
    ] = False,
    position: PositionList = None,
    lang: CardLangOption = "en",
) -> None:
    """Best play for Robbers' Rummy / Rummikub positions: most cards, then value (JSON lines).

    Example line: {"game": "robbers", "table": [["4S","5S","6S","7S"]], "hand": ["3S","4H"]},
    or the same position in notation: robbers | hand 3S 4H | table [4S 5S 6S 7S] | opened 0.
    Exits 1 if any line was answered with an error.
    """
    try:
        _check_lang(lang)
    except RummyError as e:
        raise _fail(str(e)) from None
    stream = None if position else _open_input(file)
    # a small position is answered by the Python core, nothing compiled (CLI_SETTINGS)
    _announce_compile(at_once=False)
    from openrummy.solve.jsonl import CLI_SETTINGS, solve_lines

    if position:
        for out in solve_lines(position, pretty=pretty, lang=lang, settings=CLI_SETTINGS):
            typer.echo(out)
            if out.startswith('{"error"') or ": error: " in out:
                raise typer.Exit(1)
        return
    assert stream is not None
    failed = False
    try:
        for out in solve_lines(stream, pretty=pretty, lang=lang, settings=CLI_SETTINGS):
            failed = failed or out.startswith('{"error"') or ": error: " in out
            typer.echo(out)
    finally:
        if file is not None:
            stream.close()
    if failed:
        raise typer.Exit(1)


@app.command()
def arrange(
    file: Annotated[
        Path | None,
        typer.Argument(
            help="JSON lines or positions in notation, one Indian Rummy hand per line "
            "(default: standard input)."
        ),
    ] = None,
    pretty: Annotated[
        bool, typer.Option("--pretty", help="Text for people, not JSON lines.")
    ] = False,
    position: PositionList = None,
    lang: CardLangOption = "en",
) -> None:
    """Arrange Indian Rummy hands: least deadwood, declaration, best throw (JSON lines).

    Example line: {"game": "indian13", "indicator": "2C", "hand": ["3H", "4H", ...]},
    or a position in notation: indian13 | hand 3H 4H … | indicator 2C.
    Exits 1 if any line was answered with an error.
    """
    try:
        _check_lang(lang)
    except RummyError as e:
        raise _fail(str(e)) from None
    stream = None if position else _open_input(file)
    from openrummy.solve.arrange_jsonl import arrange_lines

    errors: list[int] = []
    if position:
        for out in arrange_lines(position, pretty=pretty, errors=errors, lang=lang):
            typer.echo(out)
        if errors:
            raise typer.Exit(1)
        return
    assert stream is not None
    try:
        for out in arrange_lines(stream, pretty=pretty, errors=errors, lang=lang):
            typer.echo(out)
    finally:
        if file is not None:
            stream.close()
    if errors:
        raise typer.Exit(1)


# The environments' kernels (with the rl extra), compiled in a process of their own beside the
# solver's core: on two cores the whole compile takes the solver's time, not the sum.
_WARM_ENVS = """
try:
    from openrummy.envs import _indian_core, _vector_core
except ImportError:  # no rl extra (MissingExtraError is one too): nothing to compile
    raise SystemExit(0)
_vector_core.warm()
_indian_core.warm()
"""


@app.command()
def warm() -> None:
    """Compile the solver's core now (numba, once after an install: about a minute), so
    that no later solve, game or bot waits for the compiler."""
    import subprocess

    from openrummy.solve import compiled

    if not compiled.available():
        typer.echo(
            "numba is not installed: the solver runs its Python core (the same answers, "
            "more slowly); for the compiled core: pip install 'openrummy[fast]'"
        )
        return
    cold = compiled.likely_cold()
    if cold:
        typer.echo(str(compiled.COMPILING), err=True)
    started = time.perf_counter()
    envs = subprocess.Popen([sys.executable, "-c", _WARM_ENVS])
    try:
        compiled.warm()
    finally:
        status = envs.wait()
    seconds = time.perf_counter() - started
    if status != 0:
        typer.echo(f"the environments' kernels failed to compile (exit {status})", err=True)
        raise typer.Exit(1)
    what = "compiled" if cold else "already compiled; loaded"
    typer.echo(f"the solver's core is {what} ({seconds:.1f} s)")


# -- serve -----------------------------------------------------------------------------------


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL: sqlite+aiosqlite:///PATH or postgresql+asyncpg://USER@HOST/DB "
            "(default: the embedded SQLite database, see docs/server.md).",
        ),
    ] = None,
    log_level: Annotated[
        str, typer.Option("--log-level", help="debug, info, warning or error.")
    ] = "info",
) -> None:
    """Run the game server (REST + WebSocket) and print its URL. Settings: docs/server.md."""
    _require_extra("server", "rummy serve")
    from openrummy.server.app import serve as run_server
    from openrummy.server.settings import Settings

    try:
        settings = Settings.from_env(host=host, port=port, db=db, log_level=log_level)
    except ValueError as e:
        raise _fail(f"bad server setting: {e}") from None
    if not 1 <= settings.port <= 65535:
        raise _fail(f"--port {settings.port}: use a port from 1 to 65535")
    if settings.log_level.lower() not in _LOG_LEVELS:
        raise _fail(f"--log-level {settings.log_level}: use one of {', '.join(_LOG_LEVELS)}")
    problem = _db_url_problem(settings.db)
    if problem:
        raise _fail(f"--db {settings.db}: {problem}")
    run_server(settings)


_LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


def _db_url_problem(url: str) -> str | None:
    """Why SQLAlchemy's asyncio engine cannot use ``url``, or None."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        dialect = make_url(url).get_dialect()
    except ArgumentError as e:
        return f"not a database URL the server can use ({e}); see docs/server.md"
    except ImportError as e:
        extra = " (pip install 'openrummy[postgres]')" if "asyncpg" in str(e) else ""
        return f"its database driver is not installed ({e}){extra}"
    if not getattr(dialect, "is_async", False):
        return "not an asyncio driver: use sqlite+aiosqlite:///PATH or postgresql+asyncpg://…"
    return None


# -- analysis and puzzles (openrummy.cli_analysis) ---------------------------------------------
def _register_analysis() -> None:
    from openrummy.cli_analysis import analyse, puzzles_app

    app.command("analyse")(analyse)
    app.add_typer(puzzles_app, name="puzzles")


_register_analysis()


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``rummy`` console script."""
    app(args=list(argv) if argv is not None else None, prog_name="rummy")


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
