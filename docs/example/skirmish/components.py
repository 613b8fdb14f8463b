"""Skirmish at Hill 50's components: the models of its data files (units.yaml), the
checks the rules need of map.yaml (1.1, 3.1, 5.4, 6.0), and the names the rules share."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, RootModel, model_validator

from tabletop.core.board.hexmap import HexMap
from tabletop.core.engine.data import StrictModel, repeated
from tabletop.core.engine.errors import DataError

DATA = Path(__file__).parent / "data"
ELIMINATED = "box:eliminated"
SIDES = ("Blue", "Red")
STACK_LIMIT = 2


Value = Annotated[int, Field(ge=0)]
"""A printed value: attack, defense or movement, never negative."""


class UnitSpec(StrictModel):
    """One counter of units.yaml (rule 1.2): printed attack-defense-movement per side."""

    id: str
    side: Literal["Blue", "Red"]  # 1.2: one of the two sides
    kind: str
    name: str
    hex: str
    steps: int = Field(ge=1, le=2)
    front: tuple[Value, Value, Value]  # attack, defense, movement: none below 0
    back: tuple[Value, Value, Value] | None = None


class UnitsSpec(StrictModel):
    """The whole counter mix."""

    units: tuple[UnitSpec, ...]

    @model_validator(mode="after")
    def _unique_ids(self) -> UnitsSpec:
        repeated([u.id for u in self.units], ("units",))
        return self


class UnitsFile(RootModel[Annotated[tuple[UnitSpec, ...], Field(min_length=1)]]):
    """units.yaml as written: a list of counters (1.2), each id once, each side with some."""

    @model_validator(mode="after")
    def _unique_ids(self) -> UnitsFile:
        repeated([u.id for u in self.root], ())
        for side in SIDES:
            if not any(u.side == side for u in self.root):
                raise ValueError(f"side {side} has no unit (1.2: both sides set up units)")
        return self


def face_values(v: tuple[int, int, int]) -> dict[str, int]:
    """1.2 A face's printed attack-defense-movement as a piece's values."""
    return {"attack": v[0], "defense": v[1], "move": v[2]}


def check_map(hexmap: HexMap, costs: Mapping[str, float | None], path: Path) -> None:
    """What the rules need of map.yaml beyond its model: 3.1 a cost for every terrain type,
    6.0 at least one Hill 50 (objective) hex, 5.4 the eliminated box; a DataError naming the
    file otherwise."""
    for name in hexmap.spec.terrain_types:
        if name not in costs:
            raise DataError(f"{path}: terrain_types.{name}: the rules give no movement cost for "
                            f"{name!r} (3.1: {', '.join(costs)})")
    if not hexmap.hexes_with("objective"):
        raise DataError(f"{path}: hexes: no hex has the objective feature (Hill 50, which 6.0's "
                        "victory and the bots need)")
    if ELIMINATED not in hexmap.boxes:
        raise DataError(f"{path}: boxes: no box {ELIMINATED!r} (5.4: eliminated units go there)")


def load_units(path: Path) -> list[UnitSpec]:
    """Read units.yaml (a list of counters) into validated models."""
    from tabletop.core.engine.data import read_data_file, validate

    return list(validate(UnitsFile, read_data_file(path), source=str(path)).root)
