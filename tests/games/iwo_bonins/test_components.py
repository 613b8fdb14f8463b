"""The printed components of Iwo: Bloodbath in the Bonins agree with every statement of its rulebook.

Each test names the rule section it checks in its docstring. The data is reconstructed
(docs/games/iwo_bonins.md); these tests pin down what the rulebook requires of it.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from tabletop.core.board.hexgrid import Hex, distance
from tabletop.core.engine.errors import DataError
from tabletop.core.engine.tables import dice_totals
from tabletop.games.iwo_bonins.components import (
    BEACHES,
    DATA_DIR,
    NUMBERED_SECTORS,
    SURIBACHI,
    Components,
    load_components,
    outcome_for,
    parse_outcome,
)


@pytest.fixture(scope="module")
def comps() -> Components:
    """The game's components, loaded once for the module."""
    return load_components()


def land(c: Components) -> list[str]:
    """The printed ids of every land hex."""
    return list(c.hex_attrs)


def hx(c: Components, hid: str) -> Hex:
    """The hex of a printed id."""
    return c.map.hex(hid)


def column(hid: str) -> int:
    """The printed column of a hex id."""
    return int(hid[:2])


# --- 2.0, 2.3, 3.4, 3.5: the counter sheet ----------------------------------------------------


def test_sheet_holds_100_counters(comps: Components) -> None:
    """2.0: each game includes 100 counters."""
    assert comps.counters.total() == 100


def test_us_divisions_set_up_in_their_boxes(comps: Components) -> None:
    """3.4: the 26 counters of the 4th and 5th Marine Divisions start Available for Landing,
    the 13 of the 3rd in the US Reserves box."""
    us = comps.counters.of_side("US")
    by_division = Counter(u.division for u in us)
    assert by_division == {3: 13, 4: 13, 5: 13}
    assert {u.setup for u in us if u.division in (4, 5)} == {"us_available"}
    assert {u.setup for u in us if u.division == 3} == {"us_reserves"}


def test_each_division_has_nine_battalions_three_regiments_a_tank_battalion(
        comps: Components) -> None:
    """3.4, 11.4, 12.0, 20.0: each division is three regiments of three Marine battalions, a
    tank battalion and three flamethrower support units (13 counters)."""
    sheet = comps.counters
    for division in (3, 4, 5):
        units = [u for u in sheet.of_side("US") if u.division == division]
        types = Counter(sheet.profile_of(u).type for u in units)
        assert types == {"marine": 9, "flamethrower": 3, "armor": 1}
        regiments = Counter(u.regiment for u in units if sheet.profile_of(u).type == "marine")
        assert len(regiments) == 3 and set(regiments.values()) == {3}


def test_us_battalion_ids_are_battalion_slash_regiment(comps: Components) -> None:
    """2.3.1: a slashed identifier is the battalion number, then the regiment (e.g. 1/23)."""
    sheet = comps.counters
    for u in sheet.of_type("marine"):
        bn, reg = u.id.split("/")
        assert bn in {"1", "2", "3"} and int(reg) == u.regiment
    assert {"1/23", "2/28", "3/21"} <= {u.id for u in sheet.counters}


def test_us_steps_and_support_units(comps: Components) -> None:
    """2.3, 12.1: Marine battalions have two steps, the back weaker; support units
    (flamethrowers and tanks, the coloured band) have one."""
    sheet = comps.counters
    for u in sheet.of_side("US"):
        p = sheet.profile_of(u)
        if p.type == "marine":
            assert p.steps == 2 and not p.support and p.back is not None
            assert p.back.attack < p.front.attack and p.back.defense < p.front.defense
        else:
            assert p.steps == 1 and p.support


def test_us_movement_halves_to_three_in_storms(comps: Components) -> None:
    """5.1.1, 5.1.7c: Storm turns halve MAs, leaving three movement points: every US MA is 6."""
    sheet = comps.counters
    for u in sheet.of_side("US"):
        p = sheet.profile_of(u)
        assert p.front.movement == 6
        assert p.back is None or p.back.movement == 6


def test_tf_collins_is_on_the_back_of_every_tank_battalion(comps: Components) -> None:
    """12.4: any one tank battalion flips to its TF Collins side; TF Collins is a one-step
    support unit stronger than one battalion's tanks."""
    sheet = comps.counters
    tanks = sheet.of_type("armor")
    us_tanks = [t for t in tanks if sheet.profile_of(t).side == "US"]
    assert len(us_tanks) == 3
    for t in us_tanks:
        assert t.back == "tf_collins"
    collins = sheet.profiles["tf_collins"]
    assert collins.steps == 1 and collins.support
    assert collins.front.attack > sheet.profile_of(us_tanks[0]).front.attack


def test_markers(comps: Components) -> None:
    """3.1, 3.5, 17.0: 11 bombardment markers printed on both sides, the Flag, the Turn
    marker with a Clear side."""
    markers = {m.id: m for m in comps.counters.markers}
    assert markers["bombardment"].count == 11 and markers["bombardment"].back
    assert markers["flag"].count == 1 and markers["flag"].setup == "set_aside"
    assert markers["turn"].count == 1 and markers["turn"].front == "Clear"
    assert markers["turn"].back == "Storm" and markers["turn"].setup == "turn_track"


def test_japanese_units_fill_the_rest_of_the_sheet(comps: Components) -> None:
    """2.0, 3.4, 3.5, 17.0: 100 - 39 US - 11 bombardment - Flag - Turn = 48 Japanese units."""
    assert len(comps.counters.of_side("Japan")) == 100 - 39 - 11 - 1 - 1


def test_japanese_units_are_one_step_of_the_rulebooks_types(comps: Components) -> None:
    """2.3, 2.3.1: all Japanese units have one step; their types are AA, AT, Armor, Artillery,
    Construction, Engineer, HQ and Infantry, every one of them on the sheet."""
    sheet = comps.counters
    japanese = sheet.of_side("Japan")
    assert {sheet.profile_of(u).type for u in japanese} == {
        "anti_aircraft", "anti_tank", "armor", "artillery", "construction", "engineer", "hq",
        "infantry"}
    assert all(sheet.profile_of(u).steps == 1 for u in japanese)
    assert {sheet.profile_of(u).size for u in sheet.counters} <= {"I", "II"}


def test_japanese_order_of_battle(comps: Components) -> None:
    """20.0: the 2nd Mixed Brigade's IIBs 309-312 and 314, the 145th's three battalions, 3/17,
    the 26th Tank Regiment, two MG battalions, three mortar battalions, five anti-tank
    battalions, rockets, AA, and the Navy's AA, coastal and air group guard forces."""
    sheet = comps.counters
    ids = {u.id for u in sheet.of_side("Japan")}
    assert {"309", "310", "311", "312", "314", "1/145", "2/145", "3/145", "3/17"} <= ids
    names = " ".join(u.name for u in sheet.of_side("Japan"))
    assert names.count("Mortar battalion") == 3 and names.count("Anti-tank battalion") == 5
    assert "Machine Gun" in names and "rocket" in names and "26th Tank Regiment" in names
    navy = Counter(sheet.profile_of(u).type for u in sheet.of_side("Japan")
                   if u.formation == "IJN")
    assert navy["anti_aircraft"] >= 1 and navy["artillery"] >= 1 and navy["infantry"] >= 1
    assert navy["construction"] >= 1


def test_zero_attack_and_zero_movement_units_exist(comps: Components) -> None:
    """14.3: some units have a zero attack factor, some a zero movement factor."""
    sheet = comps.counters
    japanese = [sheet.profile_of(u) for u in sheet.of_side("Japan")]
    assert any(p.front.attack == 0 for p in japanese)
    assert any(p.front.movement == 0 for p in japanese)
    assert any(p.front.attack > 0 and p.front.movement > 0 for p in japanese)  # Banzai, 15.5


def test_anti_tank_fire_is_a_real_chance(comps: Components) -> None:
    """12.3: a tank's factor is lost on a 1d6 roll at most the AT or AA unit's attack factor,
    so those factors lie between 1 and 5."""
    sheet = comps.counters
    for u in sheet.of_type("anti_tank", "anti_aircraft"):
        assert 1 <= sheet.profile_of(u).front.attack <= 5, u.id


def test_enough_hq_and_artillery_for_the_bombardment_track(comps: Components) -> None:
    """16.1, 18.1: at least ten HQ and artillery units (the track's maximum), at least six of
    them (one per sector 1-5 and Suribachi); AA and AT are not artillery."""
    fire_support = comps.counters.of_type("hq", "artillery")
    assert len(fire_support) >= 10
    assert not any(comps.counters.profile_of(u).type in {"anti_aircraft", "anti_tank"}
                   for u in fire_support)


# --- 2.1, 2.4: the map --------------------------------------------------------------------------


def test_island_size_and_scale(comps: Components) -> None:
    """2.4: at 350 yards a hex the island (about 7.6 km by 4 km, 21 km²) spans about 27
    columns and 13 rows, about 235 hexes, with sea all round it."""
    ids = land(comps)
    columns = {column(h) for h in ids}
    assert min(columns) == 2 and max(columns) == 29
    widest = max(Counter(column(h) for h in ids).values())
    assert 11 <= widest <= 14
    hex_km2 = (350 * 0.9144 / 1000) ** 2 * 3**0.5 / 2
    assert 18 <= len(ids) * hex_km2 <= 24
    m = comps.map
    for h in m.hexes():
        if m.grid.is_edge(h):
            assert m.is_prohibited(h), f"map edge hex {m.label(h)} should be sea"


def test_sweep_hexes_before_suribachi_falls(comps: Components) -> None:
    """16.2: the check starts at 2915 and moves to lower-numbered hexes: 2914, 2913, 2815,
    2814. They are the first five land hexes in descending order, near the beaches."""
    ids = sorted(land(comps), reverse=True)
    assert ids[:5] == ["2915", "2914", "2913", "2815", "2814"]
    for hid in ids[:5]:
        nearest = min(distance(hx(comps, hid), hx(comps, b))
                      for b in comps.hexes_where(beach_set="east"))
        assert nearest <= 4


def test_sweep_hexes_after_suribachi_falls(comps: Components) -> None:
    """16.2: after Suribachi falls the check starts at 0213, at the far north end, and moves
    toward higher-numbered hexes: 0213 is the lowest-numbered land hex, at the far end from
    Suribachi."""
    ids = sorted(land(comps))
    assert ids[0] == "0213"
    peak = hx(comps, "2714")
    farthest = max(distance(peak, hx(comps, h)) for h in ids)
    assert distance(peak, hx(comps, "0213")) >= farthest - 1


def test_suribachi_five_hexes_and_eleven_adjacent(comps: Components) -> None:
    """17.0: the five Suribachi hexes and the eleven hexes adjacent to them form a separate,
    unnumbered sector; Suribachi's five are deployment hexes; none may be redeployed to."""
    cone = comps.suribachi_hexes()
    assert len(cone) == 5
    ring = {n for h in cone for n in comps.map.neighbors(h)} - set(cone)
    assert len(ring) == 11
    assert all(not comps.map.is_prohibited(h) for h in ring)
    sector = {hx(comps, h) for h in comps.hexes_where(sector=SURIBACHI)}
    assert sector == set(cone) | ring
    assert {comps.map.label(h) for h in cone} == set(comps.hexes_where(sector=SURIBACHI,
                                                                       deploy="initial"))
    assert not comps.hexes_where(sector=SURIBACHI, deploy="redeploy")


def test_suribachi_is_the_south_west_tip(comps: Components) -> None:
    """2.1, 17.0: Mount Suribachi is the mountain at the island's tip, beyond a narrow neck."""
    cone = [comps.map.label(h) for h in comps.suribachi_hexes()]
    assert all(comps.map.terrain(hx(comps, h)) == "mountain" for h in cone)
    assert min(column(h) for h in cone) >= 27
    widths = Counter(column(h) for h in land(comps))
    assert min(widths[c] for c in range(22, 27)) <= 3  # the neck


def test_six_numbered_sectors(comps: Components) -> None:
    """13.0: six numbered sectors, each with deployment and redeployment hexes (14.5, 15.3);
    every land hex lies in a sector, numbered or Suribachi's."""
    sectors = {a.sector for a in comps.hex_attrs.values()}
    assert sectors == {*NUMBERED_SECTORS, SURIBACHI}
    for s in NUMBERED_SECTORS:
        assert comps.hexes_where(sector=s, deploy="initial"), s
        assert comps.hexes_where(sector=s, deploy="redeploy"), s


def test_one_initial_deployment_hex_per_japanese_unit(comps: Components) -> None:
    """3.2: place one unit on each initial deployment hex."""
    assert len(comps.hexes_where(deploy="initial")) == len(comps.counters.of_side("Japan"))


def test_every_sector_has_a_hill_the_japanese_can_hold(comps: Components) -> None:
    """14.5, 16.3: each numbered sector has a hill hex that is a deployment or redeployment
    hex, so a Japanese-occupied hill can lessen the bombardment there."""
    for s in NUMBERED_SECTORS:
        hills = [h for h in comps.hexes_where(sector=s)
                 if "hill" in comps.map.features(hx(comps, h))
                 and comps.hex_attrs[h].deploy is not None]
        assert hills, f"sector {s} has no hill the Japanese can hold"


def test_redeployment_hexes_can_receive_units(comps: Components) -> None:
    """14.5: a placement hex must be within two hexes of a dug-in unit: at the start every
    redeployment hex is within two hexes of an initial deployment hex of its sector."""
    for hid in comps.hexes_where(deploy="redeploy"):
        sector = comps.hex_attrs[hid].sector
        nearest = min(distance(hx(comps, hid), hx(comps, d))
                      for d in comps.hexes_where(sector=sector, deploy="initial"))
        assert nearest <= 2, hid


def test_deployment_hexes_are_on_placement_terrain(comps: Components) -> None:
    """14.5: units are placed by the priority Hill, Ravine, Mountain, Mine, Rough, Broken,
    Clear: no deployment hex is a beach or sea hex."""
    for hid, a in comps.hex_attrs.items():
        if a.deploy is not None:
            assert comps.map.terrain(hx(comps, hid)) in {
                "clear", "broken", "rough", "mine", "mountain", "ravine"}, hid


def test_two_player_deployment_is_possible(comps: Components) -> None:
    """18.1: tanks only off mountains, ravines and mines, and at least one HQ or artillery
    unit in each of sectors 1-5 and Suribachi: a legal deployment exists."""
    sheet, m = comps.counters, comps.map
    free = set(comps.hexes_where(deploy="initial"))
    fire_support = sheet.of_type("hq", "artillery")
    for sector in (1, 2, 3, 4, 5, SURIBACHI):
        hexes = sorted(free & set(comps.hexes_where(sector=sector)))
        assert hexes and fire_support, sector
        free.remove(hexes[0])
        fire_support.pop()
    tanks = [u for u in sheet.of_type("armor") if sheet.profile_of(u).side == "Japan"]
    for _ in tanks:
        ok = sorted(h for h in free
                    if m.terrain(hx(comps, h)) not in {"mountain", "ravine", "mine"})
        assert ok
        free.remove(ok[0])
    assert len(free) == len(sheet.of_side("Japan")) - 6 - len(tanks)


def test_japanese_belts(comps: Components) -> None:
    """20.0 and history: the first belt (sectors 2-3) overlaps Airfield No. 2, the second
    (sectors 4-5) takes in Airfield No. 3."""
    def near(sectors: tuple[int, ...], feature: str) -> bool:
        field = comps.map.hexes_with(feature)
        deploys = [hx(comps, h) for s in sectors for h in comps.hexes_where(sector=s,
                                                                          deploy="initial")]
        return any(distance(d, f) <= 1 for d in deploys for f in field)
    assert near((2, 3), "airfield_2") and near((4, 5), "airfield_3")


def test_beach_sets_and_colours(comps: Components) -> None:
    """3.3, 11.2: two sets of beaches, east and west, each of four colour-coded beaches of
    two beach hexes (two units a beach, one a hex, up to eight a phase), on the coast."""
    for beach_set, colours in BEACHES.items():
        hexes = comps.hexes_where(beach_set=beach_set)
        assert len(colours) * 2 == len(hexes) == 8
        for colour in colours:
            assert len(comps.hexes_where(beach=colour)) == 2
        for h in hexes:
            assert any(comps.map.is_prohibited(n) for n in comps.map.neighbors(hx(comps, h)))


def test_east_beaches_run_from_suribachi(comps: Components) -> None:
    """3.3 and history: Green, Red, Yellow, Blue in order from Suribachi north-east along the
    south-east coast; the west beaches face them across the neck."""
    for colours in BEACHES.values():
        mean_columns = [sum(column(h) for h in comps.hexes_where(beach=c)) / 2 for c in colours]
        assert mean_columns == sorted(mean_columns, reverse=True)
    for east, west in zip(BEACHES["east"], BEACHES["west"], strict=True):
        e, w = comps.hexes_where(beach=east), comps.hexes_where(beach=west)
        assert max(int(h[2:]) for h in e) < min(int(h[2:]) for h in w)


def test_staging_boxes(comps: Components) -> None:
    """11.2: two staging boxes for each colour-coded beach, one unit each."""
    boxes = comps.map.boxes
    for colours in BEACHES.values():
        for colour in colours:
            staged = [b for b in boxes.values() if b.id.startswith(f"staging_{colour}_")]
            assert len(staged) == 2 and all(b.capacity == 1 for b in staged)


def test_holding_boxes(comps: Components) -> None:
    """3.4, 4.3, 11.1, 14.1: Available for Landing, US Reserves, Eliminated Units, and the
    Japanese units' opaque container, drawn from blindly."""
    boxes = comps.map.boxes
    assert {"us_available", "us_reserves", "us_eliminated", "jp_container"} <= set(boxes)
    assert boxes["jp_container"].blind and not boxes["us_available"].blind


def test_airfields(comps: Components) -> None:
    """8.1 and history: Airfield No. 1 inland of the Red and Yellow beaches, No. 2 in the
    middle of the island, No. 3 beyond it to the north (toward 0213)."""
    m = comps.map
    a1, a2, a3 = (m.hexes_with(f"airfield_{n}") for n in (1, 2, 3))
    assert a1 and a2 and a3
    red_yellow = [hx(comps, h) for c in ("red", "yellow") for h in comps.hexes_where(beach=c)]
    for h in a1:
        assert min(distance(h, b) for b in red_yellow) <= 4
        assert m.attr(h, "beach") is None
    cols = {n: [column(m.label(h)) for h in f] for n, f in ((1, a1), (2, a2), (3, a3))}
    assert max(cols[3]) < min(cols[2]) and max(cols[2]) < min(cols[1])
    assert min(cols[2]) >= 10 and max(cols[2]) <= 20


# --- 6.4, 9.1: terrain key and combat tables ---------------------------------------------------


def test_terrain_effects_on_movement(comps: Components) -> None:
    """6.4: 1 MP clear or beach, 2 MP broken, 3 MP rough, ravine, mountain or mine; US tanks
    may not enter ravine, mountain or mine hexes but may enter rough; sea is prohibited."""
    t = comps.terrain.terrain
    assert {n: e.mp for n, e in t.items()} == {
        "clear": 1, "beach": 1, "broken": 2, "rough": 3, "ravine": 3, "mountain": 3,
        "mine": 3, "sea": None}
    assert t["rough"].tanks_enter and not any(t[n].tanks_enter
                                              for n in ("ravine", "mountain", "mine"))
    assert comps.map.terrain_types["sea"].prohibited


def test_tanks_may_not_attack_into_ravine_mountain_mine(comps: Components) -> None:
    """9.0, 12.3: US tank units may not attack defenders in ravine or mountain/mine hexes."""
    t = comps.terrain.terrain
    assert not any(t[n].tanks_attack for n in ("ravine", "mountain", "mine"))
    assert all(t[n].tanks_attack for n in ("clear", "beach", "broken", "rough"))


def test_placement_priority(comps: Components) -> None:
    """14.5: priority Hill, Ravine, Mountain, Mine, Rough, Broken, Clear."""
    key = comps.terrain
    order = sorted([(key.features["hill"].placement, "hill")] + [
        (e.placement, n) for n, e in key.terrain.items() if e.placement is not None])
    assert [n for _, n in order] == ["hill", "ravine", "mountain", "mine", "rough", "broken",
                                     "clear"]


def test_crt_has_a_line_for_every_terrain(comps: Components) -> None:
    """9.1b: the CRT line matches the terrain of the defender's hex, hills included."""
    crt = comps.tables["crt"]
    assert crt.dice == (1, 6) and crt.section == "9.1"
    for name, eff in comps.terrain.terrain.items():
        if eff.mp is not None:
            assert eff.crt_line in crt.lines, name
    assert comps.terrain.features["hill"].crt_line in crt.lines


def test_crt_results_are_the_rulebooks(comps: Components) -> None:
    """9.2.1: the CRT's results are De, D3, D2, Ex, A1-A3, Ae and NE, each read on the CRMT."""
    crt = comps.tables["crt"]
    assert set(crt.results or ()) == {"De", "D3", "D2", "Ex", "A1", "A2", "A3", "Ae", "NE"}
    found = {r for line in crt.lines for _, row in crt.rows(line) for r in row}
    assert found == set(crt.results or ())


def test_better_cover_never_helps_the_attacker(comps: Components) -> None:
    """9.1, 14.5: a defender's terrain shifts the attack toward the attacker's harm, in the
    order of 14.5's priority: hill >= ravine >= mountain >= mine >= rough >= broken >= clear."""
    crt = comps.tables["crt"]
    shift = {line: crt.spec.line_shifts[line].shift if line in crt.spec.line_shifts else 0
             for line in crt.lines}
    order = ["hill", "ravine", "mountain", "mine", "rough", "broken", "clear"]
    values = [shift[line] for line in order]
    assert values == sorted(values) and values[0] < 0 == shift["clear"] == shift["beach"]


def test_ordinary_attacks_read_the_middle_of_the_table(comps: Components) -> None:
    """9.1c (folio differential system): two Marine battalions each stacked with a
    flamethrower against a dug-in infantry battalion in rough terrain read neither end column;
    a lone reduced battalion against an HQ on a hill reads the worst one."""
    sheet, crt = comps.counters, comps.tables["crt"]
    marine, flame = sheet.profiles["marine"], sheet.profiles["flamethrower"]
    infantry, hq = sheet.profiles["jp_infantry"], sheet.profiles["jp_hq"]
    assert marine.back is not None
    strong = 2 * (marine.front.attack + flame.front.attack) - infantry.front.defense
    rows = dict(crt.rows("rough"))
    col = crt.column_index(strong) + crt.spec.line_shifts["rough"].shift
    assert 0 < col < len(crt.columns) - 1
    assert {r for r in (row[col] for row in rows.values())} & {"De", "D3", "D2", "Ex"}
    weak = marine.back.attack - hq.front.defense
    assert crt.lookup(weak, 1, line="hill") == "Ae"


def test_bombardment_strengths_span_the_table(comps: Components) -> None:
    """16.3, 16.4: a marker's strength is 3d6 (2d6 or 1d6 after Suribachi), read as the
    column on the target's line; 3d6 reaches the top column, 1d6 never does."""
    crt = comps.tables["crt"]
    top = len(crt.columns) - 1
    assert crt.column_index(18) == top and crt.column_index(6) < top - 1


def test_clearing_suribachi_cuts_bombardment_by_a_third(comps: Components) -> None:
    """16.3, 19.2: clearing Suribachi takes a die from each bombardment (two without a held
    hill), which cuts the Japanese bombardments by a third or better on every terrain line."""
    crt, crmt = comps.tables["crt"], comps.tables["crmt"]

    def step_loss(dice: int, line: str) -> Fraction:
        total = Fraction(0)
        for strength, p in dice_totals(dice, 6).items():
            for result, q in crt.odds(strength, line=line).items():
                cell = crmt.lookup("Bombardment", result)
                hit = sum(Fraction(b.high - b.low + 1, 6) for b in parse_outcome(cell)
                          if "(D)" in b.effects)
                total += p * q * hit
        return total

    for line in crt.lines:
        three, two, one = (step_loss(n, line) for n in (3, 2, 1))
        assert two <= three * Fraction(2, 3), line
        assert one < two, line


def test_crmt_columns_and_rows(comps: Components) -> None:
    """9.2: the CRMT crosses the CRT's results with the Regular, Dug-In and Bombardment
    columns."""
    crmt = comps.tables["crmt"]
    assert crmt.columns[:3] == ("Regular", "Dug-In", "Bombardment")
    assert {label for label, _ in crmt.rows()} == set(comps.tables["crt"].results or ())


def test_crmt_dug_in_column(comps: Components) -> None:
    """9.2.1: the Dug-In column's modifications, result by result."""
    crmt = comps.tables["crmt"]

    def at(result: str, roll: int) -> frozenset[str]:
        return outcome_for(crmt.lookup("Dug-In", result), roll).effects

    assert at("De", 1) == {"De", "AA"}
    assert all(at("D3", r) == {"De", "AA"} for r in (1, 2, 3))
    assert all(at("D3", r) == {"(A)", "DR", "AA"} for r in (4, 5, 6))
    assert all(at("D2", r) == {"De", "AA"} for r in (1, 2))
    assert all(at("D2", r) == {"(A)", "DR", "AA"} for r in (3, 4, 5, 6))
    assert all(at("Ex", r) == {"De", "(A)s"} for r in range(1, 6))
    assert at("Ex", 6) == {"(A)s", "DR"}
    for n in (1, 2, 3):
        assert at(f"A{n}", 1) == {f"A{n}", "DRIP"}
    assert at("Ae", 1) == {"Ae"} and at("NE", 1) == {"NE"}


def test_crmt_bombardment_column(comps: Components) -> None:
    """9.2.2, 16.4: bombardment results are only step losses: Ex 1-4, D3 1-3, D2 1-2 (D),
    never a retreat."""
    crmt = comps.tables["crmt"]
    hits = {}
    for label, cells in crmt.rows():
        branches = parse_outcome(cells[crmt.columns.index("Bombardment")])
        assert all(b.effects <= {"(D)", "NE"} for b in branches)
        hits[label] = sum(b.high - b.low + 1 for b in branches if "(D)" in b.effects)
    assert hits == {"De": 6, "D3": 3, "D2": 2, "Ex": 4, "NE": 0, "A1": 0, "A2": 0, "A3": 0,
                    "Ae": 0}


def test_crmt_regular_column(comps: Components) -> None:
    """9.2, 9.2.3: in Regular combat (Banzai) the Japanese unit is eliminated in every result;
    De eliminates the US units, D3 retreats them three, D2 lets the US player choose a retreat
    of two or a step loss, Ex costs a step. 15.5's reading converts D2 and D3 to (D)."""
    crmt = comps.tables["crmt"]
    for _label, cells in crmt.rows():
        for col in ("Regular", "Banzai 15.5"):
            assert all("Ae" in b.effects for b in parse_outcome(cells[crmt.columns.index(col)]))
    regular = {label: parse_outcome(crmt.lookup("Regular", label))[0].terms
               for label, _ in crmt.rows()}
    assert ("De",) in regular["De"] and ("D3",) in regular["D3"]
    assert ("D2", "(D)") in regular["D2"] and ("(D)",) in regular["Ex"]
    for label in ("D2", "D3"):
        assert ("(D)",) in parse_outcome(crmt.lookup("Banzai 15.5", label))[0].terms


def test_storm_table(comps: Components) -> None:
    """5.1.7b: roll 1d6 on the Clear or Storm column for next turn's weather."""
    storm = comps.tables["storm"]
    assert storm.dice == (1, 6) and storm.columns == ("Clear", "Storm")
    assert set(storm.results or ()) == {"Clear", "Storm"}
    assert Fraction(0) < storm.odds("Clear")["Storm"] < Fraction(1, 2)


# --- 3.1, 4.1, 16.1: tracks ------------------------------------------------------------------


def test_game_turn_record_track(comps: Components) -> None:
    """3.1, 4.1, 2.4, 11.4: 16 turns of two days from 19 February 1945; the Turn marker starts
    in box 1 on its Clear side; Turn 14, the historical end with two reserve regiments
    landed, begins 17 March (the title's last day)."""
    track = comps.tracks.turn_track
    assert len(track.turns) == 16 and track.start_weather == "Clear"
    assert track.turns[0].first_day.isoformat() == "1945-02-19"
    assert track.turns[13].first_day.isoformat() == "1945-03-17"


def test_japanese_bombardment_track(comps: Components) -> None:
    """16.1: at most 10 markers; each eliminated HQ or artillery unit covers the highest open
    box; the Japanese receive the highest uncovered number; every such unit has a box."""
    track = comps.tracks.bombardment_track
    assert track.start == 10 and track.markers(0) == 10
    assert [track.markers(k) for k in range(12)] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]
    assert len(track.boxes) == len(comps.counters.of_type("hq", "artillery"))
    assert all(b.box in comps.map.boxes and comps.map.boxes[b.box].capacity == 1
               for b in track.boxes)


# --- the CRMT grammar ------------------------------------------------------------------------


def test_parse_outcome_reads_branches_and_choices() -> None:
    """9.2.1, 9.2.3: a CRMT cell splits on a second 1d6 and may offer a choice."""
    d3 = parse_outcome("1-3:De+AA / 4-6:(A)+DR+AA")
    assert [(b.low, b.high) for b in d3] == [(1, 3), (4, 6)]
    assert parse_outcome("Ae+D2|(D)")[0].terms == (("Ae",), ("D2", "(D)"))


@pytest.mark.parametrize("cell", ["1-3:De / 3-6:NE", "1-2:De / 4-6:NE", "1-3:Boom / 4-6:NE",
                                  "De / 4-6:NE", "0-3:De / 4-6:NE"])
def test_parse_outcome_refuses_bad_cells(cell: str) -> None:
    """9.2: a cell whose branches miss or repeat a roll, or name an unknown effect, is bad."""
    with pytest.raises(ValueError, match="CRMT cell"):
        parse_outcome(cell)


# --- the loader refuses bad data with the file and the path ------------------------------------


def _mutated(tmp_path: Path, name: str, edit: Callable[[str], str]) -> Path:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    path = data / name
    text = path.read_text(encoding="utf-8")
    changed = edit(text)
    assert changed != text, "the edit did not apply"
    path.write_text(changed, encoding="utf-8")
    return data


@pytest.mark.parametrize(("name", "old", "new", "expected"), [
    ("counters.yaml", 'id: "1/23", profile: marine', 'id: "1/23", profile: marines',
     r"counters\.yaml.*unknown profile 'marines'"),
    ("counters.yaml", 'id: "309", profile: jp_infantry, formation: "2MB", setup: '
     "initial_deployment", 'id: "309", profile: jp_infantry, formation: "2MB", setup: '
     "us_available", r"counters\.yaml: counters\.\d+\.setup"),
    ("map.yaml", '"0412": {terrain: ravine, attrs: {sector: 6, deploy: initial}}',
     '"0412": {terrain: ravine, attrs: {sector: 6}}',
     r"47 initial deployment hexes.*3\.2"),
    ("map.yaml", '"0412": {terrain: ravine, attrs: {sector: 6, deploy: initial}}',
     '"0412": {terrain: ravine, attrs: {sector: 6, deploy: initial, belt: 2}}',
     r"map\.yaml: hexes\.0412\.attrs: belt"),
    ("map.yaml", '"0214": {terrain: rough, attrs: {sector: 6}}',
     '"0214": {terrain: rough, attrs: {}}', r"hexes\.0214\.attrs\.sector"),
    ("map.yaml", '"0214": {terrain: rough, attrs: {sector: 6}}',
     '"0214": {terrain: rough, attrs: {sector: 7}}', r"hexes\.0214\.attrs: sector"),
    ("map.yaml", "2612\": {terrain: rough, attrs: {sector: suribachi}}",
     "2612\": {terrain: rough, attrs: {sector: 1}}", r"hexes\.2612.*Suribachi"),
    ("tracks.yaml", "    - {value: 0, box: jp_bombardment_0}\n", "",
     r"tracks\.yaml: bombardment_track\.boxes: 10 boxes for 11 HQ and artillery"),
    ("terrain.yaml", "crt_line: rough,", "crt_line: rocky,", r"terrain\.rough\.crt_line"),
    ("crt.yaml", "    6: [NE, Ex, D2, D3, De, De, De, De]\n", "",
     r"crt\.yaml.*no row covers 6"),
])
def test_loader_names_file_path_and_expectation(tmp_path: Path, name: str, old: str, new: str,
                                                expected: str) -> None:
    """Every data file is checked at load: a bad value is one DataError naming the file, the
    path inside it and what was expected (DESIGN.md principle 2)."""
    data = _mutated(tmp_path, name, lambda text: text.replace(old, new, 1))
    with pytest.raises(DataError, match=expected):
        load_components(data)


def test_loader_reads_the_shipped_data() -> None:
    """2.0-2.2: the map, counters and charts shipped with the game load and agree."""
    c = load_components(DATA_DIR)
    assert c.map.name.startswith("Iwo") and set(c.tables) == {"crt", "crmt", "storm"}
