"""Reinforcement-learning environments: PettingZoo AEC, Gymnasium and text (docs/envs.md).

Needs the ``rl`` extra (``pip install 'openrummy[rl]'``)::

    from openrummy.envs import rummikub_v0
    env = rummikub_v0.env(players=2)
    env.reset(seed=1)

The single-agent environments are also registered with Gymnasium (:data:`GYMNASIUM_IDS`):
``gymnasium.make("openrummy/Indian13-v0", opponents="simple")``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from openrummy.extras import require

require("rl", "openrummy.envs")

from . import indian10_v0, indian13_v0, indian21_v0, robbers_v0, rummikub_v0  # noqa: E402
from .aec import RummyEnv  # noqa: E402
from .primitive import PrimitiveRummyEnv  # noqa: E402
from .registration import GYMNASIUM_IDS, register_gymnasium  # noqa: E402

register_gymnasium()

if TYPE_CHECKING:
    from .vector import RummikubPrimitiveVectorEnv


def __getattr__(name: str) -> object:
    """``RummikubPrimitiveVectorEnv`` is imported on first use (it loads numba)."""
    if name == "RummikubPrimitiveVectorEnv":
        from .vector import RummikubPrimitiveVectorEnv

        return RummikubPrimitiveVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "GYMNASIUM_IDS",
    "PrimitiveRummyEnv",
    "RummikubPrimitiveVectorEnv",
    "RummyEnv",
    "indian10_v0",
    "indian13_v0",
    "indian21_v0",
    "robbers_v0",
    "rummikub_v0",
]
