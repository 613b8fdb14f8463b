"""Speed of the hex core on a 40x35 map: distance, line of fire and 16-MP reachability
(by cost tables, a cost function, and on bit masks where every step costs one hex).

Run by hand (``python benchmarks/bench_hex.py``); it prints figures and asserts nothing.
Times are CPU time of this process, so other work on the machine moves them less.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from tabletop.core.board.hexgrid import Hex, distance, line
from tabletop.core.board.hexmap import HexMap
from tabletop.core.board.mapdata import FeatureType, HexMapSpec, HexsideSpec, HexSpec, TerrainType
from tabletop.core.board.movement import MoveCosts, adjacent_hexes, reachable
from tabletop.core.board.supply import StepMasks, step_table

COLUMNS, ROWS = 40, 35
ALLOWANCE = 16
TERRAIN_COST = {"clear": 1, "broken": 2, "rough": 3}


def build_map(rng: random.Random, *, clear: bool = False) -> HexMap:
    """A 40x35 map of mixed terrain (costs 1-3), a few sea hexes and river hexsides; or, with
    ``clear``, every hex clear and no river (the widest search a 16-MP unit can make)."""
    terrain: dict[str, HexSpec | str] = {}
    for col in range(1, COLUMNS + 1):
        for row in range(1, ROWS + 1):
            if clear:
                continue
            roll = rng.random()
            kind = ("sea" if roll < 0.03 else "rough" if roll < 0.25
                    else "broken" if roll < 0.55 else "clear")
            if kind != "clear":
                terrain[f"{col:02d}{row:02d}"] = kind
    sides = []
    for row in range(1, ROWS + 1 if not clear else 1):  # a river down the middle of the map
        sides.append(HexsideSpec(between=(f"20{row:02d}", f"21{row:02d}"), features=("river",)))
    spec = HexMapSpec(
        name="bench", columns=(1, COLUMNS), rows=(1, ROWS), shifted="odd",
        default_terrain="clear",
        terrain_types={name: TerrainType(name=name) for name in TERRAIN_COST}
        | {"sea": TerrainType(name="sea", prohibited=True)},
        hexside_types={"river": FeatureType(name="river")},
        hexes=terrain, hexsides=tuple(sides))
    return HexMap.from_spec(spec, source="bench")


def per_call(fn: Callable[[], object], calls: int) -> float:
    """Seconds per call of fn, best of three runs of ``calls`` calls."""
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - t0) / calls)
    return best


def zoc_searches(rng: random.Random, hexmap: HexMap,
                 cost: MoveCosts | StepMasks) -> tuple[list[float], list[int]]:
    """CPU seconds and hexes reached of 300 16-MP searches from random starts, each among 30
    enemy units (never entered) and their zones of control (stop on entry, no ZOC to ZOC)."""
    hexes = list(hexmap.hexes())
    times: list[float] = []
    sizes: list[int] = []
    for start in rng.sample(hexes, 300):
        enemy = {h for h in rng.sample(hexes, 30) if h != start}
        ezoc = adjacent_hexes(hexmap, enemy)
        t0 = time.process_time()
        reach = reachable(hexmap, start, ALLOWANCE, cost, enemy=enemy, ezoc=ezoc,
                          zoc_stops=True, zoc_to_zoc=False)
        times.append(time.process_time() - t0)
        sizes.append(len(reach))
    return times, sizes


def main() -> None:
    """Time the three operations and print the figures."""
    rng = random.Random(1945)
    hexmap = build_map(rng)
    hexes = [h for h in hexmap.hexes() if not hexmap.is_prohibited(h)]

    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(1000)]

    def distances() -> None:
        for a, b in pairs:
            distance(a, b)

    def empty() -> None:
        for _a, _b in pairs:
            pass

    ns = (per_call(distances, 200) - per_call(empty, 200)) / len(pairs) * 1e9
    print(f"hex distance:                     {ns:8.0f} ns/call (loop overhead taken off)")

    a = hexmap.hex("0510")
    b = Hex(a.q + 20, a.r - 10)  # 20 hexes away
    assert distance(a, b) == 20
    us = per_call(lambda: line(a, b), 2000) * 1e6
    print(f"line of 20 hexes (both nudges):   {us:8.1f} µs")

    costs = MoveCosts.from_terrain(hexmap, TERRAIN_COST, hexside={"river": 1})
    costs.steps()  # the step table is built on a MoveCosts' first search, once
    starts = rng.sample(hexes, 300)
    sizes: list[int] = []
    times: list[float] = []
    for start in starts:
        # Some enemy units scattered around, their zones of control around them.
        enemy = {h for h in rng.sample(hexes, 30) if h != start}
        ezoc = adjacent_hexes(hexmap, enemy)
        t0 = time.process_time()
        reach = reachable(hexmap, start, ALLOWANCE, costs, enemy=enemy, ezoc=ezoc,
                          zoc_stops=True, zoc_to_zoc=False)
        times.append(time.process_time() - t0)
        sizes.append(len(reach))
    print(f"reachability, 16 MP, MoveCosts:   {statistics.mean(times) * 1e3:8.3f} ms mean, "
          f"{max(times) * 1e3:.3f} ms worst, {statistics.mean(sizes):.0f} hexes reached "
          f"on average ({len(starts)} starts)")

    times = []
    open_sizes: list[int] = []
    for start in starts:
        t0 = time.process_time()
        reach = reachable(hexmap, start, ALLOWANCE, costs)
        times.append(time.process_time() - t0)
        open_sizes.append(len(reach))
    print(f"reachability, 16 MP, no ZOC:      {statistics.mean(times) * 1e3:8.3f} ms mean, "
          f"{max(times) * 1e3:.3f} ms worst, {statistics.mean(open_sizes):.0f} hexes reached")

    times = []
    for start in starts[:100]:
        enemy = {h for h in rng.sample(hexes, 30) if h != start}
        ezoc = adjacent_hexes(hexmap, enemy)
        t0 = time.process_time()
        reachable(hexmap, start, ALLOWANCE, costs.__call__, enemy=enemy, ezoc=ezoc,
                  zoc_stops=True, zoc_to_zoc=False)
        times.append(time.process_time() - t0)
    print(f"reachability, 16 MP, cost fn:     {statistics.mean(times) * 1e3:8.3f} ms mean "
          f"(the same costs through a Python callable)")

    clear_map = build_map(rng, clear=True)
    clear_costs = MoveCosts.from_terrain(clear_map, TERRAIN_COST)
    clear_costs.steps()  # the step table is built on a MoveCosts' first search, once
    times, clear_sizes = zoc_searches(rng, clear_map, clear_costs)
    print(f"reachability, 16 MP, all clear:   {statistics.mean(times) * 1e3:8.3f} ms mean, "
          f"{max(times) * 1e3:.3f} ms worst, {statistics.mean(clear_sizes):.0f} hexes reached "
          f"(30 enemy units and their ZOCs; goal < 1 ms)")

    times = []
    for start in starts[:100]:
        t0 = time.process_time()
        reachable(hexmap, start, ALLOWANCE, costs, max_hexes=5)
        times.append(time.process_time() - t0)
    print(f"reachability, 16 MP, max 5 hexes: {statistics.mean(times) * 1e3:8.3f} ms mean")

    # Every step of the clear map costs one: searches like "all clear" (other starts and
    # enemy units), a layer of hexes at a time on bit masks (the Hex sets made bits on each
    # call, as reachable does).
    masks = StepMasks(clear_map, step_table(clear_map, lambda a, b: clear_costs(a, b) is not None))
    times, unit_sizes = zoc_searches(rng, clear_map, masks)
    print(f"reachability, 16 hexes, bit masks: {statistics.mean(times) * 1e3:7.3f} ms mean, "
          f"{max(times) * 1e3:.3f} ms worst, {statistics.mean(unit_sizes):.0f} hexes reached "
          f"(the clear map, every step one hex: StepMasks)")


if __name__ == "__main__":
    main()
