"""Matches: RULES.md T27, T28 and the match formats of §3.6 and §4.6."""

from __future__ import annotations

from helpers import cards, manipulation_rules, melds
from openrummy.games.actions import Draw, Play
from openrummy.games.manipulation import ManipulationGame
from openrummy.games.match import ManipulationMatch

STOCK = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC"


def finish_round(match: ManipulationMatch, winner: int, losers: dict[int, str]) -> None:
    """End the current round: ``winner`` goes out, the others hold ``losers``' cards."""
    seats = match.seats
    hands = [cards("5H 6H 7H") if s == winner else cards(losers[s]) for s in seats]
    match.game = ManipulationGame.from_position(
        match.game.rules,
        hands=hands,
        stock=cards(STOCK),
        current=seats.index(winner),
        opened=[True] * len(seats),
    )
    match.apply(Play(winner, melds("[5H 6H 7H]")))


def test_T27_match_tie_break_by_rounds_won() -> None:
    match = ManipulationMatch(manipulation_rules("robbers"), 3, seed=1)
    finish_round(match, 0, {1: "KS", 2: "KS"})
    finish_round(match, 0, {1: "KS", 2: "KS"})
    finish_round(match, 1, {0: "KS KH", 2: "KS KH 10D 5D"})
    finish_round(match, 2, {0: "KS", 1: "KS"})
    assert match.outcome is None
    finish_round(match, 2, {0: "KS", 1: "KS"})
    assert match.totals == [40, 40, 55] and match.rounds_won == [2, 1, 2]
    assert match.outcome is not None
    assert match.outcome.winners == (0,) and match.outcome.decided_by == "most rounds won"


def test_T27_extra_round_among_the_tied_players() -> None:
    match = ManipulationMatch(manipulation_rules("robbers"), 3, seed=1)
    finish_round(match, 0, {1: "KS", 2: "KS"})
    finish_round(match, 0, {1: "KS", 2: "KS"})
    finish_round(match, 1, {0: "KS", 2: "KS KH 5D"})
    finish_round(match, 1, {0: "KS", 2: "KS"})
    finish_round(match, 2, {0: "KS KH", 1: "KS KH"})
    assert match.totals == [40, 40, 55] and match.rounds_won == [2, 2, 1]
    assert match.outcome is None
    assert match.seats == (0, 1)  # an extra round between P1 and P2 only
    assert [len(h) for h in match.game.hands] == [13, 13]
    view = match.view(2)
    assert view.hand is None and view.hand_sizes[2] is None
    finish_round(match, 1, {0: "QS"})
    assert match.outcome is not None
    assert match.outcome.winners == (1,) and "extra round" in match.outcome.decided_by
    assert match.totals == [40, 40, 55]  # the extra round decides, it does not add


def test_T28_first_to_three_outs() -> None:
    rules = manipulation_rules("robbers", **{"match.format": "FIRST_TO_N_OUTS"})
    match = ManipulationMatch(rules, 3, seed=2)
    finish_round(match, 1, {0: "KS", 2: "KS"})
    finish_round(match, 0, {1: "AS AH AD AC JK JK", 2: "KS"})
    finish_round(match, 1, {0: "KS", 2: "KS"})
    assert match.outcome is None
    finish_round(match, 1, {0: "2S", 2: "2S"})
    assert match.outcome is not None and match.outcome.winners == (1,)
    assert match.totals[1] > match.totals[0]  # regardless of penalty totals
    assert match.outcome.decided_by == "first to 3 outs"


def test_single_round_format_and_automatic_rounds() -> None:
    match = ManipulationMatch(manipulation_rules("robbers_s003"), 2, seed=3)
    finish_round(match, 1, {0: "KS"})
    assert match.outcome is not None and match.outcome.winners == (1,)

    match = ManipulationMatch(manipulation_rules("robbers"), 4, seed=4)
    finish_round(match, 0, {1: "KS", 2: "KH", 3: "KD"})
    assert match.round_index == 1 and match.outcome is None
    assert [len(h) for h in match.game.hands] == [11, 11, 11, 11]  # the next round was dealt
    assert match.totals == [0, 10, 10, 10]


def test_dealer_rotates_clockwise() -> None:
    match = ManipulationMatch(manipulation_rules("robbers"), 4, seed=9)
    dealt_by = [match.game.dealer]
    for _ in range(3):
        # The test ends each round from a position whose dealer sits right of the winner,
        # so the next deal must come from the seat after that.
        winner = match.current
        finish_round(match, winner, {s: f"{s + 2}D" for s in range(4)})
        dealt_by.append(match.game.dealer)
        assert match.game.dealer == winner  # (winner - 1) + 1
    assert len(set(dealt_by)) >= 1


def test_rummikub_highest_total_and_target_score() -> None:
    rules = manipulation_rules("rummikub", **{"match.target_score": 40})
    match = ManipulationMatch(rules, 2, seed=5)
    assert all(len(h) == 14 for h in match.game.hands)
    match.game = ManipulationGame.from_position(
        rules,
        hands=[cards("R3 R4 R5"), cards("B13 K13")],
        stock=cards("K2 K3"),
        opened=[True, True],
    )
    match.apply(Play(0, melds("[R3 R4 R5]")))
    assert match.outcome is None and match.totals == [26, -26]
    match.game = ManipulationGame.from_position(
        rules,
        hands=[cards("R3 R4 R5"), cards("B13 K13")],
        stock=cards("K2 K3"),
        opened=[True, True],
    )
    match.apply(Play(0, melds("[R3 R4 R5]")))
    assert match.outcome is not None and match.outcome.winners == (0,)
    assert match.outcome.decided_by == "highest total"


def test_match_rejects_actions_after_the_end_and_from_absent_seats() -> None:
    import pytest

    from openrummy.errors import IllegalActionError

    match = ManipulationMatch(manipulation_rules("robbers_s003"), 2, seed=3)
    finish_round(match, 0, {1: "KS"})
    with pytest.raises(IllegalActionError, match="over"):
        match.apply(Draw(1))


def test_first_dealer_is_cut_from_the_seed() -> None:
    rules = manipulation_rules("robbers")
    dealers = {ManipulationMatch(rules, 4, seed=s).first_dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert (
        ManipulationMatch(rules, 4, seed=7).first_dealer
        == ManipulationMatch(rules, 4, seed=7).first_dealer
    )
    rummikub = manipulation_rules("rummikub")
    m = ManipulationMatch(rummikub, 3, seed=2)
    assert m.game.current == (m.first_dealer + 1) % 3  # the highest tile starts
