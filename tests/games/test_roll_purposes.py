"""Every game declares every roll it makes (rolls.yaml), and random play rolls only those."""

from __future__ import annotations

import pytest

from tabletop.core.designer.testing import play_random_game
from tabletop.core.engine.dice import RollPurpose, purpose_of, roll_purposes
from tabletop.core.engine.match import Game
from tabletop.core.engine.registry import load_game

GAMES = {"iwo_bonins": ("solitaire", "two_player"), "iwo_1945": (None,),
         "iwo_valor": ("campaign", "very_short"), "manila45": (None,),
         "docs/example/skirmish": (None,)}


def rolled(game: Game, scenario: str | None, seeds: range) -> list[tuple[str, str, str, int, int]]:
    """(kind, section, purpose, sides, dice) of every roll and shuffle in random games."""
    out = []
    for seed in seeds:
        match = play_random_game(game, seed, scenario=scenario, check_every=10**9)
        out += [(e.kind, e.section, str(e.data.get("purpose")), int(e.data.get("sides") or 0),
                 len(e.data.get("faces") or [])) for e in match.log.since(0)
                if e.kind in ("roll", "shuffle")]
    return out


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_roll_of_random_games_is_declared_and_every_declared_roll_comes_up(game_id: str) -> None:
    """Each game's rolls.yaml (every entry citing its own section) lists every roll random
    games make, with its dice, and every roll it lists comes up unless marked rare."""
    game = load_game(game_id)
    declared = roll_purposes(game)
    assert declared, f"{game_id} declares no rolls"
    seen: set[RollPurpose] = set()
    for scenario in GAMES[game_id]:
        for kind, section, purpose, sides, count in rolled(game, scenario, range(3)):
            found = purpose_of(purpose, section, declared)
            assert found is not None, f"{game_id}: roll {section} {purpose!r} is not in rolls.yaml"
            assert found.shows(kind, sides, count), \
                f"{game_id}: {found.label()} is declared {found.dice}, rolled {count}d{sides}"
            seen.add(found)
    never = [p.label() for p in declared if p not in seen and not p.rare]
    assert not never, f"{game_id}: declared but never rolled (mark them rare: with why): {never}"
