"""Valor of Arms' AI: the model of its Marine bot's priorities (``data/ai.yaml``).

:class:`Priorities` is what the file's ``priorities`` must hold, and what the heuristic
Marines (:mod:`.bots`) read; the evaluation of ``ai.yaml`` uses core measures alone.
"""

from __future__ import annotations

from typing import cast

from pydantic import Field

from tabletop.core.engine.ai import ai_of
from tabletop.core.engine.data import StrictModel


class SupportUse(StrictModel):
    """When the Marines spend the best support an attack is offered (the support track)."""

    strength_at_least: int  # the attack's support strength offered is this or more ...
    points_at_least: int  # ... or this many support points are left


class AttackWorth(StrictModel):
    """VIII: what an attack is worth: the steps its odds hit, more for a unit that scores
    every turn it stands (IV.G) or is nearly dead, less an ambush's cost (IX.B)."""

    scoring_bonus: float  # the hits on a unit that scores the Japanese VP every turn
    nearly_dead_steps: int  # a unit with this many steps or fewer is nearly dead ...
    nearly_dead_bonus: float  # ... and its hits count this much more
    ambush_cost: float  # per chance of an ambush (A)
    least_gain: float  # attack only when the worth is more than this


class Priorities(StrictModel):
    """What the heuristic Marines follow (``priorities`` in ``data/ai.yaml``)."""

    #: V.D: Opportunity Fire attacks a company accepts to close with the enemy
    inf_fire: int = Field(ge=0)
    #: IV.D: a regiment commits a second battalion to contact while its Fatigue is below
    surge: int
    #: companies four or more hexes from the enemy that make an HQ lead on
    idle: int = Field(ge=0)
    #: Marine companies within two hexes of a Japanese unit before others look elsewhere
    crowd: int = Field(ge=0)
    #: each division's sector: the deployment areas (by a hex's area) it fights in first
    sectors: dict[str, tuple[str, ...]]
    support: SupportUse
    attack: AttackWorth


def priorities() -> Priorities:
    """The game's bot priorities, read from ``data/ai.yaml`` (checked before play)."""
    from . import GAME

    return cast("Priorities", ai_of(GAME).priorities)
