"""Match records, saves and replay: JSON only, written atomically, verified on load.

A *record* is the header plus the decisions (and, once known, the final state hash). A
*save* is a record plus a snapshot of the state, so that a resumed match can be checked
against what was saved.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .canonical import JSON, dumps
from .errors import IllegalDecision, ReplayDivergence, SaveError, TabletopError
from .views import SIDE_SAVE_FORMAT

if TYPE_CHECKING:
    from .match import Game, Match

RECORD_FORMAT = "tabletop-record/1"
SAVE_FORMAT = "tabletop-save/1"


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write text to a file atomically: a temporary file in the same folder, then rename."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise SaveError(f"{target}: cannot write ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise SaveError(f"{target}: cannot write ({exc.strerror or exc})") from None


def make_record(match: Match) -> dict[str, JSON]:
    """The match's record: header, decisions, and its current outcome for verification."""
    return {
        "format": RECORD_FORMAT,
        "header": match.header(),
        "decisions": list(match.decisions),
        "final": {
            "state_hash": match.state_hash(),
            "events": len(match.log),
            "finished": match.finished,
            "result": match.result.to_json() if match.result else None,
        },
    }


def make_save(match: Match) -> dict[str, JSON]:
    """A save file: the record plus a snapshot of the whole state."""
    save = make_record(match)
    save["format"] = SAVE_FORMAT
    save["snapshot"] = match.state_json()
    return save


def write_record(match: Match, path: str | Path) -> None:
    """Write the match record as JSON, atomically."""
    atomic_write_text(path, json.dumps(make_record(match), indent=1, ensure_ascii=False) + "\n")


def write_save(match: Match, path: str | Path) -> None:
    """Save the match (record + snapshot) as JSON, atomically."""
    atomic_write_text(path, json.dumps(make_save(match), indent=1, ensure_ascii=False) + "\n")


def read_record(path: str | Path) -> dict[str, Any]:
    """Read a record or save file, checking its shape; SaveError with the reason otherwise."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SaveError(f"{p}: cannot read ({exc.strerror or exc})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError(f"{p}: not a JSON record ({exc})") from None
    if isinstance(data, dict) and data.get("format") == SIDE_SAVE_FORMAT:
        raise SaveError(f"{p}: this is {data.get('side')}'s side save (what that side may see); "
                        "it cannot be resumed or replayed: use the game master's save")
    if not isinstance(data, dict) or data.get("format") not in (RECORD_FORMAT, SAVE_FORMAT):
        raise SaveError(f"{p}: not a tabletop record or save (format {RECORD_FORMAT!r} "
                        f"or {SAVE_FORMAT!r} expected)")
    header = data.get("header")
    if not isinstance(header, dict) or not isinstance(header.get("game"), str) \
            or not isinstance(header.get("seed"), int):
        raise SaveError(f"{p}: header must name the game and an integer seed")
    if not isinstance(data.get("decisions"), list):
        raise SaveError(f"{p}: 'decisions' must be a list")
    return data


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
            raise SaveError(f"header: forced_dice: {exc}") from None
    if header.get("position") is not None:
        try:
            out["position"] = Position.model_validate(header["position"])
        except ValueError as exc:
            raise PositionError(f"header: position: {' '.join(str(exc).split())[:300]}") from None
        out["source"] = "the record's position"
    return out


def replay(game: Game, record: dict[str, Any], *, verify: bool = True) -> Match:
    """Rebuild a match from its record; with ``verify``, refuse one that diverges.

    Divergence is a decision not legal where the record puts it, a game version that
    differs, or a final state hash (or event count) other than the recorded one.
    """
    from .match import Match

    header = record["header"]
    if header.get("game") != game.info.id:
        raise ReplayDivergence(f"record is for game {header.get('game')!r}, not {game.info.id!r}")
    if verify and header.get("game_version") != game.info.version:
        raise ReplayDivergence(
            f"record was made with {game.info.id} version {header.get('game_version')!r}; "
            f"this is version {game.info.version!r}")
    try:
        match = Match(game, scenario=header.get("scenario"), seed=header["seed"],
                      options=header.get("options") or {}, dice_script=header.get("dice_script"),
                      **start_of(header))
    except TabletopError as exc:
        raise ReplayDivergence(f"cannot start the recorded match: {exc}") from None
    for n, value in enumerate(record["decisions"], start=1):
        try:
            match.decide(value)
        except (IllegalDecision, TabletopError) as exc:
            raise ReplayDivergence(f"decision {n} of {len(record['decisions'])} diverges: {exc}") from None
    final = record.get("final")
    if verify and isinstance(final, dict):
        want = final.get("state_hash")
        if want is not None and want != match.state_hash():
            raise ReplayDivergence(
                f"replay ends in state {match.state_hash()[:16]}…, the record says {str(want)[:16]}…")
        events = final.get("events")
        if events is not None and events != len(match.log):
            raise ReplayDivergence(f"replay logged {len(match.log)} events, the record says {events}")
    snapshot = record.get("snapshot")
    if verify and isinstance(snapshot, dict) and dumps(snapshot) != dumps(match.state_json()):
        raise ReplayDivergence("the saved snapshot differs from the replayed state")
    return match
