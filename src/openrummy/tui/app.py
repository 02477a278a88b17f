"""The terminal table: ``rummy play`` (Textual).

One app for every family. The person plays seat 0 against bots (or watches bots only), or
takes a seat at a server table; the screens reach the game only through a
:class:`~openrummy.tui.session.Session` (typed views, legal kinds, actions in notation, the
play checker and the hint), a :class:`~openrummy.tui.session.LocalSession` or a
:class:`~openrummy.tui.remote.RemoteSession`, and the judges of :mod:`openrummy.games.judge`,
and word everything through the message catalogue.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, OptionList, RichLog, Static
from textual.worker import Worker, WorkerState, get_current_worker

from openrummy.bots.levels import LEVELS, describe_level, level_kind
from openrummy.cards import Card
from openrummy.events import EventCode
from openrummy.games.actions import Action, ActionKind, Play
from openrummy.games.families import Match
from openrummy.games.judge import TableCheck
from openrummy.games.views import IndianView, ManipulationView
from openrummy.melds import Meld
from openrummy.messages import Reason, render
from openrummy.rules import IndianRules, ManipulationRules
from openrummy.solve.explain import explain

from .indian import IndianHand
from .manip import ManipTurn
from .remote import RemoteSession
from .session import HintJob, LocalSession, Session, Setup
from .text import card_text, clock_text, game_title, monochrome, t

__all__ = ["RummyApp"]


def settle_heap() -> None:
    """Collect the garbage, then leave every object alive now out of later collections
    (``gc.freeze``): done when a table has first been drawn.

    By then the modules, numba's compiled solvers, Textual and the table are loaded, and a
    full collection walks all of them: 100-150 ms of CPU at a time, about once per Indian
    game and inside whichever key's frame it falls. Frozen, later collections walk only
    what the game made since. The collection first keeps garbage of an earlier game from
    staying frozen for good; it walks only what is not frozen yet. The table thaws the heap
    again when it goes (:func:`thaw_heap`).
    """
    gc.collect()
    gc.freeze()


def thaw_heap() -> None:
    """Give the frozen objects back to the collector: a table that goes (a new game, the
    app's end) would otherwise stay in memory for good, being part of reference cycles."""
    gc.unfreeze()


def collect_if_due() -> None:
    """A full collection now, between turns, when one would come soon anyway (after half
    the gen-1 collections that lead to one), rather than inside the person's next key."""
    if gc.get_count()[2] >= gc.get_threshold()[2] // 2:
        gc.collect()


# (key, action, ui key of its description, shown in the footer)
_MANIP_KEYS: tuple[tuple[str, str, str, bool], ...] = (
    ("question_mark,f1", "help", "key.help", True),
    ("space", "select", "key.select", True),
    ("enter", "move_here", "key.move_here", True),
    ("n", "new_meld", "key.new_meld", True),
    ("p", "done", "key.done", True),
    ("d", "draw", "key.draw", True),
    ("h", "hint", "key.hint", True),
    ("a", "apply_hint", "key.apply_hint", True),
    ("u", "undo", "key.undo", True),
    ("r", "reset", "key.reset", True),
    ("e", "end_turn", "key.end_turn", True),
    ("t", "take", "key.take", False),
    ("c", "discard", "key.discard", False),
    ("s", "split", "key.split", True),
    ("j", "join", "key.join", True),
    ("x", "swap", "key.swap", True),
    ("i", "identity", "key.identity", True),
    ("ctrl+s", "save", "key.save", True),
    ("q", "quit_game", "key.quit", True),
)
_INDIAN_KEYS: tuple[tuple[str, str, str, bool], ...] = (
    ("question_mark,f1", "help", "key.help", True),
    ("space", "select", "key.select", True),
    ("d", "draw", "key.draw_stock", True),
    ("t", "take", "key.take", True),
    ("c", "discard", "key.discard", True),
    ("g", "group", "key.group", True),
    ("l", "loosen", "key.loosen", True),
    ("a", "auto", "key.auto", True),
    ("k", "declare", "key.declare", True),
    ("f", "drop", "key.drop", True),
    ("ctrl+s", "save", "key.save", True),
    ("q", "quit_game", "key.quit", True),
)
_CURSOR_KEYS: tuple[tuple[str, str], ...] = (
    ("left", "cursor(0,-1)"),
    ("right", "cursor(0,1)"),
    ("up", "cursor(-1,0)"),
    ("down", "cursor(1,0)"),
    ("escape", "clear"),
)


def same_text(a: Text, b: Text) -> bool:
    """The same characters in the same styles (``Text ==`` leaves out the base style)."""
    return a.plain == b.plain and a.style == b.style and a.spans == b.spans


class Board(Static):
    """Cards drawn as text; a click on a card runs its action (no link colours over the
    cards' own)."""

    auto_links = False
    _shape: tuple[int, int] | None = None
    _shown: Text | None = None

    def show(self, text: Text) -> None:
        """Show ``text``; nothing is redrawn when it is what the board shows already, and
        the screen's layout is redone only when its shape changed (a cursor move or a
        selection only restyles the same lines)."""
        if self._shown is not None and same_text(text, self._shown):
            return
        self._shown = text
        lines = text.plain.split("\n")
        shape = (len(lines), max((len(line) for line in lines), default=0))
        self.update(text, layout=shape != self._shape)
        self._shape = shape


class KeyFooter(Footer):
    """The key bindings, rebuilt only when the keys it shows change.

    Textual's footer rebuilds its 20-odd keys whenever its screen says its bindings were
    updated, which it also says when a dialog closes over an unchanged table: that rebuild
    was most of a dialog's 100-150 ms."""

    _shown_keys: object = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        keys = tuple(
            (b.key, b.description, enabled)
            for _, b, enabled, _tip in screen.active_bindings.values()
            if b.show
        )
        if keys == self._shown_keys and self.children:
            self._bindings_ready = True
            return
        if screen.app.app_focus:  # else Textual leaves the footer as it is, for now
            self._shown_keys = keys
        super().bindings_changed(screen)


class Confirm(ModalScreen[bool]):
    """A yes/no question (y / n / Escape)."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("y", "answer(True)", show=False),
        Binding("n,escape", "answer(False)", show=False),
    ]

    def __init__(self, message: str, lang: str, yes: str = "ui.yes", no: str = "ui.no") -> None:
        super().__init__()
        self.message, self.lang, self.yes, self.no = message, lang, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.message, id="question")
            with Horizontal(classes="buttons"):
                yield Button(t(self.yes, self.lang), id="yes", variant="primary", compact=True)
                yield Button(t(self.no, self.lang), id="no", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class Choose(ModalScreen[int | None]):
    """Pick one of several lines (joker identities, the end of a game's choices)."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape", "cancel", show=False)
    ]

    def __init__(self, title: str, options: list[str]) -> None:
        super().__init__()
        self.title_text, self.options = title, options

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text)
            yield OptionList(*self.options, id="choices")

    def on_mount(self) -> None:
        choices = self.query_one("#choices", OptionList)
        choices.highlighted = 0
        choices.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Help(ModalScreen[None]):
    """Every key of the table and how a turn goes."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,question_mark,f1,q", "close", show=False)
    ]

    def __init__(
        self,
        lang: str,
        keys: tuple[tuple[str, str, str, bool], ...],
        how: str,
        bots: tuple[str, ...] = (),
        *,
        tiles: bool = False,
    ) -> None:
        super().__init__()
        self.lang, self.keys, self.how, self.bots = lang, keys, how, bots
        self.tiles = tiles
        """At a tile table (Rummikub) the help says tile and rack."""

    def words(self, key: str) -> str:
        return t(key, self.lang, tiles=self.tiles)

    def compose(self) -> ComposeResult:
        text = Text()
        text.append(self.words("ui.help_title") + "\n\n", style="bold")
        text.append(self.words(self.how) + "\n\n")
        rows = [*self.keys, ("←→↑↓", "", "key.cursor", True), ("Esc", "", "key.clear", True)]
        for key, _action, desc, _show in rows:
            shown = key.split(",")[0].replace("question_mark", "?")
            text.append(f"  {shown:<8}", style="bold")
            text.append(self.words(desc) + "\n")
        text.append("\n" + self.words("ui.help_mouse") + "\n")
        if self.bots:
            text.append("\n" + self.words("ui.help_bots") + "\n", style="bold")
            for line in self.bots:
                text.append(f"  {line}\n")
        text.append(self.words("ui.help_close"))
        with VerticalScroll(classes="dialog wide"):
            yield Static(text)

    def action_close(self) -> None:
        self.dismiss(None)


class GameScreen(Screen[None]):
    """What every table has: the status lines, the log, the bots' turns, saving, the end."""

    KEYS: ClassVar[tuple[tuple[str, str, str, bool], ...]] = ()
    HOW: ClassVar[str] = ""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.lang = session.lang
        self.mono = self.app_mono()
        self.message: Text = Text()
        self._ended = False
        self._bot_busy = False
        self._lit: dict[str, bool] = {}
        self._labels: dict[str, str] = {}
        self._clock_shown = ""
        for key, action, desc, show in self.KEYS:
            self._bindings.bind(key, action, self.words(desc), show=show)
        for key, action in _CURSOR_KEYS:
            self._bindings.bind(key, action, "", show=False)

    def app_mono(self) -> bool:
        app = self.app
        return isinstance(app, RummyApp) and app.mono

    @property
    def tiles(self) -> bool:
        """Whether the table plays with tiles (Rummikub): its words say tile and rack."""
        return self.session.tiles

    def words(self, key: str, **params: object) -> str:
        """The app's own words for ``key`` in the table's language (their tile forms at a
        tile table)."""
        return t(key, self.lang, tiles=self.tiles, **params)

    @property
    def rummy(self) -> RummyApp:
        app = self.app
        assert isinstance(app, RummyApp)
        return app

    def compose(self) -> ComposeResult:
        yield Board(id="status")
        yield VerticalScroll(Board(id="table"), id="table-box")
        yield Board(id="hand")
        yield Static(id="message")
        yield RichLog(id="log", wrap=True, max_lines=200)
        with Horizontal(id="bar"):
            for ident, key in self.buttons():
                yield Button(self.words(key), id=ident, compact=True)
        yield KeyFooter()

    def buttons(self) -> list[tuple[str, str]]:
        return []

    def enable(self, button: str, on: bool) -> None:
        """Dim a button's label or light it again (only on a change). Its ``disabled`` state
        is left alone: switching it restyles the button through the whole stylesheet, the
        costliest part of a key's frame; a click on a dimmed button is refused with its
        reason like the key."""
        if self._lit.get(button, True) == on:
            return
        self._lit[button] = on
        widget = self.query_one(f"#{button}", Button)
        shown = widget.label
        label = self._labels.setdefault(button, shown if isinstance(shown, str) else shown.plain)
        widget.label = Text(label, style="" if on else "dim")

    def on_unmount(self) -> None:
        thaw_heap()

    def on_mount(self) -> None:
        for line in self.session.log[-20:]:
            self.query_one("#log", RichLog).write(line)
        self.after_change([])
        self.call_after_refresh(settle_heap)
        if self.session.rules.turn.time_limit_s is not None:
            self.set_interval(self.rummy.tick, self.tick)

    # -- the turn timer ------------------------------------------------------------------------
    def clock_part(self) -> Text:
        """The seat to move's time: the turn's own seconds and its time bank (empty without
        a turn timer); ``⏱ 23 s left · bank 30 s ·``."""
        clock = self.session.turn_clock()
        out = Text()
        if clock is None:
            return out
        s = self.session
        if clock.seat != s.human and clock.seat < len(s.names):
            out.append(s.names[clock.seat].split(" (")[0] + ": ")
        style = "" if self.mono else ("red" if clock.left <= 10 else "cyan")
        out.append("⏱ " + self.words("ui.time_left", seconds=clock_text(clock.turn)), style)
        if clock.bank is not None:
            bank = self.words("ui.time_bank", seconds=clock_text(clock.bank))
            out.append(" · " + bank, "" if self.mono or clock.turn > 0 else "yellow")
        out.append(" · ")
        return out

    def tick(self) -> None:
        """The timer's second: the countdown is redrawn (only when its text changed); a
        local game plays the person's turn for them once their time is up, as the server
        does."""
        session = self.session
        if isinstance(session, LocalSession) and not self._bot_busy:
            lines = session.time_out()
            if lines is not None:
                self.log_lines(lines)
                if lines:
                    self.say(lines[-1], "yellow")
                self.after_change(lines)
                return
        shown = self.clock_part().plain
        if shown != self._clock_shown:
            self._clock_shown = shown
            self.refresh_all()

    # -- to override ---------------------------------------------------------------------------
    def load_view(self) -> None: ...

    def refresh_all(self) -> None: ...

    # -- shared --------------------------------------------------------------------------------
    def say(self, text: str, style: str = "") -> None:
        message = Text(text, style="" if self.mono else style)
        if same_text(message, self.message):
            return  # the same line again: nothing to redraw
        self.message = message
        self.query_one("#message", Static).update(self.message, layout=False)

    def log_lines(self, lines: list[str]) -> None:
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(line)

    def act(self, text: str) -> bool:
        """Apply the person's action in notation; illegal ones are said, never applied."""
        accepted, lines = self.session.act(text)
        if not lines:
            if accepted:  # sent to the server: its answer redraws the table
                self.say(self.words("ui.remote_sent"))
            return accepted
        self.log_lines(lines)
        self.say(lines[-1], "green" if accepted else "red")
        self.after_change(lines)
        return True

    def after_change(self, lines: list[str]) -> None:
        self.load_view()
        self.refresh_all()
        if self.session.over:
            self.end_of_game()
        elif self.session.bot_to_move:
            if self.rummy.bot_delay > 0:
                self.set_timer(self.rummy.bot_delay, self.bot_turn)
            else:
                self.call_later(self.bot_turn)

    def bot_turn(self) -> None:
        session = self.session
        if self._bot_busy or not session.bot_to_move or not isinstance(session, LocalSession):
            return
        self._bot_busy = True
        collect_if_due()
        self.bot_thinks(session, session.match.copy())

    @work(thread=True, group="bots")
    def bot_thinks(self, session: LocalSession, match: Match) -> None:
        """A bot chooses off the main thread (the table stays responsive), then plays."""
        seat = match.current
        bot = session.bots[seat]
        assert bot is not None
        action = bot.choose(match.view(seat))
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._play_bot, session, action)

    def _play_bot(self, session: LocalSession, action: Action) -> None:
        self._bot_busy = False
        if not session.bot_to_move:
            return
        lines = session.apply_bot(action)
        self.log_lines(lines)
        self.after_change(lines)

    def standings_text(self) -> str:
        view = self.session.view()
        if view.match is None:
            return ""
        parts = [
            f"{self.session.names[s]} {total}"
            for s, total in enumerate(view.match.totals)
            if s < len(self.session.names)
        ]
        return self.words("ui.totals", totals=" · ".join(parts))

    def end_of_game(self) -> None:
        if self._ended:
            return
        self._ended = True
        over = [e for e in self.session.events if e.code is EventCode.MATCH_OVER]
        text = (
            render(over[-1], self.lang, self.session.names, tiles=self.tiles)
            if over
            else self.words("ui.game_over")
        )
        options = [
            self.words("ui.new_game"),
            self.words("ui.save_record"),
            self.words("ui.quit"),
        ]
        if self.session.remote:
            # The server keeps the record; a new game is a new table (the lobby).
            options = [self.words("ui.quit")]
            text += "\n" + self.words("ui.remote_record", url=self._record_url())

        def chosen(k: int | None) -> None:
            if self.session.remote:
                if k == 0:
                    self.app.exit()
                else:
                    self._ended = False
            elif k == 0:
                self.rummy.new_game()
            elif k == 1:
                self.action_save()
                self._ended = False
                self.end_of_game()
            elif k == 2:
                self.app.exit()
            else:
                self._ended = False

        self.app.push_screen(Choose(f"{text}\n{self.standings_text()}", options), chosen)

    def _record_url(self) -> str:
        session = self.session
        return session.record_url if isinstance(session, RemoteSession) else ""

    def action_help(self) -> None:
        self.app.push_screen(
            Help(self.lang, self.KEYS, self.HOW, self.bot_levels(), tiles=self.tiles)
        )

    def bot_levels(self) -> tuple[str, ...]:
        """What each bot of a local game plays like, for the bots chosen by level."""
        session = self.session
        if not isinstance(session, LocalSession):
            return ()
        kind = level_kind(session.rules)
        return tuple(
            f"{session.names[seat]}: {describe_level(level, kind, self.lang)}"
            for seat, level in enumerate(session.kinds)
            if level in LEVELS
        )

    def action_save(self) -> None:
        path = self.rummy.save_path
        if self.session.remote:
            self.say(self.words("ui.remote_record", url=self._record_url()), "yellow")
            return
        try:
            self.session.save(path)
        except OSError as e:
            self.say(self.words("ui.save_failed", path=str(path), reason=str(e)), "red")
            return
        self.say(self.words("ui.saved", path=str(path)), "green")

    def action_quit_game(self) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self.app.exit()

        self.app.push_screen(Confirm(self.words("ui.quit_confirm"), self.lang), answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id:
            self.action_do(event.button.id.removeprefix("b-"))

    def action_do(self, name: str) -> None:
        method: Callable[[], None] | None = getattr(self, f"action_{name}", None)
        if method is not None:
            method()


class ManipScreen(GameScreen):
    """Robbers' Rummy, Rummikub, Vatikan: take the table apart and put it together again."""

    KEYS = _MANIP_KEYS
    HOW = "ui.how_manip"

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        assert isinstance(session.rules, ManipulationRules)
        self.turn = ManipTurn(session.rules, self.lang)
        self.row = -1
        """The cursor's row: -1 the hand, else the index of a table meld."""
        self.col = 0
        self._last_table: tuple[Meld, ...] | None = None
        self._seen_key: object = None
        self.hint: tuple[Play, list[str]] | None = None
        """The solver's play and its steps, while shown."""

    def buttons(self) -> list[tuple[str, str]]:
        return [
            ("b-done", "ui.done"),
            ("b-draw", "ui.draw"),
            ("b-hint", "ui.hint"),
            ("b-undo", "ui.undo"),
            ("b-reset", "ui.reset"),
            ("b-new_meld", "ui.new_meld"),
            ("b-help", "ui.help"),
        ]

    @property
    def view(self) -> ManipulationView:
        v = self.session.view()
        assert isinstance(v, ManipulationView)
        return v

    def load_view(self) -> None:
        v = self.view
        key = (tuple(map(str, v.table)), v.hand, v.current, v.phase, v.match and v.match.round)
        if key == self._seen_key:
            return
        self._seen_key = key
        self.hint = None
        # Melds the others made or changed since the person last moved are marked.
        self.turn.load(v, self._last_table if self.session.my_turn else None)
        mine = v.last is not None and v.last.seat == self.session.human
        if mine or self._last_table is None or self.session.human is None:
            self._last_table = v.table
        self._clamp()

    @property
    def can_play(self) -> bool:
        return ActionKind.PLAY in self.session.legal()

    def _rows(self) -> list[list[str]]:
        return [[it.id for it in self.turn.hand]] + [
            [it.id for it in m.items] for m in self.turn.melds
        ]

    def _clamp(self) -> None:
        rows = self._rows()
        self.row = max(-1, min(self.row, len(rows) - 2))
        size = len(rows[self.row + 1])
        self.col = max(0, min(self.col, size - 1))

    def cursor_id(self) -> str | None:
        row = self._rows()[self.row + 1]
        return row[self.col] if row else None

    def cursor_meld(self) -> str | None:
        return self.turn.melds[self.row].id if self.row >= 0 and self.turn.melds else None

    # -- drawing -------------------------------------------------------------------------------
    def refresh_all(self) -> None:
        v = self.view
        check = self._current_check()
        self.query_one("#status", Board).show(self.status_text(v, check))
        self.query_one("#table", Board).show(self.table_text(check))
        self.query_one("#hand", Board).show(self.hand_text())
        for ident, kind in (("b-done", ActionKind.PLAY), ("b-draw", ActionKind.DRAW)):
            self.enable(ident, kind in self.session.legal())

    def status_text(self, v: ManipulationView, check: TableCheck | None) -> Text:
        s = self.session
        text = Text()
        text.append(game_title(s.rules.name, s.rules.title, self.lang) + " ", style="bold")
        if v.match is not None:
            text.append(self.words("ui.round", n=v.match.round + 1) + " · ")
        if s.over:
            text.append(self.words("ui.game_over"))
        elif s.my_turn:
            text.append(self.words("ui.your_turn"), style="bold green" if not self.mono else "bold")
        else:
            text.append(self.words("ui.turn_of", name=s.names[v.current]))
        text.append(" · " + self.words("ui.stock", n=v.stock))
        if v.discard_top is not None:
            text.append(" · " + self.words("ui.discard_top") + ": ")
            text.append_text(card_text(v.discard_top, self.lang, mono=self.mono))
        others = [
            f"{s.names[i].split(' (')[0]}: {n}"
            for i, n in enumerate(v.hand_sizes)
            if n is not None and i != s.human
        ]
        text.append(" · " + self.words("ui.cards_left", hands=", ".join(others)))
        if check is not None and check.opening.required:
            op = check.opening
            if op.type == "RUN_FROM_HAND":
                meter = self.words("ui.opening_run", n=op.run_length)
            else:
                meter = self.words("ui.opening_meter", value=op.value, threshold=op.threshold)
            mark = "✓" if op.met else "…"
            text.append("\n")
            text.append_text(self.clock_part())
            text.append(meter + " " + mark, style="green" if op.met and not self.mono else "")
        else:
            text.append("\n")
            text.append_text(self.clock_part())
            text.append(self.standings_text())
        return text

    def table_text(self, check: TableCheck | None) -> Text:
        width = max(20, self.size.width - 4)
        out = Text()
        if self.hint is not None:
            out.append(self.words("ui.hint_title") + "\n", style="bold")
            for step in self.hint[1]:
                out.append(step + "\n", style="" if self.mono else "green")
        line_len = 0
        problems: list[Text] = []
        cur = self.cursor_id()
        for k, m in enumerate(self.turn.melds):
            label = f"{k + 1}"
            seg = Text(label, style="bold reverse" if self.row == k else "bold")
            seg.stylize(Style(meta={"@click": f"screen.drop_to('{m.id}')"}))
            seg.append(":")
            for it, mi in zip(m.items, self.turn.meld_items(m), strict=True):
                seg.append_text(
                    card_text(
                        mi,
                        self.lang,
                        mono=self.mono,
                        selected=it.id in self.turn.selected,
                        cursor=it.id == cur,
                        click=f"screen.tap('{it.id}')",
                    )
                )
            mc = check.melds[k] if check is not None and k < len(check.melds) else None
            fresh = m.id in self.turn.fresh_melds and not self.turn.dirty
            if mc is not None:
                seg.append(
                    " ✓" if mc.valid else " ✗",
                    style="" if self.mono else ("green" if mc.valid else "red"),
                )
                if not mc.valid:
                    reason = (
                        render(mc.problem, self.lang, tiles=self.tiles)
                        if mc.problem
                        else (mc.reason or "")
                    )
                    problems.append(Text(f"✗{k + 1}: {reason}"))
            if fresh:
                seg.append(" ★", style="" if self.mono else "yellow")
            seg.append("  ")
            if line_len and line_len + seg.cell_len > width:
                out.append("\n")
                line_len = 0
            out.append_text(seg)
            line_len += seg.cell_len
        if line_len:
            out.append("\n")
        new = Text(self.words("ui.new_meld_target"), style="bold" if self.mono else "bold cyan")
        new.stylize(Style(meta={"@click": "screen.drop_to('new')"}))
        out.append_text(new)
        if not self.turn.melds:
            out.append("  " + self.words("ui.table_empty"))
        for p in problems:
            out.append("\n")
            out.append_text(p)
        return out

    def hand_text(self) -> Text:
        out = Text()
        head = Text(self.words("ui.hand"), style="bold reverse" if self.row == -1 else "bold")
        head.stylize(Style(meta={"@click": "screen.drop_to('hand')"}))
        out.append_text(head)
        out.append(": ")
        cur = self.cursor_id()
        for it in self.turn.hand:
            out.append_text(
                card_text(
                    it.card,
                    self.lang,
                    mono=self.mono,
                    selected=it.id in self.turn.selected,
                    cursor=it.id == cur and self.row == -1,
                    click=f"screen.tap('{it.id}')",
                )
            )
        if self.session.human is None:
            out.append(self.words("ui.watching"))
        return out

    # -- keys and clicks -----------------------------------------------------------------------
    def _not_playing(self) -> bool:
        """Say so and return True when the turn cannot be built now."""
        if self.can_play:
            return False
        self.say(self.words("ui.not_your_turn"), "yellow")
        return True

    def changed(self) -> None:
        self._clamp()
        self.refresh_all()

    def action_cursor(self, drow: int, dcol: int) -> None:
        rows = self._rows()
        if drow:
            # Top to bottom: the table's melds, then the hand (row -1).
            order = [*range(len(rows) - 1), -1]
            at = order.index(self.row) + drow
            self.row = order[max(0, min(at, len(order) - 1))]
            self.col = min(self.col, max(0, len(self._rows()[self.row + 1]) - 1))
        else:
            size = len(rows[self.row + 1])
            self.col = (self.col + dcol) % size if size else 0
        self.changed()

    def action_clear(self) -> None:
        self.turn.selected.clear()
        self.hint = None
        self.changed()

    def action_select(self) -> None:
        cid = self.cursor_id()
        if cid is not None:
            self.turn.toggle(cid)
        self.changed()

    def action_tap(self, item_id: str) -> None:
        """A click on a card: select it (and put the cursor on it)."""
        self.turn.toggle(item_id)
        for r, row in enumerate(self._rows()):
            if item_id in row:
                self.row, self.col = r - 1, row.index(item_id)
        self.changed()

    def action_drop_to(self, target: str) -> None:
        """A click on a meld's number, the hand or ``new meld``: the selection goes there."""
        if not self.turn.selected:
            if target.startswith(("m", "n")) and target != "new":
                ids = [m.id for m in self.turn.melds]
                if target in ids:
                    self.row, self.col = ids.index(target), 0
            elif target == "hand":
                self.row = -1
            self.changed()
            return
        self._move(target)

    def _move(self, target: str) -> None:
        if not self.can_play:
            self.say(self.words("ui.not_your_turn"), "yellow")
            return
        problem = self.turn.move(sorted(self.turn.selected, key=self._order_key), target)
        if problem:
            self.say(self.words(problem), "yellow")
        else:
            self.say("")
        self.changed()

    def _order_key(self, item_id: str) -> tuple[int, int]:
        for r, row in enumerate(self._rows()):
            if item_id in row:
                return (r, row.index(item_id))
        return (0, 0)

    def action_move_here(self) -> None:
        if not self.turn.selected:
            self.action_select()
            return
        self._move(self.cursor_meld() or "hand")

    def action_new_meld(self) -> None:
        if self._not_playing():
            return
        self._move("new")

    def action_split(self) -> None:
        if self._not_playing():
            return
        meld = self.cursor_meld()
        if meld is None or not self.turn.split(meld, self.col):
            self.say(self.words("ui.split_how"), "yellow")
        self.changed()

    def action_join(self) -> None:
        if self._not_playing():
            return
        meld = self.cursor_meld()
        if meld is None or not self.turn.join(meld):
            self.say(self.words("ui.join_how"), "yellow")
        self.changed()

    def action_swap(self) -> None:
        if self._not_playing():
            return
        cid = self.cursor_id()
        if len(self.turn.selected) != 1 or cid is None:
            self.say(self.words("ui.swap_pick"), "yellow")
            return
        natural = next(iter(self.turn.selected))
        problem = self.turn.swap(natural, cid)
        if problem:
            self.say(self.words(problem), "yellow")
        else:
            self.say(self.words("ui.swapped"), "green")
        self.changed()

    def action_identity(self) -> None:
        if self._not_playing():
            return
        meld = self.cursor_meld()
        check = self._current_check()
        if meld is None or check is None:
            self.say(self.words("ui.identity_how"), "yellow")
            return
        mc = check.melds[self.row]
        if not mc.choices:
            self.say(self.words("ui.identity_none"), "yellow")
            return
        choices = list(mc.choices)

        def chosen(k: int | None) -> None:
            if k is not None:
                self.turn.choose_identity(meld, choices[k])
            self.changed()

        self.app.push_screen(
            Choose(self.words("ui.identity_title"), [m.pretty(self.lang) for m in choices]),
            chosen,
        )

    def _current_check(self) -> TableCheck | None:
        """The engine's judgement of the turn being built (``None`` when not playing)."""
        v = self.view
        if not (self.session.my_turn and self.can_play):
            return None
        checker = self.session.play_checker()
        opened = bool(v.opened[self.session.human or 0])
        if checker is None:
            return self.turn.check(opened=opened)
        return self.turn.check(opened=opened, game=checker[0], seat=checker[1])

    def action_undo(self) -> None:
        if self._not_playing():
            return
        if not self.turn.undo():
            self.say(self.words("ui.nothing_to_undo"), "yellow")
        self.changed()

    def action_reset(self) -> None:
        if self._not_playing():
            return
        self.turn.reset()
        self.say(self.words("ui.turn_reset"))
        self.changed()

    def action_done(self) -> None:
        if self._not_playing():
            return
        if not self.turn.dirty:
            self.say(self.words("ui.nothing_placed"), "yellow")
            return
        check = self._current_check()
        if check is not None and not check.ok:
            reasons = [render(v.why, self.lang, tiles=self.tiles) for v in check.violations] or [
                render(mc.problem, self.lang, tiles=self.tiles) if mc.problem else (mc.reason or "")
                for mc in check.melds
                if not mc.valid
            ]
            if check.notation_error:
                reasons.append(check.notation_error)
            question = self.words("ui.will_fail", reasons="; ".join(reasons))

            def answer(yes: bool | None) -> None:
                if yes:
                    self.act(self.turn.play_text())

            self.app.push_screen(Confirm(question, self.lang), answer)
            return
        self.act(self.turn.play_text())

    def action_draw(self) -> None:
        legal = self.session.legal()
        word = "draw" if ActionKind.DRAW in legal else "pass"
        if self.turn.dirty:
            self.turn.reset()
        self.act(word)

    def action_end_turn(self) -> None:
        self.act("end")

    def action_take(self) -> None:
        """Take the discard pile's top card (games played with a discard pile)."""
        self.act("take")

    def action_discard(self) -> None:
        """Discard the one selected hand card, or the hand card at the cursor."""
        cursor = self.cursor_id() if self.row == -1 else None
        ids = list(self.turn.selected) or ([cursor] if cursor else [])
        found = self.turn.find(ids[0]) if len(ids) == 1 else None
        if found is None or found[1] is not None:
            self.say(self.words("ui.nothing_selected"), "yellow")
            return
        self.act(f"discard {found[0].card}")

    def action_hint(self) -> None:
        if self._not_playing():
            return
        self.say(self.words("ui.thinking"))
        self.find_hint(self.session.hint_job(), self._seen_key)

    @work(thread=True, exclusive=True, group="hint")
    def find_hint(self, job: HintJob, key: object) -> None:
        """The solver works on a copy of the position, off the main thread."""
        play = job()
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_hint, play, key)

    def show_hint(self, play: Action | None, key: object) -> None:
        if key != self._seen_key or not self.can_play:
            return  # the game moved on while the solver thought
        if not isinstance(play, Play):
            self.say(self.words("ui.no_hint"), "yellow")
            return
        rules = self.session.rules
        assert isinstance(rules, ManipulationRules)
        steps = explain(
            self.view.table, play.table, lang=self.lang, rules=rules.meld_rules, tiles=self.tiles
        )
        # Shown above the table (no dialog: a screen of its own costs more than the hint).
        self.hint = (play, steps)
        self.say(self.words("ui.hint_keys"), "green")
        self.refresh_all()

    def action_apply_hint(self) -> None:
        if self._not_playing():
            return
        if self.hint is None:
            self.say(self.words("ui.hint_first"), "yellow")
            return
        self.turn.apply_play(self.hint[0])
        self.hint = None
        self.say(self.words("ui.hint_applied"), "green")
        self.changed()


class IndianScreen(GameScreen):
    """Indian Rummy: groups, deadwood, draw, discard, drop and declare."""

    KEYS = _INDIAN_KEYS
    HOW = "ui.how_indian"

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        assert isinstance(session.rules, IndianRules)
        self.hand = IndianHand(session.rules)
        self.col = 0
        self._seen: object = None

    def buttons(self) -> list[tuple[str, str]]:
        return [
            ("b-draw", "ui.draw_stock"),
            ("b-take", "ui.take"),
            ("b-discard", "ui.discard"),
            ("b-group", "ui.group"),
            ("b-auto", "ui.auto"),
            ("b-declare", "ui.declare"),
            ("b-drop", "ui.drop"),
            ("b-help", "ui.help"),
        ]

    @property
    def view(self) -> IndianView:
        v = self.session.view()
        assert isinstance(v, IndianView)
        return v

    def load_view(self) -> None:
        v = self.view
        key = (v.hand, v.match and v.match.round)
        if key != self._seen:
            self._seen = key
            if v.hand is not None:
                self.hand.load(v)
            else:
                self.hand.indicator = v.indicator
        self.col = max(0, min(self.col, len(self.hand.cards()) - 1))

    def cursor_card(self) -> str | None:
        cards = self.hand.cards()
        return cards[self.col].id if cards else None

    def refresh_all(self) -> None:
        v = self.view
        self.query_one("#status", Board).show(self.status_text(v))
        self.query_one("#table", Board).show(self.pile_text(v))
        self.query_one("#hand", Board).show(self.hand_text(v))
        legal = self.session.legal()
        for ident, kind in (
            ("b-draw", ActionKind.DRAW),
            ("b-take", ActionKind.TAKE),
            ("b-discard", ActionKind.DISCARD),
            ("b-declare", ActionKind.DECLARE),
            ("b-drop", ActionKind.DROP),
        ):
            self.enable(ident, kind in legal)

    def status_text(self, v: IndianView) -> Text:
        s = self.session
        text = Text()
        text.append(game_title(s.rules.name, s.rules.title, self.lang) + " ", style="bold")
        if v.match is not None:
            text.append(self.words("ui.deal", n=v.match.round + 1) + " · ")
        if s.over:
            text.append(self.words("ui.game_over"))
        elif s.my_turn:
            text.append(self.words("ui.your_turn"), style="bold" if self.mono else "bold green")
        else:
            text.append(self.words("ui.turn_of", name=s.names[v.current]))
        text.append(" · " + self.words("ui.stock", n=v.stock))
        text.append("\n")
        text.append_text(self.clock_part())
        text.append(self.standings_text())
        if v.match is not None and v.match.pool_threshold is not None:
            text.append(" · " + self.words("ui.pool", threshold=v.match.pool_threshold))
        return text

    def pile_text(self, v: IndianView) -> Text:
        out = Text()
        out.append(self.words("ui.indicator") + ": ")
        out.append_text(card_text(v.indicator, self.lang, mono=self.mono))
        out.append("   " + self.words("ui.discard_top") + ": ")
        top = v.discard_top
        if top is not None:
            out.append_text(card_text(top, self.lang, mono=self.mono, click="screen.do('take')"))
        else:
            out.append("—")
        stock = Text("  [" + self.words("ui.draw_stock") + "]", style="bold")
        stock.stylize(Style(meta={"@click": "screen.do('draw')"}))
        out.append_text(stock)
        s = self.session
        for i, status in enumerate(v.statuses):
            if status is not None and i != s.human:
                size = v.hand_sizes[i]
                state = self.words(f"status.{status.value}")
                out.append(f"\n{s.names[i]}: {size} · {state}")
        return out

    def hand_text(self, v: IndianView) -> Text:
        out = Text()
        if v.hand is None:
            return Text(self.words("ui.watching"))
        judged = self.hand.judge()
        cur = self.cursor_card()
        for g, (group, check) in enumerate(zip(self.hand.groups, judged.groups, strict=True)):
            out.append(f"G{g + 1}:", style="bold")
            for hc in group:
                out.append_text(self._card(hc.id, hc.card, cur))
            mark = self.words(f"kind.{check.kind}") if check.valid and check.kind else "✗"
            out.append(
                f" {mark}   ", style="" if self.mono else ("green" if check.valid else "red")
            )
        if self.hand.groups:
            out.append("\n")
        head = Text(self.words("ui.loose") + ":", style="bold")
        head.stylize(Style(meta={"@click": "screen.do('loosen')"}))
        out.append_text(head)
        for hc in self.hand.loose:
            out.append_text(self._card(hc.id, hc.card, cur))
        dw = judged.deadwood
        out.append("\n" + self.words("ui.deadwood", points=dw.points))
        if v.current == self.session.human and ActionKind.DROP in self.session.legal():
            first, middle = self.session.rules.drop_values()  # type: ignore[union-attr]
            seat = self.session.human or 0
            cost = first if not v.draws[seat] else middle
            out.append(" · " + self.words("ui.drop_cost", points=cost))
        return out

    def _card(self, card_id: str, card: Card, cur: str | None) -> Text:
        return card_text(
            card,
            self.lang,
            mono=self.mono,
            selected=card_id in self.hand.selected,
            cursor=card_id == cur,
            click=f"screen.tap('{card_id}')",
        )

    # -- keys ----------------------------------------------------------------------------------
    def changed(self) -> None:
        self.col = max(0, min(self.col, len(self.hand.cards()) - 1))
        self.refresh_all()

    def action_cursor(self, drow: int, dcol: int) -> None:
        size = len(self.hand.cards())
        if size:
            self.col = (self.col + dcol + drow * 5) % size
        self.changed()

    def action_clear(self) -> None:
        self.hand.selected.clear()
        self.changed()

    def action_select(self) -> None:
        cid = self.cursor_card()
        if cid is not None:
            self.hand.toggle(cid)
        self.changed()

    def action_tap(self, card_id: str) -> None:
        self.hand.toggle(card_id)
        ids = [hc.id for hc in self.hand.cards()]
        if card_id in ids:
            self.col = ids.index(card_id)
        self.changed()

    def action_group(self) -> None:
        if not self.hand.group_selected():
            self.say(self.words("ui.nothing_selected"), "yellow")
        self.changed()

    def action_loosen(self) -> None:
        cursor = self.cursor_card()
        ids = set(self.hand.selected) or ({cursor} if cursor else set())
        self.hand.ungroup(ids)
        self.changed()

    def action_auto(self) -> None:
        judged = self.hand.judge(auto=True)
        if not self.hand.auto_arrange(judged):
            self.say(self.words("ui.auto_none"), "yellow")
        else:
            auto = judged.auto
            if auto is not None and auto.discard is not None:
                ids = [hc.id for hc in self.hand.cards() if hc.card == auto.discard]
                key = "ui.auto_declare" if auto.declare else "ui.auto_discard"
                self.say(self.words(key, card=auto.discard.pretty(self.lang)), "green")
                if ids:
                    self.col = [hc.id for hc in self.hand.cards()].index(ids[-1])
        self.changed()

    def action_draw(self) -> None:
        self.act("draw")

    def action_take(self) -> None:
        self.act("take")

    def _chosen_card(self) -> str | None:
        if len(self.hand.selected) == 1:
            return next(iter(self.hand.selected))
        return self.cursor_card()

    def action_discard(self) -> None:
        cid = self._chosen_card()
        hc = self.hand.find(cid) if cid else None
        if hc is None:
            self.say(self.words("ui.nothing_selected"), "yellow")
            return
        self.act(f"discard {hc.card}")

    def action_declare(self) -> None:
        if ActionKind.DECLARE not in self.session.legal():
            self.say(self.words("ui.not_now"), "yellow")
            return
        cid = self._chosen_card()
        hc = self.hand.find(cid) if cid else None
        if hc is None:
            self.say(self.words("ui.nothing_selected"), "yellow")
            return
        verdict = self.hand.judge(finish=hc.card).declaration
        text = self.hand.declare_text(hc)
        if verdict is not None and verdict.valid:
            question = self.words("ui.declare_ok", card=hc.card.pretty(self.lang))
        else:
            reason = ""
            if verdict is not None:
                reason = (
                    render(verdict.problem, self.lang, tiles=self.tiles)
                    if isinstance(verdict.problem, Reason)
                    else (verdict.reason or "")
                )
            question = self.words("ui.declare_bad", card=hc.card.pretty(self.lang), reason=reason)

        def answer(yes: bool | None) -> None:
            if yes:
                self.act(text)

        self.app.push_screen(Confirm(question, self.lang), answer)

    def action_drop(self) -> None:
        if ActionKind.DROP not in self.session.legal():
            self.say(self.words("ui.not_now"), "yellow")
            return
        v = self.view
        first, middle = self.session.rules.drop_values()  # type: ignore[union-attr]
        cost = first if not v.draws[self.session.human or 0] else middle

        def answer(yes: bool | None) -> None:
            if yes:
                self.act("drop")

        self.app.push_screen(Confirm(self.words("ui.drop_confirm", points=cost), self.lang), answer)


class Connecting(Screen[None]):
    """A server table before its first view: connecting, waiting for players, or why not."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = []

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self._bindings.bind("q", "app.quit", t("key.quit", lang))
        self.failed = False
        self.state = Text()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(t("ui.remote_title", self.lang), style="bold"))
            yield Static(self.state, id="state")
        yield KeyFooter()

    def show(self, text: str, style: str, *, failed: bool = False) -> None:
        """The connection's state (or why the table cannot be played, and what to do)."""
        if self.failed and not failed:
            return  # a refusal stays on screen until the person quits
        self.failed = self.failed or failed
        if failed:
            text += "\n\n" + t("ui.remote_quit", self.lang)
        self.state = Text(text, style="" if self.app_mono() else style)
        for widget in self.query("#state").results(Static):  # none before it is composed
            widget.update(self.state)

    def app_mono(self) -> bool:
        app = self.app
        return isinstance(app, RummyApp) and app.mono


class RummyApp(App[None]):
    """``rummy play``: a local table against bots, or bots only (``watch``)."""

    ENABLE_COMMAND_PALETTE = False

    CSS = """
    Screen { layout: vertical; }
    #status { height: 2; padding: 0 1; }
    #table-box { height: 1fr; min-height: 5; border: round $primary-darken-2; }
    #table { padding: 0 1; }
    #hand { height: auto; min-height: 2; max-height: 6; overflow-y: auto; padding: 0 1; border-top: solid $primary; }
    #message { height: 1; padding: 0 1; }
    #log { height: 3; padding: 0 1; }
    #bar { height: 1; }
    #bar Button { width: auto; min-width: 0; margin: 0 1 0 0; }
    #log { scrollbar-size-vertical: 1; }
    .dialog { width: 70; max-width: 95%; height: auto; max-height: 90%;
              border: thick $accent; background: $surface; padding: 1 2; align: center middle; }
    .wide { width: 90; }
    Confirm, Choose, Help, Connecting { align: center middle; }
    .buttons { height: 1; margin-top: 1; }
    .buttons Button { margin-right: 2; }
    """

    def __init__(
        self,
        setup: Setup | None = None,
        *,
        lang: str = "en",
        session: LocalSession | RemoteSession | None = None,
        save_path: Path | None = None,
        bot_delay: float = 0.4,
        mono: bool = False,
        tick: float = 0.25,
    ) -> None:
        mono = mono or monochrome()  # Textual takes NO_COLOR out of the environment
        super().__init__()
        self.lang = lang
        self.remote: RemoteSession | None = None
        if isinstance(session, RemoteSession):
            self.remote = session
            session.listener = self
            self.setup = setup or Setup()
            self.game: Session = session
        else:
            self.setup = setup or (session.setup if session is not None else Setup())
            self.game = session or LocalSession(self.setup, lang)
        self.save_path = save_path or Path("rummy-game.json")
        self.bot_delay = bot_delay
        self.tick = tick
        """Seconds between two looks at the turn timer (games with one)."""
        self.mono = mono or self.no_color
        self.games = 0

    @property
    def session(self) -> LocalSession:
        """The local game (:class:`LookupError` at a server table: see :attr:`remote`)."""
        if not isinstance(self.game, LocalSession):
            raise LookupError("a server table has no local session")
        return self.game

    def on_mount(self) -> None:
        self.title = "OpenRummy"
        if self.remote is None:
            self.push_screen(self._screen())
            return
        self.push_screen(Connecting(self.lang))
        self.run_worker(self.remote.run(), group="remote", exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The connection's loop failed in a way it does not know: say so, no traceback."""
        if event.worker.group == "remote" and event.state is WorkerState.ERROR:
            self.remote_failed(t("ui.remote_failed", self.lang, reason=event.worker.error))

    async def on_unmount(self) -> None:
        if self.remote is not None:
            await self.remote.close()

    def _screen(self) -> GameScreen:
        if self.game.is_indian:
            return IndianScreen(self.game)
        return ManipScreen(self.game)

    # -- a server table (the remote session's listener) ----------------------------------------
    def remote_view(self, lines: list[str], accepted: bool | None) -> None:
        if self.remote is None or not self.remote.ready:
            return
        if isinstance(self.screen, Connecting):
            self.switch_screen(self._screen())
            return  # the new table draws itself when mounted
        try:
            table = self.table
        except LookupError:
            return
        if lines:
            table.log_lines(lines)
            if accepted is not None:
                table.say(lines[-1], "green" if accepted else "red")
        table.after_change(lines)

    def remote_state(self, text: str, style: str) -> None:
        screen = self.screen
        if isinstance(screen, Connecting):
            screen.show(text, style)
            return
        try:
            table = self.table
        except LookupError:
            return
        table.say(text, style)
        if text:
            table.log_lines([text])

    def remote_failed(self, text: str) -> None:
        screen = self.screen
        if isinstance(screen, Connecting):
            screen.show(text, "red", failed=True)
            return
        try:
            table = self.table
        except LookupError:
            return
        table.say(text, "red")
        table.log_lines([text])

    @property
    def table(self) -> GameScreen:
        screen = self.screen
        if isinstance(screen, GameScreen):
            return screen
        for s in reversed(self.screen_stack):
            if isinstance(s, GameScreen):
                return s
        raise LookupError("no table")

    def new_game(self) -> None:
        """A new match with the same seats and the next seed."""
        self.games += 1
        setup = self.session.setup
        setup_clock = self.session.clock
        from dataclasses import replace

        self.setup = replace(setup, seed=setup.seed + 1)
        self.game = LocalSession(self.setup, self.lang, clock=setup_clock)
        self.switch_screen(self._screen())
