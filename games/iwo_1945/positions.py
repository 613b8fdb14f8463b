"""2.0 Game Board and 3.0 Game Components: what stands where, control, bunkers, Suribachi.

Every piece is in one place: a board position (beach or island), or an off-board box of
board.yaml. USMC markers carry their regiment in ``attrs["regiment"]``; an exhaustion cube
carries the regiment it marks and stands in that regiment's position (3.0). Cohesion lives
on one track per regiment (4.0); a red cube piece on each cohesion-track box mirrors it for
the pictures.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from tabletop.core.engine.match import Procedure
from tabletop.core.engine.pieces import OFF_BOARD, Piece
from tabletop.core.engine.text import ordinal

from .components import Components, load_components

if TYPE_CHECKING:
    from tabletop.core.engine.match import Match

USMC = "USMC"
JAPAN = "Japan"
RESERVE = "usmc_reserve"
USMC_ELIMINATED = "usmc_eliminated"
JAPANESE_ELIMINATED = "japanese_eliminated"
SUPPLY = "cube_supply"
EMBLEM = "suribachi_emblem"
SURIBACHI = "mt_suribachi"
RISING_SUN = ("rising_sun_1", "rising_sun_2", "rising_sun_3")
MARKER_KINDS = ("marine", "ija")
SLOTS = 3
T = TypeVar("T")

Flow = Procedure[Any]
"""A piece of the game's procedure (the core's ``Procedure``): yields decisions, may return a
value to its caller."""


@lru_cache(maxsize=1)
def comps() -> Components:
    """3.0: every component, loaded once and cross-checked."""
    return load_components()


@lru_cache(maxsize=1)
def islands() -> tuple[str, ...]:
    """2.0: the ten island positions, attack priority 1 (highest) first (6.0)."""
    return tuple(comps().island_positions())


@lru_cache(maxsize=1)
def beaches() -> tuple[str, ...]:
    """2.0: the beaches left to right, Green, Red, Yellow, Blue (6.0)."""
    return tuple(comps().beaches())


@lru_cache(maxsize=1)
def positions() -> tuple[str, ...]:
    """2.0: every board position, islands (by priority) then beaches (left to right)."""
    return islands() + beaches()


@lru_cache(maxsize=1)
def position_set() -> frozenset[str]:
    """2.0: every board position, for membership tests."""
    return frozenset(positions())


@cache
def adjacent(pos: str) -> tuple[str, ...]:
    """2.0: the positions joined to ``pos`` by an arrow."""
    return tuple(comps().neighbours(pos))


@lru_cache(maxsize=1)
def _island_set() -> frozenset[str]:
    return frozenset(islands())


@lru_cache(maxsize=1)
def _beach_set() -> frozenset[str]:
    return frozenset(beaches())


def is_island(pos: str) -> bool:
    """2.0: an island (numbered) position, not a beach."""
    return pos in _island_set()


def is_beach(pos: str) -> bool:
    """2.0: a beach position (USMC only)."""
    return pos in _beach_set()


@cache
def is_mountain(pos: str) -> bool:
    """2.0: a position with the mountain icon (USMC attacks on it roll one die less, 6.0)."""
    return comps().positions[pos].mountain


@cache
def priority(pos: str) -> int:
    """6.0: the attack priority of an island position (1 highest, 10 lowest)."""
    return comps().positions[pos].priority or 99


@cache
def name(pos: str) -> str:
    """The printed name of a position or box."""
    if pos in comps().positions:
        return comps().name(pos)
    return pos.replace("_", " ")


# -- what stands where ----------------------------------------------------------------------
class Place:
    """What stands in one place (3.0), each group in stack order (top first): the formation
    markers, the Japanese and the USMC ones, the infiltration cube and the bunker (the first
    of each, if any) and the regiment of the first USMC marker."""

    __slots__ = ("bunker", "cube", "japanese", "markers", "regiment", "usmc")

    def __init__(self, stack: tuple[Piece, ...]) -> None:
        markers: list[Piece] = []
        japanese: list[Piece] = []
        usmc: list[Piece] = []
        self.cube = self.bunker = None
        for p in stack:
            kind = p.kind
            if kind == "ija":
                markers.append(p)
                japanese.append(p)
            elif kind == "marine":
                markers.append(p)
                usmc.append(p)
            elif kind == "infiltration":
                self.cube = self.cube or p
            elif kind == "bunker":
                self.bunker = self.bunker or p
        self.markers, self.japanese, self.usmc = tuple(markers), tuple(japanese), tuple(usmc)
        self.regiment = str(usmc[0].attrs["regiment"]) if usmc else None


# The rules ask what stands in a position, where a regiment is and which cube marks it some
# 19,000 times a game, against fewer than 200 changes to the pieces: the answers are kept in
# the match's memo (``m.state.memo``, tabletop.core.engine.memo), which throws each away when the
# pieces it was derived from change. The answers are the pieces' own (the caller must not
# change what it is handed) in the order a scan of the registry gives them.
_PLACES = "iwo_1945.places"
_REGIMENTS = "iwo_1945.regiments"
_EXHAUSTION = "iwo_1945.exhaustion"


def _place(m: Match, pos: str) -> Place:
    """3.0: what stands in a place now (kept while its stack does not change)."""
    table = m.state.memo.by_place(_PLACES)
    got: Place | None = table.get(pos)
    if got is None:
        got = table[pos] = Place(m.state.pieces.stack(pos))
    return got


def places_now(m: Match) -> dict[str, Place]:
    """The places worked out so far for the pieces as they are now (a place not in it is
    asked of :func:`_place`), for a caller that looks at many places while no piece changes:
    it must not change what it is handed."""
    return m.state.memo.by_place(_PLACES)


def _regiments(m: Match) -> dict[str, tuple[Piece, ...]]:
    """3.0: each regiment's markers still in play (eliminated or out of play left out), in
    registry order; a regiment with none is absent (kept while no piece moves)."""
    def work_out() -> dict[str, tuple[Piece, ...]]:
        gone = (USMC_ELIMINATED, OFF_BOARD)
        alive = {rid: tuple([p for p in ps if p.location not in gone])
                 for rid, ps in m.state.pieces.by_attr("marine", "regiment").items()}
        return {rid: ps for rid, ps in alive.items() if ps}
    return m.state.memo.on_layout(_REGIMENTS, work_out)


def by_layout(m: Match, key: Any, work_out: Callable[[], T]) -> T:
    """What ``work_out()`` answers, kept under ``key`` while no piece changes place or stack
    order: for a question about what stands where alone (which positions a regiment may
    attack or enter), asked again and again between two moves. The caller must not change
    what it is handed."""
    return m.state.memo.on_layout(("iwo_1945", key), work_out)


def _exhaustion(m: Match) -> dict[str, Piece]:
    """3.0: the exhaustion cube marking each exhausted regiment (the first in registry
    order, should two mark one), kept while no piece changes."""
    def work_out() -> dict[str, Piece]:
        marks: dict[str, Piece] = {}
        for p in m.state.pieces.select(kind="exhaustion"):
            rid = p.attrs.get("regiment")
            if rid is not None:
                marks.setdefault(rid, p)
        return marks
    return m.state.memo.on_change(_EXHAUSTION, work_out)


def markers_at(m: Match, pos: str) -> list[Piece]:
    """3.0: the wooden formation markers (USMC and Japanese) in a position."""
    return list(_place(m, pos).markers)


def japanese_at(m: Match, pos: str) -> list[Piece]:
    """3.0: the Japanese markers in a position."""
    return list(_place(m, pos).japanese)


def usmc_at(m: Match, pos: str) -> list[Piece]:
    """3.0: the USMC markers in a position."""
    return list(_place(m, pos).usmc)


def cube_at(m: Match, pos: str) -> Piece | None:
    """6.0: the infiltration cube in a position, if any."""
    return _place(m, pos).cube


def bunker_at(m: Match, pos: str) -> Piece | None:
    """3.0: the bunker cube in a position, if any (at most one)."""
    return _place(m, pos).bunker


def free_slots(m: Match, pos: str) -> int:
    """2.0, 6.0: empty marker slots; an infiltration cube takes a slot, a bunker does not.
    Never below 0: with the reading ``cube_slot=entry`` a regiment of three markers may join
    a cube (docs/games/iwo_1945.md §5), and the position then simply has no empty slot."""
    here = _place(m, pos)
    return max(0, SLOTS - len(here.markers) - (1 if here.cube else 0))


def cube_keeps_its_slot(m: Match) -> bool:
    """2.0 vs 6.0: with ``cube_slot=always`` an infiltration cube holds its slot for as long
    as it stays (no more than three markers and cube together); with ``entry`` (ours) the slot
    rule binds only the cube's own entry."""
    return bool(m.options.get("cube_slot", "entry") == "always")


def has_room_for(m: Match, markers: int, pos: str) -> bool:
    """2.0: may ``markers`` USMC markers enter a vacant position? Always, unless the cube
    there keeps its slot (``cube_slot=always``) and they would make four."""
    if not cube_keeps_its_slot(m) or _place(m, pos).cube is None:
        return True
    return len(_place(m, pos).markers) + markers + 1 <= SLOTS


def is_japanese_occupied(m: Match, pos: str) -> bool:
    """2.0: a position holding Japanese markers."""
    return bool(_place(m, pos).japanese)


def is_usmc_occupied(m: Match, pos: str) -> bool:
    """2.0: a position holding USMC markers."""
    return bool(_place(m, pos).usmc)


def is_vacant(m: Match, pos: str) -> bool:
    """2.0: a position with no markers (cubes do not occupy)."""
    return not _place(m, pos).markers


# -- regiments ---------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _regiment_ids() -> tuple[str, ...]:
    return tuple(r.id for r in comps().pieces.usmc.regiments)


def regiment_ids() -> list[str]:
    """3.0: the nine regiments."""
    return list(_regiment_ids())


def regiment_markers(m: Match, rid: str) -> list[Piece]:
    """3.0: the markers of a regiment still in play."""
    return list(_regiments(m).get(rid, ()))


def regiment_pos(m: Match, rid: str) -> str | None:
    """3.0: where a regiment stands (a position or the reserve), None once eliminated."""
    alive = _regiments(m).get(rid)
    return alive[0].location if alive else None


def regiment_at(m: Match, pos: str) -> str | None:
    """3.0: the regiment in a position (never more than one: they hold three slots)."""
    return _place(m, pos).regiment


def on_board(m: Match) -> list[str]:
    """3.0: the regiments on the board (not in reserve, not eliminated), in set order."""
    alive = _regiments(m)
    return [rid for rid in _regiment_ids()
            if (ps := alive.get(rid)) is not None and ps[0].location != RESERVE]


def reserves(m: Match) -> list[str]:
    """5.0: the regiments still off board."""
    alive = _regiments(m)
    return [rid for rid in _regiment_ids()
            if (ps := alive.get(rid)) is not None and ps[0].location == RESERVE]


def track_id(rid: str) -> str:
    """4.0: the id of a regiment's cohesion track."""
    return f"cohesion:{rid}"


def cohesion(m: Match, rid: str) -> int:
    """4.0: a regiment's cohesion, 12 to 1."""
    return m.state.tracks[track_id(rid)].value


def set_cohesion(m: Match, rid: str, value: int) -> int:
    """4.0: move a regiment's cohesion cube (never below 1 nor above 12); returns the value.

    The track is the owner; the cube piece on the cohesion track (``attrs["value"]``) is a
    view for the pictures, written here and nowhere else."""
    v = m.state.tracks[track_id(rid)].set(value)
    shown = m.state.pieces[cohesion_piece(rid)].attrs
    if shown.get("value") != v or type(shown.get("value")) is not int:
        shown["value"] = v  # unchanged, it is left as it is (nothing to show again)
    return v


def cohesion_piece(rid: str) -> str:
    """4.0: the id of the cube piece that shows a regiment's cohesion on its track."""
    return f"cohesion {rid}"


def set_exhausted(m: Match, rid: str, exhausted: bool) -> None:
    """3.0, 4.0: place (or take back to the supply) the red exhaustion cube of a regiment,
    with no check rolled (a position, a test); the one owner of exhaustion is that cube."""
    cube = exhaustion_cube(m, rid)
    if not exhausted:
        if cube is not None:
            cube.attrs.pop("regiment", None)
            m.state.pieces.move(cube.id, SUPPLY)
        return
    if cube is not None:
        return
    free = next((p for p in m.state.pieces.at(SUPPLY) if p.kind == "exhaustion"), None)
    if free is None:
        raise ValueError("3.0: no exhaustion cube is left beside the board")
    free.attrs["regiment"] = rid
    m.state.pieces.move(free.id, regiment_pos(m, rid) or SUPPLY)


def regiment_problems(m: Match) -> list[str]:
    """3.0, 4.0: a cohesion cube that shows another value than its track, an exhaustion cube
    not with its regiment or marking a regiment at 6 or more (never exhausted, 4.0 Note)."""
    out = []
    for rid in regiment_ids():
        shown = m.state.pieces[cohesion_piece(rid)].attrs.get("value")
        if shown != cohesion(m, rid):
            out.append(f"4.0: piece {cohesion_piece(rid)!r} shows {shown} but the {rid} "
                       f"cohesion track is at {cohesion(m, rid)} (set status cohesion on a "
                       "marker of the regiment instead)")
        cube = exhaustion_cube(m, rid)
        if cube is not None and cohesion(m, rid) > EXHAUSTION_THRESHOLD:
            out.append(f"4.0: {rid} is marked exhausted ({cube.id}) at cohesion "
                       f"{cohesion(m, rid)}: regiments at 6 or higher are never exhausted")
    return out


EXHAUSTION_THRESHOLD = 5  # 4.0: at 5 or less a regiment must check; 6+ never exhausted
SURIBACHI_BONUS = 2  # 2.0: the first USMC occupation of Mt. Suribachi raises every on-board track by 2


def rally(m: Match, rid: str, section: str, why: str) -> None:
    """4.0, 6.0 Regroup: an exhausted regiment at 6 or more is rallied; its cube is removed."""
    cube = exhaustion_cube(m, rid)
    if cube is None:
        return
    set_exhausted(m, rid, False)
    m.emit("exhaustion", section, f"{rid} rallies: no longer exhausted ({why})", regiment=rid,
           exhausted=False, cohesion=cohesion(m, rid), rally_at=EXHAUSTION_THRESHOLD + 1)


def exhaustion_cube(m: Match, rid: str) -> Piece | None:
    """3.0: the exhaustion cube marking a regiment, if it is exhausted."""
    return _exhaustion(m).get(rid)


def is_exhausted(m: Match, rid: str) -> bool:
    """4.0: a regiment that failed its last exhaustion check."""
    return exhaustion_cube(m, rid) is not None


def is_infiltrated(m: Match, rid: str) -> bool:
    """6.0: a regiment sharing its position with an infiltration cube."""
    pos = regiment_pos(m, rid)
    return pos is not None and _place(m, pos).cube is not None


def label(rid: str, m: Match) -> str:
    """A regiment with where it stands and its cohesion, for option labels."""
    alive = _regiments(m).get(rid, ())
    return _label(rid, alive[0].location if alive else None, len(alive), cohesion(m, rid),
                  is_exhausted(m, rid))


@lru_cache(maxsize=4096)
def _label(rid: str, pos: str | None, n: int, value: int, exhausted: bool) -> str:
    """:func:`label` once what it shows is known (a pure function of it, kept)."""
    ex = ", exhausted" if exhausted else ""
    regiment = rid.partition("/")[2]
    called = f"{rid} ({ordinal(regiment)} Marines)" if regiment.isdigit() else rid
    return f"{called} at {name(pos or '')} ({n} markers, cohesion {value}{ex})"


# -- control (2.0) -------------------------------------------------------------------------
# One owner: ``vars["held"]`` (the side whose markers last solely occupied a position) with
# the pieces (markers, infiltration cubes). ``vars["control"]`` is a derived view, written
# only by :func:`update_control` (bots and the log read it); :func:`control` derives it.
def control(m: Match, pos: str) -> str:
    """2.0: who controls a position (USMC or Japan), derived from its owner (held + cube)."""
    return expected_control(m, pos)


def expected_control(m: Match, pos: str) -> str:
    """2.0: control from the rule itself: an infiltration cube takes it (6.0); otherwise the
    side whose markers last solely occupied the position (Japanese until then)."""
    if _place(m, pos).cube is not None:
        return JAPAN
    return str(m.state.vars["held"][pos])


def held_by(m: Match, pos: str) -> str:
    """2.0: the side whose markers last solely occupied a position (its markers now, if any)."""
    markers = _place(m, pos).markers
    if markers:
        return USMC if markers[0].kind == "marine" else JAPAN
    return str(m.state.vars["held"][pos])


def set_held(m: Match, pos: str, side: str) -> None:
    """2.0: record that ``side`` last solely occupied a vacant position (a position of a test
    or a position file), and bring control up to date without logging."""
    if side not in (USMC, JAPAN):
        raise ValueError(f"2.0: a position is held by {USMC} or {JAPAN}, not {side!r}")
    m.state.vars["held"][pos] = side
    m.state.vars["control"][pos] = expected_control(m, pos)


def control_problems(m: Match) -> list[str]:
    """2.0: where the stored view of control, or who held a position, disagrees with the
    pieces (each problem names the position and both sides of the disagreement)."""
    out = []
    for pos in positions():
        held = str(m.state.vars["held"][pos])
        if held != held_by(m, pos):
            out.append(f"2.0: {pos} is held by {held} but holds {held_by(m, pos)} markers")
        shown = str(m.state.vars["control"][pos])
        if shown != expected_control(m, pos):
            why = "an infiltration cube is there" if cube_at(m, pos) is not None \
                else f"it is held by {held}"
            out.append(f"2.0: {pos} control says {shown}, but {why}")
    return out


def update_control(m: Match, *, log: bool = True) -> None:
    """2.0: bring the control of every position up to date, logging each change."""
    held = m.state.vars["held"]
    ctl = m.state.vars["control"]
    known = places_now(m)  # nothing below moves a piece
    for pos in positions():
        here = known.get(pos) or _place(m, pos)
        markers = here.markers
        # held_by and expected_control, from one look at the position
        held[pos] = (USMC if markers[0].kind == "marine" else JAPAN) if markers else str(held[pos])
        now = JAPAN if here.cube is not None else str(held[pos])
        if ctl[pos] != now:
            ctl[pos] = now
            if log:
                m.emit("control", "2.0", f"{name(pos)} is now {now} controlled", position=pos,
                       side=now)


def new_wave_beaches(m: Match) -> list[str]:
    """6.0 Place a new wave: the vacant beach positions (with room for a whole regiment, 2.0,
    when an infiltration cube keeps its slot: option ``cube_slot=always``)."""
    return [b for b in beaches() if is_vacant(m, b) and has_room_for(m, SLOTS, b)]


def can_new_wave(m: Match) -> bool:
    """6.0: a reserve regiment and a vacant beach, and no card forbids it this turn (the
    turn's record, ``vars["turn"]``, lists what cards forbid)."""
    turn = m.state.vars.get("turn") or {}
    return bool(reserves(m)) and bool(new_wave_beaches(m)) \
        and "place_new_wave" not in turn.get("forbid", ())


def usmc_controls_all(m: Match) -> bool:
    """7.0: the USMC controls every island position."""
    return all(control(m, p) == USMC for p in islands())


# -- moving markers, bunkers (3.0), Suribachi (2.0) --------------------------------------------
def vacate_check(m: Match, pos: str, *, swapping: bool = False) -> None:
    """3.0: when every marker leaves a position with a bunker, the bunker is removed
    (unless a USMC regiment is swapping positions)."""
    bunker = bunker_at(m, pos)
    if bunker is not None and not markers_at(m, pos) and not swapping:
        m.state.pieces.move(bunker.id, SUPPLY)
        m.emit("bunker", "3.0", f"the bunker in {name(pos)} is removed: its defenders left",
               position=pos)


def move_regiment(m: Match, rid: str, dest: str, section: str, why: str, *,
                  swapping: bool = False) -> None:
    """3.0: a regiment's markers move as one unit, its exhaustion cube with them."""
    src = regiment_pos(m, rid)
    for p in regiment_markers(m, rid):
        m.state.pieces.move(p.id, dest)
    cube = exhaustion_cube(m, rid)
    if cube is not None:
        m.state.pieces.move(cube.id, dest)
    m.emit("move", section, f"{rid} {why}: {name(src or '')} -> {name(dest)}",
           regiment=rid, source=src, dest=dest)
    if src is not None and src != RESERVE:
        vacate_check(m, src, swapping=swapping)
    suribachi_check(m)
    update_control(m)


def suribachi_check(m: Match) -> None:
    """2.0: the first time a Marine regiment occupies Mt. Suribachi, a cube goes on the
    USMC emblem and every on-board regiment's cohesion rises by 2 (at most 12); an exhausted
    regiment raised to 6 or more rallies (4.0 Note: "Regiments at 6 cohesion or higher are
    never exhausted"); one left at 4 or 5 stays exhausted (its checks come with regroups and
    cards, 4.0)."""
    if not is_usmc_occupied(m, SURIBACHI):
        return
    cube = m.state.pieces["suribachi"]
    if cube.location == EMBLEM:
        return
    m.state.pieces.move(cube.id, EMBLEM)
    data: dict[str, Any] = {"position": SURIBACHI, "cohesion_bonus": SURIBACHI_BONUS}
    m.emit("suribachi", "2.0", f"Mt. Suribachi taken: the flag is raised; "
           f"+{data['cohesion_bonus']} cohesion to every regiment on the board", **data)
    for rid in on_board(m):
        before = cohesion(m, rid)
        after = set_cohesion(m, rid, before + SURIBACHI_BONUS)
        m.emit("cohesion", "2.0", f"{rid} cohesion {before} -> {after} (Suribachi)",
               regiment=rid, before=before, after=after)
        if is_exhausted(m, rid) and after > EXHAUSTION_THRESHOLD:
            rally(m, rid, "4.0", "Suribachi: cohesion 6 or more")


def remove_usmc_marker(m: Match, rid: str, section: str, why: str, **cause: Any) -> None:
    """3.0: one marker of a regiment is eliminated; with the last, the regiment is out.
    ``cause``: the fields of the event that say what made the loss (``double=1``: a pair
    of 1s; ``attacker``: the attacking regiment)."""
    alive = regiment_markers(m, rid)
    if not alive:
        return
    pos = alive[0].location
    m.state.pieces.move(alive[-1].id, USMC_ELIMINATED)
    left = len(alive) - 1
    m.emit("loss", section, f"{rid} loses a marker ({why}); {left} left", regiment=rid,
           position=pos, side=USMC, left=left, **cause)
    if left == 0:
        set_exhausted(m, rid, False)
        m.emit("eliminated", "3.0", f"{rid} has lost all its markers and is out of the game",
               regiment=rid)
        vacate_check(m, pos)


def remove_japanese_marker(m: Match, pos: str, section: str, why: str, **cause: Any) -> bool:
    """3.0: one Japanese marker of a position is eliminated; False if none was there
    (``cause``: as for :func:`remove_usmc_marker`)."""
    japanese = japanese_at(m, pos)
    if not japanese:
        return False
    m.state.pieces.move(japanese[-1].id, JAPANESE_ELIMINATED)
    left = len(japanese) - 1
    m.emit("loss", section, f"a Japanese marker in {name(pos)} is eliminated ({why}); "
           f"{left} left", position=pos, side=JAPAN, left=left, **cause)
    if len(japanese) == 1:
        vacate_check(m, pos)
    return True


def defender_loss(m: Match, pos: str, section: str, why: str, **cause: Any) -> None:
    """3.0: a defending position that must lose a marker loses its bunker first (``cause``:
    as for :func:`remove_usmc_marker`)."""
    bunker = bunker_at(m, pos)
    if bunker is not None:
        m.state.pieces.move(bunker.id, SUPPLY)
        m.emit("bunker", "3.0", f"the bunker in {name(pos)} absorbs a loss and is removed",
               position=pos)
        return
    if is_japanese_occupied(m, pos):
        remove_japanese_marker(m, pos, section, why, **cause)
    else:
        rid = regiment_at(m, pos)
        if rid is not None:
            remove_usmc_marker(m, rid, section, why, **cause)


def place_bunker(m: Match, pos: str, section: str, why: str) -> bool:
    """3.0: put a bunker cube in an occupied island position without one."""
    if not is_island(pos) or is_vacant(m, pos) or bunker_at(m, pos) is not None:
        return False
    free = [p for p in m.state.pieces.at(SUPPLY) if p.kind == "bunker"]
    if not free:
        return False
    m.state.pieces.move(free[0].id, pos)
    m.emit("bunker", section, f"a bunker is placed in {name(pos)} ({why})", position=pos)
    return True


def bunker_supply(m: Match) -> int:
    """3.0: bunker cubes still beside the board."""
    return sum(1 for p in m.state.pieces.at(SUPPLY) if p.kind == "bunker")
