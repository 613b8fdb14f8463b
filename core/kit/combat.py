"""The kit's attack phase loop and the standard resolution of an attack.

An attack is declared a hex at a time (``attacks`` of ``kit.yaml``): the player picks an
enemy hex not yet attacked that units of his which have not attacked stand next to, then
adds those units one at a time (and, with ``multi_hex``, further enemy hexes next to every
attacker), each option showing the exact odds of the attack as it would then stand. The
attack is resolved at once: the attack strength against the defence (multiplied by the
terrain), as an odds ratio or a differential column (``odds``), shifted by the terrain
(:meth:`~.terrain.Terrain.defence`), rolled on the CRT; the result's effects
(``results``) follow in a fixed order: defender losses, attacker losses (an exchange
matching the defender's; the attacker's come first under ``losses.first: attacker``),
defender retreats, attacker retreats, advance after combat, engagement. Each number of the
resolution is a field of its ``combat`` event, each shift a
:func:`~tabletop.core.engine.events.modifier` with its section.

Every decision is resumable: the phase's args carry the hexes attacked and units used, the
attack being declared, or the resolution being applied (``plan``: its result and how far
each effect has gone).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..engine import odds as odds_text
from ..engine.canonical import JSON
from ..engine.decisions import DONE, Decision, Option, ResumePoint, ask_str, choose
from ..engine.events import modifiers_text
from ..engine.match import Flow, Match
from ..engine.pieces import Piece, copy_json
from .rules import kit
from .units import eliminate, lose_step, unseen

if TYPE_CHECKING:
    from .game import KitGame

Here = Callable[[dict[str, Any]], ResumePoint]
"""Where a question of a resolution can be asked again: the phase's point with its plan."""


def attack_phase(match: Match, side: str, phase: str) -> Flow:
    """Declare and resolve ``side``'s attacks one at a time in phase ``phase``."""
    g = kit(match)
    section = g.rules.attacks.section
    back: Any = match.resumed(phase) or {}
    attacked: set[str] = set(back.get("attacked", ()))
    used: set[str] = set(back.get("used", ()))

    def here(**more: JSON) -> ResumePoint:
        return ResumePoint(phase, {"attacked": sorted(attacked), "used": sorted(used), **more})

    while True:
        plan = copy_json(back["plan"]) if "plan" in back else None  # the point's args stay as asked
        if plan is None:
            targets: list[str] | None = list(back["targets"]) if "targets" in back else None
            if targets is None:
                found = targets_of(match, side, attacked, used)
                if not found:
                    return None
                options = [attack_option(match, [h], attackers, h, f"attack {h}")
                           for h, attackers in found.items()]
                pick = yield from ask_str(choose(
                    side, "Attack which hex?", section, [*options, Option(DONE, "No more attacks")],
                    kind="select_target", resume=here()))
                if pick == DONE:
                    return None
                targets = [pick]
            chosen: list[str] = list(back.get("chosen", ()))
            back = {}
            while True:
                pool, more = eligible(match, side, targets, chosen, attacked, used)
                if not pool and not more:
                    break
                pieces = match.state.pieces
                options = [attack_option(match, targets, [*map(pieces.__getitem__, chosen), p], p.id,
                                         f"add {g.piece_label(p)}") for p in pool]
                options += [attack_option(match, [*targets, h], [pieces[c] for c in chosen], f"+{h}",
                                          f"also attack {h}") for h in more]
                if chosen:
                    options.append(attack_option(match, targets, [pieces[c] for c in chosen], DONE,
                                                 "Resolve the attack"))
                add = yield from ask_str(choose(
                    side, f"Attackers against {', '.join(targets)}: {', '.join(chosen) or 'none yet'}",
                    section, options, kind="select_attacker", context={"targets": list(targets)},
                    resume=here(targets=list(targets), chosen=list(chosen))))
                if add == DONE:
                    break
                if add.startswith("+"):
                    targets.append(add[1:])
                else:
                    chosen.append(add)
            attacked.update(targets)
            used.update(chosen)
            plan = resolve(match, side, targets, chosen)
        back = {}
        yield from apply_result(match, plan, lambda p: here(plan=p))


def targets_of(match: Match, side: str, attacked: set[str], used: set[str]) -> dict[str, list[Piece]]:
    """Each enemy hex that may be attacked, in id order, with the units that may attack it."""
    g = kit(match)
    each_hex = g.rules.attacks.each_hex_once
    ready = [p for p in g.on_map(match, side) if not (g.rules.attacks.each_unit_once and p.id in used)]
    found: dict[str, list[Piece]] = {}
    for h in sorted(g.hexes_of(match, g.enemy_of(side))):
        if each_hex and h in attacked:
            continue
        near = g.map.neighbor_ids(h)
        attackers = [p for p in ready if p.location in near]
        if attackers:
            found[h] = attackers
    return found


def eligible(match: Match, side: str, targets: Sequence[str], chosen: Sequence[str],
             attacked: set[str], used: set[str]) -> tuple[list[Piece], list[str]]:
    """The units that may join an attack on ``targets`` (next to one of them, not yet
    attacking), and, with ``multi_hex``, the enemy hexes it may take in too (next to every
    attacker chosen, not yet attacked)."""
    g = kit(match)
    rules = g.rules.attacks
    near = {n for t in targets for n in g.map.neighbor_ids(t)}
    pool = [p for p in g.on_map(match, side) if p.location in near and p.id not in chosen
            and not (rules.each_unit_once and p.id in used)]
    more: list[str] = []
    if rules.multi_hex and chosen:
        at = {match.state.pieces[c].location for c in chosen}
        more = [h for h in sorted(g.hexes_of(match, g.enemy_of(side)))
                if h not in targets and not (rules.each_hex_once and h in attacked)
                and all(h in g.map.neighbor_ids(a) for a in at)]
    return pool, more


def _number(x: Fraction) -> JSON:
    return int(x) if x.denominator == 1 else float(x)


def combat_terms(match: Match, targets: Sequence[str], attackers: Sequence[Piece]) -> dict[str, Any]:
    """The numbers of an attack: strengths, the terrain's multipliers and shifts, the odds
    or differential, the CRT column (index and label) and line; ``auto`` is the result of
    odds beyond the table when ``kit.yaml`` gives one for them (else None)."""
    g = kit(match)
    pieces = match.state.pieces
    defenders = [p for t in targets for p in pieces.at(t)]
    attack = sum(p.value("attack") for p in attackers)
    base = sum(p.value("defense") for p in defenders)
    effects = g.terrain.defence(targets, [p.location for p in attackers])
    defence = Fraction(base)
    for m in effects["multipliers"]:
        defence *= Fraction(str(m["value"]))
    rules = g.rules.odds
    index, odds, beyond = _column(g, Fraction(attack), defence)
    auto = None
    if beyond is not None:
        code = rules.below if beyond == "below" else rules.above
        auto = None if code == "column" else code
    shift = sum(int(m["value"]) for m in effects["shifts"])
    final = max(0, min(len(g.crt.columns) - 1, index + shift))
    line = effects["line"] or _line_of(g, targets)
    return {"targets": list(targets), "attackers": [p.id for p in attackers],
            "defenders": [p.id for p in defenders], "attack": attack, "defence": base,
            "multipliers": effects["multipliers"], "defence_total": _number(defence),
            "odds": odds, "shifts": effects["shifts"], "index": final,
            "column": g.crt.columns[final], "line": line, "auto": auto}


def _line_of(g: KitGame, targets: Sequence[str]) -> str:
    """The CRT line of the defender's terrain when the table has one by that name."""
    terrain = g.map.terrain(g.map.hex(targets[0]))
    return terrain if terrain in g.crt.lines else "default"


def _column(g: KitGame, attack: Fraction, defence: Fraction) -> tuple[int, str, str | None]:
    """The column index odds or a differential read (before shifts), the odds as a player
    reads them, and whether they fall ``below`` or ``above`` the table (else None)."""
    columns = g.crt.columns
    last = len(columns) - 1
    if g.rules.odds.columns == "differential":
        diff = attack - defence
        whole = int(diff // 1) if g.rules.odds.rounding == "down" else (
            -int(-diff // 1) if g.rules.odds.rounding == "up" else round(diff))
        spans = g.column_spans
        text = f"{whole:+d}"
        if spans[0].low is not None and whole < spans[0].low:
            return 0, text, "below"
        if spans[-1].high is not None and whole > spans[-1].high:
            return last, text, "above"
        return next(i for i, s in enumerate(spans) if s.contains(whole)), text, None
    ratios = g.column_ratios
    if defence == 0:
        return last, "no defence", "above"
    r = attack / defence
    text = f"{_number(attack)}:{_number(defence)}"
    if r < ratios[0]:
        return 0, text, "below"
    if r > ratios[-1]:
        return last, text, "above"
    rounding = g.rules.odds.rounding
    if rounding == "down":
        index = max(i for i, x in enumerate(ratios) if x <= r)
    elif rounding == "up":
        index = min(i for i, x in enumerate(ratios) if x >= r)
    else:
        index = min(range(len(ratios)), key=lambda i: (abs(ratios[i] - r), i))
    return index, text, None


def _key(g: KitGame, index: int) -> int | str:
    """What the CRT is read by for a column index: its name, or a number of its span."""
    if g.crt.keyed_by == "name":
        return g.crt.columns[index]
    span = g.column_spans[index]
    low = span.low if span.low is not None else span.high
    assert low is not None
    return low


def describe(terms: dict[str, Any]) -> str:
    """An attack's numbers in words, made from its fields alone."""
    mults = "".join(f" x{m['value']} {m['name']} ({m['rule']})" for m in terms["multipliers"])
    defence = f"{terms['defence']}{mults}" + (f" = {terms['defence_total']}" if mults else "")
    shifts = f", {modifiers_text(terms['shifts'])}" if terms["shifts"] else ""
    return (f"attack {terms['attack']} vs defence {defence}: {terms['odds']}{shifts} -> "
            f"column {terms['column']}")


def attack_option(match: Match, targets: Sequence[str], attackers: Sequence[Piece], value: str,
                  label: str) -> Option:
    """An option of the declaration with the exact odds of the attack as it would stand (in
    words, and as data for a bot: the column, its index, the odds or differential ``read``
    before shifts, each result's chance)."""
    g = kit(match)
    if attackers and not g.odds_known(match, attackers[0].side, targets):
        return Option(value, label, "defender hidden: odds unknown")
    terms = g.combat_terms(match, targets, attackers)
    if terms["auto"] is not None:
        chances = {terms["auto"]: Fraction(1)}
    else:
        chances = g.crt.odds(_key(g, terms["index"]), line=terms["line"])
    legend = g.crt.results or {}
    words = {legend.get(r, r): p for r, p in chances.items()}
    return Option(value, label, f"{describe(terms)}: {odds_text.describe(words)}",
                  {"column": terms["column"], "index": terms["index"], "read": terms["odds"],
                   "odds": {r: float(p) for r, p in chances.items()}})


def resolve(match: Match, side: str, targets: Sequence[str], chosen: Sequence[str]) -> dict[str, Any]:
    """Roll the attack on the CRT and log it; the plan of its effects (:func:`apply_result`)."""
    g = kit(match)
    pieces = match.state.pieces
    g.before_combat(match, side, targets)
    terms = g.combat_terms(match, targets, [pieces[c] for c in chosen])
    section = g.rules.odds.section
    if terms["auto"] is not None:
        result, roll = terms["auto"], None
    else:
        count, sides = g.crt.dice or (1, 6)
        roll = match.dice.total(count, sides, purpose=f"combat against {', '.join(targets)}",
                                section=section)
        result = g.crt.lookup(_key(g, terms["index"]), roll, line=terms["line"])
    rolled = "beyond the table" if roll is None else f"roll {roll}"
    data = {k: v for k, v in terms.items() if k not in ("auto", "index")}
    where = ", ".join(targets)
    text = f"{side} attacks {where} with {', '.join(chosen)}: {describe(terms)}; {rolled} -> {result}"
    hidden = any(pieces[c].hidden for c in chosen)  # a hidden attacker's numbers are its side's
    match.emit("combat", section, text, **data, roll=roll, result=result,
               visible_to=(side,) if hidden else (),
               mask=f"{side} attacks {where}: {rolled} -> {result}" if hidden else "")
    return {"result": result, "side": side, "targets": list(targets), "attackers": list(chosen),
            "defenders": terms["defenders"], "stage": 0, "lost": 0, "def_lost": 0, "done": [],
            "path": []}


STAGES = ("defender_loss", "attacker_loss", "defender_retreat", "attacker_retreat", "advance", "engaged")
"""The order in which a result's effects apply (the first two swapped under ``losses.first:
attacker``)."""


def apply_result(match: Match, plan: dict[str, Any], here: Here) -> Flow:
    """Apply a result's effects in :data:`STAGES` order from where ``plan`` stands, asking
    the owners their choices (each question marked ``here`` with the plan as it stands);
    the game's ``check_end`` is asked after each, so that a side wiped out loses at once."""
    g = kit(match)
    effect = g.rules.results.effects[plan["result"]]
    order = list(STAGES)
    if g.rules.losses.first == "attacker":
        order[:2] = order[1::-1]
    while plan["stage"] < len(order):
        stage = order[plan["stage"]]
        if stage == "defender_loss":
            yield from _losses(match, plan, "defenders", effect.defender_steps,
                               effect.defender_eliminated, here)
        elif stage == "attacker_loss":
            steps = effect.attacker_steps + (plan["def_lost"] if effect.exchange else 0)
            yield from _losses(match, plan, "attackers", steps, effect.attacker_eliminated, here)
        elif stage == "defender_retreat" and effect.retreat:
            yield from _retreats(match, plan, "defenders", effect.retreat, here)
        elif stage == "attacker_retreat" and effect.attacker_retreat:
            yield from _retreats(match, plan, "attackers", effect.attacker_retreat, here)
        elif stage == "advance":
            yield from _advance(match, plan, here)
        elif stage == "engaged" and effect.engaged:
            for pid in [*plan["attackers"], *plan["defenders"]]:
                if g.map.is_hex_id(match.state.pieces[pid].location):
                    match.state.pieces[pid].attrs["engaged"] = True
        plan["stage"] += 1
        plan["lost"] = 0
        plan["done"] = []
        plan["path"] = []
        result = g.check_end(match)  # a side wiped out loses at once, before any advance
        if result is not None:
            match.end(result)
    return None


def _alive(match: Match, ids: Sequence[str]) -> list[Piece]:
    hexes = kit(match).map
    return [p for p in map(match.state.pieces.__getitem__, ids) if hexes.is_hex_id(p.location)]


def _losses(match: Match, plan: dict[str, Any], who: str, steps: int, eliminated: bool,
            here: Here) -> Flow:
    """A side's step losses (or the elimination of every unit) from a result."""
    g = kit(match)
    section = g.rules.losses.section
    if eliminated:
        for p in _alive(match, plan[who]):
            if who == "defenders":
                plan["def_lost"] += p.steps
            eliminate(match, p, section, g.rules.eliminated)
        return None
    while plan["lost"] < steps:
        alive = _alive(match, plan[who])
        if not alive:
            break
        pick = yield from g.choose_loss(match, alive, here(copy_json(plan)))
        lose_step(match, match.state.pieces[pick], section, g.rules.eliminated)
        plan["lost"] += 1
        if who == "defenders":
            plan["def_lost"] += 1
    return None


def choose_loss(match: Match, alive: Sequence[Piece], point: ResumePoint) -> Generator[Decision, JSON, str]:
    """Which unit loses a step: the owner's choice when several may (``losses.chooser:
    owner``), else the one with most steps, then the strongest, then the first."""
    g = kit(match)
    if len(alive) == 1 or g.rules.losses.chooser == "rules":
        return max(alive, key=lambda p: (p.steps, p.value("attack") + p.value("defense"), -alive.index(p))).id
    return (yield from ask_str(choose(
        alive[0].side, "Which unit loses a step?", g.rules.losses.section,
        [Option(p.id, g.piece_label(p), detail={"steps": p.steps}) for p in alive],
        kind="take_loss", resume=point)))


def retreat_paths(match: Match, piece: Piece, length: int) -> list[list[str]]:
    """Every legal retreat of ``length`` hexes, each hex farther from where the unit
    stands, never into an enemy hex, a hex it may not enter or across a hexside it may not
    cross, nor into an enemy zone of control under ``retreat.through_zoc: never``; ending
    where stacking allows. In hex id order."""
    g = kit(match)
    start = piece.location
    enemy = g.enemy_of(piece.side)
    held, zoc = g.hexes_of(match, enemy), g.zoc_of(match, enemy)
    costs = g.terrain.costs(piece.kind)
    never = g.rules.retreat.through_zoc == "never"
    found: list[list[str]] = []

    def walk(path: list[str]) -> None:
        if len(path) > length:
            if g.has_room(match, path[-1], [piece]):
                found.append(path[1:])
            return
        for n in sorted(g.map.neighbor_ids(path[-1])):
            if (n in held or g.map.id_distance(start, n) != len(path) or (never and n in zoc)
                    or g.terrain.prohibited(n, piece.kind)
                    or costs(g.map.hex(path[-1]), g.map.hex(n)) is None):
                continue
            walk([*path, n])
    walk([start])
    return found


def _retreats(match: Match, plan: dict[str, Any], who: str, length: int, here: Here) -> Flow:
    """Each surviving unit of a side retreats in turn (id order); a blocked unit loses a
    step or is eliminated (``retreat.blocked``); each enemy-controlled hex entered costs a
    step under ``retreat.through_zoc: step``."""
    g = kit(match)
    section = g.rules.retreat.section
    for piece in _alive(match, plan[who]):
        if piece.id in plan["done"]:
            continue
        paths = g.retreat_paths(match, piece, length)
        if not paths:
            match.emit("retreat", section, f"{piece.name} cannot retreat from {piece.location}",
                       piece=piece.id, unit=piece.name, at=piece.location, blocked=True,
                       **unseen(piece, f"a hidden {piece.side} unit cannot retreat from {piece.location}"))
            if g.rules.retreat.blocked == "step":
                lose_step(match, piece, section, g.rules.eliminated)
            else:
                eliminate(match, piece, section, g.rules.eliminated)
        else:
            path = yield from choose_retreat(match, piece, paths, plan, here)
            frm = piece.location
            match.state.pieces.move(piece.id, path[-1])
            route = " -> ".join(path)
            match.emit("retreat", section, f"{piece.name} retreats {frm} -> {route}",
                       piece=piece.id, unit=piece.name, frm=frm, path=path,
                       **unseen(piece, f"a hidden {piece.side} unit retreats {frm} -> {route}"))
            if g.rules.retreat.through_zoc == "step":
                zoc = g.zoc_of(match, g.enemy_of(piece.side))
                for h in path:
                    if h in zoc and g.map.is_hex_id(piece.location):
                        lose_step(match, piece, section, g.rules.eliminated)
        plan["done"].append(piece.id)
        plan["path"] = []
    return None


def choose_retreat(match: Match, piece: Piece, paths: list[list[str]], plan: dict[str, Any],
                   here: Here) -> Generator[Decision, JSON, list[str]]:
    """The retreat path: its owner picks it hex by hex among the hexes that lead on to a
    legal end (``retreat.chooser: owner``), else the rules take the path through the
    fewest enemy-controlled hexes (the first in id order)."""
    g = kit(match)
    if g.rules.retreat.chooser == "rules" or len(paths) == 1:
        zoc = g.zoc_of(match, g.enemy_of(piece.side))
        return min(paths, key=lambda p: sum(h in zoc for h in p))
    so_far: list[str] = list(plan["path"])
    while True:
        left = [p for p in paths if p[:len(so_far)] == so_far]
        if len(left) == 1:
            return left[0]
        steps = sorted({p[len(so_far)] for p in left})
        if len(steps) == 1:
            so_far.append(steps[0])
            continue
        plan["path"] = list(so_far)
        pick = yield from ask_str(choose(
            piece.side, f"Retreat {piece.name} from {piece.location}"
            + (f" via {', '.join(so_far)}" if so_far else "") + " to?", g.rules.retreat.section,
            steps, kind="select_retreat", context={"unit": piece.id}, resume=here(copy_json(plan))))
        so_far.append(pick)


def _advance(match: Match, plan: dict[str, Any], here: Here) -> Flow:
    """Attackers may advance into the hex the defenders left, one at a time, as many as
    ``advance.units`` allows and stacking admits."""
    g = kit(match)
    most = g.rules.advance.units
    pieces = match.state.pieces
    enemy = g.enemy_of(plan["side"])
    emptied = [t for t in plan["targets"] if not any(p.side == enemy for p in pieces.at(t))]
    if not emptied or most == 0 or not plan["defenders"]:
        return None
    into = emptied[0]
    while most is None or len(plan["done"]) < most:
        ready = [p for p in _alive(match, plan["attackers"]) if p.id not in plan["done"]
                 and into in g.map.neighbor_ids(p.location) and g.has_room(match, into, [p])]
        if not ready:
            break
        pick = yield from ask_str(choose(
            plan["side"], f"Advance into {into}?", g.rules.advance.section,
            [*(Option(p.id, f"advance {g.piece_label(p)}") for p in ready), Option(DONE, "Do not advance")],
            kind="select_advance", context={"hex": into}, resume=here(copy_json(plan))))
        if pick == DONE:
            break
        frm = pieces[pick].location
        pieces.move(pick, into)
        plan["done"].append(pick)
        match.emit("advance", g.rules.advance.section, f"{pieces[pick].name} advances {frm} -> {into}",
                   piece=pick, unit=pieces[pick].name, frm=frm, to=into,
                   **unseen(pieces[pick], f"a hidden {plan['side']} unit advances {frm} -> {into}"))
    return None
