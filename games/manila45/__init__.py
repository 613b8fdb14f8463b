"""Manila '45: the game plugin, announced (its rules are not written yet).

Rulebook: shared/rules/manila45.txt. Until the game's own issue lands, `tabletop list` shows it
as not yet playable and no match can be started.
"""

from __future__ import annotations

from tabletop.core.match import announced_game

GAME = announced_game("manila45", "Manila '45", ("US", "Japan"), "shared/rules/manila45.txt")
