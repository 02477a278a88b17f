"""The published JSON Schema of the WebSocket messages is generated from the protocol's
models, and the messages of a real game hold to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from openrummy.games.families import new_match
from openrummy.rules import find_preset
from openrummy.server.core import client_view
from openrummy.server.schema import message_schema

SCHEMA_FILE = Path(__file__).parents[2] / "docs" / "schema" / "messages.schema.json"
VIEWS_FILE = SCHEMA_FILE.with_name("views.schema.json")

pytestmark = pytest.mark.anyio


def _validator(side: str) -> jsonschema.Draft202012Validator:
    schema = message_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    # The views inside welcome and update refer to the published views schema.
    views = json.loads(VIEWS_FILE.read_text())
    registry: Registry[Any] = Registry().with_resource(
        views["$id"], Resource.from_contents(views, default_specification=DRAFT202012)
    )
    return jsonschema.Draft202012Validator(
        {**schema, "anyOf": [{"$ref": f"#/$defs/{side}"}]}, registry=registry
    )


def test_views_refer_to_the_views_schema() -> None:
    validator = _validator("ServerMessage")
    view = client_view(new_match(find_preset("robbers"), 2, seed="s").view(0).to_json())
    event = {"seq": 1, "seat": 0, "actor": "seat", "action": "draw", "text": "t"}
    update = {"type": "update", "seq": 1, "now": 0.0, "deadline": None, "view": view}
    update["event"] = {**event, "accepted": True, "at": 0.0}
    assert validator.is_valid(update)
    assert not validator.is_valid({**update, "view": {**view, "hand": "AS"}})
    assert not validator.is_valid({**update, "view": {"x": 1}})


@pytest.mark.parametrize(
    ("message", "valid"),
    [
        ({"type": "hello", "v": 2, "token": "Zk"}, True),
        ({"type": "hello"}, True),
        ({"type": "action", "id": 1, "seq": 0, "action": "draw"}, True),
        ({"type": "action", "action": "draw"}, False),  # seq is required
        ({"type": "action", "seq": "0", "action": "draw"}, False),
        ({"type": "sync", "id": "a1"}, True),
        ({"type": "ping", "extra": 1}, False),
        ({"type": "resume"}, True),
        ({"type": "shout"}, False),
    ],
)
def test_client_messages(message: dict[str, Any], valid: bool) -> None:
    assert _validator("ClientMessage").is_valid(message) is valid


async def test_a_games_messages_hold_to_the_schema(server: Any) -> None:
    made = await server.create(preset="robbers", match_format="SINGLE_ROUND", seats=[{}, {}])
    tid = made["table"]["id"]
    a = await server.join(tid, "Ann")
    b = await server.join(tid, "Bob")
    ca = await server.client(tid, a["token"])
    cb = await server.client(tid, b["token"])
    spectator = await server.client(tid)
    await server.start_table(tid, made["creator_token"])
    for c in (ca, cb, spectator):
        c.welcome = await c.expect("welcome", lambda m: m["view"] is not None)
    mover, waiter = (ca, cb) if ca.welcome["view"]["current"] == a["seat"] else (cb, ca)
    await mover.send({"type": "action", "id": "d", "seq": 0, "action": "draw"})
    await mover.reply("d")
    await waiter.send({"type": "action", "id": "w", "seq": 0, "action": "draw"})
    assert (await waiter.reply("w"))["type"] == "error"
    await waiter.send({"type": "ping", "id": "p"})
    await waiter.reply("p")
    await waiter.send({"type": "resume", "id": "r"})
    await waiter.reply("r")
    r = await server.http.post(
        f"/api/tables/{tid}/close", headers={"Authorization": f"Bearer {made['creator_token']}"}
    )
    assert r.status_code == 200, r.text
    for c in (ca, cb, spectator):
        await c.expect("reveal")
    validator = _validator("ServerMessage")
    seen: set[str] = set()
    for c in (ca, cb, spectator):
        for message in c.received:
            validator.validate(message)
            seen.add(message["type"])
    assert {"welcome", "update", "error", "pong", "resumed", "table", "reveal"} <= seen
    back = {"reason": "notice.back", "seat": 0}
    assert validator.is_valid({"type": "notice", "seat": 0, "text": "Ann is back", "data": back})
    wrong = dict(ca.welcome, seq="1")
    assert not validator.is_valid(wrong)
