"""The event log: what happened, when, and which rule section made it happen."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .canonical import JSON, dumps


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """One thing that happened in a match, with the rule section that caused it."""

    seq: int
    kind: str  # "roll", "move", "combat", "phase", "decision", "end", ... (game-defined)
    section: str  # rulebook section, e.g. "9.2.1"
    text: str  # one line a player can read
    turn: int = 0
    phase: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: tuple[str, ...] = ()  # the players who may see it; empty: everyone
    #: what the other players see instead (a text naming nothing hidden from them, no data);
    #: empty: they do not see the event at all
    mask: str = ""

    def __init__(self, seq: int, kind: str, section: str, text: str, turn: int = 0,
                 phase: str = "", data: dict[str, Any] | None = None,
                 visible_to: tuple[str, ...] = (), mask: str = "") -> None:
        # What the dataclass would generate, but setting the slots directly (a frozen
        # dataclass goes through object.__setattr__ for each field, twice as slow): a match
        # logs an event or more for every decision.
        (set_seq, set_kind, set_section, set_text, set_turn, set_phase, set_data, set_visible_to,
         set_mask) = _SETTERS
        set_seq(self, seq)
        set_kind(self, kind)
        set_section(self, section)
        set_text(self, text)
        set_turn(self, turn)
        set_phase(self, phase)
        set_data(self, {} if data is None else data)
        set_visible_to(self, visible_to)
        set_mask(self, mask)

    def is_visible_to(self, player: str) -> bool:
        """Whether a player may see this event in full (hidden decisions and placements are not)."""
        return not self.visible_to or player in self.visible_to

    def for_player(self, player: str | None) -> Event | None:
        """The event as ``player`` sees it (None: the game master sees everything): itself,
        its mask (the text only), or nothing."""
        if player is None or self.is_visible_to(player):
            return self
        if self.mask:
            return Event(self.seq, self.kind, self.section, self.mask, self.turn, self.phase)
        return None

    def to_json(self) -> dict[str, JSON]:
        """The event as a plain JSON object (one line of a JSON Lines log)."""
        out: dict[str, JSON] = {
            "seq": self.seq,
            "kind": self.kind,
            "section": self.section,
            "text": self.text,
            "turn": self.turn,
            "phase": self.phase,
            "data": self.data,
        }
        if self.visible_to:
            out["visible_to"] = list(self.visible_to)
        if self.mask:
            out["mask"] = self.mask
        return out


_SETTERS = tuple(getattr(Event, f.name).__set__ for f in fields(Event))
"""Each field's slot setter, in field order (Event.__init__)."""


class EventLog:
    """The ordered list of a match's events, writable as JSON Lines."""

    __slots__ = ("_events",)

    def __init__(self) -> None:
        self._events: list[Event] = []

    def append(self, event: Event) -> None:
        """Add an event at the end of the log."""
        self._events.append(event)

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def __getitem__(self, index: int) -> Event:
        return self._events[index]

    def since(self, seq: int) -> list[Event]:
        """Events whose sequence number is at least ``seq``."""
        return self._events[seq:]

    def of_kind(self, kind: str) -> list[Event]:
        """Every event of one kind, in order."""
        return [e for e in self._events if e.kind == kind]

    def visible(self, player: str, since: int = 0) -> list[Event]:
        """The events from ``since`` on as a player sees them (masked where they must be)."""
        out = []
        for event in self._events[since:]:
            shown = event.for_player(player)
            if shown is not None:
                out.append(shown)
        return out

    def to_jsonl(self, player: str | None = None) -> str:
        """The log as JSON Lines text, one canonical JSON object a line: the whole log (the
        game master's), or only the events ``player`` may see."""
        events = self._events if player is None else self.visible(player)
        return "".join(dumps(e.to_json()) + "\n" for e in events)

    def write(self, path: str | Path, player: str | None = None) -> None:
        """Write the log (or one player's part of it, see to_jsonl) as JSON Lines, atomically."""
        from .files import atomic_write_text

        atomic_write_text(path, self.to_jsonl(player))
