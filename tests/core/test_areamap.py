"""Area topology: positions, arrows (both ways and one way), attributes and boxes."""

from __future__ import annotations

import pytest

from tabletop.core.board.areamap import AreaMap
from tabletop.core.board.mapdata import AreaMapSpec
from tabletop.core.engine.data import validate
from tabletop.core.engine.errors import DataError, TabletopError

DATA = {
    "name": "test board",
    "areas": [
        {"id": "beach", "name": "Beach", "x": 100, "y": 800, "attrs": {"beach": True, "slots": 3}},
        {"id": "neck", "name": "The Neck", "x": 300, "y": 600, "attrs": {"priority": 2}},
        {"id": "peak", "name": "Peak", "x": 100, "y": 950, "attrs": {"mountain": True, "priority": 1}},
        {"id": "field", "name": "Field", "x": 500, "y": 400, "attrs": {"priority": 3}},
    ],
    "connections": [
        {"a": "beach", "b": "neck"},
        {"a": "neck", "b": "peak"},
        {"a": "neck", "b": "field", "directed": True},
    ],
    "boxes": [{"id": "box:dead", "name": "Dead pile"}, {"id": "box:cup", "name": "Cup", "blind": True}],
}


def board() -> AreaMap:
    """The small test board."""
    return AreaMap(validate(AreaMapSpec, DATA, source="test"))


def test_adjacency_both_ways_and_directed() -> None:
    """Plain arrows join both ways; a directed arrow only one way."""
    b = board()
    assert b.is_adjacent("beach", "neck") and b.is_adjacent("neck", "beach")
    assert b.is_adjacent("neck", "field") and not b.is_adjacent("field", "neck")
    assert b.neighbors("neck") == ["beach", "peak", "field"]


def test_attributes_distance_and_boxes() -> None:
    """Attributes are readable, distance counts arrows, boxes stand apart from areas."""
    b = board()
    assert b.areas_where("mountain") == ["peak"]
    assert b.attr("beach", "slots") == 3 and b.attr("field", "slots", 0) == 0
    assert b.distance("beach", "field") == 2 and b.distance("field", "beach") is None
    assert b.within("beach", 1) == {"beach", "neck"}
    assert b.boxes["box:cup"].blind and "box:cup" not in b


def test_bad_area_map_data_names_the_problem() -> None:
    """An arrow to an unknown area is a DataError naming it."""
    bad = {**DATA, "connections": [{"a": "beach", "b": "nowhere"}]}
    with pytest.raises(DataError, match="nowhere"):
        validate(AreaMapSpec, bad, source="board.yaml")
    with pytest.raises(TabletopError, match="no area"):
        board().area("moon")
