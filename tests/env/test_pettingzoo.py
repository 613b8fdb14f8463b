"""The PettingZoo environment: PettingZoo's own API test for every game and scenario,
observations from a side's view only, rewards from the result."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test

from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game
from tabletop.core.engine.views import View
from tabletop.env import pettingzoo_env
from tabletop.env.base import IllegalAction
from tabletop.env.encoding import ActionSpaceError, Encoder

from .conftest import EXAMPLE, all_games, every_scenario


@pytest.mark.parametrize(("game", "scenario"), every_scenario())
def test_pettingzoo_api_test_passes(game: str, scenario: str) -> None:
    """PettingZoo's api_test on a capped episode of each scenario of each game."""
    env = pettingzoo_env(game, scenario=scenario, max_steps=120)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=60)


def test_an_episode_ends_with_the_results_rewards() -> None:
    """The example game played to its end: the winner's return is 1, the loser's -1, each
    agent is told the result, and every agent leaves the episode."""
    env = pettingzoo_env(EXAMPLE)
    env.reset(seed=4)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(10_000):
        obs, reward, terminated, truncated, _info = env.last()
        returns[agent] += reward
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    result = env.match.result
    assert result is not None and not env.agents
    assert returns == {s: 1.0 if s == result.winner else -1.0 for s in env.possible_agents}


def test_same_seed_same_episode() -> None:
    """Two resets with one seed and the same actions give the same observations."""
    seen = []
    for _ in range(2):
        env = pettingzoo_env(EXAMPLE)
        env.reset(seed=11)
        boards = []
        for _ in range(30):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                break
            boards.append(obs["board"].tobytes() + obs["vector"].tobytes())
            env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        seen.append(boards)
    assert seen[0] == seen[1]


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    """An index past the options raises one clear error by default and leaves the match."""
    env = pettingzoo_env(EXAMPLE)
    env.reset(seed=1)
    before = env.match.state_hash()
    with pytest.raises(IllegalAction, match="legal actions are 0"):
        env.step(env.table.encoder.size - 1)
    assert env.match.state_hash() == before


def test_penalized_illegal_action_gives_the_penalty() -> None:
    """With illegal_action='penalize' the side gets the penalty and the match stays."""
    env = pettingzoo_env(EXAMPLE, illegal_action="penalize", illegal_reward=-0.5)
    env.reset(seed=1)
    agent, before = env.agent_selection, env.match.state_hash()
    env.step(env.table.encoder.size - 1)
    assert env.match.state_hash() == before and env.agent_selection == agent
    assert env.rewards[agent] == -0.5 and env.infos[agent]["illegal_action"]


class _Tight:
    """The example game declaring an action space too small for its decisions."""

    max_options = 2


def test_a_decision_with_more_options_than_declared_is_an_error() -> None:
    """A game whose decision offers more options than its declared maximum is found."""
    base = load_game(EXAMPLE)
    tight = type("TightSkirmish", (_Tight, type(base)), {})()
    env = pettingzoo_env(tight)
    env.reset(seed=0)
    with pytest.raises(ActionSpaceError, match="declare a larger max_options"):
        for _ in range(200):
            _obs, *_ = env.last()
            env.step(0)


def _afresh(encoder: Encoder, match: Match, side: str) -> dict[str, np.ndarray]:
    """``side``'s observation counted from scratch from its whole view as JSON (nothing
    kept from an earlier observation)."""
    pending, view = match.pending, match.view(side)
    assert isinstance(view, View)
    return encoder.observe_view(view.to_json(),
                                pending if pending is not None and pending.player == side else None)


@pytest.mark.parametrize("game", all_games())
def test_incremental_observation_equals_one_built_afresh_from_the_view(game: str) -> None:
    """The observation kept between steps (its board brought up to date from the places
    where something changed, read through the side's visibility rules) equals the one
    counted from scratch from the side's whole view, at every step of a random episode for
    the side to move, and every few steps for every side (so that a side's board is brought
    up to date over one step and over several)."""
    env = pettingzoo_env(game, max_steps=250)
    env.reset(seed=2)
    fresh = Encoder(env.game, env.match.restart())
    rng = random.Random(2)
    compared = 0
    for agent in env.agent_iter(250):
        obs, _, terminated, truncated, _ = env.last()
        steps = len(env.match.decisions)
        for side in env.possible_agents if steps % 5 == 0 else [agent]:
            again = _afresh(fresh, env.match, side)
            mine = obs if side == agent else env.observe(side)
            for key in ("board", "vector", "action_mask"):
                assert np.array_equal(again[key], mine[key]), (side, key, steps)
            compared += 1
        env.step(None if terminated or truncated else rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    assert len(env.match.decisions) > 20 and compared > 40


def test_an_observation_handed_out_is_read_only_and_never_changes() -> None:
    """The arrays of an observation are read-only (writing into one raises) and the
    environment never writes into one it handed out: stepping on and observing again leave
    them as they were."""
    env = pettingzoo_env(EXAMPLE)
    env.reset(seed=5)
    rng = random.Random(5)
    kept: list[tuple[dict[str, np.ndarray], dict[str, np.ndarray]]] = []
    for _ in range(40):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        later = env.observe(env.agent_selection)
        for array in later.values():
            with pytest.raises(ValueError, match="read-only"):
                array += 1
        env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    assert len(kept) > 10
    for obs, copy in kept:
        for key, array in obs.items():
            assert np.array_equal(array, copy[key]), key


def test_a_part_of_an_observation_kept_alone_does_not_change() -> None:
    """A slice or buffer of an observation's board, kept after the observation itself was
    dropped, holds the board as it was: the environment writes no array anyone holds."""
    env = pettingzoo_env("iwo_bonins")
    env.reset(seed=4)
    rng = random.Random(4)
    kept: list[tuple[Any, np.ndarray]] = []
    for step in range(120):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        if step % 3 == 0:
            part = obs["board"][1:] if step % 2 else memoryview(obs["board"])
            kept.append((part, obs["board"].copy()))
        action = rng.choice(list(np.flatnonzero(obs["action_mask"])))
        del obs
        env.step(action)
    assert len(kept) > 20
    assert any(not np.array_equal(kept[0][1], copy) for _, copy in kept)  # the board moved on
    for part, copy in kept:
        assert np.array_equal(np.asarray(part), copy[1:] if isinstance(part, np.ndarray) else copy)


def test_one_encoder_observing_two_matches_keeps_neither_board_for_the_other() -> None:
    """An encoder shared by two matches (as OpenSpiel's states share their game's) counts
    each match's board anew when it turns from one to the other: every observation equals
    the one built afresh from that match's view."""
    first, second = pettingzoo_env(EXAMPLE), pettingzoo_env(EXAMPLE)
    first.reset(seed=1)
    second.reset(seed=8)
    shared = first.table.encoder
    fresh = Encoder(first.game, first.match.restart())
    rng = random.Random(3)
    for step in range(30):
        for env in (first, second):
            if env.match.finished:
                continue
            side = env.agent_selection
            mine = shared.observe(env.match, side)
            again = _afresh(fresh, env.match, side)
            assert np.array_equal(mine["board"], again["board"]), step
            assert np.array_equal(mine["vector"], again["vector"]), step
            env.step(rng.choice(list(np.flatnonzero(mine["action_mask"]))))


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_render_draws_the_map(mode: str) -> None:
    """render() gives the text map, or an RGB picture of the SVG map."""
    if mode == "rgb_array":
        try:
            import cairosvg  # noqa: F401
        except (ImportError, OSError):  # OSError: the cairo library itself is missing
            pytest.skip("cairosvg or the cairo library is not installed")
    env = pettingzoo_env(EXAMPLE, render_mode=mode)
    env.reset(seed=0)
    frame = env.render()
    if mode == "ansi":
        assert isinstance(frame, str) and "as seen by" in frame
    else:
        assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
        assert frame.std() > 0  # a picture, not a blank


def test_a_status_changed_in_place_shows_at_the_next_observation() -> None:
    """A piece's status set on its own (nothing else of the piece or its place changing),
    and a status holding a list filled in place, show in the side's next observation as in
    one built afresh from its view."""
    env = pettingzoo_env("iwo_valor")
    env.reset(seed=3)
    encoder, match = env.table.encoder, env.match
    fresh = Encoder(env.game, match.restart())
    piece = next(p for p in match.state.pieces if p.side and p.location in encoder.cell)
    side = piece.side  # its own side sees it, hidden from the others or not
    plane = encoder.plane_names.index(f"{side}:disrupted")
    row, col = encoder.cell[piece.location]

    def shown() -> float:
        mine = encoder.observe(match, side)
        again = _afresh(fresh, match, side)
        for key in ("board", "vector"):
            assert np.array_equal(mine[key], again[key]), key
        return float(mine["board"][plane, row, col])

    before = shown()
    piece.attrs["disrupted"] = True
    assert shown() == before + 1
    piece.attrs["disrupted"] = []
    assert shown() == before
    piece.attrs["disrupted"].append("HQ")  # in place: the status itself is not told
    assert shown() == before + 1


class _OwnPiecesOnly:
    """The example game making its own views: a side sees none of the other side's pieces."""

    def view(self, match: Match, player: str | None) -> dict[str, Any]:
        seen = View(match, player).to_json()
        seen["pieces"] = [p for p in seen["pieces"] if p["side"] == player]
        return seen


def test_a_game_making_its_own_views_is_observed_from_them() -> None:
    """A game that makes its own views (overriding ``Game.view``) is observed from its view:
    no piece of the other side counts on a side's board, and every observation equals the
    one built from the game's view."""
    base = load_game(EXAMPLE)
    game = type("OwnViewSkirmish", (_OwnPiecesOnly, type(base)), {})()
    env = pettingzoo_env(game)
    env.reset(seed=0)
    encoder, rng = env.table.encoder, random.Random(0)
    for agent in env.agent_iter(40):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        match = env.match
        again = encoder.observe_view(game.view(match, agent), match.pending)
        for key in ("board", "vector", "action_mask"):
            assert np.array_equal(obs[key], again[key]), key
        others = [k for k, name in enumerate(encoder.plane_names) if not name.startswith(f"{agent}:")
                  and ":" in name and not name.startswith(("neutral:", "terrain:"))]
        assert not obs["board"][others].any()
        env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
