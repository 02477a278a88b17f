"""Policies: who plays an absent seat, and how fast one connection may send.

**Absent seats.** A human seat is *away* after ``max_timeouts`` consecutive turn-timer
expiries, after ``disconnect_grace`` seconds without a connection, or when its player
leaves a running game. An away seat is played by a *stand-in* chosen by the rule family
(:data:`AWAY_POLICIES`): the manipulation games let a bot play on (a lost turn there costs
only penalty cards, and the others want to finish the round); Indian Rummy drops the hand
at the seat's turn (RULES.md §5.2 DROP: the usual online auto-drop, whose cost is the rules'
drop penalty) and lets a bot finish any turn already begun. The player takes the seat back
by reconnecting with the token (hello), by sending ``resume``, or simply by acting.

**Rate limits.** A token bucket per connection (:class:`TokenBucket`), and buckets per client
address for what costs the server whoever sends it (:class:`AddressBuckets`: tables created,
failed hellos).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "AWAY_POLICIES",
    "AddressBuckets",
    "AwayPolicy",
    "TokenBucket",
    "away_policy",
    "register_away_policy",
]


@dataclass(frozen=True, slots=True)
class AwayPolicy:
    """How the server plays a seat whose person is away."""

    bot: str
    """The stand-in bot kind (``openrummy.bots.make_bot``)."""
    first_action: str | None = None
    """An action in the family's notation to take instead, whenever the view's ``legal``
    list offers it (Indian Rummy: ``"drop"``)."""
    description: str = ""
    stand_in: str = "notice.bot_plays"
    """The message catalogue's words for what the stand-in does (a ``notice.*`` reason)."""


AWAY_POLICIES: dict[str, AwayPolicy] = {
    "manipulation": AwayPolicy("simple", None, "a bot plays the seat until its player returns"),
    "indian": AwayPolicy(
        "simple",
        "drop",
        "the hand is dropped at the seat's turn (auto-drop); a bot finishes",
        "notice.auto_drop",
    ),
}


def register_away_policy(family: str, policy: AwayPolicy) -> None:
    """Let a family choose its stand-in (a family module may call this on import)."""
    AWAY_POLICIES[family] = policy


def away_policy(family: str) -> AwayPolicy:
    return AWAY_POLICIES.get(family, AWAY_POLICIES["manipulation"])


class TokenBucket:
    """``rate`` messages per second sustained, ``burst`` at once.

    >>> t = [0.0]
    >>> b = TokenBucket(rate=1.0, burst=2, clock=lambda: t[0])
    >>> [b.take() for _ in range(3)]
    [True, True, False]
    >>> t[0] = 1.0
    >>> b.take(), b.take()
    (True, False)
    """

    __slots__ = ("burst", "clock", "last", "rate", "tokens")

    def __init__(
        self, *, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.tokens = float(burst)
        self.last = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def peek(self) -> bool:
        """Whether :meth:`take` would succeed now (nothing is taken)."""
        now = self.clock()
        return min(self.burst, self.tokens + (now - self.last) * self.rate) >= 1.0

    @property
    def full(self) -> bool:
        now = self.clock()
        return self.tokens + (now - self.last) * self.rate >= self.burst


class AddressBuckets:
    """One :class:`TokenBucket` per client address, forgotten again once full.

    >>> t = [0.0]
    >>> b = AddressBuckets(rate=1 / 60, burst=2, clock=lambda: t[0])
    >>> [b.take("10.0.0.1") for _ in range(3)], b.take("10.0.0.2")
    ([True, True, False], True)
    """

    def __init__(
        self, *, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}

    def _get(self, key: str) -> TokenBucket:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= 4096:
                for k in [k for k, v in self.buckets.items() if v.full]:
                    del self.buckets[k]
            bucket = self.buckets[key] = TokenBucket(
                rate=self.rate, burst=self.burst, clock=self.clock
            )
        return bucket

    def take(self, key: str) -> bool:
        return self._get(key).take()

    def peek(self, key: str) -> bool:
        bucket = self.buckets.get(key)
        return bucket is None or bucket.peek()
