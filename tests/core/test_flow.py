"""The sequence of play as data: phases in order, turn bookkeeping, the end check after each phase."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.core.engine.data import validate
from tabletop.core.engine.errors import DataError, TabletopError
from tabletop.core.engine.flow import PhaseHandler, PhaseSpec, SequenceOfPlay, run_turns
from tabletop.core.engine.match import Flow, Game, GameInfo, Match, PhasedGame, Result
from tabletop.core.engine.position import Position
from tabletop.core.engine.registry import load_game

SEQ = validate(SequenceOfPlay, {
    "last_turn": 3,
    "phases": [{"id": "move", "name": "Movement", "section": "5.1.1", "player": "A"},
               {"id": "fight", "name": "Combat", "section": "5.1.2", "player": "A"}],
}, source="seq")


class Phased(Game):
    """A game that records which phases ran; it ends when a counter reaches a limit."""

    info = GameInfo(id="phased", title="Phased", version="1", players=("A",))

    def __init__(self, stop_at: int | None = None, shorten: bool = False) -> None:
        self.stop_at = stop_at
        self.shorten = shorten

    def setup(self, match: Match) -> None:
        """Start with an empty trace."""
        match.state.vars["trace"] = []

    def phase(self, match: Match) -> Flow:
        """Each phase asks one question and notes itself."""
        yield from ()
        match.state.vars["trace"].append(f"{match.state.turn}:{match.state.phase}")
        return None

    def play(self, match: Match) -> Flow:
        """Run the declared sequence."""
        return (yield from run_turns(
            match, SEQ, {"move": self.phase, "fight": self.phase},
            last_turn=(lambda m: 2) if self.shorten else None,
            check_end=lambda m: Result("A", "stop", "4.0") if self.stop_at is not None
            and len(m.state.vars["trace"]) >= self.stop_at else None))


def test_phases_run_in_order_each_turn_with_events() -> None:
    """Every phase of every turn runs in order, and each start is logged with its section."""
    m = Match(Phased(), seed=1)
    assert m.state.vars["trace"] == ["1:move", "1:fight", "2:move", "2:fight", "3:move", "3:fight"]
    phases = m.log.of_kind("phase")
    assert [e.section for e in phases[:2]] == ["5.1.1", "5.1.2"] and phases[0].turn == 1


def test_end_condition_checked_after_every_phase() -> None:
    """The end check runs after each phase: the game stops mid-turn when it says so."""
    m = Match(Phased(stop_at=3), seed=1)
    assert m.result is not None and m.result.level == "stop"
    assert m.state.vars["trace"] == ["1:move", "1:fight", "2:move"]


def test_last_turn_can_change_during_play() -> None:
    """A game may be shortened as it goes (e.g. Bonins 4.1: reserves shorten the game)."""
    m = Match(Phased(shorten=True), seed=1)
    assert m.state.vars["trace"][-1] == "2:fight"


def test_bad_sequence_data_and_missing_handlers() -> None:
    """A sequence without phases is a DataError; a phase without a handler is a clear error."""
    with pytest.raises(DataError, match="phases"):
        validate(SequenceOfPlay, {"last_turn": 3}, source="seq.yaml")
    with pytest.raises(TabletopError, match="no handler"):
        next(run_turns(Match(Phased(), seed=1), SEQ, {}))
    with pytest.raises(TabletopError, match="no phase"):
        SEQ.phase("nope")


def _example_phased() -> type[PhasedGame]:
    """A game on the example's sequence of play (its data/sequence.yaml, found beside the
    example's module though this subclass lives here) whose phases ask nothing and note
    themselves, with the bookkeeping of every phase noted around them."""
    example = load_game(str(Path(__file__).resolve().parents[2] / "docs" / "example" / "skirmish"))

    class Noted(type(example)):  # type: ignore[misc]
        def setup(self, match: Match) -> None:
            super().setup(match)
            match.state.vars["trace"] = []

        def opening(self, match: Match) -> Flow:
            match.state.vars["trace"].append("opening")
            return None
            yield  # a generator, though it asks nothing

        def phase_handlers(self) -> dict[str, PhaseHandler]:
            def note(m: Match) -> Flow:
                m.state.vars["trace"].append(f"{m.state.turn}:{m.state.phase}")
                return None
                yield  # a generator, though it asks nothing
            return {p.id: note for p in self.sequence.phases}

        def begin_phase(self, match: Match, phase: PhaseSpec) -> None:
            match.state.vars["trace"].append(f"begin {phase.id}")

        def end_phase(self, match: Match, phase: PhaseSpec) -> None:
            match.state.vars["trace"].append(f"end {phase.id}")

        def last_turn(self, match: Match) -> int:
            return 2

        def check_end(self, match: Match) -> Result | None:
            return None

    return Noted


def test_a_phased_game_plays_its_opening_then_each_phase_between_its_bookkeeping() -> None:
    """PhasedGame: ``play`` is the opening, then every phase of every turn up to
    ``last_turn``, each handler between ``begin_phase`` and ``end_phase``."""
    m = Match(_example_phased()(), seed=1)
    phases = ["blue_move", "blue_combat", "red_move", "red_combat"]
    assert m.state.vars["trace"] == ["opening", *(
        step for turn in (1, 2) for p in phases for step in (f"begin {p}", f"{turn}:{p}", f"end {p}"))]
    assert m.finished


def test_a_phased_game_enters_at_each_phase_after_its_opening() -> None:
    """PhasedGame: every phase of the sequence is an entry point (id, section, name), and a
    position at one starts the turns there, in the position's turn, the opening done."""
    game = _example_phased()()
    assert [(e.id, e.section, e.description) for e in game.entry_points()] == \
        [(p.id, p.section, p.name) for p in game.sequence.phases]
    m = Match.from_position(game, Position(game="skirmish", start="red_move", turn=2))
    assert m.state.vars["trace"] == ["begin red_move", "2:red_move", "end red_move",
                                     "begin red_combat", "2:red_combat", "end red_combat"]
