"""The questions a rule test asks, answered by the game: a regiment's strength with its
modifiers (6.0), what a side controls (2.0), a regiment's cohesion and exhaustion (4.0).
Iwo Jima 1945 has no supply rule: cohesion is the regiments' only wear (docs/games/
iwo_1945.md, "Questions a rule test asks")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .attacks import attack_dice, can_attack, targets
from .cohesion import needs_check
from .japanese_turn import fire_dice
from .positions import (
    JAPAN,
    USMC,
    cohesion,
    control,
    is_exhausted,
    is_infiltrated,
    islands,
    positions,
    regiment_markers,
    regiment_pos,
)

if TYPE_CHECKING:
    from tabletop.core.engine.match import Match

__all__ = ["cohesion_status", "controlled", "fire_dice", "regiment_strength"]


def regiment_strength(m: Match, rid: str) -> dict[str, Any]:
    """3.0, 4.0, 6.0: a regiment's current strength as a rule test reads it: its
    ``position`` (None off the board), its ``markers`` (3 at most, 3.0), its ``cohesion``
    (4.0), whether it is ``exhausted`` or ``infiltrated``, whether it ``may_attack`` now
    (4.0 Key Rules), and ``attacks``: for each position it could attack, the dice it would
    roll with their modifiers (``attacks.attack_dice``: ``dice``, ``base`` 5 and
    ``modifiers``, each a ``modifier()`` dict: -1 against a Japanese-occupied mountain
    position, 2.0/6.0; a tactic card's dice are added when it is played, 6.0)."""
    pos = regiment_pos(m, rid)
    on_board = pos is not None and pos in positions()
    return {
        "regiment": rid,
        "position": pos if on_board else None,
        "markers": len(regiment_markers(m, rid)),
        "cohesion": cohesion(m, rid),
        "exhausted": is_exhausted(m, rid),
        "infiltrated": on_board and is_infiltrated(m, rid),
        "may_attack": on_board and can_attack(m, rid),
        "attacks": {t: attack_dice(m, rid, t) for t in targets(m, rid)} if on_board else {},
    }


def controlled(m: Match, side: str, *, island_only: bool = False) -> list[str]:
    """2.0: the positions a side (``USMC`` or ``Japan``) controls, island positions by
    priority then the beaches left to right (``island_only``: the ten island positions
    only, those 7.0 scores). A position is the side's whose markers last solely occupied it,
    and the Japanese' while an infiltration cube is in it."""
    if side not in (USMC, JAPAN):
        raise ValueError(f"2.0: a side is {USMC} or {JAPAN}, not {side!r}")
    where = islands() if island_only else positions()
    return [p for p in where if control(m, p) == side]


def cohesion_status(m: Match, rid: str) -> dict[str, Any]:
    """4.0: a regiment's ``cohesion`` (1 to 12), whether it is ``exhausted``, whether its
    next action ends with an exhaustion check (``check_after_action``: not exhausted, at
    5 or less), and whether cohesion lets it move or attack (``may_move_or_attack``: above
    1 and not exhausted; other limits, such as an infiltration cube, are the actions')."""
    c = cohesion(m, rid)
    ex = is_exhausted(m, rid)
    return {"regiment": rid, "cohesion": c, "exhausted": ex,
            "check_after_action": needs_check(m, rid),
            "may_move_or_attack": c > 1 and not ex}
