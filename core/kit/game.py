"""The game of the kit: a :class:`~tabletop.core.engine.match.PhasedGame` that reads a hex-and-
counter game's data and plays its standard rules.

``KitGame.__init__`` reads ``data/map.yaml``, ``units.yaml``, ``terrain.yaml``, ``kit.yaml``,
the CRT ``kit.yaml`` names and ``sequence.yaml``; :meth:`KitGame.load_data` cross-checks them
(``tabletop validate`` and every match's opening run it). A game subclasses it, gives its
:class:`~tabletop.core.engine.match.GameInfo`, its phase handlers (one line each:
:func:`~.movement.movement_phase`, :func:`~.combat.attack_phase`) and its victory
(``final_result``, ``check_end``); every other method here is a hook it may override
where its rules differ: who stands where (:meth:`on_map`, :meth:`zoc_of`), stacking
(:meth:`has_room`), movement (:meth:`move_rules`, :meth:`destinations`), combat
(:meth:`combat_terms`, :meth:`choose_loss`) and the invariants.
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar, cast

from ..board.hexmap import HexMap
from ..board.movement import CostFn, MoveCosts, MoveRules, can_move, reachable
from ..engine.ai import ai_of
from ..engine.canonical import JSON
from ..engine.data import load_model
from ..engine.decisions import Decision, ResumePoint
from ..engine.errors import DataError
from ..engine.match import AgentFactory, Match, PhasedGame, Result
from ..engine.pieces import OFF_BOARD, Piece
from ..engine.tables import Span, Table, parse_span
from ..engine.visibility import PUBLIC
from .rules import KIT_FILE, KitRules, kit, ratio
from .terrain import TERRAIN_FILE, Terrain, TerrainChart
from .units import UNITS_FILE, KitUnit, KitUnitsFile, unit_piece

KIT_KINDS = frozenset({"select_unit", "select_hex", "select_target", "select_attacker",
                       "take_loss", "select_retreat", "select_advance"})
"""Every kind of decision the kit's procedures ask."""

__all__ = ["KIT_KINDS", "KitGame", "kit", "ratio"]  # kit() and ratio() live in .rules


class KitGame(PhasedGame):
    """A hex-and-counter game on the kit: its data read and checked, its standard rules as
    hooks."""

    decision_kinds = KIT_KINDS
    #: the steps each side has lost are counted in the open
    var_visibility: ClassVar[Mapping[str, str | tuple[str, ...]]] = {"lost": PUBLIC}

    def __init__(self) -> None:
        super().__init__()  # the sequence of play, data/sequence.yaml
        data = self.data_dir()
        assert data is not None  # PhasedGame found it there
        self.data: Path = data
        self.map = HexMap.load(data / "map.yaml")
        self.rules = load_model(KitRules, data / KIT_FILE)
        self.terrain = Terrain(load_model(TerrainChart, data / TERRAIN_FILE), self.map,
                               data / TERRAIN_FILE)
        self.crt = Table.load(data / self.rules.crt)
        self.units: tuple[KitUnit, ...] = load_model(KitUnitsFile, data / UNITS_FILE).root
        #: the hexes of the map with the ``objective`` feature, in id order
        self.objectives: tuple[str, ...] = tuple(sorted(self.map.label(h)
                                                        for h in self.map.hexes_with("objective")))

    # -- data -------------------------------------------------------------------------------
    def data_dir(self) -> Path | None:
        """The ``data/`` folder beside the module of the game's class, or of the game it
        refines (a variant subclassing a kit game reads its data)."""
        for cls in type(self).__mro__:
            file = getattr(sys.modules.get(cls.__module__), "__file__", None)
            if file and (Path(file).parent / "data").is_dir():
                return Path(file).parent / "data"
        return None

    def data_models(self) -> dict[str, type[Any]]:
        """The kit's own files, by name (for ``tabletop validate``)."""
        return {UNITS_FILE: KitUnitsFile, TERRAIN_FILE: TerrainChart, KIT_FILE: KitRules}

    def load_data(self) -> str:
        """Cross-check the files: the sides, the eliminated box, the CRT against the results
        and the odds, the chart's CRT lines, every unit on a hex it may stand on within the
        stacking limit, the bot's priorities."""
        kit_file, units_file = self.data / KIT_FILE, self.data / UNITS_FILE
        rules = self.rules
        if set(rules.sides) != set(self.info.players):
            raise DataError(f"{kit_file}: sides: {', '.join(rules.sides)} are not the game's "
                            f"players ({', '.join(self.info.players)})")
        if rules.eliminated not in self.map.boxes:
            raise DataError(f"{self.data / 'map.yaml'}: boxes: no box {rules.eliminated!r} "
                            f"(kit.yaml's eliminated: units lost go there): add it under boxes:")
        self._check_crt(kit_file)
        if rules.objectives is not None and len(self.objectives) != rules.objectives:
            n = len(self.objectives)
            found = "no hex has" if not n else f"{n} hex{'es have' if n > 1 else ' has'}"
            raise DataError(f"{self.data / 'map.yaml'}: hexes: {found} the objective feature "
                            f"(kit.yaml objectives: {rules.objectives})")
        for side in rules.sides:
            if not any(u.side == side for u in self.units):
                raise DataError(f"{units_file}: (top level): side {side} has no unit: set up at "
                                "least one for each side")
        held: dict[str, list[KitUnit]] = {}
        for n, u in enumerate(self.units):
            at = f"{units_file}: {n}"
            if u.side not in rules.sides:
                raise DataError(f"{at}.side: {u.side!r} is not a side ({', '.join(rules.sides)})")
            if u.hex not in self.map:
                raise DataError(f"{at}.hex: unit {u.id} is set up on {u.hex}, which is not on "
                                "map.yaml")
            if self.terrain.prohibited(u.hex, u.kind):
                raise DataError(f"{at}.hex: unit {u.id} ({u.kind}) may not stand on {u.hex} "
                                f"({self.map.terrain(self.map.hex(u.hex))}; terrain.yaml)")
            here = held.setdefault(u.hex, [])
            here.append(u)
            if here[0].side != u.side:
                raise DataError(f"{at}.hex: unit {u.id} sets up on {u.hex} with the enemy's "
                                f"{here[0].id}")
            if not self._fits(sum(1 if rules.stacking.by == "count" else x.points for x in here)):
                raise DataError(f"{at}.hex: unit {u.id} overstacks {u.hex} (kit.yaml stacking: "
                                f"at most {rules.stacking.limit} by {rules.stacking.by})")
        from .bot import priorities_of

        priorities_of(self)
        return f"{len(self.units)} units on set-up hexes; terrain, CRT and kit rules agree"

    def _check_crt(self, kit_file: Path) -> None:
        crt, rules, source = self.crt, self.rules, self.data / self.rules.crt
        for line in crt.lines:
            for _, cells in crt.rows(line):
                for code in cells:
                    if code not in rules.results.effects:
                        raise DataError(f"{kit_file}: results.effects: no effect for the CRT's "
                                        f"result {code!r} ({source.name}): add `{code}: {{...}}`")
        if rules.odds.columns == "ratio":
            if crt.keyed_by != "name":
                raise DataError(f"{source}: keyed_by: an odds CRT (kit.yaml odds.columns: ratio) "
                                "is keyed by name: its columns are odds such as 1:2, 1:1, 2:1")
            try:
                found = [ratio(c) for c in crt.columns]
            except ValueError as exc:
                raise DataError(f"{source}: columns: {exc}") from None
            if found != sorted(set(found)):
                raise DataError(f"{source}: columns: the odds must ascend, each once")
        elif crt.keyed_by != "value":
            raise DataError(f"{source}: keyed_by: a differential CRT's columns are numbers "
                            "(kit.yaml odds.columns: differential)")
        for what, table in (("terrain", self.terrain.chart.terrain),
                            ("features", self.terrain.chart.features)):
            for name, effect in table.items():
                if effect.line is not None and effect.line not in crt.lines:
                    raise DataError(f"{self.terrain.source}: {what}.{name}.line: the CRT has no "
                                    f"line {effect.line!r} ({', '.join(crt.lines)})")

    @cached_property
    def column_ratios(self) -> tuple[Fraction, ...]:
        """The odds of each column of an odds CRT (``kit.yaml`` odds.columns: ratio)."""
        return tuple(ratio(c) for c in self.crt.columns)

    @cached_property
    def column_spans(self) -> tuple[Span, ...]:
        """The differentials each column of a differential CRT holds."""
        return tuple(parse_span(c) for c in self.crt.spec.columns)

    # -- set-up ---------------------------------------------------------------------------
    def setup(self, match: Match) -> None:
        """Every unit on its set-up hex, front up; no step lost yet."""
        for u in self.units:
            match.state.pieces.add(unit_piece(u))
        match.state.vars["lost"] = {s: 0 for s in self.rules.sides}

    def turn_limits(self, match: Match) -> tuple[int, int]:
        """A position's turn: from 0 (before the first) to the game's :meth:`last_turn`
        (which an option may set)."""
        return 0, self.last_turn(match)

    def places(self, match: Match) -> frozenset[str]:
        """Every hex of the map and its boxes."""
        return frozenset([*self.map.ids(), *self.map.boxes])

    def check_end(self, match: Match) -> Result | None:
        """A side with no unit left on the map loses at once, when ``kit.yaml``'s
        ``wiped_out`` gives the section saying so (asked after every phase and every step of
        an attack's result)."""
        for side in self.rules.sides:
            section = self.rules.wiped_out.get(side)
            if section is not None and not self.on_map(match, side):
                winner = self.enemy_of(side)
                return Result(winner, f"{winner} decisive victory", section, self.summary(match),
                              f"every {side} unit is eliminated")
        return None

    # -- who stands where -------------------------------------------------------------------
    def enemy_of(self, side: str) -> str:
        """The other side."""
        a, b = self.rules.sides
        return b if side == a else a

    def on_map(self, match: Match, side: str) -> list[Piece]:
        """A side's units on the map, in id order."""
        return [p for p in match.state.pieces.select(side=side) if self.map.is_hex_id(p.location)]

    def hexes_of(self, match: Match, side: str) -> frozenset[str]:
        """The hexes holding a unit of ``side``."""
        return frozenset(p.location for p in self.on_map(match, side))

    def zoc_of(self, match: Match, side: str) -> frozenset[str]:
        """The hexes in the zone of control of ``side``'s units: the six around each (less
        prohibited hexes and hexsides that block it); none under ``zoc: none``."""
        if self.rules.zoc.rule == "none":
            return frozenset()
        out: set[str] = set()
        for at in self.hexes_of(match, side):
            for n in self.map.passable_neighbor_ids(at):
                if not self.terrain.blocks_zoc(at, n):
                    out.add(n)
        return frozenset(out)

    def stack_size(self, pieces: Iterable[Piece]) -> int:
        """What units count against the stacking limit: one each, or their points."""
        if self.rules.stacking.by == "count":
            return sum(1 for _ in pieces)
        return sum(p.value("points", 1) for p in pieces)

    def _fits(self, size: int) -> bool:
        limit = self.rules.stacking.limit
        return limit is None or size <= limit

    def has_room(self, match: Match, hex_id: str, coming: Sequence[Piece]) -> bool:
        """Whether ``coming`` may end a move, retreat or advance in the hex (stacking)."""
        ids = {p.id for p in coming}
        here = [p for p in match.state.pieces.at(hex_id) if p.id not in ids]
        return self._fits(self.stack_size([*here, *coming]))

    # -- movement ---------------------------------------------------------------------------
    def move_rules(self, match: Match, side: str) -> dict[str, Any]:
        """Where the enemy stands, as the movement search takes it (the same for every unit
        of the phase): its hexes, never entered, and its zone of control."""
        enemy = self.enemy_of(side)
        zoc = self.rules.zoc
        return {"enemy": frozenset(self.map.hex(h) for h in self.hexes_of(match, enemy)),
                "ezoc": frozenset(self.map.hex(h) for h in self.zoc_of(match, enemy)),
                "zoc_stops": zoc.rule != "none", "zoc_to_zoc": zoc.zoc_to_zoc}

    def move_costs(self, piece: Piece, rules: Mapping[str, Any]) -> MoveCosts | CostFn:
        """The step costs of a unit (the chart's for its kind; leaving an enemy zone of
        control costs ``zoc.leave_cost`` more under ``zoc: leave_cost``)."""
        start = self.map.hex(piece.location)
        if self.rules.zoc.rule != "leave_cost" or start not in rules["ezoc"]:
            return self.terrain.costs(piece.kind)
        return self.terrain.costs(piece.kind, leaving=start, extra=self.rules.zoc.leave_cost)

    def may_move(self, match: Match, piece: Piece, rules: Mapping[str, Any]) -> bool:
        """Whether a unit may move at all: not engaged, not locked in an enemy zone of
        control (``zoc: locking``), with somewhere to go."""
        if piece.attrs.get("engaged"):
            return False
        start = self.map.hex(piece.location)
        if self.rules.zoc.rule == "locking" and start in rules["ezoc"]:
            return False
        return can_move(self.map, start, piece.value("move"), self.move_costs(piece, rules),
                        **self._search(match, piece, rules))

    def destinations(self, match: Match, piece: Piece, rules: Mapping[str, Any]) -> dict[str, float]:
        """Every hex the unit may end its move in, with its cost, in id order."""
        found = reachable(self.map, self.map.hex(piece.location), piece.value("move"),
                          self.move_costs(piece, rules), **self._search(match, piece, rules))
        return found.costs_by_id()

    def _search(self, match: Match, piece: Piece, rules: Mapping[str, Any]) -> MoveRules:
        """The search's rules for one unit: ``rules`` and where it may end (stacking), the
        hexes it may not end in worked out once from the occupied hexes."""
        if not self.has_room(match, "", [piece]):
            return cast("MoveRules", {**rules, "can_end": lambda h: False})
        full = frozenset(self.map.hex(h) for h in match.state.pieces.occupied()
                         if self.map.is_hex_id(h) and not self.has_room(match, h, [piece]))
        return cast("MoveRules", {**rules, "can_end": (lambda h: h not in full) if full else None})

    def after_move(self, match: Match, piece: Piece, frm: str) -> None:
        """What follows a unit's move (a game that reveals hidden units next to a mover
        overrides it); by default nothing."""

    # -- combat -----------------------------------------------------------------------------
    def odds_known(self, match: Match, side: str, targets: Sequence[str]) -> bool:
        """Whether ``side`` may see the odds of an attack on ``targets``: not while a
        defender is hidden (face-down) from it."""
        return not any(p.hidden and p.side != side for t in targets for p in match.state.pieces.at(t))

    def combat_terms(self, match: Match, targets: Sequence[str],
                     attackers: Sequence[Piece]) -> dict[str, Any]:
        """The numbers of an attack (strengths, terrain, odds, column): by default
        :func:`.combat.combat_terms`, as ``kit.yaml`` and the chart say."""
        from .combat import combat_terms

        return combat_terms(match, targets, attackers)

    def choose_loss(self, match: Match, alive: Sequence[Piece],
                    point: ResumePoint) -> Generator[Decision, JSON, str]:
        """Which unit loses a step: by default :func:`.combat.choose_loss` (``losses.chooser``)."""
        from .combat import choose_loss

        return (yield from choose_loss(match, alive, point))

    def retreat_paths(self, match: Match, piece: Piece, length: int) -> list[list[str]]:
        """Every legal retreat of a unit: by default :func:`.combat.retreat_paths`."""
        from .combat import retreat_paths

        return retreat_paths(match, piece, length)

    def before_combat(self, match: Match, side: str, targets: Sequence[str]) -> None:
        """What happens as an attack is resolved, before its roll: hidden defenders are
        revealed for good (a game whose rules keep them hidden overrides it)."""
        for t in targets:
            for p in match.state.pieces.at(t):
                if p.hidden:
                    p.hidden = False
                    match.reveal(p, self.rules.attacks.section, f"{p.name} revealed at {t} when attacked",
                                 piece=p.id, at=t, unit=p.name)

    # -- invariants, positions, board ---------------------------------------------------------
    def invariants(self, match: Match) -> list[str]:
        """Stacking, prohibited hexes, never both sides in a hex, steps in range."""
        pieces = match.state.pieces
        problems = pieces.check()
        section = self.rules.stacking.section
        for loc in sorted(pieces.occupied()):
            if not self.map.is_hex_id(loc):
                continue
            here = pieces.at(loc)
            if not self._fits(self.stack_size(here)):
                problems.append(f"{section}: {loc} is overstacked")
            if len({p.side for p in here}) > 1:
                problems.append(f"{self.rules.movement.section}: both sides in {loc}")
            problems += [f"{self.rules.movement.section}: {p.id} stands on {loc}, prohibited "
                         f"for {p.kind}" for p in here if self.terrain.prohibited(loc, p.kind)]
        for p in pieces:
            if not (0 if p.location in (self.rules.eliminated, OFF_BOARD) else 1) <= p.steps <= p.max_steps:
                problems.append(f"{self.rules.losses.section}: {p.id} has {p.steps} steps")
        return problems

    def position_problems(self, match: Match) -> list[str]:
        """The invariants, and a two-step unit shows its back exactly when reduced."""
        problems = self.invariants(match)
        for p in match.state.pieces:
            if p.max_steps == 2 and p.steps >= 1 and (p.face == "back") != (p.steps == 1):
                problems.append(f"{self.rules.losses.section}: {p.id} has {p.steps} step(s) "
                                f"but shows its {p.face}")
        return problems

    def board(self, match: Match | None) -> HexMap:
        """The map to draw."""
        return self.map

    def piece_label(self, piece: Piece) -> str:
        """``name attack-defence-movement`` as printed on the face up."""
        v = piece.values.get(piece.face, {})
        return f"{piece.name} {v.get('attack')}-{v.get('defense')}-{v.get('move')}"

    def summary(self, match: Match) -> dict[str, Any]:
        """The steps each side has lost (for ``--json`` and the statistics)."""
        lost = match.state.vars["lost"]
        return {f"{s.lower()}_steps_lost": lost[s] for s in self.rules.sides}

    # -- bots -------------------------------------------------------------------------------
    def bots(self) -> dict[str, AgentFactory]:
        """The kit's heuristic bot, steered by ``data/ai.yaml``'s priorities."""
        from .bot import KitBot

        return {"heuristic": lambda side, seed: KitBot(self, side)}

    def default_bot(self, side: str) -> str:
        """The heuristic for both sides."""
        return "heuristic"

    def ai_priorities(self) -> Mapping[str, Any]:
        """The priorities of ``data/ai.yaml`` as a mapping (empty when the game has none)."""
        found = ai_of(self).priorities
        return found if isinstance(found, Mapping) else dict(found)

