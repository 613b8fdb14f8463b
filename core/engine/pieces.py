"""Pieces, tracks and decks: everything on the table whose place and face make up the state.

Every piece is in exactly one place, named by a string: a hex id ("2915"), an area id
("neck") or an off-map box id ("box:eliminated"). Stacks keep their order: index 0 is the
top of the stack. :data:`OFF_BOARD` is the neutral place of pieces out of play (a test or a
position takes a piece away without putting it in any box the rules read).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from .canonical import JSON, thaw
from .errors import TabletopError

OFF_BOARD = "off_board"
"""The neutral off-board place: pieces out of play, in no box of the game, seen by no rule."""


class RevisionClock:
    """Counts every change to the pieces of one registry (:class:`Pieces`): to any piece, its
    status or any stack. A change stamps what changed with the next count. What is derived
    from the pieces (the views' shared board, :mod:`.views`; a state's :class:`~.memo.Memo`)
    keeps the count it was built at and rebuilds only what carries a later one.

    Each registry owns its clock (:attr:`Pieces.clock`), so matches played side by side, in
    one thread or several, share no count. A registry's counts mean something for that
    registry alone: who keeps one keeps the registry with it and compares counts only while
    it is the same. A match is played by one thread at a time (the web server holds a room's
    lock while it plays), so the clock needs no lock of its own.

    The clock also keeps a journal of what changed (pieces, and statuses by their
    :class:`Attrs`), so that a reader finds them without scanning every piece: the last
    :attr:`KEPT` to :attr:`KEPT` × 2 entries, a reader that fell further behind being told so
    (:meth:`since`)."""

    __slots__ = ("_dropped", "_journal", "now", "touch")

    KEPT = 4096
    """How many of the journal's latest entries are always kept."""

    def __init__(self) -> None:
        self.now = 0
        self._journal: list[Piece | Attrs] = []
        self._dropped = 0  # entries dropped from the front of the journal
        #: :meth:`_touch`, bound once: what a piece and its status call at every change
        self.touch = self._touch

    def tick(self) -> int:
        """The next count (and now the current one)."""
        now = self.now = self.now + 1
        return now

    def _touch(self, changed: Piece | Attrs) -> int:
        """The next count, noting in the journal that ``changed`` changed (called as
        ``touch``)."""
        journal = self._journal
        journal.append(changed)
        if len(journal) > 2 * self.KEPT:
            del journal[:self.KEPT]
            self._dropped += self.KEPT
        now = self.now = self.now + 1
        return now

    def mark(self) -> int:
        """Where the journal stands now (for :meth:`since`)."""
        return self._dropped + len(self._journal)

    def since(self, mark: int) -> list[Piece | Attrs] | None:
        """What was noted changed since ``mark`` (:meth:`mark`), in order, repeats included;
        None if some of it is no longer kept."""
        if mark < self._dropped:
            return None
        return self._journal[mark - self._dropped:]


def _loose(changed: Piece | Attrs) -> int:
    """The stamp of a change to a piece in no registry yet: none (0), noted nowhere. Nothing
    reads such a piece's stamps; adding it to a registry stamps it with that registry's
    clock."""
    return 0


class Attrs(dict[str, Any]):
    """A piece's game status: a dict that stamps every change with the next count of its
    piece's registry's clock (:class:`RevisionClock`), its ``revision``. Only changes to the
    dict itself are stamped: a list or dict kept inside it and changed in place is not (the
    views show such a piece's status by a copy made for each view). Every change is noted in
    the clock's journal."""

    __slots__ = ("_touch", "revision")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._touch: Callable[[Piece | Attrs], int] = _loose  # its piece's clock's, once added
        self.revision = 0

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(key, value)
        self.revision = self._touch(self)

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self.revision = self._touch(self)

    def __ior__(self, other: Any) -> Attrs:  # type: ignore[override,misc]
        super().update(other)
        self.revision = self._touch(self)
        return self

    def pop(self, *args: Any) -> Any:
        """Remove a key and return its value (stamped as a change)."""
        value = super().pop(*args)
        self.revision = self._touch(self)
        return value

    def popitem(self) -> tuple[str, Any]:
        """Remove and return the last item (stamped as a change)."""
        item = super().popitem()
        self.revision = self._touch(self)
        return item

    def setdefault(self, key: str, default: Any = None) -> Any:
        """The value of a key, set to ``default`` first if absent (stamped as a change)."""
        value = super().setdefault(key, default)
        self.revision = self._touch(self)
        return value

    def update(self, *args: Any, **kwargs: Any) -> None:
        """Add or replace keys (stamped as a change)."""
        super().update(*args, **kwargs)
        self.revision = self._touch(self)

    def clear(self) -> None:
        """Remove every key (stamped as a change)."""
        super().clear()
        self.revision = self._touch(self)


@dataclass(slots=True, init=False)
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
    #: its registry's clock's count at the piece's last change (any field set; ``attrs``
    #: counts its own changes; 0 before it is added): what the views' shared board rebuilds by
    revision: int = field(default=0, init=False, repr=False, compare=False)
    #: how a change is stamped: its registry's :attr:`RevisionClock.touch` once it is added
    _touch: Callable[[Piece | Attrs], int] = field(default=_loose, init=False, repr=False,
                                                   compare=False)

    def __init__(self, id: str, kind: str, side: str, name: str = "", location: str = "",
                 face: str = "front", steps: int = 1, max_steps: int = 1,
                 values: dict[str, dict[str, int]] | None = None, hidden: bool = False,
                 attrs: dict[str, Any] | None = None) -> None:
        # What the dataclass would generate (each field set, ``attrs`` made an Attrs), but
        # not stamped: a piece is stamped by the registry it is added to (Pieces.add), and
        # nothing reads the stamps of a piece not yet on the table.
        setter = object.__setattr__
        setter(self, "id", id)
        setter(self, "kind", kind)
        setter(self, "side", side)
        setter(self, "name", name)
        setter(self, "location", location)
        setter(self, "face", face)
        setter(self, "steps", steps)
        setter(self, "max_steps", max_steps)
        setter(self, "values", {} if values is None else values)
        setter(self, "hidden", hidden)
        if attrs is None or type(attrs) is not Attrs:
            attrs = Attrs({} if attrs is None else attrs)  # a copy that stamps its changes
        setter(self, "attrs", attrs)
        setter(self, "revision", 0)
        setter(self, "_touch", _loose)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "attrs":
            if type(value) is not Attrs:
                value = Attrs(value)  # a copy that stamps its changes
            value._touch = self._touch
        object.__setattr__(self, name, value)
        object.__setattr__(self, "revision", self._touch(self))

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
        """The piece as a plain JSON object: a fresh copy, sharing no list or dict with the
        piece (so a view may hand it to an agent as it is)."""
        return {
            "id": self.id, "kind": self.kind, "side": self.side, "name": self.name,
            "location": self.location, "face": self.face, "steps": self.steps,
            "max_steps": self.max_steps,
            "values": {face: dict(vals) for face, vals in self.values.items()},
            "hidden": self.hidden, "attrs": thaw(self.attrs),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Piece:
        """Rebuild a piece from :meth:`to_json` output."""
        return cls(**data)

    def _twin(self, touch: Callable[[Piece | Attrs], int]) -> Piece:
        """An equal piece for another registry (:meth:`Pieces.copy`), stamped by ``touch``:
        its status copied (lists and dicts in it too), its printed ``values`` shared (they
        are printed on the counter: nothing changes them)."""
        twin = object.__new__(Piece)
        setter = object.__setattr__
        setter(twin, "id", self.id)
        setter(twin, "kind", self.kind)
        setter(twin, "side", self.side)
        setter(twin, "name", self.name)
        setter(twin, "location", self.location)
        setter(twin, "face", self.face)
        setter(twin, "steps", self.steps)
        setter(twin, "max_steps", self.max_steps)
        setter(twin, "values", self.values)
        setter(twin, "hidden", self.hidden)
        attrs = Attrs(self.attrs)
        for key, value in attrs.items():
            if type(value) not in _ATOMS:
                dict.__setitem__(attrs, key, copy_json(value))
        attrs._touch = touch
        attrs.revision = self.attrs.revision  # type: ignore[attr-defined]  # an Attrs
        setter(twin, "attrs", attrs)
        setter(twin, "revision", self.revision)
        setter(twin, "_touch", touch)
        return twin


_ATOMS = frozenset({str, int, float, bool, type(None)})
"""The types of JSON values that are their own copy."""


def copy_json(value: Any) -> Any:
    """A copy of a JSON-like value sharing no list, dict or set with it (tuples and frozen
    values kept as they are when they hold no list or dict): much faster than
    ``copy.deepcopy`` for the small values of a state."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {k: v if type(v) in _ATOMS else copy_json(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else copy_json(v) for v in value]
    if kind is tuple:  # shared when it holds only plain values (it cannot change)
        if all(type(v) in _ATOMS for v in value):
            return value
        return tuple(copy_json(v) for v in value)
    if kind is set:
        return {copy_json(v) for v in value}
    if kind is frozenset:
        return value
    return copy.deepcopy(value)


_HIDDEN = attrgetter("hidden")


class Pieces:
    """The registry of all pieces of a match, indexed by id, by place (stack order kept), by
    kind and by side.

    The rules ask "what stands here?", "which markers of this kind?", "where is this side?"
    thousands of times a game, so the registry keeps those answers instead of scanning every
    piece. The indexes live here alone and change only in :meth:`add` and :meth:`move`, the
    only ways a piece enters the table or changes place; a piece's ``kind`` and ``side`` are
    fixed once it is added (:meth:`check` reports one that changed). Answers come in the
    same order as a scan would give them: registry (insertion) order, or stack order.

    The registry owns the clock that stamps every change to its pieces (:attr:`clock`, a
    :class:`RevisionClock`): a piece added is stamped by it from then on, its status too. A
    piece belongs to one registry: pieces are never shared between matches.
    """

    __slots__ = ("_at", "_by_id", "_by_kind", "_by_side", "_groups", "_hidden", "_moves",
                 "_moves_from", "_order", "clock", "layout", "stamps")

    def __init__(self, pieces: Iterable[Piece] = ()) -> None:
        #: the clock of this registry's pieces: every change to one of them takes its next count
        self.clock = RevisionClock()
        #: the :attr:`clock`'s count at the last change of place or stack order of any piece,
        #: and of each place's (kept when a place empties): what the views' board rebuilds by
        self.layout = self.clock.tick()
        self.stamps: dict[str, int] = {}
        # (stamp, place) of every change of a place's stack since the stamp _moves_from, in
        # order, bounded (see places_since)
        self._moves: list[tuple[int, str]] = []
        self._moves_from = 0
        self._by_id: dict[str, Piece] = {}
        self._order: dict[str, int] = {}  # id -> registry position, for scan-order answers
        self._at: dict[str, list[Piece]] = {}  # place -> its stack, top first
        self._by_kind: dict[str, list[Piece]] = {}  # kind -> pieces in registry order
        self._by_side: dict[str, list[Piece]] = {}  # side -> pieces in registry order
        # (kind, attribute) -> attribute value -> pieces: see by_attr; dropped by _register
        self._groups: dict[tuple[str, str], dict[Any, tuple[Piece, ...]]] = {}
        # side -> (clock.now, whether any of its pieces is hidden then): see any_hidden
        self._hidden: dict[str, tuple[int, bool]] = {}
        for p in pieces:
            self.add(p)

    def _register(self, piece: Piece) -> int:
        """Index a new piece by id, kind and side (its place is indexed by the caller), and
        stamp it and its status with this registry's clock from now on: the count it takes."""
        touch = self.clock.touch
        object.__setattr__(piece, "_touch", touch)
        piece.attrs._touch = touch  # type: ignore[attr-defined]  # an Attrs (Piece.__init__)
        now = touch(piece)
        object.__setattr__(piece, "revision", now)
        self._order[piece.id] = len(self._by_id)
        self._by_id[piece.id] = piece
        self._by_kind.setdefault(piece.kind, []).append(piece)
        self._by_side.setdefault(piece.side, []).append(piece)
        self._groups.clear()
        return now

    def add(self, piece: Piece) -> Piece:
        """Put a new piece on the table at its ``location`` (bottom of any stack)."""
        if piece.id in self._by_id:
            raise TabletopError(f"two pieces share the id {piece.id!r}")
        if not piece.location:
            raise TabletopError(f"piece {piece.id} has no location")
        now = self._register(piece)
        self._at.setdefault(piece.location, []).append(piece)
        self.layout = self.stamps[piece.location] = now
        self._moved(piece.location)
        return piece

    def __getitem__(self, piece_id: str) -> Piece:
        try:
            return self._by_id[piece_id]
        except KeyError:
            raise TabletopError(f"no piece {piece_id!r}") from None

    def __contains__(self, piece_id: object) -> bool:
        return piece_id in self._by_id

    def holds(self, piece: Piece) -> bool:
        """Whether this very piece is in the registry (not another match's of the same id)."""
        return self._by_id.get(piece.id) is piece

    def __iter__(self) -> Iterator[Piece]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    @staticmethod
    def _take(stack: list[Piece], piece: Piece) -> None:
        """Remove a piece from a stack by identity (stacks are short)."""
        for i, other in enumerate(stack):
            if other is piece:
                del stack[i]
                return
        raise TabletopError(f"piece {piece.id} is not in its stack at {piece.location}")

    def move(self, piece_id: str, location: str, *, top: bool = False) -> Piece:
        """Move a piece to another place, at the bottom of the stack there (or the top)."""
        if not location:
            raise TabletopError(f"cannot move {piece_id} to an empty location")
        piece = self[piece_id]
        old = self._at[piece.location]
        self._take(old, piece)
        if not old:
            del self._at[piece.location]
        tick = self.clock.tick
        self.stamps[piece.location] = tick()
        self._moved(piece.location)
        piece.location = location
        stack = self._at.setdefault(location, [])
        if top:
            stack.insert(0, piece)
        else:
            stack.append(piece)
        self.layout = self.stamps[location] = tick()
        self._moved(location)
        return piece

    def take_out_of_play(self, piece_id: str) -> Piece:
        """Move a piece to the neutral off-board place (:data:`OFF_BOARD`)."""
        return self.move(piece_id, OFF_BOARD)

    def to_top(self, piece_id: str) -> None:
        """Put a piece on top of the stack it is in."""
        piece = self[piece_id]
        stack = self._at[piece.location]
        self._take(stack, piece)
        stack.insert(0, piece)
        self.layout = self.stamps[piece.location] = self.clock.tick()
        self._moved(piece.location)

    _MOVES_KEPT = 1024
    """How many of the latest stack changes :meth:`places_since` always answers from."""

    def _moved(self, location: str) -> None:
        """Note that a place's stack just changed (its stamp is the clock's count now)."""
        moves = self._moves
        moves.append((self.clock.now, location))
        if len(moves) > 2 * self._MOVES_KEPT:
            self._moves_from = moves[self._MOVES_KEPT - 1][0]
            del moves[:self._MOVES_KEPT]

    def places_since(self, layout: int) -> set[str] | None:
        """The places whose stack changed after the count ``layout`` (an earlier
        :attr:`layout`): those whose :attr:`stamps` entry is above it, found without
        scanning every place; None when that is no longer known (then scan the stamps)."""
        if layout < self._moves_from:
            return None
        found: set[str] = set()
        for stamp, location in reversed(self._moves):
            if stamp <= layout:
                break
            found.add(location)
        return found

    def at(self, location: str) -> list[Piece]:
        """The pieces at a place, top of the stack first."""
        stack = self._at.get(location)
        return stack.copy() if stack else []

    def ids_at(self, location: str) -> tuple[str, ...]:
        """The ids of the pieces at a place, top first."""
        return tuple(p.id for p in self._at.get(location, ()))

    def count_at(self, location: str) -> int:
        """How many pieces are at a place."""
        return len(self._at.get(location, ()))

    def top(self, location: str) -> Piece | None:
        """The top piece at a place, or None when it is empty."""
        stack = self._at.get(location)
        return stack[0] if stack else None

    def stack(self, location: str) -> tuple[Piece, ...]:
        """The pieces at a place, top of the stack first, as a tuple."""
        return tuple(self._at.get(location, ()))

    def occupied(self) -> set[str]:
        """Every place holding at least one piece."""
        return set(self._at)

    def select(self, *, side: str | None = None, kind: str | None = None,
               location: str | None = None) -> list[Piece]:
        """The pieces matching every given criterion, in registry order."""
        if location is not None:
            stack = self._at.get(location)
            if not stack:
                return []
            found = [p for p in stack if (side is None or p.side == side)
                     and (kind is None or p.kind == kind)]
            if len(found) > 1:
                order = self._order
                found.sort(key=lambda p: order[p.id])
            return found
        if kind is not None:
            of_kind = self._by_kind.get(kind, ())
            if side is None:
                return list(of_kind)
            return [p for p in of_kind if p.side == side]
        if side is not None:
            return list(self._by_side.get(side, ()))
        return list(self._by_id.values())

    def by_attr(self, kind: str, key: str) -> dict[Any, tuple[Piece, ...]]:
        """The pieces of a kind grouped by the value of an attribute the game fixes at set-up
        (a marker's regiment, a unit's division), each group in registry order. Built on the
        first call and kept until a piece is added; the caller must not change it.
        :meth:`check` reports a piece whose attribute changed since."""
        groups = self._groups.get((kind, key))
        if groups is None:
            lists: dict[Any, list[Piece]] = {}
            for p in self._by_kind.get(kind, ()):
                lists.setdefault(p.attrs.get(key), []).append(p)
            groups = self._groups[(kind, key)] = {v: tuple(ps) for v, ps in lists.items()}
        return groups

    def any_hidden(self, side: str) -> bool:
        """Whether any piece of a side is hidden (face-down to the others). Asked at every
        decision: the answer is kept until the revision clock moves (a piece added, or one
        turned face-down or up, moves it, as any change to a piece does)."""
        now = self.clock.now
        held = self._hidden.get(side)
        if held is None or held[0] != now:
            held = self._hidden[side] = (now, any(map(_HIDDEN, self._by_side.get(side, ()))))
        return held[1]

    def places_of(self, side: str) -> set[str]:
        """The places holding at least one piece of a side."""
        return {p.location for p in self._by_side.get(side, ())}

    def to_json(self) -> dict[str, JSON]:
        """All pieces and the stack order at every place, as plain JSON."""
        return {
            "pieces": [p.to_json() for p in self._by_id.values()],
            "stacks": {loc: [p.id for p in stack] for loc, stack in sorted(self._at.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pieces:
        """Rebuild the registry from :meth:`to_json` output."""
        reg = cls()
        for raw in data["pieces"]:
            reg._register(Piece.from_json(raw))
        for loc, ids in data["stacks"].items():
            try:
                reg._at[loc] = [reg._by_id[i] for i in ids]
            except KeyError as exc:
                raise TabletopError(f"the stack at {loc} names an unknown piece {exc.args[0]!r}") from None
        reg.layout = reg.clock.tick()
        reg.stamps = dict.fromkeys(reg._at, reg.layout)
        reg._moves_from = reg.layout  # stamped all at once: nothing to tell before
        return reg

    def copy(self) -> Pieces:
        """An equal registry sharing no piece, stack or status with this one, with a clock of
        its own (counting on from this one's count, its journal starting empty): what a
        state's copy holds (:meth:`~.state.State.copy`)."""
        twin = Pieces.__new__(Pieces)
        clock = twin.clock = RevisionClock()
        clock.now = self.clock.now
        clock._dropped = self.clock.mark()  # what came before is not told
        touch = clock.touch
        twins = {pid: piece._twin(touch) for pid, piece in self._by_id.items()}
        twin.layout = self.layout
        twin.stamps = self.stamps.copy()
        twin._moves = []
        twin._moves_from = self.clock.now  # nothing before the copy is told (places_since)
        twin._by_id = twins
        twin._order = self._order.copy()
        twin._at = {loc: [twins[p.id] for p in stack] for loc, stack in self._at.items()}
        twin._by_kind = {kind: [twins[p.id] for p in ps] for kind, ps in self._by_kind.items()}
        twin._by_side = {side: [twins[p.id] for p in ps] for side, ps in self._by_side.items()}
        twin._groups = {}
        twin._hidden = {}
        return twin

    def check(self) -> list[str]:
        """Consistency problems: a piece in no place or two, a stack naming an unknown piece,
        a piece whose kind or side changed after it was added."""
        problems = []
        seen: dict[str, str] = {}
        for loc, stack in self._at.items():
            for piece in stack:
                pid = piece.id
                if pid in seen:
                    problems.append(f"piece {pid} is both at {seen[pid]} and at {loc}")
                seen[pid] = loc
                if self._by_id.get(pid) is not piece:
                    problems.append(f"unknown piece {pid} at {loc}")
                elif piece.location != loc:
                    problems.append(f"piece {pid} says it is at {piece.location}, "
                                    f"but stands at {loc}")
        for pid in self._by_id:
            if pid not in seen:
                problems.append(f"piece {pid} is in no place")
        for kind, pieces in self._by_kind.items():
            problems.extend(f"piece {p.id} changed its kind from {kind!r} to {p.kind!r}"
                            for p in pieces if p.kind != kind)
        for side, pieces in self._by_side.items():
            problems.extend(f"piece {p.id} changed its side from {side!r} to {p.side!r}"
                            for p in pieces if p.side != side)
        for (_, key), groups in self._groups.items():
            problems.extend(f"piece {p.id} changed its {key!r} from {value!r} to {p.attrs.get(key)!r} "
                            f"(grouped by it)" for value, ps in groups.items() for p in ps
                            if p.attrs.get(key) != value)
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

    def copy(self) -> Deck:
        """An equal deck sharing no pile with this one."""
        twin = Deck.__new__(Deck)
        twin.id = self.id
        twin.piles = {name: cards.copy() for name, cards in self.piles.items()}
        return twin

    def to_json(self) -> dict[str, JSON]:
        """The deck as plain JSON."""
        return {"id": self.id, "piles": {k: list(v) for k, v in sorted(self.piles.items())}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deck:
        """Rebuild a deck from :meth:`to_json` output."""
        deck = cls(data["id"], [])
        deck.piles = {k: list(v) for k, v in data["piles"].items()}
        return deck
