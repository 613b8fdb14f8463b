"""6.0 Performing Actions: place a new wave, regroup, rotate regiments, move, attack."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from tabletop.core.engine.decisions import DONE, Option, ask_str, choose

from . import attacks
from . import cohesion as coh
from .positions import (
    USMC,
    Flow,
    adjacent,
    bunker_at,
    by_layout,
    can_new_wave,
    cohesion,
    exhaustion_cube,
    has_room_for,
    is_exhausted,
    is_infiltrated,
    is_japanese_occupied,
    is_vacant,
    japanese_at,
    label,
    move_regiment,
    name,
    new_wave_beaches,
    on_board,
    regiment_at,
    regiment_markers,
    regiment_pos,
    reserves,
    suribachi_check,
    update_control,
)
from .resume import NOWHERE, Back, Frame, Path, step

if TYPE_CHECKING:
    from tabletop.core.engine.match import Match

KINDS = ("attack", "move", "rotate", "regroup", "place_new_wave")
TITLES: Mapping[str, str] = MappingProxyType({
    "attack": "Attack", "move": "Move", "rotate": "Rotate Regiments", "regroup": "Regroup",
    "place_new_wave": "Place a new wave"})
REGROUP = 3  # 6.0: a regroup adds 3


def _turn(m: Match) -> dict[str, Any]:
    return m.state.vars["turn"]  # type: ignore[no-any-return]


def fresh(m: Match) -> list[str]:
    """6.0, 10.0: the on-board regiments that have not acted this turn (no regiment twice)."""
    used = _turn(m)["used"]
    return [r for r in on_board(m) if r not in used]


# -- who may do what ---------------------------------------------------------------------------
def can_regroup(m: Match, rid: str) -> bool:
    """6.0 Regroup: any regiment (exhausted or infiltrated too) that can gain or rally."""
    return cohesion(m, rid) < 12 or is_exhausted(m, rid)


def move_destinations(m: Match, rid: str) -> list[str]:
    """6.0 Move: an unoccupied position, friendly or enemy controlled but not enemy occupied,
    reached without passing an enemy-occupied position. 2.0 makes moves go between adjacent
    positions; the option ``usmc_move=through_friendly`` reads 6.0 as allowing a longer way
    through positions without Japanese markers."""
    return list(by_layout(m, ("move", rid), lambda: tuple(_destinations(m, rid))))


def _destinations(m: Match, rid: str) -> list[str]:
    """:func:`move_destinations`, worked out from what stands where (and the match's
    options, fixed for the match)."""
    src = regiment_pos(m, rid)
    assert src is not None
    size = len(regiment_markers(m, rid))
    if m.options.get("usmc_move", "adjacent") == "adjacent":
        return [p for p in adjacent(src) if is_vacant(m, p) and has_room_for(m, size, p)]
    seen = {src}
    frontier = [src]
    out = []
    while frontier:
        nxt = []
        for p in frontier:
            for q in adjacent(p):
                if q in seen or is_japanese_occupied(m, q):
                    continue
                seen.add(q)
                nxt.append(q)
                if is_vacant(m, q) and has_room_for(m, size, q):
                    out.append(q)
        frontier = nxt
    return out


def can_move(m: Match, rid: str) -> bool:
    """4.0, 6.0: not exhausted, above cohesion 1, not infiltrated, somewhere to go."""
    return (not is_exhausted(m, rid) and cohesion(m, rid) > 1 and not is_infiltrated(m, rid)
            and bool(move_destinations(m, rid)))


def rotate_partners(m: Match, rid: str) -> list[str]:
    """6.0 Rotate Regiments: a regiment in an adjacent position, not infiltrated, not yet used."""
    src = regiment_pos(m, rid)
    assert src is not None
    used = _turn(m)["used"]
    return [r for p in adjacent(src) if (r := regiment_at(m, p)) is not None
            and r not in used and not is_infiltrated(m, r)]


def can_rotate(m: Match, rid: str) -> bool:
    """4.0 Key Rule: an exhausted regiment only rotates through another's action; 6.0: an
    infiltrated one may not rotate."""
    return not is_exhausted(m, rid) and not is_infiltrated(m, rid) and bool(rotate_partners(m, rid))


ACTOR_TESTS: Mapping[str, Callable[[Match, str], bool]] = MappingProxyType({
    "attack": attacks.can_attack, "move": can_move, "rotate": can_rotate, "regroup": can_regroup})
"""6.0: may a regiment take an action of this kind now (besides not having acted)."""


def actors(m: Match, kind: str) -> list[str]:
    """The regiments that may take an action of this kind now."""
    test = ACTOR_TESTS[kind]
    return [r for r in fresh(m) if test(m, r)]


def available(m: Match) -> list[str]:
    """6.0: the kinds of action the player may take now (within the turn's allowance)."""
    turn = _turn(m)
    if turn["taken"] >= turn["allow"]:
        return []
    kinds = list(KINDS)
    if turn["only"]:
        # 6.0 Tactic Cards (Amtracs "besides your action"): the turn's own action may be of
        # any kind, before or after the card's extra ones; the extras only of the card's kinds.
        others = sum(1 for k in turn.get("kinds", []) if k not in turn["only"])
        if others >= turn.get("free", 1):
            kinds = [k for k in kinds if k in turn["only"]]
    out = []
    regiments: list[str] | None = None  # fresh(m), the same for every kind (nothing changes)
    for k in kinds:
        if k == "place_new_wave":
            if can_new_wave(m):
                out.append(k)
            continue
        if regiments is None:
            regiments = fresh(m)
        test = ACTOR_TESTS[k]
        if any(test(m, r) for r in regiments):  # any regiment that may act (actors, stopping at the first)
            out.append(k)
    return out


# -- the actions ----------------------------------------------------------------------------------
def _pick_regiment(m: Match, kind: str, at: Path) -> Flow:
    cands = actors(m, kind)
    rid = yield from ask_str(at.mark(choose(
        USMC, f"{TITLES[kind]}: which regiment?", "6.0",
        [Option(r, label(r, m)) for r in cands], kind="select_regiment",
        context={"action": kind}), _AT_REGIMENT))
    return rid


_AT_REGIMENT: Frame = MappingProxyType({"at": "regiment"})
"""An action at its choice of the regiment that takes it (6.0)."""


def perform(m: Match, kind: str, *, at: Path = NOWHERE, back: Back = None) -> Flow:
    """6.0 Performing Actions: one action, by one regiment (a new wave by up to two).
    Entered again (``back``), the action is under way (counted, its regiment chosen when
    the frame names it) and goes back to the decision it asked."""
    turn = _turn(m)
    frame, back = step(back)
    if frame is None:
        turn["taken"] += 1
        turn.setdefault("kinds", []).append(kind)
        m.emit("action", "6.0", f"USMC action {turn['taken']} of {turn['allow']}: {TITLES[kind]}",
               action=kind, number=turn["taken"], of=turn["allow"])
        frame = {}
    if kind == "place_new_wave":
        yield from new_wave(m, at=at.into(_AT_NEW_WAVE), back=back)
        return
    rid = frame.get("rid")
    if rid is None:
        rid = yield from _pick_regiment(m, kind, at)
        turn["used"].append(rid)
    if kind == "attack":
        target = frame.get("target")
        if target is None:
            tg = attacks.targets(m, rid)
            target = yield from ask_str(at.mark(choose(
                USMC, f"{rid} attacks which position?", "6.0",
                [Option(p, _target_label(m, rid, p), attacks.odds_text(m, rid, p)) for p in tg],
                kind="select_target", context={"regiment": rid}), {"at": "target", "rid": rid}))
        yield from attacks.attack(m, rid, target,
                                  at=at.into({"at": "attack", "rid": rid, "target": target}),
                                  back=back)
    elif kind == "move":
        yield from move(m, rid, at=at.into({"at": "move", "rid": rid}), back=back)
    elif kind == "rotate":
        yield from rotate(m, rid, at=at.into({"at": "rotate", "rid": rid}), back=back)
    else:
        regroup(m, rid)


_AT_NEW_WAVE: Frame = MappingProxyType({"at": "new_wave"})
"""An action placing a new wave (6.0), in its own procedure."""


def _target_label(m: Match, rid: str, pos: str) -> str:
    if attacks.attack_kind(m, rid, pos) == "cube":
        return f"the infiltration cube in {name(pos)}"
    bunk = ", bunker" if bunker_at(m, pos) else ""
    return (f"{name(pos)} ({len(japanese_at(m, pos))} Japanese{bunk}; "
            f"{attacks.base_dice(m, rid, pos)} dice)")


def new_wave(m: Match, *, at: Path = NOWHERE, back: Back = None) -> Flow:
    """6.0 Place a new wave: up to 2 off-board regiments into vacant beaches, no cohesion cost.
    Entered again (``back``): at the landing its frame counts, its regiment chosen when the
    frame names it."""
    frame, _ = step(back)
    for n in range(frame["n"] if frame else 0, 2):
        if not (reserves(m) and new_wave_beaches(m)):
            return
        rid = frame.get("rid") if frame else None
        frame = None
        if rid is None:
            opts = [Option(r, f"{r} (cohesion {cohesion(m, r)})") for r in reserves(m)]
            if n:
                opts.insert(0, Option(DONE, "no second regiment"))
            rid = yield from ask_str(at.mark(choose(
                USMC, "New wave: which reserve regiment lands?", "6.0", opts,
                kind="new_wave_regiment"), {"at": "regiment", "n": n}))
            if rid == DONE:
                return
        beach = yield from ask_str(at.mark(choose(
            USMC, f"New wave: {rid} lands on which beach?", "6.0",
            [Option(b, name(b)) for b in new_wave_beaches(m)],
            kind="new_wave_beach", context={"regiment": rid}), {"at": "beach", "n": n, "rid": rid}))
        move_regiment(m, rid, beach, "6.0", "lands as a new wave")
        _turn(m)["used"].append(rid)


_AT_DESTINATION: Frame = MappingProxyType({"at": "destination"})
"""A move at its choice of destination (6.0), its first step."""
_AT_PARTNER: Frame = MappingProxyType({"at": "partner"})
"""A rotation at its choice of partner (6.0), its first step."""


def regroup(m: Match, rid: str) -> None:
    """6.0 Regroup: +3 cohesion; an exhausted regiment rallies at 6+, or checks at 4-5;
    a non-exhausted one makes no check (4.0)."""
    coh.raise_(m, rid, REGROUP, "6.0", "regroup")
    coh.raised_exhausted(m, rid, "6.0", "regroup")


def move(m: Match, rid: str, *, at: Path = NOWHERE, back: Back = None) -> Flow:
    """6.0 Move: -1 cohesion, to an unoccupied position; then one adjacent non-exhausted
    regiment may follow into the position left (daisy chain), also at -1 cohesion. Entered
    again (``back``) at the follow, the regiment has moved from the frame's position."""
    frame, _ = step(back)
    if frame is None or frame["at"] != "follow":
        src = regiment_pos(m, rid)
        assert src is not None
        dests = move_destinations(m, rid)
        dest = yield from ask_str(at.mark(choose(
            USMC, f"{rid} moves where?", "6.0", [Option(p, name(p)) for p in dests],
            kind="select_destination", context={"regiment": rid}), _AT_DESTINATION))
        coh.reduce(m, rid, 1, "6.0", "move")
        move_regiment(m, rid, dest, "6.0", "moves")
    else:
        src = frame["src"]
    used = _turn(m)["used"]
    chain = [r for p in adjacent(src) if (r := regiment_at(m, p)) is not None and r != rid
             and r not in used and not is_exhausted(m, r) and cohesion(m, r) > 1
             and not is_infiltrated(m, r)]
    done = [rid]
    if chain:
        f = yield from ask_str(at.mark(choose(
            USMC, f"may one regiment follow into {name(src)} (-1 cohesion)?", "6.0",
            [Option("none", "no one follows"), *[Option(r, label(r, m)) for r in chain]],
            kind="follow", context={"into": src}), {"at": "follow", "src": src}))
        if f != "none":
            coh.reduce(m, f, 1, "6.0", "daisy-chain move")
            move_regiment(m, f, src, "6.0", "follows (daisy chain)")
            used.append(f)
            done.append(f)
    coh.after_action(m, done, "after its move")


def rotate(m: Match, rid: str, *, at: Path = NOWHERE, back: Back = None) -> Flow:
    """6.0 Rotate Regiments: swap with a regiment in an adjacent position; one of the two,
    not an exhausted one, pays 1 cohesion and makes the exhaustion check (4.0); bunkers stay
    (3.0). Entered again (``back``) at the payer, the partner is the frame's."""
    frame, _ = step(back)
    other = frame.get("other") if frame else None
    if other is None:
        partners = rotate_partners(m, rid)
        other = yield from ask_str(at.mark(choose(
            USMC, f"{rid} swaps with which regiment?", "6.0",
            [Option(r, label(r, m)) for r in partners], kind="select_partner",
            context={"regiment": rid}), _AT_PARTNER))
    payers = [r for r in (rid, other) if not is_exhausted(m, r)]
    payer = payers[0]
    if len(payers) > 1:
        payer = (yield from ask_str(at.mark(choose(
            USMC, "which of the two pays 1 cohesion?", "6.0",
            [Option(r, label(r, m)) for r in payers], kind="select_payer"),
            {"at": "payer", "other": other})))
    coh.reduce(m, payer, 1, "6.0", "rotation")
    _turn(m)["used"].append(other)
    swap(m, rid, other)
    # 6.0: "One of the two regiments must reduce its cohesion by 1 and perform any necessary
    # exhaustion checks"; option rotation_checks=both reads 4.0 ("a non-exhausted regiment
    # performing an action") as covering the regiment that rotates as well (docs §5).
    checkers = [payer] if m.options.get("rotation_checks", "payer") == "payer" \
        else list(dict.fromkeys([rid, other]))
    coh.after_action(m, checkers, "after the rotation")


def swap(m: Match, one: str, two: str) -> None:
    """6.0 Rotate Regiments: two regiments trade positions with their exhaustion cubes; the
    bunkers stay where they are (3.0 "unless a USMC regiment is swapping positions")."""
    a, b = regiment_pos(m, one), regiment_pos(m, two)
    assert a is not None and b is not None
    moving = [(p.id, b) for p in regiment_markers(m, one)] + [(p.id, a) for p in regiment_markers(m, two)]
    for rid, dest in ((one, b), (two, a)):
        cube = exhaustion_cube(m, rid)
        if cube is not None:
            moving.append((cube.id, dest))
    for pid, dest in moving:
        m.state.pieces.move(pid, dest)
    m.emit("move", "6.0", f"{one} ({name(a)}) and {two} ({name(b)}) swap positions",
           regiments=[one, two], positions=[a, b])
    suribachi_check(m)
    update_control(m)
