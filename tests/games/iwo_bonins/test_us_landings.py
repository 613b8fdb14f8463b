"""11.0 US arrival and landings: 11.1 boxes, 11.2 landings, 11.3 beach stacking, 11.4
reserves, 11.5-11.7 replacements; 3.3 and 3.4 where they meet them."""

from __future__ import annotations

from tabletop.games.iwo_bonins import GAME, last_turn
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins import landings as L

from .test_us_movement import drive, put, texts, us_match


def test_setup_boxes_3_4_and_11_1() -> None:
    """3.4, 11.1: 26 units of the 4th and 5th Divisions Available for Landing, the 13 of the
    3rd in Reserves; every US unit off the island is in one of the boxes."""
    m = us_match()
    where = [p.location for p in c.units(m, c.US, on_map=False)]
    assert where.count(c.AVAILABLE) == 26 and where.count(c.RESERVES) == 13


def test_only_chosen_beaches_3_3() -> None:
    """3.3, 11.2: units land only on the chosen set of beaches."""
    east, west = us_match("east"), us_match("west")
    assert set(L.landing_hexes(east)) == set(c.landing_beach_hexes_of("east"))
    assert set(L.landing_hexes(west)) == set(c.landing_beach_hexes_of("west"))
    assert not set(L.landing_hexes(east)) & set(L.landing_hexes(west))


def test_landing_limits_11_2() -> None:
    """11.2: one unit a beach hex, two a colour-coded beach, eight a phase; a landed unit
    stops on its beach hex (6.2g)."""
    m = us_match()
    ids = [p.id for p in c.units(m, c.US, on_map=False) if p.location == c.AVAILABLE][:9]
    for uid in ids[:8]:
        hexes = L.landing_hexes(m)
        drive(L.land(m, m.state.pieces[uid]), [hexes[0]])
    assert L.landing_hexes(m) == []
    assert not L.landing_options(m)
    landed = [m.state.pieces[u].location for u in ids[:8]]
    assert sorted(landed) == sorted(c.landing_beach_hexes_of("east"))
    assert set(ids[:8]) <= set(m.state.vars[c.V_MOVED])
    assert texts(m, "landing")[0].startswith("11.2:")


def test_landing_stacks_under_11_3() -> None:
    """11.3: a unit landing where US units stand goes under them; any number may stack on a
    landing beach, and only the top unit attacks from it (9.0)."""
    from tabletop.games.iwo_bonins.combat import attacking_units

    m = us_match()
    put(m, "1/23", "2211")
    put(m, "2/23", "2211")
    drive(L.land(m, m.state.pieces["3/23"]), ["2211"])
    assert [p.id for p in c.units_at(m, "2211")][-1] == "3/23"
    put(m, "309", "2212")
    assert [p.id for p in attacking_units(m, "2211", "2212")] == ["1/23"]


def test_reserves_11_4_shorten_game_4_1() -> None:
    """11.4, 4.1: after Turn 1 a regiment (three battalions and a support unit) comes forward;
    each one shortens the game by a turn."""
    m = us_match()
    assert L.reserve_options(m) == []  # not on Turn 1
    m.state.turn = 2
    opts = [o.value for o in L.reserve_options(m)]
    assert "reserve:3" in opts and "reserve:9+tank" in opts
    L.commit_reserve(m, "9+tank")
    moved = {p.id for p in c.units(m, c.US, on_map=False) if p.location == c.AVAILABLE} - {
        p.id for p in us_match().state.pieces if p.location == c.AVAILABLE}
    assert moved == {"1/9", "2/9", "3/9", "FT/9", "3 Tk"}
    assert last_turn(m) == 15 and m.state.vars[c.V_RESERVES] == 1
    L.commit_reserve(m, "21")
    assert last_turn(m) == 14
    assert GAME.summary(m)["last_turn"] == 14


def test_replacement_steps_11_5() -> None:
    """11.5: two steps each first movement phase, spent then or lost."""
    m = us_match()
    L.start_replacements(m)
    assert m.state.vars[c.V_REPLACEMENTS] == 2
    assert L.replacement_options(m) == []  # nothing to rebuild yet


def test_replacing_at_sea_11_6() -> None:
    """11.6: an eliminated two-step unit gets one step a turn and goes to Available; a unit
    rebuilt at sea may not land that phase."""
    m = us_match()
    c.eliminate_us(m, m.state.pieces["1/23"], "test")
    L.start_replacements(m)
    L.replace_step(m, "1/23")
    p = m.state.pieces["1/23"]
    assert p.location == c.AVAILABLE and p.steps == 1 and p.face == "back"
    assert "replace:1/23" not in [o.value for o in L.replacement_options(m)]  # one a turn
    assert "land:1/23" not in [o.value for o in L.landing_options(m)]
    c.eliminate_us(m, m.state.pieces["FT/23"], "test")
    L.replace_step(m, "FT/23")
    assert m.state.pieces["FT/23"].location == c.AVAILABLE
    assert L.replacement_options(m) == []  # both steps spent


def test_replacing_on_map_11_7() -> None:
    """11.7: a reduced unit that starts the first movement phase four or more hexes from every
    Japanese unit may be rebuilt; it may not move that phase. Nearer, it may not."""
    m = us_match()
    put(m, "309", "1409")
    put(m, "1/23", "2513")
    put(m, "2/23", "1410")
    for uid in ("1/23", "2/23"):
        c.us_step_loss(m, m.state.pieces[uid], "test")
    L.start_replacements(m)
    opts = [o.value for o in L.replacement_options(m)]
    assert "replace:1/23" in opts and "replace:2/23" not in opts
    L.replace_step(m, "1/23")
    assert m.state.pieces["1/23"].steps == 2 and "1/23" in m.state.vars[c.V_NO_MOVE]


def test_moved_unit_not_rebuilt_11_7() -> None:
    """11.7: a unit rebuilt on the map may not move in that phase, so one that has moved may
    not be rebuilt after it."""
    m = us_match()
    put(m, "309", "1409")
    put(m, "1/23", "2513")
    c.us_step_loss(m, m.state.pieces["1/23"], "test")
    L.start_replacements(m)
    m.state.vars[c.V_MOVED].append("1/23")
    assert "replace:1/23" not in [o.value for o in L.replacement_options(m)]
