"""The Japanese bot for the two-player game (18.0): a first version that takes the first
legal option; the heuristic one (19.3) replaces it."""

from __future__ import annotations

from tabletop.core.canonical import JSON
from tabletop.core.decisions import Decision


class JapaneseBot:
    """An agent for the Japanese side of the two-player game (18.0)."""

    def __init__(self, side: str, seed: int) -> None:
        self.name = f"japanese-bot:{side}"
        self.side = side
        self.seed = seed

    def choose(self, view: dict[str, JSON], decision: Decision) -> JSON:
        """The first legal option."""
        return decision.options[0].value
