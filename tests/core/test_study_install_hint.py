"""The study extra's install hint: a missing pyarrow, matplotlib or dask.distributed is named
with both ways to install it, from the package index and from a checkout of the project."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tabletop.core.engine.errors import TabletopError
from tabletop.core.frontends.cli import main
from tabletop.core.studies.report import write_report
from tabletop.core.studies.rows import check_row_format, read_rows
from tabletop.core.studies.study import _run_dask

ROOT = Path(__file__).resolve().parents[2]
BY_NAME = "pip install 'tabletop-engine[study]'"
FROM_CHECKOUT = "pip install '.[study]' from a checkout"


def _names_both_installs(message: str) -> None:
    assert "\n" not in message
    assert BY_NAME in message and FROM_CHECKOUT in message


def _without(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``import`` of these modules fail as if they were not installed."""
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def test_parquet_rows_without_pyarrow_name_both_installs(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    """Writing or reading Parquet rows without pyarrow says how to install it either way."""
    _without(monkeypatch, "pyarrow", "pyarrow.parquet")
    with pytest.raises(TabletopError) as written:
        check_row_format(tmp_path / "r.parquet")
    _names_both_installs(str(written.value))
    (tmp_path / "r.parquet").write_bytes(b"PAR1")
    with pytest.raises(TabletopError) as read:
        read_rows(tmp_path / "r.parquet")
    _names_both_installs(str(read.value))


def test_simulate_to_parquet_without_pyarrow_is_one_line_naming_both_installs(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """At the command line: a non-zero exit, one line, nothing written, no game played."""
    _without(monkeypatch, "pyarrow", "pyarrow.parquet")
    rows = tmp_path / "r.parquet"
    code = main(["simulate", str(ROOT / "docs/example/skirmish"), "-n", "1", "--rows", str(rows)])
    err = capsys.readouterr().err.strip()
    assert code != 0 and not rows.exists()
    _names_both_installs(err)


def test_report_without_matplotlib_names_both_installs(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    """`tabletop report` without matplotlib says how to install it either way."""
    rows = tmp_path / "r.jsonl"
    rows.write_text('{"seed": 1, "result": "Blue victory", "turns": 6, "winner": "Blue"}\n',
                    encoding="utf-8")
    _without(monkeypatch, "matplotlib")
    with pytest.raises(TabletopError) as refused:
        write_report(str(rows), str(tmp_path / "report.html"))
    _names_both_installs(str(refused.value))
    assert not (tmp_path / "report.html").exists()


def test_scheduler_without_distributed_names_both_installs(monkeypatch: pytest.MonkeyPatch) -> None:
    """`simulate --scheduler` without dask.distributed says how to install it either way."""
    _without(monkeypatch, "distributed")
    with pytest.raises(TabletopError) as refused:
        _run_dask(None, "tcp://127.0.0.1:1", None, print, None, 1.0)  # type: ignore[arg-type]
    _names_both_installs(str(refused.value))
