"""Positions built by hand for the rule tests of Iwo Jima: Valor of Arms."""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece
from tabletop.games.iwo_valor import GAME
from tabletop.games.iwo_valor import common as c


def empty_match(turn: int = 5, scenario: str = c.FULL, seed: int = 0,
                dice: Sequence[int] | None = None, **options: str) -> Match:
    """A match with every unit off the map, at a turn, the Minami beach landed."""
    m = Match(GAME, scenario=scenario, seed=seed, options=options)
    for p in m.state.pieces:
        if p.side == c.JAPAN:
            m.state.pieces.move(p.id, c.OUT_OF_PLAY)
            p.hidden = False
        elif p.side == c.US:
            m.state.pieces.move(p.id, c.AVAILABLE)
    m.state.turn = turn
    m.state.vars[c.V_BEACH] = "minami"
    m.state.vars[c.V_LANDED] = list(c.components().hexes_where("beach", "minami"))
    if dice is not None:
        m.script_dice(list(dice))
    return m


def put(m: Match, unit_id: str, hex_id: str, *, hidden: bool = False, landed: int = 0) -> Piece:
    """Place a unit (a Japanese one face-up unless ``hidden``)."""
    p = m.state.pieces[unit_id]
    m.state.pieces.move(unit_id, hex_id)
    if p.side == c.JAPAN:
        p.hidden = hidden
    p.attrs["landed"] = landed
    return p
