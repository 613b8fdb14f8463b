"""Supply paths: can a unit trace a line of hexes to a source, under a game's path rules?

Many hex games ask whether a unit is in supply: a path of at most N hexes from the unit to
a source (a headquarters, a beach, a map edge) that may not enter some hexes, may enter
others only as its last hex, and may cross only a few "costly" hexes on the way. A game
describes its path rules to :func:`trace` with small predicates; the search is a
breadth-first walk over (hex, costly hexes used), so it finds the shortest legal path and is
deterministic (neighbours in direction order, hexes in label order).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection

from .hexgrid import Hex
from .hexmap import HexMap

StepFn = Callable[[Hex, Hex], bool]
HexFn = Callable[[Hex], bool]


def trace(hexmap: HexMap, start: Hex, sources: Collection[Hex], *, max_length: int | None = None,
          can_enter: StepFn | None = None, can_leave: HexFn | None = None,
          costly: HexFn | None = None, costly_limit: int = 0) -> list[Hex] | None:
    """The shortest legal supply path from ``start`` to any of ``sources``, or None.

    - ``max_length``: the most hexes the path may enter (None: any length); the start hex
      is not counted, a source is.
    - ``can_enter(a, b)``: whether the path may step from ``a`` into the adjacent ``b``
      (terrain, hexsides, enemy units...). A source must be enterable too.
    - ``can_leave(h)``: whether the path may go on out of ``h`` once it has entered it (a
      hex it "may enter but not pass through"); the start hex is always left freely.
    - ``costly(h)`` / ``costly_limit``: the path may enter at most ``costly_limit`` hexes
      for which ``costly`` is true.

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
            spent = used + (1 if costly is not None and costly(there) else 0)
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


def supplied(hexmap: HexMap, start: Hex, sources: Collection[Hex], **rules: object) -> bool:
    """Whether :func:`trace` finds a path (same keyword rules)."""
    return trace(hexmap, start, sources, **rules) is not None  # type: ignore[arg-type]
