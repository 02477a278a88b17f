"""The optional parts of OpenRummy and the extra that installs each.

``pip install openrummy`` gives the engine, the solvers and the ``rummy`` command; the rest
comes with an extra (``pip install 'openrummy[server]'``)::

    fast      numba: the solver's compiled core (the same answers as its Python core, faster)
    server    rummy serve: FastAPI, uvicorn, SQLAlchemy with SQLite, Alembic (and fast)
    postgres  the server's PostgreSQL driver (asyncpg)
    sim       rummy simulate: ratings (openskill) and charts (matplotlib) (and fast)
    ray       simulate --backend ray on a cluster
    tui       rummy play: the terminal table (Textual) (and fast)
    rl        openrummy.envs: Gymnasium and PettingZoo environments (and fast)
    openspiel openrummy.envs.openspiel: the games as OpenSpiel games (and rl)
    docs      make docs: mkdocs and mkdocstrings
    dev       the test and lint tools

A part used without its extra stops with :class:`MissingExtraError`, one line that names
the extra to install:

    >>> try:
    ...     require("sim", "rummy simulate", modules=("no_such_module",))
    ... except MissingExtraError as e:
    ...     print(e)
    rummy simulate needs the sim extra (no_such_module not installed): pip install 'openrummy[sim]'
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from openrummy.messages import Reason

__all__ = ["EXTRAS", "MissingExtraError", "missing", "require"]

EXTRAS: Final[dict[str, tuple[str, ...]]] = {
    "fast": ("numba",),
    # pydantic is left out: the server needs it, but so does typer (the core's CLI).
    "server": ("fastapi", "uvicorn", "sqlalchemy", "aiosqlite", "alembic"),
    "postgres": ("asyncpg",),
    "sim": ("openskill", "matplotlib"),
    "ray": ("ray",),
    "tui": ("textual",),
    "rl": ("gymnasium", "pettingzoo"),
    "openspiel": ("pyspiel",),
}
"""Each extra and the modules it brings (the ones OpenRummy imports)."""


class MissingExtraError(ImportError):
    """A part of OpenRummy was used without the extra that installs its dependencies."""

    def __init__(self, message: str, extra: str, why: Reason | None = None) -> None:
        super().__init__(message)
        self.extra = extra
        self.why = why
        """The message as data, to word in the reader's language."""


def missing(extra: str, modules: Sequence[str] | None = None) -> list[str]:
    """The modules of ``extra`` (or the given ones) that cannot be imported here."""
    wanted = EXTRAS[extra] if modules is None else modules
    out = []
    for name in wanted:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(name)
    return out


def require(extra: str, what: str, modules: Sequence[str] | None = None) -> None:
    """Raise :class:`MissingExtraError` unless every module of ``extra`` is installed."""
    absent = missing(extra, modules)
    if absent:
        from openrummy.messages import Reason

        why = Reason.of("setup.missing_extra", text=what, field=extra, token=", ".join(absent))
        raise MissingExtraError(str(why), extra, why)
