"""The terminal table (``rummy play``): a Textual app for every family, played against bots.

Needs the ``tui`` extra (``pip install 'openrummy[tui]'``).
"""

from __future__ import annotations

from .app import RummyApp
from .session import LocalSession, Setup
from .text import default_lang, t

__all__ = ["LocalSession", "RummyApp", "Setup", "default_lang", "t"]
