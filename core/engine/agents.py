"""Agents: whatever answers decisions — bots, people at a terminal, learning programs.

An agent sees only its side's view and the decision, and returns one option's value.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

from .canonical import JSON
from .decisions import Decision


@runtime_checkable
class Agent(Protocol):
    """Anything that answers a decision from a player's view with a legal option's value."""

    name: str

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Return the value of one of ``decision.options``."""
        ...


class RandomAgent:
    """Picks a uniformly random legal option, from its own seeded generator (not the match's)."""

    name = "random"

    def __init__(self, side: str = "", seed: int = 0) -> None:
        self.side = side
        self._rng = random.Random(f"random-agent:{side}:{seed}")

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Any legal option, uniformly."""
        return decision.options[self._rng.randrange(len(decision.options))].value


class FirstOptionAgent:
    """Always takes the first option: a deterministic baseline for tests and golden games."""

    name = "first"

    def __init__(self, side: str = "", seed: int = 0) -> None:
        self.side = side

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """The first legal option."""
        return decision.options[0].value


BUILTIN_AGENTS: dict[str, Callable[[str, int], Agent]] = {"random": RandomAgent, "first": FirstOptionAgent}
