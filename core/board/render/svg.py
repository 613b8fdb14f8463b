"""SVG pictures of hex maps, area maps and matches, so a designer can check a map by eye.

Pure standard library: the document is written as text. A hex map shows flat-topped hexes
in their terrain colour with the printed id in each, hex features as badges, hexside
features as strokes along the shared edge, labels, a legend, off-map boxes beside the map
and the pieces as counters. An area map shows positions as rounded boxes joined by arrows.
Every hex, counter and position carries a ``<title>`` so a browser shows details on hover.
Hexes, positions, boxes and counters also carry ``data-hex``, ``data-area``, ``data-box``,
``data-piece``/``data-pieces`` and ``data-at`` attributes, so a web page can make them
clickable (``tabletop serve``); a face-down piece is never named in them.
"""

from __future__ import annotations

import json
import math
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from ...engine.errors import TabletopError
from ...engine.marks import MapMark
from ...engine.pieces import Piece
from ..areamap import AreaMap
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
BOX_ROWS_SHOWN = 4  # rows of counters a box shows before "+N more"
CARD_ROW = 20.0  # height of a card's row in an off-map box
CARDS_SHOWN = 8  # cards a box lists before "+N more"
AREA_BOX_WIDTH = 160.0
PLACED_BOX_WIDTH = 150.0  # a box an area map draws on the board (BoxSpec x, y)
PLACED_CARDS_SHOWN = 4  # card titles such a box lists before "+N more cards"
AREA_LINES_SHOWN = 7  # pieces listed in a position before "+N more"
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


def _attr_text(attrs: Mapping[str, Any]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = "class" if key == "cls" else key.replace("_", "-")
        shown = _num(value) if isinstance(value, float) else str(value)
        parts.append(f' {name}="{escape(shown, {chr(34): "&quot;"})}"')
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


def _document(width: float, height: float, body: _Doc, *, title: str) -> str:
    head = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(width)}" '
            f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}" '
            f'font-family="{FONT}">')
    defs = (
        "<defs>"
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
        +
        "</defs>"
    )
    parts = [head, f"<title>{escape(title)}</title>", defs,
             f'<rect width="100%" height="100%" fill="{PAPER}"/>', *body.parts, "</svg>", ""]
    return "\n".join(parts)


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
    label = label.strip()
    if " " not in label:
        return ("", label)
    name, values = label.rsplit(" ", 1)
    return (name, values)


class _Counters:
    """Draws counters: side colours, labels, the face-down rule and stack counts."""

    def __init__(self, *, label: PieceLabel, colors: Mapping[str, str], face_down: FaceDown) -> None:
        self.label = label
        self.colors = colors
        self.face_down = face_down

    def color(self, side: str) -> str:
        """The counter colour of a side (grey for a side with none)."""
        return self.colors.get(side, "#9a9a9a")

    def draw(self, doc: _Doc, stack: Sequence[Piece], cx: float, cy: float, c: float) -> None:
        """The top piece of a stack as a counter of side ``c`` centred at (cx, cy)."""
        piece = stack[0]
        count = len(stack)
        down = self.face_down(piece)
        fill = self.color(piece.side)
        ink = _text_on(fill)
        x0, y0 = cx - c / 2, cy - c / 2
        shown = [p.id for p in stack if not self.face_down(p)]
        # data-pieces and data-at let an interactive page find every face-up piece of the
        # stack and the place under it (face-down pieces are never named)
        doc.open("g", cls="counter face-down" if down else "counter",
                 data_piece=None if down else piece.id,
                 data_pieces=json.dumps(shown) if shown else None, data_at=piece.location)
        doc.title(self._tooltip(stack))
        for k in range(min(count - 1, 2), 0, -1):
            off = k * c * 0.09
            doc.el("rect", x=x0 + off, y=y0 + off, width=c, height=c, rx=c * 0.08, fill=fill,
                   stroke=_darker(fill, 0.4), stroke_width=0.8)
        doc.el("rect", x=x0, y=y0, width=c, height=c, rx=c * 0.08, fill=fill, stroke=_darker(fill, 0.4),
               stroke_width=max(c * 0.03, 0.8),
               stroke_dasharray=f"{_num(c * 0.1)},{_num(c * 0.06)}" if piece.hidden and not down else None)
        if down:
            doc.el("rect", x=x0, y=y0, width=c, height=c, rx=c * 0.08, fill="url(#facedown)")
            doc.text(cx, cy + c * 0.17, "?", c * 0.5, font_weight="bold", fill=ink)
        else:
            self._face(doc, piece, cx, cy, c, ink)
        if count > 1:
            bx, by, r = x0 + c, y0, c * 0.22
            doc.el("circle", cx=bx, cy=by, r=r, fill="#ffffff", stroke=INK, stroke_width=0.8)
            doc.text(bx, by + r * 0.45, str(count), r * 1.25, font_weight="bold", fill=INK, cls="stack")
        doc.close("g")

    def _face(self, doc: _Doc, piece: Piece, cx: float, cy: float, c: float, ink: str) -> None:
        name, values = _split_label(self.label(piece))
        if piece.is_reduced:
            doc.el("rect", x=cx - c / 2 + c * 0.06, y=cy - c / 2 + c * 0.06, width=c * 0.88,
                   height=c * 0.09, fill=ink, fill_opacity="0.55")
        avail = c * 0.9
        if name:
            doc.text(cx, cy - c * 0.06, name, c * 0.24, width=avail, fill=ink)
            doc.text(cx, cy + c * 0.32, values, c * 0.3, width=avail, font_weight="bold", fill=ink)
        elif any(ch.isdigit() for ch in values):
            doc.text(cx, cy + c * 0.11, values, c * 0.3, width=avail, font_weight="bold", fill=ink)
        else:  # a marker's name alone ("Bombard")
            doc.text(cx, cy + c * 0.09, values, c * 0.25, width=avail, fill=ink)

    def _tooltip(self, stack: Sequence[Piece]) -> str:
        shown = []
        for p in stack:
            shown.append(f"face-down {p.side} piece" if self.face_down(p)
                         else f"{self.label(p)} [{p.id}, {p.side}]" + (" (hidden)" if p.hidden else ""))
        return f"{stack[0].location}: " + "; ".join(shown)


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
        gap = 7.0
        per_row = max(1, int((self.width - gap) // (c + gap)))
        limit = per_row * BOX_ROWS_SHOWN
        shown = list(pieces[:limit])
        rows = max(1, math.ceil(len(shown) / per_row)) if shown else 0
        extra = 14.0 if len(pieces) > limit else 0.0
        card_rows = _card_rows(cards)
        cards_h = len(card_rows) * CARD_ROW
        height = 26 + rows * (c + gap) + extra + cards_h + (4 if rows or cards_h else 6)
        d = self.doc
        d.open("g", cls="box", data_box=box_id)
        d.title(f"{name} [{box_id}]: {len(pieces)} piece(s)"
                + (f"; {cards_text(cards)}" if cards is not None else ""))
        d.el("rect", x=self.x, y=self.y, width=self.width, height=height, rx=5, fill="#fbf9f2",
             stroke="#6d6552", stroke_width=1.2, stroke_dasharray="5,3" if blind else None)
        count = (cards if isinstance(cards, int) else len(cards)) if cards is not None else None
        info = [f"{len(pieces)}" if count is None else f"{count} card{'s' if count != 1 else ''}"] \
            + (["blind"] if blind else []) + ([f"holds {capacity}"] if capacity is not None else [])
        info_text = " · ".join(info)
        d.text(self.x + 8, self.y + 17, name, 12, anchor="start", font_weight="bold",
               width=self.width - 24 - 0.58 * 10 * len(info_text), fill=INK)
        d.text(self.x + self.width - 8, self.y + 17, info_text, 10, anchor="end", fill="#555555")
        for k, piece in enumerate(shown):
            col, row = k % per_row, k // per_row
            cx = self.x + gap + c / 2 + col * (c + gap)
            cy = self.y + 26 + c / 2 + row * (c + gap)
            counters.draw(d, [piece], cx, cy, c)
        if extra:
            d.text(self.x + 8, self.y + 26 + rows * (c + gap) + 6, f"+{len(pieces) - limit} more", 10,
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
            panel.box(loc, loc, ps, counters)


def _heading(doc: _Doc, title: str, subtitle: str) -> None:
    doc.text(MARGIN, MARGIN + 16, title, 20, anchor="start", font_weight="bold", fill=INK)
    if subtitle:
        doc.text(MARGIN, MARGIN + 34, subtitle, 12, anchor="start", fill="#555555")


# --- hex maps -------------------------------------------------------------------------------


def render_hexmap(hexmap: HexMap, pieces: Iterable[Piece] = (), *, title: str = "",
                  piece_label: PieceLabel | None = None, hex_size: float = 30,
                  show_ids: bool = True, side_colors: Mapping[str, str] | None = None,
                  face_down: FaceDown | None = None, subtitle: str | None = None,
                  cards: BoxCards | None = None, marks: Sequence[MapMark] = ()) -> str:
    """The whole hex map as an SVG document, with its legend, boxes and pieces (and the
    ``cards`` a game shows in its boxes, the ``marks`` its rules keep on the map).

    ``pieces`` are grouped by ``location``: a hex id puts a counter in that hex, a box id in
    the box beside the map, anything else under "Elsewhere". Within a place the first piece
    given is the top of the stack (the one drawn). ``face_down`` says which pieces are drawn
    face-down (default: those with ``hidden`` set).
    """
    s = float(hex_size)
    pieces = list(pieces)
    by_place = stacks(pieces)
    sides = sides_of(pieces, list(side_colors or {}))
    counters = _Counters(label=piece_label or default_piece_label,
                         colors=assign_side_colors(sides, side_colors), face_down=face_down or is_hidden)
    grid = hexmap.grid
    map_w, map_h = grid.pixel_size(s)
    ox, oy = MARGIN, MARGIN + TITLE_HEIGHT

    doc = _Doc()
    spec = hexmap.spec
    sub = subtitle if subtitle is not None else " · ".join(
        x for x in (hexmap.name if title else "", spec.scale,
                    f"{len(hexmap)} hexes, columns {grid.columns[0]:02d}-{grid.columns[1]:02d}, "
                    f"rows {grid.rows[0]:02d}-{grid.rows[1]:02d}") if x)
    _heading(doc, title or hexmap.name, sub)
    doc.open("g", cls="map", transform=f"translate({_num(ox)},{_num(oy)})")
    doc.parts.extend(_map_layers(hexmap, s, show_ids))
    doc.open("g", cls="pieces")
    for h in hexmap.hexes():
        stack = by_place.get(hexmap.label(h))
        if stack:
            cx, cy = grid.center(h, s)
            counters.draw(doc, stack, cx, cy + s * 0.04, s * 1.14)
    doc.close("g")
    _draw_marks(doc, hexmap, marks, s)
    doc.close("g")

    panel = _Panel(ox + map_w + PANEL_GAP, oy - 6)
    _legend_hexmap(panel, hexmap, s)
    _legend_marks(panel, marks, s)
    _legend_sides(panel, [sd for sd in sides if any(p.side == sd for p in pieces)], counters)
    hex_ids = {hexmap.label(h) for h in hexmap.hexes()}
    _boxes(panel, hexmap.boxes.values(), by_place,
           _unplaced(by_place, hex_ids | set(hexmap.boxes)), counters, cards)
    doc.extend(panel.doc)

    width = panel.x + panel.width + MARGIN
    height = max(oy + map_h, panel.y) + MARGIN
    return _document(width, height, doc, title=title or hexmap.name)


_MAP_LAYERS: weakref.WeakKeyDictionary[HexMap, dict[tuple[float, bool], tuple[str, ...]]] = \
    weakref.WeakKeyDictionary()


def _map_layers(hexmap: HexMap, s: float, show_ids: bool) -> tuple[str, ...]:
    """The map's own drawing (hexes, hexsides, features, place names), drawn once per map,
    hex size and id setting: a map does not change in play (what changes on it is pieces and
    game variables), and on a big sheet it is most of the picture's cost."""
    kept = _MAP_LAYERS.setdefault(hexmap, {})
    parts = kept.get((s, show_ids))
    if parts is None:
        doc = _Doc()
        _draw_hexes(doc, hexmap, s, show_ids)
        _draw_hexsides(doc, hexmap, s)
        _draw_features(doc, hexmap, s)
        _draw_labels(doc, hexmap, s)
        parts = kept[(s, show_ids)] = tuple(doc.parts)
    return parts


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
        name = hexmap.hex_name(h)
        if name:
            doc.text(cx, cy + s * 0.8, name, s * 0.22, width=s * 1.2, font_style="italic", fill=on)
    doc.close("g")


def _hex_tooltip(hexmap: HexMap, h: Hex) -> str:
    parts = [hexmap.label(h), hexmap.terrain_type(h).name]
    name = hexmap.hex_name(h)
    if name:
        parts.insert(1, name)
    feats = [hexmap.feature_types[f].name for f in sorted(hexmap.features(h))]
    if feats:
        parts.append(", ".join(feats))
    attrs = hexmap.spec.hexes.get(hexmap.label(h))
    if attrs is not None and not isinstance(attrs, str) and attrs.attrs:
        parts.append(", ".join(f"{k}={v}" for k, v in attrs.attrs.items()))
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


def _draw_labels(doc: _Doc, hexmap: HexMap, s: float) -> None:
    """The map's printed place names, centred on their hex, haloed so terrain never hides them."""
    doc.open("g", cls="labels")
    map_w, _ = hexmap.grid.pixel_size(s)
    for lab in hexmap.labels:
        cx, cy = hexmap.grid.center(hexmap.hex(lab.at), s)
        half = min(_fit(lab.text, s * 0.42, map_w, bold=True)[1] * 0.66 * len(lab.text), map_w) / 2
        cx = min(max(cx, half), map_w - half)  # keep the whole label over the map
        doc.text(cx, cy - s * 0.15, lab.text, s * 0.42, width=map_w, font_weight="bold", font_style="italic",
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


def _area_lines(stack: Sequence[Piece], counters: _Counters) -> list[tuple[str, str]]:
    """(colour, text) for each piece listed in a position, with "+N more" past the limit."""
    lines = []
    for p in stack[:AREA_LINES_SHOWN]:
        text = f"face-down {p.side} piece" if counters.face_down(p) else counters.label(p)
        lines.append((counters.color(p.side), text))
    if len(stack) > AREA_LINES_SHOWN:
        lines.append(("", f"+{len(stack) - AREA_LINES_SHOWN} more"))
    return lines


def _box_lines(stack: Sequence[Piece], counters: _Counters, cards: Sequence[str] | int | None,
               ) -> list[tuple[str, str]]:
    """(colour, text) lines of a box drawn on the board: its pieces with like ones counted
    together ("IJA ×6"), then its cards (titles, the first few, or a face-down count)."""
    groups: dict[tuple[str, str], int] = {}  # in the order first met
    for p in stack:
        text = f"face-down {p.side} piece" if counters.face_down(p) else counters.label(p)
        key = (counters.color(p.side), text)
        groups[key] = groups.get(key, 0) + 1
    lines = [(colour, text if n == 1 else f"{text} \u00d7{n}") for (colour, text), n in groups.items()]
    if isinstance(cards, int):
        lines.append(("", cards_text(cards)))
    elif cards:
        lines += [("", f"\u25ad {card}") for card in cards[:PLACED_CARDS_SHOWN]]
        if len(cards) > PLACED_CARDS_SHOWN:
            lines.append(("", f"+{len(cards) - PLACED_CARDS_SHOWN} more cards"))
    return lines


def _placed_box_geometry(box: BoxSpec, lines: int, ox: float, oy: float) -> tuple[float, float, float, float]:
    """Centre and half sizes of a box drawn on the board."""
    assert box.x is not None and box.y is not None
    return (ox + box.x, oy + box.y, PLACED_BOX_WIDTH / 2, (20 + 13 * lines) / 2)


def _draw_placed_box(doc: _Doc, box: BoxSpec, geo: tuple[float, float, float, float],
                     lines: Sequence[tuple[str, str]], count: int) -> None:
    """A box on the board: a small labelled rectangle (dashed when blind) listing its contents."""
    cx, cy, hw, hh = geo
    x0, y0 = cx - hw, cy - hh
    doc.open("g", cls="box placed", data_box=box.id)
    doc.title(f"{box.name} [{box.id}]: {count} piece(s)" + "".join(f"; {t}" for c, t in lines if not c))
    doc.el("rect", x=x0, y=y0, width=2 * hw, height=2 * hh, rx=4, fill="#fbf9f2", fill_opacity="0.95",
           stroke="#6d6552", stroke_width=1.1, stroke_dasharray="5,3" if box.blind else None)
    doc.text(x0 + 6, y0 + 13, box.name, 10, anchor="start", width=2 * hw - 12, font_weight="bold",
             fill=INK, cls="box-name")
    for k, (color, text) in enumerate(lines):
        ly = y0 + 18 + 13 * k
        if color:
            doc.el("rect", x=x0 + 6, y=ly + 2, width=8, height=8, rx=1.5, fill=color,
                   stroke=_darker(color, 0.4), stroke_width=0.7)
        doc.text(x0 + (18 if color else 8), ly + 10, text, 9.5, anchor="start", width=2 * hw - 24,
                 fill=INK, cls="piece" if color else "card")
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
                   cards: BoxCards | None = None) -> str:
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
                         colors=assign_side_colors(sides, side_colors), face_down=face_down or is_hidden)
    pad = AREA_BOX_WIDTH / 2 + 14
    ox, oy = MARGIN + pad, MARGIN + TITLE_HEIGHT + 50
    geometry: dict[str, tuple[float, float, float, float]] = {}
    for area in areamap.spec.areas:
        n = len(_area_lines(by_place.get(area.id, []), counters))
        geometry[area.id] = (ox + area.x, oy + area.y, AREA_BOX_WIDTH / 2, (40 + 13 * n) / 2)

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
        doc.title(f"{con.a} {'->' if con.directed else '<->'} {con.b}")
        doc.close("line")
    doc.close("g")
    for area in areamap.spec.areas:
        _draw_area(doc, areamap, area.id, geometry[area.id], by_place.get(area.id, []), counters)
    cards = cards or {}
    placed = [b for b in areamap.boxes.values() if b.x is not None]
    for box in placed:
        stack = by_place.get(box.id, [])
        lines = _box_lines(stack, counters, cards.get(box.id))
        _draw_placed_box(doc, box, _placed_box_geometry(box, len(lines), ox, oy), lines, len(stack))

    panel = _Panel(MARGIN + 1000 + 2 * pad + PANEL_GAP, MARGIN + TITLE_HEIGHT - 6)
    _legend_area(panel, areamap)
    _legend_sides(panel, [sd for sd in sides if any(p.side == sd for p in pieces)], counters)
    _boxes(panel, [b for b in areamap.boxes.values() if b.x is None], by_place,
           _unplaced(by_place, set(areamap.areas()) | set(areamap.boxes)), counters, cards)
    doc.extend(panel.doc)
    width = panel.x + panel.width + MARGIN
    height = max(MARGIN + TITLE_HEIGHT + 1100, panel.y) + MARGIN
    return _document(width, height, doc, title=title or areamap.name)


def _area_fill(attrs: Mapping[str, Any]) -> str:
    for key in ("color", "fill"):
        value = attrs.get(key)
        if isinstance(value, str) and value.startswith("#"):
            return value
    return AREA_BEACH if attrs.get("beach") else AREA_LAND


def _area_attr_text(area_id: str, attrs: Mapping[str, Any]) -> str:
    """The id and the attributes not drawn otherwise, as one short line."""
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
    doc.title(f"{area.name} [{area_id}] " + ", ".join(f"{k}={v}" for k, v in area.attrs.items()))
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
    doc.text(x0 + 7, y0 + 31, _area_attr_text(area_id, area.attrs), 9.5, anchor="start",
             width=2 * hw - 14, fill=_text_on(fill), fill_opacity="0.8")
    for k, (color, text) in enumerate(_area_lines(stack, counters)):
        ly = y0 + 40 + 13 * k
        face_up = k < min(len(stack), AREA_LINES_SHOWN) and not counters.face_down(stack[k])
        doc.open("g", cls="piece-line", data_piece=stack[k].id if face_up else None)
        if color:
            doc.el("rect", x=x0 + 7, y=ly + 2, width=9, height=9, rx=1.5, fill=color,
                   stroke=_darker(color, 0.4), stroke_width=0.7)
        doc.text(x0 + 20, ly + 10, text, 10, anchor="start", width=2 * hw - 26, fill=INK, cls="piece")
        doc.close("g")
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


def _render_places(pieces: Sequence[Piece], *, title: str, subtitle: str | None,
                   colors: Mapping[str, str], face_down: FaceDown, piece_label: PieceLabel) -> str:
    """A board-less picture: every place with its counters, for games that draw no map."""
    by_place = stacks(pieces)
    sides = sides_of(pieces, list(colors))
    counters = _Counters(label=piece_label, colors=assign_side_colors(sides, colors), face_down=face_down)
    doc = _Doc()
    _heading(doc, title, subtitle or "no map: pieces by place")
    panel = _Panel(MARGIN, MARGIN + TITLE_HEIGHT, 520)
    for loc, stack in sorted(by_place.items()):
        panel.box(loc, loc, stack, counters)
    panel2 = _Panel(MARGIN + 520 + PANEL_GAP, MARGIN + TITLE_HEIGHT - 6)
    _legend_sides(panel2, [sd for sd in sides if any(p.side == sd for p in pieces)], counters)
    doc.extend(panel.doc)
    doc.extend(panel2.doc)
    return _document(panel2.x + panel2.width + MARGIN, max(panel.y, panel2.y, 200) + MARGIN, doc,
                     title=title)


def _match_title(match: Match, hidden_from: str | None) -> tuple[str, str]:
    info = match.game.info
    scenario = info.scenario(match.scenario).name
    bits = [scenario, f"turn {match.state.turn}"]
    if match.state.phase:
        bits.append(match.state.phase)
    if match.result is not None:
        bits.append(f"over: {match.result.level}")
    bits.append(f"as seen by {hidden_from}" if hidden_from else "all pieces face-up")
    return info.title, " · ".join(bits)


def render_board(board: Any, pieces: Sequence[Piece], *, title: str, subtitle: str | None,
                 piece_label: PieceLabel, side_colors: Mapping[str, str], face_down: FaceDown,
                 cards: BoxCards | None = None, marks: Sequence[MapMark] = ()) -> str:
    """Draw whatever a game's ``board()`` returned (HexMap, AreaMap or None) with the pieces
    (and the cards the game shows in the board's boxes, the marks on a hex map)."""
    if isinstance(board, HexMap):
        return render_hexmap(board, pieces, title=title, subtitle=subtitle, piece_label=piece_label,
                             side_colors=side_colors, face_down=face_down, cards=cards, marks=marks)
    if isinstance(board, AreaMap):
        return render_areamap(board, pieces, title=title, subtitle=subtitle, piece_label=piece_label,
                              side_colors=side_colors, face_down=face_down, cards=cards)
    if board is None:
        return _render_places(pieces, title=title, subtitle=subtitle, colors=side_colors,
                              face_down=face_down, piece_label=piece_label)
    raise TabletopError(f"cannot draw a board of type {type(board).__name__}; "
                        f"expected a HexMap, an AreaMap or None")


def render_match(match: Match, *, hidden_from: str | None = None) -> str:
    """A match's position as SVG, on the map its game's ``board(match)`` gives.

    With ``hidden_from`` set to a side, the picture is that side's view: other sides'
    hidden pieces are face-down. Without it every piece is face-up (hidden ones outlined
    dashed), the designer's view.
    """
    game = match.game
    title, subtitle = _match_title(match, hidden_from)
    pieces = match_pieces(match)
    colors = assign_side_colors(sides_of(pieces, game.info.players))
    return render_board(game.board(match), pieces, title=title, subtitle=subtitle,
                        piece_label=game.piece_label, side_colors=colors,
                        face_down=face_down_in_view(match, hidden_from),
                        cards=game.box_cards(match, hidden_from),
                        marks=game.map_marks(match, hidden_from))


def render_game(game: Game, match: Match | None = None, *, hidden_from: str | None = None) -> str:
    """A game's map as SVG: with a match's pieces when given, else the bare map."""
    if match is not None:
        return render_match(match, hidden_from=hidden_from)
    colors = assign_side_colors(list(game.info.players))
    return render_board(game.board(None), [], title=game.info.title, subtitle=None,
                        piece_label=game.piece_label, side_colors=colors, face_down=is_hidden)
