"""Bots for Iwo: Bloodbath in the Bonins: the US heuristic bot and the Japanese bot for 18.0.

Being written by the side engineers.
"""

from __future__ import annotations

from tabletop.core.match import AgentFactory

BOTS: dict[str, AgentFactory] = {}
