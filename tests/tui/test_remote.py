"""The terminal table at a server table (``rummy play --server URL --table ID``): a real
``rummy serve`` on loopback, the person's seat played by keys (Pilot), the other seat the
server's bot; a dropped connection comes back; a wrong token, an unknown table and an
unreachable server are messages in the app."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from typer.testing import CliRunner

from helpers.server import HANG_GUARD, Process, free_port
from openrummy.cli import app as cli
from openrummy.errors import RummyError
from openrummy.tui import RummyApp
from openrummy.tui.app import Choose, Confirm, Connecting, GameScreen, IndianScreen, ManipScreen
from openrummy.tui.remote import RemoteSession, Target, parse_target
from openrummy.tui.text import t

SIZE = (80, 24)
OPTIONS = {"match.format": "SINGLE_ROUND"}


async def until(pilot: Pilot[None], done: Callable[[], bool], what: str) -> None:
    """Let the app run until ``done()`` (the timeout only guards against hangs)."""
    try:
        async with asyncio.timeout(HANG_GUARD):
            while not done():
                await pilot.pause(0.02)
    except TimeoutError:
        raise AssertionError(f"waited in vain for {what}") from None


def moved_on(remote: RemoteSession, seq: int) -> Callable[[], bool]:
    return lambda: remote.seq > seq


def hinting(app: RummyApp) -> bool:
    return any(w.group == "hint" and not w.is_finished for w in app.workers)


def message(app: RummyApp) -> str:
    screen = app.screen
    if isinstance(screen, Connecting):
        return screen.state.plain
    assert isinstance(screen, GameScreen)
    return screen.message.plain


async def rummikub_table(server: Process) -> tuple[str, str]:
    """A started 2-seat Rummikub table: a person's seat (its token) and a bot."""
    made = await server.create(
        preset="rummikub", options=OPTIONS, seats=[{}, {"kind": "bot", "bot": "simple"}]
    )
    tid = made["table"]["id"]
    joined = await server.join(tid, "Ann")
    await server.start_table(tid, made["creator_token"])
    return tid, str(joined["token"])


async def refused(target: Target, token: str | None) -> tuple[str, bool]:
    """What the app shows for a table it cannot play, and whether it left the app running."""
    remote = RemoteSession(target, token=token, backoff=(0.05,))
    app = RummyApp(session=remote)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: remote.closed or len(remote.said) > 2, "a refusal")
        await pilot.pause()
        assert isinstance(app.screen, Connecting)
        return message(app), app.is_running


def test_a_server_table_played_by_keys_with_a_drop(tmp_path: Path) -> None:
    asyncio.run(play_by_keys(tmp_path))


async def play_by_keys(tmp_path: Path) -> None:
    server = Process(f"sqlite+aiosqlite:///{tmp_path / 'tui.sqlite3'}", log=tmp_path / "s.log")
    await server.start()
    try:
        tid, token = await rummikub_table(server)
        target = parse_target(None, None, f"{server.url}/#/t/{tid}")
        assert target == Target(server.url, tid) == parse_target(server.url + "/", tid, None)
        remote = RemoteSession(target, token=token, backoff=(0.05,))
        app = RummyApp(session=remote)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ManipScreen), "the table")
            screen = app.screen
            assert isinstance(screen, ManipScreen)
            assert remote.seat == 0 and remote.names[0] == "Ann"
            played: list[str] = []
            for turn in range(2):
                await until(pilot, lambda: remote.my_turn, "my turn")
                seq = remote.seq
                if turn == 1:
                    # The connection drops: the app says so, reconnects, and plays on.
                    remote.drop()
                    await until(pilot, lambda: remote.connections == 2, "the reconnection")
                    lost = t("ui.remote_lost", "en", server=server.url, seconds="0.05")
                    assert lost in remote.said
                    assert message(app) == t("ui.remote_back", "en")
                # Hint: play it when the solver finds one, else draw.
                await pilot.press("h")
                await until(pilot, lambda: not hinting(app), "the hint")
                await pilot.pause()
                if screen.hint is not None:
                    await pilot.press("a", "p")
                    played.append("play")
                else:
                    await pilot.press("d")
                    played.append("draw")
                await until(pilot, moved_on(remote, seq), "the server's answer")
            # A play that breaks the rules is shown with its reasons before anything is sent.
            await until(pilot, lambda: remote.my_turn, "my turn")
            seq = remote.seq
            await pilot.press("space", "n", "p")
            assert isinstance(app.screen, Confirm)
            assert "✗" in screen.table_text(screen._current_check()).plain
            await pilot.press("n")
            await pilot.pause(0.2)
            assert remote.seq == seq and not isinstance(app.screen, Confirm)
        log = (await server.http.get(f"/api/tables/{tid}/log")).json()
        mine = [e["action"].split()[0] for e in log if e["seat"] == 0]
        assert mine == played
        seats = [e["seat"] for e in log]
        assert all(a != b for a, b in itertools.pairwise(seats))  # the bot in between
        assert seats.count(1) >= 2

        # A wrong token and an unknown table are messages that say what to do.
        text, running = await refused(target, "not-a-token")
        assert text.startswith(t("ui.remote_bad_token", "en", reason="")[:20]) and running
        assert "--token" in text and t("ui.remote_quit", "en") in text
        text, running = await refused(Target(server.url, "nosuchtable"), token)
        assert "nosuchtable" in text and running
    finally:
        await server.stop()


def test_an_unreachable_server_is_a_message_and_bad_targets_are_refused() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    text, running = asyncio.run(refused(Target(url, "abc"), "token"))
    assert text == t("ui.remote_unreachable", "en", server=url, seconds="0.05") and running
    with pytest.raises(RummyError, match="#/t/ID"):
        parse_target(None, None, "http://localhost:8000/#/replay/abc")
    with pytest.raises(RummyError, match="--server URL and --table ID"):
        parse_target("http://localhost:8000", None, None)
    assert parse_target("localhost:8000", "x", None).ws_url == "ws://localhost:8000/ws/tables/x"
    assert Target("https://a.example", "x").ws_url == "wss://a.example/ws/tables/x"


def test_an_indian_server_table_played_by_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asyncio.run(indian_by_keys(tmp_path, monkeypatch))


def app_of_the_command(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> RummyApp:
    """The app ``rummy play ARGS`` would run (caught before it takes the terminal)."""
    made: list[RummyApp] = []
    monkeypatch.setattr(RummyApp, "run", lambda self, *a, **k: made.append(self))
    result = CliRunner().invoke(cli, ["play", *args])
    assert result.exit_code == 0, result.output
    monkeypatch.undo()
    return made[0]


async def indian_by_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``rummy play --server URL --table ID --token T`` at an Indian table with a turn timer:
    draw, discard, then drop (confirmed); the countdown and the bank show, the server's log
    holds the three actions, the game ends."""
    server = Process(f"sqlite+aiosqlite:///{tmp_path / 'ind.sqlite3'}", log=tmp_path / "s.log")
    await server.start()
    try:
        options = {"turn.time_limit_s": 120, "turn.time_bank_s": 60}
        made = await server.create(
            preset="indian13", options=options, seats=[{}, {"kind": "bot", "bot": "simple"}]
        )
        tid = made["table"]["id"]
        token = str((await server.join(tid, "Ann"))["token"])
        await server.start_table(tid, made["creator_token"])
        args = ["--server", server.url, "--table", tid, "--token", token, "--lang", "en"]
        app = app_of_the_command(monkeypatch, args)
        remote = app.remote
        assert remote is not None and remote.target == Target(server.url, tid)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, IndianScreen), "the table")
            screen = app.screen
            assert isinstance(screen, IndianScreen)
            await until(pilot, lambda: remote.my_turn, "my turn")
            clock = remote.turn_clock()
            assert clock is not None and clock.seat == 0 and 100 < clock.turn <= 120
            assert clock.bank == 60
            status = screen.status_text(screen.view).plain
            assert "⏱ " in status and "bank 60 s" in status
            for key in ("d", "c"):
                seq = remote.seq
                await pilot.press(key)
                await until(pilot, moved_on(remote, seq), f"the server's answer to {key}")
            await until(pilot, lambda: remote.my_turn, "my turn again")
            # The drop asks first (with its cost), then ends the deal: the bot wins.
            await pilot.press("f")
            assert isinstance(app.screen, Confirm)
            assert "40" in app.screen.message  # a drop after a draw costs the middle drop
            await pilot.press("y")
            await until(pilot, lambda: remote.over, "the end of the game")
            await until(pilot, lambda: isinstance(app.screen, Choose), "the game's end")
        log = (await server.http.get(f"/api/tables/{tid}/log")).json()
        mine = [e["action"].split()[0] for e in log if e["seat"] == 0]
        assert mine == ["draw", "discard", "drop"]
    finally:
        await server.stop()
