"""6.0 Japanese AI Turn: one card, followed to the letter; attack priority; Japanese fire
and Banzai attacks; marker movement; infiltration cubes; bunkers. No input is needed: the
only decisions here are the USMC player's cards (6.0 Note)."""

from __future__ import annotations

from collections import Counter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from tabletop.core.engine.decisions import Option, ask_int, ask_str, choose
from tabletop.core.engine.events import modifier, modifiers_text

from . import cards
from . import cohesion as coh
from .components import (
    Banzai,
    FieldsOfFire,
    FireAttack,
    Hook,
    Infiltrate,
    JapaneseCard,
    MoveMarkers,
    PlaceBunker,
    ReduceCohesion,
    card_id_of,
)
from .positions import (
    JAPAN,
    RISING_SUN,
    USMC,
    Flow,
    adjacent,
    beaches,
    bunker_at,
    comps,
    control,
    cube_at,
    defender_loss,
    free_slots,
    is_beach,
    is_island,
    is_japanese_occupied,
    is_usmc_occupied,
    is_vacant,
    islands,
    japanese_at,
    name,
    place_bunker,
    priority,
    regiment_at,
    remove_japanese_marker,
    update_control,
    vacate_check,
)
from .resume import NOWHERE, Back, Frame, Path, step

if TYPE_CHECKING:
    from tabletop.core.engine.match import Match

DECK = "japanese"
FIRE_DICE = 3  # 6.0: fire attacks and fields of fire roll 3 dice
BANZAI_DICE = 5  # 6.0: Banzai attacks roll 5 dice
BEACH_BONUS = 1  # 6.0: fire attacks against beaches add one die


# -- attack priority (6.0) ---------------------------------------------------------------------
def japanese_positions(m: Match) -> list[str]:
    """The Japanese-occupied island positions, highest priority first."""
    return [p for p in islands() if is_japanese_occupied(m, p)]


def lowest_priority(cands: list[str]) -> str:
    """6.0: the lowest-priority (highest-numbered) position of a list."""
    return max(cands, key=priority)


def beach_rank(m: Match, beach: str) -> tuple[int, int]:
    """6.0: beaches are prioritised by the adjacent Japanese-occupied island position of
    highest priority (Green before Red... on a tie); without one, after every such beach."""
    near = [priority(q) for q in adjacent(beach) if is_japanese_occupied(m, q)]
    order = beaches().index(beach)
    if near:
        return (min(near), order)
    return (100 + min(priority(q) for q in adjacent(beach) if is_island(q)), order)


def priority_targets(m: Match, target: str = "priority", *, adjacent_required: bool = True,
                     from_position: str | None = None) -> list[tuple[str, str]]:
    """6.0 Attack Priority: (USMC position attacked, Japanese position attacking) pairs in
    order. Island positions first, highest priority first, each attacked from the
    lowest-priority adjacent Japanese-occupied position; then the beaches, each attacked
    from the highest-priority Japanese-occupied island position adjacent to it. Without
    adjacency the attacker is the lowest-priority Japanese-occupied position (or the card's
    own position). Targets are USMC-occupied: an attack needs a regiment to apply to."""
    japanese_held = japanese_positions(m)
    if not japanese_held:
        return []
    if from_position is not None:
        if not is_japanese_occupied(m, from_position):
            return []
        far = from_position
    else:
        far = lowest_priority(japanese_held)
    out: list[tuple[str, str]] = []
    if target in ("priority", "island"):
        for p in islands():
            if not is_usmc_occupied(m, p):
                continue
            if adjacent_required:
                srcs = [q for q in adjacent(p) if is_japanese_occupied(m, q)]
                if srcs:
                    out.append((p, lowest_priority(srcs)))
            else:
                out.append((p, far))
    if target in ("priority", "beach", "each_beach"):
        bl = []
        for b in beaches():
            if not is_usmc_occupied(m, b):
                continue
            srcs = [q for q in adjacent(b) if is_japanese_occupied(m, q)]
            if adjacent_required and not srcs:
                continue
            src = min(srcs, key=priority) if srcs and from_position is None else far
            bl.append((beach_rank(m, b), b, src))
        out += [(b, src) for _, b, src in sorted(bl)]
    return out


# -- the Japanese dice --------------------------------------------------------------------------
def roll_japanese(m: Match, n: int, who: str, *, reroll_threes: bool = True) -> list[int]:
    """6.0: the Japanese roll once; every 3 is rerolled at once (fire) or removed (Banzai)."""
    faces = list(m.dice.roll(n, purpose=who, section="6.0"))
    return _threes(m, faces, who, reroll_threes)


def _threes(m: Match, faces: list[int], who: str, reroll: bool) -> list[int]:
    if not reroll:
        if 3 in faces:
            m.emit("dice", "6.0", f"{faces.count(3)} three(s) removed (Banzai: not rerolled)",
                   face=3, removed=faces.count(3))
        return [f for f in faces if f != 3]
    while 3 in faces:
        k = faces.count(3)
        faces = [f for f in faces if f != 3] + list(
            m.dice.roll(k, purpose=f"{who}: reroll of {k} three(s)", section="6.0"))
    return faces


def counter_battery(m: Match, faces: list[int], who: str, banzai: bool, *,
                    at: Path = NOWHERE, back: Back = None) -> Flow:
    """6.0 Note, 3.0: a USMC card played after the Japanese dice are rolled may reroll some
    of them; the new faces stand (3s again rerolled or removed by the chart). Entered again
    (``back``), the faces are the frame's, and the card's rerolls and the dice chosen so
    far when it is at the choice of the dice."""
    frame, _ = step(back)
    if frame is not None:
        faces = list(frame["faces"])
    while True:
        shown = " ".join(map(str, sorted(faces, reverse=True)))
        if frame is not None and frame["at"] == "die":
            rerolls, chosen = frame["rerolls"], list(frame["chosen"])
        else:
            opts = cards.card_options(m, "counter")
            if not opts or not faces:
                return faces
            v = yield from ask_str(at.mark(choose(
                USMC, f"{who} rolled {shown}: play a card?", "6.0",
                [Option("pass", "no card"), *opts], kind="counter_card",
                context={"faces": sorted(faces)}), {"at": "card", "faces": list(faces)}))
            if v == "pass":
                return faces
            mods = yield from cards.play(m, v[5:], "counter")  # asks nothing (3.0: rerolls)
            rerolls, chosen = mods["japanese_rerolls"], []
        frame = None
        for _ in range(len(chosen), rerolls):
            left = Counter(faces) - Counter(chosen)
            d = yield from ask_int(at.mark(choose(
                USMC, f"reroll which Japanese die? (dice {shown})", "6.0",
                [Option(0, "no more"), *[Option(f, f"reroll a {f}") for f in sorted(left)]],
                kind="counter_die", context={"faces": sorted(faces), "chosen": list(chosen)}),
                {"at": "die", "faces": list(faces), "rerolls": rerolls, "chosen": list(chosen)}))
            if d == 0:
                break
            chosen.append(d)
        if chosen:
            rest = list((Counter(faces) - Counter(chosen)).elements())
            new = list(m.dice.roll(len(chosen), purpose=f"{who}: USMC card reroll", section="6.0"))
            faces = _threes(m, rest + new, who, not banzai)


def _cohesion_hits(m: Match, rid: str, hits: int, who: str, section: str = "6.0") -> None:
    """6.0, 4.0: each 4 or 5 lowers the regiment's cohesion by 1; a reduction against a
    regiment at 5 or less causes an immediate exhaustion check. A reduction ignored at
    cohesion 1 (4.0) is no reduction and causes no check."""
    if hits <= 0:
        return
    if coh.reduce(m, rid, hits, section, who) > 0 and coh.needs_check(m, rid):
        coh.exhaustion_check(m, rid, f"cohesion reduced by {who}")


def fire(m: Match, src: str, target: str, dice: int, who: str, *, landing: bool = False,
         at: Path = NOWHERE, back: Back = None) -> Flow:
    """6.0 Japanese Fire Attack chart: each 6 removes a USMC marker, each 5 or 4 costs 1
    cohesion, 3s are rerolled, each 2 cancels a 6, double 1s remove a Japanese marker from
    the firing position (not against beaches); in the Special Landing Phase 1s do nothing.
    Entered again (``back``), the dice are rolled and the USMC cards played on them."""
    frame, back = step(back)
    attack: dict[str, Any] = {"source": src, "target": target, "regiment": regiment_at(m, target),
                              **fire_dice(target, dice, landing=landing)}
    if frame is None:
        m.emit("japanese_attack", "6.0", _announce(who, "fire attack", attack), **attack)
        faces = roll_japanese(m, attack["dice"], f"{who}: fire on {name(target)}")
    else:
        faces = []  # the counter-battery's frame holds them
    if not landing:
        faces = yield from counter_battery(m, faces, who, False, at=at.into(_AT_COUNTER),
                                           back=back)
    c: Counter[int] = Counter(faces)
    losses = max(0, c[6] - c[2])
    hits = c[4] + c[5]
    ones = 0 if landing or is_beach(target) else c[1] // 2
    result: dict[str, Any] = {**attack, "faces": sorted(faces), "cancelled": min(c[6], c[2]),
                              "usmc_lost": losses, "cohesion_lost": hits, "japanese_lost": ones}
    m.emit("japanese_attack", "6.0", _result_text(who, result), **result)
    _apply_to_usmc(m, target, losses, hits, who)
    for _ in range(ones):
        remove_japanese_marker(m, src, "6.0", "double 1s in its own fire attack", double=1)
    update_control(m)


def banzai(m: Match, src: str, target: str, who: str, dice: int = BANZAI_DICE, *,
           at: Path = NOWHERE, back: Back = None) -> Flow:
    """6.0 Japanese Banzai chart (5 dice unless the card says otherwise): each 6 removes a
    USMC marker, each 5 or 4 costs 1 cohesion, 3s are removed, each 2 or 1 removes a
    Japanese marker from the attackers. Entered again (``back``), the dice are rolled and
    the USMC cards played on them."""
    frame, back = step(back)
    attack: dict[str, Any] = {"source": src, "target": target, "regiment": regiment_at(m, target),
                              "dice": dice, "base": dice, "modifiers": []}
    if frame is None:
        m.emit("japanese_attack", "6.0", _announce(who, "Banzai attack", attack), **attack)
        faces = roll_japanese(m, dice, f"{who}: Banzai on {name(target)}", reroll_threes=False)
    else:
        faces = []  # the counter-battery's frame holds them
    faces = yield from counter_battery(m, faces, who, True, at=at.into(_AT_COUNTER), back=back)
    c: Counter[int] = Counter(faces)
    losses, hits, own = c[6], c[4] + c[5], c[1] + c[2]
    result: dict[str, Any] = {**attack, "faces": sorted(faces), "usmc_lost": losses,
                              "cohesion_lost": hits, "japanese_lost": own}
    m.emit("japanese_attack", "6.0", _result_text(who, result), **result)
    _apply_to_usmc(m, target, losses, hits, who)
    for _ in range(own):
        if not remove_japanese_marker(m, src, "6.0", "Banzai 1 or 2", by_faces=[1, 2]):
            break
    update_control(m)


def fire_dice(target: str, dice: int, *, landing: bool = False) -> dict[str, Any]:
    """6.0 The strength of a Japanese fire attack as a rule test reads it: the ``dice``
    rolled, the card's ``base`` dice and the ``modifiers``
    (:func:`~tabletop.core.engine.events.modifier` dicts): +1 against a beach, except in
    the Special Landing Phase ("already factored in")."""
    mods = [modifier("6.0", "against a beach", BEACH_BONUS)] if is_beach(target) and not landing else []
    return {"dice": dice + sum(int(x["value"]) for x in mods), "base": dice, "modifiers": mods}


def _announce(who: str, what: str, attack: dict[str, Any]) -> str:
    """The log line of a Japanese attack about to roll, made from its event's fields."""
    mods = modifiers_text(attack["modifiers"])
    strength = f"{attack['dice']} dice" + (f": {attack['base']} base, {mods}" if mods else "")
    return (f"{who}: {what} from {name(attack['source'])} on {attack['regiment']} in "
            f"{name(attack['target'])} ({strength})")


def _result_text(who: str, result: dict[str, Any]) -> str:
    """The log line of a Japanese attack's result, made from its event's fields."""
    return (f"{who}: {' '.join(map(str, sorted(result['faces'], reverse=True)))} -> "
            f"{result['usmc_lost']} USMC marker(s), {result['cohesion_lost']} cohesion, "
            f"{result['japanese_lost']} Japanese marker(s) lost")


_AT_COUNTER: Frame = MappingProxyType({"at": "counter"})
"""A Japanese attack rolled, the USMC cards played on its dice (6.0 Note)."""


def _apply_to_usmc(m: Match, target: str, losses: int, hits: int, who: str) -> None:
    """6.0, 3.0: results only against the regiment attacked; its bunker takes the first loss."""
    rid = regiment_at(m, target)
    if rid is None:
        return
    for _ in range(losses):
        if regiment_at(m, target) is None:
            break
        defender_loss(m, target, "6.0", who)
    if regiment_at(m, target) is not None:
        _cohesion_hits(m, rid, hits, who)


# -- the card's effects ---------------------------------------------------------------------------
def _cancelled(m: Match, kind: str, who: str, *, at: Path = NOWHERE) -> Flow:
    """A USMC card (Star Shells) may cancel this effect before it is carried out (its
    decision is its first step: entered again, it is asked again)."""
    opts = cards.card_options(m, "cancel", {"kind": kind})
    if not opts:
        return False
    v = yield from ask_str(at.mark(choose(
        USMC, f"{who} orders a {kind.replace('_', ' ')}: play a card to cancel it?", "6.0",
        [Option("pass", "no card"), *opts], kind="cancel_card", context={"effect": kind}),
        _AT_CANCEL))
    if v == "pass":
        return False
    mods = yield from cards.play(m, v[5:], "cancel", {"kind": kind})  # asks nothing
    if mods["cancel"]:
        m.emit("japanese_card", "6.0", f"{who}: the {kind.replace('_', ' ')} is cancelled")
        return True
    return False


_AT_CANCEL: Frame = MappingProxyType({"at": "cancel"})
"""The choice of a card to cancel a Japanese effect (6.0)."""


def _ignored(m: Match, who: str, what: str) -> None:
    m.emit("japanese_card", "6.0", f"{who}: {what} cannot be carried out and is ignored")


def effect_fire(m: Match, eff: FireAttack, who: str, *, at: Path = NOWHERE,
                back: Back = None) -> Flow:
    """6.0 Fire Attack: ``count`` attacks down the attack priority list (islands first).
    Entered again (``back``) inside an attack, the positions attacked are the frame's."""
    frame, back = step(back)
    done: list[str] = list(frame["done"]) if frame else []
    want = len(beaches()) if eff.target == "each_beach" else eff.count
    while frame is not None or len(done) < want:  # one attack a round (or none: over)
        if frame is not None:
            target, src = frame["target"], frame["src"]
            frame = None
        else:
            order = [(t, s) for t, s in priority_targets(m, eff.target, adjacent_required=eff.adjacent,
                                                         from_position=eff.from_position)
                     if t not in done]
            if not order:
                if not done:
                    _ignored(m, who, "the fire attack (no USMC position in reach)")
                return
            target, src = order[0]
            done.append(target)
        yield from fire(m, src, target, eff.dice, who, back=back, at=at.into(
            {"at": "fire", "done": list(done), "target": target, "src": src}))
        back = None


def effect_fields(m: Match, eff: FieldsOfFire, who: str, *, at: Path = NOWHERE,
                  back: Back = None) -> Flow:
    """6.0 Fields of Fire (ours): every Japanese-occupied position adjacent to the target
    makes one fire attack on it. Entered again (``back``) inside an attack, the target, the
    firing positions and the attack under way are the frame's."""
    frame, back = step(back)
    if frame is None:
        order = priority_targets(m, eff.target)
        if not order:
            _ignored(m, who, "fields of fire (no USMC position in reach)")
            return
        target = order[0][0]
        srcs = sorted([q for q in adjacent(target) if is_japanese_occupied(m, q)], key=priority)
        first = 0
    else:
        target, srcs, first = frame["target"], frame["srcs"], frame["fire"]
    for i in range(first, len(srcs)):
        src = srcs[i]
        if back is None and (regiment_at(m, target) is None or not is_japanese_occupied(m, src)):
            break
        yield from fire(m, src, target, eff.dice, who, back=back, at=at.into(
            {"at": "fire", "target": target, "srcs": list(srcs), "fire": i}))
        back = None


def effect_banzai(m: Match, eff: Banzai, who: str, *, at: Path = NOWHERE,
                  back: Back = None) -> Flow:
    """6.0 Banzai: only against USMC-occupied island positions, by attack priority. Entered
    again (``back``): the attack the frame counts, its target and attackers the frame's,
    at the card that may cancel it or inside it (its dice rolled)."""
    frame, back = step(back)
    for k in range(frame["attack"] if frame else 0, eff.count):
        if frame is not None:
            target, src, stage = frame["target"], frame["src"], frame["at"]
            frame = None
            if stage == "cancel":
                back = None  # the card that may cancel it is asked again, from its start
        else:
            order = priority_targets(m, "island", adjacent_required=eff.adjacent)
            if not order:
                _ignored(m, who, "the Banzai attack (no USMC island position in reach)")
                return
            target, src = order[0]
            stage = "cancel"
        here: Frame = {"attack": k, "target": target, "src": src}
        if stage == "cancel" and (yield from _cancelled(m, "banzai", who,
                                                         at=at.into({"at": "cancel", **here}))):
            continue
        yield from banzai(m, src, target, who, eff.dice, back=back,
                          at=at.into({"at": "banzai", **here}))
        back = None


def _route_ok(m: Match, src: str, dest: str, through_usmc: bool) -> bool:
    """6.0, 9.0 #2: tunnels need no adjacency, but without a card's leave the way (a chain
    of arrows between island positions) may not cross USMC-occupied positions (our reading,
    docs §5; option ``japanese_move_route=any``: no route needed at all)."""
    if through_usmc or m.options.get("japanese_move_route", "clear") == "any":
        return True
    seen, frontier = {src}, [src]
    while frontier:
        nxt = []
        for p in frontier:
            for q in adjacent(p):
                if q == dest:
                    return True
                if q in seen or not is_island(q) or is_usmc_occupied(m, q):
                    continue
                seen.add(q)
                nxt.append(q)
        frontier = nxt
    return False


def effect_move(m: Match, eff: MoveMarkers, who: str) -> None:
    """6.0 Marker Movement: markers leave the lowest-priority Japanese-occupied position for
    the card's destination (highest priority first)."""
    japanese_held = japanese_positions(m)
    if not japanese_held:
        _ignored(m, who, "the marker movement (no Japanese marker)")
        return
    src = lowest_priority(japanese_held)
    if eff.destination == "reinforce":
        cands = [p for p in japanese_held if p != src and free_slots(m, p) > 0]
    else:
        # 6.0 Infiltration Cubes: only a cube may share a position with the other side, so
        # Japanese markers never join a cube (it would also stand there unattackable).
        cands = [p for p in islands() if p != src and is_vacant(m, p) and free_slots(m, p) > 0
                 and cube_at(m, p) is None]
    if eff.adjacent:
        cands = [p for p in cands if p in adjacent(src)]
    cands = [p for p in cands if priority(p) < priority(src) and _route_ok(m, src, p, eff.through_usmc)]
    if not cands:
        _ignored(m, who, "the marker movement (no destination)")
        return
    dest = cands[0]
    here = japanese_at(m, src)
    n = len(here) if eff.count == "all" else min(int(eff.count), len(here))
    n = min(n, free_slots(m, dest))
    for p in here[:n]:
        m.state.pieces.move(p.id, dest)
    was = control(m, dest)
    m.emit("japanese_move", "6.0", f"{who}: {n} Japanese marker(s) move {name(src)} -> {name(dest)}",
           source=src, dest=dest, count=n)
    vacate_check(m, src)
    update_control(m)
    if was == USMC and control(m, dest) == JAPAN:
        m.emit("japanese_move", "2.0", f"{who}: {name(dest)} is reoccupied by the Japanese",
               position=dest)


def infiltration_targets(m: Match) -> list[str]:
    """6.0 Infiltration Cubes: USMC-occupied positions with an empty slot, or USMC-controlled
    positions with no Marine markers; none already holding a cube; by attack priority.
    Beaches are among them (6.0 names no exception; 2.0's "only USMC regiments may occupy
    beach positions" is read as a rule for formation markers) unless the option
    ``beach_infiltration=forbidden`` reads 2.0 as closing beaches to cubes too."""
    isl = [p for p in islands()]
    bch = sorted(beaches(), key=lambda b: beach_rank(m, b))
    if m.options.get("beach_infiltration", "allowed") == "forbidden":
        bch = []
    out = []
    for p in isl + bch:
        if cube_at(m, p) is not None:
            continue
        if (is_usmc_occupied(m, p) and free_slots(m, p) > 0) or \
                (is_vacant(m, p) and control(m, p) == USMC):
            out.append(p)
    return out


def effect_infiltrate(m: Match, eff: Infiltrate, who: str, *, at: Path = NOWHERE,
                      back: Back = None) -> Flow:
    """6.0 Infiltration Cubes: a gold cube from a Rising Sun square to the target. Entered
    again (``back``) at the card that may cancel it: the cube the frame counts, which cube
    goes where the frame's."""
    frame, _ = step(back)
    for k in range(frame["cube"] if frame else 0, eff.count):
        if frame is not None:
            cube, pos = frame["piece"], frame["pos"]
            frame = None
        else:
            free = [c for b in RISING_SUN for c in m.state.pieces.at(b) if c.kind == "infiltration"]
            order = infiltration_targets(m)
            if not free or not order:
                _ignored(m, who, "the infiltration (no cube left or no position with room)")
                return
            cube, pos = free[0].id, order[0]
        if (yield from _cancelled(m, "infiltrate", who, at=at.into(
                {"at": "cancel", "cube": k, "piece": cube, "pos": pos}))):
            continue
        m.state.pieces.move(cube, pos)
        m.emit("infiltration", "6.0", f"{who}: a Japanese infiltration cube enters {name(pos)}",
               position=pos, regiment=regiment_at(m, pos))
        update_control(m)


def effect_bunker(m: Match, eff: PlaceBunker, who: str) -> None:
    """3.0: the Japanese place a bunker in the highest-priority Japanese-occupied island
    position without one (with ``adjacent_to_usmc``: of those next to a USMC position)."""
    for _ in range(eff.count):
        cands = [p for p in japanese_positions(m) if bunker_at(m, p) is None]
        if eff.where == "adjacent_to_usmc":
            cands = [p for p in cands if any(is_usmc_occupied(m, q) for q in adjacent(p))]
        if not cands or not place_bunker(m, cands[0], "3.0", who):
            _ignored(m, who, "the bunker")
            return


def effect_snipers(m: Match, eff: ReduceCohesion, who: str) -> None:
    """4.0 (cohesion reduced by Japanese card actions): the regiment in the target position
    loses cohesion with no dice; at 5 or less it checks for exhaustion (6.0)."""
    order = priority_targets(m, eff.target, adjacent_required=False)
    if not order:
        _ignored(m, who, "the cohesion reduction (no USMC regiment)")
        return
    rid = regiment_at(m, order[0][0])
    assert rid is not None
    m.emit("japanese_attack", "4.0", f"{who}: {rid} in {name(order[0][0])} is targeted",
           regiment=rid, target=order[0][0], cohesion_loss=eff.amount)
    _cohesion_hits(m, rid, eff.amount, who, "4.0")


def hook_kamikaze_strike(m: Match, params: dict[str, Any], who: str, *, at: Path = NOWHERE,
                         back: Back = None) -> Flow:
    """3.0 (card text over the rules; japanese_cards.yaml hook kamikaze_strike): discard the
    top Marine Draw card unseen; with the deck empty the USMC player discards a card of
    their choice from the hand. Entered again (``back``) at the discard the frame counts."""
    deck = m.state.decks[cards.DECK]
    frame, _ = step(back)
    for j in range(frame["card"] if frame else 0, int(params.get("cards", 1))):
        if deck.pile("draw"):
            inst = deck.pile("draw")[0]
            deck.move(inst, "discard")
            m.emit("japanese_card", "3.0", f"{who}: the top Marine Draw card is lost unseen",
                   card=inst)
        elif cards.hand(m):
            h = cards.hand(m)
            v = yield from ask_str(at.mark(choose(
                USMC, f"{who}: discard a card from your hand", "3.0",
                [Option(f"card:{i}", cards.title(i)) for i in h], kind="kamikaze_discard"),
                {"at": "discard", "card": j}))
            cards.discard(m, v[5:], "3.0", who)
        else:
            _ignored(m, who, "the kamikaze strike (no card to lose)")


def resolve_effect(m: Match, eff: Any, who: str, *, at: Path = NOWHERE,
                   back: Back = None) -> Flow:
    """6.0: carry out one effect of the Japanese card; what cannot apply is ignored.
    Entered again (``back``), the effect goes back to the decision it asked."""
    if isinstance(eff, FireAttack):
        yield from effect_fire(m, eff, who, at=at, back=back)
    elif isinstance(eff, FieldsOfFire):
        yield from effect_fields(m, eff, who, at=at, back=back)
    elif isinstance(eff, Banzai):
        yield from effect_banzai(m, eff, who, at=at, back=back)
    elif isinstance(eff, MoveMarkers):
        effect_move(m, eff, who)
    elif isinstance(eff, Infiltrate):
        yield from effect_infiltrate(m, eff, who, at=at, back=back)
    elif isinstance(eff, PlaceBunker):
        effect_bunker(m, eff, who)
    elif isinstance(eff, ReduceCohesion):
        effect_snipers(m, eff, who)
    elif isinstance(eff, Hook) and eff.name == "kamikaze_strike":
        yield from hook_kamikaze_strike(m, eff.params, who, at=at, back=back)
    else:  # pragma: no cover - load_components() refuses undeclared hooks
        _ignored(m, who, f"effect {eff.type}")


def card_window(m: Match, when: str, *, at: Path = NOWHERE, back: Back = None) -> Flow:
    """6.0 Note: the USMC player may play cards before and after the Japanese activation.
    Entered again (``back``): at its decision, or inside the card its answer played."""
    frame, back = step(back)
    while True:
        if frame is not None and back is not None:
            v = frame["v"]  # entered again inside the card this answer played
        else:
            opts = cards.card_options(m, "japanese")
            if not opts:
                return
            v = yield from ask_str(at.mark(choose(
                USMC, f"Japanese turn ({when} the card): play a card?", "6.0",
                [Option("pass", "no card"), *opts], kind="japanese_turn_card",
                context={"when": when}), _AT_WINDOW))
            if v == "pass":
                return
        frame = None
        yield from cards.play(m, v[5:], "japanese", back=back, at=at.into({"at": "card", "v": v}))
        back = None


_AT_WINDOW: Frame = MappingProxyType({"at": "window"})
"""A window for USMC cards in the Japanese turn, at its decision (6.0 Note)."""
_BEFORE: Frame = MappingProxyType({"at": "before"})
"""The Japanese turn at its window before the card is followed (6.0 Note)."""
_AFTER: Frame = MappingProxyType({"at": "after"})
"""The Japanese turn at its window after the card is followed (6.0 Note)."""
_TURN = Path("japanese")
"""The path of the Japanese turn's procedures."""


def card_effects(card: JapaneseCard) -> list[dict[str, Any]]:
    """3.0: a Japanese card's effects as an event's data carries them, each with its fields
    (count, dice, target...) and, for fire, the beach's extra die its text states (6.0)."""
    return [{**e.model_dump(mode="json"),
             **({"beach_bonus": BEACH_BONUS} if isinstance(e, (FireAttack, FieldsOfFire)) else {})}
            for e in card.effects]


def _japanese_card(inst: str) -> JapaneseCard:
    """3.0: the printed card of a physical Japanese card id."""
    return comps().japanese_deck.card(card_id_of(inst))


def japanese_turn(m: Match) -> Flow:
    """6.0 Japanese AI Turn: draw the top activation card face up to the discard pile and
    follow all of it, in order; then exhaustion checks were already made as cohesion fell.
    Entered again at one of its decisions (resume entry ``japanese``, :mod:`.resume`), the
    card drawn is the state's (``vars["japanese_card"]``) and the turn goes back to the
    window or the effect its frame names."""
    frame, back = step(m.resumed("japanese"))
    if frame is None:
        deck = m.state.decks[DECK]
        drawn = deck.draw(1, to="discard")
        if not drawn:
            return
        inst = drawn[0]
        card = _japanese_card(inst)
        m.state.vars["japanese_card"] = inst
        m.emit("japanese_card", "6.0", f"Japanese AI card: {card.title} — {card.text}", card=inst,
               remaining=len(deck.pile("draw")), effects=card_effects(card))
        stage = "before"
    else:
        card, stage = _japanese_card(m.state.vars["japanese_card"]), frame["at"]
    if stage == "before":
        yield from card_window(m, "before", at=_TURN.into(_BEFORE), back=back)
        back = None
    if stage != "after":
        first = frame["effect"] if frame is not None and stage == "effect" else 0
        for i in range(first, len(card.effects)):
            yield from resolve_effect(m, card.effects[i], card.title, back=back,
                                      at=_TURN.into({"at": "effect", "effect": i}))
            back = None
    yield from card_window(m, "after", at=_TURN.into(_AFTER), back=back)
