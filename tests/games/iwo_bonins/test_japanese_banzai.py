"""15.5 Banzai attacks and the Japanese Movement Phase (5.1.5).

Each test names the section it checks; the dice are scripted (the three Banzai dice come
first, then the rolls each step makes).
"""

from __future__ import annotations

import contextlib

from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins.japanese_operations import banzai_attacks, japanese_movement_phase

from .test_japanese_units import Build, drive, jp_match, put, texts

__all__ = ["jp_match"]


def ready(m: object, cleared: list[int]) -> None:
    """Suribachi cleared and these sectors too (15.5 step 1)."""
    from tabletop.core.engine.match import Match

    assert isinstance(m, Match)
    m.state.vars[c.V_SURIBACHI] = True
    m.state.vars[c.V_CLEARED] = list(cleared)


def test_no_banzai_before_suribachi_falls(jp_match: Build) -> None:
    """15.5 step 1, 17.0: Banzai attacks commence only once Suribachi is cleared."""
    m = jp_match([])  # not a die rolled
    put(m, "309", "1312")
    put(m, "1/23", "1311")
    drive(banzai_attacks(m))
    assert m.state.pieces["309"].location == "1312"
    assert not texts(m, "banzai")


def test_first_die_above_cleared_sectors_no_attack(jp_match: Build) -> None:
    """15.5 step 1: an attack only if the first die is at most the cleared sectors."""
    m = jp_match([2, 2, 3])
    ready(m, [1])
    put(m, "309", "1312")
    put(m, "1/23", "1311")
    drive(banzai_attacks(m))
    assert m.state.pieces["309"].location == "1312" and c.is_dug_in(m.state.pieces["309"])
    assert "first die 2 is more than the 1 cleared" in texts(m, "banzai")[0]


def test_no_japanese_in_sector_no_attack(jp_match: Build) -> None:
    """15.5 step 1: the second die's sector holds no Japanese unit: no attack."""
    m = jp_match([1, 3, 3])
    ready(m, [1])
    put(m, "309", "1312")
    put(m, "1/23", "1311")
    drive(banzai_attacks(m))
    assert "sector 3 holds no Japanese unit" in texts(m, "banzai")[0]


def test_adjacent_unit_attacks_ex_reduces_and_dies(jp_match: Build) -> None:
    """15.5 steps 2-3: the closest unit, adjacent, attacks: 3 vs 4 = -1, two columns right
    on the broken line (-1) is +1..+2; roll 6 -> Ex; Regular column: Ae+(D)."""
    m = jp_match([1, 2, 1, 6])
    ready(m, [1])
    put(m, "309", "1512")  # adjacent to the Marines at 1412
    put(m, "310", "1214")  # three hexes off
    put(m, "1/23", "1412")
    drive(banzai_attacks(m))
    assert m.state.pieces["1/23"].steps == 1
    assert m.state.pieces["309"].location == c.CONTAINER
    assert m.state.pieces["310"].location == "1214"  # the third die allowed one check only
    attack = texts(m, "banzai_attack")[0]
    assert "differential -1" in attack and ": Ex;" in attack
    assert "closest to a US unit in sector 2" in texts(m, "banzai_flip")[0]


def test_d3_regular_retreat_decision(jp_match: Build) -> None:
    """9.2.3: D3 retreats three hexes, the US player choosing where (9.3)."""
    m = jp_match([1, 2, 1, 6])
    ready(m, [1])
    put(m, "309", "1312")
    put(m, "1/23", "1311")
    bn = m.state.pieces["1/23"]
    bn.steps, bn.face = 1, "back"
    gen = banzai_attacks(m)
    decision = next(gen)
    assert decision.player == c.US and decision.kind == "retreat_hex"
    dest = decision.values[0]
    with contextlib.suppress(StopIteration):
        gen.send(dest)
        raise AssertionError("a second decision was not expected")
    assert bn.location == dest and bn.steps == 1
    assert m.state.pieces["309"].location == c.CONTAINER


def test_d3_option_15_5_is_a_step_loss(jp_match: Build) -> None:
    """15.5 step 3 (option banzai_crmt=15.5): D3 converts to (D): the reduced unit dies."""
    m = jp_match([1, 2, 1, 6], options={"banzai_crmt": "15.5"})
    ready(m, [1])
    put(m, "309", "1312")
    put(m, "1/23", "1311")
    bn = m.state.pieces["1/23"]
    bn.steps, bn.face = 1, "back"
    asked, _ = drive(banzai_attacks(m))
    assert not asked
    assert bn.location == c.US_ELIMINATED


def test_d2_regular_us_chooses(jp_match: Build) -> None:
    """9.2.3: D2: the US player chooses between a two-hex retreat and a step loss. Full
    Marines on clear: 3 - 4 = -1 -> +3..+4; roll 6 -> D2."""
    m = jp_match([1, 2, 1, 6])
    ready(m, [1])
    put(m, "309", "1312")
    put(m, "1/23", "1311")
    asked, _ = drive(banzai_attacks(m), ["(D)"])
    assert asked[0].player == c.US and asked[0].section == "9.2.3"
    assert m.state.pieces["1/23"].steps == 1 and m.state.pieces["1/23"].location == "1311"


def test_unit_moves_adjacent_then_attacks(jp_match: Build) -> None:
    """15.5 step 2: not adjacent: it moves adjacent to the US unit if its MP allow (1413 ->
    1412, broken, 2 of 4 MP), then attacks."""
    m = jp_match([1, 2, 1, 1])  # CRT roll 1: -1 on clear +2 -> +3..+4 row 1: A2 -> Ae
    ready(m, [1])
    put(m, "309", "1413")
    put(m, "1/23", "1411")
    drive(banzai_attacks(m))
    move = texts(m, "banzai_move")[0]
    assert "1413 -> 1412" in move
    assert m.state.pieces["309"].location == c.CONTAINER
    assert m.state.pieces["1/23"].steps == 2


def test_too_few_mp_redeploys_in_place(jp_match: Build) -> None:
    """15.5 step 2, 5.1.7c: in a Storm the MG battalion (MA 2) has 1 MP: it cannot enter
    the broken hex next to the Marines, so it redeploys in place (15.4), and it counts."""
    m = jp_match([1, 2, 1])  # alone in the container, no other dug-in unit: no more dice
    ready(m, [1])
    m.state.vars[c.V_WEATHER] = "Storm"
    put(m, "1 MG", "1413")
    put(m, "1/23", "1411")
    drive(banzai_attacks(m))
    mg = m.state.pieces["1 MG"]
    assert mg.location == "1413" and c.is_dug_in(mg)
    assert any("redeploys in place" in t for t in texts(m, "banzai"))


def test_zero_factor_unit_redeploys_and_counts(jp_match: Build) -> None:
    """15.5 step 2: a flipped HQ (zero factors) redeploys in place and counts toward the
    third die; the next closest then moves (1413 -> 1412 -> 1411) and attacks."""
    # third die 2: the HQ (1 hex) is checked first, then 309 (2 hexes) attacks.
    # HQ redeploys in place: alone in the container; 0410... none; 309 at 1413 rolls 5.
    m = jp_match([1, 2, 2, 5, 1])  # CRT roll 1 for 309: -1 on clear -> A2 -> Ae
    ready(m, [1])
    put(m, "145 HQ", "1312")
    put(m, "309", "1413")
    put(m, "1/23", "1311")
    drive(banzai_attacks(m))
    assert m.state.pieces["145 HQ"].location == "1312"
    assert m.state.pieces["309"].location == c.CONTAINER
    flips = texts(m, "banzai_flip")
    assert len(flips) == 2 and "145 HQ" in flips[0] and "309" in flips[1]
    assert "1413 -> 1411" in texts(m, "banzai_move")[0]


def test_units_beyond_4_mp_are_not_checked(jp_match: Build) -> None:
    """15.5 step 4: no remaining unit within 4 MP of a US unit: the attacks stop."""
    m = jp_match([1, 2, 6])
    ready(m, [1])
    put(m, "309", "1615")  # far from the Marines at 1211
    put(m, "1/23", "1211")
    drive(banzai_attacks(m))
    assert m.state.pieces["309"].location == "1615" and c.is_dug_in(m.state.pieces["309"])
    assert "no more Japanese units" in texts(m, "banzai")[-1]


def test_equidistant_units_die_roll(jp_match: Build) -> None:
    """15.5 step 2: a die chooses between equidistant units (in hex order)."""
    m = jp_match([1, 2, 1, 5, 1])  # 5: the 2nd of [1211, 1312] (4-6); CRT roll 1 -> Ae
    ready(m, [1])
    put(m, "309", "1211")
    put(m, "310", "1312")
    put(m, "1/23", "1311")
    drive(banzai_attacks(m))
    assert m.state.pieces["310"].location == c.CONTAINER
    assert m.state.pieces["309"].location == "1211"
    assert "a die among 2 equidistant units" in texts(m, "banzai_flip")[0]


def test_movement_phase_replacement_then_banzai(jp_match: Build) -> None:
    """5.1.5: a) one replacement (14.4), b) the Banzai check (15.5)."""
    m = jp_match([2, 2, 2, 3])  # replacement to sector 2; Banzai dice 2 2 3 > 1 cleared
    ready(m, [1])
    put(m, "309", "1414")
    put(m, "310", c.CONTAINER)
    drive(japanese_movement_phase(m))
    assert m.state.pieces["310"].location == "1214"
    assert texts(m, "banzai")


def test_zero_movement_unit_adjacent_does_not_attack(jp_match: Build) -> None:
    """15.5 step 2, 14.3: an attack *or movement* factor of zero redeploys in place: an AA
    battalion (2-2-0) next to the Marines does not attack."""
    m = jp_match([1, 2, 1])  # alone in the container, no other dug-in unit: no more dice
    ready(m, [1])
    put(m, "AA Bn", "1312")
    put(m, "1/23", "1311")
    drive(banzai_attacks(m))
    assert m.state.pieces["AA Bn"].location == "1312" and c.is_dug_in(m.state.pieces["AA Bn"])
    assert not texts(m, "banzai_attack")
    assert m.state.pieces["1/23"].steps == 2
