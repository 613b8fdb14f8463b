"""Skirmish at Hill 50's AI hooks and the model of its bot's priorities (``data/ai.yaml``).

A hook is a function ``(match, side, **params) -> float`` named in the evaluation of
``ai.yaml``; :class:`Priorities` is what the file's ``priorities`` must hold, and what the
pusher bot reads.
"""

from __future__ import annotations

from typing import cast

from pydantic import Field

from tabletop.core.engine.ai import ai_of
from tabletop.core.engine.data import StrictModel
from tabletop.core.engine.match import Game, Match

from . import common as c


class Priorities(StrictModel):
    """What the pusher bot follows (``priorities`` in ``data/ai.yaml``)."""

    #: 3.0: Red moves only when more than this many of its units may move
    red_holds_unless_more_than: int = Field(ge=0)
    #: 5.3: the least attack-minus-defense differential the bot attacks at
    least_differential: int


def priorities(game: Game) -> Priorities:
    """The game's bot priorities, read from ``data/ai.yaml`` (checked before play)."""
    return cast("Priorities", ai_of(game).priorities)


def units_in_contact(match: Match, side: str) -> float:
    """3.2, 5.1: how many of the side's units stand next to an enemy unit (in its zone of
    control, and so able to attack it)."""
    hexmap = c.game(match).map
    enemy = {p.location for p in c.on_map(match, c.enemy_of(side))}
    return float(sum(1 for p in c.on_map(match, side)
                     if any(n in enemy for n in hexmap.neighbor_ids(p.location))))
