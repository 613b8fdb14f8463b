"""Counter art: how a game's pieces look as printed counters, declared as data.

A game says in ``data/counter_art.yaml`` how its counters are printed: the type symbol of
each unit type (NATO-style: infantry, armour, artillery, HQ, engineers, ...), the colours of
each side and formation, which printed values show and in what order, how a reduced unit
and each status its rules keep on a piece (disruption, fatigue, dug-in, moved, fired ...)
are marked, what the back of a face-down unit shows and how markers that belong to no side
look. :class:`CounterArt` is the file's model; :meth:`CounterArt.face` turns one piece into
a :class:`Face` (everything printed on it) that the renderers draw, and :func:`symbol_svg`
draws a type symbol. A game without the file gets :data:`DEFAULT_ART`: side colours, the
unit type guessed from the piece's kind, the values its label prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from ..engine.data import StrictModel, load_model
from ..engine.pieces import Piece

ART_FILE = "counter_art.yaml"
"""The file of a game's counter art, in the game's ``data/`` folder."""

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]

Symbol = Literal[
    "infantry", "armour", "cavalry", "armoured_cavalry", "artillery", "self_propelled_artillery",
    "mortar", "rocket", "machine_gun", "anti_tank", "anti_aircraft", "engineer", "construction",
    "hq", "airborne", "amphibious", "amphibious_armour", "air", "flamethrower", "police",
    "fortification", "text", "none",
]
"""The type symbols core draws inside a counter's unit box (``text``: the type's ``text``)."""

SYMBOLS: tuple[str, ...] = Symbol.__args__  # type: ignore[attr-defined]


class TypeArt(StrictModel):
    """A unit type's symbol, and its name in the key (the rulebook's word)."""

    symbol: Symbol
    name: str = ""
    text: str = Field("", max_length=4)  # drawn in the box when ``symbol`` is ``text``


class Colours(StrictModel):
    """A counter's background, and the ink printed on it (black or white when unset)."""

    fill: Colour
    ink: Colour | None = None


class FormationArt(StrictModel):
    """Colours by formation: the piece attribute that names it, and a colour for each."""

    attr: str
    colours: dict[str, Colours]


class StatusArt(StrictModel):
    """A status a game keeps on its pieces, shown as a small marker on the counter's edge:
    when the piece attribute ``attr`` (or ``face``/``hidden``) equals ``equals``; limited to
    some sides or unit kinds when given."""

    attr: str
    equals: str | int | bool = True
    mark: str = Field(min_length=1, max_length=3)
    name: str
    section: str = ""
    fill: Colour = "#b3261e"
    sides: list[str] = Field(default_factory=list)
    kinds: list[str] = Field(default_factory=list)


class ReducedArt(StrictModel):
    """How a reduced unit (a step lost) is marked: a band across the counter's top."""

    fill: Colour = "#b3261e"
    name: str = "reduced"


class BackArt(StrictModel):
    """The back of a face-down unit: its side's colour (or ``fill``) and ``text``."""

    text: str = Field("?", max_length=3)
    fill: Colour | None = None


class MarkerArt(StrictModel):
    """A marker that belongs to no side (bombardment, rubble, the turn marker): its colour
    and the short text printed on it (the game's label when empty)."""

    fill: Colour = "#e9e4d4"
    text: str = ""


class CounterArt(StrictModel):
    """A game's counter art (``data/counter_art.yaml``).

    ``types`` maps a unit type (the piece attribute ``type_attr`` when a piece has it, else
    its kind) to its symbol; ``designation`` says what is printed at the top (the first half
    of the game's label, the piece's name or id); ``values`` which printed values show at the
    bottom, joined by ``separator`` (read from the face that is up, else the front; none
    listed: the numbers of the game's label).
    """

    section: str = ""
    type_attr: str = ""
    types: dict[str, TypeArt] = Field(default_factory=dict)
    sides: dict[str, Colours] = Field(default_factory=dict)
    formation: FormationArt | None = None
    designation: Literal["label", "name", "id"] = "label"
    values: list[str] = Field(default_factory=list)
    separator: str = Field("-", max_length=2)
    reduced: ReducedArt = ReducedArt()
    status: list[StatusArt] = Field(default_factory=list)
    back: BackArt = BackArt()
    markers: dict[str, MarkerArt] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _short_types(cls, data: Any) -> Any:
        """``types: {tank: armour}`` is short for ``{tank: {symbol: armour}}``."""
        if isinstance(data, dict) and isinstance(data.get("types"), dict):
            data = {**data, "types": {k: {"symbol": v} if isinstance(v, str) else v
                                      for k, v in data["types"].items()}}
        return data

    def unit_type(self, piece: Piece) -> str:
        """The piece's unit type: its ``type_attr`` attribute when it has one, else its kind."""
        if self.type_attr:
            got = piece.attrs.get(self.type_attr)
            if isinstance(got, str) and got:
                return got
        return piece.kind

    def type_art(self, piece: Piece) -> TypeArt:
        """The symbol of the piece's type (declared, else guessed from the type's name)."""
        kind = self.unit_type(piece)
        art = self.types.get(kind) or self.types.get(piece.kind)
        return art if art is not None else TypeArt(symbol=guess_symbol(kind))

    def colours(self, piece: Piece, side_fill: str) -> Colours:
        """The piece's colours: its formation's, else its side's, else ``side_fill``."""
        if not piece.side:
            marker = self.markers.get(piece.kind)
            return Colours(fill=marker.fill if marker else "#e9e4d4")
        if self.formation is not None:
            got = self.formation.colours.get(str(piece.attrs.get(self.formation.attr, "")))
            if got is not None:
                return got
        return self.sides.get(piece.side) or Colours(fill=side_fill)

    def side_colours(self) -> dict[str, str]:
        """The counter colour of each side the art names."""
        return {side: c.fill for side, c in self.sides.items()}

    def face(self, piece: Piece, label: str, side_fill: str) -> Face:
        """What is printed on the piece's face-up counter (``label`` is the game's label)."""
        colours = self.colours(piece, side_fill)
        name, numbers = split_label(label)
        if not piece.side:  # a marker: its text alone
            marker = self.markers.get(piece.kind)
            return Face(fill=colours.fill, ink=colours.ink or text_on(colours.fill), symbol="none",
                        symbol_text="", type_name="marker", designation="",
                        factors=(marker.text if marker and marker.text else label), status=(),
                        reduced=None, marker=True)
        if self.designation == "id":
            designation = piece.id
        elif self.designation == "name":
            designation = piece.name or piece.id
        else:
            designation = name if any(ch.isdigit() for ch in numbers) or numbers.startswith("(") \
                else label
        factors = self._factors(piece) or (numbers if designation != label else "")
        art = self.type_art(piece)
        status = tuple(s for s in self.status if _status_on(s, piece))
        return Face(fill=colours.fill, ink=colours.ink or text_on(colours.fill), symbol=art.symbol,
                    symbol_text=art.text, type_name=art.name or self.unit_type(piece).replace("_", " "),
                    designation=designation, factors=factors, status=status,
                    reduced=self.reduced if piece.is_reduced else None, marker=False)

    def _factors(self, piece: Piece) -> str:
        if not self.values:
            return ""
        face = piece.values.get(piece.face) or piece.values.get("front") or {}
        shown = [str(face[v]) for v in self.values if v in face]
        return self.separator.join(shown)


def _status_on(status: StatusArt, piece: Piece) -> bool:
    if status.sides and piece.side not in status.sides:
        return False
    if status.kinds and piece.kind not in status.kinds:
        return False
    if status.attr == "face":
        value: Any = piece.face
    elif status.attr == "hidden":
        value = piece.hidden
    else:
        value = piece.attrs.get(status.attr)
    return bool(value == status.equals and type(value) is type(status.equals))


@dataclass(frozen=True)
class Face:
    """Everything printed on one face-up counter, ready to draw."""

    fill: str
    ink: str
    symbol: str
    symbol_text: str
    type_name: str
    designation: str
    factors: str
    status: tuple[StatusArt, ...]
    reduced: ReducedArt | None
    marker: bool


DEFAULT_ART = CounterArt()
"""The art of a game that declares none."""

_GUESSES: tuple[tuple[str, str], ...] = (
    ("hq", "hq"), ("headquarter", "hq"), ("command", "hq"),
    ("armored_cav", "armoured_cavalry"), ("armoured_cav", "armoured_cavalry"),
    ("amtrac", "amphibious_armour"), ("sp_art", "self_propelled_artillery"),
    ("tank_destroyer", "anti_tank"), ("anti_tank", "anti_tank"), ("antitank", "anti_tank"),
    ("anti_aircraft", "anti_aircraft"), ("aa", "anti_aircraft"),
    ("tank", "armour"), ("armo", "armour"), ("mortar", "mortar"), ("rocket", "rocket"),
    ("artillery", "artillery"), ("gun", "artillery"), ("mg", "machine_gun"),
    ("machine", "machine_gun"), ("heavy_weapon", "machine_gun"), ("engineer", "engineer"),
    ("construction", "construction"), ("cav", "cavalry"), ("recon", "cavalry"),
    ("para", "airborne"), ("glider", "airborne"), ("airborne", "airborne"),
    ("air", "air"), ("marine", "amphibious"), ("naval", "amphibious"), ("flame", "flamethrower"),
    ("police", "police"), ("infantry", "infantry"), ("rifle", "infantry"),
)


def guess_symbol(kind: str) -> Symbol:
    """A type symbol from a unit type's name (``"tank"`` -> armour); infantry when unknown."""
    low = kind.lower()
    for part, symbol in _GUESSES:
        if low == part or low.startswith(part) or f"_{part}" in low:
            return symbol  # type: ignore[return-value]
    return "infantry"


def split_label(label: str) -> tuple[str, str]:
    """A counter label as its name and its values (``"1/23 4-3-4"`` -> both halves)."""
    label = label.strip()
    if " " not in label:
        return ("", label)
    name, values = label.rsplit(" ", 1)
    return (name, values)


def text_on(colour: str) -> str:
    """Black or white ink, whichever reads better on a background colour."""
    c = colour.lstrip("#")
    try:
        r, g, b = int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
    except ValueError:
        return "#262626"
    return "#262626" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


_LOADED: dict[tuple[str, int], CounterArt] = {}


def load_counter_art(folder: Path | None) -> CounterArt:
    """The counter art in a game's data folder (:data:`DEFAULT_ART` without the file).

    Raises DataError (one line naming the file and field) when the file is not valid; kept
    once read, until the file changes.
    """
    if folder is None:
        return DEFAULT_ART
    path = folder / ART_FILE
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return DEFAULT_ART
    key = (str(path), stamp)
    art = _LOADED.get(key)
    if art is None:
        art = _LOADED[key] = load_model(CounterArt, path)
    return art


# --- the type symbols ---------------------------------------------------------------------


def _n(x: float) -> str:
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def symbol_svg(symbol: str, x: float, y: float, w: float, h: float, ink: str, *,
               text: str = "") -> str:
    """A unit type's NATO-style symbol as SVG markup: the unit box at (x, y), w × h, with
    the type's sign inside in ``ink`` (``text`` for the ``text`` symbol)."""
    sw = max(h * 0.09, 0.6)
    line = f'stroke="{ink}" stroke-width="{_n(sw)}" fill="none" stroke-linecap="round"'
    x2, y2, cx, cy = x + w, y + h, x + w / 2, y + h / 2
    parts: list[str] = []
    if symbol not in ("none", "fortification"):
        parts.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
                     f'fill="#ffffff" fill-opacity="0.82" stroke="{ink}" stroke-width="{_n(sw)}"/>')

    def path(d: str, extra: str = "") -> None:
        parts.append(f'<path d="{d}" {line}{extra}/>')

    def oval() -> None:
        parts.append(f'<rect x="{_n(x + w * 0.2)}" y="{_n(y + h * 0.24)}" width="{_n(w * 0.6)}" '
                     f'height="{_n(h * 0.52)}" rx="{_n(h * 0.26)}" {line}/>')

    def cross() -> None:
        path(f"M{_n(x)},{_n(y)} L{_n(x2)},{_n(y2)} M{_n(x)},{_n(y2)} L{_n(x2)},{_n(y)}")

    def dot(r: float = 0.16) -> None:
        parts.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(h * r)}" fill="{ink}"/>')

    def words(t: str) -> None:
        size = min(h * 0.7, w / max(len(t), 1) * 1.5)
        parts.append(f'<text x="{_n(cx)}" y="{_n(cy + size * 0.36)}" font-size="{_n(size)}" '
                     f'font-weight="bold" text-anchor="middle" fill="{ink}">{_escape(t)}</text>')

    if symbol == "infantry":
        cross()
    elif symbol == "armour":
        oval()
    elif symbol == "cavalry":
        path(f"M{_n(x)},{_n(y2)} L{_n(x2)},{_n(y)}")
    elif symbol == "armoured_cavalry":
        oval()
        path(f"M{_n(x)},{_n(y2)} L{_n(x2)},{_n(y)}")
    elif symbol == "artillery":
        dot()
    elif symbol == "self_propelled_artillery":
        oval()
        dot(0.1)
    elif symbol == "mortar":
        parts.append(f'<circle cx="{_n(cx)}" cy="{_n(y + h * 0.72)}" r="{_n(h * 0.12)}" {line}/>')
        path(f"M{_n(cx)},{_n(y + h * 0.6)} V{_n(y + h * 0.14)} M{_n(cx - w * 0.08)},{_n(y + h * 0.3)} "
             f"L{_n(cx)},{_n(y + h * 0.14)} L{_n(cx + w * 0.08)},{_n(y + h * 0.3)}")
    elif symbol == "rocket":
        dot(0.12)
        path(f"M{_n(cx - w * 0.16)},{_n(y + h * 0.36)} L{_n(cx)},{_n(y + h * 0.1)} "
             f"L{_n(cx + w * 0.16)},{_n(y + h * 0.36)}")
    elif symbol == "machine_gun":
        path(f"M{_n(cx)},{_n(y2 - h * 0.1)} V{_n(y + h * 0.12)} M{_n(cx - w * 0.12)},{_n(y + h * 0.36)} "
             f"L{_n(cx)},{_n(y + h * 0.12)} L{_n(cx + w * 0.12)},{_n(y + h * 0.36)}")
    elif symbol == "anti_tank":
        path(f"M{_n(x)},{_n(y2)} L{_n(cx)},{_n(y)} L{_n(x2)},{_n(y2)}")
    elif symbol == "anti_aircraft":
        path(f"M{_n(x + w * 0.1)},{_n(y2)} Q{_n(cx)},{_n(y + h * 0.05)} {_n(x2 - w * 0.1)},{_n(y2)}")
    elif symbol in ("engineer", "construction"):
        top, bot = y + h * 0.34, y + h * 0.7
        path(f"M{_n(x + w * 0.22)},{_n(bot)} V{_n(top)} H{_n(x2 - w * 0.22)} V{_n(bot)} "
             f"M{_n(cx)},{_n(top)} V{_n(bot)}")
        if symbol == "construction":
            path(f"M{_n(x + w * 0.1)},{_n(y + h * 0.86)} H{_n(x2 - w * 0.1)}")
    elif symbol == "hq":
        words("HQ")
        path(f"M{_n(x)},{_n(y)} V{_n(y2 + h * 0.45)}")
    elif symbol == "airborne":
        cross()
        path(f"M{_n(cx - w * 0.22)},{_n(y2 - h * 0.08)} q{_n(w * 0.11)},{_n(-h * 0.3)} {_n(w * 0.22)},0 "
             f"q{_n(w * 0.11)},{_n(-h * 0.3)} {_n(w * 0.22)},0")
    elif symbol in ("amphibious", "amphibious_armour"):
        if symbol == "amphibious":
            low = y + h * 0.62
            path(f"M{_n(x)},{_n(y)} L{_n(x2)},{_n(low)} M{_n(x)},{_n(low)} L{_n(x2)},{_n(y)}")
        else:
            oval()
        wy = y + h * 0.82
        path(f"M{_n(x + w * 0.08)},{_n(wy)} q{_n(w * 0.105)},{_n(-h * 0.2)} {_n(w * 0.21)},0 "
             f"t{_n(w * 0.21)},0 t{_n(w * 0.21)},0 t{_n(w * 0.21)},0")
    elif symbol == "air":
        for side in (-1, 1):
            parts.append(f'<ellipse cx="{_n(cx + side * w * 0.17)}" cy="{_n(cy)}" rx="{_n(w * 0.17)}" '
                         f'ry="{_n(h * 0.2)}" {line}/>')
    elif symbol == "flamethrower":
        cross()
        words("F")
    elif symbol == "police":
        words("MP")
    elif symbol == "fortification":
        # a fortified position: a box of battlements (the "dug in" side)
        k = 5
        step = w / k
        d = f"M{_n(x)},{_n(y2)} V{_n(y + h * 0.3)}"
        for i in range(k):
            top = y if i % 2 == 0 else y + h * 0.3
            d += f" H{_n(x + step * i)} V{_n(top)} H{_n(x + step * (i + 1))}"
        d += f" V{_n(y2)} Z"
        parts.append(f'<path d="{d}" fill="#ffffff" fill-opacity="0.82" stroke="{ink}" '
                     f'stroke-width="{_n(sw)}"/>')
    elif symbol == "text":
        words(text or "?")
    return "".join(parts)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def fan_offsets(count: int, size: float) -> list[tuple[float, float]]:
    """Where the counters of an opened stack go, from the stack's centre: a fan to the right,
    wrapped after five, so a stack of any depth opens readable."""
    per_row = 5
    out = []
    for k in range(count):
        row, col = divmod(k, per_row)
        out.append((size * (0.95 + 1.12 * col), size * 1.12 * row))
    return out
