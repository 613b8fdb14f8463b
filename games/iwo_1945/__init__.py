"""Iwo Jima 1945: the game plugin (not yet playable: its rules are still being written).

Rulebook: shared/rules/iwo_1945.txt. Until the game's own issue lands, `tabletop list` shows it
as not yet playable and no match can be started.
"""

from __future__ import annotations

from pydantic import BaseModel

from tabletop.core.match import Game, GameInfo


class _Pending(Game):
    """Iwo Jima 1945, declared but not yet playable."""

    info = GameInfo(
        id="iwo_1945",
        title='Iwo Jima 1945',
        version="0.0.0",
        players=("USMC", "Japan"),
        playable=False,
        rulebook="shared/rules/iwo_1945.txt",
        description="Not yet playable: the rules are being implemented.",
    )

    def data_models(self) -> dict[str, type[BaseModel]]:
        """The models of the game's own data files (for `tabletop validate`)."""
        from .components import DATA_MODELS

        return dict(DATA_MODELS)

    def load_data(self) -> str:
        """Load and cross-check every component (board, pieces, both decks)."""
        from .components import load_components

        return load_components().summary()


GAME = _Pending()
