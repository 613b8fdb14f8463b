"""Manila '45 rules, section by section (3.1-11.3). Each test names the sections it checks."""

from __future__ import annotations

import pytest

from tabletop.core.designer.testing import run_procedure
from tabletop.core.engine.decisions import DONE
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece
from tabletop.games.manila45 import GAME
from tabletop.games.manila45 import common as c
from tabletop.games.manila45.components import components
from tabletop.games.manila45.defensive_fire import defensive_fire
from tabletop.games.manila45.movement import Crossing, allowance, movable, step_cost
from tabletop.games.manila45.offensive_fire import (
    can_fire_at,
    is_fga,
    offensive_drms,
    offensive_fire_phase,
    targets,
)
from tabletop.games.manila45.replacements import reinforcement_phase
from tabletop.games.manila45.victory import final, result_now

from .conftest import bot_setup, position, seen


def P(m: Match, pid: str) -> Piece:
    """A piece of the match by id."""
    return m.state.pieces[pid]


# -- 3.0 set up --------------------------------------------------------------------------

def test_3_1_3_3_opening_layout() -> None:
    """3.1 the turn marker on 3-5 Feb, markers aside; 3.3 the US sorted into four piles, one
    for each organisation of 2.6;
    3.2 / 6.5 every Japanese unit starts face down in the set-up pool; 7.1 air waits."""
    m = Match(GAME, seed=0)
    assert m.state.tracks["turn"].value == 1
    assert m.state.pieces.count_at(c.ENTRY_BOX["1cav"]) == 14
    assert m.state.pieces.count_at(c.ENTRY_BOX["37id"]) == 14
    assert m.state.pieces.count_at(c.ENTRY_BOX["11ab"]) == 12
    assert m.state.pieces.count_at(c.ENTRY_BOX["xiv"]) == 12
    assert m.state.pieces.count_at(c.AIR_LATER) == 6
    assert all(p.hidden and p.face == "back" for p in m.state.pieces if p.side == "Japan")
    assert m.pending is not None and m.pending.player == "Japan" and m.pending.private


def test_3_2_setup_one_by_one_and_limits() -> None:
    """3.2: units placed one at a time, never in a map-edge hex or the next row, never on
    all-sea; 6.3 one static unit a stack; the set-up as data is checked the same way."""
    m = Match(GAME, seed=0)
    m.decide("one_by_one")
    d = m.pending
    assert d is not None and d.kind == "setup_hex"
    for bad in ("3401", "3402", "1613", "1712", "3532", "3531", "4422"):
        assert not d.is_legal(bad)
    assert d.is_legal("3822")
    setup = bot_setup()
    broken = dict(setup)
    broken[next(iter(broken))] = "3402"
    with pytest.raises(TabletopError, match=r"3\.2"):
        Match(GAME, seed=0, options={"setup": broken})


def test_3_2_bot_setup_then_adjust() -> None:
    """3.2: the Japanese player may take the bot's set-up and adjust it unit by unit."""
    m = Match(GAME, seed=0)
    m.decide("bot")
    assert m.pending is not None and m.pending.kind == "setup_adjust"
    unit = next(v for v in m.pending.values if v != "done")
    m.decide(unit)
    target = m.pending.values[0]
    m.decide(target)
    assert P(m, str(unit)).location == target
    m.decide("done")
    assert m.state.vars[c.V_SETUP_DONE]


def test_3_4_3_5_entry() -> None:
    """3.4: each division enters whole before the next, one unit at a time, on its edge; XIV
    Corps last (3.5), at 8 MP on turn 1 (3.5, 5.4), 16 otherwise (2.9)."""
    m = Match(GAME, seed=0, options={"setup": bot_setup()})
    d = m.pending
    assert d is not None and d.kind == "entry_org" and "xiv" not in d.values
    m.decide("11ab")
    assert m.pending is not None
    assert m.pending.kind == "entry_unit" and all(str(v).startswith("a-") for v in m.pending.values)
    m.decide("a-1-187")
    assert m.pending is not None
    assert m.pending.kind == "entry_hex" and m.pending.is_legal("3401") and not m.pending.is_legal("2532")
    x = P(m, "x-44tk")
    m.state.turn = 1
    assert allowance(m, x) == 8 and allowance(m, P(m, "a-1-187")) == 16


# -- 4.0 victory -------------------------------------------------------------------------

def test_4_2_normal_victory() -> None:
    """4.1, 4.2: the game runs to the end of turn 10; Japanese units on the map then win for
    Japan; none left wins for the US."""
    m = position({"j-cf-1": "3822"}, {}, turn=10)
    assert final(m).winner == "Japan"
    P(m, "j-cf-1").location  # noqa: B018
    m.state.pieces.move("j-cf-1", c.JP_DEAD)
    assert final(m).winner == "US" and final(m).section == "4.2"


def test_4_3_sudden_death() -> None:
    """4.3, 5.5: before turn 3, no Japanese unit north of the Pasig and west of the San Juan
    ends the game for the US; from turn 3 it does not."""
    m = position({"j-cf-1": "3822"}, {}, turn=2)
    r = result_now(m)
    assert r is not None and r.winner == "US" and r.section == "4.3"
    m.state.turn = 3
    assert result_now(m) is None
    m2 = position({"j-cf-1": "3526"}, {}, turn=1)
    assert result_now(m2) is None


# -- 5.0 sequence -------------------------------------------------------------------------

def test_5_1_5_3_sequence() -> None:
    """5.1-5.3: each turn the US player turn then the Japanese (5.1); the phases of the outline
    of 5.2 — US replacement, US movement, US fire, Japanese movement, Japanese fire — in that
    order; no Japanese replacement phase (5.3)."""
    m = Match(GAME, seed=3, options={"setup": bot_setup(3)})
    from tabletop.core.engine.registry import make_agent

    agents = {s: make_agent(GAME, s, "heuristic", 3) for s in GAME.info.players}
    m.run(agents, max_decisions=400)
    phases = [e.data["phase"] for e in m.log if e.kind == "phase"]
    assert phases[:5] == ["us_reinforce", "us_move", "us_fire", "jp_move", "jp_fire"]


def test_5_4_turn_1_2_restrictions() -> None:
    """5.4: on turns 1-2 US field artillery may not fire into urban or heavy structures hexes,
    and nobody may demolish bridges or structures; from turn 3 they may."""
    m = position({"j-cf-1": "3720"}, {"i-6fa": "3426", "i-1-145": "3721"}, turn=2)
    assert not can_fire_at(m, P(m, "i-6fa"), "3720")
    assert not any("bridge" in o.value or "demolish" in o.value
                   for o in targets(m, "US", [P(m, "i-1-145")]) if isinstance(o.value, dict))
    m.state.turn = 3
    assert can_fire_at(m, P(m, "i-6fa"), "3720")
    assert any(isinstance(o.value, dict) and "demolish" in o.value
               for o in targets(m, "US", [P(m, "i-1-145")]))


# -- 6.0 stacking and fog of war ----------------------------------------------------------------

def test_6_1_6_4_stacking() -> None:
    """6.1 two units a hex; 6.2 US divisions never mix, XIV with anyone; 6.3 one static unit a
    Japanese stack; 6.4 no move into an illegal stack."""
    m = position({"j-s-120a": "3720", "j-cf-1": "3620"}, {"c-1-5": "3030", "x-44tk": "3130"})
    assert c.can_stack(m, P(m, "c-2-5"), "3030")
    assert not c.can_stack(m, P(m, "i-1-129"), "3030")  # 6.2
    assert c.can_stack(m, P(m, "x-754tk"), "3030")
    m.state.pieces.move("c-2-5", "3030")
    assert not c.can_stack(m, P(m, "x-754tk"), "3030")  # 6.1
    assert not c.can_stack(m, P(m, "j-s-127a"), "3720")  # 6.3
    assert c.can_stack(m, P(m, "j-cf-2"), "3720")
    assert step_cost(m, P(m, "i-1-129"), "3031", "3030", Crossing("3031")) is None  # 6.4


def test_6_5_fog_of_war_views() -> None:
    """6.5: the US sees face-down Japanese units only as flags (no id, name, values); the
    Japanese player sees only the top unit of a US stack and nothing of the US dead pile; a
    unit fired on is flipped for good."""
    m = position({"j-cf-1": "3720"}, {"c-1-5": "3030", "c-2-5": "3030"})
    m.state.pieces.move("c-1-7", c.US_DEAD)
    us = seen(m, "US")
    flags = [p for p in us["pieces"] if p["location"] == "3720"]
    assert flags == [{"id": "hidden:3720:0", "kind": "hidden", "side": "Japan", "location": "3720"}]
    jp = seen(m, "Japan")
    at = [p for p in jp["pieces"] if p["location"] == "3030"]
    assert at[0]["id"] in ("c-1-5", "c-2-5") and at[1]["kind"] == "hidden"
    assert all(p["kind"] == "hidden" for p in jp["pieces"] if p["location"] == c.US_DEAD)
    c.reveal(m, [P(m, "j-cf-1")], "is fired on")
    assert not P(m, "j-cf-1").hidden
    assert any(p.get("id") == "j-cf-1" for p in seen(m, "US")["pieces"])


def test_6_5_pictures_show_what_the_view_shows() -> None:
    """6.5: the SVG and the text map drawn for the Japanese side show the top unit of a US
    stack and nothing of the unit beneath it or of the US dead pile, as the Japanese view
    does; drawn for the US side they show every US unit, and a face-down Japanese unit only
    as a battle flag."""
    from tabletop.core.board.render.ascii import render_match as text_map
    from tabletop.core.board.render.svg import render_match as svg_map

    m = position({"j-cf-1": "3720"}, {"c-1-5": "3030", "c-2-5": "3030"})
    m.state.pieces.move("c-1-7", c.US_DEAD)
    top, below = (P(m, pid) for pid in m.state.pieces.ids_at("3030"))
    view = seen(m, "Japan")
    named = {p["id"] for p in view["pieces"]}
    assert top.id in named and below.id not in named and "c-1-7" not in named
    for picture in (svg_map(m, hidden_from="Japan"), text_map(m, player="Japan")):
        assert below.name not in picture and "1/7 Cav" not in picture
        assert below.id not in picture and "c-1-7" not in picture
    assert top.name in svg_map(m, hidden_from="Japan")
    us_svg = svg_map(m, hidden_from="US")
    assert top.name in us_svg and below.name in us_svg and "1/7 Cav" in us_svg
    assert "1 CF" not in us_svg and "1 CF" not in text_map(m, player="US")


# -- 7.0 replacements -----------------------------------------------------------------------

def test_7_1_7_5_air_and_7_2_7_4_replacements() -> None:
    """7.1, 7.5: the six air units become available on turn 3; 7.2 one replacement an
    organisation a turn; 7.3 placed atop a unit of its organisation not next to a Japanese
    unit, or forfeit; 7.4 it may act at once."""
    m = position({"j-cf-1": "3720"}, {"c-1-5": "3030", "i-1-129": "3621"}, turn=3)
    for pid in ("c-2-5", "c-1-7", "i-2-129"):
        m.state.pieces.move(pid, c.US_DEAD)
    gen = reinforcement_phase(m)
    d = next(gen)
    assert m.state.pieces.count_at(c.AIR_READY) == 6
    assert d.section == "7.2" and set(d.values) == {"none", "c-2-5", "c-1-7"}
    d = gen.send("c-2-5")
    assert d.values == ["3030"]
    with pytest.raises(StopIteration):
        gen.send("3030")  # 37th: its only unit is next to a Japanese unit -> forfeit (7.3)
    assert P(m, "c-2-5").location == "3030" and m.state.pieces.ids_at("3030")[0] == "c-2-5"
    assert any(e.section == "7.3" and "forfeit" in e.text for e in m.log)
    assert P(m, "c-2-5") in movable(m, "US")  # 7.4


# -- 8.0 movement ------------------------------------------------------------------------------

def test_8_5_8_7_8_11_8_12_costs() -> None:
    """8.5 clear 1, urban 2, heavy 3; 8.6 hexside costs added; 8.7 unbridged major river
    prohibited, bridges free, unbridged minor +1; 8.11 contour +1; 8.12 rubble +1; 8.13 no
    all-sea; 8.14 no enemy hex."""
    m = position({"j-cf-1": "3720"}, {"c-1-5": "3030"})
    u = P(m, "c-1-5")
    x = Crossing("nowhere")
    assert step_cost(m, u, "2730", "2731", x) == 1
    assert step_cost(m, u, "3226", "3225", x) == 2
    assert step_cost(m, u, "3625", "3624", x) in (2, 3)
    assert step_cost(m, u, "3823", "3822", x) is None  # the Pasig and the wall, no bridge
    assert step_cost(m, u, "3723", "3722", x) == 3  # Jones Bridge into the Post Office
    assert step_cost(m, u, "2623", "2523", x) == c.ENTER_COST[c.terrain("2523")]  # a bridge
    assert step_cost(m, u, "2624", "2524", x) == c.ENTER_COST[c.terrain("2524")] + 1  # minor
    assert step_cost(m, u, "2224", "2124", x) == 2  # contour into clear
    m.state.vars[c.V_RUBBLE].append("3225")
    assert step_cost(m, u, "3226", "3225", x) == 3
    assert step_cost(m, u, "3823", "3824", x) is not None
    assert step_cost(m, u, "4123", "4223", x) is None  # all-sea
    assert step_cost(m, u, "3719", "3720", x) is None  # Japanese-occupied


def test_8_1_8_2_one_unit_at_a_time_within_its_mp() -> None:
    """8.1: units move one at a time from 16 MP, each once a phase; 8.2 a hex is offered only
    when the unit has the MP to pay for it."""
    from tabletop.games.manila45.movement import move_unit, movement_phase

    m = position({"j-cf-1": "3720"}, {"c-1-5": "2730", "c-2-5": "2830"})
    for box in c.ENTRY_BOX.values():  # no unit left to enter (3.4)
        for p in m.state.pieces.at(box):
            m.state.pieces.move(p.id, c.US_DEAD)
    gen = movement_phase(m, "US")
    d = next(gen)
    assert d.kind == "select_mover" and {"c-1-5", "c-2-5", DONE} <= set(map(str, d.values))
    d = gen.send("c-1-5")
    assert d.kind == "move_step" and d.context["mp"] == 16
    assert all(o.detail["mp"] <= 16 for o in d.options if o.value != DONE)
    d = gen.send("2731")
    cost = step_cost(m, P(m, "c-1-5"), "2730", "2731", Crossing("x"))
    assert cost is not None and d.context["mp"] == 16 - cost
    d = gen.send(DONE)
    assert d.kind == "select_mover" and "c-1-5" not in d.values and "c-2-5" in d.values
    u = P(m, "c-2-5")
    m.state.pieces.move("c-2-5", "3226")
    assert step_cost(m, u, "3226", "3225", Crossing("x")) == 2
    costs = {n: step_cost(m, u, "3226", n, Crossing("x")) for n in components().hexmap.neighbor_ids("3226")}
    step = next(move_unit(m, u, 2, Crossing("3226")))
    assert set(step.values) - {DONE} == {n for n, k in costs.items() if k is not None and k <= 2}
    assert "3225" in step.values
    if all(k is None or k > 1 for k in costs.values()):  # with 1 MP nothing is payable
        with pytest.raises(StopIteration):
            next(move_unit(m, u, 1, Crossing("3226")))


def test_8_6_wall() -> None:
    """8.6: crossing the wall into a heavy structures hex costs 3 + 1."""
    m = position({}, {"c-1-5": "3720"})
    assert step_cost(m, P(m, "c-1-5"), "3720", "3821", Crossing("3720")) == 4


def test_8_3_static_units_never_move() -> None:
    """2.9, 8.3, 8.4: static units are immobile, never offered for movement; mobile ones are."""
    m = position({"j-s-120a": "3720", "j-cf-1": "3620"}, {})
    ids = {p.id for p in movable(m, "Japan")}
    assert "j-cf-1" in ids and "j-s-120a" not in ids


def test_8_8_8_9_rivers() -> None:
    """8.8: a unit stacked with the 672nd beside a river at the start of the phase crosses it
    as if bridged; 8.9 a bridging engineer's pontoon bridge lets any US unit cross."""
    m = position({}, {"x-672": "3321", "c-1-5": "3321"})
    u = P(m, "c-1-5")
    assert step_cost(m, u, "3321", "3322", Crossing("3321")) is None
    assert step_cost(m, u, "3321", "3322", Crossing("3321", amtrac=True)) == 3
    m2 = position({}, {"x-117": "3021", "c-1-5": "3021"})
    assert step_cost(m2, P(m2, "c-1-5"), "3021", "3020", Crossing("3021")) is None
    m2.state.vars[c.V_PONTOONS]["x-117"] = c.side_key("3021", "3020")
    assert step_cost(m2, P(m2, "c-1-5"), "3021", "3020", Crossing("3021")) == 2


def test_8_10_coastal_move() -> None:
    """8.10: the 672nd on a coastal hex not next to a Japanese unit may move by sea with one
    unit to another such coastal hex; it stays there, its passenger moves on."""
    from tabletop.games.manila45.movement import coastal_move

    m = position({"j-cf-1": "3720"}, {"x-672": "3509", "x-44tk": "3509"})
    gen = coastal_move(m, "x-672")
    d = next(gen)
    assert set(d.values) == {"none", "x-44tk"}
    d = gen.send("x-44tk")
    assert "4228" in d.values and "3509" not in d.values
    assert all(c.is_coastal(h) for h in d.values)
    d = gen.send("4228")
    assert P(m, "x-672").location == "4228" and P(m, "x-44tk").location == "4228"
    assert d.kind == "move_step"


# -- 9.0 defensive fire ------------------------------------------------------------------------

def test_9_1_9_6_defensive_fire() -> None:
    """9.1-9.2: a moving unit entering a hex next to enemy units may be fired on by all of
    them together; 9.3 static units never fire defensively; 9.5 DRM -1, -2 for moving field
    artillery, +1 entering a friendly hex; 9.6 no rubble; 6.5 the firers are revealed."""
    m = position({"j-cf-1": "3225", "j-s-120a": "3224"}, {"i-6fa": "3227"})
    art = P(m, "i-6fa")
    m.state.pieces.move("i-6fa", "3226")
    m.script_dice([2])
    gen = defensive_fire(m, art, "3226")
    d = next(gen)
    assert d.player == "Japan" and d.context["strength"] == 5  # the static gun does not fire
    assert d.context["drm"] == -1 - 2 + 1  # -1 defensive, -2 artillery, +1 urban target
    with pytest.raises(StopIteration) as stop:
        gen.send(True)
    assert stop.value.value is True and art.location == c.US_DEAD
    assert not P(m, "j-cf-1").hidden and P(m, "j-s-120a").hidden
    assert "3226" not in m.state.vars[c.V_RUBBLE]


def test_9_3_air_and_static_never_targets() -> None:
    """9.3: US field artillery never fires defensively; static units are never fired on."""
    from tabletop.games.manila45.defensive_fire import (
        can_be_fired_on_defensively,
        can_fire_defensively,
    )

    m = position({"j-s-120a": "3224"}, {})
    assert not can_fire_defensively(P(m, "i-6fa")) and not can_fire_defensively(P(m, "air-1"))
    assert not can_be_fired_on_defensively(P(m, "j-s-120a"))
    assert not can_be_fired_on_defensively(P(m, "air-1"))


# -- 10.0 offensive fire ---------------------------------------------------------------------

def test_10_6_10_7_range_and_line_of_fire() -> None:
    """10.6 range counts the target, not the firer; 10.7 adjacent fire always allowed; 10.8
    urban blocks; 11.1-11.2 US indirect fire ignores blocking terrain."""
    m = position({"j-cf-1": "2919"}, {"x-44tk": "2921", "x-465fa": "2925"})
    assert components().hexmap.id_distance("2921", "2919") == 2
    tank = P(m, "x-44tk")
    assert can_fire_at(m, tank, "2919") == c.has_lof(m, "2921", "2919")
    assert can_fire_at(m, P(m, "x-465fa"), "2919")  # indirect, range 14


def test_10_9_wall_stops_fire() -> None:
    """10.9: fire through the wall stops in the hex right across it."""
    m = position({}, {})
    assert c.has_lof(m, "3720", "3821") or components().hexmap.id_distance("3720", "3821") == 1
    assert not c.has_lof(m, "3720", "3921") or components().hexmap.id_distance("3720", "3921") == 1


@pytest.mark.parametrize("reading", ["ignored", "stops"])
def test_10_9_11_2_indirect_fire_and_the_wall(reading: str) -> None:
    """10.9 against 11.1-11.2 (option indirect_wall): by default indirect fire ignores the
    wall as "blocking terrain of any kinds"; with 'stops' the wall stops it in the first hex
    beyond, "no matter from which side, and at what range(s)": a US gun six hexes out may
    not fire at 3922 inside Intramuros, nor demolish the empty 3921, but still reaches 3821
    right across the wall; a Japanese gun in 3922 may not fire out at 3618 although a
    Japanese unit next to 3618 spots it (11.2)."""
    stops = reading == "stops"
    m = position({"j-cf-1": "3922", "j-s-120a": "3822", "j-cf-2": "3617"},
                 {"x-465fa": "3618", "c-1-5": "3518"}, options={"indirect_wall": reading})
    gun, us_gun = P(m, "j-s-120a"), P(m, "x-465fa")
    assert components().hexmap.id_distance("3618", "3922") == 6 and not c.has_lof(m, "3618", "3922")
    assert components().hexmap.id_distance("3822", "3618") == 5 and not c.has_lof(m, "3822", "3618")
    assert can_fire_at(m, us_gun, "3922") is not stops
    assert can_fire_at(m, us_gun, "3821")  # the first hex beyond the wall
    fires = {o.value.get("fire") for o in targets(m, "US", [us_gun]) if isinstance(o.value, dict)}
    assert ("3922" in fires) is not stops and "3617" in fires
    demolitions = {o.value.get("demolish") for o in targets(m, "US", [us_gun])
                   if isinstance(o.value, dict)}
    assert ("3921" in demolitions) is not stops and "3821" in demolitions
    from tabletop.games.manila45.offensive_fire import spotted

    assert spotted(m, "3618")  # 3617 is next to it
    assert can_fire_at(m, gun, "3618") is not stops
    assert can_fire_at(m, gun, "3618") == ("3618" in {
        o.value.get("fire") for o in targets(m, "Japan", [gun]) if isinstance(o.value, dict)})


def test_11_2_japanese_spotting() -> None:
    """11.2: a Japanese IFC unit fires indirectly only at a hex a friendly unit can see."""
    m = position({"j-s-120a": "3626", "j-cf-1": "3127"}, {"c-1-5": "3030"})
    gun = P(m, "j-s-120a")
    from tabletop.games.manila45.offensive_fire import spotted

    assert can_fire_at(m, gun, "3030") == (c.has_lof(m, "3626", "3030") or spotted(m, "3030"))


def test_10_12_10_14_drms() -> None:
    """10.12: urban +1; range +1/+2 (10.13); armored target +2 unless anti-armor (10.14);
    adjacent CAC -1; 10.22 FGA -2 from two opposite hexes on turn 3."""
    m = position({}, {"c-1-5": "3227", "c-2-5": "3229", "c-61fa": "3233", "x-44tk": "3228"})
    target = [P(m, "x-44tk")]
    group = [P(m, "c-1-5"), P(m, "c-2-5")]
    drms = offensive_drms(m, "Japan", "3228", group, target, [])
    text = " ".join(w for _, _, w in drms)
    assert "urban" in text and "armored" in text and "CAC" in text
    assert is_fga(m, "3228", group)
    m.state.turn = 2
    assert not is_fga(m, "3228", group)
    far = offensive_drms(m, "US", "3228", [P(m, "c-61fa")], target, [])
    assert (2, "10.13", "firing at a target five or more hexes away") in far


def test_10_2_10_5_offensive_fire_phase() -> None:
    """10.1 in its offensive fire phase a side fires at enemy units in range; 10.2 each unit
    fires once a phase; 10.5 a hex is attacked once a phase; 10.15 both units
    of a stack share the result; 10.16 E eliminates; 10.17 advance after combat; 10.20 rubble
    roll on E in an urban hex; 6.5 the target is revealed."""
    m = position({"j-cf-1": "3225", "j-cf-2": "3225", "j-cf-3": "3525"},
                 {"c-1-5": "3226", "c-2-5": "3226", "c-61fa": "3230"}, turn=3)
    m.script_dice([1, 6])
    answers = [{"fire": "3225"}, "c-1-5", "c-2-5", "c-61fa", True, True]
    gen = offensive_fire_phase(m, "US")
    d = next(gen)
    for a in answers:
        assert d.is_legal(a), (a, d.values)
        d = gen.send(a)
    assert P(m, "j-cf-1").location == c.JP_DEAD and P(m, "j-cf-2").location == c.JP_DEAD
    assert "3225" in m.state.vars[c.V_RUBBLE]
    assert P(m, "c-1-5").location == "3225"
    assert not d.is_legal({"fire": "3225"})
    assert all(not (isinstance(v, dict) and v.get("fire") == "3225") for v in d.values)


def test_10_4_one_division_a_fire() -> None:
    """10.4: units fire alone or in groups at one hex; US divisional units firing together
    belong to one division; XIV Corps units join any group."""
    near = [n for n in components().hexmap.neighbor_ids("3225") if c.terrain(n) != "sea"]
    m = position({"j-cf-1": "3225"}, {"c-1-5": near[0], "i-1-129": near[1], "x-44tk": near[2]})
    gen = offensive_fire_phase(m, "US")
    next(gen)
    d = gen.send({"fire": "3225"})
    assert {"c-1-5", "i-1-129", "x-44tk"} <= set(map(str, d.values))
    d = gen.send("c-1-5")
    assert "i-1-129" not in d.values and "x-44tk" in d.values and DONE in d.values
    m2 = position({"j-cf-1": "3225"}, {"c-1-5": near[0], "i-1-129": near[1], "x-44tk": near[2]})
    gen = offensive_fire_phase(m2, "US")
    next(gen)
    gen.send({"fire": "3225"})
    d = gen.send("x-44tk")
    assert {"c-1-5", "i-1-129"} <= set(map(str, d.values))


def test_10_11_drm_on_the_roll_not_the_column() -> None:
    """10.11: the final DRM is added to the die roll, not to the fire strength: eight factors
    with +2 still fire on the <=9 column, and a roll of 1 becomes 3 there (no effect, where
    ten factors or an unmodified 1 would eliminate); 2.1 one six-sided die."""
    from tabletop.games.manila45.components import components
    from tabletop.games.manila45.fire import resolve

    crt = components().crt
    assert crt.dice == (1, 6)
    m = position({"j-cf-1": "3225"}, {"c-1-5": "3226"})
    m.script_dice([1])
    result = resolve(m, [P(m, "c-1-5")], 8, [(2, "10.12", "urban")], "3225", "10.3", "test")
    fire = [e for e in m.log if e.kind == "fire"][-1]
    assert "column <=9" in fire.text and fire.data["roll"] == 1 and fire.data["drm"] == 2
    assert result == "-" == crt.lookup(8, 3)
    assert crt.lookup(8, 1) == "E" and crt.lookup(10, 1) == "E"


def test_10_19_bridge_demolition() -> None:
    """10.19: from turn 3 a bridge may be fired on; an E demolishes it and it no longer
    carries movement (8.7)."""
    m = position({"j-cf-1": "3722", "j-cf-2": "3722"}, {"c-1-5": "3723"}, turn=3)
    m.script_dice([1])
    run_procedure(offensive_fire_phase(m, "Japan"),
                  [{"bridge": "3722-3723"}, "j-cf-1", "j-cf-2", DONE])
    assert "3722-3723" in m.state.vars[c.V_DEMOLISHED]
    assert step_cost(m, P(m, "c-1-5"), "3723", "3722", Crossing("x")) is None


def test_10_21_structure_demolition_10_23_air() -> None:
    """10.21: an empty urban hex may be demolished into rubble from turn 3; 10.23 air units
    fire once a game turn at any range."""
    m = position({"j-cf-1": "3030"}, {"c-1-5": "3226"}, turn=3)
    for p in m.state.pieces.at(c.AIR_LATER):
        m.state.pieces.move(p.id, c.AIR_READY)
    assert can_fire_at(m, P(m, "air-1"), "3030")
    m.script_dice([1])
    run_procedure(offensive_fire_phase(m, "US"), [{"demolish": "3225"}, "c-1-5", DONE])
    assert "3225" in m.state.vars[c.V_RUBBLE]


def _demolition_drm(us: dict[str, str], target: str, answers: list[str], roll: int) -> int:
    """10.21: the final DRM of a structure demolition at ``target`` by the units ``us``
    (placed as given, turn 3, one Japanese unit far away), the die scripted to ``roll``."""
    m = position({"j-cf-1": "3030"}, us, turn=3)
    m.script_dice([roll])
    run_procedure(offensive_fire_phase(m, "US"), [{"demolish": target}, *answers, DONE])
    [fire] = [e for e in m.log if e.kind == "fire"]
    assert fire.data["target"] == target and fire.data["firers"] == answers
    return int(fire.data["drm"])


def test_10_21_units_not_adjacent_may_demolish() -> None:
    """10.21: a structure demolition is "conducted just as regular offensive fires", and its
    +1 for units not adjacent says they may take part: a field artillery unit three hexes
    from an empty urban hex (11.2: indirect, in range) is offered it with nobody next to it;
    the demolitions offered are every empty urban or heavy structures hex some ground unit
    could fire at (10.6-10.9, 11.1-11.2), a hex holding a unit or rubble never."""
    from tabletop.games.manila45.offensive_fire import demolition_reach, structure_hexes

    m = position({"j-cf-1": "3030"}, {"c-61fa": "3228", "c-1-5": "2720"}, turn=3)
    assert components().hexmap.id_distance("3228", "3225") == 3 and c.terrain("3225") == "urban"
    m.state.vars[c.V_RUBBLE].append("3226")
    shooters = [P(m, "c-61fa"), P(m, "c-1-5")]
    offered = {o.value["demolish"] for o in targets(m, "US", shooters)
               if isinstance(o.value, dict) and "demolish" in o.value}
    assert "3225" in offered and "3226" not in offered and "3030" not in offered
    assert offered == {h for h in structure_hexes()
                       if h not in ("3226", "3030") and not c.units_at(m, h)
                       and any(can_fire_at(m, p, h, regular=False) for p in shooters)}
    assert any(components().hexmap.id_distance("3228", h) > 4 for h in offered)  # the gun's whole range (10)
    assert demolition_reach(m, "US", [P(m, "c-1-5")]) == {
        h for h in components().hexmap.neighbor_ids("2720") if c.terrain(h) in ("urban", "heavy")}


@pytest.mark.parametrize("reading", ["ignored", "stops"])
@pytest.mark.parametrize("side", ["US", "Japan"])
def test_10_21_demolitions_offered_are_the_hexes_units_could_fire_at(side: str, reading: str) -> None:
    """10.21 with 10.6-10.9 and 11.1-11.2: the demolitions offered to a side are exactly the
    empty urban or heavy structures hexes without rubble that one of its ground units could
    fire at, hex by hex (:func:`can_fire_at`): direct and indirect fire, Japanese spotting,
    the wall under either reading of option indirect_wall."""
    from tabletop.games.manila45.offensive_fire import structure_hexes

    m = position({"j-s-120a": "3822", "j-450": "3526", "j-cf-2": "3617", "j-cf-1": "3124"},
                 {"x-465fa": "3618", "x-82c": "3427", "c-1-5": "3518", "x-44tk": "3030"},
                 options={"indirect_wall": reading})
    shooters = c.units_on_map(m, side)
    offered = {o.value["demolish"] for o in targets(m, side, shooters)
               if isinstance(o.value, dict) and "demolish" in o.value}
    assert offered == {h for h in structure_hexes() if not c.units_at(m, h)
                       and any(can_fire_at(m, p, h, regular=False) for p in shooters)}
    assert any(components().hexmap.id_distance(p.location, h) > 1 for h in offered for p in shooters)


def test_10_21_demolition_drm_adjacent_mixed_and_not_adjacent() -> None:
    """10.21: "+1 if all of the involved attacking units aren't in hexes immediately adjacent
    to the targeted hex": an adjacent group has no +1, nor has a group mixing adjacent and
    ranged units (one of them is adjacent), a group with no unit adjacent has +1; +1 more
    into a heavy structures hex, -2 for each combat engineer; E places rubble."""
    assert _demolition_drm({"c-1-5": "3226"}, "3225", ["c-1-5"], 6) == 0
    assert _demolition_drm({"c-1-5": "3226", "c-61fa": "3228"}, "3225", ["c-1-5", "c-61fa"], 6) == 0
    assert _demolition_drm({"c-61fa": "3228"}, "3225", ["c-61fa"], 6) == 1
    assert _demolition_drm({"c-61fa": "1815"}, "1812", ["c-61fa"], 6) == 2  # heavy, not adjacent
    assert _demolition_drm({"c-8eng": "1813", "c-61fa": "1815"}, "1812", ["c-8eng", "c-61fa"], 6) == -1
    # 8 factors on the <=9 column: E on a modified 1 or less, so the +1 decides a roll of 1
    m = position({"j-cf-1": "3030"}, {"c-61fa": "3228"}, turn=3)
    m.script_dice([1])
    run_procedure(offensive_fire_phase(m, "US"), [{"demolish": "3225"}, "c-61fa", DONE])
    assert "3225" not in m.state.vars[c.V_RUBBLE]
    m = position({"j-cf-1": "3030"}, {"c-61fa": "3226"}, turn=3)
    m.script_dice([1])
    run_procedure(offensive_fire_phase(m, "US"), [{"demolish": "3225"}, "c-61fa", DONE])
    assert "3225" in m.state.vars[c.V_RUBBLE]


def test_10_18_close_assault_across_rivers() -> None:
    """10.18: no close assault across an unbridged major river; across a bridge it is allowed
    at +1 (10.12); across an unbridged minor river at +2."""
    from tabletop.games.manila45.offensive_fire import _close_assaulters

    m = position({"j-cf-1": "3822", "j-cf-2": "3722", "j-cf-3": "2524"},
                 {"c-1-5": "3823", "c-2-5": "3723", "c-1-7": "2624"}, turn=3)
    assert _close_assaulters(m, "3822", [P(m, "c-1-5")]) == []  # the Pasig, no bridge
    across_bridge = _close_assaulters(m, "3722", [P(m, "c-2-5")])
    assert across_bridge == [P(m, "c-2-5")]
    drms = offensive_drms(m, "US", "3722", across_bridge, c.units_at(m, "3722"), across_bridge)
    assert (1, "10.12", "close assault across a bridge or with the 672nd") in drms
    assert "minor_river" in components().hexmap.id_hexside_features("2624", "2524")
    assert not c.bridged(m, "2624", "2524", "US")
    cav = [P(m, "c-1-7")]
    minor = offensive_drms(m, "US", "2524", cav, c.units_at(m, "2524"), cav)
    assert (2, "10.12", "close assault across a river") in minor


def test_9_4_11_3_defensive_fire_adjacent_only() -> None:
    """9.4, 11.3: only units next to the mover fire defensively; an indirect-fire unit two
    hexes away does not join."""
    m = position({"j-cf-1": "3225", "j-cf-mt": "3223"}, {"c-1-5": "3227"})
    mover = P(m, "c-1-5")
    m.state.pieces.move("c-1-5", "3226")
    d = next(defensive_fire(m, mover, "3226"))
    assert d.context["strength"] == c.counter(P(m, "j-cf-1")).fire
