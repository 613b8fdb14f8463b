"""Tests of core.hexgrid: axial hexes, distance, rings, lines, hexsides and the printed grid."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.board.hexgrid import (
    DIRECTION_NAMES,
    DIRECTIONS,
    Hex,
    HexGrid,
    HexSide,
    InvalidHexError,
    direction_to,
    distance,
    hex_add,
    hex_neighbor,
    hex_scale,
    hex_subtract,
    hexsides,
    is_adjacent,
    line,
    line_hexes,
    neighbors,
    ring,
    within,
)
from tabletop.core.engine.errors import TabletopError

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coords, coords)
shifts = st.sampled_from(["odd", "even"])
radii = st.integers(min_value=0, max_value=12)


FULL = {shift: HexGrid((0, 99), (0, 99), shift) for shift in ("odd", "even")}  # every id


def manila(shifted: str) -> HexGrid:
    """A grid the size of a large folio map; Manila '45's printed shift is not known."""
    return HexGrid((1, 45), (1, 35), shifted)  # type: ignore[arg-type]


# --- Hex and its arithmetic ----------------------------------------------------------------

def test_hex_cube_coordinate_and_from_cube() -> None:
    """A hex's s is -q-r, and from_cube accepts exactly the cube triples that sum to zero."""
    h = Hex(3, -5)
    assert h.s == 2
    assert Hex.from_cube(3, -5, 2) == h
    with pytest.raises(ValueError, match="sum to zero"):
        Hex.from_cube(1, 1, 1)


def test_hex_arithmetic_is_vector_arithmetic_not_tuple_concatenation() -> None:
    """hex_add, hex_subtract and hex_scale work on coordinates (tuple + would concatenate)."""
    a, b = Hex(2, -1), Hex(-3, 4)
    assert hex_add(a, b) == Hex(-1, 3)
    assert hex_subtract(a, b) == Hex(5, -5)
    assert hex_scale(b, 3) == Hex(-9, 12)
    assert len(hex_add(a, b)) == 2


def test_directions_are_six_unit_steps_with_opposites_three_apart() -> None:
    """DIRECTIONS holds six distinct neighbours; direction d+3 is the opposite of d."""
    assert len(set(DIRECTIONS)) == 6
    assert len(DIRECTION_NAMES) == 6
    for d, off in enumerate(DIRECTIONS):
        assert distance(Hex(0, 0), off) == 1
        assert hex_add(off, DIRECTIONS[(d + 3) % 6]) == Hex(0, 0)
    assert DIRECTIONS[0] == Hex(0, -1)  # north is straight up the column


@pytest.mark.parametrize("shifted", ["odd", "even"])
def test_direction_names_match_the_drawn_layout(shifted: str) -> None:
    """Each named direction points where its name says on the drawn (flat-top) map."""
    grid = manila(shifted)
    h = grid.parse("1010")
    x0, y0 = grid.center(h, 10.0)
    expected = {"N": 90.0, "NE": 30.0, "SE": -30.0, "S": -90.0, "SW": -150.0, "NW": 150.0}
    for d, name in enumerate(DIRECTION_NAMES):
        x, y = grid.center(hex_neighbor(h, d), 10.0)
        angle = math.degrees(math.atan2(y0 - y, x - x0))  # screen y grows downward
        assert angle == pytest.approx(expected[name]), name


def test_direction_to_names_the_step_and_rejects_non_neighbours() -> None:
    """direction_to gives the DIRECTIONS index of a neighbour and ValueError otherwise."""
    h = Hex(4, 7)
    for d in range(6):
        assert direction_to(h, hex_neighbor(h, d)) == d
    with pytest.raises(ValueError, match="not adjacent"):
        direction_to(h, Hex(6, 7))


# --- distance, rings, areas -------------------------------------------------------------------

@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    """Distance is zero only from a hex to itself, symmetric, and obeys the triangle law."""
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, hexes)
def test_distance_is_the_largest_cube_difference(a: Hex, b: Hex) -> None:
    """Distance equals max(|dq|, |dr|, |ds|), the textbook cube formula."""
    assert distance(a, b) == max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


@given(hexes)
def test_neighbours_are_the_six_hexes_at_distance_one(h: Hex) -> None:
    """neighbors() gives six distinct hexes, each at distance one, in DIRECTIONS order."""
    ns = neighbors(h)
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 and is_adjacent(h, n) for n in ns)
    assert ns == [hex_neighbor(h, d) for d in range(6)]


@given(hexes, radii)
def test_ring_has_six_r_hexes_all_at_distance_r_in_a_closed_loop(h: Hex, r: int) -> None:
    """A ring of radius r holds 6r distinct hexes (1 for r=0), each at distance r, each
    adjacent to the next, starting due north and running clockwise."""
    hs = ring(h, r)
    assert len(hs) == len(set(hs)) == (6 * r if r else 1)
    assert all(distance(h, x) == r for x in hs)
    if r:
        assert hs[0] == hex_add(h, hex_scale(DIRECTIONS[0], r))
        for x, y in zip(hs, hs[1:] + hs[:1], strict=True):
            assert is_adjacent(x, y)
    if r >= 1:
        assert ring(h, r)[1] == hex_add(hs[0], DIRECTIONS[2])  # clockwise: first step SE


@given(hexes, radii)
def test_within_is_the_union_of_rings(h: Hex, r: int) -> None:
    """within(h, r) holds the 3r(r+1)+1 hexes of rings 0..r, sorted by (q, r)."""
    area = within(h, r)
    assert len(area) == 3 * r * (r + 1) + 1
    assert set(area) == {x for k in range(r + 1) for x in ring(h, k)}
    assert area == sorted(area)


def test_negative_radius_is_refused() -> None:
    """A ring or area of negative radius is an error, not an empty list."""
    with pytest.raises(ValueError):
        ring(Hex(0, 0), -1)
    with pytest.raises(ValueError):
        within(Hex(0, 0), -1)


# --- lines of fire ----------------------------------------------------------------------------

@given(hexes, hexes)
def test_line_runs_from_a_to_b_in_distance_plus_one_contiguous_steps(a: Hex, b: Hex) -> None:
    """line() starts at a, ends at b, has distance+1 steps; step i is i hexes from a and
    every hex of a step touches a hex of the step before."""
    steps = line(a, b)
    n = distance(a, b)
    assert len(steps) == n + 1
    assert steps[0] == (a,) and steps[-1] == (b,)
    for i, step in enumerate(steps):
        assert 1 <= len(step) <= 2
        assert all(distance(a, x) == i and distance(x, b) == n - i for x in step)
        if i:
            assert all(any(is_adjacent(x, y) for y in steps[i - 1]) for x in step)


@given(hexes, hexes)
def test_line_hexes_is_one_contiguous_line_from_a_to_b(a: Hex, b: Hex) -> None:
    """line_hexes() has distance+1 hexes from a to b, consecutive ones adjacent."""
    hs = line_hexes(a, b)
    assert len(hs) == distance(a, b) + 1
    assert hs[0] == a and hs[-1] == b
    assert all(is_adjacent(x, y) for x, y in pairwise(hs))
    assert all(h in step for h, step in zip(hs, line(a, b), strict=True))


@given(hexes, hexes)
def test_line_is_the_same_in_both_directions(a: Hex, b: Hex) -> None:
    """The line from b to a crosses the same hexes as from a to b, step for step."""
    assert line(b, a) == line(a, b)[::-1]


def test_line_along_a_hexside_holds_both_hexes() -> None:
    """Manila '45 10.7: a line of fire that runs exactly along a hexside touches both hexes,
    so the step holds both and the game decides; a straight column line holds one each."""
    a = Hex(0, 0)
    assert line(a, Hex(2, -1)) == [(a,), (Hex(1, -1), Hex(1, 0)), (Hex(2, -1),)]
    assert [len(s) for s in line(a, Hex(6, -3))] == [1, 2, 1, 2, 1, 2, 1]
    assert all(len(s) == 1 for s in line(a, Hex(0, 5)))
    assert line(a, a) == [(a,)]


# --- hexsides ---------------------------------------------------------------------------------

@given(hexes, st.integers(min_value=0, max_value=5))
def test_hexside_is_the_same_key_from_either_side(h: Hex, d: int) -> None:
    """HexSide(x, y) == HexSide(y, x) == HexSide.of(x, y), stored with a < b."""
    n = hex_neighbor(h, d)
    side = HexSide(h, n)
    assert side == HexSide(n, h) == HexSide.of(n, h)
    assert hash(side) == hash(HexSide.of(h, n))
    assert side.a < side.b
    assert side.other(h) == n and side.other(n) == h


def test_hexside_of_non_adjacent_hexes_is_refused() -> None:
    """Two hexes that are not neighbours (or the same hex) share no hexside."""
    with pytest.raises(ValueError, match="not adjacent"):
        HexSide.of(Hex(0, 0), Hex(2, 0))
    with pytest.raises(ValueError, match="not adjacent"):
        HexSide(Hex(0, 0), Hex(0, 0))
    with pytest.raises(ValueError):
        HexSide(Hex(0, 0), Hex(1, 0)).other(Hex(5, 5))


def test_a_hex_has_six_distinct_hexsides() -> None:
    """hexsides(h) gives the six sides of h, each shared with one neighbour."""
    h = Hex(2, 3)
    sides = hexsides(h)
    assert len(set(sides)) == 6
    assert [s.other(h) for s in sides] == neighbors(h)


# --- the printed grid ------------------------------------------------------------------------

@pytest.mark.parametrize("shifted", ["odd", "even"])
def test_manila_range_counts_the_target_hex_but_not_the_firer(shifted: str) -> None:
    """Manila '45 10.6: a unit in 2202 firing at 2206 fires at a range of four hexes."""
    grid = manila(shifted)
    assert distance(grid.parse("2202"), grid.parse("2206")) == 4


@pytest.mark.parametrize("shifted", ["odd", "even"])
def test_manila_fga_opposite_hexes_of_3228(shifted: str) -> None:
    """Manila '45 10.22: 3227 and 3229 are adjacent to 3228 and directly opposite each other."""
    grid = manila(shifted)
    centre, above, below = grid.parse("3228"), grid.parse("3227"), grid.parse("3229")
    d_above, d_below = direction_to(centre, above), direction_to(centre, below)
    assert (d_above + 3) % 6 == d_below
    assert hex_add(hex_subtract(above, centre), hex_subtract(below, centre)) == Hex(0, 0)


def test_shifted_columns_meet_their_neighbours_half_a_row_lower() -> None:
    """A hex of a shifted column touches rows n and n+1 of the next column; a hex of an
    unshifted column touches rows n-1 and n (the printed offset layout)."""
    odd = manila("odd")  # column 11 shifted down, column 10 not
    assert odd.neighbors(odd.parse("1105")) == [odd.parse(x) for x in
                                                ("1104", "1205", "1206", "1106", "1006", "1005")]
    assert odd.neighbors(odd.parse("1005")) == [odd.parse(x) for x in
                                                ("1004", "1104", "1105", "1006", "0905", "0904")]
    even = manila("even")  # column 10 shifted down, column 11 not
    assert even.neighbors(even.parse("1005")) == [even.parse(x) for x in
                                                  ("1004", "1105", "1106", "1006", "0906",
                                                   "0905")]


@given(shifts, st.integers(0, 99), st.integers(0, 99))
def test_printed_id_round_trips_through_the_hex(shifted: str, col: int, row: int) -> None:
    """For either shift, printed id -> Hex -> printed id and offset <-> cube are identities."""
    grid = FULL[shifted]
    hid = f"{col:02d}{row:02d}"
    h = grid.parse(hid)
    assert grid.label(h) == hid
    assert grid.to_offset(h) == (col, row)
    assert grid.from_offset(col, row) == h
    assert Hex.from_cube(h.q, h.r, h.s) == h


@given(shifts, hexes)
def test_hex_round_trips_through_offset_coordinates(shifted: str, h: Hex) -> None:
    """For either shift, Hex -> (column, row) -> Hex is the identity, off the map too."""
    grid = manila(shifted)
    assert grid.from_offset(*grid.to_offset(h)) == h


@pytest.mark.parametrize("bad", ["22O2", "202", "22022", " 2202", "", "22-2"])
def test_malformed_hex_id_is_a_clear_error(bad: str) -> None:
    """A malformed id raises InvalidHexError (a TabletopError) quoting it."""
    with pytest.raises(InvalidHexError, match="four digits") as info:
        manila("odd").parse(bad)
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, TabletopError)


def test_non_string_hex_id_is_a_clear_error() -> None:
    """An id given as a number is refused with the same clear message, not a TypeError."""
    with pytest.raises(InvalidHexError, match="four digits"):
        manila("odd").parse(2202)  # type: ignore[arg-type]


def test_off_map_hex_id_is_refused_naming_the_bounds() -> None:
    """A well-formed id outside the printed columns and rows is refused by parse()."""
    grid = HexGrid((1, 10), (1, 8), "odd")
    with pytest.raises(InvalidHexError, match=r"1109 is off the map \(columns 01-10, rows 01-08"):
        grid.parse("1109")
    with pytest.raises(InvalidHexError):
        grid.parse("0100")


def test_label_is_zero_padded_and_refuses_hexes_with_no_id() -> None:
    """label() pads to four digits; a hex whose column or row is outside 0-99 has no id."""
    grid = HexGrid((1, 10), (1, 8), "even")
    assert grid.label(grid.from_offset(1, 1)) == "0101"
    assert grid.label(grid.from_offset(0, 9)) == "0009"  # just off the map: still named
    with pytest.raises(InvalidHexError):
        grid.label(grid.from_offset(-1, 3))


@pytest.mark.parametrize("shifted", ["odd", "even"])
def test_grid_hexes_are_every_id_in_label_order(shifted: str) -> None:
    """hexes() lists each column-row pair once, sorted by printed id, all contained."""
    grid = HexGrid((3, 7), (2, 6), shifted)  # type: ignore[arg-type]
    labels = [grid.label(h) for h in grid.hexes()]
    assert labels == sorted(f"{c:02d}{r:02d}" for c in range(3, 8) for r in range(2, 7))
    assert len(grid) == 25
    assert all(grid.contains(h) and h in grid for h in grid)
    assert not grid.contains(grid.from_offset(2, 4))
    assert not grid.contains(grid.from_offset(5, 7))


@pytest.mark.parametrize("shifted", ["odd", "even"])
def test_map_neighbours_and_edges(shifted: str) -> None:
    """neighbors() keeps on-map hexes only; edge hexes are exactly those with fewer than six,
    and edge_sides() are the sides between an on-map and an off-map hex."""
    grid = HexGrid((1, 6), (1, 5), shifted)  # type: ignore[arg-type]
    corner = grid.parse("0101")
    assert all(grid.contains(n) for n in grid.neighbors(corner))
    assert len(grid.neighbors(corner)) in (2, 3)
    assert len(grid.neighbors(grid.parse("0303"))) == 6
    for h in grid:
        assert grid.is_edge(h) == (len(grid.neighbors(h)) < 6)
    assert not grid.is_edge(grid.from_offset(0, 0))  # off the map: not a map-edge hex
    sides = grid.edge_sides()
    assert len(sides) == len(set(sides)) == sum(6 - len(grid.neighbors(h)) for h in grid)
    assert all(grid.contains(s.a) != grid.contains(s.b) for s in sides)


@pytest.mark.parametrize("shifted", ["odd", "even"])
@pytest.mark.parametrize("columns", [(1, 6), (2, 7), (3, 3), (4, 4)])
def test_pixel_geometry_tiles_the_page(shifted: str, columns: tuple[int, int]) -> None:
    """Corners lie at the hex size from the centre, neighbours' centres sqrt(3) sizes apart,
    the first column is leftmost, rows grow downward, and pixel_size() bounds the drawing
    tightly from (0, 0)."""
    grid = HexGrid(columns, (1, 5), shifted)  # type: ignore[arg-type]
    size = 12.0
    xs: list[float] = []
    ys: list[float] = []
    for h in grid:
        cx, cy = grid.center(h, size)
        corners = grid.corners(h, size)
        assert len(corners) == 6
        assert all(math.dist((cx, cy), c) == pytest.approx(size) for c in corners)
        xs += [x for x, _ in corners]
        ys += [y for _, y in corners]
        for n in grid.neighbors(h):
            assert math.dist((cx, cy), grid.center(n, size)) == pytest.approx(size * math.sqrt(3))
        col, row = grid.to_offset(h)
        if grid.contains(grid.from_offset(col, row + 1)):
            assert grid.center(grid.from_offset(col, row + 1), size)[1] > cy
    width, height = grid.pixel_size(size)
    assert min(xs) == pytest.approx(0) and max(xs) == pytest.approx(width)
    assert min(ys) == pytest.approx(0) and max(ys) == pytest.approx(height)
    first = grid.center(grid.from_offset(columns[0], 1), size)[0]
    assert first == min(grid.center(h, size)[0] for h in grid)


@pytest.mark.parametrize("shifted", ["odd", "even"])
def test_side_corners_are_the_corners_both_hexes_share(shifted: str) -> None:
    """side_corners() gives the two corners common to both hexes of a side, whichever way
    round the side was named."""
    grid = manila(shifted)
    h = grid.parse("1010")
    for n in neighbors(h):
        p, q = grid.side_corners(HexSide(n, h), 10.0)
        for corner in (p, q):
            for x in (h, n):
                assert any(math.dist(corner, c) < 1e-9 for c in grid.corners(x, 10.0))
        assert math.dist(p, q) == pytest.approx(10.0)


def test_grid_refuses_bad_settings() -> None:
    """Bounds must ascend within 0-99 and the shift must be 'odd' or 'even'."""
    with pytest.raises(ValueError):
        HexGrid((5, 4), (1, 2), "odd")
    with pytest.raises(ValueError):
        HexGrid((1, 4), (1, 100), "odd")
    with pytest.raises(ValueError):
        HexGrid((1, 4), (1, 2), "left")  # type: ignore[arg-type]
