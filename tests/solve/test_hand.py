"""The Indian Rummy hand solver: RULES.md cases I01–I27 that concern melds, declarations
and hand scores, plus the solver's own contract (errors, options, after-the-draw advice)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from helpers import indian_rules
from openrummy.cards import Card, parse_cards
from openrummy.errors import NotationError
from openrummy.melds import Meld, MeldKind
from openrummy.rules.indian import IndianRules, LoserMeldCredit, Wilds
from openrummy.solve.hand import (
    GroupKind,
    InvalidHandError,
    analyse_draw,
    check_declaration,
    find_declaration,
    min_deadwood,
    read_group,
    score_loser,
)


def setup(
    preset: str = "indian13", indicator: str = "2C", options: Mapping[str, object] | None = None
) -> tuple[IndianRules, Wilds]:
    rules = indian_rules(preset, options)
    return rules, rules.wilds(Card.parse(indicator))


def groups(*texts: str) -> list[Meld]:
    return [Meld.parse(t) for t in texts]


def kinds_of(meld: str, rules: IndianRules, wilds: Wilds) -> set[GroupKind]:
    return {r.kind for r in read_group(Meld.parse(meld), rules, wilds)}


I01_CARDS = "4S 5S 6S 8H JK 10H 7C 7D 7H KS KH KD KC"
I02_CARDS = "4S 5S 6S 7C 7D 7H 10S 10H 10D 10C KS KH KD"


# -- §9.7 Indian Rummy, 13 cards ------------------------------------------------------------
def test_I01_valid_declaration() -> None:
    rules, wilds = setup()
    shown = groups("[4S 5S 6S]", "[8H JK=9H 10H]", "[7C 7D 7H]", "[KS KH KD KC]")
    verdict = check_declaration(shown, rules, wilds, cards=parse_cards(I01_CARDS))
    assert verdict.valid and verdict.form == "TWO_SEQ_ONE_PURE"
    # After the draw (14 cards) the solver sees the finish with 9C.
    analysis = analyse_draw(parse_cards(I01_CARDS + " 9C"), rules, wilds)
    assert analysis.declare_with == Card.parse("9C")
    assert analysis.discard == Card.parse("9C")
    assert analysis.after_discard.points == 0


def test_I02_invalid_declaration_only_one_sequence() -> None:
    rules, wilds = setup()
    shown = groups("[4S 5S 6S]", "[7C 7D 7H]", "[10S 10H 10D 10C]", "[KS KH KD]")
    verdict = check_declaration(shown, rules, wilds, cards=parse_cards(I02_CARDS))
    assert not verdict.valid
    assert verdict.reason is not None and "only 1 sequence" in verdict.reason
    assert rules.declare.invalid_penalty == 80
    assert not find_declaration(parse_cards(I02_CARDS), rules, wilds).valid


def test_I03_invalid_hand_as_a_losers_hand() -> None:
    rules, wilds = setup()
    hand = parse_cards(I02_CARDS)
    two = min_deadwood(hand, rules, wilds)
    assert (two.raw, two.points, two.credited) == (15 + 21 + 40 + 30, 80, False)
    assert min_deadwood(hand, rules, wilds, credit=LoserMeldCredit.PURE_ONLY).points == 0
    assert min_deadwood(hand, rules, wilds, credit=LoserMeldCredit.ANY_MELD).points == 0


def test_I04_impure_sequences_alone_do_not_qualify() -> None:
    rules, wilds = setup()
    shown = groups("[4S JK=5S 6S]", "[8H 9H JK=10H]", "[7C 7D 7H]", "[KS KH KD KC]")
    verdict = check_declaration(shown, rules, wilds)
    assert not verdict.valid and verdict.reason is not None and "no pure sequence" in verdict.reason
    auto = rules.with_options({"declare.arrangement": "AUTO"})
    regrouped = check_declaration(shown, auto, wilds)
    assert regrouped.valid
    assert GroupKind.PURE_SEQUENCE in regrouped.kinds
    assert "[7H 8H 9H]" in [str(g) for g in regrouped.groups]


def test_I05_jokers_in_sets() -> None:
    rules, wilds = setup()
    assert kinds_of("[7S 7H JK]", rules, wilds) == {GroupKind.SET}
    assert kinds_of("[7S 7S 7H]", rules, wilds) == set()
    assert Meld.parse("[7S 7S 7H]").check(rules.meld_rules_for(wilds)) is not None


def test_I06_ace_high_or_low_no_wrap() -> None:
    rules, wilds = setup(indicator="5C")
    assert kinds_of("[QH KH AH]", rules, wilds) == {GroupKind.PURE_SEQUENCE}
    assert kinds_of("[AH 2H 3H]", rules, wilds) == {GroupKind.PURE_SEQUENCE}
    assert kinds_of("[KH AH 2H]", rules, wilds) == set()


def test_I07_printed_joker_indicator_makes_aces_wild() -> None:
    rules, wilds = setup(indicator="JK")
    assert wilds.wild_rank == 1
    assert kinds_of("[5D AS=6D 7D]", rules, wilds) == {GroupKind.SEQUENCE}
    assert GroupKind.PURE_SEQUENCE in kinds_of("[AS 2S 3S]", rules, wilds)
    assert rules.penalty_value(Card.parse("AH"), wilds) == 0


def test_I08_wild_rank_card_used_as_itself() -> None:
    shown = groups("[6S 7S 8S]", "[9H 7D=10H JH]", "[QC QD QS]", "[2H 2S 2D 2C]")
    rules, wilds = setup(indicator="7C")
    assert check_declaration(shown, rules, wilds).valid
    strict, wilds = setup(indicator="7C", options={"wild.natural_use_counts_pure": False})
    verdict = check_declaration(shown, strict, wilds)
    assert not verdict.valid and "no pure sequence" in (verdict.reason or "")


def test_a_wild_rank_card_shown_as_itself_makes_wild_units_a_sequence() -> None:
    """[4C JK=5C JK=6C] is an impure sequence with one natural (4C shown as itself), not a
    group of wild items only, which the default all-wild rule never counts as a sequence
    (found by the fresh random sample against the exhaustive reference)."""
    rules, wilds = setup("indian10", indicator="4C")
    hand = parse_cards("4D JK JK 4D QC 10C 4C 4S 4S JC")
    for credit in (LoserMeldCredit.TWO_SEQ_ONE_PURE, LoserMeldCredit.PURE_ONLY):
        assert min_deadwood(hand, rules, wilds, credit=credit).raw == 0, credit
    assert min_deadwood(hand, rules, wilds, credit=LoserMeldCredit.THREE_PURE).raw == 30
    assert find_declaration(hand, rules, wilds).valid
    shown = groups("[10C JC QC]", "[4C JK=5C JK=6C]", "[4D 4D 4S 4S]")
    assert check_declaration(shown, rules, wilds).valid


def test_I10_80_point_cap() -> None:
    rules, wilds = setup()
    a = min_deadwood(parse_cards("AS AH KC KD QS QH JC JD 10S 10H 9C 9D 8S"), rules, wilds)
    assert (a.raw, a.points, a.groups) == (126, 80, ())


def test_I11_pure_and_second_sequence() -> None:
    rules, wilds = setup()
    hand = parse_cards("3H 4H 5H 9S JK JS QC QD QH KS 7D 5C 3C")
    for credit in LoserMeldCredit:
        if credit is LoserMeldCredit.THREE_PURE:
            continue
        a = min_deadwood(hand, rules, wilds, credit=credit)
        assert a.points == 24, credit
    a = min_deadwood(hand, rules, wilds)
    assert [str(g) for g in a.groups] == ["[3H 4H 5H]", "[JS JK=QS KS]", "[QC QD QH]"]
    assert [str(c) for c in a.deadwood] == ["9S", "7D", "5C", "3C"]
    assert min_deadwood(hand, rules, 2) == a  # a bare wild rank will do


def test_I12_pure_sequence_but_no_second_sequence() -> None:
    rules, wilds = setup()
    hand = parse_cards("3H 4H 5H QC QD QH 8S 8D 8C KS 7D 5C 3C")
    a = min_deadwood(hand, rules, wilds)
    assert (a.raw, a.points, a.credited) == (12 + 30 + 24 + 10 + 7 + 5 + 3, 80, False)
    assert min_deadwood(hand, rules, wilds, credit=LoserMeldCredit.PURE_ONLY).points == 25
    assert min_deadwood(hand, rules, wilds, credit=LoserMeldCredit.ANY_MELD).points == 25


def test_I13_jokers_score_zero_even_unmelded() -> None:
    rules, wilds = setup(indicator="9H", options={"scoring.loser_arrangement": "SUBMITTED"})
    hand = parse_cards("3H 4H 5H 6S 7S 8S QC QD QH QS JK 9C 4D")
    shown = groups("[3H 4H 5H]", "[6S 7S 8S]", "[QC QD QH QS]", "[JK]", "[9C]", "[4D]")
    a = score_loser(hand, rules, wilds, groups=shown)
    assert (a.raw, a.points, a.credited) == (4, 4, True)
    assert sorted(map(str, a.deadwood)) == ["4D", "9C", "JK"]
    auto, wilds = setup(indicator="9H")
    assert score_loser(hand, auto, wilds, groups=shown).points == 0
    assert min_deadwood(hand, auto, wilds).points == 0


def test_I16_paplu_card() -> None:
    """The paplu card of §5.7 (the bonus itself is scored by the engine)."""
    rules = indian_rules("indian13", {"paplu.enabled": True})
    assert rules.paplu_card(Card.parse("7H")) == Card.parse("8H")
    assert rules.paplu_card(Card.parse("KH")) == Card.parse("AH")
    assert rules.paplu_card(Card.parse("JK")) is None
    assert rules.paplu.bonus == 10


def test_I17_no_five_card_sets() -> None:
    rules, wilds = setup()
    assert kinds_of("[8S 8H 8D 8C JK]", rules, wilds) == set()
    wide, wilds = setup(options={"meld.set_max": 5})
    assert kinds_of("[8S 8H 8D 8C JK]", wide, wilds) == {GroupKind.SET}


def test_I21_declarers_grouping_is_judged_as_shown() -> None:
    rules, wilds = setup()
    shown = groups("[4S 5S 6S]", "[8H JK=9H 10H]", "[7C 7D 7H KS]", "[KH KD KC]")
    verdict = check_declaration(shown, rules, wilds, cards=parse_cards(I01_CARDS))
    assert not verdict.valid and "[7C 7D 7H KS]" in (verdict.reason or "")
    auto = rules.with_options({"declare.arrangement": "AUTO"})
    assert check_declaration(shown, auto, wilds, cards=parse_cards(I01_CARDS)).valid


# -- §9.8 Indian Rummy, 10 and 21 cards -------------------------------------------------------
def test_I23_ten_card_default_declaration() -> None:
    rules, wilds = setup("indian10")
    shown = groups("[4S 5S 6S]", "[8H JK=9H 10H]", "[7C 7D 7H 7S]")
    assert check_declaration(shown, rules, wilds).valid
    analysis = analyse_draw(parse_cards("4S 5S 6S 8H JK 10H 7C 7D 7H 7S QD"), rules, wilds)
    assert analysis.declare_with == Card.parse("QD")


def test_I24_tunnela() -> None:
    rules, wilds = setup("indian21", indicator="9C")
    assert kinds_of("[5H 5H 5H]", rules, wilds) == {GroupKind.TUNNELA}
    assert GroupKind.TUNNELA not in kinds_of("[6D 6D JK]", rules, wilds)
    assert GroupKind.TUNNELA in kinds_of("[JK JK JK]", rules, wilds)
    # A tunnela counts as a pure sequence: three of them are a THREE_PURE declaration too.
    hand = parse_cards("5H 5H 5H 6D 6D 6D KS KS KS 3C 4C 5C 7S 8S 10S JK JK 2D 3D 4D QH")
    assert min_deadwood(hand, rules, wilds).credited


def test_I25_eight_dublees() -> None:
    rules, wilds = setup("indian21", indicator="9C")
    dublees = [
        "[AS AS]",
        "[3H 3H]",
        "[5D 5D]",
        "[7C 7C]",
        "[JS JS]",
        "[QH QH]",
        "[KD KD]",
        "[4S 4S]",
    ]
    shown = groups(*dublees, "[2C 6H 8D JC KH]")
    verdict = check_declaration(shown, rules, wilds)
    assert verdict.valid and verdict.form == "EIGHT_DUBLEE"
    assert len(verdict.loose) == 5
    found = find_declaration([c for g in shown for c in g.cards], rules, wilds)
    assert found.valid and found.form == "EIGHT_DUBLEE"


def test_I26_value_cards_and_marriage() -> None:
    rules = indian_rules("indian21")
    ind = Card.parse("5C")
    vs = [
        rules.value_points(parse_cards("4C 5C 6C"), ind),
        rules.value_points(parse_cards("6C"), ind),
        rules.value_points([], ind),
    ]
    assert vs == [100, 10, 0]
    assert IndianRules.value_exchange(vs) == [190, -80, -110]


def test_I27_21_card_loser_without_three_pure_sequences() -> None:
    rules, wilds = setup("indian21", indicator="2C")
    hand = parse_cards("4S 5S 6S 8D 9D 10D KH KC KS QH QC QD 9H 9C 9S JK JK 2H 7H 5H 9S")
    assert rules.hand_value(hand, wilds) == 150
    a = min_deadwood(hand, rules, wilds)
    assert (a.raw, a.points, a.credited) == (150, 120, False)
    # It does hold two pure sequences (and a second life), just not three.
    assert min_deadwood(hand, rules, wilds, credit=LoserMeldCredit.TWO_SEQ_ONE_PURE).credited


# -- the solver's contract ---------------------------------------------------------------------
def test_bad_input_is_a_precise_error() -> None:
    rules, wilds = setup()
    with pytest.raises(NotationError):
        parse_cards("3H 4H XX")
    with pytest.raises(InvalidHandError, match="needs 13"):
        min_deadwood(parse_cards("3H 4H 5H"), rules, wilds)
    with pytest.raises(InvalidHandError, match=r"3 × 3H: the decks hold only 2"):
        min_deadwood(parse_cards("3H 3H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"), rules, wilds)
    with pytest.raises(InvalidHandError, match="besides the indicator 2C"):
        min_deadwood(parse_cards("2C 2C 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"), rules, wilds)
    with pytest.raises(InvalidHandError, match="3 × JK"):
        min_deadwood(parse_cards("JK JK JK 4H 5H 6H 7H 8H 9H 10H JH QH KH"), rules, wilds)
    shown = groups("[4S 5S 6S]", "[8H JK=9H 10H]", "[7C 7D 7H]", "[KS KH KD QC]")
    with pytest.raises(InvalidHandError, match="missing KC; not in the hand QC"):
        check_declaration(shown, rules, wilds, cards=parse_cards(I01_CARDS))
    with pytest.raises(InvalidHandError, match="needs 14"):
        analyse_draw(parse_cards(I01_CARDS), rules, wilds)


def test_groups_carry_valid_identities() -> None:
    rules, wilds = setup(indicator="7D")
    hand = parse_cards("7C 7S JK 5H 6H AD QD KD 9S 10S 3C 3D 4S")
    a = min_deadwood(hand, rules, wilds)
    mr = rules.meld_rules_for(wilds)
    for g, kind in zip(a.groups, a.kinds, strict=True):
        assert g.check(mr) is None, g
        assert (g.kind(mr) is MeldKind.RUN) == (
            kind in (GroupKind.SEQUENCE, GroupKind.PURE_SEQUENCE)
        )
    assert a.raw == rules.hand_value(a.deadwood, wilds)


def test_life_of_four_option() -> None:
    hand = parse_cards("4S 5S 6S 8H JK 10H 7C 7D 7H KS KH KD KC")
    rules, wilds = setup(options={"declare.require_life_len4": True})
    assert not find_declaration(hand, rules, wilds).valid
    longer = parse_cards("4S 5S 6S 7S 8H JK 10H 7C 7D 7H KH KD KC")
    found = find_declaration(longer, rules, wilds)
    assert found.valid and any(len(g) >= 4 for g in found.groups)


def test_two_sequences_two_sets_with_thirteen_cards() -> None:
    rules, wilds = setup(options={"declare.requirement": "TWO_SEQ_TWO_SETS"})
    assert find_declaration(parse_cards(I01_CARDS), rules, wilds).valid
    hand = parse_cards("4S 5S 6S 8H JK 10H JH QH KH 7C 7D 7H 7S")
    assert not find_declaration(hand, rules, wilds).valid
    # The default requirement accepts it: three sequences and one set.
    plain, wilds = setup()
    assert find_declaration(hand, plain, wilds).valid


def test_all_wild_groups_follow_the_option() -> None:
    """A35: a group of wild items only is a set (default), also a sequence, or no group.

    Only printed jokers make such a group: a wild-rank card can always act as itself, so
    ``[JK 2S 2H]`` (wild rank 2) is the sequence 2S-3S-4S under every option."""
    shown = groups("[4S 5S 6S]", "[JK JK JK]", "[7C 7D 7H]", "[KS KH KD KC]")
    verdicts = {}
    for option in ("SET_ONLY", "SET_OR_SEQUENCE", "FORBIDDEN"):
        rules, wilds = setup(options={"meld.all_wild_group": option, "deck.printed_jokers": 3})
        verdicts[option] = check_declaration(shown, rules, wilds)
    assert verdicts["SET_OR_SEQUENCE"].valid
    # The search regroups the same cards validly under every option ([7C JK JK] ...).
    cards = [c for g in shown for c in g.cards]
    for option in ("SET_ONLY", "SET_OR_SEQUENCE", "FORBIDDEN"):
        rules, wilds = setup(options={"meld.all_wild_group": option, "deck.printed_jokers": 3})
        assert find_declaration(cards, rules, wilds).valid
    assert not verdicts["SET_ONLY"].valid and "only 1 sequence" in (
        verdicts["SET_ONLY"].reason or ""
    )
    assert not verdicts["FORBIDDEN"].valid and "[JK JK JK]" in (verdicts["FORBIDDEN"].reason or "")
    rules, wilds = setup(options={"meld.all_wild_group": "FORBIDDEN"})
    assert {r.kind for r in read_group(Meld.parse("[JK 2S 2H]"), rules, wilds)} == {
        GroupKind.SEQUENCE,
        GroupKind.SET,
    }
    only_wild = parse_cards("JK JK JK")
    rules, wilds = setup(options={"meld.all_wild_group": "FORBIDDEN", "deck.printed_jokers": 3})
    assert read_group(Meld.of(only_wild), rules, wilds) == []
    # Spare wilds must then join other melds; here they can.
    hand = parse_cards("4S 5S 6S 8H 9H 10H 7C 7D 7H JK JK JK 2D")
    dec = find_declaration(hand, rules, wilds)
    assert dec.valid and all(any(not it.is_wild for it in g.items) for g in dec.groups)
    rules, wilds = setup(
        options={"meld.all_wild_group": "SET_OR_SEQUENCE", "deck.printed_jokers": 3}
    )
    assert {r.kind for r in read_group(Meld.of(only_wild), rules, wilds)} == {
        GroupKind.SET,
        GroupKind.SEQUENCE,
    }


def test_joker_penalty_option_keeps_jokers_melded() -> None:
    rules, wilds = setup(options={"scoring.joker_penalty": 30})
    hand = parse_cards("3H 4H 5H 6S 7S 8S QC QD QH KC 9D 5C JK")
    a = min_deadwood(hand, rules, wilds)
    # The joker joins a meld (KC, 9D and 5C stay): leaving it out would cost 30 more.
    assert Card.parse("JK") not in a.deadwood
    assert a.raw == 10 + 9 + 5


def test_twenty_one_card_forms_found_automatically() -> None:
    rules, wilds = setup("indian21", indicator="9C")
    tunnelas = parse_cards("5H 5H 5H 6D 6D 6D KS KS KS 3C 4C 7S 8S 10S JK 2D 3D 4D QH AH 2S")
    dec = find_declaration(tunnelas, rules, wilds)
    assert dec.valid and dec.form == "THREE_TUNNELA"
    jokers = parse_cards("JK JK JK 9S 9S 9H 9D 8C 10C 8C AS 3D 5D 7H JH KS 2C 4C 6H QD QS")
    dec = find_declaration(jokers, rules, wilds)
    assert dec.valid and dec.form == "EIGHT_JOKERS"
    assert len(dec.groups[0]) >= 8 and all(wilds.is_wild(c) for c in dec.groups[0].cards)


def test_21_card_upper_and_lower_jokers_are_wild() -> None:
    rules, wilds = setup("indian21", indicator="5C")
    assert wilds.is_wild(Card.parse("4C")) and wilds.is_wild(Card.parse("6C"))
    assert kinds_of("[9H 6C=10H JH]", rules, wilds) == {GroupKind.SEQUENCE}
    assert rules.penalty_value(Card.parse("6C"), wilds) == 0
    # Without the indicator (bare wild rank) there are no upper/lower jokers.
    bare = rules.wilds(wild_rank=5)
    assert not bare.is_wild(Card.parse("6C"))
