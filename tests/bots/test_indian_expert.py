"""The Indian expert's look-ahead is the exact expectation over the cards it cannot see."""

from __future__ import annotations

from collections import Counter

from helpers import indian_rules
from openrummy.bots import make_bot
from openrummy.bots.indian import indian_view
from openrummy.bots.indian_ladder import IndianExpertBot, _read
from openrummy.games.indian import IndianMatch
from openrummy.solve.hand import analyse_draw


def test_the_look_ahead_is_the_mean_over_every_unseen_card() -> None:
    """At the expert's throws in real games, the look-ahead of each candidate hand equals
    the mean, over every unseen card *counted with its copies*, of the full draw analysis's
    answer (0 where the hand then declares, else the deadwood after the best throw)."""
    rules = indian_rules("indian13")
    checked = 0
    for seed in range(3):
        match = IndianMatch(rules, 2, seed=seed)
        bots = [make_bot("expert", rules, seed), make_bot("strategic", rules, seed)]
        expert = bots[0]
        assert isinstance(expert, IndianExpertBot)
        while not match.is_over and checked < 3 * (seed + 1):
            seat = match.current
            view = match.view(seat)
            if seat == 0 and "discard" in view.legal:
                seen = _read(indian_view(view))
                seen.wilds = expert.wilds(seen)
                pool = expert.unseen(seen)
                visible = len(seen.hand) + len(seen.discard) + 1  # + the indicator
                assert (
                    len(pool)
                    == rules.deck.standard_decks * 52 + rules.deck.printed_jokers - visible
                )
                rest = seen.hand[1:]
                want = 0.0
                for x in pool:  # every copy on its own
                    a = analyse_draw([*rest, x], rules, seen.wilds)
                    want += 0 if a.declare_with is not None else a.after_discard.points
                got = expert._expected_next(rest, seen, Counter(pool))
                assert abs(got - want / len(pool)) < 1e-9
                checked += 1
            match.apply(bots[seat].choose(view))
    assert checked == 9
