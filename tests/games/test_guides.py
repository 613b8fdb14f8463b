"""Players' guides and rule citations: each playable game ships a guide in our own words
(how a turn goes, how to win, the rulebook's terms), reachable in play, and cites rules by
the rulebook's name and section, never by a file path."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game
from tabletop.core.frontends.terminal import QuitGame, TerminalSession

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"iwo_bonins": "iwo_bonins", "iwo_1945": "iwo_1945", "iwo_valor": "iwo_valor",
         "manila45": "manila45", "skirmish": str(ROOT / "docs" / "example" / "skirmish")}


@pytest.mark.parametrize("doc_name, game_name", sorted(GAMES.items()))
def test_each_game_has_a_guide_shipped_and_in_docs(doc_name: str, game_name: str) -> None:
    """Guide: how to win, how a turn (or round) goes, a glossary; the copy in docs/guides is
    the one the package ships."""
    guide = load_game(game_name).guide()
    assert "## How to win" in guide and "## Glossary" in guide
    assert "## How a turn goes" in guide or "## How a round goes" in guide
    assert (ROOT / "docs" / "guides" / f"{doc_name}.md").read_text(encoding="utf-8") == guide


@pytest.mark.parametrize("game_name", sorted(GAMES.values()))
def test_citations_name_the_rulebook_not_a_path(game_name: str) -> None:
    """Citations: the rulebook by name and the section; no file path outside the package."""
    game = load_game(game_name)
    cited = game.cite("6.0")
    assert cited.endswith(", 6.0") and "/" not in cited and not cited.split(",")[0].endswith((".txt", ".md"))


def test_the_guide_is_reachable_at_the_prompt() -> None:
    """Guide: the help names `g`, and `g` prints the game's guide in play."""
    game = load_game("iwo_1945")
    m = Match(game, seed=1)
    lines = iter(["h", "g"])
    out = io.StringIO()

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    session = TerminalSession(m, {"USMC"}, read=read, out=out)
    with pytest.raises(QuitGame):
        session.ask(m.pending)  # type: ignore[arg-type]
    text = out.getvalue()
    assert "g          the player's guide" in text and "## How to win (section 7)" in text
