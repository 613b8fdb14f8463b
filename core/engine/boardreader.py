"""The board as a reader sees it: the pieces a view shows by place, by id, by side and by kind,
kept current place by place from the board's own changes.

A bot reads the board at every decision, and a decision moves a piece or two: reading the
whole board again each time is most of what a bot would cost. :class:`BoardReader` is kept
from one decision to the next and reads again only the places the view says may show
differently (:meth:`~.views.View.board_changes`), as the read-only windows the view hands out
(:meth:`~.views.View.board_places`), so a decision that changed no piece reads no piece; it
reads everything when the view cannot tell (a plain mapping such as a view's JSON, another
match, a game's own view). Rules read the board the same way through the game master's view,
``View(match, None)``.

What a bot works out of the pieces for itself (the hexes a side holds, the regiments in a
position) it keeps in a :class:`PlaceIndex`: the same reading, handed to the index place by
place, so that only the places changed are worked out again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from .views import View

Piece = Mapping[str, Any]
"""A piece as a view shows it (``id``, ``kind``, ``side``, ``location``, ``face``, ...); a piece
hidden from the reader shows only its place, its side and the kind ``"hidden"``, and no id."""

Places = Mapping[str, Sequence[Piece]]
"""Place -> the pieces a view shows there, top first."""

_NONE: Sequence[Piece] = ()
_NO_KINDS: Mapping[str, int] = MappingProxyType({})


def _group(pieces: Sequence[Piece]) -> dict[str, list[Piece]]:
    """The pieces of a view's ``pieces`` entry by place, in their order."""
    by_place: dict[str, list[Piece]] = {}
    for p in pieces:
        by_place.setdefault(str(p["location"]), []).append(p)
    return by_place


class BoardReader:
    """The pieces a view shows, by place (:attr:`places`, :meth:`at`), by id (:meth:`piece`),
    by side (:meth:`side_at`) and by kind (:meth:`kinds_at`), kept by its reader from one view to
    the next: :meth:`read` brings it up to date and says in :attr:`changed` which places it read
    again. The indexes by id and side are built when first asked for and kept current from then
    on; what is read is never copied (the view's read-only windows) and must not be changed."""

    __slots__ = ("_by_id", "_kinds", "_sides", "changed", "places", "revision")

    def __init__(self) -> None:
        #: the board revision last read (:attr:`~.views.View.board_revision`); None when the
        #: last view read could not tell (a plain mapping) or nothing was read yet
        self.revision: int | None = None
        #: the places the last :meth:`read` read again (empty: none changed); None when it read
        #: every place afresh
        self.changed: frozenset[str] | None = None
        #: place -> the pieces the view shows there, top first (occupied places only)
        self.places: Places = MappingProxyType({})
        self._by_id: dict[str, Piece] | None = None
        self._sides: dict[str, dict[str, tuple[Piece, ...]]] = {}
        self._kinds: dict[str, Mapping[str, int]] = {}

    def read(self, view: Mapping[str, Any]) -> BoardReader:
        """Bring the reader up to date with ``view`` (itself, for chaining): a
        :class:`~.views.View` is read only at the places changed since the revision last
        read, any other mapping in full from its ``pieces``."""
        if not isinstance(view, View):
            self._replace(_group(view["pieces"]), None)
            return self
        revision = view.board_revision
        if revision == self.revision:
            self.changed = frozenset()
            return self
        changed = view.board_changes(self.revision) if self.revision is not None else None
        self._replace(view.board_places(), changed)
        self.revision = revision
        return self

    def _replace(self, places: Places, changed: frozenset[str] | None) -> None:
        """Take ``places`` as the board, ``changed`` its places that may differ from the board
        held (None: any of them)."""
        before, self.places, self.changed = self.places, places, changed
        self.revision = None
        if changed is None:
            self._by_id = None
            self._sides = {}
            self._kinds = {}
            return
        kinds = self._kinds
        if kinds:
            for loc in changed:
                kinds.pop(loc, None)
        by_id, sides = self._by_id, self._sides
        if by_id is not None:  # first what stood there goes, then what stands there comes
            for loc in changed:
                for p in before.get(loc, _NONE):
                    pid = p.get("id")
                    if pid is not None and by_id.get(str(pid)) is p:
                        del by_id[str(pid)]
        if sides:
            for at in sides.values():
                for loc in changed:
                    at.pop(loc, None)
        for loc in changed:  # one pass over each place's pieces for every index kept
            here = places.get(loc, _NONE)
            if not here:
                continue
            if by_id is not None:
                for p in here:
                    pid = p.get("id")
                    if pid is not None:
                        by_id[str(pid)] = p
            if sides:
                for side, at in sides.items():
                    mine = tuple([p for p in here if p["side"] == side])
                    if mine:
                        at[loc] = mine

    def at(self, place: str) -> Sequence[Piece]:
        """The pieces shown in ``place``, top first (none: an empty sequence)."""
        return self.places.get(place, _NONE)

    def piece(self, pid: str) -> Piece | None:
        """The piece shown with this id (None: no such piece shown, or hidden)."""
        by_id = self._by_id
        return (self.by_id() if by_id is None else by_id).get(pid)

    def by_id(self) -> Mapping[str, Piece]:
        """Id -> the piece shown with it (a hidden piece shows no id): kept current by
        :meth:`read` once asked for; not to be changed."""
        by_id = self._by_id
        if by_id is None:
            by_id = self._by_id = {}
            for here in self.places.values():
                for p in here:
                    i = p.get("id")
                    if i is not None:
                        by_id[str(i)] = p
        return by_id

    def side_at(self, side: str) -> Mapping[str, tuple[Piece, ...]]:
        """Place -> the pieces of ``side`` shown there, top first (only places holding some):
        kept current by :meth:`read` once asked for; not to be changed."""
        at = self._sides.get(side)
        if at is None:
            at = self._sides[side] = {}
            for loc, here in self.places.items():
                mine = tuple([p for p in here if p["side"] == side])
                if mine:
                    at[loc] = mine
        return at

    def kinds_at(self, place: str) -> Mapping[str, int]:
        """How many pieces of each kind are shown in ``place`` (hidden ones as ``"hidden"``)."""
        kinds = self._kinds.get(place)
        if kinds is None:
            here = self.places.get(place)
            if not here:
                return _NO_KINDS
            counts: dict[str, int] = {}
            for p in here:
                kind = p["kind"]
                counts[kind] = counts.get(kind, 0) + 1
            kinds = self._kinds[place] = counts
        return kinds


class PlaceIndex:
    """The base of what a bot or a rule works out of each place's pieces and keeps: its
    :meth:`read` reads the view with its :class:`BoardReader` (:attr:`board`) and hands the
    index the places read again, first each place that may have changed to :meth:`drop`, then
    each of them still holding pieces to :meth:`add`; :meth:`clear` and every place when the
    reader read the board afresh. A subclass keeps its own tables in those three hooks."""

    def __init__(self) -> None:
        self.board = BoardReader()

    def read(self, view: Mapping[str, Any]) -> Any:
        """Bring the index up to date with ``view`` (the index itself, for chaining)."""
        board = self.board.read(view)
        changed, places = board.changed, board.places
        if changed is None:
            self.clear()
            for loc, here in places.items():
                self.add(loc, here)
        elif changed:
            for loc in changed:
                self.drop(loc)
            for loc in changed:
                now = places.get(loc)
                if now:
                    self.add(loc, now)
        return self

    def clear(self) -> None:
        """Forget everything: the board is about to be read afresh."""

    def drop(self, place: str) -> None:
        """Forget what was worked out of ``place`` (its pieces may have changed)."""

    def add(self, place: str, pieces: Sequence[Piece]) -> None:
        """Work out what is kept of ``place``, from the pieces shown there, top first."""
