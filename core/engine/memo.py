"""The memo of a state: what the rules derive from its pieces, kept while they do not change.

A game's rules ask the same questions of the pieces again and again between two changes
(what stands in a position, where a regiment is, which places a unit may enter). The answers
belong to the match they describe: each :class:`~.state.State` owns one :class:`Memo`
(``match.state.memo``), made and dropped with it, so an undo, a fork by replay or a restored
snapshot (each a new state) starts from an empty memo, and matches played in different
threads share nothing. A game module keeps no such answers of its own.

What is kept is thrown away in one place, :meth:`Memo._sync`, from the stamps the pieces
put on their own changes (the registry's own clock, :class:`~.pieces.RevisionClock`):

- :meth:`Memo.on_layout`: kept while no piece enters the table, changes place or changes
  its place in a stack (the registry's ``layout``);
- :meth:`Memo.by_place`: a table by place, each entry kept while that place's stack does not
  change (the registry's ``stamps``);
- :meth:`Memo.on_change`: kept while nothing about any piece changes (the registry's
  revision clock);
- :meth:`Memo.of_registry`: kept while the state keeps the same registry of pieces, for a
  structure that follows the pieces' changes itself, by their stamps and the clock's journal
  (a game's board of kept answers, each checked against the stamps it was worked out under).

Replacing the registry (``state.pieces = ...``) throws everything away. Tracks, decks and
game variables are not watched: derive from the pieces alone. What the memo hands out is
shared by every later caller until it is thrown away: the caller must not change it (bar
what :meth:`Memo.of_registry` hands out, which is the caller's to keep current).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, TypeVar

from .pieces import Pieces

if TYPE_CHECKING:
    from .state import State

T = TypeVar("T")


class Memo:
    """What the rules derive from one state's pieces (see the module docstring)."""

    __slots__ = ("_layout", "_now", "_on_change", "_on_layout", "_on_registry", "_places",
                 "_reg", "_state")

    def __init__(self, state: State) -> None:
        self._state = state
        self._reg: Pieces | None = None
        self._layout = self._now = -1
        self._on_layout: dict[Hashable, Any] = {}
        self._on_change: dict[Hashable, Any] = {}
        self._on_registry: dict[Hashable, Any] = {}
        self._places: dict[Hashable, dict[str, Any]] = {}

    def _sync(self) -> None:
        """Throw away what the pieces' changes since the last call made stale: everything if
        the registry is another, what depends on the layout and the entries of the places
        whose stack changed if the layout moved, what depends on any change if the
        registry's clock moved."""
        reg = self._state.pieces
        if reg is not self._reg:
            self._reg, self._layout = reg, reg.layout
            self._on_layout = {}
            self._on_registry = {}
            self._places = {}
        elif self._layout != reg.layout:
            since, stamps = self._layout, reg.stamps
            for key, table in self._places.items():
                self._places[key] = {pos: got for pos, got in table.items()
                                     if stamps.get(pos, 0) <= since}
            self._layout = reg.layout
            self._on_layout = {}
        self._on_change = {}
        self._now = reg.clock.now

    def on_layout(self, key: Hashable, build: Callable[[], T]) -> T:
        """What ``build()`` answers, kept under ``key`` while no piece enters the table or
        changes place or stack order: for a question about what stands where alone."""
        self._current()
        return self._kept(self._on_layout, key, build)

    def on_change(self, key: Hashable, build: Callable[[], T]) -> T:
        """What ``build()`` answers, kept under ``key`` while nothing about any piece
        changes (its place, face, steps or status)."""
        reg = self._state.pieces
        if self._now != reg.clock.now or self._reg is not reg:
            self._sync()
        try:
            got: T = self._on_change[key]
        except KeyError:
            got = self._on_change[key] = build()
        return got

    def of_registry(self, key: Hashable, build: Callable[[], T]) -> T:
        """What ``build()`` answers, kept under ``key`` while the state keeps the same
        registry of pieces (an undo, a replay or a restored snapshot brings another): for a
        structure that keeps itself current with the pieces, from the stamps and the journal
        of the registry's clock (:class:`~.pieces.RevisionClock`), and is the caller's to
        change."""
        if self._reg is not self._state.pieces:
            self._sync()
        try:
            got: T = self._on_registry[key]
        except KeyError:
            got = self._on_registry[key] = build()
        return got

    def by_place(self, key: Hashable) -> dict[str, Any]:
        """The table named ``key`` of answers by place, up to date: an entry is dropped as
        soon as the stack of its place changes. The caller fills in the places it works out
        (what it stores must depend on that place's stack alone) and changes nothing else."""
        self._current()
        table = self._places.get(key)
        if table is None:
            table = self._places[key] = {}
        return table

    def _current(self) -> None:
        """Bring the memo up to date with the pieces, if anything changed since it last looked."""
        reg = self._state.pieces
        if self._now != reg.clock.now or self._reg is not reg:
            self._sync()

    @staticmethod
    def _kept(table: dict[Hashable, Any], key: Hashable, build: Callable[[], T]) -> T:
        """The answer kept in ``table`` under ``key``, built and kept on first asking."""
        try:
            got: T = table[key]
        except KeyError:
            got = table[key] = build()
        return got

    def clear(self) -> None:
        """Throw everything away (for a change the stamps do not tell: a test's hand edit)."""
        self._reg = None
        self._on_layout, self._on_change, self._on_registry, self._places = {}, {}, {}, {}
        self._layout = self._now = -1
