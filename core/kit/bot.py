"""The kit's heuristic bot, ``heuristic``: an opponent for any kit game with no code, steered
by the ``priorities`` of its ``data/ai.yaml`` (:class:`KitPriorities`).

It advances on the objectives (the hexes the priorities name, else the map's ``objective``
hexes): a side listed under ``advance`` moves every unit not standing on an objective toward
the nearest one; any other side holds, moving a unit only toward an objective it does not
hold. A unit on an objective stays there (what the victory conditions need is held). It
attacks where the odds with every unit that can join reach ``attack_at_least`` (a CRT
column, per side or for both), adding every unit it can; it takes a step loss on the unit
with most steps, retreats toward the objectives, and advances after combat with one unit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..engine.agents import KindBot, handles
from ..engine.ai import AI_FILE, ai_of
from ..engine.canonical import JSON
from ..engine.data import StrictModel, format_validation_error
from ..engine.decisions import DONE, Decision
from ..engine.errors import DataError

if TYPE_CHECKING:
    from .game import KitGame


class KitPriorities(StrictModel):
    """What the heuristic follows: ``priorities`` in ``data/ai.yaml``, every key optional."""

    objectives: tuple[str, ...] = ()  # the hexes to take or hold (default: the map's objectives)
    advance: tuple[str, ...] = ()  # the sides that press on to the objectives; the others hold
    attack_at_least: str | dict[str, str] = ""  # the worst CRT column it attacks at ("": the middle)


def priorities_of(game: KitGame) -> KitPriorities:
    """The heuristic's priorities, checked against the game (a DataError naming ai.yaml)."""
    source = ai_of(game).source or f"{game.info.id}: {AI_FILE}"
    raw = game.ai_priorities()
    known = set(KitPriorities.model_fields)
    try:
        found = KitPriorities.model_validate({k: v for k, v in raw.items() if k in known})
    except ValidationError as exc:
        raise DataError(format_validation_error(f"{source}: priorities", exc)) from None
    for h in found.objectives:
        if h not in game.map:
            raise DataError(f"{source}: priorities.objectives: {h!r} is no hex of the map")
    for side in found.advance:
        if side not in game.info.players:
            raise DataError(f"{source}: priorities.advance: {side!r} is not a side")
    least = found.attack_at_least
    for side, column in (least.items() if isinstance(least, dict) else [("", least)]):
        if side and side not in game.info.players:
            raise DataError(f"{source}: priorities.attack_at_least.{side}: not a side")
        if column and column not in game.crt.columns:
            raise DataError(f"{source}: priorities.attack_at_least: {column!r} is no column of "
                            f"the CRT ({', '.join(game.crt.columns)})")
    return found


class KitBot(KindBot):
    """The heuristic bot of a kit game (see the module's docstring)."""

    name = "heuristic"

    def __init__(self, game: KitGame, side: str) -> None:
        self.game = game
        self.side = side
        found = priorities_of(game)
        self.objectives = found.objectives or game.objectives
        self.advancing = side in found.advance
        least = found.attack_at_least
        column = least.get(side, "") if isinstance(least, dict) else least
        columns = game.crt.columns
        self.least = columns.index(column) if column else len(columns) // 2
        self.view: Any = {}

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Pick an option by the decision's kind (the method marked for it)."""
        handler = self.handler(decision.kind)
        self.view = view
        value: JSON = decision.options[0].value if handler is None else handler(decision)
        return value

    def _to_objective(self, hex_id: str, targets: tuple[str, ...] | None = None) -> int:
        """How far a hex is from the nearest objective (0 when the game names none)."""
        goals = self.objectives if targets is None else targets
        return min((self.game.map.id_distance(hex_id, o) for o in goals), default=0)

    def _unheld(self) -> tuple[str, ...]:
        """The objectives the side does not hold (no unit of its own there)."""
        stacks = self.view.get("stacks", {})
        sides = {p["id"]: p["side"] for p in self.view.get("pieces", ())}
        return tuple(o for o in self.objectives
                     if not any(sides.get(pid) == self.side for pid in stacks.get(o, ())))

    @handles("select_unit")
    def _unit(self, decision: Decision) -> JSON:
        """The first unit not on an objective (a holding side: only while one is unheld)."""
        if not self.objectives or (not self.advancing and not self._unheld()):
            return DONE
        for o in decision.options:
            if o.value != DONE and o.detail.get("at") not in self.objectives:
                return o.value
        return DONE

    @handles("select_hex")
    def _hex(self, decision: Decision) -> JSON:
        """The destination nearest an objective (unheld ones first), if nearer than staying
        (or when the unit may not stay put)."""
        goals = self._unheld() or self.objectives
        unit = decision.context.get("unit")
        at = next((p["location"] for p in self.view.get("pieces", ()) if p["id"] == unit), None)
        best = min((o for o in decision.options if o.value != DONE),
                   key=lambda o: (self._to_objective(str(o.value), goals), o.detail.get("cost", 0)),
                   default=None)
        stay = DONE in decision.values  # kit.yaml movement.stay_put
        if best is None or at is None:
            return DONE if stay else decision.options[0].value
        nearer = self._to_objective(str(best.value), goals) < self._to_objective(at, goals)
        return best.value if nearer or not stay else DONE

    @handles("select_target")
    def _target(self, decision: Decision) -> JSON:
        """The first hex whose odds with every unit that can join reach the least column."""
        for o in decision.options:
            index = o.detail.get("index")
            if o.value != DONE and isinstance(index, int) and index >= self.least:
                return o.value
        return DONE

    @handles("select_attacker")
    def _attacker(self, decision: Decision) -> JSON:
        """Every unit that can join, then resolve (no further hexes)."""
        return next((o.value for o in decision.options
                     if o.value != DONE and not str(o.value).startswith("+")), DONE)

    @handles("take_loss")
    def _loss(self, decision: Decision) -> JSON:
        """The unit with most steps (the first of them)."""
        most = max(int(str(o.detail.get("steps", 0))) for o in decision.options)
        return next(o.value for o in decision.options if int(str(o.detail.get("steps", 0))) == most)

    @handles("select_retreat")
    def _retreat(self, decision: Decision) -> JSON:
        """The hex nearest an objective."""
        return min(decision.values, key=lambda v: (self._to_objective(str(v)), str(v)))

    @handles("select_advance")
    def _advance(self, decision: Decision) -> JSON:
        """One unit advances (none when one of the side's units already stands there)."""
        into = decision.context.get("hex")
        sides = {p["id"]: p["side"] for p in self.view.get("pieces", ())}
        if any(sides.get(pid) == self.side for pid in self.view.get("stacks", {}).get(into, ())):
            return DONE
        return decision.options[0].value
