"""A Gymnasium environment of any game for one side, the others played by named bots."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray

from tabletop.core.engine.agents import Agent
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Game
from tabletop.core.engine.registry import make_agent

from .base import Table
from .encoding import deciding_sides, result_rewards


class TabletopGym(gymnasium.Env[dict[str, NDArray[Any]], np.int64]):
    """One side of a game as a Gymnasium environment.

    ``side`` (by default the side a person plays, ``GameInfo.human_side``) is the agent's;
    every other side that decides is played by the bot ``opponent`` names (one name for all,
    or side -> name), seeded from the match's seed; the sides the rules play (a solitaire
    scenario's) are played by the rules' own procedure, as in every match. An observation is
    built from the agent's side's view alone, in new arrays at every reset and step; an action
    is the index of one of its options.

    Rewards, ``max_steps``, ``shaping`` and ``render_mode`` are as in
    :class:`~.aec.TabletopAEC`. An action that is not a legal index leaves the match as it
    was, gives ``illegal_reward`` and says ``info["illegal_action"]`` (``illegal_action=
    "penalize"``, the default here, what an agent sampling the whole action space needs), or
    raises :class:`~.base.IllegalAction` (``"raise"``). ``action_masks()`` gives the mask of
    the current decision (the name maskable learners look for).
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array", "ansi"]}  # noqa: RUF012  (Env declares it so)

    def __init__(self, game: str | Game, *, side: str | None = None,
                 opponent: str | Mapping[str, str] = "heuristic", scenario: str | None = None,
                 options: Mapping[str, JSON] | None = None, max_steps: int | None = None,
                 shaping: float = 0.0, illegal_action: str = "penalize",
                 illegal_reward: float = -1.0,
                 render_mode: str | None = None) -> None:
        self.table = Table(game, scenario=scenario, options=options, max_steps=max_steps,
                           shaping=shaping, illegal=illegal_action, render_mode=render_mode)
        self.game = self.table.game
        info = self.game.info
        self.side = side or info.human_side or info.players[0]
        deciding = deciding_sides(self.game, self.table.scenario)
        if self.side not in info.players:
            raise TabletopError(f"game {info.id} has no side {self.side!r} "
                                f"(sides: {', '.join(info.players)})")
        if self.side not in deciding:
            raise TabletopError(f"in scenario {self.table.scenario} of {info.id} the rules play "
                                f"{self.side}: choose one of {', '.join(deciding)}")
        self.opponents: dict[str, str] = {}
        for other in deciding:
            if other == self.side:
                continue
            name = opponent if isinstance(opponent, str) else opponent.get(other)
            if name is None:
                raise TabletopError(f"opponent names no bot for side {other!r}")
            if name == "heuristic" and name not in self.game.bots():
                name = self.game.default_bot(other)
            self.opponents[other] = name
        for other, name in self.opponents.items():
            make_agent(self.game, other, name, 0)  # a clear error now for an unknown bot
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.observation_space, self.action_space = self.table.encoder.spaces()
        self._bots: dict[str, Agent] = {}
        self._potential = 0.0

    @property
    def match(self) -> Any:
        """The match being played (a :class:`~tabletop.core.engine.match.Match`)."""
        return self.table.live

    def _play_others(self) -> None:
        """Let the bots answer until the agent's side decides or the match ends."""
        match = self.table.live
        while match.pending is not None and match.pending.player != self.side:
            decision = match.pending
            bot = self._bots.get(decision.player)
            if bot is None:
                raise TabletopError(f"no bot plays side {decision.player!r}")
            match.decide(bot.choose(match.view(decision.player), decision))

    def _info(self) -> dict[str, Any]:
        match = self.table.live
        info = self.table.decision_info(self.side)
        if match.result is not None:
            info["result"] = match.result.to_json()
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """Start a new match (its seed drawn from the environment's generator, which ``seed``
        seeds) and let the bots play up to the agent's first decision."""
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(2**31))
        self.table.start(match_seed)
        self._bots = {other: make_agent(self.game, other, name, match_seed)
                      for other, name in self.opponents.items()}
        self._play_others()
        self._potential = self.table.potential(self.side)
        return self.table.observe(self.side, new=True), self._info()

    def step(self, action: Any) -> tuple[dict[str, NDArray[Any]], float, bool, bool, dict[str, Any]]:
        """Answer the agent's decision with the option at index ``action``, then let the bots
        play up to its next decision."""
        table = self.table
        match = table.live
        if match.pending is None:
            raise TabletopError("the episode has ended: call reset()")
        index = table.index(action)
        table.steps += 1
        reward = 0.0
        if index is None:
            reward += self.illegal_reward
        else:
            match.decide_index(index)
            self._play_others()
        now = table.potential(self.side)
        reward += now - self._potential
        self._potential = now
        terminated = match.finished
        if terminated:
            reward += result_rewards(match, [self.side])[self.side]
        truncated = not terminated and table.max_steps is not None and table.steps >= table.max_steps
        info = self._info()
        if index is None:
            info["illegal_action"] = True
        return table.observe(self.side, new=True), reward, terminated, truncated, info

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions now, as booleans."""
        pending = self.table.live.pending
        deciding = pending if pending is not None and pending.player == self.side else None
        return self.table.encoder.mask(deciding).astype(bool)

    def option_labels(self) -> list[str]:
        """The labels of the agent's options by action index."""
        return self.table.option_labels(self.side)

    def render(self) -> Any:
        """The map as the agent's side sees it (see :class:`~.aec.TabletopAEC`)."""
        return self.table.render(self.side)
