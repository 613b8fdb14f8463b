"""Rule coverage: every section of a game's rulebook, the hooks that cite it, the tests that
name it — computed from the code's own citations, never written by hand.

The list of sections is data the game ships (``data/sections.yaml``), generated from the
rulebook's text by :func:`parse_sections` (a test regenerates it wherever the rulebook is at
hand and compares). A section that truly has no hook (an introduction, a component list) or
no test says so in that file, with the reason. Citations are read with :mod:`ast`, never by
importing anything:

- a *hook* cites a section in its function docstring, or passes the section as a string to
  a call (``match.emit(kind, "9.3", ...)``, ``choose(side, prompt, "3.3", ...)``,
  ``section="9.1d"``); a data file cites one with a ``section:`` field;
- a *test* names a section in its docstring or its name (``test_6_0_...``, ``..._9_2_1``).

A citation of a subsection's item (``9.1d``) counts for the section (``9.1``); a citation of
no known section is reported, so a typo cannot pass unseen.

Two numberings are read, as the sections file declares (``numbering:``):

- ``decimal`` (the default): ``6.0``, ``9.2.1``, items ``9.1d``; test names ``test_9_2_1_x``;
- ``outline``: Roman parts with lettered or numbered rules and numbered steps — ``V``,
  ``V.E``, ``III.4``, ``IV.D.5`` (a step counts for its rule, ``IV.D``), letter ranges
  ``V.G-J``; a bare part is cited as ``Part V`` or ``V:`` in a docstring (a lone ``I``, ``V``
  or ``X`` is a word too often); test names spell them in capitals, ``test_V_E_x``,
  ``test_III_5_6_x`` (III.5 and III.6), ``test_VIII_B_D_x`` (VIII.B and VIII.D),
  ``test_x_part_X``. In the rulebook, a part is a line ``III. Title``, a rule a line
  ``A. Text`` or (directly under its part) ``4. Text``, titled by its first sentence.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from ..engine.data import Section, StrictModel, load_model, read_data_file, repeated
from ..engine.dice import RollPurpose

SECTIONS_FILE = "sections.yaml"

_HEADING = re.compile(r"^(\d+\.\d+(?:\.\d+)*)\s+([A-Z][^\n]{0,80})$")
_CITE = re.compile(r"(?<![\d.])(\d+\.\d+(?:\.\d+)*)([a-z])?(?![\d])")
_SECTION_TEXT = re.compile(r"^\d+\.\d+(?:\.\d+)*[a-z]?$")


class SectionSpec(StrictModel):
    """One section of a rulebook, and why it has no hook or no test, if it has none."""

    id: Section
    title: str
    no_hook: str = ""  # the reason no code cites it (an introduction, designer's notes...)
    no_test: str = ""  # the reason no test names it


Numbering = Literal["decimal", "outline"]


class SectionsFile(StrictModel):
    """``data/sections.yaml``: the sections of a game's rulebook, in the rulebook's order."""

    rulebook: str
    numbering: Numbering = "decimal"
    sections: tuple[SectionSpec, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> SectionsFile:
        repeated([s.id for s in self.sections], ("sections",))  # each section listed once
        return self


def parse_sections(text: str, numbering: Numbering = "decimal") -> list[tuple[str, str]]:
    """The numbered headings of a rulebook's text, in order, each once: (id, title).

    A heading is a line that starts with a section number and a capitalised title; a number
    met again (a table of contents, a cross-reference at the start of a line) keeps its first
    title only if it comes later in the numbering. ``outline`` reads Roman parts and their
    lettered (or, directly under the part, numbered) rules instead.
    """
    if numbering == "outline":
        return _parse_outline(text)
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for line in text.splitlines():
        m = _HEADING.match(line.strip())
        if m and m.group(1) not in seen:
            seen.add(m.group(1))
            out.append((m.group(1), m.group(2).strip()))
    return out


_RUN_IN = re.compile(r"(?:^|(?<=;\s)|(?<=\.\s))(\d+\.\d+(?:\.\d+)*)\s+(\S.*?)(?=;\s+\d+\.\d+|$)")
_TITLE_END = re.compile(r":|\s\(|\.(?:\s|$)|\s—|;")


def draft_sections(text: str) -> list[tuple[str, str]]:
    """A first list of a rulebook's numbered sections, for a designer to check and keep as
    ``data/sections.yaml`` (``tabletop sections RULES.md``): every numbered heading
    (``## 1.0 Components``, Markdown's ``#`` marks left out) and every numbered rule, at the
    start of a line or run in after a ``;`` or a sentence (``2.1 Blue movement; 2.2 Blue
    combat``), in order, each once, a number kept only when it comes later than the last (a
    cross-reference at the start of a line is not a section). A rule's title is its words up
    to the first colon, bracket or full stop, cut on a word under 60 characters."""
    out: list[tuple[str, str]] = []
    last: tuple[int, ...] = ()
    for raw in text.splitlines():
        line = raw.strip().lstrip("#").strip()
        for m in _RUN_IN.finditer(line):
            number = tuple(int(p) for p in m.group(1).split("."))
            if number <= last:
                continue
            body = m.group(2).strip()
            title = _TITLE_END.split(body, maxsplit=1)[0].strip().rstrip(".,")
            if not title or not (title[0].isupper() or title[0] in "`*_\"'"):
                continue
            if len(title) > 60:
                title = title[:60].rsplit(" ", 1)[0] + "..."
            last = number
            out.append((m.group(1), title.strip("*_`")))
    return out


def sections_yaml(sections: list[tuple[str, str]], rulebook: str) -> str:
    """``data/sections.yaml`` text listing ``sections`` (id, title) of ``rulebook``."""
    lines = [f"# The numbered sections of {rulebook}, drafted by `tabletop sections`: check",
             "# each title, and give `no_hook` / `no_test` reasons where a section has none",
             "# (a chapter heading whose rules are its subsections, say).",
             f"rulebook: {json.dumps(rulebook)}", "sections:"]
    lines += [f"  - {{id: {json.dumps(sid)}, title: {json.dumps(title)}}}" for sid, title in sections]
    return "\n".join(lines) + "\n"


_PART = re.compile(r"^([IVX]+)\.\s+(\S.*)$")
_LETTERED = re.compile(r"^([A-Z])\.\s+(\S.*)$")
_NUMBERED = re.compile(r"^(\d+)\.\s+(\S.*)$")
_OUTLINE_TEXT = re.compile(r"^[IVX]+(?:\.[A-Z])?(?:\.\d+)*$")
_OUTLINE_CITE = re.compile(
    r"(?<![\w.])(?P<part>[IVX]+)(?P<rest>(?:\.[A-Z](?![a-z]))?(?:\.\d+)*)"
    r"(?:-(?P<to>[A-Z]|\d+)(?![\w]))?(?![\w])(?P<colon>:)?")
_OUTLINE_PART_WORD = re.compile(r"(?i:part)\s+$")


def _first_sentence(text: str, limit: int = 60) -> str:
    """A rule's title: its first sentence, cut on a word under ``limit`` characters."""
    sentence = re.split(r"(?<=[a-z)\"])\.(?:\s|$)", text.strip(), maxsplit=1)[0].rstrip(".:")
    if len(sentence) <= limit:
        return sentence
    return sentence[:limit].rsplit(" ", 1)[0] + "..."


def _roman(numeral: str) -> int:
    """The value of a Roman numeral written with I, V and X."""
    values = {"I": 1, "V": 5, "X": 10}
    total = 0
    for i, ch in enumerate(numeral):
        v = values[ch]
        total += -v if i + 1 < len(numeral) and values[numeral[i + 1]] > v else v
    return total


def _parse_outline(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    part: str | None = None
    lettered = False
    for raw in text.splitlines():
        line = raw.strip()
        section = None
        m = _PART.match(line)
        if m is not None and _roman(m.group(1)) == (_roman(part) if part else 0) + 1:
            # the next part (a rule lettered I, V or X inside a part is not a part)
            part, lettered = m.group(1), False
            section = (m.group(1), m.group(2))
        elif part is not None and (m := _LETTERED.match(line)) is not None:
            lettered = True
            section = (f"{part}.{m.group(1)}", m.group(2))
        elif part is not None and not lettered and (m := _NUMBERED.match(line)) is not None:
            section = (f"{part}.{m.group(1)}", m.group(2))
        if section is not None and section[0] not in seen:
            seen.add(section[0])
            out.append((section[0], _first_sentence(section[1])))
    return out


def _outline_cites(doc: str) -> list[str]:
    """Outline citations in free text: IV.D, III.4, IV.D.5, V.G-J (G to J), III.5-6,
    Part V / V: (a bare part needs the word or the colon unless it is two letters or more)."""
    out: list[str] = []
    for m in _OUTLINE_CITE.finditer(doc):
        part, rest, to = m.group("part"), m.group("rest"), m.group("to")
        if not rest:
            if len(part) == 1 and not m.group("colon") \
                    and not _OUTLINE_PART_WORD.search(doc[:m.start()]):
                continue
            out.append(part)
            continue
        cited = part + rest
        out.append(cited)
        if to is None:
            continue
        last = rest.rsplit(".", 1)[1]
        stem = cited[: len(cited) - len(last)]
        if last.isdigit() and to.isdigit():
            out += [f"{stem}{n}" for n in range(int(last) + 1, int(to) + 1)]
        elif last.isalpha() and to.isalpha():
            out += [f"{stem}{chr(c)}" for c in range(ord(last) + 1, ord(to) + 1)]
    return out


def _outline_name_sections(name: str, known: Sequence[str]) -> list[str]:
    """Outline sections spelled in a test's name with capitals: test_V_E_x, test_III_5_6_x
    (III.5, III.6), test_VIII_B_D_x (VIII.B, VIII.D), test_IV_F_3_x, test_x_part_X."""
    out: list[str] = []
    tokens = name.split("_")
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if not re.fullmatch(r"[IVX]+", tok):
            i += 1
            continue
        part, i = tok, i + 1
        items: list[str] = []
        while i < len(tokens) and re.fullmatch(r"[A-Z]|\d+", tokens[i]):
            if items and re.fullmatch(r"[IVX]", tokens[i]) and f"{part}.{tokens[i]}" not in known:
                break  # II_B_V_J: V is the next part, not a rule of II
            items.append(tokens[i])
            i += 1
        if not items:
            if part in known and (len(part) > 1 or tokens[i - 2:i - 1] == ["part"]):
                out.append(part)
            continue
        # a letter opens a rule (a further letter: a sibling rule); digits are steps of the
        # rule, or of the part before any letter (III_5_6: III.5 and III.6)
        stem = part
        for item in items:
            if item.isalpha():
                stem = f"{part}.{item}"
                out.append(stem)
            else:
                out.append(f"{stem}.{item}")
    return out


@dataclass
class Citations:
    """Where each section is cited: hooks and tests by name, plus citations of no section."""

    hooks: dict[str, list[str]] = field(default_factory=dict)
    tests: dict[str, list[str]] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)


def resolve(cited: str, known: Sequence[str]) -> str | None:
    """The known section a citation means: itself, or the section of its item (9.1d -> 9.1,
    and a deeper number than the rulebook has -> its nearest numbered parent)."""
    base = cited.rstrip("abcdefghijklmnopqrstuvwxyz")
    parts = base.split(".")
    while parts and parts[0]:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts = parts[:-1]
    return None


def _add(table: dict[str, list[str]], section: str, who: str) -> None:
    names = table.setdefault(section, [])
    if who not in names:
        names.append(who)


def _docstring_sections(doc: str | None, numbering: Numbering = "decimal") -> list[str]:
    if not doc:
        return []
    if numbering == "outline":
        return _outline_cites(doc)
    return [m.group(1) + (m.group(2) or "") for m in _CITE.finditer(doc)]


def _call_sections(node: ast.AST, numbering: Numbering = "decimal") -> list[str]:
    pattern = _OUTLINE_TEXT if numbering == "outline" else _SECTION_TEXT
    out = []
    for call in ast.walk(node):
        if not isinstance(call, ast.Call):
            continue
        args: list[ast.expr] = [*call.args, *(k.value for k in call.keywords if k.arg == "section")]
        for arg in args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                    and pattern.match(arg.value):
                out.append(arg.value)
    return out


def _name_sections(name: str, known: Sequence[str], numbering: Numbering = "decimal") -> list[str]:
    """Sections spelled with underscores in a test's name: test_6_0_x, x_9_2_1, x_2_0_6_0."""
    if numbering == "outline":
        return _outline_name_sections(name, known)
    out = []
    for run in re.findall(r"(?<![a-z])\d+(?:_\d+)+", name):
        parts = run.split("_")
        i = 0
        while i < len(parts) - 1:
            for width in (3, 2):
                candidate = ".".join(parts[i:i + width])
                if len(parts[i:i + width]) == width and candidate in known:
                    out.append(candidate)
                    i += width
                    break
            else:
                i += 1
    return out


def _functions(tree: ast.AST) -> Iterable[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    def walk(node: ast.AST, prefix: str) -> Iterable[tuple[str, Any]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield f"{prefix}{child.name}", child
                yield from walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
    return walk(tree, "")


def collect(code_dir: Path, tests_dir: Path | None, known: Sequence[str],
            numbering: Numbering = "decimal") -> Citations:
    """Read the citations of a game's code (its package folder and data files) and tests."""
    found = Citations()

    def note(table: dict[str, list[str]], cited: str, who: str, *, strict: bool = True) -> None:
        # A docstring may hold other numbers ("0.64 ms", "7.6 km"): only explicit section
        # arguments, data fields and test names are reported when they cite no section.
        section = resolve(cited, known)
        if section is not None:
            _add(table, section, who)
        elif strict:
            found.unknown.append(f"{who} cites {cited}, no section of the rulebook")

    for path in sorted(code_dir.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for qual, fn in _functions(tree):
            who = f"{path.stem}.{qual}"
            for cited in _docstring_sections(ast.get_docstring(fn), numbering):
                note(found.hooks, cited, who, strict=False)
            for cited in _call_sections(fn, numbering):
                note(found.hooks, cited, who)
    data = code_dir / "data"
    for path in sorted(data.glob("*.yaml")) if data.is_dir() else ():
        if path.name == SECTIONS_FILE:
            continue
        for cited in _data_sections(read_data_file(path), numbering):
            note(found.hooks, cited, f"data/{path.name}")
    if tests_dir is not None:
        for path in sorted(tests_dir.rglob("test_*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for qual, fn in _functions(tree):
                if not fn.name.startswith("test"):
                    continue
                who = f"{path.stem}::{qual}"
                for cited in _docstring_sections(ast.get_docstring(fn), numbering):
                    note(found.tests, cited, who, strict=False)
                for cited in _name_sections(fn.name, known, numbering):
                    note(found.tests, cited, who)
    return found


def _data_sections(data: Any, numbering: Numbering = "decimal") -> list[str]:
    pattern = _OUTLINE_TEXT if numbering == "outline" else _SECTION_TEXT
    out: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "section" and isinstance(value, str | int | float):
                text = str(value)
                out += [t.strip() for t in re.split(r"[,;]", text) if pattern.match(t.strip())]
            else:
                out += _data_sections(value, numbering)
    elif isinstance(data, list):
        for item in data:
            out += _data_sections(item, numbering)
    return out


@dataclass(frozen=True)
class Row:
    """One line of the coverage table."""

    id: str
    title: str
    hooks: tuple[str, ...]
    tests: tuple[str, ...]
    no_hook: str
    no_test: str

    @property
    def flags(self) -> list[str]:
        """What is missing and not accounted for: 'no hook', 'no test'."""
        out = []
        if not self.hooks and not self.no_hook:
            out.append("no hook")
        if not self.tests and not self.no_test:
            out.append("no test")
        return out


def load_sections(code_dir: Path) -> SectionsFile:
    """A game's shipped list of sections (DataError naming the file if it is wrong)."""
    return load_model(SectionsFile, code_dir / "data" / SECTIONS_FILE)


def coverage(code_dir: Path, tests_dir: Path | None) -> tuple[list[Row], Citations]:
    """The coverage table of the game whose package is ``code_dir``."""
    spec = load_sections(code_dir)
    known = [s.id for s in spec.sections]
    found = collect(code_dir, tests_dir, known, spec.numbering)
    rows = [Row(s.id, s.title, tuple(found.hooks.get(s.id, ())), tuple(found.tests.get(s.id, ())),
                s.no_hook, s.no_test) for s in spec.sections]
    return rows, found


def find_tests_dir(code_dir: Path, game_id: str, start: Path | None = None) -> Path | None:
    """The folder of a game's tests: ``tests/`` inside its package folder (an example game
    ships its tests beside it), ``tests/games/<id>`` beside the source tree of the package
    (an editable install, a checkout) or above the current folder; None if absent."""
    candidates = [code_dir / "tests", code_dir.parent.parent / "tests" / "games" / game_id]
    here = (start or Path.cwd()).resolve()
    candidates += [p / "tests" / "games" / game_id for p in (here, *here.parents)]
    for c in candidates:
        if c.is_dir():
            return c
    return None


def render(title: str, rows: Sequence[Row], found: Citations, *, tests_known: bool,
           verbose: bool = False) -> list[str]:
    """The coverage table as text lines, with a summary and what is unaccounted for."""
    width = max(len(r.title) for r in rows)
    width = min(width, 44)
    lines = [title, f"{'section':<8} {'title':<{width}}  {'hooks':>5}  {'tests':>5}  notes"]
    for r in rows:
        notes = []
        if not r.hooks and r.no_hook:
            notes.append(f"no hook: {r.no_hook}")
        if not r.tests and r.no_test:
            notes.append(f"no test: {r.no_test}")
        flags = r.flags if tests_known else [f for f in r.flags if f != "no test"]
        notes += [f"** {f} **" for f in flags]
        lines.append(f"{r.id:<8} {r.title[:width]:<{width}}  {len(r.hooks):>5}  "
                     f"{len(r.tests) if tests_known else '?':>5}  {'; '.join(notes)}".rstrip())
        if verbose:
            for h in r.hooks:
                lines.append(f"{'':<8}   hook {h}")
            for t in r.tests:
                lines.append(f"{'':<8}   test {t}")
    hooked = sum(1 for r in rows if r.hooks)
    tested = sum(1 for r in rows if r.tests)
    open_ = [r for r in rows if (r.flags if tests_known else
                                 [f for f in r.flags if f != "no test"])]
    lines.append(f"{len(rows)} sections: {hooked} cited by hooks, "
                 f"{tested if tests_known else '?'} named by tests, "
                 f"{len(open_)} unaccounted for"
                 + ("" if tests_known else " (tests not found: pass --tests DIR)"))
    lines += [f"unknown citation: {u}" for u in found.unknown]
    return lines


def roll_rule(purpose: RollPurpose, spec: SectionsFile | None) -> tuple[str, str]:
    """The section of the rulebook a roll's rule belongs to and its title: the roll's own
    section when ``sections.yaml`` lists it, else the nearest listed parent (9.1d in 9.1,
    IV.F.1 in IV.F); ("", "") without a list or when none is listed."""
    if spec is None:
        return "", ""
    found = resolve(purpose.section, [s.id for s in spec.sections])
    titles = {s.id: s.title for s in spec.sections}
    return (found, titles[found]) if found else ("", "")


def roll_lines(purposes: Sequence[RollPurpose], spec: SectionsFile | None = None) -> list[str]:
    """``tabletop rules GAME --rolls``: one line a roll, the key a test forces it by
    ("9.1d CRT"), its dice, its rule and the rulebook section holding it (with the section
    list ``spec``), the text it is logged with and why it is rare."""
    width = max(len(p.label()) for p in purposes)
    dice = max(len(p.dice) for p in purposes)
    lines = []
    for p in purposes:
        found, title = roll_rule(p, spec)
        rule = f"rule {p.section}"
        if found == p.section:
            rule += f" {title}"
        elif found:
            rule += f" (in {found} {title})"
        extra = f"  logged as {p.text!r}" if p.text and p.text != p.name else ""
        extra += f"  (rare: {p.rare})" if p.rare else ""
        lines.append(f"{p.label():<{width}}  {p.dice:<{dice}}  {rule}{extra}")
    return lines
