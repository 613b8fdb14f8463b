"""The terminal player: numbered options, help, log, info, undo, save and quit, with scripted input."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop.core.match import Match
from tabletop.core.record import read_record, replay
from tabletop.core.terminal import QuitGame, TerminalSession

from .piggame import GAME


def reader(lines: list[str]) -> object:
    """An input() stand-in that returns the given lines, then raises EOFError."""
    it: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def session(lines: list[str], save: str | None = None) -> tuple[TerminalSession, io.StringIO]:
    """A session for side A of a Pig match with scripted input."""
    out = io.StringIO()
    m = Match(GAME, seed=1)
    return TerminalSession(m, {"A"}, save_path=save, read=reader(lines), out=out), out  # type: ignore[arg-type]


def test_numbers_pick_options_and_help_is_shown() -> None:
    """A number picks that option; h prints help; a bad number is refused politely."""
    s, out = session(["h", "9", "2"])
    assert s.ask(s.match.pending) == 1  # type: ignore[arg-type]
    text = out.getvalue()
    assert "Commands at a prompt" in text and "no option 9" in text and "(rule 1.1)" in text


def test_undo_returns_to_your_previous_decision() -> None:
    """u undoes back to the person's own last decision and hands control back."""
    s, out = session(["u"])
    s.match.decide("roll")
    before = len(s.match.decisions)
    assert s.ask(s.match.pending) is None  # type: ignore[arg-type]
    assert len(s.match.decisions) == before - 1 and "undone 1" in out.getvalue()


def test_save_and_quit(tmp_path: Path) -> None:
    """q saves to the --save file and quits; the save replays to the same state."""
    path = tmp_path / "t.json"
    s, _ = session(["q"], save=str(path))
    s.match.decide("roll")
    with pytest.raises(QuitGame):
        s.ask(s.match.pending)  # type: ignore[arg-type]
    assert replay(GAME, read_record(path)).state_hash() == s.match.state_hash()


def test_end_of_input_quits() -> None:
    """End of input (Ctrl-D) quits instead of crashing."""
    s, _ = session([])
    with pytest.raises(QuitGame):
        s.ask(s.match.pending)  # type: ignore[arg-type]
