"""Match records, saves and replay: JSON only, written atomically, verified on load.

A *record* is the header plus the decisions and the *final* summary of what they led to
(state hash, event-log hash, counts, result, and digests binding the header and the
decisions). A *save* (``tabletop-save/1``) is a record plus a snapshot of the state, so that
a resumed match can be checked against what was saved; a ``tabletop-save/2`` adds a restore
point and keeps its event log in a file beside it, so that it resumes without replaying
(:mod:`.resume`).

A record is data from anywhere: reading one checks its shape (bounded nesting, a seed in
range, each header field of the right type) and refuses anything else with one
:class:`~.errors.SaveError` line. Verifying one (:func:`replay`) rebuilds the match from the
header and the decisions alone and compares every field the record states with what the
rebuilt match says, refusing at the first that differs (:class:`~.errors.ReplayDivergence`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .canonical import JSON, digest, dumps, thaw
from .decisions import ResumePoint, asks_digest
from .errors import IllegalDecision, ReplayDivergence, SaveError, TabletopError
from .files import atomic_write_text
from .views import SIDE_SAVE_FORMAT

if TYPE_CHECKING:
    from .match import Game, Match

RECORD_FORMAT = "tabletop-record/1"
SAVE_FORMAT = "tabletop-save/1"
RESUMABLE_FORMAT = "tabletop-save/2"
"""A save with a restore point and its event log beside it (:mod:`.resume`)."""
FORMATS = (RECORD_FORMAT, SAVE_FORMAT, RESUMABLE_FORMAT)
"""Every format this tabletop reads."""

MAX_DEPTH = 200
"""How deeply a record's JSON may nest (a game's state nests about ten levels; each edit of
a running match adds two, for the header it was edited from)."""

SEED_LIMIT = 2**63
"""A record's seed is a whole number from 0 to SEED_LIMIT - 1, as the command line's --seed."""

FINAL_FIELDS = ("decisions", "decisions_digest", "events", "log_hash", "state_hash", "finished",
                "result", "header_digest")
"""What a record's ``final`` states, in the order verification compares them."""

OLDER_FINAL_FIELDS = frozenset({"state_hash", "events", "finished", "result"})
"""The ``final`` of records made before the log hash and digests: not verifiable."""

HEADER_ORDER = ("game", "game_version", "engine_version", "scenario", "options", "seed",
                "dice_script", "forced_dice", "position", "edited_from", "free_undo",
                "undos_past_chance")
"""The header fields a record may have, in the order verification compares them."""

__all__ = ["atomic_write_text", "check_record", "check_version", "game_of_record", "loads_record",
           "log_hash", "make_record", "make_save", "read_record", "replay", "verify_summary",
           "write_record"]


def log_hash(match: Match) -> str:
    """The SHA-256 of the match's whole event log: the canonical JSON of the list of its
    events (each as ``Event.to_json`` gives it, as in the JSON Lines log)."""
    return digest([event.to_json() for event in match.log])


def make_final(match: Match, header: Mapping[str, JSON], decisions: list[JSON], *,
               log: str | None = None) -> dict[str, JSON]:
    """What a record states its decisions led to, for verification (see :data:`FINAL_FIELDS`);
    ``log``: the log hash when the caller has it (kept as the log file is appended to)."""
    return {
        "decisions": len(decisions),
        "decisions_digest": digest(decisions),
        "events": len(match.log),
        "log_hash": log_hash(match) if log is None else log,
        "state_hash": match.state_hash(),
        "finished": match.finished,
        "result": match.result.to_json() if match.result else None,
        "header_digest": digest(header),
    }


def make_record(match: Match) -> dict[str, JSON]:
    """The match's record: header, decisions, and its current outcome for verification."""
    header = match.header()
    decisions = thaw(list(match.decisions))
    return {
        "format": RECORD_FORMAT,
        "header": header,
        "decisions": decisions,
        "final": make_final(match, header, decisions),
    }


def make_save(match: Match) -> dict[str, JSON]:
    """A save file: the record plus a snapshot of the whole state."""
    save = make_record(match)
    save["format"] = SAVE_FORMAT
    save["snapshot"] = match.state_json()
    return save


POINT_FIELDS = ("at", "point", "asks", "state", "dice", "state_hash", "decisions_digest",
                "flow_start", "events", "digest")
"""What a restore point states besides its log file (``state`` left out when the point is
the save's last decision: the snapshot's state serves; ``digest``: of the others but the
state, which ``state_hash`` covers)."""


def point_digest(point: dict[str, JSON]) -> str:
    """The digest a restore point states of its fields but the state, its log file and
    itself."""
    return digest({k: v for k, v in point.items() if k not in ("state", "log", "digest")})


def point_of(match: Match, state: JSON, dice: JSON, dice_hash: JSON, at: int, point: ResumePoint,
           asks: str, events: int) -> dict[str, JSON]:
    made: dict[str, JSON] = {
        "at": at,
        "point": {"entry": point.entry, "args": json.loads(dumps(point.args))},
        "asks": asks,
        "state": state,
        "dice": dice,
        "state_hash": digest({"state": state, "dice": dice_hash, "decisions": at, "result": None}),
        "decisions_digest": digest(thaw(match.decisions[:at])),
        "flow_start": match.flow_start,
        "events": events,
    }
    made["digest"] = point_digest(made)
    return made


def pending_point(match: Match) -> dict[str, JSON] | None:
    """The restore point at the match's pending decision, when it carries a resume point
    (None otherwise): every field of :data:`POINT_FIELDS`."""
    decision = match.pending
    if decision is None or decision.resume is None:
        return None
    return point_of(match, thaw(match.state.to_json()), match.dice.progress_json(),
                  match.dice.state_json(), len(match.decisions), decision.resume,
                  asks_digest(decision), len(match.log))


def write_record(match: Match, path: str | Path) -> None:
    """Write the match record as JSON, atomically."""
    atomic_write_text(path, json.dumps(make_record(match), indent=1, ensure_ascii=False) + "\n")


_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = re.compile(r'[^\[\]{}]+')


def _too_deep(text: str, limit: int) -> bool:
    """Whether JSON text nests arrays and objects more than ``limit`` deep (strings skipped),
    found before parsing, which would otherwise recurse that deep. The brackets are stripped
    of their innermost pairs a pass at a time (each pass takes off one or two levels); text
    still nested after ``limit // 2`` passes, or not paired, is counted bracket by bracket."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = left = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    for _ in range(limit // 2):
        if not left:
            return False
        shorter = left.replace("[]", "").replace("{}", "")
        if len(shorter) == len(left):
            break
        left = shorter
    if not left:
        return False
    depth = 0
    for c in brackets:
        if c == "[" or c == "{":
            depth += 1
            if depth > limit:
                return True
        elif c == "]" or c == "}":
            depth -= 1
    return False


def loads_record(text: str, where: str = "record") -> dict[str, Any]:
    """Parse a record or save from JSON text and check its shape (:func:`check_record`);
    SaveError naming ``where`` with the reason otherwise."""
    if _too_deep(text, MAX_DEPTH):
        raise SaveError(f"{where}: nests more than {MAX_DEPTH} levels deep: not a tabletop record")
    try:
        data = json.loads(text)
    except RecursionError:
        raise SaveError(f"{where}: nests too deeply: not a tabletop record") from None
    except ValueError as exc:  # JSONDecodeError, or a number too long to convert
        raise SaveError(f"{where}: not a JSON record ({_short(str(exc))})") from None
    check_record(data, where, depth_checked=True)  # the text's nesting was checked
    return data  # type: ignore[no-any-return]  # a dict, as checked


def read_record(path: str | Path) -> dict[str, Any]:
    """Read a record or save file, checking its shape; SaveError with the reason otherwise."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SaveError(f"{p}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise SaveError(f"{p}: not a JSON record ({exc})") from None
    return loads_record(text, str(p))


def _short(text: str, limit: int = 200) -> str:
    """Text cut to one line of at most ``limit`` characters, for a message."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit] + "…"


def _shown(value: JSON) -> str:
    """A JSON value as a message shows it: canonical JSON, cut short."""
    try:
        return _short(dumps(value), 80)
    except (TypeError, ValueError, RecursionError):
        return "(not JSON)"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _depth_over(value: object, limit: int) -> bool:
    """Whether a parsed JSON value nests more than ``limit`` deep (checked without recursion)."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list | tuple):
            if depth + 1 > limit:
                return True
            stack.extend((v, depth + 1) for v in item if isinstance(v, dict | list | tuple))
    return False


def check_record(data: object, where: str = "record", *, depth_checked: bool = False) -> None:
    """Check that parsed JSON has the shape of a record or save: the format, each header
    field of its type (a seed in range, options an object, a dice script of whole numbers),
    decisions a list, ``final`` and ``snapshot`` objects; SaveError naming the field."""
    if isinstance(data, dict) and data.get("format") == SIDE_SAVE_FORMAT:
        raise SaveError(f"{where}: this is {_shown(data.get('side'))}'s side save (what that side "
                        "may see); it cannot be resumed or replayed: use the game master's save")
    form = data.get("format") if isinstance(data, dict) else None
    if isinstance(form, str) and form.startswith(("tabletop-record/", "tabletop-save/")) \
            and form not in FORMATS:
        raise SaveError(f"{where}: format {_shown(form)} is not one this tabletop reads "
                        f"({', '.join(FORMATS)}): it was written by another version of "
                        "tabletop; update tabletop to read it")
    if not isinstance(data, dict) or form not in FORMATS:
        raise SaveError(f"{where}: not a tabletop record or save (format {RECORD_FORMAT!r} "
                        f"or {SAVE_FORMAT!r} expected)")
    if not depth_checked and _depth_over(data, MAX_DEPTH):
        raise SaveError(f"{where}: nests more than {MAX_DEPTH} levels deep: not a tabletop record")
    header = data.get("header")
    if not isinstance(header, dict):
        raise SaveError(f"{where}: 'header' must be an object")
    if not isinstance(header.get("game"), str) or not header["game"]:
        raise SaveError(f"{where}: header.game must name the game by its id")
    seed = header.get("seed")
    if not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < SEED_LIMIT):
        raise SaveError(f"{where}: header.seed must be a whole number from 0 to {SEED_LIMIT - 1}")
    for key in ("game_version", "engine_version"):
        if key in header and not isinstance(header[key], str):
            raise SaveError(f"{where}: header.{key} must be a string")
    if header.get("scenario") is not None and not isinstance(header["scenario"], str):
        raise SaveError(f"{where}: header.scenario must be a scenario id (a string)")
    if header.get("options") is not None and not isinstance(header["options"], dict):
        raise SaveError(f"{where}: header.options must be an object (option -> value)")
    script = header.get("dice_script")
    if script is not None and not (isinstance(script, list) and all(_is_int(f) for f in script)):
        raise SaveError(f"{where}: header.dice_script must be a list of whole numbers (die faces)")
    forced = header.get("forced_dice")
    if forced is not None and not (isinstance(forced, list) and all(isinstance(f, dict) for f in forced)):
        raise SaveError(f"{where}: header.forced_dice must be a list of forced rolls (objects)")
    for key in ("position", "edited_from"):
        if header.get(key) is not None and not isinstance(header[key], dict):
            raise SaveError(f"{where}: header.{key} must be an object")
    if "free_undo" in header and not isinstance(header["free_undo"], bool):
        raise SaveError(f"{where}: header.free_undo must be true or false")
    if "undos_past_chance" in header:
        undos = header["undos_past_chance"]
        if header.get("free_undo") is not True:
            raise SaveError(f"{where}: header.undos_past_chance is counted only with free_undo")
        if not _is_int(undos) or undos < 0:
            raise SaveError(f"{where}: header.undos_past_chance must be a whole number, 0 or more")
    if not isinstance(data.get("decisions"), list):
        raise SaveError(f"{where}: 'decisions' must be a list")
    if "final" in data and not isinstance(data["final"], dict):
        raise SaveError(f"{where}: 'final' must be an object")
    if "snapshot" in data and not isinstance(data["snapshot"], dict):
        raise SaveError(f"{where}: 'snapshot' must be an object (the saved state)")
    if "resume" in data and (form != RESUMABLE_FORMAT or not isinstance(data["resume"], dict)):
        raise SaveError(f"{where}: 'resume' must be an object (the restore point), in a "
                        f"{RESUMABLE_FORMAT!r} only")


def game_of_record(record: Mapping[str, Any], game_dirs: Any = (), *,
                   loaded: Any = ()) -> Game:
    """The game of a (checked) record: see :func:`~.registry.game_for_record`."""
    from .registry import game_for_record

    return game_for_record(record["header"], game_dirs, loaded=loaded)


def start_of(header: dict[str, Any]) -> dict[str, Any]:
    """The forced dice and the position a record's header starts its match from, as
    keyword arguments of ``Match`` (none for a match started from its set-up)."""
    from .position import Position, PositionError, forced_from_json

    out: dict[str, Any] = {}
    forced = header.get("forced_dice")
    if forced is not None:
        if not isinstance(forced, list) or not all(isinstance(f, dict) for f in forced):
            raise SaveError("header: 'forced_dice' must be a list of forced rolls")
        try:
            out["forced"] = forced_from_json(forced)
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError(f"header: forced_dice: {_short(str(exc))}") from None
    if header.get("position") is not None:
        try:
            out["position"] = Position.model_validate(header["position"])
        except ValueError as exc:
            raise PositionError(f"header: position: {_short(str(exc), 300)}") from None
        out["source"] = "the record's position"
    return out


def check_version(game: Game, header: Mapping[str, Any], *, verify: bool = True) -> None:
    """Refuse a record of another game, or (``verify``) of another version of this game."""
    if header["game"] != game.info.id:
        raise ReplayDivergence(f"record is for game {_shown(header['game'])}, not {game.info.id!r}")
    if verify and header.get("game_version") != game.info.version:
        raise ReplayDivergence(
            f"record was made with {game.info.id} version {_shown(header.get('game_version'))}; "
            f"this is version {_shown(game.info.version)}")


def _older(final: object) -> bool:
    """Whether a record's ``final`` is that of a record made before verification covered
    the whole record (no log hash nor digests)."""
    return isinstance(final, dict) and "log_hash" not in final and set(final) <= OLDER_FINAL_FIELDS


def replay(game: Game, record: dict[str, Any], *, verify: bool = True) -> Match:
    """Rebuild a match from its record; with ``verify``, refuse one that states anything the
    rebuilt match does not.

    The record's shape is checked first (:func:`check_record`, a SaveError). Verifying, the
    game version must be this game's, and every field of the header, every decision as the
    match applied it, every field of ``final`` (counts, event-log hash, state hash, result,
    the digests of header and decisions) and the snapshot of a save must equal what
    replaying the header and decisions gives: the first that differs is named in a
    ReplayDivergence. A record with no ``final``, or the ``final`` of an older tabletop
    (without the log hash), cannot be verified and is refused; without ``verify`` it is
    rebuilt as it is.
    """
    from .match import Match

    check_record(record)
    header = record["header"]
    final = record.get("final")
    check_version(game, header, verify=verify)
    if verify:
        if not isinstance(final, dict) or "state_hash" not in final:
            raise ReplayDivergence("the record has no final state hash: nothing to verify against")
        if _older(final):
            raise ReplayDivergence(
                "the record was made by an older tabletop (its final state has no event-log "
                "hash) and cannot be verified; replay or resume it without verification "
                "with `tabletop replay --no-verify` or `tabletop resume --no-verify`")
    try:
        match = Match(game, scenario=header.get("scenario"), seed=header["seed"],
                      options=header.get("options") or {}, dice_script=header.get("dice_script"),
                      free_undo=header.get("free_undo") is True, **start_of(header))
    except TabletopError as exc:
        raise ReplayDivergence(f"cannot start the recorded match: {_short(str(exc), 300)}") from None
    match.undos_past_chance = header.get("undos_past_chance", 0)
    if header.get("edited_from") is not None:
        match.edited_from = header["edited_from"]
    decisions = record["decisions"]
    point = record.get("resume") if verify and record["format"] == RESUMABLE_FORMAT else None
    stated = point.get("at") if isinstance(point, dict) else None
    at = stated if isinstance(stated, int) and not isinstance(stated, bool) \
        and 0 <= stated <= len(decisions) else None
    seen = pending_point(match) if at == 0 else None
    for n, value in enumerate(decisions, start=1):
        try:
            match.decide(value)
        except (IllegalDecision, TabletopError) as exc:
            raise ReplayDivergence(f"decision {n} of {len(decisions)} diverges: "
                                   f"{_short(str(exc), 300)}") from None
        if n == at:
            seen = pending_point(match)
    if verify:
        _verify(match, record)
        if record["format"] == RESUMABLE_FORMAT:
            _verify_point(record, at, seen)
    return match


def _verify_point(record: dict[str, Any], at: int | None, seen: dict[str, JSON] | None) -> None:
    """Compare a ``tabletop-save/2``'s restore point with the replayed match at its decision
    (``seen``: :func:`pending_point` there)."""
    point = record.get("resume")
    if not isinstance(point, dict):
        raise ReplayDivergence("the save has no restore point (resume)")
    if at is None:
        raise ReplayDivergence(f"resume.at must be a number of decisions from 0 to "
                               f"{len(record['decisions'])}, not {_shown(point.get('at'))}")
    if seen is None:
        raise ReplayDivergence(f"resume.at: decision {at + 1} cannot be asked again (it has no "
                               "resume point): no restore point there")
    if at == len(record["decisions"]) and "state" not in point:
        del seen["state"]  # the snapshot's state serves
    for key in sorted(set(point) - {*POINT_FIELDS, "log"}):
        raise ReplayDivergence(f"resume.{key} is not a field of a restore point")
    for key in seen:
        if key not in point:
            raise ReplayDivergence(f"resume.{key} is missing (the replay gives {_shown(seen[key])})")
        if dumps(point[key]) != dumps(seen[key]):
            raise _differs(f"resume.{key}", point[key], seen[key])
    log = point.get("log")
    if not (isinstance(log, dict) and set(log) == {"file", "bytes", "sha256"}
            and isinstance(log["file"], str) and _is_int(log["bytes"]) and log["bytes"] >= 0
            and isinstance(log["sha256"], str)):
        raise ReplayDivergence(f"resume.log must name the log file, its length in bytes and "
                               f"their sha256, not {_shown(log)}")


def _differs(what: str, stated: object, replayed: object) -> ReplayDivergence:
    return ReplayDivergence(f"{what} differs: the record says {_shown(stated)}, the replay "
                            f"gives {_shown(replayed)}")


SUMMARY_STATED = ("started", "saved", "people")
"""The fields of an autosave's summary that the replay cannot recompute (when the game was
started and saved, who played at the terminal); every other field is compared."""


def summary_facts(match: Match) -> dict[str, JSON]:
    """What an autosave's summary says of the game (core.saves), all of it recomputed by a
    replay: game, title, scenario, turn, phase, decisions, finished, winner, result."""
    result = match.result
    return {
        "game": match.game.info.id,
        "title": match.game.info.title,
        "scenario": match.scenario,
        "turn": match.state.turn,
        "phase": match.state.phase,
        "decisions": len(match.decisions),
        "finished": match.finished,
        "winner": result.winner if result else None,
        "result": result.level if result else None,
    }


def verify_summary(match: Match, summary: object) -> None:
    """Check an autosave's summary (core.saves) against the replayed match: what it says of
    the game must be what the replay gives; when and by whom it was played is only checked
    for its shape."""
    if not isinstance(summary, dict):
        raise ReplayDivergence(f"summary must be an object, not {_shown(summary)}")
    people = summary.get("people")
    if not (isinstance(people, list) and all(p in match.game.info.players for p in people)):
        raise ReplayDivergence(f"summary.people must list sides of {match.game.info.id}, "
                               f"not {_shown(people)}")
    for key in ("started", "saved"):
        if summary.get(key) is not None and not isinstance(summary.get(key), str):
            raise ReplayDivergence(f"summary.{key} must be a date, not {_shown(summary.get(key))}")
    want = summary_facts(match)
    for key in sorted(set(summary) | set(want)):
        if key in SUMMARY_STATED:
            continue
        if key not in want:
            raise ReplayDivergence(f"summary.{key} is not a field of an autosave's summary")
        if key not in summary:
            raise ReplayDivergence(f"summary.{key} is missing (the replay gives {_shown(want[key])})")
        if dumps(summary[key]) != dumps(want[key]):
            raise _differs(f"summary.{key}", summary[key], want[key])


def _verify(match: Match, record: dict[str, Any]) -> None:
    """Compare every field of the record with the replayed match; raise at the first that
    differs (header, decisions, final, snapshot, in that order)."""
    is_save = record["format"] in (SAVE_FORMAT, RESUMABLE_FORMAT)
    expected = make_save(match) if is_save else make_record(match)
    if is_save and "summary" in record:
        verify_summary(match, record["summary"])
    for key in record:
        if key not in expected and not (key == "summary" and is_save) \
                and not (key == "resume" and record["format"] == RESUMABLE_FORMAT):
            raise ReplayDivergence(f"the record has a field {_shown(key)} tabletop does not write")
    header, want = record["header"], expected["header"]
    for key in [*HEADER_ORDER, *sorted(set(header) - set(HEADER_ORDER))]:
        if key == "engine_version":  # which engine wrote it: bound by header_digest alone
            continue
        if key in header and key not in want:
            raise ReplayDivergence(f"header.{key} is stated but the replayed match has none")
        if key in want and key not in header:
            raise ReplayDivergence(f"header.{key} is missing (the replay gives {_shown(want[key])})")
        if key in want and dumps(header[key]) != dumps(want[key]):
            raise _differs(f"header.{key}", header[key], want[key])
    stated, applied = record["decisions"], expected["decisions"]
    for n, (a, b) in enumerate(zip(stated, applied, strict=True), start=1):
        if dumps(a) != dumps(b):
            raise _differs(f"decision {n}", a, b)
    final, want_final = record["final"], expected["final"]
    for key in sorted(set(final) - set(FINAL_FIELDS)):
        raise ReplayDivergence(f"final.{key} is not a field of a record's final state")
    for key in FINAL_FIELDS:
        if key not in final:
            raise ReplayDivergence(f"final.{key} is missing: nothing to verify it against")
        if key == "header_digest":
            if final[key] != digest(header):
                raise ReplayDivergence("final.header_digest differs from the digest of the "
                                       "record's header: the header was changed")
            continue
        if dumps(final[key]) != dumps(want_final[key]):
            if key == "state_hash":
                raise ReplayDivergence(f"final.state_hash differs: replay ends in state "
                                       f"{match.state_hash()[:16]}…, the record says "
                                       f"{_shown(final[key])[:18]}…")
            raise _differs(f"final.{key}", final[key], want_final[key])
    if is_save:
        if "snapshot" not in record:
            raise ReplayDivergence("the save has no snapshot of its state")
        if dumps(record["snapshot"]) != dumps(expected["snapshot"]):
            raise ReplayDivergence("the saved snapshot differs from the replayed state")
