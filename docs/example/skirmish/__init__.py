"""Skirmish at Hill 50: the example game that shows a designer the whole tabletop API.

Data (map, units, CRT, sequence of play) lives in ``data/``, its models and checks in
``components``, the bot in ``bots``; this module holds the game (a :class:`PhasedGame`: its
set-up, the handlers of the phases of ``sequence.yaml``, victory, invariants). The rules
are one module a chapter of ``RULES.md``, each procedure citing its section: ``movement``
(3.0, 4.2), ``combat`` (5.0), and ``common`` for what they share. Play it with
``tabletop play docs/example/skirmish``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from typing import ClassVar

from pydantic import BaseModel

from tabletop.core.board.hexgrid import Hex, distance
from tabletop.core.board.hexmap import HexMap
from tabletop.core.board.movement import MoveCosts
from tabletop.core.engine.agents import Agent
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.errors import DataError
from tabletop.core.engine.flow import PhaseHandler
from tabletop.core.engine.match import AgentFactory, GameInfo, GameOption, Match, PhasedGame, Result
from tabletop.core.engine.pieces import OFF_BOARD, Piece
from tabletop.core.engine.tables import Table
from tabletop.core.engine.visibility import PUBLIC

from . import common as c
from .bots import Pusher
from .combat import combat_phase
from .components import (
    DATA,
    ELIMINATED,
    SIDES,
    STACK_LIMIT,
    UnitsFile,
    UnitSpec,
    UnitsSpec,
    check_map,
    face_values,
    load_units,
)
from .movement import destination_options, movement_phase


class Skirmish(PhasedGame):
    """The game plugin: declared identity plus the rule hooks of RULES.md."""

    info = GameInfo(
        id="skirmish",
        title="Skirmish at Hill 50",
        version="1.1",
        players=SIDES,
        options=(GameOption("turns", "number of game turns (2.0)", 6, (4, 6, 8)),),
        description="The example game of the designer guide: 10x8 hexes, 4 units a side.",
        rulebook="Skirmish at Hill 50 rules",
        human_side="Blue",
    )
    #: every kind of decision the rules ask (the conformance check holds the game and its bots to it)
    decision_kinds = frozenset({
        "select_attacker", "select_hex", "select_target", "select_unit", "take_loss"
    })
    #: 6.0: the losses of each side decide the game and are counted in the open
    var_visibility: ClassVar[Mapping[str, str | tuple[str, ...]]] = {"lost": PUBLIC}

    def __init__(self) -> None:
        super().__init__()  # 2.0 the sequence of play, data/sequence.yaml (PhasedGame)
        self.map = HexMap.load(DATA / "map.yaml")
        self.crt = Table.load(DATA / "crt.yaml")
        self.units = UnitsSpec(units=tuple(load_units(DATA / "units.yaml")))
        # 3.1 terrain costs; a hill (objective) adds one; a stream hexside adds one.
        base: dict[str, float | None] = {"clear": 1.0, "woods": 2.0, "town": 1.0, "lake": None}
        check_map(self.map, base, DATA / "map.yaml")

        def enter(h: Hex) -> float | None:
            cost = base[self.map.terrain(h)]
            return None if cost is None else cost + (1 if self.map.has_feature(h, "objective") else 0)

        self.costs = MoveCosts(self.map, enter, {side: 1.0 for side in self.map.hexsides_with("stream")})
        self.objectives = [self.map.label(h) for h in self.map.hexes_with("objective")]
        #: every hex id -> its distance to the nearer Hill 50 hex (for the bot; the map never changes)
        self.to_hill = {self.map.label(h): min(distance(h, o) for o in self.map.hexes_with("objective"))
                        for h in self.map.hexes()}
        #: every hex id -> its place when the hexes are ordered nearest Hill 50 first, then by id
        self.hill_rank = {hid: n for n, hid in enumerate(sorted(self.to_hill,
                                                                key=lambda h: (self.to_hill[h], h)))}
        #: 3.1-3.2 :func:`movement.destination_options` on this map, its answers kept: they
        #: depend on its arguments alone (a start hex, movement points, the enemy's hexes)
        self.destinations_from = lru_cache(maxsize=256)(partial(destination_options, self))

    def data_models(self) -> dict[str, type[BaseModel]]:
        """Models for the game's own files, by file name (for tabletop validate)."""
        return {"units.yaml": UnitsFile}

    def load_data(self) -> str:
        """1.2 Cross-check the data: every unit sets up on a hex of the map it may stand on,
        3.3 no more than two units to a hex, 3.1 never both sides in one."""
        units = DATA / "units.yaml"
        held: dict[str, list[UnitSpec]] = {}
        for n, u in enumerate(self.units.units):
            if u.hex not in self.map:
                raise DataError(f"{units}: {n}.hex: unit {u.id} is set up on hex "
                                f"{u.hex}, which is not on map.yaml")
            h = self.map.hex(u.hex)
            if self.map.is_prohibited(h):
                raise DataError(f"{units}: {n}.hex: unit {u.id}: hex {u.hex} is "
                                f"{self.map.terrain(h)}, where no unit may stand (3.1)")
            here = held.setdefault(u.hex, [])
            here.append(u)
            if len(here) > STACK_LIMIT:
                raise DataError(f"{units}: {n}.hex: unit {u.id} is the {len(here)}th unit set up "
                                f"on {u.hex} (3.3: at most {STACK_LIMIT} to a hex)")
            if here[0].side != u.side:
                raise DataError(f"{units}: {n}.hex: unit {u.id} ({u.side}) sets up on {u.hex} "
                                f"with {here[0].id} ({here[0].side}) (3.1: never both sides "
                                "in one hex)")
        return f"{len(self.units.units)} units on set-up hexes"

    def turn_limits(self, match: Match) -> tuple[int, int]:
        """2.0 A position's turn: from 1 to the last turn the ``turns`` option sets (0: before
        the first)."""
        return 0, int(match.options["turns"])

    # -- set-up and flow -------------------------------------------------------------
    def setup(self, match: Match) -> None:
        """1.2 Place every unit on its set-up hex; 4.1 Red units face-down."""
        for u in self.units.units:
            values = {"front": face_values(u.front)}
            if u.back:
                values["back"] = face_values(u.back)
            match.state.pieces.add(
                Piece(
                    u.id,
                    u.kind,
                    u.side,
                    u.name,
                    u.hex,
                    steps=u.steps,
                    max_steps=u.steps,
                    values=values,
                    hidden=u.side == "Red",
                )
            )
        match.state.vars["lost"] = {s: 0 for s in SIDES}

    def phase_handlers(self) -> dict[str, PhaseHandler]:
        """2.0 The four phases of a turn (a position may start at any of them, and a fork
        may enter any of them again at any decision: each handler knows its phase id)."""
        return {
            "blue_move": lambda m: movement_phase(m, "Blue", "blue_move"),
            "blue_combat": lambda m: combat_phase(m, "Blue", "blue_combat"),
            "red_move": lambda m: movement_phase(m, "Red", "red_move"),
            "red_combat": lambda m: combat_phase(m, "Red", "red_combat"),
        }

    def last_turn(self, match: Match) -> int:
        """2.0 The game lasts as many turns as the ``turns`` option says."""
        return int(match.options["turns"])

    def check_end(self, match: Match) -> Result | None:
        """6.1-6.2 A side with no unit left loses at once (asked after every phase, and
        after every attack)."""
        for side in SIDES:
            if not c.on_map(match, side):
                winner = c.enemy_of(side)
                return Result(winner, f"{winner} decisive victory", "6.1" if side == "Red" else "6.2",
                              self.scores(match), f"every {side} unit is eliminated")
        return None

    # -- positions: where pieces may stand ---------------------------------------------
    def places(self, match: Match) -> frozenset[str]:
        """1.1 Every hex of the map, and the eliminated box (5.4)."""
        return frozenset([*(self.map.label(h) for h in self.map.hexes()), ELIMINATED])

    def position_problems(self, match: Match) -> list[str]:
        """The invariants, and 5.4: a two-step unit shows its reduced side exactly when it
        has lost a step."""
        problems = self.invariants(match)
        for p in match.state.pieces:
            if p.max_steps == 2 and p.steps >= 1 and (p.face == "back") != (p.steps == 1):
                problems.append(f"5.4: {p.id} has {p.steps} step(s) but shows its {p.face} side")
        return problems

    # -- 6.0 victory -------------------------------------------------------------------
    def scores(self, match: Match) -> dict[str, JSON]:
        """6.3 Steps lost by each side."""
        lost = match.state.vars["lost"]
        return {"blue_steps_lost": lost["Blue"], "red_steps_lost": lost["Red"]}

    def final_result(self, match: Match) -> Result:
        """6.3 At the end: Blue wins holding both objectives with no Red unit on them."""
        pieces = match.state.pieces
        held = all(
            any(p.side == "Blue" for p in pieces.at(h)) and not any(p.side == "Red" for p in pieces.at(h))
            for h in self.objectives
        )
        if held:
            return Result("Blue", "Blue victory", "6.3", self.scores(match), "Blue holds Hill 50")
        return Result("Red", "Red victory", "6.3", self.scores(match), "Red denies Hill 50")

    def standing(self, match: Match, player: str) -> list[str]:
        """6.1-6.3 Victory as it stands, in words."""
        pieces = match.state.pieces
        held = sum(1 for h in self.objectives if any(p.side == "Blue" for p in pieces.at(h))
                   and not any(p.side == "Red" for p in pieces.at(h)))
        lost = match.state.vars["lost"]
        return [
            *super().standing(match, player)[:1],
            "6.1-6.2: a side with no unit left on the map loses at once.",
            f"6.3: after turn {match.options['turns']}, Blue wins if it holds both Hill 50 hexes "
            f"with no Red unit on them; otherwise Red wins. Blue holds {held} of "
            f"{len(self.objectives)} now.",
            f"Steps lost: Blue {lost['Blue']}, Red {lost['Red']}.",
        ]

    def summary(self, match: Match) -> dict[str, JSON]:
        """The score fields for --json (6.3)."""
        return self.scores(match)

    # -- invariants, board, bots -------------------------------------------------------
    def invariants(self, match: Match) -> list[str]:
        """3.3 stacking, 3.1 no unit on a lake, steps in range, every piece in one place."""
        problems = match.state.pieces.check()
        for loc in match.state.pieces.occupied():
            if loc in (ELIMINATED, OFF_BOARD):
                continue
            if match.state.pieces.count_at(loc) > STACK_LIMIT:
                problems.append(f"3.3: {loc} holds more than {STACK_LIMIT} units")
            if self.map.is_prohibited(self.map.hex(loc)):
                problems.append(f"3.1: a unit stands on prohibited {loc}")
            if len({p.side for p in match.state.pieces.at(loc)}) > 1:
                problems.append(f"3.1: both sides in {loc}")
        for p in match.state.pieces:
            if not (0 if p.location in (ELIMINATED, OFF_BOARD) else 1) <= p.steps <= p.max_steps:
                problems.append(f"5.4: {p.id} has {p.steps} steps")
        return problems

    def board(self, match: Match | None) -> HexMap:
        """The map to draw."""
        return self.map

    def piece_label(self, piece: Piece) -> str:
        """`name a-d-m` as printed on the face that is up."""
        v = piece.values.get(piece.face, {})
        return f"{piece.name} {v.get('attack')}-{v.get('defense')}-{v.get('move')}"

    def bots(self) -> dict[str, AgentFactory]:
        """The example's heuristic bot, 'pusher'."""
        return {"pusher": lambda side, seed: Pusher(self, side)}

    def default_bot(self, side: str) -> str:
        """--auto uses the pusher for both sides."""
        return "pusher"


GAME = Skirmish()
_: Agent = Pusher(GAME, "Blue")  # the bot satisfies the Agent protocol
