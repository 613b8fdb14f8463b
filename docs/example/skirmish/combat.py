"""Skirmish at Hill 50, 5.0 combat: a side declares attacks one at a time (5.1-5.2), each
resolved on the CRT at once (5.3) with its step losses (5.4)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from tabletop.core.engine import odds
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Option, ResumePoint, ask_str, choose
from tabletop.core.engine.events import modifier, modifiers_text
from tabletop.core.engine.match import Flow, Match
from tabletop.core.engine.pieces import Piece

from . import common as c
from .components import ELIMINATED

if TYPE_CHECKING:
    from . import Skirmish


def combat_phase(match: Match, side: str, phase: str) -> Flow:
    """5.1-5.2 Declare attacks one at a time: the hex, then the attackers, then resolve.

    Each question can be asked again from the state and what the phase has done so far
    (the hexes attacked, the units used, the attack being declared or resolved): a fork
    enters the phase ``phase`` again there (:meth:`~tabletop.core.engine.match.Match.resumed`).
    """
    g = c.game(match)
    back: Any = match.resumed(phase) or {}
    attacked: set[str] = set(back.get("attacked", ()))
    used: set[str] = set(back.get("used", ()))

    def here(**more: JSON) -> ResumePoint:
        return ResumePoint(phase, {"attacked": sorted(attacked), "used": sorted(used), **more})

    while True:
        if "loss" in back:  # back in the middle of a resolution (5.4)
            yield from resolve(match, side, back["target"], back["chosen"], here, back["loss"])
        else:
            hid = back.get("target")
            if hid is None:
                found = targets(match, side, attacked, used)
                if not found:
                    return None
                opts = [Option(hid, f"attack {hid}", odds_text(match, side, hid, attackers),
                               odds_detail(match, side, hid, attackers))
                        for hid, attackers in found.items()]
                target = yield choose(
                    side,
                    "Attack which hex?",
                    "5.1",
                    [*opts, Option(DONE, "No more attacks")],
                    kind="select_target",
                    resume=here(),
                )
                if target == DONE:
                    return None
                hid = str(target)
            chosen: list[str] = list(back.get("chosen", ()))
            back = {}
            while True:
                pool = [p for p in eligible(match, side, hid, used) if p.id not in chosen]
                opts = [Option(p.id, f"add {g.piece_label(p)}") for p in pool]
                if chosen:
                    opts.append(
                        Option(
                            DONE,
                            "Resolve the attack",
                            odds_text(match, side, hid, [match.state.pieces[pid] for pid in chosen]),
                        )
                    )
                if not pool:
                    break
                add = yield choose(
                    side,
                    f"Attackers against {hid}: {', '.join(chosen) or 'none yet'}",
                    "5.2",
                    opts,
                    kind="select_attacker",
                    context={"target": hid},
                    resume=here(target=hid, chosen=list(chosen)),
                )
                if add == DONE:
                    break
                chosen.append(str(add))
            attacked.add(hid)
            used.update(chosen)
            yield from resolve(match, side, hid, chosen, here)
        back = {}
        result = g.check_end(match)  # 6.1-6.2 at once, mid-phase
        if result is not None:
            match.end(result)


def targets(match: Match, side: str, attacked: set[str], used: set[str]) -> dict[str, list[Piece]]:
    """5.1 Enemy hexes not yet attacked that are adjacent to a unit that has not attacked
    this phase, in id order, each with those units (:func:`eligible`)."""
    g = c.game(match)
    enemy = sorted({p.location for p in c.on_map(match, c.enemy_of(side))} - attacked)
    ready = [p for p in c.on_map(match, side) if p.id not in used]
    found = {hid: adjacent(g, ready, hid) for hid in enemy}
    return {hid: attackers for hid, attackers in found.items() if attackers}


def eligible(match: Match, side: str, hid: str, used: set[str]) -> list[Piece]:
    """5.1 A side's units adjacent to a hex that have not attacked this phase."""
    return adjacent(c.game(match), [p for p in c.on_map(match, side) if p.id not in used], hid)


def adjacent(g: Skirmish, units: list[Piece], hid: str) -> list[Piece]:
    """The units (in their order) standing next to a hex."""
    near = g.map.neighbor_ids(hid)
    return [p for p in units if p.location in near]


def attack_terms(match: Match, hid: str, attackers: Iterable[Piece]) -> tuple[int, str, int]:
    """5.3 The differential, the terrain line and the stream shift of an attack; 1.3 the CRT
    is read on the line of the defender's terrain (a hill counts as woods)."""
    hexmap = c.game(match).map
    target = hexmap.hex(hid)
    attackers = list(attackers)
    attack = sum(p.value("attack") for p in attackers)
    defense = sum(p.value("defense") for p in match.state.pieces.at(hid))
    terrain = hexmap.terrain(target)
    line = "woods" if hexmap.has_feature(target, "objective") and terrain == "clear" else terrain
    across = any(
        "stream" in hexmap.hexside_features(hexmap.hex(p.location), target) for p in attackers
    )
    return attack - defense, line, -1 if across else 0


def odds_detail(match: Match, side: str, hid: str, attackers: list[Piece]) -> dict[str, JSON]:
    """The same facts as odds_text, as data for a bot (Option.detail): the differential,
    unless the defender is hidden from the attacker (4.2)."""
    if side == "Blue" and any(p.hidden for p in match.state.pieces.at(hid)):
        return {}
    return {"diff": attack_terms(match, hid, attackers)[0]}


def odds_text(match: Match, side: str, hid: str, attackers: list[Piece]) -> str:
    """The exact odds of each result, for the player to see before committing (5.3)."""
    if side == "Blue" and any(p.hidden for p in match.state.pieces.at(hid)):
        return "defender hidden: odds unknown"
    crt = c.game(match).crt
    diff, line, shift = attack_terms(match, hid, attackers)
    chances = crt.odds(diff, line=line, shift=shift)
    legend = crt.results or {}
    words = {legend.get(result, result).lower(): p for result, p in chances.items()}
    return f"diff {diff:+d} on {line}{', across a stream' if shift else ''}: " + odds.describe(words)


def resolve(match: Match, side: str, hid: str, chosen: list[str],
            here: Callable[..., ResumePoint], loss: JSON = None) -> Flow:
    """5.3-5.4 Roll on the CRT and apply the result, owners choosing step losses. ``loss``
    goes back to a step loss of a resolution already rolled (``[result, the side that
    takes it]``); ``here`` marks the step-loss questions so."""
    pieces = match.state.pieces
    if loss is None:
        for p in pieces.at(hid):
            if p.hidden:
                p.hidden = False
                match.reveal(p, "4.2", f"{p.name} revealed at {hid} when attacked", piece=p.id,
                             unit=p.name, at=hid)
        attackers = [pieces[pid] for pid in chosen]
        diff, line, shift = attack_terms(match, hid, attackers)
        roll = match.dice.d6(purpose=f"combat against {hid}", section="5.3")
        result = c.game(match).crt.lookup(diff, roll, line=line, shift=shift)
        data: dict[str, Any] = {
            "side": side, "target": hid, "attackers": chosen,
            "attack": sum(p.value("attack") for p in attackers),
            "defense": sum(p.value("defense") for p in pieces.at(hid)), "diff": diff, "line": line,
            "modifiers": [modifier("5.3", "across a stream", shift)] if shift else [],
            "roll": roll, "result": result}
        text = combat_text(data)
        unseen = (side,) if any(p.hidden for p in attackers) else ()  # 4.2: attacking reveals no Red unit
        match.emit("combat", "5.3", text, visible_to=unseen, mask=text if unseen else "", **data)
        stage = ""
    else:
        result, stage = loss
    enemy = c.enemy_of(side)
    if result in ("A1", "EX") and stage != enemy:
        yield from step_loss(match, side, chosen,
                             here(target=hid, chosen=chosen, loss=[result, side]))
    if result in ("D1", "EX"):
        yield from step_loss(match, enemy, list(pieces.ids_at(hid)),
                             here(target=hid, chosen=chosen, loss=[result, enemy]))
    if result == "DE":
        for pid in list(pieces.ids_at(hid)):
            c.eliminate(match, pieces[pid], "5.4")
    return None


def combat_text(data: dict[str, Any]) -> str:
    """5.3 An attack's log line, written from its event's fields: the differential, the
    CRT line, the column shifts (``modifiers``), the roll and the result."""
    mods = modifiers_text(data["modifiers"])
    return (f"{data['side']} attacks {data['target']} at {data['diff']:+d} ({data['line']}"
            f"{', ' + mods if mods else ''}): roll {data['roll']} -> {data['result']}")


def step_loss(match: Match, side: str, candidates: list[str],
              resume: ResumePoint | None = None) -> Flow:
    """5.4 The owner picks which unit loses a step (``resume``: where the question can be
    asked again)."""
    pieces = match.state.pieces
    alive = [pid for pid in candidates if pieces[pid].location != ELIMINATED]
    if not alive:
        return None
    pick = alive[0]
    if len(alive) > 1:
        pick = yield from ask_str(choose(side, "Which unit takes the step loss?", "5.4",
                                         [Option(pid, c.game(match).piece_label(pieces[pid]))
                                          for pid in alive],
                                         kind="take_loss", resume=resume))
    piece = pieces[pick]
    match.state.vars["lost"][side] += 1
    if piece.steps > 1:
        piece.steps -= 1
        piece.face = "back"
        match.emit("loss", "5.4", f"{piece.name} is reduced", piece=piece.id, unit=piece.name,
                   steps=piece.steps)
    else:
        c.eliminate(match, piece, "5.4", count=False)
    return None
