"""`rummy replay --verify` proves the whole deal: honest server records pass, forgeries fail.

Records are made the way the server makes them (``server/lobby.py``): a fresh 64-hex seed, a
``sha256-deal`` commitment to the seed, preset, overrides and number of players published at
the start, no ``decks`` and no ``first_dealer`` in the record, the commitment in
``meta.fairness``. Each forgery keeps an honest seed and commitment and changes one thing.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from helpers import manipulation_rules
from openrummy.bots import make_bot, play_match
from openrummy.cards import Card
from openrummy.cli import app
from openrummy.games.families import new_match
from openrummy.record import GameRecord
from openrummy.rules import find_preset
from openrummy.server import fairness
from openrummy.verify import (
    LEGACY_SCHEME,
    SCHEME,
    deal_commitment,
    deal_terms,
    seed_commitment,
    verify_deal,
)

SEED = "5eed" * 16
runner = CliRunner()


def play(
    preset: str,
    options: Mapping[str, Any],
    *,
    seed: str = SEED,
    players: int = 2,
    decks: Sequence[Sequence[Card]] | None = None,
    first_dealer: int | None = None,
) -> Any:
    rules = find_preset(preset, dict(options))
    match = new_match(rules, players, seed=seed, decks=decks, first_dealer=first_dealer)
    play_match(match, [make_bot("simple", rules) for _ in range(players)])
    return match


def server_record(
    match: Any, preset: str, options: Mapping[str, Any], *, seed: str = SEED
) -> GameRecord:
    """The record as ``GET /api/tables/{id}/record`` writes it (from the stored log)."""
    players = match.players
    digest = fairness.commitment(seed, game=preset, options=options, players=players)
    return GameRecord(
        game=preset,
        players=[f"P{i + 1}" for i in range(players)],
        seed=seed,
        options=dict(options),
        actions=list(match.history),
        result=match.outcome.to_json() if match.outcome is not None else None,
        meta={
            "fairness": {"scheme": fairness.scheme_of(seed, digest), "commitment": digest},
            "status": "finished" if match.outcome is not None else "aborted",
        },
    )


ROBBERS = ("robbers", {"match.format": "SINGLE_ROUND"})


@cache
def honest(preset: str = ROBBERS[0], options: str = json.dumps(ROBBERS[1])) -> GameRecord:
    opts = json.loads(options)
    return server_record(play(preset, opts), preset, opts)


def published(rec: GameRecord) -> str:
    return str(rec.meta["fairness"]["commitment"])


def problems(rec: GameRecord, commitment: str | None = None, **kw: Any) -> str:
    check = verify_deal(rec, commitment, **kw)
    assert not check.ok
    return "\n".join(check.problems)


def write(tmp_path: Path, rec: GameRecord, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(rec.dumps(), encoding="utf-8")
    return path


# -- honest records ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ROBBERS,
        ("robbers", {}),
        ("rummikub", {"match.format": "SINGLE_ROUND"}),
        ("indian13", {}),
    ],
)
def test_an_honest_server_record_verifies(preset: str, options: dict[str, Any]) -> None:
    rec = honest(preset, json.dumps(options))
    check = verify_deal(rec, published(rec))
    assert check.ok, check.problems
    assert check.finished and not check.partial
    assert check.scheme == SCHEME and check.published
    assert check.actions == len(rec.actions)
    assert check.rounds == len(check.match.rounds) >= 1
    assert check.match.first_dealer == rec.new_match().first_dealer


def test_the_commitment_covers_the_deal_terms() -> None:
    rec = honest()
    terms = deal_terms(SEED, game="robbers", options=ROBBERS[1], players=2)
    assert json.loads(terms) == {
        "game": "robbers",
        "options": {"match.format": "SINGLE_ROUND"},
        "players": 2,
        "seed": SEED,
    }
    assert published(rec) == seed_commitment(terms) != seed_commitment(SEED)


def test_the_cli_proves_an_honest_record(tmp_path: Path) -> None:
    rec = honest()
    res = runner.invoke(
        app, ["replay", str(write(tmp_path, rec)), "--verify", "--commitment", published(rec)]
    )
    assert res.exit_code == 0, res.output
    assert f"verified: {published(rec)} = sha256 of the seed, preset, options" in res.output
    assert "the commitment you gave" in res.output
    assert "1 deck and the first dealer recomputed from the seed" in res.output
    assert "the game is complete" in res.output
    as_json = runner.invoke(app, ["replay", str(write(tmp_path, rec)), "--verify", "--json"])
    assert as_json.exit_code == 0, as_json.output
    verdict = json.loads(as_json.output)["verification"]
    assert verdict["ok"] and not verdict["partial"] and not verdict["published"]


def test_honest_decks_and_first_dealer_fields_are_accepted() -> None:
    rec = honest()
    seeded = rec.new_match()
    full = dataclasses.replace(
        rec,
        decks=[[str(c) for c in seeded.game.initial_deck]],
        first_dealer=seeded.first_dealer,
    )
    assert verify_deal(full, published(rec)).ok


def test_a_legacy_seed_only_commitment_verifies_and_says_what_it_covers() -> None:
    rec = honest()
    legacy = dataclasses.replace(
        rec, meta={"fairness": {"scheme": LEGACY_SCHEME, "commitment": seed_commitment(SEED)}}
    )
    check = verify_deal(legacy)
    assert check.ok, check.problems
    assert "the preset and options are not committed" in check.summary()[0]


# -- forgeries --------------------------------------------------------------------------------


def test_a_deck_chosen_by_the_dealer_fails(tmp_path: Path) -> None:
    preset, options = ROBBERS
    seeded = new_match(find_preset(preset, options), 2, seed=SEED)
    chosen = sorted(seeded.game.initial_deck, key=str)  # the dealer's stacked deck
    match = play(preset, options, decks=[chosen])
    rec = dataclasses.replace(
        server_record(match, preset, options), decks=[[str(c) for c in chosen]]
    )
    assert rec.replay().is_over  # the forgery replays: only the seed check can catch it
    found = problems(rec, published(rec))
    first = seeded.game.initial_deck[0]
    assert (
        f"decks: round 1: the record's deck differs from the seed's shuffle from card 1 on (record {chosen[0]}, seed {first})"
        in found
    )
    res = runner.invoke(app, ["replay", str(write(tmp_path, rec)), "--verify"])
    assert res.exit_code == 1
    assert "not verified: decks: round 1" in res.output


def test_a_deck_for_a_round_never_dealt_fails() -> None:
    rec = honest()
    deck = [str(c) for c in rec.new_match().game.initial_deck]
    found = problems(dataclasses.replace(rec, decks=[deck, deck]))
    assert "decks: round 2: the record lists a deck for a round that was never dealt" in found


def test_a_first_dealer_the_seed_did_not_pick_fails(tmp_path: Path) -> None:
    preset, options = ROBBERS
    cut = new_match(find_preset(preset, options), 2, seed=SEED).first_dealer
    other = 1 - cut
    match = play(preset, options, first_dealer=other)
    rec = dataclasses.replace(server_record(match, preset, options), first_dealer=other)
    assert rec.replay().is_over
    found = problems(rec, published(rec))
    assert f"first_dealer: the record says seat {other}, the seed's cut gives seat {cut}" in found
    res = runner.invoke(app, ["replay", str(write(tmp_path, rec)), "--verify"])
    assert res.exit_code == 1
    assert "not verified: first_dealer" in res.output


def test_an_unfinished_record_fails_unless_a_partial_check_is_asked_for(
    tmp_path: Path,
) -> None:
    rec = honest()
    half = len(rec.actions) // 2
    cut = dataclasses.replace(rec, actions=rec.actions[:half], result=None)
    found = problems(cut, published(rec))
    assert f"unfinished: the record stops after {half} actions, in round 1" in found
    path = write(tmp_path, cut)
    res = runner.invoke(app, ["replay", str(path), "--verify"])
    assert res.exit_code == 1
    assert "not verified: unfinished" in res.output
    check = verify_deal(cut, published(rec), allow_unfinished=True)
    assert check.ok and check.partial and check.actions == half
    ok = runner.invoke(app, ["replay", str(path), "--verify", "--allow-unfinished"])
    assert ok.exit_code == 0, ok.output
    assert f"PARTIAL: the game is not finished; only its first {half} actions" in ok.output


def test_a_record_from_before_outcomes_carried_their_decision_verifies() -> None:
    rec = honest()
    assert rec.result is not None and "decision" in rec.result
    older = dataclasses.replace(
        rec, result={k: v for k, v in rec.result.items() if k != "decision"}
    )
    check = verify_deal(older, published(older))
    assert check.ok, check.problems
    assert older.result is not None
    forged = dataclasses.replace(older, result={**older.result, "winners": [9]})
    assert "result:" in problems(forged)


def test_a_cut_record_that_keeps_the_result_fails() -> None:
    rec = honest()
    cut = dataclasses.replace(rec, actions=rec.actions[: len(rec.actions) // 2])
    found = problems(cut, allow_unfinished=True)
    assert "result: the record claims a result, but its actions stop before the game ends" in found


def test_a_relabelled_preset_fails(tmp_path: Path) -> None:
    # Robbers' Rummy and Vatikan (S000) have the same rules: the deal alone cannot tell them
    # apart, the commitment to the deal terms does.
    rec = honest()
    assert (
        manipulation_rules("vatikan_s000").describe_differences(manipulation_rules("robbers")) == {}
    )
    relabelled = dataclasses.replace(rec, game="vatikan_s000")
    found = problems(relabelled)
    assert "game: the record says 'vatikan_s000', the commitment was made for 'robbers'" in found
    res = runner.invoke(app, ["replay", str(write(tmp_path, relabelled)), "--verify"])
    assert res.exit_code == 1
    assert "not verified: game:" in res.output

    # Re-committed to the new label: the record is consistent, but not with what was published.
    digest = deal_commitment(SEED, game="vatikan_s000", options=ROBBERS[1], players=2)
    recommitted = dataclasses.replace(
        relabelled, meta={"fairness": {"scheme": SCHEME, "commitment": digest}}
    )
    assert verify_deal(recommitted).ok
    assert "is not the one published" in problems(recommitted, published(rec))


def test_a_relabel_to_a_preset_with_other_rules_fails_on_the_deal_too() -> None:
    rec = honest()
    found = problems(dataclasses.replace(rec, game="vatikan_pagat"))
    assert "the commitment was made for 'robbers'" in found
    assert "does not replay from the seed" in found


def test_changed_options_or_players_fail() -> None:
    rec = honest()
    more = dataclasses.replace(rec, options={**rec.options, "opening.threshold": 30})
    assert "the deal terms do not match the commitment" in problems(more)
    bare = honest("robbers", json.dumps({}))
    added = dataclasses.replace(bare, options={"match.format": "SINGLE_ROUND"})
    assert "options: the record adds {'match.format': 'SINGLE_ROUND'}" in problems(added)
    three = dataclasses.replace(rec, players=[*rec.players, "P3"])
    assert "players: the record has 3, the commitment was made for 2" in problems(three)


def test_standings_are_refused() -> None:
    rec = honest("robbers", json.dumps({}))
    started = dataclasses.replace(rec, standings={"round": 1, "totals": [0, 0]})
    assert "standings: the record starts from given standings" in problems(started)


def test_a_seed_that_is_not_the_committed_one_fails() -> None:
    rec = honest()
    other = dataclasses.replace(rec, seed="0" * 64)
    found = problems(other, published(rec))
    assert "the deal terms do not match the commitment" in found


def test_allow_unfinished_needs_verify(tmp_path: Path) -> None:
    res = runner.invoke(app, ["replay", str(write(tmp_path, honest())), "--allow-unfinished"])
    assert res.exit_code == 2
    assert "go with --verify" in res.output
