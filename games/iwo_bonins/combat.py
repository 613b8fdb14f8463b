"""9.0 Combat: the US combat phases (5.1.2 with bombardment, 5.1.4 without).

Being written: the US-side engineer fills this module.
"""

from __future__ import annotations

from tabletop.core.match import Flow, Match


def us_combat_phase(match: Match, *, first: bool) -> Flow:
    """5.1.2 (first: bombardment 8.0, then attacks) / 5.1.4 (second: attacks only)."""
    return None
    yield
