"""Server settings: command-line options over environment variables over defaults.

Every setting has an environment variable ``OPENRUMMY_<NAME>`` (``OPENRUMMY_DB``,
``OPENRUMMY_BOT_PAUSE`` …), so a service manager can configure the server without flags.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Settings", "default_db_path", "default_db_url", "default_workers", "normalize_db_url"]


def default_workers(cores: int | None) -> int:
    """Helper worker processes for a machine of ``cores`` cores: one up to two cores, so the
    event loop keeps a core however busy the helpers are; else two.

    >>> default_workers(2), default_workers(1), default_workers(8), default_workers(None)
    (1, 1, 2, 1)
    """
    return 2 if cores is not None and cores > 2 else 1


def default_db_path() -> Path:
    """Where the embedded SQLite database lives unless ``--db`` says otherwise.

    ``$XDG_DATA_HOME/openrummy/server.sqlite3`` (``~/.local/share/openrummy/…``): a per-user
    data folder, so ``make run`` in any checkout finds the same tables again.
    """
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "openrummy" / "server.sqlite3"


def default_db_url() -> str:
    return f"sqlite+aiosqlite:///{default_db_path()}"


def normalize_db_url(url: str) -> str:
    """Accept the plain forms people type and pick the async driver for them.

    >>> normalize_db_url("sqlite:///tmp/x.db")
    'sqlite+aiosqlite:///tmp/x.db'
    >>> normalize_db_url("postgresql://u@127.0.0.1:5432/db")
    'postgresql+asyncpg://u@127.0.0.1:5432/db'
    >>> normalize_db_url("postgres://u@h/db")
    'postgresql+asyncpg://u@h/db'
    """
    for plain, driver in (
        ("sqlite://", "sqlite+aiosqlite://"),
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


@dataclass(frozen=True)
class Settings:
    """Everything that tunes one server process (see ``docs/server.md``)."""

    host: str = "127.0.0.1"
    port: int = 8000
    db: str = field(default_factory=default_db_url)
    log_level: str = "info"

    bot_pause: float = 0.8
    """Seconds a bot waits before acting, so people can follow (tables may override)."""
    disconnect_grace: float = 60.0
    """Seconds a disconnected person keeps the seat before a stand-in plays it."""
    max_timeouts: int = 3
    """Consecutive turn-timer expiries after which a stand-in plays the seat."""
    takeover_delay: float = 2.0
    """Scale-out: how much later than the process that accepted the last action another
    process steps in to move a bot or fire a timer (in case that process died)."""

    max_message_bytes: int = 16_384
    """Largest WebSocket message answered normally; larger ones get ``too_large``."""
    ws_max_size: int = 1_048_576
    """Hard frame limit of the WebSocket layer: beyond it the connection is closed (1009)."""
    rate_per_second: float = 20.0
    """Sustained messages per second from one connection (token bucket)."""
    rate_burst: int = 40
    """Messages one connection may send at once before the rate limit applies."""
    send_queue: int = 512
    """Messages waiting for a slow client before the server gives up on that connection."""
    finished_cache: int = 16
    """Finished or closed tables kept in memory for reads (views, rules) while nobody is
    connected; beyond it the least recently read one is dropped (and rebuilt from the store
    when asked for again)."""
    name_max: int = 32
    max_body_bytes: int = 65_536
    """Largest REST request body; a larger one is refused (413 ``too_large``) unread."""

    workers: int = field(default_factory=lambda: default_workers(os.cpu_count()))
    """Worker processes (or threads, see ``worker_kind``) for the CPU-heavy helpers: table
    checks, hints and Indian hand arrangement run there, never on the event loop. One on a
    machine of two cores or fewer (the judging can then never take every core from the
    event loop), else two."""
    worker_kind: str = "process"
    """``process`` (the event loop keeps its core: pure-Python judging holds the GIL) or
    ``thread``."""
    worker_queue: int = 8
    """Helper requests in progress at once, server-wide (running or waiting for a worker);
    beyond it a request is answered ``busy`` (503) at once."""
    worker_share: float = 0.1
    """Seconds of worker CPU one client address may use per second for the helpers other
    than table checks (hints, Indian hands, puzzle answers), sustained; a client past its
    budget is answered ``busy`` until it has saved up again (a hint may take a second)."""
    worker_burst: float = 2.0
    """Seconds of worker CPU one client address may use at once."""
    worker_min_charge: float = 0.05
    """Seconds of the budget each helper request costs at least, however little CPU it took:
    cheap requests sent back to back still cost the event loop their parsing and dispatch,
    so one address may send at most ``worker_share / worker_min_charge`` a second
    sustained (2 at the defaults)."""
    check_share: float = 0.005
    """Seconds of worker CPU one client address may use per second for table checks
    (``/check`` of a table or a puzzle, a puzzle's ``/submit``), sustained. A check of a
    table in play costs 0.3-1 ms and is charged ``check_min_charge``: two a second; the
    costliest table a deck allows (26 melds, every joker open: about 5 ms) one a second."""
    check_burst: float = 0.1
    """Seconds of worker CPU one client address may use at once for table checks (40 checks
    of a table in play, 20 of the costliest)."""
    check_min_charge: float = 0.0025
    """Seconds of the check budget each check costs at least, however little CPU it took
    (its parsing and dispatch cost the event loop too)."""
    worker_per_client: int = 2
    """Helper requests of one client address in progress at once."""
    worker_nice: int = 10
    """The helper worker processes' ``nice``: a lower priority than the event loop's, so the
    loop wins most of the CPU whenever both want it. It counts only above the server's own
    ``nice`` (a server started under ``nice -n 10`` needs a higher one, at most 19); not 19
    by default: on a machine busy with other work that starves the judging."""
    worker_prestart: bool = True
    """Start the worker processes (each loads the solver) when the server starts, so the
    first check does not wait for them; off: on the first helper request."""

    analysis_samples: int = 8
    """The web replay's analysis: sampled deals per decision for the win chance (0: the
    exact facts only). ``docs/analysis.md`` gives what a whole game costs."""
    analysis_max_samples: int = 32
    """The web replay's analysis: sampled deals per decision at most (more while a grade is
    unclear)."""
    analysis_max_turns: int = 30
    """The web replay's analysis: actions a play-out runs before it is judged."""
    analysis_running: int = 1
    """Analyses in progress at once, server-wide (each uses every worker); beyond it a new
    one is answered ``busy`` (503). A stored analysis is always answered at once."""
    analysis_per_hour: float = 6.0
    """New analyses one client address may start per hour, sustained."""
    analysis_burst: int = 3
    """New analyses one client address may start at once."""

    hello_failures_per_minute: float = 10.0
    """Failed hellos (a token that holds no seat, a table that does not exist) one address may
    send per minute (bursts of as many); beyond it a hello with a token, or for a table not in
    memory, is answered ``rate_limited`` without looking."""
    hello_failures_per_connection: int = 3
    """Failed hellos one WebSocket connection may send; the next closes it (1008): a page
    whose token holds no seat does not try again on the same connection, and an address
    that guesses tokens then pays for a new connection, whose rate is limited too."""
    ws_per_client: int = 32
    """WebSocket connections one address may hold open at once (one per table a person
    follows, a few more behind a shared address); beyond it a new one is refused before
    it is accepted (HTTP 403)."""
    ws_connects_per_minute: float = 30.0
    """New WebSocket connections one address may open per minute (bursts of as many);
    beyond it a new one is refused before it is accepted (HTTP 403)."""
    tables_per_hour: float = 60.0
    """Tables one address may create per hour, sustained."""
    tables_burst: int = 20
    """Tables one address may create at once."""
    open_tables_per_client: int = 10
    """Unfinished (open or running) tables created by one address and held by this process."""
    bots_only_tables_per_client: int = 2
    """Of those, tables whose every seat is a bot (each plays on by itself, costing the
    server a bot move a second without anybody at the table)."""
    unlimited_clients: str = ""
    """Client addresses (comma-separated) that the limits per address do not apply to: a
    load test's own scripted players, all on 127.0.0.1."""
    max_rounds: int = 100
    """Largest ``match.rounds``, ``match.outs_to_win``, ``deals.count`` or ``match.hands``
    a table may ask for."""
    bots_only_pause: float = 1.0
    """Least ``bot_pause`` of a table whose every seat is a bot (nobody follows it move by
    move; a smaller pause only costs the other tables' time)."""
    open_table_ttl: float = 3_600.0
    """Seconds an open table waits for its players with nobody connected before it is
    closed. 0: forever."""
    table_lifetime: float = 86_400.0
    """Seconds a table may exist before it is closed (a running game is aborted and its seed
    revealed). 0: forever."""
    sweep_every: float = 60.0
    """Seconds between looks for expired tables."""
    gc_full_every: float = 600.0
    """``rummy serve``: seconds between complete garbage collections; in between, objects
    that survive a full collection are frozen so later ones stay short (``server/heap.py``).
    0 leaves the garbage collector as Python sets it up."""
    sqlite_synchronous: str = "NORMAL"
    """SQLite ``PRAGMA synchronous``: NORMAL survives a killed process; FULL also a power cut."""

    clock: Callable[[], float] | None = field(default=None, compare=False, repr=False)
    """Time source in epoch seconds (``time.time`` unless injected by tests)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **explicit: Any) -> Settings:
        """Defaults, overridden by ``OPENRUMMY_*`` variables, overridden by ``explicit``.

        ``None`` in ``explicit`` means "not given" (an unset command-line option).
        """
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name == "clock":
                continue
            raw = env.get(f"OPENRUMMY_{f.name.upper()}")
            if raw is not None:
                kind = type(getattr(cls(), f.name))
                if kind is bool:
                    values[f.name] = raw.strip().lower() in ("1", "true", "yes", "on")
                else:
                    values[f.name] = kind(raw)
        values.update({k: v for k, v in explicit.items() if v is not None})
        if "db" in values:
            values["db"] = normalize_db_url(str(values["db"]))
        return cls(**values)

    def limited(self, address: str) -> bool:
        """Whether the limits per client address apply to ``address``."""
        return address not in {a.strip() for a in self.unlimited_clients.split(",")}

    @property
    def is_sqlite(self) -> bool:
        return self.db.startswith("sqlite")

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"
