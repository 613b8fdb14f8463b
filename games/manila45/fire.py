"""Resolving a fire (10.3) and the die roll modifiers every fire shares (10.11-10.15, 9.5).

One procedure for every kind of fire, defensive or offensive: total the fire factors, find the
CRT column, roll one die, add the final DRM, read E or - (10.3, 10.16). The DRM are listed
with their sections, so the log says why a fire went as it did; the exact odds come from the
same table (:meth:`Table.odds`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.events import modifier, modifiers_text, signed
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece

from . import common as c
from .components import components

Drm = tuple[int, str, str]  # value, section, why


def terrain_drms(match: Match, firer_hexes: Sequence[str], target_hex: str,
                 targets: Sequence[Piece], firers: Sequence[Piece]) -> list[Drm]:
    """10.12, the DRM used in offensive and defensive fire alike: urban or heavy structures
    (more with rubble), the 100 m contour either way (10.10), the Intramuros wall (10.9),
    an armored target unless a firer is anti-armor (10.14). 10.15: the DRM of either unit
    of a stack count."""
    out: list[Drm] = []
    rubble = target_hex in match.state.vars[c.V_RUBBLE]
    kind = c.terrain(target_hex)
    if kind == "urban":
        out.append((2 if rubble else 1, "10.12",
                    "target in an urban hex" + (" with rubble" if rubble else "")))
    elif kind == "heavy":
        out.append((3 if rubble else 2, "10.12", "target in a heavy structures hex"
                    + (" with rubble" if rubble else "")))
    ground = [h for h in firer_hexes if components().hexmap.is_hex_id(h)]
    if ground:
        target_up = c.on_plateau_hex(target_hex)
        ups = [c.on_plateau_hex(h) for h in ground]
        if not target_up and all(ups):
            out.append((-1, "10.12", "firing from above the 100 m contour at a unit below it"))
        elif target_up and not all(ups):
            out.append((1, "10.12", "firing from below the 100 m contour at a unit above it"))
        if c.inside_wall(target_hex) and any(not c.inside_wall(h) for h in ground):
            out.append((1, "10.12", "firing from outside the wall to its inside"))
    if any(c.has(t, "armored") for t in targets) and not any(c.has(f, "anti_armor") for f in firers):
        out.append((2, "10.14", "armored target and no anti-armor firer"))
    return out


def column_label(strength: int) -> str:
    """The CRT column of a fire strength (10.3)."""
    crt = components().crt
    return str(crt.columns[crt.column_index(strength)])


def odds_of_e(strength: int, drm: int) -> Fraction:
    """The exact chance of an E result for a strength and a final DRM (10.3)."""
    return components().crt.odds(strength, modifier=drm).get("E", Fraction(0))


def modifiers(drms: Sequence[Drm]) -> list[dict[str, JSON]]:
    """A fire's DRM as an event's data carries them: one :func:`modifier` each (its section,
    what it is for, its signed value), in the order they apply."""
    return [modifier(section, why, value) for value, section, why in drms]


def fire_text(data: Mapping[str, Any]) -> str:
    """A fire event's log line, written from its data alone (:func:`resolve`)."""
    return (f"{data['purpose']}: {', '.join(data['names'])} ({data['strength']} factors, "
            f"column {data['column']}) at {data['target']}: roll {data['roll']}, DRM "
            f"{signed(data['drm'])} -> {data['result']} "
            f"[{modifiers_text(data['modifiers']) or 'no DRM'}]")


def resolve(match: Match, firers: Sequence[Piece], strength: int, drms: Sequence[Drm],
            target: str, section: str, purpose: str) -> str:
    """10.3: roll on the CRT for a fire of ``strength`` with these DRM; returns E or -.

    One six-sided die (2.1); the final DRM is added to the roll, never to the strength, so it
    never changes the column (10.11). The ``fire`` event carries the fire's numbers as data:
    its purpose, the firers (ids and names), strength, CRT column, target (a hex, or a
    bridge's hexside), roll, each DRM as a modifier (rule, name, value), the final DRM and
    the result; its text is written from them (:func:`fire_text`).

    Firers and targets named in the text have been revealed before this is called (6.5)."""
    total = sum(d for d, _, _ in drms)
    roll = match.dice.d6(purpose=purpose, section=section)
    result = components().crt.lookup(strength, roll, modifier=total)
    data: dict[str, JSON] = {
        "purpose": purpose, "firers": [p.id for p in firers], "names": [p.name for p in firers],
        "strength": strength, "column": column_label(strength), "target": target, "roll": roll,
        "modifiers": modifiers(drms), "drm": total, "result": result}
    match.emit("fire", section, fire_text(data), **data)
    return result


ARMOUR_DRM = "10.14"


def shown_chances(strength: int, drms: Sequence[Drm], firers: Sequence[Piece]) -> str:
    """10.3, 10.14: the chances a player reads before a fire, adding up to 100%: E or no
    effect at the fire's DRM without the armoured-target DRM, and again with it when no firer
    is anti-armour. Whether the target is armoured is never looked at, so the line tells the
    firer nothing the fog of war (6.5) hides."""
    from tabletop.core.engine.odds import describe

    base = sum(d for d, sec, _ in drms if sec != ARMOUR_DRM)
    could = not any(c.has(f, "anti_armor") for f in firers)

    def line(drm: int) -> str:
        e = odds_of_e(strength, drm)
        return describe({"eliminated (E)": e, "no effect": 1 - e})

    return line(base) + (f"; if the target is armoured: {line(base + 2)}" if could else "")
