"""What every chapter of Iwo: Bloodbath in the Bonins shares: state conventions and primitives.

State conventions (``match.state``):

- Pieces. US units are ``side="US"``, kind = unit type (marine, flamethrower, armor); a
  two-step unit shows ``face="back"`` when reduced (2.3); a tank battalion's back is TF
  Collins (12.4: ``attrs["tf_collins"]``). Japanese units are ``side="Japan"``; a dug-in unit
  shows its fortification side, ``face="back"`` and ``hidden=True`` (14.2); its printed values
  are always read from ``values["front"]`` (:func:`printed`). Markers: eleven
  ``bombardment`` markers, the ``flag`` and the ``turn`` marker.
- Places. Hex ids; the map's boxes (``us_available``, ``us_reserves``, ``us_eliminated``,
  the staging boxes, ``jp_container``, ``jp_bombardment_N``) and the places the map does not
  print: :data:`MARKER_POOL`, :data:`SET_ASIDE`, :data:`TURN_TRACK`, :data:`OUT_OF_GAME`,
  :data:`JP_POOL` (two-player set-up, 18.1).
- ``state.vars`` keys are the constants ``V_*`` below; each says which rule owns it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache, lru_cache
from operator import attrgetter
from types import MappingProxyType
from typing import Any, TypeVar

from tabletop.core.board.hexgrid import Hex, distance
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Decision, Option, ResumePoint, ask_str, choose
from tabletop.core.engine.events import modifier
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece, Pieces

from .components import FIRE_SUPPORT_TYPES, NUMBERED_SECTORS, SURIBACHI, Components, load_components

T = TypeVar("T")

US, JAPAN = "US", "Japan"
SIDES = (US, JAPAN)

# Places the map does not print.
MARKER_POOL = "markers"  # bombardment markers not on the map (3.5)
SET_ASIDE = "set_aside"  # the Flag until Suribachi falls (3.4, 17.0)
TURN_TRACK = "turn_track"  # the Turn marker (3.1)
OUT_OF_GAME = "out_of_game"  # the two tank battalions removed by TF Collins (12.4)
JP_POOL = "jp_pool"  # Japanese units not yet placed in the two-player set-up (18.1)
AVAILABLE, RESERVES, US_ELIMINATED = "us_available", "us_reserves", "us_eliminated"
CONTAINER = "jp_container"  # the opaque container of eliminated Japanese units (2.5, 14.1)

# state.vars keys, with the rule that owns each.
V_BEACHHEAD = "beachhead"  # 3.3: "east" or "west", None before the choice
V_WEATHER = "weather"  # 5.1.7: "Clear" or "Storm" (the Turn marker's face)
V_RESERVES = "reserves_committed"  # 11.4, 4.1: 3rd Division regiments brought forward
V_SURIBACHI = "suribachi_cleared"  # 17.0
V_CLEARED = "cleared_sectors"  # 13.0: numbered sectors cleared, for good
V_REPLACEMENTS = "replacements"  # 11.5: steps left to spend this phase
V_SUPPRESSED = "suppressed"  # 8.3: Japanese unit ids suppressed this combat phase
V_LANDED = "landed"  # 11.2: beach colour -> units landed there this phase
V_NO_LAND = "no_land"  # 11.6: units rebuilt at sea that may not land this phase
V_NO_MOVE = "no_move"  # 11.7: units rebuilt on the map that may not move this phase
V_MOVED = "moved"  # 6.0: US units moved this phase
V_ATTACKED = "attacked"  # 9.0: Japanese unit ids attacked this combat phase
V_ATTACKERS = "attackers"  # 9.0, 9.4: US unit ids that attacked or advanced this phase
V_MUST_ATTACK = "must_attack"  # 11.2: hex -> US unit ids landed on a Japanese-held beach
V_TF_COLLINS = "tf_collins"  # 12.4
V_TWO_PLAYER = "two_player"  # 18.0: the Japanese side is a player
V_BOMBARDMENT = "bombardment_left"  # 8.1, 8.2: US markers still to place this combat phase
V_REPAIRABLE = "repairable"  # 11.7: reduced units 4+ hexes from the Japanese at phase start
V_REBUILT = "rebuilt"  # 11.6: eliminated units rebuilt one step this turn

PHASE_VARS: Mapping[str, Callable[[], Any]] = MappingProxyType({
    V_SUPPRESSED: list, V_LANDED: dict, V_NO_LAND: list, V_NO_MOVE: list, V_MOVED: list,
    V_ATTACKED: list, V_ATTACKERS: list, V_BOMBARDMENT: int, V_REPAIRABLE: list,
})
"""What lasts one phase: each variable's type, called for its empty value."""


@cache
def components() -> Components:
    """The game's printed components, loaded and cross-checked once per process."""
    return load_components()


def initial_vars(*, two_player: bool) -> dict[str, Any]:
    """The game variables at set-up."""
    return {
        V_BEACHHEAD: None, V_WEATHER: components().tracks.turn_track.start_weather, V_RESERVES: 0,
        V_SURIBACHI: False, V_CLEARED: [], V_REPLACEMENTS: 0, V_MUST_ATTACK: {},
        V_TF_COLLINS: False, V_TWO_PLAYER: two_player, V_REBUILT: [],
        **{k: empty() for k, empty in PHASE_VARS.items()},
    }


def reset_phase_vars(match: Match) -> None:
    """Clear what lasts one phase (moved units, attacks made, suppression, landings)."""
    for key, empty in PHASE_VARS.items():
        match.state.vars[key] = empty()


# -- where the flow is entered again (a fork) ---------------------------------------------

class Resume:
    """Where a procedure's decisions are asked again from when the flow is entered again
    (``Match.fork``): the phase (``entry``) and what the procedure's callers need to get
    back to it (``args``: piece and hex ids, counters), to which each procedure adds its
    own. A procedure run with none (a test driving it alone) asks unmarked decisions."""

    __slots__ = ("args", "entry")

    def __init__(self, entry: str, args: dict[str, JSON] | None = None) -> None:
        self.entry = entry
        self.args: dict[str, JSON] = args or {}

    def then(self, **more: JSON) -> Resume:
        """The place of a procedure called from here: these args and ``more``."""
        return Resume(self.entry, {**self.args, **more})

    def point(self, **own: JSON) -> ResumePoint:
        """The resume point of a decision asked here, with the asking procedure's ``own`` args."""
        return ResumePoint(self.entry, {**self.args, **own})


def ask(resume: Resume | None, decision: Decision, **own: JSON) -> Decision:
    """``decision``, marked as asked again from ``resume`` with ``own`` args (unmarked
    without one)."""
    if resume is not None:
        decision.resume = resume.point(**own)
    return decision


def back_at(back: Mapping[str, Any] | None, key: str) -> Any:
    """What the args of the resume point being entered (``back``) say under ``key``, or None
    (no resume point, or not at this procedure)."""
    return None if back is None else back.get(key)


# -- pieces and places ------------------------------------------------------------------



def place_name(location: str) -> str:
    """A place as a player reads it: a hex id, or a box's printed name (not its id)."""
    box = components().map.boxes.get(location)
    return box.name if box is not None and box.name else location


class Board:
    """What the rules ask of the pieces again and again (a side's units on the map, the
    units in a hex, the hexes a side holds and its zone of control, the units a dug-in
    defender may be), worked out once for one revision of the pieces: the rules' one cache
    of the board, and its invalidation.

    Every change to a piece, its status or a stack moves the revision clock of the match's
    registry of pieces (``Pieces.clock``); :func:`board` hands out the board of the current
    count and builds a new one (empty, each answer worked out when first asked) as soon as
    the clock has moved. Answers are tuples and frozensets, shared: callers copy what they
    change. The units in a hex are kept while that hex's stack is unchanged
    (:class:`PlaceMemo`). What depends only on one side's pieces (its units on the map, the hexes it
    holds, what :meth:`of_side` works out) is also kept across revisions while none of
    that side's pieces changes (:meth:`side_stamp`); what depends only on the hexes a side
    holds (the zone of control), by those hexes (:func:`_zoc`). What is kept across
    revisions is kept with the registry in the match's memo (:class:`_Kept`)."""

    __slots__ = ("_at", "_derived", "_kept", "_stamps", "clock", "pieces")

    def __init__(self, pieces: Pieces, clock: int, kept: _Kept) -> None:
        self.pieces = pieces
        self.clock = clock
        self._kept = kept
        self._at: dict[str | None, PlaceMemo] = {}  # side -> the units of that side by place
        self._derived: dict[str, Any] = {}  # name -> what a rule module works out of the pieces
        self._stamps: dict[str, tuple[int, int]] = {}  # side -> side_stamp

    def _current(self) -> bool:
        """Whether the pieces' clock has not moved since the board was made."""
        return self.clock == self.pieces.clock.now

    def side_stamp(self, side: str) -> tuple[int, int]:
        """(How many pieces the side has, the latest revision stamp of their fields): the
        same pair, the same pieces of that side with the same fields (place, face, hidden,
        steps, ...). Setting a field stamps the piece with the clock's next count, above
        every earlier stamp, so the latest stamp moves with every such change. A change to
        a piece's status (``attrs``) does not move it."""
        found = self._stamps.get(side)
        if found is None:
            found = self._stamps[side] = _side_stamp(self.pieces, self._kept.stamps, side,
                                                     current=self._current())
        return found

    def of_side(self, side: str, name: str, build: Callable[[Pieces], T]) -> T:
        """What ``build`` works out of the fields of one side's pieces alone, never their
        status (named ``name``, one name a question), kept across revisions while those
        fields do not change (:meth:`side_stamp`); shared, like every answer here."""
        stamp = self.side_stamp(side)
        by_side = self._kept.by_side
        held = by_side.get((name, side))
        if held is not None and held[0] == stamp:
            found: T = held[1]
            return found
        found = build(self.pieces)
        by_side[(name, side)] = (stamp, found)
        return found

    def on_map(self, side: str) -> tuple[Piece, ...]:
        """A side's units on the map, in registry order: kept while the side's stamp stands,
        and past it while its pieces that changed since (the revision clock's journal) are
        on the map exactly when they were (a unit moving from hex to hex): the same pieces
        in the same order."""
        stamp = self.side_stamp(side)
        pieces, on_map = self.pieces, self._kept.on_map
        clock = pieces.clock
        current = self.clock == clock.now
        held = on_map.get(side)
        if held is not None:
            if held[0] == stamp:
                return held[2]
            if current and held[0][0] == stamp[0] \
                    and _members_stand(pieces, side, clock.since(held[1]), held[3]):
                on_map[side] = (stamp, clock.mark(), held[2], held[3])
                return held[2]
        is_hex = components().map.is_hex_id
        found = tuple(p for p in pieces.select(side=side) if is_hex(p.location))
        if current:
            on_map[side] = (stamp, clock.mark(), found, frozenset(p.id for p in found))
        return found

    def at(self, hex_id: str, side: str | None) -> tuple[Piece, ...]:
        """The units in a hex, top first, of one side if given (markers excluded): kept while
        the hex's stack is unchanged (:class:`PlaceMemo`)."""
        memo = self._at.get(side)
        if memo is None:
            memo = self._at[side] = self._kept.place_memo(self.pieces, _UNITS_AT[side])
        found: tuple[Piece, ...] | None = memo.get(hex_id)
        if found is None:
            found = tuple(p for p in self.pieces.stack(hex_id)
                          if p.side in SIDES and (side is None or p.side == side))
            memo.put(hex_id, found)
        return found

    def hex_ids(self, side: str) -> frozenset[str]:
        """The ids of the hexes holding a unit of a side."""
        return self.of_side(side, "hexes held",
                            lambda pieces: frozenset(p.location for p in self.on_map(side)))

    def derived(self, name: str, build: Callable[[Pieces], T]) -> T:
        """What ``build`` works out of the pieces (named ``name``, one name a question),
        kept for this revision; shared, like every answer here."""
        try:
            found: T = self._derived[name]
        except KeyError:
            found = self._derived[name] = build(self.pieces)
        return found


_UNITS_AT = MappingProxyType({None: "the units there", US: "the US units there",
                              JAPAN: "the Japanese units there"})
_REVISION = attrgetter("revision")


class _Kept:
    """What the rules keep of one registry of pieces from one revision to the next, in the
    match's memo (``match.state.memo.of_registry``), so that matches share none of it: the
    board of the latest revision asked for, and the answers each kept while the stamps it
    was worked out under stand."""

    __slots__ = ("board", "by_side", "on_map", "places", "stamps")

    def __init__(self) -> None:
        self.board: Board | None = None  # the board of the latest revision asked for
        #: side -> (the clock's journal mark, the side's stamp then): the latest stamp worked
        #: out on a current board, which the next is worked out from
        self.stamps: dict[str, tuple[int, tuple[int, int]]] = {}
        #: side -> (the side's stamp, the journal mark, its units on the map, their ids):
        #: Board.on_map's latest answer on a current board
        self.on_map: dict[str, tuple[tuple[int, int], int, tuple[Piece, ...], frozenset[str]]] = {}
        #: (question, side) -> (the side's stamp, the answer): Board.of_side's answers
        self.by_side: dict[tuple[str, str], tuple[tuple[int, int], Any]] = {}
        self.places: dict[str, PlaceMemo] = {}  # question -> its memo (:func:`place_memo`)

    def place_memo(self, pieces: Pieces, question: str) -> PlaceMemo:
        """The memo of one question about places, made on first asking."""
        memo = self.places.get(question)
        if memo is None:
            memo = self.places[question] = PlaceMemo(pieces)
        return memo


_KEPT = "iwo_bonins: the board"
"""The key of :class:`_Kept` in the match's memo."""


def _side_stamp(pieces: Pieces, stamps: dict[str, tuple[int, tuple[int, int]]], side: str, *,
                current: bool) -> tuple[int, int]:
    """Board.side_stamp: (how many pieces the side has, the latest revision stamp of their
    fields). On a current board (the clock not moved since it was made) worked out from the
    latest stamp (kept in ``stamps``) and the side's pieces the clock's journal noted changed
    since, when the journal still holds them: a changed piece carries a stamp above every
    earlier one, so the pair still moves with every change of the side's fields (it may stay
    above the full scan's maximum after a piece leaves the side, which only ever tells a
    change)."""
    count = len(pieces.select(side=side))
    held = stamps.get(side)
    found: tuple[int, int] | None = None
    clock = pieces.clock
    if current and held is not None:
        changed = clock.since(held[0])
        if changed is not None:
            latest = held[1][1]
            holds = pieces.holds
            for e in changed:
                if isinstance(e, Piece) and e.side == side and holds(e) and e.revision > latest:
                    latest = e.revision
            found = (count, latest)
    if found is None:
        found = (count, max(map(_REVISION, pieces.select(side=side)), default=0))
    if current:
        stamps[side] = (clock.mark(), found)
    return found


def _members_stand(pieces: Pieces, side: str, changed: list[Piece | Any] | None,
                   ids: frozenset[str]) -> bool:
    """Whether each piece of the registry the journal noted changed (``changed``, None when
    no longer known) that is of ``side`` or among ``ids`` (a side's units on the map) is
    still of the side and on the map exactly when it is among them."""
    if changed is None:
        return False
    holds, on_map = pieces.holds, components().map.is_hex_id
    return not any(isinstance(e, Piece) and (e.side == side or e.id in ids) and holds(e)
                   and (e.side != side or on_map(e.location) != (e.id in ids)) for e in changed)


def board(match: Match) -> Board:
    """The rules' view of the pieces at the current revision (see :class:`Board`)."""
    state = match.state
    kept: _Kept = state.memo.of_registry(_KEPT, _Kept)
    held = kept.board
    if held is None or held.clock != held.pieces.clock.now:
        pieces = state.pieces
        held = kept.board = Board(pieces, pieces.clock.now, kept)
    return held


class PlaceMemo:
    """Answers about places that depend only on the pieces standing there (their stack),
    each kept while that stack is unchanged: the rules' cache of such answers, and its
    invalidation. The registry stamps a place whenever a piece enters or leaves it or its
    stack is reordered (``Pieces.stamps``); an answer is given back only while the place
    carries the stamp it was worked out under. One memo a question (:func:`place_memo`),
    for one registry of pieces."""

    __slots__ = ("_answers", "_stamps", "pieces")

    def __init__(self, pieces: Pieces) -> None:
        self.pieces = pieces
        self._stamps = pieces.stamps
        self._answers: dict[str, tuple[int | None, Any]] = {}  # place -> (its stamp, answer)

    def get(self, place: str) -> Any:
        """The answer kept for a place, or None when there is none for its stack now."""
        held = self._answers.get(place)
        if held is not None and held[0] == self._stamps.get(place):
            return held[1]
        return None

    def put(self, place: str, answer: Any) -> None:
        """Keep the answer for a place's stack as it stands now (never None)."""
        self._answers[place] = (self._stamps.get(place), answer)


def place_memo(match: Match, question: str) -> PlaceMemo:
    """The memo of one question about places (see :class:`PlaceMemo`) for the match's
    pieces, kept with them in the match's memo: a new one when the pieces are another
    registry (another match, an undo)."""
    kept: _Kept = match.state.memo.of_registry(_KEPT, _Kept)
    return kept.place_memo(match.state.pieces, question)


def units(match: Match, side: str, *, on_map: bool = True) -> list[Piece]:
    """A side's units (not markers), on the map only by default, in registry order."""
    if on_map:
        return list(board(match).on_map(side))
    return match.state.pieces.select(side=side)


def units_at(match: Match, hex_id: str, side: str | None = None) -> list[Piece]:
    """The units in a hex (top first), of one side if given; markers excluded."""
    return list(board(match).at(hex_id, side))


def printed(piece: Piece, name: str) -> int:
    """A printed value: a US unit's face that is up; a Japanese unit's front (14.2)."""
    if piece.side == JAPAN:
        return piece.values["front"][name]
    return piece.value(name)


def is_dug_in(piece: Piece) -> bool:
    """14.2: a Japanese unit whose fortification side is up."""
    return piece.side == JAPAN and piece.face == "back"


# -- status: set only through these helpers (one owner; face and hidden follow) ----------

def dig_in(piece: Piece) -> None:
    """14.2: turn a Japanese unit to its fortification side: dug in, and hidden from the US
    (the US player may not examine it). The one place that sets both fields."""
    piece.face, piece.hidden = "back", True


def reveal(piece: Piece) -> None:
    """14.2: turn a Japanese unit face up (Banzai 15.5, 17.0, two-player movement 18.2, a
    fire-support unit on the Bombardment Track 16.1): seen by both sides."""
    piece.face, piece.hidden = "front", False


def reduce_us(piece: Piece) -> None:
    """2.3: a full two-step US unit flips to its reduced side (one step left)."""
    piece.steps, piece.face = 1, "back"


def restore_us(piece: Piece) -> None:
    """11.5, 11.7: a reduced US unit is flipped back to full strength."""
    piece.steps, piece.face = piece.max_steps, "front"


def status_problems(piece: Piece) -> list[str]:
    """Where a piece's fields disagree about its status (14.2 dug in is the back face and
    hidden together; 2.3 a two-step US unit shows its back exactly when reduced; a US unit
    is never hidden)."""
    out = []
    if piece.side == JAPAN and (piece.face == "back") != piece.hidden:
        out.append(f"14.2: Japanese unit {piece.id} shows its {piece.face} face but is "
                   f"{'' if piece.hidden else 'not '}hidden (dug in is the back face, hidden; "
                   "set status dug_in instead)")
    if piece.side == US:
        if piece.hidden:
            out.append(f"2.3: US unit {piece.id} is hidden (US units are always face up)")
        if (piece.max_steps == 2 and piece.steps >= 1 and "tf_collins" not in piece.attrs
                and (piece.face == "back") != (piece.steps == 1)):
            out.append(f"2.3: US unit {piece.id} has {piece.steps} step(s) but shows its "
                       f"{piece.face} face (set status reduced instead)")
    return out


def is_support(piece: Piece) -> bool:
    """12.1: flamethrowers and tanks (the coloured band)."""
    return bool(piece.attrs.get("support"))


def is_tank(piece: Piece) -> bool:
    """A US tank unit (a tank battalion or TF Collins: 6.4, 12.3)."""
    return piece.side == US and piece.kind == "armor"


def hexes_of(match: Match, side: str) -> frozenset[Hex]:
    """The hexes holding at least one unit of a side."""
    return _hexes(board(match).hex_ids(side))


def zoc_of(match: Match, side: str) -> frozenset[Hex]:
    """7.0: every hex adjacent to a unit of ``side`` (its zone of control)."""
    return _zoc(board(match).hex_ids(side))


@lru_cache(maxsize=256)
def _hexes(hex_ids: frozenset[str]) -> frozenset[Hex]:
    m = components().map
    return frozenset(m.hex(h) for h in hex_ids)


@lru_cache(maxsize=256)
def _zoc(hex_ids: frozenset[str]) -> frozenset[Hex]:
    m = components().map
    return frozenset(n for h in _hexes(hex_ids) for n in m.neighbors(h))


def distance_to(hex_id: str, targets: Iterable[Hex]) -> int | None:
    """Hexes from a hex to the nearest of ``targets`` (6.5, 11.7: count the target hex)."""
    h = components().map.hex(hex_id)
    ds = [distance(h, t) for t in targets]
    return min(ds) if ds else None


def sector_of(hex_id: str) -> int | str | None:
    """13.0, 17.0: the sector of a land hex (1-6 or "suribachi"), None at sea."""
    attrs = components().hex_attrs.get(hex_id)
    return attrs.sector if attrs else None


def landing_beach_hexes(match: Match) -> list[str]:
    """3.3, 11.2: the beach hexes of the chosen beachhead (none before the choice)."""
    chosen = match.state.vars.get(V_BEACHHEAD)
    return list(_beach_set(chosen)) if chosen else []


def landing_beach_hexes_of(chosen: str | None) -> tuple[str, ...]:
    """3.3: the beach hexes of a beachhead ("east" or "west"; none for None)."""
    return _beach_set(chosen) if chosen else ()


@cache
def _beach_set(chosen: str) -> tuple[str, ...]:
    return tuple(sorted(components().hexes_where(beach_set=chosen)))


def beach_colour(hex_id: str) -> str | None:
    """11.2: the colour-coded beach a hex belongs to, if any."""
    attrs = components().hex_attrs.get(hex_id)
    return attrs.beach if attrs else None


# -- losses -----------------------------------------------------------------------------

def us_step_loss(match: Match, piece: Piece, section: str, why: str = "") -> None:
    """9.3 Important: flip a full two-step unit to its reduced side; eliminate any other."""
    if piece.steps > 1:
        reduce_us(piece)
        match.emit("step_loss", section, f"{piece.id} is reduced{': ' + why if why else ''}",
                   piece=piece.id)
    else:
        eliminate_us(match, piece, section, why)


def eliminate_us(match: Match, piece: Piece, section: str, why: str = "") -> None:
    """Place a US unit in the Eliminated Units box (11.6, 12.1)."""
    piece.steps = 0
    if piece.attrs.get("tf_collins") is not None and piece.kind == "armor":
        piece.face = "back" if piece.attrs.get("tf_collins") else "front"
    elif piece.max_steps > 1:
        piece.face = "back"
    match.state.pieces.move(piece.id, US_ELIMINATED)
    match.emit("eliminated", section, f"{piece.id} is eliminated{': ' + why if why else ''}",
               piece=piece.id)


def bombardment_covered(match: Match) -> int:
    """16.1: how many boxes of the Japanese Bombardment Track hold a unit."""
    return sum(1 for box in components().tracks.bombardment_track.boxes
               if match.state.pieces.count_at(box.box))


def japanese_bombardment_strength(match: Match) -> int:
    """16.1: the markers the Japanese receive: the highest uncovered number of the track."""
    return components().tracks.bombardment_track.markers(bombardment_covered(match))


def eliminate_jp(match: Match, piece: Piece, section: str, why: str = "", **data: JSON) -> None:
    """14.1, 16.1: an eliminated HQ or artillery unit covers the highest open box of the
    Bombardment Track and is out of the game; any other unit goes face-down into the
    container, from which it may return (14.4, 15.3)."""
    if piece.kind in FIRE_SUPPORT_TYPES:
        for box in components().tracks.bombardment_track.boxes:
            if not match.state.pieces.count_at(box.box):
                reveal(piece)
                match.state.pieces.move(piece.id, box.box)
                match.emit("eliminated", "16.1", f"{piece.id} is eliminated and covers "
                           f"box {box.value} of the Japanese Bombardment Track"
                           f"{': ' + why if why else ''}", piece=piece.id, box=box.box,
                           track=box.value, **data)
                return
    dig_in(piece)
    match.state.pieces.move(piece.id, CONTAINER)
    match.emit("eliminated", section, f"{piece.id} is eliminated into the container"
               f"{': ' + why if why else ''}", piece=piece.id, **data)


# -- sectors and Suribachi --------------------------------------------------------------

def deployment_hexes(sector: int | str) -> list[str]:
    """13.0: the deployment and redeployment hexes of a sector, in id order."""
    return list(_deployment_hexes(sector))


@cache
def _deployment_hexes(sector: int | str) -> tuple[str, ...]:
    c = components()
    return tuple(sorted(hid for hid, a in c.hex_attrs.items() if a.sector == sector and a.deploy))


def is_sector_cleared(match: Match, sector: int) -> bool:
    """13.0: a numbered sector once cleared stays cleared (its deployment hexes inoperative)."""
    return sector in match.state.vars[V_CLEARED]


def update_cleared_sectors(match: Match) -> None:
    """13.0: mark cleared each sector none of whose deployment or redeployment hexes holds a
    dug-in Japanese unit; 17.0: Suribachi is cleared once its five hexes are empty of
    Japanese units. Called after every event that can empty such a hex."""
    cleared: list[int] = match.state.vars[V_CLEARED]
    for sector in NUMBERED_SECTORS:
        if sector in cleared:
            continue
        if not any(is_dug_in(p) for hid in deployment_hexes(sector) for p in units_at(match, hid, JAPAN)):
            cleared.append(sector)
            cleared.sort()
            match.emit("sector_cleared", "13.0", f"sector {sector} is cleared: its deployment "
                       "hexes are now inoperative", sector=sector)
    if not match.state.vars[V_SURIBACHI]:
        suribachi = _suribachi_ids()
        if not any(units_at(match, hid, JAPAN) for hid in suribachi):
            match.state.vars[V_SURIBACHI] = True
            match.state.pieces.move("flag", suribachi[0])
            match.emit("suribachi", "17.0", "Mount Suribachi is cleared: the flag is raised; "
                       "Japanese bombardment targeting switches (16.2) and weakens (16.3), and "
                       "Banzai attacks may begin (15.5)", flag=suribachi[0],
                       rules=["16.2", "16.3", "15.5"])


@cache
def _suribachi_ids() -> tuple[str, ...]:
    """17.0: the five Suribachi hexes' ids (the first is where the flag goes)."""
    return tuple(components().map.label(h) for h in components().suribachi_hexes())


def operative_deployment_hexes(match: Match, sector: int | str) -> list[str]:
    """13.0: a sector's deployment and redeployment hexes, none once it is cleared."""
    if isinstance(sector, int) and is_sector_cleared(match, sector):
        return []
    return deployment_hexes(sector)


def in_suribachi_sector(hex_id: str) -> bool:
    """17.0: the five Suribachi hexes and the eleven around them."""
    return sector_of(hex_id) == SURIBACHI


# -- combat tables ----------------------------------------------------------------------

@cache
def crt_line(hex_id: str) -> str:
    """9.1b: the CRT line of a defender's hex; with several terrains, the one best for the
    defender (the line shifted furthest left)."""
    c = components()
    h = c.map.hex(hex_id)
    lines = [c.terrain.terrain[c.map.terrain(h)].crt_line]
    lines += [c.terrain.features[f].crt_line for f in c.map.features(h) if f in c.terrain.features]
    usable = [ln for ln in lines if ln]
    return min(usable, key=_line_shift)


def line_modifiers(line: str) -> list[dict[str, JSON]]:
    """9.1b: a CRT line read as the clear line shifted (the terrain key's shifts), as an
    event's modifiers: the columns it moves, none on a line that does not shift."""
    shift = _line_shift(line)
    return [modifier("9.1b", f"{line} terrain, columns", shift)] if shift else []


def _line_shift(line: str) -> int:
    spec = components().tables["crt"].spec
    shift = spec.line_shifts.get(line)
    return shift.shift if shift is not None else 0


# -- retreat (9.3) ----------------------------------------------------------------------

def retreat_paths(match: Match, group: list[Piece], hexes: int) -> dict[str, list[str]]:
    """9.3, 7.2: the hexes a US stack may retreat to, ``hexes`` hexes away, each with one path
    (never into an enemy zone of control, 7.2).

    Each step moves one hex further from the starting hex, never into or through a hex
    holding an enemy unit, in an enemy zone of control (friendly units do not negate it),
    of prohibited terrain, or off the map; never through a hex holding friendly units (it
    may end beside them only where stacking allows); a unit on a beach hex with retreat left
    to make depletes instead (so a path may not continue from a beach hex). The stack must
    be allowed to end in the last hex (6.3, 11.3, 12.1): that is asked of every end hex, an
    empty one too, since the retreating stack alone may be more than 6.3b allows on a beach
    of the set not chosen. If some end hexes are closer to a landing beach than the start,
    only those are offered.
    """
    c = components()
    start_id = group[0].location
    start = c.map.hex(start_id)
    if c.map.terrain(start) == "beach":
        return {}
    enemy = hexes_of(match, JAPAN)
    ezoc = zoc_of(match, JAPAN)
    moving = {p.id for p in group}

    def friendly_at(h: Hex) -> list[Piece]:
        return [p for p in units_at(match, c.map.label(h), US) if p.id not in moving]

    paths: dict[str, list[str]] = {}
    frontier: list[list[Hex]] = [[start]]
    for step in range(1, hexes + 1):
        nxt: list[list[Hex]] = []
        for path in frontier:
            here = path[-1]
            if step > 1 and c.map.terrain(here) == "beach":
                continue  # 9.3: a unit on a beach hex with retreat left depletes
            for n in c.map.neighbors(here):
                if distance(start, n) != step or n in enemy or n in ezoc or c.map.is_prohibited(n):
                    continue
                if step < hexes and friendly_at(n):
                    continue
                nxt.append([*path, n])
        frontier = nxt
    for path in frontier:
        end = path[-1]
        if not _may_stack(group, friendly_at(end), c.map.label(end), match):
            continue  # 6.3b: a stack may not end even on an empty beach of the other set
        paths.setdefault(c.map.label(end), [c.map.label(h) for h in path])
    beaches = [c.map.hex(b) for b in landing_beach_hexes(match)]
    if beaches and match.options.get("retreat_toward_beach", "when_possible") == "when_possible":
        from_start = distance_to(start_id, beaches)
        closer = {k: v for k, v in paths.items()
                  if from_start is not None and (distance_to(k, beaches) or 0) < from_start}
        if closer:
            return closer
    return paths


def _may_stack(group: list[Piece], there: list[Piece], hex_id: str, match: Match) -> bool:
    """6.3, 11.3, 12.1: may this group end in a hex holding these friendly units?"""
    if hex_id in landing_beach_hexes_of(match.state.vars.get(V_BEACHHEAD)):
        return True
    together = [*group, *there]
    if beach_colour(hex_id) is not None and match.options.get("other_beaches", "strict") == "strict":
        return len(together) <= 1  # 6.3b: no stacking on the other set of beaches
    marines = [p for p in together if not is_support(p)]
    supports = [p for p in together if is_support(p)]
    return len(together) <= 2 and len(marines) <= 1 and len(supports) <= 2


def may_stack(match: Match, group: list[Piece], hex_id: str) -> bool:
    """6.3, 11.3, 12.1: may these US units end a move or retreat in ``hex_id``?"""
    there = [p for p in units_at(match, hex_id, US) if all(p is not g for g in group)]
    return _may_stack(group, there, hex_id, match)


def retreat(match: Match, group: list[Piece], hexes: int, section: str, *,
            resume: Resume | None = None) -> Procedure[bool]:
    """9.3: retreat a US stack ``hexes`` hexes, the US player choosing where; a stack that
    cannot retreat the full distance is depleted instead (each unit loses a step). The hex
    is asked again from ``resume`` (a fork).

    Returns True when the stack retreated, False when it was depleted.
    """
    paths = retreat_paths(match, group, hexes)
    names = ", ".join(p.id for p in group)
    if not paths:
        match.emit("retreat_blocked", "9.3", f"{names} cannot retreat {hexes} hex(es) and is "
                   "depleted instead", units=[p.id for p in group], hexes=hexes, at=group[0].location)
        for p in list(group):
            us_step_loss(match, p, "9.3", "no retreat")
        return False
    choice = yield from ask_str(ask(resume, choose(
        US, f"Retreat {names} {hexes} hex(es) to?", section,
        [Option(dest, f"{dest} via {'-'.join(path[1:-1]) or 'direct'}")
         for dest, path in sorted(paths.items())],
        kind="retreat_hex", context={"units": [p.id for p in group]})))
    dest = choice
    for p in group:
        match.state.pieces.move(p.id, dest)
    match.emit("retreat", section, f"{names} retreat to {dest}", units=[p.id for p in group],
               to=dest, path=paths[dest])
    return True


def stack_group(match: Match, piece: Piece) -> list[Piece]:
    """11.3, 12.2: the units that retreat or advance with a unit (its whole hex's US units)."""
    return units_at(match, piece.location, US)
