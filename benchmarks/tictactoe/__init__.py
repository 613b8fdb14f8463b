"""Tic-tac-toe as a tabletop game: the like-for-like engine step beside OpenSpiel's Python one.

Not a wargame: the smallest game that still goes through the whole engine (a decision with
its options, validation, the record, the event log, the flow resumed), so the cost of one
move can be set beside one move of OpenSpiel's pure-Python ``tic_tac_toe.py``. Load it with
``load_game("benchmarks/tictactoe")``; ``benchmarks/bench_ratio.py`` does.
"""

from __future__ import annotations

from tabletop.core.engine.decisions import Decision, Option, ResumePoint
from tabletop.core.engine.match import Flow, Game, GameInfo, Match, Result

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
RESUME = ResumePoint("move")
"""Every move can be asked again from the board as it stands."""
CELLS = tuple(Option(i, f"cell {i}") for i in range(9))


class TicTacToe(Game):
    """Two players put their marks in turn; three in a line wins, a full board is a draw."""

    info = GameInfo(id="tictactoe", title="Tic-tac-toe", version="1", players=("x", "o"),
                    description="A benchmark: the engine step beside OpenSpiel's Python tic-tac-toe.")

    def setup(self, match: Match) -> None:
        """An empty board of nine cells ("" for empty)."""
        match.state.vars["board"] = [""] * 9

    def play(self, match: Match) -> Flow:
        """Alternate moves until a line is made or the board is full."""
        board: list[str] = match.state.vars["board"]
        for move in range(sum(1 for mark in board if mark), 9):
            player = "xo"[move % 2]
            cell = yield Decision(player, "your mark where?", "move",
                                  tuple(CELLS[i] for i in range(9) if not board[i]),
                                  resume=RESUME)
            board[cell] = player
            if any(board[a] == board[b] == board[c] == player for a, b, c in LINES):
                return Result(player, "three in a line", "win")
        return Result(None, "draw", "draw")

    def resume_flow(self, match: Match, point: ResumePoint) -> Flow:
        """Every move is asked from the board alone: the game goes on from the marks made."""
        return (yield from self.play(match))


GAME = TicTacToe()
