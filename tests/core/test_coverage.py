"""Rule coverage (core/designer/coverage.py, `tabletop rules`): sections read from a rulebook's
headings, citations read from hooks' docstrings and section arguments and from tests'
names and docstrings (decimal numbering, and the outline numbering of Roman parts with
lettered rules), and the shipped section lists of iwo_bonins, iwo_1945 and iwo_valor checked
against their rulebooks with no section unaccounted for, as the example game's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tabletop.core.designer.coverage import (
    _docstring_sections,
    _name_sections,
    collect,
    coverage,
    load_sections,
    parse_sections,
    resolve,
)
from tabletop.core.frontends.cli import main

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = Path(os.environ.get("TABLETOP_RULEBOOKS", ROOT.parent / "shared" / "rules"))
GAMES = ("iwo_bonins", "iwo_1945", "iwo_valor")

TEXT = """\
Table of Contents
1.0 Introduction
2.0 Movement
2.1 Procedure
Units move one at a time.
2.1.1 Roads
3.5 percent of the units are tanks, which is not a heading.
2.0 Movement
"""


def test_sections_are_the_rulebooks_numbered_headings() -> None:
    """Coverage: headings in order, each once; a sentence that starts with a number and a
    lowercase word is not a heading."""
    assert parse_sections(TEXT) == [("1.0", "Introduction"), ("2.0", "Movement"),
                                    ("2.1", "Procedure"), ("2.1.1", "Roads")]


def test_a_citation_means_its_section() -> None:
    """Coverage: 9.1d is 9.1's item d; a deeper number than the rulebook's is its parent;
    a number of no section is none; test names spell sections with underscores."""
    known = ["2.0", "6.0", "9.1", "9.2", "9.2.1"]
    assert resolve("9.1d", known) == "9.1" and resolve("9.2.1", known) == "9.2.1"
    assert resolve("9.2.7", known) == "9.2" and resolve("7.6", known) is None
    assert _name_sections("test_d2_and_advance_9_2_1_and_9_1", known) == ["9.2.1", "9.1"]
    assert _name_sections("test_2_0_6_0_cube_on_a_beach", known) == ["2.0", "6.0"]


OUTLINE = """\
Table of Contents
• I. Introduction
I. Introduction
The game.
II. How to Set Up
1. Unfold the map. Then sit.
2. Sort the pieces.
III. How to Move
A. Marine Planning Phase
1. Count the points. A step of A, not a section.
I. Armour may not cross slopes.
B. Units may not enter enemy hexes. More text.
U.S. units are Marines.
IV. Zones of Control
"""


def test_outline_sections_are_parts_and_their_rules() -> None:
    """Coverage (outline numbering): Roman parts in sequence, their lettered rules (a rule
    lettered I is not part I), numbered rules only directly under a part; a rule's title is
    its first sentence."""
    assert parse_sections(OUTLINE, "outline") == [
        ("I", "Introduction"), ("II", "How to Set Up"), ("II.1", "Unfold the map"),
        ("II.2", "Sort the pieces"), ("III", "How to Move"), ("III.A", "Marine Planning Phase"),
        ("III.I", "Armour may not cross slopes"), ("III.B", "Units may not enter enemy hexes"),
        ("IV", "Zones of Control")]


def test_outline_citations() -> None:
    """Coverage (outline numbering): a step counts for its rule, letter and number ranges
    expand, a bare part needs "Part" or a colon unless it has two letters or more; test names
    spell citations in capitals."""
    known = ["I", "II", "II.A", "II.B", "II.C", "III", "III.4", "III.5", "III.6", "IV", "IV.D",
             "V", "V.E", "VIII.B", "VIII.D", "X"]
    assert resolve("IV.D.5", known) == "IV.D" and resolve("III.4", known) == "III.4"
    assert resolve("IV", known) == "IV" and resolve("VII.A", known) is None
    assert _docstring_sections("V.E and II.A-C; III.5-6, IV.D.5/3. I think so, X marks; "
                               "Part V, X: ends; VIII", "outline") == [
        "V.E", "II.A", "II.B", "II.C", "III.5", "III.6", "IV.D.5", "V", "X", "VIII"]
    assert _name_sections("test_VIII_B_D_x_III_5_6", known, "outline") == [
        "VIII.B", "VIII.D", "III.5", "III.6"]
    assert _name_sections("test_x_II_B_V_E_part_X_but_not_X", known, "outline") == [
        "II.B", "V.E", "X"]
    assert _name_sections("test_9_2_1", ["9.2.1"]) == ["9.2.1"]


def test_hooks_and_tests_are_read_from_the_code(tmp_path: Path) -> None:
    """Coverage: a hook cites by its docstring or by a section argument; a test by its name
    or docstring; an explicit citation of no section is reported."""
    code = tmp_path / "game"
    (code / "data").mkdir(parents=True)
    (code / "data" / "sections.yaml").write_text(
        'rulebook: x.txt\nsections:\n  - {id: "1.0", title: Intro, no_hook: "an introduction"}\n'
        '  - {id: "2.1", title: Move}\n  - {id: "2.2", title: Stack}\n', encoding="utf-8")
    (code / "rules.py").write_text(
        'def move(m):\n    """2.1: move a unit."""\n    m.emit("move", "2.2", "x")\n'
        '    m.emit("odd", "4.4", "y")\n', encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_rules.py").write_text(
        'def test_move_2_1():\n    """Moving."""\n', encoding="utf-8")
    rows, found = coverage(code, tests)
    by_id = {r.id: r for r in rows}
    assert by_id["2.1"].hooks == ("rules.move",) and by_id["2.1"].tests == ("test_rules::test_move_2_1",)
    assert by_id["2.2"].flags == ["no test"] and by_id["1.0"].flags == ["no test"]
    assert found.unknown == ["rules.move cites 4.4, no section of the rulebook"]


@pytest.mark.parametrize("game", GAMES)
def test_shipped_sections_are_the_rulebooks(game: str) -> None:
    """Coverage: data/sections.yaml lists exactly the rulebook's numbered headings (checked
    wherever the rulebook is at hand; the installed package carries the list as data)."""
    book = RULEBOOKS / f"{game}.txt"
    if not book.is_file():
        pytest.skip(f"rulebook {book} not at hand")
    shipped = load_sections(ROOT / "games" / game)
    assert shipped.rulebook == book.name
    assert [(s.id, s.title) for s in shipped.sections] == parse_sections(
        book.read_text(encoding="utf-8"), shipped.numbering)


@pytest.mark.parametrize("game", (*GAMES, "manila45"))
def test_no_section_is_unaccounted_for(game: str) -> None:
    """Coverage: every section of the rulebook has a hook and a test, or a reason why not;
    every explicit citation names a section."""
    rows, found = coverage(ROOT / "games" / game, ROOT / "tests" / "games" / game)
    assert [(r.id, r.flags) for r in rows if r.flags] == []
    assert found.unknown == []


@pytest.mark.parametrize("example, sections", [("skirmish", 25), ("ridge", 24)])
def test_the_examples_have_no_section_unaccounted_for(example: str, sections: int) -> None:
    """Coverage: every section of each example game's RULES.md has a hook and a test (its
    tests live beside it, in its tests/ folder), or a reason why not; every explicit citation
    names a section."""
    folder = ROOT / "docs" / "example" / example
    rows, found = coverage(folder, folder / "tests")
    assert len(rows) == sections
    assert [(r.id, r.flags) for r in rows if r.flags] == []
    assert found.unknown == []


def test_rules_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """`tabletop rules GAME`: the table and its summary; a game without a section list is
    one clear line and a non-zero exit."""
    assert main(["rules", "iwo_1945"]) == 0
    out = capsys.readouterr().out
    assert "6.0      Sequence of Play" in out and "0 unaccounted for" in out
    assert main(["rules", "tests.core.piggame:GAME"]) == 2
    assert "ships no data/sections.yaml" in capsys.readouterr().err


def test_collect_reads_data_sections(tmp_path: Path) -> None:
    """Coverage: a data file's `section:` field cites its section (a table, a phase)."""
    code = tmp_path / "g"
    (code / "data").mkdir(parents=True)
    (code / "data" / "seq.yaml").write_text('phases:\n  - {id: a, section: "5.1"}\n',
                                            encoding="utf-8")
    found = collect(code, None, ["5.1"])
    assert found.hooks == {"5.1": ["data/seq.yaml"]}


def test_a_drafted_sections_list_finds_every_numbered_rule_of_the_example(tmp_path: Path) -> None:
    """`tabletop sections RULES.md` drafts data/sections.yaml from Markdown headings
    (``## 1.0 Components``), rules at the start of a line and rules run in after a ``;``
    (``2.1 Blue movement; 2.2 Blue combat``): every section the example ships, in order;
    the file it writes loads as a sections list, and is not overwritten without --force."""
    from tabletop.core.designer.coverage import draft_sections

    rules = ROOT / "docs" / "example" / "skirmish"
    shipped = load_sections(rules)
    found = draft_sections((rules / "RULES.md").read_text(encoding="utf-8"))
    assert [sid for sid, _ in found] == [s.id for s in shipped.sections]
    assert dict(found)["2.2"] == "Blue combat" and dict(found)["1.0"] == "Components"
    data = tmp_path / "data"
    data.mkdir()
    assert main(["sections", str(rules / "RULES.md"), "-o", str(data / "sections.yaml")]) == 0
    drafted = load_sections(tmp_path)
    assert [s.id for s in drafted.sections] == [s.id for s in shipped.sections]
    assert drafted.rulebook == "RULES.md"
    assert main(["sections", str(rules / "RULES.md"), "-o", str(data / "sections.yaml")]) != 0
