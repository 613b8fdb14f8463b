"""Whole games of Iwo: Bloodbath in the Bonins: conformance, the hypothesis state machine
(the invariants of 6.3, 11.3, 12.1, 6.3a, 6.2e, 2.3 and 3.5 after every decision), victory
4.0, the sequence of play 5.1, bots, replay, golden playthroughs and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

from tabletop.core.designer.testing import (
    check_agent_read_only,
    check_conformance,
    check_golden,
    check_replay,
    game_state_machine,
    golden_games,
    play_random_game,
)
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.frontends.cli import cli
from tabletop.games.iwo_bonins import GAME, last_turn
from tabletop.games.iwo_bonins import common as c

from .test_us_movement import put, us_match

GOLDEN = Path(__file__).parent / "golden" / "iwo_bonins.json"
LEVELS = {"US victory", "Draw", "Japanese victory", "Japanese epic victory"}


def bot_match(seed: int, bot: str = "heuristic", **options: object) -> Match:
    """A whole solitaire game with a US bot (the Japanese side is 13.0-17.0)."""
    m = Match(GAME, seed=seed, options=options)
    m.run({c.US: make_agent(GAME, c.US, bot, seed)})
    return m


def test_registered_and_playable() -> None:
    """1.0, 3.0: registered, playable, solitaire with the US the human side."""
    g = load_game("iwo_bonins")
    assert g.info.playable and g.info.solitaire and g.info.human_side == c.US
    assert g.info.version == "1.1.0"


def test_conformance() -> None:
    """5.0, 4.0: random games end with a 4.0 result, replay byte for byte, save and resume."""
    check_conformance(GAME, range(2))


TestBoninsMachine = game_state_machine(GAME).TestCase
TestBoninsMachine.settings = settings(max_examples=4, stateful_step_count=12, deadline=None)


def test_japanese_side_never_decides_1_0() -> None:
    """1.0, 13.0-17.0: in the solitaire game every decision is the US player's."""
    m = play_random_game(GAME, 5)
    players = {e.data["player"] for e in m.log.of_kind("decision")}
    assert players == {c.US}


def test_sequence_of_play_5_1() -> None:
    """5.1: each turn runs the US first movement and combat, second movement and combat,
    the Japanese movement and combat phases, and the administrative phase, in order."""
    m = bot_match(2)
    phases = [e.data.get("phase") or e.text for e in m.log.of_kind("phase") if e.turn == 1]
    order = ["us_move_1", "us_combat_1", "us_move_2", "us_combat_2", "jp_move", "jp_combat", "admin"]
    seen = [p for p in order if any(p in str(x) for x in phases)]
    assert seen == order
    assert m.log.of_kind("weather")[0].section == "5.1.7"


def test_victory_by_casualties_4_3() -> None:
    """4.3: 2 a battalion eliminated, 1 a reduced battalion on the map or Available, 0 for
    support units, -2 a turn left to play; 12 or fewer a US win, 20 or more Japanese."""
    m = us_match()
    P = m.state.pieces
    for uid in ("1/23", "2/23", "3/23"):
        c.eliminate_us(m, P[uid], "test")
    c.eliminate_us(m, P["FT/23"], "test")
    c.us_step_loss(m, P["1/24"], "test")  # reduced, Available: 1
    put(m, "2/24", "2212")
    c.us_step_loss(m, P["2/24"], "test")  # reduced on the map: 1
    m.state.turn = 14
    cas = GAME.casualties(m)
    assert cas == {"eliminated_battalions": 3, "reduced_battalions": 2, "turns_remaining": 2,
                   "casualties": 6 + 2 - 4}
    r = GAME.final_result(m)
    assert r.winner == c.US and r.section == "4.3"


def test_epic_victory_4_2() -> None:
    """4.2: a Japanese unit on the map at the end is an epic Japanese victory."""
    m = us_match()
    put(m, "309", "0213")
    m.state.turn = 16
    r = GAME.final_result(m)
    assert r.level == "Japanese epic victory" and r.section == "4.2"


def test_game_length_4_1() -> None:
    """4.1, 11.4: sixteen turns, one fewer a reserve regiment; a game ends at once when no
    Japanese unit is left on the map."""
    m = us_match()
    assert last_turn(m) == 16
    m.state.vars[c.V_RESERVES] = 2
    assert last_turn(m) == 14
    assert GAME.check_end(m) is not None  # the map is empty of Japanese units


def test_bots_finish_with_a_result_4_0() -> None:
    """4.0: random and heuristic US games end with a 4.0 level and the casualty count."""
    for seed, bot in ((1, "random"), (2, "heuristic"), (3, "heuristic")):
        m = bot_match(seed, bot)
        assert m.result is not None and m.result.level in LEVELS
        assert m.result.section in ("4.2", "4.3")
        assert "casualties" in m.result.scores


def test_heuristic_dispatches_by_side_18_0() -> None:
    """18.0: the "heuristic" bot is the Japanese bot for the Japanese side."""
    us = make_agent(GAME, c.US, "heuristic", 1)
    jp = make_agent(GAME, c.JAPAN, "heuristic", 1)
    assert type(us).__name__ == "USHeuristic" and type(jp).__name__ != "USHeuristic"


def test_replay_of_a_logged_game() -> None:
    """A match is its record: a heuristic game replays to the same events and hash."""
    check_replay(bot_match(7))


def test_golden_playthroughs() -> None:
    """Golden games: seeded heuristic games end exactly as pinned (TABLETOP_REGOLD=1 re-pins;
    a missing golden file fails)."""
    check_golden(GOLDEN, golden_games(GAME, (1, 2, 3)))



def test_cli_auto_json_render_and_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """4.0 via the CLI: --auto --json gives the result and casualty count; render draws the
    island (2.1); the terminal game shows the map and the odds of an attack."""
    runner = CliRunner()
    out = runner.invoke(cli, ["play", "iwo_bonins", "--auto", "--seed", "3", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["finished"] and data["result"] in LEVELS and "casualties" in data
    monkeypatch.chdir(tmp_path)
    out = runner.invoke(cli, ["render", "iwo_bonins", "-o", "map.svg"])
    assert out.exit_code == 0, out.output
    assert "<svg" in Path("map.svg").read_text()
    out = runner.invoke(cli, ["play", "iwo_bonins", "--seed", "3"], input="1\nq\n")
    assert "Invade which side" in out.output


def test_every_event_has_a_section() -> None:
    """DESIGN principle 1: every event of a whole game names the rule that caused it."""
    m = bot_match(4)
    missing = [e.kind for e in m.log if not e.section]
    assert not missing, sorted(set(missing))


def test_bots_only_read_their_views() -> None:
    """The US and Japanese heuristic bots never change the match through their views (the
    solitaire US bot, and both bots of the two-player game, 18.0)."""
    check_agent_read_only(GAME, "heuristic", seed=3, decisions=400)
    check_agent_read_only(GAME, "heuristic", seed=4, decisions=400, scenario="two_player")
    check_agent_read_only(GAME, "heuristic", seed=5, decisions=400,
                          options={"bombardment_timing": "phase_start"})
