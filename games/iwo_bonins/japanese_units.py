"""14.0 Japanese units: one-step units (14.1), status (14.2), zero-factor units (14.3),
replacements (14.4) and their placement (14.5).

The blind draws from the opaque container (2.5, 14.4, 15.3) are rolls of ``match.dice``
among the container's units in id order, so a match replays exactly. Event texts never name
a face-down unit (the US player may not examine it, 14.2); the unit's id is in the event's
data for replays and tests.

Two-player (18.4): the Japanese player chooses the placement hex among the eligible ones
instead of 14.5's terrain priority; see :func:`choose_placement`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from tabletop.core.board.hexgrid import distance
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Option, ask_str, choose
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece

from . import common as c
from .components import FIRE_SUPPORT_TYPES, NUMBERED_SECTORS

#: The kinds of decisions this module asks the Japanese player (two-player game only).
KIND_PLACE = "jp_place_hex"


# -- 14.1-14.3 -----------------------------------------------------------------------------

def is_fire_support(piece: Piece) -> bool:
    """14.1, 16.1: HQ and artillery units (AA and AT are not artillery, 16.1 note)."""
    return piece.kind in FIRE_SUPPORT_TYPES


def can_attack(piece: Piece) -> bool:
    """14.3: a unit with a zero attack factor may not attack."""
    return c.printed(piece, "attack") > 0


def can_move(piece: Piece) -> bool:
    """14.3: a unit with a zero movement factor may not move (it may still redeploy)."""
    return c.printed(piece, "movement") > 0


dig_in = c.dig_in  # 14.2 (the status helpers live in common)
reveal = c.reveal


def emit_japanese(match: Match, kind: str, section: str, text: str, *, mask: str = "",
                  **data: Any) -> None:
    """Log an event about Japanese units (14.2): while a unit it names in its data is dug in,
    the US player sees only ``mask`` (by default the text, which must then name no dug-in
    unit), not the data."""
    pieces = match.state.pieces
    secret = any(isinstance(v, str) and v in pieces and pieces[v].hidden for v in data.values())
    match.emit(kind, section, text, visible_to=(c.JAPAN,) if secret else (),
               mask=(mask or text) if secret else "", **data)


def shown(piece: Piece) -> str:
    """How the log names a Japanese unit: its id when face up, else only its hex (14.2: the
    US player may not examine a dug-in unit; the id stays in the event's data)."""
    return f"the dug-in unit at {piece.location}" if piece.hidden else piece.id


def is_two_player(match: Match) -> bool:
    """18.0: the Japanese side is a player (Decisions for Japan) rather than the rules."""
    return bool(match.state.vars.get(c.V_TWO_PLAYER))


# -- the container (14.1, 14.4) ------------------------------------------------------------

def container_units(match: Match) -> list[Piece]:
    """14.1: the Japanese units in the opaque container, in id order (a fixed order for the
    blind draw)."""
    return sorted((p for p in match.state.pieces.at(c.CONTAINER) if p.side == c.JAPAN),
                  key=lambda p: p.id)


def to_container(match: Match, piece: Piece) -> None:
    """15.3: put a Japanese unit face down into the container (not an elimination: an HQ or
    artillery unit redeploying goes into the container too, 14.4)."""
    dig_in(piece)
    match.state.pieces.move(piece.id, c.CONTAINER)


def draw_blind(match: Match, *, purpose: str, section: str) -> Piece | None:
    """14.4, 15.3: blindly pick one unit from the container (a roll among its units)."""
    units = container_units(match)
    if not units:
        return None
    return match.dice.choose(units, purpose=purpose, section=section)


# -- 14.5 placement ------------------------------------------------------------------------

def placement_priority(hex_id: str) -> int:
    """14.5: the terrain priority of a hex (1 = Hill first ... 7 = Clear); a hill over other
    terrain counts as Hill."""
    comp = c.components()
    h = comp.map.hex(hex_id)
    prios = [comp.terrain.terrain[comp.map.terrain(h)].placement]
    prios += [comp.terrain.features[f].placement for f in comp.map.features(h)
              if f in comp.terrain.features]
    return min(p for p in prios if p is not None)


def eligible_hexes(match: Match, sector: int, *, exclude: str | None = None,
                   dug_in: set[str] | None = None) -> list[str]:
    """14.5: the unoccupied deployment and redeployment hexes of a numbered sector (none once
    it is cleared, 13.0) within two hexes of a dug-in Japanese unit; a US ZOC does not
    matter (the tunnels). Suribachi is never a numbered sector (17.0). ``exclude`` names a
    unit that does not count as the dug-in neighbour (one leaving its hex); ``dug_in`` gives
    the dug-in units' hexes when the caller has them."""
    if c.is_sector_cleared(match, sector):
        return []
    dug = dug_in if dug_in is not None else dug_in_hexes(match, exclude=exclude)
    return [hid for hid in _deployment_hexes(sector)
            if not c.units_at(match, hid) and not within_two(hid).isdisjoint(dug)]


def dug_in_hexes(match: Match, *, exclude: str | None = None) -> set[str]:
    """14.2: the hexes holding a dug-in Japanese unit (but ``exclude``'s)."""
    return {p.location for p in c.units(match, c.JAPAN) if c.is_dug_in(p) and p.id != exclude}


@cache
def _deployment_hexes(sector: int) -> tuple[str, ...]:
    return tuple(c.deployment_hexes(sector))


@cache
def within_two(hex_id: str) -> frozenset[str]:
    """14.5: the hexes no more than two hexes (one intervening hex) from a hex."""
    m = c.components().map
    h = m.hex(hex_id)
    return frozenset(m.label(n) for n in m.hexes() if distance(h, n) <= 2)


def eligible_anywhere(match: Match, *, exclude: str | None = None,
                      dug_in: set[str] | None = None) -> list[str]:
    """18.2.1: every hex of any numbered sector eligible for replacement arrival (14.5)."""
    dug = dug_in if dug_in is not None else dug_in_hexes(match, exclude=exclude)
    return [h for s in NUMBERED_SECTORS for h in eligible_hexes(match, s, dug_in=dug)]


def best_by_priority(match: Match, hexes: list[str], *, section: str) -> tuple[str, str]:
    """14.5: the hex of the best terrain priority (Hill, Ravine, Mountain, Mine, Rough,
    Broken, Clear); a die roll among hexes of equal priority. Returns (hex, why)."""
    best = min(placement_priority(h) for h in hexes)
    tied = sorted(h for h in hexes if placement_priority(h) == best)
    terrain = _priority_name(best)
    if len(tied) == 1:
        return tied[0], f"the only eligible {terrain} hex"
    chosen = match.dice.choose(tied, purpose=f"placement among {len(tied)} {terrain} hexes",
                               section=section)
    return chosen, f"rolled among {len(tied)} eligible {terrain} hexes ({', '.join(tied)})"


def _priority_name(prio: int) -> str:
    comp = c.components()
    for name, f in comp.terrain.features.items():
        if f.placement == prio:
            return name
    for name, t in comp.terrain.terrain.items():
        if t.placement == prio:
            return name
    return str(prio)


def placement_numbers(match: Match, hexes: list[str]) -> dict[str, JSON]:
    """14.5, 18.4: the numbers :func:`choose_placement`'s reason states, as an event's data:
    the hexes of the best terrain priority the choice was among (14.5), or the rule that let
    the Japanese player choose (18.4)."""
    if is_two_player(match):
        return {"chosen_under": "18.4"}
    best = min(placement_priority(h) for h in hexes)
    among = sorted(h for h in hexes if placement_priority(h) == best)
    return {"among": among, "tied": len(among)}


def choose_placement(match: Match, hexes: list[str], *, section: str, what: str,
                     resume: c.Resume | None = None) -> Procedure[tuple[str, str]]:
    """14.5 (solitaire: terrain priority and a die among equals) or 18.4 (two-player: the
    Japanese player selects any eligible hex, asked again from ``resume``, a fork).
    Returns (hex, why)."""
    if not is_two_player(match):
        return best_by_priority(match, hexes, section=section)
    answer = yield from ask_str(c.ask(resume, choose(
        c.JAPAN, f"Place {what} on which hex?", "18.4",
        [Option(h, f"{h} ({_priority_name(placement_priority(h))}, sector {c.sector_of(h)})")
         for h in sorted(hexes)],
        kind=KIND_PLACE, private=True, context={"what": what, "section": section})))
    return answer, "chosen by the Japanese player (18.4)"


def roll_sector(match: Match, *, section: str, purpose: str) -> int:
    """14.5: roll 1d6 for the sector of placement."""
    return match.dice.d6(purpose=purpose, section=section)


def place(match: Match, piece: Piece, hex_id: str) -> None:
    """14.5: put a unit face down (dug in) on a hex."""
    dig_in(piece)
    match.state.pieces.move(piece.id, hex_id)


def replacement(match: Match, *, resume: c.Resume | None = None,
                back: Mapping[str, JSON] | None = None) -> Procedure[str | None]:
    """14.4: at the start of the Japanese movement phase, blindly pick one unit from the
    container and place it (14.5): roll the sector; place it on the best eligible hex; if
    none is eligible or the sector is cleared, it goes back. Returns the hex, or None. The
    two-player choice of hex is asked again from ``resume`` with the unit drawn and the
    sector rolled; ``back`` enters the procedure again there (a fork)."""
    if back is not None:
        drawn, rolled = match.state.pieces[back["unit"]], int(back["sector"])
        return (yield from _place_replacement(match, drawn, rolled, eligible_hexes(match, rolled),
                                              resume=resume))
    if not container_units(match):
        emit_japanese(match, "replacement", "14.4", "no Japanese replacement: the container is empty "
                   "(a missed replacement is not accumulated)", piece=None)
        return None
    piece = draw_blind(match, purpose="blind draw of a replacement from the container",
                       section="14.4")
    assert piece is not None
    sector = roll_sector(match, section="14.5", purpose="sector of the replacement")
    if c.is_sector_cleared(match, sector):
        emit_japanese(match, "replacement", "14.5", f"replacement rolled sector {sector}, which is "
                   "cleared: the unit returns to the container", piece=piece.id, sector=sector)
        return None
    hexes = eligible_hexes(match, sector)
    if not hexes:
        emit_japanese(match, "replacement", "14.5", f"replacement rolled sector {sector}: no unoccupied "
                   "deployment hex there within two hexes of a dug-in unit; the unit returns "
                   "to the container", piece=piece.id, sector=sector)
        return None
    return (yield from _place_replacement(match, piece, sector, hexes, resume=resume))


def _place_replacement(match: Match, piece: Piece, sector: int, hexes: list[str], *,
                       resume: c.Resume | None) -> Procedure[str]:
    """14.5, 18.4: place the replacement drawn on one of the eligible hexes of its sector."""
    hex_id, why = yield from choose_placement(
        match, hexes, section="14.5", what="the replacement",
        resume=None if resume is None else resume.then(unit=piece.id, sector=sector))
    place(match, piece, hex_id)
    emit_japanese(match, "replacement", "14.5", f"a face-down Japanese replacement is placed on {hex_id} "
               f"in sector {sector} (rolled): {why}", piece=piece.id, sector=sector, hex=hex_id,
               **placement_numbers(match, hexes))
    return hex_id
