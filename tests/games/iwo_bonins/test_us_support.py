"""12.0 US support units: 12.1 stacking, 12.2 combined strength, 12.3 tanks and anti-tank
fire, 12.4 Task Force Collins. Each test names its section; the dice are scripted."""

from __future__ import annotations

from tabletop.games.iwo_bonins import combat as K
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins import support as S

from .test_us_combat import roll_for
from .test_us_movement import drive, put, script, texts, us_match


def test_support_stacking_12_1() -> None:
    """12.1: a support unit may end with one other unit (a battalion or a support unit);
    never three units, never two battalions."""
    m = us_match()
    P = m.state.pieces
    assert c.may_stack(m, [P["FT/23"]], "2212")
    put(m, "1/23", "2212")
    assert c.may_stack(m, [P["FT/23"]], "2212")
    assert not c.may_stack(m, [P["2/23"]], "2212")
    put(m, "FT/23", "2212")
    assert not c.may_stack(m, [P["FT/24"]], "2212")
    put(m, "FT/24", "2213")
    assert c.may_stack(m, [P["4 Tk"]], "2213")


def test_combined_attack_12_2() -> None:
    """12.2: a support unit's attack adds to its stack's; both attack from the hex."""
    m = us_match()
    put(m, "1/23", "2212")
    put(m, "FT/23", "2212")
    put(m, "309", "2213")
    units = K.attacking_units(m, "2212", "2213")
    assert {p.id for p in units} == {"1/23", "FT/23"}
    assert S.combined_attack(units, set()) == sum(c.printed(p, "attack") for p in units)
    assert S.combined_attack(units, {"FT/23"}) == c.printed(m.state.pieces["1/23"], "attack")


def test_tanks_may_not_attack_mountain_12_3() -> None:
    """12.3, 9.0: a tank may not attack into mountain or ravine hexes; its stack still may."""
    m = us_match()
    put(m, "1/28", "2614")
    put(m, "5 Tk", "2614")
    put(m, "309", "2714")
    assert [p.id for p in K.attacking_units(m, "2614", "2714")] == ["1/28"]
    assert [p.id for p in K.attacking_units(m, "2614", "2613")] == ["1/28", "5 Tk"]


def test_anti_tank_fire_12_3() -> None:
    """12.3: against an AT or AA unit, roll 1d6 per tank before the differential; at most the
    defender's attack factor keeps the tank's attack out; the tank takes the first loss."""
    m = us_match()
    put(m, "1/23", "2212")
    put(m, "4 Tk", "2212")
    put(m, "AT 1", "2213")  # 3-2-2
    put(m, "310", "0213")
    groups = {"2212": [m.state.pieces["1/23"], m.state.pieces["4 Tk"]]}
    a = c.printed(m.state.pieces["1/23"], "attack")
    diff = a - c.printed(m.state.pieces["AT 1"], "defense")
    # AT roll 2 <= 3: the tank does not count; an Ex; CRMT 2: De+(A)s
    script(m, [2, roll_for(diff, "clear", "Ex"), 2])
    drive(K.resolve_attack(m, m.state.pieces["AT 1"], groups))
    assert f"({a}) attack 2213 (2) at {diff:+d}" in texts(m, "combat")[0]
    assert m.state.pieces["4 Tk"].location == c.US_ELIMINATED
    assert m.state.pieces["1/23"].steps == 2
    assert texts(m, "anti_tank")[0].startswith("12.3: anti-tank fire: roll 2 <= 3")


def test_anti_tank_miss_12_3() -> None:
    """12.3: a roll above the factor: the tank's attack counts."""
    m = us_match()
    put(m, "4 Tk", "2212")
    put(m, "AT 1", "2213")
    put(m, "310", "0213")
    script(m, [4])  # AT roll 4 > 3
    assert S.anti_tank_fire(m, [m.state.pieces["4 Tk"]], m.state.pieces["AT 1"]) == []


def test_tf_collins_12_4() -> None:
    """12.4: at the start of a movement phase any tank battalion flips to TF Collins (its
    back: one step, stronger than one battalion); the other two leave the game for good; once
    a game."""
    m = us_match()
    opts = [o.value for o in S.tf_collins_options(m)]
    assert opts == ["tf_collins:4 Tk", "tf_collins:5 Tk", "tf_collins:3 Tk"]
    S.form_tf_collins(m, "5 Tk")
    tf = m.state.pieces["5 Tk"]
    tf_attack = c.components().counters.profiles["tf_collins"].front.attack
    assert tf.face == "back" and tf.value("attack") == tf_attack and tf.attrs["tf_collins"]
    assert tf_attack > c.components().counters.profiles["tank"].front.attack
    assert m.state.pieces["4 Tk"].location == c.OUT_OF_GAME
    assert m.state.pieces["3 Tk"].location == c.OUT_OF_GAME
    assert S.tf_collins_options(m) == []
    c.eliminate_us(m, tf, "test")
    assert tf.face == "back"  # still TF Collins, and replaceable (11.6)
    assert texts(m, "tf_collins")[0].startswith("12.4:")


def test_tf_collins_only_first_action_12_4() -> None:
    """12.4: TF Collins is offered at the beginning of a movement phase, not after a move."""
    m = us_match()
    put(m, "309", "0213")
    d = m.pending
    assert d is not None and any(str(v).startswith("tf_collins:") for v in d.values)
    m.decide("land:1/23")
    m.decide(m.pending.values[0])  # type: ignore[union-attr]
    assert m.pending is not None and not any(str(v).startswith("tf_collins:")
                                             for v in m.pending.values)


def test_other_beaches_option_6_3b() -> None:
    """6.3b read strictly (no stacking on the beaches not chosen) or, by option, with 12.1's
    support stacking still allowed there."""
    from tabletop.core.engine.match import Match
    from tabletop.games.iwo_bonins import GAME

    m = Match(GAME, seed=1, options={"other_beaches": "support"})
    m.decide("east")
    put(m, "1/23", "2316")  # a west beach
    assert c.may_stack(m, [m.state.pieces["FT/23"]], "2316")
    assert not c.may_stack(m, [m.state.pieces["2/23"]], "2316")
