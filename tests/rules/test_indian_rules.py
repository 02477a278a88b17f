"""Indian Rummy presets and options (RULES.md §5.8, §6, §7, §10.1)."""

from __future__ import annotations

import json

import pytest

from helpers import indian_rules
from openrummy.cards import Card, parse_cards
from openrummy.errors import ConfigError
from openrummy.melds import AceMode, Meld
from openrummy.rules import find_preset, preset_names
from openrummy.rules.common import FirstDealer, MatchFormat
from openrummy.rules.indian import (
    AllWildGroup,
    DeclareArrangement,
    DeclareRequirement,
    IndianRules,
    LoserArrangement,
    LoserMeldCredit,
    PoolElimination,
    StockOnEmpty,
    V21Form,
    ValueCard,
)

# §10.1, the Indian columns: option -> (indian13, indian10, indian21)
TABLE_10_1: dict[str, tuple[object, object, object]] = {
    "players.min": (2, 2, 2),
    "players.max": (6, 6, 6),
    "deck.kind": ("CARDS", "CARDS", "CARDS"),
    "deck.standard_decks": (2, 2, 3),
    "deck.printed_jokers": (2, 2, 3),
    "deal.hand_size": (13, 10, 21),
    "deal.first_dealer": ("LOW_CUT", "LOW_CUT", "LOW_CUT"),
    "deal.first_player": ("LEFT_OF_DEALER",) * 3,
    "meld.ace_mode": ("HIGH_OR_LOW",) * 3,
    "meld.ace_both_ends": (False, False, False),
    "meld.set_max": (4, 4, 4),
    "meld.min_naturals": (0, 0, 0),
    "meld.all_wild_group": ("SET_ONLY", "SET_ONLY", "JOKER_GROUP"),
    "scoring.mode": ("PENALTY_LOW",) * 3,
    "scoring.ace_penalty": (10, 10, 10),
    "scoring.joker_penalty": (0, 0, 0),
    "scoring.cap": (80, 80, 120),
    "scoring.loser_meld_credit": ("TWO_SEQ_ONE_PURE", "TWO_SEQ_ONE_PURE", "THREE_PURE"),
    "scoring.loser_arrangement": ("AUTO_OPTIMAL",) * 3,
    "wild.indicator_in_play": (False, False, False),
    "wild.natural_use_counts_pure": (True, True, True),
    "declare.requirement": ("TWO_SEQ_ONE_PURE", "TWO_SEQ_ONE_PURE", "V21_ANY_OF"),
    "declare.arrangement": ("SUBMITTED",) * 3,
    "declare.invalid_penalty": (80, 80, 120),
    "declare.invalid_ends_hand": (False, False, False),
    "drop.first": (20, 20, 30),
    "drop.middle": (40, 40, 70),
    "stock.on_empty": ("RESHUFFLE_DISCARDS_EXCEPT_TOP",) * 3,
    "discard.take_wild_from_discard": (True, True, True),
    "discard.no_same_card_return": (False, False, False),
    "paplu.enabled": (False, False, False),
    "pool.elimination": ("REACH",) * 3,
    "match.format": ("POINTS",) * 3,
}


@pytest.mark.parametrize("option", sorted(TABLE_10_1))
def test_presets_match_the_option_table(option: str) -> None:
    for preset, want in zip(("indian13", "indian10", "indian21"), TABLE_10_1[option], strict=True):
        assert find_preset(preset).options()[option] == want, (preset, option)


def test_presets_are_registered_and_sections_exist() -> None:
    names = preset_names()
    for name in ("indian13", "indian10", "indian21"):
        assert name in names
        rules = find_preset(name)
        assert isinstance(rules, IndianRules) and rules.name == name
    # §5.8 and §7 options beyond the §10.1 table
    opts = indian_rules("indian13").options()
    for name in (
        "declare.require_life_len4",
        "scoring.never_drew_full_count",
        "scoring.first_hand_show_cap",
        "paplu.bonus",
        "pool.drop_values_201",
        "deals.count",
        "deals.scoring",
        "match.hands",
        "v21.declare_forms",
        "v21.dublee_as_meld",
        "v21.loss_cap_with_values",
    ):
        assert name in opts, name
    assert opts["v21.declare_forms"] == [f.name for f in V21Form]
    json.dumps(opts)  # every option value is plain data


def test_overrides_are_coerced_from_text() -> None:
    r = indian_rules(
        "indian13",
        {
            "declare.arrangement": "auto",
            "scoring.loser_meld_credit": "PURE_ONLY",
            "scoring.loser_arrangement": "SUBMITTED",
            "pool.elimination": "EXCEED",
            "stock.on_empty": "HAND_VOID",
            "match.format": "POOL_201",
            "pool.drop_values_201": "25,50",
            "meld.all_wild_group": "FORBIDDEN",
            "scoring.cap": "none",
        },
    )
    assert r.declare.arrangement is DeclareArrangement.AUTO
    assert r.scoring.loser_meld_credit is LoserMeldCredit.PURE_ONLY
    assert r.scoring.loser_arrangement is LoserArrangement.SUBMITTED
    assert r.pool.elimination is PoolElimination.EXCEED
    assert r.stock.on_empty is StockOnEmpty.HAND_VOID
    assert r.meld.all_wild_group is AllWildGroup.FORBIDDEN
    assert r.scoring.cap is None and r.cap_points(200) == 200
    assert r.deal.first_dealer is FirstDealer.LOW_CUT
    forms = indian_rules("indian21", {"v21.declare_forms": ["THREE_PURE", "eight_dublee"]})
    assert forms.v21.declare_forms == (V21Form.THREE_PURE, V21Form.EIGHT_DUBLEE)


def test_I15_pool_201_drop_values_option() -> None:
    """The rule values of I15 (the engine applies them at a drop)."""
    pool = indian_rules("indian13", {"match.format": "POOL", "pool.threshold": 201})
    assert pool.drop_values() == (20, 40)
    assert pool.pool_threshold == 201
    opt = pool.with_options({"pool.drop_values_201": (25, 50)})
    assert opt.drop_values() == (25, 50)
    pool101 = indian_rules("indian13", {"match.format": "POOL", "pool.drop_values_201": "25,50"})
    assert pool101.drop_values() == (20, 40) and pool101.pool_threshold == 101


def test_I22_seed_ten_card_requirement_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"TWO_SEQ_TWO_SETS needs at least 12 cards"):
        indian_rules("indian10", {"declare.requirement": "TWO_SEQ_TWO_SETS", "deal.hand_size": 10})
    # With 12 or more cards the requirement can be met, so it is accepted.
    ok = indian_rules("indian13", {"declare.requirement": "TWO_SEQ_TWO_SETS"})
    assert ok.declare.requirement is DeclareRequirement.TWO_SEQ_TWO_SETS


@pytest.mark.parametrize(
    ("preset", "overrides", "message"),
    [
        ("indian13", {"deal.hand_size": 5}, "TWO_SEQ_ONE_PURE needs at least 6 cards"),
        ("indian13", {"declare.require_life_len4": True, "deal.hand_size": 6}, "needs at least 7"),
        ("indian21", {"v21.declare_forms": ""}, "v21.declare_forms is empty"),
        ("indian13", {"deal.hand_size": 60}, "deal.hand_size = 60"),
        ("indian13", {"meld.ace_mode": "WRAPAROUND"}, "K-A-2 is invalid"),
        ("indian13", {"meld.min_naturals": 1}, "meld.all_wild_group = FORBIDDEN"),
        ("indian13", {"meld.set_max": 2}, "meld.set_max = 2"),
        ("indian13", {"drop.first": 50}, "drop.middle = 40 is below drop.first = 50"),
        ("indian13", {"scoring.cap": 0}, "scoring.cap = 0"),
        ("indian13", {"match.format": "SINGLE_ROUND"}, "not an Indian Rummy format"),
        ("indian13", {"scoring.mode": "ZERO_SUM_HIGH"}, "PENALTY_LOW"),
        ("indian13", {"pool.drop_values_201": "50,25"}, "pool.drop_values_201"),
        ("indian13", {"pool.drop_values_201": "25"}, "give 2 numbers"),
        (
            "indian13",
            {"scoring.loser_meld_credit": "THREE_PURE", "deal.hand_size": 7},
            "THREE_PURE needs at least 9",
        ),
        ("indian21", {"paplu.enabled": True}, "value cards instead"),
        (
            "indian13",
            {"declare.requirement": "V21_ANY_OF", "v21.declare_forms": "EIGHT_DUBLEE"},
            "needs at least 16",
        ),
        ("indian13", {"v21.declare_forms": "NINE_KINGS"}, "not one of"),
        ("indian13", {"players.max": 1}, "players.max = 1"),
        ("indian13", {"deck.kind": "TILES"}, "played with cards"),
    ],
)
def test_inconsistent_options_are_refused_naming_the_option(
    preset: str, overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        find_preset(preset, overrides)


def test_check_players_and_decks() -> None:
    one_deck = indian_rules("indian13", {"deck.standard_decks": 1, "deck.printed_jokers": 1})
    one_deck.check_players(2)
    with pytest.raises(ConfigError, match="need 55 cards, the deck has 53"):
        one_deck.check_players(4)
    with pytest.raises(ConfigError, match=r"players\.min/players\.max"):
        indian_rules("indian13").check_players(7)


def test_wilds_and_values() -> None:
    r = indian_rules("indian13")
    w = r.wilds(Card.parse("7C"))
    assert w.wild_rank == 7 and w.extra == frozenset()
    assert [r.penalty_value(c, w) for c in parse_cards("AS KS QS JS 10S 2S 7H JK")] == [
        10,
        10,
        10,
        10,
        10,
        2,
        0,
        0,
    ]
    assert r.hand_value(parse_cards("AS 7D 9C"), 7) == 19
    assert r.wilds(wild_rank=12).wild_rank == 12
    with pytest.raises(ConfigError, match="contradicts the indicator"):
        r.wilds(Card.parse("7C"), wild_rank=8)
    with pytest.raises(ConfigError, match="not a rank"):
        r.wilds(wild_rank=14)
    mr = r.meld_rules_for(w)
    assert mr.ace_mode is AceMode.HIGH_OR_LOW and mr.wild_rank == 7 and mr.min_naturals == 0
    assert Meld.parse("[9H 7D=10H JH]").check(mr) is None
    # §5.1: the indicator is out of play, so the decks hold one copy fewer of it.
    assert r.max_copies(Card.parse("7C"), Card.parse("7C")) == 1
    assert r.max_copies(Card.parse("JK"), Card.parse("JK")) == 1
    in_play = r.with_options({"wild.indicator_in_play": True})
    assert in_play.max_copies(Card.parse("7C"), Card.parse("7C")) == 2


def test_21_card_value_cards() -> None:
    r = indian_rules("indian21")
    vc = r.value_cards(Card.parse("AH"))
    assert vc == {
        ValueCard.LOWER: Card.parse("KH"),
        ValueCard.CUT: Card.parse("AH"),
        ValueCard.UPPER: Card.parse("2H"),
    }
    joker = r.value_cards(Card.parse("JK"))
    assert joker is not None and joker[ValueCard.CUT] == Card.parse("AS")
    assert joker[ValueCard.UPPER] == Card.parse("2S") and joker[ValueCard.LOWER] == Card.parse("KS")
    w = r.wilds(Card.parse("JK"))
    assert w.wild_rank == 1 and w.extra == {Card.parse("2S"), Card.parse("KS")}
    ind = Card.parse("5C")
    assert r.value_points(parse_cards("5C 5C"), ind) == 30
    assert r.value_points(parse_cards("4C 5C 6C 4C 5C 6C 6C"), ind) == 300 + 10
    assert r.value_points(parse_cards("4C 4C 4C"), ind) == 50
    assert indian_rules("indian13").value_cards(ind) is None
    assert indian_rules("indian21", {"v21.upper_lower_wild": False}).wilds(ind).extra == frozenset()


def test_match_format_names() -> None:
    for fmt in ("POINTS", "POOL", "DEALS", "FIXED_HANDS"):
        r = indian_rules(
            "indian13", {"match.format": fmt, "deals.count": 6, "deals.scoring": "CHIPS"}
        )
        assert r.match.format is MatchFormat[fmt]


@pytest.mark.parametrize("threshold", [61, 101, 201])
def test_pool_threshold_is_an_option(threshold: int) -> None:
    r = indian_rules("indian13", {"match.format": "POOL", "pool.threshold": threshold})
    assert r.pool_threshold == threshold
    assert r.options()["match.format"] == "POOL" and r.options()["pool.threshold"] == threshold


def test_pool_threshold_outside_the_rule_book_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"pool\.threshold = 150"):
        indian_rules("indian13", {"match.format": "POOL", "pool.threshold": 150})


@pytest.mark.parametrize(
    ("old", "fmt", "threshold"),
    [
        ("POOL_101", "POOL", 101),
        ("pool_201", "POOL", 201),
        ("POOL_61", "POOL", 61),
        ("ROUNDS_LOWEST_TOTAL", "FIXED_HANDS", None),
    ],
)
def test_earlier_match_format_names_are_read(old: str, fmt: str, threshold: int | None) -> None:
    r = indian_rules("indian13", {"match.format": old})
    assert r.match.format is MatchFormat[fmt]
    assert r.pool_threshold == threshold


def test_earlier_pool_name_contradicting_the_threshold_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"POOL_101 means pool\.threshold = 101"):
        indian_rules("indian13", {"match.format": "POOL_101", "pool.threshold": 201})
    same = indian_rules("indian13", {"match.format": "POOL_101", "pool.threshold": "101"})
    assert same.pool_threshold == 101
