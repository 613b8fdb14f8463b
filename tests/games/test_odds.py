"""Attack odds shown to players (9.1a Bonins, 6.0 Iwo Jima 1945, 5.3 example game): exact
distributions over whole outcomes, shown as whole percentages that add up to 100%."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core.engine.agents import RandomAgent
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.odds import describe, describe_counts, percents, percents_counts, total
from tabletop.core.engine.registry import load_game
from tabletop.games.iwo_1945 import attacks as attacks_1945
from tabletop.games.iwo_bonins import combat as bonins_combat
from tabletop.games.iwo_bonins import common as bonins_common

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"iwo_bonins": load_game("iwo_bonins"), "iwo_1945": load_game("iwo_1945"),
         "skirmish": load_game(str(ROOT / "docs" / "example" / "skirmish"))}
PERCENT = re.compile(r"(<1|\d+)%")


def shown_groups(info: str) -> list[list[int]]:
    """The percentages of each part of an odds line (parts split by ';'; a part with a single
    figure below 100, such as "may advance 42%", is a chance on its own, not a set of
    outcomes)."""
    groups = []
    for part in info.split(";"):
        found = [0 if f == "<1" else int(f) for f in PERCENT.findall(part)]
        if len(found) > 1 or found == [100]:
            groups.append(found)
    return groups


@settings(max_examples=200, deadline=None)
@given(st.lists(st.fractions(min_value=0, max_value=1), min_size=1, max_size=8)
       .filter(lambda xs: sum(xs) > 0))
def test_percents_always_add_up_to_100(weights: list[Fraction]) -> None:
    """Odds display: any complete distribution rounds to whole percentages adding up to 100."""
    whole = sum(weights, Fraction(0))
    dist = {f"o{i}": w / whole for i, w in enumerate(weights)}
    assert total(dist) == 1 and sum(percents(dist).values()) == 100
    assert [sum(g) for g in shown_groups(describe(dist))] == [100]


def _percents_in_fractions(dist: dict[str, Fraction]) -> dict[str, int]:
    """The rule of percents, worked in fractions (what odds.percents computed before it
    worked in whole numbers): the reference it must equal."""
    floors = {k: int(p * 100) for k, p in dist.items()}
    missing = 100 - sum(floors.values())
    order = sorted(dist, key=lambda k: -(dist[k] * 100 - floors[k]))
    for k in order[:missing]:
        floors[k] += 1
    return floors


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=8).filter(lambda xs: sum(xs) > 0),
       st.lists(st.integers(1, 12), min_size=1, max_size=8))
def test_percents_equal_the_fraction_rule(weights: list[int], denominators: list[int]) -> None:
    """Odds display: the whole-number percents equal those of the rule worked in fractions,
    ties (equal remainders, in the distribution's order) included."""
    parts = [Fraction(w, denominators[i % len(denominators)]) for i, w in enumerate(weights)]
    whole = sum(parts, Fraction(0))
    dist = {f"o{i}": w / whole for i, w in enumerate(parts)}
    assert percents(dist) == _percents_in_fractions(dist)
    assert list(percents(dist)) == list(dist)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=8).filter(lambda xs: sum(xs) > 0),
       st.integers(1, 4))
def test_odds_of_whole_counts_read_as_the_fractions_they_are(counts: list[int], scale: int) -> None:
    """Odds display: a distribution given as whole counts of equally likely ways
    (``percents_counts``, ``describe_counts``; the Bonins and 1945 odds texts), over a total
    however scaled, reads exactly as the same distribution given in fractions (outcomes that
    cannot happen left out, "<1%" and ties included); counts that do not add up to their
    total are refused."""
    whole = sum(counts) * scale
    named = {f"o{i}": n * scale for i, n in enumerate(counts)}
    as_fractions = {k: Fraction(n, whole) for k, n in named.items()}
    assert percents_counts(named, whole) == percents(as_fractions)
    assert describe_counts(named, whole) == describe(as_fractions)
    with pytest.raises(TabletopError):
        describe_counts(named, whole + 1)


def _bonins_combos_in_fractions(attack: int, tanks: list[int], line: str,
                                kinds: Counter[bonins_combat.DefenderKind], suppress: Fraction,
                                suribachi: bool) -> dict[tuple[str, ...], Fraction]:
    """9.1, 12.3: an attack's whole outcomes summed in fractions, kind by kind and anti-tank
    outcome by outcome (what outcome_combos computed before it summed whole numbers)."""
    total_w = sum(kinds.values())
    order = {k: i for i, k in enumerate(bonins_combat.EFFECT_NAMES)}
    combos: dict[tuple[str, ...], Fraction] = {}
    for kind, weight in kinds.items():
        for kept, p_kept in bonins_combat._tank_outcomes(list(tanks), kind.anti_tank):
            diff = attack - sum(tanks) + kept - kind.defense
            p = Fraction(weight, total_w) * p_kept
            for key, p_key in bonins_combat._differential_combos(diff, line, suppress, suribachi):
                combos[key] = combos.get(key, Fraction(0)) + p * p_key
    return dict(sorted(combos.items(), key=lambda kv: [order[e] for e in kv[0]]))


@settings(max_examples=150, deadline=None)
@given(attack=st.integers(0, 40), tanks=st.lists(st.integers(1, 9), max_size=3),
       line=st.sampled_from(["clear", "rough", "hill", "mountain", "ravine"]),
       defenses=st.lists(st.tuples(st.integers(0, 6), st.none() | st.integers(1, 6)), min_size=1, max_size=5),
       suppress=st.fractions(min_value=0, max_value=1), suribachi=st.booleans())
def test_bonins_outcomes_add_up_to_one(attack: int, tanks: list[int], line: str,
                                       defenses: list[tuple[int, int | None]], suppress: Fraction,
                                       suribachi: bool) -> None:
    """9.1, 9.2.1, 12.3, 17.0: over any attack, defender mix, line and suppression, the whole
    outcomes' chances add up to one, agree with the per-effect odds, and the line shows two
    groups (defender, attackers) each adding up to 100%."""
    table = bonins_common.components().tables["crt"]
    if line not in table.lines:
        line = table.lines[0]
    kinds = Counter(bonins_combat.DefenderKind(d, a) for d, a in defenses)
    combos = bonins_combat.outcome_combos(attack, tanks, line, kinds, suppress=suppress,
                                          suribachi=suribachi)
    assert total(combos) == 1
    reference = _bonins_combos_in_fractions(attack, tanks, line, kinds, suppress, suribachi)
    assert list(combos.items()) == list(reference.items())  # the same chances, the same order
    per_effect = bonins_combat.outcome_odds(attack, tanks, line, kinds, suppress=suppress,
                                            suribachi=suribachi)
    for effect, p in per_effect.items():
        assert p == sum((q for eff, q in combos.items() if effect in eff), Fraction(0))
    groups = shown_groups(bonins_combat.describe(combos))
    assert all(sum(g) == 100 for g in groups)


@given(st.integers(1, 12))
def test_1945_dice_outcomes_add_up_to_one(dice: int) -> None:
    """6.0: the results of any number of attack dice (settled: 3s rerolled, 4s removed)
    add up to one."""
    chances = dict(attacks_1945.outcome_chances(dice))
    assert total(chances) == 1
    if dice < 2:
        assert chances == {(0, 0, 0): 1}


def _odds_lines_along(game: Game, seed: int, steps: int) -> list[str]:
    """Every option's odds line met while random players take ``steps`` decisions."""
    m = Match(game, seed=seed)
    agents = {s: RandomAgent(s, seed) for s in game.info.players}
    lines: list[str] = []
    for _ in range(steps):
        if m.pending is None:
            break
        lines += [o.info for o in m.pending.options if "%" in (o.info or "")]
        m.decide(agents[m.pending.player].choose(m.view(m.pending.player), m.pending))
    return lines


@settings(max_examples=12, deadline=None)
@given(game_id=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**31), steps=st.integers(50, 400))
def test_every_odds_line_in_random_positions_adds_up_to_100(game_id: str, seed: int, steps: int) -> None:
    """Odds display over random positions of every game with a table-driven attack: each set
    of outcomes an option shows adds up to exactly 100%."""
    for info in _odds_lines_along(GAMES[game_id], seed, steps):
        groups = shown_groups(info)
        assert groups, info
        assert all(sum(g) == 100 for g in groups), info


def test_odds_lines_are_met_in_each_game() -> None:
    """The property above is not empty: each game shows attack odds within a few hundred
    random decisions."""
    for game_id, game in GAMES.items():
        assert any(_odds_lines_along(game, seed, 400) for seed in range(6)), game_id


@given(kept=st.lists(st.sampled_from([1, 2, 5, 6]), max_size=8), dice=st.integers(0, 6))
def test_1945_reroll_outcomes_add_up_to_one(kept: list[int], dice: int) -> None:
    """6.0: what a reroll may bring (the chosen dice again beside the kept ones) adds up to
    one, and rerolling everything from nothing is the first roll's odds."""
    chances = dict(attacks_1945._reroll_chances(tuple(sorted(kept)), dice))
    assert total(chances) == 1
    if not kept and dice:
        assert chances == dict(attacks_1945.outcome_chances(dice))


@settings(max_examples=100, deadline=None)
@given(strength=st.integers(1, 70), drm=st.integers(-4, 6), armoured=st.booleans(),
       anti_armour=st.booleans())
def test_manila_fire_chances_add_up_and_never_tell_the_armour(strength: int, drm: int, armoured: bool,
                                                              anti_armour: bool) -> None:
    """Manila '45 10.3, 10.14, 6.5: the chances shown before a fire (E or no effect) add up to
    100% in each part, and are the same whether or not the hidden target is armoured."""
    from tabletop.core.engine.pieces import Piece
    from tabletop.games.manila45 import fire as manila_fire
    from tabletop.games.manila45.components import components as manila_components

    counters = manila_components().counters
    firer_id = next(i for i, k in counters.items() if ("anti_armor" in k.flags) == anti_armour)
    firer = Piece(firer_id, "unit", "US")
    drms = [(drm, "10.12", "terrain")]
    shown = manila_fire.shown_chances(strength, [*drms, (2, "10.14", "armoured")] if armoured else drms,
                                      [firer])
    assert shown == manila_fire.shown_chances(strength, drms, [firer])
    groups = shown_groups(shown)
    assert groups and all(sum(g) == 100 for g in groups)
    assert ("armoured" in shown) == (not anti_armour)


@settings(max_examples=120, deadline=None)
@given(value=st.integers(1, 14), line=st.sampled_from(["class_1", "class_2", "class_3"]),
       armour=st.integers(0, 3), kind=st.sampled_from(["opportunity", "regular", "banzai"]),
       jvalue=st.integers(1, 10))
def test_valor_attack_odds_add_up_to_100(value: int, line: str, armour: int, kind: str,
                                         jvalue: int) -> None:
    """Valor of Arms VIII.D (Marine Attack Table) and IX.C (Japanese Attack Table): the odds
    shown before an attack, and why a Japanese unit fired, add up to 100%."""
    from tabletop.games.iwo_valor import common as valor
    from tabletop.games.iwo_valor import japanese_combat, marine_combat

    odds = valor.components().mat.odds(value, line=line, modifier=armour)
    assert total(odds) == 1
    assert [sum(g) for g in shown_groups(marine_combat.describe(odds))] == [100]
    text, _ = japanese_combat.odds_text(kind, jvalue)
    assert [sum(g) for g in shown_groups(text)] == [100]
