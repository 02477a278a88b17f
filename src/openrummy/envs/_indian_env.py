"""The Indian Rummy environments' compiled path (private): :class:`IndianEnv`.

``RummyEnv(preset)`` of an Indian preset is an :class:`IndianEnv`. While its episode is one
hand (``match.format = POINTS``, what ``unit="round"`` plays), the hand lives in the compiled
round of :mod:`openrummy.envs._indian_core`: reset deals it from the seed, and draws, takes,
drops and throws are kernel steps, as are the observation and the mask. The engine's match
is built only when something asks for it (``env.match``: a view, a bot, a render, a
declaration), and then from the seed and the actions so far, so it is always the match the
engine would have played; from a declaration on (a declaration, the losers' show, the
21-card value cards at the hand's end) the engine plays the rest of the episode, with the
fast path of :mod:`openrummy.envs._indian`. Any other format plays on the engine throughout.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from openrummy.cards import Card
from openrummy.errors import IllegalActionError
from openrummy.games.actions import Action, Discard, Draw, Drop, TakeDiscard
from openrummy.games.families import Match, new_match
from openrummy.games.indian import IndianGame, IndianMatch
from openrummy.messages import Reason
from openrummy.rules import IndianRules
from openrummy.rules.common import FirstDealer, MatchFormat
from openrummy.rules.indian import StockOnEmpty

from . import _indian_core as core
from ._spaces import CARD_KINDS, SECOND0, ActionMenu, Floats, Mask
from .aec import Observation, RummyEnv

__all__ = ["IndianCore", "IndianEnv"]

_CUT: Final = {FirstDealer.LOW_CUT: core.CUT_LOW, FirstDealer.HIGH_CUT: core.CUT_HIGH}


class IndianCore:
    """The compiled hand of one environment: its state array and the constants the kernels
    read (see :mod:`openrummy.envs._indian_core`)."""

    def __init__(self, rules: IndianRules, players: int, lay: Any, deck: Floats) -> None:
        self.rules = rules
        self.players = players
        full = IndianGame.full_deck(rules)
        self.deck = np.array([c.index for c in full], np.int64)
        self.deck_counts = np.asarray(deck, np.int64)
        self.kinds: list[Card | None] = [None] * CARD_KINDS
        for c in full:
            self.kinds[c.index] = c
        self.wild_table = core.wild_table(rules)
        sl = lay.slices()
        names = (
            *("hand", "discard", "discard_top", "unseen", "hand_sizes", "opened", "stock"),
            *("to_move", "phase", "wild_rank", "draws", "taken", "standings"),
        )
        self.lay = np.array([sl[name].start for name in names], np.int64)
        self.size = lay.size
        st = np.zeros(core.SIZE, np.int64)
        st[core.H_N] = players
        st[core.R_TAKEWILD] = rules.discard.take_wild_from_discard
        st[core.R_NOSAME] = rules.discard.no_same_card_return
        st[core.R_INPLAY] = rules.wild.indicator_in_play
        st[core.R_DROP1], st[core.R_DROP2] = rules.drop_values()
        st[core.R_RESHUFFLE] = rules.stock.on_empty is StockOnEmpty.RESHUFFLE_DISCARDS_EXCEPT_TOP
        st[core.R_HAND] = rules.deal.hand_size
        st[core.R_CUT] = _CUT.get(rules.deal.first_dealer, core.CUT_RANDOM)
        st[core.R_QUICK] = core.quick_test_applies(rules)
        st[core.R_V21] = rules.is_v21
        st[core.R_TUNNELA] = rules.tunnela_is_meld
        st[core.R_FORMS] = core.forms_of(rules) if rules.is_v21 else 0
        self.st = st
        self.blank = np.zeros(lay.size, np.float32)
        self.value_cards = rules.is_v21 and rules.v21.value_cards

    @staticmethod
    def supports(rules: IndianRules, players: int) -> bool:
        """Can the compiled hand play an episode of ``rules`` (one hand per episode)?"""
        return (
            rules.match.format is MatchFormat.POINTS
            and players <= core.MAXP
            and len(IndianGame.full_deck(rules)) <= core.MAXD
        )

    def deal(self, seed: int) -> None:
        """The first hand of ``new_match(rules, players, seed=seed)``."""
        core.deal(
            self.st,
            core.seed_key(f"{seed}/dealer"),
            core.seed_key(f"{seed}/0"),
            self.deck,
            self.wild_table,
        )

    def fill(self, seat: int, n_actions: int) -> tuple[Floats, Mask]:
        obs = self.blank.copy()
        mask = np.zeros(n_actions, np.int8)
        core.fill(self.st, seat, self.lay, self.deck_counts, obs, mask)
        return obs, mask

    def ids(self) -> list[int]:
        """The ids (no declarations) offered to the seat to move, in the engine's order."""
        mask = np.zeros(SECOND0, np.int8)
        obs = self.blank.copy()
        st = self.st
        core.fill(st, int(st[core.H_CUR]), self.lay, self.deck_counts, obs, mask)
        return [int(i) for i in np.flatnonzero(mask)]


class IndianEnv(RummyEnv):
    """:class:`~openrummy.envs.aec.RummyEnv` of an Indian preset (see the module)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        self._core: IndianCore | None = None
        self._engine: Match | None = None
        self._pending: list[Action] = []
        self._live = False
        self._game_seed = 0
        self._ids: list[int] | None = None
        self._declares = False
        super().__init__(*args, **kw)
        rules = self.rules
        assert isinstance(rules, IndianRules)
        if IndianCore.supports(rules, self.players):
            self._core = IndianCore(rules, self.players, self.layout, self._deck)
            n = self.players
            self._draw = [Draw(s) for s in range(n)]
            self._take = [TakeDiscard(s) for s in range(n)]
            self._drop = [Drop(s) for s in range(n)]
            self._throw = [
                [None if c is None else Discard(s, c) for c in self._core.kinds] for s in range(n)
            ]

    # -- the engine's match, kept in step on demand ----------------------------------------------
    @property
    def match(self) -> Match:
        """The engine's match of the episode (built and brought up to date when asked)."""
        if self._live:
            return self._synced()
        assert self._engine is not None
        return self._engine

    @match.setter
    def match(self, value: Match) -> None:
        self._engine = value
        self._live = False
        self._pending = []

    def _synced(self) -> Match:
        engine = self._engine
        if engine is None:
            engine = self._engine = new_match(self.rules, self.players, seed=self._game_seed)
        if self._pending:
            for action in self._pending:
                engine.apply(action)
            self._pending = []
        return engine

    def _to_engine(self) -> None:
        """The engine plays the rest of the episode."""
        if self._live:
            self._synced()
            self._live = False
            self._ids = None
            if self._fast is not None:
                self._fast.forget()

    # -- PettingZoo API ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        c = self._core
        if c is None:
            super().reset(seed, options)
            return
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(self._seeds.integers(0, 2**63 - 1))
        c.deal(game_seed)
        self._game_seed = game_seed
        self._engine = None
        self._pending = []
        self._live = True
        self._ids = None
        self._menu = None
        self.steps = 0
        agents = self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {} for a in agents}
        self._totals = (0,) * self.players
        self._points = self._points_of(self._totals)
        self.agent_selection = agents[int(c.st[core.H_CUR])]
        self._fill_infos()

    def observe(self, agent: str) -> Observation:
        if not self._live:
            return super().observe(agent)
        c = self._core
        assert c is not None
        seat = self._seat_of[agent]
        obs, mask = c.fill(seat, self.n_actions)
        st = c.st
        if st[core.H_MAYDECL] and seat == st[core.H_CUR] and st[core.H_END] == core.END_NONE:
            mask[self._current_ids()] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        if not self._live:
            super().step(action)
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = -1 if action is None else int(action)
        c = self._core
        assert c is not None
        st = c.st
        if st[core.H_MAYDECL]:
            ok = index in self._current_ids()
        else:
            ok = 0 <= index < SECOND0 and bool(core.legal(st, index))
        if not ok:
            raise IllegalActionError(Reason.of("env.masked_action", index=index))
        self._cumulative_rewards[agent] = 0.0
        if index >= SECOND0:
            fast = self._fast
            assert fast is not None and isinstance(self._engine, IndianMatch)
            chosen = fast.action(self._engine, index)
            assert chosen is not None
            self._to_engine()
            self.play(chosen)
        else:
            self._core_play(index)
        self._accumulate_rewards()
        self._fill_infos()

    def play(self, action: Action) -> dict[str, float]:
        if self._live:
            index = self._id_of(action)
            if index is not None:
                self._core_play(index)
                return dict(self.rewards)
            self._to_engine()
        return super().play(action)

    def action_menu(self) -> ActionMenu:
        if not self._live:
            return super().action_menu()
        if self._menu is None:
            c = self._core
            assert c is not None
            seat = int(c.st[core.H_CUR])
            if c.st[core.H_END] != core.END_NONE:
                actions: dict[int, Action] = {}
            elif c.st[core.H_MAYDECL]:
                fast = self._fast
                assert fast is not None
                engine = self._synced()
                assert isinstance(engine, IndianMatch)
                actions = fast.menu(engine)
            else:
                actions = {i: self._action_of(seat, i) for i in c.ids()}
            self._menu = ActionMenu(seat, actions)
        return self._menu

    # -- the compiled steps ----------------------------------------------------------------------
    def _current_ids(self) -> list[int]:
        """The ids offered now when a declaration may be among them (the engine's fast path)."""
        if self._ids is None:
            fast = self._fast
            assert fast is not None
            engine = self._synced()
            assert isinstance(engine, IndianMatch)
            self._ids = fast.ids(engine)
        return self._ids

    def _action_of(self, seat: int, i: int) -> Action:
        if i == 0:
            return self._draw[seat]
        if i == 1:
            return self._take[seat]
        if i == 2:
            return self._drop[seat]
        throw = self._throw[seat][i - 4]
        assert throw is not None
        return throw

    def _id_of(self, action: Action) -> int | None:
        """The id of ``action`` when the compiled hand may apply it now, else None."""
        c = self._core
        assert c is not None
        st = c.st
        if action.at is not None or action.seat != st[core.H_CUR]:
            return None
        t = type(action)
        if t is Draw:
            index = 0
        elif t is TakeDiscard:
            index = 1
        elif t is Drop:
            index = 2
        elif t is Discard:
            assert isinstance(action, Discard)
            if self._throw[action.seat][action.card.index] != action:
                return None
            index = 4 + action.card.index
        else:
            return None
        return index if core.legal(st, index) else None

    def _core_play(self, index: int) -> None:
        c = self._core
        assert c is not None
        st = c.st
        seat = int(st[core.H_CUR])
        self._pending.append(self._action_of(seat, index))
        core.step(st, index)
        self._menu = None
        self._ids = None
        fast = self._fast
        if fast is not None:
            fast.forget()
        self.steps += 1
        if st[core.H_END] != core.END_NONE:
            self._hand_over()
            return
        self._pay_nothing()
        if self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[int(st[core.H_CUR])]

    def _pay_nothing(self) -> None:
        rewards = self.rewards
        for a in self.possible_agents:
            rewards[a] = 0.0

    def _hand_over(self) -> None:
        """The compiled hand ended (drops, or the stock): score it as the points match does."""
        c = self._core
        assert c is not None
        if c.value_cards:  # the 21-card value cards: the engine scores the hand
            self._to_engine()
            self._pay()
            self.terminations = dict.fromkeys(self.agents, True)
            return
        st = c.st
        n = self.players
        scores = [max(int(st[core.PEN0 + s]), 0) for s in range(n)]
        for s in range(n):
            st[core.TOT0 + s] += scores[s]
        winner = int(st[core.H_WINNER])
        if self.reward_mode == "win_loss" or self._scoreless:
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = 1.0 if i == winner else -1.0
        else:
            totals = tuple(int(st[core.TOT0 + s]) for s in range(n))
            if totals == self._totals:
                self._pay_nothing()
            else:
                self._pay_change(totals, self._points_of(totals))
        self.terminations = dict.fromkeys(self.agents, True)

    def _points_of(self, totals: tuple[int, ...]) -> list[float]:
        """``RummyEnv._points_now`` of these totals."""
        floats = [float(t) for t in totals]
        return floats if self._higher_is_better else [-t for t in floats]
