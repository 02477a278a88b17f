"""Scripted players for the server tests: a bot that plays through the WebSocket."""

from __future__ import annotations

import asyncio
from typing import Any

from helpers.server import HANG_GUARD, Client
from openrummy.bots import make_bot
from openrummy.games.views import view_from_json
from openrummy.rules import find_preset


async def play_out(
    clients: dict[int, Client],
    preset: str,
    options: dict[str, Any] | None = None,
    *,
    kind: str = "simple",
    max_actions: int = 5000,
    until: int | None = None,
    acked: list[tuple[int, str]] | None = None,
) -> int:
    """Let scripted bots play every client's seat until the match ends; returns actions sent.

    Each client acts only on its own turn, from its own latest view; seats without a client
    (server bots) are waited for. With ``until`` the players stop after that many actions;
    ``acked`` collects (seq, action) of every action the server confirmed.
    """
    rules = find_preset(preset, options or {})
    bots = {s: make_bot(kind, rules, 100 + s) for s in clients}
    latest: dict[int, dict[str, Any]] = {}
    for seat, c in clients.items():
        latest[seat] = {"seq": c.welcome["seq"], "view": c.welcome["view"]}
    sent = 0

    async def runner(seat: int, c: Client) -> None:
        nonlocal sent
        async with asyncio.timeout(HANG_GUARD * 5):
            while True:
                state = latest[seat]
                view = state["view"]
                if until is not None and sent >= until:
                    return
                if view is None or view["match"]["outcome"] is not None:
                    if view is not None:
                        return
                elif view["current"] == seat:
                    choice = bots[seat].choose(view_from_json(view))
                    reply = await c.act(str(choice), state["seq"])
                    sent += 1
                    assert sent <= max_actions
                    if reply["type"] == "update":
                        if acked is not None:
                            acked.append((reply["seq"], reply["event"]["action"]))
                        latest[seat] = {"seq": reply["seq"], "view": reply["view"]}
                        continue
                    assert reply["code"] in ("stale",), reply
                try:
                    # Wake now and then: with ``until`` the other players may have stopped.
                    msg = await c.recv(timeout=0.5)
                except TimeoutError:
                    continue
                fresh = msg["type"] in ("update", "welcome") and msg["seq"] >= state["seq"]
                if fresh and msg["view"] is not None:
                    latest[seat] = {"seq": msg["seq"], "view": msg["view"]}

    await asyncio.gather(*(runner(s, c) for s, c in clients.items()))
    return sent
