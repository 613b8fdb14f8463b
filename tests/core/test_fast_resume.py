"""Resuming a save from its restore point: the match goes on byte for byte as the uninterrupted
one and as a replay of the save would; a damaged save or log file is refused with one line and
no file touched; a forged restore point is caught by verification (a replay)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.engine.canonical import digest, dumps
from tabletop.core.engine.errors import ReplayDivergence, SaveError
from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.record import SAVE_FORMAT, make_save, point_digest, read_record, replay
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.engine.resume import LazyEventLog, restore_point, resume, write_save
from tabletop.core.frontends.cli import main

from .piggame import GAME as PIG

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = load_game(str(ROOT / "docs" / "example" / "skirmish"))
GAMES: dict[str, Game] = {"skirmish": SKIRMISH}


def game_of(name: str) -> Game:
    """A game by id (the example by its folder)."""
    if name not in GAMES:
        GAMES[name] = load_game(name)
    return GAMES[name]


_PLAYED: dict[tuple[str, int, str | None, bool], list[Any]] = {}


def answers_of(name: str, seed: int, scenario: str | None = None, free_undo: bool = False) -> list[Any]:
    """The answers of a whole game played by the game's default bots."""
    key = (name, seed, scenario, free_undo)
    if key not in _PLAYED:
        game = game_of(name)
        match = Match(game, seed=seed, scenario=scenario, snapshots=False, free_undo=free_undo)
        agents = {s: make_agent(game, s, game.default_bot(s), seed) for s in game.info.players}
        match.run(agents)
        _PLAYED[key] = list(match.decisions)
    return _PLAYED[key]


def lines(match: Match, last: int) -> list[str]:
    """The log's last ``last`` events as canonical JSON (a resumed log's older events unread)."""
    return [dumps(e.to_json()) for e in match.log.since(max(0, len(match.log) - last))]


def same(a: Match, b: Match) -> None:
    """Two matches at the same point: state hash, decisions, pending decision, log length and
    its last events."""
    assert a.state_hash() == b.state_hash()
    assert a.decisions == b.decisions
    assert a.pending == b.pending
    assert len(a.log) == len(b.log)
    assert lines(a, 40) == lines(b, 40)


def chain_of_resumes(name: str, seed: int, points: list[int], folder: Path,
                     scenario: str | None = None, free_undo: bool = False) -> int:
    """Play a game's answers in an uninterrupted match; at each point save the *resumed* match
    (the first time the uninterrupted one), resume it from its save, compare it with the
    uninterrupted match and with a verified replay of the save, and play it on to the next
    point; at the end compare whole logs and final states. Returns how many resumes were
    made from a restore point."""
    game = game_of(name)
    answers = answers_of(name, seed, scenario, free_undo)
    whole = Match(game, seed=seed, scenario=scenario, free_undo=free_undo)
    current: Match = whole
    taken = restored = 0
    for n, point in enumerate(sorted(set(points))):
        for value in answers[taken:point]:
            whole.decide(value)
            if current is not whole:
                current.decide(value)
        taken = point
        path = folder / f"{name}-{n % 2}.json"
        write_save(current, path)
        record = read_record(path)
        again, how = resume(game, record, path)
        if restore_point(current) is not None:
            assert how == "restored", how
            restored += 1
        same(again, whole)
        same(replay(game, record), whole)
        current = again
    for value in answers[taken:]:
        whole.decide(value)
        current.decide(value)
    assert current.state_hash() == whole.state_hash()
    assert current.log.to_jsonl() == whole.log.to_jsonl()
    assert current.result == whole.result
    return restored


@pytest.mark.parametrize("name,seed", [("skirmish", 1), ("iwo_1945", 2), ("iwo_bonins", 1),
                                       ("manila45", 1)])
def test_a_resumed_match_plays_on_as_the_uninterrupted_one(name: str, seed: int, tmp_path: Path) -> None:
    """Saved at many points of a whole default-bot game (each save made by the match resumed
    from the one before, so its log file is appended to), every resume is from the restore
    point, equals the uninterrupted match and a verified replay of its save, and plays on to
    the same states, log and result."""
    answers = answers_of(name, seed)
    rng = random.Random(seed)
    points = [0, 1, *rng.sample(range(len(answers)), min(10 if len(answers) < 1000 else 5,
                                                          len(answers))), len(answers)]
    assert chain_of_resumes(name, seed, points, tmp_path) >= len(set(points)) - 2


@pytest.mark.slow
def test_a_resumed_valor_campaign_plays_on_as_the_uninterrupted_one(tmp_path: Path) -> None:
    """The same at points of a Valor of Arms campaign."""
    answers = answers_of("iwo_valor", 3, "campaign")
    rng = random.Random(3)
    points = [*rng.sample(range(len(answers)), 6), len(answers) - 1, len(answers)]
    assert chain_of_resumes("iwo_valor", 3, points, tmp_path, "campaign") >= len(points) - 1


@given(seed=st.integers(1, 40), cut=st.lists(st.integers(0, 80), min_size=1, max_size=4))
def test_resuming_the_example_anywhere_changes_nothing(seed: int, cut: list[int],
                                                       tmp_path_factory: pytest.TempPathFactory) -> None:
    """Any seed of the example game, saved and resumed at any points, ends as the
    uninterrupted game and as a replay of its saves."""
    answers = answers_of("skirmish", seed)
    chain_of_resumes("skirmish", seed, [min(c, len(answers)) for c in cut],
                     tmp_path_factory.mktemp("saves"))


def test_free_undo_dice_resume_with_their_keys(tmp_path: Path) -> None:
    """A match allowing free undo (dice keyed by the decision) resumes with its keys."""
    answers = answers_of("iwo_1945", 4, free_undo=True)
    assert chain_of_resumes("iwo_1945", 4, [len(answers) // 3, 2 * len(answers) // 3], tmp_path,
                            free_undo=True) == 2


def half_game(name: str = "iwo_1945", seed: int = 2, upto: int | None = None) -> Match:
    """A match played half-way (or to ``upto`` decisions) with the default bots' answers."""
    answers = answers_of(name, seed)
    match = Match(game_of(name), seed=seed)
    for value in answers[:len(answers) // 2 if upto is None else upto]:
        match.decide(value)
    return match


def log_file(save: Path) -> Path:
    """The log file a save names beside it."""
    name: str = read_record(save)["resume"]["log"]["file"]
    return save.parent / name


def test_an_undo_after_a_resume_starts_from_the_restore_point(tmp_path: Path) -> None:
    """A resumed match undoes from its restore point, not by replaying its record, and its
    next save cuts its log file back to what the undo kept; that save resumes as the
    uninterrupted match undone the same way."""
    match = half_game(upto=200)
    path = tmp_path / "s.json"
    write_save(match, path)
    again, _ = resume(match.game, read_record(path), path)
    log = again.log
    assert isinstance(log, LazyEventLog)
    again.decide(again.legal()[0].value)
    match.decide(match.legal()[0].value)
    floor, _ = again.undo_limit()
    steps = len(again.decisions) - floor
    assert steps >= 1
    again.undo(steps)
    match.undo(steps)
    same(again, match)
    write_save(again, path)
    third, how = resume(match.game, read_record(path), path)
    assert how == "restored"
    same(third, match)
    assert third.log.to_jsonl() == match.log.to_jsonl()
    assert len(list(tmp_path.glob("s.json.events.*.jsonl"))) == 1


def test_each_save_appends_only_the_new_events(tmp_path: Path) -> None:
    """After the first save, a save adds to the log file the lines of the events since the
    last one and rewrites nothing before them."""
    match = half_game(upto=100)
    path = tmp_path / "s.json"
    write_save(match, path)
    first = log_file(path).read_bytes()
    for _ in range(5):
        match.decide(match.legal()[0].value)
    write_save(match, path)
    now = log_file(path).read_bytes()
    assert now.startswith(first) and len(now) > len(first)
    assert now.decode() == match.log.to_jsonl()
    record = read_record(path)
    assert record["resume"]["log"]["bytes"] == len(now)
    assert record["resume"]["log"]["sha256"] == hashlib.sha256(now).hexdigest()


def test_a_torn_append_is_left_out_and_cut_off(tmp_path: Path) -> None:
    """Bytes past what the save states (an append a crash cut short before the save was
    written) are not read, and the next save cuts them off before appending."""
    match = half_game(upto=120)
    path = tmp_path / "s.json"
    write_save(match, path)
    file = log_file(path)
    stated = file.read_bytes()
    with open(file, "ab") as f:
        f.write(b'{"seq": 99999, "kind": "roll", "te')
    again, how = resume(match.game, read_record(path), path)
    assert how == "restored"
    same(again, match)
    again.decide(again.legal()[0].value)
    write_save(again, path)
    now = log_file(path).read_bytes()
    assert now.startswith(stated) and b"99999" not in now
    assert resume(match.game, read_record(path), path)[1] == "restored"


def test_a_match_without_restore_point_is_saved_for_replay(tmp_path: Path) -> None:
    """A match whose decisions cannot be asked again (Pig declares no resume point) is saved
    as a tabletop-save/1, with no log file, and resumes by a verified replay."""
    match = Match(PIG, seed=3)
    for value in ["roll", "roll", "hold", "roll"]:
        match.decide(value)
    path = tmp_path / "s.json"
    write_save(match, path)
    assert read_record(path)["format"] == SAVE_FORMAT
    assert not list(tmp_path.glob("*.jsonl"))
    again, how = resume(match.game, read_record(path), path)
    assert how == "replayed and verified"
    same(again, match)


def test_an_older_save_resumes_by_replay(tmp_path: Path) -> None:
    """A tabletop-save/1 (no restore point) resumes by a verified replay."""
    match = half_game()
    path = tmp_path / "old.json"
    path.write_text(json.dumps(make_save(match)))
    again, how = resume(match.game, read_record(path), path)
    assert how == "replayed and verified"
    same(again, match)


def test_a_save_without_its_log_file_resumes_by_replay(tmp_path: Path) -> None:
    """A save copied without its log file resumes by a verified replay, and says so."""
    match = half_game()
    path = tmp_path / "s.json"
    write_save(match, path)
    log_file(path).unlink()
    again, how = resume(match.game, read_record(path), path)
    assert "is not beside it: rebuilt by a verified replay" in how
    same(again, match)


def files_of(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of a folder: its bytes and modification time."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def resave(path: Path, change: Any) -> None:
    """Rewrite a save after ``change`` (a function of its parsed JSON)."""
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1))


def _flip_log(path: Path) -> None:
    file = log_file(path)
    data = bytearray(file.read_bytes())
    at = data.index(b'"text":"') + 8
    data[at] = ord("X") if data[at] != ord("X") else ord("Y")
    file.write_bytes(bytes(data))


def _cut_log(path: Path) -> None:
    file = log_file(path)
    file.write_bytes(file.read_bytes()[:-300])


def _move_state(path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["snapshot"]["state"]["turn"] += 1
    resave(path, change)


def _change_dice(path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["resume"]["dice"]["rolls"] += 1
    resave(path, change)


def _change_decision(path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["decisions"][3] = data["decisions"][2]
    resave(path, change)


def _cut_save(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])


def _new_format(path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["format"] = "tabletop-save/9"
    resave(path, change)


def _escape_log(path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["resume"]["log"]["file"] = "../elsewhere.events.1.jsonl"
        data["resume"]["digest"] = point_digest(data["resume"])
    resave(path, change)


DAMAGE = {
    "a changed event in the log file": (_flip_log, "was changed since it was saved"),
    "a log file cut short": (_cut_log, "is cut short"),
    "a state changed in the save": (_move_state, "resume.state_hash differs"),
    "the dice changed in the save": (_change_dice, "resume.digest differs"),
    "a decision changed": (_change_decision, "final.decisions_digest differs"),
    "a save cut short": (_cut_save, "not a JSON record"),
    "a format of another tabletop": (_new_format, "update tabletop"),
    "a log file outside the save's folder": (_escape_log, "log file's name beside the save"),
}


@pytest.mark.parametrize("what", sorted(DAMAGE))
def test_a_damaged_save_is_refused_with_one_line_and_no_file_touched(
        what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tabletop resume` of a damaged save or log file prints one line naming the save and
    what is wrong, exits non-zero and leaves every file as it was."""
    damage, said = DAMAGE[what]
    match = half_game()
    path = tmp_path / "s.json"
    write_save(match, path)
    damage(path)
    before = files_of(tmp_path)
    code = main(["resume", str(path), "--auto"])
    err = capsys.readouterr().err
    assert code != 0
    assert said in err and len(err.strip().splitlines()) == 1, err
    assert files_of(tmp_path) == before


def test_resume_verify_rebuilds_a_save_whose_log_file_is_damaged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tabletop replay` refuses a save whose log file was changed (the record itself
    verifies); `tabletop resume --verify` rebuilds it from its decisions, and its next save
    writes the log file anew, which then resumes from the restore point."""
    match = half_game(upto=100)
    path = tmp_path / "s.json"
    write_save(match, path)
    _flip_log(path)
    assert main(["replay", str(path)]) != 0
    assert "resume it with --verify" in capsys.readouterr().err
    assert main(["resume", str(path), "--verify", "--auto", "--save", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    record = read_record(path)
    again, how = resume(match.game, record, path)
    assert how == "restored" and again.finished
    assert len(list(tmp_path.glob("*.jsonl"))) == 1


def test_verify_catches_a_restore_point_forged_with_its_hashes(tmp_path: Path) -> None:
    """A restore point changed with every hash recomputed is trusted by a resume (its hashes
    are no signature), and refused by verification, which replays the decisions."""
    match = half_game()
    path = tmp_path / "s.json"
    write_save(match, path)
    data = json.loads(path.read_text())
    state = data["snapshot"]["state"]
    state["vars"]["forged"] = True
    snapshot_hash = digest({**data["snapshot"]})
    data["final"]["state_hash"] = snapshot_hash
    data["resume"]["state_hash"] = snapshot_hash
    data["resume"]["digest"] = point_digest(data["resume"])
    path.write_text(json.dumps(data))
    again, how = resume(match.game, read_record(path), path)
    assert how == "restored" and again.state.vars["forged"] is True
    with pytest.raises(ReplayDivergence):
        replay(match.game, read_record(path))
    with pytest.raises(ReplayDivergence):
        resume(match.game, read_record(path), path, verify=True)


def test_verification_checks_every_field_of_the_restore_point(tmp_path: Path) -> None:
    """A replay of a tabletop-save/2 compares its restore point with the replayed match's at
    that decision: a changed field is named."""
    match = half_game()
    path = tmp_path / "s.json"
    write_save(match, path)
    assert replay(match.game, read_record(path)).state_hash() == match.state_hash()
    for key, value in (("flow_start", 0), ("events", 1), ("asks", "0" * 64)):
        data = json.loads(path.read_text())
        data["resume"][key] = value
        with pytest.raises(ReplayDivergence, match=f"resume.{key}"):
            replay(match.game, data)


def test_resume_verify_and_no_verify_are_one_or_the_other(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Both flags at once are refused with one line."""
    match = half_game()
    path = tmp_path / "s.json"
    write_save(match, path)
    assert main(["resume", str(path), "--verify", "--no-verify"]) != 0
    assert "contradict" in capsys.readouterr().err


def test_the_cli_resumes_from_the_restore_point(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tabletop resume SAVE --auto` plays on from the restore point to the same end as the
    uninterrupted game, and keeps the save up to date."""
    name, seed = "iwo_1945", 2
    match = half_game(name, seed)
    path = tmp_path / "s.json"
    write_save(match, path)
    assert main(["resume", str(path), "--agent", "USMC=random", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decisions"] >= len(match.decisions)
    record = read_record(path)
    again, how = resume(match.game, record, path)
    assert how == "restored" and again.finished
    assert replay(match.game, record).state_hash() == again.state_hash()


def test_unread_events_are_read_when_asked_for(tmp_path: Path) -> None:
    """A resumed match's log holds the recent events read; asking for older ones reads them,
    the same as the original's."""
    match = half_game("iwo_bonins", 1)
    path = tmp_path / "s.json"
    write_save(match, path)
    again, _ = resume(match.game, read_record(path), path)
    log = again.log
    assert isinstance(log, LazyEventLog) and log.peek(0) is None
    assert log.since(len(log) - 10) == list(match.log.since(len(match.log) - 10))
    assert [e.to_json() for e in log.visible("US", len(log) - 50)] == \
        [e.to_json() for e in match.log.visible("US", len(match.log) - 50)]
    assert log[5].to_json() == match.log[5].to_json()
    assert log.peek(0) is not None
    assert log.to_jsonl() == match.log.to_jsonl()


def test_a_save_error_is_a_save_error(tmp_path: Path) -> None:
    """The resume's refusals are SaveErrors (one line, the file named)."""
    match = half_game()
    path = tmp_path / "s.json"
    write_save(match, path)
    _cut_log(path)
    with pytest.raises(SaveError, match=str(path)):
        resume(match.game, read_record(path), path)


def test_saves_sharing_a_stem_keep_their_own_log_files(tmp_path: Path) -> None:
    """Two saves whose names differ only in their suffix each keep their log file: writing
    one anew never removes the other's."""
    first, second = half_game(upto=40), half_game(upto=60)
    write_save(first, tmp_path / "game.json")
    write_save(second, tmp_path / "game.txt")
    write_save(first, tmp_path / "game.json")
    for match, name in ((first, "game.json"), (second, "game.txt")):
        path = tmp_path / name
        again, how = resume(match.game, read_record(path), path)
        assert how == "restored"
        same(again, match)


def test_a_match_from_an_edited_position_resumes_as_it_stands(tmp_path: Path) -> None:
    """A match started from a position with forced dice, then edited, resumes from its restore
    point (its header's position, forced rolls and edit) and plays on as the original."""
    from tabletop.core.designer.testing import start
    from tabletop.core.engine.agents import RandomAgent

    match = start(SKIRMISH, start="blue_combat", turn=2,
                  pieces={"B1": {"at": "0503"}, "R1": {"at": "0504", "hidden": False}},
                  dice=[{"roll": "5.3", "faces": [6, 1]}])
    with match.edit() as state:
        state.pieces.move("R1", "0604")
    agents = {s: RandomAgent(s, 7) for s in SKIRMISH.info.players}
    for _ in range(6):
        if match.pending is None:
            break
        decision = match.pending
        match.decide(agents[decision.player].choose({}, decision))
    path = tmp_path / "s.json"
    write_save(match, path)
    again, how = resume(SKIRMISH, read_record(path), path)
    assert how == "restored" and again.edited_from is not None
    same(again, match)
    while match.pending is not None:
        decision = match.pending
        value = agents[decision.player].choose({}, decision)
        match.decide(value)
        again.decide(value)
    assert again.state_hash() == match.state_hash()
    assert again.log.to_jsonl() == match.log.to_jsonl()


def test_an_autosave_resumes_from_its_restore_point_with_its_summary_checked(tmp_path: Path) -> None:
    """An autosave (its summary first) resumes from its restore point; a summary that does not
    say what the restored match is is refused with one line."""
    from tabletop.core.frontends.saves import write_autosave

    match = half_game()
    path = tmp_path / "autosave-iwo_1945-x.json"
    write_autosave(match, path, started="2026-12-05T08:00:00+00:00", people=["USMC"])
    again, how = resume(match.game, read_record(path), path)
    assert how == "restored"
    same(again, match)
    data = json.loads(path.read_text())
    data["summary"]["turn"] += 1
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match=r"summary\.turn differs"):
        resume(match.game, read_record(path), path)


def _depth(text: str) -> int:
    """The deepest nesting of JSON text's brackets, strings skipped (the plain count)."""
    depth = most = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
            continue
        if c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            most = max(most, depth)
        elif c in "]}":
            depth -= 1
    return most


@given(st.recursive(st.integers(0, 3) | st.text(alphabet='[]{}"\\ab', max_size=4),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(alphabet='[]{a"', max_size=2), inner, max_size=2),
                    max_leaves=40),
       st.integers(1, 12))
def test_the_nesting_check_before_parsing_counts_as_the_plain_count(value: Any, limit: int) -> None:
    """The check that refuses deeply nested text before it is parsed agrees with counting its
    brackets one by one (strings, with their brackets and escapes, skipped)."""
    from tabletop.core.engine.record import _too_deep

    text = json.dumps(value)
    assert _too_deep(text, limit) == (_depth(text) > limit and text.count("[") + text.count("{") > limit)
