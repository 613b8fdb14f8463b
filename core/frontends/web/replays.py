"""The replay viewer's side of the server: a record replayed, then shown step by step.

A replay is made from a record or save file (verified as ``tabletop replay`` does: a record
that diverges is refused) or from a line of a study's rows (``tabletop simulate --rows``),
whose game is played again by the same bots from the same seed. Step *n* is the position
after the record's first *n* decisions; the viewer asks for any step from any side's view
(hidden pieces face-down, that side's log) or the game master's (everything).
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...engine.canonical import JSON
from ...engine.errors import TabletopError
from ...engine.match import Game, Match
from ...engine.record import atomic_write_text, make_record, replay
from ...engine.registry import make_agent
from . import seeing
from .guard import parse_object
from .rooms import RoomStore, WebError

REPLAY_FORMAT = "tabletop-web-replay/1"


class Replay:
    """One record opened in the viewer, with a match kept at the last step shown."""

    def __init__(self, replay_id: str, game: Game, record: Mapping[str, Any]) -> None:
        self.id = replay_id
        self.game = game
        self.record = dict(record)
        self.lock = threading.Lock()
        try:
            full = replay(game, self.record)
        except TabletopError as exc:
            raise WebError(f"this record does not replay: {exc}") from None
        self.total = len(full.decisions)
        self.steps = [e for e in full.log if e.kind == "decision"]
        self.players = full.game.info.players
        self._cursor = full

    def _fresh(self) -> Match:
        header = self.record["header"]
        return Match(self.game, scenario=header.get("scenario"), seed=header["seed"],
                     options=header.get("options") or {}, dice_script=header.get("dice_script"))

    def at(self, step: int) -> Match:
        """The match after ``step`` decisions (moving the kept match forward when it can)."""
        if not 0 <= step <= self.total:
            raise WebError(f"step {step} is outside 0..{self.total}")
        match = self._cursor
        if len(match.decisions) > step:
            match = self._fresh()
        decisions = self.record["decisions"]
        while len(match.decisions) < step:
            match.decide(decisions[len(match.decisions)])
        self._cursor = match
        return match

    def steps_json(self, side: str | None) -> list[dict[str, JSON]]:
        """Each decision of the record as ``side`` may know it (its turn and phase always)."""
        out: list[dict[str, JSON]] = []
        for n, event in enumerate(self.steps, start=1):
            seen = side is None or event.is_visible_to(side)
            out.append({"n": n, "turn": event.turn, "phase": event.phase, "section": event.section,
                        "text": event.text if seen else "a decision hidden from this side"})
        return out

    def view(self, step: int, side: str | None) -> dict[str, JSON]:
        """Board, log and status after ``step`` decisions, seen by ``side`` (None: everything)."""
        if side is not None and side not in self.players:
            raise WebError(f"game {self.game.info.id} has no side {side!r} "
                           f"(sides: {', '.join(self.players)})")
        with self.lock:
            match = self.at(step)
            pending = match.pending
            next_pending: JSON = None
            if pending is not None:
                mine = side is None or pending.player == side
                next_pending = {"player": pending.player, "section": pending.section,
                                "prompt": pending.prompt if mine else ""}
            return {
                "id": self.id, "game": self.game.info.id, "title": self.game.info.title,
                "scenario": match.scenario, "players": list(self.players), "side": side,
                "step": step, "total": self.total, "turn": match.state.turn, "phase": match.state.phase,
                "phase_name": self.game.phase_name(match.state.phase) if match.state.phase else "",
                "svg": seeing.board_svg(match, side),
                "log": [seeing.event_json(e, self.game) for e in seeing.visible_events(match, side)],
                "steps": self.steps_json(side), "pending": next_pending,
                "result": match.result.to_json() if match.result else None,
                "status": seeing.status_json(match, side),
            }


class ReplayStore:
    """The replays opened on this server, kept on disk so a reload finds them again."""

    def __init__(self, rooms: RoomStore) -> None:
        self.rooms = rooms
        self._replays: dict[str, Replay] = {}
        self._lock = threading.Lock()

    def open_record(self, record: Any) -> Replay:
        """A replay of a record or save (as read from its JSON)."""
        if not isinstance(record, dict) or not isinstance(record.get("header"), dict) \
                or not isinstance(record.get("decisions"), list):
            raise WebError("not a tabletop record or save: a JSON object with 'header' and "
                           "'decisions' is expected")
        header = record["header"]
        if not isinstance(header.get("game"), str) or not isinstance(header.get("seed"), int) \
                or isinstance(header.get("seed"), bool):
            raise WebError("the record's header must name the game and an integer seed")
        game = self.rooms.catalogue.of_header(header)
        rep = Replay(secrets.token_hex(6), game, record)
        atomic_write_text(self._path(rep.id), json.dumps(
            {"format": REPLAY_FORMAT, "record": rep.record}, ensure_ascii=False) + "\n")
        with self._lock:
            self._replays[rep.id] = rep
        return rep

    def open_row(self, row: Any, game_name: Any, scenario: Any, options: Any, agents: Any) -> Replay:
        """A replay of one game of a study: a rows line (its ``seed``, and its ``game``,
        ``scenario``, ``options`` and ``agents`` when the line carries them, else those given)
        played again by the same bots from the same seed."""
        if isinstance(row, str):
            row = parse_object(row, "the rows line (one line of `tabletop simulate --rows`)")
        if not isinstance(row, dict) or not isinstance(row.get("seed"), int):
            raise WebError("a rows line must be a JSON object with an integer 'seed'")
        name = row.get("game", game_name)
        if not isinstance(name, str) or not name:
            raise WebError("name the game the rows line comes from")
        game = self.rooms.catalogue.get(name)
        scen = row.get("scenario", scenario) or None
        opts = row.get("options", options) or {}
        specs = row.get("agents", agents) or {}
        if not isinstance(opts, dict) or not isinstance(specs, dict):
            raise WebError("options and agents must be JSON objects")
        seed = row["seed"]
        try:
            match = Match(game, scenario=scen, seed=seed, options=opts)
            bots = {side: make_agent(game, side, str(specs.get(side) or game.default_bot(side)), seed)
                    for side in game.info.players}
            match.run(bots, max_decisions=200_000)
        except TabletopError as exc:
            raise WebError(f"cannot play that game again: {exc}") from None
        digest = row.get("state_hash")
        if isinstance(digest, str) and digest != match.state_hash():
            raise WebError(f"played again from seed {seed}, the game ends in another state than "
                           f"the row's: give the same game version, scenario, options and agents "
                           f"as the study")
        result = row.get("result")
        if match.result is not None and isinstance(result, str) and result != match.result.level:
            raise WebError(f"played again from seed {seed}, the game ends {match.result.level!r}, "
                           f"not {result!r} as the row says: give the same game, scenario, options "
                           f"and agents as the study")
        return self.open_record(make_record(match))

    def get(self, replay_id: str) -> Replay:
        """The replay with this id (read back from disk after a restart)."""
        with self._lock:
            rep = self._replays.get(replay_id)
        if rep is not None:
            return rep
        if not replay_id.isalnum() or len(replay_id) > 32:
            raise WebError(f"no replay {replay_id!r} on this server", 404)
        path = self._path(replay_id)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            record = data["record"]
            header = record["header"]
        except (OSError, ValueError, KeyError, TypeError):
            raise WebError(f"no replay {replay_id!r} on this server", 404) from None
        rep = Replay(replay_id, self.rooms.catalogue.of_header(header), record)
        with self._lock:
            self._replays[replay_id] = rep
        return rep

    def _path(self, replay_id: str) -> Path:
        return self.rooms.folder / f"replay-{replay_id}.json"
