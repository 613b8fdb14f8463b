"""The command line: every command, JSON outputs, and one-line errors with non-zero exits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.core.engine.decisions import choose
from tabletop.core.engine.match import Flow, Match
from tabletop.core.frontends.cli import main

from .game_dirs import pig_dir
from .piggame import PigGame

PIG = "tests.core.piggame:GAME"
ANNOUNCED = "tests.core.piggame:ANNOUNCED"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_the_four_games(capsys: pytest.CaptureFixture[str]) -> None:
    """`tabletop list` shows every registered game, marking those not yet playable."""
    code, out, _ = run(capsys, "list")
    assert code == 0
    for gid in ("iwo_bonins", "iwo_valor", "iwo_1945", "manila45"):
        assert gid in out


def test_play_auto_json_has_the_promised_fields(capsys: pytest.CaptureFixture[str]) -> None:
    """`play --auto --json` prints one JSON object with game, seed, winner, result, hash..."""
    code, out, _ = run(capsys, "play", PIG, "--auto", "--seed", "7", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("game", "scenario", "seed", "winner", "result", "turns", "decisions", "state_hash"):
        assert key in data
    assert data["seed"] == 7 and data["finished"] is True


def test_save_replay_and_divergence(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A saved game replays with exit 0; a tampered one is refused with exit 1 and one line."""
    save = tmp_path / "g.json"
    log = tmp_path / "g.jsonl"
    assert run(capsys, "play", PIG, "--auto", "--seed", "4", "--save", str(save), "--log", str(log))[0] == 0
    assert all(json.loads(line)["section"] is not None for line in log.read_text().splitlines())
    code, out, _ = run(capsys, "replay", str(save), "--game-dir", pig_dir(tmp_path))
    assert code == 0 and "replay verified" in out
    data = json.loads(save.read_text())
    data["decisions"][0] = "fold"
    save.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(save), "--game-dir", pig_dir(tmp_path))
    assert code == 1 and err.count("\n") == 1 and "diverges" in err


def test_log_for_writes_only_what_a_side_may_see(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--log-for SIDE (play, resume, replay) writes that side's log: the other side's private
    decision and secret events are left out; the full --log keeps them (game master's log)."""
    secret = "tests.core.piggame:SECRET"
    save, full, b_log, a_log = (tmp_path / n for n in ("s.json", "all.jsonl", "b.jsonl", "a.jsonl"))
    assert run(capsys, "play", secret, "--auto", "--seed", "3", "--save", str(save), "--log", str(full),
               )[0] == 0
    folder = pig_dir(tmp_path, "SECRET")
    assert run(capsys, "replay", str(save), "--log", str(b_log), "--log-for", "B",
               "--game-dir", folder)[0] == 0
    assert run(capsys, "replay", str(save), "--log", str(a_log), "--log-for", "A",
               "--game-dir", folder)[0] == 0

    def kinds(path: Path) -> list[str]:
        return [json.loads(line)["kind"] for line in path.read_text().splitlines()]
    assert "secret" in kinds(full) and "secret" in kinds(a_log) and "secret" not in kinds(b_log)
    assert len(kinds(b_log)) < len(kinds(a_log)) == len(kinds(full))
    assert all("visible_to" not in json.loads(line) for line in b_log.read_text().splitlines())


@pytest.mark.parametrize("args, fragment", [
    (("play", PIG, "--auto", "--log", "x.jsonl", "--log-for", "C"), "no side 'C' for --log-for"),
    (("play", PIG, "--auto", "--log-for", "A"), "--log-for needs --log"),
    (("play", PIG, "--auto", "--save", "s.json", "--log", "no/x.jsonl"), "--log no/x.jsonl: no directory"),
    (("play", PIG, "--auto", "--save", "no/s.json"), "--save no/s.json: no directory"),
    (("simulate", PIG, "-n", "3", "--rows", "no/r.jsonl"), "--rows no/r.jsonl: no directory"),
    (("render", PIG, "-o", "no/map.svg"), "--output no/map.svg: no directory"),
])
def test_bad_outputs_are_refused_before_playing(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                args: tuple[str, ...], fragment: str) -> None:
    """--log-for with an unknown side or without --log, and an output file in a directory
    that does not exist, are one line on stderr and exit 2 before any game is played: nothing
    is written (not even the --save of a play whose --log is wrong)."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2 and fragment in err and err.count("\n") == 1 and out == ""
    assert list(tmp_path.iterdir()) == []


def test_log_for_and_outputs_are_checked_on_resume_and_replay(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path,
                                                               tmp_path_factory: pytest.TempPathFactory,
                                                               ) -> None:
    """resume and replay check --log-for and their output files before replaying; the save
    they read is left as it was."""
    save = tmp_path / "s.json"
    assert run(capsys, "play", PIG, "--seed", "5", "--auto", "--save", str(save))[0] == 0
    before = save.read_text()
    folder = ("--game-dir", pig_dir(tmp_path_factory.mktemp("games")))
    for args, fragment in (
            (("resume", str(save), "--auto", "--log", str(tmp_path / "l.jsonl"), "--log-for", "Z"),
             "no side 'Z'"),
            (("replay", str(save), "--log-for", "A"), "--log-for needs --log"),
            (("replay", str(save), "--log", str(tmp_path / "no" / "l.jsonl")), "no directory")):
        code, _, err = run(capsys, *args, *folder)
        assert code == 2 and err.count("\n") == 1 and fragment in err, args
    assert save.read_text() == before and sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_resume_a_save(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`resume --auto` continues a saved match to the end."""
    save = tmp_path / "s.json"
    assert run(capsys, "play", PIG, "--seed", "5", "--auto", "--save", str(save))[0] == 0
    code, out, _ = run(capsys, "resume", str(save), "--auto", "--json", "--game-dir", pig_dir(tmp_path))
    assert code == 0 and json.loads(out)["finished"] is True


@pytest.mark.parametrize("args, fragment", [
    (("play", "nosuchgame"), "no game 'nosuchgame'"),
    (("play", PIG, "--agent", "C=random", "--auto"), "no side 'C'"),
    (("play", PIG, "--agent", "A=wizard", "--auto"), "no agent 'wizard'"),
    (("play", PIG, "--agent", "nonsense"), "NAME=VALUE"),
    (("play", PIG, "--option", "target=7", "--auto"), "not one of"),
    (("play", PIG, "--scenario", "moon", "--auto"), "no scenario 'moon'"),
    (("play", ANNOUNCED, "--auto"), "not playable yet"),
    (("replay", "/nonexistent/file.json"), "cannot read"),
    (("simulate", PIG, "-n", "0"), "-n"),
    (("render", PIG, "-o", "x.png"), "must end in .svg"),
    (("schema", "--model", "Nope"), "no model 'Nope'"),
    (("render", ANNOUNCED, "-o", "x.svg"), "no map to draw yet"),
    (("resume", "/etc/hostname"), "not a JSON record"),
    (("play",), "Missing argument"),
])
def test_errors_are_one_line_and_non_zero(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                          fragment: str) -> None:
    """Bad input gives one clear line on stderr, a non-zero exit and no traceback."""
    code, _, err = run(capsys, *args)
    assert code != 0
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert fragment in err and "Traceback" not in err


def test_simulate_prints_a_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate -n N --json` plays N games and reports results, winners and seeds."""
    code, out, _ = run(capsys, "simulate", PIG, "-n", "20", "--seed", "100", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 20 and sum(data["results"].values()) == 20
    assert data["seeds"] == [100, 119]


def test_schema_and_validate(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`schema` prints JSON Schemas; `validate` accepts a good file and names a bad one's fault."""
    code, out, _ = run(capsys, "schema")
    assert code == 0 and "HexMapSpec" in json.loads(out)
    good = tmp_path / "board.yaml"
    good.write_text("name: b\nareas: [{id: a, name: A, x: 1, y: 1}, {id: b, name: B, x: 2, y: 2}]\n"
                    "connections: [{a: a, b: b}]\n")
    code, out, _ = run(capsys, "validate", str(good))
    assert code == 0 and "ok (AreaMapSpec)" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: b\nareas: [{id: a, name: A, x: 1}]\nconnections: []\n")
    code, _, err = run(capsys, "validate", str(bad))
    assert code == 2 and "bad.yaml: areas.0.y" in err


def test_simulate_jobs_give_the_same_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate --jobs 2` plays in two processes and prints exactly what one process does."""
    one = run(capsys, "simulate", PIG, "-n", "12", "--seed", "5", "--json")
    two = run(capsys, "simulate", PIG, "-n", "12", "--seed", "5", "--json", "--jobs", "2")
    assert one[0] == two[0] == 0 and json.loads(one[1]) == json.loads(two[1])


def test_simulate_rows_write_one_line_a_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`simulate --rows FILE` writes a JSON line a game in seed order (the same whatever
    --jobs), agreeing with the summary; the summary gives each score's spread."""
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    code, out, _ = run(capsys, "simulate", PIG, "-n", "9", "--seed", "40", "--json", "--rows", str(one))
    assert run(capsys, "simulate", PIG, "-n", "9", "--seed", "40", "--rows", str(two), "--jobs", "2")[0] == 0
    assert code == 0 and one.read_text() == two.read_text()
    rows = [json.loads(line) for line in one.read_text().splitlines()]
    summary = json.loads(out)
    assert [r["seed"] for r in rows] == list(range(40, 49))
    counted: dict[str, int] = {}
    for r in rows:
        counted[r["result"]] = counted.get(r["result"], 0) + 1
    assert counted == summary["results"]
    scores_a = [r["scores"]["A"] for r in rows if "A" in r["scores"]]  # a draw gives no scores
    assert summary["score_spread"]["A"]["max"] == max(scores_a)
    assert summary["score_spread"]["A"]["n"] == len(scores_a)
    assert summary["mean_scores"]["A"] == round(sum(scores_a) / len(scores_a), 3)
    assert all((r["winner"] is None) == (r["result"] == "draw") for r in rows)


def test_bare_tabletop_prints_the_usage_without_error(capsys: pytest.CaptureFixture[str]) -> None:
    """CLI: `tabletop` run bare prints its usage and commands as help, not as an error."""
    code, out, err = run(capsys)
    assert code == 0 and out.startswith("Usage: tabletop") and "play" in out
    assert "error" not in out + err


@pytest.mark.parametrize("seed", ["-3", "abc", "1.5", "1e3", str(2**63), "99999999999999999999999"])
def test_seed_must_be_a_whole_number_in_range(capsys: pytest.CaptureFixture[str], seed: str) -> None:
    """CLI: --seed takes only what a seed can be, 0 to 2**63-1; anything else is one line, exit 2."""
    for command in (["play", PIG, "--auto"], ["simulate", PIG, "-n", "1"], ["render", PIG, "-o", "-"]):
        code, out, err = run(capsys, *command, "--seed", seed)
        assert code == 2 and out == "" and err.count("\n") == 1 and "a seed is a whole number" in err


def test_largest_seed_is_accepted_and_simulate_stays_in_range(capsys: pytest.CaptureFixture[str]) -> None:
    """CLI: the largest seed plays; a simulation whose seeds would run past it is refused."""
    assert run(capsys, "play", PIG, "--auto", "--seed", str(2**63 - 1), "--json")[0] == 0
    code, _, err = run(capsys, "simulate", PIG, "-n", "2", "--seed", str(2**63 - 1))
    assert code == 2 and "largest seed" in err


def test_replay_refuses_a_record_without_its_final_state(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    """CLI: `replay` of a record with no final state says there is nothing to verify against
    (exit 1), never "verified"."""
    save = tmp_path / "g.json"
    assert run(capsys, "play", PIG, "--auto", "--seed", "4", "--save", str(save))[0] == 0
    data = json.loads(save.read_text())
    del data["final"]
    save.write_text(json.dumps(data))
    code, out, err = run(capsys, "replay", str(save), "--game-dir", pig_dir(tmp_path))
    assert code == 1 and "verified" not in out and "nothing to verify against" in err


@pytest.mark.parametrize("name", ["g" * 5000, "bad\x00name"])
def test_a_game_name_no_path_can_be_is_an_unknown_game(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """A game name too long for a path, or with a NUL byte, is one line saying no such game,
    not an internal error."""
    code, _, err = run(capsys, "info", name)
    assert code == 2 and err.count("\n") == 1 and "no game" in err


class _BrokenPig(PigGame):
    """Pig whose flow fails with a bug (a KeyError) at its third decision."""

    def play(self, match: Match) -> Flow:
        for _ in range(2):
            yield choose("A", "Roll or hold?", "1.1", ["roll", "hold"])
        raise KeyError("x")


BROKEN = _BrokenPig()


def test_an_internal_error_names_where_it_came_up_and_what_to_report(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A bug in a game's flow is one line (exit 3), naming the game, its version, the seed,
    the turn and the decision it came after, and asking for a report with the save."""
    code, _, err = run(capsys, "play", "tests.core.test_cli:BROKEN", "--auto", "--seed", "5")
    assert code == 3 and len(err.strip().splitlines()) == 1
    assert "internal error: KeyError: 'x'" in err
    assert "pig" in err and "seed 5" in err and "after decision 2" in err and "--save" in err


def test_a_module_without_game_says_what_to_export(capsys: pytest.CaptureFixture[str]) -> None:
    """A module named as a game that has no GAME says what a game package exports."""
    code, _, err = run(capsys, "info", "tests.core.as_typed:GAME")
    assert code != 0 and "has no 'GAME'" in err and "GAME = MyGame()" in err


def test_an_unquoted_hex_id_is_told_to_be_quoted() -> None:
    """A data file's hex id written as a bare number (YAML reads 0203 as a number) is told
    to be quoted, not only that a string was expected."""
    from pydantic import BaseModel

    from tabletop.core.engine.data import validate
    from tabletop.core.engine.errors import DataError

    class Unit(BaseModel):
        hex: str

    with pytest.raises(DataError, match=r'units\.yaml: hex: .*write it in quotes.*"0203"'):
        validate(Unit, {"hex": 203}, source="units.yaml")


def test_a_decision_without_options_says_what_to_do() -> None:
    """A decision built with no options is a bug in the game: the error says to skip the
    question or offer "done"."""
    with pytest.raises(ValueError, match="skip the question"):
        choose("A", "Which?", "1.1", [])
