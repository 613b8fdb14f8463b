"""What a rule test asks of a Manila '45 match, answered by the rules' own code.

Each function reads the match and changes nothing. The modifiers are given as the ``fire``
events carry them (``{"rule", "name", "value"}``, :func:`tabletop.core.engine.events.modifier`),
so a test may compare a question asked before a fire with the event logged by it.

The rulebook has no supply rule and no control of hexes: victory (4.2, 4.3) asks only where
the Japanese units stand (:func:`hexes_held`, :func:`victory.japanese_left`,
:func:`victory.north_west_held`). A unit's fire factor never changes (10.11: every DRM goes
on the die roll, never on the strength; 10.16: a unit is whole or eliminated).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece

from . import common as c
from .components import JAPAN
from .defensive_fire import defensive_fire_drms, defensive_firers
from .fire import column_label, modifiers, odds_of_e
from .offensive_fire import (
    _close_assaulters,
    bridge_demolition_drms,
    offensive_drms,
    structure_demolition_drms,
)

#: the kinds of offensive fire (10.2, 10.19, 10.21), as a fire target names them
FIRE_KINDS = ("fire", "bridge", "demolish")


def fire_factor(piece: Piece) -> int:
    """2.5, 10.3: a unit's fire factor, as printed; no rule changes it (10.11, 10.16)."""
    return c.counter(piece).fire


def fire_range(piece: Piece) -> int:
    """2.5, 10.6: a unit's range allowance in hexes."""
    return c.counter(piece).range


def fire_strength(units: Iterable[Piece]) -> int:
    """10.3, 10.4: the fire strength of units firing together: their fire factors added."""
    return sum(fire_factor(p) for p in units)


def crt_column(strength: int) -> str:
    """10.3: the CRT column a fire strength is read on (``<=9``, ``10..14``, ... ``>=50``)."""
    return column_label(strength)


def fire_modifiers(match: Match, side: str, target: str, units: Iterable[Piece], *,
                   kind: str = "fire", close_assault: bool = False) -> list[dict[str, JSON]]:
    """The DRM an offensive fire of ``side`` by ``units`` at ``target`` would have now, each
    a modifier (rule, name, value): a regular fire at an occupied hex (``kind="fire"``,
    10.12-10.15, 10.22, 10.23; ``close_assault``: declared by the CAC units able to, 10.17),
    a bridge demolition (``"bridge"``, ``target`` the hexside ``"AAAA-BBBB"``, 10.19) or a
    structure demolition (``"demolish"``, 10.21). Whether the units may fire there is
    :func:`offensive_fire.can_fire_at`'s question, not this one's."""
    group = list(units)
    if kind == "fire":
        assault = _close_assaulters(match, target, group) if close_assault else []
        return modifiers(offensive_drms(match, side, target, group, c.units_at(match, target), assault))
    if kind == "bridge":
        return modifiers(bridge_demolition_drms(match, side, target, group))
    if kind == "demolish":
        return modifiers(structure_demolition_drms(match, target, group))
    raise ValueError(f"fire kind {kind!r} is not one of {', '.join(FIRE_KINDS)}")


def defensive_fire_modifiers(match: Match, mover: Piece, hex_id: str) -> list[dict[str, JSON]]:
    """9.5 with 10.12: the DRM of the defensive fire a unit entering ``hex_id`` would draw
    from every enemy unit next to it able to fire defensively (9.2-9.4)."""
    return modifiers(defensive_fire_drms(match, mover, hex_id, defensive_firers(match, mover, hex_id)))


def chance_of_e(strength: int, mods: Iterable[dict[str, JSON]]) -> Fraction:
    """10.3, 10.11: the exact chance of an E result for a fire strength and its modifiers."""
    total = 0
    for m in mods:
        value = m["value"]
        assert isinstance(value, int), m
        total += value
    return odds_of_e(strength, total)


def hexes_held(match: Match, side: str) -> frozenset[str]:
    """The hexes holding at least one unit of ``side`` (the rules' only hold on ground: 4.2
    counts the Japanese units left, 4.3 asks for one north of the Pasig and west of the San
    Juan; 8.14 no unit enters a hex the enemy holds)."""
    return frozenset(p.location for p in c.units_on_map(match, side))


def is_revealed(piece: Piece) -> bool:
    """6.5: a Japanese unit flipped face-up for good (a US unit is always face-up)."""
    return piece.side != JAPAN or not piece.hidden
