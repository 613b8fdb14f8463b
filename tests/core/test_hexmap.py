"""Tests of core.hexmap: building a HexMap from its spec or file, lookups and validation."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.board.hexgrid import Hex, HexSide, InvalidHexError, distance, hex_neighbor, line, within
from tabletop.core.board.hexmap import HexMap
from tabletop.core.board.mapdata import HexMapSpec
from tabletop.core.engine.errors import DataError, TabletopError


def map_data(**changes: Any) -> dict[str, Any]:
    """A small island map as the plain data a YAML file would hold."""
    data: dict[str, Any] = {
        "name": "Test Island",
        "columns": [1, 6],
        "rows": [1, 5],
        "shifted": "odd",
        "default_terrain": "clear",
        "terrain_types": {
            "clear": {"name": "Clear"},
            "rough": {"name": "Rough", "symbol": "^"},
            "sea": {"name": "All-sea", "prohibited": True},
        },
        "feature_types": {"hill": {"name": "Hill"}, "beach": {"name": "Beach"}},
        "hexside_types": {"river": {"name": "River"}, "bridge": {"name": "Bridge"}},
        "hexes": {
            "0101": "sea",
            "0203": {"terrain": "rough", "features": ["hill"], "attrs": {"sector": 2},
                     "name": "Hill 382"},
            "0204": {"terrain": "clear", "features": ["beach"], "attrs": {"sector": 2}},
            "0305": {"terrain": "clear", "attrs": {"sector": 3}},
        },
        "hexsides": [
            {"between": ["0303", "0304"], "features": ["river"]},
            {"between": ["0403", "0303"], "features": ["river"]},
            {"between": ["0304", "0303"], "features": ["bridge"]},
        ],
        "boxes": [{"id": "dead", "name": "Eliminated"}],
        "labels": [{"text": "Motoyama", "at": "0402"}],
    }
    data.update(changes)
    return data


@pytest.fixture
def island() -> HexMap:
    """The small island map, built from its spec."""
    return HexMap.from_spec(HexMapSpec.model_validate(map_data()), source="island.yaml")


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    """Write map data as a YAML file and return its path."""
    path = tmp_path / "map.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_every_hex_inside_the_bounds_exists(island: HexMap) -> None:
    """All 6x5 hexes exist, in label order, and unlisted hexes take the default terrain."""
    assert len(island) == 30
    assert [island.label(h) for h in island.hexes()][:6] == [
        "0101", "0102", "0103", "0104", "0105", "0201"]
    assert island.terrain(island.hex("0605")) == "clear"
    assert island.terrain(island.hex("0101")) == "sea"
    assert island.terrain(island.hex("0203")) == "rough"


def test_hex_lookup_and_its_errors(island: HexMap) -> None:
    """hex() finds on-map ids and refuses malformed or off-map ones with a clear message."""
    h = island.hex("0203")
    assert island.label(h) == "0203"
    assert h in island and "0203" in island
    with pytest.raises(InvalidHexError, match="four digits"):
        island.hex("23")
    with pytest.raises(InvalidHexError, match=r"Test Island.*0706 is off the map"):
        island.hex("0706")
    with pytest.raises(TabletopError):
        island.hex(None)  # type: ignore[arg-type]
    assert "0706" not in island
    assert Hex(-5, -5) not in island


def test_off_map_hex_has_no_terrain(island: HexMap) -> None:
    """Asking about a hex off the map is an InvalidHexError naming it, not a KeyError."""
    off = hex_neighbor(island.hex("0101"), 0)
    with pytest.raises(InvalidHexError, match=r"hex 0100 is not on map 'Test Island'"):
        island.terrain(off)


def test_terrain_features_attributes_and_names(island: HexMap) -> None:
    """Per-hex lookups return what the data file says, and defaults for unlisted hexes."""
    h = island.hex("0203")
    assert island.terrain_type(h).name == "Rough"
    assert island.features(h) == frozenset({"hill"})
    assert island.has_feature(h, "hill") and not island.has_feature(h, "beach")
    assert island.attr(h, "sector") == 2
    assert island.attr(h, "missing", "x") == "x"
    assert island.hex_name(h) == "Hill 382"
    plain = island.hex("0505")
    assert island.features(plain) == frozenset()
    assert island.attr(plain, "sector") is None
    assert island.hex_name(plain) is None


def test_prohibited_terrain(island: HexMap) -> None:
    """Bonins 6.2e: an all-sea hex is prohibited terrain; ordinary hexes are not."""
    assert island.is_prohibited(island.hex("0101"))
    assert not island.is_prohibited(island.hex("0203"))


def test_queries_over_all_hexes(island: HexMap) -> None:
    """hexes_with and hexes_where list matching hexes in label order."""
    assert island.hexes_with("hill") == [island.hex("0203")]
    assert island.hexes_where("sector", 2) == [island.hex("0203"), island.hex("0204")]
    assert island.hexes_where("sector", None) == []


def test_hexside_features_merge_and_are_the_same_from_both_sides(island: HexMap) -> None:
    """Hexside features read the same in either order; two entries for one side merge."""
    a, b = island.hex("0303"), island.hex("0304")
    assert island.hexside_features(a, b) == frozenset({"river", "bridge"})
    assert island.hexside_features(b, a) == frozenset({"river", "bridge"})
    assert island.hexside_features(a, island.hex("0302")) == frozenset()
    assert island.hexsides_with("river") == [HexSide(island.hex("0303"), island.hex("0304")),
                                             HexSide(island.hex("0303"), island.hex("0403"))]
    assert island.hexsides()[HexSide(a, b)] == frozenset({"river", "bridge"})


def test_hexside_features_agree_with_the_hexsides_for_every_pair(island: HexMap) -> None:
    """Hexsides (read by the hexes' indices): for every hex and each of its six neighbours,
    on the map or off it, hexside_features gives what hexsides() holds for that hexside (or
    nothing); a hex and itself, or two hexes apart, share no hexside (ValueError)."""
    sides = island.hexsides()
    featured = 0
    for h in island.hexes():
        for d in range(6):
            n = hex_neighbor(h, d)
            found = island.hexside_features(h, n)
            assert found == sides.get(HexSide(h, n), frozenset())
            featured += bool(found)
        for apart in (h, Hex(h.q + 2, h.r), Hex(h.q, h.r - 2)):
            with pytest.raises(ValueError):
                island.hexside_features(h, apart)
    assert featured >= 4  # the test means something: featured sides, seen from both hexes


def test_boxes_and_labels(island: HexMap) -> None:
    """Off-map boxes are keyed by id and labels are kept as written."""
    assert island.boxes["dead"].name == "Eliminated"
    assert island.labels[0].text == "Motoyama"
    assert island.hex(island.labels[0].at) == island.hex("0402")


def test_neighbour_tables_agree_with_the_grid(island: HexMap) -> None:
    """The integer neighbour tables give the same hexes as the grid, direction by direction."""
    for h in island:
        i = island.index(h)
        assert island.hex_at(i) == h
        assert island.neighbors(h) == island.grid.neighbors(h)
        for d, j in enumerate(island.neighbor_index[i]):
            n = hex_neighbor(h, d)
            assert j == (island.index(n) if n in island else -1)
        assert [island.hex_at(j) for _, j in island.adjacency[i]] == island.grid.neighbors(h)
    assert island.indices([island.hex("0101"), Hex(-9, 0), island.hex("0102")]) == [0, 1]


def test_hex_questions_by_printed_id_agree_with_the_grid(island: HexMap) -> None:
    """Every id helper answers what the Hex-based question answers, for every pair of hexes:
    a hex of the map by id (never a box nor an off-map id), neighbours (all, and without
    prohibited terrain), distance, the line between two hexes, the hexes within a radius,
    and the features of the hexside between neighbours."""
    ids = island.ids()
    assert island.is_hex_id("0203") and not island.is_hex_id("dead") and not island.is_hex_id("0909")
    for a in ids:
        ha = island.hex(a)
        assert island.passable_neighbor_ids(a) == tuple(
            n for n in island.neighbor_ids(a) if not island.is_prohibited(island.hex(n)))
        for radius in (0, 1, 2):
            assert island.ids_within(a, radius) == tuple(
                island.label(h) for h in within(ha, radius) if h in island)
        for n in island.neighbor_ids(a):
            assert island.id_hexside_features(a, n) == island.hexside_features(ha, island.hex(n))
        for b in ids:
            hb = island.hex(b)
            assert island.id_distance(a, b) == distance(ha, hb)
            assert island.id_line(a, b) == [tuple(island.label(h) for h in step) for step in line(ha, hb)]
    assert "0101" not in island.passable_neighbor_ids("0102")  # all-sea
    assert island.id_hexside_features("0303", "0304") == frozenset({"river", "bridge"})
    assert island.id_line("0301", "0501") == [("0301",), ("0401", "0402"), ("0501",)]


def test_hex_questions_by_id_refuse_unknown_ids_and_non_adjacent_pairs(island: HexMap) -> None:
    """An id not on the map gets the map's one clear message; hexes that are not neighbours
    share no hexside."""
    for ask in (lambda: island.id_distance("0909", "0101"), lambda: island.ids_within("x", 1),
                lambda: island.passable_neighbor_ids("0909"), lambda: island.id_line("0101", "0909")):
        with pytest.raises(InvalidHexError, match=r"0909|'x'"):
            ask()
    with pytest.raises(ValueError):
        island.id_hexside_features("0101", "0303")


def test_a_map_pickles_and_copies_whole_with_its_lookups(island: HexMap) -> None:
    """A map (whose questions by id are kept lookups) pickles and deep-copies to a map that
    answers them alike."""
    for copy_ in (pickle.loads(pickle.dumps(island)), copy.deepcopy(island)):
        assert copy_.source == island.source and copy_.ids() == island.ids()
        assert copy_.id_distance("0101", "0605") == island.id_distance("0101", "0605")
        assert copy_.neighbor_ids("0303") == island.neighbor_ids("0303")
        assert copy_.label(copy_.hex("0203")) == "0203"


@given(st.sampled_from(["odd", "even"]), st.integers(1, 8), st.integers(1, 8))
def test_every_listed_hex_keeps_its_terrain(shifted: str, cols: int, rows: int) -> None:
    """Whatever the size and shift, each listed hex has its own terrain, the rest default."""
    listed = {f"{c:02d}{r:02d}": "rough"
              for c in range(1, cols + 1) for r in range(1, rows + 1) if (c + r) % 3 == 0}
    m = HexMap.from_spec(HexMapSpec.model_validate(
        map_data(columns=[1, cols], rows=[1, rows], shifted=shifted, hexes=listed,
                 hexsides=[], labels=[])))
    assert len(m) == cols * rows
    for h in m:
        assert m.terrain(h) == listed.get(m.label(h), "clear")
    assert sum(len(row) for row in m.adjacency) == 2 * sum(
        1 for h in m for d in range(3) if hex_neighbor(h, d) in m)


def test_load_reads_a_yaml_file(tmp_path: Path) -> None:
    """HexMap.load reads and validates a map file."""
    m = HexMap.load(write(tmp_path, map_data()))
    assert m.name == "Test Island"
    assert m.terrain(m.hex("0203")) == "rough"
    assert str(tmp_path / "map.yaml") == m.source


def test_hexside_between_non_adjacent_hexes_names_file_and_pair(tmp_path: Path) -> None:
    """A hexside whose two hexes are not adjacent is a DataError naming the file and pair."""
    path = write(tmp_path, map_data(hexsides=[{"between": ["0303", "0305"],
                                               "features": ["river"]}]))
    with pytest.raises(DataError, match=r"map\.yaml: hexsides\.0\.between: hexes 0303 and "
                                        r"0305 are not adjacent"):
        HexMap.load(path)


def test_hexside_off_the_map_names_file_and_pair(tmp_path: Path) -> None:
    """A hexside with a hex outside the map is a DataError naming the file and both ids."""
    path = write(tmp_path, map_data(hexsides=[{"between": ["0605", "0606"],
                                               "features": ["river"]}]))
    with pytest.raises(DataError, match=r"map\.yaml: hexsides\.0\.between: hexside 0605-0606: "
                                        r"0606 is not a hex of the map"):
        HexMap.load(path)


def test_label_off_the_map_is_refused(tmp_path: Path) -> None:
    """A map label printed at a hex the map does not have is a DataError naming the file."""
    path = write(tmp_path, map_data(labels=[{"text": "Nowhere", "at": "0909"}]))
    with pytest.raises(DataError, match=r"map\.yaml: labels\.0\.at: '0909'"):
        HexMap.load(path)


def test_malformed_file_is_a_data_error(tmp_path: Path) -> None:
    """A file the spec rejects (unknown terrain) fails as DataError through load()."""
    path = write(tmp_path, map_data(hexes={"0202": "swamp"}))
    with pytest.raises(DataError, match=r"map\.yaml"):
        HexMap.load(path)
