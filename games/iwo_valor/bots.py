"""Bots for the Marine side: the random-legal bot is the core's; this is the heuristic one.

The heuristic Marine commander (it reads only its view and the decision's options):
lands on the beach with fewer Japanese units near it, puts infantry in the first wave and
moves it off the beach hexes on turn 1 (the second wave must land next to its hex); keeps
Supply (VII.A read from the view): each HQ goes where it supplies most of its division's
companies (those in or near contact first) and still traces to a landed beach; a company
closes with a Japanese unit where a Supply Path would hold once the second rank closes up
behind it (two hexes off, the link to its HQ), under at most two Opportunity Fire attacks;
manages fatigue (IV.D): a regiment keeps one battalion in contact and commits a second only
while its Fatigue Level is below 3, pulling all but the lead battalion (most companies in
contact) back when it tires; spreads along the front - each division in its sector (the 4th
up the east side, the 5th against Suribachi and up the west, the 3rd through the centre),
and a company out of contact heads for the nearest Japanese unit that scores every turn it
stands (in or south of the First Line, IV.G.1; of the Second from turn 6, IV.G.2) or is not
already ringed by Marines; spends support points on the strongest fire; attacks wherever
the expected steps beat the cost of an ambush, first the units that score and those nearly
dead; commits every armour unit; allocates every replacement; picks the least valuable unit
for losses. Its thresholds and sectors are the ``priorities`` of ``data/ai.yaml``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cache
from itertools import compress, repeat
from operator import attrgetter
from types import MappingProxyType, SimpleNamespace
from typing import Any

from tabletop.core.board.supply import StepMasks
from tabletop.core.engine.agents import Agent, KindBot, handles
from tabletop.core.engine.boardreader import PlaceIndex
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision, Option

from . import common as c
from .ai import Priorities, priorities

_VALUE = attrgetter("value")  # an option's value


@cache
def _belt(hex_id: str) -> int:
    """The line of the Japanese defences the hex lies in or south of (1 the First, 2 the
    Second, 3 neither: the map's ``belt``), read once a hex."""
    return int(c.attr(hex_id, "belt") or 3)


@cache
def _area(hex_id: str) -> Any:
    """The hex's deployment area (the map's ``area``), read once a hex."""
    return c.attr(hex_id, "area")


def _fire_hexes(o: Option) -> tuple[int, int]:
    """A destination's Opportunity Fire attacks and hexes moved (its detail; 0 if missing)."""
    more = o.detail
    return (int(more.get("fire", 0)), int(more.get("hexes", 0))) if more else (0, 0)


@cache
def _grid() -> StepMasks:
    """Every step between two neighbouring hexes of the map, sea or not, as bit masks (the
    map's :class:`~tabletop.core.board.supply.StepMasks` layout, :func:`common.hexes_bits`): the
    map is a whole rectangle of hexes, so the hexes within k steps of a hex are those
    within k hexes of it (checked for every pair of hexes in tests/games/iwo_valor)."""
    m = c.components().map
    return StepMasks(m, [[j for j in row if j >= 0] for row in m.neighbor_index])


class _Gaps:
    """Hexes from a hex to the nearest of some Japanese units (``targets``, not empty), each
    worked out once, and the hexes already worked out at each gap (``at``), so a search for
    the least gap looks at one gap's hexes after another instead of at every hex. A gap is
    read from the rings of hexes around the targets (``rings[k]``: the hexes within k of
    one, as bits), each made once from the one before, for every hex asked."""

    __slots__ = ("at", "gap", "rings", "targets")

    def __init__(self, targets: tuple[str, ...]) -> None:
        self.targets = targets
        self.gap: dict[str, int] = {}
        self.at: dict[int, set[str]] = {}
        self.rings: list[int] = []

    def __call__(self, h: str) -> int:
        found = self.gap.get(h)
        if found is None:
            bit = c.hex_bits()[h]
            found = 0
            for ring in self.rings:
                if ring & bit:
                    break
                found += 1
            else:
                found = self._ring_of(bit)
            self.gap[h] = found
            self.at.setdefault(found, set()).add(h)
        return found

    def _ring_of(self, bit: int) -> int:
        """The least k whose ring holds the hex of ``bit``, the rings made as far as it
        needs (none holds it yet)."""
        rings = self.rings
        if not rings:
            first = c.hexes_bits(self.targets)
            if not first:
                raise ValueError("no Japanese unit to measure the gap to")
            rings.append(first)
            if first & bit:
                return 0
        grow = _grid().after
        ring = rings[-1]
        while True:
            wider = ring | grow(ring)
            if wider == ring:
                raise ValueError("a hex off the map")
            ring = wider
            rings.append(ring)
            if ring & bit:
                return len(rings) - 1

    def know(self, h: str, gap: int) -> None:
        """Records the hex's gap, worked out elsewhere."""
        if h not in self.gap:
            self.gap[h] = gap
            self.at.setdefault(gap, set()).add(h)

    def least(self, hexes: Collection[str], key: Callable[[str], tuple[Any, ...] | None],
              test: Callable[[str], bool] | None = None) -> str | None:
        """Of ``hexes``, the one with the least (gap, ``key``) that passes ``test``, those
        whose ``key`` is None left out (None if none is left): the hexes at each gap are read
        in turn, from the least, and the first gap with one left decides (``key`` must tell
        every two hexes apart)."""
        pool = hexes if isinstance(hexes, set) else set(hexes)
        for h in pool.difference(self.gap):
            self(h)
        at = self.at
        for gap in sorted(at):
            ranked = []
            for h in at[gap].intersection(pool):
                k = key(h)
                if k is not None:
                    ranked.append((k, h))
            ranked.sort()
            for _, h in ranked:
                if test is None or test(h):
                    return h
        return None


class _Board(PlaceIndex):
    """What the bot reads of the pieces a view shows, kept place by place
    (:class:`~tabletop.core.engine.boardreader.PlaceIndex`), so that a new revision of the board is read
    only at the places it shows differently: every piece by id and every place's pieces (its
    reader's); the hexes of the Japanese units, in the view's order (places sorted), and the
    unit in each; the kinds of the Marine units in each hex, the companies in each; the pieces
    not Japanese in each land hex and the HQs face up. Each revision's dicts and lists are new
    ones, never changed once read."""

    __slots__ = ("_heads_moved", "_jp_moved", "heads", "held", "hq_at", "inf", "jp", "jp_at",
                 "jp_n", "on_map", "us")

    def __init__(self) -> None:
        super().__init__()
        self.jp_n: dict[str, tuple[int, str]] = {}  # hex -> its Japanese units, the last's id
        self.hq_at: dict[str, list[tuple[str, str, Any]]] = {}  # hex -> its heads (below)
        self.jp: list[str] = []
        self.jp_at: dict[str, str] = {}
        self.us: dict[str, list[str]] = {}
        self.inf: dict[str, int] = {}
        self.held: dict[str, int] = {}  # land hex -> pieces in it not Japanese
        self.heads: list[tuple[str, str, Any]] = []  # (id, hex, division) of each HQ face up
        self.on_map: list[Mapping[str, Any]] | None = None  # built when first asked
        self._jp_moved = self._heads_moved = False

    @property
    def at(self) -> Mapping[str, Sequence[Mapping[str, Any]]]:
        """Place -> its pieces, top first."""
        return self.board.places

    @property
    def by_id(self) -> Mapping[str, Mapping[str, Any]]:
        """Id -> the piece shown with it."""
        return self.board.by_id()

    def read(self, view: Mapping[str, Any]) -> _Board:
        """Bring the index up to date with a view's board (itself, for chaining)."""
        self._jp_moved = self._heads_moved = False
        us, inf, held = self.us, self.inf, self.held
        self.us, self.inf, self.held = dict(us), dict(inf), dict(held)  # new ones, if read
        super().read(view)
        if self.board.changed == frozenset():
            self.us, self.inf, self.held = us, inf, held
            return self
        self.on_map = None
        if self._jp_moved:
            jp_n = self.jp_n
            order = sorted(jp_n)
            self.jp = [loc for loc in order for _ in range(jp_n[loc][0])]
            self.jp_at = {loc: jp_n[loc][1] for loc in order}
        if self._heads_moved:
            hq_at = self.hq_at
            self.heads = [h for loc in sorted(hq_at) for h in hq_at[loc]]
        return self

    def clear(self) -> None:
        self.jp_n, self.hq_at, self.us, self.inf, self.held = {}, {}, {}, {}, {}
        self._jp_moved = self._heads_moved = True

    def drop(self, place: str) -> None:
        if not c.components().map.is_hex_id(place):
            return
        self._jp_moved |= self.jp_n.pop(place, None) is not None
        self._heads_moved |= self.hq_at.pop(place, None) is not None
        self.us.pop(place, None)
        self.inf.pop(place, None)
        self.held.pop(place, None)

    def add(self, place: str, pieces: Sequence[Mapping[str, Any]]) -> None:
        loc = place
        if not c.components().map.is_hex_id(loc):
            return
        japan, marines = c.JAPAN, c.US
        land = c.is_land(loc)
        jps, last = 0, ""
        kinds: list[str] = []
        companies = others = 0
        heads: list[tuple[str, str, Any]] = []
        for p in pieces:
            side = p["side"]
            if side == japan:
                jps, last = jps + 1, str(p["id"])
                continue
            kind = p["kind"]
            if side == marines:
                kinds.append(str(kind))
                companies += kind == "infantry"
            if land:
                others += 1
                if kind == "hq" and p["face"] == "front":
                    heads.append((str(p["id"]), loc, p["attrs"].get("division")))
        if jps:
            self.jp_n[loc] = (jps, last)
            self._jp_moved = True
        if kinds:
            self.us[loc] = kinds
        if companies:
            self.inf[loc] = companies
        if others:
            self.held[loc] = others
        if heads:
            self.hq_at[loc] = heads
            self._heads_moved = True

    def pieces_on_map(self) -> list[Mapping[str, Any]]:
        """The pieces in map hexes, in the view's order (places sorted, each stack top
        first)."""
        if self.on_map is None:
            at, is_hex = self.at, c.components().map.is_hex_id
            self.on_map = [p for loc in sorted(at) if is_hex(loc) for p in at[loc]]
        return self.on_map


class HeuristicMarines(KindBot):
    """A competent Marine commander following simple, explainable priorities."""

    name = "heuristic"

    def __init__(self, side: str = c.US, seed: int = 0) -> None:
        self.side = side
        self._rng = random.Random(f"valor-heuristic:{side}:{seed}")
        #: what the bot follows: ``priorities`` in data/ai.yaml (:class:`~.ai.Priorities`)
        self.prio: Priorities = priorities()
        self._moves_this_phase = 0
        self._probe_key: tuple[Any, ...] | None = None
        self._probe_board: tuple[dict[str, str], dict[str, int], list[tuple[str, str, Any]],
                                 dict[str | None, c.Situation]] = ({}, {}, [], {})
        self._probe_unit = ""
        self._probe_at: tuple[Any, ...] | None = None
        self._probe: tuple[c.Situation, list[str]] = (c.Situation(), [])
        self._ring_key: tuple[Any, ...] | None = None
        self._rings: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self._fronts: dict[tuple[str, int, str], list[str]] = {}  # _open_front's answers
        self._relay_key: tuple[c.Situation | None, str] = (None, "")  # situation held
        self._relay = c.Situation()
        self._near_key: tuple[str, ...] = ()
        self._jp_list: list[str] | None = None  # the list _jp_key last read, held
        self._jp_tuple: tuple[str, ...] = ()
        self._scoring: tuple[tuple[str, ...], int, frozenset[str]] = ((), 0, frozenset())
        self._map_key: tuple[Any, ...] | None = None
        self._board = _Board()
        self._key_view: Mapping[str, JSON] | None = None
        self._key: tuple[Any, ...] = (None, None)
        self._near_memo = _Gaps(())
        self._bands: tuple[set[str], set[str]] | None = None
        self._far_key: tuple[str, ...] = ()
        self._far_memo: dict[tuple[str, ...], _Gaps] = {}
        self._contact_key: tuple[Any, ...] | None = None
        self._contacts: dict[str, dict[str, int]] = {}
        self._state_view: Mapping[str, JSON] | None = None  # held, so never a reused id
        self._state_probe: Any = None

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """One option's value, by the decision's kind."""
        handler = self.handler(decision.kind) or self._default
        value: JSON = handler(view, decision)
        return value

    # -- helpers --------------------------------------------------------------------------
    @staticmethod
    def _values(decision: Decision) -> list[JSON]:
        return [o.value for o in decision.options]

    @handles("banzai", "banzai_target", "fire_order", "infiltration", "priority_tie")
    def _default(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """The first option: the choices the rules leave to the Marine player on the Japanese
        side's behalf (IV.F.2-3 infiltration and Banzai, IX.C's order of fire and ties) are
        taken as listed."""
        return decision.options[0].value

    def _board_key(self, view: Mapping[str, JSON]) -> tuple[Any, ...]:
        """What names the board a view shows: its board revision where it has one (equal
        numbers, the same pieces: ``View.board_revision``), else the view itself (held in the
        key, so its id is never reused while a cache keeps it). Read once a view (a view
        stands for one moment; the one held here is never a reused id)."""
        if view is not self._key_view:
            revision = getattr(view, "board_revision", None)
            self._key_view = view
            self._key = (revision, None) if revision is not None else (None, view)
        return self._key

    @staticmethod
    def _same(a: tuple[Any, ...] | None, b: tuple[Any, ...]) -> bool:
        """Whether two board keys (:meth:`_board_key`) name the same board."""
        return a is not None and a[0] == b[0] and a[1] is b[1]

    def _read_board(self, view: Mapping[str, JSON]) -> _Board:
        """The view's pieces as the bot reads them (:class:`_Board`), read once a board: of
        a view that tells the places changed since the board last read
        (``View.board_changes``), those places alone."""
        key = self._board_key(view)
        board = self._board
        if not self._same(self._map_key, key):
            self._map_key = key
            board.read(view)
        return board

    def _on_map(self, view: Mapping[str, JSON]) -> list[Any]:
        """The pieces the view shows in map hexes, in its order (read once a board)."""
        return self._read_board(view).pieces_on_map()

    def _where(self, view: Mapping[str, JSON], unit: str) -> str:
        """The place the view shows the unit in ("" if it shows no such piece)."""
        p = self._read_board(view).by_id.get(unit)
        return str(p["location"]) if p is not None else ""

    @staticmethod
    def _var(view: Mapping[str, JSON], name: str) -> Any:
        """``view["vars"].get(name)``, read without copying the other variables where the
        view can (``View.var``)."""
        read = getattr(view, "var", None)
        if read is None:
            return view["vars"].get(name)
        try:
            return read(name)
        except KeyError:
            return None

    def _state_probe_of(self, view: Mapping[str, JSON]) -> Any:
        """The view's variables and turn in the shape the Supply helpers read (once a view)."""
        if self._state_view is not view:
            self._state_view = view
            narrow = self._var(view, "narrow_areas")  # all that they read of the variables
            state = SimpleNamespace(vars={} if narrow is None else {"narrow_areas": narrow},
                                    turn=view["turn"])
            self._state_probe = SimpleNamespace(state=state)
        return self._state_probe

    def _jp_hexes(self, view: Mapping[str, JSON]) -> list[str]:
        """The hexes of the Japanese units the view shows, in its order (read once a board;
        the caller must not change it)."""
        return self._read_board(view).jp

    def _jp_key(self, jp: list[str]) -> tuple[str, ...]:
        """``tuple(jp)``, the key of what is worked out of the Japanese hexes: made again
        only for another list (the board's stays the same list until they change; the caller
        must not change it)."""
        if jp is not self._jp_list:
            self._jp_list, self._jp_tuple = jp, tuple(jp)
        return self._jp_tuple

    def _nearest(self, jp: list[str]) -> _Gaps:
        """Hexes from a hex to the nearest Japanese unit (of ``jp``, not empty), memoised
        while the Japanese hexes stay the same (they change only when a unit is lost)."""
        key = self._jp_key(jp)
        if key != self._near_key:
            self._near_key, self._near_memo, self._bands = key, _Gaps(key), None
        return self._near_memo

    def _near_bands(self, jp: list[str]) -> tuple[set[str], set[str]]:
        """The hexes one hex and two hexes from the nearest Japanese unit (of ``jp``, not
        empty): all within two hexes of one of them, so found from their hexes alone
        (worked out once while the Japanese hexes stay the same; the caller must not
        change them)."""
        nearest = self._nearest(jp)
        if self._bands is None:
            gaps: dict[str, int] = {}  # a hex -> its gap, if two or less
            dist = c.components().map.id_distance
            for j in set(nearest.targets):
                for x in c.components().map.ids_within(j, 2):
                    gap = dist(x, j)
                    if gap < gaps.get(x, 3):
                        gaps[x] = gap
            for x, gap in gaps.items():
                nearest.know(x, gap)
            self._bands = ({x for x, gap in gaps.items() if gap == 1},
                           {x for x, gap in gaps.items() if gap == 2})
        return self._bands

    def _far_gaps(self, open_key: tuple[str, ...]) -> _Gaps:
        """Hexes to the nearest of these Japanese units (``_destination``'s ``far``),
        memoised for each open front while the Japanese hexes stay the same."""
        if self._near_key != self._far_key:
            self._far_key, self._far_memo = self._near_key, {}
        found = self._far_memo.get(open_key)
        if found is None:
            found = self._far_memo[open_key] = _Gaps(open_key)
        return found

    def _division(self, view: Mapping[str, JSON], unit: str) -> str:
        return str(self._unit_attrs(view, unit).get("division", ""))

    def _supplied_at(self, view: Mapping[str, JSON], unit: str, kind: str, where: str,
                     relay: str = "") -> bool:
        """VII.A read from the view: would the unit trace Supply from ``where`` (itself moved
        there) to an undisrupted HQ of its division within 5 hexes, or, for the Independent
        Regiment, to a landed beach within 4? With ``relay``, as if another Marine unit then
        took the hex it leaves (the second rank closing up behind it)."""
        return self._supply_test(view, unit, kind, relay)(where)

    def _supply_test(self, view: Mapping[str, JSON], unit: str, kind: str,
                     relay: str = "") -> Callable[[str], bool]:
        """:meth:`_supplied_at` of the unit for any ``where``: the searches are read once, so
        a decision asks it of each option for the cost of a membership test."""
        board = self._board_key(view)
        if not self._same(self._probe_key, board):  # once a board
            read = self._read_board(view)
            self._probe_key, self._probe_board = board, (read.jp_at, read.held, read.heads, {})
        if self._probe_unit != unit or not self._same(self._probe_at, board):
            self._probe_unit, self._probe_at = unit, board
            self._probe = self._without(view, unit)
        # The unit stands in ``where``, the path's start: a path that came back to its start
        # could begin again from there, so no path needs to enter it, and whether a Marine
        # unit is in it (all that moving the unit there changes) never decides the answer:
        # the situation without the unit answers for every hex it might move to, in one
        # search a set of sources (c.supplied_from, kept in the situation). A path of five
        # hexes reaches only the HQs within five, of four the beaches within four.
        s, hqs = self._probe
        if relay:
            if self._relay_key[0] is not s or self._relay_key[1] != relay:
                r = c.Situation()
                r.jp = s.jp
                r.marine_hexes = {**s.marine_hexes, relay: []}
                r.zoc, r.near = s.zoc, s.near
                self._relay_key, self._relay = (s, relay), r
            s = self._relay
        probe = self._state_probe_of(view)
        idx = c.hex_index()
        to_hq = c.supplied_from(probe, s, hqs, kind, 5)
        ind = self._var(view, c.V_IND)
        if not (ind and unit.count("/") == 3 and unit.split("/")[2] == ind):
            return lambda where: idx[where] in to_hq
        beaches = [h for h in self._var(view, c.V_LANDED) or [] if h not in s.jp]
        to_beach = c.supplied_from(probe, s, beaches, kind, 4)
        return lambda where: idx[where] in to_hq or idx[where] in to_beach

    def _without(self, view: Mapping[str, JSON], unit: str) -> tuple[c.Situation, list[str]]:
        """The situation the view shows without the unit (its Supply probe,
        :meth:`_supply_test`), and the hexes of its division's HQs face up but itself: one
        situation for every unit whose leaving empties the same hex (or none), so the
        Supply searches kept in it serve them all."""
        jp, held, hqs, probes = self._probe_board
        me = self._board.by_id.get(unit)
        loc = str(me["location"]) if me is not None else ""
        if me is not None and me["side"] == c.JAPAN:
            gone = None  # never the Marines' bot's question: read the pieces as they stand
        else:
            gone = loc if held.get(loc) == 1 and c.components().map.is_hex_id(loc) else ""
        base = probes.get(gone) if gone is not None else None
        if base is None:
            base = c.Situation()
            if gone is None:
                for p in self._on_map(view):
                    if p["id"] != unit and p["side"] == c.JAPAN:
                        base.jp[str(p["location"])] = str(p["id"])
            else:
                base.jp = dict(jp)
            base.marine_hexes = {h: [] for h in held if h != gone}
            base.zoc, base.near = c.zones(tuple(base.jp))
            if gone is not None:
                probes[gone] = base
        division = self._division(view, unit)
        return base, [h for pid, h, div in hqs if div == division and pid != unit]

    def _open_front(self, view: Mapping[str, JSON], jp: list[str], here: str,
                    division: str = "") -> list[str]:
        """The Japanese units not already ringed by Marines (fewer than ``crowd`` companies within
        two hexes, not counting the one at ``here``; those that score every turn they stand,
        ``_scores``, always count): where companies out of contact
        go, so the divisions spread along the lines instead of queueing behind one position.
        Worked out once a board for each turn, division and ``here`` that counts (a hex with
        companies); the caller must not change it."""
        board, key = self._board_key(view), self._jp_key(jp)
        if self._ring_key is None or not self._same(self._ring_key[0], board) or self._ring_key[1] != key:
            inf = self._read_board(view).inf
            if self._ring_key is not None and self._ring_key[1] == key:
                # the same Japanese units: only the rings around the hexes whose companies
                # changed change (a hex is within two of a unit as the unit is of it)
                rings, old = self._rings
                for y in {*old, *inf}:
                    delta = inf.get(y, 0) - old.get(y, 0)
                    if delta:
                        for j in c.components().map.ids_within(y, 2):
                            if j in rings:
                                rings[j] += delta
            else:
                rings = {j: sum(inf.get(x, 0) for x in c.components().map.ids_within(j, 2)) for j in jp}
            self._ring_key, self._rings = (board, key), (rings, inf)  # kept while the board stands
            self._fronts = {}
        rings, inf = self._rings
        turn = int(view["turn"])
        ask = (here if here in inf else "", turn, division)
        found = self._fronts.get(ask)
        if found is None:
            near_here = set(c.components().map.ids_within(here, 2)) if here in inf else set()
            if self._scoring[:2] != (key, turn):  # once a turn while the units stand
                self._scoring = (key, turn, frozenset(j for j in jp if self._scores(j, turn)))
            scoring = self._scoring[2]
            crowd = self.prio.crowd
            open_jp = [j for j in jp if j in scoring or rings[j] - (j in near_here) < crowd]
            areas = self.prio.sectors.get(division, ())
            sector = [j for j in open_jp if _area(j) in areas]
            found = self._fronts[ask] = sector or open_jp or jp
        return found

    @staticmethod
    def _scores(hex_id: str, turn: int) -> bool:
        """Whether a Japanese unit in the hex adds to the VP track every turn it stands: in or
        south of the First Line (IV.G.1), or of the Second from turn 6 on (IV.G.2 counts it
        from turn 7; the Marines close a turn ahead)."""
        belt = _belt(hex_id)
        return belt == 1 or (belt == 2 and turn >= 6)

    def _contact(self, view: Mapping[str, JSON], jp: list[str]) -> dict[str, dict[str, int]]:
        """IV.D.1 as the bot reads it: for each regiment, its battalions with companies next
        to a Japanese unit, and how many (worked out once a board; the caller must not
        change it)."""
        board, key = self._board_key(view), self._jp_key(jp)
        if self._contact_key is not None and self._same(self._contact_key[0], board) \
                and self._contact_key[1] == key:
            return self._contacts
        nearest = self._nearest(jp)
        read = self._read_board(view)
        out: dict[str, dict[str, int]] = {}
        for loc in read.inf:  # the hexes with companies
            if nearest(loc) != 1:
                continue
            for p in read.at[loc]:
                if p["side"] == c.US and p["kind"] == "infantry":
                    a = p["attrs"]
                    bns = out.setdefault(str(a["regiment"]), {})
                    bns[str(a["battalion"])] = bns.get(str(a["battalion"]), 0) + 1
        self._contact_key, self._contacts = (board, key), out
        return out

    def _unit_attrs(self, view: Mapping[str, JSON], unit: str) -> Mapping[str, Any]:
        """A piece's attributes as the view shows them (empty if it shows no such piece)."""
        p = self._read_board(view).by_id.get(unit)
        return p["attrs"] if p is not None else {}

    def _may_engage(self, view: Mapping[str, JSON], jp: list[str], unit: str) -> bool:
        """IV.D.1-3: whether the company may stand next to the Japanese without raising its
        regiment's Fatigue: its battalion is the regiment's only one in contact (the lead),
        or the regiment is fresh enough (Fatigue below ``surge``) to commit a second."""
        a = self._unit_attrs(view, unit)
        reg, bn = str(a.get("regiment", "")), str(a.get("battalion", ""))
        bns = dict(self._contact(view, jp).get(reg, {}))
        here = self._where(view, unit)
        if here and self._nearest(jp)(here) == 1:
            bns[bn] -= 1
            if not bns[bn]:
                del bns[bn]
        if not bns:
            return True
        if int(view["tracks"].get(f"fatigue:{reg}", 0)) < self.prio.surge:
            return True
        # tired: only the lead battalion (most companies in contact) stays in contact
        lead = min(bns, key=lambda b: (-bns[b], b))
        return bn == lead

    # -- set-up ---------------------------------------------------------------------------
    @handles("beach")
    def _beach(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        jp = self._jp_hexes(view)
        comp = c.components()

        def threat(beach: str) -> int:
            dist = comp.map.id_distance
            return sum(1 for b in comp.hexes_where("beach", beach) for j in jp if dist(b, j) <= 3)
        return min(self._values(decision), key=lambda b: (threat(str(b)), str(b)))

    @handles("wave")
    def _wave(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        unit = str(decision.context.get("unit", ""))
        first = [o for o in decision.options if "first" in o.label]
        second = [o for o in decision.options if "second" in o.label]
        pool = (first or second) if unit.startswith(("HQ", "A/4TK", "C/4TK", "A/5TK", "C/5TK")) is False \
            else (second or first)
        return pool[len(pool) // 2].value

    @handles("setup")
    def _setup(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        jp = self._jp_hexes(view)
        occupied = {str(p["location"]) for p in view["pieces"] if p["side"] == c.US}
        opts = [o for o in decision.options if str(o.value) not in occupied] or list(decision.options)
        dist = c.components().map.id_distance
        return min(opts, key=lambda o: (min((dist(str(o.value), j) for j in jp), default=0) < 2,
                                        -min((dist(str(o.value), j) for j in jp), default=0) * 0,
                                        str(o.value))).value

    # -- planning -----------------------------------------------------------------------------
    @handles("independent")
    def _independent(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        vals = self._values(decision)
        if view["vars"].get(c.V_SCENARIO) == c.VERY_SHORT and "28" in vals:
            return "28"
        return vals[0]

    @handles("borrow")
    def _borrow(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        return decision.options[0].value

    @handles("withdraw")
    def _withdraw(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        return decision.options[0].value

    # -- movement ---------------------------------------------------------------------------
    def _us_at(self, view: Mapping[str, JSON]) -> dict[str, list[str]]:
        """Hex -> the kinds of the Marine units the view shows in it (read once a board;
        the caller must not change it)."""
        return self._read_board(view).us

    @handles("select_unit")
    def _select_unit(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        units = [o for o in decision.options if o.value != DONE]
        jp = self._jp_hexes(view)
        if not units or not jp:
            return DONE

        nearest = self._nearest(jp)

        def gap(o: Option) -> int:
            return nearest(o.label.rsplit(" ", 1)[-1])
        # HQs first (the supply sources go forward before the companies), then infantry not
        # yet in contact (nearest first), then armour that lags.
        if view["turn"] == 1 and decision.section == "IV.B.1":
            # clear the beach for the second wave, which must land next to its hex
            landed = set(self._var(view, c.V_LANDED) or [])
            blocking = [o for o in units if o.label.rsplit(" ", 1)[-1] in landed
                        and str(o.value).count("/") == 3]
            if blocking:
                return min(blocking, key=lambda o: str(o.value)).value
        fronts: dict[str, list[str]] = {}  # division -> its open front (:meth:`_open_front`)

        def front(o: Option) -> int:
            loc = o.label.rsplit(" ", 1)[-1]
            division = self._division(view, str(o.value))
            ahead = fronts.get(division)
            if ahead is None:
                ahead = fronts[division] = self._open_front(view, jp, "", division)
            return self._far_gaps(tuple(ahead))(loc)
        hqs = [o for o in units if str(o.value).startswith("HQ") and front(o) > 4]
        if hqs:
            return min(hqs, key=lambda o: str(o.value)).value
        # The candidates below are tried in the order of their values (no two options share
        # one), so the costlier tests stop at the first that passes.
        companies = sorted((o for o in units if str(o.value).count("/") == 3),
                           key=lambda o: str(o.value))
        back = next((o for o in companies if gap(o) == 1
                     and not self._may_engage(view, jp, str(o.value))), None)
        if back is not None:  # IV.D: a second battalion in contact while the regiment tires pulls back
            return back.value
        far = [o for o in companies if gap(o) > 2]
        if far:  # they make the second rank that links the first to its HQ
            return min(far, key=lambda o: (gap(o), str(o.value))).value
        us = self._us_at(view)

        def can_close(o: Option) -> bool:  # a free hex next to the enemy where Supply holds
            unit, loc = str(o.value), o.label.rsplit(" ", 1)[-1]
            supplied: Callable[[str], bool] | None = None
            for h in c.components().map.passable_neighbor_ids(loc):
                if h in jp or "infantry" in us.get(h, []) or nearest(h) != 1:
                    continue
                if supplied is None:
                    supplied = self._supply_test(view, unit, "infantry", loc)
                if supplied(h):
                    return True
            return False
        near = next((o for o in companies if gap(o) == 2
                     and self._may_engage(view, jp, str(o.value)) and can_close(o)), None)
        if near is not None:
            return near.value
        rest = [o for o in units if str(o.value).count("/") != 3 and not str(o.value).startswith("HQ")
                and gap(o) > 2]
        if rest:
            return min(rest, key=lambda o: (gap(o), str(o.value))).value
        return DONE

    @handles("destination")
    def _destination(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Where the unit moves (the module's priorities): each rule's candidates are read
        from the hexes it can take (those one or two hexes from a Japanese unit are known
        from the Japanese hexes; the others in the order of their hexes to the open front),
        so only the hexes a rule may choose are looked at."""
        unit = str(decision.context.get("unit", ""))
        jp = self._jp_hexes(view)
        options = decision.options
        # never a hex that already holds a unit of its kind (V.M: one would be removed)
        by_hex: dict[str, Option] = {o.value: o for o in options
                                     if not o.detail.get("crowded") or o.value == DONE}
        stop = by_hex.pop(DONE, None) is not None
        if not by_hex or not jp:
            return options[0].value
        kind = "infantry" if unit.count("/") == 3 else "hq" if unit.startswith("HQ") else "armour"
        us = self._us_at(view)
        here = self._where(view, unit)

        nearest = self._nearest(jp)  # hexes to the nearest Japanese unit
        one, two = self._near_bands(jp)  # the hexes one and two hexes from them
        keys = by_hex.keys()
        info = {h: _fire_hexes(by_hex[h]) for h in keys & one}  # (fire, hexes moved)
        info.update((h, _fire_hexes(by_hex[h])) for h in keys & two)

        farther: dict[str, tuple[int, int]] = {}  # the others, read once a hex

        def fire_hexes(h: str) -> tuple[int, int]:  # (fire, hexes moved) of any destination
            found = info.get(h)
            if found is None:
                found = farther.get(h)
                if found is None:
                    found = farther[h] = _fire_hexes(by_hex[h])
            return found

        # a company leaving the second rank for the first counts on the next to close up
        # behind it (Supply is checked when it attacks, VII)
        relay = here if kind == "infantry" and here and nearest(here) == 2 else ""

        held: list[_Gaps] = []

        def far_gaps() -> _Gaps:  # hexes to the nearest Japanese unit still open
            if not held:  # the open front, read when first asked (never empty)
                ahead = self._open_front(view, jp, here, self._division(view, unit))
                held.append(self._far_gaps(tuple(ahead)))
            return held[0]

        if kind == "hq":
            if stop:
                return DONE
            # an HQ: where it supplies most of its division
            return self._hq_spot(
                view, unit, self._division(view, unit), list(by_hex.values()),
                lambda o: nearest(str(o.value)), lambda o: fire_hexes(str(o.value))[0],
                lambda o: far_gaps()(str(o.value))).value
        supplied = self._supply_test(view, unit, kind, relay)

        def first(rows: list[tuple[Any, ...]]) -> str | None:
            # the hex (a row's last part; no two rows share one) of the least row whose
            # hex is Supplied
            rows.sort()
            return next((r[-1] for r in rows if supplied(r[-1])), None)
        pool = set(keys)
        if kind == "infantry":
            engage = self._may_engage(view, jp, unit)
            # a company that may not engage keeps to the hexes two or more off (if any)
            anywhere = engage or len(keys & one) + len(keys & set(jp)) == len(keys)
            # contact where Supply holds (a Marine-held hex behind it links it to its HQ)
            if engage:
                pick = first([(f, k, h) for h, (f, k) in info.items()
                              if h in one and f <= self.prio.inf_fire])
                if pick is not None:
                    return pick
            if stop:
                return DONE

            # else the second rank: two hexes off, next to Marines in contact (their link)
            def links(h: str) -> int:
                return -sum(1 for x in c.components().map.passable_neighbor_ids(h)
                            if x in us and nearest(x) == 1)
            pick = first([(links(h), f, k, h) for h, (f, k) in info.items()
                          if h in two and f <= self.prio.inf_fire])
            if pick is not None:
                return pick

            def fits(h: str) -> tuple[int, int, str] | None:  # a hex it may take: its key
                gap = nearest(h)
                return (gap, fire_hexes(h)[1], h) if anywhere or gap >= 2 else None

            def safe(h: str) -> tuple[int, int, str] | None:  # ... under no fire
                return fits(h) if fire_hexes(h)[0] == 0 else None
            gaps = far_gaps()
            pick = gaps.least(pool, safe, supplied) or gaps.least(pool, safe)
            return pick if pick is not None else gaps.least(pool, fits)
        pick = first([(f, h) for h, (f, _) in info.items() if h in one and f <= 1
                      and "infantry" in us.get(h, []) and "armour" not in us.get(h, [])])
        if pick is not None:
            return pick
        if stop:
            return DONE
        pick = first([(f, h) for h, (f, _) in info.items() if h in two and f <= 1])
        if pick is not None:
            return pick
        gaps = far_gaps()
        pick = gaps.least(pool, lambda h: (nearest(h), h) if fire_hexes(h)[0] == 0 else None)
        return pick if pick is not None else gaps.least(pool, lambda h: (nearest(h), h))

    def _hq_spot(self, view: Mapping[str, JSON], unit: str, division: str, opts: list[Option],
                 d: Callable[[Option], int], fire: Callable[[Option], int],
                 far: Callable[[Option], int]) -> Option:
        """VII.A: the HQ's destination that supplies most of its division's companies (those
        in or near contact count three times: they must be Supplied to attack), from which
        the HQ itself still traces to a landed beach, two or more hexes from the enemy; while
        many of its companies stand idle far from the enemy (``idle``), a hex nearer the open
        front is worth one company more a hex; fewer Opportunity Fire attacks on a tie.
        A Supply Path of five hexes reaches only the companies within five, so the
        destinations are scored from the one with most of them, and scoring stops at one
        that could not beat the best found even if it supplied them all."""
        self._supplied_at(view, unit, "hq", str(opts[0].value))  # builds the probe situation
        s, _ = self._probe
        probe = self._state_probe_of(view)
        beaches = [h for h in self._var(view, c.V_LANDED) or [] if h not in s.jp]
        idx = c.hex_index()
        nearest = self._nearest(self._jp_hexes(view))
        mine: list[tuple[int, int]] = []
        spots: list[tuple[str, int]] = []  # mine by hex
        idle = 0
        for p in self._on_map(view):
            loc = str(p["location"])
            if p["side"] == c.US and p["kind"] in ("infantry", "armour") \
                    and p["attrs"].get("division") == division and c.is_land(loc):
                gap = nearest(loc)
                mine.append((idx[loc], 3 if gap <= 2 else 1))
                spots.append((loc, 3 if gap <= 2 else 1))
                idle += gap >= 4
        pull = 1 if idle >= self.prio.idle else 0

        def score(o: Option) -> tuple[int, int, int, str]:
            h = str(o.value)
            if d(o) < 2 or not c.traces_supply(probe, s, h, beaches, "hq", None):
                return (1, 0, 0, h)
            covered = c.supplied_from(probe, s, [h], "infantry", 5)
            value = sum(w for i, w in mine if i in covered) - 4 * fire(o) - pull * far(o)
            return (0, -value, far(o), h)

        weight_at: dict[str, int] = {}  # the companies' weights summed by hex: one sum a hex
        for loc, w in spots:
            weight_at[loc] = weight_at.get(loc, 0) + w
        locs, weights = list(weight_at), list(weight_at.values())
        within5 = (5).__ge__

        def most(o: Option) -> int:  # the value if it supplied every company within five
            near = map(within5, map(c.components().map.id_distance, locs, repeat(str(o.value))))
            return sum(compress(weights, near)) - 4 * fire(o) - pull * far(o)
        # the least score: (1, 0, 0, hex) unless the HQ may go there (then its value first)
        ranked = sorted(((most(o), o) for o in opts if d(o) >= 2), key=lambda t: -t[0])
        best: tuple[int, int, int, str] | None = None
        pick = None
        for top, o in ranked:
            if best is not None and best[0] == 0 and top < -best[1]:
                break
            k = score(o)
            if best is None or k < best:
                best, pick = k, o
        if pick is not None and best is not None and best[0] == 0:
            return pick
        return min(opts, key=lambda o: str(o.value))

    @handles("select_landing")
    def _select_landing(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        units = [o for o in decision.options if o.value != DONE]
        return units[0].value if units else DONE

    @handles("land")
    def _land(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        roomy = [o for o in decision.options if not (o.detail and o.detail.get("crowded"))]
        return min(roomy or decision.options,
                   key=lambda o: (int(o.detail.get("near", 0)) if o.detail else 0, str(o.value))).value

    @handles("overstack")
    def _overstack(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """V.M: the unit with fewest steps goes (it costs the fewest VP)."""
        steps = {str(p["id"]): int(p.get("steps", 0) or 0) for p in view["pieces"]
                 if p.get("id") is not None}
        return min(decision.options, key=lambda o: (steps.get(str(o.value), 0), str(o.value))).value

    # -- combat ---------------------------------------------------------------------------
    @handles("support")
    def _support(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        best = decision.options[-1]
        strength = int(decision.options[0].detail.get("strength", 0)) if decision.options[0].detail else 0
        left = int(view["tracks"].get("support", 0))
        spend = self.prio.support
        if strength >= spend.strength_at_least or left >= spend.points_at_least:
            return best.value
        return decision.options[min(1, len(decision.options) - 1)].value

    @handles("attack")
    def _attack(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        # only units Supplied now (IV.D.5: another's attack might restore a unit's Supply,
        # but an armour unit committed to it would be wasted if it did not)
        attacks = [o for o in decision.options if o.value != DONE
                   and not (o.detail and o.detail.get("unsupplied"))]

        turn = int(view["turn"])
        read = self._read_board(view)
        steps = {loc: int(p.get("steps", 0) or 0) for loc in read.jp_at for p in read.at[loc]
                 if p["side"] == c.JAPAN}

        worth = self.prio.attack

        def gain(o: Option) -> float:
            # An ambush is one Opportunity Fire attack on the OF/CP row: it costs far less
            # than the steps a hit takes; a unit in or south of the First Line scores the
            # Japanese a VP every turn it lives (IV.G.1), and a nearly dead unit is worth
            # finishing (battalion integrity then helps the next attack on the hex).
            odds = o.detail.get("odds", {}) if o.detail else {}
            hits = sum(int(r) * float(p) for r, p in odds.items() if r not in ("A", "-"))
            target = str(o.value[1]) if isinstance(o.value, list) else ""
            weight = 1.0
            if target and self._scores(target, turn):
                weight += worth.scoring_bonus
            if steps.get(target, 0) and steps[target] <= worth.nearly_dead_steps:
                weight += worth.nearly_dead_bonus
            return hits * weight - worth.ambush_cost * float(odds.get("A", 0))
        good = [o for o in attacks if gain(o) > worth.least_gain]
        if not good:
            return DONE
        return max(good, key=lambda o: (gain(o), str(o.value))).value

    @handles("armour")
    def _armour(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        return True if decision.is_legal(True) else decision.options[0].value

    @handles("replacement")
    def _replacement(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        units = [o for o in decision.options if o.value != DONE]
        return units[0].value if units else DONE

    @handles("loss")
    def _loss(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        return max(decision.options, key=lambda o: (" 3 steps" in o.label, str(o.value))).value


def _heuristic(side: str, seed: int) -> Agent:
    return HeuristicMarines(side, seed)


BOTS: Mapping[str, Callable[[str, int], Agent]] = MappingProxyType({"heuristic": _heuristic})
