"""numba's cache of a compiled module is dropped when a module it calls changed later."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from openrummy.solve import compiled

HERE = Path(compiled.__file__).parent


def _touch(path: Path, mtime: float) -> Path:
    path.write_bytes(b"x")
    os.utime(path, (mtime, mtime))
    return path


def test_a_cache_older_than_a_module_it_calls_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    # the newest of the sources _keep's code holds (its own file does not count: numba
    # checks that one itself)
    changed = max((HERE / f"{m}.py").stat().st_mtime for m in ("_keep", "_fast", "_problem"))
    folder = tmp_path / "openrummy" / "solve"
    folder.mkdir(parents=True)
    old = _touch(folder / "_keep._keep_loop-555.py311.nbi", changed - 60)
    old_code = [
        _touch(folder / f"_keep._keep_loop-555.py311.{k}.nbc", changed - 60) for k in (1, 2)
    ]
    new = _touch(folder / "_keep._answer-383.py311.nbi", changed + 60)
    new_code = _touch(folder / "_keep._answer-383.py311.1.nbc", changed + 60)
    other = _touch(folder / "_fast._ask-727.py311.nbi", changed - 60)  # not the module asked

    compiled.drop_stale("_keep")

    assert not old.exists() and not any(c.exists() for c in old_code)
    assert new.exists() and new_code.exists() and other.exists()
    compiled.drop_stale("_keep")  # nothing left to drop: no error
    assert new.exists()
