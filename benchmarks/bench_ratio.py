"""A whole auto game per decision, as a ratio to OpenSpiel-Python tic-tac-toe moves.

Run: python benchmarks/bench_ratio.py [--games N] [--only GAME ...] [--openspiel PATH]   (prints figures only)

Absolute times on a shared machine are noise; a ratio measured in the same run is not. All
times are CPU time of this process, and the yardstick is measured again before and after
each figure, the ratio taken to the mean of those two, so load that comes and goes during
the run moves both sides of a ratio alike. The
yardstick is one move of OpenSpiel's pure-Python ``tic_tac_toe.py`` in random playouts
(``legal_actions``, a random choice, ``apply_action``). OpenSpiel is an optional extra
(``pip install -e '.[bench]'``, i.e. ``open_spiel`` from PyPI); without it, ``--openspiel``
or the ``OPENSPIEL_TTT`` environment variable may name a checkout's
``open_spiel/python/games/tic_tac_toe.py`` (it still needs ``pyspiel``). With neither, the
ratios are skipped with a message and only our own figures are printed.

Then: tic-tac-toe written as a tabletop game (``benchmarks/tictactoe``) through the bare
``decide`` loop and through ``Match.run`` with agents (views built), and every playable
registered game plus the example, whole games with their default bots after one warm-up
game: microseconds a decision and the ratio. Goals: at most 3 moves a decision for Bonins,
2.5 for iwo_1945, 5 for manila45, 6 for iwo_valor (its default scenario), 2 for the example.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop.core.engine.match import Game, Match
from tabletop.core.engine.registry import load_game, make_agent, registered

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "docs" / "example" / "skirmish")
TICTACTOE = str(ROOT / "benchmarks" / "tictactoe")
GOALS = {"iwo_bonins": 3.0, "iwo_1945": 2.5, "manila45": 5.0, "iwo_valor": 6.0, "skirmish": 2.0}


def openspiel_tictactoe(path: str | None) -> Any | None:
    """OpenSpiel's Python tic-tac-toe game object, or None (with a message) when absent."""
    try:
        if path:
            spec = importlib.util.spec_from_file_location("openspiel_python_tic_tac_toe", path)
            if spec is None or spec.loader is None:
                raise ImportError(f"cannot load {path}")
            module: Any = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module("open_spiel.python.games.tic_tac_toe")
    except (ImportError, OSError) as exc:
        print(f"OpenSpiel's Python tic-tac-toe is not available ({exc}); ratios skipped. "
              f"Install the extra (pip install -e '.[bench]') or give --openspiel PATH.")
        return None
    return module.TicTacToeGame()


def openspiel_per_move(game: Any, playouts: int, seed: int = 1) -> float:
    """Microseconds a move of random playouts of OpenSpiel's Python tic-tac-toe."""
    rng = random.Random(seed)
    moves = 0
    t0 = time.process_time()
    for _ in range(playouts):
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            moves += 1
    return (time.process_time() - t0) / moves * 1e6


def ours_decide_loop(game: Game, playouts: int, seed: int = 1) -> float:
    """Microseconds a move of random playouts of our tic-tac-toe through ``Match.decide_index``."""
    rng = random.Random(seed)
    moves = 0
    t0 = time.process_time()
    for _ in range(playouts):
        match = Match(game, seed=seed)
        while match.pending is not None:
            match.decide_index(rng.randrange(len(match.pending.options)))
            moves += 1
    return (time.process_time() - t0) / moves * 1e6


def ours_run(game: Game, playouts: int, seed: int = 1) -> float:
    """Microseconds a move of our tic-tac-toe through ``Match.run`` with random agents (views)."""
    moves = 0
    t0 = time.process_time()
    for n in range(playouts):
        match = Match(game, seed=seed)
        match.run({s: make_agent(game, s, "random", seed + n) for s in game.info.players})
        moves += len(match.decisions)
    return (time.process_time() - t0) / moves * 1e6


def whole_games(game: Game, games: int) -> tuple[float, int]:
    """(µs a decision, decisions a game) of whole default-bot games, seeds 1..games, after a warm-up."""

    def play(seed: int) -> int:
        agents = {s: make_agent(game, s, game.default_bot(s), seed) for s in game.info.players}
        match = Match(game, seed=seed, snapshots=False)  # as a study plays it
        match.run(agents)
        return len(match.decisions)

    play(0)
    decisions = 0
    t0 = time.process_time()
    for seed in range(1, games + 1):
        decisions += play(seed)
    return (time.process_time() - t0) / decisions * 1e6, decisions // games


def playable_games() -> list[tuple[str, str]]:
    """(label, name to load) of every playable registered game, then the example."""
    out = []
    for name in sorted(registered()):
        try:
            if load_game(name).info.playable:
                out.append((name, name))
        except Exception as exc:  # a broken plugin is reported, not fatal to the benchmark
            print(f"{name}: cannot load ({exc})")
    out.append(("skirmish", EXAMPLE))
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the yardstick, the engine step and the ratio of every playable game."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="whole games a game (default 10)")
    parser.add_argument("--playouts", type=int, default=4000, help="tic-tac-toe playouts (default 4000)")
    parser.add_argument("--openspiel", default=os.environ.get("OPENSPIEL_TTT"),
                        help="path of OpenSpiel's python/games/tic_tac_toe.py (default: the installed "
                             "open_spiel package)")
    parser.add_argument("--only", nargs="+", default=None, metavar="GAME",
                        help="time only these games (ids, or 'skirmish' for the example)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.playouts < 1:
        parser.error("--games and --playouts must be at least 1")
    print(f"python {sys.version.split()[0]}; {args.games} games a game after a warm-up, "
          f"{args.playouts} tic-tac-toe playouts, one process")
    spiel = openspiel_tictactoe(args.openspiel)
    yardsticks: list[float] = []

    def yardstick() -> float | None:
        if spiel is None:
            return None
        yardsticks.append(openspiel_per_move(spiel, args.playouts))
        return yardsticks[-1]

    def measured(fn: Callable[[], tuple[float, int]]) -> tuple[float, int, str]:
        """(µs, length, ratio text) of one figure, bracketed by the yardstick."""
        before = yardstick()
        us, length = fn()
        after = yardstick()
        if before is None or after is None:
            return us, length, ""
        return us, length, f"{us / ((before + after) / 2):6.2f} moves"

    ttt = load_game(TICTACTOE)
    rows: list[tuple[str, Callable[[], tuple[float, int]]]] = [
        ("tictactoe, decide loop", lambda: (ours_decide_loop(ttt, args.playouts), 0)),
        ("tictactoe, Match.run + agents", lambda: (ours_run(ttt, args.playouts), 0)),
    ]
    for label, fn in rows if args.only is None else []:
        us, _, ratio = measured(fn)
        print(f"{label:<34} {us:8.1f} µs a move      {ratio}")
    games = playable_games()
    if args.only is not None:
        unknown = sorted(set(args.only) - {label for label, _ in games})
        if unknown:
            parser.error(f"not a playable game: {', '.join(unknown)}")
        games = [(label, name) for label, name in games if label in args.only]
    for label, name in games:
        game = load_game(name)
        us, length, ratio = measured(lambda game=game: whole_games(game, args.games))  # type: ignore[misc]
        goal = GOALS.get(label)
        goal_text = f"  (goal ≤ {goal:g})" if goal is not None and ratio else ""
        print(f"{label + f', {length} decisions a game':<34} {us:8.1f} µs a decision "
              f"{ratio}{goal_text}")
    if yardsticks:
        print(f"OpenSpiel Python tic-tac-toe (the yardstick): {statistics.mean(yardsticks):.1f} µs a "
              f"move CPU, {min(yardsticks):.1f}–{max(yardsticks):.1f} over the run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
