"""``tabletop new NAME``: the new game plays, validates, passes the conformance tests and
its own rule tests as written; a bad name or an existing folder is refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from tabletop.core.designer.scaffold import FILES
from tabletop.core.designer.testing import check_conformance, game_state_machine
from tabletop.core.engine.registry import load_game
from tabletop.core.frontends.cli import main

ROOT = Path(__file__).resolve().parents[2]
NAME = "ridge_fight"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new game written by the command into a fresh folder."""
    parent = tmp_path_factory.mktemp("designs")
    assert main(["new", NAME, "--dir", str(parent)]) == 0
    return parent / NAME


def test_new_writes_every_file_of_a_game_folder(folder: Path) -> None:
    """The folder holds the game module, its rulebook, guide, game.toml, rolls.yaml, data
    files (sections.yaml among them) and a test module, with the game's name written in."""
    written = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert written == sorted(FILES)
    assert 'id = "ridge_fight"' in (folder / "game.toml").read_text(encoding="utf-8")
    assert "class RidgeFight(KitGame):" in (folder / "__init__.py").read_text(encoding="utf-8")
    assert not list(folder.parent.glob(".ridge_fight-*"))  # no staging folder left behind


def test_the_new_game_plays_to_the_end_with_its_bots(folder: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`tabletop play ./NAME --auto` plays a whole game with the game's own bot."""
    assert main(["play", str(folder), "--auto", "--seed", "4", "--json"]) == 0
    outcome = json.loads(capsys.readouterr().out)
    assert outcome["finished"] is True and outcome["winner"] in ("Blue", "Red")
    assert outcome["section"] in ("5.1", "5.2")


def test_the_new_game_validates(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tabletop validate ./NAME`: game.toml agrees with GameInfo, every data file fits its
    model, the cross-checks pass and the set-up keeps the invariants."""
    assert main(["validate", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "agrees with the game's GameInfo" in out and "units.yaml: ok (KitUnitsFile)" in out
    assert "sections.yaml: ok" in out and "invariants hold" in out


def test_the_new_game_passes_the_conformance_tests(folder: Path) -> None:
    """The API test every game passes, and a short run of the rule-checking state machine."""
    game = load_game(str(folder))
    check_conformance(game, range(5, 9))
    case = game_state_machine(game).TestCase
    case.settings = settings(max_examples=5, stateful_step_count=10, deadline=None)
    case().runTest()


def test_the_new_games_own_rule_tests_pass(folder: Path) -> None:
    """The rule tests written with the game (the designer guide's ten-line style) pass in a
    pytest of their own, run from the game's folder."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
                          cwd=folder, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "8 passed" in done.stdout, done.stdout


def test_the_new_game_keeps_the_projects_style(folder: Path) -> None:
    """The generated code passes ruff with the project's own settings."""
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config",
                           str(ROOT / "pyproject.toml"), str(folder)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(("name", "words"), [
    ("9lives", "not a game name"),
    ("my-game", "not a game name"),
    ("Hill", "not a game name"),
    ("class", "not a game name"),
    ("json", "already the name of an importable module"),
    ("iwo_1945", "already the id of an installed game"),
])
def test_a_bad_name_is_refused_in_one_line(name: str, words: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """NAME must be a lowercase identifier that no importable module or installed game
    answers to: otherwise one line, exit 2, nothing written."""
    assert main(["new", name, "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_an_existing_folder_or_a_missing_dir_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder already called NAME is left as it was; a --dir that is not a folder is named."""
    (tmp_path / "taken_name").mkdir()
    (tmp_path / "taken_name" / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["new", "taken_name", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already exists" in err
    assert [p.name for p in tmp_path.rglob("*")] == ["taken_name", "notes.txt"]
    assert main(["new", "other_name", "--dir", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such folder" in err
    assert not (tmp_path / "nowhere").exists()
