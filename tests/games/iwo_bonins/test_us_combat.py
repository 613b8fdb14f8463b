"""9.0 combat: the CRT (9.1) read through the CRMT Dug-In column (9.2, 9.2.1), retreat
(9.3), advance (9.4), the odds shown before an attack is declared, and 11.2's forced attack
from a Japanese-held beach. The dice are scripted; each test names its section."""

from __future__ import annotations

from fractions import Fraction

from tabletop.games.iwo_bonins import combat as K
from tabletop.games.iwo_bonins import common as c

from .test_us_movement import drive, put, script, texts, us_match


def attack_setup(defender: str = "309", where: str = "2213") -> tuple:
    """1/23 and FT/23 (5 + 3) in 2212 next to a defender in ``where``."""
    m = us_match()
    put(m, "1/23", "2212")
    put(m, "FT/23", "2212")
    put(m, defender, where)
    put(m, "310", "0213")  # a Japanese unit elsewhere, so the game goes on
    groups = {"2212": [m.state.pieces["1/23"], m.state.pieces["FT/23"]]}
    return m, m.state.pieces[defender], groups


def test_crt_line_and_differential_9_1() -> None:
    """9.1b-d: the defender's terrain line (the best for the defender with two terrains),
    attack minus defense, 1d6; 12.2: the support unit's attack counts with its battalion."""
    assert c.crt_line("2213") == "clear"
    assert c.crt_line("1810") == "hill"  # rough with a hill: the hill line is better
    m, d, groups = attack_setup()
    script(m, [3])  # clear line, +4: roll 3 is NE
    drive(K.resolve_attack(m, d, groups))
    combat = texts(m, "combat")[0]
    assert "(8) attack 2213 (4) at +4 on the clear line: roll 3 -> NE" in combat
    assert d.location == "2213"
    assert texts(m, "reveal")[0].startswith("9.1: the defender in 2213 is 309")


def test_d2_eliminates_and_advance_9_2_1_and_9_4() -> None:
    """9.2.1 D2, 1-2: the defender is eliminated; 9.4: one attacking unit (with its support
    unit, 12.2) may advance into the hex, by choice."""
    m, d, groups = attack_setup()
    script(m, [6, 1])  # +4 roll 6: D2; CRMT roll 1: De+AA
    drive(K.resolve_attack(m, d, groups), ["2212"])
    assert d.location == c.CONTAINER
    assert {p.location for p in groups["2212"]} == {"2213"}
    assert texts(m, "advance")[0].startswith("9.4:")


def test_d2_high_costs_a_step_and_redeploys_9_2_1() -> None:
    """9.2.1 D2, 3-6: the attacker loses a step (the player picks which) and the defender
    redeploys (15.3); the attacker may advance into the emptied hex."""
    m, d, groups = attack_setup()
    script(m, [6, 4] + [1] * 20)  # D2, 4: (A)+DR+AA; then the redeployment's own rolls
    drive(K.resolve_attack(m, d, groups), ["FT/23", "none"])
    assert m.state.pieces["FT/23"].location == c.US_ELIMINATED
    assert d.location != "2213" and not c.units_at(m, "2213", c.JAPAN)


def test_exchange_and_suppression_8_3b() -> None:
    """9.2.1 Ex 1-5: defender eliminated and the attacker loses a step; 8.3b: not if the
    defender was suppressed by bombardment."""
    m, d, groups = attack_setup()
    script(m, [5, 3])  # +4 roll 5: Ex; CRMT 3: De+(A)s
    drive(K.resolve_attack(m, d, groups), ["1/23"])
    assert d.location == c.CONTAINER and m.state.pieces["1/23"].steps == 1

    m, d, groups = attack_setup()
    m.state.vars[c.V_BOMBARDMENT] = 9
    script(m, [2, 5, 3])  # bombardment 2: suppressed; Ex; De+(A)s
    drive(K.resolve_attack(m, d, groups, markers=1))
    assert d.location == c.CONTAINER and m.state.pieces["1/23"].steps == 2
    assert texts(m, "suppressed")[0].startswith("8.3b:")
    assert not [p for p in m.state.pieces.at("2213") if p.kind == "bombardment"]  # cleared


def test_attacker_retreat_9_3() -> None:
    """9.2.1 A1: the attackers retreat a hex (ending closer to a landing beach, 9.3) and the
    defender redeploys in place (15.4)."""
    m, d, groups = attack_setup()
    script(m, [2] + [1] * 20)  # +4 roll 2: A1; then DRIP's draws
    paths = c.retreat_paths(m, groups["2212"], 1)
    assert set(paths) == {"2211", "2312"}  # the two hexes closer to a beach... both beaches
    drive(K.resolve_attack(m, d, groups), ["2211"])
    assert {p.location for p in groups["2212"]} == {"2211"}
    assert c.units_at(m, "2213", c.JAPAN)  # redeployed in place


def test_retreat_blocked_depletes_9_3() -> None:
    """9.3: a unit that cannot retreat the full distance is depleted instead; a unit on a
    beach hex with retreat to make depletes."""
    m, d, groups = attack_setup("309", "2312")
    m.state.pieces.move("1/23", "2211")
    m.state.pieces.move("FT/23", "2211")
    groups = {"2211": [m.state.pieces["1/23"], m.state.pieces["FT/23"]]}
    script(m, [2] + [1] * 20)  # beach line, +4, roll 2: A1
    drive(K.resolve_attack(m, d, groups))
    assert m.state.pieces["1/23"].steps == 1 and m.state.pieces["FT/23"].location == c.US_ELIMINATED
    assert texts(m, "retreat_blocked")


def test_attacker_eliminated_9_2_1() -> None:
    """9.2.1 Ae: every attacking unit is eliminated, two-step units too."""
    m = us_match()
    put(m, "1/23", "2212")
    put(m, "309", "2213")
    put(m, "310", "0213")
    script(m, [1])  # 5 vs 4 = +1, roll 1: A3 ... use 2/23 reduced for <=0
    c.us_step_loss(m, m.state.pieces["1/23"], "test")  # 3 vs 4: -1, roll 1: Ae
    drive(K.resolve_attack(m, m.state.pieces["309"], {"2212": [m.state.pieces["1/23"]]}))
    assert m.state.pieces["1/23"].location == c.US_ELIMINATED


def test_one_attack_per_defender_9_0() -> None:
    """9.0: a defender is attacked once a combat phase; an attacker attacks once."""
    m, d, groups = attack_setup()
    assert d in K.defenders(m)
    script(m, [3])
    drive(K.resolve_attack(m, d, groups))
    assert d not in K.defenders(m)
    assert K.attacker_hexes(m, "2213") == {}


def test_exact_odds_9_1_and_9_2_1() -> None:
    """9.1, 9.2.1: the odds shown before declaring: +4 on the clear line, defense known.
    Defender eliminated = Ex 1/6 x 5/6 + D2 1/6 x 2/6 = 7/36."""
    kinds = K.Counter([K.DefenderKind(4, None)])
    odds = K.outcome_odds(8, [], "clear", kinds, suppress=Fraction(0), suribachi=False)
    assert odds["De"] == Fraction(7, 36)
    assert odds["A"] == Fraction(2, 6) and odds["DRIP"] == Fraction(2, 6)
    assert odds["(A)"] == Fraction(1, 6) + Fraction(1, 6) * Fraction(4, 6)
    sure = K.outcome_odds(8, [], "clear", kinds, suppress=Fraction(1), suribachi=False)
    assert sure["(A)"] == Fraction(1, 6) * Fraction(4, 6)  # 8.3b: no loss on Ex


def test_declare_shows_odds_9_1a() -> None:
    """9.1a: the player picks a defender, adds attackers one at a time, sees the odds on
    each option, and declares; 8.2 then asks for bombardment markers."""
    m, d, _groups = attack_setup()
    m.state.vars[c.V_BOMBARDMENT] = 9
    gen = K.declare_attack(m, d, first=True)
    dec = next(gen)
    assert dec.kind == "attack_add" and "2212" in dec.values
    add = next(o for o in dec.options if o.value == "2212")
    assert "defender eliminated" in add.info and "dug-in" in add.info
    dec = gen.send("2212")
    assert dec.is_legal("declare")
    dec = gen.send("declare")
    assert dec.kind == "bombardment_markers" and dec.values == [0, 1, 2]


def test_suribachi_dr_is_ne_17_0() -> None:
    """17.0: DR or DRIP against a defender in the Suribachi sector is NE; it stays face up."""
    m, d, _groups = attack_setup("309", "2613")
    left = drive(K.defender_redeploys(m, d, in_place=False))
    assert left is False and d.location == "2613" and not c.is_dug_in(d)


def test_forced_beach_attack_11_2() -> None:
    """11.2: units landed on a Japanese-held beach hex must attack it next combat phase;
    if the Japanese unit stays, they are eliminated."""
    m = us_match()
    put(m, "309", "2211")
    put(m, "310", "0213")
    put(m, "1/23", "2211")
    m.state.vars[c.V_MUST_ATTACK] = {"2211": ["1/23"]}
    script(m, [4])  # 5 vs 4 on the beach line: +1, roll 4: NE
    drive(K.forced_beach_attacks(m, first=True))
    assert m.state.pieces["1/23"].location == c.US_ELIMINATED
    assert m.state.vars[c.V_MUST_ATTACK] == {}
