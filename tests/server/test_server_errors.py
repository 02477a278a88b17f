"""Every error the server sends is an ``ErrorCode`` member, and every member is documented."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import openrummy.server
from openrummy.server.errors import ErrorCode, ServiceError

SERVER = Path(openrummy.server.__file__).parent
PROTOCOL_MD = Path(__file__).parents[2] / "docs" / "protocol.md"
SOURCES = sorted(p for p in SERVER.glob("*.py") if p.name != "errors.py")


def _documented() -> dict[str, str]:
    """The rows of the error-code table in docs/protocol.md: code -> the rest of the row."""
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    section = text.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    return {
        m.group(1): m.group(2) for m in re.finditer(r"^\| `([a-z_]+)` \|(.*)\|$", section, re.M)
    }


def test_every_code_is_documented_with_when_and_what_to_do() -> None:
    rows = _documented()
    missing = sorted(c.value for c in ErrorCode if c.value not in rows)
    assert not missing, f"ErrorCode members missing from docs/protocol.md: {missing}"
    unknown = sorted(set(rows) - {c.value for c in ErrorCode})
    assert not unknown, f"docs/protocol.md documents codes the server never sends: {unknown}"
    for code, rest in rows.items():
        cells = [c.strip() for c in rest.split(" | ")]
        assert len(cells) == 3 and all(cells), f"{code}: needs sent, when and what to do"


def test_wire_values_are_the_documented_strings() -> None:
    assert ErrorCode.NOT_YOUR_TURN.value == "not_your_turn"
    assert all(c.value == c.name.lower() for c in ErrorCode)
    assert str(ServiceError(ErrorCode.STALE, "x").code) == "stale"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_bare_error_code_strings(path: Path) -> None:
    """No string in the server's code spells an error code: every one is an ErrorCode."""
    values = {c.value for c in ErrorCode}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bare = [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in values
    ]
    assert not bare, f"{path.name}: bare error codes {bare}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_error_is_raised_with_an_error_code(path: Path) -> None:
    """``ServiceError(...)`` and ``conn.error(...)`` take an ``ErrorCode.X`` (or pass one on)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        is_error = (isinstance(func, ast.Name) and func.id == "ServiceError") or (
            isinstance(func, ast.Attribute)
            and func.attr == "error"
            and isinstance(func.value, ast.Name)
            and func.value.id == "conn"
        )
        if not is_error:
            continue
        first = node.args[0]
        named = (
            isinstance(first, ast.Attribute)
            and isinstance(first.value, ast.Name)
            and first.value.id == "ErrorCode"
        )
        passed_on = isinstance(first, ast.Name | ast.Attribute)  # a code received, e.g. e.code
        assert named or passed_on, f"{path.name}:{node.lineno}: error code is not an ErrorCode"


def test_openapi_lists_every_refusal_of_a_route(tmp_path: Path) -> None:
    from openrummy.server.app import create_app
    from openrummy.server.settings import Settings

    app = create_app(Settings(db=f"sqlite+aiosqlite:///{tmp_path / 'spec.sqlite3'}"))
    spec = app.openapi()
    assert spec["components"]["schemas"]["ErrorCode"]["enum"] == [c.value for c in ErrorCode]
    join = spec["paths"]["/api/tables/{table_id}/join"]["post"]["responses"]
    assert {"404", "409", "422"} <= set(join)
    schema = join["409"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/ErrorBody")
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            answers = set(op["responses"])
            if path.startswith("/api/tables/{table_id}"):
                assert "404" in answers, (method, path)
            if any(p.get("name") == "authorization" for p in op.get("parameters", [])):
                assert {"401", "403"} <= answers, (method, path)
