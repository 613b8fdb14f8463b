"""8.0 Movement, with the US map entry of 3.4-3.5 and the pontoon bridges and amtracs of
8.8-8.10. Every hex entered may draw enemy defensive fire (9.1, defensive_fire.py).

A movement phase is a loop: pick a unit (8.1: one at a time, never a stack, 8.4), then step
it hex by hex until it stops or runs out of movement points (8.2); each step's options are
the first steps of the core's movement search, the neighbours it may enter now — in-hex
costs 8.5 and rubble 8.12, hexside costs 8.6, 8.7, 8.11, never all-sea (8.13) or an enemy
hex (8.14), never into an illegal stack (6.4).
Japanese static units never move (8.3). On turn 1 the US movement phase is the map entry:
division by division, XIV Corps last at half movement (3.4, 3.5, 5.4).

Every decision may be asked again from the state as it stands (a fork of the match): the
phase handler reads the resume point's args (``match.resumed``) and goes back down to it —
the organisation entering (``org``), the engineer choosing a pontoon bridge (``pontoon``),
where the 672nd began the phase once units move (``amtrac``), the coastal move under way
(``coastal``, ``rider``) and the unit moving (``move``: its id, MP left, crossing, and the
hex it just entered when defensive fire is offered there).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tabletop.core.board.hexgrid import Hex
from tabletop.core.board.movement import first_steps, reachable
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision, Option, ResumePoint, ask_str, choose
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.routes import Route, Routes

from . import common as c
from .components import DIVISIONS, JAPAN, ORG_NAMES, US, components
from .defensive_fire import defensive_fire


@dataclass
class Crossing:
    """What may carry a unit across a river this move: the 672nd (8.8) from its start hex,
    or a bridging engineer moving itself over a major river (8.9, last paragraph)."""

    start: str
    amtrac: bool = False
    engineer_self: bool = False


RIVERS = frozenset({"major_river", "minor_river"})


def step_cost(match: Match, piece: Piece, a: str, b: str, cross: Crossing) -> int | None:
    """8.5-8.14: the MP to step from a into adjacent b, or None when the step is forbidden:
    in-hex cost (8.5), hexside costs (8.6: rivers 8.7, wall, contour 8.11), rubble (8.12),
    never all-sea (8.13) or an enemy hex (8.14)."""
    if c.terrain(b) == "sea":
        return None  # 8.13
    if not c.can_stack(match, piece, b):
        return None  # 8.14, 6.4
    cost = c.ENTER_COST[c.terrain(b)]  # 8.5
    if b in match.state.vars[c.V_RUBBLE]:
        cost += 1  # 8.12
    feats = components().hexmap.id_hexside_features(a, b)
    if feats & RIVERS:
        is_amtrac = c.has(piece, "amtrac")
        helped = cross.amtrac and a == cross.start
        bridged = c.bridged(match, a, b, piece.side)
        if "major_river" in feats:
            if not (is_amtrac or bridged or helped or (cross.engineer_self and a == cross.start)):
                return None  # 8.7
        elif not (is_amtrac or bridged or helped):
            cost += 1  # 8.7 unbridged minor river
    if "wall" in feats:
        cost += 1  # 8.6
    if "contour" in feats:
        cost += 1  # 8.11
    return cost


def allowance(match: Match, piece: Piece) -> int:
    """2.9, 3.5, 5.4: 16 MP; XIV Corps units 8 on game turn 1."""
    if piece.side == US and c.org(piece) == "xiv" and match.state.turn == 1:
        return c.XIV_TURN1_MP
    return c.MP


def _emit_move(match: Match, piece: Piece, a: str, b: str, left: int) -> None:
    """8.1: a step logged with its numbers as data (a face-down unit's, 6.5, in full to
    Japan only; the US is told only the hexes)."""
    text = "{name} moves {frm} -> {to} ({mp_left} MP left)"
    if piece.hidden:
        c.say(match, "move", "8.1", text, visible_to=(JAPAN,), unit=piece.id, name=piece.name,
              frm=a, to=b, mp_left=left)
        c.say(match, "move", "8.1", "a face-down Japanese unit moves {frm} -> {to}", frm=a, to=b)
    else:
        c.say(match, "move", "8.1", text, unit=piece.id, name=piece.name, frm=a, to=b, mp_left=left)


@cache
def amtrac_unit() -> str:
    """8.8, 8.10: the id of the 672nd Amphibious Tractor Battalion."""
    return next(uid for uid, ctr in components().counters.items() if ctr.has("amtrac"))


def _leave(match: Match, piece: Piece) -> None:
    """8.9: an engineer that moves off takes its pontoon bridge with it."""
    pontoons = match.state.vars[c.V_PONTOONS]
    if piece.id in pontoons:
        gone = pontoons.pop(piece.id)
        c.say(match, "pontoon", "8.9", "{name} moves off: its pontoon bridge {bridge} is gone",
              unit=piece.id, name=piece.name, bridge=gone)


def move_unit(match: Match, piece: Piece, mp: int, cross: Crossing, where: c.Where = c.NOWHERE,
              *, entered: bool = False) -> Procedure[None]:
    """8.1-8.14: step one unit hex by hex, each step paid in full from what is left (8.2);
    9.1 defensive fire after every hex entered. Each step's menu is the first step of the
    core's movement search (:func:`~tabletop.core.board.movement.first_steps`) with
    :func:`step_cost` for the price of a step. ``entered``: the unit has just entered its
    hex (3.4, or a fork resumed at the defensive fire there): that fire is offered first.
    ``where``: the place in the phase its decisions are asked again from (the move's own
    facts added, :func:`resume_move`)."""
    left = mp
    private = piece.side == JAPAN
    hm = components().hexmap
    label = hm.label

    def step(a: Hex, b: Hex) -> int | None:
        return step_cost(match, piece, label(a), label(b), cross)

    def moving(**more: JSON) -> ResumePoint | None:
        return where.point(move={"unit": piece.id, "mp": left, "start": cross.start,
                                 "amtrac": cross.amtrac, "engineer": cross.engineer_self, **more})
    if entered and (yield from defensive_fire(match, piece, piece.location,
                                              resume=moving(entered=piece.location))):
        return
    while True:
        here = piece.location
        opts: list[Option] = [Option(DONE, "stop here")]
        for h, mp_cost in first_steps(hm, hm.hex(here), left, step):  # 8.2: paid in full
            n = label(h)
            opts.append(Option(n, f"{n} ({c.terrain(n)}, {mp_cost} MP)", detail={"mp": mp_cost}))
        if len(opts) == 1:
            return
        to = yield from ask_str(choose(piece.side, f"8.1: move {piece.name} from {here} ({left} MP left)",
                                       "8.1", opts, kind="move_step",
                                       context={"unit": piece.id, "mp": left, "from": here},
                                       private=private, resume=moving()))
        if to == DONE:
            return
        dest = to
        cost = step_cost(match, piece, here, dest, cross)
        assert cost is not None
        crossed_river = bool(components().hexmap.id_hexside_features(here, dest) & RIVERS)
        if crossed_river and cross.amtrac and here == cross.start and not c.bridged(
                match, here, dest, piece.side) and not c.has(piece, "amtrac"):
            match.state.vars[c.V_AMTRAC] = "crossing"
            c.say(match, "amtrac", "8.8", "the 672nd carries {name} across the river {frm} -> {to}",
                  amtrac=amtrac_unit(), unit=piece.id, name=piece.name, frm=here, to=dest)
            cross.amtrac = False
        if crossed_river and piece.side == US:
            _mark_pontoon_use(match, here, dest)
        if here == cross.start:
            _leave(match, piece)
        left -= cost
        match.state.pieces.move(piece.id, dest)
        _emit_move(match, piece, here, dest, left)
        if piece.side == JAPAN:
            from .victory import check_now

            check_now(match)  # 4.3: moving out of the north-west may end the game
        if (yield from defensive_fire(match, piece, dest, resume=moving(entered=dest))):
            return


def move_routes(match: Match, decision: Decision) -> Routes | None:
    """8.1-8.14 by destination: every hex the unit of a ``move_step`` decision can reach
    from where it stands with the MP it has left, with the cheapest cost and path there —
    the core's movement search (:func:`~tabletop.core.board.movement.reachable`) with the
    same :func:`step_cost` and the same rule 8.2 (each step paid in full from what is left)
    as the step menu of :func:`move_unit`, so that each step of a path is on the menu asked
    when the unit gets there. The answers are the hexes of the path, one a step; "stop
    here" ends the move on arrival. Worked out from the decision's own facts (its context
    and resume point), never from anything its player's view lacks: the hexes a unit may
    not enter are those the step menu already refuses (sea, stacking, enemy units, which
    stand face-down but in plain sight). None for another decision, or a step asked outside
    a phase (no resume point)."""
    if decision.kind != "move_step" or decision.resume is None:
        return None
    args = decision.resume.args
    move = args.get("move") if isinstance(args, dict) else None
    if not isinstance(move, dict) or "entered" in move:
        return None
    unit = str(decision.context["unit"])
    piece = match.state.pieces[unit]
    here = piece.location
    if here != decision.context.get("from") or str(move.get("unit")) != unit:
        return None
    left = int(move["mp"])
    cross = Crossing(str(move["start"]), bool(move["amtrac"]), bool(move["engineer"]))
    hm = components().hexmap
    label = hm.label

    def step(a: Hex, b: Hex) -> int | None:
        return step_cost(match, piece, label(a), label(b), cross)

    reach = reachable(hm, hm.hex(here), left, step)  # 8.2: never more than is left
    found: dict[str, Route] = {}
    for h, cost in reach.costs.items():
        path = tuple(label(x) for x in reach.path_to(h))
        found[path[-1]] = Route(path[-1], cost, path, path[1:])
    return Routes(unit, here, "move_step", dict(sorted(found.items())), stop=DONE, cost_unit="MP")


def resume_move(match: Match, where: c.Where, move: JSON) -> Procedure[None]:
    """The move of one unit taken up again at a step or at the defensive fire after one
    (``move``: the args :func:`move_unit` gave its decisions)."""
    assert isinstance(move, dict)
    cross = Crossing(str(move["start"]), bool(move["amtrac"]), bool(move["engineer"]))
    yield from move_unit(match, match.state.pieces[str(move["unit"])], int(move["mp"]),
                         cross, where, entered="entered" in move)


def _mark_pontoon_use(match: Match, a: str, b: str) -> None:
    key = c.side_key(a, b)
    for eng, side in match.state.vars[c.V_PONTOONS].items():
        if side == key:
            match.state.pieces[eng].attrs["facilitated"] = True


def river_sides(hex_id: str) -> list[str]:
    """The neighbours of a hex across a river hexside."""
    hm = components().hexmap
    return [n for n in hm.neighbor_ids(hex_id) if hm.id_hexside_features(hex_id, n) & RIVERS]


# -- 8.9 pontoon bridges -------------------------------------------------------------------

def pontoon_step(match: Match, where: c.Where = c.NOWHERE, back: JSON = None) -> Procedure[None]:
    """8.9: at the start of the US movement phase each bridging engineer beside a river may
    establish (or keep, or re-aim) one pontoon bridge across one river hexside of its hex.
    ``back``: entered again at the engineer ``back["pontoon"]``'s choice, those before it
    done (nothing moves in this step, so the engineers are the same)."""
    pontoons = match.state.vars[c.V_PONTOONS]
    engineers = sorted(p.id for p in c.units_on_map(match, US) if c.has(p, "bridging"))
    asking = back.get("pontoon") if isinstance(back, dict) else None
    if asking is not None:
        engineers = engineers[engineers.index(str(asking)):]
    for eng in engineers:
        piece = match.state.pieces[eng]
        if eng != asking:
            piece.attrs["facilitated"] = False
        across = river_sides(piece.location)
        if not across:
            pontoons.pop(eng, None)
            continue
        opts = [Option("none", "no pontoon bridge")]
        opts += [Option(n, f"bridge {piece.location}-{n}") for n in across]
        pick = yield from ask_str(choose(US, f"8.9: {piece.name} in {piece.location}: pontoon bridge?", "8.9",
                                         opts, kind="pontoon", context={"unit": eng},
                                         resume=where.point(pontoon=eng)))
        if pick == "none":
            pontoons.pop(eng, None)
        else:
            key = c.side_key(piece.location, pick)
            pontoons[eng] = key
            c.say(match, "pontoon", "8.9", "{name} establishes a pontoon bridge on {bridge}",
                  unit=eng, name=piece.name, bridge=key)


# -- the movement phases -----------------------------------------------------------------------

def movable(match: Match, side: str) -> list[Piece]:
    """8.1, 8.3: the units of a side that may still move this phase (not static, not moved,
    not an engineer whose pontoon bridge was used this phase, not air)."""
    return [p for p in c.units_on_map(match, side)
            if not c.is_static(p) and not p.attrs.get("moved") and not c.has(p, "air")
            and not p.attrs.get("facilitated")]


def movement_phase(match: Match, side: str) -> Procedure[None]:
    """8.1, 8.4: move units one at a time, never as a stack, any number of them, each once.

    Entered again at a decision (``match.resumed``), it goes back to it: an entry (3.4:
    ``org``), a pontoon bridge (8.9: ``pontoon``), or, once units move, the choice of the
    next one with where the 672nd began the moves (8.8: ``amtrac``), and within a unit's
    move or a coastal move (:func:`resume_move`, :func:`coastal_move`)."""
    phase = c.MOVE_PHASE[side]
    back = match.resumed(phase)
    where = c.Where(phase)
    if side == US and match.state.turn == 1:
        yield from us_entry(match, where, back)
        return
    if not isinstance(back, dict) or "amtrac" not in back:
        if side == US:
            orgs = list(c.ENTRY_BOX)
            if isinstance(back, dict) and "pontoon" in back:  # the late entries are done
                orgs = []
            elif isinstance(back, dict) and "org" in back:  # within a late entry: back to it
                org = str(back["org"])
                orgs = orgs[orgs.index(org) + 1:]
                yield from _enter_org(match, org, where, back)
            for org in orgs:
                if match.state.pieces.count_at(c.ENTRY_BOX[org]):
                    yield from _enter_org(match, org, where)  # units 3.4 could not enter on turn 1
            yield from pontoon_step(match, where, back)
        back = None
    amtrac_start: dict[str, str] = (
        {p.id: p.location for p in c.units_on_map(match, US) if c.has(p, "amtrac")} if back is None
        else {str(k): str(v) for k, v in back["amtrac"].items()})
    where = where.within(amtrac=dict(amtrac_start))
    if back is not None:  # within a unit's move or a coastal move: back to it
        if "move" in back:
            yield from resume_move(match, where, back["move"])
        elif "coastal" in back:
            yield from coastal_move(match, str(back["coastal"]), where, back)
    while True:
        units = movable(match, side)
        opts = [Option(DONE, "end the movement phase")]
        opts += [Option(p.id, f"{p.name} in {p.location}") for p in units]
        if side == US:
            opts += _coastal_options(match, amtrac_start)
        pick = yield choose(side, "8.1: move a unit, or end the phase", "8.1", opts,
                            kind="select_mover", private=side == JAPAN, resume=where.point())
        if pick == DONE:
            return
        if isinstance(pick, dict):
            yield from coastal_move(match, str(pick["coastal"]), where)
            continue
        piece = match.state.pieces[str(pick)]
        piece.attrs["moved"] = True
        cross = Crossing(start=piece.location)
        if side == US:
            cross.amtrac = _amtrac_can_help(match, piece, amtrac_start)
            cross.engineer_self = c.has(piece, "bridging")
        yield from move_unit(match, piece, allowance(match, piece), cross, where)


def _amtrac_can_help(match: Match, piece: Piece, amtrac_start: dict[str, str]) -> bool:
    """8.8: the 672nd began the phase beside a river, stacked with this unit, which has not
    left that hex, and has not yet carried a unit (or made a coastal move) this phase.

    The unit is one picked to move, so it has not moved this phase (:func:`movable`): it
    stands where it began the phase."""
    if match.state.vars[c.V_AMTRAC] or c.has(piece, "amtrac"):
        return False
    for amtrac_id, where in amtrac_start.items():
        amtrac = match.state.pieces[amtrac_id]
        if amtrac.location == where == piece.location and river_sides(where):
            return True
    return False


# -- 8.10 coastal movement -------------------------------------------------------------------

def _near_japanese(match: Match, hex_id: str) -> bool:
    return any(c.sides_present(match, n) & {JAPAN} for n in components().hexmap.neighbor_ids(hex_id))


def _coastal_options(match: Match, amtrac_start: dict[str, str]) -> list[Option]:
    if match.state.vars[c.V_AMTRAC]:
        return []
    out = []
    for amtrac_id, where in amtrac_start.items():
        amtrac = match.state.pieces[amtrac_id]
        if (amtrac.location == where and not amtrac.attrs.get("moved") and c.is_coastal(where)
                and not _near_japanese(match, where)):
            out.append(Option({"coastal": amtrac_id}, f"{amtrac.name}: coastal move by sea (8.10)"))
    return out


def coastal_move(match: Match, amtrac_id: str, where: c.Where = c.NOWHERE,
                 back: JSON = None) -> Procedure[None]:
    """8.10: the 672nd, with one unit stacked with it, goes out to sea and lands on another
    coastal hex not next to a Japanese unit; it stays there, its passenger may move on.
    ``back``: entered again at the landing, the passenger chosen (``back["rider"]``)."""
    amtrac = match.state.pieces[amtrac_id]
    start = amtrac.location
    here = where.within(coastal=amtrac_id)
    if isinstance(back, dict) and "rider" in back:
        rider_id = str(back["rider"])
    else:
        riders = [p for p in c.units_at(match, start) if p.id != amtrac_id and not p.attrs.get("moved")]
        opts = [Option("none", "no passenger")] + [Option(p.id, p.name) for p in riders]
        rider_id = yield from ask_str(choose(US, "8.10: carry which unit?", "8.10", opts,
                                             kind="coastal_rider", resume=here.point()))
    rider = match.state.pieces[rider_id] if rider_id != "none" else None
    landings = []
    for hex_id in _coastal_hexes():
        if hex_id == start or _near_japanese(match, hex_id):
            continue
        there = [p for p in c.units_at(match, hex_id)]
        if any(p.side != US for p in there):
            continue
        if not c.can_stack(match, amtrac, hex_id):
            continue
        if rider is not None and (len(there) > 0 or not _pair_ok(rider, amtrac)):
            continue
        landings.append(hex_id)
    if not landings:
        c.say(match, "amtrac", "8.10", "no coastal hex to land on: the 672nd stays", amtrac=amtrac_id,
              hex=start)
        return
    dest = (yield from ask_str(choose(US, "8.10: land where?", "8.10", landings, kind="coastal_landing",
                                      resume=here.point(rider=rider_id))))
    _leave(match, amtrac)
    match.state.vars[c.V_AMTRAC] = "coastal"
    amtrac.attrs["moved"] = True
    match.state.pieces.move(amtrac_id, dest)
    if rider is not None:
        match.state.pieces.move(rider.id, dest)
        c.say(match, "amtrac", "8.10", "the 672nd moves by sea {frm} -> {to} carrying {name}",
              amtrac=amtrac_id, frm=start, to=dest, unit=rider.id, name=rider.name)
    else:
        c.say(match, "amtrac", "8.10", "the 672nd moves by sea {frm} -> {to}", amtrac=amtrac_id,
              frm=start, to=dest)
    if rider is not None:
        rider.attrs["moved"] = True
        yield from move_unit(match, rider, allowance(match, rider), Crossing(start=dest), where)


def _pair_ok(a: Piece, b: Piece) -> bool:
    return not (c.org(a) in DIVISIONS and c.org(b) in DIVISIONS and c.org(a) != c.org(b))


@cache
def _coastal_hexes() -> tuple[str, ...]:
    """The coastal hexes, in the map's order (worked out once)."""
    hm = components().hexmap
    return tuple(hm.label(h) for h in hm.hexes() if hm.has_feature(h, "coast"))


# -- 3.4, 3.5 US map entry ------------------------------------------------------------------

def entry_hexes(org: str) -> list[str]:
    """3.4: the 11th Airborne enters on the south edge from 3401 to 1900, the other divisions
    and XIV Corps on the north edge from 2532 to 4233 (3.5: XIV never from the south)."""
    hm = components().hexmap
    out = []
    for h in hm.hexes():
        hid = hm.label(h)
        col, row = int(hid[:2]), int(hid[2:])
        if org == "11ab":
            if 19 <= col <= 34 and row == (0 if col % 2 else 1):
                out.append(hid)
        elif 25 <= col <= 42 and row == (32 if col % 2 else 33):
            out.append(hid)
    return [h for h in out if c.terrain(h) != "sea"]


def us_entry(match: Match, where: c.Where = c.NOWHERE, back: JSON = None) -> Procedure[None]:
    """3.4, 3.5: each division in turn enters unit by unit (one division complete before the
    next), XIV Corps after all three; each unit pays its entry hex's cost and moves on.
    Japanese defensive fire applies from the first unit (3.4). ``back``: entered again
    within the entry of ``back["org"]`` (the organisations entered are in the state)."""
    done: list[str] = match.state.vars[c.V_ENTERED]
    if isinstance(back, dict) and "org" in back:
        org = str(back["org"])
        yield from _enter_org(match, org, where, back)
        done.append(org)
    while len(done) < 4:
        left = [o for o in DIVISIONS if o not in done]
        if left:
            org = (yield from ask_str(choose(US, "3.4: which division enters next?", "3.4",
                                             [Option(o, ORG_NAMES[o]) for o in left], kind="entry_org",
                                             resume=where.point())))
        else:
            org = "xiv"
        c.say(match, "entry", "3.4", "{organisation} begins its entry", org=org,
              organisation=ORG_NAMES[org])
        yield from _enter_org(match, org, where)
        done.append(org)


def _enter_org(match: Match, org: str, where: c.Where = c.NOWHERE, back: JSON = None) -> Procedure[None]:
    """3.4: the units of one organisation enter one by one, each moving on once in (its
    decisions asked again from ``org``; ``back``: at the entry hex of ``back["unit"]``, or
    within the move of the unit that entered last, ``back["move"]``)."""
    box = c.ENTRY_BOX[org]
    here = where.within(org=org)
    if isinstance(back, dict) and "move" in back:
        yield from resume_move(match, here, back["move"])
    while True:
        waiting = match.state.pieces.at(box)
        if not waiting:
            return
        if isinstance(back, dict) and "unit" in back:
            pick = str(back["unit"])
        else:
            pick = yield from ask_str(choose(US, f"3.4: enter which {ORG_NAMES[org]} unit?", "3.4",
                                             [Option(p.id, p.name) for p in waiting], kind="entry_unit",
                                             resume=here.point()))
        back = None
        piece = match.state.pieces[pick]
        mp = allowance(match, piece)
        opts = []
        for hex_id in entry_hexes(org):
            cost = c.ENTER_COST[c.terrain(hex_id)] + (1 if hex_id in match.state.vars[c.V_RUBBLE] else 0)
            if cost <= mp and c.can_stack(match, piece, hex_id):
                opts.append(Option(hex_id, f"{hex_id} ({c.terrain(hex_id)}, {cost} MP)",
                                   detail={"mp": cost}))
        if not opts:
            # No legal entry hex is left for this unit: it waits and enters next turn.
            c.say(match, "entry", "3.4", "{name} finds no legal entry hex and waits for the "
                  "next US movement phase", unit=piece.id, name=piece.name, org=org)
            return
        to = (yield from ask_str(choose(US, f"3.4: {piece.name} enters at", "3.4", opts,
                                        kind="entry_hex", context={"unit": piece.id},
                                        resume=here.point(unit=piece.id))))
        cost = c.ENTER_COST[c.terrain(to)] + (1 if to in match.state.vars[c.V_RUBBLE] else 0)
        match.state.pieces.move(piece.id, to)
        piece.attrs["moved"] = True
        c.say(match, "entry", "3.4", "{name} enters at {to} ({mp} MP)", unit=piece.id,
              name=piece.name, to=to, mp=cost)
        # 9.1 defensive fire at the entry hex, then on with the MP left
        yield from move_unit(match, piece, mp - cost, Crossing(start=to), here, entered=True)
