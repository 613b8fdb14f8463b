"""Records are data from anywhere: what one names is never imported, what one states is
verified field by field, and a malformed one is one clear refusal (never an internal error)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tabletop.core.engine.errors import ReplayDivergence, SaveError, UnknownGame
from tabletop.core.engine.match import Match
from tabletop.core.engine.record import (
    loads_record,
    make_record,
    make_save,
    read_record,
    replay,
)
from tabletop.core.engine.registry import game_for_record, load_game
from tabletop.core.frontends.cli import main

from .game_dirs import SKIRMISH, pig_dir
from .piggame import GAME, SECRET

PIG = "tests.core.piggame:GAME"

EVIL = '''\
from pathlib import Path
Path(__file__).with_name("ran.txt").write_text("imported")
GAME = None
'''


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def pig_match(decisions: list[str], *, seed: int = 5, **kwargs: Any) -> Match:
    """A Pig match with these answers taken."""
    match = Match(GAME, seed=seed, **kwargs)
    for value in decisions:
        match.decide(value)
    return match


def finished_pig(seed: int = 5) -> Match:
    """A whole Pig match: each side rolls twice then holds."""
    match = Match(GAME, seed=seed)
    while match.pending is not None:
        rolls = sum(1 for e in match.log if e.kind in ("roll", "bust")) % 3
        match.decide("roll" if rolls < 2 else "hold")
    return match


def write(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def copied(record: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(record))  # type: ignore[no-any-return]


def plant_evil_module(folder: Path) -> Path:
    """A module ``evil_mod`` (and a package ``evil_pkg``) in ``folder`` that leave a file
    ``ran.txt`` behind when imported; returns where that file would be."""
    (folder / "evil_mod.py").write_text(EVIL, encoding="utf-8")
    (folder / "evil_pkg").mkdir()
    (folder / "evil_pkg" / "__init__.py").write_text(EVIL, encoding="utf-8")
    return folder / "ran.txt"


# -- what a record names is never imported ------------------------------------------------

@pytest.mark.parametrize("header", [
    {"source": "evil_mod:GAME"},
    {"game": "evil_mod:GAME"},
    {"game": "evil_pkg"},
    {"source": "evil_pkg"},
], ids=["source-module", "game-module", "game-folder", "source-folder"])
@pytest.mark.parametrize("command", ["replay", "resume", "render"])
def test_a_record_naming_a_module_or_folder_runs_none_of_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        header: dict[str, str], command: str) -> None:
    """A downloaded save beside a downloaded ``.py`` (or package): replaying, resuming or
    drawing it imports nothing the record names; it is refused in one line that says to pass
    --game-dir."""
    ran = plant_evil_module(tmp_path)
    record = make_save(pig_match(["roll", "hold"]))
    record["header"].update(header)
    save = write(tmp_path / "save.json", record)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    args = {"replay": ["replay", save], "resume": ["resume", save, "--auto"],
            "render": ["render", "--from", save, "-o", "-"]}[command]
    code, _, err = run(capsys, *args)
    assert not ran.exists(), "the record's module was imported"
    assert code == 2 and err.count("\n") == 1 and "--game-dir FOLDER" in err


def test_load_game_does_not_add_the_current_folder_to_the_import_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``module:attr`` is imported from the import path as it is: the current folder is not
    put on it (a person runs ``PYTHONPATH=.`` to name a module of the folder they are in)."""
    ran = plant_evil_module(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    with pytest.raises(UnknownGame, match="cannot import 'evil_mod'"):
        load_game("evil_mod:GAME")
    assert not ran.exists() and str(tmp_path) not in sys.path and "" not in sys.path


def test_a_typed_module_path_still_names_an_importable_game() -> None:
    """``tabletop play package.module:attr`` keeps working for a module on the import path."""
    assert load_game(PIG) is GAME


def test_a_record_finds_its_game_by_id_in_a_game_dir(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    """``--game-dir FOLDER`` names where a record's game may come from, matched by id: the
    right folder verifies, one with another game is named in the refusal."""
    save = write(tmp_path / "s.json", make_save(finished_pig()))
    code, out, _ = run(capsys, "replay", save, "--game-dir", SKIRMISH, "--game-dir", pig_dir(tmp_path))
    assert code == 0 and "replay verified" in out
    code, _, err = run(capsys, "replay", save, "--game-dir", SKIRMISH)
    assert code == 2 and err.count("\n") == 1
    assert "'pig'" in err and "'skirmish'" in err and "--game-dir FOLDER" in err
    code, _, err = run(capsys, "replay", save, "--game-dir", str(tmp_path))
    assert code == 2 and "not a game folder" in err


def test_game_for_record_looks_only_where_it_is_told() -> None:
    """The function servers use too: loaded games by id, then folders, then installed games."""
    header = make_record(pig_match([]))["header"]
    assert game_for_record(header, loaded=[GAME]) is GAME
    with pytest.raises(UnknownGame, match="--game-dir"):
        game_for_record(header)
    with pytest.raises(UnknownGame, match="--game-dir"):
        game_for_record({**header, "game": PIG})
    assert game_for_record({"game": "iwo_1945"}).info.id == "iwo_1945"
    with pytest.raises(SaveError):
        game_for_record({"game": 3})


def test_render_from_a_save_finds_the_game_itself(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    """``render --from SAVE`` needs no GAME: the save's game by id (with --game-dir)."""
    save = tmp_path / "s.json"
    assert run(capsys, "play", SKIRMISH, "--auto", "--seed", "2", "--save", str(save))[0] == 0
    code, out, _ = run(capsys, "render", "--from", str(save), "--game-dir", SKIRMISH, "-o", "-")
    assert code == 0 and out.strip()


# -- verification compares everything a record states -------------------------------------

def refused(record: dict[str, Any], fragment: str, game: Any = GAME) -> None:
    """The record is refused, the message naming ``fragment``."""
    with pytest.raises(ReplayDivergence, match=fragment):
        replay(game, record)


def test_an_untouched_record_and_save_verify() -> None:
    """What make_record and make_save write verifies (finished, unfinished, free undo)."""
    for match in (finished_pig(), pig_match(["roll", "roll"]),
                  pig_match(["roll"], free_undo=True)):
        for made in (make_record(match), make_save(match)):
            again = replay(GAME, copied(made))
            assert again.state_hash() == match.state_hash()


@pytest.mark.parametrize("change, fragment", [
    (lambda r: r["final"]["result"].update(winner="A" if r["final"]["result"]["winner"] == "B" else "B"),
     "final.result"),
    (lambda r: r["final"].update(finished=False), "final.finished"),
    (lambda r: r["final"].update(events=r["final"]["events"] + 1), "final.events"),
    (lambda r: r["final"].update(log_hash="0" * 64), "final.log_hash"),
    (lambda r: r["final"].update(state_hash="0" * 64), "final.state_hash"),
    (lambda r: r["final"].pop("header_digest"), "final.header_digest is missing"),
    (lambda r: r["final"].update(extra=1), "final.extra"),
    (lambda r: r.update(extra=1), "a field"),
    (lambda r: r["header"].update(options={}), "header.options"),
    (lambda r: r["header"].update(engine_version="0.0.9"), "header_digest"),
    (lambda r: r["header"].update(source="anything"), "header.source"),
    (lambda r: r["header"].update(game_version="9.9"), "version"),
], ids=["winner", "finished", "events", "log-hash", "state-hash", "no-digest", "final-extra",
        "top-extra", "partial-options", "engine", "source", "game-version"])
def test_a_changed_final_or_header_field_is_refused(change: Callable[[dict[str, Any]], Any],
                                                    fragment: str) -> None:
    """Every field of the final state and the header is compared with the replay: a winner
    changed, ``finished`` flipped, a count or hash edited, a field added or missing."""
    record = copied(make_record(finished_pig()))
    change(record)
    refused(record, fragment)


@pytest.mark.parametrize("change", ["winner", "finished", "decision"])
def test_replay_of_a_tampered_save_is_never_reported_verified(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path, change: str) -> None:
    """`tabletop replay`: a winner changed, ``finished`` flipped or a secret decision changed
    (the state alike) is exit 1 and one line naming the field, never "replay verified"."""
    if change == "decision":
        match = Match(SECRET, seed=4)
        for value in (1, "roll", "hold"):
            match.decide(value)
        folder = pig_dir(tmp_path, "SECRET")
    else:
        match, folder = finished_pig(), pig_dir(tmp_path)
    record = copied(make_save(match))
    if change == "winner":
        record["final"]["result"]["winner"] = "B" if record["final"]["result"]["winner"] == "A" else "A"
    elif change == "finished":
        record["final"]["finished"] = False
    else:
        record["decisions"][0] = 3
    code, out, err = run(capsys, "replay", write(tmp_path / "s.json", record), "--game-dir", folder)
    assert code == 1 and out == "" and err.count("\n") == 1 and "final." in err


def test_an_error_is_printed_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """The command line prints any error message on one line, its line breaks joined."""
    from tabletop.core.frontends.cli import _print_error

    assert _print_error("first\nsecond\r\n  third", 2) == 2
    assert capsys.readouterr().err == "error: first second third\n"


def test_an_invented_result_is_refused() -> None:
    """A result written into an unfinished match's record is refused."""
    record = copied(make_record(pig_match(["roll", "hold"])))
    record["final"]["result"] = {"winner": "A", "level": "win", "section": "1.3", "scores": {},
                                 "reason": ""}
    record["final"]["finished"] = True
    refused(record, "final.finished")


@pytest.mark.parametrize("undos", [0, 2])
def test_a_changed_count_of_free_undos_is_refused(undos: int) -> None:
    """``undos_past_chance`` counts the free undos past a roll: lowering it (or raising it)
    is refused, and a negative count is no record at all."""
    match = pig_match(["roll", "roll"], free_undo=True)
    match.undo(1)
    assert match.undos_past_chance == 1
    record = copied(make_record(match))
    assert replay(GAME, copied(record)).undos_past_chance == 1
    record["header"]["undos_past_chance"] = undos
    refused(record, "header_digest")
    record["header"]["undos_past_chance"] = -3
    with pytest.raises(SaveError, match="undos_past_chance"):
        replay(GAME, record)


def test_a_changed_decision_is_refused_even_where_the_state_agrees() -> None:
    """A secret choice that leaves the state as it was (only the log says it): changing it
    in the record leaves the final state hash equal, and is still refused."""
    match = Match(SECRET, seed=4)
    for value in (1, "roll", "hold"):
        match.decide(value)
    record = copied(make_record(match))
    record["decisions"][0] = 2
    forged = replay(SECRET, record, verify=False)
    assert forged.state_hash() == record["final"]["state_hash"]  # the state alone agrees
    refused(record, "final.decisions_digest", SECRET)


def test_a_decision_given_as_an_equal_value_of_another_type_is_refused() -> None:
    """The decisions a record states are compared as the match applied them (canonical
    JSON): ``2.0`` where the option was ``2`` is not the same record."""
    match = Match(SECRET, seed=4)
    match.decide(2)
    record = copied(make_record(match))
    record["decisions"][0] = 2.0
    refused(record, "decision 1 differs", SECRET)


def test_a_changed_dice_script_is_refused_even_where_the_rolls_agree() -> None:
    """The dice script is part of the header: faces changed after the last roll used (the
    same rolls, the same state) are refused, and so are changed faces that were rolled."""
    match = pig_match(["roll", "roll"], dice_script=[3, 4, 2, 2, 2, 2])
    record = copied(make_record(match))
    rolled = sum(1 for e in match.log if e.kind == "roll")
    tail = copied(record)
    tail["header"]["dice_script"][rolled:] = [6] * (6 - rolled)
    assert replay(GAME, tail, verify=False).state_hash() == match.state_hash()
    refused(tail, "header_digest")
    used = copied(record)
    used["header"]["dice_script"][0] = 6
    refused(used, "final")


def test_a_changed_option_is_refused_and_not_resumed(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    """A rule option changed in a save (the play so far the same under both) is refused by
    replay and by resume, which would otherwise play on under the forged option."""
    match = pig_match(["roll", "hold"])
    record = copied(make_save(match))
    record["header"]["options"]["target"] = 10
    assert replay(GAME, record, verify=False).state_hash() == match.state_hash()
    refused(record, "header_digest")
    save = write(tmp_path / "s.json", record)
    folder = pig_dir(tmp_path)
    code, _, err = run(capsys, "resume", save, "--auto", "--game-dir", folder)
    assert code == 1 and "header_digest" in err and err.count("\n") == 1
    record["header"]["options"]["target"] = 25
    code, _, err = run(capsys, "replay", write(tmp_path / "s.json", record), "--game-dir", folder)
    assert code == 1 and "option target=25 is not one of 10, 20, 30" in err


def test_a_snapshot_that_is_not_the_state_is_refused() -> None:
    """A save's snapshot is compared with the replayed state: a list, a changed state or a
    missing one is refused; a record (not a save) carries none."""
    match = pig_match(["roll", "hold"])
    save = copied(make_save(match))
    save["snapshot"] = [save["snapshot"]]
    with pytest.raises(SaveError, match="snapshot"):
        replay(GAME, save)
    save = copied(make_save(match))
    save["snapshot"]["decisions"] = 7
    refused(save, "snapshot differs")
    save = copied(make_save(match))
    del save["snapshot"]
    refused(save, "no snapshot")
    record = copied(make_record(match))
    record["snapshot"] = make_save(match)["snapshot"]
    refused(record, 'field "snapshot"')


def test_an_older_record_is_refused_unless_replayed_without_verification(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A record whose final state has only what older tabletops wrote (no event-log hash)
    cannot be verified: refused with the way to replay it anyway, which never says
    "verified"."""
    record = copied(make_save(finished_pig()))
    record["final"] = {k: record["final"][k] for k in ("state_hash", "events", "finished", "result")}
    record["header"]["source"] = PIG
    save = write(tmp_path / "old.json", record)
    folder = pig_dir(tmp_path)
    code, out, err = run(capsys, "replay", save, "--game-dir", folder)
    assert code == 1 and "older tabletop" in err and "--no-verify" in err and out == ""
    code, out, _ = run(capsys, "replay", save, "--game-dir", folder, "--no-verify")
    assert code == 0 and "without verification" in out and "verified:" not in out
    code, out, _ = run(capsys, "replay", save, "--game-dir", folder, "--no-verify", "--json")
    assert code == 0 and json.loads(out)["verified"] is False


# -- a malformed record is one clear refusal -----------------------------------------------

def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


MALFORMED: dict[str, Callable[[dict[str, Any]], Any]] = {
    "options-list": lambda r: r["header"].update(options=["landing_dice", 4]),
    "dice-script-text": lambda r: r["header"].update(dice_script="abc"),
    "dice-script-nested": lambda r: r["header"].update(dice_script=[[1, 2], [3]]),
    "decision-500-deep": lambda r: r["decisions"].__setitem__(0, _nested(500)),
    "seed-negative": lambda r: r["header"].update(seed=-1),
    "seed-too-big": lambda r: r["header"].update(seed=2**63),
    "seed-4000-digits": lambda r: r["header"].update(seed=int("9" * 4000)),
    "seed-true": lambda r: r["header"].update(seed=True),
    "header-list": lambda r: r.update(header=[r["header"]]),
    "decisions-object": lambda r: r.update(decisions={"0": r["decisions"][0]}),
    "final-list": lambda r: r.update(final=[r["final"]]),
    "scenario-number": lambda r: r["header"].update(scenario=3),
    "free-undo-text": lambda r: r["header"].update(free_undo="yes"),
    "position-list": lambda r: r["header"].update(position=[]),
    "forced-text": lambda r: r["header"].update(forced_dice="six"),
}


@pytest.fixture(scope="module")
def installed_save() -> dict[str, Any]:
    """A save of an installed game (found without --game-dir), a few decisions in."""
    match = Match(load_game("iwo_1945"), seed=3)
    for _ in range(4):
        assert match.pending is not None
        match.decide(match.pending.options[0].value)
    return make_save(match)


@pytest.mark.parametrize("name", sorted(MALFORMED))
@pytest.mark.parametrize("command", ["replay", "resume"])
def test_a_malformed_record_is_one_clear_refusal(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 installed_save: dict[str, Any], name: str,
                                                 command: str) -> None:
    """A wrong type or an out-of-range value anywhere in a record: one line, exit 2 (a
    refusal, not the internal-error exit 3), and the file left as it was."""
    record = copied(installed_save)
    MALFORMED[name](record)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    before = path.read_bytes()
    args = ["replay", str(path)] if command == "replay" else ["resume", str(path), "--auto"]
    code, out, err = run(capsys, *args)
    assert code == 2, err
    assert err.count("\n") == 1 and "internal error" not in err and out == ""
    assert path.read_bytes() == before


@pytest.mark.parametrize("text", [
    "[" * 5000 + "]" * 5000,
    '{"a":' * 100_000 + "0" + "}" * 100_000,
    '{"format": "tabletop-save/1", "header": {"game": "pig", "seed": ' + "7" * 5000 + "}}",
    '{"format": "tabletop-save/1", "decisions": ' + "[" * 20_000 + "]" * 20_000 + "}",
], ids=["lists-5000", "objects-100000", "seed-5000-digits", "decisions-20000"])
def test_deep_or_huge_json_is_refused_before_it_is_parsed(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path, text: str) -> None:
    """JSON nested thousands deep, or a number of thousands of digits, is refused in one
    line (exit 2) rather than running out of recursion or conversion."""
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SaveError):
        read_record(path)
    for args in (["replay", str(path)], ["resume", str(path)],
                 ["render", "--from", str(path), "-o", "-"]):
        code, _, err = run(capsys, *args)
        assert code == 2 and err.count("\n") == 1 and "internal error" not in err, args


def test_a_record_nesting_within_the_bound_still_reads() -> None:
    """The depth bound leaves room for real records: a game's state, a position."""
    record = make_save(finished_pig())
    assert loads_record(json.dumps(record))["final"] == record["final"]


# -- play's messages ----------------------------------------------------------------------

def test_play_shows_an_error_alone_without_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """`tabletop play GAME --scenario nope`: the error alone, no fresh seed printed first."""
    code, out, err = run(capsys, "play", PIG, "--scenario", "nope", "--auto")
    assert code == 2 and out == "" and "no scenario 'nope'" in err and err.count("\n") == 1
    code, out, _ = run(capsys, "play", PIG, "--auto")
    assert code == 0 and out.startswith("seed ")


def test_an_option_value_is_shown_as_the_player_types_it(capsys: pytest.CaptureFixture[str]) -> None:
    """A refused option value reads as typed after --option NAME= (``true``, not Python's
    ``True``), and so do its choices."""
    code, _, err = run(capsys, "play", PIG, "--auto", "--seed", "1", "--option", "target=true")
    assert code == 2 and "option target=true is not one of 10, 20, 30" in err
    assert "True" not in err
