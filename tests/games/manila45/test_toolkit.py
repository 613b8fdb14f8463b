"""Manila '45, rule tests in about ten lines with the toolkit of ``tabletop.core.designer.testing``
(positions, forced dice, answers): 3.2, 4.2, 4.3, 5.2, 6.1, 6.5, 8.12, 9.2, 9.5, 10.20.

A position starts at ``start`` (the Japanese set-up, given whole as the ``setup`` option,
3.2, then turn 1 with the US entry, 3.4) or at any phase of 5.2 (``us_move``, ``us_fire``...)
with the set-up done and only the pieces it names on the map.

These port, through the game's own flow, checks that test_rules.py makes on hand-built
matches (test_3_2_*, test_4_3_sudden_death, test_8_5_8_7_8_11_8_12_costs,
test_9_1_9_6_defensive_fire).
"""

from __future__ import annotations

import pytest

from tabletop.core.designer.testing import answer, check_dice_used, force, start, texts
from tabletop.core.engine.errors import TabletopError
from tabletop.games.manila45 import GAME
from tabletop.games.manila45 import common as c
from tabletop.games.manila45.common import is_setup_hex
from tabletop.games.manila45.components import JAPAN, components
from tabletop.games.manila45.movement import entry_hexes


def layout(*, north_west: bool = True, **moves: str) -> dict[str, str]:
    """3.2: a legal Japanese set-up as the ``setup`` option: one unit a hex, none within four
    hexes of an entry edge (so a test's entering units meet only the units it moves there),
    the first in the north-west unless ``north_west`` is false (4.3); then the named units
    moved (unit id with '-' written '_')."""
    edges = entry_hexes("37id") + entry_hexes("11ab")
    far = sorted(h for h in components().hexmap.ids()
                 if is_setup_hex(h) and min(components().hexmap.id_distance(h, e) for e in edges) > 4)
    hexes = [h for h in far if c.is_north_west(h)][:1 if north_west else 0] \
        + [h for h in far if not c.is_north_west(h)]
    units = sorted(u for u, counter in components().counters.items() if counter.side == JAPAN)
    return dict(zip(units, hexes, strict=False)) | {u.replace("_", "-"): h for u, h in moves.items()}


def test_3_2_a_set_up_next_to_the_map_edge_is_refused() -> None:
    """3.2: no Japanese unit sets up in a map-edge hex or next to one (3402 is next to 3401)."""
    with pytest.raises(TabletopError, match=r"3\.2: j-nf-2p may not set up in 3402"):
        start(GAME, options={"setup": layout(j_nf_2p="3402")})


def test_3_2_6_1_placing_one_by_one_offers_only_legal_hexes() -> None:
    """3.2: no set-up on a map-edge hex (3401) or next to one (3402), 3403 allowed; 6.1:
    once two units share 3403 it is offered no more."""
    m = start(GAME)
    answer(m, "one_by_one")                      # 3.2: place each unit yourself
    assert m.pending is not None
    offered = [o.value for o in m.pending.options]
    assert "3401" not in offered and "3402" not in offered and "3403" in offered
    answer(m, "3403", "3403")                    # j-nf-1p and j-nf-2p, both mobile
    assert m.pending is not None and m.pending.context["unit"] == "j-nf-n" and not m.pending.is_legal("3403")


@pytest.mark.parametrize("roll, result", [(2, "E"), (3, "-")])
def test_9_2_9_5_defensive_fire_at_an_entering_unit(roll: int, result: str) -> None:
    """9.2, 9.5, 6.5: 1/129 steps from 2932 to 2931, next to 2 P NF (5 factors) in 2831;
    Japan fires on the <=9 column with 9.5's -1, so a 2 eliminates (E up to 1) and a 3 does
    not; the firer is flipped face-up."""
    m = start(GAME, options={"setup": layout(j_nf_2p="2831")},
              forced=[force("9.2 defensive fire", roll)])
    answer(m, "37id", "i-1-129", "2932", "2931", True)  # 3.4 entry, 8.1 a step, 9.2 fire
    assert texts(m, "fire")[0].endswith(f"roll {roll}, DRM -1 -> {result} [-1 defensive fire (9.5)]")
    assert (m.state.pieces["i-1-129"].location == c.US_DEAD) == (result == "E")
    assert not m.state.pieces["j-nf-2p"].hidden
    check_dice_used(m)


def test_4_3_no_japanese_unit_north_west_is_a_us_sudden_death_victory() -> None:
    """4.3: a set-up leaving no Japanese unit north of the Pasig and west of the San Juan
    ends the game at once, a US victory; one unit there keeps it going."""
    m = start(GAME, options={"setup": layout(north_west=False)})
    assert m.result is not None and (m.result.section, m.result.winner) == ("4.3", "US")
    assert start(GAME, options={"setup": layout()}).result is None


def test_8_12_rubble_costs_one_more_to_enter() -> None:
    """8.12, 8.5: an urban hex costs 2 MP, 3 with rubble; entering 3732 leaves 13 of 16 MP."""
    m = start(GAME, options={"setup": layout()}, vars={"rubble": ["3732"]})
    answer(m, "37id", "i-1-129")
    assert m.pending is not None and "3732 (urban, 3 MP)" in [o.label for o in m.pending.options]
    answer(m, "3732")
    assert m.pending is not None and m.pending.context["mp"] == 13


def test_5_2_9_2_defensive_fire_from_the_movement_phase() -> None:
    """5.2 entry point, 9.2, 9.5: on turn 3, 1/129 in 2932 steps to 2931 next to 2 P NF in
    2831; Japan fires with 9.5's -1 and a 2 eliminates it."""
    m = start(GAME, start="us_move", turn=3, clear=["US", "Japan"],
              pieces={"i-1-129": {"at": "2932"}, "j-nf-2p": {"at": "2831"}},
              forced=[force("9.2 defensive fire", 2)])
    answer(m, "i-1-129", "2931", True)           # 8.1 a step, 9.2 Japan fires
    assert texts(m, "fire")[0].endswith("roll 2, DRM -1 -> E [-1 defensive fire (9.5)]")
    assert m.state.pieces["i-1-129"].location == c.US_DEAD
    check_dice_used(m)


@pytest.mark.parametrize("roll, rubble", [(6, ["2321"]), (5, [])])
def test_10_20_an_E_in_an_urban_hex_leaves_rubble_on_a_six(roll: int, rubble: list[str]) -> None:
    """10.20 from the US Offensive Fire Phase (5.2): 1/129 fires at the revealed 2 P NF in the
    urban hex 2321 and eliminates it; the rubble roll puts a marker there on a 6 only."""
    m = start(GAME, start="us_fire", turn=3, clear=["US", "Japan"],
              pieces={"i-1-129": {"at": "2320"}, "j-nf-1p": {"at": "1917"},
                      "j-nf-2p": {"at": "2321", "status": {"revealed": True}}},
              forced=[force("offensive fire", 1), force("10.20 rubble", roll)])
    answer(m, {"fire": "2321"}, "i-1-129", False)  # 10.2 target, 10.4 firer, 10.17 no assault
    assert m.state.pieces["j-nf-2p"].location == c.JP_DEAD
    assert m.state.vars["rubble"] == rubble
    check_dice_used(m)


@pytest.mark.parametrize("turn, others, section", [
    (3, {}, "4.2"),                                  # the last Japanese unit on the map
    (2, {"j-cf-2": {"at": "2720"}}, "4.3"),          # the last one north-west, before turn 3
])
def test_4_2_4_3_10_20_play_stops_after_the_rubble_roll(turn: int, others: dict[str, object],
                                                       section: str) -> None:
    """4.2, 4.3 with 10.3, 10.16, 10.20: the fire that eliminates the last Japanese unit (or
    the last one north of the Pasig and west of the San Juan before turn 3) is resolved in
    full, its result "applied immediately" and the rubble roll made "immediately" after the
    E; then play stops, and the advance after combat (10.17, voluntary) is not offered:
    1/5 Cav close assaults 1 CF in the urban 3225, rolls 1 (E) then 6 (rubble)."""
    m = start(GAME, start="us_fire", turn=turn, clear=["US", "Japan"],
              pieces={"c-1-5": {"at": "3226"}, "j-cf-1": {"at": "3225"}, **others},
              forced=[force("10.3 offensive fire", 1), force("10.20 rubble", 6)])
    answer(m, {"fire": "3225"}, "c-1-5", True)  # 10.2 target, 10.4 firer, 10.17 close assault
    assert m.result is not None and (m.result.winner, m.result.section) == ("US", section)
    assert m.pending is None and m.state.pieces["c-1-5"].location == "3226"  # no advance
    assert m.state.vars["rubble"] == ["3225"]
    assert [e.kind for e in m.log][-3:] == ["roll", "rubble", "end"]
    check_dice_used(m)


def test_3_2_6_5_a_position_at_a_phase_has_the_set_up_done() -> None:
    """3.2: at a phase of a turn no Japanese unit may wait in the set-up pool, unless the
    ``setup`` option places it; 6.5: only a Japanese unit is revealed (face and mark together)."""
    with pytest.raises(TabletopError, match=r"3\.2: j-\S+ is still in the set-up pool"):
        start(GAME, start="us_move", turn=3)
    m = start(GAME, start="us_move", turn=3, options={"setup": layout()},
              pieces={"j-nf-2p": {"at": "2831", "status": {"revealed": True}}})
    unit = m.state.pieces["j-nf-2p"]
    assert (unit.location, unit.hidden, unit.face, unit.attrs["revealed"]) == ("2831", False, "front", True)
    assert all(p.location != c.JP_POOL for p in m.state.pieces if p.side == JAPAN)
    assert unit.attrs["setup_hex"] == "2831"                  # 8.3: where a static unit stays
    with pytest.raises(TabletopError, match="only Japanese units"):
        start(GAME, start="us_move", turn=3, clear=["US", "Japan"],
              pieces={"i-1-129": {"at": "2932", "status": {"revealed": True}}})


@pytest.mark.parametrize("phase, turn, player, kind", [
    ("us_reinforce", 4, "US", "replacement_unit"),  # 7.2: 1/5 Cav in the dead pile, 2/5 Cav to host it
    ("us_move", 1, "US", "entry_org"),              # 3.4: the divisions enter on turn 1
    ("us_move", 4, "US", "pontoon"),                # 8.9: the engineer beside the Pasig first
    ("us_fire", 4, "US", "fire_target"),
    ("jp_move", 4, "Japan", "select_mover"),
    ("jp_fire", 4, "Japan", "fire_target"),
])
def test_5_2_a_position_starts_at_any_phase(phase: str, turn: int, player: str, kind: str) -> None:
    """5.2: every phase of a game turn is an entry point; a position started there asks that
    phase's first decision of that phase's player, the set-up done (3.2) and the earlier
    phases of the turn skipped."""
    assert [e.id for e in GAME.entry_points()] == ["us_reinforce", "us_move", "us_fire", "jp_move",
                                                   "jp_fire"]
    pieces = {"c-2-5": {"at": "2720"}, "c-1-5": {"at": c.US_DEAD}, "x-117": {"at": "3021"},
              "j-cf-1": {"at": "2523"}, "j-cf-2": {"at": "3225", "status": {"revealed": True}}}
    m = start(GAME, start=phase, turn=turn, clear=["Japan"] if turn == 1 else ["US", "Japan"],
              pieces=pieces)
    assert m.pending is not None and (m.pending.player, m.pending.kind) == (player, kind)
    assert (m.state.turn, m.state.phase) == (turn, phase)


@pytest.mark.parametrize("turn, phase, ready", [(2, "us_fire", False), (3, "us_reinforce", True),
                                                (3, "us_move", True), (6, "jp_fire", True)])
def test_7_1_7_5_10_23_air_units_are_ready_in_positions_from_turn_3(turn: int, phase: str,
                                                                    ready: bool) -> None:
    """7.1, 7.5: a position past the US Replacement & Reinforcement Phase of turn 3 has the
    six air units available (10.23: off the map, ready to fire); one starting at that phase
    has them arrive in it (its event says so); before it they wait, and a position may not
    make them available sooner."""
    m = start(GAME, start=phase, turn=turn, options={"setup": layout()})
    air = [p for p in m.state.pieces if p.kind == "air_support"]
    assert len(air) == 6
    assert all(p.location == (c.AIR_READY if ready else c.AIR_LATER) for p in air)
    arrived = texts(m, "reinforcements")
    assert arrived == (["the 6 US combat air support units are available"]
                       if phase == "us_reinforce" else [])
    with pytest.raises(TabletopError, match=r"7\.1: the air unit air-1 is available before turn 3"):
        start(GAME, start="us_fire", turn=2, options={"setup": layout()},
              pieces={"air-1": {"at": c.AIR_READY}})


@pytest.mark.parametrize("pontoon", ["3020", ""])
def test_8_9_10_17_pontoon_status_bridges_the_river_for_a_close_assault(pontoon: str) -> None:
    """8.9 status pontoon: 117 Eng's bridge from 3021 across the Pasig to 3020 is set as it
    is in play; 10.17-10.18: 1/5 Cav in 3021 may then close assault 1 CF across it (without
    the bridge no close assault is offered across the major river)."""
    m = start(GAME, start="us_fire", turn=3, clear=["US", "Japan"],
              pieces={"x-117": {"at": "3021", "status": {"pontoon": pontoon}}, "c-1-5": {"at": "3021"},
                      "j-cf-1": {"at": "3020", "status": {"revealed": True}}, "j-cf-2": {"at": "2720"}})
    assert m.state.vars["pontoons"] == ({"x-117": "3020-3021"} if pontoon else {})
    answer(m, {"fire": "3020"}, "c-1-5", "done")
    assert m.pending is not None and (m.pending.kind == "close_assault") == bool(pontoon)


@pytest.mark.parametrize("pieces, vars_, message", [
    ({"c-1-5": {"at": "3021", "status": {"pontoon": "3020"}}}, {},
     r"8\.9: only a bridging engineer"),
    ({"x-117": {"at": "3021", "status": {"pontoon": "3121"}}}, {},
     r"8\.9: 3121 is not across a river hexside from 3021 \(across a river from it: 3020"),
    ({"x-117": {"at": "box:us_xiv", "status": {"pontoon": "3020"}}}, {},
     r"8\.9: the engineer must stand on the map"),
    ({}, {"rubble": ["2430"]}, r"10\.20, 10\.21: rubble '2430' is not an urban or heavy"),
    ({}, {"bridges_demolished": ["3020-3021"]}, r"10\.19: bridges_demolished '3020-3021' is not a "
                                                r"printed bridge"),
    ({}, {"pontoons": {"x-117": "3020-3021"}}, r"8\.9: pontoons x-117: '3020-3021' is not a river "
                                               r"hexside of a bridging engineer's hex"),
    ({"j-cf-2": {"at": "3225", "face": "front"}}, {},
     r"6\.5: Japanese unit j-cf-2 shows its front with hidden true: set its status revealed"),
    ({"c-1-5": {"at": "3226", "hidden": True}}, {}, r"6\.5: US unit c-1-5 is face down"),
])
def test_8_9_10_19_10_21_positions_set_markers_only_where_the_rules_put_them(
        pieces: dict[str, object], vars_: dict[str, object], message: str) -> None:
    """8.9, 10.19-10.21: a pontoon bridge only by a bridging engineer on the map across a
    river hexside of its hex, rubble only in an urban or heavy structures hex, a demolished
    bridge only on a printed one; 6.5: a Japanese unit's face set apart from its hidden flag
    (the status revealed sets both), a US unit face down: each refused with one message
    naming it."""
    with pytest.raises(TabletopError, match=message):
        start(GAME, start="us_fire", turn=3, options={"setup": layout()}, pieces=pieces, vars=vars_)
