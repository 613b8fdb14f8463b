"""Events carry their numbers as data (docs/api.md, "Events"): every Valor of Arms event
states no number its fields lack, in every scenario, and a rule test reads an attack's
strength, modifiers (each with its rule), roll and result as fields, never its text."""

from __future__ import annotations

import pytest

from tabletop.core.designer.testing import check_event_numbers, event_number_gaps, run_procedure
from tabletop.core.engine.events import modifier
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import make_agent
from tabletop.core.engine.trackgroups import shift
from tabletop.games.iwo_valor import GAME
from tabletop.games.iwo_valor import common as c
from tabletop.games.iwo_valor import japanese_combat as jc
from tabletop.games.iwo_valor import marine_combat as mc

from .helpers import empty_match, put

INF, TANK, HQ = "A/1/23/4", "A/4TK", "HQ/4"
SCENARIOS = (c.FULL, c.LOD, c.SANDS, c.NARROW, c.VERY_SHORT)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_event_of_random_games_carries_the_numbers_its_text_states(scenario: str) -> None:
    """Every event kind, every scenario: no number in a log line that its data lacks."""
    check_event_numbers(GAME, seeds=range(2), scenario=scenario)


@pytest.mark.parametrize("scenario, seed", [(c.LOD, 1), (c.NARROW, 0), (c.VERY_SHORT, 0)])
def test_every_event_of_heuristic_games_carries_the_numbers_its_text_states(scenario: str,
                                                                            seed: int) -> None:
    """The heuristic bot's games reach what random games rarely do (IV.F.5's fire at a
    Banzai Charge, armour support, the flag, replacements): their events too."""
    m = Match(GAME, scenario=scenario, seed=seed)
    m.run({"US": make_agent(GAME, "US", "heuristic", seed)})
    assert event_number_gaps(m) == []


def test_VIII_B_C_a_marine_attack_gives_its_modifiers_and_armour_as_fields() -> None:
    """VIII.A an HQ adds its strength, VIII.C -1 elevation and -1 for every 2 Fatigue Points,
    VIII.B.3 +1 to the roll a supporting Armour Unit: each a field with its rule."""
    m = empty_match(turn=8, dice=[3, 3])
    put(m, "A/310", "0925")  # level 3
    put(m, INF, "0924", landed=8)  # level 2; Supplied: its first turn ashore (VII.B)
    put(m, HQ, "0924")
    put(m, TANK, "0924")
    shift(m.state, c.FATIGUE, "23", 5)
    run_procedure(mc.resolve_attack(m, INF, "0925", {"0925": [TANK]}))
    attack = m.log.of_kind("attack")[-1].data
    assert (attack["unit"], attack["target"], attack["hex"], attack["base"]) == (INF, "A/310", "0925", 6)
    assert attack["modifiers"] == [modifier("VIII.A", HQ, 2), modifier("VIII.C", "elevation", -1),
                                   modifier("VIII.C", "fatigue", -2)]
    assert attack["strength"] == 6 + 2 - 1 - 2 and attack["roll"] == 6
    assert attack["roll_modifiers"] == [modifier("VIII.B.3", "armour", 1)] and attack["armour"] == [TANK]
    assert attack["row"] == f"class_{c.position_class(m, '0925')}"
    assert attack["result"] == c.components().mat.lookup(5, 6, line=attack["row"], modifier=1)


def test_IX_G_japanese_fire_gives_each_modifier_with_its_rule() -> None:
    """IX.A, IX.G: opportunity fire on turn 1 from higher ground at a unit within two hexes
    of two Japanese units, with armour in its hex: +1 elevation, +1 crossfire, +1 armour,
    +2 turn 1, clamped at 10 (IX.G)."""
    m = empty_match(turn=1, dice=[6, 6])
    jp = put(m, "A/310", "0925")  # level 3, strength 6
    put(m, "B/310", "0923")
    mover = put(m, INF, "0924")  # level 2
    put(m, TANK, "0924")
    m.state.tracks["support"].set(0)
    run_procedure(jc.opportunity_fire(m, jp, mover))
    fire = m.log.of_kind("jp_attack")[-1].data
    assert (fire["attack"], fire["unit"], fire["target"]) == ("opportunity", "A/310", INF)
    assert fire["hex"] == "0924"
    assert fire["modifiers"] == [modifier("IX.G", "elevation", 1), modifier("IX.G", "crossfire", 1),
                                 modifier("IX.G", "armour", 1), modifier("IX.G", "turn 1", 2)]
    assert fire["base"] == c.strength(jp) and fire["strength"] == min(10, c.strength(jp) + 5)
    assert fire["roll"] == 12 and fire["row"] == "OF/CP"
