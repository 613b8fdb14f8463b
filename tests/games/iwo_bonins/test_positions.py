"""Rule tests written with the shipped helpers (positions, forced dice, answers): 9.1, 9.2.1,
9.3, 9.4 combat from the US First Combat Phase, 5.1.7 the storm check, 14.2 dug-in status, and
the position files' checks. Each test names its section."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabletop.core.designer.testing import answer, check_dice_used, force, start, texts
from tabletop.core.engine.decisions import DONE
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.position import PositionError
from tabletop.core.engine.record import make_record, replay
from tabletop.games.iwo_bonins import GAME
from tabletop.games.iwo_bonins import common as c

from .test_us_combat import DIFF, roll_for

DUG_IN: dict[str, Any] = {"status": {"dug_in": True}}
#: 1/23 and FT/23 (8 + 5) in 2212 beside 309 (defense 3) in 2213; 310 far away keeps the
#: game going; every other Japanese unit is off the board.
ATTACK: dict[str, Any] = {
    "turn": 2, "start": "us_combat_1", "vars": {"beachhead": "east"}, "clear": ["Japan"],
    "pieces": {"1/23": {"at": "2212"}, "FT/23": {"at": "2212"},
               "309": {"at": "2213", **DUG_IN}, "310": {"at": "0213", **DUG_IN}}}


def test_d2_eliminates_and_advance_9_2_1_and_9_4() -> None:
    """9.2.1 D2, CRMT 1-2 (15.2: a dug-in defender is read on the CRMT Dug-In column): the
    defender is eliminated; 9.4: the attackers may advance."""
    m = start(GAME, **ATTACK, forced=[force("9.1 CRT", roll_for(DIFF, "clear", "D2")),
                                      force("9.2.1 CRMT", 1)])
    answer(m, "2213", "2212", "declare", 0, "2212")  # attack, add, declare, no bombardment, advance
    assert m.state.pieces["309"].location == c.CONTAINER
    assert {m.state.pieces[u].location for u in ("1/23", "FT/23")} == {"2213"}
    assert texts(m, "advance")[0].startswith("1/23, FT/23 advance")
    check_dice_used(m)


def test_exchange_costs_the_attacker_a_step_9_2_1() -> None:
    """9.2.1 Ex, CRMT 3: the defender is eliminated and the attacker loses a step (the US
    player picks which unit)."""
    m = start(GAME, **ATTACK, forced=[force("9.1 CRT", roll_for(DIFF, "clear", "Ex")),
                                      force("9.2.1 CRMT", 3)])
    answer(m, "2213", "2212", "declare", 0)
    assert m.pending is not None and m.pending.section.startswith("9.")
    answer(m, "1/23")
    assert m.state.pieces["309"].location == c.CONTAINER
    assert m.state.pieces["1/23"].steps == 1 and m.state.pieces["1/23"].face == "back"
    check_dice_used(m)


def test_attacker_retreats_toward_a_beach_9_3() -> None:
    """9.2.1 A1, 9.3: the attacker retreats one hex, offered only hexes closer to a landing
    beach; 15.4: the defender redeploys in place."""
    pieces = {**ATTACK["pieces"], "FT/23": {"at": c.AVAILABLE}}
    diff = 8 - 3
    m = start(GAME, **{**ATTACK, "pieces": pieces},
              forced=[force("9.1 CRT", roll_for(diff, "clear", "A1"))])
    answer(m, "2213", "2212", "declare", 0)
    assert m.pending is not None and m.pending.kind == "retreat_hex"
    assert set(m.pending.values) == {"2211", "2312"}
    answer(m, "2211")
    assert m.state.pieces["1/23"].location == "2211"
    check_dice_used(m)


def test_storm_check_flips_the_turn_marker_5_1_7() -> None:
    """5.1.7 b): the Administrative Phase rolls on the Storm table by this turn's weather;
    a 6 after a clear turn brings a storm, and the Turn marker shows its Storm side."""
    m = start(GAME, turn=3, start="admin", vars={"beachhead": "east", "weather": "Clear"},
              forced=[force("5.1.7 storm check", 6)])
    assert m.state.vars[c.V_WEATHER] == "Storm" and m.state.pieces["turn"].face == "back"
    assert m.state.turn == 4 and m.pending is not None  # turn 4's first movement decision
    check_dice_used(m)


def test_a_forced_roll_that_never_comes_up_fails_the_test_9_1() -> None:
    """The helpers: a forced 9.1 CRT roll with no attack made is left over, and the check
    says so."""
    m = start(GAME, **ATTACK, forced=[force("9.1 CRT", 6)])
    answer(m, DONE)
    with pytest.raises(AssertionError, match=r"9\.1 CRT"):
        check_dice_used(m)


def test_dug_in_is_one_status_14_2() -> None:
    """14.2: dug in is the back face and hidden together; a position that sets one without
    the other is refused, naming the piece and what disagrees."""
    bad = {**ATTACK, "pieces": {**ATTACK["pieces"], "309": {"at": "2213", "face": "front"}}}
    with pytest.raises(PositionError, match=r"309 shows its front face but is hidden"):
        start(GAME, **bad)
    revealed = {**ATTACK, "pieces": {**ATTACK["pieces"],
                                     "309": {"at": "2213", "status": {"dug_in": False}}}}
    m = start(GAME, **revealed)
    assert not m.state.pieces["309"].hidden and not c.is_dug_in(m.state.pieces["309"])
    with pytest.raises(PositionError, match="only Japanese units dig in"):
        start(GAME, **{**ATTACK, "pieces": {"1/23": {"at": "2212", "status": {"dug_in": True}}}})


def test_reduced_is_one_status_2_3() -> None:
    """2.3: a two-step US unit shows its back exactly when reduced; status reduced sets both."""
    m = start(GAME, **{**ATTACK, "pieces": {**ATTACK["pieces"],
                                             "1/23": {"at": "2212", "status": {"reduced": True}}}})
    assert (m.state.pieces["1/23"].steps, m.state.pieces["1/23"].face) == (1, "back")
    with pytest.raises(PositionError, match="1/23 has 1 step"):
        start(GAME, **{**ATTACK, "pieces": {**ATTACK["pieces"], "1/23": {"at": "2212", "steps": 1}}})


def test_a_match_from_a_position_replays_and_undoes_5_1() -> None:
    """A match is its record: started from a position with forced dice, it replays to the
    same state and undoes its last decision (5.1.2)."""
    m = start(GAME, **ATTACK, forced=[force("9.1 CRT", roll_for(DIFF, "clear", "D2")),
                                      force("9.2.1 CRMT", 1)])
    answer(m, "2213", "2212", "declare", 0)
    before_advance = m.state_hash()
    answer(m, "2212")
    again = replay(GAME, json.loads(json.dumps(make_record(m))))
    assert again.state_hash() == m.state_hash() and again.log.to_jsonl() == m.log.to_jsonl()
    m.undo(1)
    assert m.state_hash() == before_advance


def test_position_needs_a_beachhead_3_3() -> None:
    """3.3: US units ashore with no beachhead chosen is not a position of the game."""
    with pytest.raises(PositionError, match="no beachhead"):
        start(GAME, **{**ATTACK, "vars": {}})
    with pytest.raises(TabletopError, match="cannot start at 'combat'"):
        start(GAME, **{**ATTACK, "start": "combat"})


def test_two_player_banzai_is_rolled_by_the_rules_18_6() -> None:
    """18.6: in the two-player game Banzai attacks are conducted as in the solitaire game
    (15.5): the check is rolled by the rules before the Japanese player's first decision of
    the phase (18.2 movement)."""
    m = start(GAME, scenario="two_player", turn=5, start="jp_move",
              vars={"beachhead": "east", "suribachi_cleared": True},
              pieces={"1/23": {"at": "2212"}, "309": {"at": "2213", **DUG_IN}},
              forced=[force("15.5 Banzai", 1, 1, 1)])
    assert m.decisions == [] and texts(m, "banzai")[0].startswith("no Banzai attack: first die 1")
    assert m.pending is not None and (m.pending.player, m.pending.section) == (c.JAPAN, "18.2")
    check_dice_used(m)


def test_solitaire_japanese_units_move_only_to_redeploy_or_banzai_15_1() -> None:
    """15.1: in the solitaire game a face-up Japanese unit next to a US unit neither moves
    nor attacks in the Japanese phases (no Banzai before Suribachi falls, 15.5)."""
    m = start(GAME, turn=4, start="jp_move", vars={"beachhead": "east"}, clear=["Japan"],
              pieces={"1/23": {"at": "2212"}, "309": {"at": "2213", "status": {"dug_in": False}}})
    assert m.state.turn == 5 and m.state.phase == "us_move_1"  # both Japanese phases ran
    assert m.state.pieces["309"].location == "2213"
    assert not [e for e in m.log if e.kind in ("banzai_combat", "move") and e.data.get("unit") == "309"]


def test_position_variables_are_the_rules_values_3_3_5_1_7() -> None:
    """3.3 the beachhead is east or west; 5.1.7 the weather Clear or Storm; 11.4 at most the
    three regiments of the 3rd Division committed."""
    for bad, message in (({"beachhead": "north"}, "3.3: vars.beachhead"),
                         ({"beachhead": "east", "weather": "Fog"}, "5.1.7: vars.weather"),
                         ({"beachhead": "east", "reserves_committed": 4}, "11.4")):
        with pytest.raises(PositionError, match=message):
            start(GAME, **{**ATTACK, "vars": bad})


def test_an_edit_before_the_beachhead_choice_3_2_3_3() -> None:
    """3.2, 3.3: an edit at the very first decision (the set-up's shuffle is the set-up's,
    not the flow's) restarts the flow from the edited set-up: the beachhead is asked again."""
    from tabletop.core.engine.match import Match

    m = Match(GAME, seed=4)
    with m.edit() as state:
        state.pieces.move("309", c.CONTAINER)
        c.dig_in(state.pieces["309"])
    assert m.pending is not None and m.pending.section == "3.3"
    assert m.state.pieces["309"].location == c.CONTAINER
    assert m.restart().state_hash() == m.state_hash()  # the record starts from the edit


#: FT/27 with the reduced 3/26 in 2613 attack the dug-in 145 Arty in 2713 in the US Second
#: Mobile Combat Phase of turn 6, the east beaches chosen; a CRT 1 gives A2. Two hexes back
#: lies 2515, a purple beach of the west set: empty, but not a hex this stack may end in.
#: 309 in 2712, beside 1/23 only, keeps the combat phase open after the retreat.
RETREAT_BY_THE_OTHER_BEACHES: dict[str, Any] = {
    "scenario": "solitaire", "start": "us_combat_2", "turn": 6, "vars": {"beachhead": "east"},
    "clear": ["Japan"],
    "pieces": {"FT/27": {"at": "2613"}, "3/26": {"at": "2613", "status": {"reduced": True}},
               "145 Arty": {"at": "2713", **DUG_IN}, "1/23": {"at": "2612"},
               "309": {"at": "2712", **DUG_IN}, "310": {"at": "0213", **DUG_IN}}}


def _retreat_choice(options: dict[str, str] | None = None) -> list[str]:
    """The hexes offered to FT/27 and 3/26 retreating two hexes (A2) from 2613."""
    m = start(GAME, **RETREAT_BY_THE_OTHER_BEACHES, options=options or {},
              forced=[force("9.1d CRT", 1)])
    answer(m, "2713", "2613", "declare")  # attack 145 Arty with 2613's stack only
    assert m.pending is not None and m.pending.kind == "retreat_hex"
    assert m.pending.context["units"] == ["FT/27", "3/26"]
    return list(m.pending.values)


def test_a_stack_never_retreats_onto_a_beach_not_chosen_6_3b_9_3() -> None:
    """9.3 with 6.3b: "No stacking is allowed on the other set of beaches", so a Marine
    battalion and its support unit retreating two hexes are not offered the empty west beach
    hex 2515; every hex they are offered leaves the board as 6.3 allows (no broken invariant,
    where "6.3/12.1: ... overstack 2515" was reported). With other_beaches=support it is."""
    assert c.beach_colour("2515") is not None and "2515" not in c.landing_beach_hexes_of("east")
    offered = _retreat_choice()
    assert "2515" not in offered and offered
    for dest in offered:
        m = start(GAME, **RETREAT_BY_THE_OTHER_BEACHES, forced=[force("9.1d CRT", 1)])
        answer(m, "2713", "2613", "declare", dest)
        assert m.pending is not None and m.pending.kind == "attack_defender"  # same phase
        assert {m.state.pieces[u].location for u in ("FT/27", "3/26")} == {dest}
        assert GAME.invariants(m) == []
        check_dice_used(m)
    # 6.3b read with 12.1 (option other_beaches=support): a support unit may still stack
    # with a battalion on the other set of beaches, so there the retreat may end on 2515.
    assert sorted(_retreat_choice({"other_beaches": "support"})) == sorted([*offered, "2515"])


#: The position random play found (solitaire seed 1010): FT/27 with the reduced 3/26 in
#: 2613 attack the dug-in 145 Arty in 2713, the east beaches chosen; a CRT 1 gives A2.
#: Nothing else can be attacked after it, so the retreat closes the combat phase.
RETREAT_FOUND_BY_RANDOM_PLAY: dict[str, Any] = {
    "scenario": "solitaire", "start": "us_combat_2", "turn": 6, "vars": {"beachhead": "east"},
    "clear": ["Japan"],
    "pieces": {"FT/27": {"at": "2613"}, "3/26": {"at": "2613", "status": {"reduced": True}},
               "145 Arty": {"at": "2713", **DUG_IN}, "1/23": {"at": "2612"},
               "310": {"at": "0213", **DUG_IN}}}


@pytest.mark.parametrize("toward_beach", ["when_possible", "advice"])
def test_a_retreat_never_ends_in_a_stack_6_3b_forbids(toward_beach: str) -> None:
    """9.3 with 6.3b ("No stacking is allowed on the other set of beaches"): the stack
    retreating two hexes is never offered 2515, an empty beach hex of the west set, whether
    only the hexes closer to a landing beach are offered or every legal one (9.3's "should",
    option retreat_toward_beach); wherever it retreats, the game goes on to the next decision
    with every hex stacked as 6.3 allows."""
    options = {"retreat_toward_beach": toward_beach}
    m = start(GAME, **RETREAT_FOUND_BY_RANDOM_PLAY, options=options, forced=[force("9.1d CRT", 1)])
    answer(m, "2713", "2613", "declare")
    assert m.pending is not None and m.pending.kind == "retreat_hex"
    offered = list(m.pending.values)
    assert offered and "2515" not in offered
    for dest in offered:
        m = start(GAME, **RETREAT_FOUND_BY_RANDOM_PLAY, options=options,
                  forced=[force("9.1d CRT", 1)])
        answer(m, "2713", "2613", "declare", dest)
        assert [e.data["to"] for e in m.log.of_kind("retreat")] == [dest]
        assert m.pending is not None and GAME.invariants(m) == []
        check_dice_used(m)


#: Two-player: the Japanese player has walked 309 onto 2515, a west beach hex, the east
#: beaches chosen; 1/23 with FT/23 in 2514 and 2/23 alone in 2414 attack it.
ADVANCE_ONTO_THE_OTHER_BEACHES: dict[str, Any] = {
    "scenario": "two_player", "start": "us_combat_2", "turn": 6, "vars": {"beachhead": "east"},
    "clear": ["Japan"],
    "pieces": {"1/23": {"at": "2514"}, "FT/23": {"at": "2514"}, "2/23": {"at": "2414"},
               "309": {"at": "2515", "status": {"dug_in": False}}, "310": {"at": "0213", **DUG_IN}}}


@pytest.mark.parametrize("other_beaches", ["strict", "support"])
def test_an_advance_never_ends_in_a_stack_6_3b_forbids(other_beaches: str) -> None:
    """9.4 with 6.3b and 12.2: after a De the attackers may advance into 2515, a beach of
    the set not chosen; the battalion advancing with its support unit would stack there, so
    only the lone 2/23 is offered; under option other_beaches=support (12.1's support
    stacking kept there) the stack is offered too."""
    probe = start(GAME, **ADVANCE_ONTO_THE_OTHER_BEACHES).state.pieces
    diff = sum(c.printed(probe[u], "attack") for u in ("1/23", "FT/23", "2/23")) \
        - c.printed(probe["309"], "defense")
    m = start(GAME, **ADVANCE_ONTO_THE_OTHER_BEACHES, options={"other_beaches": other_beaches},
              forced=[force("9.1d CRT", roll_for(diff, "beach", "De"))])
    answer(m, "2515", "2514", "2414", "declare")
    assert m.state.pieces["309"].location == c.CONTAINER
    assert m.pending is not None and m.pending.kind == "advance"
    expected = ["none", "2414"] if other_beaches == "strict" else ["none", "2414", "2514"]
    assert sorted(m.pending.values) == sorted(expected)
    answer(m, "2514" if other_beaches == "support" else "2414")
    assert GAME.invariants(m) == []
    check_dice_used(m)

