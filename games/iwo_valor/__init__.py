"""Iwo Jima: Valor of Arms: the game plugin, announced (its rules are not written yet).

Rulebook: shared/rules/iwo_valor.txt. Until the game's own issue lands, `tabletop list` shows it
as not yet playable and no match can be started.
"""

from __future__ import annotations

from tabletop.core.match import announced_game

GAME = announced_game("iwo_valor", 'Iwo Jima: Valor of Arms', ("US", "Japan"), "shared/rules/iwo_valor.txt")
