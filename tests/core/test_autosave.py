"""Autosave: a person's game survives Ctrl-C and a closed terminal (a real `tabletop` process)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tabletop.core.engine.record import read_record, replay

from .as_typed import tabletop_command
from .game_dirs import pig_dir
from .piggame import GAME

ROOT = Path(__file__).resolve().parents[2]
PIG = "tests.core.piggame:GAME"


def _start(home: Path, *args: str) -> subprocess.Popen[str]:
    """`tabletop ARGS` in a child process whose autosaves go to ``home``."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "TABLETOP_HOME": str(home), "PYTHONPATH": path}
    return subprocess.Popen(tabletop_command(*args), cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _wait_for_decisions(home: Path, count: int, proc: subprocess.Popen[str]) -> Path:
    """Wait (at most 60 s) until the one autosave in ``home`` holds ``count`` decisions."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for path in home.glob("autosave-*.json"):
            try:
                if len(json.loads(path.read_text())["decisions"]) >= count:
                    return path
            except (ValueError, KeyError):
                pass  # never a half-written file, but be patient with the reader
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError(f"no save with {count} decisions in {home}")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGHUP], ids=["ctrl-c", "hangup"])
def test_an_interrupted_game_leaves_a_resumable_autosave(tmp_path: Path, sig: signal.Signals) -> None:
    """Autosave: a person plays two decisions, then Ctrl-C (or the terminal closes); the
    game's own autosave holds them, `tabletop resume` (no file) finds it, and it replays
    exactly; played to the end, the file is kept and marked finished."""
    proc = _start(tmp_path, "play", PIG, "--seed", "5", "--agent", "B=first")
    assert proc.stdin is not None
    proc.stdin.write("2\n")  # A holds; B (first option: roll...) plays; A is asked again
    proc.stdin.flush()
    auto = _wait_for_decisions(tmp_path, 2, proc)
    assert auto.name.startswith("autosave-pig-standard-")
    time.sleep(0.2)  # let the prompt come up: the person is thinking
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.count("\n") == 1 and "interrupted" in err and str(auto) in err
    record = read_record(auto)
    assert record["decisions"][0] == "hold"
    assert replay(GAME, record).state_hash() == record["final"]["state_hash"]
    again = _start(tmp_path, "resume", "--json", "--auto", "--game-dir", pig_dir(tmp_path))
    out, err = again.communicate(timeout=60)
    assert again.returncode == 0, err
    assert json.loads(out)["finished"] is True
    kept = json.loads(auto.read_text())
    assert kept["final"]["finished"] is True and kept["summary"]["finished"] is True
    assert [p.name for p in tmp_path.glob("*.json")] == [auto.name]  # kept, and no other save


def test_resume_without_an_autosave_says_so(tmp_path: Path) -> None:
    """`tabletop resume` with no file and no autosave: one line naming where it looked."""
    proc = _start(tmp_path, "resume")
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and err.count("\n") == 1 and "no autosaved game" in err


def test_an_interrupted_write_leaves_the_old_save_whole(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves are atomic: Ctrl-C in the middle of writing leaves the previous file as it was
    and no temporary file behind."""
    import os as os_module

    from tabletop.core.engine.files import atomic_write_text

    target = tmp_path / "save.json"
    atomic_write_text(target, "old")

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os_module, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_text(target, "new")
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]
