"""Bots for Iwo: Bloodbath in the Bonins: a random-legal US bot and the US heuristic bot; the
"heuristic" name builds the Japanese bot of bots_japan for the Japanese side (18.0).

The heuristic US bot (19.2's advice): land everything it can, move toward the nearest
Japanese units (those on Suribachi count as nearer until it is cleared), pair support units
with Marine battalions, attack where the exact odds (combat.outcome_odds) are good with as
much strength as reaches the best column, put bombardment on the hexes it attacks (under
``bombardment_timing=phase_start`` its first attacks, declared in the same order, are the
bombarded ones), take losses on support units first, spend every replacement step, and
commit a reserve regiment only when its line is thin and there are turns enough left to use
it. Its knobs (:class:`~.ai.Tuning`) are the ``priorities`` of ``data/ai.yaml``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple

from tabletop.core.board.hexgrid import Hex
from tabletop.core.engine.agents import Agent, KindBot, RandomAgent, handles
from tabletop.core.engine.boardreader import PlaceIndex
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision
from tabletop.core.engine.match import AgentFactory
from tabletop.core.engine.views import View

from . import common as c
from .ai import Tuning, priorities


def _declared_tuning() -> Tuning:
    """The US bot's knobs as data/ai.yaml declares them (``priorities.us``)."""
    return priorities().us


_MISSING = object()

class _Board(PlaceIndex):
    """The bot's index of the pieces a view shows, kept from one decision to the next place
    by place (:class:`~tabletop.core.engine.boardreader.PlaceIndex`): US pieces by place (its reader's
    :meth:`~tabletop.core.engine.boardreader.BoardReader.side_at`) and by id, the hexes holding Japanese
    units, the face-up Japanese units by hex."""

    def __init__(self) -> None:
        super().__init__()
        self.jp_hexes: set[str] = set()
        self.known: dict[str, Mapping[str, Any]] = {}  # hex -> its (last) face-up Japanese unit
        self.jp_key: frozenset[str] = frozenset()
        self._jp_changed = False
        self._marine_steps: int | None = None  # kept while the board stands
        #: place -> its US pieces, in the view's order (the reader's, kept current by it)
        self.us_at: Mapping[str, Sequence[Mapping[str, Any]]] = {}
        #: id -> the piece shown with it (the reader's, kept current by it)
        self.by_id: Mapping[str, Mapping[str, Any]] = {}

    def marine_steps(self) -> int:
        """The steps of the Marine battalions on the map or available to land (11.4)."""
        if self._marine_steps is None:
            on_map = c.components().map.is_hex_id
            self._marine_steps = sum(
                p["steps"] for here in self.us_at.values() for p in here
                if p["kind"] == "marine" and (on_map(p["location"]) or p["location"] == c.AVAILABLE))
        return self._marine_steps

    def read(self, view: Mapping[str, Any]) -> _Board:
        """Bring the index up to date with a view's board (itself, for chaining)."""
        self._jp_changed = False
        board = super().read(view).board
        if board.changed != frozenset():
            self._marine_steps = None
            self.us_at, self.by_id = board.side_at(c.US), board.by_id()
        if self._jp_changed:
            self.jp_key = frozenset(self.jp_hexes)
        return self

    def clear(self) -> None:
        self.jp_hexes, self.known = set(), {}
        self._jp_changed = True

    def drop(self, place: str) -> None:
        if place in self.jp_hexes:
            self.jp_hexes.discard(place)
            self._jp_changed = True
        self.known.pop(place, None)

    def add(self, place: str, pieces: Sequence[Mapping[str, Any]]) -> None:
        """Note whether a Japanese unit stands in a map hex, and the face-up ones there."""
        jp_side = c.JAPAN
        for p in pieces:
            if p["side"] == jp_side:  # every piece shown has its side, a hidden one too
                break
        else:
            return
        if not c.components().map.is_hex_id(place):
            return
        self.jp_hexes.add(place)
        self._jp_changed = True
        for p in pieces:
            if p["side"] == jp_side and p["kind"] != "hidden" and p["face"] == "front":
                self.known[place] = p


class _Seen:
    """What the bot reads from its view: US pieces by id, Japanese hexes, face-up units, the
    visible variables, the turn. Each is read from the view when first asked for, so a
    decision that needs none of the pieces does not have the view copy them."""

    def __init__(self, view: Mapping[str, JSON], shared: list[Any], kept: _Board,
                 bonus: int) -> None:
        self._view = view
        self._shared = shared  # [position key, _Position] kept by the bot between decisions
        self._bonus = bonus  # Tuning.suribachi_bonus
        self._kept = kept  # the board index kept by the bot between decisions
        self._vars: dict[str, Any] = {}  # name -> value read (_MISSING: none)

    @cached_property
    def _board(self) -> _Board:
        return self._kept.read(self._view)

    def piece(self, pid: str) -> Mapping[str, Any]:
        """The piece shown with this id (a KeyError if none is)."""
        return self._board.by_id[pid]

    @property
    def jp_hexes(self) -> set[str]:
        """The map hexes holding Japanese units."""
        return self._board.jp_hexes

    @property
    def jp_known(self) -> dict[str, Mapping[str, Any]]:
        """Hex -> the face-up Japanese piece there."""
        return self._board.known

    def var(self, name: str, default: Any = None) -> Any:
        """A game variable the US side may see (``default`` when there is none), read alone
        (:meth:`~tabletop.core.engine.views.View.var`) and kept for the decision."""
        try:
            held = self._vars[name]
        except KeyError:
            view = self._view
            if isinstance(view, View):
                try:
                    held = view.var(name)
                except KeyError:
                    held = _MISSING
            else:
                held = view["vars"].get(name, _MISSING)
            self._vars[name] = held
        return default if held is _MISSING else held

    @cached_property
    def attacked_already(self) -> set[str]:
        """9.0: the US units that attacked (or advanced) this combat phase."""
        return set(self.var(c.V_ATTACKERS, []))

    @cached_property
    def turn(self) -> int:
        """The game turn."""
        return int(self._view["turn"])

    @cached_property
    def position(self) -> _Position:
        """What depends only on the Japanese hexes and on Suribachi's fall (distances to the
        targets, engagement): kept by the bot for the views that agree on both."""
        cleared = bool(self.var(c.V_SURIBACHI))
        key = (self._board.jp_key, cleared)
        if key != self._shared[0]:
            self._shared[:] = [key, _Position(self._board.jp_key, 0 if cleared else self._bonus)]
        position: _Position = self._shared[1]
        return position

    def us_at(self, hid: str) -> Sequence[Mapping[str, Any]]:
        """The US pieces in a place, in the view's order."""
        return self._board.us_at.get(hid, ())

    @property
    def marine_steps(self) -> int:
        """The steps of the Marine battalions on the map or available to land."""
        return self._board.marine_steps()

    @property
    def us_by_place(self) -> Mapping[str, Sequence[Mapping[str, Any]]]:
        """Place -> the US pieces there, in the view's order (only places holding some)."""
        return self._board.us_at


class _Position:
    """What the bot works out of the Japanese hexes alone, with the pull of Suribachi's
    hexes (``bonus``, 0 once it falls): the hexes next to a Japanese unit, and each hex's
    distance to the nearest target (19.2), worked out when first asked for."""

    def __init__(self, jp_hexes: frozenset[str], bonus: int) -> None:
        self._jp_hexes = jp_hexes
        self._bonus = bonus
        self._distance: dict[str, float] = {}

    @cached_property
    def near(self) -> frozenset[str]:
        """The hexes next to a Japanese unit (the map's hexes neighbour both ways)."""
        neighbours = c.components().map.neighbor_ids
        return frozenset(n for j in self._jp_hexes for n in neighbours(j))

    @cached_property
    def _targets(self) -> _Targets:
        return _Targets.of(self._jp_hexes, self._bonus)

    def distance(self, loc: str) -> float:
        """Hexes from a hex to the nearest Japanese unit, those on Suribachi counting nearer
        until it falls; 0 when there is none."""
        found = self._distance.get(loc)
        if found is None:
            found = self._distance[loc] = (float(self._targets.nearest(_distances_from(loc)))
                                           if self._jp_hexes else 0.0)
        return found


def _h(hex_id: str) -> Hex:
    return c.components().map.hex(hex_id)


@lru_cache(maxsize=1024)
def _distances_from(hex_id: str) -> bytes:
    """Hexes from a hex to every hex of the map, by the map's hex index (hexgrid.distance,
    written out: half the cube Manhattan length); kept, as the map never changes."""
    q, r = _h(hex_id)
    return bytes((abs(q - tq) + abs(r - tr) + abs(q - tq + r - tr)) >> 1
                 for tq, tr in c.components().map.hexes())


class _Targets(NamedTuple):
    """The Japanese hexes the bot heads for, by map index: those that count as they are, and
    those on Suribachi that count ``bonus`` hexes nearer until it falls (19.2)."""

    plain: tuple[int, ...]
    suribachi: tuple[int, ...]
    bonus: int

    @classmethod
    def of(cls, jp_hexes: Iterable[str], bonus: int) -> _Targets:
        """The targets of the Japanese hexes, with the Suribachi pull ``bonus`` (0 once it falls)."""
        index = c.components().map.index
        plain: list[int] = []
        suribachi: list[int] = []
        for j in jp_hexes:
            (suribachi if bonus and c.in_suribachi_sector(j) else plain).append(index(_h(j)))
        return cls(tuple(plain), tuple(suribachi), bonus)

    def nearest(self, distances: bytes) -> int:
        """The least distance to a target, less its pull, from a hex's distances
        (:func:`_distances_from`)."""
        at = distances.__getitem__
        best = min(map(at, self.plain)) if self.plain else None
        if self.suribachi:
            pulled = min(map(at, self.suribachi)) - self.bonus
            best = pulled if best is None else min(best, pulled)
        assert best is not None  # there is a target
        return best


@dataclass
class USHeuristic(KindBot):
    """The competent US bot (see the module docstring)."""

    side: str
    seed: int
    tuning: Tuning = field(default_factory=_declared_tuning)
    name: str = "heuristic"
    _skip: set[str] = field(default_factory=set)
    _skip_key: tuple[int, str] = (0, "")
    _position: list[Any] = field(default_factory=lambda: [None, None])
    _board: _Board = field(default_factory=_Board)

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Answer one decision by its kind."""
        key = (int(view["turn"]), str(view.get("phase")))  # type: ignore[call-overload,unused-ignore]
        if key != self._skip_key:
            self._skip, self._skip_key = set(), key
        handler = self.handler(decision.kind)
        if handler is None:
            return decision.options[0].value
        seen = _Seen(view, self._position, self._board, self.tuning.suribachi_bonus)
        value = handler(seen, decision)
        return value if decision.is_legal(value) else decision.options[0].value

    @handles("banzai_result")
    def _first(self, seen: _Seen, d: Decision) -> JSON:
        """9.2.3: a Banzai result's retreat or step loss, the first the rules offer."""
        return d.options[0].value

    # -- 3.3 --------------------------------------------------------------------------
    @handles("beachhead")
    def _beachhead(self, seen: _Seen, d: Decision) -> JSON:
        return self.tuning.beachhead

    # -- movement ---------------------------------------------------------------------
    @handles("movement_menu")
    def _movement_menu(self, seen: _Seen, d: Decision) -> JSON:
        reps: list[str] = []
        res: list[str] = []
        lands: list[str] = []
        moves: list[str] = []
        sorts = {"replace": reps, "reserve": res, "land": lands, "move": moves}
        for o in d.options:  # one pass: each option by its verb, in the menu's order
            v = str(o.value)
            verb, colon, _ = v.partition(":")
            if colon:
                held = sorts.get(verb)
                if held is not None:
                    held.append(v)
        if reps:
            return min(reps, key=lambda v: self._replace_rank(seen, v.split(":", 1)[1]))
        if res and self._want_reserves(seen):
            return next((v for v in res if v.endswith("+tank")), res[0])
        if d.section == "5.1.3" and not (self.tuning.land_second_phase
                                           or seen.var(c.V_SURIBACHI)):
            lands = []  # 16.2: before Suribachi falls the barrage hits every beach unit
        if lands:
            # Marines first, then the support units that will join them.
            return min(lands, key=lambda v: (bool(seen.piece(v[5:]).get("attrs", {}).get("support")), v))
        moves = [v for v in moves if v[5:] not in self._skip]
        if not moves:
            return DONE
        # Those not yet next to a Japanese unit: Marines before support units, those far
        # from the front first.
        piece, position = seen.piece, seen.position
        near, distance = position.near, position.distance
        ranked = []
        for v in moves:
            p = piece(v[5:])
            loc = p["location"]
            if loc not in near:
                ranked.append((bool(p.get("attrs", {}).get("support")), -distance(loc), v))
        if ranked:
            pick = min(ranked)[2]
            self._skip.add(pick[5:])
            return pick
        return DONE

    def _replace_rank(self, seen: _Seen, uid: str) -> tuple[int, str]:
        p = seen.piece(uid)
        support = bool(p.get("attrs", {}).get("support"))
        where = p["location"]
        order = 0 if where == c.US_ELIMINATED else 1 if where == c.AVAILABLE else 2
        return (2 * int(support) + order, uid)

    def _want_reserves(self, seen: _Seen) -> bool:
        t = self.tuning
        if seen.turn < t.reserve_from_turn or int(seen.var(c.V_RESERVES, 0)) >= t.max_reserves:
            return False
        # 4.1, 11.4: a regiment costs a turn; worth it only while the Japanese left on the
        # map are many for the turns that remain.
        turns_left = 16 - int(seen.var(c.V_RESERVES, 0)) - seen.turn + 1
        pressing = len(seen.jp_hexes) >= t.reserve_jp_per_turn * turns_left
        if not pressing:
            return False
        return bool(seen.marine_steps / 2 < t.reserve_below)

    def _engaged(self, seen: _Seen, loc: str) -> bool:
        """Whether a hex is next to a Japanese unit."""
        return loc in seen.position.near

    def _target_distance(self, seen: _Seen, loc: str) -> float:
        """Hexes from a hex to the nearest Japanese unit, those on Suribachi counting nearer
        until it falls (19.2)."""
        return seen.position.distance(loc)

    @handles("move_hex")
    def _move_hex(self, seen: _Seen, d: Decision) -> JSON:
        unit = seen.piece(str(d.context["unit"]))
        score = self._scorer(seen, unit)
        best, best_score = "stay", score(unit["location"])
        for v in d.values:
            hid = str(v)
            if hid == "stay":
                continue
            s = score(hid)
            if s > best_score:
                best, best_score = hid, s
        return best

    def _scorer(self, seen: _Seen, unit: Mapping[str, Any]) -> Callable[[str], float]:
        """The worth of ending a unit's move in a hex: near the Japanese (19.2), next to them,
        a support unit with a battalion (12.2); less on a landing beach (16.2, 16.5)."""
        uid = unit["id"]
        is_support = bool(unit.get("attrs", {}).get("support"))
        beaches = set(c.landing_beach_hexes_of(seen.var(c.V_BEACHHEAD)))
        distance, near = seen.position.distance, seen.position.near
        us_at = seen.us_by_place
        engaged_bonus = self.tuning.engaged_bonus

        def score(hid: str) -> float:
            s = -distance(hid)
            if hid in near:
                s += engaged_bonus
            here = us_at.get(hid)
            if not here:
                if hid in beaches:
                    s -= 2.0  # 16.2: the barrage falls on every beach unit
                return s
            others = [p for p in here if p["id"] != uid]
            if is_support and any(p["kind"] == "marine" for p in others):
                s += 1.0  # 12.2: a support unit adds its strength to a battalion's
            if hid in beaches:
                s -= 2.0 + 1.0 * len(others)  # 16.2, 16.5: the barrage falls on every beach unit
            return s
        return score

    @handles("landing_hex")
    def _landing_hex(self, seen: _Seen, d: Decision) -> JSON:
        unit = seen.piece(str(d.context["unit"]))
        support = bool(unit.get("attrs", {}).get("support"))

        def rank(v: JSON) -> tuple[float, str]:
            hid = str(v)
            here = seen.us_at(hid)
            lone_marine = len(here) == 1 and here[0]["kind"] == "marine"
            crowd = -2 if support and lone_marine else len(here)
            return (crowd + 0.1 * self._target_distance(seen, hid), hid)
        return min(d.values, key=rank)

    # -- combat -----------------------------------------------------------------------
    @handles("attack_defender")
    def _attack_defender(self, seen: _Seen, d: Decision) -> JSON:
        cands = [str(v) for v in d.values if v != DONE and str(v) not in self._skip]
        if not cands:
            return DONE
        bonus = 0 if seen.var(c.V_SURIBACHI) else 1

        def rank(h: str) -> tuple[float, str]:
            return (-(self._available_attack(seen, h) - _defense_guess(seen, h)
                      + (4 * bonus if c.in_suribachi_sector(h) else 0)), h)
        pick = min(cands, key=rank)
        self._skip.add(pick)
        return pick

    def _available_attack(self, seen: _Seen, hid: str) -> int:
        done = seen.attacked_already
        us_at = seen.us_by_place
        return sum(p["values"][p["face"]]["attack"] for n in c.components().map.neighbor_ids(hid)
                   for p in us_at.get(n, ()) if p["id"] not in done)

    @handles("attack_add")
    def _attack_add(self, seen: _Seen, d: Decision) -> JSON:
        from .combat import CANCEL, DECLARE

        defender = str(d.context["defender"])
        line = c.crt_line(defender)
        shift = _line_shift(line)
        chosen = list(d.context.get("chosen", []))
        suri = c.in_suribachi_sector(defender) and not seen.var(c.V_SURIBACHI)

        def worth(o: Any, hexes: list[str]) -> float:
            support = any(p.get("attrs", {}).get("support") for h in hexes for p in seen.us_at(h))
            return _attack_value(o.detail, self.tuning, support=support, suribachi=suri)
        decl = next((o for o in d.options if o.value == DECLARE), None)
        current = worth(decl, chosen) if decl is not None else None
        adds = [o for o in d.options if o.value not in (CANCEL, DECLARE)]
        if adds:
            scored = [(worth(o, [*chosen, str(o.value)]), str(o.value), o) for o in adds]
            best_worth, _, best = max(scored, key=lambda t: (t[0], t[1]))
            gain = best_worth - (current if current is not None else -9)
            capped = chosen and _attack_of(d) - _defense_guess(seen, defender) + shift * 2 >= 16
            if gain > 0.01 and not capped:
                return best.value
        if current is not None and current >= self.tuning.attack_threshold:
            return DECLARE
        return CANCEL

    @handles("bombardment_attack")
    def _bombardment_attack(self, seen: _Seen, d: Decision) -> JSON:
        # 8.2 read literally (bombardment_timing=phase_start): declare the bombarded attacks
        # in the order the bot would attack anyway, two markers each, while markers last; an
        # attack it cancels is skipped for the rest of the phase, as under 9.0.
        return self._attack_defender(seen, d)

    @handles("bombardment_markers")
    def _bombardment_markers(self, seen: _Seen, d: Decision) -> JSON:
        return max(d.values, key=lambda v: int(str(v)))

    @handles("step_loss")
    def _step_loss(self, seen: _Seen, d: Decision) -> JSON:
        def rank(v: JSON) -> tuple[int, int, str]:
            p = seen.piece(str(v))
            return (0 if p.get("attrs", {}).get("support") else 1, -int(p["steps"]), str(v))
        return min(d.values, key=rank)

    @handles("retreat_hex")
    def _retreat_hex(self, seen: _Seen, d: Decision) -> JSON:
        return min(d.values, key=lambda v: (-self._target_distance(seen, str(v)), str(v)))

    @handles("advance")
    def _advance(self, seen: _Seen, d: Decision) -> JSON:
        opts = [v for v in d.values if v != "none"]
        return opts[0] if opts else "none"


def _line_shift(line: str) -> int:
    spec = c.components().tables["crt"].spec
    s = spec.line_shifts.get(line)
    return s.shift if s is not None else 0


def _attack_of(d: Decision) -> int:
    for o in d.options:
        if o.value == "declare" and "attack" in o.detail:
            return int(str(o.detail["attack"]))
    return 0


def _defense_guess(seen: _Seen, hid: str) -> float:
    p = seen.jp_known.get(hid)
    if p is not None:
        return float(p["values"]["front"]["defense"])
    return 3.0


def _attack_value(detail: dict[str, JSON], t: Tuning, *, support: bool = False,
                  suribachi: bool = False) -> float:
    """The worth of an attack from its exact odds (the option's detail, combat.odds_detail)."""
    raw = detail.get("odds")
    if not isinstance(raw, dict):
        return -9.0
    odds = {k: float(v) for k, v in raw.items() if isinstance(v, (int, float))}
    loss = t.support_loss_weight if support else t.loss_weight
    kill = 1.0 + (t.suribachi_weight if suribachi else 0.0)
    return (kill * odds.get("De", 0) + t.retreat_weight * odds.get("DR", 0)
            + t.retreat_in_place_weight * odds.get("DRIP", 0) - loss * odds.get("(A)", 0)
            - t.attacker_retreat_weight * odds.get("A", 0)
            - t.attacker_eliminated_weight * odds.get("Ae", 0))


def _heuristic(side: str, seed: int) -> Agent:
    """US: USHeuristic; Japan (18.0): the Japanese bot of bots_japan."""
    if side == c.JAPAN:
        try:
            from .bots_japan import JapaneseBot
        except ImportError:  # the Japanese bot is written in parallel
            return RandomAgent(side, seed)
        return JapaneseBot(side, seed)  # type: ignore[no-any-return,unused-ignore]
    return USHeuristic(side, seed)


def _random(side: str, seed: int) -> Agent:
    return RandomAgent(side, seed)


BOTS: Mapping[str, AgentFactory] = MappingProxyType({"heuristic": _heuristic, "random": _random})
__all__ = ["BOTS", "Tuning", "USHeuristic"]
