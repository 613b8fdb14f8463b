"""Iwo Jima 1945's AI hooks and the model of its bot's priorities (``data/ai.yaml``).

A hook is a function ``(match, side, **params) -> float`` named in the evaluation of
``ai.yaml``; :class:`Priorities` is what the file's ``priorities`` must hold, and what the
heuristic USMC bot (:mod:`.bots`) reads.
"""

from __future__ import annotations

from typing import cast

from pydantic import Field

from tabletop.core.engine.ai import ai_of
from tabletop.core.engine.data import StrictModel
from tabletop.core.engine.match import Match

from . import positions as P


class TargetWeights(StrictModel):
    """How the bot rates an attack's target (6.0): ``base`` less the Japanese markers and
    bunker there, a mountain's lost die, more for Mt. Suribachi (2.0), less the lower the
    position's priority (``priority / priority_divisor``)."""

    base: float
    per_marker: int
    per_bunker: int
    mountain: int  # 2.0: a mountain costs a die
    suribachi: int  # 2.0: +2 cohesion to all, and its guns fall silent
    infiltration: float  # a cube alone: winning back control
    priority_divisor: int = Field(gt=0)
    cohesion_divisor: int = Field(gt=0)  # plus the attacker's cohesion over this


class CardUse(StrictModel):
    """When the bot plays its USMC cards (5.0)."""

    good_actions: int  # Command Coordination, Amtracs: at least this many worthwhile actions
    medical_at_most: int  # Fighting Seabees, Navy Corpsman: a regiment this worn or more
    valor_below: int  # Uncommon Valor: regiments below this cohesion ...
    valor_regiments: int  # ... at least this many of them
    japanese_medical_at_most: int  # in the Japanese turn: a fresh regiment this worn


class Priorities(StrictModel):
    """What the heuristic USMC bot follows (``priorities`` in ``data/ai.yaml``)."""

    walk_in_cohesion: int  # walk into a vacant Japanese position with this cohesion or more
    attack_floor: int  # attack only with a regiment at this cohesion or more (6.0)
    last_turn_attack_floor: int  # the same once the Japanese deck is spent (7.0)
    regroup_below: int  # regroup a regiment below this cohesion (6.0)
    late_cards: int  # clear infiltration cubes when this few Japanese cards are left (7.0)
    target: TargetWeights
    cards: CardUse


def priorities() -> Priorities:
    """The game's bot priorities, read from ``data/ai.yaml`` (checked before play)."""
    from . import GAME

    return cast("Priorities", ai_of(GAME).priorities)


def cohesion(match: Match, side: str) -> float:
    """4.0: the cohesion of the USMC regiments (on the board and in reserve); 0 for the
    Japanese, who have none."""
    if side != P.USMC:
        return 0.0
    return float(sum(P.cohesion(match, rid) for rid in P.regiment_ids()))

