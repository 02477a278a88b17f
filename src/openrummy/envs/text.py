"""A text environment for language-model agents: positions in, action notation out.

The observation of the seat to move is its position in our notation
(:class:`~openrummy.position.Position`, docs/positions.md) and the kinds of action it may
take; the action is the text notation of an action (``"draw"``, ``"discard 9C"``,
``"play [R5 R6 R7]"``). Text that cannot be read or is not allowed changes nothing: the
typed error comes back in the observation and the same seat moves again::

    >>> env = TextEnv("indian13")
    >>> env.reset(seed=2)
    >>> env.step("discard 9S")
    >>> print(env.observe(env.agent_selection).splitlines()[-1])
    error: IllegalActionError: draw a card first
    >>> env.step("draw")
    >>> env.observe(env.agent_selection).splitlines()[1:]
    ['legal: declare discard', 'last: player_0 draw']

:func:`scripted_agent` is a tiny policy that plays through it.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping

import gymnasium
from pettingzoo import AECEnv

from openrummy.errors import RummyError
from openrummy.games.actions import ActionKind
from openrummy.position import Position

from .aec import RummyEnv

__all__ = ["TextEnv", "scripted_agent"]

_CHARSET = string.printable + "♠♥♦♣♤♡♢♧🃏×…–—’"
MAX_TEXT = 4096


class TextEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment with text observations and actions (see the module).

    Keywords are :class:`~openrummy.envs.aec.RummyEnv`'s; ``max_steps`` also counts the
    attempts that were refused, so an agent that keeps writing nonsense is truncated.
    """

    metadata: dict[str, object] = {  # noqa: RUF012 - PettingZoo reads it as a class attribute
        "name": "openrummy_text_v0",
        "render_modes": [],
        "is_parallelizable": False,
    }

    def __init__(
        self, preset: str = "indian13", options: Mapping[str, object] | None = None, **kw: object
    ) -> None:
        super().__init__()
        self.inner = RummyEnv(preset, options, **kw)  # type: ignore[arg-type]
        self.possible_agents: list[str] = list(self.inner.possible_agents)
        text = gymnasium.spaces.Text(MAX_TEXT, charset=_CHARSET)
        self.observation_spaces = dict.fromkeys(self.possible_agents, text)
        self.action_spaces = dict.fromkeys(self.possible_agents, text)
        self._error: dict[str, str] = {}
        self._last = ""

    def observation_space(self, agent: str) -> gymnasium.spaces.Text:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Text:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        inner = self.inner
        inner.reset(seed=seed)
        self.agents = inner.agents
        self.rewards = inner.rewards
        self._cumulative_rewards = inner._cumulative_rewards
        self.terminations = inner.terminations
        self.truncations = inner.truncations
        self.infos = inner.infos
        self.agent_selection = inner.agent_selection
        self._error = {}
        self._last = ""
        self._attempts = 0

    def observe(self, agent: str) -> str:
        """The seat's position, the kinds of action it may take, the last action and, after
        refused text, the error."""
        inner = self.inner
        seat = self.possible_agents.index(agent)
        view = inner.match.view(seat)
        lines = []
        if inner.match.is_over:
            lines.append(f"over: {view.match.outcome if view.match is not None else ''}")
        else:
            lines.append(f"position: {Position.from_game(inner.match, seat)}")
            kinds = sorted(k.value for k in view.legal - {ActionKind.TIMEOUT})
            mine = seat == inner.match.current
            lines.append(f"legal: {' '.join(kinds) if mine else '-'}")
        if self._last:
            lines.append(f"last: {self._last}")
        if agent in self._error:
            lines.append(f"error: {self._error[agent]}")
        return "\n".join(lines)

    def step(self, action: str | None) -> None:
        agent = self.agent_selection
        inner = self.inner
        if self.terminations[agent] or self.truncations[agent]:
            inner._was_dead_step(action)
            self._sync()
            return
        self._attempts += 1
        self._error.pop(agent, None)
        self._cumulative_rewards[agent] = 0.0
        seat = self.possible_agents.index(agent)
        try:
            parsed = inner.match.parse_action(str(action), seat)
            inner.play(parsed)
        except RummyError as e:
            self._error[agent] = f"{type(e).__name__}: {e}"
            inner.rewards = dict.fromkeys(inner.agents, 0.0)
            if self._attempts >= inner.max_steps:
                inner.truncations.update(dict.fromkeys(inner.agents, True))
        else:
            self._last = f"{agent} {parsed}"
        self._sync()
        inner._accumulate_rewards()

    def _sync(self) -> None:
        inner = self.inner
        self.agents = inner.agents
        self.rewards = inner.rewards
        self._cumulative_rewards = inner._cumulative_rewards
        self.terminations = inner.terminations
        self.truncations = inner.truncations
        self.infos = inner.infos
        self.agent_selection = inner.agent_selection


_HAND = re.compile(r"\| hand ([^|]*)")
_SEAT = re.compile(r"\| seat (\d+)")
_DRAWS = re.compile(r"\| draws ([^|]*)")


def scripted_agent(observation: str) -> str:
    """A scripted policy over the text interface: drop an Indian hand after five draws,
    else draw when it may, else end the turn or pass, else throw the last card of its hand
    (Indian Rummy), else show its groups."""
    legal = next((ln[7:].split() for ln in observation.splitlines() if ln.startswith("legal:")), [])
    seat = _SEAT.search(observation)
    draws = _DRAWS.search(observation)
    if "drop" in legal and seat and draws and int(draws.group(1).split()[int(seat.group(1))]) >= 5:
        return "drop"
    for word in ("draw", "end", "pass"):
        if word in legal:
            return word
    if "discard" in legal:
        found = _HAND.search(observation)
        hand = found.group(1).split() if found else []
        return f"discard {hand[-1]}" if hand else "draw"
    return "show" if "show" in legal else "draw"
