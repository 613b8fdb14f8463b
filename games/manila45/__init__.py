"""Manila '45: the game plugin (not yet playable: its rules are still being written).

Rulebook: shared/rules/manila45.txt. Until the game's own issue lands, `tabletop list` shows it
as not yet playable and no match can be started.
"""

from __future__ import annotations

from tabletop.core.match import Game, GameInfo


class _Pending(Game):
    """Manila '45, declared but not yet playable."""

    info = GameInfo(
        id="manila45",
        title="Manila '45",
        version="0.0.0",
        players=("US", "Japan"),
        playable=False,
        rulebook="shared/rules/manila45.txt",
        description="Not yet playable: the rules are being implemented.",
    )


GAME = _Pending()
