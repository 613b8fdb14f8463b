"""Positions as data (core/engine/position.py), forced dice and stacked shuffles (core/engine/dice.py),
edits of a running match, the off-board place, and `tabletop play --position`: the
capabilities of the designer's toolkit, shown on the example game (docs/example/skirmish,
rules in its RULES.md) whose sections the tests name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core.board.hexmap import HexMap
from tabletop.core.designer.testing import answer, check_dice_used, check_replay, rolls, start, texts
from tabletop.core.engine.dice import Dice, force, stack
from tabletop.core.engine.errors import DataError, TabletopError
from tabletop.core.engine.match import Match
from tabletop.core.engine.pieces import OFF_BOARD
from tabletop.core.engine.position import Position, PositionError, load_position
from tabletop.core.engine.record import make_record, replay
from tabletop.core.engine.registry import load_game
from tabletop.core.frontends.cli import main

ROOT = Path(__file__).resolve().parents[2]
GAME = load_game(str(ROOT / "docs" / "example" / "skirmish"))
#: B1 (two steps, 4-3-4 ... on its front) beside a revealed R1 on Hill 50, Blue to attack.
DUEL: dict[str, Any] = {"start": "blue_combat", "turn": 2,
        "pieces": {"B1": {"at": "0503"}, "R1": {"at": "0504", "hidden": False}}}


# -- forced dice and stacked shuffles ------------------------------------------------------

def test_a_forced_roll_is_named_by_section_and_purpose() -> None:
    """Dice: "9.1 CRT" forces a roll under 9.1 or a subsection (9.1d) whose purpose is
    CRT; not 9.10, not another purpose; unmatched rolls come from the seed."""
    dice = Dice(3, forced=[force("9.1 CRT", 6, 5)])
    assert dice.d6(purpose="CRMT", section="9.2.1") == Dice(3).d6(purpose="x")
    assert dice.roll(2, purpose="CRT", section="9.1d") == (6, 5)
    assert dice.unused_forced() == []
    lone = Dice(0, forced=[force("storm check", 2)])
    assert lone.d6(purpose="storm check", section="5.1.7") == 2
    with pytest.raises(TabletopError, match="not on a 6-sided die"):
        Dice(0, forced=[force("CRT", 7)]).d6(purpose="CRT")
    with pytest.raises(TabletopError, match="whole numbers"):
        force("CRT", 0)


def test_a_forced_roll_leaves_other_sections_alone() -> None:
    """Dice: a section token matches the section or a subsection, never a longer number."""
    dice = Dice(0, forced=[force("9.1", 4)])
    dice.d6(purpose="CRT", section="9.10")
    dice.d6(purpose="CRT", section="19.1")
    assert [f.left for f in dice.forced] == [1]
    assert dice.d6(purpose="anything", section="9.1.2") == 4


def test_a_forced_roll_names_a_roman_section() -> None:
    """Dice: a section in Roman numerals (Valor of Arms' "IV.B.2") is a section token too: it
    matches its rules ("IV.B" takes "IV.B.2"), never a longer numeral or letter."""
    dice = Dice(0, forced=[force("IV.B landing losses", 3), force("X", 5)])
    dice.d6(purpose="landing losses", section="IV.BB")
    dice.d6(purpose="landing losses", section="XI.A")
    assert [f.left for f in dice.forced] == [1, 1]
    assert dice.total(1, purpose="landing losses", section="IV.B.2") == 3
    assert dice.d6(purpose="B-29 roll", section="X.C") == 5
    assert dice.unused_forced() == []


def test_a_stacked_shuffle_puts_the_named_cards_on_top() -> None:
    """Dice: a stacked shuffle starts with the named cards in order, the rest as shuffled."""
    dice = Dice(5, forced=[stack("shuffle the deck", "c7", "c2")])
    cards = [f"c{n}" for n in range(10)]
    dice.shuffle(cards, purpose="shuffle the deck", section="5.0")
    assert cards[:2] == ["c7", "c2"] and sorted(cards) == sorted(f"c{n}" for n in range(10))
    assert dice.unused_forced() == []
    with pytest.raises(TabletopError, match="not among the items"):
        Dice(0, forced=[stack("deck", "zz")]).shuffle(["a"], purpose="deck")


# -- a rule test in ten lines on the example game ------------------------------------------

def test_5_4_a1_costs_the_attacker_a_step() -> None:
    """5.3, 5.4 A1: a lone attack at -2 in woods rolling 6 costs the attacker a step; the
    two-step B1 flips to its reduced side."""
    m = start(GAME, **DUEL, forced=[force("5.3 combat", 6)])
    answer(m, "0504", "B1")
    assert texts(m, "combat") == ["Blue attacks 0504 with B1: attack 4 vs defence 6: -2 -> column -2..-1; "
                                  "roll 6 -> A1"]
    assert m.log.of_kind("combat")[-1].data["line"] == "woods"
    assert (m.state.pieces["B1"].steps, m.state.pieces["B1"].face) == (1, "back")
    assert rolls(m) == [("5.3", "combat against 0504", [6])]
    check_dice_used(m)
    check_replay(m)


def test_2_0_a_position_starts_at_its_phase_with_its_decision() -> None:
    """2.0: a match from a position starts at the phase it names, in its turn, with the
    pending decision computed from the position."""
    m = start(GAME, **DUEL)
    assert (m.state.turn, m.state.phase) == (2, "blue_combat")
    assert m.pending is not None and m.pending.section == "5.1"
    assert m.pending.values == ["0504", "done"]
    whole = start(GAME)  # "start": the whole game from its set-up
    assert whole.pending is not None and whole.pending.section == "3.1"


def test_2_0_a_position_at_a_phase_skips_that_turn_s_earlier_phases() -> None:
    """2.0: a position at Blue combat of turn 2 plays no Blue movement of turn 2 (what the
    turn does before its entry point is skipped, not played); turn 3 is played whole."""
    m = start(GAME, **DUEL)
    while m.pending is not None and m.state.turn < 4:
        m.decide("done" if "done" in m.pending.values else m.pending.values[0])
    phases = [e.text for e in m.log.since(0) if e.kind == "phase"]
    assert phases[:5] == ["Turn 2: Blue combat", "Turn 2: Red movement", "Turn 2: Red combat",
                          "Turn 3: Blue movement", "Turn 3: Blue combat"]


# -- faces, steps and what a position clears -----------------------------------------------

def test_5_4_face_back_gives_the_reduced_unit() -> None:
    """5.4: B1's back is its reduced side, so `face: back` is B1 with one step left, as an
    A1 leaves it; `face: front` is B1 at full strength."""
    m = start(GAME, **{**DUEL, "pieces": {**DUEL["pieces"], "B1": {"at": "0503", "face": "back"}}})
    assert (m.state.pieces["B1"].steps, m.state.pieces["B1"].face) == (1, "back")
    hit = start(GAME, **DUEL, forced=[force("5.3 combat", 6)])
    answer(hit, "0504", "B1")                   # 5.4 A1: B1 loses a step
    assert (hit.state.pieces["B1"].steps, hit.state.pieces["B1"].face) == (1, "back")
    whole = start(GAME, **{**DUEL, "pieces": {**DUEL["pieces"], "B1": {"at": "0503",
                                                                       "face": "front"}}})
    assert (whole.state.pieces["B1"].steps, whole.state.pieces["B1"].face) == (2, "front")


def test_face_back_of_a_two_step_bonins_us_unit_is_its_reduced_status_2_3() -> None:
    """2.3 (Iwo: Bloodbath in the Bonins): a two-step US unit's back is its reduced side:
    `face: back` gives the same match as `status: {reduced: true}`."""
    bonins = load_game("iwo_bonins")
    at: dict[str, Any] = {"scenario": "solitaire", "start": "us_combat_2", "turn": 6,
                          "vars": {"beachhead": "east"}, "clear": ["Japan"]}
    by_face = start(bonins, **at, pieces={"3/26": {"at": "2613", "face": "back"}})
    by_status = start(bonins, **at, pieces={"3/26": {"at": "2613", "status": {"reduced": True}}})
    assert (by_face.state.pieces["3/26"].steps, by_face.state.pieces["3/26"].face) == (1, "back")
    assert by_face.state_hash() == by_status.state_hash()


@pytest.mark.parametrize(("game_id", "fields", "pid", "told"), [
    ("iwo_valor", {"scenario": "campaign", "start": "movement", "turn": 2}, "A/1/23/4",
     "give steps: N for the steps it has left (at most 3)"),
    ("iwo_valor", {"scenario": "campaign", "start": "movement", "turn": 2}, "HQ/4",
     "the status its back shows (iwo_valor: disrupted, revealed, fatigue, independent, landed, class1)"),
    ("iwo_bonins", {"scenario": "solitaire"}, "309",
     "the status its back shows (iwo_bonins: dug_in, reduced)"),
    ("manila45", {}, "j-nf-2p", "the status its back shows (manila45: revealed, pontoon)"),
])
def test_face_back_is_refused_where_the_back_is_not_the_reduced_side(
        game_id: str, fields: dict[str, Any], pid: str, told: str) -> None:
    """A counter whose back is not its reduced side (Valor's companies lose steps with no
    back printed; an HQ's back is disrupted, a hidden unit's its fortification or face-down
    side) refuses `face: back` in one line saying what to give instead."""
    with pytest.raises(PositionError) as refused:
        start(load_game(game_id), **fields, pieces={pid: {"face": "back"}})
    message = str(refused.value)
    assert message.startswith(f"position: pieces.{pid}.face: piece {pid}'s back is not its "
                              "reduced side") and told in message and "\n" not in message


BOXES = [("iwo_bonins", "solitaire", "US"), ("iwo_1945", None, "Japan"),
         ("iwo_valor", "campaign", "US"), ("manila45", None, "US"), ("manila45", None, "Japan")]


@pytest.mark.parametrize(("game_id", "scenario", "side"), BOXES)
def test_clear_takes_a_side_off_the_map_and_out_of_every_box(
        game_id: str, scenario: str | None, side: str) -> None:
    """`clear: [SIDE]` takes every piece of the side that the position does not list out of
    play, wherever it stands: on the map and in the off-map boxes (reserves, reinforcements,
    pools) alike; `clear_map: [SIDE]` only those on the map, the boxes keeping theirs."""
    game = load_game(game_id)
    ref = start(game, scenario=scenario)
    board = game.board(ref)
    boxed = {p.id: p.location for p in ref.state.pieces
             if p.side == side and p.location not in board and p.location != OFF_BOARD}
    assert boxed, f"{game_id}: no {side} piece in a box at set-up to test with"
    kept = next(iter(boxed))
    cleared = start(game, scenario=scenario, clear=[side], pieces={kept: {}})
    assert [p.id for p in cleared.state.pieces
            if p.side == side and p.location != OFF_BOARD] == [kept]
    on_map = start(game, scenario=scenario, clear_map=[side])
    assert not [p.id for p in on_map.state.pieces if p.side == side and p.location in board]
    assert {pid: on_map.state.pieces[pid].location for pid in boxed} == boxed


def test_clear_names_a_side_or_a_kind_of_the_game() -> None:
    """A `clear` or `clear_map` entry that is no side or kind is refused naming both lists;
    `clear_map` in a game with no map says to use `clear`."""
    from .piggame import GAME as PIG

    for field in ("clear", "clear_map"):
        with pytest.raises(PositionError, match=rf"position: {field}\.0: skirmish has no side or "
                                                r"piece kind 'Green' \(sides: Blue, Red; kinds"):
            named: dict[str, Any] = {field: ["Green"]}
            start(GAME, **named)
    assert start(PIG, clear=["A"]).state.pieces["token:A"].location == OFF_BOARD
    with pytest.raises(PositionError, match=r"^position: clear_map\.0: pig has no map to clear "
                                            r"apart from its boxes: use clear$"):
        start(PIG, clear_map=["A"])


# -- files, errors, records -----------------------------------------------------------------

def write(tmp_path: Path, text: str, name: str = "pos.yaml") -> Path:
    """Write a position file."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """\
game: skirmish
start: blue_combat
turn: 2
pieces:
  B1: {at: "0503"}
  R1: {at: "0504", hidden: false}
dice:
  - {roll: "5.3 combat", faces: [6]}
"""


def test_play_from_a_position_file_saves_and_replays(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    """`tabletop play GAME --position FILE`: the match starts from the file, its record
    carries the position and the forced dice, and `tabletop replay` verifies it."""
    pos = write(tmp_path, GOOD)
    save = tmp_path / "s.json"
    game = str(ROOT / "docs" / "example" / "skirmish")
    assert main(["play", game, "--position", str(pos), "--auto", "--save", str(save), "--json"]) == 0
    record = json.loads(save.read_text())
    assert record["header"]["position"]["start"] == "blue_combat"
    assert record["header"]["position"]["dice"] == [{"roll": "5.3 combat", "faces": [6]}]
    capsys.readouterr()
    assert main(["replay", str(save), "--game-dir", game]) == 0
    assert "replay verified" in capsys.readouterr().out


@pytest.mark.parametrize(("change", "message"), [
    ('B1: {at: "0503"}', None),
    ('B1: {at: "9999"}', "pos.yaml: pieces.B1.at: piece B1: no place '9999' in skirmish"),
    ('B9: {at: "0503"}', "pos.yaml: pieces.B9: no piece 'B9' in skirmish"),
    ('B1: {at: "0503", steps: 3}', "pos.yaml: pieces.B1.steps: piece B1 has at most 2 step(s)"),
    ('B1: {at: "0503", face: back, steps: 2}', "pos.yaml: pieces.B1.face: piece B1's back is "
                                               "its reduced side, but steps 2 is its full strength"),
    ('B1: {at: "0503", face: front, steps: 1}', "pos.yaml: pieces.B1.face: piece B1's front is "
                                                "its full-strength side (2 steps), not 1 step(s)"),
    ('B4: {face: back}', "pos.yaml: pieces.B4.face: piece B4's back is not its reduced side "
                         "(its counter prints no back)"),
    ('B1: {at: "0503", status: {dug_in: true}}', "pos.yaml: pieces.B1.status.dug_in: piece B1: "
                                                 "skirmish has no piece status 'dug_in'"),
    ('B1: {at: "0503", colour: red}', "pos.yaml: pieces.B1.colour: Extra inputs"),
    ('B1: [', "pos.yaml: not valid YAML"),
])
def test_bad_position_files_get_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         change: str, message: str | None) -> None:
    """A bad position file: one line naming the file, the path inside it and the piece; a
    non-zero exit; no traceback."""
    pos = write(tmp_path, GOOD.replace('B1: {at: "0503"}', change))
    game = str(ROOT / "docs" / "example" / "skirmish")
    code = main(["play", game, "--position", str(pos), "--auto", "--json"])
    err = capsys.readouterr().err
    if message is None:
        assert code == 0
        return
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert message in err


def test_a_whole_state_with_changes_beside_it_is_refused(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    """A position's `state` is the whole state: pieces, clears, vars, tracks or decks beside
    it would be ignored, so the file is refused in one line instead."""
    pos = write(tmp_path, GOOD + "state: {}\nclear: [Red]\n")
    assert main(["play", str(ROOT / "docs" / "example" / "skirmish"), "--position", str(pos),
                 "--auto"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{pos}: (top level): a whole state is given with pieces, " \
        "clear: put those changes in the state, or give changes without a state" in err[0]


def test_a_position_for_another_game_or_entry_is_refused(tmp_path: Path) -> None:
    """A position names its game and an entry point the game declares."""
    with pytest.raises(TabletopError, match="is for game 'iwo_1945'"):
        Match.from_position(GAME, Position(game="iwo_1945"))
    with pytest.raises(PositionError, match=r"start: skirmish cannot start at 'melee' "
                                            r"\(entry points: start, blue_move"):
        start(GAME, start="melee")
    with pytest.raises(PositionError, match=r"vars\.morale: skirmish has no variable 'morale'"):
        start(GAME, vars={"morale": 3})
    with pytest.raises(DataError, match="turn"):
        load_position(write(tmp_path, "game: skirmish\nturn: soon\n"))


def test_the_off_board_place_takes_pieces_out_of_play() -> None:
    """Pieces: the neutral off-board place; a position's `clear` and `off_board` use it."""
    m = start(GAME, **DUEL, clear=["Red"], off_board=["B2"])
    assert m.state.pieces["R2"].location == OFF_BOARD and m.state.pieces["B2"].location == OFF_BOARD
    assert m.state.pieces["R1"].location == "0504"  # listed, so kept
    m.state.pieces.take_out_of_play("B3")
    assert m.state.pieces["B3"].location == OFF_BOARD


# -- editing a running match -----------------------------------------------------------------

def test_an_edit_recomputes_the_pending_decision_2_0() -> None:
    """2.0, 5.1: an edit at the start of a phase restarts the phase from the edited state, so
    the decision offered is the edited position's, and the match still replays."""
    m = start(GAME, **DUEL)
    assert m.pending is not None and m.pending.values == ["0504", "done"]
    with m.edit() as state:
        state.pieces.move("R1", "0806")
    # nothing left to attack: the Blue combat phase asks nothing and Red moves (2.3)
    assert m.pending is not None and m.pending.player == "Red" and m.state.phase == "red_move"
    assert m.state.pieces["R1"].location == "0806"
    again = replay(GAME, json.loads(json.dumps(make_record(m))))
    assert again.state_hash() == m.state_hash()
    assert make_record(m)["header"]["edited_from"]["decisions"] == []


def test_an_edit_after_a_decision_of_the_phase_is_refused_5_1() -> None:
    """5.1: once a decision of the phase is taken, an edit would replay it: refused, and the
    match is left as it was."""
    m = start(GAME, **{**DUEL, "pieces": {**DUEL["pieces"], "B2": {"at": "0603"}}})
    answer(m, "0504")
    before = m.state_hash()
    with pytest.raises(TabletopError, match="a decision was taken"), m.edit() as state:
        state.pieces.move("R1", "0806")
    assert m.state_hash() == before and m.state.pieces["R1"].location == "0504"


def test_an_inconsistent_edit_is_refused_5_4() -> None:
    """5.4: an edit that leaves a unit's face and steps disagreeing is refused whole."""
    m = start(GAME, **DUEL)
    before = m.state_hash()
    with pytest.raises(PositionError, match="B1 has 2 step"), m.edit() as state:
        state.pieces["B1"].face = "back"
    assert m.state_hash() == before and m.pending is not None


@pytest.mark.parametrize("path", sorted([*(ROOT / "docs" / "positions").glob("*.yaml"),
                                         *(ROOT / "docs" / "example").rglob("positions/*.yaml")]))
def test_shipped_positions_play_and_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           path: Path) -> None:
    """`tabletop play GAME --position FILE` for every playable game: the documented position
    files play to the end with bots, and their saves replay and resume."""
    position = load_position(path)
    example = ROOT / "docs" / "example" / position.game
    game = str(example) if example.is_dir() else position.game
    save = tmp_path / "s.json"
    assert main(["play", game, "--position", str(path), "--auto", "--seed", "3",
                 "--save", str(save), "--json"]) == 0
    dirs = ["--game-dir", game] if example.is_dir() else []
    assert main(["replay", str(save), *dirs]) == 0
    assert main(["resume", str(save), "--auto", "--json", *dirs]) == 0
    capsys.readouterr()


def test_a_sides_save_carries_no_position_nor_forced_dice() -> None:
    """4.1 (hidden Red units): a side's save never carries the position (it places hidden
    units), the forced dice or an edited match's origin; the game master's record does."""
    from tabletop.core.engine.views import make_side_save

    m = start(GAME, start="blue_combat", turn=2, pieces={"R1": {"at": "0504"}},
              forced=[force("5.3 combat", 6)])
    with m.edit() as state:
        state.pieces.move("B1", "0503")
    header = make_side_save(m, "Blue")["header"]
    assert isinstance(header, dict)
    assert not {"position", "forced_dice", "edited_from", "seed"} & set(header)
    record = make_record(m)["header"]
    assert {"position", "edited_from"} <= set(record)
    assert record["forced_dice"] == [{"roll": "5.3 combat", "faces": [6]}]  # still to come


def test_a_variable_keeps_its_type() -> None:
    """A position's variable has the type it has at set-up (a number stays a number), so a
    typo is refused by the position, not met later by a rule."""
    with pytest.raises(PositionError, match=r"vars\.lost\.Blue: expected a number"):
        start(GAME, vars={"lost": {"Blue": "two"}})
    m = start(GAME, vars={"lost": {"Blue": 2}})
    assert m.state.vars["lost"] == {"Blue": 2, "Red": 0}  # dicts merge


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40), data=st.data())
def test_an_edit_is_recomputed_or_refused_never_stale(seed: int, steps: int,
                                                      data: st.DataObject) -> None:
    """2.0: at any point of a random game, an edit (a unit moved to a free hex) is either
    refused with the match untouched, or accepted with the pending decision the edited
    position gives (the same as a fresh match from that position), every option of which is
    accepted."""
    import random

    m = Match(GAME, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if m.pending is None:
            break
        m.decide_index(rng.randrange(len(m.pending.options)))
    if m.pending is None:
        return
    units = [p.id for p in m.state.pieces if p.location != "box:eliminated"]
    unit = data.draw(st.sampled_from(units))
    places, board = GAME.places(m), vars(GAME)["map"]  # the example game's places and HexMap
    assert places is not None and isinstance(board, HexMap)
    free = sorted(h for h in places if h != "box:eliminated"
                  and not m.state.pieces.at(h) and not board.is_prohibited(board.hex(h)))
    dest = data.draw(st.sampled_from(free))
    before, pending = m.state_hash(), m.pending
    try:
        with m.edit() as state:
            state.pieces.move(unit, dest)
    except TabletopError:
        assert m.state_hash() == before and m.pending is pending
        return
    assert m.position is not None and m.position.state is not None  # starts from the edit
    fresh = m.restart()
    assert fresh.pending == m.pending and fresh.state_hash() == m.state_hash()
    for index in range(len(m.pending.options) if m.pending else 0):
        trial = m.restart()
        trial.decide_index(index)
