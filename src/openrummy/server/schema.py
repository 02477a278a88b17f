"""A JSON Schema of the WebSocket messages (``docs/schema/messages.schema.json``).

Generated from the pydantic models of :mod:`openrummy.server.protocol`: ``ClientMessage`` is
what a client may send, ``ServerMessage`` what the server sends. ``python -m
openrummy.server.schema`` prints it; the published file is its output, and a test checks
that they agree and that the messages of a real game validate against it::

    >>> schema = message_schema()
    >>> schema["$defs"]["ClientMessage"]["discriminator"]["propertyName"]
    'type'
    >>> sorted(schema["$defs"]["ServerMessage"]["discriminator"]["mapping"])[:3]
    ['error', 'notice', 'pong']
    >>> schema["$defs"]["UpdateMessage"]["properties"]["view"]["$ref"]
    'views.schema.json'

The views inside ``welcome`` and ``update`` refer to the views schema
(``docs/schema/views.schema.json``, generated from the engine's views).
"""

from __future__ import annotations

import json
import sys

from pydantic import TypeAdapter

from .protocol import VIEW_MARK, ClientMessage, ServerMessage

__all__ = ["message_schema"]

_REF = "#/$defs/{model}"
VIEWS = "views.schema.json"
"""The views schema (``python -m openrummy.games.schema``), beside this one: its ``$id``
resolves from this schema's ``$id``."""


def _link_views(node: object) -> object:
    """Replace each marked view by a reference to the views schema."""
    if isinstance(node, dict):
        if node.get(VIEW_MARK):
            return {"$ref": VIEWS, "description": node.get("description", "")}
        return {k: _link_views(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_link_views(v) for v in node]
    return node


def _part(adapter: TypeAdapter[object], defs: dict[str, object]) -> dict[str, object]:
    schema: dict[str, object] = adapter.json_schema(ref_template=_REF)
    found = schema.pop("$defs", {})
    assert isinstance(found, dict)
    for name, definition in found.items():
        if defs.setdefault(name, definition) != definition:
            raise ValueError(f"two different definitions named {name}")
    return schema


def message_schema() -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of every WebSocket message, both ways."""
    defs: dict[str, object] = {}
    client = _part(TypeAdapter(ClientMessage), defs)
    server = _part(TypeAdapter(ServerMessage), defs)
    defs["ClientMessage"] = {"description": "A message from a client to the server.", **client}
    defs["ServerMessage"] = {"description": "A message from the server to a client.", **server}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://openrummy.example/schema/messages.schema.json",
        "title": "OpenRummy WebSocket messages",
        "description": "One JSON object per text frame (docs/protocol.md).",
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": _link_views(dict(sorted(defs.items()))),
    }


def main() -> None:
    json.dump(message_schema(), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
