"""What is kept to make whole games fast gives the answers worked out afresh would:
3.0 what stands where (kept in the match's memo, :mod:`positions`) against scans of the pieces after every
decision of whole games; 6.0 the bot's reroll plans read from data/dice_plan.yaml against
the dynamic programme that wrote them."""

from __future__ import annotations

import gc
import random
import weakref
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.engine.errors import DataError
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import OFF_BOARD, Piece
from tabletop.core.engine.registry import make_agent
from tabletop.games.iwo_1945 import GAME, actions, attacks, bots, components
from tabletop.games.iwo_1945 import positions as P
from tools import iwo_1945_dice_plan

from .helpers import new_match, put_cube, put_regiment


def _scan(m: Match, pos: str, kind: str) -> list[Piece]:
    return [p for p in m.state.pieces.at(pos) if p.kind == kind]


def _check_index(m: Match) -> None:
    """Every position query of 3.0 against a scan of the pieces as they are now."""
    places = sorted(GAME.places(m) | {P.RESERVE, P.USMC_ELIMINATED, OFF_BOARD})
    for pos in places:
        assert P.markers_at(m, pos) == [p for p in m.state.pieces.at(pos) if p.kind in P.MARKER_KINDS]
        assert P.japanese_at(m, pos) == _scan(m, pos, "ija")
        assert P.usmc_at(m, pos) == _scan(m, pos, "marine")
        assert P.cube_at(m, pos) == next(iter(_scan(m, pos, "infiltration")), None)
        assert P.bunker_at(m, pos) == next(iter(_scan(m, pos, "bunker")), None)
        marines = _scan(m, pos, "marine")
        assert P.regiment_at(m, pos) == (marines[0].attrs["regiment"] if marines else None)
        assert P.is_vacant(m, pos) == (not P.markers_at(m, pos))
        assert P.is_japanese_occupied(m, pos) == bool(_scan(m, pos, "ija"))
        assert P.is_usmc_occupied(m, pos) == bool(marines)
    where = {}
    for rid in P.regiment_ids():
        alive = [p for p in m.state.pieces.select(kind="marine")
                 if p.attrs["regiment"] == rid and p.location not in (P.USMC_ELIMINATED, OFF_BOARD)]
        assert P.regiment_markers(m, rid) == alive
        where[rid] = alive[0].location if alive else None
        assert P.regiment_pos(m, rid) == where[rid]
        assert P.exhaustion_cube(m, rid) == next(
            (p for p in m.state.pieces.select(kind="exhaustion") if p.attrs.get("regiment") == rid), None)
    assert P.on_board(m) == [r for r in P.regiment_ids() if where[r] not in (None, P.RESERVE)]
    assert P.reserves(m) == [r for r in P.regiment_ids() if where[r] == P.RESERVE]
    for rid in [r for r in P.on_board(m) if where[r] in P.position_set()]:
        # what is kept while nothing moves, against working it out
        assert attacks.targets(m, rid) == attacks._targets(m, rid)
        assert actions.move_destinations(m, rid) == actions._destinations(m, rid)


def _play_checking(m: Match, agents: dict[str, Any]) -> int:
    _check_index(m)
    n = 0
    while m.pending is not None:
        d = m.pending
        m.decide(agents[d.player].choose(m.view(d.player), d))
        _check_index(m)
        n += 1
    return n


def test_3_0_board_index_answers_as_a_scan_after_every_decision() -> None:
    """3.0 (what stands where, kept while the pieces do not change): after every decision of
    whole games, with the heuristic bot and with random choices, every position query gives
    what a scan of the pieces gives."""
    for seed, bot in ((1, "heuristic"), (2, "heuristic"), (3, "random"), (4, "random")):
        agents = {s: make_agent(GAME, s, bot if s == P.USMC else "random", seed) for s in GAME.info.players}
        assert _play_checking(Match(GAME, seed=seed), agents) > 50


def test_3_0_board_index_follows_each_match_and_every_status_change() -> None:
    """3.0: two matches asked in turn each get their own pieces; an exhaustion cube marking a
    regiment by its status alone (no move), and a cube put down by hand, are seen at once."""
    one, two = new_match(seed=1), new_match(seed=2)
    put_regiment(one, "4/23", "airfield_1")
    put_regiment(two, "4/23", "airfield_2")
    assert P.regiment_pos(one, "4/23") == "airfield_1"
    assert P.regiment_pos(two, "4/23") == "airfield_2"
    assert P.regiment_pos(one, "4/23") == "airfield_1"
    cube = next(p for p in one.state.pieces.at(P.SUPPLY) if p.kind == "exhaustion")
    assert P.exhaustion_cube(one, "4/23") is None
    cube.attrs["regiment"] = "4/23"
    assert P.exhaustion_cube(one, "4/23") is cube
    assert P.exhaustion_cube(two, "4/23") is None
    put_cube(one, "infiltration", "airfield_1")
    assert P.cube_at(one, "airfield_1") is not None and P.cube_at(two, "airfield_1") is None
    _check_index(one)
    _check_index(two)


def _dice_plan_tables() -> list[str]:
    """data/dice_plan.yaml cut before each table: its head, then one text a table."""
    head, *tables = iwo_1945_dice_plan.TARGET.read_text(encoding="utf-8").split("\n- need: ")
    return [head + "\n", *(f"- need: {t}" + ("" if t.endswith("\n") else "\n") for t in tables)]


_NEEDS_AND_PRICES = [(need, lam) for need in bots.NEEDS for lam in bots.LAMBDAS]


def test_6_0_dice_plan_file_holds_a_table_a_need_and_price_in_order() -> None:
    """6.0 (the bot's dice plan): data/dice_plan.yaml is, as tools/iwo_1945_dice_plan.py
    writes it, its head and then one table for each need and price in the bot's order (each
    table checked against the programme below: together, the file is what the tool writes)."""
    head, *tables = _dice_plan_tables()
    assert head == iwo_1945_dice_plan.head()
    assert "".join([head, *tables]) == iwo_1945_dice_plan.TARGET.read_text(encoding="utf-8")
    assert [t.split("\n")[:2] for t in tables] == [
        [f"- need: {need}", f"  price: {lam!r}"] for need, lam in _NEEDS_AND_PRICES]


@pytest.mark.slow  # works out the plans of 1,819 pools at one need and price (of 15)
@pytest.mark.parametrize("at", range(len(_NEEDS_AND_PRICES)))
def test_6_0_dice_plan_table_is_the_dynamic_programme(at: int) -> None:
    """6.0 (the bot's dice plan): each table of data/dice_plan.yaml is exactly what
    tools/iwo_1945_dice_plan.py writes from the bot's dynamic programme now, every pool of up
    to 12 dice at its need and price: the same choices, ties broken alike (one test a table,
    so that pytest-xdist spreads them)."""
    need, lam = _NEEDS_AND_PRICES[at]
    assert _dice_plan_tables()[1 + at] == iwo_1945_dice_plan.table(need, lam)


def test_6_0_dice_plan_pools_are_the_compositions_in_order() -> None:
    """6.0 (the bot's dice plan): the pools of the table, by size, are the compositions of
    each size into counts of 1s, 2s, 5s and 6s in the order the programme walks them."""
    expected = [s for n in range(1, 11) for s in bots._compositions(n, 4)]
    assert bots.pools(10) == expected and len(set(expected)) == len(expected) == 1000


def test_6_0_reroll_plan_reads_the_table_and_works_out_the_rest() -> None:
    """6.0 (the bot's dice plan): a pool in the table is read without working anything out;
    one beyond it, or at a price the table does not hold, is worked out by the programme;
    both answer as the programme does."""
    rng = random.Random(11)
    asked = []
    for _ in range(300):
        n = rng.randint(1, 7)
        cuts = sorted(rng.randint(0, n) for _ in range(3))
        asked.append(((cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], n - cuts[2]),
                      rng.choice(bots.NEEDS), rng.choice(bots.LAMBDAS)))
    bots._value.cache_clear()
    read = [bots.reroll_plan(*key) for key in asked]
    assert bots._value.cache_info().currsize == 0  # nothing worked out: all read
    assert read == [bots._value(s, need, lam, bots.reroll_depth(sum(s)))[1] for s, need, lam in asked]
    assert any(plan is None for plan in read) and any(plan is not None for plan in read)
    assert bots.reroll_plan((2, 1, 1, 0), 2, 0.45) == bots._value((2, 1, 1, 0), 2, 0.45, 3)[1]
    big = (3, 2, 3, 3)  # 11 dice: beyond the table
    assert bots.reroll_plan(big, 3, 0.15) == bots._value(big, 3, 0.15, 1)[1]


def test_6_0_dice_left_and_kept_are_the_counters_difference() -> None:
    """6.0 (rerolls, speed): the dice not chosen for a reroll, as counted without counters,
    are ``Counter(faces) - Counter(chosen)`` in its order, and what kept dice bring to a
    result gives the same chances as the kept dice themselves."""
    rng = random.Random(5)
    for _ in range(500):
        faces = [rng.choice(attacks.SETTLED_FACES) for _ in range(rng.randint(0, 9))]
        faces = [f for f in faces if f != 4]
        chosen = rng.sample(faces, rng.randint(0, len(faces)))
        left = attacks._left(faces, chosen)
        diff = Counter(faces) - Counter(chosen)
        assert list(left.items()) == list(diff.items())
        assert attacks._kept(left) == list(diff.elements())
        kept = tuple(sorted(attacks._kept(left)))
        c = Counter(kept)
        dice = rng.randint(1, 5)
        direct = tuple(((j + c[5] // 2 + c[6] // 2, mk + c[1] // 2, co + c[2] // 2), ways)
                       for (j, mk, co), ways in attacks._unpaired_ways(
                           (c[1] % 2, c[2] % 2, c[5] % 2, c[6] % 2), dice))
        assert attacks._result_ways(kept, dice) == direct


def test_a_finished_match_is_freed_without_the_cyclic_collector() -> None:
    """Memory: nothing of a match holds it in a cycle (its dice report to it
    through a weak reference), so a whole game nobody holds any more is freed at once."""
    agents = {s: make_agent(GAME, s, GAME.default_bot(s), 3) for s in GAME.info.players}
    was = gc.isenabled()
    gc.disable()
    try:
        m = Match(GAME, seed=3)
        m.run(agents)
        assert m.finished
        held = weakref.ref(m)
        del m
        assert held() is None
    finally:
        if was:
            gc.enable()


@pytest.mark.parametrize(("edit", "said"), [
    (lambda t: t.replace('  - "0000', '  - "000X', 1), "'X' is not a base-36 digit"),
    (lambda t: t.replace('  - "0000', '  - "00', 1), "holds 7274 digits, not 7276"),
    (lambda t: t.replace("max_dice: 12", "max_dice: 11", 1), "not 5456 (4 for each of the 1364 pools"),
    (lambda t: t.replace("- need: 1\n  price: 0.15", "- need: 1\n  price: 0.0", 1),
     "two tables share a need and a price"),
])
def test_6_0_a_broken_dice_plan_is_refused_in_one_line(
        tmp_path: Path, edit: Callable[[str], str], said: str) -> None:
    """6.0 (the bot's dice plan): a plan file with a digit out of base 36, a table too short
    for its pools, or two tables for one need and price is refused with one line naming the
    file, not read as wrong plans."""
    source = components.DATA_DIR / components.FILES["dice_plan"]
    broken = tmp_path / source.name
    broken.write_text(edit(source.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(DataError) as refused:
        components.load_dice_plan(tmp_path)
    message = str(refused.value)
    assert said in message and str(broken) in message and "\n" not in message
    assert components.load_dice_plan().max_dice == 12
