"""The error types of OpenRummy.

Every error a user can cause is a :class:`ValueError` subclass whose message says what is
wrong in a player's words. Which class tells *which kind* of wrong (as in python-chess):

* :class:`NotationError`: text that cannot be read as a card, meld or action.
* :class:`InvalidMeldError`: a meld that breaks the meld rules (which meld, why).
* :class:`IllegalActionError`: an action that is not allowed now (wrong seat, wrong phase).
* :class:`ConfigError`: an option set that cannot be played (names the option).
* :class:`RecordError`: a game record that cannot be read or does not replay.
"""

from __future__ import annotations

from openrummy.messages import Reason


class RummyError(ValueError):
    """Base class of every error OpenRummy raises on bad input.

    Made from a :class:`~openrummy.messages.Reason`, it keeps it as ``why`` (the message is
    its English words), so an interface can word it in the reader's language::

        >>> from openrummy.messages import render
        >>> e = NotationError(Reason.of("notation.not_a_card", text="XX"))
        >>> render(e.why, "de")
        "'XX' ist weder Karte noch Stein (Beispiele: AS, 10H, TH, ♠A, BH, JK, R7, B13, K1, O5)"
    """

    def __init__(self, reason: str | Reason) -> None:
        self.why: Reason | None = reason if isinstance(reason, Reason) else None
        super().__init__(str(reason))


class NotationError(RummyError):
    """Text that is not valid card, tile, meld or action notation."""


class InvalidMeldError(RummyError):
    """A meld that is not a valid set or run under the rules in force."""


class IllegalActionError(RummyError):
    """An action that is not allowed in the current state (nothing was changed).

    Made from a :class:`~openrummy.messages.Reason`, it keeps it as ``why`` (the message is
    its English words), so an interface can word it in the player's language.
    """


class ConfigError(RummyError):
    """An inconsistent or unknown rule option."""


class RecordError(RummyError):
    """A game record that is malformed or does not replay."""
