"""Remembering results per rules object, by identity.

The rules are large frozen dataclasses whose generated hash walks every nested option on
each call; a solver asked a few hundred times per game paid more for hashing its rules
than for some of its work. The same rules object is passed again and again, so its
identity is the cheap key (the memo keeps the object alive, so its id cannot be reused
while remembered).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_LIMIT = 512


def by_identity(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` remembered by the identity of its first argument and the value of the rest
    (positional arguments only; they must be hashable)."""
    memo: dict[tuple[object, ...], tuple[object, R]] = {}

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs:
            raise TypeError(f"{fn.__name__}: positional arguments only")
        first = args[0]
        key = (id(first), *args[1:])
        hit = memo.get(key)
        if hit is not None and hit[0] is first:
            return hit[1]
        value = fn(*args, **kwargs)
        if len(memo) >= _LIMIT:
            memo.clear()
        memo[key] = (first, value)
        return value

    return wrapper
