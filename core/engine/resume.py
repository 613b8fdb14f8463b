"""Resuming a save without replaying it: its restore point and its event-log file.

A save of format ``tabletop-save/2`` is a ``tabletop-save/1`` (the record, and a snapshot of
the state for verification) plus ``resume``, a *restore point*: the state and the dice's
progress as they stood when a resumable decision was asked (the pending decision when it
carries a :class:`~.decisions.ResumePoint`, else the match's last snapshot, at most
:data:`~.match.SNAPSHOT_EVERY` decisions back), the resume point where the flow is entered
again there, the digest of the decision it must ask, the state hash there, the digest of the
decisions up to it, and the length of the log then. The event log itself (about 2 MB at the
end of a Valor of Arms campaign) is not in the save: it is kept beside it in an append-only
JSON Lines file (:data:`LOG_SUFFIX`), one event a line as ``tabletop play --log`` writes it;
each save appends the events since the last one and states how many bytes of it are the
record's (``resume.log.bytes``). Its lines' hash is the record's ``final.log_hash``.

:func:`resume` rebuilds the match from the restore point (the state read, the flow entered
again, the few decisions since replayed) and checks, before handing it over: the header's
and the decisions' digests; that the restored state's hash is the one stated; that the flow
asks the stated decision without rolling, logging or changing anything; that the decisions
after the point are legal and end in the record's final state hash, result and event count;
that the first ``bytes`` of the log file hash to ``final.log_hash`` and hold
``final.events`` events, of which those after the point are the ones the replay logged; and
an autosave's summary. It does not check that the state at the restore point is the one its
decisions lead to: a save written by tabletop is trusted for that, and its digests (which
anyone may recompute) detect a damaged or inconsistently edited file, not a forged one. A
replay (``tabletop replay``, ``tabletop resume --verify``, :func:`~.record.replay`) checks
everything, the restore point included, and needs no log file. Older events are read from the
log only when something asks for them (:class:`LazyEventLog`).

Bytes of the log file past those the save states are an append a crash cut short before the
save was written: they are not read, and the next save cuts them off before appending. A log
file made anew (the first save of a match in a process, or an undo past what the file
holds) is written under a new name, the save then pointing to it, and the old one removed:
a crash at any point leaves a save and a log file that agree.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
import secrets
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from .canonical import JSON, digest, dumps, thaw
from .decisions import ResumePoint, asks_digest
from .errors import IllegalDecision, ReplayDivergence, SaveError, TabletopError
from .events import Event, EventLog
from .files import atomic_write_text
from .record import POINT_FIELDS, pending_point, point_digest, point_of

if TYPE_CHECKING:
    from .match import Game, Match

LOG_SUFFIX = ".jsonl"
"""How a save's log file is named: ``<save's name>.events.<token>.jsonl`` beside it (the
whole name, so that saves ``a.json`` and ``a.txt`` never share one)."""

TAIL = 256
"""How many of the last events before the restore point a resume reads at once (what a
terminal or a page shows first); older ones are read when first asked for."""

class MissingLog(SaveError):
    """A save's log file is not beside it (the save was copied alone): resume by replay."""



def restore_point(match: Match) -> dict[str, JSON] | None:
    """Where a save of the match restores from: its pending decision when that can be asked
    again (the save's snapshot then gives the state: ``state`` is left out), else its last
    snapshot, when the flow entered again there asks the decision it asked when the snapshot
    was taken (:meth:`~.match.Match.asked_again`); None when neither serves (the save then
    resumes by replay)."""
    point = pending_point(match)
    if point is not None:
        del point["state"]
        return point
    snap = match.last_snapshot()
    if snap is None or snap.at > len(match.decisions):
        return None
    if match.asked_again(snap) is None:
        return None
    return point_of(match, thaw(snap.state.to_json()), snap.dice.progress_json(), snap.dice.state_json(),
                  snap.at, snap.point, snap.asks, snap.log_size)


# -- the log, read lazily ------------------------------------------------------------------
class OlderEvents:
    """The events of a log file before those a resume read at once: their lines (checked
    with the whole file against the hash the save states), made into events once, when
    first asked for, and shared by every log copied from the resumed one."""

    __slots__ = ("_count", "_events", "_text", "where")

    def __init__(self, text: bytes, count: int, where: str) -> None:
        self._text = text
        self._count = count
        self._events: list[Event] | None = None
        self.where = where

    def __len__(self) -> int:
        return self._count

    def events(self) -> list[Event]:
        """The events, read from their lines (once)."""
        if self._events is None:
            self._events = events_of(self._text.split(b"\n")[:-1], 0, self.where)
            self._text = b""
        return self._events


def events_of(lines: list[bytes], first: int, where: str) -> list[Event]:
    """Events from their JSON Lines (canonical, as :meth:`~.events.EventLog.to_jsonl` writes
    them), the first numbered ``first``; SaveError naming ``where`` if one is not an event."""
    try:
        items = json.loads(b"[" + b",".join(lines) + b"]") if lines else []
        out = [Event(d["seq"], d["kind"], d["section"], d["text"], d["turn"], d["phase"],
                     d["data"], tuple(d.get("visible_to", ())), d.get("mask", ""))
               for d in items]
    except (ValueError, KeyError, TypeError) as exc:
        raise SaveError(f"{where}: a line of the event log is not an event ({exc})") from None
    for n, event in enumerate(out, start=first):
        if event.seq != n:
            raise SaveError(f"{where}: event {n} of the log is numbered {event.seq}")
    return out


class LazyEventLog(EventLog):
    """A resumed match's event log: the events since a point read, the older ones
    (:class:`OlderEvents`) read the first time anything asks for one of them. Reading the
    recent events (:meth:`since`, :meth:`visible` from a recent mark, the last events by
    index) and adding new ones read nothing; iterating the log reads it all."""

    __slots__ = ("_base", "_older")

    def __init__(self, older: OlderEvents | None = None, recent: list[Event] | None = None) -> None:
        super().__init__()
        self._older = older if older is not None and len(older) else None
        self._base = len(older) if older is not None and self._older is not None else 0
        self._events = list(recent or [])

    def _load(self) -> None:
        older = self._older
        if older is not None:
            self._events = [*older.events(), *self._events]
            self._base = 0
            self._older = None

    def peek(self, index: int) -> Event | None:
        """The event at ``index`` if it has been read (None if it has not)."""
        if index < self._base:
            return None
        return self._events[index - self._base]

    def shares_unread(self, other: LazyEventLog, index: int) -> bool:
        """Whether the event at ``index`` is, unread, the same in both logs (read from one
        resumed log)."""
        return (self._older is not None and self._older is other._older
                and index < min(self._base, other._base))

    def add(self, kind: str, section: str, text: str, turn: int = 0, phase: str = "",
            data: dict[str, Any] | None = None, visible_to: tuple[str, ...] = (),
            mask: str = "") -> Event:
        """As :meth:`EventLog.add`, numbered after the unread events too."""
        events = self._events
        event = Event(self._base + len(events), kind, section, text, turn, phase, data,
                      visible_to, mask)
        events.append(event)
        return event

    def copy(self, upto: int | None = None) -> EventLog:
        """As :meth:`EventLog.copy`; the copy shares the unread events when it keeps them."""
        if self._older is None:
            return super().copy(upto)
        if upto is not None and upto < self._base:
            self._load()
            return super().copy(upto)
        twin = LazyEventLog()
        twin._older, twin._base = self._older, self._base
        twin._events = self._events.copy() if upto is None else self._events[:upto - self._base]
        return twin

    def __len__(self) -> int:
        return self._base + len(self._events)

    def __iter__(self) -> Iterator[Event]:
        self._load()
        return super().__iter__()

    def __getitem__(self, index: int) -> Event:
        if self._older is not None:
            at = index + len(self) if index < 0 else index
            if self._base <= at < len(self):
                return self._events[at - self._base]
            self._load()
        return super().__getitem__(index)

    def since(self, seq: int) -> list[Event]:
        """As :meth:`EventLog.since`."""
        if seq >= self._base:
            return self._events[seq - self._base:]
        self._load()
        return super().since(seq)

    def of_kind(self, kind: str) -> list[Event]:
        """As :meth:`EventLog.of_kind` (reads the whole log)."""
        self._load()
        return super().of_kind(kind)

    def visible(self, player: str, since: int = 0) -> list[Event]:
        """As :meth:`EventLog.visible`."""
        if since >= self._base and self._older is not None:
            out = []
            for event in self._events[since - self._base:]:
                shown = event.for_player(player)
                if shown is not None:
                    out.append(shown)
            return out
        self._load()
        return super().visible(player, since)

    def to_jsonl(self, player: str | None = None) -> str:
        """As :meth:`EventLog.to_jsonl` (reads the whole log)."""
        self._load()
        return super().to_jsonl(player)


# -- the log file, appended to ---------------------------------------------------------------
def _line(event: Event) -> bytes:
    return dumps(event.to_json()).encode("utf-8")


def _prefix_hasher(data: bytes) -> Any:
    """The log hash's running SHA-256 over ``data``, whole lines of a log file: the hash of
    the canonical JSON list of their events, less its closing bracket."""
    return hashlib.sha256(b"[" + data[:-1].replace(b"\n", b",") if data else b"[")


def _hex(hasher: Any) -> str:
    done = hasher.copy()
    done.update(b"]")
    return str(done.hexdigest())


@dataclass(frozen=True)
class _LogFile:
    """What a save's log file holds: its name, the log whose first ``events`` events it
    holds, its length in bytes, the running SHA-256 of its bytes and the running log hash
    of its lines (None until first needed: then made from ``text``, the file's bytes, as a
    resume read them), and its inode."""

    name: str
    source: EventLog
    events: int
    size: int
    sha: Any
    inode: int
    hasher: Any = None
    text: bytes = b""

    def log_hasher(self) -> Any:
        """The running log hash of the file's lines."""
        return self.hasher if self.hasher is not None else _prefix_hasher(self.text)


_files: WeakKeyDictionary[Match, dict[str, _LogFile]] = WeakKeyDictionary()
_files_lock = threading.Lock()


def _known(match: Match, save: Path) -> _LogFile | None:
    with _files_lock:
        return _files.get(match, {}).get(str(save))


def _remember(match: Match, save: Path, file: _LogFile) -> None:
    with _files_lock:
        _files.setdefault(match, {})[str(save)] = file


def _shared(log: EventLog, source: EventLog, count: int) -> int:
    """How many leading events ``log`` shares with the first ``count`` of ``source``: the
    same event objects (a log only grows, and an undo or fork copies a prefix of one), found
    from the end, without reading events a resumed log has not read."""
    top = min(count, len(log), len(source))
    if log is source:
        return top
    for i in range(top - 1, -1, -1):
        a = log.peek(i) if isinstance(log, LazyEventLog) else log[i]
        b = source.peek(i) if isinstance(source, LazyEventLog) else source[i]
        if a is None or b is None:
            return i + 1 if (isinstance(log, LazyEventLog) and isinstance(source, LazyEventLog)
                             and log.shares_unread(source, i)) else 0
        if a is b:
            return i + 1
    return 0


def _fresh_name(save: Path) -> str:
    return f"{save.name}.events.{secrets.token_hex(4)}{LOG_SUFFIX}"


def _write_log(match: Match, save: Path, known: _LogFile | None) -> _LogFile:
    """Bring the save's log file up to the match's log: append the events since the last
    save (cutting off any bytes past what it recorded), or write a new file (under a new
    name) with the events it shares with the file and the rest."""
    log = match.log
    folder = save.parent
    if known is not None:
        path = folder / known.name
        try:
            st = os.stat(path)
        except OSError:
            st = None
        if st is not None and st.st_ino == known.inode and st.st_size >= known.size:
            keep = _shared(log, known.source, known.events)
            lines = [_line(e) for e in log.since(keep)]
            if keep == known.events:
                hasher = known.log_hasher().copy()
                for n, line in enumerate(lines, start=keep):
                    hasher.update(b"," + line if n else line)
                added = b"".join(line + b"\n" for line in lines)
                sha = known.sha.copy()
                sha.update(added)
                try:
                    with open(path, "r+b") as f:
                        f.truncate(known.size)  # a torn append's bytes, if any
                        f.seek(known.size)
                        f.write(added)
                        f.flush()
                        os.fsync(f.fileno())
                except OSError as exc:
                    raise SaveError(f"{path}: cannot write ({exc.strerror or exc})") from None
                return _LogFile(known.name, log, len(log), known.size + len(added), sha,
                                st.st_ino, hasher)
            if keep > 0:  # an undo: the file's first `keep` events, then the new ones
                try:
                    with open(path, "rb") as f:
                        data = f.read(known.size)
                except OSError as exc:
                    raise SaveError(f"{path}: cannot read ({exc.strerror or exc})") from None
                end = 0
                for _ in range(keep):
                    end = data.index(b"\n", end) + 1
                return _new_file(match, save, data[:end], keep, lines)
    return _new_file(match, save, b"", 0, [_line(e) for e in log])


def _new_file(match: Match, save: Path, head: bytes, events: int, lines: list[bytes]) -> _LogFile:
    """A new log file beside ``save``: ``head`` (the lines of its first ``events`` events),
    then ``lines``."""
    name = _fresh_name(save)
    path = save.parent / name
    body = head + b"".join(line + b"\n" for line in lines)
    atomic_write_text(path, body.decode("utf-8"))
    try:
        inode = os.stat(path).st_ino
    except OSError as exc:
        raise SaveError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return _LogFile(name, match.log, len(match.log), len(body), hashlib.sha256(body), inode,
                    _prefix_hasher(body))


def _drop_others(save: Path, keep: str) -> None:
    """Remove the save's log files other than ``keep`` (left by an earlier write)."""
    for other in save.parent.glob(f"{glob.escape(save.name)}.events.*{LOG_SUFFIX}"):
        if other.name != keep:
            with contextlib.suppress(OSError):
                other.unlink()


def resumable_save(match: Match, path: str | Path) -> tuple[dict[str, JSON], Callable[[], None]] | None:
    """The match's save of format ``tabletop-save/2`` for the file ``path`` (where it is to be
    written, atomically, by the caller), its log file brought up to date beside it, and what
    to call once the save is written; None when the match has no restore point (the caller
    writes a ``tabletop-save/1``)."""
    from .record import RESUMABLE_FORMAT, make_final

    point = restore_point(match)
    if point is None:
        return None
    save = Path(os.path.abspath(path))
    known = _known(match, save)
    file = _write_log(match, save, known)
    header = match.header()
    decisions = thaw(list(match.decisions))
    doc: dict[str, JSON] = {
        "format": RESUMABLE_FORMAT,
        "header": header,
        "decisions": decisions,
        "final": make_final(match, header, decisions, log=_hex(file.log_hasher())),
        "snapshot": match.state_json(),
        "resume": {**point, "log": {"file": file.name, "bytes": file.size,
                                    "sha256": file.sha.hexdigest()}},
    }

    def written() -> None:
        _remember(match, save, file)
        if known is None or known.name != file.name:
            _drop_others(save, file.name)

    return doc, written


def write_resumable(match: Match, path: str | Path, head: dict[str, JSON] | None = None) -> None:
    """Write the match's save to ``path`` atomically: a ``tabletop-save/2`` with its log file
    when it has a restore point, else a ``tabletop-save/1``; ``head`` (an autosave's summary)
    goes after the format."""
    from .record import make_save

    made = resumable_save(match, path)
    save, written = made if made is not None else (make_save(match), None)
    doc: dict[str, JSON] = {"format": save.pop("format"), **(head or {}), **save}
    atomic_write_text(path, json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    if written is not None:
        written()


# -- resuming ------------------------------------------------------------------------------------
def _shown(value: object) -> str:
    try:
        text = dumps(value)
    except (TypeError, ValueError, RecursionError):
        return "(not JSON)"
    return text if len(text) <= 60 else text[:60] + "…"


def _whole(value: object, top: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= top


def can_restore(record: dict[str, Any]) -> bool:
    """Whether a (checked) record is a save carrying a restore point and a log file."""
    from .record import RESUMABLE_FORMAT

    return record.get("format") == RESUMABLE_FORMAT and isinstance(record.get("resume"), dict)


def restore(game: Game, record: dict[str, Any], path: str | Path) -> Match:
    """The match of a ``tabletop-save/2`` read from ``path``, rebuilt from its restore point
    and log file and checked as the module says; MissingLog when its log file is not beside
    it, else SaveError or ReplayDivergence naming ``path`` and what does not hold (the
    match is then not made, and no file is touched)."""
    from .match import Match
    from .record import FINAL_FIELDS, check_version, verify_summary
    from .state import State

    where = str(path)
    save = Path(os.path.abspath(path))
    header, decisions, final = record["header"], record["decisions"], record.get("final")
    res = record["resume"]
    check_version(game, header)
    taken = len(decisions)

    def bad(what: str) -> SaveError:
        return SaveError(f"{where}: {what}; resume it with --verify to rebuild it from its "
                         "decisions (or replay it to see what differs)")

    if not isinstance(final, dict) or any(k not in final for k in FINAL_FIELDS):
        raise bad("its final state is incomplete")
    if final["header_digest"] != digest(header):
        raise bad("its header was changed (final.header_digest differs)")
    whole = digest(decisions)
    if final["decisions"] != taken or final["decisions_digest"] != whole:
        raise bad("its decisions were changed (final.decisions_digest differs)")
    for key in res:
        if key not in (*POINT_FIELDS, "log"):
            raise bad(f"resume.{key} is not a field of a restore point")
    if res.get("digest") != point_digest(res):
        raise bad("its restore point was changed (resume.digest differs)")
    at = res.get("at")
    if not _whole(at, taken):
        raise bad(f"resume.at must be a number of decisions from 0 to {taken}")
    if res.get("decisions_digest") != (whole if at == taken else digest(decisions[:at])):
        raise bad("its decisions up to the restore point were changed "
                  "(resume.decisions_digest differs)")
    events_at, events = res.get("events"), final["events"]
    if not _whole(events, 10**9) or not _whole(events_at, events):
        raise bad("resume.events and final.events must count the log's events")
    point, state_json = res.get("point"), res.get("state") if "state" in res else None
    if state_json is None and at == taken:
        snapshot = record.get("snapshot")
        state_json = snapshot.get("state") if isinstance(snapshot, dict) else None
    if not (isinstance(point, dict) and isinstance(point.get("entry"), str)):
        raise bad("resume.point must name where the flow is entered again")
    if not isinstance(state_json, dict):
        raise bad("the restore point has no state")
    if not _whole(res.get("flow_start"), events_at):
        raise bad("resume.flow_start must be a place in the log")
    data, sha = _read_log(res.get("log"), save, where, events, bad)
    # the lines from the restore point's TAIL-th last event on, found from the file's end
    first = max(0, events_at - TAIL)
    ends = [len(data)]
    for _ in range(events - first):
        ends.append(data.rfind(b"\n", 0, ends[-1] - 1) + 1)
    at_end, first_end = ends[events - events_at], ends[-1]
    older = OlderEvents(data[:first_end], first, where)
    recent = events_of(data[first_end:at_end].split(b"\n")[:-1], first, where)
    later = data[at_end:].split(b"\n")[:-1]
    try:
        state = State.from_json(thaw(state_json))  # the record's JSON is left as it is
        match = Match.restore(
            game, scenario=header.get("scenario"), seed=header["seed"],
            options=header.get("options") or {}, dice_script=header.get("dice_script"),
            free_undo=header.get("free_undo") is True,
            undos_past_chance=header.get("undos_past_chance", 0),
            edited_from=header.get("edited_from"), **_start(header),
            state=state, dice=res.get("dice"), log=LazyEventLog(older, recent),
            decisions=decisions[:at], flow_start=res["flow_start"],
            point=ResumePoint(point["entry"], point.get("args")))
    except TabletopError as exc:
        raise bad(f"its restore point does not restore ({_short(exc)})") from None
    except Exception as exc:  # a state that is not this game's: any error of the game's code
        raise bad(f"its restore point does not restore ({type(exc).__name__}: {_short(exc)})") from None
    asked = match.pending
    if asked is None or asks_digest(asked) != res.get("asks"):
        raise bad(f"the game entered again at decision {at + 1} does not ask the decision the "
                  "save states (resume.asks differs)")
    reached = match.state_hash()
    if reached != res.get("state_hash"):
        raise bad("the restored state is not the one the save states (resume.state_hash differs)")
    for n, value in enumerate(decisions[at:], start=at + 1):
        try:
            match.decide(value)
        except (IllegalDecision, TabletopError) as exc:
            raise bad(f"decision {n} of {taken} diverges from the restore point ({_short(exc)})") from None
    if (reached if at == taken else match.state_hash()) != final["state_hash"]:
        raise bad("the state reached is not the save's final state (final.state_hash differs)")
    if match.finished != final["finished"] or dumps(match.result.to_json() if match.result else None) \
            != dumps(final["result"]):
        raise bad("the result reached is not the save's (final.result differs)")
    if len(match.log) != events:
        raise bad(f"the game logs {len(match.log)} events, the save says {events}")
    if [_line(e) for e in match.log.since(events_at)] != later:
        raise bad("the events logged after the restore point are not those of its event log")
    if "summary" in record:
        try:
            verify_summary(match, record["summary"])
        except ReplayDivergence as exc:
            raise bad(str(exc)) from None
    log_name = res["log"]["file"]
    _remember(match, save, _LogFile(log_name, match.log, len(match.log), len(data), sha,
                                    os.stat(save.parent / log_name).st_ino, text=data))
    match.forked_by = ""
    return match


def _short(exc: BaseException, limit: int = 160) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit] + "…"


def _start(header: dict[str, Any]) -> dict[str, Any]:
    """The forced rolls and position of the header, as :meth:`Match.restore` takes them."""
    from .record import start_of

    out = start_of(header)
    return {"forced": out.get("forced", ()), "position": out.get("position")}


def _read_log(log: object, save: Path, where: str, events: int,
              bad: Callable[[str], SaveError]) -> tuple[bytes, Any]:
    """The bytes of a save's log file that it states, checked against the length, hash and
    number of events the save states, and their running SHA-256."""
    if not (isinstance(log, dict) and isinstance(log.get("file"), str)
            and _whole(log.get("bytes"), 2**50) and isinstance(log.get("sha256"), str)):
        raise bad("resume.log must name its log file, its length in bytes and their sha256")
    name, size = log["file"], log["bytes"]
    if Path(name).name != name or not name.endswith(LOG_SUFFIX) or name.startswith("."):
        raise bad(f"resume.log.file must be a log file's name beside the save, not {_shown(name)}")
    path = save.parent / name
    try:
        with open(path, "rb") as f:
            data = f.read(size)
    except FileNotFoundError:
        raise MissingLog(f"{where}: its event log {name} is not beside it") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if len(data) < size:
        raise bad(f"its event log {name} is cut short ({len(data)} bytes, the save states {size})")
    sha = hashlib.sha256(data)
    if sha.hexdigest() != log["sha256"]:
        raise bad(f"its event log {name} was changed since it was saved (its sha256 is not "
                  "resume.log.sha256)")
    held = data.count(b"\n")
    if held != events or (data and not data.endswith(b"\n")):
        raise bad(f"its event log {name} holds {held} events, the save says {events}")
    return data, sha


def check_log_file(record: dict[str, Any], path: str | Path) -> str | None:
    """For a verified ``tabletop-save/2``: whether its log file (if beside it) is what a
    resume reads, the lines of the record's events (their hash ``final.log_hash``); None if
    it is (or is missing: a replay needs none), else what is wrong."""
    if not can_restore(record):
        return None
    final = record["final"]

    def bad(what: str) -> SaveError:
        return SaveError(what)

    try:
        data, _ = _read_log(record["resume"].get("log"), Path(os.path.abspath(path)), str(path),
                            final["events"], bad)
    except MissingLog:
        return None
    except SaveError as exc:
        return str(exc)
    if _hex(_prefix_hasher(data)) != final["log_hash"]:
        return "its event log's lines are not the record's events (their hash is not final.log_hash)"
    return None


def resume(game: Game, record: dict[str, Any], path: str | Path, *,
           verify: bool | None = None) -> tuple[Match, str]:
    """The match of a (checked) save read from ``path``, and how it was made, in words:
    with ``verify`` None, from its restore point (:func:`restore`) when it has one, else (an
    older save, or its log file not beside it) by a verified replay; True: by a verified
    replay; False: by a replay without verification (a record of an older tabletop)."""
    from .record import replay

    if verify is None and can_restore(record):
        try:
            return restore(game, record, path), "restored"
        except MissingLog as exc:
            return replay(game, record), f"{exc}: rebuilt by a verified replay"
    if verify is False:
        return replay(game, record, verify=False), "replayed without verification"
    return replay(game, record), "replayed and verified"


def write_save(match: Match, path: str | Path) -> None:
    """Save the match as JSON, atomically: a ``tabletop-save/2`` (record, snapshot, restore
    point) with its event log appended to beside it, or a ``tabletop-save/1`` when the match
    has no restore point (:func:`write_resumable`)."""
    write_resumable(match, path)
