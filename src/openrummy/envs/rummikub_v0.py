"""Rummikub (106 tiles, 30-point opening, table manipulation): macro actions.

``env()`` is the PettingZoo AEC environment (order-enforcing), ``raw_env()`` the bare one; any
manipulation preset and rule options may be given::

    env(preset="rummikub", options={...}, players=2, unit="round", reward="score")

A wrong preset or option raises :class:`~openrummy.errors.ConfigError` here.
"""

from __future__ import annotations

from collections.abc import Mapping

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from .aec import RummyEnv

__all__ = ["env", "raw_env"]


def raw_env(
    preset: str = "rummikub", options: Mapping[str, object] | None = None, **kw: object
) -> RummyEnv:
    """The bare environment (see :class:`~openrummy.envs.aec.RummyEnv` for the keywords)."""
    return RummyEnv(preset, options, family="manipulation", name="rummikub_v0", **kw)  # type: ignore[arg-type]


def env(
    preset: str = "rummikub", options: Mapping[str, object] | None = None, **kw: object
) -> OrderEnforcingWrapper:
    """The environment wrapped to enforce PettingZoo's call order."""
    return OrderEnforcingWrapper(raw_env(preset, options, **kw))
