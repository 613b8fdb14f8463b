"""9.0 Defensive fire: each time a moving unit enters a hex next to enemy defensive-fire-
capable units, those units may fire at it, all together, from adjacent hexes only.

9.1 the trigger is every hex entered; 9.2 all eligible adjacent units combine, only the mover
is affected; 9.3 Japanese static units, US field artillery and air never fire defensively,
and static units and air are never fired on; 9.4 no ranged or indirect defensive fire;
9.5 DRM -1, -2 against moving field artillery, +1 if the mover enters a hex holding a friend;
9.6 no rubble, close assault or advance. The firing side decides; a Japanese decision is
private, and a US decision names a face-down Japanese mover only by its hex.
"""

from __future__ import annotations

from tabletop.core.engine.decisions import Option, ResumePoint, choose
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece

from . import common as c
from .components import JAPAN, components
from .fire import Drm, odds_of_e, resolve, shown_chances, terrain_drms
from .victory import eliminate


def can_fire_defensively(piece: Piece) -> bool:
    """9.3: Japanese static units, US field artillery and air units never fire defensively."""
    return not (c.is_static(piece) or c.has(piece, "field_artillery") or c.has(piece, "air"))


def can_be_fired_on_defensively(piece: Piece) -> bool:
    """9.3: Japanese static units and US air units never receive defensive fire."""
    return not (c.is_static(piece) or c.has(piece, "air"))


def defensive_firers(match: Match, mover: Piece, hex_id: str) -> list[Piece]:
    """9.2-9.4: the enemy units next to ``hex_id`` able to fire defensively, who fire all
    together at a unit entering it (none: an empty list)."""
    side = c.other(mover.side)
    return [p for n in components().hexmap.neighbor_ids(hex_id) for p in c.units_at(match, n)
            if p.side == side and can_fire_defensively(p)]


def defensive_fire_drms(match: Match, mover: Piece, hex_id: str, shooters: list[Piece]) -> list[Drm]:
    """9.5 plus the 10.12 DRM that apply to both kinds of fire."""
    drms: list[Drm] = [(-1, "9.5", "defensive fire")]
    if c.has(mover, "field_artillery"):
        drms.append((-2, "9.5", "the moving unit is field artillery"))
    if any(p.id != mover.id and p.side == mover.side for p in c.units_at(match, hex_id)):
        drms.append((1, "9.5", "the moving unit enters a hex holding a friendly unit"))
    drms += terrain_drms(match, [p.location for p in shooters], hex_id, [mover], shooters)
    return drms


def defensive_fire(match: Match, mover: Piece, hex_id: str, *,
                   resume: ResumePoint | None = None) -> Procedure[bool]:
    """9.1-9.6: offer defensive fire at a unit that has just entered ``hex_id``; returns True
    when the mover is eliminated. Only adjacent units fire (9.4), never indirectly (11.3).
    ``resume``: where the mover's flow asks the offer again (the move, by its caller)."""
    if not can_be_fired_on_defensively(mover):
        return False
    side = c.other(mover.side)
    shooters = defensive_firers(match, mover, hex_id)
    if not shooters:
        return False
    strength = sum(c.counter(p).fire for p in shooters)
    drms = defensive_fire_drms(match, mover, hex_id, shooters)
    total = sum(d for d, _, _ in drms)
    chance = odds_of_e(strength, total)
    target = c.who(mover, side)
    yes = yield choose(side, f"9.2: {target} enters {hex_id}: defensive fire with "
                       f"{len(shooters)} adjacent unit(s), {strength} factors, DRM {total:+d}?",
                       "9.2", [Option(True, "fire", shown_chances(strength, drms, shooters),
                                      detail={"p_e": float(chance)}),
                               Option(False, "hold fire")],
                       kind="defensive_fire", context={"hex": hex_id, "strength": strength,
                                                       "drm": total},
                       private=side == JAPAN, resume=resume)
    if not yes:
        return False
    c.reveal(match, shooters, "fires defensively")
    c.reveal(match, [mover], "is fired on")
    result = resolve(match, shooters, strength, drms, hex_id, "9.2", "defensive fire")
    if result == "E":
        eliminate(match, mover, "9.2")
        return True
    return False
