"""10.0 Offensive fire and 11.0 indirect fire.

The phase is a loop (10.2): name a target (an enemy-occupied hex, 10.2; from turn 3 a bridge,
10.19, or an empty urban or heavy structures hex, 10.21), never one already attacked this
phase (10.5); gather firing units one at a time (10.4: US divisional units of one division,
XIV Corps with anyone), each in range (10.6) with a clear line of fire (10.7-10.9) or firing
indirectly (11.1-11.2: US anywhere in range, Japanese only at a spotted hex); declare a close
assault if CAC units are adjacent (10.17, 10.18); add the DRM (10.12-10.15, 10.19, 10.21,
10.22, 10.23); roll (10.3); on E eliminate both units of a stack (10.15), roll for rubble
(10.20) and offer the advance after combat (10.17). 5.4 bars US field artillery from urban
and heavy structures hexes and every demolition and flamethrower attack on turns 1 and 2.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from tabletop.core.board.hexgrid import Hex, within
from tabletop.core.board.hexgrid import distance as hex_distance
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Option, ask_str, choose
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece

from . import common as c
from .components import DIVISIONS, JAPAN, US, components
from .fire import Drm, resolve, shown_chances, terrain_drms
from .movement import RIVERS
from .victory import check_now, eliminate

URBANISH = ("urban", "heavy")


def firing_units(match: Match, side: str) -> list[Piece]:
    """10.2: the units of a side that have not fired this phase (US air units ready and not
    used this game turn, 10.23)."""
    out = [p for p in c.units_on_map(match, side) if not p.attrs.get("fired")]
    if side == US:
        used = set(match.state.vars[c.V_AIR_USED])
        out += [p for p in match.state.pieces.at(c.AIR_READY) if p.id not in used]
    return out


def spotted(match: Match, target: str) -> bool:
    """11.2: a Japanese unit traces a normal line of fire to the hex within its own range."""
    for p in c.units_on_map(match, JAPAN):
        d = components().hexmap.id_distance(p.location, target)
        if d <= c.counter(p).range and (d <= 1 or c.has_lof(match, p.location, target)):
            return True
    return False


def can_fire_at(match: Match, piece: Piece, target: str, *, regular: bool = True) -> bool:
    """10.6, 10.7, 11.1-11.2, 5.4, 10.23: whether a unit may fire at a hex (indirect fire
    past the wall: option ``indirect_wall``, :func:`common.indirect_lof`)."""
    if c.has(piece, "air"):
        return regular  # 10.23: infinite range, regular fires only
    hm = components().hexmap
    if not hm.is_hex_id(piece.location):
        return False
    if (piece.side == US and match.state.turn <= 2 and c.has(piece, "field_artillery")
            and c.terrain(target) in URBANISH):
        return False  # 5.4
    d = hm.id_distance(piece.location, target)
    if d < 1 or d > c.counter(piece).range:
        return False
    if d == 1 or c.has_lof(match, piece.location, target):
        return True
    if c.has(piece, "ifc") and c.indirect_lof(match, piece.location, target):
        return piece.side == US or spotted(match, target)
    return False


def _bridge_ends(key: str) -> tuple[str, str]:
    a, b = key.split("-")
    return a, b


def can_fire_at_bridge(match: Match, piece: Piece, key: str) -> bool:
    """10.19: a bridge is fired on like a hex: in range of, and seen at, either end hex."""
    if c.has(piece, "air"):
        return False
    return any(can_fire_at(match, piece, end, regular=False) or piece.location == end
               for end in _bridge_ends(key))


def targets(match: Match, side: str, shooters: list[Piece]) -> list[Option]:
    """10.2, 10.5, 10.19, 10.21: every target some unit could fire at now. A structure
    demolition (10.21) is "conducted just as regular offensive fires": any empty urban or
    heavy structures hex without rubble that a ground unit could fire at (range, line of fire
    or indirect fire, 10.6-10.9, 11.1-11.2), next to it or not (its +1 says units that are
    not adjacent may demolish)."""
    attacked = set(match.state.vars[c.V_ATTACKED])
    enemy = c.other(side)
    out: list[Option] = []
    hm = components().hexmap
    distance = hm.id_distance
    # what can_fire_at answers, asked only of ground units in range (10.6): an air unit
    # fires at any hex (10.23), and at no bridge (10.19)
    ground = [(p, p.location, c.counter(p).range) for p in shooters if not c.has(p, "air")]
    air = len(ground) < len(shooters)
    hexes = sorted({p.location for p in c.units_on_map(match, enemy)})
    for hex_id in hexes:
        if hex_id in attacked:
            continue
        if air or any(distance(at, hex_id) <= reach and can_fire_at(match, p, hex_id)
                      for p, at, reach in ground):
            out.append(Option({"fire": hex_id}, f"fire at {hex_id}"))
    if match.state.turn >= 3:  # 5.4
        demolished = set(match.state.vars[c.V_DEMOLISHED])
        for side_ in hm.hexsides_with("bridge"):
            a, b = hm.label(side_.a), hm.label(side_.b)
            key = c.side_key(a, b)
            if key in demolished or key in attacked:
                continue
            if any((distance(at, a) <= reach or distance(at, b) <= reach)
                   and can_fire_at_bridge(match, p, key) for p, at, reach in ground):
                out.append(Option({"bridge": key}, f"demolish the bridge {key} (10.19)"))
        barred = set(match.state.vars[c.V_RUBBLE]) | attacked | match.state.pieces.occupied()
        out += [Option({"demolish": hex_id}, f"demolish the structures in {hex_id} (10.21)")
                for hex_id in sorted(demolition_reach(match, side, shooters) - barred)]
    return out


def demolition_reach(match: Match, side: str, shooters: Iterable[Piece]) -> set[str]:
    """10.21: the urban and heavy structures hexes some ground unit of ``shooters`` could
    fire at, occupied or not: what :func:`can_fire_at` answers hex by hex (range 10.6, line of
    fire 10.7-10.9, indirect fire 11.1-11.2 with Japanese spotting), from sets kept per
    firing hex and range, since the terrain that decides them never changes."""
    along = str(match.options.get("lof_along", "both"))
    wall = c.indirect_wall_stops(match)
    out: set[str] = set()
    spotted_hexes: set[str] | None = None
    for p in shooters:
        if c.has(p, "air") or not components().hexmap.is_hex_id(p.location):
            continue
        reach = c.counter(p).range
        if not c.has(p, "ifc"):
            out |= _structures_seen(p.location, reach, along, "direct")
            continue
        indirect = _structures_seen(p.location, reach, along, "wall" if wall else "any")
        if side == US:
            out |= indirect  # every hex a direct line reaches, and more
            continue
        out |= _structures_seen(p.location, reach, along, "direct")
        if spotted_hexes is None:  # 11.2: hexes some Japanese unit traces a normal line to
            spotted_hexes = set()
            for q in c.units_on_map(match, JAPAN):
                spotted_hexes |= _structures_seen(q.location, c.counter(q).range, along, "direct")
        out |= indirect & spotted_hexes
    return out


@cache
def _structures_seen(where: str, reach: int, along: str, line: str) -> frozenset[str]:
    """The urban and heavy structures hexes from one to ``reach`` hexes from ``where`` that
    a unit there sees: with a clear line of fire (``line="direct"``, 10.7-10.9; an adjacent
    hex always), with none needed (``"any"``, 11.2), or stopped only by the wall (``"wall"``,
    indirect fire under the option ``indirect_wall=stops``, 10.9)."""
    centre = components().hexmap.hex(where)
    by_hex = _structures_by_hex()
    if 3 * reach * (reach + 1) + 1 < len(by_hex):  # fewer hexes in range than structures
        near = [(h, by_hex[h]) for h in within(centre, reach) if h in by_hex]
    else:
        near = [(h, hex_id) for h, hex_id in by_hex.items() if hex_distance(centre, h) <= reach]
    out = set()
    for h, hex_id in near:
        d = hex_distance(centre, h)
        if d < 1:
            continue
        if d == 1 or line == "any" or c.line_clear(where, hex_id, along, wall_only=line == "wall"):
            out.add(hex_id)
    return frozenset(out)


def structure_hexes() -> tuple[str, ...]:
    """10.21: the ids of the urban and heavy structures hexes, in order."""
    return tuple(sorted(_structures_by_hex().values()))


@cache
def _structures_by_hex() -> dict[Hex, str]:
    """10.21: the urban and heavy structures hexes of the map and their ids."""
    hexmap = components().hexmap
    return {h: hexmap.label(h) for h in hexmap.hexes() if c.terrain(hexmap.label(h)) in URBANISH}


def _group_ok(group: list[Piece], piece: Piece) -> bool:
    """10.4: US divisional units firing together belong to one division."""
    if piece.side != US:
        return True
    divs = {c.org(p) for p in group if c.org(p) in DIVISIONS}
    return c.org(piece) not in DIVISIONS or not divs or divs == {c.org(piece)}


def offensive_fire_phase(match: Match, side: str) -> Procedure[None]:
    """10.1-10.23, 11.0: one fire after another until the side ends the phase.

    Entered again at a decision (``match.resumed``), it goes back to it: the next target
    (what has fired and been attacked is in the state), or within one fire, named by its
    kind and target (:func:`_one_fire`)."""
    private = side == JAPAN
    where = c.Where(c.FIRE_PHASE[side])
    back = match.resumed(where.phase)
    if isinstance(back, dict) and "target" in back:
        # within a fire: the units that may fire are those that might as it was named
        yield from _one_fire(match, side, str(back["kind"]), str(back["target"]),
                             firing_units(match, side), where, back)
        check_now(match)
    while True:
        shooters = firing_units(match, side)
        opts = [Option(DONE, "end the offensive fire phase"), *targets(match, side, shooters)]
        pick = yield choose(side, "10.2: fire at a target, or end the phase", "10.2", opts,
                            kind="fire_target", private=private, resume=where.point())
        if pick == DONE:
            return
        assert isinstance(pick, dict)
        kind, target = next(iter(pick.items()))
        yield from _one_fire(match, side, str(kind), str(target), shooters, where)
        check_now(match)


def _eligible(match: Match, kind: str, target: str, shooters: Iterable[Piece]) -> list[Piece]:
    if kind == "fire":
        return [p for p in shooters if can_fire_at(match, p, target)]
    if kind == "bridge":
        return [p for p in shooters if can_fire_at_bridge(match, p, target)]
    return [p for p in shooters if not c.has(p, "air") and can_fire_at(match, p, target, regular=False)]


def _one_fire(match: Match, side: str, kind: str, target: str, shooters: list[Piece],
              where: c.Where = c.NOWHERE, back: JSON = None) -> Procedure[None]:
    """10.4: the firing units gathered one by one, then the fire resolved. Its decisions are
    asked again from its kind, target and the units gathered so far (``group``); ``back``:
    entered again at one, or past the gathering at a close assault or an advance
    (:func:`_regular_fire`)."""
    private = side == JAPAN
    here = where.within(kind=kind, target=target)
    group: list[Piece] = []
    if isinstance(back, dict):
        group = [match.state.pieces[str(i)] for i in back["group"]]
        if "close_assault" in back or "advance" in back:  # the group has fired
            yield from _regular_fire(match, side, target, group, here, back)
            return
    eligible = _eligible(match, kind, target, shooters)
    while True:
        opts: list[Option] = []
        if group:
            strength = sum(c.counter(p).fire for p in group)
            chances = (shown_chances(strength, offensive_drms(match, side, target, group,
                                                              c.units_at(match, target), []), group)
                       + " (before any close assault)") if kind == "fire" else ""
            opts.append(Option(DONE, f"resolve ({strength} factors)", chances))
        opts += [Option(p.id, f"{p.name} ({c.counter(p).fire}) in "
                        f"{p.location if components().hexmap.is_hex_id(p.location) else 'the air'}")
                 for p in eligible if p not in group and _group_ok(group, p)]
        if not group and not opts:
            return
        hm = components().hexmap
        longest = max((hm.id_distance(p.location, target) for p in group if hm.is_hex_id(p.location)
                       and kind == "fire"), default=1)
        band = 0 if longest <= 1 else 1 if longest <= 4 else 2  # 10.13
        pick = yield from ask_str(choose(side, f"10.4: add a unit to the fire at {target}, or resolve",
                                         "10.4", opts, kind="fire_unit",
                                         context={"target": target, "band": band,
                                                  "group": [p.id for p in group]},
                                         private=private, resume=here.point(group=[p.id for p in group])))
        if pick == DONE:
            break
        group.append(match.state.pieces[pick])
        if not any(_group_ok(group, p) for p in eligible if p not in group):
            break
    match.state.vars[c.V_ATTACKED].append(target)
    for p in group:
        p.attrs["fired"] = True
        if c.has(p, "air"):
            match.state.vars[c.V_AIR_USED].append(p.id)
    c.reveal(match, group, "fires")
    if kind == "fire":
        yield from _regular_fire(match, side, target, group, here)
    elif kind == "bridge":
        _bridge_demolition(match, side, target, group)
    else:
        _structure_demolition(match, side, target, group)


def _close_assaulters(match: Match, target: str, group: list[Piece]) -> list[Piece]:
    """10.17, 10.18: CAC firers adjacent to the target that may close assault across the
    hexside between them (not an unbridged major river unless stacked with the 672nd)."""
    out = []
    for p in group:
        if not components().hexmap.is_hex_id(p.location) or not c.has(p, "cac"):
            continue
        if components().hexmap.id_distance(p.location, target) != 1:
            continue
        feats = components().hexmap.id_hexside_features(p.location, target)
        if ("major_river" in feats and not c.bridged(match, p.location, target, p.side)
                and not _with_amtrac(match, p)):
            continue
        out.append(p)
    return out


def _with_amtrac(match: Match, piece: Piece) -> bool:
    return any(c.has(q, "amtrac") for q in c.units_at(match, piece.location) if q.id != piece.id)


def offensive_drms(match: Match, side: str, target: str, group: list[Piece], defenders: list[Piece],
                   assault: list[Piece]) -> list[Drm]:
    """10.12-10.15, 10.22, 10.23: the DRM of a regular offensive fire."""
    ground = [p for p in group if components().hexmap.is_hex_id(p.location)]
    drms = terrain_drms(match, [p.location for p in ground], target, defenders, group)
    longest = max((components().hexmap.id_distance(p.location, target) for p in ground), default=0)
    if longest >= 5:
        drms.append((2, "10.13", "firing at a target five or more hexes away"))
    elif longest >= 2:
        drms.append((1, "10.13", "firing at a target two to four hexes away"))
    if any(c.has(p, "air") for p in group) and _aa_near(match, target):
        drms.append((1, "10.12", "aircraft firing within two hexes of a Japanese anti-aircraft unit"))
    total = sum(c.counter(p).fire for p in group)
    cac_adjacent = sum(c.counter(p).fire for p in ground
                       if c.has(p, "cac") and components().hexmap.id_distance(p.location, target) == 1)
    if cac_adjacent * 2 >= total and cac_adjacent > 0:
        drms.append((-1, "10.12", "half or more of the fire from adjacent CAC units"))
    if assault:
        worst = 0
        for p in assault:
            feats = components().hexmap.id_hexside_features(p.location, target)
            if "minor_river" in feats and not c.bridged(match, p.location, target, p.side):
                worst = max(worst, 2)
            elif feats & RIVERS:
                worst = max(worst, 1)  # a bridge, a pontoon bridge or the 672nd
        if worst:
            drms.append((worst, "10.12", "close assault across a river" if worst == 2
                         else "close assault across a bridge or with the 672nd"))
        if side == US and is_fga(match, target, assault):
            drms.append((-2, "10.22", "flamethrower & gasoline attack"))
    return drms


def is_fga(match: Match, target: str, assault: list[Piece]) -> bool:
    """10.22: from turn 3, into an urban or heavy structures hex, two CAC units in directly
    opposite adjacent hexes."""
    if match.state.turn < 3 or c.terrain(target) not in URBANISH:
        return False
    hexes = {p.location for p in assault}
    t = components().hexmap.hex(target)
    for h in hexes:
        d = components().hexmap.hex(h)
        opposite = (2 * t.q - d.q, 2 * t.r - d.r)
        if any((components().hexmap.hex(x).q, components().hexmap.hex(x).r) == opposite for x in hexes):
            return True
    return False


def _aa_near(match: Match, target: str) -> bool:
    return any(c.has(p, "anti_aircraft") and components().hexmap.id_distance(p.location, target) <= 2
               for p in c.units_on_map(match, JAPAN))


def _regular_fire(match: Match, side: str, target: str, group: list[Piece],
                  where: c.Where = c.NOWHERE, back: JSON = None) -> Procedure[None]:
    """10.3, 10.16, 10.17, 10.20; 4.2, 4.3: one fire on an occupied hex: the defenders
    revealed, the fire resolved, eliminations, then the rubble roll, then the game-end check
    (play stops after the rubble roll), then the advance after combat. ``back``: entered
    again at the close assault (the defenders revealed) or at an advance."""
    private = side == JAPAN
    here = where.within(group=[p.id for p in group])
    if isinstance(back, dict) and "advance" in back:
        yield from _advance(match, side, target, [match.state.pieces[str(i)] for i in back["assault"]],
                            here, str(back["advance"]))
        return
    defenders = c.units_at(match, target)
    if back is None:
        c.reveal(match, defenders, "is fired on")
        if side == JAPAN and len(defenders) == 2:
            c.say(match, "fog", "6.5", "the Japanese player sees both US units in {hex}: "
                  "{names[0]}, {names[1]}", visible_to=(JAPAN,), hex=target,
                  units=[p.id for p in defenders], names=[p.name for p in defenders])
    assault: list[Piece] = []
    candidates = _close_assaulters(match, target, group)
    if candidates:
        yes = yield choose(side, f"10.17: close assault {target} with "
                           + ", ".join(p.name for p in candidates) + "?", "10.17",
                           [Option(True, "close assault"), Option(False, "no close assault")],
                           kind="close_assault", private=private, resume=here.point(close_assault=True))
        if yes:
            assault = candidates
    drms = offensive_drms(match, side, target, group, defenders, assault)
    strength = sum(c.counter(p).fire for p in group)
    result = resolve(match, group, strength, drms, target, "10.3", "offensive fire")
    if result != "E":
        return
    for p in defenders:
        eliminate(match, p, "10.16", decide=False)
    if c.terrain(target) in URBANISH:
        roll = match.dice.d6(purpose="rubble", section="10.20")
        rubble = match.state.vars[c.V_RUBBLE]
        if roll == 6 and target not in rubble:
            rubble.append(target)
            rubble.sort()
            c.say(match, "rubble", "10.20", "rubble in {hex}", hex=target, roll=roll)
    # 4.2, 4.3: play stops when the last Japanese unit (or the last one north-west) is gone,
    # once this fire's result is applied in full: the E (10.16) and the rubble roll it calls
    # for "immediately" (10.20); the voluntary advance after combat (10.17) is not offered.
    check_now(match)
    yield from _advance(match, side, target, assault, here)


def _advance(match: Match, side: str, target: str, assault: list[Piece], where: c.Where,
             first: str | None = None) -> Procedure[None]:
    """10.17: each close-assaulting unit still adjacent may advance into the emptied hex,
    one after another (``first``: entered again at that unit's choice, those before done)."""
    private = side == JAPAN
    ids = [p.id for p in assault]
    for p in assault[ids.index(first) if first is not None else 0:]:
        if components().hexmap.id_distance(p.location, target) != 1 or not c.can_stack(match, p, target):
            continue
        go = yield choose(side, f"10.17: advance {p.name} into {target}?", "10.17",
                          [Option(True, "advance"), Option(False, "stay")],
                          kind="advance", private=private, resume=where.point(assault=ids, advance=p.id))
        if go:
            frm = p.location
            match.state.pieces.move(p.id, target)
            c.say(match, "advance", "10.17", "{name} advances {frm} -> {to}", unit=p.id,
                  name=p.name, frm=frm, to=target)


def bridge_demolition_drms(match: Match, side: str, key: str, group: Iterable[Piece]) -> list[Drm]:
    """10.19: the only DRM of a bridge demolition by ``group`` at the bridge ``key``: -2 a
    combat engineer, +1 when a firing unit is in neither end hex, +1 or +2 for enemy units at
    one or both ends."""
    ends = _bridge_ends(key)
    drms: list[Drm] = []
    for p in group:
        if c.has(p, "combat_engineer"):
            drms.append((-2, "10.19", f"{p.name} is a combat engineer"))
    if any(p.location not in ends for p in group):
        drms.append((1, "10.19", "a firing unit is not at the bridge"))
    enemy_ends = sum(1 for e in ends if c.enemy_in(match, e, side))
    if enemy_ends:
        drms.append((enemy_ends, "10.19", "enemy units at both bridge ends" if enemy_ends == 2
                     else "enemy units at one bridge end"))
    return drms


def _bridge_demolition(match: Match, side: str, key: str, group: list[Piece]) -> None:
    """10.19: only its own DRM apply; E demolishes the bridge."""
    drms = bridge_demolition_drms(match, side, key, group)
    strength = sum(c.counter(p).fire for p in group)
    if resolve(match, group, strength, drms, key, "10.19", "bridge demolition") == "E":
        match.state.vars[c.V_DEMOLISHED].append(key)
        match.state.vars[c.V_DEMOLISHED].sort()
        c.say(match, "bridge", "10.19", "the bridge {bridge} is demolished", bridge=key)


def structure_demolition_drms(match: Match, target: str, group: Iterable[Piece]) -> list[Drm]:
    """10.21: the only DRM of a structure demolition by ``group`` at ``target``: -2 a combat
    engineer, +1 when no firing unit is adjacent to the hex ("all of the involved attacking
    units aren't in hexes immediately adjacent"), +1 a heavy structures hex."""
    group = list(group)
    drms: list[Drm] = []
    for p in group:
        if c.has(p, "combat_engineer"):
            drms.append((-2, "10.21", f"{p.name} is a combat engineer"))
    if all(components().hexmap.id_distance(p.location, target) != 1 for p in group):
        drms.append((1, "10.21", "no firing unit is adjacent to the hex"))
    if c.terrain(target) == "heavy":
        drms.append((1, "10.21", "a heavy structures hex"))
    return drms


def _structure_demolition(match: Match, side: str, target: str, group: list[Piece]) -> None:
    """10.21: only its own DRM apply; E places rubble."""
    drms = structure_demolition_drms(match, target, group)
    strength = sum(c.counter(p).fire for p in group)
    if resolve(match, group, strength, drms, target, "10.21", "structure demolition") == "E":
        rubble = match.state.vars[c.V_RUBBLE]
        if target not in rubble:
            rubble.append(target)
            rubble.sort()
            c.say(match, "rubble", "10.21", "rubble in {hex}", hex=target)
