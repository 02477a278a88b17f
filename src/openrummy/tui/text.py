"""Words and colours of the terminal table.

Every sentence the app shows comes from the message catalogue (its ``ui`` section for the
app's own words, :func:`openrummy.messages.render` for events and reasons), in English or
German, in the tile forms at a Rummikub table. Cards are drawn as short coloured labels; with ``NO_COLOR`` set they keep their
suit symbols and lose their colours.
"""

from __future__ import annotations

import locale
import math
import os
from collections.abc import Mapping

from rich.style import Style
from rich.text import Text

from openrummy.cards import Card, Suit
from openrummy.melds import MeldItem
from openrummy.messages import LANGS, catalogue

__all__ = [
    "bot_name",
    "card_label",
    "card_text",
    "clock_text",
    "default_lang",
    "game_title",
    "monochrome",
    "t",
]

_SUIT_STYLE: Mapping[Suit, str] = {
    Suit.S: "bold black on white",
    Suit.H: "bold red on white",
    Suit.D: "bold dark_orange3 on white",
    Suit.C: "bold blue on white",
}
_JOKER_STYLE = "bold magenta on white"


def t(key: str, lang: str = "en", *, tiles: bool = False, **params: object) -> str:
    """The app's own words for ``key`` (the catalogue's ``ui`` section), ``{name}`` filled in;
    at a tile table (``tiles``, Rummikub) the entry's ``tiles`` form, which says tile and rack
    (Stein, Bänkchen) where the card form says card and hand.

    An unknown key shows as itself, so a missing word is visible, never a crash.
    """
    entry = catalogue().get("ui", {}).get(key)
    if entry is None:
        return key
    form = (entry.get("tiles") if tiles else None) or entry
    text = str(form.get(lang) or form["en"])
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def game_title(preset: str, title: str, lang: str = "en") -> str:
    """A preset's name in ``lang`` (``title``, the rules' own, for a preset the catalogue
    does not name)."""
    key = f"preset.{preset}"
    words = t(key, lang)
    return title if words == key else words


def bot_name(seat: int, kind: str | None, lang: str = "en") -> str:
    """``Bot 1 (expert)``, ``Bot 1 (Experte)``: a level's or a research bot's name in
    ``lang`` (a name the catalogue does not know stays as it is)."""
    key = f"level.{kind}"
    words = t(key, lang)
    return f"{t('ui.bot', lang)} {seat} ({kind if words == key else words})"


def clock_text(seconds: float) -> str:
    """Seconds of a countdown as whole seconds, rounded up (0.2 s left still shows 1)."""
    return str(max(0, math.ceil(seconds - 1e-9)))


def default_lang() -> str:
    """``de`` when the environment's locale is German, else ``en``."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var)
        if value:
            return "de" if value.lower().startswith("de") else "en"
    try:
        code = locale.getlocale()[0] or ""
    except ValueError:
        code = ""
    return "de" if code.lower().startswith("de") else "en"


def monochrome() -> bool:
    """True when the ``NO_COLOR`` convention asks for no colours (no-color.org)."""
    return bool(os.environ.get("NO_COLOR"))


def card_label(card: Card, lang: str = "en", represents: Card | None = None) -> str:
    """A card as a few characters: ``10♥``, ``D♠`` (German), ``R7``, ``JK`` or ``JK=7♥``."""
    if card.is_joker:
        base = "JK"
    elif card.tile:
        base = str(card)
    else:
        base = card.pretty(lang)
    if represents is not None and represents != card:
        base += "=" + card_label(represents, lang)
    return base


def card_text(
    item: Card | MeldItem,
    lang: str = "en",
    *,
    mono: bool = False,
    selected: bool = False,
    cursor: bool = False,
    fresh: bool = False,
    click: str | None = None,
) -> Text:
    """A card as styled text: its suit's (or tile's) colour, reversed when selected,
    underlined under the cursor, marked ``+`` when it is new on the table."""
    card, represents = (item.card, item.represents) if isinstance(item, MeldItem) else (item, None)
    label = card_label(card, lang, represents if card.is_joker or represents else None)
    if mono:
        style = Style(bold=selected, reverse=selected, underline=cursor)
        body = f"[{label}]" if selected else f" {label} "
    else:
        base = _JOKER_STYLE if card.is_joker or card.suit is None else _SUIT_STYLE[card.suit]
        style = Style.parse(base)
        if selected:
            style += Style(bgcolor="yellow")
        if cursor:
            style += Style(underline=True, bold=True)
        body = f" {label} "
    if fresh:
        body = body[:-1] + "+"
    if click is not None:
        style += Style(meta={"@click": click})
    out = Text()
    out.append(body, style=style)
    out.append(" ")
    return out


def languages() -> tuple[str, ...]:
    return LANGS
