"""15.3 redeployment, 15.4 redeployment in place, and 17.0's NE on Suribachi.

Each test names the section it checks; the dice are scripted.
"""

from __future__ import annotations

from tabletop.games.iwo_bonins import common as c
from tabletop.games.iwo_bonins.japanese_operations import redeploy

from .test_japanese_units import Build, drive, jp_match, put, texts

__all__ = ["jp_match"]  # the fixture, imported for pytest


def test_suribachi_dr_is_ne_face_up(jp_match: Build) -> None:
    """17.0: a DR against a unit in the Suribachi sector is NE; it stays, face up."""
    m = jp_match([])  # no die may be rolled
    put(m, "309", "2713")
    p = m.state.pieces["309"]
    drive(redeploy(m, p, in_place=False, section="9.2.1"))
    assert p.location == "2713" and not c.is_dug_in(p) and not p.hidden
    assert texts(m, "redeploy")[0].startswith("17.0:")


def test_suribachi_drip_is_ne(jp_match: Build) -> None:
    """17.0: a DRIP too."""
    m = jp_match([])
    put(m, "309", "2814")
    p = m.state.pieces["309"]
    drive(redeploy(m, p, in_place=True, section="9.2.1"))
    assert p.location == "2814" and p.face == "front"


def test_dr_with_substitute_from_container(jp_match: Build) -> None:
    """15.3: the unit goes into the container; the new hex is found as for a replacement
    (14.5); with two or more units in the container a blind substitute takes it."""
    m = jp_match([2, 5])  # sector 2; the substitute: 2nd of ["310", "311"] (id order; 4-6)
    put(m, "309", "1414")
    put(m, "311", "1512")  # the defender
    put(m, "310", c.CONTAINER)
    drive(redeploy(m, m.state.pieces["311"], in_place=False, section="9.2.1"))
    # Eligible, within 2 of 1414 (1512 is empty now): 1214 hill first.
    assert m.state.pieces["311"].location == "1214"
    assert m.state.pieces["310"].location == c.CONTAINER
    assert not c.units_at(m, "1512")


def test_dr_substitute_is_another_unit(jp_match: Build) -> None:
    """15.3: the blind draw may give another unit than the redeploying one."""
    m = jp_match([2, 1])  # sector 2; substitute: 1st of ["310", "311"] (1-3)
    put(m, "309", "1414")
    put(m, "311", "1512")
    put(m, "310", c.CONTAINER)
    drive(redeploy(m, m.state.pieces["311"], in_place=False, section="9.2.1"))
    assert m.state.pieces["310"].location == "1214"
    assert m.state.pieces["311"].location == c.CONTAINER
    assert c.is_dug_in(m.state.pieces["310"])


def test_dr_into_cleared_sector_stays_eliminated(jp_match: Build) -> None:
    """15.3, 13.0, 9.2.1 note: no eligible hex (a cleared sector): the unit remains in the
    container."""
    m = jp_match([4])
    put(m, "309", "1414")
    put(m, "311", "1512")
    m.state.vars[c.V_CLEARED] = [4]
    drive(redeploy(m, m.state.pieces["311"], in_place=False, section="9.2.1"))
    assert m.state.pieces["311"].location == c.CONTAINER
    assert "remains eliminated" in texts(m, "redeploy")[0]


def test_dr_hq_goes_to_container_not_track(jp_match: Build) -> None:
    """14.4: an HQ forced to redeploy goes into the container (not onto the track)."""
    m = jp_match([6])  # sector 6: nothing within two hexes of a dug-in unit there
    put(m, "309", "1414")
    put(m, "145 HQ", "1512")
    drive(redeploy(m, m.state.pieces["145 HQ"], in_place=False, section="9.2.1"))
    assert m.state.pieces["145 HQ"].location == c.CONTAINER
    assert c.bombardment_covered(m) == 0


def test_dr_alone_in_container_takes_a_unit_from_the_map(jp_match: Build) -> None:
    """15.3: alone in the container, the dug-in units are checked from 0213 upward (1d6,
    1-3 taken); the two are drawn blindly for the new hex and the taken unit's hex."""
    # sector 2 -> 1214; checks: 0410 rolls 5 (skip), 1414 rolls 2 (taken);
    # blind draw between ["309", "311"]: 1 -> 309 to 1214, 311 to 1414.
    m = jp_match([2, 5, 2, 1])
    put(m, "312", "0410")
    put(m, "309", "1414")
    put(m, "311", "1512")
    drive(redeploy(m, m.state.pieces["311"], in_place=False, section="9.2.1"))
    assert m.state.pieces["309"].location == "1214"
    assert m.state.pieces["311"].location == "1414"
    assert m.state.pieces["312"].location == "0410"
    assert not c.units_at(m, "1512")
    assert "taken" in texts(m, "redeploy")[0]


def test_dr_alone_every_check_fails(jp_match: Build) -> None:
    """15.3 (our reading): every check rolls 4-6: the unit itself takes the new hex."""
    m = jp_match([2, 4, 6])  # sector 2 -> 1214; 0410: 4, 1414: 6
    put(m, "312", "0410")
    put(m, "309", "1414")
    put(m, "311", "1512")
    drive(redeploy(m, m.state.pieces["311"], in_place=False, section="9.2.1"))
    assert m.state.pieces["311"].location == "1214"
    assert m.state.pieces["309"].location == "1414"


def test_substitute_never_taken_from_suribachi(jp_match: Build) -> None:
    """15.3, 17.0: no unit redeploys to Suribachi, so none there is taken as substitute."""
    m = jp_match([2, 6])  # sector 2; 1414 rolls 6; 2713 is never checked
    put(m, "309", "1414")
    put(m, "310", "2713")
    put(m, "311", "1512")
    drive(redeploy(m, m.state.pieces["311"], in_place=False, section="9.2.1"))
    assert m.state.pieces["310"].location == "2713"
    assert m.state.pieces["311"].location == "1214"


def test_drip_substitute_in_place(jp_match: Build) -> None:
    """15.4: in place: the same procedure, the unit placed back in its original hex (no
    sector roll); a blind substitute from the container may take the hex."""
    m = jp_match([1])  # substitute: 1st of ["310", "311"]
    put(m, "311", "1512")
    put(m, "310", c.CONTAINER)
    drive(redeploy(m, m.state.pieces["311"], in_place=True, section="9.2.1"))
    assert m.state.pieces["310"].location == "1512"
    assert m.state.pieces["311"].location == c.CONTAINER


def test_drip_cannot_eliminate(jp_match: Build) -> None:
    """15.4 note: a unit redeploying in place cannot be eliminated, even in a cleared
    sector or with nothing near it."""
    m = jp_match([5])  # alone: the only other dug-in unit (0410) rolls 5
    put(m, "312", "0410")
    put(m, "311", "1512")
    m.state.vars[c.V_CLEARED] = [2]
    drive(redeploy(m, m.state.pieces["311"], in_place=True, section="9.2.1"))
    assert m.state.pieces["311"].location == "1512"
    assert c.is_dug_in(m.state.pieces["311"])


def test_drip_two_player_substitute_optional(jp_match: Build) -> None:
    """18.4: a substitute is not mandatory when redeploying in place."""
    m = jp_match([])
    m.state.vars[c.V_TWO_PLAYER] = True
    put(m, "311", "1512", dug_in=False)
    put(m, "310", c.CONTAINER)
    asked, _ = drive(redeploy(m, m.state.pieces["311"], in_place=True, section="9.2.1"), [False])
    assert asked[0].player == c.JAPAN and asked[0].section == "18.4"
    assert m.state.pieces["311"].location == "1512" and c.is_dug_in(m.state.pieces["311"])


def test_dr_never_returns_to_its_own_hex(jp_match: Build) -> None:
    """15.3: a redeploying unit "will move to a new hex": its own (now empty) hex is not
    eligible, even when the rolled sector is its own and the hex is the best (a hill)."""
    m = jp_match([2, 4])  # sector 2 (its own); the substitute: 2nd of ["309", "310"]
    put(m, "311", "1414")  # the dug-in neighbour
    put(m, "309", "1214")  # the defender, on the sector's hill
    put(m, "310", c.CONTAINER)
    drive(redeploy(m, m.state.pieces["309"], in_place=False, section="9.2.1"))
    assert not c.units_at(m, "1214")
    placed = [e for e in m.log if e.kind == "redeploy"][-1]
    assert placed.data["hex"] != "1214"
