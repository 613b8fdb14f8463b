"""The reconstructed Manila '45 map sheet, drawn by rules: run this module to rewrite the
game's data/map.yaml (from the repository root: ``python -m tools.manila45_map``; not
installed with the game, play never imports it).

The rulebook prints no map; it names hexes (2.2, 3.2, 3.4, 4.3, 10.6, 10.9, 10.10, 10.22).
This module places the coast, the Pasig, the San Juan, the Parañaque River, the 100 m
contour, the Intramuros wall, the bridges and the terrain by simple functions of a hex's
column and height, so that every hex the rules name falls where they say and the city keeps
Manila's shape (docs/games/manila45.md, "The map"). ``data/map.yaml`` is its output,
committed, and a test checks the two agree.

Geometry. Columns 16-44 run east to west (column 16 is the east edge, the bay is beyond
column 41); rows run south to north (row 00/01 is the south edge, 32/33 the north edge).
Odd columns print rows 00-32 and even columns rows 01-33, so odd columns sit half a hex to
the south of even ones: a hex's *height* ``y`` is its row, plus a half in an odd column.
Each hex is 0.5 km across its flats; a column is 0.43 km.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

from tabletop.core.board.hexgrid import Hex, HexGrid, HexSide, neighbors

COLUMNS = (16, 44)
ROWS = (0, 33)
GRID = HexGrid(COLUMNS, ROWS, "odd")

#: Where the heavy structures stand (8.5, 10.8, 10.12): id -> name. 2.2 names 1812 and 2119.
HEAVY: dict[str, str] = {
    "1812": "Fort McKinley",
    "2119": "Psychopathic Hospital",
    "3821": "San Agustin",
    "3822": "Walled City",
    "3921": "Walled City",
    "3922": "Fort Santiago",
    "3720": "Legislative Building",
    "3620": "Finance Building",
    "3619": "Agriculture & Commerce Building",
    "3721": "City Hall",
    "3722": "Post Office",
    "4020": "Manila Hotel",
    "3618": "Philippine General Hospital",
    "3718": "University of the Philippines",
    "3515": "Rizal Stadium & Harrison Park",
    "3415": "De La Salle College",
    "3421": "Provisor Island power plant",
    "3322": "Malacañan Palace",
    "3526": "Santo Tomas University",
    "3625": "Bilibid Prison",
    "3724": "Far Eastern University",
    "3419": "Paco Railroad Station",
}

#: Airfields (8.5: clear terrain for movement): id -> name.
AIRFIELDS: dict[str, str] = {
    "2705": "Nichols Field", "2805": "Nichols Field", "2806": "Nichols Field",
    "2905": "Nichols Field", "2906": "Nichols Field",
    "2511": "Nielson Field", "2611": "Nielson Field",
    "3632": "Grace Park airfield",
}

#: District names printed on the sheet (labels only).
PLACES: dict[str, str] = {
    "4127": "Tondo", "3924": "Binondo", "3725": "Santa Cruz", "3523": "Quiapo",
    "3427": "Sampaloc", "3223": "San Miguel", "2924": "Santa Mesa", "4021": "Port Area",
    "3817": "Ermita", "3714": "Malate", "3418": "Paco", "3220": "Pandacan", "2818": "Santa Ana",
    "3509": "Pasay", "3402": "Parañaque", "2516": "Makati", "2322": "San Juan del Monte",
    "2020": "Mandaluyong", "3631": "Grace Park", "3932": "Caloocan", "2327": "New Manila",
    "2017": "Guadalupe", "2907": "Nichols Field", "2512": "Nielson Field",
    "1811": "Fort McKinley",
}

#: The printed bridges: (hexside, name, river).
BRIDGES: tuple[tuple[str, str, str], ...] = (
    ("3722", "3723", "Jones Bridge"),
    ("3622", "3623", "MacArthur Bridge"),
    ("3521", "3522", "Quezon Bridge"),
    ("3421", "3422", "Ayala Bridge"),
    ("2523", "2623", "Santa Mesa bridge"),
    ("2430", "2530", "Balara road bridge"),
    ("3402", "3403", "Parañaque bridge"),
    ("2602", "2702", "Nichols road bridge"),
)

INTRAMUROS = frozenset({"3821", "3822", "3921", "3922"})  # 10.9


def col_y(h: Hex) -> tuple[int, float]:
    """A hex's column and height (its row, plus a half in an odd column)."""
    col, row = GRID.to_offset(h)
    return col, row + (0.5 if col % 2 else 0.0)


def on_sheet(h: Hex) -> bool:
    """Whether a hex is printed: within the bounds, and not a cut-off half hex."""
    if not GRID.contains(h):
        return False
    col, row = GRID.to_offset(h)
    return not ((col % 2 == 0 and row == 0) or (col % 2 == 1 and row == 33))


def coast_column(y: float) -> int:
    """The westmost land column at a height: the east shore of Manila Bay."""
    if y < 12:
        return 35
    if y < 16:
        return 36
    if y < 19:
        return 37
    if y < 20:
        return 38
    if y < 27:
        return 41
    return 42


def is_sea(h: Hex) -> bool:
    """All-sea hexes: west of the shore (8.13)."""
    col, y = col_y(h)
    return col > coast_column(y)


#: The Pasig's course: in each column the height below which (inclusive) is the south bank.
PASIG: dict[int, float] = {
    16: 16.5, 17: 16.0, 18: 16.5, 19: 17.0, 20: 17.5, 21: 18.5, 22: 18.5, 23: 19.0, 24: 19.5,
    25: 20.0, 26: 20.5, 27: 21.0, 28: 20.5, 29: 21.0, 30: 20.5, 31: 21.0, 32: 21.5, 33: 22.0,
    34: 21.5, 35: 22.0, 36: 22.5, 37: 23.0, 38: 22.5, 39: 23.0, 40: 22.5, 41: 23.0, 42: 23.0,
    43: 23.0, 44: 23.0,
}


def north_of_pasig(h: Hex) -> bool:
    """Whether a hex is on the Pasig's north bank."""
    col, y = col_y(h)
    return y > PASIG[col]


def west_of_san_juan(h: Hex) -> bool:
    """Whether a hex north of the Pasig is west of the San Juan (the river reaches the north
    edge between columns 24 and 25, the Pasig between 25 and 26)."""
    col, y = col_y(h)
    return col >= (26 if y <= 26.5 else 25)


def in_paranaque(h: Hex) -> bool:
    """The corner south of the Parañaque River (its mouth at the coast, a bend at column 27)."""
    col, y = col_y(h)
    if col < 27:
        return False
    return y <= (2.5 if col >= 33 else 3.0 if col >= 30 else 3.5)


def on_plateau(h: Hex) -> bool:
    """Above the 100 m contour (10.10): the Fort McKinley plateau south of the Pasig valley
    and the San Juan-New Manila heights north of it, along the east edge."""
    col, y = col_y(h)
    return (col <= 21 and y >= 19.5) or (col <= 20 and y <= 15.5)


def terrain_of(h: Hex) -> str:
    """The in-hex terrain (8.5): all-sea, heavy structures, airfield, urban or clear."""
    label = GRID.label(h)
    if is_sea(h):
        return "sea"
    if label in HEAVY:
        return "heavy"
    if label in AIRFIELDS:
        return "airfield"
    col, y = col_y(h)
    if north_of_pasig(h):
        if west_of_san_juan(h):
            if y <= 30 and col >= 30:
                return "urban"  # Tondo, Binondo, Santa Cruz, Quiapo, Sampaloc, San Miguel
            if y <= 26 and col >= 27:
                return "urban"  # Santa Mesa
            if y > 30 and col >= 37:
                return "urban"  # Caloocan
            return "clear"
        if 22 <= col <= 24 and y <= 25:
            return "urban"  # San Juan del Monte
        if 19 <= col <= 22 and y < 19.5:
            return "urban"  # Mandaluyong
        return "clear"
    if col >= 30 and y >= 12:
        return "urban"  # Port Area, Ermita, Malate, Paco, Pandacan
    if 27 <= col <= 29 and y >= 16:
        return "urban"  # Santa Ana
    if col >= 33 and 6 <= y < 12:
        return "urban"  # Pasay
    if 23 <= col <= 26 and 15 <= y <= 18:
        return "urban"  # Makati
    if col >= 32 and y <= 3:
        return "urban"  # Parañaque
    return "clear"


def build() -> dict[str, Any]:
    """The map file's content."""
    hexes = [h for h in GRID.hexes() if on_sheet(h)]
    sheet = set(hexes)
    out_hexes: dict[str, Any] = {}
    for h in hexes:
        label = GRID.label(h)
        terrain = terrain_of(h)
        feats: list[str] = []
        if terrain != "sea" and any(n in sheet and is_sea(n) for n in neighbors(h)):
            feats.append("coast")
        attrs: dict[str, Any] = {}
        if terrain != "sea" and north_of_pasig(h) and west_of_san_juan(h):
            attrs["north_west"] = True  # 4.3
        if label in INTRAMUROS:
            attrs["intramuros"] = True  # 10.9
        name = HEAVY.get(label) or AIRFIELDS.get(label)
        if terrain == "clear" and not feats and not attrs and not name:
            continue
        spec: dict[str, Any] = {"terrain": terrain}
        if feats:
            spec["features"] = feats
        if attrs:
            spec["attrs"] = attrs
        if name:
            spec["name"] = name
        out_hexes[label] = spec if len(spec) > 1 else terrain
    sides: dict[HexSide, list[str]] = {}

    def add(a: Hex, b: Hex, feature: str) -> None:
        sides.setdefault(HexSide(a, b), []).append(feature)

    for h in hexes:
        for n in neighbors(h):
            if n not in sheet or not (h < n) or is_sea(h) or is_sea(n):
                continue
            if north_of_pasig(h) != north_of_pasig(n):
                add(h, n, "major_river")
            elif north_of_pasig(h) and west_of_san_juan(h) != west_of_san_juan(n):
                add(h, n, "minor_river")
            if in_paranaque(h) != in_paranaque(n):
                add(h, n, "minor_river")
            if on_plateau(h) != on_plateau(n):
                add(h, n, "contour")
            if (GRID.label(h) in INTRAMUROS) != (GRID.label(n) in INTRAMUROS):
                add(h, n, "wall")
    for a, b, _name in BRIDGES:
        side = HexSide(GRID.parse(a), GRID.parse(b))
        assert side in sides, f"bridge {a}-{b} crosses no river"
        sides[side].append("bridge")
    hexside_list = []
    for side in sorted(sides, key=lambda s: (GRID.label(s.a), GRID.label(s.b))):
        a, b = sorted((GRID.label(side.a), GRID.label(side.b)))
        hexside_list.append({"between": [a, b], "features": sides[side]})
    absent = sorted(GRID.label(h) for h in GRID.hexes() if not on_sheet(h))
    labels = [{"text": text, "at": at} for at, text in sorted(PLACES.items())]
    labels += [{"text": name, "at": f"{a}"} for a, _b, name in BRIDGES]
    return {
        "name": "Manila '45",
        "scale": "0.5 km a hex; 3 days a turn",
        "columns": list(COLUMNS),
        "rows": list(ROWS),
        "shifted": "odd",
        "default_terrain": "clear",
        "terrain_types": {
            "clear": {"name": "Clear", "color": "#dfe6c0", "symbol": "."},
            "airfield": {"name": "Airfield", "color": "#c9c9b4", "symbol": "A"},
            "urban": {"name": "Urban", "color": "#d9b59a", "symbol": "u"},
            "heavy": {"name": "Heavy structures", "color": "#8c6f5d", "symbol": "H"},
            "sea": {"name": "All-sea", "color": "#8fb8d8", "symbol": "~", "prohibited": True},
        },
        "feature_types": {
            "coast": {"name": "Coastal hex (8.10)", "color": "#3b6e99", "symbol": "c"},
        },
        "hexside_types": {
            "major_river": {"name": "Major river (the Pasig)", "color": "#2f6fb0", "symbol": "~",
                            "width": 6.0},
            "minor_river": {"name": "Minor river", "color": "#5a9bd5", "symbol": "~", "width": 3.0},
            "bridge": {"name": "Bridge", "color": "#3a3a3a", "symbol": "=", "width": 5.0},
            "wall": {"name": "Intramuros wall", "color": "#6b2a18", "symbol": "#", "width": 5.0},
            "contour": {"name": "100 m contour line", "color": "#9a6b00", "symbol": "-",
                        "width": 2.0},
        },
        "absent": absent,
        "hexes": out_hexes,
        "hexsides": hexside_list,
        "labels": labels,
        "boxes": [
            {"id": "box:us_dead", "name": "US dead pile"},
            {"id": "box:jp_dead", "name": "Japanese dead pile"},
            {"id": "box:us_1cav", "name": "1st Cavalry Division (to enter)"},
            {"id": "box:us_11ab", "name": "11th Airborne Division (to enter)"},
            {"id": "box:us_37id", "name": "37th Infantry Division (to enter)"},
            {"id": "box:us_xiv", "name": "XIV Corps (to enter)"},
            {"id": "box:air", "name": "US Combat Air Support (from turn 3)"},
            {"id": "box:jp_pool", "name": "Japanese units to set up"},
            {"id": "box:markers", "name": "Markers"},
        ],
    }


HEADER = """\
# Manila '45 map sheet (2.2) — RECONSTRUCTED; the rulebook prints none. Written by
# tools/manila45_map.py (python -m tools.manila45_map): edit that, not this.
# Columns 16-44 run east to west, rows 00-33 south to north; odd columns print rows 00-32,
# even columns 01-33 (the absent list). Why each feature is where it is: docs/games/manila45.md.
"""


def render_yaml() -> str:
    """The text of map.yaml."""
    return HEADER + yaml.safe_dump(build(), sort_keys=False, allow_unicode=True, width=100)


TARGET = Path(__file__).resolve().parents[1] / "games" / "manila45" / "data" / "map.yaml"
"""The file written: the game's data/map.yaml in this repository."""


def main() -> None:  # pragma: no cover - a maintenance command
    """Rewrite the game's data/map.yaml."""
    TARGET.write_text(render_yaml(), encoding="utf-8")
    sys.stdout.write(f"wrote {TARGET}\n")


if __name__ == "__main__":  # pragma: no cover
    main()
