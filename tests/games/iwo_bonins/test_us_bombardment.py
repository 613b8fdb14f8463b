"""8.0 US bombardment: 8.1 nine markers and the airfield bonuses, 8.2 one or two on an
attacked hex, 8.3 suppression on 1-3 (1-2 in a Storm), 8.4 storms. Dice are scripted."""

from __future__ import annotations

from fractions import Fraction

from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins import us_bombardment as B

from .test_us_movement import put, script, texts, us_match


def test_markers_and_airfields_8_1() -> None:
    """8.1: nine markers; ten with Airfield No. 1 free of Japanese units and ZOC; eleven with
    No. 2 too."""
    m = us_match()
    assert B.markers_available(m) == 11
    put(m, "309", "1409")  # next to Airfield No. 2 (1410)
    assert B.markers_available(m) == 10
    put(m, "310", "2115")  # next to Airfield No. 1 (2114)
    assert B.markers_available(m) == 9


def test_storm_no_bonus_8_4() -> None:
    """8.4: in a Storm the airfield markers are not available."""
    m = us_match(weather="Storm")
    assert B.markers_available(m) == 9
    assert B.suppress_chance(m) == Fraction(1, 3)


def test_suppression_8_3() -> None:
    """8.3a: 1d6 a marker; 1-3 suppresses (1-2 in a Storm); the markers are spent (8.2)."""
    m = us_match()
    put(m, "309", "2213")
    m.state.vars[c.V_BOMBARDMENT] = 9
    script(m, [4, 3])
    assert B.bombard(m, m.state.pieces["309"], 2) is True
    assert m.state.vars[c.V_BOMBARDMENT] == 7 and "309" in m.state.vars[c.V_SUPPRESSED]
    assert texts(m, "bombardment")[1].startswith("8.3: bombardment of 2213: roll 3 (suppressed")
    m = us_match(weather="Storm")
    put(m, "309", "2213")
    m.state.vars[c.V_BOMBARDMENT] = 9
    script(m, [3])
    assert B.bombard(m, m.state.pieces["309"], 1) is False


def test_at_most_two_a_hex_8_2() -> None:
    """8.2: one or two markers a hex, no more than are left."""
    m = us_match()
    put(m, "309", "2213")
    m.state.vars[c.V_BOMBARDMENT] = 9
    script(m, [6, 6])
    B.bombard(m, m.state.pieces["309"], 5)
    assert m.state.vars[c.V_BOMBARDMENT] == 7


def test_first_combat_phase_only_8_1() -> None:
    """8.1, 5.1.4b: markers are given in the first combat phase only; unused ones are lost."""
    m = us_match()
    B.start_phase(m)
    assert m.state.vars[c.V_BOMBARDMENT] == 11
    c.reset_phase_vars(m)
    assert m.state.vars[c.V_BOMBARDMENT] == 0
