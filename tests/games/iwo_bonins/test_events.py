"""Events carry their numbers as data (docs/api.md, "Events"): every Bonins event, in every
scenario, states no number its data lacks; a combat's and a bombardment's modifiers are
fields a rule test reads (9.1b, 12.3, 15.5, 16.3, 8.1, 8.3a)."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.core.designer.testing import (
    answer,
    check_dice_used,
    check_event_numbers,
    event_number_gaps,
    force,
    start,
)
from tabletop.core.engine.events import modifier, modifiers_text
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import make_agent
from tabletop.games.iwo_bonins import GAME
from tabletop.games.iwo_bonins import common as c

SCENARIOS = [s.id for s in GAME.info.scenarios]
DUG_IN: dict[str, Any] = {"status": {"dug_in": True}}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_event_carries_the_numbers_its_text_states(scenario: str) -> None:
    """Random games of each scenario, under the default readings and the other ones (8.2's
    phase-start bombardment, 15.5's Banzai column): no event's text states a number (a
    strength, a roll, a hex, a unit's name) that its data does not carry."""
    check_event_numbers(GAME, seeds=range(2), scenario=scenario)
    check_event_numbers(GAME, seeds=range(2, 3), scenario=scenario,
                        options={"bombardment_timing": "phase_start", "banzai_crmt": "15.5"})


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_bot_games_events_carry_their_numbers(scenario: str) -> None:
    """The heuristic bots' games (forced beach attacks, advances, Banzai attacks and the
    Japanese player's choices that random play rarely reaches) log no event whose text
    states a number its data lacks."""
    m = Match(GAME, scenario=scenario, seed=3)
    m.run({side: make_agent(GAME, side, "heuristic", 3) for side in GAME.info.players})
    assert m.finished
    assert event_number_gaps(m) == []


def test_a_combat_carries_its_strengths_and_modifiers_as_fields_9_1_12_3() -> None:
    """9.1, 12.2, 12.3, 9.1b: 1/23 with 4 Tk attacks the dug-in AT 1 on rough ground; the
    anti-tank roll (2, at most AT 1's attack factor) keeps the tank's factor out. The combat
    event gives each unit's factor, the strengths, the differential, the roll, and each
    modifier with its rule and value: the tank kept out (12.3) and the rough line's column
    shift (9.1b); its text is written from them."""
    m = start(GAME, turn=3, start="us_combat_2", vars={"beachhead": "east"}, clear=["Japan"],
              pieces={"1/23": {"at": "1811"}, "4 Tk": {"at": "1811"},
                      "AT 1": {"at": "1712", **DUG_IN}, "310": {"at": "0213", **DUG_IN}},
              forced=[force("anti-tank fire", 2), force("9.1d CRT", 6)])
    answer(m, "1712", "1811", "declare")
    [event] = m.log.of_kind("combat")
    data = event.data
    marine, tank = c.printed(m.state.pieces["1/23"], "attack"), c.printed(m.state.pieces["4 Tk"], "attack")
    defense = c.printed(m.state.pieces["AT 1"], "defense")
    assert data["factors"] == {"1/23": marine, "4 Tk": tank}
    assert data["modifiers"] == [modifier("12.3", "anti-tank fire stops 4 Tk", -tank),
                                 modifier("9.1b", "rough terrain, columns", -1)]
    assert data["attack"] == marine + tank - tank and data["defense"] == defense
    assert (data["differential"], data["line"], data["roll"]) == (marine - defense, "rough", 6)
    assert modifiers_text(data["modifiers"]) in event.text
    check_dice_used(m)


def test_a_bombardment_carries_the_dice_it_loses_after_suribachi_16_3() -> None:
    """16.3: after Suribachi is cleared a marker rolls one die less with a Japanese-held hill
    in the target's sector (1414, sector 2), two less without one (sector 3): the bombardment
    event gives the dice and the dice dropped as a modifier with its rule."""
    m = start(GAME, turn=6, start="jp_combat", clear=["Japan"],
              vars={"beachhead": "east", "suribachi_cleared": True},
              pieces={"1/23": {"at": "1211"}, "1/24": {"at": "1205"},
                      "309": {"at": "1414", **DUG_IN}},
              forced=[force("16.2 targeting 1205", 1), force("16.2 targeting 1211", 1)])
    fires = {e.data["hex"]: e.data for e in m.log.of_kind("jp_bombardment") if "dice" in e.data}
    assert fires["1211"]["dice"] == 2 and fires["1211"]["modifiers"] == [
        modifier("16.3", "dice: Suribachi has fallen, a Japanese-held hill in sector 2", -1)]
    assert fires["1205"]["dice"] == 1 and fires["1205"]["modifiers"] == [
        modifier("16.3", "dice: Suribachi has fallen, no Japanese-held hill in sector 3", -2)]
    check_dice_used(m)


def test_the_markers_and_suppression_carry_their_modifiers_8_1_8_3a() -> None:
    """8.1: the tenth and eleventh markers are modifiers of the nine (airfields No. 1 and
    No. 2 free of the Japanese and their ZOC); 8.3a: in a Storm a marker suppresses on 1-2,
    the storm a modifier of the 1-3."""
    m = start(GAME, turn=3, start="us_combat_1", vars={"beachhead": "east"}, clear=["Japan"],
              pieces={"1/23": {"at": "1811"}, "AT 1": {"at": "1712", **DUG_IN},
                      "310": {"at": "0213", **DUG_IN}})
    [available] = m.log.of_kind("bombardment_available")
    assert available.data["markers"] == 11 and available.data["modifiers"] == [
        modifier("8.1", "Airfield No. 1 free", 1), modifier("8.1", "Airfields No. 1 and No. 2 free", 1)]
    m = start(GAME, turn=3, start="us_combat_1", vars={"beachhead": "east", "weather": "Storm"},
              clear=["Japan"], pieces={"1/23": {"at": "1811"}, "AT 1": {"at": "1712", **DUG_IN},
                                       "310": {"at": "0213", **DUG_IN}},
              forced=[force("US bombardment", 3), force("9.1d CRT", 6)])
    [available] = m.log.of_kind("bombardment_available")
    assert available.data["markers"] == 9 and available.data["modifiers"] == []
    answer(m, "1712", "1811", "declare", 1)
    [fire] = m.log.of_kind("bombardment")
    assert fire.data["modifiers"] == [modifier("8.3a", "storm", -1)]
    assert (fire.data["roll"], fire.data["suppresses"], fire.data["result"]) == (3, [1, 2], "no effect")
    check_dice_used(m)


def test_a_banzai_attack_carries_its_column_shift_15_5() -> None:
    """15.5 step 3: a Banzai attack shifts two columns rightward on the US unit's terrain
    line (here rough, 9.1b): the event gives both shifts as modifiers, with the strengths
    and the roll."""
    m = start(GAME, turn=6, start="jp_move", clear=["Japan"],
              vars={"beachhead": "east", "suribachi_cleared": True, "cleared_sectors": [1, 2, 3]},
              pieces={"1/23": {"at": "1712"}, "309": {"at": "1711", **DUG_IN}},
              forced=[force("15.5 Banzai", 1, 2, 1), force("CRT (Banzai)", 4)])
    [attack] = m.log.of_kind("banzai_attack")
    data = attack.data
    assert data["modifiers"][0] == modifier("15.5", "Banzai, columns right", 2)
    assert data["modifiers"][1:] == [modifier("9.1b", "rough terrain, columns", -1)]
    assert (data["piece"], data["defenders"], data["roll"]) == ("309", ["1/23"], 4)
    assert data["differential"] == c.printed(m.state.pieces["309"], "attack") - data["defense"]
    assert modifiers_text(data["modifiers"]) in attack.text
    check_dice_used(m)
