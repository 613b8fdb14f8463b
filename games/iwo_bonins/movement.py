"""6.0 Movement and 7.0 Zones of control: the US movement phases (5.1.1, 5.1.3).

A US movement phase is a menu the player answers until "end the phase": form TF Collins
(12.4, first action of a phase only), spend replacement steps (11.5-11.7, first phase),
bring a reserve regiment forward (11.4, after Turn 1), land a unit (11.2), move a unit
(6.0, 7.0; in the first phase the destinations include redeployment, 6.5). Each unit
moves once a phase, one at a time, to a hex picked from the legal destinations.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache, lru_cache

from tabletop.core.board.hexgrid import Hex, distance
from tabletop.core.board.movement import MoveCosts, reachable
from tabletop.core.engine.decisions import DONE, Option, ask_str, choose
from tabletop.core.engine.match import Flow, Match, Procedure
from tabletop.core.engine.pieces import Piece

from . import common as c
from . import landings, support

END = DONE  # 5.1: the movement phase ends
SECOND_PHASE_MP = 3  # 5.1.3a
REDEPLOY_DISTANCE = 4  # 6.5


@cache
def move_costs(*, tank: bool) -> MoveCosts:
    """6.4: 1 MP clear and beach, 2 broken, 3 rough, ravine, mountain and mine (hills
    ignored); US tanks may not enter ravine, mountain or mine (6.4, 12.3)."""
    comp = c.components()
    return MoveCosts.from_terrain(comp.map, {
        name: (eff.mp if (eff.tanks_enter or not tank) else None)
        for name, eff in comp.terrain.terrain.items() if eff.mp is not None})


def allowance(match: Match, piece: Piece, *, first: bool) -> tuple[float, int | None]:
    """5.1.1c, 5.1.3a, 5.1.7c: the MP a unit may spend this phase and a hex limit: its
    printed MA (halved in a Storm) in the first phase; 3 MP (one hex in a Storm) in the
    second."""
    storm = match.state.vars[c.V_WEATHER] == "Storm"
    if first:
        ma = c.printed(piece, "movement")
        return (ma // 2 if storm else ma), None
    return (math.inf, 1) if storm else (SECOND_PHASE_MP, None)


def destinations(match: Match, piece: Piece, *, first: bool) -> dict[str, str]:
    """6.0, 7.0 (and 6.5 in the first phase): every hex the unit may end its move in, with
    how it gets there ("move, 3 MP" or "redeploy")."""
    comp = c.components()
    m = comp.map
    start = m.hex(piece.location)
    enemy = c.hexes_of(match, c.JAPAN)
    ezoc = c.zoc_of(match, c.JAPAN)
    mp, max_hexes = allowance(match, piece, first=first)
    may_end = _may_end_by_id(match, piece)
    can_end = _by_hex(may_end)
    costs = move_costs(tank=c.is_tank(piece))
    reach = reachable(m, start, mp, costs, enemy=enemy, ezoc=ezoc, zoc_stops=True,
                      zoc_to_zoc=False, can_end=can_end, max_hexes=max_hexes)
    found = {hid: _how_moved(cost) for hid, cost in reach.costs_by_id().items()}
    japanese = c.board(match).hex_ids(c.JAPAN)
    if first and start not in _near(japanese):
        # 6.5: redeploy with unlimited MA, at least four hexes from every Japanese unit
        # all the way (which also keeps the unit clear of every EZOC).
        here = piece.location
        for hid in _region_ids(_redeploy_region(c.is_tank(piece), japanese, m.index(start))):
            if hid not in found and hid != here and may_end(hid):
                found[hid] = "redeploy (6.5)"
    return found


@lru_cache(maxsize=256)
def _region_ids(region: frozenset[int]) -> tuple[str, ...]:
    """6.5: the printed ids of a redeployment region's hexes, in the region's own order."""
    ids = c.components().map.ids()
    return tuple(ids[i] for i in region)


def _may_end(match: Match, piece: Piece) -> Callable[[Hex], bool]:
    """6.3, 11.3, 12.1: whether the unit may end its move in a hex (:func:`_may_end_by_id`)."""
    return _by_hex(_may_end_by_id(match, piece))


def _may_end_by_id(match: Match, piece: Piece) -> Callable[[str], bool]:
    """6.3, 11.3, 12.1: whether the unit may end its move in a hex, by its printed id
    (stacking, by :func:`common.may_stack`). Away from its own hex the answer depends only
    on the units there and on whether the moving unit is a support unit, so it is kept
    while that hex's stack is unchanged (:class:`common.PlaceMemo`) and shared by every
    unit of its sort."""
    start = piece.location
    group = [piece]
    support = c.is_support(piece)
    memo = c.place_memo(match, f"6.3 may a {'support' if support else 'Marine'} unit end here, "
                               f"beachhead {match.state.vars.get(c.V_BEACHHEAD)}, other beaches "
                               f"{match.options.get('other_beaches')}")
    count_at = match.state.pieces.count_at

    def by_id(hid: str) -> bool:
        if not count_at(hid):
            return True  # 6.3: a lone unit may always end in a hex holding nothing
        if hid == start:  # in its own hex the unit is not one of the units there
            return c.may_stack(match, group, hid)
        found: bool | None = memo.get(hid)
        if found is None:
            found = c.may_stack(match, group, hid)
            memo.put(hid, found)
        return found

    return by_id


def _by_hex(by_id: Callable[[str], bool]) -> Callable[[Hex], bool]:
    """A question about hexes by printed id (:func:`_may_end_by_id`) asked of hexes."""
    label = c.components().map.label

    def can_end(h: Hex) -> bool:
        return by_id(label(h))
    return can_end


def _redeploy_region(tank: bool, japanese: frozenset[str], start: int) -> frozenset[int]:
    """6.5: the hexes (by index) a unit may reach from ``start`` with unlimited MA, never
    entering a hex within three hexes of a Japanese unit: what the movement search finds
    with those hexes as enemy hexes and no allowance.

    The steps a unit may take join hexes both ways (a hexside's cost is written on both of
    its hexes, and a step into a hex exists when the hex may be entered), so the hexes a
    unit reaches from a hex it may enter reach one another: a region, worked out once for
    all the hexes in it while the Japanese stay where they are (:func:`_regions`). From a
    hex it may not enter (a tank retreated into a ravine) the region is searched afresh."""
    regions = _regions(tank, japanese)
    found = regions.get(start)
    if found is not None:
        return found
    m = c.components().map
    near = {m.index(h) for h in _near(japanese)}
    steps = move_costs(tank=tank).steps()
    reached = {start}
    frontier = [start]
    while frontier:
        i = frontier.pop()
        for _, j, _, _ in steps[i]:
            if j not in reached and j not in near:
                reached.add(j)
                frontier.append(j)
    region = frozenset(reached)
    enterable = any(j == start for _, n in m.adjacency[start] for _, j, _, _ in steps[n])
    if enterable:
        regions.update(dict.fromkeys(region, region))
    return region


@lru_cache(maxsize=64)
def _regions(tank: bool, japanese: frozenset[str]) -> dict[int, frozenset[int]]:
    """6.5: hex index -> the region found from it (:func:`_redeploy_region`), filled as
    regions are asked for, kept while the Japanese hold the same hexes."""
    return {}


def _far_from_japanese(h: Hex, enemy: frozenset[Hex]) -> bool:
    """6.5: at least four hexes from every Japanese unit, by distance (what ``h`` outside
    :func:`_near` means; the tests' reference)."""
    return all(distance(h, e) >= REDEPLOY_DISTANCE for e in enemy)


@lru_cache(maxsize=64)
def _near(japanese: frozenset[str]) -> frozenset[Hex]:
    """6.5: the hexes within three hexes of a Japanese unit (by the hexes they hold): a
    unit outside them is at least four hexes from every Japanese unit."""
    m = c.components().map
    return frozenset(h for e in japanese for h in _within(m.hex(e), REDEPLOY_DISTANCE - 1))


@cache
def _within(center: Hex, radius: int) -> frozenset[Hex]:
    comp = c.components()
    return frozenset(h for h in comp.map.hexes() if distance(h, center) <= radius)


def movable(match: Match) -> list[Piece]:
    """6.1, 6.2: the US units on the map that may still move this phase (not yet moved,
    not landed this phase 11.2, not rebuilt on the map this phase 11.7)."""
    done = set(match.state.vars[c.V_MOVED]) | set(match.state.vars[c.V_NO_MOVE])
    return [p for p in c.units(match, c.US) if p.id not in done]


def us_movement_phase(match: Match, *, first: bool) -> Flow:
    """5.1.1 (first) / 5.1.3 (second): replacements, reserves, landings, movement, redeployment.

    Every decision may be asked again (a fork): the menu from the state and whether an
    action was taken this phase (12.4), a landing's hex or a move's destination from the
    unit's id."""
    v = match.state.vars
    entry = "us_move_1" if first else "us_move_2"
    back = match.resumed(entry)
    if first and back is None:
        landings.start_replacements(match)
    acted = bool(c.back_at(back, "acted"))
    here = c.Resume(entry)
    while True:
        if back is not None and "unit" in back:  # entered again at this unit's landing or move
            answer = f"{back['do']}:{back['unit']}"
        else:
            options: list[Option] = [Option(END, "End the movement phase")]
            if not acted:
                options += support.tf_collins_options(match)
            if first:
                options += landings.replacement_options(match)
            options += landings.reserve_options(match)
            options += landings.landing_options(match)
            options += [_move_option(p.id, p.location) for p in movable(match)]
            phase = "first" if first else "second"
            answer = (yield from ask_str(c.ask(here, choose(
                c.US, f"US {phase} movement phase: what next?", "5.1.1" if first else "5.1.3",
                options, kind="movement_menu", context={"replacements": v[c.V_REPLACEMENTS]}),
                acted=acted)))
        back = None
        if answer == END:
            break
        acted = True
        verb, _, arg = answer.partition(":")
        if verb == "tf_collins":
            support.form_tf_collins(match, arg)
        elif verb == "replace":
            landings.replace_step(match, arg)
        elif verb == "reserve":
            landings.commit_reserve(match, arg)
        elif verb == "land":
            yield from landings.land(match, match.state.pieces[arg],
                                     resume=here.then(acted=True, do=verb, unit=arg))
        elif verb == "move":
            yield from move_unit(match, match.state.pieces[arg], first=first,
                                 resume=here.then(acted=True, do=verb, unit=arg))
    if first and v[c.V_REPLACEMENTS]:
        match.emit("replacements_lost", "11.5", f"{v[c.V_REPLACEMENTS]} unused replacement "
                   "step(s) are lost", steps=v[c.V_REPLACEMENTS])
        v[c.V_REPLACEMENTS] = 0
    return None


# The menu entries and destinations recur all game long (a unit in a hex, a hex at a cost):
# options are immutable, so each is made once and shared.

@lru_cache(maxsize=4096)
def _move_option(unit: str, hex_id: str) -> Option:
    return Option(f"move:{unit}", f"Move {unit} from {hex_id}")


@lru_cache(maxsize=64)
def _how_moved(cost: float) -> str:
    return f"move, {cost:g} MP"


def _mp_of(how: str) -> float | None:
    """The MP a destination's label states (:func:`_how_moved`: "move, 3 MP" -> 3), None for
    a redeployment (6.5): a move event's ``mp``."""
    if not how.startswith("move, "):
        return None
    mp = float(how.removeprefix("move, ").removesuffix(" MP"))
    return int(mp) if mp.is_integer() else mp


@lru_cache(maxsize=8192)
def _destination(hex_id: str, how: str) -> Option:
    return Option(hex_id, f"{hex_id} ({how})")


def move_unit(match: Match, piece: Piece, *, first: bool,
              resume: c.Resume | None = None) -> Procedure[None]:
    """6.1: move one unit along a path to a hex it may end in (or leave it where it is);
    the destination is asked again from ``resume`` (a fork)."""
    dests = destinations(match, piece, first=first)
    options = [Option("stay", f"Leave {piece.id} in {piece.location}")]
    options += [_destination(h, how) for h, how in sorted(dests.items())]
    answer = (yield from ask_str(c.ask(resume, choose(
        c.US, f"Move {piece.id} from {piece.location} to?", "6.1", options, kind="move_hex",
        context={"unit": piece.id, "from": piece.location}))))
    match.state.vars[c.V_MOVED].append(piece.id)
    if answer == "stay":
        return None
    src = piece.location
    match.state.pieces.move(piece.id, answer)
    section = "6.5" if dests[answer].startswith("redeploy") else "6.1"
    match.emit("move", section, f"{piece.id} moves {src} to {answer} ({dests[answer]})",
               unit=piece.id, frm=src, to=answer, mp=_mp_of(dests[answer]))
    return None
