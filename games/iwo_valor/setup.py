"""III How to Set Up, and the set-ups of the scenarios of XI.

:func:`build` puts every piece in its box and the Japanese face-down on their deployment
hexes (III.3, no decision: the mix is the dice's); :func:`opening` is the part the player
decides - the beach and the two waves (III.4) or a scenario's own set-up - followed by the
pre-invasion bombardment (III.5-6).
"""

from __future__ import annotations

from typing import Any

from tabletop.core.engine.decisions import Option, ask_str, choose, resumable
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.text import ordinal
from tabletop.core.engine.trackgroups import create_family

from . import common as c
from .components import AREAS


def build(match: Match) -> None:
    """II, III.1-3 (Part III's set-up): the map laid out, the pieces sorted by side and kind,
    the tracks, and the Japanese face-down in their areas."""
    comp = c.components()
    scenario = match.scenario
    state = match.state
    turns = comp.scenarios.turns.of(scenario)  # XI
    lo, hi = comp.tracks.ranges["vp"]
    state.track("vp", 0, lo, hi, section="X")
    state.track("support", 0, *comp.tracks.ranges["support"], section="IV.A.1")
    state.track("repl_inf", 0, *comp.tracks.ranges["replacements"], section="IV.E")
    state.track("repl_arm", 0, *comp.tracks.ranges["replacements"], section="IV.E")
    create_family(state, c.FATIGUE, [r for _, r in comp.regiments()], 0, *comp.tracks.ranges["fatigue"],
                  section="IV.D")
    state.vars.update({
        c.V_SCENARIO: scenario, c.V_BEACH: None, c.V_LANDED: [], c.V_IND: None, c.V_CLASS1: [],
        c.V_FLAG_TURN: None, c.V_STRUCK: [], c.V_FIRST_TURN: turns.first,
        c.V_LAST_TURN: turns.last, c.V_FRACTIONS: {}, c.V_DEBT: 0, c.V_PAYING: 0,
        **{k: empty() for k, empty in c.PHASE_VARS.items()},
    })
    narrow, short = comp.scenarios.narrow, comp.scenarios.very_short
    if scenario == c.NARROW:
        state.vars["narrow_areas"] = list(narrow.areas)
    pieces = state.pieces
    for u in comp.marines:
        # strengths as a tuple: they never change, so the views show the status as it is
        attrs: dict[str, Any] = {"division": u.division, "entry": u.entry, "strengths": tuple(u.strengths)}
        if u.kind == "infantry":
            attrs.update(regiment=u.regiment, battalion=u.battalion)
        values = {"front": {"strength": u.strengths[-1]}} if u.strengths else {}
        where = c.AVAILABLE
        if scenario == c.NARROW and u.division != narrow.division:
            where = c.OUT_OF_PLAY
        if scenario == c.VERY_SHORT and u.regiment != short.regiment:
            where = c.OUT_OF_PLAY
        pieces.add(Piece(u.id, u.kind, c.US, u.id, where, steps=u.steps, max_steps=u.steps,
                         values=values, attrs=attrs))
    for mid, (name, count) in comp.sheet.markers.items():
        for n in range(1, count + 1):
            pieces.add(Piece(mid if count == 1 else f"{mid}-{n}", "marker", "", name, c.MARKERS))
    for _, reg in comp.regiments():
        pieces.add(Piece(f"fatigue-{reg}", "marker", "", f"Fatigue {ordinal(reg)} Marines", c.MARKERS))
    groups: dict[str, list[str]] = {code: [] for code in (*AREAS, "R")}
    for j in comp.sheet.japanese:
        pieces.add(Piece(j.id, "japanese", c.JAPAN, j.id, c.OUT_OF_PLAY, steps=len(j.strengths),
                         max_steps=len(j.strengths), values={"front": {"strength": j.strengths[-1]}},
                         hidden=True,
                         attrs={"type": j.type, "code": j.code, "strengths": tuple(j.strengths)}))
        groups[j.code].append(j.id)
    if scenario == c.VERY_SHORT:
        for jid, hid in short.units.items():
            pieces.move(jid, hid)
        match.emit("setup", "XI.C", "the Very Short Game: three Japanese units on Suribachi, face-down")
        return
    wanted = narrow.areas if scenario == c.NARROW else (*AREAS, "R")
    for code in wanted:
        units = groups[code]
        match.dice.shuffle(units, purpose=f"mix the face-down {code} units", section="III.3")
        hexes = sorted(comp.hexes_where("deploy", code))
        for jid, hid in zip(units, hexes, strict=True):
            pieces.move(jid, hid)
        match.emit("setup", "III.3", f"{len(units)} Japanese units of area {code} placed face-down, "
                   f"one in each of its deployment hexes", area=code, count=len(units),
                   hexes=hexes[:len(units)])
    if scenario == c.NARROW:
        for hid in narrow.removed:  # XI.C: cleared by the 5th Division
            jp = c.units_at(match, hid, c.JAPAN)
            for p in jp:
                pieces.move(p.id, c.OUT_OF_PLAY)
        match.emit("setup", "XI.C", f"the Japanese units in {', '.join(narrow.removed)} are removed",
                   hexes=list(narrow.removed))


def opening(match: Match, resumed: bool = False) -> Procedure[None]:
    """III.4-6 (or the scenario's own set-up of XI.C). ``resumed``: the flow is entered again
    at one of its decisions (:data:`~common.OPENING`), the state saying which: no beach
    chosen yet, else the units still to place (those still available)."""
    scenario = match.scenario
    if scenario == c.VERY_SHORT:
        yield from very_short_setup(match, resumed)
        return
    if scenario == c.NARROW:
        yield from narrow_setup(match, resumed)
        bombardment(match)
        return
    beach = match.state.vars[c.V_BEACH] if resumed else None
    if beach is None:
        beach = yield from choose_beach(match)
    yield from waves(match, beach)
    bombardment(match)


def choose_beach(match: Match) -> Procedure[str]:
    """III.4: the Marines assault one beach; the choice is final."""
    names = c.components().scenarios.beaches
    beach = yield from ask_str(resumable(choose(c.US, "Which beach do the Marines assault?", "III.4",
                                                [Option(b, names[b]) for b in names], kind="beach"),
                                         c.OPENING))
    match.state.vars[c.V_BEACH] = beach
    match.emit("beach", "III.4", f"the Marines will assault the {names[beach]}", beach=beach)
    return beach


def waves(match: Match, beach: str) -> Procedure[None]:
    """III.4: the units marked "1" go to the first wave (on the beach hexes, one a hex) or the
    second (on the Second Wave hexes, one a hex), so no wave is larger than the beach. The
    first wave rolls its landing losses as it is placed (IV.B.2: "as each unit is placed in a
    Beach Hex"). The units still to place are those still available: each decision is asked
    again from the state."""
    from .movement import landing_roll

    comp = c.components()
    beach_hexes = comp.hexes_where("beach", beach)
    wave_hexes = comp.hexes_where("second_wave", beach)
    first = sorted((p for p in match.state.pieces if p.side == c.US and p.location == c.AVAILABLE
                    and int(p.attrs["entry"]) == 1), key=lambda p: p.id)
    for unit in first:
        free = [h for h in beach_hexes + wave_hexes if not match.state.pieces.count_at(h)
                or all(q.side != c.US for q in match.state.pieces.at(h))]
        options = [Option(h, f"{h}: {'first wave (beach)' if h in beach_hexes else 'second wave'}")
                   for h in sorted(free)]
        answer = yield from ask_str(resumable(choose(
            c.US, f"Place {unit.id} in which wave hex?", "III.4", options, kind="wave",
            context={"unit": unit.id}), c.OPENING))
        hid = answer
        match.state.pieces.move(unit.id, hid)
        unit.attrs["landed"] = 1
        if hid in beach_hexes:
            if hid not in match.state.vars[c.V_LANDED]:
                match.state.vars[c.V_LANDED].append(hid)
                match.state.vars[c.V_LANDED].sort()
            landing_roll(match, unit, hid)
            if c.on_island(unit):
                c.reveal_around(match, hid)


def bombardment(match: Match) -> None:
    """III.5-6: the pre-invasion bombardment: 2d6 for each Japanese unit in a Class 1 position
    (6 or less: a step lost), then each in a Class 2 (4 or less: the hex becomes Class 1)."""
    for cls, section in ((1, "III.5"), (2, "III.6")):
        for p in sorted(c.japanese(match), key=lambda p: p.location):
            if c.position_class(match, p.location) != cls:
                continue
            roll = c.roll_2d6(match, f"pre-invasion bombardment (Class {cls})", section)
            if cls == 1 and roll <= 6:
                c.japanese_loses(match, p, 1, section)
            elif cls == 2 and roll <= 4:
                match.state.vars[c.V_CLASS1].append(p.location)
                match.emit("class1", section, f"the position in {p.location} is reduced to Class 1",
                           hex=p.location, roll=roll, position_class=1)
    match.state.vars[c.V_CLASS1].sort()


def _place(match: Match, units: list[Piece], hexes: list[str], section: str, prompt: str,
           stacking: bool) -> Procedure[None]:
    """XI.C: set up each unit in turn on a hex of ``hexes`` (no Japanese unit; with
    ``stacking``, V.M's limit); the units still to place are those still available, so each
    decision is asked again from the state."""
    from .movement import can_stack

    for unit in units:
        s = c.Situation.of(match)
        free = [h for h in hexes if h not in s.jp and (not stacking or can_stack(match, unit, h, s))]
        answer = yield from ask_str(resumable(choose(
            c.US, prompt.format(unit=unit.id), section, [Option(h, h) for h in sorted(free)], kind="setup",
            context={"unit": unit.id}), c.OPENING))
        match.state.pieces.move(unit.id, answer)
        unit.attrs["landed"] = match.state.turn
        c.reveal_around(match, answer, "III.3")


def narrow_setup(match: Match, resumed: bool = False) -> Procedure[None]:
    """XI.C The Narrow Game: the 4th Division in the Southern area, 0620-1018 and south
    (``resumed``: the turn and beach already set, some units already placed)."""
    comp = c.components()
    if not resumed:
        match.state.turn = 4
        match.state.vars[c.V_LANDED] = sorted(h for h in comp.hexes_where("beach", "minami")
                                              if c.attr(h, "area") == "S")
        match.state.vars[c.V_BEACH] = "minami"
    hexes = sorted(comp.hexes_where("narrow_setup", True))
    units = sorted((p for p in match.state.pieces if p.side == c.US and p.location == c.AVAILABLE),
                   key=lambda p: ({"hq": 0, "armour": 1, "infantry": 2}[p.kind], p.id))
    yield from _place(match, units, hexes, "XI.C", "Set up {unit} (Southern area, 0620-1018 and south)",
                      stacking=True)


def very_short_setup(match: Match, resumed: bool = False) -> Procedure[None]:
    """XI.C The Very Short Game: the 28th Marines within one hex of 0709 (the stacking limit
    of V.M binds at the end of the first movement phase, so the player may set up 9
    companies in 7 hexes and must spread them). ``resumed``: as :func:`narrow_setup`."""
    comp = c.components()
    if not resumed:
        match.state.turn = 2
        match.state.vars[c.V_LANDED] = sorted(comp.hexes_where("beach", "minami"))
        match.state.vars[c.V_BEACH] = "minami"
    centre = comp.scenarios.very_short.centre
    hexes = [h for h in comp.map.ids_within(centre, 1) if c.is_land(h)]
    units = sorted((p for p in match.state.pieces if p.side == c.US and p.location == c.AVAILABLE),
                   key=lambda p: p.id)
    yield from _place(match, units, hexes, "XI.C", "Set up {unit} within one hex of 0709", stacking=False)
