"""4.0 USMC Regiment Cohesion & Exhaustion."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .positions import (
    EXHAUSTION_THRESHOLD,
    cohesion,
    is_exhausted,
    rally,
    regiment_pos,
    set_cohesion,
    set_exhausted,
)

if TYPE_CHECKING:
    from tabletop.core.engine.match import Match

def reduce(m: Match, rid: str, amount: int, section: str, why: str, **cause: Any) -> int:
    """4.0: lower a regiment's cohesion; at 1 further reductions are ignored (not converted
    to marker losses). Returns how many steps it really went down. ``cause``: the fields of
    the event that say what made the loss (``double=2``: a pair of 2s)."""
    before = cohesion(m, rid)
    after = set_cohesion(m, rid, before - amount)
    if before == after:
        m.emit("cohesion", "4.0", f"{rid} is at cohesion {after}: the reduction ({why}) is ignored",
               regiment=rid, before=before, after=after, **cause)
    else:
        m.emit("cohesion", section, f"{rid} cohesion {before} -> {after} ({why})",
               regiment=rid, before=before, after=after, **cause)
    return before - after


def raise_(m: Match, rid: str, amount: int, section: str, why: str) -> int:
    """4.0, 9.0 #3: raise a regiment's cohesion, at most to 12; returns the gain."""
    before = cohesion(m, rid)
    after = set_cohesion(m, rid, before + amount)
    m.emit("cohesion", section, f"{rid} cohesion {before} -> {after} ({why})",
           regiment=rid, before=before, after=after)
    return after - before


def needs_check(m: Match, rid: str) -> bool:
    """4.0: a non-exhausted regiment at cohesion 5 or less must make an exhaustion check."""
    return (regiment_pos(m, rid) is not None and not is_exhausted(m, rid)
            and cohesion(m, rid) <= EXHAUSTION_THRESHOLD)


def exhaustion_check(m: Match, rid: str, why: str) -> bool:
    """4.0 Exhaustion Check: roll one die; at or under the cohesion the regiment is not
    exhausted (any exhaustion cube is removed), above it the regiment is exhausted (a cube
    is placed, or left). Returns True when the regiment is exhausted afterwards."""
    c = cohesion(m, rid)
    die = m.dice.d6(purpose=f"exhaustion check of {rid} (cohesion {c})", section="4.0")
    if die <= c:
        set_exhausted(m, rid, False)
        m.emit("exhaustion", "4.0", f"{rid} exhaustion check ({why}): {die} <= {c}, not exhausted",
               regiment=rid, die=die, cohesion=c, exhausted=False)
        return False
    mark_exhausted(m, rid)
    m.emit("exhaustion", "4.0", f"{rid} exhaustion check ({why}): {die} > {c}, EXHAUSTED",
           regiment=rid, die=die, cohesion=c, exhausted=True)
    return True


def mark_exhausted(m: Match, rid: str) -> None:
    """3.0: place a red exhaustion cube in the regiment's position (or leave it there)."""
    set_exhausted(m, rid, True)


def after_action(m: Match, rids: list[str], why: str) -> None:
    """4.0, 6.0, 9.0 #5: after an action is completed, every non-exhausted regiment that
    took part with cohesion 5 or less makes an exhaustion check."""
    for rid in rids:
        if needs_check(m, rid):
            exhaustion_check(m, rid, why)


def raised_exhausted(m: Match, rid: str, section: str, why: str) -> None:
    """4.0, 6.0 Regroup: an exhausted regiment whose cohesion went up rallies at 6 or more,
    otherwise makes an exhaustion check to see whether it becomes non-exhausted."""
    if not is_exhausted(m, rid):
        return
    if cohesion(m, rid) > EXHAUSTION_THRESHOLD:
        rally(m, rid, section, why)
    else:
        exhaustion_check(m, rid, why)
