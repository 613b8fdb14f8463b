"""The printed components of Manila '45 as data: map sheet, counter sheet, CRT, turn track.

The rulebook prints none of them. ``data/*.yaml`` reconstruct them (docs/games/manila45.md
says what is the rulebook's word and what is ours):

- ``map.yaml``: the 34x22" sheet (2.2), a :class:`~tabletop.core.board.mapdata.HexMapSpec` written
  by :mod:`.mapmaker`; hex attributes are checked against :class:`HexAttrs`;
- ``counters.yaml``: the 146 unit counters and markers (2.4-2.12, :class:`CounterSheet`);
- ``crt.yaml``: the Combat Results Table (10.3, errata) in the core table format;
- ``sequence.yaml``: the sequence of play (5.2).

:func:`components` loads and cross-checks them once; every failure is a DataError naming the
file, the path inside it and what was expected.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from pydantic import Field

from tabletop.core.board.hexgrid import Hex, HexSide
from tabletop.core.board.hexmap import HexMap
from tabletop.core.board.lineoffire import MapLineOfFire
from tabletop.core.board.mapdata import HexMapSpec
from tabletop.core.engine.data import Section, StrictModel, load_model, read_data_file, validate
from tabletop.core.engine.errors import DataError
from tabletop.core.engine.flow import SequenceOfPlay
from tabletop.core.engine.tables import Table, TableSpec

DATA_DIR = Path(__file__).resolve().parent / "data"

US = "US"
JAPAN = "Japan"
ORGS = ("1cav", "37id", "11ab", "xiv")  # 2.6, 7.2
DIVISIONS = ("1cav", "37id", "11ab")
ORG_NAMES = MappingProxyType({"1cav": "1st Cavalry Division", "37id": "37th Infantry Division",
             "11ab": "11th Airborne Division", "xiv": "XIV Corps"})


class HexAttrs(StrictModel):
    """The attributes a hex of map.yaml may carry."""

    north_west: bool = False  # 4.3: north of the Pasig and west of the San Juan
    intramuros: bool = False  # 10.9: inside the wall


class UnitType(StrictModel):
    """A unit type (2.10) and its special characteristics (2.11)."""

    name: str
    side: Literal["US", "Japan", "both"]
    armored: bool = False  # 10.14
    ifc: bool = False  # 2.11 "+", 11.0
    cac: bool = False  # 2.11 circled fire factor, 10.17
    anti_armor: bool = False  # 2.11, 10.14
    field_artillery: bool = False  # 5.4, 9.3, 9.5
    combat_engineer: bool = False  # 10.19, 10.21
    bridging: bool = False  # 8.9
    amtrac: bool = False  # 8.8, 8.10
    air: bool = False  # 10.23
    anti_aircraft: bool = False  # 10.12


class Marker(StrictModel):
    """A kind of marker (2.12) and how many the sheet has."""

    id: str
    name: str
    count: int = Field(ge=1)
    section: Section


class TurnTrack(StrictModel):
    """The Turn Record Track printed on the map (3.1, 5.2): one box a game turn."""

    section: Section
    boxes: tuple[str, ...] = Field(min_length=10, max_length=10)


class CounterSheet(StrictModel):
    """counters.yaml: unit types, the US and Japanese counters, the markers, the turn track."""

    turn_track: TurnTrack
    types: dict[str, UnitType]
    us: tuple[tuple[Any, ...], ...]
    japan: tuple[tuple[Any, ...], ...]
    markers: tuple[Marker, ...]


@dataclass(frozen=True, slots=True)
class Counter:
    """One unit counter: identity, organisation, type, size, fire factor, range, flags."""

    id: str
    name: str
    side: str
    org: str  # 1cav, 37id, 11ab, xiv (US, 2.6) or mobile/static (Japan, 2.6, 2.9)
    type: str
    size: str
    fire: int
    range: int
    flags: frozenset[str]

    def has(self, flag: str) -> bool:
        """Whether the counter has a characteristic (ifc, cac, armored...)."""
        return flag in self.flags


_FLAGS = ("armored", "ifc", "cac", "anti_armor", "field_artillery", "combat_engineer",
          "bridging", "amtrac", "air", "anti_aircraft")


def _counter(row: tuple[Any, ...], side: str, types: dict[str, UnitType], where: str) -> Counter:
    """2.5-2.11: one unit counter from its row — identification (2.7), organisation or
    mobility (2.6, 2.9), type (2.10) and size (2.8), fire factor and range (2.5), and the
    special characteristics of its type (2.11) with any the counter overrides."""
    if len(row) not in (7, 8):
        raise DataError(f"{where}: a counter is [id, name, org, type, size, fire, range] with "
                        f"optional flags, got {list(row)}")
    cid, name, org, utype, size, fire, rng = row[:7]
    extra = row[7] if len(row) == 8 else {}
    if utype not in types:
        raise DataError(f"{where}: unknown unit type {utype!r}")
    spec = types[utype]
    if spec.side not in (side, "both"):
        raise DataError(f"{where}: type {utype} is not a {side} type")
    orgs = ORGS if side == US else ("mobile", "static")
    if org not in orgs:
        raise DataError(f"{where}: organisation {org!r} is not one of {orgs}")
    if not (isinstance(fire, int) and isinstance(rng, int) and fire >= 1 and rng >= 0):
        raise DataError(f"{where}: fire and range must be whole numbers (fire >= 1)")
    if not isinstance(extra, dict) or any(k not in _FLAGS for k in extra):
        raise DataError(f"{where}: flags must be a mapping of {_FLAGS}")
    flags = {f for f in _FLAGS if getattr(spec, f)}
    for k, v in extra.items():
        (flags.add if v else flags.discard)(k)
    return Counter(str(cid), str(name), side, str(org), str(utype), str(size), fire, rng,
                   frozenset(flags))


@dataclass(frozen=True)
class Components:
    """Every component, loaded and cross-checked."""

    hexmap: HexMap
    counters: dict[str, Counter]
    types: dict[str, UnitType]
    markers: tuple[Marker, ...]
    turn_track: TurnTrack
    crt: Table
    sequence: SequenceOfPlay
    los: MapLineOfFire
    los_either: MapLineOfFire
    los_wall: MapLineOfFire  # 10.9 alone: the wall stops the line (option indirect_wall=stops)
    los_wall_either: MapLineOfFire

    def summary(self) -> str:
        """What was loaded, for `tabletop validate`."""
        n_markers = sum(m.count for m in self.markers)
        return (f"map {len(self.hexmap)} hexes, {len(self.hexmap.hexsides())} hexsides with "
                f"features; {len(self.counters)} units + {n_markers} markers = "
                f"{len(self.counters) + n_markers} counters; CRT {len(self.crt.columns)} columns")

    def hex(self, hex_id: str) -> Hex:
        """The hex of a printed id."""
        return self.hexmap.hex(hex_id)


def _check_map(hexmap: HexMap, where: str) -> None:
    """2.2, 10.9: the map sheet's hex facts the rules name: the four hexes inside the wall,
    every printed bridge over a river (four-digit ids are the grid's own labels)."""
    for h in hexmap.hexes():
        for key in ("north_west", "intramuros"):
            value = hexmap.attr(h, key)
            if value is not None and value is not True:
                raise DataError(f"{where}: hexes.{hexmap.label(h)}.attrs.{key}: must be true")
    inside = {hexmap.label(h) for h in hexmap.hexes() if hexmap.attr(h, "intramuros")}
    if inside != {"3821", "3822", "3921", "3922"}:
        raise DataError(f"{where}: 10.9 puts 3821, 3822, 3921 and 3922 inside the wall, the map "
                        f"has {sorted(inside)}")
    for side in hexmap.hexsides_with("bridge"):
        feats = hexmap.hexside_features(side.a, side.b)
        if not feats & {"major_river", "minor_river"}:
            raise DataError(f"{where}: the bridge {hexmap.label(side.a)}-"
                            f"{hexmap.label(side.b)} crosses no river")


@cache
def components() -> Components:
    """Load and cross-check every data file of the game (once per process): the map sheet
    (2.2), the counter sheet of 146 counters (2.1, 2.4), the CRT rolled with one die (2.1,
    10.3), the sequence of play (5.2)."""
    map_path = DATA_DIR / "map.yaml"
    spec = load_model(HexMapSpec, map_path)
    hexmap = HexMap.from_spec(spec, source=str(map_path))
    _check_map(hexmap, str(map_path))
    sheet = load_model(CounterSheet, DATA_DIR / "counters.yaml")
    where = str(DATA_DIR / "counters.yaml")
    counters: dict[str, Counter] = {}
    for side, rows in ((US, sheet.us), (JAPAN, sheet.japan)):
        key = "us" if side == US else "japan"
        for k, row in enumerate(rows):
            c = _counter(row, side, sheet.types, f"{where}: {key}.{k}")
            if c.id in counters:
                raise DataError(f"{where}: {key}.{k}: two counters share the id {c.id!r}")
            counters[c.id] = c
    total = len(counters) + sum(m.count for m in sheet.markers)
    if total != 146:
        raise DataError(f"{where}: 2.4 counts 146 unit counters and markers, the sheet has {total}")
    air = [c for c in counters.values() if c.has("air")]
    if len(air) != 6 or any(c.fire != 10 for c in air):
        raise DataError(f"{where}: 10.23 gives six air units of fire factor 10")
    crt_path = DATA_DIR / "crt.yaml"
    crt = Table.from_spec(validate(TableSpec, read_data_file(crt_path), source=str(crt_path)))
    sequence = SequenceOfPlay.load(DATA_DIR / "sequence.yaml")
    los = MapLineOfFire(hexmap, blocking_terrain=("urban", "heavy"), stopping_hexsides=("wall",))
    los_either = MapLineOfFire(hexmap, blocking_terrain=("urban", "heavy"),
                               stopping_hexsides=("wall",), along="either")
    los_wall = MapLineOfFire(hexmap, stopping_hexsides=("wall",))
    los_wall_either = MapLineOfFire(hexmap, stopping_hexsides=("wall",), along="either")
    return Components(hexmap, counters, dict(sheet.types), sheet.markers, sheet.turn_track, crt,
                      sequence, los, los_either, los_wall, los_wall_either)


DATA_MODELS: Mapping[str, type[Any]] = MappingProxyType({
    "map.yaml": HexMapSpec,
    "counters.yaml": CounterSheet,
    "crt.yaml": TableSpec,
    "sequence.yaml": SequenceOfPlay,
})


def side_key(side: HexSide) -> str:
    """A hexside as text, ``"AAAA-BBBB"`` with the ids in ascending order."""
    hm = components().hexmap
    a, b = sorted((hm.label(side.a), hm.label(side.b)))
    return f"{a}-{b}"

