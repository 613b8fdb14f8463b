"""Bots for both sides of Manila '45. They read only their side's view and the decision.

The Japanese heuristic bot sets up a defence in depth (static guns in the heavy structures,
Intramuros held two-deep, the north-west of 4.3 never empty, the south held at Nichols Field
and Fort McKinley), stays put (moving draws US defensive fire, 9.1), fires defensively at every
chance, demolishes bridges from turn 3 (10.19) and concentrates its offensive fire.
The US heuristic bot enters the divisions where the fighting is, steps each unit toward the
nearest Japanese unit it can see, stops artillery within range, bridges rivers with its
engineers (8.9), fires everything it can at the target most units can reach, close assaults
(10.17) and advances after combat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from tabletop.core.canonical import JSON
from tabletop.core.decisions import Decision
from tabletop.core.match import Match

from . import common as c
from .components import JAPAN, US, components


def heuristic_setup(match: Match, seed: int) -> list[tuple[str, str]]:
    """3.2: the Japanese bot's set-up, unit id -> hex id, legal under 3.2 and 6.3."""
    from .setup import is_setup_hex

    rng = random.Random(f"manila45-setup:{seed}")
    comp = components()
    hm = comp.hexmap
    heavy = [hm.label(h) for h in hm.hexes() if hm.terrain(h) == "heavy" and is_setup_hex(hm.label(h))]
    airfields = [hm.label(h) for h in hm.hexes() if hm.terrain(h) == "airfield"
                 and is_setup_hex(hm.label(h))]
    urban = [hm.label(h) for h in hm.hexes() if hm.terrain(h) == "urban" and is_setup_hex(hm.label(h))]
    core_urban = [h for h in urban if c.distance(h, "3822") <= 6]
    nw_urban = [h for h in urban if c.is_north_west(h) and h not in core_urban]
    rng.shuffle(heavy)
    heavy.sort(key=lambda h: (not c.inside_wall(h), c.distance(h, "3822") > 4))
    rng.shuffle(core_urban)
    rng.shuffle(nw_urban)
    statics = [p for p in match.state.pieces if p.side == JAPAN and c.is_static(p)]
    mobiles = [p for p in match.state.pieces if p.side == JAPAN and not c.is_static(p)]
    rng.shuffle(statics)
    rng.shuffle(mobiles)
    count: dict[str, int] = {}
    static_at: set[str] = set()
    out: list[tuple[str, str]] = []

    def put(uid: str, hex_id: str, static: bool) -> bool:
        if count.get(hex_id, 0) >= 2 or (static and hex_id in static_at):
            return False
        count[hex_id] = count.get(hex_id, 0) + 1
        if static:
            static_at.add(hex_id)
        out.append((uid, hex_id))
        return True

    static_spots = heavy + airfields + nw_urban[:4] + core_urban
    for p in statics:
        for h in static_spots:
            if put(p.id, h, True):
                break
    mobile_spots = ([h for h in heavy if c.inside_wall(h)] * 1 + nw_urban[:6] + heavy
                    + core_urban + airfields + nw_urban + urban)
    for p in mobiles:
        for h in mobile_spots:
            if put(p.id, h, False):
                break
    return out


@cache
def _hex_distance(a: str, b: str) -> int:
    return c.distance(a, b)


class HeuristicAgent:
    """A competent bot for either side (see the module docstring)."""

    name = "heuristic"

    def __init__(self, side: str = "", seed: int = 0) -> None:
        self.side = side
        self._rng = random.Random(f"manila45-heuristic:{side}:{seed}")

    def choose(self, view: Mapping[str, Any], decision: Decision) -> JSON:
        """Answer by the decision's kind."""
        kind = decision.kind
        values = [o.value for o in decision.options]
        handler = getattr(self, f"_{kind}", None)
        if handler is not None:
            value = handler(view, decision)
            if value is not None and decision.is_legal(value):
                return value
        return values[0]

    # -- set-up -------------------------------------------------------------------------
    def _setup_mode(self, view: Mapping[str, Any], d: Decision) -> JSON:
        return "bot"

    def _setup_adjust(self, view: Mapping[str, Any], d: Decision) -> JSON:
        return "done"

    def _setup_hex(self, view: Mapping[str, Any], d: Decision) -> JSON:
        vals = [str(o.value) for o in d.options]
        best = [h for h in vals if c.terrain(h) == "heavy"] or [h for h in vals if c.is_north_west(h)]
        return self._rng.choice(best or vals)

    # -- both sides ---------------------------------------------------------------------
    def _defensive_fire(self, view: Mapping[str, Any], d: Decision) -> JSON:
        return True

    def _close_assault(self, view: Mapping[str, Any], d: Decision) -> JSON:
        return self.side == US

    def _advance(self, view: Mapping[str, Any], d: Decision) -> JSON:
        return self.side == US

    def _fire_unit(self, view: Mapping[str, Any], d: Decision) -> JSON:
        strength = 0
        for o in d.options:
            if o.value == "resolve":
                strength = int(o.label.split("(")[1].split()[0])
        if strength >= 50:
            return "resolve"  # 10.3: the last column; more factors add nothing
        target = str(d.context.get("target", ""))

        def far(o: Any) -> int:
            where = o.label.rsplit(" in ", 1)[-1]
            if where == "the air" or len(target) != 4 or not where[:4].isdigit():
                return 0
            return _hex_distance(where, target)

        units = sorted((o for o in d.options if o.value != "resolve"), key=far)
        if units and strength and far(units[0]) >= 5 and strength >= 30:
            return "resolve"  # 10.13: a distant unit would add +2 to the whole fire
        return units[0].value if units else "resolve"

    def _fire_target(self, view: Mapping[str, Any], d: Decision) -> JSON:
        best: tuple[int, JSON] | None = None
        for o in d.options:
            v = o.value
            if not isinstance(v, dict):
                continue
            if "bridge" in v:
                if self.side == JAPAN:
                    return v
                continue
            if "demolish" in v:
                continue
            n = int(o.label.split("(")[1].split()[0]) if "(" in o.label else 1
            if best is None or n > best[0]:
                best = (n, v)
        if best is None:
            return "end"
        if self.side == US and best[0] < 2 and view.get("turn", 1) <= 2:
            return best[1]
        return best[1]

    # -- movement -----------------------------------------------------------------------
    def _select_mover(self, view: Mapping[str, Any], d: Decision) -> JSON:
        if self.side == JAPAN:
            return "end"
        enemy = _enemy_hexes(view, self.side)
        for o in d.options:
            if not isinstance(o.value, str) or o.value == "end":
                continue
            where = o.label.rsplit(" in ", 1)[-1]
            if not any(_hex_distance(where, e) <= 1 for e in enemy):
                return o.value
        return "end"

    def _move_step(self, view: Mapping[str, Any], d: Decision) -> JSON:
        if self.side == JAPAN:
            return "stop"
        unit = str(d.context.get("unit", ""))
        here = _location(view, unit)
        enemy = _enemy_hexes(view, self.side)
        if not here or not enemy:
            return "stop"
        ctr = components().counters.get(unit)
        reach = ctr.range if ctr is not None and ctr.has("ifc") else 1
        near_now = min(_hex_distance(here, e) for e in enemy)
        if near_now <= max(1, reach - 2):
            return "stop"
        best = None
        for o in d.options:
            if o.value == "stop":
                continue
            h = str(o.value)
            dist = min(_hex_distance(h, e) for e in enemy)
            if reach > 1 and dist <= 1:
                continue  # artillery keeps out of close combat
            key = (dist, int(o.detail.get("mp", 1)) if o.detail else 1)
            if dist < near_now and (best is None or key < best[0]):
                best = (key, h)
        return best[1] if best else "stop"

    # -- US entry and support -------------------------------------------------------------
    def _entry_org(self, view: Mapping[str, Any], d: Decision) -> JSON:
        for org in ("37id", "1cav", "11ab"):
            if d.is_legal(org):
                return org
        return None

    def _entry_hex(self, view: Mapping[str, Any], d: Decision) -> JSON:
        enemy = _enemy_hexes(view, self.side) or ["3822"]
        opts = [str(o.value) for o in d.options]
        opts.sort(key=lambda h: (min(_hex_distance(h, e) for e in enemy), h))
        return self._rng.choice(opts[:4])

    def _pontoon(self, view: Mapping[str, Any], d: Decision) -> JSON:
        rest = [o.value for o in d.options if o.value != "none"]
        return rest[0] if rest else "none"


def _location(view: Mapping[str, Any], unit: str) -> str:
    for p in view.get("pieces", ()):
        if p.get("id") == unit:
            return str(p.get("location", ""))
    return ""


def _enemy_hexes(view: Mapping[str, Any], side: str) -> list[str]:
    return sorted({str(p["location"]) for p in view.get("pieces", ())
                   if p.get("side") not in (side, "") and not str(p["location"]).startswith("box:")})
