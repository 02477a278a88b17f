"""The table solver's compiled core: is it installed, is it compiled yet, compile it now.

The core (:mod:`openrummy.solve._fast`) is the Python search of :mod:`._dp` compiled by
numba, which ships in the ``fast`` extra (``pip install 'openrummy[fast]'``, part of
``[server]`` and ``[sim]``). Without numba the solver runs the same search in Python: the
same answers, more slowly. numba compiles the core on its first use after an install (about
a minute, once) and caches the machine code next to the module; later processes load it in
about half a second. An interface that wants to say so while it happens calls
:func:`announce_with`; ``rummy warm`` compiles ahead of time.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from openrummy.messages import Reason

__all__ = [
    "COMPILING",
    "announce_with",
    "available",
    "likely_cold",
    "loaded",
    "warm",
]

COMPILING = Reason.of("setup.compiling")
"""What an interface says while the core compiles (``str()`` gives the English words,
:func:`openrummy.messages.render` the German)."""

_announcer: list[Callable[[Reason], None]] = []


@functools.cache
def available() -> bool:
    """True when numba is installed (the ``fast`` extra), so the compiled core can run."""
    from openrummy.extras import missing

    return not missing("fast")


def loaded() -> bool:
    """True once the compiled core has been imported in this process (numba loaded, its
    functions loading on first use)."""
    return "openrummy.solve._fast" in sys.modules


def _cache_dirs() -> list[Path]:
    # numba writes to NUMBA_CACHE_DIR when it is set, else beside the module
    custom = os.environ.get("NUMBA_CACHE_DIR")
    return [Path(custom)] if custom else [Path(__file__).with_name("__pycache__")]


_SOURCES: dict[str, tuple[str, tuple[str, ...]]] = {
    # module: (a function its cache holds, the modules whose code or constants it holds)
    "_fast": ("_ask", ("_fast", "_problem")),
    "_keep": ("_keep_loop", ("_keep", "_fast", "_problem")),
}


def drop_stale(module: str) -> None:
    """Remove numba's cached machine code of ``module`` (``"_fast"`` or ``"_keep"``) when
    the source of a module whose compiled functions or constants it holds (``_SOURCES``)
    changed after that code was cached. numba checks only a function's own file: the
    cache of :mod:`._keep` would go on running the :mod:`._fast` code it was compiled
    with (the search of an older version, with an older layout of its arrays)."""
    here = Path(__file__).parent
    try:
        changed = max((here / f"{dep}.py").stat().st_mtime for dep in _SOURCES[module][1])
    except OSError:
        return
    for folder in _cache_dirs():
        if not folder.is_dir():
            continue
        for index in folder.rglob(f"{module}.*.nbi"):
            try:
                if index.stat().st_mtime >= changed:
                    continue
                # the index and its overloads' code (NAME.nbi, NAME.<k>.nbc)
                for code in index.parent.glob(f"{index.stem}.*.nbc"):
                    code.unlink(missing_ok=True)
                index.unlink(missing_ok=True)
            except OSError:
                continue  # another process got there first


def likely_cold() -> bool:
    """True when numba is installed but has not cached the core for its current source
    (a fresh install, or an edited ``_fast.py``, ``_keep.py`` or ``_problem.py``). A cheap
    look at the cache files, without importing numba; :func:`announce_with` still catches
    a compile this misses."""
    if not available():
        return False
    here = Path(__file__).parent
    for module, (function, sources) in _SOURCES.items():
        try:
            changed = max((here / f"{name}.py").stat().st_mtime for name in sources)
        except OSError:
            return False
        fresh = False
        for folder in _cache_dirs():
            for index in folder.rglob(f"{module}.{function}-*.nbi") if folder.is_dir() else ():
                if index.stat().st_mtime >= changed:
                    fresh = True
        if not fresh:
            return True
    return False


def announce_with(say: Callable[[Reason], None], *, at_once: bool = True) -> None:
    """Call ``say(COMPILING)`` once, when numba starts compiling the core in this process
    (and, with ``at_once``, at once if the cache looks cold: for a caller that will surely
    load the core). Loading a cached core says nothing."""
    if _announcer:
        return
    spoken: list[bool] = []

    def once(message: Reason) -> None:
        if not spoken:
            spoken.append(True)
            say(message)

    _announcer.append(once)
    if at_once and likely_cold():
        once(COMPILING)


def on_compile() -> None:
    """Called by :mod:`._fast` when numba starts a compile."""
    for say in _announcer:
        say(COMPILING)


def warm() -> float:
    """Compile (or load from the cache) the whole core now; the seconds it took.

    Raises :class:`ModuleNotFoundError` when numba is not installed."""
    if not available():
        raise ModuleNotFoundError("numba is not installed", name="numba")
    started = time.perf_counter()
    from openrummy.solve import _fast, _keep

    _fast.warm()
    _keep.warm()
    return time.perf_counter() - started
