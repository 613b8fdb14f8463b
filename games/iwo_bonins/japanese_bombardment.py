"""16.0 Japanese bombardment: the Japanese Combat Phase (5.1.6).

Being written: the Japanese-side engineer fills this module.
"""

from __future__ import annotations

from tabletop.core.match import Flow, Match


def japanese_combat_phase(match: Match) -> Flow:
    """5.1.6: availability (16.1), targeting (16.2), strength (16.3), resolution (16.4, 16.5)."""
    return None
    yield
