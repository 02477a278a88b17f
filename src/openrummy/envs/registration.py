"""Gymnasium ids of the single-agent environments (``gymnasium.make("openrummy/Rummikub-v0")``)."""

from __future__ import annotations

from typing import Final

import gymnasium

__all__ = ["GYMNASIUM_IDS", "register_gymnasium"]

GYMNASIUM_IDS: Final = {
    "openrummy/Rummikub-v0": "rummikub",
    "openrummy/Robbers-v0": "robbers",
    "openrummy/Indian13-v0": "indian13",
    "openrummy/Indian10-v0": "indian10",
    "openrummy/Indian21-v0": "indian21",
}
"""Each id and the preset it plays (keywords of ``gymnasium.make`` go to
:class:`~openrummy.envs.single.SingleAgentEnv`)."""


def register_gymnasium() -> None:
    """Register :data:`GYMNASIUM_IDS` with Gymnasium (once)."""
    for env_id, preset in GYMNASIUM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="openrummy.envs.single:SingleAgentEnv",
                kwargs={"preset": preset},
            )
