"""14.0 Japanese units: replacements (14.4) and their placement (14.5), zero factors (14.3).

Each test names the section it checks; the dice are scripted so that a wrong rule fails.
The helpers here (``jp_match``, ``put``, ``drive``) are shared by the other
test_japanese_* modules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
import yaml

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Decision
from tabletop.core.engine.match import Match
from tabletop.core.engine.tables import Table
from tabletop.games.iwo_bonins import GAME
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins import japanese_units as ju

Build = Callable[..., Match]

#: The CRT these tests are written against (the first reconstruction, 1.0). The live
#: crt.yaml is a calibration knob; pinning it keeps these procedure tests (which line, which
#: shift, which CRMT column) independent of the balance work. The results named in the
#: tests' comments are read from this table.
PINNED_CRT = """
id: crt
name: Combat Results Table (pinned for the Japanese-side tests)
section: "9.1"
dice: 1d6
columns: ["<=0", "+1..+2", "+3..+4", "+5..+6", "+7..+8", "+9..+10", "+11..+13", ">=+14"]
lines:
  clear:
    1: [Ae, A3, A2, A1, NE, NE, Ex, D2]
    2: [A3, A2, A1, NE, NE, Ex, D2, D3]
    3: [A2, A1, NE, NE, Ex, D2, D3, D3]
    4: [A1, NE, NE, Ex, D2, D3, D3, De]
    5: [NE, NE, Ex, D2, D3, D3, De, De]
    6: [NE, Ex, D2, D3, De, De, De, De]
line_shifts:
  beach:    {of: clear, shift: 0}
  broken:   {of: clear, shift: -1}
  rough:    {of: clear, shift: -2}
  mine:     {of: clear, shift: -2}
  mountain: {of: clear, shift: -3}
  ravine:   {of: clear, shift: -3}
  hill:     {of: clear, shift: -3}
"""


@pytest.fixture
def jp_match(monkeypatch: pytest.MonkeyPatch) -> Iterator[Build]:
    """Build a match with scripted dice and an empty island (every Japanese unit set aside in
    the two-player pool, every US unit in its box), reading the pinned CRT; restores GAME.info
    afterwards, and checks that every scripted die was used (a test leaving dice unused took
    another path)."""
    original = GAME.info
    GAME.info = dataclasses.replace(original, playable=True)
    built: list[Match] = []
    live = c.components()
    pinned = dataclasses.replace(live, tables={**live.tables,
                                               "crt": Table.from_data(yaml.safe_load(PINNED_CRT))})
    monkeypatch.setattr(c, "components", lambda: pinned)

    def build(dice: Sequence[int] | None = (), *, options: dict[str, Any] | None = None,
              beachhead: str | None = "east", empty: bool = True, seed: int = 1) -> Match:
        script = None if dice is None else list(dice)
        m = Match(GAME, seed=seed, dice_script=script, options=options)
        if empty:
            for p in c.units(m, c.JAPAN):
                m.state.pieces.move(p.id, c.JP_POOL)
        m.state.vars[c.V_BEACHHEAD] = beachhead
        built.append(m)
        return m

    try:
        yield build
    finally:
        GAME.info = original
    for m in built:
        left = getattr(m.dice, "remaining", 0)
        assert left == 0, f"{left} scripted dice unused"


def put(m: Match, unit: str, where: str, *, dug_in: bool = True) -> None:
    """Place a unit on a hex or box; a Japanese unit dug in (face down) unless told."""
    p = m.state.pieces[unit]
    m.state.pieces.move(unit, where)
    if p.side == c.JAPAN:
        if dug_in:
            ju.dig_in(p)
        else:
            ju.reveal(p)


def drive(gen: Any, answers: Sequence[JSON] = ()) -> tuple[list[Decision], Any]:
    """Run a procedure to its end, answering its decisions in order; returns the decisions
    asked and the returned value."""
    asked: list[Decision] = []
    todo = list(answers)
    try:
        decision = next(gen)
        while True:
            asked.append(decision)
            if not todo:
                raise AssertionError(f"unanswered decision: {decision.prompt} ({decision.section})")
            decision = gen.send(todo.pop(0))
    except StopIteration as stop:
        return asked, stop.value


def texts(m: Match, kind: str) -> list[str]:
    """The texts of the events of one kind, with their sections."""
    return [f"{e.section}: {e.text}" for e in m.log.of_kind(kind)]


# --- 14.3 ------------------------------------------------------------------------------------

def test_zero_factor_units(jp_match: Build) -> None:
    """14.3: an HQ (0 attack, 0 movement) may neither attack nor move; infantry may both."""
    m = jp_match()
    hq, inf, aa = m.state.pieces["109 HQ"], m.state.pieces["309"], m.state.pieces["AA Bn"]
    assert not ju.can_attack(hq) and not ju.can_move(hq)
    assert ju.can_attack(inf) and ju.can_move(inf)
    assert ju.can_attack(aa) and not ju.can_move(aa)
    assert ju.is_fire_support(hq) and not ju.is_fire_support(aa)  # 16.1 note


# --- 14.4, 14.5 --------------------------------------------------------------------------------

def test_replacement_with_empty_container(jp_match: Build) -> None:
    """14.4: no eliminated unit, no replacement (and no die is rolled)."""
    m = jp_match([])
    _, placed = drive(ju.replacement(m))
    assert placed is None
    assert "container is empty" in texts(m, "replacement")[0]


def test_replacement_placed_on_hill_first(jp_match: Build) -> None:
    """14.5: roll the sector, then the Hill has priority among the eligible hexes."""
    m = jp_match([2])  # sector 2; a single unit in the container needs no draw roll
    put(m, "309", "1414")
    put(m, "310", c.CONTAINER)
    _, placed = drive(ju.replacement(m))
    # Within two hexes of the dug-in unit at 1414: 1214 (hill), 1315 (ravine), 1413, 1613,
    # 1615 (broken); the hill comes first.
    assert placed == "1214"
    p = m.state.pieces["310"]
    assert p.location == "1214" and c.is_dug_in(p) and p.hidden
    assert "14.5" in texts(m, "replacement")[0]


def test_replacement_die_among_equal_hexes(jp_match: Build) -> None:
    """14.5: more than one eligible hex of the best type: a die picks (rerolled until it
    names one)."""
    m = jp_match([2, 6, 3])  # sector 2; a die among the three broken hexes: 6 rerolled, then 3
    put(m, "309", "1414")
    put(m, "311", "1214")  # the hill is taken
    put(m, "312", "1315")  # and the ravine
    put(m, "310", c.CONTAINER)
    _, placed = drive(ju.replacement(m))
    # 1413 (within 2 of 1414 and 1214), 1613, 1615, and 1212 (within 2 of 1214): broken all.
    # Sorted: 1212, 1413, 1613, 1615 -> 4 candidates; roll 6 rerolled, 3 -> 1613.
    assert placed == "1613"
    assert "rolled among 4 eligible broken hexes" in texts(m, "replacement")[0]


def test_replacement_needs_a_dug_in_unit_within_two_hexes(jp_match: Build) -> None:
    """14.5: no eligible hex (nothing within two hexes of a dug-in unit): back in the
    container."""
    m = jp_match([3])
    put(m, "309", "1414")  # in sector 2, not 3
    put(m, "310", c.CONTAINER)
    _, placed = drive(ju.replacement(m))
    assert placed is None
    assert m.state.pieces["310"].location == c.CONTAINER


def test_replacement_into_cleared_sector_returns(jp_match: Build) -> None:
    """14.5, 13.0: a cleared sector's deployment hexes are inoperative: the unit returns."""
    m = jp_match([2])
    put(m, "309", "1414")
    put(m, "310", c.CONTAINER)
    m.state.vars[c.V_CLEARED] = [2]
    _, placed = drive(ju.replacement(m))
    assert placed is None and m.state.pieces["310"].location == c.CONTAINER
    assert "cleared" in texts(m, "replacement")[0]


def test_replacement_may_go_into_us_zoc_not_on_us_unit(jp_match: Build) -> None:
    """14.5: never on a US unit; a US zone of control does not matter (the tunnels)."""
    m = jp_match([2])
    put(m, "309", "1414")
    put(m, "1/23", "1214")  # a Marine battalion on the hill
    put(m, "310", c.CONTAINER)
    _, placed = drive(ju.replacement(m))
    assert placed == "1315"  # the ravine next to the Marines
    assert "1214" not in ju.eligible_hexes(m, 2)


def test_replacement_blind_draw_from_container(jp_match: Build) -> None:
    """14.4: the unit is picked blindly: a die among the container's units (in id order)."""
    m = jp_match([5, 2])  # draw: 2nd of ["310", "311"] (4-6); sector 2
    put(m, "309", "1414")
    put(m, "310", c.CONTAINER)
    put(m, "311", c.CONTAINER)
    drive(ju.replacement(m))
    assert m.state.pieces["311"].location == "1214"
    assert m.state.pieces["310"].location == c.CONTAINER


def test_no_replacement_on_suribachi(jp_match: Build) -> None:
    """14.5, 17.0: no replacement may be placed on Suribachi (it is no numbered sector)."""
    m = jp_match()
    put(m, "309", "2713")
    assert all(c.sector_of(h) != "suribachi" for h in ju.eligible_anywhere(m))


def test_placement_priority_reads_hill_over_terrain() -> None:
    """14.5: Hill, Ravine, Mountain, Mine, Rough, Broken, Clear; a hill over rough is Hill."""
    assert ju.placement_priority("1414") == 1  # rough with a hill
    assert ju.placement_priority("1315") == 2  # ravine
    assert ju.placement_priority("2713") == 3  # mountain
    assert ju.placement_priority("1709") == 4  # mine
    assert ju.placement_priority("1712") == 5  # rough
    assert ju.placement_priority("1212") == 6  # broken
    assert ju.placement_priority("2113") == 7  # clear


def test_two_player_replacement_is_a_japanese_decision(jp_match: Build) -> None:
    """18.4: in the two-player game the Japanese player selects any eligible hex."""
    m = jp_match([2])
    m.state.vars[c.V_TWO_PLAYER] = True
    put(m, "309", "1414")
    put(m, "310", c.CONTAINER)
    asked, placed = drive(ju.replacement(m), ["1615"])
    assert asked[0].player == c.JAPAN and asked[0].section == "18.4"
    assert set(asked[0].values) == {"1214", "1315", "1413", "1613", "1615"}
    assert placed == "1615"
