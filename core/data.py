"""Loading YAML and JSON data files into pydantic models with one clear message per error."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from .errors import DataError

M = TypeVar("M", bound=BaseModel)


class StrictModel(BaseModel):
    """Base of every data-file model: unknown keys are errors, instances are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _construct_unique_mapping(loader: Any, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            hash(key)
        except TypeError:
            mark = key_node.start_mark
            raise yaml.constructor.ConstructorError(
                None, None, f"a key must be a plain value, not {type(key).__name__} {key!r} "
                f"(line {mark.line + 1})", mark) from None
        if key in seen:
            mark = key_node.start_mark
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (line {mark.line + 1})", mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


def _unique_key_loader(base: Any) -> Any:
    """A safe YAML loader on ``base`` that refuses a mapping with the same key twice (PyYAML
    keeps the last) or with a key that is not a plain value."""
    loader: Any = type(f"UniqueKey{base.__name__}", (base,), {})
    loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping)
    return loader


#: The loaders on both parsers: libyaml's (several times faster on the game data files) and
#: the pure-Python one. Both construct only plain data (safe); they differ on a few details of
#: YAML whitespace (libyaml accepts a tab after "key:", the pure-Python parser refuses it).
YAML_LOADERS: dict[str, Any] = {"python": _unique_key_loader(yaml.SafeLoader)}
if getattr(yaml, "__with_libyaml__", False):
    YAML_LOADERS["libyaml"] = _unique_key_loader(yaml.CSafeLoader)
_LOADER = YAML_LOADERS.get("libyaml", YAML_LOADERS["python"])


def load_yaml(text: str) -> Any:
    """Parse YAML text safely (libyaml's parser when PyYAML has it), refusing duplicate keys."""
    return yaml.load(text, Loader=_LOADER)  # a safe loader: no arbitrary objects


def _section_text(value: Any) -> Any:
    if isinstance(value, float):
        raise ValueError(f"write the section in quotes (e.g. \"9.10\"): unquoted, YAML reads it as "
                         f"the number {value} and drops trailing zeros")
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


Section = Annotated[str, BeforeValidator(_section_text)]
"""A rulebook section number as text; a bare whole number is accepted, a bare decimal refused."""


def _hex_id_text(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        raise ValueError(f"hex ids must be quoted strings such as \"0504\": unquoted, YAML reads "
                         f"the id as the number {value}")
    return value


HexId = Annotated[str, BeforeValidator(_hex_id_text)]
"""A four-digit hex id written as a string; an unquoted (numeric) id gets a message saying so."""


def read_data_file(path: str | Path) -> Any:
    """Parse a YAML or JSON file into plain Python data, or raise DataError naming the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{p}: cannot read file ({exc.strerror or exc})") from None
    try:
        if p.suffix == ".json":
            return json.loads(text)
        return load_yaml(text)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        raise DataError(f"{p}: not valid {'JSON' if p.suffix == '.json' else 'YAML'}: "
                        f"{_one_line(str(exc))}") from None


class AtPath(ValueError):
    """A model validator's complaint about one place further down the data (a repeated id
    in a list, say): raise it with that place's path, and the message names it."""

    def __init__(self, path: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.path = path


def format_validation_error(source: str, exc: ValidationError) -> str:
    """Render a pydantic ValidationError as 'file: path.inside: what was expected' lines."""
    lines = []
    for err in exc.errors():
        loc: tuple[Any, ...] = tuple(err["loc"])
        msg = err["msg"]
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, AtPath):
            loc, msg = loc + cause.path, str(cause)
        elif isinstance(cause, ValueError) and msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        where = ".".join(str(part) for part in loc) or "(top level)"
        lines.append(f"{where}: {msg}")
    if len(lines) > 5:
        lines = [*lines[:5], f"... and {len(lines) - 5} more errors"]
    return f"{source}: " + "; ".join(lines)


def validate(model: type[M], data: Any, *, source: str) -> M:
    """Validate plain data against a model, raising DataError with the source named."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise DataError(format_validation_error(source, exc)) from None


def load_model(model: type[M], path: str | Path) -> M:
    """Read a YAML/JSON file and validate it against a model, or raise DataError."""
    return validate(model, read_data_file(path), source=str(path))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def repeated(items: Iterable[str], path: tuple[str | int, ...], what: str = "id") -> None:
    """Raise AtPath at the second place an id is used (``path`` + its index + ``what``)."""
    first: dict[str, int] = {}
    for n, item in enumerate(items):
        if item in first:
            raise AtPath((*path, n, what), f"{what} {item!r} is used again (first at "
                         f"{'.'.join(str(p) for p in (*path, first[item], what))})")
        first[item] = n
