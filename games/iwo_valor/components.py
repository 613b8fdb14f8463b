"""The printed components of Iwo Jima: Valor of Arms as data: map, counters, tables, tracks.

The rulebook prints none of them. ``games/iwo_valor/data/*.yaml`` reconstruct them (what is
the rulebook's word and what is ours: ``docs/games/iwo_valor.md``):

- ``map.yaml``: the island (II.B), a :class:`~tabletop.core.board.mapdata.HexMapSpec` whose hex
  attributes are checked against :class:`HexAttrs` and against every hex the rules name;
- ``counters.yaml``: the 200 pieces (:class:`CounterSheet`);
- ``tracks.yaml``: the Game Turn Track, the Japanese Artillery Chart, the Attack Priorities
  Chart, the VP schedules and the tracks' ranges (:class:`Tracks`);
- ``mat.yaml``, ``jat.yaml``: the Marine and Japanese Attack Tables in the core table format;
- ``scenarios.yaml``: the beaches and the first wave (III.4), each scenario's first and last
  Game Turn and the short scenarios' own set-ups (XI) (:class:`Scenarios`).

:func:`load_components` loads every file and cross-checks them; each failure is a
:class:`~tabletop.core.engine.errors.DataError` naming the file, the place in it and what was expected.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from tabletop.core.board.hexgrid import Hex
from tabletop.core.board.hexmap import HexMap
from tabletop.core.board.mapdata import HexMapSpec
from tabletop.core.engine.data import StrictModel, load_model, read_data_file, validate
from tabletop.core.engine.errors import DataError
from tabletop.core.engine.tables import Span, Table, parse_span

DATA_DIR = Path(__file__).resolve().parent / "data"
FILES = MappingProxyType({"map": "map.yaml", "counters": "counters.yaml", "tracks": "tracks.yaml",
                         "mat": "mat.yaml", "jat": "jat.yaml", "scenarios": "scenarios.yaml"})

AREAS: tuple[str, ...] = ("Sr", "S", "W", "E", "N")  # III.3 deployment areas (IV.C.1)
CODES: tuple[str, ...] = (*AREAS, "R")  # III.3 deployment codes
BEACHES: tuple[str, ...] = ("minami", "nishi")  # III.4
FLAG_HEX = "0304"  # VIII.E
GORGE: tuple[str, ...] = ("2732", "2733", "2831", "2832")  # V.J, VIII.A
LINE_ENDS: Mapping[int, tuple[str, str]] = MappingProxyType(
    {1: ("2420", "0725"), 2: ("2826", "0829")})  # IV.G.1-2
SECOND_LINE_EXTRA = "0629"  # IV.G.2 "including the Japanese unit in hex 0629"


class HexAttrs(StrictModel):
    """The attributes a hex of map.yaml may carry (the file's header explains each)."""

    level: int = Field(ge=1, le=3)
    levels: tuple[int, int] | None = None
    area: Literal["Sr", "S", "W", "E", "N"]
    belt: int = Field(ge=1, le=3)
    beach: Literal["minami", "nishi"] | None = None
    airfield: int | None = Field(default=None, ge=1, le=3)
    position: int | None = Field(default=None, ge=1, le=3)
    deploy: Literal["Sr", "S", "W", "E", "N", "R"] | None = None
    line: int | None = Field(default=None, ge=1, le=2)
    narrow_setup: bool = False

    @model_validator(mode="after")
    def _lower(self) -> HexAttrs:
        if self.levels is not None and self.level != min(self.levels):
            raise ValueError(f"level {self.level} must be the lower of levels {self.levels} (IX.G)")
        if self.deploy is not None and self.position is None:
            raise ValueError("a deployment hex must be a defensive position (III.5-6)")
        return self


class SeaAttrs(StrictModel):
    """A sea hex's attributes: only Second Wave deployment hexes carry one."""

    second_wave: Literal["minami", "nishi"]


class Division(StrictModel):
    """One Marine division of the counter sheet: HQ and tank entry turns, regiments."""

    id: str
    hq_entry: int = Field(ge=1, le=35)
    tanks: dict[str, int]
    regiments: dict[str, dict[Literal["1", "2", "3"], int]]


class MarineSheet(StrictModel):
    """The Marine side of the sheet (II.C)."""

    letters: dict[Literal["1", "2", "3"], tuple[str, str, str]]
    infantry_strengths: tuple[int, int, int]
    hq_strength: int = Field(ge=1)
    armour_steps: int = Field(ge=1, le=3)
    divisions: tuple[Division, ...]


class JapaneseCounter(StrictModel):
    """One Japanese company (II.C): designation, type symbol, deployment code, strengths."""

    id: str
    type: Literal["inf", "mg", "at", "nav", "tank", "hq"]
    code: Literal["Sr", "S", "W", "E", "N", "R"]
    strengths: tuple[int, ...] = Field(min_length=2, max_length=4)

    @model_validator(mode="after")
    def _rising(self) -> JapaneseCounter:
        if list(self.strengths) != sorted(self.strengths):
            raise ValueError("strengths are listed from 1 step up; the highest is full strength")
        return self


class CounterSheet(StrictModel):
    """The whole sheet of 200 pieces (II.A)."""

    marines: MarineSheet
    japanese: tuple[JapaneseCounter, ...]
    markers: dict[str, tuple[str, int]]


@dataclass(frozen=True, slots=True)
class MarineCounter:
    """One Marine counter as the game uses it (derived from the sheet's formations)."""

    id: str
    kind: str  # "infantry", "armour", "hq"
    division: str
    regiment: str  # "" for tanks and HQs
    battalion: str  # "1".."3", "" for tanks and HQs
    entry: int
    strengths: tuple[int, ...]  # by steps, from 1 up; armour has none (II.C NOTE)
    steps: int


class VPLevel(StrictModel):
    """One row of a VP schedule (X.B)."""

    vp: str
    level: str
    winner: Literal["US", "Japan"]
    # X.B's last paragraph: who wins the game, where it is not the battle's victor (a Marine
    # Marginal Victory takes the island but loses the game)
    game: Literal["US", "Japan"] | None = None


class Withdrawal(StrictModel):
    """One withdrawal box of the Game Turn Track (IV.A.2)."""

    turn: int = Field(ge=23, le=35)
    division: str
    what: Literal["regiment", "division"]


class TurnTrack(StrictModel):
    """The Game Turn Track (I): support, replacements and withdrawals by turn."""

    first_day: str
    last_turn: int
    support: dict[str, int]
    infantry_replacements: dict[str, int]
    armour_replacements: dict[str, int]
    withdrawals: tuple[Withdrawal, ...]


class Priority(StrictModel):
    """One criterion of the Attack Priorities Chart."""

    id: Literal["armour", "hq", "most_steps", "fatigue", "airfield", "beach"]
    text: str


class Tracks(StrictModel):
    """tracks.yaml: the Game Turn Track, the charts, the schedules, the tracks' ranges."""

    game_turn_track: TurnTrack
    artillery_chart: dict[str, dict[Literal["Sr", "S", "W", "E", "N"], int]]
    attack_priorities: tuple[Priority, ...]
    ranges: dict[str, tuple[int, int]]
    vp_schedule: tuple[VPLevel, ...]
    line_of_departure_schedule: tuple[VPLevel, ...]
    sands_schedule: tuple[VPLevel, ...]


class FirstWave(StrictModel):
    """III.4: the units marked "1": by id, and the battalions (division, regiment,
    battalion) whose three companies are."""

    units: tuple[str, ...]
    battalions: tuple[tuple[str, str, Literal["1", "2", "3"]], ...]


class Turns(StrictModel):
    """XI: the first and last Game Turn a scenario is played."""

    first: int = Field(ge=1, le=35)
    last: int = Field(ge=1, le=35)

    @model_validator(mode="after")
    def _ordered(self) -> Turns:
        if self.first > self.last:
            raise ValueError(f"the first turn {self.first} comes after the last {self.last}")
        return self


class ScenarioTurns(StrictModel):
    """XI: the Game Turns of each scenario, by scenario id."""

    campaign: Turns
    line_of_departure: Turns
    sands_of_iwo_jima: Turns
    narrow: Turns
    very_short: Turns

    def of(self, scenario: str) -> Turns:
        """The turns of one scenario (KeyError for an id the game does not have)."""
        turns = getattr(self, scenario, None) if scenario in type(self).model_fields else None
        if not isinstance(turns, Turns):
            raise KeyError(scenario)
        return turns


class NarrowGame(StrictModel):
    """XI.C The Narrow Game: the division in play, the areas set up (and in play), the hexes
    cleared before play, the line the division sets up on and south of, and 1220."""

    division: str
    areas: tuple[Literal["Sr", "S", "W", "E", "N"], ...] = Field(min_length=1)
    removed: tuple[str, ...]
    line: tuple[str, str]
    extra: str


class VeryShortGame(StrictModel):
    """XI.C The Very Short Game: the regiment in play, the Japanese units on Suribachi and
    their hexes (in the order placed), and the hex the regiment sets up around."""

    regiment: str
    units: dict[str, str] = Field(min_length=1)
    centre: str


class Scenarios(StrictModel):
    """scenarios.yaml: the set-up's beaches and first wave (III.4), the scenarios' turns and
    the short scenarios' own set-ups (XI)."""

    beaches: dict[str, str] = Field(min_length=2)
    first_wave: FirstWave
    turns: ScenarioTurns
    narrow: NarrowGame
    very_short: VeryShortGame


DATA_MODELS: Mapping[str, type[BaseModel]] = MappingProxyType({
    "map.yaml": HexMapSpec, "counters.yaml": CounterSheet, "tracks.yaml": Tracks,
    "scenarios.yaml": Scenarios})


def by_turn(table: dict[str, int], turn: int, *, where: str) -> int:
    """The value of a by-turn span table for one turn (0 when no span holds it)."""
    for key, value in table.items():
        if parse_span(key).contains(turn):
            return value
    return 0


def _spans_cover(table: dict[str, object], last: int, where: str) -> None:
    spans: list[Span] = [parse_span(k) for k in table]
    for turn in range(1, last + 1):
        n = sum(1 for s in spans if s.contains(turn))
        if n != 1:
            raise DataError(f"{where}: turn {turn} is in {n} spans (expected exactly one)")


@dataclass(frozen=True)
class Components:
    """Every printed component, loaded and cross-checked."""

    map: HexMap
    sheet: CounterSheet
    marines: tuple[MarineCounter, ...]
    tracks: Tracks
    mat: Table
    jat: Table
    scenarios: Scenarios

    def hexes_where(self, key: str, value: object) -> list[str]:
        """The ids of the hexes whose attribute ``key`` equals ``value``."""
        return [self.map.label(h) for h in self.map.hexes_where(key, value)]

    def summary(self) -> str:
        """What was loaded, in one line."""
        land = sum(1 for h in self.map if not self.map.is_prohibited(h))
        return (f"map: {land} land hexes; counters: {len(self.marines)} Marine units, "
                f"{len(self.sheet.japanese)} Japanese units, "
                f"{sum(n for _, n in self.sheet.markers.values()) + len(self.regiments())} markers; "
                f"tables: mat, jat; tracks: 35-turn track, artillery chart, schedules; "
                f"scenarios: {len(ScenarioTurns.model_fields)} with their turns")

    def regiments(self) -> list[tuple[str, str]]:
        """Every (division, regiment) of the sheet, in sheet order."""
        return [(d.id, r) for d in self.sheet.marines.divisions for r in d.regiments]


def _marines(sheet: MarineSheet) -> tuple[MarineCounter, ...]:
    out: list[MarineCounter] = []
    for div in sheet.divisions:
        out.append(MarineCounter(f"HQ/{div.id}", "hq", div.id, "", "", div.hq_entry,
                                 (sheet.hq_strength,), 1))
        for coy, entry in div.tanks.items():
            out.append(MarineCounter(f"{coy}/{div.id}TK", "armour", div.id, "", "", entry, (),
                                     sheet.armour_steps))
        for reg, bns in div.regiments.items():
            for bn, entry in bns.items():
                for letter in sheet.letters[bn]:
                    out.append(MarineCounter(f"{letter}/{bn}/{reg}/{div.id}", "infantry", div.id, reg,
                                             bn, entry, sheet.infantry_strengths, 3))
    return tuple(out)


def _check_map(m: HexMap, source: str, scen: Scenarios, scen_source: str) -> None:
    """II.B: the island's hexes carry only what the map prints (terrain, levels, positions,
    areas, beaches), each value of its kind; the hexes the rules and the scenarios name are
    land, with the role they give them."""
    for h in m:
        hid = m.label(h)
        raw = dict(m.attrs(h))
        if m.is_prohibited(h):
            if raw:
                validate(SeaAttrs, raw, source=f"{source}: hexes.{hid}.attrs")
            continue
        validate(HexAttrs, raw, source=f"{source}: hexes.{hid}.attrs")
    named = [FLAG_HEX, *GORGE, *(x for ends in LINE_ENDS.values() for x in ends), SECOND_LINE_EXTRA]
    for hid in named:
        if m.is_prohibited(m.hex(hid)):
            raise DataError(f"{source}: hex {hid}, named by the rules, must be land")
    narrow, short = scen.narrow, scen.very_short
    for where, hid in [*((f"narrow.removed.{i}", h) for i, h in enumerate(narrow.removed)),
                       *((f"narrow.line.{i}", h) for i, h in enumerate(narrow.line)),
                       ("narrow.extra", narrow.extra),
                       *((f"very_short.units.{u}", h) for u, h in short.units.items()),
                       ("very_short.centre", short.centre)]:
        if hid not in m.ids() or m.is_prohibited(m.hex(hid)):
            raise DataError(f"{scen_source}: {where}: hex {hid} must be a land hex of the map")
    for n, (a, b) in LINE_ENDS.items():
        for hid in (a, b):
            h = m.hex(hid)
            if m.attr(h, "line") != n or m.attr(h, "position") not in (2, 3):
                raise DataError(f"{source}: hex {hid} must be a Class 2/3 position of line {n} (IV.G)")
    for hid in narrow.removed:
        if m.attr(m.hex(hid), "deploy") not in narrow.areas:
            raise DataError(f"{source}: hex {hid} must be a deployment hex of the Narrow Game's "
                            f"areas (XI.C, {scen_source}: narrow.removed)")
    for hid in short.units.values():
        if m.attr(m.hex(hid), "deploy") != "Sr":
            raise DataError(f"{source}: hex {hid} must be a Suribachi deployment hex (XI.C, "
                            f"{scen_source}: very_short.units)")
    if set(scen.beaches) != set(BEACHES):
        raise DataError(f"{scen_source}: beaches: must name both beaches, {' and '.join(BEACHES)} (III.4)")
    for beach in BEACHES:
        hexes = m.hexes_where("beach", beach)
        waves = m.hexes_where("second_wave", beach)
        if len(hexes) < 17 or len(waves) < len(hexes):
            raise DataError(f"{source}: beach {beach} needs 17 beach hexes and as many Second "
                            f"Wave hexes (III.4: 33 units in two waves); has {len(hexes)}, {len(waves)}")


def _check_sheet(sheet: CounterSheet, marines: tuple[MarineCounter, ...], m: HexMap, source: str,
                 scen: Scenarios, scen_source: str) -> None:
    """II.A, II.C, III.4, XI.C: the sheet of playing pieces: ids once each, every unit placed
    where the map can hold it, the first wave and the short scenarios' units on the sheet."""
    ids = [u.id for u in sheet.japanese] + [u.id for u in marines]
    if len(set(ids)) != len(ids):
        raise DataError(f"{source}: two counters share an id")
    regiments = sum(len(d.regiments) for d in sheet.marines.divisions)
    total = len(marines) + len(sheet.japanese) + sum(n for _, n in sheet.markers.values()) + regiments
    if total != 200:
        raise DataError(f"{source}: the sheet has {total} pieces, not 200 (II.A)")
    for code in CODES:
        units = sum(1 for u in sheet.japanese if u.code == code)
        hexes = len(m.hexes_where("deploy", code))
        if units != hexes:
            raise DataError(f"{source}: {units} Japanese units coded {code} but {hexes} deployment "
                            f"hexes (III.3: one unit in each deployment hex)")
    first = {u.id for u in marines if u.entry == 1}
    wave = scen.first_wave
    wanted = set(wave.units) | {f"{x}/{bn}/{reg}/{d}" for d, reg, bn in wave.battalions
                                for x in sheet.marines.letters.get(bn, ())}
    if first != wanted:
        raise DataError(f"{source}: the units marked '1' must be exactly those III.4 lists "
                        f"({scen_source}: first_wave); differ: {sorted(first ^ wanted)}")
    japanese = {u.id for u in sheet.japanese}
    for jid in scen.very_short.units:
        if jid not in japanese:
            raise DataError(f"{scen_source}: very_short.units.{jid}: not a Japanese unit of {source}")
    if scen.narrow.division not in {d.id for d in sheet.marines.divisions}:
        raise DataError(f"{scen_source}: narrow.division: {scen.narrow.division!r} is not a "
                        f"division of {source}")
    if scen.very_short.regiment not in {r for d in sheet.marines.divisions for r in d.regiments}:
        raise DataError(f"{scen_source}: very_short.regiment: {scen.very_short.regiment!r} is not "
                        f"a regiment of {source}")


def load_components(data_dir: Path = DATA_DIR) -> Components:
    """Load and cross-check every data file (raises DataError)."""
    map_path = data_dir / FILES["map"]
    hexmap = HexMap.load(map_path)
    scen_path = data_dir / FILES["scenarios"]
    scenarios = load_model(Scenarios, scen_path)
    _check_map(hexmap, str(map_path), scenarios, str(scen_path))
    sheet_path = data_dir / FILES["counters"]
    sheet = load_model(CounterSheet, sheet_path)
    marines = _marines(sheet.marines)
    _check_sheet(sheet, marines, hexmap, str(sheet_path), scenarios, str(scen_path))
    tracks_path = data_dir / FILES["tracks"]
    tracks = load_model(Tracks, tracks_path)
    gtt = tracks.game_turn_track
    for name in ("support", "infantry_replacements", "armour_replacements"):
        _spans_cover(getattr(gtt, name), gtt.last_turn, f"{tracks_path}: game_turn_track.{name}")
    _spans_cover(dict(tracks.artillery_chart), gtt.last_turn, f"{tracks_path}: artillery_chart")
    for name in ScenarioTurns.model_fields:
        if scenarios.turns.of(name).last > gtt.last_turn:
            raise DataError(f"{scen_path}: turns.{name}.last: after the Game Turn Track's last turn "
                            f"{gtt.last_turn} ({tracks_path})")
    mat = Table.from_data(read_data_file(data_dir / FILES["mat"]), source=str(data_dir / FILES["mat"]))
    jat = Table.from_data(read_data_file(data_dir / FILES["jat"]), source=str(data_dir / FILES["jat"]))
    return Components(hexmap, sheet, marines, tracks, mat, jat, scenarios)


def hex_id(m: HexMap, h: Hex) -> str:
    """The printed id of a hex."""
    return m.label(h)
