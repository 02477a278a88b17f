"""A seeded slice of the fuzz campaign (``scripts/fuzz.py``): matches of every preset and
match format with random legal and illegal actions; see ``helpers.fuzz`` for what is
checked after every step. The planted bugs below show that each check finds what it is
for."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from helpers.fuzz import CASES, case_label, fingerprint, fuzz_match
from openrummy.games import actions, commit, manipulation
from openrummy.games.actions import Draw
from openrummy.games.families import new_match
from openrummy.games.manipulation import ManipulationGame, Result
from openrummy.rules import find_preset


@pytest.mark.parametrize("case", range(len(CASES)), ids=case_label)
def test_fuzzed_matches_keep_every_invariant(case: int) -> None:
    steps = illegal = rejected = replays = 0
    seed = 1000 * (case + 1)
    while steps < 150:
        report = fuzz_match(case, seed, max_steps=150)
        assert report.violations == []
        steps += report.steps
        illegal += report.illegal_sent
        rejected += report.rejected
        replays += report.replays
        seed += 1
    # the slice really sends illegal actions, the engine refuses some, every record replays
    assert illegal > 10 and rejected > 0
    assert replays == seed - 1000 * (case + 1)


def _first_violation(case: int, seeds: range, max_steps: int = 200) -> str:
    for seed in seeds:
        report = fuzz_match(case, seed, max_steps=max_steps)
        if report.violations:
            return report.violations[0]
    return ""


ROBBERS, ROBBERS_PILE = 1, 3  # SINGLE_ROUND, and with the discard pile
assert CASES[ROBBERS][1] == {"match.format": "SINGLE_ROUND"}
assert CASES[ROBBERS_PILE][1].get("discard_pile.enabled") is True


def test_a_draw_that_loses_a_card_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ManipulationGame._do_draw

    def draw_two_keep_one(self: ManipulationGame, action: Draw) -> Result:
        if len(self._stock) > 1:
            self._stock.pop()
        return real(self, action)

    monkeypatch.setattr(ManipulationGame, "_do_draw", draw_two_keep_one)
    found = _first_violation(ROBBERS, range(3))
    assert "draw created or lost cards" in found and "seed 0 step" in found


def test_a_refusal_that_changes_the_state_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ManipulationGame._illegal

    def counting_refusals(self: ManipulationGame, action: Any) -> Any:
        reason = real(self, action)
        if reason is not None:
            self.pass_count += 1
        return reason

    monkeypatch.setattr(ManipulationGame, "_illegal", counting_refusals)
    found = _first_violation(ROBBERS, range(3))
    assert "changed the state" in found


def test_an_accepted_invalid_meld_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    real = commit.analyze_play

    def ignoring_c1(*args: Any, **kwargs: Any) -> Any:
        analysis = real(*args, **kwargs)
        kept = [v for v in analysis.violations if v.code != "C1"]
        return dataclasses.replace(analysis, violations=kept)

    monkeypatch.setattr(manipulation, "analyze_play", ignoring_c1)
    found = _first_violation(ROBBERS, range(5))
    assert "was accepted but left invalid melds" in found


def test_a_take_replayed_as_a_draw_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    real = actions.parse_action

    def take_as_draw(text: str, *, seat: int) -> Any:
        action = real(text, seat=seat)
        return Draw(action.seat) if text.startswith("take") else action

    # the record's reading of actions breaks; the game's own parsing does not
    monkeypatch.setattr(actions, "parse_action", take_as_draw)
    found = _first_violation(ROBBERS_PILE, range(3))
    assert "replay to a different state" in found


def test_the_fingerprint_sees_a_change_deep_inside_the_round() -> None:
    match: Any = new_match(find_preset(*CASES[ROBBERS]), 3, seed=0, clock=lambda: 0.0)
    before = fingerprint(match)
    hand = match.game.hands[1]
    hand[0], hand[1] = hand[1], hand[0]
    assert fingerprint(match) != before  # the same cards in another order
    hand[0], hand[1] = hand[1], hand[0]
    assert fingerprint(match) == before
    match.game.discard_pile.append(match.game._stock.pop())
    assert fingerprint(match) != before
    again: Any = new_match(find_preset(*CASES[ROBBERS]), 3, seed=0, clock=lambda: 0.0)
    assert fingerprint(again) != fingerprint(match)
    again.game.discard_pile.append(again.game._stock.pop())
    assert fingerprint(again) == fingerprint(match)  # equal states, not the same objects
