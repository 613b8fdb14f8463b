"""Finding games: the ``tabletop.games`` entry points, a ``module:attr`` path, or a folder.

Third parties register a game by declaring an entry point in that group; ``tabletop list``
then shows it.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from .agents import BUILTIN_AGENTS, Agent
from .errors import TabletopError, UnknownGame
from .match import Game

GROUP = "tabletop.games"


def registered() -> dict[str, EntryPoint]:
    """The games declared in the entry-point group, by name."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def _check(obj: object, where: str, source: str = "") -> Game:
    if isinstance(obj, type) and issubclass(obj, Game):
        obj = obj()
    if not isinstance(obj, Game):
        raise UnknownGame(f"{where} is not a tabletop Game (a Game subclass or instance expected)")
    if source:
        obj.source = source  # how to load it again, written into records of unregistered games
    return obj


def load_game(name: str) -> Game:
    """The game called ``name``: a registered name, ``package.module:attr``, or a folder path.

    A folder is a game package (with ``__init__.py`` defining ``GAME``); its parent folder
    is put on the import path so a designer can play a game before packaging it.
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
    path = Path(name)
    if path.is_dir() and (path / "__init__.py").is_file():
        parent = str(path.resolve().parent)
        if parent not in sys.path:
            sys.path.insert(0, parent)
        return _check(_import_attr(path.resolve().name, "GAME"), name, str(path.resolve()))
    if ":" in name:
        module, _, attr = name.partition(":")
        return _check(_import_attr(module, attr), name, name)
    known = ", ".join(sorted(games)) or "none"
    raise UnknownGame(f"no game {name!r} (registered games: {known}; or give module:attr "
                      f"or a game package folder)")


def _import_attr(module: str, attr: str) -> Game:
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.append(str(Path.cwd()))  # let a designer name a module of the folder they work in
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise UnknownGame(f"cannot import {module!r}: {exc}") from None
    try:
        obj = getattr(mod, attr)
    except AttributeError:
        raise UnknownGame(f"module {module!r} has no {attr!r}") from None
    return _check(obj, f"{module}:{attr}")


def make_agent(game: Game, side: str, name: str, seed: int) -> Agent:
    """Build the agent called ``name`` for a side: a game bot or a built-in one."""
    if side not in game.info.players:
        raise TabletopError(f"game {game.info.id} has no side {side!r} "
                            f"(sides: {', '.join(game.info.players)})")
    bots = game.bots()
    if name in bots:
        return bots[name](side, seed)
    if name in BUILTIN_AGENTS:
        return BUILTIN_AGENTS[name](side, seed)
    known = ", ".join(sorted({*bots, *BUILTIN_AGENTS, "human"}))
    raise TabletopError(f"no agent {name!r} for {game.info.id} (agents: {known})")
