"""A person's kept games: one autosave file for every game started at the terminal.

Each game a person starts is written to its own file in :func:`autosave_dir`, named by game,
scenario and start time (``autosave-iwo_bonins-two_player-20261204-192312.json``, with ``-2``,
``-3``... when two games start in the same second), so that a new game never touches another's
file. The file is an ordinary save (:func:`tabletop.core.engine.record.make_save`) with a small
``summary`` first (game, scenario, turn, phase, decisions, who plays at the terminal, when it
started, whether it is finished), so that ``tabletop resume`` lists the kept games by reading
that summary, never by replaying them. A finished game's file is kept, marked finished.

Files of earlier versions (one ``autosave-GAME.json`` per game) have no summary: the list reads
their header, decisions and snapshot instead; one made before records carried their event-log
hash resumes with ``tabletop resume --no-verify`` (it cannot be verified). A file in the folder
that is not a tabletop save is listed as unreadable, with the reason, and left alone.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.canonical import JSON
from ..engine.errors import SaveError

if TYPE_CHECKING:
    from ..engine.match import Match

PREFIX = "autosave-"
"""How every autosave file's name begins (the earlier ``autosave-GAME.json`` too)."""


def autosave_dir() -> Path:
    """Where autosaves live: $TABLETOP_HOME, else $XDG_STATE_HOME/tabletop, else
    ~/.local/state/tabletop."""
    home = os.environ.get("TABLETOP_HOME")
    if home:
        return Path(home)
    state = os.environ.get("XDG_STATE_HOME")
    return (Path(state) if state else Path.home() / ".local" / "state") / "tabletop"


def _name_part(text: str) -> str:
    """A game or scenario id as it may stand in a file name."""
    return re.sub(r"[^A-Za-z0-9_.]+", "_", text).strip("._") or "game"


def new_autosave_path(match: Match, *, now: float | None = None) -> Path:
    """A new, unique autosave file for a game being started (created empty at once, so that
    two games started in the same second each get their own; the first write fills it)."""
    folder = autosave_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(f"{folder}: cannot make the autosave folder ({exc.strerror or exc})") from None
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    stem = f"{PREFIX}{_name_part(match.game.info.id)}-{_name_part(match.scenario or 'game')}-{stamp}"
    for n in range(1, 10_000):
        path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            continue
        except OSError as exc:
            raise SaveError(f"{path}: cannot write ({exc.strerror or exc})") from None
        os.close(fd)
        return path
    raise SaveError(f"{folder}: too many games started at {stamp}")


def now_text() -> str:
    """The local time now, as a summary keeps it (ISO 8601 to the second, with its offset)."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


def summary_of(match: Match, *, started: str | None, people: Iterable[str]) -> dict[str, JSON]:
    """The few fields the list of kept games shows, kept at the head of the autosave: the
    game's facts (:func:`~.record.summary_facts`, which a replay verifies), who plays at the
    terminal, and when the game was started and saved."""
    from ..engine.record import summary_facts

    facts = summary_facts(match)
    head = {key: facts.pop(key) for key in ("game", "title", "scenario", "turn", "phase", "decisions")}
    return {**head, "people": sorted(people), "started": started, "saved": now_text(), **facts}


def write_autosave(match: Match, path: str | Path, *, started: str | None, people: Iterable[str]) -> None:
    """Write the match's save with its summary first, atomically (its event log appended to
    beside it: :func:`~tabletop.core.engine.resume.write_resumable`)."""
    from ..engine.resume import write_resumable

    write_resumable(match, path, {"summary": summary_of(match, started=started, people=people)})


@dataclass(frozen=True)
class KeptGame:
    """One file in the autosave folder as the list shows it (read, not replayed)."""

    path: Path
    saved: float
    """When the file was last written (seconds since the epoch): the list is newest first."""
    game: str = ""
    scenario: str | None = None
    turn: int | None = None
    phase: str = ""
    decisions: int = 0
    people: tuple[str, ...] = ()
    started: str | None = None
    finished: bool = False
    outcome: str = ""
    problem: str | None = None
    """Why the file cannot be resumed (not a save, broken JSON...); None for a good one."""

    @property
    def resumable(self) -> bool:
        """Whether ``tabletop resume`` offers it: a readable save of a game not finished."""
        return self.problem is None and not self.finished

    def describe(self) -> str:
        """The game in one line: game and scenario, turn, decisions, when, who plays."""
        if self.problem is not None:
            return f"{self.path.name}: unreadable ({self.problem})"
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved))
        turn = f"turn {self.turn}" if self.turn is not None else "turn ?"
        if self.phase:
            turn += f" ({self.phase})"
        who = f", {' and '.join(self.people)} at the terminal" if self.people else ""
        end = f", finished: {self.outcome}" if self.finished else ""
        return (f"{self.game} {self.scenario or '-'}: {turn}, {self.decisions} decisions, "
                f"{when}{who}{end}  [{self.path.name}]")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _outcome(winner: Any, level: Any) -> str:
    if isinstance(winner, str) and winner:
        return f"{winner} wins" + (f" ({level})" if isinstance(level, str) and level else "")
    return str(level) if isinstance(level, str) and level else "over"


def read_kept(path: Path) -> KeptGame:
    """What the list shows of one file: its summary, or (an earlier autosave) its header,
    decisions and snapshot; a file that is not a tabletop save comes back with ``problem``."""
    try:
        saved = path.stat().st_mtime
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        return KeptGame(path, 0.0, problem=f"cannot read: {exc.strerror or exc}")
    if not raw.strip():
        return KeptGame(path, saved, problem="empty: a game being started, or one that never got "
                                             "its first save")
    from ..engine.record import loads_record

    try:
        data = loads_record(raw, path.name)  # the shape every record is held to
    except SaveError as exc:
        return KeptGame(path, saved, problem=str(exc).removeprefix(f"{path.name}: "))
    header = data["header"]
    decisions = data["decisions"]
    summary = data.get("summary")
    if isinstance(summary, dict):
        people = summary.get("people")
        turn = summary.get("turn")
        return KeptGame(
            path, saved, game=header["game"], scenario=_text(header.get("scenario")) or None,
            turn=turn if isinstance(turn, int) else None, phase=_text(summary.get("phase")),
            decisions=len(decisions),
            people=tuple(p for p in people if isinstance(p, str)) if isinstance(people, list) else (),
            started=_text(summary.get("started")) or None, finished=summary.get("finished") is True,
            outcome=_outcome(summary.get("winner"), summary.get("result")))
    # an earlier autosave: no summary; the snapshot and the final outcome say as much
    snapshot = data.get("snapshot")
    state = snapshot.get("state") if isinstance(snapshot, dict) else None
    final = data.get("final")
    result = final.get("result") if isinstance(final, dict) else None
    turn = state.get("turn") if isinstance(state, dict) else None
    return KeptGame(
        path, saved, game=header["game"], scenario=_text(header.get("scenario")) or None,
        turn=turn if isinstance(turn, int) else None,
        phase=_text(state.get("phase")) if isinstance(state, dict) else "",
        decisions=len(decisions),
        finished=isinstance(final, dict) and final.get("finished") is True,
        outcome=_outcome(result.get("winner"), result.get("level")) if isinstance(result, dict) else "")


def kept_games(folder: Path | None = None) -> list[KeptGame]:
    """Every ``*.json`` file in the autosave folder, newest first (unreadable ones too)."""
    where = autosave_dir() if folder is None else folder
    if not where.is_dir():
        return []
    found = [read_kept(p) for p in where.glob("*.json") if p.is_file() and not p.name.startswith(".")]
    return sorted(found, key=lambda k: (k.saved, k.path.name), reverse=True)


def is_autosave(path: str | Path) -> bool:
    """Whether a file is one of the autosave folder's (a resumed one goes on being written
    there, with its summary)."""
    p = Path(path)
    try:
        return p.name.startswith(PREFIX) and p.resolve().parent == autosave_dir().resolve()
    except OSError:
        return False


def started_of(path: str | Path) -> str | None:
    """When the game kept in an autosave was started (from its summary), if it says."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    summary = data.get("summary") if isinstance(data, dict) else None
    started = summary.get("started") if isinstance(summary, dict) else None
    return started if isinstance(started, str) else None


def listing(games: list[KeptGame]) -> list[str]:
    """The list of kept games as printed: the unfinished ones numbered (the numbers
    ``tabletop resume N`` takes), then the finished ones and the unreadable files."""
    lines: list[str] = []
    open_games = [g for g in games if g.resumable]
    for n, game in enumerate(open_games, start=1):
        lines.append(f"{n:>3}. {game.describe()}")
    for game in games:
        if game.problem is None and game.finished:
            lines.append(f"     {game.describe()}")
    for game in games:
        if game.problem is not None:
            lines.append(f"     {game.describe()}")
    return lines
