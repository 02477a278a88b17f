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

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, overload

from openrummy.cards import Card
from openrummy.errors import RummyError
from openrummy.melds import Meld
from openrummy.rules.manipulation import ManipulationRules, MeldOwnership, Mobility

from .actions import ActionKind, Play

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
            best = self._best()
            if best is None:
                self._plays = self._eager(game)
            else:
                # No opening means no play at all: no small play either.
                small = self._list_small(game) if best.count else []
                self._plays = self._merge(best, small)
            return
        from openrummy.solve.table import can_place, in_play_order, play_order_key

        # A small play of a player who has opened passes every check: a valid new meld of
        # hand cards, or a valid meld grown by one hand card (C1-C4), nothing retrieved.
        small = self._small = self._list_small(game, check=False)
        keys: dict[Meld, object] = {}

        def key(meld: Meld) -> object:
            k = keys.get(meld)
            if k is None:
                k = keys[meld] = play_order_key(meld)
            return k

        ordered = any(in_play_order(p.table, key) for p in small)
        self._behind = not ordered
        """The plays after the first are the small plays (the solver's is not one)."""
        if len(small) >= limit:
            self._length = limit
        elif small and ordered:
            self._plays = self._merge(self._best(), small)
        elif small:
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

    def _list_small(self, game: ManipulationGame, check: bool = True) -> list[Play]:
        """The first ``limit`` different small plays that pass the commit checks (``check``:
        test them; False where every one passes)."""
        out: list[Play] = []
        for table in game.small_tables():
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


def _exact(rules: ManipulationRules) -> bool:
    """Whether the solver's search covers every play the commit checks accept here and its
    play passes them (then the menu's length is known without it)."""
    return (
        rules.joker.mobility is not Mobility.ONLY_VIA_REPLACEMENT
        and rules.meld.ownership is not MeldOwnership.OWNED
    )
