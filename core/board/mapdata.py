"""The data-file models of maps: hex maps, area (point-to-point) maps and off-map boxes.

These are what a game's ``data/map.yaml`` is validated against. Runtime objects built from
them live in :mod:`hexmap` and :mod:`areamap`.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from ..engine.data import HexId, StrictModel

HEX_ID = re.compile(r"^\d{4}$")


class TerrainType(StrictModel):
    """One terrain type of a map's terrain key: its name, drawing colour and ASCII symbol."""

    name: str
    color: str = "#d8d0b0"
    symbol: str = Field(default=".", min_length=1, max_length=1)
    prohibited: bool = False  # e.g. all-sea hexes no ground unit may enter


class FeatureType(StrictModel):
    """A hex feature (hill, airfield, beach, deployment hex...) or hexside feature (river...)."""

    name: str
    color: str = "#000000"
    symbol: str = Field(default="*", min_length=1, max_length=1)
    width: float = 3.0  # stroke width in the SVG for hexside features


class HexSpec(StrictModel):
    """One hex of a hex map as written in YAML: terrain plus optional features and attributes."""

    terrain: str
    features: tuple[str, ...] = ()
    attrs: dict[str, Any] = Field(default_factory=dict)
    name: str | None = None


class HexsideSpec(StrictModel):
    """Features on the hexside between two adjacent hexes."""

    between: tuple[HexId, HexId]
    features: tuple[str, ...]

    @field_validator("between")
    @classmethod
    def _ids(cls, v: tuple[str, str]) -> tuple[str, str]:
        for hid in v:
            if not HEX_ID.match(hid):
                raise ValueError(f"hex id {hid!r} is not four digits XXYY")
        return v


class BoxSpec(StrictModel):
    """An off-map box (Available for Landing, Reserves, Eliminated, dead pile, a container)."""

    id: str
    name: str
    blind: bool = False  # a container drawn from blindly (face-down, random draw)
    capacity: int | None = None
    # Where an area map's picture draws the box on the board (its centre, 0..1000 like the
    # areas'); without them the box is drawn beside the map. Hex maps draw every box beside it.
    x: float | None = None
    y: float | None = None

    @model_validator(mode="after")
    def _both_or_neither(self) -> BoxSpec:
        if (self.x is None) != (self.y is None):
            raise ValueError(f"box {self.id!r}: give both x and y, or neither")
        return self


class LabelSpec(StrictModel):
    """A text printed on the map at a hex (a place name, a sector number)."""

    text: str
    at: HexId


class HexMapSpec(StrictModel):
    """A hex map: the grid's extent and shift, the terrain key, every hex, hexsides and boxes.

    Hexes are named by the printed four-digit id ``XXYY`` (column, row). Columns run
    vertically; ``shifted`` says whether the odd or the even printed columns sit half a hex
    lower. Hexes inside the bounds but not listed take ``default_terrain``.
    """

    kind: Literal["hex"] = "hex"
    name: str
    scale: str = ""
    columns: tuple[int, int]  # first and last printed column number
    rows: tuple[int, int]  # first and last printed row number
    shifted: Literal["odd", "even"] = "even"
    default_terrain: str
    terrain_types: dict[str, TerrainType]
    feature_types: dict[str, FeatureType] = Field(default_factory=dict)
    hexside_types: dict[str, FeatureType] = Field(default_factory=dict)
    hexes: dict[HexId, HexSpec | str] = Field(default_factory=dict)
    hexsides: tuple[HexsideSpec, ...] = ()
    boxes: tuple[BoxSpec, ...] = ()
    labels: tuple[LabelSpec, ...] = ()
    #: Hexes inside the bounds that the sheet does not print (a ragged edge: the half hexes
    #: cut off where shifted columns end half a hex short); they are not on the map.
    absent: tuple[HexId, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> HexMapSpec:
        c0, c1 = self.columns
        r0, r1 = self.rows
        if not (0 <= c0 <= c1 <= 99 and 0 <= r0 <= r1 <= 99):
            raise ValueError("columns and rows must be ascending numbers from 0 to 99")
        if self.default_terrain not in self.terrain_types:
            raise ValueError(f"default_terrain {self.default_terrain!r} is not in terrain_types")
        for hid, spec in self.hexes.items():
            if not HEX_ID.match(hid):
                raise ValueError(f"hexes: {hid!r} is not a four-digit hex id XXYY")
            col, row = int(hid[:2]), int(hid[2:])
            if not (c0 <= col <= c1 and r0 <= row <= r1):
                raise ValueError(f"hexes: {hid} lies outside columns {c0}-{c1}, rows {r0}-{r1}")
            terrain = spec if isinstance(spec, str) else spec.terrain
            if terrain not in self.terrain_types:
                raise ValueError(f"hexes: {hid}: unknown terrain {terrain!r}")
            if not isinstance(spec, str):
                for feat in spec.features:
                    if feat not in self.feature_types:
                        raise ValueError(f"hexes: {hid}: unknown feature {feat!r}")
        for hid in self.absent:
            col, row = int(hid[:2]), int(hid[2:])
            if not (c0 <= col <= c1 and r0 <= row <= r1):
                raise ValueError(f"absent: {hid} lies outside columns {c0}-{c1}, rows {r0}-{r1}")
            if hid in self.hexes:
                raise ValueError(f"absent: {hid} is also described under hexes")
        for side in self.hexsides:
            for feat in side.features:
                if feat not in self.hexside_types:
                    raise ValueError(f"hexsides: {side.between}: unknown hexside feature {feat!r}")
        box_ids = [b.id for b in self.boxes]
        if len(set(box_ids)) != len(box_ids):
            raise ValueError("boxes: two boxes share an id")
        return self


class AreaSpec(StrictModel):
    """One named position of an area map, with its drawing position and attributes."""

    id: str
    name: str
    x: float  # drawing position, 0..1000 left to right
    y: float  # drawing position, 0..1000 top to bottom
    attrs: dict[str, Any] = Field(default_factory=dict)


class ConnectionSpec(StrictModel):
    """An arrow between two positions; ``directed`` arrows run only from ``a`` to ``b``."""

    a: str
    b: str
    directed: bool = False


class AreaMapSpec(StrictModel):
    """An area (point-to-point) map: positions, the arrows joining them, and off-map boxes."""

    kind: Literal["area"] = "area"
    name: str
    areas: tuple[AreaSpec, ...]
    connections: tuple[ConnectionSpec, ...]
    boxes: tuple[BoxSpec, ...] = ()
    background: str = "#9cc3d5"
    #: how a position's attributes read to a player, attribute -> words (``{}`` stands for
    #: the value: ``"{} slots"``; a flag's words are shown when it is true): with labels, the
    #: line under a position's name shows these words, in this order, and no other attribute
    labels: dict[str, str] = Field(default_factory=dict)

    @field_validator("labels")
    @classmethod
    def _formats(cls, labels: dict[str, str]) -> dict[str, str]:
        for key, words in labels.items():
            try:
                words.format("")
            except (IndexError, KeyError, ValueError):
                raise ValueError(f"labels.{key}: {words!r} may hold one '{{}}' for the value, "
                                 "nothing else in braces") from None
        return labels

    def words(self, area: AreaSpec) -> list[str]:
        """A position's attributes as a player reads them (:attr:`labels`), in the labels'
        order: a true flag's words, a value's words with the value; empty without labels."""
        out = []
        for key, words in self.labels.items():
            value = area.attrs.get(key)
            if value is True:
                out.append(words.format(""))
            elif value not in (False, None):
                out.append(words.format(value))
        return out

    @model_validator(mode="after")
    def _consistent(self) -> AreaMapSpec:
        ids = [a.id for a in self.areas]
        if len(set(ids)) != len(ids):
            raise ValueError("areas: two areas share an id")
        known = set(ids)
        for c in self.connections:
            for end in (c.a, c.b):
                if end not in known:
                    raise ValueError(f"connections: unknown area {end!r}")
            if c.a == c.b:
                raise ValueError(f"connections: {c.a!r} is joined to itself")
        box_ids = [b.id for b in self.boxes]
        if len(set(box_ids)) != len(box_ids) or known & set(box_ids):
            raise ValueError("boxes: a box id repeats or equals an area id")
        return self
