"""Line of fire: may a unit in one hex see (and fire at) another, across the terrain between?

A line of fire is the straight line from the centre of the firing hex to the centre of the
target hex (:func:`~.hexgrid.line` gives the hexes it crosses). The rules this module applies,
the same for every game (a game supplies only *what* blocks):

1. Terrain in the firing hex and in the target hex never blocks; only the hexes in between
   ("intermediate hexes") can. So an adjacent target is never blocked by in-hex terrain.
2. Where the line runs exactly along a hexside, both hexes beside it are candidates. The
   convention ``along="both"`` (the default) blocks such a stretch only when the hexes on
   both sides block (the line grazes past one blocking hex); ``along="either"`` blocks it
   when either one does. In path terms: under ``"both"`` the line is clear when *some* way
   of choosing one hex at every such step is clear, under ``"either"`` only when *every*
   way is.
3. A hexside may block outright (``blocks_side``), or *stop* the line
   (``stops_side``): it may be fired through, but the line ends in the hex right across it,
   so the target must be that hex (a wall that lets fire reach only the first hex beyond).

Everything is exact and deterministic; nothing here knows any particular game.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .hexgrid import Hex, distance, line

if TYPE_CHECKING:
    from .hexmap import HexMap

Along = Literal["both", "either"]
ALONG_CONVENTIONS: tuple[Along, ...] = ("both", "either")

HexTest = Callable[[Hex], bool]
SideTest = Callable[[Hex, Hex], bool]


def _never_side(a: Hex, b: Hex) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """The outcome of tracing one line: the hexes crossed, whether it is clear, and why not."""

    origin: Hex
    target: Hex
    steps: tuple[tuple[Hex, ...], ...]  # one or two hexes a step, origin first, target last
    clear: bool
    reason: str = ""  # why it is blocked ("" when clear)

    @property
    def range(self) -> int:
        """The range in hexes: the target counted, the firing hex not."""
        return len(self.steps) - 1


def trace(origin: Hex, target: Hex, *, blocks_hex: HexTest, blocks_side: SideTest | None = None,
          stops_side: SideTest | None = None, along: Along = "both") -> LineOfFire:
    """Trace the line of fire from ``origin`` to ``target`` under the module's rules.

    ``blocks_hex(h)`` says whether the in-hex terrain of an intermediate hex blocks;
    ``blocks_side(a, b)`` whether the hexside between adjacent ``a`` and ``b`` blocks;
    ``stops_side(a, b)`` whether the line may cross it only into the target.
    """
    if along not in ALONG_CONVENTIONS:
        raise ValueError(f"along must be one of {ALONG_CONVENTIONS}, got {along!r}")
    steps = tuple(line(origin, target))
    last = len(steps) - 1
    if last <= 1:
        # 0: firing into one's own hex; 1: adjacent — no intermediate hex. Hexsides still
        # apply: a blocking hexside stops even adjacent fire.
        if last == 1 and blocks_side is not None and blocks_side(origin, target):
            return LineOfFire(origin, target, steps, False, "a blocking hexside")
        return LineOfFire(origin, target, steps, True)
    side_blocks = blocks_side or _never_side
    side_stops = stops_side or _never_side

    def step_ok(i: int, prev: Hex, cur: Hex) -> str:
        if distance(prev, cur) != 1:
            return "apart"
        if side_blocks(prev, cur):
            return "a blocking hexside"
        if i != last and side_stops(prev, cur):
            return "the line stops across a hexside before the target"
        if i != last and blocks_hex(cur):
            return "blocking terrain in an intermediate hex"
        return ""

    # Dynamic programming over the steps: ``good[h]`` is True when some path (under "both")
    # or every path (under "either") from the origin to h is clear.
    good: dict[Hex, bool] = {origin: True}
    reason = ""
    for i in range(1, last + 1):
        nxt: dict[Hex, bool] = {}
        for cur in steps[i]:
            verdicts: list[bool] = []
            for prev, ok_before in good.items():
                why = step_ok(i, prev, cur)
                if why == "apart":
                    continue
                if why and not reason:
                    reason = why
                verdicts.append(ok_before and not why)
            if verdicts:
                nxt[cur] = any(verdicts) if along == "both" else all(verdicts)
        good = nxt
        alive = [ok for ok in good.values()]
        if along == "both" and not any(alive):
            return LineOfFire(origin, target, steps, False, reason or "blocked")
        if along == "either" and not all(alive):
            return LineOfFire(origin, target, steps, False, reason or "blocked")
    return LineOfFire(origin, target, steps, True)


@dataclass(frozen=True, slots=True)
class MapLineOfFire:
    """The blocking rules of one map, read from its terrain, features and hexside features.

    ``blocking_terrain``/``blocking_features`` name the in-hex terrain types and hex features
    that block; ``blocking_hexsides`` the hexside features that block; ``stopping_hexsides``
    those that stop the line in the hex right across them.
    """

    hexmap: HexMap
    blocking_terrain: Collection[str] = ()
    blocking_features: Collection[str] = ()
    blocking_hexsides: Collection[str] = ()
    stopping_hexsides: Collection[str] = ()
    along: Along = "both"

    def blocks_hex(self, h: Hex) -> bool:
        """Whether the in-hex terrain or a feature of ``h`` blocks (off-map hexes do not)."""
        if h not in self.hexmap:
            return False
        if self.hexmap.terrain(h) in self.blocking_terrain:
            return True
        return any(f in self.blocking_features for f in self.hexmap.features(h))

    def _side_has(self, a: Hex, b: Hex, names: Collection[str]) -> bool:
        if not names or a not in self.hexmap or b not in self.hexmap:
            return False
        return any(f in names for f in self.hexmap.hexside_features(a, b))

    def blocks_side(self, a: Hex, b: Hex) -> bool:
        """Whether the hexside between adjacent ``a`` and ``b`` blocks."""
        return self._side_has(a, b, self.blocking_hexsides)

    def stops_side(self, a: Hex, b: Hex) -> bool:
        """Whether the hexside between adjacent ``a`` and ``b`` stops the line across it."""
        return self._side_has(a, b, self.stopping_hexsides)

    def trace(self, origin: Hex, target: Hex, *, ignore_blocking: bool = False) -> LineOfFire:
        """Trace a line on this map; ``ignore_blocking`` (indirect fire) sees through all."""
        if ignore_blocking:
            return trace(origin, target, blocks_hex=lambda h: False, along=self.along)
        return trace(origin, target, blocks_hex=self.blocks_hex, blocks_side=self.blocks_side,
                     stops_side=self.stops_side, along=self.along)

    def is_clear(self, origin: Hex, target: Hex) -> bool:
        """Whether the line of fire between two hexes of this map is clear."""
        return self.trace(origin, target).clear
