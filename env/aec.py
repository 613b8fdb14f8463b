"""A PettingZoo agent-environment-cycle environment of any game: one agent a deciding side."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.match import Game

from .base import Table
from .encoding import deciding_sides, result_rewards


class TabletopAEC(AECEnv):  # type: ignore[misc]
    """A game as a PettingZoo AEC environment.

    The agents are the sides that decide in the scenario (named as the game names them;
    the sides the rules play never decide). ``agent_selection`` is the side whose decision is
    pending; an action is the index of one of its options (see :mod:`.encoding`), and
    ``observe(agent)`` is built from that side's view alone, in read-only arrays the
    environment never writes again (an unchanged one handed out again).

    Rewards: at the end, 1 to the winner and -1 to the others (0 to all in a draw); with
    ``shaping`` (a weight, 0 by default) each step also gives each side the change of
    ``shaping * game.evaluate(match, side)`` (potential-based, the potential 0 at the end).
    ``max_steps`` truncates an episode after that many decisions. An action that is not a
    legal index raises :class:`~.base.IllegalAction` (``illegal_action="raise"``, the
    default here) or leaves the match as it was and gives ``illegal_reward`` to the side
    (``"penalize"``). ``render()`` gives the map as the side to move sees it (``render_side``
    fixes a side, or ``"all"`` every piece face-up): an RGB array in ``rgb_array`` mode, the
    terminal's text map in ``ansi`` mode.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  (AECEnv declares it so)"render_modes": ["rgb_array", "ansi"], "name": "tabletop",
                                          "is_parallelizable": False}

    def __init__(self, game: str | Game, *, scenario: str | None = None,
                 options: Mapping[str, JSON] | None = None, max_steps: int | None = None,
                 shaping: float = 0.0, illegal_action: str = "raise", illegal_reward: float = -1.0,
                 render_mode: str | None = None, render_side: str | None = None,
                 seed: int | None = None) -> None:
        super().__init__()
        self.table = Table(game, scenario=scenario, options=options, max_steps=max_steps,
                           shaping=shaping, illegal=illegal_action, render_mode=render_mode)
        self.game = self.table.game
        self.render_mode = render_mode
        self.render_side = render_side
        self.illegal_reward = float(illegal_reward)
        self.metadata = {**self.metadata, "name": f"tabletop_{self.game.info.id}"}
        self.possible_agents: list[str] = list(deciding_sides(self.game, self.table.scenario))
        observation, action = self.table.encoder.spaces()
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self._seed = seed
        self._rng = np.random.default_rng(seed)
        self._potential: dict[str, float] = {}
        self.agents: list[str] = []

    def __str__(self) -> str:
        return str(self.metadata["name"])

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (one for every side)."""
        space: spaces.Space[Any] = self.observation_spaces[agent]
        return space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: the indices of a decision's options."""
        space: spaces.Space[Any] = self.action_spaces[agent]
        return space

    @property
    def match(self) -> Any:
        """The match being played (a :class:`~tabletop.core.engine.match.Match`)."""
        return self.table.live

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match: with ``seed`` its dice seed, else one drawn from the
        environment's own generator (seeded by the last seed given)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        match = self.table.start(int(self._rng.integers(2**31)) if seed is None else int(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._potential = {a: self.table.potential(a) for a in self.agents}
        self._after_move()
        if match.pending is not None:
            self.agent_selection = match.pending.player

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """``agent``'s observation: built from its side's view alone (read-only arrays)."""
        return self.table.observe(agent)

    def option_labels(self, agent: str) -> list[str]:
        """The labels of ``agent``'s options by action index (empty when it does not decide)."""
        return self.table.option_labels(agent)

    def _after_move(self) -> None:
        """Set the rewards, ends and infos after the match moved (or at its start)."""
        table, match = self.table, self.table.live
        finished = match.finished
        truncated = not finished and table.max_steps is not None and table.steps >= table.max_steps
        rewards = dict.fromkeys(self.agents, 0.0)
        if table.shaping:
            for agent in self.agents:
                now = table.potential(agent)
                rewards[agent] += now - self._potential.get(agent, 0.0)
                self._potential[agent] = now
        if finished:
            for agent, reward in result_rewards(match, self.agents).items():
                rewards[agent] += reward
        self.rewards = rewards
        for agent in self.agents:
            self.terminations[agent] = finished
            self.truncations[agent] = truncated
            info = table.decision_info(agent)
            if finished and match.result is not None:
                info["result"] = match.result.to_json()
            self.infos[agent] = info

    def step(self, action: Any) -> None:
        """Answer the pending decision with the option at index ``action`` (None for an agent
        whose episode has ended)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        self._cumulative_rewards[agent] = 0.0
        index = table.index(action)
        table.steps += 1
        if index is None:
            self._after_move()
            self.rewards[agent] += self.illegal_reward
            self.infos[agent]["illegal_action"] = True
        else:
            table.live.decide_index(index)
            self._after_move()
        match = table.live
        if match.pending is not None:
            self.agent_selection = match.pending.player
        self._accumulate_rewards()

    def render(self) -> Any:
        """The map as the side to move sees it (see the class), or None without a render mode."""
        side = self.render_side
        if side is None:
            pending = self.table.live.pending
            side = pending.player if pending is not None else None
        return self.table.render(None if side == "all" else side)

    def close(self) -> None:
        """Nothing to release."""
