"""Listing games without importing them: each game package's game.toml (what `tabletop list`
shows), its agreement with the game's GameInfo, the import fallback for a plugin without one,
and what `tabletop list` and `tabletop --version` import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.core.designer.validation import validate_path
from tabletop.core.engine.errors import DataError
from tabletop.core.engine.registry import (
    INFO_FILE,
    Listing,
    check_info_file,
    info_file,
    listing,
    load_game,
    read_info_file,
    registered,
)
from tabletop.core.frontends.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example" / "skirmish"


@pytest.mark.parametrize("name", sorted(registered()))
def test_game_toml_agrees_with_the_imported_games_info(name: str) -> None:
    """Listing (capability): every registered game's game.toml says what its GameInfo says, so
    `tabletop list` cannot drift from the game; every bundled game declares one."""
    ep = registered()[name]
    path = info_file(ep)
    game = load_game(name)
    if ep.module.startswith("tabletop.games."):
        assert path is not None, f"{name}: the bundled game ships no {INFO_FILE}"
    if path is not None:
        assert path.parent.name == ep.module.rpartition(".")[2]
        assert check_info_file(game, path).endswith("agrees with the game's GameInfo (id, title, playable)")
    assert listing(name) == Listing.of(game)


def test_the_example_games_toml_agrees_and_validate_checks_it() -> None:
    """Listing (capability): the example game declares its game.toml, and `tabletop validate
    FOLDER` checks it first."""
    lines = validate_path(str(EXAMPLE))
    assert lines[0] == f"{EXAMPLE / INFO_FILE}: agrees with the game's GameInfo (id, title, playable)"
    assert read_info_file(EXAMPLE / INFO_FILE) == Listing.of(load_game(str(EXAMPLE)))


def test_validate_refuses_a_game_toml_that_disagrees(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Listing (capability): a game.toml whose title or playable differs from GameInfo fails
    `tabletop validate` in one line naming the file and each field."""
    import shutil

    folder = tmp_path / "sk_listing"
    shutil.copytree(EXAMPLE, folder)
    toml = folder / INFO_FILE
    toml.write_text(toml.read_text().replace('title = "Skirmish at Hill 50"', 'title = "Hill 51"')
                    .replace("playable = true", "playable = false"))
    assert main(["validate", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {toml}: ")
    assert "title: the file says 'Hill 51', GameInfo.title is 'Skirmish at Hill 50'" in err
    assert "playable: the file says False, GameInfo.playable is True" in err


@pytest.mark.parametrize("text, message", [
    ('id = "g"\ntitle = "G"\nplayable = "yes"\n', "playable: expected true or false, got 'yes'"),
    ('id = "g"\n', "title: missing"),
    ('id = "g"\ntitle = "G"\nversion = "1"\n', "version: unknown key (keys: id, title, playable)"),
    ('id = "g"\ntitle = G\n', "not valid TOML"),
    ('id = 7\ntitle = "G"\n', "id: expected a string, got 7"),
])
def test_a_malformed_game_toml_is_one_clear_error(tmp_path: Path, text: str, message: str) -> None:
    """Listing (capability): a game.toml with a wrong type, a missing or unknown key, or bad
    TOML is refused with the file, the key and what was expected."""
    path = tmp_path / INFO_FILE
    path.write_text(text)
    with pytest.raises(DataError) as err:
        read_info_file(path)
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value)


def test_playable_may_be_left_out(tmp_path: Path) -> None:
    """Listing (capability): playable is optional in game.toml, true when left out (as in GameInfo)."""
    path = _write(tmp_path / INFO_FILE, 'id = "g"\ntitle = "G"\n')
    assert read_info_file(path) == Listing("g", "G", True)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


NOISY = '''\
from tabletop.core.engine.match import Game, GameInfo


class {cls}(Game):
    """A third-party game that declares no game.toml: it is imported to be listed."""

    info = GameInfo(id="{id}", title="{title}", version="0", players=("A", "B"), playable=False)


GAME = {cls}()
'''


@pytest.fixture()
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed distribution of fake third-party games, each its own package on sys.path:

    - ``fk_static``: a game.toml, and an ``__init__`` that fails if it is ever imported;
    - ``fk_plain``: no game.toml; its GameInfo is read by importing it;
    - ``fk_badtoml``: a game.toml that is not TOML; ``fk_wrongid``: one naming another game.
    """
    _write(tmp_path / "fk_static" / "__init__.py", 'raise RuntimeError("fk_static was imported")\n')
    _write(tmp_path / "fk_static" / INFO_FILE, 'id = "fk_static"\ntitle = "Static Game"\n')
    _write(tmp_path / "fk_plain" / "__init__.py",
           NOISY.format(cls="Plain", id="fk_plain", title="Plain Game"))
    _write(tmp_path / "fk_badtoml" / "__init__.py", 'raise RuntimeError("fk_badtoml was imported")\n')
    _write(tmp_path / "fk_badtoml" / INFO_FILE, "id = fk_badtoml\n")
    _write(tmp_path / "fk_wrongid" / "__init__.py", 'raise RuntimeError("fk_wrongid was imported")\n')
    _write(tmp_path / "fk_wrongid" / INFO_FILE, 'id = "other"\ntitle = "Other"\n')
    dist = tmp_path / "fake_games-1.0.dist-info"
    _write(dist / "METADATA", "Metadata-Version: 2.1\nName: fake-games\nVersion: 1.0\n")
    _write(dist / "entry_points.txt", "[tabletop.games]\n" + "".join(
        f"{name} = {name}:GAME\n" for name in ("fk_static", "fk_plain", "fk_badtoml", "fk_wrongid")))
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("fk_static", "fk_plain", "fk_badtoml", "fk_wrongid"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return tmp_path


def test_list_reads_game_toml_and_imports_only_a_plugin_without_one(
        plugins: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Listing (capability): `tabletop list` shows a plugin's game.toml without importing the
    plugin (its import would fail), imports a plugin that declares none, and reports a broken
    game.toml on the plugin's own line; the bundled games are listed as before."""
    assert main(["list"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert lines["fk_static"] == "fk_static    Static Game"
    assert "fk_static" not in sys.modules
    assert lines["fk_plain"] == "fk_plain     Plain Game  [not yet playable]"
    assert "fk_plain" in sys.modules
    bad, wrong = plugins / "fk_badtoml" / INFO_FILE, plugins / "fk_wrongid" / INFO_FILE
    assert lines["fk_badtoml"].startswith(f"fk_badtoml   (broken plugin: {bad}: not valid TOML")
    assert lines["fk_wrongid"] == (f"fk_wrongid   (broken plugin: {wrong} declares game 'other' for "
                                   "entry point 'fk_wrongid': the entry-point name must equal the id)")
    assert not {"fk_badtoml", "fk_wrongid"} & set(sys.modules)
    assert lines["iwo_bonins"] == "iwo_bonins   Iwo: Bloodbath in the Bonins"


def test_the_import_fallback_agrees_with_the_game_toml(plugins: Path) -> None:
    """Listing (capability): the listing of a plugin without game.toml is its GameInfo's."""
    assert listing("fk_plain") == Listing("fk_plain", "Plain Game", False)
    assert info_file(registered()["fk_plain"]) is None
    assert info_file(registered()["fk_static"]) == plugins / "fk_static" / INFO_FILE


PROBE = """\
import json, sys
from tabletop.core.frontends.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


@pytest.mark.parametrize("args", [["list"], ["--version"]])
def test_list_and_version_import_no_game_and_no_heavy_module(args: list[str]) -> None:
    """Cold start: `tabletop list` and `tabletop --version` import no game package
    and none of the engine's match, data or view modules (nor pydantic, PyYAML, networkx);
    what they cost is printed by benchmarks/bench_cold.py."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["code"] == 0
    modules = set(report["modules"])
    heavy = {"pydantic", "yaml", "networkx", "tabletop.core.engine.match", "tabletop.core.engine.data",
             "tabletop.core.engine.views", "tabletop.core.engine.record", "tabletop.core.engine.pieces"}
    assert not heavy & modules, sorted(heavy & modules)
    assert not [m for m in modules if m.startswith("tabletop.games.")]
