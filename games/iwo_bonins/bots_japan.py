"""The Japanese bot for the two-player game (18.0), playing as 19.3 advises.

"Protect your artillery and HQs at all costs, but ... if you place them too far north, they
may get sucked up as substitutes. Avoid the temptation to attack isolated US units ...
When redeploying a unit or deploying replacements, your priority is to maintain as solid a
line as possible up front."

So the bot:

- 18.1 deploys an HQ or artillery unit in each sector that must hold one (1-5, Suribachi)
  and the rest in the interior sectors 3-5, never the north (sector 6: the 15.3 substitute
  sweep starts there) unless forced, on the best defensive terrain; the other units go
  front first (nearest the landing beaches), the strongest on the best terrain;
- 18.2 keeps its units dug in: it never turns a unit up to move, turns face down any that
  may, and tunnels an HQ or artillery unit away from a US unit next to it;
- 18.3 never attacks (it never turns units up, so it is never asked);
- 18.4 places replacements and redeploying units where the line meets the US (the
  eligible hex nearest a US unit, the best terrain breaking ties) and takes no optional
  substitute when redeploying in place (a substitute may pull an HQ off the map);
- 18.5 bombards the hexes holding the most US units on the weakest terrain first.

It reads only its side's view and the decision (option values are hex ids and unit ids).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache

from tabletop.core.board.hexgrid import Hex, distance
from tabletop.core.engine.agents import KindBot, handles
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision

from . import common as c
from .ai import priorities
from .components import FIRE_SUPPORT_TYPES


@cache
def _unit_types() -> dict[str, str]:
    comp = c.components()
    return {s.id: comp.counters.profile_of(s).type for s in comp.counters.counters}


@cache
def _defense() -> dict[str, int]:
    comp = c.components()
    return {s.id: comp.counters.profile_of(s).front.defense for s in comp.counters.counters}


@cache
def _beach_hexes() -> tuple[Hex, ...]:
    comp = c.components()
    return tuple(comp.map.hex(h) for h in comp.hexes_where() if comp.hex_attrs[h].beach)




def _priority(hex_id: str) -> int:
    from .japanese_units import placement_priority

    return placement_priority(hex_id)


def _nearest(hex_id: str, targets: list[Hex] | tuple[Hex, ...]) -> int:
    h = c.components().map.hex(hex_id)
    return min((distance(h, t) for t in targets), default=99)


class JapaneseBot(KindBot):
    """An agent for the Japanese side of the two-player game (18.0)."""

    def __init__(self, side: str, seed: int) -> None:
        self.name = f"japanese-bot:{side}"
        self.side = side
        self.rng = random.Random(f"{side}:{seed}")
        #: what the bot weighs: ``priorities.japan`` in data/ai.yaml
        self.prio = priorities().japan

    # -- the view ----------------------------------------------------------------------
    @staticmethod
    def _us_hexes(view: Mapping[str, JSON]) -> list[Hex]:
        pieces = view.get("pieces", [])
        assert isinstance(pieces, list)
        out = []
        m = c.components().map
        for p in pieces:
            if isinstance(p, Mapping) and p.get("side") == c.US and m.is_hex_id(str(p.get("location", ""))):
                out.append(m.hex(str(p["location"])))
        return out

    @staticmethod
    def _location(view: Mapping[str, JSON], unit: str) -> str:
        for p in view.get("pieces", []) or []:
            if isinstance(p, Mapping) and p.get("id") == unit:
                return str(p.get("location", ""))
        return ""

    def _best(self, values: list[JSON], score: dict[str, float]) -> JSON:
        """The value with the lowest score, a coin among equals."""
        best = min(score[str(v)] for v in values)
        tied = [v for v in values if score[str(v)] == best]
        return tied[0] if len(tied) == 1 else self.rng.choice(tied)

    # -- the choices -------------------------------------------------------------------
    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Pick an option by the decision's kind (19.3's advice); the first otherwise."""
        handler = self.handler(decision.kind)
        if handler is None:
            return decision.values[0]
        value: JSON = handler(view, decision)
        return value

    @handles("jp_substitute")
    def _keep(self, view: Mapping[str, JSON], d: Decision) -> JSON:
        """18.4: the unit itself stays in place, no substitute drawn."""
        return False if d.is_legal(False) else d.values[0]

    @handles("jp_attack_target")
    def _no_attack(self, view: Mapping[str, JSON], d: Decision) -> JSON:
        """18.3: no attack declared."""
        return DONE if d.is_legal(DONE) else d.values[0]

    @handles("jp_move_hex", "jp_attack_add")
    def _first(self, view: Mapping[str, JSON], d: Decision) -> JSON:
        """The first option: a moving unit stays where it is; an attack takes the first unit."""
        return d.values[0]

    @handles("jp_deploy_hex")
    def _deploy(self, view: Mapping[str, JSON], d: Decision) -> JSON:
        """18.1: fire support safe and spread over the sectors that need it; the rest
        front first, the strongest on the best ground."""
        unit = str(d.context.get("unit", ""))
        lacking = d.context.get("lacking", [])
        score: dict[str, float] = {}
        if _unit_types().get(unit) in FIRE_SUPPORT_TYPES:
            for v in d.values:
                sector = c.sector_of(str(v))
                need = 0 if isinstance(lacking, list) and sector in lacking else 10
                score[str(v)] = (need + self.prio.sector_rank.get(str(sector if sector is not None else 6), 9)
                                 + _priority(str(v)) * 0.5 - _nearest(str(v), _beach_hexes()) * 0.05)
        else:
            strength = _defense().get(unit, 2)
            for v in d.values:
                front = _nearest(str(v), _beach_hexes())
                score[str(v)] = front + _priority(str(v)) * (strength - 1) * 0.5
        return self._best(d.values, score)

    @handles("jp_move_action")
    def _action(self, view: Mapping[str, JSON], d: Decision) -> JSON:
        """18.2: dig in whatever may; tunnel threatened HQs and artillery; never move."""
        us = self._us_hexes(view)
        for v in d.values:
            if str(v).startswith("dig:"):
                return v
        for v in d.values:
            kind, _, unit = str(v).partition(":")
            if kind == "tunnel" and _unit_types().get(unit) in FIRE_SUPPORT_TYPES:
                where = self._location(view, unit)
                if where and _nearest(where, us) <= 2:
                    return v
        return DONE

    @handles("jp_tunnel_hex")
    def _tunnel(self, view: Mapping[str, JSON], d: Decision) -> JSON:
        """18.2.1: the safest hex: furthest from the US, best terrain."""
        us = self._us_hexes(view)
        score = {str(v): -min(_nearest(str(v), us), 6) + _priority(str(v)) * 0.3 for v in d.values}
        return self._best(d.values, score)

    @handles("jp_place_hex")
    def _place(self, view: Mapping[str, JSON], d: Decision) -> JSON:
        """18.4: hold the line: the eligible hex nearest a US unit (not adjacent if it can
        be helped), the best terrain breaking ties."""
        us = self._us_hexes(view)
        score: dict[str, float] = {}
        for v in d.values:
            near = _nearest(str(v), us) if us else _nearest(str(v), _beach_hexes())
            score[str(v)] = near + (1.5 if near == 1 else 0) + _priority(str(v)) * 0.4
        return self._best(d.values, score)

    @handles("jp_bombard_hex")
    def _bombard(self, view: Mapping[str, JSON], d: Decision) -> JSON:
        """18.5: the hex with the most US units on the weakest cover."""
        stacks = view.get("stacks", {})
        score: dict[str, float] = {}
        for v in d.values:
            if v == DONE:
                score[DONE] = 0.0
                continue
            count = len(stacks.get(str(v), [])) if isinstance(stacks, dict) else 1
            score[str(v)] = -count * self.prio.line_worth.get(c.crt_line(str(v)), 2)
        return self._best(d.values, score)

    @handles("jp_ex_loss")
    def _weakest(self, view: Mapping[str, JSON], d: Decision) -> JSON:
        """18.3 Ex: lose the unit worth least."""
        score = {str(v): float(_defense().get(str(v), 0)) for v in d.values}
        return self._best(d.values, score)
