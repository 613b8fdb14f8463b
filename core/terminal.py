"""The terminal player: numbered options, the map, the log, odds, undo, save and quit.

A person's game is never lost: after every decision the match is written atomically to the
``--save`` file or to the autosave file (:func:`autosave_path`), which ``tabletop resume``
finds by itself. Ctrl-C, a closed terminal or a crash therefore lose at most the decision
being made. Undo is honest (see :meth:`Match.undo`): it goes back to the last die roll or
reveal, never past it, unless the match was started with free undo.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from .decisions import Decision
from .errors import TabletopError
from .match import Match

HELP = """\
Commands at a prompt:
  N          take option N
  m          show the map (m HEX R: a window of radius R around HEX)
  l [N]      show the last N log lines (default 15)
  i N        more about option N (odds, details)
  u          undo back to your previous decision (not past a die roll or a reveal)
  s [FILE]   save the match (JSON) to FILE (or the --save file)
  q          quit (the game is kept: resume it with `tabletop resume`)
  h, ?       this help"""

AUTOSAVE_ENV = "TABLETOP_HOME"


def autosave_dir() -> Path:
    """Where autosaves live: $TABLETOP_HOME, else $XDG_STATE_HOME/tabletop, else
    ~/.local/state/tabletop."""
    home = os.environ.get(AUTOSAVE_ENV)
    if home:
        return Path(home)
    state = os.environ.get("XDG_STATE_HOME")
    return (Path(state) if state else Path.home() / ".local" / "state") / "tabletop"


def autosave_path(game_id: str) -> Path:
    """The autosave file of a game's human match: one per game, the latest game wins."""
    return autosave_dir() / f"autosave-{game_id}.json"


def latest_autosave() -> Path | None:
    """The most recently written autosave, for ``tabletop resume`` without a file."""
    folder = autosave_dir()
    saves = sorted(folder.glob("autosave-*.json"), key=lambda f: f.stat().st_mtime) if folder.is_dir() else []
    return saves[-1] if saves else None


class QuitGame(Exception):
    """The person at the terminal asked to quit."""


class TerminalSession:
    """Lets a person answer one side's decisions at a terminal, with map, log and undo.

    It needs the match itself (not only a view) because undo and save act on the match.
    """

    def __init__(self, match: Match, sides: set[str], *, save_path: str | None = None,
                 read: Callable[[str], str] = input, out: TextIO | None = None,
                 show_from: int = 0, autosave: str | Path | None = None) -> None:
        self.match = match
        self.sides = sides
        self.save_path = save_path
        # where every decision is written: the --save file, else the given autosave file
        self.autosave_file: Path | None = Path(save_path) if save_path else \
            (Path(autosave) if autosave else None)
        self._read = read
        self._out = out
        self._shown = max(0, show_from)  # the set-up's events are news to the player too
        self._saved_at = -1  # how many decisions the autosave holds

    def autosave(self) -> None:
        """Write the match to the autosave file if a decision was taken since the last write
        (atomically: a crash mid-write leaves the previous save whole)."""
        from .record import write_save

        if self.autosave_file is None or self._saved_at == len(self.match.decisions):
            return
        self.autosave_file.parent.mkdir(parents=True, exist_ok=True)
        write_save(self.match, self.autosave_file)
        self._saved_at = len(self.match.decisions)

    def say(self, text: str = "") -> None:
        """Print a line to the session's output."""
        print(text, file=self._out)

    def show_new_events(self) -> None:
        """Print the events logged since the last prompt (why the other side did what it did)."""
        for event in self.match.log.since(self._shown):
            if event.kind == "decision" or not any(event.is_visible_to(s) for s in self.sides):
                continue
            sec = f"[{event.section}] " if event.section else ""
            self.say(f"  {sec}{event.text}")
        self._shown = len(self.match.log)

    def ask(self, decision: Decision) -> int | None:
        """Prompt until the person takes an option; returns its index, or None after an undo."""
        self.show_new_events()
        while True:
            self.say("")
            self.say(f"Turn {self.match.state.turn} {self.match.state.phase} — {decision.player}: "
                     f"{decision.prompt}  (rule {decision.section})")
            for n, opt in enumerate(decision.options, start=1):
                info = f"   [{opt.info}]" if opt.info else ""
                self.say(f"  {n:>3}. {opt.label or opt.value}{info}")
            try:
                line = self._read("> ").strip()
            except EOFError:
                raise QuitGame() from None
            before = len(self.match.decisions)
            choice = self.command(line, decision)
            if choice is not None:
                return choice
            if len(self.match.decisions) != before:
                return None

    def command(self, line: str, decision: Decision) -> int | None:
        """Carry out one typed command; return an option index when one was taken."""
        word, _, rest = line.partition(" ")
        if word.isdigit():
            n = int(word)
            if 1 <= n <= len(decision.options):
                return n - 1
            self.say(f"no option {n}; choose 1 to {len(decision.options)}")
        elif word in ("h", "?", "help", ""):
            self.say(HELP)
        elif word == "m":
            self.say(self.map_text(rest.split()))
        elif word == "l":
            count = int(rest) if rest.strip().isdigit() else 15
            seen = [e for e in self.match.log if any(e.is_visible_to(s) for s in self.sides)]
            for event in seen[-count:]:
                self.say(f"  [{event.section}] {event.text}")
        elif word == "i" and rest.strip().isdigit():
            n = int(rest)
            if 1 <= n <= len(decision.options):
                opt = decision.options[n - 1]
                self.say(f"{opt.label}: value {opt.value!r}. {opt.info or 'No further detail.'}")
        elif word == "u":
            self.undo()
        elif word == "s":
            self.save(rest.strip() or self.save_path)
        elif word == "q":
            self.quit()
        else:
            self.say(f"unknown command {line!r}; h for help")
        return None

    def map_text(self, args: list[str]) -> str:
        """The ASCII map, whole or as a window around a hex."""
        from .render.ascii import render_match

        window = None
        if len(args) == 2 and args[1].isdigit():
            window = (args[0], int(args[1]))
        try:
            return str(render_match(self.match, player=next(iter(self.sides), None), window=window))
        except TabletopError as exc:
            return f"cannot draw the map: {exc}"

    def undo(self) -> None:
        """Undo back to this person's previous decision (skipping the bots' in between), as
        far as honest undo allows."""
        players = [e.data.get("player") for e in self.match.log.of_kind("decision")]
        steps = 0
        for player in reversed(players):
            steps += 1
            if player in self.sides:
                break
        else:
            self.say("nothing of yours to undo")
            return
        try:
            self.match.undo(steps)
        except TabletopError as exc:
            self.say(f"{exc}; the dice and what you have seen stand (start with --free-undo "
                     "to allow undoing past them)")
            return
        self._shown = len(self.match.log)
        self.say(f"undone {steps} decision(s)")
        self.autosave()

    def quit(self) -> None:
        """Quit: save to the --save file, or ask first when the game would only be kept in the
        autosave (or not at all)."""
        if self.save_path:
            self.save(self.save_path)
            raise QuitGame()
        if self.autosave_file is not None:
            self.autosave()
            question = f"quit? the game is kept in {self.autosave_file} (resume: tabletop resume) [y/N] "
        else:
            question = "quit without saving? [y/N] "
        try:
            answer = self._read(question).strip().lower()
        except EOFError:
            answer = "y"
        if answer in ("y", "yes"):
            raise QuitGame()
        self.say("not quitting")

    def save(self, path: str | None) -> None:
        """Save the match to a file."""
        from .record import write_save

        if not path:
            self.say("give a file: s FILE")
            return
        try:
            write_save(self.match, path)
            self.say(f"saved to {Path(path)}")
        except TabletopError as exc:
            self.say(f"not saved: {exc}")
