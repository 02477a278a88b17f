"""Positions where the table solver's hint is to be carried out with the web table's gestures
(``tests/test_web_hints.py`` on the page's turn model in node, ``tests/e2e/test_hint_gestures.py``
in Chromium)."""

from __future__ import annotations

SWAPS_BEFORE_OPENING = [
    ("hint-swap-robbers-2", 1),
    ("hint-swap-robbers-9", 6),
    ("hint-swap-robbers-30", 3),
    ("hint-swap-robbers-5", 4),
    ("hint-swap-robbers-16", 3),
    ("hint-swap-robbers-23", 4),
    ("hint-swap-robbers-32", 7),
]
"""Robbers' Rummy deals of four where a player who has not opened is hinted to swap a joker
(the natural card replaces the table's joker, which goes into the opening melds): the seed
and the turn (greedy bots play every seat until then). In the deals 2, 9 and 30 the joker of
a set stands for another missing suit than the hinted card's ("put A♦ into [JK=A♠ A♥ A♣] in
place of the joker")."""
