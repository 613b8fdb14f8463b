"""The house rule that core/ reads top to bottom: no core module imports one that imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "core"


def _imports(path: Path, package: str) -> set[str]:
    """The core modules a module imports (at module level or in functions; not for typing only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            typing_only.update(id(x) for b in node.body for x in ast.walk(b))
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only or not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        target = ".".join([*base, node.module] if node.module else base)
        out.add(target)
        out.update(f"{target}.{a.name}" for a in node.names)
    return out


def _cycles(root: Path) -> list[list[str]]:
    """The import cycles among the modules of the package at ``root``."""
    modules: dict[str, Path] = {}
    for f in root.rglob("*.py"):
        parts = [p for p in f.relative_to(root).with_suffix("").parts if p != "__init__"]
        modules[".".join([root.name, *parts])] = f
    graph: dict[str, set[str]] = {}
    for name, f in modules.items():
        package = name if f.name == "__init__.py" else name.rsplit(".", 1)[0]
        graph[name] = {t for t in _imports(f, package) if t in modules and t != name
                       and not (f.name == "__init__.py" and t.startswith(name + "."))}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*trail[trail.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    return cycles


def test_core_has_no_import_cycles() -> None:
    """Architecture (DESIGN "change these"): the import graph of core/ has no cycle."""
    cycles = _cycles(CORE)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize("game", sorted(p.name for p in (CORE.parent / "games").iterdir()
                                        if (p / "__init__.py").is_file()))
def test_each_game_package_has_no_import_cycles(game: str) -> None:
    """Architecture: a game's modules read top to bottom too."""
    cycles = _cycles(CORE.parent / "games" / game)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)
