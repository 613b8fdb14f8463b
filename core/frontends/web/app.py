"""The web application: pages, the JSON API, and the rules of who may see and do what.

Pages are static files (plain ES modules, no build step) that call the JSON API below.
A seat proves itself with its token (header ``X-Seat``, or ``?seat=`` on a download link);
every answer about a match is drawn for that seat's side alone (see :mod:`.seeing`). Every
request first passes :mod:`.guard` (the server's own Host; changes only as JSON from its own
origin; bounded bodies), and names a game only by its id in the :mod:`.catalogue`.

    GET  /api/games                          the games, their scenarios, options, sides, bots
    POST /api/matches                        start a match: game, scenario, seed, options, sides
    POST /api/matches/resume                 resume a save file: save, sides
    GET  /api/matches/{id}[?known=V]         the match as the seat sees it ({"unchanged"} at V)
    POST /api/matches/{id}/decide            take an option: index, value, version
    POST /api/matches/{id}/route          move by destination: to (a place of the decision's
                                             routes), version; the server answers each step
    POST /api/matches/{id}/bot               the game's bot decides for the seat: version, scope
                                             ("one": this decision; "phase": until the phase ends)
    POST /api/matches/{id}/undo              undo back to the seat's previous decision: version
         (these four take ?since=N&log=KEY: only the log's events from N on, see log_json;
          and ?picture=KEY: only the board's layers over the picture the page holds, see
          picture_json)
    GET  /api/matches/{id}/status            score, tracks, victory, description
    GET  /api/matches/{id}/record|save       download (only when no other person would learn from it)
    POST /api/replays                        open a record (record) or a study's row (row, game, ...)
    GET  /api/replays/{id}?step=N&side=S     a step of a replay, from a side's view or everyone's
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...board.render.svg import Picture
from ...engine.agents import BUILTIN_AGENTS
from ...engine.canonical import JSON
from ...engine.errors import TabletopError
from ...engine.match import Game, Match
from ...engine.record import make_record, make_save, replay
from ...engine.search import NAME as SEARCH
from . import seeing
from .catalogue import Catalogue
from .guard import HostGuard, authority, read_json
from .replays import ReplayStore
from .rooms import HERE, Room, RoomStore, Seat, WebError, sides_plan

STATIC = Path(str(files("tabletop.core.frontends.web").joinpath("static")))

Handler = Callable[[Request], Awaitable[Response]]


def game_json(game: Game) -> dict[str, JSON]:
    """A game as the home page lists it."""
    info = game.info
    bots = sorted({*game.bots(), *BUILTIN_AGENTS, SEARCH}) if info.playable else []
    return {
        "id": info.id, "title": info.title, "version": info.version,
        "players": list(info.players), "playable": info.playable, "solitaire": info.solitaire,
        "human_side": info.human_side or info.players[0], "description": info.description,
        "rulebook": info.rulebook,
        "default_bots": {s: game.default_bot(s) for s in info.players} if info.playable else {},
        "scenarios": [{"id": s.id, "name": s.name, "description": s.description,
                       "automatic": list(s.automatic)} for s in info.scenarios],
        "starter_scenario": info.starter_scenario or info.scenarios[0].id,
        "options": [{"id": o.id, "description": o.description, "default": o.default,
                     "choices": list(o.choices),
                     "labels": [o.label_of(c) for c in o.choices]} for o in info.options],
        "bots": bots,
    }


class WebApp:
    """The server's state: the games offered, the rooms and the replays."""

    def __init__(self, data_dir: str | Path, games: Mapping[str, Game] | None = None) -> None:
        self.games = Catalogue(games)
        self.rooms = RoomStore(data_dir, self.games)
        self.replays = ReplayStore(self.rooms)

    # -- games --------------------------------------------------------------------------
    def catalogue(self) -> list[dict[str, JSON]]:
        """The games given on the command line first, then every installed one."""
        return [game_json(g) for g in self.games.listed()]

    # -- matches ------------------------------------------------------------------------
    def start(self, body: Mapping[str, Any]) -> dict[str, JSON]:
        """Start a match from the home page's form."""
        name = body.get("game")
        if not isinstance(name, str) or not name:
            raise WebError("name the game to play ('game')")
        game = self.games.get(name)
        seed = body.get("seed")
        if seed in (None, ""):
            seed = secrets.randbelow(10**6)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise WebError(f"the seed must be a whole number, not {seed!r}")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise WebError("options must be a JSON object of option id -> value")
        plan = sides_plan(game, _mapping(body.get("sides"), "sides"))
        match = Match(game, scenario=body.get("scenario") or None, seed=seed, options=options)
        return self._created(self.rooms.create(match, plan))

    def resume(self, body: Mapping[str, Any]) -> dict[str, JSON]:
        """Resume a save (or record) file as a new match on this server."""
        save = body.get("save")
        if not isinstance(save, dict) or not isinstance(save.get("header"), dict) \
                or not isinstance(save.get("decisions"), list):
            raise WebError("not a tabletop save or record: a JSON object with 'header' and "
                           "'decisions' is expected")
        game = self.games.of_header(save["header"])
        try:
            match = replay(game, save)
        except TabletopError as exc:
            raise WebError(f"this save does not resume: {exc}") from None
        if match.finished:
            raise WebError("this match is over; open it in the replay viewer instead")
        plan = sides_plan(game, _mapping(body.get("sides"), "sides"))
        return self._created(self.rooms.create(match, plan))

    def _created(self, room: Room) -> dict[str, JSON]:
        return {"id": room.id, "seats": [_seat_link(room, s) for s in room.seats]}

    def state(self, room: Room, seat: Seat, since: int | None = None,
              key: str | None = None, held: str | None = None) -> dict[str, JSON]:
        """The match as ``seat`` sees it now; its log from ``since`` on when the page's copy
        (``key``) is current (see :func:`log_json`), its board as layers alone when the page
        holds a picture with the same fixed part (``held``, see :func:`picture_json`)."""
        match = room.match
        side = room.side_for(seat)
        picture = room.picture(side)
        pending = match.pending
        decision: JSON = None
        if pending is not None:
            if pending.player == side:
                decision = seeing.pending_json(match, side, seeing.picture_targets(picture))
            else:
                decision = {"player": pending.player, "section": pending.section}
        info = match.game.info
        out: dict[str, JSON] = {
            "id": room.id, "version": room.version, "game": info.id, "title": info.title,
            "scenario": info.scenario(match.scenario).name, "players": list(info.players),
            "who": room.who(), "seat": {"sides": list(seat.sides), "kind": seat.kind}, "side": side,
            "turn": match.state.turn, "phase": match.state.phase,
            "phase_name": match.game.phase_name(match.state.phase) if match.state.phase else "",
            **picture_json(picture, held), "pending": decision,
            "your_turn": pending is not None and pending.player in seat.sides,
            "result": match.result.to_json() if match.result else None,
            **log_json(room, side, since, key),
            "can_undo": room.undo_steps(seat) > 0, "can_download": room.can_download(seat),
            "decisions": len(match.decisions),
        }
        if seat.kind == HERE:  # the person who started the match hands out the other seats
            out["links"] = [_seat_link(room, s) for s in room.seats if s is not seat]
        return out


def log_json(room: Room, side: str, since: int | None, key: str | None) -> dict[str, JSON]:
    """The side's log for a page that holds its events before ``since`` under ``key`` (the
    ``log_next`` and ``log_key`` of its last answer): only the events from ``since`` on, or,
    when it holds none or a stale copy (another key: an undo cut the log back, the server
    restarted, the seat now sees another side), the whole log. ``log_from`` says which (0:
    the whole log); ``log_next`` and ``log_key`` are for the next request. ``log_next`` is the
    number after the last event sent, not the log's length, which would count the events
    hidden from the side since."""
    now = room.log_key(side)
    ok = since is not None and key == now and 0 <= since <= len(room.match.log)
    start = since if ok and since is not None else 0
    events = seeing.visible_events(room.match, side, start)
    game = room.match.game
    return {"log": [seeing.event_json(e, game) for e in events], "log_from": start,
            "log_next": events[-1].seq + 1 if events else start, "log_key": now}


def picture_json(picture: Picture, held: str | None) -> dict[str, JSON]:
    """The board for a page that holds the picture named ``held`` (the ``picture`` of an
    earlier answer, None: none): when it is this picture's fixed part (the same map), only
    the layers drawn over it (``layers``: name -> the elements of its ``<g data-layer>``) and
    the picture's ``size``; else the whole SVG (``svg``). ``picture`` names the fixed part."""
    if held == picture.key:
        return {"picture": picture.key, "layers": dict(picture.layers), "size": list(picture.size)}
    return {"picture": picture.key, "svg": picture.svg()}


def _seat_link(room: Room, seat: Seat) -> dict[str, JSON]:
    return {"sides": list(seat.sides), "kind": seat.kind, "url": f"/play/{room.id}?seat={seat.token}"}


def _mapping(value: Any, what: str) -> Mapping[str, Any] | None:
    if value is None or isinstance(value, dict):
        return value
    raise WebError(f"{what} must be a JSON object")


def _log_params(request: Request) -> tuple[int | None, str | None, str | None]:
    """What the page holds: the log's events before ``since`` under the key ``log``, and the
    picture named ``picture`` (see :func:`picture_json`)."""
    since = request.query_params.get("since")
    return ((None if since is None else _int(since, "since")), request.query_params.get("log"),
            request.query_params.get("picture"))


def _token(request: Request) -> str | None:
    return request.headers.get("x-seat") or request.query_params.get("seat")


def _needs(body: Mapping[str, Any], *fields: str) -> None:
    """Refuse a body that lacks one of ``fields``, naming it."""
    for name in fields:
        if name not in body:
            raise WebError(f"the request is missing {name!r} (a JSON object with "
                           f"{', '.join(repr(f) for f in fields)} is expected)")


def _guard(handler: Handler) -> Handler:
    """Answer every refusal as ``{"error": message}`` with its status, never a traceback."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except WebError as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        except TabletopError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except Exception as exc:  # a bug: one line for the page, the match untouched or saved
            return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"},
                                status_code=500)

    return wrapped


def create_app(data_dir: str | Path, games: Mapping[str, Game] | None = None, *,
               hosts: Iterable[str]) -> Starlette:
    """The Starlette application serving matches saved in ``data_dir``, offering the
    installed games and ``games`` (e.g. a designer's game loaded from a folder), answering
    only requests addressed to one of ``hosts`` (``host`` or ``host:port``, port 80 when
    left out, as a browser's Host header leaves it out; see :mod:`.guard`)."""
    allowed = set()
    for name in hosts:
        found = authority(name)
        if found is None:
            raise WebError(f"{name!r} is not a host name or address (with a port)")
        allowed.add(found)
    web = WebApp(data_dir, games)

    def page(name: str) -> Handler:
        async def serve(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})

        return serve

    async def games_list(request: Request) -> Response:
        return JSONResponse({"games": await run_in_threadpool(web.catalogue)})

    async def start(request: Request) -> Response:
        body = await read_json(request)
        return JSONResponse(await run_in_threadpool(web.start, body), status_code=201)

    async def resume(request: Request) -> Response:
        body = await read_json(request)
        return JSONResponse(await run_in_threadpool(web.resume, body), status_code=201)

    def _room_seat(request: Request) -> tuple[Room, Seat]:
        room = web.rooms.get(request.path_params["mid"])
        return room, room.seat(_token(request))

    async def state(request: Request) -> Response:
        held = _log_params(request)

        def work() -> dict[str, JSON]:
            room, seat = _room_seat(request)
            with room.lock:
                known = request.query_params.get("known")
                if known is not None and known == str(room.version):
                    return {"unchanged": True, "version": room.version}
                return web.state(room, seat, *held)

        return JSONResponse(await run_in_threadpool(work), headers={"Cache-Control": "no-store"})

    async def decide(request: Request) -> Response:
        body = await read_json(request)
        held = _log_params(request)

        _needs(body, "index", "value", "version")

        def work() -> dict[str, JSON]:
            room, seat = _room_seat(request)
            with room.lock:
                before = room.version
                try:
                    room.decide(seat, body.get("index"), body.get("value"), body.get("version"))
                finally:
                    if room.version != before:  # saved even when a bot failed after the decision
                        web.rooms.save(room)
                return web.state(room, seat, *held)

        return JSONResponse(await run_in_threadpool(work))

    async def route(request: Request) -> Response:
        body = await read_json(request)
        held = _log_params(request)

        _needs(body, "to", "version")

        def work() -> dict[str, JSON]:
            room, seat = _room_seat(request)
            with room.lock:
                before = room.version
                try:
                    room.route(seat, body.get("to"), body.get("version"))
                finally:
                    if room.version != before:  # saved even when a bot failed after the move
                        web.rooms.save(room)
                return web.state(room, seat, *held)

        return JSONResponse(await run_in_threadpool(work))

    async def bot(request: Request) -> Response:
        body = await read_json(request)
        held = _log_params(request)

        _needs(body, "version", "scope")

        def work() -> dict[str, JSON]:
            room, seat = _room_seat(request)
            with room.lock:
                before = room.version
                try:
                    room.bot_decides(seat, body.get("version"), body.get("scope"))
                finally:
                    if room.version != before:
                        web.rooms.save(room)
                return web.state(room, seat, *held)

        return JSONResponse(await run_in_threadpool(work))

    async def undo(request: Request) -> Response:
        body = await read_json(request)
        held = _log_params(request)

        _needs(body, "version")

        def work() -> dict[str, JSON]:
            room, seat = _room_seat(request)
            with room.lock:
                room.undo(seat, body.get("version"))
                web.rooms.save(room)
                return web.state(room, seat, *held)

        return JSONResponse(await run_in_threadpool(work))

    async def status(request: Request) -> Response:
        def work() -> dict[str, JSON]:
            room, seat = _room_seat(request)
            with room.lock:
                return seeing.status_json(room.match, room.side_for(seat))

        return JSONResponse(await run_in_threadpool(work))

    def download(kind: str) -> Handler:
        async def serve(request: Request) -> Response:
            def work() -> Response:
                room, seat = _room_seat(request)
                with room.lock:
                    if not room.can_download(seat):
                        raise WebError("the record holds every hidden move of the other side: it can "
                                       "be downloaded when the match is over", 403)
                    data = make_save(room.match) if kind == "save" else make_record(room.match)
                name = f"{room.match.game.info.id}-{room.id}-{kind}.json"
                return Response(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                media_type="application/json",
                                headers={"Content-Disposition": f'attachment; filename="{name}"'})

            return await run_in_threadpool(work)

        return serve

    async def open_replay(request: Request) -> Response:
        body = await read_json(request)

        def work() -> dict[str, JSON]:
            if "record" in body:
                rep = web.replays.open_record(body["record"])
            elif "row" in body:
                rep = web.replays.open_row(body["row"], body.get("game"), body.get("scenario"),
                                           body.get("options"), body.get("agents"))
            else:
                raise WebError("give a 'record' (a record or save file) or a 'row' (a study's rows line)")
            return {"id": rep.id, "total": rep.total}

        return JSONResponse(await run_in_threadpool(work), status_code=201)

    async def replay_step(request: Request) -> Response:
        def work() -> dict[str, JSON]:
            rep = web.replays.get(request.path_params["rid"])
            raw = request.query_params.get("step", "")
            step = rep.total if raw == "" else _int(raw, "step")
            side = request.query_params.get("side") or None
            return rep.view(step, side)

        return JSONResponse(await run_in_threadpool(work))

    routes = [
        Route("/", _guard(page("index.html"))),
        Route("/play/{mid}", _guard(page("play.html"))),
        Route("/replay/{rid}", _guard(page("replay.html"))),
        Route("/api/games", _guard(games_list)),
        Route("/api/matches", _guard(start), methods=["POST"]),
        Route("/api/matches/resume", _guard(resume), methods=["POST"]),
        Route("/api/matches/{mid}", _guard(state)),
        Route("/api/matches/{mid}/decide", _guard(decide), methods=["POST"]),
        Route("/api/matches/{mid}/route", _guard(route), methods=["POST"]),
        Route("/api/matches/{mid}/bot", _guard(bot), methods=["POST"]),
        Route("/api/matches/{mid}/undo", _guard(undo), methods=["POST"]),
        Route("/api/matches/{mid}/status", _guard(status)),
        Route("/api/matches/{mid}/record", _guard(download("record"))),
        Route("/api/matches/{mid}/save", _guard(download("save"))),
        Route("/api/replays", _guard(open_replay), methods=["POST"]),
        Route("/api/replays/{rid}", _guard(replay_step)),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(HostGuard, hosts=frozenset(allowed))])
    app.state.web = web
    return app


def _int(raw: str, what: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise WebError(f"{what} must be a whole number, not {raw!r}") from None
