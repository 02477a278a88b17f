"""The solver's own normal forms of melds against :meth:`Meld.normalized`.

The solver orders the melds of its answers, and the table's melds it compares with them,
from their suits and ranks alone (without checking them again): both orders must be the
ones :meth:`Meld.normalized` gives, for every kind of valid meld in every ace mode.
"""

from __future__ import annotations

import random

import pytest

from openrummy.cards import Card, Suit
from openrummy.melds import AceMode, Meld, MeldRules, run_order, run_positions
from openrummy.solve.table import _core_meld, _items, _normal

MODES = [
    MeldRules(ace_mode=AceMode.LOW_ONLY),
    MeldRules(ace_mode=AceMode.HIGH_OR_LOW),
    MeldRules(ace_mode=AceMode.HIGH_OR_LOW, ace_both_ends=True),
    MeldRules(ace_mode=AceMode.WRAPAROUND),
    MeldRules(ace_mode=AceMode.WRAPAROUND, set_max=8, min_naturals=2),
]


def _cells(rnd: random.Random, mr: MeldRules) -> list[tuple[int, int, bool]]:
    """(suit, rank, is a joker) of a random meld, valid or not, items shuffled."""
    if rnd.random() < 0.5:
        n = rnd.randint(3, min(mr.set_max, 8))
        suits = [s for s in range(4) for _ in range(2)]
        rnd.shuffle(suits)
        rank = rnd.randint(1, 13)
        cells = [(s, rank, rnd.random() < 0.3) for s in suits[:n]]
    else:
        n = rnd.randint(3, 14)
        start = rnd.randint(1, 13)
        suit = rnd.randrange(4)
        cells = [(suit, (start - 1 + k) % 13 + 1, rnd.random() < 0.3) for k in range(n)]
    rnd.shuffle(cells)
    return cells


@pytest.mark.parametrize("mr", MODES, ids=lambda m: f"{m.ace_mode.name}-{m.ace_both_ends}")
def test_the_solver_orders_melds_as_normalized_does(mr: MeldRules) -> None:
    made = _items(False)
    rnd = random.Random(7)
    checked = 0
    for _ in range(4000):
        cells = _cells(rnd, mr)
        meld = Meld(tuple(made[j][s][r - 1] for s, r, j in cells))
        if not meld.is_valid(mr):
            continue
        checked += 1
        want = meld.normalized(mr)
        assert _core_meld(tuple(cells), False, mr) == want, meld
        assert _normal(meld, mr) == want, meld
    assert checked > 1000


def test_a_wild_natural_takes_the_general_path() -> None:
    """A natural standing for another card (a wild rank) is ordered by
    :meth:`Meld.normalized` itself."""
    mr = MeldRules(wild_rank=2)
    meld = Meld.parse("[9H 2S=10H 8H]")
    assert meld.is_valid(mr)
    assert _normal(meld, mr) == meld.normalized(mr) == Meld.parse("[8H 9H 2S=10H]")


def _window_order(ranks: list[int]) -> list[int] | None:
    """Wrap-around run order by its definition: the first window of the cycle, starting
    from the A, then the 2, ..., that holds exactly these ranks; None if none does."""
    for start in range(1, 14):
        window = [(start - 1 + k) % 13 + 1 for k in range(len(ranks))]
        if len(ranks) <= 13 and sorted(window) == sorted(ranks):
            return sorted(range(len(ranks)), key=lambda i: window.index(ranks[i]))
    return None


def test_wraparound_run_order_is_the_first_window_of_the_cycle() -> None:
    mr = MeldRules(ace_mode=AceMode.WRAPAROUND)
    rnd = random.Random(11)
    for mask in range(1, 1 << 13):
        ranks = [r + 1 for r in range(13) if mask >> r & 1]
        rnd.shuffle(ranks)
        assert run_order(ranks, mr) == _window_order(ranks), ranks
        assert run_positions([Card(r, Suit.H) for r in ranks], mr) == _window_order(ranks)
    for _ in range(2000):  # repeated ranks, more than 13
        ranks = [rnd.randint(1, 13) for _ in range(rnd.randint(2, 15))]
        assert run_order(ranks, mr) == _window_order(ranks), ranks
    assert run_positions([Card(5, Suit.H), Card(6, Suit.S), Card(7, Suit.H)], mr) is None
