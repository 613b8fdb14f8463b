"""The drafting tool of Iwo Jima: Valor of Arms' reconstructed map: draws the game's
``data/map.yaml`` from the island's outline.

Run from the repository root: ``python -m tools.iwo_valor_map`` (rewrites
games/iwo_valor/data/map.yaml).

The rulebook prints no map; it names hexes (II.B, IV.G, V.J, VIII.E, XI). This module is how
``data/map.yaml`` was drawn, kept so that the drawing can be checked and redone: a test
asserts that the committed file is exactly what :func:`build` writes. Play never imports it
(it is not installed with the game).

Method (docs/games/iwo_valor.md, "The map"):

- Each hex centre is measured in hex widths along the island's axis ``u`` (from the Flag
  hex 0304 on Suribachi's summit toward Bloody Gorge 2832) and across it ``v`` (positive
  toward the south-east coast, where the Minami beaches are).
- The coastline is a table of the north-west and south-east shore offsets by ``u``; a hex
  whose centre lies between them is land. Every hex the rules name is land by construction.
- Beaches: the 17 coastal hexes nearest Suribachi on each coast (III.4 needs a wave of up to
  17 units: the 33 units marked "1" in two waves); a Second Wave hex offshore of each.
- The two defensive lines are hex chains through the hexes IV.G names, bowed toward
  Suribachi; every other hex of a chain is a Class 2 (or 3) position. "In or south of" a
  line is what a flood from Suribachi reaches without crossing its chain.
- Deployment areas by belt and side; deployment hexes spread by farthest-point sampling.
  The defence in depth (Kuribayashi's): Suribachi's garrison, few units on the beaches and
  the southern airfield (the three Southern units XI.C names), every First Line position
  held, a few of the Second Line's (its ends, its middle, 0629) and a handful of
  strongpoints between the lines (Hill 382 and Turkey Knob in the East, six more in the
  West), the main belt and the Reserve north of the Second Line. How many stand between the
  lines is the calibration knob of IV.G.2 (docs/games/iwo_valor.md, "Figures").
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from tabletop.core.board.hexgrid import Hex, HexGrid, distance, line_hexes, neighbors

GRID = HexGrid((0, 31), (0, 36), "even")
S3 = math.sqrt(3)
SUMMIT, GORGE_END = "0304", "2832"

# Shore offsets (hex widths) by distance along the axis: (u, north-west shore, south-east shore).
COAST: tuple[tuple[float, float, float], ...] = (
    (-3.2, 0.0, 0.0), (-2.0, -1.8, 1.8), (-1.0, -2.3, 2.3), (0.0, -2.5, 2.5), (1.0, -2.4, 2.4),
    (2.0, -2.1, 2.2), (3.0, -1.8, 2.0), (4.0, -1.7, 2.2), (6.0, -1.8, 3.0), (8.0, -2.1, 4.2),
    (10.0, -2.5, 5.4), (12.0, -2.9, 6.6), (14.0, -3.3, 8.0), (16.0, -3.8, 9.2),
    (18.0, -4.3, 10.6), (20.0, -4.8, 12.2), (22.0, -5.2, 14.0), (24.0, -5.5, 14.0),
    (26.0, -5.5, 13.0), (28.0, -5.3, 11.5), (30.0, -4.9, 9.5), (32.0, -4.3, 7.0),
    (34.0, -3.3, 4.6), (36.0, -1.9, 2.0), (37.2, -0.4, 0.4),
)
GORGE = ("2732", "2733", "2831", "2832")  # V.J
BEACH_HEXES = 17  # III.4: 33 units in two waves no larger than the beach
AREA_COUNTS = {"Sr": 4, "S": 6, "W": 16, "E": 14, "N": 10, "R": 6}  # 56 Japanese units
# CALIBRATION KNOBS (IV.G.2): the Japanese units between the lines. The Second Line's
# positions held (every LINE2_HELD_EVERY-th from 2826, and 0829 and 0629), the strongpoints
# between the lines (the heights of BETWEEN_LINES and BETWEEN_EXTRA more a deployment area).
LINE2_HELD_EVERY = 10
BETWEEN_LINES = ("Hill 382", "Turkey Knob")
# The East holds none besides the two heights: with two more there the heuristic bot's Narrow
# Game (XI.C, the East alone) reached 120 VP before turn 15 in 7 of 200 games, with none 1.
BETWEEN_EXTRA = {"W": 6, "E": 0}
W_NORTH_EDGE = 29.5  # the West area reaches north of the Second Line to Nishi and Airfield 3
HILLS = {  # level-3 heights of the north (u, v, radius): Hill 382 and Turkey Knob, 362A/B/C
    "Hill 382": (22.6, 7.4, 1.3), "Turkey Knob": (20.6, 8.4, 0.8), "Hill 362A": (24.3, -3.2, 1.1),
    "Hill 362B": (27.6, 1.8, 1.1), "Hill 362C": (30.0, 5.0, 1.1), "Kitano heights": (33.4, 1.4, 1.5),
}
NAMES = {
    "0304": "Mt Suribachi", "0709": "the neck", "2832": "Bloody Gorge", "0629": "Tachiiwa Pt",
}


def _xy(h: Hex) -> tuple[float, float]:
    return GRID.center(h, 1.0)


_X0, _Y0 = _xy(GRID.parse(SUMMIT))
_X1, _Y1 = _xy(GRID.parse(GORGE_END))
_LEN = math.hypot(_X1 - _X0, _Y1 - _Y0)
_UX, _UY = (_X1 - _X0) / _LEN, (_Y1 - _Y0) / _LEN


def uv(h: Hex) -> tuple[float, float]:
    """A hex centre's distance along the island's axis and across it, in hex widths."""
    x, y = _xy(h)
    dx, dy = x - _X0, y - _Y0
    return ((dx * _UX + dy * _UY) / S3, (-dx * _UY + dy * _UX) / S3)


def _shore(u: float) -> tuple[float, float] | None:
    if u < COAST[0][0] or u > COAST[-1][0]:
        return None
    for (u0, a0, b0), (u1, a1, b1) in itertools.pairwise(COAST):
        if u0 <= u <= u1:
            t = (u - u0) / (u1 - u0)
            return (a0 + t * (a1 - a0), b0 + t * (b1 - b0))
    return None  # pragma: no cover


def _is_land(h: Hex) -> bool:
    u, v = uv(h)
    shore = _shore(u)
    return shore is not None and shore[0] - 0.15 <= v <= shore[1] + 0.15


def _chain(points: Iterable[str | Hex]) -> list[Hex]:
    pts = [GRID.parse(p) if isinstance(p, str) else p for p in points]
    out: list[Hex] = []
    for a, b in itertools.pairwise(pts):
        seg = line_hexes(a, b)
        out.extend(seg if not out else seg[1:])
    return out


def _nearest(target: tuple[float, float], pool: Iterable[Hex]) -> Hex:
    return min(pool, key=lambda h: (math.dist(uv(h), target), GRID.label(h)))


def _flood(start: Hex, land: set[Hex], barrier: set[Hex]) -> set[Hex]:
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in neighbors(h):
            if n in land and n not in barrier and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _spread(candidates: list[Hex], taken: list[Hex], count: int) -> list[Hex]:
    """Farthest-point sampling: ``count`` candidates, each as far as can be from those taken."""
    chosen: list[Hex] = []
    pool = sorted(candidates, key=GRID.label)
    for _ in range(count):
        others = taken + chosen
        best = max((h for h in pool if h not in chosen),
                   key=lambda h: (min((distance(h, o) for o in others), default=99), GRID.label(h)))
        chosen.append(best)
    return chosen


def build() -> dict[str, Any]:
    """The whole map file as a dict (what :func:`write` dumps to YAML)."""
    land = {h for h in GRID.hexes() if _is_land(h)}
    land |= {GRID.parse(x) for x in ("2420", "0725", "2826", "0829", "0629", *GORGE)}
    sea = set(GRID.hexes()) - land

    def coastal(h: Hex) -> bool:
        return any(n in sea or not GRID.contains(n) for n in neighbors(h))

    summit = GRID.parse(SUMMIT)
    # Beaches: the coastal hexes from Suribachi's foot outward, on each coast.
    beaches: dict[str, list[Hex]] = {}
    for name, sign in (("minami", 1), ("nishi", -1)):
        coast = [h for h in land if coastal(h) and uv(h)[1] * sign > 0 and uv(h)[0] > 2.3]
        coast.sort(key=lambda h: (uv(h)[0], GRID.label(h)))
        beaches[name] = sorted(coast[:BEACH_HEXES], key=GRID.label)
    waves: dict[str, list[Hex]] = {}
    for name, hexes in beaches.items():
        used: list[Hex] = []
        for b in sorted(hexes, key=lambda h: uv(h)[0]):
            free = [n for n in neighbors(b) if n in sea and GRID.contains(n) and n not in used
                    and all(n not in w for w in waves.values())]
            used.append(min(free, key=lambda n: (-abs(uv(n)[1]), GRID.label(n))))
        waves[name] = sorted(used, key=GRID.label)

    # The defensive lines (IV.G): chains through the named hexes, bowed toward Suribachi.
    line1 = _chain(["2420", _nearest((20.2, 2.6), land), "0725"])
    line2 = _chain(["2826", _nearest((25.6, 4.0), land), "0829"])

    def sealed(chain: list[Hex]) -> list[Hex]:
        # Carry the barrier on from each end to the sea, so the flood cannot go round it.
        out = list(chain)
        for end, sign in ((chain[0], -1.0), (chain[-1], 1.0)):
            h = end
            while not coastal(h):
                h = max((n for n in neighbors(h) if n in land),
                        key=lambda n: (sign * uv(n)[1], GRID.label(n)))
                out.append(h)
        return out

    bar1, bar2 = set(sealed(line1)), set(sealed(line2))
    south1 = _flood(summit, land, bar1) | bar1
    south2 = _flood(summit, land, bar2) | bar2 | south1 | {GRID.parse("0629")}
    belt = {h: 1 if h in south1 else 2 if h in south2 else 3 for h in land}

    def area(h: Hex) -> str:
        u, v = uv(h)
        if u < 3.5:
            return "Sr"
        if belt[h] == 1:
            return "S" if (v >= 3.3 and u <= 16.5) or v >= 5.5 else "W"
        if belt[h] == 2:
            return "E" if v >= 4.5 else "W"
        if v >= 6.5:
            return "E"
        return "W" if u < W_NORTH_EDGE else "N"

    # Positions: the lines' chains, every other hex from each named end.
    pos_class: dict[Hex, int] = {}
    for k, h in enumerate(line1):
        if k % 4 == 0 or h == line1[-1]:
            pos_class[h] = 2
    line2_held: list[Hex] = []
    for k, h in enumerate(line2):
        if k % 2 == 0 or h == line2[-1]:
            u, v = uv(h)
            pos_class[h] = 3 if any(math.dist((u, v), (hu, hv)) <= r + 0.6
                                    for hu, hv, r in HILLS.values()) else 2
            if k % LINE2_HELD_EVERY == 0 or h == line2[-1]:
                line2_held.append(h)
    pos_class[GRID.parse("0629")] = 3
    # Suribachi's garrison: the Very Short Game's three hexes (XI.C) and the guns at the
    # cone's landward foot over the Minami beach; the Narrow Game's three S hexes (XI.C).
    fixed = {"0305": 3, "0403": 3, "0506": 2, "0603": 1, "0816": 1, "0818": 1, "1019": 1}
    for hid, cls in fixed.items():
        pos_class[GRID.parse(hid)] = cls
    # Deployment hexes: every position of the First Line, of Suribachi and the named ones,
    # a few of the Second Line's (its ends, its middle and 0629), a handful of strongpoints
    # between the lines; the main belt north of the Second Line (IV.G: see the module doc).
    deploy: dict[Hex, str] = {h: area(h) for h in pos_class if h not in line2 or h in line2_held}
    beach_all = {h for b in beaches.values() for h in b}
    reserved = {summit, *beach_all, *(GRID.parse(g) for g in ("0620", "1018", "1220", "0709"))}
    narrow_line = _chain(["0620", "1018"])
    for name in BETWEEN_LINES:
        hu, hv, _ = HILLS[name]
        h = _nearest((hu, hv), [x for x in land if belt[x] == 2 and x not in bar2 and x not in deploy])
        pos_class[h] = 3
        deploy[h] = area(h)
    # The Reserve's R hexes first: the plateau's interior north of the Second Line.
    reserve_pool = [h for h in land if belt[h] == 3 and h not in deploy and not coastal(h)
                    and not any(n not in land or belt[n] != 3 for n in neighbors(h))]
    for h in _spread(reserve_pool, list(deploy), AREA_COUNTS["R"]):
        deploy[h] = "R"
    for code in ("Sr", "S", "W", "E", "N"):
        have = [h for h, c in deploy.items() if c == code]
        need = AREA_COUNTS[code] - len(have)
        if code == "S":
            pool = [h for h in land if area(h) == "S" and uv(h)[0] > 16.1]
        elif code in ("W", "E"):
            between = BETWEEN_EXTRA.get(code, 0)
            pool2 = [h for h in land if area(h) == code and belt[h] == 2 and h not in reserved
                     and h not in deploy and h not in bar1 and h not in bar2 and not coastal(h)]
            for h in _spread(pool2, list(deploy), between):
                deploy[h] = code
            need -= between
            pool = [h for h in land if area(h) == code and belt[h] == 3]
        else:
            pool = [h for h in land if area(h) == code]
        pool = [h for h in pool if h not in reserved and h not in deploy and h not in bar1
                and h not in bar2 and not (code not in ("Sr", "N", "W", "E") and coastal(h))]
        for h in _spread(pool, list(deploy), need):
            deploy[h] = code
    for h, code in deploy.items():
        if h in pos_class:
            continue
        u, v = uv(h)
        d = distance(h, summit)
        hill = any(math.dist((u, v), (hu, hv)) <= r + 0.4 for hu, hv, r in HILLS.values())
        if code == "Sr":
            pos_class[h] = 3 if d <= 1 else 2 if d == 2 else 1
        elif GRID.label(h) in GORGE or hill:
            pos_class[h] = 3
        elif code in ("E", "N"):
            pos_class[h] = 2 if (int(GRID.label(h)) % 3) else 1
        elif code == "R":
            pos_class[h] = 2 if belt[h] == 2 else 1
        else:
            pos_class[h] = 2 if belt[h] == 2 else 1

    # Elevation (Terrain Key): 1 the lowlands, 2 the Motoyama plateau, 3 Suribachi's upper
    # cone and the northern heights; a hex printed with two levels counts as the lower.
    def levels(h: Hex) -> list[int]:
        u, v = uv(h)
        d = distance(h, summit)
        if d <= 3 and u < 3.5:
            return {0: [3], 1: [3] if u < 0.5 else [2, 3], 2: [2], 3: [1, 2]}[d]
        if h in beach_all:
            return [1]
        if u < 12.5:
            return [1]
        if u < 13.5:
            return [1, 2]
        for hu, hv, r in HILLS.values():
            dd = math.dist((u, v), (hu, hv))
            if dd <= r:
                return [3]
            if dd <= r + 0.9:
                return [2, 3]
        if GRID.label(h) in GORGE:
            return [2]
        return [2]

    airfields: dict[Hex, int] = {}
    for h in land:
        u, v = uv(h)
        if 7.0 <= u <= 11.6 and -1.2 <= v - 0.25 * (u - 7.0) <= 2.6 and h not in beach_all:
            airfields[h] = 1
        elif 16.4 <= u <= 20.6 and -0.8 <= v <= 4.4:
            airfields[h] = 2
        elif 25.4 <= u <= 28.6 and -2.4 <= v <= 2.4:
            airfields[h] = 3

    narrow: set[Hex] = set()
    for h in land:
        if area(h) == "S":
            u, _ = uv(h)
            if h in narrow_line or u <= 15.0:
                narrow.add(h)

    entries: dict[str, Any] = {}
    for h in sorted(land, key=GRID.label):
        hid = GRID.label(h)
        lv = levels(h)
        attrs: dict[str, Any] = {"level": min(lv), "area": area(h), "belt": belt[h]}
        if len(lv) > 1:
            attrs["levels"] = lv
        feats: list[str] = []
        for bname, bh in beaches.items():
            if h in bh:
                attrs["beach"] = bname
                feats.append("beach")
        if h in airfields:
            attrs["airfield"] = airfields[h]
            feats.append("airfield")
        if h in pos_class:
            attrs["position"] = pos_class[h]
        if h in deploy:
            attrs["deploy"] = deploy[h]
            feats.append("reserve" if deploy[h] == "R" else "deployment")
        if h in line1:
            attrs["line"] = 1
            feats.append("line_1")
        elif h in line2:
            attrs["line"] = 2
            feats.append("line_2")
        if hid in GORGE:
            feats.append("gorge")
        if hid == SUMMIT:
            feats.append("flag")
        if h in narrow:
            attrs["narrow_setup"] = True
        terrain = "beach" if h in beach_all else f"level{min(lv)}"
        entry: dict[str, Any] = {"terrain": terrain}
        if feats:
            entry["features"] = feats
        entry["attrs"] = attrs
        if hid in NAMES:
            entry["name"] = NAMES[hid]
        entries[hid] = entry
    for bname, wh in waves.items():
        for h in wh:
            entries[GRID.label(h)] = {"terrain": "sea", "features": ["second_wave"],
                                      "attrs": {"second_wave": bname}}
    entries = dict(sorted(entries.items()))

    hexsides: list[dict[str, Any]] = []
    ring1 = [h for h in land if distance(h, summit) == 1]
    for a in sorted(ring1, key=GRID.label):
        hexsides.append({"between": [SUMMIT, GRID.label(a)], "features": ["slope"]})
    for a in sorted(ring1, key=GRID.label):
        for b in sorted(neighbors(a), key=GRID.label):
            if b in land and distance(b, summit) == 2:
                kind = "ridge" if uv(b)[0] < 0.3 else "slope"
                hexsides.append({"between": [GRID.label(a), GRID.label(b)], "features": [kind]})

    labels = [{"text": name, "at": GRID.label(_nearest((hu, hv), land))}
              for name, (hu, hv, _) in HILLS.items()]
    labels += [{"text": "Airfield No. 1", "at": GRID.label(_nearest((9.3, 1.0), land))},
               {"text": "Airfield No. 2", "at": GRID.label(_nearest((18.5, 1.5), land))},
               {"text": "Airfield No. 3", "at": GRID.label(_nearest((27.0, 0.0), land))},
               {"text": "Minami (South) beach", "at": GRID.label(_nearest((7.0, 4.2), land))},
               {"text": "Nishi (West) beach", "at": GRID.label(_nearest((7.0, -2.4), land))}]
    return {
        "kind": "hex",
        "name": "Iwo Jima: Valor of Arms",
        "scale": "250 meters a hex (II.B)",
        "columns": [0, 31],
        "rows": [0, 36],
        "shifted": "even",
        "default_terrain": "sea",
        "terrain_types": {
            "sea": {"name": "All-sea hex", "color": "#8fb8d8", "symbol": "~", "prohibited": True},
            "beach": {"name": "Beach (level 1)", "color": "#e6d7a3", "symbol": "_"},
            "level1": {"name": "Level 1 (lowland)", "color": "#efe8cc", "symbol": "."},
            "level2": {"name": "Level 2 (plateau)", "color": "#cdbd8e", "symbol": ":"},
            "level3": {"name": "Level 3 (heights)", "color": "#9c8460", "symbol": "^"},
        },
        "feature_types": {
            "beach": {"name": "Beach hex", "color": "#b08d2a", "symbol": "b"},
            "second_wave": {"name": "Second Wave deployment hex", "color": "#1d4f91", "symbol": "w"},
            "airfield": {"name": "Airfield hex", "color": "#333333", "symbol": "="},
            "deployment": {"name": "Japanese deployment hex", "color": "#b22222", "symbol": "d"},
            "reserve": {"name": "Japanese deployment hex 'R' (Reserve)", "color": "#7a1f7a", "symbol": "R"},
            "line_1": {"name": "First Defensive Line", "color": "#d2691e", "symbol": "1"},
            "line_2": {"name": "Second Defensive Line", "color": "#8b0000", "symbol": "2"},
            "gorge": {"name": "Bloody Gorge", "color": "#3b2a1a", "symbol": "g"},
            "flag": {"name": "Flag hex (Suribachi summit)", "color": "#003399", "symbol": "F"},
        },
        "hexside_types": {
            "ridge": {"name": "Ridge hexside of Mount Suribachi", "color": "#000000", "width": 4.0},
            "slope": {"name": "Slope hexside of Mount Suribachi", "color": "#6b4f2a", "width": 2.5},
        },
        "hexes": entries,
        "hexsides": hexsides,
        "boxes": [
            {"id": "us_available", "name": "Marine units not yet landed"},
            {"id": "us_eliminated", "name": "Eliminated Marine units"},
            {"id": "us_withdrawn", "name": "Withdrawn Marine units"},
            {"id": "jp_eliminated", "name": "Eliminated Japanese units"},
            {"id": "markers", "name": "Markers off the map"},
        ],
        "labels": labels,
    }


HEADER = """\
# Iwo Jima: Valor of Arms — the map (II.B), RECONSTRUCTED; the rulebook prints no map.
# Drawn by tools/iwo_valor_map.py (a test checks this file is exactly its output);
# what is the rulebook's word and what is ours, and why: docs/games/iwo_valor.md, "The map".
# 250 m a hex; flat-topped hexes in columns, ids XXYY, even columns half a hex lower.
# Mount Suribachi is at the top left (summit and Flag hex 0304), Kitano Point and Bloody
# Gorge (2732 2733 2831 2832) at the bottom right; the Minami beaches face the lower left,
# the Nishi beaches the upper right.
# Hex attrs: level (effective elevation, the lower of two printed: IV.G, VIII.C, IX.G),
#   levels (both printed levels of a two-level hex), area (deployment area Sr S W E N: III.3,
#   IV.C.1), belt (1 in or south of the First Defensive Line, 2 north of it but in or south
#   of the Second, 3 north of the Second: IV.G), beach (minami|nishi: III.4), airfield (1-3),
#   position (defensive position class 1-3: III.5-6, V.F, VIII.B), deploy (Sr S W E N, or R
#   for the Reserve's hexes: III.3), line (1 or 2: the chains of the two lines),
#   narrow_setup (the Narrow Game's set-up hexes, XI.C), second_wave (on sea hexes: III.4).
"""


def write(path: Path) -> None:
    """Write the map file."""
    path.write_text(HEADER + yaml.safe_dump(build(), sort_keys=False, width=110), encoding="utf-8")


TARGET = Path(__file__).resolve().parents[1] / "games" / "iwo_valor" / "data" / "map.yaml"
"""The file written: the game's data/map.yaml in this repository."""


if __name__ == "__main__":  # pragma: no cover
    write(TARGET)
