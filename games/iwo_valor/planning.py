"""IV.A the Marine Planning Phase: support points, withdrawals, the independent regiment.

The Narrow Game (XI.C) takes a third of the support (fractions carried) and its own
withdrawals, and may borrow support points (the article's option, a game option here).
"""

from __future__ import annotations

from tabletop.core.engine.decisions import Option, ask_int, ask_str, choose
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.text import ordinal

from . import common as c
from .components import by_turn

KEEP, NONE = "keep", "none"


def share(match: Match, kind: str, amount: int) -> int:
    """XI.C: the Narrow Game's division receives 1/3 of the points, the fractions carried."""
    if match.state.vars[c.V_SCENARIO] != c.NARROW:
        return amount
    fr = match.state.vars[c.V_FRACTIONS]
    total = int(fr.get(kind, 0)) + amount
    fr[kind] = total % 3
    return total // 3


def support_points(match: Match) -> Procedure[None]:
    """IV.A.1: this turn's Support Points (the unused ones of last turn are lost)."""
    turn = match.state.turn
    scenario = match.state.vars[c.V_SCENARIO]
    if scenario == c.VERY_SHORT:
        points = 2  # XI.C: "You receive two support points per turn"
    else:
        points = share(match, "support", by_turn(c.components().tracks.game_turn_track.support, turn,
                                                 where="support"))
    if scenario == c.NARROW and match.options.get("borrow_support") == "yes":
        points = yield from borrow(match, points)
    match.state.tracks["support"].set(points)
    match.emit("support", "IV.A.1", f"{points} Support Point(s) available this turn", points=points)


def borrow(match: Match, points: int) -> Procedure[int]:
    """XI.C option: borrow up to a turn's points; repay them next turn plus one point of
    interest; while unpaid, every point goes to the debt, plus one a turn of payments."""
    debt = int(match.state.vars[c.V_DEBT])
    if debt:
        paid = min(debt, points)
        debt -= paid
        points -= paid
        if debt:
            debt += 1  # one point a turn while payments go on
        match.state.vars[c.V_DEBT] = debt
        match.emit("support_debt", "XI.C", f"{paid} support point(s) repaid; {debt} still owed",
                   paid=paid, owed=debt)
        return points
    n = yield from ask_int(choose(c.US, "Borrow support points (repay next turn plus one)?", "XI.C",
                                  [Option(n, f"borrow {n}") for n in range(0, points + 1)], kind="borrow"))
    if n:
        match.state.vars[c.V_DEBT] = n + 1
        match.emit("support_debt", "XI.C", f"{n} support point(s) borrowed", borrowed=n)
    return points + n


def withdrawals_due(match: Match) -> list[tuple[str, str]]:
    """IV.A.2 (XI.C for the Narrow Game): (division, "regiment"|"division") due this turn."""
    turn = match.state.turn
    scenario = match.state.vars[c.V_SCENARIO]
    if scenario == c.NARROW:
        return {25: [("4", "regiment")], 31: [("4", "regiment"), ("4", "support")]}.get(turn, [])
    if turn <= 22 or scenario == c.VERY_SHORT:
        return []
    return [(w.division, w.what) for w in c.components().tracks.game_turn_track.withdrawals if w.turn == turn]


def withdraw(match: Match) -> Procedure[None]:
    """IV.A.2: remove the regiment picked (no Fatigue Level above any regiment of its division
    that stays); units withdrawn are not eliminated and never return."""
    for division, what in withdrawals_due(match):
        units = [p for p in match.state.pieces if p.side == c.US and p.attrs.get("division") == division
                 and (c.on_island(p) or p.location == c.AVAILABLE)]
        if what in ("division", "support"):
            kinds = ("hq", "armour") if what == "support" else ("hq", "armour", "infantry")
            gone = [p for p in units if p.kind in kinds]
            _remove(match, gone, f"the {ordinal(division)} Division's " + ("tanks and HQ" if what == "support"
                                                                     else "remaining units"))
            continue
        regs = sorted({c.regiment_key(p) for p in units if p.kind == "infantry" and c.on_island(p)})
        if not regs:
            continue
        low = min(c.fatigue(match, r) for r in regs)
        eligible = [r for r in regs if c.fatigue(match, r) == low]
        if len(eligible) == 1:
            reg = eligible[0]
        else:
            options = [Option(r, f"{ordinal(r)} Marines (fatigue {low})") for r in eligible]
            answer = yield from ask_str(choose(
                c.US, f"Withdraw which regiment of the {ordinal(division)} Division?", "IV.A.2", options,
                kind="withdraw"))
            reg = answer
        _remove(match, [p for p in units if c.regiment_key(p) == reg], f"the {ordinal(reg)} Marines")
        if match.state.vars[c.V_IND] == reg:
            match.state.vars[c.V_IND] = None


def _remove(match: Match, units: list, what: str) -> None:  # type: ignore[type-arg]
    for p in units:
        match.state.pieces.move(p.id, c.WITHDRAWN)
    match.emit("withdrawal", "IV.A.2", f"{what} withdrawn ({len(units)} units)",
               units=[p.id for p in units])


def independent_regiment(match: Match) -> Procedure[None]:
    """IV.A.3: declare (or move, or remove) the one Independent Regiment."""
    regs = sorted({c.regiment_key(p) for p in c.marines(match, kind="infantry")}, key=lambda r: int(r))
    current = match.state.vars[c.V_IND]
    if not regs and current is None:
        return
    options = [Option(KEEP, f"keep as is ({ordinal(current) + ' Marines' if current else 'none'})")]
    if current is not None:
        options.append(Option(NONE, "remove the IND markers"))
    options += [Option(r, f"{ordinal(r)} Marines") for r in regs if r != current]
    answer = yield from ask_str(choose(
        c.US, "Independent Regiment (IV.A.3)?", "IV.A.3", options, kind="independent"))
    if answer == KEEP:
        return
    match.state.vars[c.V_IND] = None if answer == NONE else answer
    match.emit("independent", "IV.A.3", "no Independent Regiment" if answer == NONE else
               f"the {ordinal(answer)} Marines are the Independent Regiment",
               regiment=match.state.vars[c.V_IND])


def planning_phase(match: Match) -> Procedure[None]:
    """IV.A.1-3."""
    yield from support_points(match)
    yield from withdraw(match)
    yield from independent_regiment(match)
