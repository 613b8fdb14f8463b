"""Every word a player reads comes from the game's own names: no phase id, variable name,
unit-kind key or Python repr reaches the terminal (menus, log, map, score, option help) or
the map picture (its texts and tooltips), in any game."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from tabletop.core.board.render.svg import render_match as render_svg
from tabletop.core.designer.testing import play_random_game
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game
from tabletop.core.engine.text import internal_names
from tabletop.core.frontends.terminal import QuitGame, TerminalSession
from tabletop.core.frontends.web.app import game_json
from tests.scripted_input import reader

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["iwo_1945", "iwo_bonins", "iwo_valor", "manila45", str(ROOT / "docs" / "example" / "skirmish"),
         str(ROOT / "docs" / "example" / "ridge")]
SVG_WORDS = re.compile(r"<(?:text|title)[^>]*>([^<]*)<")
DECISIONS = 40


def script(decisions: int) -> list[str]:
    """What a curious player types: every command that shows something, then option 1."""
    lines: list[str] = []
    for k in range(decisions):
        lines += ["m", "v", "l 30", "i 1", "i 2", "1"] if k % 8 == 0 else ["i 1", "1"]
    return lines


def leaks(text: str, where: str) -> list[str]:
    """Each line of ``text`` with internal names, as ``where: words | line``."""
    out = []
    for line in text.splitlines():
        words = internal_names(line)
        if words:
            out.append(f"{where}: {', '.join(dict.fromkeys(words))} | {line.strip()[:160]}")
    return out


@pytest.mark.parametrize("name", GAMES, ids=lambda n: Path(n).name)
def test_no_internal_name_reaches_the_terminal_or_the_map(name: str) -> None:
    """Phases, tracks, boxes, unit kinds and option values read as the game names them."""
    game = load_game(name)
    for scenario in [s.id for s in game.info.scenarios]:
        match = Match(game, scenario=scenario, seed=2)
        outs = {side: io.StringIO() for side in game.info.players}
        sessions = {side: TerminalSession(match, {side}, read=reader(script(DECISIONS)),
                                          out=outs[side], screen=False)
                    for side in game.info.players}
        found: list[str] = []
        for _ in range(DECISIONS):
            decision = match.pending
            if decision is None:
                break
            session = sessions[decision.player]
            try:
                index = session.ask(decision)
            except (EOFError, QuitGame):
                break
            if index is None:
                break
            match.decide_index(index)
            session.show_new_events()
        for side, out in outs.items():
            found += leaks(out.getvalue(), f"{scenario} terminal ({side})")
            svg = render_svg(match, hidden_from=side)
            found += leaks("\n".join(SVG_WORDS.findall(svg)), f"{scenario} map ({side})")
        assert not found, f"{len(found)} lines name things as the program does:\n" + "\n".join(found[:12])


@pytest.mark.parametrize("name", GAMES, ids=lambda n: Path(n).name)
def test_no_internal_name_reaches_the_log_of_a_whole_game(name: str) -> None:
    """Every event of a whole random game of each scenario, and every question and option
    asked on the way, reads in the game's own words."""
    game = load_game(name)
    for scenario in [s.id for s in game.info.scenarios]:
        match = play_random_game(game, 3, scenario=scenario, check_every=10**9)
        found = leaks("\n".join(e.text for e in match.log), f"{scenario} log")
        assert not found, f"{len(found)} lines name things as the program does:\n" + "\n".join(found[:12])


@pytest.mark.parametrize("name", GAMES, ids=lambda n: Path(n).name)
def test_no_internal_name_reaches_the_home_page(name: str) -> None:
    """The game's card on the home page: its description, scenarios, rule variants and the
    words of each variant's choices (the values themselves are what --option types)."""
    card = game_json(load_game(name))
    said = [str(card["title"]), str(card["description"])]
    for scenario in card["scenarios"]:
        said += [scenario["name"], scenario["description"]]
    for option in card["options"]:
        said += [option["description"], *option["labels"]]
    found = leaks("\n".join(said), "home page")
    assert not found, "\n".join(found)
