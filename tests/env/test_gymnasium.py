"""The Gymnasium environment: Gymnasium's own checker for each solitaire game."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("gymnasium")

import numpy as np
from gymnasium.utils.env_checker import check_env

from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.registry import load_game
from tabletop.env import gymnasium_env

from .conftest import EXAMPLE, all_games

SOLITAIRE = [(g, s.id) for g in all_games() for s in load_game(g).info.scenarios if s.automatic]


@pytest.mark.parametrize(("game", "scenario"), SOLITAIRE)
def test_gymnasium_check_env_passes(game: str, scenario: str) -> None:
    """check_env on each solitaire scenario, the agent playing the person's side."""
    env = gymnasium_env(game, scenario=scenario, max_steps=100)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning from the checker either
        check_env(env.unwrapped, skip_render_check=True)


def test_the_opponent_bot_plays_the_other_side_to_the_end() -> None:
    """On a two-player game the agent sees only its own decisions; the episode ends with
    the result's reward."""
    env = gymnasium_env(EXAMPLE, side="Red", opponent="pusher")
    obs, info = env.reset(seed=5)
    total, done = 0.0, False
    while not done:
        assert env.match.pending.player == "Red"
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        total += reward
        done = terminated or truncated
    assert total == (1.0 if info["result"]["winner"] == "Red" else -1.0)


def test_a_side_the_rules_play_is_refused() -> None:
    """The solitaire opponent is the rules': it cannot be the agent's side."""
    with pytest.raises(TabletopError, match="the rules play Japan"):
        gymnasium_env("iwo_1945", side="Japan")
