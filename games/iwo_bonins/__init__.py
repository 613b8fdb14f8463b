"""Iwo: the game plugin (not yet playable: its rules are still being written).

Rulebook: shared/rules/ Bloodbath in the Bonins. Until the game's own issue lands, `tabletop list` shows it
as not yet playable and no match can be started.
"""

from __future__ import annotations

from tabletop.core.match import Game, GameInfo


class _Pending(Game):
    """Iwo, declared but not yet playable."""

    info = GameInfo(
        id="iwo_bonins",
        title="Iwo",
        version="0.0.0",
        players=("iwo_bonins.txt:US", "Japan"),
        playable=False,
        rulebook=" Bloodbath in the Bonins",
        description="Not yet playable: the rules are being implemented.",
    )


GAME = _Pending()
