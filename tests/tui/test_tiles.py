"""A Rummikub table in the terminal says tile and rack (Stein, Bänkchen), never card (Karte):
the app's own words, the engine's events and reasons, the hint's steps and the help, in
English and German. Other tables keep their card words."""

from __future__ import annotations

import asyncio
import re

import pytest
from textual.widgets import Button, Static

from helpers.tui import settle
from openrummy.messages import LANGS, catalogue, placeholders
from openrummy.tui import RummyApp, Setup
from openrummy.tui.app import Board, Confirm, GameScreen, Help, ManipScreen
from openrummy.tui.text import t

SIZE = (80, 24)
CARD_WORDS = re.compile(r"\bcards?\b|karte|\bhand\b", re.IGNORECASE)


def test_the_apps_words_at_a_tile_table_never_say_card() -> None:
    """Every ``ui`` entry a tile table can show says no card (or hand) in its tile form and
    fills the same placeholders as its card form; Indian Rummy's are marked
    ``"tile_tables": false``."""
    marked = 0
    for key, entry in catalogue()["ui"].items():
        if entry.get("tile_tables", True) is False:
            marked += 1
            continue
        form = entry.get("tiles", entry)
        for lang in LANGS:
            assert not CARD_WORDS.search(form[lang]), (key, lang, form[lang])
            assert placeholders(form[lang]) == placeholders(entry[lang]), (key, lang)
    assert marked >= 10
    # The card form stays at a card table; an entry without a tile form says the same.
    assert t("ui.nothing_selected", "de") == "Wähle zuerst Karten (Leertaste oder Klick)"
    assert (
        t("ui.nothing_selected", "de", tiles=True) == "Wähle zuerst Steine (Leertaste oder Klick)"
    )
    assert t("ui.cards_left", "en", tiles=True, hands="Bo: 14") == "tiles: Bo: 14"
    assert t("ui.done", "en", tiles=True) == t("ui.done", "en")


def shown(screen: GameScreen) -> str:
    """What the table shows in words: its boards, message, buttons, footer keys and log."""
    parts = [w._shown.plain for w in screen.query(Board) if w._shown is not None]
    parts.append(screen.message.plain)
    parts += [str(b.label) for b in screen.query(Button)]
    parts += [b.description for _, b, *_ in screen.active_bindings.values() if b.show]
    parts += screen.session.log
    return "\n".join(parts)


async def rummikub_in(lang: str) -> list[str]:
    """A few Rummikub turns, keys only: mistakes the app refuses (take, discard, swap, a new
    meld of nothing, split, Done with nothing placed), the help, a refused play (the table's
    meld split and a tile laid alone, played anyway and failed), then the hint laid out and
    played (a draw while the solver finds none). Every screen's words, in order."""
    app = RummyApp(
        Setup(game="rummikub", players=2, bots=("simple",), seed=4), lang=lang, bot_delay=0
    )
    said: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.table
        assert isinstance(screen, ManipScreen) and screen.tiles
        for key in ("t", "c", "x", "n", "s", "p", "space", "down", "s", "up"):
            await pilot.press(key)
            said.append(shown(screen))
        await pilot.press("question_mark")
        assert isinstance(app.screen, Help)
        said.append("\n".join(str(w.render()) for w in app.screen.query(Static)))
        await pilot.press("escape")
        await pilot.press("escape", "space", "n", "p")
        assert isinstance(app.screen, Confirm)
        said.append("\n".join(str(w.render()) for w in app.screen.query(Static)))
        await pilot.press("y")
        await settle(app, pilot)
        said.append(shown(screen))
        for _ in range(3):
            assert app.session.my_turn
            await pilot.press("h")
            await settle(app, pilot)
            hint = screen.hint is not None
            if hint:
                said.append(shown(screen))
                await pilot.press("a")
                said.append(shown(screen))
                await pilot.press("p")
            else:
                await pilot.press("d")
            await settle(app, pilot)
            said.append(shown(screen))
            if hint:
                break
        assert hint
    return said


@pytest.mark.parametrize("lang", LANGS)
def test_a_rummikub_table_says_tile_in_both_languages(lang: str) -> None:
    said = asyncio.run(rummikub_in(lang))
    text = "\n".join(said)
    wrong = sorted({line for line in text.splitlines() if CARD_WORDS.search(line)})
    assert not wrong, wrong
    tile, rack = ("tile", "Rack") if lang == "en" else ("Stein", "Bänkchen")
    assert tile in text and rack in text
    # The refusals, the refused play, the hint's steps and the help were all on screen.
    nothing = t("ui.nothing_selected", lang, tiles=True)
    assert nothing in text and t("ui.nothing_placed", lang, tiles=True) in text
    assert t("ui.split_how", lang, tiles=True) in text
    assert t("ui.how_manip", lang, tiles=True) in text
    assert ("play failed" if lang == "en" else "ist misslungen") in text
    assert t("ui.hint_title", lang) in text and "1." in text
