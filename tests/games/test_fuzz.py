"""A seeded slice of the fuzz campaign (``scripts/fuzz.py``): matches of every preset and
match format with random legal and illegal actions; see ``helpers.fuzz`` for what is
checked after every step."""

from __future__ import annotations

import pytest

from helpers.fuzz import CASES, case_label, fuzz_match


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
