"""The Indian Rummy environments' fast path: mask, menu and observation read straight from the
engine's state (private).

They give exactly what the generic path gives (:func:`openrummy.envs._spaces.menu` and
:func:`~openrummy.envs._spaces.encode` of the seat's view), without building a view, the
engine's whole legal listing or its action objects for every step:

* the **ids** of the seat to move are read from the phase, the hand and the discard pile;
  the declarations (a hand-solver search per finish card) are asked of the engine only when
  the compiled quick test (:func:`~openrummy.envs._indian_core.could_group_counts`, 13, 10
  and 21 cards) has not ruled every one out, and then only for the finish cards it keeps;
* the **observation** is filled from the round's lists (the seat's own hand, the public
  pile and counts), the same numbers the view carries.

Both are used only while every seat of the match plays the round (a pool's eliminated
players make the view's seat lists wider; the generic path handles those).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from openrummy.cards import Card
from openrummy.games.actions import Action, Declare, Discard, Draw, Drop, Show, TakeDiscard
from openrummy.games.indian import IndianGame, IndianMatch, IndianPhase, SeatStatus
from openrummy.rules import IndianRules

from ._spaces import (
    CARD_KINDS,
    DISCARD0,
    DRAW,
    END_OR_SHOW,
    PASS_OR_DROP,
    SECOND0,
    TAKE,
    Floats,
    ObservationLayout,
    card_kinds,
)

__all__ = ["IndianFastPath"]


class _Kinds(dict[Card, int]):
    """Each card's kind index (``Card.index``), looked up instead of computed."""

    def __missing__(self, card: Card) -> int:
        self[card] = card.index
        return card.index


_KIND: Final = _Kinds()


_PHASE: Final = {IndianPhase.START: 0, IndianPhase.DISCARD: 1, IndianPhase.SHOW: 2}


class IndianFastPath:
    """Ids, actions and observations of one Indian environment's match (see the module)."""

    def __init__(self, rules: IndianRules, players: int, lay: ObservationLayout) -> None:
        self.rules = rules
        self.players = players
        self.size = lay.size
        sl = lay.slices()
        self.hand0 = sl["hand"].start
        self.discard0 = sl["discard"].start
        self.top0 = sl["discard_top"].start
        self.unseen0 = sl["unseen"].start
        self.sizes0 = sl["hand_sizes"].start
        self.opened0 = sl["opened"].start
        self.stock0 = sl["stock"].start
        self.move0 = sl["to_move"].start
        self.phase0 = sl["phase"].start
        self.wild0 = sl["wild_rank"].start
        self.draws0 = sl["draws"].start
        self.taken0 = sl["taken"].start
        self.standings0 = sl["standings"].start
        self.kinds = card_kinds(rules)
        deck = np.zeros(CARD_KINDS, np.intp)
        for c in IndianGame.full_deck(rules):
            deck[c.index] += 1
        self.deck = deck
        self._blank = np.zeros(lay.size, np.float32)
        # the compiled quick declaration test (_indian_core.could_group_counts), where it holds;
        # imported here: numba loads with it
        from . import _indian_core as core

        self.quick_declare = core.quick_test_applies(rules)
        self._wild_table = core.wild_table(rules)
        self._v21 = rules.is_v21
        self._tunnela = rules.tunnela_is_meld
        self._forms = core.forms_of(rules) if rules.is_v21 else 0
        self._game: IndianGame | None = None
        self._ids: list[int] = []
        self._declares: dict[int, Declare] = {}

    @staticmethod
    def applies(match: IndianMatch) -> bool:
        """Does every seat of the match play the round (the fast path's condition)?"""
        return len(match.seats) == match.players

    # -- the menu -----------------------------------------------------------------------------
    def ids(self, match: IndianMatch) -> list[int]:
        """The action ids the seat to move may take now (cached until the round changes)."""
        game = match.game
        if game is self._game:
            return self._ids
        return self._compute(match, game)

    def forget(self) -> None:
        """Drop the cached ids (after any action)."""
        self._game = None

    def _compute(self, match: IndianMatch, game: IndianGame) -> list[int]:
        ids: list[int] = []
        self._declares = {}
        phase = game.phase
        if match.outcome is None and game.outcome is None:
            if phase is IndianPhase.START:
                ids = [DRAW, PASS_OR_DROP]
                if game.may_take():
                    ids.insert(1, TAKE)
            elif phase is IndianPhase.DISCARD:
                ids = [DISCARD0 + _KIND[c] for c in game.throwable_cards()]
                hand = game.hands[game.current]
                wild = self._wild_table[game.indicator.index, 1:]
                if not self.quick_declare or self._could(hand, wild, True):
                    seat = match.seats[game.current]
                    maybe = (
                        (lambda rest: self._could(rest, wild, False))
                        if self.quick_declare
                        else None
                    )
                    for d in game.declarations(maybe):
                        i = SECOND0 + _KIND[d.finish]
                        if i not in self._declares:
                            self._declares[i] = Declare(seat, d.finish, d.groups)
                            ids.append(i)
            elif phase is IndianPhase.SHOW:
                ids = [END_OR_SHOW]
        self._game = game
        self._ids = ids
        return ids

    def _could(self, cards: list[Card], wild: npt.NDArray[np.int64], finish: bool) -> bool:
        """The compiled quick test: False only when no declaration is possible."""
        from . import _indian_core as core  # (imported in __init__ already)

        counts = core.counts(cards)
        return bool(
            core.could_group_counts(counts, wild, finish, self._v21, self._tunnela, self._forms)
        )

    def action(self, match: IndianMatch, i: int) -> Action | None:
        """The action of id ``i`` for the seat to move, or None when ``i`` is not offered."""
        if i not in self.ids(match):
            return None
        seat = match.current
        if i == DRAW:
            return Draw(seat)
        if i == TAKE:
            return TakeDiscard(seat)
        if i == PASS_OR_DROP:
            return Drop(seat)
        if DISCARD0 <= i < SECOND0:
            card = self.kinds[i - DISCARD0]
            assert card is not None
            return Discard(seat, card)
        if i >= SECOND0:
            return self._declares[i]
        return self._show(match)

    def menu(self, match: IndianMatch) -> dict[int, Action]:
        """Every offered action by id (what :func:`~openrummy.envs._spaces.menu` gives)."""
        out: dict[int, Action] = {}
        for i in self.ids(match):
            action = self.action(match, i)
            assert action is not None
            out[i] = action
        return out

    @staticmethod
    def _show(match: IndianMatch) -> Show:
        for action in match.legal_actions():
            if isinstance(action, Show):
                return action
        raise AssertionError("a show is offered only when the engine lists one")

    # -- the observation ------------------------------------------------------------------------
    def observe(self, match: IndianMatch, seat: int) -> Floats:
        """The seat's observation, equal to ``encode(match.view(seat), ...)``."""
        game = match.game
        n = self.players
        kinds = _KIND
        hand = np.bincount(
            np.array([kinds[c] for c in game.hands[seat]], np.intp), minlength=CARD_KINDS
        )
        pile = game.discard_pile
        seen = np.bincount(np.array([kinds[c] for c in pile], np.intp), minlength=CARD_KINDS)
        obs = self._blank.copy()
        h0, d0, u0 = self.hand0, self.discard0, self.unseen0
        obs[h0 : h0 + CARD_KINDS] = hand
        obs[d0 : d0 + CARD_KINDS] = seen
        obs[u0 : u0 + CARD_KINDS] = np.maximum(self.deck - hand - seen, 0)
        if pile:
            obs[self.top0 + kinds[pile[-1]]] = 1.0
        hands, status, draws = game.hands, game.status, game.draws
        s0, o0, r0, t0 = self.sizes0, self.opened0, self.draws0, self.standings0
        totals = match.totals
        for k in range(n):
            s = (seat + k) % n
            obs[s0 + k] = len(hands[s])
            obs[o0 + k] = status[s] is SeatStatus.ACTIVE
            obs[r0 + k] = draws[s]
            obs[t0 + k] = totals[s]
        obs[self.stock0] = game.stock_size
        if game.outcome is None:
            obs[self.move0 + (game.current - seat) % n] = 1.0
        phase = _PHASE.get(game.phase)
        if phase is not None:
            obs[self.phase0 + phase] = 1.0
        obs[self.wild0 + (game.wilds.wild_rank or 0)] = 1.0
        taken = game.taken
        if taken is not None:
            obs[self.taken0 + kinds[taken]] = 1.0
        return obs
