"""Iwo Jima: Valor of Arms: the game plugin (not yet playable: its rules are still being written).

Rulebook: shared/rules/iwo_valor.txt. Until the game's own issue lands, `tabletop list` shows it
as not yet playable and no match can be started.
"""

from __future__ import annotations

from tabletop.core.match import Game, GameInfo


class _Pending(Game):
    """Iwo Jima: Valor of Arms, declared but not yet playable."""

    info = GameInfo(
        id="iwo_valor",
        title='Iwo Jima: Valor of Arms',
        version="0.0.0",
        players=("US", "Japan"),
        playable=False,
        rulebook="shared/rules/iwo_valor.txt",
        description="Not yet playable: the rules are being implemented.",
    )


GAME = _Pending()
