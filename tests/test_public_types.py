"""The public API of openrummy.games, openrummy.rules and openrummy.solve is typed: no ``Any``.

Every public module of the three packages is imported; every public function, class and
method (no leading underscore; in ``__all__`` when the module has one) has its annotations
resolved with :func:`typing.get_type_hints`, and ``typing.Any`` may appear nowhere in them,
not even inside a union or a generic.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import sys
import typing
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest

PACKAGES = ("openrummy.games", "openrummy.rules", "openrummy.solve")

ALLOWED: dict[str, str] = {}
"""Qualified names that may keep an ``Any``, each with the reason it is unavoidable."""


def _modules() -> Iterator[ModuleType]:
    for name in PACKAGES:
        package = importlib.import_module(name)
        yield package
        for info in pkgutil.iter_modules(package.__path__, prefix=f"{name}."):
            if not info.name.rsplit(".", 1)[1].startswith("_"):
                yield importlib.import_module(info.name)


def _public_names(module: ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    return sorted(names)


def _namespace(obj: object) -> dict[str, object]:
    """Every openrummy module's names, then the defining module's: what the annotations name,
    imports made only for type checkers included."""
    ns: dict[str, object] = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("openrummy") and module is not None:
            ns.update((k, v) for k, v in vars(module).items() if not k.startswith("__"))
    ns.update(vars(sys.modules[getattr(obj, "__module__", "builtins")]))
    return ns


def _has_any(annotation: object, ns: dict[str, object], seen: frozenset[str] = frozenset()) -> bool:
    """``typing.Any`` in an annotation, recursively (unions, generics, aliases, forward refs)."""
    if annotation is typing.Any:
        return True
    if isinstance(annotation, str):
        return _text_has_any(annotation, ns, seen)
    if isinstance(annotation, typing.ForwardRef):
        return _text_has_any(annotation.__forward_arg__, ns, seen)
    return any(_has_any(arg, ns, seen) for arg in typing.get_args(annotation))


def _text_has_any(text: str, ns: dict[str, object], seen: frozenset[str]) -> bool:
    if text in seen:
        return False  # a recursive alias, already looked at
    seen = seen | {text}
    try:
        value = eval(text, dict(ns))  # what typing.get_type_hints does with a string
    except TypeError:
        # A union with an alias kept as a string ("Param | None"): look at each name in it.
        for name in re.findall(r"[A-Za-z_][\w.]*", text):
            if name.rsplit(".", 1)[-1] == "Any" or _has_any(ns.get(name), ns, seen):
                return True
        return False
    return _has_any(value, ns, seen)


def _callables(module: ModuleType) -> Iterator[tuple[str, Callable[..., object]]]:
    for name in _public_names(module):
        obj = getattr(module, name)
        owner = getattr(obj, "__module__", None)
        if owner is None or not owner.startswith("openrummy."):
            continue  # re-exported from elsewhere, or a constant
        if inspect.isclass(obj):
            yield f"{owner}.{obj.__qualname__}", obj
            for attr, member in vars(obj).items():
                if attr.startswith("_") and attr != "__init__":
                    continue
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                elif isinstance(member, property):
                    member = member.fget
                if inspect.isfunction(member):
                    yield f"{owner}.{obj.__qualname__}.{attr}", member
        elif inspect.isfunction(obj):
            yield f"{owner}.{obj.__qualname__}", obj


def _annotations(obj: Callable[..., object]) -> dict[str, object]:
    """The annotations of a function, or the fields of a dataclass (its signature)."""
    if inspect.isclass(obj) and not hasattr(obj, "__dataclass_fields__"):
        return {}
    ns = _namespace(obj)
    try:
        return dict(typing.get_type_hints(obj, globalns=ns))
    except TypeError:  # an alias kept as a string, in a union: read the annotations one by one
        return dict(inspect.get_annotations(obj))


def _offenders() -> list[str]:
    found: set[str] = set()
    for module in _modules():
        for qualname, obj in _callables(module):
            ns = _namespace(obj)
            for where, annotation in _annotations(obj).items():
                if _has_any(annotation, ns):
                    found.add(f"{module.__name__}: {qualname} ({where})")
    return sorted(found)


def test_the_check_finds_any() -> None:
    def leaky(x: typing.Any, y: int) -> list[dict[str, typing.Any]] | None:
        return None

    def clean(x: object, y: int) -> list[dict[str, int]] | None:
        return None

    importlib.import_module("openrummy.messages")  # its Param is an alias kept as a string
    ns = _namespace(test_the_check_finds_any)
    hints = typing.get_type_hints(leaky)
    assert _has_any(hints["x"], ns) and _has_any(hints["return"], ns)
    assert not _has_any(hints["y"], ns)
    assert not any(_has_any(a, ns) for a in typing.get_type_hints(clean).values())
    assert _has_any("list[Any] | None", ns) and not _has_any("Param | None", ns)


def test_the_check_walks_every_package() -> None:
    names = {m.__name__ for m in _modules()}
    assert {"openrummy.rules.options", "openrummy.games.judge", "openrummy.solve.table"} <= names
    assert not any(n.rsplit(".", 1)[1].startswith("_") for n in names if n not in PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_any_in_public_signatures(package: str) -> None:
    offenders = [
        o
        for o in _offenders()
        if o.split(":")[0].startswith(package) and o.split(" ")[1] not in ALLOWED
    ]
    assert offenders == [], "typing.Any in public signatures:\n" + "\n".join(offenders)
