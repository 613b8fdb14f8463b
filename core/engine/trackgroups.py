"""Families of tracks keyed by formation: one fatigue or cohesion track per regiment, say.

A game with "one Fatigue marker a regiment" keeps each regiment's value as an ordinary
:class:`~tabletop.core.engine.pieces.Track` named ``<family>:<key>`` in ``state.tracks`` (so it is
in the state, its hash and every view). These helpers create, read and move a family.
"""

from __future__ import annotations

from collections.abc import Iterable

from .pieces import Track
from .state import State


def track_id(family: str, key: str) -> str:
    """The id of one member of a family: ``family:key``."""
    return f"{family}:{key}"


def create_family(state: State, family: str, keys: Iterable[str], value: int, minimum: int,
                  maximum: int, *, section: str = "") -> list[Track]:
    """One track per key, all starting at ``value`` and bounded alike."""
    return [state.track(track_id(family, k), value, minimum, maximum, section=section) for k in keys]


def family(state: State, family: str) -> dict[str, Track]:
    """The members of a family by key, in key order."""
    prefix = f"{family}:"
    return {tid[len(prefix):]: t for tid, t in sorted(state.tracks.items()) if tid.startswith(prefix)}


def value(state: State, family_name: str, key: str) -> int:
    """One member's value."""
    return state.tracks[track_id(family_name, key)].value


def shift(state: State, family_name: str, key: str, delta: int) -> int:
    """Move one member by ``delta`` boxes (clamped); returns the value now shown."""
    return state.tracks[track_id(family_name, key)].add(delta)
