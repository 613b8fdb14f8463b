"""11.0 US arrival and landings: landings (11.2) and beach stacking (11.3), reserves (11.4)
and replacements (11.5-11.7).

Staging boxes (11.2) are a visual aid on the printed map: here the limit they enforce (two
units a colour-coded beach a phase, one a beach hex) is counted in ``vars["landed"]``, and
a unit goes straight from Available for Landing to its beach hex.
"""

from __future__ import annotations

from functools import cache, lru_cache

from tabletop.core.engine.decisions import Option, ask_str, choose
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.text import ordinal

from . import common as c

MAX_LANDINGS = 8  # 11.2: units a phase
PER_BEACH = 2  # 11.2: units a colour-coded beach a phase
REPLACEMENT_STEPS = 2  # 11.5
REPAIR_DISTANCE = 4  # 11.7


# -- 11.2 landings ----------------------------------------------------------------------

def landing_hexes(match: Match) -> list[str]:
    """11.2: the chosen beach hexes where a unit may still land this phase: at most eight
    units a phase, two a colour-coded beach, one a beach hex."""
    landed: dict[str, list[str]] = match.state.vars[c.V_LANDED]
    total = sum(len(v) for v in landed.values())
    if total >= MAX_LANDINGS:
        return []
    used_hexes = {h for ids in landed.values() for h in ids}
    out = []
    for hid, colour in _beach_colours(match.state.vars.get(c.V_BEACHHEAD)):
        if hid in used_hexes or len(landed.get(colour, [])) >= PER_BEACH:
            continue
        out.append(hid)
    return out


@cache
def _beach_colours(chosen: str | None) -> tuple[tuple[str, str], ...]:
    """3.3, 11.2: the beach hexes of a beachhead, each with its colour-coded beach ("" for none)."""
    return tuple((hid, c.beach_colour(hid) or "") for hid in c.landing_beach_hexes_of(chosen))


def can_land(match: Match, piece: Piece) -> bool:
    """11.1, 11.6: a unit in Available for Landing, not rebuilt there this phase."""
    return piece.location == c.AVAILABLE and piece.id not in match.state.vars[c.V_NO_LAND]


def landing_options(match: Match) -> list[Option]:
    """11.2: one option per unit that may land now."""
    if not landing_hexes(match):
        return []
    return [_land_option(p.id, p.value("attack"), p.value("defense"))
            for p in match.state.pieces.select(side=c.US, location=c.AVAILABLE)
            if can_land(match, p)]


@lru_cache(maxsize=1024)
def _land_option(unit: str, attack: int, defense: int) -> Option:
    """11.2: a landing's menu entry (options are immutable: made once, shared)."""
    return Option(f"land:{unit}", f"Land {unit} ({attack}-{defense})")


def land(match: Match, piece: Piece, *, resume: c.Resume | None = None) -> Procedure[None]:
    """11.2, 11.3, 6.2g: place a unit on a chosen beach hex, under any US unit already there;
    it moves no further this phase. A unit landing on a Japanese-held beach hex must attack
    it in the next combat phase. The hex is asked again from ``resume`` (a fork)."""
    hexes = landing_hexes(match)
    answer = (yield from ask_str(c.ask(resume, choose(
        c.US, f"Land {piece.id} on which beach hex?", "11.2",
        [Option(h, f"{h} ({c.beach_colour(h)} beach)") for h in hexes],
        kind="landing_hex", context={"unit": piece.id}))))
    v = match.state.vars
    v[c.V_LANDED].setdefault(c.beach_colour(answer) or "", []).append(answer)
    match.state.pieces.move(piece.id, answer)  # under the units there (11.3)
    v[c.V_MOVED].append(piece.id)
    if c.units_at(match, answer, c.JAPAN):
        v[c.V_MUST_ATTACK].setdefault(answer, []).append(piece.id)
        match.emit("landing", "11.2", f"{piece.id} lands on {answer}, held by the Japanese: it "
                   "must attack in the next combat phase", unit=piece.id, to=answer)
    else:
        match.emit("landing", "11.2", f"{piece.id} lands on {answer} "
                   f"({c.beach_colour(answer)} beach)", unit=piece.id, to=answer)
    return None


# -- 11.4 reserves ----------------------------------------------------------------------

def reserve_regiments(match: Match) -> list[int]:
    """11.4: the 3rd Division regiments whose three battalions are all in the Reserves box
    (kept while the box's stack is unchanged, :class:`common.PlaceMemo`: a unit's regiment is
    printed)."""
    memo = c.place_memo(match, "11.4 regiments whole in the Reserves box")
    found: tuple[int, ...] | None = memo.get(c.RESERVES)
    if found is None:
        regs: dict[int, int] = {}
        for p in match.state.pieces.select(side=c.US, location=c.RESERVES):
            if p.kind == "marine" and p.attrs.get("regiment"):
                regs[p.attrs["regiment"]] = regs.get(p.attrs["regiment"], 0) + 1
        found = tuple(sorted(r for r, n in regs.items() if n == 3))
        memo.put(c.RESERVES, found)
    return list(found)


def reserve_options(match: Match) -> list[Option]:
    """11.4: after Turn 1, a regiment (three battalions and one support unit), alone or with
    the 3rd Division tank battalion."""
    if match.state.turn <= 1:
        return []
    last = 16 - int(match.state.vars[c.V_RESERVES])
    if last - 1 < match.state.turn:
        return []  # 4.1: shortening the game past the turn being played would cost nothing
    tank = _reserve_tank(match)
    return list(_reserve_menu(tuple(reserve_regiments(match)), last,
                              tank.id if tank is not None else None))


@lru_cache(maxsize=256)
def _reserve_menu(regiments: tuple[int, ...], last: int, tank: str | None) -> tuple[Option, ...]:
    """11.4: :func:`reserve_options` of these whole regiments, the last turn as it stands and
    the tank battalion in reserve (options are immutable: made once, shared)."""
    out = []
    for r in regiments:
        out.append(Option(f"reserve:{r}", f"Commit the {ordinal(r)} Marines from reserve (the game "
                          f"ends a turn sooner, after Turn {last - 1})"))
        if tank is not None:
            out.append(Option(f"reserve:{r}+tank", f"Commit the {ordinal(r)} Marines with {tank} "
                              f"(the game ends after Turn {last - 1})"))
    return tuple(out)


def _reserve_tank(match: Match) -> Piece | None:
    """11.4: the first tank unit in the Reserves box, in registry order (kept while the box's
    stack is unchanged, :class:`common.PlaceMemo`: a unit's side and kind are printed)."""
    memo = c.place_memo(match, "11.4 the tank unit in the Reserves box")
    found: Piece | bool | None = memo.get(c.RESERVES)
    if found is None:
        found = next((p for p in match.state.pieces.select(side=c.US, location=c.RESERVES)
                      if c.is_tank(p)), False)  # False: none (a memo keeps no None)
        memo.put(c.RESERVES, found)
    return found if isinstance(found, Piece) else None


def commit_reserve(match: Match, arg: str) -> None:
    """11.4, 4.1: move a regiment's three battalions and one support unit (its own
    flamethrowers, else any support unit in reserve), and the tank battalion if asked, to
    Available for Landing; the game is shortened by one turn."""
    reg_s, _, extra = arg.partition("+")
    reg = int(reg_s)
    here = [p for p in c.units(match, c.US, on_map=False) if p.location == c.RESERVES]
    moving = [p for p in here if p.kind == "marine" and p.attrs.get("regiment") == reg]
    supports = sorted((p for p in here if c.is_support(p) and not c.is_tank(p)),
                      key=lambda p: (p.attrs.get("regiment") != reg, p.id))
    if supports:
        moving.append(supports[0])
    tank = _reserve_tank(match)
    if extra == "tank" and tank is not None:
        moving.append(tank)
    for p in moving:
        match.state.pieces.move(p.id, c.AVAILABLE)
    match.state.vars[c.V_RESERVES] += 1
    last = 16 - int(match.state.vars[c.V_RESERVES])
    match.emit("reserves", "11.4", f"the {ordinal(reg)} Marines come forward from reserve "
               f"({', '.join(p.id for p in moving)}): the game now ends after Turn {last}",
               units=[p.id for p in moving], last_turn=last)


# -- 11.5-11.7 replacements -------------------------------------------------------------

def start_replacements(match: Match) -> None:
    """11.5: two replacement steps at the start of each first movement phase; 11.7 notes the
    reduced units then at least four hexes from every Japanese unit."""
    v = match.state.vars
    v[c.V_REPLACEMENTS] = REPLACEMENT_STEPS
    v[c.V_REBUILT] = []
    enemy = c.hexes_of(match, c.JAPAN)
    v[c.V_REPAIRABLE] = [p.id for p in c.units(match, c.US)
                         if p.steps == 1 and p.max_steps == 2
                         and (c.distance_to(p.location, enemy) or 99) >= REPAIR_DISTANCE]


def replaceable(match: Match) -> list[Piece]:
    """11.6, 11.7: the units a replacement step may rebuild now."""
    v = match.state.vars
    if v[c.V_REPLACEMENTS] <= 0:
        return []
    out = []
    for p in c.units(match, c.US, on_map=False):
        if p.id in v[c.V_REBUILT]:
            continue  # 11.6: one step a turn for an eliminated two-step unit
        rebuild = p.location == c.US_ELIMINATED
        repair = p.steps < p.max_steps and (p.location == c.AVAILABLE or (
            c.components().map.is_hex_id(p.location) and p.id in v[c.V_REPAIRABLE]
            and p.id not in v[c.V_MOVED]))  # 11.7: it may not move in the phase of replacement
        if rebuild or repair:
            out.append(p)
    return out


def replacement_options(match: Match) -> list[Option]:
    """11.5: one option per unit a step may rebuild."""
    return [Option(f"replace:{p.id}", f"Replace a step of {p.id} ({c.place_name(p.location)})")
            for p in replaceable(match)]


def replace_step(match: Match, unit_id: str) -> None:
    """11.6, 11.7: spend one replacement step on a unit. An eliminated unit returns to
    Available for Landing with one step (one step a turn); a unit rebuilt at sea may not land
    this phase, one rebuilt on the map may not move this phase."""
    v = match.state.vars
    p = match.state.pieces[unit_id]
    v[c.V_REPLACEMENTS] -= 1
    if p.location == c.US_ELIMINATED:
        p.steps = 1
        p.face = "back" if p.max_steps > 1 else p.face
        match.state.pieces.move(p.id, c.AVAILABLE)
        v[c.V_REBUILT].append(p.id)
        v[c.V_NO_LAND].append(p.id)
        match.emit("replacement", "11.6", f"{p.id} is rebuilt from the Eliminated Units box "
                   "to Available for Landing", unit=p.id)
        return
    c.restore_us(p)
    if p.location == c.AVAILABLE:
        v[c.V_NO_LAND].append(p.id)
        match.emit("replacement", "11.6", f"{p.id} is rebuilt to full strength at sea", unit=p.id)
    else:
        v[c.V_NO_MOVE].append(p.id)
        match.emit("replacement", "11.7", f"{p.id} is rebuilt to full strength in {p.location} "
                   "and may not move this phase", unit=p.id, hex=p.location)
