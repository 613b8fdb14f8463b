"""III set-up, IV.A planning, IV.E replacements, IV.F night, IV.G record, X victory, XI scenarios."""

from __future__ import annotations

import pytest

from tabletop.core.designer.testing import play_random_game, run_procedure
from tabletop.core.engine.events import modifier
from tabletop.core.engine.match import Match
from tabletop.core.engine.trackgroups import shift
from tabletop.games.iwo_valor import GAME, NARROW_MULTIPLIER, planning, setup, turn_end
from tabletop.games.iwo_valor import common as c

from .helpers import empty_match, put

MAP = c.components().map  # the printed map, whose hexes the tests name by id

INF, INF2, TANK, HQ = "A/1/23/4", "B/1/23/4", "A/4TK", "HQ/4"
J = "0922"


def test_III_3_face_down_by_area() -> None:
    """III.3: every Japanese unit face-down in a deployment hex of its own code."""
    m = Match(GAME, scenario=c.FULL, seed=3)
    for p in c.japanese(m):
        assert p.hidden and c.attr(p.location, "deploy") == p.attrs["code"]
    assert len(c.japanese(m)) == 56
    assert m.pending is not None and m.pending.kind == "beach"


def test_III_4_waves_no_larger_than_the_beach() -> None:
    """III.4: 33 units, one a hex on the 17 beach hexes (first wave) or 17 Second Wave hexes."""
    m = Match(GAME, scenario=c.FULL, seed=3)
    m.decide("minami")
    n = 0
    while m.pending is not None and m.pending.kind == "wave":
        m.decide_index(0)
        n += 1
    assert n == 33
    comp = c.components()
    for h in comp.hexes_where("beach", "minami") + comp.hexes_where("second_wave", "minami"):
        assert len(c.units_at(m, h, c.US)) <= 1


def test_III_5_6_bombardment() -> None:
    """III.5: Class 1 units lose a step on 6 or less; III.6: Class 2 become Class 1 on 4 or less."""
    m = empty_match(turn=1, dice=[3, 3, 2, 2, 4, 1])
    one = next(h for h in c.components().hexes_where("position", 1))
    two = [h for h in c.components().hexes_where("position", 2)][:2]
    a = put(m, "A/310", one, hidden=True)
    put(m, "B/310", two[0], hidden=True)
    put(m, "C/310", two[1], hidden=True)
    setup.bombardment(m)
    assert a.steps == a.max_steps - 1
    assert m.state.vars[c.V_CLASS1] == [two[0]]
    assert c.position_class(m, two[0]) == 1 and c.position_class(m, two[1]) == 2


def test_IV_A_1_support_not_carried_over() -> None:
    """IV.A.1: the Support Track shows this turn's points; last turn's are lost."""
    m = empty_match(turn=6)
    m.state.tracks["support"].set(7)
    run_procedure(planning.support_points(m))
    assert m.state.tracks["support"].value == 8


def test_IV_A_2_withdrawal_lowest_fatigue() -> None:
    """IV.A.2: a regiment withdrawn has no Fatigue Level above one that stays; never returns."""
    m = empty_match(turn=24)
    put(m, INF, "0918")
    put(m, "A/1/24/4", "0920")
    put(m, "A/1/25/4", "0820")
    shift(m.state, c.FATIGUE, "23", 3)
    shift(m.state, c.FATIGUE, "25", 1)
    run_procedure(planning.withdraw(m))
    assert m.state.pieces["A/1/24/4"].location == c.WITHDRAWN
    assert m.state.pieces[INF].location == "0918"


def test_IV_A_3_independent_regiment() -> None:
    """IV.A.3: one Independent Regiment at a time; it may be moved or removed."""
    m = empty_match()
    put(m, INF, "0918")
    put(m, "A/1/25/4", "0820")
    run_procedure(planning.independent_regiment(m), ["23"])
    assert m.state.vars[c.V_IND] == "23"
    assert m.log.of_kind("independent")[-1].text == "the 23rd Marines are the Independent Regiment"
    run_procedure(planning.independent_regiment(m), ["25"])
    assert m.state.vars[c.V_IND] == "25"
    run_procedure(planning.independent_regiment(m), ["none"])
    assert m.state.vars[c.V_IND] is None


def test_IV_E_2_replacements_only_to_supplied_units() -> None:
    """IV.E.2: "Allocate ... to any Supplied Reduced Strength Marine units": after turn 1, a
    reduced unit out of Supply gets none; within 5 hexes of its HQ it does."""
    m = empty_match(turn=6)
    p = put(m, INF, "1525")
    p.steps = 2
    m.state.tracks["repl_inf"].set(1)
    assert not c.is_supplied(m, p) and turn_end.replaceable(m) == []
    put(m, HQ, "1522")
    assert c.is_supplied(m, p) and [q.id for q in turn_end.replaceable(m)] == [INF]


def test_IV_E_replacements_whole_battalion() -> None:
    """IV.E.2: a reduced Supplied unit out of ZOC gets a step if its whole battalion is
    Supplied and out of ZOC; armour steps only for armour."""
    m = empty_match(turn=1)
    p = put(m, INF, "0512")
    p.steps = 2
    m.state.tracks["repl_inf"].set(1)
    assert [q.id for q in turn_end.replaceable(m)] == [INF]
    put(m, "A/310", J)
    put(m, "C/1/23/4", "0921")
    assert turn_end.replaceable(m) == []
    tank = put(m, TANK, "0512")
    tank.steps = 1
    assert turn_end.replaceable(m) == []  # no armour replacement step


def test_IV_F_2_IX_D_infiltration() -> None:
    """IV.F.2: the most fatigued units next to Japanese units; 2d6 - fatigue (-1 more if a
    Japanese neighbour has more than 2 steps): 2 or less loses a step."""
    m = empty_match(dice=[4, 4])
    put(m, "A/310", J)
    p = put(m, INF, "0921")
    put(m, "A/1/25/4", "0923")
    shift(m.state, c.FATIGUE, "23", 5)
    run_procedure(turn_end.infiltration(m, 1))
    assert p.steps == 2  # 8 - 5 - 1 = 2


def test_IV_F_3_6_IX_E_banzai() -> None:
    """IV.F.3: of the units next to a Marine infantry unit, the one with most steps charges
    (1/145, 4 steps, over A/310's 3); IV.F.5: the Marine fires first as against Class 1, at
    -3 (VIII.C), no armour; then the charge (our step 6) on the OF/CP row."""
    m = empty_match(turn=10, dice=[6, 6, 1, 1])
    put(m, "A/310", J)  # next to 0923, 3 steps
    charger = put(m, "1/145", "0924")  # next to 0923, 4 steps
    p = put(m, INF, "0923", landed=10)  # Supplied: its first turn ashore (VII.B)
    put(m, TANK, "0923")
    run_procedure(turn_end.banzai(m))
    why = next(e for e in m.log if e.kind == "why_fire" and "BANZAI" in e.text)
    assert why.data["unit"] == charger.id and why.data["target"] == INF
    fire = next(e for e in m.log if e.section == "IV.F.5" and e.kind == "attack").data
    assert fire["modifiers"] == [modifier("IV.F.5", "Banzai Charge (night)", -3)]
    assert fire["row"] == "class_1" and fire["armour"] == [] and fire["roll_modifiers"] == []  # its tank idle
    assert (fire["base"], fire["strength"], fire["roll"]) == (6, 3, 12)
    assert fire["result"] == "1" and charger.steps == 3  # roll 12 at strength 3, Class 1 row
    charge = next(e for e in m.log if e.section == "IV.F.6" and e.kind == "jp_attack").data
    assert (charge["base"], charge["modifiers"], charge["strength"], charge["roll"]) == (4, [], 4, 2)
    assert charge["steps"] == 0 and p.steps == 3  # roll 2: no effect


def test_IV_F_5_VII_an_unsupplied_unit_does_not_fire_at_the_charge() -> None:
    """IV.F.5 with VII: "units must be Supplied in order to ... attack": a charged unit that
    is not Supplied takes the charge without firing first."""
    m = empty_match(turn=10, dice=[1, 1])
    charger = put(m, "1/145", "0924")
    put(m, INF, "0923")  # no HQ within 5 hexes, landed long ago: not Supplied
    assert not c.is_supplied(m, m.state.pieces[INF])
    run_procedure(turn_end.banzai(m))
    assert [e.section for e in m.log if e.kind == "no_attack"] == ["VII"]
    assert not any(e.section == "IV.F.5" and e.kind == "attack" for e in m.log)
    assert charger.steps == 4
    assert [e.section for e in m.log if e.kind == "jp_attack"] == ["IV.F.6"]  # the charge still comes


def test_IV_G_victory_points_for_the_lines() -> None:
    """IV.G.1-4: +1 a unit in or south of the First Line; after turn 6 the Second; after turn
    14 north of it; a B-29 die while any unit is south of the Second Line."""
    m = empty_match(turn=15, dice=[3])
    put(m, "A/310", "0816")  # belt 1
    put(m, "B/310", "0629")  # IV.G.2 counted in the Second Line
    put(m, "C/310", "2832")  # north
    turn_end.record_phase(m)
    assert m.state.tracks["vp"].value == 1 + 2 + 1 + 3


def test_IV_G_5_hq_recovers_unless_alone_in_zoc() -> None:
    """IV.G.5: disrupted HQs recover, except one alone in a Japanese ZOC."""
    m = empty_match(dice=[1] * 5)
    put(m, "A/310", J)
    a = put(m, HQ, "0921")
    b = put(m, "HQ/5", "0918")
    a.face = b.face = "back"
    turn_end.record_phase(m)
    assert c.is_disrupted(a) and not c.is_disrupted(b)


def test_X_A_sudden_death_and_X_B_schedule() -> None:
    """X.A: 160 VP before turn 7 ends the game; X.B the schedule reads the total."""
    m = empty_match(turn=6)
    put(m, INF, "0918")
    put(m, "A/310", J)
    m.state.phase = "record"
    m.state.tracks["vp"].set(160)
    r = GAME.check_end(m)
    assert r is not None and r.level == "JAPANESE DECISIVE VICTORY"
    m.state.tracks["vp"].set(100)
    m.state.vars[c.V_LAST_TURN] = 6
    r = GAME.check_end(m)
    assert r is not None and r.section == "X.B"
    m.state.tracks["vp"].set(-5)
    assert GAME.final_result(m).level == "MARINE DECISIVE VICTORY"  # II.C: the track may be negative


def test_X_B_a_marine_marginal_victory_loses_the_game() -> None:
    """X.B: "if you achieve a MARINE SUBSTANTIAL or DECISIVE VICTORY, you can consider
    yourself to have won both the battle and the game. If you achieve only a MARINE MARGINAL
    VICTORY ... you have most certainly lost the game": the level is the battle's, the
    winner the game's, on every schedule (XI.A and XI.B send the scenarios to X.B)."""
    for scen, vp, level, winner in ((c.FULL, 800, "MARINE MARGINAL VICTORY", c.JAPAN),
                                    (c.FULL, 700, "MARINE SUBSTANTIAL VICTORY", c.US),
                                    (c.FULL, 600, "MARINE DECISIVE VICTORY", c.US),
                                    (c.FULL, 900, "JAPANESE MARGINAL VICTORY", c.JAPAN),
                                    (c.LOD, 100, "MARINE MARGINAL VICTORY", c.JAPAN),
                                    (c.LOD, 90, "MARINE SUBSTANTIAL VICTORY", c.US),
                                    (c.SANDS, 270, "MARINE MARGINAL VICTORY", c.JAPAN),
                                    (c.NARROW, 300, "MARINE MARGINAL VICTORY", c.JAPAN)):  # 800 read
        m = empty_match(scenario=scen)
        m.state.tracks["vp"].set(vp)
        r = GAME.final_result(m)
        assert (r.level, r.winner) == (level, winner)
        assert ("the game lost (X.B" in r.reason) is (level == "MARINE MARGINAL VICTORY")


def test_XI_A_B_printed_schedules() -> None:
    """XI.A, XI.B: the scenario schedules are used as printed."""
    for scen, vp, level in ((c.LOD, 100, "MARINE MARGINAL VICTORY"),
                            (c.LOD, 141, "JAPANESE DECISIVE VICTORY"),
                            (c.SANDS, 246, "MARINE SUBSTANTIAL VICTORY"),
                            (c.SANDS, 305, "JAPANESE MARGINAL VICTORY")):
        m = empty_match(scenario=scen)
        m.state.tracks["vp"].set(vp)
        assert GAME.final_result(m).level == level


def test_XI_C_narrow_game() -> None:
    """XI.C: S and E areas only, three units removed, turn 4, VP x 2.667 (the article's 2667)."""
    m = Match(GAME, scenario=c.NARROW, seed=1)
    assert {c.attr(p.location, "area") for p in c.japanese(m)} <= {"S", "E"}
    assert not any(p.location in ("0816", "0818", "1019") for p in c.japanese(m))
    assert m.state.turn == 4 and m.pending is not None and m.pending.kind == "setup"
    assert float(NARROW_MULTIPLIER) == 2.667
    m.state.tracks["vp"].set(150)
    assert GAME.final_result(m).scores["vp_read"] == 400


@pytest.mark.parametrize(("deadline", "turn", "vp", "ends"), [
    ("before", 6, 60, True), ("before", 7, 60, False), ("before", 7, 119, False),
    ("before", 14, 120, True), ("before", 15, 120, False),
    ("on_or_before", 7, 60, True), ("on_or_before", 8, 60, False),
    ("on_or_before", 15, 120, True), ("on_or_before", 16, 150, False)])
def test_XI_C_narrow_game_sudden_death_turns(deadline: str, turn: int, vp: int, ends: bool) -> None:
    """XI.C: 60 VP by turn 7 or 120 by turn 15 end the Narrow Game, before those turns as X.A
    times its 160 and 320 (the default) or on or before them as the article words it."""
    m = empty_match(turn=turn, scenario=c.NARROW, narrow_deadline=deadline)
    put(m, INF, "0918")
    put(m, "A/310", J)
    m.state.phase = "record"
    m.state.vars[c.V_LAST_TURN] = 35
    m.state.tracks["vp"].set(vp)
    r = GAME.check_end(m)
    assert (r is not None) is ends
    if ends:
        assert r is not None and r.section == "XI.C" and r.level == "JAPANESE DECISIVE VICTORY"


def test_XI_C_very_short_game() -> None:
    """XI.C: three units on Suribachi, the 28th Marines within one hex of 0709, from turn 2."""
    m = Match(GAME, scenario=c.VERY_SHORT, seed=1)
    assert sorted(p.location for p in c.japanese(m)) == ["0305", "0403", "0506"]
    assert m.state.turn == 2
    assert all(MAP.id_distance(str(o.value), "0709") <= 1 for o in m.pending.options)  # type: ignore[union-attr]
    assert "RECONSTRUCTED" in GAME.info.scenario(c.VERY_SHORT).name


def test_III_1_2_map_and_sorted_pieces_then_part_III_steps_in_order() -> None:
    """III.1-2: the island is laid out and every piece of the sheet sorted (Japanese in their
    areas, Marines waiting by entry turn, markers in their boxes); Part III's steps then come
    in order: areas (3), the beach and waves (4), the bombardment (5-6), then turn 1."""
    m = Match(GAME, scenario=c.FULL, seed=5)
    comp = c.components()
    assert sum(1 for p in m.state.pieces if p.side == c.US) == len(comp.marines)
    assert len(c.japanese(m)) == len(comp.sheet.japanese)
    assert all(c.is_land(p.location) for p in c.japanese(m))
    assert {p.location for p in m.state.pieces if p.side == c.US} == {c.AVAILABLE}
    fatigue = sorted(p.name for p in m.state.pieces if p.id.startswith("fatigue-"))
    assert fatigue[:3] == ["Fatigue 21st Marines", "Fatigue 23rd Marines", "Fatigue 24th Marines"]
    m.decide("minami")
    while m.pending is not None and m.state.turn == 1 and m.pending.kind == "wave":
        m.decide_index(0)
    sections = [e.section for e in m.log if e.kind in ("setup", "beach", "class1", "phase")]
    firsts = [sections.index(s) for s in ("III.3", "III.4", "IV.A")]
    assert firsts == sorted(firsts)
    bombard = [i for i, s in enumerate(sections) if s in ("III.5", "III.6")]
    assert all(firsts[1] < i < firsts[2] for i in bombard)


def test_part_IV_phases_in_order_every_turn() -> None:
    """Part IV: each Game Turn runs the phases A to G in that order, then the next turn."""
    m = play_random_game(GAME, 3, scenario=c.LOD, check_every=1000)
    phases = [(e.text.split(":")[0], e.section) for e in m.log if e.kind == "phase"]
    order = ["IV.A", "IV.B", "IV.C", "IV.D", "IV.E", "IV.F", "IV.G"]
    turns = sorted({t for t, _ in phases}, key=lambda t: int(t.split()[1]))
    assert len(turns) >= 2
    for t in turns[:-1]:
        assert [s for tt, s in phases if tt == t] == order
