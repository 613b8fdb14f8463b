"""Every roll a game makes is declared in its rolls.yaml with its dice (so `tabletop rules
GAME --rolls` lists every roll a test may force): the designer test check_rolls_declared,
and the four games and the example checked with it in every scenario, by random play and by
their bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.core.designer.testing import check_rolls_declared, undeclared_rolls
from tabletop.core.engine.dice import RollPurpose, load_roll_purposes, roll_purposes
from tabletop.core.engine.errors import DataError
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["iwo_bonins", "iwo_1945", "iwo_valor", "manila45", str(ROOT / "docs/example/skirmish")]


def test_an_undeclared_roll_or_other_dice_is_reported_one_line_each() -> None:
    """undeclared_rolls names a roll rolls.yaml does not declare, and one declared with
    other dice, and returns the declarations the rest are."""
    game = load_game(GAMES[-1])
    match = Match(game, seed=1)
    match.dice.roll(1, 6, purpose="combat against 0504", section="5.3")
    match.dice.roll(2, 6, purpose="combat against 0505", section="5.3")
    match.dice.roll(1, 6, purpose="morale", section="5.5")
    problems, seen = undeclared_rolls(match)
    assert problems == ["5.3 combat is declared 1d6, rolled 2d6", "roll 5.5 'morale' is not declared"]
    assert [p.label() for p in seen] == ["5.3 combat"]


@pytest.mark.parametrize(("dice", "shown", "fits"), [
    ("2d6", ("roll", 6, 2), True), ("2d6", ("roll", 6, 1), False), ("nd6", ("roll", 6, 5), True),
    ("nd6", ("roll", 10, 1), False), ("choose", ("roll", 9, 1), True),
    ("shuffle", ("shuffle", 0, 0), True), ("shuffle", ("roll", 6, 1), False)])
def test_a_declared_roll_shows_its_dice(dice: str, shown: tuple[str, int, int], fits: bool) -> None:
    """RollPurpose.shows: NdS, nd6 (any count), choose (one die of any size), shuffle."""
    assert RollPurpose("x", "1.0", dice).shows(*shown) is fits


def test_a_rolls_file_with_unknown_dice_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "rolls.yaml"
    bad.write_text("rolls:\n  - {name: CRT, section: '9.1d', dice: d6}\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"rolls.yaml: rolls\[0\]\.dice: 'd6' is not NdS"):
        load_roll_purposes(bad)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES, ids=lambda g: Path(g).name)
def test_every_roll_of_every_scenario_is_declared(game_id: str) -> None:
    """In every scenario, random games and the bots' games roll only what rolls.yaml
    declares, with its dice; and every declaration comes up in some scenario unless it
    says why it is rare."""
    game = load_game(game_id)
    seen: set[RollPurpose] = set()
    scenarios: list[str | None] = [s.id for s in game.info.scenarios] or [None]
    for scenario in scenarios:
        seen |= check_rolls_declared(game, range(2), scenario=scenario, bots=True)
    never = [p.label() for p in roll_purposes(game) if p not in seen and not p.rare]
    assert not never, f"{game_id}: declared, never rolled, not marked rare: {never}"
