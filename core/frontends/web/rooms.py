"""Matches being played through the web: seats, bots, turns, undo, autosave.

A *room* holds one :class:`~tabletop.core.engine.match.Match` and says who plays each side: a
person at this browser (all such sides share one *here* seat: hot-seat), a person with a
seat link of their own (one seat per side), or a bot. Each seat has an unguessable token; a
decision is taken only from the seat whose side must decide, only against the version of the
match the page was drawn from, and only as one of the legal options — anything else is
refused with a clear message and changes nothing. After every change the room is saved
atomically (a JSON save from :mod:`tabletop.core.engine.record` plus the seats, its event log
appended to in a file beside it: :mod:`tabletop.core.engine.resume`), so a match survives a
browser reload and a server restart, which reads it back from its restore point without
replaying it, checked against the hashes it states.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...engine.agents import Agent
from ...engine.canonical import JSON, freeze
from ...engine.decisions import Decision
from ...engine.errors import SaveError, TabletopError
from ...engine.events import EventLog
from ...engine.match import Game, Match
from ...engine.record import atomic_write_text, check_record, make_save
from ...engine.registry import make_agent
from ...engine.resume import resumable_save, resume
from ...engine.routes import Followed, RouteError, follow

if TYPE_CHECKING:
    from ...board.render.svg import Picture
    from .catalogue import Catalogue

ROOM_FORMAT = "tabletop-web-match/1"
HERE = "here"  # a side played by a person at the browser that started the match
LINK = "link"  # a side played by a person with a seat link of their own
_ID = re.compile(r"^[0-9a-f]{8,32}$")
MAX_BOT_DECISIONS = 200_000  # a bound on bots answering in a row (a whole game is far less)


class WebError(TabletopError):
    """A request the web server refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Seat:
    """A person's place at the table: the sides they play and their secret token."""

    token: str
    sides: tuple[str, ...]
    kind: str  # HERE or LINK
    shown: str = ""  # the side whose view this seat was last shown (hot-seat)

    def to_json(self) -> dict[str, JSON]:
        """The seat as stored in the room file."""
        return {"token": self.token, "sides": list(self.sides), "kind": self.kind, "shown": self.shown}


@dataclass
class Room:
    """One match on the server, its seats and bots, behind a lock."""

    id: str
    match: Match
    seats: list[Seat]
    bots: dict[str, str]  # side -> bot name
    bot_seed: int
    version: int = 0  # bumped at every change; a page's decision must name the version it saw
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    _agents: dict[str, Agent] = field(default_factory=dict, repr=False)
    # the game's default bot a side, deciding for a person who asks it (bot_decides)
    _helpers: dict[str, Agent] = field(default_factory=dict, repr=False)
    _pictures: dict[str, tuple[int, Picture]] = field(default_factory=dict, repr=False)
    _log_mark: tuple[EventLog, str] | None = field(default=None, repr=False)
    # the moves by destination taken here: (decisions before, decisions after) each, so that
    # an undo takes a whole move back (kept in memory: after a restart, a step at a time)
    _route_marks: list[tuple[int, int]] = field(default_factory=list, repr=False)

    def picture(self, side: str) -> Picture:
        """The board as ``side`` sees it, drawn once per version of the match."""
        from .seeing import board_picture

        kept = self._pictures.get(side)
        if kept is None or kept[0] != self.version:
            kept = (self.version, board_picture(self.match, side))
            self._pictures[side] = kept
        return kept[1]

    def log_key(self, side: str) -> str:
        """A mark of the side's log as a page holds it, which the page sends back to be sent
        only the events after its copy: the same while the match's log only grows (decisions,
        bots); new when the log is replaced (an undo replays the match, a restarted server
        reads it back) or for another side, so a stale copy is never added to."""
        log = self.match.log
        if self._log_mark is None or self._log_mark[0] is not log:
            self._log_mark = (log, secrets.token_urlsafe(9))
        return f"{self._log_mark[1]}:{side}"

    # -- seats --------------------------------------------------------------------------
    def seat(self, token: str | None) -> Seat:
        """The seat with this token; a missing, stale or forged token is refused (403)."""
        if token:
            for seat in self.seats:
                if secrets.compare_digest(seat.token.encode(), token.encode()):
                    return seat
        raise WebError("this seat link is not valid for this match (ask for a new link)", 403)

    def side_for(self, seat: Seat) -> str:
        """The side a seat is shown now: the one that must decide if it is the seat's, else the
        side it was last shown (hot-seat keeps the board of the last player until handed over)."""
        pending = self.match.pending
        if pending is not None and pending.player in seat.sides:
            seat.shown = pending.player
        if seat.shown not in seat.sides:
            seat.shown = seat.sides[0]
        return seat.shown

    def who(self) -> dict[str, str]:
        """Who plays each side: "here", "link" or "bot:NAME"."""
        out: dict[str, str] = {}
        for side in self.match.game.info.players:
            if side in self.bots:
                out[side] = f"bot:{self.bots[side]}"
            else:
                out[side] = next((s.kind for s in self.seats if side in s.sides), "nobody")
        return out

    # -- bots ---------------------------------------------------------------------------
    def agent(self, side: str) -> Agent:
        """The bot playing ``side``, built on first use from the room's seed."""
        if side not in self._agents:
            self._agents[side] = make_agent(self.match.game, side, self.bots[side], self.bot_seed)
        return self._agents[side]

    def run_bots(self) -> None:
        """Let the bots answer until a person must decide or the match ends."""
        match = self.match
        for _ in range(MAX_BOT_DECISIONS):
            pending = match.pending
            if pending is None or pending.player not in self.bots:
                return
            match.decide(self.agent(pending.player).choose(match.view(pending.player), pending))
        raise WebError(f"the bots took more than {MAX_BOT_DECISIONS} decisions in a row", 500)

    # -- decisions and undo -------------------------------------------------------------
    def _seat_decision(self, seat: Seat, version: Any) -> Decision:
        """The pending decision, when it is the seat's to take and the page saw the current
        version; else the WebError that says why not."""
        self._check_version(version)
        pending = self.match.pending
        if pending is None:
            raise WebError("the match is over; there is no decision to take", 409)
        if pending.player not in seat.sides:
            raise WebError(f"it is {pending.player}'s decision, not this seat's", 403)
        return pending

    def decide(self, seat: Seat, index: Any, value: JSON, version: Any) -> None:
        """Take option ``index`` (whose value must be ``value``) for the seat, if it is the
        seat's turn and the page saw the current version; then the bots play on."""
        pending = self._seat_decision(seat, version)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(pending.options):
            raise WebError(f"option {index!r} is not one of the {len(pending.options)} options of "
                           f"{pending.prompt!r} ({pending.section})")
        try:
            same = freeze(pending.options[index].value) == freeze(value)
        except TypeError:
            same = False
        if not same:
            raise WebError(f"option {index} of {pending.prompt!r} is not {value!r}; "
                           f"reload the page", 409)
        self.match.decide_index(index)
        self.version += 1
        self.run_bots()

    def route(self, seat: Seat, to: Any, version: Any) -> Followed:
        """Move the unit of the seat's pending route decision to the destination ``to`` by
        :func:`~tabletop.core.engine.routes.follow` (one legal answer a step, as the game
        asks them; it stops at fire or anything else asked), if it is the seat's turn and
        the page saw the current version; then the bots play on."""
        pending = self._seat_decision(seat, version)
        if not isinstance(to, str):
            raise WebError(f"the destination must be a place id, not {to!r}")
        before = len(self.match.decisions)
        try:
            done = follow(self.match, pending.player, to)
        except RouteError as exc:
            raise WebError(str(exc)) from None
        finally:
            if self.match.pending is not pending:
                self.version += 1
        if done.taken > 1:
            self._route_marks.append((before, before + done.taken))
        self.run_bots()
        return done

    def bot_decides(self, seat: Seat, version: Any, scope: Any) -> int:
        """Let the game's own bot for the seat's side take the seat's decision (``scope``
        "one"), or every one of its decisions until the phase (or step) of the turn it is
        asked in ends or another side must decide ("phase"): the terminal's ``b`` and ``b
        phase``. Then the room's bots play on. Returns how many decisions the bot took."""
        self._check_version(version)
        if scope not in ("one", "phase"):
            raise WebError(f"scope {scope!r} is not one of: one, phase")
        match = self.match
        pending = match.pending
        if pending is None:
            raise WebError("the match is over; there is no decision to take", 409)
        if pending.player not in seat.sides:
            raise WebError(f"it is {pending.player}'s decision, not this seat's", 403)
        side = pending.player
        helper = self._helpers.get(side)
        if helper is None:
            game = match.game
            helper = self._helpers[side] = make_agent(game, side, game.default_bot(side),
                                                      self.bot_seed)
        state = match.state  # decisions change it in place
        where = (state.turn, state.phase, state.step)
        taken = 0
        while taken < MAX_BOT_DECISIONS:
            match.decide(helper.choose(match.view(side), pending))
            taken += 1
            pending = match.pending
            if scope == "one" or pending is None or pending.player != side \
                    or (state.turn, state.phase, state.step) != where:
                break
        self.version += 1
        self.run_bots()
        return taken

    def undo_steps(self, seat: Seat) -> int:
        """How many decisions an undo takes back: back to this seat's previous decision,
        with the bots' after it (a move by destination taken here: back to before its first
        step); refused past another person's decision (0: nothing to undo)."""
        players = [e.data.get("player") for e in self.match.log.of_kind("decision")]
        for steps, player in enumerate(reversed(players), start=1):
            if player in seat.sides:
                return self._whole_route(steps)
            if player not in self.bots:
                return 0  # another person's decision stands between: theirs to keep
        return 0

    def _whole_route(self, steps: int) -> int:
        """``steps`` back to a decision of the seat, or, when that decision ends a move by
        destination taken here, back to before the move's first answer."""
        taken = len(self.match.decisions)
        last = taken - steps + 1  # the decisions taken once the seat's own is
        for before, after in reversed(self._route_marks):
            if after == last and after <= taken:
                return taken - before
        return steps

    def undo(self, seat: Seat, version: Any) -> int:
        """Undo back to this seat's previous decision (see :meth:`undo_steps`), through the
        match's own undo and its rules; returns the number of decisions taken back."""
        self._check_version(version)
        steps = self.undo_steps(seat)
        if steps == 0:
            raise WebError("nothing of this seat's to undo (another player's decision, or none, "
                           "comes after it)", 409)
        self.match.undo(steps, by=seat.sides)  # honest: not past a roll or what the seat saw
        self.version += 1
        taken = len(self.match.decisions)
        self._route_marks = [m for m in self._route_marks if m[1] <= taken]
        return steps

    def _check_version(self, version: Any) -> None:
        if version != self.version:
            raise WebError("the match has moved on since this page was drawn; it has been "
                           "redrawn, try again", 409)

    # -- saving -------------------------------------------------------------------------
    def can_download(self, seat: Seat) -> bool:
        """Whether the seat may have the record: it reveals every hidden move (it holds the
        seed and all decisions), so only when no other person plays, or once the match is over."""
        return self.match.finished or all(s is seat for s in self.seats)

    def to_json(self, save: dict[str, JSON] | None = None) -> dict[str, JSON]:
        """The room as stored: seats, bots, version and the match's JSON save (``save``, or
        a ``tabletop-save/1`` made now)."""
        return {"format": ROOM_FORMAT, "id": self.id, "version": self.version,
                "seats": [s.to_json() for s in self.seats], "bots": dict(self.bots),
                "bot_seed": self.bot_seed, "save": make_save(self.match) if save is None else save}


def sides_plan(game: Game, sides: Mapping[str, Any] | None) -> dict[str, str]:
    """Check who plays each side: "here", "link" or "bot:NAME" (default: the game's person
    side here, the others its default bot)."""
    info = game.info
    given = dict(sides or {})
    for side in given:
        if side not in info.players:
            raise WebError(f"game {info.id} has no side {side!r} (sides: {', '.join(info.players)})")
    human = info.human_side or info.players[0]
    plan: dict[str, str] = {}
    for side in info.players:
        how = given.get(side) or (HERE if side == human else f"bot:{game.default_bot(side)}")
        if not isinstance(how, str) or not (how in (HERE, LINK) or how.startswith("bot:")):
            raise WebError(f"side {side}: {how!r} must be 'here', 'link' or 'bot:NAME'")
        if how.startswith("bot:"):
            make_agent(game, side, how[4:], 0)  # a clear error for an unknown bot now
        plan[side] = how
    if all(h.startswith("bot:") for h in plan.values()):
        raise WebError("every side is a bot: give at least one side to a person "
                       "(or replay a record to watch)")
    return plan


class RoomStore:
    """Every room of the server, saved one JSON file each in a folder and loaded on demand."""

    def __init__(self, folder: str | Path, catalogue: Catalogue) -> None:
        self.folder = Path(folder)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SaveError(f"{self.folder}: cannot make the folder for matches ({exc.strerror})") from None
        self.catalogue = catalogue
        self._rooms: dict[str, Room] = {}
        self._lock = threading.Lock()

    def create(self, match: Match, plan: Mapping[str, str]) -> Room:
        """A new room for a match with this plan of sides; bots move first if it is their turn."""
        here = tuple(s for s, how in plan.items() if how == HERE)
        seats = [Seat(secrets.token_urlsafe(24), here, HERE)] if here else []
        seats += [Seat(secrets.token_urlsafe(24), (s,), LINK) for s, how in plan.items() if how == LINK]
        bots = {s: how[4:] for s, how in plan.items() if how.startswith("bot:")}
        room = Room(secrets.token_hex(6), match, seats, bots, secrets.randbelow(2**31))
        with room.lock:
            room.run_bots()
            self.save(room)
        with self._lock:
            self._rooms[room.id] = room
        return room

    def get(self, room_id: str) -> Room:
        """The room with this id, loaded from its file after a restart; 404 if there is none."""
        if not _ID.match(room_id):
            raise WebError(f"no match {room_id!r} on this server", 404)
        with self._lock:
            room = self._rooms.get(room_id)
            if room is None:
                room = self._load(room_id)
                self._rooms[room_id] = room
            return room

    def path(self, room_id: str) -> Path:
        """The room's save file."""
        return self.folder / f"match-{room_id}.json"

    def save(self, room: Room) -> None:
        """Write the room's file atomically (JSON), with the match's restore point; its event
        log is appended to in a file beside it."""
        path = self.path(room.id)
        made = resumable_save(room.match, path)
        atomic_write_text(path, json.dumps(room.to_json(made[0] if made else None),
                                           ensure_ascii=False) + "\n")
        if made is not None:
            made[1]()

    def _load(self, room_id: str) -> Room:
        path = self.path(room_id)
        if not path.is_file():
            raise WebError(f"no match {room_id!r} on this server", 404)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != ROOM_FORMAT:
                raise SaveError(f"{path}: not a {ROOM_FORMAT} file")
            save = data["save"]
            check_record(save, str(path))
            match, _ = resume(self.catalogue.of_header(save["header"]), save, path)
            seats = [Seat(s["token"], tuple(s["sides"]), s["kind"], s.get("shown", ""))
                     for s in data["seats"]]
            room = Room(data["id"], match, seats, dict(data["bots"]), int(data["bot_seed"]),
                        int(data["version"]))
        except WebError as exc:  # its game is not served here (404), or fails to load
            raise WebError(f"match {room_id} cannot be resumed: {exc}", exc.status) from None
        except TabletopError as exc:
            raise WebError(f"match {room_id} cannot be resumed: {exc}", 500) from None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise WebError(f"match {room_id} cannot be resumed: its file {path} is damaged ({exc})",
                           500) from None
        return room

