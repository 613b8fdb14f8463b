"""Manila '45 events carry their numbers as data: every number a log line states is a field
of its event (a fire's strength, column, roll, each DRM with its section and value, its
result; a step's MP left; a hex, a unit), and the line is written from those fields."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.core.designer.testing import (
    answer,
    check_dice_used,
    check_event_numbers,
    event_number_gaps,
    force,
    run_procedure,
    start,
)
from tabletop.core.engine.decisions import DONE
from tabletop.core.engine.events import modifier, modifiers_text
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import make_agent
from tabletop.games.manila45 import GAME
from tabletop.games.manila45 import common as c
from tabletop.games.manila45.movement import Crossing, coastal_move, move_unit, pontoon_step
from tabletop.games.manila45.replacements import reinforcement_phase

from .conftest import position


@pytest.mark.parametrize("options", [{}, {"indirect_wall": "stops", "lof_along": "either"}])
@pytest.mark.parametrize("scenario", [s.id for s in GAME.info.scenarios])
def test_random_games_log_no_number_their_events_data_lacks(scenario: str,
                                                           options: dict[str, Any]) -> None:
    """Every event of random games, in every scenario and under both readings of the
    options, states no number its data, section or turn lacks."""
    check_event_numbers(GAME, seeds=range(2), scenario=scenario, options=options)


def test_a_heuristic_game_logs_no_number_its_events_data_lacks() -> None:
    """The heuristic bots reach what random play seldom does (bridge demolitions, pontoon
    bridges, close assaults and advances): their events carry their numbers too."""
    m = Match(GAME, seed=1)
    m.run({side: make_agent(GAME, side, "heuristic", 1) for side in GAME.info.players})
    assert m.result is not None and len(m.log) > 1000
    assert event_number_gaps(m) == []


def test_8_8_8_9_8_10_7_3_rare_moves_log_their_numbers() -> None:
    """8.8 the 672nd carrying a unit across a river, 8.9 a pontoon bridge set and taken up,
    8.10 a coastal move with and without a passenger, 7.3 a forfeit replacement, 7.5 the
    air units: each event names its units, hexes and hexsides as fields."""
    m = position({}, {"x-672": "3321", "c-1-5": "3321"})
    since = len(m.log)
    gen = move_unit(m, m.state.pieces["c-1-5"], 16, Crossing("3321", amtrac=True))
    next(gen)
    gen.send("3322")                                          # across the Pasig with the 672nd
    [carry] = m.log.of_kind("amtrac")
    assert carry.data == {"amtrac": "x-672", "unit": "c-1-5", "name": "1/5 Cav", "frm": "3321",
                          "to": "3322"}
    move = m.log.of_kind("move")[-1]
    assert (move.data["frm"], move.data["to"], move.data["mp_left"]) == ("3321", "3322", 13)
    assert move.text == "1/5 Cav moves 3321 -> 3322 (13 MP left)"

    m2 = position({}, {"x-117": "3021"})
    run_procedure(pontoon_step(m2), ["3020"])                 # 8.9 a bridge on 3020-3021
    gen = move_unit(m2, m2.state.pieces["x-117"], 16, Crossing("3021"))
    step = next(o.value for o in next(gen).options if o.value not in (DONE, "3020"))
    gen.send(step)                                            # 8.9 the engineer moves off
    set_up, gone = m2.log.of_kind("pontoon")
    assert set_up.data == {"unit": "x-117", "name": "117 Eng", "bridge": "3020-3021"}
    assert gone.data["bridge"] == "3020-3021" and gone.text.endswith("3020-3021 is gone")

    m3 = position({"j-cf-1": "3720"}, {"x-672": "3509", "x-44tk": "3509"})
    gen = coastal_move(m3, "x-672")
    next(gen)
    gen.send("x-44tk")
    gen.send("4228")
    [sea] = m3.log.of_kind("amtrac")
    assert sea.data == {"amtrac": "x-672", "frm": "3509", "to": "4228", "unit": "x-44tk",
                        "name": sea.data["name"]}

    m4 = position({}, {"c-1-5": c.US_DEAD}, turn=3)
    run_procedure(reinforcement_phase(m4))
    [air] = m4.log.of_kind("reinforcements")
    assert air.data["count"] == 6 and len(air.data["units"]) == 6
    forfeit = [e for e in m4.log.of_kind("replacement") if e.data.get("org") == "1cav"]
    assert forfeit and forfeit[0].text.startswith("1st Cavalry Division")
    for match in (m, m2, m3, m4):
        assert event_number_gaps(match, since=since if match is m else 0) == []


def test_10_12_10_13_a_fire_logs_each_modifier_as_a_field() -> None:
    """10.3, 10.11-10.13: 61 FA (8 factors) fires at 1 CF in the urban 3225 from three hexes:
    +1 urban (10.12), +1 two to four hexes away (10.13); the fire event gives the strength,
    the CRT column, the roll, each DRM with its section and value, the final DRM and the
    result as fields, and its text is written from them."""
    m = start(GAME, start="us_fire", turn=3, clear=["US", "Japan"],
              pieces={"c-61fa": {"at": "3228"}, "j-cf-1": {"at": "3225", "status": {"revealed": True}},
                      "j-cf-2": {"at": "2720"}},
              forced=[force("10.3 offensive fire", 1)])
    answer(m, {"fire": "3225"}, "c-61fa", DONE)
    [fire] = m.log.of_kind("fire")
    mods = [modifier("10.12", "target in an urban hex", 1),
            modifier("10.13", "firing at a target two to four hexes away", 1)]
    assert fire.data["modifiers"] == mods
    assert sum(int(x["value"]) for x in fire.data["modifiers"]) == fire.data["drm"] == 2
    assert (fire.data["strength"], fire.data["column"], fire.data["roll"], fire.data["result"]) \
        == (8, "<=9", 1, "-")                                 # E up to 1; 1 + 2 = 3
    assert fire.data["firers"] == ["c-61fa"] and fire.data["target"] == "3225"
    assert fire.text.endswith(f"roll 1, DRM +2 -> - [{modifiers_text(mods)}]")
    check_dice_used(m)


NOT_ADJACENT = modifier("10.21", "no firing unit is adjacent to the hex", 1)
HEAVY = modifier("10.21", "a heavy structures hex", 1)


@pytest.mark.parametrize("group, mods", [
    ({"c-1-5": "1813"}, [HEAVY]),                          # adjacent
    ({"c-1-5": "1813", "c-61fa": "1815"}, [HEAVY]),        # mixed: one of them is adjacent
    ({"c-61fa": "1815"}, [NOT_ADJACENT, HEAVY]),           # none adjacent: +1
])
def test_10_21_a_demolition_logs_its_modifiers_as_fields(group: dict[str, str],
                                                         mods: list[dict[str, Any]]) -> None:
    """10.21: the empty heavy structures hex 1812 is demolished by a group next to it, by
    one mixing an adjacent unit with 61 FA three hexes off, and by 61 FA alone: "+1 if all
    of the involved attacking units aren't in hexes immediately adjacent" only for the last;
    +1 a heavy structures hex for all three, each read as a modifier field."""
    m = start(GAME, start="us_fire", turn=3, clear=["US", "Japan"],
              pieces={**{u: {"at": h} for u, h in group.items()}, "j-cf-2": {"at": "2720"}},
              forced=[force("10.21 structure demolition", 6)])
    assert m.pending is not None and {"demolish": "1812"} in [o.value for o in m.pending.options]
    answer(m, {"demolish": "1812"}, *group)       # the fire resolves with no unit left to add
    [fire] = m.log.of_kind("fire")
    assert fire.section == "10.21" and fire.data["purpose"] == "structure demolition"
    assert fire.data["firers"] == list(group) and fire.data["modifiers"] == mods
    assert fire.data["drm"] == sum(int(x["value"]) for x in mods)
    check_dice_used(m)
