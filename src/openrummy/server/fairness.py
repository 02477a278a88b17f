"""Provably fair deals: commit to the secret seed at the start, reveal it at the end.

When a game starts the server draws a 256-bit seed and publishes only its SHA-256 digest
(the *commitment*). Every shuffle of the match follows from the seed (``"{seed}/{k}"`` for
round k), so once the seed is revealed anyone can check that it hashes to the commitment
published before the first action, and that the published record replays from it: the
deal was fixed before anyone played, and the server could not steer it.

    >>> seed = "00" * 32
    >>> c = commitment(seed)
    >>> len(c), check_seed(seed, c)
    (64, True)
    >>> check_seed("01" + "00" * 31, c)
    False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from openrummy.errors import RecordError

__all__ = ["SCHEME", "check_seed", "commitment", "new_seed", "verify_record"]

SCHEME = "sha256-utf8"
"""How the commitment is computed: SHA-256 of the seed's text in UTF-8, as hex."""


def new_seed() -> str:
    """A fresh secret seed: 64 hex digits (256 bits, too many to guess from the digest)."""
    return secrets.token_hex(32)


def commitment(seed: int | str) -> str:
    return hashlib.sha256(str(seed).encode("utf-8")).hexdigest()


def check_seed(seed: int | str, digest: str) -> bool:
    return hmac.compare_digest(commitment(seed), digest.strip().lower())


def verify_record(record: Any, published: str | None = None) -> str:
    """Check a finished record's seed against its commitment; returns the commitment.

    ``published`` is the commitment the checker saw during play (the safest source); without
    it the one the record carries in ``meta["fairness"]`` is used. The caller replays the
    record afterwards to check that the actions follow from that seed. Raises
    :class:`RecordError` when anything does not match.
    """
    fair = record.meta.get("fairness") if isinstance(record.meta, dict) else None
    carried = fair.get("commitment") if isinstance(fair, dict) else None
    if published is None and carried is None:
        raise RecordError("the record carries no seed commitment (meta.fairness.commitment)")
    if isinstance(fair, dict) and fair.get("scheme", SCHEME) != SCHEME:
        raise RecordError(f"unknown commitment scheme {fair.get('scheme')!r} (known: {SCHEME})")
    if published is not None and carried is not None and published.strip().lower() != carried:
        raise RecordError(
            f"the record's commitment {carried} is not the one published ({published.strip()})"
        )
    digest = published.strip().lower() if published is not None else str(carried)
    if record.seed is None or record.seed == "":
        raise RecordError("the record does not reveal its seed")
    if not check_seed(record.seed, digest):
        raise RecordError(
            f"the seed does not match the commitment: sha256(seed) = {commitment(record.seed)}, "
            f"committed {digest}"
        )
    return digest
