"""Bots for both sides of Manila '45. They read only their side's view and the decision.

The Japanese heuristic bot sets up a defence in depth (static guns in the heavy structures,
Intramuros held two-deep, the north-west of 4.3 never empty, the south held at Nichols Field
and Fort McKinley) with a few mobile outposts alone far from the city (4.2: one unit left
anywhere wins), fires defensively at every chance, demolishes bridges from turn 3 (10.19),
concentrates its offensive fire, and from turn 3 slips mobile units outside Intramuros away
from US units closing on them, never into a hex next to one (9.1). It counter-attacks where
the rules leave the US side open: a mobile unit raids a US stack that shows only field
artillery (which never fires defensively, 9.3) from a covered hex it reaches without
passing a hex where US defensive fire could be declared (9.1-9.4), then fires on it; it
declares close assault whenever it may (10.17) and advances into the emptied hex when that
hex gives better cover.
The US heuristic bot enters the divisions where the fighting is, sends each direct-fire unit
toward the nearest Japanese position not already crowded by its own units (so the force
spreads over every position), stops artillery within range, bridges rivers with its
engineers (8.9), plans each fire with the adjacent units first and long-range artillery and
air only where they add to the chance of E (10.13), close assaults (10.17) and advances
after combat. It always takes its replacements (7.2), placing each atop the unit nearest the Japanese
(7.3). Its 672nd amphibious tractors (8.10) wait on a coastal hex away from the
Japanese; a unit far from any Japanese unit by land boards them, and at the start of the next
movement phase they carry it by sea to the coastal hex nearest the enemy, where it moves on.
Their thresholds and weights are the ``priorities`` of ``data/ai.yaml``.
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
        self._ferry: tuple[str, str] | None = None  # 8.10: (rider, landing) of the coastal move
        self._rider: tuple[tuple[Any, Any], str] | None = None  # the unit sent to board the 672nd
        self._rider_hex = ""  # where it boards
        self._raids: dict[str, str] = {}  # Japanese raider -> the hex it attacks from
        #: (phase, hexes drawing US defensive fire, safe MP to the raid hexes, to each one)
        self._raid_cache: tuple[tuple[Any, Any], frozenset[str], dict[str, tuple[int, str]],
                                dict[str, dict[str, tuple[int, str]]]] | None = None

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

    @handles("entry_unit")
    def _first(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """The first option: 3.4's entering unit, as the rules list them."""
        return d.options[0].value

    @handles("replacement_unit")
    def _replacement_unit(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """7.2: always take the replacement, the strongest unit of the organisation's dead."""
        counters = components().counters
        units = [str(o.value) for o in d.options if o.value != "none" and str(o.value) in counters]
        if not units:
            return "none"
        return max(units, key=lambda u: (counters[u].fire, -units.index(u)))

    @handles("replacement_hex")
    def _replacement_hex(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """7.3: atop the unit nearest the Japanese."""
        enemy = self._enemy_hexes(view)
        hexes = [str(o.value) for o in d.options]
        if not enemy:
            return hexes[0]
        return min(hexes, key=lambda h: (min(_hex_distance(h, e) for e in enemy), h))

    # -- 8.10 coastal movement ------------------------------------------------------------
    @handles("coastal_rider")
    def _coastal_rider(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """8.10: the passenger planned when the coastal move was chosen."""
        return self._ferry[0] if self._ferry is not None else "none"

    @handles("coastal_landing")
    def _coastal_landing(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """8.10: the planned landing, or else the offered coastal hex nearest the enemy."""
        if self._ferry is not None and d.is_legal(self._ferry[1]):
            return self._ferry[1]
        field = _path_field(tuple(self._enemy_hexes(view)), _crossings(view))
        return min((str(o.value) for o in d.options), key=lambda h: (field.get(h, 999), h))

    def _coastal_pick(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """8.10: the coastal move, when a unit stacked with the 672nd would land at least
        ``coastal.gain`` steps (by land) nearer a Japanese unit than it stands."""
        self._ferry = None
        offered = [o.value for o in d.options if isinstance(o.value, dict) and "coastal" in o.value]
        if not offered:
            return None
        enemy = self._enemy_hexes(view)
        if not enemy:
            return None
        own = [p for p in view.get("pieces", ()) if p.get("side") == self.side and p.get("kind") != "hidden"]
        crossings = _crossings(view)
        field = _path_field(tuple(enemy), crossings)
        for value in offered:
            amtrac = str(value["coastal"])
            start = next((str(p["location"]) for p in own if p["id"] == amtrac), "")
            riders = [str(p["id"]) for p in own if str(p.get("location")) == start and p["id"] != amtrac
                      and not (p.get("attrs") or {}).get("moved")]
            if not riders:
                continue
            landing = _best_landing(tuple(enemy), crossings, start)
            if landing is None:
                continue
            if field.get(landing, 999) + self.prio.coastal.gain <= field.get(start, 999):
                self._ferry = (riders[0], landing)
                return value
        return None

    def _boarding(self, view: Mapping[str, Any], unit: str, here: str, enemy: list[str],
                  crossings: tuple[tuple[str, ...], tuple[str, ...]]) -> str | None:
        """8.10: the 672nd's hex, when this unit should board it this phase: the 672nd waits
        on a coastal hex no Japanese unit is next to, alone, no other unit is sent to it,
        the unit is at least ``coastal.ride_from`` steps by land from the nearest Japanese
        unit and within ``coastal.pickup`` steps of the 672nd, and the sea would bring it at
        least ``coastal.gain`` steps nearer."""
        stamp = (view.get("turn"), view.get("phase"))
        if self._rider is not None and self._rider[0] == stamp:
            return self._rider_hex if self._rider[1] == unit else None
        prio = self.prio.coastal
        field = _path_field(tuple(enemy), crossings)
        if field.get(here, 999) < prio.ride_from:
            return None
        own = [p for p in view.get("pieces", ()) if p.get("side") == self.side and p.get("kind") != "hidden"]
        for p in own:
            ctr = components().counters.get(str(p["id"]))
            if ctr is None or not ctr.has("amtrac"):
                continue
            port = str(p.get("location", ""))
            if (not components().hexmap.is_hex_id(port) or not c.is_coastal(port)
                    or any(_hex_distance(port, e) <= 1 for e in enemy)
                    or sum(1 for q in own if q.get("location") == port) != 1):
                continue
            if _path_field((port,), crossings).get(here, 999) > prio.pickup:
                continue
            landing = _best_landing(tuple(enemy), crossings, port)
            if landing is None or field.get(landing, 999) + prio.gain > field.get(here, 999):
                continue
            self._rider, self._rider_hex = (stamp, unit), port
            return port
        return None

    def _amtrac_step(self, d: Decision, here: str, enemy: list[str],
                     crossings: tuple[tuple[str, ...], tuple[str, ...]]) -> JSON:
        """8.10: the 672nd heads for the nearest coastal hex no Japanese unit is next to, and
        waits there for a passenger."""
        ports = tuple(h for h in _coastal_hexes() if not any(_hex_distance(h, e) <= 1 for e in enemy))
        if here in ports or not ports:
            return DONE
        field = _path_field(ports, crossings)
        now = field.get(here, 999)
        best = min((str(o.value) for o in d.options if o.value != DONE),
                   key=lambda h: (field.get(h, 999), h), default=None)
        if best is None or field.get(best, 999) >= now:
            return DONE
        return best

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
        """10.17: always declared (it only opens the advance; the -1 of 10.12 does not
        depend on it)."""
        return True

    @handles("advance")
    def _advance(self, view: Mapping[str, Any], d: Decision) -> JSON:
        """10.17: the US always advances; a Japanese unit only into better cover (10.12), and
        into no more hexes next to US units than it stands next to now."""
        if self.side == US:
            return True
        name, _, target = d.prompt.partition("advance ")[2].rpartition(" into ")
        target = target.rstrip("?")
        here = next((str(p["location"]) for p in view.get("pieces", ())
                     if p.get("side") == self.side and p.get("name") == name), "")
        if not here or not components().hexmap.is_hex_id(target):
            return False
        cover = self.prio.cover
        us = self._enemy_hexes(view)

        def exposed(h: str) -> int:
            return sum(1 for e in us if _hex_distance(h, e) <= 1)

        return (cover.get(c.terrain(target), 0.0) > cover.get(c.terrain(here), 0.0)
                and exposed(target) <= exposed(here))

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
        coastal = self._coastal_pick(view, d)
        if coastal is not None:
            return coastal
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
        raider = self._raider(view, d, turn)
        if raider is not None:
            return raider
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

    def _raider(self, view: Mapping[str, Any], d: Decision, turn: int) -> JSON:
        """A counter-attack (10.1, 10.17): from ``raid.from_turn``, while Japan keeps more than
        ``raid.keep`` units, a mobile unit outside Intramuros and next to no US unit that can
        reach this phase (16 MP, 8.1) a covered hex next to a US stack showing only field
        artillery (9.3: it never fires defensively) without entering a hex where US
        defensive fire could be declared (9.1, 9.4) moves there, to fire on it in the
        offensive fire phase."""
        raid = self.prio.raid
        if turn < raid.from_turn:
            return None
        own = [p for p in view.get("pieces", ()) if p.get("side") == self.side]
        if sum(1 for p in own if _on_map(str(p.get("location", "")))) <= raid.keep:
            return None
        field = self._raid_field(view)
        if not field:
            return None
        enemy = self._enemy_hexes(view)
        for o in d.options:
            if not isinstance(o.value, str) or o.value == DONE:
                continue
            where = o.label.rsplit(" in ", 1)[-1]
            if len(where) != 4 or c.inside_wall(where) or any(_hex_distance(where, e) <= 1 for e in enemy):
                continue
            cost, spot = field.get(where, (999, ""))
            if cost <= c.MP:
                self._raids = {str(o.value): spot}
                return o.value
        return None

    def _raid_field(self, view: Mapping[str, Any]) -> dict[str, tuple[int, str]]:
        """The safe MP from every hex to the nearest raid hex, worked out once a phase (US
        units neither move nor fire in the Japanese movement phase)."""
        stamp = (view.get("turn"), view.get("phase"))
        if self._raid_cache is None or self._raid_cache[0] != stamp:
            soft, danger = _us_exposure(view)
            spots = _raid_spots(view, soft, danger, self.prio.raid.cover_only)
            self._raid_cache = (stamp, danger, _safe_costs(view, spots, danger) if spots else {}, {})
        return self._raid_cache[2]

    def _raid_step(self, view: Mapping[str, Any], d: Decision, spot: str) -> JSON:
        """One step of a raid toward its hex, through hexes no US defensive fire covers."""
        here = str(d.context.get("from", ""))
        if here == spot:
            return DONE
        self._raid_field(view)
        assert self._raid_cache is not None
        danger, fields = self._raid_cache[1], self._raid_cache[3]
        if spot not in fields:
            fields[spot] = _safe_costs(view, (spot,), danger)
        field = fields[spot]
        best = min((str(o.value) for o in d.options if o.value != DONE and str(o.value) not in danger),
                   key=lambda h: (field.get(h, (999, ""))[0], h), default=None)
        if best is None or field.get(best, (999, ""))[0] >= field.get(here, (999, ""))[0]:
            return DONE
        return best

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
            spot = self._raids.get(str(d.context.get("unit", "")))
            if spot is not None:
                return self._raid_step(view, d, spot)
            return self._evade_step(view, d)
        unit = str(d.context.get("unit", ""))
        here = str(d.context.get("from", "")) or _location(view, unit)
        enemy = self._enemy_hexes(view)
        if not here or not enemy:
            return DONE
        ctr = components().counters.get(unit)
        reach = ctr.range if ctr is not None and ctr.has("ifc") else 1
        crossings = _crossings(view)
        if ctr is not None and ctr.has("amtrac"):
            return self._amtrac_step(d, here, enemy, crossings)
        near_now = min(_hex_distance(here, e) for e in enemy)
        if near_now <= max(1, reach - 2):
            return DONE
        port = self._boarding(view, unit, here, enemy, crossings) if reach <= 1 else None
        if port is not None:
            if here == port:
                return DONE
            field = _path_field((port,), crossings)
            best_step = min((str(o.value) for o in d.options if o.value != DONE),
                            key=lambda h: (field.get(h, 999), h), default=None)
            if best_step is not None and field.get(best_step, 999) < field.get(here, 999):
                return best_step
            return DONE
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
                if ctr is None or ctr.has("ifc") or ctr.has("air") or not _on_map(where):
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


@cache
def _coastal_hexes() -> tuple[str, ...]:
    """The coastal hexes of the map (8.10), in its order."""
    hm = components().hexmap
    return tuple(hm.label(h) for h in hm.hexes() if hm.has_feature(h, "coast"))


@lru_cache(maxsize=512)
def _best_landing(enemy: tuple[str, ...], crossings: tuple[tuple[str, ...], tuple[str, ...]],
                  start: str) -> str | None:
    """8.10: the coastal hex a passenger of the 672nd would land on from ``start``: not next
    to a Japanese unit, not occupied, the nearest to one by land."""
    field = _path_field(enemy, crossings)
    occupied = set(enemy)
    best: tuple[int, str] | None = None
    for h in _coastal_hexes():
        if h == start or h in occupied or any(_hex_distance(h, e) <= 1 for e in enemy):
            continue
        key = (field.get(h, 999), h)
        if best is None or key < best:
            best = key
    return best[1] if best is not None and best[0] < 999 else None


def _us_exposure(view: Mapping[str, Any]) -> tuple[frozenset[str], frozenset[str]]:
    """What the Japanese view shows of US defensive fire (9.1-9.4): the hexes of US stacks
    showing only field artillery (9.3: never fires defensively; a stack with a unit the view
    hides counts as able to), and the hexes next to any other US stack, where a Japanese
    unit entering would draw defensive fire."""
    soft: set[str] = set()
    hard: set[str] = set()
    counters = components().counters
    for p in view.get("pieces", ()):
        where = str(p.get("location", ""))
        if p.get("side") != US or not _on_map(where):
            continue
        ctr = counters.get(str(p.get("id")))
        (soft if ctr is not None and ctr.has("field_artillery") else hard).add(where)
    soft -= hard
    neighbours = components().hexmap.neighbor_ids
    danger = set(hard)
    for h in hard:
        danger.update(neighbours(h))
    return frozenset(soft), frozenset(danger | soft)


def _safe_costs(view: Mapping[str, Any], goals: tuple[str, ...], danger: frozenset[str]
                ) -> dict[str, tuple[int, str]]:
    """The MP (8.5-8.12, printed bridges only, 8.7) from every hex to the nearest of
    ``goals``, and which, by hexes that hold no US unit and draw no defensive fire."""
    import heapq

    hm = components().hexmap
    rubble = set(view.get("vars", {}).get(c.V_RUBBLE, ()))
    demolished = set(view.get("vars", {}).get(c.V_DEMOLISHED, ()))
    dist = {g: (0, g) for g in goals}
    queue = [(0, g, g) for g in goals]
    heapq.heapify(queue)
    while queue:
        d, h, goal = heapq.heappop(queue)
        if (d, goal) > dist.get(h, (999, "")) or d >= c.MP:
            continue
        enter = c.ENTER_COST.get(c.terrain(h), 1) + (1 if h in rubble else 0)
        for n in hm.neighbor_ids(h):
            if c.terrain(n) == "sea" or n in danger:
                continue
            feats = hm.id_hexside_features(n, h)
            cost = enter + (1 if "wall" in feats else 0) + (1 if "contour" in feats else 0)
            bridged = "bridge" in feats and c.side_key(n, h) not in demolished
            if "major_river" in feats and not bridged:
                continue
            if "minor_river" in feats and not bridged:
                cost += 1
            if (d + cost, goal) < dist.get(n, (999, "")):
                dist[n] = (d + cost, goal)
                heapq.heappush(queue, (d + cost, n, goal))
    return dist


def _raid_spots(view: Mapping[str, Any], soft: frozenset[str], danger: frozenset[str],
                cover_only: bool) -> tuple[str, ...]:
    """The hexes a raider may attack from: next to a US stack of field artillery only,
    drawing no defensive fire, covered (urban or heavy) if asked, with room for one more
    Japanese unit (6.1)."""
    stacks = view.get("stacks", {})
    spots = set()
    for s in soft:
        for a in components().hexmap.neighbor_ids(s):
            if a in danger or c.terrain(a) == "sea" or len(stacks.get(a, ())) >= 2:
                continue
            if cover_only and c.terrain(a) not in ("urban", "heavy"):
                continue
            spots.add(a)
    return tuple(sorted(spots))


def _target_drm(target: str) -> int:
    """The in-hex DRM of a target hex from the printed map (10.12; rubble not counted)."""
    return {"urban": 1, "heavy": 2}.get(c.terrain(target), 0)


@cache
def _map_hexes() -> frozenset[str]:
    """The ids of the map's hexes (the components' map, which never changes)."""
    return frozenset(components().hexmap.ids())


def _on_map(where: str) -> bool:
    """Whether a place is a hex of the map: not a box, nor the off-board place of pieces out
    of play (a position's ``clear``)."""
    return where in _map_hexes()


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
        if ready_air or (_on_map(where) and not attrs.get("fired")):
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
                   if p.get("side") not in (side, "") and _on_map(str(p["location"]))})
