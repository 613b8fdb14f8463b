"""Rule tests written with the shipped helpers (positions, forced dice, answers): 6.0 the
Special Landing Phase and an attack with its advance from a USMC turn, 2.0 control and 4.0
cohesion and exhaustion as one status each, and the position files' checks. Each test names
its section."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.core.designer.testing import answer, check_dice_used, force, rolls, start
from tabletop.core.engine.decisions import DONE
from tabletop.core.engine.position import PositionError
from tabletop.games.iwo_1945 import GAME
from tabletop.games.iwo_1945 import positions as P


def regiment(rid: str, at: str, markers: int = 3, **status: Any) -> dict[str, Any]:
    """The position entries of a regiment's markers (``status`` on its first marker)."""
    out: dict[str, Any] = {f"{rid} #{k}": {"at": at} for k in range(1, markers + 1)}
    out[f"{rid} #1"]["status"] = status
    return out


def ija(pos: str, count: int, first: int = 1) -> dict[str, Any]:
    """The position entries of ``count`` Japanese markers in a position."""
    return {f"IJA #{n}": {"at": pos} for n in range(first, first + count)}


#: An empty board (every marker off the board) to place regiments and Japanese markers on.
EMPTY: dict[str, Any] = {"clear": ["ija", "marine"]}


def test_6_0_special_landing_three_dice_and_ones_count_for_nothing() -> None:
    """6.0 Special Landing Phase: 3 dice against each USMC beach adjacent to a Japanese
    position; 1s no result (even double 1s), 2s cancel 6s; Blue Beach is not under fire."""
    m = start(GAME, start="landing", **EMPTY,
              pieces={**regiment("3/3", "green_beach"), **regiment("3/9", "red_beach"),
                      **regiment("4/23", "blue_beach"), **ija("the_neck", 3)},
              forced=[force("6.0 Special Landing Phase: fire on Green Beach", 1, 1, 6),
                      force("6.0 Special Landing Phase: fire on Red Beach", 6, 2, 5)])
    assert len(P.regiment_markers(m, "3/3")) == 2 and P.cohesion(m, "3/9") == 11
    assert P.cohesion(m, "4/23") == 12 and [r[1] for r in rolls(m)] == [
        "Special Landing Phase: fire on Green Beach", "Special Landing Phase: fire on Red Beach"]
    check_dice_used(m)


def test_6_0_advance_and_one_follower() -> None:
    """6.0 Advance: the attacker clearing a position may advance at no cost; one regiment
    adjacent to the position it left may follow, also at no cost."""
    m = start(GAME, start="usmc", turn=2, **EMPTY,
              pieces={**regiment("5/28", "turkey_knob", cohesion=10),
                      **regiment("4/23", "blue_beach", cohesion=10), **ija("airfield_3", 1)},
              forced=[force("6.0 5/28 attack on Airfield 3", 6, 6, 4, 4, 4)])
    answer(m, "attack", "5/28", "airfield_3", "roll", DONE, "advance", "4/23")
    assert P.regiment_pos(m, "5/28") == "airfield_3" and P.regiment_pos(m, "4/23") == "turkey_knob"
    assert P.cohesion(m, "5/28") == 9 and P.cohesion(m, "4/23") == 10
    assert P.control(m, "airfield_3") == P.USMC
    check_dice_used(m)


def test_4_0_checks_at_5_or_less_after_the_action() -> None:
    """4.0, 9.0 #5: an attack leaving cohesion 5 brings an exhaustion check after the action;
    a die above the cohesion exhausts the regiment (its red cube joins it)."""
    m = start(GAME, start="usmc", turn=2, **EMPTY,
              pieces={**regiment("3/9", "red_beach", cohesion=6), **ija("the_neck", 3)},
              forced=[force("6.0 3/9 attack on The Neck", 4, 4, 4, 4, 4), force("4.0 exhaustion check", 6)])
    answer(m, "attack", "3/9", "the_neck", "roll")
    assert P.cohesion(m, "3/9") == 5 and P.is_exhausted(m, "3/9")
    assert P.exhaustion_cube(m, "3/9").location == "red_beach"  # type: ignore[union-attr]
    check_dice_used(m)


def test_2_0_infiltration_cube_takes_control() -> None:
    """2.0, 6.0: an infiltration cube in a USMC position gives the Japanese its control; the
    position derives control from who held it and the cube, and refuses a control that
    disagrees."""
    cube = {"infiltration #1": {"at": "the_neck"}}
    m = start(GAME, start="usmc", turn=2, **EMPTY,
              pieces={**regiment("3/9", "the_neck", markers=2), **cube})
    assert P.control(m, "the_neck") == P.JAPAN and m.state.vars["control"]["the_neck"] == P.JAPAN
    with pytest.raises(PositionError, match="the_neck control says USMC, but an infiltration"):
        start(GAME, start="usmc", turn=2, **EMPTY, vars={"control": {"the_neck": "USMC"}},
              pieces={**regiment("3/9", "the_neck", markers=2), **cube})


def test_4_0_cohesion_and_exhaustion_are_one_status_each() -> None:
    """4.0: the track owns cohesion and the cube on it shows it; a position that moves the
    track alone is refused naming the cube piece; status cohesion sets both; a regiment at
    6 or more cannot be exhausted (4.0 Note)."""
    with pytest.raises(PositionError, match="piece 'cohesion 3/9' shows 12 but the 3/9"):
        start(GAME, start="usmc", turn=2, tracks={"cohesion:3/9": 5})
    m = start(GAME, start="usmc", turn=2, pieces=regiment("3/9", "red_beach", cohesion=4,
                                                          exhausted=True))
    assert m.state.pieces["cohesion 3/9"].attrs["value"] == 4 and P.is_exhausted(m, "3/9")
    with pytest.raises(PositionError, match="never exhausted"):
        start(GAME, start="usmc", turn=2, pieces=regiment("3/9", "red_beach", exhausted=True))


def test_6_0_japanese_turn_from_a_stacked_deck() -> None:
    """6.0 Japanese AI Turn: the turn draws the top card of the Japanese deck; a position
    names it."""
    card = next(c for c in japanese_cards() if c.startswith("banzai"))
    m = start(GAME, start="japanese", turn=3, decks={"japanese": {"draw": [card]}})
    assert m.state.vars["japanese_card"] == card


def japanese_cards() -> list[str]:
    """Every card instance of the Japanese deck (from a fresh match)."""
    m = start(GAME)
    return sorted(m.state.decks["japanese"].all_cards())


# -- the two readings of 2.0 against 6.0 (docs/games/iwo_1945.md §5) -----------------------------

def test_2_0_6_0_cube_on_a_beach_by_reading() -> None:
    """2.0 "Only USMC regiments may occupy beach positions" vs 6.0's slot rule: ours lets a
    cube infiltrate a USMC beach with an empty slot; option beach_infiltration=forbidden
    does not."""
    from tabletop.games.iwo_1945.japanese_turn import infiltration_targets

    place = {**EMPTY, "start": "usmc", "turn": 2,
             "pieces": regiment("3/9", "red_beach", markers=2)}
    assert "red_beach" in infiltration_targets(start(GAME, **place))  # and the vacant ones
    assert infiltration_targets(start(GAME, **place,
                                      options={"beach_infiltration": "forbidden"})) == []


def test_2_0_6_0_a_regiment_joining_a_cube_by_reading() -> None:
    """2.0's three-marker limit vs 6.0's slot rule: ours (cube_slot=entry) lets a whole
    regiment move into a vacant position holding a cube (it is then infiltrated, and the
    position has no empty slot); cube_slot=always keeps the cube's slot, so only a regiment
    of two markers may enter, and the invariant checks markers and cube together."""
    from tabletop.games.iwo_1945.actions import move_destinations

    place = {**EMPTY, "start": "usmc", "turn": 2, "vars": {"held": {"the_neck": "USMC"}},
             "pieces": {**regiment("3/9", "red_beach"), "infiltration #1": {"at": "the_neck"}}}
    m = start(GAME, **place)
    assert "the_neck" in move_destinations(m, "3/9")
    answer(m, "move", "3/9", "the_neck")
    assert P.free_slots(m, "the_neck") == 0 and GAME.invariants(m) == []
    strict = start(GAME, **place, options={"cube_slot": "always"})
    assert "the_neck" not in move_destinations(strict, "3/9")
    with pytest.raises(PositionError, match="3 markers and infiltration #1"), \
            strict.edit() as state:  # unreachable by play: an edit is refused by the invariant
        for k in (1, 2, 3):
            state.pieces.move(f"3/9 #{k}", "the_neck")


def test_2_0_6_0_the_other_readings_keep_the_invariants() -> None:
    """2.0, 6.0: random games under cube_slot=always and beach_infiltration=forbidden end,
    replay, and keep the invariants those readings add."""
    from tabletop.core.designer.testing import check_conformance

    check_conformance(GAME, range(3), options={"cube_slot": "always",
                                               "beach_infiltration": "forbidden"})


def test_6_0_an_edit_at_the_start_of_a_usmc_turn_keeps_its_draw() -> None:
    """6.0 USMC Turn: an edit before the turn's first decision restarts the turn from the
    edited state without drawing again or forgetting what was drawn (Bad Weather's ban on
    new waves, 5.0/6.0), and the options offered follow the edit."""
    gone = {f"3/3 #{k}": {"at": "usmc_eliminated"} for k in (1, 2, 3)}  # Green Beach vacant
    m = start(GAME, start="usmc", turn=3, pieces=gone)
    assert m.pending is not None and "place_new_wave" in m.pending.values
    hand = list(m.state.decks["usmc"].pile("hand:USMC"))
    m.state.vars["turn"]["forbid"] = ["place_new_wave"]  # as a Bad Weather card drawn now would
    with m.edit() as state:  # 4.0: at cohesion 1 no regiment may attack
        for rid in ("3/9", "3/21", "4/23"):
            state.tracks[f"cohesion:{rid}"].value = 1
            state.pieces[f"cohesion {rid}"].attrs["value"] = 1
    assert m.state.decks["usmc"].pile("hand:USMC") == hand
    assert m.state.vars["turn"]["forbid"] == ["place_new_wave"]
    assert m.pending is not None and not {"place_new_wave", "attack"} & set(m.pending.values)


def test_5_0_a_stacked_shuffle_deals_the_named_cards_first() -> None:
    """5.0: the Japanese deck is shuffled and dealt at set-up; a stacked shuffle names the
    cards on top, so the first Japanese AI turn (6.0) draws the first of them; the stack is
    in the record, so the match replays."""
    from tabletop.core.designer.testing import check_replay, stack

    top = ["banzai_charge#1", "spider_holes#1"]
    m = start(GAME, forced=[stack("5.0 shuffle the japanese deck", *top)])
    assert m.state.decks["japanese"].pile("draw")[:2] == top
    check_dice_used(m)
    check_replay(m)


def test_scripted_dice_left_unused_fail_the_test() -> None:
    """The helpers: scripted dice a rule never rolled are reported (6.0 Special Landing
    Phase rolls 3 dice a beach under fire, not 40)."""
    from tabletop.core.engine.match import Match

    m = Match(GAME, seed=1, dice_script=[4] * 40)
    with pytest.raises(AssertionError, match="scripted dice left unused"):
        check_dice_used(m)
