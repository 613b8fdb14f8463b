"""6.0 Attack, USMC Dice Results for Attacks, Applying the Result, Advance After USMC Attacks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cache, lru_cache
from math import comb
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from tabletop.core.engine import odds as shown_odds
from tabletop.core.engine.decisions import DONE, Option, ask_str, choose
from tabletop.core.engine.events import modifier, modifiers_text

from . import cards
from . import cohesion as coh
from .positions import (
    JAPANESE_ELIMINATED,
    RISING_SUN,
    USMC,
    Flow,
    adjacent,
    by_layout,
    cohesion,
    cube_at,
    defender_loss,
    is_exhausted,
    is_infiltrated,
    is_japanese_occupied,
    is_mountain,
    japanese_at,
    label,
    move_regiment,
    name,
    regiment_at,
    regiment_pos,
    remove_usmc_marker,
    update_control,
)
from .resume import NOWHERE, Back, Frame, Path, step

if TYPE_CHECKING:
    from tabletop.core.engine.match import Match

BASE_DICE = 5  # 6.0: roll 5 dice
MOUNTAIN_DICE = 4  # 6.0: 4 against a Japanese-occupied mountain position
REROLLABLE = (1, 2, 5, 6)


def targets(m: Match, rid: str) -> list[str]:
    """6.0: what a regiment may attack: an adjacent Japanese-occupied position, or an
    infiltration cube adjacent or in its own position; an infiltrated regiment may only
    attack the cube in its position."""
    return list(by_layout(m, ("targets", rid), lambda: tuple(_targets(m, rid))))


def _targets(m: Match, rid: str) -> list[str]:
    """:func:`targets`, worked out from what stands where."""
    pos = regiment_pos(m, rid)
    if pos is None:
        return []
    if cube_at(m, pos) is not None:
        return [pos]
    return [p for p in adjacent(pos) if is_japanese_occupied(m, p) or cube_at(m, p) is not None]


def can_attack(m: Match, rid: str) -> bool:
    """4.0, 6.0: a non-exhausted regiment above cohesion 1 with something to attack."""
    return not is_exhausted(m, rid) and cohesion(m, rid) > 1 and bool(targets(m, rid))


def attack_kind(m: Match, rid: str, target: str) -> str:
    """6.0: ``markers`` (Japanese markers in the target) or ``cube`` (an infiltration cube)."""
    if target == regiment_pos(m, rid) or not is_japanese_occupied(m, target):
        return "cube"
    return "markers"


def base_dice(m: Match, rid: str, target: str) -> int:
    """6.0: 5 dice, 4 against a mountain position (not against an infiltration cube)."""
    if attack_kind(m, rid, target) == "markers" and is_mountain(target):
        return MOUNTAIN_DICE
    return BASE_DICE


def settle(m: Match, faces: list[int], who: str) -> list[int]:
    """6.0: remove every 4 (never rerolled) and reroll every 3 at once (no cohesion cost),
    again and again until no 3 is left."""
    while True:
        fours = faces.count(4)
        if fours:
            m.emit("dice", "6.0", f"{fours} four(s) removed: they may not be rerolled",
                   regiment=who, face=4, removed=fours)
            faces = [f for f in faces if f != 4]
        threes = faces.count(3)
        if not threes:
            return faces
        faces = [f for f in faces if f != 3]
        faces += list(m.dice.roll(threes, purpose=f"{who}: automatic reroll of {threes} three(s)",
                                  section="6.0"))


def outcome(faces: list[int]) -> dict[str, int]:
    """6.0 Applying the Result: pairs of 1s lose USMC markers, pairs of 2s lose cohesion,
    pairs of 5s or of 6s remove Japanese markers; single dice do nothing."""
    c = Counter(faces)
    return {"usmc_lost": c[1] // 2, "cohesion_lost": c[2] // 2,
            "japanese_lost": c[5] // 2 + c[6] // 2}


def attack_dice(m: Match, rid: str, target: str,
                card_dice: Iterable[tuple[str, int]] = (), *, kind: str | None = None
                ) -> dict[str, Any]:
    """6.0 The strength of a USMC attack as a rule test reads it: ``dice`` rolled, the
    ``base`` 5 and the ``modifiers`` (:func:`~tabletop.core.engine.events.modifier` dicts):
    -1 against a Japanese-occupied mountain position (2.0, 6.0; not against an infiltration
    cube), and each tactic card's extra dice (6.0 "plus any for tactics cards played"),
    given as (card title, dice) pairs; ``kind`` the attack's (:func:`attack_kind`) when it
    is under way."""
    mods = []
    if (kind or attack_kind(m, rid, target)) == "markers" and is_mountain(target):
        mods.append(MOUNTAIN_MODIFIER)
    mods += [modifier("6.0", title, n) for title, n in card_dice]
    return {"dice": BASE_DICE + sum(int(x["value"]) for x in mods), "base": BASE_DICE,
            "modifiers": mods}


MOUNTAIN_MODIFIER: Mapping[str, Any] = MappingProxyType(
    modifier("2.0", "mountain", MOUNTAIN_DICE - BASE_DICE))
"""2.0, 6.0: a USMC attack on a Japanese-occupied mountain position rolls one die less."""


def attack_end_text(data: Mapping[str, Any]) -> str:
    """The log line of a USMC attack's end, made from its event's fields: the dice rolled
    and their modifiers, the keepers and what they do."""
    mods = modifiers_text(data["modifiers"])
    strength = f"{data['dice']} dice: {data['base']} base" + (f", {mods}" if mods else "")
    shown = " ".join(str(f) for f in sorted(data["faces"], reverse=True)) or "no dice"
    return (f"{data['regiment']} ends the attack ({strength}): dice {shown}: "
            f"{data['japanese_lost']} Japanese hit(s), {data['usmc_lost']} USMC marker(s) lost, "
            f"{data['cohesion_lost']} cohesion lost")


def describe(faces: list[int]) -> str:
    """The dice and what they would do if the attack ended now."""
    return _describe(tuple(sorted(faces, reverse=True)))


@lru_cache(maxsize=1024)
def _describe(faces: tuple[int, ...]) -> str:
    """:func:`describe` of dice highest first (a pure function of them, kept: asked again at
    every reroll decision)."""
    o = outcome(list(faces))
    shown = " ".join(str(f) for f in faces) or "no dice"
    return (f"dice {shown}: {o['japanese_lost']} Japanese hit(s), {o['usmc_lost']} USMC "
            f"marker(s) lost, {o['cohesion_lost']} cohesion lost")


def attack(m: Match, rid: str, target: str, *, at: Path = NOWHERE, back: Back = None) -> Flow:
    """6.0 Attack: the regiment's cohesion goes down 1, tactic cards may add dice, the dice
    are rolled, rerolled at the player's choice, the keepers applied, then the advance.
    Entered again (``back``), the attack is under way from the frame's position: at a card
    before the roll (its dice and free rerolls so far in the frame), at the rerolls or at
    the advance."""
    frame, back = step(back)
    if frame is None:
        src = regiment_pos(m, rid)
        assert src is not None
        kind = attack_kind(m, rid, target)
        what = "the infiltration cube in " if kind == "cube" else ""
        m.emit("attack", "6.0", f"{rid} attacks {what}{name(target)} from {name(src)}",
               regiment=rid, target=target, source=src, attack_kind=kind)
        coh.reduce(m, rid, 1, "6.0", "attack")
        strength = attack_dice(m, rid, target)
        n, cards_dice = strength["dice"], []
        if strength["modifiers"]:
            m.emit("attack", "2.0", f"{name(target)} is a mountain position: {n} dice, not "
                   f"{strength['base']}", regiment=rid, target=target, **strength)
        free = 0
        stage = "card"
    else:
        src, kind, stage = frame["src"], frame["kind"], frame["at"]
        n, free = frame.get("n", 0), frame.get("free", 0)
        cards_dice = [tuple(x) for x in frame.get("cards_dice", ())]
    ctx: dict[str, Any] = {"target": target, "kind": kind, "regiment": rid}
    while stage == "card":
        opts = cards.card_options(m, "attack", ctx)
        if not opts:
            break
        v = yield from ask_str(at.mark(choose(
            USMC, f"{rid} attacks {name(target)} with {n} dice: play a card first?", "6.0",
            [Option("roll", f"roll the {n} dice"), *opts], kind="attack_card",
            context={"dice": n, "target": target, "regiment": rid}),
            {"at": "card", "src": src, "kind": kind, "n": n, "free": free,
             "cards_dice": [list(x) for x in cards_dice]}))
        if v == "roll":
            break
        mods = yield from cards.play(m, v[5:], "attack", ctx)  # asks nothing (6.0: dice, rerolls)
        n += mods["dice"]
        free += mods["free"]
        if mods["dice"]:
            cards_dice.append((cards.title(v[5:]), mods["dice"]))
    if stage != "apply":
        if stage != "dice":
            faces = list(m.dice.roll(n, purpose=f"{rid} attack on {name(target)}", section="6.0"))
            faces = settle(m, faces, rid)
        else:
            faces = []  # the rerolls' frame holds them
        faces, free = yield from _rerolls(m, rid, target, faces, free, ctx, back=back, at=at.into(
            {"at": "dice", "src": src, "kind": kind, "cards_dice": [list(x) for x in cards_dice]}))
        back = None
        end: dict[str, Any] = {"regiment": rid, "source": src, "target": target,
                               "attack_kind": kind,
                               **attack_dice(m, rid, target, cards_dice, kind=kind),
                               "faces": sorted(faces), **outcome(faces)}
        m.emit("attack", "6.0", attack_end_text(end), **end)
    else:
        faces = []  # applied already: the advance is under way
    yield from apply_result(m, rid, src, target, kind, faces, back=back, at=at.into(
        {"at": "apply", "src": src, "kind": kind}))


_REROLL_A: Mapping[int, Option] = MappingProxyType({f: Option(f, f"reroll a {f}") for f in REROLLABLE})


def _left(faces: list[int], chosen: list[int]) -> dict[int, int]:
    """The faces not chosen for a reroll, face -> how many, faces in order of their first
    die (what ``Counter(faces) - Counter(chosen)`` holds, without the counters)."""
    left: dict[int, int] = {}
    for f in faces:
        left[f] = left.get(f, 0) + 1
    for f in chosen:
        n = left.get(f, 0) - 1
        if n > 0:
            left[f] = n
        else:
            left.pop(f, None)
    return left


def _kept(left: dict[int, int]) -> list[int]:
    """The dice of :func:`_left`, each face repeated (``Counter.elements`` order)."""
    return [f for f, n in left.items() for _ in range(n)]


def _rerolls(m: Match, rid: str, target: str, faces: list[int], free: int,
             ctx: dict[str, Any] | None = None, *, at: Path = NOWHERE, back: Back = None) -> Flow:
    """6.0: the player picks the dice to reroll (any 1, 2, 5 or 6, keepers included), each
    reroll costing 1 cohesion, until done or cohesion 1 (9.0 #6, #8). 6.0 Note: at each
    reroll decision a tactic card may be played "during" the attack (free rerolls, cohesion);
    a regiment at 1 may still play one before it stops. Entered again (``back``), the faces,
    the free rerolls and the dice chosen so far are the frame's (or a card is being played)."""
    ctx = ctx if ctx is not None else {"target": target, "kind": attack_kind(m, rid, target),
                                       "regiment": rid}
    frame, back = step(back)
    if frame is not None:
        faces, free = list(frame["faces"]), frame["free"]
    while frame is not None or any(f in REROLLABLE for f in faces):
        if frame is not None and back is not None:
            v = frame["v"]  # entered again inside the card this answer played
            chosen: list[int] = []
        else:
            at_floor = cohesion(m, rid) <= 1 and free == 0
            copts = cards.card_options(m, "reroll", ctx)
            if at_floor and not copts:
                floor: dict[str, Any] = {"regiment": rid, "cohesion": cohesion(m, rid), "rule": "9.0 #6"}
                m.emit("attack", "6.0", f"{rid} is at cohesion {floor['cohesion']}: no more "
                       f"rerolls ({floor['rule']})", **floor)
                break
            chosen = list(frame["chosen"]) if frame is not None else []
            shown = describe(faces)
            stop = Option(DONE, "stop and apply: " + shown)
            now = cohesion(m, rid)  # nothing changes it while the dice are chosen
            cost = "free" if free else "costs 1 cohesion"
            said = f"{rid}: {shown}; cohesion {now}" + (f", {free} free reroll(s)" if free else "")
            while True:
                left = _left(faces, chosen)
                opts = []
                if chosen:
                    taken = " ".join(map(str, chosen))
                    opts.append(Option("roll", f"reroll {taken} ({cost})",
                                       reroll_odds_text(m, _kept(left), len(chosen), target,
                                                        ctx["kind"])))
                else:
                    opts.append(stop)
                if not at_floor:
                    opts += [_REROLL_A[f] for f in REROLLABLE if f in left]
                if chosen:
                    opts.append(Option("cancel", "keep every die after all"))
                else:
                    opts += copts
                v = yield at.mark(choose(
                    USMC, said + (f"; to reroll: {taken}" if chosen else ""), "6.0", opts,
                    kind="attack_dice", context={"faces": sorted(faces), "chosen": list(chosen),
                                                 "free": free, "cohesion": now, "target": target}),
                    {"at": "dice", "faces": list(faces), "free": free, "chosen": list(chosen)})
                if not isinstance(v, int):  # stop, roll, cancel or a card; a number is a die
                    break
                chosen.append(v)
        frame = None
        if v == DONE:
            break
        if v == "cancel":
            continue
        if isinstance(v, str) and v.startswith("card:"):
            mods = yield from cards.play(m, v[5:], "reroll", ctx, back=back, at=at.into(
                {"at": "card", "faces": list(faces), "free": free, "v": v}))
            back = None
            free += mods["free"]
            continue
        if free:
            free -= 1
            m.emit("attack", "6.0", f"{rid} rerolls {len(chosen)} dice at no cohesion cost (card)",
                   regiment=rid, dice=len(chosen), free_left=free)
        else:
            coh.reduce(m, rid, 1, "6.0", "reroll")
        rest = _kept(_left(faces, chosen))
        new = list(m.dice.roll(len(chosen), purpose=f"{rid} reroll", section="6.0"))
        faces = settle(m, rest + new, rid)
    return faces, free


def apply_result(m: Match, rid: str, src: str, target: str, kind: str, faces: list[int], *,
                 at: Path = NOWHERE, back: Back = None) -> Flow:
    """6.0 Applying the Result of USMC Attacks: keepers only (9.0 #7); the attacker may not
    use a bunker (3.0); then the advance; the exhaustion check comes last. Entered again
    (``back``), the result is applied and the advance under way."""
    frame, back = step(back)
    if frame is None:
        o = outcome(faces)
        if kind == "cube":
            if o["japanese_lost"]:
                remove_cube(m, target)
        else:
            for _ in range(o["japanese_lost"]):
                if is_japanese_occupied(m, target):
                    defender_loss(m, target, "6.0", f"{rid}'s attack", attacker=rid)
        for _ in range(o["usmc_lost"]):
            remove_usmc_marker(m, rid, "6.0", "double 1s in its own attack", double=1)
        if o["cohesion_lost"]:
            coh.reduce(m, rid, o["cohesion_lost"], "6.0", "double 2s in its own attack",
                       double=2)
        update_control(m)
    if frame is not None or (kind == "markers" and regiment_pos(m, rid) == src
                             and not is_japanese_occupied(m, target)):
        yield from advance(m, rid, src, target, at=at.into(_AT_ADVANCE), back=back)
    coh.after_action(m, [rid], "after its attack")


_AT_ADVANCE: Frame = MappingProxyType({"at": "advance"})
"""The result of an attack applied, the advance under way (6.0)."""


def remove_cube(m: Match, pos: str) -> None:
    """6.0: a double 5 or 6 against an infiltration cube removes it; (ours) it goes back to
    an empty Rising Sun square, or out of play with the option ``infiltration_cubes``."""
    cube = cube_at(m, pos)
    if cube is None:
        return
    dest = JAPANESE_ELIMINATED
    if m.options.get("infiltration_cubes", "return") == "return":
        dest = next(b for b in RISING_SUN if not m.state.pieces.at(b))
    m.state.pieces.move(cube.id, dest)
    m.emit("infiltration", "6.0", f"the infiltration cube in {name(pos)} is destroyed", position=pos)
    update_control(m)


def advance(m: Match, rid: str, src: str, target: str, *, at: Path = NOWHERE,
            back: Back = None) -> Flow:
    """6.0 Advance After USMC Attacks: the attacker may enter the cleared position at no
    cohesion cost; then one non-exhausted regiment adjacent to the position it left, that
    has not acted this turn, may follow into it, also at no cost (it has then acted, as a
    daisy-chain mover does); no further chain. Entered again (``back``) at the follow, the
    attacker has advanced."""
    frame, _ = step(back)
    if frame is None or frame["at"] != "follow":
        v = yield at.mark(choose(
            USMC, f"{name(target)} is cleared: advance {rid} into it?", "6.0",
            [Option("advance", f"advance {rid} into {name(target)}"),
             Option("stay", f"stay in {name(src)}")], kind="advance",
            context={"regiment": rid, "target": target}), _AT_ADVANCE)
        if v != "advance":
            return
        move_regiment(m, rid, target, "6.0", "advances")
    turn = m.state.vars.get("turn") or {}
    used = turn.get("used", [])
    followers = [r for p in adjacent(src) if (r := regiment_at(m, p)) is not None
                 and r != rid and r not in used and not is_exhausted(m, r)
                 and not is_infiltrated(m, r)]
    if not followers:
        return
    f = yield from ask_str(at.mark(choose(
        USMC, f"may one regiment follow into {name(src)}?", "6.0",
        [Option("none", "no one follows"), *[Option(r, label(r, m)) for r in followers]],
        kind="follow", context={"into": src}), _AT_FOLLOW))
    if f != "none":
        move_regiment(m, f, src, "6.0", "follows the advance")
        if "used" in turn:
            used.append(f)  # 6.0, 10.0: the follower has acted (no regiment twice)


_AT_FOLLOW: Frame = MappingProxyType({"at": "follow"})
"""An advance made, at the choice of a regiment to follow it (6.0)."""


# -- odds for the player -----------------------------------------------------------------

SETTLED_FACES = (1, 2, 4, 5, 6)
"""6.0: every 3 is rerolled until it is not a 3, so each die settles on one of these five
faces, each as likely; the 4s are then removed."""


@lru_cache(maxsize=64)
def outcome_chances(dice: int) -> tuple[tuple[tuple[int, int, int], Fraction], ...]:
    """6.0: the exact chance of each result of ``dice`` dice once settled and before any
    chosen reroll, as ((Japanese hits, USMC markers lost, cohesion lost), chance); the
    chances add up to one."""
    return _reroll_chances((), dice)


@lru_cache(maxsize=4096)
def _reroll_chances(kept: tuple[int, ...], dice: int) -> tuple[tuple[tuple[int, int, int], Fraction], ...]:
    """6.0: the results once ``dice`` dice are rerolled beside the ``kept`` faces (each new
    die settles like the first roll: 3s again, 4s removed)."""
    share = len(SETTLED_FACES) ** dice
    return tuple((result, Fraction(ways, share)) for result, ways in _result_ways(kept, dice))


def _result_ways(kept: tuple[int, ...], dice: int) -> tuple[tuple[tuple[int, int, int], int], ...]:
    """6.0: of the 5**dice equally likely ways ``dice`` settled dice fall, how many give each
    result beside the ``kept`` faces, results in order. The kept pairs are results already
    (:func:`outcome`); only a kept die without its pair can pair with a new one."""
    done, odd = _kept_pairs(kept)
    return _ways_beside(done, odd, dice)


def _kept_pairs(kept: Iterable[int]) -> tuple[tuple[int, int, int], tuple[int, int, int, int]]:
    """6.0: what kept dice bring to a result: their pairs as (Japanese hits, USMC markers
    lost, cohesion lost), and which of 1, 2, 5 and 6 has one die left without its pair."""
    n1 = n2 = n5 = n6 = 0
    for f in kept:
        if f == 1:
            n1 += 1
        elif f == 2:
            n2 += 1
        elif f == 5:
            n5 += 1
        elif f == 6:
            n6 += 1
    return (n5 // 2 + n6 // 2, n1 // 2, n2 // 2), (n1 % 2, n2 % 2, n5 % 2, n6 % 2)


def _ways_beside(done: tuple[int, int, int], odd: tuple[int, int, int, int], dice: int
                 ) -> tuple[tuple[tuple[int, int, int], int], ...]:
    """:func:`_result_ways` from :func:`_kept_pairs` of the kept dice."""
    japanese, markers, cohesion_lost = done
    return tuple(((j + japanese, mk + markers, co + cohesion_lost), ways) for (j, mk, co), ways
                 in _unpaired_ways(odd, dice))


@cache
def _unpaired_ways(odd: tuple[int, int, int, int], dice: int
                   ) -> tuple[tuple[tuple[int, int, int], int], ...]:
    """6.0: :func:`_result_ways` beside kept dice that pair with none of their own: ``odd``
    says which of 1, 2, 5 and 6 has one such die (0 or 1 each)."""
    o1, o2, o5, o6 = odd
    dist: dict[tuple[int, int, int], int] = {}
    for ones in range(dice + 1):
        for twos in range(dice - ones + 1):
            for fives in range(dice - ones - twos + 1):
                for sixes in range(dice - ones - twos - fives + 1):
                    fours = dice - ones - twos - fives - sixes
                    ways = (comb(dice, ones) * comb(dice - ones, twos)
                            * comb(dice - ones - twos, fives) * comb(fours + sixes, sixes))
                    key = ((o5 + fives) // 2 + (o6 + sixes) // 2, (o1 + ones) // 2, (o2 + twos) // 2)
                    dist[key] = dist.get(key, 0) + ways
    return tuple(sorted(dist.items()))


def _describe_chances(m: Match, target: str, kind: str, kept: Iterable[int], dice: int) -> tuple[str, str]:
    """The Japanese markers removed and the attacker's losses, each adding up to 100%, once
    ``dice`` dice are rolled beside the ``kept`` faces."""
    cap = 1 if kind == "cube" else max(1, len(japanese_at(m, target)))
    done, odd = _kept_pairs(kept)
    return _chance_texts(cap, kind, done, odd, dice)


@lru_cache(maxsize=4096)
def _chance_texts(cap: int, kind: str, done: tuple[int, int, int], odd: tuple[int, int, int, int],
                  dice: int) -> tuple[str, str]:
    """6.0: the texts of :func:`_describe_chances` once the markers that can be removed are
    counted and the kept dice summed up as what they bring (:func:`_kept_pairs`: kept dice
    that bring the same give the same texts), a pure function of its arguments, kept: worked
    out for every reroll option otherwise. Chances are summed as counts of the 5**dice ways,
    exact, then shown."""
    hits: dict[str, int] = {}
    losses: dict[str, int] = {}
    for (japanese, marker, coh_lost), ways in _ways_beside(done, odd, dice):
        got = min(japanese, cap)
        if kind == "cube":
            h = "cube destroyed" if got else "cube stays"
        else:
            h = "none removed" if not got else f"{'all ' if got == cap else ''}{got} removed"
        hits[h] = hits.get(h, 0) + ways
        parts = [f"{marker} marker{'s' if marker > 1 else ''}" if marker else "",
                 f"{coh_lost} cohesion" if coh_lost else ""]
        key = " and ".join(x for x in parts if x) or "no loss"
        losses[key] = losses.get(key, 0) + ways
    share = len(SETTLED_FACES) ** dice
    return shown_odds.describe_counts(hits, share), shown_odds.describe_counts(losses, share)


def reroll_odds_text(m: Match, kept: list[int], dice: int, target: str, kind: str) -> str:
    """6.0 What a reroll may bring: the result once the chosen dice are rolled again beside
    the others, each part adding up to 100%."""
    hits, losses = _describe_chances(m, target, kind, kept, dice)
    return f"after this reroll: {hits}; your losses: {losses}"


def odds_text(m: Match, rid: str, target: str) -> str:
    """6.0 The odds of an attack as the player reads them, each part adding up to 100%:
    what the pairs of 5s and 6s remove, what pairs of 1s and 2s cost, and what the attack
    and each reroll cost in cohesion."""
    n = base_dice(m, rid, target)
    kind = attack_kind(m, rid, target)
    cap = 1 if kind == "cube" else max(1, len(japanese_at(m, target)))
    hits, losses = _describe_chances(m, target, kind, (), n)
    what = "the cube" if kind == "cube" else f"{cap} Japanese marker{'s' if cap > 1 else ''}"
    return (f"{n} dice against {what} (pairs of 5s or 6s hit): {hits}; "
            f"your losses (pairs of 1s: a marker, pairs of 2s: a cohesion level): "
            f"{losses}; the attack costs 1 cohesion and each reroll 1 more "
            f"(now {cohesion(m, rid)}); odds before rerolls and cards")
