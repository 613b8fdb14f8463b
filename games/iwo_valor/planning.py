"""IV.A the Marine Planning Phase: support points, withdrawals, the independent regiment.

The Narrow Game (XI.C) takes a third of the support (fractions carried) and its own
withdrawals, and may borrow support points (the article's option, a game option here).
"""

from __future__ import annotations

from typing import Any

from tabletop.core.engine.decisions import Option, ResumePoint, ask_int, ask_str, choose
from tabletop.core.engine.match import Match, Procedure
from tabletop.core.engine.text import ordinal

from . import common as c
from .components import by_turn

KEEP, NONE = "keep", "none"
PHASE = "planning"
"""The phase's id: where its decisions are asked again (``at``: ``borrow``, ``withdraw``,
``independent``)."""


def share(match: Match, kind: str, amount: int) -> int:
    """XI.C: the Narrow Game's division receives 1/3 of the points, the fractions carried."""
    if match.state.vars[c.V_SCENARIO] != c.NARROW:
        return amount
    fr = match.state.vars[c.V_FRACTIONS]
    total = int(fr.get(kind, 0)) + amount
    fr[kind] = total % 3
    return total // 3


def support_points(match: Match, where: ResumePoint | None = None,
                   resume: dict[str, Any] | None = None) -> Procedure[None]:
    """IV.A.1: this turn's Support Points (the unused ones of last turn are lost). The
    decision to borrow is asked again from ``where`` with the points received (``resume``:
    its args, the points already received and shared)."""
    turn = match.state.turn
    scenario = match.state.vars[c.V_SCENARIO]
    if resume is not None:
        points = yield from borrow(match, int(resume["points"]), where, asking=True)
    else:
        if scenario == c.VERY_SHORT:
            points = 2  # XI.C: "You receive two support points per turn"
        else:
            points = share(match, "support", by_turn(c.components().tracks.game_turn_track.support,
                                                     turn, where="support"))
        if scenario == c.NARROW and match.options.get("borrow_support") == "yes":
            points = yield from borrow(match, points, where)
    match.state.tracks["support"].set(points)
    match.emit("support", "IV.A.1", f"{points} Support Point(s) available this turn", points=points)


def borrow(match: Match, points: int, where: ResumePoint | None = None,
           asking: bool = False) -> Procedure[int]:
    """XI.C option: borrow up to a turn's points; repay them next turn plus one point of
    interest; while unpaid, every point goes to the debt, plus one a turn of payments.
    ``asking``: no debt is owed, the decision is asked (again, from ``where``)."""
    debt = 0 if asking else int(match.state.vars[c.V_DEBT])
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
    n = yield from ask_int(c.asked_again(choose(
        c.US, "Borrow support points (repay next turn plus one)?", "XI.C",
        [Option(n, f"borrow {n}") for n in range(0, points + 1)], kind="borrow"),
        where, at="borrow", points=points))
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


def withdraw(match: Match, where: ResumePoint | None = None, resume: dict[str, Any] | None = None
             ) -> Procedure[None]:
    """IV.A.2: remove the regiment picked (no Fatigue Level above any regiment of its division
    that stays); units withdrawn are not eliminated and never return. The choice is asked
    again from ``where`` with the withdrawal's place in the turn's list (``item``; ``resume``:
    its args, the withdrawals before it made)."""
    first = 0 if resume is None else int(resume["item"])
    for item, (division, what) in enumerate(withdrawals_due(match)):
        if item < first:
            continue
        units = [p for p in match.state.pieces if p.side == c.US and p.attrs.get("division") == division
                 and (c.on_island(p) or p.location == c.AVAILABLE)]
        if what in ("division", "support"):
            kinds = ("hq", "armour") if what == "support" else ("hq", "armour", "infantry")
            gone = [p for p in units if p.kind in kinds]
            _remove(match, gone, f"the {ordinal(division)} Division's " + ("tanks and HQ" if what == "support"
                                                                     else "remaining units"),
                    division=division)
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
            answer = yield from ask_str(c.asked_again(choose(
                c.US, f"Withdraw which regiment of the {ordinal(division)} Division?", "IV.A.2", options,
                kind="withdraw"), where, at="withdraw", item=item))
            reg = answer
        _remove(match, [p for p in units if c.regiment_key(p) == reg], f"the {ordinal(reg)} Marines",
                division=division, regiment=reg)
        if match.state.vars[c.V_IND] == reg:
            match.state.vars[c.V_IND] = None


def _remove(match: Match, units: list, what: str, **data: Any) -> None:  # type: ignore[type-arg]
    """IV.A.2: the units withdrawn; ``data``: the division (and regiment) ``what`` names."""
    for p in units:
        match.state.pieces.move(p.id, c.WITHDRAWN)
    match.emit("withdrawal", "IV.A.2", f"{what} withdrawn ({len(units)} units)",
               units=[p.id for p in units], count=len(units), **data)


def independent_regiment(match: Match, where: ResumePoint | None = None) -> Procedure[None]:
    """IV.A.3: declare (or move, or remove) the one Independent Regiment (asked again from
    ``where``: the state says all it reads)."""
    regs = sorted({c.regiment_key(p) for p in c.marines(match, kind="infantry")}, key=lambda r: int(r))
    current = match.state.vars[c.V_IND]
    if not regs and current is None:
        return
    options = [Option(KEEP, f"keep as is ({ordinal(current) + ' Marines' if current else 'none'})")]
    if current is not None:
        options.append(Option(NONE, "remove the IND markers"))
    options += [Option(r, f"{ordinal(r)} Marines") for r in regs if r != current]
    answer = yield from ask_str(c.asked_again(choose(
        c.US, "Independent Regiment (IV.A.3)?", "IV.A.3", options, kind="independent"),
        where, at="independent"))
    if answer == KEEP:
        return
    match.state.vars[c.V_IND] = None if answer == NONE else answer
    match.emit("independent", "IV.A.3", "no Independent Regiment" if answer == NONE else
               f"the {ordinal(answer)} Marines are the Independent Regiment",
               regiment=match.state.vars[c.V_IND])


def planning_phase(match: Match) -> Procedure[None]:
    """IV.A.1-3, entered again at the decision ``match.resumed`` names (a fork): the steps
    before it done."""
    where = ResumePoint(PHASE, {})
    args = c.resumed(match, PHASE)
    at = None if args is None else args["at"]
    if at in (None, "borrow"):
        yield from support_points(match, where, args if at == "borrow" else None)
    if at in (None, "borrow", "withdraw"):
        yield from withdraw(match, where, args if at == "withdraw" else None)
    yield from independent_regiment(match, where)
