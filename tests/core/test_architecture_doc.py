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


def test_every_core_module_is_in_the_architecture_table() -> None:
    """Each module of the core (in its layer's folder) has its own row, ``layer/x.py``, or
    is named in the row of its package (``layer/pkg/``)."""
    rows = _module_rows()
    missing = []
    for path in sorted(CORE.rglob("*.py")):
        rel = path.relative_to(CORE).as_posix()
        if path.name == "__init__.py" and path.parent != CORE:
            continue
        package = f"{path.parent.relative_to(CORE).as_posix()}/"
        if rel not in rows and f"`{path.name}`" not in rows.get(package, ""):
            missing.append(rel)
    assert not missing, f"docs/architecture.md does not name these core modules: {missing}"


def test_every_core_folder_is_a_layer_or_a_package_the_table_names() -> None:
    """The core's top level holds only ``__init__.py`` and its layers' folders; each folder
    below a layer is a package with its own row."""
    rows = _module_rows()
    top = sorted(p.name for p in CORE.iterdir() if not p.name.startswith((".", "__pycache__")))
    layers = sorted(p.name for p in CORE.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert set(top) - set(layers) <= {"__init__.py", "py.typed"}, top
    text = DOC.read_text(encoding="utf-8")
    assert all(f"### `{layer}/`" in text for layer in layers), layers
    nested = [p.parent.relative_to(CORE).as_posix() + "/" for p in CORE.glob("*/*/__init__.py")]
    assert all(name in rows for name in nested), nested


def test_architecture_table_names_no_module_that_does_not_exist() -> None:
    """A row for a module removed or renamed is caught, not left to mislead."""
    stale = [name for name in _module_rows() if not (CORE / name).exists()]
    assert not stale, f"docs/architecture.md names core modules that do not exist: {stale}"
