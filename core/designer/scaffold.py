"""``tabletop new NAME``: write the folder of a new game plugin that plays, validates and
passes the conformance tests as written, for a designer to change rule by rule.

The new game is the smallest whole game on the designer's kit (``tabletop.core.kit``): a
6 × 5 hex map, two sides of one unit type, a Terrain Effects Chart, a differential Combat
Results Table, the kit's movement with zones of control and its combat, a victory
condition, its AI as data (``data/ai.yaml``: the evaluation the ``greedy`` and ``mcts``
agents play by and the priorities of the kit's ``heuristic`` bot), its rolls
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
"""${title}: a game for the tabletop engine (written by `tabletop new ${name}`), built on
the designer's kit (tabletop.core.kit).

The printed parts are the YAML files of ``data/``: the map, the units, the Terrain Effects
Chart (``terrain.yaml``), the Combat Results Table, the options of the kit's standard rules
(``kit.yaml``: zones of control, stacking, combat results), the sequence of play and the AI.
The kit plays movement and combat; this module says what is the game's own, each hook
citing its section of ``RULES.md``. Play it with ``tabletop play <this folder>``;
docs/designer-guide.md ("The designer's kit") says what each part does and how to grow it.
"""

from __future__ import annotations

from tabletop.core.engine.flow import PhaseHandler
from tabletop.core.engine.match import GameInfo, Match, Result
from tabletop.core.kit.combat import attack_phase
from tabletop.core.kit.game import KitGame
from tabletop.core.kit.movement import movement_phase


class ${cls}(KitGame):
    """The game plugin: what the game is (``info``), its phases and its victory."""

    info = GameInfo(
        id="${name}",
        title="${title}",
        version="0.1",
        players=("Blue", "Red"),
        description="A new game: 6x5 hexes, three units a side, a crossroads to take.",
        rulebook="${title} rules",
        human_side="Blue",
    )

    def phase_handlers(self) -> dict[str, PhaseHandler]:
        """2.0 Four phases a turn: 2.1 Blue movement, 2.2 Blue combat, 2.3 Red movement,
        2.4 Red combat (the kit's loops, one line each)."""
        return {
            "blue_move": lambda m: movement_phase(m, "Blue", "blue_move"),
            "blue_combat": lambda m: attack_phase(m, "Blue", "blue_combat"),
            "red_move": lambda m: movement_phase(m, "Red", "red_move"),
            "red_combat": lambda m: attack_phase(m, "Red", "red_combat"),
        }

    def check_end(self, match: Match) -> Result | None:
        """5.1 A side with no unit left on the map loses at once (after every phase and
        every attack)."""
        for side in self.info.players:
            if not self.on_map(match, side):
                winner = self.enemy_of(side)
                return Result(winner, f"{winner} decisive victory", "5.1", self.summary(match),
                              f"every {side} unit is eliminated")
        return None

    def final_result(self, match: Match) -> Result:
        """5.2 After the last turn Blue wins with a Blue unit on the objective, else Red."""
        if any(p.side == "Blue" for o in self.objectives for p in match.state.pieces.at(o)):
            return Result("Blue", "Blue victory", "5.2", self.summary(match), "Blue holds the objective")
        return Result("Red", "Red victory", "5.2", self.summary(match), "Red holds the objective")


GAME = ${cls}()
'''

RULES = """\
# ${title} — rulebook

Every rule hook cites a section below (the kit's rules cite them from `data/kit.yaml` and
`data/terrain.yaml`), and every test names the section it checks (`tabletop rules <this
folder>` shows the coverage).

## 1.0 Components
1.1 The map (`data/map.yaml`) is 6 columns by 5 rows of hexes numbered XXYY. Terrain: clear
and woods. The hex 0403 (the crossroads) is the *objective*.
1.2 The units (`data/units.yaml`): each side has three infantry units of one step, each
printed with attack, defense and movement.
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
4.1 The player attacks enemy hexes one at a time: he picks the hex, then adds units next to
it that have not attacked this phase, one at a time. Each hex is attacked once a phase.
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
2. **Blue attacks** — pick a Red hex next to your units, then add your units next to it
   that have not attacked yet, one at a time (each option shows the odds); one die decides.
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
# ${title} (rule 1.2): the units and their set-up hexes; front: [attack, defense, movement].
- {id: B1, side: Blue, kind: infantry, name: 1st Bn, hex: "0102", front: [4, 3, 4]}
- {id: B2, side: Blue, kind: infantry, name: 2nd Bn, hex: "0103", front: [4, 3, 4]}
- {id: B3, side: Blue, kind: infantry, name: 3rd Bn, hex: "0104", front: [4, 3, 4]}
- {id: R1, side: Red, kind: infantry, name: 1st Co, hex: "0403", front: [3, 4, 3]}
- {id: R2, side: Red, kind: infantry, name: 2nd Co, hex: "0502", front: [3, 4, 3]}
- {id: R3, side: Red, kind: infantry, name: 3rd Co, hex: "0504", front: [3, 4, 3]}
"""

TERRAIN = """\
# ${title}: the Terrain Effects Chart (rule 3.1: the cost of entering each terrain; the CRT
# reads the line of the defender's terrain, 4.2).
section: "3.1"
terrain:
  clear: {move: 1}
  woods: {move: 2}
features:
  objective: {}
"""

KIT = """\
# ${title}: the options of the kit's standard rules (docs/designer-guide.md, "The
# designer's kit"), each with the section of RULES.md it plays.
sides: [Blue, Red]
eliminated: "box:eliminated"
movement: {section: "3.1"}
zoc: {section: "3.2", rule: stop}
stacking: {section: "3.3", limit: 1}
attacks: {section: "4.1"}
odds: {section: "4.2", columns: differential}
results:
  section: "4.3"
  effects:
    NE: {}
    AE: {attacker_steps: 1}
    EX: {defender_steps: 1, exchange: true}
    DE: {defender_eliminated: true}
losses: {section: "4.3"}
advance: {units: 0}
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
  - {id: "1.1", title: "The map", no_hook: "data: map.yaml, checked by the kit (KitGame.load_data)"}
  - {id: "1.2", title: "The units", no_hook: "data: units.yaml, checked by the kit (KitGame.load_data)"}
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
  - {id: "4.1", title: "Declaring attacks"}
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
from tabletop.core.designer.validation import validate_path
from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import INFO_FILE, check_info_file, load_game, make_agent

FOLDER = Path(__file__).resolve().parents[1]
GAME = load_game(str(FOLDER))
ELIMINATED = "box:eliminated"
#: 2.2 B1 and B2 next to R1 on the crossroads (clear), Blue to attack; B3 off the map.
ATTACK: dict[str, Any] = {"start": "blue_combat", "turn": 1, "clear": ["Blue"],
                          "pieces": {"B1": {"at": "0303"}, "B2": {"at": "0304"}}}


def test_4_2_4_3_an_exchange_costs_the_attacker_the_unit_it_picks() -> None:
    """4.1, 4.2, 4.3 EX: 8 against 4 on clear (+4) rolling 4 is an exchange: the defender
    is eliminated and the attacker loses the unit it picks."""
    m = start(GAME, **ATTACK, forced=[force("4.2 combat", 4)])
    answer(m, "0403", "B1", "B2", "B2")  # attack the crossroads with B1 and B2, then lose B2
    combat = m.log.of_kind("combat")[-1].data
    assert (combat["odds"], combat["column"], combat["roll"], combat["result"]) == ("+4", ">=+3", 4, "EX")
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
    assert texts(m, "move") == ["1st Bn moves 0203 -> 0404 (3 MP)"]


def test_5_2_after_the_last_turn_a_blue_unit_on_the_objective_wins() -> None:
    """2.4, 5.2: the game ends after Red's combat of the last turn; Blue wins holding the
    crossroads."""
    m = start(GAME, start="red_combat", turn=4, clear=["Red"],
              pieces={"B1": {"at": "0403"}, "R2": {"at": "0601"}})
    assert m.result is not None and (m.result.winner, m.result.section) == ("Blue", "5.2")


def test_1_1_1_2_the_map_and_the_units_validate() -> None:
    """1.1, 1.2: every data file fits its model and the kit's cross-checks pass."""
    assert any("cross-checks passed (6 units" in line for line in validate_path(str(FOLDER)))


def test_2_1_2_2_2_3_2_4_the_four_phases_of_a_turn() -> None:
    """2.1-2.4: Blue moves, Blue attacks, Red moves, Red attacks."""
    m = Match(GAME, seed=1)
    m.run({s: make_agent(GAME, s, "heuristic", 1) for s in GAME.info.players}, max_decisions=30)
    phases = [e.data["phase"] for e in m.log.of_kind("phase") if e.turn == 1]
    assert phases == ["blue_move", "blue_combat", "red_move", "red_combat"]


def test_5_1_a_side_with_no_unit_left_loses_at_once() -> None:
    """4.3 DE, 5.1: eliminating Red's last unit ends the game at once, Blue winning."""
    m = start(GAME, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0303"}, "B2": {"at": "0304"}, "R1": {"at": "0403"}},
              forced=[force("4.2 combat", 1)])
    answer(m, "0403", "B1", "B2")
    assert m.result is not None and (m.result.winner, m.result.section) == ("Blue", "5.1")
    check_dice_used(m)


def test_2_0_conformance_random_games_end_replay_and_refuse_bad_answers() -> None:
    """2.0: random games end with a result, replay byte for byte, save and resume."""
    check_conformance(GAME, range(3))


def test_game_toml_says_what_gameinfo_says() -> None:
    """What tabletop list shows (game.toml) is what the game declares."""
    check_info_file(GAME, FOLDER / INFO_FILE)
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

# What the kit's bot ('heuristic') reads: Blue advances on the objective, Red holds it;
# each attacks at this CRT column or better (4.2).
priorities:
  advance: [Blue]
  attack_at_least: {Blue: "-1..0", Red: "+1..+2"}
"""

FILES: dict[str, str] = {
    "__init__.py": GAME_MODULE,
    "RULES.md": RULES,
    "guide.md": GUIDE,
    "game.toml": GAME_TOML,
    "rolls.yaml": ROLLS,
    "data/map.yaml": MAP,
    "data/units.yaml": UNITS,
    "data/terrain.yaml": TERRAIN,
    "data/kit.yaml": KIT,
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
