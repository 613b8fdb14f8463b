"""Moves by destination: a unit's whole move chosen at once, the rules still deciding each step.

A game that moves a unit hex by hex asks one decision a step (the next hex, or "stop
here"); a game that asks for the destination asks one decision a leg. Either way a person
wants to click the unit, see where it can go and at what cost, click the destination (the
path drawn) and confirm. A *route decision* is such a decision: the game declares, for it,
the destinations it leads to (:class:`Routes`, from :meth:`~.match.Game.routes`), each with
its cost, the places passed (for a path preview) and the answers a step-by-step player
would give to get there (:class:`Route`).

:func:`follow` then plays a route for its player through the match's own decisions: it
answers each step while the pending decision is still the same unit's route decision and
offers the next answer, answers the arrival (the game's ``stop`` option, "stop here") once
the unit stands at the destination, and stops at any other decision — the enemy's
defensive or opportunity fire, a reveal, the game asking something else, the end of the
match — which the players then see as always. The record is therefore exactly the answers
a step-by-step player would give, one a step: nothing of the route itself is kept, logged
or shown to another side. The terminal, the web server and any program share it.

The routes are worked out from the match as it stands when the decision is asked (by the
game's own movement search with its own step costs), only when a frontend asks for them:
never while bots play.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from .canonical import JSON
from .decisions import DONE, Decision
from .errors import TabletopError
from .match import Match


class RouteError(TabletopError):
    """A route asked of a decision that offers none, or to a place it does not lead to."""


@dataclass(frozen=True, slots=True)
class Route:
    """One destination of a route decision: the place, what getting there costs (in the
    game's unit, :attr:`Routes.cost_unit`), the places passed from the start to it (both
    included: the path a board draws), and the option values that take the unit there, one
    decision each, in order."""

    to: str
    cost: float
    path: tuple[str, ...]
    answers: tuple[JSON, ...]

    def to_json(self) -> dict[str, JSON]:
        """The route as a seat's page reads it (the answers stay on the server)."""
        cost: JSON = int(self.cost) if float(self.cost).is_integer() else self.cost
        return {"cost": cost, "path": list(self.path)}


@dataclass(frozen=True, slots=True)
class Routes:
    """The destinations a route decision offers a unit (see the module docstring).

    ``unit`` is the piece moving and ``start`` where it stands; ``kind`` is the kind of the
    decisions its steps are (the follower answers only those, for that unit: the decision's
    ``context["unit"]``); ``stop`` is the value that ends the move where the unit stands,
    answered on arrival when the game asks again (None: arrival needs no answer, as when
    the destination is a single decision); ``cost_unit`` names the cost ("MP", "hexes").
    """

    unit: str
    start: str
    kind: str
    routes: Mapping[str, Route]
    stop: JSON = DONE
    cost_unit: str = "MP"
    #: extra words on a destination for a person (e.g. the fire awaiting there), by place
    notes: Mapping[str, str] = field(default_factory=dict)

    def __contains__(self, place: object) -> bool:
        return place in self.routes

    def __iter__(self) -> Iterator[str]:
        return iter(self.routes)

    def __len__(self) -> int:
        return len(self.routes)

    def __getitem__(self, place: str) -> Route:
        return self.routes[place]

    def by_cost(self) -> list[tuple[float, list[str]]]:
        """The destinations grouped by cost, cheapest first, each group in place order: what
        a terminal menu by destination shows."""
        groups: dict[float, list[str]] = {}
        for place, route in self.routes.items():
            groups.setdefault(route.cost, []).append(place)
        return [(cost, sorted(groups[cost])) for cost in sorted(groups)]

    def to_json(self) -> dict[str, JSON]:
        """The routes as the seat that takes the decision is sent them: each destination with
        its cost and path (never the answers: the server follows them)."""
        return {"unit": self.unit, "start": self.start, "cost_unit": self.cost_unit,
                "to": {place: {**r.to_json(), **({"note": self.notes[place]} if place in self.notes else {})}
                       for place, r in self.routes.items()}}


def routes_of(match: Match, decision: Decision | None = None) -> Routes | None:
    """The routes the pending decision (or ``decision``, pending in ``match``) offers, as the
    game declares them (:meth:`~.match.Game.routes`); None when it is no route decision."""
    decision = decision if decision is not None else match.pending
    if decision is None:
        return None
    return match.game.routes(match, decision)


@dataclass(frozen=True, slots=True)
class Followed:
    """What following a route did: how many decisions it answered, whether the unit arrived
    (and the move was ended there when the game asked), where the unit stands, and why it
    stopped (``"arrived"``; ``"interrupted"``: another decision came first, e.g. fire;
    ``"refused"``: a step of the route was no longer offered; ``"over"``: the match ended)."""

    taken: int
    arrived: bool
    at: str
    why: str


def _same_step(decision: Decision | None, player: str, routes: Routes) -> bool:
    """Whether ``decision`` is still a step of the route's unit for ``player``."""
    return (decision is not None and decision.player == player and decision.kind == routes.kind
            and decision.context.get("unit") == routes.unit)


def follow(match: Match, player: str, to: str) -> Followed:
    """Move the unit of ``player``'s pending route decision to ``to`` through the match's own
    decisions (see the module docstring); the route is the game's, worked out now. A
    destination the decision does not offer is refused (:class:`RouteError`) and nothing
    changes."""
    pending = match.pending
    if pending is None:
        raise RouteError("the match is over; there is no move to make")
    if pending.player != player:
        raise RouteError(f"it is {pending.player}'s decision, not {player}'s")
    routes = routes_of(match, pending)
    if routes is None:
        raise RouteError(f"{pending.prompt!r} ({pending.section}) is not a move by destination")
    route = routes.routes.get(to)
    if route is None:
        raise RouteError(f"{to!r} is not a destination of {pending.prompt!r} ({pending.section}); "
                         f"{len(routes)} destinations are offered")
    pieces = match.state.pieces

    def where() -> str:
        return pieces[routes.unit].location if routes.unit in pieces else ""

    taken = 0
    for answer in route.answers:
        decision = match.pending
        if decision is None:
            return Followed(taken, False, where(), "over")
        if not _same_step(decision, player, routes):
            return Followed(taken, False, where(), "interrupted")
        index = decision.index_of(answer)
        if index is None:
            return Followed(taken, False, where(), "refused")
        match.decide_index(index)
        taken += 1
    decision = match.pending
    at = where()
    if decision is None:
        return Followed(taken, at == to, at, "over")
    if at != to:  # fire or the rules stopped it on the way
        return Followed(taken, False, at, "interrupted")
    if routes.stop is None:
        return Followed(taken, True, at, "arrived")
    if not _same_step(decision, player, routes):  # the move is over, or fire comes first
        return Followed(taken, True, at, "arrived" if decision.player == player else "interrupted")
    index = decision.index_of(routes.stop)
    if index is not None:  # the person's confirmation is the intent to stop there
        match.decide_index(index)
        taken += 1
    return Followed(taken, True, at, "arrived")
