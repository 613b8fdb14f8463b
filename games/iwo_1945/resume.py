"""Where the flow may be entered again: the resume points of the game's decisions.

Every decision of the game is asked inside a round's USMC turn (entry ``usmc``) or its
Japanese AI turn (entry ``japanese``), often several procedures down (the turn, an action,
an attack, a tactic card played during it). Each procedure that asks a decision, or calls
one that does, is handed a :class:`Path`: the turn it runs in and its callers' *frames*,
each a small JSON dict saying where the caller stands and what it knows that the state does
not (the dice of an attack, the position it was made from, the effect of a card being
carried out). A decision is marked with the path and the asking procedure's own frame.

Entered again (:meth:`~tabletop.core.engine.match.Game.resume_flow`), the turn takes the
frames (``match.resumed``) and each procedure takes its own (:func:`step`), rebuilds what it
needs from the state and its frame, and either asks its decision again or hands the frames
that follow to the callee the flow was in, skipping what it had done before: the same
decision is asked first, with no die rolled, no event logged and nothing changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.core.engine.decisions import Decision, ResumePoint

Frame = Mapping[str, Any]
"""Where a procedure stands and what it knows (JSON: ids, faces, counters)."""
Back = Sequence[Frame] | None
"""The frames a procedure entered again takes, its own first; None on a normal call."""


@dataclass(frozen=True, slots=True)
class Path:
    """The way the flow came to a procedure: the turn it runs in (the resume entry) and the
    frames of its callers, outermost first."""

    entry: str
    frames: tuple[Frame, ...] = ()

    def into(self, frame: Frame) -> Path:
        """The path of a procedure called from a caller standing at ``frame``."""
        return Path(self.entry, (*self.frames, frame)) if self.entry else self

    def mark(self, decision: Decision, frame: Frame) -> Decision:
        """``decision``, asked by a procedure standing at ``frame``, marked as one the flow
        can ask again (a procedure run on its own, on :data:`NOWHERE`, marks nothing)."""
        if self.entry:
            decision.resume = ResumePoint(self.entry, [*self.frames, frame])
        return decision


NOWHERE = Path("")
"""The path of a procedure run on its own (a rule's test): its decisions are not marked."""


def step(back: Back) -> tuple[Frame | None, Back]:
    """A procedure's own frame and its callee's frames when it is entered again, else
    (None, None)."""
    if not back:
        return None, None
    return back[0], (back[1:] or None)
