"""The PettingZoo AEC environment of every game (``openrummy.envs.rummikub_v0.env()``, …).

One class plays every preset: the seat to move picks a discrete action id from its menu
(:mod:`openrummy.envs._spaces`), masked by ``observation["action_mask"]``; the engine applies
it; every seat's reward is the change in its score difference (or win/loss at the end).
An id outside the mask raises :class:`~openrummy.errors.IllegalActionError` and changes
nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from openrummy.bots.base import Bot
from openrummy.errors import ConfigError, IllegalActionError
from openrummy.games.actions import Action, ActionKind, Draw, EndTurn, Pass
from openrummy.games.families import Match, new_match
from openrummy.games.indian import IndianMatch
from openrummy.games.manipulation import ManipulationGame, PlayRejected
from openrummy.games.views import View
from openrummy.messages import Reason
from openrummy.rules import IndianRules, Rules, ScoringMode, find_preset
from openrummy.rules.common import MatchFormat

from ._indian import IndianFastPath
from ._spaces import (
    ActionMenu,
    Floats,
    Mask,
    action_size,
    encode,
    encode_round,
    full_counts,
    layout,
    menu,
)

__all__ = ["REWARDS", "UNITS", "RummyEnv", "make_rules"]

UNITS: Final = ("round", "match")
"""What one episode plays: one round (hand) of the game, or the preset's whole match."""
REWARDS: Final = ("score", "win_loss")
"""``score``: the change of the seat's score difference; ``win_loss``: +1 win, −1 loss."""

Observation = dict[str, Floats | Mask]


def make_rules(
    preset: str, options: Mapping[str, object] | None, unit: str, family: str | None
) -> Rules:
    """The rules an environment plays; :class:`ConfigError` for a wrong preset, option or unit."""
    if unit not in UNITS:
        raise ConfigError(f"unit {unit!r}: use one of {', '.join(UNITS)}")
    rules = find_preset(preset, options)
    if family is not None and rules.family != family:
        raise ConfigError(
            f"preset {preset!r} is a {rules.family} game; this environment plays {family} games"
        )
    if unit == "round" and "match.format" not in (options or {}):
        single = MatchFormat.SINGLE_ROUND if rules.family == "manipulation" else MatchFormat.POINTS
        rules = find_preset(preset, {**(options or {}), "match.format": single.value})
    return rules


def _is_indian(preset: object) -> bool:
    try:
        return isinstance(preset, str) and find_preset(preset).family == "indian"
    except ConfigError:  # the constructor says what is wrong
        return False


class RummyEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment of one preset (see docs/envs.md).

    ``players`` seats ``player_0`` … play ``unit`` (``"round"`` or ``"match"``) of ``preset``
    with rule ``options``. ``plays``: how many macro plays a manipulation menu offers.
    ``reward``: ``"score"`` or ``"win_loss"``. ``max_steps``: a cap on the actions of an
    episode; reaching it truncates the episode and pays nothing. ``solver_play=False``
    leaves the solver's best play out of the macro menu (only the small plays: faster).
    """

    metadata: dict[str, object] = {  # noqa: RUF012 - PettingZoo reads it as a class attribute
        "name": "openrummy_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __new__(cls, preset: str = "rummikub", *args: object, **kw: object) -> RummyEnv:
        """An Indian preset's environment is the compiled one of
        :mod:`openrummy.envs._indian_env` (the same API and the same episodes)."""
        if cls is RummyEnv and _is_indian(preset):
            from ._indian_env import IndianEnv

            cls = IndianEnv
        env: RummyEnv = super().__new__(cls)
        return env

    def __init__(
        self,
        preset: str = "rummikub",
        options: Mapping[str, object] | None = None,
        *,
        players: int = 2,
        unit: str = "round",
        reward: str = "score",
        plays: int = 8,
        max_steps: int = 5000,
        render_mode: str | None = None,
        family: str | None = None,
        name: str | None = None,
        solver_play: bool = True,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ConfigError(f"reward {reward!r}: use one of {', '.join(REWARDS)}")
        if plays < 1 or max_steps < 1:
            raise ConfigError("plays and max_steps must be at least 1")
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode {render_mode!r}: use 'ansi' or None")
        self.rules = make_rules(preset, options, unit, family)
        self.rules.check_players(players)
        self.metadata = {**type(self).metadata, "name": name or f"{preset}_v0"}
        self.players = players
        self.unit = unit
        self.reward_mode = reward
        self.plays = plays
        self.solver_play = solver_play
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.layout = layout(self.rules, players)
        self._deck = full_counts(self.rules)
        self.n_actions = action_size(self.rules, plays)
        low, high = self.layout.bounds()
        self.possible_agents: list[str] = [f"player_{i}" for i in range(players)]
        self.observation_spaces: dict[str, gymnasium.spaces.Dict] = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (self.n_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces: dict[str, gymnasium.spaces.Discrete] = {
            a: gymnasium.spaces.Discrete(self.n_actions) for a in self.possible_agents
        }
        self._higher_is_better = (
            getattr(self.rules.scoring, "mode", None) is ScoringMode.ZERO_SUM_HIGH
        )
        self._scoreless = getattr(self.rules.scoring, "mode", None) is ScoringMode.NONE
        self._seeds = np.random.default_rng()
        self.match: Match = new_match(self.rules, players, seed=0)
        self._menu: ActionMenu | None = None
        self._totals: tuple[int, ...] = ()
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self._seats = tuple(range(players))
        self._slices = self.layout.slices()
        self._fast = (
            IndianFastPath(self.rules, players, self.layout)
            if isinstance(self.rules, IndianRules)
            else None
        )
        self.steps = 0

    # -- PettingZoo API ---------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        """Deal a new episode; ``seed`` makes it (and every later reset's deal) reproducible.

        ``options`` is accepted for the PettingZoo API and ignored: rule options are given at
        construction.
        """
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(self._seeds.integers(0, 2**63 - 1))
        self.match = new_match(self.rules, self.players, seed=game_seed)
        self._menu = None
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self._points = self._points_now()
        self._totals = tuple(getattr(self.match, "totals", ()))
        self.agent_selection = self._agent(self.match.current)
        self._fill_infos()

    def observe(self, agent: str) -> Observation:
        seat = self._seat_of[agent]
        match = self.match
        fast = self._indian()
        if fast is not None:
            assert isinstance(match, IndianMatch)
            obs = fast.observe(match, seat)
            mask = np.zeros(self.n_actions, np.int8)
            if match.outcome is None and seat == match.current:
                mask[fast.ids(match)] = 1
            return {"observation": obs, "action_mask": mask}
        game = match.game
        if isinstance(game, ManipulationGame) and match.seats == self._seats:
            totals = match.totals
            obs = encode_round(game, seat, totals, self.layout, self._deck, self._slices)
        else:
            obs = encode(match.view(seat), self.layout, self._deck)
        if not match.is_over and seat == match.current:
            mask = self.action_menu().mask(self.n_actions)
        else:
            mask = np.zeros(self.n_actions, np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = -1 if action is None else int(action)
        fast = self._indian()
        if fast is not None:
            assert isinstance(self.match, IndianMatch)
            chosen = fast.action(self.match, index)
        else:
            chosen = self.action_menu().actions.get(index)
        if chosen is None:
            raise IllegalActionError(Reason.of("env.masked_action", index=index))
        self._cumulative_rewards[agent] = 0.0
        self.play(chosen)
        self._accumulate_rewards()
        self._fill_infos()

    def play(self, action: Action) -> dict[str, float]:
        """Apply any engine action of the seat to move (not only the menu's: a bot's play, a
        parsed text) and return this step's rewards; an illegal one raises and changes
        nothing. Ends or truncates the episode as :meth:`step` does."""
        self.match.apply(action)
        self._menu = None
        if self._fast is not None:
            self._fast.forget()
        self.steps += 1
        self._pay()
        if self.match.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
            self.rewards = dict.fromkeys(self.agents, 0.0)
        else:
            self.agent_selection = self._agent(self.match.current)
        return dict(self.rewards)

    def play_bot(self, bot: Bot) -> dict[str, float]:
        """Let ``bot`` move for the seat to move, from that seat's view; a play the engine
        refuses (``fail.mode = REJECT``) becomes a draw, pass or end, as in the tournaments."""
        seat = self.match.current
        try:
            return self.play(bot.choose(self.match.view(seat)))
        except PlayRejected:
            legal = self.match.legal_kinds()
            if ActionKind.DRAW in legal:
                return self.play(Draw(seat))
            return self.play(Pass(seat) if ActionKind.PASS in legal else EndTurn(seat))

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from openrummy.position import Position

        seat = self.match.current
        return str(Position.from_view(self.match.view(seat)))

    def close(self) -> None:
        pass

    # -- helpers ----------------------------------------------------------------------------
    def action_menu(self) -> ActionMenu:
        """The seat to move's actions by id (cached until the next step)."""
        if self._menu is None:
            fast = self._indian()
            if fast is not None:
                assert isinstance(self.match, IndianMatch)
                self._menu = ActionMenu(self.match.current, fast.menu(self.match))
            else:
                self._menu = menu(self.match, self.plays, solver=self.solver_play)
        return self._menu

    def _indian(self) -> IndianFastPath | None:
        """The Indian fast path, while it applies (every seat plays the round)."""
        fast = self._fast
        if fast is None or len(self.match.seats) != self.players:
            return None
        return fast

    def view(self, agent: str) -> View:
        """The typed view of ``agent``'s seat (what that seat may see)."""
        return self.match.view(self.possible_agents.index(agent))

    def _agent(self, seat: int) -> str:
        return self.possible_agents[seat]

    def _fill_infos(self) -> None:
        for a in self.agents:
            self.infos[a] = {"seat": self._seat_of[a], "steps": self.steps}

    def _points_now(self) -> list[float]:
        totals = [float(t) for t in getattr(self.match, "totals", [0] * self.players)]
        return totals if self._higher_is_better else [-t for t in totals]

    def _pay(self) -> None:
        """Set this step's rewards: the change of each seat's score difference, or win/loss."""
        if self.reward_mode == "win_loss" or self._scoreless:
            outcome = self.match.outcome
            winners = outcome.winners if outcome is not None else ()
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = (1.0 if i in winners else -1.0) if self.match.is_over else 0.0
            return
        totals = tuple(getattr(self.match, "totals", ()))
        if totals == self._totals:  # no score changed: every difference is unchanged
            for a in self.possible_agents:
                self.rewards[a] = 0.0
            return
        self._pay_change(totals, self._points_now())

    def _pay_change(self, totals: tuple[int, ...], now: list[float]) -> None:
        """Pay each seat the change of its points (``now``, from the match's ``totals``)
        less the mean of the others' since the last payment."""
        n = self.players
        before = self._points
        self._totals = totals
        self._points = now
        for i, a in enumerate(self.possible_agents):
            diff_now = now[i] - (sum(now) - now[i]) / (n - 1)
            diff_before = before[i] - (sum(before) - before[i]) / (n - 1)
            self.rewards[a] = diff_now - diff_before
