"""The SVG and terminal pictures of hex maps, area maps and matches (core/render)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from tabletop.core.board.areamap import AreaMap
from tabletop.core.board.hexmap import HexMap
from tabletop.core.board.mapdata import AreaMapSpec, HexMapSpec
from tabletop.core.board.render import ascii as ascii_render
from tabletop.core.board.render import side_letters, svg
from tabletop.core.engine.data import validate
from tabletop.core.engine.decisions import Option, choose
from tabletop.core.engine.errors import DataError, TabletopError
from tabletop.core.engine.match import Flow, Game, GameInfo, Match
from tabletop.core.engine.pieces import Piece

NS = {"s": "http://www.w3.org/2000/svg"}

HEX_DATA: dict[str, Any] = {
    "name": "Test hexes",
    "columns": [1, 4],
    "rows": [1, 3],
    "shifted": "even",
    "default_terrain": "clear",
    "terrain_types": {
        "clear": {"name": "Clear", "color": "#d9d3a8", "symbol": "."},
        "sea": {"name": "Sea", "color": "#8fbcd4", "symbol": "~", "prohibited": True},
        "rough": {"name": "Rough", "color": "#b9a67a", "symbol": "%"},
    },
    "feature_types": {
        "hill": {"name": "Hill", "color": "#7a4e22", "symbol": "^"},
        "airfield": {"name": "Airfield", "color": "#3b3b3b", "symbol": "="},
    },
    "hexside_types": {
        "river": {"name": "River", "color": "#2a6fd0", "symbol": "~", "width": 4},
        "wall": {"name": "Stone wall", "color": "#444444", "width": 3},
    },
    "hexes": {
        "0101": "sea", "0201": "sea",
        "0202": {"terrain": "rough", "features": ["hill", "airfield"], "name": "Twin Peaks"},
        "0302": {"terrain": "clear", "features": ["hill"]},
    },
    "hexsides": [
        {"between": ["0202", "0203"], "features": ["river"]},
        {"between": ["0302", "0303"], "features": ["river", "wall"]},
    ],
    "boxes": [{"id": "box:dead", "name": "Eliminated"}, {"id": "box:cup", "name": "Cup", "blind": True}],
    "labels": [{"text": "Ridge & Co <north>", "at": "0302"}],
}

AREA_DATA: dict[str, Any] = {
    "name": "Test areas",
    "areas": [
        {"id": "beach", "name": "Green Beach", "x": 100, "y": 800, "attrs": {"beach": True, "slots": 3}},
        {"id": "neck", "name": "The Neck", "x": 300, "y": 600, "attrs": {"priority": 2}},
        {"id": "peak", "name": "Mount Peak", "x": 100, "y": 950, "attrs": {"mountain": True}},
        {"id": "field", "name": "Airfield", "x": 500, "y": 400},
    ],
    "connections": [
        {"a": "beach", "b": "neck"},
        {"a": "neck", "b": "peak"},
        {"a": "neck", "b": "field", "directed": True},
    ],
    "boxes": [{"id": "box:dead", "name": "Dead pile"}],
}


def hexmap() -> HexMap:
    """The 4×3 test map: sea, rough, a hex with two features, two hexsides, boxes, a label."""
    return HexMap.from_spec(validate(HexMapSpec, HEX_DATA, source="test"))


def areamap() -> AreaMap:
    """The four-position test board with one directed arrow."""
    return AreaMap(validate(AreaMapSpec, AREA_DATA, source="test"))


def piece(pid: str, side: str, loc: str, name: str, vals: tuple[int, ...], **kw: Any) -> Piece:
    """A counter with attack-defense-movement values on its front."""
    values = {"front": dict(zip(("a", "d", "m"), vals, strict=False))}
    return Piece(pid, "inf", side, name=name, location=loc, values=values, **kw)


def pieces() -> list[Piece]:
    """A lone unit, a stack of three (top piece first), a hidden unit and boxed pieces."""
    return [
        piece("u1", "us", "0303", "1/23", (4, 3, 4)),
        piece("u2", "us", "0401", "2/23", (5, 3, 4)),
        piece("u3", "us", "0401", "3/23", (4, 3, 4)),
        piece("u4", "us", "0401", "4/23", (4, 3, 4)),
        piece("j1", "japan", "0202", "SNLF", (9, 8, 7), hidden=True),
        piece("j2", "japan", "box:dead", "309", (2, 4, 2)),
        piece("j3", "japan", "box:cup", "145", (6, 6, 6), hidden=True),
    ]


def parse(text: str) -> ET.Element:
    """The SVG document as an XML tree (fails the test if it is not well-formed)."""
    assert text.startswith("<?xml")
    return ET.fromstring(text)


def texts(root: ET.Element, cls: str | None = None) -> list[str]:
    """All text strings of the document, or of text elements of one class."""
    return [t.text or "" for t in root.iterfind(".//s:text", NS)
            if cls is None or cls in (t.get("class") or "").split()]


def all_text(root: ET.Element) -> str:
    """Every text and tooltip of the document joined, to search for strings."""
    return "\n".join((e.text or "") for e in root.iter())


# --- SVG hex maps -----------------------------------------------------------------------------


def test_hexmap_svg_parses_with_one_polygon_per_hex() -> None:
    """The SVG is well-formed XML and draws exactly one polygon per hex, in its terrain colour."""
    m = hexmap()
    root = parse(svg.render_hexmap(m, pieces()))
    polys = root.findall(".//s:polygon", NS)
    assert len(polys) == len(m.hexes()) == 12
    fills = {p.get("data-hex"): p.get("fill") for p in polys}
    assert fills["0101"] == "#8fbcd4" and fills["0202"] == "#b9a67a" and fills["0403"] == "#d9d3a8"


def test_hexmap_svg_contains_every_hex_id() -> None:
    """Every printed four-digit hex id is written in its hex (and none when show_ids is off)."""
    m = hexmap()
    ids = {m.label(h) for h in m.hexes()}
    assert set(texts(parse(svg.render_hexmap(m)), "hex-id")) == ids
    assert texts(parse(svg.render_hexmap(m, show_ids=False)), "hex-id") == []


def test_hex_polygons_follow_the_grid_geometry() -> None:
    """Hex polygons sit at HexGrid.corners for the hex size, flat-topped, inside the picture."""
    m = hexmap()
    root = parse(svg.render_hexmap(m, hex_size=40))
    poly = next(p for p in root.iterfind(".//s:polygon", NS) if p.get("data-hex") == "0202")
    pts = [tuple(map(float, xy.split(","))) for xy in (poly.get("points") or "").split()]
    expected = m.grid.corners(m.hex("0202"), 40)
    assert all(math.isclose(a, b, abs_tol=0.06) for p, q in zip(pts, expected, strict=True)
               for a, b in zip(p, q, strict=True))
    assert pts[0][1] == pts[3][1]  # east and west corners level: flat-topped


def test_hexside_features_are_strokes_on_the_shared_edge() -> None:
    """Each hexside with features is drawn once, in the feature colours, along the edge the
    two hexes share (two features on one hexside run side by side, a few pixels apart)."""
    m = hexmap()
    root = parse(svg.render_hexmap(m, hex_size=30))
    sides = {g.get("data-between"): g for g in root.iterfind(".//s:g[@class='hexside']", NS)}
    assert set(sides) == {"0202-0203", "0302-0303"}
    river_wall = sides["0302-0303"]
    strokes = {e.get("stroke") for e in river_wall.iter() if e.get("stroke")}
    assert {"#2a6fd0", "#444444"} <= strokes
    wall = next(e for e in river_wall.iter() if e.get("stroke") == "#444444")
    (x1, x2), (y1, y2) = ((float(wall.get(k + "1", 0)), float(wall.get(k + "2", 0))) for k in "xy")
    ca = set(m.grid.corners(m.hex("0302"), 30))
    shared = [c for c in m.grid.corners(m.hex("0303"), 30)
              if any(math.dist(c, d) < 0.01 for d in ca)]
    assert len(shared) == 2
    (sx1, sy1), (sx2, sy2) = shared
    assert math.isclose(abs((x2 - x1) * (sy2 - sy1) - (y2 - y1) * (sx2 - sx1)), 0, abs_tol=1)  # parallel
    assert math.isclose(math.dist((x1, y1), (x2, y2)), 30, abs_tol=0.2)  # full edge length
    assert math.dist(((x1 + x2) / 2, (y1 + y2) / 2), ((sx1 + sx2) / 2, (sy1 + sy2) / 2)) < 4


def test_several_features_in_one_hex_get_separate_badges() -> None:
    """A hex with two features shows two badges, each in its feature's colour, apart."""
    root = parse(svg.render_hexmap(hexmap()))
    badges = [g for g in root.iterfind(".//s:g[@class='feature']", NS)
              if (g.findtext("s:title", "", NS)).startswith("0202")]
    assert sorted(g.get("data-feature") or "" for g in badges) == ["airfield", "hill"]
    centres = {(c.get("cx"), c.get("cy")) for g in badges for c in g.iterfind("s:circle", NS)}
    assert len(centres) == 2
    rings = {c.get("stroke") for g in badges for c in g.iterfind("s:circle", NS)}
    assert rings == {"#7a4e22", "#3b3b3b"}


def test_labels_names_and_legend_are_drawn() -> None:
    """Map labels (escaped), hex names and a legend of terrain, features and hexsides appear."""
    text = svg.render_hexmap(hexmap())
    root = parse(text)
    assert "Ridge & Co <north>" in texts(root, "label")
    words = texts(root)
    assert "Twin Peaks" in words
    legend = " ".join(words)
    for name in ("Clear", "Sea", "Rough", "Hill", "Airfield", "River", "Stone wall"):
        assert name in legend


def test_pieces_show_labels_and_stack_counts() -> None:
    """Counters show the piece label (name line and values line) and a stack count; the top
    piece given is the one drawn."""
    root = parse(svg.render_hexmap(hexmap(), pieces(), piece_label=lambda p: f"{p.name} X-{p.id}"))
    counters = {g.get("data-piece"): g for g in root.iterfind(".//s:g", NS)
                if "counter" in (g.get("class") or "").split()}
    assert "u1" in counters and "u2" in counters and "u3" not in counters
    assert [t.text for t in counters["u1"].iterfind("s:text", NS)] == ["1/23", "X-u1"]
    assert "3" in texts(root, "stack")
    default = parse(svg.render_hexmap(hexmap(), pieces()))
    assert "4-3-4" in texts(default)


def test_hidden_pieces_are_face_down_without_values() -> None:
    """A hidden piece is drawn face-down: its side colour and a '?', but no name, id or values."""
    text = svg.render_hexmap(hexmap(), pieces(), side_colors={"japan": "#c8a23c"})
    root = parse(text)
    down = [g for g in root.iter() if "face-down" in (g.get("class") or "").split()]
    assert len(down) == 2  # the hidden unit on the map and the one in the cup
    assert [g.findall("s:rect", NS)[0].get("fill") for g in down] == ["#c8a23c", "#c8a23c"]
    shown = all_text(root) + " ".join(v for e in root.iter() for k, v in e.attrib.items()
                                      if k.startswith("data-"))
    for secret in ("9-8-7", "SNLF", "j1", "6-6-6", "145"):
        assert secret not in shown
    assert "2-4-2" in texts(root)  # the face-up eliminated piece still shows


def test_boxes_beside_the_map_hold_their_pieces() -> None:
    """Off-map boxes are labelled rectangles with their counters; unknown places are kept."""
    extra = [*pieces(), piece("x1", "us", "at-sea", "LVT", (0, 1, 6))]
    root = parse(svg.render_hexmap(hexmap(), extra))
    boxes = {g.get("data-box"): g for g in root.iterfind(".//s:g[@class='box']", NS)}
    assert set(boxes) == {"box:dead", "box:cup", "at-sea"}
    assert "Eliminated" in [t.text for t in boxes["box:dead"].iterfind("s:text", NS)]
    assert len(boxes["box:dead"].findall("s:g", NS)) == 1
    assert "0-1-6" in all_text(boxes["at-sea"])


def test_large_map_renders_every_hex() -> None:
    """A 40×35 map renders completely, with hex-id text no smaller than 7 px at size 30."""
    data = {**HEX_DATA, "columns": [1, 40], "rows": [1, 35], "labels": []}
    m = HexMap.from_spec(validate(HexMapSpec, data, source="big"))
    root = parse(svg.render_hexmap(m, pieces()))
    assert len(root.findall(".//s:polygon", NS)) == 1400
    sizes = {float(t.get("font-size", 0)) for t in root.iterfind(".//s:text", NS)
             if t.get("class") == "hex-id"}
    assert min(sizes) >= 7


# --- SVG area maps ----------------------------------------------------------------------------


def test_areamap_svg_has_every_position_and_an_arrow_per_connection() -> None:
    """Every position name appears, one arrow per connection: directed with one head,
    undirected with heads at both ends."""
    b = areamap()
    root = parse(svg.render_areamap(b, [piece("m1", "us", "beach", "1/23", (4, 3, 4))]))
    assert set(texts(root, "area-name")) == {a.name for a in b.spec.areas}
    arrows = [e for e in root.iter() if "arrow" in (e.get("class") or "").split()]
    assert len(arrows) == len(b.spec.connections)
    by_ends = {e.get("data-between"): e for e in arrows}
    assert by_ends["neck-field"].get("marker-start") is None and by_ends["neck-field"].get("marker-end")
    assert by_ends["beach-neck"].get("marker-start") and by_ends["beach-neck"].get("marker-end")
    beach = root.find(".//s:g[@data-area='beach']", NS)
    assert beach is not None
    counter = beach.find(".//s:g[@data-piece='m1']", NS)
    assert counter is not None and "counter" in (counter.get("class") or "").split()
    assert [t.text for t in counter.iterfind("s:text", NS)] == ["1/23", "4-3-4"]
    assert "Dead pile" in texts(root)


def test_areamap_svg_hides_hidden_pieces() -> None:
    """A hidden piece in a position is a face-down counter, without its label."""
    text = svg.render_areamap(areamap(), [piece("j1", "japan", "peak", "SNLF", (9, 8, 7), hidden=True)])
    peak = parse(text).find(".//s:g[@data-area='peak']", NS)
    assert peak is not None
    down = [g for g in peak.iter() if "face-down" in (g.get("class") or "").split()]
    assert len(down) == 1 and down[0].get("data-piece") is None
    assert "9-8-7" not in text and "SNLF" not in text


# --- matches and games ------------------------------------------------------------------------


class MapGame(Game):
    """A one-decision game on the test hex map, with a hidden piece for each side."""

    info = GameInfo(id="maptest", title="Map Test", version="1.0", players=("us", "japan"))

    def setup(self, match: Match) -> None:
        """The test pieces, plus a hidden US scout."""
        for p in pieces():
            match.state.pieces.add(p)
        match.state.pieces.add(piece("u9", "us", "0102", "Scout", (1, 1, 9), hidden=True))

    def play(self, match: Match) -> Flow:
        """One decision, then the game ends."""
        yield choose("us", "done?", "1.0", [Option("yes", "Yes")])
        return None

    def board(self, match: Match | None) -> HexMap | AreaMap:
        """The test map."""
        return hexmap()


class AreaGame(MapGame):
    """The same game on the area board."""

    def setup(self, match: Match) -> None:
        """One US piece on the beach and a hidden Japanese one on the peak."""
        match.state.pieces.add(piece("m1", "us", "beach", "1/23", (4, 3, 4)))
        match.state.pieces.add(piece("j1", "japan", "peak", "SNLF", (9, 8, 7), hidden=True))

    def board(self, match: Match | None) -> HexMap | AreaMap:
        """The test board."""
        return areamap()


def test_render_match_hides_what_a_side_may_not_see() -> None:
    """render_match(hidden_from=side) turns the other sides' hidden pieces face-down (7.
    Views), leaves the side's own face-up, and shows everything for no side."""
    match = Match(MapGame(), seed=1)
    as_us = svg.render_match(match, hidden_from="us")
    assert "9-8-7" not in as_us and "1-1-9" in as_us and "Map Test" in as_us
    as_japan = svg.render_match(match, hidden_from="japan")
    assert "9-8-7" in as_japan and "1-1-9" not in as_japan
    everyone = svg.render_match(match)
    assert "9-8-7" in everyone and "1-1-9" in everyone
    parse(everyone)


def test_face_down_is_read_from_the_side_view() -> None:
    """A side's picture turns face-down exactly the pieces its view does not name: with the
    default view, the other sides' hidden pieces (a game's own view may keep back more)."""
    from tabletop.core.board.render import face_down_for, face_down_in_view

    match = Match(MapGame(), seed=1)
    for side in ("us", "japan", None):
        by_view, by_flag = face_down_in_view(match, side), face_down_for(side)
        assert [by_view(p) for p in match.state.pieces] == [by_flag(p) for p in match.state.pieces]
    assert any(face_down_in_view(match, "us")(p) for p in match.state.pieces)


def test_render_game_picks_the_renderer() -> None:
    """render_game draws the bare map without a match, and an area board as an area map."""
    root = parse(svg.render_game(MapGame(), None))
    assert len(root.findall(".//s:polygon", NS)) == 12
    assert not [g for g in root.iter() if "counter" in (g.get("class") or "")]
    area = parse(svg.render_game(AreaGame(), Match(AreaGame(), seed=1), hidden_from="us"))
    assert "Green Beach" in texts(area, "area-name")
    assert [g for g in area.iter() if "face-down" in (g.get("class") or "").split()]


def _fresh_picture(match: Match, side: str | None) -> str:
    """A match's picture drawn without the stacks its memo keeps (what match_picture draws)."""
    from tabletop.core.board.render import assign_side_colors, face_down_in_view, match_pieces, sides_of

    game = match.game
    title, subtitle = svg._match_title(match, side)
    pieces = match_pieces(match)
    art = svg.game_art(game)
    colors = assign_side_colors(sides_of(pieces, game.info.players), art.side_colours())
    return svg.board_picture(game.board(match), pieces, title=title, subtitle=subtitle,
                             piece_label=game.piece_label, side_colors=colors,
                             face_down=face_down_in_view(match, side), cards=game.box_cards(match, side),
                             marks=game.map_marks(match, side), art=art).svg()


def test_a_match_picture_is_the_maps_fixed_part_with_layers_over_it() -> None:
    """A hex map's picture keeps its terrain as the fixed part, the same (and the same key)
    for every side and position and naming no piece; the pieces, the heading and the
    column's boxes are layers (``<g data-layer>``), and the whole document is the fixed part
    with them in it."""
    match = Match(MapGame(), seed=1)
    us, japan = svg.match_picture(match, hidden_from="us"), svg.match_picture(match, hidden_from="japan")
    assert us.key == japan.key == svg.match_picture(match).key
    assert us.fixed_text() == japan.fixed_text()
    assert list(us.layers) == ["heading", "map", "panel"]
    assert "data-piece" not in us.fixed_text() and "9-8-7" not in us.fixed_text()
    assert "9-8-7" not in "".join(us.layers.values()) and "9-8-7" in "".join(japan.layers.values())
    whole = us.svg()
    for name, text in us.layers.items():
        assert f'<g data-layer="{name}">{text}</g>' in whole
    root = parse(whole)
    assert len(root.findall(".//s:polygon", NS)) == 12
    assert (root.get("width"), root.get("height")) == tuple(svg._num(v) for v in us.size)
    area = svg.match_picture(Match(AreaGame(), seed=1), hidden_from="us")
    assert list(area.layers) == ["board"] and "data-area" not in area.fixed_text()


@pytest.mark.parametrize("game_id, scenario", [("iwo_bonins", "two_player"), ("iwo_1945", None)])
def test_stacks_kept_from_earlier_pictures_draw_what_is_drawn_afresh(game_id: str,
                                                                     scenario: str | None) -> None:
    """A match's pictures take a stack that looks as it did from the match's memo: move after
    move and for every side (face-down to one, face-up to the other) each picture is the one
    drawn without them."""
    import random

    from tabletop.core.engine.registry import load_game

    game = load_game(game_id)
    match = Match(game, scenario=scenario, seed=4)
    rng = random.Random(4)
    for step in range(60):
        if match.pending is None:
            break
        if step % 6 == 0:
            for side in (None, *game.info.players):
                assert svg.match_picture(match, hidden_from=side).svg() == _fresh_picture(match, side), \
                    (step, side)
        match.decide_index(rng.randrange(len(match.pending.options)))
    assert match.state.memo.of_registry(svg._KEPT, dict)


# --- ASCII ------------------------------------------------------------------------------------


def test_ascii_hexmap_lines_headers_and_markers() -> None:
    """The terminal map has a header, two lines per row and the legend; columns are numbered;
    cells show terrain symbols, the side letter and the stack size."""
    m = hexmap()
    text = ascii_render.render_hexmap(m, pieces())
    lines = text.split("\n")
    legend = 4  # terrain, features, hexsides, pieces
    assert len(lines) == 2 + 2 * 3 + legend
    assert lines[0].split() == ["01", "03"] and lines[1].split() == ["02", "04"]
    assert lines[2].startswith("01 ~~~~~")  # row 1, column 01 (unshifted): sea
    letters = side_letters(["us", "japan"])
    assert f" {letters['us']}3" in text  # the stack of three in 0401
    assert f" {letters['us']} " in text and f" {letters['japan']} " in text
    assert "..^.." in text and "%^J %" in text  # features in an empty hex; under a piece, the first
    assert lines[-4].startswith("terrain: ")


def test_ascii_column_numbers_stand_over_their_own_hexes() -> None:
    """Each column's number is centred over that column's five-character cells: on the first
    header line for the columns of the upper text line, on the second for the shifted ones."""
    m = hexmap()
    lines = ascii_render.render_hexmap(m, ids=True).split("\n")
    for head, row_line in ((lines[0], lines[2]), (lines[1], lines[3])):
        assert head.split()
        for number in head.split():
            middle = head.index(number) + 0.5
            cell = row_line.index(f"{number}01")  # the column's cell in row 01, its id drawn
            assert abs(middle - (cell + 2)) <= 0.5, (number, head, row_line)


def test_ascii_hexmap_offset_rows() -> None:
    """Shifted columns are on the lower line of each row, unshifted ones on the upper line."""
    m = hexmap()
    lines = ascii_render.render_hexmap(m).split("\n")
    row2_upper, row2_lower = lines[4], lines[5]
    assert row2_upper.startswith("02 ")
    # Column 03 (odd, unshifted) with its hill sits on the upper line; 02 (even) below.
    assert row2_upper[3 + 2 * 3:3 + 2 * 3 + 5] == "..^.."
    assert row2_lower[3 + 1 * 3:3 + 1 * 3 + 5] == "%%^=%"  # rough, hill then airfield
    assert row2_lower[:3].strip() == ""


def test_ascii_window_and_piece_char() -> None:
    """A window (hex + radius, or column/row ranges) limits the picture; bad ones are refused."""
    m = hexmap()
    text = ascii_render.render_hexmap(m, pieces(), window=((2, 3), (2, 3)), piece_char=lambda p: "@")
    lines = text.split("\n")
    assert lines[0].split() == ["03"] and lines[1].split() == ["02"]
    assert len(lines) == 2 + 2 * 2 + 4  # terrain, features, hexsides, pieces
    assert "@" in text
    around = ascii_render.render_hexmap(m, window=("0101", 1)).split("\n")
    assert around[0].split() == ["01"] and around[1].split() == ["02"]
    with pytest.raises(TabletopError, match="0909"):
        ascii_render.render_hexmap(m, window=("0909", 1))
    with pytest.raises(TabletopError, match="no hex"):
        ascii_render.render_hexmap(m, window=((7, 9), (1, 2)))


def test_area_labels_put_the_games_words_under_each_name() -> None:
    """An area map's ``labels`` (attribute -> words, {} for the value) replace the attributes'
    keys and the id under each position's name, in the SVG and the text map; without them
    the attributes show as ``key value``; a label with other braces is refused."""
    plain = areamap()
    root = parse(svg.render_areamap(plain))
    assert any("priority 2" in t for t in texts(root, "area-sub"))
    spec = {**AREA_DATA, "labels": {"mountain": "Mountain", "beach": "Beach", "slots": "{} slots"}}
    labelled = AreaMap(validate(AreaMapSpec, spec, source="test"))
    root = parse(svg.render_areamap(labelled))
    assert texts(root, "area-sub") == ["Beach · 3 slots", "", "Mountain", ""]
    text = ascii_render.render_areamap(labelled)
    assert "Green Beach  (Beach · 3 slots)" in text and "priority" not in text
    with pytest.raises(DataError, match=r"labels\.slots"):
        validate(AreaMapSpec, {**AREA_DATA, "labels": {"slots": "{n} slots"}}, source="test")


def test_ascii_areamap_lists_positions_arrows_and_occupants() -> None:
    """Each position is listed with its arrows (both ways, out, in) and its pieces."""
    text = ascii_render.render_areamap(
        areamap(), [piece("m1", "us", "beach", "1/23", (4, 3, 4)),
                    piece("j1", "japan", "peak", "SNLF", (9, 8, 7), hidden=True)])
    assert "The Neck" in text and "<-> Green Beach" in text and "-> Airfield" in text
    assert "<- The Neck" in text and "U 1/23 4-3-4" in text
    assert "J face-down" in text and "9-8-7" not in text
    assert "box Dead pile: empty" in text


def test_ascii_render_match() -> None:
    """render_match heads the map with the game and turn, lists boxes, and takes a window."""
    match = Match(MapGame(), seed=1)
    text = ascii_render.render_match(match, player="us")
    assert text.startswith("Map Test")
    assert "box Eliminated: J 309 2-4-2" in text and "box Cup: J face-down" in text
    small = ascii_render.render_match(match, window=("0202", 1))
    assert small.split("\n")[1].split() == ["01", "03"] and small.split("\n")[2].split() == ["02"]
    area = ascii_render.render_match(Match(AreaGame(), seed=1), player="us")
    assert "J face-down" in area and "Green Beach" in area


# --- cards in off-map boxes ---------------------------------------------------------------------


class CardGame(AreaGame):
    """The area game with a deck: a hidden draw pile and a hand only its owner may read."""

    def box_cards(self, match: Match, player: str | None) -> dict[str, list[str] | int]:
        """Five cards face down in the dead pile's box, two named ones for `us` (and no one)."""
        hand: list[str] | int = ["Naval Gunfire", "Banzai & <Charge>"] if player in (None, "us") else 2
        return {"box:dead": hand, "box:none": 5}


def test_box_cards_are_drawn_named_or_face_down_as_the_side_may_see() -> None:
    """Game.box_cards: a box lists its cards face up for those who may read them and as a
    face-down count for the others, in the SVG (a card row each, escaped) and the text map;
    a card entry for a box the board does not have is ignored."""
    match = Match(CardGame(), seed=1)
    mine = parse(svg.render_match(match, hidden_from="us"))
    box = next(g for g in mine.iterfind(".//s:g[@class='box']", NS) if g.get("data-box") == "box:dead")
    rows = [t.text for t in box.iterfind("s:text", NS)]
    assert "Naval Gunfire" in rows and "Banzai & <Charge>" in rows and "2 cards" in rows
    assert len([r for r in box.iterfind("s:rect", NS) if r.get("class") == "card"]) == 2
    theirs = svg.render_match(match, hidden_from="japan")
    assert "Naval Gunfire" not in theirs and "2 cards face down" in theirs
    text = ascii_render.render_match(match, player="japan")
    assert "box Dead pile: cards: 2 cards face down" in text
    assert "cards: Naval Gunfire, Banzai & <Charge>" in ascii_render.render_match(match, player="us")
    assert "box:none" not in text and Game.box_cards(CardGame(), match, None) == {}


def test_boxes_with_a_place_are_drawn_on_an_area_board() -> None:
    """A box with x, y (BoxSpec) is drawn on an area map's board, its like pieces stacked
    as one counter with its depth and its cards listed; boxes without stay beside the map;
    x without y is refused."""
    data = {**AREA_DATA, "boxes": [{"id": "box:dead", "name": "Dead pile", "x": 800, "y": 900},
                                  {"id": "box:cup", "name": "Cup", "blind": True}]}
    board = AreaMap(validate(AreaMapSpec, data, source="test"))
    stack = [piece(f"j{k}", "japan", "box:dead", "IJA", ()) for k in range(3)]
    root = parse(svg.render_areamap(board, stack, cards={"box:dead": ["Snipers"], "box:cup": 4}))
    placed = root.findall(".//s:g[@class='box placed']", NS)
    assert [g.get("data-box") for g in placed] == ["box:dead"]
    words = [t.text for t in placed[0].iterfind("s:text", NS)]
    assert words == ["Dead pile", "\u25ad Snipers"]
    stacks = [g for g in placed[0].iterfind("s:g", NS) if "counter" in (g.get("class") or "")]
    assert len(stacks) == 1 and stacks[0].get("data-depth") == "3"
    assert [t.text for t in stacks[0].iterfind("s:text", NS)] == ["IJA"]
    side = [g.get("data-box") for g in root.iterfind(".//s:g[@class='box']", NS)]
    assert side == ["box:cup"]
    with pytest.raises(Exception, match="both x and y"):
        validate(AreaMapSpec, {**AREA_DATA, "boxes": [{"id": "b", "name": "B", "x": 1}]}, source="t")


def test_ascii_marks_the_centre_of_a_window_and_shows_ids_on_demand() -> None:
    """The text map: `m HEX N` marks HEX with brackets (and says so in the legend); `ids`
    draws every hex's id with its terrain symbol."""
    m = hexmap()
    text = ascii_render.render_hexmap(m, pieces(), window=("0303", 1))
    assert ". U ]" not in text and "[ U ]" in text and "[ ] marks 0303" in text
    ids = ascii_render.render_hexmap(m, window=((1, 4), (1, 3)), ids=True)
    for hex_id, symbol in (("0101", "~"), ("0202", "%"), ("0303", ".")):
        assert f"{hex_id}{symbol}" in ids
    assert "each hex: its id" in ids


def test_ascii_gives_each_symbol_one_meaning() -> None:
    """The text map: a feature drawn like a terrain, two unrelated features alike, a reserved
    character or a side letter like a terrain symbol each get another symbol, and the legend
    lists each symbol once; features of one family (Airfield No. 1, No. 2) may share one."""
    data = dict(HEX_DATA)
    data["terrain_types"] = {**HEX_DATA["terrain_types"],
                             "jungle": {"name": "Jungle", "color": "#00aa00", "symbol": "J"},
                             "mountain": {"name": "Mountain", "color": "#555555", "symbol": "^"}}
    data["feature_types"] = {**HEX_DATA["feature_types"],
                             "airfield_2": {"name": "Airfield No. 2", "color": "#3b3b3b", "symbol": "="},
                             "bunker": {"name": "Bunker", "color": "#000000", "symbol": "="},
                             "gun": {"name": "Gun", "color": "#000000", "symbol": "3"}}
    m = HexMap.from_spec(validate(HexMapSpec, data, source="test"))
    text = ascii_render.render_hexmap(m, pieces())
    legend = [line for line in text.split("\n") if line.startswith(("terrain:", "features:", "pieces:"))]
    symbols = [entry.split(" ", 1)[0] for line in legend
               for entry in line.split(": ", 1)[1].split("  ") if entry and not entry.startswith("(")]
    assert len(symbols) == len(set(symbols)), legend
    assert "= Airfield / Airfield No. 2" in legend[1]
    assert not any(entry.startswith("3 ") for entry in legend[1].split("  "))
    pieces_line = legend[2]
    assert "J japan" not in pieces_line and "J Jungle" in legend[0]


def test_map_marks_are_badges_in_their_hex_or_on_their_hexside() -> None:
    """``Game.map_marks``: a mark in a hex is a badge inside that hex (a second one in the same
    hex below the first), a mark on a hexside a badge at the middle of the shared edge; a legend
    row a kind; the terminal lists them a kind a line."""
    from tabletop.core.engine.marks import MapMark

    m = hexmap()
    marks = [MapMark("rubble", ("0302",), "R"), MapMark("fire", ("0302",), "F", "#aa0000"),
             MapMark("bridge blown", ("0202", "0203"), "X")]
    root = parse(svg.render_hexmap(m, hex_size=30, marks=marks))
    badges = {(g.get("data-mark"), g.get("data-at")): g for g in root.iterfind(".//s:g[@class='mark']", NS)}
    assert set(badges) == {("rubble", "0302"), ("fire", "0302"), ("bridge blown", "0202-0203")}

    def centre(key: tuple[str, str]) -> tuple[float, float]:
        circle = badges[key].find("s:circle", NS)
        assert circle is not None
        return float(circle.get("cx", "nan")), float(circle.get("cy", "nan"))

    cx, cy = m.grid.center(m.hex("0302"), 30)
    for key in (("rubble", "0302"), ("fire", "0302")):
        assert math.dist(centre(key), (cx, cy)) < 30 * 0.85  # inside the hex
    assert centre(("rubble", "0302")) != centre(("fire", "0302"))
    corners_a = m.grid.corners(m.hex("0202"), 30)
    shared = [c for c in m.grid.corners(m.hex("0203"), 30) if any(math.dist(c, d) < 0.01 for d in corners_a)]
    (x1, y1), (x2, y2) = shared
    assert math.dist(centre(("bridge blown", "0202-0203")), ((x1 + x2) / 2, (y1 + y2) / 2)) < 0.01
    legend = texts(root)
    assert "Marks" in legend and all(legend.count(n) == 1 for n in ("rubble", "fire", "bridge blown"))
    assert ascii_render.mark_lines(marks) == ["bridge blown: 0202/0203", "fire: 0302", "rubble: 0302"]


def test_bad_map_marks_are_refused_with_the_mark_named() -> None:
    """A mark off the map, on two hexes that are not adjacent, or with no place is refused."""
    from tabletop.core.engine.marks import MapMark

    m = hexmap()
    with pytest.raises(TabletopError, match="'rubble' at 0909"):
        svg.render_hexmap(m, marks=[MapMark("rubble", ("0909",))])
    with pytest.raises(TabletopError, match="not adjacent"):
        svg.render_hexmap(m, marks=[MapMark("blown", ("0101", "0303"))])
    with pytest.raises(ValueError, match="one hex or on the hexside"):
        MapMark("nowhere", ())


def test_ascii_draws_the_designers_own_symbols() -> None:
    """The text map draws a terrain symbol the designer chose even where the map's own markers
    would use it (``*``, the neutral piece's, and ``+``, ten or more): those markers give way."""
    data = dict(HEX_DATA)
    data["terrain_types"] = {**HEX_DATA["terrain_types"],
                             "woods": {"name": "Woods", "color": "#00aa00", "symbol": "*"},
                             "town": {"name": "Town", "color": "#aa0000", "symbol": "+"}}
    data["hexes"] = {**HEX_DATA["hexes"], "0401": "woods", "0402": "town"}
    m = HexMap.from_spec(validate(HexMapSpec, data, source="test"))
    symbols = ascii_render.Symbols(m)
    assert (symbols.terrain["woods"], symbols.terrain["town"]) == ("*", "+")
    assert symbols.neutral not in "*+" and symbols.many not in "*+"
    text = ascii_render.render_hexmap(m, [Piece(f"n{i}", "marker", "", location="0302") for i in range(10)])
    assert "* Woods" in text and "+ Town" in text and "*****" in text
    assert f".^{symbols.neutral}{symbols.many}." in text  # ten neutral markers on 0302's hill


def test_ascii_draws_hexside_features_on_the_hexes_edges() -> None:
    """A hexside feature is drawn with its symbol at the edge it lies on: the right of a hex's
    cell and the left of its neighbour's for a north-east or south-east side, below the
    middle of the cell for a south side; the legend names it."""
    data = dict(HEX_DATA)
    data["hexside_types"] = {"river": {"name": "River", "color": "#2a6fd0", "symbol": "/"}}
    data["hexsides"] = [{"between": ["0302", "0402"], "features": ["river"]},
                        {"between": ["0302", "0303"], "features": ["river"]}]
    m = HexMap.from_spec(validate(HexMapSpec, data, source="test"))
    assert m.grid.label(m.neighbors(m.hex("0302"))[2]) == "0402"  # SE of 0302
    lines = ascii_render.render_hexmap(m).split("\n")
    row2_upper, row2_lower = lines[4], lines[5]
    at = 3 + 2 * 3  # 0302's cell (column 03, upper line)
    assert row2_upper[at:at + 5] == "..^./"  # its south-east edge, at its right
    assert row2_lower[at + 3] == "/"  # 0402's north-west edge, at its left
    assert row2_lower[at + 2] == "/"  # 0302's south edge, below the middle of its cell
    assert any(line.startswith("hexsides: / River") for line in lines)
