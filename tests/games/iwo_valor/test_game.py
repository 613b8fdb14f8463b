"""Whole games of Iwo Jima: Valor of Arms: every scenario to a result in the rulebook's words
(X, XI), the hypothesis state machine with the invariants of V.M, V.G, V.J and II.C after
every decision, replay, golden playthroughs, the hidden information of III.3, bots and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

from tabletop.core.designer.testing import (
    check_agent_read_only,
    check_golden,
    check_hidden_information,
    check_replay,
    game_state_machine,
    golden_games,
    play_random_game,
)
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.frontends.cli import cli
from tabletop.games.iwo_valor import GAME
from tabletop.games.iwo_valor import common as c

GOLDEN = Path(__file__).parent / "golden"
LEVELS = {f"{side} {level} VICTORY" for side in ("MARINE", "JAPANESE")
          for level in ("DECISIVE", "SUBSTANTIAL", "MARGINAL")}
SCENARIOS = (c.FULL, c.LOD, c.SANDS, c.NARROW, c.VERY_SHORT)


def test_registered_and_playable() -> None:
    """I, XI: registered, solitaire, the Marines the human side, five scenarios by name."""
    g = load_game("iwo_valor")
    assert g.info.playable and g.info.solitaire and g.info.human_side == c.US
    assert [s.id for s in g.info.scenarios] == list(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_random_games_end_with_a_result_X(scenario: str) -> None:
    """X.A-B, XI: random legal play reaches a result in the rulebook's words; invariants hold
    after every decision; the record replays to the same state."""
    m = play_random_game(GAME, 7, scenario=scenario, check_every=5)
    assert m.result is not None
    if scenario == c.VERY_SHORT:
        assert m.result.level.startswith("Japanese VP total") or m.result.level in LEVELS
    else:
        assert m.result.level in LEVELS
    check_replay(m)


def test_japanese_side_never_decides_IX() -> None:
    """IX: Japanese attacks are mandatory: every decision of a game is the Marine player's."""
    m = play_random_game(GAME, 11, scenario=c.LOD, check_every=50)
    assert all(e.data.get("player") == c.US for e in m.log if e.kind == "decision")


def test_hidden_units_never_named_to_the_marines_III_3() -> None:
    """III.3 and the hidden-information model: no face-down unit's id or name in the Marine
    view, decisions, events or maps (the core's conformance check, with the heuristic bot)."""
    assert check_hidden_information(GAME, range(1), scenario=c.LOD, bot="heuristic") > 100


TestValorMachine = game_state_machine(GAME, scenario=c.LOD).TestCase
TestValorMachine.settings = settings(max_examples=3, stateful_step_count=8, deadline=None)
TestValorShortMachine = game_state_machine(GAME, scenario=c.VERY_SHORT).TestCase
TestValorShortMachine.settings = settings(max_examples=3, stateful_step_count=8, deadline=None)


def test_golden_playthroughs() -> None:
    """Golden games: seeded heuristic games of each scenario play exactly as pinned (the 35-turn
    game and Sands end early by sudden death or run to their end)."""
    got = {scen: golden_games(GAME, range(2), scenario=scen) for scen in SCENARIOS}
    check_golden(GOLDEN / "iwo_valor.json", got)


def test_bots_only_read_their_views() -> None:
    """The heuristic Marine bot never changes the match through its view."""
    check_agent_read_only(GAME, "heuristic", seed=3, decisions=300, scenario=c.LOD)


def test_every_event_has_a_section() -> None:
    """DESIGN principle 1: every event of a whole game names the rule that caused it."""
    m = Match(GAME, scenario=c.LOD, seed=2)
    m.run({c.US: make_agent(GAME, c.US, "heuristic", 2)})
    assert not [e.kind for e in m.log if not e.section]


def test_cli_auto_json_render_info(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """X via the CLI: --auto --json gives a result in the rulebook's words; render draws the
    island; info says the Very Short Game is partly reconstructed; the terminal asks the beach."""
    runner = CliRunner()
    out = runner.invoke(cli, ["play", "iwo_valor", "--scenario", c.LOD, "--auto", "--seed", "3", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["finished"] and data["result"] in LEVELS
    monkeypatch.chdir(tmp_path)
    out = runner.invoke(cli, ["render", "iwo_valor", "-o", "map.svg"])
    assert out.exit_code == 0, out.output
    svg = Path("map.svg").read_text()
    assert "<svg" in svg and "First Defensive Line" in svg and "Second Wave" in svg
    out = runner.invoke(cli, ["info", "iwo_valor"])
    assert out.exit_code == 0 and "RECONSTRUCTED" in out.output
    out = runner.invoke(cli, ["play", "iwo_valor", "--seed", "3"], input="1\nq\n")
    assert "Which beach" in out.output


def test_the_terminal_lets_the_heuristic_bot_land_the_waves() -> None:
    """III.4 at the terminal: ``b phase`` at the beach question lets the Marines' heuristic
    bot choose the beach and place both waves (34 decisions, each the bot's own answer from
    the Marines' view); the person is asked again at IV.A's planning."""
    import io

    from tabletop.core.frontends.terminal import QuitGame, TerminalSession

    lines = iter(["b phase"])

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    m = Match(GAME, scenario=c.LOD, seed=4)
    out = io.StringIO()
    s = TerminalSession(m, {c.US}, read=read, out=out)
    with pytest.raises(QuitGame):
        while m.pending is not None:
            index = s.ask(m.pending)
            assert index is not None
            m.decide_index(index)
    assert m.state.phase == "planning" and len(m.decisions) == 34
    bot = make_agent(GAME, c.US, "heuristic", 4)
    again = Match(GAME, scenario=c.LOD, seed=4)
    for value in m.decisions:
        pending = again.pending
        assert pending is not None
        assert bot.choose(again.view(c.US), pending) == value
        again.decide(value)
    assert out.getvalue().count("(the heuristic bot takes") == 34
