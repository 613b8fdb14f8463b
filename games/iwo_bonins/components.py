"""The printed components of Iwo: Bloodbath in the Bonins as data: map, counters, charts, tracks.

The rulebook prints none of them. ``games/iwo_bonins/data/*.yaml`` reconstruct them (what is
the rulebook's word and what is ours is in ``docs/games/iwo_bonins.md``):

- ``map.yaml``: the map sheet, a :class:`~tabletop.core.board.mapdata.HexMapSpec` whose hex
  attributes are checked against :class:`HexAttrs`;
- ``counters.yaml``: the 100 counters (:class:`CounterSheet`);
- ``terrain.yaml``: the Terrain Key (:class:`TerrainKey`);
- ``tracks.yaml``: the Game Turn Record Track and the Japanese Bombardment Track (:class:`Tracks`);
- ``crt.yaml``, ``crmt.yaml``, ``storm.yaml``: tables in the core format
  (:mod:`tabletop.core.engine.tables`); the CRMT's cells follow the small grammar of
  :func:`parse_outcome`.

:func:`load_components` loads every file and cross-checks them against each other; every
failure is a :class:`~tabletop.core.engine.errors.DataError` naming the file, the path inside it and
what was expected.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, model_validator

from tabletop.core.board.hexgrid import Hex
from tabletop.core.board.hexmap import HexMap
from tabletop.core.board.mapdata import HexMapSpec
from tabletop.core.designer.coverage import SectionsFile
from tabletop.core.engine.data import (
    AtPath,
    Section,
    StrictModel,
    load_model,
    read_data_file,
    repeated,
    validate,
)
from tabletop.core.engine.errors import DataError
from tabletop.core.engine.tables import Table

DATA_DIR = Path(__file__).resolve().parent / "data"

#: The data files of the game, by role.
FILES: Mapping[str, str] = MappingProxyType({
    "map": "map.yaml",
    "counters": "counters.yaml",
    "terrain": "terrain.yaml",
    "tracks": "tracks.yaml",
    "crt": "crt.yaml",
    "crmt": "crmt.yaml",
    "storm": "storm.yaml",
})

#: The roles of FILES that are tables in the core format, by table id.
TABLES: tuple[str, ...] = ("crt", "crmt", "storm")

#: The value of the ``sector`` attribute in the Suribachi sector (17.0: it has no number).
SURIBACHI = "suribachi"
NUMBERED_SECTORS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)  # 13.0

#: The colour-coded beaches of each set (3.3, 11.2), from Suribachi outward.
BEACHES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "east": ("green", "red", "yellow", "blue"),
    "west": ("purple", "orange", "white", "brown"),
})
STAGING_BOXES_PER_BEACH = 2  # 11.2

#: Where a Japanese counter starts: face down on an initial deployment hex (3.2).
INITIAL_DEPLOYMENT = "initial_deployment"

#: The CRMT columns the rulebook prints (9.2): Banzai, US attacks, Japanese bombardment.
CRMT_COLUMNS: tuple[str, ...] = ("Regular", "Dug-In", "Bombardment")

# --------------------------------------------------------------------------------------
# The map's hex attributes
# --------------------------------------------------------------------------------------

Sector = Annotated[int, Field(ge=1, le=6)] | Literal["suribachi"]
BeachColour = Literal["green", "red", "yellow", "blue", "purple", "orange", "white", "brown"]


class HexAttrs(StrictModel):
    """The attributes a hex of map.yaml may carry; the map file's header explains each key."""

    sector: Sector | None = None  # 13.0, 17.0
    deploy: Literal["initial", "redeploy"] | None = None  # 3.2, 13.0, 14.5
    suribachi: Literal[True] | None = None  # 17.0: the five Suribachi deployment hexes
    beach: BeachColour | None = None  # 3.3, 11.2
    beach_set: Literal["east", "west"] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> HexAttrs:
        if (self.beach is None) != (self.beach_set is None):
            raise ValueError("beach and beach_set go together")
        if self.beach is not None and self.beach_set is not None:
            if self.beach not in BEACHES[self.beach_set]:
                raise ValueError(f"beach {self.beach!r} is not one of the {self.beach_set} "
                                 f"beaches ({', '.join(BEACHES[self.beach_set])})")
            if self.deploy is not None:
                raise ValueError("a landing beach hex is not a Japanese deployment hex")
        if self.suribachi:
            if self.sector != SURIBACHI or self.deploy != "initial":
                raise ValueError("a Suribachi hex (17.0) has sector: suribachi and "
                                 "deploy: initial")
        elif self.sector == SURIBACHI and self.deploy is not None:
            raise ValueError("in the Suribachi sector only the five Suribachi hexes are "
                             "deployment hexes, and none is a redeployment hex (17.0)")
        return self


# --------------------------------------------------------------------------------------
# The counters
# --------------------------------------------------------------------------------------

Side = Literal["US", "Japan"]
UnitType = Literal["marine", "flamethrower", "armor", "anti_aircraft", "anti_tank", "artillery",
                   "construction", "engineer", "hq", "infantry"]

#: The unit types of each side (2.3.1).
UNIT_TYPES: Mapping[str, frozenset[str]] = MappingProxyType({
    "US": frozenset({"marine", "flamethrower", "armor"}),
    "Japan": frozenset({"anti_aircraft", "anti_tank", "armor", "artillery", "construction",
                        "engineer", "hq", "infantry"}),
})

#: Japanese unit types whose elimination goes on the Bombardment Track (14.1, 16.1).
FIRE_SUPPORT_TYPES: frozenset[str] = frozenset({"hq", "artillery"})


class Strengths(StrictModel):
    """The three numbers printed on one side of a unit counter (2.3.2)."""

    attack: int = Field(ge=0)
    defense: int = Field(ge=0)
    movement: int = Field(ge=0)


class Profile(StrictModel):
    """The printed values of one kind of counter (every counter of the kind shares them)."""

    side: Side
    type: UnitType
    size: Literal["I", "II"]  # 2.3.1: company, battalion
    steps: Literal[1, 2]
    support: bool = False  # 12.1: the coloured band of the US support units
    front: Strengths
    back: Strengths | None = None  # a two-step unit's reduced side (2.3)

    @model_validator(mode="after")
    def _by_side(self) -> Profile:
        if self.type not in UNIT_TYPES[self.side]:
            raise ValueError(f"type {self.type!r} is not a {self.side} unit type (2.3.1: "
                             f"{', '.join(sorted(UNIT_TYPES[self.side]))})")
        if self.side == "Japan" and (self.steps != 1 or self.back is not None or self.support):
            raise ValueError("a Japanese unit has one step and no reduced side: its back is "
                             "the fortification symbol (2.3, 14.2)")
        if self.steps == 2 and self.back is None:
            raise ValueError("a two-step unit needs its reduced side (back)")
        if self.steps == 1 and self.back is not None:
            raise ValueError("a one-step unit has no reduced side (2.3); leave out back")
        if self.support and self.steps != 1:
            raise ValueError("support units have only one step (12.1)")
        if self.back is not None and (self.back.attack > self.front.attack
                                      or self.back.defense > self.front.defense):
            raise ValueError("the reduced side (back) may not be stronger than the front")
        return self


class CounterSpec(StrictModel):
    """One unit counter: its printed identifiers, its kind (profile) and where it starts."""

    id: str = Field(min_length=1)  # printed right of the type box (2.3.1); unique
    profile: str
    formation: str = Field(min_length=1)  # printed left of the type box (2.3.1)
    name: str = Field(min_length=1)  # the unit's history; not printed
    setup: str  # a map box id, or initial_deployment (3.2)
    division: Literal[3, 4, 5] | None = None  # US units (3.4, 11.4)
    regiment: int | None = None  # US units attached to a regiment (11.4)
    back: str | None = None  # a profile printed on the back instead of a reduced side (12.4)


class MarkerSpec(StrictModel):
    """A kind of counter that is not a unit (bombardment markers, Flag, Turn), with its count."""

    id: str = Field(min_length=1)
    count: int = Field(ge=1)
    section: Section
    setup: Literal["set_aside", "turn_track"]
    front: str
    back: str | None = None


class CounterSheet(StrictModel):
    """counters.yaml: the printed values by kind, every unit counter and the markers."""

    profiles: dict[str, Profile]
    counters: tuple[CounterSpec, ...]
    markers: tuple[MarkerSpec, ...]

    @model_validator(mode="after")
    def _references(self) -> CounterSheet:
        repeated([c.id for c in self.counters], ("counters",))
        repeated([m.id for m in self.markers], ("markers",))
        units = {c.id for c in self.counters}
        for n, m in enumerate(self.markers):
            if m.id in units:
                raise AtPath(("markers", n, "id"), f"id {m.id!r} is a unit counter's id too")
        for c in self.counters:
            for ref in (c.profile, c.back):
                if ref is not None and ref not in self.profiles:
                    raise ValueError(f"counter {c.id!r}: unknown profile {ref!r} (profiles: "
                                     f"{', '.join(self.profiles)})")
            prof = self.profiles[c.profile]
            if c.back is not None:
                back = self.profiles[c.back]
                if prof.steps != 1 or back.steps != 1 or back.side != prof.side:
                    raise ValueError(f"counter {c.id!r}: only a one-step unit may carry "
                                     f"another unit ({c.back!r}, of its side) on its back")
            if prof.side == "US" and c.division is None:
                raise ValueError(f"counter {c.id!r}: a US unit needs its division (3.4)")
            if prof.side == "Japan" and (c.division is not None or c.regiment is not None):
                raise ValueError(f"counter {c.id!r}: division and regiment are for US units")
        return self

    def profile_of(self, counter: CounterSpec) -> Profile:
        """The printed values of a counter's front."""
        return self.profiles[counter.profile]

    def of_side(self, side: str) -> list[CounterSpec]:
        """The unit counters of one side ("US" or "Japan"), in file order."""
        return [c for c in self.counters if self.profiles[c.profile].side == side]

    def of_type(self, *types: str) -> list[CounterSpec]:
        """The unit counters of the given unit types, in file order."""
        return [c for c in self.counters if self.profiles[c.profile].type in types]

    def total(self) -> int:
        """How many counters the sheet holds: the units plus every marker (2.0)."""
        return len(self.counters) + sum(m.count for m in self.markers)


# --------------------------------------------------------------------------------------
# The Terrain Key
# --------------------------------------------------------------------------------------


class TerrainEffect(StrictModel):
    """What one terrain type does (6.4, 9.1, 12.3, 14.5)."""

    mp: int | None = Field(ge=1)  # None: may not be entered (prohibited)
    crt_line: str | None
    tanks_enter: bool
    tanks_attack: bool
    placement: int | None = Field(ge=1)  # 14.5 priority, 1 first; None: no deployment hex
    stop_note: bool = False  # printed "Stop", which 6.4 says to ignore


class FeatureEffect(StrictModel):
    """What one hex feature does besides its terrain (hill: 6.4, 9.1, 14.5, 16.3)."""

    crt_line: str | None
    placement: int | None = Field(ge=1)


class TerrainKey(StrictModel):
    """terrain.yaml: the effects of every terrain type and hex feature of the map."""

    section: Section
    terrain: dict[str, TerrainEffect]
    features: dict[str, FeatureEffect]


# --------------------------------------------------------------------------------------
# The tracks
# --------------------------------------------------------------------------------------


class TurnBox(StrictModel):
    """One box of the Game Turn Record Track: its turn number and the dates it covers."""

    turn: int = Field(ge=1)
    dates: str
    first_day: dt.date


class TurnTrack(StrictModel):
    """The Game Turn Record Track (3.1, 4.1): numbered boxes of two days each (2.4)."""

    section: Section
    start_weather: Literal["Clear", "Storm"]
    turns: tuple[TurnBox, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _sequence(self) -> TurnTrack:
        for i, box in enumerate(self.turns):
            if box.turn != i + 1:
                raise ValueError(f"turns[{i}] is turn {box.turn}, expected {i + 1}")
            if i and (box.first_day - self.turns[i - 1].first_day).days != 2:
                raise ValueError(f"turn {box.turn} starts {box.first_day}, expected two days "
                                 "after the turn before (2.4)")
        return self


class BombardmentBox(StrictModel):
    """One box of the Japanese Bombardment Track: its printed number and its map box."""

    value: int = Field(ge=0)
    box: str


class BombardmentTrack(StrictModel):
    """The Japanese Bombardment Track (16.1): boxes filled from the highest number down."""

    section: Section
    start: int = Field(ge=0, le=10)  # 16.1: "a maximum of 10"
    boxes: tuple[BombardmentBox, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _descending(self) -> BombardmentTrack:
        values = [b.value for b in self.boxes]
        if values != sorted(values, reverse=True) or len(set(values)) != len(values):
            raise ValueError(f"box values must run strictly downward, found {values}")
        if values[0] != self.start:
            raise ValueError(f"the highest box ({values[0]}) must be the start value "
                             f"({self.start}): an empty track shows its highest number")
        return self

    def markers(self, covered: int) -> int:
        """16.1: the Japanese bombardment markers when ``covered`` boxes hold a unit."""
        if covered < 0:
            raise ValueError(f"covered boxes cannot be negative ({covered})")
        return self.boxes[covered].value if covered < len(self.boxes) else 0


class Tracks(StrictModel):
    """tracks.yaml: the two tracks printed on the map."""

    turn_track: TurnTrack
    bombardment_track: BombardmentTrack


# --------------------------------------------------------------------------------------
# The CRMT's cells
# --------------------------------------------------------------------------------------

#: Every effect a CRMT cell may name, with its meaning (9.2.1-9.2.3, 16.4).
EFFECTS: Mapping[str, str] = MappingProxyType({
    "De": "every defending unit is eliminated; two-step units are not depleted (9.2.1)",
    "Ae": "every attacking unit is eliminated (9.2.1)",
    "(A)": "one attacking unit loses a step (9.2.1)",
    "(A)s": "one attacking unit loses a step unless the defender was suppressed (8.3b)",
    "(D)": "the defending US unit loses a step (9.2.2)",
    "A1": "the attacking units retreat one hex (9.3)",
    "A2": "the attacking units retreat two hexes (9.3)",
    "A3": "the attacking units retreat three hexes (9.3)",
    "D2": "the defending US units retreat two hexes, a step loss if unable (9.2.3, 9.3)",
    "D3": "the defending US units retreat three hexes, a step loss if unable (9.2.3, 9.3)",
    "DR": "the Japanese defender redeploys (15.3)",
    "DRIP": "the Japanese defender redeploys in place (15.4)",
    "AA": "one attacking unit may advance into the defender's hex (9.4)",
    "NE": "no effect",
})

_ROLL = re.compile(r"^(?P<a>[1-6])(?:-(?P<b>[1-6]))?$")


@dataclass(frozen=True, slots=True)
class Branch:
    """One branch of a CRMT cell: the second 1d6 rolls it covers and the terms it applies.

    Each term is a tuple of effects; a term of more than one effect is the affected player's
    choice among them ("D2|(D)").
    """

    low: int
    high: int
    terms: tuple[tuple[str, ...], ...]

    def covers(self, roll: int) -> bool:
        """Whether a second-roll result falls in this branch."""
        return self.low <= roll <= self.high

    @property
    def effects(self) -> frozenset[str]:
        """Every effect the branch may apply, choices included."""
        return frozenset(e for term in self.terms for e in term)


def parse_outcome(cell: str) -> tuple[Branch, ...]:
    """Parse a CRMT cell ("1-3:De+AA / 4-6:(A)+DR+AA") into its branches, 1 to 6 in order.

    Raises ValueError quoting the cell when an effect is unknown or the branches do not
    cover the die rolls 1-6 exactly once.
    """
    branches: list[Branch] = []
    parts = [p.strip() for p in cell.split("/")]
    for part in parts:
        low, high, body = 1, 6, part
        if ":" in part:
            roll, body = (s.strip() for s in part.split(":", 1))
            m = _ROLL.match(roll)
            if m is None:
                raise ValueError(f"CRMT cell {cell!r}: {roll!r} is not a die roll N or N-M "
                                 "(1 to 6)")
            low, high = int(m["a"]), int(m["b"] or m["a"])
            if low > high:
                raise ValueError(f"CRMT cell {cell!r}: roll {roll!r} runs downwards")
        elif len(parts) > 1:
            raise ValueError(f"CRMT cell {cell!r}: every branch of a split cell needs its "
                             "roll (e.g. 1-3:)")
        terms = tuple(tuple(e.strip() for e in term.split("|")) for term in body.split("+"))
        for term in terms:
            for effect in term:
                if effect not in EFFECTS:
                    raise ValueError(f"CRMT cell {cell!r}: unknown effect {effect!r} "
                                     f"(expected one of {', '.join(EFFECTS)})")
        branches.append(Branch(low, high, terms))
    branches.sort(key=lambda b: b.low)
    expected = 1
    for b in branches:
        if b.low != expected:
            raise ValueError(f"CRMT cell {cell!r}: rolls {expected}-{b.low - 1} are missing or "
                             "covered twice (the branches must cover 1-6 once)")
        expected = b.high + 1
    if expected != 7:
        raise ValueError(f"CRMT cell {cell!r}: rolls {expected}-6 are not covered")
    return tuple(branches)


def outcome_for(cell: str, roll: int) -> Branch:
    """The branch of a CRMT cell that a second 1d6 roll selects."""
    for branch in parse_outcome(cell):
        if branch.covers(roll):
            return branch
    raise ValueError(f"{roll!r} is not a roll of 1d6 (1-6)")


# --------------------------------------------------------------------------------------
# Loading and cross-checking
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Components:
    """Every printed component of the game, loaded and cross-checked."""

    map: HexMap
    counters: CounterSheet
    terrain: TerrainKey
    tracks: Tracks
    tables: Mapping[str, Table]
    hex_attrs: Mapping[str, HexAttrs]  # by printed hex id; land hexes only

    def hexes_where(self, **attrs: Any) -> list[str]:
        """The printed ids of the land hexes whose attributes equal all those given."""
        return [hid for hid, a in self.hex_attrs.items()
                if all(getattr(a, k) == v for k, v in attrs.items())]

    def suribachi_hexes(self) -> list[Hex]:
        """The five Suribachi deployment hexes (17.0)."""
        return [self.map.hex(hid) for hid in self.hexes_where(suribachi=True)]

    def summary(self) -> str:
        """One line saying what was loaded, for ``tabletop validate`` (Game.load_data)."""
        return (f"{len(self.hex_attrs)} land hexes, "
                f"{len(self.hexes_where(deploy='initial'))} initial and "
                f"{len(self.hexes_where(deploy='redeploy'))} redeployment hexes, "
                f"{self.counters.total()} counters, tables {', '.join(self.tables)}")


#: The game's own data-file models by file name (for Game.data_models and tabletop validate).
DATA_MODELS: Mapping[str, type[BaseModel]] = MappingProxyType({
    FILES["counters"]: CounterSheet,
    FILES["terrain"]: TerrainKey,
    FILES["tracks"]: Tracks,
    "sections.yaml": SectionsFile,  # the rulebook's sections (core.coverage)
})


def load_components(data_dir: str | Path = DATA_DIR) -> Components:
    """2.3.1, 20.0: load every data file of the game from ``data_dir`` and cross-check them
    (the counters' attack-defense-movement values as 2.3.1 reads them, raised from the
    orders of battle of 20.0).

    Raises DataError naming the file, the path inside it and what was expected.
    """
    root = Path(data_dir)
    paths = {role: root / name for role, name in FILES.items()}
    spec = load_model(HexMapSpec, paths["map"])
    hexmap = HexMap.from_spec(spec, source=str(paths["map"]))
    counters = load_model(CounterSheet, paths["counters"])
    terrain = load_model(TerrainKey, paths["terrain"])
    tracks = load_model(Tracks, paths["tracks"])
    tables = {role: _load_table(paths[role], role) for role in TABLES}
    attrs = _hex_attrs(hexmap, paths["map"])
    comps = Components(hexmap, counters, terrain, tracks, tables, attrs)
    _check_map(comps, paths["map"])
    _check_terrain(comps, paths["terrain"])
    _check_deployment(comps, paths["map"])
    _check_counters(comps, paths["counters"])
    _check_tracks(comps, paths["tracks"])
    _check_crmt(comps, paths["crmt"])
    return comps


def _load_table(path: Path, table_id: str) -> Table:
    table = Table.from_data(read_data_file(path), source=str(path))
    if table.id != table_id:
        raise DataError(f"{path}: id: expected {table_id!r}, found {table.id!r}")
    return table


def _fail(path: Path, where: str, message: str) -> DataError:
    return DataError(f"{path}: {where}: {message}")


def _hex_attrs(hexmap: HexMap, path: Path) -> dict[str, HexAttrs]:
    """Validate the attributes of every hex; land hexes need a sector, sea hexes none."""
    found: dict[str, HexAttrs] = {}
    for h in hexmap.hexes():
        hid = hexmap.label(h)
        spec = hexmap.spec.hexes.get(hid)
        raw = {} if spec is None or isinstance(spec, str) else dict(spec.attrs)
        attrs = validate(HexAttrs, raw, source=f"{path}: hexes.{hid}.attrs")
        if hexmap.is_prohibited(h):
            if raw or hexmap.features(h):
                raise _fail(path, f"hexes.{hid}", "a sea hex carries no attributes or features")
            continue
        if attrs.sector is None:
            raise _fail(path, f"hexes.{hid}.attrs.sector", "every land hex needs a sector "
                        "(1-6, 13.0, or suribachi, 17.0)")
        found[hid] = attrs
    return found


def _check_map(c: Components, path: Path) -> None:
    """Suribachi's sector is its five hexes and their neighbours; beaches and their boxes."""
    m = c.map
    cone = c.suribachi_hexes()
    ring = {n for h in cone for n in m.neighbors(h)} - set(cone)
    for n in sorted(ring, key=m.label):
        hid = m.label(n)
        if hid not in c.hex_attrs or c.hex_attrs[hid].sector != SURIBACHI:
            raise _fail(path, f"hexes.{hid}", "a land hex of the Suribachi sector expected: it "
                        "is adjacent to a Suribachi hex (17.0)")
    members = {m.label(h) for h in (*cone, *ring)}
    for hid in c.hexes_where(sector=SURIBACHI):
        if hid not in members:
            raise _fail(path, f"hexes.{hid}.attrs.sector", "the Suribachi sector is the five "
                        "Suribachi hexes and the hexes adjacent to them (17.0) only")
    for hid, a in c.hex_attrs.items():
        is_beach = m.terrain(m.hex(hid)) == "beach"
        if is_beach != (a.beach is not None):
            raise _fail(path, f"hexes.{hid}", "beach terrain and the beach attribute go "
                        "together (3.3, 11.2)")
    boxes = set(m.boxes)
    for colours in BEACHES.values():
        for colour in colours:
            if not c.hexes_where(beach=colour):
                raise _fail(path, "hexes", f"no hex of the {colour} beach (3.3)")
            for k in range(1, STAGING_BOXES_PER_BEACH + 1):
                if f"staging_{colour}_{k}" not in boxes:
                    raise _fail(path, "boxes", f"staging box staging_{colour}_{k} expected: "
                                "two per colour-coded beach (11.2)")


def _check_terrain(c: Components, path: Path) -> None:
    """Every terrain and feature of the map has its effects, on lines the CRT has."""
    spec = c.map.spec
    crt = c.tables["crt"]
    for name, ttype in spec.terrain_types.items():
        eff = c.terrain.terrain.get(name)
        if eff is None:
            raise _fail(path, f"terrain.{name}", "every terrain type of map.yaml needs its "
                        "effects")
        if ttype.prohibited != (eff.mp is None):
            raise _fail(path, f"terrain.{name}.mp", "null exactly for the map's prohibited "
                        "terrain")
        if eff.mp is not None and eff.crt_line not in crt.lines:
            raise _fail(path, f"terrain.{name}.crt_line", f"a line of the CRT expected "
                        f"({', '.join(crt.lines)})")
    for name in spec.feature_types:
        feat = c.terrain.features.get(name)
        if feat is None:
            raise _fail(path, f"features.{name}", "every feature of map.yaml needs its effects")
        if feat.crt_line is not None and feat.crt_line not in crt.lines:
            raise _fail(path, f"features.{name}.crt_line", f"a line of the CRT expected "
                        f"({', '.join(crt.lines)})")
    extra = sorted(set(c.terrain.terrain) - set(spec.terrain_types)) + sorted(
        set(c.terrain.features) - set(spec.feature_types))
    if extra:
        raise _fail(path, "terrain", f"{', '.join(extra)} not on the map")


def _check_deployment(c: Components, path: Path) -> None:
    """Deployment hexes stand on terrain 14.5 places on (never beach or sea)."""
    for hid, a in c.hex_attrs.items():
        terrain = c.map.terrain(c.map.hex(hid))
        if a.deploy is not None and c.terrain.terrain[terrain].placement is None:
            raise _fail(path, f"hexes.{hid}", f"a deployment hex on {terrain}, where 14.5 "
                        "never places a unit")


def _check_counters(c: Components, path: Path) -> None:
    """Setups name real places; one initial deployment hex per Japanese unit (3.2)."""
    boxes = set(c.map.boxes)
    for i, counter in enumerate(c.counters.counters):
        side = c.counters.profile_of(counter).side
        expected = {INITIAL_DEPLOYMENT} if side == "Japan" else boxes
        if counter.setup not in expected:
            raise _fail(path, f"counters.{i}.setup", f"{counter.setup!r}: expected "
                        f"{'initial_deployment (3.2)' if side == 'Japan' else 'a box of map.yaml'}")
    japanese = len(c.counters.of_side("Japan"))
    initial = len(c.hexes_where(deploy="initial"))
    if japanese != initial:
        raise _fail(path, "counters", f"{japanese} Japanese units for {initial} initial "
                    "deployment hexes on the map: 3.2 places one unit on each")


def _check_tracks(c: Components, path: Path) -> None:
    """The Bombardment Track's boxes are map boxes, one per HQ and artillery unit (16.1)."""
    boxes = set(c.map.boxes)
    track = c.tracks.bombardment_track
    for i, b in enumerate(track.boxes):
        if b.box not in boxes:
            raise _fail(path, f"bombardment_track.boxes.{i}.box", f"{b.box!r} is not a box "
                        "of map.yaml")
    fire_support = len(c.counters.of_type(*FIRE_SUPPORT_TYPES))
    if fire_support != len(track.boxes):
        raise _fail(path, "bombardment_track.boxes", f"{len(track.boxes)} boxes for "
                    f"{fire_support} HQ and artillery units: each eliminated one takes a "
                    "box (16.1)")


def _check_crmt(c: Components, path: Path) -> None:
    """The CRMT has the printed columns, a row per CRT result, and cells that parse."""
    crt, crmt = c.tables["crt"], c.tables["crmt"]
    missing = [col for col in CRMT_COLUMNS if col not in crmt.columns]
    if missing:
        raise _fail(path, "columns", f"missing {', '.join(missing)} (9.2)")
    crt_results = set(crt.results or ())
    rows = {label for label, _ in crmt.rows()}
    if rows != crt_results:
        raise _fail(path, "lines.default", f"one row per CRT result expected: rows "
                    f"{sorted(rows)}, CRT results {sorted(crt_results)}")
    for label, cells in crmt.rows():
        for col, cell in zip(crmt.columns, cells, strict=True):
            try:
                parse_outcome(cell)
            except ValueError as exc:
                raise _fail(path, f"lines.default.{label}", f"column {col!r}: {exc}") from None
