"""The reusable game harness (core.testing) run on the Pig test game, and shown to catch bugs."""

from __future__ import annotations

import pytest
from hypothesis import settings

from tabletop.core.match import Match
from tabletop.core.testing import InvariantBroken, check_conformance, game_state_machine, play_random_game

from .piggame import GAME, PigGame

TestPigMachine = game_state_machine(GAME).TestCase
TestPigMachine.settings = settings(max_examples=25, stateful_step_count=20, deadline=None)


def test_conformance_on_pig() -> None:
    """The API test passes on a correct game: ends, replays, saves, views, refuses junk."""
    check_conformance(GAME, range(5))


class BrokenPig(PigGame):
    """Pig whose invariant fails once a score passes 5: the harness must notice."""

    def invariants(self, match: Match) -> list[str]:
        """Scores must stay at 5 or below (a deliberately false invariant)."""
        scores = [t.value for t in match.state.tracks.values()]
        return [f"score {s} above 5" for s in scores if s > 5]


def test_harness_reports_a_broken_invariant() -> None:
    """A game whose invariant breaks is caught with the seed and the decision number."""
    with pytest.raises(InvariantBroken, match=r"pig seed \d+ after decision \d+"):
        for seed in range(20):
            play_random_game(BrokenPig(), seed)
