"""The designer's kit (tabletop.core.kit): each variant of its standard rules, played on a copy
of the kit's example game (docs/example/ridge) whose data says that variant, and the one-line
messages its checks give for bad data."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tabletop.core.designer.testing import (
    answer,
    check_dice_used,
    check_event_numbers,
    check_hidden_information,
    force,
    game_state_machine,
    start,
)
from tabletop.core.engine.decisions import DONE, Decision, Option
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.pieces import Piece
from tabletop.core.engine.registry import load_game
from tabletop.core.frontends.cli import main
from tabletop.core.kit.bot import KitBot
from tabletop.core.kit.game import KitGame, ratio

ROOT = Path(__file__).resolve().parents[2]
RIDGE = ROOT / "docs" / "example" / "ridge"
FAR = {"R3": {"at": "0901"}}  # a Red unit out of the way


def variant(tmp_path: Path, name: str, **edits: list[tuple[str, str]]) -> Path:
    """A copy of Ridge Line named ``name`` (a package name no other test uses) with text
    changes in its data files (``kit=[(old, new)]`` edits data/kit.yaml)."""
    target = tmp_path / name
    shutil.copytree(RIDGE, target, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    for file, changes in edits.items():
        path = target / "data" / f"{file}.yaml"
        text = path.read_text(encoding="utf-8")
        for old, new in changes:
            assert old in text, (file, old)
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
    return target


def game(tmp_path: Path, name: str, **edits: list[tuple[str, str]]) -> Game:
    """The game of a :func:`variant`."""
    return load_game(str(variant(tmp_path, name, **edits)))


def asked(m: Match) -> Decision:
    """The decision the match asks now (a test's precondition that it asks one)."""
    assert m.pending is not None, "the match asks nothing"
    return m.pending


def at_move(g: Game, unit: str, **pieces: Any) -> dict[str, float]:
    """The destinations offered to ``unit`` in Blue's movement phase, with their costs."""
    m = start(g, start="blue_move", turn=1, clear=["Blue", "Red"], pieces=pieces)
    answer(m, unit)
    return {str(o.value): float(str(o.detail["cost"])) for o in asked(m).options if o.value != DONE}


def units_offered(m: Match) -> list[str]:
    return [str(o.value) for o in asked(m).options if o.value != DONE]


def test_zoc_locking_keeps_a_unit_in_an_enemy_zone(tmp_path: Path) -> None:
    """zoc: locking: B1 next to R2 is not offered a move; B2, free, is."""
    g = game(tmp_path, "kit_locking", kit=[("rule: leave_cost, leave_cost: 1", "rule: locking")])
    m = start(g, start="blue_move", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0504"}, "B2": {"at": "0402"}, "R2": {"at": "0603"}})
    assert units_offered(m) == ["B2"]


def test_zoc_leave_cost_stop_and_no_zoc_to_zoc(tmp_path: Path) -> None:
    """zoc: leave_cost adds its cost to leaving (0504 to woods 0503: 2 + 1); stop lets a unit
    step from one enemy-controlled hex (0504) into another (0503) for 2, and with zoc_to_zoc
    false only around (via 0403, 3); none lets a unit pass through."""
    pieces = {"B1": {"at": "0504"}, "R2": {"at": "0603"}}
    assert at_move(load_game(str(RIDGE)), "B1", **pieces)["0503"] == 3
    stop = game(tmp_path, "kit_stop", kit=[("rule: leave_cost, leave_cost: 1", "rule: stop")])
    assert at_move(stop, "B1", **pieces)["0503"] == 2
    locked = game(tmp_path, "kit_noz2z",
                  kit=[("rule: leave_cost, leave_cost: 1", "rule: stop, zoc_to_zoc: false")])
    assert at_move(locked, "B1", **pieces)["0503"] == 3
    free = game(tmp_path, "kit_nozoc", kit=[("rule: leave_cost, leave_cost: 1", "rule: none")])
    assert "0604" not in at_move(load_game(str(RIDGE)), "B1", B1={"at": "0402"}, R2={"at": "0603"})
    assert at_move(free, "B1", B1={"at": "0402"}, R2={"at": "0603"}, R1={"at": "0904"})["0604"] == 4


def test_stacking_by_points(tmp_path: Path) -> None:
    """stacking by points: a 2-point B1 fills a hex of limit 2, which B2 may not join."""
    g = game(tmp_path, "kit_points", kit=[("limit: 2, by: count", "limit: 2, by: points")],
             units=[('front: [6, 5, 4], back: [3, 3, 4]}', 'front: [6, 5, 4], back: [3, 3, 4], points: 2}')])
    assert "0403" not in at_move(g, "B2", B1={"at": "0403"}, B2={"at": "0402"}, **FAR)
    assert "0403" in at_move(g, "B3", B1={"at": "0402"}, B3={"at": "0404"}, **FAR)


def test_road_hexside_replaces_the_cost_and_prohibited_for_a_kind(tmp_path: Path) -> None:
    """A road hexside's step costs its road cost whatever the hex; woods prohibited for armour
    keeps the tank out."""
    g = game(tmp_path, "kit_road",
             map=[("hexside_types:\n", "hexside_types:\n  road: {name: Road, color: \"#000\", width: 2}\n"),
                  ("hexsides:\n", "hexsides:\n  - {between: [\"0402\", \"0503\"], features: [road]}\n")],
             terrain=[("hexsides:\n", "hexsides:\n  road: {road: 0.5}\n"),
                      ("move_by_kind: {armour: 3}", "prohibited_for: [armour]")])
    assert at_move(g, "B1", B1={"at": "0402"}, **FAR)["0503"] == 0.5
    assert "0503" not in at_move(g, "B4", B4={"at": "0402"}, **FAR)


def test_odds_rounding_nearest_and_up(tmp_path: Path) -> None:
    """odds rounding: 10:6 reads 3:2 rounded down or to the nearest, 2:1 rounded up."""
    pieces = {"B1": {"at": "0602"}, "B4": {"at": "0703", "steps": 1, "face": "back"},
              "R2": {"at": "0603"}, **FAR}
    for name, rounding, column in (("kit_near", "nearest", "3:2"), ("kit_up", "up", "2:1")):
        g = game(tmp_path, name, kit=[("rounding: down", f"rounding: {rounding}")])
        m = start(g, start="blue_combat", turn=1, clear=["Blue", "Red"], pieces=pieces,
                  forced=[force("4.2 combat", 6)])
        answer(m, "0603", "B1", "B4")
        assert m.log.of_kind("combat")[-1].data["column"] == column
        check_dice_used(m)


def test_differential_columns_with_the_table_edge(tmp_path: Path) -> None:
    """odds columns: differential: 12 - 6 is +6, beyond the last column: read at its edge."""
    crt = (RIDGE / "data" / "crt.yaml").read_text(encoding="utf-8")
    g = game(tmp_path, "kit_diff",
             kit=[("columns: ratio", "columns: differential"), ("below: A1", "below: column")],
             crt=[(crt[crt.index("keyed_by"):crt.index("lines:")],
                   'columns: ["<=-1", "0", "+1..+2", "+3", "+4", "+5"]\n')],
             ai=[('attack_at_least: {Blue: "3:2", Red: "2:1"}', 'attack_at_least: "+1..+2"')])
    m = start(g, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0602"}, "B2": {"at": "0703"}, "R2": {"at": "0603"}, **FAR},
              forced=[force("4.2 combat", 6)])
    answer(m, "0603", "B1", "B2")
    data = m.log.of_kind("combat")[-1].data
    assert (data["odds"], data["column"], data["result"]) == ("+6", "+5", "EX")


def test_multi_hex_attack_takes_in_a_second_hex(tmp_path: Path) -> None:
    """attacks: multi_hex: B1 in 0703 attacks 0603 and 0704 together, both defending."""
    g = game(tmp_path, "kit_multi", kit=[("multi_hex: false", "multi_hex: true")])
    m = start(g, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0703"}, "B2": {"at": "0703"}, "R2": {"at": "0603"},
                      "R1": {"at": "0704"}},
              forced=[force("4.2 combat", 3)])
    answer(m, "0603", "B1", "+0704", "B2")
    data = m.log.of_kind("combat")[-1].data
    assert data["targets"] == ["0603", "0704"] and data["defenders"] == ["R2", "R1"]
    assert (data["attack"], data["defence"]) == (12, 12)


def test_engaged_units_sit_out_their_next_movement(tmp_path: Path) -> None:
    """results: engaged: after an NE that engages, R2 is not offered a move in Red's phase."""
    g = game(tmp_path, "kit_engaged", kit=[("    NE: {}", "    NE: {engaged: true}")])
    m = start(g, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0602"}, "R2": {"at": "0603"}, "R1": {"at": "0805"}},
              forced=[force("4.2 combat", 3)])
    answer(m, "0603", "B1")
    assert m.log.of_kind("combat")[-1].data["result"] == "NE"
    assert asked(m).kind == "select_unit" and units_offered(m) == ["R1"]


def test_blocked_retreat_eliminates_and_rules_choose_losses(tmp_path: Path) -> None:
    """retreat blocked: eliminate removes a hemmed-in defender; losses chosen by the rules
    take the step from the unit with most steps, asking nobody."""
    g = game(tmp_path, "kit_blocked",
             kit=[("blocked: step", "blocked: eliminate"), ("chooser: owner}", "chooser: rules}")])
    m = start(g, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0605"}, "B2": {"at": "0603"}, "B3": {"at": "0805"},
                      "R1": {"at": "0604"}, **FAR}, forced=[force("4.2 combat", 1)])
    answer(m, "0604", "B1", DONE)
    assert m.state.pieces["R1"].location == "box:eliminated"
    m = start(g, start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0602", "steps": 1, "face": "back"}, "B2": {"at": "0703"},
                      "R2": {"at": "0603"}, **FAR}, forced=[force("4.2 combat", 5)])
    answer(m, "0603", "B1", "B2")
    assert m.log.of_kind("combat")[-1].data["result"] == "A1"
    assert (m.state.pieces["B1"].steps, m.state.pieces["B2"].steps) == (1, 1)


@pytest.mark.parametrize("file, old, new, says", [
    ("terrain", "  woods: {move: 2, move_by_kind: {armour: 3}, shift: -1, section: \"4.3\"}\n", "",
     "terrain.yaml: terrain: no movement cost given for terrain 'woods'"),
    ("kit", "    DE: {defender_eliminated: true}\n", "",
     "kit.yaml: results.effects: no effect for the CRT's result 'DE'"),
    ("units", 'hex: "0103"', "hex: 0103", "hex ids must be quoted"),
    ("units", 'hex: "0105"', 'hex: "0406"', "units.yaml: 2.hex: unit B3 (infantry) may not stand on 0406"),
    ("kit", "each_unit_once: true, each_hex_once: true", "each_unit_once: false, each_hex_once: false",
     "kit.yaml: attacks: each_unit_once and each_hex_once may not both be false"),
    ("ai", 'Blue: "3:2"', 'Blue: "5:2"',
     "ai.yaml: priorities.attack_at_least: '5:2' is no column of the CRT"),
])
def test_bad_kit_data_gets_one_line_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    file: str, old: str, new: str, says: str) -> None:
    """Each mistake is one line at `tabletop validate`, naming the file and what to do."""
    if file == "units" and "0406" in new:
        old_terrain = ("move_by_kind: {armour: 3}", "prohibited_for: [infantry]")
        folder = variant(tmp_path, f"kit_bad_{file}_{len(says)}", units=[(old, new)], terrain=[old_terrain])
    else:
        folder = variant(tmp_path, f"kit_bad_{file}_{len(says)}", **{file: [(old, new)]})
    code = main(["validate", str(folder)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and says in err, err


def test_ratio_reads_odds_columns() -> None:
    """An odds column's ratio, and a column that is no odds refused."""
    assert (ratio("3:2"), ratio("1:2")) == (Fraction(3, 2), Fraction(1, 2))
    with pytest.raises(ValueError, match="not odds"):
        ratio("2-1")


def test_the_heuristic_attacks_only_at_its_least_odds() -> None:
    """The bot (ai.yaml: Blue attacks at 3:2 or better) takes a 2:1 attack, passes a 1:1."""
    g = load_game(str(RIDGE))
    assert isinstance(g, KitGame)
    bot = KitBot(g, "Blue")
    good = Decision("Blue", "Attack which hex?", "4.1", (
        Option("0603", "attack 0603", "", {"index": 1}), Option("0604", "attack 0604", "", {"index": 3}),
        Option(DONE, "No more attacks")), kind="select_target")
    assert bot.choose({}, good) == "0604"
    poor = Decision("Blue", "Attack which hex?", "4.1", (
        Option("0603", "attack 0603", "", {"index": 1}), Option(DONE, "No more attacks")),
        kind="select_target")
    assert bot.choose({}, poor) == DONE


def test_a_kit_game_without_its_files_is_refused(tmp_path: Path) -> None:
    """A kit game missing terrain.yaml names the file it could not read."""
    folder = variant(tmp_path, "kit_noterrain")
    (folder / "data" / "terrain.yaml").unlink()
    with pytest.raises(TabletopError, match=r"terrain\.yaml"):
        load_game(str(folder))


TestRidgeMachine = game_state_machine(load_game(str(RIDGE))).TestCase
TestRidgeMachine.settings = settings(max_examples=8, stateful_step_count=25, deadline=None)


def test_a_hidden_defender_hides_the_odds_until_attacked() -> None:
    """A face-down defender: the attacker is offered the hex with no odds (nothing of its
    strength leaks); the attack reveals it before the roll, and the combat event then gives
    every number."""
    m = start(load_game(str(RIDGE)), start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0602"}, "R2": {"at": "0603", "hidden": True}, **FAR},
              forced=[force("4.2 combat", 3)])
    option = next(o for o in asked(m).options if o.value == "0603")
    assert option.info == "defender hidden: odds unknown" and option.detail == {}
    answer(m, "0603", "B1")
    assert not m.state.pieces["R2"].hidden and m.log.of_kind("reveal")[-1].data["piece"] == "R2"
    assert m.log.of_kind("combat")[-1].data["column"] == "1:1"
    check_dice_used(m)


def test_hidden_units_leak_nothing_to_the_other_side(tmp_path: Path) -> None:
    """Red set up face-down (units.yaml hidden: true): random games tell Blue nothing it may
    not see (moves, attacks, losses, retreats and advances of hidden units are masked), and
    every event still gives its numbers as data."""
    hide = [("front: [5, 6, 3], back: [2, 3, 3]}", "front: [5, 6, 3], back: [2, 3, 3], hidden: true}"),
            ("front: [4, 5, 3], back: [2, 3, 3]}", "front: [4, 5, 3], back: [2, 3, 3], hidden: true}")]
    g = game(tmp_path, "kit_hidden", units=hide)
    m = Match(g, seed=1)
    assert [p.id for p in m.state.pieces if p.hidden] == ["R1", "R3"]
    check_hidden_information(g, range(4))
    check_event_numbers(g, range(2))


def test_a_game_overrides_a_kit_hook_where_its_rules_differ() -> None:
    """A variant whose rules allow no retreat at all (its ``retreat_paths`` hook finds none):
    a DR costs the defender a step where it stands (the kit's blocked retreat)."""
    ridge = load_game(str(RIDGE))

    class Cornered(type(ridge)):  # type: ignore[misc]  # a variant, as a designer would subclass it
        def retreat_paths(self, match: Match, piece: Piece, length: int) -> list[list[str]]:
            """4.6 (variant): every retreat is blocked."""
            return []

    m = start(Cornered(), start="blue_combat", turn=1, clear=["Blue", "Red"],
              pieces={"B1": {"at": "0602"}, "R2": {"at": "0603"}, **FAR}, dice_script=[1])
    answer(m, "0603", "B1")
    assert m.log.of_kind("combat")[-1].data["result"] == "DR"
    assert (m.state.pieces["R2"].location, m.state.pieces["R2"].steps) == ("0603", 1)
    check_dice_used(m)


def test_stay_put_false_offers_only_destinations_and_the_heuristic_still_moves(tmp_path: Path) -> None:
    """movement.stay_put: false: a unit picked is offered its destinations and no "Stay put";
    the heuristic, which stays put when no hex is nearer, then moves anyway, and whole games
    between heuristics play out."""
    g = game(tmp_path, "kit_nostay", kit=[('movement: {section: "3.1"}',
                                           'movement: {section: "3.1", stay_put: false}')])
    m = start(g, start="blue_move", turn=1, clear=["Blue", "Red"], pieces={"B1": {"at": "0402"}, **FAR})
    answer(m, "B1")
    assert m.pending is not None and DONE not in m.pending.values and "0403" in m.pending.values
    assert DONE in asked(start(load_game(str(RIDGE)), start="blue_move", turn=1)).options[-1].value
    for seed in (1, 2):
        m = Match(g, seed=seed)
        m.run({s: KitBot(g, s) for s in g.info.players})  # type: ignore[arg-type]
        assert m.finished


def test_losses_first_attacker_takes_the_attackers_step_before_the_defenders(tmp_path: Path) -> None:
    """losses.first: attacker: an EX (a step each side) asks the attacker which unit loses a
    step while the defender is still whole; by default the defender's loss comes first. An
    exchange matching the defender's losses cannot come first: kit.yaml is refused."""
    ex = ("EX: {defender_steps: 1, exchange: true}", "EX: {defender_steps: 1, attacker_steps: 1}")
    first = ('losses: {section: "4.5", chooser: owner}',
             'losses: {section: "4.5", chooser: owner, first: attacker}')
    for name, edits, whole in (("kit_attfirst", [ex, first], True), ("kit_deffirst", [ex], False)):
        m = start(game(tmp_path, name, kit=edits), start="blue_combat", turn=1, clear=["Blue", "Red"],
                  pieces={"B1": {"at": "0402"}, "B2": {"at": "0404"}, "R2": {"at": "0403"}, **FAR},
                  forced=[force("4.2 combat", 5)])
        answer(m, "0403", "B1", "B2")
        assert m.log.of_kind("combat")[-1].data["result"] == "EX"
        assert m.pending is not None and m.pending.kind == "take_loss" and m.pending.player == "Blue"
        assert (m.state.pieces["R2"].steps == 2) == whole, name
    folder = variant(tmp_path, "kit_badfirst", kit=[first])
    assert main(["validate", str(folder)]) == 2


def test_wiped_out_and_the_objective_count_as_data(tmp_path: Path) -> None:
    """wiped_out: the kit's check_end gives a side with no unit left a loss at once, citing the
    section kit.yaml names for it (nothing without the option); objectives: a map with
    another number of objective hexes is refused in one line."""
    g = game(tmp_path, "kit_wiped", kit=[('advance: {section: "4.7", units: 1}',
                                          'advance: {section: "4.7", units: 1}\nwiped_out: {Red: "5.2"}')])
    m = start(g, start="blue_move", turn=1, clear=["Red"])
    result = KitGame.check_end(g, m)  # type: ignore[arg-type]
    assert result is not None and (result.winner, result.section) == ("Blue", "5.2")
    assert KitGame.check_end(load_game(str(RIDGE)), m) is None  # type: ignore[arg-type]
    folder = variant(tmp_path, "kit_objectives",
                     kit=[("sides: [Blue, Red]", "sides: [Blue, Red]\nobjectives: 2")])
    with pytest.raises(TabletopError, match=r"map\.yaml: hexes: 1 hex has the objective feature"):
        load_game(str(folder)).load_data()
