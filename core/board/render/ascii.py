"""Terminal pictures of the table: hex maps as offset text rows, area maps as lists.

A hex map uses the standard offset trick for flat-topped hexes in vertical columns: each
map row takes two text lines, the unshifted columns on the upper line and the shifted
(half a hex lower) columns on the lower one, so neighbouring columns interlock like
bricks. Each hex is a five-character cell::

    ..=..   clear hex with an airfield (feature symbols in the middle)
    % J %   rough hex holding one piece of side J
    %=J3%   rough hex with an airfield, a stack of three, side J's piece on top
    [ J ]   the centre of a window (``m HEX N``)
    0504%   with hex ids on demand: the id, then the terrain symbol

Column numbers run along the top (two lines: each number over its own column's cells, the
upper line's columns first, the shifted columns' below), row numbers down the left, and a
legend follows. Every
symbol has one meaning: a terrain or feature symbol that would repeat another's (or one the
map itself uses: digits, brackets, ``?``, ``*``, ``+``) is drawn with a spare symbol instead,
and side letters avoid the map's symbols; the legend says which is which.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...engine.errors import TabletopError
from ...engine.marks import MapMark
from ...engine.pieces import Piece
from ...engine.text import in_words
from ..areamap import AreaMap
from ..hexgrid import direction_to, within
from ..hexmap import HexMap
from . import (
    BoxCards,
    FaceDown,
    PieceLabel,
    cards_text,
    default_piece_label,
    face_down_in_view,
    is_hidden,
    match_pieces,
    side_letters,
    sides_of,
    stacks,
)

if TYPE_CHECKING:
    from ...engine.match import Match

Window = tuple[str, int] | tuple[tuple[int, int], tuple[int, int]]
"""Part of a hex map to draw: ``(hex_id, radius)`` around a hex, or ``((c0, c1), (r0, r1))``."""

PITCH = 3  # text columns from one map column to the next
CELL = 5  # width of a hex cell; cells of one text line are two map columns apart
GUTTER = 3  # the row-number margin at the left ("07 ")
BOX_PIECES_SHOWN = 12  # pieces listed per box before "+N more"
LONG_TEXT = 40  # attribute strings longer than this are named, not printed


def _window(hexmap: HexMap, window: Window | None) -> tuple[tuple[int, int], tuple[int, int]]:
    """The printed column and row ranges to draw, clipped to the map."""
    (mc0, mc1), (mr0, mr1) = hexmap.grid.columns, hexmap.grid.rows
    if window is None:
        return (mc0, mc1), (mr0, mr1)
    first, second = window
    if isinstance(first, str) and isinstance(second, int):
        if second < 0:
            raise TabletopError(f"window radius must not be negative, got {second}")
        offsets = [hexmap.grid.to_offset(h) for h in within(hexmap.hex(first), second)]
        cols = (min(c for c, _ in offsets), max(c for c, _ in offsets))
        rows = (min(r for _, r in offsets), max(r for _, r in offsets))
    elif isinstance(first, tuple) and isinstance(second, tuple):
        cols, rows = (int(first[0]), int(first[1])), (int(second[0]), int(second[1]))
    else:
        raise TabletopError(f"window {window!r} is neither (hex id, radius) nor "
                            f"((first column, last column), (first row, last row))")
    c0, c1 = max(cols[0], mc0), min(cols[1], mc1)
    r0, r1 = max(rows[0], mr0), min(rows[1], mr1)
    if c0 > c1 or r0 > r1:
        raise TabletopError(f"window {window!r} shows no hex of the map "
                            f"(columns {mc0:02d}-{mc1:02d}, rows {mr0:02d}-{mr1:02d})")
    return (c0, c1), (r0, r1)


RESERVED = frozenset("[]? 0123456789")
"""Characters with a fixed meaning in a cell: centre brackets, unknown piece, blank, stack
sizes. The neutral piece's marker (``*``) and a stack of ten or more (``+``) give way to a
map that uses those characters itself (:attr:`Symbols.neutral`, :attr:`Symbols.many`)."""
SPARE_SYMBOLS = "#@&$;!|/\\'\"`,-)(}{><dhjknpqrsuxyzDEFGHKLMNOPQSVWXYZ"
NEUTRAL_MARKERS = "*&$;!"
"""The neutral piece's marker: the first of these the map does not use."""
MANY_MARKERS = "+&$;!"
"""The marker of a stack of ten or more: the first of these the map and the neutral marker
do not use."""
WEST, EAST = (4, 5), (1, 2)
"""The directions (:data:`~..hexgrid.DIRECTIONS`: SW, NW; NE, SE) of the hexsides drawn at
the left and at the right edge of a hex's cell; its south hexside is drawn in the gap below
the middle of its cell."""


class Symbols:
    """One symbol a meaning: the terrain and feature symbols a map is drawn with.

    Features whose names begin with the same word (Airfield No. 1, No. 2) may share a symbol;
    any other repeat, or a reserved character, gets a spare symbol.
    """

    def __init__(self, hexmap: HexMap) -> None:
        used: dict[str, tuple[str, str]] = {}  # symbol -> (kind, first word of the name)
        spare = (c for c in SPARE_SYMBOLS)
        self.terrain: dict[str, str] = {}
        self.feature: dict[str, str] = {}
        self.hexside: dict[str, str] = {}
        for kind, types, out in (("terrain", hexmap.terrain_types, self.terrain),
                                 ("feature", hexmap.feature_types, self.feature),
                                 ("hexside", hexmap.spec.hexside_types, self.hexside)):
            for type_id, spec in types.items():
                family = (kind, (spec.name.split() or [type_id])[0].lower())
                # a feature or hexside that names no symbol takes a spare one, never the
                # model's default `*` (which would push the neutral marker aside)
                chosen = kind == "terrain" or "symbol" in spec.model_fields_set
                symbol = (spec.symbol or "?")[0] if chosen else "?"
                owner = used.get(symbol)
                if symbol in RESERVED or (owner is not None and (owner != family or kind == "terrain")):
                    symbol = next(c for c in spare if c not in used and c not in RESERVED)
                used.setdefault(symbol, family)
                out[type_id] = symbol
        self.names: dict[str, list[str]] = {}
        for kind, types, table in (("terrain", hexmap.terrain_types, self.terrain),
                                   ("feature", hexmap.feature_types, self.feature),
                                   ("hexside", hexmap.spec.hexside_types, self.hexside)):
            for type_id, spec in types.items():
                self.names.setdefault(f"{kind}:{table[type_id]}", []).append(spec.name)
        #: the neutral piece's marker and that of a stack of ten or more, clear of the map's
        self.neutral = next(c for c in NEUTRAL_MARKERS if c not in used)
        self.many = next(c for c in MANY_MARKERS if c not in used and c != self.neutral)

    def taken(self) -> set[str]:
        """Every symbol the map uses, for side letters to avoid (either case)."""
        out = set(self.terrain.values()) | set(self.feature.values()) | set(self.hexside.values())
        return out | {c.upper() for c in out} | {c.lower() for c in out}

    def edges(self, hexmap: HexMap) -> dict[str, dict[str, str]]:
        """Each hex's hexsides that carry a feature, as the symbol of their first feature
        (in the map's order) by where it is drawn: ``"west"``, ``"east"`` (the cell's left
        and right characters; both hexes of the side show it) and ``"south"`` (below the
        middle of the cell, once)."""
        order = list(hexmap.spec.hexside_types)
        out: dict[str, dict[str, str]] = {}
        for side, feats in hexmap.hexsides().items():
            named = sorted((f for f in feats if f in self.hexside), key=order.index)
            if not named:
                continue
            mark = self.hexside[named[0]]
            for a, b in ((side.a, side.b), (side.b, side.a)):
                d = direction_to(a, b)
                where = "west" if d in WEST else "east" if d in EAST else "south" if d == 3 else None
                if where is not None:
                    out.setdefault(hexmap.label(a), {})[where] = mark
        return out


def _marker(stack: Sequence[Piece], char: Callable[[Piece], str], many: str = "+") -> str:
    """The occupant part of a cell: the top piece's marker and, for a stack, its size."""
    mark = (char(stack[0]) or "?")[0]
    n = len(stack)
    count = "" if n == 1 else str(n) if n < 10 else many
    return mark + count.ljust(1)


def _cell(hexmap: HexMap, hex_id: str, stack: Sequence[Piece] | None,
          char: Callable[[Piece], str], symbols: Symbols | None = None, *,
          centre: bool = False, ids: bool = False, edges: Mapping[str, str] | None = None) -> str:
    symbols = symbols or Symbols(hexmap)
    edges = edges or {}
    h = hexmap.hex(hex_id)
    t = symbols.terrain[hexmap.terrain(h)]
    if ids:
        return hex_id + t
    order = list(hexmap.feature_types)
    feats = "".join(symbols.feature[f] for f in sorted(hexmap.features(h), key=order.index))
    # under a piece the first feature stays visible, left of the piece's marker
    middle = (feats[:1] or " ") + _marker(stack, char, symbols.many) if stack else feats[:3].center(3, t)
    left, right = ("[", "]") if centre else (edges.get("west", t), edges.get("east", t))
    return left + middle + right


def render_hexmap(hexmap: HexMap, pieces: Iterable[Piece] = (), *,
                  piece_char: Callable[[Piece], str] | None = None, window: Window | None = None,
                  letters: Mapping[str, str] | None = None, ids: bool = False) -> str:
    """The hex map (or a window of it) as terminal text, with a legend.

    Two header lines of column numbers (one when every column is on one line), two lines per
    map row, then the legend: a line for
    terrain symbols, one for feature symbols (if the map has any), one for pieces (if any). Pieces
    are grouped by location, the first given being the top of its stack; a cell shows the
    top piece's marker (``piece_char``, by default its side's letter) and the stack size. A
    window around a hex marks that hex; ``ids`` draws each hex's id instead of its contents.
    """
    pieces = list(pieces)
    by_place = stacks(pieces)
    symbols = Symbols(hexmap)
    sides = sides_of(pieces, list(letters or {}))
    marks = {**side_letters(sides, taken=symbols.taken(), neutral=symbols.neutral), **(letters or {})}
    char = piece_char or (lambda p: marks.get(p.side, "?"))
    edges = {} if ids else symbols.edges(hexmap)
    (c0, c1), (r0, r1) = _window(hexmap, window)
    centre = window[0] if window is not None and isinstance(window[0], str) else None
    grid = hexmap.grid
    width = GUTTER + PITCH * (c1 - c0) + CELL

    # each column's number over its own hexes: the columns of the upper text line numbered
    # on the first header line, those of the lower (shifted) line on the second, each
    # centred over its five-character cell
    header = [[" "] * width, [" "] * width]
    for col in range(c0, c1 + 1):
        at = GUTTER + PITCH * (col - c0) + 1
        header[1 if grid.is_shifted(col) and c1 > c0 else 0][at:at + 3] = f"{col:02d}".center(3)
    lines = ["".join(h).rstrip() for h in header if "".join(h).strip()]
    south: list[tuple[int, str]] = []  # (text column, south mark) of the row above's lower hexes
    for row in range(r0, r1 + 1):
        upper = list(f"{row:02d} ".ljust(width))
        lower = [" "] * width
        for at, mark in south:
            upper[at] = mark
        south = []
        for col in range(c0, c1 + 1):
            hex_id = f"{col:02d}{row:02d}"
            if hex_id not in hexmap:
                continue  # a half hex the sheet leaves out (HexMapSpec.absent)
            shifted = grid.is_shifted(col) and c1 > c0
            line = lower if shifted else upper
            at = GUTTER + PITCH * (col - c0)
            here = edges.get(hex_id, {})
            line[at:at + CELL] = _cell(hexmap, hex_id, by_place.get(hex_id), char, symbols,
                                       centre=hex_id == centre, ids=ids, edges=here)
            if "south" in here:  # the gap below the middle of the cell, on the next text line
                if shifted:
                    south.append((at + 2, here["south"]))
                else:
                    lower[at + 2] = here["south"]
        lines.append("".join(upper).rstrip())
        lines.append("".join(lower).rstrip())
    lines.extend(_legend(hexmap, [s for s in sides if any(p.side == s for p in pieces)], marks,
                         custom=piece_char is not None, symbols=symbols, centre=centre, ids=ids))
    return "\n".join(lines)


def _legend(hexmap: HexMap, sides: Sequence[str], marks: Mapping[str, str], *,
            custom: bool, symbols: Symbols | None = None, centre: str | None = None,
            ids: bool = False) -> list[str]:
    """The key under the map: one line for terrain, then features and pieces when there are
    any, each symbol once with everything it stands for."""
    symbols = symbols or Symbols(hexmap)

    def names(kind: str, table: Mapping[str, str]) -> str:
        shown: list[str] = []
        for sym in dict.fromkeys(table.values()):
            shown.append(f"{sym} {' / '.join(symbols.names[f'{kind}:{sym}'])}")
        return "  ".join(shown)

    parts = [f"terrain: {names('terrain', symbols.terrain)}"]
    if ids:
        parts.append("each hex: its id, then its terrain symbol")
        return parts
    if hexmap.feature_types:
        parts.append(f"features: {names('feature', symbols.feature)} (left of a piece when "
                     "the hex is occupied)")
    if hexmap.spec.hexside_types:
        parts.append(f"hexsides: {names('hexside', symbols.hexside)} (on a hex's edge: at the "
                     "left or right of its cell, or below its middle)")
    if custom:
        parts.append("pieces: top piece's marker, then stack size")
    elif sides:
        parts.append("pieces: " + "  ".join(f"{marks[s]} {s or 'neutral'}" for s in sides)
                     + f", then stack size ({symbols.many} for 10 or more)")
    if centre:
        parts.append(f"[ ] marks {centre}, the centre of this window")
    return parts


def _piece_text(piece: Piece, label: PieceLabel, face_down: FaceDown, marks: Mapping[str, str]) -> str:
    mark = marks.get(piece.side, "?")
    return f"{mark} face-down" if face_down(piece) else f"{mark} {label(piece)}"


def _listing(stack: Sequence[Piece], label: PieceLabel, face_down: FaceDown,
             marks: Mapping[str, str]) -> str:
    shown = [_piece_text(p, label, face_down, marks) for p in stack[:BOX_PIECES_SHOWN]]
    if len(stack) > BOX_PIECES_SHOWN:
        shown.append(f"+{len(stack) - BOX_PIECES_SHOWN} more")
    return ", ".join(shown)


def _attr_words(attrs: Mapping[str, Any]) -> str:
    """Attributes as words; long texts (history notes) are named but not printed."""
    words = [k if v is True else f"{k}\u2026" if isinstance(v, str) and len(v) > LONG_TEXT else f"{k} {v}"
             for k, v in attrs.items() if v not in (False, None)]
    return f"  ({', '.join(words)})" if words else ""


def render_areamap(areamap: AreaMap, pieces: Iterable[Piece] = (), *,
                   piece_label: PieceLabel | None = None, face_down: FaceDown | None = None,
                   letters: Mapping[str, str] | None = None, cards: BoxCards | None = None) -> str:
    """The area map as text: each position with its attributes, arrows and occupants.

    ``<-> x`` joins both ways, ``-> x`` leads only out, ``<- x`` only in. Boxes follow, with
    the ``cards`` a game shows in them.
    """
    cards = cards or {}
    pieces = list(pieces)
    by_place = stacks(pieces)
    marks = {**side_letters(sides_of(pieces, list(letters or {}))), **(letters or {})}
    label = piece_label or default_piece_label
    down = face_down or is_hidden
    name = {area.id: area.name for area in areamap.spec.areas}
    arrows: dict[str, list[str]] = {a: [] for a in areamap.areas()}
    for con in areamap.spec.connections:
        if con.directed:
            arrows[con.a].append(f"-> {name[con.b]}")
            arrows[con.b].append(f"<- {name[con.a]}")
        else:
            arrows[con.a].append(f"<-> {name[con.b]}")
            arrows[con.b].append(f"<-> {name[con.a]}")
    lines = [f"{areamap.name}: {len(arrows)} positions, {len(areamap.spec.connections)} connections"]
    for area in areamap.spec.areas:
        if areamap.spec.labels:  # the map's player words for its attributes, long texts left out
            words = [w for w in areamap.spec.words(area) if len(w) <= LONG_TEXT]
            lines.append(f"{area.name}" + (f"  ({' · '.join(words)})" if words else ""))
        else:
            lines.append(f"{area.name}{_attr_words(area.attrs)}")
        lines.append(f"    arrows: {', '.join(arrows[area.id]) or 'none'}")
        stack = by_place.get(area.id)
        if stack:
            lines.append(f"    here: {_listing(stack, label, down, marks)}")
    known = set(arrows)
    for box in areamap.boxes.values():
        known.add(box.id)
        blind = " (blind)" if box.blind else ""
        stack = by_place.get(box.id, [])
        held = _listing(stack, label, down, marks)
        if box.id in cards:
            held = "; ".join(filter(None, (held, f"cards: {cards_text(cards[box.id])}")))
        lines.append(f"box {box.name}{blind}: {held or 'empty'}")
    for loc, stack in sorted(by_place.items()):
        if loc not in known:
            lines.append(f"at {in_words(loc)}: {_listing(stack, label, down, marks)}")
    return "\n".join(lines)


def mark_lines(marks: Sequence[MapMark]) -> list[str]:
    """A line a kind of map mark, naming where each is (a hexside as ``A/B``)."""
    where: dict[str, list[str]] = {}
    for mark in marks:
        where.setdefault(mark.name, []).append("/".join(mark.at))
    return [f"{name}: {' '.join(places)}" for name, places in sorted(where.items())]


def render_match(match: Match, *, player: str | None = None, window: Window | None = None,
                 ids: bool = False) -> str:
    """A match's position as terminal text, as ``player`` sees it (everything when None).

    A hex map is drawn as :func:`render_hexmap` (``window`` picks a part of it, ``ids``
    draws hex ids), followed by the off-map boxes and any pieces elsewhere; an area map as
    :func:`render_areamap`.
    """
    game = match.game
    info = game.info
    pieces = match_pieces(match)
    board = game.board(match)
    symbols = Symbols(board) if isinstance(board, HexMap) else None
    marks = side_letters(sides_of(pieces, info.players), taken=symbols.taken() if symbols else (),
                         neutral=symbols.neutral if symbols else "*")
    down = face_down_in_view(match, player)
    head = [info.title, info.scenario(match.scenario).name, f"turn {match.state.turn}"]
    if match.state.phase:
        head.append(game.phase_name(match.state.phase))
    if player:
        head.append(f"as seen by {player}")
    title = " · ".join(head)
    if isinstance(board, AreaMap):
        return title + "\n" + render_areamap(board, pieces, piece_label=game.piece_label,
                                             face_down=down, letters=marks,
                                             cards=game.box_cards(match, player))
    if isinstance(board, HexMap):
        lines = [title, render_hexmap(board, pieces, window=window, letters=marks, ids=ids)]
        by_place = stacks(pieces)
        cards = game.box_cards(match, player)
        for box in board.boxes.values():
            stack = by_place.get(box.id)
            held = _listing(stack, game.piece_label, down, marks) if stack else ""
            if box.id in cards:
                held = "; ".join(filter(None, (held, f"cards: {cards_text(cards[box.id])}")))
            if held:
                lines.append(f"box {box.name}: {held}")
        for loc, stack in sorted(by_place.items()):
            if loc not in board and loc not in board.boxes:
                lines.append(f"at {in_words(loc)}: {_listing(stack, game.piece_label, down, marks)}")
        lines.extend(mark_lines(game.map_marks(match, player)))
        return "\n".join(lines)
    if board is not None:
        raise TabletopError(f"cannot draw a board of type {type(board).__name__}; "
                            f"expected a HexMap, an AreaMap or None")
    lines = [title, "(no map)"]
    for loc, stack in sorted(stacks(pieces).items()):
        lines.append(f"at {in_words(loc)}: {_listing(stack, game.piece_label, down, marks)}")
    return "\n".join(lines)
