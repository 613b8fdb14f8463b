"""Skirmish at Hill 50's bot, ``pusher``: Blue presses on to Hill 50, Red holds it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import Decision

if TYPE_CHECKING:
    from . import Skirmish


class Pusher:
    """A simple heuristic bot: move toward Hill 50 (Blue) or hold it (Red); attack at even odds or better."""

    name = "pusher"

    def __init__(self, game: Skirmish, side: str) -> None:
        self.game = game
        self.side = side

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Pick an option by the decision's kind."""
        options = decision.options
        if decision.kind == "select_unit":
            return options[0].value if self.side == "Blue" or len(options) > 4 else "done"
        if decision.kind == "select_hex":  # the destination nearest Hill 50
            return min(map(str, decision.values), key=self.game.hill_rank.__getitem__)
        if decision.kind == "select_target":
            for opt in options:  # even odds or better, or a hidden defender (odds unknown)
                if opt.value != "done" and int(str(opt.detail.get("diff", 0))) >= 0:
                    return opt.value
            return "done"
        if decision.kind == "select_attacker":
            return next((o.value for o in options if o.value != "resolve"), "resolve")
        return options[0].value
