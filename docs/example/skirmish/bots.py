"""Skirmish at Hill 50's bot, ``pusher``: Blue presses on to Hill 50, Red holds it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from tabletop.core.engine.agents import KindBot, handles
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision

if TYPE_CHECKING:
    from . import Skirmish


class Pusher(KindBot):
    """A simple heuristic bot: move toward Hill 50 (Blue) or hold it (Red); attack at even odds or better."""

    name = "pusher"

    def __init__(self, game: Skirmish, side: str) -> None:
        self.game = game
        self.side = side

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Pick an option by the decision's kind (the method marked for it)."""
        handler = self.handler(decision.kind)
        value: JSON = decision.options[0].value if handler is None else handler(decision)
        return value

    @handles("select_unit")
    def _unit(self, decision: Decision) -> JSON:
        """Blue moves every unit; Red holds unless it has more than four to move."""
        options = decision.options
        return options[0].value if self.side == "Blue" or len(options) > 4 else DONE

    @handles("select_hex")
    def _hex(self, decision: Decision) -> JSON:
        """The destination nearest Hill 50."""
        return min(map(str, decision.values), key=self.game.hill_rank.__getitem__)

    @handles("select_target")
    def _target(self, decision: Decision) -> JSON:
        """Even odds or better, or a hidden defender (odds unknown)."""
        for opt in decision.options:
            if opt.value != DONE and int(str(opt.detail.get("diff", 0))) >= 0:
                return opt.value
        return DONE

    @handles("select_attacker")
    def _attacker(self, decision: Decision) -> JSON:
        """Every unit that can join the attack, then resolve it."""
        return next((o.value for o in decision.options if o.value != DONE), DONE)

    @handles("take_loss")
    def _loss(self, decision: Decision) -> JSON:
        """The first unit offered."""
        return decision.options[0].value

