"""Iwo: Bloodbath in the Bonins' AI hooks and the model of its bots' priorities
(``data/ai.yaml``).

A hook is a function ``(match, side, **params) -> float`` named in the evaluation of
``ai.yaml``; :class:`Priorities` is what the file's ``priorities`` must hold: the US
heuristic bot's knobs (:class:`Tuning`, what calibration varies) and the Japanese bot's
weights (:class:`JapanPriorities`).
"""

from __future__ import annotations

from typing import cast

from tabletop.core.engine.ai import ai_of
from tabletop.core.engine.data import StrictModel
from tabletop.core.engine.match import Match

from . import common as c


class Tuning(StrictModel):
    """The US heuristic bot's knobs (what calibration varies; docs/games/iwo_bonins.md):
    ``priorities().us.model_copy(update={...})`` makes a variant."""

    beachhead: str
    suribachi_bonus: int  # hexes a Suribachi-sector target counts nearer until it falls
    attack_threshold: float  # least value of an attack worth declaring
    loss_weight: float  # a Marine step lost, against a defender eliminated (1.0)
    support_loss_weight: float  # a support unit lost instead (no casualty, 4.3)
    suribachi_weight: float  # extra worth of a kill on Suribachi before it falls (19.2)
    retreat_weight: float  # a defender retreated (DR), against one eliminated (1.0)
    retreat_in_place_weight: float  # a defender retreated in place (DRIP)
    attacker_retreat_weight: float  # the attacker retreated (A)
    attacker_eliminated_weight: float  # the attacker eliminated (Ae)
    engaged_bonus: float  # worth of ending next to a Japanese unit
    land_second_phase: bool  # land in the second phase too (they sit out the barrage)
    reserve_from_turn: int
    reserve_below: int  # commit while fewer effective battalions than this ashore/afloat
    max_reserves: int
    reserve_jp_per_turn: float  # commit only with at least this many Japanese a turn left


class JapanPriorities(StrictModel):
    """The Japanese bot's weights (18.0)."""

    #: 18.5: how much a CRT line favours the bombarding side (the weaker the cover, the higher)
    line_worth: dict[str, int]
    #: 18.1: where the spare HQ and artillery units go, by sector (interior first, never north)
    sector_rank: dict[str, int]


class Priorities(StrictModel):
    """What the bots of both sides follow (``priorities`` in ``data/ai.yaml``)."""

    us: Tuning
    japan: JapanPriorities


def priorities() -> Priorities:
    """The game's bot priorities, read from ``data/ai.yaml`` (checked before play)."""
    from . import GAME

    return cast("Priorities", ai_of(GAME).priorities)


def suribachi(match: Match, side: str) -> float:
    """19.2: 1 once the Suribachi sector is cleared (its guns silent), else 0."""
    return 1.0 if match.state.vars.get(c.V_SURIBACHI) else 0.0
