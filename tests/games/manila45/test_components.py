"""Manila '45 components: the map agrees with every hex the rules name; counters, CRT, track."""

from __future__ import annotations

from pathlib import Path

from tabletop.core.board.hexgrid import Hex, distance
from tabletop.games.manila45 import common as c
from tabletop.games.manila45.components import DATA_DIR, components
from tools.manila45_map import render_yaml


def hx(hid: str) -> Hex:
    """The hex of a Manila '45 hex id."""
    return components().hexmap.hex(hid)


def test_map_file_is_the_mapmaker_output() -> None:
    """2.2: map.yaml is exactly what tools/manila45_map.py writes (edit the maker, not the file)."""
    assert (Path(DATA_DIR) / "map.yaml").read_text(encoding="utf-8") == render_yaml()


def test_named_heavy_structures() -> None:
    """2.2: Fort McKinley is in 1812 and the Psychopathic Hospital in 2119, heavy structures."""
    hm = components().hexmap
    assert hm.terrain(hx("1812")) == "heavy" and hm.hex_name(hx("1812")) == "Fort McKinley"
    assert hm.terrain(hx("2119")) == "heavy" and hm.hex_name(hx("2119")) == "Psychopathic Hospital"


def test_map_edges_named_in_3_2() -> None:
    """3.2: 3401, 1613, 3532 are map-edge hexes; 3402, 1712, 3531 are next to the edge."""
    hm = components().hexmap
    for edge in ("3401", "1613", "3532", "1900", "4233", "2532"):
        assert hm.edge_distance(hx(edge)) == 0, edge
    for second in ("3402", "1712", "3531"):
        assert hm.edge_distance(hx(second)) == 1, second


def test_entry_edges_3_4() -> None:
    """3.4: the south entry edge runs 3401-1900, the north 2532-4233, all land."""
    from tabletop.games.manila45.movement import entry_hexes

    south, north = entry_hexes("11ab"), entry_hexes("37id")
    assert "3401" in south and "1900" in south and len(south) == 16
    assert "2532" in north and "4233" in north and len(north) == 18
    assert all(components().hexmap.edge_distance(hx(h)) == 0 for h in south + north)


def test_north_west_region_4_3() -> None:
    """4.3: 2623, 2923, 3522, 4123, 4131, 2830, 3526 are north of the Pasig and west of the
    San Juan; Intramuros and the Psychopathic Hospital are not."""
    for h in ("2623", "2923", "3522", "4123", "4131", "2830", "3526"):
        assert c.is_north_west(h), h
    for h in ("3822", "2119", "1812", "2523"):
        assert not c.is_north_west(h), h


def test_range_and_opposite_hexes_10_6_10_22() -> None:
    """10.6: 2202 to 2206 is range 4; 10.22: 3227 and 3229 are directly opposite around 3228."""
    assert distance(hx("2202"), hx("2206")) == 4
    t, a, b = hx("3228"), hx("3227"), hx("3229")
    assert distance(t, a) == distance(t, b) == 1 and (a.q + b.q, a.r + b.r) == (2 * t.q, 2 * t.r)


def test_intramuros_wall_10_9() -> None:
    """10.9: 3821, 3822, 3921, 3922 are inside the wall; every hexside between them and the
    rest is a wall hexside."""
    hm = components().hexmap
    inside = {"3821", "3822", "3921", "3922"}
    assert {h for h in ("3821", "3822", "3921", "3922", "3720", "4022") if c.inside_wall(h)} == inside
    for h in inside:
        for n in components().hexmap.neighbor_ids(h):
            assert ("wall" in hm.hexside_features(hx(h), hx(n))) == (n not in inside)


def test_contour_10_10() -> None:
    """10.10: 1805, 1812, 2120, 1723, 1633 and 1924 are behind a 100 m contour; 2224 is below."""
    for h in ("1805", "1812", "2120", "1723", "1633", "1924"):
        assert c.on_plateau_hex(h), h
    assert not c.on_plateau_hex("2224") and not c.on_plateau_hex("3822")


def test_rivers_and_bridges_8_7() -> None:
    """8.7: the Pasig is a major river crossed by four printed bridges in the city; the San
    Juan is a minor river."""
    hm = components().hexmap
    pasig_bridges = [s for s in hm.hexsides_with("bridge")
                     if "major_river" in hm.hexside_features(s.a, s.b)]
    assert len(pasig_bridges) == 4
    assert "major_river" in components().hexmap.id_hexside_features("3822", "3823")
    assert "minor_river" in components().hexmap.id_hexside_features("2523", "2623")


def test_counter_mix_2_4() -> None:
    """2.4-2.12: 146 unit counters and markers; six air units fire 10; the 450th rocket is
    indirect fire capable (errata); 672nd amtracs and three bridging engineers in XIV Corps."""
    comp = components()
    assert len(comp.counters) + sum(m.count for m in comp.markers) == 146
    air = [x for x in comp.counters.values() if x.has("air")]
    assert len(air) == 6 and {x.fire for x in air} == {10}
    assert comp.counters["j-450"].has("ifc")
    assert comp.counters["x-672"].has("amtrac") and comp.counters["x-672"].org == "xiv"
    assert sorted(x.name for x in comp.counters.values() if x.has("bridging")) == \
        ["117 Eng", "532 Eng", "556 Eng"]
    assert comp.counters["x-82c"].name == "82C"
    assert len(comp.turn_track.boxes) == 10 and comp.turn_track.boxes[0] == "3-5 Feb"
    assert comp.turn_track.boxes[2] == "9-11 Feb" and comp.turn_track.boxes[9] == "2-4 Mar"


def test_2_5_2_11_counter_faces() -> None:
    """2.5: every combat unit shows its side, identification, type, size, fire factor and
    range; 2.6 US units belong to one of the three divisions or XIV Corps, Japanese units are
    mobile or static; 2.7 identifications are numbers and/or the listed abbreviations, static
    artillery named by calibre; 2.8 sizes II (battalion) or I (company, battery), none for the
    air units; 2.10 every unit has a type, armored or not; 2.11 the special characteristics
    are those of the types (indirect fire, close assault, anti-armor)."""
    import re

    comp = components()
    abbreviations = {"CF", "EF", "HQ", "HQS", "Ind", "IS", "K", "KS", "NF", "NP", "NS", "P",
                     "SF", "SP", "SS", "T", "TS", "82C"}
    spelled = {"Kempei": "K", "Toshio": "T", "Prov": "P"}
    for x in comp.counters.values():
        assert x.name and x.fire >= 1 and x.range >= 0 and x.type in comp.types  # 2.5, 2.10
        if x.side == "US":
            assert x.org in ("1cav", "37id", "11ab", "xiv")  # 2.6
        else:
            assert x.org in ("mobile", "static")  # 2.6, 2.9
        if x.has("air"):
            assert x.size == "-" and x.range == 0  # 2.8: sorties, no unit size
        else:
            assert x.size in ("II", "I")  # 2.8
        tokens = x.name.split()
        if x.side == "Japan" and x.org == "static":
            assert re.fullmatch(r"\d+(\.\d+)?(mm|cm)", tokens[0]), x.name  # 2.7 Note
        elif x.side == "Japan":
            assert any(t.isdigit() or t in abbreviations or t in spelled for t in tokens), x.name
        spec = comp.types[x.type]
        assert x.has("armored") == spec.armored or x.id in ("j-450",)  # 2.10
    flags = {f for x in comp.counters.values() for f in x.flags}
    assert {"ifc", "cac", "anti_armor", "armored"} <= flags  # 2.11, 2.10
    assert comp.counters["c-1-5"].has("cac") and comp.counters["x-465fa"].has("ifc")
    assert comp.counters["x-44tk"].has("anti_armor") and not comp.counters["c-1-5"].has("ifc")


def test_crt_errata() -> None:
    """10.3, Mapsheet Errata: columns from <=9 to >=50, results E and -."""
    crt = components().crt
    assert str(crt.columns[0]).startswith("<=") and "9" in str(crt.columns[0])
    assert str(crt.columns[-1]).startswith(">=") and "50" in str(crt.columns[-1])
    assert crt.lookup(5, 1) == "E" and crt.lookup(5, 2) == "-"
    assert crt.lookup(200, 6, modifier=+5) == "-" and crt.lookup(200, 6, modifier=+4) == "E"
    for k in range(10):  # ours: E at a modified roll up to the column's place
        strength = 9 + 5 * k
        assert crt.lookup(strength, 1, modifier=k) == "E"
        assert crt.lookup(strength, 1, modifier=k + 1) == "-"
    assert crt.lookup(60, 1, modifier=+10) == "-" and crt.lookup(3, 6, modifier=-9) == "E"
    assert set(crt.odds(30)) <= {"E", "-"}
