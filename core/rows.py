"""A study's rows on disk: JSON Lines, Parquet or CSV, chosen by the file's extension.

A row is one game (see :func:`tabletop.core.study.play_game`). JSON Lines keeps it as it is,
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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .canonical import JSON, dumps
from .errors import TabletopError
from .record import atomic_write_text

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
            raise TabletopError(f"{path}: Parquet needs pyarrow: "
                                "pip install 'tabletop-engine[study]'") from None


def write_rows(path: str | Path, rows: Sequence[Row]) -> None:
    """Write rows atomically in the format the extension names."""
    kind = row_format(path)
    if kind == "jsonl":
        atomic_write_text(path, "".join(dumps(row) + "\n" for row in rows))
        return
    table = flatten(rows)
    if kind == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        columns = list(table)
        writer.writerow(columns)
        for i in range(len(rows)):
            writer.writerow(["" if table[c][i] is None else _cell(table[c][i]) for c in columns])
        atomic_write_text(path, out.getvalue())
        return
    _write_parquet(path, table)


def _cell(value: JSON) -> str:
    return value if isinstance(value, str) else dumps(value)


def flatten(rows: Sequence[Row]) -> dict[str, list[JSON]]:
    """Rows as table columns: nested fields spread over prefixed columns, in a fixed order."""
    nested_keys: dict[str, list[str]] = {}
    for field, _ in NESTED.items():
        keys: dict[str, None] = {}
        for row in rows:
            keys.update(dict.fromkeys(row.get(field) or {}))
        nested_keys[field] = sorted(keys) if field != "agents" else list(keys)
    other = sorted({k for row in rows for k in row} - set(FIRST) - set(LAST) - set(NESTED) - {"state_hash"})
    columns: dict[str, list[JSON]] = {}
    order: list[tuple[str, str | None]] = [(k, None) for k in FIRST]
    order += [("options", k) for k in nested_keys["options"]] + [("agents", k) for k in nested_keys["agents"]]
    order += [(k, None) for k in LAST] + [("scores", k) for k in nested_keys["scores"]]
    order += [(k, None) for k in other] + [("state_hash", None)]
    for field, key in order:
        name = field if key is None else NESTED[field] + key
        if key is None:
            columns[name] = [row.get(field) for row in rows]
        else:
            columns[name] = [(row.get(field) or {}).get(key) for row in rows]
    return columns


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
        raise TabletopError(f"{path}: Parquet needs pyarrow: pip install 'tabletop-engine[study]'") from None
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
