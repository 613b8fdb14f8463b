"""Moves by destination in a real browser: click the unit, the reachable hexes light up with
their cost, click the destination (its path drawn), confirm; the server answers the game's
own step decisions, so the record is the answers a step-by-step player would give.

Each match is made by the bots in this process up to the person's choice of a unit to move,
then resumed on the `tabletop serve` of the browser tests (its fixtures are theirs)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.match import Match
from tabletop.core.engine.record import make_save, replay
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.engine.routes import follow, routes_of

from . import test_browser as browser_tests
from .test_browser import _page, _post, click_map, prompt

# the browser tests' own server, browser and screenshot folder
server, browser, shots = browser_tests.server, browser_tests.browser, browser_tests.shots


def _made_by_bots(game_id: str, scenario: str | None, kind: str, turn: int) -> Match:
    """A bot game up to the human side's first decision of ``kind`` on ``turn`` or later."""
    game = load_game(game_id)
    match = Match(game, scenario=scenario, seed=3)
    bots = {s: make_agent(game, s, game.default_bot(s), 1) for s in game.info.players}
    human = game.info.human_side
    while match.pending is not None:
        d = match.pending
        if d.kind == kind and d.player == human and match.state.turn >= turn:
            return match
        match.decide(bots[d.player].choose(match.view(d.player), d))
    raise AssertionError(f"{game_id}: the bots never reached a {kind} decision")


def _plan(match: Match) -> tuple[str, str, dict[str, tuple[Any, tuple[str, ...]]], list[JSON]]:
    """The unit to move (one alone in its hex), the destination (the farthest that the unit
    reaches without being interrupted), every destination's cost and path, and the decisions
    a step-by-step player takes to move it there (on a copy of the match)."""
    pending = match.pending
    assert pending is not None
    pieces = match.state.pieces
    for opt in pending.options:
        unit = opt.value
        if not isinstance(unit, str) or unit not in pieces or pieces.count_at(pieces[unit].location) != 1:
            continue
        picked = match.fork()
        picked.decide(unit)
        routes = routes_of(picked)
        if routes is None or len(routes) < 8:
            continue
        costs = {k: (r.cost, r.path) for k, r in routes.routes.items()}
        found: list[tuple[str, list[JSON]]] = []
        for to in sorted(routes, key=lambda k: (-len(routes[k].path), k)):
            trial = picked.fork()
            done = follow(trial, pending.player, to)
            if done.why == "arrived" and done.at == to:
                found.append((to, list(trial.decisions)))
                if trial.decisions[-1] == routes.stop:  # the move ended by "stop here"
                    return unit, to, costs, found[-1][1]
        if found:
            return unit, found[0][0], costs, found[0][1]
    raise AssertionError("no unit with a far destination")


def _resume(server: dict[str, Any], match: Match) -> tuple[str, str]:
    """The match resumed on the server: its id and the person's seat link."""
    made = _post(server["base"], "/api/matches/resume", {"save": make_save(match)})
    link = next(s for s in made["seats"] if s["kind"] == "here")
    return str(made["id"]), str(link["url"])


@pytest.mark.parametrize("game_id, scenario, select, kind, turn, asked", [
    ("manila45", None, "select_mover", "move_step", 2, "8.1: move a unit"),
    ("iwo_valor", "line_of_departure", "select_unit", "destination", 1, "Move which unit?")])
def test_a_move_is_one_unit_one_destination_one_confirmation(
        browser: Any, server: dict[str, Any], shots: Path, game_id: str, scenario: str | None,
        select: str, kind: str, turn: int, asked: str) -> None:
    """Manila '45 (8.1-8.14: hex by hex underneath) and Valor of Arms (V.A-D: one destination):
    a click on the unit lights every destination with its cost; a click on one draws the
    path there; one confirmation moves the unit there; the record holds the same answers a
    step-by-step player gives (Manila: each hex then "stop here")."""
    match = _made_by_bots(game_id, scenario, select, turn)
    unit, to, costs, expected = _plan(match)
    before = len(match.decisions)
    mid, url = _resume(server, match)
    page = _page(browser)
    page.goto(server["base"] + url)
    prompt(page, asked)
    click_map(page, f"g.counter[data-piece='{unit}'], g.counter[data-pieces*='\"{unit}\"']")
    page.locator("#route-hint").wait_for()  # one click: the unit is taken, its moves lit
    assert not page.locator("#menu").is_visible()
    shown = page.locator("#board g.route-costs text").evaluate_all(
        "ts => Object.fromEntries(ts.map(t => [t.dataset.to, t.textContent]))")
    assert shown == {k: str(int(c)) for k, (c, _) in costs.items()}
    lit = page.locator("#board polygon.hex.target").evaluate_all("ps => ps.map(p => p.dataset.hex)")
    assert set(lit) == set(costs)
    page.screenshot(path=str(shots / f"{game_id}-route-lit.png"))
    click_map(page, f"polygon.hex[data-hex='{to}']")
    line = page.locator(f"#board g.route-path polyline[data-to='{to}']")
    line.wait_for(state="attached")
    points = (line.get_attribute("points") or "").split()
    assert len(points) == len(costs[to][1])  # the path from the unit's hex to the destination
    page.locator("#menu .route-go").wait_for()
    page.screenshot(path=str(shots / f"{game_id}-route-path.png"))
    version = page.evaluate("document.body.dataset.version")
    page.locator("#menu .route-go").click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
    page.locator("#prompt, #waiting, #result").first.wait_for()
    saved = json.loads((Path(server["data"]) / f"match-{mid}.json").read_text())["save"]
    taken = saved["decisions"][before:len(expected)]
    assert taken == expected[before:]
    if game_id == "manila45":  # hex by hex, then "stop here" on arrival
        assert taken == [unit, *costs[to][1][1:], "done"]
    else:  # the unit, then its destination
        assert taken == [unit, to]
    after = replay(load_game(game_id), saved)
    assert after.state.pieces[unit].location == to
    held = page.locator(f"#board g.counter[data-at='{to}']").first
    held.wait_for(state="attached")
    ids = (held.get_attribute("data-pieces") or "") + (held.get_attribute("data-piece") or "")
    assert unit in ids
    if game_id == "manila45":  # Undo takes the whole move back, to the choice of its destination
        page.locator("#undo").click()
        page.locator("#banner", has_text="undone").wait_for()
        page.locator("#route-hint").wait_for()
        saved = json.loads((Path(server["data"]) / f"match-{mid}.json").read_text())["save"]
        assert saved["decisions"][before:] == [unit]
        assert page.locator(f"#board g.route-costs text[data-to='{to}']").text_content() == \
            str(int(costs[to][0]))
    assert not page.errors, page.errors
    page.context.close()


def test_a_hidden_units_route_reaches_its_own_seat_alone(client: Any) -> None:
    """6.5: a face-down Japanese unit's move by destination: its routes are sent to the
    Japanese seat alone; the US seat may not move it, a destination it does not offer is
    refused with one message and nothing changes, and after the move the US seat has read
    nothing that names the unit."""
    from .conftest import seat_of

    game = load_game("manila45")
    made_by = Match(game, seed=3)
    bots = {s: make_agent(game, s, game.default_bot(s), 1) for s in game.info.players}
    while made_by.pending is not None:
        d = made_by.pending
        if d.kind == "select_mover" and d.player == "Japan":
            hidden = [o.value for o in d.options
                      if isinstance(o.value, str) and o.value in made_by.state.pieces
                      and made_by.state.pieces[o.value].hidden]
            if hidden:
                break
        made_by.decide(bots[d.player].choose(made_by.view(d.player), d))
    assert made_by.pending is not None
    unit = str(hidden[0])
    res = client.post("/api/matches/resume", json={"save": make_save(made_by),
                                                    "sides": {"US": "here", "Japan": "link"}})
    assert res.status_code == 201, res.text
    created = res.json()
    mid, us, jp = created["id"], seat_of(created, "US"), seat_of(created, "Japan")
    state = client.get(f"/api/matches/{mid}", headers={"X-Seat": jp}).json()
    index = next(i for i, o in enumerate(state["pending"]["options"]) if o["value"] == unit)
    state = client.post(f"/api/matches/{mid}/decide", headers={"X-Seat": jp},
                        json={"index": index, "value": unit, "version": state["version"]}).json()
    routes = state["pending"]["routes"]
    assert routes["unit"] == unit and routes["to"]
    seen = client.get(f"/api/matches/{mid}", headers={"X-Seat": us})
    assert set(seen.json()["pending"]) == {"player", "section"} and unit not in seen.text
    to = sorted(routes["to"], key=lambda k: (-routes["to"][k]["cost"], k))[0]
    refused = client.post(f"/api/matches/{mid}/route", headers={"X-Seat": us},
                          json={"to": to, "version": state["version"]})
    assert refused.status_code == 403
    wrong = client.post(f"/api/matches/{mid}/route", headers={"X-Seat": jp},
                        json={"to": "9999", "version": state["version"]})
    assert wrong.status_code == 400 and "not a destination" in wrong.json()["error"]
    assert "\n" not in wrong.json()["error"]
    assert client.get(f"/api/matches/{mid}", headers={"X-Seat": jp}).json()["version"] == state["version"]
    moved = client.post(f"/api/matches/{mid}/route", headers={"X-Seat": jp},
                        json={"to": to, "version": state["version"]})
    assert moved.status_code == 200, moved.text
    after = client.get(f"/api/matches/{mid}", headers={"X-Seat": us})
    assert unit not in after.text and "routes" not in after.text


def test_a_route_stops_at_defensive_fire_and_goes_on_from_there(client: Any) -> None:
    """9.1 through the web: a route whose unit enters a hex next to a Japanese unit stops
    there; the Japanese seat is asked its defensive fire, the US seat waits, and once the
    fire is held the US seat is offered the unit's destinations from the hex it stopped in."""
    from .conftest import seat_of

    match = _made_by_bots("manila45", None, "select_mover", 2)
    pending = match.pending
    assert pending is not None
    plan: tuple[str, str, str] | None = None
    for opt in pending.options:
        if plan or not isinstance(opt.value, str) or opt.value not in match.state.pieces:
            continue
        picked = match.fork()
        picked.decide(opt.value)
        routes = routes_of(picked)
        for to in sorted(routes or ()):
            trial = picked.fork()
            done = follow(trial, "US", to)
            if done.why == "interrupted" and done.at != to and trial.pending is not None \
                    and trial.pending.kind == "defensive_fire":
                plan = (opt.value, to, done.at)
                break
    assert plan is not None, "no route meets defensive fire on the way"
    unit, to, stop = plan
    res = client.post("/api/matches/resume", json={"save": make_save(match),
                                                    "sides": {"US": "here", "Japan": "link"}})
    created = res.json()
    mid, us, jp = created["id"], seat_of(created, "US"), seat_of(created, "Japan")
    state = client.get(f"/api/matches/{mid}", headers={"X-Seat": us}).json()
    index = next(i for i, o in enumerate(state["pending"]["options"]) if o["value"] == unit)
    state = client.post(f"/api/matches/{mid}/decide", headers={"X-Seat": us},
                        json={"index": index, "value": unit, "version": state["version"]}).json()
    assert to in state["pending"]["routes"]["to"]
    state = client.post(f"/api/matches/{mid}/route", headers={"X-Seat": us},
                        json={"to": to, "version": state["version"]}).json()
    assert state["pending"] == {"player": "Japan", "section": "9.2"} and not state["your_turn"]
    fire = client.get(f"/api/matches/{mid}", headers={"X-Seat": jp}).json()
    assert fire["pending"]["kind"] == "defensive_fire" and fire["pending"]["context"]["hex"] == stop
    hold = next(i for i, o in enumerate(fire["pending"]["options"]) if o["value"] is False)
    client.post(f"/api/matches/{mid}/decide", headers={"X-Seat": jp},
                json={"index": hold, "value": False, "version": fire["version"]})
    again = client.get(f"/api/matches/{mid}", headers={"X-Seat": us}).json()
    assert again["pending"]["kind"] == "move_step"
    assert again["pending"]["routes"]["unit"] == unit and again["pending"]["routes"]["start"] == stop
