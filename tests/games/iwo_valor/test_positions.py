"""Positions for Valor of Arms' rule tests: each status a unit may be given through the rules'
own helpers (IX.H disrupted, III.3 revealed, IV.D fatigue, IV.A.3 independent, VII.B landed,
III.6 class1, II.C the Reduced Strength side), and the entry points within a phase (IV.B.2,
IV.C.4, IV.D.4, IV.F.3) that skip the phase's earlier steps."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.core.designer.testing import answer, check_dice_used, force, rolls, start
from tabletop.core.engine.errors import TabletopError
from tabletop.games.iwo_valor import GAME
from tabletop.games.iwo_valor import common as c
from tabletop.games.iwo_valor.queries import supply

LOD, SANDS = "line_of_departure", "sands_of_iwo_jima"
INF, INF2, HQ = "A/1/23/4", "B/1/23/4", "HQ/4"


def position(**fields: Any) -> Any:
    """A Line of Departure position on turn 3, every unit cleared but those given."""
    return start(GAME, **{"scenario": LOD, "turn": 3, "clear": ["US", "Japan"], **fields})


def test_IV_D_fatigue_status_sets_the_regiments_track_and_IV_D_3_steps_it_down() -> None:
    """IV.D: fatigue on a company is its regiment's Fatigue Level (the track); out of contact
    at the Marine Combat Phase, IV.D.3 takes one off."""
    m = position(start="marine_combat", pieces={INF: {"at": "0512", "status": {"fatigue": 4}},
                                                 INF2: {"at": "0513"}})
    assert c.fatigue(m, "23") == 3  # 4, then IV.D.3 as the phase began
    assert [(e.data["before"], e.data["level"]) for e in m.log.of_kind("fatigue")] == [(4, 3)]


def test_IV_A_3_independent_status_makes_the_regiment_independent_for_supply() -> None:
    """IV.A.3, VII.B: independent on a company makes its regiment the Independent Regiment,
    Supplied within 4 hexes of a landed beach hex with no HQ."""
    m = position(start="movement", pieces={INF: {"at": "0513", "status": {"independent": True}}})
    assert m.state.vars[c.V_IND] == "23"
    assert supply(m, INF)["rule"] == "VII.B" and supply(m, INF)["supplied"]
    m2 = position(start="movement", pieces={INF: {"at": "0513"}})
    assert m2.state.vars[c.V_IND] is None and not supply(m2, INF)["supplied"]


def test_VII_B_landed_status_supplies_a_unit_all_its_first_turn() -> None:
    """VII.B: a unit that entered the game this turn is Supplied all of it; one landed
    earlier (the position's default, the scenario's first turn) is not, with no HQ."""
    m = position(start="movement", pieces={INF: {"at": "0920", "status": {"landed": 3}},
                                           INF2: {"at": "0921"}})
    assert supply(m, INF)["supplied"] and not supply(m, INF2)["supplied"]


def test_III_6_class1_status_reduces_a_class_2_position() -> None:
    """III.6: class1 on a Japanese unit in a Class 2 position puts its "1" marker on: it is
    attacked on the Class 1 row (VIII.B.1)."""
    hex_2 = next(h for h in sorted(c.components().hexes_where("position", 2)) if c.is_land(h))
    m = position(start="record", pieces={"C/312": {"at": hex_2, "status": {"class1": True}}})
    assert m.state.vars[c.V_CLASS1] == [hex_2] and c.position_class(m, hex_2) == 1
    with pytest.raises(TabletopError, match="only a Class 2 position"):
        position(start="record", pieces={"C/312": {"at": "0516", "status": {"class1": True}}})


def test_IX_H_III_3_disrupted_and_revealed_statuses() -> None:
    """IX.H: a DISRUPTED HQ shows its back and provides no Supply; III.3: a revealed unit is
    face-up, one not revealed far from every Marine stays face-down."""
    m = position(start="movement", pieces={HQ: {"at": "0512", "status": {"disrupted": True}},
                                           INF: {"at": "0515"},
                                           "C/312": {"at": "0305", "status": {"revealed": True}},
                                           "D/312": {"at": "0403", "status": {"revealed": False}}})
    assert m.state.pieces[HQ].face == "back" and not supply(m, INF)["supplied"]
    assert not m.state.pieces["C/312"].hidden and m.state.pieces["D/312"].hidden


@pytest.mark.parametrize("piece, status, message", [
    (INF, {"fatigue": 10}, "a Fatigue Level is 0 to 9"),
    (INF, {"fatigue": True}, "a whole number"),
    (HQ, {"fatigue": 2}, "set on a Marine infantry unit"),
    (HQ, {"independent": True}, "set on a Marine infantry unit"),
    ("C/312", {"landed": 3}, "only Marine units land"),
    (INF, {"class1": True}, "placed on a Japanese unit"),
])
def test_statuses_on_the_wrong_unit_or_value_are_refused_in_one_message(
        piece: str, status: dict[str, Any], message: str) -> None:
    """Each status names its rule and what it takes."""
    with pytest.raises(TabletopError, match=message):
        position(start="record", pieces={piece: {"at": "0512", "status": status}})


def test_II_C_a_company_given_fewer_steps_shows_its_reduced_side() -> None:
    """II.C: a Marine unit's first step loss is shown by its Reduced Strength side: given
    steps alone, the position turns it; a unit whose side and steps disagree is a problem."""
    m = position(start="record", pieces={INF: {"at": "0512", "steps": 2}})
    p = m.state.pieces[INF]
    assert p.face == "back" and c.status_problems(m, p) == []
    p.face = "front"
    assert c.status_problems(m, p) == [
        "II.C: Marine unit A/1/23/4 has 2 of 3 steps but shows its front side (its Reduced Strength "
        "side is the back; set steps and face together)"]


def test_IV_C_4_entry_regular_fire_skips_the_artillery_strikes() -> None:
    """IV.C.4 entry point: the Japanese Combat Phase from its regular fire, so no artillery
    strike is rolled (Steps 1-3); 2/12 AT next to the company fires."""
    m = position(start="regular_fire", pieces={INF: {"at": "0716"}, "2/12 AT": {"at": "0816"}},
                 forced=[force("regular attack", 6, 6)])
    assert [purpose for _, purpose, _ in rolls(m)] == ["regular attack"]
    assert m.log.of_kind("jp_attack")[0].data["steps"] == 1
    check_dice_used(m)


def test_IV_D_4_entry_attacks_skips_the_fatigue_steps() -> None:
    """IV.D.4 entry point: the attacks are announced at once; Steps 1-3 (fatigue) are not
    made, so the regiment keeps the Fatigue Level the position gives."""
    m = position(start="attacks", pieces={INF: {"at": "0716", "status": {"fatigue": 4}},
                                          "2/12 AT": {"at": "0816"}})
    assert m.pending is not None and m.pending.kind == "attack"
    assert c.fatigue(m, "23") == 4 and not m.log.of_kind("fatigue")


def test_IV_F_3_entry_banzai_charges_without_the_night_roll() -> None:
    """IV.F.3 entry point: a Banzai Charge with no IV.F.1 roll: the unit with most steps next
    to a company charges, the company (Supplied: landed this turn) fires first (IV.F.5)."""
    m = position(start="banzai", pieces={INF: {"at": "0923", "status": {"landed": 3}},
                                         "1/145": {"at": "0924"}},
                 forced=[force("Marine fire at the Banzai Charge", 3, 3)])
    purposes = [purpose for _, purpose, _ in rolls(m)]
    assert purposes[0] == "Marine fire at the Banzai Charge" and "night" not in purposes
    assert m.log.of_kind("why_fire")[0].data["unit"] == "1/145"
    check_dice_used(m)


def test_IV_B_2_entry_reinforcements_skips_the_moves_of_step_1() -> None:
    """IV.B.2 entry point: the first decision is which reinforcement lands, not which unit
    moves (IV.B.1)."""
    m = start(GAME, scenario=SANDS, turn=3, start="reinforcements", clear=["Japan"])
    assert m.pending is not None and m.pending.kind == "select_landing"
    answer(m, m.pending.options[1].value)
    assert m.pending is not None and m.pending.kind == "land"
