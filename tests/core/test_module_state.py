"""A game module holds constants only: what the rules derive from the pieces belongs to the
match (``match.state.memo``, tabletop.core.engine.memo), so that matches played side by side, in
one thread or several, share nothing, and an undo or a replay starts from a clean slate.

Every module of every game package is imported and each name its own top level assigns is
looked at, and each class attribute of each class it defines: a dict, list, set, bytearray,
deque or an instance of a class of its own with a ``__dict__`` or slots (a cache object) is
mutable state. Constants pass: numbers (fractions and decimals among them), strings, tuples,
frozensets, bytes, ``MappingProxyType``, enums, frozen dataclasses, compiled patterns, paths,
functions (a ``functools.cache`` of a pure function among them), classes and type variables,
and the module's ``Game``.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import importlib
import pkgutil
import re
from collections import deque
from decimal import Decimal
from fractions import Fraction
from pathlib import Path, PurePath
from types import (
    FunctionType,
    GetSetDescriptorType,
    MappingProxyType,
    MemberDescriptorType,
    MethodDescriptorType,
    ModuleType,
    WrapperDescriptorType,
)
from typing import Any, TypeVar

import tabletop.games
from tabletop.core.engine.match import Game

# The mutable module-level state of the games still to migrate, name by name: caches of what
# they derive from the pieces (to move onto match.state.memo) and constant tables written as
# dicts, lists or sets (to become tuples, frozensets or MappingProxyType). This list may only
# shrink: a name found that is not here fails the check, and so does a name here that is no
# longer found (remove it, and the game once it has none left).
STILL_TO_MIGRATE: dict[str, frozenset[str]] = {}

_MUTABLE = (dict, list, set, bytearray, deque)
_DESCRIPTORS = (property, staticmethod, classmethod, MemberDescriptorType, GetSetDescriptorType,
                MethodDescriptorType, WrapperDescriptorType)
_CONSTANT = (int, float, complex, str, bytes, bool, type(None), tuple, frozenset, range,
             Fraction, Decimal, MappingProxyType, enum.Enum, re.Pattern, PurePath, type, ModuleType, TypeVar,
             FunctionType, Game)


# class attributes Python's named tuples and pydantic's models keep for themselves
_FRAMEWORK = frozenset({"_field_defaults", "_fields", "model_config"})


def _modules() -> list[ModuleType]:
    """Every module of every game package."""
    found = []
    for info in pkgutil.walk_packages(tabletop.games.__path__, "tabletop.games."):
        found.append(importlib.import_module(info.name))
    return found


def _top_level_names(module: ModuleType) -> set[str]:
    """The names a module's own top level assigns (not what it imports)."""
    source = module.__file__
    assert source is not None
    tree = ast.parse(Path(source).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for target in targets:
            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def _is_mutable(value: Any) -> bool:
    """Whether a module or class attribute is mutable state (see the module docstring)."""
    if isinstance(value, _MUTABLE):
        return True
    if isinstance(value, _CONSTANT + _DESCRIPTORS) or hasattr(type(value), "__get__"):
        return False  # a descriptor (a slot, a property, a value worked out once an object)
    if type(value).__module__.split(".")[0] in ("typing", "types", "pydantic", "pydantic_core"):
        return False  # type aliases, unions, literals; pydantic's validators
    if hasattr(value, "cache_info"):  # functools.cache / lru_cache of a pure function
        return False
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return True
        # frozen, but a list or dict it holds can still be changed in place
        return any(_is_mutable(getattr(value, f.name)) for f in dataclasses.fields(value))
    return hasattr(value, "__dict__") or bool(getattr(type(value), "__slots__", ()))


def _mutable_state(module: ModuleType) -> set[str]:
    """The names of the mutable state a module keeps: module globals and class attributes."""
    found = set()
    for name in _top_level_names(module) - {"__all__"}:
        if name in vars(module) and _is_mutable(vars(module)[name]):
            found.add(name)
    for name, obj in vars(module).items():
        if isinstance(obj, type) and obj.__module__ == module.__name__ and not issubclass(obj, enum.Enum):
            for attr, value in vars(obj).items():
                if attr.startswith("__") or attr in _FRAMEWORK:
                    continue
                if _is_mutable(value):
                    found.add(f"{name}.{attr}")
    return found


def _by_game() -> dict[str, set[str]]:
    """The mutable state of each game package, by package name."""
    out: dict[str, set[str]] = {}
    for module in _modules():
        package = ".".join(module.__name__.split(".")[:3])
        for name in _mutable_state(module):
            out.setdefault(package, set()).add(f"{module.__name__.removeprefix(package + '.')}:{name}")
    return out


def test_game_modules_keep_no_mutable_module_level_state() -> None:
    """No game keeps a mutable module global or class attribute beyond the allow-list."""
    found = {game: sorted(names - STILL_TO_MIGRATE.get(game, frozenset()))
             for game, names in _by_game().items()}
    found = {game: names for game, names in found.items() if names}
    assert found == {}, ("mutable module-level state (keep it in match.state.memo, or make it a "
                         f"constant): {found}")


def test_allow_list_only_names_what_is_still_there() -> None:
    """Every name on the allow-list is still mutable state: once one is migrated it leaves
    the list (the list only shrinks)."""
    found = _by_game()
    gone = {game: sorted(names - found.get(game, set())) for game, names in STILL_TO_MIGRATE.items()}
    assert {game: names for game, names in gone.items() if names} == {}


def test_a_module_level_cache_is_found() -> None:
    """The check sees a dict, a list, a cache object and a mutable class attribute, and
    passes the constants."""
    class Cache:
        def __init__(self) -> None:
            self.kept: dict[str, int] = {}

    @dataclasses.dataclass(frozen=True)
    class Frozen:
        n: int

    mutable: tuple[object, ...] = ({}, [], set(), bytearray(), deque(), Cache())
    for value in mutable:
        assert _is_mutable(value), value
    for value in ((), frozenset(), MappingProxyType({}), 3, Fraction(2, 3), Decimal("1.5"), "x",
                  Frozen(1), re.compile("x"), Cache):
        assert not _is_mutable(value), value
