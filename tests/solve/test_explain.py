"""Explanations: the steps, followed from the old table, give exactly the new one."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import manipulation_rules
from helpers.positions import random_position
from openrummy import Meld, parse_cards
from openrummy.melds import MeldRules
from openrummy.solve import apply_steps, best_play, explain, explain_steps
from openrummy.solve.explain import StepKind, explain_messages


def same_table(a: list[Meld], b: list[Meld], rules: MeldRules) -> bool:
    return Counter(str(m.normalized(rules)) for m in a) == Counter(
        str(m.normalized(rules)) for m in b
    )


def test_issue_example_in_both_languages() -> None:
    before = [Meld.parse("[4S 5S 6S 7S]")]
    after = [Meld.parse("[5S 6S 7S]"), Meld.parse("[4S 4H 4D]")]
    assert explain(before, after) == [
        "1. Split: take 4♠ from [4♠ 5♠ 6♠ 7♠]; lay 4♠ 4♥ 4♦ as a new set"
    ]
    assert explain(before, after, lang="de") == [
        "1. Splitten: nimm 4♠ aus [4♠ 5♠ 6♠ 7♠]; lege 4♠ 4♥ 4♦ als neuen Satz aus"
    ]


def test_vocabulary() -> None:
    mr = manipulation_rules("robbers").meld_rules
    cases = [
        (["[5H 6H 7H]"], ["[5H 6H 7H 8H]"], StepKind.ADD),
        ([], ["[5H 6H 7H]"], StepKind.NEW_MELD),
        (["[7S 7H 7D]"], ["[7S 7H 7C]", "[5D 6D 7D]"], StepKind.SPLIT),
        (
            ["[3C 4C 5C 6C]", "[9C 10C JC]"],
            ["[3C 4C 5C]", "[6C 7C 8C 9C 10C JC]"],
            StepKind.COMBINE,
        ),
        (["[7C JK=7D 7H]"], ["[7C 7D 7H]", "[JK=2C 3C 4C]"], StepKind.SWAP_JOKER),
    ]
    for before, after, kind in cases:
        b = [Meld.parse(x) for x in before]
        a = [Meld.parse(x) for x in after]
        steps = explain_steps(b, a, mr)
        assert kind in {s.kind for s in steps}, (before, after, steps)
        assert same_table(apply_steps(b, steps), a, mr)
    de = explain([Meld.parse("[5H 6H 7H]")], [Meld.parse("[5H 6H 7H 8H]")], lang="de")
    assert de == ["1. Anfügen: lege 8♥ an [5♥ 6♥ 7♥] an: [5♥ 6♥ 7♥ 8♥]"]


def test_unchanged_table_needs_no_steps() -> None:
    t = [Meld.parse("[5H 6H 7H]"), Meld.parse("[9S 9H 9D]")]
    assert explain(t, list(reversed(t))) == []


def test_unknown_language() -> None:
    with pytest.raises(ValueError, match="language"):
        explain([], [], lang="fr")


@pytest.mark.parametrize("chunk", range(4))
def test_steps_reproduce_the_solver_answer(chunk: int) -> None:
    for seed in range(10_000 + chunk * 40, 10_000 + (chunk + 1) * 40):
        p = random_position(seed)
        play = best_play(p.rules, p.table, p.hand, opened=p.opened, keep_melds=False)
        mr = p.rules.meld_rules
        before, after = list(play.before), list(play.table)
        steps = explain_steps(before, after, mr)
        assert same_table(apply_steps(before, steps), after, mr), p.label
        # every card a step adds from the hand was placed, and all placed cards are used
        from_hand = Counter(c for s in steps for c in s.from_hand)
        assert from_hand == Counter(play.placed), p.label
        # a step names what it takes as items of the meld as it lies (a joker by what it
        # stands for there)
        for msg in explain_messages(before, after, mr):
            for part in msg.to_json()["parts"]:
                if part["reason"] == "step.take":
                    shown = Counter(part["meld"][1:-1].split())
                    assert not Counter(part["cards"]) - shown, (p.label, part)
        for lang in ("en", "de"):
            lines = explain(before, after, lang=lang, rules=mr)
            assert len(lines) == len(steps)
            assert all(line.startswith(f"{i}. ") for i, line in enumerate(lines, 1))


def test_s000_example_with_joker() -> None:
    rules = manipulation_rules("robbers")
    before = [Meld.parse("[4S 5S 6S 7S]")]
    play = best_play(rules, before, parse_cards("3S 4H 4D JK"))
    lines = explain(before, list(play.table))
    assert lines and "Joker" in " ".join(lines)


@pytest.mark.parametrize(
    ("game", "before", "after", "named", "label", "left"),
    [
        (
            "rummikub",
            "[JK=O9 O10 JK=O11 O12]",
            ["[JK=O9 O10 O11 O12]", "[K5 R5 JK=B5]"],
            "JK=O11",
            "Joker=orange 11",
            "[JK=O9 O10 O12]",
        ),
        (
            "robbers",
            "[7H JK=7S JK=7C]",
            ["[7H 7S JK=7C]", "[4D 5D JK=6D]"],
            "JK=7C",
            "Joker=7♣",
            "[7H JK=7S]",
        ),
    ],
)
def test_a_step_names_the_joker_it_takes(
    game: str, before: str, after: list[str], named: str, label: str, left: str
) -> None:
    """Of two jokers in a meld, the step names the one it moves by what it stands for: the
    meld the next step shows has lost exactly that one."""
    mr = manipulation_rules(game).meld_rules
    b, a = [Meld.parse(before)], [Meld.parse(x) for x in after]
    msgs = [m.to_json() for m in explain_messages(b, a, mr)]
    assert msgs[0]["parts"][0] == {"reason": "step.take", "cards": [named], "meld": before}
    assert msgs[1]["parts"][0]["meld"] == left
    assert same_table(apply_steps(b, explain_steps(b, a, mr)), a, mr)
    tiles = game == "rummikub"
    assert f"take {label} from " in explain(b, a, rules=mr, tiles=tiles)[0]
    assert f"nimm {label} aus " in explain(b, a, lang="de", rules=mr, tiles=tiles)[0]
