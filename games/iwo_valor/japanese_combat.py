"""IX Japanese Combat and IV.C the Japanese Combat Phase: the rules' own, mandatory attacks.

The Japanese side never decides anything: IX lists six kinds of attack, each required by a
rule. Where the rules leave a choice "yours" (the order of regular fire, ties on the Attack
Priorities Chart, how a hex distributes its losses, support points) the Marine player is asked.

- :func:`modified_strength` is IX.G (and IX.F.1 for artillery): elevation, crossfire, beach,
  airfield, armour, turns 1 and 2, clamped 1-10 - one function for the rules, the odds
  shown to the player and the bots.
- :func:`opportunity_fire` (IX.A), :func:`ambush` (IX.B), the phase's artillery strikes
  (IV.C.1-3, IX.F) and regular fire (IV.C.4, IX.C).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from tabletop.core.engine import odds as shown_odds
from tabletop.core.engine.decisions import Option, ResumePoint, ask_int, ask_str, choose
from tabletop.core.engine.events import modifier, modifiers_text
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece

from . import common as c

OF, AMBUSH, REGULAR, ARTILLERY, BANZAI = "opportunity", "ambush", "regular", "artillery", "banzai"
ROW = MappingProxyType({OF: "OF/CP", AMBUSH: "OF/CP", REGULAR: "Reg/Art", ARTILLERY: "Reg/Art",
                        BANZAI: "OF/CP"})
FIRE_KINDS = (OF, AMBUSH, REGULAR)
PHASE = "jp_combat"
"""The phase's id: where its decisions are asked again. Their args name the step
(``step``: ``artillery``, with the area and the strike's number in it, or ``regular``, with
the units that have fired), the decision (``at``) and what it needs."""
AREA_ORDER = ("Sr", "S", "W", "E", "N")  # IV.C.1: the areas, in the order they are struck


def modifiers(match: Match, kind: str, target_hex: str, attacker_hex: str | None,
              s: c.Situation) -> list[tuple[str, int]]:
    """IX.G (IX.F.1 for artillery): the modifiers an attack on ``target_hex`` gets."""
    mods: list[tuple[str, int]] = []
    if kind in FIRE_KINDS and attacker_hex is not None:
        if c.level(attacker_hex) > c.level(target_hex):
            mods.append(("elevation", 1))
        if s.near.get(target_hex, 0) > 1:
            mods.append(("crossfire", 1))
        if any(p.kind == "armour" for p in s.marine_hexes.get(target_hex, ())):
            mods.append(("armour", 1))
    if kind in (*FIRE_KINDS, ARTILLERY):
        if c.attr(target_hex, "beach"):
            mods.append(("beach", 1))
        if c.attr(target_hex, "airfield"):
            mods.append(("airfield", 2))
    if kind == ARTILLERY and match.state.turn < 5 and spotted(match, target_hex):
        mods.append(("spotters", 1))
    if kind != BANZAI:
        bonus = {1: 2, 2: 1}.get(match.state.turn, 0)
        if bonus:
            mods.append((f"turn {match.state.turn}", bonus))
    return mods


def spotted(match: Match, hex_id: str) -> bool:
    """IX.F.1: a hex of the beach invaded on turn 1, or within 3 hexes of one."""
    beach = match.state.vars[c.V_BEACH]
    if not beach:
        return False
    comp = c.components()
    return any(comp.map.id_distance(hex_id, b) <= 3 for b in comp.hexes_where("beach", beach))


def clamp(value: int) -> int:
    """IX.G: strengths above 10 read 10, below 1 read 1."""
    return max(1, min(10, value))


#: IX.A.2 / IX.C.2: where the Support Points an attack may take are given
SUPPORT_RULE = MappingProxyType({OF: "IX.A.2", REGULAR: "IX.C.2"})


def modifier_rule(kind: str, name: str) -> str:
    """The rule giving an attack's modifier: IX.F.1 the artillery strike's beach, airfield
    and spotters, IX.G every other (the turn 1-2 bonus included)."""
    if kind == ARTILLERY and name in ("beach", "airfield", "spotters"):
        return "IX.F.1"
    return "IX.G"


def fire_modifiers(match: Match, kind: str, target_hex: str, attacker_hex: str | None,
                   s: c.Situation, support: int = 0) -> list[dict[str, Any]]:
    """IX.G, IX.F.1 and the Support Points committed (IX.A.2, IX.C.2), as an event's
    ``modifiers`` fields: each with its rule, its name and its signed value."""
    mods = [modifier(modifier_rule(kind, n), n, v)
            for n, v in modifiers(match, kind, target_hex, attacker_hex, s)]
    if support:
        mods.append(modifier(SUPPORT_RULE.get(kind, "IX.C.2"), "support", -support))
    return mods


def modified_strength(match: Match, kind: str, base: int, target_hex: str, attacker_hex: str | None,
                      s: c.Situation, support: int = 0) -> tuple[int, str]:
    """IX.A.1-3 / IX.C.1-3 / IX.F.1: the strength read on the table, and why."""
    mods = modifiers(match, kind, target_hex, attacker_hex, s)
    total = base + sum(v for _, v in mods) - support
    why = f"{base}" + "".join(f" {v:+d} {n}" for n, v in mods) + (f" -{support} support" if support else "")
    return clamp(total), why


def odds_text(kind: str, value: int) -> tuple[str, dict[str, float]]:
    """IX.C: the exact odds of each result on the Japanese Attack Table, as a line adding up
    to 100% and as numbers."""
    odds = c.components().jat.odds(value, line=ROW[kind])
    return (shown_odds.describe({"no effect" if r == "-" else f"{r} step(s)": p
                                 for r, p in odds.items()}),
            {r: float(p) for r, p in odds.items()})


def spend_support(match: Match, kind: str, base: int, target_hex: str, attacker_hex: str,
                  s: c.Situation, section: str, why_fire: str,
                  where: ResumePoint | None = None) -> Procedure[int]:
    """IX.A.2 / IX.C.2: the player commits up to 2 Support Points to weaken the attack
    (asked again from ``where``: the caller's args name the attack)."""
    available = match.state.tracks["support"].value
    if available <= 0:
        return 0
    options = []
    for n in range(0, min(2, available) + 1):
        value, why = modified_strength(match, kind, base, target_hex, attacker_hex, s, n)
        text, odds = odds_text(kind, value)
        options.append(Option(n, f"{n} support point(s): strength {value}", f"{why} = {value}: {text}",
                              {"strength": value, "odds": odds}))
    n = yield from ask_int(c.asked_again(choose(
        c.US, f"{why_fire}: commit how many Support Points (you have {available})?", section, options,
        kind="support", context={"hex": target_hex}), where, at="support"))
    if n:
        match.state.tracks["support"].add(-n)
        match.emit("support", section, f"{n} Support Point(s) committed", points=n)
    return n


ATTACK_NAMES = MappingProxyType({OF: "opportunity fire", AMBUSH: "ambush", REGULAR: "regular fire",
                                 ARTILLERY: "artillery strike", BANZAI: "Banzai Charge"})


def resolve(match: Match, kind: str, base: int, mods: list[dict[str, Any]], section: str,
            target_hex: str, unit: str | None = None, target: str | None = None) -> int:
    """Roll 2d6 on the Japanese Attack Table's row for the kind at the strength ``base`` and
    its ``mods`` make (clamped 1-10, IX.G); the steps it removes. Its event carries the
    attacking unit, the Marine unit or hex attacked, the strength, each modifier, the strength
    read on the table, the roll and the steps as fields, and its text is made from them."""
    value = clamp(base + sum(int(m["value"]) for m in mods))
    roll = c.roll_2d6(match, f"{kind} attack", section)
    result = c.components().jat.lookup(value, roll, line=ROW[kind])
    steps = 0 if result == "-" else int(result)
    data: dict[str, Any] = {"attack": kind, "row": ROW[kind], "hex": target_hex, "base": base,
                            "modifiers": mods, "strength": value, "roll": roll, "steps": steps}
    if unit is not None:
        data["unit"] = unit
    if target is not None:
        data["target"] = target
    match.emit("jp_attack", section, attack_text(data), **data)
    return steps


def attack_text(data: dict[str, Any]) -> str:
    """A Japanese attack's log line, made from its event's fields alone."""
    who = f"{data['unit']} " if "unit" in data else ""
    at = f"{data['target']} in {data['hex']}" if "target" in data else data["hex"]
    mods = modifiers_text(data["modifiers"])
    steps = int(data["steps"])
    return (f"{ATTACK_NAMES[data['attack']]}: {who}at {at} ({data['row']}), strength {data['base']}"
            f"{', ' + mods if mods else ''} = {data['strength']}, roll {data['roll']}: "
            f"{'no effect' if steps == 0 else f'{steps} step(s)'}")


def armour_loss_roll(match: Match, armour: list[Piece], lost: int, section: str,
                     where: ResumePoint | None = None) -> Procedure[None]:
    """IX.B.4 / IX.F.4: after an infantry loss, a supporting or stacked Armour Unit loses a step
    on a 6 (one step lost) or a 5-6 (two steps lost); the player picks which of several
    (:func:`armour_loses`)."""
    armour = [a for a in armour if a.steps > 0 and c.on_island(a)]
    if lost <= 0 or not armour:
        return
    roll = c.d6(match, "armour loss", section)
    if roll < (6 if lost == 1 else 5):
        return
    yield from armour_loses(match, armour, section, where)


def armour_loses(match: Match, armour: list[Piece], section: str,
                 where: ResumePoint | None = None) -> Procedure[None]:
    """IX.B.4 / IX.F.4: one of these Armour Units loses a step, the player picking which of
    several (asked again from ``where`` with the units, ``armour``)."""
    victim = armour[0]
    if len(armour) > 1:
        answer = yield from ask_str(c.asked_again(choose(
            c.US, "Which supporting Armour Unit loses a step?", section,
            [Option(a.id, a.id) for a in armour], kind="loss"), where, at="armour_loss",
            armour=[a.id for a in armour]))
        victim = match.state.pieces[answer]
    c.marine_loses(match, victim, 1, section)


# -- IX.A Opportunity Fire ----------------------------------------------------------------

def opportunity_fire(match: Match, jp: Piece, mover: Piece, where: ResumePoint | None = None,
                     resume: dict[str, Any] | None = None) -> Procedure[None]:
    """IX.A: a Japanese unit fires at a Marine unit that moved within two hexes of it (its
    Support Points asked again from ``where``; ``resume``: the flow is entered again there)."""
    s = c.Situation.of(match)
    base = c.strength(jp)
    why_fire = f"{jp.id} in {jp.location} fires at {mover.id} in {mover.location} (opportunity fire)"
    if resume is None:
        match.emit("why_fire", "IX.A", f"{why_fire}: {mover.id} moved within two hexes of it",
                   unit=jp.id, at=jp.location, target=mover.id, hex=mover.location)
    support = yield from spend_support(match, OF, base, mover.location, jp.location, s, "IX.A.2", why_fire,
                                       where)
    steps = resolve(match, OF, base, fire_modifiers(match, OF, mover.location, jp.location, s, support),
                    "IX.A.4", mover.location, jp.id, mover.id)
    c.marine_loses(match, mover, steps, "IX.A.5")


# -- IX.B Ambush --------------------------------------------------------------------------

def ambush(match: Match, jp: Piece, attacker: Piece, armour: list[Piece],
           where: ResumePoint | None = None) -> Procedure[None]:
    """IX.B: an "A" result: the attacked Japanese unit attacks the Marine attacker at once,
    on the OF/CP row, with no Support Points; supporting armour may lose a step (which of
    several asked again from ``where``)."""
    s = c.Situation.of(match)
    match.emit("why_fire", "IX.B", f"{jp.id} in {jp.location} springs an ambush on {attacker.id}",
               unit=jp.id, at=jp.location, target=attacker.id, hex=attacker.location)
    steps = resolve(match, AMBUSH, c.strength(jp),
                    fire_modifiers(match, AMBUSH, attacker.location, jp.location, s), "IX.B.3",
                    attacker.location, jp.id, attacker.id)
    lost = c.marine_loses(match, attacker, steps, "IX.B.5")
    yield from armour_loss_roll(match, armour, lost, "IX.B.4", where)


# -- IV.C the Japanese Combat Phase -----------------------------------------------------------

def japanese_combat_phase(match: Match) -> Procedure[None]:
    """IV.C: artillery strikes area by area (1-3), then every mandatory regular fire (4);
    entered again at a decision (``match.resumed``), from the strike or fire that asked it."""
    args = c.resumed(match, PHASE)
    step = None if args is None else args["step"]
    if step in (None, "artillery"):
        yield from artillery(match, ResumePoint(PHASE, {"step": "artillery"}), args)
    yield from regular_fire(match, ResumePoint(PHASE, {"step": "regular"}),
                            args if step == "regular" else None)


def strikes(match: Match, area: str) -> int:
    """IV.C.1: the Japanese Artillery Chart's strikes against an area this turn."""
    for key, row in c.components().tracks.artillery_chart.items():
        from tabletop.core.engine.tables import parse_span

        if parse_span(key).contains(match.state.turn):
            return int(row.get(area, 0))  # type: ignore[call-overload]
    return 0


def priority_key(match: Match, hex_id: str, s: c.Situation) -> tuple[int, ...]:
    """The Attack Priorities Chart as a sort key (higher first), criterion by criterion."""
    here = s.marine_hexes.get(hex_id, [])
    key: list[int] = []
    for crit in c.components().tracks.attack_priorities:
        if crit.id == "armour":
            key.append(int(any(p.kind == "armour" for p in here)))
        elif crit.id == "hq":
            key.append(int(any(p.kind == "hq" for p in here)))
        elif crit.id == "most_steps":
            key.append(sum(p.steps for p in here if p.kind != "hq"))
        elif crit.id == "fatigue":
            key.append(max((c.unit_fatigue(match, p) for p in here if p.kind == "infantry"), default=0))
        elif crit.id == "airfield":
            key.append(int(bool(c.attr(hex_id, "airfield"))))
        else:
            key.append(int(bool(c.attr(hex_id, "beach"))))
    return tuple(key)


def pick_by_priority(match: Match, hexes: list[str], s: c.Situation, prompt: str,
                     section: str, where: ResumePoint | None = None) -> Procedure[str]:
    """The Attack Priorities Chart picks among hexes; a tie it cannot break is yours (asked
    again from ``where``)."""
    best = max(priority_key(match, h, s) for h in hexes)
    tied = sorted(h for h in hexes if priority_key(match, h, s) == best)
    if len(tied) == 1:
        return tied[0]
    answer = yield from ask_str(c.asked_again(choose(
        c.US, f"{prompt} (tied on the Attack Priorities Chart: the choice is yours)", section,
        [Option(h, h) for h in tied], kind="priority_tie"), where, at="priority_tie"))
    return answer


def artillery(match: Match, where: ResumePoint | None = None,
              resume: dict[str, Any] | None = None) -> Procedure[None]:
    """IV.C.1-3, IX.F: each area's strikes, each on a different hex with a Marine infantry unit.
    Its choices are asked again from ``where`` with the area and the strike's number in it
    (``k``); ``resume``: the args of the one the flow is entered again at (the strikes before
    it made: the hexes struck are in the state)."""
    struck: list[str] = match.state.vars[c.V_STRUCK]
    first_area = 0 if resume is None else AREA_ORDER.index(resume["area"])
    for area in AREA_ORDER[first_area:]:
        for k in range(strikes(match, area)):
            here = c.asked_again_at(where, area=area, k=k)
            if resume is not None:
                if k < resume["k"]:
                    continue
                again, resume = resume, None
                if again["at"] == "armour_loss":  # the strike made: its armour's loss goes on
                    yield from armour_loses(match, [match.state.pieces[a] for a in again["armour"]],
                                            "IX.F.4", here)
                    continue
            s = c.Situation.of(match)
            targets = [h for h, ps in s.marine_hexes.items() if c.attr(h, "area") == area
                       and h not in struck and any(p.kind == "infantry" for p in ps)]
            if not targets:
                break  # IV.C.2: excess strikes are ignored
            target = yield from pick_by_priority(match, targets, s, f"Artillery strike in area {area}: "
                                                 "which hex?", "IV.C.2", here)
            struck.append(target)
            yield from artillery_strike(match, target, s, here)


def artillery_strike(match: Match, target: str, s: c.Situation,
                     where: ResumePoint | None = None) -> Procedure[None]:
    """IX.F.1-4: strength 4 (+ beach, airfield, spotters, turn) on the Reg/Art row; the result
    hits the infantry unit; a stacked Armour Unit may lose a step too (which of several
    asked again from ``where``)."""
    match.emit("why_fire", "IV.C.2", f"Japanese artillery strikes {target} (area "
               f"{c.attr(target, 'area')}, Attack Priorities Chart)", hex=target)
    steps = resolve(match, ARTILLERY, 4, fire_modifiers(match, ARTILLERY, target, None, s), "IX.F.3",
                    target)
    infantry = [p for p in c.units_at(match, target, c.US) if p.kind == "infantry"]
    armour = [p for p in c.units_at(match, target, c.US) if p.kind == "armour"]
    if not infantry:
        return
    lost = c.marine_loses(match, infantry[0], steps, "IX.F.3")
    yield from armour_loss_roll(match, armour, lost, "IX.F.4", where)


def fire_range(match: Match) -> int:
    """IV.C.4 says "within two hexes", IX.C "next to": option ``regular_fire`` picks."""
    return 2 if match.options.get("regular_fire") == "within_two" else 1


def regular_targets(match: Match, jp: Piece, s: c.Situation) -> list[str]:
    """IX.C: the hexes with Marine units a Japanese unit may fire at."""
    reach = fire_range(match)  # 1 or 2: the hexes to look at are within two
    return sorted(h for h in c.components().map.ids_within(jp.location, 2)
                  if h in s.marine_hexes and c.components().map.id_distance(h, jp.location) <= reach)


def regular_fire(match: Match, where: ResumePoint | None = None,
                 resume: dict[str, Any] | None = None) -> Procedure[None]:
    """IV.C.4, IX.C: every Japanese unit next to a Marine unit fires once, in the order you
    choose; each at the hex it can attack at the highest modified strength (priorities, then
    your choice, break ties); you may commit Support Points; you distribute the losses.
    Its choices are asked again from ``where`` with the units that have fired (``fired``),
    and in a unit's fire, the unit and its target; ``resume``: the args of the one the flow
    is entered again at (that fire goes on, then the others)."""
    fired: set[str] = set() if resume is None else set(resume["fired"])
    if resume is not None and resume["at"] != "fire_order":
        yield from fire_once(match, match.state.pieces[resume["jp"]], c.Situation.of(match), fired,
                             where, resume)
    while True:
        s = c.Situation.of(match)
        ready = [p for p in c.japanese(match) if p.id not in fired and regular_targets(match, p, s)]
        if not ready:
            return
        if len(ready) == 1:
            jp = ready[0]
        else:
            answer = yield c.asked_again(choose(
                c.US, "Which Japanese unit fires next? (IX.C: the order is yours)", "IX.C",
                [Option(p.location, f"the unit in {p.location}" + ("" if p.hidden else f" ({p.id})"))
                 for p in sorted(ready, key=lambda p: p.location)], kind="fire_order"),
                where, at="fire_order", fired=sorted(fired))
            jp = next(p for p in ready if p.location == answer)
        fired.add(jp.id)
        if jp.hidden:  # only with the within_two reading can a face-down unit fire; it shows itself
            c.reveal_around(match, jp.location, "IX.C")
            jp.hidden = False
        yield from fire_once(match, jp, s, fired, where)


def fire_once(match: Match, jp: Piece, s: c.Situation, fired: set[str], where: ResumePoint | None = None,
              resume: dict[str, Any] | None = None) -> Procedure[None]:
    """IX.C: one Japanese unit's regular fire (:func:`regular_fire`), at the hex it attacks at
    the highest modified strength, the Attack Priorities Chart (then you) breaking ties; the
    Support Points, then the losses. ``resume``: the args of the decision of it the flow is
    entered again at (the target, the Support Points or a loss)."""
    here = c.asked_again_at(where, fired=sorted(fired), jp=jp.id)
    at = None if resume is None else resume["at"]
    base = c.strength(jp)
    if resume is not None and at in ("support", "loss"):
        target = str(resume["target"])
    else:
        values = {h: modified_strength(match, REGULAR, base, h, jp.location, s)[0]
                  for h in regular_targets(match, jp, s)}
        top = max(values.values())
        best = [h for h, v in values.items() if v == top]
        target = best[0] if len(best) == 1 else (yield from pick_by_priority(
            match, best, s, f"{jp.id} in {jp.location} fires: which hex?", "IX.C", here))
    why_fire = f"{jp.id} in {jp.location} fires at {target} (regular fire)"
    if resume is None or at == "priority_tie":
        reason = "the only hex it can fire at" if len(values) == 1 else \
            f"the hex it attacks at the highest strength ({top})" + \
            (", chosen by the Attack Priorities Chart" if len(best) > 1 else "")
        match.emit("why_fire", "IX.C", f"{why_fire}: {reason}", unit=jp.id, at=jp.location, hex=target,
                   strength=top, choices=len(values))
    here = c.asked_again_at(here, target=target)
    if resume is not None and at == "loss":
        yield from c.hex_loses(match, target, int(resume["left"]), "IX.C.4", here)
        return
    support = yield from spend_support(match, REGULAR, base, target, jp.location, s, "IX.C.2", why_fire, here)
    steps = resolve(match, REGULAR, base, fire_modifiers(match, REGULAR, target, jp.location, s, support),
                    "IX.C.4", target, jp.id)
    yield from c.hex_loses(match, target, steps, "IX.C.4", here)
