"""The games as OpenSpiel Python games (the ``openspiel`` extra: ``pip install open_spiel``).

:func:`register` registers ``openrummy_rummikub``, ``openrummy_robbers``,
``openrummy_indian13``, ``openrummy_indian10`` and ``openrummy_indian21`` (two players, one
round, the presets' rules) with the actions, observations and rewards of the PettingZoo
environments (docs/envs.md)::

    import pyspiel
    from openrummy.envs.openspiel import register
    register()
    game = pyspiel.load_game("openrummy_indian13")

Chance is *sampled*: each initial state deals from its own seed (the game's counter), so
OpenSpiel sees no chance nodes. The observation tensor is the seat's observation vector;
returns are the score differences at the end of the round.
"""

from __future__ import annotations

import itertools
from typing import Any, Final

import numpy as np

from openrummy.extras import require
from openrummy.position import Position

from .aec import RummyEnv

require("openspiel", "openrummy.envs.openspiel")
import pyspiel  # noqa: E402

__all__ = ["GAMES", "register"]

GAMES: Final = ("rummikub", "robbers", "indian13", "indian10", "indian21")
"""The presets registered, as ``openrummy_<preset>``."""

_MAX_STEPS: Final = 3000
_BOUND: Final = 2000.0


def _game_type(preset: str) -> Any:
    return pyspiel.GameType(
        short_name=f"openrummy_{preset}",
        long_name=f"OpenRummy {preset}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )


class RummyGame(pyspiel.Game):  # type: ignore[misc]
    """One preset as an OpenSpiel game (two players, one round)."""

    def __init__(self, preset: str, params: dict[str, Any] | None = None) -> None:
        self.preset = preset
        probe = RummyEnv(preset, max_steps=_MAX_STEPS)
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.n_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-_BOUND,
            max_utility=_BOUND,
            utility_sum=0.0,
            max_game_length=_MAX_STEPS,
        )
        super().__init__(_game_type(preset), info, params or {})
        self._seeds = itertools.count()
        self.observation_size = probe.layout.size

    def new_initial_state(self) -> RummyState:
        return RummyState(self, next(self._seeds))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> RummyObserver:
        return RummyObserver(self.observation_size)


class RummyState(pyspiel.State):  # type: ignore[misc]
    """A dealt round; the seat to move chooses an action id of its menu."""

    def __init__(self, game: RummyGame, seed: int) -> None:
        super().__init__(game)
        self.env = RummyEnv(game.preset, max_steps=_MAX_STEPS)
        self.env.reset(seed=seed)
        self._returns = [0.0, 0.0]

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.env.match.current

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.env.match.current:
            return []
        return sorted(self.env.action_menu().actions)

    def _apply_action(self, action: int) -> None:
        chosen = self.env.action_menu().actions[action]
        rewards = self.env.play(chosen)
        for seat, agent in enumerate(self.env.possible_agents):
            self._returns[seat] += rewards[agent]

    def _action_to_string(self, player: int, action: int) -> str:
        if not self.is_terminal() and player == self.env.match.current:
            chosen = self.env.action_menu().actions.get(action)
            if chosen is not None:
                return str(chosen)
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self.env.match.is_over or self.env.steps >= self.env.max_steps

    def returns(self) -> list[float]:
        return list(self._returns)

    def __str__(self) -> str:
        if self.env.match.is_over:
            return f"over after {self.env.steps} actions"
        return str(Position.from_game(self.env.match, self.env.match.current))


class RummyObserver:
    """The seat's observation vector (docs/envs.md) as OpenSpiel's observation tensor."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RummyState, player: int) -> None:
        obs = state.env.observe(state.env.possible_agents[player])["observation"]
        self.tensor[:] = obs

    def string_from(self, state: RummyState, player: int) -> str:
        if state.env.match.is_over:
            return f"over, seat {player}"
        return str(Position.from_game(state.env.match, player))


def register() -> None:
    """Register every game of :data:`GAMES` with OpenSpiel (again: nothing happens)."""
    known = set(pyspiel.registered_names())
    for preset in GAMES:
        name = f"openrummy_{preset}"
        if name in known:
            continue
        pyspiel.register_game(_game_type(preset), _GAME_CLASSES[preset])


def _game_class(preset: str) -> type[RummyGame]:
    def __init__(self: RummyGame, params: dict[str, Any] | None = None) -> None:
        RummyGame.__init__(self, preset, params)

    return type(f"RummyGame_{preset}", (RummyGame,), {"__init__": __init__})


_GAME_CLASSES: Final = {preset: _game_class(preset) for preset in GAMES}
