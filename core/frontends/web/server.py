"""Running the web application: ``tabletop serve`` on uvicorn, bound to this machine by default.

The games named on the command line (folders, ``module:attr`` or installed names) are loaded
here, once, and with the installed games make the server's catalogue; a request can name no
other (see :mod:`.catalogue`). The server answers only to its own names (see :mod:`.guard`).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from ...engine.errors import TabletopError
from ...engine.match import Game
from ...engine.registry import load_game
from ..terminal import autosave_dir
from .guard import own_names
from .rooms import WebError

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")


def default_data_dir() -> Path:
    """Where matches are saved unless ``--data`` says otherwise: ``web/`` beside the
    terminal's autosaves ($TABLETOP_HOME, else $XDG_STATE_HOME/tabletop)."""
    return autosave_dir() / "web"


def load_games(names: Sequence[str]) -> dict[str, Game]:
    """The games named on the command line (registered names, modules or folders), by id."""
    games: dict[str, Game] = {}
    for name in names:
        game = load_game(name)
        if not game.info.playable:
            raise TabletopError(f"game {game.info.id} is not playable yet")
        games[game.info.id] = game
    return games


def _check_free(host: str, port: int) -> None:
    """Refuse at once, in one line, an address this machine cannot listen on."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise TabletopError(f"cannot listen on {host}:{port}: {exc}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise TabletopError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve(names: Sequence[str], *, host: str, port: int, data_dir: str | None,
          echo: object = print, allow: Sequence[str] = ()) -> None:
    """Start the server and block until it is stopped (Ctrl-C: one line, "stopped").

    ``allow`` names the other host names (``host`` or ``host:port``) the server answers to,
    besides the loopback names and the address it is bound to: the name or address other
    machines reach it by when it listens on all addresses."""
    say = echo if callable(echo) else print
    # Ctrl-C (SIGINT) or a service manager's SIGTERM: uvicorn stops serving, then passes the
    # signal on to the handler in place before it started, which ends the wait here
    on_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if on_main else None
    try:
        with contextlib.suppress(KeyboardInterrupt, Terminated):
            _serve(names, host=host, port=port, data_dir=data_dir, say=say, allow=allow)
    finally:
        if on_main:
            signal.signal(signal.SIGTERM, previous)
    say("tabletop serve: stopped")


class Terminated(BaseException):
    """A SIGTERM asked the server to stop (raised, like KeyboardInterrupt, once it has)."""


def _terminated(signum: int, frame: object) -> None:
    raise Terminated


def _serve(names: Sequence[str], *, host: str, port: int, data_dir: str | None,
           say: Callable[[str], object], allow: Sequence[str]) -> None:
    import uvicorn

    from .app import create_app

    if not 1 <= port <= 65535:  # not 0 either: the server must know the port it answers on
        raise TabletopError(f"--port {port} is not a port number (1-65535)")
    try:
        hosts = own_names(host, port, allow)
    except WebError as exc:
        raise TabletopError(str(exc)) from None
    games = load_games(names)
    _check_free(host, port)
    folder = Path(data_dir) if data_dir else default_data_dir()
    app = create_app(folder, games, hosts=hosts)
    shown = f"[{host}]" if ":" in host else host
    say(f"tabletop serve: http://{shown}:{port}/  (matches saved in {folder}; Ctrl-C stops)")
    if host not in LOCAL_HOSTS:
        say(f"warning: listening on {host}: anyone who can reach this address can start matches; "
            f"seats still need their own links")
    if host in WILDCARDS and not allow:
        say(f"note: other machines must reach it by a name given with --allow-host (it answers "
            f"only to {', '.join(hosts)})")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    server.run()
