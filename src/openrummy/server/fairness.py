"""Provably fair deals: commit to the secret seed at the start, reveal it at the end.

When a game starts the server draws a 256-bit seed and publishes only the SHA-256 digest of
the game's deal terms (the seed, the preset, the option overrides and the number of players,
:func:`openrummy.verify.deal_terms`): the *commitment*. Every shuffle of the match follows
from the seed (``"{seed}/{k}"`` for round k), so once the seed is revealed anyone can check
the published record with :func:`openrummy.verify.verify_deal` (``rummy replay --verify``):
the deal was fixed before anyone played, and the server could not steer it.

    >>> seed = "00" * 32
    >>> c = commitment(seed, game="robbers", options={}, players=2)
    >>> len(c), scheme_of(seed, c)
    (64, 'sha256-deal')
"""

from __future__ import annotations

import secrets

from openrummy.verify import (
    LEGACY_SCHEME,
    SCHEME,
    check_commitment,
    scheme_of,
    seed_commitment,
)
from openrummy.verify import deal_commitment as commitment

__all__ = [
    "LEGACY_SCHEME",
    "SCHEME",
    "check_commitment",
    "commitment",
    "new_seed",
    "scheme_of",
    "seed_commitment",
]


def new_seed() -> str:
    """A fresh secret seed: 64 hex digits (256 bits, too many to guess from the digest)."""
    return secrets.token_hex(32)
