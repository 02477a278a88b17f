"""Indian Rummy's turn timer with a time bank (options ``turn.time_limit_s`` and
``turn.time_bank_s``): the engine takes a ``timeout`` only once the turn's time and the
seat's bank have run out (the server's clock fires it), plays the turn for the seat (draw
from the stock, throw the drawn card), and a record with the time stamps replays it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from openrummy.errors import ConfigError, IllegalActionError
from openrummy.games.actions import ActionKind, Timeout
from openrummy.games.families import new_match
from openrummy.games.views import view_from_json
from openrummy.record import GameRecord
from openrummy.rules import find_preset

T0 = 1_000.0


def timed_match(limit: float = 5.0, bank: float | None = 10.0, fmt: str = "DEALS") -> Any:
    options: dict[str, object] = {"turn.time_limit_s": limit, "match.format": fmt}
    if bank is not None:
        options["turn.time_bank_s"] = bank
    rules = find_preset("indian13", options)
    return new_match(rules, 2, seed="timer-1", started_at=T0)


def at(match: Any, text: str, when: float) -> Any:
    return dataclasses.replace(match.parse_action(text), at=when)


def test_presets_have_no_timer() -> None:
    match: Any = new_match(find_preset("indian13"), 2, seed="timer-1", started_at=T0)
    view = match.view(0, now=T0 + 1e6)
    assert view.time_left is None and view.time_bank is None
    assert ActionKind.TIMEOUT not in match.legal_kinds()
    with pytest.raises(IllegalActionError):
        match.apply(Timeout(match.current, at=T0 + 1e6))


def test_a_bank_needs_a_turn_limit_and_limits_are_positive() -> None:
    with pytest.raises(ConfigError, match=r"turn\.time_bank_s needs turn\.time_limit_s"):
        find_preset("indian13", {"turn.time_bank_s": 30})
    with pytest.raises(ConfigError, match="positive"):
        find_preset("indian13", {"turn.time_limit_s": 0})


def test_timeout_only_after_the_turn_time_and_the_bank() -> None:
    match = timed_match()
    seat = match.current
    view = match.view(seat, now=T0 + 1)
    assert view.time_left == pytest.approx(14.0) and view.time_bank == (10.0, 10.0)
    # The turn's 5 s are over but the bank's 10 s are not: too early, nothing changes.
    assert not match.is_legal(Timeout(seat, at=T0 + 14.9))
    with pytest.raises(IllegalActionError, match="has not run out"):
        match.apply(Timeout(seat, at=T0 + 14.9))
    pile, hand = len(match.game.discard_pile), list(match.game.hands[seat])
    top = match.game.stock[0]
    result = match.apply(Timeout(seat, at=T0 + 15.0))
    # The turn was played for the seat: the stock's top card drawn and thrown; its bank is
    # spent.
    assert match.game.hands[seat] == hand
    assert len(match.game.discard_pile) == pile + 1
    assert result.event.card == top == match.game.discard_pile[-1]
    assert result.event.to_json() == {"code": "timed_out", "seat": seat, "card": str(top)}
    assert match.current != seat and match.game.time_bank[seat] == 0.0
    assert match.view(None, now=T0 + 16).time_left == pytest.approx(14.0)


def test_time_over_the_turn_limit_comes_out_of_the_bank() -> None:
    match = timed_match(limit=5.0, bank=10.0)
    seat = match.current
    match.apply(at(match, "draw", T0 + 3))
    card = match.game.hands[match.game.current][0]
    match.apply(at(match, f"discard {card}", T0 + 8.5))  # 3.5 s over the limit
    assert match.game.time_bank[seat] == pytest.approx(6.5)
    other = match.current
    match.apply(at(match, "draw", T0 + 9))
    # After a draw a timeout throws the card just drawn.
    drawn = match.game.hands[match.game.current][-1]
    assert not match.is_legal(Timeout(other, at=T0 + 8.5 + 14.9))
    match.apply(Timeout(other, at=T0 + 8.5 + 15))
    assert match.game.discard_pile[-1] == drawn
    view = match.view(seat, now=T0 + 30)
    assert view.time_bank == ((6.5, 0.0) if seat == 0 else (0.0, 6.5))
    assert view_from_json(view.to_json()) == view
    assert "timeout" in view.to_json()["legal"]


def test_without_a_bank_the_turn_time_is_all() -> None:
    match = timed_match(limit=2.0, bank=None)
    assert match.view(None, now=T0).time_bank == (0.0, 0.0)
    assert match.is_legal(Timeout(match.current, at=T0 + 2.0))


def test_a_record_with_timeouts_replays() -> None:
    match = timed_match(limit=1.0, bank=1.0, fmt="POINTS")
    when = T0
    for _ in range(6):
        when += 2.5
        match.apply(Timeout(match.current, at=when))
    assert len(match.history) == 6
    again: Any = GameRecord.loads(GameRecord.from_match(match).dumps()).replay()
    assert again.game.discard_pile == match.game.discard_pile
    assert again.game.hands == match.game.hands
