"""Manila '45 rule coverage: data/sections.yaml lists every section number the rulebook
prints (headed or not) and its two errata, in the rulebook's order."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tabletop.core.designer.coverage import load_sections, parse_sections

ROOT = Path(__file__).resolve().parents[3]
RULEBOOKS = Path(os.environ.get("TABLETOP_RULEBOOKS", ROOT.parent / "shared" / "rules"))


def test_sections_are_every_number_the_rulebook_prints() -> None:
    """Coverage: every paragraph number 1.0-11.3 of the rulebook, in order, then the errata;
    each heading the core's parser reads keeps the rulebook's title."""
    book = RULEBOOKS / "manila45.txt"
    if not book.is_file():
        pytest.skip(f"rulebook {book} not at hand")
    text = book.read_text(encoding="utf-8")
    numbers = []
    for line in text.splitlines():
        m = re.match(r"^(\d+\.\d+)\.?\s", line)
        if m and m.group(1) not in numbers:
            numbers.append(m.group(1))
    shipped = load_sections(ROOT / "games" / "manila45")
    assert shipped.rulebook == book.name
    ids = [s.id for s in shipped.sections]
    assert ids[:len(numbers)] == numbers
    assert [s.title for s in shipped.sections[len(numbers):]] == ["Unit Counter Errata",
                                                                  "Mapsheet Errata"]
    assert "Unit Counter Errata" in text and "Mapsheet Errata" in text
    titles = {s.id: s.title for s in shipped.sections}
    for sid, title in parse_sections(text):
        if len(title) < 40 and not title.endswith("."):  # a heading, not a run-in sentence
            assert titles[sid] == title
