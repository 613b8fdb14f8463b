"""8.0 US bombardment: availability (8.1, 8.4), placement on the defender of a declared
attack (8.2) and resolution: suppression (8.3).

8.2 and 9.0 disagree on when markers are placed; the game option ``bombardment_timing``
chooses: ``per_attack`` (the default: on each attack right after it is declared) or
``phase_start`` (8.2 read literally: every bombarded attack is declared at the start of the
first combat phase, then every marker is rolled; see combat.bombardment_step)."""

from __future__ import annotations

from fractions import Fraction

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.events import modifier, modifiers_text
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import Piece

from . import common as c

BASE_MARKERS = 9  # 8.1
MAX_PER_HEX = 2  # 8.2
SUPPRESS_TOP = 3  # 8.3a: 1-3 suppresses
TIMING_OPTION = "bombardment_timing"  # the game option of 8.2's timing
PER_ATTACK = "per_attack"  # markers on each attack as it is declared (9.0's one at a time)
PHASE_START = "phase_start"  # 8.2 literally: all bombarded attacks declared at the phase start
TIMINGS = (PER_ATTACK, PHASE_START)


def timing(match: Match) -> str:
    """8.2 vs 9.0: when the US places its markers (the game option ``bombardment_timing``)."""
    return str(match.options.get(TIMING_OPTION, PER_ATTACK))


def airfield_free(match: Match, feature: str) -> bool:
    """8.1: every hex holding part of the airfield is free of Japanese units and ZOC."""
    comp = c.components()
    af = set(comp.map.hexes_with(feature))
    return not (af & (c.hexes_of(match, c.JAPAN) | c.zoc_of(match, c.JAPAN)))


def markers_modifiers(match: Match) -> list[dict[str, JSON]]:
    """8.1, 8.4: the markers added to the nine, as modifiers: one with Airfield No. 1 free
    of the Japanese and their ZOC, one more with No. 2 free too; none in a Storm."""
    if match.state.vars[c.V_WEATHER] == "Storm" or not airfield_free(match, "airfield_1"):
        return []
    mods = [modifier("8.1", "Airfield No. 1 free", 1)]
    if airfield_free(match, "airfield_2"):
        mods.append(modifier("8.1", "Airfields No. 1 and No. 2 free", 1))
    return mods


def markers_available(match: Match) -> int:
    """8.1, 8.4: nine markers; a tenth with Airfield No. 1 free of the Japanese and their
    ZOC, an eleventh with both No. 1 and No. 2; no extra markers in a Storm."""
    return BASE_MARKERS + sum(int(str(m["value"])) for m in markers_modifiers(match))


def start_phase(match: Match) -> None:
    """8.1, 8.2: the markers for this first combat phase (unused ones are lost after it)."""
    mods = markers_modifiers(match)
    n = BASE_MARKERS + sum(int(str(m["value"])) for m in mods)
    match.state.vars[c.V_BOMBARDMENT] = n
    match.emit("bombardment_available", "8.1", f"the US has {n} bombardment markers this "
               f"phase{' (' + modifiers_text(mods) + ')' if mods else ''}", markers=n,
               base=BASE_MARKERS, modifiers=mods)


def suppress_chance(match: Match) -> Fraction:
    """8.3a: a marker suppresses on 1-3 (1-2 in a Storm)."""
    return Fraction(SUPPRESS_TOP - 1 if match.state.vars[c.V_WEATHER] == "Storm" else SUPPRESS_TOP, 6)


def markers_on(match: Match, hex_id: str) -> list[Piece]:
    """8.2: the bombardment markers on a hex."""
    return [p for p in match.state.pieces.at(hex_id) if p.kind == "bombardment"]


def room(match: Match, hex_id: str) -> int:
    """8.2: how many more markers a hex may take: one or two a hex, no more than are left."""
    on_hex = len(markers_on(match, hex_id))
    return max(0, min(MAX_PER_HEX - on_hex, int(match.state.vars[c.V_BOMBARDMENT])))


def place_markers(match: Match, hex_id: str, count: int) -> list[Piece]:
    """8.2: put ``count`` markers from the pool on a hex (no more than :func:`room` allows);
    they are spent. Returns the markers placed."""
    count = min(count, room(match, hex_id))
    if count <= 0:
        return []
    match.state.vars[c.V_BOMBARDMENT] -= count
    pool = [p for p in match.state.pieces.at(c.MARKER_POOL) if p.kind == "bombardment"]
    for marker in pool[:count]:
        match.state.pieces.move(marker.id, hex_id)
    return pool[:count]


def resolve_markers(match: Match, defender: Piece, markers: list[Piece]) -> bool:
    """8.3a: roll 1d6 for each marker placed on the defender's hex; any success suppresses
    it (its marker is flipped; failed ones stay face up until the attack is resolved).
    Returns whether the defender is suppressed."""
    v = match.state.vars
    hex_id = defender.location
    storm = [modifier("8.3a", "storm", -1)] if v[c.V_WEATHER] == "Storm" else []
    top = SUPPRESS_TOP + sum(int(str(m["value"])) for m in storm)
    suppressed = False
    for marker in markers:
        roll = match.dice.d6(purpose="US bombardment", section="8.3")
        if roll <= top:
            suppressed = True
            marker.face = "back"
        fire: dict[str, JSON] = {
            "hex": hex_id, "roll": roll, "suppresses": [1, top], "modifiers": storm,
            "result": "suppressed" if roll <= top else "no effect"}
        match.emit("bombardment", "8.3", f"bombardment of {hex_id}: roll {roll} "
                   f"({fire['result']}; 1-{top} suppresses"
                   f"{': ' + modifiers_text(storm) if storm else ''})", **fire)
    if suppressed:
        v[c.V_SUPPRESSED].append(defender.id)
    return suppressed


def bombard(match: Match, defender: Piece, count: int) -> bool:
    """8.2, 8.3: place ``count`` markers on the defender's hex and roll 1d6 for each; any
    success suppresses it. The markers return to the pool after the attack (clear_markers).
    Returns whether the defender is suppressed."""
    placed = place_markers(match, defender.location, count)
    return resolve_markers(match, defender, placed) if placed else False


def clear_markers(match: Match, hex_id: str) -> None:
    """8.2: markers come off the map once their attack is resolved."""
    for p in list(match.state.pieces.at(hex_id)):
        if p.kind == "bombardment":
            p.face = "front"
            match.state.pieces.move(p.id, c.MARKER_POOL)
