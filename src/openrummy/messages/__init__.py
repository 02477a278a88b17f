"""The message catalogue: every event, violation and reason as words, in English and German.

Events and violations leave the engine as data (a code and its parameters, see
:mod:`openrummy.events`); only this catalogue turns them into sentences. The templates live
in one data file, ``catalogue.json`` beside this module, which the web client loads too, so
the CLI, the server's log text and the browser say the same thing in the reader's language.

A message is the JSON form of a record: an event ``{"code": "opened", "seat": 1, ...}``, a
violation ``{"code": "C6", "reason": "retrieve_before_open"}`` or a bare reason
``{"reason": "meld.not_consecutive", "ranks": "3-5-6-7"}``. Templates name parameters in
braces: ``{value}``; ``{placed|# card|# cards}`` picks the singular or plural form by the
number (``#`` stands for it). The catalogue's ``params`` table gives each parameter's type,
which says how it is written: a seat by the player's name, a nested reason in words, a
``word`` through the catalogue's own words.

    >>> render({"code": "opened", "seat": 1, "value": 75, "placed": 6})
    'seat 1 placed 6 cards and opened with 75'
    >>> render({"code": "opened", "seat": 1, "value": 75, "placed": 6}, "de", ["Ann", "Bo"])
    'Bo hat 6 Karten gelegt und mit 75 eröffnet'
    >>> str(Reason.of("meld.run_too_short", count=3))
    'a run needs at least 3 cards'
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeAlias

Label: TypeAlias = "Callable[[str, str], str]"
"""How a card in notation is written in a language (``label("K11", "en")``); without one, a
card is written in its notation."""

__all__ = [
    "CATALOGUE_PATH",
    "LANGS",
    "Label",
    "Param",
    "Reason",
    "catalogue",
    "placeholders",
    "render",
]

CATALOGUE_PATH = Path(__file__).with_name("catalogue.json")
"""The catalogue's data file (served to the web client as ``/messages/catalogue.json``)."""

LANGS = ("en", "de")

Param: TypeAlias = "int | float | str | bool | Reason | tuple[Param, ...]"
"""A parameter value: JSON scalars (cards and melds in notation), nested reasons, lists."""


class _HasJson(Protocol):
    def to_json(self) -> dict[str, Any]: ...


@functools.cache
def catalogue() -> dict[str, Any]:
    """The catalogue's data (read once)."""
    data: dict[str, Any] = json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))
    return data


def _to_json(value: Param) -> Any:
    if isinstance(value, Reason):
        return value.to_json()
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def _from_json(value: Any) -> Param:
    if isinstance(value, Mapping):
        return Reason.from_json(value)
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    if isinstance(value, (int, float, str, bool)):
        return value
    raise ValueError(f"{value!r} is not a message parameter")


@dataclass(frozen=True, slots=True)
class Reason:
    """Why something is wrong, as data: a stable ``key`` (``"meld.run_too_short"``) and
    its parameters. ``str()`` gives the English words."""

    key: str
    params: tuple[tuple[str, Param], ...] = ()

    @classmethod
    def of(cls, key: str, **params: Param | None) -> Reason:
        """A reason with keyword parameters (``None`` values are left out)."""
        return cls(key, tuple((k, v) for k, v in params.items() if v is not None))

    def get(self, name: str) -> Param | None:
        return next((v for k, v in self.params if k == name), None)

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.key, **{k: _to_json(v) for k, v in self.params}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reason:
        return cls(
            str(data["reason"]),
            tuple((k, _from_json(v)) for k, v in data.items() if k not in ("reason", "code")),
        )

    def __str__(self) -> str:
        return render(self)


def render(
    message: Mapping[str, Any] | _HasJson,
    lang: str = "en",
    names: Sequence[str] | None = None,
    *,
    label: Label | None = None,
    tiles: bool = False,
) -> str:
    """A message (a record, or its JSON) in words; ``names`` replace seat numbers, ``label``
    writes cards (default: their notation). At a tile table (``tiles``, Rummikub) an entry's
    ``tiles`` form says tile and rack where the card form says card and hand.

    An unknown code or reason renders as itself, so a newer server's message never breaks
    an older reader; the catalogue's test makes sure every code this version emits has words.
    """
    data = message if isinstance(message, Mapping) else message.to_json()
    return _render(data, lang if lang in LANGS else "en", names, label, tiles)


def _words(entry: Mapping[str, Any], lang: str, tiles: bool) -> str:
    """An entry's template (or word) in a language, in its tile form at a tile table."""
    form = entry.get("tiles") if tiles else None
    return str((form or entry)[lang])


def _render(
    data: Mapping[str, Any],
    lang: str,
    names: Sequence[str] | None,
    label: Label | None = None,
    tiles: bool = False,
) -> str:
    cat = catalogue()
    if "reason" in data:
        entry = cat["reasons"].get(data["reason"])
        if entry is None:
            return str(data["reason"])
    else:
        entry = cat["events"].get(data.get("code"))
        if entry is None:
            return str(data.get("code", ""))
    text = _fill(_words(entry, lang, tiles), data, lang, names, label, tiles)
    for part in entry.get("parts", ()):
        spec = cat["parts"][part]
        if data.get(spec["when"]):
            text += _fill(_words(spec, lang, tiles), data, lang, names, label, tiles)
    return text


def placeholders(template: str) -> list[tuple[str, tuple[str, str] | None]]:
    """The parameters a template names, each with its plural forms (or ``None``)."""
    out: list[tuple[str, tuple[str, str] | None]] = []
    for piece in _pieces(template):
        if isinstance(piece, tuple):
            out.append(piece)
    return out


def _pieces(template: str) -> list[str | tuple[str, tuple[str, str] | None]]:
    """A template split into literal text and ``{name}`` / ``{name|one|other}`` slots."""
    pieces: list[str | tuple[str, tuple[str, str] | None]] = []
    rest = template
    while True:
        start = rest.find("{")
        if start < 0:
            pieces.append(rest)
            return pieces
        end = rest.index("}", start)
        pieces.append(rest[:start])
        name, *forms = rest[start + 1 : end].split("|")
        if forms and len(forms) != 2:
            raise ValueError(f"{template!r}: a plural slot has two forms, one|other")
        pieces.append((name, (forms[0], forms[1]) if forms else None))
        rest = rest[end + 1 :]


def _fill(
    template: str,
    data: Mapping[str, Any],
    lang: str,
    names: Sequence[str] | None,
    label: Label | None = None,
    tiles: bool = False,
) -> str:
    out: list[str] = []
    for piece in _pieces(template):
        if isinstance(piece, str):
            out.append(piece)
            continue
        name, forms = piece
        value = data[name]
        if forms is not None:
            out.append(forms[0 if value == 1 else 1].replace("#", _number(value)))
        else:
            out.append(_format(name, value, lang, names, label, tiles))
    return "".join(out)


def _number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _format(
    name: str,
    value: Any,
    lang: str,
    names: Sequence[str] | None,
    label: Label | None = None,
    tiles: bool = False,
) -> str:
    cat = catalogue()
    kind = cat["params"][name]
    if kind == "seat":
        return _seat(value, lang, names)
    if kind == "seats":
        return ", ".join(_seat(s, lang, names) for s in value)
    if label is not None and kind in ("card", "cards", "meld", "melds"):
        items = [value] if kind in ("card", "meld") else value
        out = [_labelled(str(v), lang, label) for v in items]
        return " ".join(out)
    if kind in ("cards", "melds"):
        return " ".join(value)
    if kind == "number":
        return _number(value)
    if kind == "word":
        word = cat["words"].get(value)
        return _words(word, lang, tiles) if word else str(value)
    if kind == "message":
        return _render(value, lang, names, label, tiles)
    if kind == "messages":
        return "; ".join(_render(v, lang, names, label, tiles) for v in value)
    return str(value)  # card, meld, text


def _labelled(text: str, lang: str, label: Label) -> str:
    """A card, a meld item (``JK=7H``) or a meld (``[5H 6H 7H]``) written with ``label``."""
    if text.startswith("[") and text.endswith("]"):
        return "[" + " ".join(_labelled(t, lang, label) for t in text[1:-1].split()) + "]"
    return "=".join(label(part, lang) for part in text.split("="))


def _seat(seat: int, lang: str, names: Sequence[str] | None) -> str:
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return str(catalogue()["words"]["seat"][lang]).replace("#", str(seat))
