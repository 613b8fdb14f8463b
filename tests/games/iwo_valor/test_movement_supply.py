"""III.3 fog of war, IV.B landings, V How to Move, VI Zones of Control, VII Supply."""

from __future__ import annotations

import itertools
import random

import pytest

from tabletop.core.designer.testing import run_procedure
from tabletop.core.engine.decisions import DONE
from tabletop.games.iwo_valor import common as c
from tabletop.games.iwo_valor import movement as mv

from .helpers import empty_match, put

MAP = c.components().map  # the printed map, whose hexes the tests name by id

INF, INF2, TANK, HQ = "A/1/23/4", "B/1/23/4", "A/4TK", "HQ/4"


def dests(m, unit: str) -> set[str]:  # type: ignore[no-untyped-def]
    reach = mv.destinations(m, m.state.pieces[unit])
    return set() if reach is None else {MAP.label(h) for h in reach}


J = "0922"  # a Japanese hex with no defensive position within two hexes


def test_fog_III_3_reveal_within_two_hexes_for_good() -> None:
    """III.3: a Marine unit within two hexes turns a face-down unit face-up, for good."""
    m = empty_match()
    jp = put(m, "A/310", J, hidden=True)
    put(m, INF, "0919")
    assert c.reveal_around(m, "0919") == [] and jp.hidden
    m.state.pieces.move(INF, "0920")
    assert c.reveal_around(m, "0920") == [jp] and not jp.hidden
    m.state.pieces.move(INF, "0918")
    assert not jp.hidden


def test_hidden_unit_not_named_in_the_marine_view_III_3() -> None:
    """III.3 and the hidden-information model: a face-down unit shows only place and side."""
    m = empty_match()
    put(m, "A/310", J, hidden=True)
    shown = [p for p in m.view(c.US)["pieces"] if p["location"] == J]
    assert shown == [{"id": f"hidden:{J}:0", "kind": "hidden", "side": c.JAPAN, "location": J}]


def test_V_D_move_stops_within_two_hexes_and_fire_once_per_unit() -> None:
    """V.D, IX.A: a move ends at the first hex within two hexes of a Japanese unit; after it
    fired, the unit may go on, and that Japanese unit never fires at it again this phase."""
    m = empty_match(dice=[1, 1] * 10)
    put(m, "A/310", J)
    put(m, INF, "0918")
    reach = dests(m, INF)
    assert "0920" in reach and "0921" not in reach
    m.state.tracks["support"].set(0)
    run_procedure(mv.walk(m, m.state.pieces[INF], ["0918", "0919", "0920"], "IV.B.1"))
    assert m.state.vars[c.V_FIRED] == {INF: ["A/310"]}
    assert "0921" in dests(m, INF)  # may now close in
    run_procedure(mv.walk(m, m.state.pieces[INF], ["0920", "0921"], "IV.B.1"))
    assert m.state.vars[c.V_FIRED] == {INF: ["A/310"]}  # no second shot


def test_V_E_no_zoc_to_zoc_and_V_B_no_enemy_hex() -> None:
    """V.E, VI.A: never directly from one Japanese ZOC hex to another; V.B never into a unit."""
    m = empty_match()
    put(m, "A/310", J)
    put(m, INF, "0921")
    m.state.vars[c.V_FIRED] = {INF: ["A/310"]}
    reach = mv.destinations(m, m.state.pieces[INF])
    assert reach is not None and MAP.hex(J) not in reach
    zoc = set(MAP.passable_neighbor_ids(J))
    for h in reach:
        path = [MAP.label(x) for x in reach.path_to(h)]
        assert not any(a in zoc and b in zoc for a, b in itertools.pairwise(path))


def test_V_C_hq_not_into_zoc_without_infantry() -> None:
    """V.C: an HQ may enter a ZOC hex only where a Marine infantry unit already is."""
    m = empty_match()
    put(m, "A/310", J)
    put(m, HQ, "0920")
    m.state.vars[c.V_FIRED] = {HQ: ["A/310"]}
    assert "0921" not in dests(m, HQ)
    put(m, INF, "0921")
    assert "0921" in dests(m, HQ)


def test_V_F_class_2_position_in_zoc_closed() -> None:
    """V.F, VI.B: a vacant Class 2/3 position in a Japanese ZOC may not be entered."""
    m = empty_match()
    assert c.attr("1627", "position") == 2 and "1627" in MAP.passable_neighbor_ids("1626")
    put(m, "A/310", "1628")
    put(m, INF, "1626")
    m.state.vars[c.V_FIRED] = {INF: ["A/310"]}
    assert "1627" not in dests(m, INF)
    m.state.vars[c.V_CLASS1].append("1627")  # III.6: reduced to Class 1, it may be entered
    assert "1627" in dests(m, INF)


def test_V_G_to_V_J_terrain() -> None:
    """V.G sea, V.H ridge hexsides, V.I armour and slope hexsides, V.J armour and the Gorge."""
    m = empty_match(turn=3)
    put(m, INF, "0404")
    put(m, TANK, "0404")
    inf, tank = dests(m, INF), dests(m, TANK)
    assert all(c.is_land(h) for h in inf | tank)
    assert "0304" in inf and "0304" not in tank  # a slope hexside into the summit
    ridge = [(s.a, s.b) for s, f in MAP.hexsides().items() if "ridge" in f]
    assert ridge
    for a, b in ridge:  # V.H: a ridge hexside is crossed by no move of one hex
        m2 = empty_match(turn=3)
        put(m2, INF, MAP.label(a))
        reach = mv.destinations(m2, m2.state.pieces[INF])
        if reach is not None and b in reach:
            assert len(reach.path_to(b)) > 2
        break
    m3 = empty_match()
    put(m3, TANK, "2630")
    assert not dests(m3, TANK) & {"2732", "2733", "2831", "2832"}
    put(m3, INF, "2630")
    assert dests(m3, INF) & {"2732", "2733", "2831", "2832"}


def test_V_K_only_supplied_units_move_VII_A() -> None:
    """V.K, VII.A: a unit farther than 5 hexes from its HQ is not Supplied and cannot move;
    Part VII: an HQ needs no Supply to move (though unsupplied itself, it may)."""
    m = empty_match()
    hq = put(m, HQ, "0512")
    put(m, INF, "1525")
    assert INF not in {p.id for p in mv.movable(m)}
    m.state.vars[c.V_LANDED] = []  # no landed beach: the HQ itself traces to none
    assert not c.hq_supplied(m, c.Situation.of(m), hq) and HQ in {p.id for p in mv.movable(m)}
    m.state.vars[c.V_LANDED] = list(c.components().hexes_where("beach", "minami"))
    m.state.pieces.move(INF, "0515")
    assert INF in {p.id for p in mv.movable(m)}


def test_VII_B_supplied_on_turn_1_and_first_turn_ashore() -> None:
    """VII.B: everyone on turn 1; a unit on the turn it landed."""
    m = empty_match(turn=1)
    p = put(m, INF, "1525")
    assert c.is_supplied(m, p)
    m.state.turn = 4
    assert not c.is_supplied(m, p)
    p.attrs["landed"] = 4
    assert c.is_supplied(m, p)


def test_VII_A_supply_path_rules_and_IV_A_3_independent_regiment() -> None:
    """VII.A: a disrupted HQ supplies no one; no path through an empty hex within two hexes
    of a Japanese unit; IV.A.3: the independent regiment traces 4 hexes to a landed beach."""
    m = empty_match()
    hq = put(m, HQ, "0512")
    p = put(m, INF, "0515")
    assert c.is_supplied(m, p)
    hq.face = "back"
    assert not c.is_supplied(m, p)
    m.state.vars[c.V_IND] = "23"
    assert c.is_supplied(m, p)  # 0515 is a landed Minami beach hex itself
    s = c.Situation.of(m)
    m2 = empty_match()
    put(m2, "A/310", J)
    s = c.Situation.of(m2)
    assert c.supply_path(m2, s, "0918", ["0920"], "infantry", 5) is None  # 0920 empty, near J
    put(m2, INF2, "0920")
    s = c.Situation.of(m2)
    assert c.supply_path(m2, s, "0918", ["0920"], "infantry", 5) is not None


def test_VII_B_IV_A_3_independent_regiment_four_hexes_to_a_landed_beach() -> None:
    """VII.B: the Independent Regiment traces at most 4 hexes to a Beach Hex on which Marines
    landed (1018 is 4 hexes from Minami's, 1118 5), with no HQ; IV.A.3's reading
    (``ind_beach=beach``): to any hex of a Beach on which Marines landed."""
    for option in ("hex", "beach"):
        m = empty_match(turn=6, ind_beach=option)
        p = put(m, INF, "1018")
        assert not c.is_supplied(m, p)  # not independent: no HQ within 5
        m.state.vars[c.V_IND] = "23"
        assert c.is_supplied(m, p)
        m.state.pieces.move(INF, "1118")
        assert not c.is_supplied(m, p)
        m.state.pieces.move(INF, "1018")
        m.state.vars[c.V_LANDED] = ["0307"]  # Minami landed on at its far end only
        assert c.is_supplied(m, p) is (option == "beach")
        assert set(c.independent_sources(m, c.Situation.of(m))) == (
            {"0307"} if option == "hex" else set(c.components().hexes_where("beach", "minami")))


def test_IV_B_2_landing_roll() -> None:
    """IV.B.2: 2d6 - Japanese within two hexes - 1 on a West beach after turn 1: 3 or less
    loses a step, below 2 the shortfall."""
    nishi = c.components().hexes_where("beach", "nishi")[8]
    minami = c.components().hexes_where("beach", "minami")[8]
    for dice, hid, lost in (([1, 1], nishi, 1), ([1, 1], minami, 1), ([1, 2], minami, 1),
                            ([2, 2], minami, 0), ([2, 2], nishi, 1), ([3, 2], nishi, 0)):
        m = empty_match(turn=3, dice=dice)
        p = m.state.pieces[INF]
        run_procedure(mv.place_on_beach(m, p, hid))
        assert p.max_steps - p.steps == lost, (dice, hid)
        assert hid in m.state.vars[c.V_LANDED]
    m = empty_match(turn=3, dice=[1, 1])
    around = [h for h in MAP.ids_within(minami, 2) if c.is_land(h) and h != minami]
    for jid, near in zip(("A/310", "B/310"), around, strict=False):
        put(m, jid, near)
    p = m.state.pieces[INF]
    run_procedure(mv.place_on_beach(m, p, minami))
    assert p.steps == 1  # roll 2 - 2 = 0: two steps lost ("a modified die roll of 0 ... 2 steps")


def test_V_M_stacking_at_end_of_movement() -> None:
    """V.M: excess units are removed, the player choosing which, and count as eliminated;
    an HQ alone in ZOC is disrupted."""
    m = empty_match()
    put(m, INF, "0918")
    put(m, INF2, "0918")
    put(m, "A/310", J)
    hq = put(m, HQ, "0921")
    before = m.state.tracks["vp"].value
    gen = mv.end_of_movement(m)
    d = next(gen)
    assert (d.section, d.kind, sorted(map(str, d.values))) == ("V.M", "overstack", sorted([INF, INF2]))
    run_procedure(mv.end_of_movement(m), [INF])  # the player removes the first one
    assert [p.id for p in c.units_at(m, "0918", c.US) if p.kind == "infantry"] == [INF2]
    assert m.state.pieces[INF].location == c.US_ELIMINATED
    assert m.state.tracks["vp"].value == before + 4  # three steps and the elimination
    assert c.is_disrupted(hq)


def test_V_M_stacking_binds_only_at_the_end_of_the_phase_V_D() -> None:
    """V.M: "no more than one Marine Infantry Unit ... in each hex at the end of the MARINE
    MOVEMENT PHASE": a company may stop, and be fired at (V.D), in a hex another company
    holds, the menu saying one must leave; it then goes on from there."""
    m = empty_match(dice=[1, 1] * 10)
    m.state.tracks["support"].set(0)
    put(m, "A/310", J)
    put(m, INF, "0918")
    put(m, INF2, "0920")  # within two hexes of J: a stop on the way
    assert "0920" in dests(m, INF)
    d = next(mv.move_one(m, m.state.pieces[INF], "IV.B.1"))
    crowded = {str(o.value): o for o in d.options if o.detail and o.detail.get("crowded")}
    assert list(crowded) == ["0920"] and "(V.M)" in crowded["0920"].info
    run_procedure(mv.walk(m, m.state.pieces[INF], ["0918", "0919", "0920"], "IV.B.1"))
    assert m.state.vars[c.V_FIRED] == {INF: ["A/310"]}  # only the mover is fired at (V.D)
    assert {"0919", "0921"} <= dests(m, INF)  # and it may go on
    again = next(mv.move_one(m, m.state.pieces[INF], "IV.B.1"))
    assert not any(o.detail and o.detail.get("crowded") for o in again.options)  # 0920 is its own


def test_V_M_a_unit_whose_every_reachable_hex_is_crowded_may_stay() -> None:
    """V.M: a unit that could only end in hexes holding a unit of its kind is offered to stay
    (next to a Japanese unit, V.E lets it only out of the ZOC, and V.D stops it at once)."""
    m = empty_match()
    put(m, "A/310", J)
    put(m, INF, "0921")
    reach = sorted(dests(m, INF))
    assert 0 < len(reach) <= 4
    others = [p.id for p in m.state.pieces if p.side == c.US and p.kind == "infantry" and p.id != INF]
    for unit, h in zip(others, reach, strict=False):
        put(m, unit, h)
    d = next(mv.move_one(m, m.state.pieces[INF], "IV.B.1"))
    assert d.options[0].value == DONE and "Stay" in d.options[0].label
    assert [str(o.value) for o in d.options[1:]] == reach
    assert all(o.detail.get("crowded") for o in d.options[1:])
    m.state.pieces.move(others[0], c.AVAILABLE)  # one hex free again: no staying
    d = next(mv.move_one(m, m.state.pieces[INF], "IV.B.1"))
    assert DONE not in d.values


def test_VIII_E_flag_raised() -> None:
    """VIII.E: the first Marine unit into 0304 raises the Flag: -2 VP, +1 to attacks this turn;
    X: the Japanese VP Track goes below zero."""
    m = empty_match(turn=4)
    p = put(m, INF, "0404")
    run_procedure(mv.walk(m, p, ["0404", "0304"], "IV.B.1"))
    assert m.state.vars[c.V_FLAG_TURN] == 4 and m.state.tracks["vp"].value == -2
    assert m.state.pieces["flag"].location == "0304"


def test_part_V_hq_moves_five_hexes_V_A_path_without_skipping() -> None:
    """Part V: an HQ moves at most five hexes in the phase (infantry any number); V.A: a move
    walks a path of adjacent hexes, hex by hex."""
    m = empty_match()
    put(m, HQ, "0512")
    put(m, INF, "0512")
    far = {h: MAP.id_distance("0512", h) for h in dests(m, INF)}
    assert max(far.values()) > 5
    assert max(MAP.id_distance("0512", h) for h in dests(m, HQ)) <= 5
    reach = mv.destinations(m, m.state.pieces[INF])
    assert reach is not None
    target = max(far, key=lambda h: (far[h], h))
    path = [MAP.label(h) for h in reach.path_to(MAP.hex(target))]
    assert all(b in MAP.passable_neighbor_ids(a) for a, b in itertools.pairwise(path))
    run_procedure(mv.walk(m, m.state.pieces[INF], path, "IV.B.1"))
    event = next(e for e in reversed(m.log) if e.kind == "move")
    assert event.data["path"] == path and event.section == "V.A"
    hq = m.state.pieces[HQ]
    run_procedure(mv.walk(m, hq, ["0512", *MAP.passable_neighbor_ids("0512")[:1]], "IV.B.1"))
    assert max(MAP.id_distance(hq.location, h) for h in dests(m, HQ)) <= 4  # one of five used


def test_V_L_reinforcements_move_the_turn_they_land() -> None:
    """V.L, IV.B.3: a unit landed in step 2 may move in step 3 of the same phase."""
    m = empty_match(turn=3, dice=[6, 6])
    gen = mv.movement_phase(m)
    d = next(gen)
    moved = False
    try:
        while True:
            if d.kind == "select_landing":
                d = gen.send(INF if INF in d.values else DONE)
            elif d.kind == "land":
                d = gen.send(d.values[0])
            elif d.kind == "select_unit":
                assert d.section == "IV.B.3" and INF in d.values
                d = gen.send(INF)
            elif d.kind == "destination":
                moved = True
                start = m.state.pieces[INF].location
                d = gen.send(next(v for v in d.values if v != DONE))
            else:
                raise AssertionError(d.kind)
    except StopIteration:
        pass
    assert moved and m.state.pieces[INF].location != start


def test_part_VI_zoc_six_hexes_not_sea_VI_E_no_added_effect() -> None:
    """Part VI: a Japanese unit's ZOC is the land hexes around it, never an all-sea hex;
    VI.E: a hex in two ZOCs is no more closed than in one (a unit may still leave it)."""
    m = empty_match()
    put(m, "A/310", J)
    s = c.Situation.of(m)
    assert s.zoc == set(MAP.passable_neighbor_ids(J)) and all(c.is_land(h) for h in s.zoc)
    cmap = c.components().map
    coast = next(h for h in c.components().hexes_where("beach", "minami")
                 if any(not c.is_land(cmap.label(n)) for n in cmap.neighbors(cmap.hex(h))))
    m2 = empty_match()
    put(m2, "A/310", coast)
    around = {cmap.label(n) for n in cmap.neighbors(cmap.hex(coast))}
    zoc2 = c.Situation.of(m2).zoc
    assert zoc2 == {h for h in around if c.is_land(h)} and zoc2 < around
    m3 = empty_match()
    put(m3, "A/310", J)
    put(m3, INF, "0921")
    m3.state.vars[c.V_FIRED] = {INF: ["A/310", "B/310"]}
    other = next(h for h in MAP.passable_neighbor_ids("0921") if h in MAP.passable_neighbor_ids(J))
    put(m3, "B/310", other)
    both = c.Situation.of(m3)
    assert "0921" in set(MAP.passable_neighbor_ids(J)) & set(MAP.passable_neighbor_ids(other))
    free = [h for h in dests(m3, INF) if h not in both.zoc]
    assert free
    assert any(h in MAP.passable_neighbor_ids("0921") for h in free)  # one step out of both ZOCs


def test_VI_C_VI_D_supply_paths_and_zoc() -> None:
    """VI.C: no Supply Path into an empty ZOC hex; VI.D: into, or out of, a Marine-occupied
    ZOC hex."""
    m = empty_match()
    put(m, "A/310", J)
    zoc = MAP.passable_neighbor_ids(J)
    a = next(h for h in zoc if MAP.id_distance(h, J) == 1)
    s = c.Situation.of(m)
    assert c.supply_path(m, s, a, [a], "infantry", 5) is not None  # trivially at the source
    beyond = [h for h in MAP.passable_neighbor_ids(a) if h not in zoc and h != J]
    assert c.supply_path(m, s, beyond[0], [a], "infantry", 5) is None  # VI.C: empty ZOC hex
    put(m, INF, a)
    s = c.Situation.of(m)
    assert c.supply_path(m, s, beyond[0], [a], "infantry", 5) is not None  # VI.D: into it
    put(m, INF2, beyond[0])
    s = c.Situation.of(m)
    assert c.supply_path(m, s, a, [beyond[0]], "infantry", 5) is not None  # VI.D: out of it


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_VII_A_supply_for_every_hex_at_once_agrees_with_each_supply_path(seed: int) -> None:
    """VII.A, VI.C, VI.D: the hexes supplied_from finds in one search (the rules' and the
    bot's way of asking) are exactly those from which supply_path finds a path, for every
    land hex, each kind of unit, each path length the rules use, in the Narrow Game too."""
    rng = random.Random(seed)
    m = empty_match()
    land = [MAP.label(h) for h in MAP.hexes() if c.is_land(MAP.label(h))]
    centre = rng.choice(land)  # a crowded front: units in the hexes around one
    area = [h for h in land if MAP.id_distance(h, centre) <= 7]
    spots = rng.sample(area, min(len(area), 60))
    japanese = [p.id for p in m.state.pieces if p.side == c.JAPAN][:12]
    marines = [p.id for p in m.state.pieces if p.side == c.US and p.kind != "hq"][:38]
    for unit, hex_id in zip(japanese + marines, spots, strict=False):
        put(m, unit, hex_id)
    if seed == 3:
        m.state.vars["narrow_areas"] = ["S", "E"]
    s = c.Situation.of(m)
    sources = [h for h in spots[50:] if h not in s.jp]
    beaches = c.landed_sources(m, s)
    beyond = 0
    for kind in ("infantry", "armour", "hq"):
        for targets, length in ((sources, 5), (sources, 4), (beaches, None)):
            every = {h for h in land if c.traces_supply(m, s, h, targets, kind, length)}
            one_by_one = {h for h in land
                          if c.supply_path(m, s, h, targets, kind, length) is not None}
            assert every == one_by_one
            beyond += len(every - set(targets))
    assert beyond > 50  # not only the sources themselves


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_part_V_layered_destinations_are_the_core_search_s(seed: int) -> None:
    """V.A-M, VI.A-B: the destinations of a unit that may move any number of hexes, found a
    layer at a time on bit masks (movement._layered), are the core search's: the same hexes
    in the same order, the same costs, the same path to each (tie-breaks included), for
    infantry and armour, after opportunity fire, in a Class 2 position, in the Narrow Game."""
    import math

    from tabletop.core.board.hexgrid import Hex
    from tabletop.core.board.movement import reachable

    rng = random.Random(seed)
    m = empty_match(turn=8 if seed == 4 else 5)
    land = [MAP.label(h) for h in MAP.hexes() if c.is_land(MAP.label(h))]
    centre = rng.choice(land)
    area = [h for h in land if MAP.id_distance(h, centre) <= 8]
    spots = rng.sample(area, min(len(area), 50))
    japanese = [p.id for p in m.state.pieces if p.side == c.JAPAN][:14]
    marines = [p.id for p in m.state.pieces if p.side == c.US and p.kind != "hq"][:36]
    for unit, hex_id in zip(japanese + marines, spots, strict=False):
        put(m, unit, hex_id)
    if seed >= 3:
        m.state.vars["narrow_areas"] = ["S", "E"]
    s = c.Situation.of(m)
    areas = tuple(m.state.vars.get("narrow_areas") or ())
    class1 = tuple(m.state.vars[c.V_CLASS1])
    compared = 0
    for p in c.marines(m):
        for fired in ((), tuple(sorted(s.jp.values()))[: rng.randint(1, 4)]):
            zone = c.hexes_within2(tuple(h for h, jid in s.jp.items() if jid not in fired))
            jp_hexes = {MAP.hex(h) for h in s.jp}

            def can_end(h: Hex, jp_hexes: set[Hex] = jp_hexes) -> bool:
                return h not in jp_hexes

            core = reachable(c.components().map, MAP.hex(p.location), math.inf,
                             mv.terrain_costs(p.kind, areas, m.state.turn > 7),
                             enemy={MAP.hex(h) for h in mv.closed_hexes(m, p, s)},
                             ezoc=c.zoc_hexes(tuple(s.jp)), zoc_stops=False, zoc_to_zoc=False,
                             must_stop=zone, can_end=can_end)
            ours = mv._layered(m, p, s, fired, areas, class1)
            if not len(core):
                assert ours is None
                continue
            assert ours is not None
            assert list(ours) == list(core) and ours.costs == core.costs
            assert list(ours.costs_by_id().items()) == list(core.costs_by_id().items())
            assert all(ours.path_to(h) == core.path_to(h) for h in core)
            compared += len(core)
    assert compared > 200


def test_VI_situation_kept_while_the_pieces_do_not_change() -> None:
    """VI, VII.A: Situation.of hands back the situation it built while no piece has changed,
    and a new one, with the move in it, once a piece moves (or any piece changes)."""
    m = empty_match()
    put(m, "A/310", J)
    p = put(m, INF, "0918")
    s = c.Situation.of(m)
    assert c.Situation.of(m) is s and "0918" in s.marine_hexes
    m.state.pieces.move(p.id, "0920")
    moved = c.Situation.of(m)
    assert moved is not s and "0920" in moved.marine_hexes and "0918" not in moved.marine_hexes
    p.steps = 1  # a change of status: a new situation too (the same position)
    again = c.Situation.of(m)
    assert again is not moved and again.marine_hexes.keys() == moved.marine_hexes.keys()
    other = empty_match()  # another match's pieces are never taken for these
    assert c.Situation.of(other) is not again and not c.Situation.of(other).marine_hexes


def test_VII_A_the_HQ_hex_ends_the_path_it_is_not_passed_through() -> None:
    """VII.A: "may pass through only one Marine occupied hex that is within two hexes of a
    Japanese unit" - the HQ's hex, where the path ends, is entered, not passed through: a
    company next to a Japanese unit is Supplied through one Marine-held hex two hexes off to
    an HQ that also stands two hexes off; without that hex it is not."""
    m = empty_match()
    put(m, "A/310", J)
    land = [h for h in MAP.ids_within(J, 2) if c.is_land(h)]
    layout = next((a, r, h) for a in land if MAP.id_distance(a, J) == 1
                  for r in MAP.passable_neighbor_ids(a) if c.is_land(r) and MAP.id_distance(r, J) == 2
                  for h in MAP.passable_neighbor_ids(r) if c.is_land(h) and MAP.id_distance(h, J) == 2
                  and MAP.id_distance(h, a) == 2)
    a, r, h = layout
    attacker, relay = put(m, INF, a), put(m, INF2, r)
    put(m, HQ, h)
    assert c.is_supplied(m, attacker)
    m.state.pieces.move(relay.id, c.AVAILABLE)
    assert not c.is_supplied(m, attacker)


def test_vii_a_a_kept_supply_search_asked_from_eight_threads_answers_as_one_alone() -> None:
    """VII.A: the supply search a situation keeps (shared by every match that sees the same
    paths, in whatever thread) answers each hex as a search asked alone does, however the
    questions of eight threads interleave."""
    import sys
    import threading

    from tabletop.core.board.supply import SupplySearch

    masks = c.step_masks(False, ((), False))
    land = sorted(c.components().map.index(MAP.hex(h)) for h in MAP.ids() if c.is_land(h))
    sources = land[:1]

    def fresh() -> SupplySearch:
        return SupplySearch(masks, sources, costly_limit=1, costly_sources=False)

    alone = fresh()
    expected = [alone.reaches(masks.bits([i])) for i in land]
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(5):
            shared = fresh()
            answers: list[list[bool]] = [[] for _ in range(8)]

            def ask(k: int, search: SupplySearch = shared,
                    answers: list[list[bool]] = answers) -> None:
                order = land if k % 2 else land[::-1]
                got = {i: search.reaches(masks.bits([i])) for i in order}
                answers[k] = [got[i] for i in land]

            threads = [threading.Thread(target=ask, args=(k,)) for k in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert all(a == expected for a in answers)
            assert shared.finish() == alone.finish()
    finally:
        sys.setswitchinterval(before)
