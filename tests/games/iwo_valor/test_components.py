"""The reconstructed components (II): the map agrees with every hex the rules name, the
200-piece sheet, the tables and charts; bad data is refused with one clear message."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tabletop.core.engine.errors import DataError
from tabletop.games.iwo_valor import common as c
from tabletop.games.iwo_valor.components import DATA_DIR, load_components
from tools import iwo_valor_map

COMP = c.components()


def test_map_is_drawn_by_its_builder() -> None:
    """II.B: data/map.yaml is exactly what tools/iwo_valor_map.py draws (so the drawing can
    be redone)."""
    built = yaml.safe_load(yaml.safe_dump(iwo_valor_map.build(), sort_keys=False))
    assert yaml.safe_load((DATA_DIR / "map.yaml").read_text(encoding="utf-8")) == built


def test_named_hexes_II_B_V_J_VIII_E_IV_G_XI_C() -> None:
    """V.J, VIII.E, IV.G, XI.C: every hex the rules name is land with the role they give it."""
    assert c.attr("0304", "level") == 3  # VIII.E the summit
    for hid in ("2732", "2733", "2831", "2832"):  # V.J
        assert c.is_land(hid) and c.attr(hid, "area") == "N"
    for n, ends in ((1, ("2420", "0725")), (2, ("2826", "0829"))):  # IV.G.1-2
        for hid in ends:
            assert c.attr(hid, "line") == n and c.attr(hid, "position") in (2, 3)
    assert c.attr("0629", "belt") == 2  # IV.G.2 "including ... 0629"
    for hid in ("0816", "0818", "1019"):  # XI.C
        assert c.attr(hid, "deploy") == "S"
    for hid in ("0305", "0403", "0506"):
        assert c.attr(hid, "deploy") == "Sr"
    assert c.attr("1220", "area") not in ("S", "E")  # XI.C "plus (after turn 7) hex 1220"


def test_three_southernmost_S_units_XI_C() -> None:
    """XI.C: 0816, 0818 and 1019 are the three southernmost Southern deployment hexes."""
    south = sorted(COMP.hexes_where("deploy", "S"), key=lambda h: iwo_valor_map.uv(COMP.map.hex(h))[0])
    assert set(south[:3]) == {"0816", "0818", "1019"}


def test_deployment_in_depth_III_3_IV_G() -> None:
    """III.3, IV.G: the reconstructed deployment - Suribachi's garrison on the cone (the Very
    Short Game's three hexes among it), the Reserve's R hexes north of the Second Line, every
    First Line position held, and only a handful of units between the lines besides those on
    the Second Line (IV.G.2 counts them every turn from turn 7; in the East only Hill 382 and
    Turkey Knob, XI.C's Narrow Game): 13 in or south of the First Line, 12 more in or south
    of the Second, 31 north of it."""
    deploy = {code: COMP.hexes_where("deploy", code) for code in ("Sr", "S", "W", "E", "N", "R")}
    assert all(c.attr(h, "belt") == 1 and c.attr(h, "area") == "Sr" for h in deploy["Sr"])
    assert all(c.attr(h, "belt") == 3 for h in deploy["R"])
    held = [h for hs in deploy.values() for h in hs]
    line1 = [h for h in COMP.hexes_where("line", 1) if c.attr(h, "position")]
    assert line1 and all(h in held for h in line1)
    between = [h for h in held if c.attr(h, "belt") == 2 and c.attr(h, "line") != 2 and h != "0629"]
    assert "0629" in held and 1 <= len(between) <= 10
    assert len([h for h in between if c.attr(h, "area") == "E"]) == 2
    assert [sum(1 for h in held if c.attr(h, "belt") == b) for b in (1, 2, 3)] == [13, 12, 31]


def test_beaches_and_waves_III_4() -> None:
    """III.4: each beach has 17 beach hexes (33 units in two waves no larger than the beach)
    and a Second Wave hex next to each; both beaches on their own coasts."""
    for beach in ("minami", "nishi"):
        hexes = COMP.hexes_where("beach", beach)
        waves = COMP.hexes_where("second_wave", beach)
        assert len(hexes) == 17 and len(waves) == 17
        for w in waves:
            assert not c.is_land(w)
            assert any(c.attr(i, "beach") == beach for i in COMP.map.neighbor_ids(w) if c.is_land(i))
    assert 2 * 17 >= sum(1 for u in COMP.marines if u.entry == 1) == 33


def test_areas_and_deployment_III_3() -> None:
    """III.3: six codes; one Japanese unit per deployment hex of its code; R hexes only for R."""
    for code in ("Sr", "S", "W", "E", "N", "R"):
        assert len(COMP.hexes_where("deploy", code)) == sum(1 for u in COMP.sheet.japanese if u.code == code)
    assert all(2 <= len(u.strengths) <= 4 for u in COMP.sheet.japanese)  # II.C


def test_counter_sheet_II_A_II_C() -> None:
    """Part II, II.A, II.C: 200 pieces; every company of the 4th, 5th and 3rd Divisions (no 3rd
    Marines), nine tank companies, three HQs of one step, Marine units of three steps."""
    infantry = [u for u in COMP.marines if u.kind == "infantry"]
    assert len(infantry) == 72
    assert {u.regiment for u in infantry} == {"23", "24", "25", "26", "27", "28", "21", "9"}
    assert all(u.steps == 3 for u in COMP.marines if u.kind != "hq")
    assert [u.steps for u in COMP.marines if u.kind == "hq"] == [1, 1, 1]
    assert {u.id for u in COMP.marines if u.kind == "armour"} >= {"A/4TK", "C/4TK", "A/5TK", "C/5TK"}
    total = len(COMP.marines) + len(COMP.sheet.japanese) + sum(n for _, n in COMP.sheet.markers.values()) \
        + len(COMP.regiments())
    assert total == 200


def test_marine_attack_table_IV_D_5_VIII_B() -> None:
    """IV.D.5, VIII.B: a roll of 4 or less is always "A"; higher class rows are harder."""
    mat = COMP.mat
    for line in ("class_1", "class_2", "class_3"):
        for s in range(1, 11):
            for roll in (2, 3, 4):
                assert mat.lookup(s, roll, line=line) == "A"
    assert mat.odds(6, line="class_1").get("A") == mat.odds(6, line="class_3").get("A")

    def hits(line: str) -> float:  # the mean steps a strength-6 attack takes off
        return float(sum(int(r) * p for r, p in mat.odds(6, line=line).items() if r not in "A-"))
    assert hits("class_1") > hits("class_2") > hits("class_3")


def test_japanese_attack_table_IX() -> None:
    """IX.A.3, IX.C.3: strengths 1-10 on both rows; results are Marine step losses."""
    for row in ("OF/CP", "Reg/Art"):
        for s in range(1, 11):
            assert set(COMP.jat.odds(s, line=row)) <= {"-", "1", "2"}


def test_tracks_and_charts_I() -> None:
    """I, IV.A.2: the Game Turn Track covers 35 turns; withdrawals come after turn 22 only."""
    gtt = COMP.tracks.game_turn_track
    assert gtt.last_turn == 35
    assert all(w.turn > 22 for w in gtt.withdrawals)
    assert next(r.level for r in COMP.tracks.line_of_departure_schedule) == "MARINE DECISIVE VICTORY"


def test_bad_data_is_refused(tmp_path: Path) -> None:
    """Data: a broken counter sheet is refused with the file and what was expected."""
    for name in ("map.yaml", "tracks.yaml", "mat.yaml", "jat.yaml", "sequence.yaml", "scenarios.yaml"):
        (tmp_path / name).write_text((DATA_DIR / name).read_text(encoding="utf-8"), encoding="utf-8")
    text = (DATA_DIR / "counters.yaml").read_text(encoding="utf-8").replace('code: Sr', 'code: N', 1)
    (tmp_path / "counters.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=r"counters\.yaml.*deployment"):
        load_components(tmp_path)


def test_scenario_turns_and_set_ups_XI() -> None:
    """XI.A-C, III.4: what scenarios.yaml holds is what the rulebook says: the Line of
    Departure is turns 1-6, the Sands 1-14, the Narrow Game starts on turn 4 with the 4th
    Division in the Southern and Eastern areas, the Very Short Game on turn 2 with the 28th
    Marines; the battle is 35 turns; the Marines choose between the Minami and Nishi beaches."""
    scen = COMP.scenarios
    turns = {name: (scen.turns.of(name).first, scen.turns.of(name).last)
             for name in (c.FULL, c.LOD, c.SANDS, c.NARROW, c.VERY_SHORT)}
    assert turns == {c.FULL: (1, 35), c.LOD: (1, 6), c.SANDS: (1, 14), c.NARROW: (4, 35),
                     c.VERY_SHORT: (2, 35)}
    assert (scen.narrow.division, scen.narrow.areas, scen.narrow.extra) == ("4", ("S", "E"), "1220")
    assert (scen.very_short.regiment, scen.very_short.centre) == ("28", "0709")
    assert list(scen.beaches) == ["minami", "nishi"]
    with pytest.raises(KeyError):
        scen.turns.of("model_fields")


@pytest.mark.parametrize(("old", "new", "said"), [
    ("  narrow: {first: 4, last: 35}", "  narrow: {first: 4, last: 36}",
     r"scenarios\.yaml: turns\.narrow\.last: .*less than or equal to 35"),
    ("  line_of_departure: {first: 1, last: 6}", "  line_of_departure: {first: 7, last: 6}",
     r"scenarios\.yaml: turns\.line_of_departure: .*the first turn 7 comes after the last 6"),
    ('    D/312: "0305"', '    D/312: "0709"',
     r"map\.yaml: hex 0709 must be a Suribachi deployment hex \(XI\.C, "
     r".*scenarios\.yaml: very_short\.units\)"),
    ('    D/312: "0305"', '    X/999: "0305"',
     r"scenarios\.yaml: very_short\.units\.X/999: not a Japanese unit of .*counters\.yaml"),
    ('  centre: "0709"', '  centre: "0101"',
     r"scenarios\.yaml: very_short\.centre: hex 0101 must be a land hex of the map"),
    ('  division: "4"', '  division: "6"',
     r"scenarios\.yaml: narrow\.division: '6' is not a division of .*counters\.yaml"),
    ('    - ["5", "28", "2"]\n', "",
     r"counters\.yaml: the units marked '1' must be exactly those III\.4 lists "
     r"\(.*scenarios\.yaml: first_wave\)"),
    ("  nishi: West beach (Nishi)", "  kita: North beach",
     r"scenarios\.yaml: beaches: must name both beaches, minami and nishi"),
])
def test_bad_scenarios_are_refused_in_one_line(tmp_path: Path, old: str, new: str, said: str) -> None:
    """XI, III.4: a scenario that ends after the Game Turn Track or before it starts, a Very
    Short Game unit off Suribachi or not on the sheet, a set-up hex off the island, a
    division or a first wave the sheet does not have, a beach the map does not have: each is
    refused with one line naming the file and the field."""
    for path in DATA_DIR.glob("*.yaml"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    text = (DATA_DIR / "scenarios.yaml").read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "scenarios.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError, match=said) as refused:
        load_components(tmp_path)
    assert "\n" not in str(refused.value)
