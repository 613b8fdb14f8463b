"""Skirmish at Hill 50's AI: the hook ``data/ai.yaml``'s evaluation names, the model of its
priorities, and the bot ``pusher`` they steer (Blue presses on to Hill 50, Red holds it)."""

from __future__ import annotations

from pydantic import Field

from tabletop.core.engine.agents import KindBot, handles
from tabletop.core.engine.ai import ai_of
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.decisions import DONE, Decision
from tabletop.core.engine.match import Match
from tabletop.core.kit.bot import KitPriorities
from tabletop.core.kit.game import KitGame
from tabletop.core.kit.rules import kit


class Priorities(KitPriorities):
    """``priorities`` in ``data/ai.yaml``: the kit heuristic's, and the pusher's own."""

    red_holds_unless_more_than: int = Field(ge=0)  # 3.0: Red moves only when more may move
    least_differential: int  # 5.3: the least attack-minus-defense the pusher attacks at


def units_in_contact(match: Match, side: str) -> float:
    """3.2, 5.1: how many of the side's units stand next to an enemy unit (able to attack)."""
    g = kit(match)
    enemy = g.hexes_of(match, g.enemy_of(side))
    return float(sum(any(n in enemy for n in g.map.neighbor_ids(p.location)) for p in g.on_map(match, side)))


class Pusher(KindBot):
    """Move toward Hill 50 (Blue) or hold it (Red); attack at the least differential or better."""

    name = "pusher"
    def __init__(self, game: KitGame, side: str) -> None:
        self.side, self.priorities = side, ai_of(game).priorities  # a Priorities (checked before play)
        near = {h: min((game.map.id_distance(h, o) for o in game.objectives), default=0)
                for h in game.map.ids()}
        self.rank = {h: n for n, h in enumerate(sorted(near, key=lambda h: (near[h], h)))}  # nearest first

    @handles("select_unit")
    def _unit(self, d: Decision) -> JSON:
        """Blue moves every unit; Red holds unless it has more than a few to move (3.1)."""
        many = self.priorities.red_holds_unless_more_than
        return d.options[0].value if self.side == "Blue" or len(d.options) > many else DONE

    @handles("select_hex")
    def _hex(self, d: Decision) -> JSON:
        """The destination nearest Hill 50 (3.1)."""
        return min(map(str, d.values), key=self.rank.__getitem__)

    @handles("select_target")
    def _target(self, d: Decision) -> JSON:
        """The first hex at the least differential or better, or with a hidden defender (5.3)."""
        least = self.priorities.least_differential
        return next((o.value for o in d.options
                     if o.value != DONE and int(str(o.detail.get("read", 0))) >= least), DONE)

    @handles("select_attacker", "take_loss", "select_retreat", "select_advance")
    def _first(self, d: Decision) -> JSON:
        """Every unit that can join the attack, then resolve it (5.2); the first unit offered
        takes a step loss (5.4); the kit's retreat and advance, never asked here: the first."""
        return next((o.value for o in d.options if o.value != DONE), DONE)
