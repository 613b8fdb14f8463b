"""What every part of Iwo Jima: Valor of Arms shares: state conventions and primitives.

State conventions (``match.state``):

- Pieces. Marine units are ``side="US"`` with kind ``infantry``, ``armour`` or ``hq``;
  ``attrs`` hold division, regiment, battalion, entry turn, strengths (by steps, from 1 up)
  and ``landed`` (the turn the unit entered the island, VII.B). A reduced infantry or armour
  unit shows ``face="back"`` (II.C); a DISRUPTED HQ shows its back (IX.H). Japanese units are
  ``side="Japan"``, kind ``japanese``, face-down (``hidden=True``) until revealed (III.3).
  Markers (VP, Support, Replacement, IND, Flag, Turn, step-loss and Class "1") are kind
  ``marker``; the Flag goes to 0304 when it is raised (VIII.E).
- Places: hex ids, the Second Wave hexes (sea, III.4) and the boxes :data:`AVAILABLE`,
  :data:`US_ELIMINATED`, :data:`WITHDRAWN`, :data:`JP_ELIMINATED`, :data:`MARKERS`,
  :data:`OUT_OF_PLAY` (units a scenario does not use).
- Tracks: ``vp`` (the Japanese VP Track, may be negative, X), ``support`` (IV.A.1),
  ``repl_inf`` and ``repl_arm`` (IV.E), ``fatigue:<regiment>`` (IV.D, one per regiment).
- ``state.vars`` keys are the constants ``V_*`` below, each with the rule that owns it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any, TypeVar

from tabletop.core.board.fog import reveal_near
from tabletop.core.board.hexgrid import Hex, within
from tabletop.core.board.supply import HexBits, StepMasks, SupplySearch, step_table, trace_indexed
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Decision, Option, ResumePoint, ask_str, choose, resumable
from tabletop.core.engine.events import modifiers_text
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece, Pieces
from tabletop.core.engine.trackgroups import shift
from tabletop.core.engine.trackgroups import value as family_value

from .components import Components, load_components

US, JAPAN = "US", "Japan"
SIDES = (US, JAPAN)
AVAILABLE, US_ELIMINATED, WITHDRAWN = "us_available", "us_eliminated", "us_withdrawn"
JP_ELIMINATED, MARKERS, OUT_OF_PLAY = "jp_eliminated", "markers", "out_of_play"
FATIGUE = "fatigue"

# state.vars keys, with the rule that owns each.
V_SCENARIO = "scenario"  # XI: the scenario id
V_BEACH = "beach"  # III.4: the beach chosen for the assault
V_LANDED = "landed_hexes"  # VII.A: beach hexes on which a Marine unit has landed
V_IND = "independent"  # IV.A.3: the independent regiment ("23"), or None
V_CLASS1 = "class1_hexes"  # III.6: Class 2 positions reduced to Class 1 (the "1" markers)
V_FLAG_TURN = "flag_turn"  # VIII.E: the turn the Flag was raised, or None
V_MOVED = "moved"  # V: Marine units that have moved this phase
V_HQ_HEXES = "hq_hexes_moved"  # V: hexes moved this phase by each HQ (five at most)
V_FIRED = "opportunity_fired"  # IX.A: Marine unit -> Japanese units that fired at it this phase
V_STRUCK = "artillery_struck"  # IV.C.2: hexes struck by artillery this turn
V_ATTACKED = "attacked_by"  # VIII.C: hex -> battalions ("bn/reg/div") that attacked it this phase
V_FIRST_TURN = "first_turn"  # XI: the scenario's first turn
V_LAST_TURN = "last_turn"  # XI: the scenario's last turn
V_FRACTIONS = "fractions"  # XI.C Narrow Game: thirds of support/replacement points carried
V_DEBT = "support_debt"  # XI.C Narrow Game option: borrowed support points owed
V_PAYING = "support_paying"  # XI.C Narrow Game option: turns of repayment running
V_WAVE_ROLLS = "first_wave_pending"  # III.4: first-wave units still to roll their landing

V_ARMOUR_USED = "armour_used"  # VIII.A: attacks each Armour Unit has supported this phase

PHASE_VARS: Mapping[str, Callable[[], Any]] = MappingProxyType({
    V_MOVED: list, V_HQ_HEXES: dict, V_FIRED: dict, V_ATTACKED: dict, V_ARMOUR_USED: dict})
"""What lasts one phase: each variable's type, called for its empty value."""

T = TypeVar("T")

OPENING = "opening"
"""The resume entry of the opening's decisions (III.4, XI.C's set-ups): no phase id."""

# Scenario ids (XI).
FULL, LOD, SANDS, NARROW, VERY_SHORT = "campaign", "line_of_departure", "sands_of_iwo_jima", \
    "narrow", "very_short"


@cache
def components() -> Components:
    """The game's printed components, loaded and cross-checked once per process."""
    return load_components()


def asked_again(decision: Decision, where: ResumePoint | None, **more: JSON) -> Decision:
    """``decision``, marked as one the flow asks again when entered at ``where`` (a phase id,
    or :data:`OPENING`) with ``where``'s args and ``more`` (:func:`~tabletop.core.engine.
    decisions.resumable`): what a procedure needs to ask it once more that the state does not
    say. Unmarked when ``where`` is None (a procedure run on its own, as the tests run them).
    The args are never changed once given (a snapshot enters the flow with them again)."""
    if where is None:
        return decision
    args = where.args
    assert isinstance(args, dict)
    return resumable(decision, where.entry, {**args, **more} if more else args)


def asked_again_at(where: ResumePoint | None, **more: JSON) -> ResumePoint | None:
    """``where`` with ``more`` args (a procedure passes its own facts down to the decisions
    of those it calls); None stays None."""
    if where is None:
        return None
    args = where.args
    assert isinstance(args, dict)
    return ResumePoint(where.entry, {**args, **more})


def resumed(match: Match, entry: str) -> dict[str, Any] | None:
    """The args of the decision at which the flow is entered again at ``entry`` (a fork,
    ``Match.resumed``: taken once), or None when it starts there afresh. Every decision of
    the game gives a dict, ``at`` naming which."""
    args = match.resumed(entry)
    if args is None:
        return None
    assert isinstance(args, dict)
    return args


def reset_phase_vars(match: Match) -> None:
    """Clear what lasts one phase (moves, opportunity fire, attacks made)."""
    for key, empty in PHASE_VARS.items():
        match.state.vars[key] = empty()


# -- places and pieces -------------------------------------------------------------------









@cache
def _attrs(hex_id: str) -> Mapping[str, Any]:
    m = components().map
    h = m.hex(hex_id)
    return MappingProxyType({"_land": not m.is_prohibited(h), **m.attrs(h)})


def attr(hex_id: str, key: str, default: Any = None) -> Any:
    """A hex attribute of map.yaml."""
    return _attrs(hex_id).get(key, default)


@cache
def is_land(hex_id: str) -> bool:
    """V.G: whether a hex is not all-sea (cached)."""
    return bool(_attrs(hex_id)["_land"])


def on_island(p: Piece) -> bool:
    """Whether a unit is on a land hex of the island (a hex of the map, :func:`is_land`, of
    its place, read from one set: asked of every unit at every decision)."""
    return p.location in _island()


@cache
def _island() -> frozenset[str]:
    """The land hexes' ids (worked out once: the map is loaded on first use)."""
    return frozenset(label for label in components().map.ids() if is_land(label))


def marines(match: Match, *, kind: str | None = None) -> list[Piece]:
    """The Marine units on the island (of one kind if given), in registry order (found once
    a situation, :class:`Situation`: they change only when a piece does)."""
    def build() -> list[Piece]:
        return [p for p in match.state.pieces.select(side=US) if on_island(p)
                and (kind is None or p.kind == kind)]
    return list(Situation.of(match).derive(("marines", kind), build))


def japanese(match: Match) -> list[Piece]:
    """The Japanese units on the map, in registry order."""
    return [p for p in match.state.pieces.select(side=JAPAN) if components().map.is_hex_id(p.location)]


def units_at(match: Match, hex_id: str, side: str | None = None) -> list[Piece]:
    """The units in a hex (markers excluded), of one side if given."""
    return [p for p in match.state.pieces.at(hex_id)
            if p.side in SIDES and (side is None or p.side == side)]


def regiment_key(p: Piece) -> str:
    """The regiment a Marine infantry unit belongs to ("23"), or "" for tanks and HQs."""
    return str(p.attrs.get("regiment", ""))


def battalion_key(p: Piece) -> str:
    """A Marine infantry unit's battalion as "bn/reg/div" (VIII.C, IV.E.2)."""
    return f"{p.attrs['battalion']}/{p.attrs['regiment']}/{p.attrs['division']}"


def fatigue(match: Match, regiment: str) -> int:
    """IV.D: a regiment's Fatigue Level."""
    return family_value(match.state, FATIGUE, regiment) if regiment else 0


def unit_fatigue(match: Match, p: Piece) -> int:
    """IV.D.2: the Fatigue Level of a unit (its regiment's; tanks and HQs have none)."""
    return fatigue(match, regiment_key(p))


def strength(p: Piece) -> int:
    """II.C: the Combat Strength a unit shows with its remaining steps."""
    values = p.attrs.get("strengths") or []
    if not values or p.steps < 1:
        return 0
    return int(values[min(p.steps, len(values)) - 1])


def is_disrupted(p: Piece) -> bool:
    """IX.H: a Marine HQ on its DISRUPTED side."""
    return p.kind == "hq" and p.face == "back"


def position_class(match: Match, hex_id: str) -> int:
    """III.5-6, VIII.B.1: the defensive position class of a hex (1 once its "1" marker is on)."""
    cls = attr(hex_id, "position")
    if cls is None:
        return 1
    return 1 if hex_id in match.state.vars[V_CLASS1] else int(cls)


def level(hex_id: str) -> int:
    """IX.G, VIII.C: a hex's elevation, the lower of two printed levels."""
    return int(attr(hex_id, "level", 1))










# -- the position at a moment: what ZOC, supply and fire read ----------------------------

@dataclass
class Situation:
    """The position as the rules read it at one moment: who is where, ZOCs, 2-hex zones.

    Read-only once built: :meth:`of` hands the same one to every reader until a piece
    changes, and it keeps what is derived from it (the Supply Path sets, the hexes in
    Supply from each set of sources, what :meth:`derive` is asked for)."""

    jp: dict[str, str] = field(default_factory=dict)  # hex -> Japanese unit id
    marine_hexes: dict[str, list[Piece]] = field(default_factory=dict)
    zoc: set[str] = field(default_factory=set)  # VI: land hexes next to a Japanese unit
    near: dict[str, int] = field(default_factory=dict)  # hex -> Japanese units within 2
    #: derived once, on first use: what a Supply Path reads of it (:meth:`path_key`), the
    #: hexes that trace Supply to each set of sources (:func:`supplied_from`), and the rest
    _path_key: tuple[tuple[str, ...], frozenset[str]] | None = field(
        default=None, init=False, repr=False, compare=False)
    _supplied: dict[tuple[Any, ...], HexBits] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    _derived: dict[tuple[Any, ...], Any] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def of(cls, match: Match) -> Situation:
        """VI, VI.E: the situation now; a Japanese unit's ZOC is the six hexes around it,
        sea excepted, and a hex in two ZOCs is simply in ZOC.

        Kept in the match's memo while the pieces do not change (``Memo.on_change``): every
        change to a piece, its status or a stack moves the registry's revision clock."""
        return match.state.memo.on_change(_SITUATION, lambda: cls._build(match.state.pieces))

    @classmethod
    def _build(cls, pieces: Pieces) -> Situation:
        """The situation of these pieces, worked out afresh (see :meth:`of`)."""
        s = cls()
        jp, marine_hexes, on_map = s.jp, s.marine_hexes, components().map.is_hex_id
        for p in pieces.select(side=JAPAN):
            if on_map(p.location):
                jp[p.location] = p.id
        island = _island()
        for p in pieces.select(side=US):
            if p.location in island:  # (on_island)
                marine_hexes.setdefault(p.location, []).append(p)
        s.zoc, s.near = zones(tuple(s.jp))
        return s

    def derive(self, key: tuple[Any, ...], build: Callable[[], T]) -> T:
        """What ``build`` derives from this situation and whatever else ``key`` names (the
        key holds every value it reads besides the situation), built on the first call and
        kept with the situation; the caller must not change it."""
        try:
            found: T = self._derived[key]
        except KeyError:
            found = self._derived[key] = build()
        return found

    def has_infantry(self, hex_id: str) -> bool:
        """Whether a Marine infantry unit is in the hex."""
        return any(p.kind == "infantry" for p in self.marine_hexes.get(hex_id, ()))

    def path_key(self) -> tuple[tuple[str, ...], frozenset[str]]:
        """All that a Supply Path reads of the situation (VII.A, VI.C, VI.D): the Japanese
        hexes (sorted), and the Marine-occupied hexes within two hexes of one. Situations
        that agree on it agree on every Supply Path (a move behind the front changes none)."""
        if self._path_key is None:
            self._path_key = (tuple(sorted(self.jp)),
                              frozenset(self.marine_hexes.keys() & self.near.keys()))
        return self._path_key

    def path_sets(self) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
        """VII.A, VI.C, VI.D as sets of map indices, for :func:`supply_path`
        (:func:`_path_sets` of :meth:`path_key`)."""
        return _path_sets(*self.path_key())


_SITUATION = "iwo_valor: the situation"
"""The key of the situation in the match's memo (:meth:`Situation.of`)."""


@lru_cache(maxsize=64)
def _path_sets(jp_hexes: tuple[str, ...], held: frozenset[str]
               ) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """VII.A, VI.C, VI.D as sets of map indices, given the Japanese hexes and the Marine-held
    hexes within two hexes of them: the hexes a Supply Path may not enter (a Japanese unit;
    an unoccupied hex within two hexes of one), those it may enter but not pass through
    (ZOC) and the costly ones (a Marine-occupied hex within two hexes of a Japanese unit:
    one at most). Kept for the situations to come that agree on them."""
    idx = hex_index()
    zoc, near = zones(jp_hexes)
    blocked = frozenset(idx[h] for h in (*jp_hexes, *(x for x in near if x not in held))
                        if h in idx)
    return blocked, frozenset(idx[h] for h in zoc if h in idx), frozenset(idx[h] for h in held)


@lru_cache(maxsize=16)
def zones(jp_hexes: tuple[str, ...]) -> tuple[set[str], dict[str, int]]:
    """VI, VI.E: the ZOC hexes (the land hexes next to a Japanese unit; a hex in two ZOCs is
    simply in ZOC) and, for each hex, the Japanese units within two hexes, of Japanese units
    in these hexes. Kept for the next situations with the same Japanese hexes (they change
    only when a unit is lost); the caller must not change them."""
    zoc: set[str] = set()
    near: dict[str, int] = {}
    m = components().map
    passable, ids_within = m.passable_neighbor_ids, m.ids_within
    for hid in jp_hexes:
        zoc.update(passable(hid))
        for x in ids_within(hid, 2):
            near[x] = near.get(x, 0) + 1
    return zoc, near








@lru_cache(maxsize=64)
def hexes_within2(hex_ids: tuple[str, ...]) -> frozenset[Hex]:
    """Every hex within two hexes of one of these (kept for the next asks)."""
    m = components().map
    return frozenset(m.hex(x) for h in hex_ids for x in m.ids_within(h, 2))


@lru_cache(maxsize=16)
def zoc_hexes(jp_hexes: tuple[str, ...]) -> frozenset[Hex]:
    """The ZOC of :func:`zones` as Hexes."""
    return frozenset(components().map.hex(h) for h in zones(jp_hexes)[0])


# -- stepping rules shared by movement and supply (V, VII.A) -------------------------------

def may_step(match: Match, unit_kind: str, a: str, b: str) -> bool:
    """V.G-J (and XI.C's Narrow Game limits): terrain that a unit of this kind may cross."""
    return _terrain_step(unit_kind == "armour", _narrow(match), a, b)


def _narrow(match: Match) -> tuple[tuple[str, ...], bool]:
    """XI.C: the Narrow Game's areas (none outside it), and whether 1220 is open (turn 8+)."""
    return tuple(match.state.vars.get("narrow_areas") or ()), match.state.turn > 7


def _terrain_step(armour: bool, narrow: tuple[tuple[str, ...], bool], a: str, b: str) -> bool:
    """V.G-J, XI.C: :func:`may_step` for armour or not, in the Narrow Game's areas."""
    if not is_land(b):
        return False
    side = components().map.id_hexside_features(a, b)
    if "ridge" in side:  # V.H
        return False
    if armour and ("slope" in side or b in GORGE_SET):  # V.I, V.J
        return False
    limit, open_1220 = narrow
    return not (limit and attr(b, "area") not in limit and not (b == "1220" and open_1220))


GORGE_SET = frozenset(("2732", "2733", "2831", "2832"))


@cache
def hex_index() -> dict[str, int]:
    """Each hex id's index in the map's tables."""
    return {label: i for i, label in enumerate(components().map.ids())}


@cache
def terrain_steps(armour: bool, narrow: tuple[tuple[str, ...], bool]) -> tuple[tuple[int, ...], ...]:
    """:func:`may_step` compiled for the whole map (a step table of core.supply)."""
    m = components().map
    lbl = m.label
    return step_table(m, lambda a, b: _terrain_step(armour, narrow, lbl(a), lbl(b)))


@cache
def step_masks(armour: bool, narrow: tuple[tuple[str, ...], bool]) -> StepMasks:
    """:func:`terrain_steps` compiled to bit masks (core.supply's :class:`StepMasks`); every
    table of the map lays its hexes out the same way."""
    return StepMasks(components().map, terrain_steps(armour, narrow))


@lru_cache(maxsize=64)
def _path_bits(jp_hexes: tuple[str, ...], held: frozenset[str]) -> tuple[int, int, int]:
    """:func:`_path_sets` as bit masks of the map's :class:`StepMasks` layout, made from the
    bits of each hex's neighbourhood (a mask a hex, kept) rather than hex by hex: the
    Japanese hexes and the hexes within two of them that no Marine unit holds; the ZOC; the
    Marine-held hexes within two of a Japanese unit."""
    held_bits = hexes_bits(held)
    return (hexes_bits(jp_hexes) | (near_bits(jp_hexes) & ~held_bits), zoc_bits(jp_hexes), held_bits)


def hexes_bits(hex_ids: Iterable[str]) -> int:
    """Hexes (by id) as a bit mask of the map's :class:`StepMasks` layout."""
    bit = hex_bits()
    out = 0
    for h in hex_ids:
        out |= bit[h]
    return out


@cache
def hex_bits() -> dict[str, int]:
    """Each hex id's bit in the map's :class:`StepMasks` layout (every table of the map
    lays its hexes out the same way)."""
    pos = step_masks(False, ((), False)).positions
    return {h: 1 << pos[i] for h, i in hex_index().items()}


@cache
def within2_bits(hex_id: str) -> int:
    """The hexes within two hexes of a hex (the map's ``ids_within``) as a bit mask."""
    return hexes_bits(components().map.ids_within(hex_id, 2))


@lru_cache(maxsize=64)
def near_bits(jp_hexes: tuple[str, ...]) -> int:
    """The hexes within two hexes of one of these, as a bit mask (:func:`within2_bits`'
    union: where a move stops, V.D, and what a Supply Path avoids, VII.A)."""
    out = 0
    for h in jp_hexes:
        out |= within2_bits(h)
    return out


@lru_cache(maxsize=16)
def zoc_bits(jp_hexes: tuple[str, ...]) -> int:
    """The ZOC of Japanese units in these hexes (:func:`zones`, VI), as a bit mask."""
    return hexes_bits(zones(jp_hexes)[0])


def supplied_from(match: Match, s: Situation, sources: Iterable[str], unit_kind: str,
                  max_length: int | None) -> HexBits:
    """VII.A: every hex (map index) from which a unit of this kind traces a Supply Path of
    at most ``max_length`` hexes to one of ``sources``: :func:`supply_path` answered for the
    whole map in one search, kept in the situation (and, for the situations to come that
    agree on the paths, by :func:`_search_from`, made to its end, or for a path of a few hexes by
    :func:`_supplied_near`, which reads the paths' sets only within reach of the sources: a
    move far from them changes none); the caller must not change it."""
    key = (tuple(sources), unit_kind == "armour", _narrow(match), max_length)
    found = s._supplied.get(key)
    if found is None:
        if max_length is None:
            found = HexBits(step_masks(key[1], key[2]), _search_from(s.path_key(), *key[:3]).finish())
        else:
            near = _within_bits(key[0], max_length)
            blocked, dead_ends, costly = _path_bits(*s.path_key())
            found = _supplied_near(blocked & near, dead_ends & near, costly & near, *key)
        s._supplied[key] = found
    return found


@lru_cache(maxsize=256)
def _within_bits(sources: tuple[str, ...], radius: int) -> int:
    """The hexes within ``radius`` hexes of one of these (bits of the :class:`StepMasks`
    layout): all that a path of at most ``radius`` hexes to one of them may enter."""
    idx = hex_index()
    m = components().map
    near = {x for h in sources if h in idx for x in within(m.hex(h), radius) if x in m}
    return step_masks(False, ((), False)).bits(m.index(x) for x in near)


@lru_cache(maxsize=256)
def _search_from(path_key: tuple[tuple[str, ...], frozenset[str]], sources: tuple[str, ...],
                 armour: bool, narrow: tuple[tuple[str, ...], bool]) -> SupplySearch:
    """The search of :func:`supplied_from` with no limit of length, for a situation's
    :meth:`~Situation.path_key` (core.supply's :class:`~tabletop.core.board.supply.SupplySearch`
    on the compiled terrain and the situation's sets as bits): kept for the situations to
    come that agree on the paths, and made only as far as the questions asked of it need
    (:func:`traces_supply`: an HQ near a beach is found supplied in a few rounds)."""
    idx = hex_index()
    blocked, dead_ends, costly = _path_bits(*path_key)
    return SupplySearch(step_masks(armour, narrow), [idx[x] for x in sources if x in idx],
                        blocked=blocked, dead_ends=dead_ends, costly=costly, costly_limit=1,
                        costly_sources=False)


@lru_cache(maxsize=512)
def _supplied_near(blocked: int, dead_ends: int, costly: int, sources: tuple[str, ...],
                   armour: bool, narrow: tuple[tuple[str, ...], bool],
                   max_length: int | None) -> HexBits:
    """:func:`supplied_from` on the sets of :meth:`Situation.path_sets` as bits, of which a
    path of ``max_length`` hexes at most reads only those within that many hexes of the
    sources (:meth:`StepMasks.supplied` expands no hex farther)."""
    idx = hex_index()
    return step_masks(armour, narrow).supplied(
        [idx[x] for x in sources if x in idx], blocked=blocked, dead_ends=dead_ends,
        costly=costly, costly_limit=1, costly_sources=False, max_length=max_length)


def traces_supply(match: Match, s: Situation, start: str, sources: Iterable[str], unit_kind: str,
                  max_length: int | None) -> bool:
    """VII.A: whether :func:`supply_path` finds a path (read from :func:`supplied_from`, or
    with no limit of length from its search, :func:`_search_from`, made only until it
    reaches the hex). A source farther than ``max_length`` is never reached, so it may be
    listed or not."""
    if max_length is None:
        search = _search_from(s.path_key(), tuple(sources), unit_kind == "armour", _narrow(match))
        return search.reaches(hex_bits()[start])
    return hex_index()[start] in supplied_from(match, s, sources, unit_kind, max_length)


def supply_path(match: Match, s: Situation, start: str, sources: Iterable[str], unit_kind: str,
                max_length: int | None) -> list[Hex] | None:
    """VII.A: a Supply Path from ``start`` to a source under every rule of its bullets: not
    into a ZOC hex unless Marine-occupied (VI.C), out of or into but not through an occupied
    one (VI.D); through at most one Marine-occupied hex within two hexes of a Japanese unit,
    the source it ends in (the HQ's or beach hex) not counted: the path enters it but does
    not pass through it (VII.A's third bullet against its fourth's "enter (but may not pass
    through)"); over terrain the unit may cross (:func:`may_step`). The sets of the
    situation and the terrain are compiled once (:meth:`Situation.path_sets`, :func:`terrain_steps`)
    and the core's search walks them."""
    blocked, dead_ends, costly = s.path_sets()
    m = components().map
    return trace_indexed(m, m.hex(start), [m.hex(x) for x in sources],
                         steps=terrain_steps(unit_kind == "armour", _narrow(match)), blocked=blocked,
                         dead_ends=dead_ends, costly=costly, costly_limit=1, costly_sources=False,
                         max_length=max_length)


def landed_sources(match: Match, s: Situation) -> list[str]:
    """VII.A: the beach hexes on which a Marine unit has landed, not Japanese-occupied."""
    return [h for h in match.state.vars[V_LANDED] if h not in s.jp]


def independent_sources(match: Match, s: Situation) -> list[str]:
    """IV.A.3, VII.B: the beach hexes an Independent Regiment traces Supply to, not
    Japanese-occupied. VII.B: "a Beach Hex on which Marine units previously landed" (option
    ``ind_beach=hex``, the default: the hexes of :func:`landed_sources`); IV.A.3: "any Beach
    Hex ... part of a Beach on which Marine units previously landed" (``ind_beach=beach``:
    every hex of a beach any of whose hexes a unit landed on)."""
    if match.options.get("ind_beach") != "beach":
        return landed_sources(match, s)
    landed = set(match.state.vars[V_LANDED])
    comp = components()
    out: list[str] = []
    for beach in ("minami", "nishi"):
        hexes = comp.hexes_where("beach", beach)
        if landed.intersection(hexes):
            out.extend(h for h in hexes if h not in s.jp)
    return sorted(out)


def hq_supplied(match: Match, s: Situation, hq: Piece, cache_: dict[str, bool] | None = None) -> bool:
    """VII.A: an HQ provides Supply if undisrupted and tracing a path of any length to a
    beach hex where Marines landed."""
    if cache_ is not None and hq.id in cache_:
        return cache_[hq.id]
    ok = (on_island(hq) and not is_disrupted(hq)
          and traces_supply(match, s, hq.location, landed_sources(match, s), "hq", None))
    if cache_ is not None:
        cache_[hq.id] = ok
    return ok


def supply_sources(match: Match, s: Situation, division: Any) -> tuple[str, ...]:
    """VII.A: the hexes of a division's HQs that provide Supply now (:func:`hq_supplied`),
    in registry order; kept in the situation (with the landed beaches it reads), and for
    the situations to come whose HQs and Supply Paths agree (:func:`_hq_sources`)."""
    def build() -> tuple[str, ...]:
        hqs = tuple((h.location, h.face) for h in match.state.pieces.by_attr("hq", "division")
                    .get(division, ()) if h.side == US)
        return _hq_sources(hqs, s.path_key(), tuple(match.state.vars[V_LANDED]), _narrow(match))
    return s.derive(("supply_sources", division, tuple(match.state.vars[V_LANDED])), build)


@lru_cache(maxsize=256)
def _hq_sources(hqs: tuple[tuple[str, str], ...], path_key: tuple[tuple[str, ...], frozenset[str]],
                landed: tuple[str, ...], narrow: tuple[tuple[str, ...], bool]) -> tuple[str, ...]:
    """:func:`supply_sources` of HQs standing in these hexes with these faces, for a
    situation's :meth:`~Situation.path_key` and landed beach hexes: those of the hexes
    whose HQ is on the island, not DISRUPTED (IX.H, its back up) and traces a path of any
    length to a landed beach hex no Japanese unit holds (:func:`hq_supplied`, VII.A). A
    move that changes none of these (most moves behind the front) keeps the answer."""
    jp = set(path_key[0])
    search = _search_from(path_key, tuple(h for h in landed if h not in jp), False, narrow)
    bit, island = hex_bits(), _island()
    return tuple(at for at, face in hqs if at in island and face != "back" and search.reaches(bit[at]))


def is_supplied(match: Match, p: Piece, s: Situation | None = None,
                cache_: dict[str, bool] | None = None) -> bool:
    """Part VII: whether a Marine unit is Supplied now (:func:`supply_check` asked of one
    unit; ``cache_`` keeps HQs' answers across calls of one moment)."""
    return supply_check(match, s or Situation.of(match), cache_)(p)


def supply_check(match: Match, s: Situation,
                 hq_cache: dict[str, bool] | None = None) -> Callable[[Piece], bool]:
    """Part VII: whether Marine units are Supplied at one moment (the situation ``s``): VII.B,
    all of turn 1 and a unit's first turn on the island; VII.A, an HQ that traces to a landed
    beach (:func:`hq_supplied`), any other unit a path of at most 5 hexes to an HQ of its
    division that provides Supply, or for an Independent Regiment's units of at most 4 to a
    landed beach. The searches are read once for each division and kind, however many units
    are asked (the menu of units that may move asks it of every unit at every decision)."""
    turn = match.state.turn
    ind = match.state.vars[V_IND]
    bit = hex_bits()
    island = _island()
    sets: dict[tuple[Any, bool], int] = {}  # (division, armour) -> the hexes supplied, as bits
    beach_sets: dict[bool, int] = {}

    def check(p: Piece) -> bool:
        location = p.location
        if location not in island:  # (on_island)
            return False
        if turn == 1 or p.attrs.get("landed") == turn:
            return True
        kind = p.kind
        if kind == "hq":
            return hq_supplied(match, s, p, hq_cache)
        armour = kind == "armour"
        division = p.attrs["division"]
        found = sets.get((division, armour))
        if found is None:
            found = sets[(division, armour)] = supplied_from(
                match, s, supply_sources(match, s, division), kind, 5).bits
        at = bit[location]
        if found & at:
            return True
        if ind and kind == "infantry" and regiment_key(p) == ind:
            beach = beach_sets.get(armour)
            if beach is None:
                beach = beach_sets[armour] = supplied_from(
                    match, s, independent_sources(match, s), kind, 4).bits
            return bool(beach & at)
        return False
    return check


# -- fog of war (III.3) ----------------------------------------------------------------

def reveal_around(match: Match, hex_id: str, section: str = "III.3") -> list[Piece]:
    """III.3: a Marine unit within two hexes turns Japanese units face-up, for good (the
    core's search of every place is made only when a hidden unit stands within two hexes)."""
    stack = match.state.pieces.stack
    if not any(p.hidden and p.side != US for x in components().map.ids_within(hex_id, 2) for p in stack(x)):
        return []
    m = components().map
    found = reveal_near(match.state.pieces, m, m.hex(hex_id), 2, observer=US)
    for p in found:
        match.emit("reveal", section, f"the Japanese unit in {p.location} is revealed: {p.id} "
                   f"({describe_jp(p)})", unit=p.id, hex=p.location, type=p.attrs["type"],
                   steps=p.steps, strength=strength(p))
    return found


def modified_roll_text(roll: int, mods: list[dict[str, Any]], result: int) -> str:
    """A modified roll as a log line writes it, from its event's fields: ``roll 7, -1
    fatigue (IV.F.2) = 6`` (``roll 7 = 7`` with no modifier)."""
    return f"roll {roll}{', ' + modifiers_text(mods) if mods else ''} = {result}"


def describe_jp(p: Piece) -> str:
    """A Japanese unit's face: designation, type, steps and strength."""
    return f"{p.attrs['type']}, {p.steps} step(s), strength {strength(p)}"


# -- losses and the VP track (IX.A.5, IX.H, X) ---------------------------------------------

def add_vp(match: Match, delta: int, section: str, why: str, **data: Any) -> None:
    """X: move the Japanese VP Track (it may go negative, II.C); ``data``: the numbers ``why``
    states, as the event's fields (the unit and its steps, the units counted, the roll)."""
    if not delta:
        return
    match.state.tracks["vp"].add(delta)
    match.emit("vp", section, f"Japanese VP {delta:+d} ({why}): now {match.state.tracks['vp'].value}",
               delta=delta, total=match.state.tracks["vp"].value, **data)


# -- status: set only through these helpers (one owner each; positions use them too) ------

def set_disrupted(hq: Piece, value: bool) -> None:
    """IX.H: a Marine HQ turned to its DISRUPTED side (``True``) or back (IV.G.5): its back
    face is the status, the one field that holds it."""
    hq.face = "back" if value else "front"


def set_revealed(p: Piece, value: bool) -> None:
    """III.3: a Japanese unit face-up for good (``True``) or face-down: its hidden flag."""
    p.hidden = not value


def set_fatigue(match: Match, regiment: str, level: int) -> None:
    """IV.D.2-3: a regiment's Fatigue Level, the marker's box on the FATIGUE TRACK (its
    track in the ``fatigue`` family holds it)."""
    shift(match.state, FATIGUE, regiment, level - fatigue(match, regiment))


def set_independent(match: Match, regiment: str | None) -> None:
    """IV.A.3: the one Independent Regiment (None: none), the IND markers' regiment."""
    match.state.vars[V_IND] = regiment


def set_landed(p: Piece, turn: int) -> None:
    """VII.B: the Game Turn a Marine unit entered the game (Supplied all of that turn)."""
    p.attrs["landed"] = turn


def set_class1(match: Match, hex_id: str, value: bool) -> None:
    """III.6: a Class 2 position reduced to Class 1 (its "1" marker on), or not."""
    hexes = set(match.state.vars[V_CLASS1])
    (hexes.add if value else hexes.discard)(hex_id)
    match.state.vars[V_CLASS1] = sorted(hexes)


def status_problems(match: Match, p: Piece) -> list[str]:
    """Where a unit's fields disagree about its status: II.C a Marine unit shows its
    Reduced Strength side exactly when it has lost a step (an HQ's back is DISRUPTED,
    IX.H); a Marine unit is never face-down (III.3 hides Japanese units only)."""
    out = []
    if p.side == US:
        if p.hidden:
            out.append(f"III.3: Marine unit {p.id} is face-down (only Japanese units are)")
        if p.kind != "hq" and p.steps >= 1 and (p.face == "back") != (p.steps < p.max_steps):
            out.append(f"II.C: Marine unit {p.id} has {p.steps} of {p.max_steps} steps but shows its "
                       f"{p.face} side (its Reduced Strength side is the back; set steps and face together)")
    return out


def disrupt(match: Match, hq: Piece, section: str) -> None:
    """IX.H: an HQ that would lose a step is DISRUPTED instead (no extra effect if already)."""
    if hq.face != "back":
        set_disrupted(hq, True)
        match.emit("disrupted", section, f"{hq.id} is DISRUPTED", unit=hq.id, hex=hq.location)


def marine_loses(match: Match, p: Piece, steps: int, section: str) -> int:
    """IX.A.5: a Marine unit loses steps: +1 VP a step, +1 more if it is eliminated; an HQ is
    disrupted instead (IX.H). Returns the steps actually removed."""
    if steps <= 0:
        return 0
    if p.kind == "hq":
        disrupt(match, p, "IX.H")
        return 0
    lost = min(steps, p.steps)
    p.steps -= lost
    match.emit("loss", section, f"{p.id} loses {lost} step(s)", unit=p.id, steps=lost)
    add_vp(match, lost, section, f"{p.id} lost {lost} step(s)", unit=p.id, steps=lost)
    if p.steps <= 0:
        p.steps = 0
        match.state.pieces.move(p.id, US_ELIMINATED)
        match.emit("eliminated", section, f"{p.id} is eliminated", unit=p.id)
        add_vp(match, 1, section, f"{p.id} eliminated", unit=p.id)
    else:
        p.face = "back" if p.steps < p.max_steps else "front"
    return lost


def japanese_loses(match: Match, p: Piece, steps: int, section: str) -> None:
    """II.C: a Japanese unit loses steps (a step-loss marker); at none left it is eliminated."""
    lost = min(steps, p.steps)
    p.steps -= lost
    where = p.location
    extra: dict[str, Any] = {} if p.hidden else {"unit": p.id}
    match.emit("jp_loss", section, f"the Japanese unit in {where} loses {lost} step(s)"
               + ("" if p.hidden else f" ({p.id})"), hex=where, steps=lost, **extra)
    if p.steps <= 0:
        p.steps = 0
        p.hidden = False
        match.state.pieces.move(p.id, JP_ELIMINATED)
        match.emit("jp_eliminated", section, f"the Japanese unit in {where} ({p.id}) is eliminated",
                   hex=where, unit=p.id)


def hex_loses(match: Match, hex_id: str, steps: int, section: str,
              where: ResumePoint | None = None) -> Procedure[None]:
    """IX.C.4, IX.H: a hex's Marine units lose steps, distributed as the player chooses; an
    HQ takes none while another unit can, and alone it is disrupted. Each choice is asked
    again from ``where`` with the steps still to lose (``left``, this one included)."""
    for done in range(steps):
        here = [p for p in units_at(match, hex_id, US) if p.kind != "hq" and p.steps > 0]
        if not here:
            for hq in units_at(match, hex_id, US):
                disrupt(match, hq, "IX.H")
            return
        if len(here) == 1:
            victim = here[0]
        else:
            answer = yield from ask_str(asked_again(choose(
                US, f"Which unit in {hex_id} loses a step?", "IX.C.4",
                [Option(p.id, f"{p.id} ({p.steps} steps)") for p in here],
                kind="loss", context={"hex": hex_id}), where, at="loss", left=steps - done))
            victim = match.state.pieces[answer]
        marine_loses(match, victim, 1, section)


def roll_2d6(match: Match, purpose: str, section: str) -> int:
    """Two dice, summed."""
    return sum(match.dice.roll(2, 6, purpose=purpose, section=section))


def d6(match: Match, purpose: str, section: str) -> int:
    """One die."""
    return match.dice.d6(purpose=purpose, section=section)
