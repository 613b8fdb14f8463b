"""Skirmish at Hill 50's bot, ``pusher``: Blue presses on to Hill 50, Red holds it, as the
priorities of ``data/ai.yaml`` say (:class:`~.ai.Priorities`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from tabletop.core.engine.agents import KindBot, handles
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision

from .ai import Priorities, priorities

if TYPE_CHECKING:
    from . import Skirmish


class Pusher(KindBot):
    """A simple heuristic bot: move toward Hill 50 (Blue) or hold it (Red); attack at even odds or better."""

    name = "pusher"

    def __init__(self, game: Skirmish, side: str) -> None:
        self.game = game
        self.side = side

    @property
    def priorities(self) -> Priorities:
        """What the bot follows: ``priorities`` in ``data/ai.yaml`` (checked before play)."""
        return priorities(self.game)

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Pick an option by the decision's kind (the method marked for it)."""
        handler = self.handler(decision.kind)
        value: JSON = decision.options[0].value if handler is None else handler(decision)
        return value

    @handles("select_unit")
    def _unit(self, decision: Decision) -> JSON:
        """Blue moves every unit; Red holds unless it has more than a few to move."""
        options = decision.options
        many = self.priorities.red_holds_unless_more_than
        return options[0].value if self.side == "Blue" or len(options) > many else DONE

    @handles("select_hex")
    def _hex(self, decision: Decision) -> JSON:
        """The destination nearest Hill 50."""
        return min(map(str, decision.values), key=self.game.hill_rank.__getitem__)

    @handles("select_target")
    def _target(self, decision: Decision) -> JSON:
        """The least differential the priorities accept or better, or a hidden defender
        (odds unknown)."""
        least = self.priorities.least_differential
        for opt in decision.options:
            if opt.value != DONE and int(str(opt.detail.get("diff", 0))) >= least:
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

