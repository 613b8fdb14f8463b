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
