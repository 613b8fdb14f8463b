"""Game folders for tests that read records: a record names its game by id only, so a test
game that is not installed is named to ``replay``/``resume`` with ``--game-dir FOLDER``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = str(ROOT / "docs" / "example" / "skirmish")
"""The example game's folder (not installed: records of it need ``--game-dir SKIRMISH``)."""


def pig_dir(tmp_path: Path, attr: str = "GAME") -> str:
    """A game folder whose GAME is ``tests.core.piggame``'s ``attr`` (Pig, or a variant)."""
    folder = tmp_path / "pig_folders" / f"pig_{attr.lower()}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text(f"from tests.core.piggame import {attr} as GAME\n",
                                        encoding="utf-8")
    return str(folder)
