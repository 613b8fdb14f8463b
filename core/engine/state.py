"""The whole state of a match: pieces, tracks, decks and game variables, as canonical JSON."""

from __future__ import annotations

from typing import Any

from .canonical import JSON, digest, thaw
from .memo import Memo
from .pieces import Deck, Pieces, Track, copy_json


class State:
    """Everything that makes a position: pieces, tracks, decks, turn/phase and game variables.

    Games keep all their mutable data here (``vars`` takes any JSON value), so that the
    canonical JSON of the state, and its hash, say everything about the position. What the
    rules derive from the pieces is kept in the state's :attr:`memo` (:class:`~.memo.Memo`),
    never in a game module: it is no part of the position and is made anew with the state.
    """

    __slots__ = ("decks", "memo", "phase", "pieces", "step", "tracks", "turn", "vars")

    def __init__(self) -> None:
        self.pieces = Pieces()
        self.tracks: dict[str, Track] = {}
        self.decks: dict[str, Deck] = {}
        self.vars: dict[str, Any] = {}
        self.turn = 0
        self.phase = ""
        self.step = ""
        #: what the rules derive from the pieces, kept while they do not change
        self.memo = Memo(self)

    def track(self, track_id: str, value: int, minimum: int, maximum: int, *, section: str = "") -> Track:
        """Create (or replace) a track and return it."""
        t = Track(track_id, value, minimum, maximum, section)
        t.set(value)
        self.tracks[track_id] = t
        return t

    def deck(self, deck: Deck) -> Deck:
        """Add a deck to the state and return it."""
        self.decks[deck.id] = deck
        return deck

    def copy(self) -> State:
        """An equal state sharing nothing that changes with this one (pieces, tracks, decks,
        variables), with an empty memo: what a snapshot keeps and a fork starts from
        (:meth:`~.match.Match.fork`). Made field by field, about twenty times faster than
        ``copy.deepcopy``."""
        twin = State.__new__(State)
        twin.pieces = self.pieces.copy()
        twin.tracks = {k: Track(t.id, t.value, t.minimum, t.maximum, t.section)
                       for k, t in self.tracks.items()}
        twin.decks = {k: d.copy() for k, d in self.decks.items()}
        twin.vars = copy_json(self.vars)
        twin.turn, twin.phase, twin.step = self.turn, self.phase, self.step
        twin.memo = Memo(twin)
        return twin

    def to_json(self) -> dict[str, JSON]:
        """The state as a canonical JSON object (the basis of the state hash)."""
        return {
            "turn": self.turn,
            "phase": self.phase,
            "step": self.step,
            "pieces": self.pieces.to_json(),
            "tracks": {k: t.to_json() for k, t in sorted(self.tracks.items())},
            "decks": {k: d.to_json() for k, d in sorted(self.decks.items())},
            "vars": thaw(self.vars),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`to_json` output."""
        s = cls()
        s.turn, s.phase, s.step = data["turn"], data["phase"], data["step"]
        s.pieces = Pieces.from_json(data["pieces"])
        s.tracks = {k: Track(**v) for k, v in data["tracks"].items()}
        s.decks = {k: Deck.from_json(v) for k, v in data["decks"].items()}
        s.vars = data["vars"]
        return s

    def hash(self) -> str:
        """The stable SHA-256 of the canonical JSON of the state."""
        return digest(self.to_json())
