"""16.0 Japanese bombardment: the Japanese Combat Phase (5.1.6).

Readings taken (docs/games/iwo_bonins.md, the Japanese side chapter):

- 16.2 sweep: every land hex holding a US unit, in descending id order from 2915 before
  Suribachi falls and ascending from 0213 after (docs/games/iwo_bonins.md, "Our reading of
  16.2's hex numbers"); one pass; each hex is checked once and takes at most one marker, so
  a landing beach hex given its automatic marker is not checked again. The automatic beach
  markers go to the beach hexes in the same descending order while markers last.
- 16.3: the 3d6 (2d6, 1d6) strength is rolled once per marker; 16.5: a stacked hex is then
  resolved separately against each unit in it (a CRT roll and, where the cell splits, a
  CRMT roll per unit).
- 16.4: the CRMT Bombardment column holds the exceptions (Ex 1-4, D3 1-3, D2 1-2 a step
  loss, no retreat; De a step loss, 9.2.2).
- 18.3 (two-player): the face-up units' attacks are resolved in this phase, before the
  bombardment (two_player.japanese_attacks).
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Option, ask_str, choose
from tabletop.core.engine.events import modifier, modifiers_text
from tabletop.core.engine.match import Flow, Match, Procedure

from . import common as c
from . import japanese_units as ju
from .common import line_modifiers
from .components import outcome_for, parse_outcome

KIND_BOMBARD = "jp_bombard_hex"
STRENGTH_DICE = 3  # 16.3: three dice a marker
TARGET_TOP = 3  # 16.2: 1-3 places a marker


def japanese_combat_phase(match: Match) -> Flow:
    """5.1.6: (18.3 two-player attacks), availability (16.1), targeting (16.2), strength
    (16.3), resolution (16.4, 16.5). The two-player choices are asked again (a fork) in the
    step their resume point's ``step`` names, the attacks or the targeting."""
    back = match.resumed("jp_combat")
    here = c.Resume("jp_combat")
    step = c.back_at(back, "step")
    if ju.is_two_player(match) and step in (None, "attacks"):
        from . import two_player

        yield from two_player.japanese_attacks(match, resume=here.then(step="attacks"), back=back)
    markers = c.japanese_bombardment_strength(match)
    covered = c.bombardment_covered(match)
    if step != "targets":
        match.emit("jp_bombardment_available", "16.1", f"the Japanese have {markers} bombardment "
                   f"marker(s): {covered} box(es) of the Japanese Bombardment Track covered",
                   markers=markers, covered=covered)
    if markers <= 0:
        return None
    targets = yield from select_targets(match, markers, resume=here.then(step="targets"),
                                        back=back if step == "targets" else None)
    if len(targets) < markers:
        match.emit("jp_bombardment", "16.2", f"{markers - len(targets)} marker(s) lost: fewer "
                   "targets than markers", lost=markers - len(targets), markers=markers,
                   targets=len(targets))
    placed = _place_markers(match, targets)
    for hex_id in targets:
        bombard(match, hex_id)
    for pid in placed:
        marker = match.state.pieces[pid]
        marker.face = "front"
        match.state.pieces.move(pid, c.MARKER_POOL)
    return None


# -- 16.2 targeting --------------------------------------------------------------------------

def us_hexes_in_order(match: Match, *, ascending: bool) -> list[str]:
    """16.2: the hexes holding a US unit, from 2915 downward (before Suribachi falls) or
    from 0213 upward (after)."""
    hexes = {p.location for p in c.units(match, c.US)}
    return sorted(hexes, reverse=not ascending)


def select_targets(match: Match, markers: int, *, resume: c.Resume | None = None,
                   back: Mapping[str, JSON] | None = None) -> Procedure[list[str]]:
    """16.2 (18.5 in the two-player game before Suribachi falls): the hexes that receive a
    marker, in order (the player's choices asked again from ``resume``; ``back`` a fork's)."""
    fallen = bool(match.state.vars[c.V_SURIBACHI])
    if ju.is_two_player(match) and not fallen:
        return (yield from _player_targets(match, markers, resume=resume, back=back))
    targets: list[str] = []
    order = us_hexes_in_order(match, ascending=fallen)
    if not fallen:
        beaches = set(c.landing_beach_hexes(match))
        for hex_id in order:
            if len(targets) < markers and hex_id in beaches:
                targets.append(hex_id)
                match.emit("jp_target", "16.2", f"marker on landing beach hex {hex_id}: "
                           "automatic before Suribachi falls", hex=hex_id)
    first = SWEEP_UP if fallen else SWEEP_DOWN
    start = f"{first} upward (Suribachi has fallen)" if fallen else f"{first} downward"
    for hex_id in order:
        if len(targets) >= markers:
            break
        if hex_id in targets:
            continue
        if _try_target(match, hex_id, "16.2", f"sweep from {start}", "skipped", sweep=first):
            targets.append(hex_id)
    return targets


SWEEP_DOWN, SWEEP_UP = "2915", "0213"  # 16.2: where each sweep starts


def _try_target(match: Match, hex_id: str, section: str, why: str, miss: str, *,
                sweep: str | None = None) -> bool:
    """16.2, 18.5: roll 1d6 for a hex: 1-3 places a bombardment marker on it."""
    roll = match.dice.d6(purpose=f"targeting {hex_id}", section=section)
    if roll <= TARGET_TOP:
        match.emit("jp_target", section, f"marker on {hex_id}: {why}, roll {roll} (1-{TARGET_TOP} places)",
                   hex=hex_id, roll=roll, places=[1, TARGET_TOP], sweep=sweep)
        return True
    match.emit("jp_target_skip", section, f"{hex_id} {miss}: roll {roll} ({TARGET_TOP + 1}-6)", hex=hex_id,
               roll=roll, skips=[TARGET_TOP + 1, 6], sweep=sweep)
    return False


def _player_targets(match: Match, markers: int, *, resume: c.Resume | None = None,
                    back: Mapping[str, JSON] | None = None) -> Procedure[list[str]]:
    """18.5: before Suribachi falls the Japanese player names the hexes, each needing 1-3 on
    1d6 as in 16.2; a hex is tried once; the player may stop. Each hex is asked again from
    ``resume`` with the targets and the hexes tried so far (``back``: a fork)."""
    targets: list[str] = list(back["targets"]) if back is not None else []
    tried: set[str] = set(back["tried"]) if back is not None else set()
    while len(targets) < markers:
        left = [h for h in us_hexes_in_order(match, ascending=False) if h not in tried]
        if not left:
            break
        options = [Option(h, f"{h} ({len(c.units_at(match, h, c.US))} US unit(s), "
                             f"{c.crt_line(h)})") for h in left]
        options.append(Option(DONE, "Place no more markers"))
        answer = (yield from ask_str(c.ask(resume, choose(
            c.JAPAN, f"Bombardment marker {len(targets) + 1} of {markers}: try which hex?", "18.5",
            options, kind=KIND_BOMBARD, context={"left": markers - len(targets)}),
            targets=list(targets), tried=sorted(tried))))
        if answer == DONE:
            break
        tried.add(answer)
        if _try_target(match, answer, "18.5", "chosen by the Japanese player", "missed"):
            targets.append(answer)
    return targets


def _place_markers(match: Match, targets: list[str]) -> list[str]:
    """16.2, 3.5: put the markers, Japanese side up, on the targets (as far as the pool of
    physical markers allows; the rules count the markers, not the counters)."""
    pool = [p for p in match.state.pieces.at(c.MARKER_POOL) if p.kind == "bombardment"]
    placed: list[str] = []
    for marker, hex_id in zip(pool, targets, strict=False):
        marker.face = "back"
        match.state.pieces.move(marker.id, hex_id)
        placed.append(marker.id)
    return placed


# -- 16.3 strength, 16.4-16.5 resolution -----------------------------------------------------

def has_japanese_hill(match: Match, sector: int | str | None) -> bool:
    """16.3: a Japanese-occupied hill hex in the sector."""
    comp = c.components()
    return any(c.sector_of(p.location) == sector and comp.map.has_feature(comp.map.hex(p.location), "hill")
               for p in c.units(match, c.JAPAN))


def strength_dice(match: Match, hex_id: str) -> tuple[int, list[dict[str, JSON]]]:
    """16.3: three dice; after Suribachi is cleared one fewer with a Japanese-occupied hill
    in the target's sector, two fewer without one. Returns (dice, the dice dropped as
    modifiers: none before Suribachi falls)."""
    if not match.state.vars[c.V_SURIBACHI]:
        return STRENGTH_DICE, []
    sector = c.sector_of(hex_id)
    if has_japanese_hill(match, sector):
        mods = [modifier("16.3", f"dice: Suribachi has fallen, a Japanese-held hill in sector {sector}", -1)]
    else:
        mods = [modifier("16.3", f"dice: Suribachi has fallen, no Japanese-held hill in sector {sector}", -2)]
    return STRENGTH_DICE + sum(int(str(m["value"])) for m in mods), mods


def bombard(match: Match, hex_id: str) -> None:
    """16.3-16.5, 9.2.2: roll the marker's strength, then resolve it separately against each
    US unit in the hex on the CRT terrain line and the CRMT Bombardment column (9.2.2: (D)
    a step loss, NE no effect)."""
    comp = c.components()
    dice, mods = strength_dice(match, hex_id)
    strength = match.dice.total(dice, purpose=f"bombardment strength on {hex_id}", section="16.3")
    line = c.crt_line(hex_id)
    fire: dict[str, JSON] = {"hex": hex_id, "strength": strength, "dice": dice, "sides": 6,
                             "sector": c.sector_of(hex_id), "modifiers": mods}
    match.emit("jp_bombardment", "16.3", f"bombardment of {fire['hex']}: strength "
               f"{fire['strength']} ({fire['dice']}d{fire['sides']}"
               f"{': ' + modifiers_text(mods) if mods else ''})", **fire)
    units = list(c.units_at(match, hex_id, c.US))
    section = "16.5" if len(units) > 1 else "16.4"
    for unit in units:
        roll = match.dice.d6(purpose=f"CRT (Japanese bombardment of {unit.id})", section="16.4")
        result = comp.tables["crt"].lookup(strength, roll, line=line)
        cell = comp.tables["crmt"].lookup("Bombardment", result)
        branches = parse_outcome(cell)
        second = None
        if len(branches) == 1:
            branch = branches[0]
        else:
            second = match.dice.d6(purpose=f"16.4 {result} against {unit.id}", section="16.4")
            branch = outcome_for(cell, second)
        effects = {e for term in branch.terms for e in term}
        hit: dict[str, JSON] = {
            "unit": unit.id, "hex": hex_id, "strength": strength, "line": line,
            "modifiers": line_modifiers(line), "roll": roll, "result": result, "crmt": cell,
            "second": second, "step_loss": "(D)" in effects, "stack": section == "16.5"}
        text = (f"{hit['unit']} at {hit['hex']}: strength {hit['strength']} on the {hit['line']} "
                f"line{' (' + modifiers_text(line_modifiers(line)) + ')' if line_modifiers(line) else ''}"
                f", roll {hit['roll']}: {hit['result']}"
                f"{f', then {second}' if second is not None else ''}"
                f" -> {'step loss' if hit['step_loss'] else 'no effect'}")
        if hit["stack"]:
            text += " (16.5: each unit of the stack separately)"
        match.emit("jp_bombardment_result", section, text, **hit)
        if "(D)" in effects:
            c.us_step_loss(match, unit, "16.4", "Japanese bombardment")
