"""docs/architecture.md's table of the core names every module of the core, and only those."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"
DOC = ROOT / "docs" / "architecture.md"


def _module_rows() -> dict[str, str]:
    """The table of "The core, module by module": first cell (`x.py` or `pkg/`) -> its row."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## The core, module by module", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        found = re.match(r"\| `([^`]+)` \|(.*)", line)
        if found:
            rows[found.group(1)] = found.group(2)
    return rows


def _subpackages() -> list[Path]:
    return sorted(p.parent for p in CORE.glob("*/__init__.py"))


def test_every_core_module_is_in_the_architecture_table() -> None:
    """Each core/*.py has its own row; each subpackage a row naming each of its modules."""
    rows = _module_rows()
    missing = [p.name for p in sorted(CORE.glob("*.py"))
               if p.name != "__init__.py" and p.name not in rows]
    for package in _subpackages():
        row = rows.get(f"{package.name}/")
        if row is None:
            missing.append(f"{package.name}/")
            continue
        missing += [f"{package.name}/{p.name}" for p in sorted(package.glob("*.py"))
                    if p.name != "__init__.py" and f"`{p.name}`" not in row]
    assert not missing, f"docs/architecture.md does not name these core modules: {missing}"


def test_architecture_table_names_no_module_that_does_not_exist() -> None:
    """A row for a module removed or renamed is caught, not left to mislead."""
    stale = [name for name in _module_rows() if not (CORE / name).exists()]
    assert not stale, f"docs/architecture.md names core modules that do not exist: {stale}"
