"""Many manipulation games with primitive actions stepped at once: a Gymnasium vector env.

:class:`RummikubPrimitiveVectorEnv` plays ``num_envs`` games of a manipulation preset
(Rummikub by default) with the action space, mask, observation and rules of
:class:`~openrummy.envs.primitive.PrimitiveRummyEnv`. The workbenches of all games live in
NumPy arrays and a workbench step (PLACE, PICK, ASSIGN, RESET), with its mask and
observation update, runs in numba over the whole batch (:mod:`._vector_core`; with
``threads=k``, k ranges of games on k threads). The engine's actions (DRAW, PASS, COMMIT, END, TAKE, DISCARD; about one
step in forty with a random policy) go to each game's own engine, which also deals, judges
every commit the mask offers and scores.

Self-play: every seat of every game is played by the caller's batch of agents. Row ``i`` of
the observation is the observation of the seat to move in game ``i`` (``infos["seat"]``),
and ``rewards[i]`` is the reward of the seat that acted in this step (every seat's in
:attr:`RummikubPrimitiveVectorEnv.seat_rewards`). Autoreset is Gymnasium's ``NEXT_STEP``:
after a step that ends game ``i``, the next :meth:`step` ignores ``actions[i]`` and deals a
new game there (reward 0, not terminated). See docs/envs.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from openrummy.cards import Card
from openrummy.errors import ConfigError, IllegalActionError
from openrummy.games.actions import (
    Action,
    ActionKind,
    Discard,
    Draw,
    EndTurn,
    Pass,
    Play,
    TakeDiscard,
)
from openrummy.games.families import Match, new_match
from openrummy.games.manipulation import ManipulationGame, Phase
from openrummy.melds import AceMode, Meld
from openrummy.messages import Reason
from openrummy.rules import ScoringMode
from openrummy.rules.manipulation import ManipulationRules

from . import _vector_core as core
from ._spaces import encode
from .primitive import (
    COMMIT,
    DISCARD0,
    DRAW,
    END,
    PASS,
    RESET,
    TAKE,
    PrimitiveRummyEnv,
    find_commit,
)

__all__ = ["RummikubPrimitiveVectorEnv"]

_K: Final = core.K
_PHASES: Final = (Phase.START, Phase.PLAYED, Phase.DREW, Phase.DISCARD)

VectorObs = dict[str, npt.NDArray[Any]]


class RummikubPrimitiveVectorEnv(VectorEnv[VectorObs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of ``preset`` with primitive actions (module docstring).

    ``preset``, ``options``, ``players``, ``reward``, ``turn_cap``, ``slots`` and
    ``max_steps`` are :class:`~openrummy.envs.primitive.PrimitiveRummyEnv`'s. ``copy``:
    return copies of the observation arrays (``False``: the env's own arrays, overwritten by
    the next step). ``threads``: threads that step the workbenches (each a range of the
    games; the compiled kernels release the GIL).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's API
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 256,
        preset: str = "rummikub",
        options: Mapping[str, object] | None = None,
        *,
        players: int = 2,
        reward: str = "score",
        turn_cap: int | None = None,
        slots: int | None = None,
        max_steps: int = 200_000,
        copy: bool = True,
        threads: int = 1,
    ) -> None:
        if num_envs < 1:
            raise ConfigError("num_envs must be at least 1")
        proto = PrimitiveRummyEnv(
            preset,
            options,
            players=players,
            reward=reward,
            turn_cap=turn_cap,
            slots=slots,
            max_steps=max_steps,
            family="manipulation",
        )
        rules = proto.rules
        assert isinstance(rules, ManipulationRules)
        mr = rules.meld_rules
        if mr.ace_mode is not AceMode.LOW_ONLY or mr.ace_both_ends or mr.set_max > 4:
            raise ConfigError(
                "the vector env plays melds with the ace low only and sets of at most four"
            )
        if threads < 1:
            raise ConfigError("threads must be at least 1")
        self.threads = min(threads, num_envs)
        bounds = np.linspace(0, num_envs, self.threads + 1).astype(int)
        self._chunks = [(int(lo), int(hi)) for lo, hi in itertools.pairwise(bounds)]
        self._pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None
        self._proto = proto
        self.rules = rules
        self.num_envs = num_envs
        self.players = players
        self.reward_mode = reward
        self.max_steps = max_steps
        self.copy = copy
        self.layout = proto.prim
        self.obs_layout = proto.layout
        self.book = proto.bench.book
        self.slots = proto.bench.slots
        self.cap = proto.bench.cap
        self.n_actions = proto.n_actions
        self.single_observation_space = proto.observation_spaces["player_0"]
        self.single_action_space = proto.action_spaces["player_0"]
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._deck = proto._deck
        self._base_size = proto.layout.size
        self._at = {name: sl.start for name, sl in proto.layout.slices().items()}
        self._higher = getattr(rules.scoring, "mode", None) is ScoringMode.ZERO_SUM_HIGH
        self._scoreless = getattr(rules.scoring, "mode", None) is ScoringMode.NONE
        n, s = num_envs, self.slots
        p = self.layout
        self.cfg = np.array(
            [
                s,
                self.cap,
                max(3, mr.min_len),
                self.book.max_len,
                mr.set_max,
                mr.min_naturals,
                int(rules.play.require_hand_card),
                p.place0,
                p.pick0,
                p.assign0,
                self._base_size,
            ],
            np.int32,
        )
        self.cnt = np.zeros((n, s, _K), np.int8)
        self.pool = np.zeros((n, _K), np.int16)
        self.before = np.zeros((n, _K), np.int16)
        self.now = np.zeros((n, _K), np.int16)
        self.slot = np.zeros((n, s, core.NS), np.int16)
        self.aok = np.zeros((n, s, core.C), np.int8)
        self.sc = np.zeros((n, core.NF), np.int32)
        self.s_cnt = np.zeros_like(self.cnt)
        self.s_pool = np.zeros_like(self.pool)
        self.s_slot = np.zeros_like(self.slot)
        size = self.single_observation_space["observation"].shape
        assert size is not None
        self.obs = np.zeros((n, size[0]), np.float32)
        self.mask = np.zeros((n, self.n_actions), np.int8)
        self.seat_rewards = np.zeros((n, players), np.float64)
        """Every seat's reward in the last step (row: game, column: seat)."""
        self.seat = np.zeros(n, np.int64)
        """The seat whose observation row ``i`` is (the seat to move)."""
        self.steps = np.zeros(n, np.int64)
        """Steps (workbench and engine actions) of each game's episode."""
        self.matches: list[Match] = [new_match(rules, players, seed=0) for _ in range(n)]
        self._rngs = [np.random.default_rng() for _ in range(n)]
        self._points: list[list[float]] = [[0.0] * players for _ in range(n)]
        self._fixed: list[dict[int, Meld]] = [{} for _ in range(n)]
        self._plays: list[Play | None] = [None] * n
        self._melds: dict[Meld, tuple[npt.NDArray[np.int8], int | None]] = {}
        """Each table meld's card counts and interpretation code (``None``: none of ours)."""
        self._done = np.zeros(n, bool)
        self._all = np.arange(n)

    # -- Gymnasium API ----------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[VectorObs, dict[str, Any]]:
        """Deal a new game everywhere. ``seed``: an int (game ``i`` gets ``seed + i``) or one
        seed per game; a game's seed seeds its generator as ``PrimitiveRummyEnv.reset(seed)``
        does, so game ``i`` deals what that env deals. ``options`` is ignored."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ConfigError(f"{len(seeds)} seeds for {self.num_envs} games")
        for i, sd in enumerate(seeds):
            if sd is not None:
                self._rngs[i] = np.random.default_rng(sd)
            self._deal(i)
        self._load(self._all)
        self._done[:] = False
        self.seat_rewards[:] = 0.0
        return self._out(), {"seat": self.seat.copy()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        VectorObs,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One action in every game (ignored in a game that ended in the last step: it is
        dealt again). An action outside a game's mask raises
        :class:`~openrummy.errors.IllegalActionError` and changes nothing."""
        a = np.asarray(actions, dtype=np.int64).reshape(-1)
        if a.shape[0] != self.num_envs:
            raise ConfigError(f"{a.shape[0]} actions for {self.num_envs} games")
        done = self._done
        live = ~done
        inside = (a >= 0) & (a < self.n_actions)
        ok = inside.copy()
        ok[inside] = self.mask[self._all[inside], a[inside]] != 0
        bad = np.flatnonzero(live & ~ok)
        if bad.size:
            i = int(bad[0])
            raise IllegalActionError(Reason.of("env.masked_action_in", game=i, index=int(a[i])))
        self.seat_rewards[:] = 0.0
        acting = self.seat.copy()
        terminated = np.zeros(self.num_envs, bool)
        truncated = np.zeros(self.num_envs, bool)
        work = live & ((a == RESET) | (a >= self.layout.place0))
        self._each(self._step_range, a, work)
        self.steps[work] += 1
        over = work & (self.steps >= self.max_steps)
        truncated |= over
        # the engine's commit checks for workbenches that pass the cheap ones
        for i in np.flatnonzero(work & (self.sc[:, core.F_CHECK] != 0)).tolist():
            self._check(i)
        reload: list[int] = []
        for j in np.flatnonzero(live & ~work).tolist():
            ended = self._engine(j, int(a[j]))
            if ended:
                # over (1) or truncated (2): the acting seat's observation, an empty mask
                self._finish(j)
                terminated[j] = ended == 1
                truncated[j] = ended == 2
            else:
                reload.append(j)
        for j in np.flatnonzero(done).tolist():
            self._deal(j)
            reload.append(j)
        if reload:
            self._load(np.asarray(reload, np.int64))
        self._done = terminated | truncated
        rewards = self.seat_rewards[self._all, acting]
        return self._out(), rewards, terminated, truncated, {"seat": self.seat.copy()}

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniform random action from each game's mask (0 where the mask is all zero),
        drawn with one uniform number per game from ``rng``."""
        out = np.empty(self.num_envs, np.int64)
        u = rng.random(self.num_envs)
        self._each(lambda lo, hi: core.sample_masked(lo, hi, self.mask, u, out))
        return out

    def _each(self, fn: Callable[..., None], *args: object) -> None:
        """``fn(lo, hi, *args)`` for each range of games, on the threads."""
        if self._pool is None:
            fn(0, self.num_envs, *args)
            return
        for f in [self._pool.submit(fn, lo, hi, *args) for lo, hi in self._chunks]:
            f.result()

    def _step_range(
        self, lo: int, hi: int, a: npt.NDArray[np.int64], work: npt.NDArray[np.bool_]
    ) -> None:
        core.step_work(lo, hi, a, work, *self._arrays())

    def close_extras(self, **kwargs: Any) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    # -- engine side ------------------------------------------------------------------------
    def _out(self) -> VectorObs:
        if self.copy:
            return {"observation": self.obs.copy(), "action_mask": self.mask.copy()}
        return {"observation": self.obs, "action_mask": self.mask}

    def _deal(self, i: int) -> None:
        game_seed = int(self._rngs[i].integers(0, 2**63 - 1))
        self.matches[i] = new_match(self.rules, self.players, seed=game_seed)
        self.steps[i] = 0
        self._points[i] = self._points_now(i)

    def _points_now(self, i: int) -> list[float]:
        m = self.matches[i]
        totals = [float(t) for t in getattr(m, "totals", [0] * self.players)]
        return totals if self._higher else [-t for t in totals]

    def _pay(self, i: int) -> None:
        match = self.matches[i]
        n = self.players
        row = self.seat_rewards[i]
        if self.reward_mode == "win_loss" or self._scoreless:
            outcome = match.outcome
            winners = outcome.winners if outcome is not None else ()
            for s in range(n):
                row[s] = (1.0 if s in winners else -1.0) if match.is_over else 0.0
            return
        now = self._points_now(i)
        before = self._points[i]
        self._points[i] = now
        for s in range(n):
            diff_now = now[s] - (sum(now) - now[s]) / (n - 1)
            diff_before = before[s] - (sum(before) - before[s]) / (n - 1)
            row[s] = diff_now - diff_before

    def _engine(self, i: int, a: int) -> int:
        """Apply engine action ``a`` in game ``i``: 1 when the game is over, 2 when it is
        truncated, else 0."""
        match = self.matches[i]
        seat = match.current
        action: Action
        if a == DRAW:
            action = Draw(seat)
        elif a == PASS:
            action = Pass(seat)
        elif a == END:
            action = EndTurn(seat)
        elif a == TAKE:
            action = TakeDiscard(seat)
        elif a == COMMIT:
            play = self._plays[i]
            assert play is not None
            action = Play(seat, play.table, play.retrievals)
        else:
            card = self.book.kinds[a - DISCARD0]
            assert card is not None
            action = Discard(seat, card)
        match.apply(action)
        self.steps[i] += 1
        self._pay(i)
        if match.is_over:
            return 1
        if self.steps[i] >= self.max_steps:
            self.seat_rewards[i] = 0.0
            return 2
        return 0

    def _finish(self, i: int) -> None:
        """Game ``i`` ended: the last mover's observation, no workbench, an empty mask."""
        seat = int(self.seat[i])
        self.obs[i, : self._base_size] = encode(
            self.matches[i].view(seat), self.obs_layout, self._deck
        )
        self.obs[i, self._base_size :] = 0.0
        self.mask[i] = 0

    def _load(self, games: npt.NDArray[np.int64]) -> None:
        """Load the turn of the seat to move into the workbench of each game in ``games``."""
        sc = self.sc
        for i in games:
            match = self.matches[i]
            game = match.game
            assert isinstance(game, ManipulationGame)
            kinds = game.legal_kinds()
            seat = game.current
            self.seat[i] = match.current
            self._plays[i] = None
            self._encode(i, match, game)
            frozen = not game.opened[seat] and not game.rules.opening.allow_table_play_same_turn
            self._write_start(i, game.table, game.hands[seat], frozen)
            sc[i, core.F_PLAYING] = ActionKind.PLAY in kinds
            sc[i, core.F_DRAW] = ActionKind.DRAW in kinds
            sc[i, core.F_PASS] = ActionKind.PASS in kinds
            sc[i, core.F_END] = ActionKind.END in kinds
            sc[i, core.F_TAKE] = ActionKind.TAKE in kinds
            sc[i, core.F_DISCARD] = ActionKind.DISCARD in kinds
        core.load_turns(games, *self._arrays())

    def _arrays(self) -> tuple[Any, ...]:
        """The games' state arrays in the order the compiled kernels take them."""
        return (
            self.cnt,
            self.pool,
            self.before,
            self.now,
            self.slot,
            self.aok,
            self.sc,
            self.mask,
            self.obs,
            self.cfg,
            self.s_cnt,
            self.s_pool,
            self.s_slot,
        )

    def _encode(self, i: int, match: Match, game: ManipulationGame) -> None:
        """The base observation of the seat to move in game ``i``: what ``encode`` computes
        from its view, read from the game directly (the view is built only when some seats
        sit the round out)."""
        seat = match.current
        seats = getattr(match, "seats", None)
        if seats is None or len(seats) != self.players:
            view = match.view(seat)
            self.obs[i, : self._base_size] = encode(view, self.obs_layout, self._deck)
            return
        at = self._at
        n = self.players
        local = game.current
        out = self.obs[i, : self._base_size]
        out[:] = 0.0
        hand = np.bincount([c.index for c in game.hands[local]], minlength=_K)
        table = np.bincount([c.index for m in game.table for c in m.cards], minlength=_K)
        out[at["hand"] : at["hand"] + _K] = hand
        out[at["table"] : at["table"] + _K] = table
        seen = (hand + table).astype(np.float32)
        if game.discard_pile:
            top = game.discard_pile[-1].index
            out[at["discard"] + top] = 1.0
            out[at["discard_top"] + top] = 1.0
            seen[top] += 1.0
        out[at["unseen"] : at["unseen"] + _K] = np.maximum(self._deck - seen, 0.0)
        rel = [(seat + k) % n for k in range(n)]
        sizes = [len(h) for h in game.hands]
        out[at["hand_sizes"] : at["hand_sizes"] + n] = [sizes[s] for s in rel]
        out[at["opened"] : at["opened"] + n] = [bool(game.opened[s]) for s in rel]
        out[at["stock"]] = game.stock_size
        if game.outcome is None:
            out[at["to_move"] + (game.current - seat) % n] = 1.0
        if game.phase in _PHASES:
            out[at["phase"] + _PHASES.index(game.phase)] = 1.0
        totals = getattr(match, "totals", None)
        if totals is not None:
            out[at["standings"] : at["standings"] + n] = [totals[s] for s in rel]

    def _write_start(
        self, i: int, table: Sequence[Meld], hand: Sequence[Card], frozen: bool
    ) -> None:
        if len(table) > self.slots:
            raise ConfigError(
                f"the table holds {len(table)} melds; the workbench has {self.slots} slots"
            )
        cnt = self.s_cnt[i]
        slot = self.s_slot[i]
        pool = self.s_pool[i]
        cnt[:] = 0
        slot[:] = 0
        slot[:, core.S_CHOSEN] = -1
        pool[:] = np.bincount([c.index for c in hand], minlength=_K)
        fixed: dict[int, Meld] = {}
        for s, meld in enumerate(table):
            known = self._melds.get(meld)
            if known is None:
                if len(self._melds) > 100_000:
                    self._melds.clear()
                row = np.bincount([c.index for c in meld.cards], minlength=_K).astype(np.int8)
                known = self._melds[meld] = (row, self.book.code_of(meld))
            row, code = known
            cnt[s] = row
            slot[s, core.S_SIZE] = len(meld.cards)
            if code is None:
                fixed[s] = meld.normalized(self.book.mr)
                slot[s, core.S_FIXED] = 1
            else:
                slot[s, core.S_CHOSEN] = code
            slot[s, core.S_FROZEN] = frozen
        self._fixed[i] = fixed

    def table(self, i: int) -> tuple[Meld, ...] | None:
        """Game ``i``'s workbench as a table (``None`` while a slot is not a valid meld)."""
        out: list[Meld] = []
        fixed = self._fixed[i]
        for s in range(self.slots):
            if not self.slot[i, s, core.S_SIZE]:
                continue
            if not self.slot[i, s, core.S_VALID]:
                return None
            if self.slot[i, s, core.S_FIXED]:
                out.append(fixed[s])
                continue
            key = tuple(int(k) for k in np.repeat(np.arange(_K), self.cnt[i, s]))
            code = int(self.slot[i, s, core.S_CODE])
            meld = next((m for c, m in self.book.interpretations(key) if c == code), None)
            if meld is None:
                return None
            out.append(meld)
        return tuple(out)

    def table_of(self, i: int) -> tuple[Meld, ...]:
        """Game ``i``'s table in the engine (the melds of the commits so far)."""
        game = self.matches[i].game
        assert isinstance(game, ManipulationGame)
        return game.table

    def commit_play(self, i: int) -> Play | None:
        """The play COMMIT submits now in game ``i`` (``None``: COMMIT is not in its mask)."""
        return self._plays[i] if self.mask[i, COMMIT] else None

    def _check(self, i: int) -> None:
        """The engine's commit check for game ``i`` (its cheap conditions hold)."""
        table = self.table(i)
        play = None
        if table is not None:
            game = self.matches[i].game
            assert isinstance(game, ManipulationGame)
            play = find_commit(game, self.rules, table, self.before[i], self.now[i])
        self._plays[i] = play
        self.mask[i, COMMIT] = play is not None
        if play is None:
            self.sc[i, core.F_CHECK] = 0
