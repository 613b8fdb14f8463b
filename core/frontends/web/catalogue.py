"""The games a server offers: its catalogue, and the only place a request's game is found.

The catalogue is fixed when the server starts: the games named on its command line (already
loaded, by their id) and the installed games (the ``tabletop.games`` entry points, by name,
imported on first use). A request names a game by its id alone. Nothing a request carries — a
new match's ``game``, a record's or save's ``header.game`` or ``header.source``, a rows line's
``game`` — is ever imported, read as a folder or as a ``module:attr`` path: a name outside the
catalogue is refused (404) with the list of the games served.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from importlib.metadata import EntryPoint
from typing import Any

from ...engine.match import Game
from ...engine.registry import registered
from .rooms import WebError


class Catalogue:
    """The games of one server, by id: those it was given, then the installed ones."""

    def __init__(self, given: Mapping[str, Game] | None = None) -> None:
        self.given = {game.info.id: game for game in (given or {}).values()}
        self._installed: dict[str, EntryPoint] = {name: ep for name, ep in sorted(registered().items())
                                                  if name not in self.given}
        self._loaded: dict[str, Game] = {}
        self._lock = threading.Lock()

    def ids(self) -> list[str]:
        """Every game id served: those given on the command line first, then the installed."""
        return [*self.given, *self._installed]

    def get(self, name: Any) -> Game:
        """The game with this id; anything else (a path, a module, another id) is a 404."""
        if isinstance(name, str):
            if name in self.given:
                return self.given[name]
            if name in self._installed:
                return self._load(name)
        shown = name if isinstance(name, str) and len(name) <= 80 else "that"
        raise WebError(f"no game {shown!r} on this server: it serves {', '.join(self.ids()) or 'none'} "
                       f"(start `tabletop serve FOLDER` to add a game from its folder)", 404)

    def of_header(self, header: Any) -> Game:
        """The game of a record's or save's header, by its ``game`` id (never its ``source``)."""
        if not isinstance(header, Mapping) or not isinstance(header.get("game"), str):
            raise WebError("the header of the record or save must name its game ('game')")
        return self.get(header["game"])

    def listed(self) -> list[Game]:
        """The games the home page lists: every game served that loads."""
        out = list(self.given.values())
        for name in self._installed:
            try:
                out.append(self._load(name))
            except WebError:
                continue  # a broken installed game is left off the list; asked for, it says why
        return out

    def _load(self, name: str) -> Game:
        with self._lock:
            game = self._loaded.get(name)
            if game is not None:
                return game
            try:
                obj = self._installed[name].load()
                if isinstance(obj, type) and issubclass(obj, Game):
                    obj = obj()
                valid = isinstance(obj, Game) and obj.info.id == name
            except Exception as exc:  # an installed package that fails to import or build
                raise WebError(f"installed game {name!r} cannot be loaded: "
                               f"{type(exc).__name__}: {exc}", 500) from None
            if not valid or not isinstance(obj, Game):
                raise WebError(f"installed game {name!r} is not a tabletop Game whose id is {name!r}",
                               500)
            self._loaded[name] = obj
            return obj
