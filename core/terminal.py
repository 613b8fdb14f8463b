"""The terminal player: numbered options, the map, the log, odds, undo, save and quit."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from .decisions import Decision
from .errors import TabletopError
from .events import Event
from .match import Match

HELP = """\
Commands at a prompt:
  N          take option N
  m          show the map (m HEX R: a window of radius R around HEX)
  l [N]      show the last N log lines (default 15)
  i N        more about option N (odds, details)
  u          undo back to your previous decision
  s [FILE]   save the match (JSON) to FILE (or the --save file)
  q          quit (saving first if a save file is set)
  h, ?       this help"""


class QuitGame(Exception):
    """The person at the terminal asked to quit."""


class TerminalSession:
    """Lets a person answer one side's decisions at a terminal, with map, log and undo.

    It needs the match itself (not only a view) because undo and save act on the match.
    """

    def __init__(self, match: Match, sides: set[str], *, save_path: str | None = None,
                 read: Callable[[str], str] = input, out: TextIO | None = None,
                 show_from: int = 0) -> None:
        self.match = match
        self.sides = sides
        self.save_path = save_path
        self._read = read
        self._out = out
        self._shown = max(0, show_from)  # the set-up's events are news to the player too

    def say(self, text: str = "") -> None:
        """Print a line to the session's output."""
        print(text, file=self._out)

    def show_new_events(self) -> None:
        """Print the events logged since the last prompt (why the other side did what it did)."""
        for event in self._seen(self.match.log.since(self._shown)):
            if event.kind == "decision":
                continue
            sec = f"[{event.section}] " if event.section else ""
            self.say(f"  {sec}{event.text}")
        self._shown = len(self.match.log)

    def _seen(self, events: Iterable[Event]) -> list[Event]:
        """The events as this terminal's sides may see them (masked where they must be)."""
        out = []
        for event in events:
            shown = next((e for e in (event.for_player(s) for s in self.sides) if e is not None), None)
            if shown is not None:
                out.append(shown)
        return out

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
            seen = self._seen(self.match.log)
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
            if self.save_path:
                self.save(self.save_path)
            raise QuitGame()
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
        """Undo back to this person's previous decision (skipping the bots' in between)."""
        players = [e.data.get("player") for e in self.match.log.of_kind("decision")]
        steps = 0
        for player in reversed(players):
            steps += 1
            if player in self.sides:
                break
        else:
            self.say("nothing of yours to undo")
            return
        self.match.undo(steps)
        self._shown = len(self.match.log)
        self.say(f"undone {steps} decision(s)")

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
