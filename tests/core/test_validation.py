"""`tabletop validate` and the data models' messages: the file, the place in it, what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.core.data import YAML_LOADERS, validate
from tabletop.core.errors import DataError
from tabletop.core.flow import SequenceOfPlay
from tabletop.core.validation import validate_file, validate_path

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
    from tabletop.core import data

    monkeypatch.setattr(data, "_LOADER", data.YAML_LOADERS[parser])
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    with pytest.raises(DataError, match=r"bad\.yaml") as err:
        data.read_data_file(bad)
    assert fragment in str(err.value)
    assert data.load_yaml("a: 1\nb: [x, y]\n") == {"a": 1, "b": ["x", "y"]}


def test_parsed_yaml_cache_is_keyed_by_contents_and_keeps_plain_json_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Capability (issue 11, cold start): a YAML file's parse is kept as JSON keyed by its
    contents; an edited file is a new key; a parse JSON cannot give back exactly (integer
    keys, dates) is never kept; a corrupt entry is parsed again; 'off' turns the cache off."""
    from tabletop.core import data

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
