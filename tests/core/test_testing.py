"""The reusable game harness (core.testing) run on the Pig test game, and shown to catch bugs."""

from __future__ import annotations

from typing import Any

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


def test_run_procedure_answers_in_order_and_checks_legality() -> None:
    """run_procedure: answers decisions in order, returns the value, refuses illegal or
    missing answers and leftovers."""
    from tabletop.core.decisions import choose
    from tabletop.core.testing import run_procedure

    def proc():  # type: ignore[no-untyped-def]
        a = yield choose("A", "pick", "1.0", ["x", "y"])
        b = yield choose("A", "again", "1.0", ["x", "y"])
        return f"{a}{b}"

    assert run_procedure(proc(), ["y", "x"]) == "yx"
    with pytest.raises(AssertionError, match="unanswered"):
        run_procedure(proc(), ["y"])
    with pytest.raises(AssertionError, match="not legal"):
        run_procedure(proc(), ["z", "x"])
    with pytest.raises(AssertionError, match="left over"):
        run_procedure(proc(), ["x", "x", "x"])


def test_script_dice_mid_match() -> None:
    """Match.script_dice: from now on the match rolls the given faces, logged as rolls."""
    m = Match(GAME, seed=1)
    m.script_dice([6, 1])
    m.decide("roll")
    m.decide("roll")
    faces = [e.data["faces"] for e in m.log.of_kind("roll")]
    assert faces[-2:] == [[6], [1]]


class _PiecePig(PigGame):
    """Pig with a marker piece in play, whose attrs a view shares, and two bots: one that
    only reads its view and one that writes into it."""

    def setup(self, match: Match) -> None:
        """Pig's set-up plus the marker."""
        from tabletop.core.pieces import Piece

        super().setup(match)
        match.state.pieces.add(Piece("marker", "marker", "A", location="table", attrs={"n": 0}))

    def bots(self) -> dict[str, Any]:
        """'reader' holds at once; 'vandal' also bumps the marker's attrs in its view."""
        class Reader:
            name = "reader"

            def choose(self, view: dict[str, Any], decision: Any) -> Any:
                return decision.values[-1]

        class Vandal(Reader):
            name = "vandal"

            def choose(self, view: dict[str, Any], decision: Any) -> Any:
                for p in view["pieces"]:
                    if p["id"] == "marker":
                        p["attrs"]["n"] += 1
                return decision.values[-1]

        return {"reader": lambda side, seed: Reader(), "vandal": lambda side, seed: Vandal()}


def test_check_agent_read_only_catches_an_agent_that_edits_its_view() -> None:
    """check_agent_read_only passes an agent that only reads and fails one that writes into
    the piece attrs its view shares with the state."""
    from tabletop.core.testing import check_agent_read_only

    game = _PiecePig()
    check_agent_read_only(game, "reader", decisions=20)
    with pytest.raises(AssertionError, match="agents must not edit their view"):
        check_agent_read_only(game, "vandal", decisions=20)
