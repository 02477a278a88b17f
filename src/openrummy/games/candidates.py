"""The candidate plays of a manipulation turn as a menu whose length is known at once.

:meth:`ManipulationGame.candidate_plays` lists the solver's best play first, then small
plays (one new meld of three from the hand, or one lay-off). A menu of actions (the
reinforcement-learning environments' macro actions) needs the *number* of those plays at
every turn but a play only when it is chosen. :class:`CandidateMenu` holds exactly the
plays of ``candidate_plays(limit)``, in the same order, and searches for the solver's play
only when the answer depends on it:

- the small plays are listed first (cheap); every one of them is a play of at least one
  card, so the solver's best play places at least one card too;
- the solver's play is one of the small plays only if the small play's table stands in
  the solver's meld order (:func:`~openrummy.solve.table.in_play_order`); when none does,
  the menu is "the solver's play, then the small plays" without knowing that play yet;
- with no small play, one question of the search ("can one card be placed?",
  :func:`~openrummy.solve.table.can_place`) decides whether the solver's play exists.

This holds where the solver searches every play the commit checks accept and its play
passes them: for a player who has opened, without owned melds and without jokers that
move only by replacement. Elsewhere (and for a player who has not opened, whose solver
answer is cheap when there is no opening) the menu is computed as ``candidate_plays``
computes it.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, overload

from openrummy.cards import JOKER, Card
from openrummy.errors import RummyError
from openrummy.melds import Meld
from openrummy.rules.manipulation import (
    ManipulationRules,
    MeldOwnership,
    Mobility,
    OpeningType,
)

from .actions import ActionKind, Play
from .commit import opening_required

if TYPE_CHECKING:
    from openrummy.solve.table import BestPlay

    from .manipulation import ManipulationGame

__all__ = ["CandidateMenu"]


class CandidateMenu(Sequence[Play]):
    """``list(game.candidate_plays(limit))``, with :func:`len` known without the solver's
    play wherever possible (see the module docstring). The menu is a snapshot: it stays
    the menu of the position it was made in. ``solver=False``: the small plays only (the
    first ``limit`` that pass the commit checks), without the solver's play."""

    def __init__(self, game: ManipulationGame, limit: int, *, solver: bool = True) -> None:
        self._plays: list[Play] | None = None
        """Every play, once known."""
        self._small: list[Play] = []
        self._length = 0
        self._behind = False
        self.solved = False
        """Whether the solver's best play was searched for."""
        if ActionKind.PLAY not in game.legal_kinds() or limit <= 0:
            self._plays = []
            return
        seat = game.current
        self._limit = limit
        self._seat = seat
        self._rules: ManipulationRules = game.rules
        self._table: tuple[Meld, ...] = game.table
        self._hand: tuple[Card, ...] = tuple(game.hands[seat])
        self._opened = game.opened[seat]
        self._valid: Callable[[Play], bool] = game.play_checker(seat)
        if not solver:
            # the small plays alone (a menu without the solver's play)
            self._plays = self._list_small(game, check=not (self._opened and _exact(game.rules)))
            return
        if not _exact(game.rules):
            self._plays = self._eager(game)
            return
        if not self._opened:
            if _cannot_open(self._rules, self._hand):
                # no opening from the hand: the solver's answer places nothing, and no
                # small play passes the opening check
                self._plays = []
                return
            best = self._best()
            if best is None:
                self._plays = self._eager(game)
            else:
                # No opening means no play at all: no small play either.
                small = self._list_small(game) if best.count else []
                self._plays = self._merge(best, small)
            return
        from openrummy.solve.table import can_place, in_play_order

        # A small play of a player who has opened passes every check: a valid new meld of
        # hand cards, or a valid meld grown by one hand card (C1-C4), nothing retrieved.
        small = self._small = self._list_small(game, check=False)
        ordered = [p for p in small if in_play_order(p.table, _order_key)]
        self._behind = not ordered
        """The plays after the first are the small plays (the solver's is not one)."""
        if len(small) >= limit:
            self._length = limit
        elif ordered and not self._places_more(small, ordered):
            self._plays = self._merge(self._best(), small)
        elif small:
            # the solver's play places more cards than any small play in its meld order
            self._behind = True
            self._length = len(small) + 1
        else:
            try:
                placeable = can_place(self._rules, self._table, self._hand)
            except RummyError:
                self._plays = self._eager(game)
                return
            self._length = 1 if placeable else 0
            if not placeable:
                self._plays = []

    # -- Sequence ---------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._plays) if self._plays is not None else self._length

    @overload
    def __getitem__(self, i: int) -> Play: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Play]: ...
    def __getitem__(self, i: int | slice) -> Play | Sequence[Play]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        i %= len(self)
        if self._plays is None and i > 0 and self._behind:
            # the solver's play is not among the small plays: they follow it in order
            return self._small[i - 1]
        return self._all()[i]

    def __iter__(self) -> Iterator[Play]:
        return iter(self._all())

    # -- helpers ----------------------------------------------------------------------------
    def _all(self) -> list[Play]:
        if self._plays is None:
            best = self._best()
            self._plays = self._merge(best, self._small)
            if len(self._plays) != self._length:
                raise AssertionError("the solver's play did not pass the commit checks")
        return self._plays

    def _eager(self, game: ManipulationGame) -> list[Play]:
        self.solved = True
        return list(game.candidate_plays(self._limit))

    def _best(self) -> BestPlay | None:
        from openrummy.solve.table import best_play

        self.solved = True
        try:
            return best_play(
                self._rules, self._table, self._hand, opened=self._opened, keep_melds=False
            )
        except RummyError:
            return None

    def _places_more(self, small: Sequence[Play], ordered: Sequence[Play]) -> bool:
        """Whether the solver's play (of a player who has opened) places more cards than
        every play of ``ordered`` (the small plays in the solver's meld order), so that it
        is none of them. Some play places more if a small play does, two small plays
        side by side do (different melds grown, enough hand cards for both), or a small
        play and one more hand card on the meld it made or grew; otherwise one question
        of the search decides."""
        size = sum(len(m) for m in self._table)
        changes = [self._change(p, size) for p in small]
        most = max(len(cards) for p, (_, cards) in zip(small, changes, strict=True) if p in ordered)
        if any(len(cards) > most for _, cards in changes):
            return True
        hand = Counter(self._hand)
        for (i, a), (j, b) in combinations(changes, 2):
            if len(a) + len(b) > most and (i is None or i != j):
                need = Counter(a)
                need.update(b)
                if all(hand[c] >= n for c, n in need.items()):
                    return True
        # a small play, then one more hand card on the meld it made or grew
        from .manipulation import _meld_lay_offs

        mr = self._rules.meld_rules
        for p, (i, cards) in zip(small, changes, strict=True):
            if len(cards) + 1 <= most:
                continue
            meld = p.table[-1] if i is None else p.table[i]
            for card, _ in _meld_lay_offs(meld, mr, self._rules.tiles):
                if hand[card] > cards.count(card):
                    return True
        try:
            from openrummy.solve.table import can_place

            return can_place(self._rules, self._table, self._hand, at_least=most + 1)
        except RummyError:
            return False

    def _change(self, play: Play, size: int) -> tuple[int | None, tuple[Card, ...]]:
        """A small play's grown meld (its index; None: a new meld) and the cards it places."""
        table = play.table
        if len(table) > len(self._table):
            return None, table[-1].cards
        for i, (old, new) in enumerate(zip(self._table, table, strict=True)):
            if old is not new and old != new:
                grown = Counter(new.cards)
                grown.subtract(old.cards)
                return i, tuple(grown.elements())
        raise AssertionError(f"{play} places nothing")  # pragma: no cover

    def _list_small(self, game: ManipulationGame, check: bool = True) -> list[Play]:
        """The first ``limit`` different small plays that pass the commit checks (``check``:
        test them; False where every one passes). A seat that must still open skips the
        tables that cannot pass the opening check (the others come in the same order)."""
        out: list[Play] = []
        opening = not self._opened and opening_required(self._rules)
        for table in game.small_tables(opening=opening):
            play = Play(self._seat, table)
            if play not in out and (not check or self._valid(play)):
                out.append(play)
                if len(out) >= self._limit:
                    break
        return out

    def _merge(self, best: BestPlay | None, small: Sequence[Play]) -> list[Play]:
        """The solver's play (if any and valid), then the small plays that differ from it,
        ``limit`` in all: ``candidate_plays``'s order."""
        out: list[Play] = []
        if best is not None and best.count:
            play = Play(self._seat, tuple(best.table))
            if self._valid(play):
                out.append(play)
        for play in small:
            if len(out) >= self._limit:
                break
            if play not in out:
                out.append(play)
        return out


@functools.lru_cache(maxsize=16_384)
def _order_key(meld: Meld) -> object:
    """:func:`~openrummy.solve.table.play_order_key`, remembered (table melds stay)."""
    from openrummy.solve.table import play_order_key

    return play_order_key(meld)


def _cannot_open(rules: ManipulationRules, hand: Sequence[Card]) -> bool:
    """True when no melds of ``hand`` cards alone can be worth a points opening: the hand
    cards that could be in some meld of hand cards (a set: two more cards of the rank in
    other suits, or jokers; a run: a window of three ranks of the suit, gaps filled by jokers), each at its
    highest opening value, and every joker at a joker's, add up to less than the threshold.
    (False: there may be one.)"""
    o = rules.opening
    if o.type is not OpeningType.POINTS or o.threshold <= 0:
        return False
    jokers = sum(c.is_joker for c in hand)
    naturals = [c for c in hand if not c.is_joker]
    total = jokers * rules.opening_bound(JOKER) if jokers else 0
    ranks: dict[int, set[object]] = {}
    suits: dict[object, set[int]] = {}
    for c in naturals:
        ranks.setdefault(c.rank, set()).add(c.suit)
        suits.setdefault(c.suit, set()).add(c.rank)
    for c in naturals:
        # a set's naturals have different suits
        fits = len(ranks[c.rank]) - 1 + jokers >= 2
        if not fits:
            # every window of three ranks through the card, cyclic (K-A-2 too: a bound)
            row = suits[c.suit]
            fits = any(
                sum((r - 1) % 13 + 1 not in row for r in range(start, start + 3)) <= jokers
                for start in range(c.rank - 2, c.rank + 1)
            )
        if fits:
            total += rules.opening_bound(c)
            if total >= o.threshold:
                return False
    return total < o.threshold


def _exact(rules: ManipulationRules) -> bool:
    """Whether the solver's search covers every play the commit checks accept here and its
    play passes them (then the menu's length is known without it)."""
    return (
        rules.joker.mobility is not Mobility.ONLY_VIA_REPLACEMENT
        and rules.meld.ownership is not MeldOwnership.OWNED
    )
