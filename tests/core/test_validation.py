"""`tabletop validate` and the data models' messages: the file, the place in it, what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.core.designer.validation import validate_file, validate_path
from tabletop.core.engine.data import YAML_LOADERS, validate
from tabletop.core.engine.errors import DataError
from tabletop.core.engine.flow import SequenceOfPlay

MAP = """\
name: m
columns: [1, 3]
rows: [1, 3]
default_terrain: clear
terrain_types: {clear: {name: Clear}}
hexside_types: {river: {name: River}}
"""


def test_hex_map_without_kind_is_recognised_and_geometry_checked(tmp_path: Path) -> None:
    """A map file is recognised by its keys; a hexside between non-adjacent hexes is refused."""
    good = tmp_path / "map.yaml"
    good.write_text(MAP)
    assert "ok (HexMapSpec)" in validate_file(good)
    bad = tmp_path / "bad.yaml"
    bad.write_text(MAP + 'hexsides: [{between: ["0101", "0303"], features: [river]}]\n')
    with pytest.raises(DataError, match=r"bad.yaml: hexsides.0.between: .*not adjacent"):
        validate_file(bad)


def test_unquoted_hex_id_gets_a_message_saying_so(tmp_path: Path) -> None:
    """YAML reads 0102 as a number: the message says to quote hex ids."""
    bad = tmp_path / "m.yaml"
    bad.write_text(MAP + "hexes: {0102: clear}\n")
    with pytest.raises(DataError, match="quoted strings"):
        validate_file(bad)


def test_sequence_checks_repeated_phases_and_turn_order() -> None:
    """A sequence of play refuses a repeated phase id and first_turn after last_turn."""
    phase = {"id": "a", "name": "A", "section": 5}
    with pytest.raises(DataError, match="more than once"):
        validate(SequenceOfPlay, {"last_turn": 2, "phases": [phase, phase]}, source="s.yaml")
    with pytest.raises(DataError, match="after last_turn"):
        validate(SequenceOfPlay, {"first_turn": 3, "last_turn": 2, "phases": [phase]}, source="s.yaml")
    seq = validate(SequenceOfPlay, {"last_turn": 2, "phases": [phase]}, source="s.yaml")
    assert seq.phases[0].section == "5"
    with pytest.raises(DataError, match="in quotes"):
        validate(SequenceOfPlay, {"last_turn": 2, "phases": [{**phase, "section": 9.10}]}, source="s")


def test_validate_a_whole_game_folder() -> None:
    """Every data file of a game is checked, then the game's own cross-checks run."""
    root = Path(__file__).resolve().parents[2]
    lines = validate_path(str(root / "docs" / "example" / "skirmish"))
    assert any("map.yaml: ok (HexMapSpec)" in line for line in lines)
    assert any("crt.yaml: ok (TableSpec)" in line for line in lines)
    assert any("sequence.yaml: ok (SequenceOfPlay)" in line for line in lines)


@pytest.mark.parametrize("parser", sorted(YAML_LOADERS))
@pytest.mark.parametrize("text, fragment", [
    ("a: 1\nb: 2\na: 3\n", "duplicate key 'a' (line 3)"),
    ("? [1, 2]\n: x\n", "a key must be a plain value, not list"),
])
def test_yaml_keys_twice_or_unhashable_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   parser: str, text: str, fragment: str) -> None:
    """Data files: a key written twice (PyYAML would keep the last silently) or a key that is
    not a plain value is a DataError naming the file and the line, with each YAML parser."""
    from tabletop.core.engine import data

    monkeypatch.setattr(data, "_LOADER", data.YAML_LOADERS[parser])
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    with pytest.raises(DataError, match=r"bad\.yaml") as err:
        data.read_data_file(bad)
    assert fragment in str(err.value)
    assert data.load_yaml("a: 1\nb: [x, y]\n") == {"a": 1, "b": ["x", "y"]}


ROOT = Path(__file__).resolve().parents[2]


def _bad_copy(tmp_path: Path, source: Path, name: str, file: str, old: str, new: str) -> Path:
    """A copy of a game's data (or whole package) folder with one text change in one file."""
    import shutil

    target = tmp_path / name
    shutil.copytree(source, target)
    f = target / file
    text = f.read_text()
    assert old in text, (file, old)
    f.write_text(text.replace(old, new, 1))
    return target


def _one_line_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    from tabletop.core.frontends.cli import main

    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert err.count("\n") == 1 and err.startswith("error: ")
    return err


@pytest.mark.parametrize("name, old, new, place", [
    ("sk_negative_move", "front: [4, 3, 4]", "front: [4, 3, -4]", "units.yaml: 0.front.2: "),
    ("sk_duplicate_id", "id: B2,", "id: B1,", "units.yaml: 1.id: id 'B1' is used again"),
    ("sk_missing_hex", 'hex: "0504"', 'hex: "9999"',
     "units.yaml: 4.hex: unit R1 is set up on 9999, which is not"),
    ("sk_lake_hex", 'hex: "0504"', 'hex: "0507"',
     "units.yaml: 4.hex: unit R1 (infantry) may not stand on 0507 (lake"),
])
def test_validate_refuses_each_bad_example_data_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     name: str, old: str, new: str, place: str) -> None:
    """Validation (example game 1.2): a negative movement, a repeated id, a unit on a hex that
    is not on the map: `tabletop validate FOLDER` says so in one line naming file, place, piece."""
    folder = _bad_copy(tmp_path, ROOT / "docs" / "example" / "skirmish", name, "data/units.yaml", old, new)
    err = _one_line_error(capsys, "validate", str(folder))
    assert place in err


@pytest.mark.parametrize("game, file, old, new, place", [
    ("iwo_bonins", "counters.yaml", "front: {attack: 8, defense: 4, movement: 6}",
     "front: {attack: 8, defense: 4, movement: -6}", "counters.yaml: profiles.marine.front.movement: "),
    ("iwo_bonins", "counters.yaml", '- {id: "2/23"', '- {id: "1/23"',
     "counters.yaml: counters.1.id: id '1/23' is used again"),
    ("iwo_bonins", "counters.yaml", "setup: us_available,", "setup: nowhere,",
     "counters.yaml: counters.0.setup: 'nowhere'"),
    ("iwo_1945", "setup.yaml", "  the_neck: 3\n", "  the_nekk: 3\n", "setup.yaml: japanese.the_nekk: "),
    ("iwo_1945", "setup.yaml", "  the_neck: 3\n", "  the_neck: -3\n", "setup.yaml: japanese.the_neck: "),
    ("iwo_1945", "setup.yaml", "japanese_deal: 30", "japanese_deal: -1", "setup.yaml: decks.japanese_deal: "),
])
def test_game_loaders_refuse_each_bad_data_file(tmp_path: Path, game: str, file: str, old: str, new: str,
                                                place: str) -> None:
    """Validation (Bonins 2.3, 3.2; Iwo Jima 1945 5.0): each game's loader refuses a negative
    value, a repeated id, a piece set up where there is no such place, in one line naming the
    file and the place in it."""
    import importlib

    components = importlib.import_module(f"tabletop.games.{game}.components")
    folder = _bad_copy(tmp_path, ROOT / "games" / game / "data", "data", file, old, new)
    with pytest.raises(DataError) as err:
        components.load_components(folder)
    assert place in str(err.value) and "\n" not in str(err.value)


def test_a_single_data_file_is_checked_against_its_game_model(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Validation: one file of a game's data/ folder is checked against that game's model for
    its name, found from where it lies or named with --game."""
    from tabletop.core.frontends.cli import main

    setup = ROOT / "games" / "iwo_1945" / "data" / "setup.yaml"
    assert main(["validate", str(setup)]) == 0
    assert "ok (Setup)" in capsys.readouterr().out
    loose = tmp_path / "setup.yaml"
    loose.write_text(setup.read_text().replace("japanese_deal: 30", "japanese_deal: -1"))
    err = _one_line_error(capsys, "validate", str(loose), "--game", "iwo_1945")
    assert "setup.yaml: decks.japanese_deal: " in err
    units = tmp_path / "units.yaml"
    units.write_text("- {id: B1, side: Blue, kind: infantry, name: x, hex: '0102', steps: 1, "
                     "front: [1, 1, -1]}\n")
    example = str(ROOT / "docs" / "example" / "skirmish")
    err = _one_line_error(capsys, "validate", str(units), "--game", example)
    assert "units.yaml: 0.front.2: " in err


def test_schema_of_a_game_covers_its_own_data_files(capsys: pytest.CaptureFixture[str]) -> None:
    """`tabletop schema GAME`: the core models and each of the game's own data files."""
    import json

    from tabletop.core.frontends.cli import main

    for game, files in (("iwo_bonins", ["counters.yaml", "terrain.yaml", "tracks.yaml"]),
                        ("iwo_1945", ["pieces.yaml", "setup.yaml", "victory.yaml"])):
        assert main(["schema", game]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert "HexMapSpec" in doc and all(f in doc and "properties" in doc[f] for f in files)


def test_validate_sets_up_every_scenario() -> None:
    """Validation: what `play` would refuse at the start is checked too: every scenario sets up
    and its opening position keeps the game's invariants."""
    lines = validate_path("iwo_bonins")
    assert any("scenario solitaire: sets up" in line for line in lines)
    assert any("scenario two_player: sets up" in line for line in lines)


def test_validate_checks_a_position_file_as_play_would(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Validation: a position file (`play --position`) is set up as play would set it up: a
    good one is ok and says where it starts; a piece on a place that does not exist is one
    line naming the file, the place in it and the piece, as `play --position` says it."""
    from tabletop.core.frontends.cli import main

    good = ROOT / "docs" / "positions" / "iwo_bonins_attack.yaml"
    assert main(["validate", str(good)]) == 0
    assert "ok (Position of iwo_bonins" in capsys.readouterr().out
    bad = tmp_path / "bad.yaml"
    text = good.read_text()
    placed = next(line for line in text.splitlines() if "at:" in line and "{" in line)
    place = placed.split("at:")[1].split(",")[0].split("}")[0].strip()
    bad.write_text(text.replace(placed, placed.replace(place, '"9999"'), 1))
    err = _one_line_error(capsys, "validate", str(bad))
    assert "bad.yaml: pieces." in err and "9999" in err
    play_err = _one_line_error(capsys, "play", "iwo_bonins", "--position", str(bad), "--auto")
    assert play_err == err
def test_parsed_yaml_cache_is_keyed_by_contents_and_keeps_plain_json_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cold start: a YAML file's parse is kept as JSON keyed by its
    contents; an edited file is a new key; a parse JSON cannot give back exactly (integer
    keys, dates) is never kept; a corrupt entry is parsed again; 'off' turns the cache off."""
    from tabletop.core.engine import data

    cache = tmp_path / "cache"
    monkeypatch.setenv(data.CACHE_ENV, str(cache))
    f = tmp_path / "a.yaml"
    f.write_text("a: 1\nb: [x, 2.5, true, null]\n", encoding="utf-8")
    first = data.read_data_file(f)
    entries = list((cache / "yaml").iterdir())
    assert first == {"a": 1, "b": ["x", 2.5, True, None]} and len(entries) == 1
    assert data.read_data_file(f) == first
    entries[0].write_text('{"a":99}', encoding="utf-8")  # the entry is what is read back
    assert data.read_data_file(f) == {"a": 99}
    f.write_text("a: 2\n", encoding="utf-8")
    assert data.read_data_file(f) == {"a": 2} and len(list((cache / "yaml").iterdir())) == 2
    entries[0].write_text("{not json", encoding="utf-8")
    f.write_text("a: 1\nb: [x, 2.5, true, null]\n", encoding="utf-8")
    assert data.read_data_file(f) == first
    for text, parsed in (("1: one\n", {1: "one"}), ("d: 2024-01-02\n", None)):
        f.write_text(text, encoding="utf-8")
        before = len(list((cache / "yaml").iterdir()))
        got = data.read_data_file(f)
        assert parsed is None or got == parsed
        assert len(list((cache / "yaml").iterdir())) == before
    monkeypatch.setenv(data.CACHE_ENV, "off")
    assert data.yaml_cache_dir() is None
    f.write_text("c: 3\n", encoding="utf-8")
    assert data.read_data_file(f) == {"c": 3}
    assert len(list((cache / "yaml").iterdir())) == 2
