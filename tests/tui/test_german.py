"""A German table: every word the terminal table shows comes from the message catalogue in
German (the game's name, the level names of the bots, the status, the buttons, the footer,
the help, the events and the reasons), none of the English ones."""

from __future__ import annotations

import asyncio
import re

from textual.widgets import Button

from helpers.tui import settle
from openrummy.messages import catalogue
from openrummy.tui import RummyApp, Setup
from openrummy.tui.app import Board, GameScreen, Help
from openrummy.tui.remote import RemoteSession, Target
from openrummy.tui.text import bot_name, game_title, t

SIZE = (80, 24)


def english_only() -> list[str]:
    """The app's English words that German says differently (placeholders cut out)."""
    words = []
    for entry in catalogue()["ui"].values():
        if entry["en"] == entry["de"]:
            continue
        for part in re.split(r"\{\w+\}", entry["en"]):
            part = part.strip(" :.·()")
            if len(part) >= 5 and part not in entry["de"]:
                words.append(part)
    return words


def shown(screen: GameScreen) -> str:
    """What the table shows in words: its boards, message, buttons, footer keys and log."""
    parts = [w._shown.plain for w in screen.query(Board) if w._shown is not None]
    parts.append(screen.message.plain)
    parts += [str(b.label) for b in screen.query(Button)]
    parts += [b.description for _, b, *_ in screen.active_bindings.values() if b.show]
    parts += screen.session.log
    return "\n".join(parts)


async def play(game: str, bots: tuple[str, ...], keys: tuple[str, ...]) -> tuple[str, str]:
    app = RummyApp(Setup(game=game, bots=bots, seed=3), lang="de", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for key in keys:
            await pilot.press(key)
            await settle(app, pilot)
        screen = app.table
        text = shown(screen)
        await pilot.press("question_mark")
        help_screen = app.screen
        assert isinstance(help_screen, Help)
        help_text = "\n".join(str(w.render()) for w in help_screen.query("Static"))
        return text, help_text


def test_a_german_indian_table_speaks_german_only() -> None:
    text, help_text = asyncio.run(play("indian13", ("easy",), ("d", "c")))
    assert "Indisches Rommé (13 Karten)" in text
    assert bot_name(1, "easy", "de") == "Bot 1 (leicht)" and "Bot 1 (leicht)" in text
    assert t("ui.draw_stock", "de") in text and t("key.discard", "de") in text
    assert "Spieler hat eine Karte gezogen" in text and "abgeworfen" in text
    assert t("ui.help_title", "de") in help_text
    # The help says what the bot's level plays like (bots/levels.py, in German).
    assert "Bot 1 (leicht): behält seine Figuren" in help_text
    leaks = [w for w in english_only() if w in text or w in help_text]
    assert not leaks, leaks


def test_a_german_rummikub_table_speaks_german_only() -> None:
    # An illegal play (one tile as a new meld, Done) is refused with the engine's reason.
    text, help_text = asyncio.run(play("rummikub", ("hard",), ("space", "n", "p", "y")))
    assert "Bot 1 (schwer)" in text
    assert "ist misslungen" in text and "eine Figur braucht mindestens 3" in text
    assert t("ui.done", "de") in text and t("key.new_meld", "de") in text
    leaks = [w for w in english_only() if w in text or w in help_text]
    assert not leaks, leaks


def test_names_of_levels_games_and_server_bots_follow_the_language() -> None:
    assert [bot_name(2, k, "de") for k in ("medium", "hard", "simple", "one-meld")] == [
        "Bot 2 (mittel)",
        "Bot 2 (schwer)",
        "Bot 2 (einfach)",
        "Bot 2 (one-meld)",
    ]
    assert bot_name(2, "hard", "en") == "Bot 2 (hard)"
    assert game_title("robbers", "Robbers' Rummy", "de") == "Räuber-Rommé"
    assert game_title("my_house_rules", "House", "de") == "House"
    remote = RemoteSession(Target("http://localhost:1", "t"), "de")
    # The server's default name for a bot is worded again; a name someone chose stays.
    assert remote._seat_name({"seat": 1, "kind": "bot", "bot": "hard", "name": "Hard bot 2"}) == (
        "Bot 1 (schwer)"
    )
    assert remote._seat_name({"seat": 1, "kind": "bot", "bot": "hard", "name": "Hal"}) == "Hal"
