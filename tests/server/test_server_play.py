"""Whole games through the server: people, bots on the server, records and fair deals."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.players import play_out
from helpers.server import Server
from openrummy.record import GameRecord
from openrummy.server.fairness import check_commitment, commitment
from openrummy.verify import verify_deal

pytestmark = pytest.mark.anyio


async def test_two_people_play_to_the_end_and_the_deal_verifies(server: Server) -> None:
    made = await server.create(preset="robbers_s003", match_format="SINGLE_ROUND", seats=[{}, {}])
    tid = made["table"]["id"]
    a = await server.join(tid, "Ann")
    b = await server.join(tid, "Bob")
    ca = await server.client(tid, a["token"])
    cb = await server.client(tid, b["token"])
    watcher = await server.client(tid)
    started = await server.start_table(tid, made["creator_token"])
    published = started["game"]["commitment"]
    assert started["game"]["seed"] is None
    ca.welcome = await ca.expect("welcome", lambda m: m["view"] is not None)
    cb.welcome = await cb.expect("welcome", lambda m: m["view"] is not None)
    assert ca.welcome["table"]["game"]["commitment"] == published
    sent = await play_out(
        {a["seat"]: ca, b["seat"]: cb}, "robbers_s003", {"match.format": "SINGLE_ROUND"}
    )
    reveal = await watcher.expect("reveal")
    deal_options = {"match.format": "SINGLE_ROUND"}
    assert (
        commitment(reveal["seed"], game="robbers_s003", options=deal_options, players=2)
        == published
    )
    r = await server.http.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200
    rec = GameRecord.from_json(r.json())
    assert len(rec.actions) == sent
    assert check_commitment(rec, published) == (published, "sha256-deal")
    assert verify_deal(rec, published).finished
    assert rec.replay().is_over
    info = (await server.http.get(f"/api/tables/{tid}")).json()
    assert info["status"] == "finished" and info["game"]["seed"] == reveal["seed"]
    listed = (await server.http.get("/api/tables", params={"status": "finished"})).json()
    assert [t["id"] for t in listed] == [tid]


async def test_replay_verify_checks_the_revealed_seed(server: Server, tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from openrummy.cli import app

    made = await server.create(
        preset="robbers",
        match_format="SINGLE_ROUND",
        seats=[{"kind": "bot", "bot": "simple"}, {"kind": "bot", "bot": "random"}],
    )
    tid = made["table"]["id"]
    watcher = await server.client(tid)
    started = await server.start_table(tid, made["creator_token"])
    published = started["game"]["commitment"]
    await watcher.expect("reveal")
    record = (await server.http.get(f"/api/tables/{tid}/record")).json()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record), encoding="utf-8")
    runner = CliRunner()
    ok = runner.invoke(app, ["replay", str(good), "--verify", "--commitment", published])
    assert ok.exit_code == 0, ok.output
    assert f"verified: {published} = sha256 of the seed, preset, options" in ok.output
    assert "the game is complete" in ok.output

    other = await server.client(tid)  # another table's seed must not pass for this one
    assert other.welcome["table"]["game"]["seed"] == record["seed"]
    forged = dict(record, seed="0" * 64)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(forged), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(bad), "--verify"])
    assert res.exit_code == 1
    assert "the deal terms do not match the commitment" in res.output
    wrong = runner.invoke(app, ["replay", str(good), "--verify", "--commitment", "ab" * 32])
    assert wrong.exit_code == 1
    assert "is not the one published" in wrong.output


async def test_a_closed_games_record_verifies_only_as_a_partial_check(server: Server) -> None:
    made = await server.create(preset="robbers", seats=[{}, {"kind": "bot", "bot": "random"}])
    tid = made["table"]["id"]
    await server.join(tid, "Ann")
    started = await server.start_table(tid, made["creator_token"])
    published = started["game"]["commitment"]
    auth = {"Authorization": f"Bearer {made['creator_token']}"}
    r = await server.http.post(f"/api/tables/{tid}/close", headers=auth)
    assert r.status_code == 200 and r.json()["game"]["status"] == "aborted"
    rec = GameRecord.from_json((await server.http.get(f"/api/tables/{tid}/record")).json())
    unfinished = verify_deal(rec, published)
    assert not unfinished.ok and unfinished.problems[0].startswith("unfinished:")
    partial = verify_deal(rec, published, allow_unfinished=True)
    assert partial.ok and partial.partial, partial.problems
