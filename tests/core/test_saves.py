"""Kept games: every game a person starts has its own autosave; `tabletop resume` lists them
(without replaying) and resumes the one chosen; finished, earlier and unreadable files are kept."""

from __future__ import annotations

import io
import json
import os
import tempfile
import time
from pathlib import Path

import pytest

from tabletop.core.engine.match import Match
from tabletop.core.engine.record import read_record, replay
from tabletop.core.engine.resume import write_save
from tabletop.core.frontends import cli as cli_module
from tabletop.core.frontends.cli import main
from tabletop.core.frontends.saves import autosave_dir, kept_games, new_autosave_path, write_autosave

from .game_dirs import pig_dir
from .piggame import GAME

PIG = "tests.core.piggame:GAME"
PIG_DIR = pig_dir(Path(tempfile.mkdtemp(prefix="pig-game-")))
"""A game folder of Pig, for ``resume --game-dir`` (a record names its game by id only)."""


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str,
        *args: str) -> tuple[int, str, str]:
    """Run the CLI in-process with ``typed`` as what the person types; (exit, stdout, stderr)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    if args and args[0] == "resume":  # Pig is no installed game: its records need its folder
        args = (*args, "--game-dir", PIG_DIR)
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def saves() -> list[Path]:
    """The files in the autosave folder, by name."""
    return sorted(autosave_dir().glob("*.json"))


def _age(path: Path, seconds: float) -> None:
    """Make a file look written ``seconds`` ago (the list is newest first)."""
    stamp = time.time() - seconds
    os.utime(path, (stamp, stamp))


def test_a_new_game_never_touches_a_kept_one(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A game quit with q is kept; the same game started again (solitaire, then hot-seat) gets
    its own file, and the kept one is left byte for byte as it was."""
    code, _, _ = run(capsys, monkeypatch, "1\nq\ny\n", "play", PIG, "--seed", "5", "--agent", "B=first")
    assert code == 0
    (first,) = saves()
    kept = first.read_bytes()
    assert read_record(first)["decisions"][0] == "roll"
    code, _, _ = run(capsys, monkeypatch, "q\ny\n", "play", PIG, "--seed", "6")
    assert code == 0
    code, _, _ = run(capsys, monkeypatch, "2\n\nq\ny\n", "play", PIG, "--seed", "7",
                     "--agent", "A=human", "--agent", "B=human")
    assert code == 0
    assert len(saves()) == 3 and first.read_bytes() == kept
    hot_seat = [json.loads(p.read_text())["summary"] for p in saves()]
    assert sorted(tuple(s["people"]) for s in hot_seat) == [("A",), ("A",), ("A", "B")]


def test_two_games_started_in_one_second_get_two_files() -> None:
    """The file is named by game, scenario and start time, and is unique even for two starts
    in the same second."""
    match = Match(GAME, seed=1)
    now = time.time()
    one, two = new_autosave_path(match, now=now), new_autosave_path(match, now=now)
    assert one != two and one.exists() and two.exists()
    assert one.name.startswith("autosave-pig-standard-") and two.name == one.name[:-5] + "-2.json"


def _kept_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, seed: int,
               typed: str) -> Path:
    """Start a Pig game, type ``typed``, quit; the new autosave."""
    before = set(saves())
    code, _, err = run(capsys, monkeypatch, typed + "q\ny\n", "play", PIG, "--seed", str(seed),
                       "--agent", "B=first")
    assert code == 0, err
    (path,) = set(saves()) - before
    return path


def test_resume_lists_the_unfinished_games_and_takes_one_by_number(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`resume --list` lists the kept games newest first, with game, scenario, turn, decisions
    and date; `resume` with several and no terminal prints the list and says how to choose;
    `resume N` resumes the list's game N."""
    old = _kept_game(capsys, monkeypatch, 5, "2\n")
    _age(old, 3600)
    new = _kept_game(capsys, monkeypatch, 6, "")
    code, out, _ = run(capsys, monkeypatch, "", "resume", "--list")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].startswith("  1. pig standard: turn ") and new.name in lines[1]
    played = replay(GAME, read_record(old))
    assert lines[2].startswith(f"  2. pig standard: turn {played.state.turn} ({played.state.phase}), "
                               f"{len(played.decisions)} decisions, ") and old.name in lines[2]
    assert time.strftime("%Y-%m-%d", time.localtime(old.stat().st_mtime)) in lines[2]
    code, out, err = run(capsys, monkeypatch, "", "resume")
    assert code == 2 and new.name in out and old.name in out
    assert err.count("\n") == 1 and "tabletop resume N" in err
    code, out, err = run(capsys, monkeypatch, "", "resume", "2", "--auto", "--json")
    assert code == 0, err
    assert json.loads(out)["finished"] is True and json.loads(out)["seed"] == 5
    code, _, err = run(capsys, monkeypatch, "", "resume", "3")
    assert code == 2 and "no kept game 3" in err


def test_at_a_terminal_resume_asks_which_game(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`resume` at a terminal with several unfinished games shows the list and resumes the
    one whose number is typed (a wrong number is asked again)."""
    old = _kept_game(capsys, monkeypatch, 5, "2\n")
    _age(old, 3600)
    _kept_game(capsys, monkeypatch, 6, "")
    monkeypatch.setattr(cli_module, "_at_terminal", lambda: True)
    code, out, err = run(capsys, monkeypatch, "7\n2\nq\ny\n", "resume")
    assert code == 0, err
    assert "choose a number from 1 to 2" in out and f"resuming {old}" in out
    assert read_record(old)["decisions"][0] == "hold"


def test_a_finished_game_is_kept_marked_and_not_offered(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game played to its end keeps its file, marked finished; the list says so and
    `resume` no longer offers it."""
    path = _kept_game(capsys, monkeypatch, 5, "")
    code, _, err = run(capsys, monkeypatch, "", "resume", "--auto")
    assert code == 0, err
    assert path.exists() and json.loads(path.read_text())["summary"]["finished"] is True
    code, out, _ = run(capsys, monkeypatch, "", "resume", "--list")
    assert code == 0 and "finished: " in out and "  1. " not in out
    code, _, err = run(capsys, monkeypatch, "", "resume")
    assert code == 2 and "no autosaved game to resume" in err and "1 finished" in err


def test_an_earlier_autosave_is_listed_and_resumed_in_place(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """An autosave of the earlier kind (autosave-GAME.json, no summary) is listed from its
    header and snapshot, resumed, and never deleted."""
    match = Match(GAME, seed=5)
    match.decide("hold")
    match.decide("hold")
    legacy = autosave_dir() / "autosave-pig.json"
    autosave_dir().mkdir(parents=True, exist_ok=True)
    write_save(match, legacy)
    code, out, _ = run(capsys, monkeypatch, "", "resume", "--list")
    assert code == 0 and "  1. pig standard: turn 2 (A), 2 decisions" in out
    code, out, err = run(capsys, monkeypatch, "1\nq\ny\n", "resume")
    assert code == 0, err
    assert f"resuming {legacy}" in out and saves() == [legacy]
    assert read_record(legacy)["decisions"] == ["hold", "hold", "roll"]


def test_unreadable_files_are_listed_and_left_alone(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken file, a foreign JSON file and a side save in the folder are listed as
    unreadable, with the reason; the one good game is still resumed; nothing is removed."""
    good = _kept_game(capsys, monkeypatch, 5, "")
    folder = autosave_dir()
    (folder / "autosave-broken.json").write_text('{"format": "tabletop-save/1", "head')
    (folder / "notes.json").write_text('{"todo": []}')
    (folder / "autosave-empty.json").write_text("")
    (folder / "autosave-deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "autosave-huge.json").write_text('{"format": "tabletop-save/1", "n": ' + "9" * 5000 + "}")
    code, out, err = run(capsys, monkeypatch, "", "resume", "--list")
    assert code == 0, err
    assert "autosave-broken.json: unreadable (not a JSON record" in out
    assert "notes.json: unreadable (not a tabletop" in out
    assert "autosave-empty.json: unreadable (empty" in out
    assert "autosave-deep.json: unreadable (nests more than" in out
    assert "autosave-huge.json: unreadable (" in out
    code, out, err = run(capsys, monkeypatch, "q\ny\n", "resume")
    assert code == 0 and f"resuming {good}" in out
    assert len(saves()) == 6


@pytest.mark.parametrize("typed", ["\u00b2", "1\u00b2"])
def test_a_number_that_is_no_plain_number_is_no_kept_game(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           typed: str) -> None:
    """`resume ²` (a digit Python's isdigit takes and int refuses) reads as a file name: one
    line saying it cannot be read, never an internal error."""
    _kept_game(capsys, monkeypatch, 5, "")
    code, _, err = run(capsys, monkeypatch, "", "resume", typed)
    assert code == 2 and err.count("\n") == 1 and "internal error" not in err, err


def test_the_list_is_read_without_replaying(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing the kept games reads their summaries: no game is replayed."""
    _kept_game(capsys, monkeypatch, 5, "2\n")
    _kept_game(capsys, monkeypatch, 6, "")

    def no_replay(*args: object, **kwargs: object) -> None:
        raise AssertionError("the list replayed a game")

    records = {p: read_record(p) for p in saves()}
    monkeypatch.setattr("tabletop.core.engine.record.replay", no_replay)
    monkeypatch.setattr(Match, "decide", no_replay)
    games = kept_games()
    assert [g.path for g in games] == sorted(records, key=lambda p: p.stat().st_mtime, reverse=True)
    for game in games:
        record = records[game.path]
        assert (game.game, game.turn, game.decisions) == (
            "pig", record["snapshot"]["state"]["turn"], len(record["decisions"]))
    code, out, _ = run(capsys, monkeypatch, "", "resume", "--list")
    assert code == 0 and "  2. pig standard" in out


def test_b_phase_writes_the_autosave_once_when_the_bot_hands_back(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """While the bot plays a phase for the person (b phase) the autosave is not written
    after each of its decisions: once when it hands back; each decision the person takes
    is written at once."""
    import tabletop.core.frontends.terminal as terminal

    writes: list[int] = []
    real = write_autosave  # what terminal.write_autosave names until replaced below

    def counted(match: Match, path: str | Path, **kwargs: object) -> None:
        writes.append(len(match.decisions))
        real(match, path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(terminal, "write_autosave", counted)
    code, _, err = run(capsys, monkeypatch, "1\nb phase\nq\ny\n", "play", PIG, "--seed", "3",
                       "--agent", "B=first")
    assert code == 0, err
    (path,) = saves()
    record = read_record(path)
    bot_moves = [d for d in record["decisions"][1:]]
    players = [e for e in replay(GAME, record).log.of_kind("decision")]
    by_a = [e for e in players[1:] if e.data.get("player") == "A"]
    assert len(by_a) >= 2, "the seed must give the bot several decisions in its phase"
    # the start, the person's roll, then one write when the bot hands back at turn 2
    assert writes == [0, 1, len(bot_moves) + 1]


def test_a_save_of_an_older_tabletop_is_refused_then_resumed_without_verification(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept game saved before records carried their log hash cannot be verified: `resume`
    refuses it in one line naming `--no-verify`, and `resume --no-verify` plays it on, saved
    from then on in the current form, which verifies."""
    path = _kept_game(capsys, monkeypatch, 5, "2\n")
    older = json.loads(path.read_text())
    del older["summary"]
    older["header"].pop("free_undo", None)
    older["final"] = {key: older["final"][key] for key in ("state_hash", "events", "finished", "result")}
    path.write_text(json.dumps(older))
    code, _, err = run(capsys, monkeypatch, "", "resume", str(path), "--auto")
    assert code == 1 and err.count("\n") == 1, err
    assert "older tabletop" in err and "--no-verify" in err
    assert json.loads(path.read_text()) == older  # refused: the file is untouched
    code, out, err = run(capsys, monkeypatch, "", "resume", str(path), "--auto", "--json", "--no-verify")
    assert code == 0, err
    assert "without verification" in err and json.loads(out)["finished"] is True
    assert replay(GAME, read_record(path)).finished  # saved again in the verifiable form
