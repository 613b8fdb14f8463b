"""Events carry their numbers as data (docs/api.md "Events"): every event's text states only
numbers its data holds, and a rule test reads an attack's dice, modifiers, roll and result
as fields, never log text. Each rule test names its section."""

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
from tabletop.core.engine.decisions import DONE
from tabletop.core.engine.events import modifier
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import make_agent
from tabletop.games.iwo_1945 import GAME
from tabletop.games.iwo_1945 import positions as P

from .test_positions import EMPTY, ija, regiment

#: every option set of the game's one scenario: the defaults, then each other value alone
OPTION_SETS: list[dict[str, Any]] = [{}] + [
    {o.id: v} for o in GAME.info.options for v in (o.choices or ()) if v != o.default]


def hand(*cards: str) -> dict[str, list[str]]:
    """The USMC deck's piles giving the hand exactly these cards: the set-up's hand (the
    same seed) goes to the discard pile."""
    dealt = list(start(GAME).state.decks["usmc"].pile("hand:USMC"))
    return {"discard": [c for c in dealt if c not in cards], "hand:USMC": list(cards)}


@pytest.mark.parametrize("options", OPTION_SETS,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_events_carry_the_numbers_their_text_states(options: dict[str, Any]) -> None:
    """Every event of random games, in the standard scenario under each option set, carries
    as data each number its text states."""
    for scenario in (s.id for s in GAME.info.scenarios):
        check_event_numbers(GAME, seeds=range(2), scenario=scenario, options=options)


def test_events_of_the_heuristic_marines_carry_their_numbers() -> None:
    """The heuristic USMC reaches what random play seldom does (Mt. Suribachi's flag, 2.0;
    rallies, free rerolls, card dice): those events carry their numbers too."""
    for seed in (1, 2):
        m = Match(GAME, seed=seed)
        m.run({"USMC": make_agent(GAME, "USMC", "heuristic", seed),
               "Japan": make_agent(GAME, "Japan", "random", seed)})
        assert {"suribachi", "attack", "japanese_attack"} <= {e.kind for e in m.log}
        assert event_number_gaps(m) == []


def _last(m: Match, kind: str, **data: Any) -> dict[str, Any]:
    """The data of the last event of a kind whose data holds these fields."""
    found = [e.data for e in m.log
             if e.kind == kind and all(e.data.get(k) == v for k, v in data.items())]
    assert found, f"no {kind} event with {data}"
    return found[-1]


def test_6_0_a_usmc_attack_gives_its_dice_modifiers_roll_and_result_as_fields() -> None:
    """6.0 Attack: 5 dice, one less against a Japanese-occupied mountain (2.0), plus a
    tactic card's (Naval Gunfire: 3); the attack's end event gives the dice, each modifier
    with its rule, the keepers and the result, and its text is written from them."""
    m = start(GAME, start="usmc", turn=1, **EMPTY,  # round 1: no draw (5.0, 10.0)
              decks={"usmc": hand("naval_gunfire#1")},
              pieces={**regiment("5/28", "green_beach"), **ija("mt_suribachi", 3)},
              forced=[force("6.0 5/28 attack on Mt. Suribachi", 6, 6, 1, 2, 4, 4, 4)])
    answer(m, "attack", "5/28", "mt_suribachi", "card:naval_gunfire#1", DONE)
    end = _last(m, "attack", regiment="5/28", target="mt_suribachi", faces=[1, 2, 6, 6])
    assert end["modifiers"] == [modifier("2.0", "mountain", -1), modifier("6.0", "Naval Gunfire", 3)]
    assert (end["base"], end["dice"]) == (5, 7)
    assert (end["japanese_lost"], end["usmc_lost"], end["cohesion_lost"]) == (1, 0, 0)
    (roll,) = [e.data for e in m.log
               if e.kind == "roll" and e.data["purpose"] == "5/28 attack on Mt. Suribachi"]
    assert roll["dice"] == end["dice"]
    text = next(e.text for e in m.log if e.kind == "attack" and e.data.get("faces"))
    assert "(7 dice: 5 base, -1 mountain (2.0), +3 Naval Gunfire (6.0))" in text
    assert len(P.japanese_at(m, "mt_suribachi")) == 2
    check_dice_used(m)


def test_6_0_a_japanese_fire_attack_on_a_beach_gives_its_extra_die_as_a_modifier() -> None:
    """6.0 Fire Attack: the card's 3 dice, +1 against a beach; the events give the dice,
    the modifier, the faces and the result (each 6 a marker, each 4 or 5 a cohesion level,
    each 2 cancelling a 6)."""
    m = start(GAME, start="japanese", turn=3, **EMPTY,
              decks={"japanese": {"draw": ["pre_registered_artillery#1"]}, "usmc": hand()},
              pieces={**regiment("3/9", "red_beach"), **ija("the_neck", 3)},
              forced=[force("6.0 Pre-Registered Artillery: fire on Red Beach", 6, 6, 2, 5)])
    fire = _last(m, "japanese_attack", target="red_beach", faces=[2, 5, 6, 6])
    assert fire["modifiers"] == [modifier("6.0", "against a beach", 1)]
    assert (fire["base"], fire["dice"], fire["source"], fire["regiment"]) == (3, 4, "the_neck", "3/9")
    assert (fire["usmc_lost"], fire["cancelled"], fire["cohesion_lost"]) == (1, 1, 1)
    assert len(P.regiment_markers(m, "3/9")) == 2 and P.cohesion(m, "3/9") == 11
