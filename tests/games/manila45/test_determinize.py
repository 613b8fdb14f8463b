"""Manila '45's determinization: what a side cannot see is drawn again within 6.2, 6.3 and 8.3,
and the search agent reads nothing of the hidden truth."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.designer.testing import check_search_leaks
from tabletop.core.engine.determinize import hidden_slots
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import make_agent
from tabletop.games.manila45 import GAME
from tabletop.games.manila45 import common as c

from .conftest import seen


def _positions() -> list[Match]:
    """Forks of two games between the heuristic bots, every 120th decision from the set-up
    to the end: positions of real play, for both sides."""
    out = []
    for seed in (1, 2):
        match = Match(GAME, seed=seed)
        bots = {side: make_agent(GAME, side, "heuristic", seed) for side in GAME.info.players}
        while match.pending is not None:
            if len(match.decisions) % 120 == 0:
                out.append(match.fork())
            decision = match.pending
            match.decide(bots[decision.player].choose(match.view(decision.player), decision))
    return out


POSITIONS = _positions()


@given(st.sampled_from(range(len(POSITIONS))), st.sampled_from(GAME.info.players),
       st.integers(0, 2**32 - 1))
def test_6_2_6_3_8_3_determinizations_keep_the_rules_and_the_view(at: int, side: str, seed: int) -> None:
    """Every determinization of a position of real play, for either side, passes the game's
    invariants (6.1-6.4 stacking, 8.3 static units on their set-up hexes, 8.13) and shows
    that side exactly what the match shows it."""
    match = POSITIONS[at]
    twin = GAME.determinize(match, side, random.Random(seed))
    assert GAME.invariants(twin) == []
    assert seen(twin, side) == seen(match, side)


def test_6_5_determinizations_deal_the_hidden_units_again() -> None:
    """The hidden identities are really drawn again: over the positions, Japanese static and
    mobile units, and US units under the top of a stack, stand elsewhere than in the match;
    a static unit only on a counter that has never left its set-up hex (8.3)."""
    moved = {"US": 0, "Japan": 0}
    statics = 0
    for n, match in enumerate(POSITIONS):
        for side in GAME.info.players:
            twin = GAME.determinize(match, side, random.Random(n))
            for slots in hidden_slots(match, side).values():
                for place, k, pid in slots:
                    other = twin.state.pieces.stack(place)[k]
                    if other.id != pid:
                        moved[side] += 1
                    if side == "US" and c.is_static(other) and place != c.JP_POOL:
                        statics += 1
                        assert match.state.pieces[pid].attrs.get("setup_hex", place) == place
    assert moved["US"] > 50 and moved["Japan"] > 10, moved
    assert statics > 20


def test_6_5_search_agent_never_reads_the_hidden_truth() -> None:
    """The leak check: on a truth the side sees alike, from the same determinizations, the
    search chooses and searches the same (either side, in play past the set-up)."""
    assert check_search_leaks(GAME, range(1), search="mcts:playouts=2,depth=5", every=97,
                              max_checks=4) == 4


@pytest.mark.parametrize("side", ["US", "Japan"])
def test_determinization_is_drawn_from_its_generator(side: str) -> None:
    """The same generator gives the same determinization; another, another."""
    match = POSITIONS[len(POSITIONS) // 2]
    first = GAME.determinize(match, side, random.Random(7)).state_hash()
    assert GAME.determinize(match, side, random.Random(7)).state_hash() == first
    assert any(GAME.determinize(match, side, random.Random(k)).state_hash() != first for k in range(3))
