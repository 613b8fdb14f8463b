"""Hidden information stays hidden: views, logs, decisions, maps and side saves tell a side
nothing it may not see (the visibility model of core/engine/visibility.py, checked for every game)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tabletop.core.designer.testing import HiddenInformationLeak, check_hidden_information
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.registry import load_game, registered
from tabletop.core.engine.views import StaleView, make_side_save
from tabletop.core.engine.visibility import PUBLIC, find_leaks, secrets_of
from tabletop.core.frontends.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "docs" / "example" / "skirmish")


def _every_game_and_scenario() -> list[tuple[str, str]]:
    """The example plus every registered playable game, each scenario (iwo_valor and manila45
    join this list, and so must pass the check, as soon as they are playable)."""
    out = [(EXAMPLE, "standard")]
    for name in sorted(registered()):
        game = load_game(name)
        if game.info.playable:
            out += [(name, s.id) for s in game.info.scenarios]
    return out


_LONG = {"iwo_bonins", "iwo_valor", "manila45"}
"""The games whose whole games take long to check (marked slow, so that they start first)."""


def _every_game_scenario_and_players() -> list[Any]:
    """Each game and scenario three times: a random game of seed 0, one of seed 1, and a game
    of the game's own bots (three tests, so that pytest-xdist spreads them)."""
    return [pytest.param(name, scenario, players,
                         marks=[pytest.mark.slow] if name in _LONG else [])
            for name, scenario in _every_game_and_scenario() for players in ("random0", "random1", "bots")]


@pytest.mark.parametrize(("name", "scenario", "players"), _every_game_scenario_and_players())
def test_no_side_is_told_what_it_may_not_see(name: str, scenario: str, players: str) -> None:
    """Hidden information conformance: random games (seeds 0 and 1), and one game of the
    game's own bots, checked after every decision for every side: view, decision, log and maps."""
    game = load_game(name)
    if players.startswith("random"):
        seed = int(players.removeprefix("random"))
        assert check_hidden_information(game, [seed], scenario=scenario, render_every=200) > 0
        return
    for side in game.info.players:  # the game's own bots play from their views alone
        bot = game.default_bot(side)
        if bot != "random":
            assert check_hidden_information(game, [0], scenario=scenario, bot=bot, render_every=400) > 0
            break


def _leaky(kind: str) -> Game:
    base = type(load_game(EXAMPLE))

    class LeakyVar(base):  # type: ignore[valid-type,misc]
        var_visibility: ClassVar[dict[str, Any]] = {"lost": PUBLIC, "red_units": PUBLIC}

        def setup(self, match: Match) -> None:
            super().setup(match)
            match.state.vars["red_units"] = [p.id for p in match.state.pieces if p.side == "Red"]

    class LeakyEvent(base):  # type: ignore[valid-type,misc]
        def setup(self, match: Match) -> None:
            super().setup(match)
            red = next(p for p in match.state.pieces if p.side == "Red" and p.hidden)
            match.emit("note", "4.1", f"{red.name} waits at {red.location}")

    class PrivateVar(base):  # type: ignore[valid-type,misc]
        def setup(self, match: Match) -> None:
            super().setup(match)
            match.state.vars["red_units"] = [p.id for p in match.state.pieces if p.side == "Red"]

    leaky: dict[str, type[Game]] = {"var": LeakyVar, "event": LeakyEvent, "private": PrivateVar}
    return leaky[kind]()


def test_a_planted_public_variable_leak_is_caught() -> None:
    """Visibility of game variables: a variable declared public that lists hidden units is
    found in Blue's view by the conformance check."""
    with pytest.raises(HiddenInformationLeak, match=r"Blue: the view names 'R1'"):
        check_hidden_information(_leaky("var"), [0])


def test_a_planted_event_leak_is_caught() -> None:
    """The log a side may see: an event naming a hidden unit is found by the check."""
    with pytest.raises(HiddenInformationLeak, match=r"Blue: event \d+ \[4.1\]"):
        check_hidden_information(_leaky("event"), [0])


def test_an_undeclared_variable_is_the_game_masters() -> None:
    """An undeclared game variable reaches no side's view, only the game master's."""
    game = _leaky("private")
    match = Match(game, seed=0)
    assert "red_units" not in match.view("Blue")["vars"]
    assert "red_units" not in match.view("Red")["vars"]
    assert "red_units" in match.view(None)["vars"]
    assert check_hidden_information(game, [0]) > 0


def test_visibility_declarations_are_checked() -> None:
    """A declaration naming a side the game does not have is refused when a match starts."""
    base = type(load_game(EXAMPLE))

    class Bad(base):  # type: ignore[valid-type,misc]
        var_visibility: ClassVar[dict[str, Any]] = {"lost": ("Green",)}

    with pytest.raises(TabletopError, match="unknown side"):
        Match(Bad(), seed=0)


def test_hidden_pieces_show_only_place_and_side() -> None:
    """4.1 (example): Blue sees a hidden Red unit as kind 'hidden' at its place, nothing more;
    Red sees its own units in full."""
    match = Match(load_game(EXAMPLE), seed=1)
    blue = [p for p in match.view("Blue")["pieces"] if p["side"] == "Red"]
    assert blue and all(set(p) == {"id", "kind", "side", "location"} and p["kind"] == "hidden"
                        for p in blue)
    red = {p["id"] for p in match.view("Red")["pieces"] if p["side"] == "Red"}
    assert {"R1", "R2", "R3", "R4"} <= red


def test_a_decision_naming_a_hidden_unit_is_masked_for_the_other_side() -> None:
    """3.1, 4.1 (example): Red's choice of a hidden unit to move is logged in full for Red and
    the game master; Blue's log says only that Red decided."""
    game = load_game(EXAMPLE)
    match = Match(game, seed=0)
    while match.pending is not None and not (match.pending.player == "Red"
                                             and match.pending.kind == "select_unit"):
        match.decide(match.pending.options[-1].value)
    assert match.pending is not None
    pick = next(o for o in match.pending.options if o.value != "done")
    name = match.state.pieces[str(pick.value)].name
    match.decide(pick.value)
    event = next(e for e in reversed(list(match.log)) if e.kind == "decision")
    assert name in event.text and event.visible_to == ("Red",)
    blue = next(e for e in reversed(match.log.visible("Blue")) if e.seq == event.seq)
    assert name not in blue.text and blue.data == {} and "Red decides" in blue.text
    assert name not in match.log.to_jsonl("Blue") and str(pick.value) not in match.log.to_jsonl("Blue")
    assert any(e is event for e in match.log.visible("Red"))


def test_views_are_stale_once_the_match_moves_on() -> None:
    """A view describes one moment: an entry read after the next decision is refused."""
    match = Match(load_game(EXAMPLE), seed=0)
    view = match.view("Blue")
    assert view["turn"] == match.state.turn
    assert match.pending is not None
    match.decide(match.pending.options[0].value)
    with pytest.raises(StaleView):
        view["pieces"]


def test_find_leaks_matches_whole_names_in_strings_only() -> None:
    """The leak search: whole words only, in strings (keys included), never in numbers."""
    secrets = {"R1": "R1", "309": "309", "1st Co": "R1"}
    assert find_leaks(secrets, "x", {"text": "R10 and xR1 and hidden:R1x"}) == []
    assert find_leaks(secrets, "x", {"seq": 309, "n": [309]}) == []
    assert len(find_leaks(secrets, "x", {"R1": 1})) == 1
    assert find_leaks(secrets, "x", ["the 1st Co moves"]) == ["x names '1st Co' (hidden piece R1)"]


def test_secrets_leave_out_names_a_side_also_sees() -> None:
    """Two counters of one type share a name: seeing one face up tells nothing of the other."""
    match = Match(load_game(EXAMPLE), seed=0)
    red = next(p for p in match.state.pieces if p.side == "Red")
    assert red.name in secrets_of(match, "Blue")
    blue = next(p for p in match.state.pieces if p.side == "Blue")
    blue.name = red.name
    assert red.name not in secrets_of(match, "Blue")
    assert red.id in secrets_of(match, "Blue")


def test_save_for_a_side_carries_only_what_it_may_see(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """--save-for SIDE=FILE: no seed, no hidden identity; it cannot be resumed or replayed,
    while the game master's save replays and verifies."""
    gm, blue = tmp_path / "gm.json", tmp_path / "blue.json"
    assert main(["play", EXAMPLE, "--auto", "--seed", "5", "--json", "--save", str(gm),
                 "--save-for", f"Blue={blue}"]) == 0
    data = json.loads(blue.read_text())
    assert data["format"] == "tabletop-side-save/1" and data["side"] == "Blue"
    assert "seed" not in data["header"]
    assert data["state_hash"] == json.loads(gm.read_text())["final"]["state_hash"]
    match = Match(load_game(EXAMPLE), seed=5)  # at set-up every Red unit is hidden
    early = make_side_save(match, "Blue")
    assert len(secrets_of(match, "Blue")) == 8 and not find_leaks(secrets_of(match, "Blue"), "", early)
    assert main(["resume", str(blue)]) != 0
    assert "side save" in capsys.readouterr().err
    assert main(["replay", str(gm), "--game-dir", EXAMPLE]) == 0
    assert main(["play", EXAMPLE, "--auto", "--seed", "5", "--save-for", "Green=x.json"]) != 0
    assert "no side 'Green'" in capsys.readouterr().err
