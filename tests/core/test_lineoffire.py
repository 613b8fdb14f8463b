"""Line of fire (core.lineoffire): the rules every hex game shares, as properties and examples."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.board.hexgrid import Hex, distance, line
from tabletop.core.board.lineoffire import trace

coords = st.integers(min_value=-12, max_value=12)
hexes = st.builds(Hex, coords, coords)
blockers = st.frozensets(hexes, max_size=40)
alongs = st.sampled_from(["both", "either"])


def _blocks(cells: frozenset[Hex]) -> Callable[[Hex], bool]:
    return lambda h: h in cells


@given(hexes, hexes, alongs)
def test_clear_board_never_blocks(a: Hex, b: Hex, along: str) -> None:
    """LOF: with no blocking terrain and no hexside features every line is clear."""
    assert trace(a, b, blocks_hex=lambda h: False, along=along).clear  # type: ignore[arg-type]


@given(hexes, st.integers(min_value=0, max_value=5), blockers, alongs)
def test_adjacent_hexes_never_blocked(a: Hex, d: int, cells: frozenset[Hex], along: str) -> None:
    """LOF (Manila 10.7): a unit may always fire into a hex immediately adjacent to it."""
    from tabletop.core.board.hexgrid import hex_neighbor

    b = hex_neighbor(a, d)
    assert trace(a, b, blocks_hex=lambda h: True, along=along).clear  # type: ignore[arg-type]
    assert trace(a, b, blocks_hex=_blocks(cells), along=along).clear  # type: ignore[arg-type]


@given(hexes, hexes, blockers, alongs)
def test_symmetric_for_in_hex_blocking(a: Hex, b: Hex, cells: frozenset[Hex], along: str) -> None:
    """LOF: in-hex blocking is symmetric — A sees B exactly when B sees A, under either
    convention for lines along a hexside."""
    there = trace(a, b, blocks_hex=_blocks(cells), along=along).clear  # type: ignore[arg-type]
    back = trace(b, a, blocks_hex=_blocks(cells), along=along).clear  # type: ignore[arg-type]
    assert there == back


@given(hexes, hexes)
def test_line_hexes_contiguous(a: Hex, b: Hex) -> None:
    """LOF: the line's hexes are contiguous — every hex of a step touches one of the step before,
    there is one step per hex of range, and both hexes of a two-hex step are adjacent."""
    steps = line(a, b)
    assert len(steps) == distance(a, b) + 1
    assert steps[0] == (a,) and steps[-1] == (b,)
    for prev, cur in itertools.pairwise(steps):
        for h in cur:
            assert any(distance(p, h) == 1 for p in prev)
        if len(cur) == 2:
            assert distance(*cur) == 1


@given(hexes, hexes, blockers, alongs)
def test_endpoints_never_block(a: Hex, b: Hex, cells: frozenset[Hex], along: str) -> None:
    """LOF (Manila 10.7): terrain in the firing or target hex never blocks."""
    inner = frozenset(cells) - {a, b}
    with_ends = inner | {a, b}
    got = trace(a, b, blocks_hex=_blocks(inner), along=along).clear  # type: ignore[arg-type]
    assert trace(a, b, blocks_hex=_blocks(with_ends), along=along).clear == got  # type: ignore[arg-type]


@given(hexes, hexes, blockers)
def test_either_is_stricter_than_both(a: Hex, b: Hex, cells: frozenset[Hex]) -> None:
    """LOF: a line clear under the 'either' convention is clear under 'both'."""
    if trace(a, b, blocks_hex=_blocks(cells), along="either").clear:
        assert trace(a, b, blocks_hex=_blocks(cells), along="both").clear


def test_single_blocker_blocks_a_straight_line() -> None:
    """LOF (Manila 10.8): a blocking hex between two hexes of a column blocks."""
    a, mid, b = Hex(0, 0), Hex(0, 1), Hex(0, 2)
    assert not trace(a, b, blocks_hex=lambda h: h == mid).clear
    assert trace(a, b, blocks_hex=lambda h: h == Hex(5, 5)).clear


def test_along_hexside_conventions() -> None:
    """LOF: a line exactly along a hexside (from (0,0) to (1,-2)) passes between (0,-1) and
    (1,-1): 'both' blocks only if both block, 'either' if one does."""
    a, b = Hex(0, 0), Hex(1, -2)
    steps = line(a, b)
    assert steps[1] == (Hex(0, -1), Hex(1, -1))
    one = lambda h: h == Hex(0, -1)  # noqa: E731
    two = lambda h: h in (Hex(0, -1), Hex(1, -1))  # noqa: E731
    assert trace(a, b, blocks_hex=one, along="both").clear
    assert not trace(a, b, blocks_hex=one, along="either").clear
    assert not trace(a, b, blocks_hex=two, along="both").clear


def test_stopping_hexside_lets_fire_only_into_the_next_hex() -> None:
    """LOF (Manila 10.9): a wall hexside may be fired through, but the line stops in the hex
    immediately across it, from whichever side."""
    wall = {frozenset({Hex(0, 1), Hex(0, 2)})}

    def stops(x: Hex, y: Hex) -> bool:
        return frozenset({x, y}) in wall

    never = lambda h: False  # noqa: E731
    assert trace(Hex(0, 0), Hex(0, 2), blocks_hex=never, stops_side=stops).clear
    assert not trace(Hex(0, 0), Hex(0, 3), blocks_hex=never, stops_side=stops).clear
    assert trace(Hex(0, 3), Hex(0, 1), blocks_hex=never, stops_side=stops).clear
    assert not trace(Hex(0, 3), Hex(0, 0), blocks_hex=never, stops_side=stops).clear
    assert trace(Hex(0, 1), Hex(0, 2), blocks_hex=never, stops_side=stops).clear


def test_blocking_hexside_blocks_even_adjacent_fire() -> None:
    """LOF: a hexside that blocks outright blocks adjacent fire too."""
    a, b = Hex(0, 0), Hex(0, 1)
    assert not trace(a, b, blocks_hex=lambda h: False, blocks_side=lambda x, y: True).clear
