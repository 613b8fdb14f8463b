"""Iwo: Bloodbath in the Bonins: the game plugin (not yet playable: its rules are still being written).

Rulebook: shared/rules/iwo_bonins.txt. Until the game's own issue lands, `tabletop list` shows it
as not yet playable and no match can be started.
"""

from __future__ import annotations

from pydantic import BaseModel

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

    def data_models(self) -> dict[str, type[BaseModel]]:
        """The models of the game's own data files (for `tabletop validate`)."""
        from .components import DATA_MODELS

        return dict(DATA_MODELS)

    def load_data(self) -> str:
        """Load and cross-check every component (map, counters, tables, tracks)."""
        from .components import load_components

        return load_components().summary()

    def board(self, match: object) -> object:
        """The map, so `tabletop render iwo_bonins -o map.svg` draws it before the rules land."""
        from .components import load_components

        return load_components().map


GAME = _Pending()
