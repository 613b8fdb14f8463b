"""Skirmish at Hill 50, the designer guide's example, on the kit (:mod:`tabletop.core.kit`).

What is printed is data (``data/``, the standard rules' options in ``kit.yaml``); the kit plays
movement (3.1-3.3), attacks (5.1-5.2), the differential (5.3) and step losses (5.4). Here is
what is the game's own: turns (2.0), hidden Red units (4.1-4.2), victory (6.0); its bot is in ``ai``.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.core.engine.flow import PhaseHandler
from tabletop.core.engine.match import AgentFactory, GameInfo, GameOption, Match, Result
from tabletop.core.engine.pieces import Piece
from tabletop.core.kit.combat import attack_phase
from tabletop.core.kit.game import KitGame
from tabletop.core.kit.movement import movement_phase


class Skirmish(KitGame):
    """The game plugin: its identity, turns, hidden units and victory; the kit does the rest."""
    info = GameInfo(
        id="skirmish", title="Skirmish at Hill 50", version="1.2", players=("Blue", "Red"),
        options=(GameOption("turns", "number of game turns (2.0)", 6, (4, 6, 8)),),
        description="The example game of the designer guide: 10x8 hexes, 4 units a side.",
        rulebook="Skirmish at Hill 50 rules", human_side="Blue")

    def last_turn(self, match: Match) -> int:
        """2.0 The game lasts as many turns as the ``turns`` option says."""
        return int(match.options["turns"])

    def phase_handlers(self) -> dict[str, PhaseHandler]:
        """2.0 Each turn: 2.1 Blue movement, 2.2 Blue combat (5.1-5.2: the hex, then the
        attackers one at a time; 1.3 the CRT), 2.3 Red movement, 2.4 Red combat (the kit's loops)."""
        return {"blue_move": lambda m: movement_phase(m, "Blue", "blue_move"),
                "blue_combat": lambda m: attack_phase(m, "Blue", "blue_combat"),
                "red_move": lambda m: movement_phase(m, "Red", "red_move"),
                "red_combat": lambda m: attack_phase(m, "Red", "red_combat")}

    def before_combat(self, match: Match, side: str, targets: Sequence[str],
                      how: str = " when attacked") -> None:
        """4.2 A Red unit, face-down since the set-up (4.1), is revealed for good when attacked
        (or next to a Blue move)."""
        for p in [p for h in targets for p in match.state.pieces.at(h) if p.hidden]:
            p.hidden = False
            match.reveal(p, "4.2", f"{p.name} revealed at {p.location}{how}", piece=p.id,
                         unit=p.name, at=p.location)

    def after_move(self, match: Match, piece: Piece, frm: str) -> None:
        """4.2 A Blue unit ending its move reveals the Red units next to it."""
        if piece.side == "Blue":
            self.before_combat(match, "Blue", list(self.map.neighbor_ids(piece.location)), "")

    def held(self, match: Match) -> int:
        """6.3 How many Hill 50 hexes (1.1) Blue holds: a Blue unit there and no Red one."""
        return sum({p.side for p in match.state.pieces.at(h)} == {"Blue"} for h in self.objectives)

    def final_result(self, match: Match) -> Result:
        """6.3 At the end: Blue wins holding both objectives with no Red unit on them."""
        if self.held(match) == len(self.objectives):
            return Result("Blue", "Blue victory", "6.3", self.summary(match), "Blue holds Hill 50")
        return Result("Red", "Red victory", "6.3", self.summary(match), "Red denies Hill 50")

    def standing(self, match: Match, player: str) -> list[str]:
        """6.1-6.3 Victory as it stands, in words (6.1-6.2, kit.yaml's wiped_out: the kit's)."""
        return [*super().standing(match, player), f"6.3: after turn {match.options['turns']}, Blue wins "
                "if it holds both Hill 50 hexes with no Red unit on them; otherwise Red wins. Blue holds "
                f"{self.held(match)} of {len(self.objectives)} now."]

    def bots(self) -> dict[str, AgentFactory]:
        """The example's own bot, 'pusher' (``ai``), beside the kit's heuristic; --auto uses it."""
        from .ai import Pusher

        return {**super().bots(), "pusher": lambda side, seed: Pusher(self, side)}

    def default_bot(self, side: str) -> str:
        """--auto uses the pusher for both sides."""
        return "pusher"


GAME = Skirmish()
