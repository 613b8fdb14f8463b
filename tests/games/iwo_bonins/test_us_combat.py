"""9.0 combat: the CRT (9.1) read through the CRMT Dug-In column (9.2, 9.2.1), retreat
(9.3), advance (9.4), the odds shown before an attack is declared, and 11.2's forced attack
from a Japanese-held beach. The dice are scripted; each test names its section."""

from __future__ import annotations

import contextlib
from collections import Counter
from fractions import Fraction

from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece
from tabletop.games.iwo_bonins import combat as K
from tabletop.games.iwo_bonins import common as c

from .test_us_movement import drive, put, script, texts, us_match

DIFF = 8 + 5 - 3  # 1/23 and FT/23 against 309 (printed values; checked below)


def roll_for(diff: int, line: str, result: str) -> int:
    """The CRT roll giving ``result`` at a differential on a line (the tests follow the data,
    whose cells are calibration knobs)."""
    crt = c.components().tables["crt"]
    for roll in range(1, 7):
        if crt.lookup(diff, roll, line=line) == result:
            return roll
    raise AssertionError(f"no {result} at {diff:+d} on the {line} line")


def strength(m: Match, *ids: str) -> int:
    """The attack of these units (12.2: combined)."""
    return sum(c.printed(m.state.pieces[i], "attack") for i in ids)


def attack_setup(defender: str = "309", where: str = "2213") -> tuple[Match, Piece, dict[str, list[Piece]]]:
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
    a, dd = strength(m, "1/23", "FT/23"), c.printed(d, "defense")
    script(m, [roll_for(a - dd, "clear", "NE")])
    drive(K.resolve_attack(m, d, groups))
    combat = texts(m, "combat")[0]
    assert f"({a}) attack 2213 ({dd}) at {a - dd:+d} on the clear line" in combat
    assert combat.endswith("-> NE; CRMT Dug-In: NE")
    assert d.location == "2213"
    assert texts(m, "reveal")[0].startswith("9.1: the defender in 2213 is 309")


def test_d2_high_costs_a_step_and_redeploys_9_2_1() -> None:
    """9.2.1 D2, 3-6: the attacker loses a step (the player picks which) and the defender
    redeploys (15.3); the attacker may advance into the emptied hex."""
    m, d, groups = attack_setup()
    script(m, [roll_for(DIFF, "clear", "D2"), 4] + [1] * 20)  # D2, 4: (A)+DR+AA; then 15.3's rolls
    drive(K.resolve_attack(m, d, groups), ["FT/23", "none"])
    assert m.state.pieces["FT/23"].location == c.US_ELIMINATED
    assert d.location != "2213" and not c.units_at(m, "2213", c.JAPAN)


def test_exchange_and_suppression_8_3b() -> None:
    """9.2.1 Ex 1-5: defender eliminated and the attacker loses a step; 8.3b: not if the
    defender was suppressed by bombardment."""
    m, d, groups = attack_setup()
    script(m, [roll_for(DIFF, "clear", "Ex"), 3])  # Ex; CRMT 3: De+(A)s
    drive(K.resolve_attack(m, d, groups), ["1/23"])
    assert d.location == c.CONTAINER and m.state.pieces["1/23"].steps == 1

    m, d, groups = attack_setup()
    m.state.vars[c.V_BOMBARDMENT] = 9
    script(m, [2, roll_for(DIFF, "clear", "Ex"), 3])  # bombardment 2: suppressed; Ex; De+(A)s
    drive(K.resolve_attack(m, d, groups, markers=1))
    assert d.location == c.CONTAINER and m.state.pieces["1/23"].steps == 2
    assert texts(m, "suppressed")[0].startswith("8.3b:")
    assert not [p for p in m.state.pieces.at("2213") if p.kind == "bombardment"]  # cleared


def test_attacker_retreat_9_3() -> None:
    """9.2.1 A1: the attackers retreat a hex (ending closer to a landing beach, 9.3) and the
    defender redeploys in place (15.4)."""
    m, d, groups = attack_setup()
    m.state.pieces.move("FT/23", c.AVAILABLE)
    groups = {"2212": [m.state.pieces["1/23"]]}
    diff = strength(m, "1/23") - c.printed(d, "defense")
    script(m, [roll_for(diff, "clear", "A1")] + [1] * 20)  # A1; then DRIP's draws
    paths = c.retreat_paths(m, groups["2212"], 1)
    assert set(paths) == {"2211", "2312"}  # the two hexes closer to a beach... both beaches
    drive(K.resolve_attack(m, d, groups), ["2211"])
    assert {p.location for p in groups["2212"]} == {"2211"}
    assert c.units_at(m, "2213", c.JAPAN)  # redeployed in place
    assert any(e.kind == "redeploy" and e.section == "15.4" and e.data.get("origin") == "2213"
               for e in m.log)


def test_retreat_blocked_depletes_9_3() -> None:
    """9.3: a unit that cannot retreat the full distance is depleted instead; a unit on a
    beach hex with retreat to make depletes."""
    m, d, groups = attack_setup("309", "2312")
    m.state.pieces.move("1/23", "2211")
    m.state.pieces.move("FT/23", "2211")
    groups = {"2211": [m.state.pieces["1/23"]]}  # 11.3: the top unit attacks
    diff = strength(m, "1/23") - c.printed(d, "defense")
    script(m, [roll_for(diff, "clear", "A1")] + [1] * 20)  # the beach line reads clear's
    drive(K.resolve_attack(m, d, groups))
    # 9.3, 11.3: the whole beach stack had to retreat and, on a beach, depletes instead.
    assert m.state.pieces["1/23"].steps == 1 and m.state.pieces["FT/23"].location == c.US_ELIMINATED
    assert texts(m, "retreat_blocked")


def test_attacker_eliminated_9_2_1() -> None:
    """9.2.1 Ae: every attacking unit is eliminated, a full-strength two-step unit too (not
    merely reduced): 1/23 at full strength attacks a dug-in unit in a ravine."""
    m = us_match()
    put(m, "1/23", "1306")
    put(m, "309", "1307")  # ravine: the line shifted two columns left
    put(m, "310", "0213")
    assert m.state.pieces["1/23"].steps == 2
    diff = strength(m, "1/23") - c.printed(m.state.pieces["309"], "defense")
    script(m, [roll_for(diff, c.crt_line("1307"), "Ae")])
    drive(K.resolve_attack(m, m.state.pieces["309"], {"1306": [m.state.pieces["1/23"]]}))
    assert m.state.pieces["1/23"].location == c.US_ELIMINATED


def test_one_attack_per_defender_9_0() -> None:
    """9.0: a defender is attacked once a combat phase; an attacker attacks once."""
    m, d, groups = attack_setup()
    assert d in K.defenders(m)
    script(m, [roll_for(DIFF, "clear", "NE")])
    drive(K.resolve_attack(m, d, groups))
    assert d not in K.defenders(m)
    assert K.attacker_hexes(m, "2213") == {}


def test_exact_odds_9_1_and_9_2_1() -> None:
    """9.1, 9.2.1: the odds shown before declaring, the CRT column read through the CRMT
    Dug-In column: kill = De + D3/2 + D2/3 + Ex x 5/6; a step lost on Ex, D2 3-6, D3 4-6."""
    crt = c.components().tables["crt"]
    kinds = Counter([K.DefenderKind(3, None)])
    for diff in range(-2, 20):
        col = [crt.lookup(diff, r, line="rough") for r in range(1, 7)]
        n = {res: Fraction(col.count(res), 6) for res in set(col)}

        def get(k: str, n: dict[str, Fraction] = n) -> Fraction:
            return n.get(k, Fraction(0))
        kill = get("De") + get("D3") / 2 + get("D2") / 3 + get("Ex") * Fraction(5, 6)
        loss = get("Ex") + get("D2") * Fraction(4, 6) + get("D3") / 2
        odds = K.outcome_odds(diff + 3, [], "rough", kinds, suppress=Fraction(0), suribachi=False)
        assert odds.get("De", 0) == kill and odds.get("(A)", 0) == loss, diff
        sure = K.outcome_odds(diff + 3, [], "rough", kinds, suppress=Fraction(1), suribachi=False)
        assert sure.get("(A)", 0) == loss - get("Ex")  # 8.3b: no loss on a suppressed Ex
        retreat = get("A1") + get("A2") + get("A3")
        assert odds.get("A", 0) == retreat and odds.get("Ae", 0) == get("Ae")


def test_declare_shows_odds_9_1a() -> None:
    """9.1a: the player picks a defender, adds attackers one at a time, sees the odds on
    each option, and declares; 8.2 then asks for bombardment markers."""
    m, d, _groups = attack_setup()
    m.state.vars[c.V_BOMBARDMENT] = 9
    gen = K.declare_attack(m, d, first=True)
    dec = next(gen)
    assert dec.kind == "attack_add" and "2212" in dec.values
    add = next(o for o in dec.options if o.value == "2212")
    assert "defender: eliminated" in add.info and "dug-in" in add.info
    # the same odds for a program (Option.detail): exact, keyed by effect, matching the text
    odds = add.detail["odds"]
    assert isinstance(odds, dict) and odds["De"] > 0
    shown = int(add.info.split("defender: eliminated ")[1].split("%")[0])
    assert abs(shown - float(str(odds["De"])) * 100) < 1
    assert f"attack {add.detail['attack']} " in add.info
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
    diff = strength(m, "1/23") - c.printed(m.state.pieces["309"], "defense")
    script(m, [roll_for(diff, "beach", "NE")])
    drive(K.forced_beach_attacks(m, first=True), [K.DECLARE])
    assert m.state.pieces["1/23"].location == c.US_ELIMINATED
    assert m.state.vars[c.V_MUST_ATTACK] == {}


def test_forced_beach_attack_may_be_joined_and_bombarded_11_2() -> None:
    """11.2 with 8.2 and 9.0: the forced attack cannot be cancelled, adjacent units may join
    it, and bombardment markers may support it in the first combat phase."""
    m = us_match()
    put(m, "309", "2211")
    put(m, "310", "0213")
    put(m, "1/23", "2211")
    put(m, "2/23", "2212")  # adjacent: may join
    m.state.vars[c.V_MUST_ATTACK] = {"2211": ["1/23"]}
    m.state.vars[c.V_BOMBARDMENT] = 9
    gen = K.forced_beach_attacks(m, first=True)
    first = next(gen)
    assert K.CANCEL not in first.values and K.DECLARE in first.values and "2212" in first.values
    second = gen.send("2212")
    assert K.DECLARE in second.values
    markers = gen.send(K.DECLARE)
    assert markers.section == "8.2" and 2 in markers.values


def test_values_the_tests_assume_2_3() -> None:
    """2.3: the printed values the scripted tests above assume (calibration may change them:
    then change DIFF)."""
    m, _, _ = attack_setup()
    assert strength(m, "1/23", "FT/23") - c.printed(m.state.pieces["309"], "defense") == DIFF


def test_retreat_never_into_ezoc_7_2() -> None:
    """7.2, 9.3: a retreat may not enter an EZOC hex (friendly units do not negate it)."""
    m, _, groups = attack_setup()
    put(m, "310", "2312")  # its ZOC covers 2211 and 2313
    put(m, "2/23", "2112")  # a friendly unit's ZOC does not negate it
    paths = c.retreat_paths(m, groups["2212"], 1)
    assert "2211" not in paths and "2313" not in paths


def test_advance_ignores_ezoc_7_2() -> None:
    """7.2, 9.4: an advance ignores EZOC: the hex may be next to another Japanese unit."""
    m, d, groups = attack_setup()
    put(m, "310", "2314")  # adjacent to 2213, the defender's hex
    script(m, [roll_for(DIFF, "clear", "De")])
    drive(K.resolve_attack(m, d, groups), ["2212"])
    assert m.state.pieces["1/23"].location == "2213"


def test_no_supply_10_0() -> None:
    """10.0: no supply rules: a surrounded unit attacks at full strength."""
    m, d, groups = attack_setup()
    for uid, hex_id in (("310", "2211"), ("311", "2312"), ("312", "2112")):
        put(m, uid, hex_id)
    info, _ = K.attack_odds(m, d, groups["2212"])
    assert info.startswith(f"attack {strength(m, '1/23', 'FT/23')} ")


def test_second_phase_no_bombardment_5_1_4() -> None:
    """5.1.4b, 8.1: no bombardment in the second combat phase: the attack is resolved
    straight after it is declared."""
    m, d, _ = attack_setup()
    m.state.vars[c.V_BOMBARDMENT] = 9  # even with markers somehow left
    gen = K.declare_attack(m, d, first=False)
    next(gen)
    script(m, [roll_for(DIFF, "clear", "NE")])
    gen.send("2212")
    with contextlib.suppress(StopIteration):
        gen.send("declare")
    assert texts(m, "combat") and not texts(m, "bombardment")


def test_retreat_toward_beach_option_9_3() -> None:
    """9.3 "should end closer to a landing beach": by default only such hexes are offered
    when there are any; the 'advice' option offers every legal hex."""
    m, _, groups = attack_setup()
    strict = set(c.retreat_paths(m, groups["2212"], 1))
    m.options["retreat_toward_beach"] = "advice"
    free = set(c.retreat_paths(m, groups["2212"], 1))
    assert strict < free and "2112" in free - strict
