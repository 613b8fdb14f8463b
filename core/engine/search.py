"""The search agent: information-set Monte Carlo tree search over determinizations.

``--agent SIDE=mcts`` plays any game and any side with no code of the game's own. At each
decision it runs *playouts*, each on a new determinization of the match for the side
deciding (:meth:`~.match.Game.determinize`: a fork in which what that side cannot see is
drawn again), as single-observer information-set MCTS does (Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", 2012; OpenSpiel's ``ismcts``):

1. **determinize** the match the view shows, for the view's side
   (:func:`~.determinize.determinize_view`);
2. **select**: from the root, while every option of the decision at hand has been tried at
   this node, take the option with the best upper confidence bound (UCT), its exploration
   counted over the playouts in which it was available (the options differ from one
   determinization to another); options are keyed by the deciding side and the option's
   value, so one node serves every determinization that reaches it. A decision with one
   option is taken without a node of its own;
3. **expand** one untried option at random;
4. **roll out**: the game's default bot for each side (or ``random``) answers the decisions
   that follow, until the game ends or the playout has taken ``depth`` decisions;
5. **score** the end with :meth:`~.match.Game.evaluate` for each side (-1 lost .. 1 won:
   the result when the game ended, else the game's evaluation) and add each side's score to
   the options it took on the way.

The agent answers with the option tried most at the root (ties: the side's default bot's
choice, then the best mean score, then the first option). Its options
(:class:`SearchOptions`) are written after the name:
``mcts:playouts=400,seconds=0.5,rollout=random,depth=60,c=1.4``.

**Paired root** (``root=paired``): rather than a tree, every option of the decision is
played on the same determinizations, each drawn once and dealt again for every option from
the same seed (common random numbers: the same hidden truth, the same dice to come, the
same rollout bots), then rolled out and scored as above. The side's default bot's choice is
kept unless the option of the best mean beats it, draw by draw, by more than ``z`` standard
errors of the paired differences: one step of policy improvement on the bot by its own
rollouts (Tesauro and Galperin, "On-line policy improvement using Monte-Carlo search",
1996), which keeps the bot's answer wherever the playouts cannot tell the options apart.

**Reproducibility.** The agent draws everything (determinizations, untried options, the
rollout bots' seeds) from its own generator, seeded by its seed and side: with a budget of
``playouts`` alone, the same seed and the same match give the same answers, in any process.
``seconds`` caps the time a decision may take: a search stopped by the clock has played
however many playouts the machine managed, so its answers, and the games it plays, are not
reproducible; studies refuse it (:func:`is_reproducible`).

**What the search knows.** The agent is given the view and the decision, like any agent.
It reaches the match only through :func:`~.determinize.determinize_view`, which returns a
determinization for the view's side, never the match; the leak check
(:func:`~tabletop.core.designer.testing.check_search_leaks`) holds it to that.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .canonical import JSON, freeze
from .decisions import Decision
from .errors import TabletopError
from .search_options import (
    NAME,
    ROLLOUTS,
    ROOTS,
    SearchOptions,
    is_reproducible,
    is_search,
    parse_options,
    search_option_problem,
)

if TYPE_CHECKING:
    from .agents import Agent
    from .match import Game, Match

__all__ = ["NAME", "ROLLOUTS", "ROOTS", "Determinizer", "SearchAgent", "SearchOptions",
           "is_reproducible", "is_search", "parse_options", "search_option_problem"]

Determinizer = Callable[[Mapping[str, Any], random.Random], "Match"]
"""Makes the match a playout is played on from the view and the search's generator
(:func:`~.determinize.determinize_view` by default)."""


class _Edge:
    """An option taken at a node: its visits, their summed score for the side that took it,
    the playouts in which it was available, and the node it leads to."""

    __slots__ = ("available", "child", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.child: _Node | None = None


class _Node:
    """A node of the tree: the options tried there, by (deciding side, option's key)."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[tuple[str, Any], _Edge] = {}


_PLAIN = frozenset({str, int, float})
"""Option values that are their own key (:func:`~.canonical.freeze` gives them back)."""


def _key(decision: Decision, value: JSON) -> tuple[str, Any]:
    """An option's key in a node: the deciding side and the option's value, frozen."""
    return decision.player, value if type(value) in _PLAIN else freeze(value)


class SearchAgent:
    """The search agent (see the module's notes): an :class:`~.agents.Agent` for any side
    of any game, built by :func:`~.registry.make_agent` from ``mcts[:options]``.

    ``determinizer`` replaces how a playout's match is made from the view (tests do, to
    hand two matches the same determinizations); it must return a new match each call."""

    def __init__(self, game: Game, side: str, seed: int = 0,
                 options: SearchOptions | None = None, *,
                 determinizer: Determinizer | None = None) -> None:
        from .determinize import determinize_view

        self.game = game
        self.side = side
        self.options = options or SearchOptions()
        self.name = self.options.spec()
        self._seed = seed
        self._rng = random.Random(f"{NAME}:{side}:{seed}")
        self._bot: Agent | None = None  # the side's default bot, for the prior (see _prior)
        self._determinize: Determinizer = determinizer or determinize_view
        #: what the last search did: playouts, seconds, the root's options by visits
        self.last: dict[str, JSON] = {}

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """The option the search finds best for the view's side (the only one, unsearched,
        when there is one). The side's default bot is asked every decision first, as it
        would be if it played (a bot may keep track of the game from one to the next)."""
        prior = self._prior(view, decision)
        if len(decision.options) == 1:
            return decision.options[0].value
        opts = self.options
        rng = self._rng
        began = time.perf_counter()
        deadline = None if opts.seconds is None else began + opts.seconds
        from .match import frozen_collector

        if opts.root == "paired":
            with frozen_collector():
                return self._paired(view, decision, prior, began, deadline)
        root = _Node()
        played = 0
        with frozen_collector():  # thousands of forks: keep full collections off the match
            while played < opts.playouts:
                self._playout(root, self._determinize(view, rng), rng, prior)
                played += 1
                if deadline is not None and time.perf_counter() >= deadline:
                    break
        best = self._best(root, decision, prior)
        self.last = {"playouts": played, "seconds": round(time.perf_counter() - began, 6),
                     "visits": {str(o.value): (root.edges[k].visits if (k := _key(decision, o.value))
                                               in root.edges else 0) for o in decision.options}}
        return best

    def _paired(self, view: Mapping[str, JSON], decision: Decision,
                prior: tuple[str, Any] | None, began: float, deadline: float | None) -> JSON:
        """``root=paired``: every option of the decision played on the same determinizations
        (each drawn once and dealt again for every option from the same seed, so that the
        hidden truth, the dice to come and the rollout bots' draws are common to them: common
        random numbers), rolled out by the bots, and scored. The side's bot's choice is kept
        unless the option of the best mean gains on it, draw by draw, more than ``z``
        standard errors (with no bot: the best mean). ``playouts`` counts the options' playouts, so a
        decision of ``n`` options plays ``playouts // n`` draws (at least one)."""
        opts = self.options
        options = decision.options
        count = len(options)
        draws = max(1, opts.playouts // count)
        scores: list[list[float]] = [[] for _ in options]
        played = 0
        for _ in range(draws):
            seed = self._rng.getrandbits(63)
            for i in range(count):
                scores[i].append(self._paired_playout(view, decision, i, seed))
                played += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        keys = [_key(decision, o.value) for o in options]
        base = keys.index(prior) if prior in keys else None
        best = base if base is not None else max(
            range(count), key=lambda i: (sum(scores[i]), -i))
        test: dict[str, JSON] = {}
        if base is not None:
            rival = max((i for i in range(count) if i != base), key=lambda i: (sum(scores[i]), -i))
            gain, error = _paired_gain(scores[rival], scores[base])
            if gain > 0 and gain > opts.z * error:
                best = rival
            test = {"bot": str(options[base].value), "rival": str(options[rival].value),
                    "gain": gain, "error": None if math.isinf(error) else error}
        self.last = {"playouts": played, "seconds": round(time.perf_counter() - began, 6),
                     "means": {str(o.value): round(sum(scores[i]) / len(scores[i]), 6)
                               for i, o in enumerate(options)}, **test}
        return options[best].value

    def _paired_playout(self, view: Mapping[str, JSON], decision: Decision, index: int,
                        seed: int) -> float:
        """The score for the side of option ``index`` of the decision at hand, played on the
        determinization ``seed`` draws and rolled out by bots that ``seed`` seeds."""
        rng = random.Random(seed)
        world = self._determinize(view, rng)
        pending = world.pending
        if pending is None or len(pending.options) != len(decision.options):
            raise TabletopError(f"game {self.game.info.id}: a determinization does not ask the "
                                f"decision searched ({decision.kind})")
        world.decide(decision.options[index].value)
        self._rollout(world, self._rollout_bots(rng), rng, 1)
        return _clamp(self.game.evaluate(world, self.side))

    def _prior(self, view: Mapping[str, JSON], decision: Decision) -> tuple[str, Any] | None:
        """The key of the option the side's default bot would take (tried first, and
        preferred among the options tried as often), or None when the side
        has no bot but ``random``."""
        if self._bot is None:
            name = self.game.default_bot(self.side)
            if name == "random" or is_search(name):
                return None
            self._bot = _game_bot(self.game, self.side, name, self._seed)
        return _key(decision, self._bot.choose(view, decision))

    def _best(self, root: _Node, decision: Decision, prior: tuple[str, Any] | None) -> JSON:
        """The root's option tried most (ties: the default bot's choice, then the best mean
        score, then the first: a search too short to tell options apart plays as the bot)."""
        best, rank = decision.options[0].value, (-1, False, -math.inf)
        for option in decision.options:
            key = _key(decision, option.value)
            edge = root.edges.get(key)
            if edge is None:
                continue
            here = (edge.visits, key == prior, edge.total / edge.visits if edge.visits else -math.inf)
            if here > rank:
                best, rank = option.value, here
        return best

    def _playout(self, root: _Node, world: Match, rng: random.Random,
                 prior: tuple[str, Any] | None) -> None:
        """One playout on ``world`` (a determinization, played on and dropped). An untried
        option is expanded at random, save the one a bot would take, tried first: the side's
        default bot's (``prior``) at the root, the rollout bot's below it."""
        opts = self.options
        path: list[tuple[str, _Edge]] = []
        node: _Node | None = root
        taken = 0
        bots: dict[str, Agent] | None = None
        # selection and expansion
        while node is not None and world.pending is not None and taken < opts.depth:
            decision = world.pending
            options = decision.options
            if len(options) == 1:
                world.decide_index(0)
                taken += 1
                continue
            edges = node.edges
            untried: list[int] = []
            for i, option in enumerate(options):
                edge = edges.get(_key(decision, option.value))
                if edge is None:
                    untried.append(i)
                else:
                    edge.available += 1
            if untried:
                if node is root:
                    wanted = prior
                else:
                    if bots is None:
                        bots = self._rollout_bots(rng)
                    bot = bots.get(decision.player)
                    wanted = None if bot is None else \
                        _key(decision, bot.choose(world.view(decision.player), decision))
                index = next((i for i in untried if _key(decision, options[i].value) == wanted),
                             untried[rng.randrange(len(untried))])
                edge = edges[_key(decision, options[index].value)] = _Edge()
                edge.available += 1
                node = None  # expanded: the rollout follows
            else:
                index = self._select(edges, decision)
                edge = edges[_key(decision, options[index].value)]
                if edge.child is None:
                    edge.child = _Node()
                node = edge.child
            path.append((decision.player, edge))
            world.decide_index(index)
            taken += 1
        # rollout
        if world.pending is not None and taken < opts.depth:
            self._rollout(world, self._rollout_bots(rng) if bots is None else bots, rng, taken)
        # backup
        scores: dict[str, float] = {}
        for player, edge in path:
            score = scores.get(player)
            if score is None:
                score = scores[player] = _clamp(self.game.evaluate(world, player))
            edge.visits += 1
            edge.total += score

    def _rollout(self, world: Match, bots: dict[str, Agent], rng: random.Random,
                 taken: int) -> None:
        """Play ``world`` on by the rollout's bots (a side without one: random options from
        ``rng``) until the game ends or the playout has taken ``depth`` decisions."""
        depth = self.options.depth
        while world.pending is not None and taken < depth:
            decision = world.pending
            count = len(decision.options)
            bot = bots.get(decision.player)
            if count == 1:
                world.decide_index(0)
            elif bot is None:
                world.decide_index(rng.randrange(count))
            else:
                world.decide(bot.choose(world.view(decision.player), decision))
            taken += 1

    def _select(self, edges: dict[tuple[str, Any], _Edge], decision: Decision) -> int:
        """The index of the option with the best upper confidence bound (every option of
        ``decision`` has an edge)."""
        c = self.options.c
        best, top = 0, -math.inf
        for i, option in enumerate(decision.options):
            edge = edges[_key(decision, option.value)]
            bound = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if bound > top:
                best, top = i, bound
        return best

    def _rollout_bots(self, rng: random.Random) -> dict[str, Agent]:
        """A rollout's bot for each side that has one, seeded from the search's generator:
        each side's default bot; a side without one (its default is ``random``, or itself a
        search), or every side with ``rollout=random``, takes random options drawn from the
        search's own generator."""
        if self.options.rollout == "random":
            return {}
        bots: dict[str, Agent] = {}
        seed = -1
        for side in self.game.info.players:
            name = self.game.default_bot(side)
            if name == "random" or is_search(name):
                continue
            if seed < 0:
                seed = rng.getrandbits(32)
            bots[side] = _game_bot(self.game, side, name, seed)
        return bots


def _game_bot(game: Game, side: str, name: str, seed: int) -> Agent:
    """A side's default bot by its name: one of the game's bots, or a built-in agent."""
    from .agents import BUILTIN_AGENTS

    bots = game.bots()
    if name in bots:
        return bots[name](side, seed)
    if name in BUILTIN_AGENTS:
        return BUILTIN_AGENTS[name](side, seed)
    raise TabletopError(f"game {game.info.id}: the default bot of {side}, {name!r}, is none of its "
                        "bots: the search cannot roll out with it (try mcts:rollout=random)")


def _paired_gain(scores: list[float], base: list[float]) -> tuple[float, float]:
    """The mean of ``scores`` less ``base`` draw by draw, and its standard error (infinite
    with fewer than two draws)."""
    n = len(scores)
    diffs = [a - b for a, b in zip(scores, base, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _clamp(score: float) -> float:
    """A game's evaluation held to -1..1 (a game that says more is not allowed to outweigh
    a win)."""
    return -1.0 if score < -1.0 else 1.0 if score > 1.0 else float(score)
