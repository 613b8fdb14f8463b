"""6.0 Movement and 7.0 Zones of control: the US movement phases (5.1.1, 5.1.3).

Being written: the US-side engineer fills this module (see the game's __init__ docstring).
"""

from __future__ import annotations

from tabletop.core.match import Flow, Match


def us_movement_phase(match: Match, *, first: bool) -> Flow:
    """5.1.1 (first) / 5.1.3 (second): replacements, reserves, landings, movement, redeployment."""
    return None
    yield
