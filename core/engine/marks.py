"""Map marks: what the rules keep on the map outside the pieces, so the renderers can draw it.

Some rules leave marks that are not counters a player moves: rubble in a hex, a demolished
bridge or a pontoon bridge on a hexside. A game that keeps such facts in its state (as
variables, say) declares them for drawing through ``Game.map_marks``; the SVG and text
renderers draw them over the terrain, with a legend row a kind.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MapMark:
    """One mark on the map: in a hex (``at`` is one hex id) or on the hexside between two
    adjacent hexes (``at`` is their two ids).

    ``name`` is what it is, for the legend and tooltips ("rubble (10.20)"); ``symbol`` the
    one or two characters drawn on its badge; ``color`` the badge's fill.
    """

    name: str
    at: tuple[str, ...]
    symbol: str = "x"
    color: str = "#6b4f2f"

    def __post_init__(self) -> None:
        if len(self.at) not in (1, 2):
            raise ValueError(f"a map mark is in one hex or on the hexside of two, not at {self.at!r}")
        if not self.name or not 1 <= len(self.symbol) <= 2:
            raise ValueError(f"a map mark needs a name and a symbol of one or two characters: {self!r}")
