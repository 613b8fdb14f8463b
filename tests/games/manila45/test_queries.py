"""The questions a Manila '45 rule test asks, answered by ``manila45.queries``: a unit's fire
factor and range, a fire's strength, column and modifiers (offensive, demolition, defensive)
before it is made, the chance of an E, the hexes a side holds, whether a unit is revealed.
Each answer is checked against what the rules then do (the fire event's fields)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tabletop.core.designer.testing import answer, force, start
from tabletop.core.engine.decisions import DONE
from tabletop.core.engine.events import modifier
from tabletop.games.manila45 import GAME
from tabletop.games.manila45 import queries as q
from tabletop.games.manila45.defensive_fire import defensive_firers

from .conftest import position


def test_2_5_10_3_fire_factor_range_strength_and_column() -> None:
    """2.5: 44 Tk fires 8 at range 2, 61 FA 8 at range 10; 10.3-10.4: together 16 factors,
    read on the 15..19 column; alone, on the <=9 column."""
    m = position({}, {"x-44tk": "3030", "c-61fa": "3228"})
    tank, gun = m.state.pieces["x-44tk"], m.state.pieces["c-61fa"]
    assert (q.fire_factor(tank), q.fire_range(tank), q.fire_range(gun)) == (8, 2, 10)
    assert q.fire_strength([tank, gun]) == 16
    assert (q.crt_column(16), q.crt_column(8), q.crt_column(50)) == ("15..19", "<=9", ">=50")


def test_10_12_10_13_fire_modifiers_are_those_the_fire_then_logs() -> None:
    """10.12-10.13: asked before the fire, the modifiers of 61 FA firing at the urban 3225
    from three hexes are +1 urban and +1 range; the fire then logs the same modifiers, and
    the chance of an E at 8 factors and +2 is nil (E up to a modified 1)."""
    m = start(GAME, start="us_fire", turn=3, clear=["US", "Japan"],
              pieces={"c-61fa": {"at": "3228"}, "j-cf-1": {"at": "3225", "status": {"revealed": True}},
                      "j-cf-2": {"at": "2720"}},
              forced=[force("10.3 offensive fire", 1)])
    gun = m.state.pieces["c-61fa"]
    asked = q.fire_modifiers(m, "US", "3225", [gun])
    assert asked == [modifier("10.12", "target in an urban hex", 1),
                     modifier("10.13", "firing at a target two to four hexes away", 1)]
    assert q.chance_of_e(8, asked) == 0 and q.chance_of_e(8, []) == Fraction(1, 6)
    answer(m, {"fire": "3225"}, "c-61fa", DONE)
    assert m.log.of_kind("fire")[0].data["modifiers"] == asked


def test_10_17_10_12_close_assault_modifiers_across_a_bridge() -> None:
    """10.12, 10.17-10.18: 2/5 Cav next to 3722 across the Jones bridge: without a close
    assault the adjacent CAC -1 only; declaring one adds +1 for the bridge."""
    m = position({"j-cf-2": "3722"}, {"c-2-5": "3723"})
    cav = [m.state.pieces["c-2-5"]]
    plain = q.fire_modifiers(m, "US", "3722", cav)
    assault = q.fire_modifiers(m, "US", "3722", cav, close_assault=True)
    bridge = modifier("10.12", "close assault across a bridge or with the 672nd", 1)
    assert bridge not in plain and assault == [*plain, bridge]
    assert modifier("10.12", "half or more of the fire from adjacent CAC units", -1) in plain


def test_10_19_10_21_demolition_modifiers() -> None:
    """10.19: a bridge fired on from neither end with an enemy unit at one end: +1 and +1;
    10.21: a structure demolition with no unit adjacent, into a heavy structures hex:
    +1 and +1; an engineer among the firers: -2."""
    m = position({"j-cf-1": "3722"}, {"c-61fa": "3725", "c-8eng": "1813", "x-465fa": "1815"})
    gun = m.state.pieces["c-61fa"]
    assert q.fire_modifiers(m, "US", "3722-3723", [gun], kind="bridge") == [
        modifier("10.19", "a firing unit is not at the bridge", 1),
        modifier("10.19", "enemy units at one bridge end", 1)]
    far = m.state.pieces["x-465fa"]
    assert q.fire_modifiers(m, "US", "1812", [far], kind="demolish") == [
        modifier("10.21", "no firing unit is adjacent to the hex", 1),
        modifier("10.21", "a heavy structures hex", 1)]
    eng = m.state.pieces["c-8eng"]
    assert q.fire_modifiers(m, "US", "1812", [eng, far], kind="demolish") == [
        modifier("10.21", f"{eng.name} is a combat engineer", -2),
        modifier("10.21", "a heavy structures hex", 1)]
    with pytest.raises(ValueError, match="fire kind 'assault'"):
        q.fire_modifiers(m, "US", "1812", [far], kind="assault")


def test_9_5_defensive_fire_modifiers_are_those_the_fire_then_logs() -> None:
    """9.2, 9.5: 1/129 stepping into 2931 next to 2 P NF draws a defensive fire at -1 from
    that unit alone; the fire then logs the same modifiers."""
    m = start(GAME, start="us_move", turn=3, clear=["US", "Japan"],
              pieces={"i-1-129": {"at": "2932"}, "j-nf-2p": {"at": "2831"}},
              forced=[force("9.2 defensive fire", 6)])
    mover = m.state.pieces["i-1-129"]
    asked = q.defensive_fire_modifiers(m, mover, "2931")
    assert asked == [modifier("9.5", "defensive fire", -1)]
    assert [p.id for p in defensive_firers(m, mover, "2931")] == ["j-nf-2p"]
    assert defensive_firers(m, mover, "2932") == []  # two hexes from 2831
    answer(m, "i-1-129", "2931", True)
    assert m.log.of_kind("fire")[0].data["modifiers"] == asked


def test_4_2_4_3_6_5_hexes_held_and_revealed() -> None:
    """4.2-4.3, 8.14: the hexes a side's units stand in; 6.5: a Japanese unit placed face
    down is not revealed until flipped, a US unit always is."""
    m = position({"j-cf-1": "3722", "j-cf-2": "3722", "j-nf-2p": "2831"}, {"c-2-5": "3723"})
    assert q.hexes_held(m, "Japan") == {"3722", "2831"} and q.hexes_held(m, "US") == {"3723"}
    assert not q.is_revealed(m.state.pieces["j-cf-1"]) and q.is_revealed(m.state.pieces["c-2-5"])
    from tabletop.games.manila45.common import reveal

    reveal(m, [m.state.pieces["j-cf-1"]], "is fired on")
    assert q.is_revealed(m.state.pieces["j-cf-1"])
