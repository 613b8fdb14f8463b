"""12.0 US support units: stacking (12.1, in common.may_stack), support units in combat
(12.2), tank operations and anti-tank fire (12.3), Task Force Collins (12.4)."""

from __future__ import annotations

from tabletop.core.engine.decisions import Option
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece

from . import common as c

#: 12.3: the Japanese unit types whose fire may keep a tank out of the differential.
ANTI_TANK_TYPES = frozenset({"anti_tank", "anti_aircraft"})


def tank_battalions(match: Match) -> list[Piece]:
    """12.4: the tank battalions still in the game (map or any box)."""
    return [p for p in match.state.pieces if c.is_tank(p) and p.location != c.OUT_OF_GAME]


def tf_collins_options(match: Match) -> list[Option]:
    """12.4: at the beginning of a movement phase, TF Collins may be formed from any tank
    battalion (once a game)."""
    if match.state.vars[c.V_TF_COLLINS]:
        return []
    return [Option(f"tf_collins:{p.id}", f"Form Task Force Collins from {p.id} ({c.place_name(p.location)}); "
                   "the other tank battalions leave the game")
            for p in tank_battalions(match)]


def form_tf_collins(match: Match, tank_id: str) -> None:
    """12.4: flip the tank battalion to its TF Collins side; the other two are removed for good."""
    tank = match.state.pieces[tank_id]
    tank.attrs["tf_collins"] = True
    tank.face = "back"
    others = [p for p in tank_battalions(match) if p.id != tank_id]
    for p in others:
        match.state.pieces.move(p.id, c.OUT_OF_GAME)
    match.state.vars[c.V_TF_COLLINS] = True
    match.emit("tf_collins", "12.4", f"Task Force Collins forms from {tank_id} in "
               f"{c.place_name(tank.location)}; {', '.join(p.id for p in others) or 'no other tanks'} "
               "leave the game", unit=tank_id, removed=[p.id for p in others], at=tank.location)


def is_anti_tank(defender: Piece) -> bool:
    """12.3: a Japanese anti-tank or anti-aircraft unit."""
    return defender.kind in ANTI_TANK_TYPES


def anti_tank_fire(match: Match, tanks: list[Piece], defender: Piece) -> list[str]:
    """12.3: before the differential, roll 1d6 for each attacking tank against an AT or AA
    defender; on a roll at most the defender's attack factor the tank's attack does not
    count (it is not harmed). Returns the ids of the tanks that do not count."""
    out = []
    factor = c.printed(defender, "attack")
    for t in tanks:
        roll = match.dice.d6(purpose=f"anti-tank fire at {t.id}", section="12.3")
        if roll <= factor:
            out.append(t.id)
            match.emit("anti_tank", "12.3", f"anti-tank fire: roll {roll} <= {factor}: {t.id}'s "
                       "attack does not count", unit=t.id, roll=roll,
                       factor=factor, defender=defender.id, attack=c.printed(t, "attack"),
                       counts=False)
        else:
            match.emit("anti_tank", "12.3", f"anti-tank fire: roll {roll} > {factor}: {t.id} "
                       "attacks", unit=t.id, roll=roll, factor=factor, defender=defender.id,
                       attack=c.printed(t, "attack"), counts=True)
    return out


def combined_attack(pieces: list[Piece], excluded: set[str]) -> int:
    """12.2: the combined attack factors of the attacking units (support units count with
    the unit they stack with), less any tank kept out by 12.3."""
    return sum(c.printed(p, "attack") for p in pieces if p.id not in excluded)
