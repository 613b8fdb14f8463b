"""15.0 Japanese operations: redeployment (15.3, 15.4), Banzai attacks (15.5), and the
Japanese Movement Phase (5.1.5: 14.4 replacement, then 15.5).

Readings taken (docs/games/iwo_bonins-japanese.md has the whole table):

- 15.3 substitutes. The redeploying unit goes into the container first; "two or more units
  in the container" counts it, so the blind draw of the substitute may give the redeploying
  unit itself back. With it alone in the container, dug-in units on the map are checked in
  16.2 (2)'s order (0213 upward), 1d6 each, until one is taken on 1-3; the two units are then
  drawn blindly, the first to the new hex, the second to the taken unit's hex. If every
  check fails, no substitute exists and the redeploying unit itself takes the new hex.
  Units in the Suribachi sector are never taken (17.0: none may redeploy to Suribachi).
- A DR finding no eligible hex (cleared sector, nothing within two hexes of a dug-in unit)
  leaves the unit in the container, "eliminated" (15.3, 9.2.1 note), whatever its type: an
  HQ or artillery unit forced to redeploy is in the container (14.4) and may come back.
- 17.0: a DR or DRIP against a unit in the Suribachi sector is NE; it stays, face up. This
  is :func:`redeploy`'s first check, so every caller (US combat, Banzai) gets it.
"""

from __future__ import annotations

from tabletop.core.decisions import Option, choose
from tabletop.core.match import Flow, Match, Procedure
from tabletop.core.pieces import Piece

from . import common as c
from . import japanese_units as ju

KIND_SUBSTITUTE = "jp_substitute"


# -- 15.3, 15.4 redeployment ----------------------------------------------------------------

def redeploy(match: Match, piece: Piece, *, in_place: bool, section: str) -> Flow:
    """15.3 (DR) / 15.4 (DRIP): redeploy a Japanese unit, with a substitute where the rule
    says; 17.0: on Suribachi a DR or DRIP is NE and the unit stays face up.

    ``section`` is the rule that called for it (9.2.1, 15.5...), quoted in the log.
    """
    origin = piece.location
    what = "DRIP" if in_place else "DR"
    if not c.is_hex(origin):
        raise ValueError(f"15.3: {piece.id} is not on the map ({origin!r}) and cannot redeploy")
    if c.in_suribachi_sector(origin):
        ju.reveal(piece)
        match.emit("redeploy", "17.0", f"{what} ({section}) against {piece.id} in the Suribachi "
                   f"sector ({origin}) is NE: the defender stays in the hex, face up",
                   piece=piece.id, hex=origin, result="NE")
        return None
    ju.to_container(match, piece)
    if in_place:
        if ju.is_two_player(match):
            use = yield choose(c.JAPAN, f"Redeploy in place at {origin}: draw a substitute?",
                               "18.4", [Option(False, "No: the unit itself stays"),
                                        Option(True, "Yes: draw a substitute (15.3)")],
                               kind=KIND_SUBSTITUTE, context={"unit": piece.id, "hex": origin})
            if not use:
                ju.place(match, piece, origin)
                match.emit("redeploy", "18.4", f"{piece.id} redeploys in place at {origin} "
                           f"({section}); the Japanese player takes no substitute",
                           piece=piece.id, hex=origin, in_place=True)
                return None
        _fill(match, piece, origin, origin, section, "15.4",
                         f"redeploys in place at {origin}")
        return None
    sector = ju.roll_sector(match, section="15.3", purpose=f"redeployment sector of {piece.id}")
    hexes = [] if c.is_sector_cleared(match, sector) else ju.eligible_hexes(match, sector)
    if not hexes:
        why = "is cleared" if c.is_sector_cleared(match, sector) else \
            "has no unoccupied deployment hex within two hexes of a dug-in unit"
        match.emit("redeploy", "15.3", f"{piece.id} must redeploy ({section}): sector {sector} "
                   f"(rolled) {why}, so it remains eliminated in the container",
                   piece=piece.id, sector=sector, hex=None)
        return None
    target, why = yield from ju.choose_placement(match, hexes, section="15.3",
                                                 what=f"the redeploying {piece.id}")
    _fill(match, piece, target, origin, section, "15.3",
                     f"redeploys to {target} in sector {sector} (rolled; {why})")
    return None


def _fill(match: Match, piece: Piece, target: str, origin: str, caller: str, rule: str,
          how: str) -> None:
    """15.3: put a unit of the container on ``target``: a blind substitute when the
    container holds two or more units; otherwise another dug-in unit may be taken from the
    map (16.2 (2) order, 1-3 on 1d6) and the two drawn blindly for the two hexes."""
    if len(ju.container_units(match)) >= 2:
        sub = ju.draw_blind(match, purpose=f"blind substitute for {target}", section="15.3")
        assert sub is not None
        ju.place(match, sub, target)
        same = sub.id == piece.id
        match.emit("redeploy", rule, f"{piece.id} {how} ({caller}): a blind substitute from the "
                   f"container takes the hex{' (it drew the unit itself)' if same else ''}",
                   piece=piece.id, substitute=sub.id, hex=target, origin=origin)
        return None
    taken = _take_from_map(match, exclude={target})
    if taken is None:
        ju.place(match, piece, target)
        match.emit("redeploy", rule, f"{piece.id} {how} ({caller}): it is alone in the "
                   "container and no dug-in unit was taken from the map (every check rolled "
                   "4-6), so the unit itself takes the hex", piece=piece.id, substitute=piece.id,
                   hex=target, origin=origin)
        return None
    second_hex = taken.location
    ju.to_container(match, taken)
    first = ju.draw_blind(match, purpose=f"blind draw for {target}", section="15.3")
    assert first is not None
    other = taken if first.id == piece.id else piece
    ju.place(match, first, target)
    ju.place(match, other, second_hex)
    match.emit("redeploy", rule, f"{piece.id} {how} ({caller}): it was alone in the container, "
               f"so the dug-in unit at {second_hex} was taken (16.2 (2) order, 1-3); drawn "
               f"blindly, one goes to {target} and the other back to {second_hex}",
               piece=piece.id, substitute=first.id, hex=target, origin=origin,
               taken=taken.id, taken_hex=second_hex)
    return None


def _take_from_map(match: Match, *, exclude: set[str]) -> Piece | None:
    """15.3: check the dug-in Japanese units in 16.2 (2)'s order (0213 upward), 1d6 each,
    taking the first that rolls 1-3; Suribachi's sector is never drawn on (17.0)."""
    for hid in ascending_land_hexes():
        if hid in exclude or c.in_suribachi_sector(hid):
            continue
        for p in c.units_at(match, hid, c.JAPAN):
            if not c.is_dug_in(p):
                continue
            roll = match.dice.d6(purpose=f"15.3 substitute check of the dug-in unit at {hid}",
                                 section="15.3")
            if roll <= 3:
                return p
    return None


def ascending_land_hexes() -> list[str]:
    """16.2 (2): the land hexes from 0213 toward higher-numbered hexes."""
    return sorted(c.components().hex_attrs)


# -- 5.1.5 the Japanese Movement Phase -------------------------------------------------------

def japanese_movement_phase(match: Match) -> Flow:
    """5.1.5: a) place one replacement (14.4, 14.5); b) Banzai attacks (15.5). In the
    two-player game (18.2) the Japanese player then moves units and uses tunnels."""
    yield from ju.replacement(match)
    yield from banzai_attacks(match)
    return None


# -- 15.5 Banzai attacks ---------------------------------------------------------------------

def banzai_attacks(match: Match) -> Procedure[None]:
    """15.5: after Suribachi is cleared, roll for an attack, its sector and how many units."""
    return None
    yield
