"""IV.E Replacements, IV.F the Night Phase (IX.D infiltration, IX.E Banzai), IV.G the Game
Turn Record Phase."""

from __future__ import annotations

from typing import Any

from tabletop.core.engine.decisions import DONE, Option, ResumePoint, ask_str, choose
from tabletop.core.engine.events import modifier, modifiers_text
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece

from . import common as c
from .components import by_turn
from .japanese_combat import BANZAI, REGULAR, fire_modifiers, modified_strength, resolve
from .marine_combat import attack_event
from .planning import share

REPLACEMENT, NIGHT = "replacement", "night"
"""The phases' ids: where their decisions are asked again (``at`` names which)."""

# -- IV.E ----------------------------------------------------------------------------------

def replacement_phase(match: Match) -> Procedure[None]:
    """IV.E.1-2: add the turn's Replacement Steps; allocate them one step at a time (each
    allocation asked again from the steps left and the units, as the state has them: entered
    again there, ``match.resumed``, the steps are not added twice)."""
    gtt = c.components().tracks.game_turn_track
    resumed = c.resumed(match, REPLACEMENT) is not None
    if match.state.vars[c.V_SCENARIO] != c.VERY_SHORT and not resumed:
        for kind, table in (("inf", gtt.infantry_replacements), ("arm", gtt.armour_replacements)):
            due = share(match, f"repl_{kind}", by_turn(table, match.state.turn, where=kind))
            if due:
                match.state.tracks[f"repl_{kind}"].add(due)
                match.emit("replacements", "IV.E.1", f"{due} {'infantry' if kind == 'inf' else 'armour'} "
                           "Replacement Step(s) arrive", replacement=kind, steps=due)
    while True:
        eligible = replaceable(match)
        if not eligible:
            return
        options = [Option(DONE, "Keep the rest")] + [
            Option(p.id, f"{p.id} in {p.location} ({p.steps}/{p.max_steps} steps)") for p in eligible]
        inf, arm = match.state.tracks["repl_inf"].value, match.state.tracks["repl_arm"].value
        answer = yield from ask_str(c.asked_again(choose(
            c.US, f"Allocate a Replacement Step (infantry {inf}, armour {arm})?", "IV.E.2", options,
            kind="replacement"), ResumePoint(REPLACEMENT, {}), at="replacement"))
        if answer == DONE:
            return
        p = match.state.pieces[answer]
        match.state.tracks["repl_inf" if p.kind == "infantry" else "repl_arm"].add(-1)
        p.steps += 1
        p.face = "back" if p.steps < p.max_steps else "front"
        match.emit("replaced", "IV.E.2", f"{p.id} regains a step ({p.steps})", unit=p.id, steps=p.steps)


def replaceable(match: Match) -> list[Piece]:
    """IV.E.2: reduced, Supplied units out of Japanese ZOC; for infantry, every unit of the
    battalion Supplied and out of ZOC too; and a Replacement Step of the unit's type left."""
    s = c.Situation.of(match)
    cache: dict[str, bool] = {}

    def ok(p: Piece) -> bool:
        return p.location not in s.zoc and c.is_supplied(match, p, s, cache)

    inf, arm = match.state.tracks["repl_inf"].value, match.state.tracks["repl_arm"].value
    out = []
    battalions: dict[str, list[Piece]] = {}  # each battalion's infantry on the island
    for q in c.marines(match, kind="infantry"):
        battalions.setdefault(c.battalion_key(q), []).append(q)
    for p in c.marines(match):
        if p.kind == "hq" or p.steps >= p.max_steps or not (inf if p.kind == "infantry" else arm):
            continue
        if not ok(p):
            continue
        if p.kind == "infantry":
            mates = battalions[c.battalion_key(p)]
            if not all(ok(q) for q in mates):
                continue
        out.append(p)
    return out


# -- IV.F ----------------------------------------------------------------------------------

def night_phase(match: Match) -> Procedure[None]:
    """IV.F.1: 1-5 infiltration by that many units; 6: roll again (-1 turns 7-14, -2 later),
    3 or less a Banzai Charge, more no effect. Entered again at a decision
    (``match.resumed``), the rolls made: the infiltration or the charge goes on."""
    args = c.resumed(match, NIGHT)
    if args is not None:
        if args["at"] == "infiltration":
            yield from infiltration(match, int(args["count"]), args)
        else:
            yield from banzai(match, args)
        return
    roll = c.d6(match, "night", "IV.F.1")
    if roll <= 5:
        yield from infiltration(match, roll)
        return
    turn = match.state.turn
    again = c.d6(match, "night (second roll)", "IV.F.1")
    mod = 1 if 7 <= turn <= 14 else 2 if turn > 14 else 0
    mods = [modifier("IV.F.1", "turns 7 to 14" if mod == 1 else "after turn 14", -mod)] if mod else []
    data: dict[str, Any] = {"roll": roll, "again": again, "modifiers": mods, "result": again - mod,
                            "banzai": again - mod <= 3}
    match.emit("night", "IV.F.1", f"night roll {data['roll']}, again {data['again']}"
               f"{', ' + modifiers_text(mods) if mods else ''} = {data['result']}: "
               f"{'Banzai Charge' if data['banzai'] else 'no effect'}", **data)
    if again - mod <= 3:
        yield from banzai(match)


def infiltration(match: Match, count: int, resume: dict[str, Any] | None = None) -> Procedure[None]:
    """IV.F.2, IX.D: pick that many Marine infantry units next to Japanese units, the most
    fatigued first (ties yours); each rolls 2d6 - Fatigue - 1 (an adjacent Japanese unit with
    more than 2 steps): 2 or less loses a step. A choice is asked again from the phase with
    the count and the units picked before it (``resume``: its args, nothing having changed
    since the phase's roll)."""
    s = c.Situation.of(match)
    pool = [p for p in c.marines(match, kind="infantry") if p.location in s.zoc]
    picked: list[Piece] = []
    if resume is not None:
        picked = [match.state.pieces[pid] for pid in resume["picked"]]
        pool = [p for p in pool if p.id not in resume["picked"]]
    while pool and len(picked) < count:
        top = max(c.unit_fatigue(match, p) for p in pool)
        tier = [p for p in pool if c.unit_fatigue(match, p) == top]
        room = count - len(picked)
        if len(tier) <= room:
            chosen = tier
        else:
            answer = yield from ask_str(c.asked_again(choose(
                c.US, f"Infiltration: which unit (fatigue {top}) is attacked?", "IV.F.2",
                [Option(p.id, f"{p.id} in {p.location}") for p in tier], kind="infiltration"),
                ResumePoint(NIGHT, {}), at="infiltration", count=count, picked=[p.id for p in picked]))
            chosen = [match.state.pieces[answer]]
        picked += chosen
        pool = [p for p in pool if p not in chosen]
    match.emit("night", "IV.F.2", f"Japanese infiltration: {len(picked)} unit(s) attacked",
               count=len(picked), rolled=count, units=[p.id for p in picked])
    for p in picked:
        strong = any(q.steps > 2 for h in c.components().map.passable_neighbor_ids(p.location)
                     for q in c.units_at(match, h, c.JAPAN))
        roll = c.roll_2d6(match, "infiltration", "IX.D")
        tired = c.unit_fatigue(match, p)
        mods = [modifier("IV.F.2", "fatigue", -tired)] if tired else []
        if strong:
            mods.append(modifier("IV.F.2", "adjacent Japanese unit of more than 2 steps", -1))
        result = roll + sum(int(m["value"]) for m in mods)
        lost = 1 if result <= 2 else 0
        match.emit("infiltration", "IV.F.2", f"infiltration against {p.id} in {p.location}: "
                   f"{c.modified_roll_text(roll, mods, result)}: "
                   f"{f'{lost} step lost' if lost else 'no effect'}",
                   unit=p.id, hex=p.location, roll=roll, modifiers=mods, result=result, steps=lost,
                   needed=2)
        c.marine_loses(match, p, lost, "IV.F.2")


def banzai(match: Match, resume: dict[str, Any] | None = None) -> Procedure[None]:
    """IV.F.3-6, IX.E: the Japanese unit with most steps next to a Marine infantry unit charges
    (best attack, then your choice); its target is the adjacent infantry it attacks best (then
    the most fatigued, then yours); the Marine unit fires first as against Class 1 at -3, no
    armour, if it is Supplied (VII: only Supplied units attack); then the survivor charges
    (step 6, reconstructed: OF/CP row, no modifiers). The choices are asked again from the
    phase (the state says all the first reads; the second names the charging unit);
    ``resume``: the args of the one the flow is entered again at."""
    s = c.Situation.of(match)
    cands: list[tuple[Piece, list[tuple[int, Piece]]]] = []
    for jp in c.japanese(match):
        targets = [q for h in c.components().map.passable_neighbor_ids(jp.location)
                   for q in c.units_at(match, h, c.US) if q.kind == "infantry"]
        if targets:
            scored = [(modified_strength(match, REGULAR, c.strength(jp), q.location, jp.location, s)[0], q)
                      for q in targets]
            cands.append((jp, scored))
    if not cands:
        match.emit("night", "IV.F.3", "no Japanese unit is next to a Marine infantry unit: no Banzai Charge")
        return
    most = max(jp.steps for jp, _ in cands)
    cands = [(jp, sc) for jp, sc in cands if jp.steps == most]
    best = max(max(v for v, _ in sc) for _, sc in cands)
    cands = [(jp, sc) for jp, sc in cands if max(v for v, _ in sc) == best]
    if resume is not None and resume["at"] == "banzai_target":
        jp, scored = next((j, sc) for j, sc in cands if j.id == resume["unit"])
    elif len(cands) == 1:
        jp, scored = cands[0]
    else:
        answer = yield from ask_str(c.asked_again(choose(
            c.US, "Banzai: which Japanese unit charges? (the choice is yours)", "IV.F.3",
            [Option(j.location, f"the unit in {j.location}") for j, _ in cands], kind="banzai"),
            ResumePoint(NIGHT, {}), at="banzai"))
        jp, scored = next((j, sc) for j, sc in cands if j.location == answer)
    if jp.hidden:
        jp.hidden = False
    top = [q for v, q in scored if v == best]
    fat = max(c.unit_fatigue(match, q) for q in top)
    top = [q for q in top if c.unit_fatigue(match, q) == fat]
    if len(top) == 1:
        target = top[0]
    else:
        answer = yield from ask_str(c.asked_again(choose(
            c.US, f"Banzai by {jp.id}: which Marine unit is charged? (the choice is yours)", "IV.F.4",
            [Option(q.id, q.id) for q in top], kind="banzai_target"),
            ResumePoint(NIGHT, {}), at="banzai_target", unit=jp.id))
        target = match.state.pieces[answer]
    match.emit("why_fire", "IV.F.3", f"BANZAI: {jp.id} in {jp.location} charges {target.id} in "
               f"{target.location} (most steps next to a Marine infantry unit)", unit=jp.id, at=jp.location,
               target=target.id, hex=target.location, steps=jp.steps)
    if not c.is_supplied(match, target):
        # VII: "Marine Infantry and Armour units must be Supplied in order to ... attack"
        match.emit("no_attack", "VII", f"{target.id} is not Supplied and cannot fire at the "
                   f"charging {jp.id}", unit=target.id, target=jp.id)
    else:
        # IV.F.5: Part VIII's attack read on the Class 1 row, -3, no armour
        result = attack_event(match, "IV.F.5", target, jp, jp.location, banzai=True,
                              purpose="Marine fire at the Banzai Charge", roll_section="IV.F.5")
        if result == "A":
            from .japanese_combat import ambush

            yield from ambush(match, jp, target, [])
        elif result != "-":
            c.japanese_loses(match, jp, int(result), "IV.F.5")
    if c.components().map.is_hex_id(jp.location) and c.on_island(target):
        steps = resolve(match, BANZAI, c.strength(jp),
                        fire_modifiers(match, BANZAI, target.location, jp.location, s), "IV.F.6",
                        target.location, jp.id, target.id)
        c.marine_loses(match, target, steps, "IV.F.6")


# -- IV.G ----------------------------------------------------------------------------------

def record_phase(match: Match) -> None:
    """IV.G.1-5: VP for Japanese units holding the lines, the B-29 roll, HQs recover."""
    jp = c.japanese(match)
    belt = {p.id: int(c.attr(p.location, "belt")) for p in jp}
    first = sum(1 for p in jp if belt[p.id] == 1)
    c.add_vp(match, first, "IV.G.1", f"{first} Japanese unit(s) in or south of the First Defensive Line",
             units=first)
    if match.state.turn > 6:
        second = sum(1 for p in jp if belt[p.id] <= 2)
        c.add_vp(match, second, "IV.G.2",
                 f"{second} Japanese unit(s) in or south of the Second Defensive Line", units=second)
    if match.state.turn > 14:
        north = sum(1 for p in jp if belt[p.id] == 3)
        c.add_vp(match, north, "IV.G.3", f"{north} Japanese unit(s) north of the Second Defensive Line",
                 units=north)
    south = [p for p in jp if belt[p.id] == 1 or (belt[p.id] == 2 and c.attr(p.location, "line") != 2
                                                   and p.location != "0629")]
    if south:
        roll = c.d6(match, "B-29s lost", "IV.G.4")
        c.add_vp(match, roll, "IV.G.4", "B-29s lost for want of a forward base", roll=roll,
                 bombers="B-29")
    s = c.Situation.of(match)
    for p in c.marines(match, kind="hq"):
        if c.is_disrupted(p) and not (p.location in s.zoc and not s.has_infantry(p.location)):
            p.face = "front"
            match.emit("recovered", "IV.G.5", f"{p.id} is no longer DISRUPTED", unit=p.id, hex=p.location)
