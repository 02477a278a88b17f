"""The REST API: tables, seats, tokens, validation, OpenAPI."""

from __future__ import annotations

from typing import Any

import pytest

from helpers.server import Server

pytestmark = pytest.mark.anyio


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_openapi_docs_and_catalogues(server: Server) -> None:
    docs = await server.http.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    spec = (await server.http.get("/openapi.json")).json()
    for path in (
        "/api/tables",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/start",
        "/api/tables/{table_id}/leave",
        "/api/tables/{table_id}/close",
        "/api/tables/{table_id}/record",
    ):
        assert path in spec["paths"], path
    presets = {p["name"]: p for p in (await server.http.get("/api/presets")).json()}
    assert presets["robbers"]["family"] == "manipulation"
    assert presets["indian13"]["family"] == "indian"
    bots = {b["name"] for b in (await server.http.get("/api/bots")).json()}
    assert {"random", "simple"} <= bots
    health = (await server.http.get("/api/health")).json()
    assert health == {"ok": True, "protocol": 2, "version": health["version"]}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"preset": "poker", "seats": [{}, {}]}, "unknown game"),
        (
            {"preset": "robbers", "options": {"opening.treshold": 30}, "seats": [{}, {}]},
            "unknown option",
        ),
        ({"preset": "robbers", "seats": [{}]}, "at least 2"),
        ({"preset": "rummikub", "seats": [{}] * 5}, "2 to 4"),
        ({"preset": "robbers", "seats": [{}, {"kind": "bot", "bot": "oracle"}]}, "unknown bot"),
        ({"preset": "robbers", "seats": [{}, {}], "match_format": "POOL_101"}, "Indian"),
        ({"preset": "robbers", "seats": [{}, {}], "turn_time_limit": -5}, "greater than 0"),
        ({"preset": "robbers", "seats": [{}, {}], "creator_seat": 5}, "not a human seat"),
        ({"preset": "robbers", "seats": [{"name": "x" * 33}, {}]}, "at most 32"),
        ({"preset": "robbers", "seats": [{}, {}], "surprise": 1}, "Extra inputs"),
    ],
)
async def test_bad_tables_are_refused_with_the_reason(
    server: Server, body: dict[str, Any], words: str
) -> None:
    r = await server.http.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert words in r.text


async def test_seats_tokens_start_and_close(server: Server) -> None:
    made = await server.create(
        preset="rummikub",
        title="Friday <b>night</b>",
        seats=[{}, {}, {"kind": "bot"}],
        creator_seat=0,
        creator_name="Host",
    )
    tid = made["table"]["id"]
    assert made["seat"] == 0 and made["seat_token"]
    assert made["table"]["title"] == "Friday <b>night</b>"  # kept as text, never as HTML
    assert made["table"]["seats"][2]["kind"] == "bot" and made["table"]["seats"][2]["bot"]
    listed = (await server.http.get("/api/tables")).json()
    assert tid in [t["id"] for t in listed]
    info = (await server.http.get(f"/api/tables/{tid}")).json()
    assert "creator" not in str(info) and made["creator_token"] not in str(info)
    assert made["seat_token"] not in str(info)
    # Joining: a taken seat, a bot seat, a seat that does not exist, a free seat.
    r = await server.http.post(f"/api/tables/{tid}/join", json={"name": "Eve", "seat": 0})
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    r = await server.http.post(f"/api/tables/{tid}/join", json={"name": "Eve", "seat": 2})
    assert r.status_code == 409 and "bot" in r.json()["message"]
    r = await server.http.post(f"/api/tables/{tid}/join", json={"name": "Eve", "seat": 9})
    assert r.status_code == 422
    r = await server.http.post(f"/api/tables/{tid}/join", json={"name": " "})
    assert r.status_code == 422 and "empty" in r.text
    r = await server.http.post(f"/api/tables/{tid}/join", json={"name": "a\u0007b"})
    assert r.status_code == 422 and "control" in r.text
    name = "<script>alert(1)</script>"
    joined = await server.join(tid, name)
    assert joined["seat"] == 1
    r = await server.http.get(f"/api/tables/{tid}")
    assert r.headers["content-type"].startswith("application/json")
    assert r.json()["seats"][1]["name"] == name
    r = await server.http.post(f"/api/tables/{tid}/join", json={"name": "Late"})
    assert r.status_code == 409 and r.json()["error"] == "table_full"
    # Leaving an open table frees the seat.
    r = await server.http.post(f"/api/tables/{tid}/leave", headers=_auth(joined["token"]))
    assert r.status_code == 200 and r.json()["seats"][1]["taken"] is False
    # Start: tokens missing, malformed, wrong, seat token instead of creator token.
    r = await server.http.post(f"/api/tables/{tid}/start")
    assert r.status_code == 401 and r.json()["error"] == "missing_token"
    r = await server.http.post(f"/api/tables/{tid}/start", headers={"Authorization": "Basic x"})
    assert r.status_code == 401
    r = await server.http.post(f"/api/tables/{tid}/start", headers=_auth("guess"))
    assert r.status_code == 403 and r.json()["error"] == "bad_token"
    r = await server.http.post(f"/api/tables/{tid}/start", headers=_auth(made["seat_token"]))
    assert r.status_code == 403
    r = await server.http.post(f"/api/tables/{tid}/start", headers=_auth(made["creator_token"]))
    assert r.status_code == 409 and r.json()["error"] == "seats_free" and "1" in r.json()["message"]
    r = await server.http.post(
        f"/api/tables/{tid}/start",
        headers=_auth(made["creator_token"]),
        json={"fill_with_bots": "random"},
    )
    assert r.status_code == 200, r.text
    info = r.json()
    assert info["status"] == "running" and info["seats"][1]["kind"] == "bot"
    assert len(info["game"]["commitment"]) == 64 and info["game"]["seed"] is None
    r = await server.http.get(f"/api/tables/{tid}/record")
    assert r.status_code == 409 and "secret" in r.json()["message"]
    r = await server.http.post(f"/api/tables/{tid}/join", json={"name": "Late"})
    assert r.status_code == 409 and r.json()["error"] == "not_open"
    view = (await server.http.get(f"/api/tables/{tid}/view")).json()
    assert view["view"]["hand"] is None
    # Closing aborts the game and reveals the seed.
    r = await server.http.post(f"/api/tables/{tid}/close", headers=_auth(made["creator_token"]))
    assert r.status_code == 200
    closed = r.json()
    assert closed["status"] == "closed" and closed["game"]["status"] == "aborted"
    assert closed["game"]["seed"]
    r = await server.http.post(f"/api/tables/{tid}/close", headers=_auth(made["creator_token"]))
    assert r.status_code == 409
    rec = (await server.http.get(f"/api/tables/{tid}/record")).json()
    assert rec["meta"]["fairness"]["commitment"] == closed["game"]["commitment"]
    listed = (await server.http.get("/api/tables", params={"status": "closed"})).json()
    assert [t["id"] for t in listed] == [tid]
    r = await server.http.get("/api/tables", params={"status": "lost"})
    assert r.status_code == 422


async def test_unknown_tables(server: Server) -> None:
    for method, path in (
        ("GET", "/api/tables/nope"),
        ("POST", "/api/tables/nope/join"),
        ("GET", "/api/tables/nope/record"),
        ("GET", "/api/tables/nope/log"),
        ("GET", "/api/tables/nope/view"),
    ):
        r = await server.http.request(method, path, json={"name": "x"})
        assert r.status_code == 404, (path, r.text)
        assert r.json()["error"] == "not_found"
