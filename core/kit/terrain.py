"""The Terrain Effects Chart as data (``data/terrain.yaml``): what each terrain, hex feature
and hexside feature does to movement and to combat.

Movement: a hex's terrain gives the cost of entering it (``move``, or ``move_by_kind`` for
some unit kinds), a hex feature adds to it, a hexside feature adds to the step across it
(``move``) or replaces the whole cost of that step (``road``); ``prohibited`` (for every
unit) or ``prohibited_for`` (some kinds) forbid a hex or a hexside. Combat: the defender's
terrain and features, and the hexsides the attackers attack across, shift the CRT column
(``shift``), multiply the defence (``multiplier``) or name the CRT line to read (``line``).
A hexside effect applies when ``any`` attacker attacks across it, or only when ``all`` do.
:class:`TerrainChart` is the file's model; :class:`Terrain` the chart checked against the
map, with movement costs compiled once per unit kind and the combat effects of an attack
as modifiers with their sections.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import Field

from ..board.hexgrid import Hex, HexSide
from ..board.hexmap import HexMap
from ..board.movement import CostFn, MoveCosts
from ..engine.canonical import JSON
from ..engine.data import Section, StrictModel
from ..engine.errors import DataError
from ..engine.events import modifier

TERRAIN_FILE = "terrain.yaml"
"""The file of a kit game's ``data/`` folder holding its Terrain Effects Chart."""


class CombatEffect(StrictModel):
    """What a terrain, feature or hexside does to an attack on the defender's hex."""

    shift: int = 0  # columns: negative favours the defender
    multiplier: float = Field(default=1.0, gt=0)  # the defence strength is multiplied by it
    line: str | None = None  # the CRT line to read (a terrain's own line)


class HexEffect(CombatEffect):
    """A terrain type of the chart: the cost of entering a hex of it and its combat effects."""

    section: Section = ""
    move: float | None = Field(default=1.0, ge=0)  # None: no unit may enter
    move_by_kind: dict[str, float | None] = Field(default_factory=dict)
    prohibited: bool = False
    prohibited_for: tuple[str, ...] = ()


class FeatureEffect(CombatEffect):
    """A hex feature of the chart (a hill, a town marker): an extra cost to enter, and
    combat effects added to the terrain's."""

    section: Section = ""
    move: float = Field(default=0.0, ge=0)


class HexsideEffect(CombatEffect):
    """A hexside feature of the chart (ridge, river, road)."""

    section: Section = ""
    move: float | None = Field(default=0.0, ge=0)  # extra cost to cross; None: prohibited
    road: float | None = Field(default=None, ge=0)  # crossing costs this instead of the hex's cost
    prohibited_for: tuple[str, ...] = ()
    when: Literal["any", "all"] = "any"  # combat: any attacker across, or every attacker
    blocks_zoc: bool = False  # no zone of control extends across it


class TerrainChart(StrictModel):
    """The model of ``data/terrain.yaml``."""

    section: Section = ""
    terrain: dict[str, HexEffect] = Field(min_length=1)
    features: dict[str, FeatureEffect] = Field(default_factory=dict)
    hexsides: dict[str, HexsideEffect] = Field(default_factory=dict)


class Terrain:
    """The chart checked against its map: movement costs per unit kind, prohibited hexes,
    zone-of-control blocking and the combat effects of an attack."""

    def __init__(self, chart: TerrainChart, hexmap: HexMap, source: str | Path) -> None:
        self.chart = chart
        self.map = hexmap
        self.source = str(source)
        self._check()
        #: each unit kind's step costs (and the hexside extras they were built with), and
        #: those of a unit leaving a hex at a cost, made once when first asked
        self._costs: dict[str, tuple[MoveCosts | CostFn, dict[HexSide, float | None]]] = {}
        self._leaving: dict[tuple[str, Hex, float], MoveCosts | CostFn] = {}

    def _check(self) -> None:
        """Every terrain type, hex feature and hexside feature of the map has its line in
        the chart (a DataError naming the file and what to add otherwise)."""
        spec, chart, src = self.map.spec, self.chart, self.source
        for name, kind in spec.terrain_types.items():
            if name not in chart.terrain and not kind.prohibited:
                raise DataError(f"{src}: terrain: no movement cost given for terrain {name!r} "
                                f"(the map uses it): add `{name}: {{move: 1}}` under terrain:")
        for name in spec.hexside_types:
            if name not in chart.hexsides:
                raise DataError(f"{src}: hexsides: no line for the map's hexside feature {name!r}: "
                                f"add `{name}: {{move: 0}}` under hexsides: (0: no effect)")
        known = (set(spec.terrain_types), set(spec.feature_types), set(spec.hexside_types))
        for what, names, of_map in (("terrain", chart.terrain, known[0]),
                                    ("features", chart.features, known[1]),
                                    ("hexsides", chart.hexsides, known[2])):
            for name in names:
                if name not in of_map:
                    raise DataError(f"{src}: {what}.{name}: the map declares no such "
                                    f"{'terrain type' if what == 'terrain' else what[:-1]} "
                                    f"({', '.join(sorted(of_map)) or 'none'})")

    # -- movement -------------------------------------------------------------------------
    def prohibited(self, hex_id: str, kind: str) -> bool:
        """Whether a unit of ``kind`` may never stand in the hex."""
        h = self.map.hex(hex_id)
        if self.map.is_prohibited(h):
            return True
        effect = self.chart.terrain.get(self.map.terrain(h))
        return effect is None or self._enter(effect, kind) is None

    @staticmethod
    def _enter(effect: HexEffect, kind: str) -> float | None:
        if effect.prohibited or kind in effect.prohibited_for:
            return None
        return effect.move_by_kind.get(kind, effect.move)

    def enter_cost(self, h: Hex, kind: str) -> float | None:
        """The cost for a unit of ``kind`` to enter a hex (its terrain and features), or None."""
        effect = self.chart.terrain.get(self.map.terrain(h))
        if effect is None or self.map.is_prohibited(h):
            return None
        cost = self._enter(effect, kind)
        if cost is None:
            return None
        return cost + sum(self.chart.features[f].move for f in sorted(self.map.features(h))
                          if f in self.chart.features)

    def costs(self, kind: str, *, leaving: Hex | None = None, extra: float = 0) -> MoveCosts | CostFn:
        """The movement costs of a unit kind, compiled once: a :class:`MoveCosts` (fast), or
        a cost function when a hexside replaces the cost of the step across it (a road).
        ``leaving``: a hex whose every step out costs ``extra`` more (leaving an enemy zone
        of control at a cost; the step back into it costs as much, which no search takes:
        the start is no destination, and a zone of control stops a unit that enters it)."""
        found = self._costs.get(kind)
        if found is None:
            found = self._costs[kind] = self._compile(kind)
        costs, cross = found
        if leaving is None or not extra:
            return costs
        key = (kind, leaving, extra)
        made = self._leaving.get(key)
        if made is None:
            made = self._leaving[key] = self._leave(costs, cross, leaving, extra)
        return made

    def _leave(self, costs: MoveCosts | CostFn, cross: dict[HexSide, float | None], start: Hex,
               extra: float) -> MoveCosts | CostFn:
        if isinstance(costs, MoveCosts):
            around: dict[HexSide, float | None] = {}
            for n in self.map.neighbors(start):
                side = HexSide(start, n)
                base = cross.get(side, 0.0)
                around[side] = None if base is None else base + extra
            return costs.replace(cross=around)
        step = costs

        def leave(a: Hex, b: Hex) -> float | None:
            c = step(a, b)
            return None if c is None else c + extra if a == start else c
        return leave

    def _compile(self, kind: str) -> tuple[MoveCosts | CostFn, dict[HexSide, float | None]]:
        sides = self.chart.hexsides
        cross: dict[HexSide, float | None] = {}
        roads: dict[frozenset[Hex], float] = {}
        for side, feats in self.map.hexsides().items():
            extra: float | None = 0.0
            for f in sorted(feats):
                effect = sides.get(f)
                if effect is None:
                    continue
                if effect.road is not None:
                    roads[frozenset((side.a, side.b))] = effect.road
                if effect.move is None or kind in effect.prohibited_for or extra is None:
                    extra = None
                else:
                    extra += effect.move
            cross[side] = extra
        costs = MoveCosts(self.map, lambda h: self.enter_cost(h, kind), cross)
        if not roads:
            return costs, cross

        def step(a: Hex, b: Hex) -> float | None:
            road = roads.get(frozenset((a, b)))
            if road is not None and self.enter_cost(b, kind) is not None:
                return road
            return costs(a, b)
        return step, cross

    def blocks_zoc(self, a: str, b: str) -> bool:
        """Whether a zone of control does not extend from hex ``a`` into its neighbour ``b``."""
        feats = self.map.id_hexside_features(a, b)
        return any(self.chart.hexsides[f].blocks_zoc for f in feats if f in self.chart.hexsides)

    # -- combat ---------------------------------------------------------------------------
    def defence(self, targets: Sequence[str], attackers: Iterable[str]) -> dict[str, JSON]:
        """The terrain's part in an attack on ``targets`` from the hexes ``attackers``: the
        CRT ``line`` (None: the table's default), the column ``shifts`` and the defence
        ``multipliers``, each a modifier with its section and name. Several target hexes
        defend with the terrain best for the defender (the lowest shift, then the highest
        multiplier)."""
        sources = list(attackers)
        best: tuple[int, float, str] | None = None
        for t in targets:
            shifts, mults, _ = self._hex_effects(t)
            key = (sum(int(s["value"]) for s in shifts), -_product(mults), t)
            if best is None or key < best:
                best = key
        assert best is not None
        shifts, mults, line = self._hex_effects(best[2])
        for name, effect in sorted(self.chart.hexsides.items()):
            if not effect.shift and effect.multiplier == 1:
                continue
            across = [any(name in self.map.id_hexside_features(a, t) for t in targets
                          if t in self.map.neighbor_ids(a)) for a in sources]
            if across and (all(across) if effect.when == "all" else any(across)):
                _add(shifts, mults, effect, effect.section or self.chart.section, name)
        return {"line": line, "shifts": shifts, "multipliers": mults}

    def _hex_effects(self, hex_id: str) -> tuple[list[dict[str, JSON]], list[dict[str, JSON]], str | None]:
        h = self.map.hex(hex_id)
        terrain = self.map.terrain(h)
        shifts: list[dict[str, JSON]] = []
        mults: list[dict[str, JSON]] = []
        effect = self.chart.terrain[terrain]
        line = effect.line
        _add(shifts, mults, effect, effect.section or self.chart.section, terrain)
        for f in sorted(self.map.features(h)):
            feature = self.chart.features.get(f)
            if feature is not None:
                _add(shifts, mults, feature, feature.section or self.chart.section, f)
                line = feature.line or line
        return shifts, mults, line


def _add(shifts: list[dict[str, JSON]], mults: list[dict[str, JSON]], effect: CombatEffect,
         section: str, name: str) -> None:
    if effect.shift:
        shifts.append(modifier(section, name, effect.shift))
    if effect.multiplier != 1:
        value = int(effect.multiplier) if effect.multiplier.is_integer() else effect.multiplier
        mults.append(modifier(section, name, value))


def _product(mults: Iterable[dict[str, JSON]]) -> float:
    out = 1.0
    for m in mults:
        value = m["value"]
        assert isinstance(value, int | float)
        out *= value
    return out
