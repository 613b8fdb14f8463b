"""Tests of core.movement: the one movement search the hex games share, policy by policy."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from itertools import pairwise
from typing import Any

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.board.hexgrid import Hex, HexSide, InvalidHexError, distance, hex_neighbor, within
from tabletop.core.board.hexmap import HexMap
from tabletop.core.board.mapdata import HexMapSpec
from tabletop.core.board.movement import (
    MoveCosts,
    MoveError,
    Reach,
    adjacent_hexes,
    can_move,
    first_steps,
    reachable,
)
from tabletop.core.board.supply import StepMasks, step_table
from tabletop.core.engine.errors import TabletopError

N, NE, SE, S, SW, NW = range(6)
COSTS = {"clear": 1, "broken": 2, "rough": 3, "heavy": 3}


def make_map(columns: tuple[int, int] = (1, 7), rows: tuple[int, int] = (1, 7), *,
             terrain: dict[str, str] | None = None,
             sides: list[tuple[str, str, list[str]]] | None = None) -> HexMap:
    """A small map of clear ground with some terrain and hexside features."""
    spec = HexMapSpec.model_validate({
        "name": "test", "columns": columns, "rows": rows, "shifted": "odd",
        "default_terrain": "clear",
        "terrain_types": {name: {"name": name} for name in COSTS}
        | {"sea": {"name": "sea", "prohibited": True}},
        "hexside_types": {f: {"name": f} for f in
                          ("wall", "major_river", "minor_river", "bridge", "contour")},
        "hexes": terrain or {},
        "hexsides": [{"between": [a, b], "features": f} for a, b, f in sides or []],
    })
    return HexMap.from_spec(spec)


def corridor(length: int = 7) -> HexMap:
    """A one-column map: hexes 0101..01NN in a single line, so paths are forced."""
    return make_map((1, 1), (1, length))


def ids(m: HexMap, hexes: Collection[Hex]) -> set[str]:
    """The printed ids of some hexes."""
    return {m.label(h) for h in hexes}


def terrain_costs(m: HexMap, **hexside: Any) -> MoveCosts:
    """The test terrain costs on a map, with hexside extras."""
    return MoveCosts.from_terrain(m, COSTS, hexside=hexside or None)


# --- costs ------------------------------------------------------------------------------------

def test_open_ground_reach_is_every_hex_within_the_allowance() -> None:
    """Bonins 6.1: on clear ground (1 MP a hex) a unit reaches every hex within its MA,
    each at a cost equal to its distance; the start hex is not a destination."""
    m = make_map()
    start = m.hex("0404")
    reach = reachable(m, start, 2, terrain_costs(m))
    assert set(reach) == {h for h in within(start, 2) if h in m} - {start}
    assert all(reach.cost(h) == distance(start, h) for h in reach)
    assert start not in reach
    assert list(reach) == sorted(reach, key=m.index)  # label order


def test_terrain_cost_must_be_paid_in_full() -> None:
    """Bonins 6.2c/6.4: a unit cannot enter a 3 MP rough hex with 2 MP left, but can with 3."""
    m = make_map(terrain={"0403": "rough"})
    start, rough = m.hex("0404"), m.hex("0403")
    assert rough not in reachable(m, start, 2, terrain_costs(m))
    reach = reachable(m, start, 3, terrain_costs(m))
    assert reach.cost(rough) == 3
    assert reach.path_to(rough) == [start, rough]


def test_prohibited_terrain_is_never_entered() -> None:
    """Bonins 6.2e / Manila '45 8.13: an all-sea hex is never entered, whatever the MA."""
    m = make_map(terrain={"0403": "sea"})
    reach = reachable(m, m.hex("0404"), math.inf, terrain_costs(m))
    assert m.hex("0403") not in reach
    assert len(reach) == len(m) - 2


def test_hexside_cost_is_added_to_the_hex_entered() -> None:
    """Manila '45 8.6: crossing a wall hexside into a heavy structure hex costs 3 + 1 = 4."""
    m = make_map(terrain={"0403": "heavy"}, sides=[("0404", "0403", ["wall"])])
    start, target = m.hex("0404"), m.hex("0403")
    costs = terrain_costs(m, wall=1)
    assert costs(start, target) == 4
    assert costs(target, start) == 2  # the wall's extra applies both ways
    assert target not in reachable(m, start, 3, costs)
    reach = reachable(m, start, 4, costs)
    assert reach.cost(target) == 4
    # Going round the wall also costs 1 + 3 = 4; the path with fewer hexes is chosen.
    assert reach.path_to(target) == [start, target]


def test_prohibited_hexside_is_never_crossed() -> None:
    """Manila '45 8.7: an unbridged major river hexside cannot be crossed; the unit goes
    round it, paying for the longer way."""
    m = make_map(sides=[("0404", "0403", ["major_river"])])
    start, across = m.hex("0404"), m.hex("0403")
    costs = terrain_costs(m, major_river=None)
    assert costs(start, across) is None
    reach = reachable(m, start, 4, costs)
    assert reach.cost(across) == 2
    assert reach.path_to(across)[1] != across


def test_bridges_by_feature_set() -> None:
    """Manila '45 8.7: a major river is crossed only at a bridge; a minor river costs +1
    unbridged and nothing bridged (a hexside cost computed from the whole feature set)."""
    m = make_map(sides=[("0404", "0403", ["major_river", "bridge"]),
                        ("0404", "0405", ["minor_river"]),
                        ("0404", "0304", ["minor_river", "bridge"]),
                        ("0404", "0504", ["major_river"])])

    def river(features: frozenset[str]) -> float | None:
        if "bridge" in features:
            return 0
        if "major_river" in features:
            return None
        return 1 if "minor_river" in features else 0

    costs = MoveCosts.from_terrain(m, COSTS, hexside=river)
    start = m.hex("0404")
    assert costs(start, m.hex("0403")) == 1
    assert costs(start, m.hex("0405")) == 2
    assert costs(start, m.hex("0304")) == 1
    assert costs(start, m.hex("0504")) is None


def test_summed_hexside_extras() -> None:
    """Manila '45 8.6/8.11: hexside extras given per feature add up; unnamed features are free."""
    m = make_map(sides=[("0404", "0403", ["minor_river", "contour", "bridge"])])
    costs = terrain_costs(m, minor_river=1, contour=1)
    assert costs(m.hex("0404"), m.hex("0403")) == 3


def test_rubble_raises_a_hex_cost_in_a_copy() -> None:
    """Manila '45 8.12: rubble adds +1 MP to enter a hex; replace() changes a copy only."""
    m = make_map(terrain={"0403": "heavy"})
    costs = terrain_costs(m)
    a, b = m.hex("0404"), m.hex("0403")
    rubbled = costs.replace(enter={b: 4})
    assert rubbled(a, b) == 4 and costs(a, b) == 3
    bridged = costs.replace(cross={HexSide(a, b): None})
    assert bridged(a, b) is None and costs(a, b) == 3


def test_cost_table_must_cover_the_map() -> None:
    """A terrain missing from the cost table, or a negative cost, is a clear MoveError."""
    m = make_map(terrain={"0403": "rough"})
    with pytest.raises(MoveError, match="no movement cost given for terrain 'rough'"):
        MoveCosts.from_terrain(m, {"clear": 1})
    with pytest.raises(MoveError, match="negative"):
        MoveCosts.from_terrain(m, {"clear": 1, "rough": -1})
    with pytest.raises(MoveError, match="no movement cost given for hex"):
        MoveCosts(m, {m.hex("0101"): 1})
    with pytest.raises(MoveError, match="negative"):
        reachable(m, m.hex("0404"), 3, lambda a, b: -1)


def test_one_way_costs_through_a_cost_function() -> None:
    """A cost function may price a step differently in each direction (climbing a slope)."""
    m = corridor(3)
    top, bottom = m.hex("0101"), m.hex("0103")

    def uphill(a: Hex, b: Hex) -> float:
        return 3 if b.r < a.r else 1  # moving up the column is climbing

    assert reachable(m, top, 2, uphill).cost(bottom) == 2
    assert bottom in reachable(m, top, 2, uphill)
    assert top not in reachable(m, bottom, 5, uphill)
    assert reachable(m, bottom, 6, uphill).cost(top) == 6


# --- units ------------------------------------------------------------------------------------

def test_enemy_hexes_are_never_entered_nor_passed() -> None:
    """Bonins 6.2d / Manila '45 8.14: a unit cannot enter (or so move through) an enemy hex."""
    m = corridor()
    reach = reachable(m, m.hex("0101"), 10, terrain_costs(m), enemy={m.hex("0104")})
    assert ids(m, reach) == {"0102", "0103"}


def test_entering_an_ezoc_stops_the_unit() -> None:
    """Bonins 7.1: a unit that enters an EZOC hex must stop, whatever MP it has left."""
    m = corridor()
    reach = reachable(m, m.hex("0101"), 10, terrain_costs(m), ezoc={m.hex("0103")},
                      zoc_stops=True)
    assert ids(m, reach) == {"0102", "0103"}


def test_a_unit_may_leave_the_ezoc_it_begins_in() -> None:
    """Bonins 7.1: a unit that begins in an EZOC may move out of it to a non-EZOC hex."""
    m = corridor()
    reach = reachable(m, m.hex("0102"), 2, terrain_costs(m), ezoc={m.hex("0102")},
                      zoc_stops=True, zoc_to_zoc=False)
    assert ids(m, reach) == {"0101", "0103", "0104"}


def test_no_move_from_ezoc_directly_into_ezoc_but_round_about() -> None:
    """Bonins 7.1 and its example: a unit beginning in an EZOC cannot move directly into
    another EZOC hex, but may first move to a non-EZOC hex and then enter it (and stop)."""
    m = make_map()
    enemy = m.hex("0404")
    start, other = hex_neighbor(enemy, N), hex_neighbor(enemy, NE)  # both in its ZOC
    ezoc = adjacent_hexes(m, [enemy])
    costs = terrain_costs(m)
    strict = reachable(m, start, 3, costs, enemy={enemy}, ezoc=ezoc,
                       zoc_stops=True, zoc_to_zoc=False)
    assert strict.cost(other) == 2
    detour = strict.path_to(other)
    assert len(detour) == 3 and detour[1] not in ezoc
    free = reachable(m, start, 3, costs, enemy={enemy}, ezoc=ezoc, zoc_stops=True)
    assert free.cost(other) == 1


def test_valor_may_pass_through_an_ezoc_hex_if_the_next_is_not_in_one() -> None:
    """Valor of Arms V.E / VI.A: a Marine unit may enter an EZOC hex and keep moving if the
    next hex is not in a Japanese ZOC, but never moves from EZOC hex to EZOC hex."""
    m = corridor()
    start = m.hex("0101")
    costs = terrain_costs(m)
    through = reachable(m, start, math.inf, costs, ezoc={m.hex("0103")},
                        zoc_stops=False, zoc_to_zoc=False)
    assert ids(m, through) == {"0102", "0103", "0104", "0105", "0106", "0107"}
    blocked = reachable(m, start, math.inf, costs, ezoc={m.hex("0103"), m.hex("0104")},
                        zoc_stops=False, zoc_to_zoc=False)
    assert ids(m, blocked) == {"0102", "0103"}


def test_friends_may_be_passed_but_not_overstacked() -> None:
    """Bonins 6.3a/6.3e: a unit moves through friendly-occupied hexes at no extra cost but
    may not end in a hex where it cannot stack."""
    m = corridor()
    full = m.hex("0102")
    reach = reachable(m, m.hex("0101"), 3, terrain_costs(m), can_end=lambda h: h != full)
    assert ids(m, reach) == {"0103", "0104"}
    assert reach.path_to(m.hex("0103")) == [m.hex("0101"), full, m.hex("0103")]
    assert reach.cost(m.hex("0104")) == 3


def test_must_stop_hexes_end_the_move() -> None:
    """Bonins 6.2g: a hex the rules say a unit stops in (a landing beach) ends its move when
    entered; a unit that begins there may leave it."""
    m = corridor()
    beach = m.hex("0103")
    reach = reachable(m, m.hex("0101"), 6, terrain_costs(m), must_stop={beach})
    assert ids(m, reach) == {"0102", "0103"}
    leaving = reachable(m, beach, 2, terrain_costs(m), must_stop={beach})
    assert ids(m, leaving) == {"0101", "0102", "0104", "0105"}


def test_one_hex_only_in_a_storm() -> None:
    """Bonins 5.1 (second movement, storm): the MA is one hex, whatever its MP."""
    m = make_map(terrain={"0403": "rough"})
    start = m.hex("0404")
    reach = reachable(m, start, 3, terrain_costs(m), max_hexes=1)
    assert set(reach) == set(m.neighbors(start))


def test_hex_limit_with_costs_keeps_the_cheapest_path_within_the_limit() -> None:
    """Valor of Arms V (HQ units move up to five hexes): with a hex limit, the cheapest path
    that fits the limit counts, even where a longer path would be cheaper."""
    m = make_map(terrain={"0403": "rough"})
    start = m.hex("0404")
    target = hex_neighbor(m.hex("0403"), N)  # two hexes straight up, through the rough hex
    costs = terrain_costs(m)
    assert reachable(m, start, 4, costs).cost(target) == 3  # round the rough hex
    limited = reachable(m, start, 4, costs, max_hexes=2)
    assert limited.cost(target) == 4
    assert limited.path_to(target) == [start, m.hex("0403"), target]
    assert target not in reachable(m, start, 3, costs, max_hexes=2)
    hq = reachable(m, start, math.inf, costs, max_hexes=5)
    assert set(hq) == {h for h in within(start, 5) if h in m} - {start}


def test_hex_limit_keeps_a_dearer_arrival_with_fewer_hexes() -> None:
    """With a hex limit, a hex reached cheaply by a long way round is also kept as reached
    dearly by a short way, so that the unit can go on from it within the limit."""
    m = make_map(sides=[("0404", "0403", ["wall"])])
    start, gate = m.hex("0404"), m.hex("0403")
    beyond = hex_neighbor(gate, N)  # two hexes straight up: only through the gate
    costs = terrain_costs(m, wall=2)
    reach = reachable(m, start, 4, costs, max_hexes=2)
    assert reach.cost(gate) == 2  # round the wall
    assert reach.cost(beyond) == 4
    assert reach.path_to(beyond) == [start, gate, beyond]


def test_minimum_move_of_one_hex() -> None:
    """The minimum-move option: a unit may always move one hex whatever the cost, spending
    all its MP, but never into a prohibited or enemy hex, and not with no MP at all."""
    m = make_map(terrain={"0403": "rough", "0405": "sea"})
    start = m.hex("0404")
    rough = m.hex("0403")
    costs = terrain_costs(m)
    assert rough not in reachable(m, start, 2, costs)
    reach = reachable(m, start, 2, costs, minimum_move=True,
                      enemy={hex_neighbor(start, NE)})
    assert reach.cost(rough) == 3
    assert reach.path_to(rough) == [start, rough]
    assert m.hex("0405") not in reach
    assert hex_neighbor(start, NE) not in reach
    assert hex_neighbor(rough, N) not in reach  # nothing beyond the minimum move
    assert len(reachable(m, start, 0, costs, minimum_move=True)) == 0


def test_unlimited_allowance_reaches_every_connected_hex() -> None:
    """Valor of Arms V: Marine units move any number of hexes (allowance infinity)."""
    m = make_map(terrain={"0403": "sea"})
    reach = reachable(m, m.hex("0101"), math.inf, terrain_costs(m))
    assert len(reach) == len(m) - 2


def test_paths_are_deterministic_and_ties_go_to_label_order() -> None:
    """Equally cheap paths of equal length resolve the same way every time, through the
    hex first in label order, whatever order the enemy and ZOC hexes are given in."""
    m = make_map()
    start = m.hex("0404")
    target = hex_neighbor(hex_neighbor(start, N), NE)  # two ways round: via N or via NE
    costs = terrain_costs(m)
    paths = {tuple(reachable(m, start, 5, costs).path_to(target)) for _ in range(3)}
    assert len(paths) == 1
    middle = next(iter(paths))[1]
    assert middle == min(hex_neighbor(start, N), hex_neighbor(start, NE), key=m.index)
    enemy = [m.hex("0101"), m.hex("0707"), m.hex("0206")]
    ezoc = sorted(adjacent_hexes(m, enemy))
    one = reachable(m, start, 6, costs, enemy=enemy, ezoc=ezoc)
    two = reachable(m, start, 6, costs, enemy=enemy[::-1], ezoc=set(ezoc[::-1]))
    assert one.costs == two.costs
    assert all(one.path_to(h) == two.path_to(h) for h in one)


def test_equal_cost_paths_prefer_fewer_hexes() -> None:
    """Of two equally cheap paths the one through fewer hexes is chosen, even when the longer
    one is found first (cheap hexes, then a dear hexside)."""
    m = make_map()
    start = m.hex("0404")
    short_mid = hex_neighbor(start, N)
    dest = hex_neighbor(short_mid, N)
    long_a = hex_neighbor(start, NE)
    long_b = hex_neighbor(long_a, N)  # adjacent to dest
    enter = {short_mid: 2.0, long_a: 0.5, long_b: 0.5, dest: 1.0}

    def cost(a: Hex, b: Hex) -> float:
        return enter.get(b, 5.0) + (1.0 if (a, b) == (long_b, dest) else 0.0)

    reach = reachable(m, start, 3, cost)
    assert reach.cost(dest) == 3
    assert reach.path_to(dest) == [start, short_mid, dest]


def test_unreachable_destination_and_off_map_start_are_clear_errors() -> None:
    """path_to() an unreachable hex is a MoveError naming it; an off-map start is refused."""
    m = corridor()
    reach = reachable(m, m.hex("0101"), 1, terrain_costs(m))
    with pytest.raises(MoveError, match="hex 0105 cannot be reached from 0101") as info:
        reach.path_to(m.hex("0105"))
    assert isinstance(info.value, TabletopError)
    with pytest.raises(MoveError, match="0101"):
        reach.cost(m.hex("0101"))
    with pytest.raises(InvalidHexError):
        reachable(m, Hex(9, 9), 1, terrain_costs(m))


def test_zone_of_control_is_the_six_surrounding_hexes() -> None:
    """Bonins 7.0: a unit's ZOC is the six hexes around it (fewer at the map edge)."""
    m = make_map()
    assert len(adjacent_hexes(m, [m.hex("0404")])) == 6
    assert adjacent_hexes(m, [m.hex("0101")]) == frozenset(m.neighbors(m.hex("0101")))
    assert adjacent_hexes(m, []) == frozenset()


# --- against an independent reference ---------------------------------------------------------

def reference_costs(m: HexMap, start: Hex, allowance: float,
                    step: Callable[[Hex, Hex], float | None], *, enemy: set[Hex],
                    ezoc: set[Hex], zoc_stops: bool, zoc_to_zoc: bool, must_stop: set[Hex],
                    can_end: set[Hex], max_hexes: int | None) -> dict[Hex, float]:
    """The cheapest cost to each end hex, by networkx Dijkstra or a layered search."""
    stops = must_stop | (ezoc if zoc_stops else set())

    def moves(a: Hex) -> list[tuple[Hex, float]]:
        if a != start and a in stops:
            return []
        out = []
        for b in m.neighbors(a):
            c = step(a, b)
            if c is None or b in enemy or (not zoc_to_zoc and a in ezoc and b in ezoc):
                continue
            out.append((b, c))
        return out

    best: dict[Hex, float] = {}
    if max_hexes is None:
        g: nx.DiGraph[Hex] = nx.DiGraph()
        g.add_node(start)
        for a in m:
            for b, c in moves(a):
                g.add_edge(a, b, w=c)
        best = dict(nx.single_source_dijkstra_path_length(g, start, cutoff=allowance,
                                                          weight="w"))
    else:
        layer: dict[Hex, float] = {start: 0}
        for _ in range(max_hexes):
            nxt: dict[Hex, float] = {}
            for a, ca in layer.items():
                for b, c in moves(a):
                    if ca + c <= allowance and ca + c < nxt.get(b, math.inf):
                        nxt[b] = ca + c
            for b, c in nxt.items():
                best[b] = min(best.get(b, math.inf), c)
            layer = nxt
    return {h: c for h, c in best.items() if h != start and h in can_end}


terrains = st.sampled_from(["clear", "clear", "broken", "rough", "sea"])


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """A random small map, unit positions and movement policy."""
    cols, rows = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    all_ids = [f"{c:02d}{r:02d}" for c in range(1, cols + 1) for r in range(1, rows + 1)]
    terrain = {hid: draw(terrains) for hid in all_ids}
    m0 = make_map((1, cols), (1, rows))
    side_ids = [(m0.label(a), m0.label(b)) for a in m0 for b in m0.neighbors(a) if a < b]
    sides = draw(st.lists(st.sampled_from(side_ids), max_size=6, unique=True)) if side_ids else []
    feats = [draw(st.sampled_from([["minor_river"], ["major_river"], ["contour"]]))
             for _ in sides]
    m = make_map((1, cols), (1, rows), terrain=terrain,
                 sides=[(a, b, f) for (a, b), f in zip(sides, feats, strict=True)])
    hexes = list(m)
    some = st.sets(st.sampled_from(hexes), max_size=len(hexes) // 2)
    return {
        "m": m,
        "start": draw(st.sampled_from(hexes)),
        "allowance": draw(st.sampled_from([0, 1, 2, 3, 5, 8, math.inf])),
        "enemy": draw(some), "ezoc": draw(some), "must_stop": draw(some),
        "can_end": set(hexes) - draw(some),
        "zoc_stops": draw(st.booleans()), "zoc_to_zoc": draw(st.booleans()),
        "max_hexes": draw(st.sampled_from([None, None, 0, 1, 2, 4])),
    }


def run(sc: dict[str, Any], cost: MoveCosts | StepMasks | Callable[[Hex, Hex], float | None], *,
        minimum_move: bool = False) -> Reach:
    """reachable() on a scenario."""
    return reachable(sc["m"], sc["start"], sc["allowance"], cost, enemy=sc["enemy"],
                     ezoc=sc["ezoc"], zoc_stops=sc["zoc_stops"], zoc_to_zoc=sc["zoc_to_zoc"],
                     must_stop=sc["must_stop"], can_end=sc["can_end"].__contains__,
                     max_hexes=sc["max_hexes"], minimum_move=minimum_move)


@given(scenarios())
def test_reach_matches_an_independent_reference(sc: dict[str, Any]) -> None:
    """Reachable hexes and their cheapest costs equal those of a plain graph search (networkx
    Dijkstra, or a layered search under a hex limit) over the same legal steps."""
    costs = terrain_costs(sc["m"], minor_river=1, major_river=None, contour=1)
    reach = run(sc, costs)
    expected = reference_costs(sc["m"], sc["start"], sc["allowance"], costs, **{
        k: sc[k] for k in ("enemy", "ezoc", "zoc_stops", "zoc_to_zoc", "must_stop",
                           "can_end", "max_hexes")})
    assert reach.costs == expected


@given(scenarios())
def test_costs_by_id_are_the_costs_by_printed_id_in_order(sc: dict[str, Any]) -> None:
    """Movement (a destination menu): ``costs_by_id`` gives each reachable hex's id with its
    cost, in the reach's own (id) order, with a hex limit (searched states) or without."""
    m = sc["m"]
    reach = run(sc, terrain_costs(m, minor_river=1, major_river=None, contour=1))
    by_id = reach.costs_by_id()
    assert list(by_id.items()) == [(m.label(h), c) for h, c in reach.costs.items()]
    assert list(by_id) == sorted(by_id)


@given(scenarios())
def test_every_path_is_legal_and_costs_what_it_says(sc: dict[str, Any]) -> None:
    """Each path runs from the start to its hex through adjacent hexes, never enters an
    enemy hex, stops nowhere it must stop before the end, moves EZOC to EZOC only when
    allowed, fits the hex limit, and its steps add up to the reported cost."""
    m, start = sc["m"], sc["start"]
    costs = terrain_costs(m, minor_river=1, major_river=None, contour=1)
    reach = run(sc, costs)
    stops = sc["must_stop"] | (sc["ezoc"] if sc["zoc_stops"] else set())
    for dest in reach:
        path = reach.path_to(dest)
        assert path[0] == start and path[-1] == dest
        steps = list(pairwise(path))
        total = 0.0
        for a, b in steps:
            step = costs(a, b)
            assert step is not None and b not in sc["enemy"]
            assert sc["zoc_to_zoc"] or not (a in sc["ezoc"] and b in sc["ezoc"])
            total += step
        assert not any(h in stops for h in path[1:-1] if h != start)
        assert sc["max_hexes"] is None or len(steps) <= sc["max_hexes"]
        assert total == reach.cost(dest) <= sc["allowance"]
        assert dest in sc["can_end"]


@given(scenarios())
def test_cost_function_and_cost_tables_agree(sc: dict[str, Any]) -> None:
    """The fast paths (MoveCosts tables, with and without a hex limit) and a plain cost
    function find the same hexes, costs and paths, with and without the minimum move."""
    costs = terrain_costs(sc["m"], minor_river=1, major_river=None, contour=1)
    for minimum_move in (False, True):
        fast = run(sc, costs, minimum_move=minimum_move)
        slow = run(sc, lambda a, b: costs(a, b), minimum_move=minimum_move)
        assert fast.costs == slow.costs
        assert list(fast) == list(slow)
        assert all(fast.path_to(h) == slow.path_to(h) for h in fast)


#: cost tables of every kind the fast search tells apart: whole ints, whole floats (both
#: searched on integer keys), halves and a mix of int and float steps (on tuples, unless the
#: map has no hexside of the float kind)
COST_KINDS: dict[str, tuple[dict[str, float], float]] = {
    "int": ({"clear": 1, "broken": 2, "rough": 3, "heavy": 3}, 1),
    "float": ({"clear": 1.0, "broken": 2.0, "rough": 3.0, "heavy": 3.0}, 1.0),
    "halves": ({"clear": 0.5, "broken": 1.5, "rough": 3, "heavy": 2.5}, 0.5),
    "mixed": ({"clear": 1, "broken": 2, "rough": 3, "heavy": 3}, 1.0),
}


@given(scenarios(), st.sampled_from(sorted(COST_KINDS)))
def test_every_kind_of_cost_table_searches_like_a_cost_function(sc: dict[str, Any], kind: str) -> None:
    """Movement search (the fast path's two queues): on whole-number costs (one integer key a
    state) and on any other costs (tuples), the tables find the same hexes, costs of the
    same type (int or float, as the steps add up) and paths as a plain cost function."""
    terrain, extra = COST_KINDS[kind]
    costs = MoveCosts.from_terrain(sc["m"], terrain,
                                   hexside={"minor_river": extra, "major_river": None, "contour": extra})
    if kind in ("int", "float"):
        assert costs.keyed_steps() is not None  # else a mix may still be whole on some maps
    for minimum_move in (False, True):
        fast = run(sc, costs, minimum_move=minimum_move)
        slow = run(sc, lambda a, b: costs(a, b), minimum_move=minimum_move)
        assert fast.costs == slow.costs
        assert [type(c) for c in fast.costs.values()] == [type(c) for c in slow.costs.values()]
        assert list(fast) == list(slow)
        assert all(fast.path_to(h) == slow.path_to(h) for h in fast)


@given(scenarios(), st.booleans())
def test_can_move_says_whether_the_reach_is_empty(sc: dict[str, Any], minimum_move: bool) -> None:
    """can_move answers exactly whether reachable finds a hex, by either cost form."""
    costs = terrain_costs(sc["m"], minor_river=1, major_river=None, contour=1)
    for cost in (costs, lambda a, b: costs(a, b)):
        reach = run(sc, cost, minimum_move=minimum_move)
        assert can_move(sc["m"], sc["start"], sc["allowance"], cost, enemy=sc["enemy"],
                        ezoc=sc["ezoc"], zoc_stops=sc["zoc_stops"], zoc_to_zoc=sc["zoc_to_zoc"],
                        must_stop=sc["must_stop"], can_end=sc["can_end"].__contains__,
                        max_hexes=sc["max_hexes"], minimum_move=minimum_move) == (len(reach) > 0)


def unit_masks(m: HexMap, costs: MoveCosts) -> StepMasks:
    """The steps a cost table allows, as step masks (every allowed step then costs one)."""
    return StepMasks(m, step_table(m, lambda a, b: costs(a, b) is not None))


@given(scenarios(), st.booleans())
def test_unit_step_masks_search_like_a_cost_function_of_one_a_step(sc: dict[str, Any],
                                                                    minimum_move: bool) -> None:
    """Movement search on step masks (every allowed step costs one hex, searched a layer of
    hexes at a time): the same hexes, costs, order and paths as the cost-ordered search
    with a cost function of one a step, under every rule (enemy hexes, zones of control
    and their policies, stopping hexes, a hex limit; where a unit may end and a minimum
    move by the cost-ordered search itself)."""
    costs = terrain_costs(sc["m"], minor_river=1, major_river=None, contour=1)
    masks = unit_masks(sc["m"], costs)
    ones = {**sc, "allowance": sc["allowance"] if sc["allowance"] < 4 else math.inf}
    for case in (ones, {**ones, "can_end": set(sc["m"])}):
        layered = run(case, masks, minimum_move=minimum_move)
        plain = run(case, lambda a, b: 1 if costs(a, b) is not None else None, minimum_move=minimum_move)
        assert layered.costs == plain.costs
        assert list(layered) == list(plain)
        assert all(layered.path_to(h) == plain.path_to(h) for h in layered)
        assert layered.costs_by_id() == plain.costs_by_id()


@given(scenarios(), st.booleans())
def test_first_steps_are_the_one_hex_moves_of_the_search(sc: dict[str, Any], minimum_move: bool) -> None:
    """first_steps lists, in direction order and by any cost form, the neighbours the search
    enters from the start with their step costs: what a one-hex move with no end rule
    reaches."""
    costs = terrain_costs(sc["m"], minor_river=1, major_river=None, contour=1)
    m, start = sc["m"], sc["start"]
    rules: dict[str, Any] = {k: sc[k] for k in ("enemy", "ezoc", "zoc_stops", "zoc_to_zoc", "must_stop",
                                                "max_hexes")}
    one_hex = 0 if sc["max_hexes"] == 0 else 1
    one = reachable(m, start, sc["allowance"], costs, **{**rules, "max_hexes": one_hex},
                    minimum_move=minimum_move)
    for cost in (costs, lambda a, b: costs(a, b)):
        steps = first_steps(m, start, sc["allowance"], cost, **rules, minimum_move=minimum_move)
        assert [h for h, _ in steps] == [h for h in m.neighbors(start) if h in one]
        assert all(c == costs(start, h) for h, c in steps)
    masks = unit_masks(m, costs)
    assert [h for h, _ in first_steps(m, start, sc["allowance"], masks, **rules)] == [
        h for h in m.neighbors(start) if h in run({**sc, "max_hexes": one_hex, "can_end": set(m)}, masks)]


@given(scenarios(), scenarios())
def test_kept_zone_tables_search_like_fresh_ones(sc: dict[str, Any], other: dict[str, Any]) -> None:
    """Movement search (the zone table kept by its frozensets or tuples): a search
    given its enemy hexes, zones of control and stopping hexes as frozensets or tuples, again
    and after a search on other zones of the same or another map, finds the same hexes,
    costs and paths as one given plain sets (never kept)."""
    costs = terrain_costs(sc["m"], minor_river=1, major_river=None, contour=1)
    other_costs = terrain_costs(other["m"], minor_river=1, major_river=None, contour=1)
    flipped = {**sc, "zoc_stops": not sc["zoc_stops"]}  # the same zones, the other policy
    moved = {**sc, "start": other["start"]} if other["m"] is sc["m"] else sc
    for kept in (frozenset, tuple, frozenset):
        for case, case_costs in ((sc, costs), (flipped, costs), (moved, costs), (other, other_costs)):
            fresh = run(case, case_costs)
            reach = run({**case, **{k: kept(case[k]) for k in ("enemy", "ezoc", "must_stop")}},
                        case_costs)
            assert reach.costs == fresh.costs
            assert all(reach.path_to(h) == fresh.path_to(h) for h in reach)



def test_kept_zone_tables_tell_the_zone_policy_and_the_zones_apart() -> None:
    """Movement search: zone tables kept by frozensets are kept by the stopping
    policy too, and a frozen set of other zones gets its own table, in either order."""
    m = corridor()
    costs = terrain_costs(m)
    zone = frozenset({m.hex("0103")})
    for first in (True, False):
        for zoc_stops in (first, not first):
            reach = reachable(m, m.hex("0101"), 10, costs, ezoc=zone, zoc_stops=zoc_stops)
            assert ids(m, reach) == ({"0102", "0103"} if zoc_stops else
                                     {"0102", "0103", "0104", "0105", "0106", "0107"})
    reach = reachable(m, m.hex("0101"), 10, costs, ezoc=frozenset({m.hex("0104")}))
    assert ids(m, reach) == {"0102", "0103", "0104"}
    reach = reachable(m, m.hex("0101"), 10, costs, enemy=zone, ezoc=frozenset({m.hex("0104")}))
    assert ids(m, reach) == {"0102"}
