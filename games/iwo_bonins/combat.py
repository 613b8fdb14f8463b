"""9.0 Combat: the US combat phases (5.1.2 with bombardment, 5.1.4 without).

An attack is small sequential decisions: pick a defender hex, add attacking hexes one at a
time, declare (the exact odds, CRT combined with the CRMT Dug-In column, are on the
option), then in the first combat phase place 0-2 bombardment markers (8.2), then it is
resolved: anti-tank fire (12.3), the CRT (9.1), the CRMT Dug-In column (9.2.1), losses,
retreats (9.3), redeployment (15.3, 15.4, by the Japanese procedures) and advance (9.4).

With the game option ``bombardment_timing=phase_start`` (8.2 read literally) the first
combat phase opens with :func:`bombardment_step` instead: the bombarded attacks are all
declared first, then every marker is rolled, then those attacks are resolved in order; the
phase goes on under 9.0 without markers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from math import lcm
from types import MappingProxyType
from typing import Any, NamedTuple

from tabletop.core.engine import odds as shown_odds
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Option, ask_int, ask_str, choose
from tabletop.core.engine.events import modifier, modifiers_text
from tabletop.core.engine.match import Flow, Match, Procedure
from tabletop.core.engine.pieces import Piece, Pieces
from tabletop.core.engine.text import in_words

from . import common as c
from . import support, us_bombardment
from .components import outcome_for, parse_outcome

END = DONE  # 9.0, 8.2: no more attacks
DECLARE = "declare"
CANCEL = "cancel"
CRMT_COLUMN = "Dug-In"  # 9.2, 15.2: every US attack

#: Effect keys of :func:`outcome_odds`, in the order a player reads them.
EFFECT_NAMES: Mapping[str, str] = MappingProxyType({
    "De": "defender eliminated", "DR": "defender redeploys", "DRIP": "defender redeploys in place",
    "(A)": "attacker loses a step", "A": "attackers retreat", "Ae": "attackers eliminated",
    "NE": "no effect", "AA": "may advance",
})


# -- who may attack whom ----------------------------------------------------------------

@cache
def tanks_may_attack(hex_id: str) -> bool:
    """9.0, 12.3: US tanks may not attack defenders in ravine, mountain or mine hexes."""
    comp = c.components()
    return comp.terrain.terrain[comp.map.terrain(comp.map.hex(hex_id))].tanks_attack


def attacking_units(match: Match, hex_id: str, defender_hex: str) -> list[Piece]:
    """9.0, 11.3, 12.2, 12.3: the units of a hex that attack together: on a landing beach
    only the top unit; elsewhere every unit (support units belong to their stack); tanks not
    against ravine, mountain or mine; none that attacked already this phase."""
    return _attacking(match, hex_id, c.landing_beach_hexes_of(match.state.vars.get(c.V_BEACHHEAD)),
                      set(match.state.vars[c.V_ATTACKERS]), tanks_may_attack(defender_hex))


def _attacking(match: Match, hex_id: str, beach: tuple[str, ...], done: set[str],
               tanks_ok: bool) -> list[Piece]:
    """:func:`attacking_units` with what does not depend on the hex worked out once."""
    us = c.board(match).at(hex_id, c.US)
    if not us:
        return []
    if hex_id in beach:
        us = us[:1]
    return [p for p in us if p.id not in done and (tanks_ok or not c.is_tank(p))]


def attacker_hexes(match: Match, defender_hex: str) -> dict[str, list[Piece]]:
    """9.0: the adjacent hexes with units that may attack the defender hex."""
    beach = c.landing_beach_hexes_of(match.state.vars.get(c.V_BEACHHEAD))
    done = set(match.state.vars[c.V_ATTACKERS])
    return _attacker_hexes(match, defender_hex, beach, done)


def _attacker_hexes(match: Match, defender_hex: str, beach: tuple[str, ...],
                    done: set[str]) -> dict[str, list[Piece]]:
    tanks_ok = tanks_may_attack(defender_hex)
    out = {}
    for hid in c.components().map.neighbor_ids(defender_hex):
        units = _attacking(match, hid, beach, done, tanks_ok)
        if units:
            out[hid] = units
    return out


def defenders(match: Match) -> list[Piece]:
    """9.0: the Japanese units not yet attacked this phase with a US unit able to attack
    (an adjacent hex with :func:`attacking_units`; only tanks there, unless the defender's
    terrain keeps tanks out, 12.3)."""
    done = set(match.state.vars[c.V_ATTACKED])
    beach = c.landing_beach_hexes_of(match.state.vars.get(c.V_BEACHHEAD))
    attackers = set(match.state.vars[c.V_ATTACKERS])
    board = c.board(match)
    # The US hexes with a unit able to attack (_attacking: on a landing beach only the top
    # unit; none that attacked already), by whether it is a tank.
    with_tanks: set[str] = set()
    with_others: set[str] = set()
    for p in board.on_map(c.US):
        if p.id in attackers:
            continue
        hid = p.location
        if hid in beach and board.at(hid, c.US)[0] is not p:
            continue
        (with_tanks if c.is_tank(p) else with_others).add(hid)
    neighbours = c.components().map.neighbor_ids
    # hexes next to a US hex with a unit other than a tank able to attack
    by_any = {n for hid in with_others for n in neighbours(hid)}
    # hexes next to a US hex whose only units able to attack are tanks
    by_tanks = {n for hid in with_tanks - with_others for n in neighbours(hid)}
    return [p for p in c.units(match, c.JAPAN)
            if p.id not in done and (p.location in by_any
                                     or (p.location in by_tanks and tanks_may_attack(p.location)))]


# -- exact odds --------------------------------------------------------------------------

class DefenderKind(NamedTuple):
    """What the odds need of a defender: its defense, and its attack if it fires at tanks."""

    defense: int
    anti_tank: int | None


def _kind(p: Piece) -> DefenderKind:
    """14.2, 12.3: what the odds need of a unit, from its printed values (a Japanese unit's
    front is always read)."""
    return DefenderKind(c.printed(p, "defense"),
                        c.printed(p, "attack") if support.is_anti_tank(p) else None)


def defender_kinds(match: Match, defender: Piece) -> Counter[DefenderKind]:
    """14.2: a dug-in defender may be any unit the US cannot see (the face-down units on the
    map and those in the container), weighted equally; a face-up one is itself."""
    if not c.is_dug_in(defender):
        return Counter([_kind(defender)])
    return Counter(c.board(match).of_side(c.JAPAN, "14.2 unknown defenders", _unknown_kinds))


def _defender_items(match: Match, defender: Piece) -> KindItems:
    """:func:`defender_kinds` in the caches' order (:func:`_kind_items`); a dug-in defender's
    kept while the Japanese units stand (``Board.of_side``), as :func:`defender_kinds` is."""
    if not c.is_dug_in(defender):
        return ((_kind(defender), 1),)
    return c.board(match).of_side(c.JAPAN, "14.2 unknown defenders, in order",
                                  lambda pieces: _kind_items(_unknown_kinds(pieces)))


def _unknown_kinds(pieces: Pieces) -> Counter[DefenderKind]:
    """14.2: the kinds of the units the US cannot see, in the order the units come."""
    on_map = c.components().map.is_hex_id
    return Counter(_kind(p) for p in pieces.select(side=c.JAPAN)
                   if ((c.is_dug_in(p) and on_map(p.location)) or p.location == c.CONTAINER))


def outcome_odds(attack: int, tank_attacks: list[int], line: str,
                 kinds: Counter[DefenderKind], *, suppress: Fraction,
                 suribachi: bool) -> dict[str, Fraction]:
    """9.1, 9.2.1, 8.3b, 12.3, 17.0: the exact chance of each effect of an attack (keys of
    EFFECT_NAMES) over the defender's possible identities, the anti-tank rolls, the CRT roll,
    the CRMT's second roll and suppression."""
    return dict(_outcome_odds(attack, tuple(tank_attacks), line, _kind_items(kinds), _chance(suppress),
                              suribachi))


def outcome_combos(attack: int, tank_attacks: list[int], line: str,
                   kinds: Counter[DefenderKind], *, suppress: Fraction,
                   suribachi: bool) -> dict[tuple[str, ...], Fraction]:
    """9.1, 9.2.1, 8.3b, 12.3, 17.0: the exact chance of each whole outcome of an attack (the
    effects that happen together, in EFFECT_NAMES order); the chances add up to one."""
    den, nums = _outcome_numerators(attack, tuple(tank_attacks), line, _kind_items(kinds),
                                    _chance(suppress), suribachi)
    return {key: Fraction(n, den) for key, n in nums}


KindItems = tuple[tuple[DefenderKind, int], ...]
"""A defender's possible kinds with their weights, in a fixed order (the caches' key)."""

Chance = tuple[int, int]
"""A chance as (numerator, denominator) in lowest terms: the caches' key for the chance of
suppression (a Fraction hashes far slower, and every cached call hashes its arguments)."""


def _chance(p: Fraction) -> Chance:
    return p.numerator, p.denominator


NO_SUPPRESSION: Chance = (0, 1)
"""8.3b: no bombardment marker on the defender (an attack without markers, or not yet)."""


def _kind_items(kinds: Counter[DefenderKind]) -> KindItems:
    return tuple(sorted(kinds.items(), key=lambda kv: (kv[0].defense, kv[0].anti_tank or 0)))


# The exact chances are kept as whole numbers over one denominator: an attack's outcomes are
# the weighted sum of each possible defender kind's (cached by kind, so a change in the units
# the defender may be costs only the sum), added up in integers and reduced once.

@lru_cache(maxsize=65536)
def _outcome_odds(attack: int, tank_attacks: tuple[int, ...], line: str, kind_items: KindItems,
                  suppress: Chance, suribachi: bool) -> tuple[tuple[str, Fraction], ...]:
    den, nums = _outcome_numerators(attack, tank_attacks, line, kind_items, suppress, suribachi)
    odds: dict[str, int] = {}
    for effects, n in nums:
        for e in effects:
            odds[e] = odds.get(e, 0) + n
    return tuple((k, Fraction(odds[k], den)) for k in EFFECT_NAMES if k in odds)


@lru_cache(maxsize=65536)
def _outcome_text(attack: int, tank_attacks: tuple[int, ...], line: str, kind_items: KindItems,
                  suppress: Chance, suribachi: bool) -> str:
    return _describe(*_outcome_numerators(attack, tank_attacks, line, kind_items, suppress,
                                          suribachi))


@lru_cache(maxsize=65536)
def _outcome_numerators(attack: int, tank_attacks: tuple[int, ...], line: str,
                        kind_items: KindItems, suppress: Chance, suribachi: bool
                        ) -> tuple[int, tuple[tuple[tuple[str, ...], int], ...]]:
    """:func:`outcome_combos` as (denominator, ((effects, numerator), ...)), in EFFECT_NAMES
    order: each kind's chances weighted by its share of the units the defender may be."""
    per_kind = [(weight, _kind_numerators(attack, tank_attacks, line, kind, suppress, suribachi))
                for kind, weight in kind_items]
    den, nums = _mixed(per_kind)
    total_w = sum(weight for _, weight in kind_items)
    return den * total_w, tuple(sorted(nums.items(), key=lambda kv: [_ORDER[e] for e in kv[0]]))


@lru_cache(maxsize=16384)
def _kind_numerators(attack: int, tank_attacks: tuple[int, ...], line: str, kind: DefenderKind,
                     suppress: Chance, suribachi: bool
                     ) -> tuple[int, tuple[tuple[tuple[str, ...], int], ...]]:
    """12.3, 9.1: one defender kind's chance of each whole outcome (over the anti-tank rolls
    and the differentials they leave), as (denominator, ((effects, numerator), ...))."""
    tanks = _tank_outcomes(list(tank_attacks), kind.anti_tank)
    tank_den = lcm(*(p.denominator for _, p in tanks))
    parts = [(p.numerator * (tank_den // p.denominator),
              _differential_numerators(attack - sum(tank_attacks) + kept - kind.defense, line,
                                       suppress, suribachi))
             for kept, p in tanks]
    diff_den, nums = _mixed(parts)
    return tank_den * diff_den, tuple(nums.items())


def _mixed(parts: list[tuple[int, tuple[int, tuple[tuple[tuple[str, ...], int], ...]]]]
           ) -> tuple[int, dict[tuple[str, ...], int]]:
    """Whole-number chances mixed by integer weights: (weight, (denominator, ((effects,
    numerator), ...))) parts summed over their common denominator, as (denominator,
    {effects: numerator}) (the weights' total is left to the caller)."""
    den = lcm(*(d for _, (d, _) in parts))
    nums: dict[tuple[str, ...], int] = {}
    for weight, (d, part_nums) in parts:
        scale = weight * (den // d)
        for key, n in part_nums:
            nums[key] = nums.get(key, 0) + scale * n
    return den, nums


@lru_cache(maxsize=4096)
def _differential_numerators(diff: int, line: str, suppress: Chance, suribachi: bool
                             ) -> tuple[int, tuple[tuple[tuple[str, ...], int], ...]]:
    """9.1, 9.2.1, 8.3b, 17.0: :func:`_differential_combos` as (denominator, ((effects,
    numerator), ...)), worked in whole numbers from the six CRT results the differential
    reads (every differential past the table's edge, or shifted onto the same column, reads
    the same six, so they share one answer)."""
    crt = c.components().tables["crt"]
    results = tuple(crt.lookup(diff, roll, line=line) for roll in range(1, 7))
    return _column_numerators(results, suppress, suribachi)


@lru_cache(maxsize=1024)
def _column_numerators(results: tuple[str, ...], suppress: Chance, suribachi: bool
                       ) -> tuple[int, tuple[tuple[tuple[str, ...], int], ...]]:
    """9.2.1, 8.3b: the whole outcomes of six equally likely CRT results, each read on the
    CRMT Dug-In column with its second roll, and a soft step loss ("(A)s") avoided with the
    chance ``suppress``: numerators over 36 times the suppression's denominator (an outcome
    of chance nought is kept, as :func:`_differential_combos` keeps it)."""
    sn, sd = suppress
    nums: dict[tuple[str, ...], int] = {}
    for result in results:
        for width, key, hit in _crmt_branches(result, suribachi):
            if hit is None:
                nums[key] = nums.get(key, 0) + width * sd
            else:
                nums[hit] = nums.get(hit, 0) + width * (sd - sn)
                nums[key] = nums.get(key, 0) + width * sn
    return 36 * sd, tuple(nums.items())


@cache
def _crmt_branches(result: str, suribachi: bool
                   ) -> tuple[tuple[int, tuple[str, ...], tuple[str, ...] | None], ...]:
    """9.2.1, 17.0: a CRT result read on the CRMT Dug-In column, branch by branch: (the
    second roll's faces that read it, its effects, its effects with the step loss of "(A)s"
    or None when it has none), effects in EFFECT_NAMES order."""
    cell = c.components().tables["crmt"].lookup(CRMT_COLUMN, result)
    out = []
    for branch in parse_outcome(cell):
        base, soft = _effect_set(branch.terms, suribachi)
        hit = _effect_key(base | {"(A)"}) if soft else None
        out.append((branch.high - branch.low + 1, _effect_key(base or {"NE"}), hit))
    return tuple(out)


def _effect_key(effects: set[str]) -> tuple[str, ...]:
    return tuple(sorted(effects, key=_ORDER.__getitem__))


_ORDER = MappingProxyType({k: i for i, k in enumerate(EFFECT_NAMES)})


@lru_cache(maxsize=4096)
def _differential_combos(diff: int, line: str, suppress: Fraction,
                         suribachi: bool) -> tuple[tuple[tuple[str, ...], Fraction], ...]:
    """9.1, 9.2.1, 8.3b, 17.0: the exact chance of each whole outcome at one differential (the
    CRT roll, the CRMT's second roll, suppression), effects in EFFECT_NAMES order."""
    comp = c.components()
    crt, crmt = comp.tables["crt"], comp.tables["crmt"]
    order = {k: i for i, k in enumerate(EFFECT_NAMES)}
    combos: dict[tuple[str, ...], Fraction] = {}
    for roll in range(1, 7):
        res = crt.lookup(diff, roll, line=line)
        cell = crmt.lookup(CRMT_COLUMN, res)
        for branch in parse_outcome(cell):
            p = Fraction(1, 6) * Fraction(branch.high - branch.low + 1, 6)
            for eff_set, p_eff in _effects(branch.terms, suppress, suribachi):
                key = tuple(sorted(eff_set, key=order.__getitem__))
                combos[key] = combos.get(key, Fraction(0)) + p * p_eff
    return tuple(combos.items())


def _tank_outcomes(tanks: list[int], factor: int | None) -> list[tuple[int, Fraction]]:
    """12.3: the attack the tanks keep, with its chance."""
    dist = {0: Fraction(1)}
    for t in tanks:
        stop = Fraction(min(6, factor), 6) if factor is not None else Fraction(0)
        nxt: dict[int, Fraction] = {}
        for k, p in dist.items():
            nxt[k] = nxt.get(k, Fraction(0)) + p * stop
            nxt[k + t] = nxt.get(k + t, Fraction(0)) + p * (1 - stop)
        dist = nxt
    return [(k, p) for k, p in dist.items() if p]


def _effects(terms: tuple[tuple[str, ...], ...], suppress: Fraction,
             suribachi: bool) -> list[tuple[set[str], Fraction]]:
    base, soft = _effect_set(terms, suribachi)
    if not soft:
        return [(base or {"NE"}, Fraction(1))]
    hit = base | {"(A)"}
    return [(hit, 1 - suppress), (base or {"NE"}, suppress)]


def _effect_set(terms: tuple[tuple[str, ...], ...], suribachi: bool) -> tuple[set[str], bool]:
    """9.2.1, 17.0: a CRMT branch's effects (DR and DRIP are NE on Suribachi, A1-A3 a
    retreat), and whether it holds a soft step loss ("(A)s", avoided when suppressed, 8.3b)."""
    base: set[str] = set()
    soft = False
    for term in terms:
        e = term[0]
        if e in ("DR", "DRIP") and suribachi:
            e = "NE"
        if e in ("A1", "A2", "A3"):
            e = "A"
        if e == "(A)s":
            soft = True
            continue
        base.add(e)
    return base, soft


#: How each effect reads in the two halves of the odds line: what befalls the defender,
#: what befalls the attackers (9.1, 9.2.1).
DEFENDER_WORDS = MappingProxyType({"De": "eliminated", "DR": "redeploys", "DRIP": "redeploys in place"})
ATTACKER_WORDS = MappingProxyType({"(A)": "lose a step", "A": "retreat", "Ae": "are eliminated"})


def describe(combos: dict[tuple[str, ...], Fraction]) -> str:
    """The whole outcomes of an attack as a player reads them, each half adding up to 100%:
    "defender: eliminated 42%, redeploys 33%, holds 25%; attackers: unharmed 75%, lose a
    step 25%; may advance 42%"."""
    den = lcm(*(p.denominator for p in combos.values()))
    return _describe(den, tuple((k, p.numerator * (den // p.denominator)) for k, p in combos.items()))


def _describe(den: int, nums: tuple[tuple[tuple[str, ...], int], ...]) -> str:
    """:func:`describe` of chances given as numerators over one denominator."""
    defender: dict[str, int] = {}
    attackers: dict[str, int] = {}
    advance = 0
    for effects, n in nums:
        d, a, advances = _halves(effects)
        defender[d] = defender.get(d, 0) + n
        attackers[a] = attackers.get(a, 0) + n
        advance += n if advances else 0
    text = (f"defender: {shown_odds.describe_counts(defender, den)}; "
            f"attackers: {shown_odds.describe_counts(attackers, den)}")
    return text + (f"; may advance {shown_odds.percents_counts({0: advance, 1: den - advance}, den)[0]}%"
                   if advance else "")


@cache
def _halves(effects: tuple[str, ...]) -> tuple[str, str, bool]:
    """How a whole outcome reads for the defender and for the attackers, and whether they
    may advance (9.1, 9.2.1)."""
    return (" and ".join(DEFENDER_WORDS[e] for e in effects if e in DEFENDER_WORDS) or "holds",
            " and ".join(ATTACKER_WORDS[e] for e in effects if e in ATTACKER_WORDS) or "unharmed",
            "AA" in effects)


@lru_cache(maxsize=4096)
def odds_detail(units: list[Piece], odds: dict[str, Fraction]) -> dict[str, JSON]:
    """An attack's facts for a program (Option.detail): the combined attack strength and the
    chance of each effect (keys of EFFECT_NAMES) as a float."""
    return {"attack": support.combined_attack(units, set()),
            "odds": {k: float(p) for k, p in odds.items()}}


def attack_odds(match: Match, defender: Piece, units: list[Piece], *,
                suppress: Fraction = Fraction(0),
                kinds: Counter[DefenderKind] | None = None) -> tuple[str, dict[str, Fraction]]:
    """The differential and exact odds of an attack as the US player may know them
    (``kinds``: :func:`defender_kinds`, when the caller has them for this position)."""
    hex_id = defender.location
    if kinds is None:
        kinds = defender_kinds(match, defender)
    attack = support.combined_attack(units, set())
    tank_attacks = tuple(c.printed(p, "attack") for p in units if c.is_tank(p))
    line, items, chance = c.crt_line(hex_id), _kind_items(kinds), _chance(suppress)
    suribachi = c.in_suribachi_sector(hex_id)
    info = _attack_info(attack, tank_attacks, line, items, chance, suribachi)
    return info, dict(_outcome_odds(attack, tank_attacks, line, items, chance, suribachi))


def attack_info(match: Match, defender: Piece, units: list[Piece], *,
                suppress: Fraction = Fraction(0)) -> str:
    """:func:`attack_odds`'s text alone (8.2: what a bombardment option shows), without the
    odds as fractions, which only the text's caller would throw away."""
    hex_id = defender.location
    return _attack_info(support.combined_attack(units, set()),
                        tuple(c.printed(p, "attack") for p in units if c.is_tank(p)),
                        c.crt_line(hex_id), _defender_items(match, defender), _chance(suppress),
                        c.in_suribachi_sector(hex_id))


AttackFacts = tuple[str, tuple[tuple[str, float], ...]]
"""An attack's odds text (:func:`attack_odds`) and its odds as floats (:func:`odds_detail`)."""


def _attack_facts(units: list[Piece], line: str, kind_items: KindItems, suppress: Chance,
                  suribachi: bool) -> AttackFacts:
    """9.1, 12.2, 12.3: :data:`AttackFacts` of an attack by these units."""
    return _facts(support.combined_attack(units, set()),
                  tuple(c.printed(p, "attack") for p in units if c.is_tank(p)),
                  line, kind_items, suppress, suribachi)


@lru_cache(maxsize=65536)
def _facts(attack: int, tank_attacks: tuple[int, ...], line: str, kind_items: KindItems,
           suppress: Chance, suribachi: bool) -> AttackFacts:
    # The floats straight from the whole numbers: a quotient of two ints is the float
    # nearest the exact chance, as float() of its fraction is (no fraction made).
    den, nums = _outcome_numerators(attack, tank_attacks, line, kind_items, suppress, suribachi)
    odds: dict[str, int] = {}
    for effects, n in nums:
        for e in effects:
            odds[e] = odds.get(e, 0) + n
    return (_attack_info(attack, tank_attacks, line, kind_items, suppress, suribachi),
            tuple((k, odds[k] / den) for k in EFFECT_NAMES if k in odds))


@lru_cache(maxsize=65536)
def _attack_info(attack: int, tank_attacks: tuple[int, ...], line: str, kind_items: KindItems,
                 suppress: Chance, suribachi: bool) -> str:
    """:func:`attack_odds`'s text: the differential, then :func:`_outcome_text`."""
    text = _outcome_text(attack, tank_attacks, line, kind_items, suppress, suribachi)
    if len(kind_items) == 1:
        d = kind_items[0][0].defense
        head = f"attack {attack} vs defense {d} = {attack - d:+d} on the {line} line"
    else:
        mean = sum(k.defense * n for k, n in kind_items) / sum(n for _, n in kind_items)
        head = f"attack {attack} vs a dug-in unit (defense about {mean:.1f}) on the {line} line"
    return f"{head}: {text}"


# -- the combat phase --------------------------------------------------------------------

def us_combat_phase(match: Match, *, first: bool) -> Flow:
    """5.1.2 (first: bombardment 8.0, then attacks) / 5.1.4 (second: attacks only).

    In the first phase the markers go on each attack as it is declared (option
    ``bombardment_timing=per_attack``, the default) or all at the start (``phase_start``:
    :func:`bombardment_step`).

    Every decision may be asked again (a fork): the args of its resume point say which step
    of the phase it is in (``step``: the forced beach attacks, the bombardment step, the
    attacks), the attack (its defender's hex) and how far it has come (:func:`declare_attack`)."""
    entry = "us_combat_1" if first else "us_combat_2"
    back = match.resumed(entry)
    here = c.Resume(entry)
    step = c.back_at(back, "step")
    if first and back is None:
        us_bombardment.start_phase(match)
    if first and us_bombardment.timing(match) == us_bombardment.PHASE_START:
        if step in (None, "bombard"):
            yield from bombardment_step(match, resume=here.then(step="bombard"), back=back)
    elif step in (None, "forced"):
        yield from forced_beach_attacks(match, first=first, resume=here.then(step="forced"),
                                        back=back)
    if back is not None and step == "attacks" and "attack" in back:
        yield from declare_attack(match, _defender_of(match, back), first=first,
                                  resume=here.then(step="attacks", attack=back["attack"]),
                                  back=back)
    while True:
        targets = defenders(match)
        if not targets:
            break
        options = [Option(END, "End the combat phase")]
        options += [Option(p.location, f"Attack {p.location} ({'dug in' if c.is_dug_in(p) else p.id}, "
                           f"{c.crt_line(p.location)})") for p in targets]
        answer = (yield from ask_str(c.ask(here, choose(c.US, "Attack which Japanese hex?", "9.0",
                                                        options, kind="attack_defender"),
                                           step="attacks")))
        if answer == END:
            break
        defender = c.units_at(match, answer, c.JAPAN)[0]
        yield from declare_attack(match, defender, first=first,
                                  resume=here.then(step="attacks", attack=answer))
    if first:
        lose_unused_markers(match)
    return None


def _defender_of(match: Match, back: Mapping[str, JSON]) -> Piece:
    """The defender of the attack a resume point is in (:func:`declare_attack`): the unit in
    the hex attacked until the attack is resolved, then the unit named (revealed, 9.1)."""
    if back.get("stage") == "resolve":
        return match.state.pieces[str(back["defender"])]
    return c.units_at(match, str(back["attack"]), c.JAPAN)[0]


def lose_unused_markers(match: Match) -> None:
    """8.2: "Unused markers are lost; they may not be accumulated"."""
    if match.state.vars[c.V_BOMBARDMENT]:
        match.emit("bombardment_lost", "8.2", f"{match.state.vars[c.V_BOMBARDMENT]} unused "
                   "bombardment markers are lost", markers=match.state.vars[c.V_BOMBARDMENT])
        match.state.vars[c.V_BOMBARDMENT] = 0


def declare_attack(match: Match, defender: Piece, *, first: bool,
                   forced: dict[str, list[Piece]] | None = None,
                   resume: c.Resume | None = None,
                   back: Mapping[str, JSON] | None = None) -> Procedure[bool | None]:
    """9.1a: add attacking hexes one at a time, then declare (or cancel before declaring);
    8.2: in the first combat phase, while markers are left, 0-2 of them on the defender;
    then the attack is resolved.

    ``forced`` (11.2) holds units that must attack (landed on the defender's beach hex): they
    are in the attack from the start, it cannot be cancelled, and adjacent units may join.
    Returns None when cancelled, else whether the defender left its hex.

    Entered again (``back``, a fork) at the stage its args name: adding attackers (the hexes
    ``chosen``), the markers (the attack declared with those), or its resolution
    (:func:`apply_result`).
    """
    stage = c.back_at(back, "stage")
    if back is not None and stage == "resolve":
        return (yield from apply_result(match, back, resume=resume, back=back))
    if back is not None and stage == "markers":
        chosen = [str(h) for h in back["chosen"]]
        avail = attacker_hexes(match, defender.location)
        groups: dict[str, list[Piece]] | None = {**(forced or {}), **{h: avail[h] for h in chosen}}
    else:
        groups = yield from choose_attackers(match, defender, forced=forced, resume=resume,
                                             back=back)
    if groups is None:
        return None
    markers = 0
    if first and match.state.vars[c.V_BOMBARDMENT]:
        chosen = [h for h in groups if h not in (forced or {})]
        markers = yield from choose_markers(match, defender, groups, least=0,
                                            resume=None if resume is None
                                            else resume.then(stage="markers", chosen=chosen))
    return (yield from resolve_attack(match, defender, groups, markers=markers, resume=resume))


def choose_attackers(match: Match, defender: Piece, *,
                     forced: dict[str, list[Piece]] | None = None,
                     bombardment_step: bool = False, resume: c.Resume | None = None,
                     back: Mapping[str, JSON] | None = None
                     ) -> Procedure[dict[str, list[Piece]] | None]:
    """9.1a: the player adds attacking hexes one at a time (each option with the odds of the
    attack so far), then declares; before declaring he may cancel, unless the attack is a
    forced one (11.2). Returns the attacking units by hex, or None when cancelled. Asked
    again from ``resume`` with the hexes chosen so far (``back``: a fork)."""
    hex_id = defender.location
    chosen: list[str] = [str(h) for h in back["chosen"]] \
        if back is not None and back.get("stage") == "add" else []
    preset = dict(forced or {})
    extra = {"bombardment_step": True} if bombardment_step else {}
    line, suribachi = c.crt_line(hex_id), c.in_suribachi_sector(hex_id)
    while True:
        avail = attacker_hexes(match, hex_id)
        units = [p for us in preset.values() for p in us] + [p for h in chosen for p in avail.get(h, [])]
        options = [] if preset else [Option(CANCEL, "Cancel (no attack)")]
        # one position for every option of this decision
        kinds = _defender_items(match, defender)
        if units:
            info, shown = _attack_facts(units, line, kinds, NO_SUPPRESSION, suribachi)
            options.append(Option(DECLARE, f"Declare the attack with {', '.join(p.id for p in units)}",
                                  info, _shown_detail(units, shown)))
        for h, us in sorted(avail.items()):
            if h in chosen:
                continue
            info, shown = _attack_facts(units + us, line, kinds, NO_SUPPRESSION, suribachi)
            options.append(Option(h, f"Add {', '.join(p.id for p in us)} from {h} "
                                  f"(attack {support.combined_attack(us, set())})", info,
                                  _shown_detail(units + us, shown)))
        answer = (yield from ask_str(c.ask(resume, choose(
            c.US, f"Attack {hex_id}: add which attackers?", "9.1a", options, kind="attack_add",
            context={"defender": hex_id, "chosen": list(chosen), **extra}),
            stage="add", chosen=list(chosen))))
        if answer == CANCEL:
            return None
        if answer == DECLARE:
            break
        chosen.append(answer)
    return {**preset, **{h: avail[h] for h in chosen}}  # nothing has changed since avail


def _shown_detail(units: list[Piece], shown: tuple[tuple[str, float], ...]) -> dict[str, JSON]:
    """:func:`odds_detail` from the odds already as floats."""
    return {"attack": support.combined_attack(units, set()), "odds": dict(shown)}


def choose_markers(match: Match, defender: Piece, groups: dict[str, list[Piece]], *,
                   least: int, resume: c.Resume | None = None) -> Procedure[int]:
    """8.2: how many bombardment markers (``least`` to two a hex, no more than are left) go
    on the defender of a declared attack; each option shows the odds with the chance of
    suppression (8.3). Asked again from ``resume`` (a fork)."""
    hex_id = defender.location
    left = match.state.vars[c.V_BOMBARDMENT]
    all_units = [p for us in groups.values() for p in us]
    q = us_bombardment.suppress_chance(match)
    options = []
    for k in range(least, us_bombardment.room(match, hex_id) + 1):
        info = attack_info(match, defender, all_units, suppress=1 - (1 - q) ** k)
        options.append(Option(k, f"{k} bombardment marker(s)", info))
    return (yield from ask_int(c.ask(resume, choose(
        c.US, f"Bombard {hex_id} with how many markers ({left} left)?", "8.2", options,
        kind="bombardment_markers", context={"defender": hex_id}))))


def commit_attack(match: Match, defender: Piece, attackers: list[Piece]) -> None:
    """9.0: a defender is the subject of one attack a combat phase and a unit attacks once;
    both are spent from the moment the attack is declared."""
    v = match.state.vars
    if defender.id not in v[c.V_ATTACKED]:
        v[c.V_ATTACKED].append(defender.id)
    done = set(v[c.V_ATTACKERS])
    v[c.V_ATTACKERS].extend(p.id for p in attackers if p.id not in done)


def resolve_attack(match: Match, defender: Piece, groups: dict[str, list[Piece]], *,
                   markers: int = 0, suppressed: bool = False,
                   resume: c.Resume | None = None) -> Procedure[bool]:
    """9.1, 9.2.1, 15.2: resolve a declared attack (a dug-in defender read on the CRMT Dug-In
    column, 15.2), first bombarding the defender with ``markers``
    (8.2, 8.3), or with ``suppressed`` its suppression by markers already rolled (8.3b,
    bombardment_step). Returns whether the defender left its hex (eliminated or redeployed).
    The rolls made, its result is applied by :func:`apply_result`."""
    hex_id = defender.location
    attackers = [p for us in groups.values() for p in us]
    commit_attack(match, defender, attackers)
    if markers:
        suppressed = us_bombardment.bombard(match, defender, markers)
    # 9.1 b-c: the defender's strength counts now; the player sees what it was.
    d = c.printed(defender, "defense")
    shown = {name: c.printed(defender, name) for name in ("attack", "defense", "movement")}
    match.reveal(defender, "9.1", f"the defender in {hex_id} is {defender.id} "
                 f"({shown['attack']}-{shown['defense']}-{shown['movement']}, "
                 f"{in_words(defender.kind)})", unit=defender.id, hex=hex_id, attack=shown["attack"],
                 defense=shown["defense"], movement=shown["movement"])
    tanks = [p for p in attackers if c.is_tank(p)]
    stopped = set(support.anti_tank_fire(match, tanks, defender)) \
        if tanks and support.is_anti_tank(defender) else set()
    attack = support.combined_attack(attackers, stopped)
    diff = attack - d
    line = c.crt_line(hex_id)
    comp = c.components()
    roll = match.dice.d6(purpose="CRT", section="9.1d")
    result = comp.tables["crt"].lookup(diff, roll, line=line)
    cell = comp.tables["crmt"].lookup(CRMT_COLUMN, result)
    second = None
    if len(parse_outcome(cell)) > 1:
        second = match.dice.d6(purpose="CRMT", section="9.2.1")
    data = combat_data(attackers, stopped, defender, hex_id, line=line, roll=roll,
                       result=result, cell=cell, second=second)
    match.emit("combat", "9.1", combat_text(data), **data)
    must_lose = [p.id for p in tanks] if support.is_anti_tank(defender) else []
    fight: dict[str, JSON] = {
        "defender": defender.id, "hex": hex_id,
        "groups": [[h, [p.id for p in us]] for h, us in groups.items()], "crt": result,
        "second": second, "suppressed": suppressed, "must_lose": must_lose}
    return (yield from apply_result(match, fight, resume=resume))


def combat_data(attackers: list[Piece], stopped: set[str], defender: Piece, hex_id: str, *,
                line: str, roll: int, result: str, cell: str, second: int | None) -> dict[str, JSON]:
    """9.1, 12.2, 12.3: an attack's numbers as its event carries them: each attacking unit's
    factor, their combined strength, the defender's strength, the differential, the
    modifiers (12.3 a tank kept out by anti-tank fire; 9.1b the terrain line's column
    shift), the CRT roll and result, and the CRMT Dug-In cell with its second roll."""
    factors = {p.id: c.printed(p, "attack") for p in attackers}
    mods = [modifier("12.3", f"anti-tank fire stops {pid}", -factors[pid])
            for pid in factors if pid in stopped]
    attack = sum(factors.values()) + sum(int(str(m["value"])) for m in mods)
    defense = c.printed(defender, "defense")
    return {"attackers": list(factors), "factors": factors, "attack": attack,
            "defender": defender.id, "hex": hex_id, "defense": defense,
            "differential": attack - defense, "line": line,
            "modifiers": [*mods, *c.line_modifiers(line)], "roll": roll, "crt": result,
            "crmt": cell, "second": second}


def combat_text(fight: Mapping[str, Any]) -> str:
    """9.1: an attack's log text, made from its event's data (:func:`combat_data`)."""
    mods = fight["modifiers"]
    return (f"{', '.join(fight['attackers'])} ({fight['attack']}) attack {fight['hex']} "
            f"({fight['defense']}) at {fight['differential']:+d} on the {fight['line']} line"
            f"{' (' + modifiers_text(mods) + ')' if mods else ''}: roll {fight['roll']} -> "
            f"{fight['crt']}; CRMT Dug-In: {fight['crmt']}"
            + (f", roll {fight['second']}" if fight["second"] else ""))


FIGHT = ("defender", "hex", "groups", "crt", "second", "suppressed", "must_lose")
"""What :func:`apply_result` knows of an attack resolved (ids, the CRT result, the rolls)."""


def apply_result(match: Match, fight: Mapping[str, JSON], *, resume: c.Resume | None = None,
                 back: Mapping[str, JSON] | None = None) -> Procedure[bool]:
    """9.2.1: apply the effects of an attack's CRMT branch in order: De, (A) (12.3: a tank
    shot at by anti-tank fire first), (A)s unless suppressed (8.3b), DR and DRIP (15.3,
    15.4), A1-A3 each attacking hex's stack (9.3), Ae, AA (9.4); then the markers come off
    (8.2) and the sectors are checked (13.0). ``fight`` names the attack by ids (the
    defender, its hex, the attacking units by hex, the CRT result and any second roll, the
    tanks that must take the first loss, the suppression): every decision here is asked
    again from it and the effect reached (``term``, ``vacated``, a fork's ``back``).
    Returns whether the defender left its hex (eliminated or redeployed)."""
    pieces = match.state.pieces
    fight = {key: fight[key] for key in FIGHT}  # not what a fork's args say of the effect reached
    hex_id = str(fight["hex"])
    defender = pieces[str(fight["defender"])]
    groups = {str(h): [pieces[i] for i in ids] for h, ids in fight["groups"]}
    attackers = [p for us in groups.values() for p in us]
    result = str(fight["crt"])
    cell = c.components().tables["crmt"].lookup(CRMT_COLUMN, result)
    second = fight["second"]
    branch = parse_outcome(cell)[0] if second is None else outcome_for(cell, int(second))
    suppressed = bool(fight["suppressed"])
    must_lose = [pieces[i] for i in fight["must_lose"]]
    start = int(back["term"]) if back is not None else 0
    vacated = bool(back["vacated"]) if back is not None else False
    for term_no in range(start, len(branch.terms)):
        effect = branch.terms[term_no][0]
        at = None if resume is None else resume.then(**{
            **fight, "stage": "resolve", "term": term_no, "vacated": vacated,
            "must_lose": [p.id for p in must_lose]})
        if effect == "De":
            c.eliminate_jp(match, defender, "9.2.1", f"{result} result", result=result)
            vacated = True
        elif effect == "(A)" or (effect == "(A)s" and not suppressed):
            yield from attacker_step_loss(match, attackers, must_lose, resume=at)
        elif effect == "(A)s":
            match.emit("suppressed", "8.3b", "the defender was suppressed: no attacker step loss")
        elif effect in ("DR", "DRIP"):
            vacated = (yield from defender_redeploys(match, defender, in_place=effect == "DRIP",
                                                     hex_id=hex_id, resume=at, back=back)) \
                or vacated
        elif effect in ("A1", "A2", "A3"):
            skip = c.back_at(back, "group")
            for h in groups:
                if skip is not None:  # entered again at the retreat of this hex's stack
                    if h != skip:
                        continue
                    skip = None
                group = [p for p in c.units_at(match, h, c.US)]
                if group:
                    yield from c.retreat(match, group, int(effect[1]), "9.3",
                                         resume=None if at is None else at.then(group=h))
        elif effect == "Ae":
            for p in attackers:
                if c.components().map.is_hex_id(p.location):
                    c.eliminate_us(match, p, "9.2.1", "Ae result")
        elif effect == "AA" and vacated and not c.units_at(match, hex_id, c.JAPAN):
            yield from advance(match, hex_id, groups, resume=at)
        back = None
    us_bombardment.clear_markers(match, hex_id)
    c.update_cleared_sectors(match)
    return vacated


def attacker_step_loss(match: Match, attackers: list[Piece], must_lose: list[Piece], *,
                       resume: c.Resume | None = None) -> Procedure[None]:
    """9.2.1 (A), 12.3: one attacking unit loses a step, the player choosing which; an
    attacking tank shot at by anti-tank fire takes the first loss. The choice is asked
    again from ``resume`` (a fork)."""
    alive = [p for p in attackers if c.components().map.is_hex_id(p.location)]
    first = [p for p in must_lose if c.components().map.is_hex_id(p.location)]
    if first:
        c.us_step_loss(match, first[0], "12.3", "a tank attacking an anti-tank unit takes the loss")
        must_lose.remove(first[0])
        return None
    if not alive:
        return None
    if len(alive) == 1:
        c.us_step_loss(match, alive[0], "9.2.1", "(A) result")
        return None
    answer = (yield from ask_str(c.ask(resume, choose(
        c.US, "Which attacking unit loses a step?", "9.2.1",
        [Option(p.id, f"{p.id} ({'support' if c.is_support(p) else 'Marine'}, {p.steps} step(s))")
         for p in alive], kind="step_loss"))))
    c.us_step_loss(match, match.state.pieces[answer], "9.2.1", "(A) result")
    return None


def defender_redeploys(match: Match, defender: Piece, *, in_place: bool,
                       hex_id: str | None = None, resume: c.Resume | None = None,
                       back: Mapping[str, JSON] | None = None) -> Procedure[bool]:
    """9.2.1 DR/DRIP, 15.3, 15.4, 17.0: the defender redeploys (by the Japanese procedure);
    on Mount Suribachi the result is NE and the defender stays in its hex, face up. Returns
    whether the defender's hex (``hex_id``, by default where it stands) is now free of
    Japanese units. Entered again within the redeployment from ``back`` (a fork)."""
    hex_id = defender.location if hex_id is None else hex_id
    if c.in_suribachi_sector(hex_id):
        c.reveal(defender)
        match.emit("suribachi_holds", "17.0", f"{'DRIP' if in_place else 'DR'} on Suribachi is "
                   f"NE: {defender.id} stays in {hex_id}, face up", unit=defender.id, hex=hex_id)
        return False
    from .japanese_operations import redeploy

    flow = redeploy(match, defender, in_place=in_place, section="9.2.1", resume=resume, back=back)
    if flow is not None:  # a procedure that asks nothing may be a plain function
        yield from flow
    return not c.units_at(match, hex_id, c.JAPAN)


def advance(match: Match, hex_id: str, groups: dict[str, list[Piece]], *,
            resume: c.Resume | None = None) -> Procedure[None]:
    """9.4, 12.2, 7.2: on AA one attacking unit (with the support unit stacked with it) may
    advance into the defender's vacated hex, ignoring EZOC (7.2). Asked again from
    ``resume`` (a fork)."""
    options = [Option("none", "Do not advance")]
    cands: dict[str, list[Piece]] = {}
    for h, units in groups.items():
        if h == hex_id:
            continue  # 11.2: units that landed on the defender's own beach hex are already there
        alive = [p for p in units if p.location == h]
        battalions = [p for p in alive if not c.is_support(p)]
        # 9.4: only one unit advances; 12.2: a support unit goes with the battalion it is
        # stacked with; support units stacked together advance one at a time.
        choices = [alive] if battalions else [[p] for p in alive]
        for group in choices:
            key = h if battalions or len(choices) == 1 else f"{h}:{group[0].id}"
            if group and c.may_stack(match, group, hex_id):
                cands[key] = group
                options.append(Option(key, f"Advance {', '.join(p.id for p in group)} from {h}"))
    if not cands:
        return None
    answer = (yield from ask_str(c.ask(resume, choose(
        c.US, f"Advance into {hex_id}?", "9.4", options, kind="advance", context={"hex": hex_id}))))
    if answer == "none":
        return None
    for p in cands[answer]:
        match.state.pieces.move(p.id, hex_id)
    match.emit("advance", "9.4", f"{', '.join(p.id for p in cands[answer])} advance from "
               f"{answer.partition(':')[0]} into {hex_id}", units=[p.id for p in cands[answer]],
               frm=answer.partition(':')[0], to=hex_id)
    return None


def forced_beach_attacks(match: Match, *, first: bool, resume: c.Resume | None = None,
                         back: Mapping[str, JSON] | None = None) -> Procedure[None]:
    """11.2: units that landed on a Japanese-held beach hex must attack it; if the Japanese
    unit is not eliminated or forced out, those US units are eliminated. Entered again
    within the attack on the hex ``back`` names (a fork)."""
    for hex_id, defender, landed in forced_attacks(match, back):
        left = yield from declare_attack(
            match, defender, first=first, forced={hex_id: landed},
            resume=None if resume is None else resume.then(attack=hex_id, landed=[p.id for p in landed]),
            back=back)
        back = None
        if not left:
            beach_not_taken(match, hex_id, landed)
    return None


def forced_attacks(match: Match, back: Mapping[str, JSON] | None = None
                   ) -> Iterator[tuple[str, Piece, list[Piece]]]:
    """11.2: each beach hex that units landed on must attack, with its Japanese defender and
    those units, announced in the log one at a time as the caller reaches it (an earlier
    attack may have removed either side; that hex is then skipped); the list is cleared at
    the end. Entered again within the attack on the hex ``back`` names (a fork), the hexes
    before it done and that one announced already."""
    must: dict[str, list[str]] = match.state.vars[c.V_MUST_ATTACK]
    again = None if back is None else str(back["attack"])
    for hex_id, ids in sorted(must.items()):
        if again is not None and back is not None:
            if hex_id < again:
                continue
            if hex_id == again:
                again = None
                yield hex_id, _defender_of(match, back), \
                    [match.state.pieces[i] for i in back["landed"]]
                continue
        jp = c.units_at(match, hex_id, c.JAPAN)
        landed = [match.state.pieces[i] for i in ids if match.state.pieces[i].location == hex_id]
        if not jp or not landed:
            continue
        match.emit("forced_attack", "11.2", f"{', '.join(p.id for p in landed)} must attack "
                   f"{hex_id}; adjacent units may join and bombardment may support it (8.2, 9.0)",
                   units=[p.id for p in landed], hex=hex_id, rules=["8.2", "9.0"])
        yield hex_id, jp[0], landed
    must.clear()


def beach_not_taken(match: Match, hex_id: str, landed: list[Piece]) -> None:
    """11.2: the Japanese unit held the beach hex: the units that landed there are
    eliminated."""
    for p in landed:
        if p.location == hex_id:
            c.eliminate_us(match, p, "11.2", "the beach was not taken")


# -- 8.2 read literally: the bombardment step (option bombardment_timing=phase_start) -----

@dataclass
class DeclaredAttack:
    """8.2: an attack declared at the start of the first combat phase, to be resolved after
    every bombardment marker has been rolled."""

    hex_id: str
    groups: dict[str, list[Piece]]
    markers: list[Piece]
    landed: list[Piece] = field(default_factory=list)  # 11.2: units that must take the hex
    suppressed: bool = False
    defender: str = ""  # 9.1a: the id of the unit declared the subject of the attack

    def to_json(self) -> dict[str, JSON]:
        """The attack by ids (what a resume point keeps of it)."""
        return {"hex": self.hex_id, "groups": [[h, [p.id for p in us]] for h, us in self.groups.items()],
                "markers": [p.id for p in self.markers], "landed": [p.id for p in self.landed],
                "suppressed": self.suppressed, "defender": self.defender}

    @staticmethod
    def from_json(pieces: Pieces, data: Mapping[str, JSON]) -> DeclaredAttack:
        """The attack :meth:`to_json` kept, with the pieces of ``pieces``."""
        return DeclaredAttack(data["hex"], {h: [pieces[i] for i in ids] for h, ids in data["groups"]},
                              [pieces[i] for i in data["markers"]], [pieces[i] for i in data["landed"]],
                              data["suppressed"], data["defender"])


def bombardment_step(match: Match, *, resume: c.Resume | None = None,
                     back: Mapping[str, JSON] | None = None) -> Procedure[list[DeclaredAttack]]:
    """8.2 read literally (``bombardment_timing=phase_start``): "At the beginning of each US
    first combat phase" the player declares, one after another, the attacks to be bombarded,
    each with its attackers (9.1a) and one or two markers on its defender (two a hex at most,
    within the markers available); the forced beach attacks of 11.2 come first (0-2 markers:
    they are made anyway). Then every marker is rolled (8.3), the unused ones are lost (8.2),
    and the declared attacks are resolved in the order declared (9.1). Returns them.

    Every decision is asked again from ``resume`` with the attacks declared so far and the
    part of the step it is in (``bombard``: a forced attack's declaration, the next target,
    its declaration, the resolution of the attack at ``index``); ``back`` enters the step
    again there (a fork)."""
    pieces = match.state.pieces
    part = c.back_at(back, "bombard")
    declared = [DeclaredAttack.from_json(pieces, a) for a in back["declared"]] \
        if back is not None and part is not None else []

    def at(**more: JSON) -> c.Resume | None:
        return None if resume is None else resume.then(
            declared=[a.to_json() for a in declared], **more)

    if part in (None, "forced"):
        again = back if part == "forced" else None
        for hex_id, defender, landed in forced_attacks(match, again):
            where = at(bombard="forced", attack=hex_id, landed=[p.id for p in landed])
            groups = yield from _bombarded_attackers(match, defender, {hex_id: landed}, where, again)
            assert groups is not None  # 11.2: a forced attack cannot be cancelled
            declared.append((yield from declare_bombarded(
                match, defender, groups, least=0, landed=landed,
                resume=None if where is None else where.then(
                    stage="markers", chosen=[h for h in groups if h != hex_id]))))
            again = None
    if part in (None, "forced", "target", "declare"):
        again = back if part == "declare" else None
        while match.state.vars[c.V_BOMBARDMENT] > 0:
            if again is not None:
                target: Piece | None = _defender_of(match, again)
            else:
                target = yield from choose_bombarded_defender(match, resume=at(bombard="target"))
            if target is None:
                break
            where = at(bombard="declare", attack=target.location)
            groups = yield from _bombarded_attackers(match, target, None, where, again)
            again = None
            if groups is not None:
                declared.append((yield from declare_bombarded(
                    match, target, groups, least=1,
                    resume=None if where is None else where.then(stage="markers", chosen=list(groups)))))
        for attack in declared:
            if attack.markers:  # 8.3: nothing has moved since the declarations
                attack.suppressed = us_bombardment.resolve_markers(
                    match, c.units_at(match, attack.hex_id, c.JAPAN)[0], attack.markers)
        lose_unused_markers(match)
    start = int(back["index"]) if back is not None and part == "resolve" else 0
    for index in range(start, len(declared)):
        attack = declared[index]
        vacated = yield from resolve_declared(match, attack, resume=at(bombard="resolve", index=index),
                                              back=back if index == start and part == "resolve" else None)
        if attack.landed and not vacated:
            beach_not_taken(match, attack.hex_id, attack.landed)
    return declared


def _bombarded_attackers(match: Match, defender: Piece, forced: dict[str, list[Piece]] | None,
                         where: c.Resume | None, back: Mapping[str, JSON] | None
                         ) -> Procedure[dict[str, list[Piece]] | None]:
    """8.2, 9.1a: the attackers of an attack declared in the bombardment step
    (:func:`choose_attackers`); entered again at its markers (``back``, a fork), the
    attackers chosen as its args say."""
    if back is not None and back.get("stage") == "markers":
        avail = attacker_hexes(match, defender.location)
        return {**(forced or {}), **{h: avail[h] for h in back["chosen"]}}
    return (yield from choose_attackers(match, defender, forced=forced, bombardment_step=True,
                                        resume=where, back=back))


def choose_bombarded_defender(match: Match, *, resume: c.Resume | None = None
                              ) -> Procedure[Piece | None]:
    """8.2: the Japanese hex of the next attack to bombard, or None when the player has
    declared all he wants bombarded (or no defender is left). Asked again from ``resume``."""
    targets = defenders(match)
    if not targets:
        return None
    left = match.state.vars[c.V_BOMBARDMENT]
    options = [Option(END, "No more bombarded attacks: resolve the bombardment")]
    options += [Option(p.location, f"Declare an attack on {p.location} "
                       f"({'dug in' if c.is_dug_in(p) else p.id}, {c.crt_line(p.location)}) "
                       "and bombard it") for p in targets]
    answer = (yield from ask_str(c.ask(resume, choose(
        c.US, f"Declare an attack to bombard ({left} markers left)?", "8.2", options,
        kind="bombardment_attack", context={"markers_left": left}))))
    if answer == END:
        return None
    return c.units_at(match, answer, c.JAPAN)[0]


def declare_bombarded(match: Match, defender: Piece, groups: dict[str, list[Piece]], *,
                      least: int, landed: list[Piece] | None = None,
                      resume: c.Resume | None = None) -> Procedure[DeclaredAttack]:
    """8.2, 9.1a: an attack declared in the bombardment step: the player puts ``least`` to
    two markers on its defender (asked again from ``resume``, a fork); the markers are
    spent, and the defender and the attackers are committed for the phase (9.0) until the
    attack is resolved."""
    hex_id = defender.location
    count = 0
    if us_bombardment.room(match, hex_id) >= max(least, 1):
        count = yield from choose_markers(match, defender, groups, least=least, resume=resume)
    placed = us_bombardment.place_markers(match, hex_id, count)
    attackers = [p for us in groups.values() for p in us]
    commit_attack(match, defender, attackers)
    match.emit("attack_declared", "8.2", f"the attack on {hex_id} by "
               f"{', '.join(p.id for p in attackers)} is declared with {len(placed)} "
               "bombardment marker(s); it is resolved after the bombardment",
               hex=hex_id, attackers=[p.id for p in attackers], markers=len(placed))
    return DeclaredAttack(hex_id, groups, placed, list(landed or []), defender=defender.id)


def resolve_declared(match: Match, attack: DeclaredAttack, *, resume: c.Resume | None = None,
                     back: Mapping[str, JSON] | None = None) -> Procedure[bool]:
    """9.1, 8.3b: resolve an attack of the bombardment step with the suppression its markers
    rolled. Earlier attacks may have moved things (a retreat takes a hex's whole stack, 9.3;
    a redeployment may swap the unit in the hex, 15.3): the attack is made on the unit
    declared its subject (9.1a), still in the hex, with the attackers still in their hexes;
    if the unit has gone (another one may stand there now, perhaps one already attacked this
    phase, 9.0) or no attacker is left, it lapses. Returns whether the hex is now free of
    Japanese units. Its decisions are asked again from ``resume``; ``back`` enters its
    resolution again (:func:`apply_result`, a fork)."""
    if back is not None:
        return (yield from apply_result(match, back, resume=resume, back=back))
    jp = c.units_at(match, attack.hex_id, c.JAPAN)
    target = next((p for p in jp if not attack.defender or p.id == attack.defender), None)
    groups = {h: kept for h, us in attack.groups.items()
              if (kept := [p for p in us if p.location == h])}
    if target is not None and groups:
        return (yield from resolve_attack(match, target, groups, suppressed=attack.suppressed,
                                          resume=resume))
    why = ("no Japanese unit is left there" if not jp else
           "the unit it was declared on has left the hex" if target is None else
           "none of its attackers is left in place")
    match.emit("attack_lapsed", "9.1a", f"the attack declared on {attack.hex_id} is not made: "
               f"{why}", hex=attack.hex_id)
    us_bombardment.clear_markers(match, attack.hex_id)
    return not jp
