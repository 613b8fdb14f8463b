"""The cost of the study machinery against the games' own time (the target: under 2%).

Run: python benchmarks/bench_study.py [--games N] [--rounds R] [--jobs J]   (prints figures)

The same N games of the example game (seeds 1..N, default bots) are played R times each way,
alternately, in this one process: (a) a bare loop that builds the agents and runs each match,
and (b) through ``run_study`` as ``tabletop simulate`` does, which adds the chunk plan, a row a
game (with its state hash), the progress callback and the ordering of rows. CPU seconds of
this process, best round of each, so that other work on the machine disturbs the figures
less. The state hash is also timed alone: it is most of what a row costs. With ``--jobs J``
the same study is then played in J local processes, and the time the workers spent in games
is set against J x the wall time (on a busy machine that figure also holds the waiting).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tabletop.core.engine.match import Match
from tabletop.core.engine.registry import load_game, make_agent
from tabletop.core.studies.study import Study, plan_settings, run_study

ROOT = Path(__file__).resolve().parents[1]
GAME = str(ROOT / "docs" / "example" / "skirmish")


def bare(games: int) -> tuple[float, float]:
    """CPU seconds to play the games in a plain loop, and the CPU seconds of their state hashes."""
    game = load_game(GAME)
    hashing = 0.0
    began = time.process_time()
    for seed in range(1, games + 1):
        agents = {side: make_agent(game, side, game.default_bot(side), seed) for side in game.info.players}
        match = Match(game, seed=seed)
        match.run(agents)
        h0 = time.process_time()
        match.state_hash()
        hashing += time.process_time() - h0
    return time.process_time() - began - hashing, hashing


def machinery(games: int) -> float:
    """CPU seconds to play the same games through run_study (one process)."""
    game = load_game(GAME)
    study = Study(game.source, None, 1, games, plan_settings(game, {}, {}))
    done = [0]

    def tell(n: int) -> None:
        done[0] += n

    began = time.process_time()
    run = run_study(study, progress=tell)
    spent = time.process_time() - began
    assert run.games == games == done[0]
    run.close()
    return spent


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games a round (default 1000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds each way (default 3)")
    parser.add_argument("--jobs", type=int, default=0, help="also time J local processes (default: no)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    print(f"python {sys.version.split()[0]}; example game, {args.games} games a round, {args.rounds} rounds")
    bare(5)  # warm-up: loading, caches
    plain, through, hashes = [], [], []
    for _ in range(args.rounds):
        seconds, hashing = bare(args.games)
        plain.append(seconds)
        hashes.append(hashing)
        through.append(machinery(args.games))
    best_plain, best_through, best_hash = min(plain), min(through), min(hashes)
    print("bare loop (games only)   " + "  ".join(f"{s:6.2f}" for s in plain) + " CPU s")
    print("through run_study        " + "  ".join(f"{s:6.2f}" for s in through) + " CPU s")
    print(f"state hashes alone       {best_hash:6.3f} CPU s ({best_hash / best_plain:.2%} of the games)")
    overhead = (best_through - best_plain) / best_plain
    print(f"machinery overhead       {overhead:+.2%} of the games' own time (best rounds; "
          f"{1e3 * (best_through - best_plain) / args.games:+.3f} ms a game)")
    if args.jobs > 1:
        game = load_game(GAME)
        study = Study(game.source, None, 1, args.games, plan_settings(game, {}, {}))
        run = run_study(study, jobs=args.jobs)
        busy = run.seconds * args.jobs
        print(f"{args.jobs} processes: {run.seconds:.2f} s wall, {run.game_seconds:.2f} s in games in the "
              f"workers, {1 - run.game_seconds / busy:.1%} of {args.jobs} x wall outside games "
              f"(start-up, sending chunks, waiting for the last one, other work on the machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
