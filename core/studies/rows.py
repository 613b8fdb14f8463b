"""A study's rows on disk: JSON Lines, Parquet or CSV, chosen by the file's extension.

A row is one game (see :func:`tabletop.core.studies.study.play_game`). JSON Lines keeps it as it is,
one canonical JSON object a line (options, agents and scores nested). Parquet and CSV are
tables, so the nested fields become columns: ``option.NAME``, ``agent.SIDE``, ``score.NAME``
(empty where a game gives no such score, as a draw may). :func:`read_rows` reads any of the
three back into the nested form, which is what ``tabletop report`` works from.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..engine.canonical import JSON, dumps
from ..engine.errors import TabletopError
from ..engine.files import atomic_write_lines

INSTALL_STUDY = "pip install 'tabletop-engine[study]', or pip install '.[study]' from a checkout"
"""How to install the study extra (Dask distributed, matplotlib, pyarrow): the released
package by name, or the project's own folder from a checkout of it."""

NESTED = {"options": "option.", "agents": "agent.", "scores": "score."}
"""The nested fields of a row and the prefix of their columns in a table."""

FIRST = ("seed", "setting", "game", "version", "scenario")
LAST = ("result", "winner", "turns", "decisions")
INTEGERS = ("seed", "turns", "decisions")

Row = dict[str, JSON]


def row_format(path: str | Path) -> str:
    """The format a rows file is written in: ``parquet``, ``csv`` or ``jsonl`` (any other name)."""
    suffix = Path(path).suffix.lower()
    return {".parquet": "parquet", ".csv": "csv"}.get(suffix, "jsonl")


def check_row_format(path: str | Path) -> None:
    """Refuse, before any game is played, a Parquet file when pyarrow is not installed."""
    if row_format(path) == "parquet":
        try:
            importlib.import_module("pyarrow")
        except ImportError:
            raise TabletopError(f"{path}: Parquet needs pyarrow: {INSTALL_STUDY}") from None


def write_rows(path: str | Path, rows: Iterable[Row] | Callable[[], Iterable[Row]]) -> None:
    """Write rows atomically in the format the extension names.

    ``rows`` may be a function giving the rows afresh each time it is called: JSON Lines and
    CSV are then written as the rows come, never all held at once (CSV reads them twice, once
    for its columns); Parquet is written from a table of all of them."""
    again: Callable[[], Iterable[Row]] = rows if callable(rows) else (lambda: rows)
    kind = row_format(path)
    if kind == "jsonl":
        atomic_write_lines(path, (dumps(row) + "\n" for row in again()))
        return
    if kind == "csv":
        order = _columns(again())
        atomic_write_lines(path, _csv_lines(order, again()))
        return
    _write_parquet(path, flatten(list(again())))


def _cell(value: JSON) -> str:
    return value if isinstance(value, str) else dumps(value)


def _columns(rows: Iterable[Row]) -> list[tuple[str, str | None]]:
    """The columns of a table of rows, as (field, nested key or None), in a fixed order:
    the fixed fields first, option and agent columns, results, scores, any other field,
    the state hash."""
    nested: dict[str, dict[str, None]] = {field: {} for field in NESTED}
    fields: set[str] = set()
    for row in rows:
        fields.update(row)
        for field, keys in nested.items():
            keys.update(dict.fromkeys(row.get(field) or {}))
    nested_keys = {field: sorted(keys) if field != "agents" else list(keys)
                   for field, keys in nested.items()}
    other = sorted(fields - set(FIRST) - set(LAST) - set(NESTED) - {"state_hash"})
    order: list[tuple[str, str | None]] = [(k, None) for k in FIRST]
    order += [("options", k) for k in nested_keys["options"]] + [("agents", k) for k in nested_keys["agents"]]
    order += [(k, None) for k in LAST] + [("scores", k) for k in nested_keys["scores"]]
    order += [(k, None) for k in other] + [("state_hash", None)]
    return order


def _column_name(field: str, key: str | None) -> str:
    return field if key is None else NESTED[field] + key


def _value(row: Row, field: str, key: str | None) -> JSON:
    return row.get(field) if key is None else (row.get(field) or {}).get(key)


def _csv_lines(order: Sequence[tuple[str, str | None]], rows: Iterable[Row]) -> Iterator[str]:
    """The lines of a CSV table of rows, its header first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([_column_name(field, key) for field, key in order])
    yield out.getvalue()
    for row in rows:
        out.seek(0)
        out.truncate()
        cells = (_value(row, field, key) for field, key in order)
        writer.writerow(["" if v is None else _cell(v) for v in cells])
        yield out.getvalue()


def flatten(rows: Sequence[Row]) -> dict[str, list[JSON]]:
    """Rows as table columns: nested fields spread over prefixed columns, in a fixed order."""
    return {_column_name(field, key): [_value(row, field, key) for row in rows]
            for field, key in _columns(rows)}


def _write_parquet(path: str | Path, table: dict[str, list[JSON]]) -> None:
    pa: Any = importlib.import_module("pyarrow")  # untyped library: used through Any
    pq: Any = importlib.import_module("pyarrow.parquet")
    arrays = {}
    for name, values in table.items():
        try:
            arrays[name] = pa.array(values)
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # mixed types (an option's values): keep JSON text
            arrays[name] = pa.array([None if v is None else _cell(v) for v in values], pa.string())
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    try:
        pq.write_table(pa.table(arrays), tmp)
        tmp.replace(target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise TabletopError(f"{target}: cannot write ({exc.strerror or exc})") from None


def read_rows(path: str | Path) -> list[Row]:
    """Read a rows file (JSON Lines, Parquet or CSV) back into nested rows."""
    target = Path(path)
    if not target.is_file():
        raise TabletopError(f"{path}: no such file")
    kind = row_format(target)
    try:
        if kind == "jsonl":
            rows = []
            for number, line in enumerate(target.read_text(encoding="utf-8").splitlines(), 1):
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except json.JSONDecodeError as exc:
                        raise TabletopError(f"{path}:{number}: not a JSON line ({exc.msg})") from None
        elif kind == "csv":
            with target.open(encoding="utf-8", newline="") as fh:
                rows = [nest({k: _parse_cell(k, v) for k, v in r.items()}) for r in csv.DictReader(fh)]
        else:
            rows = [nest(r) for r in _read_parquet(target)]
    except UnicodeDecodeError:
        raise TabletopError(f"{path}: not a text file of rows") from None
    for number, row in enumerate(rows, 1):
        if not isinstance(row, dict) or any(k not in row for k in ("seed", "result", "turns")):
            raise TabletopError(f"{path}: row {number} is not a game row (seed, result, turns expected)")
        row.setdefault("setting", "defaults")
        row.setdefault("winner", None)
        row.setdefault("scores", {})
    return rows


def _read_parquet(path: Path) -> list[dict[str, Any]]:
    try:
        pq: Any = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise TabletopError(f"{path}: Parquet needs pyarrow: {INSTALL_STUDY}") from None
    try:
        rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    except Exception as exc:  # pyarrow raises its own kinds for a damaged or foreign file
        raise TabletopError(f"{path}: not a Parquet file of rows ({exc})") from None
    return rows


def _parse_cell(column: str, text: str) -> JSON:
    if text == "":
        return None
    if column in INTEGERS:
        try:
            return int(text)
        except ValueError:
            return text
    if column.startswith("score."):
        try:
            return float(text)
        except ValueError:
            return text
    if column.startswith("option."):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text
    return text


def nest(flat: dict[str, Any]) -> Row:
    """A table row back in the nested form (empty scores left out)."""
    row: Row = {}
    for field in NESTED:
        row[field] = {}
    for name, value in flat.items():
        for field, prefix in NESTED.items():
            if name.startswith(prefix):
                missing = value is None or (isinstance(value, float) and math.isnan(value))
                if not (missing and field == "scores"):  # a game without that score
                    row[field][name[len(prefix):]] = value
                break
        else:
            row[name] = value
    return row
