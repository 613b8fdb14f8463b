"""Ridge Line: the second example game, a hex-and-counter game built on the designer's kit.

Everything printed is data (``data/``: the map, the counters, the Terrain Effects Chart, the
CRT, the options of the standard rules in ``kit.yaml``, the sequence of play and the AI);
the kit (:mod:`tabletop.core.kit`) plays movement, zones of control, stacking, combat, step
losses, retreats and advance. This module says what is the game's own: its identity, its
phases and its victory (RULES.md 2.0 and 5.0). Play it with ``tabletop play docs/example/ridge``.
"""

from __future__ import annotations

from tabletop.core.engine.flow import PhaseHandler
from tabletop.core.engine.match import GameInfo, Match, Result
from tabletop.core.kit.combat import attack_phase
from tabletop.core.kit.game import KitGame
from tabletop.core.kit.movement import movement_phase


class Ridge(KitGame):
    """The game plugin: its identity, phases and victory; the kit does the rest."""

    info = GameInfo(
        id="ridge",
        title="Ridge Line",
        version="1.0",
        players=("Blue", "Red"),
        description="The kit's example: 9x7 hexes, a ridge, 4 Blue and 3 Red two-step units.",
        rulebook="Ridge Line rules",
        human_side="Blue",
    )

    def load_data(self) -> str:
        """1.1, 1.2, 1.3 The kit's cross-checks of map, units and CRT; 5.1 Crest Farm exists."""
        if self.objectives != ("0604",):
            from tabletop.core.engine.errors import DataError

            raise DataError(f"{self.data / 'map.yaml'}: hexes: Crest Farm (0604) must be the one "
                            "objective hex (5.1)")
        return super().load_data()

    def phase_handlers(self) -> dict[str, PhaseHandler]:
        """2.0 Six turns of four phases: 2.1 Blue movement, 2.2 Blue combat, 2.3 Red
        movement, 2.4 Red combat (the kit's loops, one line each)."""
        return {
            "blue_move": lambda m: movement_phase(m, "Blue", "blue_move"),
            "blue_combat": lambda m: attack_phase(m, "Blue", "blue_combat"),
            "red_move": lambda m: movement_phase(m, "Red", "red_move"),
            "red_combat": lambda m: attack_phase(m, "Red", "red_combat"),
        }

    def check_end(self, match: Match) -> Result | None:
        """5.2 A side with no unit left on the map loses at once (after every phase and
        every attack)."""
        for side in self.info.players:
            if not self.on_map(match, side):
                winner = self.enemy_of(side)
                return Result(winner, f"{winner} decisive victory", "5.2", self.summary(match),
                              f"every {side} unit is eliminated")
        return None

    def holds_farm(self, match: Match) -> bool:
        """5.1 A Blue unit on Crest Farm and no Red unit there."""
        sides = {p.side for p in match.state.pieces.at(self.objectives[0])}
        return sides == {"Blue"}

    def final_result(self, match: Match) -> Result:
        """5.1 After turn 6: Blue wins holding Crest Farm alone, Red otherwise."""
        if self.holds_farm(match):
            return Result("Blue", "Blue victory", "5.1", self.summary(match), "Blue holds Crest Farm")
        return Result("Red", "Red victory", "5.1", self.summary(match), "Red denies Crest Farm")

    def standing(self, match: Match, player: str) -> list[str]:
        """5.1-5.2 Victory as it stands, in words."""
        lost = match.state.vars["lost"]
        return [*super().standing(match, player)[:1],
                "5.2: a side with no unit left on the map loses at once.",
                f"5.1: after turn 6 Blue wins if it alone holds Crest Farm (now: "
                f"{'yes' if self.holds_farm(match) else 'no'}).",
                f"Steps lost: Blue {lost['Blue']}, Red {lost['Red']}."]


GAME = Ridge()
