"""Observations and actions of any game as fixed-shape arrays, built from one side's view.

An :class:`Encoder` is made once for a game and scenario; the shapes it declares are the same
for every state of that game and scenario:

- ``board``: on a hex map, planes over the map's offset grid (``planes x rows x columns``,
  row and column 0 the map's first printed row and column); on an area map, one row per
  area and off-map box (``places x planes``). The planes: for each side (and the neutral
  markers, side ``""``) one per kind of piece the scenario sets up, one for pieces of that
  side shown only as hidden counters, one for pieces of a kind not set up; for each side one
  per status (``reduced``: fewer steps than printed, then each status the game names in
  :meth:`~tabletop.core.engine.match.Game.statuses`); then the map's own facts (a hex map:
  one plane per terrain type and one marking the hexes of the map; an area map: each area's
  numeric attributes). A game may add planes (:data:`PLANES_HOOK`).
- ``vector``: the turn, the phase (one-hot over the game's phases), the tracks, the game
  variables the game declares visible (0 where the side may not read one), the pieces of
  each side in each off-map box (on a hex map), and whether the side decides now.
- ``action_mask``: 1 for each index of the pending decision's options when the side decides.

Every entry is what :meth:`~tabletop.core.engine.match.Match.view` of the side shows, and is
read through the same rules the view applies: the board's pieces through the side's
visibility rules (another side's hidden pieces, and those the game's
:meth:`~tabletop.core.engine.match.Game.stack_view` hides, count only as hidden counters of
their side where they stand), the variables through
:func:`~tabletop.core.engine.visibility.may_read_var` (0 where the side may not read one). What
the view hides cannot reach an observation. The board is kept between observations and
counted again only at the places where something may have changed, found from the pieces'
own record of their changes (:meth:`Encoder._kept_board`); a game that makes its own views is
observed from its view, counted afresh. The arrays handed out are read-only and never written
again: an unchanged board or vector is handed out again as the same array, a changed one is
made anew from the one kept.

Actions are indices into the pending decision's options, in the order the game gives them
(stable: the same state asks the same options in the same order). Their number is the game's
declared most options (:func:`max_options`); a decision with more is an
:class:`ActionSpaceError`.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from tabletop.core.board.areamap import AreaMap
from tabletop.core.board.hexmap import HexMap
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Decision
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Game, Match, PhasedGame
from tabletop.core.engine.pieces import Attrs, Piece, Pieces
from tabletop.core.engine.visibility import is_hidden_from, may_read_var

MAX_OPTIONS_ATTR = "max_options"
"""The attribute a game may declare: the most options any of its decisions offers (an int)."""

PLANES_HOOK = "observation_planes"
"""The attribute a game may declare to add board planes: a mapping of plane name -> a
function of a side's view returning ``{place: value}`` (values of 0 or more; places the
function leaves out are 0). It must read the view alone."""

ELSEWHERE = "elsewhere"
"""The row of an area map (and the box of a hex map's vector) for a place that is neither
an area, a hex nor a declared box (off the board, a holding box the map does not draw)."""

NEUTRAL = ""
"""The side of the markers that belong to no side."""

Float = NDArray[np.float32]
PlaneFunction = Callable[[Mapping[str, Any]], Mapping[str, float]]


class ActionSpaceError(TabletopError):
    """A decision offers more options than the game's declared action space holds."""


def max_options(game: Game, probe: Match) -> int:
    """The size of the action space: the game's declared :data:`MAX_OPTIONS_ATTR`, else a
    bound from its data: every place a piece may stand (hexes or areas, and boxes) and every
    piece the scenario sets up, plus 64 for the menus of a decision."""
    declared = getattr(game, MAX_OPTIONS_ATTR, None)
    if declared is not None:
        if not isinstance(declared, int) or isinstance(declared, bool) or declared < 2:
            raise TabletopError(f"game {game.info.id}: {MAX_OPTIONS_ATTR} must be a whole number of "
                                f"at least 2, not {declared!r}")
        return declared
    board = game.board(probe)
    places = len(board) if isinstance(board, HexMap) else len(board.areas()) if isinstance(
        board, AreaMap) else 0
    boxes = len(getattr(board, "boxes", {}) or {})
    return places + boxes + len(probe.state.pieces) + 64


def check_options(game: Game, decision: Decision, size: int) -> None:
    """Raise :class:`ActionSpaceError` when ``decision`` offers more than ``size`` options."""
    if len(decision.options) > size:
        raise ActionSpaceError(
            f"game {game.info.id}: decision {decision.prompt!r} ({decision.section}, kind "
            f"{decision.kind or '-'}) offers {len(decision.options)} options, more than the "
            f"action space's {size}: declare a larger {MAX_OPTIONS_ATTR} on the game")


def _number(value: JSON) -> float:
    """A variable's value as one number: a number as it is, a truth as 0 or 1, a list or a
    dict by its length, a text as 1 (0 when empty), nothing as 0."""
    read = _NUMBER.get(type(value))
    if read is not None:
        return read(value)
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, list | tuple | Mapping):
        return float(len(value))
    if isinstance(value, str):
        return 1.0 if value else 0.0
    return 0.0


def _length(value: Any) -> float:
    return float(len(value))


def _nothing(value: Any) -> float:
    return 0.0


def _truth(value: Any) -> float:
    return 1.0 if value else 0.0


_NUMBER: dict[type, Callable[[Any], float]] = {
    int: float, float: float, bool: _truth, str: _truth, type(None): _nothing,
    list: _length, tuple: _length, dict: _length}
"""How :func:`_number` reads a value of each plain type (others go the long way)."""


_SIDE = attrgetter("side")

_LAG = 4096
"""The most changes a kept board's spare may lag behind it (see :meth:`Encoder._writable`)."""


def _refs_when_alone() -> int:
    """What ``sys.getrefcount`` says of an array held by one slot of a kept board and nothing
    else (0 where reference counts are not told: a board handed out is then never reused)."""
    if sys.implementation.name != "cpython":
        return 0
    holder = _Holder()
    holder.spare = np.zeros(1, np.float32)
    alone = sys.getrefcount(holder.spare)
    held = holder.spare
    if sys.getrefcount(holder.spare) != alone + 1 or held is None:
        return 0
    return alone


class _Holder:
    __slots__ = ("spare",)

    def __init__(self) -> None:
        self.spare: Float | None = None

_FIXED = frozenset({str, int, float, bool, type(None), tuple, frozenset})
"""The types of status values whose truth cannot change in place (see :class:`_Kept`)."""


_ALONE = _refs_when_alone()
"""See :func:`_refs_when_alone`."""


class _Kept:
    """One side's board as the match's pieces showed it, through the side's visibility
    rules, at a count of their registry's clock: the board's counts, the off-map box counts,
    and what each place added to them, with where the registry's journal stood. Derived data
    of the encoder, made and brought up to date in :meth:`Encoder._kept_board` alone, and
    dropped by :meth:`Encoder.forget`.

    The board array is handed out as it is, read-only, and never written again while anyone
    else holds it: a change makes a new one from it (copy on write), or brings up to date
    the one handed out before it when nothing else holds that one any more
    (:meth:`Encoder._writable`)."""

    __slots__ = ("board", "boxes", "boxes_changed", "by_tail", "counted", "flat", "head", "lag",
                 "layout", "mark", "now", "owners", "reg", "shared", "spare", "tail", "vector",
                 "volatile")

    def __init__(self, reg: Pieces, board: Float, boxes: int) -> None:
        self.reg = reg  # the registry read (a new one: counted anew)
        self.now = reg.clock.now  # its clock's count when read
        self.mark = reg.clock.mark()  # where its clock's journal stood then
        self.layout = reg.layout  # its layout then
        self.board = board  # the board tensor's counts and its static planes
        self.flat = board.reshape(-1)  # the same, flat (no copy)
        self.shared = False  # whether ``board`` was handed out (then written no more)
        # the board handed out before ``board`` (None: none), and the changes (flat entry,
        # count) that make it ``board``: see Encoder._writable
        self.spare: Float | None = None
        self.lag: list[tuple[int, int]] = []
        self.boxes = [0] * boxes  # box by owner (see Encoder._where)
        self.boxes_changed: set[int] = set()  # the box counts changed since the vector was made
        self.counted: dict[str, dict[int, int]] = {}  # place -> its entries -> its counts
        # id of a piece's status -> the piece (to find the piece of a status noted changed)
        self.owners: dict[int, Piece] = {id(p.attrs): p for p in reg}
        # places showing a piece whose counted status holds a list or dict (which may change
        # in place, unnoted): counted again at every observation
        self.volatile: set[str] = set()
        # the vector last handed out (None: none yet), and its numbers before the box counts
        # (Encoder._head) and after them (whether the side decides, its number of options)
        self.vector: Float | None = None
        self.head: list[float] = []
        self.tail: tuple[float, float] = (0.0, 0.0)
        # the vectors handed out since the head and box counts last changed, by their tail
        self.by_tail: dict[tuple[float, float], Float] = {}


class Encoder:
    """The fixed-shape observation of one game and scenario, for any side (see the module)."""

    def __init__(self, game: Game, probe: Match) -> None:
        """``probe``: a match of the scenario at its set-up, read for the shapes only."""
        self.game = game
        self.sides: tuple[str, ...] = tuple(game.info.players)
        board = game.board(probe)
        self.board_map = board
        pieces = list(probe.state.pieces)
        owners = [*self.sides, NEUTRAL]
        kinds: dict[str, list[str]] = {s: sorted({p.kind for p in pieces if p.side == s}) for s in owners}
        plane: dict[tuple[str, str], int] = {}
        names: list[str] = []

        def add(name: str) -> int:
            names.append(name)
            return len(names) - 1

        for side in owners:
            for kind in kinds[side]:
                plane[side, kind] = add(f"{side or 'neutral'}:{kind}")
            plane[side, "hidden"] = add(f"{side or 'neutral'}:hidden")
            plane[side, "\0other"] = add(f"{side or 'neutral'}:other kinds")
        self.statuses: tuple[str, ...] = ("reduced", *game.statuses())
        status_plane: dict[tuple[str, str], int] = {}
        for side in self.sides:
            for status in self.statuses:
                status_plane[side, status] = add(f"{side}:{status}")
        self._plane = plane
        self._status_plane = status_plane
        self.dynamic = len(names)
        hook = getattr(game, PLANES_HOOK, None)
        self._extra: tuple[tuple[str, PlaneFunction], ...] = tuple(
            sorted(hook.items())) if isinstance(hook, Mapping) else ()
        self._extra_at = len(names)
        for name, _ in self._extra:
            add(f"game:{name}")
        static: list[tuple[str, dict[str, float]]] = []
        self.boxes: tuple[str, ...] = tuple(getattr(board, "boxes", {}) or {})
        if isinstance(board, HexMap):
            grid = board.grid
            (c0, c1), (r0, r1) = grid.columns, grid.rows
            self.kind = "hex"
            self.cell: dict[str, tuple[int, int]] = {}
            for h in board.hexes():
                col, row = grid.to_offset(h)
                self.cell[board.label(h)] = (row - r0, col - c0)
            terrains = sorted(board.terrain_types)
            for terrain in terrains:
                static.append((f"terrain:{terrain}",
                               {hid: 1.0 for hid in board.ids() if board.terrain(board.hex(hid)) == terrain}))
            static.append(("on map", dict.fromkeys(board.ids(), 1.0)))
            self.box_index = {b: i for i, b in enumerate([*self.boxes, ELSEWHERE])}
            self.board_shape: tuple[int, ...] = (len(names) + len(static), r1 - r0 + 1, c1 - c0 + 1)
        elif isinstance(board, AreaMap):
            self.kind = "area"
            rows = [*board.areas(), *(b for b in self.boxes if b not in board), ELSEWHERE]
            self.row = {a: i for i, a in enumerate(rows)}
            keys = sorted({k for a in board.areas() for k, v in board.area(a).attrs.items()
                           if isinstance(v, int | float)})
            for key in keys:
                static.append((f"area:{key}", {a: _number(board.attr(a, key, 0)) for a in board.areas()}))
            self.box_index = {}
            self.board_shape = (len(rows), len(names) + len(static))
        else:
            self.kind = "none"
            self.box_index = {b: i for i, b in enumerate([*self.boxes, ELSEWHERE])}
            self.board_shape = (len(names), 1, 1)
        self.plane_names: tuple[str, ...] = (*names, *(n for n, _ in static))
        self._base = np.zeros(self.board_shape, np.float32)
        for k, (_, values) in enumerate(static):
            for place, value in values.items():
                self._put(self._base, len(names) + k, place, value)
        phases: list[str] = []
        if isinstance(game, PhasedGame):
            phases += [p.id for p in game.sequence.phases]
        phases += [e.id for e in game.entry_points() if e.id not in phases]
        self.phases: tuple[str, ...] = tuple(phases)
        self.tracks: tuple[str, ...] = tuple(sorted(probe.state.tracks))
        self.vars: tuple[str, ...] = tuple(sorted(game.var_visibility))
        vector = ["turn", *(f"phase:{p}" for p in self.phases), "phase:other",
                  *(f"track:{t}" for t in self.tracks), *(f"var:{v}" for v in self.vars)]
        if self.box_index:
            vector += [f"box:{b}:{s or 'neutral'}" for b in self.box_index for s in owners]
        vector += ["deciding", "options"]
        self.vector_names: tuple[str, ...] = tuple(vector)
        self.owners = tuple(owners)
        self.size = max_options(game, probe)
        # A side's counts: the board's, and the box counts of the vector (on a hex map); where
        # each place counts: see _where. The vector's head (turn, phase, tracks, variables)
        # is read anew at each observation (see _head).
        self._boxes = len(self.box_index) * len(self.owners)
        # phase -> the vector's one-hot phase entries (one more for a phase not named)
        self._phase_rows = {p: tuple(float(i == k) for k in range(len(self.phases) + 1))
                            for i, p in enumerate(self.phases)}
        self._phase_other = tuple(float(k == len(self.phases)) for k in range(len(self.phases) + 1))
        self._masks: dict[int, NDArray[np.int8]] = {}  # options -> the mask (see mask)
        self._owner_at = {s: i for i, s in enumerate(self.owners)}
        self._status_at = {status: i for i, status in enumerate(self.statuses) if i > 0}
        self._places: dict[str, tuple[bool, int, int]] = {}
        self._kept: dict[str, _Kept] = {}  # side -> its board as last observed (see _kept_board)
        # the game's rule for what a side sees of a stack, None for the core's alone (as the
        # views take it); and whether the game makes its own views (then observed from them)
        self._stack_view = None if type(game).stack_view is Game.stack_view else game.stack_view
        self._own_view = type(game).view is not Game.view
        # side -> the variables in the vector's order, None for each it may not read
        self._readable: dict[str, tuple[str | None, ...]] = {}

    # -- the board ------------------------------------------------------------------------
    def _put(self, board: Float, plane: int, place: str, value: float) -> bool:
        """Add ``value`` to ``plane`` at ``place``; False when the place is not on the board."""
        if self.kind == "hex":
            cell = self.cell.get(place)
            if cell is None:
                return False
            board[plane, cell[0], cell[1]] += value
            return True
        if self.kind == "area":
            row = self.row.get(place, self.row[ELSEWHERE])
            board[row, plane] += value
            return True
        return False

    def _where(self, place: str) -> tuple[bool, int, int]:
        """Where the pieces at ``place`` count: (on the board, offset, stride). On the board,
        a piece's plane ``k`` is the entry ``offset + k * stride`` of the flat board (a hex:
        its cell of each plane; an area map: its row); off it (a box, or elsewhere), its
        owner's box count is the entry ``offset + owner`` of the box counts."""
        found = self._places.get(place)
        if found is None:
            if self.kind == "hex" and place in self.cell:
                row, col = self.cell[place]
                rows, cols = self.board_shape[1], self.board_shape[2]
                found = (True, row * cols + col, rows * cols)
            elif self.kind == "area":
                found = (True, self.row.get(place, self.row[ELSEWHERE]) * self.board_shape[1], 1)
            else:
                box = self.box_index.get(place, self.box_index[ELSEWHERE])
                found = (False, box * len(self.owners), 0)
            self._places[place] = found
        return found

    def _count(self, place: str, stack: Sequence[Mapping[str, Any]]) -> dict[int, int]:
        """What the pieces a view shows at ``place`` add to the counts (the flat board's or
        the box counts, see :meth:`_where`): entry -> count. On the board, a piece counts in
        the plane of its side and kind (its side's hidden counters, or its side's other
        kinds), and, unless hidden or neutral, in its side's ``reduced`` plane when it has
        fewer steps than printed and in the plane of each status its ``attrs`` holds true."""
        on_board, offset, stride = self._where(place)
        counts: dict[int, int] = {}
        owner_at = self._owner_at
        if not on_board:
            neutral = len(self.owners) - 1
            for entry in stack:
                at = offset + owner_at.get(entry.get("side", NEUTRAL), neutral)
                counts[at] = counts.get(at, 0) + 1
            return counts
        plane_of, status_at, status_plane = self._plane, self._status_at, self._status_plane
        for entry in stack:
            get = entry.get
            side = get("side", NEUTRAL)
            if side not in owner_at:
                side = NEUTRAL
            kind = get("kind", "")
            found = plane_of.get((side, kind))
            at = offset + (plane_of[side, "\0other"] if found is None else found) * stride
            counts[at] = counts.get(at, 0) + 1
            if kind == "hidden" or side == NEUTRAL:
                continue
            steps, most = get("steps"), get("max_steps")
            if isinstance(steps, int) and isinstance(most, int) and steps < most:
                at = offset + status_plane[side, "reduced"] * stride
                counts[at] = counts.get(at, 0) + 1
            attrs = get("attrs")
            if attrs:
                for status, value in attrs.items():
                    if value and status in status_at:
                        at = offset + status_plane[side, status] * stride
                        counts[at] = counts.get(at, 0) + 1
        return counts

    def _count_stack(self, place: str, stack: Sequence[Piece], viewer: str,
                     volatile: set[str]) -> dict[int, int]:
        """What the pieces at ``place`` (``stack``, top first) add to ``viewer``'s counts,
        read from the pieces through the core's visibility rules for the side: the game's
        :meth:`~tabletop.core.engine.match.Game.stack_view` when it has one, else
        :func:`~tabletop.core.engine.visibility.is_hidden_from`; a piece the side may not see
        counts as its view shows it (place, side and kind ``"hidden"``), nothing more. The
        same counts as :meth:`_count` of the view's pieces there; notes in ``volatile``
        whether the place shows a counted status that may change in place."""
        on_board, offset, stride = self._where(place)
        counts: dict[int, int] = {}
        owner_at = self._owner_at
        if not on_board:  # a box counts each piece by its side alone, hidden or not
            neutral = len(self.owners) - 1
            for side, n in Counter(map(_SIDE, stack)).items():
                at = offset + owner_at.get(side, neutral)
                counts[at] = counts.get(at, 0) + n
            volatile.discard(place)
            return counts
        rule = self._stack_view
        hides = None if rule is None else rule(place, stack, viewer)
        if hides is None:
            hides = [is_hidden_from(p, viewer) for p in stack]
        plane_of, status_at, status_plane = self._plane, self._status_at, self._status_plane
        changing = False
        for p, hidden in zip(stack, hides, strict=True):
            side = p.side
            if side not in owner_at:
                side = NEUTRAL
            kind = "hidden" if hidden else p.kind
            found = plane_of.get((side, kind))
            at = offset + (plane_of[side, "\0other"] if found is None else found) * stride
            counts[at] = counts.get(at, 0) + 1
            if kind == "hidden" or side == NEUTRAL:
                continue
            steps, most = p.steps, p.max_steps
            if isinstance(steps, int) and isinstance(most, int) and steps < most:
                at = offset + status_plane[side, "reduced"] * stride
                counts[at] = counts.get(at, 0) + 1
            attrs = p.attrs
            if attrs:
                for status, value in attrs.items():
                    if status in status_at:
                        if type(value) not in _FIXED:
                            changing = True
                        if value:
                            at = offset + status_plane[side, status] * stride
                            counts[at] = counts.get(at, 0) + 1
        if changing:
            volatile.add(place)
        else:
            volatile.discard(place)
        return counts

    def _counted(self, places: Mapping[str, Sequence[Mapping[str, Any]]]) -> tuple[Float, list[int]]:
        """The board (the static planes in) and box counts of every place of a view, counted
        from the start."""
        board = self._base.copy()
        flat, boxes = board.reshape(-1), [0] * self._boxes
        for place, stack in places.items():
            if stack:
                into = flat if self._where(place)[0] else boxes
                for at, n in self._count(place, stack).items():
                    into[at] += n
        return board, boxes

    def _kept_board(self, match: Match, side: str) -> _Kept:
        """``side``'s board in ``match``, kept between observations: the one place the kept
        boards are made, brought up to date or made again.

        The pieces are read from the match's registry through the side's visibility rules
        (:meth:`_count_stack`), only at the places where something may have changed since
        the side's last observation: the places of the pieces and statuses the registry's
        clock noted as changed since (:meth:`~tabletop.core.engine.pieces.RevisionClock.since`),
        the places whose stack changed (:meth:`~tabletop.core.engine.pieces.Pieces.places_since`)
        and those showing a status that may change in place. Each place's old counts are
        taken out and its new ones put in, on a new copy of the board if the one kept was
        handed out. When the registry cannot tell (another match's, a journal that no longer
        reaches back, a new match) every place is counted anew."""
        reg = match.state.pieces
        kept = self._kept.get(side)
        clock = reg.clock
        if kept is not None and kept.reg is reg:
            if clock.now == kept.now and not kept.volatile:
                return kept
            noted = clock.since(kept.mark)
            moved = reg.places_since(kept.layout) if noted is not None else None
            if moved is not None:
                self._recount(kept, side, noted or (), moved)
                return kept
        kept = self._kept[side] = _Kept(reg, self._base.copy(), self._boxes)
        at, volatile, counted = reg.stack, kept.volatile, kept.counted
        for place in sorted(reg.occupied()):
            counts = counted[place] = self._count_stack(place, at(place), side, volatile)
            into = kept.flat if self._where(place)[0] else kept.boxes
            for entry, n in counts.items():
                into[entry] += n
        return kept

    def _recount(self, kept: _Kept, side: str, noted: Sequence[Piece | Attrs], moved: set[str]) -> None:
        """Count again the places of ``kept`` where something may have changed (see
        :meth:`_kept_board`): ``noted``, what the clock's journal noted since; ``moved``, the
        places whose stack changed since."""
        reg = kept.reg
        places = moved | kept.volatile
        owners = kept.owners
        holds = reg.holds
        statuses: list[Attrs] = []
        for item in noted:
            if type(item) is Attrs:
                statuses.append(item)
            elif holds(item):  # type: ignore[arg-type]  # a piece
                piece = cast("Piece", item)
                places.add(piece.location)
                owners[id(piece.attrs)] = piece
        for status in statuses:
            owner = owners.get(id(status))
            if owner is not None and owner.attrs is status and holds(owner):
                places.add(owner.location)
        if len(owners) > 4 * len(reg) + 64:  # statuses replaced since: forget the old ones
            owners.clear()
            owners.update((id(p.attrs), p) for p in reg)
        clock = reg.clock
        kept.now, kept.mark, kept.layout = clock.now, clock.mark(), reg.layout
        counted, volatile, at = kept.counted, kept.volatile, reg.stack
        flat = None
        for place in places:
            old = counted.pop(place, None) or {}
            stack = at(place)
            on_board = self._where(place)[0]
            deltas: dict[int, int] = {}
            if stack:
                new = counted[place] = self._count_stack(place, stack, side, volatile)
                for entry, n in new.items():
                    more = n - old.pop(entry, 0)
                    if more:
                        deltas[entry] = more
            else:
                volatile.discard(place)
            for entry, n in old.items():
                deltas[entry] = -n
            if not deltas:
                continue
            if not on_board:
                boxes = kept.boxes
                for entry, n in deltas.items():
                    boxes[entry] += n
                kept.boxes_changed.update(deltas)
                continue
            if flat is None:
                flat = self._writable(kept)
            for entry, n in deltas.items():
                flat[entry] += n
            if kept.spare is not None:
                kept.lag += deltas.items()
                if len(kept.lag) > _LAG:
                    kept.spare, kept.lag = None, []

    @staticmethod
    def _writable(kept: _Kept) -> Float:
        """The flat board of ``kept`` to write changes into: the board itself while it was
        not handed out; else a new board equal to it, made from the board handed out before
        it (brought up to date by the changes made since, :attr:`_Kept.lag`) when nothing but
        ``kept`` holds that one any more (no observation, view or buffer of it is left: its
        reference count says so), or copied from it. No array anyone else holds is written."""
        if not kept.shared:
            return kept.flat
        before = kept.board
        if _ALONE and kept.spare is not None and sys.getrefcount(kept.spare) == _ALONE:
            board = kept.spare
            board.flags.writeable = True
            flat = board.reshape(-1)
            for entry, n in kept.lag:
                flat[entry] += n
        else:
            board = before.copy()
            flat = board.reshape(-1)
        kept.board, kept.flat, kept.shared = board, flat, False
        kept.spare, kept.lag = before, []
        return flat

    def forget(self) -> None:
        """Drop the boards kept between observations (a new match)."""
        self._kept.clear()

    # -- the whole observation --------------------------------------------------------------
    def _readable_vars(self, side: str) -> tuple[str | None, ...]:
        """The game's variables in the vector's order, None for each ``side`` may not read."""
        held = self._readable.get(side)
        if held is None:
            held = self._readable[side] = tuple(
                name if may_read_var(self.game, name, side) else None for name in self.vars)
        return held

    def _head(self, turn: Any, phase: Any, numbers: list[float]) -> list[float]:
        """The vector's numbers before the box counts: the turn, the phase, the tracks' and
        variables' numbers."""
        return [float(turn or 0), *self._phase_rows.get(phase, self._phase_other), *numbers]

    @staticmethod
    def _tail(deciding: Decision | None) -> tuple[float, float]:
        """The vector's last numbers: whether the side decides now, and its number of options."""
        return (0.0, 0.0) if deciding is None else (1.0, float(len(deciding.options)))

    def _vector(self, kept: _Kept, head: list[float], tail: tuple[float, float]) -> Float:
        """The vector of ``kept``'s side: one handed out before with the same numbers (the last
        one, or one since the head and box counts last changed that differs from it in the
        tail alone), else a new one (read-only) made from the last with the numbers that
        changed."""
        vector = kept.vector
        changed = kept.boxes_changed
        if vector is not None and not changed and head == kept.head:
            if tail == kept.tail:
                return vector
            again = kept.by_tail.get(tail)
            if again is not None:
                kept.vector, kept.tail = again, tail
                return again
        else:
            kept.by_tail.clear()
        if vector is None:
            vector = np.array([*head, *kept.boxes, *tail], np.float32)
        else:
            vector = vector.copy()
            if head != kept.head:
                vector[:len(head)] = head
            if changed:
                at, boxes = len(head), kept.boxes
                for entry in changed:
                    vector[at + entry] = boxes[entry]
            vector[-2], vector[-1] = tail
        changed.clear()
        vector.flags.writeable = False
        kept.vector, kept.head, kept.tail = vector, head, tail
        kept.by_tail[tail] = vector
        return vector

    def _planes(self, board: Float, view: Mapping[str, Any]) -> Float:
        """``board`` with the game's own planes (:data:`PLANES_HOOK`) added, on a copy; the
        board itself when the game adds none."""
        if not self._extra:
            return board
        board = board.copy()
        for k, (name, function) in enumerate(self._extra):
            for place, value in function(view).items():
                if value < 0:
                    raise TabletopError(f"game {self.game.info.id}: plane {name!r} gives {place} the "
                                        f"value {value}, below 0")
                self._put(board, self._extra_at + k, place, float(value))
        return board

    def mask(self, deciding: Decision | None) -> NDArray[np.int8]:
        """1 for each option of the side's own pending decision, 0 elsewhere: read-only, the
        same array for every decision with as many options."""
        options = 0
        if deciding is not None:
            check_options(self.game, deciding, self.size)
            options = len(deciding.options)
        mask = self._masks.get(options)
        if mask is None:
            mask = self._masks[options] = np.zeros(self.size, np.int8)
            mask[:options] = 1
            mask.flags.writeable = False
        return mask

    def observe(self, match: Match, side: str) -> dict[str, NDArray[Any]]:
        """``side``'s observation of ``match``: ``board``, ``vector`` and ``action_mask``,
        read-only arrays the encoder never writes again (an array is handed out again as
        long as what it holds has not changed).

        The board is brought up to date from the places where something may have changed
        since the side's last observation, read through the side's visibility rules
        (:meth:`_kept_board`); the tracks and the variables are read from the match's state
        through the view's own filter (:func:`~tabletop.core.engine.visibility.may_read_var`;
        every track is public), which is what the view shows of them. A game that makes its
        own views (:meth:`~tabletop.core.engine.match.Game.view`) is observed from its view
        alone, counted afresh each time (:meth:`observe_view`)."""
        pending = match.pending
        deciding = pending if pending is not None and pending.player == side else None
        if self._own_view:
            observed = self.observe_view(match.view(side), deciding)
            for array in observed.values():
                array.flags.writeable = False
            return observed
        kept = self._kept_board(match, side)
        state = match.state
        number, tracks = _number, state.tracks
        numbers = [0.0 if held is None else value if type(value := held.value) is int else number(value)
                   for held in map(tracks.get, self.tracks)]
        # the variables the side may not read are named None, which no variable is: 0
        read = cast("Callable[[str | None], Any]", state.vars.get)
        numbers += [value if (kind := type(value)) is int else len(value) if kind is list or kind is dict
                    else number(value) for value in map(read, self._readable_vars(side))]
        vector = self._vector(kept, self._head(state.turn, state.phase, numbers), self._tail(deciding))
        board = kept.board
        if not kept.shared:
            board.flags.writeable = False
            kept.shared = True
        if self._extra:
            board = self._planes(board, match.view(side))
            board.flags.writeable = False
        return {"board": board, "vector": vector, "action_mask": self.mask(deciding)}

    def observe_view(self, view: Mapping[str, Any], deciding: Decision | None) -> dict[str, NDArray[Any]]:
        """The observation of a whole view (a :class:`~tabletop.core.engine.views.View` or
        its JSON), counted from its ``pieces``, ``tracks`` and ``vars`` alone, nothing kept:
        what :meth:`observe` gives, made the slow way, in new arrays (``deciding``: the side's
        own pending decision, or None)."""
        grouped: dict[str, list[Mapping[str, Any]]] = {}
        for entry in view["pieces"]:
            grouped.setdefault(entry["location"], []).append(entry)
        shown, tracks = view["vars"], view["tracks"]
        numbers = [_number(tracks.get(name, 0)) for name in self.tracks]
        numbers += [_number(shown.get(name)) for name in self.vars]
        board, boxes = self._counted(grouped)
        head = [*self._head(view["turn"], view["phase"], numbers), *boxes, *self._tail(deciding)]
        return {"board": self._planes(board, view), "vector": np.array(head, np.float32),
                "action_mask": self.mask(deciding).copy()}

    def spaces(self) -> Any:
        """The observation space (a gymnasium ``Dict``) and the action space (``Discrete``)."""
        from gymnasium import spaces

        vector = len(self.vector_names)
        most = float(np.finfo(np.float32).max)  # finite bounds: no value is out of them
        observation = spaces.Dict({
            "board": spaces.Box(0.0, most, self.board_shape, np.float32),
            "vector": spaces.Box(-most, most, (vector,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.size,), np.int8),
        })
        return observation, spaces.Discrete(self.size)


def deciding_sides(game: Game, scenario: str | None) -> tuple[str, ...]:
    """The sides that decide in a scenario: every player but those the rules play."""
    automatic = set(game.info.scenario(scenario).automatic)
    return tuple(s for s in game.info.players if s not in automatic)


def result_rewards(match: Match, sides: Sequence[str]) -> dict[str, float]:
    """Each side's reward for a finished match: 1 for the winner, -1 for the others, 0 for
    all in a draw (no winner)."""
    result = match.result
    if result is None or result.winner is None:
        return dict.fromkeys(sides, 0.0)
    return {s: 1.0 if s == result.winner else -1.0 for s in sides}
