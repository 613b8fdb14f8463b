"""Fog of war by distance: face-down pieces turned face-up, for good, when an enemy comes near.

Games where hidden units are revealed "as soon as an enemy unit moves to within N hexes"
call :func:`reveal_near` each time a unit arrives in a hex: it turns face-up (``hidden =
False``) every hidden piece of the other sides within ``radius`` hexes and returns them, so
the game can log the reveal (naming them only now that they are known).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..engine.pieces import Piece, Pieces
from .hexgrid import Hex, distance
from .hexmap import HexMap


def hidden_near(pieces: Pieces, hexmap: HexMap, where: Hex, radius: int, *, observer: str,
                include: Callable[[Piece], bool] | None = None) -> list[Piece]:
    """The hidden pieces of sides other than ``observer`` within ``radius`` hexes of
    ``where`` (on map hexes only), nearest first, then by place and stack order."""
    found: list[tuple[int, str, int, Piece]] = []
    for loc in pieces.occupied():
        if loc not in hexmap:
            continue
        d = distance(where, hexmap.hex(loc))
        if d > radius:
            continue
        for n, p in enumerate(pieces.at(loc)):
            if p.hidden and p.side != observer and (include is None or include(p)):
                found.append((d, loc, n, p))
    found.sort(key=lambda t: (t[0], t[1], t[2]))
    return [t[3] for t in found]


def reveal_near(pieces: Pieces, hexmap: HexMap, where: Hex, radius: int, *, observer: str,
                include: Callable[[Piece], bool] | None = None) -> list[Piece]:
    """Turn face-up, permanently, the pieces :func:`hidden_near` finds; return them."""
    found = hidden_near(pieces, hexmap, where, radius, observer=observer, include=include)
    for p in found:
        p.hidden = False
    return found


def reveal_all_near(pieces: Pieces, hexmap: HexMap, places: Iterable[Hex], radius: int, *,
                    observer: str) -> list[Piece]:
    """:func:`reveal_near` around several hexes at once (e.g. every unit of a side)."""
    out: list[Piece] = []
    for h in places:
        out.extend(reveal_near(pieces, hexmap, h, radius, observer=observer))
    return out
