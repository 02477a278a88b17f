"""The table solver with ``meld.min_naturals`` above one: runs whose naturals are further
apart than ``meld.min_len`` (``[3S JK JK 6S]``), in every ace mode and both cores.

A hand card that no meld could use is left out of the search before it starts; with two
naturals per run a card may be usable only in a run longer than ``meld.min_len``.
"""

from __future__ import annotations

import pytest

from helpers import manipulation_rules
from helpers.ilp_reference import optimum
from helpers.positions import assert_matches_reference, check_play, movable_cards, random_position
from openrummy import Meld
from openrummy.cards import parse_cards
from openrummy.solve import SolverSettings, best_play

ACE_MODES = ("LOW_ONLY", "HIGH_OR_LOW", "WRAPAROUND")

CORES = {"compiled": SolverSettings(compiled=True), "python": SolverSettings(compiled=False)}

# (table, hand, min_naturals, cards placed per ace mode in ACE_MODES order)
CASES: list[tuple[str, str, int, tuple[int, int, int]]] = [
    ("", "3S JK JK 6S", 2, (4, 4, 4)),
    ("", "3S JK JK JK 7S", 2, (5, 5, 5)),
    ("", "3S JK 5S JK", 2, (4, 4, 4)),
    ("", "3S 4S JK JK", 2, (4, 4, 4)),
    ("", "JK 4S 5S JK", 2, (4, 4, 4)),
    ("", "3S JK JK 6S JK JK 9S", 3, (7, 7, 7)),
    ("", "3S JK JK 6S JK JK 9S", 2, (7, 7, 7)),
    # over the corner: J-Q-K-A needs a high ace, Q-K-A-2 a wrap-around
    ("", "JS JK JK AS", 2, (0, 4, 4)),
    ("", "QS JK JK 2S", 2, (0, 0, 4)),
    # the second natural on the table: [3S JK JK 6S 7S 8S]
    ("[6S 7S 8S]", "3S JK JK", 2, (3, 3, 3)),
]


@pytest.mark.parametrize("core", list(CORES))
@pytest.mark.parametrize("ace", ACE_MODES)
@pytest.mark.parametrize(("table_text", "hand_text", "min_nat", "want"), CASES)
def test_runs_with_naturals_far_apart(
    core: str,
    ace: str,
    table_text: str,
    hand_text: str,
    min_nat: int,
    want: tuple[int, int, int],
) -> None:
    rules = manipulation_rules("robbers_s003", {"meld.min_naturals": min_nat, "meld.ace_mode": ace})
    table = [Meld.parse(table_text)] if table_text else []
    hand = parse_cards(hand_text)
    play = best_play(rules, table, hand, opened=True, settings=CORES[core])
    check_play(rules, table, hand, play, opened=True)
    assert play.count == want[ACE_MODES.index(ace)]
    ref = optimum(rules, movable_cards(rules, table), hand, opened=True)
    assert (play.count, play.value) == ((ref.count, ref.value) if ref else (0, 0))


def test_sample_seed_862223937_position() -> None:
    # OPENRUMMY_SAMPLE_SEED=862223937, table chunk 0: the solver placed 9 cards worth 76,
    # the reference 9 worth 79 (3S/6S-style runs left out)
    p = random_position(971201147459, table_cards=11)
    assert "'meld.min_naturals': 2" in p.label and "WRAPAROUND" in p.label
    assert assert_matches_reference(p) == (9, 79)
