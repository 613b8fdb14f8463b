"""Every game of the engine as a Python game of OpenSpiel.

Importing this module registers each installed game (the ``tabletop.games`` entry points) as
``tabletop_<id>``; :func:`register` adds another (a game folder, a ``module:attr``, a game
object)::

    import pyspiel
    import tabletop.env.openspiel
    game = pyspiel.load_game("tabletop_iwo_1945", {"max_decisions": 2000})

A game is sequential, sampled-stochastic (the dice are rolled inside the match, from its seed:
a state's future rolls are fixed by it, and the game's ``rng_seed`` parameter draws each new
match's seed) and of imperfect information where the game hides anything (hidden pieces,
secret piles, variables some side may not read, a rule of what a stack shows). The players
are the sides that decide in the scenario (OpenSpiel player ``i`` is the ``i``-th of them).
Parameters: ``scenario``, ``options`` (JSON), ``rng_seed`` and ``max_decisions``: a match
that reaches that many decisions ends there, each player scoring the game's evaluation
(:meth:`~tabletop.core.engine.match.Game.evaluate`; two players: half the difference of
their evaluations, so that the returns sum to 0). Returns at the end: 1 to the winner, -1 to
the others, 0 to all in a draw.

``clone()`` is the match's :meth:`~tabletop.core.engine.match.Match.fork` (a copy of the
state where the game's decisions are resumable, else a replay from the last snapshot).
Observation and information-state strings and the observation tensor are built from the
player's view alone (the tensor: :mod:`.encoding`'s board and vector, flattened); the
information state adds the log as the player saw it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]
from numpy.typing import NDArray

from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.registry import registered

from .base import resolve_game
from .encoding import Encoder, check_options, deciding_sides, result_rewards

PREFIX = "tabletop_"
DEFAULT_MAX_DECISIONS = 20000

_GAMES: dict[str, Game] = {}
"""short name -> the game registered under it."""


def short_name(game: Game) -> str:
    """The name OpenSpiel knows ``game`` by: ``tabletop_<id>``."""
    return PREFIX + game.info.id


def hides_anything(game: Game, probe: Match) -> bool:
    """Whether any side may be kept from seeing something: a hidden piece, a secret pile, a
    variable not every side may read, a game rule of what a stack shows."""
    if type(game).stack_view is not Game.stack_view:
        return True
    if any(p.hidden for p in probe.state.pieces):
        return True
    if any(game.var_visibility.get(name) != "public" for name in probe.state.vars):
        return True
    return any(deck.piles for deck in probe.state.decks.values())


def _game_type(game: Game, imperfect: bool, deciding: int) -> Any:
    """The OpenSpiel game type of ``game`` with ``deciding`` players (zero-sum with two)."""
    players = len(game.info.players)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"tabletop {game.info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if imperfect
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=(pyspiel.GameType.Utility.ZERO_SUM if deciding == 2
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"scenario": game.info.scenarios[0].id, "options": "{}",
                                 "rng_seed": 0, "max_decisions": DEFAULT_MAX_DECISIONS})


class _Held:
    """A state's game and match: copied (as :func:`copy.deepcopy` does for ``clone()``) by
    :meth:`~tabletop.core.engine.match.Match.fork`, the game shared."""

    __slots__ = ("_match", "game", "seed")

    def __init__(self, game: TabletopGame, match: Match | None, seed: int = 0) -> None:
        self.game = game
        self._match = match
        self.seed = seed

    @property
    def match(self) -> Match:
        """The match, set up when first asked for (a clone replaces a new state's at once)."""
        if self._match is None:
            self._match = self.game.new_match(self.seed)
        return self._match

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.game, self.match.fork())


class TabletopGame(pyspiel.Game):  # type: ignore[misc]
    """A game of the engine, one scenario and set of options, as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None, *, game: Game) -> None:
        params = dict(params or {})
        self.game = game
        info = game.info
        self.scenario = info.scenario(str(params.get("scenario", info.scenarios[0].id))).id
        try:
            given = json.loads(str(params.get("options", "{}")))
        except ValueError as exc:
            raise TabletopError(f"parameter options: not JSON ({exc})") from None
        if not isinstance(given, dict):
            raise TabletopError("parameter options: a JSON object of option -> value expected")
        self.options = info.resolve_options(given)
        self.max_decisions = int(params.get("max_decisions", DEFAULT_MAX_DECISIONS))
        if self.max_decisions < 1:
            raise TabletopError(f"parameter max_decisions must be at least 1, not {self.max_decisions}")
        self._seeds = random.Random(int(params.get("rng_seed", 0)))
        probe = self.new_match(0)
        self.encoder = Encoder(game, probe)
        self.sides = deciding_sides(game, self.scenario)
        self.imperfect = hides_anything(game, probe)
        most = 1.0
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.size, max_chance_outcomes=0,
            num_players=len(self.sides), min_utility=-most, max_utility=most,
            utility_sum=0.0 if len(self.sides) == 2 else None,
            max_game_length=self.max_decisions)
        super().__init__(_game_type(game, self.imperfect, len(self.sides)), game_info,
                         {"scenario": self.scenario, "options": json.dumps(given, sort_keys=True),
                          "rng_seed": int(params.get("rng_seed", 0)), "max_decisions": self.max_decisions})

    def __deepcopy__(self, memo: dict[int, Any]) -> TabletopGame:
        """The game itself: a game never changes, and its states share it."""
        return self

    def new_match(self, seed: int) -> Match:
        """A match of this scenario and options from its set-up."""
        return Match(self.game, scenario=self.scenario, seed=seed, options=self.options)

    def new_initial_state(self) -> TabletopState:
        """A new match, its seed drawn from the game's ``rng_seed``."""
        return TabletopState(self, None, self._seeds.randrange(2**31))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        """An observer of a player's view: its information state with ``perfect_recall``."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ViewObserver(self, recall)


class TabletopState(pyspiel.State):  # type: ignore[misc]
    """A match of a :class:`TabletopGame` at a decision (or over)."""

    def __init__(self, game: TabletopGame, match: Match | None, seed: int = 0) -> None:
        super().__init__(game)
        self._held = _Held(game, match, seed)
        self._index = {side: i for i, side in enumerate(game.sides)}

    @property
    def match(self) -> Match:
        """The match this state plays."""
        return self._held.match

    @property
    def _game(self) -> TabletopGame:
        return self._held.game

    def _cut(self) -> bool:
        """Whether the match reached the game's most decisions unfinished."""
        match = self.match
        return not match.finished and len(match.decisions) >= self._game.max_decisions

    def current_player(self) -> int:
        """The deciding side's player number, or TERMINAL."""
        pending = self.match.pending
        if pending is None or self._cut():
            return int(pyspiel.PlayerId.TERMINAL)
        return self._index[pending.player]

    def _legal_actions(self, player: int) -> list[int]:
        pending = self.match.pending
        if pending is None or self._cut() or self._index[pending.player] != player:
            return []
        check_options(self._game.game, pending, self._game.encoder.size)
        return list(range(len(pending.options)))

    def _apply_action(self, action: int) -> None:
        self.match.decide_index(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        pending = self.match.pending
        if (pending is not None and self._index.get(pending.player) == player
                and 0 <= action < len(pending.options)):
            labels = [str(o.label or o.value) for o in pending.options]
            label = labels[action]
            # two options may read alike (two counters of one unit type): the index tells them apart
            return f"{pending.player}: {label}" + (f" [{action}]" if labels.count(label) > 1 else "")
        return f"option {action}"

    def is_terminal(self) -> bool:
        """Whether the match is over (or cut at the game's most decisions)."""
        return self.match.pending is None or self._cut()

    def returns(self) -> list[float]:
        """Each player's return: the result at the end, the evaluation when cut, else 0."""
        match, sides = self.match, self._game.sides
        if match.finished:
            rewards = result_rewards(match, sides)
            return [rewards[s] for s in sides]
        if not self._cut():
            return [0.0] * len(sides)
        values = [max(-1.0, min(1.0, float(self._game.game.evaluate(match, s)))) for s in sides]
        if len(values) == 2:
            half = (values[0] - values[1]) / 2
            return [half, -half]
        return values

    def __str__(self) -> str:
        match = self.match
        return (f"{match.game.info.id} turn {match.state.turn} {match.state.phase} "
                f"decision {len(match.decisions)}")


def view_text(match: Match, side: str) -> str:
    """What ``side``'s view shows, as text: progress, pieces, tracks, variables, its decision."""
    view = match.view(side)
    lines = [f"turn {view['turn']} phase {view['phase']} step {view['step']}"]
    for place, stack in sorted(view.board_places().items()):  # type: ignore[attr-defined]
        shown = " ".join(f"{p.get('side') or '-'}/{p['kind']}"
                         + (f"/{p['id']}/{p.get('face')}/{p.get('steps')}" if p["kind"] != "hidden" else "")
                         for p in stack)
        lines.append(f"{place}: {shown}")
    lines.append("tracks " + json.dumps(view["tracks"], sort_keys=True))
    lines.append("vars " + json.dumps(view["vars"], sort_keys=True, default=str))
    pending = view["pending"]
    if pending is not None:
        lines.append(f"decides {pending['player']}" + (
            f": {pending['prompt']} ({len(pending['options'])} options)" if "prompt" in pending else ""))
    return "\n".join(lines)


class ViewObserver:
    """Observes a state for one player, from that side's view alone (OpenSpiel's PyObserver)."""

    def __init__(self, game: TabletopGame, perfect_recall: bool) -> None:
        self._game = game
        self._recall = perfect_recall
        encoder = game.encoder
        board = int(np.prod(encoder.board_shape))
        vector = len(encoder.vector_names)
        self.tensor: NDArray[np.float32] = np.zeros(board + vector, np.float32)
        self.dict: dict[str, NDArray[np.float32]] = {
            "board": self.tensor[:board].reshape(encoder.board_shape),
            "vector": self.tensor[board:]}

    def set_from(self, state: TabletopState, player: int) -> None:
        """Fill the tensor with ``player``'s observation of ``state``."""
        side = self._game.sides[player]
        observed = self._game.encoder.observe(state.match, side)
        self.dict["board"][...] = observed["board"]
        self.dict["vector"][...] = observed["vector"]

    def string_from(self, state: TabletopState, player: int) -> str:
        """``player``'s observation (or, with perfect recall, information state) as text."""
        side = self._game.sides[player]
        match = state.match
        text = view_text(match, side)
        if not self._recall:
            return text
        seen = [event.text if event.is_visible_to(side) else event.mask
                for event in match.log.visible(side)]
        return "\n".join([*seen, "--", text])


class EvaluationEvaluator:
    """An evaluator for OpenSpiel's MCTS (:class:`open_spiel.python.algorithms.mcts.MCTSBot`)
    that scores a state by the game's own evaluation rather than by random rollouts, with
    uniform priors: search on a long wargame at the cost of a few forks a move."""

    def evaluate(self, state: TabletopState) -> NDArray[np.float64]:
        """Each player's value of ``state``: its returns at the end, else the evaluation."""
        if state.is_terminal():
            return np.asarray(state.returns(), np.float64)
        game: TabletopGame = state._game
        return np.asarray([float(game.game.evaluate(state.match, s)) for s in game.sides], np.float64)

    def prior(self, state: TabletopState) -> list[tuple[int, float]]:
        """Uniform over the legal actions."""
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def register(game: str | Game) -> str:
    """Register ``game`` (a name as :func:`~tabletop.core.engine.registry.load_game` takes
    it, or a game object) with OpenSpiel; returns its short name. Registering a game again
    under the same name keeps the first."""
    loaded = resolve_game(game)
    name = short_name(loaded)
    if name in _GAMES:
        return name
    if not loaded.info.playable:
        raise TabletopError(f"game {loaded.info.id} is not playable yet")
    probe = Match(loaded, scenario=loaded.info.scenarios[0].id, seed=0)
    # A class, as OpenSpiel's own Python games register: the registry keeps it to the end of
    # the process, and a class (unlike a function) is never freed when that last reference goes.
    factory: Callable[..., TabletopGame] = type(
        f"TabletopGame_{loaded.info.id}", (TabletopGame,),
        {"__init__": lambda self, params=None: TabletopGame.__init__(self, params, game=loaded)})
    deciding = len(deciding_sides(loaded, probe.scenario))
    pyspiel.register_game(_game_type(loaded, hides_anything(loaded, probe), deciding), factory)
    _GAMES[name] = loaded
    return name


def register_installed() -> list[str]:
    """Register every installed game that is playable; returns their short names."""
    names: list[str] = []
    for entry in sorted(registered()):
        game = resolve_game(entry)
        if game.info.playable:
            names.append(register(game))
    return names


def registered_names() -> Sequence[str]:
    """The short names registered so far."""
    return tuple(_GAMES)


INSTALLED = register_installed()
"""The short names of the installed games, registered when this module is first imported."""
