"""Iwo: Bloodbath in the Bonins: the game plugin (not yet playable: its rules are still being written).

Rulebook: shared/rules/iwo_bonins.txt. Until the game's own issue lands, `tabletop list` shows it
as not yet playable and no match can be started.
"""

from __future__ import annotations

from tabletop.core.match import Game, GameInfo


class _Pending(Game):
    """Iwo: Bloodbath in the Bonins, declared but not yet playable."""

    info = GameInfo(
        id="iwo_bonins",
        title='Iwo: Bloodbath in the Bonins',
        version="0.0.0",
        players=("US", "Japan"),
        playable=False,
        rulebook="shared/rules/iwo_bonins.txt",
        description="Not yet playable: the rules are being implemented.",
    )


GAME = _Pending()
