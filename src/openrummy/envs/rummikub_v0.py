"""Rummikub (106 tiles, 30-point opening, table manipulation): macro or primitive actions.

``env()`` is the PettingZoo AEC environment (order-enforcing), ``raw_env()`` the bare one; any
manipulation preset and rule options may be given::

    env(preset="rummikub", options={...}, players=2, unit="round", reward="score")
    env(action_mode="primitive")   # card-by-card actions (openrummy.envs.primitive)

A wrong preset or option raises :class:`~openrummy.errors.ConfigError` here.
"""

from __future__ import annotations

from collections.abc import Mapping

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from .aec import RummyEnv
from .primitive import make_manipulation_env

__all__ = ["env", "raw_env"]


def raw_env(
    preset: str = "rummikub", options: Mapping[str, object] | None = None, **kw: object
) -> RummyEnv:
    """The bare environment (see :class:`~openrummy.envs.aec.RummyEnv` for the keywords).

    ``action_mode``: ``"macro"`` (the engine's candidate plays) or ``"primitive"``
    (:class:`~openrummy.envs.primitive.PrimitiveRummyEnv`, which also takes ``turn_cap`` and
    ``slots``).
    """
    return make_manipulation_env(preset, options, "rummikub_v0", **kw)


def env(
    preset: str = "rummikub", options: Mapping[str, object] | None = None, **kw: object
) -> OrderEnforcingWrapper:
    """The environment wrapped to enforce PettingZoo's call order."""
    return OrderEnforcingWrapper(raw_env(preset, options, **kw))
