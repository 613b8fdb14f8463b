"""The house rule that core/ reads top to bottom: no core module imports one that imports it back."""

from __future__ import annotations

import ast
import subprocess
import sys
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


def _games_imports(path: Path, package: str, root: str = "tabletop.games") -> list[str]:
    """Where a core module names ``tabletop.games`` (or another ``root``): every import
    (typing-only ones too) and every ``import_module``/``__import__`` of a constant name, as
    ``line: target``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - (node.level - 1)]
                targets = [".".join([*base, node.module] if node.module else base)]
            else:
                targets = [node.module or ""]
            targets += [f"{targets[0]}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(
                func, ast.Attribute) else ""
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                targets = [node.args[0].value]
        line = node.lineno if isinstance(node, ast.stmt | ast.expr) else 0
        found += [f"{line}: {t}" for t in targets if t == root or t.startswith(root + ".")]
    return found


def _core_modules() -> dict[str, Path]:
    """Every module under core/, by its installed name (``tabletop.core.x``)."""
    modules: dict[str, Path] = {}
    for f in sorted(CORE.rglob("*.py")):
        parts = [p for p in f.relative_to(CORE).with_suffix("").parts if p != "__init__"]
        modules[".".join(["tabletop", "core", *parts])] = f
    return modules


def test_core_never_imports_a_game_in_its_source() -> None:
    """Architecture (core knows no game): no module under core/, parsed whole, imports
    ``tabletop.games`` or anything in it, absolutely or relatively, even for typing only."""
    modules = _core_modules()
    assert len(modules) > 20 and "tabletop.core.engine.match" in modules
    found = []
    for name, f in modules.items():
        package = name if f.name == "__init__.py" else name.rsplit(".", 1)[0]
        found += [f"{f.relative_to(CORE.parent)}:{hit}" for hit in _games_imports(f, package)]
    assert not found, "core imports a game: " + "; ".join(found)


def test_core_never_imports_the_learning_environments() -> None:
    """Architecture (the learning bindings are an optional extra built on the core): no
    module under core/ imports ``tabletop.env`` or anything in it, even for typing only, so
    the core imports and runs without gymnasium, pettingzoo and open_spiel."""
    found = []
    for name, f in _core_modules().items():
        package = name if f.name == "__init__.py" else name.rsplit(".", 1)[0]
        found += [f"{f.relative_to(CORE.parent)}:{hit}"
                  for hit in _games_imports(f, package, "tabletop.env")]
    assert not found, "core imports tabletop.env: " + "; ".join(found)


def test_the_source_check_sees_an_env_import(tmp_path: Path) -> None:
    """The check above finds an absolute and a relative import of the environments."""
    module = tmp_path / "m.py"
    for source, hit in (("import tabletop.env.aec", True),
                        ("from ..env import pettingzoo_env", True),
                        ("from tabletop.environ import x", False)):
        module.write_text(source + "\n", encoding="utf-8")
        assert bool(_games_imports(module, "tabletop.core", "tabletop.env")) is hit, source


def test_the_source_check_sees_a_game_import(tmp_path: Path) -> None:
    """The check above finds each way a module could name a game (absolute, relative from
    core's package, by name at run time) and passes a module that does not."""
    module = tmp_path / "m.py"
    for source, hit in (("import tabletop.games.iwo_1945", True),
                        ("from tabletop.games import iwo_bonins", True),
                        ("from ..games.manila45 import GAME", True),
                        ("from .. import games", True),
                        ("importlib.import_module('tabletop.games.iwo_valor')", True),
                        ("from .match import Match\nGROUP = 'tabletop.games'", False),
                        ("from tabletop.gamesmith import x", False)):
        module.write_text(source + "\n", encoding="utf-8")
        assert bool(_games_imports(module, "tabletop.core")) is hit, source


def test_importing_every_core_module_loads_no_game() -> None:
    """Architecture (core knows no game): in a fresh interpreter, importing every module
    of tabletop.core (found by walking the installed package) leaves no ``tabletop.games``
    module in ``sys.modules``, nor the learning environments (``tabletop.env``) or the
    libraries of their optional extra."""
    script = (
        "import importlib, pkgutil, sys\n"
        "import tabletop.core as core\n"
        "names = [m.name for m in pkgutil.walk_packages(core.__path__, 'tabletop.core.')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "roots = ('tabletop.games', 'tabletop.env', 'gymnasium', 'pettingzoo', 'pyspiel')\n"
        "below = tuple(r + '.' for r in roots)\n"
        "games = sorted(k for k in sys.modules if k in roots or k.startswith(below))\n"
        "print(len(names), ' '.join(games))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    count, _, games = done.stdout.strip().partition(" ")
    assert int(count) >= len(_core_modules()) - 1, done.stdout  # every module but __init__
    assert not games, f"importing core loaded {games}"


# The core's layers, in the order docs/architecture.md lists them: each imports only from
# itself and the layers before it (typing-only imports aside).
LAYERS = ("engine", "board", "kit", "studies", "designer", "frontends")


def test_each_layer_imports_only_from_the_layers_before_it() -> None:
    """core/engine imports no other layer; core/board only the engine; the designer's kit
    the engine and the board; the studies and the designer's tools the layers before them;
    the front ends any layer."""
    assert sorted(p.parent.name for p in CORE.glob("*/__init__.py")) == sorted(LAYERS)
    wrong = []
    for rank, layer in enumerate(LAYERS):
        for f in sorted((CORE / layer).rglob("*.py")):
            parts = [p for p in f.relative_to(CORE).with_suffix("").parts if p != "__init__"]
            package = ".".join(["core", *parts[:-1]] if f.name != "__init__.py" else ["core", *parts])
            for target in _imports(f, package):
                names = target.split(".")
                if len(names) > 1 and names[0] == "core" and names[1] in LAYERS \
                        and LAYERS.index(names[1]) > rank:
                    wrong.append(f"{f.relative_to(CORE)} imports {target}")
    assert not wrong, wrong
