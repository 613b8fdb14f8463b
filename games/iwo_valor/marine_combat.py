"""IV.D the Marine Combat Phase and VIII Marine Combat.

1-3 fatigue by regiment; 4 the player announces attacks (one Marine infantry unit against
one adjacent Japanese unit each, the odds shown before committing) and commits armour;
5 the attacks are resolved in the order announced, supply checked at the moment of each:
modified strength (VIII.C) on the defender's class row of the Marine Attack Table, 2d6 +1
an armour unit, then "—", "A" (an ambush, IX.B) or steps lost by the Japanese unit (VIII.D).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tabletop.core.engine import odds as shown_odds
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Option, ResumePoint, choose
from tabletop.core.engine.events import modifier, modifiers_text
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.text import ordinal
from tabletop.core.engine.trackgroups import shift

from . import common as c
from .japanese_combat import ambush, armour_loses

PHASE = "marine_combat"
"""The phase's id: where its decisions are asked again. Their args name the decision
(``at``), the attacks announced (``announced``, as the announcing goes on), and once they
are, the armour committed (``committed``) and the tank asked or the attack resolved."""


def fatigue_steps(match: Match) -> None:
    """IV.D.1-3: a regiment with units of two or more battalions next to Japanese units gains a
    Fatigue Level; every other regiment loses one."""
    s = c.Situation.of(match)
    engaged: dict[str, set[str]] = {}
    for p in c.marines(match, kind="infantry"):
        if p.location in s.zoc:
            engaged.setdefault(c.regiment_key(p), set()).add(str(p.attrs["battalion"]))
    for reg in regiments_on_map(match):
        delta = 1 if len(engaged.get(reg, ())) >= 2 else -1
        before = c.fatigue(match, reg)
        after = shift(match.state, c.FATIGUE, reg, delta)
        if after != before:
            match.emit("fatigue", "IV.D.2" if delta > 0 else "IV.D.3",
                       f"{ordinal(reg)} Marines fatigue {before} -> {after}", regiment=reg, before=before,
                       level=after)


def regiments_on_map(match: Match) -> list[str]:
    """The regiments with at least one unit on the island, in sheet order."""
    present = {c.regiment_key(p) for p in c.marines(match, kind="infantry")}
    return [r for _, r in c.components().regiments() if r in present]


def hq_with(match: Match, p: Piece) -> Piece | None:
    """VIII.A: an undisrupted HQ in the attacker's hex joins its attack."""
    for q in c.units_at(match, p.location, c.US):
        if q.kind == "hq" and not c.is_disrupted(q):
            return q
    return None


def attack_modifiers(match: Match, p: Piece, target: str, *,
                     banzai: bool = False) -> tuple[int, list[dict[str, Any]]]:
    """VIII.C (VIII.A an HQ joining, VIII.E the flag, IV.F.5 the night's -3): the attacker's
    printed Combat Strength and each modifier, as an event's ``modifiers`` fields."""
    base = c.strength(p)
    mods: list[dict[str, Any]] = []
    hq = None if banzai else hq_with(match, p)
    if hq is not None:
        mods.append(modifier("VIII.A", f"{hq.id}", c.strength(hq)))
    attacked = match.state.vars[c.V_ATTACKED].get(target, [])
    if c.battalion_key(p) in attacked:
        mods.append(modifier("VIII.C", "battalion integrity", 1))
    if not banzai and c.level(target) > c.level(p.location):
        mods.append(modifier("VIII.C", "elevation", -1))
    if banzai:
        mods.append(modifier("IV.F.5", "Banzai Charge (night)", -3))
    tired = c.unit_fatigue(match, p) // 2
    if tired:
        mods.append(modifier("VIII.C", "fatigue", -tired))
    if match.state.vars[c.V_FLAG_TURN] == match.state.turn:
        mods.append(modifier("VIII.E", "flag", 1))
    return base, mods


def attack_strength(match: Match, p: Piece, target: str, *, banzai: bool = False) -> tuple[int, str]:
    """VIII.C: the attacker's modified Combat Strength, and why (never below 1)."""
    base, mods = attack_modifiers(match, p, target, banzai=banzai)
    total = max(1, base + sum(int(m["value"]) for m in mods))
    why = f"{base}" + "".join(f" {int(m['value']):+d} {m['name']}" for m in mods) + f" = {total}"
    return total, why


def attack_event(match: Match, section: str, p: Piece, jp: Piece, target: str, *, banzai: bool = False,
                 armour: list[Piece] | None = None, purpose: str = "Marine attack",
                 roll_section: str = "VIII.B.3") -> str:
    """VIII.B (IV.F.5 at night): roll one Marine attack on the Marine Attack Table and log it
    with its numbers as fields (the attacker, the unit and hex attacked, the position's class
    and the row read, the printed strength, each modifier, the strength read, the roll and its
    armour modifier, the result), its text made from them; the result."""
    base, mods = attack_modifiers(match, p, target, banzai=banzai)
    value = max(1, base + sum(int(m["value"]) for m in mods))
    line = mat_line(match, target, banzai=banzai)
    support = armour or []
    roll = c.roll_2d6(match, purpose, roll_section)
    result = c.components().mat.lookup(value, roll, line=line, modifier=len(support))
    roll_mods = [modifier("VIII.B.3", "armour", len(support))] if support else []
    data: dict[str, Any] = {
        "unit": p.id, "target": jp.id, "hex": target, "from": p.location,
        "position_class": c.position_class(match, target), "row": line, "base": base,
        "modifiers": mods, "strength": value, "roll": roll, "roll_modifiers": roll_mods,
        "armour": [t.id for t in support], "result": result}
    match.emit("attack", section, marine_attack_text(data, banzai=banzai), **data)
    return result


def marine_attack_text(data: dict[str, Any], *, banzai: bool = False) -> str:
    """A Marine attack's log line, made from its event's fields alone."""
    mods = modifiers_text(data["modifiers"])
    rmods = modifiers_text(data["roll_modifiers"])
    where = (f"fires at the charging {data['target']} in {data['hex']} (read on {data['row']})"
             if banzai else f"attacks {data['target']} in {data['hex']} (Class {data['position_class']})")
    return (f"{data['unit']} {where}: strength {data['base']}{', ' + mods if mods else ''} = "
            f"{data['strength']}, roll {data['roll']}{', ' + rmods if rmods else ''}: {data['result']}")


def mat_line(match: Match, target: str, *, banzai: bool = False) -> str:
    """VIII.B.1: the Marine Attack Table row of the defender's position (Class 1 at night)."""
    return "class_1" if banzai else f"class_{c.position_class(match, target)}"


def attack_odds(match: Match, p: Piece, target: str, armour: int = 0) -> dict[str, Fraction]:
    """The exact odds of each Marine Attack Table result for this attack now."""
    value, _ = attack_strength(match, p, target)
    return c.components().mat.odds(value, line=mat_line(match, target), modifier=armour)


def describe(odds: dict[str, Fraction]) -> str:
    """VIII.D: the Marine Attack Table's results as a line a person reads, whole percentages
    adding up to 100% (:func:`tabletop.core.engine.odds.describe`)."""
    names = {"A": "ambush", "-": "no effect"}
    return shown_odds.describe({names.get(r, f"{r} step(s)"): q for r, q in odds.items()})


def attack_pairs(match: Match, announced: list[tuple[str, str]]) -> list[tuple[Piece, str]]:
    """IV.D.4, VIII.A: (Marine infantry unit, adjacent Japanese hex) pairs still open to
    announce: any infantry unit next to a Japanese unit, not across a ridge; whether it is
    Supplied is asked when its attack is made (IV.D.5, VIII.A), not when it is announced."""
    s = c.Situation.of(match)
    done = {a for a, _ in announced}
    out: list[tuple[Piece, str]] = []
    for p in c.marines(match, kind="infantry"):
        if p.id in done:
            continue
        for h in c.components().map.passable_neighbor_ids(p.location):
            if h in s.jp and "ridge" not in c.components().map.id_hexside_features(p.location, h):
                out.append((p, h))
    return out


def combat_phase(match: Match) -> Procedure[None]:
    """IV.D.1-5; entered again at a decision (``match.resumed``), the steps before it done
    (fatigue, the attacks announced, the armour committed, the attacks resolved)."""
    args = c.resumed(match, PHASE)
    if args is None:
        fatigue_steps(match)
        at = "attack"
        announced: list[tuple[str, str]] = []
    else:
        at = args["at"]
        announced = [(str(a), str(h)) for a, h in args["announced"]]
    if at == "attack":
        yield from announce(match, announced)
        if not announced:
            return
    if args is None or at in ("attack", "armour"):
        support = yield from commit_armour(match, announced, args if at == "armour" else None)
    else:
        support = {h: list(ids) for h, ids in args["committed"].items()}
    first = 0 if args is None or at in ("attack", "armour") else int(args["attack"])
    for i, (attacker_id, target) in enumerate(announced):
        if i < first:
            continue
        where = ResumePoint(PHASE, {"announced": [list(a) for a in announced],
                                    "committed": {h: list(ids) for h, ids in support.items()},
                                    "attack": i})
        if args is not None and i == first and at == "armour_loss":  # its ambush goes on (IX.B.4)
            yield from armour_loses(match, [match.state.pieces[a] for a in args["armour"]], "IX.B.4", where)
            continue
        yield from resolve_attack(match, attacker_id, target, support, where)


def announce(match: Match, announced: list[tuple[str, str]]) -> Procedure[None]:
    """IV.D.4: the player announces attacks one at a time (added to ``announced``) until done;
    each decision is asked again from the phase with those announced before it."""
    # nothing changes while attacks are announced (IV.D.4: they are resolved afterwards), so
    # each attack's menu entry is made once and offered again until it is announced
    made: dict[tuple[str, str], Option] = {}
    while True:
        pairs = attack_pairs(match, announced)
        if not pairs:
            break
        options = [Option(DONE, "Resolve the attacks announced")]
        supplied = c.supply_check(match, c.Situation.of(match))
        for p, h in pairs:
            option = made.get((p.id, h))
            if option is None:
                option = made[(p.id, h)] = attack_option(match, p, h, supplied(p))
            options.append(option)
        answer = yield c.asked_again(choose(c.US, "Announce an attack (IV.D.4)?", "IV.D.4", options,
                                            kind="attack"),
                                     ResumePoint(PHASE, {"announced": [list(a) for a in announced]}),
                                     at="attack")
        if answer == DONE:
            break
        assert isinstance(answer, list)
        announced.append((str(answer[0]), str(answer[1])))


def attack_option(match: Match, p: Piece, h: str, supplied: bool = True) -> Option:
    """IV.D.4: the menu entry announcing the unit's attack on a hex, with its strength and
    odds (VIII.B, VIII.D), and whether the unit is Supplied now (IV.D.5: if it is not when
    its turn comes, the attack is not made)."""
    odds = attack_odds(match, p, h)
    value, why = attack_strength(match, p, h)
    info = f"strength {why} vs Class {c.position_class(match, h)}: {describe(odds)}"
    detail: dict[str, JSON] = {"strength": value, "odds": {r: float(q) for r, q in odds.items()}}
    if not supplied:
        info += "; not Supplied now: it attacks only if Supply is restored before its turn (IV.D.5)"
        detail["unsupplied"] = 1
    return Option([p.id, h], f"{p.id} attacks {h}", info, detail)


def armour_can_support(match: Match, tank: Piece, attacker: Piece, target: str) -> bool:
    """VIII.A: same division, no slope hexside, not against Bloody Gorge."""
    return (tank.attrs["division"] == attacker.attrs["division"]
            and "slope" not in c.components().map.id_hexside_features(attacker.location, target)
            and target not in c.GORGE_SET)


def commit_armour(match: Match, announced: list[tuple[str, str]],
                  resume: dict[str, Any] | None = None) -> Procedure[dict[str, list[str]]]:
    """IV.D.4, VIII.A: each Armour Unit stacked with an announced attacker of its division may
    be committed to the hex that unit attacks; it then supports attacks there by units of its
    division, as many as it has steps, in the order they are resolved. Each is asked again
    from the phase with the attacks, the armour committed before it and the tank; ``resume``:
    the args of the one the flow is entered again at (the tanks before it asked)."""
    committed: dict[str, list[str]] = {}
    by_id = dict(announced)
    tanks = c.marines(match, kind="armour")
    if resume is not None:
        committed = {h: list(ids) for h, ids in resume["committed"].items()}
        tanks = tanks[[t.id for t in tanks].index(resume["tank"]):]
    for tank in tanks:
        mates = [q for q in c.units_at(match, tank.location, c.US) if q.kind == "infantry"
                 and q.id in by_id and armour_can_support(match, tank, q, by_id[q.id])]
        if not mates:
            continue
        target = by_id[mates[0].id]
        answer = yield c.asked_again(choose(
            c.US, f"Commit {tank.id} ({tank.steps} step(s)) to support the attacks on {target}?", "IV.D.4",
            [Option(True, f"yes: +1 to up to {tank.steps} attack roll(s) on {target}"), Option(False, "no")],
            kind="armour", context={"unit": tank.id}),
            ResumePoint(PHASE, {"announced": [list(a) for a in announced],
                                "committed": {h: list(ids) for h, ids in committed.items()}}),
            at="armour", tank=tank.id)
        if answer:
            committed.setdefault(target, []).append(tank.id)
            match.emit("armour", "IV.D.4", f"{tank.id} supports the attacks on {target}", unit=tank.id,
                       hex=target, steps=tank.steps)
    return committed


def resolve_attack(match: Match, attacker_id: str, target: str,
                   committed: dict[str, list[str]], where: ResumePoint | None = None) -> Procedure[None]:
    """Part VIII, VIII.B: one announced attack, if its unit is still there, Supplied and
    adjacent (an ambush's choice asked again from ``where``)."""
    p = match.state.pieces[attacker_id]
    s = c.Situation.of(match)
    if (not c.on_island(p) or target not in s.jp
            or target not in c.components().map.passable_neighbor_ids(p.location)):
        return
    if not c.is_supplied(match, p, s):
        match.emit("no_attack", "VIII.A", f"{p.id} is not Supplied and cannot attack {target}", unit=p.id,
                   hex=target)
        return
    jp = match.state.pieces[s.jp[target]]
    used = match.state.vars.setdefault("armour_used", {})
    support: list[Piece] = []
    for tid in committed.get(target, []):
        tank = match.state.pieces[tid]
        if (c.on_island(tank) and int(used.get(tid, 0)) < tank.steps
                and armour_can_support(match, tank, p, target)):
            support.append(tank)
            used[tid] = int(used.get(tid, 0)) + 1
    result = attack_event(match, "VIII.B", p, jp, target, armour=support)
    attacked = match.state.vars[c.V_ATTACKED].setdefault(target, [])
    if c.battalion_key(p) not in attacked:
        attacked.append(c.battalion_key(p))
    if result == "A":
        yield from ambush(match, jp, p, support, where)
    elif result != "-":
        c.japanese_loses(match, jp, int(result), "VIII.D")
