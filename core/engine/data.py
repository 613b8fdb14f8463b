"""Loading YAML and JSON data files into pydantic models with one clear message per error."""

from __future__ import annotations

import hashlib
import json
import os
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


#: The most bytes a data file, position or YAML text may hold.
MAX_BYTES = 16 * 2**20
#: The deepest a data file may nest lists and mappings (counting what its aliases expand to).
MAX_DEPTH = 64
#: The most values (scalars, lists, mappings, keys included) a data file may hold once every
#: alias (``*name``) is expanded, as JSON and the models see it.
MAX_NODES = 1_000_000
#: The most characters of text its scalars may hold once every alias is expanded.
MAX_CHARS = 64 * 2**20


class YAMLLimitError(yaml.YAMLError):
    """A YAML text refused before it is built: it nests too deep, expands to too much through
    its aliases, or holds an alias to the node that contains it."""


def _limit(what: str, event: Any) -> YAMLLimitError:
    mark = getattr(event, "start_mark", None)
    line = f" (line {mark.line + 1})" if mark is not None else ""
    return YAMLLimitError(f"{what}{line}")


def check_yaml_bounds(text: str, loader: Any = None) -> None:
    """Refuse YAML text that would expand beyond the bounds, before anything builds it.

    Reads the parser's event stream alone (flat, never recursive, its size that of the text)
    and keeps for every anchor the size, text and depth of what it stands for, so that an
    alias is counted as the copy JSON and the models would see: a "billion laughs" of nested
    aliases, a recursive alias, nesting deeper than :data:`MAX_DEPTH`, or more than
    :data:`MAX_NODES` values or :data:`MAX_CHARS` characters raise :class:`YAMLLimitError`.
    """
    parser = (loader or _LOADER)(text)
    # each open collection: [anchor, nodes, chars, height below it]
    stack: list[list[Any]] = []
    anchors: dict[str, tuple[int, int, int]] = {}  # anchor -> (nodes, chars, height)
    nodes = chars = 0
    try:
        while parser.check_event():
            event = parser.get_event()
            if isinstance(event, yaml.AliasEvent):
                name = event.anchor
                if any(frame[0] == name for frame in stack):
                    raise _limit(f"the alias *{name} refers to the list or mapping that holds it "
                                 "(a recursive alias)", event)
                if name not in anchors:
                    continue  # the parse itself reports the undefined alias
                size, text_len, height = anchors[name]
            elif isinstance(event, yaml.ScalarEvent):
                size, text_len, height = 1, len(event.value), 0
                if event.anchor is not None:
                    anchors[event.anchor] = (size, text_len, height)
            elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                if len(stack) >= MAX_DEPTH:
                    raise _limit(f"lists and mappings nest more than {MAX_DEPTH} deep", event)
                stack.append([event.anchor, 1, 0, 0])
                nodes += 1
                if nodes > MAX_NODES:
                    raise _limit(f"more than {MAX_NODES} values", event)
                continue
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                anchor, size, text_len, below = stack.pop()
                height = below + 1
                if anchor is not None:
                    anchors[anchor] = (size, text_len, height)
                if stack:
                    parent = stack[-1]
                    parent[1] += size
                    parent[2] += text_len
                    parent[3] = max(parent[3], height)
                continue
            else:  # stream and document events
                continue
            if len(stack) + height > MAX_DEPTH:
                raise _limit(f"lists and mappings nest more than {MAX_DEPTH} deep once the "
                             f"alias *{event.anchor} is expanded", event)
            nodes += size
            chars += text_len
            if nodes > MAX_NODES:
                raise _limit(f"more than {MAX_NODES} values once its aliases are expanded "
                             "(a YAML alias bomb?)", event)
            if chars > MAX_CHARS:
                raise _limit(f"more than {MAX_CHARS} characters of text once its aliases are "
                             "expanded (a YAML alias bomb?)", event)
            if stack:
                parent = stack[-1]
                parent[1] += size
                parent[2] += text_len
                parent[3] = max(parent[3], height)
    finally:
        parser.dispose()


def load_yaml(text: str) -> Any:
    """Parse YAML text safely (libyaml's parser when PyYAML has it), refusing duplicate keys,
    and, before building anything, text that would expand beyond the bounds
    (:func:`check_yaml_bounds`)."""
    if len(text) > MAX_BYTES:
        raise YAMLLimitError(f"more than {MAX_BYTES} characters")
    check_yaml_bounds(text)
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


#: Where parsed YAML is kept as JSON between processes: ``TABLETOP_CACHE_DIR``, else
#: ``$XDG_CACHE_HOME/tabletop`` or ``~/.cache/tabletop``; ``TABLETOP_CACHE_DIR=off`` turns it off.
CACHE_ENV = "TABLETOP_CACHE_DIR"
_CACHE_FORMAT = "1"


def yaml_cache_dir() -> Path | None:
    """The folder of the parsed-YAML cache, or None when it is turned off."""
    given = os.environ.get(CACHE_ENV)
    if given is not None:
        return None if given in ("", "off", "0") else Path(given) / "yaml"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tabletop" / "yaml"


def _cache_key(text: str) -> str:
    """The file's contents and everything else that decides the parse."""
    parser = "libyaml" if _LOADER is YAML_LOADERS.get("libyaml") else "python"
    head = f"{_CACHE_FORMAT}|{parser}|{getattr(yaml, '__version__', '?')}|"
    return hashlib.sha256((head + text).encode("utf-8")).hexdigest()


def load_yaml_cached(text: str) -> Any:
    """:func:`load_yaml`, answered from the parsed-YAML cache when it holds this text.

    The cache keeps a file's parse as JSON keyed by the SHA-256 of its contents (and the
    parser and PyYAML version), so an edited file is simply a new key, and reading it back
    needs only the JSON parser (several times faster than YAML, and than the pure-Python YAML
    parser by far). Only a parse that JSON gives back exactly is kept (string keys, no dates,
    sets or NaN); anything else, like every YAML error, takes the ordinary path. Nothing is
    pickled; a missing, unreadable or corrupt entry is parsed again and rewritten.
    """
    folder = yaml_cache_dir()
    if folder is None:
        return load_yaml(text)
    entry = folder / f"{_cache_key(text)}.json"
    try:
        return json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    data = load_yaml(text)
    try:
        encoded = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        if json.loads(encoded) != data:
            return data
        folder.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
        tmp.write_text(encoded, encoding="utf-8")
        os.replace(tmp, entry)  # atomic: a reader sees the old entry or the whole new one
    except (TypeError, ValueError, OSError):
        pass  # not plain JSON data, or no writable cache: the parse stands uncached
    return data


def read_data_file(path: str | Path) -> Any:
    """Parse a YAML or JSON file into plain Python data, or raise DataError naming the file."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise DataError(f"{p}: cannot read file ({exc.strerror or exc})") from None
    if len(raw) > MAX_BYTES:
        raise DataError(f"{p}: refused: larger than {MAX_BYTES // 2**20} MiB; a data file or "
                        "position is far smaller")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise DataError(f"{p}: not UTF-8 text: byte 0x{raw[exc.start]:02x} on line {line}; "
                        "save the file as UTF-8") from None
    kind = "JSON" if p.suffix == ".json" else "YAML"
    try:
        if p.suffix == ".json":
            data = json.loads(text)
            _check_json_bounds(data)
            return data
        return load_yaml_cached(text)
    except YAMLLimitError as exc:
        raise DataError(f"{p}: refused before reading it: {_one_line(str(exc))}") from None
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        raise DataError(f"{p}: not valid {kind}: {_one_line(str(exc))}") from None
    except RecursionError:
        raise DataError(f"{p}: refused: lists and mappings nest more than {MAX_DEPTH} "
                        "deep") from None


def _check_json_bounds(data: Any) -> None:
    """Refuse parsed JSON nesting deeper than :data:`MAX_DEPTH` (no aliases: its size is the
    file's)."""
    todo: list[tuple[Any, int]] = [(data, 0)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise YAMLLimitError(f"lists and mappings nest more than {MAX_DEPTH} deep")
            items = value.values() if isinstance(value, dict) else value
            todo.extend((item, depth + 1) for item in items)


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
        if err["type"] == "string_type" and type(err.get("input")) in (int, float):
            msg += (f" (got the number {err['input']}: write it in quotes, as a hex id must "
                    'be, "0203": YAML reads an unquoted 0203 as a number)')
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
