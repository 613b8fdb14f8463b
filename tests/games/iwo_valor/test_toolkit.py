"""Iwo Jima: Valor of Arms, rule tests in about ten lines with the toolkit of
``tabletop.core.designer.testing`` (positions, forced dice, answers): III.3, III.5, III.6, IV, IV.B.2,
IV.G.5, IX.C, IX.H, X.A.

A position starts at ``start`` (the opening: III.4 beach and waves, III.5-6 bombardment,
with the pieces the position leaves on the board) or at any phase of IV (``jp_combat``,
``record``...) with the opening done: the Minami beach landed on, unless the position's vars
say otherwise. A forced roll is named by its purpose alone ("landing losses"): the core reads a
section token only when it starts with a digit, and this rulebook's sections are Roman.

These port, through the game's own flow, checks made by hand-built matches elsewhere:
test_turn.py's test_III_5_6_bombardment, test_movement_supply.py's test_IV_B_2_landing_roll
and test_fog_III_3_reveal_within_two_hexes_for_good.
"""

from __future__ import annotations

import pytest

from tabletop.core.designer.testing import answer, check_dice_used, force, start, texts
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.registry import make_agent
from tabletop.games.iwo_valor import GAME

LOD = "line_of_departure"


@pytest.mark.parametrize("faces, steps", [((3, 3), 2), ((3, 4), 3)])
def test_III_5_a_class_1_unit_loses_a_step_on_6_or_less(faces: tuple[int, int], steps: int) -> None:
    """III.5: 2d6 for each Japanese unit in a Class 1 position; 6 or less, it loses a step."""
    m = start(GAME, scenario=LOD, clear=["US", "Japan"], pieces={"E/312": {"at": "0201"}},
              forced=[force("pre-invasion bombardment (class 1)", *faces)])
    answer(m, "minami")                          # III.4: the beach; no unit to place
    assert m.state.pieces["E/312"].steps == steps
    check_dice_used(m)


def test_III_6_a_class_2_position_hit_on_4_or_less_becomes_class_1() -> None:
    """III.6: 4 or less leaves the unit whole but makes its hex a Class 1 position."""
    m = start(GAME, scenario=LOD, clear=["US", "Japan"], pieces={"C/312": {"at": "0506"}},
              forced=[force("pre-invasion bombardment (class 2)", 1, 3)])
    answer(m, "minami")
    assert m.state.vars["class1_hexes"] == ["0506"] and m.state.pieces["C/312"].steps == 3
    assert [(e.section, e.data["hex"]) for e in m.log.of_kind("class1")] == [("III.6", "0506")]
    check_dice_used(m)


@pytest.mark.parametrize("defenders, steps", [({}, 3), ({"2/12 AT": {"at": "0816"}}, 2)])
def test_IV_B_2_landing_roll_less_1_a_japanese_unit_within_two_hexes(
        defenders: dict[str, dict[str, str]], steps: int) -> None:
    """IV.B.2: a landing roll of 3 or less costs a step; 1 off for each Japanese unit within
    two hexes: a 4 lands whole on 0616, but not with a Japanese unit in 0816."""
    m = start(GAME, scenario=LOD, clear=["US", "Japan"], pieces={"A/1/23/4": {}, **defenders},
              forced=[force("landing losses", 2, 2)])
    answer(m, "minami", "0616")                  # III.4: A/1/23/4 in the first wave, on 0616
    assert m.state.pieces["A/1/23/4"].steps == steps
    check_dice_used(m)


def test_IV_B_2_a_landing_roll_of_0_costs_two_steps() -> None:
    """IV.B.2: two Japanese units within two hexes of 0617 take 2 off a roll of 2; a
    modified 0 falls 2 short of 2 and costs two steps."""
    m = start(GAME, scenario=LOD, clear=["US", "Japan"],
              pieces={"A/1/23/4": {}, "2/12 AT": {"at": "0816"}, "B/309": {"at": "0818"}},
              forced=[force("landing losses", 1, 1)])
    answer(m, "minami", "0617")
    assert m.state.pieces["A/1/23/4"].steps == 1
    assert [(e.section, e.data["lost"]) for e in m.log.of_kind("landing")] == [("IV.B.2", 2)]
    check_dice_used(m)


def test_III_3_a_unit_within_two_hexes_of_a_landing_is_revealed_for_good() -> None:
    """III.3: a Japanese unit within two hexes of a Marine unit is flipped face-up; one
    three hexes away stays face-down."""
    m = start(GAME, scenario=LOD, clear=["US", "Japan"],
              pieces={"A/1/23/4": {}, "2/12 AT": {"at": "0816"}, "B/309": {"at": "0818"}})
    answer(m, "minami", "0616")
    assert not m.state.pieces["2/12 AT"].hidden and m.state.pieces["B/309"].hidden


def test_X_A_no_japanese_unit_left_ends_the_game_at_the_record_phase() -> None:
    """X.A, XI.A: with no Japanese unit on the island the game ends at the end of turn 1's
    Game Turn Record Phase, and the Line of Departure schedule is read."""
    m = start(GAME, scenario=LOD, clear=["US", "Japan"], pieces={"A/1/23/4": {}})
    answer(m, "minami", "0510")
    m.run({"US": make_agent(GAME, "US", "heuristic", 0)})
    assert m.result is not None and m.state.turn == 1
    assert (m.result.section, m.result.winner) == ("XI.A", "US")


@pytest.mark.parametrize("faces, steps", [((6, 6), 2), ((1, 1), 3)])
def test_IV_IX_C_regular_fire_from_the_japanese_combat_phase(faces: tuple[int, int], steps: int) -> None:
    """IV entry point, IX.C: on turn 3, 2/12 AT (strength 3) next to A/1/23/4 fires at it
    after the artillery strike (IV.C.2, forced to miss); a 12 costs a step, a 2 nothing."""
    m = start(GAME, scenario=LOD, start="jp_combat", turn=3, clear=["US", "Japan"],
              pieces={"A/1/23/4": {"at": "0716"}, "2/12 AT": {"at": "0816"}},
              forced=[force("artillery attack", 1, 1), force("regular attack", *faces)])
    fire = m.log.of_kind("jp_attack")[1].data
    assert (fire["attack"], fire["unit"], fire["hex"]) == ("regular", "2/12 AT", "0716")
    assert (fire["base"], fire["modifiers"], fire["strength"]) == (3, [], 3)
    assert (fire["roll"], fire["steps"]) == (sum(faces), 3 - steps)
    assert m.state.pieces["A/1/23/4"].steps == steps
    assert not m.state.pieces["2/12 AT"].hidden  # III.3: revealed, a Marine within two hexes
    check_dice_used(m)


@pytest.mark.parametrize("japanese_at, recovers", [("1214", True), ("0817", False)])
def test_IX_H_IV_G_5_a_disrupted_hq_recovers_out_of_an_enemy_zoc(japanese_at: str, recovers: bool) -> None:
    """IX.H, IV.G.5 from the Game Turn Record Phase: a DISRUPTED HQ alone in its hex
    recovers unless it is in a Japanese unit's ZOC (0817 is next to 0717)."""
    m = start(GAME, scenario=LOD, start="record", turn=3, clear=["US", "Japan"],
              pieces={"HQ/4": {"at": "0717", "status": {"disrupted": True}}, "B/309": {"at": japanese_at}})
    assert (m.state.pieces["HQ/4"].face == "front") == recovers
    assert bool(texts(m, "recovered")) == recovers


def test_IX_H_III_3_statuses_are_refused_on_the_wrong_side() -> None:
    """IX.H: only a Marine HQ is disrupted; III.3: only a Japanese unit is revealed."""
    with pytest.raises(TabletopError, match="only a Marine HQ"):
        start(GAME, scenario=LOD, start="record", clear=["US", "Japan"],
              pieces={"A/1/23/4": {"at": "0716", "status": {"disrupted": True}}})
    with pytest.raises(TabletopError, match="only Japanese units"):
        start(GAME, scenario=LOD, start="record", clear=["US", "Japan"],
              pieces={"A/1/23/4": {"at": "0716", "status": {"revealed": True}}})
