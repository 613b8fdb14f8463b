"""7.0 US replacements and reinforcements: from turn 2 one unit back from the dead pile for each
division and for XIV Corps (7.2), placed atop a unit of its organisation not next to a Japanese
unit, or forfeit (7.3), at once fully capable (7.4); the six air units from turn 3 (7.1, 7.5).
"""

from __future__ import annotations

from tabletop.core.engine.decisions import Option, ResumePoint, ask_str, choose
from tabletop.core.engine.match import Match, Procedure

from . import common as c
from .components import JAPAN, ORG_NAMES, ORGS, US, components


def reinforcement_phase(match: Match) -> Procedure[None]:
    """5.2 I.A: the air units arrive on turn 3 (7.5); replacements from turn 2 (7.2-7.4).

    Entered again at a replacement decision (``match.resumed``: the organisation, and the
    unit once picked), it goes straight back to it: the organisations before it are done,
    the air units already here."""
    phase = "us_reinforce"
    back = match.resumed(phase)
    orgs: tuple[str, ...] = ORGS
    if back is None:
        match.state.vars[c.V_AIR_USED] = []  # 10.23: once per game turn
        if match.state.turn == c.AIR_TURN:
            for p in match.state.pieces.at(c.AIR_LATER):
                match.state.pieces.move(p.id, c.AIR_READY)
            air = [p.id for p in match.state.pieces.at(c.AIR_READY)]
            c.say(match, "reinforcements", "7.5", "the {count} US combat air support units are "
                  "available", units=air, count=len(air))
        if match.state.turn < 2:
            return
    else:
        orgs = ORGS[ORGS.index(back["org"]):]
    for org in orgs:
        dead = [p for p in match.state.pieces.at(c.US_DEAD) if c.org(p) == org]
        if not dead:
            continue  # 7.2: forfeit, never carried over
        hosts = sorted({p.location for p in c.units_on_map(match, US) if c.org(p) == org
                        and not any(JAPAN in c.sides_present(match, n)
                                    for n in components().hexmap.neighbor_ids(p.location))})
        hosts = [h for h in hosts if c.can_stack(match, dead[0], h)]
        if not hosts:
            c.say(match, "replacement", "7.3", "{organisation}: no unit to receive a replacement; "
                  "forfeit", org=org, organisation=ORG_NAMES[org])
            continue
        if back is not None and "unit" in back:
            pick = str(back["unit"])  # the replacement is picked: back to where it goes
        else:
            opts = [Option("none", "no replacement")] + [Option(p.id, p.name) for p in dead]
            pick = yield from ask_str(choose(US, f"7.2: {ORG_NAMES[org]} replacement?", "7.2", opts,
                                             kind="replacement_unit",
                                             resume=ResumePoint(phase, {"org": org})))
        back = None
        if pick == "none":
            continue
        piece = match.state.pieces[pick]
        spots = [h for h in hosts if c.can_stack(match, piece, h)]
        if not spots:
            continue
        where = yield from ask_str(choose(
            US, f"7.3: place {piece.name} atop", "7.3", spots, kind="replacement_hex",
            resume=ResumePoint(phase, {"org": org, "unit": piece.id})))
        match.state.pieces.move(piece.id, where, top=True)
        c.say(match, "replacement", "7.3", "{name} returns in {to}", unit=piece.id, name=piece.name,
              org=org, to=where)
