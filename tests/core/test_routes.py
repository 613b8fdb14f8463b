"""Moves by destination (core.engine.routes): the route a game declares is the step menus'
own way there, and following it answers those menus one step at a time, stopping for fire."""

from __future__ import annotations

import pytest

from tabletop.core.engine.decisions import DONE
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.engine.routes import RouteError, follow, routes_of


def _bot_game_until(game_id: str, kind: str, count: int, scenario: str | None = None) -> list[Match]:
    """Forks of a bot game at its first ``count`` decisions of ``kind`` that offer routes."""
    game = load_game(game_id)
    match = Match(game, scenario=scenario, seed=3)
    bots = {s: make_agent(game, s, game.default_bot(s), 1) for s in game.info.players}
    found: list[Match] = []
    for _ in range(4000):
        d = match.pending
        if d is None or len(found) == count:
            break
        if d.kind == kind and routes_of(match):
            found.append(match.fork())
        match.decide(bots[d.player].choose(match.view(d.player), d))
    assert len(found) == count
    return found


def test_manila_route_is_the_step_menus_way_and_costs_what_the_steps_cost() -> None:
    """8.1, 8.2: each step of a declared route is on the step menu asked when the unit gets
    there, the record is those hex-by-hex answers then "stop here", and the MP spent are the
    route's cost; a route that meets defensive fire stops there, at that decision (9.1)."""
    followed = interrupted = 0
    for match in _bot_game_until("manila45", "move_step", 12):
        routes = routes_of(match)
        assert routes is not None
        pending = match.pending
        assert pending is not None
        left = int(pending.context["mp"])
        # the adjacent hexes of the step menu are exactly the destinations one step away
        menu = {o.value for o in pending.options if o.value != DONE}
        assert menu == {to for to in routes if len(routes[to].path) == 2}
        for to in list(routes)[::9]:
            route = routes[to]
            fork = match.fork()
            before = len(fork.decisions)
            done = follow(fork, pending.player, to)
            assert done.why != "refused"
            answers = fork.decisions[before:]
            assert answers[:len(route.answers)] == list(route.answers)[:len(answers)]
            if done.at == to:
                followed += 1
                moves = [e for e in fork.log.of_kind("move") if e.data.get("unit") == routes.unit]
                assert moves[-1].data["to"] == to
                assert moves[-1].data["mp_left"] == left - route.cost
            else:
                interrupted += 1
                assert fork.pending is not None and fork.pending.kind == "defensive_fire"
                assert done.at == route.path[len(answers)]
    assert followed > 5


def test_manila_route_stops_at_defensive_fire_on_the_way() -> None:
    """9.1: a route through a hex next to an enemy unit stops at the defensive fire offered
    there, with the unit in that hex; its player is then asked again from there."""
    for match in _bot_game_until("manila45", "move_step", 40):
        routes = routes_of(match)
        assert routes is not None and match.pending is not None
        for to in routes:
            fork = match.fork()
            done = follow(fork, match.pending.player, to)
            if done.why == "interrupted" and done.at != to:
                assert fork.pending is not None and fork.pending.kind == "defensive_fire"
                assert fork.state.pieces[routes.unit].location == done.at
                return
    pytest.fail("no route met defensive fire on the way")


def test_a_route_to_nowhere_or_by_another_player_changes_nothing() -> None:
    """A destination the decision does not offer, or a route asked by the other side, is
    refused and the match stands as it was."""
    match = _bot_game_until("manila45", "move_step", 1)[0]
    pending = match.pending
    assert pending is not None
    before = match.state_hash()
    with pytest.raises(RouteError, match="not a destination"):
        follow(match, pending.player, "9999")
    other = next(p for p in match.game.info.players if p != pending.player)
    with pytest.raises(RouteError, match="not"):
        follow(match, other, next(iter(routes_of(match) or ())))
    assert match.state_hash() == before and match.pending is pending


def test_valor_destination_route_is_one_answer_with_the_walked_path() -> None:
    """V.A-D: a destination is one decision; its route is the path the walk takes, as many
    hexes as the menu entry says, and following it answers that one decision."""
    match = _bot_game_until("iwo_valor", "destination", 1, "line_of_departure")[0]
    pending = match.pending
    assert pending is not None
    routes = routes_of(match)
    assert routes is not None and routes.stop is None
    hexes = {o.value: o.detail["hexes"] for o in pending.options if o.value != DONE}
    assert set(routes) == set(hexes)
    for to, route in routes.routes.items():
        assert route.answers == (to,) and route.cost == hexes[to] == len(route.path) - 1
    far = max(routes, key=lambda k: (routes[k].cost, k))
    before = len(match.decisions)
    done = follow(match, pending.player, far)
    assert match.decisions[before:] == [far] and done.arrived
    assert match.state.pieces[routes.unit].location == far
    moves = [e for e in match.log.of_kind("move") if e.data.get("unit") == routes.unit]
    assert moves[-1].data["path"] == list(routes[far].path)
