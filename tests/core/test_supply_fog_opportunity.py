"""Tests of the generic capabilities core.supply (supply paths), core.fog (reveal by
distance), core.opportunity (fire during movement) and core.trackgroups (per-formation tracks)."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core.board.fog import hidden_near, reveal_all_near, reveal_near
from tabletop.core.board.hexgrid import Hex, distance, within
from tabletop.core.board.hexmap import HexMap
from tabletop.core.board.mapdata import HexMapSpec
from tabletop.core.board.movement import reachable
from tabletop.core.board.opportunity import FireRecord, firers_at, trigger_hexes
from tabletop.core.board.supply import (
    StepMasks,
    SupplySearch,
    reverse_steps,
    step_table,
    supplied,
    supplied_hexes,
    trace,
    trace_indexed,
)
from tabletop.core.engine.pieces import Piece, Pieces
from tabletop.core.engine.state import State
from tabletop.core.engine.trackgroups import create_family, family, shift, track_id, value


def small_map(sea: tuple[str, ...] = ()) -> HexMap:
    """A 7x7 map of clear ground, some hexes sea."""
    spec = HexMapSpec.model_validate({
        "name": "t", "columns": (1, 7), "rows": (1, 7), "default_terrain": "clear",
        "terrain_types": {"clear": {"name": "clear"}, "sea": {"name": "sea", "prohibited": True}},
        "hexes": {h: "sea" for h in sea},
    })
    return HexMap.from_spec(spec)


# -- supply -------------------------------------------------------------------------------

def test_supply_shortest_path_and_length_limit() -> None:
    """supply: the path is the shortest; a path longer than max_length does not supply."""
    m = small_map()
    a, b = m.hex("0101"), m.hex("0104")
    path = trace(m, a, [b], max_length=5)
    assert path is not None and path[0] == a and path[-1] == b and len(path) == 4
    assert trace(m, a, [b], max_length=2) is None
    assert trace(m, a, [a]) == [a]


def test_supply_blocked_hexes_and_enter_but_not_through() -> None:
    """supply: can_enter blocks hexes; can_leave makes a hex a dead end (may enter it, not pass)."""
    m = small_map()
    wall = {m.hex(f"02{r:02d}") for r in range(1, 8)}
    a, b = m.hex("0104"), m.hex("0304")
    assert trace(m, a, [b], can_enter=lambda x, y: y not in wall) is None
    # every route crosses column 02, and no path may pass through it ...
    assert not supplied(m, a, [b], can_leave=lambda h: h not in wall)
    assert supplied(m, a, [b])
    # ... but a source standing in column 02 may still be entered as the last hex.
    src = m.hex("0204")
    assert trace(m, a, [src], can_leave=lambda h: h not in wall) == [a, src]


def test_supply_costly_hexes_limited() -> None:
    """supply: at most costly_limit costly hexes may be entered."""
    m = small_map()
    col2 = {m.hex(f"02{r:02d}") for r in range(1, 8)}
    col3 = {m.hex(f"03{r:02d}") for r in range(1, 8)}
    a, b = m.hex("0104"), m.hex("0404")
    costly = col2 | col3
    assert trace(m, a, [b], costly=lambda h: h in costly, costly_limit=1) is None
    assert trace(m, a, [b], costly=lambda h: h in costly, costly_limit=2) is not None


def test_supply_costly_source_may_be_free() -> None:
    """supply: with costly_sources=False a costly source does not count toward the limit
    (the path ends in it and does not pass through it); the hexes between still do."""
    m = small_map()
    a, src = m.hex("0104"), m.hex("0304")
    costly = {m.hex(f"02{r:02d}") for r in range(1, 8)} | {src}  # column 02 walls 01 off
    assert trace(m, a, [src], costly=lambda h: h in costly, costly_limit=1) is None
    assert trace(m, a, [src], costly=lambda h: h in costly, costly_limit=1,
                 costly_sources=False) is not None
    assert trace(m, a, [src], costly=lambda h: h in costly, costly_limit=0,
                 costly_sources=False) is None


@settings(max_examples=30, deadline=None)
@given(st.sets(st.sampled_from([f"{c:02d}{r:02d}" for c in range(1, 8) for r in range(1, 8)]),
               max_size=15),
       st.integers(min_value=0, max_value=12))
def test_supply_agrees_with_graph_search(blocked: set[str], limit: int) -> None:
    """supply: with only blocked hexes and a length limit, trace agrees with networkx."""
    m = small_map()
    a, b = m.hex("0101"), m.hex("0707")
    bad = {m.hex(x) for x in blocked} - {a, b}
    g: nx.Graph[Hex] = nx.Graph()
    for h in m:
        if h in bad:
            continue
        g.add_node(h)
        for n in m.neighbors(h):
            if n not in bad:
                g.add_edge(h, n)
    try:
        best: float | None = nx.shortest_path_length(g, a, b)
    except nx.NetworkXNoPath:
        best = None
    path = trace(m, a, [b], max_length=limit, can_enter=lambda x, y: y not in bad)
    if best is None or best > limit:
        assert path is None
    else:
        assert path is not None and len(path) - 1 == best


_LABELS = [f"{c:02d}{r:02d}" for c in range(1, 8) for r in range(1, 8)]


@settings(max_examples=150, deadline=None)
@given(st.sets(st.sampled_from(_LABELS), max_size=8),  # sea
       st.sets(st.tuples(st.sampled_from(_LABELS), st.integers(0, 5)), max_size=25),  # walls
       st.sets(st.sampled_from(_LABELS), max_size=12),  # blocked
       st.sets(st.sampled_from(_LABELS), max_size=12),  # dead ends
       st.sets(st.sampled_from(_LABELS), max_size=15),  # costly
       st.sampled_from(_LABELS), st.sets(st.sampled_from(_LABELS), min_size=1, max_size=3),
       st.integers(0, 2), st.one_of(st.none(), st.integers(0, 12)), st.booleans())
def test_supply_compiled_rules_find_the_same_path(
        sea: set[str], walls: set[tuple[str, int]], blocked: set[str], dead: set[str],
        costly: set[str], start: str, sources: set[str], costly_limit: int,
        max_length: int | None, costly_sources: bool) -> None:
    """supply: trace_indexed on a step table and index sets returns exactly the path (or
    None) trace returns with the equivalent predicates, whether a costly source counts; the
    searches of every hex at once (supplied_hexes, StepMasks.supplied, SupplySearch asked
    hex by hex) find exactly the starts it finds a path from."""
    m = small_map(tuple(sea))
    hexes = m.hexes()
    walled = {frozenset((m.hex(a), n)) for a, k in walls for n in m.neighbors(m.hex(a))[k:k + 1]}

    def can_step(a: Hex, b: Hex) -> bool:
        return frozenset((a, b)) not in walled and not m.is_prohibited(b)

    steps = step_table(m, can_step)
    idx = {x: m.index(m.hex(x)) for x in _LABELS}
    bad, ends, dear = ({idx[x] for x in group} for group in (blocked, dead, costly))
    src = [m.hex(x) for x in sorted(sources)]
    expected = trace(m, m.hex(start), src, max_length=max_length,
                     can_enter=lambda a, b: can_step(a, b) and m.index(b) not in bad,
                     can_leave=lambda h: m.index(h) not in ends,
                     costly=lambda h: m.index(h) in dear, costly_limit=costly_limit,
                     costly_sources=costly_sources)
    got = trace_indexed(m, m.hex(start), src, steps=steps, blocked=bad, dead_ends=ends,
                        costly=dear, costly_limit=costly_limit, max_length=max_length,
                        costly_sources=costly_sources)
    assert got == expected
    assert all(h in hexes for h in got or ())
    # and supplied_hexes, searching back from the sources, finds every start trace finds
    every = supplied_hexes(m, src, into=reverse_steps(steps), blocked=bad, dead_ends=ends,
                           costly=dear, costly_limit=costly_limit, max_length=max_length,
                           costly_sources=costly_sources)
    for h in hexes:
        path = trace_indexed(m, h, src, steps=steps, blocked=bad, dead_ends=ends, costly=dear,
                             costly_limit=costly_limit, max_length=max_length,
                             costly_sources=costly_sources)
        assert (m.index(h) in every) == (path is not None), m.label(h)
    # and StepMasks.supplied, the same search on bit masks, finds exactly the same hexes
    masks = StepMasks(m, steps)
    got_bits = masks.supplied(sorted(m.index(h) for h in src), blocked=masks.bits(bad),
                              dead_ends=masks.bits(ends), costly=masks.bits(dear),
                              costly_limit=costly_limit, max_length=max_length,
                              costly_sources=costly_sources)
    assert got_bits.to_set() == every
    assert len(got_bits) == len(every)
    assert all((i in got_bits) == (i in every) for i in range(len(hexes)))
    # and a SupplySearch kept between questions, each made only as far as it needs, answers
    # every hex as the whole search does, the farthest asked first or last
    for order in (range(len(hexes)), reversed(range(len(hexes)))):
        search = SupplySearch(masks, sorted(m.index(h) for h in src), blocked=masks.bits(bad),
                              dead_ends=masks.bits(ends), costly=masks.bits(dear),
                              costly_limit=costly_limit, max_length=max_length,
                              costly_sources=costly_sources)
        for i in order:
            assert search.reaches(masks.bits([i])) == (i in every), m.label(hexes[i])
        assert search.finish() == got_bits.bits


# -- fog of war ---------------------------------------------------------------------------

def test_fog_reveal_within_radius_is_permanent_and_side_aware() -> None:
    """fog: hidden enemy pieces within the radius turn face-up; own and far ones stay as they are."""
    m = small_map()
    reg = Pieces([Piece("near", "inf", "J", location="0103", hidden=True),
                  Piece("far", "inf", "J", location="0107", hidden=True),
                  Piece("mine", "inf", "M", location="0102", hidden=True)])
    where = m.hex("0101")
    assert [p.id for p in hidden_near(reg, m, where, 2, observer="M")] == ["near"]
    assert [p.id for p in reveal_near(reg, m, where, 2, observer="M")] == ["near"]
    assert not reg["near"].hidden and reg["far"].hidden and reg["mine"].hidden
    assert reveal_near(reg, m, where, 2, observer="M") == []  # already face-up
    assert [p.id for p in reveal_all_near(reg, m, [m.hex("0106")], 1, observer="M")] == ["far"]


# -- opportunity fire ---------------------------------------------------------------------

def test_opportunity_trigger_zone_stops_movement_once_per_watcher() -> None:
    """opportunity fire: a move ends at the first hex within range of a watcher that has not
    fired; firers are listed nearest first; a watcher that fired no longer stops the mover."""
    m = small_map()
    watchers = {"w1": m.hex("0405"), "w2": m.hex("0605")}
    zone = trigger_hexes(m, watchers, 2)
    assert zone == frozenset(h for w in watchers.values() for h in within(w, 2) if h in m)
    start = m.hex("0101")
    reach = reachable(m, start, float("inf"), lambda a, b: 1, must_stop=zone)
    for h in reach:
        path = reach.path_to(h)
        assert all(x not in zone for x in path[1:-1])  # nobody passes through fire
    assert firers_at(watchers, m.hex("0505"), 2) == ["w1", "w2"]
    record = FireRecord({})
    record.record("w1", "m")
    assert record.has_fired("w1", "m") and not record.has_fired("w2", "m")
    assert firers_at(watchers, m.hex("0505"), 2, exclude=record.fired_at("m")) == ["w2"]
    assert trigger_hexes(m, watchers, 2, exclude=["w1", "w2"]) == frozenset()
    record.clear()
    assert record.fired_at("m") == []


def test_opportunity_fire_distance() -> None:
    """opportunity fire: a watcher fires only within its radius."""
    m = small_map()
    w = {"w": m.hex("0404")}
    for h in m:
        assert (firers_at(w, h, 2) == ["w"]) == (distance(h, Hex(*w["w"])) <= 2)


# -- per-formation tracks -------------------------------------------------------------------

def test_trackgroups_family_of_tracks() -> None:
    """per-regiment tracks: one bounded track per key, read and moved by key, in the state."""
    state = State()
    create_family(state, "fatigue", ["23", "24"], 0, 0, 9, section="IV.D")
    assert set(family(state, "fatigue")) == {"23", "24"}
    assert shift(state, "fatigue", "23", 12) == 9 and value(state, "fatigue", "24") == 0
    assert shift(state, "fatigue", "23", -20) == 0
    assert track_id("fatigue", "23") in state.to_json()["tracks"]
