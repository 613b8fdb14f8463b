"""Hot-seat in a real terminal (tmux): after a hand-over, nothing of the other side's hidden
set-up is left on the screen or in its scrollback."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tabletop.core.engine.record import read_record, replay
from tabletop.core.engine.registry import load_game

from .as_typed import tabletop_command

ROOT = Path(__file__).resolve().parents[2]
TMUX = shutil.which("tmux")

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed: this test plays "
                                                     "hot-seat in a real terminal run by tmux")


class Pane:
    """A detached tmux session on its own server, running one command in a 200x50 window."""

    def __init__(self, socket: str, command: str) -> None:
        self.socket = socket
        self._tmux("new-session", "-d", "-x", "200", "-y", "50", "-s", "game", command)

    def _tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=30, check=True)
        return done.stdout

    def keys(self, *keys: str) -> None:
        """Type into the pane (tmux key names: Enter...)."""
        self._tmux("send-keys", "-t", "game", *keys)

    def history(self) -> str:
        """Everything the pane holds: its scrollback and the screen."""
        return self._tmux("capture-pane", "-p", "-t", "game", "-S", "-", "-E", "-")

    def wait_for(self, text: str) -> str:
        """The pane's history once ``text`` is on it (at most 60 s)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            seen = self.history()
            if text in seen:
                return seen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never came up; the pane holds:\n{self.history()}")

    def close(self) -> None:
        """Stop this test's tmux server (and the game in it)."""
        self._tmux("kill-server")


def test_after_a_hand_over_no_hidden_unit_of_the_other_side_is_in_the_scrollback(tmp_path: Path) -> None:
    """Two-player Bonins at one terminal: Japan sets up face down (18.1, its bot placing every
    unit, each placement printed); at the hand-over the screen and scrollback are cleared, and
    after the US player presses Enter no Japanese unit's name or set-up line can be found
    anywhere in the terminal's history."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {"TABLETOP_HOME": str(tmp_path), "PYTHONPATH": path, "TERM": "xterm-256color"}
    game = tabletop_command("play", "iwo_bonins", "--scenario", "two_player", "--seed", "1",
                            "--agent", "Japan=human", "--agent", "US=human")
    command = "env " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()) + " " + \
        shlex.join(game) + "; sleep 60"
    pane = Pane(f"tabletop-test-{os.getpid()}", f"cd {shlex.quote(str(ROOT))} && {command}")
    try:
        pane.wait_for("Japan: Place")
        pane.keys("b phase", "Enter")
        secrets = pane.wait_for("hand the terminal to US's player")
        pane.keys("Enter")
        seen = pane.wait_for("US: Invade which side")
    finally:
        pane.close()
    (save,) = tmp_path.glob("autosave-*.json")
    match = replay(load_game("iwo_bonins"), read_record(save))
    hidden = [p for p in match.state.pieces if p.side == "Japan" and p.hidden]
    assert len(hidden) >= 40
    assert "bot takes" not in secrets  # cleared already as the hand-over asks
    for leak in ["Japan: Place", "bot takes", *{p.name for p in hidden if p.name}]:
        assert leak not in seen, f"{leak!r} is still in the terminal's history:\n{seen}"
