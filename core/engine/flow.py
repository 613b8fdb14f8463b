"""The sequence of play: turns, phases and steps declared as data, run as one generic loop.

A game declares its phases (id, name, rulebook section, active player) in YAML or code and
gives one handler per phase; :func:`run_turns` keeps the turn/phase bookkeeping apart from
the game's data and checks the end condition after every phase.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field, model_validator

from .data import Section, StrictModel, load_model
from .errors import TabletopError

if TYPE_CHECKING:
    from .match import Flow, Match, Result


class PhaseSpec(StrictModel):
    """One phase of a game turn: id, printed name, rulebook section and the active side."""

    id: str
    name: str
    section: Section
    player: str = ""
    steps: tuple[str, ...] = ()


class SequenceOfPlay(StrictModel):
    """A game's sequence of play: the phases of every turn, in order, and the turn span."""

    first_turn: int = 1
    last_turn: int = Field(ge=1)
    phases: tuple[PhaseSpec, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> SequenceOfPlay:
        ids = [p.id for p in self.phases]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ValueError(f"phases: phase id(s) {repeated} appear more than once")
        if self.first_turn > self.last_turn:
            raise ValueError(f"first_turn {self.first_turn} is after last_turn {self.last_turn}")
        return self

    @classmethod
    def load(cls, path: str | Path) -> SequenceOfPlay:
        """Read a sequence of play from a YAML file."""
        return load_model(cls, path)

    def phase(self, phase_id: str) -> PhaseSpec:
        """The phase with this id."""
        for p in self.phases:
            if p.id == phase_id:
                return p
        raise TabletopError(f"no phase {phase_id!r} in the sequence of play")


PhaseHandler = Callable[["Match"], "Flow"]


def enter_phase(match: Match, phase: PhaseSpec) -> None:
    """Record the start of a phase in the state and the log."""
    match.state.phase = phase.id
    match.state.step = ""
    match.emit("phase", phase.section, f"Turn {match.state.turn}: {phase.name}", phase=phase.id)


def run_turns(match: Match, sequence: SequenceOfPlay, handlers: Mapping[str, PhaseHandler], *,
              last_turn: Callable[[Match], int] | None = None,
              check_end: Callable[[Match], Result | None] | None = None,
              start_turn: int | None = None, start_phase: str | None = None,
              within: bool = False) -> Flow:
    """Run every phase of every turn in order; return the result once the game ends.

    ``last_turn`` may shorten or lengthen the game as it goes (e.g. reserves committed);
    ``check_end`` is asked after every phase and ends the game when it returns a result.
    ``start_turn`` and ``start_phase`` start the loop part-way (a match from a position):
    the phases before ``start_phase`` in ``start_turn`` are skipped. ``within``: the flow
    is resumed inside ``start_phase``, already begun (a fork, :meth:`~.match.Match.fork`),
    so that phase is not entered again (no phase event) before its handler runs.
    """
    missing = [p.id for p in sequence.phases if p.id not in handlers]
    if missing:
        raise TabletopError(f"no handler for phase(s) {missing}")
    skip_to = sequence.phase(start_phase).id if start_phase is not None else None
    turn = sequence.first_turn if start_turn is None else start_turn
    while turn <= (last_turn(match) if last_turn else sequence.last_turn):
        match.state.turn = turn
        for phase in sequence.phases:
            if skip_to is not None:
                if phase.id != skip_to:
                    continue
                skip_to = None
                if within:
                    within = False
                    result = yield from handlers[phase.id](match)
                    if result is None and check_end is not None:
                        result = check_end(match)
                    if result is not None:
                        return result
                    continue
            enter_phase(match, phase)
            result = yield from handlers[phase.id](match)
            if result is None and check_end is not None:
                result = check_end(match)
            if result is not None:
                return result
        turn += 1
    return check_end(match) if check_end else None
