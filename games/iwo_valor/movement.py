"""IV.B the Marine Movement Phase, V How to Move, VI Zones of Control, and the landings.

A move is one decision for the unit and one for its destination; the engine walks the path.
A destination is any hex the unit can reach without passing a hex within two hexes of a
Japanese unit that has not yet fired at it (V.D): the move ends there, each such unit fires
(IX.A), and the unit may then go on moving (a new destination) or stop. The search is the
core's :func:`~tabletop.core.board.movement.reachable` with ``zoc_to_zoc=False`` (V.E, VI.A), the
trigger zone of :mod:`tabletop.core.board.opportunity` as ``must_stop``, and a step rule for
terrain (V.F-J) and HQs in ZOC (V.C). Stacking binds only at the end of the phase (V.M): a
move may end, or stop for fire, in a hex that already holds a unit of its kind (the menu
says so); at the end of the phase the player removes the excess (:func:`end_of_movement`).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable
from functools import cache, lru_cache
from operator import getitem
from types import MappingProxyType
from typing import Any

from tabletop.core.board.hexgrid import Hex, HexSide
from tabletop.core.board.movement import MoveCosts, Reach, StepLayers, StepReach, reachable, step_layers
from tabletop.core.board.opportunity import FireRecord, firers_at
from tabletop.core.board.supply import StepMasks
from tabletop.core.engine.decisions import DONE, Decision, Option, ResumePoint, ask_str, choose
from tabletop.core.engine.events import modifier
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.routes import Route, Routes

from . import common as c
from .japanese_combat import opportunity_fire

HQ_HEXES = 5  # V: "Marine HQ units may be moved up to five hexes"
PHASE = "movement"
"""The phase's id: where its decisions are asked again. Their args name the step
(``stage``: IV.B.1, IV.B.2, IV.B.3 or V.M), the units landed this phase (``landed``, as the
landings go on, then the units IV.B.3 moves), and the decision (``at``)."""
STACK = MappingProxyType({"infantry": 1, "armour": 1, "hq": 1})  # V.M


def can_stack(match: Match, p: Piece, hex_id: str, s: c.Situation) -> bool:
    """V.M: whether the unit would be within one infantry, one armour and one HQ a hex there
    (and never with a Japanese unit)."""
    if hex_id in s.jp:
        return False
    here = [q for q in s.marine_hexes.get(hex_id, ()) if q.id != p.id]
    return sum(1 for q in here if q.kind == p.kind) < STACK[p.kind]


def crowded_hexes(p: Piece, s: c.Situation) -> set[str]:
    """V.M: the hexes already holding as many Marine units of the unit's kind, others than
    itself, as a hex may hold at the end of the phase: the unit may enter them and stop
    there, but one of them must leave before the phase ends or be removed."""
    cap, kind, pid = STACK[p.kind], p.kind, p.id
    out: set[str] = set()
    for h, units in s.marine_hexes.items():
        n = 0
        for q in units:  # (plain loops: asked at every destination decision)
            if q.kind == kind and q.id != pid:
                n += 1
        if n >= cap:
            out.add(h)
    return out


@cache
def terrain_costs(kind: str, areas: tuple[str, ...], open_1220: bool) -> MoveCosts:
    """V.G-J (and XI.C's area limit): the fixed terrain a unit kind may cross, compiled once:
    no all-sea hex, no Ridge hexside, for armour no Slope hexside and no Bloody Gorge."""
    m = c.components().map
    lbl = c.components().map.label

    def enter(h: Hex) -> float | None:
        hid = lbl(h)
        if m.is_prohibited(h):
            return None
        if kind == "armour" and hid in c.GORGE_SET:
            return None
        if areas and c.attr(hid, "area") not in areas and not (hid == "1220" and open_1220):
            return None
        return 1

    cross: dict[HexSide, float | None] = {}
    for side, feats in m.hexsides().items():
        if "ridge" in feats or (kind == "armour" and "slope" in feats):
            cross[side] = None
    return MoveCosts(m, enter, cross)


def closed_hexes(match: Match, p: Piece, s: c.Situation) -> set[str]:
    """V.B, V.C, V.F, VI.B: hexes this unit may not enter now (enemy units; for an HQ, ZOC
    hexes without Marine infantry; Class 2/3 positions in a Japanese ZOC)."""
    closed = set(s.jp)
    for hid in s.zoc:
        hq_barred = p.kind == "hq" and not s.has_infantry(hid)
        if hq_barred or (c.attr(hid, "position") and c.position_class(match, hid) >= 2):
            closed.add(hid)
    return closed


def destinations(match: Match, p: Piece, s: c.Situation | None = None) -> Reach | None:
    """Part V: every hex the unit may move to now (with the path there), or None; an HQ
    moves up to five hexes in the phase; V.E, VI.A: never directly from one Japanese ZOC hex
    to another.

    Kept in the situation (:meth:`~common.Situation.derive`, keyed by all else it reads),
    so the menu of a move and the question whether the unit may move at all share one
    search; the caller must not change the answer."""
    s = s or c.Situation.of(match)
    v = match.state.vars
    fired = tuple(FireRecord(v[c.V_FIRED]).fired_at(p.id))
    max_hexes = None
    if p.kind == "hq":
        max_hexes = HQ_HEXES - int(v[c.V_HQ_HEXES].get(p.id, 0))
        if max_hexes <= 0:
            return None
    areas = tuple(v.get("narrow_areas") or ())
    class1 = tuple(v[c.V_CLASS1])
    key = ("destinations", p.id, p.kind, p.location, fired, max_hexes, areas,
           match.state.turn > 7, class1)
    return s.derive(key, lambda: _destinations(match, p, s, fired, max_hexes, areas, class1))


def _destinations(match: Match, p: Piece, s: c.Situation, fired: tuple[str, ...],
                  max_hexes: int | None, areas: tuple[str, ...], class1: tuple[str, ...]
                  ) -> Reach | None:
    """:func:`destinations`' search (V.A-M, VI.A-B)."""
    if max_hexes is None:
        return _layered(match, p, s, fired, areas, class1)
    m = c.components().map
    zone = c.hexes_within2(tuple(h for h, jid in s.jp.items() if jid not in fired))
    closed = s.derive(("closed", p.kind == "hq", class1),
                      lambda: {c.components().map.hex(h) for h in closed_hexes(match, p, s)})
    ezoc = c.zoc_hexes(tuple(s.jp))
    costs = terrain_costs(p.kind, areas, match.state.turn > 7)
    reach = reachable(m, c.components().map.hex(p.location), math.inf, costs,
                      enemy=closed, ezoc=ezoc,
                      zoc_stops=False, zoc_to_zoc=False, must_stop=zone,
                      max_hexes=max_hexes)
    return reach if len(reach) else None


class LayeredReach(StepReach):
    """:func:`~tabletop.core.board.movement.reachable`'s answer for a move whose every step costs
    one hex and that no hex limit bounds (:func:`_layered`): the core's search a layer of
    hexes at a time (:func:`~tabletop.core.board.movement.step_layers`, :class:`StepReach`), with
    the destination menu made with it (:func:`_layers`). The unit may end in every hex it
    reaches (stacking binds only at the end of the phase, V.M)."""

    __slots__ = ("_fire", "_menu")

    def __init__(self, masks: StepMasks, start: Hex, layers: Layers) -> None:
        found, self._fire, self._menu = layers
        super().__init__(masks, start, found)

    def menu(self, crowded: Iterable[str] = (), kind: str = "") -> list[Option]:
        """V.A, V.D, V.M: the destination menu (a new list): for each hex, in id order, its
        :func:`destination_option` with the Japanese units that would fire there (made with
        the search, :func:`_layers`), and for the hexes of ``crowded`` that already hold a
        Marine unit of the unit's ``kind``, the entry that says so. The crowded hexes are
        few and the menu long, so each is found in it by halving (the menu is in index
        order)."""
        options = self._menu.copy()
        if crowded:
            order, moved, fire = self.indices(), self.moved(), self._fire
            idx, n = c.hex_index(), len(order)
            for h in crowded:
                i = idx[h]
                k = bisect_left(order, i)
                if k < n and order[k] == i:
                    options[k] = destination_option(h, moved[k], fire[k], kind)
        return options


@lru_cache(maxsize=64)
def _closed_bits(jp_hexes: tuple[str, ...], class1: tuple[str, ...]) -> int:
    """:func:`closed_hexes` of a unit other than an HQ, as bits: the Japanese hexes and the
    Class 2/3 positions in their ZOC (V.B, V.F, VI.B; what an HQ may not enter depends on
    the Marines too, so HQs are searched by the core)."""
    idx = c.hex_index()
    closed = set(jp_hexes)
    for hid in c.zones(jp_hexes)[0]:
        cls = c.attr(hid, "position")
        if cls and (1 if hid in class1 else int(cls)) >= 2:
            closed.add(hid)
    return c.step_masks(False, ((), False)).bits([idx[h] for h in closed])


Layers = tuple[StepLayers, bytes, list[Option]]
"""What :func:`_layers` finds: the core search's layers, the Japanese units that would fire
in each hex reached (IX.A) and the destination menu (:meth:`LayeredReach.menu` before V.M's
warnings; never changed)."""


@lru_cache(maxsize=256)
def _layers(start_i: int, armour: bool, narrow: tuple[tuple[str, ...], bool],
            jp_hexes: tuple[str, ...], unfired: tuple[str, ...], class1: tuple[str, ...]) -> Layers:
    """The core search's layers (every step costs one hex, :func:`~tabletop.core.board.movement.step_layers`)
    from the hex of index ``start_i``: V.D, each move stops within two hexes of a Japanese
    unit that has not fired at the unit (``unfired``'s hexes); V.B, V.F, VI.B, never into a
    Japanese hex or a Class 2/3 position in a ZOC; VI.A, never from one ZOC hex straight
    into another (V.E: entering a ZOC does not stop a move). With the menu of every hex
    reached (IX.A's fire counted in each entry): the Marine units are read after
    (:meth:`LayeredReach.menu`, V.M), so the answer is kept for the moves to come that see
    the same Japanese units (a unit moved back to where it stood, or searched again after
    others moved)."""
    masks = c.step_masks(armour, narrow)
    found = step_layers(masks, start_i, enemy=_closed_bits(jp_hexes, class1), ezoc=c.zoc_bits(jp_hexes),
                        must_stop=c.near_bits(unfired), zoc_stops=False, zoc_to_zoc=False)
    fire = StepReach(masks, masks.hexmap.hex_at(start_i), found).pick(_fire_bytes(unfired))
    # the menu entries, found by the hex, the hexes moved, and the Japanese units that would
    # fire there (those that have not fired at the unit, IX.A): numbers below 256 and those
    # of the order, so no number is made for an entry
    table = _destination_table()
    menu = list(map(getitem, map(getitem, map(table.__getitem__, found.order), found.moved), fire))
    return found, fire, menu


def _unfired(match: Match, p: Piece, s: c.Situation,
             fired: Iterable[str] | None = None) -> tuple[str, ...]:
    """The hexes of the Japanese units that have not yet fired at the unit this phase
    (IX.A: those that fire where its move ends, V.D)."""
    if fired is None:
        fired = FireRecord(match.state.vars[c.V_FIRED]).fired_at(p.id)
    silent = set(fired)
    return tuple(h for h, jid in s.jp.items() if jid not in silent)


def _layered(match: Match, p: Piece, s: c.Situation, fired: tuple[str, ...],
             areas: tuple[str, ...], class1: tuple[str, ...]) -> Reach | None:
    """:func:`_destinations` for a unit that may move any number of hexes (not an HQ,
    ``p.kind != "hq"``): the core search's answer (every step costs one hex), found a layer
    at a time on bit masks (:func:`_layers`, :class:`LayeredReach`); it may end in every
    hex it reaches (never a Japanese hex, V.B; stacking binds only at the end of the phase,
    V.M)."""
    armour, narrow = p.kind == "armour", (areas, match.state.turn > 7)
    layers = _layers(c.hex_index()[p.location], armour, narrow, tuple(s.jp),
                     _unfired(match, p, s, fired), class1)
    if not layers[0].order:
        return None
    return LayeredReach(c.step_masks(armour, narrow), c.components().map.hex(p.location), layers)


class _ByFire(dict[int, Option]):
    """The menu entries of :class:`LayeredReach` menus for one hex and one count of hexes
    moved, by the Japanese units that would fire there: each :func:`destination_option`
    made when first asked."""

    __slots__ = ("hex_id", "hexes")

    def __init__(self, hex_id: str, hexes: int) -> None:
        super().__init__()
        self.hex_id, self.hexes = hex_id, hexes

    def __missing__(self, fire: int) -> Option:
        found = self[fire] = destination_option(self.hex_id, self.hexes, fire)
        return found


class _ByMoved(dict[int, _ByFire]):
    """The menu entries for one hex, by the hexes moved (:class:`_ByFire`), made when first
    asked."""

    __slots__ = ("hex_id",)

    def __init__(self, hex_id: str) -> None:
        super().__init__()
        self.hex_id = hex_id

    def __missing__(self, hexes: int) -> _ByFire:
        found = self[hexes] = _ByFire(self.hex_id, hexes)
        return found


@cache
def _destination_table() -> tuple[_ByMoved, ...]:
    """The menu entries of :class:`LayeredReach` menus by map index, then hexes moved, then
    Japanese units that would fire (:func:`_layers` reads a menu's entries from it)."""
    return tuple(_ByMoved(h) for h in c.components().map.ids())


@lru_cache(maxsize=64)
def _fire_bytes(unfired: tuple[str, ...]) -> bytes:
    """:func:`fire_counts` as one byte a bit place of the map's bit masks (core.supply's
    :class:`~tabletop.core.board.supply.StepMasks`): how many of the Japanese units in these hexes
    are within two hexes of each hex (IX.A; 19 at most)."""
    masks = c.step_masks(False, ((), False))
    pos, idx = masks.positions, c.hex_index()
    row = bytearray(len(masks.hex_at))
    for h in unfired:
        for x in c.components().map.ids_within(h, 2):
            row[pos[idx[x]]] += 1
    return bytes(row)


def fire_counts(match: Match, p: Piece, s: c.Situation) -> dict[str, int]:
    """How many Japanese units would fire at the unit in each hex (IX.A): those within two
    hexes that have not yet fired at it this phase (read-only; a hex missing counts 0)."""
    fired = FireRecord(match.state.vars[c.V_FIRED]).fired_at(p.id)
    silent = [h for h, jid in s.jp.items() if jid in fired]
    if not silent:
        return s.near
    out = dict(s.near)
    for h in silent:
        for x in c.components().map.ids_within(h, 2):
            out[x] -= 1
    return out


@lru_cache(maxsize=1 << 16)
def destination_option(hex_id: str, hexes: int, fire: int, crowded: str = "") -> Option:
    """V.A, V.D, V.M: the menu entry for a destination ``hexes`` hexes away where ``fire``
    Japanese units would fire, and where a Marine unit of the kind ``crowded`` (if any)
    already stands; options are never changed, so one is made for each (hex, hexes, fire,
    crowded) and handed to every menu that lists it."""
    info = f"{hexes} hex(es)" + (f"; {fire} Japanese unit(s) will fire" if fire else "")
    if not crowded:
        return Option(hex_id, f"to {hex_id}", info, {"hexes": hexes, "fire": fire})
    return Option(hex_id, f"to {hex_id}",
                  f"{info}; already holds {'an' if crowded[0] in 'aeiou' else 'a'} {crowded} "
                  f"unit: one must leave by the end of the phase or is removed (V.M)",
                  {"hexes": hexes, "fire": fire, "crowded": 1})


def movable(match: Match, only: set[str] | None = None) -> list[Piece]:
    """V.K, IV.B.1/3: the units that may still move: Supplied (HQs need not be), not moved."""
    moved = set(match.state.vars[c.V_MOVED])
    s = c.Situation.of(match)
    supplied = c.supply_check(match, s)
    return [p for p in c.marines(match)
            if p.id not in moved and (only is None or p.id in only)
            and (p.kind == "hq" or supplied(p))]


STAGES = ("IV.B.1", "IV.B.2", "IV.B.3", "V.M")
"""The steps of the phase, in order (the ``stage`` of its resume points)."""


def movement_phase(match: Match) -> Procedure[None]:
    """IV.B: 1 move Supplied units; 2 land reinforcements (turn 1: the second wave); 3 move
    the units just landed (V.L); then V.M stacking and HQs in ZOC. Entered again at a
    decision (``match.resumed``), the steps before its own are done."""
    args = c.resumed(match, PHASE)
    stage = 0 if args is None else STAGES.index(args["stage"])
    if stage == 0:
        yield from move_units(match, None, "IV.B.1", args)
    landed: list[str] = []
    if stage <= 1:
        landed = yield from landings(match, args if stage == 1 else None)
    elif stage == 2:
        assert args is not None
        landed = list(args["landed"])
    if stage <= 2 and landed:
        yield from move_units(match, set(landed), "IV.B.3", args if stage == 2 else None)
    yield from end_of_movement(match, ResumePoint(PHASE, {"stage": "V.M", "landed": None}))


@lru_cache(maxsize=1 << 12)
def unit_option(unit_id: str, hex_id: str, kind: str, steps: int) -> Option:
    """IV.B.1: the menu entry of a unit that may move; options are never changed, so one is
    made for each (unit, hex, kind, steps) and handed to every menu that lists it."""
    return Option(unit_id, f"{unit_id} in {hex_id}", f"{kind}, {steps} step(s)")


def move_units(match: Match, only: set[str] | None, section: str,
               resume: dict[str, Any] | None = None) -> Procedure[None]:
    """IV.B.1 / IV.B.3: move units one at a time until the player is done. Each decision is
    asked again from the phase with the step and the units it may move (``resume``: its
    args, when the flow is entered again at one: the units that moved are in the state;
    the unit moving, if any, is named)."""
    where = ResumePoint(PHASE, {"stage": section, "landed": None if only is None else sorted(only)})
    if resume is not None and resume["at"] != "select_unit":
        yield from move_one(match, match.state.pieces[resume["unit"]], section, where, resume)
    while True:
        units = movable(match, only)
        if not units:
            return
        options = [Option(DONE, "Done moving")] + [
            unit_option(p.id, p.location, p.kind, p.steps) for p in units]
        answer = yield from ask_str(c.asked_again(
            choose(c.US, "Move which unit?", section, options, kind="select_unit"), where, at="select_unit"))
        if answer == DONE:
            return
        unit = match.state.pieces[answer]
        match.state.vars[c.V_MOVED].append(unit.id)
        if destinations(match, unit) is None:
            match.emit("no_move", "V", f"{unit.id} has nowhere to go", unit=unit.id)
            continue
        yield from move_one(match, unit, section, where)


def move_one(match: Match, unit: Piece, section: str, where: ResumePoint | None = None,
             resume: dict[str, Any] | None = None) -> Procedure[None]:
    """V.A-D: pick a destination; walk there; opportunity fire where the move ends; go on.
    Each destination is asked again from ``where`` with the unit and whether it has walked
    a leg yet; ``resume``: the args of the decision the flow is entered again at, a
    destination or a choice of the opportunity fire that interrupted a leg (which then
    goes on as the walk's end would)."""
    first = True
    if resume is not None:
        if resume["at"] == "destination":
            first = bool(resume["first"])
        else:  # a leg interrupted by fire: the fire goes on, then the move (V.D)
            yield from arrive(match, unit, c.asked_again_at(where, unit=unit.id), resume)
            if not c.on_island(unit):
                return
            first = False
    while c.on_island(unit):
        s = c.Situation.of(match)
        reach = destinations(match, unit, s)
        if reach is None:
            return
        s_crowded = crowded_hexes(unit, s)
        if isinstance(reach, LayeredReach):  # (V.M's warnings included)
            options = reach.menu(s_crowded, unit.kind)
        else:  # the core's search counts in floats
            get = fire_counts(match, unit, s).get
            options = [destination_option(h, int(k), get(h, 0))
                       for h, k in sorted(reach.costs_by_id().items())]
            if s_crowded:  # V.M: the hexes already holding a unit of its kind say so
                options = [destination_option(str(o.value), int(o.detail["hexes"]), int(o.detail["fire"]),
                                              unit.kind) if o.value in s_crowded else o for o in options]
        if not first:
            options.insert(0, Option(DONE, f"Stop in {unit.location}"))
        elif s_crowded and all(o.detail and o.detail.get("crowded") for o in options):
            # V.M: every hex it may reach holds a unit of its kind: it may also stay
            options.insert(0, Option(DONE, f"Stay in {unit.location}"))
        answer = yield from ask_str(c.asked_again(choose(
            c.US, f"Move {unit.id} from {unit.location} to which hex?", "V.A", options,
            kind="destination", context={"unit": unit.id}), where, at="destination", unit=unit.id,
            first=first))
        if answer == DONE:
            return
        first = False
        m = c.components().map
        path = [m.label(h) for h in reach.path_to(m.hex(answer))]
        before = len(FireRecord(match.state.vars[c.V_FIRED]).fired_at(unit.id))
        yield from walk(match, unit, path, section, c.asked_again_at(where, unit=unit.id))
        if not c.on_island(unit):
            return
        if len(FireRecord(match.state.vars[c.V_FIRED]).fired_at(unit.id)) == before:
            return  # V.D: nothing interrupted this leg, so the move is over


def move_routes(match: Match, decision: Decision) -> Routes | None:
    """V.A-D by destination: a ``destination`` decision's hexes, each with the hexes moved
    to get there and the path the walk takes (:func:`destinations`' own search, the one
    :func:`move_one` walks), for a path drawn before the player confirms. The answer is the
    destination itself, one decision; the walk, the reveal and the opportunity fire where
    the move ends follow as the rules say, and a leg that fire interrupted asks again
    (so nothing is answered on arrival). Each destination's note is its menu entry's (the
    Japanese units that will fire there, V.M's warning). None for another decision."""
    if decision.kind != "destination":
        return None
    unit = match.state.pieces[str(decision.context["unit"])]
    reach = destinations(match, unit)
    if reach is None:
        return None
    m = c.components().map
    found: dict[str, Route] = {}
    notes: dict[str, str] = {}
    for opt in decision.options:
        hid = opt.value
        if not isinstance(hid, str) or hid == DONE or m.hex(hid) not in reach:
            continue
        path = tuple(m.label(h) for h in reach.path_to(m.hex(hid)))
        found[hid] = Route(hid, len(path) - 1, path, (hid,))
        if opt.detail.get("fire") or opt.detail.get("crowded"):
            notes[hid] = opt.info.partition("; ")[2]  # what awaits there (the hexes are the cost)
    return Routes(unit.id, unit.location, "destination", found, stop=None, cost_unit="hexes",
                  notes=notes)


def walk(match: Match, unit: Piece, path: list[str], section: str,
         where: ResumePoint | None = None) -> Procedure[None]:
    """V.A, V.D: move along the path; at its end reveal (III.3), raise the Flag (VIII.E), and
    take the opportunity fire of each Japanese unit within two hexes that has not yet fired
    (its choices asked again from ``where``, :func:`arrive`)."""
    pieces = match.state.pieces
    start = unit.location
    pieces.move(unit.id, path[-1])
    if unit.kind == "hq":
        moved = match.state.vars[c.V_HQ_HEXES]
        moved[unit.id] = int(moved.get(unit.id, 0)) + len(path) - 1
    hexes = len(path) - 1
    match.emit("move", "V.A", f"{unit.id} moves {start} -> {path[-1]} "
               f"({hexes} hex{'' if hexes == 1 else 'es'})", unit=unit.id, path=path, hexes=hexes)
    for hid in path[1:]:
        if hid == "0304" and match.state.vars[c.V_FLAG_TURN] is None:
            raise_flag(match)
    yield from arrive(match, unit, where)


def arrive(match: Match, unit: Piece, where: ResumePoint | None = None,
           resume: dict[str, Any] | None = None) -> Procedure[None]:
    """III.3 then V.D / IX.A: reveal, then each Japanese unit within two hexes that has not
    fired at this unit this phase fires, one after another, before it goes on. Its choices
    are asked again from ``where`` with the unit firing (``jp``; the state records that it
    fired, so those still to fire are the others); ``resume``: the args of the one the flow
    is entered again at (that fire goes on, then the others')."""
    record = FireRecord(match.state.vars[c.V_FIRED])
    if resume is None:
        c.reveal_around(match, unit.location)
    else:
        jid = resume["jp"]
        yield from opportunity_fire(match, match.state.pieces[jid], unit,
                                    c.asked_again_at(where, jp=jid), resume)
        if not c.on_island(unit):
            return
    s = c.Situation.of(match)
    jp = s.jp  # only those within two hexes can fire: the others are not asked
    m = c.components().map
    watchers = {jp[h]: m.hex(h) for h in m.ids_within(unit.location, 2) if h in jp}
    for jid in firers_at(watchers, m.hex(unit.location), 2, exclude=record.fired_at(unit.id)):
        if not c.on_island(unit):
            return
        record.record(jid, unit.id)
        yield from opportunity_fire(match, match.state.pieces[jid], unit, c.asked_again_at(where, jp=jid))


def raise_flag(match: Match) -> None:
    """VIII.E: the first Marine unit in 0304 raises the Flag: -2 VP, +1 to attacks this turn."""
    match.state.vars[c.V_FLAG_TURN] = match.state.turn
    match.state.pieces.move("flag", "0304")
    match.emit("flag", "VIII.E", "the American Flag is raised on Mount Suribachi (0304)", hex="0304")
    c.add_vp(match, -2, "VIII.E", "flag raised", hex="0304")


# -- IV.B.2 landings -------------------------------------------------------------------------

def landing_roll(match: Match, unit: Piece, hex_id: str) -> None:
    """IV.B.2: 2d6 - 1 a Japanese unit within two hexes - 1 on a West beach after turn 1;
    3 or less loses a step, and below 2 as many steps as it falls short of 2."""
    s = c.Situation.of(match)
    near = s.near.get(hex_id, 0)
    west = 1 if c.attr(hex_id, "beach") == "nishi" and match.state.turn > 1 else 0
    roll = c.roll_2d6(match, "landing losses", "IV.B.2")
    mods = [modifier("IV.B.2", "Japanese within two hexes", -near)] if near else []
    if west:
        mods.append(modifier("IV.B.2", "West beach after turn 1", -west))
    result = roll + sum(int(m["value"]) for m in mods)
    lost = 0 if result > 3 else max(1, 2 - result)
    outcome = "no loss" if not lost else f"{lost} step(s) lost"
    match.emit("landing", "IV.B.2",
               f"{unit.id} lands in {hex_id}: {c.modified_roll_text(roll, mods, result)}: {outcome}",
               unit=unit.id, hex=hex_id, roll=roll, modifiers=mods, result=result, lost=lost)
    c.marine_loses(match, unit, lost, "IV.B.2")


def place_on_beach(match: Match, unit: Piece, hex_id: str) -> Procedure[None]:
    """IV.B.2: land a unit: place it, roll its losses, note the landed beach hex (VII.A)."""
    match.state.pieces.move(unit.id, hex_id)
    unit.attrs["landed"] = match.state.turn
    landed = match.state.vars[c.V_LANDED]
    if hex_id not in landed:
        landed.append(hex_id)
        landed.sort()
    landing_roll(match, unit, hex_id)
    if c.on_island(unit):
        c.reveal_around(match, hex_id, "III.3")
    return
    yield  # a generator, though it asks nothing


def beach_options(match: Match, unit: Piece, hexes: list[str]) -> list[Option]:
    """IV.B.2: the beach hexes a unit may land in (no Japanese unit, V.B); one that already
    holds a unit of its kind is offered with a warning, since stacking binds only at the end
    of the phase (V.M) and the units landed may still move (IV.B.3)."""
    s = c.Situation.of(match)
    out = []
    for h in sorted(hexes):
        if h in s.jp:
            continue
        near = s.near.get(h, 0)
        info = f"{near} Japanese unit(s) within two hexes"
        if can_stack(match, unit, h, s):
            out.append(Option(h, f"{h} ({c.attr(h, 'beach')})", info, {"near": near}))
        else:
            out.append(Option(h, f"{h} ({c.attr(h, 'beach')})",
                              f"{info}; already holds a {unit.kind} unit: one must leave by the "
                              f"end of the phase or is removed (V.M)", {"near": near, "crowded": 1}))
    return out


def reinforcements(match: Match) -> list[Piece]:
    """IV.B.2 NOTE: units whose entry turn has come and that have not landed."""
    return [p for p in match.state.pieces if p.side == c.US and p.location == c.AVAILABLE
            and int(p.attrs["entry"]) <= match.state.turn]


def landings(match: Match, resume: dict[str, Any] | None = None) -> Procedure[list[str]]:
    """IV.B.2: on turn 1 every second-wave unit lands next to its hex; then any reinforcements
    the player wishes, one at a time, on the beach hexes of the player's choice. Each
    decision is asked again from the phase with the units landed so far (the second wave's
    still at sea, the reinforcements still available: the state says which are left);
    ``resume``: the args of the one the flow is entered again at."""
    landed: list[str] = [] if resume is None else list(resume["landed"])
    comp = c.components()
    beaches = [h for b in ("minami", "nishi") for h in comp.hexes_where("beach", b)]
    at = None if resume is None else resume["at"]
    if resume is not None and at == "land":  # a reinforcement chosen: where it lands
        unit = match.state.pieces[resume["unit"]]
        where = yield from ask_str(_where_to_land(match, unit, beach_options(match, unit, beaches), landed))
        yield from place_on_beach(match, unit, where)
        landed.append(unit.id)
    if match.state.turn == 1 and at in (None, "second_wave"):
        for unit in sorted((p for p in match.state.pieces if p.side == c.US and comp.map.is_hex_id(p.location)
                            and not c.is_land(p.location)), key=lambda p: p.location):
            near = [h for h in comp.map.passable_neighbor_ids(unit.location) if c.attr(h, "beach")]
            options = beach_options(match, unit, near) or [Option(h, h) for h in sorted(near)]
            answer = yield from ask_str(c.asked_again(choose(
                c.US, f"Second wave: land {unit.id} in which adjacent beach hex?", "IV.B.2", options,
                kind="land", context={"unit": unit.id}), ResumePoint(PHASE, _landing(landed)),
                at="second_wave"))
            yield from place_on_beach(match, unit, answer)
            landed.append(unit.id)
    while True:
        waiting = reinforcements(match)
        if not waiting:
            return landed
        options = [Option(DONE, "No more landings this turn")] + [
            Option(p.id, f"land {p.id}", f"{p.kind}, entry turn {p.attrs['entry']}") for p in waiting]
        answer = yield from ask_str(c.asked_again(choose(
            c.US, "Land which reinforcement?", "IV.B.2", options, kind="select_landing"),
            ResumePoint(PHASE, _landing(landed)), at="select_landing"))
        if answer == DONE:
            return landed
        unit = match.state.pieces[answer]
        spots = beach_options(match, unit, beaches)
        if not spots:
            continue
        where = yield from ask_str(_where_to_land(match, unit, spots, landed))
        yield from place_on_beach(match, unit, where)
        landed.append(unit.id)


def _landing(landed: list[str]) -> dict[str, Any]:
    """The args of a decision of IV.B.2: the step and the units landed so far (a copy)."""
    return {"stage": "IV.B.2", "landed": list(landed)}


def _where_to_land(match: Match, unit: Piece, spots: list[Option], landed: list[str]) -> Decision:
    """IV.B.2: the beach hex a reinforcement lands on, asked again from the phase with the
    unit and the units landed so far."""
    return c.asked_again(choose(c.US, f"Land {unit.id} on which beach hex?", "IV.B.2", spots,
                                kind="land", context={"unit": unit.id}),
                         ResumePoint(PHASE, _landing(landed)), at="land", unit=unit.id)


def end_of_movement(match: Match, where: ResumePoint | None = None) -> Procedure[None]:
    """V.M: excess units in a hex are removed, the player choosing which (they count as
    eliminated units: a VP for each step they had and one for the unit); then an HQ in a
    Japanese ZOC without a Marine infantry unit is DISRUPTED. Each choice is asked again
    from ``where``: the hexes before it hold no excess any more, so going through them
    again from the state asks it first."""
    s = c.Situation.of(match)
    for hid, units in sorted(s.marine_hexes.items()):
        for kind, cap in STACK.items():
            here = [p for p in units if p.kind == kind]
            while len(here) > cap:
                answer = yield from ask_str(c.asked_again(choose(
                    c.US, f"{len(here)} {kind} units in {hid}, one allowed: remove which? (V.M)", "V.M",
                    [Option(p.id, p.id, f"{p.steps} step(s)") for p in here],
                    kind="overstack", context={"hex": hid}), where, at="overstack"))
                p = match.state.pieces[answer]
                here.remove(p)
                match.emit("overstack", "V.M", f"{p.id} is removed: too many units in {hid}", unit=p.id,
                           hex=hid)
                add = p.steps if p.kind != "hq" else 0
                match.state.pieces.move(p.id, c.US_ELIMINATED)
                p.steps = 0
                c.add_vp(match, add + 1, "V.M", f"{p.id} removed by stacking", unit=p.id, hex=hid,
                         steps=add)
    s = c.Situation.of(match)
    for hid, units in sorted(s.marine_hexes.items()):
        if hid in s.zoc and not s.has_infantry(hid):
            for p in units:
                if p.kind == "hq" and c.on_island(p):
                    c.disrupt(match, p, "V.M")
