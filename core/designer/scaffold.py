"""``tabletop new NAME``: write the folder of a new game plugin that plays, validates and
passes the conformance tests as written, for a designer to change rule by rule.

The new game is the smallest whole game on the engine: a 6 × 5 hex map, two sides of one
unit type, a differential Combat Results Table, movement with zones of control, a victory
condition, a bot, its AI as data (``data/ai.yaml``: the evaluation the ``greedy`` and
``mcts`` agents play by and the bot's priorities, their model in ``ai.py``), its rolls
(``rolls.yaml``), its rulebook's sections (``data/sections.yaml``), a player's guide and
tests in the designer guide's style (docs/designer-guide.md). Every file is one template
below (:data:`FILES`), in which ``${name}``, ``${title}`` and ``${cls}`` stand for the
game's id, title and class name.
"""

from __future__ import annotations

import importlib.util
import keyword
import os
import shutil
import sys
import tempfile
from pathlib import Path
from string import Template

from ..engine.errors import TabletopError
from ..engine.registry import registered

GAME_MODULE = '''\
"""${title}: a game for the tabletop engine (written by `tabletop new ${name}`).

The printed parts (map, units, Combat Results Table, sequence of play) are the YAML files
of ``data/``; this module holds the rules, each hook citing its section of ``RULES.md``.
Play it with ``tabletop play <this folder>``; docs/designer-guide.md says what each part
does and how to grow it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, RootModel, model_validator

from tabletop.core.board.hexgrid import distance
from tabletop.core.board.hexmap import HexMap
from tabletop.core.board.movement import MoveCosts, adjacent_hexes, reachable
from tabletop.core.engine.canonical import JSON
from tabletop.core.engine.data import StrictModel, read_data_file, repeated, validate
from tabletop.core.engine.decisions import Decision, Option, choose
from tabletop.core.engine.errors import DataError
from tabletop.core.engine.flow import PhaseHandler
from tabletop.core.engine.match import AgentFactory, Flow, GameInfo, Match, PhasedGame, Result
from tabletop.core.engine.pieces import OFF_BOARD, Piece
from tabletop.core.engine.tables import Table

from .ai import priorities

DATA = Path(__file__).parent / "data"
SIDES = ("Blue", "Red")
ELIMINATED = "box:eliminated"
#: 3.1 the movement points it costs to enter a hex of each terrain (None: never entered)
TERRAIN_COSTS: dict[str, float | None] = {"clear": 1.0, "woods": 2.0}
#: 3.3 the most units in one hex
STACK_LIMIT = 1


class UnitSpec(StrictModel):
    """One counter of units.yaml (1.2): its side, set-up hex and printed values."""

    id: str
    side: Literal["Blue", "Red"]
    name: str
    hex: str
    attack: int = Field(ge=0)
    defense: int = Field(ge=1)
    move: int = Field(ge=1)


class UnitsFile(RootModel[Annotated[tuple[UnitSpec, ...], Field(min_length=2)]]):
    """units.yaml as written: a list of counters (1.2), each id once."""

    @model_validator(mode="after")
    def _unique_ids(self) -> UnitsFile:
        repeated([u.id for u in self.root], ())
        return self


class ${cls}(PhasedGame):
    """The game plugin: what the game is (``info``) and the rules of RULES.md; the turns
    follow data/sequence.yaml (the base, ``PhasedGame``, reads it and plays its phases)."""

    info = GameInfo(
        id="${name}",
        title="${title}",
        version="0.1.0",
        players=SIDES,
        description="A new game: a 6x5 hex map, three units a side.",
        rulebook="${title} rules (RULES.md)",
        human_side="Blue",
    )

    def __init__(self) -> None:
        super().__init__()  # reads data/sequence.yaml (2.0)
        self.map = HexMap.load(DATA / "map.yaml")
        self.crt = Table.load(DATA / "crt.yaml")
        self.units = load_units(DATA / "units.yaml")
        for name in self.map.spec.terrain_types:
            if name not in TERRAIN_COSTS:
                raise DataError(f"{DATA / 'map.yaml'}: terrain_types.{name}: the rules give no "
                                f"movement cost for it (3.1: {', '.join(TERRAIN_COSTS)})")
        self.costs = MoveCosts(self.map, lambda h: TERRAIN_COSTS[self.map.terrain(h)])
        self.objectives = [self.map.label(h) for h in self.map.hexes_with("objective")]
        if not self.objectives:
            raise DataError(f"{DATA / 'map.yaml'}: hexes: no hex has the objective feature "
                            "(5.2 needs one)")

    # -- data ------------------------------------------------------------------------
    def data_models(self) -> dict[str, type[BaseModel]]:
        """Models for the game's own files, by file name (for tabletop validate)."""
        return {"units.yaml": UnitsFile}

    def load_data(self) -> str:
        """1.2 Cross-check the data: every unit sets up on a hex of the map, 3.3 one to a hex."""
        path = DATA / "units.yaml"
        held: set[str] = set()
        for n, u in enumerate(self.units):
            if u.hex not in self.map or self.map.is_prohibited(self.map.hex(u.hex)):
                raise DataError(f"{path}: {n}.hex: unit {u.id} sets up on {u.hex}, not a hex of "
                                "map.yaml a unit may stand on")
            if u.hex in held:
                raise DataError(f"{path}: {n}.hex: unit {u.id} sets up on {u.hex} with another "
                                f"unit (3.3: at most {STACK_LIMIT} to a hex)")
            held.add(u.hex)
        return f"{len(self.units)} units on set-up hexes"

    def setup(self, match: Match) -> None:
        """1.2 Place every unit on its set-up hex."""
        for u in self.units:
            values = {"front": {"attack": u.attack, "defense": u.defense, "move": u.move}}
            match.state.pieces.add(Piece(u.id, "infantry", u.side, u.name, u.hex, values=values))

    # -- 2.0 the sequence of play: the base builds play, entry_points and play_from from
    # -- the sequence (data/sequence.yaml) and the handler of each of its phases alone
    def phase_handlers(self) -> Mapping[str, PhaseHandler]:
        """2.1-2.4 The handler of each phase of data/sequence.yaml, by phase id."""
        return {
            "blue_move": lambda m: self.movement(m, "Blue"),
            "blue_combat": lambda m: self.combat(m, "Blue"),
            "red_move": lambda m: self.movement(m, "Red"),
            "red_combat": lambda m: self.combat(m, "Red"),
        }

    def places(self, match: Match) -> frozenset[str]:
        """1.1 Every hex of the map, and the eliminated box (4.3)."""
        return frozenset([*(self.map.label(h) for h in self.map.hexes()), ELIMINATED])

    # -- 3.0 movement ----------------------------------------------------------------
    def on_map(self, match: Match, side: str) -> list[Piece]:
        """A side's units on the map, in id order."""
        return [p for p in match.state.pieces.select(side=side)
                if p.location not in (ELIMINATED, OFF_BOARD)]

    def destinations(self, match: Match, piece: Piece) -> list[Option]:
        """3.1-3.3 Where a unit may end its move: hexes it reaches with its movement points,
        never entering an enemy's hex, stopping on entering an enemy zone of control (3.2),
        never ending with another unit (3.3); each option shows the MP it costs."""
        enemy = frozenset(self.map.hex(p.location) for p in self.on_map(match, other(piece.side)))
        pieces = match.state.pieces
        found = reachable(self.map, self.map.hex(piece.location), piece.value("move"), self.costs,
                          enemy=enemy, ezoc=adjacent_hexes(self.map, enemy), zoc_stops=True,
                          can_end=lambda h: pieces.count_at(self.map.label(h)) < STACK_LIMIT)
        return [Option(hid, f"{hid} ({cost:g} MP)") for hid, cost in found.costs_by_id().items()]

    def movement(self, match: Match, side: str) -> Flow:
        """3.1 Move units one at a time: pick a unit, then its destination; each moves once."""
        moved: set[str] = set()
        while True:
            ready = [p for p in self.on_map(match, side)
                     if p.id not in moved and self.destinations(match, p)]
            if not ready:
                return None
            pick = yield choose(side, "Move which unit?", "3.1",
                                [*(Option(p.id, f"{p.name} at {p.location}") for p in ready),
                                 Option("done", "End movement")], kind="select_unit")
            if pick == "done":
                return None
            piece = match.state.pieces[str(pick)]
            dest = yield choose(side, f"Move {piece.name} from {piece.location} to?", "3.1",
                                self.destinations(match, piece), kind="select_hex",
                                context={"unit": piece.id})
            start = piece.location
            match.state.pieces.move(piece.id, str(dest))
            moved.add(piece.id)
            match.emit("move", "3.1", f"{piece.name} moves {start} -> {dest}", piece=piece.id)

    # -- 4.0 combat ------------------------------------------------------------------
    def attackers(self, match: Match, side: str, hid: str, used: set[str]) -> list[Piece]:
        """4.1 A side's units next to a hex that have not attacked this phase."""
        near = self.map.neighbor_ids(hid)
        return [p for p in self.on_map(match, side) if p.id not in used and p.location in near]

    def differential(self, match: Match, hid: str, attackers: list[Piece]) -> tuple[int, str]:
        """4.2 Attack total minus defense total, and the CRT line: the defender's terrain."""
        attack = sum(p.value("attack") for p in attackers)
        defense = sum(p.value("defense") for p in match.state.pieces.at(hid))
        return attack - defense, self.map.terrain(self.map.hex(hid))

    def combat(self, match: Match, side: str) -> Flow:
        """4.1 Attack enemy hexes one at a time, each with every unit next to it that has not
        attacked yet this phase."""
        used: set[str] = set()
        while True:
            enemy = sorted({p.location for p in self.on_map(match, other(side))})
            targets = {hid: units for hid in enemy if (units := self.attackers(match, side, hid, used))}
            if not targets:
                return None
            options = []
            for hid, units in targets.items():
                diff, line = self.differential(match, hid, units)
                options.append(Option(hid, f"attack {hid} at {diff:+d} ({line})", detail={"diff": diff}))
            target = yield choose(side, "Attack which hex?", "4.1",
                                  [*options, Option("done", "No more attacks")], kind="select_target")
            if target == "done":
                return None
            hid = str(target)
            units = targets[hid]
            used.update(p.id for p in units)
            yield from self.resolve(match, side, hid, units)
            result = self.check_end(match)
            if result is not None:
                match.end(result)

    def resolve(self, match: Match, side: str, hid: str, units: list[Piece]) -> Flow:
        """4.2-4.3 Roll on the CRT and apply its result."""
        diff, line = self.differential(match, hid, units)
        roll = match.dice.d6(purpose=f"combat against {hid}", section="4.2")
        result = self.crt.lookup(diff, roll, line=line)
        match.emit("combat", "4.2", f"{side} attacks {hid} at {diff:+d} ({line}): roll {roll} -> {result}",
                   target=hid, attackers=[p.id for p in units], result=result)
        if result in ("DE", "EX"):
            for piece in match.state.pieces.at(hid):
                self.eliminate(match, piece)
        if result in ("AE", "EX"):
            lost = units[0]
            if len(units) > 1:
                pick = yield choose(side, "Which attacker is lost?", "4.3",
                                    [Option(p.id, f"{p.name} at {p.location}") for p in units],
                                    kind="take_loss")
                lost = match.state.pieces[str(pick)]
            self.eliminate(match, lost)
        return None

    def eliminate(self, match: Match, piece: Piece) -> None:
        """4.3 Remove a unit to the eliminated box."""
        match.state.pieces.move(piece.id, ELIMINATED)
        match.emit("eliminated", "4.3", f"{piece.name} is eliminated", piece=piece.id)

    # -- 5.0 victory -----------------------------------------------------------------
    def summary(self, match: Match) -> dict[str, JSON]:
        """5.0 The units each side has left on the map (the score fields of --json)."""
        return {f"{side.lower()}_units": len(self.on_map(match, side)) for side in SIDES}

    def check_end(self, match: Match) -> Result | None:
        """5.1 A side with no unit left on the map loses at once."""
        for side in SIDES:
            if not self.on_map(match, side):
                return Result(other(side), f"{other(side)} victory", "5.1", self.summary(match),
                              f"every {side} unit is eliminated")
        return None

    def final_result(self, match: Match) -> Result:
        """5.2 After the last turn, Blue wins if a Blue unit stands on every objective hex."""
        held = all(any(p.side == "Blue" for p in match.state.pieces.at(h)) for h in self.objectives)
        if held:
            return Result("Blue", "Blue victory", "5.2", self.summary(match), "Blue holds the objective")
        return Result("Red", "Red victory", "5.2", self.summary(match), "Red denies the objective")

    # -- invariants, the board, bots -------------------------------------------------
    def invariants(self, match: Match) -> list[str]:
        """3.3 stacking, 3.1 no unit on a hex it may not enter, every piece in one place."""
        pieces = match.state.pieces
        problems = pieces.check()
        for loc in pieces.occupied() - {ELIMINATED, OFF_BOARD}:
            if pieces.count_at(loc) > STACK_LIMIT:
                problems.append(f"3.3: {loc} holds more than {STACK_LIMIT} unit(s)")
            if loc not in self.map or self.map.is_prohibited(self.map.hex(loc)):
                problems.append(f"3.1: a unit stands on {loc}")
        return problems

    def board(self, match: Match | None) -> HexMap:
        """The map to draw."""
        return self.map

    def bots(self) -> dict[str, AgentFactory]:
        """The game's bot, 'advance' (the random-legal bot is always there too)."""
        return {"advance": lambda side, seed: Advance(self, side)}

    def default_bot(self, side: str) -> str:
        """--auto plays both sides with 'advance'."""
        return "advance"


def other(side: str) -> str:
    """The enemy of a side."""
    return SIDES[1 - SIDES.index(side)]


def load_units(path: Path) -> tuple[UnitSpec, ...]:
    """Read units.yaml (a list of counters) into validated models."""
    return validate(UnitsFile, read_data_file(path), source=str(path)).root


class Advance:
    """A bot: move every unit toward the objective, attack at the differential data/ai.yaml's
    priorities name or better."""

    name = "advance"

    def __init__(self, game: ${cls}, side: str) -> None:
        self.game = game
        self.side = side
        targets = [game.map.hex(h) for h in game.objectives]
        #: every hex id -> its distance to the nearest objective
        self.to_goal = {game.map.label(h): min(distance(h, t) for t in targets) for h in game.map.hexes()}

    def choose(self, view: Mapping[str, JSON], decision: Decision) -> JSON:
        """Answer a decision by its kind."""
        options = decision.options
        if decision.kind == "select_hex":  # the destination nearest the objective
            return min(map(str, decision.values), key=lambda h: (self.to_goal[h], h))
        if decision.kind == "select_target":  # 4.2: the least differential or better
            least = priorities(self.game).least_differential
            return next((o.value for o in options if o.value != "done"
                         and int(str(o.detail.get("diff", -1))) >= least), "done")
        return options[0].value  # select_unit: the first unit; take_loss: the first attacker


GAME = ${cls}()
'''

RULES = """\
# ${title} — rulebook

Every rule hook in `__init__.py` cites a section below, and every test names the section it
checks (`tabletop rules <this folder> --tests <this folder>/tests` shows the coverage).

## 1.0 Components
1.1 The map (`data/map.yaml`) is 6 columns by 5 rows of hexes numbered XXYY. Terrain: clear
and woods. The hex 0403 (the crossroads) is the *objective*.
1.2 The units (`data/units.yaml`): each side has three infantry units, each printed with
attack, defense and movement.
1.3 The Combat Results Table (`data/crt.yaml`) is read by the attack-minus-defense
differential on the line of the defender's terrain.

## 2.0 Sequence of play
Each of the four turns has four phases (`data/sequence.yaml`): 2.1 Blue movement; 2.2 Blue
combat; 2.3 Red movement; 2.4 Red combat.

## 3.0 Movement
3.1 The player moves units one at a time, each at most once a phase, paying movement points
(MP) for each hex entered: clear 1, woods 2. No unit enters a hex holding an enemy unit.
3.2 Zones of control: a unit that enters a hex next to an enemy unit stops there.
3.3 Stacking: at most one unit in a hex.

## 4.0 Combat
4.1 The player attacks enemy hexes one at a time; every unit next to the hex that has not
attacked this phase joins the attack.
4.2 Add the attackers' attack values, subtract the defender's defense value, and roll one
die on the CRT column of that differential, on the line of the defender's terrain.
4.3 Results: NE no effect; AE one attacker (the attacker's choice) is eliminated; EX the
defender and one attacker are eliminated; DE the defender is eliminated.

## 5.0 Victory
5.1 A side with no unit left on the map loses at once.
5.2 Otherwise, after the last turn Blue wins if a Blue unit stands on the objective; if
not, Red wins.
"""

GUIDE = """\
# ${title} — player's guide

A short two-player game on a 6 × 5 hex map: Blue attacks the crossroads (hex 0403), Red
holds it. You play Blue against a bot (or both sides). Rule numbers refer to `RULES.md`.

## How to win (section 5)

- Wipe out the other side and you win at once (5.1).
- Otherwise, after the fourth turn, Blue wins if a Blue unit stands on the crossroads;
  Red wins if not (5.2). `v` shows how it stands.

## How a turn goes (section 2)

1. **Blue moves** — units one at a time: pick a unit, then its destination; each option
   shows what the move costs in movement points.
2. **Blue attacks** — pick a Red hex next to your units; every unit of yours next to it
   that has not attacked yet joins in, and one die decides.
3. **Red moves**, then **Red attacks**, the same way.

## Glossary

- **MP** — movement points: clear costs 1, woods 2 (3.1).
- **Zone of control** — the six hexes around a unit; entering an enemy's stops a move (3.2).
- **Stacking** — one unit to a hex (3.3).
- **Differential** — attack total minus defense total (4.2).
- **Results** — NE no effect; AE an attacker is eliminated; EX the defender and an
  attacker are eliminated; DE the defender is eliminated (4.3).

## At the prompt

Numbers take an option; `m` shows the map, `i N` explains option N, `v` the victory
standing, `u` undoes your last decision, `s` saves, `q` quits.
"""

GAME_TOML = """\
# What `tabletop list` shows of this game, read without importing it; it must say what the
# game's GameInfo says (`tabletop validate` checks it).
id = "${name}"
title = "${title}"
playable = true
"""

ROLLS = """\
# Every roll the game makes: its name (what force("...") and a position's `dice:` entry
# name), its rule section, its dice, and the text it is logged with ({...}: any text).
rolls:
  - {name: combat, section: "4.2", dice: 1d6, text: "combat against {hex}"}
"""

MAP = """\
# ${title} (rule 1.1): a 6x5 hex map. Unlisted hexes are clear.
kind: hex
name: ${title}
scale: 500 m a hex
columns: [1, 6]
rows: [1, 5]
shifted: even
default_terrain: clear
terrain_types:
  clear: {name: Clear, color: "#e8e2c0", symbol: "."}
  woods: {name: Woods, color: "#8fb77a", symbol: "w"}
feature_types:
  objective: {name: Objective, color: "#a0522d", symbol: "^"}
hexes:
  "0403": {terrain: clear, features: [objective], name: The crossroads}
  "0302": woods
  "0304": woods
  "0502": woods
  "0504": woods
boxes:
  - {id: "box:eliminated", name: Eliminated units}
labels:
  - {text: Crossroads, at: "0403"}
"""

UNITS = """\
# ${title} (rule 1.2): the units and their set-up hexes.
- {id: B1, side: Blue, name: 1st Bn, hex: "0102", attack: 4, defense: 3, move: 4}
- {id: B2, side: Blue, name: 2nd Bn, hex: "0103", attack: 4, defense: 3, move: 4}
- {id: B3, side: Blue, name: 3rd Bn, hex: "0104", attack: 4, defense: 3, move: 4}
- {id: R1, side: Red, name: 1st Co, hex: "0403", attack: 3, defense: 4, move: 3}
- {id: R2, side: Red, name: 2nd Co, hex: "0502", attack: 3, defense: 4, move: 3}
- {id: R3, side: Red, name: 3rd Co, hex: "0504", attack: 3, defense: 4, move: 3}
"""

CRT = """\
# ${title} (rule 4.2): differential CRT, one line per defender terrain.
id: crt
name: Combat Results Table
section: "4.2"
dice: 1d6
columns: ["<=-2", "-1..0", "+1..+2", ">=+3"]
lines:
  clear:
    1: [EX, DE, DE, DE]
    2: [AE, EX, DE, DE]
    3: [AE, NE, EX, DE]
    4: [AE, NE, NE, EX]
    5: [AE, AE, NE, EX]
    6: [AE, AE, AE, NE]
line_shifts:
  woods: {of: clear, shift: -1}
results:
  NE: No effect
  AE: One attacker eliminated
  EX: Exchange, the defender and one attacker eliminated
  DE: Defender eliminated
"""

SEQUENCE = """\
# ${title} (rule 2.0): the sequence of play.
first_turn: 1
last_turn: 4
phases:
  - {id: blue_move, name: Blue movement, section: "2.1", player: Blue}
  - {id: blue_combat, name: Blue combat, section: "2.2", player: Blue}
  - {id: red_move, name: Red movement, section: "2.3", player: Red}
  - {id: red_combat, name: Red combat, section: "2.4", player: Red}
"""

SECTIONS = """\
# The numbered sections of the rulebook (RULES.md), in its order: `tabletop rules` prints
# which hooks cite and which tests name each. `no_hook` / `no_test` give the reason a
# section has none.
rulebook: RULES.md
sections:
  - {id: "1.0", title: "Components", no_hook: "chapter heading", no_test: "chapter heading"}
  - {id: "1.1", title: "The map"}
  - {id: "1.2", title: "The units"}
  - {id: "1.3", title: "The Combat Results Table", no_hook: "read by 4.2", no_test: "read by 4.2"}
  - {id: "2.0", title: "Sequence of play"}
  - {id: "2.1", title: "Blue movement"}
  - {id: "2.2", title: "Blue combat"}
  - {id: "2.3", title: "Red movement"}
  - {id: "2.4", title: "Red combat"}
  - {id: "3.0", title: "Movement", no_hook: "chapter heading", no_test: "chapter heading"}
  - {id: "3.1", title: "Movement points"}
  - {id: "3.2", title: "Zones of control"}
  - {id: "3.3", title: "Stacking"}
  - {id: "4.0", title: "Combat", no_hook: "chapter heading", no_test: "chapter heading"}
  - {id: "4.1", title: "Who attacks"}
  - {id: "4.2", title: "The differential"}
  - {id: "4.3", title: "Results"}
  - {id: "5.0", title: "Victory", no_hook: "chapter heading", no_test: "chapter heading"}
  - {id: "5.1", title: "Every unit of a side eliminated"}
  - {id: "5.2", title: "The objective at the end"}
"""

TESTS = '''\
"""${title}, rule by rule: each test names the section of RULES.md it checks.

Run them with ``pytest tests`` in this folder (the engine's dev dependencies installed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tabletop.core.designer.testing import answer, check_conformance, check_dice_used, force, start, texts
from tabletop.core.engine.registry import INFO_FILE, check_info_file, load_game

FOLDER = Path(__file__).resolve().parents[1]
GAME = load_game(str(FOLDER))
ELIMINATED = "box:eliminated"
#: 2.2 B1 and B2 next to R1 on the crossroads (clear), Blue to attack; B3 off the map.
ATTACK: dict[str, Any] = {"start": "blue_combat", "turn": 1, "clear": ["Blue"],
                          "pieces": {"B1": {"at": "0303"}, "B2": {"at": "0304"}}}


def test_4_2_4_3_an_exchange_costs_the_attacker_the_unit_it_picks() -> None:
    """4.2, 4.3 EX: 8 against 4 on clear (+4) rolling 4 is an exchange: the defender is
    eliminated and the attacker loses the unit it picks."""
    m = start(GAME, **ATTACK, forced=[force("4.2 combat", 4)])
    answer(m, "0403", "B2")  # attack the crossroads, then lose B2
    assert texts(m, "combat") == ["Blue attacks 0403 at +4 (clear): roll 4 -> EX"]
    assert [m.state.pieces[u].location for u in ("R1", "B1", "B2")] == [ELIMINATED, "0303", ELIMINATED]
    check_dice_used(m)


def test_3_1_to_3_3_a_move_pays_for_woods_stops_next_to_an_enemy_and_never_stacks() -> None:
    """2.1, 3.1: woods cost 2 MP and no enemy hex is entered; 3.2: a unit entering a hex next
    to an enemy stops, so 0503 (4 MP by way of 0404) is out of reach; 3.3: B2's hex is no
    destination."""
    m = start(GAME, start="blue_move", turn=1, clear=["Blue"],
              pieces={"B1": {"at": "0203"}, "B2": {"at": "0303"}})
    answer(m, "B1")  # move B1
    assert m.pending is not None
    moves = {o.value: o.label for o in m.pending.options}
    assert moves["0304"] == "0304 (2 MP)" and moves["0404"] == "0404 (3 MP)"
    assert not {"0403", "0503", "0303"} & moves.keys()
    answer(m, "0404")
    assert texts(m, "move") == ["1st Bn moves 0203 -> 0404"]


def test_5_2_after_the_last_turn_a_blue_unit_on_the_objective_wins() -> None:
    """2.4, 5.2: the game ends after Red's combat of the last turn; Blue wins holding the
    crossroads."""
    m = start(GAME, start="red_combat", turn=4, clear=["Red"],
              pieces={"B1": {"at": "0403"}, "R2": {"at": "0601"}})
    assert m.result is not None and (m.result.winner, m.result.section) == ("Blue", "5.2")


def test_2_0_conformance_random_games_end_replay_and_refuse_bad_answers() -> None:
    """2.0: random games end with a result, replay byte for byte, save and resume."""
    check_conformance(GAME, range(3))


def test_game_toml_says_what_gameinfo_says() -> None:
    """What tabletop list shows (game.toml) is what the game declares."""
    check_info_file(GAME, FOLDER / INFO_FILE)
'''

AI_MODULE = '''\
"""${title}'s AI: the model of its bot's priorities (``priorities`` in ``data/ai.yaml``)
and the hooks the file's evaluation may name.

A hook is a function ``(match, side, **params) -> float`` of this module, named in a
feature of ``data/ai.yaml`` (``measure: hook``, ``hook: its_name``): what a core measure
does not say (docs/data-files.md lists them). Add a field to :class:`Priorities` for each
value the bot reads, and the value to the file.
"""

from __future__ import annotations

from typing import cast

from tabletop.core.engine.ai import ai_of
from tabletop.core.engine.data import StrictModel
from tabletop.core.engine.match import Game


class Priorities(StrictModel):
    """What the 'advance' bot follows (``priorities`` in data/ai.yaml)."""

    least_differential: int  # 4.2: attack at this differential or better


def priorities(game: Game) -> Priorities:
    """The game's bot priorities, read from data/ai.yaml (checked before play)."""
    return cast("Priorities", ai_of(game).priorities)
'''

AI = """\
# ${title}: its AI as data (docs/data-files.md, "ai.yaml"). With this file alone the
# `greedy` agent and the search (`--agent Red=mcts`) play the game as an opponent.
description: >-
  5.1: a side with no unit left on the map loses at once; 5.2: after the last turn Blue
  wins with a Blue unit on the objective (0403), else Red.

# How a position is scored for a side: tanh(sum(weight * value) / scale), from -1 to 1.
# Each value is the side's measure less the other side's (of: relative) unless `of` says.
evaluation:
  scale: 2.0
  features:
    - id: victory_now        # 5.2: who would win if the game ended now
      measure: result
      of: self
      weight: 1.0
    - id: objective          # 5.2: the objective held (a unit there, no enemy)
      measure: held
      places: ["0403"]
      weight: 1.0
    - id: units              # 5.1: the units left on the map
      measure: units
      weight: 0.5
    - id: approach           # 5.2: Blue must reach the objective
      measure: distance
      to: ["0403"]
      of: self
      weight: {Blue: -0.3}

# What the game's bot ('advance') reads: the model is Priorities in ai.py.
priorities:
  least_differential: 0      # 4.2: attack at this differential or better
"""

FILES: dict[str, str] = {
    "__init__.py": GAME_MODULE,
    "ai.py": AI_MODULE,
    "RULES.md": RULES,
    "guide.md": GUIDE,
    "game.toml": GAME_TOML,
    "rolls.yaml": ROLLS,
    "data/map.yaml": MAP,
    "data/units.yaml": UNITS,
    "data/crt.yaml": CRT,
    "data/sequence.yaml": SEQUENCE,
    "data/sections.yaml": SECTIONS,
    "data/ai.yaml": AI,
    "tests/test_rules.py": TESTS,
}
"""Every file of a new game, by its path in the game's folder."""


def check_name(name: str) -> None:
    """A new game's name is its id, its package and its folder: a lowercase Python
    identifier that no module already importable (the standard library, an installed
    package) nor installed game answers to; a TabletopError saying so otherwise."""
    if not name.isidentifier() or keyword.iskeyword(name) or name != name.lower():
        raise TabletopError(f"{name!r} is not a game name: use a lowercase Python identifier "
                            "(letters, digits and _, not starting with a digit), e.g. hill_fight")
    if name in sys.stdlib_module_names or name == "tabletop" or importlib.util.find_spec(name):
        raise TabletopError(f"{name!r} is already the name of an importable module; a game "
                            "package of that name could not be imported: choose another name")
    if name in registered():
        raise TabletopError(f"{name!r} is already the id of an installed game (tabletop list), "
                            "which records of the new game would be taken for: choose another name")


def new_game(name: str, parent: str | Path = ".") -> Path:
    """Write the folder ``parent/name`` of a new game called ``name``; returns its path.

    Refuses (a TabletopError, nothing written) a bad name (:func:`check_name`), a ``parent``
    that is not a folder, or a ``name`` already there. The files are written to a temporary
    folder beside it first and renamed into place, so the folder is whole or absent.
    """
    check_name(name)
    where = Path(parent)
    if not where.is_dir():
        raise TabletopError(f"--dir {where}: no such folder to write the game in")
    target = where / name
    if target.exists() or target.is_symlink():
        raise TabletopError(f"{target} already exists: choose another name or --dir")
    fields = {"name": name, "title": name.replace("_", " ").title(),
              "cls": "".join(part.capitalize() for part in name.split("_") if part) or "NewGame"}
    staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=where))
    try:
        for rel, text in FILES.items():
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(Template(text).substitute(fields), encoding="utf-8")
        staging.chmod(0o755)  # mkdtemp's folder is the owner's alone; a game folder is not
        os.rename(staging, target)  # refused if the name appeared meanwhile
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise TabletopError(f"{target}: could not write the new game ({exc.strerror or exc})") from None
    return target
