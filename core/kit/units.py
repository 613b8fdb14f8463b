"""A kit game's counters (``data/units.yaml``), their set-up, step losses and elimination.

Each counter prints attack, defence and movement on its front (and, for a unit of two
steps, on its back, the reduced side): ``front: [6, 5, 4]``. A unit that loses a step
shows its back; a unit that loses its last step is eliminated to the box ``kit.yaml``
names. ``match.state.vars["lost"]`` counts the steps each side has lost, in the open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, RootModel, model_validator

from ..engine.data import HexId, StrictModel, repeated
from ..engine.pieces import Piece

if TYPE_CHECKING:
    from ..engine.match import Match

UNITS_FILE = "units.yaml"
"""The file of a kit game's ``data/`` folder holding its counters and their set-up."""

Factor = Annotated[int, Field(ge=0)]
"""A printed factor: attack, defence or movement, never negative."""


class KitUnit(StrictModel):
    """One counter: its side, kind, printed factors per face and set-up hex."""

    id: str = Field(min_length=1)
    side: str
    kind: str
    name: str
    hex: HexId
    steps: int = Field(default=1, ge=1, le=2)
    front: tuple[Factor, Factor, Factor]  # attack, defence, movement
    back: tuple[Factor, Factor, Factor] | None = None
    points: int = Field(default=1, ge=0)  # for stacking by points
    hidden: bool = False  # set up face-down: the other side sees only that a unit is there

    @model_validator(mode="after")
    def _back_for_two_steps(self) -> KitUnit:
        if self.steps == 2 and self.back is None:
            raise ValueError(f"unit {self.id} has two steps: give its back (reduced) factors, "
                             "back: [attack, defence, movement]")
        return self


class KitUnitsFile(RootModel[Annotated[tuple[KitUnit, ...], Field(min_length=1)]]):
    """``units.yaml``: a list of counters, each id once."""

    @model_validator(mode="after")
    def _unique(self) -> KitUnitsFile:
        repeated([u.id for u in self.root], ())
        return self


def face_values(factors: tuple[int, int, int], points: int) -> dict[str, int]:
    """A face's printed factors as a piece's values."""
    return {"attack": factors[0], "defense": factors[1], "move": factors[2], "points": points}


def unit_piece(u: KitUnit) -> Piece:
    """The piece of a counter, on its set-up hex, front up."""
    values = {"front": face_values(u.front, u.points)}
    if u.back is not None:
        values["back"] = face_values(u.back, u.points)
    return Piece(u.id, u.kind, u.side, u.name, u.hex, steps=u.steps, max_steps=u.steps,
                 values=values, hidden=u.hidden)


def unseen(piece: Piece, text: str) -> dict[str, Any]:
    """How an event about ``piece`` is shown: to everyone, or, while it is hidden, in full to
    its side alone and to the others as ``text`` (naming nothing hidden)."""
    if not piece.hidden:
        return {}
    return {"visible_to": (piece.side,), "mask": text}


def lose_step(match: Match, piece: Piece, section: str, eliminated: str) -> None:
    """A unit loses one step: it shows its back, or is eliminated with its last step."""
    match.state.vars["lost"][piece.side] += 1
    if piece.steps > 1:
        piece.steps -= 1
        piece.face = "back"
        match.emit("loss", section, f"{piece.name} loses a step ({piece.steps} left)",
                   piece=piece.id, unit=piece.name, steps=piece.steps,
                   **unseen(piece, f"a hidden {piece.side} unit at {piece.location} loses a step"))
    else:
        eliminate(match, piece, section, eliminated, count=False)


def eliminate(match: Match, piece: Piece, section: str, eliminated: str, *, count: bool = True) -> None:
    """A unit is eliminated: to the eliminated box, its steps counted as lost."""
    if count:
        match.state.vars["lost"][piece.side] += piece.steps
    piece.steps = 0
    piece.hidden = False  # an eliminated unit is shown
    match.state.pieces.move(piece.id, eliminated)
    match.emit("eliminated", section, f"{piece.name} is eliminated", piece=piece.id, unit=piece.name)
