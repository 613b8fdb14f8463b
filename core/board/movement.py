"""One movement search for every hex game: where a unit can end its move, at what cost, how.

A game describes its movement rules to :func:`reachable`: what each step costs
(:class:`MoveCosts` for per-hex costs plus hexside extras, or any function of two adjacent
hexes), enemy-occupied hexes, hexes in an enemy zone of control (EZOC) and its ZOC policy,
where the unit may end (stacking), must-stop hexes, a limit on hexes moved and a minimum
move. The search is a Dijkstra over the map's integer hex indices, so every game gets the
same cheapest paths and the same deterministic tie-breaking.
"""

from __future__ import annotations

import contextlib
import math
import sys
from bisect import bisect_left
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from heapq import heappop, heappush
from itertools import compress
from typing import NamedTuple, TypedDict, Unpack

from ..engine.errors import TabletopError
from .hexgrid import Hex, HexSide, direction_to
from .hexmap import HexMap
from .supply import StepMasks

CostFn = Callable[[Hex, Hex], float | None]
"""The cost of one step between adjacent hexes, or None if the step is not allowed."""

_INF = math.inf
_ENEMY = 1
_EZOC = 2
_STOP = 4
_DONE = 8  # settled, in the fast path's flags
_WHOLE_LIMIT = 2**32  # costs below it add up exactly in floats over any path of a map


class MoveError(TabletopError):
    """A destination a unit cannot reach, or movement costs that make no sense."""


class MoveCosts:
    """Step costs compiled to integer-indexed tables: the fast path of :func:`reachable`.

    A step costs the cost of entering the hex plus the extra cost of the hexside crossed;
    either may be None, which prohibits the step. Hexside extras apply in both directions
    (for one-way costs pass a :data:`CostFn` to :func:`reachable` instead). A MoveCosts is
    itself a cost function, ``costs(a, b)``, so games can price a single step with it too.
    """

    __slots__ = ("_cross", "_enter", "_float_costs", "_keyed", "_steps", "hexmap")

    def __init__(self, hexmap: HexMap,
                 enter: Mapping[Hex, float | None] | Callable[[Hex], float | None],
                 cross: Mapping[HexSide, float | None] | None = None) -> None:
        self.hexmap = hexmap
        get = _entry_getter(enter)
        self._enter: list[float] = [_price(get(h), h, hexmap) for h in hexmap.hexes()]
        # Six slots per hex, one per direction; a hexside is written on both of its hexes.
        self._cross: list[float] = [0] * (6 * len(hexmap))
        self._steps: list[tuple[tuple[int, int, float, float], ...]] | None = None
        self._keyed: list[tuple[tuple[int, int], ...]] | None = None  # built with _steps
        self._float_costs = False
        if cross:
            self._set_cross(cross)

    @classmethod
    def from_terrain(
        cls, hexmap: HexMap, terrain: Mapping[str, float | None], *,
        hexside: Mapping[str, float | None] | Callable[[frozenset[str]], float | None]
        | None = None,
    ) -> MoveCosts:
        """Costs from a terrain-key table and hexside-feature extras.

        ``terrain`` maps every terrain type of the map that is not ``prohibited`` to its
        entry cost (None also prohibits). ``hexside`` maps hexside features to their extra
        cost, summed when a hexside has several (None prohibits; features it does not name
        cost nothing), or is a function of a hexside's whole feature set, for rules such as
        a bridge cancelling a river.
        """
        used = {hexmap.terrain(h) for h in hexmap.hexes()}
        missing = sorted(t for t in used
                         if t not in terrain and not hexmap.terrain_types[t].prohibited)
        if missing:
            raise MoveError(f"map {hexmap.name!r}: no movement cost given for terrain "
                            f"{', '.join(map(repr, missing))}")

        def enter(h: Hex) -> float | None:
            name = hexmap.terrain(h)
            return None if hexmap.terrain_types[name].prohibited else terrain.get(name)

        cross: dict[HexSide, float | None] = {}
        if hexside is not None:
            price = hexside if callable(hexside) else _summed(hexside)
            for side, feats in hexmap.hexsides().items():
                cross[side] = price(feats)
        return cls(hexmap, enter, cross)

    def replace(self, *, enter: Mapping[Hex, float | None] | None = None,
                cross: Mapping[HexSide, float | None] | None = None) -> MoveCosts:
        """A copy with some hex or hexside costs changed (rubble, a pontoon bridge...)."""
        new = object.__new__(MoveCosts)
        new.hexmap = self.hexmap
        new._enter = list(self._enter)
        new._cross = list(self._cross)
        new._steps = None
        new._keyed = None
        new._float_costs = False
        for h, c in (enter or {}).items():
            new._enter[self.hexmap.index(h)] = _price(c, h, self.hexmap)
        if cross:
            new._set_cross(cross)
        return new

    def __call__(self, a: Hex, b: Hex) -> float | None:
        """The cost of the step from ``a`` to its neighbour ``b``, or None if prohibited."""
        i = self.hexmap.index(a)
        c = self._enter[self.hexmap.index(b)] + self._cross[6 * i + direction_to(a, b)]
        return None if c == _INF else c

    def steps(self) -> list[tuple[tuple[int, int, float, float], ...]]:
        """Per hex index, its allowed steps ``(direction, neighbour index, entry cost, hexside
        extra)``, built once (the inner loop of :func:`reachable` reads nothing else)."""
        if self._steps is None:
            self._build()
        assert self._steps is not None
        return self._steps

    def keyed_steps(self) -> list[tuple[tuple[int, int], ...]] | None:
        """Per hex index, its allowed steps ``(neighbour index, key step)`` when every step
        costs a whole number of MP (the usual case), else None; built with :meth:`steps`.

        A search state (cost ``c``, hexes moved ``k``, hex ``i``) is then one integer,
        ``(c * (N + 1) + k) * N + i`` on a map of N hexes, ordered as the triple is; a step
        of cost ``s`` from hex ``i`` into hex ``j`` adds ``(s * (N + 1) + 1) * N + j - i``
        to it (the table holds that without the ``- i``). The search's queue holds these
        integers rather than tuples.
        """
        if self._steps is None:
            self._build()
        return self._keyed

    def float_costs(self) -> bool:
        """Whether the costs :meth:`keyed_steps` adds up are floats (else ints)."""
        return self._float_costs

    def _build(self) -> None:
        """The step tables of :meth:`steps` and :meth:`keyed_steps`."""
        enter, cross = self._enter, self._cross
        steps = [tuple((d, j, enter[j], cross[6 * i + d]) for d, j in row
                       if enter[j] < _INF and cross[6 * i + d] < _INF)
                 for i, row in enumerate(self.hexmap.adjacency)]
        n = len(self.hexmap)
        parts = [v for row in steps for _, _, e, x in row for v in (e, x)]
        # Keyed: plain ints and floats, whole and small enough that every sum along a path is
        # exact; and a path's cost (0 + e + x + ...) a float on every path or on none.
        floats = [type(e) is float or type(x) is float for row in steps for _, _, e, x in row]
        whole = all(type(v) in (int, float) and float(v).is_integer() and abs(v) < _WHOLE_LIMIT
                    for v in parts)
        self._float_costs = bool(floats) and all(floats)
        self._keyed = None
        if whole and (all(floats) or not any(floats)):
            self._keyed = [tuple((j, (int(e + x) * (n + 1) + 1) * n + j) for _, j, e, x in row)
                           for row in steps]
        self._steps = steps

    def _set_cross(self, cross: Mapping[HexSide, float | None]) -> None:
        self._steps = None
        m = self.hexmap
        for side, extra in cross.items():
            c = _price(extra, side, m)
            i, j = m.index(side.a), m.index(side.b)
            d = direction_to(side.a, side.b)
            self._cross[6 * i + d] = c
            self._cross[6 * j + (d + 3) % 6] = c


def _entry_getter(
    enter: Mapping[Hex, float | None] | Callable[[Hex], float | None],
) -> Callable[[Hex], float | None]:
    if not isinstance(enter, Mapping):
        return enter
    table = enter

    def get(h: Hex) -> float | None:
        try:
            return table[h]
        except KeyError:
            raise MoveError(f"no movement cost given for hex {h}") from None
    return get


def _summed(extras: Mapping[str, float | None]) -> Callable[[frozenset[str]], float | None]:
    def price(feats: frozenset[str]) -> float | None:
        total: float = 0
        for f in sorted(feats):
            extra = extras.get(f, 0)
            if extra is None:
                return None
            total += extra
        return total
    return price


def _price(cost: float | None, where: object, hexmap: HexMap) -> float:
    """A cost as stored in the tables: infinity for prohibited, never negative."""
    if cost is None:
        return _INF
    if cost < 0:
        raise MoveError(f"map {hexmap.name!r}: negative movement cost {cost} at {where}")
    return cost


class Reach:
    """The hexes a unit can end its move in, with the cheapest cost and path to each.

    A view with cheap membership, iterated in label order. The start hex is not among
    them: staying put is not a move.
    """

    __slots__ = ("_ends", "_hexmap", "_parent", "_stride", "start")

    def __init__(self, hexmap: HexMap, start: Hex, ends: dict[Hex, tuple[float, int]],
                 parent: list[int], stride: int) -> None:
        self._hexmap = hexmap
        self.start = start
        self._ends = ends
        self._parent = parent
        self._stride = stride

    def __contains__(self, h: object) -> bool:
        return h in self._ends

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._ends)

    def __len__(self) -> int:
        return len(self._ends)

    def __repr__(self) -> str:
        return f"<Reach from {self._hexmap.label(self.start)}: {len(self._ends)} hexes>"

    @property
    def costs(self) -> dict[Hex, float]:
        """Each reachable hex with the movement points its cheapest path spends."""
        return {h: c for h, (c, _) in self._ends.items()}

    def costs_by_id(self) -> dict[str, float]:
        """Each reachable hex's printed id with the movement points its cheapest path spends,
        in id order: what a destination menu is made of."""
        ids, stride = self._hexmap.ids(), self._stride
        return {ids[key // stride]: c for c, key in self._ends.values()}

    def cost(self, dest: Hex) -> float:
        """The movement points the cheapest path to ``dest`` spends."""
        return self._end(dest)[0]

    def path_to(self, dest: Hex) -> list[Hex]:
        """The cheapest path from the start to ``dest``, both included.

        Among equally cheap paths it is the one with fewest hexes, then the one whose
        hexes were settled first (lowest cost, then fewest hexes, then label order).
        """
        key = self._end(dest)[1]
        hexes, parent, stride = self._hexmap.hexes(), self._parent, self._stride
        path: list[Hex] = []
        while key >= 0:
            path.append(hexes[key // stride])
            key = parent[key]
        path.reverse()
        return path

    def _end(self, dest: Hex) -> tuple[float, int]:
        try:
            return self._ends[dest]
        except (KeyError, TypeError):
            where = self._hexmap.label(dest) if dest in self._hexmap else repr(dest)
            raise MoveError(f"hex {where} cannot be reached from "
                            f"{self._hexmap.label(self.start)}") from None


class StepLayers(NamedTuple):
    """What :func:`step_layers` finds: the hexes each layer goes on from (bits of the masks'
    layout; ``exits[k]`` are the hexes of layer ``k`` a unit may leave), every hex reached
    (map indices, in index order), the hexes moved to reach each, the EZOC's bits, whether
    a unit may step from one EZOC hex straight into another, and the layer of each bit
    place, one byte a place (0 where not reached; None when a move may be too long for a
    byte), from which :meth:`StepReach.pick` reads tables laid out by bit place."""

    exits: list[int]
    order: list[int]
    moved: list[int]
    ezoc: int
    zoc_to_zoc: bool
    by_bit: bytes | None


def step_layers(masks: StepMasks, start: int, *, enemy: int = 0, ezoc: int = 0, must_stop: int = 0,
                zoc_stops: bool = True, zoc_to_zoc: bool = True, limit: int | None = None) -> StepLayers:
    """:func:`reachable`'s search where every allowed step (``masks``' step table) costs one,
    from the hex of index ``start``, with the rules' hex sets as bits of the masks' layout
    (:meth:`~.supply.StepMasks.bits`) and ``limit`` the most hexes moved: a breadth-first
    search a whole layer of hexes at a time (a dozen integer operations a layer). It finds
    what the cost-ordered search finds: each hex at its fewest hexes moved. A caller that
    keeps its hex sets as bits calls it directly; :func:`reachable` does with a
    :class:`~.supply.StepMasks` for ``cost``."""
    after, spread, every = masks.after, masks.spread, masks.every
    bit = 1 << masks.positions[start]
    open_ = every & ~enemy & ~bit
    not_zoc = every & ~ezoc
    go_on_from = every & ~must_stop & (not_zoc if zoc_stops else every)  # (whole masks: faster)
    go_on = bit  # a unit may leave the stopping hex it begins in
    most = limit if limit is not None else len(masks.positions)
    exits: list[int] = []
    layers: list[int] = []  # the hexes first reached by each move of one more hex
    planes = [0] * 8  # the hexes reached by a move whose count of hexes has bit b set
    k = 0
    while go_on and k < most:
        exits.append(go_on)
        k += 1
        if zoc_to_zoc:
            layer = after(go_on)
        else:
            free = go_on & not_zoc
            layer = after(free) if free else 0
            if free != go_on:
                layer |= after(go_on & ezoc) & not_zoc
        layer &= open_
        if not layer:
            break
        open_ ^= layer
        layers.append(layer)
        b, bits = 0, k if k < 256 else 0
        while bits:
            if bits & 1:
                planes[b] |= layer
            bits >>= 1
            b += 1
        go_on = layer & go_on_from
    hex_at = masks.hex_at
    by_bit: bytes | None = None
    if k < 256:
        # each hex's count, one byte a hex in bit order: not 0 exactly where a hex was
        # reached (the start is not), so the bytes pick the hexes out and, less their 0s,
        # are the counts in the same order
        counts = 0
        for b, plane in enumerate(planes):
            if plane:
                counts |= int.from_bytes(spread(plane), "little") << b
        by_bit = counts.to_bytes(len(hex_at), "little")
        order = list(compress(hex_at, by_bit))
        moved = list(by_bit.translate(None, b"\0"))
    else:  # more hexes than a byte counts: a layer at a time
        union = 0
        for layer in layers:
            union |= layer
        order = list(compress(hex_at, spread(union)))
        by_hex: dict[int, int] = {}
        for count, layer in enumerate(layers, 1):
            by_hex.update(dict.fromkeys(masks.indices(layer), count))
        moved = [by_hex[i] for i in order]
    return StepLayers(exits, order, moved, ezoc, zoc_to_zoc, by_bit)


class StepReach(Reach):
    """:func:`reachable`'s answer from :func:`step_layers` (every step costs one hex): the
    same hexes, costs (hexes moved) and order; the path to a hex is found when asked, as
    the cost-ordered search would have it: each hex reached from the lowest-indexed hex of
    the layer before that could step into it (that search settles a layer's hexes in index
    order and keeps the first parent that reaches a hex at its cost).

    The unit may end in every hex reached; the core's table of ends is made only when one
    of :class:`Reach`'s readers asks for it. The layers may be shared (kept by a caller for
    the same question asked again): nothing here changes them."""

    __slots__ = ("_found", "_made", "_masks")

    def __init__(self, masks: StepMasks, start: Hex, found: StepLayers) -> None:
        self._hexmap = masks.hexmap
        self.start = start
        self._parent: list[int] = []
        self._stride = 1
        self._masks = masks
        self._found = found
        self._made: dict[Hex, tuple[float, int]] | None = None

    @property
    def _ends(self) -> dict[Hex, tuple[float, int]]:
        """The table of ends (hex -> (hexes moved, index)), in index order: made once, when
        first asked."""
        if self._made is None:
            hexes = self._hexmap.hexes()
            found = self._found
            self._made = {hexes[i]: (k, i) for i, k in zip(found.order, found.moved, strict=True)}
        return self._made

    @_ends.setter
    def _ends(self, ends: dict[Hex, tuple[float, int]]) -> None:
        self._made = ends

    def __len__(self) -> int:
        return len(self._found.order)

    def indices(self) -> list[int]:
        """The map indices of the hexes the unit may end in, in index (id) order (the
        caller must not change the list)."""
        return self._found.order

    def moved(self) -> list[int]:
        """The hexes moved to reach each hex of :meth:`indices`, in the same order (the
        caller must not change the list)."""
        return self._found.moved

    def pick(self, row: bytes) -> bytes:
        """A table of one byte a bit place of the masks' layout (:attr:`~.supply.StepMasks.hex_at`'s
        order), read at the hexes reached, in :meth:`indices`' order."""
        by_bit = self._found.by_bit
        if by_bit is not None:
            return bytes(compress(row, by_bit))
        pos = self._masks.positions
        return bytes(row[pos[i]] for i in self._found.order)

    def path_to(self, dest: Hex) -> list[Hex]:
        """The cheapest path from the start to ``dest``, both included (as the core's)."""
        m, found = self._hexmap, self._found
        order = found.order
        i = m.index(dest) if dest in m else -1
        at = bisect_left(order, i)  # (the hexes reached are in index order)
        if i < 0 or at == len(order) or order[at] != i:
            self._end(dest)  # raises the core's error
        cost = found.moved[at]
        hexes, pos, table = m.hexes(), self._masks.positions, self._masks.steps
        ezoc, exits, no_zoc_to_zoc = found.ezoc, found.exits, not found.zoc_to_zoc
        path = [hexes[i]]
        for k in range(int(cost) - 1, -1, -1):
            layer = exits[k]
            into_zoc = no_zoc_to_zoc and ezoc >> pos[i] & 1
            best = -1
            for j in m.neighbor_index[i]:
                if j < 0 or not layer >> pos[j] & 1 or i not in table[j]:
                    continue
                if into_zoc and ezoc >> pos[j] & 1:
                    continue  # never from one ZOC hex straight into another
                if best < 0 or j < best:
                    best = j
            i = best
            path.append(hexes[i])
        path.reverse()
        return path


def _unit_costs(masks: StepMasks) -> CostFn:
    """The step masks' table as a cost function: one for an allowed step, else None."""
    index, table = masks.hexmap.index, masks.steps

    def cost(a: Hex, b: Hex) -> float | None:
        return 1 if index(b) in table[index(a)] else None
    return cost


class MoveRules(TypedDict, total=False):
    """The movement rules of :func:`reachable`, :func:`can_move` and :func:`first_steps`, all
    given by keyword and all optional (the default in brackets):

    - ``enemy``: hexes never entered [none]. ``ezoc``: hexes in an enemy zone of control [none].
    - ``zoc_stops``: a unit that enters an EZOC hex must stop there [True].
    - ``zoc_to_zoc=False``: a unit may never step directly from one EZOC hex to another
      (with ``zoc_stops`` this only matters for a unit that begins in an EZOC); after a
      non-EZOC hex it continues normally [True: it may].
    - ``must_stop``: hexes that end the move when entered [none].
    - ``can_end(h)``: whether the unit may end in ``h`` (stacking): it may still pass
      through hexes where it may not end [None: anywhere].
    - ``max_hexes``: the most hexes it may enter ("one hex only") [None: no limit].
    - ``minimum_move``: a unit with any allowance may always move one hex, whatever the
      cost, if the step is otherwise allowed; it spends all its points doing so [False].
    """

    enemy: Collection[Hex]
    ezoc: Collection[Hex]
    zoc_stops: bool
    zoc_to_zoc: bool
    must_stop: Collection[Hex]
    can_end: Callable[[Hex], bool] | None
    max_hexes: int | None
    minimum_move: bool


def _max_hexes(rules: MoveRules) -> int | None:
    """The rules' hex limit, refused when negative."""
    max_hexes = rules.get("max_hexes")
    if max_hexes is not None and max_hexes < 0:
        raise MoveError(f"max_hexes must not be negative, got {max_hexes}")
    return max_hexes


def reachable(hexmap: HexMap, start: Hex, allowance: float, cost: MoveCosts | StepMasks | CostFn,
              **rules: Unpack[MoveRules]) -> Reach:
    """Every hex a unit at ``start`` can end its move in with ``allowance`` movement points,
    under the :class:`MoveRules` given by keyword.

    ``cost`` is the price of each step: a :class:`MoveCosts` (fast), a
    :class:`~.supply.StepMasks` when every allowed step costs one (the fastest: a layer of
    hexes at a time, :func:`step_layers`), or a function of the two hexes; None prohibits
    the step. ``allowance`` may be ``math.inf`` for "any number of hexes".
    """
    max_hexes = _max_hexes(rules)
    enemy, ezoc, must_stop = rules.get("enemy", ()), rules.get("ezoc", ()), rules.get("must_stop", ())
    zoc_stops, zoc_to_zoc = rules.get("zoc_stops", True), rules.get("zoc_to_zoc", True)
    can_end, minimum_move = rules.get("can_end"), rules.get("minimum_move", False)
    start_i = hexmap.index(start)
    if isinstance(cost, StepMasks):
        if cost.hexmap is not hexmap:
            raise MoveError(f"the step masks are of map {cost.hexmap.name!r}, not {hexmap.name!r}")
        if can_end is None and not minimum_move:
            bits = cost.bits
            most = None if allowance >= _INF else max(math.floor(allowance), 0)
            if max_hexes is not None:
                most = max_hexes if most is None else min(most, max_hexes)
            found = step_layers(cost, start_i, enemy=bits(hexmap.indices(enemy)),
                                ezoc=bits(hexmap.indices(ezoc)), must_stop=bits(hexmap.indices(must_stop)),
                                zoc_stops=zoc_stops, zoc_to_zoc=zoc_to_zoc, limit=most)
            return StepReach(cost, start, found)
        cost = _unit_costs(cost)
    n = len(hexmap)
    flags = bytearray(_zone_flags(hexmap, enemy, ezoc, must_stop, zoc_stops))
    flags[start_i] &= ~_STOP  # a unit that begins in a stopping hex may still leave it
    blocked_from_zoc = _ENEMY | (0 if zoc_to_zoc else _EZOC)

    limited = max_hexes is not None
    if not limited and isinstance(cost, MoveCosts):
        return _reachable_fast(hexmap, start, start_i, allowance, cost, flags,
                               blocked_from_zoc, can_end, minimum_move)
    last = max_hexes if max_hexes is not None else n
    # A search state is a hex, or with a hex limit a (hex, hexes moved) pair, as one int.
    stride = last + 1 if limited else 1
    kmul = 1 if limited else 0
    limit = allowance if allowance < _INF else sys.float_info.max

    size = n * stride
    best_cost: list[float] = [_INF] * size
    best_k: list[int] = [n] * size
    parent: list[int] = [-1] * size
    min_k: list[int] = [n + 1] * n  # fewest hexes moved of a settled state, per hex
    end_key: list[int] = [-1] * n  # the state of the cheapest settled arrival, per hex
    settled: list[int] = []

    fast = isinstance(cost, MoveCosts)
    enter = cost._enter if isinstance(cost, MoveCosts) else []
    cross = cost._cross if isinstance(cost, MoveCosts) else []
    step_fn: CostFn = cost
    hexes = hexmap.hexes()
    adjacency = hexmap.adjacency

    start_key = start_i * stride
    best_cost[start_key] = 0
    best_k[start_key] = 0
    heap: list[tuple[float, int, int]] = [(0, 0, start_i)]
    while heap:
        c, k, i = heappop(heap)
        key = i * stride + k * kmul
        b = best_cost[key]
        if c > b or (c == b and k > best_k[key]) or k >= min_k[i]:
            continue  # superseded, or dominated by a state of this hex already settled
        # Without a hex limit, the first settlement of a hex is final.
        min_k[i] = k if limited else -1
        if end_key[i] < 0:
            end_key[i] = key
            settled.append(i)
        if flags[i] & _STOP or k == last:
            continue
        blocked = blocked_from_zoc if flags[i] & _EZOC else _ENEMY
        base = 6 * i
        k1 = k + 1
        for d, j in adjacency[i]:
            if flags[j] & blocked or k1 >= min_k[j]:
                continue
            if fast:
                nc = c + enter[j] + cross[base + d]
            else:
                step = step_fn(hexes[i], hexes[j])
                if step is None:
                    continue
                if step < 0:
                    raise MoveError(f"negative movement cost {step} from "
                                    f"{hexmap.label(hexes[i])} to {hexmap.label(hexes[j])}")
                nc = c + step
            if nc > limit:
                continue
            jkey = j * stride + k1 * kmul
            b = best_cost[jkey]
            if nc < b or (nc == b and k1 < best_k[jkey]):
                best_cost[jkey] = nc
                best_k[jkey] = k1
                parent[jkey] = key
                heappush(heap, (nc, k1, j))

    if minimum_move and allowance > 0 and last >= 1:
        blocked = blocked_from_zoc if flags[start_i] & _EZOC else _ENEMY
        for _, j in adjacency[start_i]:
            if end_key[j] >= 0 or flags[j] & blocked:
                continue
            step = cost(hexes[start_i], hexes[j])
            if step is None:
                continue
            jkey = j * stride + kmul
            best_cost[jkey] = step
            parent[jkey] = start_key
            end_key[j] = jkey
            settled.append(j)

    settled.sort()
    ends: dict[Hex, tuple[float, int]] = {}
    for i in settled:
        h = hexes[i]
        if i != start_i and (can_end is None or can_end(h)):
            key = end_key[i]
            ends[h] = (best_cost[key], key)
    return Reach(hexmap, start, ends, parent, stride)


_ZONES_KEPT = 64
"""How many zone tables :func:`_zone_flags` keeps (the latest made)."""
_ZONES: dict[tuple[object, ...], bytes] = {}
_KEPT_TYPES = (frozenset, tuple)  # collections never changed in place


def _zone_flags(hexmap: HexMap, enemy: Collection[Hex], ezoc: Collection[Hex],
                must_stop: Collection[Hex], zoc_stops: bool) -> bytes:
    """The search's starting flags of every hex (enemy, EZOC, stop), by map index: what the
    enemy hexes, the zones of control and the stopping hexes make of the map. Each unit of
    a side searches on the same zones until an enemy unit moves, so the table is kept by
    those collections when each is a frozenset or a tuple (never changed in place), the
    latest :data:`_ZONES_KEPT`; made afresh from any other collection (a set may change)."""
    key: tuple[object, ...] | None = None
    if type(enemy) in _KEPT_TYPES and type(ezoc) in _KEPT_TYPES and type(must_stop) in _KEPT_TYPES:
        key = (hexmap, enemy, ezoc, must_stop, zoc_stops)
        try:
            found = _ZONES.get(key)
        except TypeError:  # a tuple holding something unhashable
            key = found = None
        if found is not None:
            return found
    flags = bytearray(len(hexmap))
    for i in hexmap.indices(enemy):
        flags[i] |= _ENEMY
    for i in hexmap.indices(ezoc):
        flags[i] |= _EZOC | (_STOP if zoc_stops else 0)
    for i in hexmap.indices(must_stop):
        flags[i] |= _STOP
    made = bytes(flags)
    if key is not None:
        # a table is a function of its key alone, so matches in other threads may share it;
        # two of them dropping the oldest at once must not fail, whichever wins
        if len(_ZONES) >= _ZONES_KEPT:
            with contextlib.suppress(RuntimeError, StopIteration):
                _ZONES.pop(next(iter(_ZONES)), None)
        _ZONES[key] = made
    return made


def first_steps(hexmap: HexMap, start: Hex, allowance: float, cost: MoveCosts | StepMasks | CostFn,
                **rules: Unpack[MoveRules]) -> list[tuple[Hex, float]]:
    """The hexes one step from ``start`` that :func:`reachable` with the same arguments
    enters, with what each step costs, in direction order: the first step of the search,
    for games that move a unit a hex at a time (a menu of the next hex) and for
    :func:`can_move`. A hex where the unit may not end (``can_end``) is still listed: the
    unit may pass through it."""
    max_hexes = _max_hexes(rules)
    if max_hexes == 0 or allowance < 0:
        return []
    enemy, ezoc = rules.get("enemy", ()), rules.get("ezoc", ())
    from_ezoc = not rules.get("zoc_to_zoc", True) and start in ezoc
    any_cost = rules.get("minimum_move", False) and allowance > 0
    limit = allowance if allowance < _INF else sys.float_info.max
    hexes = hexmap.hexes()
    firsts: Iterable[tuple[Hex, float | None]]
    if isinstance(cost, MoveCosts):  # the allowed steps from its table, in the same order
        firsts = [(hexes[j], e + x) for _, j, e, x in cost.steps()[hexmap.index(start)]]
    elif isinstance(cost, StepMasks):
        allowed = cost.steps[hexmap.index(start)]
        firsts = [(hexes[j], 1) for j in hexmap.neighbor_index[hexmap.index(start)] if j in allowed]
    else:
        firsts = ((h, cost(start, h)) for h in hexmap.neighbors(start))
    out: list[tuple[Hex, float]] = []
    for h, step in firsts:
        if h in enemy or (from_ezoc and h in ezoc) or step is None:
            continue
        if step < 0:
            raise MoveError(f"negative movement cost {step} from {hexmap.label(start)} to "
                            f"{hexmap.label(h)}")
        if step <= limit or any_cost:
            out.append((h, step))
    return out


def can_move(hexmap: HexMap, start: Hex, allowance: float, cost: MoveCosts | StepMasks | CostFn,
             **rules: Unpack[MoveRules]) -> bool:
    """Whether :func:`reachable` with the same arguments finds any hex: the question "may
    this unit move at all?" asked of every unit to build a menu. Answered from the
    :func:`first_steps` when one of them is a legal end (the usual case); otherwise by the
    whole search."""
    can_end = rules.get("can_end")
    for h, _ in first_steps(hexmap, start, allowance, cost, **rules):
        if can_end is None or can_end(h):
            return True
    return len(reachable(hexmap, start, allowance, cost, **rules)) > 0


def _reachable_fast(hexmap: HexMap, start: Hex, start_i: int, allowance: float, cost: MoveCosts,
                    flags: bytearray, blocked_from_zoc: int, can_end: Callable[[Hex], bool] | None,
                    minimum_move: bool) -> Reach:
    """:func:`reachable` without a hex limit and with :class:`MoveCosts`: the same search on
    plain per-hex states (the first settlement of a hex is final), the same answers; on
    whole-number costs its queue holds one integer a state (:meth:`MoveCosts.keyed_steps`)."""
    n = len(hexmap)
    parent: list[int] = [-1] * n
    settled: list[int] = []
    # a settled hex is flagged _DONE in the same table, so one lookup skips it or a blocked hex
    from_zoc, elsewhere = blocked_from_zoc | _DONE, _ENEMY | _DONE
    keyed = cost.keyed_steps()
    if keyed is None:
        best_cost = _search(n, start_i, allowance, cost.steps(), flags, from_zoc, elsewhere,
                            parent, settled)
    else:
        best_cost = _search_keyed(n, start_i, allowance, keyed, cost.float_costs(), flags,
                                  from_zoc, elsewhere, parent, settled)

    hexes = hexmap.hexes()
    if minimum_move and allowance > 0:
        blocked = blocked_from_zoc if flags[start_i] & _EZOC else _ENEMY
        for _, j in hexmap.adjacency[start_i]:
            if flags[j] & (blocked | _DONE):
                continue
            step = cost(hexes[start_i], hexes[j])
            if step is None:
                continue
            best_cost[j] = step
            parent[j] = start_i
            flags[j] |= _DONE
            settled.append(j)

    settled.sort()
    ends: dict[Hex, tuple[float, int]] = {}
    for i in settled:
        h = hexes[i]
        if i != start_i and (can_end is None or can_end(h)):
            ends[h] = (best_cost[i], i)
    return Reach(hexmap, start, ends, parent, 1)


def _search(n: int, start_i: int, allowance: float,
            steps: list[tuple[tuple[int, int, float, float], ...]], flags: bytearray,
            from_zoc: int, elsewhere: int, parent: list[int], settled: list[int]) -> list[float]:
    """The search of :func:`_reachable_fast` on any costs: fills ``parent`` and ``settled``
    (in the order hexes settle) and returns each hex's cost (infinite where not reached)."""
    limit = allowance if allowance < _INF else sys.float_info.max
    best_cost: list[float] = [_INF] * n
    best_k: list[int] = [n] * n
    best_cost[start_i] = 0
    best_k[start_i] = 0
    heap: list[tuple[float, int, int]] = [(0, 0, start_i)]
    pop, push = heappop, heappush
    while heap:
        c, k, i = pop(heap)
        fi = flags[i]
        if fi & _DONE:
            continue  # superseded: the hex was settled by a cheaper (or shorter) arrival
        flags[i] = fi | _DONE
        settled.append(i)
        if fi & _STOP:
            continue
        blocked = from_zoc if fi & _EZOC else elsewhere
        k1 = k + 1
        for _, j, e, x in steps[i]:
            if flags[j] & blocked:
                continue
            nc = c + e + x
            if nc > limit:
                continue
            b = best_cost[j]
            if nc < b or (nc == b and k1 < best_k[j]):
                best_cost[j] = nc
                best_k[j] = k1
                parent[j] = i
                push(heap, (nc, k1, j))
    return best_cost


def _search_keyed(n: int, start_i: int, allowance: float, keyed: list[tuple[tuple[int, int], ...]],
                  as_float: bool, flags: bytearray, from_zoc: int, elsewhere: int,
                  parent: list[int], settled: list[int]) -> list[float]:
    """:func:`_search` on whole-number costs, each state (cost, hexes moved, hex) one integer
    key ordered as the triple (:meth:`MoveCosts.keyed_steps`): the same hexes settle in the
    same order with the same parents. Costs come back as the tables' type (float when every
    step's cost involves a float, as ``c + e + x`` would give)."""
    unit = (n + 1) * n  # one MP, in a key
    cap: float = (math.floor(allowance) + 1) * unit if allowance < _INF else _INF
    best: list[float] = [_INF] * n  # each hex's best key so far
    best[start_i] = start_i  # cost 0, no hex moved
    heap = [start_i]
    pop, push = heappop, heappush
    while heap:
        key = pop(heap)
        i = key % n
        fi = flags[i]
        if fi & _DONE:
            continue  # superseded: the hex was settled by a cheaper (or shorter) arrival
        flags[i] = fi | _DONE
        settled.append(i)
        if fi & _STOP:
            continue
        blocked = from_zoc if fi & _EZOC else elsewhere
        base = key - i
        for j, step in keyed[i]:
            nk = base + step
            if nk < best[j] and nk < cap and not flags[j] & blocked:
                best[j] = nk
                parent[j] = i
                push(heap, nk)
    best_cost: list[float] = [_INF] * n
    one = 1.0 if as_float else 1  # a whole cost times one: a float, or the int it is
    for i in settled:
        best_cost[i] = best[i] // unit * one
    best_cost[start_i] = 0
    return best_cost


def adjacent_hexes(hexmap: HexMap, hexes: Iterable[Hex]) -> frozenset[Hex]:
    """The on-map hexes next to any of the given hexes: the usual zone of control of units
    standing in them (a game filters out hexes its ZOC does not extend into)."""
    out: set[Hex] = set()
    table = hexmap.adjacency
    every = hexmap.hexes()
    for i in hexmap.indices(hexes):
        out.update(every[j] for _, j in table[i])
    return frozenset(out)
