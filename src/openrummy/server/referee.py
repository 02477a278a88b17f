"""The referee's loop of check, apply, store, broadcast, schedule.

Every action, whoever sends it (a person over the WebSocket, a bot on the server, the turn
timer), goes through :meth:`TableService.submit` under the table's lock:

1. check the game is running, the sequence number the sender saw is the current one, and
   it is the sender's turn;
2. parse the action with the family's notation and stamp it with the server clock (``at``);
3. apply it through the engine (an ``IllegalActionError`` changes nothing and is answered to
   the sender only);
4. write it to the log with the next sequence number, in one transaction with the game's
   end if it ended (a :class:`~openrummy.server.store.SeqConflict` means another process
   was first: the table is rebuilt from the log and the sender told);
5. send every seat its own view and every spectator the public view, with the event in
   words;
6. schedule what happens next: a bot's move after its pause, or the turn timer.

The service never reads a family's state directly: it uses the ``Match`` protocol
(``apply``, ``view``, ``parse_action``, ``current``, ``is_over``, ``outcome``) and the
views' ``legal`` and ``time_left`` entries, so every family plugs in unchanged.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any

from openrummy.errors import IllegalActionError
from openrummy.messages import Reason

from . import fairness
from .core import (
    SERVER_ONLY,
    Live,
    ServiceCore,
    client_view,
    deadline,
    dumps,
    event_info,
    uses_tiles,
)
from .errors import ErrorCode, ServiceError
from .lobby import table_info
from .store import ActionRow, SeqConflict

if TYPE_CHECKING:
    from .sessions import Conn

__all__ = ["Referee"]

log = logging.getLogger("openrummy.server")


class Referee(ServiceCore):
    """Every action goes through :meth:`submit`; what it changes is sent to the table."""

    def _replay(self, live: Live, a: ActionRow) -> dict[str, Any]:
        """Apply one stored action (rebuild and catch-up); returns its event."""
        if a.seq != live.seq + 1:
            raise RuntimeError(f"table {live.id}: action {a.seq} follows {live.seq}")
        action = dataclasses.replace(live.match.parse_action(a.action, a.seat), at=a.at)
        result = live.match.apply(action)
        live.seq = a.seq
        return self._note(live, a, result)

    def _note(self, live: Live, a: ActionRow, result: Any) -> dict[str, Any]:
        """Keep the event for the game log and count consecutive timeouts."""
        event = event_info(a, result, live.names(), tiles=uses_tiles(live.rules))
        live.log.append(event)
        if a.actor == "server" and a.action in SERVER_ONLY:
            live.timeouts[a.seat] = live.timeouts.get(a.seat, 0) + 1
        elif a.actor == "seat":
            live.timeouts[a.seat] = 0
        return event

    async def submit(
        self,
        live: Live,
        seat: int | None,
        text: str,
        *,
        expect_seq: int | None,
        actor: str,
        reply_to: str | int | None = None,
        conn: Conn | None = None,
    ) -> ServiceError | None:
        """Check, apply, store and broadcast one action; the refusal if it was refused."""
        async with live.lock:
            try:
                await self._submit(live, seat, text, expect_seq, actor, reply_to, conn)
            except ServiceError as e:
                return e
        return None

    async def _submit(
        self,
        live: Live,
        seat: int | None,
        text: str,
        expect_seq: int | None,
        actor: str,
        reply_to: str | int | None,
        conn: Conn | None,
    ) -> None:
        match = live.match
        if match is None:
            raise ServiceError(ErrorCode.NOT_STARTED, "the game has not started yet")
        if live.row.status != "running" or match.is_over:
            raise ServiceError(ErrorCode.GAME_OVER, "the game is over")
        if expect_seq is not None and expect_seq != live.seq:
            raise ServiceError(
                ErrorCode.STALE,
                f"your message was for seq {expect_seq} but the game is at seq {live.seq}: "
                "nothing was done (send sync for the current view)",
            )
        current = match.current
        if seat is None:
            seat = current
        if seat != current:
            raise ServiceError(
                ErrorCode.NOT_YOUR_TURN,
                f"it is {live.names()[current]}'s turn (seat {current}), not yours",
            )
        try:
            action = match.parse_action(text, seat)
        except ValueError as e:
            # A NotationError, or Python's own refusal (an integer of more than 4,300 digits).
            raise ServiceError(ErrorCode.BAD_ACTION, str(e)) from None
        if actor == "seat" and str(action) in SERVER_ONLY:
            raise ServiceError(
                ErrorCode.SERVER_ONLY, "only the server's turn timer may time a turn out"
            )
        if actor == "seat" and live.row.seats[seat].away:
            # Acting is the simplest way back from a stand-in.
            await self._set_away(live, seat, False)
        now = self.clock()
        action = dataclasses.replace(action, at=now)
        try:
            result = match.apply(action)
        except IllegalActionError as e:
            why = e.why.to_json() if e.why is not None else None
            raise ServiceError(ErrorCode.ILLEGAL, str(e), why=why) from None
        except Exception:
            log.exception("table %s: the engine failed on %r; rebuilding", live.id, text)
            await self._rebuild(live)
            raise ServiceError(
                ErrorCode.INTERNAL, "the server could not apply this action"
            ) from None
        row = ActionRow(
            seq=live.seq + 1,
            seat=seat,
            action=str(result.action),
            at=now,
            accepted=bool(result.accepted),
            event=dumps(result.event.to_json()),
            actor=actor,
        )
        outcome = match.outcome if match.is_over else None
        try:
            await self.store.append_action(
                live.id, row, result=outcome.to_json() if outcome is not None else None
            )
        except SeqConflict:
            await self._rebuild(live)
            self._welcome_all(live)
            self._schedule(live, owner=False)
            raise ServiceError(
                ErrorCode.CONFLICT, "another action was accepted first: nothing was done"
            ) from None
        except Exception:
            log.exception("table %s: cannot store action %d", live.id, row.seq)
            await self._rebuild(live)
            raise ServiceError(
                ErrorCode.UNAVAILABLE, "the action could not be stored; try again"
            ) from None
        live.seq = row.seq
        event = self._note(live, row, result)
        self._broadcast(live, event, reply_to, conn)
        if match.is_over:
            await self._finished(live)
            return
        if (
            actor == "server"
            and live.timeouts.get(seat, 0) >= self.settings.max_timeouts
            and not live.row.seats[seat].away
            and live.row.seats[seat].kind == "human"
        ):
            n = live.timeouts[seat]
            await self._set_away(live, seat, True, Reason.of("notice.timeouts", count=n))
            return
        self._schedule(live, owner=True)

    async def _finished(self, live: Live) -> None:
        row = await self.store.get_table(live.id)
        self._noted(live.id, row)
        if row is not None:
            live.row = dataclasses.replace(row, seq=live.seq)
        self._send_all(live, {"type": "table", "table": self._table_json(live)})
        self._reveal(live)
        self._schedule(live, owner=True)
        self._release(live)  # a finished game nobody watches lives on in the database

    def _reveal(self, live: Live) -> None:
        game = live.row.game
        if game is None or game.status == "running":
            return
        self._send_all(
            live,
            {
                "type": "reveal",
                "seed": game.seed,
                "commitment": game.commitment,
                "scheme": fairness.scheme_of(game.seed, game.commitment),
                "record": f"/api/tables/{live.id}/record",
            },
        )

    def _broadcast(
        self,
        live: Live,
        event: dict[str, Any],
        reply_to: str | int | None = None,
        origin: Conn | None = None,
    ) -> None:
        """Every seat its own view, every spectator the public view (serialised once each)."""
        now = self.clock()
        match = live.match
        texts: dict[int | None, str] = {}

        def message(seat: int | None) -> dict[str, Any]:
            view = match.view(seat, now=now).to_json()
            return {
                "type": "update",
                "seq": live.seq,
                "event": event,
                "view": client_view(view),
                "now": now,
                "deadline": deadline(view, now),
                "reply_to": None,
            }

        for c in list(live.conns):
            key = c.seat if c.role == "seat" else None
            if c is origin and reply_to is not None:
                msg = message(key)
                msg["reply_to"] = reply_to
                c.send(msg)
                continue
            text = texts.get(key)
            if text is None:
                text = texts[key] = dumps(message(key))
            c.push(text)

    def _send_all(self, live: Live, message: dict[str, Any]) -> None:
        text = dumps(message)
        for c in list(live.conns):
            c.push(text)

    def _table_json(self, live: Live) -> dict[str, Any]:
        return table_info(dataclasses.replace(live.row, seq=live.seq)).model_dump()
