"""The game server: tables over HTTP and WebSocket, durable storage, scale-out on PostgreSQL.

The server is the referee. It alone holds the full game, applies every action through the
engine (``openrummy.games``), stores it in an append-only log, and sends each seat its own
view. Modules, from the outside in:

* :mod:`~openrummy.server.app`: the FastAPI app (REST under ``/api``, WebSocket under
  ``/ws``) and :func:`~openrummy.server.app.serve`, which ``rummy serve`` calls;
* :mod:`~openrummy.server.protocol`: the pydantic models of the REST bodies and of every
  WebSocket message (``docs/protocol.md``);
* :mod:`~openrummy.server.service`: the table service, made of four parts:
  :mod:`~openrummy.server.lobby` (creating, joining, starting tables; records),
  :mod:`~openrummy.server.sessions` (WebSocket connections, the disconnect policy),
  :mod:`~openrummy.server.referee` (every action checked, applied, stored and broadcast) and
  :mod:`~openrummy.server.scheduler` (bots on the server, stand-ins, turn timers), over the
  shared state in :mod:`~openrummy.server.core`; refusals are
  :mod:`~openrummy.server.errors`;
* :mod:`~openrummy.server.store`: SQLAlchemy (SQLite or PostgreSQL), Alembic migrations
  shipped in ``openrummy/server/migrations``;
* :mod:`~openrummy.server.bus`: PostgreSQL LISTEN/NOTIFY between server processes;
* :mod:`~openrummy.server.fairness`: fresh seeds and the commitments published at the start
  (checked by :mod:`openrummy.verify`, ``rummy replay --verify``).

This package's ``__init__`` imports nothing heavy, so its modules stay cheap to import.
"""

from openrummy.extras import require as _require

_require("server", "openrummy.server")
