"""Pieces, tracks and decks: everything on the table whose place and face make up the state.

Every piece is in exactly one place, named by a string: a hex id ("2915"), an area id
("neck") or an off-map box id ("box:eliminated"). Stacks keep their order: index 0 is the
top of the stack. :data:`OFF_BOARD` is the neutral place of pieces out of play (a test or a
position takes a piece away without putting it in any box the rules read).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .canonical import JSON
from .errors import TabletopError

OFF_BOARD = "off_board"
"""The neutral off-board place: pieces out of play, in no box of the game, seen by no rule."""


@dataclass(slots=True)
class Piece:
    """A counter, wooden block or marker: printed values per side, steps, place and status."""

    id: str
    kind: str  # game-defined type: "marine", "infantry", "bombardment", "flag", ...
    side: str  # owning player id, or "" for neutral markers
    name: str = ""
    location: str = ""
    face: str = "front"  # which printed side is up: "front" or "back"
    steps: int = 1
    max_steps: int = 1
    values: dict[str, dict[str, int]] = field(default_factory=dict)  # face -> name -> value
    hidden: bool = False  # face-down to the other players (fog of war, dug-in positions)
    attrs: dict[str, Any] = field(default_factory=dict)  # game status: suppressed, moved, ...

    def value(self, name: str, default: int | None = None) -> int:
        """A printed value on the face that is up (attack, defense, movement...)."""
        try:
            return self.values[self.face][name]
        except KeyError:
            if default is not None:
                return default
            raise TabletopError(f"piece {self.id} has no printed {name!r} on its {self.face} side") from None

    @property
    def is_reduced(self) -> bool:
        """True when a multi-step piece has lost at least one step."""
        return self.steps < self.max_steps

    def to_json(self) -> dict[str, JSON]:
        """The piece as a plain JSON object."""
        return {
            "id": self.id, "kind": self.kind, "side": self.side, "name": self.name,
            "location": self.location, "face": self.face, "steps": self.steps,
            "max_steps": self.max_steps, "values": self.values, "hidden": self.hidden,
            "attrs": self.attrs,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Piece:
        """Rebuild a piece from :meth:`to_json` output."""
        return cls(**data)


class Pieces:
    """The registry of all pieces of a match, indexed by id and by place (stack order kept)."""

    __slots__ = ("_at", "_by_id")

    def __init__(self, pieces: Iterable[Piece] = ()) -> None:
        self._by_id: dict[str, Piece] = {}
        self._at: dict[str, list[str]] = {}
        for p in pieces:
            self.add(p)

    def add(self, piece: Piece) -> Piece:
        """Put a new piece on the table at its ``location`` (bottom of any stack)."""
        if piece.id in self._by_id:
            raise TabletopError(f"two pieces share the id {piece.id!r}")
        if not piece.location:
            raise TabletopError(f"piece {piece.id} has no location")
        self._by_id[piece.id] = piece
        self._at.setdefault(piece.location, []).append(piece.id)
        return piece

    def __getitem__(self, piece_id: str) -> Piece:
        try:
            return self._by_id[piece_id]
        except KeyError:
            raise TabletopError(f"no piece {piece_id!r}") from None

    def __contains__(self, piece_id: object) -> bool:
        return piece_id in self._by_id

    def __iter__(self) -> Iterator[Piece]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    def move(self, piece_id: str, location: str, *, top: bool = False) -> Piece:
        """Move a piece to another place, at the bottom of the stack there (or the top)."""
        if not location:
            raise TabletopError(f"cannot move {piece_id} to an empty location")
        piece = self[piece_id]
        old = self._at[piece.location]
        old.remove(piece_id)
        if not old:
            del self._at[piece.location]
        piece.location = location
        stack = self._at.setdefault(location, [])
        if top:
            stack.insert(0, piece_id)
        else:
            stack.append(piece_id)
        return piece

    def take_out_of_play(self, piece_id: str) -> Piece:
        """Move a piece to the neutral off-board place (:data:`OFF_BOARD`)."""
        return self.move(piece_id, OFF_BOARD)

    def to_top(self, piece_id: str) -> None:
        """Put a piece on top of the stack it is in."""
        piece = self[piece_id]
        stack = self._at[piece.location]
        stack.remove(piece_id)
        stack.insert(0, piece_id)

    def at(self, location: str) -> list[Piece]:
        """The pieces at a place, top of the stack first."""
        return [self._by_id[i] for i in self._at.get(location, ())]

    def ids_at(self, location: str) -> tuple[str, ...]:
        """The ids of the pieces at a place, top first."""
        return tuple(self._at.get(location, ()))

    def count_at(self, location: str) -> int:
        """How many pieces are at a place."""
        return len(self._at.get(location, ()))

    def top(self, location: str) -> Piece | None:
        """The top piece at a place, or None when it is empty."""
        ids = self._at.get(location)
        return self._by_id[ids[0]] if ids else None

    def occupied(self) -> set[str]:
        """Every place holding at least one piece."""
        return set(self._at)

    def select(self, *, side: str | None = None, kind: str | None = None,
               location: str | None = None) -> list[Piece]:
        """The pieces matching every given criterion, in registry order."""
        return [
            p for p in self._by_id.values()
            if (side is None or p.side == side)
            and (kind is None or p.kind == kind)
            and (location is None or p.location == location)
        ]

    def places_of(self, side: str) -> set[str]:
        """The places holding at least one piece of a side."""
        return {p.location for p in self._by_id.values() if p.side == side}

    def to_json(self) -> dict[str, JSON]:
        """All pieces and the stack order at every place, as plain JSON."""
        return {
            "pieces": [p.to_json() for p in self._by_id.values()],
            "stacks": {loc: list(ids) for loc, ids in sorted(self._at.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pieces:
        """Rebuild the registry from :meth:`to_json` output."""
        reg = cls()
        for raw in data["pieces"]:
            p = Piece.from_json(raw)
            reg._by_id[p.id] = p
        reg._at = {loc: list(ids) for loc, ids in data["stacks"].items()}
        return reg

    def check(self) -> list[str]:
        """Consistency problems: a piece in no place or two, a stack naming an unknown piece."""
        problems = []
        seen: dict[str, str] = {}
        for loc, ids in self._at.items():
            for pid in ids:
                if pid in seen:
                    problems.append(f"piece {pid} is both at {seen[pid]} and at {loc}")
                seen[pid] = loc
                if pid not in self._by_id:
                    problems.append(f"unknown piece {pid} at {loc}")
                elif self._by_id[pid].location != loc:
                    problems.append(f"piece {pid} says it is at {self._by_id[pid].location}, "
                                    f"but stands at {loc}")
        for pid in self._by_id:
            if pid not in seen:
                problems.append(f"piece {pid} is in no place")
        return problems


@dataclass(slots=True)
class Track:
    """A numbered track on the board (turns, cohesion, victory points) with its bounds."""

    id: str
    value: int
    minimum: int
    maximum: int
    section: str = ""

    def set(self, value: int) -> int:
        """Set the value, clamped to the track's bounds; returns the value now shown."""
        self.value = max(self.minimum, min(self.maximum, value))
        return self.value

    def add(self, delta: int) -> int:
        """Move the marker by ``delta`` boxes, clamped; returns the value now shown."""
        return self.set(self.value + delta)

    def to_json(self) -> dict[str, JSON]:
        """The track as plain JSON."""
        return {"id": self.id, "value": self.value, "minimum": self.minimum,
                "maximum": self.maximum, "section": self.section}


class Deck:
    """A deck of cards split into named piles (draw, discard, hands...); every card in one pile.

    Pile order matters: index 0 is the top. Hands are piles named ``hand:<player>``.
    """

    __slots__ = ("id", "piles")

    def __init__(self, deck_id: str, cards: Iterable[str], *, piles: Iterable[str] = ()) -> None:
        self.id = deck_id
        self.piles: dict[str, list[str]] = {"draw": list(cards), "discard": []}
        for name in piles:
            self.piles.setdefault(name, [])
        all_cards = self.piles["draw"]
        if len(set(all_cards)) != len(all_cards):
            raise TabletopError(f"deck {deck_id}: card ids must be unique")

    def pile(self, name: str) -> list[str]:
        """The cards of a pile, top first (created empty if new)."""
        return self.piles.setdefault(name, [])

    def where(self, card: str) -> str:
        """The pile a card is in."""
        for name, cards in self.piles.items():
            if card in cards:
                return name
        raise TabletopError(f"deck {self.id}: no card {card!r}")

    def draw(self, count: int = 1, *, to: str, source: str = "draw") -> list[str]:
        """Move up to ``count`` cards from the top of ``source`` to the top of ``to``."""
        src = self.pile(source)
        taken = src[:count]
        del src[:count]
        dest = self.pile(to)
        for card in taken:
            dest.insert(0, card)
        return taken

    def move(self, card: str, to: str, *, top: bool = True) -> None:
        """Move one card from wherever it is to another pile."""
        self.piles[self.where(card)].remove(card)
        dest = self.pile(to)
        if top:
            dest.insert(0, card)
        else:
            dest.append(card)

    def all_cards(self) -> list[str]:
        """Every card of the deck, whatever pile it is in."""
        return [c for cards in self.piles.values() for c in cards]

    def to_json(self) -> dict[str, JSON]:
        """The deck as plain JSON."""
        return {"id": self.id, "piles": {k: list(v) for k, v in sorted(self.piles.items())}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deck:
        """Rebuild a deck from :meth:`to_json` output."""
        deck = cls(data["id"], [])
        deck.piles = {k: list(v) for k, v in data["piles"].items()}
        return deck
