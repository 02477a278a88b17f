"""A Gymnasium single-agent environment: one seat learns, our bots play the others.

    >>> from openrummy.envs.single import SingleAgentEnv
    >>> env = SingleAgentEnv("indian13", opponents="simple")
    >>> obs, info = env.reset(seed=3)
    >>> sorted(obs), obs["action_mask"].any()
    (['action_mask', 'observation'], np.True_)

The observation and action spaces are those of the AEC environment (docs/envs.md);
``action_masks()`` gives the mask as booleans (sb3-contrib's MaskablePPO reads it).
An id outside the mask raises :class:`~openrummy.errors.IllegalActionError` and changes
nothing, or with ``invalid_action="penalty"`` ends the episode (``terminated``) with reward
``penalty``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt

from openrummy.bots.base import Bot
from openrummy.bots.registry import make_bot
from openrummy.errors import ConfigError, IllegalActionError
from openrummy.messages import Reason

from ._spaces import Floats, Mask
from .aec import RummyEnv
from .primitive import ACTION_MODES, PrimitiveRummyEnv

__all__ = ["INVALID_ACTION", "SingleAgentEnv"]

INVALID_ACTION: Final = ("raise", "penalty")


class SingleAgentEnv(gymnasium.Env[dict[str, Floats | Mask], np.int64]):
    """Seat ``seat`` of ``preset`` (``None``: a seat drawn at each reset) against bots.

    ``opponents``: one bot name for every other seat, or one name per other seat
    (``bots/registry.py``: ``random``, ``simple``, ``greedy``, ``expert`` …). The other
    keywords are :class:`~openrummy.envs.aec.RummyEnv`'s; ``action_mode="primitive"`` plays a
    manipulation game with primitive actions (:mod:`openrummy.envs.primitive`).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's API

    def __init__(
        self,
        preset: str = "indian13",
        options: Mapping[str, object] | None = None,
        *,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        players: int = 2,
        unit: str = "round",
        reward: str = "score",
        plays: int = 8,
        max_steps: int | None = None,
        invalid_action: str = "raise",
        penalty: float = -1.0,
        render_mode: str | None = None,
        action_mode: str = "macro",
        solver_play: bool = True,
    ) -> None:
        if invalid_action not in INVALID_ACTION:
            raise ConfigError(f"invalid_action {invalid_action!r}: use 'raise' or 'penalty'")
        common: dict[str, Any] = {
            "players": players,
            "unit": unit,
            "reward": reward,
            "plays": plays,
            "render_mode": render_mode,
        }
        if max_steps is not None:
            common["max_steps"] = max_steps
        if action_mode not in ACTION_MODES:
            raise ConfigError(f"action_mode {action_mode!r}: use one of {', '.join(ACTION_MODES)}")
        self.aec: RummyEnv
        if action_mode == "primitive":
            self.aec = PrimitiveRummyEnv(preset, options, **common)
        else:
            self.aec = RummyEnv(preset, options, solver_play=solver_play, **common)
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ConfigError(f"{players} players need {players - 1} opponents, not {len(names)}")
        if seat is not None and not 0 <= seat < players:
            raise ConfigError(f"seat {seat} is not a seat of a {players}-player game")
        for name in names:
            try:
                make_bot(name, self.aec.rules, 0)
            except ValueError as e:
                raise ConfigError(str(e)) from None
        self.opponent_names = tuple(names)
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.invalid_action = invalid_action
        self.penalty = penalty
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space("player_0")  # type: ignore[assignment]
        self.action_space = self.aec.action_space("player_0")
        self._bots: dict[int, Bot] = {}
        self.engine_steps = 0
        """Actions applied by every seat since this env was made (all episodes)."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Floats | Mask], dict[str, Any]]:
        super().reset(seed=seed)
        for _ in range(1000):
            self.aec.reset(seed=int(self.np_random.integers(0, 2**63 - 1)))
            n = self.aec.players
            self.seat = (
                int(self.np_random.integers(0, n)) if self.fixed_seat is None else self.fixed_seat
            )
            others = [s for s in range(n) if s != self.seat]
            bot_seed = int(self.np_random.integers(0, 2**31 - 1))
            self._bots = {
                s: make_bot(name, self.aec.rules, bot_seed + s)
                for s, name in zip(others, self.opponent_names, strict=True)
            }
            self._reward = 0.0
            self._run_opponents()
            # An episode that ends before the learner moves (the others all dropped) holds
            # no decision: deal again.
            if not self.aec.match.is_over and self.aec.steps < self.aec.max_steps:
                return self._observe(), self._info()
        raise ConfigError(
            f"in 1000 deals seat {self.seat} never got to move within {self.aec.max_steps} steps"
        )

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Floats | Mask], float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if isinstance(aec, PrimitiveRummyEnv):
            return self._step_primitive(aec, int(action))
        chosen = None if aec.match.is_over or aec.steps >= aec.max_steps else aec.action_menu()
        picked = None if chosen is None else chosen.actions.get(int(action))
        if picked is None:
            if self.invalid_action == "raise" or chosen is None:
                raise IllegalActionError(Reason.of("env.masked_action", index=int(action)))
            info = {**self._info(), "invalid_action": True}
            return self._observe(), float(self.penalty), True, False, info
        self._reward = 0.0
        self._apply(aec.play(picked))
        self._run_opponents()
        terminated = aec.match.is_over
        truncated = not terminated and aec.steps >= aec.max_steps
        return self._observe(), self._reward, terminated, truncated, self._info()

    def _step_primitive(
        self, aec: PrimitiveRummyEnv, action: int
    ) -> tuple[dict[str, Floats | Mask], float, bool, bool, dict[str, Any]]:
        over = aec.match.is_over or aec.steps >= aec.max_steps
        if over or not 0 <= action < aec.n_actions or not aec.mask()[action]:
            if self.invalid_action == "raise" or over:
                raise IllegalActionError(Reason.of("env.masked_action", index=action))
            info = {**self._info(), "invalid_action": True}
            return self._observe(), float(self.penalty), True, False, info
        self._reward = 0.0
        aec.step(action)
        self._apply(aec.rewards)
        self._run_opponents()
        terminated = aec.match.is_over
        truncated = not terminated and aec.steps >= aec.max_steps
        return self._observe(), self._reward, terminated, truncated, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The current action mask as booleans (MaskablePPO's ``action_masks`` hook)."""
        return self._observe()["action_mask"].astype(bool)

    def render(self) -> str | None:
        return self.aec.render()

    # -- helpers ----------------------------------------------------------------------------
    def _apply(self, rewards: dict[str, float]) -> None:
        self._reward += rewards[f"player_{self.seat}"]
        self.engine_steps += 1

    def _run_opponents(self) -> None:
        """Let the bots move until it is the learner's turn or the episode ends."""
        aec = self.aec
        while (
            not aec.match.is_over and aec.steps < aec.max_steps and aec.match.current != self.seat
        ):
            self._apply(aec.play_bot(self._bots[aec.match.current]))

    def _observe(self) -> dict[str, Floats | Mask]:
        obs = self.aec.observe(f"player_{self.seat}")
        return obs

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "steps": self.aec.steps}
