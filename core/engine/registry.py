"""Finding games: the ``tabletop.games`` entry points, a ``module:attr`` path, or a folder.

What a person types names a game (:func:`load_game`); what a record or save says never
chooses the code that runs: :func:`game_for_record` finds a record's game by its id among
the installed games and the game folders the person named (``--game-dir``).

Third parties register a game by declaring an entry point in that group; ``tabletop list``
then shows it. ``tabletop list`` reads each game's ``game.toml`` (its id, title and whether it
is playable, declared next to the game's ``__init__.py``) rather than importing the game, so
that listing stays fast however many games are installed; a game without one is imported.

This module imports no game and none of the engine's heavy modules until a game is loaded.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import DataError, SaveError, TabletopError, UnknownGame

if TYPE_CHECKING:
    from .agents import Agent
    from .match import Game

GROUP = "tabletop.games"
INFO_FILE = "game.toml"
"""The file in a game package that declares what ``tabletop list`` shows (see :class:`Listing`)."""


def registered() -> dict[str, EntryPoint]:
    """The games declared in the entry-point group, by name."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def _check(obj: object, where: str, source: str = "") -> Game:
    from .match import Game

    if isinstance(obj, type) and issubclass(obj, Game):
        obj = obj()
    if not isinstance(obj, Game):
        raise UnknownGame(f"{where} is not a tabletop Game (a Game subclass or instance expected)")
    if source:
        obj.source = source  # how the person named it (simulate's workers load it so again)
    return obj


def load_game(name: str) -> Game:
    """The game called ``name`` as a person typed it: a registered name, a folder path, or
    ``package.module:attr``.

    A folder is a game package (with ``__init__.py`` defining ``GAME``); its parent folder
    is put on the import path so a designer can play a game before packaging it. A
    ``module:attr`` is imported from the import path as it is: the current folder is not
    added to it (run ``PYTHONPATH=. tabletop ...`` to name a module of the folder you are in).
    Never call this with a name read from a record or a request: see :func:`game_for_record`.
    """
    games = registered()
    if name in games:
        try:
            game = _check(games[name].load(), f"entry point {name!r}")
        except ImportError as exc:
            raise UnknownGame(f"game {name!r} failed to import: {exc}") from None
        if game.info.id != name:
            # records name a game by its id and are replayed by looking that name up
            raise UnknownGame(f"entry point {name!r} provides game {game.info.id!r}: "
                              f"the entry-point name must equal GameInfo.id")
        return game
    if _is_game_dir(Path(name)):
        return load_game_dir(name)
    if ":" in name:
        module, _, attr = name.partition(":")
        return _check(_import_attr(module, attr), name, name)
    known = ", ".join(sorted(games)) or "none"
    raise UnknownGame(f"no game {name!r} (registered games: {known}; or give module:attr "
                      f"or a game package folder)")


def _is_game_dir(path: Path) -> bool:
    """Whether ``path`` is a game package folder; False for a name the system cannot take as
    a path (too long, a NUL byte), which then reads as no game."""
    try:
        return path.is_dir() and (path / "__init__.py").is_file()
    except (OSError, ValueError):
        return False


def load_game_dir(folder: str | Path) -> Game:
    """The game of a game package folder a person named (``__init__.py`` defining ``GAME``);
    its parent folder is put first on the import path."""
    path = Path(folder)
    if not _is_game_dir(path):
        raise UnknownGame(f"{folder}: not a game folder (a package folder whose __init__.py "
                          "defines GAME)")
    resolved = path.resolve()
    parent = str(resolved.parent)
    if parent not in sys.path:
        sys.path.insert(0, parent)
    return _check(_import_attr(resolved.name, "GAME"), str(folder), str(resolved))


def game_for_record(header: Mapping[str, Any], game_dirs: Iterable[str | Path] = (), *,
                    loaded: Iterable[Game] = ()) -> Game:
    """The game a record's header names by its id (``header["game"]``), found only where the
    person running tabletop allows: ``loaded`` games (a server's), the game folders they
    named (``--game-dir``), then the installed games (entry points).

    Nothing else in the header (a ``source``, a module path) is ever imported: a record
    downloaded beside a ``.py`` file cannot run it. UnknownGame says to pass ``--game-dir``
    when the game is not found.
    """
    game_id = header.get("game")
    if not isinstance(game_id, str) or not game_id:
        raise SaveError("header: 'game' must name the game by its id")
    for game in loaded:
        if game.info.id == game_id:
            return game
    seen: list[str] = []
    for folder in game_dirs:
        game = load_game_dir(folder)
        if game.info.id == game_id:
            return game
        seen.append(f"{folder} is {game.info.id!r}")
    ep = registered().get(game_id)
    if ep is not None:
        return load_game(game_id)
    named = f" ({'; '.join(seen)})" if seen else ""
    raise UnknownGame(f"the record is for game {game_id!r}, which is not installed nor in a "
                      f"--game-dir given{named}: if it is a game folder, pass "
                      f"--game-dir FOLDER")


def _import_attr(module: str, attr: str) -> Game:
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise UnknownGame(f"cannot import {module!r}: {exc}") from None
    try:
        obj = getattr(mod, attr)
    except AttributeError:
        hint = (f": a game package exports its game as {attr} (e.g. `{attr} = MyGame()` at "
                f"the end of its __init__.py)") if attr == "GAME" else ""
        raise UnknownGame(f"module {module!r} has no {attr!r}{hint}") from None
    return _check(obj, f"{module}:{attr}")


def make_agent(game: Game, side: str, name: str, seed: int) -> Agent:
    """Build the agent called ``name`` for a side: a game bot or a built-in one.

    A built-in agent that plays on the game (the search agent) takes options after a
    colon, ``mcts:playouts=400,seconds=0.5``, over the game's own (its ``ai.yaml``'s
    ``search``); a bad option is one message naming it."""
    from .agents import BUILTIN_AGENTS
    from .search import SearchAgent, is_search, parse_options

    if side not in game.info.players:
        raise TabletopError(f"game {game.info.id} has no side {side!r} "
                            f"(sides: {', '.join(game.info.players)})")
    bots = game.bots()
    if name in bots:
        return bots[name](side, seed)
    if name in BUILTIN_AGENTS:
        return BUILTIN_AGENTS[name](side, seed)
    if is_search(name):
        from .ai import ai_of

        return SearchAgent(game, side, seed, parse_options(name, ai_of(game).spec.search))
    base, colon, _ = name.partition(":")
    if colon and (base in bots or base in BUILTIN_AGENTS):
        raise TabletopError(f"agent {base!r} takes no options ({name!r}); the search agent "
                            "does (mcts:playouts=400,seconds=0.5)")
    known = ", ".join(sorted(agent_names(game)))
    raise TabletopError(f"no agent {name!r} for {game.info.id} (agents: {known})")


def agent_names(game: Game) -> set[str]:
    """The names of every agent that may play a side of ``game``: its bots, the built-in
    agents and ``human`` (a person at the terminal)."""
    from .agents import BUILTIN_AGENTS
    from .search import NAME

    return {*game.bots(), *BUILTIN_AGENTS, NAME, "human"}


@dataclass(frozen=True, slots=True)
class Listing:
    """What ``tabletop list`` shows of a game: its id, title, and whether it is playable.

    Each field is the :class:`~tabletop.core.engine.match.GameInfo` field of the same name. A game
    declares them in the ``game.toml`` of its package (:data:`INFO_FILE`)::

        id = "skirmish"
        title = "Skirmish at Hill 50"
        playable = true          # optional; true when left out, as in GameInfo

    so that they are read without importing the game; :func:`check_info_file` (run by
    ``tabletop validate GAME``) checks that the file says what the game's ``GameInfo`` says.
    """

    id: str
    title: str
    playable: bool = True

    @classmethod
    def of(cls, game: Game) -> Listing:
        """The listing of an imported game, from its GameInfo."""
        info = game.info
        return cls(**{f.name: getattr(info, f.name) for f in fields(cls)})


def read_info_file(path: Path) -> Listing:
    """The :class:`Listing` a ``game.toml`` declares, or a DataError naming the file and the key."""
    import tomllib

    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise DataError(f"{path}: cannot read file ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: not valid TOML: {exc}") from None
    kinds = {"id": str, "title": str, "playable": bool}  # the fields of Listing
    for key in data:
        if key not in kinds:
            raise DataError(f"{path}: {key}: unknown key (keys: {', '.join(kinds)})")
    for key, kind in kinds.items():
        if key not in data:
            if key == "playable":
                continue  # optional, true by default as in GameInfo
            raise DataError(f"{path}: {key}: missing (GameInfo.{key}, a string)")
        if not isinstance(data[key], kind):
            raise DataError(f"{path}: {key}: expected {'true or false' if kind is bool else 'a string'}, "
                            f"got {data[key]!r}")
    return Listing(**data)


def info_file(ep: EntryPoint) -> Path | None:
    """The ``game.toml`` of the package an entry point names, found without importing the
    package (only its parent packages); None when the module is not a package or has none."""
    try:
        spec = importlib.util.find_spec(ep.module)
    except (ImportError, ValueError):
        return None  # the import itself will say what is wrong
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / INFO_FILE
        if path.is_file():
            return path
    return None


def info_file_of(target: str) -> Path | None:
    """The ``game.toml`` of a game named as ``load_game`` accepts it (a registered name or a
    package folder), or None (none declared, or a ``module:attr`` name)."""
    ep = registered().get(target)
    if ep is not None:
        return info_file(ep)
    path = Path(target) / INFO_FILE
    return path if path.is_file() else None


def listing(name: str, ep: EntryPoint | None = None) -> Listing:
    """What ``tabletop list`` shows of the registered game ``name``: its ``game.toml`` when the
    package has one (the game is not imported), else the GameInfo of the imported game.

    Raises UnknownGame (or DataError for a broken ``game.toml``) with one clear message.
    """
    if ep is None:
        ep = registered().get(name)
        if ep is None:
            raise UnknownGame(f"no registered game {name!r}")
    path = info_file(ep)
    if path is None:
        return Listing.of(load_game(name))
    entry = read_info_file(path)
    if entry.id != name:
        # the same rule load_game applies to GameInfo.id
        raise UnknownGame(f"{path} declares game {entry.id!r} for entry point {name!r}: "
                          f"the entry-point name must equal the id")
    return entry


def check_info_file(game: Game, path: Path) -> str:
    """Check that a ``game.toml`` says what the game's GameInfo says (raises DataError naming
    each field that differs); returns what was checked, in words."""
    declared, actual = read_info_file(path), Listing.of(game)
    wrong = [f"{f.name}: the file says {getattr(declared, f.name)!r}, GameInfo.{f.name} is "
             f"{getattr(actual, f.name)!r}" for f in fields(Listing)
             if getattr(declared, f.name) != getattr(actual, f.name)]
    if wrong:
        raise DataError(f"{path}: " + "; ".join(wrong))
    return f"{path}: agrees with the game's GameInfo ({', '.join(f.name for f in fields(Listing))})"
