"""``pip install`` into fresh environments: the core alone runs the README's ``rummy solve``
and ``rummy arrange`` examples, and each extra installs and imports on its own.

Slow (a venv and a pip install each, about a minute with a warm pip cache): the exhaustive
tier. The everyday tier checks the same separation with blocked imports
(``tests/test_extras.py``).
"""

from __future__ import annotations

import json
import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow

SOLVE = '{"game": "robbers", "table": [["4S","5S","6S","7S"]], "hand": ["3S","4H"]}\n'
ARRANGE = '{"game":"indian13","indicator":"2C","hand":"3H 4H 5H 9S JK JS QC QD QH KS 7D 5C 3C"}\n'


def fresh_install(tmp_path: Path, extra: str | None) -> Path:
    """A new venv with OpenRummy (and ``extra``) installed from this checkout; its bin/."""
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    target = f"{ROOT}[{extra}]" if extra else str(ROOT)
    subprocess.run(
        [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet", target],
        check=True,
        capture_output=True,
    )
    return env / "bin"


def run(bin_dir: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / args[0]), *args[1:]],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        cwd=bin_dir,
    )


def test_the_core_solves_and_arranges_and_names_missing_extras(tmp_path: Path) -> None:
    bin_dir = fresh_install(tmp_path, None)
    res = run(bin_dir, "rummy", "solve", stdin=SOLVE)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["placed"] == ["3S"]
    res = run(bin_dir, "rummy", "arrange", stdin=ARRANGE)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["points"] == 24
    res = run(bin_dir, "rummy", "serve")
    assert res.returncode == 3
    assert res.stderr.strip().endswith("pip install 'openrummy[server]'")
    freeze = run(bin_dir, "python", "-m", "pip", "freeze").stdout.lower()
    for heavy in ("numba", "llvmlite", "fastapi", "matplotlib", "sqlalchemy", "ray"):
        assert f"{heavy}==" not in freeze


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ("fast", "from openrummy.solve import compiled; compiled.warm()"),
        ("server", "import openrummy.server.app, openrummy.server.service"),
        ("sim", "import openrummy.sim.report, openskill.models, matplotlib"),
        ("tui", "import openrummy.tui.app"),
    ],
)
def test_each_extra_installs_and_imports_on_its_own(tmp_path: Path, extra: str, code: str) -> None:
    bin_dir = fresh_install(tmp_path, extra)
    res = run(bin_dir, "python", "-c", code)
    assert res.returncode == 0, res.stderr
