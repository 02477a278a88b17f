"""Indian Rummy with 10 cards: draw, take, drop, throw each card kind, declare.

``env()`` is the PettingZoo AEC environment (order-enforcing), ``raw_env()`` the bare one; any
indian preset and rule options may be given::

    env(preset="indian10", options={...}, players=2, unit="round", reward="score")

A wrong preset or option raises :class:`~openrummy.errors.ConfigError` here.
"""

from __future__ import annotations

from collections.abc import Mapping

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from .aec import RummyEnv

__all__ = ["env", "raw_env"]


def raw_env(
    preset: str = "indian10", options: Mapping[str, object] | None = None, **kw: object
) -> RummyEnv:
    """The bare environment (see :class:`~openrummy.envs.aec.RummyEnv` for the keywords)."""
    return RummyEnv(preset, options, family="indian", name="indian10_v0", **kw)  # type: ignore[arg-type]


def env(
    preset: str = "indian10", options: Mapping[str, object] | None = None, **kw: object
) -> OrderEnforcingWrapper:
    """The environment wrapped to enforce PettingZoo's call order."""
    return OrderEnforcingWrapper(raw_env(preset, options, **kw))
