"""Skirmish at Hill 50: the example game that shows a designer the whole tabletop API.

Data (map, units, CRT, sequence of play) lives in ``data/``; this module holds the
procedures, each citing its section of ``RULES.md``. Play it with
``tabletop play docs/example/skirmish``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, RootModel, model_validator

from tabletop.core import odds
from tabletop.core.agents import Agent, KindBot, handles
from tabletop.core.canonical import JSON
from tabletop.core.data import StrictModel, repeated
from tabletop.core.decisions import DONE, Decision, Option, choose
from tabletop.core.errors import DataError
from tabletop.core.flow import SequenceOfPlay, run_turns
from tabletop.core.hexgrid import Hex, distance
from tabletop.core.hexmap import HexMap
from tabletop.core.match import EntryPoint, Flow, Game, GameInfo, GameOption, Match, Result
from tabletop.core.movement import MoveCosts, adjacent_hexes, can_move, reachable
from tabletop.core.pieces import OFF_BOARD, Piece
from tabletop.core.tables import Table
from tabletop.core.visibility import PUBLIC

DATA = Path(__file__).parent / "data"
ELIMINATED = "box:eliminated"
SIDES = ("Blue", "Red")
STACK_LIMIT = 2


Value = Annotated[int, Field(ge=0)]
"""A printed value: attack, defense or movement, never negative."""


class UnitSpec(StrictModel):
    """One counter of units.yaml (rule 1.2): printed attack-defense-movement per side."""

    id: str
    side: Literal["Blue", "Red"]  # 1.2: one of the two sides
    kind: str
    name: str
    hex: str
    steps: int = Field(ge=1, le=2)
    front: tuple[Value, Value, Value]  # attack, defense, movement: none below 0
    back: tuple[Value, Value, Value] | None = None


class UnitsSpec(StrictModel):
    """The whole counter mix."""

    units: tuple[UnitSpec, ...]

    @model_validator(mode="after")
    def _unique_ids(self) -> UnitsSpec:
        repeated([u.id for u in self.units], ("units",))
        return self


class UnitsFile(RootModel[Annotated[tuple[UnitSpec, ...], Field(min_length=1)]]):
    """units.yaml as written: a list of counters (1.2), each id once, each side with some."""

    @model_validator(mode="after")
    def _unique_ids(self) -> UnitsFile:
        repeated([u.id for u in self.root], ())
        for side in SIDES:
            if not any(u.side == side for u in self.root):
                raise ValueError(f"side {side} has no unit (1.2: both sides set up units)")
        return self


def _values(v: tuple[int, int, int]) -> dict[str, int]:
    return {"attack": v[0], "defense": v[1], "move": v[2]}


class Skirmish(Game):
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
        self.map = HexMap.load(DATA / "map.yaml")
        self.crt = Table.load(DATA / "crt.yaml")
        self.units = UnitsSpec(units=tuple(load_units(DATA / "units.yaml")))
        self.sequence = SequenceOfPlay.load(DATA / "sequence.yaml")
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
        #: 3.1-3.2 :meth:`destination_options`, its answers kept: they depend on its arguments alone
        self.destinations_from = lru_cache(maxsize=256)(self.destination_options)

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
            values = {"front": _values(u.front)}
            if u.back:
                values["back"] = _values(u.back)
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

    def play(self, match: Match) -> Flow:
        """2.0 The sequence of play, turn after turn, until 6.0 decides."""
        return (yield from self.turns(match))

    # -- positions: where a match may start, where pieces may stand ----------------------
    def entry_points(self) -> tuple[EntryPoint, ...]:
        """2.0 A position may start at the beginning of any of the four phases."""
        return tuple(EntryPoint(p.id, p.section, p.name) for p in self.sequence.phases)

    def play_from(self, match: Match, entry: str) -> Flow:
        """2.0 The turns from the position's turn, beginning with phase ``entry``."""
        return (yield from self.turns(match, start_turn=max(1, match.state.turn),
                                      start_phase=entry))

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

    def turns(self, match: Match, *, start_turn: int | None = None,
              start_phase: str | None = None) -> Flow:
        """2.0 The turns, phase after phase (part-way for a position)."""
        handlers = {
            "blue_move": lambda m: self.movement(m, "Blue"),
            "blue_combat": lambda m: self.combat(m, "Blue"),
            "red_move": lambda m: self.movement(m, "Red"),
            "red_combat": lambda m: self.combat(m, "Red"),
        }
        return (
            yield from run_turns(
                match,
                self.sequence,
                handlers,
                last_turn=lambda m: int(m.options["turns"]),
                check_end=self.sudden_death,
                start_turn=start_turn,
                start_phase=start_phase,
            )
        )

    # -- helpers -----------------------------------------------------------------------
    def on_map(self, match: Match, side: str) -> list[Piece]:
        """A side's units on the map, in id order."""
        return [p for p in match.state.pieces.select(side=side)
                if p.location not in (ELIMINATED, OFF_BOARD)]

    def enemy_hexes(self, match: Match, side: str) -> frozenset[Hex]:
        """Hexes holding at least one enemy unit."""
        other = SIDES[1 - SIDES.index(side)]
        return frozenset(self.map.hex(p.location) for p in self.on_map(match, other))

    def full_hexes(self, match: Match) -> set[str]:
        """3.3 The hexes no move may end in: those holding two units."""
        pieces = match.state.pieces
        return {loc for loc in pieces.occupied() if pieces.count_at(loc) >= STACK_LIMIT}

    def zoc_rules(self, enemy: frozenset[Hex]) -> dict[str, Any]:
        """3.1-3.2 Where the enemy stands, as :func:`reachable` takes it: enemy hexes are never
        entered; entering an enemy zone of control stops a unit, and none moves directly
        from one to another."""
        return {"enemy": enemy, "ezoc": adjacent_hexes(self.map, enemy),
                "zoc_stops": True, "zoc_to_zoc": False}

    def move_rules(self, match: Match, side: str) -> dict[str, Any]:
        """3.1, 3.2, 3.3 The movement rules of a side's units as :func:`reachable` takes them:
        enemy hexes and their zones of control (3.2), stacking (3.3: no move ends in a full
        hex, as the board stands when asked). The enemy does not move while a side moves, so
        the rules hold for its whole movement phase."""
        enemy = self.enemy_hexes(match, side)
        pieces = match.state.pieces
        return {**self.zoc_rules(enemy),
                "can_end": lambda h: pieces.count_at(self.map.label(h)) < STACK_LIMIT}

    def destination_options(self, start: str, mp: int, enemy: frozenset[Hex]) -> tuple[Option, ...]:
        """3.1-3.2 Every hex a unit with ``mp`` MP at ``start`` reaches while the enemy holds
        ``enemy`` (in hex id order; staying put is not a move), as the options of a menu
        showing the cost of getting there. Nothing else changes them (the map and its costs
        are fixed), so :attr:`destinations_from` keeps them by these three."""
        found = reachable(self.map, self.map.hex(start), mp, self.costs, **self.zoc_rules(enemy))
        return tuple(Option(hid, f"{hid} ({c:g} MP)") for hid, c in found.costs_by_id().items())

    def destinations(self, match: Match, piece: Piece, rules: Mapping[str, Any]) -> list[Option]:
        """3.1 Where a unit may end its move under its side's ``rules``: the hexes it reaches
        (:meth:`destination_options`) that are not full (3.3)."""
        full = self.full_hexes(match)
        return [o for o in self.destinations_from(piece.location, piece.value("move"), rules["enemy"])
                if o.value not in full]

    def can_move(self, piece: Piece, rules: Mapping[str, Any]) -> bool:
        """3.1 Whether a unit has anywhere to go under its side's ``rules`` (the menu offers
        only such units)."""
        return can_move(self.map, self.map.hex(piece.location), piece.value("move"), self.costs,
                        **rules)

    def reveal_adjacent(self, match: Match, hex_id: str) -> None:
        """4.2 Reveal Red units next to a Blue unit that ended its move here."""
        for near in self.map.neighbor_ids(hex_id):
            for p in match.state.pieces.at(near):
                if p.hidden:
                    p.hidden = False
                    match.reveal(p, "4.2", f"{p.name} revealed at {p.location}", piece=p.id)

    # -- 3.0 movement ------------------------------------------------------------------
    def movement(self, match: Match, side: str) -> Flow:
        """3.1 Move units one at a time: pick a unit, then its destination."""
        moved: set[str] = set()
        rules = self.move_rules(match, side)  # the same for every unit of the phase
        while True:
            movable = [p for p in self.on_map(match, side) if p.id not in moved and self.can_move(p, rules)]
            if not movable:
                return None
            opts = [Option(p.id, f"{self.piece_label(p)} at {p.location}") for p in movable]
            pick = yield choose(
                side, "Move which unit?", "3.1", [*opts, Option(DONE, "End movement")], kind="select_unit"
            )
            if pick == DONE:
                return None
            piece = match.state.pieces[str(pick)]
            dest = yield choose(
                side,
                f"Move {piece.name} from {piece.location} to?",
                "3.1",
                self.destinations(match, piece, rules),
                kind="select_hex",
                context={"unit": piece.id},
            )
            frm = piece.location
            match.state.pieces.move(piece.id, str(dest))
            moved.add(piece.id)
            unseen = (side,) if piece.hidden else ()  # 4.1: the other side sees a hidden unit move
            match.emit("move", "3.1", f"{piece.name} moves {frm} -> {dest}", piece=piece.id, frm=frm,
                       to=dest, visible_to=unseen,
                       mask=f"a hidden {side} unit moves {frm} -> {dest}" if unseen else "")
            if side == "Blue":
                self.reveal_adjacent(match, str(dest))

    # -- 5.0 combat --------------------------------------------------------------------
    def combat(self, match: Match, side: str) -> Flow:
        """5.1-5.2 Declare attacks one at a time: the hex, then the attackers, then resolve."""
        attacked: set[str] = set()
        used: set[str] = set()
        while True:
            targets = self.targets(match, side, attacked, used)
            if not targets:
                return None
            opts = [Option(hid, f"attack {hid}", self.odds_text(match, side, hid, attackers),
                           self.odds_detail(match, side, hid, attackers))
                    for hid, attackers in targets.items()]
            target = yield choose(
                side,
                "Attack which hex?",
                "5.1",
                [*opts, Option(DONE, "No more attacks")],
                kind="select_target",
            )
            if target == DONE:
                return None
            hid = str(target)
            chosen: list[str] = []
            while True:
                pool = [p for p in self.eligible(match, side, hid, used) if p.id not in chosen]
                opts = [Option(p.id, f"add {self.piece_label(p)}") for p in pool]
                if chosen:
                    opts.append(
                        Option(
                            DONE,
                            "Resolve the attack",
                            self.odds_text(match, side, hid, [match.state.pieces[c] for c in chosen]),
                        )
                    )
                if not pool:
                    break
                add = yield choose(
                    side,
                    f"Attackers against {hid}: {', '.join(chosen) or 'none yet'}",
                    "5.2",
                    opts,
                    kind="select_attacker",
                    context={"target": hid},
                )
                if add == DONE:
                    break
                chosen.append(str(add))
            attacked.add(hid)
            used.update(chosen)
            yield from self.resolve(match, side, hid, chosen)
            result = self.sudden_death(match)
            if result is not None:
                match.end(result)

    def targets(self, match: Match, side: str, attacked: set[str], used: set[str]) -> dict[str, list[Piece]]:
        """5.1 Enemy hexes not yet attacked that are adjacent to a unit that has not attacked
        this phase, in id order, each with those units (:meth:`eligible`)."""
        other = SIDES[1 - SIDES.index(side)]
        enemy = sorted({p.location for p in self.on_map(match, other)} - attacked)
        ready = [p for p in self.on_map(match, side) if p.id not in used]
        found = {hid: self.adjacent(ready, hid) for hid in enemy}
        return {hid: attackers for hid, attackers in found.items() if attackers}

    def eligible(self, match: Match, side: str, hid: str, used: set[str]) -> list[Piece]:
        """5.1 A side's units adjacent to a hex that have not attacked this phase."""
        return self.adjacent([p for p in self.on_map(match, side) if p.id not in used], hid)

    def adjacent(self, units: list[Piece], hid: str) -> list[Piece]:
        """The units (in their order) standing next to a hex."""
        near = self.map.neighbor_ids(hid)
        return [p for p in units if p.location in near]

    def attack_terms(self, match: Match, hid: str, attackers: Iterable[Piece]) -> tuple[int, str, int]:
        """5.3 The differential, the terrain line and the stream shift of an attack; 1.3 the CRT
        is read on the line of the defender's terrain (a hill counts as woods)."""
        target = self.map.hex(hid)
        attackers = list(attackers)
        attack = sum(p.value("attack") for p in attackers)
        defense = sum(p.value("defense") for p in match.state.pieces.at(hid))
        terrain = self.map.terrain(target)
        line = "woods" if self.map.has_feature(target, "objective") and terrain == "clear" else terrain
        across = any(
            "stream" in self.map.hexside_features(self.map.hex(p.location), target) for p in attackers
        )
        return attack - defense, line, -1 if across else 0

    def odds_detail(self, match: Match, side: str, hid: str, attackers: list[Piece]) -> dict[str, JSON]:
        """The same facts as odds_text, as data for a bot (Option.detail): the differential,
        unless the defender is hidden from the attacker (4.2)."""
        if side == "Blue" and any(p.hidden for p in match.state.pieces.at(hid)):
            return {}
        return {"diff": self.attack_terms(match, hid, attackers)[0]}

    def odds_text(self, match: Match, side: str, hid: str, attackers: list[Piece]) -> str:
        """The exact odds of each result, for the player to see before committing (5.3)."""
        if side == "Blue" and any(p.hidden for p in match.state.pieces.at(hid)):
            return "defender hidden: odds unknown"
        diff, line, shift = self.attack_terms(match, hid, attackers)
        chances = self.crt.odds(diff, line=line, shift=shift)
        legend = self.crt.results or {}
        words = {legend.get(result, result).lower(): p for result, p in chances.items()}
        return f"diff {diff:+d} on {line}{', across a stream' if shift else ''}: " + odds.describe(words)

    def resolve(self, match: Match, side: str, hid: str, chosen: list[str]) -> Flow:
        """5.3-5.4 Roll on the CRT and apply the result, owners choosing step losses."""
        pieces = match.state.pieces
        for p in pieces.at(hid):
            if p.hidden:
                p.hidden = False
                match.reveal(p, "4.2", f"{p.name} revealed at {hid} when attacked", piece=p.id)
        attackers = [pieces[c] for c in chosen]
        diff, line, shift = self.attack_terms(match, hid, attackers)
        roll = match.dice.d6(purpose=f"combat against {hid}", section="5.3")
        result = self.crt.lookup(diff, roll, line=line, shift=shift)
        stream = ", stream" if shift else ""
        text = f"{side} attacks {hid} at {diff:+d} ({line}{stream}): roll {roll} -> {result}"
        unseen = (side,) if any(p.hidden for p in attackers) else ()  # 4.2: attacking reveals no Red unit
        match.emit("combat", "5.3", text, target=hid, attackers=chosen, result=result,
                   visible_to=unseen, mask=text if unseen else "")
        defender = SIDES[1 - SIDES.index(side)]
        if result in ("A1", "EX"):
            yield from self.step_loss(match, side, chosen)
        if result in ("D1", "EX"):
            yield from self.step_loss(match, defender, list(pieces.ids_at(hid)))
        if result == "DE":
            for pid in list(pieces.ids_at(hid)):
                self.eliminate(match, pieces[pid], "5.4")

    def step_loss(self, match: Match, side: str, candidates: list[str]) -> Flow:
        """5.4 The owner picks which unit loses a step."""
        alive = [c for c in candidates if match.state.pieces[c].location != ELIMINATED]
        if not alive:
            return None
        pick = alive[0]
        if len(alive) > 1:
            pick = str(
                (
                    yield choose(
                        side,
                        "Which unit takes the step loss?",
                        "5.4",
                        [Option(c, self.piece_label(match.state.pieces[c])) for c in alive],
                        kind="take_loss",
                    )
                )
            )
        piece = match.state.pieces[pick]
        match.state.vars["lost"][side] += 1
        if piece.steps > 1:
            piece.steps -= 1
            piece.face = "back"
            match.emit("loss", "5.4", f"{piece.name} is reduced", piece=piece.id)
        else:
            self.eliminate(match, piece, "5.4", count=False)
        return None

    def eliminate(self, match: Match, piece: Piece, section: str, *, count: bool = True) -> None:
        """5.4 Remove a unit to the eliminated box (its remaining steps count as lost)."""
        if count:
            match.state.vars["lost"][piece.side] += piece.steps
        piece.steps = 0
        piece.hidden = False
        match.state.pieces.move(piece.id, ELIMINATED)
        match.emit("eliminated", section, f"{piece.name} is eliminated", piece=piece.id)

    # -- 6.0 victory -------------------------------------------------------------------
    def scores(self, match: Match) -> dict[str, JSON]:
        """6.3 Steps lost by each side."""
        lost = match.state.vars["lost"]
        return {"blue_steps_lost": lost["Blue"], "red_steps_lost": lost["Red"]}

    def sudden_death(self, match: Match) -> Result | None:
        """6.1-6.2 A side with no unit left loses at once."""
        for side in SIDES:
            if not self.on_map(match, side):
                winner = SIDES[1 - SIDES.index(side)]
                return Result(
                    winner,
                    f"{winner} decisive victory",
                    "6.1" if side == "Red" else "6.2",
                    self.scores(match),
                    f"every {side} unit is eliminated",
                )
        return None

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

    def bots(self) -> dict[str, object]:  # type: ignore[override]
        """The example's heuristic bot, 'pusher'."""
        return {"pusher": lambda side, seed: Pusher(self, side)}

    def default_bot(self, side: str) -> str:
        """--auto uses the pusher for both sides."""
        return "pusher"


def check_map(hexmap: HexMap, costs: Mapping[str, float | None], path: Path) -> None:
    """What the rules need of map.yaml beyond its model: 3.1 a cost for every terrain type,
    6.0 at least one Hill 50 (objective) hex, 5.4 the eliminated box; a DataError naming the
    file otherwise."""
    for name in hexmap.spec.terrain_types:
        if name not in costs:
            raise DataError(f"{path}: terrain_types.{name}: the rules give no movement cost for "
                            f"{name!r} (3.1: {', '.join(costs)})")
    if not hexmap.hexes_with("objective"):
        raise DataError(f"{path}: hexes: no hex has the objective feature (Hill 50, which 6.0's "
                        "victory and the bots need)")
    if ELIMINATED not in hexmap.boxes:
        raise DataError(f"{path}: boxes: no box {ELIMINATED!r} (5.4: eliminated units go there)")


def load_units(path: Path) -> list[UnitSpec]:
    """Read units.yaml (a list of counters) into validated models."""
    from tabletop.core.data import read_data_file, validate

    return list(validate(UnitsFile, read_data_file(path), source=str(path)).root)


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


GAME = Skirmish()
_: Agent = Pusher(GAME, "Blue")  # the bot satisfies the Agent protocol
