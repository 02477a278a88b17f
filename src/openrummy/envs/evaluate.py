"""Policies and their evaluation over mirrored deals: the win rate with its 95 % interval.

A :data:`Policy` maps an observation (``{"observation", "action_mask"}``) to an action id;
:func:`random_policy` is the masked random baseline. A seat may also be played by one of our
bots by name (``random``, ``simple``, ``greedy``, ``expert``, …; ``bots/registry.py``),
which plays the engine's actions directly (any play, not only the macro menu).

:func:`evaluate` plays every deal once per seat rotation (each seat holds the policy once:
mirrored deals, the luck of the cards cancels out) and reports the policy's win rate with
the interval of :func:`openrummy.sim.stats.win_interval`, the one our tournaments use::

    >>> result = evaluate("simple", "random", preset="indian13", deals=4, seed=1)
    >>> result.games, 0.0 <= result.low <= result.win_rate <= result.high <= 1.0
    (8, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from openrummy.bots.base import Bot
from openrummy.bots.registry import make_bot
from openrummy.errors import ConfigError
from openrummy.sim.stats import win_interval

from ._spaces import Floats, Mask
from .aec import RummyEnv

__all__ = ["Evaluation", "Policy", "evaluate", "random_policy"]

Policy: TypeAlias = Callable[[dict[str, Floats | Mask]], int]
"""A policy: observation (with its ``action_mask``) to an action id."""


def random_policy(seed: int = 0) -> Policy:
    """The masked random policy: a uniformly random allowed action id."""
    rng = random.Random(seed)

    def choose(observation: dict[str, Floats | Mask]) -> int:
        return int(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))

    return choose


@dataclass(frozen=True, slots=True)
class Evaluation:
    """How a policy did against a baseline."""

    win_rate: float
    """The policy's share of the games won (a game won jointly counts as a share)."""
    low: float
    high: float
    """The 95 % interval of the win rate (Wilson, over the deals' effective sample size)."""
    games: int
    deals: int
    mean_reward: float
    """The policy seat's mean episode reward."""


def evaluate(
    policy: Policy | str,
    baseline: str = "random",
    *,
    preset: str = "indian13",
    options: Mapping[str, object] | None = None,
    players: int = 2,
    deals: int = 100,
    seed: int = 0,
    unit: str = "round",
    plays: int = 8,
    max_steps: int = 5000,
) -> Evaluation:
    """Play ``policy`` (a :data:`Policy` or a bot's name) in one seat against the bot
    ``baseline`` in all others, over ``deals`` deals at every seat rotation."""
    if deals < 1:
        raise ConfigError("an evaluation needs at least one deal")
    env = RummyEnv(preset, options, players=players, unit=unit, plays=plays, max_steps=max_steps)
    per_deal: list[float] = []
    rewards: list[float] = []
    for deal in range(deals):
        wins = 0.0
        for seat in range(players):
            env.reset(seed=seed * 1_000_003 + deal)
            bots: dict[int, Bot] = {
                s: make_bot(baseline, env.rules, seed * 1_000_003 + deal * 101 + s)
                for s in range(players)
                if s != seat
            }
            mover = make_bot(policy, env.rules, seed + deal) if isinstance(policy, str) else None
            total = 0.0
            while not env.match.is_over and env.steps < env.max_steps:
                current = env.match.current
                if current == seat and mover is None:
                    assert not isinstance(policy, str)
                    obs = env.observe(env.possible_agents[seat])
                    action = env.action_menu().actions.get(int(policy(obs)))
                    if action is None:
                        raise ConfigError("the policy chose an action outside the mask")
                    step = env.play(action)
                else:
                    bot = mover if current == seat and mover is not None else bots[current]
                    step = env.play_bot(bot)
                total += step[env.possible_agents[seat]]
            outcome = env.match.outcome
            if outcome is not None and seat in outcome.winners:
                wins += 1.0 / len(outcome.winners)
            rewards.append(total)
        per_deal.append(wins / players)
    games = deals * players
    rate = sum(per_deal) / deals
    low, high = win_interval(per_deal, games)
    low, high = min(low, rate), max(high, rate)  # rounding at 0 % and 100 %
    return Evaluation(rate, low, high, games, deals, sum(rewards) / len(rewards))
