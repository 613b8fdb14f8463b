"""The game's answers to a rule test's questions (games/iwo_valor/queries.py): Part VII
Supply and by which rule, a unit's strength with its modifiers (VIII.C, IV.F.5, IX.G), the
hexes a side holds."""

from __future__ import annotations

import pytest

from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.events import modifier
from tabletop.core.engine.trackgroups import shift
from tabletop.games.iwo_valor import common as c
from tabletop.games.iwo_valor.queries import controls, current_strength, supplied, supply

from .helpers import empty_match, put

INF, TANK, HQ = "A/1/23/4", "A/4TK", "HQ/4"


def test_VII_supply_answers_whether_and_by_which_rule() -> None:
    """VII.B all of turn 1 and a unit's first turn ashore; VII.A a path of 5 hexes to an
    undisrupted HQ of its division; VII.B (IV.A.3) the Independent Regiment's 4 hexes to a
    landed beach hex when its HQ supplies no one."""
    m = empty_match(turn=1)
    p = put(m, INF, "0515")
    assert supply(m, INF) == {"unit": INF, "supplied": True, "rule": "VII.B", "why": "all of Game Turn 1"}
    m.state.turn = 5
    p.attrs["landed"] = 5
    assert supply(m, p)["why"] == "its first turn on the island"
    p.attrs["landed"] = 1
    assert not supplied(m, INF)  # no HQ
    hq = put(m, HQ, "0512")
    assert supply(m, INF)["rule"] == "VII.A" and supplied(m, INF) and supplied(m, HQ)
    hq.face = "back"  # IX.H: a DISRUPTED HQ provides no Supply (VII.A)
    assert not supplied(m, INF)
    m.state.vars[c.V_IND] = "23"
    assert supply(m, INF)["rule"] == "VII.B" and supplied(m, INF)
    assert supplied(m, INF) == c.is_supplied(m, p)


def test_VII_supply_is_asked_of_marine_units_only() -> None:
    """VII: only Marine units are Supplied or not; an unknown unit is one clear message."""
    m = empty_match()
    put(m, "A/310", "0922")
    with pytest.raises(TabletopError, match="only Marine units"):
        supply(m, "A/310")
    with pytest.raises(TabletopError, match="no piece 'Z/99'"):
        supplied(m, "Z/99")
    assert supply(m, INF) == {"unit": INF, "supplied": False, "rule": "VII", "why": "not on the island"}


def test_VIII_C_IV_F_5_current_strength_of_a_marine_attack() -> None:
    """VIII.C: an HQ joining (VIII.A), -1 elevation, -1 for every 2 Fatigue Points; IV.F.5 at
    a Banzai Charge -3 and no HQ or elevation; with no target, the modifiers of any attack."""
    m = empty_match(turn=8)
    put(m, "A/310", "0925")  # level 3
    put(m, INF, "0924")  # level 2
    put(m, HQ, "0924")
    shift(m.state, c.FATIGUE, "23", 5)
    got = current_strength(m, INF, "0925")
    assert got["base"] == 6 and got["steps"] == 3
    assert got["modifiers"] == [modifier("VIII.A", HQ, 2), modifier("VIII.C", "elevation", -1),
                                modifier("VIII.C", "fatigue", -2)]
    assert got["strength"] == 5
    anywhere = current_strength(m, INF)["modifiers"]
    assert anywhere == [modifier("VIII.A", HQ, 2), modifier("VIII.C", "fatigue", -2)]
    night = current_strength(m, INF, "0925", banzai=True)
    assert night["modifiers"] == [modifier("IV.F.5", "Banzai Charge (night)", -3),
                                  modifier("VIII.C", "fatigue", -2)]
    assert night["strength"] == 1


def test_IX_G_current_strength_of_japanese_fire() -> None:
    """IX.G: the fire's modifiers at a Marine hex (elevation, crossfire, armour, turn 1);
    clamped at 10; with no target the turn bonus alone; an unknown kind of fire refused."""
    m = empty_match(turn=1)
    put(m, "A/310", "0925")  # level 3
    put(m, "B/310", "0923")
    put(m, INF, "0924")
    put(m, TANK, "0924")
    got = current_strength(m, "A/310", "0924")
    assert [x["name"] for x in got["modifiers"]] == ["elevation", "crossfire", "armour", "turn 1"]
    assert got["strength"] == min(10, got["base"] + 5)
    assert current_strength(m, "A/310")["modifiers"] == [modifier("IX.G", "turn 1", 2)]
    m.state.turn = 6
    assert current_strength(m, "A/310")["modifiers"] == []
    with pytest.raises(TabletopError, match="opportunity, ambush, regular"):
        current_strength(m, "A/310", "0924", attack="artillery")


def test_V_B_VII_A_controls_the_hexes_occupied_and_the_landed_beach() -> None:
    """The hexes each side holds: those its units occupy (V.B), and for the Marines the
    landed beach hexes no Japanese unit occupies (VII.A's Supply sources)."""
    m = empty_match()
    landed = set(m.state.vars[c.V_LANDED])
    put(m, INF, "0924")
    beach = sorted(landed)[0]
    put(m, "A/310", beach)
    put(m, "B/310", "0925")
    assert controls(m, c.JAPAN) == {beach, "0925"}
    assert controls(m, c.US) == (landed - {beach}) | {"0924"}
    with pytest.raises(TabletopError, match="no side 'Soviets'"):
        controls(m, "Soviets")
