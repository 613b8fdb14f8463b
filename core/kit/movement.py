"""The kit's movement phase loop: pick a unit, pick its destination, until the player is done.

The units offered are those that may move (:meth:`~.game.KitGame.may_move`: not engaged,
not locked in an enemy zone of control, with somewhere to go); the destinations are the
hexes :func:`~tabletop.core.board.movement.reachable` finds under the Terrain Effects Chart's
costs for the unit's kind, the enemy's zones of control as ``kit.yaml`` says and stacking,
each with its cost. "Stay put" ends a unit's move where it stands (unless ``movement.stay_put``
is false). Every question can be
asked again from the state and the units moved so far (a fork enters the phase again
there). The phase ends by freeing the side's engaged units.
"""

from __future__ import annotations

from typing import Any

from ..engine.decisions import DONE, Option, ResumePoint, ask_str, choose
from ..engine.match import Flow, Match
from .rules import kit


def movement_phase(match: Match, side: str, phase: str) -> Flow:
    """Move ``side``'s units one at a time in phase ``phase`` (kit.yaml's movement section)."""
    g = kit(match)
    section = g.rules.movement.section
    back: Any = match.resumed(phase) or {}
    moved: set[str] = set(back.get("moved", ()))
    rules = g.move_rules(match, side)  # the enemy does not move while a side moves
    pieces = match.state.pieces
    while True:
        pick = back.get("unit")
        if pick is None:
            movable = [p for p in g.on_map(match, side) if p.id not in moved and g.may_move(match, p, rules)]
            if not movable:
                break
            options = [Option(p.id, f"{g.piece_label(p)} at {p.location}", detail={"at": p.location})
                       for p in movable]
            pick = yield from ask_str(choose(
                side, "Move which unit?", section, [*options, Option(DONE, "End movement")],
                kind="select_unit", resume=ResumePoint(phase, {"moved": sorted(moved)})))
            if pick == DONE:
                break
        back = {}
        piece = pieces[pick]
        found = g.destinations(match, piece, rules)
        options = [Option(h, f"{h} ({cost:g} MP)", detail={"cost": cost}) for h, cost in found.items()]
        dest = yield from ask_str(choose(
            side, f"Move {piece.name} from {piece.location} to?", section,
            [*options, *([Option(DONE, "Stay put")] if g.rules.movement.stay_put else [])],
            kind="select_hex", context={"unit": piece.id},
            resume=ResumePoint(phase, {"moved": sorted(moved), "unit": piece.id})))
        moved.add(piece.id)
        if dest != DONE:
            frm = piece.location
            pieces.move(piece.id, dest)
            unseen = (side,) if piece.hidden else ()  # the other side sees a hidden unit move
            mask = f"a hidden {side} unit moves {frm} -> {dest}" if unseen else ""
            match.emit("move", section, f"{piece.name} moves {frm} -> {dest} ({found[dest]:g} MP)",
                       piece=piece.id, unit=piece.name, frm=frm, to=dest, cost=found[dest],
                       visible_to=unseen, mask=mask)
            g.after_move(match, piece, frm)
    for p in g.on_map(match, side):
        if p.attrs.get("engaged"):
            del p.attrs["engaged"]
    return None
