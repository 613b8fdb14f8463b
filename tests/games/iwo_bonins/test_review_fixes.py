"""Rules fixed after review: 4.1/11.4 late reserves, 11.7 move-then-repair, 9.4 one unit
advances, 11.2 no advance into one's own hex, and first-phase moves citing 6.1."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from tabletop.core.engine.match import Match
from tabletop.games.iwo_bonins import GAME
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins.combat import advance
from tabletop.games.iwo_bonins.landings import replaceable, reserve_options, start_replacements


@pytest.fixture
def match() -> Iterator[Match]:
    """A solitaire match past the beachhead choice (the game is playable)."""
    info = GAME.info
    GAME.info = dataclasses.replace(info, playable=True)
    try:
        m = Match(GAME, seed=1)
        m.decide("east")
        yield m
    finally:
        GAME.info = info


def test_4_1_reserves_not_offered_when_shortening_would_cost_nothing(match: Match) -> None:
    """4.1, 11.4: a regiment may not be committed once the shortened game would already be
    over (on turn 16 the last turn would become 15)."""
    match.state.turn = 15
    assert reserve_options(match)  # last turn 16 -> 15: still a real cost
    match.state.turn = 16
    assert reserve_options(match) == []
    match.state.turn = 14
    match.state.vars[c.V_RESERVES] = 2  # last turn 14: a third would make it 13
    assert reserve_options(match) == []


def test_11_7_a_unit_that_moved_cannot_be_rebuilt_on_the_map(match: Match) -> None:
    """11.7: a reduced unit far from the Japanese is rebuilt only if it did not move."""
    unit = match.state.pieces["1/23"]
    match.state.pieces.move(unit.id, "2114")
    unit.steps, unit.face = 1, "back"
    for p in c.units(match, c.JAPAN):
        if (c.distance_to("2114", [c.components().map.hex(p.location)]) or 99) < 4:
            match.state.pieces.move(p.id, c.CONTAINER)
    start_replacements(match)
    assert unit in replaceable(match)
    match.state.vars[c.V_MOVED].append(unit.id)
    assert unit not in replaceable(match)


def test_9_4_only_one_support_unit_advances(match: Match) -> None:
    """9.4: "only one US unit may advance": two support units stacked together are offered
    one at a time, never together."""
    ft, tk = match.state.pieces["FT/23"], match.state.pieces["4 Tk"]
    for p in (ft, tk):
        match.state.pieces.move(p.id, "2113")
    gen = advance(match, "2112", {"2113": [ft, tk]})
    decision = next(gen)
    groups = [o.label for o in decision.options if o.value != "none"]
    assert groups == ["Advance FT/23 from 2113", "Advance 4 Tk from 2113"]


def test_11_2_no_advance_into_the_hex_one_already_holds(match: Match) -> None:
    """11.2, 9.4: units that landed on the defender's beach hex are not offered to advance
    into it."""
    unit = match.state.pieces["1/23"]
    match.state.pieces.move(unit.id, "2112")
    assert next(advance(match, "2112", {"2112": [unit]}), None) is None


def test_first_phase_moves_cite_6_1(match: Match) -> None:
    """6.1: an ordinary first-phase move decision cites 6.1 (6.5 is for redeployment)."""
    from tabletop.games.iwo_bonins.movement import move_unit

    unit = match.state.pieces["1/23"]
    match.state.pieces.move(unit.id, "2114")
    decision = next(move_unit(match, unit, first=True))
    assert decision.section == "6.1"


@pytest.mark.parametrize("eliminated, reduced, level", [
    (6, 0, "US victory"),  # 12
    (6, 1, "Draw"),  # 13
    (9, 1, "Draw"),  # 19
    (10, 0, "Japanese victory"),  # 20
])
def test_4_3_thresholds(match: Match, eliminated: int, reduced: int, level: str) -> None:
    """4.3: a count of 12 or fewer is a US victory, 20 or more a Japanese victory, anything
    between a draw (at the end of the last turn, no turns remaining, no Japanese left)."""
    for p in c.units(match, c.JAPAN):
        match.state.pieces.move(p.id, c.CONTAINER)
    marines = [p for p in match.state.pieces if p.side == c.US and p.kind == "marine"]
    for p in marines[:eliminated]:
        c.eliminate_us(match, p, "test")
    for p in marines[eliminated:eliminated + reduced]:
        c.us_step_loss(match, p, "test")  # reduced, in Available for Landing
    match.state.turn = 16
    result = GAME.final_result(match)
    assert result.level == level and result.section == "4.3"
    assert result.scores["casualties"] == 2 * eliminated + reduced
