"""Checking data files: which model each file is, and the JSON Schema of every model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from .data import read_data_file, validate
from .errors import DataError, TabletopError
from .flow import SequenceOfPlay
from .mapdata import AreaMapSpec, HexMapSpec


def data_models() -> dict[str, type[BaseModel]]:
    """The core's data-file models by name (what ``tabletop schema`` prints)."""
    models: dict[str, type[BaseModel]] = {
        "HexMapSpec": HexMapSpec,
        "AreaMapSpec": AreaMapSpec,
        "SequenceOfPlay": SequenceOfPlay,
    }
    from .coverage import SectionsFile
    from .position import Position

    models["SectionsFile"] = SectionsFile
    models["Position"] = Position
    try:
        from .tables import TableSpec

        models["TableSpec"] = TableSpec
    except ImportError:  # pragma: no cover - tables always ship; kept for partial installs
        pass
    return models


def guess_model(data: Any) -> type[BaseModel] | None:
    """The core model a data file's content is written for, judged by its keys."""
    if not isinstance(data, dict):
        return None
    models = data_models()
    if data.get("kind") == "hex" or {"columns", "rows", "terrain_types"} <= data.keys():
        return models["HexMapSpec"]
    if data.get("kind") == "area" or ("areas" in data and "connections" in data):
        return models["AreaMapSpec"]
    if "phases" in data and "last_turn" in data:
        return models["SequenceOfPlay"]
    if "rulebook" in data and "sections" in data:
        return models["SectionsFile"]
    if "game" in data and ("pieces" in data or "start" in data or "state" in data):
        return models["Position"]
    if "columns" in data and "lines" in data and "TableSpec" in models:
        return models["TableSpec"]
    return None


def validate_file(path: Path, extra: dict[str, type[BaseModel]] | None = None) -> str:
    """Validate one file against its model; returns a line saying what it is."""
    data = read_data_file(path)
    model = (extra or {}).get(path.name) or guess_model(data)
    if model is None:
        return f"{path}: parsed (no model known for it; checked by the game's own loader)"
    spec = validate(model, data, source=str(path))
    _build(spec, str(path))
    return f"{path}: ok ({model.__name__})"


def _build(spec: BaseModel, source: str) -> None:
    """Build the runtime object too, for the checks that need geometry (adjacent hexsides...)."""
    if isinstance(spec, HexMapSpec):
        from .hexmap import HexMap

        HexMap.from_spec(spec, source=source)
    elif isinstance(spec, AreaMapSpec):
        from .areamap import AreaMap

        AreaMap.from_spec(spec)


def validate_path(target: str) -> list[str]:
    """Validate a game (registered name or package folder) or one data file.

    For a game, each file in its ``data/`` folder is checked against its model and then the
    game's own loader (``Game.load_data``) cross-checks them; the first problem raises a
    DataError naming the file, the path inside it and what was expected.
    """
    path = Path(target)
    if path.is_file():
        return [validate_file(path)]
    from .registry import load_game

    game = load_game(target)
    folder = game.data_dir()
    if folder is None or not folder.is_dir():
        raise TabletopError(f"game {game.info.id} has no data folder")
    extra = game.data_models()
    lines: list[str] = []
    files = sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
    if not files:
        lines.append(f"{folder}: no data files yet")
    for p in files:
        lines.append(validate_file(p, extra))
    try:
        checked = game.load_data()
    except DataError:
        raise
    if checked:
        lines.append(f"{game.info.id}: cross-checks passed ({checked})")
    return lines
