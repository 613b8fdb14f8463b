"""The event log: what happened, when, and which rule section made it happen."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from .canonical import JSON, dumps

#: A number as a log text states it: 3, 0213, 1.5 (a sign and a ratio's colon stand apart).
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def modifier(rule: str, name: str, value: int | float) -> dict[str, JSON]:
    """One modifier of a roll, a strength or an odds column, as an event's data carries it:
    the rule that gives it, its name as a player reads it, and its signed value."""
    return {"rule": rule, "name": name, "value": value}


def signed(value: int | float) -> str:
    """A modifier's value as a log text writes it: +1, -2, +0.5."""
    return f"{value:+g}"


def modifiers_text(modifiers: Iterable[Mapping[str, Any]]) -> str:
    """The modifiers of an event's data as its log text writes them, from those fields alone:
    ``+1 not adjacent (10.21), -2 woods (9.4)``; empty when there are none."""
    return ", ".join(f"{signed(m['value'])} {m['name']} ({m['rule']})" for m in modifiers)


def numbers_in(value: Any) -> set[str]:
    """Every number that a piece of event data states, as text: each number of a leaf value
    (a hex id, a unit's name and a rule number count too), found the way it is found in a
    log text, so that 2 and "2" and 2.0 agree."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, (int, float)):
            found.add(_number(f"{abs(item):g}" if isinstance(item, float) else str(abs(item))))
        else:
            found.update(_number(n) for n in NUMBER.findall(str(item)))
    return found


def _number(text: str) -> str:
    """A number's one spelling for comparison: leading zeros kept (a hex id's 0213 is not
    213), a float's trailing ``.0`` dropped."""
    return text[:-2] if text.endswith(".0") else text


def unstated_numbers(event: Event) -> list[str]:
    """The numbers an event's text states that its data, section and turn do not: the
    numbers a rule test cannot read as fields (events carry their numbers as data). A
    decision event has none: it quotes its question and the chosen option's label, and the
    decision itself (its prompt, options and values) is the datum it records."""
    if event.kind == "decision":
        return []
    known = numbers_in(event.data) | numbers_in(event.section) | {str(event.turn)}
    return [n for n in NUMBER.findall(event.text) if _number(n) not in known]


class Event:
    """One thing that happened in a match, with the rule section that caused it.

    Read-only, compared and hashed by its fields like a frozen dataclass. Each field is a
    read-only property on a private slot that ``__init__`` sets once by a plain store: a frozen
    dataclass sets each field through a descriptor call, three times as slow, and a match logs
    about three events a decision.
    """

    __slots__ = ("_data", "_kind", "_mask", "_phase", "_section", "_seq", "_text", "_turn",
                 "_visible_to")

    def __init__(self, seq: int, kind: str, section: str, text: str, turn: int = 0,
                 phase: str = "", data: dict[str, Any] | None = None,
                 visible_to: tuple[str, ...] = (), mask: str = "") -> None:
        self._seq = seq
        self._kind = kind
        self._section = section
        self._text = text
        self._turn = turn
        self._phase = phase
        self._data = {} if data is None else data
        self._visible_to = visible_to
        self._mask = mask

    @property
    def seq(self) -> int:
        """The event's place in its match's log, from 0."""
        return self._seq

    @property
    def kind(self) -> str:
        """The event's type: "roll", "move", "combat", "phase", "decision", "end", ... (game-defined)."""
        return self._kind

    @property
    def section(self) -> str:
        """The rulebook section, e.g. "9.2.1"."""
        return self._section

    @property
    def text(self) -> str:
        """One line a player can read."""
        return self._text

    @property
    def turn(self) -> int:
        """The turn it happened in."""
        return self._turn

    @property
    def phase(self) -> str:
        """The phase it happened in."""
        return self._phase

    @property
    def data(self) -> dict[str, Any]:
        """Small JSON facts for programs."""
        return self._data

    @property
    def visible_to(self) -> tuple[str, ...]:
        """The players who may see it; empty: everyone."""
        return self._visible_to

    @property
    def mask(self) -> str:
        """What the other players see instead (a text naming nothing hidden from them, no
        data); empty: they do not see the event at all."""
        return self._mask

    def _fields(self) -> tuple[Any, ...]:
        return (self._seq, self._kind, self._section, self._text, self._turn, self._phase,
                self._data, self._visible_to, self._mask)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Event)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Event(seq={self._seq!r}, kind={self._kind!r}, section={self._section!r}, "
                f"text={self._text!r}, turn={self._turn!r}, phase={self._phase!r}, "
                f"data={self._data!r}, visible_to={self._visible_to!r}, mask={self._mask!r})")

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


class EventLog:
    """The ordered list of a match's events, writable as JSON Lines."""

    __slots__ = ("_events",)

    def __init__(self) -> None:
        self._events: list[Event] = []

    def append(self, event: Event) -> None:
        """Add an event at the end of the log."""
        self._events.append(event)

    def add(self, kind: str, section: str, text: str, turn: int = 0, phase: str = "",
            data: dict[str, Any] | None = None, visible_to: tuple[str, ...] = (),
            mask: str = "") -> Event:
        """Add a new event at the end of the log, numbered by its place there, and return it
        (one call where :meth:`append` of an :class:`Event` numbered by ``len`` takes three:
        a match logs about three events a decision)."""
        events = self._events
        event = Event(len(events), kind, section, text, turn, phase, data, visible_to, mask)
        events.append(event)
        return event

    def copy(self, upto: int | None = None) -> EventLog:
        """A log of the same events (the first ``upto`` of them when given), appended to
        apart from this one; the events themselves are shared: they never change."""
        twin = EventLog()
        twin._events = self._events.copy() if upto is None else self._events[:upto]
        return twin

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
