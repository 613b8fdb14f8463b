"""18.0 Two-player rules: the Japanese player's choices (scenario ``two_player``).

Here: 18.1 initial deployment, 18.2 movement, 18.2.1 tunnel movement, 18.3 combat. The other
choices are asked where the solitaire procedure would decide: 18.4 placement in
``japanese_units.choose_placement`` and the optional substitute in
``japanese_operations.redeploy``; 18.5 targeting in ``japanese_bombardment``; 18.6 Banzai
attacks run as in the solitaire game (15.5).

Readings taken (docs/games/iwo_bonins.md, the Japanese side chapter):

- 18.1: the units are placed one at a time, HQs and artillery first, then tanks, then the
  rest; an HQ or artillery unit is kept out of the sectors already holding one when the
  remaining ones are just enough for the sectors still lacking one, so a legal deployment
  always results.
- 18.2: a unit "turned up" (flipped to move, or just flipped where it stands) is marked
  with the turn (``attrs["revealed"]``); it may be turned face down ("dig in") in a later
  Japanese movement phase if it stands on an operative deployment hex not adjacent to a US
  unit. Each unit moves or tries the tunnels once a phase.
- 18.3: units turned up this turn attack in the Japanese Combat Phase, before the
  bombardment, each US hex once. The US defender's results read the CRMT Regular column
  (9.2.3) without its Banzai Ae; the attackers' results read as for any attacker: Ae
  eliminates them, A1-A3 make them redeploy (9.3: Japanese units redeploy instead of
  retreating), an Ex costs one attacking unit (the Japanese player picks it).
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Option, ResumePoint, ask_str, choose
from tabletop.core.engine.events import modifiers_text
from tabletop.core.engine.match import Flow, Match, Procedure
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.text import in_words

from . import common as c
from . import japanese_units as ju
from .components import outcome_for, parse_outcome

#: The sectors that must each hold an HQ or artillery unit (18.1).
FIRE_SUPPORT_SECTORS: tuple[int | str, ...] = (1, 2, 3, 4, 5, "suribachi")
#: 18.1: terrain closed to Japanese tanks at set-up.
TANK_PROHIBITED = frozenset({"mountain", "ravine", "mine"})

KIND_DEPLOY = "jp_deploy_hex"
KIND_ACTION = "jp_move_action"
KIND_MOVE = "jp_move_hex"
KIND_TUNNEL = "jp_tunnel_hex"
KIND_TARGET = "jp_attack_target"
KIND_ATTACKER = "jp_attack_add"
KIND_EX_LOSS = "jp_ex_loss"
REVEALED = "revealed"  # piece.attrs: the turn the unit was turned up (18.2)
TUNNEL_TOP = 3  # 18.2.1: 1-3 tunnels (one less in a US ZOC)


# -- 18.1 ------------------------------------------------------------------------------------

def _deploy_order(match: Match) -> list[Piece]:
    pool = [p for p in match.state.pieces.at(c.JP_POOL) if p.side == c.JAPAN]
    rank = {"hq": 0, "artillery": 1, "armor": 2}
    return sorted(pool, key=lambda p: rank.get(p.kind, 3))  # stable: counter-sheet order


def legal_deployment_hexes(match: Match, piece: Piece, placed_fs: set[int | str],
                           fs_left: int) -> list[str]:
    """18.1: the empty initial deployment hexes this unit may take: tanks not on mountain,
    ravine or mine; an HQ or artillery unit into a sector still lacking one when the
    remaining ones are only just enough."""
    comp = c.components()
    hexes = [h for h in sorted(comp.hexes_where(deploy="initial")) if not c.units_at(match, h)]
    if piece.kind == "armor":
        hexes = [h for h in hexes if comp.map.terrain(comp.map.hex(h)) not in TANK_PROHIBITED]
    if ju.is_fire_support(piece):
        lacking = [s for s in FIRE_SUPPORT_SECTORS if s not in placed_fs]
        if lacking and fs_left <= len(lacking):
            hexes = [h for h in hexes if c.sector_of(h) in lacking]
    return hexes


DEPLOYMENT = "deployment"
"""The entry of the flow at an 18.1 placement (``Bonins.resume_flow``)."""


def initial_deployment(match: Match, *, back: Mapping[str, JSON] | None = None) -> Flow:
    """18.1: as 3.2, but the Japanese player chooses which unit goes on each initial
    deployment hex: no tank on prohibited terrain, and an HQ or artillery unit in each of
    sectors 1-5 and Suribachi. Each placement is asked again (a fork, ``back``) from the
    units still in the pool, the sectors given an HQ or artillery unit, how many of those
    are left and how many units there are in all."""
    order = _deploy_order(match)
    if back is None:
        placed_fs: set[int | str] = set()
        fs_left = sum(1 for p in order if ju.is_fire_support(p))
        total = len(order)
    else:
        placed_fs, fs_left, total = set(back["placed_fs"]), int(back["fs_left"]), int(back["total"])
    for piece in order:
        hexes = legal_deployment_hexes(match, piece, placed_fs, fs_left)
        answer = yield from ask_str(choose(
            c.JAPAN, f"Place {piece.id} ({in_words(piece.kind)}) on which initial deployment hex?",
            "18.1",
            [Option(h, f"{h} ({c.components().map.terrain(c.components().map.hex(h))}"
                       f", sector {c.sector_of(h)})") for h in hexes],
            kind=KIND_DEPLOY, private=True,
            context={"unit": piece.id, "type": piece.kind,
                     "lacking": [s for s in FIRE_SUPPORT_SECTORS if s not in placed_fs]},
            resume=ResumePoint(DEPLOYMENT, {"placed_fs": sorted(placed_fs, key=str),
                                            "fs_left": fs_left, "total": total})))
        ju.place(match, piece, answer)
        if ju.is_fire_support(piece):
            fs_left -= 1
            sector = c.sector_of(answer)
            if sector is not None:
                placed_fs.add(sector)
    ju.emit_japanese(match, "setup", "18.1", f"the Japanese player has placed {total} units face down, "
               "one on each initial deployment hex", units=total)
    return None


# -- 18.2, 18.2.1 ----------------------------------------------------------------------------

def _adjacent_to_us(match: Match, hex_id: str) -> bool:
    comp = c.components()
    us = c.hexes_of(match, c.US)
    return any(n in us for n in comp.map.neighbors(comp.map.hex(hex_id)))


def may_dig_in(match: Match, piece: Piece) -> bool:
    """18.2: a face-up unit turned up in an earlier turn, on an operative deployment hex and
    not adjacent to a US unit, may be turned face down."""
    if c.is_dug_in(piece) or piece.attrs.get(REVEALED) == match.state.turn:
        return False
    sector = c.sector_of(piece.location)
    if sector is None or piece.location not in c.operative_deployment_hexes(match, sector):
        return False
    return not _adjacent_to_us(match, piece.location)


def _actions(match: Match, done: set[str]) -> list[Option]:
    from .japanese_operations import movement_allowance

    options: list[Option] = []
    dug = ju.dug_in_hexes(match)
    for p in sorted(c.units(match, c.JAPAN), key=lambda p: p.location):
        if p.id in done:
            continue
        if ju.can_move(p):
            options.append(Option(f"move:{p.id}", f"Turn up {p.id} at {p.location} and move it",
                                  info=f"MA {movement_allowance(match, p)}"))
        if c.is_dug_in(p) and ju.eligible_anywhere(match, dug_in=dug - {p.location}):
            need = 2 if _adjacent_to_us(match, p.location) else 3
            options.append(Option(f"tunnel:{p.id}", f"Tunnel movement for {p.id} at "
                                  f"{p.location}", info=f"succeeds on 1-{need}"))
        if may_dig_in(match, p):
            options.append(Option(f"dig:{p.id}", f"Turn {p.id} at {p.location} face down"))
    options.append(Option(DONE, "End the Japanese movement"))
    return options


def japanese_movement(match: Match, *, resume: c.Resume | None = None,
                      back: Mapping[str, JSON] | None = None) -> Procedure[None]:
    """18.2: the Japanese player moves units at will (turned face up to move) and tries
    tunnel movement (18.2.1); each unit acts once a phase. Every choice is asked again from
    ``resume`` with the units that have acted and the unit acting; ``back`` enters the
    procedure again there (a fork)."""
    done: set[str] = set(back["done"]) if back is not None else set()
    while True:
        if back is not None and "act" in back:
            answer = f"{back['act']}:{back['unit']}"
        else:
            answer = (yield from ask_str(c.ask(resume, choose(
                c.JAPAN, "Japanese movement: which unit?", "18.2", _actions(match, done),
                kind=KIND_ACTION), done=sorted(done))))
            if answer == DONE:
                return None
        again = back if back is not None and "act" in back else None  # at this unit's action
        back = None
        action, pid = answer.split(":", 1)
        piece = match.state.pieces[pid]
        done.add(pid)
        at = None if resume is None else resume.then(done=sorted(done), act=action, unit=pid)
        if action == "move":
            yield from _move(match, piece, resume=at, back=again)
        elif action == "tunnel":
            yield from _tunnel(match, piece, resume=at, back=again)
        else:
            ju.dig_in(piece)
            ju.emit_japanese(match, "dig_in", "18.2", f"{pid} is turned face down at {piece.location} (a "
                       "deployment hex, not adjacent to a US unit)", piece=pid, hex=piece.location)


def _move(match: Match, piece: Piece, *, resume: c.Resume | None = None,
          back: Mapping[str, JSON] | None = None) -> Procedure[None]:
    """18.2: turn the unit face up and move it within its MA (halved in a Storm), stopping on
    entering a US ZOC (7.1). The destination is asked again from ``resume`` (``back``: the
    unit turned up already, a fork)."""
    from .japanese_operations import movement_allowance, reach

    if back is None:
        ju.reveal(piece)
        piece.attrs[REVEALED] = match.state.turn
    start = piece.location
    ma = movement_allowance(match, piece)
    r = reach(match, piece, ma)
    comp = c.components()
    options = [Option(start, f"Stay at {start} (face up)")]
    options += [Option(comp.map.label(h), f"{comp.map.label(h)} ({r.cost(h):g} MP)") for h in r]
    dest = (yield from ask_str(c.ask(resume, choose(
        c.JAPAN, f"Move {piece.id} from {start} to?", "18.2", options, kind=KIND_MOVE,
        context={"unit": piece.id, "from": start}))))
    if dest != start:
        match.state.pieces.move(piece.id, dest)
    ju.emit_japanese(match, "jp_move", "18.2", f"{piece.id} is turned up at {start}"
               + (f" and moves to {dest}" if dest != start else " and stays"),
               piece=piece.id, frm=start, to=dest)
    return None


def _tunnel(match: Match, piece: Piece, *, resume: c.Resume | None = None,
            back: Mapping[str, JSON] | None = None) -> Procedure[None]:
    """18.2.1: 1-3 on 1d6 (1-2 in a US ZOC) moves a dug-in unit to any vacant deployment or
    redeployment hex eligible for replacement arrival (14.5). The hex is asked again from
    ``resume`` with the roll (``back``: rolled already, a fork)."""
    start = piece.location
    need = TUNNEL_TOP - 1 if _adjacent_to_us(match, start) else TUNNEL_TOP
    roll = int(back["roll"]) if back is not None else \
        match.dice.d6(purpose=f"tunnel movement from {start}", section="18.2.1")
    if roll > need:
        ju.emit_japanese(match, "tunnel", "18.2.1", f"tunnel movement from {start} fails: roll {roll} "
                   f"(needs 1-{need})", piece=piece.id, frm=start, roll=roll, succeeds=[1, need])
        return None
    hexes = ju.eligible_anywhere(match, exclude=piece.id)
    if not hexes:  # cannot happen: the option is offered only with a hex to go to
        return None
    dest = (yield from ask_str(c.ask(resume, choose(
        c.JAPAN, f"Tunnel {piece.id} from {start} to?", "18.2.1",
        [Option(h, f"{h} (sector {c.sector_of(h)})") for h in hexes], kind=KIND_TUNNEL,
        private=True, context={"unit": piece.id, "from": start}), roll=roll)))
    match.state.pieces.move(piece.id, dest)
    ju.emit_japanese(match, "tunnel", "18.2.1", f"a dug-in unit tunnels from {start} to {dest}: roll {roll} "
               f"(needs 1-{need})", piece=piece.id, frm=start, to=dest, roll=roll, succeeds=[1, need])
    return None


# -- 18.3 ------------------------------------------------------------------------------------

def _attackers(match: Match, used: set[str]) -> list[Piece]:
    return [p for p in c.units(match, c.JAPAN)
            if p.id not in used and not c.is_dug_in(p) and p.attrs.get(REVEALED) == match.state.turn
            and ju.can_attack(p) and _adjacent_to_us(match, p.location)]


def japanese_attacks(match: Match, *, resume: c.Resume | None = None,
                     back: Mapping[str, JSON] | None = None) -> Procedure[None]:
    """18.3: units turned up this turn may attack adjacent US units; not mandatory; each US
    hex is attacked once, each unit attacks once. Every choice is asked again from
    ``resume`` with the units that attacked, the hexes attacked, the target and the units
    picked for it; ``back`` enters the procedure again there (a fork)."""
    comp = c.components()
    used: set[str] = set(back["used"]) if back is not None else set()
    attacked: set[str] = set(back["attacked"]) if back is not None else set()
    while True:
        ready = _attackers(match, used)
        if back is not None and "target" in back:
            answer = str(back["target"])
        else:
            near = {comp.map.label(n) for p in ready for n in comp.map.neighbors(comp.map.hex(p.location))}
            targets = sorted({h for h in near if c.units_at(match, h, c.US)} - attacked)
            if not targets:
                return None
            answer = (yield from ask_str(c.ask(resume, choose(
                c.JAPAN, "Attack which US hex?", "18.3",
                [*[Option(h, f"{h}: {', '.join(p.id for p in c.units_at(match, h, c.US))}")
                   for h in targets], Option(DONE, "No more attacks")],
                kind=KIND_TARGET), used=sorted(used), attacked=sorted(attacked))))
            if answer == DONE:
                return None
            attacked.add(answer)
        again = back if back is not None and "target" in back else None  # within this attack
        back = None
        target_hex = comp.map.hex(answer)
        group: list[Piece] = [match.state.pieces[i] for i in again["group"]] if again is not None else []
        if again is None or "fight" not in again:
            while True:
                cands = [p for p in ready if p not in group
                         and target_hex in comp.map.neighbors(comp.map.hex(p.location))]
                if not cands:
                    break
                opts = [Option(p.id, f"{p.id} (attack {c.printed(p, 'attack')})") for p in cands]
                if group:
                    opts.append(Option(DONE, "Resolve the attack"))
                pick = (yield from ask_str(c.ask(resume, choose(
                    c.JAPAN, f"Attack {answer} with which unit?", "18.3", opts, kind=KIND_ATTACKER,
                    context={"hex": answer}), used=sorted(used), attacked=sorted(attacked),
                    target=answer, group=[p.id for p in group])))
                if pick == DONE:
                    break
                group.append(match.state.pieces[pick])
            used.update(p.id for p in group)
            again = None
        yield from resolve_attack(match, group, answer, resume=None if resume is None else resume.then(
            used=sorted(used), attacked=sorted(attacked), target=answer, group=[p.id for p in group]),
            back=again)


def resolve_attack(match: Match, group: list[Piece], hex_id: str, *,
                   resume: c.Resume | None = None,
                   back: Mapping[str, JSON] | None = None) -> Procedure[None]:
    """18.3, 9.1: attack total less defense on the defender's terrain line, 1d6; the US
    results read the CRMT Regular column (9.2.3) less its Banzai Ae; the attackers' A1-A3
    redeploy them, Ae eliminates them, Ex costs one of them. The choices are asked again
    from ``resume`` with the defenders, the result and rolls and how far the attack has
    come (``fight``); ``back`` enters it again there (a fork)."""
    from .japanese_operations import apply_defender_effect, redeploy

    comp = c.components()
    pieces = match.state.pieces
    if back is not None:
        defenders = [pieces[i] for i in back["defenders"]]
        result, second = str(back["crt"]), back["second"]
    else:
        stack = c.units_at(match, hex_id, c.US)
        defenders = stack[:1] if hex_id in c.landing_beach_hexes(match) else stack
        attack = sum(c.printed(p, "attack") for p in group)
        defense = sum(c.printed(p, "defense") for p in defenders)
        line = c.crt_line(hex_id)
        roll = match.dice.d6(purpose="CRT (Japanese attack)", section="18.3")
        result = comp.tables["crt"].lookup(attack - defense, roll, line=line)
        data: dict[str, JSON] = {
            "attackers": [p.id for p in group], "attack": attack,
            "defenders": [p.id for p in defenders], "defense": defense, "hex": hex_id,
            "differential": attack - defense, "line": line, "modifiers": c.line_modifiers(line),
            "roll": roll, "result": result}
        mods = c.line_modifiers(line)
        ju.emit_japanese(match, "jp_attack", "18.3", f"{'+'.join(p.id for p in group)} ({attack}) "
                         f"attack {hex_id} ({defense}): differential {attack - defense:+d} on the "
                         f"{line} line{' (' + modifiers_text(mods) + ')' if mods else ''}, "
                         f"roll {roll}: {result}", **data)
        second = None

    def at(fight: str, **more: JSON) -> c.Resume | None:
        return None if resume is None else resume.then(
            fight=fight, defenders=[p.id for p in defenders], crt=result, second=second, **more)

    if result in ("A1", "A2", "A3"):
        start = int(back["index"]) if back is not None else 0
        for index in range(start, len(group)):
            yield from redeploy(match, group[index], in_place=False, section="18.3",
                                resume=at("redeploy", index=index), back=back)
            back = None
        return None
    if result == "Ae":
        for p in group:
            c.eliminate_jp(match, p, "18.3", "Ae")
        return None
    cell = comp.tables["crmt"].lookup("Regular", result)
    branches = parse_outcome(cell)
    if back is None and len(branches) > 1:
        second = match.dice.d6(purpose="CRMT", section="18.3")
    branch = branches[0] if second is None else outcome_for(cell, int(second))
    if back is None or back["fight"] == "terms":
        for term_no in range(int(back["term"]) if back is not None else 0, len(branch.terms)):
            term = branch.terms[term_no]
            choices = [e for e in term if e != "Ae"]
            if not choices:
                continue
            where = at("terms", term=term_no)
            effect = choices[0]
            if back is not None and "effect" in back:
                effect = str(back["effect"])
            elif len(choices) > 1:
                effect = (yield from ask_str(c.ask(where, choose(
                    c.US, f"{result} at {hex_id}: retreat or take a step loss?", "9.2.3",
                    [Option(e, e) for e in choices], kind="banzai_result", context={"hex": hex_id}))))
            back = None
            yield from apply_defender_effect(match, effect, hex_id, defenders,
                                             resume=None if where is None else where.then(effect=effect))
    if result == "Ex" and group:
        loser = group[0]
        if len(group) > 1:
            pick = yield from ask_str(c.ask(at("ex"), choose(
                c.JAPAN, "Exchange: which attacking unit is lost?", "18.3",
                [Option(p.id, p.id) for p in group], kind=KIND_EX_LOSS)))
            loser = match.state.pieces[pick]
        c.eliminate_jp(match, loser, "18.3", "Ex: the attacker's loss")
    return None
