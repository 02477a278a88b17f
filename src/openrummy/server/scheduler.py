"""Scheduling: bots' moves after their pause, stand-ins for away players, and turn timers."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from openrummy.bots import make_bot

from .core import Live, ServiceCore
from .errors import ErrorCode
from .policy import away_policy

__all__ = ["Scheduler"]

log = logging.getLogger("openrummy.server")


class Scheduler(ServiceCore):
    """What happens next without anybody sending it."""

    def _schedule(self, live: Live, *, owner: bool) -> None:
        """Plan the next automatic step: a bot's move or the turn timer.

        ``owner``: this process accepted the last action, so it acts at once; the others wait
        ``takeover_delay`` longer and step in only if it did not (it may have died).
        """
        current_task = asyncio.current_task()
        if live.task is not None and live.task is not current_task:
            live.task.cancel()
        live.task = None
        if not live.running:
            return
        seat = live.match.current
        extra = 0.0 if owner else self.settings.takeover_delay
        if live.plays_itself(seat):
            live.task = self.spawn(self._bot_turn(live, live.seq, live.row.bot_pause + extra))
            return
        if live.row.time_limit is None:
            return  # no turn timer: nothing to schedule (and no view to build per action)
        now = self.clock()
        left = live.match.view(None, now=now).time_left
        if left is not None:
            live.task = self.spawn(self._timer(live, live.seq, now + float(left) + extra))

    async def _timer(self, live: Live, seq: int, deadline: float) -> None:
        while True:
            await asyncio.sleep(max(0.0, deadline - self.clock()))
            err = await self.submit(live, None, "timeout", expect_seq=seq, actor="server")
            if err is None or err.code is not ErrorCode.ILLEGAL or live.seq != seq:
                return
            # The engine's clock says not yet (a timer woke early): look again shortly.
            deadline = self.clock() + 0.05

    def _bot(self, live: Live, seat: int) -> Any:
        bot = live.bots.get(seat)
        if bot is None:
            s = live.row.seats[seat]
            kind = s.bot if s.kind == "bot" and s.bot else away_policy(live.row.family).bot
            bot = make_bot(kind, live.rules, secrets.randbits(31))
            live.bots[seat] = bot
        return bot

    async def _bot_turn(self, live: Live, seq: int, pause: float) -> None:
        if pause > 0:
            await asyncio.sleep(pause)
        async with live.lock:
            if live.seq != seq or not live.running:
                return
            seat = live.match.current
            if not live.plays_itself(seat):
                return
            view = live.match.view(seat, now=self.clock())
            standin = live.row.seats[seat].kind != "bot"
            actor = "standin" if standin else "bot"
        legal = [str(w) for w in view.legal]
        first = away_policy(live.row.family).first_action if standin else None
        texts: list[str] = []
        if first is not None and first in legal:
            texts.append(first)
        else:
            try:
                # A worker thread, so a bot that thinks long never stalls the other tables'
                # messages (a CPU-heavy bot still shares the interpreter with them).
                bot = self._bot(live, seat)
                texts.append(str(await asyncio.to_thread(bot.choose, view)))
            except Exception:
                log.exception("table %s: bot of seat %d failed to choose", live.id, seat)
        # Should the bot's choice be refused, fall back to the simplest legal actions.
        texts += [w for w in ("draw", "pass", "end", "take", "drop") if w in legal]
        for text in texts:
            err = await self.submit(live, seat, text, expect_seq=seq, actor=actor)
            if err is None or err.code in (
                ErrorCode.STALE,
                ErrorCode.CONFLICT,
                ErrorCode.GAME_OVER,
            ):
                return
            log.warning("table %s: %s's %r refused: %s", live.id, actor, text, err.message)
        log.error("table %s: seat %d's %s found no legal action", live.id, seat, actor)
