"""Data files, positions and YAML are bounded and checked before anything trusts them.

A YAML or JSON text is refused before it is built when it would expand beyond the bounds
(aliases, nesting, size); a position is refused when it sets what the game cannot hold (a
unit with no step on the map, a turn or seed out of range, a face no die shows); a game's
data is cross-checked, and its opening set-up checked, by ``play`` exactly as by
``validate``, each refusal one line naming the file.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.engine import data
from tabletop.core.engine.data import YAML_LOADERS, read_data_file
from tabletop.core.engine.errors import DataError
from tabletop.core.engine.match import Match
from tabletop.core.engine.position import SEED_LIMIT, Position, PositionError, load_position
from tabletop.core.engine.registry import load_game

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = ROOT / "docs" / "example" / "skirmish"


def _laughs(levels: int, start: str = "game: skirmish\nstart: blue_move\n") -> str:
    """A "billion laughs": each anchor a list of nine aliases of the one before."""
    lines = [start.rstrip("\n"), "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for n in range(1, levels):
        lines.append(f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]")
    return "\n".join(lines) + "\n"


def _error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run the command line; it must refuse in one line with exit 2 (never 3, 'internal')."""
    from tabletop.core.frontends.cli import main

    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert "internal error" not in err
    return err


# -- YAML and JSON bounds -------------------------------------------------------------------

@pytest.fixture(params=sorted(YAML_LOADERS))
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each YAML parser in turn (libyaml's and the pure-Python one)."""
    monkeypatch.setattr(data, "_LOADER", YAML_LOADERS[request.param])
    return str(request.param)


def test_an_alias_bomb_is_refused_before_it_is_expanded(tmp_path: Path, parser: str) -> None:
    """Seven levels of nine aliases (9**7, some 4.8 million strings, from 300 bytes) are
    refused by counting, not built nor written to the parse cache."""
    path = tmp_path / "laughs.yaml"
    path.write_text(_laughs(7))
    with pytest.raises(DataError) as err:
        read_data_file(path)
    assert str(err.value).startswith(f"{path}: refused before reading it: more than 1000000 "
                                     "values once its aliases are expanded")


def test_the_alias_bomb_is_refused_by_validate_and_play_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A billion laughs (9**8 strings from 400 bytes; one more level once held ``play
    --position`` for minutes and gigabytes): one line naming the file, for ``validate`` and
    ``play`` alike, with the parse cache on."""
    path = tmp_path / "laughs.yaml"
    path.write_text(_laughs(8))
    for args in (["validate", str(path), "--game", str(SKIRMISH)],
                 ["play", str(SKIRMISH), "--position", str(path), "--auto"]):
        err = _error(capsys, *args)
        assert f"{path}: refused before reading it: more than 1000000 values" in err


def test_nesting_deeper_than_the_bound_is_refused(tmp_path: Path, parser: str) -> None:
    """Lists nested deeper than MAX_DEPTH, directly or through an alias, are refused; as deep
    as the bound is read."""
    deep = tmp_path / "deep.yaml"
    deep.write_text("a: " + "[" * (data.MAX_DEPTH + 5) + "]" * (data.MAX_DEPTH + 5) + "\n")
    with pytest.raises(DataError, match="nest more than"):
        read_data_file(deep)
    half = data.MAX_DEPTH // 2 + 2
    aliased = tmp_path / "aliased.yaml"
    aliased.write_text(f"a: &a {'[' * half}1{']' * half}\nb: {'[' * half}*a{']' * half}\n")
    with pytest.raises(DataError, match="nest more than"):
        read_data_file(aliased)
    ok = tmp_path / "ok.yaml"
    ok.write_text("a: " + "[" * (data.MAX_DEPTH - 1) + "]" * (data.MAX_DEPTH - 1) + "\n")
    assert read_data_file(ok)["a"] is not None


@pytest.mark.parametrize("text", ["game: skirmish\nstart: blue_move\nvars: &a {lost: *a}\n",
                                  "game: skirmish\nstart: blue_move\noff_board: &a [B1, *a]\n"])
def test_a_recursive_alias_is_one_clear_refusal(tmp_path: Path, parser: str, text: str) -> None:
    """An alias inside the node it names would build a cycle: refused, naming the file."""
    path = tmp_path / "cycle.yaml"
    path.write_text(text)
    with pytest.raises(DataError) as err:
        load_position(path)
    assert str(err.value).startswith(f"{path}: ") and "recursive alias" in str(err.value)


def test_a_file_not_in_utf8_is_one_clear_refusal(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A Latin-1 byte: one line naming the file, the byte and its line, for validate too."""
    path = tmp_path / "latin.yaml"
    path.write_bytes("game: skirmish\nstart: blue_move\ndescription: caf\xe9\n".encode("latin-1"))
    with pytest.raises(DataError) as err:
        read_data_file(path)
    assert str(err.value) == (f"{path}: not UTF-8 text: byte 0xe9 on line 3; save the file as "
                              "UTF-8")
    assert "UTF-8" in _error(capsys, "validate", str(path), "--game", str(SKIRMISH))


def test_deeply_nested_json_is_one_clear_refusal(tmp_path: Path) -> None:
    """JSON has no aliases, but nesting as deep as Python's recursion limit is refused too."""
    for depth in (data.MAX_DEPTH + 1, 100_000):
        path = tmp_path / f"deep{depth}.json"
        path.write_text("[" * depth + "]" * depth)
        with pytest.raises(DataError, match="nest more than"):
            read_data_file(path)


def test_a_file_larger_than_the_bound_is_refused_unread(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A data file past MAX_BYTES is refused before it is parsed."""
    monkeypatch.setattr(data, "MAX_BYTES", 1000)
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * 2000 + "\n")
    with pytest.raises(DataError, match="refused: larger than"):
        read_data_file(path)


# -- positions -------------------------------------------------------------------------------

def _on_map_piece(game_id: str) -> tuple[str, str | None]:
    """A unit standing on the map (a hex or an area) in the game's first scenario, else one
    set up off it with a hex to put it on."""
    game = load_game(game_id)
    match = Match(game, seed=0)
    board = game.board(match)
    units = [p for p in match.state.pieces if p.side and p.max_steps >= 1]
    on_map = [p.id for p in units if p.location in board]
    return (on_map[0], None) if on_map else (units[0].id, "3821")


@pytest.mark.parametrize("game_id", ["iwo_bonins", "iwo_1945", "manila45", "iwo_valor"])
def test_a_unit_with_no_step_on_the_map_is_refused(game_id: str) -> None:
    """A unit that has lost its last step is eliminated: a position leaving it on the map
    is inconsistent, in every game."""
    pid, at = _on_map_piece(game_id)
    placed = {"steps": 0, **({"at": at} if at else {})}
    position = Position.build(game_id, pieces={pid: placed})
    with pytest.raises(PositionError) as err:
        Match.from_position(load_game(game_id), position, source="pos.yaml")
    assert str(err.value).startswith("pos.yaml: inconsistent position: ")
    assert pid in str(err.value)


@pytest.mark.parametrize("turn, message", [(-3, "turn: Input should be greater than or equal"),
                                           (1_000_000, "turn: 1000000 is not a turn of")])
@pytest.mark.parametrize("game_id", ["skirmish", "iwo_bonins", "manila45"])
def test_a_turn_off_the_game_s_turn_track_is_refused(tmp_path: Path, game_id: str, turn: int,
                                                     message: str) -> None:
    """A position's turn lies between 0 (before the first, as a set-up may be: Manila's turn
    track starts at 1) and the game's last turn, both accepted."""
    game = load_game(str(SKIRMISH) if game_id == "skirmish" else game_id)
    path = tmp_path / "pos.yaml"
    path.write_text(f"game: {game_id}\nturn: {turn}\npieces: {{}}\n")
    with pytest.raises(DataError) as err:
        Match.from_position(game, load_position(path), source=str(path))
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value)
    last = game.turn_limits(Match(game, seed=0))[1]
    for ok in (0, last):
        Match.from_position(game, Position.build(game, turn=ok))


def test_the_skirmish_last_turn_follows_its_turns_option(tmp_path: Path) -> None:
    """2.0: the last turn is the ``turns`` option's: turn 8 is a turn of an 8-turn game only."""
    game = load_game(str(SKIRMISH))
    eight = Position.build(game, start="blue_move", turn=8, options={"turns": 8})
    assert Match.from_position(game, eight).pending is not None
    with pytest.raises(PositionError, match="turns 0 to 6"):
        Match.from_position(game, Position.build(game, start="blue_move", turn=8))


@pytest.mark.parametrize("seed", [-1, 2**70, SEED_LIMIT])
def test_a_seed_out_of_the_command_line_s_range_is_refused(tmp_path: Path, seed: int) -> None:
    """A position's seed obeys the bounds of ``--seed``: 0 to 2**63 - 1."""
    from tabletop.core.frontends.cli import SEED_LIMIT as CLI_SEED_LIMIT

    assert SEED_LIMIT == CLI_SEED_LIMIT
    path = tmp_path / "pos.yaml"
    path.write_text(f"game: skirmish\nseed: {seed}\npieces: {{}}\n")
    with pytest.raises(DataError) as err:
        load_position(path)
    assert str(err.value).startswith(f"{path}: seed: ")
    assert load_position_ok(tmp_path, SEED_LIMIT - 1).seed == SEED_LIMIT - 1


def load_position_ok(tmp_path: Path, seed: int) -> Position:
    """A position with this seed, read from a file."""
    path = tmp_path / "ok.yaml"
    path.write_text(f"game: skirmish\nseed: {seed}\npieces: {{}}\n")
    return load_position(path)


@pytest.mark.parametrize("roll", ["9.9 a roll that never comes up", "5.3 combat"])
def test_a_forced_face_no_die_shows_is_refused_whatever_the_roll(roll: str) -> None:
    """A face 7 on the game's six-sided dice is refused when the match opens, whether or not
    a roll of that purpose ever comes up (it used to wait there, unused and unsaid)."""
    game = load_game(str(SKIRMISH))
    position = Position.build(game, start="blue_combat", turn=2,
                              dice=[{"roll": roll, "faces": [3, 7]}])
    with pytest.raises(PositionError) as err:
        Match.from_position(game, position, source="pos.yaml")
    assert str(err.value) == ("pos.yaml: dice.0.faces.1: 7 is not a face of skirmish's dice "
                              "(1 to 6)")


def test_a_roll_to_choose_among_more_than_six_may_be_forced_above_six() -> None:
    """A roll "to choose among equals" of more than six candidates rolls a die of as many
    faces (Bonins 15.3's blind draw among the face-down units), so a position may force a
    face above 6 for it; a face below 1 is still refused."""
    game = load_game("iwo_bonins")
    ok = Position.build(game, start="jp_move", turn=2,
                        dice=[{"roll": "15.3 blind draw", "faces": [9]}])
    match = Match.from_position(game, ok, source="pos.yaml")
    assert match.pending is not None or match.finished
    bad = Position.build(game, start="jp_move", turn=2,
                         dice=[{"roll": "15.3 blind draw", "faces": [0]}])
    with pytest.raises(PositionError) as err:
        Match.from_position(game, bad, source="pos.yaml")
    assert str(err.value) == ("pos.yaml: dice.0.faces.0: 0 is not a face of iwo_bonins's dice "
                              "(1 or more)")


# -- game data: validate and play run the same checks ---------------------------------------

def _skirmish_copy(tmp_path: Path, file: str, edits: tuple[tuple[str, str], ...]) -> Path:
    """A copy of the example game with each ``(old, new)`` edit made in one data file (every
    occurrence of ``old``)."""
    target = tmp_path / f"sk_{tmp_path.name}"  # a fresh module name: never the one imported
    shutil.copytree(SKIRMISH, target, ignore=shutil.ignore_patterns("__pycache__"))
    f = target / "data" / file
    text = f.read_text()
    for old, new in edits:
        assert old in text, (file, old)
        text = text.replace(old, new)
    f.write_text(text)
    return target


BROKEN_DATA = [
    # (file, edits, what the one-line error says)
    ("map.yaml", (("features: [objective]", "features: []"),),
     "map.yaml: hexes: no hex has the objective feature"),
    ("map.yaml", (('boxes:\n  - {id: "box:eliminated", name: Eliminated units}\n', ""),),
     "map.yaml: boxes: no box 'box:eliminated'"),
    ("units.yaml", (("side: Red, kind: infantry, name: 1st Co",
                     "side: Green, kind: infantry, name: 1st Co"),),
     "units.yaml: 4.side: 'Green' is not a side (Blue, Red)"),
    ("units.yaml", (("side: Red", "side: Blue"),), "units.yaml: (top level): side Red has no unit"),
    ("sequence.yaml", (('section: "2.3", player: Red', 'section: "2.3", player: Green'),),
     "sequence.yaml: phases.2.player: phase red_move is played by 'Green'"),
    ("units.yaml", (('hex: "0504"', 'hex: "0507"'),),
     "units.yaml: 4.hex: unit R1 (infantry) may not stand on 0507 (lake"),
    ("units.yaml", (('hex: "0104"', 'hex: "0102"'), ('hex: "0106"', 'hex: "0102"')),
     "units.yaml: 2.hex: unit B3 overstacks 0102 (kit.yaml stacking: at most 2"),
    ("units.yaml", (('hex: "0504"', 'hex: "0203"'),),
     "units.yaml: 4.hex: unit R1 sets up on 0203 with the enemy's B4"),
]


@pytest.mark.parametrize("file, edits, message", BROKEN_DATA)
def test_validate_and_play_refuse_the_same_broken_data_naming_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], file: str,
        edits: tuple[tuple[str, str], ...], message: str) -> None:
    """What ``validate`` refuses, ``play`` refuses before the first decision, with the same
    line naming the data file: no objective hex (which once was an internal error), no
    eliminated box, a unit of no side, a side with no unit, a phase played by no side, a
    unit on a lake, overstacking, both sides in one hex."""
    folder = _skirmish_copy(tmp_path, file, edits)
    checked = _error(capsys, "validate", str(folder))
    played = _error(capsys, "play", str(folder), "--auto", "--seed", "1")
    assert message in checked, checked
    assert message in played, played


def test_the_data_checks_run_before_the_set_up(tmp_path: Path) -> None:
    """Broken data is refused by name before the game's set-up runs, so a set-up that would
    trip over it never gets the chance to fail with an internal error."""
    folder = _skirmish_copy(tmp_path, "sequence.yaml",
                            (('section: "2.3", player: Red', 'section: "2.3", player: Green'),))
    game = load_game(str(folder))
    ran: list[str] = []
    game.setup = lambda match: ran.append("set-up")  # type: ignore[method-assign]
    with pytest.raises(DataError, match="phase red_move is played by 'Green'"):
        Match(game, seed=1)
    assert ran == []


def test_a_section_listed_twice_is_refused_by_validate(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """sections.yaml (the rulebook's list, for ``tabletop rules``) names each section once."""
    folder = _skirmish_copy(tmp_path, "sections.yaml",
                            (('{id: "1.2", title: "The units"}', '{id: "1.1", title: "The units"}'),))
    assert "sections.yaml: sections.2.id: id '1.1' is used again" in _error(
        capsys, "validate", str(folder))


def test_an_empty_unit_list_is_refused_naming_the_file(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """units.yaml with no unit at all."""
    folder = tmp_path / f"sk_{tmp_path.name}"
    shutil.copytree(SKIRMISH, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "data" / "units.yaml").write_text("[]\n")
    for args in (["validate", str(folder)], ["play", str(folder), "--auto", "--seed", "1"]):
        assert "units.yaml: (top level): Tuple should have at least 1 item" in _error(capsys, *args)


def _crowded(match: Match) -> None:
    for piece in list(match.state.pieces):
        match.state.pieces.move(piece.id, "0101")


def _green(match: Match) -> None:
    from tabletop.core.engine.pieces import Piece

    match.state.pieces.add(Piece("G1", "infantry", "Green", "Greens", "0908"))


def _no_red(match: Match) -> None:
    from tabletop.core.engine.state import State

    kept = State()
    for piece in match.state.pieces:
        if piece.side != "Red":
            kept.pieces.add(piece)
    match.state.pieces = kept.pieces


@pytest.mark.parametrize("change, broken", [
    (_crowded, "3.3: 0101 is overstacked"),
    (_green, "piece G1 is of side 'Green', not one of Blue, Red"),
    (_no_red, "side Red has no piece"),
])
def test_play_checks_the_opening_set_up_as_validate_does(change: Any, broken: str) -> None:
    """A set-up that breaks the game's invariants, or has a piece of no side of the game, or
    a side with no piece, is refused when the match opens (the core's check, whatever the
    game's own loader checks), naming the game's data and the scenario."""
    game = load_game(str(SKIRMISH))

    class Changed(type(game)):  # type: ignore[misc]
        """The example game with its set-up changed after the fact."""

        def setup(self, match: Match) -> None:
            super().setup(match)
            change(match)

    with pytest.raises(DataError) as err:
        Match(Changed(), seed=0)
    # the game's data folder (a variant of a kit game reads its game's data) and the scenario
    assert str(err.value).startswith(f"{SKIRMISH / 'data'}: scenario standard: the set-up breaks ")
    assert broken in str(err.value)


def test_the_data_checks_run_once_per_game_object() -> None:
    """The cross-checks are kept on the game with its data's fingerprint: a second match does
    not run them again."""
    game = load_game(str(SKIRMISH))
    game.checked_data = None
    calls: list[int] = []
    original = game.load_data

    def counted() -> str:
        calls.append(1)
        return original()

    game.load_data = counted  # type: ignore[method-assign]
    Match(game, seed=0)
    Match(game, seed=1)
    assert calls == [1]
    assert game.checked_data is not None and len(game.checked_data[0]) == 64
