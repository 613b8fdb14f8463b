"""Events carry their numbers as data: the helpers that write a modifier and find the numbers
an event's text states that its data lacks (core/engine/events.py, core/designer/testing.py)."""

from __future__ import annotations

from pathlib import Path

from tabletop.core.designer.testing import event_number_gaps
from tabletop.core.engine.events import (
    Event,
    modifier,
    modifiers_text,
    numbers_in,
    unstated_numbers,
)
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game

SKIRMISH = load_game(str(Path(__file__).resolve().parents[2] / "docs" / "example" / "skirmish"))


def test_modifiers_text_is_made_from_the_fields() -> None:
    mods = [modifier("10.21", "not adjacent", 1), modifier("9.4", "woods", -2)]
    assert modifiers_text(mods) == "+1 not adjacent (10.21), -2 woods (9.4)"
    assert modifiers_text([]) == ""


def test_numbers_in_data_reads_every_leaf() -> None:
    data = {"hex": "0213", "units": ["3/26", "FT/27"], "strength": 7, "odds": 1.5,
            "mods": [modifier("6.2", "dug in", -1)], "flag": True, "none": None}
    assert numbers_in(data) == {"0213", "3", "26", "27", "7", "1.5", "6.2", "1"}
    assert numbers_in(2.0) == {"2"}


def test_an_event_whose_text_states_a_number_its_data_lacks_is_found() -> None:
    event = Event(0, "combat", "9.1", "3 steps attack 0213 at 2:1, roll 4", turn=2,
                  data={"hex": "0213", "odds": "2:1", "roll": 4})
    assert unstated_numbers(event) == ["3"]
    whole = Event(1, "combat", "9.1", "3 steps attack 0213 at 2:1, roll 4", turn=2,
                  data={"hex": "0213", "odds": "2:1", "roll": 4, "steps": 3})
    assert unstated_numbers(whole) == []


def test_section_and_turn_count_as_stated() -> None:
    event = Event(0, "phase", "10.21", "turn 5: demolition (10.21)", turn=5)
    assert unstated_numbers(event) == []


def test_hex_ids_keep_their_leading_zeros() -> None:
    event = Event(0, "move", "5.1", "moves to 0213", data={"to": 213})
    assert unstated_numbers(event) == ["0213"]


def test_a_decision_event_quotes_its_decision() -> None:
    event = Event(0, "decision", "5.1", "US: move 3/26 to? -> 0213 (2 MP)")
    assert unstated_numbers(event) == []


def test_a_roll_event_carries_its_dice_count() -> None:
    match = Match(SKIRMISH, seed=3)
    match.dice.roll(2, purpose="a test roll", section="1.0")
    (event,) = match.log.of_kind("roll")[-1:]
    assert event.data["dice"] == 2 and len(event.data["faces"]) == 2
    assert event_number_gaps(match, since=event.seq) == []


def test_event_number_gaps_names_the_event_and_the_missing_numbers() -> None:
    match = Match(SKIRMISH, seed=3)
    start = len(match.log)
    match.emit("combat", "4.2", "2 units attack at 3:1", odds="3:1")
    (gap,) = event_number_gaps(match, since=start)
    assert gap.startswith("combat (4.2) '2 units attack at 3:1'") and gap.endswith("no data for 2")
