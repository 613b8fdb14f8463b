"""Per-side views: what one side may see of a match, built for it, read-only and lazy.

A :class:`View` is what an agent receives. It is a read-only mapping whose entries are
computed from the state the first time they are read, through the filter of
:mod:`.visibility`: another side's hidden pieces (and those of a stack the game's rules
hide from the side, :meth:`~.match.Game.stack_view`) show only place, side and kind
``"hidden"``; game variables appear only if declared visible to the side; secret deck piles
show only their size; another player's pending decision shows only whose it is. Each entry is
made of new lists and dicts, a piece's values and attrs being read-only windows
(``MappingProxyType``) rather than copies, so nothing an agent does to a view reaches the
match, and an agent that reads only the entries it needs pays only for those.

The pieces a side is shown are built once and shared from one decision to the next until the
pieces change (:class:`SharedBoard`, the one cache here, rebuilt piece by piece from the
revision stamps the pieces keep, from their registry's own clock,
:class:`~.pieces.RevisionClock`, and the journal of what changed that it keeps); a view
hands out copies of its lists and piece dicts, never the shared ones. An in-process agent
that reads the board at every decision may take it place by place instead, as read-only
windows on the shared pieces (:meth:`View.board_places`), with the places changed since an
earlier revision (:meth:`View.board_changes`), and read one variable, pile or track alone
(:meth:`View.var`, :meth:`View.pile`, :meth:`View.track`).

A view describes the match at the moment it was made: reading an entry not yet computed
after the match has moved on raises :class:`StaleView` rather than mixing two positions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import chain, count
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .canonical import JSON, thaw
from .errors import TabletopError
from .pieces import Attrs
from .visibility import is_secret_pile, may_read_var, visible_vars

if TYPE_CHECKING:
    from .match import Match
    from .pieces import Piece, Pieces


class StaleView(TabletopError):
    """A view's entry was read after the match moved on (take a new view each decision)."""


_SCALARS = (str, int, float, bool, type(None))


def _copy(value: JSON) -> JSON:
    """A copy of a JSON value, scalars as they are (what thaw does, faster where it is flat)."""
    if isinstance(value, Mapping):
        return {k: v if isinstance(v, _SCALARS) else _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [v if isinstance(v, _SCALARS) else _copy(v) for v in value]
    return value


_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})


def _read_only(value: Any) -> Any:
    """A read-only window on state data: dicts as proxies (nested ones too), lists as tuples;
    scalars as they are."""
    kind = type(value)
    if kind in _SCALAR_TYPES:
        return value
    if kind is dict or kind is Attrs:
        for v in value.values():
            if type(v) not in _SCALAR_TYPES:
                return MappingProxyType({k: _read_only(v) for k, v in value.items()})
        return MappingProxyType(value)
    if kind is list or kind is tuple:
        return tuple(_read_only(v) for v in value)
    return _copy(value)


_NO_ATTRS: Mapping[str, Any] = MappingProxyType({})


def _is_flat(attrs: Mapping[str, Any]) -> bool:
    """Whether a status holds scalars and tuples of scalars only (a live read-only window on
    it is safe to keep: nothing in it can change in place)."""
    return _SCALAR_TYPES.issuperset(map(type, attrs.values())) or all(
        type(v) in _SCALAR_TYPES or (type(v) is tuple and _SCALAR_TYPES.issuperset(map(type, v)))
        for v in attrs.values())


def piece_view(p: Piece, values: Mapping[str, Any]) -> dict[str, Any]:
    """A piece as a view shows it: a dict of its fields as they are now, ``values`` (a
    read-only window on its printed values) and its status through a read-only window, so
    that nothing an agent does reaches the piece. A flat status is shown through a live
    window; a status holding lists or dicts, by a read-only copy."""
    attrs = p.attrs
    return {"id": p.id, "kind": p.kind, "side": p.side, "name": p.name, "location": p.location,
            "face": p.face, "steps": p.steps, "max_steps": p.max_steps, "values": values,
            "hidden": p.hidden,
            "attrs": (MappingProxyType(attrs) if _is_flat(attrs) else _read_only(dict(attrs)))
            if attrs else _NO_ATTRS}


StackView = Callable[[str, "Sequence[Piece]", str], "Sequence[bool] | None"]
"""A game's rule for what a side sees of a stack (:meth:`~.match.Game.stack_view`): (place,
its pieces top first, the side) -> for each piece, whether the side sees it only as a hidden
counter; None for the core's rule."""


def _hidden_entry(p: Piece, loc: str, n: int) -> dict[str, Any]:
    """How a piece a side may not see shows in its view: its place, side, and kind hidden."""
    return {"id": f"hidden:{loc}:{n}", "kind": "hidden", "side": p.side, "location": loc}


class SharedBoard:
    """The pieces as the views of one match show them, built once and shared by every view
    until the pieces change: the one cache of views, and its invalidation.

    Every change to a piece's fields or status, and every change to a place's stack, is
    stamped by the pieces themselves, with their registry's clock
    (:class:`~.pieces.RevisionClock`). Each piece's shown
    form (:func:`piece_view`) is kept with the stamps it was built from, and each side's
    pieces and stacks are kept place by place: nothing is rebuilt while the clock has not
    moved; when it has, only the pieces stamped since are, and only the places where they
    stand or whose stack changed. A status holding lists or dicts may change in place,
    unstamped: such a piece is compared with a copy of its status at every update. The
    shared objects never reach an agent: a view hands out copies (:class:`View`)."""

    __slots__ = ("_at", "_clock", "_full", "_history", "_layout", "_lists", "_mark", "_owners",
                 "_places", "_reg", "_sides", "_snaps", "_stack_view", "_stamps", "_values",
                 "_volatile", "_windows")

    def __init__(self, stack_view: StackView | None = None) -> None:
        #: the game's rule for what a side sees of a stack (:meth:`~.match.Game.stack_view`);
        #: None: the core's alone, a hidden piece of another side shown as hidden
        self._stack_view = stack_view
        self._reset(None)

    def _reset(self, reg: Pieces | None) -> None:
        self._reg = reg
        self._clock = -1  # the registry's clock.now when last brought up to date
        self._layout = -1  # the registry's layout then
        # where the registry's clock's journal stood when last brought up to date
        self._mark = -1 if reg is None else reg.clock.mark()
        # id of a piece's status -> the piece, for the pieces of the registry (see _noted)
        self._owners: dict[int, Piece] = {} if reg is None else {id(p.attrs): p for p in reg}
        self._full: dict[str, dict[str, Any]] = {}  # piece id -> its shown form
        self._values: dict[str, tuple[Any, Mapping[str, Any]]] = {}  # id -> (values, window)
        self._volatile: dict[str, JSON] = {}  # id -> a copy of a status holding lists or dicts
        self._at: dict[str, tuple[Piece, ...]] = {}  # place -> its stack, top first
        self._places: list[str] = []  # the occupied places, sorted
        # side -> place -> (the pieces it shows there, their ids)
        self._sides: dict[str | None, dict[str, tuple[list[dict[str, Any]], tuple[str, ...]]]] = {}
        # side -> (all the pieces it sees in order, place -> ids), built from _sides when asked
        self._lists: dict[str | None, tuple[list[dict[str, Any]], dict[str, tuple[str, ...]]]] = {}
        self._stamps: dict[str | None, int] = {}  # side -> its revision (see revision)
        # side -> its recent revisions, each with the places it showed differently from the
        # one before (None: everything, the side's first revision); see changes
        self._history: dict[str | None, list[tuple[int, frozenset[str] | None]]] = {}
        # side -> (place -> read-only windows on the pieces it shows there, the places whose
        # windows are to be made again) (see places), and a snapshot handed out at a revision
        self._windows: dict[str | None, tuple[dict[str, tuple[Mapping[str, Any], ...]],
                                              set[str]]] = {}
        self._snaps: dict[str | None, tuple[int, Mapping[str, tuple[Mapping[str, Any], ...]]]] = {}

    def _show(self, p: Piece) -> None:
        held = self._values.get(p.id)
        if held is None or held[0] is not p.values:
            window = MappingProxyType({f: MappingProxyType(v) for f, v in p.values.items()})
            held = self._values[p.id] = (p.values, window)
        self._full[p.id] = piece_view(p, held[1])
        if p.attrs and not _is_flat(p.attrs):
            self._volatile[p.id] = thaw(p.attrs)
        else:
            self._volatile.pop(p.id, None)

    def _noted(self, reg: Pieces, noted: list[Piece | Attrs]) -> dict[str, Piece]:
        """The pieces of ``reg`` that the clock's journal noted as changed (``noted``): the
        pieces themselves, and the owners of the statuses noted (a status is found by its
        piece: ``_owners`` is kept for the pieces noted, whose status may be a new one)."""
        found: dict[str, Piece] = {}
        statuses: list[Attrs] = []
        owners = self._owners
        for item in noted:
            if isinstance(item, Attrs):
                statuses.append(item)
            elif reg.holds(item):
                found[item.id] = item
        if len(owners) > 4 * len(reg) + 64:  # statuses replaced since: forget the old ones
            owners.clear()
            owners.update((id(p.attrs), p) for p in reg)
        else:
            for p in found.values():
                owners[id(p.attrs)] = p
        for status in statuses:
            owner = owners.get(id(status))
            if owner is not None and owner.attrs is status and reg.holds(owner):
                found[owner.id] = owner
        return found

    def _update(self, reg: Pieces) -> None:
        """Bring the shown pieces up to date with the registry: the pieces the clock's
        journal noted as changed since the last update (every piece after a reset)."""
        clock = reg.clock
        if reg is self._reg and clock.now == self._clock and not self._volatile:
            return
        noted = clock.since(self._mark) if reg is self._reg else None
        if noted is None:  # another registry, or the journal no longer holds what changed
            self._reset(reg)
            found = {p.id: p for p in reg}
        else:
            found = self._noted(reg, noted)
        self._mark = clock.mark()
        for pid, status in self._volatile.items():
            p = reg[pid]
            if p.attrs != status:
                found[pid] = p
        changed = list(found.values())
        for p in changed:
            self._show(p)
        places = {p.location for p in changed}
        if reg.layout != self._layout:
            since, at = self._layout, self._at
            noted_places = reg.places_since(since)
            moved = noted_places if noted_places is not None else \
                {loc for loc, stamp in reg.stamps.items() if stamp > since}
            for loc in moved:
                stack = reg.stack(loc)
                if stack:
                    at[loc] = stack
                else:
                    at.pop(loc, None)
            if len(at) != len(self._places) or any(loc not in at for loc in moved):
                self._places = sorted(at)
            places.update(moved)
            self._layout = reg.layout
        if places:
            restamped = {p.id for p in changed}
            for player, shown in self._sides.items():
                seen: list[str] = []
                for loc in places:
                    before = shown.get(loc)
                    self._show_place(shown, loc, player)
                    if self._shows_change(before, shown.get(loc), loc, restamped):
                        seen.append(loc)
                if seen:
                    self._new_revision(player, frozenset(seen))
            self._lists.clear()
        self._clock = clock.now

    def _show_place(self, shown: dict[str, tuple[list[dict[str, Any]], tuple[str, ...]]],
                    loc: str, player: str | None) -> None:
        """What ``player`` sees at a place: the pieces there and their ids."""
        stack = self._at.get(loc)
        if not stack:
            shown.pop(loc, None)
            return
        full = self._full
        hides = None if player is None or self._stack_view is None \
            else self._stack_view(loc, stack, player)
        if hides is None:
            entries = [_hidden_entry(p, loc, n)
                       if p.hidden and player is not None and p.side != player  # is_hidden_from
                       else full[p.id] for n, p in enumerate(stack)]
        else:
            entries = [_hidden_entry(p, loc, n) if hide else full[p.id]
                       for n, (p, hide) in enumerate(zip(stack, hides, strict=True))]
        shown[loc] = (entries, tuple(e["id"] for e in entries))

    def _shows_change(self, before: tuple[list[dict[str, Any]], tuple[str, ...]] | None,
                      after: tuple[list[dict[str, Any]], tuple[str, ...]] | None, loc: str,
                      restamped: set[str]) -> bool:
        """Whether a side sees a place differently: other ids there (a piece came, left,
        changed places in the stack or was turned up), or a piece it sees in full stamped
        since (a hidden piece's change shows nothing)."""
        if before is None or after is None:
            return before is not after
        if before[1] != after[1]:
            return True
        full = self._full
        return any(p.id in restamped and entry is full[p.id]
                   for p, entry in zip(self._at[loc], after[0], strict=True))

    _KEPT = 32
    """How many of a side's revisions :meth:`changes` can answer from."""

    def _new_revision(self, player: str | None, places: frozenset[str] | None) -> None:
        """A new revision of what ``player`` is shown: ``places`` shown differently (None:
        all of them); their read-only windows are made again when next asked for."""
        stamp = self._stamps[player] = next(_REVISION)
        history = self._history.setdefault(player, [])
        history.append((stamp, places))
        if len(history) > self._KEPT:
            del history[:-self._KEPT]
        if places is None:
            self._windows.pop(player, None)
        else:
            held = self._windows.get(player)
            if held is not None:
                held[1].update(places)

    def _side(self, reg: Pieces, player: str | None
              ) -> dict[str, tuple[list[dict[str, Any]], tuple[str, ...]]]:
        """What ``player`` sees, place by place, up to date (see :meth:`_show_place`)."""
        self._update(reg)
        shown = self._sides.get(player)
        if shown is None:
            shown = self._sides[player] = {}
            for loc in self._places:
                self._show_place(shown, loc, player)
            self._new_revision(player, None)
        return shown

    def _seen(self, reg: Pieces, player: str | None
              ) -> tuple[list[dict[str, Any]], dict[str, tuple[str, ...]]]:
        shown = self._side(reg, player)
        held = self._lists.get(player)
        if held is None:
            order = [shown[loc] for loc in self._places]
            held = self._lists[player] = (list(chain.from_iterable(e for e, _ in order)),
                                          dict(zip(self._places, (ids for _, ids in order),
                                                   strict=True)))
        return held

    def pieces(self, reg: Pieces, player: str | None) -> list[dict[str, Any]]:
        """The pieces ``player`` sees (None: the game master), place by place, each stack top
        first: shared, never to be handed out or changed."""
        return self._seen(reg, player)[0]

    def stacks(self, reg: Pieces, player: str | None) -> dict[str, tuple[str, ...]]:
        """Place -> the ids of the pieces there as ``player`` sees them: shared, as above."""
        return self._seen(reg, player)[1]

    def revision(self, reg: Pieces, player: str | None) -> int:
        """A number that changes whenever what ``player`` is shown of the pieces (any piece
        shown, any stack) changes: equal numbers, the same pieces and stacks. Unique in the
        process (never reused by another match); blind to what the side may not see (a
        hidden piece's change that shows no differently leaves it as it was), though a piece
        it sees that was touched (or moved away and back) may move it without showing
        differently."""
        self._side(reg, player)
        return self._stamps[player]

    def places(self, reg: Pieces, player: str | None
               ) -> Mapping[str, tuple[Mapping[str, Any], ...]]:
        """Place -> the pieces ``player`` sees there, top first, each a read-only window on
        its shown form (no copy): a read-only snapshot of the board at the current revision,
        safe to hand out. Only the places shown differently since the last call are wrapped
        again."""
        stamp = self.revision(reg, player)
        snap = self._snaps.get(player)
        if snap is not None and snap[0] == stamp:
            return snap[1]
        shown = self._sides[player]  # brought up to date by revision
        kept = self._windows.get(player)
        if kept is None:
            kept = self._windows[player] = ({}, set(shown))
        windows, stale = kept
        for loc in stale:
            entries = shown.get(loc)
            if entries is None:
                windows.pop(loc, None)
            else:
                windows[loc] = tuple(map(MappingProxyType, entries[0]))
        stale.clear()
        held = MappingProxyType(dict(windows))
        self._snaps[player] = (stamp, held)
        return held

    def changes(self, reg: Pieces, player: str | None, since: int) -> frozenset[str] | None:
        """The places ``player`` may see differently now than at its revision ``since``
        (:meth:`revision`): every place whose pieces or stack it is shown differently is
        among them (a place whose piece was touched may be too). None when the board cannot
        tell (``since`` is not one of this side's recent revisions of this board)."""
        now = self.revision(reg, player)
        if since == now:
            return frozenset()
        found: set[str] = set()
        for stamp, places in reversed(self._history.get(player, ())):
            if stamp == since:
                return frozenset(found)
            if places is None:
                return None
            found.update(places)
        return None


_REVISION = count(1)
"""The source of :meth:`SharedBoard.revision` numbers, shared by every match of the process."""


def _plain(value: Any) -> JSON:
    """A view's entry as plain JSON: piece views and read-only windows copied out."""
    if isinstance(value, Mapping):
        return _copy(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _decks(match: Match, player: str | None) -> dict[str, JSON]:
    decks: dict[str, JSON] = {}
    game = match.game
    for deck_id, deck in sorted(match.state.decks.items()):
        piles: dict[str, JSON] = {}
        for name, cards in sorted(deck.piles.items()):
            piles[name] = {"count": len(cards)} if is_secret_pile(game, name, player) else list(cards)
        decks[deck_id] = piles
    return decks


def _pending_for(match: Match, player: str | None) -> dict[str, JSON] | None:
    """The pending decision in full for its own player; for the others, only who decides."""
    pending = match.pending
    if pending is None:
        return None
    if player is None or pending.player == player:
        full: dict[str, JSON] = thaw(pending.to_json())
        return full
    return {"player": pending.player, "section": pending.section}


Entries = Callable[["View"], dict[str, JSON]]
"""Computes one or more entries of a view (pieces and stacks come together)."""


def _board(v: View) -> dict[str, JSON]:
    match, player = v._match, v._player
    board, reg = match.shared_board, match.state.pieces
    pieces, stacks = board._seen(reg, player)
    return {"pieces": list(map(dict.copy, pieces)),  # the agent's own copies
            "stacks": dict(zip(stacks, map(list, stacks.values()), strict=True))}


def _progress(v: View) -> dict[str, JSON]:
    state = v._match.state
    return {"player": v.player, "turn": state.turn, "phase": state.phase, "step": state.step}


def _tracks(v: View) -> dict[str, JSON]:
    return {"tracks": {k: t.value for k, t in sorted(v._match.state.tracks.items())}}


def _deck_piles(v: View) -> dict[str, JSON]:
    return {"decks": _decks(v._match, v.player)}


def _vars(v: View) -> dict[str, JSON]:
    return {"vars": thaw(visible_vars(v._match.game, v._match.state, v.player))}


def _pending(v: View) -> dict[str, JSON]:
    return {"pending": _pending_for(v._match, v.player)}


_ENTRIES: Mapping[str, Entries] = MappingProxyType({
    "player": _progress, "turn": _progress, "phase": _progress, "step": _progress,
    "pieces": _board, "stacks": _board,
    "tracks": _tracks, "decks": _deck_piles, "vars": _vars, "pending": _pending,
})
"""Each key of a view -> what computes it (with the keys computed alongside). A game changes
what a side sees through its declarations and :meth:`~.match.Game.stack_view`, never here."""


class View(Mapping[str, Any]):
    """What one side (or, with ``player=None``, the game master) may see of a match now.

    Keys: ``player``, ``turn``, ``phase``, ``step``, ``pieces`` (a list of piece objects, place
    by place, each stack top first), ``stacks`` (place -> piece ids shown), ``tracks``
    (id -> value), ``decks`` (deck -> pile -> cards, or ``{"count": n}``), ``vars`` (the
    declared visible game variables) and ``pending`` (the decision, in full only for its
    own player).
    """

    __slots__ = ("_cache", "_match", "_player", "_stamp")

    def __init__(self, match: Match, player: str | None) -> None:
        self._match = match
        self._player = player
        self._cache: dict[str, JSON] = {}
        self._stamp = match.progress()

    @property
    def player(self) -> str | None:
        """The side this view is for (None: the game master)."""
        return self._player

    @property
    def board_revision(self) -> int:
        """What the view's ``pieces`` and ``stacks`` show, as a number
        (:meth:`SharedBoard.revision`): an agent that keeps what it worked out of an earlier
        view's board may keep it for a view with the same number (not a view entry: an
        in-process agent's shortcut, never in JSON)."""
        self.check_current()
        return self._match.shared_board.revision(self._match.state.pieces, self._player)

    def board_places(self) -> Mapping[str, tuple[Mapping[str, Any], ...]]:
        """Place -> the pieces the view shows there, top first (``pieces`` by place): read-only
        windows on the shared board, not copies, so that an agent reading the board often pays
        only for what changed (:meth:`SharedBoard.places`). Not a view entry: an in-process
        agent's shortcut, never in JSON; the same pieces ``pieces`` shows."""
        self.check_current()
        return self._match.shared_board.places(self._match.state.pieces, self._player)

    def board_changes(self, since: int) -> frozenset[str] | None:
        """The places this view may show differently from a view of the same side and match
        whose :attr:`board_revision` was ``since`` (:meth:`SharedBoard.changes`): a superset
        of the places shown differently; None when it cannot tell (then read them all)."""
        self.check_current()
        return self._match.shared_board.changes(self._match.state.pieces, self._player, since)

    def var(self, name: str) -> JSON:
        """``self["vars"][name]`` (a copy), without copying the other variables: KeyError if
        the side may not read it or there is none. Not a view entry: an in-process agent's
        shortcut, like :meth:`board_places`."""
        if "vars" in self._cache:
            return self["vars"][name]
        self.check_current()
        match = self._match
        values = match.state.vars
        if name not in values or not may_read_var(match.game, name, self._player):
            raise KeyError(name)
        return thaw(values[name])

    def pile(self, deck: str, pile: str) -> JSON:
        """``self["decks"][deck][pile]`` (the cards, or ``{"count": n}`` for a pile the side
        may not look into), None if there is no such pile, without the other piles: an
        in-process agent's shortcut, like :meth:`board_places`."""
        if "decks" in self._cache:
            piles = self["decks"].get(deck)
            return None if piles is None else piles.get(pile)
        self.check_current()
        match = self._match
        held = match.state.decks.get(deck)
        cards = None if held is None else held.piles.get(pile)
        if cards is None:
            return None
        if is_secret_pile(match.game, pile, self._player):
            return {"count": len(cards)}
        return list(cards)

    def track(self, name: str) -> JSON:
        """``self["tracks"][name]``, without reading the other tracks: KeyError if there is
        none (an in-process agent's shortcut, like :meth:`board_places`)."""
        if "tracks" in self._cache:
            return self["tracks"][name]
        self.check_current()
        return self._match.state.tracks[name].value

    def determinized(self, rng: random.Random) -> Match:
        """A match to search on this view's side's behalf: a determinization of the match
        for the side (:meth:`~.match.Game.determinize`: what is hidden from it and the dice
        to come drawn again from ``rng``). The one way an in-process agent that searches
        (``greedy``, ``mcts``, through :func:`~.determinize.determinize_view`) reaches a
        match; not a view entry, never in JSON."""
        self.check_current()
        match, side = self._match, self._player
        if side is None:
            raise TabletopError("a search plays for a side: the game master's view has none")
        return match.game.determinize(match, side, rng)

    def __getitem__(self, key: str) -> Any:
        try:
            return self._cache[key]
        except KeyError:
            pass
        build = _ENTRIES.get(key)
        if build is None:
            raise KeyError(key)
        self.check_current()
        self._cache.update(build(self))
        return self._cache[key]

    def check_current(self) -> None:
        """Raise StaleView if the match has moved on since this view was made."""
        if self._match.progress() != self._stamp:
            raise StaleView(f"this view of {self._player or 'the game master'} is out of date: "
                            "the match has moved on since it was made")

    def __iter__(self) -> Iterator[str]:
        return iter(_ENTRIES)

    def __len__(self) -> int:
        return len(_ENTRIES)

    def __repr__(self) -> str:
        return f"<View of {self._player or 'the game master'}>"

    def to_json(self) -> dict[str, JSON]:
        """The whole view as plain JSON (every entry computed, pieces copied out)."""
        return {k: _plain(self[k]) for k in _ENTRIES}


SIDE_SAVE_FORMAT = "tabletop-side-save/1"
"""The format of a side's save (see :func:`make_side_save`)."""


def make_side_save(match: Match, player: str) -> dict[str, JSON]:
    """What one side may keep of a match, for play by e-mail: the header without the seed
    (the seed and the other side's choices would tell everything), that side's view and log,
    and the game master's state hash to check it against. It cannot be resumed or replayed;
    the game master's save does that."""
    if player not in match.game.info.players:
        raise TabletopError(f"game {match.game.info.id} has no side {player!r} "
                            f"(sides: {', '.join(match.game.info.players)})")
    # The seed, scripted or forced dice, a starting position (it places hidden units) and an
    # edited match's origin (its seed and decisions) are the game master's alone.
    secret = ("seed", "dice_script", "forced_dice", "position", "edited_from")
    header = {k: v for k, v in match.header().items() if k not in secret}
    return {
        "format": SIDE_SAVE_FORMAT,
        "side": player,
        "header": header,
        "decisions_taken": len(match.decisions),
        "state_hash": match.state_hash(),
        "finished": match.finished,
        "result": match.result.to_json() if match.result else None,
        "view": View(match, player).to_json(),
        "log": [e.to_json() for e in match.log.visible(player)],
    }
