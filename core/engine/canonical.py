"""Canonical JSON and stable hashes: the one way state, records and options are serialised."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

JSON = Any  # a JSON-serialisable value: None, bool, int, float, str, list, dict[str, JSON]


def _to_json(obj: Any) -> JSON:
    """What an object that knows its JSON form (a view, a piece...) serialises as."""
    to_json = getattr(obj, "to_json", None)
    if callable(to_json):
        return to_json()
    if isinstance(obj, Mapping):  # a read-only window (MappingProxyType) on a dict
        return dict(obj)
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def dumps(obj: JSON) -> str:
    """Serialise to canonical JSON: sorted keys, no spaces, UTF-8 characters kept."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_to_json)


def digest(obj: JSON) -> str:
    """The SHA-256 hex digest of an object's canonical JSON (the 'state hash')."""
    return hashlib.sha256(dumps(obj).encode("utf-8")).hexdigest()


#: Types returned as they are by :func:`freeze` (bar bool) and :func:`thaw`: checked by exact
#: type first, the common case, before the general isinstance tests.
_ATOMS: frozenset[type] = frozenset({str, int, float, bool, type(None)})


def freeze(value: JSON) -> Any:
    """A hashable key equal for equal JSON values (lists become tuples, dicts sorted tuples)."""
    t = type(value)
    if t is str or t is int or t is float or value is None:
        return value
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, bool):
        # True == 1 in Python; keep booleans apart from integers in option keys.
        return ("bool", value)
    return value


def thaw(value: JSON) -> JSON:
    """Normalise a value to plain JSON types (tuples become lists), as it reads back from JSON.

    Always a fresh copy of every list and dict, so the result shares nothing mutable with
    the value (views hand it to agents)."""
    t = type(value)
    if t is dict:
        return {(k if type(k) is str else str(k)): (v if type(v) in _ATOMS else thaw(v))
                for k, v in value.items()}
    if t is list or t is tuple:
        return [v if type(v) in _ATOMS else thaw(v) for v in value]
    if t in _ATOMS:
        return value
    if isinstance(value, list | tuple):  # subclasses of list, tuple and dict
        return [thaw(v) for v in value]
    if isinstance(value, dict):
        return {str(k): thaw(v) for k, v in value.items()}
    return value
