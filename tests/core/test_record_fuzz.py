"""Fuzzing saved records of every game: a mutated record is refused in one clear line or
is, in canonical JSON, the record that was saved; never a traceback, never a hang, and never
a tampered record reported verified."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.core.engine.agents import RandomAgent
from tabletop.core.engine.canonical import dumps
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.position import load_position
from tabletop.core.engine.record import loads_record, make_record, make_save, replay
from tabletop.core.engine.registry import load_game

from .game_dirs import SKIRMISH

GAMES = [(SKIRMISH, None), ("iwo_bonins", "solitaire"), ("iwo_valor", "very_short"),
         ("iwo_1945", None), ("manila45", None), (SKIRMISH, "positions/duel.yaml")]
"""Each game with a short scenario (or the example game from a position file, whose record
carries the position and its forced dice): played a few dozen decisions by random bots."""

DECISIONS = 30
REPLAY_LIMIT = 120
"""Seconds one replay may take before the fuzz test calls it a hang (a generous bound: a
replay of these records takes a small fraction of a second)."""


class Hang(BaseException):
    """A replay that ran past REPLAY_LIMIT (a BaseException: nothing under test swallows it)."""


@contextmanager
def bounded(seconds: float) -> Iterator[None]:
    """Raise Hang if the block runs longer than ``seconds``."""
    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang(f"a replay ran over {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path (keys and indexes) to a value inside a JSON value, itself included."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


@pytest.fixture(scope="module", params=GAMES,
                ids=[(g[1] or g[0]).rsplit("/", 1)[-1] for g in GAMES])
def saved(request: pytest.FixtureRequest) -> tuple[Game, dict[str, Any], dict[str, list[tuple[Any, ...]]]]:
    """A game, a save of a match of it a few dozen decisions in (or a record, for one game),
    and the paths inside each part of it."""
    name, scenario = request.param
    game = load_game(name)
    if scenario is not None and scenario.endswith(".yaml"):
        position = load_position(Path(name) / scenario)
        match = Match.from_position(game, position.model_copy(update={"seed": 11}))
    else:
        match = Match(game, scenario=scenario, seed=11)
    match.run({side: RandomAgent(side, 11) for side in game.info.players}, max_decisions=DECISIONS)
    record = json.loads(json.dumps(make_record(match) if name == "iwo_1945" else make_save(match)))
    parts = {key: [(key, *p) for p in _paths(value)] for key, value in record.items()}
    return game, record, parts


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6)


def _deep(depth: int) -> str:
    """A placeholder for a value nested ``depth`` lists deep, put in the JSON text by
    :func:`_as_text` (the value itself would be too deep to print or serialise)."""
    return f"\u0000deep {depth}\u0000"


def _as_text(record: Any) -> str:
    """The record as JSON text, each :func:`_deep` placeholder replaced by its nesting."""
    text = json.dumps(record)
    for depth in DEPTHS:
        text = text.replace(json.dumps(_deep(depth)), "[" * depth + "0" + "]" * depth)
    return text


DEPTHS = (50, 199, 400, 3000)


def _near(value: Any) -> st.SearchStrategy[Any]:
    """Values close to ``value``: one off, the other boolean, the same number as a float,
    a string cut or changed by a character."""
    out: list[Any] = []
    if isinstance(value, bool):
        out.append(not value)
    elif isinstance(value, int):
        out += [value + 1, value - 1, -value, float(value)]
    elif isinstance(value, float):
        out += [value + 1, int(value)]
    elif isinstance(value, str):
        out += [value[:-1], value + "0", value.upper(), value[::-1]]
    return st.sampled_from(out) if out else st.nothing()


@st.composite
def mutated(draw: st.DrawFn, record: dict[str, Any],
            parts: dict[str, list[tuple[Any, ...]]]) -> dict[str, Any]:
    """The record with one or two mutations: a value replaced (by a nearby one, another
    decision, any JSON, or one nested deeply), removed, or a decision inserted, dropped or
    swapped; or a field added."""
    out: dict[str, Any] = json.loads(json.dumps(record))
    for _ in range(draw(st.integers(1, 2))):
        part = draw(st.sampled_from(sorted(parts)))
        path = draw(st.sampled_from(parts[part]))
        parent: Any = out
        try:
            for key in path[:-1]:
                parent = parent[key]
            current = parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed it
        op = draw(st.sampled_from(["near", "decision", "any", "deep", "remove", "add", "swap"]))
        if op == "near":
            near = _near(current)
            if near.is_empty:
                continue
            parent[path[-1]] = draw(near)
        elif op == "decision" and out.get("decisions"):
            parent[path[-1]] = draw(st.sampled_from(out["decisions"]))
        elif op == "any":
            parent[path[-1]] = draw(JSON_VALUES)
        elif op == "deep":
            parent[path[-1]] = _deep(draw(st.sampled_from(DEPTHS)))
        elif op == "remove":
            del parent[path[-1]]
        elif op == "add":
            if isinstance(current, dict):
                current[draw(st.text(max_size=8))] = draw(JSON_VALUES)
            elif isinstance(current, list):
                current.insert(draw(st.integers(0, len(current))), draw(JSON_VALUES))
        elif op == "swap" and isinstance(current, list) and len(current) > 1:
            i = draw(st.integers(0, len(current) - 1))
            j = draw(st.integers(0, len(current) - 1))
            current[i], current[j] = current[j], current[i]
    return out


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_mutated_record_is_refused_or_the_same_record(
        saved: tuple[Game, dict[str, Any], dict[str, list[tuple[Any, ...]]]], data: st.DataObject) -> None:
    """Any mutation of a saved record of any game: read and replayed (verified), it is
    refused with a TabletopError of one line, or it is the saved record in canonical JSON.
    No other exception, no hang."""
    game, record, parts = saved
    forged = data.draw(mutated(record, parts))
    text = _as_text(forged)
    try:
        with bounded(REPLAY_LIMIT):
            replay(game, loads_record(text, "fuzzed.json"))
    except TabletopError as exc:
        message = str(exc)
        assert message and "\n" not in message and "internal error" not in message
        return
    assert dumps(forged) == dumps(record), "a changed record was reported verified"
