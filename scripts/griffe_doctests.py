"""A griffe extension for ``make docs``: doctest examples in docstrings become code blocks.

Our docstrings carry ``>>>`` examples (run by pytest's doctest collector). Rendered as plain
Markdown, their output lines are read as text, and output such as ``['[5S 6S JK=7S]']``
looks like a Markdown link. Wrapping each example (prompts and output) in a ``pycon`` fence
renders it as a console session.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Wrap each run of ``>>>`` lines and their output in a fenced ``pycon`` block.

    A run ends at the first blank line; examples already inside a fence are left alone.
    """
    out: list[str] = []
    inside = False
    fenced = False
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("```"):
            fenced = not fenced
        if not fenced and not inside and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctest examples of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
