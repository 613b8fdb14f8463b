"""18.0 Two-player rules: the Japanese player's choices.

Being written: the Japanese-side engineer fills this module.
"""

from __future__ import annotations

from tabletop.core.match import Flow, Match


def initial_deployment(match: Match) -> Flow:
    """18.1: the Japanese player places each unit on an initial deployment hex."""
    return None
    yield
