"""Skirmish at Hill 50, 3.0 movement and 4.2 revealing: a side moves its units one at a
time, each to a hex it reaches (3.1) under the enemy's zones of control (3.2) and stacking
(3.3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletop.core.board.hexgrid import Hex
from tabletop.core.board.movement import adjacent_hexes, can_move, reachable
from tabletop.core.engine.decisions import DONE, Option, ResumePoint, ask_str, choose
from tabletop.core.engine.match import Flow, Match
from tabletop.core.engine.pieces import Piece

from . import common as c
from .components import STACK_LIMIT

if TYPE_CHECKING:
    from . import Skirmish


def movement_phase(match: Match, side: str, phase: str) -> Flow:
    """3.1 Move units one at a time: pick a unit, then its destination.

    Each question can be asked again from the state and the units moved so far (a fork
    enters the phase ``phase`` again there: :meth:`~tabletop.core.engine.match.Match.resumed`).
    """
    g = c.game(match)
    back: Any = match.resumed(phase) or {}
    moved: set[str] = set(back.get("moved", ()))
    rules = move_rules(match, side)  # the same for every unit of the phase
    while True:
        pick = back.get("unit")
        if pick is None:
            movable = [p for p in c.on_map(match, side)
                       if p.id not in moved and may_move(g, p, rules)]
            if not movable:
                return None
            opts = [Option(p.id, f"{g.piece_label(p)} at {p.location}") for p in movable]
            pick = yield from ask_str(choose(
                side, "Move which unit?", "3.1", [*opts, Option(DONE, "End movement")],
                kind="select_unit", resume=ResumePoint(phase, {"moved": sorted(moved)})))
            if pick == DONE:
                return None
        back = {}
        piece = match.state.pieces[pick]
        dest = yield from ask_str(choose(
            side,
            f"Move {piece.name} from {piece.location} to?",
            "3.1",
            destinations(match, piece, rules),
            kind="select_hex",
            context={"unit": piece.id},
            resume=ResumePoint(phase, {"moved": sorted(moved), "unit": piece.id}),
        ))
        frm = piece.location
        match.state.pieces.move(piece.id, dest)
        moved.add(piece.id)
        unseen = (side,) if piece.hidden else ()  # 4.1: the other side sees a hidden unit move
        match.emit("move", "3.1", f"{piece.name} moves {frm} -> {dest}", piece=piece.id,
                   unit=piece.name, frm=frm, to=dest, visible_to=unseen,
                   mask=f"a hidden {side} unit moves {frm} -> {dest}" if unseen else "")
        if side == "Blue":
            c.reveal_adjacent(match, dest)


def zoc_rules(g: Skirmish, enemy: frozenset[Hex]) -> dict[str, Any]:
    """3.1-3.2 Where the enemy stands, as :func:`reachable` takes it: enemy hexes are never
    entered; entering an enemy zone of control stops a unit, and none moves directly
    from one to another."""
    return {"enemy": enemy, "ezoc": adjacent_hexes(g.map, enemy),
            "zoc_stops": True, "zoc_to_zoc": False}


def move_rules(match: Match, side: str) -> dict[str, Any]:
    """3.1, 3.2, 3.3 The movement rules of a side's units as :func:`reachable` takes them:
    enemy hexes and their zones of control (3.2), stacking (3.3: no move ends in a full
    hex, as the board stands when asked). The enemy does not move while a side moves, so
    the rules hold for its whole movement phase."""
    g = c.game(match)
    pieces = match.state.pieces
    return {**zoc_rules(g, c.enemy_hexes(match, side)),
            "can_end": lambda h: pieces.count_at(g.map.label(h)) < STACK_LIMIT}


def destination_options(g: Skirmish, start: str, mp: int, enemy: frozenset[Hex]) -> tuple[Option, ...]:
    """3.1-3.2 Every hex a unit with ``mp`` MP at ``start`` reaches while the enemy holds
    ``enemy`` (in hex id order; staying put is not a move), as the options of a menu
    showing the cost of getting there. Nothing else changes them (the map and its costs
    are fixed), so the game keeps them by these (``Skirmish.destinations_from``)."""
    found = reachable(g.map, g.map.hex(start), mp, g.costs, **zoc_rules(g, enemy))
    return tuple(Option(hid, f"{hid} ({cost:g} MP)") for hid, cost in found.costs_by_id().items())


def destinations(match: Match, piece: Piece, rules: Mapping[str, Any]) -> list[Option]:
    """3.1 Where a unit may end its move under its side's ``rules``: the hexes it reaches
    (:func:`destination_options`) that are not full (3.3)."""
    full = c.full_hexes(match)
    return [o for o in c.game(match).destinations_from(piece.location, piece.value("move"),
                                                       rules["enemy"])
            if o.value not in full]


def may_move(g: Skirmish, piece: Piece, rules: Mapping[str, Any]) -> bool:
    """3.1 Whether a unit has anywhere to go under its side's ``rules`` (the menu offers
    only such units)."""
    return can_move(g.map, g.map.hex(piece.location), piece.value("move"), g.costs, **rules)
