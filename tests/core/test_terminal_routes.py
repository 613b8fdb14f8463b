"""Moves by destination at the terminal: a unit's destinations grouped by cost, a hex id
typed to go there, ``done`` to stop; the record holds the game's own step answers."""

from __future__ import annotations

import io

import pytest

from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.engine.routes import follow, routes_of
from tabletop.core.frontends.terminal import QuitGame, TerminalSession
from tests.scripted_input import reader


def _made_by_bots(game_id: str, scenario: str | None, kind: str, turn: int) -> Match:
    """A bot game up to the human side's first decision of ``kind`` on ``turn`` or later."""
    game = load_game(game_id)
    match = Match(game, scenario=scenario, seed=3)
    bots = {s: make_agent(game, s, game.default_bot(s), 1) for s in game.info.players}
    while match.pending is not None:
        d = match.pending
        if d.kind == kind and d.player == game.info.human_side and match.state.turn >= turn:
            return match
        match.decide(bots[d.player].choose(match.view(d.player), d))
    raise AssertionError("never reached")


def _play(match: Match, lines: list[str]) -> str:
    """The person's side at the terminal answering ``lines`` (as `tabletop play` runs it)
    until the lines run out; what the terminal printed."""
    out = io.StringIO()
    read = reader(lines)
    side = match.game.info.human_side
    session = TerminalSession(match, {side}, read=read, out=out)
    with pytest.raises(QuitGame):
        while match.pending is not None and match.pending.player == side:
            index = session.ask(match.pending)
            if index is not None:
                match.decide_index(index)
    return out.getvalue()


@pytest.mark.parametrize("game_id, scenario, select, turn, unit_words", [
    ("manila45", None, "select_mover", 2, "MP"),
    ("iwo_valor", "line_of_departure", "select_unit", 1, "hexes")])
def test_a_typed_hex_moves_the_unit_there_step_by_step(game_id: str, scenario: str | None, select: str,
                                                       turn: int, unit_words: str) -> None:
    """Manila '45 (8.1-8.2) and Valor of Arms (V.A): after the unit's number, its
    destinations are listed by cost on a few lines (no pages), and the hex typed moves it
    there: the record holds the unit, then each step's hex and "stop here" (Manila) or the
    destination (Valor), as a step-by-step player's answers."""
    match = _made_by_bots(game_id, scenario, select, turn)
    pending = match.pending
    assert pending is not None
    unit_index = next(i for i, o in enumerate(pending.options) if o.value != "done")
    unit = pending.options[unit_index].value
    trial = match.fork()
    trial.decide(unit)
    routes = routes_of(trial)
    assert routes is not None
    # a destination the step menus reach all the way (on a copy: the expected answers)
    for to in sorted(routes, key=lambda k: (routes[k].cost, k)):
        copy = trial.fork()
        if follow(copy, pending.player, to).at == to and routes[to].cost > 1:
            break
    expected = copy.decisions[len(match.decisions):]
    before = len(match.decisions)
    text = _play(match, [str(unit_index + 1), to])
    name = match.state.pieces[str(unit)].name
    assert f"Move {name} from {routes.start}: type a destination hex (cost in {unit_words}" in text
    first_cost = routes[min(routes, key=lambda k: routes[k].cost)].cost
    assert f"{int(first_cost)} {unit_words}:" in text
    menu = text.split(f"Move {name} from {routes.start}:")[1].split("\nTurn ")[0]  # the move's menu alone
    assert "-- page" not in menu and len(menu.splitlines()) < 30
    assert match.decisions[before:before + len(expected)] == expected
    if game_id == "manila45":
        assert expected == [unit, *routes[to].answers, "done"]
    else:
        assert expected == [unit, to]
    assert match.state.pieces[str(unit)].location == to


def test_done_stops_the_unit_where_it_stands_and_i_hex_tells_the_path() -> None:
    """8.1: ``done`` answers "stop here"; ``i HEX`` says a destination's cost and path."""
    match = _made_by_bots("manila45", None, "select_mover", 2)
    pending = match.pending
    assert pending is not None
    unit_index = next(i for i, o in enumerate(pending.options) if o.value != "done")
    unit = str(pending.options[unit_index].value)
    trial = match.fork()
    trial.decide(unit)
    routes = routes_of(trial)
    assert routes is not None
    far = max(routes, key=lambda k: (routes[k].cost, k))
    start = match.state.pieces[unit].location
    before = len(match.decisions)
    text = _play(match, [str(unit_index + 1), f"i {far}", "done"])
    assert f"{far}: {int(routes[far].cost)} MP, by {' -> '.join(routes[far].path)}" in text
    assert match.decisions[before:before + 2] == [unit, "done"]
    assert match.state.pieces[unit].location == start


def test_undo_takes_a_move_by_destination_back_whole() -> None:
    """u after a move by destination takes back all its steps (and its "stop here"), back to
    the choice of the destination, the unit where it began."""
    match = _made_by_bots("manila45", None, "select_mover", 2)
    pending = match.pending
    assert pending is not None
    unit_index = next(i for i, o in enumerate(pending.options) if o.value != "done")
    unit = str(pending.options[unit_index].value)
    trial = match.fork()
    trial.decide(unit)
    routes = routes_of(trial)
    assert routes is not None
    to = next(k for k in sorted(routes) if routes[k].cost >= 3 and follow(trial.fork(), "US", k).at == k)
    taken = follow(trial.fork(), "US", to).taken  # each step, and "stop here" if MP are left
    assert taken >= 3
    start = match.state.pieces[unit].location
    before = len(match.decisions)
    text = _play(match, [str(unit_index + 1), to, "u"])
    assert f"undone {taken} decision(s)" in text
    assert match.decisions[before:] == [unit] and match.state.pieces[unit].location == start
