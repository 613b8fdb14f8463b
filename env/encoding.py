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

Every entry is read from :meth:`~tabletop.core.engine.match.Match.view` of the side, never
from the state: what the view hides (another side's hidden pieces, the variables the side may
not read) cannot reach an observation. The board is kept between observations and brought up
to date from the places the view says changed (:meth:`~tabletop.core.engine.views.View.board_changes`).

Actions are indices into the pending decision's options, in the order the game gives them
(stable: the same state asks the same options in the same order). Their number is the game's
declared most options (:func:`max_options`); a decision with more is an
:class:`ActionSpaceError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tabletop.core.board.areamap import AreaMap
from tabletop.core.board.hexmap import HexMap
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Decision
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Game, Match, PhasedGame
from tabletop.core.engine.visibility import may_read_var

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
    kind = type(value)
    if kind is int or kind is float:
        return float(value)
    if kind is list or kind is tuple or kind is dict:
        return float(len(value))
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, list | tuple | Mapping):
        return float(len(value))
    if isinstance(value, str):
        return 1.0 if value else 0.0
    return 0.0


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
        # side -> (board revision, the dynamic planes, the box counts) kept between observations
        self._kept: dict[str, tuple[int, Float, Float]] = {}
        self._readable: dict[str, tuple[str, ...]] = {}  # side -> the vars it may read
        self._phase_at = {p: 1 + i for i, p in enumerate(self.phases)}
        self._phase_other = 1 + len(self.phases)
        self._tracks_at = 2 + len(self.phases)

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

    def _planes_of(self, entry: Mapping[str, Any]) -> list[int]:
        """The planes a piece as a view shows it counts in."""
        side = entry.get("side", NEUTRAL)
        if side not in self.owners:
            side = NEUTRAL
        kind = entry.get("kind", "")
        found = self._plane.get((side, kind))
        if found is None:
            found = self._plane[side, "\0other"]
        out = [found]
        if kind == "hidden" or side == NEUTRAL:
            return out
        steps, most = entry.get("steps"), entry.get("max_steps")
        if isinstance(steps, int) and isinstance(most, int) and steps < most:
            out.append(self._status_plane[side, "reduced"])
        attrs = entry.get("attrs") or {}
        for status in self.statuses[1:]:
            if attrs.get(status):
                out.append(self._status_plane[side, status])
        return out

    def _fill(self, board: Float, boxes: Float, place: str, stack: Sequence[Mapping[str, Any]]) -> None:
        """Count the pieces a view shows at ``place`` into the board (or the box counts)."""
        for entry in stack:
            planes = self._planes_of(entry)
            if self.kind == "area" or place in getattr(self, "cell", {}):
                for k in planes:
                    self._put(board, k, place, 1.0)
            else:
                side = entry.get("side", NEUTRAL)
                box = self.box_index.get(place, self.box_index[ELSEWHERE])
                boxes[box, self.owners.index(side) if side in self.owners else -1] += 1.0

    def _clear(self, board: Float, boxes: Float, place: str) -> None:
        """Forget what was counted at ``place`` (before counting it again)."""
        if self.kind == "hex":
            cell = self.cell.get(place)
            if cell is not None:
                board[: self.dynamic, cell[0], cell[1]] = 0.0
            else:
                boxes[self.box_index.get(place, self.box_index[ELSEWHERE])] = 0.0
        elif self.kind == "area":
            board[self.row.get(place, self.row[ELSEWHERE]), : self.dynamic] = 0.0
        else:
            boxes[self.box_index.get(place, self.box_index[ELSEWHERE])] = 0.0

    def _recount(self, board: Float, boxes: Float, places: Mapping[str, Sequence[Mapping[str, Any]]],
                 changed: frozenset[str] | None) -> None:
        if changed is None:
            if self.kind == "area":
                board[:, : self.dynamic] = 0.0
            else:
                board[: self.dynamic] = 0.0
            boxes[:] = 0.0
            for place, stack in places.items():
                self._fill(board, boxes, place, stack)
            return
        shared = {ELSEWHERE} | {p for p in changed if p not in getattr(self, "cell", {})
                                and p not in getattr(self, "row", {}) and p not in self.box_index}
        if len(shared) > 1:  # a catch-all row or box: count it again from all its places
            changed = changed | {p for p in places if p not in getattr(self, "cell", {})
                                 and p not in getattr(self, "row", {}) and p not in self.box_index}
            self._clear(board, boxes, ELSEWHERE)
        for place in changed:
            self._clear(board, boxes, place)
        for place in changed:
            stack = places.get(place, ())
            if stack:
                self._fill(board, boxes, place, stack)

    def board(self, view: Mapping[str, Any], side: str) -> tuple[Float, Float]:
        """The board tensor and the off-map box counts of ``side``'s view (new arrays)."""
        places: Mapping[str, Sequence[Mapping[str, Any]]]
        board_places = getattr(view, "board_places", None)
        if board_places is not None:
            revision: int = view.board_revision  # type: ignore[attr-defined]
            places = board_places()
            kept = self._kept.get(side)
            if kept is None:
                dyn, boxes = self._base.copy(), np.zeros((len(self.box_index), len(self.owners)), np.float32)
                self._recount(dyn, boxes, places, None)
            elif kept[0] == revision:
                dyn, boxes = kept[1], kept[2]
            else:
                dyn, boxes = kept[1], kept[2]
                self._recount(dyn, boxes, places, view.board_changes(kept[0]))  # type: ignore[attr-defined]
            self._kept[side] = (revision, dyn, boxes)
        else:  # a plain mapping (a view as JSON): count every piece
            grouped: dict[str, list[Mapping[str, Any]]] = {}
            for entry in view["pieces"]:
                grouped.setdefault(entry["location"], []).append(entry)
            places = grouped
            dyn, boxes = self._base.copy(), np.zeros((len(self.box_index), len(self.owners)), np.float32)
            self._recount(dyn, boxes, places, None)
        out = dyn.copy()
        for k, (name, function) in enumerate(self._extra):
            for place, value in function(view).items():
                if value < 0:
                    raise TabletopError(f"game {self.game.info.id}: plane {name!r} gives {place} the "
                                        f"value {value}, below 0")
                self._put(out, self._extra_at + k, place, float(value))
        return out, boxes.copy()

    def forget(self) -> None:
        """Drop the boards kept between observations (a new match)."""
        self._kept.clear()

    # -- the whole observation --------------------------------------------------------------
    def vector(self, view: Mapping[str, Any], boxes: Float, deciding: Decision | None,
               match: Match | None = None) -> Float:
        """The vector of ``view`` (see the module); ``deciding``: the side's own pending decision.

        With ``match`` (the match ``view`` was made of, still current), the tracks and the
        variables are read from its state through the view's own filter
        (:func:`~tabletop.core.engine.visibility.may_read_var`; every track is public), not
        copied out of the view, which is what a view would show, at less cost."""
        out = np.zeros(len(self.vector_names), np.float32)
        out[0] = float(view["turn"] or 0)
        out[self._phase_at.get(view["phase"], self._phase_other)] = 1.0
        at = self._tracks_at
        side = view["player"]
        if match is not None:
            tracks, values = match.state.tracks, match.state.vars
            numbers = [_number(held.value) if (held := tracks.get(name)) is not None else 0.0
                       for name in self.tracks]
            readable = self._readable.get(side)
            if readable is None:
                readable = self._readable[side] = tuple(
                    name for name in self.vars if may_read_var(self.game, name, side))
            numbers += [_number(values.get(name)) if name in readable else 0.0 for name in self.vars]
        else:
            numbers = [_number(view["tracks"].get(name, 0)) for name in self.tracks]
            shown = view["vars"]
            numbers += [_number(shown.get(name)) for name in self.vars]
        out[at: at + len(numbers)] = numbers
        at += len(numbers)
        if self.box_index:
            out[at: at + boxes.size] = boxes.ravel()
            at += boxes.size
        if deciding is not None:
            out[at], out[at + 1] = 1.0, float(len(deciding.options))
        return out

    def mask(self, deciding: Decision | None) -> NDArray[np.int8]:
        """1 for each option of the side's own pending decision, 0 elsewhere."""
        mask = np.zeros(self.size, np.int8)
        if deciding is not None:
            check_options(self.game, deciding, self.size)
            mask[: len(deciding.options)] = 1
        return mask

    def observe(self, match: Match, side: str) -> dict[str, NDArray[Any]]:
        """``side``'s observation of ``match``: ``board``, ``vector`` and ``action_mask``."""
        view = match.view(side)
        pending = match.pending
        deciding = pending if pending is not None and pending.player == side else None
        board, boxes = self.board(view, side)
        return {"board": board, "vector": self.vector(view, boxes, deciding, match),
                "action_mask": self.mask(deciding)}

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
