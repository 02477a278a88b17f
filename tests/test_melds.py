"""RULES.md §9.1 meld validity (T01–T07), R01–R02, and notation round trips."""

from __future__ import annotations

import pytest

from helpers import manipulation_rules
from openrummy import Card, Meld, NotationError
from openrummy.cards import JOKER, Suit, parse_cards, standard_deck, tile_set
from openrummy.melds import AceMode, MeldKind, MeldRules

ROBBERS = manipulation_rules("robbers").meld_rules
S003 = manipulation_rules("robbers_s003").meld_rules
RUMMIKUB = manipulation_rules("rummikub").meld_rules
# Indian rules (§1.4): ace high or low; the Indian preset lands with its own issue.
INDIAN = MeldRules(ace_mode=AceMode.HIGH_OR_LOW, min_naturals=0)


def test_T01_valid_set() -> None:
    assert Meld.parse("[7S 7H 7D]").kind(ROBBERS) is MeldKind.SET


def test_T02_duplicate_suit_in_set() -> None:
    reason = Meld.parse("[7S 7S 7H]").check(ROBBERS)
    assert reason is not None and "suit" in reason
    assert not Meld.parse("[7S 7S 7H]").is_valid(INDIAN)


def test_T03_quartet_and_no_fifth_card() -> None:
    assert Meld.parse("[KS KH KD KC]").kind(ROBBERS) is MeldKind.SET
    for ident in ("KS", "KH", "KD", "KC"):
        reason = Meld.parse(f"[KS KH KD KC JK={ident}]").check(ROBBERS)
        assert reason is not None and "at most 4" in reason


def test_T04_low_ace_run() -> None:
    assert Meld.parse("[AS 2S 3S]").kind(ROBBERS) is MeldKind.RUN


def test_T05_K_A_2_across_ace_modes() -> None:
    m = Meld.parse("[KS AS 2S]")
    assert not m.is_valid(ROBBERS)
    assert m.is_valid(S003)
    assert not m.is_valid(INDIAN)


def test_T06_Q_K_A_across_ace_modes() -> None:
    m = Meld.parse("[QH KH AH]")
    assert not m.is_valid(ROBBERS)
    assert m.is_valid(INDIAN)


def test_T07_run_must_be_one_suit() -> None:
    assert not Meld.parse("[4S 5H 6S]").is_valid(ROBBERS)


def test_R01_group() -> None:
    assert Meld.parse("[R7 B7 K7]").kind(RUMMIKUB) is MeldKind.SET
    assert not Meld.parse("[R7 R7 B7]").is_valid(RUMMIKUB)


def test_R02_run_and_its_bounds() -> None:
    assert Meld.parse("[R4 R5 R6]").kind(RUMMIKUB) is MeldKind.RUN
    assert Meld.parse("[" + " ".join(f"R{i}" for i in range(1, 14)) + "]").is_valid(RUMMIKUB)
    assert not Meld.parse("[R12 R13 R1]").is_valid(RUMMIKUB)


@pytest.mark.parametrize(
    "text",
    ["AS", "10H", "JK", "QD", "KC", "2S", "R7", "B13", "K1", "O5"],
)
def test_card_notation_round_trips(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert eval(repr(card)) == card  # repr is pasteable code


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("TH", "10H"),
        ("th", "10H"),
        ("♠A", "AS"),
        ("a♠", "AS"),
        ("10♥", "10H"),
        ("Red7", "R7"),
        ("blue13", "B13"),
        ("joker", "JK"),
    ],
)
def test_card_notation_alternatives(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("bad", ["", "1", "ZZ", "11S", "R14", "R0", "JK=", "10", "S10", "1H"])
def test_bad_card_notation_is_a_precise_error(bad: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(bad)
    assert repr(bad.strip()) in str(info.value) or bad.strip() in str(info.value)


def test_meld_notation_round_trips() -> None:
    for text in ("[5H 6H JK=7H]", "[7C JK=7D 7H]", "[R5 JK=R6 R7]"):
        m = Meld.parse(text)
        assert str(m) == text
        assert eval(repr(m)) == m


def test_meld_validity_ignores_written_order_and_normalizes() -> None:
    m = Meld.parse("[7H JK=6H 5H]")
    assert m.is_valid(ROBBERS)
    assert str(m.normalized(ROBBERS)) == "[5H JK=6H 7H]"
    assert str(Meld.parse("[2S KS AS]").normalized(S003)) == "[KS AS 2S]"


def test_joker_needs_identity_and_assignments_are_offered() -> None:
    m = Meld.parse("[5S 6S JK]")
    reason = m.check(ROBBERS)
    assert reason is not None and "identity" in reason
    assert {str(a) for a in m.assignments(ROBBERS)} == {"[JK=4S 5S 6S]", "[5S 6S JK=7S]"}


def test_joker_identity_must_fit() -> None:
    assert not Meld.parse("[5S 6S JK=8S]").is_valid(ROBBERS)
    assert not Meld.parse("[7C JK=7C 7H]").is_valid(ROBBERS)


def test_min_naturals_forbids_all_joker_melds_by_default() -> None:
    m = Meld.parse("[JK=3S JK=4S JK=5S]")
    assert not m.is_valid(ROBBERS)
    assert m.is_valid(MeldRules(min_naturals=0))


def test_wraparound_longest_run_and_no_repeats() -> None:
    ranks = "QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS"
    assert Meld.parse(f"[{ranks}]").is_valid(S003)
    assert not Meld.parse(f"[{ranks} QS]").is_valid(S003)


def test_ace_both_ends_option() -> None:
    full = "[AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS]"
    assert not Meld.parse(full).is_valid(INDIAN)
    both = MeldRules(ace_mode=AceMode.HIGH_OR_LOW, ace_both_ends=True)
    assert Meld.parse(full).is_valid(both)


def test_decks() -> None:
    assert len(standard_deck(2, 4)) == 108
    assert len(tile_set()) == 106
    assert standard_deck(2, 4).count(JOKER) == 4
    assert Card(7, Suit.H).index == 13 + 6
    assert [str(c) for c in parse_cards("as, 10h JK")] == ["AS", "10H", "JK"]


def test_parsed_cards_and_items_are_shared_objects() -> None:
    """A record mentions the same few cards thousands of times: one object per text."""
    from openrummy.melds import MeldItem

    assert Card.parse("7H") is Card.parse("7H")
    assert MeldItem.parse("JK=7H") is MeldItem.parse("JK=7H")
    assert Meld.parse("[7H 8H 9H]").items[0] is Meld.parse("[7H 7S 7D]").items[0]
    # Refusals are not remembered: the same bad text is refused every time.
    for _ in range(2):
        with pytest.raises(NotationError, match="ambiguous"):
            Card.parse("1H")
        with pytest.raises(NotationError, match="natural card"):
            MeldItem.parse("7H=JK")
