"""Dice: seeded determinism, events with purposes, scripted dice, pools, choosing among equals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.engine.dice import Dice, DiceExhausted, ScriptedDice
from tabletop.core.engine.errors import TabletopError


def test_same_seed_same_rolls() -> None:
    """One seeded source: the same seed gives the same faces; another seed differs."""
    a = [Dice(42).d6(purpose="x") for _ in range(1)]
    assert a == [Dice(42).d6(purpose="x")]
    seq1 = Dice(1).roll(50, purpose="x")
    seq2 = Dice(1).roll(50, purpose="x")
    assert seq1 == seq2 and seq1 != Dice(2).roll(50, purpose="x")


def test_every_roll_reaches_the_listener_with_its_purpose() -> None:
    """Every roll is reported with its purpose, section, faces and sides."""
    seen: list[tuple[str, str, tuple[int, ...], int]] = []
    d = Dice(3)
    d.listener = lambda *args: seen.append(args)
    d.total(3, 6, purpose="bombardment strength", section="16.3")
    assert seen[0][0] == "bombardment strength" and seen[0][1] == "16.3"
    assert len(seen[0][2]) == 3 and seen[0][3] == 6 and d.rolls == 3


def test_scripted_dice_give_the_script_and_refuse_more() -> None:
    """Scripted dice return the given faces, check them against the die, and run out clearly."""
    d = ScriptedDice([6, 5, 4])
    assert d.roll(2, purpose="x") == (6, 5) and d.remaining == 1
    with pytest.raises(TabletopError, match="not on a 3-sided die"):
        d.roll(1, 3, purpose="x")
    d2 = ScriptedDice([1])
    d2.d6(purpose="x")
    with pytest.raises(DiceExhausted):
        d2.d6(purpose="x")


def test_pool_keep_set_aside_reroll() -> None:
    """Dice pools (Iwo Jima 1945): keep dice, set dice aside, reroll the rest; kept dice are locked."""
    d = ScriptedDice([6, 5, 4, 3, 1, 2, 6])
    pool = d.pool(5, purpose="attack dice", section="6.0")
    assert pool.faces == [6, 5, 4, 3, 1]
    pool.keep(0, 1)
    pool.set_aside(4)
    assert pool.active() == [6, 5, 4, 3]
    assert pool.reroll(2, 4, purpose="reroll") == (2, 6)
    assert pool.faces == [6, 5, 2, 3, 6] and 4 not in pool.aside
    with pytest.raises(TabletopError, match="kept"):
        pool.reroll(0, purpose="reroll")
    assert pool.count(lambda f: f >= 5) == 3


@given(st.integers(0, 10_000), st.integers(1, 12))
def test_choose_among_equals_is_fair_and_in_range(seed: int, n: int) -> None:
    """'Roll a die to choose among equals': always one of the items; a single item needs no roll."""
    d = Dice(seed)
    items = list(range(n))
    assert d.choose(items, purpose="tie") in items
    if n == 1:
        assert d.rolls == 0


def test_choose_shares_faces_or_rerolls() -> None:
    """Among equals: three candidates share a d6 two faces each (a 5 picks the third); five
    candidates reroll a 6 (6, 6, 2 picks the second)."""
    d = ScriptedDice([5])
    assert d.choose(["a", "b", "c"], purpose="tie") == "c" and d.rolls == 1
    d = ScriptedDice([6, 6, 2])
    assert d.choose(["a", "b", "c", "d", "e"], purpose="tie") == "b" and d.rolls == 3
    d = ScriptedDice([3, 4])
    assert [d.choose(["x", "y"], purpose="tie") for _ in range(2)] == ["x", "y"]


def test_choose_from_nothing_is_an_error() -> None:
    """Choosing from an empty list is a clear error."""
    with pytest.raises(TabletopError, match="nothing to choose"):
        Dice(1).choose([], purpose="tie")
