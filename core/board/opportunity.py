"""Opportunity fire during movement: which watchers fire when a mover enters a hex, once each.

Rules like "a unit that moves to within two hexes of an enemy unit must stop and be fired
on by it, once a phase per firer" need three things this module gives generically:

- :func:`trigger_hexes`: the hexes where a mover would be fired on by some watcher that has
  not fired at it yet (pass them as ``must_stop`` to :func:`tabletop.core.board.movement.reachable`,
  so a move ends where the fire interrupts it);
- :func:`firers_at`: the watchers that fire when the mover enters a hex, in a stable order;
- :class:`FireRecord`: who has fired at whom this phase, kept as JSON in ``state.vars`` so
  the position (and its hash) says it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .hexgrid import Hex, distance, within
from .hexmap import HexMap


def trigger_hexes(hexmap: HexMap, watchers: Mapping[str, Hex], radius: int, *,
                  exclude: Iterable[str] = ()) -> frozenset[Hex]:
    """Every on-map hex within ``radius`` of a watcher not in ``exclude``."""
    skip = set(exclude)
    out: set[Hex] = set()
    for wid, h in watchers.items():
        if wid not in skip:
            out.update(x for x in within(h, radius) if x in hexmap)
    return frozenset(out)


def firers_at(watchers: Mapping[str, Hex], where: Hex, radius: int, *,
              exclude: Iterable[str] = ()) -> list[str]:
    """The watchers within ``radius`` of ``where`` that have not fired (not in ``exclude``),
    nearest first, then by id."""
    skip = set(exclude)
    found = [(distance(h, where), wid) for wid, h in watchers.items()
             if wid not in skip and distance(h, where) <= radius]
    return [wid for _, wid in sorted(found)]


class FireRecord:
    """Who has fired at whom this phase: a mapping mover -> firers, stored in a JSON dict.

    Build it over a dict kept in ``state.vars`` (``FireRecord(state.vars.setdefault(key,
    {}))``) so that the record is part of the state; :meth:`clear` at each phase start.
    """

    __slots__ = ("_data",)

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def fired_at(self, mover: str) -> list[str]:
        """The watchers that have already fired at ``mover`` this phase."""
        return list(self._data.get(mover, ()))

    def has_fired(self, watcher: str, mover: str) -> bool:
        """Whether ``watcher`` has fired at ``mover`` this phase."""
        return watcher in self._data.get(mover, ())

    def record(self, watcher: str, mover: str) -> None:
        """Note that ``watcher`` fired at ``mover``."""
        fired = self._data.setdefault(mover, [])
        if watcher not in fired:
            fired.append(watcher)

    def clear(self) -> None:
        """Forget every shot (a new phase)."""
        self._data.clear()
