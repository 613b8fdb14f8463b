"""The questions a rule test asks, answered by the game (docs/games/iwo_valor.md, "Queries").

Public and read-only: each reads the match as it stands and changes nothing.

- :func:`supply` / :func:`supplied`: Part VII, whether a Marine unit is Supplied now and by
  which rule (VII.B turn 1 or the unit's first turn ashore, VII.A a path to an HQ of its
  division or an HQ's own path to a landed beach, VII.B the Independent Regiment's path to a
  landed beach).
- :func:`current_strength`: a unit's Combat Strength now (II.C, by its steps) and the
  modifiers an attack of it gets (VIII.C for a Marine attack, IV.F.5 at a Banzai Charge, IX.G
  and IX.F.1 for Japanese fire), each with its rule, as an attack's event gives them.
- :func:`controls`: the hexes a side holds. The rulebook has no rule of control: a side holds
  the hexes its units occupy (V.B: no hex holds both sides), and the Marines the beach hexes
  they have landed on that no Japanese unit occupies (VII.A, IV.A.3: the Supply sources).
"""

from __future__ import annotations

from typing import Any

from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.events import modifier
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece

from . import common as c

__all__ = ["controls", "current_strength", "supplied", "supply"]


def _unit(match: Match, unit: str | Piece) -> Piece:
    """The piece a query names (by id or as a piece; an unknown id is the core's one message)."""
    return unit if isinstance(unit, Piece) else match.state.pieces[unit]


def supply(match: Match, unit: str | Piece) -> dict[str, Any]:
    """Part VII: whether a Marine unit is Supplied at this moment, and why: ``supplied``
    (a bool) and ``rule`` with ``why`` in words. A unit off the island is not Supplied; a
    Japanese unit needs no Supply (an error)."""
    p = _unit(match, unit)
    if p.side != c.US:
        raise TabletopError(f"VII: only Marine units are Supplied or not ({p.id} is {p.side}'s)")
    if not c.on_island(p):
        return {"unit": p.id, "supplied": False, "rule": "VII", "why": "not on the island"}
    turn = match.state.turn
    if turn == 1:
        return {"unit": p.id, "supplied": True, "rule": "VII.B", "why": "all of Game Turn 1"}
    if p.attrs.get("landed") == turn:
        return {"unit": p.id, "supplied": True, "rule": "VII.B", "why": "its first turn on the island"}
    s = c.Situation.of(match)
    if p.kind == "hq":
        ok = c.hq_supplied(match, s, p)
        return {"unit": p.id, "supplied": ok, "rule": "VII.A",
                "why": "it traces a path to a landed beach hex" if ok
                else "no path to a landed beach hex no Japanese unit holds"}
    bit = c.hex_bits()[p.location]
    sources = c.supply_sources(match, s, p.attrs["division"])
    if c.supplied_from(match, s, sources, p.kind, 5).bits & bit:
        return {"unit": p.id, "supplied": True, "rule": "VII.A",
                "why": "a path of 5 hexes or less to an HQ of its division that provides Supply"}
    ind = match.state.vars[c.V_IND]
    if ind and p.kind == "infantry" and c.regiment_key(p) == ind \
            and c.supplied_from(match, s, c.independent_sources(match, s), p.kind, 4).bits & bit:
        return {"unit": p.id, "supplied": True, "rule": "VII.B",
                "why": "the Independent Regiment's path of 4 hexes or less to a landed beach hex"}
    return {"unit": p.id, "supplied": False, "rule": "VII.A",
            "why": "no Supply Path to an HQ of its division that provides Supply"}


def supplied(match: Match, unit: str | Piece) -> bool:
    """Part VII: whether a Marine unit is Supplied at this moment (:func:`supply`'s answer)."""
    return bool(supply(match, unit)["supplied"])


def current_strength(match: Match, unit: str | Piece, target: str | None = None, *,
                     banzai: bool = False, attack: str = "regular") -> dict[str, Any]:
    """A unit's Combat Strength now: ``base`` (II.C, the strength its remaining ``steps``
    show), ``modifiers`` (each with its rule and value, as the attack's event gives them)
    and ``strength`` (the strength read on the table).

    A Marine infantry unit attacking the Japanese unit in ``target`` (VIII.C: an HQ in its
    hex joining, VIII.A; battalion integrity; elevation; fatigue; the flag, VIII.E), or
    firing at a Banzai Charge from there (``banzai``, IV.F.5); with no target, the modifiers
    every attack of it gets now (HQ, fatigue, flag). A Japanese unit's fire of kind
    ``attack`` (``opportunity``, ``ambush``, ``regular``; IX.G) at the Marine hex
    ``target``; with no target, the turn bonus alone (IX.G). An HQ's or armour unit's
    strength has no modifiers."""
    from . import japanese_combat as jc
    from . import marine_combat as mc

    p = _unit(match, unit)
    base = c.strength(p)
    mods: list[dict[str, Any]] = []
    if p.side == c.US and p.kind == "infantry":
        _, mods = mc.attack_modifiers(match, p, target or p.location, banzai=banzai)
        value = max(1, base + sum(int(m["value"]) for m in mods))
    elif p.side == c.JAPAN:
        if attack not in jc.FIRE_KINDS:
            raise TabletopError(f"IX: a Japanese unit's fire is one of {', '.join(jc.FIRE_KINDS)}, "
                                f"not {attack!r}")
        if target is not None:
            mods = jc.fire_modifiers(match, attack, target, p.location, c.Situation.of(match))
        else:
            bonus = {1: 2, 2: 1}.get(match.state.turn, 0)
            mods = [modifier("IX.G", f"turn {match.state.turn}", bonus)] if bonus else []
        value = jc.clamp(base + sum(int(m["value"]) for m in mods))
    else:
        value = base
    return {"unit": p.id, "steps": p.steps, "base": base, "modifiers": mods, "strength": value}


def controls(match: Match, side: str) -> frozenset[str]:
    """The hexes ``side`` holds now (see the module's note: the hexes its units occupy, and
    for the Marines the landed beach hexes no Japanese unit occupies)."""
    if side not in c.SIDES:
        raise TabletopError(f"no side {side!r} (sides: {', '.join(c.SIDES)})")
    held = {p.location for p in match.state.pieces.select(side=side)
            if c.components().map.is_hex_id(p.location) and c.is_land(p.location)}
    if side == c.US:
        japanese = {p.location for p in c.japanese(match)}
        held |= {h for h in match.state.vars[c.V_LANDED] if h not in japanese}
    return frozenset(held)
