"""The games and scenarios every learning binding is held to."""

from __future__ import annotations

from pathlib import Path

from tabletop.core.engine.registry import load_game, registered

EXAMPLE = str(Path(__file__).resolve().parents[2] / "docs" / "example" / "skirmish")


def all_games() -> list[str]:
    """Every installed playable game and the example game."""
    return [*sorted(n for n in registered() if load_game(n).info.playable), EXAMPLE]


def every_scenario() -> list[tuple[str, str]]:
    """(game, scenario) for every scenario of every game."""
    return [(g, s.id) for g in all_games() for s in load_game(g).info.scenarios]
