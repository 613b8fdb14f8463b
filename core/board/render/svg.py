"""SVG pictures of hex maps, area maps and matches, so a designer can check a map by eye.

Pure standard library: the document is written as text. A hex map shows flat-topped hexes
in their terrain colour with the printed id in each, hex features as badges, hexside
features as strokes along the shared edge, labels, a legend, off-map boxes beside the map
and the pieces as counters. An area map shows positions as rounded boxes joined by arrows.
Every hex, counter and position carries a ``<title>`` so a browser shows details on hover.
Hexes, positions, boxes and counters also carry ``data-hex``, ``data-area``, ``data-box``,
``data-piece``/``data-pieces`` and ``data-at`` attributes, so a web page can make them
clickable (``tabletop serve``); a face-down piece is never named in them.

A match's picture is also a :class:`Picture`: the part that stays the same from one position
to the next (a hex map's terrain, hexsides, features, ids and key, drawn once per map and
size) and the layers over it (``<g data-layer="NAME">``: the heading, the pieces with the
place names and marks, the column's boxes), so a page that holds the picture is sent only
the layers of the next one.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import threading
import weakref
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias
from xml.sax.saxutils import escape

from ...engine.errors import TabletopError
from ...engine.marks import MapMark
from ...engine.pieces import Piece
from ...engine.text import in_words
from ..areamap import AreaMap
from ..counters import DEFAULT_ART, CounterArt, Face, fan_offsets, load_counter_art, split_label, symbol_svg
from ..hexgrid import Hex, HexSide
from ..hexmap import HexMap
from ..mapdata import BoxSpec, FeatureType
from . import (
    BoxCards,
    FaceDown,
    PieceLabel,
    assign_side_colors,
    cards_text,
    default_piece_label,
    face_down_in_view,
    is_hidden,
    match_pieces,
    sides_of,
    stacks,
)

if TYPE_CHECKING:
    from ...engine.match import Game, Match

Point = tuple[float, float]

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
PAPER = "#f4f0e4"
INK = "#262626"
MARGIN = 20.0
TITLE_HEIGHT = 50.0
PANEL_WIDTH = 260.0
ARROW = "#2f2f2f"  # connections that run both ways
ARROW_ONEWAY = "#7a1010"  # directed arrows
PANEL_GAP = 26.0
LEGEND_ROW = 19.0
BOX_COUNTER = 34.0  # side of a counter drawn in an off-map box
HEX_COUNTER = 1.14  # side of a counter on a hex, in hex sizes (34 at the default size 30)
AREA_COUNTER = 34.0  # side of a counter in a position or a box drawn on an area map
BOX_ROWS_SHOWN = 4  # rows of counters a box shows before "+N more"
CARD_ROW = 20.0  # height of a card's row in an off-map box
CARDS_SHOWN = 8  # cards a box lists before "+N more"
AREA_BOX_WIDTH = 160.0
PLACED_BOX_WIDTH = 150.0  # a box an area map draws on the board (BoxSpec x, y)
PLACED_CARDS_SHOWN = 4  # card titles such a box lists before "+N more cards"
AREA_ROWS_SHOWN = 3  # rows of counters a position shows before "+N more"
AREA_TOP = 42.0  # a position's name and attributes, above its counters
LONG_TEXT = 24  # attribute strings longer than this are named, not printed, in a position

# Area attributes drawn as an icon (by feature symbol) rather than as text.
AREA_ICONS: dict[str, tuple[str, str]] = {
    "mountain": ("^", "#6b4a2b"), "hill": ("^", "#8a6a3a"), "airfield": ("=", "#444444"),
    "beach": ("~", "#2b6cb0"), "town": ("#", "#5a5a5a"), "fort": ("+", "#7a1f1f"),
    "bunker": ("+", "#7a1f1f"), "cave": ("o", "#3d3d3d"),
}
AREA_LAND = "#ece6cf"
AREA_BEACH = "#f2d98f"


# --- writing SVG text -------------------------------------------------------------------


def _num(x: float) -> str:
    """A coordinate as short text (one decimal, no trailing ``.0``)."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


@functools.cache
def _attr_name(key: str) -> str:
    """An attribute's SVG name from its keyword (``cls`` is ``class``, ``_`` is ``-``)."""
    return "class" if key == "cls" else key.replace("_", "-")


_SPECIAL = frozenset('&<>"')
"""The characters an attribute value must escape."""


def _attr_text(attrs: Mapping[str, Any]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        kind = type(value)
        if kind is float:
            shown = _num(value)
        elif kind is int:
            shown = str(value)
        else:
            shown = str(value)
            if not _SPECIAL.isdisjoint(shown):
                shown = escape(shown, {'"': "&quot;"})
        parts.append(f' {_attr_name(key)}="{shown}"')
    return "".join(parts)


class _Doc:
    """An SVG document being written element by element (attribute ``cls`` is ``class``,
    underscores in attribute names become hyphens)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def el(self, tag: str, text: str | None = None, /, **attrs: Any) -> None:
        """One element, empty or holding escaped text."""
        if text is None:
            self.parts.append(f"<{tag}{_attr_text(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{_attr_text(attrs)}>{escape(text)}</{tag}>")

    def open(self, tag: str, /, **attrs: Any) -> None:
        """Start an element that will hold others."""
        self.parts.append(f"<{tag}{_attr_text(attrs)}>")

    def close(self, tag: str) -> None:
        """End the element last opened with this tag."""
        self.parts.append(f"</{tag}>")

    def title(self, text: str) -> None:
        """A hover tooltip for the enclosing element."""
        self.el("title", text)

    def text(self, x: float, y: float, text: str, size: float, *, width: float | None = None,
             anchor: str = "middle", **attrs: Any) -> None:
        """A line of text; made smaller, then cut short, when it would be wider than ``width``."""
        if width is not None:
            text, size = _fit(text, size, width, bold=attrs.get("font_weight") == "bold")
        self.el("text", text, x=x, y=y, font_size=size, text_anchor=anchor, **attrs)

    def extend(self, other: _Doc) -> None:
        """Append another document's elements."""
        self.parts.extend(other.parts)


def _fit(text: str, size: float, width: float, *, bold: bool) -> tuple[str, float]:
    """Text and font size that fit a width: shrunk down to 70 %, then cut with an ellipsis.

    Widths are estimated from a typical sans-serif advance, since not every SVG viewer
    honours ``textLength``.
    """
    per_char = 0.66 if bold else 0.58
    need = per_char * size * len(text)
    if need <= width:
        return (text, size)
    smaller = max(size * width / need, size * 0.7)
    if per_char * smaller * len(text) <= width:
        return (text, smaller)
    keep = max(1, int(width / (per_char * smaller)) - 1)
    return (text[:keep].rstrip() + "…", smaller)


def _head(width: float, height: float) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(width)}" '
            f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}" '
            f'font-family="{FONT}">')


_DEFS = (
    "<defs>"
    "<style>g.fan{display:none;pointer-events:none}g.counter:hover>g.fan{display:inline}"
    "g.counter.open>g.fan{display:inline;pointer-events:auto}</style>"
    '<pattern id="facedown" patternUnits="userSpaceOnUse" width="5" height="5" '
    'patternTransform="rotate(45)"><rect width="2.2" height="5" fill="#000000" '
    'fill-opacity="0.22"/></pattern>'
    + "".join(
        f'<marker id="{mid}" viewBox="0 0 10 10" refX="{ref}" refY="5" markerWidth="{size}" '
        f'markerHeight="{size}" markerUnits="userSpaceOnUse" orient="auto">'
        f'<path d="{path}" fill="{color}"/></marker>'
        for mid, color, size, path, ref in (
            ("arrow", ARROW, 11, "M0,0 L10,5 L0,10 Z", 9),
            ("arrow-back", ARROW, 11, "M10,0 L0,5 L10,10 Z", 1),
            ("arrow-oneway", ARROW_ONEWAY, 13, "M0,0 L10,5 L0,10 Z", 9)))
    + "</defs>"
)


@dataclass(frozen=True)
class Fixed:
    """A part of a picture drawn once and kept (a map's terrain and key), with a digest of
    its text, so a picture's :attr:`Picture.key` is worked out without reading it again."""

    text: str
    digest: bytes = b""

    @classmethod
    def of(cls, parts: Iterable[str]) -> Fixed:
        """The parts, one a line, kept as one text with its digest."""
        text = "\n".join(parts)
        return cls(text, hashlib.blake2b(text.encode(), digest_size=16).digest())


Block: TypeAlias = "str | Fixed | tuple[str, Sequence[str]]"
"""A piece of a picture: text of the fixed part (``str``, or :class:`Fixed` when kept), or a
layer (its name and its elements)."""


class Picture:
    """A board picture as a fixed part and layers over it.

    The fixed part is what stays the same from one picture of a match to the next (the
    document's frame, a hex map's terrain, hexsides, features, hex ids and key), named by
    :attr:`key`; the layers are what a position changes (the heading, the pieces, the place
    names placed clear of them, the marks, the boxes and the side key), each an SVG group
    ``<g data-layer="NAME">``. :meth:`svg` is the whole document; a page that holds a picture
    with the same key draws a new one from :attr:`layers` and :attr:`size` alone.
    """

    __slots__ = ("_blocks", "height", "key", "layers", "title", "width")

    def __init__(self, width: float, height: float, title: str, blocks: Sequence[Block]) -> None:
        self.width, self.height, self.title = width, height, title
        self._blocks: list[str | Fixed | tuple[str]] = []  # (name,): a layer's place
        self.layers: dict[str, str] = {}
        """Each layer's elements (the group's content), by name, in the document's order."""
        digest = hashlib.blake2b(digest_size=12)
        digest.update(f"{_num(width)}\0{title}\0".encode())
        for block in blocks:
            if isinstance(block, tuple):
                name, parts = block
                self.layers[name] = "\n".join(parts)
                self._blocks.append((name,))
                digest.update(f"\0layer {name}\0".encode())
            elif isinstance(block, Fixed):
                self._blocks.append(block)
                digest.update(block.digest)
            else:
                self._blocks.append(block)
                digest.update(block.encode())
        self.key = digest.hexdigest()
        """The fixed part's identity: the same for every picture with the same frame, map
        and layer names (whatever the layers hold, and the height)."""

    @property
    def size(self) -> tuple[float, float]:
        """Width and height in picture units, as the document gives them (its viewBox from 0, 0)."""
        return (float(_num(self.width)), float(_num(self.height)))

    def fixed_text(self) -> str:
        """The elements of the fixed part (everything but the layers and the frame)."""
        return "\n".join(b.text if isinstance(b, Fixed) else b for b in self._blocks
                         if not isinstance(b, tuple))

    def svg(self) -> str:
        """The whole SVG document."""
        parts = [_head(self.width, self.height), f"<title>{escape(self.title)}</title>", _DEFS,
                 f'<rect width="100%" height="100%" fill="{PAPER}"/>']
        for block in self._blocks:
            if isinstance(block, Fixed):
                parts.append(block.text)
            elif isinstance(block, tuple):  # the group's content is the layer's text exactly
                parts.append(f'<g data-layer="{block[0]}">{self.layers[block[0]]}</g>')
            else:
                parts.append(block)
        parts += ["</svg>", ""]
        return "\n".join(parts)


def _picture(width: float, height: float, doc: _Doc, *, title: str, layer: str = "board") -> Picture:
    """A picture whose every element is one layer (nothing of it is kept)."""
    return Picture(width, height, title, [(layer, doc.parts)])


# --- colours ------------------------------------------------------------------------------


def _rgb(color: str) -> tuple[int, int, int] | None:
    c = color.strip().lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    if len(c) != 6:
        return None
    try:
        return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))
    except ValueError:
        return None


def _text_on(color: str) -> str:
    """Black or white, whichever reads better on a background colour."""
    rgb = _rgb(color)
    if rgb is None:
        return INK
    r, g, b = rgb
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _darker(color: str, k: float = 0.55) -> str:
    """A darker shade of a colour, for outlines."""
    rgb = _rgb(color)
    if rgb is None:
        return INK
    return "#{:02x}{:02x}{:02x}".format(*(int(v * k) for v in rgb))


# --- geometry ---------------------------------------------------------------------------


def _hex_path(cx: float, cy: float, size: float) -> str:
    pts = [(cx + size * math.cos(math.pi / 3 * i), cy + size * math.sin(math.pi / 3 * i))
           for i in range(6)]
    return "M" + " L".join(f"{_num(x)},{_num(y)}" for x, y in pts) + " Z"


def _shared_edge(hexmap: HexMap, a: Hex, b: Hex, size: float) -> tuple[Point, Point]:
    """The two pixel corners of the hexside between adjacent hexes ``a`` and ``b``."""
    (ax, ay), (bx, by) = hexmap.grid.center(a, size), hexmap.grid.center(b, size)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    corners = sorted(hexmap.grid.corners(a, size), key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)
    return corners[0], corners[1]


def _unit_normal(p: Point, q: Point) -> Point:
    """A unit vector at right angles to the segment ``p``-``q``."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    return (-dy / length, dx / length)


# --- feature glyphs -----------------------------------------------------------------------


def _star(cx: float, cy: float, r: float) -> str:
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        ang = -math.pi / 2 + i * math.pi / 5
        pts.append(f"{_num(cx + rad * math.cos(ang))},{_num(cy + rad * math.sin(ang))}")
    return "M" + " L".join(pts) + " Z"


def _glyph(doc: _Doc, symbol: str, cx: float, cy: float, r: float, color: str) -> None:
    """A feature's icon, chosen by its one-character symbol, inside a radius ``r``."""
    w = max(r * 0.28, 0.8)
    if symbol == "^":
        doc.el("path", d=f"M{_num(cx - r * 0.85)},{_num(cy + r * 0.6)} L{_num(cx)},{_num(cy - r * 0.75)} "
                         f"L{_num(cx + r * 0.85)},{_num(cy + r * 0.6)} Z", fill=color)
    elif symbol == "=":
        doc.el("rect", x=cx - r * 0.95, y=cy - r * 0.3, width=r * 1.9, height=r * 0.6, fill=color,
               transform=f"rotate(-35 {_num(cx)} {_num(cy)})")
    elif symbol == "~":
        for dy in (-0.3, 0.35):
            y = cy + r * dy
            doc.el("path", d=f"M{_num(cx - r * 0.85)},{_num(y)} q{_num(r * 0.42)},{_num(-r * 0.45)} "
                             f"{_num(r * 0.85)},0 t{_num(r * 0.85)},0",
                   fill="none", stroke=color, stroke_width=w, stroke_linecap="round")
    elif symbol == "*":
        doc.el("path", d=_star(cx, cy, r * 0.95), fill=color)
    elif symbol == "+":
        k = r * 0.8
        doc.el("path", d=f"M{_num(cx - k)},{_num(cy)} H{_num(cx + k)} M{_num(cx)},{_num(cy - k)} "
                         f"V{_num(cy + k)}", stroke=color, stroke_width=w * 1.4, fill="none")
    elif symbol in "xX":
        k = r * 0.6
        doc.el("path", d=f"M{_num(cx - k)},{_num(cy - k)} L{_num(cx + k)},{_num(cy + k)} "
                         f"M{_num(cx - k)},{_num(cy + k)} L{_num(cx + k)},{_num(cy - k)}",
               stroke=color, stroke_width=w * 1.3, fill="none", stroke_linecap="round")
    elif symbol in "oO0":
        doc.el("circle", cx=cx, cy=cy, r=r * 0.6, fill="none", stroke=color, stroke_width=w * 1.2)
    elif symbol == "#":
        doc.el("rect", x=cx - r * 0.6, y=cy - r * 0.6, width=r * 1.2, height=r * 1.2, fill=color)
    else:
        doc.el("text", symbol, x=cx, y=cy + r * 0.42, font_size=r * 1.25, font_weight="bold",
               text_anchor="middle", fill=color)


def _badge(doc: _Doc, feature: FeatureType, cx: float, cy: float, r: float) -> None:
    """A hex feature as a round badge: pale disc ringed in its colour, its icon inside."""
    doc.el("circle", cx=cx, cy=cy, r=r, fill="#ffffff", fill_opacity="0.88", stroke=feature.color,
           stroke_width=max(r * 0.16, 0.8))
    _glyph(doc, feature.symbol, cx, cy, r * 0.72, feature.color)


# Badge places in a hex, in units of the hex size: beside the counter first, then below, then above.
_SLOTS: tuple[Point, ...] = ((-0.78, 0.04), (0.78, 0.04), (-0.4, 0.62), (0.4, 0.62),
                             (-0.48, -0.5), (0.48, -0.5))


def _hexside_stroke(doc: _Doc, feature: FeatureType, p: Point, q: Point, toward: Point,
                    size: float, *, scale: float = 1.0) -> None:
    """A hexside feature along the edge ``p``-``q`` in the style its symbol names.

    ``~`` wavy (a river), ``-`` dashed, ``.``/``:`` dotted (a contour line), ``^`` with ticks
    toward the point ``toward`` (a ridge or slope), ``=`` a bar across the edge (a bridge),
    anything else a solid line.
    """
    (x1, y1), (x2, y2) = p, q
    w = feature.width * scale
    sym = feature.symbol
    line: dict[str, Any] = {"stroke": feature.color, "stroke_width": w, "fill": "none",
                            "stroke_linecap": "round"}
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length  # unit normal
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    if (toward[0] - mx) * nx + (toward[1] - my) * ny < 0:
        nx, ny = -nx, -ny
    if sym == "~":
        amp = size * 0.1
        pts = [(x1 + dx * t, y1 + dy * t) for t in (0.25, 0.5, 0.75)]
        d = (f"M{_num(x1)},{_num(y1)} Q{_num(x1 + dx * 0.125 + nx * amp)},{_num(y1 + dy * 0.125 + ny * amp)} "
             f"{_num(pts[0][0])},{_num(pts[0][1])}")
        for px, py in (pts[1], pts[2], (x2, y2)):
            d += f" T{_num(px)},{_num(py)}"
        doc.el("path", d=d, **line)
    elif sym == "=":
        half = size * 0.32
        for off in (-0.22, 0.22):
            bx, by = mx + dx * off * 0.5, my + dy * off * 0.5
            doc.el("line", x1=bx - nx * half, y1=by - ny * half, x2=bx + nx * half, y2=by + ny * half,
                   stroke=_darker(feature.color, 0.5), stroke_width=w * 0.5, stroke_linecap="round")
        doc.el("line", x1=mx - nx * half * 0.9, y1=my - ny * half * 0.9, x2=mx + nx * half * 0.9,
               y2=my + ny * half * 0.9, stroke=feature.color, stroke_width=w * 1.2)
    else:
        dash = {"-": f"{_num(w * 2.2)},{_num(w * 1.6)}", ".": f"0.1,{_num(w * 1.9)}",
                ":": f"0.1,{_num(w * 1.9)}"}.get(sym)
        doc.el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke_dasharray=dash, **line)
        if sym == "^":
            tick = size * 0.16
            for t in (0.2, 0.4, 0.6, 0.8):
                bx, by = x1 + dx * t, y1 + dy * t
                doc.el("line", x1=bx, y1=by, x2=bx + nx * tick, y2=by + ny * tick, stroke=feature.color,
                       stroke_width=max(w * 0.45, 1.0), stroke_linecap="round")


# --- counters ---------------------------------------------------------------------------


def _split_label(label: str) -> tuple[str, str]:
    """A counter label as a name line and a values line (``"1/23 4-3-4"`` -> both halves)."""
    return split_label(label)


Box = tuple[float, float, float, float]
"""A rectangle as (x0, y0, x1, y1)."""


def stack_groups(pieces: Sequence[Piece], counters: _Counters) -> list[list[Piece]]:
    """Pieces of one place that look alike (same side, kind and printed face, or both
    face-down) gathered into stacks, in the order first met: a position or box shows each
    as one counter with its depth."""
    groups: dict[tuple[Any, ...], list[Piece]] = {}
    for p in pieces:
        down = counters.face_down(p)
        key = (True, p.side) if down else (False, p.side, p.kind, counters.label(p), p.face,
                                           p.steps, tuple(sorted(map(str, p.attrs.items()))))
        groups.setdefault(key, []).append(p)
    return list(groups.values())


Drawn: TypeAlias = "tuple[tuple[str, ...], Box]"
"""A counter (a stack) as drawn: its elements and the room it takes."""

KEPT_COUNTERS = 1024
"""How many stacks drawn a match keeps for its next pictures (all thrown away past that): a
few pictures' worth on a big sheet (Valor of Arms: some 110 stacks a side, about 1 MB of
text for 1,000 stacks)."""


class _Counters:
    """Draws counters as printed chits: the game's counter art (colours of side and
    formation, type symbol, designation, printed values, reduced band, status markers),
    the face-down back, a stack's depth and, on hover or click, the stack opened as a fan.

    With ``kept`` (a match's table of stacks drawn for its earlier pictures), a stack that
    looks as it did at the same place is not written again: its key is everything the
    drawing shows (:meth:`_look` of each counter, the place and the size), never a stamp."""

    def __init__(self, *, label: PieceLabel, colors: Mapping[str, str], face_down: FaceDown,
                 art: CounterArt | None = None, kept: dict[Hashable, Drawn] | None = None) -> None:
        self._label = label
        self.art = art or DEFAULT_ART
        self.colors = {**colors, **self.art.side_colours()}
        self.face_down = face_down
        self.boxes: list[Box] = []  # the room each counter drawn takes (labels keep clear)
        self.faces: dict[str, Face] = {}
        self.labels: dict[str, str] = {}
        self.places: dict[str, str] = {}  # a box's id (and its "box:" form) -> its printed name
        self.kept = kept

    def label(self, piece: Piece) -> str:
        """The game's label of a piece (worked out once a picture)."""
        got = self.labels.get(piece.id)
        if got is None:
            got = self.labels[piece.id] = self._label(piece)
        return got

    def color(self, side: str) -> str:
        """The counter colour of a side (grey for a side with none)."""
        return self.colors.get(side, "#9a9a9a")

    def face(self, piece: Piece) -> Face:
        """What the piece's face-up counter shows (worked out once a picture)."""
        got = self.faces.get(piece.id)
        if got is None:
            got = self.faces[piece.id] = self.art.face(piece, self.label(piece), self.color(piece.side))
        return got

    def _look(self, piece: Piece) -> tuple[Any, ...]:
        """Everything a piece's counter shows of it (its tooltip too): what a kept drawing
        of a stack is found by."""
        if self.face_down(piece):
            return (True, piece.side, self._back_fill(piece), self.art.back.text)
        f = self.face(piece)
        return (False, piece.id, piece.side, piece.hidden, self.label(piece), f.fill, f.ink, f.symbol,
                f.symbol_text, f.type_name, f.designation, f.factors, f.marker,
                tuple((st.name, st.mark, st.fill, st.section) for st in f.status),
                (f.reduced.name, f.reduced.fill) if f.reduced is not None else None)

    def draw(self, doc: _Doc, stack: Sequence[Piece], cx: float, cy: float, c: float, *,
             fan: bool = True) -> None:
        """The top piece of a stack as a counter of side ``c`` centred at (cx, cy), its depth
        shown; the stack's other counters in a fan that opens on hover or click."""
        if self.kept is None:
            self._draw(doc, stack, cx, cy, c, fan=fan)
            return
        where = stack[0].location
        key = (cx, cy, c, fan, where, self.place_name(where), tuple(self._look(p) for p in stack))
        got = self.kept.get(key)
        if got is None:
            part = _Doc()
            self._draw(part, stack, cx, cy, c, fan=fan)
            got = (tuple(part.parts), self.boxes[-1])
            if len(self.kept) >= KEPT_COUNTERS:
                self.kept.clear()
            self.kept[key] = got
        else:
            self.boxes.append(got[1])
        doc.parts.extend(got[0])

    def _draw(self, doc: _Doc, stack: Sequence[Piece], cx: float, cy: float, c: float, *,
              fan: bool) -> None:
        piece = stack[0]
        count = len(stack)
        down = self.face_down(piece)
        x0, y0 = cx - c / 2, cy - c / 2
        shown = [p.id for p in stack if not self.face_down(p)]
        cls = "counter face-down" if down else "counter"
        if count > 1:
            cls += " stack"
        # data-pieces and data-at let an interactive page find every face-up piece of the
        # stack and the place under it (face-down pieces are never named)
        doc.open("g", cls=cls, data_piece=None if down else piece.id,
                 data_pieces=json.dumps(shown) if shown else None, data_at=piece.location,
                 data_depth=count if count > 1 else None)
        doc.title(self._tooltip(stack))
        fill = self._back_fill(piece) if down else self.face(piece).fill
        for k in range(min(count - 1, 2), 0, -1):
            off = k * c * 0.09
            doc.el("rect", x=x0 + off, y=y0 + off, width=c, height=c, rx=c * 0.07, fill=fill,
                   stroke=_darker(fill, 0.4), stroke_width=0.8, cls="under")
        self._chit(doc, piece, cx, cy, c)
        if count > 1:
            bx, by, r = x0 + c, y0, c * 0.22
            doc.open("g", cls="depth")
            doc.el("circle", cx=bx, cy=by, r=r, fill="#ffffff", stroke=INK, stroke_width=0.8)
            doc.text(bx, by + r * 0.45, str(count), r * 1.25, font_weight="bold", fill=INK, cls="stack")
            doc.close("g")
        room = c * (0.09 * min(count - 1, 2))
        self.boxes.append((x0 - c * 0.12, y0 - c * 0.24, x0 + c + max(room, c * 0.24 if count > 1 else 0,
                                                                       c * 0.2), y0 + c + room + 1))
        if fan and count > 1:
            self._fan(doc, stack, cx, cy, c)
        doc.close("g")

    def _back_fill(self, piece: Piece) -> str:
        """The colour of a face-down counter: the back's, else its side's (never its
        formation's, which would tell what the back hides)."""
        return self.art.back.fill or self.color(piece.side)

    def _chit(self, doc: _Doc, piece: Piece, cx: float, cy: float, c: float) -> None:
        """One counter's square and what is printed on it (face-down: the game's back)."""
        x0, y0 = cx - c / 2, cy - c / 2
        if self.face_down(piece):
            fill = self._back_fill(piece)
            ink = _text_on(fill)
            doc.el("rect", x=x0, y=y0, width=c, height=c, rx=c * 0.07, fill=fill,
                   stroke=_darker(fill, 0.4), stroke_width=max(c * 0.03, 0.8), cls="chit")
            doc.el("rect", x=x0, y=y0, width=c, height=c, rx=c * 0.07, fill="url(#facedown)")
            doc.text(cx, cy + c * 0.17, self.art.back.text, c * 0.5, font_weight="bold", fill=ink)
            return
        face = self.face(piece)
        doc.el("rect", x=x0, y=y0, width=c, height=c, rx=c * 0.07, fill=face.fill,
               stroke=_darker(face.fill, 0.4), stroke_width=max(c * 0.03, 0.8), cls="chit",
               stroke_dasharray=f"{_num(c * 0.1)},{_num(c * 0.06)}" if piece.hidden else None)
        avail = c * 0.92
        if face.marker:
            words = face.factors.split()
            if len(face.factors) > 9 and len(words) > 1:
                half = (len(words) + 1) // 2
                lines = [" ".join(words[:half]), " ".join(words[half:])]
            else:
                lines = [face.factors]
            for k, line in enumerate(lines):
                doc.text(cx, cy + c * (0.09 - 0.13 * (len(lines) - 1) + 0.26 * k), line, c * 0.24,
                         width=avail, font_weight="bold", fill=face.ink)
            return
        if face.reduced is not None:
            doc.el("rect", x=x0 + c * 0.04, y=y0 + c * 0.03, width=c * 0.92, height=c * 0.08,
                   fill=face.reduced.fill, cls="reduced")
        if face.designation:
            doc.text(cx, y0 + c * 0.3, face.designation, c * 0.22, width=avail, fill=face.ink)
        bw, bh = c * 0.56, c * 0.28
        doc.open("g", cls="symbol", data_symbol=face.symbol)
        doc.parts.append(symbol_svg(face.symbol, cx - bw / 2, y0 + c * 0.36, bw, bh, INK,
                                    text=face.symbol_text))
        doc.close("g")
        if face.factors:
            doc.text(cx, y0 + c * 0.93, face.factors, c * 0.3, width=avail, font_weight="bold",
                     fill=face.ink)
        for k, status in enumerate(face.status[:3]):
            m = c * 0.3
            sx, sy = x0 + c - m * 0.4, y0 + c * 0.3 + k * m * 1.05
            doc.open("g", cls="status", data_status=status.name)
            doc.el("rect", x=sx, y=sy, width=m, height=m, rx=m * 0.15, fill=status.fill,
                   stroke="#ffffff", stroke_width=max(m * 0.08, 0.5))
            doc.text(sx + m / 2, sy + m * 0.72, status.mark, m * (0.72 if len(status.mark) == 1 else 0.5),
                     font_weight="bold", fill=_text_on(status.fill))
            doc.close("g")

    def _fan(self, doc: _Doc, stack: Sequence[Piece], cx: float, cy: float, c: float) -> None:
        """The stack opened: every counter of it side by side, top first (hidden until the
        stack is hovered or clicked open)."""
        offsets = fan_offsets(len(stack), c)
        x1 = cx + max(dx for dx, _ in offsets) + c * 0.62
        y1 = cy + max(dy for _, dy in offsets) + c * 0.62
        doc.open("g", cls="fan")
        doc.el("rect", x=cx + offsets[0][0] - c * 0.62, y=cy - c * 0.62,
               width=x1 - (cx + offsets[0][0] - c * 0.62), height=y1 - (cy - c * 0.62), rx=c * 0.12,
               fill="#fffdf6", fill_opacity="0.96", stroke="#6d6552", stroke_width=1, cls="fan-back")
        for piece, (dx, dy) in zip(stack, offsets, strict=True):
            down = self.face_down(piece)
            doc.open("g", cls="fan-item face-down" if down else "fan-item",
                     data_piece=None if down else piece.id)
            doc.title(self._tooltip([piece]))
            self._chit(doc, piece, cx + dx, cy + dy, c)
            doc.close("g")
        doc.close("g")

    def _tooltip(self, stack: Sequence[Piece]) -> str:
        shown = []
        for p in stack:
            if self.face_down(p):
                shown.append(f"face-down {p.side} piece")
                continue
            face = self.face(p)
            extra = [face.type_name] if not face.marker else []
            if face.reduced is not None:
                extra.append(face.reduced.name)
            extra += [s.name + (f" ({s.section})" if s.section else "") for s in face.status]
            shown.append(f"{self.label(p)} ({p.side or 'marker'}"
                         + "".join(f", {e}" for e in extra) + ")"
                         + (" (hidden)" if p.hidden else ""))
        return f"{self.place_name(stack[0].location)}: " + "; ".join(shown)

    def place_name(self, location: str) -> str:
        """A place as a player reads it in a tooltip: a hex by its id, a box by its name,
        anything else in words."""
        return self.places.get(location) or in_words(location.removeprefix("box:"))


# --- the side panel: legend and boxes ------------------------------------------------------


class _Panel:
    """The column beside a map: a legend, then off-map boxes, laid out top to bottom."""

    def __init__(self, x: float, y: float, width: float = PANEL_WIDTH) -> None:
        self.x, self.y, self.width = x, y, width
        self.doc = _Doc()

    def heading(self, text: str) -> None:
        """A section heading."""
        self.y += 6
        self.doc.text(self.x, self.y + 12, text, 13, anchor="start", font_weight="bold", fill=INK)
        self.y += 19

    def row(self, name: str, draw: Callable[[_Doc, float, float], None]) -> None:
        """A legend row: a sample drawn by ``draw(doc, x, y_mid)`` and its name."""
        mid = self.y + LEGEND_ROW / 2
        draw(self.doc, self.x + 16, mid)
        self.doc.text(self.x + 38, mid + 4, name, 11, anchor="start", width=self.width - 40, fill=INK)
        self.y += LEGEND_ROW

    def note(self, text: str) -> None:
        """A small line of explanation."""
        self.doc.text(self.x, self.y + 11, text, 10.5, anchor="start", width=self.width, fill="#555555")
        self.y += 14

    def box(self, box_id: str, name: str, pieces: Sequence[Piece], counters: _Counters, *,
            blind: bool = False, capacity: int | None = None,
            cards: Sequence[str] | int | None = None) -> None:
        """An off-map box as a labelled rectangle holding its counters (each one on its own),
        then its cards, if the game shows any there (each a named card, or a face-down count)."""
        c = BOX_COUNTER
        gap = 9.0
        per_row = max(1, int((self.width - gap) // (c + gap)))
        limit = per_row * BOX_ROWS_SHOWN
        groups = stack_groups(pieces, counters)
        shown = groups[:limit]
        rows = max(1, math.ceil(len(shown) / per_row)) if shown else 0
        extra = 14.0 if len(groups) > limit else 0.0
        card_rows = _card_rows(cards)
        cards_h = len(card_rows) * CARD_ROW
        height = 26 + rows * (c + gap) + extra + cards_h + (4 if rows or cards_h else 6)
        d = self.doc
        d.open("g", cls="box", data_box=box_id)
        d.title(f"{name}: {_pieces_count(len(pieces))}"
                + (f"; {cards_text(cards)}" if cards is not None else ""))
        d.el("rect", x=self.x, y=self.y, width=self.width, height=height, rx=5, fill="#fbf9f2",
             stroke="#6d6552", stroke_width=1.2, stroke_dasharray="5,3" if blind else None)
        count = (cards if isinstance(cards, int) else len(cards)) if cards is not None else None
        info = [f"{len(pieces)}" if count is None else f"{count} card{'s' if count != 1 else ''}"] \
            + (["blind"] if blind else []) + ([f"holds {capacity}"] if capacity is not None else [])
        info_text = " · ".join(info)
        d.text(self.x + 8, self.y + 17, name, 12, anchor="start", font_weight="bold",
               width=self.width - 24 - 0.58 * 10 * len(info_text), fill=INK, cls="box-name")
        d.text(self.x + self.width - 8, self.y + 17, info_text, 10, anchor="end", fill="#555555")
        for k, group in enumerate(shown):
            col, row = k % per_row, k // per_row
            cx = self.x + gap + c / 2 + col * (c + gap)
            cy = self.y + 26 + c / 2 + row * (c + gap)
            counters.draw(d, group, cx, cy, c)
        if extra:
            d.text(self.x + 8, self.y + 26 + rows * (c + gap) + 6, f"+{len(groups) - limit} more", 10,
                   anchor="start", fill="#555555")
        top = self.y + 26 + rows * (c + gap) + extra
        for k, (text, face_up) in enumerate(card_rows):
            y = top + k * CARD_ROW
            d.el("rect", x=self.x + 8, y=y + 1, width=self.width - 16, height=CARD_ROW - 4, rx=3,
                 fill="#ffffff" if face_up else "#8a7f66", stroke="#6d6552", stroke_width=0.8,
                 cls="card" if face_up else "card face-down")
            d.text(self.x + 14, y + CARD_ROW / 2 + 2.5, text, 10, anchor="start", width=self.width - 28,
                   fill=INK if face_up else "#ffffff")
        d.close("g")
        self.y += height + 10


def _card_rows(cards: Sequence[str] | int | None) -> list[tuple[str, bool]]:
    """The rows a box's cards take: (text, face up), at most CARDS_SHOWN and a "+N more"."""
    if cards is None:
        return []
    if isinstance(cards, int):
        return [(cards_text(cards), False)] if cards else [("no cards", True)]
    rows = [(str(card), True) for card in cards[:CARDS_SHOWN]]
    if len(cards) > CARDS_SHOWN:
        rows.append((f"+{len(cards) - CARDS_SHOWN} more", True))
    return rows or [("no cards", True)]


def _legend_sides(panel: _Panel, sides: Sequence[str], counters: _Counters) -> None:
    if not sides:
        return
    panel.heading("Sides")
    for side in sides:
        color = counters.color(side)

        def swatch(doc: _Doc, x: float, y: float, color: str = color) -> None:
            doc.el("rect", x=x - 8, y=y - 8, width=16, height=16, rx=2, fill=color,
                   stroke=_darker(color, 0.4), stroke_width=1)

        panel.row(side or "(neutral markers)", swatch)
    panel.note("Stack: top counter shown, the disc counts it")
    panel.note("Hatched, with ?: a face-down piece")
    panel.note("Dashed edge: a hidden piece shown face-up")


def _unplaced(pieces_by_place: Mapping[str, list[Piece]], known: Iterable[str]) -> dict[str, list[Piece]]:
    """The stacks whose place is neither on the map nor a box (listed apart, not lost)."""
    places = set(known)
    return {loc: ps for loc, ps in sorted(pieces_by_place.items()) if loc not in places}


def _boxes(panel: _Panel, boxes: Iterable[BoxSpec], by_place: Mapping[str, list[Piece]],
           elsewhere: Mapping[str, list[Piece]], counters: _Counters, cards: BoxCards | None = None) -> None:
    boxes = list(boxes)
    cards = cards or {}
    if boxes:
        panel.heading("Off-map boxes")
        for box in boxes:
            panel.box(box.id, box.name, by_place.get(box.id, []), counters, blind=box.blind,
                      capacity=box.capacity, cards=cards.get(box.id))
    if elsewhere:
        panel.heading("Elsewhere")
        for loc, ps in elsewhere.items():
            panel.box(loc, in_words(loc), ps, counters)


def _heading(doc: _Doc, title: str, subtitle: str) -> None:
    doc.text(MARGIN, MARGIN + 16, title, 20, anchor="start", font_weight="bold", fill=INK)
    if subtitle:
        doc.text(MARGIN, MARGIN + 34, subtitle, 12, anchor="start", fill="#555555")


# --- hex maps -------------------------------------------------------------------------------


def render_hexmap(hexmap: HexMap, pieces: Iterable[Piece] = (), *, title: str = "",
                  piece_label: PieceLabel | None = None, hex_size: float = 30,
                  show_ids: bool = True, side_colors: Mapping[str, str] | None = None,
                  face_down: FaceDown | None = None, subtitle: str | None = None,
                  cards: BoxCards | None = None, marks: Sequence[MapMark] = (),
                  art: CounterArt | None = None) -> str:
    """The whole hex map as an SVG document, with its legend, boxes and pieces (and the
    ``cards`` a game shows in its boxes, the ``marks`` its rules keep on the map).

    ``pieces`` are grouped by ``location``: a hex id puts a counter in that hex, a box id in
    the box beside the map, anything else under "Elsewhere". Within a place the first piece
    given is the top of the stack (the one drawn). ``face_down`` says which pieces are drawn
    face-down (default: those with ``hidden`` set).
    """
    return hexmap_picture(hexmap, pieces, title=title, piece_label=piece_label, hex_size=hex_size,
                          show_ids=show_ids, side_colors=side_colors, face_down=face_down,
                          subtitle=subtitle, cards=cards, marks=marks, art=art).svg()


def hexmap_picture(hexmap: HexMap, pieces: Iterable[Piece] = (), *, title: str = "",
                   piece_label: PieceLabel | None = None, hex_size: float = 30,
                   show_ids: bool = True, side_colors: Mapping[str, str] | None = None,
                   face_down: FaceDown | None = None, subtitle: str | None = None,
                   cards: BoxCards | None = None, marks: Sequence[MapMark] = (),
                   art: CounterArt | None = None, kept: dict[Hashable, Drawn] | None = None) -> Picture:
    """:func:`render_hexmap` as a :class:`Picture`: the map's terrain and key are its fixed
    part (drawn once per map and size), the heading, the pieces with the place names and
    marks over the map (``map``) and the column's marks, sides and boxes (``panel``) its layers.
    ``kept``: a table of stacks drawn before, to take again where they look the same (see
    :func:`match_picture`)."""
    s = float(hex_size)
    pieces = list(pieces)
    by_place = stacks(pieces)
    sides = sides_of(pieces, list(side_colors or {}))
    counters = _Counters(label=piece_label or default_piece_label,
                         colors=assign_side_colors(sides, side_colors), face_down=face_down or is_hidden,
                         art=art, kept=kept)
    counters.places = {b.id: b.name for b in hexmap.boxes.values()}
    grid = hexmap.grid
    fixed = _fixed_map(hexmap, s, show_ids)
    ox, oy = MARGIN, MARGIN + TITLE_HEIGHT

    heading = _Doc()
    spec = hexmap.spec
    sub = subtitle if subtitle is not None else " · ".join(
        x for x in (hexmap.name if title else "", spec.scale,
                    f"{len(hexmap)} hexes, columns {grid.columns[0]:02d}-{grid.columns[1]:02d}, "
                    f"rows {grid.rows[0]:02d}-{grid.rows[1]:02d}") if x)
    _heading(heading, title or hexmap.name, sub)
    doc = _Doc()
    _draw_hex_names(doc, fixed.named, s, by_place)
    doc.open("g", cls="pieces")
    for hid in sorted((p for p in by_place if p in fixed.centres), key=lambda p: fixed.centres[p][0]):
        _, cx, cy = fixed.centres[hid]  # in the map's order of hexes
        counters.draw(doc, by_place[hid], cx, cy + s * 0.04, s * HEX_COUNTER)
    doc.close("g")
    _draw_marks(doc, hexmap, marks, s)
    # place names go where no counter is, drawn under the pieces so an opened stack covers them
    names = _Doc()
    _draw_labels(names, hexmap, s, counters.boxes)
    doc.parts[0:0] = names.parts

    panel = _Panel(fixed.panel_x, fixed.panel_y)
    _legend_marks(panel, marks, s)
    _legend_sides(panel, [sd for sd in sides if any(p.side == sd for p in pieces)], counters)
    _boxes(panel, hexmap.boxes.values(), by_place,
           _unplaced(by_place, fixed.hex_ids | set(hexmap.boxes)), counters, cards)

    width = fixed.panel_x + panel.width + MARGIN
    height = max(oy + fixed.map_h, panel.y) + MARGIN
    return Picture(width, height, title or hexmap.name, [
        ("heading", heading.parts), f'<g class="map" transform="translate({_num(ox)},{_num(oy)})">',
        fixed.map, ("map", doc.parts), "</g>", fixed.legend, ("panel", panel.doc.parts)])


@dataclass(frozen=True)
class _FixedMap:
    """What a picture of a hex map draws the same every time: the map's own drawing
    (hexes, ids, hexsides, features), the column's terrain key and where the rest of the
    column starts."""

    map: Fixed
    legend: Fixed
    map_h: float
    panel_x: float
    panel_y: float
    hex_ids: frozenset[str]
    centres: Mapping[str, tuple[int, float, float]]  # hex id -> its place in the map's order, centre
    named: tuple[tuple[str, str, float, float, str], ...]  # see _named_hexes


class _PerMap:
    """What is drawn once per map object and drawing setting, kept while the map lives and
    shared by every thread that draws it (the table is read and filled under a lock; two
    threads drawing the same map at once may both draw it, and keep the first)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: weakref.WeakKeyDictionary[HexMap, dict[tuple[float, bool], _FixedMap]] = \
            weakref.WeakKeyDictionary()

    def get(self, hexmap: HexMap, key: tuple[float, bool], build: Callable[[], _FixedMap]) -> _FixedMap:
        """The kept drawing of ``hexmap`` under ``key``, drawn by ``build()`` the first time."""
        with self._lock:
            got = self._kept.get(hexmap, {}).get(key)
        if got is None:
            made = build()
            with self._lock:
                got = self._kept.setdefault(hexmap, {}).setdefault(key, made)
        return got


_MAPS = _PerMap()


def _fixed_map(hexmap: HexMap, s: float, show_ids: bool) -> _FixedMap:
    """The map's own drawing (hexes, hexsides, features) and its key in the column, drawn once
    per map, hex size and id setting: a map does not change in play (what changes on it is
    pieces and game variables), and on a big sheet it is most of the picture's cost."""

    def build() -> _FixedMap:
        doc = _Doc()
        _draw_hexes(doc, hexmap, s, show_ids)
        _draw_hexsides(doc, hexmap, s)
        _draw_features(doc, hexmap, s)
        map_w, map_h = hexmap.grid.pixel_size(s)
        panel = _Panel(MARGIN + map_w + PANEL_GAP, MARGIN + TITLE_HEIGHT - 6)
        _legend_hexmap(panel, hexmap, s)
        hexes = list(hexmap.hexes())
        return _FixedMap(Fixed.of(doc.parts), Fixed.of(panel.doc.parts), map_h, panel.x, panel.y,
                         frozenset(hexmap.label(h) for h in hexes),
                         {hexmap.label(h): (k, *hexmap.grid.center(h, s)) for k, h in enumerate(hexes)},
                         _named_hexes(hexmap, s))

    return _MAPS.get(hexmap, (s, show_ids), build)


def _draw_hexes(doc: _Doc, hexmap: HexMap, s: float, show_ids: bool) -> None:
    """One polygon per hex in its terrain colour, with the printed id and the hex's name."""
    grid = hexmap.grid
    doc.open("g", cls="hexes", stroke="#5d5a50", stroke_width=max(s * 0.025, 0.5),
             stroke_opacity="0.7")
    for h in hexmap.hexes():
        hid = hexmap.label(h)
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in grid.corners(h, s))
        doc.open("polygon", cls="hex", points=pts, fill=hexmap.terrain_type(h).color, data_hex=hid)
        doc.title(_hex_tooltip(hexmap, h))
        doc.close("polygon")
    doc.close("g")
    doc.open("g", cls="hex-text", fill=INK, stroke="none")
    for h in hexmap.hexes():
        cx, cy = grid.center(h, s)
        on = _text_on(hexmap.terrain_type(h).color)
        if show_ids:
            doc.text(cx, cy - s * 0.6, hexmap.label(h), s * 0.26, cls="hex-id", fill=on,
                     fill_opacity="0.75")
    doc.close("g")


def _draw_hex_names(doc: _Doc, named: Sequence[tuple[str, str, float, float, str]], s: float,
                    by_place: Mapping[str, list[Piece]]) -> None:
    """The names printed in single hexes (``named``: id, name, centre and ink of each, see
    :func:`_named_hexes`), at the foot of the hex; under a counter the name is left out of the
    picture (the hex's tooltip still gives it), so it never covers one."""
    doc.open("g", cls="hex-names", stroke="none")
    for hid, name, cx, cy, ink in named:
        if by_place.get(hid):
            continue
        doc.text(cx, cy + s * 0.8, name, s * 0.22, width=s * 1.2, font_style="italic", fill=ink,
                 cls="hex-name")
    doc.close("g")


def _named_hexes(hexmap: HexMap, s: float) -> tuple[tuple[str, str, float, float, str], ...]:
    """The hexes with a name of their own, in the map's order: id, name, centre, and the ink
    that reads on the hex's terrain."""
    out = []
    for h in hexmap.hexes():
        name = hexmap.hex_name(h)
        if name:
            cx, cy = hexmap.grid.center(h, s)
            out.append((hexmap.label(h), name, cx, cy, _text_on(hexmap.terrain_type(h).color)))
    return tuple(out)


def _pieces_count(n: int) -> str:
    """How many pieces a box holds, in words: "no pieces", "1 piece", "3 pieces"."""
    return "no pieces" if n == 0 else f"{n} piece{'s' if n != 1 else ''}"


def _hex_tooltip(hexmap: HexMap, h: Hex) -> str:
    parts = [hexmap.label(h), hexmap.terrain_type(h).name]
    name = hexmap.hex_name(h)
    if name:
        parts.insert(1, name)
    feats = [hexmap.feature_types[f].name for f in sorted(hexmap.features(h))]
    if feats:
        parts.append(", ".join(feats))
    return " · ".join(parts)


def _ordered_features(hexmap: HexMap, names: Iterable[str], types: Mapping[str, FeatureType]) -> list[str]:
    """Feature names in the order of the map's key, so drawing is stable."""
    order = list(types)
    return sorted(names, key=lambda n: order.index(n) if n in order else len(order))


def _draw_features(doc: _Doc, hexmap: HexMap, s: float) -> None:
    """Each hex feature as a badge in its own slot, so several in one hex stay apart."""
    grid = hexmap.grid
    doc.open("g", cls="features")
    for h in hexmap.hexes():
        feats = _ordered_features(hexmap, hexmap.features(h), hexmap.feature_types)
        if not feats:
            continue
        cx, cy = grid.center(h, s)
        for name, (dx, dy) in zip(feats, _SLOTS, strict=False):
            ftype = hexmap.feature_types[name]
            doc.open("g", cls="feature", data_feature=name)
            doc.title(f"{hexmap.label(h)}: {ftype.name}")
            _badge(doc, ftype, cx + dx * s, cy + dy * s, s * 0.2)
            doc.close("g")
    doc.close("g")


def _draw_hexsides(doc: _Doc, hexmap: HexMap, s: float) -> None:
    """Hexside features as strokes along the shared edge (side by side, bridges across them)."""
    grid = hexmap.grid
    order: dict[HexSide, tuple[Hex, Hex]] = {}
    for side_spec in hexmap.spec.hexsides:
        a, b = (hexmap.hex(i) for i in side_spec.between)
        order.setdefault(HexSide(a, b), (a, b))
    doc.open("g", cls="hexsides")
    for side, feats in hexmap.hexsides().items():
        a, b = order.get(side, (side.a, side.b))
        p, q = _shared_edge(hexmap, a, b, s)
        toward = grid.center(b, s)
        types = [hexmap.hexside_types[f] for f in _ordered_features(hexmap, feats, hexmap.hexside_types)]
        lines = [t for t in types if t.symbol != "="]
        doc.open("g", cls="hexside", data_between=f"{hexmap.label(a)}-{hexmap.label(b)}")
        doc.title(f"{hexmap.label(a)}/{hexmap.label(b)}: " + ", ".join(t.name for t in types))
        # Several line features on one hexside run side by side, parallel to the edge.
        scale = s / 30
        gap = 0.6 * scale
        widths = [t.width * scale for t in lines]
        offset = -(sum(widths) + gap * (len(lines) - 1)) / 2
        nx, ny = _unit_normal(p, q)
        for ftype, width in zip(lines, widths, strict=True):
            mid = offset + width / 2 if len(lines) > 1 else 0.0
            p2, q2 = (p[0] + nx * mid, p[1] + ny * mid), (q[0] + nx * mid, q[1] + ny * mid)
            _hexside_stroke(doc, ftype, p2, q2, toward, s, scale=scale)
            offset += width + gap
        for ftype in types:
            if ftype.symbol == "=":
                _hexside_stroke(doc, ftype, p, q, toward, s, scale=scale)
        doc.close("g")
    doc.close("g")


def _mark_badge(doc: _Doc, mark: MapMark, cx: float, cy: float, r: float, title: str, *,
                sample: bool = False) -> None:
    """One mark's badge: a disc of its colour with its symbol, and a tooltip (``sample``: the
    legend's, which names no place)."""
    if sample:
        doc.open("g", cls="mark-sample")
    else:
        doc.open("g", cls="mark", data_mark=mark.name, data_at="-".join(mark.at))
    doc.title(title)
    doc.el("circle", cx=_num(cx), cy=_num(cy), r=_num(r), fill=mark.color, stroke="#ffffff",
           stroke_width=_num(r * 0.18))
    doc.text(cx, cy + r * 0.36, mark.symbol, r * 1.05, fill=_text_on(mark.color), font_weight="bold")
    doc.close("g")


def _draw_marks(doc: _Doc, hexmap: HexMap, marks: Sequence[MapMark], s: float) -> None:
    """The game's map marks over the pieces: a badge in a hex's upper left corner (a second
    mark in the same hex below it), or at the middle of a hexside."""
    if not marks:
        return
    grid = hexmap.grid
    in_hex: dict[str, int] = {}
    doc.open("g", cls="marks")
    for mark in marks:
        where = f"map mark {mark.name!r} at {'-'.join(mark.at)}"
        try:
            hexes = [hexmap.hex(i) for i in mark.at]
        except (KeyError, ValueError, TabletopError) as exc:
            raise TabletopError(f"{where}: not on the map ({exc})") from exc
        if len(hexes) == 1:
            cx, cy = grid.center(hexes[0], s)
            k = in_hex[mark.at[0]] = in_hex.get(mark.at[0], -1) + 1
            _mark_badge(doc, mark, cx - s * 0.58, cy - s * 0.4 + k * s * 0.5, s * 0.25,
                        f"{mark.name}: {mark.at[0]}")
        else:
            a, b = hexes
            if b not in hexmap.neighbors(a):
                raise TabletopError(f"{where}: the hexes are not adjacent")
            p, q = _shared_edge(hexmap, a, b, s)
            _mark_badge(doc, mark, (p[0] + q[0]) / 2, (p[1] + q[1]) / 2, s * 0.25,
                        f"{mark.name}: {mark.at[0]}/{mark.at[1]}")
    doc.close("g")


def _legend_marks(panel: _Panel, marks: Sequence[MapMark], s: float) -> None:
    """A legend row for each kind of mark on the map."""
    kinds = {m.name: m for m in marks}
    if not kinds:
        return
    panel.heading("Marks")
    for name, mark in sorted(kinds.items()):
        def badge(doc: _Doc, x: float, y: float, mark: MapMark = mark) -> None:
            _mark_badge(doc, mark, x, y, 7, mark.name, sample=True)

        panel.row(name, badge)


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _draw_labels(doc: _Doc, hexmap: HexMap, s: float, taken: Sequence[Box]) -> None:
    """The map's printed place names, haloed so terrain never hides them, each placed where
    it covers no counter: on its hex when that is clear, else at the nearest clear spot
    around it (half a hex at a time), else smaller; never outside the map."""
    map_w, map_h = hexmap.grid.pixel_size(s)
    cell = s * 2.0
    grid_boxes: dict[tuple[int, int], list[Box]] = {}

    def add(box: Box) -> None:
        for gx in range(int(box[0] // cell), int(box[2] // cell) + 1):
            for gy in range(int(box[1] // cell), int(box[3] // cell) + 1):
                grid_boxes.setdefault((gx, gy), []).append(box)

    def clear(box: Box) -> bool:
        for gx in range(int(box[0] // cell), int(box[2] // cell) + 1):
            for gy in range(int(box[1] // cell), int(box[3] // cell) + 1):
                if any(_overlaps(box, other) for other in grid_boxes.get((gx, gy), ())):
                    return False
        return True

    for box in taken:
        add(box)
    steps = [(dx, dy) for dy in range(-4, 5) for dx in range(-4, 5)]
    steps.sort(key=lambda d: (d[0] * 0.75) ** 2 + (d[1] * 0.45) ** 2)
    doc.open("g", cls="labels")
    for lab in hexmap.labels:
        hx, hy = hexmap.grid.center(hexmap.hex(lab.at), s)
        placed = None
        for scale in (1.0, 0.8):
            size = _fit(lab.text, s * 0.42 * scale, map_w, bold=True)[1]
            half = min(0.7 * size * len(lab.text), map_w) / 2 + 1.5
            for dx, dy in steps:
                cx = min(max(hx + dx * s * 0.75, half), map_w - half)
                cy = min(max(hy - s * 0.15 + dy * s * 0.45, size), map_h - size * 0.3)
                box = (cx - half, cy - size * 1.0 - 1.5, cx + half, cy + size * 0.3 + 1.5)
                if clear(box):
                    placed = (cx, cy, size, box)
                    break
            if placed:
                break
        if placed is None:  # a sheet crowded all round: on its hex, as before
            size = s * 0.42
            half = min(0.7 * size * len(lab.text), map_w) / 2
            cx = min(max(hx, half), map_w - half)
            placed = (cx, hy - s * 0.15, size, (cx - half, hy - s * 0.15 - size, cx + half, hy))
        cx, cy, size, box = placed
        add(box)
        doc.text(cx, cy, lab.text, size, width=map_w, font_weight="bold", font_style="italic",
                 fill="#1d1d40", stroke="#ffffff", stroke_width=s * 0.1, stroke_opacity="0.85",
                 paint_order="stroke", stroke_linejoin="round", cls="label")
    doc.close("g")


def _legend_hexmap(panel: _Panel, hexmap: HexMap, s: float) -> None:
    panel.heading("Terrain")
    for ttype in hexmap.terrain_types.values():
        def hexagon(doc: _Doc, x: float, y: float, color: str = ttype.color) -> None:
            doc.el("path", d=_hex_path(x, y, 9), fill=color, stroke="#5d5a50", stroke_width=0.8)

        extra = " (prohibited)" if ttype.prohibited else ""
        panel.row(f"{ttype.name}  [{ttype.symbol}]{extra}", hexagon)
    if hexmap.feature_types:
        panel.heading("Hex features")
        for ftype in hexmap.feature_types.values():
            def badge(doc: _Doc, x: float, y: float, ftype: FeatureType = ftype) -> None:
                _badge(doc, ftype, x, y, 8)

            panel.row(ftype.name, badge)
    if hexmap.hexside_types:
        panel.heading("Hexsides")
        for ftype in hexmap.hexside_types.values():
            def stroke(doc: _Doc, x: float, y: float, ftype: FeatureType = ftype) -> None:
                doc.el("rect", x=x - 14, y=y - 7, width=28, height=14, fill="#e8e3d2", stroke="#b5b0a0",
                       stroke_width=0.6)
                _hexside_stroke(doc, ftype, (x - 11, y), (x + 11, y), (x, y + 7), 22, scale=0.75)

            panel.row(ftype.name, stroke)


# --- area maps ------------------------------------------------------------------------------


AREA_GAP = 6.0  # between counters in a position


def _counter_grid(stack: Sequence[Piece], counters: _Counters, width: float,
                  rows_shown: int) -> tuple[list[list[Piece]], int, int]:
    """The stacks a position or board box shows as counters (like pieces gathered), how many
    go in a row of ``width`` and how many of them are left out (past ``rows_shown`` rows)."""
    groups = stack_groups(stack, counters)
    per_row = max(1, int((width - AREA_GAP) // (AREA_COUNTER + AREA_GAP)))
    limit = per_row * rows_shown
    return groups[:limit], per_row, max(0, len(groups) - limit)


def _grid_height(shown: int, per_row: int, more: int) -> float:
    rows = math.ceil(shown / per_row) if shown else 0
    return rows * (AREA_COUNTER + AREA_GAP) + (14.0 if more else 0.0)


def _draw_counter_grid(doc: _Doc, groups: Sequence[list[Piece]], per_row: int, more: int,
                       counters: _Counters, x0: float, y0: float) -> None:
    """Counters in rows from (x0, y0), then "+N more" when some are left out."""
    c = AREA_COUNTER
    for k, group in enumerate(groups):
        col, row = k % per_row, k // per_row
        counters.draw(doc, group, x0 + AREA_GAP + c / 2 + col * (c + AREA_GAP),
                      y0 + c / 2 + row * (c + AREA_GAP), c)
    if more:
        rows = math.ceil(len(groups) / per_row)
        doc.text(x0 + AREA_GAP, y0 + rows * (c + AREA_GAP) + 8, f"+{more} more", 10.5,
                 anchor="start", fill=INK)


def _card_lines(cards: Sequence[str] | int | None) -> list[str]:
    """The lines of a box drawn on the board's cards (titles, the first few, or a count)."""
    if isinstance(cards, int):
        return [cards_text(cards)]
    lines = [f"\u25ad {card}" for card in (cards or [])[:PLACED_CARDS_SHOWN]]
    if cards and len(cards) > PLACED_CARDS_SHOWN:
        lines.append(f"+{len(cards) - PLACED_CARDS_SHOWN} more cards")
    return lines


PLACED_TOP = 20.0  # a box drawn on the board: its name's band
PLACED_INLINE = 2  # stacks a box drawn on the board shows beside its name, in one row
PLACED_COUNTER = 28.0  # the side of those counters (a board's boxes stand close together)


def _name_lines(name: str, width: float, size: float) -> list[str]:
    """A name in at most two lines of ``width``, split at a space when one is too long."""
    if 0.62 * size * len(name) <= width or " " not in name:
        return [name]
    words = name.split()
    best = 1
    for k in range(1, len(words)):
        if 0.62 * size * len(" ".join(words[:k])) <= width:
            best = k
    return [" ".join(words[:best]), " ".join(words[best:])]


def _placed_box_geometry(box: BoxSpec, stack: Sequence[Piece], counters: _Counters, cards: int,
                         ox: float, oy: float) -> tuple[float, float, float, float]:
    """Centre and half sizes of a box drawn on the board: one row (name, then its counters)
    when it holds few stacks and no cards, else the name above rows of counters and cards."""
    assert box.x is not None and box.y is not None
    groups = stack_groups(stack, counters)
    if len(groups) <= PLACED_INLINE and not cards:
        return (ox + box.x, oy + box.y, PLACED_BOX_WIDTH / 2, (PLACED_COUNTER + 6) / 2)
    shown, per_row, more = _counter_grid(stack, counters, PLACED_BOX_WIDTH, 2)
    height = PLACED_TOP + _grid_height(len(shown), per_row, more) + 13 * cards + 4
    return (ox + box.x, oy + box.y, PLACED_BOX_WIDTH / 2, max(height, 26) / 2)


def _draw_placed_box(doc: _Doc, box: BoxSpec, geo: tuple[float, float, float, float],
                     stack: Sequence[Piece], counters: _Counters, cards: Sequence[str]) -> None:
    """A box on the board: a small labelled rectangle (dashed when blind) holding its counters
    (like ones stacked) and listing its cards."""
    cx, cy, hw, hh = geo
    x0, y0 = cx - hw, cy - hh
    doc.open("g", cls="box placed", data_box=box.id)
    doc.title(f"{box.name}: {_pieces_count(len(stack))}" + "".join(f"; {t}" for t in cards))
    doc.el("rect", x=x0, y=y0, width=2 * hw, height=2 * hh, rx=4, fill="#fbf9f2", fill_opacity="0.95",
           stroke="#6d6552", stroke_width=1.1, stroke_dasharray="5,3" if box.blind else None)
    groups = stack_groups(stack, counters)
    if len(groups) <= PLACED_INLINE and not cards:
        c = PLACED_COUNTER
        room = 2 * hw - 10 - PLACED_INLINE * (c + 4)
        lines = _name_lines(box.name, room, 9.5)
        for k, line in enumerate(lines):
            doc.text(x0 + 5, cy + 3.5 + (k - (len(lines) - 1) / 2) * 11, line, 9.5, anchor="start",
                     width=room, font_weight="bold", fill=INK, cls="box-name")
        for k, group in enumerate(groups):
            counters.draw(doc, group, x0 + 2 * hw - 4 - c / 2 - (len(groups) - 1 - k) * (c + 4), cy, c)
        doc.close("g")
        return
    doc.text(x0 + 6, y0 + 14, box.name, 11, anchor="start", width=2 * hw - 12, font_weight="bold",
             fill=INK, cls="box-name")
    shown, per_row, more = _counter_grid(stack, counters, 2 * hw, 2)
    _draw_counter_grid(doc, shown, per_row, more, counters, x0, y0 + PLACED_TOP)
    top = y0 + PLACED_TOP + _grid_height(len(shown), per_row, more)
    for k, text in enumerate(cards):
        doc.text(x0 + 8, top + 10 + 13 * k, text, 10, anchor="start", width=2 * hw - 16,
                 fill=INK, cls="card")
    doc.close("g")


def _clip_to_box(cx: float, cy: float, hw: float, hh: float, dx: float, dy: float, gap: float) -> Point:
    """Where a ray from a box's centre leaves the box (plus ``gap``)."""
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    t = min(hw / abs(ux) if ux else math.inf, hh / abs(uy) if uy else math.inf) + gap
    return (cx + ux * t, cy + uy * t)


def render_areamap(areamap: AreaMap, pieces: Iterable[Piece] = (), *, title: str = "",
                   piece_label: PieceLabel | None = None, side_colors: Mapping[str, str] | None = None,
                   face_down: FaceDown | None = None, subtitle: str | None = None,
                   cards: BoxCards | None = None, art: CounterArt | None = None) -> str:
    """The area map as an SVG document (see :func:`areamap_picture`)."""
    return areamap_picture(areamap, pieces, title=title, piece_label=piece_label,
                           side_colors=side_colors, face_down=face_down, subtitle=subtitle,
                           cards=cards, art=art).svg()


def areamap_picture(areamap: AreaMap, pieces: Iterable[Piece] = (), *, title: str = "",
                   piece_label: PieceLabel | None = None, side_colors: Mapping[str, str] | None = None,
                   face_down: FaceDown | None = None, subtitle: str | None = None,
                   cards: BoxCards | None = None, art: CounterArt | None = None,
                     kept: dict[Hashable, Drawn] | None = None) -> Picture:
    """The area map as an SVG document: positions, arrows, pieces listed inside, boxes beside
    (with the ``cards`` a game shows in them).

    Positions stand at their ``x, y`` (0..1000) as rounded boxes with name, id and
    attributes; undirected arrows have heads at both ends, directed ones one head (and are
    drawn darker). Pieces are grouped by ``location`` as for :func:`render_hexmap`.
    """
    pieces = list(pieces)
    by_place = stacks(pieces)
    sides = sides_of(pieces, list(side_colors or {}))
    counters = _Counters(label=piece_label or default_piece_label,
                         colors=assign_side_colors(sides, side_colors), face_down=face_down or is_hidden,
                         art=art, kept=kept)
    counters.places = {**{a.id: a.name for a in areamap.spec.areas},
                       **{b.id: b.name for b in areamap.boxes.values()}}
    pad = AREA_BOX_WIDTH / 2 + 14
    ox, oy = MARGIN + pad, MARGIN + TITLE_HEIGHT + 50
    geometry: dict[str, tuple[float, float, float, float]] = {}
    for area in areamap.spec.areas:
        shown, per_row, more = _counter_grid(by_place.get(area.id, []), counters, AREA_BOX_WIDTH,
                                             AREA_ROWS_SHOWN)
        height = AREA_TOP + _grid_height(len(shown), per_row, more) + 4
        geometry[area.id] = (ox + area.x, oy + area.y, AREA_BOX_WIDTH / 2, height / 2)

    doc = _Doc()
    _heading(doc, title or areamap.name, subtitle if subtitle is not None else
             f"{len(areamap.spec.areas)} positions, {len(areamap.spec.connections)} connections")
    doc.el("rect", x=MARGIN, y=MARGIN + TITLE_HEIGHT, width=1000 + 2 * pad, height=1000 + 100,
           rx=8, fill=areamap.spec.background, stroke="#6d8a99", stroke_width=1.5)
    doc.open("g", cls="arrows", fill="none")
    for con in areamap.spec.connections:
        ax, ay, ahw, ahh = geometry[con.a]
        bx, by, bhw, bhh = geometry[con.b]
        p = _clip_to_box(ax, ay, ahw, ahh, bx - ax, by - ay, 4)
        q = _clip_to_box(bx, by, bhw, bhh, ax - bx, ay - by, 4)
        if con.directed:
            style: dict[str, Any] = {"cls": "arrow directed", "stroke": ARROW_ONEWAY, "stroke_width": 2.6,
                                     "marker_end": "url(#arrow-oneway)"}
        else:
            style = {"cls": "arrow", "stroke": ARROW, "stroke_width": 2.0, "marker_end": "url(#arrow)",
                     "marker_start": "url(#arrow-back)"}
        doc.open("line", x1=p[0], y1=p[1], x2=q[0], y2=q[1], **style,
                 data_between=f"{con.a}-{con.b}")
        doc.title(f"{areamap.area(con.a).name} {'->' if con.directed else '<->'} "
                  f"{areamap.area(con.b).name}")
        doc.close("line")
    doc.close("g")
    for area in areamap.spec.areas:
        _draw_area(doc, areamap, area.id, geometry[area.id], by_place.get(area.id, []), counters)
    cards = cards or {}
    placed = [b for b in areamap.boxes.values() if b.x is not None]
    for box in placed:
        stack = by_place.get(box.id, [])
        card_lines = _card_lines(cards.get(box.id))
        _draw_placed_box(doc, box, _placed_box_geometry(box, stack, counters, len(card_lines), ox, oy),
                         stack, counters, card_lines)

    panel = _Panel(MARGIN + 1000 + 2 * pad + PANEL_GAP, MARGIN + TITLE_HEIGHT - 6)
    _legend_area(panel, areamap)
    _legend_sides(panel, [sd for sd in sides if any(p.side == sd for p in pieces)], counters)
    _boxes(panel, [b for b in areamap.boxes.values() if b.x is None], by_place,
           _unplaced(by_place, set(areamap.areas()) | set(areamap.boxes)), counters, cards)
    doc.extend(panel.doc)
    width = panel.x + panel.width + MARGIN
    height = max(MARGIN + TITLE_HEIGHT + 1100, panel.y) + MARGIN
    return _picture(width, height, doc, title=title or areamap.name)


def _area_fill(attrs: Mapping[str, Any]) -> str:
    for key in ("color", "fill"):
        value = attrs.get(key)
        if isinstance(value, str) and value.startswith("#"):
            return value
    return AREA_BEACH if attrs.get("beach") else AREA_LAND


def _area_attr_text(areamap: AreaMap, area_id: str, attrs: Mapping[str, Any]) -> str:
    """The line under a position's name: its attributes in the map's player words
    (``labels``, long texts left to the tooltip); without labels, the id and the attributes
    not drawn otherwise."""
    if areamap.spec.labels:
        return " · ".join(w for w in areamap.spec.words(areamap.area(area_id)) if len(w) <= LONG_TEXT)
    parts = [area_id]
    for key, value in attrs.items():
        if key in ("color", "fill", "number") or (key in AREA_ICONS and isinstance(value, bool)):
            continue
        if value is True:
            parts.append(key)
        elif isinstance(value, str) and len(value) > LONG_TEXT:
            parts.append(f"{key}\u2026")  # long texts (history notes) stay in the tooltip
        elif value not in (False, None):
            parts.append(f"{key} {value}")
    return " · ".join(parts)


def _draw_area(doc: _Doc, areamap: AreaMap, area_id: str, geo: tuple[float, float, float, float],
               stack: Sequence[Piece], counters: _Counters) -> None:
    area = areamap.area(area_id)
    cx, cy, hw, hh = geo
    fill = _area_fill(area.attrs)
    x0, y0 = cx - hw, cy - hh
    doc.open("g", cls="area", data_area=area_id)
    if areamap.spec.labels:
        doc.title(" · ".join([area.name, *areamap.spec.words(area)]))
    else:
        doc.title(area.name)
    doc.el("rect", x=x0 + 2, y=y0 + 3, width=2 * hw, height=2 * hh, rx=9, fill="#000000",
           fill_opacity="0.18")
    doc.el("rect", x=x0, y=y0, width=2 * hw, height=2 * hh, rx=9, fill=fill, stroke="#4a4436",
           stroke_width=1.4)
    icons = [(key, AREA_ICONS[key]) for key, v in area.attrs.items() if key in AREA_ICONS and v is True]
    number = area.attrs.get("number")
    indent = 13.0 if number is not None else 7.0
    name_width = 2 * hw - indent - 5 - 18 * len(icons)
    doc.text(x0 + indent, y0 + 16, area.name, 12.5, anchor="start", width=name_width, font_weight="bold",
             fill=_text_on(fill), cls="area-name")
    for k, (_key, (symbol, color)) in enumerate(icons):
        ix = x0 + 2 * hw - 11 - 18 * k
        doc.el("circle", cx=ix, cy=y0 + 12, r=8, fill="#ffffff", fill_opacity="0.8", stroke=color,
               stroke_width=1)
        _glyph(doc, symbol, ix, y0 + 12, 6, color)
    if number is not None:
        doc.el("circle", cx=x0, cy=y0, r=10, fill="#ffffff", stroke=INK, stroke_width=1.2)
        doc.text(x0, y0 + 4, str(number), 11, font_weight="bold", fill=INK)
    doc.text(x0 + 7, y0 + 34, _area_attr_text(areamap, area_id, area.attrs), 11, anchor="start",
             width=2 * hw - 14, fill=_text_on(fill), fill_opacity="0.85", cls="area-sub")
    shown, per_row, more = _counter_grid(stack, counters, 2 * hw, AREA_ROWS_SHOWN)
    _draw_counter_grid(doc, shown, per_row, more, counters, x0, y0 + AREA_TOP)
    doc.close("g")


def _legend_area(panel: _Panel, areamap: AreaMap) -> None:
    panel.heading("Key")

    def plain(doc: _Doc, x: float, y: float) -> None:
        doc.el("line", x1=x - 13, y1=y, x2=x + 13, y2=y, stroke=ARROW, stroke_width=2,
               marker_end="url(#arrow)", marker_start="url(#arrow-back)")

    def directed(doc: _Doc, x: float, y: float) -> None:
        doc.el("line", x1=x - 13, y1=y, x2=x + 13, y2=y, stroke=ARROW_ONEWAY, stroke_width=2.6,
               marker_end="url(#arrow-oneway)")

    panel.row("connection (both ways)", plain)
    panel.row("one-way arrow", directed)
    used = {k for a in areamap.spec.areas for k, v in a.attrs.items() if v is True}
    if any(a.attrs.get("beach") for a in areamap.spec.areas):
        def beach(doc: _Doc, x: float, y: float) -> None:
            doc.el("rect", x=x - 10, y=y - 7, width=20, height=14, rx=3, fill=AREA_BEACH, stroke="#4a4436")

        panel.row("beach position", beach)
    for key, (symbol, color) in AREA_ICONS.items():
        if key in used:
            def icon(doc: _Doc, x: float, y: float, symbol: str = symbol, color: str = color) -> None:
                doc.el("circle", cx=x, cy=y, r=8, fill="#ffffff", stroke=color, stroke_width=1)
                _glyph(doc, symbol, x, y, 6, color)

            panel.row(key, icon)


# --- matches and games ----------------------------------------------------------------------


def _places_picture(pieces: Sequence[Piece], *, title: str, subtitle: str | None,
                    colors: Mapping[str, str], face_down: FaceDown, piece_label: PieceLabel,
                    art: CounterArt | None = None, kept: dict[Hashable, Drawn] | None = None) -> Picture:
    """A board-less picture: every place with its counters, for games that draw no map."""
    by_place = stacks(pieces)
    sides = sides_of(pieces, list(colors))
    counters = _Counters(label=piece_label, colors=assign_side_colors(sides, colors), face_down=face_down,
                         art=art, kept=kept)
    doc = _Doc()
    _heading(doc, title, subtitle or "no map: pieces by place")
    panel = _Panel(MARGIN, MARGIN + TITLE_HEIGHT, 520)
    for loc, stack in sorted(by_place.items()):
        panel.box(loc, in_words(loc), stack, counters)
    panel2 = _Panel(MARGIN + 520 + PANEL_GAP, MARGIN + TITLE_HEIGHT - 6)
    _legend_sides(panel2, [sd for sd in sides if any(p.side == sd for p in pieces)], counters)
    doc.extend(panel.doc)
    doc.extend(panel2.doc)
    return _picture(panel2.x + panel2.width + MARGIN, max(panel.y, panel2.y, 200) + MARGIN, doc,
                    title=title)


def _match_title(match: Match, hidden_from: str | None) -> tuple[str, str]:
    info = match.game.info
    scenario = info.scenario(match.scenario).name
    bits = [scenario, f"turn {match.state.turn}"]
    if match.state.phase:
        bits.append(match.game.phase_name(match.state.phase))
    if match.result is not None:
        bits.append(f"over: {match.result.level}")
    bits.append(f"as seen by {hidden_from}" if hidden_from else "all pieces face-up")
    return info.title, " · ".join(bits)


def render_board(board: Any, pieces: Sequence[Piece], *, title: str, subtitle: str | None,
                 piece_label: PieceLabel, side_colors: Mapping[str, str], face_down: FaceDown,
                 cards: BoxCards | None = None, marks: Sequence[MapMark] = (),
                 art: CounterArt | None = None) -> str:
    """Draw whatever a game's ``board()`` returned (HexMap, AreaMap or None) with the pieces
    (and the cards the game shows in the board's boxes, the marks on a hex map) as counters
    in the game's counter ``art``."""
    return board_picture(board, pieces, title=title, subtitle=subtitle, piece_label=piece_label,
                         side_colors=side_colors, face_down=face_down, cards=cards, marks=marks,
                         art=art).svg()


def board_picture(board: Any, pieces: Sequence[Piece], *, title: str, subtitle: str | None,
                  piece_label: PieceLabel, side_colors: Mapping[str, str], face_down: FaceDown,
                  cards: BoxCards | None = None, marks: Sequence[MapMark] = (),
                  art: CounterArt | None = None, kept: dict[Hashable, Drawn] | None = None) -> Picture:
    """:func:`render_board` as a :class:`Picture` (a hex map's terrain kept, the rest in
    layers; ``kept``: stacks drawn before, see :func:`match_picture`)."""
    if isinstance(board, HexMap):
        return hexmap_picture(board, pieces, title=title, subtitle=subtitle, piece_label=piece_label,
                              side_colors=side_colors, face_down=face_down, cards=cards, marks=marks,
                              art=art, kept=kept)
    if isinstance(board, AreaMap):
        return areamap_picture(board, pieces, title=title, subtitle=subtitle, piece_label=piece_label,
                               side_colors=side_colors, face_down=face_down, cards=cards, art=art,
                               kept=kept)
    if board is None:
        return _places_picture(pieces, title=title, subtitle=subtitle, colors=side_colors,
                               face_down=face_down, piece_label=piece_label, art=art, kept=kept)
    raise TabletopError(f"cannot draw a board of type {type(board).__name__}; "
                        f"expected a HexMap, an AreaMap or None")


def game_art(game: Game) -> CounterArt:
    """A game's counter art (its ``data/counter_art.yaml``; the default art without one)."""
    return load_counter_art(game.data_dir())


def render_match(match: Match, *, hidden_from: str | None = None) -> str:
    """A match's position as SVG, on the map its game's ``board(match)`` gives, the pieces
    drawn in the game's counter art.

    With ``hidden_from`` set to a side, the picture is that side's view: other sides'
    hidden pieces are face-down. Without it every piece is face-up (hidden ones outlined
    dashed), the designer's view.
    """
    return match_picture(match, hidden_from=hidden_from).svg()


def match_picture(match: Match, *, hidden_from: str | None = None) -> Picture:
    """:func:`render_match` as a :class:`Picture`: what a page that holds the match's
    picture (the same :attr:`Picture.key`) needs to draw the position is its layers.

    The stacks drawn are kept in the match's memo (while it keeps its registry of pieces), and
    a stack that looks the same at the same place in a later picture is taken from there:
    most decisions change a few stacks of a big map."""
    game = match.game
    title, subtitle = _match_title(match, hidden_from)
    pieces = match_pieces(match)
    art = game_art(game)
    colors = assign_side_colors(sides_of(pieces, game.info.players), art.side_colours())
    return board_picture(game.board(match), pieces, title=title, subtitle=subtitle,
                         piece_label=game.piece_label, side_colors=colors,
                         face_down=face_down_in_view(match, hidden_from),
                         cards=game.box_cards(match, hidden_from),
                         marks=game.map_marks(match, hidden_from), art=art,
                         kept=match.state.memo.of_registry(_KEPT, dict))


_KEPT = ("render.svg", "counters")  # the memo's key of a match's stacks drawn


def render_game(game: Game, match: Match | None = None, *, hidden_from: str | None = None) -> str:
    """A game's map as SVG: with a match's pieces when given, else the bare map."""
    if match is not None:
        return render_match(match, hidden_from=hidden_from)
    art = game_art(game)
    colors = assign_side_colors(list(game.info.players), art.side_colours())
    return render_board(game.board(None), [], title=game.info.title, subtitle=None,
                        piece_label=game.piece_label, side_colors=colors, face_down=is_hidden, art=art)
