"""docs/architecture.md names every module of env/, and only those."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_env_module_is_in_the_architecture_table() -> None:
    """The table of "The learning environments" has a row for each module of env/."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## The learning environments (`env/`)", 1)[1].split("\n## ", 1)[0]
    rows = set(re.findall(r"^\| `(env/[^`]+)` \|", section, re.MULTILINE))
    modules = {f"env/{p.name}" for p in (ROOT / "env").glob("*.py")}
    assert rows == modules, (sorted(modules - rows), sorted(rows - modules))
