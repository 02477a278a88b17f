"""The puzzles API: answers judged by the engine (any valid table that places every card),
Glicko-2 ratings of players and puzzles kept in the database, bad input refused."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from helpers.server import Server, make_settings
from openrummy.puzzles import Puzzle, shipped_puzzles
from openrummy.server.store import Glicko, Store

pytestmark = pytest.mark.anyio

PUZZLE = "8177f24ae019"
"""Rummikub: hand K8 R8 B5. The stored solution makes [K8 R8 B8] and [B5 B6 B7]; the table
below takes O8 from its run instead and lays B5 before [B6 B7 B8]."""
OTHER_SOLUTION = [
    "[B4 B5 B6 B7]",
    "[O5 O6 O7]",
    "[K6 K7 K8 K9]",
    "[B5 B6 B7 B8]",
    "[K13 O13 B13]",
    "[K13 R13 O13 B13]",
    "[K8 R8 O8]",
]


def shipped(puzzle_id: str) -> Puzzle:
    return next(p for p in shipped_puzzles("rummikub") if p.id == puzzle_id)


def melds(texts: list[str]) -> Counter[tuple[str, ...]]:
    return Counter(tuple(sorted(m.strip("[]").split())) for m in texts)


async def new_player(srv: Server, name: str = "Ann") -> dict[str, str]:
    r = await srv.http.post("/api/puzzles/players", json={"name": name})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def me(srv: Server, auth: dict[str, str]) -> dict[str, Any]:
    r = await srv.http.get("/api/puzzles/me", headers=auth)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


async def submit(srv: Server, auth: dict[str, str], pid: str, table: list[str]) -> dict[str, Any]:
    r = await srv.http.post(f"/api/puzzles/{pid}/submit", json={"table": table}, headers=auth)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def settings(tmp_path: Path) -> Any:
    # Thread workers: the judging runs in the worker pool without starting processes.
    return make_settings(tmp_path, worker_kind="thread")


async def test_any_valid_table_solves_and_ratings_survive_a_restart(tmp_path: Path) -> None:
    stored = shipped(PUZZLE)
    assert melds(OTHER_SOLUTION) != melds([str(m) for m in stored.solution])
    srv = Server(settings(tmp_path))
    await srv.start()
    try:
        ann = await new_player(srv)
        bob = await new_player(srv, "Bob")
        before = await me(srv, ann)
        assert (before["rating"], before["attempts"]) == (1500, 0)
        puzzle = (await srv.http.get(f"/api/puzzles/{PUZZLE}")).json()
        assert "solution" not in puzzle and puzzle["hand"] == ["K8", "R8", "B5"]

        # Not a valid play (the run of oranges loses a card, nothing of the hand is laid):
        # the engine's reasons, and no rating moves.
        bad = await submit(srv, ann, PUZZLE, [m for m in puzzle["table"] if "O5" not in m])
        assert (bad["valid"], bad["solved"], bad["rated"]) == (False, False, False)
        [why] = bad["messages"]
        assert why["reason"] == "puzzle.not_valid"
        reasons = {v["reason"] for v in why["violations"]}
        assert {"card_leaves_table", "no_hand_card"} <= reasons
        assert await me(srv, ann) == before
        again = (await srv.http.get(f"/api/puzzles/{PUZZLE}")).json()
        assert (again["rating"], again["attempts"]) == (puzzle["rating"], 0)

        # A valid table that is not the stored solution solves it: a rated win.
        good = await submit(srv, ann, PUZZLE, OTHER_SOLUTION)
        assert (good["valid"], good["solved"], good["rated"], good["score"]) == (
            True,
            True,
            True,
            1.0,
        )
        assert good["player"]["rating"] > 1500
        assert good["puzzle_rating"] < puzzle["rating"]
        # Only the first attempt counts.
        twice = await submit(srv, ann, PUZZLE, OTHER_SOLUTION)
        assert twice["solved"] and not twice["rated"]
        assert twice["player"] == good["player"]

        # Bob asks for a hint (the first step), then gives up: a rated loss.
        hint = (
            await srv.http.post(f"/api/puzzles/{PUZZLE}/hint", json={"lang": "de"}, headers=bob)
        ).json()
        assert hint["step"].startswith("1. ") and hint["steps"] >= 2
        gave_up = (
            await srv.http.post(f"/api/puzzles/{PUZZLE}/solution", json={}, headers=bob)
        ).json()
        assert melds(gave_up["table"]) == melds([str(m) for m in stored.solution])
        assert gave_up["rated"] and gave_up["score"] == 0.0
        assert gave_up["player"]["rating"] < 1500
        ann_after, bob_after = await me(srv, ann), await me(srv, bob)
        puzzle_after = (await srv.http.get(f"/api/puzzles/{PUZZLE}", headers=ann)).json()
        assert puzzle_after["attempts"] == 2 and puzzle_after["solved"] == 1
        assert puzzle_after["attempt"] == {"hinted": False, "score": 1.0, "rated": True}
        # The next puzzle is another one, near Ann's rating.
        nxt = (await srv.http.get("/api/puzzles/next?set=rummikub", headers=ann)).json()
        assert nxt["id"] != PUZZLE and nxt["set"] == "rummikub"
        assert abs(nxt["rating"] - ann_after["rating"]) < 50
    finally:
        await srv.stop()

    # The same database after a restart: the ratings are kept.
    srv = Server(settings(tmp_path))
    await srv.start()
    try:
        assert await me(srv, ann) == ann_after
        assert await me(srv, bob) == bob_after
        kept = (await srv.http.get(f"/api/puzzles/{PUZZLE}", headers=ann)).json()
        assert (kept["rating"], kept["attempts"]) == (
            puzzle_after["rating"],
            puzzle_after["attempts"],
        )
        assert not (await submit(srv, ann, PUZZLE, OTHER_SOLUTION))["rated"]
    finally:
        await srv.stop()


async def test_bad_requests_are_refused_and_change_nothing(server_factory: Any) -> None:
    srv: Server = await server_factory(worker_kind="thread", tables_burst=2)
    http = srv.http
    ann = await new_player(srv)
    await new_player(srv, "Bob")
    r = await http.post("/api/puzzles/players", json={})
    assert (r.status_code, r.json()["error"]) == (429, "rate_limited")
    r = await http.post("/api/puzzles/players", json={"name": ""})
    assert r.status_code == 422
    r = await http.get("/api/puzzles/nope")
    assert (r.status_code, r.json()["error"]) == (404, "no_puzzle")
    r = await http.get("/api/puzzles/next?set=chess")
    assert (r.status_code, r.json()["error"]) == (404, "no_puzzle")
    r = await http.get("/api/puzzles/me", headers={"Authorization": "Bearer not-a-player"})
    assert (r.status_code, r.json()["error"]) == (403, "no_player")
    r = await http.post(f"/api/puzzles/{PUZZLE}/submit", json={"table": OTHER_SOLUTION})
    assert (r.status_code, r.json()["error"]) == (401, "missing_token")
    # Strict bodies: unknown fields and converted values are refused.
    r = await http.post(
        f"/api/puzzles/{PUZZLE}/submit", json={"table": OTHER_SOLUTION, "x": 1}, headers=ann
    )
    assert r.status_code == 422
    r = await http.post(f"/api/puzzles/{PUZZLE}/submit", json={"table": "[K8]"}, headers=ann)
    assert r.status_code == 422
    # Unreadable melds and more cards than the deck holds.
    odd = await submit(srv, ann, PUZZLE, ["[K8 R8 ??]"])
    assert not odd["valid"] and odd["messages"][0]["reason"] == "puzzle.not_valid"
    r = await http.post(
        f"/api/puzzles/{PUZZLE}/submit", json={"table": ["[K8 K8 K8]"]}, headers=ann
    )
    assert (r.status_code, r.json()["error"]) == (413, "too_large")
    assert (await me(srv, ann))["attempts"] == 0
    # The puzzle of the day: one per date and set, the same for everyone.
    days = [
        (await http.get(f"/api/puzzles/daily?set={s}&date={d}")).json()
        for s, d in [
            ("rummikub", "2026-12-02"),
            ("rummikub", "2026-12-02"),
            ("robbers", "2026-12-02"),
        ]
    ]
    assert days[0]["id"] == days[1]["id"] and days[0]["date"] == "2026-12-02"
    assert days[2]["game"] == "robbers"
    r = await http.get("/api/puzzles/daily?set=rummikub&date=yesterday")
    assert r.status_code == 422


async def test_an_attempt_is_rated_once_even_when_sent_at_once(store: Store) -> None:
    start = Glicko(1500.0, 350.0, 0.06)
    await store.create_puzzle_player("p1", "Ann", start, at=0.0)

    def win(me: Glicko, it: Glicko, hinted: bool) -> tuple[float, Glicko, Glicko]:
        return 1.0, Glicko(me.rating + 10, me.deviation, me.volatility), it

    results = await asyncio.gather(
        *(store.rate_puzzle_attempt("p1", "q1", start, win, at=1.0) for _ in range(4)),
        return_exceptions=True,
    )
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert sum(r is not None for r in results) == 1, results
    player = await store.puzzle_player("p1")
    assert player is not None and player.glicko.rating == 1510.0 and player.attempts == 1
    assert (await store.puzzle_attempts("p1"))["q1"].score == 1.0
    assert await store.rate_puzzle_attempt("nobody", "q1", start, win, at=2.0) is None


async def test_indian_answers(server_factory: Any) -> None:
    """The one safe throw: a card not in the hand is no attempt, another throw is a rated
    loss; a declaration grouped otherwise than the stored one solves; a declaration the
    rules refuse changes nothing."""
    srv: Server = await server_factory(worker_kind="thread")
    ann = await new_player(srv)

    async def answer(pid: str, text: str) -> dict[str, Any]:
        r = await srv.http.post(f"/api/puzzles/{pid}/answer", json={"answer": text}, headers=ann)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    throw = "ec392424a496"  # the one safe throw is 8D
    odd = await answer(throw, "discard 2S")
    assert (odd["valid"], odd["rated"]) == (False, False)
    assert odd["messages"] == [{"reason": "not_in_hand", "card": "2S"}]
    assert (await me(srv, ann))["attempts"] == 0
    wrong = await answer(throw, "discard 7S")
    assert (wrong["valid"], wrong["solved"], wrong["rated"]) == (True, False, True)
    assert wrong["player"]["rating"] < 1500

    declare = "6ea257ef4641"  # stored: 7C, [8H 9H 10H] [4D 5D 3D=6D 3C=7D] [JC JH JS] [KH KS KC]
    half = await answer(declare, "declare KC [8H 9H 10H]")
    assert (half["valid"], half["rated"]) == (False, False)
    assert (await me(srv, ann))["attempts"] == 1
    other = await answer(declare, "declare 7C [8H 9H 10H] [3D 4D 5D 3C] [JC JH JS] [KH KS KC]")
    assert (other["solved"], other["rated"], other["score"]) == (True, True, 1.0)
    r = await srv.http.post(f"/api/puzzles/{declare}/submit", json={"table": []}, headers=ann)
    assert (r.status_code, r.json()["error"]) == (422, "wrong_family")
    hand = (
        await srv.http.post(
            f"/api/puzzles/{declare}/hand", json={"groups": [["8H", "9H", "10H"]], "auto": True}
        )
    ).json()
    assert hand["groups"] == [{"kind": "PURE_SEQUENCE", "valid": True}]
    assert hand["auto"] is None  # the hand solver would give the answer away
