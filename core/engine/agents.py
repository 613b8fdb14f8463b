"""Agents: whatever answers decisions — bots, people at a terminal, learning programs.

An agent sees only its side's view and the decision, and returns one option's value. A bot
that answers decisions by their kind (:attr:`~.decisions.Decision.kind`) declares the kinds
it answers: its methods are marked with :func:`handles`, and :class:`KindBot` finds them,
so the conformance check (:func:`~.testing.check_decision_kinds`) can tell a game that asks
a kind its bots do not answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, runtime_checkable

from .canonical import JSON
from .decisions import Decision
from .errors import TabletopError
from .views import View

if TYPE_CHECKING:
    from .match import Match


@runtime_checkable
class Agent(Protocol):
    """Anything that answers a decision from a player's view with a legal option's value."""

    name: str

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Return the value of one of ``decision.options``."""
        ...


class RandomAgent:
    """Picks a uniformly random legal option, from its own seeded generator (not the match's)."""

    name = "random"

    def __init__(self, side: str = "", seed: int = 0) -> None:
        self.side = side
        self._rng = random.Random(f"random-agent:{side}:{seed}")

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Any legal option, uniformly."""
        return decision.options[self._rng.randrange(len(decision.options))].value


class FirstOptionAgent:
    """Always takes the first option: a deterministic baseline for tests and golden games."""

    name = "first"

    def __init__(self, side: str = "", seed: int = 0) -> None:
        self.side = side

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """The first legal option."""
        return decision.options[0].value


class GreedyAgent:
    """Plays by the game's declared evaluation (``data/ai.yaml``, :mod:`.ai`): the option
    whose outcome :meth:`~.match.Game.evaluate` scores best for its side, ties broken by
    its own seeded generator. It takes each option on a fork of the match as its side may
    know it (:meth:`~.views.View.determinized`: hidden pieces and the dice to come drawn
    again from that generator) and scores the position that follows. An option that
    changes nothing yet but asks the same side again (a target, before the attackers) is
    scored by the best of that next decision's options (:attr:`follow` decisions deep at
    most). An option whose outcome rolled dice is scored on :attr:`samples` such draws, the
    mean kept (every option meets the same draws). A game with no evaluation gives every
    option 0: it then plays as ``random`` does (from another generator). An in-process
    agent: it needs the :class:`~.views.View` a match gives, not a view's JSON."""

    name = "greedy"
    #: the draws of the hidden pieces and dice an option that rolls is scored on
    samples = 6
    #: how many decisions deep an option that changes nothing yet is followed
    follow = 1

    def __init__(self, side: str = "", seed: int = 0) -> None:
        self.side = side
        self._rng = random.Random(f"greedy-agent:{side}:{seed}")

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """The option that scores best a step ahead; one of the best at random."""
        options = decision.options
        if len(options) == 1:
            return options[0].value
        if not isinstance(view, View):
            raise TabletopError("the greedy agent plays in the same process as the match: it "
                                "needs the match's view, not its JSON")
        from .match import frozen_collector

        with frozen_collector():
            return self._best(view, decision)

    def _best(self, view: View, decision: Decision) -> JSON:
        """The value of the option that scores best (see :meth:`choose`)."""
        options = decision.options
        side = decision.player
        worlds = [view.determinized(self._rng)]
        best: list[int] = []
        top = -2.0
        for index in range(len(options)):
            total, draws = 0.0, 0
            while draws < (1 if draws == 0 else self.samples):
                if draws == len(worlds):
                    worlds.append(view.determinized(self._rng))
                score, rolled = self._score(worlds[draws], index, side, self.follow)
                total += score
                draws += 1
                if not rolled:
                    break  # no die rolled: the outcome is the same on every draw
            score = total / draws
            if score > top:
                best, top = [index], score
            elif score == top:
                best.append(index)
        return options[best[self._rng.randrange(len(best))] if len(best) > 1 else best[0]].value

    def _score(self, world: Match, index: int, side: str, follow: int) -> tuple[float, bool]:
        """Option ``index`` of ``world``'s pending decision taken on a fork of it: the
        evaluation for ``side`` that follows (the best of the next decision's when the
        option changed nothing yet and ``side`` decides again), and whether a die rolled."""
        twin = world.fork()
        before = (twin.state.pieces.clock.now, len(twin.log) + 1, twin.dice.rolls)
        twin.decide_index(index)
        after = twin.pending
        if (follow > 0 and after is not None and after.player == side and len(after.options) > 1
                and (twin.state.pieces.clock.now, len(twin.log), twin.dice.rolls) == before):
            found = [self._score(twin, n, side, follow - 1) for n in range(len(after.options))]
            return max(score for score, _ in found), any(rolled for _, rolled in found)
        return twin.game.evaluate(twin, side), twin.dice.rolls != world.dice.rolls


H = TypeVar("H", bound=Callable[..., Any])

_KINDS = "__decision_kinds__"
"""The attribute :func:`handles` sets on the methods it marks: the kinds they answer."""


def handles(*kinds: str) -> Callable[[H], H]:
    """Mark a method of a :class:`KindBot` as its answer to the decisions of these kinds
    (``@handles("select_unit")``); a method may answer several kinds, and marks stack."""
    if not kinds or not all(isinstance(k, str) and k for k in kinds):
        raise TypeError("handles() takes the decision kinds a method answers, each a non-empty str")

    def mark(method: H) -> H:
        setattr(method, _KINDS, (*getattr(method, _KINDS, ()), *kinds))
        return method
    return mark


class KindBot:
    """The base of a bot that answers decisions by kind: :attr:`answers` maps each kind to
    the name of the method marked for it with :func:`handles` (a subclass's mark for a kind
    replaces its base's), found once when the class is made; :meth:`handler` gives the method
    for a decision's kind. Two methods of one class marked for the same kind are refused."""

    #: kind -> the name of the method that answers it
    handlers: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: the kinds the bot answers (:func:`decision_kinds_of`)
    answers: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        found: dict[str, str] = dict(cls.handlers)
        own: dict[str, str] = {}
        for name, member in vars(cls).items():
            for kind in getattr(member, _KINDS, ()):
                if kind in own:
                    raise TypeError(f"{cls.__name__}: decision kind {kind!r} is answered by "
                                    f"both {own[kind]} and {name}")
                own[kind] = found[kind] = name
        cls.handlers = MappingProxyType(found)
        cls.answers = frozenset(found)

    def handler(self, kind: str) -> Callable[..., Any] | None:
        """The bound method answering decisions of ``kind`` (None: the bot answers none)."""
        name = self.handlers.get(kind)
        return None if name is None else getattr(self, name)

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """The answer of the method marked for the decision's kind, else its first option."""
        handler = self.handler(decision.kind)
        value: JSON = decision.options[0].value if handler is None else handler(decision)
        return value


def decision_kinds_of(agent: object) -> frozenset[str] | None:
    """The decision kinds an agent declares it answers (a :class:`KindBot`'s
    :attr:`~KindBot.answers`, or an ``answers`` frozenset of its own); None when it declares
    none and answers whatever it is asked alike (the random and first-option agents)."""
    answers = getattr(agent, "answers", None)
    return answers if isinstance(answers, frozenset) else None


BUILTIN_AGENTS: dict[str, Callable[[str, int], Agent]] = {"random": RandomAgent, "first": FirstOptionAgent,
                                                          "greedy": GreedyAgent}
