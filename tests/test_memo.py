"""``openrummy._memo.by_identity``: results remembered per object identity."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys

import pytest

from helpers import manipulation_rules
from openrummy._memo import by_identity
from openrummy.melds import AceMode, MeldRules


class Key:
    """A hashable value whose equal copies are distinct objects."""

    def __init__(self, v: int) -> None:
        self.v = v

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Key) and other.v == self.v

    def __hash__(self) -> int:
        return hash(self.v)


def test_remembers_per_identity_and_rest_by_value() -> None:
    calls: list[tuple[int, int]] = []

    @by_identity
    def f(k: Key, n: int) -> int:
        calls.append((k.v, n))
        return k.v * 10 + n

    a, b = Key(1), Key(1)
    assert f(a, 2) == 12 and f(a, 2) == 12
    assert calls == [(1, 2)]
    assert f(a, 3) == 13  # another value of the rest: computed
    assert f(b, 2) == 12  # an equal but distinct object: computed again
    assert calls == [(1, 2), (1, 3), (1, 2)]


def test_keyword_arguments_are_refused() -> None:
    @by_identity
    def f(k: Key, n: int = 0) -> int:
        return n

    with pytest.raises(TypeError, match="positional arguments only"):
        f(Key(1), n=2)


def test_rules_tables_follow_the_rules_object() -> None:
    rules = manipulation_rules("rummikub")
    other = manipulation_rules("rummikub", {"meld.ace_mode": "WRAPAROUND"})
    assert rules.meld_rules is rules.meld_rules
    assert rules.meld_rules.ace_mode is AceMode.LOW_ONLY
    assert other.meld_rules.ace_mode is AceMode.WRAPAROUND


def test_meld_rules_hash_survives_pickling_and_matches_equal_rules() -> None:
    a = MeldRules(ace_mode=AceMode.HIGH_OR_LOW, min_len=4)
    b = MeldRules(ace_mode=AceMode.HIGH_OR_LOW, min_len=4)
    c = pickle.loads(pickle.dumps(a))
    assert a == b == c and hash(a) == hash(b) == hash(c)
    assert {a: 1}[c] == 1
    assert hash(MeldRules()) != hash(a)


def test_meld_rules_hash_is_the_same_in_every_process() -> None:
    """A pickled MeldRules keeps its computed hash, so the hash must not depend on the
    process's string-hash seed (worker processes of a tournament unpickle rules)."""
    code = (
        "from openrummy.melds import MeldRules, AceMode; "
        "print(hash(MeldRules(ace_mode=AceMode.WRAPAROUND)))"
    )
    assert _same_in_two_processes(code)


def test_card_and_meld_hashes_are_the_same_in_every_process() -> None:
    """Cards, items and melds keep their computed hash when pickled: a joker (no suit)
    and an item without identity (represents None) included."""
    code = (
        "from openrummy.cards import JOKER, Card, Suit; "
        "from openrummy.melds import Meld, MeldItem; "
        "print(hash(JOKER), hash(Card(5, Suit(2), True)), hash(MeldItem(JOKER, None)), "
        "hash(Meld.parse('[JK=4S 4H 4D]')))"
    )
    assert _same_in_two_processes(code)


def _same_in_two_processes(code: str) -> bool:
    """Whether ``code`` prints the same under two string-hash seeds."""
    seen = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        seen.add(out.stdout.strip())
    return len(seen) == 1
