"""Checking data files: which model each file is, and the JSON Schema of every model."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ..board.counters import ART_FILE, CounterArt
from ..board.mapdata import AreaMapSpec, HexMapSpec
from ..engine.ai import AI_FILE, AIFile
from ..engine.data import read_data_file, validate
from ..engine.errors import DataError, TabletopError
from ..engine.flow import SequenceOfPlay
from ..engine.opening import DATA_SUFFIXES, check_game_data, data_source

if TYPE_CHECKING:
    from ..engine.match import Game


def data_models() -> dict[str, type[BaseModel]]:
    """The core's data-file models by name (what ``tabletop schema`` prints)."""
    models: dict[str, type[BaseModel]] = {
        "HexMapSpec": HexMapSpec,
        "AreaMapSpec": AreaMapSpec,
        "SequenceOfPlay": SequenceOfPlay,
        "AIFile": AIFile,
    }
    from ..engine.position import Position
    from .coverage import SectionsFile

    models["SectionsFile"] = SectionsFile
    models["Position"] = Position
    models["CounterArt"] = CounterArt
    try:
        from ..engine.tables import TableSpec

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


POSITION_KEYS = frozenset({"pieces", "start", "state", "off_board", "clear", "clear_map", "dice"})
"""Keys that, beside ``game``, mark a file as a position (``play --position``)."""


def validate_file(path: Path, extra: dict[str, type[BaseModel]] | None = None, *,
                  game: Game | None = None) -> str:
    """Validate one file against its model; returns a line saying what it is.

    The model is the game's own for that file name (``extra``), else the core model of its
    name (``ai.yaml``, ``counter_art.yaml``) or of its keys; a file in the ``data/`` folder
    of a game package is checked against that game's models even when named alone. A
    position file is set up as ``play --position`` would set it up (:func:`validate_position`).
    """
    data = read_data_file(path)
    if isinstance(data, dict) and "game" in data and POSITION_KEYS & data.keys():
        return validate_position(path, data, game)
    if extra is None:
        extra = _models_of_folder_game(path)
    model = (extra.get(path.name) or (CounterArt if path.name == ART_FILE else None)
             or (AIFile if path.name == AI_FILE else None) or guess_model(data))
    if model is None:
        return f"{path}: parsed (no model known for it; checked by the game's own loader)"
    spec = validate(model, data, source=str(path))
    _build(spec, str(path))
    return f"{path}: ok ({model.__name__})"


def validate_position(path: Path, data: Any, game: Game | None = None) -> str:
    """Check a position file as ``play --position`` would: its model, then the match it
    starts (pieces, places, status, entry point, vars), each problem a DataError naming the
    file and the place in it. The game is ``game``, else the registered one the file names,
    else the game package whose ``positions/`` folder holds the file."""
    from ..engine.match import Match
    from ..engine.position import Position
    from ..engine.registry import load_game, registered

    position = validate(Position, data, source=str(path))
    if game is None:
        package = path.resolve().parent.parent
        if position.game in registered():
            game = load_game(position.game)
        elif (package / "__init__.py").is_file():
            game = load_game(str(package))
    if game is None:
        return (f"{path}: ok (Position of {position.game}; name its game with --game to set it "
                "up as well)")
    if game.info.id != position.game:
        raise DataError(f"{path}: game: the position is for {position.game!r}, not {game.info.id!r}")
    try:
        match = Match.from_position(game, position, source=str(path))
    except DataError:
        raise
    except TabletopError as exc:
        raise DataError(f"{path}: the position does not set up: {exc}") from None
    broken = game.invariants(match)
    if broken:
        raise DataError(f"{path}: the position breaks {'; '.join(broken[:3])}")
    waiting = match.pending.prompt if match.pending is not None else "the game is over"
    return f"{path}: ok (Position of {game.info.id} at {position.start}: {waiting})"


def _models_of_folder_game(path: Path) -> dict[str, type[BaseModel]]:
    """The data models of the game whose ``data/`` folder holds ``path`` (none if it is not
    in one, or if that game does not load)."""
    folder = path.resolve().parent
    package = folder.parent
    if folder.name != "data" or not (package / "__init__.py").is_file():
        return {}
    from ..engine.registry import load_game

    try:
        return load_game(str(package)).data_models()
    except TabletopError:
        return {}


def _build(spec: BaseModel, source: str) -> None:
    """Build the runtime object too, for the checks that need geometry (adjacent hexsides...)."""
    if isinstance(spec, HexMapSpec):
        from ..board.hexmap import HexMap

        HexMap.from_spec(spec, source=source)
    elif isinstance(spec, AreaMapSpec):
        from ..board.areamap import AreaMap

        AreaMap.from_spec(spec)


def check_openings(game: Game) -> list[str]:
    """Set up every scenario as ``play`` would and run its checks (:func:`check_opening`):
    what a match refuses at its start is refused here, one line naming the scenario."""
    from ..engine.match import Match

    lines: list[str] = []
    for scenario in game.info.scenarios:
        try:
            match = Match(game, scenario=scenario.id, seed=0)
        except DataError:
            raise
        except TabletopError as exc:
            raise DataError(f"{data_source(game)}: scenario {scenario.id}: the set-up fails: "
                            f"{exc}") from None
        lines.append(f"{game.info.id}: scenario {scenario.id}: sets up ({len(match.state.pieces)} "
                     f"pieces), invariants hold")
    return lines


def validate_path(target: str) -> list[str]:
    """Validate a game (registered name or package folder) or one data file.

    For a game, its ``game.toml`` (when it has one) is checked against its GameInfo, each
    file in its ``data/`` folder against its model, then the game's own loader
    (``Game.load_data``) cross-checks them and its declared AI (``ai.yaml``: the hooks it
    names, the bots' priorities) is checked (:func:`~.opening.check_game_data`), then every
    scenario is set up as ``play`` would and the game's invariants are checked; the first
    problem raises a DataError naming the file, the path inside it and what was expected.
    """
    path = Path(target)
    if path.is_file():
        return [validate_file(path)]
    from ..engine.registry import INFO_FILE, check_info_file, info_file_of, load_game

    game = load_game(target)
    folder = game.data_dir()
    if folder is None or not folder.is_dir():
        raise TabletopError(f"game {game.info.id} has no data folder")
    extra = game.data_models()
    info = info_file_of(target)
    lines = [check_info_file(game, info) if info is not None else
             f"{game.info.id}: no {INFO_FILE} (tabletop list imports the game to list it)"]
    files = sorted(p for p in folder.rglob("*") if p.suffix in DATA_SUFFIXES)
    if not files:
        lines.append(f"{folder}: no data files yet")
    for p in files:
        lines.append(validate_file(p, extra))
    lines.extend(check_game_data(game))
    if game.info.playable:
        lines.extend(check_openings(game))
    return lines


def game_models(game: Game) -> dict[str, type[BaseModel]]:
    """The models ``tabletop schema GAME`` prints: the core's, and the game's own data files'
    by file name."""
    return {**data_models(), **{name: model for name, model in sorted(game.data_models().items())}}
