"""6.0 movement, 7.0 zones of control and the US movement phases (5.1.1, 5.1.3).

Also the helpers the other US rule tests import: a match at its first US decision with the
map cleared of Japanese units, hand placement, scripted dice, and a driver for one procedure.
Each test names the section it checks.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from tabletop.core.designer.testing import run_procedure
from tabletop.core.engine.decisions import DONE, Decision
from tabletop.core.engine.dice import ScriptedDice
from tabletop.core.engine.match import Match
from tabletop.games.iwo_bonins import GAME
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins import movement as mv


def us_match(beach: str = "east", *, weather: str = "Clear", turn: int = 1) -> Match:
    """A match at its first US movement decision, every Japanese unit in the container."""
    m = Match(GAME, seed=1)
    m.decide(beach)
    for p in c.units(m, c.JAPAN):
        p.face, p.hidden = "back", True
        m.state.pieces.move(p.id, c.CONTAINER)
    m.state.vars[c.V_WEATHER] = weather
    m.state.turn = turn
    return m


def put(m: Match, uid: str, where: str, *, face_up: bool = False) -> None:
    """Place a unit (a Japanese one dug in unless ``face_up``)."""
    p = m.state.pieces[uid]
    if p.side == c.JAPAN:
        p.face, p.hidden = ("front", False) if face_up else ("back", True)
    m.state.pieces.move(uid, where)


def script(m: Match, faces: Sequence[int]) -> ScriptedDice:
    """From now on the match rolls exactly these faces."""
    return m.script_dice(faces)


def drive(gen: Generator[Decision, Any, Any], answers: Sequence[Any] = ()) -> Any:
    """Run one procedure, answering its decisions in order; returns its value."""
    return run_procedure(gen, answers)


def first_decision(gen: Generator[Decision, Any, Any]) -> Decision:
    """The first decision a procedure asks."""
    return next(gen)


def texts(m: Match, kind: str) -> list[str]:
    """The texts of the events of a kind, each prefixed by its section."""
    return [f"{e.section}: {e.text}" for e in m.log.of_kind(kind)]


# -- tests ---------------------------------------------------------------------------------

def test_terrain_costs_6_4() -> None:
    """6.4: 1 MP clear/beach, 2 broken, 3 rough/ravine/mountain/mine; hills ignored."""
    costs = mv.move_costs(tank=False)
    m = c.components().map
    assert costs(m.hex("2212"), m.hex("2213")) == 1  # clear
    assert costs(m.hex("1913"), m.hex("1912")) == 2  # broken
    assert costs(m.hex("1911"), m.hex("1810")) == 3  # rough with a hill
    assert costs(m.hex("2614"), m.hex("2714")) == 3  # mountain


def test_tanks_may_not_enter_mountain_6_4() -> None:
    """6.4, 12.3: US tanks may not enter ravine, mountain or mine hexes; rough they may."""
    costs = mv.move_costs(tank=True)
    m = c.components().map
    assert costs(m.hex("2614"), m.hex("2714")) is None
    assert costs(m.hex("1911"), m.hex("1810")) == 3


def test_move_one_unit_6_1() -> None:
    """6.1: a unit moves along a path to a legal hex, logged with its section."""
    m = us_match()
    put(m, "1/23", "2212")
    dests = mv.destinations(m, m.state.pieces["1/23"], first=True)
    assert "2013" in dests and "2212" not in dests
    drive(mv.move_unit(m, m.state.pieces["1/23"], first=True), ["2013"])
    assert m.state.pieces["1/23"].location == "2013"
    assert texts(m, "move")[0].startswith("6.1: 1/23 moves 2212 to 2013")


def test_may_not_enter_enemy_hex_6_2d() -> None:
    """6.2d: a unit cannot enter a hex holding an enemy unit."""
    m = us_match()
    put(m, "1/23", "2212")
    put(m, "309", "2213")
    assert "2213" not in mv.destinations(m, m.state.pieces["1/23"], first=True)


def test_stacking_6_3() -> None:
    """6.3, 12.1: two battalions may not end in one hex off the landing beaches; a support
    unit may join a battalion; any number on a chosen landing beach (11.3)."""
    m = us_match()
    put(m, "1/23", "2212")
    put(m, "2/23", "2113")
    put(m, "FT/23", "2213")
    assert "2212" not in mv.destinations(m, m.state.pieces["2/23"], first=True)
    assert "2212" in mv.destinations(m, m.state.pieces["FT/23"], first=True)
    put(m, "3/23", "2211")  # an east landing beach
    assert "2211" in mv.destinations(m, m.state.pieces["2/23"], first=True)


def test_other_beaches_no_stacking_6_3b() -> None:
    """6.3b: no stacking at all on the beaches of the set not chosen."""
    m = us_match("east")
    put(m, "1/23", "2316")  # a west beach
    assert not c.may_stack(m, [m.state.pieces["FT/23"]], "2316")


def test_ezoc_stops_7_1() -> None:
    """7.1: a unit entering an enemy ZOC stops there."""
    m = us_match()
    put(m, "1/23", "2212")
    put(m, "309", "2114")  # its ZOC: 2113, 2013, 2213, ...
    dests = mv.destinations(m, m.state.pieces["1/23"], first=True)
    assert dests["2113"] == "move, 1 MP"
    # 1913 is 3 MP through 2113 and 2013, both EZOC hexes: the unit must stop in 2113,
    # so it goes round by 2112 (1) and 2012 (broken, 2): 4 MP.
    assert dests["1913"] == "move, 4 MP"


def test_ezoc_to_ezoc_7_1() -> None:
    """7.1: a unit beginning in an EZOC may not move straight into another EZOC hex; it may
    step out to a non-EZOC hex and enter the EZOC later, paying the longer way."""
    m = us_match()
    put(m, "1/23", "2113")
    put(m, "309", "2114")  # EZOC: 2113 (the start), 2013, 2213, 2014, 2214, 2115
    dests = mv.destinations(m, m.state.pieces["1/23"], first=True)
    assert dests["2013"] == "move, 3 MP"  # via 2012 (broken), not 1 MP straight
    assert dests["2213"] == "move, 2 MP"  # via 2212
    assert dests["2212"] == "move, 1 MP"


def test_redeployment_6_5() -> None:
    """6.5: in the first movement phase a unit at least four hexes from every Japanese unit
    redeploys with unlimited MA, staying four hexes away all the way; not in the second."""
    m = us_match()
    put(m, "1/23", "2513")
    put(m, "309", "1409")
    first = mv.destinations(m, m.state.pieces["1/23"], first=True)
    far = [h for h, how in first.items() if how.startswith("redeploy")]
    assert far and all((d := c.distance_to(h, [c.components().map.hex("1409")])) is not None and d >= 4
                      for h in far)
    assert "1813" in first  # 7+ MP away: by redeployment only
    second = mv.destinations(m, m.state.pieces["1/23"], first=False)
    assert not any(how.startswith("redeploy") for how in second.values())


def test_second_phase_allowance_5_1_3() -> None:
    """5.1.3a: 3 MP in the second movement phase; one hex in a Storm (5.1.7c); 5.1.1 note:
    the first phase allowance is halved in a Storm."""
    m = us_match()
    put(m, "1/23", "2212")
    p = m.state.pieces["1/23"]
    assert mv.allowance(m, p, first=False) == (3, None)
    assert mv.allowance(m, p, first=True) == (6, None)
    m.state.vars[c.V_WEATHER] = "Storm"
    assert mv.allowance(m, p, first=True) == (3, None)
    dests = mv.destinations(m, p, first=False)
    assert dests and set(dests) <= {"2211", "2312", "2313", "2213", "2113", "2112"}


def test_phase_menu_and_end_5_1_1() -> None:
    """5.1.1: the first movement phase offers landing (11.2) and movement and ends on DONE;
    unused replacement steps are lost (11.5)."""
    m = us_match()
    put(m, "309", "0213")
    d = m.pending
    assert d is not None and d.kind == "movement_menu" and d.section == "5.1.1"
    assert DONE in d.values and any(str(v).startswith("land:") for v in d.values)
    m.decide(DONE)
    # No attack is possible, so the first combat phase asks nothing: the second movement
    # phase (5.1.3) comes next.
    assert m.state.phase == "us_move_2" and m.pending is not None
    assert m.pending.section == "5.1.3"


def test_setup_3_1_and_3_5() -> None:
    """3.1: the Turn marker starts on Clear, turn 1, the US first; 3.4: the Flag set aside;
    3.5: eleven bombardment markers, none on the map."""
    m = us_match()
    assert m.state.turn == 1 and m.state.pieces["turn"].face == "front"
    assert m.state.vars[c.V_WEATHER] == "Clear"
    assert m.state.pieces["flag"].location == c.SET_ASIDE
    markers = [p for p in m.state.pieces if p.kind == "bombardment"]
    assert len(markers) == 11 and {p.location for p in markers} == {c.MARKER_POOL}
    assert m.pending is not None and m.pending.player == c.US


def test_storm_check_5_1_7() -> None:
    """5.1.7b: one die on the column of this turn's weather; the Turn marker is flipped to
    match (its back is Storm)."""
    m = us_match()
    storm = c.components().tables["storm"]
    roll = next(r for r in range(1, 7) if storm.lookup("Clear", r) == "Storm")
    script(m, [roll])
    drive(GAME.administrative_phase(m))
    assert m.state.vars[c.V_WEATHER] == "Storm" and m.state.pieces["turn"].face == "back"
    assert texts(m, "weather")[0].startswith("5.1.7: storm check (Clear column)")


def test_redeployment_regions_equal_the_unlimited_search_6_5() -> None:
    """6.5 (speed): the hexes a unit may redeploy to, found from regions kept while the
    Japanese stay put, are those of the movement search with unlimited MA that never enters
    a hex within three hexes of a Japanese unit, for every US unit far enough from them, at
    every first movement phase of a whole bot game (tanks included)."""
    import math

    from tabletop.core.board.movement import reachable
    from tabletop.core.engine.registry import make_agent

    m = Match(GAME, seed=4)
    agents = {s: make_agent(GAME, s, "heuristic", 4) for s in GAME.info.players}
    checked = 0
    while m.pending is not None:
        if m.pending.kind == "movement_menu" and m.pending.section == "5.1.1":
            comp = c.components()
            japanese = c.board(m).hex_ids(c.JAPAN)
            near = mv._near(japanese)
            for p in c.units(m, c.US):
                start = comp.map.hex(p.location)
                if not mv._far_from_japanese(start, c.hexes_of(m, c.JAPAN)):
                    continue
                tank = c.is_tank(p)
                search = reachable(comp.map, start, math.inf, mv.move_costs(tank=tank), enemy=near)
                region = mv._redeploy_region(tank, japanese, comp.map.index(start))
                assert {comp.map.index(h) for h in search} == region - {comp.map.index(start)}
                checked += 1
        d = m.pending
        m.decide(agents[d.player].choose(m.view(d.player), d))
    assert checked > 100
