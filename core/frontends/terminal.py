"""The terminal player: numbered options, the map, the log, odds, undo, save and quit.

A person's game is never lost: every game started at the terminal is written atomically to
its own autosave file (see :mod:`tabletop.core.frontends.saves`), or to the ``--save`` file, which
``tabletop resume`` lists and finds by itself. The file is written after every decision the
person takes, and before every prompt (so the bots' answers in between are kept too); while
``b phase`` lets the bot decide for the person, it is written once, when the bot hands back.
Ctrl-C, a closed terminal or a crash therefore lose at most the person's decision being made.
Undo is honest (see :meth:`Match.undo`): it goes back to the last die roll or reveal, never
past it, unless the match was started with free undo.

Hot-seat (several sides at one terminal): when the decision passes to another side, the
screen and its scrollback are cleared (on a terminal) and nothing more is shown until the
next player presses Enter, so no one scrolls back to the other side's hidden units.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from ..engine.agents import Agent
from ..engine.canonical import freeze
from ..engine.decisions import Decision, Option
from ..engine.errors import TabletopError
from ..engine.events import Event
from ..engine.match import Match
from ..engine.odds import option_odds
from ..engine.routes import RouteError, Routes, follow, routes_of
from .saves import autosave_dir, now_text, write_autosave

HELP = """\
Commands at a prompt:
  N          take option N (a unit keeps its number while it is on offer)
  HEX        a move by destination: move the unit to that hex (the lit hexes listed by
             cost); the game still asks each step and stops for fire; done: stop here
  n, p       next / previous page of a long menu (every number works on every page)
  m          show the map (m HEX R: a window of radius R around HEX; m ids: with hex ids)
  l [N]      show the last N log lines (default 15)
  i N        more about option N, in words (odds, what it does, the rule)
  v          the score and the victory conditions as they stand
  g          the player's guide: how a turn goes, how to win, the rulebook's terms
  b          let the game's bot take this decision for you (it says what it took)
  b phase    let the bot take your decisions until this phase (or step) of the turn ends
  u          undo back to your previous decision (not past a die roll or a reveal; a
             move by destination is taken back whole)
  s [FILE]   save the match (JSON) to FILE (or the --save file)
  q          quit (the game is kept: resume it with `tabletop resume`)
  h, ?       this help"""

PAGE_SIZE = 20
"""How many options a menu shows at once; a longer menu pages (n, p)."""

CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"
"""Go home, clear the screen, then its scrollback (the hot-seat hand-over): the order of
``clear``, since some terminals (tmux) push a cleared screen into the scrollback."""

__all__ = ["CLEAR_ALL", "HELP", "PAGE_SIZE", "QuitGame", "TerminalSession", "autosave_dir"]


class QuitGame(Exception):
    """The person at the terminal asked to quit."""


class TerminalSession:
    """Lets a person answer one side's decisions at a terminal, with map, log and undo.

    With several sides at one terminal (hot-seat), the terminal shows one side at a time:
    when the decision passes to another side it asks the players to hand the terminal over,
    and then shows only what that side may see (its own news, map, log and score).

    It needs the match itself (not only a view) because undo and save act on the match.
    """

    def __init__(self, match: Match, sides: set[str], *, save_path: str | None = None,
                 read: Callable[[str], str] = input, out: TextIO | None = None,
                 show_from: int = 0, autosave: str | Path | None = None,
                 started: str | None = None, screen: bool | None = None) -> None:
        self.match = match
        self.sides = sides
        self.save_path = save_path
        # where every decision is written: the --save file, else the given autosave file
        self.autosave_file: Path | None = Path(save_path) if save_path else \
            (Path(autosave) if autosave else None)
        self._read = read
        self._out = out
        #: the side whose player is at the terminal now (hot-seat: the side being asked)
        self.current = sorted(sides)[0]
        # how much of the log each side has been shown (the set-up's events are news too)
        self._marks = dict.fromkeys(sides, max(0, show_from))
        self._saved_at = -1  # how many decisions the autosave holds
        #: when the game was started (kept in the autosave's summary)
        self.started = started or now_text()
        # clear the screen and scrollback at a hand-over: on a terminal (None: if the output is one)
        self._screen = screen
        # menu keys by (player, decision kind): option value -> the number it was shown with
        self._menu_keys: dict[tuple[str, str], dict[object, int]] = {}
        self._keys: list[int] = []  # the keys of the decision being asked, by option index
        self._page = 0
        self._told_rulebook = False
        self._bots: dict[str, Agent] = {}  # the game's bot of each side at the terminal, made when asked
        # while ``b phase`` runs for a side: the (side, turn, phase, step) its bot plays out
        self._autopilot: dict[str, tuple[str, int, str, str]] = {}
        # the moves by destination taken here, (decisions before, after): undone whole
        self._route_marks: list[tuple[int, int]] = []

    def autosave(self) -> None:
        """Write the match to the autosave file if a decision was taken since the last write
        (atomically: a crash mid-write leaves the previous save whole)."""
        from ..engine.resume import write_save

        if self.autosave_file is None or self._saved_at == len(self.match.decisions):
            return
        self.autosave_file.parent.mkdir(parents=True, exist_ok=True)
        if self.save_path:
            write_save(self.match, self.autosave_file)
        else:
            write_autosave(self.match, self.autosave_file, started=self.started, people=self.sides)
        self._saved_at = len(self.match.decisions)

    def decided(self, player: str) -> None:
        """After a decision answered at this terminal: write the autosave, unless ``b phase``
        is deciding for the side (then it is written once, when the bot hands back)."""
        if player not in self._autopilot:
            self.autosave()

    def on_terminal(self) -> bool:
        """Whether the session's output is a terminal (where a hand-over clears the screen)."""
        if self._screen is not None:
            return self._screen
        import sys

        stream = self._out if self._out is not None else sys.stdout
        isatty = getattr(stream, "isatty", None)
        try:
            return bool(isatty()) if callable(isatty) else False
        except ValueError:  # a closed stream
            return False

    @property
    def _shown(self) -> int:
        return self._marks[self.current]

    @_shown.setter
    def _shown(self, value: int) -> None:
        self._marks[self.current] = value

    def hand_over(self, player: str) -> None:
        """Hot-seat: when a decision falls to another side at this terminal, clear the screen
        and its scrollback (on a terminal; elsewhere a screen of blank lines), ask for the
        terminal to be handed over, and wait for Enter before showing anything of
        ``player``'s; from then on show only what ``player`` may see."""
        if player not in self.sides or player == self.current:
            return
        if len(self.sides) > 1:
            self.autosave()  # the game is kept before the terminal changes hands
            banner = (f"=== {player} to play: hand the terminal to {player}'s player "
                      "and press Enter ===")
            if self.on_terminal():
                self._write(CLEAR_ALL)
                self.say(banner)
            else:
                self.say("\n" * 40 + banner)
            try:
                self._read("")
            except EOFError:
                raise QuitGame() from None
        self.current = player

    def _write(self, text: str) -> None:
        """Write raw text (a control sequence) to the session's output, flushed."""
        import sys

        stream = self._out if self._out is not None else sys.stdout
        stream.write(text)
        stream.flush()

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
        """The events as the side at the terminal may see them (masked where they must be)."""
        out = []
        for event in events:
            shown = event.for_player(self.current)
            if shown is not None:
                out.append(shown)
        return out

    def ask(self, decision: Decision) -> int | None:
        """Prompt until the person takes an option; returns its index, or None after an undo."""
        self.hand_over(decision.player)
        self.show_new_events()
        self._keys = self.menu_keys(decision)
        self._page = 0
        if not self._told_rulebook:
            self.say(f"(rule numbers are sections of the {self.match.game.cite('')}; "
                     "h for help, g for the player's guide, b to let the bot decide)")
            self._told_rulebook = True
        standing = self._autopilot.get(decision.player)
        if standing is not None:  # only this side's own b phase: another's decisions leave it be
            if standing == self._stage(decision.player):
                taken = self.by_bot(decision)
                if taken is not None:
                    return taken
            del self._autopilot[decision.player]
            self.say("(the bot is done: you decide again)")
        self.autosave()  # the person is asked: what was decided since (bots too) is kept first
        while True:
            self.show_menu(decision)
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

    # -- the menu ----------------------------------------------------------------------
    def menu_keys(self, decision: Decision) -> list[int]:
        """The number each option is shown with: an option on offer in the last menu of the
        same kind keeps its number; new ones take the smallest numbers free."""
        slot = (decision.player, decision.kind or decision.prompt)
        before = self._menu_keys.get(slot, {})
        values = [freeze(o.value) for o in decision.options]
        keys: list[int | None] = [before.get(v) for v in values]
        seen: set[int] = set()
        for n, key in enumerate(keys):
            if key is not None and key in seen:
                keys[n] = None
            elif key is not None:
                seen.add(key)
        free = (k for k in range(1, 10 * len(keys) + 2) if k not in seen)
        final = [key if key is not None else next(free) for key in keys]
        self._menu_keys[slot] = dict(zip(values, final, strict=True))
        return final

    def group_of(self, option: Option) -> str:
        """What an option belongs with in the menu: the place of the piece it names — by its
        value, or after a ``kind:`` prefix (``move:1/27``) — so options for units in one hex or
        one box are shown together; empty when it names no piece this side may see."""
        pieces = self.match.state.pieces
        value = option.value
        if not isinstance(value, str):
            return ""
        for name in (value, value.partition(":")[2]):
            if name and name in pieces:
                piece = pieces[name]
                if not (piece.hidden and piece.side != self.current):
                    return piece.location
        return ""

    def routes(self, decision: Decision) -> Routes | None:
        """The destinations of a move by destination, when ``decision`` is one and pending."""
        if decision is not self.match.pending:
            return None
        return routes_of(self.match, decision)

    def show_routes(self, decision: Decision, routes: Routes) -> None:
        """A move by destination: the options that are no destination numbered (stop here),
        then every destination by cost, a line a cost, its hexes by id (type one to go)."""
        for i, opt in enumerate(decision.options):
            if not (isinstance(opt.value, str) and opt.value in routes):
                self.say(f"  {self._keys[i]:>3}. {opt.label or opt.value}")
        pieces = self.match.state.pieces
        name = (pieces[routes.unit].name if routes.unit in pieces else "") or routes.unit
        self.say(f"  Move {name} from {routes.start}: type a destination hex "
                 f"(cost in {routes.cost_unit}; * something awaits there, i HEX says what):")
        for cost, places in routes.by_cost():
            shown = " ".join(p + ("*" if p in routes.notes else "") for p in places)
            head = f"{int(cost) if float(cost).is_integer() else cost} {routes.cost_unit}:"
            line = f"    {head:>9} "
            for word in shown.split(" "):
                if len(line) + len(word) > 88:
                    self.say(line.rstrip())
                    line = " " * 14
                line += word + " "
            self.say(line.rstrip())

    def take_route(self, decision: Decision, to: str) -> None:
        """Move the unit to ``to`` through the game's own step decisions (core routes), then
        say where it stands and why it stopped."""
        before = len(self.match.decisions)
        try:
            done = follow(self.match, decision.player, to)
        except RouteError as exc:
            self.say(f"{exc}")
            return
        if done.taken > 1:
            self._route_marks.append((before, before + done.taken))
        if done.arrived:
            self.say(f"  (moved to {done.at}: {done.taken} decision(s) answered)")
        else:
            self.say(f"  (stopped at {done.at} on the way to {to}: the game asks something first)")
        self.decided(decision.player)

    def explain_route(self, routes: Routes, to: str) -> str:
        """A destination in words: its cost, its path and what awaits there."""
        route = routes[to]
        cost = int(route.cost) if float(route.cost).is_integer() else route.cost
        lines = [f"{to}: {cost} {routes.cost_unit}, by {' -> '.join(route.path)}"]
        if to in routes.notes:
            lines.append(f"   {routes.notes[to]}")
        return "\n".join(lines)

    def show_menu(self, decision: Decision) -> None:
        """Print the prompt and the page of options being shown, grouped by place (a move by
        destination: its destinations grouped by cost, :meth:`show_routes`)."""
        state = self.match.state
        self.say("")
        phase = f" · {self.match.game.phase_name(state.phase)}" if state.phase else ""
        self.say(f"Turn {state.turn}{phase} — {decision.player}: {decision.prompt}  "
                 f"(rule {decision.section})")
        routes = self.routes(decision)
        if routes is not None and len(routes):
            self.show_routes(decision, routes)
            return
        order = sorted(range(len(decision.options)), key=lambda i: self._keys[i])
        groups = [self.group_of(decision.options[i]) for i in range(len(decision.options))]
        named = [g for g in groups if g]
        if len(set(named)) > 1 and len(set(named)) < len(named):  # places shared: show them together
            first = {g: min(self._keys[i] for i in range(len(groups)) if groups[i] == g) for g in groups}
            order.sort(key=lambda i: (groups[i] != "", first[groups[i]], self._keys[i]))
        else:
            groups = [""] * len(groups)
        pages = max(1, -(-len(order) // PAGE_SIZE))
        self._page = min(self._page, pages - 1)
        shown = order[self._page * PAGE_SIZE:(self._page + 1) * PAGE_SIZE]
        results, rows = option_odds(decision.options)
        with_odds = {i for i, _ in rows}
        last_group: str | None = None
        for i in shown:
            if groups[i] != last_group and groups[i]:
                self.say(f"   at {self.place_name(groups[i])}:")
            last_group = groups[i]
            opt = decision.options[i]
            # an option's odds are in the table below: its own line stays short
            info = f"   [{opt.info}]" if opt.info and i not in with_odds else ""
            self.say(f"  {self._keys[i]:>3}. {opt.label or opt.value}{info}")
        if rows:
            self.say(self.odds_table(decision, results, [r for r in rows if r[0] in shown]))
        if pages > 1:
            self.say(f"  -- page {self._page + 1} of {pages} ({len(order)} options): n next page, "
                     "p previous; any number works on any page --")

    def odds_table(self, decision: Decision, results: tuple[str, ...],
                   rows: list[tuple[int, dict[str, int]]]) -> str:
        """The odds of the options shown, once, as a table: a row an option (its number and
        the start of its label), a column a result, whole percentages (``i N`` says more)."""
        width = max(4, *(len(r) for r in results))
        head = "   chances (%)" + " " * 18 + "".join(f"{r:>{width + 1}}" for r in results)
        lines = [head]
        for index, shown in rows:
            opt = decision.options[index]
            name = str(opt.label or opt.value)
            name = name if len(name) <= 24 else name[:23] + "…"
            cells = "".join(f"{(str(shown[r]) if r in shown else '-'):>{width + 1}}" for r in results)
            lines.append(f"  {self._keys[index]:>3}. {name:<24}   {cells}")
        return "\n".join(lines)

    def place_name(self, location: str) -> str:
        """A place as a player reads it: an area's or a box's printed name, else its id."""
        board = self.match.game.board(self.match)
        boxes = getattr(board, "boxes", {})
        if location in boxes:
            return str(getattr(boxes[location], "name", "") or location)
        area = getattr(board, "area", None)
        if callable(area) and not hasattr(board, "grid") and location in board:
            return str(getattr(area(location), "name", "") or location)
        return location

    def option_index(self, key: int) -> int | None:
        """The index of the option shown with number ``key``."""
        try:
            return self._keys.index(key)
        except ValueError:
            return None

    def explain(self, decision: Decision, index: int) -> str:
        """An option in words: what it is, its odds or details, and the rule that offers it."""
        opt = decision.options[index]
        text = str(opt.label or opt.value)
        lines = [f"{self._keys[index]}. {text}"]
        if opt.info:
            lines.append(f"   {opt.info}")
        results, rows = option_odds((opt,))
        if rows:
            lines.append("   chances: " + ", ".join(f"{r} {rows[0][1][r]}%" for r in results))
        lines.append(f"   This answers \"{decision.prompt}\" ({self.match.game.cite(decision.section)}).")
        return "\n".join(lines)

    def command(self, line: str, decision: Decision) -> int | None:
        """Carry out one typed command; return an option index when one was taken."""
        if len(self._keys) != len(decision.options):
            self._keys = self.menu_keys(decision)
        word, _, rest = line.partition(" ")
        routes = self.routes(decision) if word not in ("", "h", "?", "help") else None
        if routes is not None and word in routes and not rest.strip():
            self.take_route(decision, word)
        elif routes is not None and word in ("done", "stop") and decision.is_legal(routes.stop):
            return decision.index_of(routes.stop)
        elif routes is not None and word == "i" and rest.strip() in routes:
            self.say(self.explain_route(routes, rest.strip()))
        elif word.isdigit():
            index = self.option_index(int(word))
            if index is not None:
                return index
            self.say(f"no option {word}; choose one of the numbers shown")
        elif word in ("h", "?", "help", ""):
            self.say(HELP)
        elif word in ("n", "p"):
            self._page = max(0, self._page + (1 if word == "n" else -1))
        elif word == "m":
            self.say(self.map_text(rest.split()))
        elif word == "l":
            count = int(rest) if rest.strip().isdigit() else 15
            seen = self._seen(self.match.log)
            for event in seen[-count:]:
                self.say(f"  [{event.section}] {event.text}")
        elif word == "i":
            index = self.option_index(int(rest)) if rest.strip().isdigit() else None
            if index is None:
                self.say("i N: N is one of the numbers shown")
            else:
                self.say(self.explain(decision, index))
        elif word == "v":
            for text in self.match.game.standing(self.match, self.current):
                self.say(f"  {text}")
        elif word == "g":
            self.say(self.match.game.guide() or f"{self.match.game.info.title} has no player's guide yet.")
        elif word == "b":
            arg = rest.strip()
            if arg not in ("", "phase"):
                self.say("b: the bot takes this decision; b phase: every one of yours until the "
                         "phase ends")
                return None
            if arg == "phase":
                self._autopilot[decision.player] = self._stage(decision.player)
            taken = self.by_bot(decision)
            if taken is None:
                self._autopilot.pop(decision.player, None)
            return taken
        elif word == "u":
            self.undo()
        elif word == "s":
            self.save(rest.strip() or self.save_path)
        elif word == "q":
            self.quit()
        else:
            self.say(f"unknown command {line!r}; h for help")
        return None

    def _stage(self, player: str) -> tuple[str, int, str, str]:
        """Where the match stands for ``b phase``: the side deciding and the turn, phase and
        step."""
        state = self.match.state
        return player, state.turn, state.phase, state.step

    def bot(self, player: str) -> Agent:
        """The game's own bot for a side (the one ``--auto`` plays), made when first asked;
        it reads only that side's view, as any agent does."""
        from ..engine.registry import make_agent

        found = self._bots.get(player)
        if found is None:
            game = self.match.game
            found = self._bots[player] = make_agent(game, player, game.default_bot(player),
                                                    self.match.seed)
        return found

    def by_bot(self, decision: Decision) -> int | None:
        """The index of the option the side's bot takes for this decision, said at the
        terminal (the record keeps it as the side's answer, like any other); None, said,
        if the bot gives no legal answer."""
        bot = self.bot(decision.player)
        index = decision.index_of(bot.choose(self.match.view(decision.player), decision))
        if index is None:
            self.say(f"  (the {bot.name} bot has no legal answer here: choose yourself)")
            return None
        if len(self._keys) != len(decision.options):
            self._keys = self.menu_keys(decision)
        opt = decision.options[index]
        self.say(f"  (the {bot.name} bot takes {self._keys[index]}. {opt.label or opt.value})")
        return index

    def map_text(self, args: list[str]) -> str:
        """The text map, whole or as a window around a hex (``HEX N``), with hex ids (``ids``)."""
        from ..board.render.ascii import render_match

        ids = "ids" in args
        rest = [a for a in args if a != "ids"]
        window = None
        if len(rest) == 2 and rest[1].isdigit():
            window = (rest[0], int(rest[1]))
        elif rest:
            return "m: the whole map; m HEX N: a window of radius N around HEX; m ids: with hex ids"
        try:
            return str(render_match(self.match, player=self.current,
                                    window=window, ids=ids))
        except TabletopError as exc:
            return f"cannot draw the map: {exc}"

    def undo(self) -> None:
        """Undo back to this person's previous decision (skipping the bots' in between), as
        far as honest undo allows; at a hot-seat terminal, never past the other person's."""
        players = [e.data.get("player") for e in self.match.log.of_kind("decision")]
        steps = 0
        for player in reversed(players):
            steps += 1
            if player == self.current:
                break
            if player in self.sides:
                self.say(f"nothing of yours to undo: {player}'s decision stands")
                return
        else:
            self.say("nothing of yours to undo")
            return
        taken = len(self.match.decisions)
        for before, after in reversed(self._route_marks):  # a move by destination: all of it
            if after == taken - steps + 1:
                steps = taken - before
                break
        try:
            self.match.undo(steps, by=self.sides)
        except TabletopError as exc:
            self.say(f"{exc}; the dice and what you have seen stand (start with --free-undo "
                     "to allow undoing past them)")
            return
        self._route_marks = [m for m in self._route_marks if m[1] <= len(self.match.decisions)]
        for side in self._marks:  # the log was played again: no side is shown past its end
            self._marks[side] = min(self._marks[side], len(self.match.log))
        self._shown = len(self.match.log)
        self._bots.clear()  # a bot may keep what it read of a board that the undo took back
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
        from ..engine.resume import write_save

        if not path:
            self.say("give a file: s FILE")
            return
        try:
            write_save(self.match, path)
            self.say(f"saved to {Path(path)}")
        except TabletopError as exc:
            self.say(f"not saved: {exc}")
