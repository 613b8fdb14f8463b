"""Tests of core/engine/tables.py: key syntax, coverage checks at load, lookups, clamping and odds."""

from __future__ import annotations

import copy
import itertools
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.engine.data import load_model
from tabletop.core.engine.errors import DataError, TabletopError
from tabletop.core.engine.tables import (
    Span,
    Table,
    TableSpec,
    dice_totals,
    load_tables,
    parse_dice,
    parse_span,
)

CRT_YAML = """\
id: crt
name: Combat Results Table
section: "9.1"
dice: 1d6
columns: ["<=-4", "-3", "-2..-1", "0", "+1", "+2", "+3..+4", ">=+5"]
lines:
  clear:
    1:      [Ae, A3, A2, A1, Ex, D2, D3, De]
    2:      [A3, A2, A1, Ex, D2, D3, De, De]
    "3..4": [A2, A1, Ex, D2, D3, De, De, De]
    5–6:    [A1, Ex, D2, D3, De, De, De, De]
  rough:
    1..2:   [Ae, Ae, A3, A2, A1, Ex, D2, D3]
    3..6:   [A3, A2, A1, Ex, D2, D3, De, De]
line_shifts:
  woods: {of: clear, shift: -2}
results:
  Ae: Attacker eliminated
  A3: Attacker retreats 3
  A2: Attacker retreats 2
  A1: Attacker retreats 1
  Ex: Exchange
  D2: Defender retreats 2
  D3: Defender retreats 3
  De: Defender eliminated
"""

CRMT_YAML = """\
id: crmt
name: Combat Results Modification Table
section: "9.2"
keyed_by: name
row_keys: names
columns: [Regular, Dug-In, Bombardment]
lines:
  default:
    De*: [De, De, "(D)"]
    D3: [D3, "1–3: De, 4–6: (A) DR", "(D)"]
    NE: [NE, NE, NE]
"""

TWO_D6: dict[str, Any] = {
    "id": "jat",
    "name": "Japanese Attack Table",
    "section": "IX",
    "dice": "2d6",
    "columns": ["1", "2..3", "4..6", "7..9", "10"],
    "clamp_columns": True,
    "lines": {
        "default": {
            "2..4": ["-", "-", "1", "1", "2"],
            "5..7": ["-", "-", "-", "1", "1"],
            "8..12": ["-", "-", "-", "-", "1"],
        }
    },
}


def write(tmp_path: Path, name: str, text: str) -> Path:
    """Write a data file into the test's directory and return its path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def crt(tmp_path: Path) -> Table:
    """The example CRT, loaded from a YAML file."""
    return Table.load(write(tmp_path, "crt.yaml", CRT_YAML))


def crt_data() -> dict[str, Any]:
    """A fresh, mutable copy of the example CRT's data, for tests that break it."""
    import yaml

    data: dict[str, Any] = yaml.safe_load(CRT_YAML)
    return copy.deepcopy(data)


def load_error(data: dict[str, Any]) -> str:
    """The message of the DataError that loading ``data`` as "crt.yaml" raises."""
    with pytest.raises(DataError) as info:
        Table.from_data(data, source="games/x/data/crt.yaml")
    message = str(info.value)
    assert message.startswith("games/x/data/crt.yaml: ")
    assert "table 'crt'" in message
    return message


# -- key syntax -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "low", "high"),
    [
        (3, 3, 3),
        (-3, -3, -3),
        ("3", 3, 3),
        ("-3", -3, -3),
        ("+3", 3, 3),
        ("−3", -3, -3),  # U+2212 minus sign
        ("–3", -3, -3),  # a leading en dash is a minus sign
        ("3..4", 3, 4),
        (" 3 .. 4 ", 3, 4),
        ("-2..-1", -2, -1),
        ("+3..+4", 3, 4),
        ("5..5", 5, 5),
        ("<=-4", None, -4),
        ("<= 4", None, 4),
        ("≤-4", None, -4),
        (">=+5", 5, None),
        ("≥5", 5, None),
        ("1–3", 1, 3),  # en dash
        ("1—3", 1, 3),  # em dash
        ("1-3", 1, 3),
        ("1 - 3", 1, 3),
        ("-3-1", -3, 1),
        ("-3--1", -3, -1),
        ("−3–−1", -3, -1),
    ],
)
def test_parse_span_accepts_every_key_form(key: int | str, low: int | None,
                                           high: int | None) -> None:
    """Each documented key form parses to the right span, keeping the label as written."""
    span = parse_span(key)
    assert (span.low, span.high) == (low, high)
    assert span.label == str(key).strip()


@pytest.mark.parametrize("key", ["3...4", "x", "", "1-", "<=", "3+", "4..3", "1--3", "1 2",
                                 "<=1..2", "2.5"])
def test_parse_span_rejects_other_text(key: str) -> None:
    """Malformed keys and downward ranges raise ValueError quoting the key."""
    with pytest.raises(ValueError, match=r"runs downwards|is not a key") as info:
        parse_span(key)
    assert repr(key) in str(info.value)


def test_span_contains_respects_open_ends() -> None:
    """An open span runs on without end on its open side and stops at its bound."""
    assert Span(None, -4, "<=-4").contains(-100)
    assert not Span(None, -4, "<=-4").contains(-3)
    assert Span(5, None, ">=5").contains(99)
    assert Span(3, 4, "3..4").contains(4) and not Span(3, 4, "3..4").contains(5)


@pytest.mark.parametrize(("text", "dice"), [("1d6", (1, 6)), ("2D6", (2, 6)), ("d10", (1, 10)),
                                            (" 3d6 ", (3, 6))])
def test_parse_dice_reads_nds(text: str, dice: tuple[int, int]) -> None:
    """NdS notation gives (count, sides); a missing count means one die."""
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["6", "0d6", "1d1", "2d", "2x6", "d66 + 1"])
def test_parse_dice_rejects_other_text(text: str) -> None:
    """Anything but NdS with at least one die of two sides is a ValueError."""
    with pytest.raises(ValueError, match=re.escape(repr(text))):
        parse_dice(text)


# -- the dice distribution --------------------------------------------------------------------


def brute_totals(count: int, sides: int) -> dict[int, Fraction]:
    """Every face combination enumerated: the reference the convolution must match."""
    counts = Counter(sum(faces) for faces in itertools.product(range(1, sides + 1),
                                                               repeat=count))
    return {t: Fraction(n, sides**count) for t, n in sorted(counts.items())}


@pytest.mark.parametrize(("count", "sides"), [(1, 6), (2, 6), (3, 6), (2, 10), (4, 4), (1, 2)])
def test_dice_totals_match_enumeration(count: int, sides: int) -> None:
    """dice_totals equals brute-force enumeration, runs count..count*sides and sums to 1."""
    totals = dice_totals(count, sides)
    assert totals == brute_totals(count, sides)
    assert list(totals) == list(range(count, count * sides + 1))
    assert sum(totals.values()) == 1


def test_dice_totals_of_2d6() -> None:
    """2d6: a 7 comes up 6 times in 36, a 2 once."""
    totals = dice_totals(2, 6)
    assert totals[7] == Fraction(1, 6) and totals[2] == Fraction(1, 36)


def test_dice_totals_refuses_no_dice() -> None:
    """Zero dice is an error, not an empty distribution."""
    with pytest.raises(TabletopError):
        dice_totals(0, 6)


# -- loading and reading a table --------------------------------------------------------------


def test_load_reads_the_header(crt: Table) -> None:
    """id, name, section, column labels as written, lines (shifted ones last) and dice."""
    assert (crt.id, crt.name, crt.section) == ("crt", "Combat Results Table", "9.1")
    assert crt.columns == ("<=-4", "-3", "-2..-1", "0", "+1", "+2", "+3..+4", ">=+5")
    assert crt.lines == ("clear", "rough", "woods")
    assert crt.dice == (1, 6)
    assert crt.results is not None and crt.results["Ex"] == "Exchange"


@pytest.mark.parametrize(("value", "index"), [(-99, 0), (-4, 0), (-3, 1), (-2, 2), (-1, 2),
                                              (0, 3), (1, 4), (2, 5), (3, 6), (4, 6), (5, 7),
                                              (40, 7)])
def test_column_index_finds_the_column(crt: Table, value: int, index: int) -> None:
    """A value reads the column whose key holds it; open end columns hold everything beyond."""
    assert crt.column_index(value) == index


def test_lookup_reads_ranges_of_rows(crt: Table) -> None:
    """A roll reads the row whose key ("3..4", "5–6") holds it, on the chosen line."""
    assert crt.lookup(0, 3, line="clear") == "D2"
    assert crt.lookup(0, 4, line="clear") == "D2"
    assert crt.lookup(0, 6, line="clear") == "D3"
    assert crt.lookup(0, 2, line="rough") == "A2"
    assert crt.lookup(-1, 1, line="clear") == "A2"


def test_line_shift_reads_another_line_shifted(crt: Table) -> None:
    """line_shifts: woods is clear read two columns to the left, clamped at the edge."""
    for roll in range(1, 7):
        assert crt.lookup(2, roll, line="woods") == crt.lookup(0, roll, line="clear")
        assert crt.lookup(-3, roll, line="woods") == crt.lookup(-4, roll, line="clear")
    assert crt.rows("woods")[0] == ("1", ("Ae", "Ae", "Ae", "A3", "A2", "A1", "Ex", "D2"))


def test_line_shift_and_lookup_shift_add_before_clamping(crt: Table) -> None:
    """A line's shift and a lookup's shift add up first, then clamp once at the edges."""
    # +5 is the last column; woods (-2) and a +2 shift cancel out.
    assert crt.lookup(5, 1, line="woods", shift=2) == crt.lookup(5, 1, line="clear")


def test_result_at_reads_a_cell_by_index(crt: Table) -> None:
    """result_at reads a column index and a roll directly, applying the line's shift."""
    assert crt.result_at(3, 3, line="clear") == "D2"
    assert crt.result_at(3, 3, line="woods") == crt.result_at(1, 3, line="clear")
    with pytest.raises(TabletopError, match="column index 8"):
        crt.result_at(8, 3, line="clear")
    with pytest.raises(TabletopError, match="no row for a roll of 7"):
        crt.result_at(0, 7, line="clear")


def test_unknown_line_names_the_lines(crt: Table) -> None:
    """Asking for a line the table lacks is a TabletopError listing its lines."""
    with pytest.raises(TabletopError, match=r"no line 'swamp'.*clear, rough, woods"):
        crt.lookup(0, 1, line="swamp")
    with pytest.raises(TabletopError, match="no line 'default'"):
        crt.lookup(0, 1)


def test_single_line_answers_to_default() -> None:
    """A table with one line reads it as "default", whatever it is called."""
    data = copy.deepcopy(TWO_D6)
    data["lines"] = {"all": data["lines"]["default"]}
    table = Table.from_data(data)
    assert table.lookup(10, 2) == table.lookup(10, 2, line="all") == "2"


# -- clamping -----------------------------------------------------------------------------------


def test_shift_clamps_at_the_edges(crt: Table) -> None:
    """A column shift moves right (+) or left (-) and stops at the first/last column."""
    assert crt.lookup(0, 1, line="clear", shift=1) == "Ex"
    assert crt.lookup(0, 1, line="clear", shift=-2) == "A3"
    assert crt.lookup(0, 1, line="clear", shift=+20) == "De"
    assert crt.lookup(0, 1, line="clear", shift=-20) == "Ae"


def test_modifier_clamps_to_first_and_last_row(crt: Table) -> None:
    """A modifier is added to the roll; a modified roll beyond the rows reads the end row."""
    assert crt.lookup(0, 2, line="clear", modifier=+1) == crt.lookup(0, 3, line="clear")
    assert crt.lookup(0, 6, line="clear", modifier=+3) == crt.lookup(0, 6, line="clear")
    assert crt.lookup(0, 1, line="clear", modifier=-3) == crt.lookup(0, 1, line="clear")


def test_natural_roll_must_be_possible(crt: Table) -> None:
    """lookup takes the natural roll: one the dice cannot show is a TabletopError."""
    with pytest.raises(TabletopError, match="7 is not a roll of 1d6"):
        crt.lookup(0, 7, line="clear")
    with pytest.raises(TabletopError, match="not a roll"):
        crt.lookup(0, "3", line="clear")


def test_value_beyond_closed_columns_is_an_error() -> None:
    """Without clamp_columns, a value outside closed end columns raises, naming the range."""
    data = copy.deepcopy(TWO_D6)
    data["clamp_columns"] = False
    table = Table.from_data(data)
    with pytest.raises(TabletopError, match=r"table 'jat' \(section IX\) has no column for 11"):
        table.lookup(11, 7)
    with pytest.raises(TabletopError, match="no column for 0"):
        table.column_index(0)


def test_clamp_columns_reads_the_end_columns() -> None:
    """With clamp_columns, a value beyond the first/last column reads that column (10 is 10)."""
    table = Table.from_data(TWO_D6)
    assert table.column_index(0) == 0
    assert table.column_index(14) == 4
    assert table.lookup(14, 2) == table.lookup(10, 2) == "2"


def test_value_must_be_a_number(crt: Table) -> None:
    """A value-keyed table refuses a name or a bool as its value."""
    with pytest.raises(TabletopError, match="read by a number"):
        crt.column_index("0")
    with pytest.raises(TabletopError, match="read by a number"):
        crt.column_index(True)


# -- a 2d6 table -----------------------------------------------------------------------------


def test_two_d6_table_lookup_and_odds() -> None:
    """A 2d6 table: rows cover 2..12, odds follow the triangle distribution."""
    table = Table.from_data(TWO_D6)
    assert table.dice == (2, 6)
    assert table.lookup(5, 4) == "1" and table.lookup(5, 5) == "-"
    assert table.odds(5) == {"1": Fraction(6, 36), "-": Fraction(30, 36)}
    assert table.odds(10) == {"2": Fraction(6, 36), "1": Fraction(30, 36)}
    assert table.odds(5, modifier=-1) == {"1": Fraction(10, 36), "-": Fraction(26, 36)}


# -- odds ---------------------------------------------------------------------------------------


def brute_odds(table: Table, value: int | str, *, line: str, shift: int = 0,
               modifier: int = 0) -> dict[str, Fraction]:
    """Every face combination looked up one by one: the reference for Table.odds."""
    assert table.dice is not None
    count, sides = table.dice
    results = Counter(table.lookup(value, sum(faces), line=line, shift=shift, modifier=modifier)
                      for faces in itertools.product(range(1, sides + 1), repeat=count))
    return {r: Fraction(n, sides**count) for r, n in results.items()}


def test_odds_sum_to_one_and_match_enumeration(crt: Table) -> None:
    """For every column, line, shift and modifier, odds equal enumeration and sum to 1."""
    for value, line, shift, modifier in itertools.product(range(-5, 7), crt.lines,
                                                          (-1, 0, 2), (-2, 0, 1)):
        odds = crt.odds(value, line=line, shift=shift, modifier=modifier)
        assert sum(odds.values()) == 1
        assert odds == brute_odds(crt, value, line=line, shift=shift, modifier=modifier)
        assert all(p > 0 for p in odds.values())


def test_odds_follow_the_legend_order(crt: Table) -> None:
    """With a legend, odds list results in legend order, not row order."""
    assert list(crt.odds(0, line="rough")) == ["A2", "Ex"]
    assert crt.odds(0, line="rough") == {"A2": Fraction(1, 3), "Ex": Fraction(2, 3)}


def test_describe_odds_is_one_line(crt: Table) -> None:
    """describe_odds gives "result p, ..." as fractions, or as rounded percentages."""
    assert crt.describe_odds(0, line="clear") == "A1 1/6, Ex 1/6, D2 1/3, D3 1/3"
    assert crt.describe_odds(0, line="clear", percent=True) == "A1 17%, Ex 17%, D2 33%, D3 33%"
    assert crt.describe_odds(40, line="clear", modifier=5) == "De 1"


# -- coverage and format errors -----------------------------------------------------------------


def test_gap_in_rows_is_named() -> None:
    """Rows leaving a total uncovered: the error names the line and the missing total."""
    data = crt_data()
    rows = data["lines"]["clear"]
    rows["3"] = rows.pop("3..4")
    message = load_error(data)
    assert "lines.clear" in message and "no row covers 4, between '3' and '5–6'" in message


def test_overlapping_rows_are_named() -> None:
    """Two rows covering the same total: the error names both rows and the total."""
    data = crt_data()
    data["lines"]["rough"]["2..6"] = data["lines"]["rough"].pop("3..6")
    message = load_error(data)
    assert "lines.rough" in message and "rows '1..2' and '2..6' both cover 2" in message


def test_missing_end_rows_are_named() -> None:
    """Rows that stop short of the lowest or highest total: the error names the totals."""
    data = crt_data()
    del data["lines"]["clear"][1]
    del data["lines"]["clear"]["5–6"]
    message = load_error(data)
    assert "line 'clear': no row covers 1 (1d6 totals run 1..6)" in message
    assert "line 'clear': no row covers 5..6" in message


def test_row_beyond_the_dice_is_named() -> None:
    """A row for a total the dice cannot roll is an error unless modified_rows is set."""
    data = crt_data()
    data["lines"]["rough"]["3..7"] = data["lines"]["rough"].pop("3..6")
    message = load_error(data)
    assert "lines.rough.3..7" in message and "reaches 7, which 1d6 cannot roll" in message
    data["modified_rows"] = True
    assert Table.from_data(data).lookup(0, 6, line="rough", modifier=1) == "Ex"


def test_wrong_cell_count_is_named() -> None:
    """A row with too few results: the error names line, row and both counts."""
    data = crt_data()
    data["lines"]["clear"][2] = data["lines"]["clear"][2][:-1]
    message = load_error(data)
    assert "lines.clear.2:" in message and "row '2' has 7 results, expected 8" in message


def test_unknown_result_is_named_once() -> None:
    """A cell outside the legend: one error per result, naming line, row and column."""
    data = crt_data()
    data["lines"]["rough"]["3..6"][1] = "A9"
    data["lines"]["clear"][1][1] = "A9"
    message = load_error(data)
    assert message.count("'A9'") == 1
    assert ("lines.clear.1.1:" in message
            and "result 'A9' (line 'clear', row '1', column '-3' and 1 more cells)" in message)
    assert "expected one of Ae, A3" in message


def test_unknown_line_in_line_shifts_is_named() -> None:
    """A line shift of a line that does not exist: the error names both lines."""
    data = crt_data()
    data["line_shifts"]["woods"]["of"] = "jungle"
    message = load_error(data)
    assert "line_shifts.woods.of:" in message
    assert "line 'woods' shifts line 'jungle', which does not exist" in message


def test_line_shift_cycles_and_duplicates_are_named() -> None:
    """A line shifting itself, or defined both in lines and line_shifts, is an error."""
    data = crt_data()
    data["line_shifts"] = {"a": {"of": "b", "shift": 1}, "b": {"of": "a", "shift": 1},
                           "rough": {"of": "clear", "shift": 1}}
    message = load_error(data)
    assert "line 'a' is a shift of itself (a -> b -> a)" in message
    assert "line 'rough' is given both in lines and in line_shifts" in message


def test_chained_line_shifts_add_up(crt: Table) -> None:
    """A line may shift a shifted line; the shifts add up."""
    data = crt_data()
    data["line_shifts"]["swamp"] = {"of": "woods", "shift": -1}
    table = Table.from_data(data)
    assert table.lookup(3, 1, line="swamp") == crt.lookup(0, 1, line="clear")


@pytest.mark.parametrize(
    ("columns", "expected"),
    [
        (["<=-4", "-3", "-1", "0"], "no column holds -2, between '-3' and '-1'"),
        (["<=-4", "-4..-3", "-2", "-1"], "columns '<=-4' and '-4..-3' both hold -4"),
        (["0", "-1", "1", "2"], "column '-1' comes after '0' but is lower"),
        (["0", ">=1", "2", "3"], "only the last column may be open-ended upwards"),
        (["0", "1", "<=2", "3"], "only the first column may be open-ended downwards"),
        (["0", "1", "two", "3"], "column 'two' is not a key"),
    ],
)
def test_bad_columns_are_named(columns: list[str], expected: str) -> None:
    """Columns must ascend with no gap or overlap and open ends only at the ends."""
    data = copy.deepcopy(TWO_D6)
    data["columns"] = columns
    for rows in data["lines"].values():
        for key in rows:
            rows[key] = rows[key][:4]
    with pytest.raises(DataError, match="columns") as info:
        Table.from_data(data, source="jat.yaml")
    assert expected in str(info.value)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"dice": "six"}, "dice: table 'crt': 'six' is not dice"),
        ({"dice": None}, "dice (NdS, e.g. 1d6) is required"),
        ({"section": 9.1}, "write the section in quotes"),
        ({"keyed_by": "names"}, "keyed_by"),
        ({"lines": {}}, "lines"),
        ({"colour": "red"}, "colour: Extra inputs are not permitted"),
    ],
)
def test_header_errors_are_named(change: dict[str, Any], expected: str) -> None:
    """Bad dice, an unquoted section, unknown options and keys are errors naming the field."""
    data = crt_data()
    data.update(change)
    with pytest.raises(DataError) as info:
        Table.from_data(data, source="crt.yaml")
    assert str(info.value).startswith("crt.yaml: ") and expected in str(info.value)


@pytest.mark.parametrize(("cell", "expected"), [(True, "booleans"), (None, "empty cell"),
                                                ("  ", "empty cell")])
def test_bad_cells_are_named(cell: Any, expected: str) -> None:
    """A cell YAML read as a bool, or an empty one, is an error naming line, row and column."""
    data = crt_data()
    data["lines"]["clear"][2][3] = cell
    with pytest.raises(DataError, match=r"lines\.clear\.2\.3") as info:
        Table.from_data(data, source="crt.yaml")
    assert expected in str(info.value)


def test_numbers_in_cells_and_legend_are_text() -> None:
    """Numbers written as results (and as legend keys) are stored as text."""
    data = copy.deepcopy(TWO_D6)
    data["lines"]["default"]["2..4"] = [0, 0, 1, 1, 2]
    data["results"] = {"-": "no effect", 0: "none", 1: "one step", 2: "two steps"}
    table = Table.from_data(data)
    assert table.lookup(1, 2) == "0" and table.lookup(10, 3) == "2"


def test_errors_in_a_file_name_the_file(tmp_path: Path) -> None:
    """Table.load and load_model(TableSpec) both name the file in a coverage error."""
    path = write(tmp_path, "crt.yaml", CRT_YAML.replace('"3..4":', '"3":'))
    for load in (Table.load, lambda p: load_model(TableSpec, p)):
        with pytest.raises(DataError, match=rf"^{path}: lines\.clear: table 'crt': .*covers 4"):
            load(path)


def test_from_spec_checks_an_unvalidated_model() -> None:
    """A TableSpec built without validation is still checked by Table.from_spec."""
    spec = TableSpec.model_construct(**{**crt_data(), "line_shifts": {}, "dice": "2d6"})
    with pytest.raises(DataError, match=r"no row covers 7\.\.12"):
        Table.from_spec(spec)


# -- tables keyed by name -------------------------------------------------------------------


def test_name_keyed_table(tmp_path: Path) -> None:
    """keyed_by: name and row_keys: names: the column and row are names; no dice, no odds."""
    table = Table.load(write(tmp_path, "crmt.yaml", CRMT_YAML))
    assert table.columns == ("Regular", "Dug-In", "Bombardment")
    assert table.dice is None
    assert table.lookup("Dug-In", "D3") == "1–3: De, 4–6: (A) DR"
    assert table.lookup("Regular", "De*", shift=2) == "(D)"
    assert [label for label, _ in table.rows()] == ["De*", "D3", "NE"]
    with pytest.raises(TabletopError, match=r"no column 'Dug-in'.*Regular, Dug-In, Bombardment"):
        table.lookup("Dug-in", "D3")
    with pytest.raises(TabletopError, match="no row 'D9'"):
        table.lookup("Regular", "D9")
    with pytest.raises(TabletopError, match="odds do not apply"):
        table.odds("Regular")
    with pytest.raises(TabletopError, match="modifier"):
        table.lookup("Regular", "D3", modifier=1)


def test_name_keyed_columns_with_dice_rows_have_odds() -> None:
    """Columns keyed by name over dice-total rows: lookup by name, odds still apply."""
    data = {"id": "storm", "name": "Storm Table", "section": "6.1", "dice": "1d6",
            "keyed_by": "name", "columns": ["Clear", "Storm"],
            "lines": {"default": {"1..4": ["Clear", "Storm"], "5..6": ["Storm", "Clear"]}}}
    table = Table.from_data(data)
    assert table.lookup("Storm", 5) == "Clear"
    assert table.odds("Clear") == {"Clear": Fraction(2, 3), "Storm": Fraction(1, 3)}


def test_name_keyed_errors_are_named() -> None:
    """Named rows that differ between lines, repeated names and dice on named rows fail."""
    import yaml

    data = yaml.safe_load(CRMT_YAML)
    data["lines"]["banzai"] = {"De*": ["a", "b", "c"], "D9": ["a", "b", "c"]}
    data["columns"] = ["Regular", "Dug-In", "Regular"]
    data["dice"] = "1d6"
    with pytest.raises(DataError) as info:
        Table.from_data(data, source="crmt.yaml")
    message = str(info.value)
    assert "dice: table 'crmt': a table whose rows are names is not rolled on" in message
    assert "columns.2: table 'crmt': column 'Regular' appears twice" in message
    assert "line 'banzai' lacks 'D3', 'NE' and adds 'D9'" in message


# -- modified rows ------------------------------------------------------------------------------


def test_modified_rows_extend_beyond_the_dice() -> None:
    """modified_rows: rows "<=0" and ">=7" on 1d6 are read by modified rolls only."""
    data = {"id": "fire", "name": "Fire Table", "section": "10.3", "dice": "1d6",
            "modified_rows": True, "columns": ["<=3", "4..6", ">=7"],
            "lines": {"default": {"≤0": ["K", "K", "K"], "1..3": ["S", "S", "K"],
                                  "4..6": ["-", "-", "S"], "≥7": ["-", "-", "-"]}}}
    table = Table.from_data(data)
    assert table.lookup(5, 1, modifier=-1) == "K"
    assert table.lookup(5, 1, modifier=-9) == "K"
    assert table.lookup(5, 6, modifier=+1) == "-"
    assert table.odds(5, modifier=-2) == {"K": Fraction(1, 3), "S": Fraction(1, 2),
                                          "-": Fraction(1, 6)}
    data["modified_rows"] = False
    with pytest.raises(DataError, match="row '≤0' reaches 0, which 1d6 cannot roll"):
        Table.from_data(data)


# -- loading many tables ------------------------------------------------------------------------


def test_load_tables_from_a_directory_and_a_list_file(tmp_path: Path) -> None:
    """load_tables reads every table file of a directory; a file may hold a list of tables."""
    import yaml

    write(tmp_path, "crt.yaml", CRT_YAML)
    write(tmp_path, "more.yml", yaml.safe_dump([TWO_D6, yaml.safe_load(CRMT_YAML)],
                                               allow_unicode=True))
    write(tmp_path, "notes.txt", "not a table")
    tables = load_tables(tmp_path)
    assert sorted(tables) == ["crmt", "crt", "jat"]
    assert load_tables([tmp_path / "crt.yaml"])["crt"].name == "Combat Results Table"


def test_load_tables_refuses_a_repeated_id(tmp_path: Path) -> None:
    """Two tables with one id: the error names where each was found."""
    write(tmp_path, "a.yaml", CRT_YAML)
    write(tmp_path, "b.yaml", CRT_YAML)
    with pytest.raises(DataError, match=r"b\.yaml: table id 'crt' is already used in .*a\.yaml"):
        load_tables(tmp_path)


def test_list_file_errors_name_the_entry(tmp_path: Path) -> None:
    """An error in the second table of a list file names the file and the entry."""
    import yaml

    bad = copy.deepcopy(TWO_D6)
    bad["dice"] = "1d6"
    path = write(tmp_path, "t.yaml", yaml.safe_dump([yaml.safe_load(CRMT_YAML), bad],
                                                    allow_unicode=True))
    with pytest.raises(DataError, match=r"t\.yaml\[1\]: lines\.default.*table 'jat'"):
        load_tables(path)
    with pytest.raises(DataError, match="list of tables"):
        Table.load(path)


# -- property tests -------------------------------------------------------------------------------


@dataclass
class Drawn:
    """A randomly drawn valid table and what its data says, worked out independently."""

    data: dict[str, Any]
    values: range  # values worth asking about: the columns' run and a margin either side
    column_of: dict[int, int]  # value -> column index, inside the closed run
    first_open: bool
    last_open: bool
    rows: dict[str, list[tuple[int | None, int | None, list[str]]]]  # base line -> rows
    line_shift: dict[str, tuple[str, int]]  # line -> (base line, shift)


def label(a: int, b: int, style: str) -> int | str:
    """Write the span a..b in one of the accepted key styles."""
    if a == b:
        return a if style == ".." else f"{a:+d}" if style == "-" else str(a)
    return f"{a}{style}{b}"


@st.composite
def drawn_tables(draw: st.DrawFn) -> Drawn:
    """Draw a valid value-keyed table over small dice, with its expected reading."""
    count, sides = draw(st.integers(1, 3)), draw(st.sampled_from([2, 3, 4, 6]))
    lo, hi = count, count * sides
    styles = st.sampled_from(["..", "-", "–"])
    ncols = draw(st.integers(1, 5))
    start = draw(st.integers(-6, 6))
    widths = draw(st.lists(st.integers(1, 3), min_size=ncols, max_size=ncols))
    first_open = draw(st.booleans())
    last_open = draw(st.booleans()) and not (ncols == 1 and first_open)
    columns: list[int | str] = []
    column_of: dict[int, int] = {}
    a = start
    for i, w in enumerate(widths):
        b = a + w - 1
        column_of.update({v: i for v in range(a, b + 1)})
        if i == 0 and first_open:
            columns.append(f"<={b}")
        elif i == ncols - 1 and last_open:
            columns.append(f">={a}")
        else:
            columns.append(label(a, b, draw(styles)))
        a = b + 1
    modified = draw(st.booleans())
    rlo, rhi = (lo - draw(st.integers(0, 2)), hi + draw(st.integers(0, 2))) if modified \
        else (lo, hi)
    results = ["A", "B", "C", "D", 7]
    lines: dict[str, dict[int | str, list[Any]]] = {}
    rows: dict[str, list[tuple[int | None, int | None, list[str]]]] = {}
    for n in range(draw(st.integers(1, 3))):
        starts = sorted(draw(st.sets(st.integers(rlo + 1, rhi), max_size=rhi - rlo)))
        bounds = list(zip([rlo, *starts], [s - 1 for s in starts] + [rhi], strict=True))
        drawn_rows = draw(st.permutations(bounds))  # rows may be written in any order
        line_rows: dict[int | str, list[Any]] = {}
        expected = []
        for r_lo, r_hi in drawn_rows:
            cells = draw(st.lists(st.sampled_from(results), min_size=ncols, max_size=ncols))
            low: int | None = r_lo
            high: int | None = r_hi
            if modified and r_lo == rlo and draw(st.booleans()):
                key: int | str = f"≤{r_hi}"
                low = None
            elif modified and r_hi == rhi and draw(st.booleans()):
                key, high = f"≥{r_lo}", None
            else:
                key = label(r_lo, r_hi, draw(styles))
            line_rows[key] = cells
            expected.append((low, high, [str(c) for c in cells]))
        lines[f"line{n}"] = line_rows
        rows[f"line{n}"] = sorted(expected, key=lambda r: r[1] if r[1] is not None else 99)
    line_shift = {name: (name, 0) for name in lines}
    line_shifts = {}
    if draw(st.booleans()):
        shift = draw(st.integers(-3, 3))
        line_shifts["shifted"] = {"of": "line0", "shift": shift}
        line_shift["shifted"] = ("line0", shift)
    data = {"id": "t", "name": "Drawn", "dice": f"{count}d{sides}", "columns": columns,
            "clamp_columns": draw(st.booleans()), "modified_rows": modified, "lines": lines,
            "line_shifts": line_shifts}
    if draw(st.booleans()):
        data["results"] = {str(r): f"result {r}" for r in results}
    end = start + sum(widths) - 1
    return Drawn(data, range(start - 3, end + 4), column_of, first_open, last_open, rows,
                 line_shift)


def expected_result(d: Drawn, value: int, total: int, line: str, shift: int,
                    modifier: int) -> str | None:
    """What the drawn data says a lookup gives, or None when the value has no column."""
    ncols = len(d.data["columns"])
    if value in d.column_of:
        col = d.column_of[value]
    elif value < min(d.column_of) and (d.first_open or d.data["clamp_columns"]):
        col = 0
    elif value > max(d.column_of) and (d.last_open or d.data["clamp_columns"]):
        col = ncols - 1
    else:
        return None
    base, line_shift = d.line_shift[line]
    col = max(0, min(ncols - 1, col + line_shift + shift))
    rows = d.rows[base]
    first_low, last_high = rows[0][0], rows[-1][1]
    roll = total + modifier
    if first_low is not None:
        roll = max(first_low, roll)
    if last_high is not None:
        roll = min(last_high, roll)
    for low, high, cells in rows:
        if (low is None or roll >= low) and (high is None or roll <= high):
            return cells[col]
    raise AssertionError(f"drawn rows do not cover {roll}")


@given(drawn_tables(), st.data())
def test_lookup_agrees_with_the_data(d: Drawn, data: st.DataObject) -> None:
    """For random valid tables, every lookup reads the cell the data file puts there."""
    table = Table.from_data(d.data, source="drawn.yaml")
    assert table.dice is not None
    count, sides = table.dice
    value = data.draw(st.sampled_from(d.values))
    line = data.draw(st.sampled_from(table.lines))
    shift, modifier = data.draw(st.integers(-4, 4)), data.draw(st.integers(-4, 4))
    for total in range(count, count * sides + 1):
        expected = expected_result(d, value, total, line, shift, modifier)
        if expected is None:
            with pytest.raises(TabletopError, match="no column for"):
                table.lookup(value, total, line=line, shift=shift, modifier=modifier)
        else:
            assert table.lookup(value, total, line=line, shift=shift,
                                modifier=modifier) == expected


@given(drawn_tables(), st.data())
def test_odds_agree_with_lookup(d: Drawn, data: st.DataObject) -> None:
    """For random valid tables, odds sum to 1, equal enumeration of every face combination,
    and every result with a probability above 0 is one some roll actually gives."""
    table = Table.from_data(d.data, source="drawn.yaml")
    value = data.draw(st.sampled_from(sorted(d.column_of)))
    line = data.draw(st.sampled_from(table.lines))
    shift, modifier = data.draw(st.integers(-4, 4)), data.draw(st.integers(-4, 4))
    odds = table.odds(value, line=line, shift=shift, modifier=modifier)
    assert sum(odds.values()) == 1
    assert odds == brute_odds(table, value, line=line, shift=shift, modifier=modifier)
    assert all(p > 0 for p in odds.values())
    assert table.describe_odds(value, line=line, shift=shift, modifier=modifier).count(",") \
        == len(odds) - 1


# -- the reference stays true -------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "tables.md"


def test_docs_examples_load() -> None:
    """Every table written out in docs/tables.md loads, and its main example reads as shown."""
    import yaml

    blocks = re.findall(r"```yaml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    tables = {t.id: t for t in (Table.from_data(yaml.safe_load(b), source="docs/tables.md")
                                for b in blocks if b.startswith("id:"))}
    assert sorted(tables) == ["crmt", "crt", "fire"]
    crt = tables["crt"]
    assert crt.lookup(+2, 3, line="clear") == "De"
    assert crt.lookup(0, 6, line="rough", modifier=+1) == "Ex"
    assert crt.describe_odds(0, line="clear") == "A1 1/6, Ex 1/6, D2 1/3, D3 1/3"
    assert tables["crmt"].lookup("Dug-In", "D3") == "1–3: De, 4–6: (A) DR"
    assert tables["fire"].lookup(2, 1, modifier=-1) == "S"
