"""Server protocol transcripts: one seat's messages, both ways, through a whole seeded game.

Two scripted players (``helpers.players.play_out``: the simple bot, seeded by seat) play one
short game against each other through a real server, on a deal chosen by its seed. The
transcript is what seat 0 sent and received, in order, from its hello to the reveal of the
seed after the game. Whatever differs between two runs of the same game (the table id, the
tokens, clock times) is replaced by a placeholder, so the same code gives the same
transcript and a changed message shows as the first line that differs.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import websockets

from helpers.players import play_out
from helpers.server import HANG_GUARD, Api, Client, Server, make_settings
from openrummy.server import fairness

CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    "robbers": ("robbers", {"match.format": "SINGLE_ROUND"}, "transcript-robbers-1"),
    "indian13": ("indian13", {"match.format": "POINTS"}, "transcript-indian13-1"),
}
"""name -> (preset, options, seed of the deal)."""

CLOCK_KEYS = frozenset({"now", "deadline", "started_at", "finished_at", "created_at", "at"})
"""Keys whose values are times on the server's clock."""


class RecordingClient(Client):
    """A client that logs what it sends and receives, in order."""

    def __init__(self, ws: Any) -> None:
        super().__init__(ws)
        self.log: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        self.log.append({"sent": message})
        await super().send(message)

    async def recv(self, timeout: float = HANG_GUARD) -> dict[str, Any]:
        fresh = self._next >= len(self.received)
        msg = await super().recv(timeout)
        if fresh:
            self.log.append({"received": msg})
        return msg


def normalise(value: Any, secrets: dict[str, str]) -> Any:
    """``value`` with the run's ids and tokens (``secrets``: text -> placeholder) and clock
    times replaced."""
    if isinstance(value, dict):
        return {
            k: "<time>" if k in CLOCK_KEYS and v is not None else normalise(v, secrets)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [normalise(v, secrets) for v in value]
    if isinstance(value, str):
        for text, placeholder in secrets.items():
            value = value.replace(text, placeholder)
    return value


async def record(api: Api, case: str) -> list[dict[str, Any]]:
    """Play ``case`` on the server behind ``api`` and return seat 0's transcript.

    The caller makes the server deal ``CASES[case]``'s seed (``fairness.new_seed``).
    """
    preset, options, _seed = CASES[case]
    made = await api.create(preset=preset, options=options, seats=[{}, {}])
    tid = made["table"]["id"]
    joined = [await api.join(tid, name, seat=seat) for seat, name in enumerate(["Ann", "Bob"])]
    clients: dict[int, Client] = {}
    for seat, j in enumerate(joined):
        ws = await websockets.connect(api.ws_url(tid), max_size=None)
        c = RecordingClient(ws) if seat == 0 else Client(ws)
        await c.send({"type": "hello", "token": j["token"]})
        c.welcome = await c.expect("welcome")
        clients[seat] = c
    await api.start_table(tid, made["creator_token"])
    for c in clients.values():
        c.welcome = await c.expect("welcome", lambda m: m["view"] is not None)
    await play_out(clients, preset, options)
    await clients[0].expect("reveal")
    for c in clients.values():
        await c.close()
    seat0 = clients[0]
    assert isinstance(seat0, RecordingClient)
    secrets = {tid: "<table>", made["creator_token"]: "<creator-token>"}
    secrets.update({j["token"]: f"<token-{k}>" for k, j in enumerate(joined)})
    return [normalise(entry, secrets) for entry in seat0.log]


def dumps(entry: dict[str, Any]) -> str:
    return json.dumps(entry, sort_keys=True, ensure_ascii=False)


def play(case: str, tmp_path: Path) -> list[dict[str, Any]]:
    """Start a server (in this thread's own event loop), deal ``case``'s seed, record."""
    seed = CASES[case][2]

    async def go() -> list[dict[str, Any]]:
        server = Server(make_settings(tmp_path))
        await server.start()
        try:
            return await record(server, case)
        finally:
            await server.stop()

    chosen = fairness.new_seed
    fairness.new_seed = lambda: seed
    try:
        return asyncio.run(go())
    finally:
        fairness.new_seed = chosen
