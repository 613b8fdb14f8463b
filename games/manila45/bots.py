"""Bots for both sides of Manila '45. They read only their side's view and the decision.

The Japanese heuristic bot sets up a defence in depth (static guns in the heavy structures,
Intramuros held two-deep, the north-west of 4.3 never empty, the south held at Nichols Field
and Fort McKinley) with a few mobile outposts alone far from the city (4.2: one unit left
anywhere wins), fires defensively at every chance, demolishes bridges from turn 3 (10.19),
concentrates its offensive fire, and from turn 3 slips mobile units outside Intramuros away
from US units closing on them, never into a hex next to one (9.1).
The US heuristic bot enters the divisions where the fighting is, sends each direct-fire unit
toward the nearest Japanese position not already crowded by its own units (so the force
spreads over every position), stops artillery within range, bridges rivers with its
engineers (8.9), plans each fire with the adjacent units first and long-range artillery and
air only where they add to the chance of E (10.13), close assaults (10.17) and advances
after combat. Their thresholds and weights are the ``priorities`` of ``data/ai.yaml``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from tabletop.core.engine.agents import KindBot, handles
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision
from tabletop.core.engine.match import Match

from . import common as c
from .ai import Priorities, priorities
from .components import JAPAN, US, components


def heuristic_setup(match: Match, seed: int) -> list[tuple[str, str]]:
    """3.2: the Japanese bot's set-up, unit id -> hex id, legal under 3.2 and 6.3."""

    rng = random.Random(f"manila45-setup:{seed}")
    plan = priorities(match.game).setup
    comp = components()
    hm = comp.hexmap
    heavy = [hm.label(h) for h in hm.hexes() if hm.terrain(h) == "heavy" and c.is_setup_hex(hm.label(h))]
    airfields = [hm.label(h) for h in hm.hexes() if hm.terrain(h) == "airfield"
                 and c.is_setup_hex(hm.label(h))]
    urban = [hm.label(h) for h in hm.hexes() if hm.terrain(h) == "urban" and c.is_setup_hex(hm.label(h))]
    core_urban = [h for h in urban if components().hexmap.id_distance(h, "3822") <= plan.core_within]
    nw_urban = [h for h in urban if c.is_north_west(h) and h not in core_urban]
    rng.shuffle(heavy)
    heavy.sort(key=lambda h: (not c.inside_wall(h),
                              components().hexmap.id_distance(h, "3822") > plan.heavy_within))
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
    # Outposts: a few mobile units alone in cover far from the city and from each other,
    # which the US must hunt down before turn 10 (4.2).
    far = [h for h in urban + heavy + airfields
           if components().hexmap.id_distance(h, "3822") >= plan.outpost_away]
    rng.shuffle(far)
    outposts: list[str] = []
    for h in far:
        if len(outposts) >= plan.outposts:
            break
        if all(_hex_distance(h, o) >= plan.outpost_apart for o in outposts) and count.get(h, 0) == 0:
            outposts.append(h)
    for p, h in zip(mobiles, outposts, strict=False):
        put(p.id, h, False)
    mobiles = mobiles[len(outposts):]
    mobile_spots = ([h for h in heavy if c.inside_wall(h)] * 1 + nw_urban[:6] + heavy
                    + core_urban + airfields + nw_urban + urban)
    for p in mobiles:
        for h in mobile_spots:
            if put(p.id, h, False):
                break
    return out


@cache
def _hex_distance(a: str, b: str) -> int:
    return components().hexmap.id_distance(a, b)


class HeuristicAgent(KindBot):
    """A competent bot for either side (see the module docstring)."""

    name = "heuristic"

    def __init__(self, side: str = "", seed: int = 0) -> None:
        self.side = side
        #: what the bot follows: ``priorities`` in data/ai.yaml (:class:`~.ai.Priorities`)
        self.prio: Priorities = priorities()
        self.crowd, self.crowd_penalty = self.prio.crowd, self.prio.crowd_penalty
        self.candidates, self.evade_from = self.prio.candidates, self.prio.evade_from
        self.threat = self.prio.threat
        self._rng = random.Random(f"manila45-heuristic:{side}:{seed}")
        self._enemy: tuple[tuple[Any, Any], list[str]] | None = None
        self._plan_stamp: tuple[Any, Any] | None = None
        self._assigned: dict[str, str] = {}
        self._claims: dict[str, int] = {}

    def _enemy_hexes(self, view: Mapping[str, Any]) -> list[str]:
        """The hexes holding enemy units, read once per phase during one's own movement
        (enemy units neither move nor die then)."""
        stamp = (view.get("turn"), view.get("phase"))
        moving = str(stamp[1]).endswith("move") and str(stamp[1]).startswith(
            "us" if self.side == US else "jp")
        if moving and self._enemy is not None and self._enemy[0] == stamp:
            return self._enemy[1]
        hexes = _enemy_hexes(view, self.side)
        self._enemy = (stamp, hexes) if moving else None
        return hexes

    def choose(self, view: Mapping[str, Any], decision: Decision) -> JSON:
        """Answer by the decision's kind."""
        kind = decision.kind
        values = [o.value for o in decision.options]
        handler = self.handler(kind)
        if handler is not None:
            value = handler(view, decision)
            if value is not None and decision.is_legal(value):
                return value
        return values[0]

    @handles("coastal_rider", "coastal_landing", "entry_unit", "replacement_unit", "replacement_hex")
    def _first(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """The first option: 8.10's amtrac rider and landing, 3.4's entering unit, 7.2-7.3's
        replacement and its hex, as the rules list them."""
        return d.options[0].value

    # -- set-up -------------------------------------------------------------------------
    @handles("setup_mode")
    def _setup_mode(self, view: Mapping[str, Any], d: Decision) -> JSON:
        return "bot"

    @handles("setup_adjust")
    def _setup_adjust(self, view: Mapping[str, Any], d: Decision) -> JSON:
        return DONE

    @handles("setup_hex")
    def _setup_hex(self, view: Mapping[str, Any], d: Decision) -> JSON:
        vals = [str(o.value) for o in d.options]
        best = [h for h in vals if c.terrain(h) == "heavy"] or [h for h in vals if c.is_north_west(h)]
        return self._rng.choice(best or vals)

    # -- both sides ---------------------------------------------------------------------
    @handles("defensive_fire")
    def _defensive_fire(self, view: Mapping[str, Any], d: Decision) -> JSON:
        return True

    @handles("close_assault")
    def _close_assault(self, view: Mapping[str, Any], d: Decision) -> JSON:
        return self.side == US

    @handles("advance")
    def _advance(self, view: Mapping[str, Any], d: Decision) -> JSON:
        return self.side == US

    @handles("fire_unit")
    def _fire_unit(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """10.3, 10.13: add the units of the planned fire (:func:`_plan_fire`) one by one."""
        offered = {str(o.value) for o in d.options if o.value != DONE}
        target = str(d.context.get("target", ""))
        if len(target) != 4 or not target.isdigit():
            return next(iter(sorted(offered)), DONE) if offered else DONE
        chosen = {str(u) for u in d.context.get("group", ())}
        where = {str(p["id"]): str(p["location"]) for p in view.get("pieces", ())
                 if p.get("side") == self.side and p.get("kind") != "hidden"}
        free = [(u, where[u]) for u in sorted(offered | chosen) if u in where]
        group, _ = _plan_fire(free, target, self.side, int(view.get("turn", 1) or 1))
        for uid, _fire, _band in group:
            if uid in offered:
                return uid
        if d.is_legal(DONE):
            return DONE
        return d.options[0].value

    def _group_band(self, d: Decision) -> int:
        """The range band of the units already firing (0 adjacent, 1 two-four, 2 five+)."""
        return int(d.context.get("band", 0))

    @handles("fire_target")
    def _fire_target(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """10.2: the target whose best fire from the units still free kills most, judged from
        the view and the printed map alone; Japan demolishes bridges first (10.19)."""
        free = _free_units(view, self.side)
        turn = int(view.get("turn", 1) or 1)
        stacks = view.get("stacks", {})
        fire = self.prio.fire
        best: tuple[float, JSON] | None = None
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
            target = str(v.get("fire", ""))
            group, p_e = _plan_fire(free, target, self.side, turn)
            flexible = sum(f for uid, f, band in group if band > 0 or _is_air(uid))
            score = (p_e * len(stacks.get(target, ())) - fire.factor_cost * sum(f for _, f, _ in group)
                     - fire.flexible_cost * flexible)
            if best is None or score > best[0]:
                best = (score, v)
        if best is None or best[0] <= fire.least_score:
            return DONE
        return best[1]

    # -- movement -----------------------------------------------------------------------
    @handles("select_mover")
    def _select_mover(self, view: Mapping[str, Any], d: Decision) -> JSON:
        if self.side == JAPAN:
            return self._japanese_mover(view, d)
        enemy = self._enemy_hexes(view)
        for o in d.options:
            if not isinstance(o.value, str) or o.value == DONE:
                continue
            where = o.label.rsplit(" in ", 1)[-1]
            if not any(_hex_distance(where, e) <= 1 for e in enemy):
                return o.value
        return DONE

    def _japanese_mover(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """From turn 3 (4.3 no longer at stake), a mobile unit outside Intramuros that US units
        are closing on (within ``threat`` hexes, none adjacent) slips away (4.2: one unit left
        anywhere wins)."""
        turn = int(view.get("turn", 1) or 1)
        if turn < self.evade_from:
            return DONE
        enemy = self._enemy_hexes(view)
        if not enemy:
            return DONE
        for o in d.options:
            if not isinstance(o.value, str) or o.value == DONE:
                continue
            where = o.label.rsplit(" in ", 1)[-1]
            if len(where) != 4 or c.inside_wall(where):
                continue
            near = min(_hex_distance(where, e) for e in enemy)
            if 1 < near <= self.threat:
                return o.value
        return DONE

    def _evade_step(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """One step away from the US units, never next to one (9.1), into cover if it can."""
        here = str(d.context.get("from", ""))
        enemy = self._enemy_hexes(view)
        if not here or not enemy:
            return DONE
        far, cover = self.prio.far_enough, self.prio.cover

        def score(h: str) -> float:
            near = min(_hex_distance(h, e) for e in enemy)
            if near <= 1:
                return -99.0
            return min(near, far) + cover.get(c.terrain(h), 0.0)

        best = (DONE, score(here))
        for o in d.options:
            if o.value == DONE:
                continue
            v = score(str(o.value))
            if v > best[1] + 0.01:
                best = (str(o.value), v)
        return best[0]

    @handles("move_step")
    def _move_step(self, view: Mapping[str, Any], d: Decision) -> JSON:
        if self.side == JAPAN:
            return self._evade_step(view, d)
        unit = str(d.context.get("unit", ""))
        here = str(d.context.get("from", "")) or _location(view, unit)
        enemy = self._enemy_hexes(view)
        if not here or not enemy:
            return DONE
        ctr = components().counters.get(unit)
        reach = ctr.range if ctr is not None and ctr.has("ifc") else 1
        near_now = min(_hex_distance(here, e) for e in enemy)
        if near_now <= max(1, reach - 2):
            return DONE
        crossings = _crossings(view)
        if reach <= 1:
            target = self._target_for(view, unit, here, enemy, crossings)
            field = _path_field((target,), crossings)
            near_now = _hex_distance(here, target)
        else:
            field = _path_field(tuple(enemy), crossings)
        if ctr is not None and ctr.has("bridging") and field.get(here, 999) > 3:
            # 8.9: an engineer cut off by the Pasig heads for the bank facing the enemy
            bank = _best_bank(tuple(enemy), crossings, here)
            if bank is not None:
                if here == bank:
                    return DONE
                field = _path_field((bank,), crossings)
                near_now = 99
        now = field.get(here, 999)
        best = None
        for o in d.options:
            if o.value == DONE:
                continue
            h = str(o.value)
            dist = min(_hex_distance(h, e) for e in enemy)
            if reach > 1 and dist <= 1:
                continue  # artillery keeps out of close combat
            key = (field.get(h, 999), dist)
            if key < (now, near_now) and (best is None or key < best[0]):
                best = (key, h)
        return best[1] if best else DONE

    def _target_for(self, view: Mapping[str, Any], unit: str, here: str, enemy: list[str],
                    crossings: tuple[tuple[str, ...], tuple[str, ...]]) -> str:
        """The enemy hex a direct-fire unit heads for this phase: the nearest by path among
        those not already crowded by friendly units (adjacent ones, or others sent there this
        phase), so that the force spreads over every enemy position instead of piling onto
        the nearest one (4.2 needs every Japanese unit gone)."""
        stamp = (view.get("turn"), view.get("phase"))
        if self._plan_stamp != stamp:
            self._plan_stamp = stamp
            self._assigned = {}
            claims: dict[str, int] = {}
            for p in view.get("pieces", ()):
                if p.get("side") != self.side or p.get("kind") == "hidden":
                    continue
                ctr = components().counters.get(str(p.get("id")))
                where = str(p.get("location", ""))
                if ctr is None or ctr.has("ifc") or ctr.has("air") or where.startswith("box:"):
                    continue
                for e in enemy:
                    if _hex_distance(where, e) <= 1:
                        claims[e] = claims.get(e, 0) + 1
            self._claims = claims
        held = self._assigned.get(unit)
        if held in enemy:
            return held
        near = sorted(enemy, key=lambda e: (_hex_distance(here, e), e))[:self.candidates]
        best = min(near, key=lambda e: (_path_field((e,), crossings).get(here, 999)
                                        + self.crowd_penalty
                                        * max(0, self._claims.get(e, 0) - self.crowd), e))
        self._assigned[unit] = best
        self._claims[best] = self._claims.get(best, 0) + 1
        return best

    # -- US entry and support -------------------------------------------------------------
    @handles("entry_org")
    def _entry_org(self, view: Mapping[str, Any], d: Decision) -> JSON:
        for org in ("37id", "1cav", "11ab"):
            if d.is_legal(org):
                return org
        return None

    @handles("entry_hex")
    def _entry_hex(self, view: Mapping[str, Any], d: Decision) -> JSON:
        enemy = self._enemy_hexes(view) or ["3822"]
        opts = [str(o.value) for o in d.options]
        opts.sort(key=lambda h: (min(_hex_distance(h, e) for e in enemy), h))
        return self._rng.choice(opts[:4])

    @handles("pontoon")
    def _pontoon(self, view: Mapping[str, Any], d: Decision) -> JSON:
        enemy = _enemy_hexes(view, self.side)
        rest = [str(o.value) for o in d.options if o.value != "none"]
        if not rest or not enemy:
            return "none"
        return min(rest, key=lambda h: (min(_hex_distance(h, e) for e in enemy), h))


def _target_drm(target: str) -> int:
    """The in-hex DRM of a target hex from the printed map (10.12; rubble not counted)."""
    return {"urban": 1, "heavy": 2}.get(c.terrain(target), 0)


def _free_units(view: Mapping[str, Any], side: str) -> list[tuple[str, str]]:
    """(unit id, place) of the side's units that have not fired this phase (own pieces show
    their status in the view); air units ready and unused."""
    used = set(view.get("vars", {}).get(c.V_AIR_USED, ()))
    out = []
    for p in view.get("pieces", ()):
        if p.get("side") != side or p.get("kind") == "hidden":
            continue
        where = str(p.get("location", ""))
        attrs = p.get("attrs", {}) or {}
        ready_air = where == c.AIR_READY and p["id"] not in used
        if ready_air or (not where.startswith("box:") and not attrs.get("fired")):
            out.append((str(p["id"]), where))
    return out


def _can_reach(uid: str, where: str, target: str, side: str, turn: int) -> int | None:
    """The range band (0, 1, 2) a unit would fire at the target from, or None if it cannot
    (10.6, 10.7, 11.1; 5.4; Japanese spotting is not judged: indirect only with a line)."""
    ctr = components().counters[uid]
    if ctr.has("air"):
        return 0
    if side == US and turn <= 2 and ctr.has("field_artillery") and c.terrain(target) in ("urban", "heavy"):
        return None
    d = _hex_distance(where, target)
    if d < 1 or d > ctr.range:
        return None
    if d > 1 and not (ctr.has("ifc") and side == US) and not _lof(where, target):
        return None
    return 0 if d <= 1 else 1 if d <= 4 else 2


@cache
def _lof(a: str, b: str) -> bool:
    return components().los.is_clear(components().hexmap.hex(a), components().hexmap.hex(b))


def _plan_fire(free: list[tuple[str, str]], target: str, side: str, turn: int
               ) -> tuple[list[tuple[str, int, int]], float]:
    """A fire at a target from the free units: for each range band of 10.13 (adjacent units
    only, up to four hexes, any range) the units that can reach it, adjacent ones first (they
    can fire nowhere else), then the strongest, up to the top column (>=50); then units whose
    absence does not lower the chance of E are left out to fire elsewhere. Returns the best
    group (id, fire, band) and its chance of E."""
    base = _target_drm(target)
    cands = []
    for uid, where in free:
        band = _can_reach(uid, where, target, side, turn)
        if band is not None:
            cands.append((uid, components().counters[uid].fire, band))
    best: tuple[float, int, list[tuple[str, int, int]]] = (-1.0, 0, [])
    for limit in (0, 1, 2):  # 10.13: only adjacent units, up to four hexes, any range
        pool = sorted((x for x in cands if x[2] <= limit),
                      key=lambda x: (x[2] > 0 or _is_air(x[0]), -x[1], x[0]))
        group: list[tuple[str, int, int]] = []
        for x in pool:
            if sum(f for _, f, _ in group) >= 50:
                break  # the top column; the rest fire elsewhere
            group.append(x)
        if not group:
            continue
        p = _group_odds(group, base)
        for x in sorted(group, key=lambda x: (not (x[2] > 0 or _is_air(x[0])), x[1])):
            rest = [y for y in group if y is not x]
            if rest and _group_odds(rest, base) >= p - 1e-9:
                group = rest
        strength = sum(f for _, f, _ in group)
        if p > best[0] + 1e-9 or (abs(p - best[0]) < 1e-9 and strength < best[1]):
            best = (p, strength, group)
    return best[2], max(best[0], 0.0)


def _is_air(uid: str) -> bool:
    return components().counters[uid].has("air")


def _group_odds(group: list[tuple[str, int, int]], base: int) -> float:
    """The chance of E of a group: its strength's column, the target's terrain, the range
    band of its farthest unit (10.13) and -1 when half its factors are adjacent CAC units."""
    strength = sum(f for _, f, _ in group)
    cac = sum(f for uid, f, band in group if band == 0 and not _is_air(uid)
              and components().counters[uid].has("cac"))
    drm = base + max(x[2] for x in group) - (1 if cac and 2 * cac >= strength else 0)
    return float(components().crt.odds(strength, modifier=drm).get("E", 0))


@cache
def _best_bank(enemy: tuple[str, ...], crossings: tuple[tuple[str, ...], tuple[str, ...]],
               here: str) -> str | None:
    """8.9: the hex on this side of a major river, reachable from ``here``, from which a
    pontoon bridge leads nearest the enemy (by straight distance across)."""
    reach = _path_field((here,), crossings)
    best: tuple[int, int, str] | None = None
    neighbours, features = components().hexmap.neighbor_ids, components().hexmap.id_hexside_features
    for h, steps in reach.items():
        for n in neighbours(h):
            if "major_river" in features(h, n) and n not in reach:
                key = (min(_hex_distance(n, e) for e in enemy), steps, h)
                if best is None or key < best:
                    best = key
    return best[2] if best else None


def _crossings(view: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What the public variables say about river crossings: demolished bridges, pontoons."""
    public = view.get("vars", {})
    return (tuple(public.get(c.V_DEMOLISHED, ())),
            tuple(sorted(public.get(c.V_PONTOONS, {}).values())))


@lru_cache(maxsize=2048)
def _path_field(enemy: tuple[str, ...], crossings: tuple[tuple[str, ...], tuple[str, ...]]
                ) -> dict[str, int]:
    """Steps from every land hex to the nearest enemy hex, crossing a major river only by a
    standing bridge or a pontoon bridge (the map and public facts only)."""
    demolished, pontoons = set(crossings[0]), set(crossings[1])
    dist = {h: 0 for h in enemy}
    frontier = list(enemy)
    neighbours, features = components().hexmap.neighbor_ids, components().hexmap.id_hexside_features
    while frontier:
        nxt = []
        for h in frontier:
            for n in neighbours(h):
                if n in dist or c.terrain(n) == "sea":
                    continue
                feats = features(h, n)
                if "major_river" in feats:
                    key = c.side_key(h, n)
                    if not (("bridge" in feats and key not in demolished) or key in pontoons):
                        continue
                dist[n] = dist[h] + 1
                nxt.append(n)
        frontier = nxt
    return dist


def _location(view: Mapping[str, Any], unit: str) -> str:
    for p in view.get("pieces", ()):
        if p.get("id") == unit:
            return str(p.get("location", ""))
    return ""


def _enemy_hexes(view: Mapping[str, Any], side: str) -> list[str]:
    return sorted({str(p["location"]) for p in view.get("pieces", ())
                   if p.get("side") not in (side, "") and not str(p["location"]).startswith("box:")})
