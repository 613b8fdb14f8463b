"""18.0 Two-player rules: the Japanese player's choices.

Being written.
"""

from __future__ import annotations

from tabletop.core.match import Flow, Match, Procedure


def initial_deployment(match: Match) -> Flow:
    """18.1: the Japanese player places each unit on an initial deployment hex."""
    return None
    yield


def japanese_movement(match: Match) -> Procedure[None]:
    """18.2, 18.2.1: the Japanese player moves units and tries tunnel movement."""
    return None
    yield


def japanese_attacks(match: Match) -> Procedure[None]:
    """18.3: face-up units attack adjacent US units."""
    return None
    yield
