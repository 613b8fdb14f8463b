"""3.0 Set up: the turn marker (3.1), the Japanese set-up face down (3.2, 6.5), the US piles
(3.3). US map entry (3.4, 3.5) happens in the first US movement phase (movement.py).

The Japanese player places his units one at a time, takes the Japanese bot's set-up (and may
then adjust it unit by unit), or gives a whole set-up as the match option ``setup`` (a mapping
unit id -> hex id, checked against 3.2 and 6.3 before play starts). Every Japanese set-up
decision is private: the US sees only where face-down units stand.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Option, ResumePoint, ask_str, choose
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece

from . import common as c
from .common import is_setup_hex
from .components import JAPAN, US, components


def build_pieces(match: Match) -> None:
    """3.1, 3.3: every counter in its place before set-up — the turn marker on "3-5 Feb",
    markers aside (2.12), the Japanese units in the set-up pool face down (6.5), the US units sorted
    into one pile per organisation, the six air units waiting for turn 3 (7.1)."""
    comp = components()
    pieces = match.state.pieces
    for cid, ctr in comp.counters.items():
        values = {"front": {"fire": ctr.fire, "range": ctr.range}}
        attrs = {"fired": False, "moved": False}
        if ctr.side == JAPAN:
            pieces.add(Piece(cid, ctr.type, JAPAN, ctr.name, c.JP_POOL, face="back",
                             values=values, hidden=True, attrs=attrs))
        else:
            where = c.AIR_LATER if ctr.has("air") else c.ENTRY_BOX[ctr.org]
            pieces.add(Piece(cid, ctr.type, US, ctr.name, where, values=values, attrs=attrs))
    for marker in comp.markers:
        for n in range(1, marker.count + 1):
            pid = marker.id if marker.count == 1 else f"{marker.id}-{n}"
            pieces.add(Piece(pid, marker.id, "", marker.name, c.MARKERS))
    match.state.track("turn", 1, 1, 10, section="3.1")
    c.say(match, "setup", "3.1", "the Game Turn marker is on the {turn_box} box", turn=1,
          turn_box=comp.turn_track.boxes[0])


def setup_hexes(match: Match, piece: Piece) -> list[str]:
    """3.2, 6.3: the hexes where a Japanese unit may be placed now."""
    return [h for h in _all_setup_hexes() if c.can_stack(match, piece, h)]


@cache
def _all_setup_hexes() -> tuple[str, ...]:
    """3.2: every hex a Japanese unit may set up in, in the map's order (worked out once)."""
    hm = components().hexmap
    return tuple(hm.label(h) for h in hm.hexes() if is_setup_hex(hm.label(h)))


def check_setup_mapping(match: Match, setup: Mapping[str, JSON]) -> None:
    """3.2, 6.3: a whole set-up given as data names every Japanese unit once, each on a
    legal set-up hex, stacked legally; otherwise one clear error and nothing placed."""
    japanese = sorted(p.id for p in match.state.pieces if p.side == JAPAN)
    if sorted(setup) != japanese:
        missing = sorted(set(japanese) - set(setup))[:5]
        extra = sorted(set(setup) - set(japanese))[:5]
        raise TabletopError(f"3.2: the set-up must place every Japanese unit once "
                            f"(missing {missing}, unknown {extra})")
    counts: dict[str, list[str]] = {}
    for uid, hex_id in setup.items():
        if not isinstance(hex_id, str) or hex_id not in components().hexmap:
            raise TabletopError(f"3.2: {uid} is set up in {hex_id!r}, which is no hex of the map")
        if not is_setup_hex(hex_id):
            raise TabletopError(f"3.2: {uid} may not set up in {hex_id} (all-sea, a map-edge "
                                f"hex or next to one)")
        counts.setdefault(hex_id, []).append(uid)
    for hex_id, uids in counts.items():
        statics = [u for u in uids if components().counters[u].org == "static"]
        if len(uids) > 2 or len(statics) > 1:
            raise TabletopError(f"6.3: {hex_id} would hold {uids}")


def japanese_setup(match: Match, back: JSON = None) -> Procedure[None]:
    """3.2: the Japanese set-up, all units on the map face down, none in the two outer rows.

    ``back``: the set-up entered again at one of its decisions (the resume point's args,
    ``{"step": "place"|"adjust", "unit": ...}``); it goes straight back to it, the units
    placed so far standing where they are."""
    given = match.options.get("setup")
    pieces = match.state.pieces
    pool = [p for p in pieces if p.side == JAPAN]
    if isinstance(given, dict) and given:
        for uid, hex_id in sorted(given.items()):
            pieces.move(uid, str(hex_id))
        _placed(match, "the set-up given as data")
        return
    step = back.get("step") if isinstance(back, dict) else None
    if step is None:
        how = yield choose(JAPAN, "Japanese set-up: how?", "3.2",
                           [Option("one_by_one", "place each unit yourself"),
                            Option("bot", "take the Japanese bot's set-up, then adjust it")],
                           kind="setup_mode", private=True, resume=ResumePoint(c.SETUP))
    else:
        how = "bot" if step == "adjust" else "one_by_one"
    if how == "bot":
        if step is None:
            from .bots import heuristic_setup

            for uid, hex_id in heuristic_setup(match, match.seed):
                pieces.move(uid, hex_id)
        yield from _adjust(match, back)
    else:
        if step is not None:  # the units before this one are placed
            assert isinstance(back, dict)
            pool = pool[[p.id for p in pool].index(back["unit"]):]
        for p in pool:
            hexes = setup_hexes(match, p)
            kind = components().types[p.kind].name
            where = yield from ask_str(choose(JAPAN, f"3.2: place {p.name} ({kind})", "3.2", hexes,
                                              kind="setup_hex", context={"unit": p.id}, private=True,
                                              resume=ResumePoint(c.SETUP, {"step": "place", "unit": p.id})))
            pieces.move(p.id, where)
    _placed(match, "placed by the Japanese player")


def _adjust(match: Match, back: JSON = None) -> Procedure[None]:
    """3.2: after taking the bot's set-up, move units one at a time until done (``back``
    names the unit being moved when the set-up is entered again at its new hex)."""
    pieces = match.state.pieces
    while True:
        if isinstance(back, dict) and back.get("unit"):
            pick = str(back["unit"])
        else:
            units = [p for p in pieces if p.side == JAPAN and components().hexmap.is_hex_id(p.location)]
            opts = [Option(DONE, "the set-up is complete")]
            opts += [Option(p.id, f"{p.name} in {p.location}") for p in units]
            pick = yield from ask_str(choose(JAPAN, "3.2: adjust a unit, or finish", "3.2", opts,
                                             kind="setup_adjust", private=True,
                                             resume=ResumePoint(c.SETUP, {"step": "adjust"})))
        back = None
        if pick == DONE:
            return
        piece = pieces[pick]
        hexes = [h for h in setup_hexes(match, piece) if h != piece.location]
        if not hexes:
            continue
        where = yield from ask_str(choose(JAPAN, f"3.2: move {piece.name} to", "3.2", hexes,
                                          kind="setup_hex", context={"unit": piece.id}, private=True,
                                          resume=ResumePoint(c.SETUP, {"step": "adjust", "unit": piece.id})))
        pieces.move(piece.id, where)


def _placed(match: Match, how: str) -> None:
    for p in match.state.pieces:
        if p.side == JAPAN:
            c.say(match, "setup", "3.2", "{name} set up face down in {hex}", visible_to=(JAPAN,),
                  unit=p.id, name=p.name, hex=p.location)
    n = sum(1 for p in match.state.pieces if p.side == JAPAN)
    c.say(match, "setup", "3.2", "the Japanese set-up is complete: {units} units face down ({how})",
          units=n, how=how)
    match.state.vars[c.V_SETUP_DONE] = True
