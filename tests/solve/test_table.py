"""The table solver on crafted positions: the rules' own examples and the corners.

Every test runs five ways (the ``settings`` fixture): the dynamic program as configured
by default (``dp``), and four other searches chosen by :class:`SolverSettings`, among them
the integer program that takes over when the dynamic program's state budget runs out
(``milp``, forced by a budget of 0). Every one must be exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import pytest

from helpers import manipulation_rules
from helpers.ilp_reference import optimum
from helpers.positions import check_play, movable_cards, random_position
from openrummy import ConfigError, InvalidMeldError, Meld, NotationError
from openrummy.cards import JOKER, Card, Suit, parse_cards
from openrummy.solve import BestPlay, SolverSettings, arrange, best_play, can_arrange
from openrummy.solve.table import can_place

METHODS = {
    "dp": SolverSettings(),
    "race": SolverSettings(race_step=1),
    "python": SolverSettings(compiled=False),
    "lp": SolverSettings(lp_after=0, compiled_lp_after=0, compiled_lp_on_no=True),
    "milp": SolverSettings(dp_budget=0, lp_bound=False, open_candidates=0),
}
"""The DP as configured (compiled where it applies); the compiled DP racing its mirror
image in turns of one state, so that either rank order may answer; the Python DP alone;
the linear relaxation asked first at every position (its bound, or its solution when
integral); the integer program alone (the opening constraint in it too, not the list of
ways to open)."""


@pytest.fixture(params=list(METHODS))
def settings(request: pytest.FixtureRequest) -> SolverSettings:
    """Every crafted position five ways (see ``METHODS``)."""
    return METHODS[request.param]


def melds(*texts: str) -> list[Meld]:
    return [Meld.parse(t) for t in texts]


def solve(
    settings: SolverSettings,
    game: str,
    table: list[Meld],
    hand: str,
    *,
    opened: bool = True,
    over: Mapping[str, object] | None = None,
) -> BestPlay:
    rules = manipulation_rules(game, over)
    cards = parse_cards(hand) if hand else []
    play = best_play(rules, table, cards, opened=opened, settings=settings)
    check_play(rules, table, cards, play, opened=opened)
    ref = optimum(rules, movable_cards(rules, table), cards, opened=opened)
    assert (play.count, play.value) == ((ref.count, ref.value) if ref else (0, 0))
    return play


def strs(play: BestPlay) -> list[str]:
    return sorted(str(m) for m in play.table)


# -- RULES.md §3.9 and T10–T12 -----------------------------------------------------------


def test_t11_s000_example_without_joker(settings: SolverSettings) -> None:
    play = solve(settings, "robbers", melds("[4S 5S 6S 7S]"), "3S 4H 4D")
    assert play.count == 2 and [str(c) for c in play.hand] == ["3S"]
    assert strs(play) == ["[4S 4H 4D]", "[5S 6S 7S]"]
    assert play.kept == 0


def test_t12_s000_example_with_joker_places_everything(settings: SolverSettings) -> None:
    play = solve(settings, "robbers", melds("[4S 5S 6S 7S]"), "3S 4H 4D JK")
    assert play.count == 4 and play.hand == ()
    assert play.value == 3 + 4 + 4 + 30


def test_t10_printed_result_is_never_produced(settings: SolverSettings) -> None:
    play = solve(settings, "robbers", melds("[4S 5S 6S 7S]"), "3S 4H 4D")
    assert "[3S 5S 6S 7S]" not in strs(play)


def test_kept_melds_tie_break(settings: SolverSettings) -> None:
    play = solve(settings, "robbers", melds("[7S 7H 7D]", "[2C 3C 4C]", "[9H 10H JH]"), "5C QH")
    assert play.count == 2 and play.kept == 1
    assert "[7S 7H 7D]" in strs(play)


def test_kept_melds_from_pieces_of_a_longer_run(settings: SolverSettings) -> None:
    # a play may join two table runs into one: the piece that is an old meld stays
    play = solve(settings, "robbers", melds("[3S 4S 5S]", "[6S 7S 8S]"), "9S")
    assert play.count == 1 and play.kept == 1 and "[3S 4S 5S]" in strs(play)
    # round the K–A corner
    play = solve(settings, "robbers_s003", melds("[QS KS AS]", "[2S 3S 4S]"), "5S")
    assert play.count == 1 and play.kept == 1 and "[QS KS AS]" in strs(play)


def test_kept_melds_with_four_decks(settings: SolverSettings) -> None:
    four: dict[str, object] = {"deck.standard_decks": 4, "deck.printed_jokers": 6}
    table = melds("[5H 6H 7H]", "[5H 6H 7H]", "[5H 6H 7H]", "[5H 6H 7H]", "[9C 9D 9S]")
    play = solve(settings, "robbers", table, "8H 8H JK", over=four)
    # two runs grow, the joker joins the set of nines or a run: three melds at least stay
    assert play.count == 3 and play.kept >= 3


def test_kept_melds_wraparound_four_decks(settings: SolverSettings) -> None:
    # each hand card must join a meld (the two make no meld together), so at most the
    # other three stay; the tie-break keeps all three, round the K–A corner too
    four: dict[str, object] = {"deck.standard_decks": 4, "deck.printed_jokers": 6}
    table = melds("[QS KS AS]", "[QS KS AS]", "[5H 5D 5C]", "[8D 9D 10D]", "[JK=2C 3C 4C]")
    play = solve(settings, "robbers_s003", table, "2S JD", over=four)
    assert play.count == 2 and play.kept == 3
    assert strs(play).count("[QS KS AS]") == 1 and "[5H 5D 5C]" in strs(play)


def test_kept_melds_on_an_opening_turn(settings: SolverSettings) -> None:
    # the run from the hand opens (40 points), the 3S joins a table run: the two other
    # table melds stay as they were
    table = melds("[4S 5S 6S]", "[9H 9D 9C]", "[JC QC KC]")
    play = solve(settings, "robbers", table, "10H JH QH KH 3S", opened=False)
    assert play.count == 5 and play.kept == 2
    assert "[9H 9D 9C]" in strs(play) and "[JC QC KC]" in strs(play)


def test_kept_melds_when_the_optimal_play_rearranges_everything() -> None:
    # the count-and-value play may build sets of the 7s, 8s and 9s (it keeps one run of
    # three); the tie-break rearranges them into the three table runs and the hand's two
    table = melds("[7S 8S 9S]", "[7H 8H 9H]", "[7D 8D 9D]")
    rules = manipulation_rules("robbers")
    hand = parse_cards("7C 8C 9C 7S 8S 9S")
    fast = best_play(rules, table, hand, keep_melds=False)
    play = best_play(rules, table, hand)
    check_play(rules, table, hand, play, opened=True)
    assert (play.count, play.value) == (fast.count, fast.value) == (6, 48)
    assert play.kept == 3


@pytest.mark.parametrize("seed", range(6))
def test_tie_break_keeps_at_least_what_the_optimal_play_keeps(seed: int) -> None:
    # the kept-melds tie-break starts from the optimal play (keep_melds=False): it never
    # keeps fewer melds, and never places other cards
    p = random_position(9100 + seed, table_cards=30 + 8 * seed, hand_cards=10)
    fast = best_play(p.rules, p.table, p.hand, opened=p.opened, keep_melds=False)
    full = best_play(p.rules, p.table, p.hand, opened=p.opened)
    check_play(p.rules, p.table, p.hand, full, opened=p.opened)
    assert (full.count, full.value) == (fast.count, fast.value), p.label
    assert full.kept >= fast.kept, p.label
    # kept counts the old melds the new table holds unchanged, each new meld once
    mr = p.rules.meld_rules
    for play in (fast, full):
        before = Counter(m.normalized(mr) for m in play.before)
        after = Counter(m.normalized(mr) for m in play.table)
        assert play.kept == (before & after).total(), p.label


# -- the corners of issue 3 ------------------------------------------------------------


def test_one_suit_needs_three_runs_because_of_jokers(settings: SolverSettings) -> None:
    # Every spade twice, two jokers, no sets possible (min_naturals = 2 and one suit):
    # a joker in a run at rank r means three runs through r. A state with only two open
    # runs per suit would leave the jokers in the hand.
    spades = " ".join(f"{r}S" for r in ["A", *range(2, 11), "J", "Q", "K"])
    play = solve(settings, "robbers", [], f"{spades} {spades} JK JK", over={"meld.min_naturals": 2})
    assert play.count == 28


def test_suit_used_up_entirely_on_the_table(settings: SolverSettings) -> None:
    table = melds(
        "[AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS]",
        "[AS 2S 3S 4S 5S 6S]",
        "[7S 8S 9S 10S JS QS KS]",
    )
    play = solve(settings, "robbers", table, "JK 5H 5D 8C")
    assert play.count == 4  # 5S from an end with 5H 5D; 8S from the middle with 8C JK
    # with two naturals per meld the jokers make a third run through some rank
    play = solve(settings, "robbers", table, "JK JK", over={"meld.min_naturals": 2})
    assert play.count == 2


def test_table_of_only_four_sets(settings: SolverSettings) -> None:
    table = melds(*(f"[{r}S {r}H {r}D {r}C]" for r in (7, 8, 9)))
    play = solve(settings, "robbers", table, "10S JK 2D")
    assert play.count == 2 and [str(c) for c in play.hand] == ["2D"]


def test_melds_mostly_jokers(settings: SolverSettings) -> None:
    table = melds("[JK=5S JK=6S 7S]", "[JK=9H 9S JK=9D]")
    play = solve(settings, "robbers", table, "KD JK JK", over={"deck.printed_jokers": 6})
    assert play.count == 3


def test_cards_that_each_need_both_jokers(settings: SolverSettings) -> None:
    # B9 and K2 have no neighbour of their colour and no other 9 or 2 anywhere: each fits
    # only as [JK x JK], and there are two jokers, so only one of them can be placed (the
    # dearer one); the jokers the table's own cards need come first.
    play = solve(settings, "rummikub", melds("[R5 R6 R7]", "[O11 O12 O13]"), "B9 K2 JK JK")
    assert play.count == 3 and [str(c) for c in play.hand] == ["K2"]
    # the table's joker must stay at R6 (no R6 anywhere), so one joker is free: it is
    # laid on its own and both cards stay in the hand, however many copies there are
    play = solve(settings, "rummikub", melds("[R5 JK R7]", "[O11 O12 O13]"), "B9 K2 JK")
    assert play.count == 1 and sorted(str(c) for c in play.hand) == ["B9", "K2"]
    play = solve(settings, "rummikub", melds("[R5 JK R7]", "[O11 O12 O13]"), "B9 B9 K2 JK")
    assert play.count == 1 and sorted(str(c) for c in play.hand) == ["B9", "B9", "K2"]


def test_many_copies_that_each_need_both_jokers(settings: SolverSettings) -> None:
    # Three decks: three copies each of four cards that fit only with both jokers. Only one
    # copy can be placed, and it must be the dearest (a king). The compiled bound's joker
    # knapsack takes such cards copy by copy (twelve here; it once held only eight).
    play = solve(
        settings,
        "robbers",
        melds("[10D JD QD]"),
        "2D 2D 2D 6H 6H 6H 9S 9S 9S KC KC KC JK JK",
        over={"deck.standard_decks": 3},
    )
    assert play.count == 3 and "KC" in [str(c) for c in play.placed]


def test_six_jokers(settings: SolverSettings) -> None:
    table = melds("[3H 4H 5H]", "[JK=QC JK=KC AC]")
    play = solve(
        settings, "robbers_s003", table, "JK JK JK JK 9S 2D", over={"deck.printed_jokers": 6}
    )
    assert play.count == 6


def test_wraparound_runs_cross_king_ace(settings: SolverSettings) -> None:
    play = solve(settings, "robbers_s003", melds("[QS KS AS]"), "2S 3S JH QH KH AH 2H")
    assert play.count == 7
    assert any("KH" in s and "AH" in s and "2H" in s for s in strs(play))


def test_high_or_low_ace_ends_a_run_but_never_turns_the_corner(settings: SolverSettings) -> None:
    play = solve(settings, "vatikan_pagat", [], "QS KS AS 2S 3S")
    assert play.count == 3  # Q-K-A and A-2-3 would need two aces: 2S 3S stay
    play2 = solve(settings, "vatikan_pagat", [], "QS KS AS 2S 3S JK")
    assert play2.count == 6


def test_ace_both_ends_changes_nothing_when_runs_can_be_split(settings: SolverSettings) -> None:
    ranks = ["A", *range(2, 11), "J", "Q", "K", "A"]
    hand = " ".join(f"{r}H" for r in ranks)
    over = {"meld.ace_mode": "HIGH_OR_LOW", "meld.ace_both_ends": True}
    play = solve(settings, "robbers", [], hand, over=over)
    assert play.count == 14


def test_tiles(settings: SolverSettings) -> None:
    play = solve(settings, "rummikub", melds("[R5 R6 R7]"), "R8 B8 K8 O1", opened=True)
    assert play.count == 3


def test_three_card_sets_only_and_long_min_len(settings: SolverSettings) -> None:
    play = solve(settings, "robbers", [], "7S 7H 7D 7C 4S 5S 6S", over={"meld.set_max": 3})
    assert play.count == 7
    play = solve(settings, "robbers", [], "4S 5S 6S 8H 8D 8C", over={"meld.min_len": 4})
    assert play.count == 3


def test_more_copies_than_decks(settings: SolverSettings) -> None:
    play = solve(settings, "robbers", [], "5S 5S 5S 6S 7S", over={"deck.standard_decks": 3})
    assert play.count == 3


# -- the same corners with runs over the K–A corner and with four decks -----------------

SPADES = ["A", *range(2, 11), "J", "Q", "K"]


def test_wraparound_suit_used_up_entirely_on_the_table(settings: SolverSettings) -> None:
    table = melds(
        "[QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS]",
        "[10S JS QS KS AS 2S]",
        "[3S 4S 5S 6S 7S 8S 9S]",
    )
    play = solve(settings, "robbers_s003", table, "JK 5H 5D 8C")
    assert play.count == 4
    play = solve(settings, "robbers_s003", table, "JK JK", over={"meld.min_naturals": 2})
    assert play.count == 2


def test_wraparound_melds_mostly_jokers(settings: SolverSettings) -> None:
    table = melds("[JK=KS JK=AS 2S]", "[QH JK=KH JK=AH]")
    # QH, 2S, KD and 3H each need two jokers (Q-K-A-2-3 of hearts would take three): six
    # jokers place three of them, and the 3H is the cheapest
    play = solve(settings, "robbers_s003", table, "KD JK JK 3H", over={"deck.printed_jokers": 6})
    assert play.count == 3 and [str(c) for c in play.hand] == ["3H"]


def test_wraparound_one_suit_needs_more_runs_than_copies(settings: SolverSettings) -> None:
    # as test_one_suit_needs_three_runs_because_of_jokers, round the K–A corner: the
    # jokers sit in runs that cross it
    hand = " ".join(f"{r}S" for r in ("J", "Q", "K", "A", 2, 3))
    play = solve(
        settings, "robbers_s003", [], f"{hand} {hand} JK JK", over={"meld.min_naturals": 2}
    )
    assert play.count == 14


def test_high_or_low_debts_end_at_the_ace(settings: SolverSettings) -> None:
    # Q-K-A twice on the table, and K-A-2 is no run: an ace taken for A-2-3 would leave
    # Q-K behind, so the 2s stay (round the corner, K-A-2 takes them)
    table = melds("[QD KD AD]", "[QD KD AD]")
    play = solve(settings, "vatikan_pagat", table, "2D 2D JK", over={"deck.printed_jokers": 2})
    assert play.count == 1 and [str(c) for c in play.hand] == ["2D", "2D"]
    play = solve(settings, "robbers_s003", table, "2D 2D JK")
    assert play.count == 3


def test_four_decks_suit_used_up_and_more_runs_than_copies(settings: SolverSettings) -> None:
    four: dict[str, object] = {"deck.standard_decks": 4, "deck.printed_jokers": 6}
    run = "[" + " ".join(f"{r}S" for r in SPADES) + "]"
    play = solve(settings, "robbers", melds(run, run, run, run), "JK 5H 5D 8C", over=four)
    assert play.count == 4
    low = " ".join(f"{r}S" for r in SPADES[:6])
    hand = f"{low} {low} {low} {low} JK JK"
    play = solve(settings, "robbers", [], hand, over={**four, "meld.min_naturals": 2})
    assert play.count == 26


def test_four_decks_wraparound_six_jokers(settings: SolverSettings) -> None:
    four: dict[str, object] = {"deck.standard_decks": 4, "deck.printed_jokers": 6}
    table = melds("[KC AC 2C]", "[KC AC 2C]", "[KC AC 2C]", "[JK=KC AC JK=2C]")
    play = solve(settings, "robbers_s003", table, "QC QC 3C JK JK 9H", over=four)
    assert play.count == 6


def test_runs_that_must_begin_with_a_joker(settings: SolverSettings) -> None:
    # a run's leading jokers can move to its other end unless it ends at the K (or at
    # the high ace): these runs must begin with them
    play = solve(settings, "robbers", [], "KS JK JK 5H")
    assert play.count == 3 and [str(c) for c in play.hand] == ["5H"]
    # the table's run keeps its leading joker; the KS would take it for a set and leave
    # QD KD behind
    play = solve(settings, "robbers", melds("[JK=JD QD KD]"), "KS 5H")
    assert play.count == 0
    # high-or-low: Q-K-A with the Q a joker (K-A-2 is no run)
    play = solve(settings, "vatikan_pagat", [], "KS AS JK 2S", over={"deck.printed_jokers": 2})
    assert play.count == 3 and [str(c) for c in play.hand] == ["2S"]
    # wrap-around: the same cards need no leading joker (K-A-2 is a run)
    assert solve(settings, "robbers_s003", [], "KS AS JK 3S").count == 4


def test_four_decks_melds_mostly_jokers_and_runs_round_the_corner(
    settings: SolverSettings,
) -> None:
    four: dict[str, object] = {"deck.standard_decks": 4, "deck.printed_jokers": 6}
    # four kings of one suit and six jokers: three runs [JK JK KS] (or sets of one king
    # and two jokers); the fourth king stays
    play = solve(settings, "robbers", [], "KS KS KS KS JK JK JK JK JK JK", over=four)
    assert play.count == 9
    table = melds("[JK=QH JK=KH AH]", "[JK=5S JK=6S 7S]", "[9D JK=9S JK=9C]")
    play = solve(settings, "robbers_s003", table, "2H 2H 8S 8S 3H 9H", over=four)
    assert play.count == 6
    # more runs than copies round the corner, four decks: J-Q-K-A-2-3 of spades four
    # times with two jokers and two naturals a run
    hand = " ".join(f"{r}S" for r in ("J", "Q", "K", "A", 2, 3))
    play = solve(
        settings,
        "robbers_s003",
        [],
        f"{hand} {hand} {hand} {hand} JK JK",
        over={**four, "meld.min_naturals": 2},
    )
    assert play.count == 26


# -- the opening (RULES.md §2.3, T08–T09b, T13, R03, R04, R09) ----------------------------


def test_t08_three_aces_open(settings: SolverSettings) -> None:
    play = solve(settings, "robbers", [], "AS AH AD 5C", opened=False)
    assert play.count == 3 and [str(m) for m in play.opening] == ["[AS AH AD]"]
    ace_one = {"opening.ace_value": 1}
    assert solve(settings, "robbers", [], "AS AH AD", opened=False, over=ace_one).count == 0


def test_t09_kqj_alone_is_not_enough(settings: SolverSettings) -> None:
    play = solve(settings, "robbers", melds("[5S 6S 7S]"), "JC QC KC 8S", opened=False)
    assert play.is_pass and play.count == 0 and strs(play) == ["[5S 6S 7S]"]


def test_t09b_thirty_plus_a_small_set(settings: SolverSettings) -> None:
    assert solve(settings, "robbers", [], "KC QC JC 4S 4H 4D", opened=False).count == 6
    assert solve(settings, "robbers", [], "KC QC JC 3S 3H 3D", opened=False).count == 0


def test_t13_opening_then_table_play(settings: SolverSettings) -> None:
    table = melds("[5S 6S 7S]")
    play = solve(settings, "robbers", table, "KH KD KC QS QH QD 8S", opened=False)
    assert play.count == 7
    play = solve(
        settings,
        "robbers",
        table,
        "KH KD KC QS QH QD 8S",
        opened=False,
        over={"opening.allow_table_play_same_turn": False},
    )
    assert play.count == 6 and "[5S 6S 7S]" in strs(play)
    assert solve(settings, "robbers", table, "KH KD KC 8S", opened=False).count == 0


def test_r03_r04_rummikub_opening(settings: SolverSettings) -> None:
    assert solve(settings, "rummikub", [], "R10 R11 R12", opened=False).count == 3
    assert solve(settings, "rummikub", [], "B1 B2 B3 K5 O5 R5", opened=False).count == 0
    assert solve(settings, "rummikub", [], "R9 JK R11", opened=False).count == 3


def test_r09_no_table_play_on_the_opening_turn(settings: SolverSettings) -> None:
    table = melds("[B3 B4 B5]")
    play = solve(settings, "rummikub", table, "R10 R11 R12 B6", opened=False)
    assert play.count == 3 and "[B3 B4 B5]" in strs(play)
    over = {"opening.allow_table_play_same_turn": True}
    assert solve(settings, "rummikub", table, "R10 R11 R12 B6", opened=False, over=over).count == 4


def test_run_from_hand_opening(settings: SolverSettings) -> None:
    assert solve(settings, "vatikan_pagat", [], "5H 6H 7H 9C 9D 9S", opened=False).count == 6
    assert solve(settings, "vatikan_pagat", [], "9C 9D 9S", opened=False).count == 0
    table = melds("[9C 9D 9S]")
    assert solve(settings, "vatikan_pagat", table, "9H 5H 6H", opened=False).count == 0
    table = melds("[4H 5H 6H]")
    assert solve(settings, "vatikan_pagat", table, "QS KS AS 7H", opened=False).count == 4


def test_opening_jokers_count_as_their_card_and_positional_aces(settings: SolverSettings) -> None:
    over: dict[str, object] = {
        "opening.ace_value": "POSITIONAL_1_OR_11",
        "meld.ace_mode": "HIGH_OR_LOW",
    }
    assert solve(settings, "robbers", [], "QS KS AS 5H 5D 5C", opened=False, over=over).count == 6
    assert solve(settings, "robbers", [], "AS 2S 3S 5H 5D 5C", opened=False, over=over).count == 0
    for threshold, count in ((29, 3), (30, 0)):
        over = {"opening.threshold": threshold}
        assert solve(settings, "robbers", [], "9S JK JS QH", opened=False, over=over).count == count


def test_opening_exactly_at_the_threshold(settings: SolverSettings) -> None:
    table = melds("[2H 3H 4H]")
    play = solve(settings, "robbers", table, "10S JS QS KS 5H 9D", opened=False)
    assert play.count == 5 and [str(m) for m in play.opening] == ["[10S JS QS KS]"]
    assert solve(settings, "robbers", table, "9S 10S JS QS 5H 9D", opened=False).count == 0
    over = {"opening.threshold": 41}
    assert solve(settings, "robbers", table, "10S JS QS KS 5H", opened=False, over=over).is_pass


def test_opening_that_needs_a_joker(settings: SolverSettings) -> None:
    play = solve(settings, "robbers", [], "10S JS JK 5H 5D 5C 2C", opened=False)
    assert play.count == 6 and any(m.jokers for m in play.opening)
    assert solve(settings, "robbers", [], "10S JS 5H 5D 5C 2C", opened=False).count == 0


def test_opening_whose_best_play_needs_the_table(settings: SolverSettings) -> None:
    # the opening [KS KH KD] + [QS QH QD] leaves 8S for the table run; opening with the
    # run [8S 9S 10S] instead would strand the queens' partner cards
    table = melds("[5S 6S 7S]", "[9H 9D 9C]")
    hand = "KS KH KD QS QH QD 8S 9S JC"
    play = solve(settings, "robbers", table, hand, opened=False)
    assert play.count == 8 and "JC" in [str(c) for c in play.hand]
    no_table = {"opening.allow_table_play_same_turn": False}
    play = solve(settings, "robbers", table, hand, opened=False, over=no_table)
    assert play.count == 6 and "[5S 6S 7S]" in strs(play)


def test_rummikub_opening_with_jokers_and_many_ways(settings: SolverSettings) -> None:
    hand = "R1 R2 R3 B1 B2 B3 K1 K2 K3 O7 O8 O9 JK R9 B9"
    play = solve(settings, "rummikub", melds("[K9 O9 R9]"), hand, opened=False)
    assert play.count == 15
    over = {"opening.allow_table_play_same_turn": True}
    assert (
        solve(settings, "rummikub", melds("[K9 O9 R9]"), hand, opened=False, over=over).count == 15
    )


# -- arranging and bad input ------------------------------------------------------------


def test_can_arrange_and_arrange(settings: SolverSettings) -> None:
    rules = manipulation_rules("robbers")
    assert can_arrange(rules, parse_cards("4S 5S 6S 7H 7D JK"), settings=settings)
    assert not can_arrange(rules, parse_cards("4S 5S 6S 7H"), settings=settings)
    assert can_arrange(rules, [], settings=settings)
    out = arrange(rules, parse_cards("AS AH AD 2S 3S JK"), settings=settings)
    got = sorted((c for m in out for c in m.cards), key=Card.sort_key)
    assert got == sorted(parse_cards("AS AH AD 2S 3S JK"), key=Card.sort_key)
    with pytest.raises(InvalidMeldError, match="cannot be arranged"):
        arrange(rules, parse_cards("4S 5S"), settings=settings)


@pytest.mark.parametrize("seed", range(4))
def test_can_place_at_least_is_the_best_count(seed: int) -> None:
    # one question of the search, "are n hand cards reachable?", for every n around the
    # optimum: yes exactly up to best_play's count
    p = random_position(9300 + seed, table_cards=20 + 10 * seed, hand_cards=8)
    best = best_play(p.rules, p.table, p.hand, keep_melds=False)
    for n in range(best.count + 2):
        assert can_place(p.rules, p.table, p.hand, at_least=n) == (n <= best.count), (p.label, n)


def test_flat_table_is_arranged_first(settings: SolverSettings) -> None:
    rules = manipulation_rules("robbers")
    play = best_play(rules, parse_cards("4S 5S 6S 7S"), parse_cards("3S 4H 4D"), settings=settings)
    assert play.count == 2
    with pytest.raises(InvalidMeldError, match="cannot be arranged"):
        best_play(rules, parse_cards("4S 5S 7S"), parse_cards("3S"), settings=settings)


def test_bad_input_raises_precise_errors(settings: SolverSettings) -> None:
    rules = manipulation_rules("robbers")
    with pytest.raises(NotationError):
        parse_cards("4X")
    with pytest.raises(ConfigError, match="3 copies of 5S"):
        best_play(rules, melds("[5S 6S 7S]"), parse_cards("5S 5S"), settings=settings)
    with pytest.raises(ConfigError, match="jokers"):
        best_play(rules, [], [JOKER] * 5, settings=settings)
    with pytest.raises(InvalidMeldError, match="table meld 1"):
        best_play(rules, melds("[3S 5S 6S 7S]"), parse_cards("4S"), settings=settings)
    with pytest.raises(InvalidMeldError):
        bad = [Meld.parse("[5S 6S 7S]"), Card(3, Suit.H)]
        best_play(rules, bad, [], settings=settings)  # type: ignore[arg-type]


def test_undeclared_joker_on_the_table_gets_an_identity(settings: SolverSettings) -> None:
    play = solve(settings, "robbers", melds("[5S 6S JK]"), "8S")
    assert play.count == 1


def test_solver_settings_are_checked_and_frozen() -> None:
    import dataclasses

    with pytest.raises(ConfigError, match="dp_budget"):
        SolverSettings(dp_budget=-1)
    with pytest.raises(ConfigError, match="compiled"):
        SolverSettings(compiled=1)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="race_step"):
        SolverSettings(race_step=True)
    with pytest.raises(ConfigError, match="compiled_state_factor"):
        SolverSettings(compiled_state_factor=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        SolverSettings().compiled = False  # type: ignore[misc]
    assert SolverSettings(open_splits=4) == SolverSettings(open_splits=4)
