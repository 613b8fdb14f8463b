"""18.0 two-player rules: deployment 18.1, movement 18.2, tunnels 18.2.1, combat 18.3.

Each test names the section it checks; the dice are scripted.
"""

from __future__ import annotations

from collections import Counter

from tabletop.core.engine.match import Match
from tabletop.games.iwo_bonins import GAME
from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins import two_player as tp

from .test_japanese_units import Build, drive, jp_match, put, texts

__all__ = ["jp_match"]


def two(m: Match) -> Match:
    """Make a built match a two-player one (18.0)."""
    m.state.vars[c.V_TWO_PLAYER] = True
    return m


def deploy(prefer: int | str) -> Match:
    """18.1: a two-player match deployed by a player who puts every unit it can in one
    sector (a stress on the HQ/artillery rule)."""
    m = Match(GAME, scenario="two_player", seed=3)
    while m.pending is not None and m.pending.kind == tp.KIND_DEPLOY:
        values = m.pending.values
        pick = next((v for v in values if c.sector_of(str(v)) == prefer), values[-1])
        m.decide(pick)
    return m


def check_deployment(m: Match) -> None:
    comp = c.components()
    japanese = c.units(m, c.JAPAN)
    assert len(japanese) == 48 and all(c.is_dug_in(p) for p in japanese)
    assert sorted(p.location for p in japanese) == sorted(comp.hexes_where(deploy="initial"))
    fs_sectors = {c.sector_of(p.location) for p in japanese if p.kind in ("hq", "artillery")}
    assert set(tp.FIRE_SUPPORT_SECTORS) <= fs_sectors
    for p in japanese:
        if p.kind == "armor":
            assert comp.map.terrain(comp.map.hex(p.location)) not in tp.TANK_PROHIBITED


def test_initial_deployment_is_legal_whatever_the_player_prefers(jp_match: Build) -> None:
    """18.1: tanks off mountains, ravines and mines; an HQ or artillery unit in each of
    sectors 1-5 and Suribachi, even for a player who crowds one sector."""
    for prefer in (6, 1, "suribachi"):
        m = deploy(prefer)
        check_deployment(m)
        assert m.pending is not None and m.pending.kind == "beachhead"  # 3.3 follows


def test_initial_deployment_decisions_are_japanese(jp_match: Build) -> None:
    """18.1: the Japanese player chooses; the US chooses nothing until 3.3."""
    m = Match(GAME, scenario="two_player", seed=3)
    assert m.pending is not None
    assert m.pending.player == c.JAPAN and m.pending.section == "18.1"
    kinds = Counter[str]()
    while m.pending is not None and m.pending.kind == tp.KIND_DEPLOY:
        kinds[m.pending.context["type"]] += 1
        m.decide_index(0)
    assert sum(kinds.values()) == 48


def test_move_turns_the_unit_up(jp_match: Build) -> None:
    """18.2: a unit must be flipped face up to move; it stops on entering a US ZOC (7.1)."""
    m = two(jp_match([]))
    put(m, "309", "1413")
    put(m, "1/23", "1411")
    asked, _ = drive(tp.japanese_movement(m), ["move:309", "1412", "done"])
    p = m.state.pieces["309"]
    assert p.location == "1412" and not c.is_dug_in(p) and p.attrs[tp.REVEALED] == m.state.turn
    move_options = asked[1].values
    assert "1411" not in move_options and "1311" not in move_options  # beyond the US ZOC
    assert texts(m, "jp_move")[0].startswith("18.2:")


def test_zero_movement_unit_cannot_move(jp_match: Build) -> None:
    """14.3, 18.2: an HQ (movement 0) gets no move option."""
    m = two(jp_match([]))
    put(m, "145 HQ", "1413")
    asked, _ = drive(tp.japanese_movement(m), ["done"])
    assert "move:145 HQ" not in asked[0].values


def test_tunnel_success(jp_match: Build) -> None:
    """18.2.1: 1-3 on 1d6 moves a dug-in unit to any hex eligible for a replacement."""
    m = two(jp_match([3]))
    put(m, "309", "0410")
    put(m, "310", "1414")
    asked, _ = drive(tp.japanese_movement(m), ["tunnel:309", "1214", "done"])
    assert set(asked[1].values) == {"1214", "1315", "1413", "1613", "1615"}
    p = m.state.pieces["309"]
    assert p.location == "1214" and c.is_dug_in(p)


def test_tunnel_in_us_zoc_needs_1_or_2(jp_match: Build) -> None:
    """18.2.1: in a US ZOC the tunnel needs 1 or 2: a 3 fails."""
    m = two(jp_match([3]))
    put(m, "309", "1312")
    put(m, "1/23", "1311")
    put(m, "310", "1414")
    drive(tp.japanese_movement(m), ["tunnel:309", "done"])
    assert m.state.pieces["309"].location == "1312"
    assert "fails: roll 3 (needs 1-2)" in texts(m, "tunnel")[0]


def test_dig_in_only_in_a_later_turn_away_from_us(jp_match: Build) -> None:
    """18.2: a face-up unit may be turned face down in a future turn, on a deployment hex,
    not adjacent to a US unit."""
    m = two(jp_match([]))
    put(m, "309", "1414", dug_in=False)
    m.state.pieces["309"].attrs[tp.REVEALED] = m.state.turn - 1
    asked, _ = drive(tp.japanese_movement(m), ["dig:309", "done"])
    assert c.is_dug_in(m.state.pieces["309"])
    put(m, "310", "1214", dug_in=False)
    m.state.pieces["310"].attrs[tp.REVEALED] = m.state.turn  # turned up this turn
    put(m, "311", "1315", dug_in=False)
    put(m, "1/23", "1314")  # next to 1315
    asked, _ = drive(tp.japanese_movement(m), ["done"])
    assert "dig:310" not in asked[0].values and "dig:311" not in asked[0].values


def test_attack_ae_eliminates_attacker(jp_match: Build) -> None:
    """18.3: a unit turned up this turn attacks; 3 vs 4 on clear, roll 1 -> Ae."""
    m = two(jp_match([1]))
    put(m, "309", "1312", dug_in=False)
    m.state.pieces["309"].attrs[tp.REVEALED] = m.state.turn
    put(m, "1/23", "1311")
    asked, _ = drive(tp.japanese_attacks(m), ["1311", "309"])
    assert asked[0].player == c.JAPAN and asked[0].section == "18.3"
    assert m.state.pieces["309"].location == c.CONTAINER
    assert m.state.pieces["1/23"].steps == 2


def test_attack_exchange_costs_one_attacker(jp_match: Build) -> None:
    """18.3: two units (3 + 3) vs 4 = +2 on clear, roll 6 -> Ex: the US unit loses a step
    (Regular column without the Banzai Ae) and one attacker, of the Japanese choice, dies."""
    m = two(jp_match([6]))
    for unit, where in (("309", "1312"), ("310", "1211")):
        put(m, unit, where, dug_in=False)
        m.state.pieces[unit].attrs[tp.REVEALED] = m.state.turn
    put(m, "1/23", "1311")
    drive(tp.japanese_attacks(m), ["1311", "309", "310", "310"])
    assert m.state.pieces["1/23"].steps == 1
    assert m.state.pieces["310"].location == c.CONTAINER
    assert m.state.pieces["309"].location == "1312"


def test_units_not_turned_up_this_turn_do_not_attack(jp_match: Build) -> None:
    """18.3: only units turned up during this movement phase may attack."""
    m = two(jp_match([]))
    put(m, "309", "1312", dug_in=False)  # face up from an earlier turn (no mark)
    put(m, "1/23", "1311")
    asked, _ = drive(tp.japanese_attacks(m))
    assert not asked
