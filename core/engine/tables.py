"""Lookup tables written as data: CRTs and the like, checked for full coverage at load.

A table crosses *columns* (a number such as a combat differential or strength, or a
plain name such as "Dug-In") with *rows* (a dice total, or a plain name such as a CRT
result) on one of several *lines* (e.g. the defender's terrain). The YAML format is
described, with a complete example, in ``docs/tables.md``.

Every table is validated when it is loaded: columns ascending with no gap or overlap,
rows covering every possible dice total exactly once, one result per column in every
row, every result in the legend. A table rolled on with dice reports the exact odds of
each of its results (:meth:`Table.odds`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StrictInt, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError, ValidationError

from .data import Section, StrictModel, read_data_file, validate
from .errors import DataError, TabletopError

__all__ = [
    "LineShift",
    "Span",
    "Table",
    "TableSpec",
    "dice_totals",
    "load_tables",
    "parse_dice",
    "parse_span",
]

TABLE_SUFFIXES = (".yaml", ".yml", ".json")

# -- keys: "3", "-3", "+1", "3..4", "<=-4", ">=+5", "≤N", "≥N", "A–B", "A-B" ---------------

_SIGN = r"[+\-–—]"  # a leading en or em dash is read as a minus sign too
_NUM = rf"{_SIGN}?\d+"
_SINGLE = re.compile(rf"(?P<op><=|>=)?\s*(?P<n>{_NUM})")
# A hyphen or dash right after a digit separates a range ("1-3", "-3-1"); elsewhere it is
# a sign. The first number ends in a digit, so "-3" can never be read as a range.
_RANGE = re.compile(rf"(?P<a>{_NUM})\s*(?:\.\.|-|–|—)\s*(?P<b>{_NUM})")
_KEY_FORMS = "N, A..B, <=N or >=N"


@dataclass(frozen=True, slots=True)
class Span:
    """A contiguous run of integers a column or row key stands for; None marks an open end."""

    low: int | None
    high: int | None
    label: str

    def contains(self, n: int) -> bool:
        """Whether the integer ``n`` falls in this span."""
        return (self.low is None or n >= self.low) and (self.high is None or n <= self.high)

    @property
    def is_open(self) -> bool:
        """True for "<=N" and ">=N" keys, which run on without end on one side."""
        return self.low is None or self.high is None

    def __str__(self) -> str:
        return self.label


def _to_int(text: str) -> int:
    return int(text.replace("–", "-").replace("—", "-"))


def parse_span(key: int | str) -> Span:
    """Parse a column or row key ("3", "-3..-1", "<=-4", "≥+5", "1–3") into a Span.

    Raises ValueError quoting the key when it is none of the accepted forms, or when a
    range runs downwards.
    """
    if isinstance(key, bool) or not isinstance(key, int | str):
        raise ValueError(f"{key!r} is not a key (expected {_KEY_FORMS})")
    if isinstance(key, int):
        return Span(key, key, str(key))
    label = key.strip()
    text = label.replace("≤", "<=").replace("≥", ">=").replace("−", "-")
    if m := _SINGLE.fullmatch(text):
        n = _to_int(m["n"])
        if m["op"] == "<=":
            return Span(None, n, label)
        if m["op"] == ">=":
            return Span(n, None, label)
        return Span(n, n, label)
    if m := _RANGE.fullmatch(text):
        a, b = _to_int(m["a"]), _to_int(m["b"])
        if a > b:
            raise ValueError(f"{key!r} runs downwards: write the smaller number first ({b}..{a})")
        return Span(a, b, label)
    raise ValueError(f"{key!r} is not a key (expected {_KEY_FORMS}, N an integer: "
                     "3, -3, +3..+4, <=-4)")


# -- dice ---------------------------------------------------------------------------------

_DICE = re.compile(r"\s*(?P<count>\d*)\s*[dD]\s*(?P<sides>\d+)\s*")


def parse_dice(text: str) -> tuple[int, int]:
    """Parse "NdS" ("1d6", "2d6", "d10") into (count, sides); raise ValueError otherwise."""
    m = _DICE.fullmatch(text)
    if m is None:
        raise ValueError(f"{text!r} is not dice (expected NdS such as 1d6 or 2d6)")
    count, sides = int(m["count"] or 1), int(m["sides"])
    if not 1 <= count <= 50 or sides < 2:
        raise ValueError(f"{text!r}: expected 1 to 50 dice of at least 2 sides")
    return count, sides


@cache
def _total_counts(count: int, sides: int) -> tuple[tuple[int, int], ...]:
    # Convolution of one die at a time: ways[t] is the number of face tuples summing to t.
    ways = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    return tuple(sorted(ways.items()))


def dice_totals(count: int, sides: int) -> dict[int, Fraction]:
    """The exact probability of each total of ``count`` dice of ``sides`` faces (NdS).

    Totals run from ``count`` to ``count * sides`` in ascending order; the values sum to 1.
    """
    if count < 1 or sides < 1:
        raise TabletopError(f"cannot roll {count}d{sides}")
    outcomes = sides**count
    return {total: Fraction(n, outcomes) for total, n in _total_counts(count, sides)}


# -- the YAML model -------------------------------------------------------------------------


def _cell(value: Any) -> Any:
    """Store numbers written in a cell as text; refuse what YAML turned into bool or null."""
    if isinstance(value, bool):
        raise ValueError("a result must be text or a number (YAML reads yes/no/on/off/"
                         "true/false as booleans: quote it)")
    if value is None:
        raise ValueError("empty cell: write a result (e.g. NE for no effect)")
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str) and not value.strip():
        raise ValueError("empty cell: write a result (e.g. NE for no effect)")
    return value


def _name(value: Any) -> Any:
    """Store a name written as a number (a column or row name, a legend key) as text."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


Cell = Annotated[str, BeforeValidator(_cell)]
Name = Annotated[str, BeforeValidator(_name)]
Key = StrictInt | str


class LineShift(StrictModel):
    """A line given as another line read a number of columns to the left (-) or right (+)."""

    of: str
    shift: StrictInt


class TableSpec(StrictModel):
    """One lookup table as written in a data file; fully checked when it is validated."""

    id: str = Field(min_length=1)
    name: str
    section: Section = ""  # the rulebook section, shown to players
    dice: str | None = None  # "NdS"; required unless row_keys is "names"
    columns: tuple[Key, ...] = Field(min_length=1)
    clamp_columns: bool = False  # a value beyond the first/last column reads that column
    keyed_by: Literal["value", "name"] = "value"  # what a column key is
    row_keys: Literal["totals", "names"] = "totals"  # what a row key is
    modified_rows: bool = False  # rows may go beyond the dice totals, for modified rolls
    lines: dict[str, dict[Key, tuple[Cell, ...]]] = Field(min_length=1)
    line_shifts: dict[str, LineShift] = Field(default_factory=dict)
    results: dict[Name, str] | None = None  # the legend: result -> what it means
    notes: str = ""  # designer's notes (sources, what is reconstructed)

    @model_validator(mode="after")
    def _complete(self) -> TableSpec:
        problems = _Compiler(self).problems
        if problems:
            raise ValidationError.from_exception_data(
                "TableSpec",
                [InitErrorDetails(type=PydanticCustomError("table", "{message}",
                                                           {"message": message}),
                                  loc=loc, input=None)
                 for loc, message in problems])
        return self


# -- compiling a spec into lookup structures ----------------------------------------------

Loc = tuple[int | str, ...]


@dataclass(frozen=True, slots=True)
class _Row:
    label: str
    span: Span | None  # None when rows are names
    cells: tuple[str, ...]


class _Compiler:
    """Checks a TableSpec and builds the structures a Table reads; collects every problem."""

    def __init__(self, spec: TableSpec) -> None:
        self.spec = spec
        self.problems: list[tuple[Loc, str]] = []
        self.dice: tuple[int, int] | None = None
        self.column_spans: tuple[Span, ...] = ()
        self.column_labels: tuple[str, ...] = ()
        self.rows: dict[str, tuple[_Row, ...]] = {}
        self.shifts: dict[str, tuple[str, int]] = {}
        self._unknown: dict[str, list[tuple[Loc, str]]] = {}  # result -> cells giving it
        self._dice()
        self._columns()
        for line, rows in spec.lines.items():
            self.rows[line] = self._line(line, rows)
        if spec.row_keys == "names":
            self._same_row_names()
        self._line_shifts()
        self._legend()

    def fail(self, loc: Loc, message: str) -> None:
        self.problems.append((loc, f"table {self.spec.id!r}: {message}"))

    def _dice(self) -> None:
        spec = self.spec
        if spec.row_keys == "names":
            if spec.dice is not None:
                self.fail(("dice",), "a table whose rows are names is not rolled on: "
                          "leave out dice (or use row_keys: totals)")
            if spec.modified_rows:
                self.fail(("modified_rows",), "modified_rows applies to rows that are "
                          "dice totals, not names")
            return
        if spec.dice is None:
            self.fail(("dice",), "dice (NdS, e.g. 1d6) is required when rows are dice totals")
            return
        try:
            self.dice = parse_dice(spec.dice)
        except ValueError as exc:
            self.fail(("dice",), str(exc))

    def _columns(self) -> None:
        spec = self.spec
        if spec.keyed_by == "name":
            if spec.clamp_columns:
                self.fail(("clamp_columns",), "columns keyed by name have no edges to "
                          "clamp to: leave out clamp_columns")
            labels = [str(c) for c in spec.columns]
            for i, label in enumerate(labels):
                if not label.strip():
                    self.fail(("columns", i), "a column name is empty")
                elif label in labels[:i]:
                    self.fail(("columns", i), f"column {label!r} appears twice")
            self.column_labels = tuple(labels)
            return
        self.column_labels = tuple(str(c).strip() for c in spec.columns)
        spans: list[Span] = []
        for i, key in enumerate(spec.columns):
            try:
                spans.append(parse_span(key))
            except ValueError as exc:
                self.fail(("columns", i), f"column {exc}")
        if len(spans) < len(spec.columns):
            return
        self.column_spans = tuple(spans)
        last = len(spans) - 1
        for i, span in enumerate(spans):
            if span.low is None and i != 0:
                self.fail(("columns", i), f"column {span.label!r}: only the first column "
                          "may be open-ended downwards (<=N)")
            if span.high is None and i != last:
                self.fail(("columns", i), f"column {span.label!r}: only the last column "
                          "may be open-ended upwards (>=N)")
        for i in range(1, len(spans)):
            if spans[i - 1].high is None or spans[i].low is None:
                continue  # an open end in the middle is reported above
            problem = _adjacent(spans[i - 1], spans[i], "column", "holds")
            if problem:
                self.fail(("columns", i), problem + " (columns must ascend with no gap "
                          "or overlap)")

    def _line(self, line: str, rows: Mapping[Key, tuple[str, ...]]) -> tuple[_Row, ...]:
        built: list[_Row] = []
        for key, cells in rows.items():
            row = self._row(line, key, cells)
            if row is not None:
                built.append(row)
        if not rows:
            self.fail(("lines", line), f"line {line!r} has no rows")
        if self.spec.row_keys == "totals":
            built.sort(key=lambda r: _low(r.span))
            if len(built) == len(rows):  # every key parsed, so coverage can be judged
                self._coverage(line, built)
        return tuple(built)

    def _row(self, line: str, key: Key, cells: tuple[str, ...]) -> _Row | None:
        spec = self.spec
        loc: Loc = ("lines", line, key)
        where = f"line {line!r}, row {str(key)!r}"
        span: Span | None = None
        if spec.row_keys == "totals":
            try:
                span = parse_span(key)
            except ValueError as exc:
                self.fail(loc, f"line {line!r}: row {exc}")
                return None
        if len(cells) != len(self.column_labels):
            self.fail(loc, f"{where} has {len(cells)} results, expected "
                      f"{len(self.column_labels)} (one per column)")
        elif spec.results is not None:
            for i, cell in enumerate(cells):
                if cell not in spec.results:
                    places = self._unknown.setdefault(cell, [])
                    places.append(((*loc, i), f"{where}, column {self.column_labels[i]!r}"))
        return _Row(span.label if span else str(key), span, cells)

    def _coverage(self, line: str, rows: list[_Row]) -> None:
        if self.dice is None or not rows:
            return
        count, sides = self.dice
        lo, hi = count, count * sides
        dice = f"{count}d{sides}"
        loc: Loc = ("lines", line)
        spans = [r.span for r in rows if r.span is not None]
        reach = spans[0]  # of the rows so far, the one reaching highest
        for cur in spans[1:]:
            problem = _adjacent(reach, cur, "row", "covers")
            if problem:
                self.fail(loc, f"line {line!r}: {problem}")
            if reach.high is not None and (cur.high is None or cur.high > reach.high):
                reach = cur
        first, last = spans[0], max(spans, key=_high)
        if first.low is not None and first.low > lo:
            self.fail(loc, f"line {line!r}: no row covers {_run(lo, first.low - 1)} "
                      f"({dice} totals run {lo}..{hi})")
        if last.high is not None and last.high < hi:
            self.fail(loc, f"line {line!r}: no row covers {_run(last.high + 1, hi)} "
                      f"({dice} totals run {lo}..{hi})")
        if self.spec.modified_rows:
            return
        for span in spans:
            beyond = [n for n in (span.low, span.high) if n is not None and not lo <= n <= hi]
            if beyond:
                self.fail(("lines", line, span.label),
                          f"line {line!r}, row {span.label!r} reaches {beyond[0]}, which "
                          f"{dice} cannot roll ({lo}..{hi}): set modified_rows: true if "
                          "modified rolls read this row")

    def _same_row_names(self) -> None:
        lines = list(self.rows)
        if not lines:
            return
        first = {r.label for r in self.rows[lines[0]]}
        for line in lines[1:]:
            names = {r.label for r in self.rows[line]}
            missing, extra = sorted(first - names), sorted(names - first)
            if missing or extra:
                parts = ([f"lacks {', '.join(map(repr, missing))}"] if missing else []) + (
                    [f"adds {', '.join(map(repr, extra))}"] if extra else [])
                self.fail(("lines", line), f"line {line!r} {' and '.join(parts)} (every "
                          f"line must have the rows of line {lines[0]!r})")
        for line, rows in self.rows.items():
            labels = [r.label for r in rows]
            for label in labels:
                if labels.count(label) > 1:
                    self.fail(("lines", line), f"line {line!r}: row {label!r} appears twice")
                    break

    def _legend(self) -> None:
        # One problem per unknown result, not per cell: a typo repeated down a column
        # should read as one mistake.
        legend = ", ".join(self.spec.results or ())
        for result, places in self._unknown.items():
            loc, where = places[0]
            more = f" and {len(places) - 1} more cells" if len(places) > 1 else ""
            self.fail(loc, f"result {result!r} ({where}{more}) is not in results "
                      f"(expected one of {legend})")

    def _line_shifts(self) -> None:
        spec = self.spec
        for line in spec.lines:
            self.shifts[line] = (line, 0)
        for line, ls in spec.line_shifts.items():
            if line in spec.lines:
                self.fail(("line_shifts", line), f"line {line!r} is given both in lines and "
                          "in line_shifts")
                continue
            base, shift, seen = ls.of, ls.shift, [line]
            while base in spec.line_shifts and base not in seen:
                seen.append(base)
                shift += spec.line_shifts[base].shift
                base = spec.line_shifts[base].of
            if base in seen:
                self.fail(("line_shifts", line, "of"), f"line {line!r} is a shift of itself "
                          f"({' -> '.join([*seen, base])})")
            elif base not in spec.lines:
                known = [*spec.lines, *spec.line_shifts]
                self.fail(("line_shifts", line, "of"), f"line {line!r} shifts line {ls.of!r}, "
                          f"which does not exist (lines: {', '.join(known)})")
            else:
                self.shifts[line] = (base, shift)


def _low(span: Span | None) -> float:
    if span is None or span.low is None:
        return float("-inf")
    return span.low


def _high(span: Span) -> float:
    return float("inf") if span.high is None else span.high


def _run(a: int, b: int) -> str:
    return str(a) if a == b else f"{a}..{b}"


def _adjacent(prev: Span, cur: Span, what: str, verb: str) -> str | None:
    """Describe how a span fails to follow the one before it, or None if it follows it."""
    both = _overlap(prev, cur)
    if both is not None:
        return f"{what}s {prev.label!r} and {cur.label!r} both {verb.removesuffix('s')} {both}"
    if prev.high is None or cur.low is None or cur.low < prev.high:
        return f"{what} {cur.label!r} comes after {prev.label!r} but is lower"
    if cur.low > prev.high + 1:
        return (f"no {what} {verb} {_run(prev.high + 1, cur.low - 1)}, between "
                f"{prev.label!r} and {cur.label!r}")
    return None


def _overlap(a: Span, b: Span) -> str | None:
    """The run of integers two spans share, as text, or None when they are disjoint."""
    lows = [n for n in (a.low, b.low) if n is not None]
    highs = [n for n in (a.high, b.high) if n is not None]
    lo, hi = max(lows, default=None), min(highs, default=None)
    if lo is not None and hi is not None:
        return _run(lo, hi) if lo <= hi else None
    return f"{lo} and up" if lo is not None else f"{hi} and below"


# -- the runtime table ----------------------------------------------------------------------


class Table:
    """A validated lookup table: find a column, read a result, report the exact odds."""

    def __init__(self, spec: TableSpec, compiled: _Compiler) -> None:
        self.spec = spec
        self.id = spec.id
        self.name = spec.name
        self.section = spec.section
        self.keyed_by = spec.keyed_by
        self.row_keys = spec.row_keys
        self.clamp_columns = spec.clamp_columns
        self.columns: tuple[str, ...] = compiled.column_labels
        self.lines: tuple[str, ...] = (*spec.lines, *spec.line_shifts)
        self.dice: tuple[int, int] | None = compiled.dice
        self.results: Mapping[str, str] | None = spec.results
        self._spans = compiled.column_spans
        self._column_names = {label: i for i, label in enumerate(compiled.column_labels)}
        self._rows = compiled.rows
        self._shifts = compiled.shifts
        #: (line, column, modifier) -> the odds there, in order: the table never changes
        self._odds: dict[tuple[str, int, int], tuple[tuple[str, Fraction], ...]] = {}

    # -- constructors -----------------------------------------------------------------------
    @classmethod
    def from_spec(cls, spec: TableSpec) -> Table:
        """Build a table from its validated model (a model built unvalidated is checked)."""
        compiled = _Compiler(spec)
        if compiled.problems:
            raise DataError("; ".join(f"{'.'.join(map(str, loc))}: {msg}"
                                      for loc, msg in compiled.problems))
        return cls(spec, compiled)

    @classmethod
    def from_data(cls, data: Any, *, source: str = "<data>") -> Table:
        """Build a table from plain data (parsed YAML), naming ``source`` in any DataError."""
        return cls.from_spec(validate(TableSpec, data, source=source))

    @classmethod
    def load(cls, path: str | Path) -> Table:
        """Read a table from a YAML or JSON file holding one table."""
        data = read_data_file(path)
        if isinstance(data, list):
            raise DataError(f"{path}: holds a list of tables; use load_tables() for it")
        return cls.from_data(data, source=str(path))

    def __repr__(self) -> str:
        return f"<Table {self.id!r} {self.name!r}>"

    @property
    def where(self) -> str:
        """How error messages name this table: its id and rulebook section."""
        return f"table {self.id!r}" + (f" (section {self.section})" if self.section else "")

    # -- columns ----------------------------------------------------------------------------
    def column_index(self, value: int | str) -> int:
        """The index of the column a value (or, for name-keyed tables, a name) reads."""
        if self.keyed_by == "name":
            if not isinstance(value, str) or value not in self._column_names:
                raise TabletopError(f"{self.where} has no column {value!r}; its columns are "
                                    f"{', '.join(self.columns)}")
            return self._column_names[value]
        if isinstance(value, bool) or not isinstance(value, int):
            raise TabletopError(f"{self.where} is read by a number, not {value!r}")
        spans = self._spans
        first, last = spans[0], spans[-1]
        if first.low is not None and value < first.low:
            if self.clamp_columns:
                return 0
            raise TabletopError(f"{self.where} has no column for {value}; its columns run "
                                f"from {first.low} ({first.label})")
        if last.high is not None and value > last.high:
            if self.clamp_columns:
                return len(spans) - 1
            raise TabletopError(f"{self.where} has no column for {value}; its columns run "
                                f"up to {last.high} ({last.label})")
        for i, span in enumerate(spans):
            if span.contains(value):
                return i
        raise AssertionError("validated columns are contiguous")  # pragma: no cover

    # -- results ----------------------------------------------------------------------------
    def lookup(self, value: int | str, roll: int | str, *, line: str = "default",
               shift: int = 0, modifier: int = 0) -> str:
        """The result for a value (or column name) and a natural roll on a line.

        ``shift`` moves the column left (-) or right (+), added to any shift of the line
        itself and clamped at the table's edges. ``modifier`` is added to the roll; a
        modified roll beyond the rows reads the first or last row.
        """
        base, line_shift = self._line(line)
        column = self._clamp_column(self.column_index(value) + line_shift + shift)
        if self.row_keys == "names":
            if modifier:
                raise TabletopError(f"{self.where}: its rows are names, a modifier of "
                                    f"{modifier:+d} does not apply")
            return self._named_row(base, roll).cells[column]
        total = self._natural_roll(roll)
        return self._total_row(base, total + modifier, clamp=True).cells[column]

    def result_at(self, column_index: int, roll: int | str, *, line: str = "default") -> str:
        """The result in one cell, for code that has worked out the column index itself.

        ``roll`` is a row's total (any total a row holds, modified or not; no clamping) or,
        for named rows, its name. The line's own column shift is applied.
        """
        if not 0 <= column_index < len(self.columns):
            raise TabletopError(f"{self.where} has no column index {column_index} "
                                f"(0..{len(self.columns) - 1})")
        base, line_shift = self._line(line)
        column = self._clamp_column(column_index + line_shift)
        if self.row_keys == "names":
            return self._named_row(base, roll).cells[column]
        if isinstance(roll, bool) or not isinstance(roll, int):
            raise TabletopError(f"{self.where}: a roll is a number, not {roll!r}")
        return self._total_row(base, roll, clamp=False).cells[column]

    def rows(self, line: str = "default") -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each row of a line as (row label, one result per column), for display."""
        base, line_shift = self._line(line)
        width = len(self.columns)
        return tuple((row.label, tuple(row.cells[self._clamp_column(c + line_shift)]
                                       for c in range(width)))
                     for row in self._rows[base])

    # -- odds -------------------------------------------------------------------------------
    def odds(self, value: int | str, *, line: str = "default", shift: int = 0,
             modifier: int = 0) -> dict[str, Fraction]:
        """The exact probability of each result for a value on a line, summing to 1.

        Results that cannot happen are left out. They are listed in legend order when the
        table has a legend, otherwise in the order of the lowest roll giving each.
        """
        if self.dice is None:
            raise TabletopError(f"{self.where}: its rows are names, not dice totals; "
                                "odds do not apply")
        base, line_shift = self._line(line)
        column = self._clamp_column(self.column_index(value) + line_shift + shift)
        key = (base, column, modifier)
        held = self._odds.get(key)
        if held is None:
            odds: dict[str, Fraction] = {}
            for total, p in dice_totals(*self.dice).items():
                result = self._total_row(base, total + modifier, clamp=True).cells[column]
                odds[result] = odds.get(result, Fraction(0)) + p
            if self.results is not None:
                order = {r: i for i, r in enumerate(self.results)}
                odds = dict(sorted(odds.items(), key=lambda kv: order[kv[0]]))
            held = self._odds[key] = tuple(odds.items())
        return dict(held)  # the caller's own dict

    def describe_odds(self, value: int | str, *, line: str = "default", shift: int = 0,
                      modifier: int = 0, percent: bool = False) -> str:
        """The odds as one line for players: "Ae 1/6, D2 1/3, ..." (or "Ae 17%, ...")."""
        odds = self.odds(value, line=line, shift=shift, modifier=modifier)
        return ", ".join(f"{result} {_percent(p) if percent else p}"
                         for result, p in odds.items())

    # -- helpers ----------------------------------------------------------------------------
    def _line(self, line: str) -> tuple[str, int]:
        if line in self._shifts:
            return self._shifts[line]
        if line == "default" and len(self.lines) == 1:
            return self._shifts[self.lines[0]]
        raise TabletopError(f"{self.where} has no line {line!r}; its lines are "
                            f"{', '.join(self.lines)}")

    def _clamp_column(self, index: int) -> int:
        return max(0, min(len(self.columns) - 1, index))

    def _natural_roll(self, roll: int | str) -> int:
        assert self.dice is not None
        count, sides = self.dice
        if isinstance(roll, bool) or not isinstance(roll, int) or not (
                count <= roll <= count * sides):
            raise TabletopError(f"{self.where}: {roll!r} is not a roll of {count}d{sides} "
                                f"({count}..{count * sides}); pass the natural roll and "
                                "any modifier separately")
        return roll

    def _total_row(self, line: str, total: int, *, clamp: bool) -> _Row:
        rows = self._rows[line]
        first, last = rows[0].span, rows[-1].span
        assert first is not None and last is not None
        if clamp:
            if first.low is not None:
                total = max(first.low, total)
            if last.high is not None:
                total = min(last.high, total)
        for row in rows:
            assert row.span is not None
            if row.span.contains(total):
                return row
        raise TabletopError(f"{self.where}: line {line!r} has no row for a roll of {total}")

    def _named_row(self, line: str, roll: int | str) -> _Row:
        for row in self._rows[line]:
            if row.label == roll:
                return row
        names = ", ".join(row.label for row in self._rows[line])
        raise TabletopError(f"{self.where} has no row {roll!r}; its rows are {names}")


def _percent(p: Fraction) -> str:
    if 0 < p < Fraction(1, 200):
        return "<1%"
    return f"{round(p * 100)}%"


# -- loading many tables --------------------------------------------------------------------


def load_tables(source: str | Path | Iterable[str | Path]) -> dict[str, Table]:
    """Load tables by id from a directory (every .yaml/.yml/.json file in it) or from files.

    A file holds one table, or a list of tables. Two tables with the same id are an error
    naming both files.
    """
    if isinstance(source, str | Path):
        root = Path(source)
        paths = ([root] if not root.is_dir() else
                 sorted(p for p in root.iterdir() if p.suffix in TABLE_SUFFIXES))
    else:
        paths = [Path(p) for p in source]
    tables: dict[str, Table] = {}
    origin: dict[str, str] = {}
    for path in paths:
        data = read_data_file(path)
        if data is None:
            raise DataError(f"{path}: holds no table")
        entries = list(enumerate(data)) if isinstance(data, list) else [(None, data)]
        for index, entry in entries:
            where = str(path) if index is None else f"{path}[{index}]"
            table = Table.from_data(entry, source=where)
            if table.id in tables:
                raise DataError(f"{where}: table id {table.id!r} is already used in "
                                f"{origin[table.id]}")
            tables[table.id] = table
            origin[table.id] = where
    return tables
