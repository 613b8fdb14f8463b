"""What Skirmish at Hill 50's rules share: the game's data, the units on the map, the
enemy, stacking (3.3), revealing (4.2) and eliminating (5.4) units."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from tabletop.core.board.hexgrid import Hex
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import OFF_BOARD, Piece

from .components import ELIMINATED, SIDES, STACK_LIMIT

if TYPE_CHECKING:
    from . import Skirmish


def game(match: Match) -> Skirmish:
    """The game of a match: its unchanging data (map, CRT, movement costs) for the rules."""
    return cast("Skirmish", match.game)


def enemy_of(side: str) -> str:
    """1.2 The other side."""
    return SIDES[1 - SIDES.index(side)]


def on_map(match: Match, side: str) -> list[Piece]:
    """A side's units on the map, in id order."""
    return [p for p in match.state.pieces.select(side=side)
            if p.location not in (ELIMINATED, OFF_BOARD)]


def enemy_hexes(match: Match, side: str) -> frozenset[Hex]:
    """Hexes holding at least one enemy unit."""
    hexmap = game(match).map
    return frozenset(hexmap.hex(p.location) for p in on_map(match, enemy_of(side)))


def full_hexes(match: Match) -> set[str]:
    """3.3 The hexes no move may end in: those holding two units."""
    pieces = match.state.pieces
    return {loc for loc in pieces.occupied() if pieces.count_at(loc) >= STACK_LIMIT}


def reveal_adjacent(match: Match, hex_id: str) -> None:
    """4.2 Reveal Red units next to a Blue unit that ended its move here."""
    for near in game(match).map.neighbor_ids(hex_id):
        for p in match.state.pieces.at(near):
            if p.hidden:
                p.hidden = False
                match.reveal(p, "4.2", f"{p.name} revealed at {p.location}", piece=p.id,
                             unit=p.name, at=p.location)


def eliminate(match: Match, piece: Piece, section: str, *, count: bool = True) -> None:
    """5.4 Remove a unit to the eliminated box (its remaining steps count as lost)."""
    if count:
        match.state.vars["lost"][piece.side] += piece.steps
    piece.steps = 0
    piece.hidden = False
    match.state.pieces.move(piece.id, ELIMINATED)
    match.emit("eliminated", section, f"{piece.name} is eliminated", piece=piece.id, unit=piece.name)
