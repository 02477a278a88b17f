"""Option machinery shared by every rule family: sections, dotted names, overrides.

A family's rules are a frozen dataclass whose fields are *sections* (frozen dataclasses too);
an option is named ``section.field`` (``opening.threshold``). Overrides are coerced from text
or JSON values, so the same names work from Python, the CLI and JSON.

Each option is described by the docstring written under its field; :func:`option_docs` reads
them, and the rule reference (``docs/rules/``) is generated from them:

    >>> from openrummy.rules import find_preset
    >>> doc = option_docs(find_preset("rummikub"))["opening.threshold"]
    >>> doc.default, doc.description.split(" (")[0]
    (30, 'Points the opening melds must be worth together')
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import itertools
import textwrap
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Self, TypeAlias, TypeVar, cast, get_args, get_origin

from openrummy.errors import ConfigError

__all__ = ["OptionDoc", "OptionSet", "OptionValue", "coerce_option", "field_docs", "option_docs"]

T = TypeVar("T")

OptionValue: TypeAlias = bool | int | float | str | list[int | str] | None
"""An option's value as :meth:`OptionSet.options` lists it: enums by their names, tuples
(Indian Rummy's forms and point ladders) as lists."""


class OptionSet:
    """Mixin for a family's top-level rules dataclass (fields are sections)."""

    def options(self) -> dict[str, OptionValue]:
        """Every option as ``{"section.field": value}`` (enums as their names, tuples as lists)."""
        out: dict[str, OptionValue] = {}
        for sec in dataclasses.fields(self):  # type: ignore[arg-type]
            section = getattr(self, sec.name)
            if not dataclasses.is_dataclass(section):
                continue
            for f in dataclasses.fields(section):
                out[f"{sec.name}.{f.name}"] = _option_value(getattr(section, f.name))
        return out

    def with_options(self, overrides: Mapping[str, object] | None = None, /, **kw: object) -> Self:
        """A copy with options replaced by dotted name; validated like any rules object.

        Values may be given as their type or as text (``"30"``, ``"true"``, ``"WRAPAROUND"``,
        ``"none"``). An unknown name or a bad value raises :class:`ConfigError` naming it.
        """
        merged: dict[str, object] = dict(overrides or {})
        merged.update(kw)
        if not merged:
            return self
        from openrummy.rules.common import upgrade_pool_format

        upgrade_pool_format(
            merged, threshold_option=hasattr(self, "pool")
        )  # earlier names, e.g. POOL_101 (docs/record-format.md)
        by_section: dict[str, dict[str, object]] = {}
        for key, raw in merged.items():
            section_name, dot, field_name = key.partition(".")
            if not dot:
                raise ConfigError(f"unknown option {key!r}: options are named section.field")
            section = getattr(self, section_name, None)
            if section is None or not dataclasses.is_dataclass(section):
                raise ConfigError(f"unknown option {key!r} (no section {section_name!r})")
            hints = _hints(cast(type, type(section)))
            if field_name not in hints:
                known = ", ".join(f"{section_name}.{n}" for n in hints)
                raise ConfigError(f"unknown option {key!r}; {section_name} has: {known}")
            value = coerce_option(key, raw, hints[field_name])
            by_section.setdefault(section_name, {})[field_name] = value
        changes: dict[str, object] = {}
        for section_name, fields in by_section.items():
            section = getattr(self, section_name)
            changes[section_name] = dataclasses.replace(section, **fields)
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    def describe_differences(self, other: OptionSet) -> dict[str, tuple[OptionValue, OptionValue]]:
        """The options whose values differ: ``{name: (mine, other's)}``."""
        mine, theirs = self.options(), other.options()
        return {k: (mine[k], theirs.get(k)) for k in mine if mine[k] != theirs.get(k)}


def _option_value(value: object) -> OptionValue:
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, tuple):
        return [v.name if isinstance(v, enum.Enum) else cast(int | str, v) for v in value]
    return cast(OptionValue, value)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def coerce_option(name: str, raw: object, annotation: object) -> object:
    """Convert ``raw`` to ``annotation`` or raise :class:`ConfigError` naming the option."""
    origin = get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = get_args(annotation)
        if type(None) in args and (raw is None or _is_none_text(raw)):
            return None
        errors: list[str] = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return coerce_option(name, raw, arg)
            except ConfigError as e:
                errors.append(str(e))
        raise ConfigError(errors[-1] if errors else f"option {name}: bad value {raw!r}")
    if origin is typing.Literal:
        allowed = get_args(annotation)
        for a in allowed:
            if raw == a or (isinstance(raw, str) and str(a).upper() == raw.upper()):
                return a
        raise ConfigError(f"option {name}: {raw!r} is not one of {', '.join(map(str, allowed))}")
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        if isinstance(raw, annotation):
            return raw
        if isinstance(raw, str):
            key = raw.strip().upper()
            for member in annotation:
                if member.name == key or str(member.value).upper() == key:
                    return member
        names = ", ".join(m.name for m in annotation)
        raise ConfigError(f"option {name}: {raw!r} is not one of {names}")
    if annotation is bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in ("true", "yes", "on", "1"):
            return True
        if isinstance(raw, str) and raw.strip().lower() in ("false", "no", "off", "0"):
            return False
        raise ConfigError(f"option {name}: {raw!r} is not true or false")
    if annotation is int:
        if isinstance(raw, bool):
            raise ConfigError(f"option {name}: {raw!r} is not a whole number")
        if isinstance(raw, int):
            return raw
        if isinstance(raw, str):
            try:
                return int(raw.strip())
            except ValueError:
                pass
        raise ConfigError(f"option {name}: {raw!r} is not a whole number")
    if annotation is float:
        if isinstance(raw, bool):
            raise ConfigError(f"option {name}: {raw!r} is not a number")
        if isinstance(raw, (int, float)):
            return float(raw)
        if isinstance(raw, str):
            try:
                return float(raw.strip())
            except ValueError:
                pass
        raise ConfigError(f"option {name}: {raw!r} is not a number")
    if annotation is str:
        if isinstance(raw, str):
            return raw
        raise ConfigError(f"option {name}: {raw!r} is not text")
    if isinstance(annotation, type) and isinstance(raw, annotation):
        return raw
    raise ConfigError(f"option {name}: cannot read {raw!r}")


def _is_none_text(raw: object) -> bool:
    return isinstance(raw, str) and raw.strip().lower() in ("none", "null", "off", "")


@dataclass(frozen=True, slots=True)
class OptionDoc:
    """One option as the rule reference shows it."""

    name: str
    """The dotted name, ``section.field``."""
    annotation: object
    """The option's type (an enum, ``bool``, ``int``, ``int | None`` …)."""
    default: OptionValue
    """Its value in the rules it was read from (enums as their names)."""
    description: str
    """The docstring under the field, one paragraph ("" when there is none)."""


@cache
def field_docs(cls: type) -> dict[str, str]:
    """The docstrings written under the fields of class ``cls``, by field name.

    Python keeps no such docstring at run time, so the class's source is read: a string
    expression right after an annotated assignment documents that attribute (the
    convention Sphinx and mkdocstrings read too). Members of an enum are read the same way.
    """
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    tree = ast.parse(source)
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for node, after in itertools.pairwise(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            name = node.targets[0].id
        else:
            continue
        if (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[name] = " ".join(after.value.value.split())
    return docs


def option_docs(rules: OptionSet) -> dict[str, OptionDoc]:
    """Every option of ``rules`` with its type, value and description, by dotted name."""
    values = rules.options()
    out: dict[str, OptionDoc] = {}
    for sec in dataclasses.fields(rules):  # type: ignore[arg-type]
        section = getattr(rules, sec.name)
        if not dataclasses.is_dataclass(section):
            continue
        cls = cast(type, type(section))
        hints, docs = _hints(cls), field_docs(cls)
        for f in dataclasses.fields(section):
            name = f"{sec.name}.{f.name}"
            out[name] = OptionDoc(name, hints[f.name], values[name], docs.get(f.name, ""))
    return out
