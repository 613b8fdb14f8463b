"""Events carry their numbers as data, in every game: every number an event's text states
(a strength, a modifier, a roll, a result, a hex, a unit) is a field of its data, its section
or its turn, so a rule test reads fields and never parses log text. Each game's own tests
go further (every rule option, bot games, rule tests reading modifiers as fields)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.core.designer.testing import check_event_numbers
from tabletop.core.engine.registry import load_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["iwo_1945", "iwo_bonins", "iwo_valor", "manila45", str(ROOT / "docs" / "example" / "skirmish"),
         str(ROOT / "docs" / "example" / "ridge")]


@pytest.mark.parametrize("name", GAMES, ids=lambda n: Path(n).name)
def test_every_event_of_a_random_game_carries_the_numbers_its_text_states(name: str) -> None:
    game = load_game(name)
    for scenario in game.info.scenarios:
        check_event_numbers(game, seeds=[5], scenario=scenario.id)
