"""Manila '45's AI hooks and the model of its bots' priorities (``data/ai.yaml``).

A hook is a function ``(match, side, **params) -> float`` named in the evaluation of
``ai.yaml``; :class:`Priorities` is what the file's ``priorities`` must hold, and what the
heuristic bots and the Japanese bot's set-up (:mod:`.bots`) read.
"""

from __future__ import annotations

from typing import cast

from pydantic import Field

from tabletop.core.engine.ai import ai_of
from tabletop.core.engine.data import StrictModel
from tabletop.core.engine.match import Game, Match

from . import common as c
from .components import JAPAN


class SetupPriorities(StrictModel):
    """How the Japanese bot sets up (3.2): outposts alone far from the city (4.2)."""

    core_within: int = Field(ge=0)  # urban hexes this near Intramuros (3822) are its core
    heavy_within: int = Field(ge=0)  # heavy buildings this near Intramuros are taken first
    outposts: int = Field(ge=0)  # mobile units set up alone, away from the city
    outpost_away: int = Field(ge=0)  # hexes at least from Intramuros
    outpost_apart: int = Field(ge=0)  # hexes at least between two outposts


class FirePriorities(StrictModel):
    """How a fire's target is chosen (10.2-10.3): the chance of E times the units hit, less
    the factors spent."""

    factor_cost: float  # per fire factor committed
    flexible_cost: float  # per factor of units that could fire elsewhere
    least_score: float  # fire only at a target scoring more than this


class CoastalPriorities(StrictModel):
    """When the US bot moves a unit by sea with the 672nd (8.10)."""

    ride_from: int = Field(ge=1)  # a unit this many steps by land from the Japanese boards it
    pickup: int = Field(ge=0)  # ... when the 672nd waits at most this many steps away
    gain: int = Field(ge=1)  # the sea must bring the passenger this many steps nearer


class RaidPriorities(StrictModel):
    """When a Japanese mobile unit counter-attacks US artillery (9.3, 10.1, 10.17)."""

    from_turn: int = Field(ge=1)  # the first turn of raids
    keep: int = Field(ge=0)  # no raid once Japan is down to this many units (4.2)
    cover_only: bool  # attack only from an urban or heavy structures hex (10.12)


class Priorities(StrictModel):
    """What the heuristic bots of both sides follow (``priorities`` in ``data/ai.yaml``)."""

    setup: SetupPriorities
    fire: FirePriorities
    crowd: int  # friendly units around an enemy hex before others look elsewhere
    crowd_penalty: int  # path steps a unit would go further per unit of crowding
    candidates: int = Field(ge=1)  # nearest enemy hexes a moving unit considers
    evade_from: int  # the turn from which Japanese mobile units slip away from the US
    threat: int  # how near US units come before a Japanese unit slips away
    far_enough: int  # a slipping unit counts hexes from the US up to this many
    cover: dict[str, float]  # what a hex's terrain adds to a slipping unit's step
    coastal: CoastalPriorities
    raid: RaidPriorities


def priorities(game: Game | None = None) -> Priorities:
    """The game's bot priorities, read from ``data/ai.yaml`` (checked before play)."""
    if game is None:
        from . import GAME

        game = GAME
    return cast("Priorities", ai_of(game).priorities)


def north_west(match: Match, side: str) -> float:
    """4.3: the Japanese units north of the Pasig and west of the San Juan while the US may
    still win by sudden death (up to turn 2); 0 after, and for the US."""
    if side != JAPAN or match.state.turn > 2:
        return 0.0
    return float(sum(1 for p in c.units_on_map(match, JAPAN) if c.is_north_west(p.location)))
