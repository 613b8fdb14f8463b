"""The questions a rule test asks, answered by the game (games/iwo_1945/questions.py,
docs/games/iwo_1945.md "Questions a rule test asks"): a regiment's strength with its
modifiers, what a side controls, a regiment's cohesion. Each test names its section."""

from __future__ import annotations

import pytest

from tabletop.core.designer.testing import start
from tabletop.core.engine.events import modifier
from tabletop.games.iwo_1945 import GAME
from tabletop.games.iwo_1945 import positions as P
from tabletop.games.iwo_1945.questions import (
    cohesion_status,
    controlled,
    fire_dice,
    regiment_strength,
)

from .test_positions import EMPTY, ija, regiment


def test_6_0_regiment_strength_gives_the_dice_against_each_target_with_modifiers() -> None:
    """6.0 (2.0 mountains, 10.0 last line): a regiment's strength: its markers, cohesion
    and, against each position it may attack, 5 dice or 4 on a Japanese-occupied mountain;
    against an infiltration cube on a mountain, 5."""
    m = start(GAME, start="usmc", turn=2, **EMPTY,
              pieces={**regiment("4/23", "blue_beach", 2, cohesion=7), **ija("turkey_knob", 2),
                      **ija("airfield_2", 1, first=3), **regiment("5/28", "hill_382"),
                      "infiltration #1": {"at": "hill_382"}})
    s = regiment_strength(m, "4/23")
    assert (s["position"], s["markers"], s["cohesion"], s["may_attack"]) == ("blue_beach", 2, 7, True)
    assert s["attacks"]["turkey_knob"] == {"dice": 4, "base": 5,
                                           "modifiers": [modifier("2.0", "mountain", -1)]}
    assert s["attacks"]["airfield_2"] == {"dice": 5, "base": 5, "modifiers": []}
    cube = regiment_strength(m, "5/28")
    assert cube["infiltrated"] and cube["attacks"] == {"hill_382": {"dice": 5, "base": 5, "modifiers": []}}
    reserve = regiment_strength(m, "3/3")
    assert reserve["position"] is None and reserve["attacks"] == {} and not reserve["may_attack"]
    assert fire_dice("red_beach", 3)["dice"] == 4 and fire_dice("red_beach", 3, landing=True)["dice"] == 3


def test_2_0_controlled_positions_follow_the_last_occupant_and_the_cube() -> None:
    """2.0 Control: every island position is Japanese until USMC markers alone hold it
    (the beaches, landed on at set-up, stay the Marines' when left); an infiltration cube
    takes a position."""
    m = start(GAME, start="usmc", turn=2, **EMPTY,
              pieces={**regiment("3/3", "green_beach"), **regiment("3/9", "the_neck"),
                      **ija("field_1", 3), "infiltration #1": {"at": "the_neck"}},
              vars={"held": {"mt_suribachi": "USMC"}})
    assert controlled(m, P.USMC) == ["mt_suribachi", *P.beaches()]
    assert controlled(m, P.USMC, island_only=True) == ["mt_suribachi"]
    assert "the_neck" in controlled(m, P.JAPAN) and len(controlled(m, P.JAPAN, island_only=True)) == 9
    with pytest.raises(ValueError, match="a side is USMC or Japan"):
        controlled(m, "US")


def test_4_0_cohesion_status_says_when_a_check_follows_and_what_cohesion_bars() -> None:
    """4.0: at 5 or less a non-exhausted regiment checks after its action; at 1, or
    exhausted, it may neither move nor attack; at 6 or more it never checks."""
    m = start(GAME, start="usmc", turn=2, **EMPTY,
              pieces={**regiment("3/3", "green_beach", cohesion=5),
                      **regiment("3/9", "red_beach", cohesion=1),
                      **regiment("3/21", "yellow_beach", cohesion=4, exhausted=True),
                      **regiment("4/23", "blue_beach", cohesion=6)})
    assert cohesion_status(m, "3/3") == {"regiment": "3/3", "cohesion": 5, "exhausted": False,
                                         "check_after_action": True, "may_move_or_attack": True}
    assert not cohesion_status(m, "3/9")["may_move_or_attack"]
    ex = cohesion_status(m, "3/21")
    assert ex["exhausted"] and not ex["check_after_action"] and not ex["may_move_or_attack"]
    assert not cohesion_status(m, "4/23")["check_after_action"]
