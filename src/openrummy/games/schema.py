"""A JSON Schema of the views, generated from their dataclasses (``docs/schema/views.schema.json``).

``python -m openrummy.games.schema`` prints it (``--jsdoc``: the web client's typedefs,
``web/js/views.js``); the published files are its output, and a test checks that they agree
and that every view's ``to_json()`` validates against the schema::

    >>> schema = view_schema()
    >>> sorted(schema["$defs"])[:3], schema["oneOf"][0]
    (['Card', 'IndianStandings', 'IndianView'], {'$ref': '#/$defs/ManipulationView'})
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
from enum import Enum
from typing import ClassVar, Union, get_args, get_origin, get_type_hints

from openrummy.cards import Card
from openrummy.melds import Meld

from . import views
from .views import (
    IndianStandings,
    IndianView,
    LastAction,
    ManipulationStandings,
    ManipulationView,
)

__all__ = ["jsdoc_typedefs", "view_schema"]

_RECORDS: tuple[type, ...] = (
    ManipulationView,
    IndianView,
    LastAction,
    ManipulationStandings,
    IndianStandings,
)
_OMITTED_WHEN_NONE = frozenset({"owners", "last", "match", "time_bank"})
"""Keys ``to_json`` leaves out when the field is ``None``."""
_DERIVED: dict[type, dict[str, object]] = {
    IndianView: {"discard_top": {"anyOf": [{"$ref": "#/$defs/Card"}, {"type": "null"}]}},
}
"""Keys ``to_json`` adds from properties."""


def _schema_of(tp: object) -> dict[str, object]:
    if tp is type(None):
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if tp is Card:
        return {"$ref": "#/$defs/Card"}
    if tp is Meld:
        return {"$ref": "#/$defs/Meld"}
    if isinstance(tp, type) and issubclass(tp, Enum):
        return {"enum": sorted(str(m.value) for m in tp)}
    if isinstance(tp, type) and tp in _RECORDS:
        return {"$ref": f"#/$defs/{tp.__name__}"}
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is dict:
        return {"type": "object"}  # a JSON object (JsonObject)
    if origin in (Union, types.UnionType):
        if bool in args and any(get_origin(a) is dict for a in args):
            return {}  # any JSON value (JsonValue)
        return {"anyOf": [_schema_of(a) for a in args]}
    if origin in (tuple, frozenset, list):
        return {"type": "array", "items": _schema_of(args[0])}
    raise TypeError(f"no JSON Schema for {tp!r}")


def _record(cls: type) -> dict[str, object]:
    hints = get_type_hints(cls, vars(views))
    props: dict[str, object] = {}
    required: list[str] = []
    for name, hint in hints.items():
        if get_origin(hint) is ClassVar:
            props[name] = {"const": getattr(cls, name)}
            required.append(name)
    for f in dataclasses.fields(cls):
        props[f.name] = _schema_of(hints[f.name])
        if f.name not in _OMITTED_WHEN_NONE:
            required.append(f.name)
    props.update(_DERIVED.get(cls, {}))
    required += list(_DERIVED.get(cls, {}))
    out: dict[str, object] = {"type": "object", "properties": props, "required": required}
    doc = (cls.__doc__ or "").strip().splitlines()
    if doc:
        out["description"] = doc[0]
    return out


def view_schema() -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of ``view.to_json()`` for every family."""
    defs: dict[str, object] = {
        "Card": {
            "type": "string",
            "description": "A card or tile in text notation: 10H, AS, JK, R7, K1",
        },
        "Meld": {
            "type": "array",
            "items": {"type": "string"},
            "description": "A meld's items in order: 7H, or JK=7H for a joker and its identity",
        },
    }
    for cls in _RECORDS:
        defs[cls.__name__] = _record(cls)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://openrummy.example/schema/views.schema.json",
        "title": "OpenRummy view",
        "description": "What one seat may see of a game or match (view.to_json()).",
        "oneOf": [{"$ref": "#/$defs/ManipulationView"}, {"$ref": "#/$defs/IndianView"}],
        "$defs": dict(sorted(defs.items())),
    }


def _ts(node: object) -> str:
    """A JSON Schema node as a TypeScript type (for JSDoc)."""
    assert isinstance(node, dict)
    if "$ref" in node:
        name = str(node["$ref"]).rsplit("/", 1)[-1]
        return {"Card": "string", "Meld": "string[]"}.get(name, name)
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return " | ".join(json.dumps(v) for v in node["enum"])
    if "anyOf" in node:
        return " | ".join(_ts(n) for n in node["anyOf"])
    kind = node.get("type")
    if kind == "array":
        inner = _ts(node["items"])
        return f"({inner})[]" if "|" in inner else f"{inner}[]"
    if kind == "object":
        return "{[key: string]: unknown}"
    simple = {"integer": "number", "number": "number", "string": "string", "boolean": "boolean"}
    return simple.get(str(kind), "null" if kind == "null" else "unknown")


def jsdoc_typedefs() -> str:
    """The web client's JSDoc typedefs of the views (``web/js/views.js``), from the schema."""
    schema = view_schema()
    defs = schema["$defs"]
    assert isinstance(defs, dict)
    lines = [
        "// Generated by `python -m openrummy.games.schema --jsdoc` from the view classes:",
        "// do not edit (a test checks that it is up to date).",
        "",
    ]
    for name, node in defs.items():
        if name in ("Card", "Meld"):
            continue
        lines += ["/**", f" * {node.get('description', name)}", f" * @typedef {{Object}} {name}"]
        required = set(node["required"])
        for key, prop in node["properties"].items():
            shown = key if key in required else f"[{key}]"
            lines.append(f" * @property {{{_ts(prop)}}} {shown}")
        lines += [" */", ""]
    lines += ["/** @typedef {ManipulationView | IndianView} View */", "", "export {};", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:] == ["--jsdoc"]:
        sys.stdout.write(jsdoc_typedefs())
    else:
        json.dump(view_schema(), sys.stdout, indent=2)
        sys.stdout.write("\n")
