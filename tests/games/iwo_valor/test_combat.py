"""IV.C the Japanese Combat Phase and IX Japanese Combat; IV.D and VIII Marine Combat."""

from __future__ import annotations

from tabletop.core.designer.testing import run_procedure
from tabletop.core.engine.events import modifier
from tabletop.core.engine.trackgroups import shift
from tabletop.games.iwo_valor import common as c
from tabletop.games.iwo_valor import japanese_combat as jc
from tabletop.games.iwo_valor import marine_combat as mc

from .helpers import empty_match, put

MAP = c.components().map  # the printed map, whose hexes the tests name by id

INF, INF2, INF_OTHER_BN, TANK, HQ = "A/1/23/4", "B/1/23/4", "E/2/23/4", "A/4TK", "HQ/4"
J = "0922"


def test_IX_G_modifiers_and_clamp() -> None:
    """IX.G: elevation, crossfire, beach, airfield, armour, turns 1-2 (+2/+1); clamp 1-10."""
    m = empty_match(turn=1)
    put(m, "A/310", "0925")  # level 3
    put(m, "B/310", "0923")
    put(m, INF, "0924")  # level 2 (two levels printed: the lower), within two of both
    put(m, TANK, "0924")
    s = c.Situation.of(m)
    mods = dict(jc.modifiers(m, jc.REGULAR, "0924", "0925", s))
    assert mods == {"elevation": 1, "crossfire": 1, "armour": 1, "turn 1": 2}
    assert jc.modified_strength(m, jc.REGULAR, 9, "0924", "0925", s)[0] == 10
    assert jc.modified_strength(m, jc.REGULAR, 1, "0924", "0925", s, support=9)[0] == 1
    assert dict(jc.modifiers(m, jc.BANZAI, "0924", "0925", s)) == {}  # IX.G: not Banzai
    beach = c.components().hexes_where("beach", "minami")[3]
    air = next(h for h in c.components().hexes_where("airfield", 1))
    m.state.turn = 6
    assert dict(jc.modifiers(m, jc.ARTILLERY, beach, None, s)) == {"beach": 1}
    assert dict(jc.modifiers(m, jc.ARTILLERY, air, None, s)) == {"airfield": 2}


def test_IX_F_artillery_spotters_before_turn_5() -> None:
    """IX.F.1: +1 before turn 5 within 3 hexes of the beach invaded on turn 1."""
    m = empty_match(turn=4)
    beach = c.components().hexes_where("beach", "minami")[0]
    s = c.Situation.of(m)
    assert ("spotters", 1) in jc.modifiers(m, jc.ARTILLERY, beach, None, s)
    m.state.turn = 5
    assert ("spotters", 1) not in jc.modifiers(m, jc.ARTILLERY, beach, None, s)


def test_IV_C_artillery_one_strike_a_hex_and_priorities() -> None:
    """IV.C.1-2: strikes go to infantry hexes of the area, one a hex, by the Attack
    Priorities Chart (armour first); excess strikes are ignored."""
    m = empty_match(turn=1, dice=[6, 6] * 20)
    put(m, INF, "0920")
    put(m, TANK, "0920")
    put(m, INF2, "0918")
    run_procedure(jc.artillery(m))
    struck = m.state.vars[c.V_STRUCK]
    assert struck[0] == "0920" and len(struck) == len(set(struck)) == 2  # S area: 2 strikes, 2 hexes
    m2 = empty_match(turn=1, dice=[6, 6] * 20)
    put(m2, INF, "0920")
    run_procedure(jc.artillery(m2))
    assert m2.state.vars[c.V_STRUCK] == ["0920"]  # 2 strikes, 1 hex: the other is ignored


def test_IX_C_regular_fire_picks_best_hex_and_IX_H_hq() -> None:
    """IX.C: a Japanese unit next to Marines fires at the hex it attacks at the highest
    strength; IX.H: an HQ alone takes no step but is disrupted."""
    m = empty_match(turn=6, dice=[6, 6] * 10)
    put(m, "A/310", J)
    put(m, HQ, "0921")
    beach_like = "0923"
    put(m, INF, beach_like)
    put(m, TANK, beach_like)  # armour bonus makes this hex the target
    m.state.tracks["support"].set(0)
    run_procedure(jc.regular_fire(m), [INF])
    assert m.state.pieces[INF].steps < 3 and not c.is_disrupted(m.state.pieces[HQ])
    m2 = empty_match(turn=6, dice=[6, 6] * 10)
    put(m2, "A/310", J)
    hq = put(m2, HQ, "0921")
    m2.state.tracks["support"].set(0)
    run_procedure(jc.regular_fire(m2))
    assert c.is_disrupted(hq) and hq.steps == 1


def test_IX_A_support_points_weaken_fire() -> None:
    """IX.A.2: up to 2 Support Points, each -1 to the attacker's strength."""
    m = empty_match(turn=6, dice=[6, 6])
    jp = put(m, "A/310", J)
    p = put(m, INF, "0920")
    m.state.tracks["support"].set(5)
    run_procedure(jc.opportunity_fire(m, jp, p), [2])
    assert m.state.tracks["support"].value == 3
    ev = [e for e in m.log if e.kind == "jp_attack"][-1]
    assert ev.data["strength"] == max(1, c.strength(jp) - 2)


def test_IV_D_fatigue_up_and_down() -> None:
    """IV.D.1-3: two battalions next to Japanese units: +1; otherwise -1 (not below 0)."""
    m = empty_match()
    put(m, "A/310", J)
    put(m, INF, "0921")
    put(m, INF_OTHER_BN, "0923")
    put(m, "A/1/25/4", "0918")
    shift(m.state, c.FATIGUE, "25", 2)
    mc.fatigue_steps(m)
    assert c.fatigue(m, "23") == 1 and c.fatigue(m, "25") == 1


def test_VIII_C_attack_strength() -> None:
    """VIII.C: +HQ, +1 battalion integrity, -1 elevation, -1 per 2 fatigue, +1 flag; min 1."""
    m = empty_match(turn=8)
    put(m, "A/310", "0925")  # level 3
    p = put(m, INF, "0924")  # level 2
    put(m, HQ, "0924")
    shift(m.state, c.FATIGUE, "23", 5)
    value, why = mc.attack_strength(m, p, "0925")
    assert value == 6 + 2 - 1 - 2 and "elevation" in why
    m.state.vars[c.V_ATTACKED]["0925"] = [c.battalion_key(p)]
    m.state.vars[c.V_FLAG_TURN] = 8
    assert mc.attack_strength(m, p, "0925")[0] == value + 2
    shift(m.state, c.FATIGUE, "23", 9)
    p.steps = 1
    assert mc.attack_strength(m, p, "0925", banzai=True)[0] == 1


def test_VIII_A_ridge_blocks_attacks() -> None:
    """VIII.A: no Marine attack across a Ridge hexside of Mount Suribachi."""
    sides = [(s.a, s.b) for s, f in MAP.hexsides().items() if "ridge" in f]
    a, b = (MAP.label(x) for x in sides[0])
    m = empty_match()
    put(m, "A/312", a)
    put(m, INF, b)
    put(m, HQ, b)
    assert all(h != a for _, h in mc.attack_pairs(m, []))


def test_VIII_B_D_attack_results_and_ambush_IX_B() -> None:
    """Part VIII's procedure, VIII.B, VIII.D: a roll of 4 or less is "A" and the Japanese
    unit ambushes the attacker (IX.B, OF/CP row, no support); a high roll takes steps off the
    Japanese unit."""
    m = empty_match(turn=6, dice=[1, 1, 6, 6])
    jp = put(m, "1/145", J)  # strength 5: a roll of 12 on the OF/CP row takes a step
    p = put(m, INF, "0921", landed=6)
    put(m, HQ, "0921")
    run_procedure(mc.resolve_attack(m, INF, J, {}))
    assert p.steps < 3 and [e.data["attack"] for e in m.log if e.kind == "jp_attack"] == ["ambush"]
    m2 = empty_match(turn=6, dice=[6, 6])
    jp = put(m2, "A/310", J)
    put(m2, INF, "0921", landed=6)
    put(m2, HQ, "0921")
    before = jp.steps
    run_procedure(mc.resolve_attack(m2, INF, J, {}))
    assert jp.steps < before


def test_IV_D_4_5_an_unsupplied_unit_is_announced_and_checked_when_it_attacks() -> None:
    """IV.D.4: attacks are announced "by any or all Marine Infantry Units that are next to a
    Japanese unit"; IV.D.5, VIII.A: Supply is determined at the moment each attack is made,
    so a unit not Supplied at the announcement is offered (the menu says so) and its attack
    is not made if it is still not Supplied then."""
    m = empty_match(turn=6)
    put(m, "A/310", J)
    put(m, INF, "0921")  # no HQ, landed long ago: not Supplied
    assert [(p.id, h) for p, h in mc.attack_pairs(m, [])] == [(INF, J)]
    d = next(mc.combat_phase(m))
    option = next(o for o in d.options if o.value == [INF, J])
    assert option.detail["unsupplied"] == 1 and "IV.D.5" in option.info
    run_procedure(mc.resolve_attack(m, INF, J, {}))
    assert [e.section for e in m.log if e.kind == "no_attack"] == ["VIII.A"]
    m2 = empty_match(turn=6)
    put(m2, "A/310", J)
    put(m2, INF, "0921", landed=6)  # Supplied (its first turn ashore)
    d = next(mc.combat_phase(m2))
    assert "unsupplied" not in next(o for o in d.options if o.value == [INF, J]).detail


def test_VIII_A_armour_support_limited_by_steps_and_division() -> None:
    """VIII.A: armour supports attacks of its division on one hex, no more than its steps, +1
    to the roll each; IV.D.4 it is committed when attacks are announced."""
    m = empty_match(turn=6, dice=[2, 2] * 6)
    put(m, "A/310", J)
    put(m, INF, "0921", landed=6)
    tank = put(m, TANK, "0921")
    tank.steps = 1
    put(m, INF2, "0923", landed=6)
    put(m, HQ, "0920")
    committed = run_procedure(mc.commit_armour(m, [(INF, J), (INF2, J)]), [True])
    assert committed == {J: [TANK]}
    run_procedure(mc.resolve_attack(m, INF, J, committed))
    assert m.log.of_kind("attack")[-1].data["armour"] == [TANK]
    assert m.log.of_kind("attack")[-1].data["roll_modifiers"] == [modifier("VIII.B.3", "armour", 1)]
    run_procedure(mc.resolve_attack(m, INF2, J, committed))
    assert m.log.of_kind("attack")[-1].data["roll_modifiers"] == []
    # the division: a 5th Division company attacking the same hex gets none of a 4th Division
    # tank's support, though the tank has steps left
    m3 = empty_match(turn=6, dice=[2, 2] * 6)
    put(m3, "A/310", J)
    put(m3, INF, "0921", landed=6)
    put(m3, TANK, "0921")
    other = put(m3, "A/1/26/5", "0923", landed=6)
    assert not mc.armour_can_support(m3, m3.state.pieces[TANK], other, J)
    run_procedure(mc.resolve_attack(m3, other.id, J, {J: [TANK]}))
    assert m3.log.of_kind("attack")[-1].data["armour"] == []
    run_procedure(mc.resolve_attack(m3, INF, J, {J: [TANK]}))
    assert m3.log.of_kind("attack")[-1].data["armour"] == [TANK]
