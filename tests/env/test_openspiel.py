"""The OpenSpiel games: OpenSpiel's random simulation test for every game, its MCTS bot
through the bridge, and strings built from views alone."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

from tabletop.core.engine.registry import load_game  # noqa: E402
from tabletop.core.engine.visibility import is_hidden_from  # noqa: E402
from tabletop.env import openspiel  # noqa: E402

from .conftest import EXAMPLE, all_games  # noqa: E402

SHORT = {name: openspiel.register(name) for name in all_games()}


@pytest.mark.parametrize("game", all_games())
def test_openspiel_random_simulation_passes(game: str) -> None:
    """pyspiel.random_sim_test (clone, strings, tensors, masks, returns) on capped matches
    of every game's first scenario."""
    loaded = pyspiel.load_game(SHORT[game], {"max_decisions": 40})
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=False, verbose=False)


def test_every_installed_game_is_registered() -> None:
    """Importing the module registers every installed game under tabletop_<id>."""
    names = set(pyspiel.registered_names())
    assert {f"tabletop_{load_game(n).info.id}" for n in all_games()} <= names
    assert set(openspiel.INSTALLED) <= names


def test_imperfect_information_where_the_game_hides_pieces() -> None:
    """The example game hides units: imperfect information; a clone plays on alike."""
    game = pyspiel.load_game(SHORT[EXAMPLE])
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    twin = state.clone()
    for action in (0, 0, 0):
        if state.is_terminal():
            break
        state.apply_action(action)
        twin.apply_action(action)
    assert twin.match.state_hash() == state.match.state_hash()
    assert twin.history() == state.history()


def test_strings_name_no_hidden_piece() -> None:
    """Observation and information-state strings of each player name no piece hidden from
    that side, over a random match of the example game."""
    game = pyspiel.load_game(SHORT[EXAMPLE])
    state = game.new_initial_state()
    rng = random.Random(3)
    checked = 0
    while not state.is_terminal():
        for player, side in enumerate(("Blue", "Red")):
            secret = [p.id for p in state.match.state.pieces if is_hidden_from(p, side)]
            text = state.observation_string(player) + state.information_state_string(player)
            assert not [s for s in secret if s in text]
            checked += len(secret)
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked


@pytest.mark.parametrize("game", ["iwo_1945", EXAMPLE])
def test_openspiel_mcts_bot_plays_to_the_end(game: str) -> None:
    """OpenSpiel's own MCTS bot (on the game's evaluation) plays every side of the game to
    its end through the bridge, the other sides' decisions included."""
    loaded = pyspiel.load_game(SHORT[game])
    bot = mcts.MCTSBot(loaded, uct_c=2.0, max_simulations=2, evaluator=openspiel.EvaluationEvaluator(),
                       random_state=np.random.RandomState(0), solve=False)
    state = loaded.new_initial_state()
    moves = 0
    while not state.is_terminal():
        state.apply_action(bot.step(state))
        moves += 1
    assert state.match.finished and moves == len(state.match.decisions)
    assert sorted(state.returns()) in ([-1.0, 1.0], [-1.0], [1.0], [0.0], [0.0, 0.0])
    assert load_game(game).info.id in str(state)
