"""Iwo Jima 1945, rule by rule: every test names the section of shared/rules/iwo_1945.txt it
checks (2.0 board and control ... 9.0 key rules). Positions are set up by hand and the dice
scripted; each rule's procedure is driven with given answers."""

from __future__ import annotations

import pytest

from tabletop.core.engine.decisions import DONE
from tabletop.core.engine.match import Match
from tabletop.games.iwo_1945 import GAME, actions, attacks, cards, japanese_turn, usmc_turn
from tabletop.games.iwo_1945 import cohesion as coh
from tabletop.games.iwo_1945 import positions as P
from tabletop.games.iwo_1945.components import (
    Banzai,
    FireAttack,
    Hook,
    Infiltrate,
    MoveMarkers,
    PlaceBunker,
    ReduceCohesion,
)
from tabletop.games.iwo_1945.victory import scores

from .helpers import (
    decisions_of,
    drive,
    empty_board,
    give_hand,
    japanese_top,
    new_match,
    put_cube,
    put_japanese,
    put_regiment,
    script,
)


def board(**regiments: tuple[str, int]) -> Match:
    """An empty board with regiments placed as rid=(position, cohesion); no hand."""
    m = new_match()
    empty_board(m)
    give_hand(m)
    for rid, (pos, c) in regiments.items():
        put_regiment(m, rid.replace("_", "/"), pos, cohesion=c)
    return m


# -- 2.0 Game Board -------------------------------------------------------------------------------
def test_2_0_board_positions_mountains_and_arrows() -> None:
    """2.0: four beaches (3 slots, USMC only), ten numbered island positions, four mountains;
    the arrows of the rulebook's examples (Green/Red-Neck 10.0, Blue-Turkey Knob and Turkey
    Knob-Airfield 3 6.0)."""
    assert len(P.beaches()) == 4 and len(P.islands()) == 10
    assert sum(P.is_mountain(p) for p in P.islands()) == 4
    assert P.is_mountain("mt_suribachi")
    for a, b in (("green_beach", "the_neck"), ("red_beach", "the_neck"),
                 ("blue_beach", "turkey_knob"), ("turkey_knob", "airfield_3")):
        assert b in P.adjacent(a) and a in P.adjacent(b)
    assert [P.priority(p) for p in P.islands()] == list(range(1, 11))


def test_2_0_control_follows_the_last_sole_occupant() -> None:
    """2.0: positions are Japanese until USMC markers last solely occupied them; a vacated
    Japanese position stays Japanese; a USMC position left empty stays USMC."""
    m = board(**{"3_9": ("red_beach", 12)})
    put_japanese(m, "the_neck", 1)
    assert P.control(m, "the_neck") == P.JAPAN
    P.remove_japanese_marker(m, "the_neck", "6.0", "test")
    P.update_control(m)
    assert P.control(m, "the_neck") == P.JAPAN
    P.move_regiment(m, "3/9", "the_neck", "6.0", "test")
    assert P.control(m, "the_neck") == P.USMC
    P.move_regiment(m, "3/9", "field_1", "6.0", "test")
    assert P.control(m, "the_neck") == P.USMC and P.control(m, "field_1") == P.USMC


def test_2_0_infiltration_cube_takes_control_until_removed() -> None:
    """2.0, 6.0 Key Rule: an infiltrating cube gains control of a USMC position even with
    USMC markers present; once destroyed, control returns to the USMC."""
    m = board(**{"3_9": ("the_neck", 12)})
    put_regiment(m, "3/9", "the_neck", markers=2)
    put_cube(m, "infiltration", "the_neck")
    assert P.control(m, "the_neck") == P.JAPAN
    attacks.remove_cube(m, "the_neck")
    assert P.control(m, "the_neck") == P.USMC
    assert P.cube_at(m, "the_neck") is None


def test_2_0_mt_suribachi_first_occupation_raises_all_by_two_once() -> None:
    """2.0: the first Marine occupation of Mt. Suribachi puts a cube on the emblem and raises
    every on-board regiment by 2 (max 12), once only."""
    m = board(**{"3_3": ("green_beach", 8), "3_9": ("red_beach", 11)})
    P.move_regiment(m, "3/3", "mt_suribachi", "6.0", "test")
    assert P.cohesion(m, "3/3") == 10 and P.cohesion(m, "3/9") == 12
    assert m.state.pieces["suribachi"].location == P.EMBLEM
    P.move_regiment(m, "3/3", "green_beach", "6.0", "test")
    P.move_regiment(m, "3/3", "mt_suribachi", "6.0", "test")
    assert P.cohesion(m, "3/3") == 10


def test_4_0_suribachi_bonus_rallies_exhausted_regiments_at_6_or_more() -> None:
    """2.0 with 4.0's Note ("Regiments at 6 cohesion or higher are never exhausted"): the
    Suribachi +2 that lifts an exhausted regiment to 6 or more rallies it; one left at 5 or
    less stays exhausted and makes no check (checks come with regroups and cards)."""
    m = board(**{"3_3": ("green_beach", 8), "3_9": ("red_beach", 5), "3_21": ("yellow_beach", 2)})
    coh.mark_exhausted(m, "3/9")
    coh.mark_exhausted(m, "3/21")
    P.move_regiment(m, "3/3", "mt_suribachi", "6.0", "test")
    assert P.cohesion(m, "3/9") == 7 and not P.is_exhausted(m, "3/9")
    assert P.cohesion(m, "3/21") == 4 and P.is_exhausted(m, "3/21")
    assert [e.data.get("regiment") for e in m.log.of_kind("exhaustion")] == ["3/9"]  # no roll


def test_2_0_three_markers_at_most_and_beaches_usmc_only() -> None:
    """2.0: at most three markers in a position: Japanese reinforcement fills only empty
    slots; Japanese markers never enter a beach (6.0 reoccupy takes island positions)."""
    m = board(**{"3_9": ("red_beach", 12)})
    put_japanese(m, "the_gorge", 3)
    put_japanese(m, "the_neck", 2)
    japanese_turn.effect_move(m, MoveMarkers(type="move_markers", count=2, destination="reinforce"), "t")
    assert len(P.japanese_at(m, "the_neck")) == 3 and len(P.japanese_at(m, "the_gorge")) == 2
    # every island position held: the only vacant positions left are beaches
    empty_board(m)
    put_regiment(m, "3/9", "red_beach")
    for p in P.islands():
        put_japanese(m, p, 3 if p == "the_gorge" else 1)
    seq = len(m.log)
    japanese_turn.effect_move(m, MoveMarkers(type="move_markers", count=1, destination="reoccupy",
                                             through_usmc=True), "t")
    assert not any(P.japanese_at(m, b) for b in P.beaches())
    assert len(P.japanese_at(m, "the_gorge")) == 3
    assert any("ignored" in e.text for e in m.log.since(seq))
    assert GAME.invariants(m) == []


# -- 3.0 Game Components ------------------------------------------------------------------------
def test_3_0_bunker_absorbs_the_first_loss_of_a_defender() -> None:
    """3.0 example: 3/9 in Field 1 with a bunker; a Japanese fire attack's marker loss removes
    the bunker first."""
    m = board(**{"3_9": ("field_1", 12)})
    put_japanese(m, "airfield_2", 3)
    put_cube(m, "bunker", "field_1")
    script(m, [6, 1, 4])
    drive(m, japanese_turn.fire(m, "airfield_2", "field_1", 3, "test"))
    assert P.bunker_at(m, "field_1") is None and len(P.regiment_markers(m, "3/9")) == 3
    assert P.cohesion(m, "3/9") == 11


def test_3_0_attacker_cannot_use_its_own_bunker() -> None:
    """3.0 Important: an attacking regiment's double 1s cost a marker even with a bunker in
    its own position."""
    m = board(**{"3_9": ("field_1", 12)})
    put_japanese(m, "airfield_2", 3)
    put_cube(m, "bunker", "field_1")
    script(m, [1, 1, 2, 4, 4])
    drive(m, attacks.attack(m, "3/9", "airfield_2"), [DONE])
    assert len(P.regiment_markers(m, "3/9")) == 2 and P.bunker_at(m, "field_1") is not None


def test_3_0_bunker_removed_when_its_defenders_leave_but_not_on_a_swap() -> None:
    """3.0: a bunker is removed when all markers leave, unless USMC regiments swap (rotate)."""
    m = board(**{"3_9": ("field_1", 12), "3_3": ("the_neck", 12)})
    put_cube(m, "bunker", "field_1")
    actions.swap(m, "3/9", "3/3")
    assert P.bunker_at(m, "field_1") is not None
    P.move_regiment(m, "3/3", "red_beach", "6.0", "test")
    assert P.bunker_at(m, "field_1") is None


def test_3_0_a_regiment_without_markers_is_out() -> None:
    """3.0: when all markers of a regiment are removed, it is out of the game."""
    m = board(**{"3_9": ("red_beach", 12)})
    for _ in range(3):
        P.remove_usmc_marker(m, "3/9", "6.0", "test")
    assert P.regiment_pos(m, "3/9") is None and "3/9" not in P.on_board(m)
    assert any(e.kind == "eliminated" and e.section == "3.0" for e in m.log)


def test_3_0_kamikaze_hook_discards_the_top_marine_card() -> None:
    """3.0 (card text over rules), hook kamikaze_strike: the top Marine Draw card is lost
    unseen; with the deck empty the player discards one from the hand."""
    m = board()
    deck = m.state.decks["usmc"]
    top = deck.pile("draw")[0]
    drive(m, japanese_turn.hook_kamikaze_strike(m, {"cards": 1}, "Kamikaze"))
    assert deck.where(top) == "discard"
    deck.pile("draw").clear()
    (inst,) = give_hand(m, "dig_in")
    deck.piles["out"] = [c for c in deck.piles["out"] if c != inst]
    drive(m, japanese_turn.hook_kamikaze_strike(m, {"cards": 1}, "Kamikaze"), [f"card:{inst}"])
    assert cards.hand(m) == []


# -- 4.0 Cohesion and Exhaustion ------------------------------------------------------------------
def test_4_0_cohesion_stays_between_1_and_12() -> None:
    """4.0: cohesion never goes below 1 (further reductions ignored, not marker losses) nor
    above 12."""
    m = board(**{"3_9": ("red_beach", 2)})
    assert coh.reduce(m, "3/9", 3, "6.0", "test") == 1
    assert P.cohesion(m, "3/9") == 1 and len(P.regiment_markers(m, "3/9")) == 3
    coh.raise_(m, "3/9", 20, "6.0", "test")
    assert P.cohesion(m, "3/9") == 12


def test_4_0_exhaustion_check_die_against_cohesion() -> None:
    """4.0 Exhaustion Check: a die at or under the cohesion passes (cube removed), above it
    the regiment is exhausted (a red cube in its position)."""
    m = board(**{"3_9": ("red_beach", 4)})
    script(m, [5, 4])
    assert coh.exhaustion_check(m, "3/9", "test") is True
    cube = P.exhaustion_cube(m, "3/9")
    assert cube is not None and cube.location == "red_beach"
    assert coh.exhaustion_check(m, "3/9", "test") is False
    assert not P.is_exhausted(m, "3/9")


def test_4_0_checks_only_at_5_or_less_after_the_action() -> None:
    """4.0, 9.0 #5: an attack leaving cohesion 6 makes no check; one leaving 5 does, after
    the action is completed (after any advance)."""
    m = board(**{"3_9": ("red_beach", 7)})
    put_japanese(m, "the_neck", 3)
    script(m, [4, 4, 4, 4, 4])
    drive(m, attacks.attack(m, "3/9", "the_neck"))
    assert not m.log.of_kind("exhaustion")
    P.set_cohesion(m, "3/9", 6)
    script(m, [4, 4, 4, 4, 4, 6])
    drive(m, attacks.attack(m, "3/9", "the_neck"))
    assert P.is_exhausted(m, "3/9")


def test_4_0_japanese_reduction_at_5_or_less_checks_at_once() -> None:
    """4.0, 6.0: a Japanese attack reducing a regiment at 5 or less causes an immediate
    exhaustion check; an exhausted regiment makes none for further losses."""
    m = board(**{"3_9": ("the_neck", 6)})
    put_japanese(m, "field_1", 3)
    script(m, [5, 2, 2, 6])
    drive(m, japanese_turn.fire(m, "field_1", "the_neck", 3, "test"))
    assert P.cohesion(m, "3/9") == 5 and P.is_exhausted(m, "3/9")
    script(m, [5, 2, 2])
    drive(m, japanese_turn.fire(m, "field_1", "the_neck", 3, "test"))
    assert len([e for e in m.log if e.kind == "exhaustion"]) == 1


def test_4_0_exhausted_and_cohesion_1_limits() -> None:
    """4.0 Key Rules: an exhausted regiment may not attack, move or start a rotation (but may
    be rotated by another and may regroup); a regiment at cohesion 1 may not move or attack."""
    m = board(**{"3_9": ("the_neck", 9), "3_3": ("green_beach", 9)})
    put_japanese(m, "mt_suribachi", 3)
    coh.mark_exhausted(m, "3/9")
    assert actions.actors(m, "attack") == ["3/3"]
    assert "3/9" not in actions.actors(m, "move") and "3/9" not in actions.actors(m, "rotate")
    assert "3/3" in actions.actors(m, "rotate")  # 3/9 may be rotated by another's action
    assert "3/9" in actions.actors(m, "regroup")
    P.rally(m, "3/9", "6.0", "test")  # the control: rallied, it could do all of these
    assert {"3/9"} <= set(actions.actors(m, "attack")) & set(actions.actors(m, "move")) \
        & set(actions.actors(m, "rotate"))
    P.set_cohesion(m, "3/9", 1)
    assert "3/9" not in actions.actors(m, "attack") and "3/9" not in actions.actors(m, "move")


def test_4_0_regroup_of_an_exhausted_regiment_rallies_or_checks() -> None:
    """4.0, 6.0 Regroup: +3; an exhausted regiment at 6+ rallies; at 4 or 5 it checks; a
    non-exhausted regiment makes no check even if still at 5 or less."""
    m = board(**{"3_9": ("red_beach", 4), "3_3": ("green_beach", 1), "4_23": ("blue_beach", 2)})
    coh.mark_exhausted(m, "3/9")
    actions.regroup(m, "3/9")
    assert P.cohesion(m, "3/9") == 7 and not P.is_exhausted(m, "3/9")
    coh.mark_exhausted(m, "3/3")
    script(m, [6])
    actions.regroup(m, "3/3")
    assert P.cohesion(m, "3/3") == 4 and P.is_exhausted(m, "3/3")
    actions.regroup(m, "4/23")
    assert P.cohesion(m, "4/23") == 5
    assert not [e for e in m.log.of_kind("exhaustion") if e.data.get("regiment") == "4/23"]


# -- 5.0 Set-up, 8.0 difficulty --------------------------------------------------------------------
def test_5_0_setup() -> None:
    """5.0: three Japanese markers in each island position, one regiment per beach, five in
    reserve, every cohesion at 12, three gold cubes on the Rising Sun squares, 30 + 30
    cards dealt (the rest set aside), a starting hand of 3 less any Bad Weather."""
    from tabletop.games.iwo_1945.setup import build

    m = Match(GAME, seed=3)
    m.state.__init__()  # type: ignore[misc]
    build(m)
    assert all(len(P.japanese_at(m, p)) == 3 for p in P.islands())
    assert all(P.regiment_at(m, b) for b in P.beaches()) and len(P.reserves(m)) == 5
    assert all(P.cohesion(m, r) == 12 for r in P.regiment_ids())
    assert all(m.state.pieces.count_at(b) == 1 for b in P.RISING_SUN)
    jd, ud = m.state.decks["japanese"], m.state.decks["usmc"]
    assert len(jd.pile("draw")) == 30 and len(jd.pile("out")) == 6
    hand = ud.pile("hand:USMC")
    assert len(ud.pile("draw")) + len(hand) + len(ud.pile("discard")) == 30
    assert not any(cards.card(c).discard_at_setup for c in hand)
    assert len(hand) + len(ud.pile("discard")) == 3


@pytest.mark.parametrize("deal", [27, 30, 33])
def test_8_0_difficulty_sets_the_japanese_deal(deal: int) -> None:
    """8.0 Adjusting Difficulty: 27 Japanese cards (harder), 30, or 33 (easier)."""
    m = new_match(japanese_cards=deal)
    assert len(m.state.decks["japanese"].pile("draw")) == deal


# -- 6.0 Special Landing Phase -------------------------------------------------------------------
def test_6_0_landing_dice_option_rolls_four() -> None:
    """6.0 vs 10.0: option landing_dice=4 rolls four dice a beach (the example's reading)."""
    m = new_match(landing_dice=4)
    rolls = [e for e in m.log if e.kind == "roll" and "Special Landing" in e.data["purpose"]
             and "reroll" not in e.data["purpose"]]
    assert rolls and all(len(e.data["faces"]) == 4 for e in rolls)


# -- 6.0 USMC turn and tactic cards ------------------------------------------------------------
def test_6_0_draw_up_to_three_and_never_reshuffle() -> None:
    """6.0 Tactic Cards: draw until 3 in hand; an empty Marine Draw deck is not reshuffled."""
    m = board()
    usmc_turn.draw_up(m)
    assert len(cards.hand(m)) <= 3
    deck = m.state.decks["usmc"]
    for inst in list(deck.pile("draw")):
        deck.move(inst, "discard")
    give_hand(m)
    for inst in list(deck.pile("draw")):
        deck.move(inst, "discard")
    usmc_turn.draw_up(m)
    assert cards.hand(m) == [] and deck.pile("draw") == []


def test_6_0_discard_one_only_if_no_card_was_played() -> None:
    """6.0: the player may discard 1 card if no tactic card was played this turn."""
    m = board()
    (inst,) = give_hand(m, "dig_in")
    m.state.vars["turn"]["played"] = False
    drive(m, usmc_turn.end_discard(m), [f"card:{inst}"])
    assert cards.hand(m) == []
    give_hand(m, "dig_in")
    m.state.vars["turn"]["played"] = True
    assert decisions_of(m, usmc_turn.end_discard(m), []) == []


def test_6_0_a_card_whose_effect_cannot_apply_cannot_be_played() -> None:
    """6.0: Fighting Seabees is not offered when every regiment is at 12; Dig In needs a
    USMC-occupied island position; Sherman Tanks not against a mountain."""
    m = board(**{"3_9": ("red_beach", 12)})
    give_hand(m, "fighting_seabees", "dig_in", "sherman_tanks")
    assert cards.playable_cards(m, "usmc_main") == []
    P.set_cohesion(m, "3/9", 9)
    assert [cards.card(i).id for i in cards.playable_cards(m, "usmc_main")] == ["fighting_seabees"]
    assert not cards.playable_cards(m, "attack", {"target": "mt_suribachi", "kind": "markers"})
    assert cards.playable_cards(m, "attack", {"target": "the_neck", "kind": "markers"})


def test_6_0_command_coordination_three_actions_no_regiment_twice() -> None:
    """6.0, 10.0: one action a turn; Command Coordination allows actions by 3 regiments, none
    twice; a new wave counts as one."""
    m = board(**{"3_9": ("red_beach", 12), "3_3": ("green_beach", 12)})
    put_japanese(m, "the_neck", 3)
    (cc,) = give_hand(m, "command_coordination")
    assert actions.available(m) == ["attack", "move", "place_new_wave"]
    drive(m, cards.play(m, cc, "usmc_main"))
    assert m.state.vars["turn"]["allow"] == 3
    script(m, [4, 4, 4, 4, 4])
    drive(m, actions.perform(m, "attack"), ["3/9", "the_neck"])
    assert actions.actors(m, "attack") == ["3/3"]
    assert "3/9" not in actions.actors(m, "regroup")


def test_6_0_new_wave_up_to_two_regiments_without_cohesion_cost() -> None:
    """6.0 Place a new wave: up to 2 reserve regiments onto vacant beaches, no cohesion cost."""
    m = board(**{"3_9": ("red_beach", 12)})
    drive(m, actions.perform(m, "place_new_wave"), ["4/24", "green_beach", "4/25", "blue_beach"])
    assert P.regiment_pos(m, "4/24") == "green_beach" and P.regiment_pos(m, "4/25") == "blue_beach"
    assert P.cohesion(m, "4/24") == 12 and m.state.vars["turn"]["taken"] == 1


def test_6_0_bad_weather_when_drawn_forbids_a_new_wave() -> None:
    """5.0/6.0 (our reading, docs §5): Bad Weather drawn in a turn takes effect at once (no
    new wave this turn) and is discarded without replacement."""
    m = board(**{"3_9": ("red_beach", 12)})
    deck = m.state.decks["usmc"]
    bw = next(c for c in deck.all_cards() if c.startswith("bad_weather"))
    deck.move(bw, "draw", top=True)
    usmc_turn.draw_up(m)
    assert deck.where(bw) == "discard" and not P.can_new_wave(m)


def test_6_0_rotate_swaps_and_one_non_exhausted_regiment_pays() -> None:
    """6.0 Rotate Regiments: swap with an adjacent regiment; one of the two (not an exhausted
    one) loses 1 cohesion; an exhausted regiment may be rotated by another."""
    m = board(**{"3_9": ("red_beach", 12), "3_3": ("the_neck", 5)})
    coh.mark_exhausted(m, "3/3")
    drive(m, actions.rotate(m, "3/9"), ["3/3"])
    assert P.regiment_pos(m, "3/9") == "the_neck" and P.regiment_pos(m, "3/3") == "red_beach"
    assert P.cohesion(m, "3/9") == 11 and P.cohesion(m, "3/3") == 5
    cube = P.exhaustion_cube(m, "3/3")
    assert cube is not None and cube.location == "red_beach"


@pytest.mark.parametrize("reading, checked", [("payer", ["3/3"]), ("both", ["3/9", "3/3"])])
def test_6_0_rotation_exhaustion_check_by_the_payer_or_both(reading: str, checked: list[str]) -> None:
    """6.0 Rotate ("one of the two regiments must reduce its cohesion by 1 and perform any
    necessary exhaustion checks"): only the payer checks; option rotation_checks=both (4.0:
    "a non-exhausted regiment performing an action ... at 5 or less") checks the regiment that
    rotates too (docs §5)."""
    m = board(**{"3_9": ("red_beach", 4), "3_3": ("the_neck", 6)})
    m.options["rotation_checks"] = reading
    script(m, [1, 1])  # any check passes
    drive(m, actions.rotate(m, "3/9"), ["3/3", "3/3"])  # 3/3 pays: 6 -> 5
    assert P.cohesion(m, "3/3") == 5 and P.cohesion(m, "3/9") == 4
    assert [e.data["regiment"] for e in m.log.of_kind("exhaustion")] == checked


def test_6_0_move_to_vacant_position_and_daisy_chain() -> None:
    """6.0 Move: -1 cohesion to an unoccupied position (not through or into an enemy one);
    one adjacent non-exhausted regiment may follow into the vacated position at -1."""
    m = board(**{"3_9": ("the_neck", 12), "3_3": ("green_beach", 12)})
    put_japanese(m, "mt_suribachi", 3)
    assert actions.move_destinations(m, "3/9") == ["red_beach", "field_1"]
    drive(m, actions.move(m, "3/9"), ["field_1", "3/3"])
    assert P.regiment_pos(m, "3/9") == "field_1" and P.regiment_pos(m, "3/3") == "the_neck"
    assert P.cohesion(m, "3/9") == 11 and P.cohesion(m, "3/3") == 11


def test_6_0_attack_dice_mountain_four_cube_five() -> None:
    """6.0, 2.0: 5 attack dice, 4 against a Japanese-occupied mountain, 5 against an
    infiltration cube even in a mountain position."""
    m = board(**{"3_3": ("green_beach", 12), "3_9": ("mt_suribachi", 12)})
    put_japanese(m, "the_neck", 2)
    assert attacks.base_dice(m, "3/3", "the_neck") == 5
    put_regiment(m, "3/9", "mt_suribachi", markers=2)
    put_cube(m, "infiltration", "mt_suribachi")
    assert attacks.attack_kind(m, "3/3", "mt_suribachi") == "cube"
    assert attacks.base_dice(m, "3/3", "mt_suribachi") == 5
    empty_board(m)
    put_regiment(m, "3/3", "green_beach")
    put_japanese(m, "mt_suribachi", 3)
    assert attacks.base_dice(m, "3/3", "mt_suribachi") == 4


def test_6_0_attack_results_are_pairs_of_keepers() -> None:
    """6.0 Applying the Result: each double 1 a USMC marker, double 2 a cohesion, double 5 or
    double 6 a Japanese marker; singles nothing (9.0 #7)."""
    assert attacks.outcome([6, 6, 5, 5, 1]) == {"usmc_lost": 0, "cohesion_lost": 0, "japanese_lost": 2}
    assert attacks.outcome([6, 5, 2, 2, 1]) == {"usmc_lost": 0, "cohesion_lost": 1, "japanese_lost": 0}
    assert attacks.outcome([1, 1, 1, 1, 6]) == {"usmc_lost": 2, "cohesion_lost": 0, "japanese_lost": 0}


def test_6_0_rerolls_cost_cohesion_and_end_at_1() -> None:
    """6.0, 9.0 #4, #6, #8: each reroll costs 1 cohesion before the dice are thrown; a keeper
    may be rerolled; rerolls end when the cohesion reaches 1."""
    m = board(**{"3_9": ("red_beach", 3)})
    put_japanese(m, "the_neck", 3)
    script(m, [6, 5, 2, 2, 1, 1, 6])
    seen = decisions_of(m, attacks.attack(m, "3/9", "the_neck"), [6, "roll"])
    assert P.cohesion(m, "3/9") == 1
    assert all(d.kind != "attack_dice" for d in seen[2:])


# -- 6.0 Japanese turn -------------------------------------------------------------------------
def test_6_0_attack_priority_islands_first_from_the_lowest_priority() -> None:
    """6.0 Key Rule: the highest-priority USMC island position is attacked from the
    lowest-priority adjacent Japanese position; beaches come after island positions."""
    m = board(**{"3_9": ("field_1", 12), "3_3": ("green_beach", 12)})
    put_japanese(m, "the_neck", 1)
    put_japanese(m, "hill_362", 1)
    put_japanese(m, "airfield_2", 1)
    order = japanese_turn.priority_targets(m)
    assert order[0] == ("field_1", "hill_362") and order[1][0] == "green_beach"


def test_6_0_beach_priority_by_the_adjacent_island_position() -> None:
    """6.0: with no USMC island position, the beach adjacent to the highest-priority
    Japanese-occupied island position is attacked first (Green before Yellow)."""
    m = board(**{"3_3": ("green_beach", 12), "3_21": ("yellow_beach", 12)})
    put_japanese(m, "mt_suribachi", 3)
    put_japanese(m, "field_1", 3)
    assert [t for t, _ in japanese_turn.priority_targets(m)] == ["green_beach", "yellow_beach"]


def test_6_0_fire_attack_chart() -> None:
    """6.0 Japanese Fire Attack: each 6 a marker, each 5 or 4 a cohesion, 3s rerolled, each 2
    cancels a 6, double 1s kill a Japanese attacker (not against a beach, +1 die there)."""
    m = board(**{"3_9": ("field_1", 12)})
    put_japanese(m, "airfield_2", 3)
    dice = script(m, [6, 3, 2, 6, 4])  # the 3 is rerolled into a 6; the 4 stays unrolled
    drive(m, japanese_turn.fire(m, "airfield_2", "field_1", 3, "test"))
    assert len(P.regiment_markers(m, "3/9")) == 2 and P.cohesion(m, "3/9") == 12
    assert [e.data["faces"] for e in m.log.of_kind("japanese_attack") if "faces" in e.data][-1] \
        == [2, 6, 6]
    assert dice.remaining == 1
    script(m, [1, 1, 5])
    drive(m, japanese_turn.fire(m, "airfield_2", "field_1", 3, "test"))
    assert len(P.japanese_at(m, "airfield_2")) == 2 and P.cohesion(m, "3/9") == 11
    put_regiment(m, "3/3", "red_beach")
    script(m, [1, 1, 4, 2])
    drive(m, japanese_turn.fire(m, "field_1", "red_beach", 3, "test"))
    assert P.cohesion(m, "3/3") == 11


def test_6_0_banzai_chart_only_against_island_positions() -> None:
    """6.0 Banzai (5 dice): each 6 a USMC marker, 5 or 4 a cohesion, 3s removed, each 1 or 2
    a Japanese marker of the attackers; never against a beach."""
    m = board(**{"3_9": ("the_neck", 12), "3_3": ("green_beach", 12)})
    put_japanese(m, "field_1", 3)
    put_japanese(m, "mt_suribachi", 3)
    script(m, [6, 5, 3, 2, 1])
    drive(m, japanese_turn.effect_banzai(m, Banzai(type="banzai"), "Banzai Charge"))
    assert len(P.regiment_markers(m, "3/9")) == 2 and P.cohesion(m, "3/9") == 11
    assert len(P.japanese_at(m, "field_1")) == 1  # field_1 (#3) is lower priority than #1
    empty_board(m)
    put_regiment(m, "3/3", "green_beach")
    put_japanese(m, "mt_suribachi", 3)
    drive(m, japanese_turn.effect_banzai(m, Banzai(type="banzai"), "Banzai Charge"))
    assert any("ignored" in e.text for e in m.log.of_kind("japanese_card"))


def test_6_0_marker_movement_and_9_0_through_usmc() -> None:
    """6.0 Marker Movement: from the lowest-priority Japanese position to the highest with
    room, no adjacency needed; 9.0 #2: a card may move them through USMC positions."""
    m = board(**{"3_9": ("airfield_3", 12), "3_3": ("hill_362", 12), "3_21": ("cushmans_pocket", 12)})
    put_japanese(m, "the_gorge", 3)
    put_japanese(m, "field_1", 1)
    eff = MoveMarkers(type="move_markers", count=2, destination="reinforce")
    japanese_turn.effect_move(m, eff, "Tunnel Reinforcements")
    assert len(P.japanese_at(m, "the_gorge")) == 3  # the way is blocked by USMC positions
    eff = MoveMarkers(type="move_markers", count=1, destination="reoccupy", through_usmc=True)
    japanese_turn.effect_move(m, eff, "Bypassed Positions")
    assert len(P.japanese_at(m, "mt_suribachi")) == 1 and len(P.japanese_at(m, "the_gorge")) == 2


def test_6_0_infiltration_by_priority_with_an_empty_slot() -> None:
    """6.0 Infiltration Cubes: to the highest-priority USMC position with an empty slot (or a
    USMC-controlled vacant one); the infiltrated regiment may only attack the cube, may
    regroup, may not move or rotate."""
    m = board(**{"3_9": ("the_neck", 12), "3_3": ("mt_suribachi", 12)})
    put_regiment(m, "3/9", "the_neck", markers=2)
    put_japanese(m, "field_1", 3)
    drive(m, japanese_turn.effect_infiltrate(m, Infiltrate(type="infiltrate"), "Night Infiltrators"))
    assert P.cube_at(m, "the_neck") is not None and P.cube_at(m, "mt_suribachi") is None
    assert attacks.targets(m, "3/9") == ["the_neck"]
    assert not actions.can_move(m, "3/9") and not actions.can_rotate(m, "3/9")
    assert "3/9" not in actions.rotate_partners(m, "3/3") and not actions.can_regroup(m, "3/9")
    P.set_cohesion(m, "3/9", 9)
    assert actions.can_regroup(m, "3/9")


def test_6_0_japanese_bunkers_and_snipers_by_priority() -> None:
    """3.0, 6.0: a Japanese bunker goes to the highest-priority Japanese position without one;
    snipers lower the cohesion of the regiment in the highest-priority USMC position."""
    m = board(**{"3_9": ("the_neck", 12), "3_3": ("green_beach", 12)})
    put_japanese(m, "field_1", 3)
    put_japanese(m, "the_gorge", 3)
    japanese_turn.effect_bunker(m, PlaceBunker(type="place_bunker", side="japanese",
                                               where="highest_priority"), "Pillboxes")
    assert P.bunker_at(m, "field_1") is not None
    japanese_turn.effect_snipers(m, ReduceCohesion(type="reduce_cohesion"), "Snipers")
    assert P.cohesion(m, "3/9") == 11 and P.cohesion(m, "3/3") == 12


def test_6_0_impossible_japanese_effects_are_ignored() -> None:
    """6.0: effects of the Japanese card that cannot be carried out are ignored (logged)."""
    m = board(**{"3_3": ("green_beach", 12)})
    put_japanese(m, "the_gorge", 3)
    drive(m, japanese_turn.effect_fire(m, FireAttack(type="fire_attack"), "Pre-Registered Artillery"))
    drive(m, japanese_turn.resolve_effect(m, Hook(type="hook", name="kamikaze_strike"), "Kamikaze"))
    assert any("ignored" in e.text and e.section == "6.0" for e in m.log)


def test_6_0_one_japanese_card_a_turn_and_the_log_names_it() -> None:
    """3.0, 6.0: one AI card a Japanese turn, drawn to the discard pile; every Japanese action
    in the log carries the card's title."""
    m = board(**{"3_9": ("the_neck", 12)})
    put_japanese(m, "field_1", 3)
    japanese_top(m, "pre_registered_artillery")
    deck = m.state.decks["japanese"]
    before, seq = len(deck.pile("discard")), len(m.log)
    script(m, [4, 4, 4] * 4)
    drive(m, japanese_turn.japanese_turn(m))
    assert len(deck.pile("discard")) == before + 1
    attacks_logged = [e for e in m.log.since(seq) if e.kind == "japanese_attack"]
    assert attacks_logged and all("Pre-Registered Artillery" in e.text for e in attacks_logged)


def test_6_0_star_shells_cancel_and_counter_battery_reroll() -> None:
    """6.0 Note, 3.0: a Japanese-turn card may cancel a Banzai (Star Shells) or reroll the
    dice of a Japanese attack (Counter-Battery Fire)."""
    m = board(**{"3_9": ("the_neck", 12)})
    put_japanese(m, "field_1", 3)
    (star,) = give_hand(m, "star_shells")
    drive(m, japanese_turn.effect_banzai(m, Banzai(type="banzai"), "Banzai Charge"), [f"card:{star}"])
    assert len(P.japanese_at(m, "field_1")) == 3 and P.cohesion(m, "3/9") == 12
    (cb,) = give_hand(m, "counter_battery_fire")
    script(m, [6, 6, 4, 2, 2])
    drive(m, japanese_turn.fire(m, "field_1", "the_neck", 3, "test"), [f"card:{cb}", 6, 6])
    assert len(P.regiment_markers(m, "3/9")) == 3 and P.cohesion(m, "3/9") == 11


# -- 7.0 Victory ------------------------------------------------------------------------------------
def test_7_0_victory_points_and_levels() -> None:
    """7.0: USMC 2 VP a controlled island position; Japanese 3 a position, 2 a lost marker,
    1 an exhausted regiment; a tie is a Japanese win; 1-5 Marginal, 6-9 Moderate, 10+
    Smashing."""
    from tabletop.games.iwo_1945.victory import result

    m = board(**{"3_9": ("the_neck", 12)})
    for p in P.islands()[:8]:
        m.state.vars["held"][p] = P.USMC
    P.update_control(m)
    P.remove_usmc_marker(m, "3/9", "6.0", "test")
    coh.mark_exhausted(m, "3/9")
    sc = scores(m)
    lost = m.state.pieces.count_at(P.USMC_ELIMINATED)
    assert sc["usmc_vp"] == 16 and sc["japanese_vp"] == 6 + 2 * lost + 1
    r = result(m, "test")
    assert r.level == GAME.final_result(m).level and r.section == "7.0"
    from tabletop.games.iwo_1945.positions import comps

    lv = comps().victory.level
    assert (lv(0), lv(1), lv(5), lv(6), lv(9), lv(10)) == (
        None, "Marginal (Historical Victory)", "Marginal (Historical Victory)",
        "Moderate Victory", "Moderate Victory", "Smashing USMC Victory")


def test_7_0_full_control_ends_the_game_with_a_card_bonus() -> None:
    """7.0 #2, 6.0: the game ends at the end of the USMC turn in which the USMC controls
    every island position; +1 VP a Japanese card left."""
    m = new_match(seed=4)
    empty_board(m)
    give_hand(m)
    put_regiment(m, "3/9", "the_neck")
    for p in P.islands():
        m.state.vars["held"][p] = P.USMC
    P.update_control(m)
    m.state.vars["turn"] = None
    left = len(m.state.decks["japanese"].pile("draw"))
    m._flow = GAME.play(m)
    m.state.turn = 0
    m.pending = None
    m._advance(None, first=True)
    while m.pending is not None:
        m.decide(DONE if m.pending.is_legal(DONE) else m.pending.values[0])
    assert m.result is not None and m.result.scores["japanese_cards_left"] == left
    assert m.result.scores["usmc_vp"] == 20 + left


def test_7_0_one_last_usmc_turn_after_the_last_japanese_card() -> None:
    """7.0 #1, 6.0: once the last Japanese card is played, the game ends after the next USMC
    turn: 30 cards, 31 USMC turns."""
    from tabletop.core.engine.registry import make_agent

    m = new_match(seed=9)
    m.run({"USMC": make_agent(GAME, "USMC", "first", 9)})
    assert m.state.turn == 31 and len(m.log.of_kind("japanese_card")) >= 30
    assert m.state.decks["japanese"].pile("draw") == []


def test_6_0_fields_of_fire_every_adjacent_position_fires() -> None:
    """6.0 Fields of Fire (our definition, docs §5): every Japanese-occupied position adjacent
    to the highest-priority USMC island position makes one 3-die fire attack on it."""
    from tabletop.games.iwo_1945.components import FieldsOfFire

    m = board(**{"3_9": ("field_1", 12)})
    for p in ("the_neck", "airfield_2", "hill_362"):
        put_japanese(m, p, 1)
    script(m, [4, 2, 2] * 3)
    seq = len(m.log)
    drive(m, japanese_turn.effect_fields(m, FieldsOfFire(type="fields_of_fire", target="island"),
                                         "Interlocking Fire"))
    assert P.cohesion(m, "3/9") == 9
    assert len([e for e in m.log.since(seq) if "fire attack from" in e.text]) == 3


# -- review fixes ----------------------------------------------------------------------------------
def test_6_0_amtracs_one_new_wave_besides_the_action_in_either_order() -> None:
    """6.0 Tactic Cards (Amtracs: "you may also place a new wave, besides your action"): the
    extra action is a new wave; the turn's own action may come before or after it."""
    m = board(**{"3_9": ("red_beach", 12), "3_3": ("green_beach", 12)})
    put_japanese(m, "the_neck", 3)
    (am,) = give_hand(m, "amtracs")
    drive(m, cards.play(m, am, "usmc_main"))
    drive(m, actions.perform(m, "place_new_wave"), ["4/24", "yellow_beach", "done"])
    assert "attack" in actions.available(m) and "move" in actions.available(m)
    # the other order: the action first, then only the new wave is left
    m = board(**{"3_9": ("red_beach", 12), "3_3": ("green_beach", 12)})
    put_japanese(m, "the_neck", 3)
    (am,) = give_hand(m, "amtracs")
    drive(m, cards.play(m, am, "usmc_main"))
    script(m, [4, 4, 4, 4, 4])
    drive(m, actions.perform(m, "attack"), ["3/9", "the_neck"])
    assert actions.available(m) == ["place_new_wave"]


def test_6_0_a_card_that_cannot_apply_amtracs_and_flame_tanks() -> None:
    """6.0 "If a card's effect cannot be played, then the card may not be played": Amtracs
    needs a reserve, a vacant beach and no Bad Weather; Flame Tanks ("on a position without a
    mountain") is not offered against a mountain even with a bunker there."""
    m = board(**{"3_9": ("red_beach", 12), "3_3": ("green_beach", 12),
                 "3_21": ("yellow_beach", 12), "4_23": ("blue_beach", 12)})
    give_hand(m, "amtracs")
    assert cards.playable_cards(m, "usmc_main") == []  # no vacant beach
    P.move_regiment(m, "4/23", "airfield_2", "6.0", "test")
    assert [cards.card(i).id for i in cards.playable_cards(m, "usmc_main")] == ["amtracs"]
    m.state.vars["turn"]["forbid"] = ["place_new_wave"]  # Bad Weather drawn
    assert cards.playable_cards(m, "usmc_main") == []
    m = board(**{"3_3": ("green_beach", 12)})
    give_hand(m, "flame_tanks")
    put_japanese(m, "mt_suribachi", 3)
    put_cube(m, "bunker", "mt_suribachi")
    assert cards.playable_cards(m, "attack", {"target": "mt_suribachi", "kind": "markers"}) == []
    put_japanese(m, "the_neck", 3)
    put_cube(m, "bunker", "the_neck")
    assert cards.playable_cards(m, "attack", {"target": "the_neck", "kind": "markers"})


def test_6_0_advance_follower_has_not_acted_and_then_has() -> None:
    """6.0 Advance After USMC Attacks (one regiment, not daisy-chained) with 6.0/10.0 "no
    regiment twice": a regiment that already acted this turn may not follow the advance,
    and the follower counts as having acted."""
    m = board(**{"5_28": ("turkey_knob", 10), "4_23": ("blue_beach", 10),
                 "4_25": ("airfield_2", 10)})
    put_japanese(m, "airfield_3", 1)
    m.state.vars["turn"]["used"] = ["4/23", "5/28"]
    script(m, [6, 6, 4, 4, 4])
    seen = decisions_of(m, attacks.attack(m, "5/28", "airfield_3"), [DONE, "advance"])
    assert seen[-1].kind == "follow" and "4/23" not in seen[-1].values
    assert "4/25" in seen[-1].values
    m = board(**{"5_28": ("turkey_knob", 10), "4_25": ("airfield_2", 10)})
    put_japanese(m, "airfield_3", 1)
    m.state.vars["turn"]["used"] = ["5/28"]
    script(m, [6, 6, 4, 4, 4])
    drive(m, attacks.attack(m, "5/28", "airfield_3"), [DONE, "advance", "4/25"])
    assert P.regiment_pos(m, "4/25") == "turkey_knob"
    assert "4/25" in m.state.vars["turn"]["used"] and "4/25" not in actions.fresh(m)


def test_6_0_bypassed_positions_never_join_an_infiltration_cube() -> None:
    """6.0 Infiltration Cubes ("the only time cubes ... and markers may occupy the same
    position" is cube with USMC): a Japanese marker move does not reoccupy a vacant position
    holding a cube; the invariant says so too."""
    m = board()
    for p in P.islands():
        if p != "the_neck":
            put_japanese(m, p, 1)
    put_regiment(m, "3/9", "the_neck")
    P.move_regiment(m, "3/9", "green_beach", "6.0", "test")
    put_cube(m, "infiltration", "the_neck")
    assert P.control(m, "the_neck") == P.JAPAN and P.is_vacant(m, "the_neck")
    japanese_turn.effect_move(m, MoveMarkers(type="move_markers", count=1, destination="reoccupy",
                                             through_usmc=True), "Bypassed Positions")
    assert P.japanese_at(m, "the_neck") == []
    assert GAME.invariants(m) == []
    put_japanese(m, "the_neck", 1)
    assert any("infiltration cube" in p for p in GAME.invariants(m))


def test_4_0_no_exhaustion_check_when_the_reduction_is_ignored_at_1() -> None:
    """4.0: a regiment at cohesion 1 ignores further reductions; a Japanese hit that reduces
    nothing causes no exhaustion check."""
    m = board(**{"3_9": ("field_1", 1)})
    put_japanese(m, "airfield_2", 3)
    script(m, [4, 1, 2, 6])
    drive(m, japanese_turn.fire(m, "airfield_2", "field_1", 3, "test"))
    assert P.cohesion(m, "3/9") == 1 and not P.is_exhausted(m, "3/9")
    assert not m.log.of_kind("exhaustion")


def test_6_0_banzai_rolls_the_cards_dice() -> None:
    """6.0 Banzai (3.0 card text over the rules): the effect's ``dice`` are rolled (5 unless
    the card says otherwise)."""
    m = board(**{"3_9": ("field_1", 12)})
    put_japanese(m, "airfield_2", 3)
    script(m, [6, 4, 4, 1, 1])
    drive(m, japanese_turn.effect_banzai(m, Banzai(type="banzai", dice=3), "test"))
    assert len(P.regiment_markers(m, "3/9")) == 2 and P.cohesion(m, "3/9") == 10
    assert len(P.japanese_at(m, "airfield_2")) == 3


def test_4_0_snipers_log_their_cohesion_loss_under_4_0() -> None:
    """4.0 ("reduced further due to ... card actions by the Japanese AI"): the snipers'
    cohesion loss is logged under 4.0."""
    m = board(**{"3_9": ("field_1", 12)})
    put_japanese(m, "airfield_2", 3)
    seq = len(m.log)
    japanese_turn.effect_snipers(m, ReduceCohesion(type="reduce_cohesion"), "Snipers")
    (ev,) = [e for e in m.log.since(seq) if e.kind == "cohesion"]
    assert ev.section == "4.0" and P.cohesion(m, "3/9") == 11


def test_6_0_cards_may_be_played_during_an_attack_at_the_reroll_decision() -> None:
    """6.0 Note ("before, during, or immediately after") and Medal of Honor ("Play during an
    attack"): after the dice are rolled, a free-reroll card may be played at the reroll
    decision; a cohesion card too, even at cohesion 1, after which rerolls are possible."""
    m = board(**{"3_9": ("red_beach", 10)})
    put_japanese(m, "the_neck", 3)
    (moh,) = give_hand(m, "medal_of_honor")
    script(m, [1, 1, 6, 5, 2, 6, 5])
    drive(m, attacks.attack(m, "3/9", "the_neck"),
          ["roll", f"card:{moh}", 1, 1, "roll", DONE])
    assert P.cohesion(m, "3/9") == 9 and len(P.japanese_at(m, "the_neck")) == 1
    m = board(**{"3_9": ("red_beach", 2)})
    put_japanese(m, "the_neck", 3)
    (fs,) = give_hand(m, "fighting_seabees")
    script(m, [1, 1, 6, 5, 2, 6, 5, 6])
    seen = decisions_of(m, attacks.attack(m, "3/9", "the_neck"), [])
    assert seen[-1].kind == "attack_dice" and seen[-1].values == [DONE, f"card:{fs}"]
    m = board(**{"3_9": ("red_beach", 2)})
    put_japanese(m, "the_neck", 3)
    (fs,) = give_hand(m, "fighting_seabees")
    script(m, [1, 1, 6, 5, 2, 6, 5, 6])
    drive(m, attacks.attack(m, "3/9", "the_neck"), [f"card:{fs}", "3/9", 1, 1, "roll", DONE])
    assert P.cohesion(m, "3/9") == 3 and len(P.japanese_at(m, "the_neck")) == 1


# -- the other readings, as options (docs §5) -------------------------------------------------------
def _usmc_island(m: Match) -> None:
    """Every island position USMC-held and controlled (2.0), before Japanese are put back."""
    for p in P.islands():
        m.state.vars["held"][p] = P.USMC
        m.state.vars["control"][p] = P.USMC


def test_7_0_full_control_ends_the_game_at_end_of_turn_or_immediately() -> None:
    """7.0 #2 "immediately ends" vs 6.0 "at the end of the USMC turn": by default the turn
    goes on (cards, the end); with full_control_end=immediately it stops after the action."""
    for option, more in (("end_of_turn", True), ("immediately", False)):
        m = new_match(full_control_end=option)
        empty_board(m)
        give_hand(m)
        _usmc_island(m)
        put_regiment(m, "3/9", "red_beach")
        put_japanese(m, "the_neck", 1)
        script(m, [6, 6, 4, 4, 4])
        seen = decisions_of(m, usmc_turn.usmc_turn(m),
                            ["attack", "3/9", "the_neck", DONE, "advance"])
        assert P.usmc_controls_all(m)
        assert (seen[-1].kind == "usmc_turn") == more, option


def test_6_0_usmc_discards_option_any_number_during_the_turn() -> None:
    """6.0 "may play or discard any number of cards from their hand during their turn" vs
    "may discard 1 ... IF a card was not played": by default one discard at the end of a
    turn without a card; with usmc_discards=any, discards are offered during the turn."""
    m = new_match()
    empty_board(m)
    a, b = give_hand(m, "dig_in", "sherman_tanks")
    seen = decisions_of(m, usmc_turn.usmc_turn(m), [])
    assert not any(str(v).startswith("discard:") for v in seen[-1].values)
    m = new_match(usmc_discards="any")
    empty_board(m)
    a, b = give_hand(m, "dig_in", "sherman_tanks")
    drive(m, usmc_turn.usmc_turn(m), [f"discard:{a}", f"discard:{b}", DONE])
    assert cards.hand(m) == []


def test_6_0_japanese_move_route_option() -> None:
    """6.0 Marker Movement ("The positions do not have to be adjacent") vs our reading that the
    way may not cross USMC positions without the card's leave (9.0 #2): with
    japanese_move_route=any the markers go even when USMC positions block every way."""
    for option, moved in (("clear", False), ("any", True)):
        m = new_match(japanese_move_route=option)
        empty_board(m)
        give_hand(m)
        put_japanese(m, "the_gorge", 3)
        put_japanese(m, "the_neck", 1)
        put_regiment(m, "3/9", "field_1")
        japanese_turn.effect_move(m, MoveMarkers(type="move_markers", count=2,
                                                 destination="reinforce"), "t")
        assert (len(P.japanese_at(m, "the_neck")) == 3) == moved, option
