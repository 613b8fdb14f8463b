"""Questions a rule test asks of a Bonins match, answered by the rules: whether a unit is
supplied (10.0), a unit's current strength with its modifiers (2.3, 5.1.7c, 12.4), and what a
side controls (the hexes it holds, the airfields of 8.1, the sectors of 13.0 and 17.0).

Each answer is plain data (JSON), read from the match without changing it; a unit is named by
its id (or given as its piece). Documented in docs/games/iwo_bonins.md, "Questions a rule
test asks".
"""

from __future__ import annotations

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.events import modifier
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece

from . import common as c
from .components import NUMBERED_SECTORS, SURIBACHI
from .us_bombardment import airfield_free

__all__ = ["AIRFIELDS", "FACTORS", "controls", "is_supplied", "strength"]

FACTORS = ("attack", "defense", "movement")
"""2.3.2: the three printed values of a combat unit."""

AIRFIELDS = ("airfield_1", "airfield_2")
"""8.1: the airfields whose hexes, free of Japanese units and ZOC, give the US markers."""


def _unit(match: Match, unit: str | Piece) -> Piece:
    """The combat unit named (by id or as its piece); one clear error for anything else."""
    uid = unit.id if isinstance(unit, Piece) else unit
    if uid not in match.state.pieces or match.state.pieces[uid].side not in c.SIDES:
        raise ValueError(f"iwo_bonins: {uid!r} is not a US or Japanese unit of this match "
                         "(name a unit by its counter id, e.g. '1/23' or '309')")
    return match.state.pieces[uid]


def is_supplied(match: Match, unit: str | Piece) -> bool:
    """10.0: whether a unit is in supply. "There are no supply rules. All units are always
    in supply. Isolated or surrounded units suffer no penalties": every US and Japanese unit
    is, wherever it stands and whoever surrounds it."""
    _unit(match, unit)
    return True


def strength(match: Match, unit: str | Piece) -> dict[str, JSON]:
    """2.3, 5.1.7c, 12.4: a unit's current attack, defense and movement, each as
    ``{"printed": full-strength value, "value": current value, "modifiers": [...]}`` with
    every modifier made by ``modifier(rule, name, value)`` and ``value`` = ``printed`` + the
    modifiers' values.

    - 2.3: a reduced two-step US unit shows its back: each factor's difference from its
      front is a modifier ("reduced side"). Task Force Collins (12.4) is the back of a tank
      battalion, a one-step unit: its printed values are its own side's, never reduced.
    - 14.2: a Japanese unit's printed values are its front's, dug in or not (the
      fortification side hides them from the US player; the rules read them all the same).
    - 5.1.7c: in a Storm turn movement allowances are halved (rounded down) in the first
      movement and the Japanese movement phases: the ``movement`` given is that allowance.
      The second movement phase's allowance (5.1.3a: 3 MP, one hex in a Storm) is
      :func:`movement.allowance` with ``first=False``.

    Strengths in combat add up by stack (12.2) and a tank may be kept out by anti-tank fire
    (12.3): those are the attack's, not the unit's, and a combat event carries them.
    """
    piece = _unit(match, unit)
    if piece.side == c.JAPAN:
        full = current = piece.values["front"]
        reduced = False
    else:
        full = piece.values["back" if piece.attrs.get("tf_collins") else "front"]
        current = piece.values.get(piece.face, full)
        reduced = piece.max_steps > 1 and piece.face == "back" and not piece.attrs.get("tf_collins")
    storm = match.state.vars.get(c.V_WEATHER) == "Storm"
    out: dict[str, JSON] = {"unit": piece.id, "side": piece.side}
    for name in FACTORS:
        printed = int(full[name])
        mods: list[JSON] = []
        if reduced and int(current[name]) != printed:
            mods.append(modifier("2.3", "reduced side", int(current[name]) - printed))
        value = printed + sum(int(str(m["value"])) for m in mods if isinstance(m, dict))
        if name == "movement" and storm and value // 2 != value:
            mods.append(modifier("5.1.7c", "storm, halved", value // 2 - value))
            value //= 2
        out[name] = {"printed": printed, "value": value, "modifiers": mods}
    return out


def controls(match: Match, side: str) -> dict[str, JSON]:
    """6.2d, 8.1, 13.0, 17.0: what a side controls now, in the rules' terms (the rulebook has
    no control rule of its own; these are the places its rules ask who holds):

    - ``hexes``: the hexes holding a unit of the side (6.2d: no hex holds both sides' units
      but a landing beach hex under a forced attack, 11.2, which both then hold);
    - ``airfields`` (8.1): for the US, each airfield all of whose hexes are free of Japanese
      units and their ZOC (the tenth and eleventh markers' condition, storms aside, 8.4);
      for Japan, each airfield that is not;
    - ``sectors`` (13.0, 17.0): for the US, the numbered sectors cleared and ``"suribachi"``
      once Suribachi is cleared; for Japan, the sectors not cleared.
    """
    if side not in c.SIDES:
        raise ValueError(f"iwo_bonins: {side!r} is not a side (the sides are {', '.join(c.SIDES)})")
    us = side == c.US
    cleared = set(match.state.vars[c.V_CLEARED])
    sectors: list[JSON] = [s for s in NUMBERED_SECTORS if (s in cleared) == us]
    if bool(match.state.vars[c.V_SURIBACHI]) == us:
        sectors.append(SURIBACHI)
    return {
        "side": side,
        "hexes": sorted(c.board(match).hex_ids(side)),
        "airfields": [a for a in AIRFIELDS if airfield_free(match, a) == us],
        "sectors": sectors,
    }
