"""Bots for the USMC side. ('random', the random-legal bot, is built into the core.)

The heuristic bot reads only the USMC view and the decision: it takes vacant Japanese
positions whenever it can walk in, attacks with fresh regiments where the Japanese are
thinnest (off the mountains first), spends its attack cards, rerolls bad pairs while its
cohesion allows, lands reserves when the beaches are free, and otherwise brings a fresh
regiment an arrow nearer the fighting or regroups the most worn one nearest the front, so no
action is wasted. Its thresholds and weights are the ``priorities`` of ``data/ai.yaml``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from math import factorial
from types import MappingProxyType
from typing import Any, Generic, TypeVar, overload

from tabletop.core.engine.agents import KindBot, handles
from tabletop.core.engine.boardreader import PlaceIndex
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision
from tabletop.core.engine.views import View

from . import positions as P
from .ai import Priorities, priorities
from .components import card_id_of

_OUT = (1, 2, 4, 5, 6)  # a rerolled die settles on one of these (3s are rerolled again, 6.0)


@cache
def _outcomes(k: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """The distribution of k settled dice as counts of 1, 2, 4, 5, 6: every composition of k
    into five counts in the order of :func:`_compositions` (written out as loops), each with
    its multinomial chance (whole numbers, then one division: the same floats)."""
    res = []
    whole, share = factorial(k), 5 ** k
    for a in range(k + 1):
        pa = whole // factorial(a)
        for b in range(k - a + 1):
            pb = pa // factorial(b)
            for c in range(k - a - b + 1):
                pc = pb // factorial(c)
                rest = k - a - b - c
                for d in range(rest + 1):
                    res.append(((a, b, c, d, rest - d), pc // factorial(d) // factorial(rest - d) / share))
    return tuple(res)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` counts (zeros allowed), in lexicographic
    order: the tuples of ``itertools.product(range(total + 1), repeat=parts)`` that add up to
    ``total``, without walking the others."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def _stop_value(s: tuple[int, int, int, int], need: int) -> float:
    n1, n2, n5, n6 = s
    return min(need, n5 // 2 + n6 // 2) - 1.0 * (n1 // 2) - 0.3 * (n2 // 2)


@cache
def _settled(k: int) -> tuple[tuple[int, int, int, int, float], ...]:
    """:func:`_outcomes` as (1s, 2s, 5s, 6s, chance): the 4s never count."""
    return tuple((comp[0], comp[1], comp[3], comp[4], p) for comp, p in _outcomes(k))


@cache
def _value(s: tuple[int, int, int, int], need: int, lam: float, depth: int
           ) -> tuple[float, tuple[int, int, int, int] | None]:
    """6.0 attack dice: the best value of dice (counts of 1, 2, 5, 6) with ``depth`` rerolls
    left, each costing ``lam`` (a Japanese marker = 1, a USMC marker = -1). A pure function
    of its arguments, kept (the state space is small)."""
    best, act = _stop_value(s, need), None
    if depth > 0:
        n1, n2, n5, n6 = s
        below = depth - 1
        for r1 in {0, n1}:
            for r2 in {0, n2}:
                for r5 in {0, n5 % 2, n5}:
                    for r6 in {0, n6 % 2, n6}:
                        k = r1 + r2 + r5 + r6
                        if k == 0:
                            continue
                        b1, b2, b5, b6 = n1 - r1, n2 - r2, n5 - r5, n6 - r6
                        ev = -lam
                        # the same sum in the same order as a plain loop: the same floats
                        for c1, c2, c5, c6, p in _settled(k):
                            ns = (b1 + c1, b2 + c2, b5 + c5, b6 + c6)
                            ev += p * _value(ns, need, lam, below)[0]
                        if ev > best + 1e-9:
                            best, act = ev, (r1, r2, r5, r6)
    return best, act


NEEDS = (1, 2, 3)
"""The Japanese hits an attack needs, as the bot counts them (:meth:`HeuristicBot._reroll_set`)."""
LAMBDAS = (0.0, 0.15, 0.3, 0.6, 0.1)
"""The prices the bot puts on a reroll (:meth:`HeuristicBot._reroll_set`): free, the
cohesion of a fresh, a worn and a spent regiment, and any cohesion on the last turn."""


def reroll_depth(n: int) -> int:
    """How many rerolls :func:`reroll_plan` looks ahead with ``n`` dice: shorter for big
    pools (Naval Gunfire) to keep a decision fast."""
    return 3 if n <= 5 else 2 if n <= 7 else 1


def pools(max_dice: int) -> list[tuple[int, int, int, int]]:
    """Every pool of 1 to ``max_dice`` rerollable dice as counts of 1s, 2s, 5s and 6s, by
    size, then in lexicographic order (``_compositions(n, 4)`` for each size, written out):
    the order of the plans in data/dice_plan.yaml."""
    return [(a, b, c, n - a - b - c) for n in range(1, max_dice + 1) for a in range(n + 1)
            for b in range(n - a + 1) for c in range(n - a - b + 1)]


@cache
def _tabled() -> tuple[int, Mapping[tuple[int, float], str], dict[tuple[int, int, int, int], int]]:
    """The plans worked out once (data/dice_plan.yaml, written by tools/iwo_1945_dice_plan.py
    from :func:`_value`): the largest pool tabled, the plan strings, and where each pool's
    plan stands in them."""
    from .components import load_dice_plan

    plan = load_dice_plan()
    return plan.max_dice, plan.by_key(), {s: 4 * i for i, s in enumerate(pools(plan.max_dice))}


def reroll_plan(s: tuple[int, int, int, int], need: int, lam: float) -> tuple[int, int, int, int] | None:
    """How many 1s, 2s, 5s and 6s to reroll now (None: stop): :func:`_value` looking
    :func:`reroll_depth` rerolls ahead, read from the table worked out once where it holds
    the pool (every pool of up to 12 dice, at the needs and prices the bot uses)."""
    most, plans, where = _tabled()
    text = plans.get((need, lam))
    if text is not None and 0 < sum(s) <= most:
        i = where[s]
        code = text[i:i + 4]
        if code == "0000":
            return None
        return int(code[0], 36), int(code[1], 36), int(code[2], 36), int(code[3], 36)
    return _value(s, need, lam, reroll_depth(sum(s)))[1]


_NONE: Mapping[str, int] = MappingProxyType({})


_Place = tuple[dict[str, int] | None, str | None, tuple[Any, ...], tuple[Any, ...]]
"""What the bot reads of one place: how many pieces of each kind stand there (None off the
board positions), the regiment of its first USMC marker, the regiments of its USMC markers
in stack order (board positions only) and the regiments of the exhaustion cubes there."""


def _read_place(loc: str, pieces: Iterable[Mapping[str, Any]], board: frozenset[str]) -> _Place:
    """One place's :data:`_Place`, from its pieces top first."""
    exhausted = tuple([p["attrs"]["regiment"] for p in pieces
                       if p["kind"] == "exhaustion" and p["attrs"].get("regiment")])
    if loc not in board:
        return None, None, (), exhausted
    here: dict[str, int] = {}
    regiments = []
    for p in pieces:
        kind = p["kind"]
        here[kind] = here.get(kind, 0) + 1
        if kind == "marine":
            regiments.append(p["attrs"]["regiment"])
    return here, (str(regiments[0]) if regiments else None), tuple(regiments), exhausted


class BoardIndex(PlaceIndex):
    """The board as the bot reads it, kept between decisions and changed place by place
    (:class:`~tabletop.core.engine.boardreader.PlaceIndex`): each place's :data:`_Place` is worked out
    again only for the places read again, and what the bot asks (:attr:`kinds`,
    :attr:`first`, :meth:`where`, :meth:`exhausted`) is kept with it."""

    def __init__(self) -> None:
        super().__init__()
        self._board: frozenset[str] = frozenset()  # the board positions (read with the view)
        self._places: dict[str, _Place] = {}
        #: board position -> how many pieces of each kind stand there
        self.kinds: dict[str, dict[str, int]] = {}
        #: board position -> the regiment of its first USMC marker
        self.first: dict[str, str] = {}
        self._holders: dict[Any, set[str]] = {}  # regiment -> the positions of its markers
        self._cubes: dict[Any, int] = {}  # regiment -> the exhaustion cubes marking it

    def where(self, rid: Any) -> str | None:
        """The board position of a regiment's markers (the first in place order, as the
        view lists its pieces), None in reserve or eliminated."""
        held = self._holders.get(rid)
        return min(held) if held else None

    def exhausted(self, rid: Any) -> bool:
        """Whether an exhaustion cube marks the regiment (wherever the cube is)."""
        return rid in self._cubes

    def read(self, view: Mapping[str, Any]) -> BoardIndex:
        """Bring the index up to date with a view of the board (itself, for chaining)."""
        self._board = P.position_set()
        super().read(view)
        return self

    def clear(self) -> None:
        self._places, self.kinds, self.first, self._holders, self._cubes = {}, {}, {}, {}, {}

    def add(self, place: str, pieces: Sequence[Mapping[str, Any]]) -> None:
        loc = place
        place_read = self._places[loc] = _read_place(loc, pieces, self._board)
        here, lead, regiments, cubes = place_read
        if here is not None:
            self.kinds[loc] = here
        if lead is not None:
            self.first[loc] = lead
        for rid in regiments:
            self._holders.setdefault(rid, set()).add(loc)
        for rid in cubes:
            self._cubes[rid] = self._cubes.get(rid, 0) + 1

    def drop(self, place: str) -> None:
        loc = place
        read = self._places.pop(loc, None)
        if read is None:
            return
        _, _, regiments, cubes = read
        self.kinds.pop(loc, None)
        self.first.pop(loc, None)
        for rid in set(regiments):
            held = self._holders[rid]
            held.discard(loc)
            if not held:
                del self._holders[rid]
        for rid in cubes:
            left = self._cubes[rid] - 1
            if left:
                self._cubes[rid] = left
            else:
                del self._cubes[rid]

    def state(self) -> tuple[dict[str, dict[str, int]], dict[str, str], dict[Any, str | None],
                             set[Any]]:
        """Everything the index answers, for comparing two indexes (tests)."""
        rids = set(self._holders) | set(self._cubes)
        return (self.kinds, self.first, {r: self.where(r) for r in self._holders},
                {r for r in rids if self.exhausted(r)})


R = TypeVar("R")


class _once(Generic[R]):  # a decorator, named like cached_property
    """``functools.cached_property`` without its lock: worked out at the first read and kept
    in the instance (a World lives for one decision of one bot, in one thread)."""

    def __init__(self, func: Callable[[Any], R]) -> None:
        self.func = func
        self.name = func.__name__

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> _once[R]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> R: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> R | _once[R]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


class World:
    """The USMC view, indexed: what stands where, cohesion, exhaustion, control. Each part is
    read from the view when first asked for, so a decision that needs no pieces does not read
    them; the board through the bot's :class:`BoardIndex`, kept between decisions."""

    def __init__(self, view: Mapping[str, Any], index: BoardIndex | None = None) -> None:
        self._view = view
        self._index = index if index is not None else BoardIndex()

    @_once
    def _board(self) -> BoardIndex:
        """What stands where: the bot's :class:`BoardIndex`, brought up to date with the view."""
        return self._index.read(self._view)

    @_once
    def _cohesions(self) -> dict[str, int]:
        """The cohesion of each regiment asked for so far (see :meth:`cohesion`)."""
        return {}

    @_once
    def round(self) -> int:
        """The round (6.0)."""
        return int(self._view["turn"])

    @_once
    def control(self) -> dict[str, str]:
        """Who controls each position."""
        view = self._view
        control: dict[str, str] = (view.var("control") if isinstance(view, View)
                                   else view["vars"]["control"])
        return control

    def _pile(self, deck: str, pile: str) -> Any:
        """A deck pile as the view shows it (None if there is none), read alone from a core
        view (:meth:`~tabletop.core.engine.views.View.pile`)."""
        view = self._view
        if isinstance(view, View):
            return view.pile(deck, pile)
        return view["decks"][deck].get(pile)

    @_once
    def japanese_left(self) -> int:
        """Japanese cards left to draw."""
        draw = self._pile("japanese", "draw")
        return int(draw["count"]) if isinstance(draw, dict) else len(draw)

    @_once
    def hand(self) -> list[str]:
        """The USMC hand's card ids."""
        hand = self._pile("usmc", "hand:USMC")
        return [card_id_of(c) for c in hand] if isinstance(hand, list) else []

    def kinds(self, pos: str, kind: str) -> int:
        """How many pieces of a kind stand in a board position."""
        return self._board.kinds.get(pos, _NONE).get(kind, 0)

    def japanese_markers(self, pos: str) -> int:
        """How many Japanese markers stand in a board position."""
        return self._board.kinds.get(pos, _NONE).get("ija", 0)

    def regiment(self, pos: str) -> str | None:
        """The regiment in a board position (of its first USMC marker)."""
        return self._board.first.get(pos)

    def where(self, rid: str) -> str | None:
        """The board position of a regiment (None in reserve or eliminated)."""
        return self._board.where(rid)

    def cohesion(self, rid: str) -> int:
        """A regiment's cohesion (its track), read alone from a core view
        (:meth:`~tabletop.core.engine.views.View.track`)."""
        known = self._cohesions.get(rid)
        if known is None:
            view, track = self._view, P.track_id(rid)
            known = self._cohesions[rid] = int(view.track(track) if isinstance(view, View)
                                               else view["tracks"][track])
        return known

    def vacant(self, pos: str) -> bool:
        here = self._board.kinds.get(pos, _NONE)
        return here.get("ija", 0) + here.get("marine", 0) == 0

    def fresh(self, rid: str) -> bool:
        return not self._board.exhausted(rid)

    def on_board(self) -> list[str]:
        """The regiments on the board, in the order of the positions (islands by priority,
        then beaches)."""
        return list(self._on_board)

    @_once
    def _on_board(self) -> tuple[str, ...]:
        first = self._board.first
        return tuple(r for pos in P.positions() if (r := first.get(pos)) is not None)

    def objective(self, pos: str) -> bool:
        """A position the USMC must still take: Japanese markers, a cube, or Japanese control."""
        return bool(self.japanese_markers(pos) or self.kinds(pos, "infiltration")) or (
            P.is_island(pos) and self.control.get(pos) == P.JAPAN)

    def front_distance(self) -> dict[str, int]:
        """Arrows from each position to the nearest objective (0: an objective itself)."""
        return dict(_front_distance(tuple(p for p in P.positions() if self.objective(p))))


@lru_cache(maxsize=1024)
def _front_distance(objectives: tuple[str, ...]) -> dict[str, int]:
    """:meth:`World.front_distance` once the objectives are known, in position order (a pure
    function of them, kept: the same fronts come back turn after turn). Shared: copy it."""
    dist = dict.fromkeys(objectives, 0)
    frontier = list(dist)
    while frontier:
        nxt = []
        for p in frontier:
            for q in P.adjacent(p):
                if q not in dist:
                    dist[q] = dist[p] + 1
                    nxt.append(q)
        frontier = nxt
    return dist


class HeuristicBot(KindBot):
    """A competent USMC commander (see the module docstring)."""

    name = "heuristic"

    def __init__(self, side: str = "USMC", seed: int = 0) -> None:
        self.side = side
        self._rng = random.Random(f"iwo_1945-heuristic:{seed}")
        self.plan: dict[str, str] = {}
        self._attack: tuple[tuple[int, str], int, bool] | None = None  # see _attack_facts
        self._index = BoardIndex()  # the board as read at the last decision
        # the answers to 6.0 attack dice decisions by what decides them (_attack_dice),
        # emptied when it holds 4,096
        self._dice_answers: dict[tuple[Any, ...], Any] = {}
        #: what the bot follows: ``priorities`` in data/ai.yaml (:class:`~.ai.Priorities`)
        self.prio: Priorities = priorities()

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Pick an option by the decision's kind."""
        w = World(view, self._index)
        values = decision.values
        if decision.kind != "attack_dice":
            self._attack = None  # a new attack comes after other decisions (_attack_facts)
        handler = self.handler(decision.kind)
        if handler is not None:
            v = handler(w, decision, values)
            if decision.is_legal(v):
                return v
        return values[0]

    @handles("select_partner", "card_position")
    def _first(self, w: World, d: Decision, values: list[Any]) -> Any:
        """The first option: 6.0's swap partner, 3.0's bunker position, as the rules list them."""
        return values[0]

    # -- the main menu -----------------------------------------------------------------------------
    @handles("usmc_turn")
    def _usmc_turn(self, w: World, d: Decision, values: list[Any]) -> Any:
        for v in values:
            if isinstance(v, str) and v.startswith("card:") and self._want_card(w, v[5:], values):
                return v
        plan = self._best_action(w, values)
        if plan is None:
            return DONE
        self.plan = plan
        return plan["kind"]

    def _want_card(self, w: World, inst: str, values: list[Any]) -> bool:
        cid = card_id_of(inst)
        cards = self.prio.cards
        if cid == "command_coordination":
            return self._good_actions(w, values) >= cards.good_actions
        if cid == "amtracs":
            return "place_new_wave" in values and self._good_actions(w, values) >= cards.good_actions
        if cid == "dig_in":
            return True
        if cid in ("fighting_seabees", "navy_corpsman"):
            return any(w.cohesion(r) <= cards.medical_at_most for r in w.on_board())
        if cid == "uncommon_valor":
            return sum(1 for r in w.on_board()
                       if w.cohesion(r) < cards.valor_below) >= cards.valor_regiments
        return False

    def _best_action(self, w: World, values: list[Any]) -> dict[str, str] | None:
        regs = w.on_board()
        # walk into a vacant Japanese-controlled island position: +5 VP for one cohesion
        if "move" in values:
            for rid in sorted(regs, key=w.cohesion, reverse=True):
                pos = w.where(rid)
                if pos is None or not w.fresh(rid) or w.cohesion(rid) < self.prio.walk_in_cohesion \
                        or w.kinds(pos, "infiltration"):
                    continue
                for q in P.adjacent(pos):
                    if P.is_island(q) and w.vacant(q) and w.control[q] == P.JAPAN:
                        return {"kind": "move", "regiment": rid, "dest": q}
        if "place_new_wave" in values:
            return {"kind": "place_new_wave"}
        if "attack" in values:
            best = None
            # the last turn: all in (7.0)
            floor = self.prio.last_turn_attack_floor if w.japanese_left == 0 else self.prio.attack_floor
            for rid in regs:
                pos = w.where(rid)
                if pos is None or not w.fresh(rid) or w.cohesion(rid) < floor:
                    continue
                for q in self._targets(w, pos):
                    score = self._target_score(w, q) + w.cohesion(rid) / self.prio.target.cohesion_divisor
                    if best is None or score > best[0]:
                        best = (score, rid, q)
            if best is not None:
                return {"kind": "attack", "regiment": best[1], "target": best[2]}
        dist = w.front_distance()
        if "move" in values and (plan := self._move_up(w, dist)) is not None:
            return plan
        if "regroup" in values:
            tired = [r for r in regs if w.cohesion(r) < self.prio.regroup_below or not w.fresh(r)]
            if not tired:  # nothing better to do: a regroup still banks cohesion (6.0)
                tired = [r for r in regs if w.cohesion(r) < 12]
            if tired:
                def need(r: str) -> tuple[bool, int, int]:
                    pos = w.where(r)
                    return (w.fresh(r), dist.get(pos, 9) if pos else 9, w.cohesion(r))
                return {"kind": "regroup", "regiment": min(tired, key=need)}
        return None

    def _move_up(self, w: World, dist: dict[str, int]) -> dict[str, str] | None:
        """6.0 Move: bring a fresh regiment one arrow nearer the fighting."""
        best: tuple[int, int, str, str] | None = None
        for rid in w.on_board():
            pos = w.where(rid)
            if pos is None or not w.fresh(rid) or w.cohesion(rid) < self.prio.attack_floor + 1 \
                    or w.kinds(pos, "infiltration") or dist.get(pos, 9) <= 1:
                continue
            for q in P.adjacent(pos):
                if w.vacant(q) and dist.get(q, 9) < dist.get(pos, 9):
                    key = (dist[q], -w.cohesion(rid))
                    if best is None or key < best[:2]:
                        best = (key[0], key[1], rid, q)
        if best is None:
            return None
        return {"kind": "move", "regiment": best[2], "dest": best[3]}

    def _good_actions(self, w: World, values: list[Any]) -> int:
        """How many worthwhile actions the turn offers (fresh attackers, a landing)."""
        n = 1 if "place_new_wave" in values else 0
        for rid in w.on_board():
            pos = w.where(rid)
            if pos is not None and w.fresh(rid) and w.cohesion(rid) >= self.prio.attack_floor \
                    and self._targets(w, pos):
                n += 1
        return n

    def _targets(self, w: World, pos: str) -> list[str]:
        if w.kinds(pos, "infiltration"):
            return [pos]
        late = w.japanese_left <= self.prio.late_cards  # cubes cost actions: clear them near the end (7.0)
        return [q for q in P.adjacent(pos) if w.japanese_markers(q) or (late and w.kinds(q, "infiltration"))]

    def _target_score(self, w: World, q: str) -> float:
        weights = self.prio.target
        if not w.japanese_markers(q):
            return weights.infiltration  # an infiltration cube: win back control
        s = weights.base - weights.per_marker * w.japanese_markers(q) \
            - weights.per_bunker * w.kinds(q, "bunker")
        if P.is_mountain(q):
            s -= weights.mountain
        if q == P.SURIBACHI:
            s += weights.suribachi  # 2.0: +2 cohesion to all, and its guns fall silent
        return s - P.priority(q) / weights.priority_divisor

    # -- the steps of an action ----------------------------------------------------------------
    @handles("select_regiment")
    def _select_regiment(self, w: World, d: Decision, values: list[Any]) -> Any:
        rid = self.plan.get("regiment")
        if rid in values:
            return rid
        return max(values, key=lambda r: (w.cohesion(r), r))

    @handles("select_target")
    def _select_target(self, w: World, d: Decision, values: list[Any]) -> Any:
        t = self.plan.get("target")
        if t in values:
            return t
        return max(values, key=lambda q: self._target_score(w, q))

    @handles("select_destination")
    def _select_destination(self, w: World, d: Decision, values: list[Any]) -> Any:
        t = self.plan.get("dest")
        if t in values:
            return t
        return min(values, key=lambda q: (w.control.get(q) != P.JAPAN, P.priority(q)))

    @handles("attack_card")
    def _attack_card(self, w: World, d: Decision, values: list[Any]) -> Any:
        cards = [v for v in values if v != "roll"]
        return cards[0] if cards else "roll"

    @handles("attack_dice")
    def _attack_dice(self, w: World, d: Decision, values: list[Any]) -> Any:
        ctx = d.context
        free, coh = int(ctx["free"]), int(ctx["cohesion"])
        if not free and coh <= 1:
            facts: tuple[int, bool] | None = None  # no reroll (see _reroll_set)
        else:
            facts = self._attack_facts(w, str(ctx["target"]))
        key = (tuple(ctx["faces"]), tuple(ctx["chosen"]), free, coh, facts, DONE in values)
        answers = self._dice_answers
        known = answers.get(key)
        if known is None:
            if len(answers) >= 4096:
                answers.clear()
            known = answers[key] = self._dice_answer(w, d, values)
        return known

    def _dice_answer(self, w: World, d: Decision, values: list[Any]) -> Any:
        """:meth:`_attack_dice` worked out: a pure function of the dice, the dice chosen so
        far, the free rerolls, the cohesion, what the attack must remove and whether a
        the stop (DONE) is offered (kept by them in ``_dice_answers``)."""
        ctx = d.context
        faces: list[int] = list(ctx["faces"])
        want = self._reroll_set(w, faces, int(ctx["free"]), int(ctx["cohesion"]), str(ctx["target"]))
        if not want:
            return DONE if DONE in values else "cancel"
        chosen = list(ctx["chosen"])
        for f in sorted(want):  # the lowest face wanted more often than chosen so far
            if f in chosen:
                chosen.remove(f)
            else:
                return f
        return "roll"

    def _reroll_set(self, w: World, faces: list[int], free: int, coh: int, target: str) -> list[int]:
        """The dice to reroll, by a small dynamic programme over the 6.0 dice (see reroll_plan)."""
        if not free and coh <= 1:
            return []
        defenders, last_turn = self._attack_facts(w, target)
        need = min(3, max(1, defenders))
        lam = 0.0 if free else (0.15 if coh >= 8 else 0.3 if coh >= 6 else 0.6)
        if last_turn and not free:
            lam = 0.1  # the last turn: cohesion is worth little now (7.0)
        act = reroll_plan((faces.count(1), faces.count(2), faces.count(5), faces.count(6)), need, lam)
        if act is None:
            return []
        return [1] * act[0] + [2] * act[1] + [5] * act[2] + [6] * act[3]

    def _attack_facts(self, w: World, target: str) -> tuple[int, bool]:
        """What an attack's dice plan depends on besides the dice: the Japanese markers and
        bunker in the target (what the dice must remove, 6.0) and whether the Japanese deck
        is spent (7.0: the last turn). Neither can change while the dice are rerolled (the
        cards played then give free rerolls or cohesion; the bunker cards are played before
        the roll; Japanese cards are drawn in the Japanese turn), so they are read once an
        attack: at its first dice decision, kept for the attack's next ones (the bot plays
        the side, so it sees every decision; any other kind begins anew, see choose)."""
        attack = (w.round, target)
        known = self._attack
        if known is None or known[0] != attack:
            known = self._attack = (attack, w.japanese_markers(target) + w.kinds(target, "bunker"),
                                    w.japanese_left == 0)
        return known[1], known[2]

    @handles("advance")
    def _advance(self, w: World, d: Decision, values: list[Any]) -> Any:
        return "advance"

    @handles("follow")
    def _follow(self, w: World, d: Decision, values: list[Any]) -> Any:
        for v in values:
            if v != "none":
                pos = w.where(v)
                if pos is not None and P.is_beach(pos):
                    return v
        return "none"

    @handles("card_regiment")
    def _card_regiment(self, w: World, d: Decision, values: list[Any]) -> Any:
        return min(values, key=lambda r: (w.fresh(r), w.cohesion(r)))

    @handles("new_wave_regiment")
    def _new_wave_regiment(self, w: World, d: Decision, values: list[Any]) -> Any:
        regs = [v for v in values if v != DONE]
        return regs[0] if regs else DONE

    @handles("new_wave_beach")
    def _new_wave_beach(self, w: World, d: Decision, values: list[Any]) -> Any:
        def thin(b: str) -> int:
            near = [w.japanese_markers(q) for q in P.adjacent(b) if P.is_island(q) and w.japanese_markers(q)]
            return min(near) if near else 9
        return min(values, key=thin)

    @handles("select_payer")
    def _select_payer(self, w: World, d: Decision, values: list[Any]) -> Any:
        return max(values, key=w.cohesion)

    @handles("discard")
    def _discard(self, w: World, d: Decision, values: list[Any]) -> Any:
        return "keep"

    @handles("japanese_turn_card")
    def _japanese_turn_card(self, w: World, d: Decision, values: list[Any]) -> Any:
        for v in values:
            if not isinstance(v, str) or not v.startswith("card:"):
                continue
            cid = card_id_of(v[5:])
            if cid == "dig_in" and d.context.get("when") == "before":
                return v
            if cid in ("fighting_seabees", "navy_corpsman") and any(
                    w.cohesion(r) <= self.prio.cards.japanese_medical_at_most and w.fresh(r)
                    for r in w.on_board()):
                return v
        return "pass"

    @handles("cancel_card")
    def _cancel_card(self, w: World, d: Decision, values: list[Any]) -> Any:
        return next((v for v in values if v != "pass"), "pass")

    @handles("counter_card")
    def _counter_card(self, w: World, d: Decision, values: list[Any]) -> Any:
        faces = Counter(d.context.get("faces", []))
        if faces[6] - faces[2] > 0 or faces[4] + faces[5] >= 2:
            return next((v for v in values if v != "pass"), "pass")
        return "pass"

    @handles("counter_die")
    def _counter_die(self, w: World, d: Decision, values: list[Any]) -> Any:
        for f in (6, 5, 4):
            if f in values:
                return f
        return 0

    @handles("kamikaze_discard")
    def _kamikaze_discard(self, w: World, d: Decision, values: list[Any]) -> Any:
        return values[-1]
