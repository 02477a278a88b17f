"""Deprecated home of :func:`new_match`: use :mod:`openrummy.games.families`."""

from __future__ import annotations

from .families import new_match

__all__ = ["new_match"]
