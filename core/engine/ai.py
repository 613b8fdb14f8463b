"""A game's AI declared as data: its ``data/ai.yaml``, the evaluation of a position and the
priorities of its bots.

The file has two parts, both optional:

``evaluation``
    The features a position is scored on and their weights. Each feature is a core measure
    (:data:`MEASURES`: units, steps or a printed value of a side's pieces, places held,
    distance to places, a game variable, a track, a score field of ``Game.summary``, a deck
    pile, the result if the game ended now, a constant) with its parameters, or a hook: a function of the
    game's ``ai`` module (``ai.py`` beside its ``__init__.py``) named in the file, called as
    ``hook(match, side, **params)`` and returning a number. A side's score is
    ``tanh(sum(weight * value) / scale)``, from -1 (lost) to 1 (won): what a search's
    rollout cut short is worth (:meth:`~.match.Game.evaluate`) and what the ``greedy``
    agent plays by. A feature's value for a side is, by ``of``, the measure of that side
    less the mean of the others' (``relative``, the default), of that side alone
    (``self``), or of a named side; its ``weight`` is one number, or a number per side (a
    side not named weighs it 0).

``search``
    The options the search agent (``mcts``) takes in this game where the agent's name gives
    none (``root: paired``, ``playouts: 32``): how the game's designer has found it plays
    best at a sensible cost.

``priorities``
    Named values the game's heuristic bots read (orders of targets, thresholds, weights):
    plain data, checked against the ``Priorities`` model the game's ``ai`` module declares
    when it declares one, so that a bot's constant is a line of the file rather than of its
    code.

The core measures read the match through what every game has (``match.state``,
``game.summary``, ``game.board(match)`` taken by its shape: ``in``, ``id_distance`` or
``distance``) and nothing game-specific. :func:`ai_of` reads, checks and keeps a game's
file on the game object; every problem is one DataError naming the file and the path in it.
"""

from __future__ import annotations

import importlib
import inspect
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError, create_model, field_validator

from .data import AtPath, StrictModel, format_validation_error, read_data_file, repeated, validate
from .errors import DataError, TabletopError
from .pieces import OFF_BOARD, Piece

if TYPE_CHECKING:
    from .match import Game, Match

AI_FILE = "ai.yaml"
"""The file of a game's ``data/`` folder that declares its AI."""

HOOKS_MODULE = "ai"
"""The module of a game package holding its evaluation hooks and its ``Priorities`` model."""

PRIORITIES_MODEL = "Priorities"
"""The name of the pydantic model, in the game's ``ai`` module, its priorities must fit."""

SIDE = "{side}"
"""In a variable path, track id, score field, pile or place, the side being measured."""


# -- the file's models --------------------------------------------------------------------------

Where = Literal["board", "anywhere"] | tuple[str, ...]
"""Which of a side's pieces a measure counts: those on the board (a place of
``game.board(match)``; every place but off-board when the game draws none), those anywhere
but off-board, or those at the places listed."""


class _Measure(StrictModel):
    """What every feature says: its id, weight and whose value it takes."""

    id: str = Field(min_length=1)
    weight: float | dict[str, float] = 1.0
    of: str = "relative"

    @field_validator("weight")
    @classmethod
    def _finite(cls, value: float | dict[str, float]) -> float | dict[str, float]:
        for w in (value.values() if isinstance(value, dict) else (value,)):
            if not math.isfinite(w):
                raise ValueError(f"a weight must be a finite number, not {w}")
        return value


class _Pieces(_Measure):
    """A measure over a side's pieces with steps left, filtered by kind and place."""

    where: Where = "board"
    kinds: tuple[str, ...] = ()


class Units(_Pieces):
    """How many pieces of the side with a step left."""

    measure: Literal["units"]


class Steps(_Pieces):
    """The steps the side's pieces have left."""

    measure: Literal["steps"]


class Value(_Pieces):
    """The total of one printed value (``value: attack``) on the faces up of the side's
    pieces (a piece that does not print it counts 0)."""

    measure: Literal["value"]
    value: str = Field(min_length=1)


class Held(_Measure):
    """The places the side holds: one of its pieces there and no other side's; ``places``
    lists them (each worth 1) or maps each to what it is worth."""

    measure: Literal["held"]
    places: tuple[str, ...] | dict[str, float] = Field(min_length=1)


class Distance(_Measure):
    """How far the side's pieces on the board stand from the nearest of ``to`` (in hexes or
    areas, by the board's ``id_distance`` or ``distance``): their ``mean`` (the default),
    ``min`` or ``sum``; 0 when none stands where a distance is known. Give it a negative
    weight to draw pieces closer."""

    measure: Literal["distance"]
    to: tuple[str, ...] = Field(min_length=1)
    stat: Literal["mean", "min", "sum"] = "mean"
    kinds: tuple[str, ...] = ()


class Var(_Measure):
    """A number kept in the game's variables, by its path (``lost.{side}``: the key
    ``lost``, then the side's own); ``default`` when a key is missing (else an error)."""

    measure: Literal["var"]
    path: str = Field(min_length=1)
    default: float | None = None


class TrackValue(_Measure):
    """The value of a track (``track: vp`` or ``"{side}_vp"``)."""

    measure: Literal["track"]
    track: str = Field(min_length=1)
    default: float | None = None


class Summary(_Measure):
    """A number among the score fields of ``Game.summary`` (``field: us_vp``, or one field a
    side: ``field: {US: us_casualties, Japan: japan_casualties}``)."""

    measure: Literal["summary"]
    field: str | dict[str, str]
    default: float | None = None


class Pile(_Measure):
    """How many cards a deck's pile holds."""

    measure: Literal["pile"]
    deck: str = Field(min_length=1)
    pile: str = Field(min_length=1)


class Outcome(_Measure):
    """The result if the game ended now (``Game.final_result``): 1 a win of the side, -1 a
    loss, 0 a draw; give it ``of: self``."""

    measure: Literal["result"]


class Constant(_Measure):
    """One, always: a feature of this measure is an offset of the score (its weight), such
    as the part of an expected result that no other feature carries; give it ``of: self``
    (relative to the others it is 0)."""

    measure: Literal["constant"]


class Hook(_Measure):
    """A function of the game's ``ai`` module, ``hook(match, side, **params) -> float``."""

    measure: Literal["hook"]
    hook: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)


Feature = Annotated[Units | Steps | Value | Held | Distance | Var | TrackValue | Summary | Pile
                    | Outcome | Constant | Hook, Field(discriminator="measure")]
"""One feature of the evaluation, chosen by its ``measure``."""


class Evaluation(StrictModel):
    """How a position is scored for a side: ``tanh(sum(weight * value) / scale)``."""

    scale: float = Field(default=1.0, gt=0, allow_inf_nan=False)
    features: tuple[Feature, ...] = ()

    @field_validator("features")
    @classmethod
    def _unique_ids(cls, features: tuple[Feature, ...]) -> tuple[Feature, ...]:
        repeated((f.id for f in features), ())
        return features


def _plain(value: Any, path: tuple[str | int, ...]) -> None:
    """Refuse what is not plain JSON data (a date, a set, a non-text key) at its path."""
    todo: list[tuple[Any, tuple[str | int, ...]]] = [(value, path)]
    while todo:
        item, where = todo.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if not isinstance(key, str):
                    raise AtPath(where, f"the key {key!r} must be text (write it in quotes)")
                todo.append((inner, (*where, key)))
        elif isinstance(item, list):
            todo.extend((inner, (*where, n)) for n, inner in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            raise AtPath(where, f"{item} is not a finite number")
        elif not isinstance(item, str | int | float | bool) and item is not None:
            raise AtPath(where, f"{item!r} is not plain data (text, a number, true/false, a "
                         "list or a mapping)")


class AIFile(StrictModel):
    """The model of a game's ``data/ai.yaml``."""

    description: str = ""
    evaluation: Evaluation = Evaluation()
    priorities: dict[str, Any] = Field(default_factory=dict)
    #: the options the search agent (``mcts``) takes in this game where its name gives none
    search: dict[str, str | int | float] = Field(default_factory=dict)

    @field_validator("priorities")
    @classmethod
    def _plain_data(cls, priorities: dict[str, Any]) -> dict[str, Any]:
        _plain(priorities, ())
        return priorities


# -- the measures ---------------------------------------------------------------------------


class _Board:
    """The board of a match taken by its shape: which places it holds and how far apart two
    of them are (None when it cannot tell)."""

    __slots__ = ("_board", "_distance")

    def __init__(self, board: Any) -> None:
        self._board = board
        self._distance: Callable[[str, str], Any] | None = (
            getattr(board, "id_distance", None) or getattr(board, "distance", None))

    def holds(self, place: str) -> bool:
        board = self._board
        if board is None:
            return place != OFF_BOARD
        try:
            return place in board
        except TypeError:
            return False

    def distance(self, a: str, b: str) -> float | None:
        if self._distance is None or not (self.holds(a) and self.holds(b)):
            return None
        try:
            found = self._distance(a, b)
        except (TabletopError, KeyError, ValueError):
            return None
        return None if found is None else float(found)


class Measuring:
    """What the measures of one evaluation share: the match, its board, and each side's
    pieces with a step left (worked out once an evaluation)."""

    __slots__ = ("_alive", "board", "game", "match")

    def __init__(self, match: Match) -> None:
        self.match = match
        self.game = match.game
        self.board = _Board(self.game.board(match))
        self._alive: dict[str, list[Piece]] = {}

    def pieces(self, side: str, where: Where, kinds: Sequence[str]) -> list[Piece]:
        """The side's pieces with a step left at the places ``where`` says, of ``kinds``."""
        alive = self._alive.get(side)
        if alive is None:
            alive = self._alive[side] = [p for p in self.match.state.pieces.select(side=side)
                                         if p.steps > 0 and p.location != OFF_BOARD]
        if where == "board":
            found = [p for p in alive if self.board.holds(p.location)]
        elif where == "anywhere":
            found = list(alive)
        else:
            places = {w.replace(SIDE, side) for w in where}
            found = [p for p in alive if p.location in places]
        return [p for p in found if p.kind in kinds] if kinds else found


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TabletopError(f"{what} is {value!r}, not a number")
    return float(value)


def _units(m: Measuring, side: str, f: Units) -> float:
    return float(len(m.pieces(side, f.where, f.kinds)))


def _steps(m: Measuring, side: str, f: Steps) -> float:
    return float(sum(p.steps for p in m.pieces(side, f.where, f.kinds)))


def _value(m: Measuring, side: str, f: Value) -> float:
    return float(sum(p.values.get(p.face, {}).get(f.value, 0)
                     for p in m.pieces(side, f.where, f.kinds)))


def _held(m: Measuring, side: str, f: Held) -> float:
    worth = f.places if isinstance(f.places, dict) else dict.fromkeys(f.places, 1.0)
    pieces = m.match.state.pieces
    total = 0.0
    for place, value in worth.items():
        here = [p for p in pieces.at(place.replace(SIDE, side)) if p.steps > 0]
        if any(p.side == side for p in here) and all(p.side == side for p in here if p.side):
            total += value
    return total


def _distance(m: Measuring, side: str, f: Distance) -> float:
    targets = [t.replace(SIDE, side) for t in f.to]
    found = []
    for p in m.pieces(side, "board", f.kinds):
        near = [d for d in (m.board.distance(p.location, t) for t in targets) if d is not None]
        if near:
            found.append(min(near))
    if not found:
        return 0.0
    if f.stat == "min":
        return min(found)
    return sum(found) / len(found) if f.stat == "mean" else sum(found)


def _var(m: Measuring, side: str, f: Var) -> float:
    value: Any = m.match.state.vars
    for key in f.path.replace(SIDE, side).split("."):
        if isinstance(value, Mapping) and key in value:
            value = value[key]
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        elif f.default is not None:
            return f.default
        else:
            raise TabletopError(f"no game variable {f.path.replace(SIDE, side)!r} (give the "
                                "feature a default)")
    return _number(value, f"the game variable {f.path.replace(SIDE, side)!r}")


def _track(m: Measuring, side: str, f: TrackValue) -> float:
    name = f.track.replace(SIDE, side)
    track = m.match.state.tracks.get(name)
    if track is not None:
        return float(track.value)
    if f.default is not None:
        return f.default
    raise TabletopError(f"no track {name!r} (give the feature a default)")


def _summary(m: Measuring, side: str, f: Summary) -> float:
    if isinstance(f.field, dict):
        if side not in f.field:
            return 0.0
        name = f.field[side]
    else:
        name = f.field.replace(SIDE, side)
    fields = m.game.summary(m.match)
    if name in fields:
        return _number(fields[name], f"the score field {name!r}")
    if f.default is not None:
        return f.default
    raise TabletopError(f"no score field {name!r} in the game's summary (give the feature a "
                        "default)")


def _pile(m: Measuring, side: str, f: Pile) -> float:
    deck = m.match.state.decks.get(f.deck.replace(SIDE, side))
    cards = None if deck is None else deck.piles.get(f.pile.replace(SIDE, side))
    return float(len(cards)) if cards is not None else 0.0


def _constant(m: Measuring, side: str, f: Constant) -> float:
    return 1.0


def _result(m: Measuring, side: str, f: Outcome) -> float:
    winner = m.game.final_result(m.match).winner
    return 0.0 if winner is None else (1.0 if winner == side else -1.0)


MEASURES: Mapping[str, Callable[[Measuring, str, Any], float]] = MappingProxyType({
    "units": _units, "steps": _steps, "value": _value, "held": _held, "distance": _distance,
    "var": _var, "track": _track, "summary": _summary, "pile": _pile, "result": _result,
    "constant": _constant,
})
"""The core measures by name: (what the evaluation shares, the side, the feature) -> value."""


# -- a game's AI ------------------------------------------------------------------------------


class AI:
    """A game's declared AI, read and checked: its evaluation (with the hooks it names,
    found) and its priorities (the game's ``Priorities`` model when its ``ai`` module
    declares one, else a read-only mapping). ``source`` is the file (empty: none)."""

    __slots__ = ("_hooks", "priorities", "sides", "source", "spec")

    def __init__(self, spec: AIFile, source: str, sides: Sequence[str],
                 hooks: Mapping[str, Callable[..., Any]], priorities: Any) -> None:
        self.spec = spec
        self.source = source
        self.sides = tuple(sides)
        self._hooks = hooks
        #: what the bots read: the game's ``Priorities`` instance, or a read-only mapping
        self.priorities = priorities

    @property
    def hooks(self) -> Mapping[str, Callable[..., Any]]:
        """The hooks the evaluation names, by name: functions of the game's ``ai`` module."""
        return self._hooks

    @property
    def declared(self) -> bool:
        """Whether the game declares an evaluation (at least one feature)."""
        return bool(self.spec.evaluation.features)

    def priority(self, name: str) -> Any:
        """One priority by name (an attribute of the ``Priorities`` model or a key of the
        mapping); a DataError naming the file when there is none."""
        found = (self.priorities.get(name, _MISSING) if isinstance(self.priorities, Mapping)
                 else getattr(self.priorities, name, _MISSING))
        if found is _MISSING:
            raise DataError(f"{self.source or AI_FILE}: priorities.{name}: missing (the game's "
                            "bots read it)")
        return found

    def features(self, match: Match, side: str) -> dict[str, float]:
        """Each feature's value for ``side`` in ``match`` as the evaluation weighs it (by its
        ``of``), by feature id: what the score is made of."""
        m = Measuring(match)
        return {f.id: self._value(m, n, f, side)
                for n, f in enumerate(self.spec.evaluation.features)}

    def score(self, match: Match, side: str) -> float:
        """How good ``match`` stands for ``side``, from -1 to 1: ``tanh`` of the weighted
        sum of the features over the scale; 0 when no feature weighs for the side."""
        m = Measuring(match)
        total = 0.0
        for n, f in enumerate(self.spec.evaluation.features):
            weight = f.weight.get(side, 0.0) if isinstance(f.weight, dict) else f.weight
            if weight:
                total += weight * self._value(m, n, f, side)
        return math.tanh(total / self.spec.evaluation.scale)

    def _value(self, m: Measuring, n: int, f: Any, side: str) -> float:
        """Feature ``n`` (``f``) for ``side``, taken as its ``of`` says."""
        if f.of == "relative":
            others = [s for s in self.sides if s != side]
            mine = self._measure(m, n, f, side)
            if not others:
                return mine
            return mine - sum(self._measure(m, n, f, s) for s in others) / len(others)
        return self._measure(m, n, f, side if f.of == "self" else f.of)

    def _measure(self, m: Measuring, n: int, f: Any, side: str) -> float:
        """The measure of feature ``n`` (``f``) of ``side``; a TabletopError naming the
        file and the feature when the match does not hold what it reads."""
        try:
            if f.measure == "hook":
                value = _number(self._hooks[f.hook](m.match, side, **f.params),
                                f"hook {f.hook}'s answer")
            else:
                value = MEASURES[f.measure](m, side, f)
        except TabletopError as exc:
            raise TabletopError(f"{self.source}: evaluation.features.{n} ({f.id}): {exc}") from None
        if not math.isfinite(value):
            raise TabletopError(f"{self.source}: evaluation.features.{n} ({f.id}): the value for "
                                f"{side} is {value}, not a finite number")
        return value


_MISSING = object()

_HELD = "_declared_ai"
"""The attribute of a game object :func:`ai_of` keeps its AI on."""


def hooks_module(game: Game) -> ModuleType | None:
    """The game's ``ai`` module (``ai.py`` beside the module of its class, in the same
    package, or, for a game whose ``data_dir`` is another's, beside the module of the class
    in its lineage that folder belongs to: a variant subclassing a game plays by its AI), or
    None when it has none; a DataError naming the file when it does not import."""
    data = game.data_dir()
    home = next((cls for cls in type(game).__mro__ if data is not None
                 and Path(getattr(sys.modules.get(cls.__module__), "__file__", None) or "/").parent
                 == data.parent), type(game))
    module = sys.modules.get(home.__module__)
    file = getattr(module, "__file__", None)
    if module is None or not file:
        return None
    name = module.__name__ if Path(file).name == "__init__.py" else module.__name__.rpartition(".")[0]
    path = Path(file).parent / f"{HOOKS_MODULE}.py"
    if not name or not path.is_file():
        return None
    try:
        return importlib.import_module(f"{name}.{HOOKS_MODULE}")
    except (ImportError, SyntaxError) as exc:
        raise DataError(f"{path}: the game's {HOOKS_MODULE} module does not import: "
                        f"{type(exc).__name__}: {' '.join(str(exc).split())}") from None


def load_ai(game: Game) -> AI:
    """Read and check the game's ``data/ai.yaml`` (an empty AI when it has none): the model,
    then the sides it names, the hooks (functions of the game's ``ai`` module) and the
    priorities against the module's ``Priorities`` model; every problem a DataError naming
    the file and the path in it."""
    folder = game.data_dir()
    path = folder / AI_FILE if folder is not None else None
    module = hooks_module(game)
    model = getattr(module, PRIORITIES_MODEL, None) if module is not None else None
    if path is None or not path.is_file():
        spec, source = AIFile(), ""
    else:
        source = str(path)
        spec = validate(AIFile, read_data_file(path), source=source)
    where = source or f"{game.info.id}: {AI_FILE}"
    sides = game.info.players
    from .search_options import search_option_problem

    for key, value in spec.search.items():
        problem = search_option_problem(key, str(value))
        if key == "seconds":  # a study plays a game's plain ``mcts``: it must replay alike
            problem = ("is not allowed here: a search capped by time is not reproducible "
                       "(give playouts)")
        if problem:
            raise DataError(f"{where}: search.{key}: {value!r} {problem}")
    hooks: dict[str, Callable[..., Any]] = {}
    for n, f in enumerate(spec.evaluation.features):
        at = f"{where}: evaluation.features.{n}"
        if f.of not in ("relative", "self", *sides):
            raise DataError(f"{at}.of: {f.of!r} is not relative, self nor a side of "
                            f"{game.info.id} ({', '.join(sides)})")
        if isinstance(f.weight, dict):
            for side in f.weight:
                if side not in sides:
                    raise DataError(f"{at}.weight.{side}: not a side of {game.info.id} "
                                    f"({', '.join(sides)})")
        if isinstance(f, Summary) and isinstance(f.field, dict):
            for side in f.field:
                if side not in sides:
                    raise DataError(f"{at}.field.{side}: not a side of {game.info.id} "
                                    f"({', '.join(sides)})")
        if isinstance(f, Hook):
            hook = getattr(module, f.hook, None) if module is not None else None
            if not callable(hook):
                home = (f"the game's {HOOKS_MODULE} module ({module.__name__})" if module
                        is not None else f"{HOOKS_MODULE}.py beside the game's __init__.py")
                raise DataError(f"{at}.hook: no function {f.hook!r} in {home}")
            try:
                inspect.signature(hook).bind(None, "", **f.params)
            except TypeError as exc:
                raise DataError(f"{at}.params: hook {f.hook} is called as (match, side, "
                                f"**params) and cannot take these params: {exc}") from None
            except ValueError:
                pass  # a callable whose signature cannot be read: called as it is
            hooks[f.hook] = hook
    priorities: Any = MappingProxyType(spec.priorities)
    if isinstance(model, type) and issubclass(model, BaseModel):
        # validated as the file's ``priorities`` key, so that a message names its path
        holder = create_model("AIPriorities", __base__=StrictModel, priorities=(model, ...))
        try:
            priorities = dict(holder.model_validate({"priorities": spec.priorities}))["priorities"]
        except ValidationError as exc:
            raise DataError(format_validation_error(where, exc)) from None
    return AI(spec, source, sides, MappingProxyType(hooks), priorities)


def ai_of(game: Game) -> AI:
    """The game's declared AI (:func:`load_ai`), read once and kept on the game object
    (what it holds never changes: two threads reading it at once read the same)."""
    held = game.__dict__.get(_HELD)
    if isinstance(held, AI):
        return held
    found = load_ai(game)
    setattr(game, _HELD, found)
    return found


def check_ai(game: Game) -> str:
    """What ``tabletop validate`` and a match's opening checks say of the game's AI file
    (:func:`load_ai`, which raises the first problem): empty when it has none."""
    found = ai_of(game)
    if not found.source:
        return ""
    spec = found.spec
    search = ""
    if spec.search:
        from .search_options import parse_options

        search = f", the search plays as {parse_options('mcts', spec.search).spec()}"
    return (f"{AI_FILE}: {len(spec.evaluation.features)} evaluation feature(s), "
            f"{len(spec.priorities)} bot priorities{search}")


def evaluate(match: Match, side: str) -> float:
    """The declared evaluation of an unfinished ``match`` for ``side`` (0 when the game
    declares none): what :meth:`~.match.Game.evaluate` answers by default."""
    return ai_of(match.game).score(match, side)

