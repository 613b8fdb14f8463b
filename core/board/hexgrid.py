"""Hex topology for printed hex maps: axial coordinates, distance, lines, hexsides and the grid.

The maps are flat-topped with vertical columns, and every hex is named by its printed
four-digit id ``XXYY`` (column, row). Which printed columns sit half a hex lower is a map
setting, ``"odd"`` or ``"even"``. Inside the engine a hex is an axial coordinate ``(q, r)``
(cube ``s = -q - r``), after Red Blob Games' hexagon guide: the printed numbers appear only at
the edges, in :meth:`HexGrid.parse` and :meth:`HexGrid.label`.

Axial ``q`` is the printed column, so ``q`` grows to the right (east); ``r`` grows down the
map (south) along a column.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Literal, NamedTuple

from ..engine.errors import TabletopError

Shift = Literal["odd", "even"]

_HEX_ID = re.compile(r"\d{4}")


class InvalidHexError(TabletopError):
    """A hex id that is not four digits ``XXYY``, or names no hex of the map in question."""


class Hex(NamedTuple):
    """A hex as an immutable axial coordinate; ``s`` is the derived third cube coordinate.

    Tuple ``+`` concatenates, so use :func:`hex_add` and friends for arithmetic.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The cube coordinate ``s = -q - r``, for formulas written in cube form."""
        return -self.q - self.r

    @classmethod
    def from_cube(cls, q: int, r: int, s: int) -> Hex:
        """Build a hex from cube coordinates, which must sum to zero."""
        if q + r + s != 0:
            raise ValueError(f"cube coordinates ({q}, {r}, {s}) do not sum to zero")
        return cls(q, r)


# The six neighbour offsets, clockwise from north as the printed map is read: index 0 is
# straight up the column, 3 is straight down. The opposite of direction d is (d + 3) % 6.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1),  # 0 N
    Hex(1, -1),  # 1 NE
    Hex(1, 0),  # 2 SE
    Hex(0, 1),  # 3 S
    Hex(-1, 1),  # 4 SW
    Hex(-1, 0),  # 5 NW
)
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")


def hex_add(a: Hex, b: Hex) -> Hex:
    """The vector sum of two hexes (a hex plus an offset)."""
    return Hex(a.q + b.q, a.r + b.r)


def hex_subtract(a: Hex, b: Hex) -> Hex:
    """The offset that leads from ``b`` to ``a``."""
    return Hex(a.q - b.q, a.r - b.r)


def hex_scale(a: Hex, k: int) -> Hex:
    """An offset multiplied by an integer (``k`` steps in one direction)."""
    return Hex(a.q * k, a.r * k)


def hex_neighbor(h: Hex, direction: int) -> Hex:
    """The neighbour of ``h`` in one of the six :data:`DIRECTIONS` (index 0-5)."""
    d = DIRECTIONS[direction]
    return Hex(h.q + d.q, h.r + d.r)


def neighbors(h: Hex) -> list[Hex]:
    """All six neighbours of a hex in :data:`DIRECTIONS` order, with no map bounds."""
    q, r = h
    return [Hex(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    """The hex distance: steps from ``a`` to ``b``, counting the target hex but not the origin."""
    aq, ar = a
    bq, br = b
    dq = aq - bq
    dr = ar - br
    # Half the cube Manhattan length, which equals the largest cube difference.
    return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1


def direction_to(a: Hex, b: Hex) -> int:
    """The index in :data:`DIRECTIONS` of the step from ``a`` to its neighbour ``b``."""
    try:
        return DIRECTIONS.index(Hex(b.q - a.q, b.r - a.r))
    except ValueError:
        raise ValueError(f"{b} is not adjacent to {a}") from None


def is_adjacent(a: Hex, b: Hex) -> bool:
    """Whether two hexes share a hexside."""
    return distance(a, b) == 1


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``center``, clockwise from the one due north."""
    if radius < 0:
        raise ValueError(f"ring radius must not be negative, got {radius}")
    if radius == 0:
        return [center]
    h = hex_add(center, hex_scale(DIRECTIONS[0], radius))
    out: list[Hex] = []
    # From the north corner the ring's six edges run SE, S, SW, NW, N, NE.
    for side in range(6):
        dq, dr = DIRECTIONS[(side + 2) % 6]
        for _ in range(radius):
            out.append(h)
            h = Hex(h.q + dq, h.r + dr)
    return out


def within(center: Hex, radius: int) -> list[Hex]:
    """Every hex at distance ``radius`` or less from ``center``, in axial (q, r) order."""
    if radius < 0:
        raise ValueError(f"radius must not be negative, got {radius}")
    out: list[Hex] = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append(Hex(center.q + dq, center.r + dr))
    return out


# A nudge far larger than float error yet far smaller than any real offset along a line;
# its three components differ so that it is parallel to no hexside.
_NUDGE = (1e-6, 2e-6, -3e-6)


def _cube_round(x: float, y: float, z: float) -> Hex:
    """The hex containing the fractional cube point (x, y, z)."""
    q, r, s = round(x), round(y), round(z)
    dq, dr, ds = abs(q - x), abs(r - y), abs(s - z)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def _nudged_lines(a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
    """The cube-lerp line from a to b sampled with the nudge added, and with it subtracted."""
    n = distance(a, b)
    plus, minus = [a], [a]
    eq, er, es = _NUDGE
    dq, dr, ds = b.q - a.q, b.r - a.r, b.s - a.s
    for i in range(1, n):
        # Integer numerators divided once keep sample points that lie exactly on a hexside
        # exact, so that the two nudges fall on its two sides.
        x, y, z = a.q + dq * i / n, a.r + dr * i / n, a.s + ds * i / n
        plus.append(_cube_round(x + eq, y + er, z + es))
        minus.append(_cube_round(x - eq, y - er, z - es))
    if n:
        plus.append(b)
        minus.append(b)
    return plus, minus


def line_hexes(a: Hex, b: Hex) -> list[Hex]:
    """One straight line of hexes from ``a`` to ``b`` inclusive, nudged to one side of ties."""
    return _nudged_lines(a, b)[0]


def line(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    """The hexes a centre-to-centre line of fire crosses, from ``a`` to ``b`` inclusive.

    Each step holds one hex, or two (in ascending order) where the line runs exactly along
    the hexside between them, so that the game decides which one counts. The result has
    ``distance(a, b) + 1`` steps.
    """
    plus, minus = _nudged_lines(a, b)
    return [(p,) if p == m else (min(p, m), max(p, m)) for p, m in zip(plus, minus, strict=True)]


class _HexSideBase(NamedTuple):
    a: Hex
    b: Hex


class HexSide(_HexSideBase):
    """The hexside between two adjacent hexes, a key for hexside features (rivers, walls).

    The two hexes are stored in canonical ascending order, so ``HexSide(x, y)`` equals
    ``HexSide(y, x)``; constructing one from hexes that are not adjacent raises ValueError.
    """

    __slots__ = ()

    def __new__(cls, a: Hex, b: Hex) -> HexSide:
        if distance(a, b) != 1:
            raise ValueError(f"{a} and {b} are not adjacent, so they share no hexside")
        if b < a:
            a, b = b, a
        return super().__new__(cls, Hex(*a), Hex(*b))

    @classmethod
    def of(cls, x: Hex, y: Hex) -> HexSide:
        """The hexside between two adjacent hexes, in either order."""
        return cls(x, y)

    def other(self, h: Hex) -> Hex:
        """The hex across this hexside from ``h``."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is on neither side of {self}")


def hexsides(h: Hex) -> list[HexSide]:
    """The six hexsides of a hex in :data:`DIRECTIONS` order."""
    return [HexSide(h, n) for n in neighbors(h)]


_SQRT3 = math.sqrt(3.0)


class HexGrid:
    """The printed grid of one map: its column and row range and which columns are shifted.

    It converts between printed ids and :class:`Hex`, knows which hexes are on the map, and
    gives the pixel geometry renderers draw: flat-topped hexes, the first column on the
    left, row numbers increasing downward, ``size`` being the centre-to-corner distance.
    """

    __slots__ = ("_c0", "_c1", "_hexes", "_odd", "_r0", "_r1", "shifted")

    def __init__(self, columns: tuple[int, int], rows: tuple[int, int],
                 shifted: Shift = "even") -> None:
        c0, c1 = columns
        r0, r1 = rows
        if not (0 <= c0 <= c1 <= 99 and 0 <= r0 <= r1 <= 99):
            raise ValueError(f"columns {columns} and rows {rows} must ascend within 0-99")
        if shifted not in ("odd", "even"):
            raise ValueError(f"shifted must be 'odd' or 'even', got {shifted!r}")
        self._c0, self._c1, self._r0, self._r1 = c0, c1, r0, r1
        self.shifted: Shift = shifted
        self._odd = 1 if shifted == "odd" else 0
        self._hexes = tuple(self.from_offset(c, r)
                            for c in range(c0, c1 + 1) for r in range(r0, r1 + 1))

    def __repr__(self) -> str:
        return (f"HexGrid(columns=({self._c0}, {self._c1}), rows=({self._r0}, {self._r1}), "
                f"shifted={self.shifted!r})")

    @property
    def columns(self) -> tuple[int, int]:
        """The first and last printed column numbers."""
        return (self._c0, self._c1)

    @property
    def rows(self) -> tuple[int, int]:
        """The first and last printed row numbers."""
        return (self._r0, self._r1)

    def is_shifted(self, column: int) -> bool:
        """Whether a printed column sits half a hex lower than its neighbours."""
        return (column & 1) == self._odd

    def from_offset(self, column: int, row: int) -> Hex:
        """The hex at a printed column and row (on the map or not)."""
        # A shifted column's row n lies level with row n + 1/2 of the others, so moving one
        # column right into a shifted column keeps r, and into an unshifted one takes one off r.
        return Hex(column, row - (column + (column & 1 ^ self._odd)) // 2)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        """The printed (column, row) of a hex."""
        q = h.q
        return (q, h.r + (q + (q & 1 ^ self._odd)) // 2)

    def contains(self, h: Hex) -> bool:
        """Whether a hex lies inside the map's printed columns and rows."""
        col, row = self.to_offset(h)
        return self._c0 <= col <= self._c1 and self._r0 <= row <= self._r1

    __contains__ = contains

    def parse(self, hex_id: str) -> Hex:
        """The hex of a printed id ``XXYY``; InvalidHexError if malformed or off the map."""
        if not isinstance(hex_id, str) or not _HEX_ID.fullmatch(hex_id):
            raise InvalidHexError(f"hex id {hex_id!r} is not four digits XXYY (column, row)")
        col, row = int(hex_id[:2]), int(hex_id[2:])
        if not (self._c0 <= col <= self._c1 and self._r0 <= row <= self._r1):
            raise InvalidHexError(
                f"hex {hex_id} is off the map (columns {self._c0:02d}-{self._c1:02d}, "
                f"rows {self._r0:02d}-{self._r1:02d})")
        return self.from_offset(col, row)

    def label(self, h: Hex) -> str:
        """The printed id ``XXYY`` of a hex, zero-padded; hexes just off the map have one too."""
        col, row = self.to_offset(h)
        if not (0 <= col <= 99 and 0 <= row <= 99):
            raise InvalidHexError(f"{h} (column {col}, row {row}) has no four-digit id")
        return f"{col:02d}{row:02d}"

    def hexes(self) -> tuple[Hex, ...]:
        """Every hex of the map in label order (column by column, rows downward)."""
        return self._hexes

    def __len__(self) -> int:
        return len(self._hexes)

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._hexes)

    def neighbors(self, h: Hex) -> list[Hex]:
        """The neighbours of a hex that are on the map, in :data:`DIRECTIONS` order."""
        return [n for n in neighbors(h) if self.contains(n)]

    def is_edge(self, h: Hex) -> bool:
        """Whether an on-map hex has a neighbour off the map (a map-edge hex)."""
        return self.contains(h) and any(not self.contains(n) for n in neighbors(h))

    def edge_sides(self) -> list[HexSide]:
        """The hexsides between on-map and off-map hexes, in label then direction order."""
        return [HexSide(h, n) for h in self._hexes for n in neighbors(h)
                if not self.contains(n)]

    def center(self, h: Hex, size: float) -> tuple[float, float]:
        """The pixel centre of a hex, the map's top-left corner being (0, 0)."""
        col, row = self.to_offset(h)
        x = size * (1.0 + 1.5 * (col - self._c0))
        # A one-column grid has nothing to be shifted against, so it is drawn unshifted.
        down = 0.5 if self.is_shifted(col) and self._c1 > self._c0 else 0.0
        y = size * _SQRT3 * (row - self._r0 + 0.5 + down)
        return (x, y)

    def corners(self, h: Hex, size: float) -> list[tuple[float, float]]:
        """The six pixel corners of a flat-topped hex, clockwise on screen from the east one."""
        x, y = self.center(h, size)
        return [(x + size * math.cos(math.pi / 3 * i), y + size * math.sin(math.pi / 3 * i))
                for i in range(6)]

    def side_corners(self, side: HexSide, size: float) -> tuple[tuple[float, float],
                                                               tuple[float, float]]:
        """The two pixel corners a hexside runs between, for drawing rivers and walls."""
        corners = self.corners(side.a, size)
        d = direction_to(side.a, side.b)
        # The side facing direction d (clockwise from north) joins corners d+4 and d+5 of
        # the clockwise-from-east corner list.
        return corners[(d + 4) % 6], corners[(d + 5) % 6]

    def pixel_size(self, size: float) -> tuple[float, float]:
        """The width and height in pixels of the whole grid drawn at this hex size."""
        ncols = self._c1 - self._c0 + 1
        nrows = self._r1 - self._r0 + 1
        width = size * (1.5 * (ncols - 1) + 2.0)
        extra = 0.5 if ncols > 1 else 0.0
        return (width, size * _SQRT3 * (nrows + extra))
