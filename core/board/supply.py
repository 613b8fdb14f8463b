"""Supply paths: can a unit trace a line of hexes to a source, under a game's path rules?

Many hex games ask whether a unit is in supply: a path of at most N hexes from the unit to
a source (a headquarters, a beach, a map edge) that may not enter some hexes, may enter
others only as its last hex, and may cross only a few "costly" hexes on the way. A game
describes its path rules to :func:`trace` with small predicates; the search is a
breadth-first walk over (hex, costly hexes used), so it finds the shortest legal path and is
deterministic (neighbours in direction order, hexes in label order).

A game that traces many paths in one position can compile its rules instead:
:func:`step_table` once for the fixed terrain, then :func:`trace_indexed` with the hexes
blocked, dead ends and costly hexes of the moment as sets of hex indices. It walks the
same search in the same order, so it finds the same path :func:`trace` finds with the
equivalent predicates, at a fraction of the cost of calling them for every step. And where
the question is "which units are supplied?" rather than "by which path?",
:func:`supplied_hexes` answers it for every hex of the map in one search back from the
sources (:meth:`StepMasks.supplied` on bit masks; :class:`SupplySearch` the same search
made only as far as the hexes asked about need).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence

from .hexgrid import DIRECTIONS, Hex
from .hexmap import HexMap

StepFn = Callable[[Hex, Hex], bool]
HexFn = Callable[[Hex], bool]


def trace(hexmap: HexMap, start: Hex, sources: Collection[Hex], *, max_length: int | None = None,
          can_enter: StepFn | None = None, can_leave: HexFn | None = None,
          costly: HexFn | None = None, costly_limit: int = 0,
          costly_sources: bool = True) -> list[Hex] | None:
    """The shortest legal supply path from ``start`` to any of ``sources``, or None.

    - ``max_length``: the most hexes the path may enter (None: any length); the start hex
      is not counted, a source is.
    - ``can_enter(a, b)``: whether the path may step from ``a`` into the adjacent ``b``
      (terrain, hexsides, enemy units...). A source must be enterable too.
    - ``can_leave(h)``: whether the path may go on out of ``h`` once it has entered it (a
      hex it "may enter but not pass through"); the start hex is always left freely.
    - ``costly(h)`` / ``costly_limit``: the path may enter at most ``costly_limit`` hexes
      for which ``costly`` is true.
    - ``costly_sources``: whether a costly source counts toward ``costly_limit``; False
      where the rules limit the hexes a path passes *through* (it ends in its source).

    A start hex that is itself a source is supplied by a path of no steps: ``[start]``.
    """
    targets = set(sources)
    if start in targets:
        return [start]
    limit = max_length if max_length is not None else len(hexmap)
    if limit <= 0:
        return None
    hexes = hexmap.hexes()
    adjacency = hexmap.adjacency
    start_i = hexmap.index(start)
    first = (start_i, 0)
    parent: dict[tuple[int, int], tuple[int, int] | None] = {first: None}
    queue: deque[tuple[tuple[int, int], int]] = deque([(first, 0)])
    while queue:
        (i, used), depth = queue.popleft()
        here = hexes[i]
        if depth and can_leave is not None and not can_leave(here):
            continue
        if depth >= limit:
            continue
        for _, j in adjacency[i]:
            there = hexes[j]
            if can_enter is not None and not can_enter(here, there):
                continue
            spent = used + (1 if costly is not None and costly(there)
                            and (costly_sources or there not in targets) else 0)
            if spent > costly_limit:
                continue
            state = (j, spent)
            if state in parent:
                continue
            parent[state] = (i, used)
            if there in targets:
                path = [there]
                back: tuple[int, int] | None = (i, used)
                while back is not None:
                    path.append(hexes[back[0]])
                    back = parent[back]
                path.reverse()
                return path
            queue.append((state, depth + 1))
    return None


def step_table(hexmap: HexMap, can_step: StepFn) -> tuple[tuple[int, ...], ...]:
    """The fixed part of a path rule, compiled: for each hex (by :meth:`HexMap.index`), the
    neighbours ``can_step(a, b)`` lets a path step into, as indices in direction order."""
    hexes = hexmap.hexes()
    return tuple(tuple(j for _, j in row if can_step(hexes[i], hexes[j]))
                 for i, row in enumerate(hexmap.adjacency))


def trace_indexed(hexmap: HexMap, start: Hex, sources: Collection[Hex], *,
                  steps: Sequence[Sequence[int]], blocked: Collection[int] = frozenset(),
                  dead_ends: Collection[int] = frozenset(), costly: Collection[int] = frozenset(),
                  costly_limit: int = 0, max_length: int | None = None,
                  costly_sources: bool = True) -> list[Hex] | None:
    """:func:`trace` on compiled rules: the same shortest path (or None) that :func:`trace`
    returns with ``can_enter(a, b)`` = "b is in ``steps[a]`` and not in ``blocked``",
    ``can_leave(h)`` = "h is not in ``dead_ends``" and ``costly(h)`` = "h is in ``costly``".

    ``steps`` is a :func:`step_table` of this map; ``blocked``, ``dead_ends`` and ``costly``
    hold hex indices (sets, for fast membership). A source off the map is never reached.
    """
    index = hexmap.index
    targets = {index(h) for h in sources if h in hexmap}
    start_i = index(start)
    if start_i in targets:
        return [start]
    limit = max_length if max_length is not None else len(hexmap)
    if limit <= 0:
        return None
    hexes = hexmap.hexes()
    width = costly_limit + 1  # a state (hex i, costly hexes used u) is the key i * width + u
    first = start_i * width
    parent: dict[int, int] = {first: -1}
    queue: deque[tuple[int, int]] = deque([(first, 0)])
    while queue:
        key, depth = queue.popleft()
        i, used = divmod(key, width)
        if depth and i in dead_ends:
            continue
        if depth >= limit:
            continue
        for j in steps[i]:
            if j in blocked:
                continue
            spent = used + 1 if j in costly and (costly_sources or j not in targets) else used
            if spent > costly_limit:
                continue
            state = j * width + spent
            if state in parent:
                continue
            parent[state] = key
            if j in targets:
                path = [hexes[j]]
                back = key
                while back >= 0:
                    path.append(hexes[back // width])
                    back = parent[back]
                path.reverse()
                return path
            queue.append((state, depth + 1))
    return None


def reverse_steps(steps: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """A :func:`step_table` turned around: for each hex, the hexes whose steps lead into it."""
    into: list[list[int]] = [[] for _ in steps]
    for i, row in enumerate(steps):
        for j in row:
            into[j].append(i)
    return tuple(map(tuple, into))


def supplied_hexes(hexmap: HexMap, sources: Collection[Hex], *, into: Sequence[Sequence[int]],
                   blocked: Collection[int] = frozenset(), dead_ends: Collection[int] = frozenset(),
                   costly: Collection[int] = frozenset(), costly_limit: int = 0,
                   max_length: int | None = None, costly_sources: bool = True) -> set[int]:
    """Every hex (by index) from which :func:`trace_indexed` finds a path to one of
    ``sources`` under the same rules, in one breadth-first search back from the sources
    (``into`` is the :func:`reverse_steps` of the step table).

    A path may always be taken so that it never enters its start again (cut at the last
    visit, it is shorter and enters fewer hexes), so the rules of the start hex itself
    (blocked, dead end, costly) never matter; each other hex it enters obeys them. The
    search keeps, for each hex entered and each number of costly hexes entered from there
    on, the fewest steps to a source: a hex is supplied when one step takes it into such a
    state within ``max_length``.
    """
    index = hexmap.index
    targets = {index(h) for h in sources if h in hexmap}
    found = set(targets)  # a start that is a source is supplied by a path of no steps
    limit = max_length if max_length is not None else len(hexmap)
    if limit <= 0:
        return found
    width = costly_limit + 1
    seen: set[int] = set()  # states (hex w entered, costly hexes entered from w on) as w * width + u
    # the states d steps from a source, as (w, u) pairs: the search goes one step back a round
    level: list[tuple[int, int]] = []
    for t in sorted(targets):
        u = 1 if t in costly and costly_sources else 0
        if t in blocked or u > costly_limit:
            continue
        seen.add(t * width + u)
        level.append((t, u))
    update, add = found.update, seen.add
    d = 0
    while level:
        if d + 2 > limit:  # a hex entered before these would need a path of more than limit
            for w, _ in level:
                update(into[w])  # from each of these, one step into w and d more reach a source
            break
        following: list[tuple[int, int]] = []
        push = following.append
        for w, u in level:
            before = into[w]
            update(before)
            for v in before:
                if v in blocked or v in dead_ends:
                    continue
                if v in costly:
                    if u == costly_limit:
                        continue
                    state = v * width + u + 1
                    if state not in seen:
                        add(state)
                        push((v, u + 1))
                else:
                    state = v * width + u
                    if state not in seen:
                        add(state)
                        push((v, u))
        level = following
        d += 1
    return found


def supplied(hexmap: HexMap, start: Hex, sources: Collection[Hex], **rules: object) -> bool:
    """Whether :func:`trace` finds a path (same keyword rules)."""
    return trace(hexmap, start, sources, **rules) is not None  # type: ignore[arg-type]


class HexBits:
    """A set of hexes (by :meth:`HexMap.index`) held as the bits of one integer, laid out by
    a :class:`StepMasks`: what :meth:`StepMasks.supplied` answers (membership is one shift)."""

    __slots__ = ("_masks", "bits")

    def __init__(self, masks: StepMasks, bits: int) -> None:
        self._masks = masks
        self.bits = bits

    def __contains__(self, index: object) -> bool:
        pos = self._masks.positions
        return isinstance(index, int) and 0 <= index < len(pos) and bool(self.bits >> pos[index] & 1)

    def __iter__(self) -> Iterator[int]:
        bits, pos = self.bits, self._masks.positions
        return (i for i, p in enumerate(pos) if bits >> p & 1)

    def __len__(self) -> int:
        return self.bits.bit_count()

    def to_set(self) -> set[int]:
        """The hex indices, as a plain set."""
        return set(self)


_BYTE_A_BIT = bytes.maketrans(b"01", b"\x00\x01")
"""The digits of a binary string as the bytes 0 and 1 (:meth:`StepMasks.spread`)."""


class StepMasks:
    """A :func:`step_table` compiled to bit masks, for :meth:`supplied`: each hex a bit at
    a place fixed by its axial coordinates, so the hexes one step from a whole set of hexes
    in one direction are that set shifted by a constant and masked, a whole breadth-first
    round in a dozen integer operations whatever the number of hexes."""

    __slots__ = ("_at", "_dirs", "_n", "every", "hexmap", "positions", "steps")

    def __init__(self, hexmap: HexMap, steps: Sequence[Sequence[int]]) -> None:
        #: the map and the step table compiled (``steps[i]``: the hexes hex ``i`` may step into)
        self.hexmap = hexmap
        self.steps: tuple[frozenset[int], ...] = tuple(frozenset(row) for row in steps)
        hexes = hexmap.hexes()
        q0 = min(h.q for h in hexes) if hexes else 0
        r0 = min(h.r for h in hexes) if hexes else 0
        width = (max(h.r for h in hexes) - r0 + 2) if hexes else 1  # a spare bit a column
        self.positions: tuple[int, ...] = tuple((h.q - q0) * width + (h.r - r0) for h in hexes)
        self._n = len(hexes)
        pos = self.positions
        self.every = sum(1 << p for p in pos)
        # for each direction d, the hexes v whose step into their neighbour in direction d
        # the table allows, and the shift that brings that neighbour's bit to v's place
        masks = [0] * 6
        for v, row in enumerate(steps):
            allowed = set(row)
            for d, j in enumerate(hexmap.neighbor_index[v]):
                if j >= 0 and j in allowed:
                    masks[d] |= 1 << pos[v]
        self._dirs: tuple[tuple[int, int], ...] = tuple(
            (dq * width + dr, masks[d]) for d, (dq, dr) in enumerate(DIRECTIONS) if masks[d])
        at = [-1] * (max(pos) + 1 if pos else 0)
        for i, p in enumerate(pos):
            at[p] = i
        self._at: tuple[int, ...] = tuple(at)

    def bits(self, indices: Iterable[int]) -> int:
        """Hex indices as a bit mask of this layout."""
        pos = self.positions
        out = 0
        for i in indices:
            out |= 1 << pos[i]
        return out

    def indices(self, bits: int) -> list[int]:
        """The hex indices of a bit mask of this layout, in the order of their bits."""
        at = self._at
        out: list[int] = []
        push = out.append
        text = bin(bits)  # bit k is character ``top - k``: read from the end, lowest bit first
        top = len(text) - 1
        find = text.rfind
        k = find("1", 2)
        while k >= 2:
            push(at[top - k])
            k = find("1", 2, k)
        return out

    @property
    def hex_at(self) -> tuple[int, ...]:
        """The hex index at each bit position of this layout (-1 where no hex is)."""
        return self._at

    @staticmethod
    def spread(bits: int) -> bytes:
        """A bit mask as one byte a bit, byte k being bit k (0 or 1): read with
        :func:`itertools.compress` over :attr:`hex_at` (or anything laid out the same
        way), the mask's hexes in the order of their bits, without a step a hex."""
        return bin(bits)[:1:-1].encode().translate(_BYTE_A_BIT)

    def after(self, frontier: int) -> int:
        """The hexes one allowed step from one of ``frontier``'s (the table's steps)."""
        out = 0
        for delta, mask in self._dirs:
            out |= (frontier & mask) << delta if delta > 0 else (frontier & mask) >> -delta
        return out

    def _before(self, frontier: int) -> int:
        """The hexes with an allowed step into one of ``frontier``'s."""
        out = 0
        for delta, mask in self._dirs:
            out |= (frontier >> delta if delta > 0 else frontier << -delta) & mask
        return out

    def supplied(self, targets: Iterable[int], *, blocked: int = 0, dead_ends: int = 0,
                 costly: int = 0, costly_limit: int = 0, max_length: int | None = None,
                 costly_sources: bool = True) -> HexBits:
        """:func:`supplied_hexes` on this table (its ``into``), the sets as bit masks of
        this layout (:meth:`bits`) and the sources as hex indices: the same hexes, found
        a round of the search at a time for every state at once (states being a hex
        entered and the costly hexes entered from there on, as there)."""
        search = SupplySearch(self, targets, blocked=blocked, dead_ends=dead_ends, costly=costly,
                              costly_limit=costly_limit, max_length=max_length,
                              costly_sources=costly_sources)
        return HexBits(self, search.finish())


class SupplySearch:
    """:meth:`StepMasks.supplied`'s search, made a round at a time only as far as the
    questions asked of it need: a hex found supplied after some rounds is supplied (each
    round only adds hexes), so "is this hex supplied?" is answered by the first round that
    reaches it, and only a hex never reached needs the whole search. Kept, it goes on from
    where it stopped for the next question. A kept search may be shared by matches played in
    other threads (a game keeps it for a situation, not for a match): its rounds are made
    under its own lock, so two questions at once never make the same round twice."""

    __slots__ = ("_costly_limit", "_d", "_dear", "_level", "_limit", "_lock", "_masks", "_plain",
                 "_unseen", "done", "found")

    def __init__(self, masks: StepMasks, targets: Iterable[int], *, blocked: int = 0,
                 dead_ends: int = 0, costly: int = 0, costly_limit: int = 0,
                 max_length: int | None = None, costly_sources: bool = True) -> None:
        self._masks = masks
        self._lock = threading.Lock()
        self._costly_limit = costly_limit
        #: the hexes found supplied so far (bits of the masks' layout), and whether that is all
        self.found = masks.bits(targets)
        self._limit = max_length if max_length is not None else len(masks.positions)
        self._d = 0
        every = masks.every
        level = [0] * (costly_limit + 1)  # the states d steps from a source, by costly hexes used
        usable = self.found & ~blocked
        if costly_sources:
            level[0] = usable & ~costly
            if costly_limit >= 1:
                level[1] = usable & costly
        else:
            level[0] = usable
        self._level = level
        self._unseen = [every & ~frontier for frontier in level]  # whole numbers: quicker masks
        free = every & ~(blocked | dead_ends)
        self._plain, self._dear = free & ~costly, free & costly
        self.done = self._limit <= 0 or not any(level)

    def step(self) -> None:
        """One more round of the search (none once it is done)."""
        with self._lock:
            self._step()

    def _step(self) -> None:
        if self.done:
            return
        level, before = self._level, self._masks._before
        if self._d + 2 > self._limit:  # a hex entered before these would need a longer path
            union = 0
            for frontier in level:
                union |= frontier
            self.found |= before(union)
            self.done = True
            return
        costly_limit, unseen, plain, dear = self._costly_limit, self._unseen, self._plain, self._dear
        found = self.found
        following = [0] * (costly_limit + 1)
        for u, frontier in enumerate(level):
            if not frontier:
                continue
            back = before(frontier)
            found |= back
            following[u] |= back & plain & unseen[u]
            if u < costly_limit:
                following[u + 1] |= back & dear & unseen[u + 1]
        for u, new in enumerate(following):
            unseen[u] ^= new  # never seen before: all of it was unseen
        self.found = found
        self._level = following
        self._d += 1
        self.done = not any(following)

    def reaches(self, bits: int) -> bool:
        """Whether any hex of ``bits`` (a mask of the layout) is supplied: the search goes
        on only until one is found, or to its end."""
        if self.found & bits:  # what is found stays found
            return True
        with self._lock:
            while not self.found & bits and not self.done:
                self._step()
            return bool(self.found & bits)

    def finish(self) -> int:
        """Every hex supplied (bits of the layout): the search made to its end."""
        with self._lock:
            while not self.done:
                self._step()
            return self.found
