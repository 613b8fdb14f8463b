"""15.0 Japanese operations: redeployment (15.3, 15.4), Banzai attacks (15.5), and the
Japanese Movement Phase (5.1.5: 14.4 replacement, then 15.5).

Readings taken (docs/games/iwo_bonins.md, the Japanese side chapter, has the whole table):

- 15.3 substitutes. The redeploying unit goes into the container first; "two or more units
  in the container" counts it, so the blind draw of the substitute may give the redeploying
  unit itself back. With it alone in the container, dug-in units on the map are checked in
  16.2 (2)'s order (0213 upward), 1d6 each, until one is taken on 1-3; the two units are then
  drawn blindly, the first to the new hex, the second to the taken unit's hex. If every
  check fails, no substitute exists and the redeploying unit itself takes the new hex.
  Units in the Suribachi sector are never taken (17.0: none may redeploy to Suribachi).
- A DR finding no eligible hex (cleared sector, nothing within two hexes of a dug-in unit)
  leaves the unit in the container, "eliminated" (15.3, 9.2.1 note), whatever its type: an
  HQ or artillery unit forced to redeploy is in the container (14.4) and may come back.
- 17.0: a DR or DRIP against a unit in the Suribachi sector is NE; it stays, face up. This
  is :func:`redeploy`'s first check, so every caller (US combat, Banzai) gets it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType

from tabletop.core.board.movement import MoveCosts, Reach, reachable
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Option, ask_str, choose
from tabletop.core.engine.events import modifier, modifiers_text
from tabletop.core.engine.match import Flow, Match, Procedure
from tabletop.core.engine.pieces import Piece

from . import common as c
from . import japanese_units as ju
from .components import outcome_for, parse_outcome

KIND_SUBSTITUTE = "jp_substitute"
TAKE_TOP = 3  # 15.3: 1-3 on 1d6 takes a dug-in unit from the map


# -- 15.3, 15.4 redeployment ----------------------------------------------------------------

def redeploy(match: Match, piece: Piece, *, in_place: bool, section: str,
             resume: c.Resume | None = None, back: Mapping[str, JSON] | None = None) -> Flow:
    """15.3 (DR) / 15.4 (DRIP): redeploy a Japanese unit, with a substitute where the rule
    says; 17.0: on Suribachi a DR or DRIP is NE and the unit stays face up.

    ``section`` is the rule that called for it (9.2.1, 15.5...), quoted in the log. The
    two-player choices (18.4) are asked again from ``resume`` with the unit's hex and how
    the log names it (the unit is in the container by then) and the sector rolled; ``back``
    enters the procedure again there (a fork).
    """
    what = "DRIP" if in_place else "DR"
    if back is not None and "redeploy" in back:
        origin, who = str(back["origin"]), str(back["who"])
    else:
        back = None
        origin = piece.location
        who = ju.shown(piece)
        if not c.components().map.is_hex_id(origin):
            raise ValueError(f"15.3: {piece.id} is not on the map ({origin!r}) and cannot redeploy")
        if c.in_suribachi_sector(origin):
            ju.reveal(piece)
            ju.emit_japanese(match, "redeploy", "17.0", f"{what} ({section}) against {who} in the Suribachi "
                       f"sector ({origin}) is NE: the defender stays in the hex, face up",
                       piece=piece.id, hex=origin, result="NE", caller=section)
            return None
        ju.to_container(match, piece)
    at = None if resume is None else resume.then(origin=origin, who=who)
    if in_place:
        if ju.is_two_player(match):
            use = yield c.ask(at, choose(c.JAPAN, f"Redeploy in place at {origin}: draw a substitute?",
                                         "18.4", [Option(False, "No: the unit itself stays"),
                                                  Option(True, "Yes: draw a substitute (15.3)")],
                                         kind=KIND_SUBSTITUTE, private=True,
                                         context={"unit": piece.id, "hex": origin}),
                              redeploy="substitute")
            if not use:
                ju.place(match, piece, origin)
                ju.emit_japanese(match, "redeploy", "18.4", f"{who} redeploys in place at {origin} "
                                 f"({section}); the Japanese player takes no substitute",
                                 mask=f"the unit at {origin} redeploys in place ({section}); the "
                                 "Japanese player decides whether a substitute takes the hex",
                                 piece=piece.id, hex=origin, in_place=True, caller=section)
                return None
        _fill(match, piece, origin, origin, section, "15.4",
              f"redeploys in place at {origin}", who)
        return None
    sector = int(back["redeploy_sector"]) if back is not None else \
        ju.roll_sector(match, section="15.3", purpose=f"redeployment sector ({origin})")
    # 15.3: the unit "will move to a new hex": its own hex, empty now, is not one.
    hexes = [] if c.is_sector_cleared(match, sector) else \
        [h for h in ju.eligible_hexes(match, sector) if h != origin]
    if not hexes:
        why = "is cleared" if c.is_sector_cleared(match, sector) else \
            "has no unoccupied deployment hex within two hexes of a dug-in unit"
        ju.emit_japanese(match, "redeploy", "15.3", f"{who} must redeploy ({section}): sector {sector} "
                   f"(rolled) {why}, so it remains eliminated in the container",
                   piece=piece.id, sector=sector, hex=None, caller=section, origin=origin)
        return None
    target, why = yield from ju.choose_placement(
        match, hexes, section="15.3", what="the redeploying unit",
        resume=None if at is None else at.then(redeploy="place", redeploy_sector=sector))
    _fill(match, piece, target, origin, section, "15.3",
          f"redeploys to {target} in sector {sector} (rolled; {why})", who,
          sector=sector, **ju.placement_numbers(match, hexes))
    return None


def _fill(match: Match, piece: Piece, target: str, origin: str, caller: str, rule: str,
          how: str, who: str, **numbers: JSON) -> None:
    """15.3: put a unit of the container on ``target``: a blind substitute when the
    container holds two or more units; otherwise another dug-in unit may be taken from the
    map (16.2 (2) order, 1-3 on 1d6) and the two drawn blindly for the two hexes."""
    if len(ju.container_units(match)) >= 2:
        sub = ju.draw_blind(match, purpose=f"blind substitute for {target}", section="15.3")
        assert sub is not None
        ju.place(match, sub, target)
        same = sub.id == piece.id
        blind = f"{how} ({caller}): a blind substitute from the container takes the hex"
        ju.emit_japanese(match, "redeploy", rule,
                         f"{who} {blind}" + (" (it drew the unit itself)" if same else ""),
                         mask=f"the unit from {origin} {blind}", piece=piece.id, substitute=sub.id,
                         hex=target, origin=origin, caller=caller, **numbers)
        return None
    taken = _take_from_map(match, exclude={target})
    if taken is None:
        ju.place(match, piece, target)
        alone = (f"{how} ({caller}): it is alone in the container and no dug-in unit was taken "
                 f"from the map (every check rolled {TAKE_TOP + 1}-6), so the unit itself takes the hex")
        ju.emit_japanese(match, "redeploy", rule, f"{who} {alone}", mask=f"the unit from {origin} {alone}",
                         piece=piece.id, substitute=piece.id, hex=target, origin=origin,
                         caller=caller, misses=[TAKE_TOP + 1, 6], **numbers)
        return None
    second_hex = taken.location
    ju.to_container(match, taken)
    first = ju.draw_blind(match, purpose=f"blind draw for {target}", section="15.3")
    assert first is not None
    other = taken if first.id == piece.id else piece
    ju.place(match, first, target)
    ju.place(match, other, second_hex)
    swap = (f"{how} ({caller}): it was alone in the container, so the dug-in unit at {second_hex} "
            f"was taken (16.2 (2) order, 1-{TAKE_TOP}); drawn blindly, one goes to {target} and the other "
            f"back to {second_hex}")
    ju.emit_japanese(match, "redeploy", rule, f"{who} {swap}", mask=f"the unit from {origin} {swap}",
                     piece=piece.id, substitute=first.id, hex=target, origin=origin,
                     taken=taken.id, taken_hex=second_hex, caller=caller, order="16.2 (2)",
                     takes=[1, TAKE_TOP], **numbers)
    return None


def _take_from_map(match: Match, *, exclude: set[str]) -> Piece | None:
    """15.3: check the dug-in Japanese units in 16.2 (2)'s order (0213 upward), 1d6 each,
    taking the first that rolls 1-3; Suribachi's sector is never drawn on (17.0)."""
    for hid in ascending_land_hexes():
        if hid in exclude or c.in_suribachi_sector(hid):
            continue
        for p in c.units_at(match, hid, c.JAPAN):
            if not c.is_dug_in(p):
                continue
            roll = match.dice.d6(purpose=f"15.3 substitute check of the dug-in unit at {hid}",
                                 section="15.3")
            if roll <= TAKE_TOP:
                return p
    return None


def ascending_land_hexes() -> list[str]:
    """16.2 (2): the land hexes from 0213 toward higher-numbered hexes."""
    return sorted(c.components().hex_attrs)


# -- 5.1.5 the Japanese Movement Phase -------------------------------------------------------

def japanese_movement_phase(match: Match, *,
                            player_moves: Callable[..., Procedure[None]] | None = None) -> Flow:
    """5.1.5, 15.1: a) place one replacement (14.4, 14.5); b) Banzai attacks (15.5, 18.6) —
    in the solitaire game the only Japanese moves and attacks besides redeployment (15.1); in the
    two-player game the Japanese player then moves units and tries tunnels (18.2, 18.2.1):
    ``player_moves`` is that procedure (``two_player.japanese_movement``, taking ``resume``
    and ``back`` as the others here do), passed in by the plugin so that this chapter does
    not import the 18.0 chapter built on it.

    Every decision may be asked again (a fork): its resume point's ``step`` names the part
    of the phase it is in, whose procedure goes back to it."""
    back = match.resumed("jp_move")
    here = c.Resume("jp_move")
    step = c.back_at(back, "step")
    if step in (None, "replacement"):
        yield from ju.replacement(match, resume=here.then(step="replacement"), back=back)
    if step in (None, "replacement", "banzai"):
        yield from banzai_attacks(match, resume=here.then(step="banzai"),
                                  back=back if step == "banzai" else None)
    if player_moves is not None and ju.is_two_player(match):
        yield from player_moves(match, resume=here.then(step="moves"),
                                back=back if step == "moves" else None)
    return None


# -- 15.5 Banzai attacks ---------------------------------------------------------------------

#: 15.5 step 4: a unit is eligible to be checked when it is "within 4 MP of a US unit".
BANZAI_REACH_MP = 4
BANZAI_SHIFT = 2  # 15.5 step 3: two columns rightward


@cache
def japanese_costs() -> MoveCosts:
    """6.4: the MP to enter each terrain (hills ignored); sea is never entered."""
    comp = c.components()
    return MoveCosts.from_terrain(comp.map, {name: eff.mp for name, eff in comp.terrain.terrain.items()})


def movement_allowance(match: Match, piece: Piece) -> int:
    """6.1, 5.1.7c: the printed MA, halved (rounded down) in a Storm turn's Japanese Movement
    Phase."""
    ma = c.printed(piece, "movement")
    return ma // 2 if match.state.vars.get(c.V_WEATHER) == "Storm" else ma


def reach(match: Match, piece: Piece, allowance: float) -> Reach:
    """6.0, 7.1: where a Japanese unit may end a move: never into a US unit, stopping on
    entering a US ZOC, never straight from one US ZOC hex to another; no stacking (6.3a)."""
    comp = c.components()
    us = c.hexes_of(match, c.US)
    occupied = {comp.map.hex(p.location) for p in c.units(match, c.JAPAN)}
    return reachable(comp.map, comp.map.hex(piece.location), allowance, japanese_costs(),
                     enemy=us, ezoc=c.zoc_of(match, c.US), zoc_to_zoc=False,
                     can_end=lambda h: h not in occupied)


def _adjacent_us_hexes(match: Match, hex_id: str) -> list[str]:
    comp = c.components()
    return sorted(comp.map.label(n) for n in comp.map.neighbors(comp.map.hex(hex_id))
                  if c.units_at(match, comp.map.label(n), c.US))


def _within_reach(match: Match, piece: Piece, us_hexes: set[str]) -> bool:
    """15.5 step 4: within 4 MP of (adjacent to, after at most 4 MP) a US unit."""
    comp = c.components()
    targets = {n for hid in us_hexes for n in comp.map.neighbors(comp.map.hex(hid))}
    if comp.map.hex(piece.location) in targets:
        return True
    return any(h in targets for h in reach(match, piece, BANZAI_REACH_MP))


def banzai_candidate(match: Match, sector: int,
                     checked: set[str]) -> tuple[Piece, list[str], dict[str, JSON]] | None:
    """15.5 step 2: the Japanese unit in the sector closest to a US unit in the sector (a die
    among equidistant units), among those not yet checked and within 4 MP of a US unit.
    Returns (unit, the nearest US hexes (ties included), why: the numbers of the choice,
    :func:`closest_text`) or None."""
    comp = c.components()
    us_hexes = {p.location for p in c.units(match, c.US) if c.sector_of(p.location) == sector}
    if not us_hexes:
        return None
    us = [comp.map.hex(h) for h in sorted(us_hexes)]
    ranked: list[tuple[int, Piece]] = []
    for p in c.units(match, c.JAPAN):
        if c.sector_of(p.location) != sector or p.id in checked or p.location in checked:
            continue
        if not _within_reach(match, p, us_hexes):
            continue
        d = c.distance_to(p.location, us)
        assert d is not None
        ranked.append((d, p))
    if not ranked:
        return None
    best = min(d for d, _ in ranked)
    tied = sorted((p for d, p in ranked if d == best), key=lambda p: p.location)
    if len(tied) == 1:
        chosen = tied[0]
    else:
        chosen = match.dice.choose(tied, purpose=f"Banzai unit among {len(tied)} equidistant",
                                   section="15.5")
    nearest = sorted(h for h in us_hexes
                     if c.distance_to(h, [comp.map.hex(chosen.location)]) == best)
    return chosen, nearest, {"hex": chosen.location, "sector": sector, "distance": best,
                             "tied": len(tied)}


def closest_text(why: Mapping[str, JSON]) -> str:
    """15.5 step 2: why a unit was chosen to check, from :func:`banzai_candidate`'s numbers."""
    best, tied = why["distance"], why["tied"]
    how = "the only one" if tied == 1 else f"a die among {tied} equidistant units"
    return (f"the unit at {why['hex']} is the closest to a US unit in sector {why['sector']} "
            f"({best} hex{'es' if best != 1 else ''}; {how})")


def banzai_attacks(match: Match, *, resume: c.Resume | None = None,
                   back: Mapping[str, JSON] | None = None) -> Procedure[None]:
    """15.5: after Suribachi is cleared, roll three dice: an attack if the first is at most
    the number of cleared sectors, in the sector of the second, checking at most as many
    units as the third (steps 2-4). Entered again (``back``, a fork) at the unit being
    checked, from the sector, the units to check, those checked and the count."""
    if back is not None:
        sector, most, count = int(back["sector"]), int(back["most"]), int(back["count"])
        checked = {str(x) for x in back["checked"]}
        unit = str(back["unit"])
        yield from banzai_unit(match, match.state.pieces[unit], [], {}, count, resume=None if resume is None
                               else resume.then(sector=sector, most=most, checked=sorted(checked),
                                                count=count, unit=unit), back=back)
        yield from _banzai_checks(match, sector, most, checked, count, resume=resume)
        return None
    if not match.state.vars[c.V_SURIBACHI]:
        return None
    cleared = len(match.state.vars[c.V_CLEARED])
    first, sector, most = match.dice.roll(3, purpose="15.5 Banzai: attack?, sector, units to check",
                                          section="15.5")
    if first > cleared:
        ju.emit_japanese(match, "banzai", "15.5", f"no Banzai attack: first die {first} is more than the "
                   f"{cleared} cleared sector(s)", dice=[first, sector, most], cleared=cleared)
        return None
    if not any(c.sector_of(p.location) == sector for p in c.units(match, c.JAPAN)):
        ju.emit_japanese(match, "banzai", "15.5", f"no Banzai attack: first die {first} called one (<= "
                   f"{cleared} cleared), but sector {sector} holds no Japanese unit",
                   dice=[first, sector, most], cleared=cleared, sector=sector)
        return None
    ju.emit_japanese(match, "banzai", "15.5", f"Banzai! first die {first} <= {cleared} cleared sector(s): "
               f"up to {most} unit(s) of sector {sector} are checked", dice=[first, sector, most],
               sector=sector, cleared=cleared, most=most)
    yield from _banzai_checks(match, sector, most, set(), 0, resume=resume)
    return None


def _banzai_checks(match: Match, sector: int, most: int, checked: set[str], count: int, *,
                   resume: c.Resume | None) -> Procedure[None]:
    """15.5 steps 2-4: check the units of the sector one at a time, ``count`` of ``most``
    checked already (their ids and hexes in ``checked``)."""
    while count < most:
        found = banzai_candidate(match, sector, checked)
        if found is None:
            ju.emit_japanese(match, "banzai", "15.5", f"step 4: no more Japanese units in sector {sector} "
                       f"eligible to check (after {count} of {most})", sector=sector,
                       count=count, most=most, step=4)
            break
        piece, nearest, why = found
        count += 1
        checked.update({piece.id, piece.location})
        yield from banzai_unit(match, piece, nearest, why, count,
                               resume=None if resume is None else resume.then(
                                   sector=sector, most=most, checked=sorted(checked), count=count,
                                   unit=piece.id))
    return None


def banzai_unit(match: Match, piece: Piece, nearest: list[str], why: Mapping[str, JSON],
                count: int, *, resume: c.Resume | None = None,
                back: Mapping[str, JSON] | None = None) -> Procedure[None]:
    """15.5 step 2: flip the unit; a zero attack or movement factor, or too few MP to get
    adjacent to the US unit, redeploys it in place (15.4); otherwise it moves adjacent and
    attacks (step 3). Entered again (``back``, a fork) within its redeployment or its
    attack, as the args' ``banzai`` says."""
    stage = c.back_at(back, "banzai")
    if stage == "redeploy":
        yield from redeploy(match, piece, in_place=True, section="15.5", resume=resume, back=back)
        return None
    if stage == "combat":
        yield from banzai_combat(match, piece, resume=resume, back=back)
        return None
    ju.reveal(piece)
    start = piece.location
    ju.emit_japanese(match, "banzai_flip", "15.5",
                     f"Banzai check {count}: {piece.id} is flipped: {closest_text(why)}",
                     piece=piece.id, hex=start, nearest=nearest, revealed=piece.id, count=count,
                     sector=why["sector"], distance=why["distance"], tied=why["tied"])
    if not (ju.can_attack(piece) and ju.can_move(piece)):
        ju.emit_japanese(match, "banzai", "15.5", f"{piece.id} has a zero attack or movement factor (14.3): "
                   "it redeploys in place (15.4)", piece=piece.id, rules=["14.3", "15.4"])
        yield from redeploy(match, piece, in_place=True, section="15.5",
                            resume=None if resume is None else resume.then(banzai="redeploy"))
        return None
    if not _adjacent_us_hexes(match, start):
        comp = c.components()
        ma = movement_allowance(match, piece)
        goal = {comp.map.label(n) for hid in nearest for n in comp.map.neighbors(comp.map.hex(hid))}
        r = reach(match, piece, ma)
        ends = [comp.map.label(h) for h in r if comp.map.label(h) in goal]
        if not ends:
            ju.emit_japanese(match, "banzai", "15.5", f"{piece.id} ({ma} MP) cannot move adjacent to the US "
                       f"unit at {' or '.join(nearest)}: it redeploys in place at {start} (15.4)",
                       piece=piece.id, mp=ma, nearest=nearest, hex=start, rules=["15.4"])
            yield from redeploy(match, piece, in_place=True, section="15.5",
                                resume=None if resume is None else resume.then(banzai="redeploy"))
            return None
        cheapest = min(r.cost(comp.map.hex(h)) for h in ends)
        best = sorted(h for h in ends if r.cost(comp.map.hex(h)) == cheapest)
        dest = match.dice.choose(best, purpose="Banzai move among equally cheap hexes", section="15.5")
        match.state.pieces.move(piece.id, dest)
        ju.emit_japanese(match, "banzai_move", "15.5", f"{piece.id} moves {start} -> {dest} ({cheapest:g} of "
                   f"{ma} MP) adjacent to the US unit at {' or '.join(nearest)}", piece=piece.id, frm=start,
                   to=dest, mp=ma, cost=cheapest, nearest=nearest)
    yield from banzai_combat(match, piece, resume=resume)
    return None


def banzai_combat(match: Match, piece: Piece, *, resume: c.Resume | None = None,
                  back: Mapping[str, JSON] | None = None) -> Procedure[None]:
    """15.5 step 3: attack an adjacent US unit (a die among several adjacent hexes), two
    columns right on its terrain line, read on the CRMT Regular column (or "Banzai 15.5" by
    the option); the Banzai unit is eliminated whatever the result. The US player's choices
    are asked again from ``resume`` with the target, its defenders, the result and the
    effect reached; ``back`` enters the procedure again there (a fork)."""
    comp = c.components()
    column = "Regular" if match.options.get("banzai_crmt", "regular") == "regular" else "Banzai 15.5"
    if back is not None:
        target = str(back["target"])
        defenders = [match.state.pieces[str(i)] for i in back["defenders"]]
        result, second = str(back["crt"]), back["second"]
        cell = comp.tables["crmt"].lookup(column, result)
        yield from _banzai_effects(match, piece, target, defenders, result, cell, second,
                                   resume=resume, back=back)
        return None
    hexes = _adjacent_us_hexes(match, piece.location)
    target = hexes[0] if len(hexes) == 1 else match.dice.choose(
        hexes, purpose="Banzai defender among adjacent US units", section="15.5")
    beach = target in c.landing_beach_hexes(match)
    stack = c.units_at(match, target, c.US)
    defenders = stack[:1] if beach else stack  # 11.3: on a landing beach only the top unit
    attack = c.printed(piece, "attack")
    defense = sum(c.printed(p, "defense") for p in defenders)
    line = c.crt_line(target)
    roll = match.dice.d6(purpose="CRT (Banzai)", section="15.5")
    result = comp.tables["crt"].lookup(attack - defense, roll, line=line, shift=BANZAI_SHIFT)
    cell = comp.tables["crmt"].lookup(column, result)
    second = None if len(parse_outcome(cell)) == 1 else \
        match.dice.d6(purpose="CRMT (Banzai)", section="9.2.3")
    fight: dict[str, JSON] = {
        "piece": piece.id, "attack": attack, "defenders": [p.id for p in defenders],
        "defense": defense, "hex": target, "differential": attack - defense, "line": line,
        "modifiers": [modifier("15.5", "Banzai, columns right", BANZAI_SHIFT),
                      *c.line_modifiers(line)],
        "roll": roll, "result": result, "column": column, "cell": cell, "second": second}
    ju.emit_japanese(match, "banzai_attack", "15.5", banzai_text(fight), **fight)
    yield from _banzai_effects(match, piece, target, defenders, result, cell, second, resume=resume)
    return None


def banzai_text(fight: Mapping[str, JSON]) -> str:
    """15.5 step 3: a Banzai attack's log text, made from its event's data."""
    mods = fight["modifiers"]
    assert isinstance(mods, list) and isinstance(fight["defenders"], list)
    return (f"{fight['piece']} ({fight['attack']}) attacks {'+'.join(map(str, fight['defenders']))} "
            f"({fight['defense']}) at {fight['hex']}: differential {fight['differential']:+d} on "
            f"the {fight['line']} line ({modifiers_text(m for m in mods if isinstance(m, dict))}), "
            f"roll {fight['roll']}: {fight['result']}; CRMT {fight['column']}: {fight['cell']}"
            + (f", roll {fight['second']}" if fight["second"] is not None else ""))


def _banzai_effects(match: Match, piece: Piece, target: str, defenders: list[Piece], result: str,
                    cell: str, second: JSON, *, resume: c.Resume | None,
                    back: Mapping[str, JSON] | None = None) -> Procedure[None]:
    """15.5 step 3, 9.2.3: a Banzai attack's effects in order (from the effect ``back``
    names, a fork), then the Banzai unit's end."""
    branch = parse_outcome(cell)[0] if second is None else outcome_for(cell, int(second))
    for term_no in range(int(back["term"]) if back is not None else 0, len(branch.terms)):
        term = branch.terms[term_no]
        at = None if resume is None else resume.then(
            banzai="combat", target=target, defenders=[p.id for p in defenders], crt=result,
            second=second, term=term_no)
        effect = term[0]
        if back is not None and "effect" in back:
            effect = str(back["effect"])
        elif len(term) > 1:
            effect = (yield from ask_str(c.ask(at, choose(
                c.US, f"Banzai {result} at {target}: retreat or take a step loss?", "9.2.3",
                [Option(e, _EFFECT_LABEL.get(e, e)) for e in term],
                kind="banzai_result", context={"hex": target}))))
        back = None
        yield from apply_defender_effect(match, effect, target, defenders,
                                         resume=None if at is None else at.then(effect=effect))
    if c.components().map.is_hex_id(piece.location):
        c.eliminate_jp(match, piece, "15.5", "a Banzai unit is eliminated whatever the result")
    return None


_EFFECT_LABEL = MappingProxyType({"D2": "Retreat two hexes (9.3)", "D3": "Retreat three hexes (9.3)",
                 "(D)": "Take a step loss"})


def apply_defender_effect(match: Match, effect: str, target: str, defenders: list[Piece], *,
                          resume: c.Resume | None = None) -> Procedure[None]:
    """9.2.3: De eliminates every defending unit, full strength or not; D2/D3 retreat the
    stack (a step loss if it cannot, 9.3); (D) one step (the US player picks the unit of a
    stack); Ae is the Banzai unit's own end, applied last. The choices are asked again from
    ``resume`` (a fork: nothing changes before them)."""
    alive = [p for p in defenders if p.location == target]
    if effect == "De":
        for p in alive:
            c.eliminate_us(match, p, "15.5", "Banzai De eliminates the defender even at full strength")
    elif effect in ("D2", "D3"):
        group = c.stack_group(match, alive[0]) if alive else []
        if group:
            yield from c.retreat(match, group, int(effect[1]), "9.2.3", resume=resume)
    elif effect == "(D)" and alive:
        victim = alive[0]
        if len(alive) > 1:
            pick = yield from ask_str(c.ask(resume, choose(
                c.US, f"Banzai step loss at {target}: which unit?", "9.2.3",
                [Option(p.id, p.id) for p in alive], kind="step_loss", context={"hex": target})))
            victim = match.state.pieces[pick]
        c.us_step_loss(match, victim, "9.2.3", "Banzai result")
    return None
