"""Fuzzing the data files and positions: one mutated YAML node never gives a traceback.

Each example copies a game's data (or a position), changes one node of one YAML file (a
key deleted, a value of another type, a number made negative or huge, a string made
garbage, a list entry repeated), then validates it and opens a match from it. Whatever the
change, the answer is a match or one clear refusal (a TabletopError such as DataError):
never another exception, never an "internal error", and within a generous time.
"""

from __future__ import annotations

import importlib
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core.designer.validation import validate_file, validate_path, validate_position
from tabletop.core.engine.data import read_data_file
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Match
from tabletop.core.engine.position import load_position
from tabletop.core.engine.registry import load_game

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "docs" / "example" / "skirmish"
GAMES = ("iwo_bonins", "iwo_valor", "iwo_1945", "manila45")
POSITIONS = [*sorted((ROOT / "docs" / "positions").glob("*.yaml")), SKIRMISH / "positions" / "duel.yaml"]
HANG = 60.0  # seconds: a hang guard only, far above what any example takes

MUTATIONS = ("delete", "none", "text", "list", "mapping", "negative", "huge", "garbage",
             "duplicate", "float", "bool", "deep")


def _nodes(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in parsed YAML, as a path of keys and indices (the root excluded)."""
    out: list[tuple[Any, ...]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            out.append((*path, key))
            out.extend(_nodes(value, (*path, key)))
    elif isinstance(data, list):
        for n, value in enumerate(data):
            out.append((*path, n))
            out.extend(_nodes(value, (*path, n)))
    return out


def _mutate(data: Any, path: tuple[Any, ...], how: str, garbage: str) -> Any:
    """``data`` with the node at ``path`` changed as ``how`` says (in place; returned)."""
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    value = parent[last]
    if how == "delete":
        del parent[last]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(last, value)
    elif how == "negative" and isinstance(value, int | float) and not isinstance(value, bool):
        parent[last] = -abs(value) - 1
    elif how == "huge":
        parent[last] = 10**30 if isinstance(value, int | float) else "x" * 5000
    elif how == "none":
        parent[last] = None
    elif how == "text":
        parent[last] = str(value)[:40] + "?"
    elif how == "list":
        parent[last] = [value, value]
    elif how == "mapping":
        parent[last] = {"k": value}
    elif how == "float":
        parent[last] = 2.5
    elif how == "bool":
        parent[last] = True
    elif how == "deep":  # lists nested past the bound
        for _ in range(120):
            value = [value]
        parent[last] = value
    else:
        parent[last] = garbage
    return data


def _mutated_text(text: str, data: st.DataObject) -> bytes:
    """A YAML file's bytes with one node changed (or text added when it has no node); now
    and then a Latin-1 byte in it, which is not UTF-8."""
    parsed = yaml.safe_load(text)
    nodes = _nodes(parsed)
    if not nodes:
        out = text + "\n" + data.draw(st.text(max_size=20))
    else:
        path = data.draw(st.sampled_from(nodes), label="node")
        how = data.draw(st.sampled_from(MUTATIONS), label="mutation")
        garbage = data.draw(st.text(max_size=12), label="garbage")
        out = yaml.safe_dump(_mutate(parsed, path, how, garbage), allow_unicode=True,
                             sort_keys=False, width=100_000)
    raw = out.encode("utf-8")
    if data.draw(st.integers(0, 9), label="latin-1") == 0:
        at = data.draw(st.integers(0, len(raw)), label="at")
        raw = raw[:at] + b"\xe9" + raw[at:]
    return raw


def _only_clear_refusals(action: Callable[[], object]) -> None:
    """Run ``action``: it may succeed or raise a TabletopError with a one-line message that
    is not an internal error; anything else fails, and so does a hang."""
    began = time.monotonic()
    try:
        action()
    except TabletopError as exc:
        message = str(exc)
        assert message and "\n" not in message and "internal error" not in message, message
    assert time.monotonic() - began < HANG


@given(data=st.data())
@settings(max_examples=40)
def test_a_mutated_example_game_is_validated_and_opened_or_refused_clearly(
        tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    """The example game, whole: ``validate`` its folder, then open a match as ``play`` does."""
    files = sorted(p.name for p in (SKIRMISH / "data").glob("*.yaml"))
    name = data.draw(st.sampled_from(files), label="file")
    base = tmp_path_factory.mktemp("fuzz")
    folder = base / f"skfuzz_{base.name}"  # a fresh module name for every example
    shutil.copytree(SKIRMISH, folder, ignore=shutil.ignore_patterns("__pycache__"))
    target = folder / "data" / name
    target.write_bytes(_mutated_text(target.read_text(), data))

    def validate_and_open() -> None:
        try:
            validate_path(str(folder))
        except TabletopError:
            # the rulebook's list serves `tabletop rules` alone, and the counter art the
            # drawings alone (`tabletop render`, the browser), which refuse it in one line
            if name in ("sections.yaml", "counter_art.yaml"):
                raise
            with pytest.raises(TabletopError):  # what validate refuses, play refuses
                Match(load_game(str(folder)), seed=1)
            raise
        Match(load_game(str(folder)), seed=1)

    _only_clear_refusals(validate_and_open)


def _loader(game: str, monkeypatch: pytest.MonkeyPatch) -> Callable[[Path], object]:
    """What loads and cross-checks a game's data folder (its components)."""
    components = importlib.import_module(f"tabletop.games.{game}.components")
    if hasattr(components, "load_components"):
        return components.load_components  # type: ignore[no-any-return]

    def load(folder: Path) -> object:
        monkeypatch.setattr(components, "DATA_DIR", folder)
        return components.components.__wrapped__()

    return load


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
@settings(max_examples=25)
def test_a_mutated_game_data_file_is_loaded_or_refused_clearly(
        tmp_path_factory: pytest.TempPathFactory, game: str, data: st.DataObject) -> None:
    """Each rulebook game's data: the mutated file against its model (``validate FILE``),
    then the game's own loader and cross-checks over the whole folder."""
    source = ROOT / "games" / game / "data"
    files = sorted(p.name for p in source.glob("*.yaml"))
    name = data.draw(st.sampled_from(files), label="file")
    folder = tmp_path_factory.mktemp("fuzz") / "data"
    shutil.copytree(source, folder)
    target = folder / name
    target.write_bytes(_mutated_text(target.read_text(), data))
    models = load_game(game).data_models()
    with pytest.MonkeyPatch.context() as monkeypatch:
        load = _loader(game, monkeypatch)
        _only_clear_refusals(lambda: validate_file(target, models))
        _only_clear_refusals(lambda: load(folder))


@given(data=st.data())
@settings(max_examples=60)
def test_a_mutated_position_is_set_up_or_refused_clearly(
        tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    """The shipped positions, one node changed: checked as ``validate`` does, then opened as
    ``play --position`` does."""
    source = data.draw(st.sampled_from(POSITIONS), label="position")
    path = tmp_path_factory.mktemp("fuzz") / source.name
    path.write_bytes(_mutated_text(source.read_text(), data))

    game_id = str(yaml.safe_load(source.read_text())["game"])  # the game play is told of
    game = load_game(str(SKIRMISH) if game_id == "skirmish" else game_id)

    def check_and_open() -> None:
        position = load_position(path)
        validate_position(path, read_data_file(path), game)
        Match.from_position(game, position, source=str(path))

    _only_clear_refusals(check_and_open)


SMALL_FIELDS: dict[str, Any] = {
    "seed": st.integers(min_value=-(2**70), max_value=2**70),
    "turn": st.integers(min_value=-5, max_value=10**7),
    "start": st.sampled_from(["start", "blue_move", "blue_combat", "red_move", "nowhere"]),
    "pieces": st.dictionaries(st.sampled_from(["B1", "B4", "R1", "R4", "X9"]), st.fixed_dictionaries(
        {}, optional={"at": st.sampled_from(["0101", "0504", "0507", "box:eliminated", "9999"]),
                      "steps": st.integers(min_value=-1, max_value=3),
                      "face": st.sampled_from(["front", "back"]),
                      "hidden": st.booleans()}), max_size=3),
    "dice": st.lists(st.fixed_dictionaries({"roll": st.sampled_from(["5.3 combat", "9.9 never"]),
                                            "faces": st.lists(st.integers(-1, 9), min_size=1,
                                                              max_size=3)}), max_size=2),
    "options": st.dictionaries(st.sampled_from(["turns", "bogus"]), st.sampled_from([4, 6, 8, 7, "x"]),
                               max_size=1),
    "vars": st.dictionaries(st.sampled_from(["lost", "other"]),
                            st.one_of(st.none(), st.integers(), st.dictionaries(
                                st.sampled_from(["Blue", "Red"]), st.integers(-3, 3))), max_size=1),
}


@given(fields=st.fixed_dictionaries({}, optional=SMALL_FIELDS))
@settings(max_examples=60)
def test_a_small_generated_position_is_set_up_or_refused_clearly(
        tmp_path_factory: pytest.TempPathFactory, fields: dict[str, Any]) -> None:
    """Small generated positions of the example game, every field possibly out of range."""
    path = tmp_path_factory.mktemp("fuzz") / "pos.yaml"
    path.write_text(yaml.safe_dump({"game": "skirmish", **fields}))
    game = load_game(str(SKIRMISH))
    _only_clear_refusals(lambda: Match.from_position(game, load_position(path), source=str(path)))
