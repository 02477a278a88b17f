"""``SolverSettings.python_first``: the Python core tries first while the compiled core is
not loaded, so that ``rummy solve`` on a small position never loads numba; the answer's
count and value are those of the compiled core.

In a test process the compiled core is usually loaded already, which switches the setting
off; these tests pretend it is not (``compiled.loaded``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

import openrummy.solve.table as table_module
from helpers.positions import check_play, random_position
from openrummy.solve import SolverSettings, best_play, compiled
from openrummy.solve._dp import solve_core
from openrummy.solve.jsonl import CLI_SETTINGS, solve_lines

TINY = '{"game": "robbers", "table": [["4S","5S","6S","7S"]], "hand": ["3S","4H"]}'


def spy_cores(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Record, per call of the core search, whether the compiled core was allowed."""
    calls: list[bool] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs["settings"].compiled)
        return solve_core(*args, **kwargs)

    monkeypatch.setattr(table_module, "solve_core", spy)
    return calls


def test_same_count_and_value_from_either_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "loaded", lambda: False)
    calls = spy_cores(monkeypatch)
    first = SolverSettings(python_first=200)
    python_only = handed_on = 0
    for seed in range(10):
        p = random_position(seed, table_cards=12, hand_cards=6)
        want = best_play(p.rules, p.table, p.hand, opened=p.opened)
        calls.clear()
        got = best_play(p.rules, p.table, p.hand, opened=p.opened, settings=first)
        check_play(p.rules, p.table, p.hand, got, opened=p.opened)
        assert (got.count, got.value) == (want.count, want.value), p.label
        if compiled.available():
            assert calls and calls[0] is False  # the Python core always tries first
        python_only += all(not c for c in calls)
        handed_on += any(calls)
    # both ways were taken: answered by the Python core alone, and handed on past 200 states
    assert python_only and (handed_on or not compiled.available())


def test_inert_once_the_compiled_core_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "loaded", lambda: True)
    calls = spy_cores(monkeypatch)
    list(solve_lines([TINY], settings=CLI_SETTINGS))
    assert calls and all(calls)


def test_a_position_past_the_python_try_is_solved_again_with_the_compiled_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    handed: list[bool] = []
    monkeypatch.setattr(compiled, "loaded", lambda: any(handed))

    def note(*args: Any, **kwargs: Any) -> Any:
        handed.append(kwargs["settings"].compiled)
        return solve_core(*args, **kwargs)

    monkeypatch.setattr(table_module, "solve_core", note)
    # one state is never enough: the compiled core takes over, then solves it again alone
    (out,) = solve_lines([TINY], settings=SolverSettings(python_first=1))
    assert handed[0] is False and handed[1] is True
    last = handed.index(True)
    assert all(handed[last:]) and not any(handed[:last])
    (want,) = solve_lines([TINY])
    assert json.loads(out) | {"ms": 0} == json.loads(want) | {"ms": 0}


def test_rummy_solve_on_a_small_position_loads_neither_numba_nor_highs() -> None:
    code = (
        "import sys\n"
        "from openrummy.solve.jsonl import CLI_SETTINGS, solve_lines\n"
        f"print(next(solve_lines([{TINY!r}], settings=CLI_SETTINGS)))\n"
        "print(sorted(m for m in ('numba', 'highspy', 'scipy') if m in sys.modules))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    answer, loaded = res.stdout.splitlines()
    assert json.loads(answer)["placed"] == ["3S"]
    assert loaded == "[]"
