"""The web client's DOM-free modules under node's test runner: the player's hand order
(``web/js/order.js``) and the undo steps of a turn (``web/js/undo.js``), tests in
``tests/js/*.test.mjs``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = sorted((Path(__file__).parent / "js").glob("*.test.mjs"))


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_client_modules_under_node() -> None:
    assert JS_TESTS
    done = subprocess.run(
        ["node", "--test", *map(str, JS_TESTS)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout
