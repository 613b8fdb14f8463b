"""The questions a rule test asks, answered by the game's public functions (queries.py):
supply (10.0), a unit's current strength with its modifiers (2.3, 5.1.7c, 12.4, 14.2), and
what a side controls (8.1, 13.0, 17.0). Each test names its section."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.core.designer.testing import answer, force, start
from tabletop.core.engine.events import modifier
from tabletop.games.iwo_bonins import GAME, controls, is_supplied, strength
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins import us_bombardment as B

DUG_IN: dict[str, Any] = {"status": {"dug_in": True}}


def values(unit: str, face: str) -> dict[str, int]:
    """A counter's printed values on one face (counters.yaml)."""
    m = start(GAME, turn=2, start="us_move_1", vars={"beachhead": "east"})
    return {k: int(v) for k, v in m.state.pieces[unit].values[face].items()}


def test_every_unit_is_in_supply_even_surrounded_10_0() -> None:
    """10.0: "All units are always in supply. Isolated or surrounded units suffer no
    penalties": 1/23 ringed by Japanese units on every side is supplied, and attacks with its
    full factor; so is every Japanese unit around it. A name that is no unit is refused."""
    ring = {"309": "2211", "310": "2312", "311": "2112", "312": "2313", "314": "2113"}
    m = start(GAME, turn=3, start="us_combat_2", vars={"beachhead": "east"}, clear=["Japan"],
              pieces={"1/23": {"at": "2212"}, "1/145": {"at": "2213", **DUG_IN},
                      **{u: {"at": h, **DUG_IN} for u, h in ring.items()}},
              forced=[force("9.1d CRT", 3)])
    board = c.components().map
    assert {board.label(n) for n in board.neighbors(board.hex("2212"))} == {*ring.values(), "2213"}
    assert is_supplied(m, "1/23") and all(is_supplied(m, u) for u in ring)
    answer(m, "2213", "2212", "declare")
    [combat] = m.log.of_kind("combat")
    full = values("1/23", "front")["attack"]
    assert combat.data["attack"] == strength(m, "1/23")["attack"]["value"] == full
    with pytest.raises(ValueError, match="'flag' is not a US or Japanese unit"):
        is_supplied(m, "flag")
    with pytest.raises(ValueError, match="'9/99' is not a US or Japanese unit"):
        strength(m, "9/99")


def test_a_reduced_unit_reads_its_back_as_a_modifier_2_3() -> None:
    """2.3: a reduced two-step US unit shows its back: each factor is the front's, less the
    difference as a "reduced side" modifier; a full unit has none. 12.4: TF Collins, a tank
    battalion's back, is a one-step unit: its printed values are its own, never reduced."""
    front, back = values("3/26", "front"), values("3/26", "back")
    m = start(GAME, turn=3, start="us_move_1", vars={"beachhead": "east"}, clear=["Japan"],
              pieces={"3/26": {"at": "2212", "status": {"reduced": True}}, "1/23": {"at": "2211"},
                      "310": {"at": "0213", **DUG_IN}})
    reduced = strength(m, "3/26")
    for name in ("attack", "defense"):
        assert reduced[name] == {"printed": front[name], "value": back[name],
                                 "modifiers": [modifier("2.3", "reduced side", back[name] - front[name])]}
    assert strength(m, "1/23")["attack"] == {"printed": front["attack"], "value": front["attack"],
                                             "modifiers": []}
    from tabletop.games.iwo_bonins import support

    support.form_tf_collins(m, "4 Tk")
    tf = strength(m, "4 Tk")["attack"]
    assert tf == {"printed": values("4 Tk", "back")["attack"], "value": values("4 Tk", "back")["attack"],
                  "modifiers": []}


def test_storm_halves_the_movement_allowance_5_1_7c() -> None:
    """5.1.7c: in a Storm turn movement allowances are halved (rounded down), for US and
    Japanese units alike (14.2: a dug-in unit's printed values are still its front's); the
    movement strength is the MA the movement phase gives (movement.allowance)."""
    from tabletop.games.iwo_bonins import movement

    m = start(GAME, turn=3, start="us_move_1", vars={"beachhead": "east", "weather": "Storm"},
              clear=["Japan"], pieces={"1/23": {"at": "2212"}, "309": {"at": "1414", **DUG_IN}})
    us, jp = values("1/23", "front")["movement"], values("309", "front")["movement"]
    assert strength(m, "1/23")["movement"] == {
        "printed": us, "value": us // 2, "modifiers": [modifier("5.1.7c", "storm, halved", us // 2 - us)]}
    allowance, _ = movement.allowance(m, m.state.pieces["1/23"], first=True)
    assert strength(m, "1/23")["movement"]["value"] == allowance
    assert strength(m, "309")["movement"]["value"] == jp // 2
    assert strength(m, "309")["defense"] == {"printed": values("309", "front")["defense"],
                                             "value": values("309", "front")["defense"], "modifiers": []}


def test_control_of_the_airfields_8_1() -> None:
    """8.1: an airfield counts for the US when every hex of it is free of Japanese units and
    their ZOC (the tenth and eleventh markers), else for Japan: 309 next to Airfield No. 2
    (1410) gives it to Japan, and the US has ten markers. The hexes held are the units'."""
    m = start(GAME, turn=3, start="us_move_1", vars={"beachhead": "east"}, clear=["Japan"],
              pieces={"1/23": {"at": "2212"}, "FT/23": {"at": "2212"}, "309": {"at": "1409", **DUG_IN}})
    us, japan = controls(m, c.US), controls(m, c.JAPAN)
    assert (us["airfields"], japan["airfields"]) == (["airfield_1"], ["airfield_2"])
    assert B.markers_available(m) == 10
    assert (us["hexes"], japan["hexes"]) == (["2212"], ["1409"])
    with pytest.raises(ValueError, match="'Marines' is not a side"):
        controls(m, "Marines")


def test_control_of_the_sectors_13_0_17_0() -> None:
    """13.0: a numbered sector none of whose deployment hexes holds a dug-in unit is cleared
    for good; 17.0: Suribachi once its five hexes are empty. The US controls the cleared
    sectors, Japan the others; an attack that eliminates the last dug-in unit of Suribachi
    moves it to the US."""
    m = start(GAME, turn=3, start="us_combat_2", vars={"beachhead": "east", "cleared_sectors": [1]},
              clear=["Japan"], pieces={"1/23": {"at": "2612"}, "FT/23": {"at": "2612"},
                                       "309": {"at": "2713", **DUG_IN}, "310": {"at": "0213", **DUG_IN}},
              forced=[force("9.1d CRT", 6), force("9.2.1 CRMT", 1)])
    assert controls(m, c.US)["sectors"] == [1]
    assert controls(m, c.JAPAN)["sectors"] == [2, 3, 4, 5, 6, "suribachi"]
    answer(m, "2713", "2612", "declare")
    if m.pending is not None and m.pending.kind == "advance":
        answer(m, "none")
    assert m.state.pieces["309"].location == c.CONTAINER
    assert "suribachi" in controls(m, c.US)["sectors"]
    assert "suribachi" not in controls(m, c.JAPAN)["sectors"]
