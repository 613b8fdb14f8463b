"""15.0 Japanese operations: redeployment (15.3, 15.4), Banzai attacks (15.5), and the
Japanese Movement Phase (5.1.5: 14.4 replacement, then 15.5).

Being written: the Japanese-side engineer fills this module.
"""

from __future__ import annotations

from tabletop.core.match import Flow, Match
from tabletop.core.pieces import Piece


def japanese_movement_phase(match: Match) -> Flow:
    """5.1.5: a) place one replacement (14.4, 14.5); b) Banzai attacks (15.5)."""
    return None
    yield


def redeploy(match: Match, piece: Piece, *, in_place: bool, section: str) -> Flow:
    """15.3 (DR) / 15.4 (DRIP): redeploy a Japanese unit, with a substitute where the rule says."""
    return None
    yield
