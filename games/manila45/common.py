"""What every rule module shares: places, unit facts, stacking (6.0), terrain and hexside
costs (8.5-8.13), fog of war flips (6.5), elimination and the line of fire (10.7-10.9).

Pieces carry their own status in ``attrs`` (fired, moved, started): a hidden Japanese unit's
attrs are masked in the US view, so nothing about it leaks through public variables. Public
``state.vars`` hold only what both players see on the table: rubble, demolished bridges,
pontoon bridges (US engineers), hexes already attacked, air units used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import ResumePoint
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece

from .components import DIVISIONS, JAPAN, US, Counter, components

# -- places -------------------------------------------------------------------------------
US_DEAD = "box:us_dead"
JP_DEAD = "box:jp_dead"
JP_POOL = "box:jp_pool"
AIR_LATER = "box:air"  # the six air units before turn 3 (7.1)
AIR_READY = "box:air_ready"  # available air units, off the map between attacks (10.23)
MARKERS = "box:markers"
ENTRY_BOX = MappingProxyType({"1cav": "box:us_1cav", "37id": "box:us_37id", "11ab": "box:us_11ab",
                              "xiv": "box:us_xiv"})

# -- the phases of a game turn (5.2) and where their flow may be entered again ------------
SETUP = "setup"  # the Japanese set-up (3.2), before the first turn: the opening's resume entry
MOVE_PHASE = MappingProxyType({US: "us_move", JAPAN: "jp_move"})
FIRE_PHASE = MappingProxyType({US: "us_fire", JAPAN: "jp_fire"})


@dataclass(frozen=True)
class Where:
    """Where a procedure runs in a phase's flow, for the decisions it asks to be asked again
    there (:class:`~tabletop.core.engine.decisions.ResumePoint`): the phase id and what its
    callers need to go back down to it (small JSON: unit ids, hex ids, MP left). The phase
    handler reads them back with ``match.resumed(phase)``. No phase (``NOWHERE``, a
    procedure run on its own): its decisions are not marked."""

    phase: str = ""
    args: Mapping[str, JSON] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # read-only, so that a place (NOWHERE above all) is a constant shared by every match
        object.__setattr__(self, "args", MappingProxyType(dict(self.args)))

    def within(self, **more: JSON) -> Where:
        """This place with more of the callers' facts, for a procedure called from here."""
        return Where(self.phase, {**self.args, **more})

    def point(self, **more: JSON) -> ResumePoint | None:
        """The resume point of a decision asked here, with the facts of the asking
        procedure itself (None when no phase is named)."""
        return ResumePoint(self.phase, {**self.args, **more}) if self.phase else None


NOWHERE = Where()

# -- public variables ---------------------------------------------------------------------
V_RUBBLE = "rubble"  # hex ids with a rubble marker (10.20, 10.21)
V_DEMOLISHED = "bridges_demolished"  # hexside keys (10.19)
V_PONTOONS = "pontoons"  # engineer id -> hexside key (8.9)
V_ATTACKED = "attacked"  # hex ids / targets attacked this offensive fire phase (10.5)
V_AIR_USED = "air_used"  # air unit ids used this game turn (10.23)
V_AMTRAC = "amtrac"  # what the 672nd did this phase: "", "crossing", "coastal" (8.8, 8.10)
V_ENTERED = "entered_orgs"  # organisations whose entry is complete (3.4)
V_SETUP_DONE = "setup_done"

AIR_TURN = 3  # 7.1, 7.5, 10.23: the air units arrive at the start of game turn 3
MP = 16  # 2.9, 8.1
XIV_TURN1_MP = 8  # 3.5, 5.4

ENTER_COST = MappingProxyType({"clear": 1, "airfield": 1, "urban": 2, "heavy": 3})  # 8.5


def other(side: str) -> str:
    """The opposing side."""
    return JAPAN if side == US else US


def counter(piece: Piece) -> Counter:
    """The printed counter of a unit piece."""
    return components().counters[piece.id]


def has(piece: Piece, flag: str) -> bool:
    """Whether a unit has a characteristic (ifc, cac, armored, anti_armor, ...)."""
    return flag in components().counters[piece.id].flags


def is_static(piece: Piece) -> bool:
    """2.9, 8.3: a Japanese static unit."""
    return piece.side == JAPAN and components().counters[piece.id].org == "static"


def org(piece: Piece) -> str:
    """A US unit's organisation (2.6) or a Japanese unit's mobility (2.9)."""
    return components().counters[piece.id].org


def is_unit(piece: Piece) -> bool:
    """Whether a piece is a unit (not a marker)."""
    return piece.id in components().counters


def units_at(match: Match, hex_id: str) -> list[Piece]:
    """The units in a hex, top first."""
    return [p for p in match.state.pieces.at(hex_id) if p.id in components().counters]


def units_on_map(match: Match, side: str) -> list[Piece]:
    """Every unit of a side on the map."""
    comp = components()
    on_map, counters = comp.hexmap.is_hex_id, comp.counters
    return [p for p in match.state.pieces if p.side == side and on_map(p.location) and p.id in counters]


def enemy_in(match: Match, hex_id: str, side: str) -> bool:
    """Whether a hex holds a unit of the other side."""
    return any(p.side != side for p in units_at(match, hex_id))


def sides_present(match: Match, hex_id: str) -> set[str]:
    """The sides with units in a hex."""
    return {p.side for p in units_at(match, hex_id)}


# -- 6.0 stacking ---------------------------------------------------------------------------

def can_stack(match: Match, piece: Piece, hex_id: str) -> bool:
    """6.1-6.4: whether ``piece`` may stand in ``hex_id`` with the friendly units there now:
    two units at most; US divisions never together (XIV Corps with anyone, 6.2); one static
    unit at most in a Japanese stack (6.3)."""
    there = [p for p in units_at(match, hex_id) if p.id != piece.id]
    if any(p.side != piece.side for p in there):
        return False  # 8.14 enemy-occupied
    if len(there) >= 2:
        return False
    if piece.side == US:
        mine = org(piece)
        for p in there:
            theirs = org(p)
            if mine in DIVISIONS and theirs in DIVISIONS and mine != theirs:
                return False
    elif is_static(piece) and any(is_static(p) for p in there):
        return False
    return True


def stacking_problems(match: Match) -> list[str]:
    """6.1-6.4 as an invariant: every hex holds a legal stack of one side."""
    out: list[str] = []
    for hex_id in match.state.pieces.occupied():
        if not components().hexmap.is_hex_id(hex_id):
            continue
        units = units_at(match, hex_id)
        if len({p.side for p in units}) > 1:
            out.append(f"8.14: {hex_id} holds units of both sides")
        if len(units) > 2:
            out.append(f"6.1: {hex_id} holds {len(units)} units")
        us_divs = {org(p) for p in units if p.side == US and org(p) in DIVISIONS}
        if len(us_divs) > 1:
            out.append(f"6.2: {hex_id} mixes {sorted(us_divs)}")
        if sum(1 for p in units if is_static(p)) > 1:
            out.append(f"6.3: {hex_id} holds two static units")
    return out


# -- map facts ------------------------------------------------------------------------------


@cache
def terrain(hex_id: str) -> str:
    """A hex's in-hex terrain."""
    hm = components().hexmap
    return hm.terrain(hm.hex(hex_id))


@cache
def side_key(a: str, b: str) -> str:
    """A hexside as ``"AAAA-BBBB"`` (ids ascending)."""
    x, y = sorted((a, b))
    return f"{x}-{y}"


@cache
def is_coastal(hex_id: str) -> bool:
    """8.10: a land hex beside an all-sea hex."""
    hm = components().hexmap
    return hm.has_feature(hm.hex(hex_id), "coast")


@cache
def on_plateau_hex(hex_id: str) -> bool:
    """10.10: whether a hex is on a plateau, behind a 100 m contour line.

    The plateaus are the areas enclosed by contour hexsides against the map's east edge; a hex
    is on one when it lies on the far side of an odd number of contour hexsides from the
    bay (counted along a path from the bay shore). Computed once by flooding from the sea.
    """
    return hex_id in _plateau_hexes()


@cache
def _plateau_hexes() -> frozenset[str]:
    hm = components().hexmap
    # Flood from every sea-side land hex without crossing a contour hexside: the low ground.
    low: set[str] = set()
    start = [hm.label(h) for h in hm.hexes() if hm.has_feature(h, "coast")]
    low.update(start)
    todo = list(start)
    while todo:
        cur = todo.pop()
        for n in hm.neighbor_ids(cur):
            if n in low or terrain(n) == "sea" or "contour" in hm.id_hexside_features(cur, n):
                continue
            low.add(n)
            todo.append(n)
    return frozenset(hm.label(h) for h in hm.hexes()
                     if hm.label(h) not in low and hm.terrain(h) != "sea")


@cache
def is_north_west(hex_id: str) -> bool:
    """4.3: north of the Pasig and west of the San Juan."""
    hm = components().hexmap
    return bool(hm.attr(hm.hex(hex_id), "north_west"))


@cache
def inside_wall(hex_id: str) -> bool:
    """10.9: one of the four hexes inside the Intramuros wall."""
    hm = components().hexmap
    return bool(hm.attr(hm.hex(hex_id), "intramuros"))


def has_lof(match: Match, a: str, b: str) -> bool:
    """10.7-10.9: whether a direct line of fire runs from hex a to hex b (urban and heavy
    structures block, 10.8; the wall stops it, 10.9)."""
    return line_clear(a, b, str(match.options.get("lof_along", "both")))


def indirect_wall_stops(match: Match) -> bool:
    """10.9 against 11.1-11.2: whether the wall stops indirect fire too (option
    ``indirect_wall=stops``); by default indirect fire ignores it, as all blocking terrain."""
    return bool(match.options.get("indirect_wall", "ignored") == "stops")


def indirect_lof(match: Match, a: str, b: str) -> bool:
    """11.1-11.2: whether indirect fire may go from hex a to hex b: always ("not affected by
    blocking terrain of any kinds"), or, with option ``indirect_wall=stops``, unless the
    wall stops the line before b (10.9 "no matter from which side, and at what range(s)")."""
    if not indirect_wall_stops(match):
        return True
    return line_clear(a, b, str(match.options.get("lof_along", "both")), wall_only=True)


@cache
def line_clear(a: str, b: str, along: str, *, wall_only: bool = False) -> bool:
    """10.7-10.9: whether the line from hex a to hex b is clear under the ``lof_along``
    convention: of blocking terrain and the wall, or (``wall_only``) of the wall alone."""
    comp = components()
    if wall_only:
        los = comp.los_wall if along == "both" else comp.los_wall_either
    else:
        los = comp.los if along == "both" else comp.los_either
    hm = comp.hexmap
    return los.is_clear(hm.hex(a), hm.hex(b))


def bridge_intact(match: Match, a: str, b: str) -> bool:
    """8.7, 10.19: a printed bridge on the hexside, not demolished."""
    return ("bridge" in components().hexmap.id_hexside_features(a, b)
            and side_key(a, b) not in match.state.vars[V_DEMOLISHED])


def pontoon_on(match: Match, a: str, b: str) -> bool:
    """8.9: a US pontoon bridge stands on the hexside."""
    return side_key(a, b) in match.state.vars[V_PONTOONS].values()


def bridged(match: Match, a: str, b: str, side: str) -> bool:
    """Whether a river hexside is bridged for ``side``: a printed bridge still standing, or
    (for the US) a pontoon bridge."""
    return bridge_intact(match, a, b) or (side == US and pontoon_on(match, a, b))


# -- 6.5 fog of war, elimination ------------------------------------------------------------

def say(match: Match, kind: str, section: str, template: str, /, *,
        visible_to: tuple[str, ...] = (), **data: JSON) -> None:
    """Log an event whose text is written from its data alone: ``template`` formatted with
    the same fields the event carries, so every number the text states is a field a rule
    test reads (unit, name, hex, mp_left, ...)."""
    match.emit(kind, section, template.format(**data), visible_to=visible_to, **data)


def reveal(match: Match, pieces: Iterable[Piece], why: str) -> None:
    """6.5: Japanese units flipped face-up for good when they fire or are fired on."""
    for p in pieces:
        if p.side == JAPAN and p.hidden:
            p.hidden = False
            p.face = "front"
            p.attrs["revealed"] = True
            c = counter(p)
            data: dict[str, JSON] = {"unit": p.id, "name": p.name, "type": c.type,
                                     "type_name": components().types[c.type].name, "fire": c.fire,
                                     "range": c.range, "hex": p.location, "why": why}
            match.reveal(p, "6.5", "{name} ({type_name}, fire {fire}, range {range}) in {hex} is "
                         "flipped face-up: it {why}".format(**data), **data)


@cache
def is_setup_hex(hex_id: str) -> bool:
    """3.2: neither a map-edge hex nor a hex next to one, and not all-sea (8.13)."""
    if terrain(hex_id) == "sea":
        return False
    return _edge_distance(hex_id) >= 2


def _edge_distance(hex_id: str) -> int:
    return components().hexmap.edge_distance(components().hexmap.hex(hex_id))


def who(piece: Piece, viewer: str) -> str:
    """How a unit is named to ``viewer``: its name, or "a hidden unit" when face-down to them."""
    if piece.hidden and piece.side != viewer:
        return "a face-down Japanese unit"
    return piece.name


def reset_phase_flags(match: Match) -> None:
    """Clear the per-phase marks (fired 10.2, moved 8.1, the hexes attacked 10.5)."""
    for p in match.state.pieces:
        if p.attrs:
            p.attrs["fired"] = False
            p.attrs["moved"] = False
    match.state.vars[V_ATTACKED] = []
    match.state.vars[V_AMTRAC] = ""
