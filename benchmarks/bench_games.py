"""Whole-game throughput of each playable game with its default bots: what a balance study costs.

Run: python benchmarks/bench_games.py [--games N] [--only GAME ...]   (prints figures; never a
timed test)

Each game is timed in one process after one warm-up game (the first game also loads and
cross-checks the data files and fills the rules' caches, a cost `tabletop simulate` pays once
a process). CPU seconds, so the figures do not depend on other work on the machine as much.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent, registered

ROOT = Path(__file__).resolve().parents[1]
# Scenarios timed besides each game's default one: iwo_valor's Very Short Game is played to
# turn 35 whatever the score (its campaign games may end early by sudden death, X.A).
EXTRA = (("iwo_valor", "very_short"),)
LAST_TURNS: list[int] = []


def bench(name: str, games: int, scenario: str | None = None) -> tuple[float, float, float, int]:
    """(first-game CPU s, CPU s a game after it, µs a decision, decisions a game) over seeds 1..games;
    the timed games' last turns are left in ``LAST_TURNS``."""
    game = load_game(name)
    turns: list[int] = []

    def play(seed: int) -> int:
        agents = {side: make_agent(game, side, game.default_bot(side), seed) for side in game.info.players}
        match = Match(game, scenario=scenario, seed=seed)
        match.run(agents)
        turns.append(match.state.turn)
        return len(match.decisions)

    t0 = time.process_time()
    play(0)
    first = time.process_time() - t0
    decisions = 0
    t0 = time.process_time()
    for seed in range(1, games + 1):
        decisions += play(seed)
    spent = time.process_time() - t0
    LAST_TURNS[:] = turns[1:]
    return first, spent / games, spent / decisions * 1e6, decisions // games


def main(argv: list[str] | None = None) -> int:
    """Print a line of figures per playable game (and the example game)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games a game id (default 20)")
    parser.add_argument("--only", nargs="+", default=None, metavar="GAME",
                        help="time only these games (ids, or 'example' for the example game)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    print(f"python {sys.version.split()[0]}; {args.games} games each, default bots, one process")
    names = [n for n in sorted(registered()) if load_game(n).info.playable]
    names.append(str(ROOT / "docs" / "example" / "skirmish"))
    if args.only:
        wanted = set(args.only)
        names = [n for n in names if Path(n).name in wanted
                 or ("example" in wanted and Path(n).name == "skirmish")]
        if not names:
            parser.error(f"--only: no playable game among {sorted(wanted)}")
    runs: list[tuple[str, str | None]] = [(n, None) for n in names]
    runs += [(n, s) for n, s in EXTRA if n in names]
    for name, scenario in runs:
        first, per_game, per_decision, length = bench(name, args.games, scenario)
        label = Path(name).name + (f" {scenario}" if scenario else "")
        hours = per_game * 10_000 / 3600
        turns = LAST_TURNS
        print(f"{label:<12} first game {first:6.2f} s; then {per_game * 1e3:8.1f} ms a game "
              f"({length} decisions, {per_decision:6.1f} µs each, last turn {min(turns)}-{max(turns)}); "
              f"10,000 games: {hours:5.2f} CPU hours")
    return 0


if __name__ == "__main__":
    sys.exit(main())
