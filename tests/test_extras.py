"""Each extra imports without the others, and a part used without its extra says which
extra to install in one line.

A subprocess blocks the modules of the extras it should not see (a ``sys.meta_path``
finder that refuses them, as if they were not installed) and then imports the part under
test. The same in really fresh environments (``pip install .[extra]``) is the slow
``tests/test_install.py``.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from openrummy.extras import EXTRAS

BLOCKER = textwrap.dedent(
    """
    import importlib.abc, sys

    BLOCKED = {blocked!r}

    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            return None

    sys.meta_path.insert(0, Blocker())
    """
)


def run_without(blocked: set[str], code: str) -> subprocess.CompletedProcess[str]:
    script = BLOCKER.format(blocked=sorted(blocked)) + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )


def modules_of(*extras: str) -> set[str]:
    return {m for extra in extras for m in EXTRAS[extra]}


ALL = set(EXTRAS)

# What each extra makes importable, with everything outside it (and the extras it
# includes) blocked. The core is the engine, the solvers and the CLI.
PARTS: dict[str, tuple[set[str], str]] = {
    "core": (
        set(),
        """
        import openrummy, openrummy.cli, openrummy.bots, openrummy.record, openrummy.sim
        from openrummy import Position, find_preset
        from openrummy.solve.jsonl import solve_lines
        from openrummy.solve.arrange_jsonl import arrange_lines
        from openrummy.solve import compiled
        assert not compiled.available()
        line = '{"game": "robbers", "table": [["4S","5S","6S","7S"]], "hand": ["3S","4H"]}'
        assert '"count": 1' in next(solve_lines([line]))
        hand = '{"indicator": "2C", "hand": "3H 4H 5H 9S JK JS QC QD QH KS 7D 5C 3C"}'
        assert '"points": 24' in next(arrange_lines([hand]))
        """,
    ),
    "server": (
        {"fast", "server"},
        "import openrummy.server.app, openrummy.server.service",
    ),
    "sim": ({"fast", "sim"}, "import openrummy.sim.report, openskill.models, matplotlib"),
    "tui": ({"fast", "tui"}, "import openrummy.tui.app"),
    "rl": (
        {"fast", "rl"},
        "import openrummy.envs.single, openrummy.envs.text, openrummy.envs.evaluate",
    ),
}


@pytest.mark.parametrize("part", PARTS)
def test_each_part_imports_without_the_other_extras(part: str) -> None:
    allowed, code = PARTS[part]
    res = run_without(modules_of(*(ALL - allowed)), code)
    assert res.returncode == 0, res.stderr


def test_a_part_without_its_extra_names_the_extra() -> None:
    res = run_without(
        modules_of("server", "sim"),
        """
        from openrummy.cli import main
        for args in (["serve"], ["simulate", "--deals", "1"]):
            try:
                main(args)
            except SystemExit as e:
                assert e.code == 3, e.code
        try:
            import openrummy.server.app
        except ImportError as e:
            print(type(e).__name__, e)
        """,
    )
    assert res.returncode == 0, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in res.stderr, res.stderr
    for line, (command, extra) in zip(
        lines, [("serve", "server"), ("simulate", "sim")], strict=True
    ):
        assert line.startswith(f"error: rummy {command} needs the {extra} extra"), line
        assert line.endswith(f"pip install 'openrummy[{extra}]'"), line
    assert res.stdout.startswith("MissingExtraError openrummy.server needs the server extra")


def test_the_envs_without_the_rl_extra_name_it() -> None:
    res = run_without(
        modules_of("rl"),
        """
        try:
            import openrummy.envs
        except ImportError as e:
            print(type(e).__name__, e)
        """,
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("MissingExtraError openrummy.envs needs the rl extra"), res.stdout
    assert res.stdout.strip().endswith("pip install 'openrummy[rl]'")
