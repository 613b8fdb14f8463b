"""The terminal player: numbered options, help, log, info, undo, save and quit, with scripted input."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tabletop.core.engine.decisions import Decision, Option, choose
from tabletop.core.engine.errors import TabletopError
from tabletop.core.engine.match import Flow, Match, Result
from tabletop.core.engine.record import read_record, replay
from tabletop.core.frontends.terminal import QuitGame, TerminalSession
from tests.scripted_input import reader

from .piggame import GAME, PigGame


def session(lines: list[str], save: str | None = None) -> tuple[TerminalSession, io.StringIO]:
    """A session for side A of a Pig match with scripted input."""
    out = io.StringIO()
    m = Match(GAME, seed=1)
    return TerminalSession(m, {"A"}, save_path=save, read=reader(lines), out=out), out


def test_numbers_pick_options_and_help_is_shown() -> None:
    """A number picks that option; h prints help; a bad number is refused politely."""
    s, out = session(["h", "9", "2"])
    assert s.ask(s.match.pending) == 1  # type: ignore[arg-type]
    text = out.getvalue()
    assert "Commands at a prompt" in text and "no option 9" in text and "(rule 1.1)" in text


def test_undo_returns_to_your_previous_decision() -> None:
    """u never takes back another person's decision at a hot-seat terminal (both sides here),
    and over a bot's answer it refuses too; the match stands either way."""
    out = io.StringIO()
    m = Match(GAME, seed=1)
    s = TerminalSession(m, {"A", "B"}, read=reader(["u", "1"]), out=out)
    m.decide("hold")  # A
    m.decide("hold")  # B, the other person
    assert s.ask(m.pending) == 0  # type: ignore[arg-type]
    assert m.decisions == ["hold", "hold"] and "B's decision stands" in out.getvalue()
    s, out = session(["u", "1"])
    s.match.decide("hold")  # A, the person
    s.match.decide("hold")  # B, a bot
    assert s.ask(s.match.pending) == 0  # type: ignore[arg-type]
    assert s.match.decisions == ["hold", "hold"] and "B's answer" in out.getvalue()


def test_undo_past_a_roll_is_refused_at_the_terminal() -> None:
    """Honest undo: after a die roll, u says the roll stands and the person chooses again."""
    s, out = session(["u", "2"])
    s.match.decide("roll")
    while s.match.pending is not None and s.match.pending.player != "A":
        s.match.decide("hold")
    before = s.match.state_hash()
    assert s.ask(s.match.pending) == 1  # type: ignore[arg-type]
    assert "stands" in out.getvalue() and "--free-undo" in out.getvalue()
    assert s.match.state_hash() == before


def test_save_and_quit(tmp_path: Path) -> None:
    """q saves to the --save file and quits; the save replays to the same state."""
    path = tmp_path / "t.json"
    s, _ = session(["q"], save=str(path))
    s.match.decide("roll")
    with pytest.raises(QuitGame):
        s.ask(s.match.pending)  # type: ignore[arg-type]
    assert replay(GAME, read_record(path)).state_hash() == s.match.state_hash()


def test_quit_without_a_save_file_asks_first(tmp_path: Path) -> None:
    """q with no --save file asks before quitting; 'n' goes on, 'y' quits with the game kept
    in the autosave file, which replays to the same state."""
    auto = tmp_path / "auto.json"
    out = io.StringIO()
    m = Match(GAME, seed=1)
    s = TerminalSession(m, {"A"}, read=reader(["q", "n", "q", "y"]), out=out,
                        autosave=auto)
    m.decide("hold")
    m.decide("hold")
    with pytest.raises(QuitGame):
        s.ask(m.pending)  # type: ignore[arg-type]
    assert "not quitting" in out.getvalue()
    assert replay(GAME, read_record(auto)).state_hash() == m.state_hash()


def test_autosave_is_written_after_each_decision(tmp_path: Path) -> None:
    """The autosave holds every decision taken so far, and only rewrites after a new one."""
    auto = tmp_path / "auto.json"
    s, _ = session([])
    s.autosave_file = auto
    for value in ("roll", "hold"):
        if s.match.pending is None:
            break
        s.match.decide(value)
        s.autosave()
        assert read_record(auto)["decisions"] == s.match.decisions
    stamp = auto.stat().st_mtime_ns
    s.autosave()
    assert auto.stat().st_mtime_ns == stamp


def test_end_of_input_quits() -> None:
    """End of input (Ctrl-D) quits instead of crashing."""
    s, _ = session([])
    with pytest.raises(QuitGame):
        s.ask(s.match.pending)  # type: ignore[arg-type]



# -- b: the game's bot decides for the person ---------------------------------------------

def _bot_replays(m: Match, side: str, upto: int) -> list[object]:
    """What a fresh copy of the side's bot answers at each of the first ``upto`` decisions
    of ``m`` that are the side's, played over a new match of the same seed."""
    from tabletop.core.engine.registry import make_agent

    bot = make_agent(m.game, side, m.game.default_bot(side), m.seed)
    again = Match(m.game, scenario=m.scenario, seed=m.seed, options=dict(m.options))
    answers = []
    for value in m.decisions[:upto]:
        d = again.pending
        assert d is not None
        if d.player == side:
            answers.append(bot.choose(again.view(side), d))
        again.decide(value)
    return answers


def test_b_lets_the_bot_take_one_decision_and_says_which() -> None:
    """b: the game's bot for the side answers this one decision from the side's view (the
    record keeps its answer as the side's); the person is asked again at the next one (1.1)."""
    s, out = session(["b"])
    m = s.match
    index = s.ask(m.pending)  # type: ignore[arg-type]
    assert index is not None
    m.decide_index(index)
    assert _bot_replays(m, "A", 1) == [m.decisions[0]]
    assert "(the random bot takes" in out.getvalue()
    with pytest.raises(QuitGame):  # the next decision is the person's again: input is read
        s.ask(m.pending)  # type: ignore[arg-type]


def test_b_phase_lets_the_bot_play_until_the_phase_ends() -> None:
    """b phase: the bot answers every decision of the side until the turn's phase (here A's
    part of turn 1, 1.1) ends; the other side's decisions are not its own; at the side's
    next phase the person is asked again, and told so."""
    s, out = session(["b phase"])
    m = s.match
    asked = 0
    with pytest.raises(QuitGame):
        while m.pending is not None:
            d = m.pending
            if d.player == "A":
                asked += 1
                index = s.ask(d)
                assert index is not None
                m.decide_index(index)
            else:
                m.decide("hold")
    assert m.state.turn == 2 and m.state.phase == "A"  # asked at A's next phase, input ended
    mine = [i for i, e in enumerate(m.log.of_kind("decision")) if e.data.get("player") == "A"]
    assert len(mine) == asked - 1 >= 1
    assert _bot_replays(m, "A", len(m.decisions)) == [m.decisions[i] for i in mine]
    text = out.getvalue()
    assert text.count("(the random bot takes") == asked - 1
    assert "(the bot is done: you decide again)" in text


def test_b_with_a_bad_word_is_refused_and_the_match_stands() -> None:
    """b takes only "phase" after it: anything else is explained, nothing is decided."""
    s, out = session(["b everything"])
    before = s.match.state_hash()
    with pytest.raises(QuitGame):
        s.ask(s.match.pending)  # type: ignore[arg-type]
    assert "b phase" in out.getvalue() and s.match.decisions == [] and s.match.state_hash() == before


# -- menus: stable keys, grouping, paging, v, i, g -----------------------------------------

def _menu_session(options: list[list[str]], pieces: dict[str, str] | None = None) -> tuple[
        TerminalSession, io.StringIO, list[Decision]]:
    """A session over hand-made decisions of one kind, with pieces placed as given."""
    from tabletop.core.engine.pieces import Piece

    m = Match(GAME, seed=1)
    for pid, loc in (pieces or {}).items():
        m.state.pieces.add(Piece(pid, "unit", "A", pid, loc))
    out = io.StringIO()
    s = TerminalSession(m, {"A"}, read=reader([]), out=out)
    decisions = [choose("A", "Move which unit?", "3.1", [Option(v, f"unit {v}") for v in values],
                        kind="select_unit") for values in options]
    return s, out, decisions


def test_a_unit_keeps_its_key_while_it_is_on_offer() -> None:
    """Menus: after an action, the options still on offer keep their numbers; a new one takes
    the smallest number free; a number leads to the same unit."""
    s, _, (first, second, third) = _menu_session([["u1", "u2", "u3", "done"], ["u2", "u3", "done"],
                                                  ["u3", "u9", "done"]])
    assert s.menu_keys(first) == [1, 2, 3, 4]
    assert s.menu_keys(second) == [2, 3, 4]
    s._keys = s.menu_keys(third)
    assert s._keys == [3, 1, 4]
    assert third.options[s.command("3", third)].value == "u3"  # type: ignore[index]
    assert s.command("2", third) is None


def test_options_of_units_in_one_place_are_grouped() -> None:
    """Menus: options naming units are shown under the place they stand, each place once."""
    s, out, (d,) = _menu_session([["a", "b", "move:c", "done"]], {"a": "0101", "b": "0505", "c": "0101"})
    s._keys = s.menu_keys(d)
    s.show_menu(d)
    text = out.getvalue()
    assert text.count("at 0101:") == 1 and text.count("at 0505:") == 1
    assert text.index("4. unit done") < text.index("at 0101:")  # commands first
    where = [text.index(x) for x in ("1. unit a", "3. unit move:c", "at 0505:", "2. unit b")]
    assert where == sorted(where)


def test_a_long_menu_pages_and_every_number_works() -> None:
    """Menus: a long menu shows a page at a time (n, p); a number from another page works."""
    s, out, (d,) = _menu_session([[f"x{i}" for i in range(45)]])
    s._keys = s.menu_keys(d)
    s.show_menu(d)
    assert "page 1 of 3" in out.getvalue() and "21. unit x20" not in out.getvalue()
    s.command("n", d)
    s.show_menu(d)
    assert "21. unit x20" in out.getvalue() and "page 2 of 3" in out.getvalue()
    assert s.command("45", d) == 44


def test_i_explains_an_option_in_words_and_v_g_show_standing_and_guide() -> None:
    """i N says what the option is, its details and the rule by rulebook and section, never
    its internal value; v shows the standing; g the guide (or says there is none)."""
    s, out = session([])
    d = s.match.pending
    assert d is not None
    s._keys = s.menu_keys(d)
    s.command("i 1", d)
    s.command("v", d)
    s.command("g", d)
    text = out.getvalue()
    assert "Roll" in text and "'roll'" not in text and "value" not in text
    assert "If the game ended now" in text and "no player's guide" in text


def test_map_command_takes_ids_and_a_window() -> None:
    """m ids draws hex ids; m HEX N a window with HEX marked; anything else says how."""
    from pathlib import Path

    from tabletop.core.engine.registry import load_game

    game = load_game(str(Path(__file__).resolve().parents[2] / "docs" / "example" / "skirmish"))
    s = TerminalSession(Match(game, seed=1), {"Blue"}, read=reader([]), out=io.StringIO())
    assert "0504" in s.map_text(["ids"]) and "each hex: its id" in s.map_text(["ids"])
    assert "[ ] marks 0504" in s.map_text(["0504", "1"])
    assert "m HEX N" in s.map_text(["nonsense"])


def test_undo_never_goes_back_past_the_other_sides_answer() -> None:
    """Honest undo: the person may not undo past a bot's answer (it would answer anew, with
    its own dice, after a move it has already shown); hot-seat, both sides at the terminal,
    may."""
    m = Match(GAME, seed=1)
    m.decide("hold")  # A
    m.decide("hold")  # B, a bot
    with pytest.raises(TabletopError, match="B's answer"):
        m.undo(2, by={"A"})
    m.undo(2, by={"A", "B"})
    assert m.decisions == []


def test_hot_seat_hands_the_terminal_over_and_shows_each_side_its_own() -> None:
    """Hot-seat at one terminal (two people, one per side): when the decision passes to the
    other side the terminal asks for it to be handed over, and then shows only what that
    side may see — B never reads A's secret (0.1), A does; B cannot undo A's decision."""
    from .piggame import SECRET

    out = io.StringIO()
    m = Match(SECRET, seed=1)
    # A picks secret 2, then holds; the hand-over; B reads the log, tries undo, holds
    lines = ["2", "2", "", "l 50", "u", "2", "", "l 50", "2"]
    s = TerminalSession(m, {"A", "B"}, read=reader(lines), out=out)
    for _ in range(4):
        assert m.pending is not None
        index = s.ask(m.pending)
        assert index is not None
        m.decide_index(index)
    text = out.getvalue()
    a_part, b_part = text.split("hand the terminal to B's player", 1)
    b_part, a_again = b_part.split("hand the terminal to A's player", 1)
    assert "A picked 2" in a_part and "A picked 2" not in b_part
    assert "nothing of yours to undo: A's decision stands" in b_part
    assert "A picked 2" in a_again
    assert s.current == "A"


def test_on_a_terminal_the_hand_over_clears_screen_and_scrollback_and_waits() -> None:
    """Hot-seat on a terminal: the hand-over clears the screen and its scrollback (so the next
    player cannot scroll back to A's secret) and shows nothing of B's until Enter is pressed."""
    from tabletop.core.frontends.terminal import CLEAR_ALL

    from .piggame import SECRET

    out = io.StringIO()
    at_enter: list[str] = []
    lines = iter(["2", "2", "", "2"])

    def read(prompt: str) -> str:
        line = next(lines)
        if prompt == "":  # the hand-over's wait for Enter
            at_enter.append(out.getvalue())
        return line

    m = Match(SECRET, seed=1)
    s = TerminalSession(m, {"A", "B"}, read=read, out=out, screen=True)
    for _ in range(3):
        assert m.pending is not None
        index = s.ask(m.pending)
        assert index is not None
        m.decide_index(index)
    (shown,) = at_enter
    before, _, after = shown.rpartition(CLEAR_ALL)
    assert "secret number?" in before
    assert after.strip() == "=== B to play: hand the terminal to B's player and press Enter ==="
    assert "secret number?" not in out.getvalue().rpartition(CLEAR_ALL)[2]
    plain = io.StringIO()
    TerminalSession(Match(SECRET, seed=1), {"A", "B"}, read=reader([""]), out=plain).hand_over("B")
    assert "\x1b" not in plain.getvalue()  # not a terminal: no control sequences


class _Patrol(PigGame):
    """A moves up to three times in its phase, and after each move B may fire (B's decision
    in A's phase, like defensive fire); then B digs in in its own phase."""

    def default_bot(self, side: str) -> str:
        """The first option: A always moves on."""
        return "first"

    def play(self, match: Match) -> Flow:
        """Two turns of A's moves (each answered by B's fire), then B's digging in."""
        for turn in (1, 2):
            match.state.turn = turn
            match.state.phase = "A moves"
            for _ in range(3):
                yield choose("A", "move on?", "1.1", [Option("move", "Move"), Option("stop", "Stop")])
                yield choose("B", "fire at the mover?", "1.2",
                             [Option("fire", "Fire"), Option("hold", "Hold")])
            match.state.phase = "B digs"
            yield choose("B", "dig in?", "1.3", [Option("dig", "Dig"), Option("wait", "Wait")])
        return Result(None, "draw", "1.4")


def test_b_phase_stands_through_the_other_sides_decisions_at_a_hot_seat() -> None:
    """Hot-seat: A's b phase goes on through B's decisions in A's phase (B's fire), and ends
    only when A's phase ends; B, who asked for nothing, is never told the bot is done."""
    out = io.StringIO()
    m = Match(_Patrol(), seed=1)
    # A: b phase; then for each of A's moves: hand-over to B, B fires, hand-over back (A's bot
    # goes on); after the third, B digs in; the hand-over to A at turn 2; A is asked: input ends
    lines = ["b phase", "", "1", "", "", "1", "", "", "1", "1", ""]
    s = TerminalSession(m, {"A", "B"}, read=reader(lines), out=out)
    with pytest.raises(QuitGame):
        while m.pending is not None:
            index = s.ask(m.pending)
            assert index is not None
            m.decide_index(index)
    assert m.decisions == ["move", "fire"] * 3 + ["dig"]
    text = out.getvalue()
    assert text.count("(the first bot takes 1. Move)") == 3
    parts = text.split("=== ")
    told = [p for p in parts if "(the bot is done" in p]
    assert len(told) == 1 and told[0].startswith("A to play") and m.state.turn == 2


class OddsGame(PigGame):
    """Pig whose first question offers two attacks with their odds (Option.detail) and a
    plain option: the odds table's test game."""

    def play(self, match: Match) -> Flow:
        yield choose("A", "Attack which?", "5.1", [
            Option("x", "attack the hill", "diff +1: eliminated 17%, retreat 33%, no effect 50%",
                   {"odds": {"DE": 1 / 6, "DR": 1 / 3, "NE": 1 / 2}}),
            Option("y", "attack the wood", "diff -1: retreat 25%, no effect 75%",
                   {"odds": {"DR": 0.25, "NE": 0.75}}),
            Option("done", "no attack")])
        return Result(None, "draw", "5.1")


def test_odds_are_shown_once_as_a_table_and_i_says_an_options_odds() -> None:
    """The odds of a decision's options are one table (a row an option, a column a result)
    under the menu, each option's line staying short; i N gives that option's odds text and
    its chances."""
    out = io.StringIO()
    m = Match(OddsGame(), seed=1)
    s = TerminalSession(m, {"A"}, read=reader(["i 1", "3"]), out=out)
    assert s.ask(m.pending) == 2  # type: ignore[arg-type]
    text = out.getvalue()
    menu = text.split("chances (%)")[0]
    assert "eliminated 17%" not in menu and "1. attack the hill" in menu
    table = text.split("chances (%)")[1].splitlines()
    assert table[0].split() == ["DE", "DR", "NE"]
    assert table[1].split()[-3:] == ["17", "33", "50"] and table[2].split()[-3:] == ["-", "25", "75"]
    assert "eliminated 17%" in text and "chances: DE 17%, DR 33%, NE 50%" in text
